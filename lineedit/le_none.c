/* SPDX-License-Identifier: Zlib */
/* le_none.c: the backend of a build without line editing: only the plain reader. */
#include "config.h"

#include <stdlib.h>

#include "le.h"
#include "le_impl.h"

bool le_init(const char *progname, const char *choice)
{
	(void) progname;
	(void) choice;
	return false;
}

char *le_readline(const char *prompt, bool *interrupted)
{
	return le_plain_readline(prompt, interrupted);
}

void le_free(char *line)
{
	free(line);
}

void le_add_history(const char *line)
{
	(void) line;
}

void le_set_lister(LeLister *lister)
{
	(void) lister;
}

void le_set_completer(LeCompleter *completer)
{
	(void) completer;
}

void le_bind_keys(const char *const *words, int n)
{
	(void) words;
	(void) n;
}

void le_set_key_hook(LeKeyHook *hook)
{
	(void) hook;
}

void le_keys_allow(bool allow)
{
	(void) allow;
}

void le_disable(void)
{
}

const char *le_backend(void)
{
	return "none";
}

bool le_active(void)
{
	return false;
}

void le_editor_info(const char *info[3])
{
	info[0] = "none";
	info[1] = info[2] = NULL;
}
