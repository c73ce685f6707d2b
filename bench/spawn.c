/* SPDX-License-Identifier: Zlib */
/* spawn.c: run commands K times in turn (vfork-class spawn, stdout to /dev/null); print each one's mean wall time in ns. */

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Run argv once and wait for it; a child killed by a signal is an error. */
static int run_once(char **argv, posix_spawn_file_actions_t *actions)
{
	pid_t pid;
	int status, err;

	err = posix_spawn(&pid, argv[0], actions, NULL, argv, environ);
	if (err != 0) {
		fprintf(stderr, "spawn: %s: %s\n", argv[0], strerror(err));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("spawn: waitpid");
			return -1;
		}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "spawn: %s: killed by signal %d\n", argv[0], WTERMSIG(status));
		return -1;
	}
	return 0;
}

static int usage(void)
{
	fputs("usage: spawn [-n times] /path/to/program [arg ...] [-- /path/to/program [arg ...]]...\n", stderr);
	return 2;
}

/*
 * spawn [-n K] PROGRAM ARG... [-- PROGRAM ARG...]...
 * Each of the K rounds runs every command once, in turn, so that a noisy
 * moment of the machine is shared by all of them.  One line of output per
 * command: its mean wall time in ns.
 */
int main(int argc, char **argv)
{
	posix_spawn_file_actions_t actions;
	char **cmds[64];
	double spent[64] = { 0 }, start;
	long times = 1, round;
	int ncmds = 0, i, first = 1;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		times = atol(argv[2]);
		first = 3;
	}
	/* Split the arguments at each "--" into NULL-terminated commands. */
	for (i = first; i < argc && ncmds < 64; i++) {
		cmds[ncmds++] = argv + i;
		while (i < argc && strcmp(argv[i], "--") != 0)
			i++;
		if (i == argc)
			break;
		argv[i] = NULL;
		if (i + 1 == argc || strcmp(argv[i + 1], "--") == 0)
			return usage();
	}
	if (ncmds == 0 || i < argc || times < 1)
		return usage();
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	for (round = 0; round < times; round++)
		for (i = 0; i < ncmds; i++) {
			start = now_ns();
			if (run_once(cmds[i], &actions) < 0)
				return 1;
			spent[i] += now_ns() - start;
		}
	for (i = 0; i < ncmds; i++)
		printf("%.0f\n", spent[i] / times);
	return 0;
}
