/* SPDX-License-Identifier: Zlib */
/* parse.c: a recursive-descent parser for rc's grammar.
 *
 * The grammar, with the token names of lex.c (nl is optional newlines); it
 * accepts what rc's yacc grammar (rc's definition) accepts:
 *
 *	line	: list ('\n' | EOF)
 *	list	: andor ((';' | '&') andor?)*		in braces '\n' separates too
 *	andor	: pipe (('&&' | '||') nl pipe)*
 *	pipe	: cmd ('|' nl cmd)*
 *	cmd	: redir* body redir*
 *	body	: '{' list '}'
 *		| '!' ['^'] pipe | '@' ['^'] pipe	no redir after these
 *		| 'if' paren nl andor ['else' nl andor]	else after any command
 *		| 'if' 'not' nl andor			that does not take it
 *		| 'for' '(' word ['in' words] ')' nl andor	as an argument
 *		| 'while' paren nl andor
 *		| 'switch' '(' word ')' nl '{' cases '}'
 *		| '~' ['^'] word words
 *		| 'fn' words ['{' list '}']
 *		| assign+ [cmd]		assign: word ['^'] '=' ['^'] word
 *		| (word | redir)+
 *	cases	: a list whose items may also be 'case' words (';' | '\n')
 *	paren	: '(' list ')'
 *	word	: atom ('^' atom | <adjacent> atom)*	the second is a free caret
 *	atom	: WORD | QWORD | keyword | '=' | '(' words ')'
 *		| '$' atom [SUB words ')'] | '$#' atom | '$^' atom
 *		| '`' (brace | atom) | '``' word (brace | atom)
 *		| '<{' list '}' | '>{' list '}'	also '<' '{' apart
 *
 * Keywords and '=' are ordinary words except where the rules above use them.
 * A free caret joins a word-like atom to a following atom written against it:
 * after a plain word, a quoted word, a keyword, '=', $x, $#x, $^x or `x,
 * and before a word, '=', '$', '$#', '$^' or a backquote. */

#include "rc.h"

#include <string.h>

static Node *list(bool braced);
static Node *case_list(void);
static Node *andor(void);
static Node *pipeline(void);
static Node *word(bool arg, bool *joinable);
static Node *words_until(int close, bool nl_ok);
static Node *words_plain(void);
static Node *simple_rest(Node *first);
static Node *pipe_rest(Node *left);
static Node *var_ref(bool *joinable);
static Node *atom(bool arg, bool *joinable);

/* The grammar allows one caret after '~', '!', '@' and on either side of
 * an assignment's '=' (its "optcaret"): x=^a, ~ ^a a. */
static void optcaret(void)
{
	if (tok.type == '^')
		lex_next();
	else	/* a free caret was the optcaret: an error is at the token */
		tok.careted = false;
}

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

/* Past a keyword that begins a construct (not ! @ ~): what a free caret
 * would join to it is an error there (if$x, fn=): no keyword is a word. */
static void keyword_next(void)
{
	lex_next();
	if (tok.careted)
		lex_syntax(NULL);
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
	case tREDIR:	/* < {cmd} */
		return arg && tok.bare;
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

/* The name after '$', '$#' or '$^': one word without carets (the
 * grammar's "sword"), so a name, a quoted word, $x, `cmd, (list) or a keyword. */
static Node *varname(bool *joinable)
{
	stack_check();
	if (tok.type == tWORD) {
		Node *n = mkword(tok.s, false);
		n->kind = 0;
		lex_next();
		*joinable = true;
		return n;
	}
	if (!word_start(true))
		lex_syntax(NULL);
	return atom(true, joinable);
}

/* $name or $name(subscripts), the '$' being the current token. */
static Node *var_ref(bool *joinable)
{
	lex_next();
	Node *n = varname(joinable);
	if (tok.type != tSUB)
		return mk(nVar, n, NULL, NULL);
	lex_next();
	*joinable = false;
	return mk(nVarsub, n, words_until(')', false), NULL);
}

/* (), (()), (() ()): a list written empty. */
static bool empty_list(const Node *n)
{
	if (n->type != nList)
		return false;
	for (; n != NULL; n = n->k[1])
		if (n->k[0] != NULL && !empty_list(n->k[0]))
			return false;
	return true;
}

/* Adds word w to the list whose end is *tail as the grammar builds word
 * lists (lists are flat): a word written as an empty list is left out and a list's words
 * join this one's, so (() a (b c)) is (a b c) and prints so. */
static void list_add(Node ***tail, Node *w)
{
	if (empty_list(w))
		return;
	if (w->type != nList)
		w = mk(nList, w, NULL, NULL);
	**tail = w;
	while (**tail != NULL)
		*tail = &(**tail)->k[1];
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
		list_add(&tail, word(true, NULL));
	}
	lex_next();
	return head != NULL ? head : mk(nList, NULL, NULL, NULL);
}

