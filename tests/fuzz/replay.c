/* SPDX-License-Identifier: Zlib */
/* replay.c: a main() for a libFuzzer harness without libFuzzer, so that
 * make check runs the saved findings (tests/fuzz/regress) through the
 * harness on every build, sanitizers included.  Each file named is read
 * whole and given to LLVMFuzzerTestOneInput once; a finding that came back
 * aborts, which the caller (tests/fuzz/regress.test) reports. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef REPLAY_INITIALIZE
int LLVMFuzzerInitialize(int *argc, char ***argv);
#endif

#ifndef __SANITIZE_ADDRESS__
/* The eval harness names the code that made a leaked descriptor with the
 * sanitizers' symbolizer; without their run-time, by its address. */
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t size);
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t size)
{
	(void) fmt;
	snprintf(out, size, "%p", pc);
}
#endif

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *more = realloc(buf, cap *= 2);
			if (more == NULL)
				free(buf);
			buf = more;
		}
	}
	bool failed = ferror(f);
	fclose(f);
	if (failed) {
		free(buf);
		return NULL;
	}
	*size = n;
	return buf;
}

int main(int argc, char **argv)
{
#ifdef REPLAY_INITIALIZE
	LLVMFuzzerInitialize(&argc, &argv);
#endif
	for (int i = 1; i < argc; i++) {
		size_t size;
		uint8_t *data = slurp(argv[i], &size);
		if (data == NULL) {
			perror(argv[i]);
			return 2;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	return 0;
}
