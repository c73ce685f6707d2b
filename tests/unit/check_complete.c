/* check_complete.c: unit tests for lineedit/le_complete.c (rc-style completion and quoting). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "le.h"
#include "le_impl.h"
#include "quote.h"
#include "suites.h"

static char dir[] = "/tmp/check_complete.XXXXXX";
static char result[1024];
static int append;

static void
lister(enum le_kind kind, le_name_fn *each, void *ctx)
{
	static const char *const commands[] = { "echo", "eval", "whatis", "demo cmd", "echo", NULL };
	static const char *const variables[] = { "HOME", "home", "history", "a-b", NULL };
	const char *const *p;

	for (p = kind == LE_COMMANDS ? commands : variables; *p != NULL; p++)
		each(*p, ctx);
}

/* The replacements for line[start..end of line), joined with `|'. */
static const char *
complete(const char *line, int start)
{
	char **v = le_complete(line, start, (int)strlen(line), lister, &append), **p;

	result[0] = '\0';
	if (v == NULL)
		return "(none)";
	for (p = v; *p != NULL; p++) {
		if (p != v)
			strcat(result, "|");
		strcat(result, *p);
		free(*p);
	}
	free(v);
	return result;
}

static void
touch(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT, 0644);

	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	touch("plainfile");
	touch("file one");
	touch("file two");
	touch("it's");
	touch(".hidden");
	mkdir("dir1", 0755);
	mkdir("dir two", 0755);
	touch("dir1/inner");
}

static void
teardown(void)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
}

START_TEST(test_files)
{
	ck_assert_str_eq(complete("ls pla", 3), "plainfile");
	ck_assert_int_eq(append, ' ');
	ck_assert_str_eq(complete("ls fi", 3), "'file one'|'file two'");
	ck_assert_str_eq(complete("ls it", 3), "'it''s'");
	ck_assert_str_eq(complete("ls nothing", 3), "(none)");
	ck_assert_str_eq(complete("ls .h", 3), ".hidden");
	ck_assert_str_eq(complete("ls p", 3), "plainfile");
	ck_assert_str_eq(complete("x=pl", 2), "plainfile");
	ck_assert_str_eq(complete("./pla", 0), "./plainfile");
}
END_TEST

START_TEST(test_directories)
{
	ck_assert_str_eq(complete("cd dir1", 3), "dir1/");
	ck_assert_int_eq(append, '\0');
	ck_assert_str_eq(complete("cd 'dir t", 8), "two/'");
	ck_assert_int_eq(append, '\0');
	ck_assert_str_eq(complete("cd di", 3), "'dir two/'|dir1/");
	ck_assert_int_eq(append, ' ');
	ck_assert_str_eq(complete("cat dir1/", 4), "dir1/inner");
	ck_assert_str_eq(complete("cat ./dir1/i", 4), "./dir1/inner");
}
END_TEST

/* The editor splits words at blanks; a quoted word may start earlier. */
START_TEST(test_quoted_words)
{
	ck_assert_str_eq(complete("ls 'file o", 9), "one'");
	ck_assert_str_eq(complete("ls 'pl", 3), "'plainfile'");
	ck_assert_str_eq(complete("ls 'it''", 3), "'it''s'");
	ck_assert_str_eq(complete("'demo c", 6), "cmd'");
	ck_assert_str_eq(complete("ls 'x y' pl", 9), "plainfile");
}
END_TEST

START_TEST(test_commands)
{
	ck_assert_str_eq(complete("ec", 0), "echo");
	ck_assert_str_eq(complete("  e", 2), "echo|eval");
	ck_assert_str_eq(complete("x | ev", 4), "eval");
	ck_assert_str_eq(complete("{whatis; wh", 9), "whatis");
	ck_assert_str_eq(complete("if (true) ec", 10), "echo");
	ck_assert_str_eq(complete("x=`{ec", 4), "echo");
	ck_assert_str_eq(complete("echo ec", 5), "(none)");
	ck_assert_str_eq(complete("demo", 0), "'demo cmd'");
}
END_TEST

START_TEST(test_variables)
{
	ck_assert_str_eq(complete("echo $HO", 6), "HOME");
	ck_assert_int_eq(append, ' ');
	ck_assert_str_eq(complete("echo $h", 6), "history|home");
	ck_assert_str_eq(complete("echo $#h", 6), "#history|#home");
	ck_assert_str_eq(complete("echo $a", 6), "(none)");
	ck_assert_str_eq(complete("echo x$HO", 7), "HOME");
	/* an editor that keeps the `$' in the word */
	ck_assert_str_eq(complete("echo $HO", 5), "$HOME");
}
END_TEST

START_TEST(test_comment)
{
	ck_assert_str_eq(complete("ls # pla", 5), "(none)");
	ck_assert_str_eq(complete("ls a#pl", 3), "(none)");
}
END_TEST

START_TEST(test_quote)
{
	const char *cases[][2] = {
		{ "plain", "plain" }, { "a b", "'a b'" }, { "it's", "'it''s'" },
		{ "", "''" }, { "a*b", "'a*b'" }, { "a%b", "a%b" }, { "a=b", "'a=b'" },
		/* control characters too, as the printer (whatis) quotes them */
		{ "a\001b", "'a\001b'" }, { "a\177", "'a\177'" }, { "a~b", "'a~b'" },
	};
	size_t i;
	char *q;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		q = le_quote(cases[i][0], 0);
		ck_assert_str_eq(q, cases[i][1]);
		free(q);
	}
	for (i = 1; i < 256; i++) {	/* one rule: the printer's (src/quote.c) */
		char w[] = { 'a', (char)i, '\0' };

		q = le_quote(w, 0);
		ck_assert_int_eq(q[0] == '\'', needs_quote(w));
		free(q);
	}
	q = le_quote("plain", 1);
	ck_assert_str_eq(q, "'plain'");
	free(q);
}
END_TEST

Suite *
complete_suite(void)
{
	Suite *s = suite_create("complete");
	TCase *tc = tcase_create("complete");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_directories);
	tcase_add_test(tc, test_quoted_words);
	tcase_add_test(tc, test_commands);
	tcase_add_test(tc, test_variables);
	tcase_add_test(tc, test_comment);
	tcase_add_test(tc, test_quote);
	suite_add_tcase(s, tc);
	return s;
}
