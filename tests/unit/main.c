/* SPDX-License-Identifier: Zlib */
/* main.c: the one main() of the unit tests: runs every suite and prints TAP
 * (one line per test, for automake's tap-driver). */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr;
	int failed;

	/* check kills a test after 4 s by default, which a loaded machine can
	 * exceed (the cases take well under a second when quiet).  The limit
	 * only ends a hang, as RC_TEST_TIMEOUT does for the other tests; it is
	 * read when each test case is created, so it is set before the suites. */
	setenv("CK_DEFAULT_TIMEOUT", getenv("RC_TEST_TIMEOUT") ? getenv("RC_TEST_TIMEOUT") : "300", 0);
	sr = srunner_create(lex_suite());
	srunner_add_suite(sr, parse_suite());
	srunner_add_suite(sr, list_suite());
	srunner_add_suite(sr, complete_suite());
	srunner_add_suite(sr, keys_suite());
	srunner_add_suite(sr, screen_suite());
	srunner_add_suite(sr, wait_suite());
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
