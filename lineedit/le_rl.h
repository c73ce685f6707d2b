/* SPDX-License-Identifier: Zlib */
/* le_rl.h: what the readline/libedit backend (le_rl.c) and its bound keys
 * (le_rl_keys.c) share: the library's functions and variables, and the
 * few steps of the backend the keys take. */
#ifndef LE_RL_H
#define LE_RL_H

#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

typedef char *EntryFn(const char *text, int state);
typedef char **CompletionFn(const char *text, int start, int end);
typedef int GetcFn(FILE *in);
typedef int KeyFn(int count, int key);
typedef int HookFn(void);

/* The part of the readline API used here (le_rl.c binds it).  Entries marked optional may be
 * NULL: the other library lacks them or ignores them. */
typedef struct {
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
} RlApi;

/* le_rl.c */

/* libedit's LC_CTYPE put in force; returns what to give
 * le_rl_leave_edit_locale(). */
locale_t le_rl_enter_edit_locale(void);
void le_rl_leave_edit_locale(locale_t shell);

/* One byte from fd 0, waiting with SIGINT, SIGWINCH and SIGTSTP
 * deliverable.  Returns -2 when SIGINT arrived. */
int le_rl_read_byte(void);

/* libedit: the lines of the prompt before its last, written here (without
 * the markers).  Returns its last line. */
const char *le_rl_write_prompt_lines(const char *prompt);

/* While a bound key's code runs, the shell's signal mask, locale and
 * SIGTSTP action are put back (*editing gets the editor's mask), then the
 * editor's again. */
void le_rl_as_shell(sigset_t *editing);
void le_rl_as_editor(const sigset_t *editing);

/* le_rl_keys.c */

/* Once the library is bound and set up: its keys for bound keys. */
void le_rl_keys_setup(const RlApi *api, bool is_libedit, const char *name_of_shell);

/* Before each line: the prompt being shown (a copy) and what the editor
 * was given of it. */
void le_rl_keys_start(const char *full, const char *shown);

/* The editor's next key: one of its own queued (*private_key), else what
 * is typed, a bound sequence run. */
int le_rl_next_key(bool *private_key);

/* A byte typed (or given back), not matched. */
int le_rl_next_byte(void);

#endif
