# SPDX-License-Identifier: Zlib
# tests/pty/screen.sh: what the screen shows, for the pty tests (sourced
# after lib.sh; rc-screen.test, rc-keys-screen.test): the shell runs in a
# tmux pane of $cols x $rows, and tmux's model of the screen is read back.
# Waits are for what the screen shows or where its cursor is, never for a
# time, with $RC_TEST_TIMEOUT (300 s) as a last resort.

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

cursor() { tm display-message -p -t rc '#{cursor_x} #{cursor_y}'; }

# until_state TEST WHAT: wait until the shell command TEST is true (false,
# the screen shown as a TAP comment, if it is not within $limit seconds).
# Most waits end at the first look: the clock is read only after it, and
# then every 50th (each process costs milliseconds: the checks of a screen
# test are mostly processes started).
until_state() {
	end= tries=0
	until eval "$1"; do
		[ -n "$end" ] || end=$(($(date +%s) + limit))
		tries=$((tries + 1))
		if [ $((tries % 50)) = 0 ] && [ "$(date +%s)" -gt "$end" ]; then
			echo "# gave up waiting for: $2"
			screen | sed 's/^/# |/'
			return 1
		fi
		sleep 0.02
	done
}
# until_screen REGEX: until a row of the screen matches (no pattern here
# matches the blank rows below the text, which screen leaves out);
# until_cursor "X Y": until the cursor is there; until_moved "X Y": until
# it has left there.
until_screen() { state=$1; until_state 'tm capture-pane -p -t rc | grep -q -e "$state"' "a row matching $1"; }
until_cursor() { state=$1; until_state '[ "$(cursor)" = "$state" ]' "cursor at $1"; }
until_moved() { state=$1; until_state '[ "$(cursor)" != "$state" ]' "cursor away from $1"; }

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
