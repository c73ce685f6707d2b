/* SPDX-License-Identifier: Zlib */
/* suites.h: the unit-test suites, one per check_*.c, run by main.c.
 * A new suite: write NAME_suite() in tests/unit/check_NAME.c, declare it
 * here, add it to main.c and the file to check_rc's sources in Makefile.am. */
#ifndef SUITES_H
#define SUITES_H

#include <check.h>

Suite *lex_suite(void);
Suite *parse_suite(void);
Suite *list_suite(void);
Suite *complete_suite(void);
Suite *keys_suite(void);
Suite *screen_suite(void);
Suite *wait_suite(void);

#endif
