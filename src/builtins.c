/* SPDX-License-Identifier: Zlib */
/* builtins.c: the builtin commands, one table. */
#include "rc.h"
#include "sys.h"
#include "../lineedit/le.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool too_many(List *args, int max)
{
	if (list_len(args) - 1 > max) {
		print_error("rc: too many arguments to %s", args->w);
		status_fail();
		return true;
	}
	return false;
}

/* A word of digits alone, as rc 1.7.4 takes it: no sign or blank; the
 * empty word is 0, and a number too large stays at the largest (shift
 * then cannot shift, wait finds no such child). */
static bool number(const char *w, long *n)
{
	*n = 0;
	for (const char *c = w; *c != '\0'; c++) {
		if (*c < '0' || *c > '9') {
			print_error("rc: `%s' is a bad number", w);
			status_fail();
			return false;
		}
		int d = *c - '0';
		*n = *n > (LONG_MAX - d) / 10 ? LONG_MAX : *n * 10 + d;
	}
	return true;
}

static void b_echo(List *args)
{
	bool nl = true;
	args = args->n;
	if (args != NULL && strcmp(args->w, "-n") == 0) {
		nl = false;
		args = args->n;
	} else if (args != NULL && strcmp(args->w, "--") == 0)
		args = args->n;
	Str s = { 0 };
	for (; args != NULL; args = args->n) {
		str_adds(&s, args->w);
		if (args->n != NULL)
			str_addc(&s, ' ');
	}
	if (nl)
		str_addc(&s, '\n');
	if (builtin_put("echo", &s))
		status_set(0);
	free(s.buf);
}

static bool try_cd(const char *dir)
{
	return chdir(dir) == 0;
}

static void b_cd(List *args)
{
	if (too_many(args, 1))
		return;
	const char *dir;
	if (args->n == NULL) {
		List *home = var_get("home");
		dir = home != NULL ? home->w : "/";
	} else
		dir = args->n->w;
	bool direct = dir[0] == '/' || strncmp(dir, "./", 2) == 0 || strncmp(dir, "../", 3) == 0 ||
		strcmp(dir, ".") == 0 || strcmp(dir, "..") == 0;
	List *cdpath = var_get("cdpath");
	if (direct || cdpath == NULL) {
		if (!try_cd(dir)) {
			int err = errno;
			status_fail();
			if (direct || args->n == NULL) {
				check_e();	/* 1.7.4 fails first: -e leaves silently */
				print_error("rc: %s: %s", dir, strerror(err));
			} else
				print_error("couldn't cd to %s", dir);
			return;
		}
		status_set(0);
		return;
	}
	for (; cdpath != NULL; cdpath = cdpath->n) {
		/* / is not doubled (//tmp), other trailing slashes are (/usr//lib) */
		const char *full = !*cdpath->w ? dir : strcmp(cdpath->w, "/") == 0 ?
			nfmt("/%s", dir) : nfmt("%s/%s", cdpath->w, dir);
		if (try_cd(full)) {
			if (*cdpath->w && strcmp(cdpath->w, ".") != 0 && interactive)
				fprint(1, "%s\n", full);
			status_set(0);
			return;
		}
	}
	print_error("couldn't cd to %s", dir);
	status_fail();
}

static void b_eval(List *args)
{
	input_run_string(list_flat(args->n, " "));
}

/* The history tools, after rc's history(1) programs of those names:
 * - runs again the newest command of $history that the arguments match,
 * -p prints it, -- and --p let $VISUAL or $EDITOR edit it first, -l lists
 * every command they match.  history.c says how they match. */
static void history_run(const char *text)
{
	fprint(2, "%s\n", text);
	history_add(text);
	input_run_string(text);
}

static void history_print(const char *tool, Str *s)
{
	str_addc(s, '\n');
	if (builtin_put(tool, s))
		status_set(0);
}

