/* SPDX-License-Identifier: Zlib */
/* rc.h: the types every stage shares, and each stage's exports. */
#ifndef RC_H
#define RC_H

#include "config.h"
#include "quote.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/types.h>

#define NORETURN _Noreturn
#ifndef EOF
#define EOF (-1)
#endif
/* GNU C (gcc, clang) checks the arguments of a printf-like function and
 * keeps a function out of line when told to; other compilers do without. */
#ifdef __GNUC__
#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))
#define NOINLINE __attribute__((noinline))
#else
#define PRINTFLIKE(f, a)
#define NOINLINE
#endif
/* RC_ASAN: built with AddressSanitizer (gcc's macro, or clang's test). */
#if defined(__SANITIZE_ADDRESS__)
#define RC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RC_ASAN 1
#endif
#endif

/* A list of words.  m, when not NULL, marks which bytes of w are unquoted
 * glob metacharacters (m[i] != 0): only those may match more than themselves. */
typedef struct List List;
struct List {
	char *w;
	char *m;
	List *n;
};

typedef enum {
	/* word expressions: each yields a List */
	nWord,		/* s; kind: 1 if s holds unquoted glob metacharacters */
	nQword,		/* s, quoted */
	nVar,		/* $k0 */
	nVarsub,	/* $k0(k1) */
	nCount,		/* $#k0 */
	nFlat,		/* $^k0 or $"k0 */
	nBackq,		/* `{k0}, ``(k1){k0}: k1 NULL means $ifs */
	nConcat,	/* k0^k1 */
	nList,		/* item k0, rest k1: both (a b) and argument lists */
	nNmpipe,	/* <{k0} or >{k0}: fd[0] 0 for <, 1 for > */
	/* commands */
	nSimple,	/* words k0 (an nList) */
	nRedirs,	/* command k0 with redirections k1 (an nList of nRedir) */
	nAssign,	/* k0=k1 */
	nLocal,		/* k0=k1 k2 */
	nBrace,		/* {k0} */
	nSeq,		/* k0; k1 (also newline) */
	nAsync,		/* k0& then k1 */
	nAnd, nOr,	/* k0 && k1, k0 || k1 */
	nBang,		/* ! k0 */
	nSubshell,	/* @ k0 */
	nPipe,		/* k0 |[fd0=fd1] k1 */
	nIf,		/* if(k0) k1 else k2; kind 1: it has an else (k2 may be empty) */
	nIfnot,		/* if not k0 */
	nFor,		/* for(k0 in k1) k2; k1 NULL: $* */
	nWhile,		/* while(k0) k1 */
	nSwitch,	/* switch(k0){k1} */
	nCase,		/* case k0 (patterns) */
	nMatch,		/* ~ k0 k1 */
	nNewfn,		/* fn k0 {k1} */
	nRmfn,		/* fn k0 */
	nRedir,		/* kind: rFrom...; fd[0] (fd[1] for dup); k0 target */
} NodeType;

enum { rFrom, rCreate, rAppend, rHerestr, rDup, rClose };

typedef struct Node Node;
typedef struct Sym Sym;
struct Node {
	NodeType type;
	int kind;
	int fd[2];
	char *s;
	Node *k[3];
	/* The walker's caches, filled on first use (the parser leaves them
	 * zero): */
	Sym *sym;	/* a variable name's symbol */
	unsigned char forks;	/* walk.c's forks_kept */
};

/* alloc.c: two lifetimes.  nalloc memory lives until the arena is released
 * back to a mark (after each command); ealloc memory is permanent. */
typedef struct { void *block; size_t used; int holds; } Mark;
void *ealloc(size_t n);
void *eresize(void *p, size_t n);
void *egrow(void *v, size_t *cap, size_t need, size_t size);
void *egrow_static(void *v, const void *first, size_t *cap, size_t need, size_t size);
char *estrdup(const char *s);
void *nalloc(size_t n);
void *palloc(size_t n);
char *nstrdup(const char *s);
char *nstrndup(const char *s, size_t n);
Mark nmark(void);
void nhold(void (*fn)(void *), void *arg);
void nrelease(Mark m);
#define nnew(T) ((T *) nalloc(sizeof(T)))

/* flags.c: the shell's options (rc -e ..., the flag builtin), one struct
 * for every file that reads them. */
typedef struct {
	bool c, d, e, i, l, n, o, p, s, v, x, I;
} Flags;
extern Flags flag;

