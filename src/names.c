/* SPDX-License-Identifier: Zlib */
/* names.c: the names lineedit completes (LeLister): variables, functions,
 * builtins, a variable's words, and the programs on $path.  The programs of
 * each $path directory are kept from one completion to the next and read
 * again only when $path changes or the directory's inode or mtime does. */
#include "rc.h"
#include "../lineedit/le.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The programs of one $path directory, as read when it had this stat. */
typedef struct {
	char *dir;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	bool racy;	/* changed too close to the reading to trust the mtime */
	Str names;	/* NUL-terminated names, one after the other */
} PathDir;

static PathDir *dirs;
static size_t ndirs, maxdirs;

/* A directory changed in the same second it was read (or the one before: a
 * coarse file-system clock) may have changed again since, with no new
 * mtime to show it: such a reading is used once and then done again. */
enum { RACY_SECONDS = 2 };

static bool same_stat(const PathDir *p, const struct stat *st)
{
	return !p->racy && p->dev == st->st_dev && p->ino == st->st_ino &&
		p->mtime.tv_sec == st->st_mtim.tv_sec &&
		p->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

static void read_dir(PathDir *p, const char *dir, const struct stat *st)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	free(p->dir);
	p->dir = estrdup(dir);
	p->dev = st->st_dev;
	p->ino = st->st_ino;
	p->mtime = st->st_mtim;
	p->racy = st->st_mtim.tv_sec + RACY_SECONDS > now.tv_sec;
	p->names.len = 0;
	DIR *d = opendir(*dir ? dir : ".");
	if (d == NULL)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		if (e->d_name[0] != '.' && faccessat(dirfd(d), e->d_name, X_OK, 0) == 0)
			str_add(&p->names, e->d_name, strlen(e->d_name) + 1);
	closedir(d);
}

/* The cached reading of the i-th directory of $path, brought up to date. */
static PathDir *path_dir(size_t i, const char *dir)
{
	if (i >= ndirs) {
		dirs = egrow(dirs, &maxdirs, i + 1, sizeof *dirs);
		memset(dirs + ndirs, 0, (i + 1 - ndirs) * sizeof *dirs);
		ndirs = i + 1;
	}
	PathDir *p = &dirs[i];
	struct stat st;
	if (stat(*dir ? dir : ".", &st) != 0) {
		p->names.len = 0;
		p->racy = true;
		return p;
	}
	if (p->dir == NULL || strcmp(p->dir, dir) != 0 || !same_stat(p, &st))
		read_dir(p, dir, &st);
	return p;
}

static void each_program(LeNameFn *each, void *ctx)
{
	size_t i = 0;
	for (List *l = var_get("path"); l != NULL; l = l->n, i++) {
		PathDir *p = path_dir(i, l->w);
		for (size_t k = 0; k < p->names.len; k += strlen(p->names.buf + k) + 1)
			each(p->names.buf + k, ctx);
	}
}

static void names_list(LeKind kind, const char *var, LeNameFn *each, void *ctx)
{
	if (kind == LE_VALUE) {
		for (List *p = var_get(var); p != NULL; p = p->n)
			each(p->w, ctx);
		return;
	}
	int n;
	Sym **syms = sym_all(&n);
	for (int i = 0; i < n; i++) {
		const char *name = syms[i]->name;
		/* (an imported function is not parsed here: its errors would
		 * be raised in the middle of the editor) */
		if (kind == LE_VARIABLES ? var_get(name) != NULL : fn_defined(name))
			each(name, ctx);
	}
	if (kind != LE_COMMANDS)
		return;
	builtin_each(each, ctx);
	each_program(each, ctx);
}

void names_offer(void)
{
	le_set_lister(names_list);
}
