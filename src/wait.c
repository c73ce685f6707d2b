/* wait.c: the shell's children, and waiting for them. */
#include "rc.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

typedef struct { pid_t pid; int wstat; bool done, async; } Child;
static Child *children;
static int nchildren, maxchildren;

void child_add(pid_t pid, bool async)
{
	if (nchildren == maxchildren) {
		maxchildren = maxchildren ? maxchildren * 2 : 16;
		children = eresize(children, maxchildren * sizeof *children);
	}
	children[nchildren++] = (Child) { pid, 0, false, async };
}

static int find(pid_t pid);

void child_set_async(pid_t pid)
{
	int i = find(pid);
	if (i >= 0)
		children[i].async = true;
}

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

bool child_is(pid_t pid)
{
	return find(pid) >= 0;
}

/* Reap one child, blocking; record its status.  -1 when there are none. */
static pid_t reap(bool block)
{
	int wstat;
	for (;;) {
		pid_t pid = waitpid(-1, &wstat, block ? 0 : WNOHANG);
		if (pid < 0 && errno == EINTR)
			continue;	/* handlers run after the status is recorded */
		if (pid <= 0)
			return -1;
		int i = find(pid);
		if (i >= 0) {
			children[i].done = true;
			children[i].wstat = wstat;
		}
		return pid;
	}
}

/* Wait for one child and return its wait status. */
int child_wait(pid_t pid)
{
	int i;
	while ((i = find(pid)) >= 0 && !children[i].done)
		if (reap(true) < 0)
			break;
	if (i < 0)
		return 0;
	int w = children[i].wstat;
	forget(i);
	sig_after_child(w);
	return w;
}

/* Wait for any asynchronous child; its pid in *pid.  -1 if none is left. */
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
		if (!any || reap(true) < 0)
			return -1;
	}
}

/* $apids: asynchronous children not yet waited for. */
List *child_async_list(void)
{
	List *head = NULL, **tail = &head;
	for (int i = 0; i < nchildren; i++)
		if (children[i].async) {
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
