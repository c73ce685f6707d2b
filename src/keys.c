/* SPDX-License-Identifier: Zlib */
/* keys.c: what the editor's bound keys run (lineedit's LeKeyHook): the rc
 * function a key sequence of $keys names, with the line in $line and the
 * cursor in $cursor, and C-x C-e, the line edited in $VISUAL or $EDITOR
 * and run.  $keys itself is given to the editor when it changes. */
#include "rc.h"
#include "../lineedit/le.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* $keys as last given to the editor: its words, each with its NUL. */
static Str given;

static bool same_as_given(const List *l)
{
	size_t at = 0;
	for (; l != NULL; l = l->n) {
		size_t n = strlen(l->w) + 1;
		if (at + n > given.len || memcmp(given.buf + at, l->w, n) != 0)
			return false;
		at += n;
	}
	return at == given.len;
}

/* Before each prompt: the editor rebinds only when $keys changed, which
 * a comparison with what it was given tells. */
void keys_sync(void)
{
	List *keys = var_get("keys");
	if (!le_active() || same_as_given(keys))
		return;
	given.len = 0;
	int n = 0;
	for (List *l = keys; l != NULL; l = l->n, n++)
		str_add(&given, l->w, strlen(l->w) + 1);
	const char **words = ealloc((n + 1) * sizeof *words);
	size_t at = 0;
	for (int i = 0; i < n; i++, at += strlen(given.buf + at) + 1)
		words[i] = given.buf + at;
	le_bind_keys(words, n);
	free(words);
}

/* The line and cursor the function left in $line (its words joined by
 * spaces) and $cursor (a byte offset; the end of the line if it is none). */
static void take_line(char **line, size_t *cursor)
{
	List *l = var_get("line"), *c = var_get("cursor");
	char *text = estrdup(l != NULL ? list_flat(l, " ") : "");
	free(*line);
	*line = text;
	char *end = NULL;
	unsigned long at = c != NULL && c->w[0] >= '0' && c->w[0] <= '9' ?
		strtoul(c->w, &end, 10) : 0;
	*cursor = end != NULL && *end == '\0' ? at : strlen(text);
}

/* The function a key names, run as fn prompt is: $status is kept, and an
 * error or ^C ends the function, not the shell, and keeps the line. */
static void run_function(const char *name, char **line, size_t *cursor)
{
	StatusCopy saved = status_save();
	var_push_local("bqstatus", var_get("bqstatus"));
	var_push_local("line", mklist(*line, NULL, NULL));
	var_push_local("cursor", mklist(nfmt("%llu", (unsigned long long) *cursor), NULL, NULL));
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		Node *fn = fn_get(name);
		if (fn == NULL)
			rc_error("keys: %s: no such function", name);
		fn_call(name, fn, NULL);
		catch_pop(&c);
		take_line(line, cursor);
	}
	var_pop_local();
	var_pop_local();
	var_pop_local();
	status_restore(saved);
}

/* C-x C-e: the line in the user's editor (edit_text), then what was saved
 * is the line to run; nothing if the file was emptied or the editor
 * failed (an error or ^C in it too).  Returns false, the line kept, if
 * there is no file to edit. */
static bool edit_line(char **line)
{
	Str s = { 0 };
	str_add(&s, *line, strlen(*line));
	StatusCopy saved = status_save();
	EditResult r = EDIT_FAILED;
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		r = edit_text(NULL, &s);
		catch_pop(&c);
	}
	status_restore(saved);
	if (r == EDIT_NO_FILE) {
		free(s.buf);
		return false;
	}
	free(*line);
	if (r == EDIT_DONE && s.len > 0)
		*line = s.buf;
	else {
		free(s.buf);
		*line = estrdup("");
	}
	return true;
}

static bool key_hook(const char *fn, char **line, size_t *cursor)
{
	Mark m = nmark();
	bool run = false;
	if (fn != NULL)
		run_function(fn, line, cursor);
	else
		run = edit_line(line);
	nrelease(m);
	sig_take(SIGINT);	/* a ^C typed there is spent */
	return run;
}

void keys_offer(void)
{
	le_set_key_hook(key_hook);
}
