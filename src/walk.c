/* SPDX-License-Identifier: Zlib */
/* walk.c: the interpreter, a walk over the parse tree.
 *
 * walk(n, parent): parent (rc.h, Parent) says what may follow n in its
 * process: nothing in a forked child (WALK_CHILD_TAIL), so a simple
 * command may exec in place, a subshell need not fork, and state need
 * not be restored; nothing in a guarded body (WALK_GUARD_TAIL, state.c);
 * anything (WALK_SHELL). */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

static int skip_raised;	/* what a child that escaped (below) carries out */
static int cond_depth;		/* inside if/while tests, && and || left sides */
static enum { IF_NONE, IF_TOOK, IF_SKIPPED } last_if;

/* After an error unwound to the top.  Returns whether it was raised
 * inside a condition, where -e does not end the shell for it: -e is
 * tested as the error sets status 1, before it leaves the condition, so
 * an interactive shell reads on ("if ($()) x" under -e -i). */
bool walk_reset(void)
{
	bool in_cond = cond_depth > 0;
	cond_depth = 0;
	skipping = SKIP_NONE;
	return in_cond;
}

static int no_save(void)
{
	return 0;
}

static void end_skipping(int unused)
{
	(void) unused;
	skipping = SKIP_NONE;
}

/* An error ends any break, continue or return under way. */
const CatchStep walk_catch_step = { no_save, end_skipping };

/* An error in a process whose errors end it (proc.on_error). */
void walk_on_error(void)
{
	if (proc.on_error == ON_ERROR_EXIT)
		rc_exit(1);
	if (proc.on_error == ON_ERROR_EXIT_BARE) {
		proc_become(PROC_EXECED);
		rc_exit(1);
	}
}

/* -e: a failed command ends the shell, except where it is being tested.
 * Also called by builtins that fail before they say why (so that -e
 * leaves without the message). */
void check_e(void)
{
	if (flag.e && cond_depth == 0 && skipping == SKIP_NONE && !status_true())
		rc_exit(status_exit_code());
}

/* -e after a command substitution whose command failed. */
void check_e_backquote(int wstat)
{
	if (flag.e && cond_depth == 0 && wstat != 0)
		rc_exit(WIFEXITED(wstat) ? WEXITSTATUS(wstat) : 1);
}

static bool walk_cond(Node *n)
{
	cond_depth++;
	walk(n, WALK_SHELL);
	cond_depth--;
	return status_true();
}

/* Run n in this forked child and exit with its status: 1 after an error,
 * a syntax error in eval too (which leaves $status as it was): the error
 * ended the child, whatever status it left.  subshell: the child of @,
 * which leaves as a shell exits, running fn sigexit if it defined it and
 * started no command after (state.c); the other children are the command
 * they were made for, whose end is no exit of a shell.
 *
 * A child that leaves its command by a break, continue or return whose
 * loop or function lies outside it goes on as the shell would from
 * there, to the end of the script, as a copy of the shell: an error then
 * ends it (ON_ERROR_EXIT), and it reads on from the script
 * (input_child_escaped). */
static NORETURN void walk_child(Node *n, bool subshell)
{
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		walk(n, WALK_CHILD_TAIL);
		catch_pop(&c);
		if (skipping != SKIP_NONE) {
			skip_raised = skipping;
			input_child_escaped(proc.skip_in_place || proc.kind != PROC_BACKQUOTE);
			proc.on_error = ON_ERROR_EXIT;
			rc_raise(eSkip);
		}
	} else if (catch_raised == eError) {
		/* an error that -e stops at leaves by -e's exit, which runs fn
		 * sigexit where the child still has it (a backquote's) */
		if (!(flag.e && last_error.failed && cond_depth == 0))
			frame_started();
		rc_exit(1);
	} else if (catch_raised == eSkip)
		rc_raise(eSkip);	/* from a child of this child: on out */
	if (!subshell)
		frame_started();
	rc_exit(status_exit_code());
}

NORETURN void walk_in_child(Node *n)
{
	walk_child(n, false);
}

