/* signal.c: the shell's own signal handling, and functions named after
 * signals.  A non-interactive shell sets up nothing until a script defines
 * a handler, so start-up costs no system calls here. */
#include "rc.h"
#include "../lineedit/le.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t sig_pending;
volatile sig_atomic_t interrupted;
static volatile sig_atomic_t caught[NSIG];

/* What the shell itself did to each signal: 0 default, or one of these. */
enum { S_DEFAULT, S_CAUGHT, S_IGNORED_BY_USER, S_IGNORED_BY_SHELL };
static unsigned char state[NSIG];
static bool any_set;		/* has the shell changed any disposition? */

static void on_signal(int sig)
{
	caught[sig] = 1;
	sig_pending = 1;
	if (sig == SIGINT)
		interrupted = 1;
	if (sig == SIGINT || sig == SIGWINCH)
		le_on_signal(sig);
}

static void set(int sig, int how)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = how == S_CAUGHT ? on_signal : how == S_DEFAULT ? SIG_DFL : SIG_IGN;
	/* No SA_RESTART: a caught signal must interrupt a blocking read or
	 * wait so that its handler can run promptly. */
	sigaction(sig, &sa, NULL);
	state[sig] = how;
	any_set = true;
}

/* Interactive shells survive SIGINT and ignore SIGQUIT and SIGTERM (unless -d). */
void signals_init(void)
{
	if (!interactive)
		return;
	set(SIGINT, S_CAUGHT);
	set(SIGWINCH, S_CAUGHT);
	if (!flag_d) {
		set(SIGQUIT, S_IGNORED_BY_SHELL);
		set(SIGTERM, S_IGNORED_BY_SHELL);
	}
}

/* fn sigX {body}: catch it; an empty body ignores it; no body restores it. */
void sig_set_handler(int sig, Node *body)
{
	if (sig == SIGKILL || sig == SIGSTOP)
		return;
	if (body == NULL) {
		if (interactive && (sig == SIGINT || sig == SIGWINCH))
			set(sig, S_CAUGHT);
		else if (interactive && !flag_d && (sig == SIGQUIT || sig == SIGTERM))
			set(sig, S_IGNORED_BY_SHELL);
		else
			set(sig, S_DEFAULT);
		return;
	}
	bool empty = body->type == nBrace && body->k[0] == NULL;
	set(sig, empty ? S_IGNORED_BY_USER : S_CAUGHT);
}

/* Around vfork: no handler may run in the child while it shares our memory. */
void sig_block_all(sigset_t *saved)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, saved);
}

/* In the vforked child (system calls only): signals the shell catches or
 * ignores for itself go back to default, then the mask is restored.  The
 * child has its own copy of the dispositions, so the shell keeps its own. */
void sig_vforked_child(const sigset_t *saved)
{
	if (any_set) {
		struct sigaction dfl;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		for (int sig = 1; sig < NSIG; sig++)
			if (state[sig] == S_CAUGHT || state[sig] == S_IGNORED_BY_SHELL)
				sigaction(sig, &dfl, NULL);
	}
	sigprocmask(SIG_SETMASK, saved, NULL);
}

/* In a forked child: handlers reset; the user's ignores are inherited.
 * Nothing is written that need not be: each page written after fork is
 * a copy-on-write fault. */
void sig_child_reset(void)
{
	if (!any_set && !sig_pending)
		return;
	for (int sig = 1; sig < NSIG; sig++) {
		if (state[sig] == S_CAUGHT) {
			fn_forget(signame(sig));	/* the handler goes with the catching */
		}
		if (state[sig] == S_CAUGHT || state[sig] == S_IGNORED_BY_SHELL)
			set(sig, S_DEFAULT);
		if (caught[sig])
			caught[sig] = 0;
	}
	sig_pending = 0;
	interrupted = 0;
}

/* After a foreground child: an interactive shell abandons the line for a
 * ^C only if the child died of it too (kill -INT of the shell alone, or a
 * child that handled the ^C itself, is not an interrupt of the line). */
void sig_after_child(int wstat)
{
	if (!interactive || !caught[SIGINT] || fn_get("sigint") != NULL)
		return;
	if (WIFSIGNALED(wstat) && WTERMSIG(wstat) == SIGINT)
		return;
	caught[SIGINT] = 0;
	interrupted = 0;
}

/* Run the handlers for signals that arrived.  An interactive shell with no
 * sigint function abandons the current command. */
/* A handler runs between two commands of the script: the $status it
 * leaves is not the one of the command the signal interrupted. */
static void run_handler(int sig, Node *fn)
{
	int n = status_count();
	int *saved = nalloc((n + 1) * sizeof *saved);
	memcpy(saved, status_raw(), n * sizeof *saved);
	fn_call(signame(sig), fn, NULL);
	status_set_list(saved, n);
}

void sig_check(void)
{
	if (!sig_pending)
		return;
	sig_pending = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		if (!caught[sig])
			continue;
		caught[sig] = 0;
		if (sig == SIGWINCH)
			continue;
		Node *fn = fn_get(signame(sig));
		if (fn != NULL) {
			if (sig == SIGINT)
				interrupted = 0;
			run_handler(sig, fn);
		} else if (sig == SIGINT) {
			interrupted = 0;
			writeall(2, "\n", 1);
			rc_raise(eInterrupt);
		}
	}
}

/* ^C at the prompt: the editor has dropped the line already.  Clear the
 * catch so that it cannot abort a later command (on the next signal of any
 * kind), and run fn sigint if there is one. */
void sig_prompt_interrupt(void)
{
	caught[SIGINT] = 0;
	interrupted = 0;
	Node *fn = fn_get("sigint");
	if (fn != NULL)
		fn_call("sigint", fn, NULL);
}

/* fn sigexit runs once, when the shell exits (never in a child).
 * Returns true if it ran: the shell then exits with its status. */
bool sig_exit_handler(void)
{
	static bool done;
	if (done)
		return false;
	done = true;
	Node *fn = fn_get("sigexit");
	if (fn != NULL)
		fn_call("sigexit", fn, NULL);
	return fn != NULL;
}

/* _exit through a pointer bound when the shell is loaded: called lazily,
 * its first call in every forked child would write the child's copy of
 * the binding table (a copy-on-write fault per fork). */
static void (*volatile exit_now)(int) = _exit;

#ifdef RC_COVERAGE
/* A gcov build (tests/difftest/coverage) writes its counts before leaving:
 * _exit skips the exit handlers that would. */
void __gcov_dump(void);
#define coverage_dump() __gcov_dump()
#else
#define coverage_dump() ((void) 0)
#endif

/* Leave the shell: fn sigexit first, unless this is a forked child. */
NORETURN void rc_exit(int code)
{
	if (!in_child && sig_exit_handler())
		code = status_exit_code();
	coverage_dump();
	exit_now(code & 0xff);
	_exit(code & 0xff);
}
