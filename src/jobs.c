/* SPDX-License-Identifier: Zlib */
/* jobs.c: job control, in an interactive shell reading its terminal: each
 * pipeline, program or & job in a process group of its own, the terminal
 * handed to the job in the foreground and taken back, the table of the
 * jobs that stopped or run in the background, and their notices.
 *
 * It starts before the first prompt (jobs_prompt), unless $nojobs is set
 * then, and only in the shell itself when its standard input is its
 * controlling terminal: a script, rc -c and a shell reading a pipe make no
 * call of it at all (tests/pty/strace-jobs.test).  In a forked child it
 * is off: the child's commands are its job's. */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>

typedef struct {
	int number;		/* [N]; 0: a free slot */
	pid_t pgid;
	pid_t *pids;
	int *wstat;		/* each process's status once it ended */
	int count;
	char *text;		/* the command, as the notices show it */
	unsigned long seq;	/* the highest is the current job (fg, bg) */
	int state;		/* CHILD_RUNNING, _STOPPED or _DONE, when last looked at */
	bool stop_shown;	/* its stop was reported */
	bool has_modes;
	struct termios modes;	/* the terminal's modes when it stopped */
} Job;

static Job *table;
static size_t nslots, maxslots;
static unsigned long next_seq;

static bool tried, on, visible;
static int tty = -1;
static pid_t shell_pgid, original_pgid;
static struct termios shell_modes;
static bool exit_warned;

/* The job being started: the forks from job_open to job_end are its
 * processes (a forked child reads it once, a vforked one only reads it). */
static struct {
	bool open, foreground;
	pid_t pgid;
	pid_t *pids;
	size_t count, cap;
} start;

/* The terminal's stop signals in the shell: ignored, so that ^Z at the
 * prompt does nothing and the shell may take the terminal back from the
 * background; a job's processes get the default. */
static void stops_to(void (*how)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = how;
	sigaction(SIGTSTP, &sa, NULL);
	sigaction(SIGTTIN, &sa, NULL);
	sigaction(SIGTTOU, &sa, NULL);
}

/* Wait to be in the terminal's foreground, as other shells do: a shell
 * started in the background stops itself (SIGTTIN) until it is brought
 * to the foreground.  A group no one can bring back (orphaned) is not
 * stopped by the kernel: after a few tries job control stays off. */
static bool in_foreground(int fd)
{
	for (int tries = 0; tries < 16; tries++) {
		pid_t fg = tcgetpgrp(fd);
		if (fg < 0)
			return false;	/* not the shell's controlling terminal */
		if (fg == getpgrp())
			return true;
		struct sigaction dfl, old;
		memset(&dfl, 0, sizeof dfl);
		sigemptyset(&dfl.sa_mask);
		dfl.sa_handler = SIG_DFL;
		sigaction(SIGTTIN, &dfl, &old);
		kill(0, SIGTTIN);
		sigaction(SIGTTIN, &old, NULL);
	}
	return false;
}

/* jobs_leave gave the terminal back for an exec that may fail. */
static bool left;

