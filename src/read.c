/* SPDX-License-Identifier: Zlib */
/* read.c: input for the read builtin: one line, taking nothing past its
 * newline, so that the next command reading the same descriptor (cat in
 * {read a; cat}) starts at the next line; or a number of bytes (read -c).
 *
 * Looking ahead.  The bytes at the front of the input are looked at
 * without taking them: a file's with pread(2) at its offset, a pipe's (on
 * Linux) with tee(2) into a private pipe.  The line's end found there says
 * how many bytes to read(2) from the input itself: exactly the line.  What
 * was looked at serves the following reads too, one read(2) a line, as
 * long as nothing else can have read the input since: read_forget() drops
 * it before every fork and vfork (a child shares the input), every
 * in-shell redirection and its undoing, and every read of commands by the
 * shell.
 *
 * Looking ahead only predicts.  The line is always the bytes read from the
 * input, and they are checked: if the first newline among them is not the
 * last byte (another process read the same pipe or moved the file's
 * offset meanwhile), a file's offset is put back after it, and a pipe's
 * bytes past it, which cannot be put back, are kept for the next read of
 * that pipe (through whichever descriptor) and for no other file's.
 *
 * Anything else (a terminal, a socket, a system without tee) is read a
 * byte at a time. */
#include "rc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first look at an input is SMALL bytes (a line read reads is short);
 * it doubles while lines come, up to LARGE, the most a Linux pipe holds by
 * default (tee(2) sees no more). */
enum { SMALL = 256, LARGE = 65536 };

typedef enum { UNKNOWN, FILE_, PIPE_, BYTES } Kind;

/* What is known of the input: buf[pos, len) are its next bytes, unread. */
static struct {
	int fd;			/* the descriptor, -1 when nothing is known */
	Kind kind;
	char *buf;
	size_t pos, len;
	size_t want;		/* how much to look at next: grows while lines come */
} ahead = { -1, UNKNOWN, NULL, 0, 0, SMALL };

/* Bytes taken from a pipe past a line's end (see above): the pipe's next
 * bytes.  The pipe is known by its device and inode, not by the
 * descriptor read, which can be another file's by the next read (read x
 * <file) while the pipe is read again through another (a fifo opened
 * anew for each read).  There is an entry only after another process read
 * a pipe at the same time, until its bytes are read. */
typedef struct {
	dev_t dev;
	ino_t ino;
	Str bytes;
} Kept;
static Kept *kept;
static size_t nkept, maxkept;

/* The private pipe, made on first use; a child does not share it. */
static int peek[2] = { -1, -1 };

void read_forget(void)
{
	ahead.fd = -1;
	ahead.kind = UNKNOWN;
	ahead.pos = ahead.len = 0;
	ahead.want = SMALL;
}

void read_child_reset(void)
{
	read_forget();
	while (nkept > 0)
		free(kept[--nkept].bytes.buf);
	for (int i = 0; i < 2; i++)
		if (peek[i] >= 0) {
			close(peek[i]);
			peek[i] = -1;
		}
}

/* exec >[fd]... has put something else at fd for good: if it was an end
 * of the private pipe, a new pipe is made when next needed. */
void read_fd_taken(int fd)
{
	for (int i = 0; i < 2; i++)
		if (fd == peek[i])
			peek[i] = -1;
}

/* The bytes kept from the pipe fd reads, if any; with add, an entry for
 * them made if there is none (NULL only if fd is not open). */
static Kept *kept_of(int fd, bool add)
{
	struct stat st;
	if ((nkept == 0 && !add) || fstat(fd, &st) < 0)
		return NULL;
	for (size_t i = 0; i < nkept; i++)
		if (kept[i].dev == st.st_dev && kept[i].ino == st.st_ino)
			return &kept[i];
	if (!add)
		return NULL;
	kept = egrow(kept, &maxkept, nkept + 1, sizeof *kept);
	kept[nkept] = (Kept) { st.st_dev, st.st_ino, { NULL, 0, 0 } };
	return &kept[nkept++];
}

