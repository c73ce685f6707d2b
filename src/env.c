/* SPDX-License-Identifier: Zlib */
/* env.c: the environment, both ways.  Lists are joined with \001 (\001 and
 * \002 inside a word escaped with \002); functions travel as fn_NAME={body};
 * names with other than [A-Za-z0-9_] are written __XX in hex. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

/* The vector handed to children: pointers to each symbol's cached entry,
 * rebuilt (without copying strings) only after an exported change. */
static char **envv;
static int nenv;
static size_t maxenv;
static bool stale = true;
static char **unreadable;	/* entries we could not read: passed on as they came */
static int nunreadable;
static size_t maxunreadable;

void env_changed(Sym *s, bool fn)
{
	char **cached = fn ? &s->fnenv : &s->env;
	if (!fn && (s->flags & S_ENVENTRY))
		s->flags &= ~S_ENVENTRY;
	else
		free(*cached);
	*cached = NULL;
	stale = true;
}

static bool is_wordchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void encode_name(Str *s, const char *name)
{
	for (const unsigned char *p = (const unsigned char *) name; *p; p++) {
		if (!is_wordchar(*p) || (*p == '_' && p[1] == '_')) {
			str_adds(s, "__");
			str_addc(s, "0123456789abcdef"[*p >> 4]);
			str_addc(s, "0123456789abcdef"[*p & 15]);
		} else
			str_addc(s, *p);
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reverse encode_name; NULL if the name is not one we could have written. */
static char *decode_name(const char *s, size_t n)
{
	char *d = nalloc(n + 1), *q = d;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_' && i + 3 < n && s[i + 1] == '_' &&
		    hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
			*q++ = hexval(s[i + 2]) * 16 + hexval(s[i + 3]);
			i += 3;
		} else if (!is_wordchar((unsigned char) s[i]))
			return NULL;
		else
			*q++ = s[i];
	}
	*q = '\0';
	return d;
}

static void encode_value(Str *s, List *val)
{
	for (; val != NULL; val = val->n) {
		for (const char *p = val->w; *p; p++) {
			if (*p == '\001' || *p == '\002')
				str_addc(s, '\002');
			str_addc(s, *p);
		}
		if (val->n != NULL)
			str_addc(s, '\001');
	}
}

/* The value of an environment entry as a list; most have no \001 or \002
 * and are used as they are (the environment outlives the shell's use). */
List *env_decode_value(const char *v)
{
	List *head = palloc(sizeof *head), **tail = &head;
	if (strpbrk(v, "\001\002") == NULL) {
		*head = (List) { (char *) v, NULL, NULL };
		return head;
	}
	char *w = palloc(strlen(v) + 1), *q = w;
	for (;; v++) {
		if (*v == '\002' && v[1] != '\0') {
			*q++ = *++v;
			continue;
		}
		if (*v == '\001' || *v == '\0') {
			*q++ = '\0';
			if (*tail == NULL)
				*tail = palloc(sizeof **tail);
			**tail = (List) { w, NULL, NULL };
			tail = &(*tail)->n;
			*tail = NULL;
			w = q;
			if (*v == '\0')
				break;
			continue;
		}
		*q++ = *v;
	}
	return head;
}

static void add(char *e)
{
	envv = egrow(envv, &maxenv, nenv + 1, sizeof *envv);
	envv[nenv++] = e;
}

static char *entry(const char *prefix, const char *name, List *val, Node *fn, const char *def)
{
	Str s = { 0 };
	str_adds(&s, prefix);
	encode_name(&s, name);
	str_addc(&s, '=');
	if (fn != NULL)
		tree_print_body(&s, fn);
	else if (def != NULL)
		str_adds(&s, def);
	else
		encode_value(&s, val);
	return s.buf;
}

static void add_sym(Sym *s, void *ctx)
{
	(void) ctx;
	if (var_exported(s)) {
		if (s->env == NULL)
			s->env = entry("", s->name, var_get(s->name), NULL, NULL);
		add(s->env);
	}
	if ((s->fn != NULL || s->fndef != NULL) && !is_signal_fn(s->name)) {
		if (s->fnenv == NULL)
			s->fnenv = entry("fn_", s->name, NULL, s->fndef ? NULL : s->fn, s->fndef);
		add(s->fnenv);
	}
}

char **env_vector(void)
{
	if (!stale)
		return envv;
	nenv = 0;
	sym_walk(add_sym, NULL);
	for (int i = 0; i < nunreadable; i++)
		add(unreadable[i]);
	add(NULL);
	stale = false;
	return envv;
}

/* Which var_aliases[] entry name is the upper name of, or -1. */
static int upper_alias(const char *name)
{
	const VarAlias *a = var_alias(name);
	return a != NULL && strcmp(name, a->upper) == 0 ? (int) (a - var_aliases) : -1;
}

void env_import(char **envp, bool import_fns)
{
	const char *upper[NVAR_ALIASES] = { NULL };
	for (char **e = envp; *e != NULL; e++) {
		/* the common case: a plain name, kept raw until it is used */
		size_t n = 0;
		while (is_wordchar((unsigned char) (*e)[n]) && !((*e)[n] == '_' && (*e)[n + 1] == '_'))
			n++;
		if ((*e)[n] == '=' && n > 0 && strncmp(*e, "fn_", 3) != 0 &&
		    (*e)[strspn(*e, "0123456789")] != '=' && var_importable_raw(*e, n)) {
			var_import_raw(*e, n);
			continue;
		}
		const char *eq = strchr(*e, '=');
		char *name = eq ? decode_name(*e, eq - *e) : NULL;
		if (name == NULL || *name == '\0') {
			unreadable = egrow(unreadable, &maxunreadable, nunreadable + 1, sizeof *unreadable);
			unreadable[nunreadable++] = estrdup(*e);
			continue;
		}
		if (strncmp(name, "fn_", 3) == 0 && name[3] != '\0') {
			if (import_fns && !is_signal_fn(name + 3))
				fn_import(name + 3, eq + 1);
			continue;
		}
		int up = upper_alias(name);
		if (up >= 0) {
			upper[up] = eq + 1;
			continue;
		}
		if (var_importable(name))
			var_import(name, env_decode_value(eq + 1));
	}
	/* PATH, HOME and CDPATH win over path, home and cdpath */
	for (int i = 0; i < NVAR_ALIASES; i++)
		if (upper[i] != NULL)
			var_import(var_aliases[i].upper, env_decode_value(upper[i]));
}
