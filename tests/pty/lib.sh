# SPDX-License-Identifier: Zlib
# tests/pty/lib.sh: shared part of the pty tests (sourced; they print TAP).
#
# The program under test is $PTY_PROG.  PTY_TARGET says what it is:
#   demo  tests/le-demo (the default): prints `got: [LINE]' for each line
#   rc    the shell (PTY_PROG defaults to $RC -i, else src/rc -i): runs each line
# Tests type lines like `echo fir^st' so that the shell's output (`first')
# differs from the echo of the typed line; said() gives what to expect.

: "${abs_top_builddir:=$(pwd)}"
: "${PTY_TARGET:=demo}"
build_var() { sed -n "s/^$1 = //p" "$abs_top_builddir/Makefile" 2>/dev/null; }
: "${LE_MODE:=$(build_var LE_MODE)}"
: "${LE_LIB:=$(build_var LE_LIB)}"
case $PTY_TARGET in
rc)	: "${PTY_PROG:=${RC:-$abs_top_builddir/src/rc} -i}"; PTY_PROMPT='; ' ;;
*)	: "${PTY_PROG:=$abs_top_builddir/tests/le-demo}"; PTY_PROMPT='demo> ' ;;
esac
PTYDRIVE=$abs_top_builddir/tests/ptydrive
# Whether the build uses SIGWINCH (config.h; tests/fallbacks.site turns it
# off): without it a resize does not reach the editor.
has_sigwinch() { grep -q '^#define HAVE_DECL_SIGWINCH 1' "$abs_top_builddir/config.h"; }
# Nothing from the caller's own shell (rc exports its variables and
# functions) may reach the shell under test: no history file, prompt or handler.
unset history prompt fn_prompt fn_sigint fn_sigwinch 2>/dev/null

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pty.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home"
n=0

# said DEMO RC: the output that shows the line ran, for this target.
said() {
	if [ "$PTY_TARGET" = rc ]; then printf '%s\n' "$2"; else printf 'got: [%s]\n' "$1"; fi
}

# check DESCRIPTION [VAR=VALUE...]: run PTY_PROG under ptydrive with the
# script on stdin, in $tmp/home (also $HOME), and print one TAP line.
# PTY_PROG is split at spaces: a test names its own scripts in $tmp as
# ../NAME, since $TMPDIR may hold a space.
check() {
	desc=$1
	shift
	n=$((n + 1))
	(cd "$tmp/home" && exec env HOME="$tmp/home" INPUTRC=/dev/null \
		TERM=xterm LC_ALL=C "$@" "$PTYDRIVE" $PTY_PROG) >"$tmp/log" 2>&1
	status=$?
	case $status in
	0)	echo "ok $n - $desc" ;;
	77)	echo "ok $n - $desc # SKIP no pseudo-terminal" ;;
	*)	echo "not ok $n - $desc"
		sed 's/^/# /' "$tmp/log" ;;
	esac
	return $status
}

# pty_libs [plain]: the editors a test runs its cases under, as RC_EDITLIB
# takes them: `linked' (the library a static or dynamic build links), a
# lazy build's sonames (first choice first), nothing in a build without
# editing; with plain, `none' too, the plain reader.  PTY_OWN_EDITOR=yes
# (make check-terminal, which tests/ci-all runs in the builds that differ
# from the default only in their editor) keeps to what tells this build
# from the default one: of a lazy build's sonames its first choice only
# (it loads the others with the code the default build tests), and the
# plain reader (the same code in every build) only without an editor.
pty_libs() {
	local libs
	case $LE_MODE in
	lazy)	libs=$LE_LIB
		[ "${PTY_OWN_EDITOR-}" != yes ] || libs=${libs%% *} ;;
	no)	libs= ;;
	*)	libs=linked ;;
	esac
	if [ "${1-}" = plain ] && { [ "${PTY_OWN_EDITOR-}" != yes ] || [ -z "$libs" ]; }; then
		libs="${libs:+$libs }none"
	fi
	echo "$libs"
}

# search_prompt LIB: what the editor LIB (a library, or linked: the one
# LE_LIB names) shows when C-r starts a search.
search_prompt() {
	case $1 in
	linked)	set -- "$LE_LIB" ;;
	esac
	case $1 in
	*edit*)	echo 'bck:' ;;
	*)	echo 'reverse-i-search' ;;
	esac
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# editor_missing LIB WHAT [VAR=VALUE...]: check that the editor LIB loads
# (none needs no loading).  True, with WHAT reported skipped, if LIB is
# not installed.
editor_missing() {
	lib=$1 what=$2
	shift 2
	[ "$lib" != none ] || return 1
	check "$lib: the editor loads" "$@" <<EOF2 && return 1
reject cannot load line editor
expect $PTY_PROMPT
raw
EOF2
	grep -q 'rejected text appeared: cannot load' "$tmp/log" || return 1
	skip "$lib: $what" "$lib is not installed"
}

plan() {
	echo "1..$n"
}
