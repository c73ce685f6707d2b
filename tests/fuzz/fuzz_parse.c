/* SPDX-License-Identifier: Zlib */
/* fuzz_parse.c: libFuzzer harness for the lexer and parser.  The input is
 * read as a script (through a descriptor, so NUL bytes reach the lexer),
 * each command is parsed and printed back, and the printed form must parse
 * again to the same tree.  Nothing is run.  After a syntax error parsing
 * goes on with the next line, as at the terminal. */
#include "rc.h"

extern char **environ;

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A finding: on stderr and, since the fuzzer closes the target's stderr
 * (-close_fd_mask), in the file $FUZZ_LOG too; then abort. */
static NORETURN void complain(Str *s)
{
	writeall(2, s->buf, s->len);
	const char *log = getenv("FUZZ_LOG");
	int fd = log != NULL ? open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666) : -1;
	if (fd >= 0) {
		writeall(fd, s->buf, s->len);
		close(fd);
	}
	abort();
}

static int memfd_of(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0 || writeall(fd, (const char *) data, size) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	return fd;
}

/* Braces only group: the tree's shape says the same, and the printer adds
 * some (if(c){{a}}else b, as the reference does), so they are looked
 * through when trees are compared.  So is the empty command that ends a
 * line after a trailing ; or a merged if not (a sequence whose second half
 * is NULL): the printer leaves it out, as rc 1.7.4 does. */
static const Node *unbrace(const Node *n)
{
	while (n != NULL && (n->type == nBrace || (n->type == nSeq && n->k[1] == NULL)))
		n = n->k[0];
	return n;
}

static bool same_tree(const Node *a, const Node *b);

/* Lists flatten when used, so (a (b c)), (a b c) are the same, (a) is a
 * and () is nothing: list items are compared in order, nesting looked
 * through. */
typedef struct { const Node **v; size_t n, cap; } Items;

static void items_of(Items *it, const Node *n)
{
	n = unbrace(n);
	if (n != NULL && n->type != nList) {
		if (it->n == it->cap)
			it->v = realloc(it->v, (it->cap = it->cap * 2 + 8) * sizeof *it->v);
		it->v[it->n++] = n;
		return;
	}
	for (; n != NULL && n->type == nList; n = n->k[1]) {
		const Node *x = unbrace(n->k[0]);
		if (x != NULL && x->type == nList) {
			items_of(it, x);
			continue;
		}
		if (x == NULL)
			continue;
		if (it->n == it->cap)
			it->v = realloc(it->v, (it->cap = it->cap * 2 + 8) * sizeof *it->v);
		it->v[it->n++] = x;
	}
}

static bool same_list(const Node *a, const Node *b)
{
	Items x = { 0 }, y = { 0 };
	items_of(&x, a);
	items_of(&y, b);
	bool same = x.n == y.n;
	for (size_t i = 0; same && i < x.n; i++)
		same = same_tree(x.v[i], y.v[i]);
	free(x.v);
	free(y.v);
	return same;
}

/* A word without glob characters means the same quoted or not; so does
 * any word in a variable's name, which is not globbed: $(() [a]) prints
 * as $'[a]' (in_name, outside the commands of backquotes in it). */
static bool in_name;

static NodeType plain_type(const Node *n)
{
	return n->type == nWord && (n->kind == 0 || in_name) ? nQword : n->type;
}

static int plain_kind(const Node *n)
{
	return n->type == nWord && in_name ? 0 : n->kind;
}

static bool same_tree(const Node *a, const Node *b);

static bool same_in_name(const Node *a, const Node *b, bool name)
{
	bool was = in_name;
	in_name = name;
	bool same = same_tree(a, b);
	in_name = was;
	return same;
}

static bool is_word(const Node *n)
{
	return n != NULL && (n->type == nWord || n->type == nQword);
}

