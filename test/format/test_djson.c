/*
 * test_djson.c
 *	  Unit tests of the exact JSON parser.
 */
#include <string.h>

#include "djson.h"
#include "djson_scan.h"
#include "ref_json.h"
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

/*
 * The string scanner works eight bytes at a time: put every kind of special
 * byte (quote escape, \u escape, multi-byte UTF-8, control character,
 * invalid UTF-8) at every offset around block boundaries and check the
 * result (and the error offset) against what a byte-wise reading gives.
 */
UNIT_TEST(djson_strings_at_every_block_offset)
{
	static const struct
	{
		const char *piece;		/* as written in the JSON text */
		const char *decoded;	/* NULL: the string must be refused */
		size_t		bad_at;		/* offset of the refused byte in piece */
	}			cases[] = {
		{"\\\"", "\"", 0},
		{"\\\\", "\\", 0},
		{"\\u00e9", "\xc3\xa9", 0},
		{"\\ud83d\\ude00", "\xf0\x9f\x98\x80", 0},
		{"\xc3\xa9", "\xc3\xa9", 0},
		{"\xe2\x82\xac", "\xe2\x82\xac", 0},
		{"\t", NULL, 0},
		{"\x7f", "\x7f", 0},
		{"\xff", NULL, 0},
		{"\\x", NULL, 2},
	};
	FmtArena	arena;
	size_t		c;
	int			pre;
	int			post;

	fmt_arena_init(&arena, 0);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (pre = 0; pre < 20; pre++)
			for (post = 0; post < 12; post += 3)
			{
				char		text[128];
				char		want[128];
				size_t		n = 0;
				DjValue		v;
				DjError		err;
				bool		ok;
				int			k;

				text[n++] = '"';
				for (k = 0; k < pre; k++)
					text[n++] = (char) ('a' + k % 26);
				memcpy(text + n, cases[c].piece, strlen(cases[c].piece));
				n += strlen(cases[c].piece);
				for (k = 0; k < post; k++)
					text[n++] = 'z';
				text[n++] = '"';
				text[n] = '\0';
				ok = parse(&arena, text, &v, &err);
				if (cases[c].decoded == NULL)
				{
					UNIT_CHECK(!ok);
					UNIT_CHECK(err.offset == (size_t) (1 + pre) + cases[c].bad_at);
					continue;
				}
				UNIT_CHECK(ok && v.type == DJ_STRING);
				for (k = 0; k < pre; k++)
					want[k] = (char) ('a' + k % 26);
				strcpy(want + pre, cases[c].decoded);
				for (k = 0; k < post; k++)
					strcat(want, "z");
				UNIT_CHECK(ok && strcmp(v.u.str, want) == 0 && v.len == strlen(want));
			}
	fmt_arena_free_all(&arena);
}

UNIT_TEST(djson_equal_compares_bytes_and_order)
{
	FmtArena	arena;
	DjValue		a;
	DjValue		b;
	DjError		err;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(parse(&arena, "{\"k\": [1, \"s\", null, {\"x\": true}]}", &a, &err));
	UNIT_CHECK(parse(&arena, " { \"k\" : [ 1 , \"s\" , null , { \"x\" : true } ] } ", &b, &err));
	UNIT_CHECK(dj_equal(&a, &b));	/* white space is not in the tree */
	UNIT_CHECK(parse(&arena, "{\"k\": [1.0, \"s\", null, {\"x\": true}]}", &b, &err));
	UNIT_CHECK(!dj_equal(&a, &b));	/* number text differs */
	UNIT_CHECK(parse(&arena, "{\"k\": [1, \"s\", null, {\"x\": false}]}", &b, &err));
	UNIT_CHECK(!dj_equal(&a, &b));	/* a nested value differs */
	UNIT_CHECK(parse(&arena, "{\"a\": 1, \"b\": 2}", &a, &err));
	UNIT_CHECK(parse(&arena, "{\"b\": 2, \"a\": 1}", &b, &err));
	UNIT_CHECK(!dj_equal(&a, &b));	/* member order counts */
	UNIT_CHECK(parse(&arena, "\"a\\u0041b\"", &a, &err));
	UNIT_CHECK(parse(&arena, "\"aAb\"", &b, &err));
	UNIT_CHECK(dj_equal(&a, &b));	/* decoded bytes are compared */
	UNIT_CHECK(parse(&arena, "\"aAc\"", &b, &err));
	UNIT_CHECK(!dj_equal(&a, &b));
	UNIT_CHECK(parse(&arena, "[]", &a, &err) && parse(&arena, "{}", &b, &err));
	UNIT_CHECK(!dj_equal(&a, &b));
	fmt_arena_free_all(&arena);
}

