/* SPDX-License-Identifier: Zlib */
/* le_rl.c: line editing with GNU readline or libedit through their common
 * readline API, linked in or (LE_LAZY) loaded with dlopen() on first use. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#if defined LE_LAZY || defined HAVE_DLADDR
#include <dlfcn.h>
#endif
#ifdef LE_LAZY
/* the API comes from dlsym() */
#elif defined LE_USE_LIBEDIT
#include <editline/readline.h>
#else
#include <readline/readline.h>
#include <readline/history.h>
#endif

#include "le.h"
#include "le_impl.h"

typedef char *EntryFn(const char *text, int state);
typedef char **CompletionFn(const char *text, int start, int end);
typedef int GetcFn(FILE *in);
typedef int KeyFn(int count, int key);
typedef int HookFn(void);

/* The part of the readline API used here.  Entries marked optional may be
 * NULL: the other library lacks them or ignores them. */
static struct {
	char *(*readline)(const char *);
	void (*add_history)(const char *);
	char **(*completion_matches)(const char *, EntryFn *);
	void (*resize_terminal)(void);		/* optional */
	void (*reset_screen_size)(void);	/* optional, GNU only */
	void (*free_line_state)(void);
	void (*cleanup_after_signal)(void);
	void (*prep_terminal)(int);		/* optional: with the next two, */
	void (*deprep_terminal)(void);		/* the editor stops and redraws */
	void (*forced_update_display)(void);	/* on ^Z (libedit's is void) */
	unsigned long *readline_state;
	const char **readline_name;
	const char **library_version;
	int *catch_signals;
	int *catch_sigwinch;			/* optional, ignored by libedit */
	int *change_environment;		/* optional, GNU only */
	GetcFn **getc_function;
	CompletionFn **attempted_completion_function;
	int *attempted_completion_over;
	const char **basic_word_break_characters;
	const char **completer_word_break_characters;	/* optional */
	int *completion_append_character;
	char **line_buffer;
	FILE **outstream;
	char *(*variable_value)(const char *);	/* optional, GNU only */
	int (*on_new_line)(void);		/* optional */
	int (*clear_visible_line)(void);	/* optional, GNU 8.1 and later */
	void (*get_screen_size)(int *, int *);	/* optional */
	/* keys bound to shell code: all optional (without them, none) */
	int *point, *end;
	void (*replace_line)(const char *, int);
	void (*redisplay)(void);			/* GNU only */
	int (*bind_key_in_map)(int, KeyFn *, void *);	/* GNU only */
	void *(*get_keymap_by_name)(const char *);	/* GNU only */
	HookFn **input_available_hook;			/* GNU only */
	int (*set_keyboard_input_timeout)(int);		/* GNU only */
	int (*insert_text)(const char *);		/* libedit only */
	char *(*copy_text)(int, int);			/* libedit only */
	int (*add_defun)(const char *, KeyFn *, int);	/* libedit only */
	int (*bind_key)(int, KeyFn *);			/* libedit only */
	int (*initialize)(void);		/* optional: with the next, */
	int (*parse_and_bind)(char *);		/* the word motion keys; libedit: bound keys */
} rl;

static const char word_breaks[] = LE_WORD_BREAKS "$";

static bool tried, active, libedit;
static bool loaded;	/* active, but kept in a forked child: for whatis -e */
static const char *name = "none";
static LeLister *lister;
static LeCompleter *completer;
static sigset_t waitmask;	/* in force while waiting for a key */
static bool got_interrupt;
static volatile sig_atomic_t got_tstp;
static struct sigaction tstp_action;	/* on_tstp, while the editor runs */
static locale_t edit_locale;	/* libedit's LC_CTYPE, if not the shell's */
static sigjmp_buf abandon;	/* GNU readline: ^C leaves readline() through here */
static char *last_history;	/* kept in a buffer of its own, reused: */
static size_t last_history_size;	/* loading 200,000 lines allocates none */
static char **matches;		/* computed by attempt(), handed out by generate() */
static size_t next_match;
static const char *progname = "rc";
/* While readline() runs, what the shell had, put back while a bound key
 * runs shell code: its signal mask, its locale (0: the editor's is the
 * same) and, if on_tstp replaced it, its SIGTSTP action. */
static sigset_t shell_mask;
static locale_t shell_locale;
static bool tstp_caught;
static struct sigaction tstp_saved;

#ifdef LE_LAZY

#ifndef LE_SONAMES
#define LE_SONAMES "libreadline.so.8", "libedit.so.2"
#endif

