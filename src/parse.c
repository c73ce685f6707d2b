/* parse.c: a recursive-descent parser for rc's grammar.
 *
 * The grammar, with the token names of lex.c (nl is optional newlines):
 *
 *	line	: list ('\n' | EOF)
 *	list	: andor ((';' | '&') andor?)*		in braces '\n' separates too
 *	andor	: pipe (('&&' | '||') nl pipe)*
 *	pipe	: unary ('|' nl unary)*
 *	unary	: '!' pipe | '@' pipe | cmd
 *	cmd	: redir* body redir*
 *	body	: '{' list '}'
 *		| 'if' paren nl andor ['else' nl andor]	else only after '}'
 *		| 'if' 'not' nl andor
 *		| 'for' '(' word ['in' words] ')' nl andor
 *		| 'while' paren nl andor
 *		| 'switch' '(' word ')' nl '{' caselist '}'
 *		| '~' word words
 *		| 'fn' words ['{' list '}']
 *		| assign+ [cmd]			assign: word '=' word
 *		| (word | redir)+
 *	paren	: '(' list ')'
 *	word	: atom ('^' atom | <adjacent> atom)*	the second is a free caret
 *	atom	: WORD | QWORD | '(' words ')' | '$' name [SUB words ')']
 *		| '$#' name | '$^' name | '`' (brace | atom)
 *		| '``' atom brace | '<{' list '}' | '>{' list '}'
 *	name	: WORD | QWORD | '$' name | '(' words ')'
 *
 * Keywords and '=' are ordinary words except where the rules above use them.
 * A free caret joins a word-like atom to a following atom written against it:
 * after a plain word, a quoted word, '=', $x, $#x or $^x, and before a word,
 * '=', '$', '$#', '$^' or a backquote. */
#include "rc.h"

#include <string.h>

static Node *list(bool braced);
static Node *andor(void);
static Node *pipeline(void);
static Node *word(bool arg, bool *joinable);
static Node *words_until(int close, bool nl_ok);
static Node *words_plain(void);
static Node *simple_rest(Node *first);
static Node *pipe_rest(Node *left);
static Node *unary(void);
static Node *var_ref(void);

static bool in_switch;

static void expect(int t)
{
	if (tok.type != t)
		lex_syntax(NULL);
	lex_next();
}

static bool is_kw(int kw)
{
	return tok.type == tKW && tok.kw == kw;
}

/* Tokens that can begin a word. */
static bool word_start(bool arg)
{
	switch (tok.type) {
	case tWORD: case tQWORD: case '$': case tCOUNT: case tFLAT:
	case tBACKQ: case tBACKBACKQ: case '(': case tNMPIPE:
		return true;
	case tKW:
		return arg;
	case '=':
		return arg;
	}
	return false;
}

static bool is_redir(void)
{
	return tok.type == tREDIR || tok.type == tDUP ||
		tok.type == tHEREDOC || tok.type == tHERESTR;
}

static Node *brace_body(void)
{
	expect('{');
	Node *body = list(true);
	expect('}');
	return mk(nBrace, body, NULL, NULL);
}

/* The name after '$', '$#' or '$^'. */
static Node *varname(void)
{
	Node *n;
	stack_check();
	switch (tok.type) {
	case tWORD:
		n = mkword(tok.s, false);
		n->kind = 0;
		lex_next();
		return n;
	case tQWORD:
		n = mkword(tok.s, true);
		lex_next();
		return n;
	case '$':
		return var_ref();
	case '(':
		lex_next();
		return words_until(')', true);
	}
	lex_syntax(NULL);
}

/* $name or $name(subscripts), the '$' being the current token. */
static Node *var_ref(void)
{
	lex_next();
	Node *n = varname();
	if (tok.type != tSUB)
		return mk(nVar, n, NULL, NULL);
	lex_next();
	return mk(nVarsub, n, words_until(')', false), NULL);
}

