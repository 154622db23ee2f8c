/*
 * test_djson.c
 *	  Unit tests of the exact JSON parser.
 */
#include <string.h>

#include "djson.h"
#include "unit.h"

static bool
parse(FmtArena *arena, const char *text, DjValue *v, DjError *err)
{
	FmtAllocator a = fmt_arena_allocator(arena);

	return dj_parse(text, strlen(text), &a, 0, v, err);
}

UNIT_TEST(djson_big_integers_stay_exact)
{
	FmtArena	arena;
	DjValue		v;
	DjError		err;
	int64_t		i;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(parse(&arena, "{\"max\": 12345678901234567890123, \"n\": 9223372036854775807}", &v, &err));
	UNIT_CHECK(strcmp(dj_get(&v, "max")->u.num, "12345678901234567890123") == 0);
	UNIT_CHECK(!dj_to_int64(dj_get(&v, "max"), &i));
	UNIT_CHECK(dj_to_int64(dj_get(&v, "n"), &i) && i == INT64_MAX);
	UNIT_CHECK(parse(&arena, "-9223372036854775808", &v, &err));
	UNIT_CHECK(dj_to_int64(&v, &i) && i == INT64_MIN);
	UNIT_CHECK(parse(&arena, "9223372036854775808", &v, &err));
	UNIT_CHECK(!dj_to_int64(&v, &i));
	UNIT_CHECK(parse(&arena, "1.5", &v, &err) && !dj_to_int64(&v, &i));
	UNIT_CHECK(parse(&arena, "1e3", &v, &err) && !dj_to_int64(&v, &i));
	UNIT_CHECK(parse(&arena, "0.1234567890123456789012345678901234567", &v, &err));
	UNIT_CHECK(strcmp(v.u.num, "0.1234567890123456789012345678901234567") == 0);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(djson_strings_and_escapes)
{
	FmtArena	arena;
	DjValue		v;
	DjError		err;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(parse(&arena, "\"a\\u00e9\\ud83d\\ude00\\n\"", &v, &err));
	UNIT_CHECK(v.type == DJ_STRING && strcmp(v.u.str, "a\xc3\xa9\xf0\x9f\x98\x80\n") == 0);
	UNIT_CHECK(!parse(&arena, "\"\\u0000\"", &v, &err));
	UNIT_CHECK(!parse(&arena, "\"\\ud83d\"", &v, &err));
	UNIT_CHECK(!parse(&arena, "\"\xff\"", &v, &err));
	UNIT_CHECK(!parse(&arena, "\"\xc0\xaf\"", &v, &err));	/* overlong */
	UNIT_CHECK(!parse(&arena, "\"abc", &v, &err));
	UNIT_CHECK(!parse(&arena, "\"abc\\", &v, &err));
	UNIT_CHECK(!parse(&arena, "\"tab\there\"", &v, &err));
	fmt_arena_free_all(&arena);
}

UNIT_TEST(djson_structure_errors)
{
	FmtArena	arena;
	DjValue		v;
	DjError		err;
	char		deep[300];
	int			i;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(parse(&arena, " {\"a\":[1,2,{\"b\":null}],\"a\":true} ", &v, &err));
	UNIT_CHECK(dj_get(&v, "a")->type == DJ_TRUE);	/* last duplicate wins */
	UNIT_CHECK(dj_get_ci(&v, "A")->type == DJ_TRUE);
	UNIT_CHECK(!parse(&arena, "{\"a\":1,}", &v, &err));
	UNIT_CHECK(!parse(&arena, "[1,]", &v, &err));
	UNIT_CHECK(!parse(&arena, "{} {}", &v, &err));
	UNIT_CHECK(!parse(&arena, "", &v, &err));
	UNIT_CHECK(!parse(&arena, "tru", &v, &err));
	UNIT_CHECK(!parse(&arena, "01", &v, &err));
	UNIT_CHECK(!parse(&arena, "-", &v, &err));
	UNIT_CHECK(!parse(&arena, "1.", &v, &err));
	for (i = 0; i < 299; i++)
		deep[i] = '[';
	deep[299] = '\0';
	UNIT_CHECK(!parse(&arena, deep, &v, &err));
	UNIT_CHECK(strstr(err.message, "deep") != NULL);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(djson_allocation_limit_is_an_error)
{
	FmtArena	arena;
	FmtAllocator a;
	DjValue		v;
	DjError		err;
	const char *text = "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",1,2,3,4,5,6,7,8,9,10,11,12]";

	fmt_arena_init(&arena, 64);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(!dj_parse(text, strlen(text), &a, 0, &v, &err));
	UNIT_CHECK(strcmp(err.message, "out of memory") == 0);
	fmt_arena_free_all(&arena);
}
