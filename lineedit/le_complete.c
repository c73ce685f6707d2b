/* SPDX-License-Identifier: Zlib */
/* le_complete.c: completion in rc's terms.  A small lexer finds the word
 * being completed and what it is for (a command, an argument of cd, fn or
 * whatis or of a command with a completer written in rc, a redirection's
 * file, a variable, a path through a variable); the shell lists the names
 * and runs the completers; the results are rc-quoted with the printer's
 * rule. */
#include "config.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "le.h"
#include "le_impl.h"
#include "quote.h"

typedef struct {
	char **v;
	size_t n, cap;
} Vec;

/* What a word is for, which decides what completes it. */
typedef enum {
	R_CMD,		/* a command name */
	R_ARG,		/* an argument of the command in Context */
	R_TARGET,	/* a redirection's file */
	R_VALUE,	/* the value in an assignment (x=value cmd) */
	R_FNNAME,	/* a name after fn */
	R_WRAPPED,	/* after sudo, env, ...: an option of theirs or a command */
	R_OPTARG,	/* the argument of such an option (sudo -u NAME) */
	R_IF,		/* after if or while: `(' opens a command, so does not */
	R_HEAD,		/* after for or switch: `(' opens words */
	R_NONE		/* nothing to offer (a here document's end marker) */
} Role;

/* The word being completed, as the shell will read it. */
typedef struct {
	int start;	/* where it begins in the line */
	bool quoted;	/* it has a quote in it */
	bool var;	/* it begins with an unquoted `$' */
	Role role;
	char *text;	/* its value, quotes removed, `$' excluded */
} Word;

/* The command whose arguments are being typed, when that matters. */
typedef struct {
	char cmd[8];	/* "cd", "fn", "whatis"; longer names are cut to "" */
	char wrapper[8];	/* the last of wrappers[] read */
	Vec words;	/* the command's words before the one being completed */
} Context;

/* The settings of the completion under way (le_complete). */
static LeCompletion opts;

/* Directories offered without a `/' (mark-directories off): after a single
 * one the editor adds no space either. */
static size_t unmarked_dirs;

/* The candidates came from a completer: one that ends in `:' or `=' (scp's
 * host:, make's VAR=) is not followed by a space, what comes next is part
 * of the same word. */
static bool by_completer;

/* Commands that run the command after them: that one completes as a
 * command, and its arguments with its own completer. */
static const char *const wrappers[] = { "sudo", "env", "nohup", "time" };

/* The lexer's state while scan() reads the line. */
typedef struct {
	Word *w;
	Context *cx;
	size_t n;		/* length of w->text so far */
	bool inword, inquote;
	Role next;		/* the role of a word that starts now */
	Role after_target;	/* the role to go back to after a redirection's file */
	Role parens[32];	/* for each open `(', the role after its `)' */
	int depth;
} Scanner;

static void push(Vec *vec, char *s)
{
	if (s == NULL)
		return;
	char **v = le_grow(vec->v, &vec->cap, vec->n + 2, sizeof *v);	/* and the NULL */
	if (v == NULL) {
		free(s);
		return;
	}
	vec->v = v;
	vec->v[vec->n++] = s;
	vec->v[vec->n] = NULL;
}

static char *concat(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	char *s = malloc(alen + blen + 1);
	if (s != NULL) {
		memcpy(s, a, alen);
		memcpy(s + alen, b, blen + 1);
	}
	return s;
}

/* The printer's rule (src/quote.c), so completion and whatis agree. */
char *le_quote(const char *s, bool force)
{
	char *q = malloc(QUOTE_ROOM(strlen(s)));
	if (q != NULL)
		quote_into(q, s, force);
	return q;
}

/* Start a word at line[i] unless one is being read (x$y, a'b' go on). */
static Word *begin_word(Scanner *sc, int i)
{
	if (!sc->inword) {
		sc->inword = true;
		sc->n = 0;
		sc->w->start = i;
		sc->w->quoted = sc->w->var = false;
		sc->w->role = sc->next;
	}
	return sc->w;
}

/* A fragment of the same word starts at line[i]: after `^' or at `$'. */
static void new_fragment(Scanner *sc, int i)
{
	sc->n = 0;
	sc->w->start = i;
	sc->w->quoted = sc->w->var = false;
}

