/* SPDX-License-Identifier: Zlib */
/* value.c: how a variable's value is kept.
 *
 * Values are immutable to the language: after y=$x; x=($x z), $y is what
 * it was, however either variable was set (plainly, locally, by for, as a
 * function's arguments, from the environment).  They are shared, not
 * copied: y=$x, a local assignment saving the old value, and a command
 * reading $x while it runs (a pin the arena lets go of after the command)
 * each hold a reference.  A value with one reference belongs to its
 * variable alone and is changed in place; one with more is copied before
 * it changes (copy on write), and the other holders keep the old one.
 *
 * The words are an array of List nodes linked in order, so that the rest
 * of the shell reads a value as it reads any list, with room at both ends:
 * x=($x y) fills the room after the last node, x=(y $x) the room before
 * the first, and when the room runs out it doubles, so that both cost
 * O(1) amortised (glom_assign recognises them where the value is built).
 * The count makes $#x O(1), and the array $x(n) O(1) for each subscript.
 * The strings are in one buffer of their own, in no particular order,
 * also grown by doubling; the output of `{cmd} becomes that buffer as it
 * is, its separators turned to NULs, so x=`{cmd} costs a node per word
 * beyond the output itself.  An empty value is NULL.
 */
#include "rc.h"

#include <stdlib.h>
#include <string.h>

struct Value {
	unsigned refs;
	size_t first, count, cap;	/* nodes[first .. first + count) hold the words */
	List *nodes;
	char *text;
	size_t used, room;	/* bytes of text in use and allocated */
};

List *value_list(const Value *v)
{
	return v != NULL ? v->nodes + v->first : NULL;
}

size_t value_count(const Value *v)
{
	return v != NULL ? v->count : 0;
}

/* Word i (from 0), or NULL past the end. */
char *value_word(const Value *v, size_t i)
{
	return v != NULL && i < v->count ? v->nodes[v->first + i].w : NULL;
}

Value *value_ref(Value *v)
{
	if (v != NULL)
		v->refs++;
	return v;
}

void value_unref(Value *v)
{
	if (v == NULL || --v->refs > 0)
		return;
	free(v->nodes);
	free(v->text);
	free(v);
}

static void relink(Value *v, size_t from, size_t to)
{
	List *a = v->nodes + v->first;
	for (size_t i = from; i < to; i++)
		a[i].n = i + 1 < v->count ? &a[i + 1] : NULL;
}

/* Room for front more nodes before the words or back more after them. */
static void node_room(Value *v, size_t front, size_t back)
{
	size_t after = v->cap - v->first - v->count;
	if (v->first >= front && after >= back)
		return;
	size_t cap, first;
	if (front > v->first) {
		cap = 2 * (v->count + front) + after + 4;
		first = cap - after - v->count;
	} else {
		cap = v->first + 2 * (v->count + back) + 4;
		first = v->first;
	}
	List *nodes = ealloc(cap * sizeof *nodes);
	memcpy(nodes + first, v->nodes + v->first, v->count * sizeof *nodes);
	free(v->nodes);
	v->nodes = nodes;
	v->first = first;
	v->cap = cap;
	relink(v, 0, v->count);
}

/* Room for n more bytes of text; the words follow the buffer if it moves. */
static void text_room(Value *v, size_t n)
{
	if (v->room - v->used >= n)
		return;
	size_t room = 2 * (v->used + n);
	char *text = ealloc(room);
	memcpy(text, v->text, v->used);
	for (size_t i = v->first; i < v->first + v->count; i++)
		v->nodes[i].w = text + (v->nodes[i].w - v->text);
	free(v->text);
	v->text = text;
	v->room = room;
}

static char *add_text(Value *v, const char *w)
{
	size_t n = strlen(w) + 1;
	char *p = memcpy(v->text + v->used, w, n);
	v->used += n;
	return p;
}

static size_t measure(const List *l, size_t *bytes)
{
	size_t n = 0;
	*bytes = 0;
	for (; l != NULL; l = l->n)
		n++, *bytes += strlen(l->w) + 1;
	return n;
}

