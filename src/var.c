/* SPDX-License-Identifier: Zlib */
/* var.c: variables, the aliased pairs (path/PATH, home/HOME, cdpath/CDPATH),
 * the computed ones ($status, $*, $1..., $apids), and local assignments. */
#include "rc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { NBUCKETS = 512 };
static Sym *table[NBUCKETS];

static unsigned hash(const char *s, size_t len)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char) s[i]) * 16777619u;
	return h % NBUCKETS;
}

/* The symbol named by the first len bytes of name. */
static Sym *sym_lookup_n(const char *name, size_t len, bool create)
{
	unsigned h = hash(name, len);
	for (Sym *s = table[h]; s != NULL; s = s->next)
		if (strncmp(s->name, name, len) == 0 && s->name[len] == '\0')
			return s;
	if (!create)
		return NULL;
	Sym *s = palloc(sizeof *s + len + 1);
	memset(s, 0, sizeof *s);
	s->name = memcpy(s + 1, name, len);
	s->name[len] = '\0';
	s->next = table[h];
	table[h] = s;
	return s;
}

Sym *sym_lookup(const char *name, bool create)
{
	return sym_lookup_n(name, strlen(name), create);
}

static void store_sym(Sym *s, List *val, bool user, bool borrowed);

/* A symbol's value, decoding an imported one on first use. */
static List *value(Sym *s)
{
	if (s->flags & S_PID)
		store_sym(s, mklist(nfmt("%d", (int) getpid()), NULL, NULL), false, false);
	if (s->flags & S_RAW) {
		s->val = env_decode_value(s->raw);
		s->flags &= ~S_RAW;
	}
	return s->val;
}

/* A borrowed value made the symbol's own, to be counted, indexed, shared
 * or grown (see value.c). */
static void own(Sym *s)
{
	value(s);
	if (s->v == NULL && s->val != NULL) {
		s->v = value_new(s->val);
		s->val = value_list(s->v);
		s->flags &= ~S_BORROWED;
	}
}

static void unpin(void *v)
{
	value_unref(v);
}

static void pin(Value *v)
{
	if (v != NULL) {
		value_ref(v);
		nhold(unpin, v);
	}
}

/* A symbol's value for the arena's use: its words are not copied, so the
 * value is held until the arena is released. */
List *var_get_pinned(Sym *s)
{
	List *v = value(s);
	pin(s->v);
	return v;
}

size_t var_count(Sym *s)
{
	own(s);
	return value_count(s->v);
}

/* Word i (from 1) of a symbol's value, held like var_get_pinned's. */
char *var_word(Sym *s, size_t i)
{
	own(s);
	pin(s->v);
	return i > 0 ? value_word(s->v, i - 1) : NULL;
}

/* $status and $apids: the shell's state, read as variables, never set
 * as such. */
static bool computed(const char *name)
{
	return (name[0] == 's' && strcmp(name, "status") == 0) ||
		(name[0] == 'a' && strcmp(name, "apids") == 0);
}

