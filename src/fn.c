/* SPDX-License-Identifier: Zlib */
/* fn.c: functions, imported ones parsed on first call, and calling them. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

int funcdepth, loopdepth;

bool is_signal_fn(const char *name)
{
	return strcmp(name, "sigexit") == 0 || sig_by_name(name) != 0;
}

/* An imported definition is parsed only now, so that a hostile or broken
 * one never runs on import; it must be exactly one {braced body}. */
static Node *parse_import(Sym *s, const char *name)
{
	Node *volatile t = NULL;
	/* its errors name their line also in an interactive shell: the
	 * text came from elsewhere, where it has lines */
	bool was = script_format;
	script_format = true;
	Catch c;
	catch_push(&c);
	parse_ifnot_failed = false;
	if (sigsetjmp(c.buf, 0) == 0) {
		t = parse_string(s->fndef);
		catch_pop(&c);
		if (t == NULL || t->type != nBrace) {
			print_error("rc: bad function definition for `%s' in the environment", name);
			t = NULL;
		}
	}
	script_format = was;
	/* a bad definition becomes a function that fails; its text is still
	 * passed on to children as it came, like a good one's */
	if (t == NULL)
		t = mk(nBrace, mk(nSimple, mk(nList, mkword("return", false),
			mk(nList, mkword("1", false), NULL, NULL), NULL), NULL, NULL), NULL, NULL);
	s->fn = tree_copy(t);
	/* a misplaced if not in it is an error of the command that called
	 * it, which ends there with $status 1 (it was found only now, at the
	 * call); a syntax error is not */
	if (parse_ifnot_failed) {
		parse_ifnot_failed = false;
		rc_raise(eError);
	}
	return s->fn;
}

bool fn_defined(const char *name)
{
	Sym *s = sym_lookup(name, false);
	return s != NULL && (s->fn != NULL || s->fndef != NULL);
}

Node *fn_get(const char *name)
{
	Sym *s = sym_lookup(name, false);
	if (s == NULL)
		return NULL;
	if (s->fn != NULL)
		return s->fn;
	if (s->fndef != NULL)
		return parse_import(s, name);
	return NULL;
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
	return funcdepth;
}

static void set_funcdepth(int depth)
{
	funcdepth = depth;
}

static int get_loopdepth(void)
{
	return loopdepth;
}

static void set_loopdepth(int depth)
{
	loopdepth = depth;
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

/* Run a function body with $* and $0 set; return ends it here. */
void fn_call(const char *name, Node *body, List *args)
{
	int saved_loop = loopdepth;
	var_push_local("*", args);
	var_push_local("0", mklist((char *) name, NULL, NULL));
	int depth = fn_running_depth();
	fn_running_push(body);
	funcdepth++;
	loopdepth = 0;
	walk_body(body);
	if (skipping == SKIP_RETURN)
		skipping = SKIP_NONE;
	funcdepth--;
	fn_unwind(depth);
	loopdepth = saved_loop;
	var_pop_local();
	var_pop_local();
}