/* except.c: errors unwind with siglongjmp to the innermost catcher.
 * A module whose state an error must put back registers a step (startup.c,
 * catch_steps, says which and in what order): save gives a number as a
 * catcher is set up, restore puts it back when an error unwinds to it.
 * except.c itself knows no module above it. */
typedef struct {
	int (*save)(void);
	void (*restore)(int saved);
} CatchStep;
enum { CATCH_STEPS = 12 };
typedef struct Catch Catch;
struct Catch {
	sigjmp_buf buf;
	Catch *prev;
	int saved[CATCH_STEPS];	/* each step's save, in order */
};
void catch_register(const CatchStep *step);
/* hook runs first when an error is raised: it may end the process. */
void catch_on_error(void (*hook)(void));
extern Catch *catcher;
enum { eError = 1, eExit, eInterrupt, eSkip };
/* catch_push makes c the innermost catcher; the caller then calls
 * sigsetjmp(c.buf, 0) itself, in a form C11 7.13.1.1 allows (the whole
 * controlling expression of an if, compared with 0).  After a raise,
 * sigsetjmp returns nonzero and catch_raised holds what was raised. */
void catch_push(Catch *c);
void catch_pop(Catch *c);
extern int catch_raised;
typedef struct {
	/* The error being raised set $status false (rc_error, rc_syserror,
	 * a misplaced if not): only such an error ends the shell under -e,
	 * which is tested as the status is set.  A syntax error leaves
	 * $status, and -e, alone.  Cleared before each command the top
	 * level runs. */
	bool failed;
	/* The line such an error was raised on: where -e stops the shell,
	 * which exits there (an error of fn sigexit names it). */
	int line;
} LastError;
extern LastError last_error;
/* Fail $status and raise such an error (after its message). */
NORETURN void rc_raise_failed(void);
NORETURN void rc_raise(int e);
void stack_init(void *base, char **envp, bool now);
void stack_measure(void);
void stack_check_slow(void);
/* Where the stack starts (rc_main's frame) and the room below it:
 * stack_check, inline for the recursive parts, reads both. */
typedef struct {
	char *base;
	size_t room;	/* 0 until measured: the first check measures it */
} StackGuard;
extern StackGuard stack_guard;
static inline void stack_check(void)
{
	char here;
	if ((size_t) (stack_guard.base - &here) >= stack_guard.room)
		stack_check_slow();
}
NORETURN void rc_error(const char *fmt, ...) PRINTFLIKE(1, 2);
void rc_warn(const char *fmt, ...) PRINTFLIKE(1, 2);
NORETURN void rc_syserror(const char *what);
void print_error(const char *fmt, ...) PRINTFLIKE(1, 2);
void report_at(int line, const char *fmt, ...) PRINTFLIKE(2, 3);

/* state.c: the shell's modes, and its process model.
 *
 * Some commands behave as if run in a process of their own although the
 * shell runs them itself: a builtin, function or braced command given a
 * redirection, or a command written after a redirection.  An error, an
 * exit or the end of such a command ends only it; its $status is what a
 * process exiting with the last status would give; fn sigexit runs when
 * that process would exit.  The shell runs each such command in a frame
 * (walk_guarded), pushed as the command starts and popped as it ends.
 * proc says what the process itself is; the top frame says whether
 * leaving the process from where it is now runs fn sigexit:
 * - the shell: always (its own frame; its guarded frames never do, so
 *   that an exit there is the shell's);
 * - a forked child (or the shell after exec of a builtin or function):
 *   only from a frame in which it defined fn sigexit, and, in a
 *   backquote's child, the frame it started in if the shell would have
 *   run it there; never once it has started the command it was made for,
 *   whose own exit that is. */
