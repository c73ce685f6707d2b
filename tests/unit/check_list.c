/* SPDX-License-Identifier: Zlib */
/* check_list.c: unit tests for lists, pattern matching, globbing and variables
 * (src/list.c, src/expand.c, src/match.c, src/glob.c, src/var.c, src/str.c). */
#include "unit.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>

/* A list of the arguments up to NULL, with no mask (quoted words). */
static List *words(const char *w, ...)
{
	List *head = NULL, **tail = &head;
	va_list ap;

	va_start(ap, w);
	for (; w != NULL; w = va_arg(ap, const char *)) {
		*tail = mklist(nstrdup(w), NULL, NULL);
		tail = &(*tail)->n;
	}
	va_end(ap);
	return head;
}

/* The mask that makes every byte of w active. */
static char *ones(const char *w)
{
	size_t n = strlen(w);
	char *m = nalloc(n + 1);

	memset(m, 1, n);
	m[n] = '\0';
	return m;
}

/* Unquoted words: every metacharacter active. */
static List *patterns(const char *w, ...)
{
	List *head = NULL, **tail = &head;
	va_list ap;

	va_start(ap, w);
	for (; w != NULL; w = va_arg(ap, const char *)) {
		*tail = mklist(nstrdup(w), ones(w), NULL);
		tail = &(*tail)->n;
	}
	va_end(ap);
	return head;
}

/* The words joined by '|', "(empty)" for no words. */
static const char *show(const List *l)
{
	static char buf[2048];

	buf[0] = '\0';
	if (l == NULL)
		return "(empty)";
	for (; l != NULL; l = l->n) {
		strncat(buf, l->w, sizeof buf - strlen(buf) - 1);
		if (l->n != NULL)
			strncat(buf, "|", sizeof buf - strlen(buf) - 1);
	}
	return buf;
}

static bool pmatch(const char *p, const char *s)
{
	return match(p, ones(p), s);
}

START_TEST(test_match_literal)
{
	/* no mask: every byte is itself */
	ck_assert(match("abc", NULL, "abc"));
	ck_assert(!match("abc", NULL, "abd"));
	ck_assert(match("a*", NULL, "a*"));
	ck_assert(!match("a*", NULL, "abc"));
	ck_assert(match("[a]", NULL, "[a]"));
	ck_assert(!match("?", NULL, "x"));
	ck_assert(match("", NULL, ""));
	ck_assert(!match("", NULL, "a"));
	/* a mask with some bytes off: "a'*'*" */
	ck_assert(match("a**", "\0\0\1", "a*bc"));
	ck_assert(!match("a**", "\0\0\1", "abc"));
	ck_assert(match("x?", "\0\0", "x?"));
	ck_assert(!match("x?", "\0\0", "xy"));
	ck_assert(match("[a]", "\0\1\1", "[a]"));
}
END_TEST