static bool is_number(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Variables the shell computes or owns are not taken from the environment. */
bool var_importable(const char *name)
{
	return !is_number(name) && strcmp(name, "*") != 0 && !computed(name);
}

List *args_get(void)
{
	Sym *s = sym_lookup("*", false);
	return s ? s->val : NULL;
}

List *var_get(const char *name)
{
	switch (name[0]) {
	case 's':
		if (strcmp(name, "status") == 0)
			return status_list();
		break;
	case 'a':
		if (strcmp(name, "apids") == 0)
			return child_async_list();
		break;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
		if (is_number(name)) {
			/* leading zeros are ignored, as in any number: $01 is $1, $00 is $0 */
			if (name[strspn(name, "0")] == '\0') {
				name = "0";
				break;
			}
			char *w = var_word(sym_lookup("*", true), strtoul(name, NULL, 10));
			return w != NULL ? mklist(w, NULL, NULL) : NULL;
		}
		break;
	}
	Sym *s = sym_lookup(name, false);
	return s != NULL ? value(s) : NULL;
}

/* $pid is asked of the kernel only when first read, and it is the
 * shell's: before a fork, learn it, so that a child cannot learn its own. */
void var_fix_pid(void)
{
	var_get("pid");
}

/* Names that are never exported, and those exported only once set. */
static unsigned default_flags(const char *name);

/* Plain imported names are kept raw: none the shell treats specially
 * (the aliased pairs, and those with default flags). */
bool var_importable_raw(const char *name, size_t len)
{
	char buf[16];
	if (len >= sizeof buf)
		return true;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return var_alias(buf) == NULL && default_flags(buf) == 0;
}

void var_import_raw(const char *entry, size_t namelen)
{
	Sym *s = sym_lookup_n(entry, namelen, true);
	value_unref(s->v);
	s->v = NULL;
	s->val = NULL;
	env_changed(s, false);
	s->raw = entry + namelen + 1;
	s->env = (char *) entry;
	s->flags |= S_RAW | S_BORROWED | S_ENVENTRY;
}

static unsigned default_flags(const char *name)
{
	static const char *const never[] = {
		"apid", "apids", "bqstatus", "cdpath", "home", "ifs", "path",
		"pid", "status", "*", "0", "prompt", "version",
	};
	for (size_t i = 0; i < sizeof never / sizeof *never; i++)
		if (name[0] == never[i][0] && strcmp(name, never[i]) == 0)
			return S_NOEXPORT;
	return 0;
}

/* Give a symbol its value v (taking the caller's reference).  $prompt
 * and $version are exported only once the user sets them. */
static void store_value(Sym *s, Value *v, bool user)
{
	if (s->val == NULL && s->flags == 0)
		s->flags = default_flags(s->name);
	if (user && (s->flags & S_NOEXPORT) &&
	    (strcmp(s->name, "prompt") == 0 || strcmp(s->name, "version") == 0))
		s->flags &= ~S_NOEXPORT;
	Value *old = s->v;
	s->v = v;
	value_unref(old);	/* after: v may be old, with a reference more */
	s->val = value_list(v);
	s->flags &= ~(S_BORROWED | S_RAW | S_PID);
	env_changed(s, false);
}

/* Give a symbol a copy of val (the old value's storage reused when it
 * can be), or (borrowed) val itself in permanent memory, for imported
 * values and the shell's constants. */
static void store_sym(Sym *s, List *val, bool user, bool borrowed)
{
	if (!borrowed) {
		Value *old = s->v;
		s->v = NULL;	/* value_set takes its reference */
		store_value(s, value_set(old, val), user);
		return;
	}
	store_value(s, NULL, user);
	s->val = val;
	s->flags |= S_BORROWED;
}

/* x=($x words) or x=(words $x) (front): x's value grown in place when it
 * is x's alone. */
void var_add_sym(Sym *s, List *words, bool front)
{
	own(s);
	Value *v = s->v;
	s->v = NULL;	/* value_add takes its reference */
	store_value(s, value_add(v, words, front), true);
}

/* to=$from, sharing from's value. */
void var_share_sym(Sym *to, Sym *from)
{
	own(from);
	store_value(to, value_ref(from->v), true);
}

/* x=`{cmd}: v, made for x, becomes its value. */
void var_adopt_sym(Sym *s, Value *v)
{
	store_value(s, v, true);
}

static void store(const char *name, List *val, bool user, bool borrowed)
{
	store_sym(sym_lookup(name, true), val, user, borrowed);
}

/* A name with no computed value and no alias: a tree node naming it may
 * keep its symbol (symbols are never freed). */
static bool plain(const char *name)
{
	if (*name == '\0' || strchr(name, '=') != NULL || is_number(name) || computed(name))
		return false;
	switch (name[0]) {
	case 'p': case 'P': case 'c': case 'C': case 'h': case 'H':
		return strcasecmp(name, "path") != 0 && strcasecmp(name, "cdpath") != 0 &&
			strcasecmp(name, "home") != 0;
	}
	return true;
}

Sym *var_name_sym(Node *n)
{
	if (n->sym == NULL && (n->type == nWord || n->type == nQword) && plain(n->s))
		n->sym = sym_lookup(n->s, true);
	return n->sym;
}

void var_set_sym(Sym *s, List *val)
{
	store_sym(s, val, true, false);
}

static bool set_alias(const char *name, List *val, bool borrowed);

/* An imported value (val in permanent memory) is kept as it is, and so is
 * the other name's of an aliased pair, made in permanent memory: start-up
 * copies no value (and so calls no malloc). */
void var_import(const char *name, List *val)
{
	if (!set_alias(name, val, true))
		store(name, val, true, true);
}

void var_set_const(const char *name, List *val, bool user)
{
	store(name, val, user, true);
}

/* Keep the aliased pairs in step: path=(a b) is PATH=a:b and back.
 * The words at each colon of s: in the arena, or in permanent memory
 * (perm; s too is copied there). */
static List *split_colon(const char *s, bool perm)
{
	List *head = NULL, **tail = &head;
	if (perm) {
		size_t n = strlen(s) + 1;
		s = memcpy(palloc(n), s, n);
	}
	for (;;) {
		const char *e = strchr(s, ':');
		size_t n = e ? (size_t) (e - s) : strlen(s);
		if (perm) {
			*tail = palloc(sizeof **tail);
			**tail = (List) { (char *) s, NULL, NULL };
			((char *) s)[n] = '\0';
		} else
			*tail = mklist(nstrndup(s, n), NULL, NULL);
		tail = &(*tail)->n;
		if (e == NULL)
			break;
		s = e + 1;
	}
	return head;
}

/* The one word of the upper name of a pair: val's words joined by sep, in
 * the arena or in permanent memory (perm). */
static List *joined(List *val, const char *sep, bool perm)
{
	if (!perm)
		return mklist(list_flat(val, sep), NULL, NULL);
	char *w = val->w;	/* one word: permanent already */
	if (val->n != NULL) {
		w = list_flat(val, sep);
		w = memcpy(palloc(strlen(w) + 1), w, strlen(w) + 1);
	}
	List *l = palloc(sizeof *l);
	*l = (List) { w, NULL, NULL };
	return l;
}

/* PATH, HOME and CDPATH in the order the environment's are imported. */
const VarAlias var_aliases[NVAR_ALIASES] = {
	{ "path", "PATH", ":" }, { "home", "HOME", NULL }, { "cdpath", "CDPATH", ":" },
};

const VarAlias *var_alias(const char *name)
{
	for (int i = 0; i < NVAR_ALIASES; i++) {
		const VarAlias *a = &var_aliases[i];
		if (name[0] == a->lower[0] ? strcmp(name, a->lower) == 0 :
		    name[0] == a->upper[0] && strcmp(name, a->upper) == 0)
			return a;
	}
	return NULL;
}

/* Set both names of a pair from either; borrowed: val is in permanent
 * memory (an imported value), kept as it is, as is the other name's. */
static bool set_alias(const char *name, List *val, bool borrowed)
{
	const VarAlias *a = var_alias(name);
	if (a == NULL)
		return false;
	if (strcmp(name, a->lower) == 0) {
		store(a->lower, val, true, borrowed);
		store(a->upper, val && a->sep ? joined(val, a->sep, borrowed) : val, true, borrowed);
	} else {
		store(a->upper, val, true, borrowed);
		List *low = val;
		if (val != NULL && a->sep != NULL)
			low = split_colon(list_flat(val, a->sep), borrowed);
		store(a->lower, low, true, borrowed);
	}
	return true;
}

/* The one word naming a variable, with rc's complaints; a name
 * to assign to may be neither a number nor hold '='. */
char *var_name(List *name, bool assigning)
{
	if (name == NULL)
		rc_error("null variable name");
	if (name->n != NULL)
		rc_error("multi-word variable name");
	if (*name->w == '\0')
		rc_error("zero-length variable name");
	if (assigning && is_number(name->w))
		rc_error("numeric variable name");
	if (assigning && strchr(name->w, '=') != NULL)
		rc_error("'=' in variable name");
	return name->w;
}

void var_set(const char *name, List *val)
{
	if (computed(name))
		return;
	if (name[0] == '*' && name[1] == '\0')
		args_set(val);
	else if (!set_alias(name, val, false))
		store(name, val, true, false);
}

void args_set(List *args)
{
	store("*", args, false, false);
}

bool var_exported(const Sym *s)
{
	return (s->val != NULL || (s->flags & S_RAW)) && !(s->flags & S_NOEXPORT);
}

/* Local assignments (x=1 cmd, function arguments) hold the old value
 * here, shared, not copied. */
typedef struct { char *name; Value *old; } Local;
static Local *locals;
static int nlocals;
static size_t maxlocals;

void var_push_local(const char *name, List *val)
{
	locals = egrow(locals, &maxlocals, nlocals + 1, sizeof *locals);
	Sym *s = sym_lookup(name, false);
	if (s != NULL)
		own(s);
	locals[nlocals].name = estrdup(name);
	locals[nlocals].old = s != NULL ? value_ref(s->v) : NULL;
	nlocals++;
	var_set(name, val);
}

void var_pop_local(void)
{
	Local *l = &locals[--nlocals];
	const char *name = l->name;
	if (computed(name) || set_alias(name, value_list(l->old), false))
		value_unref(l->old);
	else
		store_value(sym_lookup(name, true), l->old, strcmp(name, "*") != 0);
	free(l->name);
}

int var_depth(void)
{
	return nlocals;
}

void var_unwind(int depth)
{
	while (nlocals > depth)
		var_pop_local();
}

/* An error pops the local assignments made since its catcher. */
const CatchStep var_catch_step = { var_depth, var_unwind };

/* A name is printed bare when only * ? [ would quote it (**=(), a?b=1):
 * before = they are no glob; else quoted whole ('a b*'=1), and so is a
 * keyword but not, which the lexer knows only after if, when a value follows
 * ('if'=1, not=1, if=() as -x shows it). */
static void print_name(Str *s, const char *name, bool value)
{
	int kw = keyword_of(name);
	bool quote = *name == '\0' || (value && kw != 0 && kw != kwNot);
	for (const char *p = name; *p != '\0' && !quote; p++) {
		char c[2] = { *p, '\0' };
		quote = strchr("*?[", *p) == NULL && needs_quote(c);
	}
	if (quote)
		str_quote_always(s, name);
	else
		str_adds(s, name);
}

/* x=word or x=(list), re-readable ($* prints as *=...). */
void var_print(Str *s, const char *name, List *val)
{
	print_name(s, name, val != NULL);
	str_addc(s, '=');
	if (val != NULL && val->n == NULL) {
		str_quote(s, val->w);
		return;
	}
	str_addc(s, '(');
	for (; val != NULL; val = val->n) {
		str_quote(s, val->w);
		if (val->n != NULL)
			str_addc(s, ' ');
	}
	str_addc(s, ')');
}

static int cmp_sym(const void *a, const void *b)
{
	return strcmp((*(Sym *const *) a)->name, (*(Sym *const *) b)->name);
}

/* Every symbol, sorted by name. */
Sym **sym_all(int *count)
{
	int n = 0;
	for (int i = 0; i < NBUCKETS; i++)
		for (Sym *s = table[i]; s != NULL; s = s->next)
			n++;
	Sym **v = nalloc((n + 1) * sizeof *v);
	n = 0;
	for (int i = 0; i < NBUCKETS; i++)
		for (Sym *s = table[i]; s != NULL; s = s->next)
			v[n++] = s;
	qsort(v, n, sizeof *v, cmp_sym);
	*count = n;
	return v;
}

void sym_walk(void (*f)(Sym *s, void *ctx), void *ctx)
{
	for (int i = 0; i < NBUCKETS; i++)
		for (Sym *s = table[i]; s != NULL; s = s->next)
			f(s, ctx);
}
