/* SPDX-License-Identifier: Zlib */
/* except.c: reporting errors and unwinding to the innermost catcher. */
#include "rc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#ifdef HAVE_GETAUXVAL
#include <sys/auxv.h>
#endif
#include <unistd.h>

Catch *catcher;

/* Deep nesting (in the parser) and deep recursion (functions, eval) end
 * with an error before the stack runs out.  The stack limit (ulimit -s)
 * counts from the top of the stack, and above the frame of rc_main lie the
 * argument and environment strings (up to a quarter of the limit) and the
 * frames of the C start-up: stack_guard.room is what the limit leaves below
 * rc_main, less a margin for the frames between two checks, the error
 * path, a signal handler and the library. */
enum {
	KB = 1024,
	PAGE = 4 * KB,	/* a page on most systems: what the stack grows by */
	STACK_UNLIMITED = 64 * KB * KB,	/* what an unlimited stack is taken to be */
	STACK_BIG = KB * KB,	/* room beyond this keeps back STACK_MARGIN, */
	STACK_MARGIN = 256 * KB,	/* less room MARGIN_PERCENT (below) */
	STACK_BELOW = KB * KB,	/* a fault this far below the limit is an overflow */
	ALTSTACK = 64 * KB	/* the stack the overflow handler runs on */
};
StackGuard stack_guard;
/* the share of a small stack kept back; AddressSanitizer's run-time
 * library needs more */
#ifdef RC_ASAN
enum { MARGIN_PERCENT = 75 };
#else
enum { MARGIN_PERCENT = 50 };
#endif
static char *stack_top;
static size_t stack_limit;
static bool measured;	/* stack_limit and stack_guard.room are the limit's */

/* The top of the stack: just above the program's file name (AT_EXECFN),
 * the highest string the kernel puts there; else above the last string of
 * the environment, with a page to spare. */
static char *find_stack_top(char **envp)
{
	char *top = NULL;
#ifdef HAVE_GETAUXVAL
	top = (char *) getauxval(AT_EXECFN);
	if (top != NULL)
		return top + strlen(top) + 1;
#endif
	for (char **e = envp; e != NULL && *e != NULL; e++)
		if (*e + strlen(*e) + 1 > top)
			top = *e + strlen(*e) + 1;
	return top != NULL ? top + PAGE : NULL;
}

#define OVERFLOW_MESSAGE "too deeply nested (recursion or nesting beyond the stack limit)"

#ifndef RC_ASAN
/* The last resort, for a stack so small (a few kB left, the top placed at
 * random) that the margin does not cover what runs between two checks:
 * a fault just below the stack's limit ends the shell with the message
 * and status 1, as the error would end a script.  Any other fault is left
 * to its default (the faulting instruction runs again). */
static void on_overflow(int sig, siginfo_t *si, void *context)
{
	static const char msg[] = "rc: " OVERFLOW_MESSAGE "\n";
	char *a = si->si_addr;
	(void) context;
	if (!measured)
		stack_measure();
	if (a < stack_guard.base && (size_t) (stack_top - a) <= stack_limit + STACK_BELOW) {
		ssize_t ignored = write(2, msg, sizeof msg - 1);
		(void) ignored;
		_exit(1);
	}
	signal(sig, SIG_DFL);
}

static void catch_overflow(void)
{
	static char alt[ALTSTACK];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
	struct sigaction sa = { .sa_sigaction = on_overflow, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) == 0)
		sigaction(SIGSEGV, &sa, NULL);
}
#else
static void catch_overflow(void)
{
	/* the sanitizer reports a stack overflow itself */
}
#endif

/* The limit is read when the first check is made (rc -c '' makes none),
 * or at once (now). */
void stack_init(void *base, char **envp, bool now)
{
	stack_guard.base = base;
	stack_top = find_stack_top(envp);
	if (stack_top == NULL || stack_top < stack_guard.base)
		stack_top = stack_guard.base;
	measured = false;
	stack_guard.room = 0;
	if (now)
		stack_measure();
	catch_overflow();
}