static void start_job_control(void)
{
	int fd = fcntl(0, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
	if (fd < 0)
		return;
	if (!isatty(fd) || !in_foreground(fd)) {
		close(fd);
		return;
	}
	original_pgid = getpgrp();
	shell_pgid = getpid();
	if (original_pgid != shell_pgid && setpgid(0, shell_pgid) != 0) {
		close(fd);
		return;
	}
	sig_ignore_stops();
	tcsetpgrp(fd, shell_pgid);
	tcgetattr(fd, &shell_modes);
	child_see_stops(true);
	tty = fd;
	on = visible = true;
}

bool jobs_on(void)
{
	return on;
}

/* The builtins jobs, fg and bg exist only in a shell that has job
 * control (and its children, for jobs | ...): a script may run programs
 * of those names. */
bool jobs_visible(void)
{
	return visible;
}

static bool is_free(const Job *j)
{
	return j->number == 0;
}

static Job *job_new(void)
{
	for (size_t i = 0; i < nslots; i++)
		if (is_free(&table[i]))
			return &table[i];
	table = egrow(table, &maxslots, nslots + 1, sizeof *table);
	memset(&table[nslots], 0, sizeof *table);
	return &table[nslots++];
}

static int lowest_free_number(void)
{
	for (int n = 1;; n++) {
		bool taken = false;
		for (size_t i = 0; i < nslots && !taken; i++)
			taken = table[i].number == n;
		if (!taken)
			return n;
	}
}

static void job_free(Job *j)
{
	free(j->pids);
	free(j->wstat);
	free(j->text);
	memset(j, 0, sizeof *j);
}

/* The command's text: a tree, or words of a simple command. */
static char *text_of(Node *tree, List *words)
{
	Str s = { 0 };
	if (tree != NULL)
		tree_print(&s, tree);
	for (List *l = words; l != NULL; l = l->n) {
		str_quote(&s, l->w);
		if (l->n != NULL)
			str_addc(&s, ' ');
	}
	str_addc(&s, '\0');
	return s.buf;
}

/* The job just started goes into the table, with the statuses known. */
static Job *job_enter(const int *w, Node *tree, List *words)
{
	Job *j = job_new();
	j->number = lowest_free_number();
	j->pgid = start.pgid;
	j->count = (int) start.count;
	j->pids = ealloc(start.count * sizeof *j->pids);
	j->wstat = ealloc(start.count * sizeof *j->wstat);
	memcpy(j->pids, start.pids, start.count * sizeof *j->pids);
	for (size_t i = 0; i < start.count; i++)
		j->wstat[i] = w != NULL ? w[i] : 0;
	j->text = text_of(tree, words);
	j->seq = next_seq++;
	j->state = CHILD_RUNNING;
	return j;
}

/* Where a job stands: running while any process runs, else stopped while
 * any is stopped, else done (its processes' statuses in wstat).  In a
 * forked child (jobs | ...), where the shell last saw it. */
static int look_at(Job *j);

static int job_state(Job *j)
{
	if (on)
		j->state = look_at(j);
	return j->state;
}

static int look_at(Job *j)
{
	bool stopped = false;
	for (int i = 0; i < j->count; i++) {
		int w;
		switch (child_state(j->pids[i], &w)) {
		case CHILD_RUNNING:
			return CHILD_RUNNING;
		case CHILD_STOPPED:
			stopped = true;
			break;
		case CHILD_DONE:
			j->wstat[i] = w;
			break;
		}
	}
	return stopped ? CHILD_STOPPED : CHILD_DONE;
}

/* [N] PID STATE  COMMAND: PID is its first process's (its process
 * group's, but in a loop's group); STATE is running, stopped, done, exit N
 * or the signal that killed the job's last process (as in $status). */
static void job_line(Str *s, Job *j, int state)
{
	str_fmt(s, "[%d] %d ", j->number, (int) j->pids[0]);
	int last = j->wstat[j->count - 1];
	if (state == CHILD_RUNNING)
		str_adds(s, "running");
	else if (state == CHILD_STOPPED)
		str_adds(s, "stopped");
	else if (last == 0)
		str_adds(s, "done");
	else if (WIFEXITED(last))
		str_fmt(s, "exit %d", WEXITSTATUS(last));
	else
		str_adds(s, status_word_of(last));
	str_fmt(s, "  %s\n", j->text);
}

/* A job that is done has been reported: it leaves the table. */
static void job_done(Job *j)
{
	for (int i = 0; i < j->count; i++)
		child_release(j->pids[i]);
	job_free(j);
}

/* The notices: jobs that ended or stopped since the last look. */
static void notices(Str *s, bool all)
{
	child_poll();
	for (size_t i = 0; i < nslots; i++) {
		Job *j = &table[i];
		if (is_free(j))
			continue;
		int state = job_state(j);
		if (state == CHILD_STOPPED && j->stop_shown && !all)
			continue;
		if (state == CHILD_RUNNING && !all) {
			j->stop_shown = false;
			continue;
		}
		job_line(s, j, state);
		j->stop_shown = state == CHILD_STOPPED;
		if (state == CHILD_DONE)
			job_done(j);
	}
}

/* Before each prompt at the terminal: job control starts before the
 * first (after ~/.rcrc, which may set $nojobs); then the notices. */
void jobs_prompt(void)
{
	if (!tried) {
		tried = true;
		if (interactive && !in_child() && var_get("nojobs") == NULL)
			start_job_control();
	}
	if (!on)
		return;
	Str s = { 0 };
	notices(&s, false);
	if (s.len > 0)
		writeall(2, s.buf, s.len);
	free(s.buf);
}

/* The jobs builtin: every job in the table, those done for the last time. */
void jobs_show(Str *s)
{
	notices(s, true);
}

/* A loop's process group.  A job in a group of its own that ends hands
 * the terminal to no process until the shell takes it back, and a ^C
 * typed then was lost: a loop of short programs went on (while (true)
 * {}, about 1 in 5).  So while the shell runs a loop (for, while, its
 * condition too), each job it starts in the foreground joins one group,
 * that of a keeper: a child of the shell that holds the group for the
 * loop's time and counts the ^Cs the group gets.  Once a job is over and
 * the terminal the shell's again, the shell asks the keeper for its count
 * and waits for the answer: a ^C sent to the group while it had the
 * terminal, during the job or after its end, is counted by then (the
 * keeper's handler runs before it reads the question), and the loop
 * stops whatever became of the job.  Sent on as it came, the ^C often
 * reached the shell after the shell had gone on to the loop's next
 * command, and a program started then ran on.  The group is handed the
 * terminal only once the keeper counts: the first job of a loop can end
 * before a keeper just forked has run at all (a busy machine).  The
 * keeper talks on a socket whose other end only the shell holds: should
 * the shell die, it ends; should the keeper die, the shell's question
 * fails without a SIGPIPE.  It closes the copies of the descriptors the
 * shell held as it started (the first job's redirections and <{cmd}s
 * among them), which would stay open until the loop ends, where the
 * system can in one call (close_range); closing each possible one would
 * cost more than the loop. */
static int loop_depth;
static struct {
	pid_t pid;
	int fd;			/* the socket's end that the shell holds */
	unsigned char heard;	/* the keeper's count when last asked */
} keeper = { 0, -1, 0 };
static volatile sig_atomic_t keeper_ints;	/* in the keeper: the ^Cs counted */

#ifdef MSG_NOSIGNAL
#define NO_SIGPIPE MSG_NOSIGNAL
#else
#define NO_SIGPIPE 0	/* SO_NOSIGPIPE, set on the socket, does it */
#endif

static void keeper_count(int sig)
{
	(void) sig;
	keeper_ints++;
}

/* One byte, through signals: false if the other end is gone. */
static bool keeper_send(int fd, unsigned char c)
{
	ssize_t n;
	do
		n = send(fd, &c, 1, NO_SIGPIPE);
	while (n < 0 && errno == EINTR);
	return n == 1;
}

static bool keeper_receive(int fd, unsigned char *c)
{
	ssize_t n;
	do
		n = read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1;
}

/* The keeper, signals held since before its fork (the shell may hold
 * them already: it starts the keeper as it starts a job): it ignores all
 * signals but SIGINT, which it counts (ignoring it first drops a ^C that
 * came before: its group was not the terminal's then, so that ^C came to
 * the shell's group, the shell's too), says its count when it is ready
 * and then whenever a byte comes, and ends at the end of its socket, its
 * standard input, or by SIGKILL. */
static NORETURN void keeper_run(int sock)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sa.sa_handler = keeper_count;
	sigaction(SIGINT, &sa, NULL);
	if (sock != 0) {
		dup2(sock, 0);
		close(sock);
	}
#ifdef HAVE_CLOSE_RANGE
	close_range(1, ~0U, 0);
#endif
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	unsigned char question;
	do
		if (!keeper_send(0, (unsigned char) keeper_ints))
			_exit(0);
	while (keeper_receive(0, &question));
	_exit(0);
}

