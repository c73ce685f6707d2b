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

/* One limit on standard output; false after a write error (reported). */
static bool show(int i, bool hard)
{
	struct rlimit rl;
	getrlimit(limits[i].res, &rl);
	rlim_t v = hard ? rl.rlim_max : rl.rlim_cur;
	Str s = { 0 };
	str_fmt(&s, "%s \t", limits[i].name);
	if (v == RLIM_INFINITY)
		str_adds(&s, "unlimited");
	else if (limits[i].unit == U_TIME) {
		unsigned long t = v;
		if (t == 0)
			str_adds(&s, "0");	/* as rc 1.7.4 prints it */
		else if (t % 3600 == 0)
			str_fmt(&s, "%luh", t / 3600);
		else if (t % 60 == 0)
			str_fmt(&s, "%lum", t / 60);
		else
			str_fmt(&s, "%lus", t);
	} else if (limits[i].unit == U_SIZE) {
		unsigned long b = v;
		if (b != 0 && b % (1024UL * 1024 * 1024) == 0)
			str_fmt(&s, "%lug", b / (1024UL * 1024 * 1024));
		else if (b != 0 && b % (1024UL * 1024) == 0)
			str_fmt(&s, "%lum", b / (1024UL * 1024));
		else if (b != 0 && b % 1024 == 0)
			str_fmt(&s, "%luk", b / 1024);
		else
			str_fmt(&s, "%lu", b);
	} else
		str_fmt(&s, "%lu", (unsigned long) v);
	str_addc(&s, '\n');
	int r = writeall(1, s.buf, s.len);
	free(s.buf);
	if (r < 0)
		print_error("rc: limit: write error: %s", strerror(errno));
	return r == 0;
}

static bool parse_number(const char *w, unsigned long *n, const char **rest)
{
	char *end;
	if (*w < '0' || *w > '9')
		return false;
	*n = strtoul(w, &end, 10);
	*rest = end;
	return true;
}

/* 1:30 or 90 or 90s, 2m, 1h for time; 100, 100k, 1m, 1g for sizes. */
static bool parse_value(const char *w, int unit, rlim_t *v)
{
	if (strcmp(w, "unlimited") == 0) {
		*v = RLIM_INFINITY;
		return true;
	}
	unsigned long n, m;
	const char *rest;
	/* m:s, either part empty (0), as in rc 1.7.4: ":" is 0, "1:" 1m */
	const char *colon = unit == U_TIME ? strchr(w, ':') : NULL;
	if (colon != NULL) {
		n = m = 0;
		if (colon != w && (!parse_number(w, &n, &rest) || rest != colon))
			return false;
		if (colon[1] != '\0' && (!parse_number(colon + 1, &m, &rest) || *rest))
			return false;
		*v = n * 60 + m;
		return true;
	}
	if (!parse_number(w, &n, &rest))
		return false;
	if (unit == U_TIME) {
		unsigned long mult = *rest == '\0' || strcmp(rest, "s") == 0 ? 1 :
			strcmp(rest, "m") == 0 ? 60 : strcmp(rest, "h") == 0 ? 3600 : 0;
		*v = n * mult;
		return mult != 0;
	}
	if (unit == U_COUNT) {
		*v = n;
		return *rest == '\0';
	}
	unsigned long mult = *rest == '\0' ? 1 : strcmp(rest, "k") == 0 ? 1024 :
		strcmp(rest, "m") == 0 ? 1024 * 1024 : strcmp(rest, "g") == 0 ? 1024UL * 1024 * 1024 : 0;
	*v = n * mult;
	return mult != 0;
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
