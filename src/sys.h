/* SPDX-License-Identifier: Zlib */
/* sys.h: the system interfaces beyond POSIX.1-2008 that rc uses, each where
 * configure found it (HAVE_* in config.h), with a POSIX fallback.  Header
 * only, so that lineedit/ can use it without the rest of the core.
 *
 * Elsewhere, guarded where they are used: vfork (exec.c: fork without it),
 * tee (read.c: a pipe is read a byte at a time without it), getauxval
 * (except.c), WCOREDUMP (status.c), SIGWINCH and SIGIO (status.c,
 * signal.c, lineedit/), the resource limits that are not POSIX (limit.c).
 * Used unguarded: NSIG, not in POSIX.1-2008, which glibc, musl (with
 * _GNU_SOURCE, which config.h defines), the BSDs and macOS all have.
 * Also the descriptor floor, FD_SHELL_MIN, which both use.
 * Single-threaded, rc needs no atomic close-on-exec: the fallbacks set it
 * with fcntl after the descriptor is made. */
#ifndef SYS_H
#define SYS_H

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#ifndef HAVE_PPOLL
#include <sys/select.h>
#endif

/* The lowest descriptor the shell and its line editor keep their own files
 * at, above the single digits scripts name (here because lineedit/ needs
 * it and does not include rc.h). */
enum { FD_SHELL_MIN = 10 };

/* A wait status without a core-dump bit (POSIX has none) never dumped. */
#ifndef WCOREDUMP
#define WCOREDUMP(w) 0
#endif

/* Whether sig is SIGWINCH, which POSIX has only since 2024: without it a
 * terminal's size is never said to change. */
static inline bool is_sigwinch(int sig)
{
#ifdef SIGWINCH
	return sig == SIGWINCH;
#else
	(void) sig;
	return false;
#endif
}

/* pipe(2) with both ends close-on-exec. */
static inline int pipe_cloexec(int p[2])
{
#ifdef HAVE_PIPE2
	return pipe2(p, O_CLOEXEC);
#else
	if (pipe(p) < 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
#endif
}

/* dup2(2) whose copy is close-on-exec; fd and to differ. */
static inline int dup2_cloexec(int fd, int to)
{
#ifdef HAVE_DUP3
	return dup3(fd, to, O_CLOEXEC);
#else
	if (dup2(fd, to) < 0)
		return -1;
	fcntl(to, F_SETFD, FD_CLOEXEC);
	return to;
#endif
}

/* mkstemp(3) whose descriptor is close-on-exec. */
static inline int mkstemp_cloexec(char *template)
{
#ifdef HAVE_MKOSTEMP
	return mkostemp(template, O_CLOEXEC);
#else
	int fd = mkstemp(template);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#endif
}

/* Sleep until fd has input (or an error or end of file to read), with the
 * signal mask *mask while asleep: ppoll(2) on *p (events POLLIN), else
 * pselect, which is in POSIX.1-2008 but cannot take a descriptor from
 * FD_SETSIZE up (that one is reported ready: the read that follows waits).
 * Returns as ppoll: -1 with errno EINTR when a signal came. */
static inline int poll_in(struct pollfd *p, const sigset_t *mask)
{
#ifdef HAVE_PPOLL
	return ppoll(p, 1, NULL, mask);
#else
	if (p->fd >= FD_SETSIZE) {
		p->revents = POLLIN;
		return 1;
	}
	fd_set in;
	FD_ZERO(&in);
	FD_SET(p->fd, &in);
	int n = pselect(p->fd + 1, &in, NULL, NULL, NULL, mask);
	p->revents = n > 0 ? POLLIN : 0;
	return n;
#endif
}

#endif
