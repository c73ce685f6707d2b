/* SPDX-License-Identifier: Zlib */
/* signal.c: the shell's own signal handling: what is caught, ignored or
 * left at the default, and what has arrived (sigfn.c runs the functions
 * named after signals).
 *
 * At start-up: SIGINT is caught (an interactive shell
 * always, a script unless it was ignored on entry); SIGQUIT is caught and
 * does nothing (unless -d; in a script, unless it was ignored on entry);
 * an interactive shell also catches SIGTERM (unless -d), doing nothing.
 * Catching rather than ignoring lets the shell survive them while the
 * programs it starts, exec included, get the default.  Beyond those:
 * SIGXFSZ is caught too, so that a write past ulimit -f fails with EFBIG
 * (write error) instead of killing the shell (a redirected builtin
 * writes from the shell itself); an interactive shell catches SIGWINCH for
 * the line editor; SIGCHLD ignored on entry is set back to the default, or
 * the shell could not learn its children's statuses: before its first child
 * or exec (sig_before_child), so that rc -c '' makes no call for it. */
#include "rc.h"
#include "../lineedit/le.h"
#include "sys.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t sig_pending;
static volatile sig_atomic_t caught[NSIG];
/* The last of each signal came from the terminal (^C, ^\\), not from a
 * process. */
static volatile sig_atomic_t from_terminal[NSIG];

/* Each signal's disposition in the shell (state), and the shell's own one
 * (own), which deleting its function (fn sigX) restores. */
enum { S_DEFAULT, S_CAUGHT, S_IGNORED };
static unsigned char state[NSIG], own[NSIG];
/* fn sigX is defined (the only way to define one: sig_set_handler) */
static bool has_fn[NSIG];

/* sig has come (in its handler, or as the shell learnt of it otherwise). */
static void arrived(int sig, bool by_terminal)
{
	from_terminal[sig] = by_terminal;
	caught[sig] = 1;
	sig_pending = 1;
	if (sig == SIGINT || is_sigwinch(sig))
		le_on_signal(sig);
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
	(void) context;
	arrived(sig, sent_by_system(info));
}

/* Only who sent it, for a signal whose default is let in after (take_waiting). */
static void note_sender(int sig, siginfo_t *info, void *context)
{
	(void) context;
	from_terminal[sig] = sent_by_system(info);
}

static void handler(struct sigaction *sa, int how)
{
	memset(sa, 0, sizeof *sa);
	sigemptyset(&sa->sa_mask);
	if (how == S_CAUGHT) {
		sa->sa_sigaction = on_signal;
		sa->sa_flags = SA_SIGINFO;	/* take_waiting asks who sent it */
	} else
		sa->sa_handler = how == S_DEFAULT ? SIG_DFL : SIG_IGN;
	/* No SA_RESTART: a caught signal must interrupt a blocking read or
	 * wait so that its handler can run promptly. */
}

static void set(int sig, int how)
{
	struct sigaction sa;
	handler(&sa, how);
	sigaction(sig, &sa, NULL);
	state[sig] = how;
}

/* Catch sig for the shell itself; unless_ignored: leave it ignored if it
 * was ignored on entry (and then it stays so in children too). */
static void take(int sig, bool unless_ignored)
{
	struct sigaction sa, old;
	handler(&sa, S_CAUGHT);
	sigaction(sig, &sa, &old);
	if (unless_ignored && old.sa_handler == SIG_IGN) {
		sigaction(sig, &old, NULL);
		state[sig] = S_IGNORED;
		return;
	}
	state[sig] = own[sig] = S_CAUGHT;
}

void signals_init(void)
{
	take(SIGINT, !interactive);
	if (!flag.d) {
		take(SIGQUIT, !interactive);
		if (interactive)
			take(SIGTERM, false);
	}
	take(SIGXFSZ, true);
#if HAVE_DECL_SIGWINCH
	if (interactive)
		take(SIGWINCH, false);
#endif
}

/* Hold every signal; *saved (unless NULL) gets the mask to restore. */
void sig_hold_all(sigset_t *saved)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, saved);
}

