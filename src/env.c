/* env.c: the environment, both ways.  Lists are joined with \001 (\001 and
 * \002 inside a word escaped with \002); functions travel as fn_NAME={body};
 * names with other than [A-Za-z0-9_] are written __XX in hex. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

bool is_signal_fn(const char *name);

/* The vector handed to children: pointers to each symbol's cached entry,
 * rebuilt (without copying strings) only after an exported change. */
static char **envv;
static int nenv, maxenv;
static bool stale = true;
static char **bozo;		/* entries we could not read: passed on as they came */
static int nbozo;

void env_changed(Sym *s, bool fn)
{
	char **cached = fn ? &s->fnenv : &s->env;
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
	Str d = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_' && i + 3 < n && s[i + 1] == '_' &&
		    hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
			str_addc(&d, hexval(s[i + 2]) * 16 + hexval(s[i + 3]));
			i += 3;
		} else if (!is_wordchar((unsigned char) s[i])) {
			free(d.buf);
			return NULL;
		} else
			str_addc(&d, s[i]);
	}
	char *r = nstrdup(d.buf ? d.buf : "");
	free(d.buf);
	return r;
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

static List *decode_value(const char *v)
{
	List *head = NULL, **tail = &head;
	Str w = { 0 };
	for (;; v++) {
		if (*v == '\002' && v[1] != '\0') {
			str_addc(&w, *++v);
			continue;
		}
		if (*v == '\001' || *v == '\0') {
			*tail = mklist(nstrndup(w.buf ? w.buf : "", w.len), NULL, NULL);
			tail = &(*tail)->n;
			w.len = 0;
			if (*v == '\0')
				break;
			continue;
		}
		str_addc(&w, *v);
	}
	free(w.buf);
	return head;
}

char *env_encode_name(const char *prefix, const char *name)
{
	Str s = { 0 };
	str_adds(&s, prefix);
	encode_name(&s, name);
	char *r = nstrdup(s.buf);
	free(s.buf);
	return r;
}

static void add(char *e)
{
	if (nenv + 1 >= maxenv) {
		maxenv = maxenv ? maxenv * 2 : 64;
		envv = eresize(envv, maxenv * sizeof *envv);
	}
	envv[nenv++] = e;
}

static char *entry(const char *prefix, const char *name, List *val, Node *fn, const char *def)
{
	Str s = { 0 };
	str_adds(&s, prefix);
	encode_name(&s, name);
	str_addc(&s, '=');
	if (fn != NULL)
		tree_print(&s, fn);
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
			s->env = entry("", s->name, s->val, NULL, NULL);
		add(s->env);
	}
	if ((s->fn != NULL || s->fndef != NULL) && !is_signal_fn(s->name)) {
		if (s->fnenv == NULL)
			s->fnenv = entry("fn_", s->name, NULL, s->fn, s->fndef);
		add(s->fnenv);
	}
}

char **env_vector(void)
{
	if (!stale)
		return envv;
	nenv = 0;
	sym_walk(add_sym, NULL);
	for (int i = 0; i < nbozo; i++)
		add(bozo[i]);
	add(NULL);
	stale = false;
	return envv;
}

static bool importable(const char *name)
{
	static const char *const skip[] = { "status", "apids", "*", "0", "pid", "apid", "bqstatus" };
	for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
		if (strcmp(name, skip[i]) == 0)
			return false;
	return *name != '\0' && strspn(name, "0123456789") != strlen(name);
}

void env_import(char **envp, bool import_fns)
{
	const char *path = NULL;
	for (char **e = envp; *e != NULL; e++) {
		const char *eq = strchr(*e, '=');
		char *name = eq ? decode_name(*e, eq - *e) : NULL;
		if (name == NULL) {
			bozo = eresize(bozo, (nbozo + 1) * sizeof *bozo);
			bozo[nbozo++] = estrdup(*e);
			continue;
		}
		if (strncmp(name, "fn_", 3) == 0 && name[3] != '\0') {
			if (import_fns)
				fn_import(name + 3, eq + 1);
			continue;
		}
		if (strcmp(name, "PATH") == 0)
			path = eq + 1;
		if (importable(name))
			var_set(name, decode_value(eq + 1));
	}
	if (path != NULL)
		var_set("PATH", mklist((char *) path, NULL, NULL));
}
