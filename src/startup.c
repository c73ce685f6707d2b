/* SPDX-License-Identifier: Zlib */
/* startup.c: the command line, the shell's initial variables, and which
 * input to read.  A script start does only what a script needs: no locale,
 * no signal set-up, no line editor, no start-up file. */
#include "rc.h"
#include "../lineedit/le.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>


/* The arguments as a list in permanent memory, kept as a constant value:
 * the strings live as long as the shell. */
static List *words(char **v, int n)
{
	List *head = NULL, **tail = &head;
	for (int i = 0; i < n; i++) {
		*tail = palloc(sizeof **tail);
		**tail = (List) { v[i], NULL, NULL };
		tail = &(*tail)->n;
	}
	return head;
}

/* The shell's own initial values, constant lists used without copying. */
static void defaults(void)
{
	static List ifs[] = { { " ", NULL, &ifs[1] }, { "\t", NULL, &ifs[2] }, { "\n", NULL, NULL } };
	static List prompt[] = { { "; ", NULL, &prompt[1] }, { "", NULL, NULL } };
	static List version = { PACKAGE_VERSION, NULL, NULL };
	static List nl = { "\n", NULL, NULL }, tab = { "\t", NULL, NULL };
	var_set_const("ifs", ifs, false);
	var_set_const("prompt", prompt, false);
	var_set_const("version", &version, false);
	var_set_const("nl", &nl, true);
	var_set_const("tab", &tab, true);
}

/* Without -o, descriptors 0, 1 and 2 are made to exist (one poll says
 * which are closed: POLLNVAL). */
static void open_std(void)
{
	struct pollfd p[3] = { { .fd = 0 }, { .fd = 1 }, { .fd = 2 } };
	if (poll(p, 3, 0) <= 0)
		return;
	for (int fd = 0; fd < 3; fd++)
		if (p[fd].revents & POLLNVAL) {
			int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

/* Flags; returns the index of the first argument, or -1 after an error. */
static int options(int argc, char **argv, const char **cmd)
{
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1;
		for (const char *f = argv[i] + 1; *f; f++) {
			switch (*f) {
			case 'c':
				flag.c = true;
				if (f[1] != '\0')
					*cmd = f + 1;
				else if (i + 1 < argc)
					*cmd = argv[++i];
				else {
					fprint(2, "%s: option requires an argument -- c\n", argv[0]);
					return -1;
				}
				return i + 1;	/* -c ends the options: its string follows */
			case 'd': flag.d = true; break;
			case 'e': flag.e = true; break;
			case 'i': flag.i = true; break;
			case 'I': flag.I = true; break;
			case 'l': flag.l = true; break;
			case 'n': flag.n = true; break;
			case 'o': flag.o = true; break;
			case 'p': flag.p = true; break;
			case 's': flag.s = true; break;
			case 'v': flag.v = true; break;
			case 'x': flag.x = true; break;
			default:
				fprint(2, "%s: bad option: -%c\n", argv[0], *f);
				return -1;
			}
		}
	}
	return i;
}

/* $home/.rcrc for a login shell; a missing file is not an error.  No
 * mistake in it may lock the user out: an error (a syntax error too,
 * reported with the file's name and the line) ends the file, not the
 * shell, which goes on with what the file had done; so does ^C in a shell
 * that reads what is typed (in rc -c or a script it ends the shell, as
 * ^C does there).  exit in it still exits. */
static void login_file(void)
{
	List *home = var_get("home");
	if (home == NULL)
		return;
	char *path = nfmt("%s/.rcrc", home->w);
	if (access(path, F_OK) != 0)
		return;
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		dot_file(mklist(path, NULL, NULL), false, true);
		catch_pop(&c);
	} else if (catch_raised == eInterrupt && !typed_shell())
		rc_exit(1);
	else if (catch_raised == eInterrupt)
		writeall(2, "\n", 1);	/* the prompt on a line of its own */
}

/* What an error puts back as it unwinds to a catcher, module by module,
 * in this order: the local variables first, so that the $bqstatus a
 * redirection saved (redir.c) goes back into the variable they leave;
 * the others are independent.  Then the rule for the errors of a process
 * that an error ends (walk_on_error).  Also for a program that runs the
 * shell's parts without rc_main (tests/fuzz). */
