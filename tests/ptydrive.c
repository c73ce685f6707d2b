/* SPDX-License-Identifier: Zlib */
/* ptydrive.c: run a program on a pseudo-terminal (24x80) and drive it with a
 * script read from stdin.  Commands, one per line (TEXT takes escapes \r \n \t
 * \e \s \\ \xHH and \^C for control characters):
 *	send TEXT	type TEXT
 *	expect TEXT	wait until the output since the last match contains TEXT
 *	reject TEXT	fail if TEXT appears in the output from here on
 *	raw | cooked	wait until the terminal is non-canonical / canonical
 *	drained		wait until the program has read all that was typed
 *	resize R C	set the window size (the program gets SIGWINCH)
 *	sleep MS	read output for MS milliseconds
 *	timeout S	the limit for each wait from now on (default: $RC_TEST_TIMEOUT
 *			or 300; it only ends a hang, so it is long enough for a
 *			loaded machine or a sanitizer build)
 *	wait CODE	wait for the program to exit with CODE (128+N for signal N)
 * Blank lines and lines starting with # are ignored.  Exit 0 if the script
 * ran through, 1 (with the transcript on stderr) if not, 77 if no pty. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#if defined HAVE_PTY_H
#include <pty.h>
#elif defined HAVE_UTIL_H
#include <util.h>
#elif defined HAVE_LIBUTIL_H
#include <libutil.h>
#else
#include <pty.h>
#endif

static int master = -1, eof, lineno, timeout_ms = 300000;
static pid_t child;
static char *out;
static size_t outlen, outcap, mark;
static struct { char *text; size_t len, from; } rejects[64];
static int nrejects;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void show(const char *s, size_t n)
{
	for (; n > 0; s++, n--) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			fputs("\\n\n", stderr);
		else if (c == '\r')
			fputs("\\r", stderr);
		else if (c == 033)
			fputs("\\e", stderr);
		else if (c == '\\')
			fputs("\\\\", stderr);
		else if (isprint(c))
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
}

static void __attribute__((format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptydrive: line %d: ", lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n--- transcript (up to the last match) ---\n", stderr);
	show(out, mark);
	fputs("\n--- after the last match ---\n", stderr);
	show(out + mark, outlen - mark);
	fputs("\n--- end ---\n", stderr);
	if (child > 0)
		kill(child, SIGKILL);
	exit(1);
}

static void check_rejects(void)
{
	int i;

	for (i = 0; i < nrejects; i++)
		if (outlen >= rejects[i].from && memmem(out + rejects[i].from,
		    outlen - rejects[i].from, rejects[i].text, rejects[i].len))
			fail("rejected text appeared: %s", rejects[i].text);
}

/* Collect output for up to ms milliseconds (one read at most). */
static void pump(int ms)
{
	struct pollfd p;
	char buf[4096];
	ssize_t n;

	if (eof) {
		if (ms > 0)
			poll(NULL, 0, ms < 10 ? ms : 10);
		return;
	}
	p.fd = master;
	p.events = POLLIN;
	if (poll(&p, 1, ms < 0 ? 0 : ms) <= 0)
		return;
	n = read(master, buf, sizeof buf);
	if (n <= 0) {		/* EIO: the program has closed the terminal */
		eof = n == 0 || errno != EINTR;
		return;
	}
	if (outlen + (size_t)n > outcap) {
		outcap = 2 * outcap + (size_t)n;
		if ((out = realloc(out, outcap)) == NULL)
			fail("out of memory");
	}
	memcpy(out + outlen, buf, (size_t)n);
	outlen += (size_t)n;
	check_rejects();
}

static size_t unescape(char *s)
{
	char *d = s, *p = s;
	unsigned x;

	while (*p != '\0') {
		if (*p != '\\' || p[1] == '\0') {
			*d++ = *p++;
			continue;
		}
		p += 2;
		switch (p[-1]) {
		case 'r': *d++ = '\r'; break;
		case 'n': *d++ = '\n'; break;
		case 't': *d++ = '\t'; break;
		case 'e': *d++ = 033; break;
		case 's': *d++ = ' '; break;
		case '^':
			if (*p != '\0')
				*d++ = *p == '?' ? 0177 : (char)(*p & 037), p++;
			break;
		case 'x':
			if (sscanf(p, "%2x", &x) == 1) {
				*d++ = (char)x;
				p += isxdigit((unsigned char)p[1]) ? 2 : 1;
			}
			break;
		default: *d++ = p[-1]; break;
		}
	}
	*d = '\0';
	return (size_t)(d - s);
}

static void expect(const char *text, size_t len)
{
	long end = now_ms() + timeout_ms;
	char *at;

	for (;;) {
		at = memmem(out + mark, outlen - mark, text, len);
		if (at != NULL) {
			mark = (size_t)(at - out) + len;
			return;
		}
		if (eof)
			fail("expect %s: the program closed the terminal", text);
		if (now_ms() >= end)
			fail("expect %s: timed out", text);
		pump((int)(end - now_ms()));
	}
}