/* Words up to the closing token, as an nList chain (an empty list if none). */
static Node *words_until(int close, bool nl_ok)
{
	Node *head = NULL, **tail = &head;
	for (;;) {
		if (nl_ok)
			lex_skipnl();
		if (tok.type == close)
			break;
		if (!word_start(true))
			lex_syntax(NULL);
		*tail = mk(nList, word(true, NULL), NULL, NULL);
		tail = &(*tail)->k[1];
	}
	lex_next();
	return head != NULL ? head : mk(nList, NULL, NULL, NULL);
}

static Node *parse_backquote(bool doubled)
{
	Node *seps = NULL;
	lex_next();
	if (doubled) {
		if (tok.type == '{')
			lex_syntax(NULL);
		seps = word(false, NULL);
	}
	Node *body;
	if (tok.type == '{') {
		lex_next();
		body = list(true);
		expect('}');
	} else if (!doubled && word_start(false)) {
		body = mk(nSimple, mk(nList, word(false, NULL), NULL, NULL), NULL, NULL);
	} else
		lex_syntax(NULL);
	return mk(nBackq, body, seps, NULL);
}

static Node *atom(bool arg, bool *joinable)
{
	Node *n;
	int t = tok.type;
	*joinable = false;
	switch (t) {
	case tWORD:
		n = mkword(tok.s, false);
		n->kind = tok.meta;
		lex_next();
		*joinable = true;
		return n;
	case tQWORD:
		n = mkword(tok.s, true);
		lex_next();
		*joinable = true;
		return n;
	case tKW:
		n = mkword(kwname(tok.kw), false);
		lex_next();
		*joinable = true;
		return n;
	case '=':
		if (!arg)
			lex_syntax(NULL);
		n = mkword("=", false);
		lex_next();
		*joinable = true;
		return n;
	case '(':
		lex_next();
		return words_until(')', true);
	case '$':
		n = var_ref();
		*joinable = n->type == nVar;	/* not after a subscript */
		return n;
	case tCOUNT: case tFLAT:
		lex_next();
		n = mk(t == tCOUNT ? nCount : nFlat, varname(), NULL, NULL);
		*joinable = true;
		return n;
	case tBACKQ: case tBACKBACKQ:
		return parse_backquote(t == tBACKBACKQ);
	case tNMPIPE: {
		int dir = tok.fd[0];
		lex_next();
		Node *body = list(true);
		expect('}');
		n = mk(nNmpipe, body, NULL, NULL);
		n->fd[0] = dir;
		return n;
	}
	}
	lex_syntax(NULL);
}

static bool free_caret_follows(bool arg)
{
	if (tok.spaced)
		return false;
	switch (tok.type) {
	case tWORD: case tQWORD: case tKW: case '$': case tCOUNT: case tFLAT:
	case tBACKQ: case tBACKBACKQ:
		return true;
	case '=':
		return arg;
	}
	return false;
}

/* A word: atoms joined by explicit or free carets.  In argument position
 * (arg) keywords and '=' are plain text. */
static Node *word(bool arg, bool *joinable_out)
{
	bool joinable;
	stack_check();
	Node *n = atom(arg, &joinable);
	for (;;) {
		if (tok.type == '^') {
			lex_next();
			n = mk(nConcat, n, atom(true, &joinable), NULL);
		} else if (joinable && free_caret_follows(arg)) {
			n = mk(nConcat, n, atom(arg, &joinable), NULL);
		} else if (joinable && tok.type == '(' && !tok.spaced) {
			lex_syntax(NULL);
		} else
			break;
	}
	if (joinable_out)
		*joinable_out = joinable;
	return n;
}

