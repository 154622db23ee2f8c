/*
 * fuzz_djson.c
 *	  libFuzzer harness for the exact JSON parser (djson): parse, then walk
 *	  the tree exercising lookups and exact number conversions.
 */
#include <string.h>

#include "djson.h"
#include "fuzz_common.h"

static void
walk(const DjValue *v, int depth)
{
	uint32_t	i;
	int64_t		i64;
	double		d;

	FUZZ_ASSERT(depth <= DJ_DEFAULT_MAX_DEPTH + 1);
	switch (v->type)
	{
		case DJ_NUMBER:
			FUZZ_ASSERT(strlen(v->u.num) == v->len);
			(void) dj_to_int64(v, &i64);
			(void) dj_to_double(v, &d);
			break;
		case DJ_STRING:
			/* no embedded NUL: \u0000 is refused */
			FUZZ_ASSERT(strlen(v->u.str) == v->len);
			break;
		case DJ_ARRAY:
			for (i = 0; i < v->len; i++)
				walk(&v->u.items[i], depth + 1);
			break;
		case DJ_OBJECT:
			for (i = 0; i < v->len; i++)
			{
				FUZZ_ASSERT(strlen(v->u.members[i].key) == v->u.members[i].keylen);
				FUZZ_ASSERT(dj_get(v, v->u.members[i].key) != NULL);
				FUZZ_ASSERT(dj_get_ci(v, v->u.members[i].key) != NULL);
				walk(&v->u.members[i].value, depth + 1);
			}
			break;
		default:
			break;
	}
	(void) dj_type_name(v->type);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FmtArena	arena;
	FmtAllocator a;
	DjValue		v;
	DjError		err;

	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	if (dj_parse((const char *) data, size, &a, DJ_DEFAULT_MAX_DEPTH, &v, &err))
		walk(&v, 0);
	else
		FUZZ_ASSERT(err.offset <= size && memchr(err.message, '\0', sizeof(err.message)));
	fmt_arena_free_all(&arena);
	return 0;
}