static void await_mode(int canonical)
{
	long end = now_ms() + timeout_ms;
	struct termios t;

	for (;;) {
		if (tcgetattr(master, &t) == 0 && !(t.c_lflag & ICANON) == !canonical)
			return;
		if (now_ms() >= end)
			fail("the terminal did not become %s", canonical ? "cooked" : "raw");
		pump(10);
	}
}

/* A key that shows nothing (Esc) has been read once the terminal's input
 * queue is empty: a signal sent after it finds the program past it. */
static void await_drained(void)
{
	long end = now_ms() + timeout_ms;
	const char *slave = ptsname(master);
	int fd = slave != NULL ? open(slave, O_RDWR | O_NOCTTY) : -1, unread;

	if (fd < 0)
		fail("drained: cannot open the terminal: %s", strerror(errno));
	while (ioctl(fd, FIONREAD, &unread) == 0 && unread > 0) {
		if (now_ms() >= end) {
			close(fd);
			fail("drained: %d bytes typed are still unread", unread);
		}
		pump(10);
	}
	close(fd);
}

static void await_exit(int code)
{
	long end = now_ms() + timeout_ms;
	int status, got;

	while (waitpid(child, &status, WNOHANG) == 0) {
		if (now_ms() >= end)
			fail("wait: the program did not exit");
		pump(10);
	}
	child = 0;
	while (!eof && outlen < 1 << 24) {
		size_t before = outlen;
		pump(50);
		if (outlen == before)
			break;
	}
	got = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (got != code)
		fail("wait: exit status %d, expected %d", got, code);
}

static void type_text(const char *text, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(master, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail("send: %s", strerror(errno));
		text += n;
		len -= (size_t)n;
	}
}

static void run(char *line)
{
	char *arg = strchr(line, ' ');
	struct winsize ws;
	size_t len;
	int a, b;
	long end;

	if (arg != NULL)
		*arg++ = '\0';
	else
		arg = line + strlen(line);
	len = unescape(arg);
	if (strcmp(line, "send") == 0)
		type_text(arg, len);
	else if (strcmp(line, "expect") == 0)
		expect(arg, len);
	else if (strcmp(line, "reject") == 0 && nrejects < 64) {
		if ((rejects[nrejects].text = malloc(len + 1)) == NULL)
			fail("out of memory");
		memcpy(rejects[nrejects].text, arg, len + 1);
		rejects[nrejects].len = len;
		rejects[nrejects++].from = mark;
		check_rejects();
	} else if (strcmp(line, "raw") == 0 || strcmp(line, "cooked") == 0)
		await_mode(line[0] == 'c');
	else if (strcmp(line, "drained") == 0)
		await_drained();
	else if (strcmp(line, "resize") == 0 && sscanf(arg, "%d %d", &a, &b) == 2) {
		memset(&ws, 0, sizeof ws);
		ws.ws_row = (unsigned short)a;
		ws.ws_col = (unsigned short)b;
		if (ioctl(master, TIOCSWINSZ, &ws) < 0)
			fail("resize: %s", strerror(errno));
	} else if (strcmp(line, "sleep") == 0) {
		for (end = now_ms() + atoi(arg); now_ms() < end;)
			pump((int)(end - now_ms()));
	} else if (strcmp(line, "timeout") == 0)
		timeout_ms = 1000 * atoi(arg);
	else if (strcmp(line, "wait") == 0)
		await_exit(atoi(arg));
	else
		fail("unknown command: %s", line);
}

int main(int argc, char **argv)
{
	static char *line;	/* static: still reachable if fail() exits */
	struct winsize ws;
	size_t cap = 0;
	ssize_t n;

	if (argc < 2) {
		fprintf(stderr, "usage: ptydrive program [arg...] < script\n");
		return 2;
	}
	if ((out = malloc(outcap = 4096)) == NULL)
		return 99;
	if (getenv("RC_TEST_TIMEOUT") != NULL && atoi(getenv("RC_TEST_TIMEOUT")) > 0)
		timeout_ms = 1000 * atoi(getenv("RC_TEST_TIMEOUT"));
	memset(&ws, 0, sizeof ws);
	ws.ws_row = 24;
	ws.ws_col = 80;
	child = forkpty(&master, NULL, NULL, &ws);
	if (child < 0) {
		fprintf(stderr, "ptydrive: no pseudo-terminal: %s\n", strerror(errno));
		return 77;
	}
	if (child == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "ptydrive: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while ((n = getline(&line, &cap, stdin)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (n > 0 && line[0] != '#')
			run(line);
	}
	pump(50);
	check_rejects();
	if (child > 0)
		kill(child, SIGHUP);
	free(line);
	return 0;
}