static const char *const sonames[] = { LE_SONAMES };

typedef struct {
	const char *name;
	void *where;
	bool required;
} Binding;

static const Binding syms[] = {
	{ "readline", &rl.readline, true },
	{ "add_history", &rl.add_history, true },
	{ "rl_completion_matches", &rl.completion_matches, true },
	{ "rl_resize_terminal", &rl.resize_terminal, false },
	{ "rl_reset_screen_size", &rl.reset_screen_size, false },
	{ "rl_free_line_state", &rl.free_line_state, true },
	{ "rl_cleanup_after_signal", &rl.cleanup_after_signal, true },
	{ "rl_prep_terminal", &rl.prep_terminal, false },
	{ "rl_deprep_terminal", &rl.deprep_terminal, false },
	{ "rl_forced_update_display", &rl.forced_update_display, false },
	{ "rl_readline_state", &rl.readline_state, true },
	{ "rl_readline_name", &rl.readline_name, true },
	{ "rl_library_version", &rl.library_version, false },
	{ "rl_catch_signals", &rl.catch_signals, true },
	{ "rl_catch_sigwinch", &rl.catch_sigwinch, false },
	{ "rl_change_environment", &rl.change_environment, false },
	{ "rl_getc_function", &rl.getc_function, true },
	{ "rl_attempted_completion_function", &rl.attempted_completion_function, true },
	{ "rl_attempted_completion_over", &rl.attempted_completion_over, true },
	{ "rl_basic_word_break_characters", &rl.basic_word_break_characters, true },
	{ "rl_completer_word_break_characters", &rl.completer_word_break_characters, false },
	{ "rl_completion_append_character", &rl.completion_append_character, true },
	{ "rl_line_buffer", &rl.line_buffer, true },
	{ "rl_outstream", &rl.outstream, true },
	{ "rl_variable_value", &rl.variable_value, false },
	{ "rl_on_new_line", &rl.on_new_line, false },
	{ "rl_clear_visible_line", &rl.clear_visible_line, false },
	{ "rl_get_screen_size", &rl.get_screen_size, false },
	{ "rl_point", &rl.point, false },
	{ "rl_end", &rl.end, false },
	{ "rl_replace_line", &rl.replace_line, false },
	{ "rl_redisplay", &rl.redisplay, false },
	{ "rl_bind_key_in_map", &rl.bind_key_in_map, false },
	{ "rl_get_keymap_by_name", &rl.get_keymap_by_name, false },
	{ "rl_input_available_hook", &rl.input_available_hook, false },
	{ "rl_set_keyboard_input_timeout", &rl.set_keyboard_input_timeout, false },
	{ "rl_insert_text", &rl.insert_text, false },
	{ "rl_copy_text", &rl.copy_text, false },
	{ "rl_add_defun", &rl.add_defun, false },
	{ "rl_parse_and_bind", &rl.parse_and_bind, false },
	{ "rl_bind_key", &rl.bind_key, false },
	{ "rl_initialize", &rl.initialize, false },
};

static char load_error[256];

static void note_error(void)
{
	const char *e = dlerror();
	if (load_error[0] == '\0')
		snprintf(load_error, sizeof load_error, "%s", e != NULL ? e : "unknown error");
}

/* Kept open for the life of the process: the library holds terminal state
 * and pointers to our callbacks. */
static bool bind_one(const char *soname)
{
	void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
	if (h == NULL) {
		note_error();
		return false;
	}
	for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
		dlerror();
		void *p = dlsym(h, syms[i].name);
		if (p == NULL && syms[i].required) {
			note_error();
			dlclose(h);
			memset(&rl, 0, sizeof rl);
			return false;
		}
		memcpy(syms[i].where, &p, sizeof p);
	}
	name = strdup(soname);	/* soname may come from the environment */
	if (name == NULL)
		name = "editor";
	return true;
}

/* RC_EDITLIB=readline or libedit: the soname of the list holding the
 * name, else the name itself. */
static const char *soname_of(const char *choice)
{
	const char *lib = strcmp(choice, "readline") == 0 ? "libreadline" :
		strcmp(choice, "libedit") == 0 ? "libedit" : NULL;
	if (lib == NULL)
		return choice;
	for (size_t i = 0; i < sizeof sonames / sizeof *sonames; i++)
		if (strstr(sonames[i], lib) != NULL)
			return sonames[i];
	return strcmp(lib, "libedit") == 0 ? "libedit.so.2" : "libreadline.so.8";
}

