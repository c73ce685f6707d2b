/* SPDX-License-Identifier: Zlib */
/* exec.c: simple commands, $path search, and the only places the shell
 * forks (rc_fork) or spawns (spawn).  An external command whose set-up
 * needs no shell code in the child is started with vfork: no page tables
 * are copied.  (glibc's posix_spawn would do the same, but it makes two
 * sigaction calls for every signal in every child.)  Without vfork, which
 * POSIX.1-2008 dropped, it is forked, and redirected in the shell as
 * with vfork. */
#include "rc.h"
#include "../lineedit/le.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a forked child of the shell stops sharing with it, signals held
 * (before_fork).  A background job's child takes a process group of its
 * own first (with job control, as any job), so that no ^C typed at the
 * terminal from then on reaches it, and drops one that did before
 * (sig_background_child); without job control it ignores the terminal's
 * stop signals. */
static void became_child(bool background)
{
	proc_become(PROC_CHILD);
	fd_disown_writers();
	bool in_job = job_child_enter();
	if (background) {
		if (!in_job)
			setpgid(0, 0);
		sig_background_child();
	}
	sig_child_reset();
	if (background && !in_job)
		sig_ignore_stops();
	jobs_child_reset();
	child_reset();
	read_child_reset();
	le_disable();
}

/* The steps before every fork and vfork, in one place so that no copy
 * drifts: $pid learnt (a child must not learn its own), the input's
 * look-ahead forgotten (the child may read standard input), SIGCHLD to
 * the default.  Every signal is held (into *mask, the mask to restore)
 * from before the fork until the child has its own dispositions and the
 * shell has looked at what came meanwhile (sig_after_fork): a signal sent
 * to the child in between would otherwise run the shell's handler in it
 * and be forgotten (kill $apid just after cmd &), and a ^C typed then
 * must reach the command.  act_first: the signals that came before are
 * acted on first (sig_block_all), before a program starts; a fork's caller
 * may hold descriptors just made, which an error would leave open: the
 * next look acts on them. */
static void before_fork(sigset_t *mask, bool act_first)
{
	var_fix_pid();
	if (act_first)
		sig_block_all(mask);
	else
		sig_hold_all(mask);
	read_forget();
	sig_before_child();
}

/* Fork a child of the shell (see before_fork); fds, n: descriptors just
 * made (pipes), closed if the fork fails, before the error unwinds. */
static pid_t fork_child(const int *fds, int n, bool background)
{
	sigset_t mask;
	before_fork(&mask, false);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &mask, NULL);
		for (int i = 0; i < n; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		errno = e;
		rc_syserror("fork");
	}
	if (pid == 0)
		became_child(background);
	else {
		child_add(pid, false);
		job_forked(pid);
		if (!background)
			sig_after_fork(pid);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	return pid;
}

pid_t rc_fork(void)
{
	return fork_child(NULL, 0, false);
}

/* rc_fork for a caller holding descriptors just made (pipes). */
pid_t rc_fork_closing(const int *fds, int n)
{
	return fork_child(fds, n, false);
}

/* rc_fork for cmd &: the child is a background job (became_child). */
pid_t rc_fork_background(void)
{
	return fork_child(NULL, 0, true);
}

/* A process the shell never waits for (a here document's writer): a
 * grandchild, orphaned at once, so that neither the shell nor a command it
 * is about to become is left with a child it does not know.  Returns 0 in
 * the grandchild, 1 in the shell, -1 (errno set) if a fork failed. */
int rc_fork_orphan(void)
{
	sigset_t mask;
	before_fork(&mask, false);
	pid_t pid = fork();
	if (pid == 0)
		became_child(false);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		pid_t orphan = fork();
		if (orphan != 0)
			_exit(orphan < 0 ? errno : 0);
		return 0;
	}
	child_add(pid, false);
	int wstat = child_wait(pid);
	if (WIFEXITED(wstat) && WEXITSTATUS(wstat) == 0)
		return 1;
	errno = WIFEXITED(wstat) ? WEXITSTATUS(wstat) : EAGAIN;
	return -1;
}