void catch_steps(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	catch_register(&var_catch_step);
	catch_register(&fd_catch_step);
	for (int i = 0; i < 3; i++)
		catch_register(&fn_catch_steps[i]);
	catch_register(&nmpipe_catch_step);
	catch_register(&frame_catch_step);
	catch_register(&job_catch_step);
	catch_register(&walk_catch_step);
	catch_on_error(walk_on_error);
}

/* The library $RC_EDITLIB names (a variable of the shell: ~/.rcrc, which
 * has run, may have set it). */
static void input_setup_editor(void)
{
	List *choice = var_get("RC_EDITLIB");
	if (le_init("rc", choice != NULL ? choice->w : NULL)) {
		names_offer();
		completers_offer();
		keys_offer();
	}
	history_load();
}

/* fn prompt, before a command's first prompt (not with -n, which runs
 * nothing).  What it runs (a backquote, most often) leaves $status and
 * $bqstatus as the command before the prompt set them: the user looks at
 * those at the prompt, as bash keeps $? across PROMPT_COMMAND.  An error
 * in it, reported, still gives the prompt: unwinding to the top level
 * would run it again before the next one, for ever. */
static void run_prompt_fn(void)
{
	Node *fn = fn_get("prompt");
	if (fn == NULL || flag.n)
		return;
	StatusCopy saved = status_save();
	var_push_local("bqstatus", var_get("bqstatus"));
	Catch c;
	catch_push(&c);
	if (sigsetjmp(c.buf, 0) == 0) {
		fn_call("prompt", fn, NULL);
		catch_pop(&c);
	} else if (catch_raised != eError) {
		status_restore(saved);
		rc_raise(catch_raised);	/* the local goes as this unwinds */
	}
	var_pop_local();
	status_restore(saved);
}

/* Before a command's first prompt: fn prompt, then $keys to the editor
 * if fn prompt or the command before changed it. */
static void before_prompt(void)
{
	run_prompt_fn();
	keys_sync();
}

int rc_main(int argc, char **argv, char **envp)
{
	static const InputHooks hooks = {
		before_prompt, sig_prompt_interrupt, read_forget, rc_exit,
	};
	input_set_hooks(&hooks);
	const char *cmd = NULL;
	stack_init(&cmd, envp, false);
	catch_steps();
	const char *argv0 = argv[0];	/* a login shell's begins with - */
	int i = options(argc, argv, &cmd);
	if (i < 0)
		rc_exit_early(1);
	if (!flag.o)
		open_std();
	defaults();
	sym_lookup("pid", true)->flags |= S_PID | S_NOEXPORT;
	env_import(envp, !flag.p);
	if (var_get("path") == NULL) {
		static List path[] = {
			{ "/usr/local/bin", NULL, &path[1] }, { "/usr/bin", NULL, &path[2] },
			{ "/bin", NULL, &path[3] }, { ".", NULL, NULL },
		};
		var_import("path", path);	/* constant, as defaults' */
	}
	bool script = !flag.c && !flag.s && i < argc;
	interactive = flag.i || (!flag.c && !script && !flag.I && isatty(0));
	if (flag.I)
		interactive = false;
	if (interactive && !flag.c && !script) {
		typed_shell_set();
		if (isatty(0))
			completers_default();	/* before ~/.rcrc, which may add to it */
	}
	signals_init();
	if (flag.l || argv0[0] == '-')
		login_file();
	var_set_const("0", words(argv, 1), false);
	if (flag.s)
		flag.c = false;	/* -s wins over -c: it reads standard input */
	if (flag.c) {
		var_set_const("*", words(argv + i, argc - i), false);
		input_string(cmd, false);
		if (interactive)
			input_recover();
	} else if (script) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			print_error("rc: %s: %s", argv[i], strerror(errno));
			rc_exit_early(1);
		}
		fd = fd_move_high(fd);
		var_set_const("0", words(argv + i, 1), false);
		var_set_const("*", words(argv + i + 1, argc - i - 1), false);
		input_fd(fd);
		if (interactive)
			input_recover();
	} else {
		var_set_const("*", words(argv + i, argc - i), false);
		if (interactive && isatty(0)) {
			setlocale(LC_ALL, "");
			input_setup_editor();
			input_interactive();
		} else if (interactive) {
			history_load();	/* trims it to $historysize */
			input_interactive();
		} else
			input_fd(0);
	}
	int code = input_loop();
	lineno = -1;	/* an error in fn sigexit at the end of the input: no line */
	rc_exit(code);
}
