/* SPDX-License-Identifier: Zlib */
/* wait.c: the shell's children, and waiting for them. */
#include "rc.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

typedef struct { pid_t pid; int wstat; bool done, async; } Child;
static Child *children;
static int nchildren;
static size_t maxchildren;

static int find(pid_t pid)
{
	for (int i = 0; i < nchildren; i++)
		if (children[i].pid == pid)
			return i;
	return -1;
}

static void forget(int i)
{
	children[i] = children[--nchildren];
}

/* A new child.  Its pid may be one the kernel has given out again, once
 * the earlier child of that pid ended and was reaped: a background job
 * not waited for.  That entry goes (its status with it), or waiting for
 * the new child would find it done and return its status at once. */
void child_add(pid_t pid, bool async)
{
	int old = find(pid);
	if (old >= 0)
		forget(old);
	children = egrow(children, &maxchildren, nchildren + 1, sizeof *children);
	children[nchildren++] = (Child) { pid, 0, false, async };
}

void child_set_async(pid_t pid)
{
	int i = find(pid);
	if (i >= 0)
		children[i].async = true;
}

bool child_is(pid_t pid)
{
	return find(pid) >= 0;
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
		pid = waitpid(-1, &wstat, flags);
	while (pid < 0 && errno == EINTR);
	if (pid > 0) {
		int i = find(pid);
		if (i >= 0) {
			children[i].done = true;
			children[i].wstat = wstat;
		}
	}
	return pid;
}

/* For the wait builtin: as reap, blocking, but a signal that ends wait
 * (sig_ends_wait) makes it return WAIT_INTERRUPTED.  Signals are blocked
 * except while it sleeps in sigsuspend, so none can slip in between the
 * look at the pending signals and the sleep; SIGCHLD wakes it. */
#define WAIT_INTERRUPTED (-2)

static pid_t reap_or_signal(void)
{
	sigset_t all, old, sleeping;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
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

/* Wait for one child and return its wait status. */
int child_wait(pid_t pid)
{
	int i;
	while ((i = find(pid)) >= 0 && !children[i].done)
		if (reap(0) < 0)
			break;
	if (i < 0)
		return 0;
	int w = children[i].wstat;
	forget(i);
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
	int i;
	while ((i = find(pid)) >= 0 && !children[i].done) {
		pid_t got = reap_or_signal();
		if (got == WAIT_INTERRUPTED)
			return false;
		if (got < 0)
			break;
	}
	*w = 0;
	if (i >= 0) {
		*w = children[i].wstat;
		forget(i);
	}
	return true;
}

/* The wait builtin, for any asynchronous child; its pid in *pid.
 * Returns its wait status, WAIT_NONE if none is left, or WAIT_SIGNAL if
 * a signal ended the wait. */
int child_wait_any(pid_t *pid)
{
	for (;;) {
		for (int i = 0; i < nchildren; i++)
			if (children[i].async && children[i].done) {
				*pid = children[i].pid;
				int w = children[i].wstat;
				forget(i);
				return w;
			}
		bool any = false;
		for (int i = 0; i < nchildren; i++)
			any |= children[i].async;
		if (!any)
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
List *child_async_list(void)
{
	List *head = NULL, **tail = &head;
	for (int i = 0; i < nchildren; i++)
		if (children[i].async && !children[i].done) {
			*tail = mklist(nfmt("%d", (int) children[i].pid), NULL, NULL);
			tail = &(*tail)->n;
		}
	return head;
}

/* A forked child waits only for its own children. */
void child_reset(void)
{
	if (nchildren != 0)
		nchildren = 0;
}
