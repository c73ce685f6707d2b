/* SPDX-License-Identifier: Zlib */
/* list.c: the list primitives every stage shares: building, measuring,
 * joining and splitting lists of words.  The lists built here live in the
 * arena, one node at a time; a variable's value (value.c) is permanent,
 * shared and kept as an array of the same nodes, so it has a file of its
 * own below var.c. */
#include "rc.h"

#include <string.h>

List *mklist(char *w, char *m, List *n)
{
	List *l = nnew(List);
	l->w = w;
	l->m = m;
	l->n = n;
	return l;
}

int list_len(const List *l)
{
	int n = 0;
	for (; l != NULL; l = l->n)
		n++;
	return n;
}

/* The words joined by sep, in the arena. */
char *list_flat(const List *l, const char *sep)
{
	size_t len = 0, seplen = strlen(sep);
	for (const List *p = l; p != NULL; p = p->n)
		len += strlen(p->w) + (p->n ? seplen : 0);
	char *r = nalloc(len + 1), *q = r;
	for (; l != NULL; l = l->n) {
		size_t n = strlen(l->w);
		memcpy(q, l->w, n);
		q += n;
		if (l->n != NULL) {
			memcpy(q, sep, seplen);
			q += seplen;
		}
	}
	*q = '\0';
	return r;
}