static bool is(const Word *w, const char *keyword)
{
	return !w->quoted && !w->var && strcmp(w->text, keyword) == 0;
}

static bool has_prefix(const char *s, const char *prefix, size_t n)
{
	return (opts.ignore_case ? strncasecmp(s, prefix, n) : strncmp(s, prefix, n)) == 0;
}

static void clear_words(Vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	v->n = 0;
}

/* The word as the completer is given it: a variable as typed. */
static void add_word(Vec *words, const Word *w)
{
	push(words, w->var ? concat("$", 1, w->text) : strdup(w->text));
}

/* Whether a wrapper's option takes the next word as its argument. */
static bool takes_argument(const char *wrapper, const char *option)
{
	static const struct { const char *cmd, *letters; } table[] = {
		{ "sudo", "CDgpRrtTUu" }, { "env", "CSu" }, { "time", "fo" },
	};
	if (option[1] == '\0' || option[2] != '\0')
		return false;	/* -uNAME, --user=NAME */
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strcmp(table[i].cmd, wrapper) == 0)
			return strchr(table[i].letters, option[1]) != NULL;
	return false;
}

/* The role of the word after the command word w. */
static Role after_command(Scanner *sc, Word *w)
{
	clear_words(&sc->cx->words);
	if (is(w, "builtin") || is(w, "exec") || is(w, "!"))
		return R_CMD;
	for (size_t i = 0; i < sizeof wrappers / sizeof *wrappers; i++)
		if (is(w, wrappers[i])) {
			strcpy(sc->cx->wrapper, wrappers[i]);
			return R_WRAPPED;
		}
	if (is(w, "if") || is(w, "while"))
		return R_IF;
	if (is(w, "for") || is(w, "switch"))
		return R_HEAD;
	if (strlen(w->text) >= sizeof sc->cx->cmd || w->quoted || w->var)
		sc->cx->cmd[0] = '\0';
	else
		strcpy(sc->cx->cmd, w->text);
	add_word(&sc->cx->words, w);
	return is(w, "fn") ? R_FNNAME : R_ARG;
}

/* The role of the word after w. */
static Role role_after(Scanner *sc, Word *w)
{
	switch (w->role) {
	case R_WRAPPED:
		if (w->text[0] == '-' && !w->quoted && !w->var)
			return takes_argument(sc->cx->wrapper, w->text) ? R_OPTARG : R_WRAPPED;
		return after_command(sc, w);
	case R_OPTARG:
		return R_WRAPPED;
	case R_CMD:
		return after_command(sc, w);
	case R_ARG:
		add_word(&sc->cx->words, w);
		return R_ARG;
	case R_IF:
		return is(w, "not") ? R_CMD : R_ARG;
	case R_TARGET:
	case R_NONE:
		return sc->after_target;
	case R_VALUE:
		return R_CMD;
	case R_FNNAME:
		return R_FNNAME;
	default:
		return R_ARG;
	}
}

static void end_word(Scanner *sc)
{
	sc->w->text[sc->n] = '\0';
	sc->inword = false;
	sc->next = role_after(sc, sc->w);
}

/* A quote inside quotes: '' is one quote, a single one ends them. */
static void quoted_char(Scanner *sc, const char *line, int end, int *i)
{
	if (line[*i] != '\'')
		sc->w->text[sc->n++] = line[*i];
	else if (*i + 1 < end && line[*i + 1] == '\'')
		sc->w->text[sc->n++] = line[++*i];
	else
		sc->inquote = false;
}

/* `$', `$#', `$^' or `$"': a variable fragment whose text keeps the sigil. */
static void dollar(Scanner *sc, const char *line, int end, int *i)
{
	begin_word(sc, *i);
	new_fragment(sc, *i);
	sc->w->var = true;
	if (*i + 1 < end && strchr("#^\"", line[*i + 1]) != NULL)
		sc->w->text[sc->n++] = line[++*i];
}

static void caret(Scanner *sc, int i)
{
	if (sc->inword)
		new_fragment(sc, i + 1);
}