/* The keeper of the loop's group, started at its first job: false if it
 * cannot be (the job then has a group of its own). */
static bool keeper_start(void)
{
	int sv[2];
	if (keeper.pid != 0)
		return true;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return false;
	/* the shell's end among its own descriptors, clear of a job's
	 * redirections (>[4] in the loop) */
	int mine = fcntl(sv[1], F_DUPFD_CLOEXEC, FD_SHELL_MIN);
	close(sv[1]);
	if (mine < 0) {
		close(sv[0]);
		return false;
	}
#ifdef SO_NOSIGPIPE
	int yes = 1;
	setsockopt(mine, SOL_SOCKET, SO_NOSIGPIPE, &yes, sizeof yes);
#endif
	sig_before_child();	/* SIGCHLD not ignored: it is waited for */
	sigset_t mask;
	sig_hold_all(&mask);
	pid_t pid = fork();
	if (pid == 0) {
		close(mine);
		setpgid(0, 0);
		keeper_run(sv[0]);
	}
	close(sv[0]);
	if (pid > 0) {
		setpgid(pid, pid);
		child_add(pid, false);
		keeper.pid = pid;
		keeper.fd = mine;
		keeper_receive(mine, &keeper.heard);	/* it is ready */
	} else
		close(mine);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	return pid > 0;
}

