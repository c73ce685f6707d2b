/* SPDX-License-Identifier: Zlib */
/* launch: start one spec case's shell as tests/spec/run wants it, in one
 * small process instead of timeout, env -i and perl (about 20 ms a case of
 * their start-up, more than most cases' own run).
 *
 * Usage: launch SECONDS N NAME=VALUE... PROGRAM ARGV0 [ARG...]
 * Runs PROGRAM with argv[0] ARGV0, the ARGs, and exactly the N environment
 * entries given (nothing added), in a process group of its own with this
 * process, as timeout(1) does.  Exits with PROGRAM's status; if PROGRAM is
 * killed by a signal, kills itself with that signal, so that the caller
 * sees the same status as if it had run PROGRAM itself.  After SECONDS
 * (only a hung case takes them: nothing may depend on it) the group is
 * killed and the status is 124, timeout's.  127 if PROGRAM cannot be run,
 * 99 on a usage or set-up error.  PROGRAM starts with the signals that
 * timeout(1) handles at their default, whatever this process inherited (a
 * make check run from nohup or a background job ignores SIGINT and
 * SIGQUIT): the cases that want one ignored on entry say so. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;

/* Those that timeout(1) catches, so that its child gets their default. */
static const int reset_signals[] = {
	SIGALRM, SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGCHLD, SIGTTIN, SIGTTOU
};

static void on_alarm(int sig)
{
	(void) sig;
	timed_out = 1;
}

/* Leave the way the child left: its exit status, or its signal. */
static int leave_as(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	int sig = WTERMSIG(status);
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);	/* the child's core is enough */
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;	/* a signal that does not kill */
}

/* Wait for CHILD; on the alarm, kill the whole group (the case's own
 * children too) and report a time-out. */
static int await(pid_t child)
{
	int status;
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("launch: waitpid");
			return 99;
		}
		if (timed_out) {
			signal(SIGTERM, SIG_IGN);
			kill(0, SIGTERM);	/* the case's own children too */
			kill(child, SIGKILL);
		}
	}
	return timed_out ? 124 : leave_as(status);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : -1;
	if (n < 0 || argc < n + 5) {
		fprintf(stderr, "usage: launch SECONDS N NAME=VALUE... PROGRAM ARGV0 [ARG...]\n");
		return 99;
	}
	char **env = argv + 3;
	char *program = env[n];
	env[n] = NULL;	/* the environment ends where PROGRAM was */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: waitpid returns */
	setpgid(0, 0);
	/* posix_spawn, which vforks where it can: a fork costs each case a
	 * copy of this process's page tables (a millisecond here). */
	posix_spawnattr_t attr;
	sigset_t defaults;
	sigemptyset(&defaults);
	for (size_t i = 0; i < sizeof reset_signals / sizeof *reset_signals; i++)
		sigaddset(&defaults, reset_signals[i]);
	pid_t child;
	int err = posix_spawnattr_init(&attr);
	if (err == 0)
		err = posix_spawnattr_setsigdefault(&attr, &defaults);
	if (err == 0)
		err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	if (err != 0) {
		fprintf(stderr, "launch: posix_spawnattr: %s\n", strerror(err));
		return 99;
	}
	err = posix_spawn(&child, program, NULL, &attr, argv + n + 4, env);
	if (err != 0) {
		fprintf(stderr, "launch: %s: %s\n", program, strerror(err));
		return 127;
	}
	alarm((unsigned) strtoul(argv[1], NULL, 10));
	return await(child);
}
