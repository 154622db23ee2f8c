/*
 * fuzz_common.h
 *	  Shared pieces of the libFuzzer harnesses in test/fuzz.
 *
 * Each harness fuzz_<name>.c defines LLVMFuzzerTestOneInput, runs one
 * decoder of src/format on the input with a bounded FmtArena, checks the
 * decoder's own invariants with FUZZ_ASSERT (a violated one aborts, which
 * libFuzzer reports as a crash), and frees everything it allocated.
 */
#ifndef DELTACC_FUZZ_COMMON_H
#define DELTACC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_alloc.h"

/* Every decoder must cope with this allocation budget or fail cleanly. */
#define FUZZ_ARENA_LIMIT ((size_t) 64 << 20)

#define FUZZ_ASSERT(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: invariant violated: %s\n", __FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as NUL-separated fields: a NUL-terminated copy of it is made
 * (*buf, malloc'ed: the caller frees it) and cut at its NUL bytes into at
 * most max fields, then padded with "" up to min.  Returns how many.
 */
static inline int
fuzz_split_fields(const uint8_t *data, size_t size, const char **field,
				  int max, int min, char **buf)
{
	int			nf = 0;
	size_t		i;

	*buf = malloc(size + 1);
	if (*buf == NULL)
		abort();
	memcpy(*buf, data, size);
	(*buf)[size] = '\0';
	field[nf++] = *buf;
	for (i = 0; i < size && nf < max; i++)
		if ((*buf)[i] == '\0')
			field[nf++] = *buf + i + 1;
	while (nf < min)
		field[nf++] = "";
	return nf;
}

#endif
