/* SPDX-License-Identifier: Zlib */
/* glob.c: expanding unquoted * ? [ against the file system. */
#include "rc.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct { List *head, **tail; } Acc;

static void add(Acc *a, const char *w)
{
	*a->tail = mklist(nstrdup(w), NULL, NULL);
	a->tail = &(*a->tail)->n;
}

/* The names under path that the pattern p (its mask m) matches, onto acc. */
static void glob_in(Acc *acc, Str *path, const char *p, const char *m);

/* path back to its first len bytes. */
static void cut(Str *path, size_t len)
{
	path->len = len;
	if (path->buf != NULL)
		path->buf[len] = '\0';
}

/* The entries of the directory path that the component comp (its mask
 * cm) matches: added to acc, or, with a rest of the pattern after the
 * slashes, looked in for it. */
static void glob_dir(Acc *acc, Str *path, const char *comp, const char *cm,
		     const char *slashes, const char *rest, const char *rm)
{
	DIR *d = opendir(path->len ? path->buf : ".");
	if (d == NULL)
		return;
	size_t base = path->len;
	bool dotok = comp[0] == '.';
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && !dotok)
			continue;
		if (!match(comp, cm, e->d_name))
			continue;
		path->len = base;
		str_adds(path, e->d_name);
		if (rest == NULL)
			add(acc, path->buf);
		else {
			str_add(path, slashes, rest - slashes);
			glob_in(acc, path, rest, rm);
		}
	}
	closedir(d);
	cut(path, base);
}

static void glob_in(Acc *acc, Str *path, const char *p, const char *m)
{
	size_t base = path->len;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t) (slash - p) : strlen(p);
		char *comp = nstrndup(p, n), *cm = nstrndup(m, n);
		const char *rest = slash, *rm = m + n;
		while (rest != NULL && *rest == '/')
			rest++, rm++;
		if (rest != NULL && *rest == '\0')
			rest = NULL;
		if (has_meta(comp, cm)) {
			if (slash != NULL && rest == NULL) {
				/* a pattern ending in a slash matches only directories */
				Acc sub = { NULL, &sub.head };
				glob_dir(&sub, path, comp, cm, NULL, NULL, NULL);
				for (List *l = sub.head; l != NULL; l = l->n) {
					struct stat st;
					if (stat(l->w, &st) == 0 && S_ISDIR(st.st_mode))
						add(acc, nfmt("%s/", l->w));
				}
			} else
				glob_dir(acc, path, comp, cm, slash, rest, rm);
			break;
		}
		str_add(path, p, n);
		if (slash != NULL)
			str_add(path, slash, rest ? (size_t) (rest - slash) : strlen(slash));
		if (rest == NULL) {
			struct stat st;
			if (lstat(path->buf, &st) == 0)
				add(acc, path->buf);
			break;
		}
		p = rest;
		m = rm;
	}
	cut(path, base);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static List *sorted(List *l)
{
	int n = list_len(l);
	char **v = nalloc(n * sizeof *v);
	int i = 0;
	for (List *p = l; p != NULL; p = p->n)
		v[i++] = p->w;
	qsort(v, n, sizeof *v, cmp);
	i = 0;
	for (List *p = l; p != NULL; p = p->n)
		p->w = v[i++];
	return l;
}

/* Each word with unquoted metacharacters becomes the sorted names it
 * matches, or stays as written when it matches none. */
List *glob_list(List *l)
{
	List *head = NULL, **tail = &head;
	for (List *next; l != NULL; l = next) {
		next = l->n;
		List *r = NULL;
		if (has_meta(l->w, l->m)) {
			Acc acc = { NULL, &acc.head };
			Str path = { 0 };
			const char *p = l->w, *m = l->m;
			if (*p == '/') {
				while (*p == '/') {
					str_addc(&path, '/');
					p++, m++;
				}
			}
			glob_in(&acc, &path, p, m);
			free(path.buf);
			r = sorted(acc.head);
		}
		if (r == NULL) {
			l->n = NULL;
			r = l;
		}
		*tail = r;
		while (*tail != NULL)
			tail = &(*tail)->n;
	}
	return head;
}