/* Before every fork, vfork and exec: SIGCHLD back to the default, once. */
void sig_before_child(void)
{
	static bool done;
	if (!done) {
		done = true;
		signal(SIGCHLD, SIG_DFL);
	}
}

/* fn sigX {body}: catch it; an empty body ignores it; no body restores
 * the shell's own disposition. */
void sig_set_handler(int sig, Node *body)
{
	if (sig == SIGKILL || sig == SIGSTOP)
		return;
	has_fn[sig] = body != NULL;
	if (body == NULL)
		set(sig, own[sig]);
	else if (body->type == nBrace && body->k[0] == NULL)
		set(sig, S_IGNORED);
	else
		set(sig, S_CAUGHT);
}

/* Is a signal the shell catches waiting, blocked now but not in saved? */
bool sig_caught_waiting(const sigset_t *saved)
{
	sigset_t waiting;
	if (sigpending(&waiting) != 0)
		return false;
	for (int sig = 1; sig < NSIG; sig++)
		if (state[sig] == S_CAUGHT && sigismember(&waiting, sig) == 1
		    && sigismember(saved, sig) != 1)
			return true;
	return false;
}

/* What take_waiting found. */
typedef enum { CAME_NOT, CAME_FROM_TERMINAL, CAME_FROM_PROCESS } Came;

/* Signals blocked: a signal that is waiting (in *waiting, from
 * sigpending) is taken now, through a handler that says who sent it (sig
 * alone unblocked for the moment: POSIX delivers a pending signal so
 * unblocked before sigprocmask returns).  One the shell catches is its
 * handler's; one left at the default (a child shell's SIGINT), which
 * would end the process, is only looked at: the caller holds it again. */
static Came take_waiting(int sig, const sigset_t *waiting)
{
	if (sigismember(waiting, sig) != 1 || state[sig] == S_IGNORED)
		return CAME_NOT;
	struct sigaction note, dfl;
	bool deadly = state[sig] == S_DEFAULT;
	if (deadly) {	/* the default would end the process as it is let in */
		handler(&note, S_CAUGHT);
		note.sa_sigaction = note_sender;
		sigaction(sig, &note, &dfl);
	}
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	from_terminal[sig] = 0;
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	sigprocmask(SIG_BLOCK, &one, NULL);
	if (deadly)
		sigaction(sig, &dfl, NULL);
	return from_terminal[sig] ? CAME_FROM_TERMINAL : CAME_FROM_PROCESS;
}

/* The signals a terminal sends its foreground group when a key is typed
 * (^C, ^\\). */
static const int terminal_interrupts[] = { SIGINT, SIGQUIT };
enum { N_INTERRUPTS = sizeof terminal_interrupts / sizeof terminal_interrupts[0] };

/* In the shell after the fork or vfork of a command in the foreground,
 * signals still blocked (since before_fork, exec.c).  A ^C that came
 * after sig_block_all() looked and before the child existed reached the
 * shell alone (a shell preempted there on a busy machine made that window
 * long); the command gets it too.  So in every shell, also while ~/.rcrc
 * or a script runs: else the program started then (cat) runs on, the ^C
 * lost; and in a child shell that the ^C ends (`{echo; sleep 600}` in a
 * backquote or a pipeline), else the program outlives it, holding the
 * pipe the shell reads.  Only what the terminal sent is passed on: a
 * SIGINT some process sent the shell alone, the child itself included
 * (`kill -INT $pid` run by a shell preempted here), is the shell's. */
void sig_after_fork(pid_t pid)
{
	sigset_t waiting;
	if (sigpending(&waiting) != 0)
		return;
	for (int i = 0; i < N_INTERRUPTS; i++) {
		int sig = terminal_interrupts[i];
		Came came = take_waiting(sig, &waiting);
		if (came == CAME_FROM_TERMINAL)
			kill(pid, sig);
		if (came != CAME_NOT && state[sig] == S_DEFAULT)
			raise(sig);	/* held: it ends this shell when let in */
	}
}

/* In a background job's child, its process group its own already and
 * signals held since before the fork, before its dispositions are reset:
 * a ^C or ^\\ the terminal sent while the child was still in the shell's
 * group was not meant for the job and is dropped; one a process sent
 * (kill -INT $apid, as soon as $apid is set) is the job's and is held
 * again, for the default disposition to take. */
