/* SPDX-License-Identifier: Zlib */
/* sigfn.c: the functions named after signals, run when their signal has
 * arrived (fn sigint, ...; signal.c catches the signals) and when the
 * shell exits (fn sigexit), and leaving the shell (rc_exit). */
#include "rc.h"
#include "sys.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Around vfork: no handler may run in the child while it shares our memory.
 * A signal that came since walk() last looked is acted on first: a ^C the
 * terminal sends before the child exists reaches the shell alone, and the
 * program would run on as if it had not been typed (^C just after `x' of
 * `echo x; cat' left cat reading). */
void sig_block_all(sigset_t *saved)
{
	for (;;) {
		sig_hold_all(saved);
		if (!sig_pending && !sig_caught_waiting(saved))
			return;
		sigprocmask(SIG_SETMASK, saved, NULL);
		sig_check();
	}
}

/* A handler runs between two commands of the script: the $status it
 * leaves is not the one of the command the signal interrupted. */
static void run_handler(int sig, Node *fn)
{
	StatusCopy saved = status_save();
	fn_call(signame(sig), fn, NULL);
	status_restore(saved);
}

/* Is an interrupt (^C with no sigint function) waiting to be acted on? */
bool sig_interrupted(void)
{
	return sig_is_caught(SIGINT) && fn_get("sigint") == NULL;
}

/* Run the handlers for signals that arrived.  SIGINT with no sigint
 * function abandons the current command: an interactive shell goes back
 * to its prompt, a script ends with status 1.  The signals the shell
 * catches for itself alone do nothing more. */
void sig_check(void)
{
	if (!sig_pending)
		return;
	sig_pending = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		if (!sig_take(sig))
			continue;
		Node *fn = fn_get(signame(sig));
		if (fn != NULL)
			run_handler(sig, fn);
		else if (sig == SIGINT) {
			bool quiet = sig_take_quiet();
			if (interactive && !quiet)
				writeall(2, "\n", 1);
			rc_raise(eInterrupt);
		}
	}
}

/* Sleep until fd has input (or an error or its end, which the read that
 * follows meets), running the handlers of the signals that arrive
 * meanwhile: sig_check, which may unwind (a ^C abandons the command).
 * All signals are blocked but while poll_in sleeps, so none slips in
 * between the look at the pending ones and the sleep: a ^C that came just
 * before a blocking read would be lost, and the read would wait on. */