/* for(i) is for(i in $*). */
static bool is_args(const Node *list)
{
	Items it = { 0 };
	items_of(&it, list);
	const Node *v = it.n == 1 ? it.v[0] : NULL;
	free(it.v);
	return v != NULL && v->type == nVar && v->k[0] != NULL && v->k[0]->s != NULL &&
		strcmp(v->k[0]->s, "*") == 0;
}

/* An empty command is printed (): a command of no words. */
static const Node *unempty(const Node *n)
{
	n = unbrace(n);
	if (n == NULL || n->type != nSimple)
		return n;
	Items it = { 0 };
	items_of(&it, n->k[0]);
	free(it.v);
	return it.n == 0 ? NULL : n;
}

/* Empty commands in a row do what one does (each sets $status to 0): a
 * switch body keeps every one ({ newline } holds two), and the printer
 * writes none, so switch(a){} reads back with one. */
static const Node *one_empty(const Node *n)
{
	while (n != NULL && n->type == nSeq && unempty(n->k[0]) == NULL &&
	       n->k[1] != NULL && n->k[1]->type == nSeq && unempty(n->k[1]->k[0]) == NULL)
		n = n->k[1];
	return n;
}

/* {a} <x >y is {a} with <x then >y, however the parser nested them. */
static const Node *redirs_of(const Node *n, Items *it)
{
	n = unbrace(n);
	if (n == NULL || n->type != nRedirs)
		return n;
	const Node *base = redirs_of(n->k[0], it);
	items_of(it, n->k[1]);
	return base;
}

static bool same_redirs(const Node *a, const Node *b)
{
	Items x = { 0 }, y = { 0 };
	const Node *ba = redirs_of(a, &x), *bb = redirs_of(b, &y);
	bool same = x.n == y.n && same_tree(ba, bb);
	for (size_t i = 0; same && i < x.n; i++)
		same = same_tree(x.v[i], y.v[i]);
	free(x.v);
	free(y.v);
	return same;
}

/* Concatenation is associative, and (a^b) is a^b: a^(b^c) prints as
 * a^b^c, which reads back as (a^b)^c. */
static void atoms_of(Items *it, const Node *n)
{
	n = unbrace(n);
	if (n != NULL && n->type == nConcat) {
		atoms_of(it, n->k[0]);
		atoms_of(it, n->k[1]);
		return;
	}
	if (n != NULL && n->type == nList && n->k[0] != NULL && n->k[1] == NULL) {
		atoms_of(it, n->k[0]);
		return;
	}
	if (it->n == it->cap)
		it->v = realloc(it->v, (it->cap = it->cap * 2 + 8) * sizeof *it->v);
	it->v[it->n++] = n;
}

static bool same_concat(const Node *a, const Node *b)
{
	Items x = { 0 }, y = { 0 };
	atoms_of(&x, a);
	atoms_of(&y, b);
	bool same = x.n == y.n && x.n > 1;
	for (size_t i = 0; same && i < x.n; i++)
		same = same_tree(x.v[i], y.v[i]);
	free(x.v);
	free(y.v);
	return same;
}