void sig_background_child(void)
{
	sigset_t waiting;
	if (sigpending(&waiting) != 0)
		return;
	for (int i = 0; i < N_INTERRUPTS; i++)
		if (take_waiting(terminal_interrupts[i], &waiting) == CAME_FROM_PROCESS)
			raise(terminal_interrupts[i]);
}

/* In the vforked child (system calls only), or the forked one that takes
 * its place without vfork, about to exec: caught signals go back to the
 * default before the mask is restored, so that none runs a handler in the
 * shell's memory before execve (which would reset them anyway); ignored
 * ones stay ignored.  The child has its own copy of the dispositions, so
 * the shell keeps its own. */
void sig_vforked_child(const sigset_t *saved)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (state[sig] == S_CAUGHT)
			sigaction(sig, &dfl, NULL);
	sigprocmask(SIG_SETMASK, saved, NULL);
}

/* In a forked child: handlers reset; ignored signals stay ignored.
 * SIGXFSZ stays caught: the child still runs shell code, whose own
 * writes must fail rather than kill it (exec resets it for a program).
 * Nothing is written that need not be: each page written after fork is
 * a copy-on-write fault. */
void sig_child_reset(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		if (state[sig] == S_CAUGHT) {
			/* the handler goes with the catching; no look-up
			 * without one (the look-up's code is a page fault) */
			if (has_fn[sig])
				fn_forget(signame(sig));
			if (sig != SIGXFSZ)
				set(sig, S_DEFAULT);
		}
		if (caught[sig])
			caught[sig] = 0;
	}
	if (sig_pending)
		sig_pending = 0;
}

/* In a background job's child without job control, and in the shell
 * with it (jobs.c): the terminal's stop signals are ignored, recorded in
 * the table like any other disposition. */
void sig_ignore_stops(void)
{
	set(SIGTTOU, S_IGNORED);
	set(SIGTTIN, S_IGNORED);
	set(SIGTSTP, S_IGNORED);
}

/* After a foreground child.  A ^C the shell caught while the child ran
 * (or just before it started) stops the line whatever became of the child:
 * forgetting it when the child exited normally lost the ^C
 * that came between two commands of a loop.  Only the newline is left out
 * when the child exited normally: a program that handles ^C itself (ed,
 * less) has left the cursor where the prompt belongs. */
static bool quiet_interrupt;

void sig_after_child(int wstat)
{
	if (caught[SIGINT] && !WIFSIGNALED(wstat))
		quiet_interrupt = true;
}

/* A ^C that a job's process group got, not the shell, which learnt of it
 * from the group's keeper (jobs.c): as if the shell had caught it while
 * the job ran.  quiet: the job ended normally (see sig_after_child). */
void sig_interrupt_heard(bool quiet)
{
	if (state[SIGINT] != S_CAUGHT)
		return;		/* fn sigint {}: ignored */
	arrived(SIGINT, true);
	if (quiet)
		quiet_interrupt = true;
}

/* Was the interrupt caught while a child ran one that the child handled
 * itself?  Asked once: the answer is cleared. */
bool sig_take_quiet(void)
{
	bool quiet = quiet_interrupt;
	quiet_interrupt = false;
	return quiet;
}

bool sig_is_caught(int sig)
{
	return caught[sig];
}

/* Was sig caught since it was last taken?  It is taken now. */
bool sig_take(int sig)
{
	if (!caught[sig])
		return false;
	caught[sig] = 0;
	return true;
}

/* Does a signal that arrived end the wait builtin?  Any the shell
 * handles, but for those it catches for itself alone (a resize, a file
 * too large) when they have no function. */
bool sig_ends_wait(void)
{
	if (!sig_pending)
		return false;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig_is_caught(sig) && ((!is_sigwinch(sig) && sig != SIGXFSZ) || fn_defined(signame(sig))))
			return true;
	return false;
}

static void woken(int sig)
{
	(void) sig;
}

/* While the wait builtin sleeps, SIGCHLD is caught so that a child's end
 * wakes it; otherwise it keeps its default (never trapped by the user). */
void sig_wake_on_child(bool on)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on ? woken : SIG_DFL;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}
