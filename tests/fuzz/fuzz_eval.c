/* SPDX-License-Identifier: Zlib */
/* fuzz_eval.c: libFuzzer harness that parses and runs the input as a
 * script, in a sandbox made here without changing the shell: the system
 * calls through which a script reaches the world are replaced while the
 * input runs (this file's definitions win over the C library's):
 *
 *	fork, vfork, execve	refused: no command outside the shell runs
 *	_exit			unwinds to the top level (exit, -e, out of memory)
 *	open, opendir, chdir	only relative names without "..", and /dev/null:
 *				files are made in a scratch directory
 *	sigaction		pretends: the fuzzer keeps its own handlers
 *	setrlimit, setpgid, tcsetpgrp	refused
 *	dup2, close		refused on the fuzzer's own descriptors
 *	fcntl			notes a descriptor the shell puts in place
 *
 * A timer stops a script that runs too long: its handler makes the next
 * stack check fail ("too deeply nested"), which unwinds like any error.
 * After each input the shell's state is put back: variables, functions,
 * flags, umask and descriptors.  A descriptor left open that the script
 * did not ask for (exec >[5] file) is a leak and aborts. */
#include "rc.h"

extern char **environ;

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum { MAXFD = 64 };
static bool in_target;			/* the sandbox is on */
static bool protected_fd[MAXFD];	/* the fuzzer's own, open before the input */
static bool redirected_fd[MAXFD];	/* made by the script with dup2 */
static int saved_std[3];

/* The last inputs run, since the state they leave can matter. */
enum { HISTORY = 8 };
static struct { char *data; size_t size; } history[HISTORY];
static unsigned long ninputs;

static void remember(const uint8_t *data, size_t size)
{
	int i = ninputs++ % HISTORY;
	free(history[i].data);
	history[i].data = malloc(size ? size : 1);
	memcpy(history[i].data, data, size);
	history[i].size = size;
}

/* Written as $FUZZ_LOG.1 (the oldest) ... $FUZZ_LOG.8 (the one that failed),
 * to be run again in that order: fuzz_eval FILE.1 FILE.2 ... */
static void dump_history(const char *log)
{
	unsigned long first = ninputs > HISTORY ? ninputs - HISTORY : 0;
	for (unsigned long k = first; k < ninputs; k++) {
		char name[4096];
		snprintf(name, sizeof name, "%s.%lu", log, k - first + 1);
		int fd = syscall(SYS_openat, AT_FDCWD, name, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0)
			continue;
		writeall(fd, history[k % HISTORY].data, history[k % HISTORY].size);
		syscall(SYS_close, fd);
	}
}

/* A finding: on stderr and, since the fuzzer closes the target's stderr
 * (-close_fd_mask), in the file $FUZZ_LOG too, with the inputs before it;
 * then abort. */
static NORETURN PRINTFLIKE(1, 2) void complain(const char *fmt, ...)
{
	Str s = { 0 };
	va_list ap;
	va_start(ap, fmt);
	str_adds(&s, "fuzz_eval: ");
	str_vfmt(&s, fmt, ap);
	va_end(ap);
	str_addc(&s, '\n');
	writeall(2, s.buf, s.len);
	const char *log = getenv("FUZZ_LOG");
	int fd = log != NULL ? (int) syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT, 0666) : -1;
	if (fd >= 0) {
		writeall(fd, s.buf, s.len);
		syscall(SYS_close, fd);
		dump_history(log);
	}
	abort();
}

/* ---- the sandbox ---- */

static bool allowed_path(const char *path)
{
	if (strcmp(path, "/dev/null") == 0)
		return true;
	if (path[0] == '/' || path[0] == '\0')
		return false;
	for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
			return false;
	return true;
}

static int refuse(int e)
{
	errno = e;
	return -1;
}

pid_t fork(void)
{
	static pid_t (*real)(void);
	if (in_target)
		return refuse(EAGAIN);
	if (real == NULL)
		real = (pid_t (*)(void)) dlsym(RTLD_NEXT, "fork");
	return real();
}

pid_t vfork(void)
{
	if (in_target)
		return refuse(EAGAIN);
	return fork();
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	if (in_target)
		return refuse(EACCES);
	return syscall(SYS_execve, path, argv, envp);
}

