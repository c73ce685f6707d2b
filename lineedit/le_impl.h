/* SPDX-License-Identifier: Zlib */
/* le_impl.h: private helpers shared by the lineedit backends. */
#ifndef LE_IMPL_H
#define LE_IMPL_H

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <wchar.h>

#include "le.h"

/* lineedit/'s growable arrays.  The core's egrow (src/alloc.c) is not
 * used: lineedit/ links without the core (tests/le-demo), and egrow ends
 * the shell when memory runs out, where the editor gives up a candidate or
 * the rest of a line instead.  v holds *cap elements of size bytes; return
 * it with room for need (the capacity at least doubles), or NULL if memory
 * ran out, v and *cap then unchanged. */
static inline void *le_grow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	size_t n = 2 * *cap + 16;
	if (n < need)
		n = need;
	if (n > SIZE_MAX / size)
		return NULL;
	void *p = realloc(v, n * size);
	if (p != NULL)
		*cap = n;
	return p;
}

/* What the two readers (le_plain.c, le_rl.c) share, one struct. */
typedef struct {
	/* set by le_on_signal(), consumed by the readers */
	volatile sig_atomic_t got_int, got_winch;
	/* While this is set, ^C (and ^Z where the editor catches it) puts
	 * /dev/null on fd 0: le_cut_input(), called by their handlers.
	 * le_restore_input() puts fd 0 back (call it with them blocked) and
	 * says whether it had been cut. */
	volatile sig_atomic_t empty_input;
	bool line_unterminated;	/* set by every read of a line: le_unterminated() */
} LeState;
extern LeState le_state;

void le_cut_input(void);
bool le_restore_input(void);

/* The plain reader: prompt on stderr, one line from fd 0 with read(2). */
char *le_plain_readline(const char *prompt, bool *interrupted);

/* Block SIGINT, SIGWINCH and SIGTSTP; *waitmask gets the old mask with
 * them unblocked. */
void le_block_signals(sigset_t *old, sigset_t *waitmask);

/* Wait until fd is readable with waitmask in force: 1 ready, 0 a signal
 * came (check the flags), -1 error. */
int le_wait_input(int fd, const sigset_t *waitmask);

/* Read fd 0 once le_wait_input() found it ready, ended by a signal even if
 * ^C discarded that input meanwhile: -1 with errno EINTR then. */
ssize_t le_read_input(void *buf, size_t size, const sigset_t *waitmask);

/* The screen (le_screen.c): where a prompt and a line end on a screen
 * of N columns, in the LC_CTYPE in force.  A prompt's \001 and \002
 * enclose what it prints but the screen does not show (escape sequences),
 * as both editor libraries read them. */
enum { LE_PROMPT_HIDE = '\001', LE_PROMPT_SHOW = '\002' };

/* Where the n bytes of text end, drawn from column *col of row *row on a
 * screen columns wide: a newline of the line starts a row, a character
 * too wide for the rest of a row goes to the next, a tab goes to the next
 * multiple of 8, another control character of the line shows as ^X (of
 * the prompt: as nothing), and what the prompt's markers enclose takes no
 * room. */
void le_advance(const char *text, size_t n, bool prompt, size_t columns,
	size_t *row, size_t *col);

/* The rows the lines of prompt before its last take (GNU readline writes
 * them again when it redraws the line, le_rl.c for libedit). */
size_t le_prompt_rows_above(const char *prompt, size_t columns);

/* The rows above the cursor at the end of the last line of prompt, then
 * line, then after (what the editor shows after the line). */
size_t le_rows_edited(const char *prompt, const char *line, const char *after,
	size_t columns);

/* The length of the character s begins with (of n bytes at most; a byte
 * that begins none is one of its own). */
size_t le_char_bytes(const char *s, size_t n, mbstate_t *st);

/* Where words end, for the editor and for le_complete(); `$' also starts a word. */
#define LE_WORD_BREAKS " \t\n;&|^`@(){}<>="

/* Where le_complete() finds names and how it matches them: the editor's
 * completion settings (readline's, from ~/.inputrc; libedit has none, and
 * gets the defaults of le_complete_defaults()). */
typedef struct {
	LeLister *lister;
	LeCompleter *completer;	/* may be NULL */
	bool ignore_case;	/* completion-ignore-case */
	bool hidden_files;	/* match-hidden-files: dot files for a word without a dot */
	bool mark_dirs;		/* mark-directories: a `/' after a directory */
	bool mark_symlinked_dirs;	/* mark-symlinked-directories */
} LeCompletion;

/* Settings of an editor that has none: ignore-case off, hidden files only
 * for a word with a dot, every directory marked. */
void le_complete_defaults(LeCompletion *how, LeLister *lister, LeCompleter *completer);

/* Completion in rc's terms for the word that ends at line[end].  The editor
 * replaces line[start..end) with each match.  Returns a sorted NULL-terminated
 * malloc'd vector of malloc'd replacements (NULL when there is none) and sets
 * *append to the character to add after a single match (' ' or '\0').
 * *spoke says whether a completer wrote on the terminal. */
char **le_complete(const char *line, int start, int end, const LeCompletion *how,
	int *append, bool *spoke);

/* Keys bound to shell code (le_keys.c): le_keys_set() takes $keys (see
 * le_bind_keys(); progname begins its messages).  le_keys_next() gives
 * the editor its next key byte, read with read_key() (a byte, or below 0:
 * given back as it is) and, when matching, matched against the bound
 * sequences: LE_KEY_BOUND when one was typed, its function in *fn (NULL:
 * the line in an editor).  le_keys_reset() forgets what was held. */
enum { LE_KEY_BOUND = -3 };
void le_keys_set(const char *progname, const char *const *words, int n);
int le_keys_next(int (*read_key)(void), bool matching, const char **fn);
void le_keys_reset(void);
bool le_keys_held(void);	/* bytes given back wait to be read */

/* rc-quote s when it needs it (or always if force): 'it''s'.  malloc'd. */
char *le_quote(const char *s, bool force);

#endif
