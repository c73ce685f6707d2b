/* except.c: reporting errors and unwinding to the innermost catcher. */
#include "rc.h"

#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

Catch *catcher;

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
	siglongjmp(c->buf, e);
}

/* "rc: line N: msg" in scripts, "rc: msg" when interactive. */
static void vreport(const char *fmt, va_list ap)
{
	Str s = { 0 };
	str_adds(&s, "rc: ");
	if (!input_is_interactive())
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
	status_set(1 << 8);
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
	status_set(1 << 8);
	rc_raise(eError);
}