/* *err, when err is not NULL, is set to why path cannot be run: stat's
 * error, or EACCES for what is not an executable file. */
static bool executable(const char *path, int *err)
{
	struct stat st;
	int e = EACCES;
	if (stat(path, &st) != 0)
		e = errno;
	else if (S_ISREG(st.st_mode) && (st.st_mode & 0111))
		return true;
	if (err != NULL)
		*err = e;
	return false;
}

/* Names starting with /, ./ or ../ are used as they are; any other is
 * looked up in $path (an empty element is the current directory). */
static char *path_lookup(const char *name, int *err)
{
	size_t nlen = strlen(name);
	for (List *p = var_get("path"); p != NULL; p = p->n) {
		if (*p->w == '\0') {
			if (executable(name, err))
				return (char *) name;
			continue;
		}
		size_t dlen = strlen(p->w);
		char *full = nalloc(dlen + nlen + 2);
		memcpy(full, p->w, dlen);
		full[dlen] = '/';
		memcpy(full + dlen + 1, name, nlen + 1);
		if (executable(full, err))
			return full;
	}
	return NULL;
}

static bool direct_name(const char *name)
{
	return name[0] == '/' || strncmp(name, "./", 2) == 0 || strncmp(name, "../", 3) == 0;
}

/* whatis: like path_search, but a name used as it is must be an executable
 * file too.  When it is not found, *err is why the last file tried cannot
 * be run (the errno of the last try: path=(/nonexistent /etc/passwd)
 * gives ENOTDIR), 0 if none was tried. */
char *path_which(const char *name, int *err)
{
	*err = 0;
	if (direct_name(name))
		return executable(name, err) ? (char *) name : NULL;
	return path_lookup(name, err);
}

static char *path_search(const char *name)
{
	if (direct_name(name))
		return (char *) name;
	return path_lookup(name, NULL);
}

static char **argv_of(List *args)
{
	char **argv = nalloc((list_len(args) + 1) * sizeof *argv);
	int i = 0;
	for (; args != NULL; args = args->n)
		argv[i++] = args->w;
	argv[i] = NULL;
	return argv;
}

/* A file the kernel will not run (no #!) is a shell script of the
 * classic kind: /bin/sh runs it. */
static char **sh_argv(const char *path, char **argv)
{
	int n = 0;
	while (argv[n] != NULL)
		n++;
	char **v = nalloc((n + 2) * sizeof *v);
	v[0] = "/bin/sh";
	v[1] = (char *) path;
	for (int i = 1; i <= n; i++)
		v[i + 1] = argv[i];
	return v;
}

static void not_found(const char *name)
{
	char *shown = nstrndup(name, strlen(name));
	for (char *c = shown; *c != '\0'; c++)
		if ((unsigned char) *c < ' ' || *c == 0x7f)
			*c = '?';	/* control characters are not sent to a terminal */
	print_error("rc: cannot find `%s'", shown);
	status_fail();
}

/* A name used as it is that names no file, or one that cannot run, is
 * reported before the command's redirections are expanded, the name
 * being known first: "./nosuch >()" says No such file or directory. */
static bool cannot_run(const char *name)
{
	struct stat st;
	int e = 0;
	if (!direct_name(name))
		return false;
	if (stat(name, &st) != 0)
		e = errno;
	else if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		e = EACCES;
	if (e == 0)
		return false;
	print_error("rc: %s: %s", name, strerror(e));
	status_fail();
	return true;
}

/* Replace this process with the program path; returns when it cannot,
 * reported, the program named as written (argv[0], the name the user
 * knows). */