/* Run fn(arg) where an escaped child's break, continue or return lands:
 * false when one did (skipping says which). */
static bool run_skippable(void (*fn)(void *), void *arg)
{
	int conds = cond_depth;
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		fn(arg);
		catch_pop(&c);
		return true;
	}
	if (catch_raised != eSkip)
		rc_raise(catch_raised);
	cond_depth = conds;
	skipping = skip_raised;
	return false;
}

static void walk_as_body(void *n)
{
	walk(n, WALK_SHELL);
}

/* Walk a loop's or function's body, where an escaped child's break,
 * continue or return lands. */
static void walk_skippable(Node *n)
{
	run_skippable(walk_as_body, n);
}

/* Whether n runs commands in a forked child of its own (a pipeline, a
 * backquote, @, & or <{}): only such a child can escape to the loop or
 * function around it (a function called in n catches its own children,
 * and eval and . start with no loop or function), so only then does a
 * body need walk_skippable's catch, a dozen calls a run of it. */
static bool forks_commands(const Node *n)
{
	for (; n != NULL; n = n->k[1])	/* k1 holds the long chains: a; b, lists */
		switch (n->type) {
		case nBackq: case nNmpipe: case nAsync: case nSubshell: case nPipe:
			return true;
		default:
			if (forks_commands(n->k[0]) || forks_commands(n->k[2]))
				return true;
		}
	return false;
}

/* Whether n forks (forks_commands), worked out on its first run and kept
 * in the node (a function's body is run from the copy in the function
 * table, a loop's many times). */
enum { FORKS_UNKNOWN, FORKS, FORKS_NOT };

static bool forks_kept(Node *n)
{
	if (n == NULL)
		return false;
	if (n->forks == FORKS_UNKNOWN)
		n->forks = forks_commands(n) ? FORKS : FORKS_NOT;
	return n->forks == FORKS;
}

/* A loop's or function's body, with the catch when it needs one. */
void walk_body(Node *body)
{
	if (forks_kept(body))
		walk_skippable(body);
	else
		walk(body, WALK_SHELL);
}

static char *one_word(List *l)
{
	return var_name(l, true);
}

static void trace_assign(const char *name, List *val, const char *after)
{
	Str s = { 0 };
	var_print(&s, name, val);
	str_adds(&s, after);
	writeall(2, s.buf, s.len);
	free(s.buf);
}

/* name=val, through the symbol cached in the tree when there is one. */
static void set(Sym *s, const char *name, List *val)
{
	if (flag.x)
		trace_assign(name, val, "\n");
	if (s != NULL)
		var_set_sym(s, val);
	else
		var_set(name, val);
}

static void assign(Node *n)
{
	Sym *s = var_name_sym(n->k[0]);
	if (s == NULL || flag.x || !glom_assign(s, n->k[1])) {
		/* the value first, as it is read, but a name written () is
		 * an error at once */
		Node *name = n->k[0];
		if (name->type == nList && name->k[0] == NULL)
			one_word(NULL);
		List *val = glom(n->k[1]);
		set(s, s != NULL ? s->name : one_word(glom_noglob(name)), val);
	}
	status_set(0);
}

static void local(Node *n, Parent parent)
{
	List *val = glom(n->k[1]);	/* the value first, as assign's */
	char *name = one_word(glom_noglob(n->k[0]));
	/* $* is traced as the command sees it, without its $0, and not at
	 * all when that leaves nothing: *=() cmd traces only cmd */
	if (flag.x && (val != NULL || strcmp(name, "*") != 0))
		trace_assign(name, val, "\n");
	var_push_local(name, val);
	walk(n->k[2], parent);
	var_pop_local();
}

/* cmd &: the job gets a process group of its own, so that a ^C or ^\\
 * typed at the terminal does not reach it, and, without job control, it
 * ignores the terminal's stop signals (with it, it is a job as any other,
 * which fg may bring back): rc_fork_background.  An interactive shell
 * prints its process id.  $status is left as it was (false; echo & echo
 * $status prints 1): the job has not ended; a line ending in '&' sets it
 * to 0 by the empty command after it (parse.c, list). */
