/* SPDX-License-Identifier: Zlib */
/* tests/fuzz/jail.c: run one script with the shell in a jail, for AFL++
 * (tests/fuzz/afl-fork).  Usage: jail RC SCRIPT.  Needs root (namespaces,
 * mounts, setuid); refuses to run otherwise.
 *
 * Each run gets new pid and mount namespaces.  The first process in them
 * (pid 1, "init" below) mounts a fresh small tmpfs on /tmp, which is the
 * shell's directory, $HOME and $TMPDIR, makes the other world-writable
 * directories unwritable, copies the script there and starts the shell as
 * uid/gid 65534 in a session of its own, with an unsearchable $path and
 * limits on processes (ulimit -u: no fork bomb can pass it), file size, CPU
 * time and memory.  When the shell ends, init kills everything left in the
 * namespace, reaps it, checks in a /proc of the namespace that no process
 * remains, sends the shell's wait status up a pipe and exits; the kernel
 * then kills anything left anyway.  If this wrapper dies (AFL's timeout), the
 * parent-death signal kills init and so the whole namespace.
 *
 * The wrapper reports to AFL as the shell ended: a shell killed by a signal
 * that means a bug (SIGSEGV, SIGABRT, ...) is re-raised here, so AFL saves a
 * crash; a shell that outlives JAIL_TIMEOUT_MS (default 1000) is killed with
 * its namespace, and the wrapper then waits to be killed itself, so AFL
 * saves a hang (give afl-fuzz a larger -t); processes left behind abort().
 *
 * Environment: JAIL_TIMEOUT_MS, JAIL_NPROC (default 32), JAIL_FSIZE (bytes,
 * 1 MiB), JAIL_CPU (seconds, 2), JAIL_AS (bytes, 512 MiB).  The variables of
 * AFL (__AFL_*, AFL_*) are passed to the shell, nothing else.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

enum { NOBODY = 65534, MAX_SCRIPT = 1 << 20 };

struct report {
	int status;	/* the shell's wait status */
	int left;	/* processes found in the namespace after the reaping */
};