void _exit(int status)
{
	if (in_target)
		rc_raise(eExit);
	syscall(SYS_exit_group, status);
	for (;;)
		;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	if (in_target && !allowed_path(path))
		return refuse(EACCES);
	return syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

DIR *opendir(const char *path)
{
	static DIR *(*real)(const char *);
	if (real == NULL)
		real = (DIR *(*)(const char *)) dlsym(RTLD_NEXT, "opendir");
	if (in_target && strcmp(path, ".") != 0 && !allowed_path(path)) {
		errno = EACCES;
		return NULL;
	}
	return real(path);
}

int chdir(const char *path)
{
	if (in_target && !allowed_path(path))
		return refuse(EACCES);
	return syscall(SYS_chdir, path);
}

int sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	static int (*real)(int, const struct sigaction *, struct sigaction *);
	if (in_target) {
		if (old != NULL)
			memset(old, 0, sizeof *old);
		return 0;
	}
	if (real == NULL)
		real = (int (*)(int, const struct sigaction *, struct sigaction *)) dlsym(RTLD_NEXT, "sigaction");
	return real(sig, sa, old);
}

int setrlimit(__rlimit_resource_t res, const struct rlimit *rl)
{
	if (in_target)
		return refuse(EPERM);
	return syscall(SYS_setrlimit, res, rl);
}

int setpgid(pid_t pid, pid_t pgid)
{
	if (in_target)
		return refuse(EPERM);
	return syscall(SYS_setpgid, pid, pgid);
}

int tcsetpgrp(int fd, pid_t pgrp)
{
	(void) fd;
	(void) pgrp;
	return refuse(ENOTTY);
}

/* Who made each descriptor, for the report of one left open. */
static void *maker[MAXFD];
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t size);

int pipe(int p[2])
{
	int r = syscall(SYS_pipe2, p, 0);
	if (r == 0 && in_target) {
		maker[p[0] < MAXFD && p[0] >= 0 ? p[0] : 0] = __builtin_return_address(0);
		maker[p[1] < MAXFD && p[1] >= 0 ? p[1] : 0] = __builtin_return_address(0);
	}
	return r;
}

int pipe2(int p[2], int flags)
{
	int r = syscall(SYS_pipe2, p, flags);
	if (r == 0 && in_target) {
		maker[p[0] < MAXFD && p[0] >= 0 ? p[0] : 0] = __builtin_return_address(0);
		maker[p[1] < MAXFD && p[1] >= 0 ? p[1] : 0] = __builtin_return_address(0);
	}
	return r;
}

int dup2(int from, int to)
{
	if (in_target && to >= 0 && to < MAXFD) {
		if (protected_fd[to])
			return refuse(EBADF);
		redirected_fd[to] = true;
	}
	return syscall(SYS_dup2, from, to);
}

/* A file opened straight onto its target (exec >[4]f with 4 free) is not
 * moved there with dup2: the shell clears its close-on-exec flag instead,
 * which marks it the script's as dup2 does. */
int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);	/* as the C library reads it */
	va_end(ap);
	if (in_target && cmd == F_SETFD && ((intptr_t) arg & FD_CLOEXEC) == 0 && fd >= 0 && fd < MAXFD)
		redirected_fd[fd] = true;
	return syscall(SYS_fcntl, fd, cmd, arg);
}

int close(int fd)
{
	if (in_target && fd >= 0 && fd < MAXFD && protected_fd[fd])
		return refuse(EBADF);
	return syscall(SYS_close, fd);
}

/* ---- the time limit ---- */

static size_t normal_room;
static volatile sig_atomic_t timed_out;

static void out_of_time(int sig)
{
	(void) sig;
	timed_out = 1;
	stack_guard.room = 0;		/* the next stack_check() raises an error */
}

static void timer(long usec)
{
	struct itimerval t = { { 0, 0 }, { usec / 1000000, usec % 1000000 } };
	setitimer(ITIMER_PROF, &t, NULL);
}

/* ---- the shell's state ---- */

static void defaults(void)
{
	static List ifs[] = { { " ", NULL, &ifs[1] }, { "\t", NULL, &ifs[2] }, { "\n", NULL, NULL } };
	static List prompt[] = { { "; ", NULL, &prompt[1] }, { "", NULL, NULL } };
	static List path[] = { { "/usr/bin", NULL, &path[1] }, { "/bin", NULL, NULL } };
	static List home = { "/nonexistent", NULL, NULL }, zero = { "rc", NULL, NULL };
	static List pid = { "1", NULL, NULL };
	var_set_const("ifs", ifs, false);
	var_set_const("prompt", prompt, false);
	var_set("path", path);
	var_set("home", &home);
	var_set_const("0", &zero, false);
	var_set_const("pid", &pid, false);
	args_set(NULL);
	status_set(0);
}