/* Bytes read from the pipe fd past a line's end, which cannot be put back. */
static void keep(int fd, const char *p, size_t n)
{
	Kept *k = kept_of(fd, true);
	if (k != NULL)		/* fd was just read: it is open */
		str_add(&k->bytes, p, n);
}

/* The first n of k's bytes are read: an entry left empty goes. */
static void kept_drop(Kept *k, size_t n)
{
	k->bytes.len -= n;
	memmove(k->bytes.buf, k->bytes.buf + n, k->bytes.len);
	if (k->bytes.len == 0) {
		free(k->bytes.buf);
		*k = kept[--nkept];
	}
}

/* Results of a step below. */
enum { MORE = -1, DONE = -2, FAILED = -3 };

#ifdef HAVE_TEE
static bool peek_ready(void)
{
	if ((peek[0] < 0) != (peek[1] < 0)) {	/* one end taken by exec */
		close(peek[0] < 0 ? peek[1] : peek[0]);
		peek[0] = peek[1] = -1;
	}
	if (peek[0] < 0) {
		if (pipe(peek) < 0)
			return false;
		peek[0] = fd_move_high(peek[0]);
		peek[1] = fd_move_high(peek[1]);
		fcntl(peek[0], F_SETFD, FD_CLOEXEC);
		fcntl(peek[1], F_SETFD, FD_CLOEXEC);
	}
	/* an in-shell redirection (>[10] file) may have put something else
	 * there; undoing it forgets the input's kind */
	return !fd_redirected(peek[0]) && !fd_redirected(peek[1]);
}

static ssize_t look_at_pipe(int fd)
{
	if (!peek_ready()) {
		errno = EBADF;
		return -1;
	}
	ssize_t k = tee(fd, peek[1], ahead.want, 0);
	if (k <= 0)
		return k;
	for (ssize_t have = 0; have < k;) {	/* all of it: the private pipe is left empty */
		ssize_t r = read(peek[0], ahead.buf + have, k - have);
		if (r > 0)
			have += r;
		else if (r == 0 || errno != EINTR)
			return -1;	/* cannot happen: tee just put k bytes there */
	}
	return k;
}
#endif

/* Look at the input's next bytes: how many (0 at its end), or -1 with
 * errno (EINTR: a signal came; otherwise the input is to be read a byte
 * at a time). */
static ssize_t look(int fd)
{
	if (ahead.buf == NULL)
		ahead.buf = ealloc(LARGE);
	ahead.pos = ahead.len = 0;
	ssize_t k = -1;
	if (ahead.kind == FILE_) {
		off_t at = lseek(fd, 0, SEEK_CUR);
		k = at < 0 ? -1 : pread(fd, ahead.buf, ahead.want, at);
	}
#ifdef HAVE_TEE
	else if (ahead.kind == PIPE_)
		k = look_at_pipe(fd);
#endif
	if (k > 0)
		ahead.len = k;
	if (k >= 0 && ahead.want < LARGE)
		ahead.want *= 2;
	return k;
}

static Kind kind_of(int fd)
{
	if (lseek(fd, 0, SEEK_CUR) >= 0)
		return FILE_;
#ifdef HAVE_TEE
	if (errno == ESPIPE)
		return PIPE_;	/* or a terminal or a socket: tee will say */
#endif
	return BYTES;
}

/* Read n bytes from fd onto line, as looked at: DONE if they hold the
 * line's end, MORE if not or a signal interrupted (nothing read then),
 * FAILED if fd cannot be read (errno says why). */
