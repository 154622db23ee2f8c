/*
 * fuzz_roaring.c
 *	  libFuzzer harness for the Roaring / RoaringBitmapArray decoder.
 *
 * The input is decoded whole as a RoaringBitmapArray and as a lone 32-bit
 * Roaring bitmap, and split at its first byte into two RoaringBitmapArrays
 * whose subset relation is checked against a brute-force answer.  Every
 * decoded set is checked: ascending iteration that agrees with contains,
 * cardinality, min and max.
 */
#include <string.h>

#include "fuzz_common.h"
#include "roaring.h"

#define ITER_LIMIT (1u << 18)	/* values visited per set */

static void
check_set(const RbSet *s)
{
	RbIter		it;
	uint64_t	v;
	uint64_t	prev = 0;
	uint64_t	count = 0;
	uint64_t	mn;
	uint64_t	mx;

	rb_iter_init(&it, s);
	while (count < ITER_LIMIT && rb_iter_next(&it, &v))
	{
		FUZZ_ASSERT(count == 0 || v > prev);
		FUZZ_ASSERT(rb_contains(s, v));
		/* the value below a fresh start is absent */
		if (count == 0 || v != prev + 1)
			FUZZ_ASSERT(v == 0 || !rb_contains(s, v - 1));
		prev = v;
		count++;
	}
	if (rb_cardinality(s) <= ITER_LIMIT)
		FUZZ_ASSERT(count == rb_cardinality(s));
	FUZZ_ASSERT(rb_min(s, &mn) == (rb_cardinality(s) > 0));
	FUZZ_ASSERT(rb_max(s, &mx) == (rb_cardinality(s) > 0));
	if (rb_cardinality(s) > 0)
	{
		FUZZ_ASSERT(rb_contains(s, mn) && rb_contains(s, mx) && mn <= mx);
		FUZZ_ASSERT(mn == 0 || !rb_contains(s, mn - 1));
		FUZZ_ASSERT(!rb_contains(s, mx + 1));
		FUZZ_ASSERT((mx >> 32) <= RB_MAX_BUCKET_KEY);
	}
	FUZZ_ASSERT(rb_is_subset(s, s));
}

/* Brute-force subset test for small sets. */
static bool
brute_subset(const RbSet *a, const RbSet *b)
{
	RbIter		it;
	uint64_t	v;

	rb_iter_init(&it, a);
	while (rb_iter_next(&it, &v))
		if (!rb_contains(b, v))
			return false;
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FmtArena	arena;
	FmtAllocator a;
	RbSet		s;
	RbSet		sa;
	RbSet		sb;
	DvError		err;

	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	if (rb_decode_array(data, size, &a, &s, &err))
		check_set(&s);
	else
		FUZZ_ASSERT(err.offset <= size);
	if (rb_decode_roaring32(data, size, &a, &s, &err))
	{
		check_set(&s);
		FUZZ_ASSERT(s.ncontainers == 0 || (s.containers[s.ncontainers - 1].key >> 16) == 0);
	}
	if (size > 1)
	{
		size_t		cut = 1 + (size_t) data[0] * (size - 1) / 256;

		if (rb_decode_array(data + 1, cut - 1, &a, &sa, &err) &&
			rb_decode_array(data + cut, size - cut, &a, &sb, &err) &&
			rb_cardinality(&sa) <= ITER_LIMIT)
		{
			FUZZ_ASSERT(rb_is_subset(&sa, &sb) == brute_subset(&sa, &sb));
			if (rb_cardinality(&sb) <= ITER_LIMIT)
				FUZZ_ASSERT(rb_is_subset(&sb, &sa) == brute_subset(&sb, &sa));
		}
	}
	fmt_arena_free_all(&arena);
	return 0;
}
