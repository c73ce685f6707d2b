/* SPDX-License-Identifier: Zlib */
/* le_rl_keys.c: keys bound to shell code with readline or libedit ($keys,
 * matched by le_keys.c), and the line edited in $EDITOR: the hook run
 * between two keys, where the prompt and the line were, wiped. */
#include "config.h"

#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "le.h"
#include "le_impl.h"
#include "le_rl.h"

static RlApi rl;		/* a copy of le_rl.c's, made once it is loaded */
static bool libedit;
static const char *progname = "rc";

/* Keys bound to shell code ($keys, le_keys.c).  What is typed is matched
 * before the editor sees it; a bound sequence runs the shell's hook with
 * the line and the cursor where the prompt and the line were, wiped
 * (clear_visible_line), and the editor then takes the line and cursor back
 * and draws the prompt and the line again below what the code printed.
 * GNU readline lets that be done between two keys.  libedit's readline API
 * gives the line only to a function bound to a key, and sets the cursor
 * only through its own commands: it is given keys of its own, C1 control
 * characters no terminal sends, bound to such commands, and the steps are
 * keys it reads. */
enum { KEY_TRANSPOSE = 0232, KEY_REDISPLAY, KEY_END, KEY_BEGIN, KEY_DELETE, KEY_RUN };

static LeKeyHook *key_hook;
static bool keys_ready;		/* the editor has what bound keys need */
static bool keys_allowed = true;	/* le_keys_allow() */
static int queued[8];		/* keys given to the editor before any typed */
static size_t nqueued, queued_at;

/* The prompt being shown (a copy: a bound key's function may change
 * $prompt), and what the editor was given of it (libedit: its last line,
 * le_rl.c's libedit_prompt()), for clear_visible_line(); the markers
 * around what a prompt prints but the screen does not show (escape
 * sequences), as both libraries read them (LE_PROMPT_HIDE,
 * LE_PROMPT_SHOW). */
static const char *full_prompt = "", *shown_prompt = "";

/* libedit: the step KEY_RUN takes next (RUN_IDLE: v in vi command mode),
 * and what it works on. */
static struct {
	enum { RUN_IDLE, RUN_START, RUN_READ, RUN_CALL, RUN_INSERT } step;
	bool edit;	/* the line in an editor, not fn */
	size_t len;	/* the line's, in bytes, before a blank put after it */
	bool blank_shown;	/* that blank is on the screen */
	char *fn;
	char *line;
	size_t cursor;
} run;

static void queue(int key)
{
	if (nqueued < sizeof queued / sizeof *queued)
		queued[nqueued++] = key;
}

void le_rl_keys_start(const char *full, const char *shown)
{
	full_prompt = full;
	shown_prompt = shown;
	nqueued = queued_at = 0;
	run.step = RUN_IDLE;
	le_keys_reset();
}

/* GNU readline's states in which a key is no command of its own: a
 * search, a completion's question, a numeric argument, the rest of a
 * command or of a key sequence. */
enum { RL_BUSY = 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x4000 | 0x100000 |
	0x200000 | 0x800000 };

/* Whether a bound key may run the hook now. */
static bool hook_usable(void)
{
	return keys_ready && keys_allowed && key_hook != NULL;
}

static bool matching(void)
{
	return hook_usable() && (libedit || (*rl.readline_state & RL_BUSY) == 0);
}

static size_t screen_columns(void)
{
	int rows = 0, cols = 0;
	if (rl.get_screen_size != NULL)
		rl.get_screen_size(&rows, &cols);
	return cols > 0 ? (size_t) cols : 80;
}

/* A terminal that cannot move the cursor up (or none named): the old
 * line stays, and what follows goes below it. */
static bool cursor_moves(void)
{
	const char *term = getenv("TERM");
	return term != NULL && *term != '\0' && strcmp(term, "dumb") != 0;
}

/* Before a bound key's code runs, the prompt and the line are wiped from
 * the screen and the cursor left where the prompt began: what the code
 * prints appears there, and the editor draws the prompt and the line
 * again below it, so that a key that only edits the line changes it in
 * place.  With the cursor at the end of the line, it goes up the rows the
 * prompt and the line take (GNU readline 8.1 and later know those of the
 * line, rl_clear_visible_line) and clears to the end of the screen. */
static void clear_visible_line(const char *line, const char *after)
{
	FILE *out = *rl.outstream;
	if (!cursor_moves()) {
		fputc('\n', out);
		fflush(out);
		return;
	}
	size_t columns = screen_columns(), up = le_prompt_rows_above(full_prompt, columns);
	if (rl.clear_visible_line != NULL)
		rl.clear_visible_line();
	else
		up += le_rows_edited(shown_prompt, line, after, columns);
	fflush(out);
	fputc('\r', out);
	if (up > 0)
		fprintf(out, "\033[%zuA", up);
	fprintf(out, "\033[J");
	fflush(out);
}

