/* SPDX-License-Identifier: Zlib */
/* check_wait.c: unit tests for the table of children (src/wait.c), with
 * made-up pids: nothing is forked, and a child's end is recorded with
 * child_ended as reaping it would. */
#include "unit.h"

/* A normal exit with this code, as wait(2) encodes it. */
static int exited(int code)
{
	return code << 8;
}

/* Adds, ends and waits in a scrambled order over a small range of pids,
 * so that runs of colliding entries form and are cut: every look-up must
 * agree with a plain array of which pids are children. */
START_TEST(wait_table_agrees_with_array)
{
	enum { PIDS = 300, STEPS = 20000 };
	bool is_child[PIDS + 1] = { false };
	unsigned long r = 12345;
	for (int step = 0; step < STEPS; step++) {
		r = r * 1103515245 + 12345;
		pid_t pid = 1 + (pid_t) ((r >> 8) % PIDS);
		if (!is_child[pid]) {
			child_add(pid, false);
			is_child[pid] = true;
		} else {
			int code = (int) ((r >> 20) % 200);
			child_ended(pid, exited(code));
			ck_assert_int_eq(child_wait(pid), exited(code));
			is_child[pid] = false;
		}
		if (step % 97 == 0)
			for (pid_t p = 1; p <= PIDS; p++)
				ck_assert_msg(child_is(p) == is_child[p], "pid %d at step %d", (int) p, step);
	}
}
END_TEST

/* Background jobs that end unwaited are kept for wait, but only the
 * newest of them past a bound: a long-running shell does not grow. */
START_TEST(wait_finished_jobs_bounded)
{
	enum { FIRST = 1000, JOBS = 5000 };
	for (pid_t p = FIRST; p < FIRST + JOBS; p++) {
		child_add(p, true);
		child_ended(p, exited(p % 100));
	}
	ck_assert_ptr_null(child_async_list());	/* none is running */
	int kept = 0;
	for (pid_t p = FIRST; p < FIRST + JOBS; p++)
		if (child_is(p))
			kept++;
	ck_assert_int_gt(kept, 0);
	ck_assert_int_lt(kept, JOBS / 2);
	for (pid_t p = FIRST + JOBS - kept; p < FIRST + JOBS; p++)
		ck_assert_msg(child_is(p), "a newer job, %d, was forgotten", (int) p);
	pid_t pid;
	ck_assert_int_eq(child_wait_any(&pid), exited((FIRST + JOBS - kept) % 100));
	ck_assert_int_eq(pid, FIRST + JOBS - kept);
	int w;
	ck_assert(child_wait_for(FIRST + JOBS - 1, &w));
	ck_assert_int_eq(w, exited((FIRST + JOBS - 1) % 100));
	ck_assert(!child_is(FIRST + JOBS - 1));
}
END_TEST

/* $apids lists the running background jobs in the order they started. */
START_TEST(wait_apids_in_order)
{
	pid_t pids[] = { 900, 17, 4242, 5, 31337, 64 };
	for (size_t i = 0; i < sizeof pids / sizeof *pids; i++)
		child_add(pids[i], true);
	child_add(77, false);		/* not a background job */
	child_ended(4242, exited(0));	/* no longer running */
	const char *want[] = { "900", "17", "5", "31337", "64" };
	List *l = child_async_list();
	for (size_t i = 0; i < sizeof want / sizeof *want; i++, l = l->n) {
		ck_assert_ptr_nonnull(l);
		ck_assert_str_eq(l->w, want[i]);
	}
	ck_assert_ptr_null(l);
}
END_TEST

Suite *wait_suite(void)
{
	Suite *s = suite_create("wait");
	TCase *tc = tcase_create("children");
	tcase_add_test(tc, wait_table_agrees_with_array);
	tcase_add_test(tc, wait_finished_jobs_bounded);
	tcase_add_test(tc, wait_apids_in_order);
	suite_add_tcase(s, tc);
	return s;
}