static void die(const char *what)
{
	fprintf(stderr, "jail: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long knob(const char *name, long dflt)
{
	const char *s = getenv(name);
	return s != NULL && *s != '\0' ? strtol(s, NULL, 10) : dflt;
}

static char *read_script(const char *file, size_t *len)
{
	static char buf[MAX_SCRIPT];
	int fd = open(file, O_RDONLY);
	ssize_t n;
	size_t got = 0;

	if (fd < 0)
		die(file);
	while (got < sizeof buf && (n = read(fd, buf + got, sizeof buf - got)) != 0) {
		if (n < 0)
			die(file);
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return buf;
}

static void mount_tmpfs(const char *dir, const char *options)
{
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
		die(dir);
}

/* /tmp becomes the jail; the other directories anyone may write to become
 * empty and owned by root; /proc shows this namespace's processes. */
static void build_jail(const char *script, size_t len)
{
	static const char *const closed[] = { "/var/tmp", "/run/lock", "/dev/shm" };
	int fd;

	mount_tmpfs("/tmp", "size=1m,nr_inodes=256,mode=1777");
	for (size_t i = 0; i < sizeof closed / sizeof closed[0]; i++)
		if (access(closed[i], F_OK) == 0)
			mount_tmpfs(closed[i], "size=4k,nr_inodes=4,mode=755");
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
		die("/proc");
	fd = open("/tmp/script.rc", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, script, len) != (ssize_t)len || close(fd) != 0)
		die("/tmp/script.rc");
}

/* AFL's coverage map is shared memory only its creator (root) may use:
 * give it to the shell's user */
static void share_coverage_map(void)
{
	const char *id = getenv("__AFL_SHM_ID");
	struct shmid_ds ds;

	if (id == NULL || shmctl(atoi(id), IPC_STAT, &ds) != 0)
		return;
	ds.shm_perm.uid = NOBODY;
	ds.shm_perm.gid = NOBODY;
	if (shmctl(atoi(id), IPC_SET, &ds) != 0)
		die("the coverage map");
}

static void limit(int resource, long value)
{
	struct rlimit r = { (rlim_t)value, (rlim_t)value };
	if (setrlimit(resource, &r) != 0)
		die("setrlimit");
}

static char **shell_environment(void)
{
	extern char **environ;
	static char *env[64];
	size_t n = 0;

	for (char **e = environ; *e != NULL && n < 60; e++)
		if (strncmp(*e, "__AFL", 5) == 0 || strncmp(*e, "AFL_", 4) == 0)
			env[n++] = *e;
	env[n++] = "HOME=/tmp";
	env[n++] = "TMPDIR=/tmp";
	env[n++] = "PATH=/nonexistent";	/* external commands by absolute path only */
	env[n] = NULL;
	return env;
}

/* rc_fd: the shell's binary, opened before /tmp was covered */
static void exec_shell(const char *rc, int rc_fd)
{
	char *argv[] = { (char *)rc, "/tmp/script.rc", NULL };
	int fd = open("/dev/null", O_RDONLY);

	if (fd < 0 || dup2(fd, 0) < 0 || (rc_fd != 3 && dup3(rc_fd, 3, O_CLOEXEC) < 0))
		die("/dev/null");
	closefrom(4);
	setsid();
	limit(RLIMIT_NPROC, knob("JAIL_NPROC", 32));
	limit(RLIMIT_FSIZE, knob("JAIL_FSIZE", 1 << 20));
	limit(RLIMIT_CPU, knob("JAIL_CPU", 2));
	limit(RLIMIT_AS, knob("JAIL_AS", 512L << 20));
	limit(RLIMIT_CORE, 0);
	if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
		die("dropping privileges");
	if (chdir("/tmp") != 0)
		die("/tmp");
	fexecve(3, argv, shell_environment());
	die(rc);
}

static int count_processes(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		die("/proc");
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && atoi(e->d_name) != 1)
			n++;
	closedir(d);
	return n;
}

/* pid 1 of the namespace: it reaps every orphan, so nothing stays a zombie */
static void init(const char *rc, const char *script, size_t len, int report_fd)
{
	struct report r = { 0, 0 };
	pid_t shell, pid;
	int status, rc_fd = open(rc, O_RDONLY | O_CLOEXEC);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (rc_fd < 0)
		die(rc);
	build_jail(script, len);
	shell = fork();
	if (shell < 0)
		die("fork");
	if (shell == 0)
		exec_shell(rc, rc_fd);
	while ((pid = wait(&status)) != -1 || errno == EINTR)
		if (pid == shell) {
			r.status = status;
			kill(-1, SIGKILL);	/* all of the namespace but init */
		}
	r.left = count_processes();
	if (write(report_fd, &r, sizeof r) != sizeof r)
		die("report");
	_exit(0);
}

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void start_timer(long ms)
{
	struct itimerval t = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;	/* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &t, NULL);
}

static void report_as_shell(const struct report *r)
{
	int sig;

	if (r->left != 0) {
		fprintf(stderr, "jail: %d processes left in the namespace\n", r->left);
		abort();
	}
	if (WIFEXITED(r->status))
		exit(WEXITSTATUS(r->status));
	sig = WTERMSIG(r->status);
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGABRT:
	case SIGSYS: case SIGTRAP:
		signal(sig, SIG_DFL);
		raise(sig);
	}
	exit(128 + sig);	/* SIGKILL of ulimit -t, a signal the script sent: no bug */
}

int main(int argc, char **argv)
{
	struct report r;
	size_t len;
	char *script;
	int pipefd[2], status;
	pid_t init_pid;

	if (argc != 3) {
		fprintf(stderr, "usage: jail RC SCRIPT\n");
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "jail: needs root (namespaces, mounts, setuid)\n");
		return 2;
	}
	script = read_script(argv[2], &len);
	share_coverage_map();
	if (pipe(pipefd) != 0)
		die("pipe");
	if (unshare(CLONE_NEWNS | CLONE_NEWPID) != 0)
		die("unshare");
	/* never let a mount of the jail reach the machine's namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		die("making / private");
	init_pid = fork();
	if (init_pid < 0)
		die("fork");
	if (init_pid == 0) {
		close(pipefd[0]);
		init(argv[1], script, len, pipefd[1]);
	}
	close(pipefd[1]);
	start_timer(knob("JAIL_TIMEOUT_MS", 1000));
	while (waitpid(init_pid, &status, 0) < 0)
		if (errno != EINTR || timed_out) {
			kill(init_pid, SIGKILL);	/* and with it the namespace */
			waitpid(init_pid, &status, 0);
			fprintf(stderr, "jail: timed out\n");
			for (;;)
				pause();	/* until AFL's timeout: a hang */
		}
	if (read(pipefd[0], &r, sizeof r) != sizeof r) {
		fprintf(stderr, "jail: init failed (status %#x)\n", status);
		return 2;
	}
	report_as_shell(&r);
	return 0;
}
