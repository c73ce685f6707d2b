# SPDX-License-Identifier: Zlib
# tests/install/lib.sh: shared part of the install tests (sourced; they
# print TAP).  Sets $tmp (a scratch directory, removed at exit), n and
# failed, and $tmp/why, where a check writes why it failed.

tmp=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/why"
n=0
failed=0

# result STATUS DESCRIPTION: one TAP line, ok when STATUS is 0; a failure
# is followed by what $tmp/why says.
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -s "$tmp/why" ] && sed 's/^/# /' "$tmp/why" | head -n 60
		failed=1
	fi
	: >"$tmp/why"
}

# has FILE TEXT...: FILE has a line holding each TEXT (fixed strings).
has() {
	f=$1
	shift
	for text; do
		grep -qF -- "$text" "$f" 2>/dev/null ||
			{ echo "$f has no line with: $text" >>"$tmp/why"; return 1; }
	done
}

# roff TEXT: TEXT as the installed manual page writes it (doc/install-names).
roff() { printf '%s\n' "$1" | sed 's/\\/\\e/g; s/-/\\-/g'; }
