/* SPDX-License-Identifier: Zlib */
/* history.c: $history, the file of the lines typed, and the editor's
 * history: each command typed is one entry of both, and the file is loaded
 * into the editor when it starts (trimmed to $historysize entries).  The
 * history tools (-, -p, --, --p, -l in builtins.c) find entries here. */
#include "rc.h"
#include "sys.h"
#include "../lineedit/le.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
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
/* More shells starting at once than anyone runs (history_open_append). */
enum { HISTORY_TRIES = 1000 };

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

/* Shells that trim the file (history_load) replace it with a shorter copy
 * under a lock of the whole file; one that appends takes the same lock,
 * and if the name has meanwhile come to mean the new copy, appends there:
 * what it would write to the old one would be lost.  Where the system has
 * no such locks (some network file systems), appending goes on without. */
static bool history_lock(int fd)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int r;
	while ((r = fcntl(fd, F_SETLKW, &l)) != 0 && errno == EINTR)
		continue;
	return r == 0;
}

static bool history_still_named(int fd, const char *name)
{
	struct stat open, named;
	return fstat(fd, &open) != 0 || stat(name, &named) != 0 ||
		(open.st_dev == named.st_dev && open.st_ino == named.st_ino);
}

/* A descriptor of the file name open with flags, or -1; *locked says
 * whether it is locked.  Each new try follows a trim by another shell,
 * which happens once as a shell starts. */
static int history_open_locked(const char *name, int flags, bool *locked)
{
	for (int tries = 1;; tries++) {
		int fd = open(name, flags | O_CLOEXEC, 0600);
		*locked = fd >= 0 && history_lock(fd);
		if (!*locked || history_still_named(fd, name) || tries == HISTORY_TRIES)
			return fd;
		close(fd);	/* trimmed meanwhile: the new file */
	}
}

/* A descriptor of $history open for appending and locked, or -1 (reported
 * once).  A new file is made mode 0600 (the lines typed are private, as
 * bash keeps them; one that exists keeps its mode), and a file of another
 * user is never added to (su to root with the user's $history exported,
 * or from root to a user). */