extern bool interactive;
bool as_script(void);
bool script_format_set(bool on);
const char *start_up_file_set(const char *name);
const char *start_up_file_name(void);
void typed_shell_set(void);
bool typed_shell(void);
bool typed_session(void);
extern int lineno;
enum { SKIP_NONE, SKIP_BREAK, SKIP_CONTINUE, SKIP_RETURN };
extern int skipping;	/* a break, continue or return is leaving commands */
typedef enum {
	PROC_SHELL,
	PROC_CHILD,		/* forked: a pipeline's stage, &, @, <{} */
	PROC_BACKQUOTE,		/* forked for a backquote */
	PROC_EXECED		/* the shell after exec of a builtin or function */
} ProcKind;
typedef enum {
	ON_ERROR_UNWIND,	/* to the innermost catcher */
	ON_ERROR_EXIT,		/* exit 1: a child that left its command by a
				 * break, continue or return (walk.c) */
	ON_ERROR_EXIT_BARE	/* exit 1 at once, no fn sigexit: the shell
				 * whose exec of a command given a <{cmd}
				 * ran it in a child (exec.c, do_exec) */
} OnError;
typedef struct {
	ProcKind kind;
	OnError on_error;
	bool skip_in_place;	/* a child's last command was a break,
				 * continue or return (input_child_escaped) */
} Process;
extern Process proc;
typedef struct {
	bool sigexit;	/* leaving the process from here runs fn sigexit */
	int wait_floor;	/* the first of the shell's saved redirections
			 * (redir.c) that is this process's own: a wait in
			 * it takes the writers of their here documents */
} Frame;
/* frame_push's wait_floor for a body that is part of the process it runs
 * in: the frame below's. */
enum { WAIT_FLOOR_INHERITED = -1 };
Frame *frame_top(void);
int frame_depth(void);
int frame_push(int wait_floor);
void frame_pop(int depth);
void proc_become(ProcKind kind);
bool in_child(void);
void frame_started(void);
void frame_keep_sigexit(void);
extern const CatchStep frame_catch_step;

/* names.c: give lineedit the names it completes, $path programs cached. */
void names_offer(void);

/* complete.c: the completers written in rc, and where they are found. */
void completers_default(void);
void completers_offer(void);

/* keys.c */
void keys_sync(void);
void keys_offer(void);

/* str.c: growable strings, formatted (%q quotes rc-style), and written out. */
typedef struct { char *buf; size_t len, cap; } Str;
void str_add(Str *s, const char *p, size_t n);
Str *str_held(void);
void str_addc(Str *s, int c);
void str_adds(Str *s, const char *p);
void str_quote(Str *s, const char *w);
void str_quote_always(Str *s, const char *w);
void str_vfmt(Str *s, const char *fmt, va_list ap);
void str_fmt(Str *s, const char *fmt, ...) PRINTFLIKE(2, 3);
int writeall(int fd, const char *p, size_t n);
int fprint(int fd, const char *fmt, ...) PRINTFLIKE(2, 3);
char *nfmt(const char *fmt, ...) PRINTFLIKE(1, 2);

/* lex.c */
enum {
	tEOF = 256, tWORD, tQWORD, tKW, tREDIR, tDUP, tPIPE, tANDAND, tOROR,
	tBACKQ, tBACKBACKQ, tCOUNT, tFLAT, tSUB, tNMPIPE,
	tHEREDOC, tHERESTR,
};
typedef struct {
	int type;
	int kw;		/* tKW: which keyword */
	bool spaced;	/* white space came before it */
	bool meta;	/* tWORD: holds unquoted * ? [ */
	bool bare;	/* tREDIR: a plain < or >, which may also begin <{} or >{} */
	bool careted;	/* the grammar puts a free caret before it (first: its first byte) */
	int first;
	int fd[2];	/* redirections and pipes */
	int redir;	/* tREDIR, tHEREDOC: kind */
	char *s;	/* word text */
} Token;
extern Token tok;
void lex_reset(void);
void lex_next(void);
void lex_skipnl(void);
const char *lex_near(void);
NORETURN void lex_syntax(const char *near);
NORETURN void lex_fail(const char *msg, const char *near);
NORETURN void lex_fail_flush(const char *msg);
bool lex_quiet(void);
bool lex_ends_bracket(void);
void lex_after_error(void);

/* parse.c */
Node *parse_command(bool *eof);
Node *parse_string(const char *s);
bool parse_ifnot_taken(void);

/* tree.c */
Node *mk(NodeType t, Node *a, Node *b, Node *c);
Node *mkword(const char *s, bool quoted);
Node *unparen(Node *w);
Node *mkredir(int kind, int fd0, int fd1, Node *target);
Node *tree_copy(const Node *n);
void tree_free(Node *n);
void tree_print(Str *s, const Node *n);
void tree_print_body(Str *s, const Node *n);

/* list.c: the list primitives. */
List *mklist(char *w, char *m, List *n);
int list_len(const List *l);
char *list_flat(const List *l, const char *sep);

