/* SPDX-License-Identifier: Zlib */
/* le_keys.c: keys bound to shell code ($keys), the same for both editing
 * libraries: readline's notation for a key sequence read into bytes, and
 * what is typed matched against the bound sequences before the library
 * sees it (le_rl.c reads its keys through le_keys_next).  The libraries'
 * own binding calls are not used: libedit's readline API cannot bind a
 * sequence to a function of ours, nor give a key its default back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "le.h"
#include "le_impl.h"

enum { KEY_MAX = 32 };	/* the longest sequence, in bytes */

typedef struct {
	unsigned char seq[KEY_MAX];
	size_t len;
	char *fn;	/* NULL: the line in $VISUAL or $EDITOR */
} Binding;

/* C-x C-e edits the line in an editor unless $keys binds it. */
static const Binding edit_binding = { "\030\005", 2, NULL };

static Binding *bindings;
static size_t nbindings, maxbindings;

/* Bytes read and not yet given to the editor: held, a proper prefix of a
 * bound sequence so far; again, bytes given back (held bytes that turned
 * out to match nothing), read before the terminal. */
static unsigned char held[KEY_MAX];
static size_t nheld;
static unsigned char again[2 * KEY_MAX];
static size_t nagain;

static int digit(char c, int base)
{
	static const char digits[] = "0123456789abcdef";
	const char *d = c != '\0' ? strchr(digits, c | 0x20) : NULL;
	return d != NULL && d - digits < base ? (int) (d - digits) : -1;
}

/* One character of the notation at *p: itself, or an escape (\e, \t,
 * \\, \nnn in octal, \xHH in hexadecimal, ...); -1 at a mistake. */
static int escaped(const char **p)
{
	static const char from[] = "abdefnrtv\\\"'";
	static const char to[] = "\a\b\177\033\f\n\r\t\v\\\"'";
	const char *s = *p;
	if (*s != '\\')
		return *s != '\0' ? (unsigned char) *(*p)++ : -1;
	s++;
	const char *e = *s != '\0' ? strchr(from, *s) : NULL;
	if (e != NULL) {
		*p = s + 1;
		return (unsigned char) to[e - from];
	}
	int base = *s == 'x' ? 16 : 8, v = 0, n = 0;
	s += base == 16;
	for (int d; n < (base == 16 ? 2 : 3) && (d = digit(*s, base)) >= 0; n++, s++)
		v = v * base + d;
	if (n == 0 || v > 0xff)
		return -1;
	*p = s;
	return v;
}

/* One key at *p: \C-k (a control key), \M-k (Escape, then k), or one
 * character.  Its bytes go to out (room for 2); returns their number, 0
 * at a mistake. */
static size_t one_key(const char **p, unsigned char *out)
{
	const char *s = *p;
	if (s[0] == '\\' && (s[1] == 'C' || s[1] == 'M') && s[2] == '-') {
		*p = s + 3;
		unsigned char k[2];
		size_t n = one_key(p, k);
		if (n == 0 || (s[1] == 'M' && n == 2))
			return 0;
		if (s[1] == 'M') {
			out[0] = '\033';
			out[1] = k[0];
			return 2;
		}
		k[n - 1] = k[n - 1] == '?' ? 0177 : k[n - 1] & 037;
		memcpy(out, k, n);
		return n;
	}
	int c = escaped(p);
	if (c < 0)
		return 0;
	out[0] = (unsigned char) c;
	return 1;
}

/* The bytes of a sequence in readline's notation, or false. */
static bool parse(const char *s, Binding *b)
{
	b->len = 0;
	while (*s != '\0') {
		unsigned char k[2];
		size_t n = one_key(&s, k);
		if (n == 0 || b->len + n > KEY_MAX)
			return false;
		memcpy(b->seq + b->len, k, n);
		b->len += n;
	}
	return b->len > 0;
}

static void add(const Binding *b)
{
	for (size_t i = 0; i < nbindings; i++)
		if (bindings[i].len == b->len && memcmp(bindings[i].seq, b->seq, b->len) == 0) {
			free(bindings[i].fn);
			bindings[i] = *b;	/* a later pair wins */
			return;
		}
	Binding *v = le_grow(bindings, &maxbindings, nbindings + 1, sizeof *v);
	if (v == NULL) {
		free(b->fn);
		return;
	}
	bindings = v;
	bindings[nbindings++] = *b;
}

void le_keys_set(const char *progname, const char *const *words, int n)
{
	for (size_t i = 0; i < nbindings; i++)
		free(bindings[i].fn);
	nbindings = 0;
	nheld = nagain = 0;
	add(&edit_binding);
	for (int i = 0; i < n; i += 2) {
		Binding b;
		if (i + 1 == n)
			fprintf(stderr, "%s: keys: %s: no function named for it\n",
				progname, words[i]);
		else if (!parse(words[i], &b))
			fprintf(stderr, "%s: keys: %s: not a key sequence\n",
				progname, words[i]);
		else if (words[i + 1][0] == '\0')
			fprintf(stderr, "%s: keys: %s: no function named for it\n",
				progname, words[i]);
		else if ((b.fn = strdup(words[i + 1])) != NULL)
			add(&b);
	}
}

void le_keys_reset(void)
{
	nheld = nagain = 0;
}

/* Give held[from..] back, to be read before what is waiting again. */
static void give_back(size_t from)
{
	size_t n = nheld - from;
	memmove(again + n, again, nagain);
	memcpy(again, held + from, n);
	nagain += n;
	nheld = 0;
}

/* The binding whose sequence held begins with, the longest; NULL if none.
 * *longer: held is a proper prefix of another sequence. */
static const Binding *match(bool *longer)
{
	const Binding *best = NULL;
	*longer = false;
	for (size_t i = 0; i < nbindings; i++) {
		const Binding *b = &bindings[i];
		size_t n = b->len < nheld ? b->len : nheld;
		if (memcmp(b->seq, held, n) != 0)
			continue;
		if (b->len > nheld)
			*longer = true;
		else if (best == NULL || b->len > best->len)
			best = b;
	}
	return best;
}

int le_keys_next(int (*read_key)(void), bool matching, const char **fn)
{
	for (;;) {
		int c;
		if (nagain > 0) {
			c = again[0];
			memmove(again, again + 1, --nagain);
		} else if ((c = read_key()) < 0) {
			nheld = 0;	/* ^C or the end: what was held goes */
			return c;
		}
		if (!matching)
			return c;
		held[nheld++] = (unsigned char) c;
		bool longer;
		const Binding *b = match(&longer);
		if (longer && nheld < KEY_MAX)
			continue;
		if (b != NULL) {
			give_back(b->len);
			*fn = b->fn;
			return LE_KEY_BOUND;
		}
		c = held[0];
		give_back(1);
		return c;
	}
}

bool le_keys_held(void)
{
	return nagain > 0;
}
