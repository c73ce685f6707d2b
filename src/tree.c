/* SPDX-License-Identifier: Zlib */
/* tree.c: building parse trees, copying them out of the arena, and printing
 * them back as rc source (for whatis, -x and exported functions). */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

Node *mk(NodeType t, Node *a, Node *b, Node *c)
{
	Node *n = nnew(Node);
	memset(n, 0, sizeof *n);
	n->type = t;
	n->k[0] = a;
	n->k[1] = b;
	n->k[2] = c;
	return n;
}

Node *mkword(const char *s, bool quoted)
{
	Node *n = mk(quoted ? nQword : nWord, NULL, NULL, NULL);
	n->s = (char *) s;
	return n;
}

/* A word without the parentheses around it when it is one word, as rc
 * 1.7.4's parser drops them: (<{cmd}) is <{cmd}, <<(EOF) is <<EOF.
 * () stays a list (of no word). */
Node *unparen(Node *w)
{
	while (w != NULL && w->type == nList && w->k[0] != NULL && w->k[1] == NULL)
		w = w->k[0];
	return w;
}

Node *mkredir(int kind, int fd0, int fd1, Node *target)
{
	Node *n = mk(nRedir, target, NULL, NULL);
	n->kind = kind;
	n->fd[0] = fd0;
	n->fd[1] = fd1;
	return n;
}

/* A tree is copied into one heap block, so one free() releases it.  Trees
 * can be as deep as the input is long (a^b^c..., a;b;c...), so they are
 * measured and copied with a stack of our own, not by recursion. */
static size_t tree_measure(const Node *n, size_t *count)
{
	size_t size = 0, top = 0, cap = 0;
	const Node **stack = egrow(NULL, &cap, 1, sizeof *stack);
	*count = 0;
	stack[top++] = n;
	while (top > 0) {
		const Node *p = stack[--top];
		++*count;
		size += sizeof(Node) + _Alignof(Node);
		if (p->s != NULL)
			size += strlen(p->s) + 1;
		for (int i = 0; i < 3; i++) {
			if (p->k[i] == NULL)
				continue;
			stack = egrow(stack, &cap, top + 1, sizeof *stack);
			stack[top++] = p->k[i];
		}
	}
	free(stack);
	return size;
}

Node *tree_copy(const Node *n)
{
	if (n == NULL)
		return NULL;
	size_t count, size = tree_measure(n, &count), top = 0;
	char *space = ealloc(size);
	struct { const Node *from; Node **to; } *stack = ealloc(count * sizeof *stack);
	Node *root;
	stack[top].from = n;
	stack[top++].to = &root;
	while (top > 0) {
		const Node *from = stack[--top].from;
		Node **to = stack[top].to;
		size_t align = _Alignof(Node);
		space = (char *) (((size_t) space + align - 1) & ~(align - 1));
		Node *c = (Node *) space;
		space += sizeof(Node);
		*c = *from;
		*to = c;
		if (from->s != NULL) {
			size_t len = strlen(from->s) + 1;
			c->s = memcpy(space, from->s, len);
			space += len;
		}
		for (int i = 0; i < 3; i++)
			if (from->k[i] != NULL) {
				stack[top].from = from->k[i];
				stack[top++].to = &c->k[i];
			}
	}
	free(stack);
	return root;	/* the first node placed: the start of the block */
}

void tree_free(Node *n)
{
	free(n);
}

/* Printing follows the reference's compact form: "if(c){a}else b",
 * "for(i in (a b))echo $i", "a|[2]b", "x=(a b) cmd". */
static void print_node_quoting(Str *s, const Node *n, const Node *keyword);
static void print_words(Str *s, const Node *n, const Node *keyword);

static void print_node(Str *s, const Node *n)
{
	print_node_quoting(s, n, NULL);
}

/* Printing the words of a list in parentheses: rc 1.7.4 then prints every
 * list of two or more words inside them without parentheses, (c $x(1 2))
 * where $x(1 2) alone is $x((1 2)), and so do we (print_list). */
static bool inlist;

