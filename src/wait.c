/* SPDX-License-Identifier: Zlib */
/* wait.c: the shell's children, and waiting for them. */
#include "rc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The children the shell has not yet waited for, in a table keyed by pid
 * (open addressing, linear probing): every fork adds one and every wait
 * looks one up, so neither may cost more as a long-running shell leaves
 * background jobs unwaited.  seq orders them as they were started, for
 * $apids and wait. */
typedef struct { pid_t pid; int wstat; bool done, stopped, async; unsigned long seq; } Child;
static Child *table;		/* pid 0: a free slot */
static size_t tsize, tcount;	/* tsize is 0 or a power of two */
static unsigned long next_seq;
/* Job control is on (jobs.c): a wait also returns when a child stops or
 * is continued, so that a stopped job never leaves the shell waiting. */
static int stop_flags;

/* Background jobs that ended and that nobody waited for keep their status
 * for wait, but not without bound: past this many, the oldest is
 * forgotten (wait for it says it is no child), as bash and dash forget
 * theirs. */
enum { FINISHED_KEPT = 1024 };
static size_t nfinished;

static size_t home(pid_t pid)
{
	return ((size_t) pid * 2654435761u) & (tsize - 1);
}

static Child *find(pid_t pid)
{
	if (tsize == 0 || pid <= 0)
		return NULL;
	for (size_t i = home(pid);; i = (i + 1) & (tsize - 1)) {
		if (table[i].pid == pid)
			return &table[i];
		if (table[i].pid == 0)
			return NULL;
	}
}

static bool finished_async(const Child *c)
{
	return c->async && c->done;
}

static void put(Child c)
{
	size_t i = home(c.pid);
	while (table[i].pid != 0)
		i = (i + 1) & (tsize - 1);
	table[i] = c;
	tcount++;
}

/* Kept at most half full, so that a look-up ends soon at a free slot. */
static void make_room(void)
{
	if ((tcount + 1) * 2 <= tsize)
		return;
	Child *old = table;
	size_t oldsize = tsize;
	tsize = tsize ? tsize * 2 : 16;
	table = ealloc(tsize * sizeof *table);
	memset(table, 0, tsize * sizeof *table);
	tcount = 0;
	for (size_t i = 0; i < oldsize; i++)
		if (old[i].pid != 0)
			put(old[i]);
	free(old);
}

/* Remove c; the entries after it in its run move back into the gap, so
 * that no look-up stops early at it. */
static void forget(Child *c)
{
	if (finished_async(c))
		nfinished--;
	size_t gap = (size_t) (c - table);
	table[gap].pid = 0;
	tcount--;
	for (size_t i = (gap + 1) & (tsize - 1); table[i].pid != 0; i = (i + 1) & (tsize - 1)) {
		size_t h = home(table[i].pid);
		/* can the entry at i live at gap?  only if its home is not
		 * in the cyclic range (gap, i] */
		bool stays = gap <= i ? (gap < h && h <= i) : (gap < h || h <= i);
		if (!stays) {
			table[gap] = table[i];
			table[i].pid = 0;
			gap = i;
		}
	}
}

/* The oldest child for which want() holds, or NULL. */
static Child *oldest(bool (*want)(const Child *))
{
	Child *best = NULL;
	for (size_t i = 0; i < tsize; i++)
		if (table[i].pid != 0 && want(&table[i]) && (best == NULL || table[i].seq < best->seq))
			best = &table[i];
	return best;
}

static void count_finished(Child *c)
{
	if (!finished_async(c))
		return;
	if (++nfinished > FINISHED_KEPT)
		forget(oldest(finished_async));
}

/* A new child.  Its pid may be one the kernel has given out again, once
 * the earlier child of that pid ended and was reaped: a background job
 * not waited for.  That entry goes (its status with it), or waiting for
 * the new child would find it done and return its status at once. */
void child_add(pid_t pid, bool async)
{
	Child *old = find(pid);
	if (old != NULL)
		forget(old);
	make_room();
	put((Child) { pid, 0, false, false, async, next_seq++ });
}

void child_set_async(pid_t pid)
{
	Child *c = find(pid);
	if (c != NULL && !c->async) {
		c->async = true;
		count_finished(c);
	}
}

bool child_is(pid_t pid)
{
	return find(pid) != NULL;
}

/* Record that child pid ended with wait status wstat (one not ours, a
 * child of a forked shell's predecessor, is ignored), or stopped, or
 * was continued. */
void child_ended(pid_t pid, int wstat)
{
	Child *c = find(pid);
	if (c == NULL || c->done)
		return;
	c->stopped = WIFSTOPPED(wstat);
	if (c->stopped)
		c->wstat = wstat;
	if (c->stopped || WIFCONTINUED(wstat))
		return;
	c->done = true;
	c->wstat = wstat;
	count_finished(c);
}

/* Reap one child and record its status: its pid, 0 if none has ended
 * (WNOHANG), -1 if there are none.  A blocking wait goes on through
 * signals: the handlers run once the status is recorded (as in rc 1.7.4,
 * a command is not cut short by a handled signal). */
static pid_t reap(int flags)
{
	int wstat;
	pid_t pid;
	do
		pid = waitpid(-1, &wstat, flags | stop_flags);
	while (pid < 0 && errno == EINTR);
	if (pid > 0)
		child_ended(pid, wstat);
	return pid;
}