/* <<word: the body is read when the line ends. */
static Node *heredoc(int fd)
{
	lex_next();
	if ((tok.type != tWORD && tok.type != tQWORD)) {
		lex_error_line("eof-marker not a single literal word", 0);
	}
	bool quoted = tok.type == tQWORD;
	const char *eof = tok.s;
	Node *r = mkredir(rHerestr, fd, 0, NULL);
	heredoc_pending(r, eof, quoted);
	lex_next();
	if (!tok.spaced && word_start(true)) {
		lex_error_line("eof-marker not a single literal word", 0);
	}
	return r;
}

static Node *redirection(void)
{
	int t = tok.type, kind = tok.redir, fd0 = tok.fd[0], fd1 = tok.fd[1];
	if (t == tHEREDOC)
		return heredoc(fd0);
	if (t == tDUP) {
		Node *r = mkredir(kind, fd0, fd1, NULL);
		r->s = tok.s;
		lex_next();
		return r;
	}
	lex_next();
	if (!word_start(true)) {
		if (is_redir())
			lex_next();
		lex_syntax(NULL);
	}
	return mkredir(kind, fd0, fd1, word(true, NULL));
}

/* Words and redirections, the first word given. */
static Node *simple(Node *first, Node *pre)
{
	Node *head = pre, **tail = &head;
	while (*tail != NULL)
		tail = &(*tail)->k[1];
	if (first != NULL) {
		*tail = mk(nList, first, NULL, NULL);
		tail = &(*tail)->k[1];
	}
	for (;;) {
		Node *item;
		if (is_redir())
			item = redirection();
		else if (word_start(true))
			item = word(true, NULL);
		else
			break;
		*tail = mk(nList, item, NULL, NULL);
		tail = &(*tail)->k[1];
	}
	return mk(nSimple, head, NULL, NULL);
}

/* Redirections after a compound command. */
static Node *epilog(Node *cmd)
{
	Node *head = NULL, **tail = &head;
	while (is_redir()) {
		*tail = mk(nList, redirection(), NULL, NULL);
		tail = &(*tail)->k[1];
	}
	return head != NULL ? mk(nRedirs, cmd, head, NULL) : cmd;
}

static Node *paren(void)
{
	expect('(');
	Node *n = list(true);
	expect(')');
	lex_skipnl();
	return n;
}

static Node *body_after_nl(void)
{
	lex_skipnl();
	return andor();
}

static Node *cmd_if(void)
{
	lex_next();
	if (is_kw(kwNot)) {
		lex_next();
		return mk(nIfnot, body_after_nl(), NULL, NULL);
	}
	Node *cond = paren();
	Node *then = andor();
	Node *els = NULL;
	if (then != NULL && then->type == nBrace && is_kw(kwElse)) {
		lex_next();
		els = body_after_nl();
	}
	return mk(nIf, cond, then, els);
}

static Node *cmd_for(void)
{
	lex_next();
	expect('(');
	Node *var = word(false, NULL);
	Node *in = NULL;
	if (is_kw(kwIn)) {
		lex_next();
		in = words_until(')', false);
	} else
		expect(')');
	lex_skipnl();
	return mk(nFor, var, in, andor());
}

static Node *cmd_switch(void)
{
	lex_next();
	expect('(');
	Node *subject = word(true, NULL);
	expect(')');
	lex_skipnl();
	expect('{');
	bool saved = in_switch;
	in_switch = true;
	Node *body = list(true);
	in_switch = saved;
	expect('}');
	return mk(nSwitch, subject, body, NULL);
}

static Node *cmd_fn(void)
{
	lex_next();
	Node *head = NULL, **tail = &head;
	while (word_start(true)) {
		*tail = mk(nList, word(true, NULL), NULL, NULL);
		tail = &(*tail)->k[1];
	}
	if (head == NULL)	/* "fn {...}" is an error when run; a lone "fn" does nothing */
		head = mk(nList, NULL, NULL, NULL);
	if (tok.type == '{')
		return mk(nNewfn, head, brace_body(), NULL);
	return mk(nRmfn, head, NULL, NULL);
}

/* name=value [name=value...] [command]: without a command the assignments
 * are global; with one they are local to it, and it extends over a pipeline. */