/* $VISUAL, else $EDITOR, else vi: its words joined are rc code, as fc
 * takes $FCEDIT, so that both EDITOR='emacs -nw' from the environment
 * and a list of words are a command with its arguments. */
static char *editor_command(void)
{
	List *v = var_get("VISUAL");
	if (v == NULL || *v->w == '\0')
		v = var_get("EDITOR");
	return v != NULL && *v->w != '\0' ? list_flat(v, " ") : "vi";
}

/* The editor on the file.  The file goes also when an error or ^C
 * (without job control) ends it. */
static void run_editor(const char *file)
{
	Str cmd = { 0 };
	str_fmt(&cmd, "%s ", editor_command());
	str_quote(&cmd, file);
	Catch c;
	int e = 0;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		input_run_string(cmd.buf);
		catch_pop(&c);
	} else
		e = catch_raised;
	free(cmd.buf);
	if (e != 0) {
		unlink(file);
		rc_raise(e);
	}
}

/* Let the user's editor change s in a private file (mode 0600, removed
 * after): EDIT_DONE with s the saved text less its last newlines,
 * EDIT_FAILED if the editor failed or its file could not be read,
 * EDIT_NO_FILE if none could be written (reported, with tool's name if
 * not NULL).  An error or ^C in the editor is raised again. */
EditResult edit_text(const char *tool, Str *s)
{
	List *dir = var_get("TMPDIR");
	char *name = nfmt("%s/rc-edit.XXXXXX", dir != NULL && *dir->w != '\0' ? dir->w : "/tmp");
	int fd = mkstemp_cloexec(name);
	if (fd < 0 || writeall(fd, s->buf, s->len) < 0 || writeall(fd, "\n", 1) < 0) {
		if (tool != NULL)
			print_error("rc: %s: %s: %s", tool, name, strerror(errno));
		else
			print_error("rc: %s: %s", name, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(name);
		}
		status_fail();
		return EDIT_NO_FILE;
	}
	close(fd);
	run_editor(name);
	bool ok = status_true() && (fd = open(name, O_RDONLY | O_CLOEXEC)) >= 0;
	unlink(name);
	if (!ok)
		return EDIT_FAILED;
	s->len = 0;
	char buf[INPUT_CHUNK];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		str_add(s, buf, n);
	close(fd);
	while (s->len > 0 && s->buf[s->len - 1] == '\n')
		s->len--;	/* the editor's last newline, and blank lines */
	str_addc(s, '\0');
	s->len--;
	return EDIT_DONE;
}

static void history_tool(List *args, bool edit, bool print)
{
	Str s = { 0 };
	if (!history_pick(args->w, args->n, &s))
		status_fail();
	else if (edit && edit_text(args->w, &s) != EDIT_DONE)
		;	/* the editor's status stays */
	else if (s.len == 0)
		status_set(0);	/* the editor left nothing */
	else if (print)
		history_print(args->w, &s);
	else
		history_run(s.buf);
	free(s.buf);
}

static void b_rerun(List *args) { history_tool(args, false, false); }
static void b_rerun_print(List *args) { history_tool(args, false, true); }
static void b_rerun_edit(List *args) { history_tool(args, true, false); }
static void b_rerun_edit_print(List *args) { history_tool(args, true, true); }

static void b_history_list(List *args)
{
	Str s = { 0 };
	if (!history_matching(args->n, &s))
		status_fail();
	else if (builtin_put(args->w, &s))
		status_set(0);
	free(s.buf);
}

static void b_exit(List *args)
{
	if (!jobs_may_exit())
		return;		/* stopped jobs: warned once */
	if (args->n != NULL && !status_from_words(args->n))
		status_fail();
	rc_exit(status_exit_code());
}

/* jobs, fg and bg: job control's (jobs.c). */
static void b_jobs(List *args)
{
	if (too_many(args, 0))
		return;
	Str s = { 0 };
	jobs_show(&s);
	if (builtin_put("jobs", &s))
		status_set(0);
	free(s.buf);
}

