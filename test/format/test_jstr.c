/*
 * test_jstr.c
 *	  Unit tests of JSON string bodies (jstr.h): on random bodies made of
 *	  the bytes that matter (quotes, backslashes, escape letters, hex
 *	  digits, UTF-8 and control bytes), what jstr_end and jstr_decode say is
 *	  what the exact parser says, at one level and at two.
 */
#include <stdlib.h>
#include <string.h>

#include "djson.h"
#include "jstr.h"
#include "unit.h"

/* the string djson makes of text[0 .. len) when it is one whole string */
static bool
parse_string_text(const char *text, size_t len, FmtArena *arena,
				  const char **s, size_t *slen)
{
	FmtAllocator a = fmt_arena_allocator(arena);
	DjValue		v;
	DjError		err;

	if (!dj_parse(text, len, &a, 0, &v, &err) || v.type != DJ_STRING)
		return false;
	*s = v.u.str;
	*slen = v.len;
	return true;
}

static const char *const pieces[] = {
	"a", "b", " ", "\"", "\\", "n", "u", "0", "1", "d", "D", "8", "c", "e",
	"F", "/", "t", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3",
	"\x80", "\x01", "\x7f", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00",
	"\\ud83d", "\\u0000", "\\u0022", "\\u005c", "\\\\u00e9", "\\\\\\\"",
	"\\\\n", "\\n", "\\/", "\\\\/", "xyz", "0123456789abcdef"
};

/* a random body of up to n pieces, NUL-free apart from none (pieces have none) */
static size_t
random_body(uint32_t *seed, char *buf, int n)
{
	size_t		len = 0;
	int			k = (int) (unit_next(seed) >> 16) % (n + 1);
	int			i;

	for (i = 0; i < k; i++)
	{
		const char *p = pieces[(unit_next(seed) >> 16) %
							   (sizeof(pieces) / sizeof(pieces[0]))];

		memcpy(buf + len, p, strlen(p));
		len += strlen(p);
	}
	return len;
}

UNIT_TEST(jstr_plain_matches_djson)
{
	uint32_t	seed = 20240611;
	int			iter;
	int			accepted = 0;

	for (iter = 0; iter < 200000; iter++)
	{
		char		text[1024];
		char		out[1024];
		size_t		blen;
		size_t		len;
		const char *close;
		bool		simple;
		size_t		k;
		size_t		expect = (size_t) -1;
		const char *ref = NULL;
		size_t		reflen = 0;
		FmtArena	arena;

		text[0] = '"';
		blen = random_body(&seed, text + 1, 12);
		len = blen + 1;
		if ((unit_next(&seed) >> 16) % 4 != 0)
			text[len++] = '"';
		fmt_arena_init(&arena, 0);
		/* the one prefix ending at a quote that djson takes as a string */
		for (k = 1; k < len; k++)
			if (text[k] == '"' &&
				parse_string_text(text, k + 1, &arena, &ref, &reflen))
			{
				expect = k;
				break;
			}
		close = jstr_end(text + 1, text + len, JS_PLAIN, &simple);
		if (expect == (size_t) -1)
			UNIT_CHECK(close == NULL);
		else
		{
			UNIT_CHECK(close == text + expect);
			if (close == text + expect)
			{
				size_t		n = jstr_decode(text + 1, close, JS_PLAIN, out);
				size_t		i;
				bool		plain = true;

				accepted++;
				UNIT_CHECK(n == reflen && memcmp(out, ref, n) == 0);
				for (i = 1; i < expect; i++)
					if ((unsigned char) text[i] < 0x20 ||
						(unsigned char) text[i] >= 0x7f || text[i] == '\\')
						plain = false;
				UNIT_CHECK(simple == plain);
			}
		}
		fmt_arena_free_all(&arena);
	}
	UNIT_CHECK(accepted > 1000);
}

UNIT_TEST(jstr_escaped_matches_djson_twice)
{
	uint32_t	seed = 7;
	int			iter;
	int			accepted = 0;

	for (iter = 0; iter < 200000; iter++)
	{
		char		body[1024];
		char		outer[1100];
		char		out[1024];
		size_t		blen;
		const char *close;
		size_t		k;
		size_t		expect = (size_t) -1;
		const char *ref = NULL;
		size_t		reflen = 0;
		FmtArena	arena;

		blen = random_body(&seed, body, 12);
		if ((unit_next(&seed) >> 16) % 4 != 0)
		{
			memcpy(body + blen, "\\\"", 2);
			blen += 2;
		}
		fmt_arena_init(&arena, 0);

		/*
		 * The one backslash + '"' of the body at which "\"<body up to
		 * it>\"" is a JSON string whose contents are one JSON string.
		 */
		for (k = 0; k + 1 < blen; k++)
		{
			const char *s1;
			size_t		l1;

			if (body[k] != '\\' || body[k + 1] != '"')
				continue;
			outer[0] = '"';
			outer[1] = '\\';
			outer[2] = '"';
			memcpy(outer + 3, body, k);
			memcpy(outer + 3 + k, "\\\"\"", 3);
			if (parse_string_text(outer, k + 6, &arena, &s1, &l1) &&
				parse_string_text(s1, l1, &arena, &ref, &reflen))
			{
				expect = k;
				break;
			}
		}
		close = jstr_end(body, body + blen, JS_ESCAPED, NULL);
		if (expect == (size_t) -1)
		{
			/* (an inner string closed by \u0022 is refused on purpose) */
			UNIT_CHECK(close == NULL);
		}
		else
		{
			UNIT_CHECK(close == body + expect);
			if (close == body + expect)
			{
				size_t		n = jstr_decode(body, close, JS_ESCAPED, out);

				accepted++;
				UNIT_CHECK(n == reflen && memcmp(out, ref, n) == 0);
			}
		}
		fmt_arena_free_all(&arena);
	}
	UNIT_CHECK(accepted > 1000);
}