void sig_await_input(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	/* Even this look can be interrupted: on a terminal it waits for the
	 * keys on their way, and a ^C among them signals the shell then,
	 * whose handler has run when poll fails with EINTR.  That failure is
	 * no error for read to meet: it would wait on, the ^C spent. */
	int ready = poll(&p, 1, 0);
	if (ready > 0 || (ready < 0 && errno != EINTR))
		return;		/* ready (a file always is), or an error read will meet */
	sigset_t old;
	sig_hold_all(&old);
	for (;;) {
		if (sig_pending) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			sig_check();
			sig_hold_all(NULL);
			continue;
		}
		if (poll_in(&p, &old) >= 0 || errno != EINTR)
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ^C at the prompt: the editor has dropped the line already.  Clear the
 * catch so that it cannot abort a later command (on the next signal of any
 * kind), and run fn sigint if there is one. */
void sig_prompt_interrupt(void)
{
	sig_take(SIGINT);
	sig_take_quiet();
	Node *fn = fn_get("sigint");
	if (fn != NULL)
		fn_call("sigint", fn, NULL);
}

/* fn sigexit runs once, when the shell exits (in a child, see state.c).
 * Returns true if it ran: the shell then exits with its status. */
static bool sig_exit_handler(void)
{
	static bool done;
	if (done)
		return false;
	done = true;
	Node *fn = fn_get("sigexit");
	if (fn != NULL)
		fn_call("sigexit", fn, NULL);
	return fn != NULL;
}

/* _exit through a pointer bound when the shell is loaded: called lazily,
 * its first call in every forked child would write the child's copy of
 * the binding table (a copy-on-write fault per fork). */
static void (*volatile exit_now)(int) = _exit;

#ifdef RC_ASAN
#include <link.h>
#include <sanitizer/lsan_interface.h>
/* The code of LeakSanitizer's runtime and the shell's own, to tell the
 * objects apart (root_segments). */
typedef struct {
	uintptr_t runtime, shell;
} LeakRoots;

static bool object_holds(const struct dl_phdr_info *obj, uintptr_t addr)
{
	for (int i = 0; i < obj->dlpi_phnum; i++) {
		const ElfW(Phdr) *seg = &obj->dlpi_phdr[i];
		if (seg->p_type == PT_LOAD && addr - (obj->dlpi_addr + seg->p_vaddr) < seg->p_memsz)
			return true;
	}
	return false;
}

/* root_segments: register the writable segments of a loaded object as
 * LeakSanitizer's roots, but for the sanitizer runtime's when it is a
 * library of its own (GCC's libasan): its 5.6 MB of zeroed globals hold
 * none of the shell's pointers. */
static int root_segments(struct dl_phdr_info *obj, size_t size, void *data)
{
	const LeakRoots *code = data;
	(void) size;
	if (object_holds(obj, code->runtime) && !object_holds(obj, code->shell))
		return 0;
	for (int i = 0; i < obj->dlpi_phnum; i++) {
		const ElfW(Phdr) *seg = &obj->dlpi_phdr[i];
		if (seg->p_type == PT_LOAD && (seg->p_flags & PF_W))
			__lsan_register_root_region((void *) (obj->dlpi_addr + seg->p_vaddr),
						    seg->p_memsz);
	}
	return 0;
}

/* _exit skips LeakSanitizer's check at exit too: the sanitizers build
 * makes it here, so that memory lost by any path (an error or ^C
 * unwinding past a buffer) fails the test that took it.  Only the shell
 * itself: a forked child's heap is its parent's, held by frames the
 * child never returns to.  The shell tells LeakSanitizer not to scan the
 * globals of every object itself (main.c): reading the runtime's, a page
 * fault a page, was most of the check's cost (a sanitized shell runs a
 * one-line script in 27 ms of CPU, in 43 with LSAN_OPTIONS=use_globals=1);
 * the others are registered here, at the end, the editor's among them
 * once it is loaded. */
static void leak_check(void)
{
	LeakRoots code = { (uintptr_t) __lsan_do_leak_check, (uintptr_t) leak_check };
	if (in_child())
		return;
	dl_iterate_phdr(root_segments, &code);
	__lsan_do_leak_check();
}
#else
#define leak_check() ((void) 0)
#endif

#ifdef RC_COVERAGE
/* A gcov build (tests/difftest/coverage) writes its counts before leaving:
 * _exit skips the exit handlers that would. */
void __gcov_dump(void);
#define coverage_dump() __gcov_dump()
#else
#define coverage_dump() ((void) 0)
#endif

/* The end of a guarded body in a forked child: the body's process exits
 * here, and runs fn sigexit if it defined it (@{fn sigexit {echo x}}
 * >[2=1] prints x). */
void sig_exit_guarded(void)
{
	if (!in_child() || !frame_top()->sigexit || skipping != SKIP_NONE)
		return;
	frame_top()->sigexit = false;
	Node *fn = fn_get("sigexit");
	if (fn != NULL)
		fn_call("sigexit", fn, NULL);
}

/* Leave the process: fn sigexit first, where the process model says
 * (state.c): always in the shell itself. */
NORETURN void rc_exit(int code)
{
	if ((!in_child() || frame_top()->sigexit) && sig_exit_handler())
		code = status_exit_code();
	jobs_leave();
	rc_exit_early(code);
}

/* Leave before the shell has started (bad flags, a script it cannot
 * open): no fn sigexit, not even one from the environment, since nothing
 * ran that it could end (rc 1.7.4 runs none either).  Not by returning
 * from main: exit's own leak check would scan without the roots
 * leak_check registers. */
NORETURN void rc_exit_early(int code)
{
	coverage_dump();
	leak_check();
	exit_now(code & 0xff);
	_exit(code & 0xff);	/* not reached: for NORETURN, which exit_now's type cannot carry */
}