static void b_fg(List *args)
{
	if (!too_many(args, 1))
		job_fg(args->n);
}

static void b_bg(List *args)
{
	job_bg(args->n);
}

static void b_return(List *args)
{
	if (args->n != NULL && !status_from_words(args->n)) {
		status_fail();		/* "bad status", then it returns all the same */
		check_e();		/* or, under -e, the shell leaves, as 1.7.4's */
	}
	if (nesting.funcs == 0)
		rc_error("return outside of function");
	skipping = SKIP_RETURN;
}

static void loop_control(List *args, int skip)
{
	if (too_many(args, 0))
		return;
	if ((skip == SKIP_BREAK ? nesting.loops : nesting.loops % FOR_LIST) == 0)
		rc_error("%s outside of loop", args->w);
	skipping = skip;
}

static void b_break(List *args) { loop_control(args, SKIP_BREAK); }
static void b_continue(List *args) { loop_control(args, SKIP_CONTINUE); }

static void b_shift(List *args)
{
	if (too_many(args, 1))
		return;
	long n = 1;
	if (args->n != NULL && !number(args->n->w, &n))
		return;
	List *a = args_get();
	if (n > list_len(a)) {
		print_error("rc: cannot shift");
		status_fail();
		return;
	}
	while (n-- > 0)
		a = a->n;
	List *copy = NULL, **tail = &copy;
	for (; a != NULL; a = a->n) {
		*tail = mklist(a->w, NULL, NULL);
		tail = &(*tail)->n;
	}
	args_set(copy);
	status_set(0);
}

static void b_umask(List *args)
{
	if (too_many(args, 1))
		return;
	if (args->n == NULL) {
		mode_t m = umask(0);
		umask(m);
		Str s = { 0 };
		str_fmt(&s, "0%o\n", (unsigned) m);
		if (builtin_put("umask", &s))
			status_set(0);
		free(s.buf);
		return;
	}
	/* octal digits only, as in rc 1.7.4: no sign or blank, and the empty
	 * word is 0 */
	unsigned m = 0;
	const char *w = args->n->w;
	for (; *w >= '0' && *w <= '7' && m <= 0777; w++)
		m = m * 8 + (unsigned) (*w - '0');
	if (*w != '\0' || m > 0777) {
		print_error("bad umask");
		status_fail();
		return;
	}
	umask(m);
	status_set(0);
}

/* wait: for every child, or for each pid named (an extension: 1.7.4 takes
 * one).  A signal the shell handles ends it with status 1, as in rc 1.7.4;
 * its handler (or the interrupt) comes next. */
static void b_wait(List *args)
{
	if (args->n == NULL) {
		pid_t pid;
		int w, last = 0;
		bool any = false, writers = fd_writers();
		nmpipe_wait_own();
		while ((w = child_wait_any(&pid)) >= 0) {
			status_report(pid, w, true);
			last = w;
			any = true;
		}
		if (w == WAIT_SIGNAL)
			status_fail();
		else if (any)		/* with no children $status stays, as in 1.7.4 */
			status_set(last);
		else if (writers)	/* see fd_writers */
			status_set(0);
		return;
	}
	int n = list_len(args->n), i = 0;
	pid_t *pids = nalloc(n * sizeof *pids);
	for (List *a = args->n; a != NULL; a = a->n) {
		long p;
		if (!number(a->w, &p))
			return;
		if (!child_is(p)) {
			print_error("rc: wait: No child processes");
			status_fail();
			return;
		}
		pids[i++] = p;
	}
	int *w = nalloc(n * sizeof *w);
	for (i = 0; i < n; i++) {
		if (!child_wait_for(pids[i], &w[i])) {
			status_fail();
			return;
		}
		status_report(pids[i], w[i], true);
	}
	status_set_list(w, n);
}

