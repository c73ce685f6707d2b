/* SPDX-License-Identifier: Zlib */
/* lex.c: the tokenizer.  Tokens record whether white space preceded them,
 * so that the parser can insert rc's free carets between adjacent words. */
#include "rc.h"

#include <limits.h>
#include <string.h>

Token tok;

static int lastchar;		/* the last byte read, for "near" in messages */
/* What a syntax error is "near", in rc's messages: the text of the last
 * word read (a keyword's too), if the current token is that word or one of
 * the keywords ! @ ~ = written against it; otherwise the last byte read. */
static Str near_text;		/* kept across commands: an error at a command's
				 * first token is near the last word read */
/* The first part of a word that holds ! ~ or @ (near_split): the grammar
 * reads a~b as the words a and b joined to the keyword ~, so an error at the
 * word itself is near the first (switch [~a]* is near [); near_text is
 * the last part. */
static Str near_first;
static bool near_split;
static bool near_word;
static bool after_dollar;	/* the next token is read as a variable name */
static bool recovering;		/* reading to the end of the line after an error */
static bool after_word;		/* a '(' right now starts a subscript */
/* the last token was read by lex_word's loop, which takes a
 * backslash-newline right after it for a blank (the word has ended) */
static bool word_loop;
/* an error was reported on this line: by the scanner or the parser */
static enum { FAIL_NONE, FAIL_SCAN, FAIL_SYNTAX } failed;

static int lgetc(void)
{
	return lastchar = input_getc();
}

/* Bytes that end an unquoted word. */
static bool is_special(int c)
{
	return c == EOF || strchr(" \t\n#;&|^$`'{}()<>=", c) != NULL;
}

void lex_reset(void)
{
	after_dollar = after_word = near_word = recovering = word_loop = false;
	failed = FAIL_NONE;
	memset(&tok, 0, sizeof tok);
}

/* What a syntax error is "near": the current token if a word, or else the
 * last byte the scanner read: where the scanner stopped. */
static const char *byte_name(int c)
{
	if (c == EOF)
		return "eof";
	if (c == '\n')
		return "end of line";
	if (c < ' ' || c > '~')
		return nfmt("(decimal %d)", c);
	return nfmt("'%c'", c);
}

/* An error at a token with a free caret before it is at that caret (the
 * grammar's token), which is reported by the byte after it. */
const char *lex_near(void)
{
	if (tok.careted)
		return byte_name(tok.first);
	if (near_word && near_split && tok.type == tWORD)
		return near_first.buf;
	if (near_word)
		return near_text.buf != NULL ? near_text.buf : "";
	return byte_name(lastchar);
}

NORETURN void lex_syntax(const char *near)
{
	lex_fail("syntax error", near);
}

/* After a syntax error (for the parser, which owns the here documents):
 * the line is read to its end and then the bodies of the here
 * documents it announced (the input goes on after them), reporting one the input cuts off.  The queue is
 * emptied. */
void lex_after_error(void)
{
	if (failed == FAIL_NONE)
		return;
	bool syntax = failed == FAIL_SYNTAX;
	failed = FAIL_NONE;
	if (heredoc_waiting()) {
		int c = lastchar;
		while (c != '\n' && c != EOF)
			c = lgetc();
		/* a syntax error's line that ended the input: reported on it */
		heredoc_read_all(syntax && c == EOF);
	}
	heredoc_discard();
}

/* The parser's messages (a syntax error, a scanner's error, eof-marker,
 * heredoc incomplete) go through one routine, which skips
 * a message after a scanner's error: the parser's own "syntax error" at
 * the error token it is given.  A scanner's error met while the parser
 * recovers from a syntax error, reading to the end of the line, is given
 * to no parser that would take that skip: the next message, on any later
 * line, is the one skipped (echo ) >[3 then ) on the next line prints
 * nothing for the second line; a here document cut off is not reported). */
static bool quiet_next;

/* Whether the parser's message about to be printed is to be skipped
 * (once). */
bool lex_quiet(void)
{
	bool q = quiet_next;
	quiet_next = false;
	return q;
}