/* The atom of `word.  In the grammar words end at ! ~ @ (tokens of
 * their own that free carets join back), so `a~b runs a and joins ~b to its
 * output: our word a~b is split, its rest left as the current token. */
static Node *backquote_word(bool *joinable)
{
	size_t n;
	if (tok.type != tWORD || (n = strcspn(tok.s, "!~@")) == 0 ||
	    tok.s[n] == '\0')
		return atom(true, joinable);
	Node *w = mkword(nstrndup(tok.s, n), false);
	w->kind = strcspn(tok.s, "*?[") < n;
	tok.s += n;
	tok.meta = strpbrk(tok.s, "*?[") != NULL;
	tok.kw = 0;
	tok.spaced = false;
	*joinable = true;
	return w;
}

/* `{list}, `word, ``seps {list}, ``seps word: the word run is one atom
 * of the grammar ("sword"): `f^x runs f and joins x to its output. */
static Node *parse_backquote(bool doubled, bool *joinable)
{
	Node *seps = NULL;
	lex_next();
	if (doubled) {
		if (!word_start(true))
			lex_syntax(NULL);
		seps = word(true, NULL);
	}
	Node *body;
	*joinable = false;
	if (tok.type == '{') {
		lex_next();
		body = list(true);
		expect('}');
	} else if (word_start(true)) {
		/* ` () runs no command: () is no word (nothing for -x) */
		Node *w = unparen(backquote_word(joinable));
		body = w->type == nList && w->k[0] == NULL ? NULL :
			mk(nSimple, mk(nList, w, NULL, NULL), NULL, NULL);
	} else
		lex_syntax(NULL);
	return mk(nBackq, body, seps, NULL);
}

/* <{list} or >{list}: the current token is the '<{' or the '{'. */
static Node *nmpipe_atom(int dir)
{
	lex_next();
	Node *body = list(true);
	expect('}');
	Node *n = mk(nNmpipe, body, NULL, NULL);
	n->fd[0] = dir;
	return n;
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
		return var_ref(joinable);
	case tCOUNT: case tFLAT:
		lex_next();
		return mk(t == tCOUNT ? nCount : nFlat, varname(joinable), NULL, NULL);
	case tBACKQ: case tBACKBACKQ:
		return parse_backquote(t == tBACKBACKQ, joinable);
	case tNMPIPE:
		return nmpipe_atom(tok.fd[0]);
	case tREDIR:
		if (arg && tok.bare) {
			int dir = tok.redir == rFrom ? 0 : 1;
			lex_next();
			if (tok.type == '{')
				return nmpipe_atom(dir);
		}
		break;
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
			if (!arg && tok.type == '=')
				break;	/* x^=v: an assignment (optcaret) */
			n = mk(nConcat, n, atom(true, &joinable), NULL);
		} else if (joinable && free_caret_follows(arg)) {
			n = mk(nConcat, n, atom(arg, &joinable), NULL);
		} else
			break;
	}
	if (joinable_out)
		*joinable_out = joinable;
	return n;
}

/* After a redirection a word must come.  At another redirection the
 * error is near the word after it when that is a lone < or >, else near
 * the byte after it (its ']' when it has one): the last thing read. */
static void redirection_word(void)
{
	if (word_start(true))
		return;
	if (is_redir() && tok.type != tHEREDOC && tok.type != tHERESTR &&
	    !(tok.type == tREDIR && tok.redir == rAppend) && !lex_ends_bracket())
		lex_next();
	lex_syntax(NULL);
}

