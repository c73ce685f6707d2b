/* heredoc.c: here documents.  The body is read when the line holding
 * <<word ends, and becomes a here string: literal text, or text with
 * $name (flattened; a ^ right after the name is dropped) and $$ for $. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

typedef struct { Node *redir; const char *eof; bool quoted; } Pending;
static Pending *pending;
static int npending;

void heredoc_pending(Node *redir, const char *eof, bool quoted)
{
	pending = eresize(pending, (npending + 1) * sizeof *pending);
	pending[npending++] = (Pending) { redir, eof, quoted };
}

void heredoc_discard(void)
{
	npending = 0;
}

bool heredoc_waiting(void)
{
	return npending > 0;
}

static bool is_varchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '*';
}

static Node *append(Node *acc, Node *n)
{
	return acc == NULL ? n : mk(nConcat, acc, n, NULL);
}

static Node *text(Node *acc, Str *s)
{
	if (s->len == 0)
		return acc;
	acc = append(acc, mkword(nstrndup(s->buf, s->len), true));
	s->len = 0;
	return acc;
}

/* Split an unquoted body into text and variables. */
static Node *substitute(const char *body)
{
	Node *acc = NULL;
	Str s = { 0 };
	for (const char *p = body; *p; p++) {
		if (*p != '$') {
			str_addc(&s, *p);
			continue;
		}
		if (p[1] == '$') {
			acc = text(acc, &s);
			acc = append(acc, mkword("$", true));
			p++;
			continue;
		}
		const char *q = p + 1;
		while (*q == ' ' || *q == '\t')
			q++;
		/* $#x, $^x and $"x are not substituted here: they vanish, as in the reference */
		bool dropped = *q == '#' || *q == '^' || *q == '"';
		if (dropped)
			q++;
		const char *name = q;
		while (is_varchar((unsigned char) *q))
			q++;
		acc = text(acc, &s);
		if (q > name && !dropped)
			acc = append(acc, mk(nFlat, mkword(nstrndup(name, q - name), false), NULL, NULL));
		if (*q == '^')
			q++;
		p = q - 1;
	}
	acc = text(acc, &s);
	free(s.buf);
	return acc != NULL ? acc : mkword("", true);
}

static char *read_body(const char *eof)
{
	Str body = { 0 }, line = { 0 };
	for (;;) {
		line.len = 0;
		int c;
		while ((c = input_getc()) != EOF && c != '\n')
			str_addc(&line, c);
		if (line.len == strlen(eof) && (line.len == 0 || memcmp(line.buf, eof, line.len) == 0))
			break;
		if (c == EOF) {
			free(body.buf);
			free(line.buf);
			npending = 0;
			uerror("rc: line %d: heredoc incomplete near eof", lineno + 1);
			status_set(1 << 8);
			rc_raise(eError);
		}
		str_add(&body, line.buf ? line.buf : "", line.len);
		str_addc(&body, '\n');
	}
	char *r = nstrndup(body.buf ? body.buf : "", body.len);
	free(body.buf);
	free(line.buf);
	return r;
}

/* At the end of a line: read every body announced on it, in order. */
void heredoc_read_all(void)
{
	for (int i = 0; i < npending; i++) {
		Pending *p = &pending[i];
		char *body = read_body(p->eof);
		p->redir->k[0] = p->quoted ? mkword(body, true) : substitute(body);
	}
	npending = 0;
}
