/* SPDX-License-Identifier: Zlib */
/* redir.c: redirections, made one at a time in the order written, each
 * target expanded only when the redirections before it are made (so a
 * later one sees what an earlier one did), either in the shell, the descriptors they replace saved and
 * restored (builtins, functions, compound commands, and an external
 * command, around the vfork that starts it), or in a forked child for
 * good.  Errors name the file, and the shell goes on.  A here document's
 * text (read by heredoc.c) reaches its command through a pipe, a
 * temporary file or a process writing it (heredoc_fd). */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The text in a pipe, if the pipe takes all of it at once.  An empty pipe
 * holds PIPE_BUF bytes (a write that size is atomic); more is written
 * without blocking and given up if it does not fit: a pipe's room varies
 * (an unprivileged user holding many pipes gets one or two pages). */
static int in_pipe(const char *text, size_t len)
{
	enum { PIPE_MOST = 65536 };	/* Linux's default pipe size: more never fits */
	int p[2];
	if (len > PIPE_MOST || pipe_cloexec(p) < 0)
		return -1;
	if (len > PIPE_BUF)
		fcntl(p[1], F_SETFL, O_NONBLOCK);
	ssize_t n = len > 0 ? write(p[1], text, len) : 0;
	close(p[1]);
	if (n >= 0 && (size_t) n == len)
		return p[0];
	close(p[0]);
	return -1;
}