UNIT_TEST(jstr_cases)
{
	bool		simple;
	char		out[64];
	const char *t;
	const char *c;

	t = "abc\"";
	UNIT_CHECK(jstr_end(t, t + 4, JS_PLAIN, &simple) == t + 3 && simple);
	t = "a\\u00e9\"";
	c = jstr_end(t, t + strlen(t), JS_PLAIN, &simple);
	UNIT_CHECK(c == t + 7 && !simple);
	UNIT_CHECK(jstr_decode(t, c, JS_PLAIN, out) == 3 &&
			   memcmp(out, "a\xc3\xa9", 3) == 0);
	/* the line's form of the statistics string "Zo\u00eb \"Z\"" */
	t = "Zo\\\\u00eb \\\\\\\"Z\\\\\\\"\\\"";
	c = jstr_end(t, t + strlen(t), JS_ESCAPED, &simple);
	UNIT_CHECK(c == t + strlen(t) - 2 && !simple);
	UNIT_CHECK(jstr_decode(t, c, JS_ESCAPED, out) == 8 &&
			   memcmp(out, "Zo\xc3\xab \"Z\"", 8) == 0);
	/* a raw newline inside the inner string: a line's \n */
	t = "two\\nlines\\\"";
	UNIT_CHECK(jstr_end(t, t + strlen(t), JS_ESCAPED, NULL) == NULL);
	/* \u0000 at either level, unpaired surrogates */
	t = "a\\u0000\"";
	UNIT_CHECK(jstr_end(t, t + strlen(t), JS_PLAIN, NULL) == NULL);
	t = "a\\\\u0000\\\"";
	UNIT_CHECK(jstr_end(t, t + strlen(t), JS_ESCAPED, NULL) == NULL);
	t = "\\udc00\"";
	UNIT_CHECK(jstr_end(t, t + strlen(t), JS_PLAIN, NULL) == NULL);
	/* the input ends inside */
	t = "abc\\";
	UNIT_CHECK(jstr_end(t, t + strlen(t), JS_PLAIN, NULL) == NULL);
	UNIT_CHECK(jstr_end(t, t + strlen(t), JS_ESCAPED, NULL) == NULL);
}

/*
 * jstr_decode writes sixteen bytes at a time while it looks at them: on
 * long bodies (plain runs past sixteen bytes between escapes and UTF-8)
 * its answer is still djson's, and nothing is written past the room its
 * caller gives (close - p bytes: the canary after them stays).
 */
UNIT_TEST(jstr_decode_long_bodies_in_room)
{
	uint32_t	seed = 4242;
	int			iter;
	int			accepted = 0;
	int			wide = 0;

	for (iter = 0; iter < 50000; iter++)
	{
		char		text[4096];
		char		room[4096 + 32];
		size_t		len;
		const char *close;
		const char *ref = NULL;
		size_t		reflen = 0;
		size_t		n;
		size_t		i;
		bool		canary = true;
		FmtArena	arena;

		text[0] = '"';
		len = 1 + random_body(&seed, text + 1, 60);
		text[len++] = '"';
		close = jstr_end(text + 1, text + len, JS_PLAIN, NULL);
		if (close == NULL)
			continue;
		fmt_arena_init(&arena, 0);
		if (!parse_string_text(text, (close - text) + 1, &arena, &ref, &reflen))
		{
			UNIT_CHECK(false);
			fmt_arena_free_all(&arena);
			continue;
		}
		memset(room, 0x5a, sizeof(room));
		n = jstr_decode(text + 1, close, JS_PLAIN, room);
		UNIT_CHECK(n == reflen && memcmp(room, ref, n) == 0);
		for (i = (size_t) (close - (text + 1)); i < sizeof(room); i++)
			if ((unsigned char) room[i] != 0x5a)
				canary = false;
		UNIT_CHECK(canary);
		accepted++;
		if (close - (text + 1) > 48)
			wide++;
		fmt_arena_free_all(&arena);
	}
	UNIT_CHECK(accepted > 1000 && wide > 500);
}
