/* SPDX-License-Identifier: Zlib */
/* check_keys.c: unit tests for lineedit/le_keys.c: readline's notation for
 * key sequences, and what is typed matched against the bound ones. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "le.h"
#include "le_impl.h"
#include "suites.h"

/* What the fake terminal has typed, read a byte at a time. */
static const char *typed;
static size_t typed_len, typed_at;

static int read_typed(void)
{
	return typed_at < typed_len ? (unsigned char) typed[typed_at++] : -1;
}

static void type(const char *bytes, size_t len)
{
	typed = bytes;
	typed_len = len;
	typed_at = 0;
	le_keys_reset();
}

/* What the editor gets for what is typed: its bytes, and `<fn>' (`<edit>'
 * for the line in an editor) for each bound sequence. */
static const char *keys_seen(void)
{
	static char out[256];
	size_t n = 0;
	for (;;) {
		const char *fn = NULL;
		int c = le_keys_next(read_typed, true, &fn);
		if (c == -1)
			break;
		if (c == LE_KEY_BOUND)
			n += snprintf(out + n, sizeof out - n, "<%s>", fn != NULL ? fn : "edit");
		else
			out[n++] = (char) c;
	}
	out[n] = '\0';
	return out;
}

static void bind(const char *const *words, int n)
{
	le_keys_set("rc", words, n);
}

START_TEST(test_notation)
{
	static const char *const words[] = {
		"\\C-xa", "ctl", "\\M-x", "meta", "\\ey", "esc", "\\C-?", "del",
		"\\101\\x42", "octhex", "\\t\\\\", "tab", "\\C-\\M-q", "ctlmeta",
	};
	bind(words, 14);
	type("\030a", 2);
	ck_assert_str_eq(keys_seen(), "<ctl>");
	type("\033x\033y", 4);
	ck_assert_str_eq(keys_seen(), "<meta><esc>");
	type("\177AB\t\\\033\021", 7);
	ck_assert_str_eq(keys_seen(), "<del><octhex><tab><ctlmeta>");
}
END_TEST

START_TEST(test_edit_key)
{
	bind(NULL, 0);
	type("ab\030\005c", 5);
	ck_assert_str_eq(keys_seen(), "ab<edit>c");
	static const char *const words[] = { "\\C-x\\C-e", "mine" };
	bind(words, 2);
	type("\030\005", 2);
	ck_assert_str_eq(keys_seen(), "<mine>");
}
END_TEST

/* Bytes that begin a sequence and then differ reach the editor in order,
 * and a sequence may start among them. */
START_TEST(test_given_back)
{
	static const char *const words[] = { "\\C-xab", "long", "\\C-x", "short", "zz", "z" };
	bind(words, 6);
	type("\030ac", 3);
	ck_assert_str_eq(keys_seen(), "<short>ac");
	type("\030ab", 3);
	ck_assert_str_eq(keys_seen(), "<long>");
	type("zq\033[A", 5);
	ck_assert_str_eq(keys_seen(), "zq\033[A");
	type("zzzq", 4);
	ck_assert_str_eq(keys_seen(), "<z>zq");
}
END_TEST

/* A bad pair is skipped (and reported on stderr); a later pair for the
 * same sequence wins. */
START_TEST(test_bad_pairs)
{
	static const char *const words[] = {
		"\\C", "bad", "", "empty", "\\x", "nohex", "\\C-a", "first",
		"\\C-a", "second", "\\C-b", "",  "\\C-c",
	};
	bind(words, 13);
	type("\001\002\003", 3);
	ck_assert_str_eq(keys_seen(), "<second>\002\003");
}
END_TEST

Suite *
keys_suite(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, test_notation);
	tcase_add_test(tc, test_edit_key);
	tcase_add_test(tc, test_given_back);
	tcase_add_test(tc, test_bad_pairs);
	suite_add_tcase(s, tc);
	return s;
}
