/* SPDX-License-Identifier: Zlib */
/* status.c: $status, kept as the wait statuses of the last command or of
 * every stage of the last pipeline, the names of signals, and a builtin's
 * output, whose write error fails it (builtin_put). */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static const struct { int sig; const char *name, *msg; } sigs[] = {
	{ SIGHUP, "sighup", "hangup" }, { SIGINT, "sigint", "" },
	{ SIGQUIT, "sigquit", "quit" }, { SIGILL, "sigill", "illegal instruction" },
	{ SIGTRAP, "sigtrap", "trace trap" }, { SIGABRT, "sigabrt", "abort" },
	{ SIGBUS, "sigbus", "bus error" }, { SIGFPE, "sigfpe", "floating point error" },
	{ SIGKILL, "sigkill", "killed" }, { SIGUSR1, "sigusr1", "user defined signal 1" },
	{ SIGSEGV, "sigsegv", "segmentation violation" }, { SIGUSR2, "sigusr2", "user defined signal 2" },
	{ SIGPIPE, "sigpipe", "" }, { SIGALRM, "sigalrm", "alarm clock" },
	{ SIGTERM, "sigterm", "terminated" },
#if HAVE_DECL_SIGSTKFLT	/* Linux only */
	{ SIGSTKFLT, "sigstkflt", "stack fault" },
#endif
	{ SIGCHLD, "sigchld", "child stop or exit" }, { SIGCONT, "sigcont", "continue" },
	{ SIGSTOP, "sigstop", "stopped by signal" }, { SIGTSTP, "sigtstp", "stopped" },
	{ SIGTTIN, "sigttin", "background tty read" }, { SIGTTOU, "sigttou", "background tty write" },
	{ SIGURG, "sigurg", "urgent condition on i/o channel" },
	{ SIGXCPU, "sigxcpu", "exceeded cpu time limit" }, { SIGXFSZ, "sigxfsz", "exceeded file size limit" },
	{ SIGVTALRM, "sigvtalrm", "virtual timer alarm" }, { SIGPROF, "sigprof", "profiling timer alarm" },
#if HAVE_DECL_SIGWINCH	/* POSIX only since 2024 */
	{ SIGWINCH, "sigwinch", "window size change" },
#endif
#if HAVE_DECL_SIGIO	/* not POSIX */
	{ SIGIO, "sigio", "socket i/o possible" },
#endif
#if HAVE_DECL_SIGPWR	/* not in BSD or macOS */
	{ SIGPWR, "sigpwr", "power-fail restart" },
#endif
	{ SIGSYS, "sigsys", "invalid argument to system call" },
};
enum { NSIGS = sizeof sigs / sizeof *sigs };

const char *signame(int sig)
{
	for (int i = 0; i < NSIGS; i++)
		if (sigs[i].sig == sig)
			return sigs[i].name;
	return nfmt("sigunknown%d", sig);
}

static const char *sigmsg(int sig)
{
	for (int i = 0; i < NSIGS; i++)
		if (sigs[i].sig == sig)
			return sigs[i].msg;
	return nfmt("unknown signal %d", sig);
}

int sig_by_name(const char *name)
{
	for (int i = 0; i < NSIGS; i++)
		if (strcmp(sigs[i].name, name) == 0)
			return sigs[i].sig;
	static const char unknown[] = "sigunknown";	/* and the number: signame() */
	if (strncmp(name, unknown, sizeof unknown - 1) == 0) {
		const char *digits = name + sizeof unknown - 1;
		char *end;
		long n = strtol(digits, &end, 10);	/* atoi's overflow is undefined */
		if (*digits >= '0' && *digits <= '9' && *end == '\0' &&
		    n > 0 && n < NSIG)
			return (int) n;
	}
	return 0;
}


/* The wait status of a process that called exit(code). */
static int exit_status(int code)
{
	return code << 8;
}

static int first[8];
static int *statuses = first;
static int nstatus = 1;
static size_t maxstatus = sizeof first / sizeof first[0];
/* $status is the wait status of a program run as the last command of a
 * guarded body (status_exec_tail); any other setting of $status clears
 * it. */
static bool exec_tail;
/* How many times $status has been set (status_changes). */
static unsigned long changes;

static void ensure(int n)
{
	statuses = egrow_static(statuses, first, &maxstatus, n, sizeof *statuses);
}

void status_set(int wstat)
{
	changes++;
	exec_tail = false;
	ensure(1);
	statuses[0] = wstat;
	nstatus = 1;
}

void status_set_list(const int *w, int n)
{
	changes++;
	exec_tail = false;
	ensure(n > 0 ? n : 1);
	memcpy(statuses, w, n * sizeof *w);
	nstatus = n;
	if (n == 0)
		status_set(0);
}

/* A count of the settings of $status: a builtin that leaves it (limit
 * printing, exec or eval with nothing to run, wait with no child) is not
 * a failure for -e, which is tested as $status is set. */
unsigned long status_changes(void)
{
	return changes;
}

/* $status 1: the command failed. */
void status_fail(void)
{
	status_set(exit_status(1));
}

void status_set_bool(bool ok)
{
	if (ok)
		status_set(0);
	else
		status_fail();
}