/* <<word: any word parses; it must be one literal word.  The body is read
 * when the line ends. */
static Node *heredoc(int fd)
{
	lex_next();
	redirection_word();
	Node *r = mkredir(rHerestr, fd, 0, NULL);
	Node *w = unparen(word(true, NULL));	/* <<while, <<!, <<= are words too */
	if (w->type != nWord && w->type != nQword) {
		heredoc_discard();	/* it never was one */
		lex_fail_flush("eof-marker not a single literal word");
	}
	/* Pending once the word is whole, when the token after it has been
	 * read (the newline that reads the body is only seen by the caller):
	 * a scanner error in that token (<<EOF <[0=3) leaves the here
	 * document unannounced; so does a ( against the word (<<EOF(), where
	 * the grammar fails before it takes the redirection. */
	if (tok.type != tSUB)
		heredoc_pending(r, w->s, w->type == nQword);
	return r;
}

/* A redirection; where a word may stand (nmpipe_ok), a plain < or > before
 * a '{' is <{} or >{} written apart, as the grammar reads it. */
static Node *redirection(bool nmpipe_ok)
{
	int t = tok.type, kind = tok.redir, fd0 = tok.fd[0], fd1 = tok.fd[1];
	bool bare = t == tREDIR && tok.bare;
	if (t == tHEREDOC)
		return heredoc(fd0);
	if (t == tDUP) {
		Node *r = mkredir(kind, fd0, fd1, NULL);
		r->s = tok.s;
		lex_next();
		return r;
	}
	lex_next();
	if (nmpipe_ok && bare && tok.type == '{')
		return nmpipe_atom(kind == rFrom ? 0 : 1);
	redirection_word();
	return mkredir(kind, fd0, fd1, word(true, NULL));
}

/* Words and redirections, the first word given.  An empty list word
 * expands to nothing, but the tree keeps the first word and
 * the one after it written () (() foo, echo () foo, () >f print so) when
 * something not empty follows them; any other () is left out, and a
 * command left with nothing is none: "()" alone runs nothing, "{()}" is
 * "{}", "echo () ()" is "echo". */
static Node *simple(Node *first, Node *pre)
{
	Node *head = pre, **tail = &head;
	while (*tail != NULL)
		tail = &(*tail)->k[1];
	Node **words = tail;
	if (first != NULL) {
		*tail = mk(nList, first, NULL, NULL);
		tail = &(*tail)->k[1];
	}
	bool any = false;	/* something not empty after the first word */
	for (bool second = true;; second = false) {
		Node *item;
		if (is_redir())
			item = redirection(true);
		else if (word_start(true))
			item = word(true, NULL);
		else
			break;
		bool empty = empty_list(item);
		if (empty && !second)
			continue;
		any |= !empty;
		*tail = mk(nList, item, NULL, NULL);
		tail = &(*tail)->k[1];
	}
	if (!any && *words != NULL) {	/* (), echo () (), >f () */
		if (empty_list((*words)->k[0]))
			*words = NULL;
		else
			(*words)->k[1] = NULL;
	}
	return head != NULL ? mk(nSimple, head, NULL, NULL) : NULL;
}

/* Redirections after a compound command. */
/* Redirections written before a command (kind 1: printed before it). */
static Node *prefixed(Node *cmd, Node *redirs)
{
	Node *n = mk(nRedirs, cmd, redirs, NULL);
	n->kind = 1;
	return n;
}