static bool same_tree(const Node *a, const Node *b)
{
	a = unempty(one_empty(a));
	b = unempty(one_empty(b));
	if (a != NULL && b != NULL && (a->type == nConcat || b->type == nConcat))
		return same_concat(a, b);
	if (a != NULL && b != NULL && (a->type == nRedirs || b->type == nRedirs))
		return same_redirs(a, b);
	if (a != NULL && b != NULL && (a->type == nList || b->type == nList))
		return same_list(a, b);
	if (a == NULL || b == NULL)
		return a == b;
	/* An empty else is printed else (), which reads back as no else, in
	 * rc 1.7.4 too: if(c)x;if not (nothing) prints as if(c){x}else (). */
	if (a->type == nIf && b->type == nIf && a->kind != b->kind)
		return unempty(a->kind ? a->k[2] : b->k[2]) == NULL &&
			same_tree(a->k[0], b->k[0]) && same_tree(a->k[1], b->k[1]);
	if (a->type == nFor && b->type == nFor && (a->k[1] == NULL) != (b->k[1] == NULL))
		return same_tree(a->k[0], b->k[0]) && same_tree(a->k[2], b->k[2]) &&
			is_args(a->k[1] != NULL ? a->k[1] : b->k[1]);
	if ((a->type == nAssign || a->type == nLocal || a->type == nFor) && a->type == b->type &&
	    is_word(a->k[0]) && is_word(b->k[0]))	/* names are not globbed */
		return strcmp(a->k[0]->s, b->k[0]->s) == 0 && same_tree(a->k[1], b->k[1]) &&
			same_tree(a->k[2], b->k[2]);
	if (a->type == b->type && (a->type == nVar || a->type == nVarsub ||
				   a->type == nCount || a->type == nFlat))
		return same_in_name(a->k[0], b->k[0], true) && same_in_name(a->k[1], b->k[1], false);
	if (a->type == nBackq && b->type == nBackq && in_name)
		return same_in_name(a, b, false);
	if (plain_type(a) != plain_type(b) || plain_kind(a) != plain_kind(b) ||
	    a->fd[0] != b->fd[0] || a->fd[1] != b->fd[1])
		return false;
	if ((a->s == NULL) != (b->s == NULL) || (a->s != NULL && strcmp(a->s, b->s) != 0))
		return false;
	for (int i = 0; i < 3; i++)
		if (!same_tree(a->k[i], b->k[i]))
			return false;
	return true;
}

/* A tree's shape, for the report of a difference. */
static void shape(Str *s, const Node *n)
{
	if (n == NULL) {
		str_adds(s, "-");
		return;
	}
	str_fmt(s, "(%d", (int) n->type);
	if (n->kind)
		str_fmt(s, " k%d", n->kind);
	if (n->s != NULL) {
		str_addc(s, ' ');
		str_quote(s, n->s);
	}
	for (int i = 0; i < 3; i++)
		if (n->k[i] != NULL || (i < 2 && n->k[i + 1] != NULL)) {
			str_addc(s, ' ');
			shape(s, n->k[i]);
		}
	str_addc(s, ')');
}

/* The tree as whatis prints it, in the arena. */
static char *printed(const Node *n)
{
	Str s = { 0 };
	tree_print(&s, n);
	char *r = nstrdup(s.buf ? s.buf : "");
	free(s.buf);
	return r;
}

/* The printed form of a tree must read back as the same tree (whatis and
 * exported functions depend on it). */
static void check_reprint(const Node *n, const char *text)
{
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) != 0) {
		Str s = { 0 };
		str_fmt(&s, "fuzz_parse: printed form does not parse: %s\n", text);
		complain(&s);
	}
	Node *again = parse_string(text);
	catch_pop(&c);
	if (!same_tree(n, again)) {
		Str a = { 0 }, b = { 0 }, s = { 0 };
		shape(&a, n);
		shape(&b, again);
		str_fmt(&s, "fuzz_parse: printed form parses differently:\n%s\n%s\n%s\n%s\n",
			text, printed(again), a.buf, b.buf);
		complain(&s);
	}
}

static bool reprint_checked(void)
{
	static int on = -1;
	if (on < 0)
		on = getenv("FUZZ_NO_REPRINT") == NULL;
	return on;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char base;
	stack_init(&base, environ, true);
	catch_steps();
	int fd = memfd_of(data, size);
	Mark m = nmark();
	input_fd(fd);
	bool eof = false;
	/* each command reads at least a byte, so this bounds the loop */
	for (size_t tries = 0; !eof && tries <= size + 1; tries++) {
		Catch c;
		catch_push(&c);
		if (sigsetjmp(c.buf, 0) != 0) {
			heredoc_discard();
			continue;
		}
		bool at_end = false;
		Node *n = parse_command(&at_end);
		catch_pop(&c);
		eof = at_end;
		if (n == NULL)
			continue;
		char *text = printed(n);
		if (reprint_checked())
			check_reprint(n, text);
	}
	input_pop();
	nrelease(m);
	close(fd);
	return 0;
}