/* value.c: variables' values, shared and grown in place (see there). */
typedef struct Value Value;
List *value_list(const Value *v);
size_t value_count(const Value *v);
char *value_word(const Value *v, size_t i);
Value *value_ref(Value *v);
void value_unref(Value *v);
Value *value_new(const List *l);
Value *value_set(Value *old, const List *l);
Value *value_add(Value *v, const List *l, bool front);
Value *value_split(char *buf, size_t len, const char *seps);

/* expand.c: word expansion (glom), word expressions to lists. */
List *glom(Node *n);
List *glom_noglob(Node *n);
List *glob_if_meta(List *l);
List *backquote(Node *n);
int backquote_output(Node *body, Str *out);
bool glom_assign(Sym *s, Node *val);

/* expand.c: <{cmd} and >{cmd}. */
char *nmpipe(Node *n);
void nmpipe_reap(void);
int nmpipe_protect(void);
void nmpipe_in_call(int first);
void nmpipe_wait_own(void);
bool nmpipe_pending(void);
int nmpipe_count(void);
int nmpipe_floor(void);
void nmpipe_set_floor(int floor);
extern const CatchStep nmpipe_catch_step;

/* glob.c, match.c */
List *glob_list(List *l);
bool match(const char *p, const char *m, const char *s);
bool list_match(const List *subject, const List *patterns);
bool has_meta(const char *w, const char *m);

/* var.c: one table for variables and functions. */
struct Sym {
	Sym *next;
	char *name;
	List *val;	/* the value as a list: v's words, or borrowed */
	Value *v;	/* the value when it is the symbol's own */
	Node *fn;	/* function body, one heap block */
	char *fndef;	/* an imported function's text, parsed on first use */
	char *env;	/* cached name=value for the environment, or NULL */
	char *fnenv;	/* cached fn_name={body}, or NULL */
	const char *raw;	/* with S_RAW: the imported value, not yet decoded */
	unsigned flags;
};
enum {
	S_NOEXPORT = 1,	/* never put in the environment */
	S_BORROWED = 2,	/* the value is not the symbol's to free (imported) */
	S_RAW = 4,	/* imported, decoded on first use */
	S_PID = 8,	/* $pid, asked of the kernel only when first read */
	S_ENVENTRY = 16,	/* env is the original environment entry: not ours to free */
};
Sym **sym_all(int *count);
void var_import_raw(const char *entry, size_t namelen);
/* The variables kept under two names, one in capitals (path and PATH):
 * setting either sets both.  sep joins the lower one's words into the
 * upper one (NULL: the same words).  At start-up the environment's upper
 * one wins. */
typedef struct { const char *lower, *upper, *sep; } VarAlias;
enum { NVAR_ALIASES = 3 };
extern const VarAlias var_aliases[NVAR_ALIASES];
/* The alias whose lower or upper name is name, or NULL. */
const VarAlias *var_alias(const char *name);
bool var_importable_raw(const char *name, size_t len);
void sym_walk(void (*f)(Sym *s, void *ctx), void *ctx);
bool var_exported(const Sym *s);
List *var_get(const char *name);
void var_fix_pid(void);
List *var_get_pinned(Sym *s);
size_t var_count(Sym *s);
char *var_word(Sym *s, size_t i);
void var_add_sym(Sym *s, List *words, bool front);
void var_share_sym(Sym *to, Sym *from);
void var_adopt_sym(Sym *s, Value *v);
void var_set_sym(Sym *s, List *val);
Sym *var_name_sym(Node *n);
void var_set(const char *name, List *val);
void var_import(const char *name, List *val);
void var_set_const(const char *name, List *val, bool user);
void var_push_local(const char *name, List *val);
void var_pop_local(void);
int var_depth(void);
void var_unwind(int depth);
extern const CatchStep var_catch_step;
char *var_name(List *name, bool assigning);
void var_print(Str *s, const char *name, List *val);
Sym *sym_lookup(const char *name, bool create);
List *args_get(void);
void args_set(List *args);
bool var_importable(const char *name);

/* env.c: the environment, both ways. */
void env_import(char **envp, bool import_fns);
char **env_vector(void);
void env_changed(Sym *s, bool fn);
List *env_decode_value(const char *v);

/* fncall.c: calling functions. */
Node *fn_get(const char *name);
void fn_call(const char *name, Node *body, List *args);

