/* SPDX-License-Identifier: Zlib */
/* le-demo.c: a tiny line reader over lineedit/, the program the pty tests drive
 * until the shell can stand in for it.  Prints `got: [line]' for each line.
 * Options: -1 reads one line only; -H LINE adds LINE to the history before
 * the first prompt (as the shell does with its history file). */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "le.h"

extern char **environ;

static const char *const commands[] = {
	"builtin", "cd", "echo", "eval", "exec", "exit", "whatis", "demo-builtin",
	"demo cmd", NULL
};

static void demo_lister(LeKind kind, const char *var, LeNameFn *each, void *ctx)
{
	const char *const *c;
	char **e, name[256];
	size_t n;

	if (kind == LE_COMMANDS) {
		for (c = commands; *c != NULL; c++)
			each(*c, ctx);
		return;
	}
	if (kind == LE_VALUE) {	/* from the environment, one word */
		if (getenv(var) != NULL)
			each(getenv(var), ctx);
		return;
	}
	if (kind == LE_FUNCTIONS)
		return;
	for (e = environ; *e != NULL; e++) {
		n = strcspn(*e, "=");
		if (n < sizeof name) {
			memcpy(name, *e, n);
			name[n] = '\0';
			each(name, ctx);
		}
	}
}

static void on_signal(int sig)
{
	le_on_signal(sig);
}

static void catch(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: a read must see EINTR */
	sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
	bool interrupted;
	int once = 0, i;
	char *line;

	setlocale(LC_ALL, "");
	catch(SIGINT);
#if HAVE_DECL_SIGWINCH
	catch(SIGWINCH);
#endif
	if (isatty(0))
		le_init("le-demo", getenv("RC_EDITLIB"));
	le_set_lister(demo_lister);
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-1") == 0)
			once = 1;
		else if (strcmp(argv[i], "-H") == 0 && i + 1 < argc)
			le_add_history(argv[++i]);
	printf("backend: %s\n", le_backend());
	for (;;) {
		fflush(stdout);
		line = le_readline("demo> ", &interrupted);
		if (line == NULL)
			break;
		if (interrupted)
			printf("[interrupt]\n");
		else
			printf("got: [%s]\n", line);
		if (!interrupted)
			le_add_history(line);
		le_free(line);
		if (once)
			return 0;
	}
	printf("bye\n");
	return 0;
}
