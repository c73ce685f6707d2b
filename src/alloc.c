/* SPDX-License-Identifier: Zlib */
/* alloc.c: permanent allocation, and the per-command arena. */
#include "rc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static NORETURN void nomem(void)
{
	static const char msg[] = "rc: out of memory\n";
	(void) !write(2, msg, sizeof msg - 1);
	_exit(1);
}

void *ealloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)
		nomem();
	return p;
}

void *eresize(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		nomem();
	return p;
}

/* Growable arrays, all grown by this: v holds *cap elements of size bytes;
 * return it with room for need.  The capacity at least doubles, so n appends
 * copy fewer than 2n elements in all where growing by one element would copy
 * n*n/2; it starts at GROW_FIRST bytes' worth, so a short array makes one malloc
 * call.  The memory is permanent (eresize): the owner frees it. */
enum { GROW_FIRST = 64 };

void *egrow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	if (*cap > SIZE_MAX / 2 / size)
		nomem();
	size_t n = 2 * *cap;
	if (n < GROW_FIRST / size)
		n = GROW_FIRST / size;
	if (n < need)
		n = need;
	*cap = n;
	return eresize(v, n * size);
}

/* egrow for an array that starts in a static block, first (*cap elements
 * long), so that a shell that never needs more makes no malloc call for
 * it: the first time it grows, the static block is copied out; it is
 * never freed. */
void *egrow_static(void *v, const void *first, size_t *cap, size_t need, size_t size)
{
	if (v != first || need <= *cap)
		return egrow(v, cap, need, size);
	size_t had = *cap;
	return memcpy(egrow(NULL, cap, need, size), first, had * size);
}

char *estrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ealloc(n), s, n);
}

/* n rounded up so that what follows it is aligned for any type. */
static size_t aligned(size_t n)
{
	return (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
}

/* Permanent memory never freed, for what lives as long as the shell does
 * (symbols, imported values): a bump allocator, so start-up makes few
 * malloc calls. */
enum {
	PALLOC_START = 16384,	/* static: what a script's start needs, with room */
	PALLOC_CHUNK = 8192,	/* each later chunk, taken with malloc */
	PALLOC_OWN = PALLOC_CHUNK / 4	/* more gets its own malloc, so that a
					 * big request leaves no big tail unused */
};

void *palloc(size_t n)
{
	static max_align_t start[PALLOC_START / sizeof(max_align_t)];
	static char *p = (char *) start;
	static size_t left = sizeof start;
	n = aligned(n);
	if (n > left) {
		if (n > PALLOC_OWN)
			return ealloc(n);
		p = ealloc(PALLOC_CHUNK);
		left = PALLOC_CHUNK;
	}
	void *r = p;
	p += n;
	left -= n;
	return r;
}

/* The arena is a chain of blocks; a Mark names a block and how much of it was
 * in use.  Each block records how much of it is in use, in its header: a
 * loop that allocates writes the block's first page anyway, and a global
 * elsewhere would be one more page for a forking loop's parent to copy
 * after each fork (W1 page faults per fork).  Releasing to a mark frees the blocks allocated after it, keeping
 * one spare so that a loop that allocates a little each time does not call
 * malloc on every iteration. */
typedef struct Block Block;
struct Block {
	Block *prev;
	size_t size, used;
	max_align_t data[];
};

/* A block is four pages with its header, what most commands need; a bigger
 * request gets a block of its own size. */
enum { BLOCKBYTES = 16384, BLOCKSIZE = BLOCKBYTES - sizeof(Block), MAXFREE = 8 };

/* The first block is static: a script that needs no more makes no malloc
 * call for the arena.  Released blocks are kept on a short free list
 * (some mallocs hand every freed block back to the kernel). */
static union { Block b; char bytes[BLOCKBYTES]; } first = { .b.size = BLOCKSIZE };
static Block *cur = &first.b;
static Block *freelist[MAXFREE];
static int nfree;

/* Cleanups run when the arena is released past the point they were added. */
typedef struct { void (*fn)(void *); void *arg; } Hold;
static Hold *holds;
static int nholds;
static size_t maxholds;

static void newblock(size_t need)
{
	size_t size = need > BLOCKSIZE ? need : BLOCKSIZE;
	Block *b = NULL;
	for (int i = 0; i < nfree; i++)
		if (freelist[i]->size >= size) {
			b = freelist[i];
			freelist[i] = freelist[--nfree];
			break;
		}
	if (b == NULL) {
		b = ealloc(sizeof(Block) + size);
		b->size = size;
	}
	b->prev = cur;
	b->used = 0;
	cur = b;
}

void *nalloc(size_t n)
{
	n = aligned(n);
	if (cur->size - cur->used < n)
		newblock(n);
	void *p = (char *) cur->data + cur->used;
	cur->used += n;
	return p;
}

char *nstrndup(const char *s, size_t n)
{
	char *p = nalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *nstrdup(const char *s)
{
	return nstrndup(s, strlen(s));
}

/* Run fn(arg) when the arena is released back past this point: for data
 * outside the arena that arena data refers to (pinned variable values). */
void nhold(void (*fn)(void *), void *arg)
{
	holds = egrow(holds, &maxholds, nholds + 1, sizeof *holds);
	holds[nholds++] = (Hold) { fn, arg };
}

Mark nmark(void)
{
	return (Mark) { cur, cur->used, nholds };
}

void nrelease(Mark m)
{
	while (nholds > m.holds) {
		nholds--;
		holds[nholds].fn(holds[nholds].arg);
	}
	while (cur != m.block) {
		Block *b = cur;
		cur = b->prev;
		if (nfree < MAXFREE)
			freelist[nfree++] = b;
		else
			free(b);
	}
	cur->used = m.used;
}