/* At the first check, and after limit stacksize. */
void stack_measure(void)
{
	struct rlimit rl;
	size_t limit = getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
		rl.rlim_cur : STACK_UNLIMITED;
	stack_limit = limit;
	/* the stack grows by whole pages: up to one is lost below the top */
	size_t above = (size_t) (stack_top - stack_guard.base) + PAGE;
	size_t avail = limit > above ? limit - above : 0;
	size_t margin = avail > STACK_BIG ? STACK_MARGIN : avail / 100 * MARGIN_PERCENT;
	stack_guard.room = avail - margin;
	measured = true;
}

void stack_check_slow(void)
{
	char here;
	if (stack_guard.base == NULL)
		return;
	if (!measured)
		stack_measure();
	if ((size_t) (stack_guard.base - &here) >= stack_guard.room)
		rc_error(OVERFLOW_MESSAGE);
}

int catch_raised;
LastError last_error;

static const CatchStep *steps[CATCH_STEPS];
static int nsteps;
static void (*error_hook)(void);

void catch_register(const CatchStep *step)
{
	if (nsteps == CATCH_STEPS) {
		print_error("rc: internal error: CATCH_STEPS (rc.h) is too small");
		_exit(1);
	}
	steps[nsteps++] = step;
}

void catch_on_error(void (*hook)(void))
{
	error_hook = hook;
}

void catch_push(Catch *c)
{
	c->prev = catcher;
	for (int i = 0; i < nsteps; i++)
		c->saved[i] = steps[i]->save();
	catcher = c;
}

void catch_pop(Catch *c)
{
	catcher = c->prev;
}

/* Unwind to the innermost catcher, each registered module putting back
 * the state it had when the catcher was set up. */
NORETURN void rc_raise(int e)
{
	Catch *c = catcher;
	if (c == NULL)
		_exit(1);
	if (e == eError && error_hook != NULL)
		error_hook();
	catcher = c->prev;
	for (int i = 0; i < nsteps; i++)
		steps[i]->restore(c->saved[i]);
	catch_raised = e;
	siglongjmp(c->buf, e);
}

/* "rc: FILE:N: " in the start-up file (start_up_file_name), else "rc:
 * line N: " in scripts, "rc: " when interactive (as_script). */
static void message_origin(Str *s, int line)
{
	const char *file = start_up_file_name();
	str_adds(s, "rc: ");
	if (file != NULL)
		str_fmt(s, "%s:%d: ", file, line);
	else if (as_script())
		str_fmt(s, "line %d: ", line);
}

static void vreport_at(int line, const char *fmt, va_list ap)
{
	Str s = { 0 };
	message_origin(&s, line);
	str_vfmt(&s, fmt, ap);
	str_addc(&s, '\n');
	writeall(2, s.buf, s.len);
	free(s.buf);
}

static void vreport(const char *fmt, va_list ap)
{
	vreport_at(lineno, fmt, ap);
}

/* A message about line (the parser's, which knows the line better than
 * lineno), with the origin every message has. */
void report_at(int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_at(line, fmt, ap);
	va_end(ap);
}

NORETURN void rc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	rc_raise_failed();
}

void rc_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

/* fmt on standard error with a newline, without rc_warn's line number,
 * as builtins and exec failures print their messages; in the start-up
 * file with its name and line, as every message there. */
void print_error(const char *fmt, ...)
{
	Str s = { 0 };
	if (start_up_file_name() != NULL) {
		message_origin(&s, lineno);
		if (strncmp(fmt, "rc: ", 4) == 0)
			fmt += 4;
	}
	va_list ap;
	va_start(ap, fmt);
	str_vfmt(&s, fmt, ap);
	va_end(ap);
	str_addc(&s, '\n');
	writeall(2, s.buf, s.len);
	free(s.buf);
}

/* "rc: what: strerror", then unwind. */
NORETURN void rc_syserror(const char *what)
{
	print_error("rc: %s: %s", what, strerror(errno));
	rc_raise_failed();
}

NORETURN void rc_raise_failed(void)
{
	status_fail();
	last_error.failed = true;
	last_error.line = lineno;
	rc_raise(eError);
}