static Node *assignment(Node *name)
{
	stack_check();
	lex_next();
	if (!word_start(true))
		lex_syntax(NULL);
	Node *a = mk(nAssign, name, word(true, NULL), NULL);
	if (word_start(false)) {
		Node *first = word(false, NULL);
		Node *rest = tok.type == '=' ? assignment(first) : NULL;
		if (rest != NULL && (rest->type == nAssign || rest->type == nSeq)) {
			Node *both = mk(nSeq, a, rest, NULL);
			both->kind = 1;	/* one command, printed a=1 b=2 */
			return both;
		}
		if (rest == NULL)
			rest = simple_rest(first);
		a->type = nLocal;
		a->k[2] = rest;
		return a;
	}
	if (tok.type == '{' || tok.type == tKW || is_redir()) {
		a->type = nLocal;
		a->k[2] = pipeline();
	}
	return a;
}

/* A simple command whose first word is parsed, and any pipe after it. */
static Node *simple_rest(Node *first)
{
	Node *n = simple(first, NULL);
	while (tok.type == tPIPE)
		n = pipe_rest(n);
	return n;
}

/* Tokens after which a command may be empty: "a;;", "@", "a | ;". */
static bool ends_command(void)
{
	switch (tok.type) {
	case ';': case '&': case '\n': case tEOF: case ')': case '}':
	case tANDAND: case tOROR: case tPIPE:
		return true;
	}
	return false;
}

static Node *cmd(void)
{
	stack_check();
	Node *pre = NULL, **tail = &pre;
	while (is_redir()) {
		*tail = mk(nList, redirection(), NULL, NULL);
		tail = &(*tail)->k[1];
	}
	Node *n;
	if (tok.type == '{') {
		n = brace_body();
	} else if (tok.type == tKW) {
		switch (tok.kw) {
		case kwIf: n = cmd_if(); break;
		case kwFor: n = cmd_for(); break;
		case kwWhile:
			lex_next();
			n = paren();
			n = mk(nWhile, n, andor(), NULL);
			break;
		case kwSwitch: n = cmd_switch(); break;
		case kwFn: n = cmd_fn(); break;
		case kwTilde:
			lex_next();
			if (!word_start(true))
				lex_syntax(NULL);
			n = word(true, NULL);
			n = mk(nMatch, n, words_plain(), NULL);
			break;
		case kwCase:
			if (!in_switch)
				lex_syntax(NULL);
			lex_next();
			n = mk(nCase, words_plain(), NULL, NULL);
			break;
		case kwBang:
			lex_next();
			n = mk(nBang, pipeline(), NULL, NULL);
			return pre != NULL ? mk(nRedirs, n, pre, NULL) : n;	/* >f ! a */
		case kwAt:
			lex_next();
			n = mk(nSubshell, pipeline(), NULL, NULL);
			return pre != NULL ? mk(nRedirs, n, pre, NULL) : n;
		default:
			lex_syntax(NULL);
		}
	} else if (word_start(false)) {
		Node *first = word(false, NULL);
		if (tok.type == '=' && pre == NULL)
			return assignment(first);
		return simple(first, pre);
	} else if (pre != NULL) {
		return simple(NULL, pre);
	} else if (ends_command())
		return NULL;
	else
		lex_syntax(NULL);
	if (pre != NULL)
		n = mk(nRedirs, n, pre, NULL);
	return epilog(n);
}

/* Words to the end of a command, as an nList chain (an empty list if none). */
static Node *words_plain(void)
{
	Node *head = NULL, **tail = &head;
	while (word_start(true)) {
		*tail = mk(nList, word(true, NULL), NULL, NULL);
		tail = &(*tail)->k[1];
	}
	return head != NULL ? head : mk(nList, NULL, NULL, NULL);
}