static void try_exec_program(const char *path, char **argv, char **envp)
{
	execve(path, argv, envp);
	const char *name = argv[0];
	if (errno == ENOEXEC) {
		execve("/bin/sh", sh_argv(path, argv), envp);
		name = "/bin/sh";
	}
	print_error("rc: %s: %s", name, strerror(errno));
}

/* Replace this process with the command; returns when it cannot,
 * reported. */
static void try_exec_command(List *args)
{
	char *path = path_search(args->w);
	if (path == NULL) {
		not_found(args->w);
		return;
	}
	char **argv = argv_of(args), **envp = env_vector();
	sig_before_child();
	jobs_leave();	/* exec: the terminal as the shell found it */
	try_exec_program(path, argv, envp);
}

/* Replace this process with the command (in a child, or for exec). */
static NORETURN void exec_child(List *args)
{
	try_exec_command(args);
	rc_exit(1);
}

/* The redirections written before a command's name.  Those are made
 * before the command is looked up, the others after, in the order they
 * are written:
 * ">[2=1] nosuch" says it cannot find nosuch on standard output,
 * "nosuch >[2=1]" on standard error. */
static Node *leading_redirections(Node *items)
{
	Node *head = NULL, **tail = &head;
	for (; items != NULL && items->k[0]->type == nRedir; items = items->k[1]) {
		Node *c = nnew(Node);
		*c = *items;
		c->k[1] = NULL;
		*tail = c;
		tail = &c->k[1];
	}
	return head;
}

/* A command not on $path, reported once its leading redirections are
 * made; a failed one is reported instead. */
static void not_found_redirected(const char *name, Node *items)
{
	int depth = fd_depth();
	if (redir_in_shell(leading_redirections(items)))
		not_found(name);
	else
		status_fail();
	fd_unwind(depth);
}

/* The file to run, or NULL when it is not found (reported once the
 * redirections that lead items are made) or cannot run (reported): $status
 * is 1, and the redirections are not expanded. */
static char *command_path(const char *name, Node *items)
{
	char *path = path_search(name);
	if (path == NULL) {
		not_found_redirected(name, items);
		return NULL;
	}
	return cannot_run(path) ? NULL : path;
}

/* Wait for a program spawned, a job of its own (jobs.c): its wait
 * status; *stopped if it stopped. */
static int spawned_end(pid_t pid, List *args, bool *stopped)
{
	int w = child_wait(pid);
	*stopped = job_end(&w, 1, NULL, args);
	return w;
}

/* Wait for a program spawned: its wait status becomes $status.  tail: it
 * is the last command of a guarded body, whose process it stands for
 * (status_exec_tail).  One that stopped abandons the line. */
static void spawned_wait(pid_t pid, List *args, bool tail)
{
	bool stopped;
	int w = spawned_end(pid, args, &stopped);
	if (tail)
		status_exec_tail(w);
	else {
		status_report(pid, w, false);
		status_set(w);
	}
	if (stopped)
		job_stopped();
}

#ifdef HAVE_VFORK
#ifdef RC_COVERAGE
/* A gcov build (CFLAGS=-DRC_COVERAGE) calls execve in vforked() through
 * a pointer: gcc turns a direct call into __gcov_execve, which writes the
 * counts under a lock first.  In a vforked child that lock is the shell's
 * own: a ^C that ended the child in there left it held, and the next
 * child waited on it for ever (rc-interrupt.test under tests/ci-coverage).
 * The child's counts are in the shell's memory anyway. */
static int (*volatile vfork_execve)(const char *, char *const[], char *const[]) = execve;
#else
#define vfork_execve execve
#endif

/* The vforked child shares the shell's memory until it execs: it may
 * only make system calls, and reports a failure through *err.  (Where
 * vfork is a plain fork, as under qemu-user or valgrind, *err never comes
 * back: a failed exec is then neither reported nor handed to /bin/sh;
 * tests/port-check.qemu-known.) */
static NOINLINE void
vforked(const char *path, char **argv, char **envp, const sigset_t *mask, volatile int *err)
{
	job_child_enter();
	sig_vforked_child(mask);
	vfork_execve(path, argv, envp);
	*err = errno;
	_exit(127);
}

