/* redir.c: redirections, for the three ways a command is run: in the shell
 * (descriptors saved and restored), in a forked child (applied for good),
 * or in a vforked child (a plan made beforehand, applied with system calls
 * alone).  Files are opened by the shell itself first, so errors name the
 * file and the shell goes on. */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OP_DUP, OP_CLOSE };
typedef struct { int op, target, src; } Op;
struct Plan {
	Op *ops;
	int nops;
	int *opened;	/* what the plan opened, closed when it is done */
	int nopened;
	size_t maxops, maxopened;
};

static void add_op(Plan *p, int op, int target, int src)
{
	p->ops = egrow(p->ops, &p->maxops, p->nops + 1, sizeof *p->ops);
	p->ops[p->nops++] = (Op) { op, target, src };
}

static void add_opened(Plan *p, int fd)
{
	p->opened = egrow(p->opened, &p->maxopened, p->nopened + 1, sizeof *p->opened);
	p->opened[p->nopened++] = fd;
}

static void plan_free(Plan *p)
{
	for (int i = 0; i < p->nopened; i++)
		close(p->opened[i]);
	free(p->ops);
	free(p->opened);
}

static int open_target(Node *r, List *t)
{
	if (r->kind == rHerestr) {
		/* one word (a here document) is not copied: it may be 100 MB */
		int fd = heredoc_fd(t == NULL ? "" : t->n == NULL ? t->w : list_flat(t, " "));
		if (fd < 0)
			print_error("rc: here document: %s", strerror(errno));
		return fd;
	}
	if (t == NULL || t->n != NULL) {
		rc_warn(t == NULL ? "null filename in redirection" : "multi-word filename in redirection");
		return -1;
	}
	static const int flags[] = {
		[rFrom] = O_RDONLY, [rCreate] = O_WRONLY | O_CREAT | O_TRUNC,
		[rAppend] = O_WRONLY | O_CREAT | O_APPEND,
	};
	/* A handled signal does not make it fail (opening a fifo can wait
	 * long); its handler runs after the command.  ^C abandons it. */
	int fd;
	while ((fd = open(t->w, flags[r->kind] | O_CLOEXEC, 0666)) < 0 && errno == EINTR)
		if (sig_interrupted())
			return -1;
	if (fd < 0)
		print_error("rc: %s: %s", t->w, strerror(errno));
	return fd;
}

/* Is fd one of 0, 1, 2 or a descriptor the redirections name? */
static bool names_fd(Node *items, int fd)
{
	if (fd <= 2)
		return true;
	for (; items != NULL; items = items->k[1]) {
		Node *r = items->k[0];
		if (r->type == nRedir && (r->fd[0] == fd || (r->kind == rDup && r->fd[1] == fd)))
			return true;
	}
	return false;
}

/* A file opened for the redirections moves off a descriptor they name,
 * so that applying one cannot clobber another's file: to the lowest free
 * descriptor they do not name (below the highest they name, when that is
 * where the room is).  -1 when there is none. */
static int move_unnamed(int fd, Node *items)
{
	int from = 3;
	for (;;) {
		int d = fcntl(fd, F_DUPFD_CLOEXEC, from);
		if (d < 0 || !names_fd(items, d))
			return d;
		close(d);
		from = d + 1;
	}
}

typedef struct {
	Node *items;
	List **targets;
} Targets;

static void expand_targets(void *arg)
{
	Targets *t = arg;
	int n = 0;
	for (Node *i = t->items; i != NULL; i = i->k[1], n++) {
		Node *r = i->k[0];
		/* a here string's words are not globbed, as in rc 1.7.4 */
		if (r->type == nRedir && r->kind == rHerestr)
			t->targets[n] = glom_noglob(r->k[0]);
		else if (r->type == nRedir && r->kind != rDup && r->kind != rClose)
			t->targets[n] = glom(r->k[0]);
	}
}

static bool plan_make(Plan *p, Node *items)
{
	memset(p, 0, sizeof *p);
	/* Every target is expanded before any file is opened: an error in
	 * one (bad concatenation) must not leave another's descriptor open.
	 * rc 1.7.4 expands them in the command's child, so such an error
	 * fails only the command (status 1): walk_guarded. */
	int n = 0;
	for (Node *i = items; i != NULL; i = i->k[1])
		n++;
	Targets t = { items, nalloc(n * sizeof *t.targets) };
	if (!walk_guarded(expand_targets, &t))
		return false;
	List **targets = t.targets;
	Node *items0 = items;
	n = 0;
	for (; items != NULL; items = items->k[1], n++) {
		Node *r = items->k[0];
		if (r->type != nRedir)
			continue;
		if (r->kind == rDup) {
			add_op(p, OP_DUP, r->fd[0], r->fd[1]);
			continue;
		}
		if (r->kind == rClose) {
			add_op(p, OP_CLOSE, r->fd[0], -1);
			continue;
		}
		int fd = open_target(r, targets[n]);
		if (fd >= 0 && names_fd(items0, fd)) {
			int moved = move_unnamed(fd, items0);
			if (moved < 0)	/* EINVAL from fcntl past the limit */
				print_error("rc: %s: %s", r->kind == rHerestr || targets[n] == NULL ?
				            "here document" : targets[n]->w, strerror(EMFILE));
			close(fd);
			fd = moved;
		}
		if (fd < 0) {
			plan_free(p);
			return false;
		}
		add_opened(p, fd);
		add_op(p, OP_DUP, r->fd[0], fd);
	}
	return true;
}