static void async(Node *n)
{
	job_open(false);	/* with job control: as any job */
	pid_t pid = rc_fork_background();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd > 0) {
			dup2(fd, 0);
			close(fd);
		}
		walk_in_child(n->k[0]);
	}
	child_set_async(pid);
	job_end_background(n->k[0]);
	if (interactive)
		fprint(2, "%d\n", (int) pid);
	var_set("apid", mklist(nfmt("%d", (int) pid), NULL, NULL));
}

/* As a child's last command, @ is run in that child, which stands for
 * the child @ makes: it has started a command of its own (no fn sigexit
 * it inherited), and exits as that child would. */
static void subshell(Node *n, Parent parent)
{
	if (parent == WALK_CHILD_TAIL) {
		frame_started();
		walk(n->k[0], WALK_CHILD_TAIL);
		if (in_child() && skipping == SKIP_NONE)
			rc_exit(status_exit_code());
		return;
	}
	job_open(true);
	pid_t pid = rc_fork();
	if (pid == 0)
		walk_child(n->k[0], true);
	int w = child_wait(pid);
	bool stopped = job_end(&w, 1, n, NULL);
	status_report(pid, w, false);
	status_set(w);
	if (stopped)
		job_stopped();
	check_e();
}

/* fd, moved out of the way if it is target, a descriptor the stage is
 * about to set. */