static const char *bind_library(const char *choice)
{
	if (choice != NULL && *choice != '\0')
		return bind_one(soname_of(choice)) ? NULL : load_error;
	for (size_t i = 0; i < sizeof sonames / sizeof *sonames; i++)
		if (bind_one(sonames[i]))
			return NULL;
	return load_error;
}

#else /* linked */

#ifndef LE_LIB
#define LE_LIB "readline (linked)"
#endif

static void add_history_linked(const char *line)
{
	add_history(line);
}

static void redisplay_linked(void)
{
	rl_forced_update_display();
}

/* GNU readline's takes a char *, libedit's a const char *. */
static int parse_and_bind_linked(char *line)
{
	return rl_parse_and_bind(line);
}

#ifndef LE_USE_LIBEDIT
static int bind_key_in_map_linked(int key, KeyFn *fn, void *map)
{
	return rl_bind_key_in_map(key, fn, map);
}

static void *keymap_by_name_linked(const char *keymap)
{
	return rl_get_keymap_by_name(keymap);
}
#endif

static const char *bind_library(const char *choice)
{
	(void) choice;
	rl.point = &rl_point;
	rl.end = &rl_end;
	rl.replace_line = rl_replace_line;
#ifdef LE_USE_LIBEDIT
	rl.insert_text = rl_insert_text;
	rl.copy_text = rl_copy_text;
	rl.add_defun = rl_add_defun;
	rl.bind_key = rl_bind_key;
#else
	rl.redisplay = rl_redisplay;
	rl.bind_key_in_map = bind_key_in_map_linked;
	rl.get_keymap_by_name = keymap_by_name_linked;
	rl.input_available_hook = &rl_input_available_hook;
	rl.set_keyboard_input_timeout = rl_set_keyboard_input_timeout;
#endif
	rl.readline = readline;
	rl.add_history = add_history_linked;
	rl.completion_matches = rl_completion_matches;
	rl.resize_terminal = rl_resize_terminal;
	rl.free_line_state = rl_free_line_state;
	rl.cleanup_after_signal = rl_cleanup_after_signal;
	rl.prep_terminal = rl_prep_terminal;
	rl.deprep_terminal = rl_deprep_terminal;
	rl.forced_update_display = redisplay_linked;
	rl.initialize = rl_initialize;
	rl.parse_and_bind = parse_and_bind_linked;
	rl.readline_state = &rl_readline_state;
#ifndef LE_USE_LIBEDIT
	rl.reset_screen_size = rl_reset_screen_size;
	rl.change_environment = &rl_change_environment;
	rl.variable_value = rl_variable_value;
#endif
	rl.on_new_line = rl_on_new_line;
	rl.get_screen_size = rl_get_screen_size;
#if !defined LE_USE_LIBEDIT && RL_READLINE_VERSION >= 0x0801
	rl.clear_visible_line = rl_clear_visible_line;
#endif
	rl.readline_name = &rl_readline_name;
	rl.library_version = &rl_library_version;
	rl.catch_signals = &rl_catch_signals;
	rl.catch_sigwinch = &rl_catch_sigwinch;
	rl.getc_function = &rl_getc_function;
	rl.attempted_completion_function = &rl_attempted_completion_function;
	rl.attempted_completion_over = &rl_attempted_completion_over;
	rl.basic_word_break_characters = &rl_basic_word_break_characters;
	rl.completer_word_break_characters =
		(const char **) &rl_completer_word_break_characters;
	rl.completion_append_character = &rl_completion_append_character;
	rl.line_buffer = &rl_line_buffer;
	rl.outstream = &rl_outstream;
	name = LE_LIB;
	return NULL;
}

#endif

/* ^Z while a line is edited (the shell itself is stopped: it has no job
 * control, its parent has): the terminal gets its modes back before the
 * shell stops, and the editor's when it is continued, and the prompt and
 * the line are drawn again.  The parent shell may have changed the modes
 * meanwhile and written its own lines. */
static void on_tstp(int sig)
{
	(void) sig;
	got_tstp = 1;
	le_cut_input();
}

static void suspend(void)
{
	rl.deprep_terminal();
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, NULL);
	sigset_t tstp, old;
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	kill(getpid(), SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &tstp, &old);	/* stops here until SIGCONT */
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGTSTP, &tstp_action, NULL);
	rl.prep_terminal(1);
	rl.forced_update_display();
}

