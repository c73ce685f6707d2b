/* SPDX-License-Identifier: Zlib */
/* check_lex.c: unit tests for the tokenizer (src/lex.c) read through the real input layer. */
#include "unit.h"

#include <stdarg.h>

/* Tokens are described one per space-separated item: w:word, m:word (holds
 * unquoted * ? [), q:quoted, k:keyword, operators with their descriptors
 * (>[1], >[2=1], >[2=], |[1=0], <<[0]), sub( for a subscript's '(', nl, eof.
 * A leading '_' means white space came before the token. */
static char out[4096];

static void PRINTFLIKE(1, 2) add(const char *fmt, ...)
{
	size_t len = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + len, sizeof out - len, fmt, ap);
	va_end(ap);
}

static void describe(void)
{
	if (out[0] != '\0')
		add(" ");
	if (tok.spaced)
		add("_");
	switch (tok.type) {
	case tEOF: add("eof"); break;
	case '\n': add("nl"); break;
	case tWORD: add("%s:%s", tok.meta ? "m" : "w", tok.s); break;
	case tQWORD: add("q:%s", tok.s); break;
	case tKW: add("k:%s", kwname(tok.kw)); break;
	case tREDIR: add("%s[%d]", tok.redir == rAppend ? ">>" : tok.s, tok.fd[0]); break;
	case tDUP:
		if (tok.redir == rClose)
			add("%s[%d=]", tok.s, tok.fd[0]);
		else
			add("%s[%d=%d]", tok.s, tok.fd[0], tok.fd[1]);
		break;
	case tHEREDOC: add("<<[%d]", tok.fd[0]); break;
	case tHERESTR: add("<<<[%d]", tok.fd[0]); break;
	case tNMPIPE: add("%s{", tok.fd[0] ? ">" : "<"); break;
	case tPIPE: add("|[%d=%d]", tok.fd[0], tok.fd[1]); break;
	case tANDAND: add("&&"); break;
	case tOROR: add("||"); break;
	case tBACKQ: add("`"); break;
	case tBACKBACKQ: add("``"); break;
	case tCOUNT: add("$#"); break;
	case tFLAT: add("$^"); break;
	case tSUB: add("sub("); break;
	default:
		if (tok.type < 256)
			add("%c", tok.type);
		else
			add("?%d", tok.type);
	}
}

static int lines[64];
static int ntokens;

static void lex_all(void *s)
{
	input_string(s, false);
	lex_reset();
	ntokens = 0;
	do {
		lex_next();
		describe();
		if (ntokens < 64)
			lines[ntokens++] = lineno;
	} while (tok.type != tEOF);
	input_pop();
}

/* The tokens of s, or "error: MESSAGE" if lexing raised an error. */
static const char *tokens(const char *s)
{
	out[0] = '\0';
	if (unit_try(lex_all, (void *) s) != 0) {
		input_pop();
		snprintf(out, sizeof out, "error: %s", unit_err);
	}
	return out;
}

static void check_tokens(const char *const (*cases)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(strcmp(tokens(cases[i][0]), cases[i][1]) == 0,
			      "lexing [%s]: expected [%s], got [%s]", cases[i][0], cases[i][1], out);
}

#define CHECK_TOKENS(cases) check_tokens(cases, sizeof cases / sizeof cases[0])

