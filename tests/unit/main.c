/* main.c: the one main() of the unit tests: runs every suite and prints TAP
 * (one line per test, for automake's tap-driver). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <check.h>
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(lex_suite());
	int failed;

	srunner_add_suite(sr, parse_suite());
	srunner_add_suite(sr, list_suite());
	srunner_add_suite(sr, complete_suite());
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