/* fn.c: functions and signal-handler functions. */
bool fn_defined(const char *name);	/* without parsing an imported one */
void fn_define(const char *name, Node *body);
void fn_import(const char *name, const char *def);
void fn_delete(const char *name);
void fn_forget(const char *name);
int fn_running_depth(void);
void fn_running_push(Node *body);
void fn_unwind(int depth);
extern const CatchStep fn_catch_steps[3];
bool is_signal_fn(const char *name);
/* What break, continue and return need: the function calls being run,
 * and the loop bodies, plus FOR_LIST for each for list being taken: that
 * is inside its loop's break (the list is the loop's), but not inside a
 * continue (walk.c, for_list): break needs loops, continue loops % FOR_LIST. */
typedef struct {
	int funcs, loops;
} Nesting;
extern Nesting nesting;
enum { FOR_LIST = 1 << 16 };

/* walk.c: the interpreter.  Where a command runs decides what may follow
 * it in its process (walk's parent): */
typedef enum {
	WALK_CHILD_TAIL,	/* the last command of a forked child: it may
				 * exec in place, and nothing need be restored */
	WALK_SHELL,		/* anywhere else in the shell or a child */
	WALK_GUARD_TAIL		/* the last command of a guarded body
				 * (state.c): a program run there gives the
				 * body its wait status (status_exec_tail) */
} Parent;
void walk_body(Node *body);
void check_e(void);
void walk(Node *n, Parent parent);
NORETURN void walk_in_child(Node *n);
bool walk_reset(void);
bool walk_guarded(void (*fn)(void *), void *arg, int wait_floor);
int guard_wait_floor(Parent parent, int depth);
void check_e_backquote(int wstat);
void walk_on_error(void);
extern const CatchStep walk_catch_step;

/* exec.c: the one place the shell forks or spawns. */
pid_t rc_fork(void);
pid_t rc_fork_closing(const int *fds, int n);
pid_t rc_fork_background(void);
int rc_fork_orphan(void);
bool run_simple_forgiven(Node *items, Parent parent);
void trace_list(const char *prefix, List *a, List *b, bool match);
char *path_which(const char *name, int *err);

/* redir.c */
int fd_depth(void);
bool fd_writers(void);
void fd_disown_writers(void);
bool fd_redirected(int fd);
void fd_unwind(int depth);
bool redir_in_shell(Node *redirs);
bool redir_exec(Node *redirs);
void fd_forget(int depth);
void fd_keep(int depth);
extern const CatchStep fd_catch_step;
void redir_in_child(Node *redirs);
int heredoc_fd(const char *text);
/* fd moved to FD_SHELL_MIN (sys.h) or above. */
int fd_move_high(int fd);

/* status.c: $status as a list of wait statuses. */
bool builtin_put(const char *name, Str *s);
void status_set(int wstat);
void status_set_list(const int *w, int n);
void status_set_bool(bool ok);
void status_fail(void);
unsigned long status_changes(void);
bool status_true(void);
int status_exit_code(void);
void status_as_exit(void);
void status_exec_tail(int wstat);
void status_as_child(bool tail);
List *status_list(void);
char *status_word_of(int wstat);
const char *signame(int sig);
int sig_by_name(const char *name);
void status_report(pid_t pid, int wstat, bool bg);
typedef struct { int *w; int n; } StatusCopy;
StatusCopy status_save(void);
void status_restore(StatusCopy c);
bool status_from_words(List *l);

/* wait.c: children. */
void child_add(pid_t pid, bool async);
void child_ended(pid_t pid, int wstat);
int child_wait(pid_t pid);
void child_wait_status(pid_t pid);
bool child_wait_for(pid_t pid, int *wstat);
enum { WAIT_NONE = -1, WAIT_SIGNAL = -2 };
enum { CHILD_GONE, CHILD_RUNNING, CHILD_STOPPED, CHILD_DONE };

/* jobs.c: job control (the job table, process groups, the terminal) */
bool jobs_on(void);
bool jobs_visible(void);
void jobs_prompt(void);
void jobs_show(Str *s);
void jobs_loop_enter(void);
void jobs_loop_leave(void);
bool job_open(bool foreground);
bool job_child_enter(void);
void jobs_child_reset(void);
void job_forked(pid_t pid);
bool job_end(const int *w, int n, Node *tree, List *words);
void job_end_background(Node *tree);
NORETURN void job_stopped(void);
extern const CatchStep job_catch_step;
void job_fg(List *args);
void job_bg(List *args);
bool jobs_may_exit(void);
void jobs_leave(void);
void jobs_retake(void);
void child_see_stops(bool on);
int child_state(pid_t pid, int *wstat);
void child_continued(pid_t pid);
void child_poll(void);
void child_release(pid_t pid);
int child_wait_any(pid_t *pid);
bool child_is(pid_t pid);
void child_reset(void);
void child_set_async(pid_t pid);
List *child_async_list(void);

