/* SPDX-License-Identifier: Zlib */
/* sys.h: the system interfaces beyond POSIX.1-2008 (and its XSI option)
 * that rc uses, each where configure found it (HAVE_* in config.h, each
 * forced off by a cache variable: INSTALL), with a fallback.  Header only,
 * so that lineedit/ can use it without the rest of the core.
 *
 * Here: pipe2, dup3, mkostemp (close-on-exec set with fcntl after),
 * ppoll (pselect), SI_KERNEL (what a process cannot send), WCOREDUMP (no
 * core is said to be dumped), SIGWINCH (is_sigwinch).
 * Guarded where they are used: vfork (exec.c: fork), tee (read.c: a pipe
 * is read a byte at a time), getauxval (except.c: the stack's top is
 * found above the environment), close_range (jobs.c: a loop's keeper keeps
 * the shell's descriptors), SIGWINCH (signal.c, lineedit/le_plain.c:
 * no resize), the signals SIGIO, SIGPWR and SIGSTKFLT (status.c: named
 * sigunknownN), the resource limits RLIMIT_RSS, _NPROC, _MEMLOCK and
 * _LOCKS (limit.c: not offered), MAP_POPULATE (history.c: the file's
 * pages are read as touched), dladdr (lineedit/le_rl.c: whatis -e names
 * no file), /proc/self/exe (lineedit/le_rl.c, a static editor: likewise),
 * GNU C's attributes (rc.h).
 * Used unguarded: NSIG, not in POSIX.1-2008, which glibc, musl (with
 * _GNU_SOURCE, which config.h defines), the BSDs and macOS all have; and
 * /dev/fd/N, the name of a <{cmd} (expand.c), which Linux, the BSDs,
 * macOS and illumos have (FreeBSD for descriptors above 2 only with
 * fdescfs mounted).
 * Single-threaded, rc needs no atomic close-on-exec: the fallbacks set it
 * with fcntl after the descriptor is made.  Also here: the descriptor
 * floor, FD_SHELL_MIN, which the core and lineedit/ both use. */
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

/* Whether the child of wait status w dumped core: POSIX has no
 * WCOREDUMP, and without it none is said to. */
static inline bool dumped_core(int w)
{
#if HAVE_DECL_WCOREDUMP
	return WCOREDUMP(w);
#else
	(void) w;
	return false;
#endif
}

/* Whether sig is SIGWINCH, which POSIX has only since 2024: without it a
 * terminal's size is never said to change. */
static inline bool is_sigwinch(int sig)
{
#if HAVE_DECL_SIGWINCH
	return sig == SIGWINCH;
#else
	(void) sig;
	return false;
#endif
}

/* Whether a signal was sent by the system (a terminal's ^C), not by a
 * process (kill, sigqueue).  Linux and FreeBSD say so with SI_KERNEL;
 * elsewhere whatever a process cannot send counts as the system's (a
 * system that says nothing, si_code 0, then passes a process's SIGINT on
 * to a program starting at that instant: see sig_after_fork). */
static inline bool sent_by_system(const siginfo_t *info)
{
#if HAVE_DECL_SI_KERNEL
	return info->si_code == SI_KERNEL;
#else
	return info->si_code != SI_USER && info->si_code != SI_QUEUE;
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