static Node *pipe_rest(Node *left)
{
	int fd0 = tok.fd[0], fd1 = tok.fd[1];
	lex_next();
	lex_skipnl();
	Node *n = mk(nPipe, left, unary(), NULL);
	n->fd[0] = fd0;
	n->fd[1] = fd1;
	return n;
}

static Node *unary(void)
{
	return cmd();
}

static Node *pipeline(void)
{
	Node *n = unary();
	while (tok.type == tPIPE)
		n = pipe_rest(n);
	return n;
}

static Node *andor(void)
{
	Node *n = pipeline();
	while (tok.type == tANDAND || tok.type == tOROR) {
		NodeType t = tok.type == tANDAND ? nAnd : nOr;
		lex_next();
		lex_skipnl();
		n = mk(t, n, pipeline(), NULL);
	}
	return n;
}

/* Merge "if(c) x; if not y" into one if-else, as the reference does. */
static Node *merge_ifnot(Node *prev, Node *n)
{
	if (prev == NULL || n == NULL || n->type != nIfnot)
		return NULL;
	if (prev->type == nSeq || prev->type == nAsync)
		return NULL;
	if (prev->type != nIf || prev->k[2] != NULL)
		return NULL;
	prev->k[2] = n->k[0];
	return prev;
}

/* Commands separated by ';' or '&' (and by newlines when braced).  A trailing
 * '&' makes the command before it asynchronous.  A line (not braced) that
 * ends in ';' ends in an empty command too, which sets $status to 0 as in
 * rc 1.7.4 ("false;" exits 0): a sequence whose second half is NULL. */
static Node *list(bool braced)
{
	Node *head = NULL, **tail = &head, *last = NULL;
	bool trailing_semi = false;
	for (;;) {
		if (braced)
			lex_skipnl();
		if (tok.type == tEOF || tok.type == '\n' || tok.type == '}' || tok.type == ')')
			break;
		Node *n = andor();
		if (n != NULL)
			trailing_semi = false;
		if (merge_ifnot(last, n) != NULL)
			n = NULL;
		else {
			if (n != NULL && n->type == nIfnot && head != NULL)
				rc_error("`if not' must follow `if'");
			if (n != NULL)
				last = n;
		}
		if (tok.type == '&') {
			lex_next();
			if (n != NULL)
				n = mk(nAsync, n, NULL, NULL);
			last = NULL;
		} else if (tok.type == ';') {
			lex_next();
			trailing_semi = true;
		} else if (!(tok.type == '\n' && braced) && tok.type != '}' && tok.type != ')' &&
			 tok.type != tEOF && tok.type != '\n')
			lex_syntax(NULL);
		if (n == NULL)
			continue;
		if (*tail == NULL)
			*tail = n;
		else {
			*tail = mk(nSeq, *tail, n, NULL);
			tail = &(*tail)->k[1];
		}
	}
	if (trailing_semi && !braced && *tail != NULL)
		*tail = mk(nSeq, *tail, NULL, NULL);
	return head;
}

/* One line of input: a list ending in a newline or end of input.
 * Returns NULL for an empty line; *eof says whether input ended. */
Node *parse_command(bool *eof)
{
	in_switch = false;
	lex_reset();
	lex_next();
	Node *n = list(false);
	if (tok.type != '\n' && tok.type != tEOF)
		lex_syntax(NULL);
	*eof = tok.type == tEOF;
	if (*eof && heredoc_waiting())
		heredoc_read_all(true);
	return n;
}

/* A whole string, all its lines, as one tree (for eval and imported functions). */
Node *parse_string(const char *s)
{
	Node *volatile all = NULL;
	bool eof = false;
	input_string(s, false);
	Catch c;
	if (catch_push(&c) != 0) {
		input_pop();
		rc_raise(eError);
	}
	while (!eof) {
		Node *n = parse_command(&eof);
		if (n != NULL)
			all = all == NULL ? n : mk(nSeq, all, n, NULL);
	}
	catch_pop(&c);
	input_pop();
	return all;
}