/* A list: bare when it has one element, in parentheses otherwise, or
 * without them inside a list (inlist) unless force: where they are needed
 * for the text to read back (x=(a b), ``(a b){cmd}, >(a b), (a b)^c,
 * ~ (a b) c; rc 1.7.4 drops them there too).  keyword: a word in it to
 * quote always (print_simple_command). */
static void print_list_of(Str *s, const Node *n, const Node *keyword, bool force)
{
	if (n != NULL && n->type == nList && n->k[0] != NULL && n->k[1] == NULL) {
		print_node_quoting(s, n->k[0], keyword);
		return;
	}
	if (n != NULL && n->type != nList) {
		print_node_quoting(s, n, keyword);
		return;
	}
	bool bare = inlist && !force && n != NULL && n->k[0] != NULL, was = inlist;
	if (!bare)
		str_addc(s, '(');
	inlist = true;
	for (; n != NULL && n->k[0] != NULL; n = n->k[1]) {
		print_node_quoting(s, n->k[0], keyword);
		if (n->k[1] != NULL)
			str_addc(s, ' ');
	}
	inlist = was;
	if (!bare)
		str_addc(s, ')');
}

static void print_list(Str *s, const Node *n, const Node *keyword)
{
	print_list_of(s, n, keyword, false);
}

/* A word that may be a list which needs its parentheses (print_list_of). */
static void print_word(Str *s, const Node *n, const Node *keyword)
{
	print_list_of(s, n, keyword, true);
}

/* A keyword written as a command's name or assigned to must be quoted, or
 * it reads back as the keyword ('for' x, 'if'=1). */
static bool is_keyword(const char *w)
{
	return keyword_of(w) != 0;
}

/* The word at the start of a command or of an assigned name n, when it
 * is a keyword, which is then printed quoted ('for'^x y); else NULL. */
static const Node *leading_keyword(const Node *n)
{
	while (n != NULL && (n->type == nConcat || (n->type == nList && n->k[1] == NULL)))
		n = n->k[0];
	if (n != NULL && (n->type == nQword || (n->type == nWord && !n->kind)) && is_keyword(n->s))
		return n;
	return NULL;
}

static void print_simple_command(Str *s, const Node *items)
{
	const Node *first = items;
	while (first != NULL && first->k[0] != NULL && first->k[0]->type == nRedir)
		first = first->k[1];	/* >f 'for' x */
	const Node *w = first != NULL ? first->k[0] : NULL, *kw = w != NULL ? leading_keyword(w) : NULL;
	if (kw == NULL && inlist && w != NULL && w->type == nList && w->k[0] != NULL)
		kw = leading_keyword(w->k[0]);	/* (a `{(for x) y}) prints 'for' x y */
	print_words(s, items, kw);
}

/* The word a list of names starts with when it must be quoted: after '$'
 * the first word is read as a name, so $((/ a)) does not parse. */
static const Node *unnamed_lead(const Node *n)
{
	while (n != NULL && (n->type == nConcat || n->type == nList))
		n = n->k[0];
	if (n == NULL || (n->type != nWord && n->type != nQword))
		return NULL;
	return is_varchar((unsigned char) n->s[0]) ? NULL : n;
}

/* A name that is not a word is printed in parentheses, as rc 1.7.4
 * does: $($x), $#(`{cmd}), $#((a b)); (a) is the word a. */
static void print_varname(Str *s, const Node *n)
{
	if (n->type == nList && n->k[0] != NULL && n->k[1] == NULL)
		n = n->k[0];
	if ((n->type == nWord || n->type == nQword) && is_varname(n->s))
		str_adds(s, n->s);
	else if (n->type == nWord || n->type == nQword)
		str_quote_always(s, n->s);	/* $a-b is $a^-b */
	else {
		str_addc(s, '(');
		print_node_quoting(s, n, unnamed_lead(n));	/* $(('/' a)) */
		str_addc(s, ')');
	}
}

/* A target that would read as part of the operator: < <{a} is not <<{a},
 * > >{a} is not >>{a}, > [x] is not >[x].  Any other named pipe reads
 * back glued, and is printed so, as rc 1.7.4 prints it (<<<<{a}, >>>{a},
 * <>{a}, ><{a}). */