/* Did the loop's group get a ^C since the shell last asked?  The
 * terminal is the shell's again. */
static bool keeper_heard_interrupt(pid_t pgid)
{
	unsigned char count;
	if (keeper.pid == 0 || pgid != keeper.pid || !keeper_send(keeper.fd, '?')
	    || !keeper_receive(keeper.fd, &count) || count == keeper.heard)
		return false;
	keeper.heard = count;
	return true;
}

/* The loop is over: so is its keeper (a job that stopped in the loop
 * keeps the group). */
static void keeper_stop(void)
{
	if (keeper.pid == 0)
		return;
	int w, state = child_state(keeper.pid, &w);
	if (state == CHILD_RUNNING || state == CHILD_STOPPED) {
		kill(keeper.pid, SIGKILL);
		child_continued(keeper.pid);	/* dead, as the wait will see */
	}
	child_wait(keeper.pid);
	close(keeper.fd);
	keeper.pid = 0;
	keeper.fd = -1;
}

void jobs_loop_enter(void)
{
	loop_depth++;
}

void jobs_loop_leave(void)
{
	if (--loop_depth == 0)
		keeper_stop();
}

/* The forks that follow are the processes of one job, in the foreground
 * or not (in a loop, in the loop's group).  False when job control is
 * off: nothing is done. */
bool job_open(bool foreground)
{
	if (!on)
		return false;
	start.open = true;
	start.foreground = foreground;
	start.pgid = foreground && loop_depth > 0 && keeper_start() ? keeper.pid : 0;
	start.count = 0;
	return true;
}

/* In the job's new process, forked or vforked (system calls only, and
 * no memory written): into the job's group, the terminal its own when in
 * the foreground (before the stop signals are back: a process of a
 * group not yet in the foreground that sets it gets SIGTTOU).  False
 * when no job is being started (job control off). */
bool job_child_enter(void)
{
	if (!start.open)
		return false;
	pid_t pgid = start.pgid != 0 ? start.pgid : getpid();
	setpgid(0, pgid);
	if (start.foreground)
		tcsetpgrp(tty, pgid);
	stops_to(SIG_DFL);
	return true;
}

/* In a forked child: no job control of its own, and no hold on the
 * keeper, whose pipe must end with the shell. */
void jobs_child_reset(void)
{
	if (on || start.open) {
		on = false;
		start.open = false;
	}
	if (keeper.fd >= 0) {
		close(keeper.fd);
		keeper.fd = -1;
		keeper.pid = 0;
	}
}

/* In the shell, after a fork of the job: the child joins its group here
 * too (whichever runs first, the group is made before it is used). */
void job_forked(pid_t pid)
{
	if (!start.open)
		return;
	if (start.pgid == 0)
		start.pgid = pid;
	setpgid(pid, start.pgid);
	if (start.foreground && start.count == 0)
		tcsetpgrp(tty, start.pgid);
	start.pids = egrow(start.pids, &start.cap, start.count + 1, sizeof *start.pids);
	start.pids[start.count++] = pid;
}

static bool stopped_of(const int *w, int n, int *sig)
{
	for (int i = 0; i < n; i++)
		if (WIFSTOPPED(w[i])) {
			*sig = WSTOPSIG(w[i]);
			return true;
		}
	return false;
}

static bool killed_by(const int *w, int n, int sig)
{
	for (int i = 0; i < n; i++)
		if (WIFSIGNALED(w[i]) && WTERMSIG(w[i]) == sig)
			return true;
	return false;
}

static void notice(Job *j, int state, bool newline)
{
	Str s = { 0 };
	if (newline)
		str_addc(&s, '\n');	/* after the ^Z the terminal echoed */
	job_line(&s, j, state);
	writeall(2, s.buf, s.len);
	free(s.buf);
}