START_TEST(test_words)
{
	static const char *const cases[][2] = {
		{ "echo hello world", "w:echo _w:hello _w:world eof" },
		{ "  a\tb  ", "_w:a _w:b _eof" },
		{ "", "eof" },
		{ "a-b.c,d:e/f%g+h@i!j~k\"l", "w:a-b.c,d:e/f%g+h@i!j~k\"l eof" },
		{ "a\\b", "w:a\\b eof" },
		{ "*.c a?b [ab] x[ plain", "m:*.c _m:a?b _m:[ab] _m:x[ _w:plain eof" },
		{ "a\n", "w:a nl eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_quoted)
{
	static const char *const cases[][2] = {
		{ "'it''s'", "q:it's eof" },
		{ "''", "q: eof" },
		{ "''''", "q:' eof" },
		{ "'a b;|$`#'", "q:a b;|$`# eof" },
		{ "a'b'c", "w:a q:b w:c eof" },
		{ "'*' '['", "q:* _q:[ eof" },
		{ "'a\nb'", "q:a\nb eof" },
		{ "'for' 'if'", "q:for _q:if eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_keywords)
{
	static const char *const cases[][2] = {
		{ "for in while if not else switch case fn ! @ ~",
		  "k:for _k:in _k:while _k:if _k:not _k:else _k:switch _k:case _k:fn _k:! _k:@ _k:~ eof" },
		{ "fore For for2 xif", "w:fore _w:For _w:for2 _w:xif eof" },
		{ "if(x)", "k:if ( w:x ) eof" },
		{ "for=1", "k:for = w:1 eof" },
		/* a variable name is never a keyword */
		{ "$if $for", "$ k:if _$ k:for eof" },	/* keywords after $ too */
	};
	CHECK_TOKENS(cases);
}
END_TEST

/* The parser inserts free carets only between tokens not marked spaced. */
START_TEST(test_spaced)
{
	static const char *const cases[][2] = {
		{ "-$x $x.c a$x", "w:- $ w:x _$ w:x w:.c _w:a $ w:x eof" },
		{ "'a'`{b}'c'", "q:a ` { w:b } q:c eof" },
		{ "(a b)c", "( w:a _w:b ) w:c eof" },
		{ "a ^ b", "w:a _^ _w:b eof" },
		{ "a^b", "w:a ^ w:b eof" },
		{ "x=y", "w:x = w:y eof" },
		{ "x = y", "w:x _= _w:y eof" },
		{ "$x-y $x:y", "$ w:x w:-y _$ w:x w::y eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_dollar)
{
	static const char *const cases[][2] = {
		{ "$x $#x $^x $\"x", "$ w:x _$# w:x _$^ w:x _$^ w:x eof" },
		/* a name's meta flag is not used */
		{ "$* $#* $1", "$ m:* _$# m:* _$ w:1 eof" },
		{ "$x(1) $x (1)", "$ w:x sub( w:1 ) _$ w:x _( w:1 ) eof" },
		{ "$$x", "$ $ w:x eof" },
		{ "$'a b'(2)", "$ q:a b sub( w:2 ) eof" },
		{ "$(a)", "$ ( w:a ) eof" },
		{ "$x_y9*z", "$ m:x_y9*z eof" },
		{ "$#$x", "$# $ w:x eof" },
		/* '(' right after a plain word is not a subscript */
		{ "a(1)", "w:a sub( w:1 ) eof" },	/* after any word, as in rc 1.7.4 */
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_backquotes)
{
	static const char *const cases[][2] = {
		{ "`{ls}", "` { w:ls } eof" },
		{ "`ls", "` w:ls eof" },
		{ "``(: x){ls}", "`` ( w:: _w:x ) { w:ls } eof" },
		{ "`` '' {a}", "`` _q: _{ w:a } eof" },
		{ "x`{a}", "w:x ` { w:a } eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_redirections)
{
	static const char *const cases[][2] = {
		{ ">f <g >>h", ">[1] w:f _<[0] w:g _>>[1] w:h eof" },
		{ ">[2]f <[3]g >>[4]h", ">[2] w:f _<[3] w:g _>>[4] w:h eof" },
		{ ">[2=1] <[0=3] >[2=] <[0=]", ">[2=1] _<[0=3] _>[2=] _<[0=] eof" },
		{ ">[12=34]", ">[12=34] eof" },
		{ "<<EOF <<'x y'", "<<[0] w:EOF _<<[0] q:x y eof" },
		{ "<<[5]E", "<<[5] w:E eof" },
		{ "<<<foo <<<[3]bar", "<<<[0] w:foo _<<<[3] w:bar eof" },
		{ "<{a} >{b}", "<{ w:a } _>{ w:b } eof" },
		{ "a>b", "w:a >[1] w:b eof" },
		{ "> [2]", ">[1] _m:[2] eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_redir_kinds)
{
	static const struct { const char *s; int type, redir, fd0, fd1; } cases[] = {
		{ "<f", tREDIR, rFrom, 0, 0 },
		{ ">f", tREDIR, rCreate, 1, 0 },
		{ ">>f", tREDIR, rAppend, 1, 0 },
		{ ">[2]f", tREDIR, rCreate, 2, 0 },
		{ "<<<x", tHERESTR, rHerestr, 0, 0 },
		{ ">[2=1]", tDUP, rDup, 2, 1 },
		{ ">>[2=1]", tDUP, rDup, 2, 1 },
		{ "<[0=4]", tDUP, rDup, 0, 4 },
		{ ">[3=]", tDUP, rClose, 3, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		input_string(cases[i].s, false);
		lex_reset();
		lex_next();
		ck_assert_msg(tok.type == cases[i].type && tok.redir == cases[i].redir &&
			      tok.fd[0] == cases[i].fd0 && tok.fd[1] == cases[i].fd1,
			      "[%s]: type %d redir %d fds %d,%d", cases[i].s, tok.type,
			      tok.redir, tok.fd[0], tok.fd[1]);
		input_pop();
	}
}
END_TEST

START_TEST(test_pipes)
{
	static const char *const cases[][2] = {
		{ "a|b", "w:a |[1=0] w:b eof" },
		{ "a |[2] b", "w:a _|[2=0] _w:b eof" },
		{ "a|[2=3]b", "w:a |[2=3] w:b eof" },
		{ "a|[0=1]b", "w:a |[0=1] w:b eof" },
		{ "a&&b||c&d", "w:a && w:b || w:c & w:d eof" },
		{ "a|||b", "w:a || |[1=0] w:b eof" },
		{ "a & & b", "w:a _& _& _w:b eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_punctuation)
{
	static const char *const cases[][2] = {
		{ "(a b) {c;d}", "( w:a _w:b ) _{ w:c ; w:d } eof" },
		{ "{a}", "{ w:a } eof" },
		{ "a=(b)", "w:a = ( w:b ) eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_comments)
{
	static const char *const cases[][2] = {
		{ "a # comment\nb", "w:a _nl w:b eof" },
		{ "# only a comment", "eof" },
		{ "#c\n", "nl eof" },
		/* a '#' ends a word and starts a comment */
		{ "echo a#b c", "w:echo _w:a eof" },
		{ "a#b\nc", "w:a nl w:c eof" },
		{ "'a#b'", "q:a#b eof" },
		{ "a;#x\n", "w:a ; nl eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

/* Backslash-newline is white space, even in the middle of a word (the
 * reference: "echo a\<newline>b" prints "a b"). */
START_TEST(test_backslash_newline)
{
	static const char *const cases[][2] = {
		{ "a \\\nb", "w:a _w:b eof" },
		{ "a\\\n b", "w:a _w:b eof" },
		{ "a\\\nb", "w:a _w:b eof" },
		{ "a\\\n\\\nb", "w:a _w:b eof" },
		{ "'a\\\nb'", "q:a\\\nb eof" },
		{ "a\\ b", "w:a\\ _w:b eof" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

START_TEST(test_lineno)
{
	/* a newline token still belongs to its line */
	ck_assert_str_eq(tokens("a\nb\n\nc d"), "w:a nl w:b nl nl w:c _w:d eof");
	static const int want[] = { 1, 1, 2, 2, 3, 4, 4, 4 };
	ck_assert_int_eq(ntokens, 8);
	for (int i = 0; i < 8; i++)
		ck_assert_msg(lines[i] == want[i], "token %d: line %d, expected %d", i, lines[i], want[i]);

	tokens("'a\nb' c\\\nd");
	ck_assert_str_eq(out, "q:a\nb _w:c _w:d eof");
	ck_assert_int_eq(lines[0], 2);
	ck_assert_int_eq(lines[2], 3);

	tokens("# x\n#y\nz");
	ck_assert_int_eq(lines[2], 3);

	/* input_pop puts back the outer line number */
	lineno = 42;
	tokens("a\nb\nc");
	ck_assert_int_eq(lineno, 42);
}
END_TEST

START_TEST(test_errors)
{
	static const char *const cases[][2] = {
		{ "echo 'abc", "error: rc: line 1: eof in quoted string near eof" },
		{ "echo a\n'b\nc", "error: rc: line 3: eof in quoted string near eof" },
		{ ">[x]", "error: rc: line 1: expected digit after '[' near eof" },
		{ ">[2", "error: rc: line 1: expected '=' or ']' after digit near eof" },
		{ ">[2=x]", "error: rc: line 1: expected digit or ']' after '=' near eof" },
		{ ">[2=1", "error: rc: line 1: expected ']' after digit near eof" },
		{ "a|[2=]b", "error: rc: line 1: expected digit after '=' near eof" },
		{ "a|[x]b", "error: rc: line 1: expected digit after '[' near eof" },
		{ "echo $", "error: rc: line 1: syntax error near eof" },
		{ "echo $\n", "error: rc: line 1: syntax error near end of line" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

/* The reference names the line before the newline that ends a scanner
 * error ("line 0" on the first line), and says "near end of line". */
START_TEST(test_error_lines)
{
	static const char *const cases[][2] = {
		{ ">[x]\n", "error: rc: line 0: expected digit after '[' near end of line" },
		{ "a\n>[2=x]\nb", "error: rc: line 1: expected digit or ']' after '=' near end of line" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

/* BUG: when the newline itself is the unexpected byte, the rest of the
 * input is skipped and the message says "line 1 ... near eof". */
START_TEST(test_error_at_newline)
{
	static const char *const cases[][2] = {
		{ ">[2\n", "error: rc: line 0: expected '=' or ']' after digit near end of line" },
		{ ">[2=\n", "error: rc: line 0: expected digit or ']' after '=' near end of line" },
		{ ">[2=1\n", "error: rc: line 0: expected ']' after digit near end of line" },
		{ "a|[2\n", "error: rc: line 0: expected '=' or ']' after digit near end of line" },
	};
	CHECK_TOKENS(cases);
}
END_TEST

/* After an error the lexer starts afresh. */
START_TEST(test_error_recovery)
{
	ck_assert_str_eq(tokens("echo $"), "error: rc: line 1: syntax error near eof");
	ck_assert_str_eq(tokens("a b"), "w:a _w:b eof");
	ck_assert_str_eq(tokens("'x"), "error: rc: line 1: eof in quoted string near eof");
	ck_assert_str_eq(tokens("x'y'"), "w:x q:y eof");
}
END_TEST

Suite *lex_suite(void)
{
	Suite *s = suite_create("lex");
	TCase *tc = tcase_create("lex");

	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_quoted);
	tcase_add_test(tc, test_keywords);
	tcase_add_test(tc, test_spaced);
	tcase_add_test(tc, test_dollar);
	tcase_add_test(tc, test_backquotes);
	tcase_add_test(tc, test_redirections);
	tcase_add_test(tc, test_redir_kinds);
	tcase_add_test(tc, test_pipes);
	tcase_add_test(tc, test_punctuation);
	tcase_add_test(tc, test_comments);
	tcase_add_test(tc, test_backslash_newline);
	tcase_add_test(tc, test_lineno);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_error_lines);
	tcase_add_test(tc, test_error_at_newline);
	tcase_add_test(tc, test_error_recovery);
	suite_add_tcase(s, tc);
	return s;
}
