/* SPDX-License-Identifier: Zlib */
/* le_screen.c: where a prompt and a line end on a screen of N columns, for
 * wiping them before a bound key's function runs (le_rl_keys.c), and the
 * length of a character.  Pure
 * arithmetic on the text, in the LC_CTYPE in force: no editor library, no
 * terminal. */
#include "config.h"

#include <string.h>
#include <wchar.h>

#include "le_impl.h"

/* Columns the character at s (n bytes) takes at column col, of a line
 * (prompt: of the prompt, where another control character than a tab
 * shows as nothing).  *len gets its length in bytes. */
static size_t char_width(const char *s, size_t n, size_t col, bool prompt, size_t *len)
{
	unsigned char c = (unsigned char) *s;
	*len = 1;
	if (c == '\t')
		return 8 - col % 8;
	if (c < 0x20 || c == 0x7f)
		return prompt ? 0 : 2;	/* ^X */
	if (c < 0x80)
		return 1;
	wchar_t wc;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t r = mbrtowc(&wc, s, n, &st);
	if (r == (size_t) -1 || r == (size_t) -2)
		return 1;
	*len = r;
	int w = wcwidth(wc);
	return w >= 0 ? (size_t) w : 1;
}

void le_advance(const char *text, size_t n, bool prompt, size_t columns,
	size_t *row, size_t *col)
{
	bool hidden = false;
	for (size_t len; n > 0; text += len, n -= len) {
		len = 1;
		if (prompt && (*text == LE_PROMPT_HIDE || *text == LE_PROMPT_SHOW)) {
			hidden = *text == LE_PROMPT_HIDE;
			continue;
		}
		if (hidden)
			continue;
		if (*text == '\n' && !prompt) {
			++*row;
			*col = 0;
			continue;
		}
		size_t w = char_width(text, n, *col, prompt, &len);
		if (*col + w > columns) {
			++*row;
			*col = 0;
		}
		*col += w;
	}
}

size_t le_prompt_rows_above(const char *prompt, size_t columns)
{
	size_t rows = 0;
	for (const char *p = prompt, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		size_t row = 0, col = 0;
		le_advance(p, (size_t) (nl - p), true, columns, &row, &col);
		rows += row + 1;
	}
	return rows;
}

size_t le_rows_edited(const char *prompt, const char *line, const char *after,
	size_t columns)
{
	const char *last = strrchr(prompt, '\n');
	if (last != NULL)
		prompt = last + 1;
	size_t row = 0, col = 0;
	le_advance(prompt, strlen(prompt), true, columns, &row, &col);
	le_advance(line, strlen(line), false, columns, &row, &col);
	le_advance(after, strlen(after), false, columns, &row, &col);
	return row + (col >= columns);	/* a full row: the cursor waits on the next */
}

size_t le_char_bytes(const char *s, size_t n, mbstate_t *st)
{
	size_t len = mbrtowc(NULL, s, n, st);
	if (len == (size_t) -1 || len == (size_t) -2) {
		len = 1;	/* a byte of its own */
		memset(st, 0, sizeof *st);
	}
	return len;
}
