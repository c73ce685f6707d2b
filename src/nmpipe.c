/* SPDX-License-Identifier: Zlib */
/* nmpipe.c: named pipes, <{cmd} and >{cmd}: each a child writing or
 * reading a pipe that the command is given as /dev/fd/N; expand.c makes
 * them, the commands run by walk.c and exec.c close and reap them. */
#include "rc.h"

#include <unistd.h>

/* <{cmd} and >{cmd}: a pipe to a child, named as /dev/fd/N; the shell's
 * end is closed when the command is done.  The shell does not wait for
 * the child (which may never end by itself: >{cat >/dev/null} reading a
 * program that writes forever); it joins $apids, as a background command
 * would, and is
 * reaped by wait or along with a later child. */
typedef struct {
	int fd;
	pid_t pid;
	bool call;	/* given to a builtin or function that is running */
} Nmpipe;
static Nmpipe *nmpipes;
static int nnmpipes;
static size_t maxnmpipes;

char *nmpipe(Node *n)
{
	int p[2];
	if (pipe(p) < 0)
		rc_syserror("pipe");
	bool reader = n->fd[0] == 1;	/* >{cmd}: the child reads */
	pid_t pid = rc_fork_closing(p, 2);
	if (pid == 0) {
		int mine = reader ? p[0] : p[1], target = reader ? 0 : 1;
		close(reader ? p[1] : p[0]);
		if (mine != target) {
			dup2(mine, target);
			close(mine);
		}
		walk_in_child(n->k[0]);
	}
	int keep = reader ? p[1] : p[0];
	close(reader ? p[0] : p[1]);
	nmpipes = egrow(nmpipes, &maxnmpipes, nnmpipes + 1, sizeof *nmpipes);
	nmpipes[nnmpipes++] = (Nmpipe) { keep, pid, false };
	return nfmt("/dev/fd/%d", keep);
}

/* Those below the floor belong to a command still running in the shell
 * (a function or builtin: eval 'true; cat' <{echo hi}), so the commands
 * it runs leave them open (issue 10).  An error puts the floor back
 * (nmpipe_catch_step). */
static int nmfloor;

int nmpipe_floor(void)
{
	return nmfloor;
}

void nmpipe_set_floor(int floor)
{
	nmfloor = floor;
}

const CatchStep nmpipe_catch_step = { nmpipe_floor, nmpipe_set_floor };

/* Whether the command being run has a <{cmd} or >{cmd} of its own. */
bool nmpipe_pending(void)
{
	return nnmpipes > nmfloor;
}

/* How many are open: more after a command's words than before them if
 * it has a <{cmd} or >{cmd} of its own. */
int nmpipe_count(void)
{
	return nnmpipes;
}

int nmpipe_protect(void)
{
	int old = nmfloor;
	nmfloor = nnmpipes;
	return old;
}

/* Those made from the first for the redirections of a builtin or
 * function about to run: they are made in that command's guarded frame,
 * its children, so a wait there waits for them. */
void nmpipe_in_call(int first)
{
	for (int i = first; i < nnmpipes; i++)
		nmpipes[i].call = true;
}

/* wait: those of the redirections of a builtin or function still running
 * become children it waits for (wait <<<<{exit 3}, and fn f {wait};
 * f <<<<{exit 3}, give 3), not only once the command is done. */
void nmpipe_wait_own(void)
{
	for (int i = 0; i < nnmpipes; i++)
		if (nmpipes[i].call)
			child_set_async(nmpipes[i].pid);
}

void nmpipe_reap(void)
{
	for (int i = nmfloor; i < nnmpipes; i++)
		close(nmpipes[i].fd);
	for (int i = nmfloor; i < nnmpipes; i++)
		child_set_async(nmpipes[i].pid);
	if (nmfloor < nnmpipes)
		nnmpipes = nmfloor;
}
