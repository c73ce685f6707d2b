/* SPDX-License-Identifier: Zlib */
/* fncall.c: calling a function: an imported definition is parsed at its
 * first use, and a call runs the body with $* and $0 set.  The table of
 * functions and the lifetime of their bodies are fn.c's. */
#include "rc.h"

/* An imported definition is parsed only now, so that a hostile or broken
 * one never runs on import; it must be exactly one {braced body}. */
static Node *parse_import(Sym *s, const char *name)
{
	Node *volatile t = NULL;
	/* its errors name their line also in an interactive shell: the
	 * text came from elsewhere, where it has lines */
	bool was = script_format_set(true);
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		t = parse_string(s->fndef);
		catch_pop(&c);
		if (t == NULL || t->type != nBrace) {
			print_error("rc: bad function definition for `%s' in the environment", name);
			t = NULL;
		}
	}
	script_format_set(was);
	/* a bad definition becomes a function that fails; its text is still
	 * passed on to children as it came, like a good one's */
	if (t == NULL)
		t = mk(nBrace, mk(nSimple, mk(nList, mkword("return", false),
			mk(nList, mkword("1", false), NULL, NULL), NULL), NULL, NULL), NULL, NULL);
	s->fn = tree_copy(t);
	/* a misplaced if not in it is an error of the command that called
	 * it, which ends there with $status 1 (it was found only now, at the
	 * call); a syntax error is not */
	if (parse_ifnot_taken())
		rc_raise(eError);
	return s->fn;
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

/* Run a function body with $* and $0 set; return ends it here. */
void fn_call(const char *name, Node *body, List *args)
{
	int saved_loop = nesting.loops;
	var_push_local("*", args);
	var_push_local("0", mklist((char *) name, NULL, NULL));
	int depth = fn_running_depth();
	fn_running_push(body);
	nesting.funcs++;
	nesting.loops = 0;
	walk_body(body);
	if (skipping == SKIP_RETURN)
		skipping = SKIP_NONE;
	nesting.funcs--;
	fn_unwind(depth);
	nesting.loops = saved_loop;
	var_pop_local();
	var_pop_local();
}