static int move_clear_of(int fd, int target)
{
	if (fd < 0 || fd != target)
		return fd;
	return fcntl(fd, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
}

static void pipeline(Node *n)
{
	int count = 1;
	for (Node *p = n; p != NULL && p->type == nPipe; p = p->k[0])
		count++;
	Node **cmd = nalloc(count * sizeof *cmd);
	int *outfd = nalloc(count * sizeof *outfd), *infd = nalloc(count * sizeof *infd);
	pid_t *pids = nalloc(count * sizeof *pids);
	int i = count - 1;
	Node *p = n;
	for (; p != NULL && p->type == nPipe; p = p->k[0], i--) {
		cmd[i] = p->k[1];
		infd[i] = p->fd[1];
		outfd[i - 1] = p->fd[0];
	}
	cmd[0] = p;
	int prev = -1;
	job_open(true);
	for (i = 0; i < count; i++) {
		int pfd[2] = { -1, -1 };
		if (i < count - 1 && pipe_cloexec(pfd) < 0) {
			int e = errno;
			if (prev >= 0)
				close(prev);
			errno = e;
			rc_syserror("pipe");
		}
		int made[3] = { prev, pfd[0], pfd[1] };
		pid_t pid = rc_fork_closing(made, 3);
		if (pid == 0) {
			int in = i > 0 ? infd[i] : -1, out = i < count - 1 ? outfd[i] : -1;
			int r = move_clear_of(prev, out), w = move_clear_of(pfd[1], in);
			if (r >= 0)
				r != in ? dup2(r, in) : fcntl(r, F_SETFD, 0);
			if (w >= 0)
				w != out ? dup2(w, out) : fcntl(w, F_SETFD, 0);
			/* only the ends the stage uses stay open: a stage of shell
			 * code (a | {b | c}) would hold the others */
			int ends[5] = { pfd[0], prev, r, pfd[1], w };
			for (int k = 0; k < 5; k++)
				if (ends[k] >= 0 && ends[k] != in && ends[k] != out)
					close(ends[k]);
			/* an empty command ("a |") reads nothing, as any command
			 * that reads nothing: a writes into a pipe that may be
			 * closed already (SIGPIPE) */
			walk_in_child(cmd[i]);
		}
		pids[i] = pid;
		if (prev >= 0)
			close(prev);
		if (pfd[1] >= 0)
			close(pfd[1]);
		prev = pfd[0];
	}
	int *w = nalloc(count * sizeof *w);
	for (i = 0; i < count; i++) {
		w[i] = child_wait(pids[i]);
		status_report(pids[i], w[i], false);
	}
	bool stopped = job_end(w, count, n, NULL);
	status_set_list(w, count);
	if (stopped)
		job_stopped();
	check_e();
}

static void do_if(Node *n, Parent parent)
{
	bool ok = walk_cond(n->k[0]);
	if (skipping != SKIP_NONE)
		return;	/* a break, continue or return in the test leaves the if too */
	/* A later "if not" pairs with the first if run since the last one
	 * ran: not with an if nested in this one's branch, nor
	 * with one run after it. */
	if (last_if == IF_NONE)
		last_if = ok ? IF_TOOK : IF_SKIPPED;
	if (ok)
		walk(n->k[1], parent);
	else if (n->k[2] != NULL)
		walk(n->k[2], parent);
	else
		status_set(0);
}

static void ifnot(Node *n, Parent parent)
{
	if (last_if == IF_NONE)
		rc_error("`if not' must follow `if'");
	bool run = last_if == IF_SKIPPED;
	last_if = IF_NONE;
	if (run)
		walk(n->k[0], parent);	/* skipped, it leaves $status */
	/* nor does an if run in its body pair with a later one
	 * (if(false)x; newline if not if(true)y; newline if not z errs) */
	last_if = IF_NONE;
}

/* After a loop body: true if the loop is to stop. */
static bool loop_skip(void)
{
	switch (skipping) {
	case SKIP_BREAK:
		skipping = SKIP_NONE;
		return true;
	case SKIP_CONTINUE:
		skipping = SKIP_NONE;
		return false;
	case SKIP_RETURN:
		return true;
	}
	return false;
}

typedef struct { Node *words; List *items; } ForList;

static void glom_for_list(void *a)
{
	ForList *f = a;
	f->items = glom(f->words);
}

/* A for's list is taken inside the loop's break (it is the loop's): the
 * break of a backquote's child there (for (i in `{break})) ends the loop
 * in that child, which goes on after it; a continue there is outside of
 * any loop, and a return goes on to the function.  False: the loop is not
 * to run.  Only a list that forks needs the catch (forks_kept). */
static bool for_list(Node *n, List **items)
{
	ForList f = { n->k[1], NULL };
	if (!forks_kept(n->k[1])) {
		*items = glom(n->k[1]);
		return true;
	}
	/* no loop body around the list: the continue of a loop around the
	 * for is as far away as if there were none */
	int loops = nesting.loops;
	nesting.loops = loops - loops % FOR_LIST + FOR_LIST;
	bool ran = run_skippable(glom_for_list, &f);
	nesting.loops = loops;
	if (!ran) {
		if (skipping == SKIP_BREAK)
			skipping = SKIP_NONE;
		return false;
	}
	*items = f.items;
	return true;
}

static void do_for(Node *n)
{
	Sym *s = var_name_sym(n->k[0]);
	/* the name is checked as it is first assigned to: for ($#x in) {}
	 * assigns nothing and is no error */
	List *var = s != NULL ? NULL : glom_noglob(n->k[0]);
	char *name = s != NULL ? s->name : NULL;
	/* glom gives a list of the loop's own; $* is pinned, not copied */
	List *items = NULL;
	if (n->k[1] == NULL)
		items = var_get_pinned(sym_lookup("*", true));
	else if (!for_list(n, &items))
		return;
	/* the list's <{cmd}s stay open for the whole loop, and are not the
	 * body's commands' own (an exec there is not forked): they are the
	 * loop's, which outlasts each command */
	int floor = nmpipe_protect();
	nesting.loops++;
	jobs_loop_enter();
	for (List *l = items; l != NULL; l = l->n) {
		Mark m = nmark();
		if (name == NULL)
			name = one_word(var);
		set(s, name, mklist(l->w, NULL, NULL));
		walk_body(n->k[2]);
		nrelease(m);
		if (loop_skip())
			break;
	}
	jobs_loop_leave();
	nesting.loops--;
	nmpipe_set_floor(floor);
	nmpipe_reap();
}

/* The condition is not inside its own loop: a break there is outside of
 * any loop at the top level, or leaves the loop around this one
 * (counted inside, it would set a break nothing cleared, and every later
 * command would be skipped). */
static void do_while(Node *n)
{
	jobs_loop_enter();
	for (;;) {
		Mark m = nmark();
		bool ok = walk_cond(n->k[0]);
		if (!ok || skipping != SKIP_NONE) {
			nrelease(m);
			break;
		}
		nesting.loops++;
		walk_body(n->k[1]);
		nesting.loops--;
		nrelease(m);
		if (loop_skip())
			break;
	}
	jobs_loop_leave();
}

/* The body is a chain of nSeq (parse.c, case_list): an empty command
 * (NULL) in it sets $status to 0 as any command.  The subject is not
 * globbed, as a ~ subject is not: switch (*) {case '*'} matches, whatever
 * files there are. */
static void do_switch(Node *n)
{
	List *subject = glom_noglob(n->k[0]);
	bool running = false;
	for (Node *rest = n->k[1]; rest != NULL; rest = rest->k[1]) {
		Node *c = rest->k[0];
		if (c != NULL && c->type == nCase) {
			if (running)
				break;
			/* $status stays as it was, also when a case
			 * matches: a case is no command */
			running = list_match(subject, glom_noglob(c->k[0]));
			continue;
		}
		if (running) {
			walk(c, WALK_SHELL);
			if (skipping != SKIP_NONE)
				break;
		}
	}
}

static void newfn(Node *n)
{
	List *names = glom_noglob(n->k[0]);
	if (names == NULL)
		rc_error("null function name");
	for (; names != NULL; names = names->n) {
		if (flag.x) {	/* one definition per name: what it runs */
			Str s = { 0 };
			tree_print(&s, mk(nNewfn, mk(nList, mkword(names->w, true), NULL, NULL), n->k[1], NULL));
			str_addc(&s, '\n');
			writeall(2, s.buf, s.len);
			free(s.buf);
		}
		fn_define(names->w, n->k[1]);
	}
	status_set(0);
}

static void rmfn(Node *n)
{
	for (List *names = glom_noglob(n->k[0]); names != NULL; names = names->n) {
		if (flag.x) {
			Str s = { 0 };
			str_adds(&s, "fn ");
			str_quote(&s, names->w);
			str_addc(&s, '\n');
			writeall(2, s.buf, s.len);
			free(s.buf);
		}
		fn_delete(names->w);
	}
	status_set(0);
}

/* An empty command beside && or || is a success: "a && && b". */
/* a && b || c ...: the chain leans left and can be as long as the input,
 * so it is run in a loop, every command but the last as a condition.
 * Returns the last command if it is to run. */
static Node *andor_chain(Node *n)
{
	int count = 0;
	Node *p;
	for (p = n; p != NULL && (p->type == nAnd || p->type == nOr); p = p->k[0])
		count++;
	Node **links = nalloc(count * sizeof *links);
	int i = count;
	for (p = n; p != NULL && (p->type == nAnd || p->type == nOr); p = p->k[0])
		links[--i] = p;
	Node *last = NULL;
	cond_depth++;
	walk(p, WALK_SHELL);
	for (i = 0; i < count && skipping == SKIP_NONE; i++) {
		if (status_true() != (links[i]->type == nAnd))
			continue;
		if (i == count - 1 && links[i]->k[1] != NULL)
			last = links[i]->k[1];
		else
			walk(links[i]->k[1], WALK_SHELL);
	}
	cond_depth--;
	return last;
}

typedef struct {
	Node *n;
	Parent parent;
} Walk;

static void walk_of(void *p)
{
	Walk *w = p;
	walk(w->n, w->parent);
}

/* Run fn(arg) in a guarded frame (state.c): a builtin, function or
 * compound command whose redirections the shell has made for it, or a
 * command after a redirection.  An error in it ends only it, with status
 * 1.  Returns false after such an error.  It is a process of its own as
 * far as the script can tell: the lines an eval in it counts, and what
 * its ifs and if nots did, are lost with it (a later if not pairs as
 * before).  wait_floor: the first saved redirection whose here document a
 * wait in it takes (the frame's, rc.h), or WAIT_FLOOR_INHERITED. */
bool walk_guarded(void (*fn)(void *), void *arg, int wait_floor)
{
	int conds = cond_depth, line = lineno, was_if = last_if;
	Catch c;
	catch_push(&c);
	int frame = frame_push(wait_floor);
	if (sigsetjmp(c.buf, 0) == 0) {
		fn(arg);
		sig_exit_guarded();
		catch_pop(&c);
		frame_pop(frame);
		lineno = line;
		last_if = was_if;
		return true;
	}
	frame_pop(frame);
	cond_depth = conds;
	lineno = line;
	last_if = was_if;
	if (catch_raised != eError)
		rc_raise(catch_raised);
	status_fail();
	return false;
}

/* walk_guarded's wait_floor for a body whose redirections start at
 * depth: where more may follow it (WALK_SHELL) the body is a process
 * beside the shell's, whose here documents are its own; as the last
 * command of a process it is part of that process. */
int guard_wait_floor(Parent parent, int depth)
{
	return parent == WALK_SHELL ? depth : WAIT_FLOOR_INHERITED;
}

void walk(Node *n, Parent parent)
{
	stack_check();
top:
	if (sig_pending)
		sig_check();
	if (n == NULL) {	/* no command ("()", "a | ;", "@{}"): true, as {} */
		status_set(0);
		return;
	}
	switch (n->type) {
	case nSimple:
		/* a guarded body's last command: -e tests the body's status */
		if (!run_simple_forgiven(n->k[0], parent) && parent != WALK_GUARD_TAIL)
			check_e();
		return;
	case nRedirs: {
		/* a redirected compound command runs guarded: it is a command
		 * its process starts (no fn sigexit), a process of its own */
		int depth = fd_depth();
		if (parent != WALK_SHELL)
			frame_started();
		Walk w = { n->k[0], parent != WALK_CHILD_TAIL ? WALK_GUARD_TAIL : WALK_CHILD_TAIL };
		if (redir_in_shell(n->k[1])) {
			if (parent == WALK_CHILD_TAIL)
				fd_keep(depth);
			walk_guarded(walk_of, &w, guard_wait_floor(parent, depth));
		} else
			status_fail();
		fd_unwind(depth);
		if (parent != WALK_CHILD_TAIL)
			status_as_child(parent == WALK_GUARD_TAIL);
		if (parent != WALK_GUARD_TAIL)
			check_e();
		return;
	}
	case nAssign: assign(n); return;
	case nLocal: local(n, parent); return;
	case nBrace:
		if (n->k[0] == NULL) {
			status_set(0);
			return;
		}
		n = n->k[0];
		goto top;
	case nSeq:
		walk(n->k[0], WALK_SHELL);
		if (skipping != SKIP_NONE)
			return;
		if (n->k[1] == NULL) {	/* a line ending in ';' (parse.c, list) */
			status_set(0);
			return;
		}
		n = n->k[1];
		goto top;
	case nAsync: async(n); return;
	case nAnd: case nOr:
		if ((n = andor_chain(n)) == NULL)
			return;
		goto top;
	case nBang:
		walk(n->k[0], WALK_SHELL);
		if (skipping != SKIP_NONE)
			return;	/* ! break: the status the break left */
		status_set_bool(!status_true());
		check_e();
		return;
	case nSubshell: subshell(n, parent); return;
	case nPipe: pipeline(n); return;
	case nIf: do_if(n, parent); return;
	case nIfnot: ifnot(n, parent); return;
	case nFor: do_for(n); return;
	case nWhile: do_while(n); return;
	case nSwitch: do_switch(n); return;
	case nMatch: {
		List *subject = glom(n->k[0]), *patterns = glom_noglob(n->k[1]);
		if (flag.x)
			trace_list("~ ", subject, patterns, true);
		status_set_bool(list_match(subject, patterns));
		check_e();	/* -e: a failing ~ ends the shell, as any command */
		return;
	}
	case nNewfn: newfn(n); return;
	case nRmfn: rmfn(n); return;
	case nCase:
		return;
	default:
		rc_error("internal error: cannot run node %d", n->type);
	}
}
