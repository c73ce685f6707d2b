/* SPDX-License-Identifier: Zlib */
/* pipehog: run a command while this user holds many pipes, so that the
 * kernel gives the command's new pipes less room than usual (Linux: past
 * /proc/sys/fs/pipe-user-pages-soft, an unprivileged user's new pipes get
 * one or two pages instead of sixteen).
 *
 * Usage: pipehog N COMMAND [ARG...]
 * Opens N pipes (kept open, closed on exec), checks that a new pipe is now
 * smaller than 64 kB, runs COMMAND and exits with its status.  Exit 77 (the
 * test suite's "skipped") when new pipes keep their size (a privileged user,
 * no limit, or a kernel without F_GETPIPE_SZ) or when the descriptor limit
 * does not allow N pipes; exit 99 on a set-up error. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int pipe_size(void)
{
#ifdef F_GETPIPE_SZ
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	int size = fcntl(p[1], F_GETPIPE_SZ);
	close(p[0]);
	close(p[1]);
	return size;
#else
	return -1;
#endif
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: pipehog N COMMAND [ARG...]\n");
		return 99;
	}
	long n = strtol(argv[1], NULL, 10);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (long i = 0; i < n; i++) {
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0) {
			/* a descriptor limit (ulimit -n 256) is the user's, not an error */
			int limited = errno == EMFILE || errno == ENFILE;
			fprintf(stderr, "pipehog: pipe %ld of %ld: %s%s\n", i + 1, n, strerror(errno),
				limited ? ": cannot hold enough pipes under this descriptor limit" : "");
			return limited ? 77 : 99;
		}
		close(p[1]);	/* the read end keeps the pipe and its pages */
	}
	int size = pipe_size();
	if (size < 0 || size >= 65536) {
		fprintf(stderr, "pipehog: new pipes hold %d bytes after %ld pipes: "
			"they do not shrink for uid %d\n", size, n, (int) getuid());
		return 77;
	}
	fprintf(stderr, "pipehog: new pipes hold %d bytes\n", size);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("pipehog: fork");
		return 99;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "pipehog: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	int w;
	while (waitpid(pid, &w, 0) < 0)
		if (errno != EINTR) {
			perror("pipehog: waitpid");
			return 99;
		}
	return WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
}
