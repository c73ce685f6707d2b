/* glom.c: turning word expressions into lists: variables, subscripts,
 * concatenation, command substitution, then globbing. */
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

static List *subscript(List *val, Node *subs)
{
	List *head = NULL, **tail = &head;
	int len = list_len(val);
	for (List *s = glom(subs); s != NULL; s = s->n) {
		char *end;
		errno = 0;
		long i = strtol(s->w, &end, 10);
		if (*s->w == '\0' || *end != '\0' || errno != 0 || i < 0)
			rc_error("bad subscript");
		if (i == 0)
			rc_error("bad subscript");
		if (i > len)
			continue;
		List *v = val;
		while (--i > 0)
			v = v->n;
		*tail = mklist(v->w, NULL, NULL);
		tail = &(*tail)->n;
	}
	return head;
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

/* a^b^c...: the parser builds the chain leaning left, as long as the word
 * (a here document with many $names makes one too), so it is evaluated
 * from left to right without recursion. */
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
	for (i = 0; i < count; i++)
		parts[i] = glom_noglob(nodes[i]);
	List *acc = NULL;
	for (i = 0; i < count;) {
		int j = i;
		bool any = false;
		while (j < count && (parts[j] == NULL || parts[j]->n == NULL))
			any |= parts[j++] != NULL;
		if (any)
			acc = concat(acc, join_words(parts + i, j - i));
		if (j < count)
			acc = concat(acc, parts[j++]);
		i = j;
	}
	return acc;
}

/* The mask of an unquoted word: every byte active.  Short words share
 * one constant mask. */
static char *all_meta(const char *w)
{
	static const char ones[256] = { [0 ... 254] = 1 };
	size_t n = strlen(w);
	if (n < sizeof ones)
		return (char *) ones + sizeof ones - 1 - n;
	char *m = nalloc(n + 1);
	memset(m, 1, n);
	m[n] = '\0';
	return m;
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
		return subscript(value_of(n->k[0]), n->k[1]);
	case nCount:
		return mklist(nfmt("%d", list_len(value_of(n->k[0]))), NULL, NULL);
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
	case nBackq: {
		List *seps = n->k[1] != NULL ? glom(n->k[1]) : NULL;
		return backquote(n->k[0], n->k[1] != NULL ? (seps ? seps : mklist("", NULL, NULL)) : NULL);
	}
	case nNmpipe:
		return mklist(nmpipe(n), NULL, NULL);
	default:
		rc_error("internal error: not a word (%d)", n->type);
	}
}

List *glom(Node *n)
{
	List *l = glom_noglob(n);
	for (List *p = l; p != NULL; p = p->n)
		if (p->m != NULL)
			return glob_list(l);
	return l;
}

/* `{cmd}: run cmd with its output to a pipe and split what it writes. */
List *backquote(Node *body, List *seps)
{
	int p[2];
	if (pipe(p) < 0)
		rc_syserror("pipe");
	pid_t pid = rc_fork_closing(p, 2);
	if (pid == 0) {
		close(p[0]);
		if (p[1] != 1) {
			dup2(p[1], 1);
			close(p[1]);
		}
		walk_in_child(body);
	}
	close(p[1]);
	Str s = { 0 };
	char buf[4096];
	for (;;) {
		ssize_t k = read(p[0], buf, sizeof buf);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		str_add(&s, buf, k);
	}
	close(p[0]);
	int wstat = child_wait(pid);
	status_report(pid, wstat, false);
	var_set("bqstatus", mklist(status_word_of(wstat), NULL, NULL));
	check_e_backquote(wstat);
	const char *sep = seps != NULL ? list_flat(seps, "") : NULL;
	if (sep == NULL) {
		List *ifs = var_get("ifs");
		sep = ifs != NULL ? list_flat(ifs, "") : "";
	}
	List *l;
	if (*sep == '\0')
		l = s.len > 0 ? mklist(nstrndup(s.buf, s.len), NULL, NULL) : NULL;
	else
		l = split_words(s.buf ? s.buf : "", s.len, sep);
	free(s.buf);
	return l;
}