/* For the wait builtin: as reap, blocking, but a signal that ends wait
 * (sig_ends_wait) makes it return WAIT_INTERRUPTED.  Signals are blocked
 * except while it sleeps in sigsuspend, so none can slip in between the
 * look at the pending signals and the sleep; SIGCHLD wakes it. */
#define WAIT_INTERRUPTED (-2)

static pid_t reap_or_signal(void)
{
	sigset_t old, sleeping;
	sig_hold_all(&old);
	sig_wake_on_child(true);
	sleeping = old;
	sigdelset(&sleeping, SIGCHLD);
	pid_t pid;
	while ((pid = reap(WNOHANG)) == 0) {
		if (sig_ends_wait()) {
			pid = WAIT_INTERRUPTED;
			break;
		}
		sigsuspend(&sleeping);
	}
	sig_wake_on_child(false);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

static bool waiting(const Child *c)
{
	return c != NULL && !c->done && !c->stopped;
}

/* Wait for one child and return its wait status; one that stopped is
 * kept, its stop status returned. */
int child_wait(pid_t pid)
{
	Child *c;
	while (waiting(c = find(pid)))
		if (reap(0) < 0)
			break;
	if (c == NULL)
		return 0;
	int w = c->wstat;
	if (!c->stopped)
		forget(c);
	sig_after_child(w);
	return w;
}

/* Wait for a command run in the foreground: its wait status becomes
 * $status, and a death by a signal is reported. */
void child_wait_status(pid_t pid)
{
	int w = child_wait(pid);
	status_report(pid, w, false);
	status_set(w);
}

/* The wait builtin, for one child: true with its wait status in *w, or
 * false if a signal ended the wait first. */
bool child_wait_for(pid_t pid, int *w)
{
	Child *c;
	while (waiting(c = find(pid))) {
		pid_t got = reap_or_signal();
		if (got == WAIT_INTERRUPTED)
			return false;
		if (got < 0)
			break;
	}
	*w = 0;
	if (c != NULL) {
		*w = c->wstat;
		if (!c->stopped)
			forget(c);
	}
	return true;
}

/* The wait builtin, for any asynchronous child; its pid in *pid.
 * Returns its wait status, WAIT_NONE if none is left, or WAIT_SIGNAL if
 * a signal ended the wait. */
static bool is_async(const Child *c)
{
	return c->async && !c->stopped;	/* a stopped job would never end */
}

int child_wait_any(pid_t *pid)
{
	for (;;) {
		Child *c = oldest(finished_async);
		if (c != NULL) {
			*pid = c->pid;
			int w = c->wstat;
			forget(c);
			return w;
		}
		if (oldest(is_async) == NULL)
			return WAIT_NONE;
		pid_t got = reap_or_signal();
		if (got == WAIT_INTERRUPTED)
			return WAIT_SIGNAL;
		if (got < 0)
			return WAIT_NONE;
	}
}

/* $apids: asynchronous children not known to have ended, as in rc 1.7.4
 * (one reaped while the shell waited for another still has its status
 * for wait). */
static bool running_async(const Child *c)
{
	return c->async && !c->done;
}

static int by_seq(const void *a, const void *b)
{
	const Child *x = *(Child *const *) a, *y = *(Child *const *) b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

List *child_async_list(void)
{
	Child **v = nalloc(tcount * sizeof *v + 1);
	size_t n = 0;
	for (size_t i = 0; i < tsize; i++)
		if (table[i].pid != 0 && running_async(&table[i]))
			v[n++] = &table[i];
	qsort(v, n, sizeof *v, by_seq);
	List *head = NULL, **tail = &head;
	for (size_t i = 0; i < n; i++) {
		*tail = mklist(nfmt("%d", (int) v[i]->pid), NULL, NULL);
		tail = &(*tail)->n;
	}
	return head;
}

/* Job control (jobs.c): waits see stops and continues. */
void child_see_stops(bool on)
{
	stop_flags = on ? WUNTRACED | WCONTINUED : 0;
}

/* What became of child pid: CHILD_GONE if it is not in the table (waited
 * for already), else running, stopped or done, with its last wait
 * status in *wstat. */
int child_state(pid_t pid, int *wstat)
{
	Child *c = find(pid);
	if (c == NULL)
		return CHILD_GONE;
	*wstat = c->wstat;
	return c->done ? CHILD_DONE : c->stopped ? CHILD_STOPPED : CHILD_RUNNING;
}

/* The shell sent child pid SIGCONT. */
void child_continued(pid_t pid)
{
	Child *c = find(pid);
	if (c != NULL)
		c->stopped = false;
}

/* Record the children that changed state, without waiting. */
void child_poll(void)
{
	while (reap(WNOHANG) > 0)
		;
}

/* A job's child that ended and was reported: it goes, unless it is a
 * background job's, whose status wait may still ask for. */
void child_release(pid_t pid)
{
	Child *c = find(pid);
	if (c != NULL && c->done && !c->async)
		forget(c);
}

/* A forked child waits only for its own children. */
void child_reset(void)
{
	/* the parent's table is left as it is, unwritten: each page
	 * written after fork is a copy */
	table = NULL;
	tsize = tcount = nfinished = 0;
	stop_flags = 0;
}
