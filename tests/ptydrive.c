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
 *			or 300; it only ends a hang stuck() cannot see, so it is
 *			long enough for a loaded machine or a sanitizer build)
 *	wait CODE	wait for the program to exit with CODE (128+N for signal N)
 * Blank lines and lines starting with # are ignored.  Exit 0 if the script
 * ran through, 1 (with the transcript on stderr) if not, 77 if no pty.
 *
 * A wait (expect, raw, cooked, drained, wait) also fails, about a second
 * after it starts, if the program is stuck: waiting for a key while the
 * script waits for it (see stuck()).  That is a state of the program, not
 * a time: a slow machine only makes it seen later, and a run that passes
 * never depends on how soon. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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
static char slave[256];		/* the terminal's name */
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

/* Where text (len bytes) first occurs in the n bytes at s, or NULL
 * (memmem, which POSIX has only since 2024). */
static char *find(char *s, size_t n, const char *text, size_t len)
{
	for (size_t i = 0; i + len <= n; i++)
		if (memcmp(s + i, text, len) == 0)
			return s + i;
	return NULL;
}

static void check_rejects(void)
{
	int i;

	for (i = 0; i < nrejects; i++)
		if (outlen >= rejects[i].from && find(out + rejects[i].from,
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

/* The program's side of the terminal, opened for one look: a descriptor
 * kept open would keep the terminal from closing when the program ends. */
static int open_slave(void)
{
	int fd = open(slave, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		fail("cannot open the terminal %s: %s", slave, strerror(errno));
	return fd;
}

/* How many bytes typed the program has not read, -1 if that is unknown.
 * Linux hands what is written to the master to the terminal's input
 * queue later, from a kernel worker, so FIONREAD alone can say 0 while a
 * key is still on its way; a poll of the terminal that finds nothing to
 * read first waits for that worker. */
static int unread_input(void)
{
	int fd = open_slave(), unread = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 0) < 0 || ioctl(fd, FIONREAD, &unread) != 0)
		unread = -1;
	close(fd);
	return unread;
}

#ifdef __linux__
/* The start of /proc/PID/FILE in buf; false if there is none. */
static bool proc_read(pid_t pid, const char *file, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

/* Fields 3 (state) and 6 (session) of /proc/PID/stat. */
static bool proc_stat(pid_t pid, char *state, long *session)
{
	char buf[1024], *p;

	return proc_read(pid, "stat", buf, sizeof buf)
	    && (p = strrchr(buf, ')')) != NULL
	    && sscanf(p + 1, " %c %*d %*d %ld", state, session) == 2;
}

static bool one_thread(pid_t pid)
{
	char buf[4096], *p;

	return proc_read(pid, "status", buf, sizeof buf)
	    && (p = strstr(buf, "\nThreads:")) != NULL && atol(p + 9) == 1;
}

/* Is the program the only process in its session (forkpty made one for
 * it)?  Then no other can write to the terminal or signal the program: no
 * child, no background job, nothing it left behind. */
static bool alone(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	long session;
	char state;
	bool others = proc == NULL;

	while (!others && (e = readdir(proc)) != NULL) {
		pid_t pid = (pid_t)atol(e->d_name);
		others = pid > 0 && pid != child
		    && proc_stat(pid, &state, &session) && session == child;
	}
	if (proc != NULL)
		closedir(proc);
	return !others;
}

/* Is the program's descriptor fd the terminal? */
static bool is_terminal(unsigned long fd)
{
	char path[64], target[sizeof slave];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%ld/fd/%lu", (long)child, fd);
	n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return strcmp(target, slave) == 0;
}

/* Copy len bytes of the program's memory at address addr into buf. */
static bool peek(unsigned long addr, void *buf, size_t len)
{
	char path[64];
	bool done;
	int mem;

	snprintf(path, sizeof path, "/proc/%ld/mem", (long)child);
	if ((mem = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	done = pread(mem, buf, len, (off_t)addr) == (ssize_t)len;
	close(mem);
	return done;
}

/* Does the program's ppoll() of nfds descriptors at address fds wait on
 * the terminal alone? */
static bool polls_terminal(unsigned long fds, unsigned long nfds)
{
	struct pollfd p;

	return nfds == 1 && peek(fds, &p, sizeof p) && is_terminal((unsigned long)p.fd);
}

/* Does the program's pselect() of descriptors below nfds, those set at
 * address set, wait on the terminal alone (the shell without ppoll)? */
static bool selects_terminal(unsigned long nfds, unsigned long set)
{
	unsigned char bits[128];
	size_t len = (nfds + 7) / 8;
	unsigned long fd, found = nfds;

	if (set == 0 || nfds == 0 || len > sizeof bits || !peek(set, bits, len))
		return false;
	for (fd = 0; fd < nfds; fd++)
		if (bits[fd / 8] & (1u << (fd % 8))) {
			if (found != nfds)
				return false;	/* more than one */
			found = fd;
		}
	return found != nfds && is_terminal(found);
}

/* Is the program, one thread, asleep in a system call that only a key
 * typed or a signal can end: a read of the terminal with no time limit
 * (canonical, or VTIME 0), or a ppoll() or pselect() of it with none?  A
 * signal it does not block would have woken it: a running process shows
 * no system call. */
static bool asleep_on_terminal(void)
{
	char buf[256], state;
	unsigned long fd, nfds, limit, except, timeout;
	long nr, session;
	struct termios t;

	if (!proc_stat(child, &state, &session) || state != 'S'
	    || !one_thread(child) || !proc_read(child, "syscall", buf, sizeof buf)
	    || sscanf(buf, "%ld %lx %lx %lx %lx %lx", &nr, &fd, &nfds, &limit,
		&except, &timeout) != 6)
		return false;
#ifdef SYS_pselect6
	/* pselect6(nfds, readfds, writefds, exceptfds, timeout, sigmask) */
	if (nr == SYS_pselect6)
		return limit == 0 && except == 0 && timeout == 0 && selects_terminal(fd, nfds);
#endif
	if (nr == SYS_read)
		return is_terminal(fd) && tcgetattr(master, &t) == 0
		    && ((t.c_lflag & ICANON) || t.c_cc[VTIME] == 0);
#ifdef SYS_ppoll_time64
	if (nr == SYS_ppoll_time64)
		return limit == 0 && polls_terminal(fd, nfds);
#endif
#ifdef SYS_ppoll
	if (nr == SYS_ppoll)
		return limit == 0 && polls_terminal(fd, nfds);
#endif
	return false;
}

/* Is the program waiting for a key while the script waits for it?  It is
 * when it is alone in its session and asleep on the terminal, with all
 * that was typed read and all it wrote read by us.  The order matters:
 * the keys on their way are handed to it first (a ^C among them sends its
 * signal, which wakes the program), then its sleep is seen, then what it
 * wrote before it slept is collected.  Nothing can wake it after that, so
 * the verdict holds however slow the machine.  Linux only (/proc, whose
 * files of a child ptrace's rules let its parent read); elsewhere a hang
 * ends at the timeout. */
static bool stuck(void)
{
	size_t before = outlen;

	if (child <= 0 || eof || unread_input() != 0 || !alone()
	    || !asleep_on_terminal())
		return false;
	pump(0);	/* its poll of the master waits for the worker too */
	return outlen == before;
}
#else
static bool stuck(void)
{
	return false;
}
#endif

enum { LOOK_MS = 1000 };	/* how often a wait looks for a stuck program */

/* Wait until met(arg, len), reading the output meanwhile; what names the
 * step in a failure.  A wait fails when the terminal closes (unless
 * closing_ok), at the timeout, and as soon as the program is stuck. */
static void await(bool (*met)(const char *, size_t), const char *arg, size_t len,
	const char *what, bool closing_ok)
{
	long end = now_ms() + timeout_ms, look = now_ms() + LOOK_MS;
	const char *space = len > 0 ? " " : "", *text = len > 0 ? arg : "";

	while (!met(arg, len)) {
		if (eof && !closing_ok)
			fail("%s%s%s: the program closed the terminal", what, space, text);
		if (now_ms() >= end)
			fail("%s%s%s: timed out", what, space, text);
		if (now_ms() >= look) {
			if (stuck())
				fail("%s%s%s: the program waits for a key, all typed read",
				    what, space, text);
			look = now_ms() + LOOK_MS;
		}
		pump(10);
	}
}

static bool shown(const char *text, size_t len)
{
	char *at = find(out + mark, outlen - mark, text, len);

	if (at != NULL)
		mark = (size_t)(at - out) + len;
	return at != NULL;
}

static bool canonical(const char *yes, size_t len)
{
	struct termios t;

	(void) len;
	return tcgetattr(master, &t) == 0 && !(t.c_lflag & ICANON) == !*yes;
}

static bool all_read(const char *arg, size_t len)
{
	(void) arg;
	(void) len;
	return unread_input() == 0;
}

static int exit_status;

static bool exited(const char *arg, size_t len)
{
	(void) arg;
	(void) len;
	return waitpid(child, &exit_status, WNOHANG) != 0;
}

static void await_exit(int code)
{
	int got;

	await(exited, "", 0, "wait", true);
	child = 0;
	while (!eof && outlen < 1 << 24) {
		size_t before = outlen;
		pump(50);
		if (outlen == before)
			break;
	}
	got = WIFEXITED(exit_status) ? WEXITSTATUS(exit_status) : 128 + WTERMSIG(exit_status);
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
		await(shown, arg, len, "expect", false);
	else if (strcmp(line, "reject") == 0 && nrejects < 64) {
		if ((rejects[nrejects].text = malloc(len + 1)) == NULL)
			fail("out of memory");
		memcpy(rejects[nrejects].text, arg, len + 1);
		rejects[nrejects].len = len;
		rejects[nrejects++].from = mark;
		check_rejects();
	} else if (strcmp(line, "raw") == 0 || strcmp(line, "cooked") == 0)
		await(canonical, line[0] == 'c' ? "c" : "", 0, line, false);
	else if (strcmp(line, "drained") == 0)
		await(all_read, "", 0, line, false);
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
	if (child > 0 && ptsname(master) != NULL)
		snprintf(slave, sizeof slave, "%s", ptsname(master));
	if (child == 0) {
		/* the program starts as a terminal user's does: every signal
		 * at its default and none blocked, whatever make check was
		 * started with (a background job ignores SIGINT, and a script
		 * then keeps ignoring it) */
		sigset_t none;
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
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