/* signal.c */
extern volatile sig_atomic_t sig_pending;
void signals_init(void);
void sig_hold_all(sigset_t *saved);
void sig_before_child(void);
void sig_after_child(int wstat);
void sig_wake_on_child(bool on);
void sig_set_handler(int sig, Node *body);
void sig_vforked_child(const sigset_t *saved);
void sig_after_fork(pid_t pid);
void sig_background_child(void);
void sig_child_reset(void);
void sig_ignore_stops(void);
bool sig_ends_wait(void);
bool sig_take_quiet(void);
bool sig_is_caught(int sig);
bool sig_take(int sig);
void sig_interrupt_heard(bool quiet);
bool sig_caught_waiting(const sigset_t *saved);

/* sigfn.c: running the functions named after signals; leaving the shell. */
void sig_check(void);
void sig_await_input(int fd);
bool sig_interrupted(void);
void sig_prompt_interrupt(void);
void sig_block_all(sigset_t *saved);
void sig_exit_guarded(void);
NORETURN void rc_exit(int code);
NORETURN void rc_exit_early(int code);

/* input.c: where commands come from. */
/* What one read(2) of a script, pipe or $history asks for (BUFSIZ with glibc);
 * of commands read from standard input without -i, what rc 1.7.4 asks for
 * (its input buffer): the commands it runs read what follows the block. */
enum { INPUT_CHUNK = 8192, STDIN_CHUNK = 256 };
void input_string(const char *s, bool shared_lines);
void input_fd(int fd);
void input_keep_line(void);
void input_newline_left(void);
void input_command_start(void);
int input_idle_fd(void);
bool input_tty_line_done(void);
bool input_is_tty(void);
bool input_ended(void);
bool input_recovers(void);
void input_prompt_lines(void);
void input_skip_line(void);
/* The shell code that reading runs, set from above (startup.c): the
 * input knows nothing of functions or of how the shell ends. */
typedef struct {
	void (*before_prompt)(void);	/* before a command's first prompt */
	void (*interrupted)(void);	/* ^C at the prompt */
	/* before reading: the read builtin's look-ahead may be of the same input */
	void (*before_read)(void);
	void (*leave)(int code);	/* the input is gone for good: the process ends */
} InputHooks;
void input_set_hooks(const InputHooks *h);
void input_interactive(void);
void input_recover(void);
void input_pop(void);
void input_child_escaped(bool closed);
void input_after_child(void);
int input_getc(void);
int input_line(Str *s);
void input_ungetc(int c);

/* loop.c: the read-parse-run loop. */
int input_loop(void);
void input_run_fd(int fd, bool prompting);
void input_run_string(const char *s);

/* history.c: $history and the editor's history. */
void history_typed(const char *text, size_t len);
void history_read(const char *text, size_t len);
void history_commit(void);
void history_load(void);
void history_add(const char *text);
bool history_matching(List *patterns, Str *out);
bool history_pick(const char *tool, List *words, Str *out);

/* heredoc.c */
void heredoc_pending(Node *redir, const char *eof, bool quoted);
void heredoc_read_all(bool at_eof);
bool heredoc_waiting(void);
void heredoc_discard(void);

/* read.c */
int read_line(int fd, Str *line);
ssize_t read_bytes(int fd, char *buf, size_t n);
void read_child_reset(void);
void read_forget(void);
void read_fd_taken(int fd);

/* builtins.c */
typedef void Builtin(List *args);
Builtin *builtin_get(const char *name);
bool builtin_runs_commands(Builtin *b);
void builtin_each(void (*f)(const char *name, void *ctx), void *ctx);
void dot_file(List *args, bool interactive, bool start_up);
typedef enum { EDIT_DONE, EDIT_FAILED, EDIT_NO_FILE } EditResult;
EditResult edit_text(const char *tool, Str *s);

/* limit.c: 0 when a limit was set, 1 on an error, LIMIT_SHOWN when limits
 * were printed (which leaves $status as it was: nothing was set) */
enum { LIMIT_SHOWN = -1 };
int limit_builtin(List *args);

/* startup.c */
int rc_main(int argc, char **argv, char **envp);
void catch_steps(void);

#endif
