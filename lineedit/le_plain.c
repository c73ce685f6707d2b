/* SPDX-License-Identifier: Zlib */
/* le_plain.c: the reader used without an editor: prompt, then one line from
 * fd 0; and the terminal the prompt goes to, for every reader. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "le.h"
#include "le_impl.h"
#include "sys.h"

LeState le_state;
static volatile sig_atomic_t saved_input = -1;

/* A read of fd 0 cannot be ended by a flag: the signal may come just
 * before the read starts.  So while le_state.empty_input is set, a signal that
 * must end the read puts /dev/null on fd 0, and the read ends at once,
 * begun or not; le_restore_input() puts the terminal back. */
void le_cut_input(void)
{
	int null = le_state.empty_input && saved_input < 0 ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
	if (null >= 0) {
		saved_input = fcntl(0, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
		if (saved_input >= 0)
			dup2(null, 0);
		close(null);
	}
}

void le_on_signal(int sig)
{
	if (sig == SIGINT) {
		le_state.got_int = 1;
		le_cut_input();
	} else if (is_sigwinch(sig))
		le_state.got_winch = 1;
}

/* With SIGINT blocked.  Returns whether fd 0 had been cut. */
bool le_restore_input(void)
{
	if (saved_input < 0)
		return false;
	dup2(saved_input, 0);
	close(saved_input);
	saved_input = -1;
	return true;
}

void le_block_signals(sigset_t *old, sigset_t *waitmask)
{
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
#if HAVE_DECL_SIGWINCH
	sigaddset(&block, SIGWINCH);
#endif
	sigaddset(&block, SIGTSTP);
	sigprocmask(SIG_BLOCK, &block, old);
	*waitmask = *old;
	sigdelset(waitmask, SIGINT);
#if HAVE_DECL_SIGWINCH
	sigdelset(waitmask, SIGWINCH);
#endif
	sigdelset(waitmask, SIGTSTP);
}

/* Whether SIGINT, SIGWINCH or SIGTSTP waits, blocked. */
static bool interrupt_pending(void)
{
	sigset_t pending;
	if (sigpending(&pending) != 0)
		return false;
#if HAVE_DECL_SIGWINCH
	if (sigismember(&pending, SIGWINCH) == 1)
		return true;
#endif
	return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTSTP) == 1;
}

/* poll_in() that finds input ready leaves a pending signal blocked, so look
 * for one and let it in: a resize or ^C then takes effect before the next
 * key of a burst of type-ahead rather than after all of it. */
int le_wait_input(int fd, const sigset_t *waitmask)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	if (poll_in(&p, waitmask) < 0)
		return errno == EINTR ? 0 : -1;
	if (interrupt_pending()) {
		sigset_t old;
		sigprocmask(SIG_SETMASK, waitmask, &old);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	return 1;
}

/* ^C and ^Z make the terminal discard the keys not yet read, so the input
 * le_wait_input() found may be gone when the read starts, and a read with
 * the ^C blocked would wait for the next key.  So the read runs with
 * waitmask in force and fd 0 cut by the signal: one that comes before the
 * read starts makes it read /dev/null, one that comes during it ends it.
 * Returns as read(2): -1 with errno EINTR when a signal came. */
ssize_t le_read_input(void *buf, size_t size, const sigset_t *waitmask)
{
	sigset_t blocked;
	le_state.empty_input = 1;
	sigprocmask(SIG_SETMASK, waitmask, &blocked);
	ssize_t n = read(0, buf, size);
	int err = errno;
	sigprocmask(SIG_SETMASK, &blocked, NULL);
	le_state.empty_input = 0;
	if (le_restore_input() && n == 0) {
		n = -1;
		err = EINTR;
	}
	errno = err;
	return n;
}

/* Out of the way of the descriptors commands name: TERM_FD if the limit
 * allows, else the lowest the shell keeps its own files at. */
enum { TERM_FD = 255 };	/* bash's choice: few scripts go that high */

static int move_high(int fd)
{
	if (fd < 0)
		return -1;
	int high = fcntl(fd, F_DUPFD_CLOEXEC, TERM_FD);
	if (high < 0)
		high = fcntl(fd, F_DUPFD_CLOEXEC, FD_SHELL_MIN);
	close(fd);
	return high;
}

/* A writable descriptor on the terminal fd 0 reads: a copy of fd 0, 2 or
 * 1 if one is, else the terminal opened by its name. */
static int open_terminal(const struct stat *in)
{
	static const int fds[] = { 0, 2, 1 };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++) {
		struct stat st;
		int mode = fcntl(fds[i], F_GETFL);
		if (mode >= 0 && (mode & O_ACCMODE) != O_RDONLY && isatty(fds[i]) &&
		    fstat(fds[i], &st) == 0 && st.st_rdev == in->st_rdev)
			return move_high(fcntl(fds[i], F_DUPFD_CLOEXEC, 0));
	}
	const char *name = ttyname(0);
	if (name == NULL)
		return -1;
	return move_high(open(name, O_WRONLY | O_NOCTTY | O_CLOEXEC));
}

/* The terminal the shell reads keeps the prompt and what is typed, also
 * after exec >[2]log, rc 2>log or >[2=], and when fd 2 is another
 * terminal.  The descriptor keeps its number (libedit keeps the stream it
 * was given): it is made again there if a command redirected over it or
 * fd 0 became another terminal. */
int le_term_fd(void)
{
	static int term = -1;
	struct stat in, st;
	if (!isatty(0) || fstat(0, &in) != 0)
		return 2;
	if (term >= 0 && isatty(term) && fstat(term, &st) == 0 &&
	    st.st_rdev == in.st_rdev)
		return term;
	int fd = open_terminal(&in);
	if (fd < 0)
		return 2;
	if (term < 0)
		term = fd;
	else if (fd != term) {
		dup2_cloexec(fd, term);
		close(fd);
	}
	return term;
}

static void put(const char *s, size_t n)
{
	int fd = le_term_fd();
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t) w;
	}
}

/* A canonical tty returns at most one line per read; anything else is read
 * a byte at a time so that no input meant for the shell's children is taken. */
static size_t chunk(int fd)
{
	struct termios t;
	if (tcgetattr(fd, &t) == 0 && (t.c_lflag & ICANON))
		return 256;
	return 1;
}

bool le_unterminated(void)
{
	return le_state.line_unterminated;
}

char *le_plain_readline(const char *prompt, bool *interrupted)
{
	size_t len = 0, want = chunk(0), cap = want + 1;
	char *buf = malloc(cap);
	*interrupted = false;
	le_state.line_unterminated = false;
	if (buf == NULL)
		return NULL;
	sigset_t old, waitmask;
	le_block_signals(&old, &waitmask);
	le_state.got_int = 0;
	if (prompt != NULL)
		put(prompt, strlen(prompt));
	for (;;) {
		if (le_state.got_int) {
			le_state.got_int = 0;
			*interrupted = true;
			len = 0;
			put("\n", 1);
			break;
		}
		char *p = le_grow(buf, &cap, len + want + 1, 1);
		if (p == NULL)
			break;
		buf = p;
		if (le_wait_input(0, &waitmask) == 0)
			continue;
		ssize_t n = le_read_input(buf + len, want, &waitmask);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			le_state.line_unterminated = len > 0;
			if (len == 0) {
				free(buf);
				buf = NULL;
				if (isatty(0))
					put("\n", 1);
			}
			break;
		}
		char *nl = memchr(buf + len, '\n', (size_t) n);
		len += (size_t) n;
		if (nl != NULL) {
			len = (size_t) (nl - buf);
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (buf != NULL)
		buf[len] = '\0';
	return buf;
}