static void forget(Sym *s, void *ctx)
{
	(void) ctx;
	if (s->fn != NULL || s->fndef != NULL)
		fn_delete(s->name);
	if (var_get(s->name) != NULL)
		var_set(s->name, NULL);
}

static void reset_state(void)
{
	sym_walk(forget, NULL);
	fn_unwind(0);
	defaults();
	flag.e = flag.n = flag.v = flag.x = false;
	interactive = false;
	/* The shell's own handler is never installed here (sigaction
	 * pretends), so no signal is caught: only the flag needs clearing. */
	sig_pending = 0;
	walk_reset();
	read_child_reset();	/* the read builtin's private look-ahead pipe */
}

/* Put descriptors back; report one the shell opened and left open. */
static void reset_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		syscall(SYS_dup2, saved_std[fd], fd);
	for (int fd = 3; fd < MAXFD; fd++) {
		if (protected_fd[fd] || fcntl(fd, F_GETFD) < 0)
			continue;
		if (!redirected_fd[fd]) {
			char buf[64] = "";
			char link[32];
			snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
			ssize_t n = readlink(link, buf, sizeof buf - 1);
			buf[n > 0 ? n : 0] = '\0';
			char who[256] = "unknown";
			if (maker[fd] != NULL)
				__sanitizer_symbolize_pc(maker[fd], "%F %L", who, sizeof who);
			complain("descriptor %d (%s, flags %o%s, made by %s) left open", fd, buf,
				 fcntl(fd, F_GETFD), timed_out ? ", after the time limit" : "", who);
		}
		syscall(SYS_close, fd);
	}
	memset(redirected_fd, 0, sizeof redirected_fd);
	memset(maker, 0, sizeof maker);
}

/* Files the script made in the scratch directory go, so that the next
 * input starts from the same state. */
static void clean_dir(void)
{
	DIR *d = opendir(".");
	if (d == NULL)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(e->d_name);
	closedir(d);
}

static char scratch[] = "/tmp/rc-fuzz-eval.XXXXXX";

static void remove_scratch(void)
{
	in_target = false;
	clean_dir();
	rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	if (mkdtemp(scratch) == NULL || chdir(scratch) != 0)
		abort();
	atexit(remove_scratch);
	char here;
	stack_init(&here, environ, true);
	catch_steps();
	normal_room = stack_guard.room;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = out_of_time;
	sigaction(SIGPROF, &sa, NULL);
	char *empty[] = { NULL };
	env_import(empty, true);
	defaults();
	return 0;
}

static void first_call(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	int null = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY);
	if (null >= 0 && null != 0) {
		syscall(SYS_dup2, null, 0);
		syscall(SYS_close, null);
	}
	for (int fd = 0; fd < 3; fd++)
		saved_std[fd] = fcntl(fd, F_DUPFD_CLOEXEC, MAXFD - 8);
}

/* Descriptors open before the input runs are the fuzzer's (it may start
 * llvm-symbolizer with pipes at any time, to print NEW_FUNC lines). */
static void protect_open_fds(void)
{
	for (int fd = 3; fd < MAXFD; fd++)
		protected_fd[fd] = fcntl(fd, F_GETFD) >= 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	first_call();
	protect_open_fds();
	remember(data, size);
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0 || writeall(fd, (const char *) data, size) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	protected_fd[fd] = true;
	mode_t mask = umask(022);
	umask(mask);
	char base;
	stack_init(&base, environ, true);
	stack_guard.room = normal_room;
	Mark m = nmark();

	in_target = true;
	timed_out = 0;
	timer(50000);
	input_fd(fd);
	input_loop();
	input_pop();
	timer(0);
	stack_guard.room = normal_room;
	nmpipe_reap();
	reset_state();
	in_target = false;

	nrelease(m);
	umask(mask);
	syscall(SYS_close, fd);
	protected_fd[fd] = false;
	reset_fds();
	clean_dir();
	return 0;
}
