/* le_complete.c: completion in rc's terms: commands, $variables and file names, rc-quoted. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "le.h"
#include "le_impl.h"
#include "quote.h"

#define CMDSEP "`@|&(){;"	/* a word after one of these is a command */

struct vec {
	char **v;
	size_t n, cap;
};

/* The word being completed, as the shell will read it. */
struct word {
	int start;	/* where it begins in the line */
	int quoted;	/* it has a quote in it */
	int command;	/* it is in command position */
	int var;	/* it begins with an unquoted `$' */
	char *text;	/* its value, quotes removed, `$' excluded */
};

static void
push(struct vec *vec, char *s)
{
	char **v;

	if (s == NULL)
		return;
	if (vec->n + 1 >= vec->cap) {
		v = realloc(vec->v, (vec->cap = 2 * vec->cap + 16) * sizeof *v);
		if (v == NULL) {
			free(s);
			return;
		}
		vec->v = v;
	}
	vec->v[vec->n++] = s;
	vec->v[vec->n] = NULL;
}

static char *
concat(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	char *s = malloc(alen + blen + 1);

	if (s != NULL) {
		memcpy(s, a, alen);
		memcpy(s + alen, b, blen + 1);
	}
	return s;
}

/* The printer's rule (src/quote.c), so completion and whatis agree. */
char *
le_quote(const char *s, int force)
{
	char *q = malloc(QUOTE_ROOM(strlen(s)));

	if (q != NULL)
		quote_into(q, s, force);
	return q;
}

/* Read line[0..end) as rc's lexer would, far enough to find the last word.
 * Returns 0 if there is nothing to complete (inside a comment). */
static int
scan(const char *line, int end, struct word *w)
{
	int i, n = 0, inquote = 0, inword = 0;
	char prev = 0, c;

	memset(w, 0, sizeof *w);
	if ((w->text = malloc((size_t)end + 1)) == NULL)
		return 0;
	for (i = 0; i < end; i++) {
		c = line[i];
		if (inquote) {
			if (c != '\'')
				w->text[n++] = c;
			else if (i + 1 < end && line[i + 1] == '\'')
				w->text[n++] = line[++i];
			else
				inquote = 0;
		} else if (c == '\'') {
			inquote = w->quoted = inword = 1;
		} else if (c == '#' && !inword && !w->var) {
			return 0;
		} else if (c == '$' || strchr(LE_WORD_BREAKS, c) != NULL) {
			if (inword)
				prev = 'a';
			if (c != '$' && !isspace((unsigned char)c))
				prev = c;
			n = inword = w->quoted = 0;
			w->var = c == '$';
			w->start = w->var ? i : i + 1;
		} else {
			w->text[n++] = c;
			inword = 1;
		}
	}
	w->text[n] = '\0';
	w->command = prev == 0 || strchr(CMDSEP, prev) != NULL;
	return 1;
}

static int
isname(const char *s)
{
	for (; *s != '\0'; s++)
		if (!is_varchar((unsigned char)*s))
			return 0;
	return 1;
}

/* Collects the lister's names that begin with prefix. */
struct collect {
	struct vec *out;
	const char *prefix;
	const char *sigil;	/* put before each name: "" or "$", "$#", "$\"" */
	int names_only;		/* drop names that are not plain variable names */
};

static void
collect_name(const char *name, void *ctx)
{
	struct collect *c = ctx;

	if (strncmp(name, c->prefix, strlen(c->prefix)) != 0)
		return;
	if (c->names_only && !isname(name))
		return;
	push(c->out, concat(c->sigil, strlen(c->sigil), name));
}

static void
list_files(struct vec *out, const char *text)
{
	const char *slash = strrchr(text, '/'), *base;
	size_t dirlen = slash != NULL ? (size_t)(slash - text) + 1 : 0;
	char *dir = concat(text, dirlen, ""), *path;
	struct dirent *e;
	struct stat st;
	DIR *d;

	base = text + dirlen;
	if (dir == NULL || (d = opendir(dirlen > 0 ? dir : ".")) == NULL) {
		free(dir);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_name[0] == '.' && base[0] != '.')
			continue;
		if (strncmp(e->d_name, base, strlen(base)) != 0)
			continue;
		if ((path = concat(dir, dirlen, e->d_name)) == NULL)
			continue;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			char *p = concat(path, strlen(path), "/");
			free(path);
			path = p;
		}
		push(out, path);
	}
	closedir(d);
	free(dir);
}

/* Candidates as the shell would see them, before quoting. */
static void
candidates(struct vec *out, struct word *w, le_lister *lister)
{
	struct collect c;
	char sigil[3] = "$";

	c.out = out;
	c.prefix = w->text;
	c.sigil = "";
	c.names_only = 0;
	if (w->var) {
		if (lister == NULL || w->quoted)
			return;
		if (w->text[0] == '#' || w->text[0] == '"') {
			sigil[1] = w->text[0];
			c.prefix++;
		}
		c.sigil = sigil;
		c.names_only = 1;
		lister(LE_VARIABLES, collect_name, &c);
	} else if (w->command && lister != NULL && strchr(w->text, '/') == NULL) {
		lister(LE_COMMANDS, collect_name, &c);
	} else {
		list_files(out, w->text);
	}
}

static int
compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Turn each candidate into the text that replaces line[start..end). */
static void
replacements(struct vec *out, struct vec *in, struct word *w,
	const char *line, int start)
{
	size_t i, skip = start > w->start ? (size_t)(start - w->start) : 0;
	const char *typed = line + w->start;
	char *q;

	for (i = 0; i < in->n; i++) {
		q = w->var ? strdup(in->v[i]) : le_quote(in->v[i], w->quoted);
		if (q == NULL)
			continue;
		if (start < w->start)	/* the editor's word is longer: keep its head */
			push(out, concat(line + start, (size_t)(w->start - start), q));
		else if (strncmp(q, typed, skip) == 0)
			push(out, strdup(q + skip));
		free(q);
	}
}

char **
le_complete(const char *line, int start, int end, le_lister *lister,
	int *append)
{
	struct vec cand = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct word w;
	size_t i, j, len;

	*append = ' ';
	if (scan(line, end, &w))
		candidates(&cand, &w, lister);
	free(w.text);
	if (cand.n > 0)
		replacements(&out, &cand, &w, line, start);
	for (i = 0; i < cand.n; i++)
		free(cand.v[i]);
	free(cand.v);
	if (out.n == 0) {
		free(out.v);
		return NULL;
	}
	qsort(out.v, out.n, sizeof *out.v, compare);
	for (i = j = 1; i < out.n; i++)
		if (strcmp(out.v[i], out.v[j - 1]) != 0)
			out.v[j++] = out.v[i];
		else
			free(out.v[i]);
	out.v[out.n = j] = NULL;
	len = strlen(out.v[0]);
	if (out.n == 1 && len > 0 && (out.v[0][len - 1] == '/'
	    || (len > 1 && strcmp(out.v[0] + len - 2, "/'") == 0)))
		*append = '\0';
	return out.v;
}
