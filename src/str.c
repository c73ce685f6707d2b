/* SPDX-License-Identifier: Zlib */
/* str.c: growable strings (Str), the small formatter that fills them
 * (%q quotes a word by quote.c's rule), and writing them out. */
#include "rc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void str_add(Str *s, const char *p, size_t n)
{
	s->buf = egrow(s->buf, &s->cap, s->len + n + 1, 1);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

static void free_held(void *s)
{
	free(((Str *) s)->buf);
}

/* An empty Str whose buffer the arena frees when it is released: for a
 * string that an error or a ^C may unwind past (input being read), which
 * no caller could free then. */
Str *str_held(void)
{
	Str *s = nalloc(sizeof *s);
	*s = (Str) { 0 };
	nhold(free_held, s);
	return s;
}

void str_addc(Str *s, int c)
{
	char ch = c;
	str_add(s, &ch, 1);
}

void str_adds(Str *s, const char *p)
{
	str_add(s, p, strlen(p));
}

/* rc's quoting rule is quote.c's, shared with completion. */
static void str_quote_if(Str *s, const char *w, bool always)
{
	char *q = ealloc(QUOTE_ROOM(strlen(w)));
	str_add(s, q, quote_into(q, w, always));
	free(q);
}

void str_quote(Str *s, const char *w)
{
	str_quote_if(s, w, false);
}

void str_quote_always(Str *s, const char *w)
{
	str_quote_if(s, w, true);
}

static void addnum(Str *s, unsigned long long v, int base, bool neg)
{
	char buf[32];
	int i = sizeof buf;
	do
		buf[--i] = "0123456789abcdef"[v % base];
	while ((v /= base) != 0);
	if (neg)
		buf[--i] = '-';
	str_add(s, buf + i, sizeof buf - i);
}

/* The next unsigned argument of str_vfmt, of length l (0 none, 1 l, 2 ll). */
#define UNSIGNED_ARG(ap, l) ((l) == 2 ? va_arg(ap, unsigned long long) : \
	(l) == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned))

/* %s %q (quoted word) %c, %d %u %o %x with l or ll, %%; nothing else is
 * needed.  ll is for 64-bit values (rlim_t) on 32-bit systems. */
void str_vfmt(Str *s, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			const char *e = strchr(fmt, '%');
			size_t n = e ? (size_t) (e - fmt) : strlen(fmt);
			str_add(s, fmt, n);
			fmt += n - 1;
			continue;
		}
		int l = 0;
		while (*++fmt == 'l')
			l++;
		switch (*fmt) {
		case 's': str_adds(s, va_arg(ap, const char *)); break;
		case 'q': str_quote(s, va_arg(ap, const char *)); break;
		case 'c': str_addc(s, va_arg(ap, int)); break;
		case 'd': {
			long long v = l == 2 ? va_arg(ap, long long) : l == 1 ? va_arg(ap, long) : va_arg(ap, int);
			addnum(s, v < 0 ? -(unsigned long long) v : (unsigned long long) v, 10, v < 0);
			break;
		}
		case 'u': addnum(s, UNSIGNED_ARG(ap, l), 10, false); break;
		case 'o': addnum(s, UNSIGNED_ARG(ap, l), 8, false); break;
		case 'x': addnum(s, UNSIGNED_ARG(ap, l), 16, false); break;
		default: str_addc(s, *fmt); break;
		}
	}
}

void str_fmt(Str *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	str_vfmt(s, fmt, ap);
	va_end(ap);
}

/* Write all of p, retrying after interrupted or partial writes. */
int writeall(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		n -= k;
	}
	return 0;
}

int fprint(int fd, const char *fmt, ...)
{
	Str s = { 0 };
	va_list ap;
	va_start(ap, fmt);
	str_vfmt(&s, fmt, ap);
	va_end(ap);
	int r = writeall(fd, s.buf, s.len);
	free(s.buf);
	return r;
}

char *nfmt(const char *fmt, ...)
{
	Str s = { 0 };
	va_list ap;
	va_start(ap, fmt);
	str_vfmt(&s, fmt, ap);
	va_end(ap);
	char *r = nstrndup(s.buf ? s.buf : "", s.len);
	free(s.buf);
	return r;
}