/* The terminal back to the shell, after a job in the foreground whose
 * statuses are w (n processes): a job that stopped keeps the terminal's
 * modes for its return, and the shell's own are put back, as after a
 * death by a signal (a program killed in raw mode); a job that exited
 * leaves the modes it set as the shell's (stty run at the prompt).
 * The ^C a job died of is the shell's too: the line is abandoned, as
 * without job control, where the shell gets it with the job (a program
 * that handles ^C itself and exits lets the line go on, but in a loop,
 * whose keeper heard the ^C: the loop stops, as it does without job
 * control).  True if the job stopped: it is in the table, reported, and
 * the caller abandons the line once $status is set (job_stopped). */
static bool job_back(const int *w, int n, pid_t pgid, Job *j, Node *tree, List *words)
{
	tcsetpgrp(tty, shell_pgid);
	bool heard = keeper_heard_interrupt(pgid);
	int sig;
	if (stopped_of(w, n, &sig)) {
		if (j == NULL)
			j = job_enter(w, tree, words);
		j->seq = next_seq++;
		j->has_modes = tcgetattr(tty, &j->modes) == 0;
		tcsetattr(tty, TCSADRAIN, &shell_modes);
		notice(j, CHILD_STOPPED, sig == SIGTSTP);
		j->stop_shown = true;
		return true;
	}
	if (j != NULL)
		job_done(j);
	bool signaled = false;
	for (int i = 0; i < n; i++)
		signaled |= WIFSIGNALED(w[i]);
	if (signaled)
		tcsetattr(tty, TCSADRAIN, &shell_modes);
	else
		tcgetattr(tty, &shell_modes);
	if (killed_by(w, n, SIGINT))
		kill(getpid(), SIGINT);
	else if (heard)
		sig_interrupt_heard(!signaled);
	return false;
}

/* A job started in the foreground has been waited for (w: its
 * processes' statuses).  tree or words: its command, for a notice. */
bool job_end(const int *w, int n, Node *tree, List *words)
{
	if (!start.open)
		return false;
	start.open = false;
	if (!start.foreground || start.count == 0)
		return false;
	return job_back(w, n, start.pgid, NULL, tree, words);
}

/* A job started with &: into the table. */
void job_end_background(Node *tree)
{
	if (!start.open)
		return;
	start.open = false;
	if (start.count > 0)
		job_enter(NULL, tree, NULL);
}

/* A job that stopped abandons the command line it was part of, as ^C
 * does (a loop of editors is not run on behind the user's back). */
NORETURN void job_stopped(void)
{
	rc_raise(eInterrupt);
}

/* An error before job_end: the job, if any, is no longer being started,
 * and the loops it left are no longer run. */
static int job_save(void)
{
	return loop_depth;
}

static void job_restore(int saved)
{
	start.open = false;
	loop_depth = saved;
	if (loop_depth == 0)
		keeper_stop();
}

const CatchStep job_catch_step = { job_save, job_restore };

/* The job last stopped or sent to the background but for one that is
 * not (the current job, or with skip the current one, the previous). */
static Job *latest(const Job *skip)
{
	Job *found = NULL;
	for (size_t i = 0; i < nslots; i++) {
		Job *j = &table[i];
		if (!is_free(j) && j != skip && (found == NULL || j->seq > found->seq))
			found = j;
	}
	return found;
}

/* A job by its number or by the process id of any of its processes. */
static Job *job_numbered(long n, bool by_number)
{
	for (size_t i = 0; i < nslots; i++) {
		Job *j = &table[i];
		if (is_free(j))
			continue;
		if (by_number && j->number == n)
			return j;
		for (int k = 0; !by_number && k < j->count; k++)
			if (j->pids[k] == n)
				return j;
	}
	return NULL;
}

/* A job named as the builtins take it: %N, its number; a number, the
 * process id of any of its processes; nothing or %+, the current job
 * (the one that last stopped or went to the background); %-, the
 * previous one. */
