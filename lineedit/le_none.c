/* le_none.c: the backend of a build without line editing: only the plain reader. */
#include "config.h"

#include <stdlib.h>

#include "le.h"
#include "le_impl.h"

int
le_init(const char *progname)
{
	(void)progname;
	return 0;
}

char *
le_readline(const char *prompt, int *interrupted)
{
	return le_plain_readline(prompt, interrupted);
}

void
le_free(char *line)
{
	free(line);
}

void
le_add_history(const char *line)
{
	(void)line;
}

void
le_set_lister(le_lister *lister)
{
	(void)lister;
}

void
le_disable(void)
{
}

const char *
le_backend(void)
{
	return "none";
}

int
le_active(void)
{
	return 0;
}

void
le_editor_info(const char *info[3])
{
	info[0] = "none";
	info[1] = info[2] = NULL;
}