/* The cursor the hook left, made at most the line's end and the start of
 * a character: an offset kept from a line the function changed may fall
 * inside one, and libedit then took the line for text it cannot read. */
static size_t char_start(const char *line, size_t cursor)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t at = 0, len = strlen(line);
	while (at < cursor && at < len) {
		size_t n = le_char_bytes(line + at, len - at, &st);
		if (at + n > cursor)
			break;
		at += n;
	}
	return at;
}

/* Run the hook with the terminal and the signals as the shell has them. */
static bool call_hook(const char *fn, char **line, size_t *cursor)
{
	fflush(*rl.outstream);
	rl.deprep_terminal();
	sigset_t editing;
	le_rl_as_shell(&editing);
	bool accept = key_hook(fn, line, cursor);
	le_rl_as_editor(&editing);
	*cursor = char_start(*line, *cursor);
	rl.prep_terminal(1);
	return accept;
}

/* GNU readline: run fn (NULL: the editor) between two keys.  Returns
 * true if the line is to be run. */
static bool gnu_run(const char *fn)
{
	char *line = strdup(*rl.line_buffer != NULL ? *rl.line_buffer : "");
	if (line == NULL)
		return false;
	size_t cursor = (size_t) *rl.point;
	*rl.point = *rl.end;
	rl.redisplay();
	clear_visible_line(line, "");
	bool accept = call_hook(fn, &line, &cursor);
	size_t len = strlen(line);
	rl.replace_line(line, 0);
	*rl.point = (int) (cursor < len ? cursor : len);
	free(line);
	rl.forced_update_display();
	return accept;
}

/* GNU readline asks, after an Escape in vi mode, whether more of a
 * sequence is on its way: bytes le_keys.c gave back (an Escape held as
 * the start of a bound sequence) are, besides what the terminal has, for
 * which it waits as long as readline itself would. */
static int input_waiting(void)
{
	if (queued_at < nqueued || le_keys_held())
		return 1;
	int us = rl.set_keyboard_input_timeout != NULL ?
		rl.set_keyboard_input_timeout(-1) : 0;
	struct pollfd p = { .fd = 0, .events = POLLIN };
	return poll(&p, 1, us / 1000) > 0;
}

/* GNU readline's command for v in vi command mode. */
static int gnu_edit_command(int count, int key)
{
	(void) count;
	(void) key;
	if (hook_usable() && gnu_run(NULL))
		queue('\n');
	return 0;
}

static void libedit_start(const char *fn)
{
	free(run.fn);
	run.fn = fn != NULL ? strdup(fn) : NULL;
	run.edit = fn == NULL;
	if (fn != NULL && run.fn == NULL)
		return;
	run.step = RUN_START;
	queue(KEY_RUN);
}

/* libedit: the line the hook left, drawn where the cursor is, then the
 * cursor put in place: the part after it first, at the line's start, then
 * the part before it inserted there (a line cannot be set empty: a blank
 * is deleted). */
static void libedit_put_line(bool accept)
{
	size_t len = strlen(run.line);
	run.cursor = accept || run.cursor > len ? len : run.cursor;
	const char *tail = run.line + run.cursor;
	rl.replace_line(*tail != '\0' ? tail : " ", 0);
	le_rl_write_prompt_lines(full_prompt);
	rl.forced_update_display();
	queue(KEY_BEGIN);
	if (*tail == '\0')
		queue(KEY_DELETE);
	if (run.cursor > 0) {
		run.step = RUN_INSERT;
		queue(KEY_RUN);
		queue(KEY_REDISPLAY);
	}
	if (accept)
		queue('\n');
}

/* libedit's line is read with a blank put after it.  rl_line_buffer is
 * not to be read: libedit keeps it pointing where its copy of the line in
 * bytes began, which moves when that copy grows (a line of more than 1
 * KiB).  rl_copy_text() copies the line afresh, but a byte short of what
 * it is asked for: the blank is the byte left out (the whole line is
 * replaced afterwards).  The blank goes where the cursor is, at the end;
 * in vi command mode the cursor stays on the last character, and the
 * blank is swapped with it. */
static void libedit_put_blank(void)
{
	run.len = (size_t) *rl.end;
	run.blank_shown = (size_t) *rl.point < run.len;
	rl.insert_text(" ");
	if (run.blank_shown)
		queue(KEY_TRANSPOSE);
}

/* The line (malloc'd) libedit_put_blank() left, without the blank. */
static char *libedit_line(void)
{
	char *line = rl.copy_text(0, (int) run.len + 1);
	if (line != NULL)
		line[run.len] = '\0';	/* it has room for len + 2 */
	return line;
}

