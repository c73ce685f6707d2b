/* SPDX-License-Identifier: Zlib */
/* quote.c: rc's variable-name characters, its keywords and its quoting
 * rule, one copy for the lexer, the printer and completion (see quote.h). */
#include "config.h"
#include "quote.h"

#include <string.h>

bool is_varchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '*';
}

bool is_varname(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!is_varchar((unsigned char) *s))
			return false;
	return true;
}

/* Control characters are quoted too, so that a printed word shows them. */
bool needs_quote(const char *w)
{
	if (*w == '\0')
		return true;
	for (const unsigned char *p = (const unsigned char *) w; *p; p++)
		if (*p < ' ' || *p == 0x7f || strchr(" #;&|^$=`'{}()<>*?[~!@\\", *p))
			return true;
	return false;
}

size_t quote_into(char *out, const char *w, bool always)
{
	char *p = out;
	if (!always && !needs_quote(w)) {
		size_t n = strlen(w);
		memcpy(out, w, n + 1);
		return n;
	}
	*p++ = '\'';
	for (; *w; w++) {
		if (*w == '\'')
			*p++ = '\'';
		*p++ = *w;
	}
	*p++ = '\'';
	*p = '\0';
	return p - out;
}

static const struct { const char *name; int kw; } keywords[] = {
	{ "for", kwFor }, { "in", kwIn }, { "while", kwWhile }, { "if", kwIf },
	{ "not", kwNot }, { "else", kwElse }, { "switch", kwSwitch },
	{ "case", kwCase }, { "fn", kwFn }, { "!", kwBang }, { "@", kwAt },
	{ "~", kwTilde },
};

const char *kwname(int kw)
{
	for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
		if (keywords[i].kw == kw)
			return keywords[i].name;
	return "?";
}

int keyword_of(const char *w)
{
	for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
		if (strcmp(keywords[i].name, w) == 0)
			return keywords[i].kw;
	return 0;
}