/* A descriptor the shell keeps for itself goes above the low numbers
 * scripts use, and is closed on exec. */
int fd_move_high(int fd)
{
	int high = fcntl(fd, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

/* In-shell redirections: each target's old descriptor is kept here. */
typedef struct { int fd, saved; } Saved;
static Saved *saved;
static int nsaved;
static size_t maxsaved;

int fd_depth(void)
{
	return nsaved;
}

void fd_unwind(int depth)
{
	if (nsaved > depth)
		read_forget();	/* standard input may be something else again */
	while (nsaved > depth) {
		Saved *s = &saved[--nsaved];
		if (s->saved >= 0) {
			dup2(s->saved, s->fd);
			close(s->saved);
		} else
			close(s->fd);
	}
}

/* After exec with only redirections: they are for good. */
void fd_forget(int depth)
{
	while (nsaved > depth) {
		Saved *s = &saved[--nsaved];
		if (s->saved >= 0)
			close(s->saved);
		read_fd_taken(s->fd);
	}
}

/* Whether an in-shell redirection has put something else at fd. */
bool fd_redirected(int fd)
{
	for (int i = 0; i < nsaved; i++)
		if (saved[i].fd == fd)
			return true;
	return false;
}

static void save(int fd)
{
	saved = egrow(saved, &maxsaved, nsaved + 1, sizeof *saved);
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
	saved[nsaved++] = (Saved) { fd, copy };
}

static bool apply(Plan *p, bool keep)
{
	for (int i = 0; i < p->nops; i++) {
		Op *o = &p->ops[i];
		if (keep)
			save(o->target);
		if (o->op == OP_CLOSE)
			close(o->target);
		else if (o->src != o->target && dup2(o->src, o->target) < 0) {
			print_error("rc: dup2: %s", strerror(errno));	/* as rc 1.7.4 says */
			return false;
		}
	}
	return true;
}

bool redir_in_shell(Node *items)
{
	Plan p;
	if (!plan_make(&p, items))
		return false;
	if (p.nops > 0)
		read_forget();	/* standard input may be something else now */
	bool ok = apply(&p, true);
	plan_free(&p);
	return ok;
}

void redir_in_child(Node *items)
{
	Plan p;
	if (!plan_make(&p, items) || !apply(&p, false))
		rc_exit(1);
	plan_free(&p);
}

/* For a vforked child: the plan is made (files opened) in the shell. */
Plan *redir_plan(Node *items)
{
	Plan *p = nnew(Plan);
	return plan_make(p, items) ? p : NULL;
}

/* In the vforked child: system calls only.  Returns 0 or an errno, plus
 * REDIR_DUP_FAILED if a dup2 failed. */
int redir_plan_apply(const Plan *p)
{
	for (int i = 0; i < p->nops; i++) {
		const Op *o = &p->ops[i];
		if (o->op == OP_CLOSE)
			close(o->target);
		else if (o->src != o->target ? dup2(o->src, o->target) < 0 :
			 fcntl(o->src, F_SETFD, 0) < 0)
			return errno | (o->src != o->target ? REDIR_DUP_FAILED : 0);
	}
	return 0;
}

void redir_plan_done(Plan *p)
{
	plan_free(p);
}

/* <{cmd} and >{cmd}: a pipe to a child, named as /dev/fd/N; the shell's
 * end is closed when the command is done.  The shell does not wait for
 * the child (which may never end by itself: >{cat >/dev/null} reading a
 * program that writes forever); as in rc 1.7.4 it joins $apids, and is
 * reaped by wait or along with a later child. */
typedef struct { int fd; pid_t pid; } Nmpipe;
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
	nmpipes[nnmpipes++] = (Nmpipe) { keep, pid };
	return nfmt("/dev/fd/%d", keep);
}

void nmpipe_reap(void)
{
	for (int i = 0; i < nnmpipes; i++)
		close(nmpipes[i].fd);
	for (int i = 0; i < nnmpipes; i++)
		child_set_async(nmpipes[i].pid);
	nnmpipes = 0;
}
