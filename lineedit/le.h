/* SPDX-License-Identifier: Zlib */
/* le.h: the only interface between the shell core and line editing.
 *
 * The core never includes an editor header.  Backends: the plain reader
 * (always built) and one readline-API backend serving GNU readline and
 * libedit, linked or loaded with dlopen() on first interactive use. */
#ifndef LE_H
#define LE_H

#include <stdbool.h>
#include <stddef.h>

/* Names the shell offers for completion, one call of each() per name:
 *   LE_COMMANDS   builtins, functions and executables on $path
 *   LE_VARIABLES  variable names (without the `$')
 *   LE_FUNCTIONS  function names
 *   LE_VALUE      the words of the value of the variable named var
 * var is NULL except for LE_VALUE.  Duplicates are fine; each() must not
 * keep the pointer. */
typedef enum { LE_COMMANDS, LE_VARIABLES, LE_FUNCTIONS, LE_VALUE } LeKind;
typedef void LeNameFn(const char *name, void *ctx);
typedef void LeLister(LeKind kind, const char *var, LeNameFn *each, void *ctx);

/* Try to start an editor for fd 0.  Call only when the shell is interactive
 * and fd 0 is a terminal.  Returns true if an editor is active, false if
 * the plain reader will be used (a failure to load is reported once on stderr).
 * choice is the shell's $RC_EDITLIB, or NULL: none turns editing off;
 * readline or libedit names a library; any other value is the one library
 * (soname or path) a lazy build tries. */
bool le_init(const char *progname, const char *choice);

/* The descriptor the prompt and the editor write on: the terminal fd 0
 * reads (a descriptor of the editor's own, close-on-exec), fd 2 if fd 0
 * is not a terminal or none can be had.  Error messages stay on fd 2. */
int le_term_fd(void);

/* Print prompt (on le_term_fd()) and read one line, without its newline.
 * Returns a line to release with le_free(), or NULL at end of input (^D
 * on an empty line of a terminal; the cursor is then at the start of a
 * new line).
 * *interrupted is set to true if SIGINT arrived while reading; the line
 * returned then is to be discarded, and the cursor is already at the start
 * of a fresh line (the core need not print a newline).
 * SIGINT and SIGWINCH are blocked while it runs and delivered only while it
 * waits for input, so the shell's handlers for them must be installed
 * without SA_RESTART and must call le_on_signal(). */
char *le_readline(const char *prompt, bool *interrupted);
void le_free(char *line);

/* Whether the last line le_readline() returned ended at the end of input,
 * not at a newline (known to the plain reader only; false from an editor). */
bool le_unterminated(void);

void le_add_history(const char *line);

/* The shell's name lister for command and variable completion. */
void le_set_lister(LeLister *lister);

/* Keys bound to shell code ($keys).  words holds n words, taken two at a
 * time: a key sequence in readline's notation (\C-x, \M-x, \e, \t, \\,
 * \nnn) and the name of the function it runs.  A bad pair is reported on
 * stderr and skipped.  C-x C-e, unless bound so, edits the line in an
 * editor (so does v in vi command mode). */
void le_bind_keys(const char *const *words, int n);

/* What a bound key runs, given by the shell: the function fn, or the line
 * in an editor when fn is NULL.  *line (malloc'd) is the line, *cursor the
 * byte offset of the cursor in it; the hook may put a new line (malloc'd;
 * it frees the old one) and cursor there.  Called with the terminal in its
 * normal modes and the shell's signal mask.  Returns true when the line is
 * to be run now, as if Return had been typed. */
typedef bool LeKeyHook(const char *fn, char **line, size_t *cursor);
void le_set_key_hook(LeKeyHook *hook);

/* Whether bound keys act in the lines read from now on (at first they
 * do): off, what they are typed as goes to the editor as it is. */
void le_keys_allow(bool allow);

/* Forward SIGINT or SIGWINCH from the shell's own handler (async-signal-safe). */
void le_on_signal(int sig);

/* Stop using the editor (after fork in a child). */
void le_disable(void);

/* "none", or the library in use (e.g. "libreadline.so.8"). */
const char *le_backend(void);

/* Whether an editor reads the lines (le_backend() names it), not the plain
 * reader. */
bool le_active(void);

/* For whatis -e: the library this shell took ("none" if it took none),
 * how ("lazy": dlopen; "dynamic" or "static": linked in) and the file it
 * came from (the rc binary itself when static).  The two last are NULL
 * with none, the last also when not known.  A subshell (backquote, pipe)
 * gives its parent's editor, though it does not use it. */
void le_editor_info(const char *info[3]);

/* Completion of a command's arguments by a completer written in rc
 * (src/complete.c).  words[0..n) are the command's words so far as the
 * shell would read them, its name first and the word being completed last
 * (possibly ""); each() is called once per line the completer printed.
 * Returns LE_NO_COMPLETER when the command has none, LE_COMPLETER_RAN,
 * or LE_COMPLETER_SPOKE when it ran and wrote on the terminal (an error):
 * the editor then draws the line again below what was written. */
typedef enum { LE_NO_COMPLETER, LE_COMPLETER_RAN, LE_COMPLETER_SPOKE } LeCompleted;
typedef LeCompleted LeCompleter(const char *const *words, int n, LeNameFn *each,
	void *ctx);
void le_set_completer(LeCompleter *completer);

#endif