/* Skip a [n] or [n=m] after a redirection or `|' at line[*i + 1].
 * Returns 1 if it has a `=' (no file follows), 0 if not, -1 if the line
 * ends inside it. */
static int brackets(const char *line, int end, int *i)
{
	if (*i + 1 >= end || line[*i + 1] != '[')
		return 0;
	int j;
	bool dup = false;
	for (j = *i + 2; j < end && line[j] != ']'; j++)
		dup = dup || line[j] == '=';
	if (j == end)
		return -1;
	*i = j;
	return dup;
}

/* <, >, >>, <<, <{, >{, with [n] or [n=m]: what the next word is for.
 * Returns false if the line ends where nothing can be completed. */
static bool redirection(Scanner *sc, const char *line, int end, int *i)
{
	char c = line[*i];
	bool heredoc = false;
	if (*i + 1 < end && line[*i + 1] == c) {
		heredoc = c == '<';
		++*i;
	}
	if (*i + 1 < end && line[*i + 1] == '{') {
		++*i;
		sc->next = R_CMD;
		return true;
	}
	int dup = brackets(line, end, i);
	if (dup != 0)
		return dup > 0;
	if (sc->next != R_TARGET && sc->next != R_NONE)
		sc->after_target = sc->next;
	sc->next = heredoc ? R_NONE : R_TARGET;
	return true;
}

static void open_paren(Scanner *sc)
{
	Role inside = sc->next == R_IF ? R_CMD : R_ARG;
	bool command_follows = sc->next == R_IF || sc->next == R_HEAD || sc->next == R_VALUE;
	Role after = command_follows ? R_CMD : R_ARG;
	if (sc->depth < (int) (sizeof sc->parens / sizeof *sc->parens))
		sc->parens[sc->depth] = after;
	sc->depth++;
	sc->next = inside;
}

static void close_paren(Scanner *sc)
{
	if (sc->depth > 0 && --sc->depth < (int) (sizeof sc->parens / sizeof *sc->parens))
		sc->next = sc->parens[sc->depth];
	else
		sc->next = R_ARG;
}

/* One of LE_WORD_BREAKS outside a word: what the next word is for.
 * Returns false if the line ends where nothing can be completed. */
static bool punctuation(Scanner *sc, const char *line, int end, int *i, bool ended)
{
	switch (line[*i]) {
	case ' ':
	case '\t':
		return true;
	case '<':
	case '>':
		return redirection(sc, line, end, i);
	case '(':
		open_paren(sc);
		return true;
	case ')':
		close_paren(sc);
		return true;
	case '}':
		sc->next = R_ARG;
		return true;
	case '=':	/* x=value: only right after a command-position word */
		if (ended && (sc->w->role == R_CMD || sc->w->role == R_WRAPPED))
			sc->next = R_VALUE;
		return true;
	case '|':
		if (brackets(line, end, i) < 0)
			return false;
		break;
	}
	sc->next = R_CMD;	/* ; & | newline ` @ { */
	return true;
}

/* `@' and `=' in a word are part of it (me@host, --opt=x), but for the
 * `=' of an assignment (x=1 cmd, env X=1 cmd). */
static bool inside_word(const Word *w, char c)
{
	return c == '@' || (c == '=' && w->role != R_CMD && w->role != R_WRAPPED);
}

/* Read line[0..end) as rc's lexer would, far enough to know the last word
 * and what it is for.  Returns false if there is nothing to complete (inside
 * a comment or a redirection's [n=m]). */
static bool scan(const char *line, int end, Word *w, Context *cx)
{
	Scanner sc;
	memset(&sc, 0, sizeof sc);
	memset(w, 0, sizeof *w);
	memset(cx, 0, sizeof *cx);
	sc.w = w;
	sc.cx = cx;
	if ((w->text = malloc((size_t) end + 1)) == NULL)
		return false;
	for (int i = 0; i < end; i++) {
		char c = line[i];
		if (sc.inquote)
			quoted_char(&sc, line, end, &i);
		else if (c == '#')	/* $# is read by dollar() */
			return false;
		else if (c == '\'')
			begin_word(&sc, i)->quoted = sc.inquote = true;
		else if (c == '$')
			dollar(&sc, line, end, &i);
		else if (c == '^')
			caret(&sc, i);
		else if (sc.inword && inside_word(sc.w, c))
			sc.w->text[sc.n++] = c;
		else if (strchr(LE_WORD_BREAKS, c) != NULL) {
			bool ended = sc.inword;
			if (ended)
				end_word(&sc);
			if (!punctuation(&sc, line, end, &i, ended))
				return false;
		} else
			begin_word(&sc, i)->text[sc.n++] = c;
	}
	begin_word(&sc, end);
	w->text[sc.n] = '\0';
	return true;
}

