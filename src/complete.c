/* SPDX-License-Identifier: Zlib */
/* complete.c: the completers written in rc that the editor runs for a
 * command's arguments (LeCompleter).  The completer of git is fn
 * complete_git, defined by the user or, when it is not, read from the file
 * git in the first of $completers' directories that has one.  It runs as a
 * backquote does, in a child, given the words typed; each line it prints
 * is a candidate.
 *
 * Nothing is parsed in the shell itself: completion runs inside the
 * editor, in the middle of the lexer's reading of a line, and a parse would
 * take the lexer from under it.  So the child reads the file (`. file')
 * before it calls the function, at every Tab: a few hundred microseconds
 * for a file of a page. */
#include "rc.h"
#include "../lineedit/le.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The completers whose messages were shown once: a completer that fails
 * says so at its first Tab, not at every one.  A key names the function's
 * body (redefined, it is a new completer) or the file and its mtime. */
static char **reported;
static size_t nreported, maxreported;

/* Where a completer's standard error goes, to be shown once (a file of the
 * shell's own, emptied before each run). */
static int errors_fd = -1;

static bool was_reported(const char *key)
{
	for (size_t i = 0; i < nreported; i++)
		if (strcmp(reported[i], key) == 0)
			return true;
	return false;
}

static void note_reported(const char *key)
{
	reported = egrow(reported, &maxreported, nreported + 1, sizeof *reported);
	reported[nreported++] = estrdup(key);
}

/* The file that defines complete_CMD: CMD in the first directory of
 * $completers that has it.  Its key gets the file's mtime. */
static char *completer_file(const char *cmd, char **key)
{
	for (List *d = var_get("completers"); d != NULL; d = d->n) {
		if (d->w[0] == '\0')
			continue;
		char *path = nfmt("%s/%s", d->w, cmd);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			*key = nfmt("%s %lld %ld", path, (long long) st.st_mtim.tv_sec,
				(long) st.st_mtim.tv_nsec);
			return path;
		}
	}
	return NULL;
}

static Node *word_list(const char *const *words, int n)
{
	Node *list = NULL;
	for (int i = n - 1; i >= 0; i--)
		list = mk(nList, mkword(nstrdup(words[i]), true), list, NULL);
	return list;
}

static int errors_file(void)
{
	if (errors_fd >= 0)
		return errors_fd;
	const char *dir = getenv("TMPDIR");
	char *name = nfmt("%s/rc-complete.XXXXXX", dir != NULL && *dir != '\0' ? dir : "/tmp");
	int fd = mkstemp(name);
	if (fd < 0)
		return -1;
	unlink(name);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	errors_fd = fd_move_high(fd);
	return errors_fd;
}

/* { . file; complete_CMD words } <[0]/dev/null >[2=errors]: no reading of
 * the terminal the editor holds; what goes to standard error is kept. */
static Node *completer_call(const char *fname, const char *file,
	const char *const *words, int n, int errors)
{
	Node *call = mk(nSimple, mk(nList, mkword(fname, true), word_list(words, n), NULL),
		NULL, NULL);
	if (file != NULL) {
		Node *dot = mk(nSimple, word_list((const char *const[]) { ".", file }, 2),
			NULL, NULL);
		call = mk(nBrace, mk(nSeq, dot, call, NULL), NULL, NULL);
	}
	Node *redirs = mk(nList, mkredir(rFrom, 0, 0, mkword("/dev/null", true)), NULL, NULL);
	if (errors >= 0)
		redirs->k[1] = mk(nList, mkredir(rDup, 2, errors, NULL), NULL, NULL);
	return mk(nRedirs, call, redirs, NULL);
}

/* Show what the completer wrote on its standard error, the first time.
 * Returns whether something was written on the terminal. */
static bool report_errors(int errors, const char *key)
{
	struct stat st;
	if (errors < 0 || fstat(errors, &st) != 0 || st.st_size == 0 ||
	    was_reported(key))
		return false;
	note_reported(key);
	char buf[4096];
	ssize_t k;
	for (off_t at = 0; (k = pread(errors, buf, sizeof buf, at)) > 0; at += k)
		writeall(2, buf, (size_t) k);
	return true;
}

/* Each line of out, a candidate. */
static void each_line(Str *out, LeNameFn *each, void *ctx)
{
	str_addc(out, '\0');
	for (char *p = out->buf, *nl; p < out->buf + out->len - 1; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = out->buf + out->len - 1;
		*nl = '\0';
		if (*p != '\0')
			each(p, ctx);
	}
}

/* Run the completer, with ^C let in: it reaches the child (which it
 * ends), and the editor, which abandons the line when the child is done. */
static bool run(Node *body, Str *out, int errors)
{
	if (errors >= 0 && (ftruncate(errors, 0) != 0 || lseek(errors, 0, SEEK_SET) != 0))
		errors = -1;
	sigset_t intr, old;
	sigemptyset(&intr);
	sigaddset(&intr, SIGINT);
	sigprocmask(SIG_UNBLOCK, &intr, &old);
	Catch c;
	bool ok = false;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		backquote_output(body, out);
		catch_pop(&c);
		ok = true;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static LeCompleted complete_words(const char *const *words, int n,
	LeNameFn *each, void *ctx)
{
	const char *cmd = strrchr(words[0], '/');
	cmd = cmd != NULL ? cmd + 1 : words[0];
	if (*cmd == '\0' || strcmp(cmd, ".") == 0 || strcmp(cmd, "..") == 0)
		return LE_NO_COMPLETER;
	Mark m = nmark();
	char *fname = nfmt("complete_%s", cmd), *key = NULL, *file = NULL;
	if (fn_defined(fname)) {
		Sym *s = sym_lookup(fname, false);	/* its body, or imported text */
		key = nfmt("fn %llx %llx", (unsigned long long) (uintptr_t) s->fn,
			(unsigned long long) (uintptr_t) s->fndef);
	} else if ((file = completer_file(cmd, &key)) == NULL) {
		nrelease(m);
		return LE_NO_COMPLETER;
	}
	StatusCopy saved = status_save();
	int errors = errors_file();
	Str out = { 0 };
	bool ran = run(completer_call(fname, file, words, n, errors), &out, errors);
	status_restore(saved);
	bool spoke = !ran || report_errors(errors, key);
	if (ran && out.len > 0)
		each_line(&out, each, ctx);
	free(out.buf);
	nrelease(m);
	return spoke ? LE_COMPLETER_SPOKE : LE_COMPLETER_RAN;
}

/* The source tree's completers, for the rc of a build tree, which
 * completes before it is installed: the build writes where they are in
 * the file completers-dir beside the program (the installed program has
 * none; and no path of the build is in the program).  NULL if none. */
static char *build_tree_completers(void)
{
	char exe[4096], dir[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	int fd = open(nfmt("%s/completers-dir", exe), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, dir, sizeof dir - 1);
	close(fd);
	if (n <= 0 || dir[0] != '/')
		return NULL;
	dir[n] = '\0';
	dir[strcspn(dir, "\n")] = '\0';
	return nstrdup(dir);
}

/* $completers, unless the environment gave it: the user's directory, then
 * the shell's. */
void completers_default(void)
{
	if (var_get("completers") != NULL)
		return;
	List *home = var_get("home");
	char *shipped = build_tree_completers();
	List *dirs = mklist(shipped != NULL ? shipped : nstrdup(RC_COMPLETERS), NULL, NULL);
	if (home != NULL)
		dirs = mklist(nfmt("%s/.config/rc/complete", home->w), NULL, dirs);
	var_set("completers", dirs);
}

void completers_offer(void)
{
	le_set_completer(complete_words);
}
