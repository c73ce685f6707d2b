/* SPDX-License-Identifier: Zlib */
/* heredoc.c: here documents.  The body is read when the line holding
 * <<word ends, and becomes a here string: literal text, or text with
 * $name (flattened; a ^ right after the name is dropped) and $$ for $.
 * The body is split into the words rc's here documents have always
 * been, so that it prints (whatis, -x) as scripts expect.
 * The descriptor a command reads it from is made by redir.c. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

typedef struct { Node *redir; const char *eof; bool quoted; } Pending;
static Pending *pending;
static int npending;
static size_t maxpending;

void heredoc_pending(Node *redir, const char *eof, bool quoted)
{
	pending = egrow(pending, &maxpending, npending + 1, sizeof *pending);
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

static Node *append(Node *acc, Node *n)
{
	return acc == NULL ? n : mk(nConcat, acc, n, NULL);
}

static Node *text(Node *acc, const char *s, size_t n)
{
	return n > 0 ? append(acc, mkword(nstrndup(s, n), true)) : acc;
}

/* Split an unquoted body into text and variables. */
static Node *substitute(const char *body)
{
	Node *acc = NULL;
	const char *p = body;
	for (const char *d; (d = strchr(p, '$')) != NULL;) {
		acc = text(acc, p, d - p);
		if (d[1] == '$') {
			acc = append(acc, mkword("$", true));
			p = d + 2;
			continue;
		}
		/* As in a command, blanks after the $ are skipped (doc/rc.1
		 * DIFFERENCES).  Else the byte after the $ is part of the name
		 * whatever it is: $#x is the variable '#x', $'a' is $'a
		 * (empty) then ', a $ ending a line joins the next. */
		const char *name = d + 1;
		while (*name == ' ' || *name == '\t')
			name++;
		const char *q = name;
		if (name == d + 1 && *q != '\0')
			q++;
		while (is_varchar((unsigned char) *q))
			q++;
		if (q > name)
			acc = append(acc, mk(nFlat, mkword(nstrndup(name, q - name), false), NULL, NULL));
		if (*q == '^')
			q++;
		p = q;
	}
	acc = text(acc, p, strlen(p));
	return acc != NULL ? acc : mkword("", true);
}

/* The body, held by the arena from its first byte.  at_eof: the line
 * that announced the body ended the input, which is then reported
 * as a syntax error on that line, else on the line after the input's
 * end. */
static char *read_body(const char *eof, bool at_eof)
{
	Str *body = str_held();
	size_t eoflen = strlen(eof);
	for (;;) {
		size_t start = body->len;
		int c = input_line(body);
		if (body->len - start == eoflen && (eoflen == 0 || memcmp(body->buf + start, eof, eoflen) == 0)) {
			body->len = start;
			break;
		}
		if (c == EOF) {
			npending = 0;
			if (lex_quiet())
				;
			else if (!as_script())
				print_error("rc: heredoc incomplete");
			else
				print_error("rc: line %d: heredoc incomplete near %s", lineno + !at_eof,
					at_eof ? lex_near() : "eof");
			rc_raise(eError);	/* $status stays, as after a syntax error */
		}
		str_addc(body, '\n');
	}
	if (body->buf == NULL)
		return nstrdup("");
	body->buf[body->len] = '\0';
	return body->buf;
}

/* At the end of a line: read every body announced on it, in order.  A
 * body with nothing to substitute is used as it is, like the command's
 * other words: a here document of 100 MB is not copied. */
void heredoc_read_all(bool at_eof)
{
	for (int i = 0; i < npending; i++) {
		Pending *p = &pending[i];
		char *body = read_body(p->eof, at_eof);
		if (!p->quoted && *body == '\0')	/* no words: prints <<<() */
			p->redir->k[0] = mk(nList, NULL, NULL, NULL);
		else if (p->quoted || strchr(body, '$') == NULL)
			p->redir->k[0] = mkword(body, true);
		else
			p->redir->k[0] = substitute(body);
	}
	npending = 0;
}