/* True when every status is zero, as for a pipeline. */
bool status_true(void)
{
	ensure(1);
	for (int i = 0; i < nstatus; i++)
		if (statuses[i] != 0)
			return false;
	return true;
}

/* The shell's exit code: the status, or 1 for a signal or failed pipeline. */
int status_exit_code(void)
{
	ensure(1);
	if (nstatus > 1)
		return status_true() ? 0 : 1;
	int w = statuses[0];
	if (WIFSIGNALED(w) || WIFSTOPPED(w))
		return 1;
	return WEXITSTATUS(w);
}

/* $status as a child exiting with it would leave it: one value, 1 for a
 * signal or a failed pipeline (null commands after a redirection). */
void status_as_exit(void)
{
	status_set(exit_status(status_exit_code()));
}

/* A program run as the last command of a guarded body (walk's
 * WALK_GUARD_TAIL) ended with wstat: the body's process would have become
 * that program, so its wait status, a signal included, is the command's.
 * Its death by a signal is reported once the command is over
 * (status_as_child), on the shell's own standard error: the body's
 * redirections were the program's. */
void status_exec_tail(int wstat)
{
	status_set(wstat);
	exec_tail = true;
}

/* After a guarded body (state.c: a redirected builtin, function or braced
 * command, or one after a redirection), with its redirections undone:
 * $status becomes the exit status of its process, one value, unless its
 * last command was a program (status_exec_tail).  tail: the body is
 * itself the last command of another guarded body, which decides. */
void status_as_child(bool tail)
{
	if (!exec_tail)
		status_as_exit();
	else if (!tail) {
		exec_tail = false;
		status_report(0, statuses[0], false);
	}
}

/* A job that stopped (job control) has the stop signal's name. */
char *status_word_of(int w)
{
	if (WIFSTOPPED(w))
		return (char *) signame(WSTOPSIG(w));
	if (WIFSIGNALED(w))
		return nfmt("%s%s", signame(WTERMSIG(w)), dumped_core(w) ? "+core" : "");
	return nfmt("%d", WEXITSTATUS(w));
}

List *status_list(void)
{
	ensure(1);
	List *head = NULL, **tail = &head;
	for (int i = 0; i < nstatus; i++) {
		*tail = mklist(status_word_of(statuses[i]), NULL, NULL);
		tail = &(*tail)->n;
	}
	return head;
}

/* A word of a status list: a number, or a signal name with optional +core.
 * Returns 0 for a word that is neither. */
static int status_word(const char *w, int *wstat)
{
	if (*w == '\0') {
		*wstat = 0;
		return 1;
	}
	if (*w >= '0' && *w <= '9') {
		char *end;
		long n = strtol(w, &end, 10);
		if (*end != '\0')
			return 0;
		*wstat = exit_status(n & 0xff);
		return 1;
	}
	size_t len = strlen(w);
	bool core = len > 5 && strcmp(w + len - 5, "+core") == 0;
	char *name = nstrndup(w, core ? len - 5 : len);
	int sig = sig_by_name(name);
	if (sig == 0)
		return 0;
	*wstat = sig | (core ? 0x80 : 0);
	return 1;
}

/* return, exit: set $status from words, or print "bad status". */
bool status_from_words(List *l)
{
	int n = list_len(l), i = 0;
	int *w = nalloc((n ? n : 1) * sizeof *w);
	for (; l != NULL; l = l->n)
		if (!status_word(l->w, &w[i++])) {
			print_error("bad status");
			status_fail();
			return false;
		}
	status_set_list(w, n);
	return true;
}

/* What is printed for a child killed by a signal.  A signal
 * with no message (sigint, sigpipe) prints nothing, but the pid that wait
 * prints before the message is printed all the same, alone with its blank
 * and no newline; a core dump is reported without one. */
void status_report(pid_t pid, int w, bool bg)
{
	if (!WIFSIGNALED(w))
		return;
	int sig = WTERMSIG(w);
	const char *msg = sigmsg(sig);
	Str s = { 0 };
	if (bg)
		str_fmt(&s, "%d: ", (int) pid);
	if (dumped_core(w))
		str_fmt(&s, "%s%score dumped\n", msg, *msg != '\0' ? "--" : "");
	else if (*msg != '\0')
		str_fmt(&s, "%s\n", msg);
	if (s.len > 0)
		writeall(2, s.buf, s.len);
	free(s.buf);
}

/* A copy of $status, in the command's arena (nalloc), for code run
 * between commands (a signal's function, fn prompt) to put back: what it
 * runs must not change the status the user sees next. */
StatusCopy status_save(void)
{
	StatusCopy c = { nalloc((nstatus + 1) * sizeof *c.w), nstatus };
	memcpy(c.w, statuses, nstatus * sizeof *c.w);
	return c;
}

void status_restore(StatusCopy c)
{
	status_set_list(c.w, c.n);
}

/* A builtin's output; a write error (echo hi >/dev/full) is reported and
 * fails the builtin. */
bool builtin_put(const char *name, Str *s)
{
	if (s->len == 0 || writeall(1, s->buf, s->len) == 0)
		return true;
	print_error("rc: %s: write error: %s", name, strerror(errno));
	status_fail();
	return false;
}