/* Catch SIGTSTP while the editor runs if it would stop the shell. */
static bool catch_tstp(struct sigaction *saved)
{
	if (rl.prep_terminal == NULL || rl.deprep_terminal == NULL ||
	    rl.forced_update_display == NULL ||
	    sigaction(SIGTSTP, NULL, saved) != 0 || saved->sa_handler != SIG_DFL)
		return false;
	memset(&tstp_action, 0, sizeof tstp_action);
	tstp_action.sa_handler = on_tstp;
	sigemptyset(&tstp_action.sa_mask);
	got_tstp = 0;
	return sigaction(SIGTSTP, &tstp_action, NULL) == 0;
}

/* One byte from fd 0, waiting with SIGINT, SIGWINCH and SIGTSTP
 * deliverable.  Returns -2 when SIGINT arrived. */
static int read_byte(void)
{
	for (;;) {
		if (le_state.got_int) {
			le_state.got_int = 0;
			return -2;
		}
		if (le_state.got_winch) {
			le_state.got_winch = 0;
			if (rl.resize_terminal != NULL)
				rl.resize_terminal();
			continue;
		}
		if (got_tstp) {
			got_tstp = 0;
			suspend();
			continue;
		}
		switch (le_wait_input(0, &waitmask)) {
		case 0:
			continue;
		case -1:
			return EOF;
		}
		unsigned char c;
		ssize_t n = le_read_input(&c, 1, &waitmask);
		if (n == 1)
			return c;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		return EOF;
	}
}

/* ^C abandons the line in whatever state the editor is: a search, the
 * question before a long list of completions, after Esc.  GNU readline is
 * left as its manual says an application's SIGINT handler may leave it,
 * after rl_free_line_state() and rl_cleanup_after_signal(), which also
 * move the cursor below the line.  libedit is given a newline first: in
 * emacs and vi modes and in a search it ends the line as Return does,
 * with the cursor moved below the last row of the text (a long line, or a
 * command of several lines, with the cursor on an earlier row).  Where a
 * state takes the newline otherwise (a vi operator waiting for its
 * motion, Esc), the next key read is a read error, which ends el_gets()
 * in any state; libedit restores the terminal itself. */
static int interrupt_editor(void)
{
	if (!libedit) {
		got_interrupt = true;
		rl.free_line_state();
		rl.cleanup_after_signal();
		siglongjmp(abandon, 1);
	}
	if (got_interrupt)
		return EOF;
	got_interrupt = true;
	return '\n';
}

/* libedit works in wide characters and drops each byte the LC_CTYPE in
 * force cannot convert: every non-ASCII byte in the C locale (no LANG, or
 * LANG=C).  It then gets a UTF-8 LC_CTYPE of its own, in force only while
 * it runs, so that what is typed comes out as typed. */
static void choose_edit_locale(void)
{
	static const char *const utf8[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };
	mbstate_t st;
	wchar_t wc;
	memset(&st, 0, sizeof st);
	if (!libedit || mbrtowc(&wc, "\xc3\xa9", 2, &st) != (size_t) -1)
		return;
	for (size_t i = 0; i < sizeof utf8 / sizeof utf8[0] && edit_locale == 0; i++)
		edit_locale = newlocale(LC_CTYPE_MASK, utf8[i], 0);
}

/* Returns what to give leave_edit_locale(). */
static locale_t enter_edit_locale(void)
{
	return edit_locale != 0 ? uselocale(edit_locale) : 0;
}

static void leave_edit_locale(locale_t shell)
{
	if (shell != 0)
		uselocale(shell);
}

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
static bool private_key;	/* the key getc_hook gives is one of those */

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

