/* SPDX-License-Identifier: Zlib */
/* fn.c: the functions: defining, importing (kept as text until the first
 * call), deleting, and the lifetime of their bodies; fncall.c calls them. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

Nesting nesting;

bool is_signal_fn(const char *name)
{
	return strcmp(name, "sigexit") == 0 || sig_by_name(name) != 0;
}

bool fn_defined(const char *name)
{
	Sym *s = sym_lookup(name, false);
	return s != NULL && (s->fn != NULL || s->fndef != NULL);
}

/* A function may redefine or delete itself while it runs: its old body is
 * freed at once unless it is running, else when the last call of it ends
 * (normally or by an error). */
static Node **running;	/* the bodies being run, innermost last */
static int nrunning;
static size_t maxrunning;
static Node **graveyard;	/* old bodies still running */
static int ngraves;
static size_t maxgraves;

static bool is_running(Node *body)
{
	for (int i = 0; i < nrunning; i++)
		if (running[i] == body)
			return true;
	return false;
}

static void bury(Node *body)
{
	if (!is_running(body)) {
		tree_free(body);
		return;
	}
	graveyard = egrow(graveyard, &maxgraves, ngraves + 1, sizeof *graveyard);
	graveyard[ngraves++] = body;
}

int fn_running_depth(void)
{
	return nrunning;
}

/* A call of body starts. */
void fn_running_push(Node *body)
{
	running = egrow(running, &maxrunning, nrunning + 1, sizeof *running);
	running[nrunning++] = body;
}

/* After the calls above depth ended: free the old bodies they ran. */
void fn_unwind(int depth)
{
	nrunning = depth;
	for (int i = ngraves; i-- > 0; )
		if (!is_running(graveyard[i])) {
			tree_free(graveyard[i]);
			graveyard[i] = graveyard[--ngraves];
		}
}

static int get_funcdepth(void)
{
	return nesting.funcs;
}

static void set_funcdepth(int depth)
{
	nesting.funcs = depth;
}

static int get_loopdepth(void)
{
	return nesting.loops;
}

static void set_loopdepth(int depth)
{
	nesting.loops = depth;
}

/* An error leaves the functions and loops entered since its catcher. */
const CatchStep fn_catch_steps[3] = {
	{ get_funcdepth, set_funcdepth },
	{ get_loopdepth, set_loopdepth },
	{ fn_running_depth, fn_unwind },
};

static void clear(Sym *s)
{
	if (s->fn != NULL)
		bury(s->fn);
	free(s->fndef);
	s->fn = NULL;
	s->fndef = NULL;
	env_changed(s, true);
}

void fn_define(const char *name, Node *body)
{
	int sig = sig_by_name(name);
	if (sig == SIGCHLD)
		rc_error("can't trap SIGCHLD");
	Sym *s = sym_lookup(name, true);
	Node *copy = tree_copy(body);
	clear(s);
	s->fn = copy;
	if (sig != 0)
		sig_set_handler(sig, copy);
	else if (strcmp(name, "sigexit") == 0)
		frame_keep_sigexit();	/* a child runs its own as it exits */
}

void fn_import(const char *name, const char *def)
{
	Sym *s = sym_lookup(name, true);
	clear(s);
	s->fndef = estrdup(def);
}

/* The definition goes (to be freed later: it may be running), and nothing
 * else changes: for a forked child, where caught signals are reset. */
void fn_forget(const char *name)
{
	Sym *s = sym_lookup(name, false);
	if (s != NULL && (s->fn != NULL || s->fndef != NULL))
		clear(s);
}

void fn_delete(const char *name)
{
	Sym *s = sym_lookup(name, false);
	if (s != NULL && (s->fn != NULL || s->fndef != NULL))
		clear(s);
	int sig = sig_by_name(name);
	if (sig != 0 && sig != SIGCHLD)
		sig_set_handler(sig, NULL);
}
