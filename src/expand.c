/* SPDX-License-Identifier: Zlib */
/* expand.c: word expansion, turning word expressions into lists: variables,
 * subscripts, concatenation, command substitution, then globbing.  The
 * functions keep rc's own name for it, glom.  Beside command substitution,
 * the named pipes <{cmd} and >{cmd}, which the commands run by walk.c and
 * exec.c close and reap. */
#include "rc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An arena copy of a list: variables may change while it is in use. */
static List *list_copy(const List *l)
{
	List *head = NULL, **tail = &head;
	for (; l != NULL; l = l->n) {
		*tail = mklist(nstrdup(l->w), NULL, NULL);
		tail = &(*tail)->n;
	}
	return head;
}

static char *one_name(Node *n)
{
	return var_name(glom_noglob(n), false);
}

/* The value of the variable a name node names (its symbol cached in the
 * node), for reading only. */
static List *value_of(Node *n)
{
	Sym *s = var_name_sym(n);
	return s != NULL ? var_get_pinned(s) : list_copy(var_get(one_name(n)));
}

/* An arena list of the same words (the words are shared). */
static List *nodes_copy(const List *l)
{
	List *head = NULL, **tail = &head;
	for (; l != NULL; l = l->n) {
		*tail = mklist(l->w, NULL, NULL);
		tail = &(*tail)->n;
	}
	return head;
}

/* $x(subs): each word in O(1) when x has a symbol (see value.c). */
static List *subscript(Node *name, Node *subs)
{
	Sym *sym = var_name_sym(name);
	List *val = sym != NULL ? NULL : var_get(one_name(name));
	size_t len = sym != NULL ? 0 : (size_t) list_len(val);
	List *head = NULL, **tail = &head;
	for (List *s = glom(subs); s != NULL; s = s->n) {
		char *end;
		errno = 0;
		long i = strtol(s->w, &end, 10);
		if (*s->w == '\0' || *end != '\0' || errno != 0 || i <= 0)
			rc_error("bad subscript");
		char *w = NULL;
		if (sym != NULL)
			w = var_word(sym, i);
		else if ((size_t) i <= len) {
			List *v = val;
			while (--i > 0)
				v = v->n;
			w = nstrdup(v->w);
		}
		if (w != NULL) {
			*tail = mklist(w, NULL, NULL);
			tail = &(*tail)->n;
		}
	}
	return head;
}

static size_t count(Node *name)
{
	Sym *s = var_name_sym(name);
	return s != NULL ? var_count(s) : (size_t) list_len(var_get(one_name(name)));
}

static char *concat_mask(const List *a, const List *b, size_t la, size_t lb)
{
	if (a->m == NULL && b->m == NULL)
		return NULL;
	char *m = nalloc(la + lb + 1);
	if (a->m != NULL)
		memcpy(m, a->m, la);
	else
		memset(m, 0, la);
	if (b->m != NULL)
		memcpy(m + la, b->m, lb);
	else
		memset(m + la, 0, lb);
	m[la + lb] = '\0';
	return m;
}

static List *concat_one(const List *a, const List *b)
{
	size_t la = strlen(a->w), lb = strlen(b->w);
	char *w = nalloc(la + lb + 1);
	memcpy(w, a->w, la);
	memcpy(w + la, b->w, lb + 1);
	return mklist(w, concat_mask(a, b, la, lb), NULL);
}

/* a^b: pairwise for equal lengths, distributed over a single word. */
static List *concat(List *a, List *b)
{
	if (a == NULL)
		return b;
	if (b == NULL)
		return a;
	int na = list_len(a), nb = list_len(b);
	if (na != nb && na != 1 && nb != 1)
		rc_error("bad concatenation");
	List *head = NULL, **tail = &head;
	for (List *p = a, *q = b; p != NULL && q != NULL;) {
		*tail = concat_one(p, q);
		tail = &(*tail)->n;
		if (na != 1)
			p = p->n;
		if (nb != 1)
			q = q->n;
		if (na == 1 && nb == 1)
			break;
	}
	return head;
}

/* The words of a run of single-word parts (empty ones drop out) joined
 * in one go, so that a long chain of them stays linear. */
