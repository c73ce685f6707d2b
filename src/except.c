/* except.c: reporting errors and unwinding to the innermost catcher. */
#include "rc.h"

#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

Catch *catcher;

/* Deep nesting (in the parser) and deep recursion (functions, eval) end
 * with an error before the stack runs out.  The limit is read only once
 * the stack has grown past a first, small threshold. */
char *stack_base;
size_t stack_room = 64 * 1024;	/* below the smallest stack limit worth running with */
static bool stack_limit_known;

void stack_init(void *base)
{
	stack_base = base;
}

void stack_check_slow(void)
{
	char here;
	size_t used = (size_t) (stack_base - &here);
	if (stack_base == NULL || used < stack_room)
		return;
	if (!stack_limit_known) {
		struct rlimit rl;
		stack_limit_known = true;
		size_t limit = getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
			rl.rlim_cur : 64 * 1024 * 1024;
		stack_room = limit > 1024 * 1024 ? limit - 512 * 1024 : limit / 2;
		if (used < stack_room)
			return;
	}
	rc_error("too deeply nested (recursion or nesting beyond the stack limit)");
}

int catch_raised;

void catch_push(Catch *c)
{
	c->prev = catcher;
	c->vardepth = var_depth();
	c->fddepth = fd_depth();
	c->funcdepth = funcdepth;
	c->loopdepth = loopdepth;
	catcher = c;
}

void catch_pop(Catch *c)
{
	catcher = c->prev;
}

/* Unwind to the innermost catcher, undoing local assignments and
 * in-shell redirections made since it was set up. */
NORETURN void rc_raise(int e)
{
	Catch *c = catcher;
	if (c == NULL)
		_exit(1);
	catcher = c->prev;
	var_unwind(c->vardepth);
	fd_unwind(c->fddepth);
	funcdepth = c->funcdepth;
	loopdepth = c->loopdepth;
	skipping = SKIP_NONE;
	catch_raised = e;
	siglongjmp(c->buf, e);
}

/* "rc: line N: msg" in scripts, "rc: msg" when interactive. */
static void vreport(const char *fmt, va_list ap)
{
	Str s = { 0 };
	str_adds(&s, "rc: ");
	if (!interactive)
		str_fmt(&s, "line %d: ", lineno);
	str_vfmt(&s, fmt, ap);
	str_addc(&s, '\n');
	writeall(2, s.buf, s.len);
	free(s.buf);
}

NORETURN void rc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	status_fail();
	rc_raise(eError);
}

void rc_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

/* A message without the line number, as builtins and exec failures print. */
void uerror(const char *fmt, ...)
{
	Str s = { 0 };
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
	uerror("rc: %s: %s", what, strerror(errno));
	status_fail();
	rc_raise(eError);
}