/* Start the program path in a child: its pid, or -1; the error of its
 * execve (or of vfork) in *err, 0 if it runs. */
static pid_t start_program(const char *path, char **argv, char **envp, const sigset_t *mask, int *err)
{
	volatile int child_err = 0;
	pid_t pid = vfork();
	if (pid == 0)
		vforked(path, argv, envp, mask, &child_err);
	*err = pid < 0 ? errno : child_err;
	return pid;
}
#else
/* Without vfork: a forked child, which reports its own failure to run the
 * program (where the shell would, the redirections being made) and exits
 * with status 1, as the shell's status is after a failure. */
static pid_t start_program(const char *path, char **argv, char **envp, const sigset_t *mask, int *err)
{
	pid_t pid = fork();
	if (pid == 0) {
		became_child(false);
		sigprocmask(SIG_SETMASK, mask, NULL);
		try_exec_program(path, argv, envp);
		rc_exit(1);
	}
	*err = pid < 0 ? errno : 0;
	return pid;
}
#endif

/* Start a program: signals blocked around it (before_fork), so that a
 * ^C typed meanwhile reaches the program (sig_after_fork). */
static pid_t spawn_one(const char *path, char **argv, int *err)
{
	char **envp = env_vector();
	sigset_t mask;
	before_fork(&mask, true);
	job_open(true);
	pid_t pid = start_program(path, argv, envp, &mask, err);
	if (pid > 0) {
		job_forked(pid);
		sig_after_fork(pid);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	return pid;
}

/* The redirections are made in the shell around the vfork or fork (the child
 * inherits them), and undone before the shell waits: what it says
 * meanwhile goes to its own standard error.  A failure to run the
 * command is reported where the command's standard error went: the
 * redirections are the command's, made before it starts. */
static void spawn(char *path, List *args, Node *items, bool tail)
{
	int depth = fd_depth();
	if (!redir_in_shell(items)) {
		fd_unwind(depth);
		status_fail();
		return;
	}
	char **argv = argv_of(args);
	const char *name = args->w;	/* as written, the name the user knows */
	int err;
	pid_t pid = spawn_one(path, argv, &err);
	bool stopped;
	if (err == ENOEXEC) {
		child_add(pid, false);
		spawned_end(pid, NULL, &stopped);
		name = "/bin/sh";
		pid = spawn_one(name, sh_argv(path, argv), &err);
	}
	if (err != 0)
		print_error("rc: %s: %s", name, strerror(err));
	fd_unwind(depth);
	if (pid > 0)
		child_add(pid, false);
	if (err != 0) {
		if (pid > 0)
			spawned_end(pid, NULL, &stopped);
		status_fail();
		return;
	}
	spawned_wait(pid, args, tail);
}

static void trace_words(Str *s, List *l)
{
	if (l == NULL)
		str_adds(s, "()");
	for (; l != NULL; l = l->n) {
		str_quote(s, l->w);
		if (l->n != NULL)
			str_addc(s, ' ');
	}
}

/* -x: a command as it runs, its words quoted to be read back; an empty
 * list is (); for ~ (match) a subject of several words is in parentheses,
 * as it would be written. */
void trace_list(const char *prefix, List *a, List *b, bool match)
{
	Str s = { 0 };
	str_adds(&s, prefix);
	bool paren = match && a != NULL && a->n != NULL;
	if (paren)
		str_addc(&s, '(');
	trace_words(&s, a);
	if (paren)
		str_addc(&s, ')');
	if (match) {
		str_addc(&s, ' ');
		trace_words(&s, b);
	}
	str_addc(&s, '\n');
	writeall(2, s.buf, s.len);
	free(s.buf);
}

typedef struct {
	Builtin *b;
	Node *fn;
	List *args;
} Call;

static void call(void *p)
{
	Call *c = p;
	if (c->fn != NULL)
		fn_call(c->args->w, c->fn, c->args->n);
	else
		c->b(c->args);
}

static bool has_redirection(Node *items)
{
	for (; items != NULL; items = items->k[1])
		if (items->k[0]->type == nRedir)
			return true;
	return false;
}

/* Run a builtin or function in the shell, its redirections saved and
 * undone.  Given a redirection, or a <{cmd} or >{cmd} of its own (piped),
 * it runs guarded (walk_guarded): an error in it ends only it (eval 'x=('
 * <{true} ends only the eval).  Returns false if a redirection or such an
 * error stopped it.  The here documents a wait in it takes are its own
 * only where it is a process beside the one it runs in: given a <{cmd},
 * or where more may follow it (guard_wait_floor). */
static bool in_shell(Builtin *b, Node *fn, List *args, Node *items, Parent parent, bool piped)
{
	int depth = fd_depth();
	bool redirected = has_redirection(items);
	Call c = { b, fn, args };
	int pipes = nmpipe_count();
	bool ran = redir_in_shell(items);
	nmpipe_in_call(pipes);
	if (ran && parent == WALK_CHILD_TAIL && !piped)
		fd_keep(depth);	/* a child's last command: see fd_keep */
	if (!ran)
		status_fail();
	else if (redirected || piped) {
		ran = walk_guarded(call, &c, piped ? depth : guard_wait_floor(parent, depth));
		/* the status a process exiting with it gives: one value
		 * (false | true; . f >g gives 1) */
		status_as_exit();
	} else
		call(&c);
	/* a child whose last command, a builtin or function, defined fn
	 * sigexit (eval 'fn sigexit {..}' | cat) runs it as it exits, that
	 * command's redirections and local variables still in place */
	if (parent == WALK_CHILD_TAIL && in_child() && ran && frame_top()->sigexit &&
	    skipping == SKIP_NONE)
		rc_exit(status_exit_code());
	fd_unwind(depth);
	return ran;
}

/* exec of a builtin or function: the shell becomes its process
 * (PROC_EXECED: no fn sigexit unless it defines one), which exits with its
 * status, or with 1 at once after an error.  A break, continue or return
 * leaves it for its loop or function, and that process goes on from
 * there, still without fn sigexit. */
static void exec_in_shell(Builtin *b, Node *fn, List *args)
{
	proc_become(PROC_EXECED);
	Call call_of = { b, fn, args };
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) != 0) {
		if (catch_raised == eError)
			rc_exit(1);
		rc_raise(catch_raised);
	}
	call(&call_of);
	catch_pop(&c);
	if (skipping == SKIP_NONE)
		rc_exit(status_exit_code());
}