START_TEST(test_match_star_question)
{
	static const struct { const char *p, *s; bool ok; } cases[] = {
		{ "*", "", true }, { "*", "abc", true }, { "**", "", true },
		{ "a*", "a", true }, { "a*", "abc", true }, { "a*", "ba", false },
		{ "*c", "abc", true }, { "*c", "abcd", false },
		{ "a*b*c", "aXbYc", true }, { "a*b*c", "abcb", false },
		{ "*ab", "aab", true }, { "*ab", "abab", true },
		{ "a*a*a", "aaaa", true }, { "a*a*a", "aa", false },
		{ "*a*", "bab", true }, { "*a*", "bbb", false },
		{ "*.c", ".c", true }, { "*.c", "x.c.h", false },
		{ "?", "a", true }, { "?", "", false }, { "?", "ab", false },
		{ "a?c", "abc", true }, { "a?c", "ac", false }, { "??*", "a", false },
		{ "*?", "a", true }, { "*/x", "a/b/x", true },
		{ "abc", "abc", true }, { "abc", "ab", false }, { "", "", true },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(pmatch(cases[i].p, cases[i].s) == cases[i].ok,
			      "match(%s, %s) should be %d", cases[i].p, cases[i].s, cases[i].ok);
}
END_TEST

/* Classes, checked against the reference's ~ command. */
START_TEST(test_match_class)
{
	static const struct { const char *p, *s; bool ok; } cases[] = {
		{ "[a-z]", "m", true }, { "[a-z]", "M", false }, { "[abc]", "b", true },
		{ "[abc]", "d", false }, { "[a-cx-z]", "y", true }, { "[a-cx-z]", "m", false },
		{ "[~a]", "b", true }, { "[~a]", "a", false },
		{ "[~a-c]", "d", true }, { "[~a-c]", "b", false },
		{ "[]a]", "]", true }, { "[]a]", "a", true }, { "[]a]", "b", false },
		{ "[~]a]", "]", false }, { "[~]a]", "b", true },
		{ "[a]]", "]", false }, { "[a]]", "a]", true },
		{ "[a-]", "-", true }, { "[-a]", "-", true },
		{ "a[b-]c", "abc", true }, { "a[b-]c", "a-c", true },
		{ "[a-c-e]", "b", true }, { "[a-c-e]", "-", true }, { "[a-c-e]", "d", false },
		{ "[c-a]", "b", false }, { "[c-a]", "c", false },
		{ "[[]", "[", true },
		/* an unclosed class is a literal '[' */
		{ "[a", "[a", true }, { "[a", "a", false }, { "x[", "x[", true },
		{ "*[0-9]", "file7", true }, { "*[0-9]", "file", false },
		{ "[~0-9]*", "x12", true }, { "[~0-9]*", "1x", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(pmatch(cases[i].p, cases[i].s) == cases[i].ok,
			      "match(%s, %s) should be %d", cases[i].p, cases[i].s, cases[i].ok);
	/* inside a class quoting does not count, as in rc 1.7.4: a quoted
	 * '-' makes a range, a quoted '~' negates, a quoted ']' closes */
	ck_assert(!match("[a-c]", "\1\1\0\1\1", "-"));
	ck_assert(match("[a-c]", "\1\1\0\1\1", "b"));
	ck_assert(match("[~a]", "\1\0\1\1", "~"));
	ck_assert(match("[~a]", "\1\0\1\1", "b"));
	ck_assert(!match("[~a]", "\1\0\1\1", "a"));
	ck_assert(match("[a]", "\1\1\0", "a"));
}
END_TEST

START_TEST(test_list_match)
{
	/* an empty subject matches only an empty pattern list or stars */
	ck_assert(list_match(NULL, NULL));
	ck_assert(list_match(NULL, patterns("*", NULL)));
	ck_assert(list_match(NULL, patterns("**", NULL)));
	ck_assert(list_match(NULL, patterns("a", "*", NULL)));
	ck_assert(!list_match(NULL, patterns("a", NULL)));
	ck_assert(!list_match(NULL, patterns("", NULL)));
	ck_assert(!list_match(NULL, patterns("?", NULL)));
	ck_assert(!list_match(NULL, words("*", NULL)));
	ck_assert(!list_match(NULL, words("", NULL)));
	/* an empty pattern list matches only the empty subject */
	ck_assert(!list_match(words("a", NULL), NULL));
	ck_assert(!list_match(words("", NULL), NULL));
	/* any subject word against any pattern */
	ck_assert(list_match(words("a", "b", NULL), words("x", "b", NULL)));
	ck_assert(!list_match(words("a", "b", NULL), words("x", "y", NULL)));
	ck_assert(list_match(words("foo.c", NULL), patterns("*.h", "*.c", NULL)));
	ck_assert(list_match(words("", NULL), patterns("*", NULL)));
	ck_assert(list_match(words("", NULL), words("", NULL)));
	ck_assert(!list_match(words("abc", NULL), words("a*", NULL)));
	ck_assert(list_match(words("a*", NULL), words("a*", NULL)));
}
END_TEST

START_TEST(test_has_meta)
{
	ck_assert(has_meta("a*", ones("a*")));
	ck_assert(has_meta("?", ones("?")));
	ck_assert(has_meta("x[", ones("x[")));
	ck_assert(!has_meta("a*", NULL));
	ck_assert(!has_meta("a*", "\1\0"));
	ck_assert(!has_meta("abc", ones("abc")));
	ck_assert(!has_meta("a]~", ones("a]~")));
}
END_TEST

START_TEST(test_list_helpers)
{
	List *l = words("a", "b", "c", NULL);

	ck_assert_str_eq(list_flat(l, " "), "a b c");
	ck_assert_str_eq(list_flat(l, ""), "abc");
	ck_assert_str_eq(list_flat(l, "::"), "a::b::c");
	ck_assert_str_eq(list_flat(NULL, " "), "");
	ck_assert_str_eq(list_flat(words("x", NULL), " "), "x");
	ck_assert_str_eq(list_flat(words("", "", NULL), ":"), ":");
	ck_assert_int_eq(list_len(l), 3);
	ck_assert_int_eq(list_len(NULL), 0);
}
END_TEST

/* Globbing, in a directory of our own. */
static char dir[] = "/tmp/check_list.XXXXXX";
static char olddir[4096];

static void touch(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT, 0644);

	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void glob_setup(void)
{
	ck_assert_ptr_nonnull(getcwd(olddir, sizeof olddir));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	touch("b.c");
	touch("a.c");
	touch("c.h");
	touch(".hidden");
	touch("it's");
	mkdir("dir", 0755);
	mkdir("sub", 0755);
	touch("dir/y");
	touch("dir/x");
	touch("sub/.dot");
}

static void glob_teardown(void)
{
	char cmd[64];

	ck_assert_int_eq(chdir(olddir), 0);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
}

static const char *globbed(const char *w)
{
	return show(glob_list(patterns(w, NULL)));
}

/* Each case checked against the reference's echo in the same directory. */
START_TEST(test_glob)
{
	static const char *const cases[][2] = {
		{ "*.c", "a.c|b.c" },
		{ "*", "a.c|b.c|c.h|dir|it's|sub" },
		{ ".*", ".|..|.hidden" },
		{ ".h*", ".hidden" },
		{ "*hidden", "*hidden" },
		{ "nomatch*", "nomatch*" },
		{ "[ab].c", "a.c|b.c" },
		{ "*.[~c]", "c.h" },
		{ "di?", "dir" },
		{ "d*r", "dir" },
		{ "*x", "*x" },
		{ "dir/*", "dir/x|dir/y" },
		{ "*/x", "dir/x" },
		{ "*/*", "dir/x|dir/y" },
		{ "*/", "dir/|sub/" },
		{ "sub/*", "sub/*" },
		{ "sub/.*", "sub/.|sub/..|sub/.dot" },
		{ "./*.c", "./a.c|./b.c" },
		{ "dir/../*.h", "dir/../c.h" },
		{ "./d*/./x", "./dir/./x" },
		{ "it*", "it's" },
		{ "a.c", "a.c" },
		{ "none", "none" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(strcmp(globbed(cases[i][0]), cases[i][1]) == 0,
			      "glob %s: expected %s, got %s", cases[i][0], cases[i][1], globbed(cases[i][0]));
}
END_TEST

START_TEST(test_glob_lists)
{
	char abs[128];
	List *l;

	/* quoted metacharacters do not glob */
	ck_assert_str_eq(show(glob_list(words("*.c", NULL))), "*.c");
	ck_assert_str_eq(show(glob_list(mklist("*.c", "\0\1\1", NULL))), "*.c");
	ck_assert_str_eq(show(glob_list(mklist("a*", "\0\1", NULL))), "a.c");
	/* each word in place, the rest kept */
	l = patterns("*.h", NULL);
	l->n = words("x", NULL);
	l->n->n = patterns("*.c", NULL);
	ck_assert_str_eq(show(glob_list(l)), "c.h|x|a.c|b.c");
	ck_assert_str_eq(show(glob_list(NULL)), "(empty)");
	/* absolute patterns */
	snprintf(abs, sizeof abs, "%s/*.c", dir);
	l = glob_list(patterns(abs, NULL));
	ck_assert_int_eq(list_len(l), 2);
	ck_assert_str_eq(l->n->w + strlen(dir), "/b.c");
	/* a word that matches nothing keeps its mask: it is still a pattern */
	l = glob_list(patterns("zz*", NULL));
	ck_assert_str_eq(l->w, "zz*");
	ck_assert(match(l->w, l->m, "zzz"));
}
END_TEST

/* BUG: the reference keeps the slashes as written: a star, two slashes
 * and x give "dir//x"; we give "dir/x". */
START_TEST(test_glob_double_slash)
{
	ck_assert_str_eq(globbed("*//x"), "dir//x");
}
END_TEST

START_TEST(test_vars)
{
	var_set("x", words("a", "b", NULL));
	ck_assert_str_eq(show(var_get("x")), "a|b");
	/* the value is a copy */
	List *v = words("c", NULL);
	var_set("y", v);
	v->w = "changed";
	ck_assert_str_eq(show(var_get("y")), "c");
	var_set("x", NULL);
	ck_assert_ptr_null(var_get("x"));
	ck_assert_ptr_null(var_get("never_set_anywhere"));
	var_set("z", words("one", NULL));
	ck_assert_str_eq(show(var_get("z")), "one");
	var_set("e", words("", NULL));
	ck_assert_int_eq(list_len(var_get("e")), 1);
	/* $* and its numbered elements */
	args_set(words("p", "q", NULL));
	ck_assert_str_eq(show(var_get("*")), "p|q");
	ck_assert_str_eq(show(var_get("1")), "p");
	ck_assert_str_eq(show(var_get("2")), "q");
	ck_assert_ptr_null(var_get("3"));
	var_set("*", words("r", NULL));
	ck_assert_str_eq(show(var_get("1")), "r");
	/* $status cannot be assigned */
	var_set("status", words("x", NULL));
	ck_assert_str_ne(show(var_get("status")), "x");
}
END_TEST

START_TEST(test_vars_local)
{
	var_set("v", words("global", NULL));
	int depth = var_depth();
	var_push_local("v", words("local", NULL));
	ck_assert_str_eq(show(var_get("v")), "local");
	var_push_local("w", words("new", NULL));
	ck_assert_int_eq(var_depth(), depth + 2);
	var_unwind(depth);
	ck_assert_str_eq(show(var_get("v")), "global");
	ck_assert_ptr_null(var_get("w"));
}
END_TEST

START_TEST(test_path_sync)
{
	var_set("path", words("/bin", "/usr/bin", NULL));
	ck_assert_str_eq(show(var_get("PATH")), "/bin:/usr/bin");
	var_set("PATH", words("/a:/b::/c", NULL));
	ck_assert_str_eq(show(var_get("path")), "/a|/b||/c");
	var_set("path", words("/a", "", "/b", NULL));
	ck_assert_str_eq(show(var_get("PATH")), "/a::/b");
	var_set("PATH", words("", NULL));
	ck_assert_int_eq(list_len(var_get("path")), 1);
	ck_assert_str_eq(var_get("path")->w, "");
	var_set("path", NULL);
	ck_assert_ptr_null(var_get("PATH"));
	var_set("cdpath", words("a", "b", NULL));
	ck_assert_str_eq(show(var_get("CDPATH")), "a:b");
	var_set("CDPATH", words("x:y", NULL));
	ck_assert_str_eq(show(var_get("cdpath")), "x|y");
}
END_TEST

START_TEST(test_home_sync)
{
	var_set("home", words("/h", NULL));
	ck_assert_str_eq(show(var_get("HOME")), "/h");
	var_set("HOME", words("/x", NULL));
	ck_assert_str_eq(show(var_get("home")), "/x");
	/* HOME is not split at colons */
	var_set("HOME", words("/a:/b", NULL));
	ck_assert_str_eq(show(var_get("home")), "/a:/b");
	var_set("HOME", words("x", "y", NULL));
	ck_assert_str_eq(show(var_get("home")), "x|y");
	var_set("home", NULL);
	ck_assert_ptr_null(var_get("HOME"));
}
END_TEST

/* BUG: the reference copies a list: home=(a b) gives $#HOME 2, not "a b". */
START_TEST(test_home_list)
{
	var_set("home", words("a", "b", NULL));
	ck_assert_str_eq(show(var_get("HOME")), "a|b");
}
END_TEST

static const char *printed(const char *name, List *val)
{
	static char buf[1024];
	Str s = { 0 };

	var_print(&s, name, val);
	snprintf(buf, sizeof buf, "%s", s.buf);
	free(s.buf);
	return buf;
}

/* As the reference's whatis prints them. */
START_TEST(test_var_print)
{
	ck_assert_str_eq(printed("x", words("a", "b c", "d'e", "", "*", NULL)), "x=(a 'b c' 'd''e' '' '*')");
	ck_assert_str_eq(printed("x", words("a", NULL)), "x=a");
	ck_assert_str_eq(printed("x", NULL), "x=()");
	ck_assert_str_eq(printed("x", words("it's", NULL)), "x='it''s'");
	ck_assert_str_eq(printed("x", words("", NULL)), "x=''");
	ck_assert_str_eq(printed("x", words("a,b", NULL)), "x=a,b");
	ck_assert_str_eq(printed("x", words("a%b", NULL)), "x=a%b");
	ck_assert_str_eq(printed("x", words("a=b", NULL)), "x='a=b'");
	ck_assert_str_eq(printed("x", words("~", "a!b", "@", "\\\\", "a\"b", NULL)),
			 "x=('~' 'a!b' '@' '\\\\' a\"b)");
	ck_assert_str_eq(printed("x", words("tab\tx", "a\nb", NULL)), "x=('tab\tx' 'a\nb')");
	ck_assert_str_eq(printed("x", words("-x", "+y", "a/b", "a:b", "a.b", NULL)), "x=(-x +y a/b a:b a.b)");
	ck_assert_str_eq(printed("a b", words("1", NULL)), "'a b'=1");
}
END_TEST

START_TEST(test_quote)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" }, { "a,b", "a,b" }, { "a%b", "a%b" }, { "-x", "-x" },
		{ "", "''" }, { "it's", "'it''s'" }, { "'", "''''" }, { "*", "'*'" },
		{ "a b", "'a b'" }, { "a=b", "'a=b'" }, { "$x", "'$x'" }, { "a^b", "'a^b'" },
		{ "[a]", "'[a]'" }, { "?", "'?'" }, { "#", "'#'" }, { "a;b", "'a;b'" },
		{ "(", "'('" }, { "{", "'{'" }, { "<", "'<'" }, { "|", "'|'" }, { "&", "'&'" },
		{ "`", "'`'" }, { "\x01", "'\x01'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Str s = { 0 };
		str_quote(&s, cases[i][0]);
		ck_assert_msg(strcmp(s.buf, cases[i][1]) == 0, "quote [%s]: expected [%s], got [%s]",
			      cases[i][0], cases[i][1], s.buf);
		ck_assert_int_eq(needs_quote(cases[i][0]), strcmp(cases[i][0], cases[i][1]) != 0);
		free(s.buf);
	}
}
END_TEST

Suite *list_suite(void)
{
	Suite *s = suite_create("list");
	TCase *tc = tcase_create("list");
	TCase *tg = tcase_create("glob");

	tcase_add_test(tc, test_match_literal);
	tcase_add_test(tc, test_match_star_question);
	tcase_add_test(tc, test_match_class);
	tcase_add_test(tc, test_list_match);
	tcase_add_test(tc, test_has_meta);
	tcase_add_test(tc, test_list_helpers);
	tcase_add_test(tc, test_vars);
	tcase_add_test(tc, test_vars_local);
	tcase_add_test(tc, test_path_sync);
	tcase_add_test(tc, test_home_sync);
	tcase_add_test(tc, test_home_list);
	tcase_add_test(tc, test_var_print);
	tcase_add_test(tc, test_quote);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tg, glob_setup, glob_teardown);
	tcase_add_test(tg, test_glob);
	tcase_add_test(tg, test_glob_lists);
	tcase_add_test(tg, test_glob_double_slash);
	suite_add_tcase(s, tg);
	return s;
}