static List *join_words(List **parts, int n)
{
	size_t len = 0;
	bool masked = false;
	for (int i = 0; i < n; i++)
		if (parts[i] != NULL) {
			len += strlen(parts[i]->w);
			masked |= parts[i]->m != NULL;
		}
	char *w = nalloc(len + 1), *m = masked ? nalloc(len + 1) : NULL;
	size_t at = 0;
	for (int i = 0; i < n; i++) {
		if (parts[i] == NULL)
			continue;
		size_t k = strlen(parts[i]->w);
		memcpy(w + at, parts[i]->w, k);
		if (m != NULL && parts[i]->m != NULL)
			memcpy(m + at, parts[i]->m, k);
		else if (m != NULL)
			memset(m + at, 0, k);
		at += k;
	}
	w[at] = '\0';
	if (m != NULL)
		m[at] = '\0';
	return mklist(w, m, NULL);
}

/* acc joined to the run of single-word or empty parts (none: acc). */
static List *concat_run(List *acc, List **parts, int n)
{
	for (int i = 0; i < n; i++)
		if (parts[i] != NULL)
			return concat(acc, join_words(parts, n));
	return acc;
}

/* a^b^c...: the parser builds the chain leaning left, as long as the word
 * (a here document with many $names makes one too), so it is evaluated
 * from left to right without recursion.  Each part is joined to what is
 * left of it before the next is evaluated, so a bad
 * concatenation stops the word before the parts after it are evaluated
 * (a backquote there is not run; (a b)^(1 2 3)^$$y says bad
 * concatenation, not null variable name). */
static List *concat_chain(Node *n)
{
	int count = 1;
	Node *p;
	for (p = n; p->type == nConcat; p = p->k[0])
		count++;
	Node **nodes = nalloc(count * sizeof *nodes);
	int i = count;
	for (p = n; p->type == nConcat; p = p->k[0])
		nodes[--i] = p->k[1];
	nodes[0] = p;
	List **parts = nalloc(count * sizeof *parts);
	List *acc = NULL;
	int run = 0;	/* parts[run..i) are single words or empty, not joined yet */
	for (i = 0; i < count; i++) {
		parts[i] = glom_noglob(nodes[i]);
		if (parts[i] == NULL || parts[i]->n == NULL)
			continue;
		acc = concat(concat_run(acc, parts + run, i - run), parts[i]);
		run = i + 1;
	}
	return concat_run(acc, parts + run, count - run);
}

/* The mask of an unquoted word: every byte active.  Short words share
 * one mask (never written to). */
static char *all_meta(const char *w)
{
	static char ones[256];	/* 255 ones and a NUL, filled on first use */
	if (ones[0] == 0)
		memset(ones, 1, sizeof ones - 1);
	size_t n = strlen(w);
	if (n < sizeof ones)
		return ones + sizeof ones - 1 - n;
	char *m = nalloc(n + 1);
	memset(m, 1, n);
	m[n] = '\0';
	return m;
}

/* The separators of `{} (NULL: $ifs) or ``(seps){}. */
static List *backquote_seps(Node *n)
{
	List *seps = n->k[1] != NULL ? glom(n->k[1]) : NULL;
	return n->k[1] != NULL ? (seps ? seps : mklist("", NULL, NULL)) : NULL;
}

List *glom_noglob(Node *n)
{
	if (n == NULL)
		return NULL;
	stack_check();
	switch (n->type) {
	case nWord:
		return mklist(n->s, n->kind ? all_meta(n->s) : NULL, NULL);
	case nQword:
		return mklist(n->s, NULL, NULL);
	case nVar:
		return nodes_copy(value_of(n->k[0]));
	case nVarsub:
		return subscript(n->k[0], n->k[1]);
	case nCount:
		return mklist(nfmt("%lu", (unsigned long) count(n->k[0])), NULL, NULL);
	case nFlat: {
		List *v = value_of(n->k[0]);
		return v != NULL ? mklist(list_flat(v, " "), NULL, NULL) : NULL;
	}
	case nConcat:
		return concat_chain(n);
	case nList: {
		List *head = NULL, **tail = &head;
		for (; n != NULL; n = n->k[1]) {
			*tail = glom_noglob(n->k[0]);
			while (*tail != NULL)
				tail = &(*tail)->n;
		}
		return head;
	}
	case nBackq:
		return backquote(n);
	case nNmpipe:
		return mklist(nmpipe(n), NULL, NULL);
	default:
		rc_error("internal error: not a word (%d)", n->type);
	}
}

/* l with its words that hold unquoted metacharacters globbed. */
List *glob_if_meta(List *l)
{
	for (List *p = l; p != NULL; p = p->n)
		if (p->m != NULL)
			return glob_list(l);
	return l;
}

