/* SPDX-License-Identifier: Zlib */
/* heredoc.c: here documents.  The body is read when the line holding
 * <<word ends, and becomes a here string: literal text, or text with
 * $name (flattened; a ^ right after the name is dropped) and $$ for $.
 * The body is split into the words rc's here documents have always
 * been, so that it prints (whatis, -x) as scripts expect. */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The text in a pipe, if the pipe takes all of it at once.  An empty pipe
 * holds PIPE_BUF bytes (a write that size is atomic); more is written
 * without blocking and given up if it does not fit: a pipe's room varies
 * (an unprivileged user holding many pipes gets one or two pages). */
static int in_pipe(const char *text, size_t len)
{
	enum { PIPE_MOST = 65536 };	/* Linux's default pipe size: more never fits */
	int p[2];
	if (len > PIPE_MOST || pipe_cloexec(p) < 0)
		return -1;
	if (len > PIPE_BUF)
		fcntl(p[1], F_SETFL, O_NONBLOCK);
	ssize_t n = len > 0 ? write(p[1], text, len) : 0;
	close(p[1]);
	if (n >= 0 && (size_t) n == len)
		return p[0];
	close(p[0]);
	return -1;
}

/* The text in an unlinked temporary file in $TMPDIR. */
static int in_file(const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char *name = nfmt("%s/rc-here.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp_cloexec(name);
	if (fd < 0)
		return -1;
	unlink(name);
	if (writeall(fd, text, len) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The text through a pipe fed by a process of its own (no room in
 * $TMPDIR): it ends when the text is read or its reader goes. */
static int by_writer(const char *text, size_t len)
{
	int p[2];
	if (pipe_cloexec(p) < 0)
		return -1;
	int forked = rc_fork_orphan();
	if (forked == 0) {
		close(p[0]);
		_exit(writeall(p[1], text, len) == 0 ? 0 : 1);
	}
	close(p[1]);
	if (forked < 0) {
		int e = errno;
		close(p[0]);
		errno = e;
		return -1;
	}
	return p[0];
}

/* A descriptor to read a here document or here string from.  Writing it
 * never waits for the reader, which has not started yet. */
int heredoc_fd(const char *text)
{
	size_t len = strlen(text);
	int fd = in_pipe(text, len);
	if (fd < 0)
		fd = in_file(text, len);
	if (fd < 0)
		fd = by_writer(text, len);
	return fd;
}
