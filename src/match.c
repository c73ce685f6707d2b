/* SPDX-License-Identifier: Zlib */
/* match.c: rc patterns: * ? [a-z] [~a], active only where unquoted. */
#include "rc.h"

#include <string.h>

#define ACTIVE(m, i) ((m) != NULL && (m)[i])

/* Match the class starting after '[' at p[*i] against c; advance *i past ']'.
 * Returns -1 if the class is not closed (then '[' is literal).  As in rc
 * 1.7.4, once the '[' is unquoted the class's bytes count whatever their
 * quoting: [^'~'a] and [~^a] are negated, [a'-'c] is a range, [a']'
 * closes. */
static int class_match(const char *p, size_t *i, unsigned char c)
{
	size_t j = *i;
	bool negate = false, ok = false;
	if (p[j] == '~') {
		negate = true;
		j++;
	}
	bool first = true;
	for (;; first = false) {
		if (p[j] == '\0')
			return -1;
		if (p[j] == ']' && !first)
			break;
		unsigned char lo = p[j], hi = lo;
		if (p[j + 1] == '-' && p[j + 2] != '\0' && p[j + 2] != ']') {
			hi = p[j + 2];
			j += 2;
		}
		if (lo <= c && c <= hi)
			ok = true;
		j++;
	}
	*i = j + 1;
	return ok != negate;
}

bool match(const char *p, const char *m, const char *s)
{
	size_t pi = 0, si = 0;
	size_t star_p = (size_t) -1, star_s = 0;
	if (m == NULL)
		return strcmp(p, s) == 0;
	while (s[si] != '\0' || p[pi] != '\0') {
		if (p[pi] != '\0') {
			char c = p[pi];
			if (c == '*' && ACTIVE(m, pi)) {
				star_p = ++pi;
				star_s = si;
				continue;
			}
			if (s[si] != '\0') {
				if (c == '?' && ACTIVE(m, pi)) {
					pi++, si++;
					continue;
				}
				if (c == '[' && ACTIVE(m, pi)) {
					size_t j = pi + 1;
					int r = class_match(p, &j, s[si]);
					if (r == 1) {
						pi = j, si++;
						continue;
					}
					if (r == 0)
						goto backtrack;
				}
				if (c == s[si]) {
					pi++, si++;
					continue;
				}
			}
		}
	backtrack:
		if (star_p == (size_t) -1 || s[star_s] == '\0')
			return false;
		pi = star_p;
		si = ++star_s;
	}
	return true;
}

static bool all_stars(const List *p)
{
	if (p->m == NULL || *p->w == '\0')
		return false;
	for (size_t i = 0; p->w[i] != '\0'; i++)
		if (p->w[i] != '*' || !p->m[i])
			return false;
	return true;
}

/* Does any subject word match any pattern?  An empty subject matches
 * only an empty pattern list or a pattern of stars, as in the reference. */
bool list_match(const List *subject, const List *patterns)
{
	if (patterns == NULL)
		return subject == NULL;
	if (subject == NULL) {
		for (; patterns != NULL; patterns = patterns->n)
			if (all_stars(patterns))
				return true;
		return false;
	}
	for (; subject != NULL; subject = subject->n)
		for (const List *p = patterns; p != NULL; p = p->n)
			if (match(p->w, p->m, subject->w))
				return true;
	return false;
}

/* Does the word hold an unquoted metacharacter? */
bool has_meta(const char *w, const char *m)
{
	if (m == NULL)
		return false;
	for (size_t i = 0; w[i] != '\0'; i++)
		if (m[i] && (w[i] == '*' || w[i] == '?' || w[i] == '['))
			return true;
	return false;
}