static Job *job_named(const char *who, List *arg)
{
	const char *w = arg != NULL ? arg->w : "%+";
	Job *found;
	if (strcmp(w, "%+") == 0 || strcmp(w, "%-") == 0) {
		found = latest(NULL);
		if (found != NULL && w[1] == '-')
			found = latest(found);
		if (found == NULL)
			print_error("rc: %s: no %s job", who, w[1] == '+' ? "current" : "previous");
		return found;
	}
	bool by_number = *w == '%';
	char *end;
	long n = strtol(w + by_number, &end, 10);
	if (*end != '\0' || end == w + by_number) {
		print_error("rc: %s: bad job: %s", who, w);
		return NULL;
	}
	found = job_numbered(n, by_number);
	if (found == NULL)
		print_error("rc: %s: no such job: %s", who, w);
	return found;
}

/* Continue a job's stopped processes. */
static void job_continue(Job *j)
{
	for (int i = 0; i < j->count; i++)
		child_continued(j->pids[i]);
	kill(-j->pgid, SIGCONT);
	j->stop_shown = false;
}

static bool usable(const char *who)
{
	if (on)
		return true;
	print_error("rc: %s: no job control", who);
	status_fail();
	return false;
}

/* fg [job]: the job in the foreground, its terminal modes as it left
 * them, waited for as a command typed: its status becomes $status. */
void job_fg(List *args)
{
	if (!usable("fg"))
		return;
	Job *j = job_named("fg", args);
	if (j == NULL) {
		status_fail();
		return;
	}
	fprint(2, "%s\n", j->text);
	if (j->has_modes)
		tcsetattr(tty, TCSADRAIN, &j->modes);
	tcsetpgrp(tty, j->pgid);
	job_continue(j);
	int n = j->count;
	int *w = nalloc(n * sizeof *w);
	for (int i = 0; i < n; i++) {
		int st;
		if (child_state(j->pids[i], &st) == CHILD_GONE)
			w[i] = j->wstat[i];
		else
			w[i] = child_wait(j->pids[i]);
		status_report(j->pids[i], w[i], false);
	}
	bool stopped = job_back(w, n, j->pgid, j, NULL, NULL);
	status_set_list(w, n);
	if (stopped)
		job_stopped();
}

/* bg [job ...]: continued in the background, as if started with &:
 * wait and $apids know its processes. */
void job_bg(List *args)
{
	if (!usable("bg"))
		return;
	bool ok = true;
	List none = { NULL, NULL, NULL };
	for (List *a = args != NULL ? args : &none; a != NULL; a = a->n) {
		Job *j = job_named("bg", args != NULL ? a : NULL);
		if (j == NULL) {
			ok = false;
			continue;
		}
		for (int i = 0; i < j->count; i++)
			child_set_async(j->pids[i]);
		j->seq = next_seq++;
		/* said before the job runs, so that the notice comes before
		 * anything the job prints */
		notice(j, CHILD_RUNNING, false);
		job_continue(j);
	}
	status_set_bool(ok);
}

static bool any_stopped(void)
{
	child_poll();
	for (size_t i = 0; i < nslots; i++)
		if (!is_free(&table[i]) && job_state(&table[i]) == CHILD_STOPPED)
			return true;
	return false;
}

/* exit or the end of input, in the shell itself: with stopped jobs, the
 * first attempt only warns. */
bool jobs_may_exit(void)
{
	if (!on || exit_warned || !any_stopped())
		return true;
	exit_warned = true;
	print_error("rc: there are stopped jobs");
	return false;
}

/* The shell leaves (or execs a program): its stopped jobs are hung up
 * and continued, to end (the kernel would do the same once their groups
 * are orphaned, but not while a process of the session outside them, a
 * background job, still holds them); the terminal goes back to the
 * process group that had it, the stop signals to the default. */
void jobs_leave(void)
{
	if (!on)
		return;
	on = false;
	left = true;
	keeper_stop();
	child_poll();
	for (size_t i = 0; i < nslots; i++) {
		Job *j = &table[i];
		if (!is_free(j) && job_state(j) == CHILD_STOPPED) {
			kill(-j->pgid, SIGHUP);
			kill(-j->pgid, SIGCONT);
		}
	}
	if (original_pgid != shell_pgid) {
		tcsetpgrp(tty, original_pgid);
		setpgid(0, original_pgid);
	}
	stops_to(SIG_DFL);
}

/* exec of a program failed in a shell that stays (exec.c: a shell that
 * reads what is typed): job control again, as before the exec; the jobs
 * that were stopped have been hung up by jobs_leave. */
void jobs_retake(void)
{
	if (!left)
		return;
	left = false;
	close(tty);
	start_job_control();
}