static int history_open_append(const char *name)
{
	bool locked;
	int fd = history_open_locked(name, O_WRONLY | O_APPEND | O_CREAT, &locked);
	if (fd < 0) {
		history_refuse(name, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_uid != geteuid()) {
		history_refuse(name, "owned by another user");
		close(fd);
		return -1;
	}
	return fd;
}

/* The last entry this shell wrote or loaded, for $nohistorydups. */
static Str last_entry;

static bool history_repeats(const char *text, size_t len)
{
	return var_get("nohistorydups") != NULL && last_entry.len == len &&
		memcmp(last_entry.buf, text, len) == 0;
}

static void history_remember(const char *text, size_t len)
{
	last_entry.len = 0;
	str_add(&last_entry, text, len);
}

/* Append an entry (its lines, with their newlines; marked first if they
 * are several) unless it repeats the last one and $nohistorydups is set. */
static void history_append(const char *text, size_t len, size_t lines)
{
	List *h = var_get("history");
	if (h == NULL || history_repeats(text, len))
		return;
	history_remember(text, len);
	int fd = history_open_append(h->w);
	if (fd < 0)
		return;
	Str s = { 0 };
	if (lines > 1)
		str_fmt(&s, "%s%lu\n", history_mark, (unsigned long) lines);
	str_add(&s, text, len);
	writeall(fd, s.buf, s.len);	/* one write: one piece beside other shells' */
	free(s.buf);
	close(fd);
}

static size_t count_lines(const char *text, size_t len)
{
	size_t lines = 0;
	for (const char *p = text; (p = memchr(p, '\n', text + len - p)) != NULL; p++)
		lines++;
	return lines;
}

/* An entry of the file and of the editor: text with its last newline. */
static void history_enter(char *text, size_t len)
{
	size_t lines = count_lines(text, len);
	if (lines > 1 || history_worth(text, len))
		history_append(text, len, lines);
	text[len - 1] = '\0';	/* the editor's entry has no last newline */
	le_add_history(text);
	text[len - 1] = '\n';
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
	history_enter(typed.buf, typed.len);
	typed.len = 0;
}

/* A command the history tools run (text without its last newline): an
 * entry, so that Up finds it rather than the tool's own line. */
void history_add(const char *text)
{
	Str s = { 0 };
	str_adds(&s, text);
	str_addc(&s, '\n');
	history_enter(s.buf, s.len);
	free(s.buf);
}

/* What an interactive shell reads from fd 0 when it is not a terminal
 * goes to $history as it comes. */
void history_read(const char *text, size_t len)
{
	if (history_worth(text, len))
		history_append(text, len, 1);
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

static const char *line_end(const char *p, const char *lim)
{
	const char *e = memchr(p, '\n', lim - p);
	return e != NULL ? e : lim;
}

/* One entry of the file: from record (its history_mark line, if it has
 * one) and text (the command) to end (its last newline, or the end of
 * the file); the next starts at next. */
typedef struct {
	const char *record, *text, *end, *next;
} Entry;

/* The entry at p, a line or the lines a history_mark line announces. */
static Entry entry_at(const char *p, const char *lim)
{
	Entry en = { p, p, line_end(p, lim), NULL };
	size_t lines = history_marked(p, en.end);
	if (lines > 0 && en.end + 1 < lim) {
		en.text = en.end + 1;
		en.end = line_end(en.text, lim);
		for (size_t j = 1; j < lines && en.end < lim; j++)
			en.end = line_end(en.end + 1, lim);
	}
	en.next = en.end < lim ? en.end + 1 : lim;
	return en;
}

/* The file named by $history, whole: mapped where it can be, not read:
 * a 200,000-line history is 9 MB, and copying it into fresh memory cost
 * more than the editor's own work on it.  (A file truncated by another
 * process while mapped would end the shell with SIGBUS: shells only append
 * to $history, and trim it by renaming a copy over it.) */
typedef struct {
	const char *name;
	int fd;
	char *text;
	size_t len;
	bool mapped, locked;	/* locked: open for writing, to trim it */
} HistFile;

/* Linux maps all of a file's pages at once with MAP_POPULATE. */
#if HAVE_DECL_MAP_POPULATE
#define MAP_PREFAULT MAP_POPULATE
#else
#define MAP_PREFAULT 0
#endif

/* Read f->fd whole.  False if it cannot be read. */
static bool histfile_read(HistFile *f)
{
	struct stat st;
	if (fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_PREFAULT, f->fd, 0);
		if (map != MAP_FAILED) {
			f->text = map;
			f->len = st.st_size;
			f->mapped = true;
			return true;
		}
	}
	Str all = { 0 };
	char buf[INPUT_CHUNK];
	ssize_t k;
	while ((k = read(f->fd, buf, sizeof buf)) > 0)
		str_add(&all, buf, k);
	f->text = all.buf;
	f->len = all.len;
	return k == 0;
}

static void histfile_close(HistFile *f)
{
	if (f->mapped)
		munmap(f->text, f->len);
	else
		free(f->text);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* $historysize as a number of entries, or 0: no limit. */
static size_t history_size(void)
{
	List *v = var_get("historysize");
	if (v == NULL || v->w[0] < '0' || v->w[0] > '9')
		return 0;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v->w, &end, 10);
	return *end != '\0' || errno != 0 || n > SIZE_MAX ? 0 : (size_t) n;
}

static size_t count_entries(const char *text, size_t len)
{
	size_t n = 0;
	for (const char *p = text, *lim = text + len; p < lim; p = entry_at(p, lim).next)
		n++;
	return n;
}

/* Write text to a new file beside the one named and rename it over that,
 * in its mode: the file is whole at every moment, and a full disk or any
 * other failure leaves it as it was. */
static bool replace_file(const char *name, const struct stat *st, const char *text, size_t len)
{
	char *real = realpath(name, NULL);	/* a link stays a link */
	const char *target = real != NULL ? real : name;
	char *tmp = nfmt("%s.rc-trimXXXXXX", target);
	int fd = mkstemp_cloexec(tmp);
	bool ok = fd >= 0 && fchmod(fd, st->st_mode & 07777) == 0 &&
		writeall(fd, text, len) == 0 && fsync(fd) == 0;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (ok)
		ok = rename(tmp, target) == 0;
	if (!ok && fd >= 0)
		unlink(tmp);
	free(real);
	return ok;
}

/* Keep the last $historysize entries of f, whole, if it holds more: the
 * text left to load is from *start.  f is locked, so that no shell appends
 * meanwhile.  A file of another user is not written. */
static void history_trim(HistFile *f, const char **start)
{
	size_t keep = history_size();
	struct stat st;
	if (keep == 0 || fstat(f->fd, &st) != 0 || st.st_uid != geteuid())
		return;
	size_t n = count_entries(f->text, f->len);
	if (n <= keep)
		return;
	const char *p = f->text, *lim = f->text + f->len;
	for (size_t skip = n - keep; skip > 0; skip--)
		p = entry_at(p, lim).next;
	if (replace_file(f->name, &st, p, lim - p))
		*start = p;
}

/* Give the editor the entries from p to lim; the last is the last one
 * loaded, for $nohistorydups. */
static void history_add_entries(const char *p, const char *lim)
{
	Str entry = { 0 };
	for (Entry en; p < lim; p = en.next) {
		en = entry_at(p, lim);
		entry.len = 0;
		str_add(&entry, en.text, en.end - en.text);
		str_addc(&entry, '\n');
		history_remember(entry.buf, entry.len);
		entry.buf[entry.len - 1] = '\0';
		le_add_history(entry.buf);
	}
	free(entry.buf);
}

/* Without an editor only the last entry is kept, for $nohistorydups. */
static void history_remember_last(const char *p, const char *lim)
{
	Entry last = { NULL, NULL, NULL, NULL };
	for (; p < lim; p = last.next)
		last = entry_at(p, lim);
	if (last.text != NULL) {
		history_remember(last.text, last.end - last.text);
		str_addc(&last_entry, '\n');
	}
}

/* Open $history: for reading, or to trim it (written and locked, when
 * $historysize is set; read only if that cannot be done).  False if it
 * cannot be opened. */
static bool histfile_open(HistFile *f, bool trim)
{
	List *h = var_get("history");
	*f = (HistFile) { .fd = -1 };
	if (h == NULL)
		return false;
	f->name = h->w;
	if (trim && history_size() > 0)
		f->fd = history_open_locked(f->name, O_RDWR, &f->locked);
	if (f->fd >= 0 && !f->locked) {
		close(f->fd);
		f->fd = -1;
	}
	if (f->fd < 0)
		f->fd = open(f->name, O_RDONLY | O_CLOEXEC);
	return f->fd >= 0;
}

/* Trim $history to the last $historysize entries, and load it into the
 * editor's memory if there is an editor. */
void history_load(void)
{
	HistFile f;
	bool wanted = le_active() || history_size() > 0 || var_get("nohistorydups") != NULL;
	if (!wanted || !histfile_open(&f, true))
		return;	/* a shell without an editor reads it only for those */
	if (histfile_read(&f)) {
		const char *start = f.text;
		if (f.locked)
			history_trim(&f, &start);
		close(f.fd);	/* unlocked: the editor's work needs no lock */
		f.fd = -1;
		if (le_active())
			history_add_entries(start, f.text + f.len);
		else
			history_remember_last(start, f.text + f.len);
	}
	histfile_close(&f);
}

/* The history tools: -, -p, --, --p and -l (builtins.c) read the entries
 * of $history, the newest last.  Their own lines are no candidates. */
static bool tool_line(const Entry *en)
{
	static const char *const tools[] = { "-", "--", "-p", "--p", "-l" };
	const char *p = en->text;
	while (p < en->end && (*p == ' ' || *p == '\t'))
		p++;
	size_t len = strcspn(p, " \t\n;");
	if (len > (size_t) (en->end - p))
		len = en->end - p;
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
		if (strlen(tools[i]) == len && memcmp(p, tools[i], len) == 0)
			return true;
	return false;
}

static const char *find_in(const char *p, const char *lim, const char *w, size_t len)
{
	if (len == 0)
		return p;
	for (; (size_t) (lim - p) >= len && (p = memchr(p, *w, lim - p - len + 1)) != NULL; p++)
		if (memcmp(p, w, len) == 0)
			return p;
	return NULL;
}

/* The pattern a word of the tools' arguments searches for: the word, or
 * in a substitution old:new the old text. */
static size_t pattern_len(const char *w)
{
	return strcspn(w, ":");
}

/* Every word's pattern is somewhere in the entry. */
static bool entry_matches(const Entry *en, List *words)
{
	if (tool_line(en) ||
	    (en->text == en->record && !history_worth(en->text, en->end - en->text)))
		return false;
	for (; words != NULL; words = words->n)
		if (find_in(en->text, en->end, words->w, pattern_len(words->w)) == NULL)
			return false;
	return true;
}

/* Call f for each entry of $history that every pattern of words matches,
 * oldest first.  False (reported) if there is no such file. */
static bool history_each(const char *tool, List *words, void (*f)(const Entry *, void *), void *ctx)
{
	HistFile file;
	if (var_get("history") == NULL) {
		print_error("rc: %s: $history is not set", tool);
		return false;
	}
	if (!histfile_open(&file, false) || !histfile_read(&file)) {
		print_error("rc: %s: %s: %s", tool, var_get("history")->w, strerror(errno));
		histfile_close(&file);
		return false;
	}
	for (const char *p = file.text, *lim = p + file.len; p < lim;) {
		Entry en = entry_at(p, lim);
		if (entry_matches(&en, words))
			f(&en, ctx);
		p = en.next;
	}
	histfile_close(&file);
	return true;
}

static void add_entry_line(const Entry *en, void *ctx)
{
	str_add(ctx, en->text, en->end - en->text);
	str_addc(ctx, '\n');
}

/* -l: the entries the patterns match, each with its newline, in out.
 * (Not history_list: readline and libedit have one, which a static
 * build links beside this.) */
bool history_matching(List *patterns, Str *out)
{
	return history_each("-l", patterns, add_entry_line, out);
}

static void keep_entry(const Entry *en, void *ctx)
{
	Str *s = ctx;
	s->len = 0;
	str_add(s, en->text, en->end - en->text);
}

/* Replace the first n times old (of length len) appears in s with new,
 * each after the last replacement. */
static void substitute(Str *s, const char *old, size_t len, size_t n, const char *new)
{
	Str r = { 0 };
	const char *p = s->buf, *lim = s->buf + s->len, *at;
	for (; n > 0 && len > 0 && (at = find_in(p, lim, old, len)) != NULL; n--) {
		str_add(&r, p, at - p);
		str_adds(&r, new);
		p = at + len;
	}
	str_add(&r, p, lim - p);
	free(s->buf);
	*s = r;
}

/* -, -p, -- and --p: the newest entry every word's pattern matches, with
 * the substitutions among the words made, left to right: old:new replaces
 * the first old, old::new the first two, and so on.  The text (no last
 * newline) is put in out; false (reported) if there is none. */
bool history_pick(const char *tool, List *words, Str *out)
{
	out->len = 0;
	if (!history_each(tool, words, keep_entry, out))
		return false;
	if (out->len == 0) {
		print_error("rc: %s: no command in %s matches", tool, var_get("history")->w);
		return false;
	}
	for (; words != NULL; words = words->n) {
		const char *w = words->w;
		size_t len = pattern_len(w), colons = strspn(w + len, ":");
		if (colons > 0)
			substitute(out, w, len, colons, w + len + colons);
	}
	str_addc(out, '\0');
	out->len--;
	return true;
}
