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

/* A completer for git and make, as the shell's runs one written in rc: the
 * words it was given, joined with `|', and what it prints. */
static char words_given[256];
static const char *const *printed;
static LeCompleted completer_result;

static LeCompleted fake_completer(const char *const *words, int n, LeNameFn *each, void *ctx)
{
	const char *cmd = strrchr(words[0], '/') != NULL ? strrchr(words[0], '/') + 1 : words[0];
	if (strcmp(cmd, "git") != 0 && strcmp(cmd, "make") != 0)
		return LE_NO_COMPLETER;
	words_given[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (i > 0)
			strcat(words_given, "|");
		strcat(words_given, words[i]);
	}
	for (const char *const *p = printed; p != NULL && *p != NULL; p++)
		each(*p, ctx);
	return completer_result;
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
	le_complete_defaults(&how, lister, fake_completer);
	printed = NULL;
	completer_result = LE_COMPLETER_RAN;
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
	ck_assert_int_eq(symlink("dir1", "lnk"), 0);
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

/* What a completer is given: the command's words as the shell reads them,
 * from its name (after sudo, env, ...) to the word being completed. */
START_TEST(test_completer_words)
{
	static const char *const branches[] = { "feature", "fix", "main", NULL };
	static const struct { const char *line, *words; } cases[] = {
		{ "git checkout fe", "git|checkout|fe" },
		{ "git checkout ", "git|checkout|" },
		{ "git 'a b' it''s fe", "git|a b|its|fe" },
		{ "git >log checkout fe", "git|checkout|fe" },
		{ "ls; git x fe", "git|x|fe" },
		{ "git x; make fe", "make|fe" },
		{ "sudo git fe", "git|fe" },
		{ "sudo -u root -E git fe", "git|fe" },
		{ "env A=1 B=2 git fe", "git|fe" },
		{ "env -u A git fe", "git|fe" },
		{ "nohup time -f x git fe", "git|fe" },
		{ "exec git fe", "git|fe" },
		{ "builtin git fe", "git|fe" },
		{ "x=1 git fe", "git|fe" },
		{ "/usr/bin/git fe", "/usr/bin/git|fe" },
		{ "git $x fe", "git|$x|fe" },
		{ "git a@b --x=y fe", "git|a@b|--x=y|fe" },
	};

	printed = branches;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		words_given[0] = '\0';
		const char *line = cases[i].line;
		const char *got = complete(line, (int)strlen(line) - (line[strlen(line) - 1] == ' ' ? 0 : 2));
		ck_assert_msg(strcmp(words_given, cases[i].words) == 0, "%s: given %s, want %s",
			line, words_given, cases[i].words);
		ck_assert_msg(strcmp(got, line[strlen(line) - 1] == ' ' ? "feature|fix|main" : "feature") == 0,
			"%s: %s", line, got);
	}
}
END_TEST

/* The candidates, and what is offered when there are none. */
START_TEST(test_completer_candidates)
{
	static const char *const hosts[] = { "alpha:", "beta:", "", NULL };
	static const char *const none[] = { NULL };

	printed = hosts;
	ck_assert_str_eq(complete("git al", 4), "alpha:");
	ck_assert_int_eq(append, '\0');	/* host: goes on */
	ck_assert_int_eq(spoke, false);
	ck_assert_str_eq(complete("git ", 4), "alpha:|beta:");
	static const char *const users[] = { "me@alpha", "me@beta", NULL };
	printed = users;
	ck_assert_str_eq(complete("git me@al", 4), "me@alpha");
	ck_assert_str_eq(complete("git me@al", 7), "alpha");	/* readline's word */
	printed = hosts;
	/* none that fits, or none at all: files */
	ck_assert_str_eq(complete("git pl", 4), "plainfile");
	printed = none;
	ck_assert_str_eq(complete("git pl", 4), "plainfile");
	/* not for a command name, a variable or a redirection's file */
	printed = hosts;
	ck_assert_str_eq(complete("sudo ec", 5), "echo");
	ck_assert_str_eq(complete("git $HO", 5), "HOME");
	ck_assert_str_eq(complete("git >pl", 5), "plainfile");
	/* a command that has none */
	ck_assert_str_eq(complete("ls al", 3), "(none)");
	/* quoted as the shell reads it */
	static const char *const odd[] = { "it's mine", NULL };
	printed = odd;
	ck_assert_str_eq(complete("git it", 4), "'it''s mine'");
	ck_assert_int_eq(append, ' ');
	completer_result = LE_COMPLETER_SPOKE;
	complete("git it", 4);
	ck_assert_int_eq(spoke, true);
	how.completer = NULL;
	ck_assert_str_eq(complete("git al", 4), "(none)");
}
END_TEST

/* readline's completion settings. */
START_TEST(test_settings)
{
	ck_assert_str_eq(complete("ls PL", 3), "(none)");
	how.ignore_case = true;
	ck_assert_str_eq(complete("ls PL", 3), "plainfile");
	ck_assert_str_eq(complete("ls ./PL", 3), "./plainfile");
	ck_assert_str_eq(complete("cd DI", 3), "'dir two/'|dir1/");
	how.ignore_case = false;
	/* dot files without a typed dot only when set so */
	ck_assert_str_eq(complete("ls dir1/", 3), "dir1/inner");
	ck_assert_int_eq(strstr(complete("ls ", 3), ".hidden") == NULL, true);
	how.hidden_files = true;
	ck_assert_int_eq(strstr(complete("ls ", 3), ".hidden") != NULL, true);
	ck_assert_int_eq(strstr(result, "../") == NULL, true);
	/* a symbolic link to a directory: marked when it is all that was typed */
	ck_assert_str_eq(complete("ls ln", 3), "lnk/");
	how.mark_symlinked_dirs = false;
	ck_assert_str_eq(complete("ls ln", 3), "lnk");
	ck_assert_int_eq(append, '\0');
	ck_assert_str_eq(complete("ls lnk", 3), "lnk/");
	/* no directory marked, and no space after one */
	how.mark_dirs = false;
	ck_assert_str_eq(complete("ls lnk", 3), "lnk");
	ck_assert_str_eq(complete("ls dir1", 3), "dir1");
	ck_assert_int_eq(append, '\0');
	ck_assert_str_eq(complete("ls pl", 3), "plainfile");
	ck_assert_int_eq(append, ' ');
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
	tcase_add_test(tc, test_completer_words);
	tcase_add_test(tc, test_completer_candidates);
	tcase_add_test(tc, test_settings);
	suite_add_tcase(s, tc);
	return s;
}
