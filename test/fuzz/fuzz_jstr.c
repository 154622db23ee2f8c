/*
 * fuzz_jstr.c
 *	  libFuzzer harness for JSON string bodies (jstr.h): the input is a
 *	  body.  Plain: when jstr_end accepts it, '"' + the body up to the
 *	  closing quote + '"' is a string djson accepts, with jstr_decode's
 *	  characters; when djson accepts a string ending at some quote of the
 *	  body, jstr_end gives that quote.  Escaped: the same through two
 *	  levels ("\"" + body + "\"" decoded by djson, the result parsed again).
 */
#include <string.h>

#include "djson.h"
#include "fuzz_common.h"
#include "jstr.h"

/* djson's string of text[0 .. len) when it is one whole string */
static bool
whole_string(const char *text, size_t len, FmtArena *arena, const char **s,
			 size_t *slen)
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

static void
check_plain(const char *body, size_t n, FmtArena *arena)
{
	char	   *text = malloc(n + 2);
	char	   *out = malloc(n + 1);
	const char *close = jstr_end(body, body + n, JS_PLAIN, NULL);
	const char *ref;
	size_t		reflen;
	size_t		k;

	text[0] = '"';
	memcpy(text + 1, body, n);
	if (close != NULL)
	{
		k = (size_t) (close - body);
		FUZZ_ASSERT(k < n && body[k] == '"');
		FUZZ_ASSERT(whole_string(text, k + 2, arena, &ref, &reflen));
		FUZZ_ASSERT(jstr_decode(body, close, JS_PLAIN, out) == reflen &&
					memcmp(out, ref, reflen) == 0);
	}
	else
	{
		for (k = 0; k < n; k++)
			if (body[k] == '"')
				FUZZ_ASSERT(!whole_string(text, k + 2, arena, &ref, &reflen));
	}
	free(text);
	free(out);
}

static void
check_escaped(const char *body, size_t n, FmtArena *arena)
{
	char	   *outer = malloc(n + 6);
	char	   *out = malloc(n + 1);
	const char *close = jstr_end(body, body + n, JS_ESCAPED, NULL);
	const char *s1;
	size_t		l1;
	const char *ref;
	size_t		reflen;
	size_t		k;

	memcpy(outer, "\"\\\"", 3);
	for (k = 0; k + 1 < n; k++)
	{
		bool		ok;

		if (body[k] != '\\' || body[k + 1] != '"')
			continue;
		memcpy(outer + 3, body, k);
		memcpy(outer + 3 + k, "\\\"\"", 3);
		ok = whole_string(outer, k + 6, arena, &s1, &l1) &&
			whole_string(s1, l1, arena, &ref, &reflen);
		if (close == body + k)
		{
			FUZZ_ASSERT(ok);
			FUZZ_ASSERT(jstr_decode(body, close, JS_ESCAPED, out) == reflen &&
						memcmp(out, ref, reflen) == 0);
			break;
		}
		/* an earlier accepted closing quote was jstr_end's to find */
		FUZZ_ASSERT(!ok);
	}
	if (close != NULL)
		FUZZ_ASSERT(k + 1 < n && close == body + k);
	free(outer);
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FmtArena	arena;

	if (size > 4096)
		return 0;
	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	check_plain((const char *) data, size, &arena);
	check_escaped((const char *) data, size, &arena);
	fmt_arena_free_all(&arena);
	return 0;
}
