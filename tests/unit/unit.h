/* SPDX-License-Identifier: Zlib */
/* unit.h: helpers shared by the core's unit tests: running code under a
 * catcher and capturing what it writes to stderr. */
#ifndef UNIT_H
#define UNIT_H

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rc.h"
#include "suites.h"

/* What the last unit_try wrote to stderr (its last line, without the newline). */
static char unit_err[1024];

static int unit_saved_stderr = -1;
static FILE *unit_err_file;

static inline void unit_capture_stderr(void)
{
	unit_err_file = tmpfile();
	ck_assert_ptr_nonnull(unit_err_file);
	fflush(stderr);
	unit_saved_stderr = dup(2);
	ck_assert_int_ge(unit_saved_stderr, 0);
	ck_assert_int_eq(dup2(fileno(unit_err_file), 2), 2);
}

static inline void unit_release_stderr(void)
{
	char line[sizeof unit_err];

	fflush(stderr);
	dup2(unit_saved_stderr, 2);
	close(unit_saved_stderr);
	unit_saved_stderr = -1;
	unit_err[0] = '\0';
	rewind(unit_err_file);
	while (fgets(line, sizeof line, unit_err_file) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		strcpy(unit_err, line);
	}
	fclose(unit_err_file);
	unit_err_file = NULL;
}

/* Run f(arg) with a catcher in place and stderr captured into unit_err.
 * Returns 0 when f returned, else the exception (eError...) it raised. */
static inline int unit_try(void (*f)(void *), void *arg)
{
	Catch c;
	volatile int e = 0;	/* set only after a raise, but gcc cannot tell */

	unit_capture_stderr();
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		f(arg);
		catch_pop(&c);
	} else
		e = catch_raised;
	unit_release_stderr();
	return e;
}

#endif
