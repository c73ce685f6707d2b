/* read.c: one line of input for the read builtin, taking nothing past its
 * newline, so that the next command reading the same descriptor starts
 * at the next line.
 *
 * A file is read a block at a time and the offset put back after the
 * line.  A pipe cannot be put back, but on Linux it can be looked at
 * without taking anything from it: tee(2) copies what it holds into a
 * private pipe; the line's end is found there, and then exactly that many
 * bytes are read from the pipe itself.  Anything else (a terminal, a
 * socket, a system without tee) is read a byte at a time. */
#include "rc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The private pipe, made on first use; a child does not share it. */
static int peek[2] = { -1, -1 };

void read_child_reset(void)
{
	if (peek[0] >= 0) {
		close(peek[0]);
		close(peek[1]);
		peek[0] = peek[1] = -1;
	}
}

/* read(2), retried after a signal the shell handles later. */
static ssize_t read_some(int fd, char *buf, size_t n)
{
	for (;;) {
		ssize_t k = read(fd, buf, n);
		if (k >= 0 || errno != EINTR)
			return k;
		sig_check();
	}
}

/* The file's way: blocks, then the offset set just after the line. */
static int line_from_file(int fd, off_t start, Str *line)
{
	char buf[4096];
	int got = 0;
	for (;;) {
		ssize_t k = read_some(fd, buf, sizeof buf);
		if (k <= 0)
			return got;
		got = 1;
		char *e = memchr(buf, '\n', k);
		str_add(line, buf, e ? (size_t) (e - buf) : (size_t) k);
		if (e != NULL) {
			lseek(fd, start + line->len + 1, SEEK_SET);
			return got;
		}
	}
}

static int line_by_bytes(int fd, Str *line)
{
	char c;
	int got = 0;
	while (read_some(fd, &c, 1) == 1) {
		got = 1;
		if (c == '\n')
			break;
		str_addc(line, c);
	}
	return got;
}

#ifdef HAVE_TEE
static bool peek_ready(void)
{
	if (peek[0] < 0) {
		if (pipe(peek) < 0)
			return false;
		peek[0] = fd_move_high(peek[0]);
		peek[1] = fd_move_high(peek[1]);
		fcntl(peek[0], F_SETFD, FD_CLOEXEC);
		fcntl(peek[1], F_SETFD, FD_CLOEXEC);
	}
	/* an in-shell redirection (>[10] file) may have put something else there */
	return !fd_redirected(peek[0]) && !fd_redirected(peek[1]);
}

/* The pipe's way: -1 if fd is not a pipe (nothing taken yet). */
static int line_from_pipe(int fd, Str *line)
{
	static size_t want = 256;	/* a little over the last line's length */
	char buf[65536];
	int got = 0;
	for (;;) {
		ssize_t k;
		while ((k = tee(fd, peek[1], want, 0)) < 0 && errno == EINTR)
			sig_check();
		if (k < 0)
			return got ? got : -1;
		if (k == 0)
			return got;
		k = read_some(peek[0], buf, k);	/* all of it: the private pipe is left empty */
		if (k <= 0)
			return got;
		got = 1;
		char *e = memchr(buf, '\n', k);
		size_t take = e ? (size_t) (e - buf) + 1 : (size_t) k;
		if (e == NULL && want < sizeof buf)
			want *= 2;
		else if (e != NULL && want > 256 && line->len + take < want / 4)
			want /= 2;
		size_t at = line->len;
		str_add(line, buf, take);	/* room; the bytes themselves come from fd */
		for (size_t have = 0; have < take;) {
			ssize_t r = read_some(fd, line->buf + at + have, take - have);
			if (r <= 0)
				break;
			have += r;
		}
		if (e != NULL) {
			line->buf[--line->len] = '\0';
			return got;
		}
	}
}
#endif

/* One line of fd into line, without its newline: 1 if anything was read,
 * 0 at end of input. */
int read_line(int fd, Str *line)
{
	off_t start = lseek(fd, 0, SEEK_CUR);
	if (start >= 0)
		return line_from_file(fd, start, line);
#ifdef HAVE_TEE
	if (peek_ready()) {
		int got = line_from_pipe(fd, line);
		if (got >= 0)
			return got;
	}
#endif
	return line_by_bytes(fd, line);
}