static bool glued_to_op(const Node *t, const char *op)
{
	while (t != NULL && (t->type == nConcat || (t->type == nList && t->k[1] == NULL)))
		t = t->k[0];	/* (x) is printed x */
	if (t != NULL && t->type == nNmpipe)
		return op[1] == '\0' && *op == (t->fd[0] ? '>' : '<');
	return t != NULL && t->type == nWord && t->s[0] == '[';
}

static void print_redir(Str *s, const Node *n)
{
	bool in = n->kind == rFrom || n->kind == rHerestr ||
		((n->kind == rDup || n->kind == rClose) && n->s != NULL && *n->s == '<');
	static const char *const ops[] = { "<", ">", ">>", "<<<", ">", ">" };
	const char *op = ops[n->kind];
	if ((n->kind == rDup || n->kind == rClose) && in)
		op = "<";
	str_adds(s, op);
	if (n->kind == rDup)
		str_fmt(s, "[%d=%d]", n->fd[0], n->fd[1]);
	else if (n->kind == rClose)
		str_fmt(s, "[%d=]", n->fd[0]);
	else {
		if (n->fd[0] != (in ? 0 : 1))
			str_fmt(s, "[%d]", n->fd[0]);
		else if (glued_to_op(n->k[0], op))
			str_addc(s, ' ');
		print_word(s, n->k[0], NULL);
	}
}

static void print_words(Str *s, const Node *n, const Node *keyword)
{
	for (; n != NULL; n = n->k[1]) {
		if (n->k[0] != NULL)
			print_node_quoting(s, n->k[0], keyword);
		if (n->k[1] != NULL)
			str_addc(s, ' ');
	}
}

/* A command that may be empty, as the reference prints it: "a|()". */
static void print_or_empty(Str *s, const Node *n)
{
	if (n == NULL)
		str_adds(s, "()");
	else
		print_node(s, n);
}

/* Chains lean left (a^b^c, a&&b||c, a|b|c) and can be as long as the
 * input, so they are printed in a loop. */
static bool same_chain(const Node *p, NodeType t)
{
	if (p == NULL)
		return false;
	if (t == nAnd || t == nOr)
		return p->type == nAnd || p->type == nOr;
	return p->type == t;
}

static void print_chain(Str *s, const Node *n, const Node *keyword)
{
	size_t count = 0;
	const Node *p;
	for (p = n; same_chain(p, n->type); p = p->k[0])
		count++;
	const Node **links = ealloc(count * sizeof *links);
	size_t i = count;
	for (p = n; same_chain(p, n->type); p = p->k[0])
		links[--i] = p;
	bool cmds = n->type != nConcat;
	cmds ? print_or_empty(s, p) : print_word(s, p, keyword);
	for (i = 0; i < count; i++) {
		const Node *l = links[i];
		if (l->type == nConcat)
			str_addc(s, '^');
		else if (l->type != nPipe)
			str_adds(s, l->type == nAnd ? "&&" : "||");
		else {
			str_addc(s, '|');
			if (l->fd[1] != 0)
				str_fmt(s, "[%d=%d]", l->fd[0], l->fd[1]);
			else if (l->fd[0] != 1)
				str_fmt(s, "[%d]", l->fd[0]);
			else {
				/* | [x] is not |[x]: printed once, then looked at */
				Str t = { 0 };
				print_or_empty(&t, l->k[1]);
				if (t.len > 0 && t.buf[0] == '[')
					str_addc(s, ' ');
				str_add(s, t.buf ? t.buf : "", t.len);
				free(t.buf);
				continue;
			}
		}
		cmds ? print_or_empty(s, l->k[1]) : print_word(s, l->k[1], keyword);
	}
	free(links);
}

/* An empty brace (also of `{}, <{}) shows as {()}, as rc 1.7.4 prints
 * it (but see tree_print_body). */

static void print_braced(Str *s, const Node *body)
{
	str_addc(s, '{');
	if (body != NULL)
		print_node(s, body);
	else
		str_adds(s, "()");
	str_addc(s, '}');
}

/* A subscripted name that is a backquote of one word w is printed `w
 * (``seps w): $`w(1) is the only way to subscript a backquote's output,
 * since $`{w}(1) and $(`{w})(1) read as two words.  (rc 1.7.4 prints
 * $`{w}(1), which does not read back.)  Returns false for any other name. */
