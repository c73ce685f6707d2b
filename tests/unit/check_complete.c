/* SPDX-License-Identifier: Zlib */
/* check_complete.c: unit tests for lineedit/le_complete.c (rc-style completion and quoting). */
#include "config.h"

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

static void lister(LeKind kind, const char *var, LeNameFn *each, void *ctx)
{
	static const char *const commands[] = { "echo", "eval", "whatis", "demo cmd", "echo", NULL };
	static const char *const variables[] = { "HOME", "home", "history", "a-b", NULL };
	static const char *const functions[] = { "myfunc", "whatever", NULL };
	static const char *const two[] = { "a", "b", NULL };
	static char cdp[sizeof dir + 4];
	const char *const *p = kind == LE_COMMANDS ? commands
		: kind == LE_FUNCTIONS ? functions : variables;

	if (kind == LE_VALUE) {
		snprintf(cdp, sizeof cdp, "%s/cdp", dir);
		p = two;
		if (strcmp(var, "home") == 0)
			each(dir, ctx);
		else if (strcmp(var, "cdpath") == 0) {
			each("", ctx);
			each(cdp, ctx);
		} else if (strcmp(var, "two") == 0)
			for (; *p != NULL; p++)
				each(*p, ctx);
		return;
	}
	for (; *p != NULL; p++)
		each(*p, ctx);
}

/* The completion's settings: the defaults, a test may change them. */
static LeCompletion how;
static bool spoke;

/* The replacements for line[start..end of line), joined with `|'. */
static const char *complete(const char *line, int start)
{
	char **v = le_complete(line, start, (int)strlen(line), &how, &append, &spoke), **p;

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

/* Lines completed at start, with the replacements expected. */
struct expectation {
	const char *line;
	int start;
	const char *want;
};

static void expect_all(const struct expectation *e, size_t n)
{
	for (; n > 0; e++, n--)
		ck_assert_msg(strcmp(complete(e->line, e->start), e->want) == 0,
			"%s: got %s, want %s", e->line, result, e->want);
}

#define EXPECT_ALL(table) expect_all(table, sizeof table / sizeof table[0])

static void touch(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT, 0644);

	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void setup(void)
{
	le_complete_defaults(&how, lister, NULL);
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
	mkdir("cdp", 0755);
	mkdir("cdp/docs", 0755);
	mkdir("cdp/dir1", 0755);
	touch("cdp/file");
	touch("prog");
	chmod("prog", 0755);
}

static void teardown(void)
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
	ck_assert_str_eq(complete("ls p", 3), "plainfile|prog");
	ck_assert_str_eq(complete("x=pl", 2), "plainfile");
	ck_assert_str_eq(complete("ls ./pla", 3), "./plainfile");
	ck_assert_str_eq(complete("ls ..", 3), "../");
	ck_assert_int_eq(append, '\0');
	ck_assert_str_eq(complete("ls .", 3), "../|.hidden");
}
END_TEST

/* Every place rc reads a command name. */
START_TEST(test_command_positions)
{
	static const char *const lines[] = {
		"ec", "ls; ec", "ls & ec", "a && ec", "a || ec", "a | ec", "a |[2] ec",
		"! ec", "@ ec", "@{ec", "{ec", "if not ec", "if (ec", "while (ec",
		"if (true) ec", "for (i in a) ec", "builtin ec", "exec ec",
		"builtin exec ec", "x=1 ec", "x=(a b) ec", "x=`{ec", "x=`ec",
		"cat <{ec", "cat >{ec", "fn f {ec", ">out ec", "> out ec",
		">[2=1] ec", "<[0=] ec", "a\nec", "switch (x) {case a; ec",
	};
	static const char *const not_commands[] = {
		"echo ec", "echo (a b) ec", "for (i in ec", "switch (ec",
		">[2] ec", "x=ec", "ls >ec", "if x ec",
	};
	size_t i;

	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		ck_assert_msg(strcmp(complete(lines[i], (int)strlen(lines[i]) - 2), "echo") == 0,
			"%s: %s", lines[i], result);
	for (i = 0; i < sizeof not_commands / sizeof not_commands[0]; i++)
		ck_assert_msg(strcmp(complete(not_commands[i], (int)strlen(not_commands[i]) - 2),
			"(none)") == 0, "%s: %s", not_commands[i], result);
}
END_TEST

