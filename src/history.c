/* SPDX-License-Identifier: Zlib */
/* history.c: $history, the file of the lines typed, and the editor's
 * history: each command typed is one entry of both, and the file is loaded
 * into the editor when it starts. */
#include "rc.h"
#include "../lineedit/le.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The $history file is plain text, one line per line typed.  A command
 * typed over several lines is written at once, after a comment line that
 * says how many lines it has, so that the editor recalls it whole:
 *	#rc-lines 2
 *	for (i in a b) {
 *	echo $i }
 * rc 1.7.4 and history(1) read that as comment and commands, and lines
 * written by them, one a line, load one a line. */
static const char history_mark[] = "#rc-lines ";
/* More lines than anyone types: a bigger count is no mark of ours. */
enum { HISTORY_MARK_MOST = 99999999 };

/* Blank lines and comments are not kept; text of several lines is. */
static bool history_worth(const char *text, size_t len)
{
	const char *p = text;
	while (p < text + len && (*p == ' ' || *p == '\t'))
		p++;
	return p < text + len && *p != '#' && *p != '\n';
}

/* The history file that could not be written, reported once: a message
 * on every line typed hides the work (an exported $history naming root's
 * file, after su). */
static char *unwritable;

static void history_refuse(const char *name, const char *why)
{
	if (unwritable != NULL && strcmp(unwritable, name) == 0)
		return;
	free(unwritable);
	unwritable = estrdup(name);
	print_error("rc: %s: %s (history not written)", name, why);
}

/* The lines typed are private, as bash keeps them: a new file is made
 * mode 0600 (one that exists keeps its mode), and a file of another user
 * is never added to (su to root with the user's $history exported, or
 * from root to a user). */
static void history_append(const char *text, size_t len)
{
	List *h = var_get("history");
	if (h == NULL)
		return;
	int fd = open(h->w, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		history_refuse(h->w, strerror(errno));
		return;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_uid != geteuid())
		history_refuse(h->w, "owned by another user");
	else
		writeall(fd, text, len);
	close(fd);
}

/* The lines typed at the terminal since the last command was read whole:
 * one entry of the editor's history and of $history. */
static Str typed;

/* A line read from the terminal (with its newline). */
void history_typed(const char *text, size_t len)
{
	str_add(&typed, text, len);
}

/* The command whose lines were typed is read whole: it is one entry. */
void history_commit(void)
{
	if (typed.len == 0)
		return;
	size_t lines = 0;
	for (const char *p = typed.buf; (p = memchr(p, '\n', typed.buf + typed.len - p)) != NULL; p++)
		lines++;
	if (lines > 1) {
		Str s = { 0 };
		str_fmt(&s, "%s%lu\n", history_mark, (unsigned long) lines);
		str_add(&s, typed.buf, typed.len);
		history_append(s.buf, s.len);
		free(s.buf);
	} else if (history_worth(typed.buf, typed.len))
		history_append(typed.buf, typed.len);
	typed.buf[typed.len - 1] = '\0';	/* the editor's entry has no last newline */
	le_add_history(typed.buf);
	typed.len = 0;
}

/* What an interactive shell reads from fd 0 when it is not a terminal
 * goes to $history as it comes. */
void history_read(const char *text, size_t len)
{
	if (history_worth(text, len))
		history_append(text, len);
}

/* The number of lines a history_mark line from p to e announces, or 0. */
static size_t history_marked(const char *p, const char *e)
{
	size_t len = sizeof history_mark - 1, lines = 0;
	if ((size_t) (e - p) <= len || memcmp(p, history_mark, len) != 0)
		return 0;
	for (p += len; p < e; p++) {
		if (*p < '0' || *p > '9' || lines > HISTORY_MARK_MOST)
			return 0;
		lines = lines * 10 + (*p - '0');
	}
	return lines;
}

/* Linux maps all of a file's pages at once with MAP_POPULATE. */
#if HAVE_DECL_MAP_POPULATE
#define MAP_PREFAULT MAP_POPULATE
#else
#define MAP_PREFAULT 0
#endif

static const char *line_end(const char *p, const char *lim)
{
	const char *e = memchr(p, '\n', lim - p);
	return e != NULL ? e : lim;
}

/* Give the editor the entries of text: a line an entry, or the lines a
 * history_mark line announces, with their newlines. */
static void history_add_entries(const char *text, size_t len)
{
	const char *lim = text + len;
	Str entry = { 0 };
	for (const char *p = text, *e; p < lim; p = e + 1) {
		e = line_end(p, lim);
		size_t lines = history_marked(p, e);
		if (lines > 0 && e + 1 < lim) {
			p = e + 1;
			e = line_end(p, lim);
			for (size_t j = 1; j < lines && e < lim; j++)
				e = line_end(e + 1, lim);
		}
		entry.len = 0;
		str_add(&entry, p, e - p);
		le_add_history(entry.buf);
	}
	free(entry.buf);
}

/* Load $history into the editor's memory.  A regular file is mapped, not
 * read: a 200,000-line history is 9 MB, and copying it into fresh memory
 * cost more than the editor's own work on it.  (A file truncated by
 * another process during the load would end the shell with SIGBUS: shells
 * only append to $history.) */
void history_load(void)
{
	List *h = var_get("history");
	if (h == NULL)
		return;
	int fd = open(h->w, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	void *map = MAP_FAILED;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_PREFAULT, fd, 0);
	if (map != MAP_FAILED) {
		close(fd);
		history_add_entries(map, st.st_size);
		munmap(map, st.st_size);
		return;
	}
	Str all = { 0 };
	char buf[INPUT_CHUNK];
	ssize_t k;
	while ((k = read(fd, buf, sizeof buf)) > 0)
		str_add(&all, buf, k);
	close(fd);
	if (all.len > 0)
		history_add_entries(all.buf, all.len);
	free(all.buf);
}
