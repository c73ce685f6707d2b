/* SPDX-License-Identifier: Zlib */
/* quote.h: rc's lexical rules that both the core and lineedit/ need: which
 * bytes make up a variable name, which words are keywords, and how a word
 * is quoted to be read back.
 * Depends on nothing, so lineedit/ can use it without the rest of the core. */
#ifndef QUOTE_H
#define QUOTE_H

#include <stdbool.h>
#include <stddef.h>

/* A byte of a variable name after $ (letters, digits, _ and *). */
bool is_varchar(int c);

/* Whether s is nothing but such bytes, one or more: $s takes all of it. */
bool is_varname(const char *s);

/* Whether w must be quoted to be read back as itself. */
bool needs_quote(const char *w);

/* The keywords, and the word of each. */
enum { kwFor = 1, kwIn, kwWhile, kwIf, kwNot, kwElse, kwSwitch, kwCase, kwFn, kwBang, kwAt, kwTilde };
const char *kwname(int kw);
int keyword_of(const char *w);	/* its kw..., or 0 */

/* The room quote_into() needs for a word of len bytes, with the NUL. */
#define QUOTE_ROOM(len) (2 * (len) + 3)

/* Write w into out as rc reads it back: in quotes (a quote doubled) when
 * always is true or w needs them, else as it is.  Returns the length. */
size_t quote_into(char *out, const char *w, bool always);

#endif