static Node *epilog(Node *cmd)
{
	Node *head = NULL, **tail = &head;
	while (is_redir()) {
		*tail = mk(nList, redirection(false), NULL, NULL);
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
	keyword_next();
	if (is_kw(kwNot)) {
		keyword_next();
		return mk(nIfnot, body_after_nl(), NULL, NULL);
	}
	Node *cond = paren();
	Node *then = andor();
	Node *els = NULL;
	/* else follows any command that does not take it as an argument */
	if (is_kw(kwElse)) {
		keyword_next();
		els = body_after_nl();
	}
	Node *n = mk(nIf, cond, then, els);
	n->kind = els != NULL;
	return n;
}

static Node *cmd_for(void)
{
	keyword_next();
	expect('(');
	if (!word_start(true))
		lex_syntax(NULL);
	Node *var = word(true, NULL);
	Node *in = NULL;
	if (is_kw(kwIn)) {
		keyword_next();
		in = words_until(')', false);
	} else
		expect(')');
	lex_skipnl();
	return mk(nFor, var, in, andor());
}

static Node *cmd_switch(void)
{
	keyword_next();
	expect('(');
	Node *subject = word(true, NULL);
	expect(')');
	lex_skipnl();
	expect('{');
	Node *body = case_list();
	expect('}');
	return mk(nSwitch, subject, body, NULL);
}

static Node *cmd_fn(void)
{
	keyword_next();
	Node *head = NULL, **tail = &head;
	while (word_start(true))
		list_add(&tail, word(true, NULL));
	if (head == NULL)	/* "fn {...}" is an error when run; a lone "fn" does nothing */
		head = mk(nList, NULL, NULL, NULL);
	if (tok.type == '{')
		return mk(nNewfn, head, brace_body(), NULL);
	return mk(nRmfn, head, NULL, NULL);
}

static bool only_redirections(Node *n)
{
	if (n == NULL || n->type != nSimple)
		return false;
	for (Node *i = n->k[0]; i != NULL; i = i->k[1])
		if (i->k[0]->type != nRedir)
			return false;
	return true;
}

/* name=value [name=value...] [command]: without a command the assignments
 * are global; with one they are local to it, and it extends over a pipeline. */
static Node *assignment(Node *name)
{
	stack_check();
	lex_next();
	optcaret();
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
		if (rest == NULL)	/* x=1 (): no command, so global */
			return a;
		a->type = nLocal;
		a->k[2] = rest;
		return a;
	}
	if (tok.type == '{' || (tok.type == tKW && tok.kw != kwElse) || is_redir()) {
		Node *rest = pipeline();
		if (only_redirections(rest)) {	/* v=1 >f: v is set, f made */
			Node *both = mk(nSeq, a, rest, NULL);
			both->kind = 1;
			return both;
		}
		a->type = nLocal;
		a->k[2] = rest;
	} else if (tok.type == tPIPE) {
		/* x=1 |cmd: in the grammar the assignment is local to a pipeline
		 * whose first command is empty (printed x=1 ()|cmd) */
		Node *rest = NULL;
		while (tok.type == tPIPE)
			rest = pipe_rest(rest);
		a->type = nLocal;
		a->k[2] = rest;
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
		Node *r = redirection(true);
		if (r->type == nNmpipe)		/* < {cmd} as the command's name */
			return simple(r, pre);
		*tail = mk(nList, r, NULL, NULL);
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
			keyword_next();
			n = paren();
			n = mk(nWhile, n, andor(), NULL);
			break;
		case kwElse:	/* an empty command: "if (c) else x", "if (c) >f else x" */
			return pre != NULL ? mk(nSimple, pre, NULL, NULL) : NULL;
		case kwSwitch: case kwFn: {	/* take no redirections after them */
			bool fn = tok.kw == kwFn;
			n = fn ? cmd_fn() : cmd_switch();
			if (is_redir())
				lex_syntax(NULL);
			if (fn && pre != NULL) {
				/* >f fn g {...}, >f fn g: in a child, as >f v=1 */
				n = mk(nSubshell, n, NULL, NULL);
				n->kind = 1;
			}
			break;
		}
		case kwTilde:
			lex_next();
			optcaret();
			if (!word_start(true))
				lex_syntax(NULL);
			n = word(true, NULL);
			n = mk(nMatch, n, words_plain(), NULL);
			if (is_redir())	/* ~ takes only words in the grammar */
				lex_syntax(NULL);
			break;
		case kwBang:
			lex_next();
			optcaret();
			n = mk(nBang, pipeline(), NULL, NULL);
			return pre != NULL ? prefixed(n, pre) : n;	/* >f ! a */
		case kwAt:
			lex_next();
			optcaret();
			n = mk(nSubshell, pipeline(), NULL, NULL);
			return pre != NULL ? prefixed(n, pre) : n;
		default:
			lex_syntax(NULL);
		}
	} else if (word_start(false)) {
		Node *first = word(false, NULL);
		if (tok.type != '=')
			return simple(first, pre);
		if (pre == NULL)
			return assignment(first);
		/* >f v=1 cmd: it all runs as one command after a redirection,
		 * v=1 included (as @{v=1 cmd}) */
		n = mk(nSubshell, assignment(first), NULL, NULL);
		n->kind = 1;
		return prefixed(n, pre);
	} else if (pre != NULL) {
		/* in the grammar a cmd after a redirection cannot begin with '='
		 * (>f =, <[0]()=): a syntax error near the last word read */
		if (tok.type == '=')
			lex_syntax(NULL);
		return simple(NULL, pre);
	} else if (ends_command())
		return NULL;
	else
		lex_syntax(NULL);
	/* >[2=1] {cmd} >f: those before first, in the order written (the
	 * prefix holds the braced command with its epilog) */
	n = epilog(n);
	return pre != NULL ? prefixed(n, pre) : n;
}

