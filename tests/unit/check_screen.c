/* SPDX-License-Identifier: Zlib */
/* check_screen.c: unit tests for lineedit/le_screen.c: where a prompt and
 * a line end on a screen of N columns (wide characters, tabs, control
 * characters, newlines in the line, a row filled exactly, the prompt's
 * \001..\002 markers). */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "le.h"
#include "le_impl.h"
#include "suites.h"

/* "row,col" where text ends, drawn from the start of a row. */
static const char *end_of(const char *text, bool prompt, size_t columns)
{
	static char out[32];
	size_t row = 0, col = 0;
	le_advance(text, strlen(text), prompt, columns, &row, &col);
	snprintf(out, sizeof out, "%zu,%zu", row, col);
	return out;
}

START_TEST(test_plain_text)
{
	ck_assert_str_eq(end_of("abc", false, 80), "0,3");
	ck_assert_str_eq(end_of("", false, 80), "0,0");
	ck_assert_str_eq(end_of("abcdefghijk", false, 10), "1,1");
}
END_TEST

START_TEST(test_row_filled_exactly)
{
	char line[81];
	memset(line, 'x', 78);
	line[78] = '\0';
	/* the cursor after a full row waits on the next */
	ck_assert_uint_eq(le_rows_edited("; ", line, "", 80), 1);
	line[77] = '\0';
	ck_assert_uint_eq(le_rows_edited("; ", line, "", 80), 0);
	ck_assert_str_eq(end_of("0123456789", false, 10), "0,10");
	ck_assert_str_eq(end_of("0123456789a", false, 10), "1,1");
}
END_TEST

START_TEST(test_tabs)
{
	ck_assert_str_eq(end_of("a\tb", false, 80), "0,9");
	ck_assert_str_eq(end_of("\t", false, 80), "0,8");
	ck_assert_str_eq(end_of("abcdefgh\t", false, 80), "0,16");
	ck_assert_str_eq(end_of("a\tb", true, 80), "0,9");
}
END_TEST

START_TEST(test_control_characters)
{
	/* ^X in the line; nothing in the prompt */
	ck_assert_str_eq(end_of("a\033b", false, 80), "0,4");
	ck_assert_str_eq(end_of("\177", false, 80), "0,2");
	ck_assert_str_eq(end_of("a\033[1mb", true, 80), "0,5");
	ck_assert_str_eq(end_of("abcdefghi\001", false, 10), "1,2");
}
END_TEST

START_TEST(test_newlines_in_the_line)
{
	ck_assert_str_eq(end_of("ab\ncd", false, 80), "1,2");
	ck_assert_str_eq(end_of("ab\n", false, 80), "1,0");
	ck_assert_uint_eq(le_rows_edited("; ", "echo a\nb", "", 80), 1);
	/* the prompt's lines before its last are the rows above */
	ck_assert_uint_eq(le_rows_edited("one\ntwo; ", "x", "", 80), 0);
	ck_assert_uint_eq(le_prompt_rows_above("one\ntwo; ", 80), 1);
	ck_assert_uint_eq(le_prompt_rows_above("; ", 80), 0);
	ck_assert_uint_eq(le_prompt_rows_above("a\nb\n; ", 80), 2);
	ck_assert_uint_eq(le_prompt_rows_above("0123456789abc\n; ", 10), 2);
}
END_TEST

START_TEST(test_prompt_markers)
{
	ck_assert_str_eq(end_of("\001\033[1m\002; \001\033[0m\002", true, 80), "0,2");
	/* outside the prompt they are control characters */
	ck_assert_str_eq(end_of("\001x\002", false, 80), "0,5");
	ck_assert_uint_eq(le_rows_edited("\001\033[31;1m\002rc; \001\033[0m\002", "abcdef", "", 10), 1);
	ck_assert_uint_eq(le_rows_edited("\001\033[31;1m\002rc; \001\033[0m\002", "abcde", "", 10), 0);
}
END_TEST

START_TEST(test_wide_characters)
{
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL && setlocale(LC_CTYPE, "en_US.UTF-8") == NULL)
		return;	/* no UTF-8 locale: nothing to measure */
	/* é takes one column, 漢 two */
	ck_assert_str_eq(end_of("\303\251\303\251", false, 80), "0,2");
	ck_assert_str_eq(end_of("\346\274\242", false, 80), "0,2");
	/* a wide character that does not fit the row's end goes to the next */
	ck_assert_str_eq(end_of("abcdefghi\346\274\242", false, 10), "1,2");
	ck_assert_str_eq(end_of("abcdefgh\346\274\242", false, 10), "0,10");
	ck_assert_uint_eq(le_rows_edited("; ", "abcdef\346\274\242", "", 10), 1);
	/* a byte that is no character takes a column */
	ck_assert_str_eq(end_of("\377a", false, 80), "0,2");
	setlocale(LC_CTYPE, "C");
}
END_TEST

Suite *
screen_suite(void)
{
	Suite *s = suite_create("screen");
	TCase *tc = tcase_create("screen");

	tcase_add_test(tc, test_plain_text);
	tcase_add_test(tc, test_row_filled_exactly);
	tcase_add_test(tc, test_tabs);
	tcase_add_test(tc, test_control_characters);
	tcase_add_test(tc, test_newlines_in_the_line);
	tcase_add_test(tc, test_prompt_markers);
	tcase_add_test(tc, test_wide_characters);
	suite_add_tcase(s, tc);
	return s;
}