/* Words whose place, command or redirection decides what completes them. */
START_TEST(test_arguments)
{
	static const struct expectation cases[] = {
		/* A command name with a `/': directories and programs only. */
		{ "./p", 0, "./prog" },
		{ "./pla", 0, "(none)" },
		{ "./d", 0, "'./dir two/'|./dir1/" },
		/* The file after every form of redirection; nothing after a dup or close. */
		{ "cat >pl", 5, "plainfile" },
		{ "cat >>pl", 6, "plainfile" },
		{ "cat <pl", 5, "plainfile" },
		{ ">pl", 1, "plainfile" },
		{ "cat >[2]pl", 8, "plainfile" },
		{ "cat >[2]pl", 5, "[2]plainfile" },
		{ "cat >>[2]fi", 9, "'file one'|'file two'" },
		{ "cat <[0] pl", 9, "plainfile" },
		{ "cat >[2", 5, "(none)" },
		{ "cat <<pl", 6, "(none)" },
		{ "cat >pl >[2=1] pl", 15, "plainfile" },
		/* cd: directories only, here and through $cdpath. */
		{ "cd d", 3, "'dir two/'|dir1/|docs/" },
		{ "cd p", 3, "(none)" },
		{ "cd ./d", 3, "'./dir two/'|./dir1/" },
		{ "cd ..", 3, "../" },
		{ "cd cdp/", 3, "cdp/dir1/|cdp/docs/" },
		{ "builtin cd do", 11, "docs/" },
		{ "ls do", 3, "(none)" },
		/* fn: function names; whatis: commands, functions and variables. */
		{ "fn my", 3, "myfunc" },
		{ "fn a b wh", 7, "whatever" },
		{ "fn e", 3, "(none)" },
		{ "whatis h", 7, "history|home" },
		{ "whatis ec", 7, "echo" },
		{ "whatis -v H", 10, "HOME" },
		{ "whatis ./pl", 7, "./plainfile" },
	};

	EXPECT_ALL(cases);
}
END_TEST

/* $var/...: files under the variable's value, the variable kept as typed. */
START_TEST(test_variable_paths)
{
	static const struct expectation cases[] = {
		{ "ls $home/pl", 3, "$home/plainfile" },
		{ "ls $home/pl", 4, "home/plainfile" },
		{ "ls $home/fi", 3, "$home'/file one'|$home'/file two'" },
		{ "ls $home/'file o", 3, "$home'/file one'" },
		{ "ls $home/dir1/", 3, "$home/dir1/inner" },
		{ "vi $home/dir1", 3, "$home/dir1/" },
		{ "cd $home/d", 3, "$home'/dir two/'|$home/dir1/" },
		{ "echo x$home/pl", 6, "$home/plainfile" },
		{ "ls $two/pl", 3, "(none)" },
		{ "ls $nosuch/pl", 3, "(none)" },
		{ "ls $#home/pl", 3, "(none)" },
	};

	EXPECT_ALL(cases);
	ck_assert_str_eq(complete("ls $home/pl", 4), "home/plainfile");
	ck_assert_int_eq(append, ' ');
	ck_assert_str_eq(complete("vi $home/dir1", 4), "home/dir1/");
	ck_assert_int_eq(append, '\0');
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
	ck_assert_str_eq(complete("echo $^h", 6), "^history|^home");
	ck_assert_str_eq(complete("echo $\"h", 6), "\"history|\"home");
	ck_assert_str_eq(complete("echo $#a-", 6), "(none)");
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
		q = le_quote(cases[i][0], false);
		ck_assert_str_eq(q, cases[i][1]);
		free(q);
	}
	for (i = 1; i < 256; i++) {	/* one rule: the printer's (src/quote.c) */
		char w[] = { 'a', (char)i, '\0' };

		q = le_quote(w, false);
		ck_assert_int_eq(q[0] == '\'', needs_quote(w));
		free(q);
	}
	q = le_quote("plain", true);
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
	tcase_add_test(tc, test_command_positions);
	tcase_add_test(tc, test_variable_paths);
	tcase_add_test(tc, test_arguments);
	tcase_add_test(tc, test_directories);
	tcase_add_test(tc, test_quoted_words);
	tcase_add_test(tc, test_commands);
	tcase_add_test(tc, test_variables);
	tcase_add_test(tc, test_comment);
	tcase_add_test(tc, test_quote);
	suite_add_tcase(s, tc);
	return s;
}