static void b_newpgrp(List *args)
{
	if (too_many(args, 0))
		return;
	setpgid(0, 0);
	if (isatty(2))
		tcsetpgrp(2, getpgrp());
	/* $status stays, as in rc 1.7.4 */
}

static void b_dot(List *args)
{
	args = args->n;
	bool inter = false;
	if (args != NULL && strcmp(args->w, "-i") == 0) {
		inter = true;
		args = args->n;
	}
	if (args == NULL)
		return;		/* $status stays, as in rc 1.7.4 */
	dot_file(args, inter, false);
}

/* start_up: the login shell's start-up file, which messages name. */
void dot_file(List *args, bool inter, bool start_up)
{
	int fd = open(args->w, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		print_error("rc: %s: %s", args->w, strerror(errno));
		status_fail();
		check_e();	/* . is not tested as a whole (builtin_runs_commands) */
		return;
	}
	fd = fd_move_high(fd);
	bool saved = interactive;
	interactive = inter;
	const char *outer_file = start_up_file_set(start_up ? args->w : NULL);
	var_push_local("*", args->n);
	var_push_local("0", mklist(args->w, NULL, NULL));
	Catch c;
	int e = 0;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		input_run_fd(fd, inter);
		catch_pop(&c);
	} else
		e = catch_raised;
	var_pop_local();
	var_pop_local();
	interactive = saved;
	start_up_file_set(outer_file);
	close(fd);
	if (e != 0)
		rc_raise(e);
}

/* flag f [+|-]: e i n v x may be set; c d l o p s only tested. */
static const struct { char letter; bool *var; bool settable; } flag_table[] = {
	{ 'c', &flag.c, false }, { 'd', &flag.d, false }, { 'e', &flag.e, true },
	{ 'i', &interactive, true }, { 'l', &flag.l, false }, { 'n', &flag.n, true },
	{ 'o', &flag.o, false }, { 'p', &flag.p, false }, { 's', &flag.s, false },
	{ 'v', &flag.v, true }, { 'x', &flag.x, true },
};

static void b_flag(List *args)
{
	int n = list_len(args->n);
	if (n == 0) {
		print_error("rc: not enough arguments to flag");
		status_fail();
		return;
	}
	const char *f = args->n->w;
	/* words after the + or - are ignored, as in rc 1.7.4 */
	const char *mode = n >= 2 ? args->n->n->w : NULL;
	if ((mode && strcmp(mode, "+") != 0 && strcmp(mode, "-") != 0) || strlen(f) != 1) {
		print_error("usage: flag f [ + | - ]");
		status_fail();
		return;
	}
	size_t i = 0;
	while (i < sizeof flag_table / sizeof *flag_table && flag_table[i].letter != *f)
		i++;
	if (i == sizeof flag_table / sizeof *flag_table) {
		fprint(2, "rc: unknown flag");	/* no newline, as in rc 1.7.4 */
		status_fail();
		return;
	}
	if (mode == NULL) {
		status_set_bool(*flag_table[i].var);
		return;
	}
	if (!flag_table[i].settable) {
		print_error("rc: flag immutable");
		status_fail();
		return;
	}
	*flag_table[i].var = *mode == '+';
	status_set(0);
}

/* read name: one line of standard input into the variable, without its
 * newline, taking nothing after it (see read.c).  Any other form is Plan
 * 9's read(1), which scripts written for rc run as a program (x=`{read},
 * read -m): the builtin must not hide it.  The one form both could mean,
 * one word, is a variable when $ can name it (read line) and a file
 * otherwise (read /dev/x, read notes.txt). */
static bool read_names_variable(List *args)
{
	return args != NULL && args->n == NULL && is_varname(args->w);
}

