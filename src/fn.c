/* fn.c: functions, imported ones parsed on first call, and calling them. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

Node **sym_fn(Sym *s);
char **sym_fndef(Sym *s);

int funcdepth, loopdepth;

bool is_signal_fn(const char *name)
{
	return strcmp(name, "sigexit") == 0 || sig_by_name(name) != 0;
}

/* An imported definition is parsed only now, so that a hostile or broken
 * one never runs on import; it must be exactly one {braced body}. */
static Node *parse_import(Sym *s, const char *name)
{
	char **def = sym_fndef(s);
	Node *t = parse_string(*def);
	if (t == NULL || t->type != nBrace)
		rc_error("bad function definition for `%s' in the environment", name);
	Node **fn = sym_fn(s);
	*fn = tree_copy(t);
	free(*def);
	*def = NULL;
	return *fn;
}

Node *fn_get(const char *name)
{
	Sym *s = sym_lookup(name, false);
	if (s == NULL)
		return NULL;
	Node **fn = sym_fn(s);
	if (*fn != NULL)
		return *fn;
	if (*sym_fndef(s) != NULL)
		return parse_import(s, name);
	return NULL;
}

/* A function may redefine itself while it runs, so old bodies are freed
 * only between top-level commands. */
static Node **graveyard;
static int ngraves;

void fn_collect(void)
{
	while (ngraves > 0)
		tree_free(graveyard[--ngraves]);
}

static void clear(Sym *s)
{
	Node **fn = sym_fn(s);
	char **def = sym_fndef(s);
	if (*fn != NULL) {
		graveyard = erealloc(graveyard, (ngraves + 1) * sizeof *graveyard);
		graveyard[ngraves++] = *fn;
	}
	free(*def);
	*fn = NULL;
	*def = NULL;
}

void fn_define(const char *name, Node *body)
{
	int sig = sig_by_name(name);
	if (sig == SIGCHLD)
		rc_error("can't trap SIGCHLD");
	Sym *s = sym_lookup(name, true);
	Node *copy = tree_copy(body);
	clear(s);
	*sym_fn(s) = copy;
	if (sig != 0)
		sig_set_handler(sig, copy);
	env_dirty();
}

void fn_import(const char *name, const char *def)
{
	Sym *s = sym_lookup(name, true);
	clear(s);
	*sym_fndef(s) = estrdup(def);
}

void fn_delete(const char *name)
{
	Sym *s = sym_lookup(name, false);
	if (s != NULL && (*sym_fn(s) != NULL || *sym_fndef(s) != NULL)) {
		clear(s);
		env_dirty();
	}
	int sig = sig_by_name(name);
	if (sig != 0 && sig != SIGCHLD)
		sig_set_handler(sig, NULL);
}

/* Run a function body with $* and $0 set; return ends it here. */
void fn_call(const char *name, Node *body, List *args)
{
	int saved_loop = loopdepth;
	var_push_local("*", args);
	var_push_local("0", mklist((char *) name, NULL, NULL));
	funcdepth++;
	loopdepth = 0;
	status_set(0);
	walk(body, true);
	if (skipping == SKIP_RETURN)
		skipping = SKIP_NONE;
	funcdepth--;
	loopdepth = saved_loop;
	var_pop_local();
	var_pop_local();
}