/* Words to the end of a command, as an nList chain (an empty list if none). */
static Node *words_plain(void)
{
	Node *head = NULL, **tail = &head;
	while (word_start(true))
		list_add(&tail, word(true, NULL));
	return head != NULL ? head : mk(nList, NULL, NULL, NULL);
}

static Node *pipe_rest(Node *left)
{
	int fd0 = tok.fd[0], fd1 = tok.fd[1];
	lex_next();
	lex_skipnl();
	Node *n = mk(nPipe, left, cmd(), NULL);
	n->fd[0] = fd0;
	n->fd[1] = fd1;
	return n;
}

static Node *pipeline(void)
{
	Node *n = cmd();
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

/* Merge "if(c) x; if not y" into one if-else when they are parsed together
 * (an if's kind says it has an else, which may be empty). */
static Node *merge_ifnot(Node *prev, Node *n)
{
	if (prev == NULL || n == NULL || n->type != nIfnot)
		return NULL;
	if (prev->type == nSeq || prev->type == nAsync)
		return NULL;
	if (prev->type != nIf || prev->kind)
		return NULL;
	prev->k[2] = n->k[0];
	prev->kind = 1;
	return prev;
}

/* case words, ended by ';' or a newline: only directly in a switch body. */
static Node *case_item(void)
{
	keyword_next();
	Node *n = mk(nCase, words_plain(), NULL, NULL);
	if (tok.type != ';' && tok.type != '\n')
		lex_syntax(NULL);
	return n;
}

/* The current token is a newline that ends a command: the bodies of its
 * here documents follow.  A newline allowed after |, &&, ||, if (...) and
 * the like does not end one, so the bodies come after the line
 * that does (cat <<EOF | newline cat newline body...). */
static void command_newline(void)
{
	if (tok.type == '\n' && heredoc_waiting())
		heredoc_read_all(false);
}

/* A switch body: a chain of nSeq whose k[0] are its commands and case
 * items in order, k[1] the rest (NULL after the last).  The grammar
 * keeps every command of a switch body, an empty one too: the one before each
 * ';', newline or '&' that ends nothing else and the one before the
 * closing brace, and () (a k[0] of NULL); run, each sets $status to 0
 * (switch (x) {case x; false;} leaves 0).  An "if not" in it is left to
 * the run time (it is not merged). */
static Node *case_list(void)
{
	Node *head = NULL, **tail = &head;
	for (;;) {
		Node *n = NULL;
		if (tok.type != ';' && tok.type != '&' && tok.type != '\n' &&
		    tok.type != '}' && tok.type != ')' && tok.type != tEOF)
			n = is_kw(kwCase) ? case_item() : andor();
		bool last = false;
		if (tok.type == '&') {
			lex_next();
			if (n != NULL)
				n = mk(nAsync, n, NULL, NULL);
		} else if (tok.type == ';')
			lex_next();
		else if (tok.type == '\n') {
			/* the newline of "case words" ends no command: here
			 * documents wait for the next one */
			if (n == NULL || n->type != nCase)
				command_newline();
			lex_next();
		} else if (tok.type == '}' || tok.type == ')' || tok.type == tEOF)
			last = true;
		else
			lex_syntax(NULL);
		*tail = mk(nSeq, n, NULL, NULL);
		tail = &(*tail)->k[1];
		if (last)
			return head;
	}
}

static bool ifnot_failed;

/* Was the last error raised a misplaced if not?  Asked once: the answer
 * is cleared (as it is when a command is read). */
bool parse_ifnot_taken(void)
{
	bool failed = ifnot_failed;
	ifnot_failed = false;
	return failed;
}

/* A misplaced if not: no syntax error (-n reads on after it, except in a
 * script), but the command is not run.  line: the one to name (list,
 * below, says which). */
static NORETURN void ifnot_error(int line)
{
	ifnot_failed = true;
	if (!as_script())
		print_error("rc: `if not' must follow `if'");
	else
		report_at(line, "`if not' must follow `if'");
	rc_raise_failed();
}

/* Commands separated by ';' or '&' (and by newlines when braced).  A trailing
 * '&' makes the command before it asynchronous.  A line (not braced) that
 * ends in ';' or '&' ends in an empty command too, which sets $status to 0
 * ("false;" exits 0; "false; echo &" too, though '&' itself
 * leaves $status alone): a sequence whose second half is NULL. */
static Node *list(bool braced)
{
	Node *head = NULL, **tail = &head, *last = NULL;
	bool trailing_semi = false, misplaced = false, ends_merged = false;
	for (;;) {
		while (braced && tok.type == '\n') {
			command_newline();
			lex_next();
		}
		if (tok.type == tEOF || tok.type == '\n' || tok.type == '}' || tok.type == ')')
			break;
		Node *n = andor();
		if (n != NULL)
			trailing_semi = false;
		/* An "if not" run in the background (or in a switch body:
		 * case_list) is left to the run time (it is not merged): it
		 * pairs with the if run last, if any. */
		bool runtime = tok.type == '&';
		if (!runtime && merge_ifnot(last, n) != NULL) {
			n = NULL;
			ends_merged = true;
		} else if (n != NULL) {
			if (n->type == nIfnot && head != NULL && !runtime)
				misplaced = true;
			last = n;
			ends_merged = false;
		}
		if (tok.type == '&') {
			lex_next();
			if (n != NULL)
				n = mk(nAsync, n, NULL, NULL);
			last = NULL;
			trailing_semi = true;
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
	/* it is reported at once when the list ends, whatever
	 * token ends it (before a syntax error there or later on the line:
	 * {true;if not}} names no syntax error), naming the line before its
	 * closing token's (the newline's own line).  An interactive shell
	 * then reads on after the closing token ({umask<newline>if not};
	 * echo x runs the echo); a script ends.  A command line's list ends
	 * only at its newline or end of input there (true; if not x; ) is a
	 * syntax error), a braced one not at the end of input ({true; if not
	 * x<EOF> is a syntax error). */
	if (misplaced && (braced ? tok.type != tEOF : tok.type == '\n' || tok.type == tEOF)) {
		if (!as_script())
			input_keep_line();
		ifnot_error(tok.type == '\n' ? lineno : lineno - 1);
	}
	/* a list ending in a merged "if not" ends in an empty command too:
	 * the merge leaves one, which sets $status to 0 */
	if (((trailing_semi && !braced) || ends_merged) && *tail != NULL)
		*tail = mk(nSeq, *tail, NULL, NULL);
	return head;
}

static Node *command_line(bool *eof)
{
	ifnot_failed = false;
	lex_reset();
	lex_next();
	Node *n = list(false);
	if (tok.type != '\n' && tok.type != tEOF)
		lex_syntax(NULL);
	command_newline();
	*eof = tok.type == tEOF;
	if (*eof && heredoc_waiting())
		heredoc_read_all(true);
	return n;
}

/* One line of input: a list ending in a newline or end of input.
 * Returns NULL for an empty line; *eof says whether input ended.  After
 * a syntax error, the here documents the line announced are dealt with
 * (lex_after_error) before the error goes on. */
Node *parse_command(bool *eof)
{
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) != 0) {
		lex_after_error();
		rc_raise(catch_raised);
	}
	Node *n = command_line(eof);
	catch_pop(&c);
	return n;
}

/* A whole string, all its lines, as one tree (for eval and imported functions). */
Node *parse_string(const char *s)
{
	Node *volatile all = NULL;
	bool eof = false;
	input_string(s, false);
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) != 0) {
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
