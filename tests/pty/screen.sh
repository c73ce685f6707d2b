# SPDX-License-Identifier: Zlib
# tests/pty/screen.sh: what the screen shows, for the pty tests (sourced
# after lib.sh): the shell runs in a tmux pane of $cols x $rows, and tmux's
# model of the screen is read back.  Waits are for what the screen shows,
# never for a time, with $RC_TEST_TIMEOUT (300 s) as a last resort.

: "${cols:=60}" "${rows:=40}"
limit=${RC_TEST_TIMEOUT:-300}
sock=$tmp/tmux
tm() { tmux -S "$sock" -f /dev/null "$@"; }
have_tmux() { command -v tmux >/dev/null 2>&1; }

# start VAR=VALUE...: the shell in a new pane, in $tmp/home with that
# environment, once its first prompt shows.
start() {
	{
		echo '#!/bin/sh'
		printf 'cd "%s" && exec env -i HOME="%s" TERM=screen INPUTRC=/dev/null LC_ALL=C PATH=/usr/bin:/bin' \
			"$tmp/home" "$tmp/home"
		for v in "$@"; do printf " '%s'" "$v"; done
		printf ' %s\n' "$PTY_PROG"
	} >"$tmp/run"
	chmod +x "$tmp/run"
	tm kill-server 2>/dev/null
	env SHELL=/bin/sh tmux -S "$sock" -f /dev/null new-session -d -s rc \
		-x "$cols" -y "$rows" "'$tmp/run'" || return 1
	until_screen '^;$'
}

stop() { tm kill-server 2>/dev/null; }

# The screen's rows, without the blank ones at the bottom.
screen() { tm capture-pane -p -t rc | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }

# until_screen REGEX: wait until a row matches (false, the screen shown as
# a TAP comment, if it does not within $limit seconds).
until_screen() {
	end=$(($(date +%s) + limit))
	until screen | grep -q -e "$1"; do
		if [ "$(date +%s)" -gt "$end" ]; then
			echo "# gave up waiting for a row matching: $1"
			screen | sed 's/^/# |/'
			return 1
		fi
		sleep 0.02
	done
}

# type TEXT: keys typed as they are; press KEY...: keys by tmux's names.
type_keys() { tm send-keys -t rc -l "$1"; }
press() { tm send-keys -t rc "$@"; }
# run COMMAND: typed, then Return.
run() { type_keys "$1" && press Enter; }

# shows DESCRIPTION FILE: one TAP line, whether the screen down to the
# first row `done' (a marker command's output, after which the prompt may
# or may not be drawn yet) is the file.
shows() {
	n=$((n + 1))
	screen | sed '/^done$/q' >"$tmp/screen"
	if cmp -s "$2" "$tmp/screen"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		diff "$2" "$tmp/screen" | sed 's/^/# /'
	fi
	stop
}

# failed DESCRIPTION: a step or a wait failed (and said why).
failed() {
	n=$((n + 1))
	echo "not ok $n - $1"
	stop
}