static void read_variable(const char *name)
{
	Str *line = str_held();	/* a ^C while it waits unwinds past it */
	read_line(0, line);	/* an error ends the input, as its end does */
	bool got = line->len > 0;
	if (got && line->buf[line->len - 1] == '\n')
		line->len--;
	var_set(name, got ? mklist(nstrndup(line->buf, line->len), NULL, NULL) : NULL);
	status_set_bool(got);
}

/* read(1): what to copy, and whether some input ended before giving any
 * of it (read(1)'s false status). */
typedef struct {
	bool all;		/* -m: every line */
	bool bytes;		/* -c: count is of bytes, not lines */
	long long count;	/* -n, -c */
	bool ended;
} ReadCopy;

static bool read_failed(const char *name)
{
	print_error("read: error reading %s: %s", name, strerror(errno));
	status_fail();
	return false;
}

/* Lines, each written whole, as read(1) writes each with one write: all
 * of them (-m), or count of them, at least one.  False if it failed. */
static bool read_copy_lines(int fd, const char *name, ReadCopy *o)
{
	Str *line = str_held();	/* a ^C while it waits unwinds past it */
	long long left = o->count > 1 ? o->count : 1;
	bool ok = true, ended = false;
	do {
		line->len = 0;
		int r = read_line(fd, line);
		if (r < 0)
			ok = read_failed(name);
		else if (r == 0)
			ended = true;
		else
			ok = builtin_put("read", line);
	} while (ok && !ended && (o->all || --left > 0));
	o->ended |= ended;
	return ok;
}

/* Up to count bytes, as they come (read -c): a pipe or terminal may give
 * fewer at a time. */
static bool read_copy_bytes(int fd, const char *name, ReadCopy *o)
{
	char buf[8192];
	for (long long done = 0; done < o->count;) {
		long long want = o->count - done;
		ssize_t r = read_bytes(fd, buf, want < (long long) sizeof buf ? (size_t) want : sizeof buf);
		if (r < 0)
			return read_failed(name);
		if (r == 0) {
			o->ended |= done == 0;
			break;
		}
		Str chunk = { buf, r, 0 };
		if (!builtin_put("read", &chunk))
			return false;
		done += r;
	}
	return true;
}

static bool read_copy(int fd, const char *name, ReadCopy *o)
{
	return o->bytes ? read_copy_bytes(fd, name, o) : read_copy_lines(fd, name, o);
}

/* A file named to read(1): the first that cannot be opened ends it. */
static bool read_copy_file(const char *path, ReadCopy *o)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		print_error("read: can't open %s: %s", path, strerror(errno));
		status_fail();
		return false;
	}
	Catch c;
	int e = 0;
	bool ok = false;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		ok = read_copy(fd, path, o);
		catch_pop(&c);
	} else
		e = catch_raised;	/* a handler's error, an interrupt */
	close(fd);
	read_forget();	/* fd's number will be another file's */
	if (e != 0)
		rc_raise(e);
	return ok;
}

/* read(1)'s options, taken as Plan 9's programs take them: letters may
 * share a word (-mn2), a number follows its letter in the same word or is
 * the next word, and -- ends them.  The last number counts, and counts
 * bytes once -c is given (as in 9front's read).  False after the usage
 * message. */
static bool read_options(List **args, ReadCopy *o)
{
	List *a = *args;
	for (; a != NULL && a->w[0] == '-' && a->w[1] != '\0'; a = a->n) {
		if (strcmp(a->w, "--") == 0) {
			a = a->n;
			break;
		}
		for (const char *f = a->w + 1; *f != '\0'; f++) {
			if (*f == 'm') {
				o->all = true;
				continue;
			}
			const char *num = NULL;
			if (*f == 'n' || *f == 'c')
				num = f[1] != '\0' ? f + 1 : a->n != NULL ? (a = a->n)->w : NULL;
			if (num == NULL) {
				print_error("usage: read [-m] [-n nlines] [-c nbytes] [file ...]");
				status_fail();
				return false;
			}
			o->bytes |= *f == 'c';
			o->count = strtoll(num, NULL, 10);
			break;
		}
	}
	*args = a;
	return true;
}