static void report_fail(const char *msg, const char *near)
{
	if (lex_quiet())
		return;
	if (near == NULL)
		near = lex_near();
	/* $status stays as it was: no command ran (fn sigexit sees it) */
	if (!as_script())
		print_error("rc: %s", msg);
	else
		report_at(lineno, "%s near %s", msg, near);
}

/* A parser's error, msg near the token (lex_near() if near is NULL). */
NORETURN void lex_fail(const char *msg, const char *near)
{
	report_fail(msg, near);
	/* the parser recovers by reading tokens up to the end of the
	 * line: a quote opened after the error goes on over newlines, and
	 * one the input cuts off is reported too */
	after_dollar = false;	/* a '$' at the error is not a variable */
	recovering = true;	/* nor is one after it an error of its own: }$ */
	while (tok.type != '\n' && tok.type != tEOF)
		lex_next();
	recovering = false;
	failed = FAIL_SYNTAX;
	rc_raise(eError);
}

/* An error raised by abandoning the parse (an eof-marker
 * that is not a single literal word), near the token: the rest of the
 * line is skipped byte by byte, not read as tokens (<<a'b '{' 'c opens
 * no quote), and, as after a scanner error, its newline is not counted.
 * A newline read only to end the word at the error is left to be read
 * again, as an empty command of its own (input.c, input_skip_line). */
NORETURN void lex_fail_flush(const char *msg)
{
	report_fail(msg, NULL);
	if (tok.type == '\n' || tok.type == tEOF)
		;
	else if (lastchar == '\n')
		input_newline_left();
	else {
		int c;
		while ((c = lgetc()) != '\n' && c != EOF)
			;
		if (c == '\n' && as_script())	/* interactive lines all say 1 */
			lineno--;
	}
	failed = FAIL_SYNTAX;
	rc_raise(eError);
}

/* The token just read ends in ']' (>[2], >[1=2]), the byte an error at it
 * is near: the last byte read. */
bool lex_ends_bracket(void)
{
	return lastchar == ']';
}

/* adjust: what a newline after the error does to the reported line. */
static NORETURN void lex_error_line(const char *msg, int adjust)
{
	int c = lastchar, line = lineno;
	if (c != '\n')
		while ((c = lgetc()) != '\n' && c != EOF)
			;
	if (lex_quiet())
		;
	else if (!as_script())
		print_error("rc: %s", msg);	/* $status stays as it was */
	else if (c == '\n')
		report_at(line + adjust, "%s near end of line", msg);
	else
		report_at(line, "%s near eof", msg);
	/* the newline skipped after a scanner error is not counted (it
	 * was skipped, not read): the lines of here documents read after it count from one
	 * less (cat <<EOF x <[0=3, no body: heredoc incomplete on line 2) */
	if (c == '\n')
		lineno--;
	if (recovering)
		quiet_next = true;
	failed = FAIL_SCAN;
	rc_raise(eError);
}

/* Scanner errors are reported "near eof" wherever they happen: the
 * scanner has no token to name. */
static NORETURN void lex_error(const char *msg)
{
	lex_error_line(msg, -1);
}

static void read_quoted(Str *s)
{
	for (;;) {
		int c = lgetc();
		if (c == EOF)
			lex_error("eof in quoted string");
		if (c == '\'') {
			c = lgetc();
			if (c != '\'') {
				input_ungetc(c);
				return;
			}
		}
		str_addc(s, c);
	}
}

static int read_number(int c, int *n)
{
	*n = 0;
	while (c >= '0' && c <= '9') {
		/* a huge number stays huge (and no descriptor), not negative */
		*n = *n <= (INT_MAX - 9) / 10 ? *n * 10 + (c - '0') : INT_MAX;
		c = lgetc();
	}
	return c;
}

/* [n], [n=m], [n=] after a redirection or pipe operator. */
static void read_fds(int dflt0, int dflt1, bool is_pipe)
{
	tok.fd[0] = dflt0;
	tok.fd[1] = dflt1;
	int c = lgetc();
	if (c != '[') {
		input_ungetc(c);
		return;
	}
	c = lgetc();
	if (c < '0' || c > '9')
		lex_error("expected digit after '['");
	c = read_number(c, &tok.fd[0]);
	if (c == ']') {
		if (is_pipe)
			tok.fd[1] = 0;
		return;
	}
	if (c != '=')
		lex_error("expected '=' or ']' after digit");
	c = lgetc();
	if (c >= '0' && c <= '9') {
		c = read_number(c, &tok.fd[1]);
		if (!is_pipe)
			tok.type = tDUP, tok.redir = rDup;
		if (c != ']')
			lex_error("expected ']' after digit");
	} else if (c == ']' && !is_pipe)
		tok.type = tDUP, tok.redir = rClose;
	else
		/* a pipe cannot be closed: |[2=] is the one different message */
		lex_error(is_pipe && c == ']' ? "expected digit after '='" : "expected digit or ']' after '='");
}