static void keys_start(void)
{
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

/* The prompt being shown (a copy: a bound key's function may change
 * $prompt), and what the editor was given of it (libedit: its last line,
 * libedit_prompt()), for clear_visible_line(); the markers around what a
 * prompt prints but the screen does not show (escape sequences), as both
 * libraries read them (LE_PROMPT_HIDE, LE_PROMPT_SHOW). */
static const char *full_prompt = "", *shown_prompt = "";

/* libedit: the lines of the prompt before its last, written here (without
 * the markers).  Returns its last line. */
static const char *write_prompt_lines(const char *prompt)
{
	const char *last = strrchr(prompt, '\n');
	if (last == NULL)
		return prompt;
	for (const char *p = prompt; p <= last; p++)
		if (*p != LE_PROMPT_HIDE && *p != LE_PROMPT_SHOW)
			fputc(*p, *rl.outstream);
	fflush(*rl.outstream);
	return last + 1;
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

/* The length of the character s begins with (of n bytes at most). */
static size_t char_bytes(const char *s, size_t n, mbstate_t *st)
{
	size_t len = mbrtowc(NULL, s, n, st);
	if (len == (size_t) -1 || len == (size_t) -2) {
		len = 1;	/* a byte of its own */
		memset(st, 0, sizeof *st);
	}
	return len;
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
		size_t n = char_bytes(line + at, len - at, &st);
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
	leave_edit_locale(shell_locale);
	sigset_t editing;
	sigprocmask(SIG_SETMASK, &shell_mask, &editing);
	if (tstp_caught)
		sigaction(SIGTSTP, &tstp_saved, NULL);
	bool accept = key_hook(fn, line, cursor);
	if (tstp_caught)
		sigaction(SIGTSTP, &tstp_action, NULL);
	sigprocmask(SIG_SETMASK, &editing, NULL);
	le_state.got_int = 0;	/* a ^C there ended the code, not the line */
	got_tstp = 0;
	enter_edit_locale();
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
	write_prompt_lines(full_prompt);
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

static void keys_setup(void)
{
	if (!keys_possible())
		return;
	if (libedit) {
		locale_t shell = enter_edit_locale();
		libedit_keys();
		leave_edit_locale(shell);
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
static int next_byte(void)
{
	const char *fn;
	return le_keys_next(read_byte, false, &fn);
}

/* The editor's next key: one queued, else what is typed, a bound
 * sequence run. */
static int next_key(void)
{
	for (;;) {
		private_key = queued_at < nqueued;
		if (private_key) {
			int k = queued[queued_at++];
			if (queued_at == nqueued)
				nqueued = queued_at = 0;
			return k;
		}
		const char *fn;
		int c = le_keys_next(read_byte, matching(), &fn);
		if (c != LE_KEY_BOUND)
			return c;
		if (libedit)
			libedit_start(fn);
		else if (gnu_run(fn))
			return '\n';
	}
}

/* The editor's key reader.  libedit takes the value as a wide character,
 * so give it whole characters. */
static int getc_hook(FILE *in)
{
	(void) in;
	if (libedit) {	/* see attempt() */
		sigset_t old, wait;
		le_block_signals(&old, &wait);
		le_state.empty_input = 0;
		le_restore_input();
	}
	if (got_interrupt)
		return interrupt_editor();	/* libedit took the newline otherwise */
	int c = next_key();
	if (libedit && c >= 0x80 && c < 0x100 && !private_key && MB_CUR_MAX > 1) {
		wchar_t wc;
		mbstate_t st;
		size_t r;
		memset(&st, 0, sizeof st);
		for (;;) {
			char byte = (char) c;
			r = mbrtowc(&wc, &byte, 1, &st);
			if (r != (size_t) -2)
				break;
			if ((c = next_byte()) < 0)
				break;
		}
		if (c >= 0 && r != (size_t) -1)
			c = (int) wc;
	}
	return c == -2 ? interrupt_editor() : c;
}

static char *generate(const char *text, int state)
{
	(void) text;
	(void) state;
	if (matches == NULL || matches[next_match] == NULL)
		return NULL;
	return matches[next_match++];	/* the editor frees it */
}

static bool setting_on(const char *variable)
{
	const char *v = rl.variable_value(variable);
	return v != NULL && strcmp(v, "on") == 0;
}

/* readline's completion settings, from ~/.inputrc; libedit has none.
 * The others (show-all-if-ambiguous, completion-query-items, ...) are
 * the editor's own business: it lists what le_complete() returns. */
static void completion_settings(LeCompletion *how)
{
	le_complete_defaults(how, lister, completer);
	if (rl.variable_value == NULL)
		return;
	how->ignore_case = setting_on("completion-ignore-case");
	how->hidden_files = setting_on("match-hidden-files");
	how->mark_dirs = setting_on("mark-directories");
	how->mark_symlinked_dirs = setting_on("mark-symlinked-directories");
}

/* A completer's message has ended the line: the prompt and the line are
 * drawn again below it (GNU readline draws them once told; libedit at
 * once, from where the cursor is). */
static void redraw_below(void)
{
	if (libedit && rl.forced_update_display != NULL)
		rl.forced_update_display();
	else if (!libedit && rl.on_new_line != NULL)
		rl.on_new_line();
}

/* The offset in bytes of the character numbered chars in line. */
static int byte_offset(const char *line, int chars)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t at = 0, len = strlen(line);
	for (; chars > 0 && at < len; chars--)
		at += char_bytes(line + at, len - at, &st);
	return (int) at;
}

/* libedit's line (malloc'd), with start and end made offsets in bytes:
 * libedit counts them in characters.  rl_line_buffer is not to be read
 * (see libedit_put_blank), and rl_copy_text() leaves out the line's last
 * byte.  With the cursor at the end, a blank put there is the byte left
 * out, and the line is put back as it was, the cursor still at its end.
 * With the cursor inside the line, all it needs before the cursor is
 * copied; the byte left out is the last after it, which is then taken
 * for the end of the line. */
static char *libedit_completion_line(int *start, int *end)
{
	int chars = *rl.end;
	bool at_end = *end >= chars;
	if (rl.copy_text == NULL || rl.insert_text == NULL || rl.replace_line == NULL)
		return NULL;
	if (chars == 0)
		return strdup("");
	if (at_end)
		rl.insert_text(" ");
	char *line = rl.copy_text(0, (chars + 1) * (int) MB_CUR_MAX + 1);
	if (at_end && line != NULL)
		rl.replace_line(line, 0);
	if (line != NULL) {
		*start = byte_offset(line, *start);
		*end = byte_offset(line, *end);
	}
	return line;
}

static char **attempt(const char *text, int start, int end)
{
	char *copy = libedit ? libedit_completion_line(&start, &end) : NULL;
	const char *line = libedit ? copy : *rl.line_buffer;
	*rl.attempted_completion_over = 1;
	if (line == NULL || strlen(line) < (size_t) end) {
		line = text;
		start = 0;
		end = (int) strlen(text);
	}
	int append;
	bool spoke;
	LeCompletion how;
	completion_settings(&how);
	matches = le_complete(line, start, end, &how, &append, &spoke);
	if (spoke)
		redraw_below();
	if (line[end] == append)
		append = '\0';	/* libedit would add a second space */
	free(copy);
	*rl.completion_append_character = append;
	/* libedit asks "Display all N possibilities?" with getc(stdin), past
	 * getc_hook(): let ^C in until getc_hook() runs again.  It makes that
	 * getc() fail (the answer is no: it finds fd 0 empty), then the next
	 * key read is the ^C. */
	if (libedit) {
		le_state.empty_input = 1;
		sigprocmask(SIG_SETMASK, &waitmask, NULL);
	}
	char **result = NULL;
	if (matches != NULL) {
		next_match = 0;
		result = rl.completion_matches(text, generate);
		while (matches[next_match] != NULL)
			free(matches[next_match++]);
		free(matches);
		matches = NULL;
	}
	return result;
}

/* The editor writes where the prompt goes: libedit takes the stream once. */
static FILE *term_stream(void)
{
	int fd = le_term_fd();
	FILE *f = fd != 2 ? fdopen(fd, "w") : NULL;
	return f != NULL ? f : stderr;
}

/* Word motion on the keys terminals send for Control and Alt with Left
 * and Right: xterm's (\e[1;5D, \e[1;3D), older ones' (\e[5D), rxvt's
 * Control (\eOd), and Alt as an Esc before the arrow (\e\e[D).  Each
 * library lacked some: libedit inserted the D of Alt-Left, GNU readline
 * the [D of Esc Left. */
static const char *const word_keys[][2] = {
	{ "\\e[1;5C", "\\e[1;5D" }, { "\\e[1;3C", "\\e[1;3D" }, { "\\e[5C", "\\e[5D" },
	{ "\\eOc", "\\eOd" }, { "\\e\\e[C", "\\e\\e[D" },
};

static void bind_key(const char *key, const char *gnu, const char *edit)
{
	char line[64];
	if (libedit)
		snprintf(line, sizeof line, "bind '%s' %s", key, edit);
	else
		snprintf(line, sizeof line, "\"%s\": %s", key, gnu);
	rl.parse_and_bind(line);	/* GNU readline writes to it */
}

/* Whether the user's editrc ($EDITRC, else ~/.editrc) puts libedit in vi
 * mode: a line `bind -v', maybe after a program's name and a colon.  The
 * readline API of libedit cannot tell the mode, and a sequence bound there
 * in vi mode goes into the insert map, where Escape then waits for the
 * rest of a sequence: Escape 0 would be lost.  Only what a user writes in
 * the file is known here: a mode chosen otherwise is missed. */
static bool editrc_chooses_vi(void)
{
	const char *file = getenv("EDITRC"), *home = getenv("HOME");
	char path[4096];
	if (file == NULL || *file == '\0') {
		if (home == NULL || snprintf(path, sizeof path, "%s/.editrc", home) >= (int) sizeof path)
			return false;
		file = path;
	}
	FILE *f = fopen(file, "r");	/* closed before anything could exec */
	if (f == NULL)
		return false;
	bool vi = false;
	char line[256];
	while (!vi && fgets(line, sizeof line, f) != NULL) {
		char *cmd = line + strspn(line, " \t");
		char *colon = strchr(cmd, ':');
		if (colon != NULL && colon < cmd + strcspn(cmd, " \t"))
			cmd = colon + 1 + strspn(colon + 1, " \t");
		if (strncmp(cmd, "bind", 4) != 0 || strspn(cmd + 4, " \t") == 0)
			continue;
		const char *opt = cmd + 4 + strspn(cmd + 4, " \t");
		vi = strncmp(opt, "-v", 2) == 0 && strchr(" \t\n", opt[2]) != NULL;
	}
	fclose(f);
	return vi;
}

/* GNU readline gets the keys before it reads ~/.inputrc, which may bind
 * them otherwise.  libedit binds keys only once it is started, which
 * reads ~/.editrc first: these keys are bound as here, in emacs mode only
 * (editrc_chooses_vi). */
static void bind_word_keys(void)
{
	if (rl.parse_and_bind == NULL || (libedit && rl.initialize == NULL))
		return;
	if (libedit && editrc_chooses_vi())
		return;
	locale_t shell = enter_edit_locale();
	if (libedit)
		rl.initialize();
	for (size_t i = 0; i < sizeof word_keys / sizeof word_keys[0]; i++) {
		bind_key(word_keys[i][0], "forward-word", "em-next-word");
		bind_key(word_keys[i][1], "backward-word", "ed-prev-word");
	}
	leave_edit_locale(shell);
}

static void configure_editor(void)
{
	*rl.readline_name = "rc";
	*rl.catch_signals = 0;
	if (rl.catch_sigwinch != NULL)
		*rl.catch_sigwinch = 0;
	if (rl.change_environment != NULL)
		*rl.change_environment = 0;
	*rl.getc_function = getc_hook;
	*rl.attempted_completion_function = attempt;
	*rl.basic_word_break_characters = word_breaks;
	if (rl.completer_word_break_characters != NULL)
		*rl.completer_word_break_characters = word_breaks;
	*rl.outstream = term_stream();
	libedit = rl.library_version != NULL && *rl.library_version != NULL &&
		strstr(*rl.library_version, "EditLine") != NULL;
	choose_edit_locale();
	bind_word_keys();	/* first: libedit's rl_initialize() drops every binding made before */
	keys_setup();
}

bool le_init(const char *name_of_shell, const char *choice)
{
	if (active || tried)
		return active;
	tried = true;
	progname = name_of_shell;
	if (!isatty(0))
		return false;
	if (choice != NULL && strcmp(choice, "none") == 0)
		return false;
	const char *err = bind_library(choice);
	if (err != NULL) {
		fprintf(stderr, "%s: cannot load line editor: %s; using plain input\n",
			progname, err);
		return false;
	}
	configure_editor();	/* before the editor's first call: libedit reads these once */
	active = loaded = true;
	return true;
}

/* libedit draws the prompt as one row, a tab or a newline in it as
 * nothing: the example's continuation prompt (a tab) showed nothing, a
 * prompt of two lines one.  It gets the last line alone, its tabs made
 * spaces to the next multiple of 8 columns (a column a character; what
 * the markers hide, none), once the lines before it are written here,
 * without the markers.  Returns the prompt to give it (malloc'd, or NULL
 * if memory ran out). */
static char *libedit_prompt(const char *prompt)
{
	prompt = write_prompt_lines(prompt);
	size_t len = strlen(prompt), tabs = 0;
	for (const char *p = prompt; *p != '\0'; p++)
		tabs += *p == '\t';
	char *out = malloc(len + tabs * 7 + 1), *o = out;
	if (out == NULL)
		return NULL;
	size_t column = 0;
	bool hidden = false;
	for (const char *p = prompt; *p != '\0'; p++) {
		if (*p == LE_PROMPT_HIDE || *p == LE_PROMPT_SHOW)
			hidden = *p == LE_PROMPT_HIDE;
		else if (*p == '\t' && !hidden) {
			do
				*o++ = ' ';
			while (++column % 8 != 0);
			continue;
		} else if (!hidden && ((unsigned char) *p & 0xc0) != 0x80)
			column++;
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

char *le_readline(const char *prompt, bool *interrupted)
{
	if (!active)
		return le_plain_readline(prompt, interrupted);
	*interrupted = false;
	le_state.line_unterminated = false;
	got_interrupt = false;
	le_block_signals(&shell_mask, &waitmask);
	le_state.got_int = 0;
	tstp_caught = catch_tstp(&tstp_saved);
	keys_start();
	if (le_state.got_winch && rl.reset_screen_size != NULL) {
		le_state.got_winch = 0;
		rl.reset_screen_size();
	}
	fflush(stderr);
	le_term_fd();	/* made again if a command redirected over it */
	clearerr(stdin);	/* a ^C made libedit's last getc(stdin) fail */
	unsigned long state = libedit ? 0 : *rl.readline_state;	/* readline's state between two lines */
	shell_locale = enter_edit_locale();
	char *line = NULL;
	char *const own_prompt = libedit && prompt != NULL && strpbrk(prompt, "\t\n") != NULL ?
		libedit_prompt(prompt) : NULL;
	char *const prompt_copy = strdup(prompt != NULL ? prompt : "");
	full_prompt = prompt_copy != NULL ? prompt_copy : "";
	shown_prompt = own_prompt != NULL ? own_prompt : full_prompt;
	if (sigsetjmp(abandon, 0) == 0)
		line = rl.readline(own_prompt != NULL ? own_prompt : prompt != NULL ? prompt : "");
	else
		*rl.readline_state = state;	/* leave no search or key prefix on */
	leave_edit_locale(shell_locale);
	free(own_prompt);
	free(prompt_copy);
	full_prompt = shown_prompt = "";
	le_state.empty_input = 0;
	le_restore_input();
	if (tstp_caught)
		sigaction(SIGTSTP, &tstp_saved, NULL);	/* a ^Z typed since stops the shell */
	sigprocmask(SIG_SETMASK, &shell_mask, NULL);
	if (got_interrupt) {
		/* the editor left the cursor on the abandoned line, unless
		 * libedit ended it as a line */
		if (line == NULL) {
			fputc('\n', *rl.outstream);
			fflush(*rl.outstream);
		}
		*interrupted = true;
		free(line);
		line = strdup("");
	} else if (line == NULL && libedit) {
		/* GNU readline ends the line at ^D; libedit leaves the cursor after it */
		fputc('\n', *rl.outstream);
		fflush(*rl.outstream);
	}
	return line;
}

void le_free(char *line)
{
	free(line);
}

/* A line entered twice in a row is kept once. */
void le_add_history(const char *line)
{
	if (!active || *line == '\0')
		return;
	size_t size = strlen(line) + 1;
	if (last_history != NULL && strcmp(last_history, line) == 0)
		return;
	if (size > last_history_size) {
		free(last_history);
		last_history_size = size < 256 ? 256 : size;
		last_history = malloc(last_history_size);
		if (last_history == NULL)
			last_history_size = 0;
	}
	if (last_history != NULL)
		memcpy(last_history, line, size);
	locale_t shell = enter_edit_locale();	/* the first call starts libedit */
	rl.add_history(line);
	leave_edit_locale(shell);
}

void le_set_lister(LeLister *l)
{
	lister = l;
}

void le_set_completer(LeCompleter *c)
{
	completer = c;
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

void le_disable(void)
{
	if (active)	/* no write after fork unless needed: it costs a page copy */
		active = false;
}

const char *le_backend(void)
{
	return active ? name : "none";
}

bool le_active(void)
{
	return active;
}

/* Where the editor's readline() lives, with symbolic links resolved: the
 * file /proc/PID/maps shows.  Linked in statically, that is the running
 * program (/proc/self/exe: argv[0] may have been found on $path). */
static const char *editor_file(void)
{
	static char *file;

#if defined LE_STATIC
	if (file == NULL)
		file = realpath("/proc/self/exe", NULL);
#elif defined HAVE_DLADDR
	Dl_info info;
	void *fn;
	memcpy(&fn, &rl.readline, sizeof fn);
	if (file == NULL && dladdr(fn, &info) != 0 && info.dli_fname != NULL &&
	    strchr(info.dli_fname, '/') != NULL)
		file = realpath(info.dli_fname, NULL);
#endif
	return file;
}

void le_editor_info(const char *info[3])
{
	info[0] = loaded ? name : "none";
	info[1] = info[2] = NULL;
	if (!loaded)
		return;
#if defined LE_LAZY
	info[1] = "lazy";
#elif defined LE_STATIC
	info[1] = "static";
#else
	info[1] = "dynamic";
#endif
	info[2] = editor_file();
}