List *glom(Node *n)
{
	return glob_if_meta(glom_noglob(n));
}

/* Run body in a child with its standard output to a pipe, as `{body}
 * does: *out gets all it wrote.  Returns the child's wait status; $status
 * is not touched.  Also the way the editor's completers run (complete.c). */
int backquote_output(Node *body, Str *out)
{
	int p[2];
	if (pipe(p) < 0)
		rc_syserror("pipe");
	/* the child leaves with fn sigexit where the shell would, until it
	 * starts a command: its list is the shell's own commands */
	bool keep = frame_top()->sigexit;
	pid_t pid = rc_fork_closing(p, 2);
	if (pid == 0) {
		proc_become(PROC_BACKQUOTE);
		frame_top()->sigexit = keep;
		/* With descriptor 1 closed the read end is 1: the child
		 * moves the write end there, then closes the read end's number,
		 * and runs the command without a standard output (an empty
		 * backquote: echo x >[1=] >`{echo f} has a null filename). */
		close(p[0]);
		if (p[0] == 1)
			close(p[1]);
		else if (p[1] != 1) {
			dup2(p[1], 1);
			close(p[1]);
		}
		walk_in_child(body);
	}
	close(p[1]);
	char buf[4096];
	for (;;) {
		ssize_t k = read(p[0], buf, sizeof buf);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		str_add(out, buf, k);
	}
	close(p[0]);
	int wstat = child_wait(pid);
	input_after_child();	/* had it escaped, it read on from the script */
	return wstat;
}

/* `{cmd}: run cmd with its output to a pipe; its words as a value whose
 * text is the output itself. */
static Value *backquote_value(Node *body, List *seps)
{
	Str s = { 0 };
	int wstat = backquote_output(body, &s);
	status_report(0, wstat, false);	/* the pid is shown only for bg */
	var_set("bqstatus", mklist(status_word_of(wstat), NULL, NULL));
	status_set(wstat);	/* a command ran: echo `{false} $status prints 1 */
	check_e_backquote(wstat);
	const char *sep = seps != NULL ? list_flat(seps, "") : NULL;
	if (sep == NULL) {
		List *ifs = var_get("ifs");
		sep = ifs != NULL ? list_flat(ifs, "") : "";
	}
	if (s.buf == NULL)
		return NULL;
	return value_split(s.buf, s.len, sep);
}

static void value_drop(void *v)
{
	value_unref(v);
}

/* An empty backquote (`{}, `{;}, ``(seps){# comment}) runs nothing: it
 * is no value and leaves $status, $bqstatus and its separators
 * unevaluated (false; echo `{} $status prints 1). */
static Value *backquote_node_value(Node *n)
{
	return n->k[0] != NULL ? backquote_value(n->k[0], backquote_seps(n)) : NULL;
}

List *backquote(Node *n)
{
	Value *v = backquote_node_value(n);
	if (v != NULL)
		nhold(value_drop, v);
	return value_list(v);
}

/* The symbol of a node that is $name, or NULL. */
static Sym *var_of(Node *n)
{
	return n != NULL && n->type == nVar ? var_name_sym(n->k[0]) : NULL;
}

/* s=val for the values that need not be built as a list first (see
 * value.c): s=$t shares t's value, s=($s words) and s=(words $s) grow
 * s's in place, s=`{cmd} keeps the command's output.  False if val is
 * none of these. */
bool glom_assign(Sym *s, Node *val)
{
	if (val->type == nList && val->k[0] != NULL && val->k[1] == NULL)
		val = val->k[0];	/* (word) */
	Sym *from = var_of(val);
	if (from != NULL) {
		var_share_sym(s, from);
		return true;
	}
	if (val->type == nBackq) {
		var_adopt_sym(s, backquote_node_value(val));
		return true;
	}
	if (val->type != nList || val->k[0] == NULL)
		return false;
	if (var_of(val->k[0]) == s) {
		var_add_sym(s, glom(val->k[1]), false);
		return true;
	}
	Node *last = val;
	while (last->k[1] != NULL)
		last = last->k[1];
	if (var_of(last->k[0]) != s)
		return false;
	List *head = NULL, **tail = &head;
	for (Node *p = val; p != last; p = p->k[1]) {
		*tail = glom(p->k[0]);
		while (*tail != NULL)
			tail = &(*tail)->n;
	}
	var_add_sym(s, head, true);
	return true;
}

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
