/* SPDX-License-Identifier: Zlib */
/* limit.c: the limit builtin, csh-style names and units over getrlimit. */
#include "rc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { U_TIME, U_SIZE, U_COUNT };

static const struct { const char *name; int res, unit; } limits[] = {
	{ "cputime", RLIMIT_CPU, U_TIME }, { "filesize", RLIMIT_FSIZE, U_SIZE },
	{ "datasize", RLIMIT_DATA, U_SIZE }, { "stacksize", RLIMIT_STACK, U_SIZE },
	{ "coredumpsize", RLIMIT_CORE, U_SIZE }, { "descriptors", RLIMIT_NOFILE, U_COUNT },
	{ "memoryuse", RLIMIT_AS, U_SIZE },
	/* the rest are not POSIX */
#if HAVE_DECL_RLIMIT_RSS
	{ "memoryrss", RLIMIT_RSS, U_SIZE },
#endif
#if HAVE_DECL_RLIMIT_NPROC
	{ "maxproc", RLIMIT_NPROC, U_COUNT },
#endif
#if HAVE_DECL_RLIMIT_MEMLOCK
	{ "memorylocked", RLIMIT_MEMLOCK, U_SIZE },
#endif
#if HAVE_DECL_RLIMIT_LOCKS
	{ "filelocks", RLIMIT_LOCKS, U_COUNT },
#endif
};
enum { NLIMITS = sizeof limits / sizeof *limits };

/* One limit on standard output; false after a write error (reported).
 * rlim_t has 64 bits even on 32-bit systems (configure's large-file
 * support), wider than unsigned long there. */
static bool show(int i, bool hard)
{
	struct rlimit rl;
	getrlimit(limits[i].res, &rl);
	rlim_t v = hard ? rl.rlim_max : rl.rlim_cur;
	unsigned long long n = v;
	Str s = { 0 };
	str_fmt(&s, "%s \t", limits[i].name);
	if (v == RLIM_INFINITY)
		str_adds(&s, "unlimited");
	else if (limits[i].unit == U_TIME) {
		if (n == 0)
			str_adds(&s, "0");	/* as rc 1.7.4 prints it */
		else if (n % 3600 == 0)
			str_fmt(&s, "%lluh", n / 3600);
		else if (n % 60 == 0)
			str_fmt(&s, "%llum", n / 60);
		else
			str_fmt(&s, "%llus", n);
	} else if (limits[i].unit == U_SIZE) {
		if (n != 0 && n % (1024ULL * 1024 * 1024) == 0)
			str_fmt(&s, "%llug", n / (1024ULL * 1024 * 1024));
		else if (n != 0 && n % (1024ULL * 1024) == 0)
			str_fmt(&s, "%llum", n / (1024ULL * 1024));
		else if (n != 0 && n % 1024 == 0)
			str_fmt(&s, "%lluk", n / 1024);
		else
			str_fmt(&s, "%llu", n);
	} else
		str_fmt(&s, "%llu", n);
	str_addc(&s, '\n');
	bool ok = builtin_put("limit", &s);
	free(s.buf);
	return ok;
}

/* A decimal number at the start of w; false if there is none or it is too
 * big even for an unsigned long long. */
static bool parse_number(const char *w, unsigned long long *n, const char **rest)
{
	char *end;
	if (*w < '0' || *w > '9')
		return false;
	errno = 0;
	*n = strtoull(w, &end, 10);
	*rest = end;
	return errno == 0;
}

/* *v = n * mult + add, unless that does not fit below RLIM_INFINITY: a
 * number too big is a bad limit rather than one wrapped round to a small
 * value (a file-size limit of 0 kills the shell at its next write). */
static bool scaled(unsigned long long n, unsigned long long mult, unsigned long long add, rlim_t *v)
{
	unsigned long long most = RLIM_INFINITY - 1;	/* RLIM_INFINITY is "unlimited" */
	if (mult == 0 || add > most || n > (most - add) / mult)
		return false;
	*v = n * mult + add;
	return true;
}

/* 1:30 or 90 or 90s, 2m, 1h for time; 100, 100k, 1m, 1g for sizes. */
static bool parse_value(const char *w, int unit, rlim_t *v)
{
	if (strcmp(w, "unlimited") == 0) {
		*v = RLIM_INFINITY;
		return true;
	}
	unsigned long long n, m;
	const char *rest;
	/* m:s, either part empty (0), as in rc 1.7.4: ":" is 0, "1:" 1m */
	const char *colon = unit == U_TIME ? strchr(w, ':') : NULL;
	if (colon != NULL) {
		n = m = 0;
		if (colon != w && (!parse_number(w, &n, &rest) || rest != colon))
			return false;
		if (colon[1] != '\0' && (!parse_number(colon + 1, &m, &rest) || *rest))
			return false;
		return scaled(n, 60, m, v);
	}
	if (!parse_number(w, &n, &rest))
		return false;
	if (unit == U_TIME) {
		unsigned long long mult = *rest == '\0' || strcmp(rest, "s") == 0 ? 1 :
			strcmp(rest, "m") == 0 ? 60 : strcmp(rest, "h") == 0 ? 3600 : 0;
		return scaled(n, mult, 0, v);
	}
	if (unit == U_COUNT)
		return *rest == '\0' && scaled(n, 1, 0, v);
	unsigned long long mult = *rest == '\0' ? 1 : strcmp(rest, "k") == 0 ? 1024 :
		strcmp(rest, "m") == 0 ? 1024 * 1024 : strcmp(rest, "g") == 0 ? 1024ULL * 1024 * 1024 : 0;
	return scaled(n, mult, 0, v);
}

/* limit [-h] [name [value]] */
int limit_builtin(List *args)
{
	bool hard = false;
	if (args != NULL && strcmp(args->w, "-h") == 0) {
		hard = true;
		args = args->n;
	}
	if (args == NULL) {
		for (int i = 0; i < NLIMITS; i++)
			if (!show(i, hard))
				return 1;
		return LIMIT_SHOWN;
	}
	int i = 0;	/* the whole name, as in rc 1.7.4 (limit cpu is no limit) */
	while (i < NLIMITS && strcmp(limits[i].name, args->w) != 0)
		i++;
	if (i == NLIMITS) {
		print_error("no such limit");
		return 1;
	}
	if (args->n == NULL)
		return show(i, hard) ? LIMIT_SHOWN : 1;
	struct rlimit rl;
	rlim_t v;
	if (!parse_value(args->n->w, limits[i].unit, &v)) {
		print_error("bad limit");
		return 1;
	}
	getrlimit(limits[i].res, &rl);
	if (hard)
		rl.rlim_max = v;
	else
		rl.rlim_cur = v;
	if (setrlimit(limits[i].res, &rl) < 0) {
		print_error("rc: setrlimit: %s", strerror(errno));
		return 1;
	}
	if (limits[i].res == RLIMIT_STACK)
		stack_measure();
	return 0;
}