static void b_read(List *args)
{
	if (read_names_variable(args->n)) {
		read_variable(args->n->w);
		return;
	}
	ReadCopy o = { 0 };
	List *files = args->n;
	if (!read_options(&files, &o))
		return;
	bool ok = files != NULL || read_copy(0, "<stdin>", &o);
	for (; ok && files != NULL; files = files->n)
		ok = read_copy_file(files->w, &o);
	if (ok)
		status_set_bool(!o.ended);
}

static void b_limit(List *args)
{
	int r = limit_builtin(args->n);
	if (r != LIMIT_SHOWN)
		status_set_bool(r == 0);
}

/* builtin with nothing to run is a null command, which rc 1.7.4 runs in a
 * child: $status stays, as the child's exit status (one value).  (exec
 * with nothing to run leaves it: run_words runs exec.) */
static void b_builtin(List *args)
{
	(void) args;
	status_as_exit();
}

static void b_whatis(List *args);

static const struct { const char *name; Builtin *fn; } builtins[] = {
	{ "-", b_rerun }, { "--", b_rerun_edit }, { "--p", b_rerun_edit_print },
	{ "-l", b_history_list }, { "-p", b_rerun_print }, { ".", b_dot }, { "bg", b_bg },
	{ "break", b_break }, { "builtin", b_builtin },
	{ "cd", b_cd }, { "continue", b_continue }, { "echo", b_echo }, { "eval", b_eval },
	{ "exec", b_builtin }, { "exit", b_exit }, { "fg", b_fg }, { "flag", b_flag },
	{ "jobs", b_jobs }, { "limit", b_limit }, { "newpgrp", b_newpgrp }, { "read", b_read },
	{ "return", b_return }, { "shift", b_shift }, { "umask", b_umask },
	{ "wait", b_wait }, { "whatis", b_whatis },
};

/* eval and . run commands of their own, which -e tests as each sets
 * $status: as with a function, not the whole again (rc 1.7.4 tests -e only
 * as it sets $status, and these set none of their own). */
bool builtin_runs_commands(Builtin *b)
{
	return b == b_eval || b == b_dot || b == b_rerun || b == b_rerun_edit;
}

/* Job control's builtins exist only where it is on (jobs_visible), the
 * history tools only in a shell that reads what is typed and its children
 * (typed_session): a script may run programs of their names. */
static bool exists(Builtin *b)
{
	if (b == b_jobs || b == b_fg || b == b_bg)
		return jobs_visible();
	if (b == b_rerun || b == b_rerun_edit || b == b_rerun_print ||
	    b == b_rerun_edit_print || b == b_history_list)
		return typed_session();
	return true;
}

Builtin *builtin_get(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return exists(builtins[i].fn) ? builtins[i].fn : NULL;
	return NULL;
}

void builtin_each(void (*f)(const char *name, void *ctx), void *ctx)
{
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		if (exists(builtins[i].fn))
			f(builtins[i].name, ctx);
}

/* whatis: re-readable definitions. */
enum { W_B = 1, W_F = 2, W_P = 4, W_S = 8, W_V = 16, W_E = 32 };

static void show_var(Str *s, const char *name, List *val)
{
	var_print(s, name, val);
	str_addc(s, '\n');
}

static void show_fn(Str *s, const char *name, Node *fn)
{
	str_adds(s, "fn ");
	str_quote(s, name);
	if (fn != NULL) {
		str_addc(s, ' ');
		tree_print_body(s, fn);
	}
	str_addc(s, '\n');
}

/* *err: why the last file the name was looked up as cannot be run (0: none
 * was). */