static bool print_bare_backquote(Str *s, const Node *n)
{
	if (n->type == nList && n->k[0] != NULL && n->k[1] == NULL)
		n = n->k[0];
	const Node *body = n->type == nBackq ? n->k[0] : NULL;
	if (body == NULL || body->type != nSimple || body->k[0] == NULL ||
	    body->k[0]->type != nList || body->k[0]->k[1] != NULL)
		return false;
	if (n->k[1] != NULL) {
		str_adds(s, "``");
		print_word(s, n->k[1], NULL);
		str_addc(s, ' ');
	} else
		str_addc(s, '`');
	print_node(s, body->k[0]->k[0]);
	return true;
}

/* A word written quoted is printed quoted also for a ] (rc 1.7.4 does,
 * and leaves it bare in a word written so and in a variable's value): a
 * definition then prints, and is exported, as the same text in both
 * shells, which read either form back alike. */
static void print_plain_word(Str *s, const Node *n)
{
	if (n->type == nQword && strchr(n->s, ']') != NULL)
		str_quote_always(s, n->s);
	else
		str_quote(s, n->s);
}

/* keyword: a word of n to quote always (print_simple_command). */
static void print_node_quoting(Str *s, const Node *n, const Node *keyword)
{
	if (n == NULL)
		return;
	switch (n->type) {
	case nWord:	/* glob characters stay bare; others as the reference prints them */
		if (n == keyword)
			str_quote_always(s, n->s);
		else
			n->kind ? str_adds(s, n->s) : print_plain_word(s, n);
		break;
	case nQword: n == keyword ? str_quote_always(s, n->s) : print_plain_word(s, n); break;
	case nVar: str_addc(s, '$'); print_varname(s, n->k[0]); break;
	case nVarsub: {
		const Node *name = n->k[0];
		if (name->type == nList && name->k[0] != NULL && name->k[1] == NULL)
			name = name->k[0];
		str_addc(s, '$');
		/* $$^n(1), $$#n(1): the subscript is the first $'s, as rc
		 * 1.7.4 prints it ($($^n)(1) does not read back) */
		if (name->type == nFlat || name->type == nCount)
			print_node(s, name);
		else if (!print_bare_backquote(s, n->k[0]))
			print_varname(s, n->k[0]);
		str_addc(s, '(');
		print_list(s, n->k[1], NULL);
		str_addc(s, ')');
		break;
	}
	case nCount: str_adds(s, "$#"); print_varname(s, n->k[0]); break;
	case nFlat: str_adds(s, "$^"); print_varname(s, n->k[0]); break;
	case nBackq:
		if (n->k[1] != NULL) {
			str_adds(s, "``");
			print_word(s, n->k[1], NULL);
		} else
			str_addc(s, '`');
		print_braced(s, n->k[0]);
		break;
	case nConcat: case nAnd: case nOr: case nPipe: print_chain(s, n, keyword); break;
	case nList: print_list(s, n, keyword); break;
	case nNmpipe:
		str_adds(s, n->fd[0] ? ">" : "<");
		print_braced(s, n->k[0]);
		break;
	case nSimple: print_simple_command(s, n->k[0]); break;
	case nRedirs:
		if (n->kind == 1 ||
		    (n->k[0] != NULL && n->k[0]->type != nBrace && n->k[0]->type != nRedirs)) {
			/* written before, or before if, for, ! ...: after, they
			 * would go to its last command */
			for (const Node *r = n->k[1]; r != NULL; r = r->k[1]) {
				print_node(s, r->k[0]);
				str_addc(s, ' ');
			}
			print_node(s, n->k[0]);
			break;
		}
		print_node(s, n->k[0]);	/* {cmd}>f >[2=1], as rc 1.7.4 prints it */
		for (const Node *r = n->k[1]; r != NULL; r = r->k[1]) {
			if (r != n->k[1])
				str_addc(s, ' ');
			print_node(s, r->k[0]);
		}
		break;
	case nRedir: print_redir(s, n); break;
	case nAssign: case nLocal:
		if ((n->k[0]->type == nWord || n->k[0]->type == nQword) && is_keyword(n->k[0]->s))
			str_quote_always(s, n->k[0]->s);
		else if ((n->k[0]->type == nWord || n->k[0]->type == nQword) && is_varname(n->k[0]->s))
			str_adds(s, n->k[0]->s);
		else if (n->k[0]->type == nWord || n->k[0]->type == nQword)
			print_plain_word(s, n->k[0]);	/* a-b=1 reads back */
		else
			print_word(s, n->k[0], leading_keyword(n->k[0]));
		str_addc(s, '=');
		print_word(s, n->k[1], NULL);
		if (n->type == nLocal) {
			str_addc(s, ' ');
			print_node(s, n->k[2]);
		}
		break;
	case nBrace: print_braced(s, n->k[0]); break;
	case nSeq:
		for (; n != NULL && n->type == nSeq; n = n->k[1]) {
			print_node(s, n->k[0]);
			/* a=1 b=2 is one command (a=1 b=2|cat runs both in the pipe) */
			if (n->kind == 1)
				str_addc(s, ' ');
			else if (n->k[0]->type != nAsync && n->k[1] != NULL)
				str_addc(s, ';');
		}
		print_node(s, n);
		break;
	case nAsync: print_node(s, n->k[0]); str_addc(s, '&'); break;
	case nBang: str_addc(s, '!'); print_or_empty(s, n->k[0]); break;
	case nSubshell:	/* kind 1: the child of ">f v=1", not written */
		if (n->kind != 1)
			str_adds(s, "@ ");
		print_or_empty(s, n->k[0]);
		break;
	case nIf:
		str_adds(s, "if(");
		print_or_empty(s, n->k[0]);	/* an empty condition is (()) */
		str_addc(s, ')');
		if (n->kind) {	/* an else, maybe empty */
			str_addc(s, '{');
			print_node(s, n->k[1]);
			str_adds(s, "}else ");
			print_or_empty(s, n->k[2]);
		} else
			print_or_empty(s, n->k[1]);
		break;
	case nIfnot: str_adds(s, "if not "); print_or_empty(s, n->k[0]); break;
	case nFor:
		str_adds(s, "for(");
		print_word(s, n->k[0], NULL);
		str_adds(s, " in ");
		if (n->k[1] != NULL)
			print_list(s, n->k[1], NULL);
		else
			str_adds(s, "$*");
		str_addc(s, ')');
		print_or_empty(s, n->k[2]);
		break;
	case nWhile:
		str_adds(s, "while(");
		print_or_empty(s, n->k[0]);
		str_addc(s, ')');
		print_or_empty(s, n->k[1]);
		break;
	case nSwitch:
		str_adds(s, "switch(");
		print_word(s, n->k[0], NULL);
		str_addc(s, ')');
		str_addc(s, '{');
		/* as rc 1.7.4 prints it: every command but the last, and
		 * every case, followed by ';' (a command in the background by
		 * its '&'), empty commands as nothing: {case a;echo;} */
		for (const Node *l = n->k[1]; l != NULL; l = l->k[1]) {
			if (l->k[0] == NULL)
				continue;
			print_node(s, l->k[0]);
			if (l->k[1] != NULL && l->k[0]->type != nAsync)
				str_addc(s, ';');
		}
		str_addc(s, '}');
		break;
	case nCase: str_adds(s, "case "); print_list(s, n->k[0], NULL); break;
	case nMatch: str_adds(s, "~ "); print_word(s, n->k[0], NULL); str_addc(s, ' '); print_list(s, n->k[1], NULL); break;
	case nNewfn:
		str_adds(s, "fn ");
		print_list(s, n->k[0], NULL);
		str_addc(s, ' ');
		print_node(s, n->k[1]);
		break;
	case nRmfn: str_adds(s, "fn "); print_list(s, n->k[0], NULL); break;
	}
}

void tree_print(Str *s, const Node *n)
{
	print_node(s, n);
}

/* A function's body as whatis and the environment show it: an empty one
 * is {}, as in rc 1.7.4. */
void tree_print_body(Str *s, const Node *n)
{
	if (n->type == nBrace && n->k[0] == NULL)
		str_adds(s, "{}");
	else
		print_node(s, n);
}
