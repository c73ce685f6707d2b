/* SPDX-License-Identifier: Zlib */
/* loop.c: the read-parse-run loop: the shell's top level, and eval and .
 * run through it, each command read (input.c, parse.c), then run
 * (walk.c); what an error leaves of its input and of the shell. */
#include "rc.h"

#include <stdlib.h>

/* Before a command is read from a file or pipe that has nothing more
 * buffered: wait until there is input, running the handlers of the
 * signals that arrive meanwhile.  Shell code never runs while a command
 * is being read (a handler's eval or . would take over the lexer), so a
 * handler that arrives in the middle of one runs once it is read, before
 * it runs. */
static void await_command(void)
{
	int fd = input_idle_fd();
	if (fd >= 0)
		sig_await_input(fd);
}

/* Parse and run each command of the current input until it ends.
 * Errors are not caught here. */
static void run_all(void)
{
	for (;;) {
		Mark m = nmark();
		bool eof;
		input_command_start();
		last_error.failed = false;
		await_command();
		Node *n = parse_command(&eof);
		if (input_tty_line_done())
			history_commit();	/* the command's lines are all read: before it runs */
		/* a command cut off by the end of input: runtime errors give
		 * the line before, as the reference's count does */
		if (eof)
			lineno--;
		if (flag.n) {
			if (flag.x && n != NULL) {
				Str s = { 0 };
				tree_print(&s, n);
				str_addc(&s, '\n');
				writeall(2, s.buf, s.len);
				free(s.buf);
			}
		} else if (n != NULL) {
			walk(n, WALK_SHELL);
			if (sig_pending)
				sig_check();
		}
		nrelease(m);
		if (eof)
			return;
	}
}

/* The top level: an error ends a script (status 1) but not an
 * interactive shell, which reads on, unless -e and the error failed
 * $status outside a condition (a syntax error does not: last_error.failed).
 * With -n, as in rc 1.7.4, every syntax error is reported: reading goes
 * on at the next line (the status is 1 at the end: DIFFERENCES). */
int input_loop(void)
{
	volatile bool syntax_failed = false;
	for (;;) {
		Catch c;
		Mark m = nmark();
		catch_push(&c);
		if (sigsetjmp(c.buf, 0) == 0) {
			run_all();
			catch_pop(&c);
			return syntax_failed ? 1 : status_exit_code();
		}
		int e = catch_raised;
		nrelease(m);
		bool in_cond = walk_reset();
		nmpipe_reap();
		/* -e: an error that failed the status (not a syntax error) */
		bool e_stops = flag.e && e == eError && last_error.failed && !status_true() && !in_cond;
		if (flag.n && e == eError) {
			/* a misplaced if not is no syntax error: it ends a script */
			if (parse_ifnot_taken() && as_script())
				rc_exit(1);
			syntax_failed = true;
			if (input_ended())
				return 1;
			/* a misplaced if not fails the status, which under
			 * -e ends an interactive shell also with -n, as in
			 * rc 1.7.4 */
			if (input_recovers() && e_stops)
				return status_exit_code();
		} else if (!input_recovers()) {
			/* rc 1.7.4 exits where -e stops it: an error of fn
			 * sigexit names that line, not the end's -1 */
			if (e_stops) {
				lineno = last_error.line;
				rc_exit(status_exit_code());
			}
			return e == eExit ? status_exit_code() : 1;
		} else if (e_stops)
			return status_exit_code();
		if (input_is_tty())
			history_commit();	/* a command abandoned or in error too */
		input_skip_line();
	}
}

/* Run the source just pushed to its end, then pop it, also on an error,
 * which goes on up to the caller.  as_script: errors are reported as a
 * script's, with line numbers, also in an interactive shell. */
static void run_pushed(bool as_script)
{
	int loops = nesting.loops, funcs = nesting.funcs;
	bool inter = interactive;
	nesting.loops = nesting.funcs = 0;	/* break and return do not cross eval or . */
	if (as_script)
		interactive = false;
	Catch c;
	volatile int e = 0;	/* set only after a raise, but gcc cannot tell */
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		run_all();
		catch_pop(&c);
	} else
		e = catch_raised;
	nesting.loops = loops;
	nesting.funcs = funcs;
	interactive = inter;
	input_pop();
	if (e != 0)
		rc_raise(e);
}

/* . file: run a file's commands here.  With -i the file is read as an
 * interactive shell reads, prompts and all, and errors do not end it,
 * but in a forked child (a pipeline's stage, say), which an error ends,
 * as in rc 1.7.4. */
void input_run_fd(int fd, bool prompting)
{
	input_fd(fd);
	if (prompting)
		input_prompt_lines();
	if (!prompting || in_child()) {
		run_pushed(false);
		return;
	}
	input_recover();
	input_loop();
	input_pop();
}

/* eval: errors are reported with line numbers, as the reference does */
void input_run_string(const char *s)
{
	input_string(s, true);
	run_pushed(true);
}