/* libedit's function for KEY_RUN. */
static int libedit_step(int count, int key)
{
	(void) count;
	(void) key;
	switch (run.step) {
	case RUN_IDLE:
		if (!hook_usable())
			break;	/* a program without the hook (tests/le-demo) */
		free(run.fn);
		run.fn = NULL;
		run.edit = true;
		/* FALLTHROUGH */
	case RUN_START:
		run.cursor = (size_t) *rl.point;
		run.step = RUN_READ;
		queue(KEY_END);
		queue(KEY_RUN);
		break;
	case RUN_READ:
		run.step = RUN_CALL;
		libedit_put_blank();
		queue(KEY_RUN);
		break;
	case RUN_CALL:
		run.step = RUN_IDLE;
		free(run.line);
		if ((run.line = libedit_line()) == NULL)
			break;
		clear_visible_line(run.line, run.blank_shown ? " " : "");
		libedit_put_line(call_hook(run.edit ? NULL : run.fn, &run.line, &run.cursor));
		break;
	case RUN_INSERT:
		run.step = RUN_IDLE;
		run.line[run.cursor] = '\0';
		rl.insert_text(run.line);
		break;
	}
	return 0;
}

static void libedit_bind(const char *how, const char *key, const char *command)
{
	char line[64];
	snprintf(line, sizeof line, "bind %s'%s' %s", how, key, command);
	rl.parse_and_bind(line);
}

/* The keys libedit is given, in the editing and vi command keymaps; v
 * there edits the line. */
static void libedit_keys(void)
{
	static const char *const commands[] = {
		"ed-transpose-chars", "ed-redisplay", "ed-move-to-end",
		"ed-move-to-beg", "ed-delete-next-char", "rc-key",
	};
	rl.bind_key(0, NULL);	/* makes libedit (and binds nothing): the keys are its */
	/* rl_add_defun also binds what vis(3) makes of the key: M^_ (M, then
	 * Control-_) with libbsd's, which makes M begin a sequence and M
	 * typed before another key vanish.  M inserts itself again. */
	rl.add_defun("rc-key", libedit_step, KEY_RUN);
	libedit_bind("", "M", "ed-insert");
	for (int i = 0; i < 6; i++) {
		char key[8];
		snprintf(key, sizeof key, "\\%o", KEY_TRANSPOSE + i);
		libedit_bind("", key, commands[i]);
		libedit_bind("-a ", key, commands[i]);
	}
	libedit_bind("-a -s ", "v", "'\\237'");
}

static bool keys_possible(void)
{
	if (rl.point == NULL || rl.end == NULL || rl.replace_line == NULL ||
	    rl.prep_terminal == NULL || rl.deprep_terminal == NULL ||
	    rl.forced_update_display == NULL)
		return false;
	if (libedit)
		return rl.insert_text != NULL && rl.copy_text != NULL && rl.add_defun != NULL &&
			rl.parse_and_bind != NULL && rl.bind_key != NULL;
	return rl.redisplay != NULL;
}

void le_rl_keys_setup(const RlApi *api, bool is_libedit, const char *name_of_shell)
{
	rl = *api;
	libedit = is_libedit;
	progname = name_of_shell;
	if (!keys_possible())
		return;
	if (libedit) {
		locale_t shell = le_rl_enter_edit_locale();
		libedit_keys();
		le_rl_leave_edit_locale(shell);
	} else {
		void *vi = rl.get_keymap_by_name != NULL ?
			rl.get_keymap_by_name("vi-command") : NULL;
		if (vi != NULL && rl.bind_key_in_map != NULL)
			rl.bind_key_in_map('v', gnu_edit_command, vi);
		if (rl.input_available_hook != NULL)
			*rl.input_available_hook = input_waiting;
	}
	keys_ready = true;
	le_keys_set(progname, NULL, 0);
}

/* A byte typed (or given back), not matched. */
int le_rl_next_byte(void)
{
	const char *fn;
	return le_keys_next(le_rl_read_byte, false, &fn);
}

/* The editor's next key: one queued, else what is typed, a bound
 * sequence run. */
int le_rl_next_key(bool *private_key)
{
	for (;;) {
		*private_key = queued_at < nqueued;
		if (*private_key) {
			int k = queued[queued_at++];
			if (queued_at == nqueued)
				nqueued = queued_at = 0;
			return k;
		}
		const char *fn;
		int c = le_keys_next(le_rl_read_byte, matching(), &fn);
		if (c != LE_KEY_BOUND)
			return c;
		if (libedit)
			libedit_start(fn);
		else if (gnu_run(fn))
			return '\n';
	}
}

void le_bind_keys(const char *const *words, int n)
{
	if (keys_ready)
		le_keys_set(progname, words, n);
}

void le_set_key_hook(LeKeyHook *hook)
{
	key_hook = hook;
}

void le_keys_allow(bool allow)
{
	keys_allowed = allow;
}