/*
 * dj_number_end reads digit runs eight bytes at a time: it must end every
 * token where the byte-at-a-time grammar does, for texts mixing digits
 * with the bytes next to them in value ('/' ':' '*' and bytes from 0xfa
 * on, whose + 6 carries), at every length and offset.
 */
UNIT_TEST(djson_number_end_matches_the_grammar)
{
	static const char alphabet[] = "0123456789019-+.eE/:*\xfa\xff\x30\x39 ,";
	char		buf[48];
	uint32_t	seed = 12345;
	int			t;

	for (t = 0; t < 200000; t++)
	{
		size_t		len;
		size_t		i;
		size_t		start;

		unit_next(&seed);
		len = (seed >> 16) % sizeof(buf);
		for (i = 0; i < len; i++)
		{
			unit_next(&seed);
			/* mostly digits, so that runs cross eight-byte words */
			buf[i] = ((seed >> 16) % 4 != 0) ? (char) ('0' + (seed >> 20) % 10) :
				alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
		}
		unit_next(&seed);
		start = len == 0 ? 0 : (seed >> 16) % (len + 1);
		UNIT_CHECK(dj_number_end(buf + start, buf + len) ==
				   ref_number_end(buf + start, buf + len));
	}
}

/*
 * dj_number_token_int and dj_digits_known (a word at a time) against a
 * digit-at-a-time oracle: every length from 0 to 20, runs of the bytes a
 * number token has after its sign (mostly digits), between digits (so
 * that a read outside the run would change the answer).
 */
UNIT_TEST(djson_number_token_int_oracle)
{
	static const char others[] = ".eE+-";
	uint32_t	seed = 99;
	int			iter;

	for (iter = 0; iter < 300000; iter++)
	{
		char		buf[48];
		size_t		n = (unit_next(&seed) >> 16) % 21;
		size_t		at = 8 + (unit_next(&seed) >> 16) % 8;
		size_t		i;
		int			k;
		int			nother = (int) ((unit_next(&seed) >> 16) % 3);
		uint64_t	got = 0;
		uint64_t	want = 0;
		bool		ok = n >= 1 && n <= 18;
		bool		r;

		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (char) ('0' + (unit_next(&seed) >> 16) % 10);
		for (k = 0; k < nother && n > 0; k++)
			buf[at + (unit_next(&seed) >> 16) % n] =
				others[(unit_next(&seed) >> 16) % (sizeof(others) - 1)];
		for (i = 0; i < n; i++)
		{
			unsigned	d = (unsigned char) buf[at + i] - '0';

			if (d > 9)
				ok = false;
			want = want * 10 + d;
		}
		r = dj_number_token_int(buf + at, n, &got);
		UNIT_CHECK(r == ok);
		if (r && ok)
			UNIT_CHECK(got == want);
		if (ok)
			UNIT_CHECK(dj_digits_known(buf + at, n) == want);
	}
	{
		uint64_t	v = 0;

		UNIT_CHECK(dj_number_token_int("999999999999999999", 18, &v) &&
				   v == UINT64_C(999999999999999999));
		UNIT_CHECK(dj_number_token_int("000000000000000001", 18, &v) &&
				   v == 1);
		UNIT_CHECK(!dj_number_token_int("1234567890123456789", 19, &v));
		UNIT_CHECK(!dj_number_token_int("12345678.5", 10, &v));
		UNIT_CHECK(!dj_number_token_int("1e5", 3, &v));
		UNIT_CHECK(dj_number_token_int("7", 1, &v) && v == 7);
	}
}