static void lex_redir(int c)
{
	int d = lgetc();
	tok.type = tREDIR;
	tok.s = c == '<' ? "<" : ">";
	if (c == '<') {
		tok.bare = d != '<' && d != '[';
		if (d == '<') {
			int e = lgetc();
			if (e == '<') {
				tok.type = tHERESTR;
				tok.redir = rHerestr;
			} else {
				input_ungetc(e);
				tok.type = tHEREDOC;
				tok.redir = rHerestr;
			}
		} else if (d == '{') {
			tok.type = tNMPIPE;
			tok.fd[0] = 0;
			return;
		} else {
			input_ungetc(d);
			tok.redir = rFrom;
		}
		read_fds(0, 0, false);
		return;
	}
	tok.bare = d != '>' && d != '[';
	if (d == '>')
		tok.redir = rAppend;
	else if (d == '{') {
		tok.type = tNMPIPE;
		tok.fd[0] = 1;
		return;
	} else {
		input_ungetc(d);
		tok.redir = rCreate;
	}
	read_fds(1, 0, false);
}

static bool is_keyword(Str *s)
{
	str_addc(s, '\0');
	s->len--;
	return keyword_of(s->buf) != 0;
}

/* The memory of the commands already run is reused: near_text and
 * near_first have their own. */
static void set_near(Str *near, const char *w, size_t len)
{
	near->len = 0;
	str_add(near, w, len);
	str_addc(near, '\0');
}

/* A word in a syntax error is named by its last part between
 * ! ~ and @ (a~b: b, a~: a), or at the word itself by its first
 * (near_first); ! ~ @ alone are not words. */
static void set_near_part(const char *w)
{
	const char *part = NULL, *first = NULL;
	size_t len = 0, first_len = 0;
	for (const char *p = w; *p != '\0';) {
		size_t n = strcspn(p, "!~@");
		if (n > 0) {
			if (first == NULL) {
				first = p;
				first_len = n;
			}
			part = p;
			len = n;
		}
		p += n;
		p += *p != '\0';
	}
	near_split = first != part;
	if (near_split)
		set_near(&near_first, first, first_len);
	if (part != NULL)
		set_near(&near_text, part, len);
}

static void lex_word(int c, bool varname)
{
	static Str s;
	s.len = 0;
	tok.meta = false;
	/* "!cmd", "~ x", "@cmd": the keyword stands alone; in an argument the
	 * parser joins it back to the rest with a free caret.  After '$' they
	 * are never part of a name. */
	if (c == '!' || c == '~' || c == '@') {
		int d = lgetc();
		input_ungetc(d);
		if (varname || !is_special(d)) {
			near_word = true;
			tok.type = tKW;
			tok.kw = c == '!' ? kwBang : c == '~' ? kwTilde : kwAt;
			return;
		}
	}
	while (varname ? is_varchar(c) : !is_special(c)) {
		/* the grammar ends every word at ! @ ~, which shows after a
		 * keyword */
		if (strchr("!~@", c) != NULL && is_keyword(&s))
			break;
		if (c == '\\') {
			int d = lgetc();
			input_ungetc(d);
			if (d == '\n')
				break;
		}
		if (c == '*' || c == '?' || c == '[')
			tok.meta = true;
		str_addc(&s, c);
		c = lgetc();
	}
	input_ungetc(c);
	if (s.len == 0) {
		/* "$" followed by a non-name character */
		tok.type = c == EOF ? tEOF : c;
		lex_syntax(c == EOF ? "eof" : NULL);
	}
	tok.s = nstrndup(s.buf, s.len);
	tok.type = tWORD;
	near_word = true;
	set_near_part(tok.s);
	/* keywords are keywords after '$' too ($if is the variable if) */
	tok.kw = keyword_of(tok.s);
	/* (the grammar's words end at ! ~ @, which are tokens of their own) */
	word_loop = strchr("!~@", s.buf[s.len - 1]) == NULL;
	if (tok.kw != 0) {
		tok.type = tKW;
		return;
	}
	after_word = word_loop;	/* A~(b) is A~ and (b): the grammar's word ended at ~ */
}