static Value *empty(size_t nodes, size_t bytes)
{
	Value *v = ealloc(sizeof *v);
	*v = (Value) { .refs = 1, .cap = nodes, .room = bytes };
	v->nodes = ealloc(nodes * sizeof *v->nodes);
	v->text = ealloc(bytes);
	return v;
}

/* The words of l (n of them, bytes long) after those of v, or before them
 * (front). */
static void add_words(Value *v, const List *l, size_t n, size_t bytes, bool front)
{
	node_room(v, front ? n : 0, front ? 0 : n);
	text_room(v, bytes);
	size_t at = front ? v->first - n : v->first + v->count;
	for (size_t i = at; l != NULL; l = l->n, i++)
		v->nodes[i] = (List) { add_text(v, l->w), NULL, NULL };
	size_t old = v->count;
	if (front)
		v->first -= n;
	v->count += n;
	if (front)
		relink(v, 0, n);
	else
		relink(v, old > 0 ? old - 1 : 0, v->count);
}

/* A new value holding the words of l. */
Value *value_new(const List *l)
{
	size_t bytes, n = measure(l, &bytes);
	if (n == 0)
		return NULL;
	Value *v = empty(n, bytes);
	add_words(v, l, n, bytes, false);
	return v;
}

/* Whether a word of l is in v's text (x=($x y) builds from the value it
 * changes). */
static bool reads_from(const List *l, const Value *v)
{
	for (; l != NULL; l = l->n)
		if (l->w >= v->text && l->w < v->text + v->room)
			return true;
	return false;
}

/* old (whose reference the caller gives up) set to the words of l: in
 * place when old is its holder's alone, big enough, and l does not read
 * from it. */
Value *value_set(Value *old, const List *l)
{
	size_t bytes, n = measure(l, &bytes);
	bool reuse = old != NULL && old->refs == 1 && old->cap >= n && old->room >= bytes &&
		!reads_from(l, old);
	if (!reuse) {
		Value *v = value_new(l);
		value_unref(old);	/* after the copy: l may read from it */
		return v;
	}
	if (n == 0) {
		value_unref(old);
		return NULL;
	}
	old->first = old->count = old->used = 0;
	add_words(old, l, n, bytes, false);
	return old;
}

/* v with the words of l added after its own, or before them (front):
 * v grown in place if the caller holds the only reference, else a copy. */
Value *value_add(Value *v, const List *l, bool front)
{
	size_t bytes, n = measure(l, &bytes);
	if (n == 0)
		return v;
	if (v == NULL)
		return value_new(l);
	bool alone = v->refs == 1 && !reads_from(l, v);
	if (alone) {
		add_words(v, l, n, bytes, front);
		return v;
	}
	Value *c = empty(v->count + n, v->used + bytes);
	add_words(c, front ? l : value_list(v), front ? n : v->count, front ? bytes : v->used, false);
	add_words(c, front ? value_list(v) : l, front ? v->count : n, front ? v->used : bytes, false);
	value_unref(v);
	return c;
}

/* A value made of buf (len bytes, malloc'd, room for one more) split on
 * any of seps, or one word if seps is empty: the words stay in buf. */
Value *value_split(char *buf, size_t len, const char *seps)
{
	bool sep[256] = { false };
	for (const unsigned char *p = (const unsigned char *) seps; *p; p++)
		sep[*p] = true;
	sep[0] = *seps != '\0';	/* a NUL also separates, as in the reference */
	buf[len] = '\0';
	Value *v = NULL;
	for (size_t n = 0;; n = 0) {
		for (size_t i = 0; i < len; n++) {
			while (i < len && sep[(unsigned char) buf[i]])
				i++;
			if (i == len)
				break;
			if (v != NULL)
				v->nodes[n] = (List) { buf + i, NULL, NULL };
			while (i < len && !sep[(unsigned char) buf[i]])
				i++;
			if (v != NULL)
				buf[i] = '\0';	/* buf[len] is the byte past the end */
		}
		if (v != NULL || n == 0)
			break;
		v = ealloc(sizeof *v);
		*v = (Value) { .refs = 1, .cap = n, .count = n, .text = buf, .used = len + 1, .room = len + 1 };
		v->nodes = ealloc(n * sizeof *v->nodes);
	}
	if (v == NULL)
		free(buf);
	else
		relink(v, 0, v->count);
	return v;
}