/* The text in an unlinked temporary file in $TMPDIR. */
static int in_file(const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char *name = nfmt("%s/rc-here.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp_cloexec(name);
	if (fd < 0)
		return -1;
	unlink(name);
	if (writeall(fd, text, len) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The text through a pipe fed by a process of its own (no room in
 * $TMPDIR): it ends when the text is read or its reader goes. */
static int by_writer(const char *text, size_t len)
{
	int p[2];
	if (pipe_cloexec(p) < 0)
		return -1;
	int forked = rc_fork_orphan();
	if (forked == 0) {
		close(p[0]);
		_exit(writeall(p[1], text, len) == 0 ? 0 : 1);
	}
	close(p[1]);
	if (forked < 0) {
		int e = errno;
		close(p[0]);
		errno = e;
		return -1;
	}
	return p[0];
}

/* A descriptor to read a here document or here string from.  Writing it
 * never waits for the reader, which has not started yet. */
int heredoc_fd(const char *text)
{
	size_t len = strlen(text);
	int fd = in_pipe(text, len);
	if (fd < 0)
		fd = in_file(text, len);
	if (fd < 0)
		fd = by_writer(text, len);
	return fd;
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

typedef struct {
	Node *r;
	List *target;
} Target;

static bool exec_redirs;	/* redir_exec is making them */
static void save_bqstatus(void);

/* Does the word hold a backquote (not inside a <{cmd})?  Without
 * recursion: a here document's text is a chain of 200,000 pieces. */
static bool holds_backquote(Node *word)
{
	static Node **todo;
	static size_t max;
	size_t n = 0;
	bool found = false;
	todo = egrow(todo, &max, 1, sizeof *todo);
	todo[n++] = word;
	while (n > 0 && !found) {
		Node *w = todo[--n];
		if (w == NULL || w->type == nNmpipe)
			continue;
		found = w->type == nBackq;
		todo = egrow(todo, &max, n + 2, sizeof *todo);
		todo[n++] = w->k[0];
		todo[n++] = w->k[1];
	}
	return found;
}

static void expand_target(void *arg)
{
	Target *t = arg;
	/* a here string's words are not globbed: they are text, not files */
	t->target = t->r->kind == rHerestr ? glom_noglob(t->r->k[0]) : glom(t->r->k[0]);
}

/* The file (or here document) of a redirection, its target expanded only
 * now, once the redirections before it are made: in
 * "echo x >f <`{cat f}" cat reads the new empty f, and an error message
 * goes where an earlier >[2=1] sent it.  It is expanded in the command's
 * guarded frame (walk_guarded), so an error in it (bad concatenation)
 * fails only the command (status 1).  *name: what a failure names. */
static int open_redir(Node *r, const char **name, bool in_shell)
{
	Target t = { r, NULL };
	/* and there a backquote sets that child's $bqstatus, not the
	 * shell's (exec's are made in the shell's own process) */
	if (in_shell && !exec_redirs && holds_backquote(r->k[0]))
		save_bqstatus();
	if (!walk_guarded(expand_target, &t, WAIT_FLOOR_INHERITED))
		return -1;
	*name = r->kind == rHerestr || t.target == NULL ? "here document" : t.target->w;
	return open_target(r, t.target);
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

/* In-shell redirections: each target's old descriptor is kept here, with
 * whether it was closed on exec (one of the shell's own, such as a
 * script's descriptor, must not reach a program once it is put back). */
typedef struct {
	int fd, saved;
	bool cloexec, writer;
	char *bqstatus;	/* saved BQSTATUS: its value, NULL if unset */
} Saved;
/* saved: the target was closed; nothing to put back; $bqstatus to put back */
enum { NOT_OPEN = -1, KEPT = -2, BQSTATUS = -3 };
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
			if (s->cloexec)
				dup2_cloexec(s->saved, s->fd);
			else
				dup2(s->saved, s->fd);
			close(s->saved);
		} else if (s->saved == NOT_OPEN)
			close(s->fd);
		else if (s->saved == BQSTATUS) {
			var_set("bqstatus", s->bqstatus != NULL ? mklist(s->bqstatus, NULL, NULL) : NULL);
			free(s->bqstatus);
		}
	}
}

/* Before a backquote in the file of a redirection made in the shell:
 * it runs in the redirected command's process (a guarded frame), so the
 * command sees the $bqstatus it sets, and the shell its own again after. */
static void save_bqstatus(void)
{
	List *v = var_get("bqstatus");
	saved = egrow(saved, &maxsaved, nsaved + 1, sizeof *saved);
	saved[nsaved++] = (Saved) { -1, BQSTATUS, false, false,
		v != NULL ? estrdup(list_flat(v, " ")) : NULL };
}

/* The last command of a forked child, which runs in that child without
 * forking again: its redirections are for good, nothing is put
 * back, so a descriptor they replace (a pipe's end) is closed at once:
 * in {sleep 1; echo a} >[1=2] | {cat; echo end}, cat sees the end of its
 * input before the sleep ends.  The entries stay (a here document's
 * writer for wait; fd_unwind leaves them be). */
void fd_keep(int depth)
{
	for (int i = depth; i < nsaved; i++) {
		if (saved[i].saved >= 0)
			close(saved[i].saved);
		else if (saved[i].saved == BQSTATUS)
			free(saved[i].bqstatus);
		saved[i].saved = KEPT;
		read_fd_taken(saved[i].fd);
	}
}

/* After exec with only redirections: they are for good. */
void fd_forget(int depth)
{
	while (nsaved > depth) {
		Saved *s = &saved[--nsaved];
		if (s->saved >= 0)
			close(s->saved);
		else if (s->saved == BQSTATUS)
			free(s->bqstatus);
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

static void remember(int fd, int copy)
{
	saved = egrow(saved, &maxsaved, nsaved + 1, sizeof *saved);
	/* 0, 1 and 2 are the commands'; only the shell's own are close-on-exec */
	bool cloexec = copy >= 0 && fd > 2 && (fcntl(fd, F_GETFD) & FD_CLOEXEC);
	saved[nsaved++] = (Saved) { fd, copy, cloexec, false, NULL };
}

/* A here document has a writer, a child of the process that makes the
 * redirection (state.c: the command's guarded frame), which a wait with
 * no arguments in that process reaps, with status 0 (false; wait <<<x;
 * echo $status gives 0): here each here document in the shell's saved
 * redirections stands for such a writer, until a wait takes it.  Those
 * from the top frame's wait_floor on are the process's own: a guarded
 * body that is a process beside the one it runs in starts its own at the
 * depth before its redirections (walk_guarded's wait_floor).
 * wait: whether the process has writers not yet waited for, taking them. */
bool fd_writers(void)
{
	bool any = false;
	for (int i = frame_top()->wait_floor; i < nsaved; i++)
		if (saved[i].writer) {
			saved[i].writer = false;
			any = true;
		}
	return any;
}

/* A forked child: the writers of the shell's here documents are the
 * shell's children, not its own, even once a break has taken it out of
 * its command, back into the shell's frames. */
void fd_disown_writers(void)
{
	for (int i = 0; i < nsaved; i++)
		saved[i].writer = false;
}

/* An error undoes the in-shell redirections made since its catcher. */
const CatchStep fd_catch_step = { fd_depth, fd_unwind };

/* The descriptor a redirection replaces is copied, to be put back by
 * fd_unwind: above the low numbers scripts use or, when the descriptor
 * limit leaves no room there, to the lowest free descriptor the command's
 * redirections do not name.  False if it is open and cannot be copied. */
static bool save(int fd, Node *items)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
	for (int from = 3; copy < 0 && errno != EBADF; ) {
		if ((copy = fcntl(fd, F_DUPFD_CLOEXEC, from)) < 0)
			return false;
		if (names_fd(items, copy)) {
			close(copy);
			from = copy + 1;
			copy = -1;
			errno = EMFILE;
		}
	}
	remember(fd, copy);
	return true;
}

static bool failed(const char *name, int fd, int e)
{
	print_error("rc: %s: %s", name, strerror(e == EINVAL ? EMFILE : e));	/* EINVAL past the limit */
	if (fd >= 0)
		close(fd);
	return false;
}

/* Make one redirection, for good or (items not NULL: the command's
 * redirections) saving what it replaces.  A file opened lands on the
 * lowest free descriptor and is moved to its target at once, before the
 * next target is expanded: nothing else is left open meanwhile. */
static bool redirect(Node *r, Node *items)
{
	int target = r->fd[0];
	if (r->kind == rDup || r->kind == rClose) {
		if (r->kind == rDup && r->fd[1] == target)
			return true;	/* nothing to do: >[1=1] */
		if (items != NULL && !save(target, items))
			return failed("dup2", -1, errno);
		if (r->kind == rClose)
			close(target);
		else if (dup2(r->fd[1], target) < 0)
			return failed("dup2", -1, errno);	/* named by the call that failed */
		return true;
	}
	const char *name;
	int fd = open_redir(r, &name, items != NULL);
	if (fd < 0)
		return false;
	if (fd == target) {	/* the target was closed */
		if (items != NULL)
			remember(target, NOT_OPEN);
		fcntl(fd, F_SETFD, 0);
	} else {
		if (items != NULL && !save(target, items))
			return failed(name, fd, errno);
		if (dup2(fd, target) < 0)
			return failed("dup2", fd, errno);
		close(fd);
	}
	if (items != NULL && r->kind == rHerestr)
		saved[nsaved - 1].writer = true;
	return true;
}

static bool redirect_all(Node *items, bool keep)
{
	for (Node *i = items; i != NULL; i = i->k[1]) {
		Node *r = i->k[0];
		if (r->type != nRedir)
			continue;
		if (keep)
			read_forget();	/* standard input may be something else now */
		if (!redirect(r, keep ? items : NULL))
			return false;
	}
	return true;
}

/* The command's redirections, in order, each undone by fd_unwind (also
 * after a failure, which is reported: the caller unwinds). */
bool redir_in_shell(Node *items)
{
	return redirect_all(items, true);
}

/* exec's, made in the shell's own process for good. */
bool redir_exec(Node *items)
{
	exec_redirs = true;
	bool ok = redirect_all(items, true);
	exec_redirs = false;
	return ok;
}

void redir_in_child(Node *items)
{
	if (!redirect_all(items, false))
		rc_exit(1);
}