void lex_next(void)
{
	int c;
	bool was_near_word = near_word;
	near_word = false;
	bool subscript_ok = after_word;
	bool blank_bsnl = word_loop;
	word_loop = false;
	after_word = false;
	tok.spaced = false;
	tok.s = NULL;
	for (;;) {
		c = lgetc();
		if (c == ' ' || c == '\t') {
			tok.spaced = true;
			continue;
		}
		if (c == '\\') {
			int d = lgetc();
			if (d == '\n') {
				/* a blank only right after a word or keyword
				 * (a\<newline>b is a b); after a quoted word,
				 * = ! ~ @, what follows is joined by a free
				 * caret: 'a'\<newline>b is ab, a=\<newline>b
				 * a=b */
				if (blank_bsnl)
					tok.spaced = true;
				continue;
			}
			input_ungetc(d);
		}
		if (c == '#') {
			while ((c = lgetc()) != '\n' && c != EOF)
				;
		}
		break;
	}
	/* After '$' comes one word without carets (the grammar's): a name, a
	 * quoted word, $x, `cmd, (list), a keyword; not other word bytes. */
	tok.first = c;
	tok.careted = was_near_word && !tok.spaced && c != EOF &&
		(!is_special(c) || strchr("`$'=", c) != NULL);
	bool dollar = after_dollar && !recovering;
	if (c != '(')
		after_dollar = false;
	if (dollar && (c == EOF || c == '\n' || c == '\\' ||
		       (!is_special(c) && !is_varchar(c) && strchr("!~@", c) == NULL))) {
		after_dollar = false;
		/* the newline ends the line: the next is read with a
		 * prompt of its own */
		tok.type = c == EOF ? tEOF : c;
		lex_syntax(c == EOF ? "eof" : c == '\n' ? "end of line" : NULL);
	}
	switch (c) {
	case EOF:
		near_word = was_near_word && !tok.spaced;
		tok.type = tEOF;
		return;
	case '\n':
		tok.type = '\n';	/* here documents: see command_newline() */
		return;
	case '\'': {
		static Str s;
		s.len = 0;
		read_quoted(&s);
		tok.type = tQWORD;
		tok.s = nstrndup(s.buf ? s.buf : "", s.len);
		set_near(&near_text, tok.s, s.len);
		near_word = true;
		after_word = true;
		return;
	}
	case '$':
		c = lgetc();
		if (c == '#')
			tok.type = tCOUNT;
		else if (c == '^' || c == '"')
			tok.type = tFLAT;
		else {
			input_ungetc(c);
			tok.type = '$';
		}
		after_dollar = true;
		return;
	case '(':
		tok.type = subscript_ok && !tok.spaced ? tSUB : '(';
		return;
	case '`':
		c = lgetc();
		if (c == '`')
			tok.type = tBACKBACKQ;
		else {
			input_ungetc(c);
			tok.type = tBACKQ;
		}
		return;
	case '&':
		c = lgetc();
		if (c == '&')
			tok.type = tANDAND;
		else {
			input_ungetc(c);
			tok.type = '&';
		}
		return;
	case '|':
		c = lgetc();
		if (c == '|') {
			tok.type = tOROR;
			return;
		}
		input_ungetc(c);
		tok.type = tPIPE;
		read_fds(1, 0, true);
		return;
	case '<': case '>':
		lex_redir(c);
		return;
	case '=':
		near_word = true;	/* a keyword in the grammar */
		tok.type = c;
		return;
	case ';': case '^': case '{': case '}': case ')':
		tok.type = c;
		return;
	}
	lex_word(c, dollar);
}

/* Skip newlines (where the grammar allows them). */
void lex_skipnl(void)
{
	while (tok.type == '\n')
		lex_next();
}