/* exec: with a command, replace the shell; with none, redirect the shell.
 * A failed redirection ends the shell: with a command at once (the shell
 * has become the command's process: no fn sigexit), without one as exit 1
 * would, except at the terminal.  A shell that reads what a user types
 * (typed_shell: not rc -c, a script or a child) stays when the program
 * cannot run or a redirection fails, its $status 1: a typo must not log
 * the user out. */
static void do_exec(List *args, Node *items)
{
	int depth = fd_depth();
	/* exec exec and exec builtin: as exec, and as builtin */
	bool skip_fn = false;
	for (; args != NULL; args = args->n)
		if (strcmp(args->w, "builtin") == 0)
			skip_fn = true;
		else if (strcmp(args->w, "exec") == 0)
			skip_fn = false;
		else
			break;
	Node *fn = args == NULL || skip_fn ? NULL : fn_get(args->w);
	Builtin *b = args == NULL || fn != NULL ? NULL : builtin_get(args->w);
	bool program = args != NULL && fn == NULL && b == NULL;
	if (program && command_path(args->w, NULL) == NULL) {
		if (typed_shell())
			return;		/* reported, $status 1 */
		rc_exit(1);
	}
	if (args != NULL && nmpipe_pending()) {
		/* a command given a <{cmd} or >{cmd} runs in a child, exec
		 * or not, whose named pipes are its own; the shell goes on
		 * after it, but as the process the exec made: from now on
		 * an error ends it (ON_ERROR_EXIT_BARE; DIFFERENCES, <{cmd}) */
		if (proc.on_error == ON_ERROR_UNWIND)	/* an escaped child's rule stays */
			proc.on_error = ON_ERROR_EXIT_BARE;
		pid_t pid = rc_fork();
		if (pid == 0) {
			redir_in_child(items);
			if (b != NULL || fn != NULL)
				exec_in_shell(b, fn, args);
			else
				exec_child(args);
			rc_exit(status_exit_code());	/* after break, continue or return */
		}
		child_wait_status(pid);
		return;
	}
	if (!redir_exec(items)) {
		if (!typed_shell()) {
			if (args != NULL)
				proc_become(PROC_EXECED);	/* the command's process */
			else
				frame_started();
			if (args != NULL || !interactive)
				rc_exit(1);
		}
		fd_unwind(depth);
		status_fail();
		return;
	}
	if (program && typed_shell()) {
		try_exec_command(args);
		jobs_retake();
		fd_unwind(depth);	/* its redirections: the copies kept are close-on-exec */
		status_fail();
		return;
	}
	fd_forget(depth);
	if (b != NULL || fn != NULL)
		exec_in_shell(b, fn, args);
	else if (args != NULL) {
		frame_started();
		exec_child(args);
	}
	/* $status stays: exec with no command runs none */
}

