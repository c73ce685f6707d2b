/* le_plain.c: the reader used without an editor: prompt, then one line from fd 0. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "le.h"
#include "le_impl.h"

volatile sig_atomic_t le_got_int, le_got_winch;

void
le_on_signal(int sig)
{
	if (sig == SIGINT)
		le_got_int = 1;
	else if (sig == SIGWINCH)
		le_got_winch = 1;
}

void
le_block_signals(sigset_t *old, sigset_t *waitmask)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGWINCH);
	sigprocmask(SIG_BLOCK, &block, old);
	*waitmask = *old;
	sigdelset(waitmask, SIGINT);
	sigdelset(waitmask, SIGWINCH);
}

/* ppoll() that finds input ready leaves a pending signal blocked, so look
 * for one and let it in: a resize or ^C then takes effect before the next
 * key of a burst of type-ahead rather than after all of it. */
int
le_wait_input(int fd, const sigset_t *waitmask)
{
	struct pollfd p;
	sigset_t pending, old;

	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	if (ppoll(&p, 1, NULL, waitmask) < 0)
		return errno == EINTR ? 0 : -1;
	if (sigpending(&pending) == 0
	    && (sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGWINCH) == 1)) {
		sigprocmask(SIG_SETMASK, waitmask, &old);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	return 1;
}

static void
put(const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(2, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* A canonical tty returns at most one line per read; anything else is read
 * a byte at a time so that no input meant for the shell's children is taken. */
static size_t
chunk(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) == 0 && (t.c_lflag & ICANON))
		return 256;
	return 1;
}

char *
le_plain_readline(const char *prompt, int *interrupted)
{
	sigset_t old, waitmask;
	size_t len = 0, want = chunk(0), cap = want + 1;
	char *buf = malloc(cap), *nl;
	ssize_t n;

	*interrupted = 0;
	if (buf == NULL)
		return NULL;
	le_block_signals(&old, &waitmask);
	le_got_int = 0;
	if (prompt != NULL)
		put(prompt, strlen(prompt));
	for (;;) {
		if (le_got_int) {
			le_got_int = 0;
			*interrupted = 1;
			len = 0;
			put("\n", 1);
			break;
		}
		if (cap - len < want + 1) {
			char *p = realloc(buf, cap = 2 * cap + want);
			if (p == NULL)
				break;
			buf = p;
		}
		if (le_wait_input(0, &waitmask) == 0)
			continue;
		n = read(0, buf + len, want);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			if (len == 0) {
				free(buf);
				buf = NULL;
				if (isatty(0))
					put("\n", 1);
			}
			break;
		}
		nl = memchr(buf + len, '\n', (size_t)n);
		len += (size_t)n;
		if (nl != NULL) {
			len = (size_t)(nl - buf);
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (buf != NULL)
		buf[len] = '\0';
	return buf;
}