static int take(int fd, Str *line, size_t n)
{
	size_t at = line->len, have = 0;
	str_add(line, ahead.buf + ahead.pos, n);	/* room; the bytes come from fd */
	while (have < n) {
		ssize_t r = read(fd, line->buf + at + have, n - have);
		if (r > 0)
			have += r;
		else if (r < 0 && errno == EINTR && have == 0) {
			line->len = at;
			read_forget();	/* a handler may read or fork */
			sig_check();
			return MORE;
		} else if (r < 0 && have == 0) {
			line->len = at;
			return FAILED;
		} else
			break;
	}
	line->len = at + have;
	char *nl = memchr(line->buf + at, '\n', have);
	if (nl == NULL) {
		if (have == n)
			ahead.pos += n;
		else
			read_forget();	/* the input ended or changed */
		return MORE;
	}
	size_t past = line->buf + at + have - (nl + 1);
	if (past == 0 && have == n)
		ahead.pos += n;
	else {
		if (past > 0 && ahead.kind == FILE_)
			lseek(fd, -(off_t) past, SEEK_CUR);
		else if (past > 0)
			keep(fd, nl + 1, past);
		read_forget();
	}
	line->len = nl + 1 - line->buf;
	line->buf[line->len] = '\0';
	return DONE;
}

/* The bytes kept from an earlier read come first. */
static int take_kept(Kept *k, Str *line)
{
	char *nl = memchr(k->bytes.buf, '\n', k->bytes.len);
	size_t n = nl != NULL ? (size_t) (nl + 1 - k->bytes.buf) : k->bytes.len;
	str_add(line, k->bytes.buf, n);
	kept_drop(k, n);
	return nl != NULL ? DONE : MORE;
}

static int line_by_bytes(int fd, Str *line, int got)
{
	char c;
	for (;;) {
		sig_await_input(fd);
		ssize_t r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR) {
			sig_check();
			continue;
		}
		if (r < 0)
			return -1;
		if (r == 0)
			return got;
		str_addc(line, c);
		if (c == '\n')
			return 1;
		got = 1;
	}
}

/* read_line past the kept bytes, got saying whether there were any. */
static int line_ahead(int fd, Str *line, int got)
{
	for (;;) {
		if (ahead.fd != fd) {
			read_forget();
			ahead.fd = fd;
		}
		if (ahead.kind == UNKNOWN)
			ahead.kind = kind_of(fd);
		if (ahead.kind == BYTES)
			return line_by_bytes(fd, line, got);
		if (ahead.pos == ahead.len) {
			sig_await_input(fd);
			ssize_t k = look(fd);
			if (k == 0)
				return got;
			if (k < 0 && errno == EINTR) {
				read_forget();
				sig_check();
				continue;
			}
			if (k < 0) {
				ahead.kind = BYTES;
				continue;
			}
		}
		size_t avail = ahead.len - ahead.pos;
		char *nl = memchr(ahead.buf + ahead.pos, '\n', avail);
		size_t n = nl != NULL ? (size_t) (nl - (ahead.buf + ahead.pos)) + 1 : avail;
		size_t before = line->len;
		int r = take(fd, line, n);
		got |= line->len > before;
		if (r == FAILED)
			return -1;
		if (r == DONE)
			return 1;
	}
}

/* One line of fd onto line, with its newline if it has one: 1 if anything
 * was read, 0 at end of input, -1 if fd cannot be read (errno says why;
 * line holds what was read before). */
int read_line(int fd, Str *line)
{
	Kept *k = kept_of(fd, false);
	if (k == NULL)
		return line_ahead(fd, line, 0);
	return take_kept(k, line) == DONE ? 1 : line_ahead(fd, line, 1);
}

/* Up to n bytes of fd into buf, as one read(2) gives them: those an
 * earlier line kept (see take) first.  Returns how many, 0 at end of
 * input, -1 if fd cannot be read (errno says why). */
ssize_t read_bytes(int fd, char *buf, size_t n)
{
	Kept *k = kept_of(fd, false);
	if (k != NULL) {
		size_t got = n < k->bytes.len ? n : k->bytes.len;
		memcpy(buf, k->bytes.buf, got);
		kept_drop(k, got);
		return got;
	}
	read_forget();	/* what was looked at is read now */
	for (;;) {
		sig_await_input(fd);
		ssize_t r = read(fd, buf, n);
		if (r >= 0 || errno != EINTR)
			return r;
		sig_check();
	}
}