typedef struct {
	Node *items;
	Parent parent;
	bool called_fn;
} Simple;

static bool run_words(Node *items, Parent parent);

/* The redirections written before the command's name are made before
 * its words are expanded (and traced under -x): they are read first.
 * Redirections alone are traced as () unless the last is a dup or close
 * (which stands as a null command of its own), once the redirections
 * before the last are made: "-x -c '>[2]e <f'" traces into e, "<f" before it
 * says f is not there. */
static void simple_of(void *p)
{
	Simple *s = p;
	if (s->parent == WALK_CHILD_TAIL && s->items->k[0]->type == nRedir)
		frame_started();
	Node *rest = s->items, *last = NULL;
	for (; rest != NULL && rest->k[0]->type == nRedir; rest = rest->k[1])
		last = rest->k[0];
	Node *lead = leading_redirections(s->items), *final = NULL;
	bool traced = rest == NULL && flag.x && last->kind != rDup && last->kind != rClose;
	if (traced) {
		Node **at = &lead;
		while ((*at)->k[1] != NULL)
			at = &(*at)->k[1];
		final = *at;
		*at = NULL;
	}
	int depth = fd_depth();
	bool ok = redir_in_shell(lead);
	if (ok && traced) {
		trace_list("", NULL, NULL, false);
		ok = redir_in_shell(final);
	}
	if (!ok)
		status_fail();
	else if (rest != NULL)
		s->called_fn = run_words(rest, s->parent);
	fd_unwind(depth);
}

/* items: the words and redirections of a simple command, in order.
 * Returns true if it called a function (whose failure -e forgives) or
 * ran a builtin that left $status as it was (which -e does not test).
 * A command written after a redirection (>f cmd, or a redirection alone)
 * runs guarded: an error in it ends only it. */
bool run_simple_forgiven(Node *items, Parent parent)
{
	if (items == NULL || items->k[0]->type != nRedir)
		return run_words(items, parent);
	Simple s = { items, parent != WALK_CHILD_TAIL ? WALK_GUARD_TAIL : WALK_CHILD_TAIL, false };
	if (parent != WALK_CHILD_TAIL) {
		if (parent != WALK_SHELL)
			frame_started();
		walk_guarded(simple_of, &s, guard_wait_floor(parent, fd_depth()));
		status_as_child(parent == WALK_GUARD_TAIL);
		return false;	/* the guarded body's status: -e tests it */
	} else
		simple_of(&s);	/* in a child an error ends the child */
	return s.called_fn;
}