static bool whatis_one(Str *s, const char *name, int flags, int *err)
{
	bool found = false;
	*err = 0;
	List *v = var_get(name);
	if ((flags & W_V) && v != NULL) {
		show_var(s, name, v);
		found = true;
	}
	/* $* always exists in rc 1.7.4: empty, it is found and shows nothing */
	if ((flags & W_V) && strcmp(name, "*") == 0)
		found = true;
	/* -s looks for functions that are signal handlers (not sigexit) */
	bool fns = (flags & W_F) || ((flags & W_S) && sig_by_name(name) != 0);
	Node *fn;
	if (fns && (fn = fn_get(name)) != NULL) {
		show_fn(s, name, fn);
		return true;
	}
	if ((flags & W_B) && builtin_get(name) != NULL) {
		str_fmt(s, "builtin %s\n", name);
		return true;
	}
	char *path;
	if ((flags & W_P) && (path = path_which(name, err)) != NULL) {
		str_fmt(s, "%s\n", path);
		return true;
	}
	return found;
}

static void whatis_all(Str *s, int flags)
{
	int n;
	Sym **syms = sym_all(&n);
	if (flags & W_V)
		for (int i = 0; i < n; i++) {
			/* $0 is left out, as in rc 1.7.4; $* is not */
			List *v = var_get((syms[i])->name);
			if (v != NULL && strcmp((syms[i])->name, "0") != 0)
				show_var(s, (syms[i])->name, v);
		}
	if (flags & W_F)
		for (int i = 0; i < n; i++) {
			const char *name = (syms[i])->name;
			Node *fn = is_signal_fn(name) ? NULL : fn_get(name);
			if (fn != NULL)
				show_fn(s, name, fn);
		}
	if (flags & W_S)
		for (int sig = 1; sig < NSIG; sig++)
			show_fn(s, signame(sig), fn_get(signame(sig)));
}

/* whatis -e: "none", or the library in use, how it was loaded and the
 * file it came from (when known). */
static void whatis_editor(Str *s)
{
	const char *words[3];
	le_editor_info(words);
	str_quote(s, words[0]);
	for (size_t i = 1; i < sizeof words / sizeof words[0] && words[i] != NULL; i++) {
		str_addc(s, ' ');
		str_quote(s, words[i]);
	}
	str_addc(s, '\n');
}

static void b_whatis(List *args)
{
	int flags = 0;
	args = args->n;
	/* a lone - is a name to look up, as in the reference */
	for (; args != NULL && args->w[0] == '-' && args->w[1] != '\0'; args = args->n) {
		if (strcmp(args->w, "--") == 0) {
			args = args->n;
			break;
		}
		for (const char *f = args->w + 1; *f; f++) {
			const char *opts = "bfpsve", *o = strchr(opts, *f);
			if (o == NULL) {
				print_error("whatis: bad option: -%c", *f);
				status_fail();
				return;
			}
			flags |= 1 << (o - opts);
		}
	}
	bool ok = true;
	Str s = { 0 };
	if (flags & W_E) {	/* not in rc 1.7.4: the line editor in use */
		whatis_editor(&s);
		flags &= ~W_E;
		if (flags == 0 && args == NULL) {
			if (builtin_put("whatis", &s))
				status_set_bool(true);
			free(s.buf);
			return;
		}
	}
	if (args == NULL) {
		if (flags == W_P) {
			print_error("whatis -p: must specify argument");
			status_set(0);
			return;
		}
		whatis_all(&s, flags ? flags : W_V | W_F);
	}
	if (flags == 0)
		flags |= W_B | W_F | W_P | W_V;
	for (; args != NULL; args = args->n) {
		int err;
		if (!whatis_one(&s, args->w, flags, &err)) {
			ok = builtin_put("whatis", &s) && ok;
			s.len = 0;
			if (err != 0 && err != ENOENT)
				print_error("rc: %s: %s", args->w, strerror(err));
			else
				print_error("%s not found", args->w);
			ok = false;
		}
	}
	if (builtin_put("whatis", &s))
		status_set_bool(ok);
	free(s.buf);
}
