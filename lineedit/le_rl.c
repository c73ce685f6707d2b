/* SPDX-License-Identifier: Zlib */
/* le_rl.c: line editing with GNU readline or libedit through their common
 * readline API, linked in or (LE_LAZY) loaded with dlopen() on first use. */
#include "config.h"
#include "lineedit/le_config.h"

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

#if LE_LAZY || defined HAVE_DLADDR
#include <dlfcn.h>
#endif
#if LE_LAZY
/* the API comes from dlsym() */
#elif LE_USE_LIBEDIT
#include <editline/readline.h>
#else
#include <readline/readline.h>
#include <readline/history.h>
#endif

#include "le.h"
#include "le_impl.h"
#include "le_rl.h"

/* The part of the readline API used here (le_rl.h). */
static RlApi rl;

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

#if LE_LAZY

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

#if !LE_USE_LIBEDIT
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
#if LE_USE_LIBEDIT
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
#if !LE_USE_LIBEDIT
	rl.reset_screen_size = rl_reset_screen_size;
	rl.change_environment = &rl_change_environment;
	rl.variable_value = rl_variable_value;
#endif
	rl.on_new_line = rl_on_new_line;
	rl.get_screen_size = rl_get_screen_size;
#if !LE_USE_LIBEDIT && RL_READLINE_VERSION >= 0x0801
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
int le_rl_read_byte(void)
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

locale_t le_rl_enter_edit_locale(void)
{
	return edit_locale != 0 ? uselocale(edit_locale) : 0;
}

void le_rl_leave_edit_locale(locale_t shell)
{
	if (shell != 0)
		uselocale(shell);
}

void le_rl_as_shell(sigset_t *editing)
{
	le_rl_leave_edit_locale(shell_locale);
	sigprocmask(SIG_SETMASK, &shell_mask, editing);
	if (tstp_caught)
		sigaction(SIGTSTP, &tstp_saved, NULL);
}

void le_rl_as_editor(const sigset_t *editing)
{
	if (tstp_caught)
		sigaction(SIGTSTP, &tstp_action, NULL);
	sigprocmask(SIG_SETMASK, editing, NULL);
	le_state.got_int = 0;	/* a ^C there ended the code, not the line */
	got_tstp = 0;
	le_rl_enter_edit_locale();
}

/* libedit: the lines of the prompt before its last, written here (without
 * the markers).  Returns its last line. */
const char *le_rl_write_prompt_lines(const char *prompt)
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
	bool private_key;
	int c = le_rl_next_key(&private_key);
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
			if ((c = le_rl_next_byte()) < 0)
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
		at += le_char_bytes(line + at, len - at, &st);
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
	locale_t shell = le_rl_enter_edit_locale();
	if (libedit)
		rl.initialize();
	for (size_t i = 0; i < sizeof word_keys / sizeof word_keys[0]; i++) {
		bind_key(word_keys[i][0], "forward-word", "em-next-word");
		bind_key(word_keys[i][1], "backward-word", "ed-prev-word");
	}
	le_rl_leave_edit_locale(shell);
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
	le_rl_keys_setup(&rl, libedit, progname);
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
	prompt = le_rl_write_prompt_lines(prompt);
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
	if (le_state.got_winch && rl.reset_screen_size != NULL) {
		le_state.got_winch = 0;
		rl.reset_screen_size();
	}
	fflush(stderr);
	le_term_fd();	/* made again if a command redirected over it */
	clearerr(stdin);	/* a ^C made libedit's last getc(stdin) fail */
	unsigned long state = libedit ? 0 : *rl.readline_state;	/* readline's state between two lines */
	shell_locale = le_rl_enter_edit_locale();
	char *line = NULL;
	char *const own_prompt = libedit && prompt != NULL && strpbrk(prompt, "\t\n") != NULL ?
		libedit_prompt(prompt) : NULL;
	char *const prompt_copy = strdup(prompt != NULL ? prompt : "");
	le_rl_keys_start(prompt_copy != NULL ? prompt_copy : "",
		own_prompt != NULL ? own_prompt : prompt_copy != NULL ? prompt_copy : "");
	if (sigsetjmp(abandon, 0) == 0)
		line = rl.readline(own_prompt != NULL ? own_prompt : prompt != NULL ? prompt : "");
	else
		*rl.readline_state = state;	/* leave no search or key prefix on */
	le_rl_leave_edit_locale(shell_locale);
	free(own_prompt);
	free(prompt_copy);
	le_rl_keys_start("", "");	/* the prompt is freed */
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
	locale_t shell = le_rl_enter_edit_locale();	/* the first call starts libedit */
	rl.add_history(line);
	le_rl_leave_edit_locale(shell);
}

void le_set_lister(LeLister *l)
{
	lister = l;
}

void le_set_completer(LeCompleter *c)
{
	completer = c;
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

#if LE_STATIC
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
#if LE_LAZY
	info[1] = "lazy";
#elif LE_STATIC
	info[1] = "static";
#else
	info[1] = "dynamic";
#endif
	info[2] = editor_file();
}