/* Is a command's only word a <{cmd}, parentheses around it or not?
 * Parentheses around a single word are no list: (<{cmd}) is <{cmd}. */
static bool only_nmpipe(Node *items)
{
	Node *w = items != NULL && items->k[1] == NULL ? unparen(items->k[0]) : NULL;
	return w != NULL && w->type == nNmpipe;
}

static bool run_words(Node *items, Parent parent)
{
	List *args = NULL, **tail = &args;
	if (only_nmpipe(items))
		rc_error("named pipes cannot be executed as commands");
	int pipes = nmpipe_count();	/* the command's own <{cmd} come after */
	/* all the words first, then globbing, so that a file a backquote
	 * makes is found: echo f* `{>f1} finds f1 */
	for (Node *i = items; i != NULL; i = i->k[1]) {
		if (i->k[0]->type == nRedir)
			continue;
		*tail = glom_noglob(i->k[0]);
		while (*tail != NULL)
			tail = &(*tail)->n;
	}
	args = glob_if_meta(args);
	if (flag.x)
		trace_list("", args, NULL, false);
	if (args == NULL) {
		/* no command: $status stays unless a redirection fails, but
		 * as a process exiting with it gives it (a null command after
		 * a redirection is one of its own): one value (false | true;
		 * $x gives 1) */
		int depth = fd_depth();
		if (parent != WALK_SHELL)
			frame_started();
		if (!redir_in_shell(items))
			status_fail();
		else
			status_as_exit();
		fd_unwind(depth);
		nmpipe_reap();
		return false;
	}
	bool skip_fn = false;
	if (strcmp(args->w, "builtin") == 0 && args->n != NULL) {
		args = args->n;
		skip_fn = true;
	}
	unsigned long changes = status_changes();
	if (strcmp(args->w, "exec") == 0) {
		do_exec(args->n, items);
		nmpipe_reap();
		return status_changes() == changes;
	}
	Node *fn = skip_fn ? NULL : fn_get(args->w);
	Builtin *b = fn ? NULL : builtin_get(args->w);
	bool fn_ran = false;
	if (parent != WALK_SHELL && (fn != NULL || b != NULL))
		frame_started();
	if (fn != NULL || b != NULL) {
		bool piped = nmpipe_count() > pipes;
		int floor = nmpipe_protect();	/* eval 'a; b' <{c} */
		/* -e forgives the failure of a function, eval or ., but not
		 * that of a guarded one (redirected, or given a <{cmd}), whose
		 * status is a process's */
		fn_ran = in_shell(b, fn, args, items, parent, piped) &&
			(fn != NULL || builtin_runs_commands(b)) &&
			!has_redirection(items) && !piped;
		if (b != NULL && status_changes() == changes)
			fn_ran = true;	/* it left $status: no failure for -e */
		nmpipe_set_floor(floor);
		/* break, continue or return as a child's last command: see
		 * input_child_escaped */
		if (parent == WALK_CHILD_TAIL && b != NULL && skipping != SKIP_NONE)
			proc.skip_in_place = true;
	}
	else if (parent != WALK_CHILD_TAIL) {
		char *path = command_path(args->w, items);
		if (path != NULL) {
			if (parent == WALK_GUARD_TAIL)
				frame_started();
			spawn(path, args, items, parent == WALK_GUARD_TAIL);
		}
	}
	else {
		char *path = path_search(args->w);
		if (path == NULL) {
			redir_in_child(leading_redirections(items));
			not_found(args->w);
			rc_exit(1);
		}
		if (cannot_run(path))
			rc_exit(1);
		frame_started();
		redir_in_child(items);
		exec_child(args);
	}
	nmpipe_reap();
	return fn_ran;
}