/* Collects names into a vector, those that begin with prefix. */
typedef struct {
	Vec *out;
	const char *prefix;
	const char *sigil;	/* put before each name: "" or "$", "$#", "$^", "$\"" */
	bool names_only;	/* drop names that are not plain variable names */
} Collect;

static void collect_name(const char *name, void *ctx)
{
	Collect *c = ctx;
	if (*name == '\0' || !has_prefix(name, c->prefix, strlen(c->prefix)))
		return;
	if (c->names_only && !is_varname(name))
		return;
	push(c->out, concat(c->sigil, strlen(c->sigil), name));
}

static void names(Vec *out, LeLister *lister, LeKind kind,
	const char *prefix, const char *sigil)
{
	Collect c = { out, prefix, sigil, kind == LE_VARIABLES };
	if (lister != NULL)
		lister(kind, NULL, collect_name, &c);
}

/* The words of a variable's value. */
static void collect_word(const char *word, void *ctx)
{
	push(ctx, strdup(word));
}

static void value(Vec *out, LeLister *lister, const char *name)
{
	if (lister != NULL)
		lister(LE_VALUE, name, collect_word, out);
}

static void free_vec(Vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
}

typedef enum { F_ALL, F_DIRS, F_COMMANDS } Filter;

/* Whether a directory entry found as path is offered. */
static bool wanted(const char *path, Filter filter, bool *isdir)
{
	struct stat st;
	*isdir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	if (filter == F_ALL || *isdir)
		return true;
	return filter == F_COMMANDS && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Whether name in a directory matches base, the last part of the word.
 * Dot files only for a word starting with a dot; `..' for `.' and `..'. */
static bool matches(const char *name, const char *base)
{
	if (strcmp(name, ".") == 0)
		return false;
	if (strcmp(name, "..") == 0)
		return strcmp(base, ".") == 0 || strcmp(base, "..") == 0;
	if (name[0] == '.' && base[0] != '.' && !opts.hidden_files)
		return false;
	return has_prefix(name, base, strlen(base));
}

/* Whether a directory found as path, named name, gets its `/': a symbolic
 * link to one only when set so, or when it is the whole of what was typed
 * (base), as a second Tab on it gives. */
static bool marked(const char *path, const char *name, const char *base)
{
	struct stat st;
	if (!opts.mark_dirs)
		return false;
	return opts.mark_symlinked_dirs || strcmp(name, base) == 0 ||
		lstat(path, &st) != 0 || !S_ISLNK(st.st_mode);
}

/* The files whose path begins with look, each offered as look[shown..]
 * with its own name (and a `/' for a directory). */
static void list_files(Vec *out, const char *look, size_t shown, Filter filter)
{
	const char *slash = strrchr(look, '/');
	size_t dirlen = slash != NULL ? (size_t) (slash - look) + 1 : 0;
	char *dir = concat(look, dirlen, "");
	DIR *d = dir != NULL ? opendir(dirlen > 0 ? dir : ".") : NULL;
	if (d == NULL) {
		free(dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!matches(e->d_name, look + dirlen))
			continue;
		char *path = concat(dir, dirlen, e->d_name);
		if (path == NULL)
			continue;
		bool isdir;
		if (wanted(path, filter, &isdir)) {
			bool mark = isdir && marked(path, e->d_name, look + dirlen);
			unmarked_dirs += isdir && !mark;
			push(out, concat(path + shown, strlen(path + shown),
				mark ? "/" : ""));
		}
		free(path);
	}
	closedir(d);
	free(dir);
}

/* The directories under dir (an element of $cdpath) that text names. */
static void under_cdpath(Vec *out, const char *dir, const char *text)
{
	size_t len = strlen(dir);
	if (len == 0 || strcmp(dir, ".") == 0)
		return;		/* the current directory, done already */
	char *look = malloc(len + strlen(text) + 2);
	if (look == NULL)
		return;
	snprintf(look, len + strlen(text) + 2, "%s%s%s", dir,
		dir[len - 1] == '/' ? "" : "/", text);
	list_files(out, look, strlen(look) - strlen(text), F_DIRS);
	free(look);
}

/* cd: directories, here and (for a relative name) under each of $cdpath. */
static void cd_dirs(Vec *out, const char *text, LeLister *lister)
{
	list_files(out, text, 0, F_DIRS);
	if (text[0] == '/' || strncmp(text, "./", 2) == 0 || strncmp(text, "../", 3) == 0)
		return;
	Vec cdpath = { NULL, 0, 0 };
	value(&cdpath, lister, "cdpath");
	for (size_t i = 0; i < cdpath.n; i++)
		under_cdpath(out, cdpath.v[i], text);
	free_vec(&cdpath);
}

static size_t name_length(const char *s)
{
	size_t n = 0;
	while (is_varchar((unsigned char) s[n]))
		n++;
	return n;
}

/* $name/rest: the files under the variable's value (one word) that
 * value/rest names, offered with $name as typed and the rest quoted. */
static void through_variable(Vec *out, const Word *w, LeLister *lister,
	Filter filter)
{
	size_t len = name_length(w->text);
	char *head = malloc(len + 2);
	if (head == NULL)
		return;
	head[0] = '$';
	memcpy(head + 1, w->text, len);
	head[len + 1] = '\0';
	Vec val = { NULL, 0, 0 }, found = { NULL, 0, 0 };
	value(&val, lister, head + 1);
	char *look = val.n == 1 ? concat(val.v[0], strlen(val.v[0]), w->text + len) : NULL;
	if (look != NULL)
		list_files(&found, look, strlen(val.v[0]), filter);
	for (size_t i = 0; i < found.n; i++) {
		char *q = le_quote(found.v[i], w->quoted);
		if (q != NULL) {
			push(out, concat(head, len + 1, q));
			free(q);
		}
	}
	free(look);
	free(head);
	free_vec(&val);
	free_vec(&found);
}

/* After $, $#, $^ or $": variable names, or files through the variable. */
static void variable(Vec *out, const Word *w, LeLister *lister,
	Filter filter)
{
	char sigil[3] = "$";
	const char *name = w->text;
	if (*name != '\0' && strchr("#^\"", *name) != NULL)
		sigil[1] = *name++;
	if (name[name_length(name)] == '\0' && !w->quoted)
		names(out, lister, LE_VARIABLES, name, sigil);
	else if (sigil[1] == '\0' && name_length(name) > 0)
		through_variable(out, w, lister, filter);
}

/* What the command's completer prints for w, those that begin with it.
 * Returns whether it wrote on the terminal. */
static bool run_completer(Vec *out, const Word *w, Context *cx)
{
	if (opts.completer == NULL || cx->words.n == 0 || w->var)
		return false;
	size_t n = cx->words.n;
	push(&cx->words, strdup(w->text));
	if (cx->words.n == n)
		return false;	/* out of memory */
	Collect c = { out, w->text, "", false };
	LeCompleted done = opts.completer((const char *const *) cx->words.v,
		(int) cx->words.n, collect_name, &c);
	by_completer = out->n > 0;
	return done == LE_COMPLETER_SPOKE;
}

/* Candidates as the shell would see them, before quoting (a variable's
 * come quoted: only their tail is).  Returns whether a completer wrote on
 * the terminal. */
static bool candidates(Vec *out, Word *w, Context *cx,
	LeLister *lister)
{
	bool path = strchr(w->text, '/') != NULL, cd = strcmp(cx->cmd, "cd") == 0;
	bool spoke = false;
	if (w->role == R_ARG)
		spoke = run_completer(out, w, cx);
	if (out->n > 0)
		return spoke;
	if (w->role == R_WRAPPED && w->text[0] != '-')
		w->role = R_CMD;	/* sudo gi: a command */
	Filter filter = F_ALL;
	if (w->role == R_CMD)
		filter = F_COMMANDS;
	else if (w->role == R_ARG && cd)
		filter = F_DIRS;
	if (w->var)
		variable(out, w, lister, filter);
	else if (w->role == R_CMD && !path)
		names(out, lister, LE_COMMANDS, w->text, "");
	else if (w->role == R_FNNAME)
		names(out, lister, LE_FUNCTIONS, w->text, "");
	else if (w->role == R_ARG && cd)
		cd_dirs(out, w->text, lister);
	else if (w->role == R_ARG && strcmp(cx->cmd, "whatis") == 0 && !path) {
		names(out, lister, LE_COMMANDS, w->text, "");
		names(out, lister, LE_VARIABLES, w->text, "");
	} else if (w->role != R_NONE && w->role != R_IF)
		list_files(out, w->text, 0, filter);
	return spoke;
}

static int compare(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* A candidate quoted for w.  The printer quotes every `@' and `=', which
 * an argument holds unquoted (me@host, --opt=x): the editor's word begins
 * after them, and what was typed before must stay as it is. */
static char *quote_candidate(const char *s, const Word *w)
{
	if (w->quoted || w->role == R_CMD || strpbrk(s + (*s != '\0'), "@=") == NULL)
		return le_quote(s, w->quoted);
	char *plain = strdup(s);
	if (plain == NULL)
		return NULL;
	for (char *p = plain + 1; (p = strpbrk(p, "@=")) != NULL; p++)
		*p = '_';
	bool need = needs_quote(plain);
	free(plain);
	return need ? le_quote(s, false) : strdup(s);
}

/* Turn each candidate into the text that replaces line[start..end). */
static void replacements(Vec *out, Vec *in, Word *w,
	const char *line, int start)
{
	size_t skip = start > w->start ? (size_t) (start - w->start) : 0;
	const char *typed = line + w->start;
	for (size_t i = 0; i < in->n; i++) {
		char *q = w->var ? strdup(in->v[i]) : quote_candidate(in->v[i], w);
		if (q == NULL)
			continue;
		if (start < w->start)	/* the editor's word is longer: keep its head */
			push(out, concat(line + start, (size_t) (w->start - start), q));
		else if (has_prefix(q, typed, skip))
			push(out, strdup(q + skip));
		free(q);
	}
}

/* Whether the single match r goes on in the same word: a directory, or a
 * completer's candidate that ends in `:' or `='. */
static bool continued(const char *r)
{
	size_t len = strlen(r);
	if (len > 1 && strcmp(r + len - 2, "/'") == 0)
		return true;
	char last = len > 0 ? r[len - 1] : '\0';
	return last == '/' || (by_completer && (last == ':' || last == '='));
}

void le_complete_defaults(LeCompletion *how, LeLister *lister, LeCompleter *completer)
{
	memset(how, 0, sizeof *how);
	how->lister = lister;
	how->completer = completer;
	how->mark_dirs = how->mark_symlinked_dirs = true;
}

char **le_complete(const char *line, int start, int end, const LeCompletion *how,
	int *append, bool *spoke)
{
	Vec cand = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	Word w;
	Context cx;
	*append = ' ';
	*spoke = false;
	opts = *how;
	unmarked_dirs = 0;
	by_completer = false;
	if (scan(line, end, &w, &cx))
		*spoke = candidates(&cand, &w, &cx, how->lister);
	if (cand.n > 0)
		replacements(&out, &cand, &w, line, start);
	bool dirs_only = cand.n > 0 && unmarked_dirs == cand.n;
	free(w.text);
	free_vec(&cand);
	free_vec(&cx.words);
	if (out.n == 0) {
		free(out.v);
		return NULL;
	}
	qsort(out.v, out.n, sizeof *out.v, compare);
	size_t j = 1;
	for (size_t i = 1; i < out.n; i++)
		if (strcmp(out.v[i], out.v[j - 1]) != 0)
			out.v[j++] = out.v[i];
		else
			free(out.v[i]);
	out.v[out.n = j] = NULL;
	if (out.n == 1 && (dirs_only || continued(out.v[0])))
		*append = '\0';
	return out.v;
}
