/*
 * fuzz_jshape.c
 *	  libFuzzer harness for JSON shape templates: the input is a model and
 *	  a candidate separated by the first NUL byte.  When the exact parser
 *	  accepts the model, the shape is built from it (both quotings), and a
 *	  candidate the shape accepts must be valid JSON too; the model always
 *	  matches its own shape, with the unescaped copy equal to the model.
 *	  The shape's keyed model takes all the shape takes, with the same
 *	  slots, and only valid JSON.
 */
#include <string.h>

#include "djson.h"
#include "fuzz_common.h"
#include "jshape.h"

static bool
valid_json(const char *text, size_t len)
{
	FmtArena	arena;
	FmtAllocator a;
	DjValue		v;
	DjError		err;
	bool		ok;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	ok = dj_parse(text, len, &a, 0, &v, &err);
	fmt_arena_free_all(&arena);
	return ok;
}

/*
 * js_match with output puts the instance together from the slots after
 * the walk: it must give the answer, slots and length it gives without
 * output, and an output equal to the matched bytes (JS_PLAIN) or to them
 * with each backslash + '"' as '"' (JS_ESCAPED).  The match without
 * output walks without AVX2 (js_use_wide), the other as the CPU allows:
 * the two walks must agree too.
 */
static void
check_output(const JsShape *sh, const char *cand, size_t clen)
{
	JsSlot	   *s1 = malloc(sizeof(JsSlot) * (sh->nslots + 1));
	JsSlot	   *s2 = malloc(sizeof(JsSlot) * (sh->nslots + 1));
	char	   *out = malloc(clen + 1);
	char	   *ref = malloc(clen + 1);
	size_t		c1 = 0;
	size_t		c2 = 0;
	size_t		outlen = 0;
	bool		m1 = js_match(sh, cand, cand + clen, s1, &c1, out, &outlen);
	bool		m2;
	int			i;

	js_use_wide(false);
	m2 = js_match(sh, cand, cand + clen, s2, &c2, NULL, NULL);
	js_use_wide(true);

	FUZZ_ASSERT(m1 == m2);
	if (m1)
	{
		size_t		reflen;

		FUZZ_ASSERT(c1 == c2);
		for (i = 0; i < sh->nslots; i++)
			FUZZ_ASSERT(s1[i].off == s2[i].off && s1[i].len == s2[i].len &&
						s1[i].kind == s2[i].kind &&
						(s1[i].kind != JS_SLOT_STRING ||
						 s1[i].escaped == s2[i].escaped));
		if (sh->quoting == JS_PLAIN)
		{
			memcpy(ref, cand, c1);
			reflen = c1;
		}
		else
		{
			/*
			 * each backslash + '"' of the literals as '"', each escaped
			 * string slot decoded one level (jstr, the enclosing string's
			 * escapes)
			 */
			size_t		at = 0;

			reflen = 0;
			for (i = 0; i < sh->nslots; i++)
			{
				if (!(s1[i].kind == JS_SLOT_STRING && s1[i].escaped))
					continue;
				reflen += js_unescape_quotes(ref + reflen, cand + at,
											 s1[i].off - at);
				reflen += jstr_decode(cand + s1[i].off,
									  cand + s1[i].off + s1[i].len, JS_PLAIN,
									  ref + reflen);
				at = s1[i].off + s1[i].len;
			}
			reflen += js_unescape_quotes(ref + reflen, cand + at, c1 - at);
		}
		FUZZ_ASSERT(outlen == reflen && memcmp(out, ref, reflen) == 0);
	}
	free(s1);
	free(s2);
	free(out);
	free(ref);
}

/*
 * The keyed model of a shape takes whatever the shape takes, with the
 * same slots (its members in any order and white space anywhere only add
 * texts); what it takes is valid JSON (JS_PLAIN), and the model is one.
 */
static void
check_keyed(JsShape *sh, const FmtAllocator *a, const char *model,
			size_t mlen, const char *cand, size_t clen)
{
	JsSlot	   *s1 = malloc(sizeof(JsSlot) * (sh->nslots + 1));
	JsSlot	   *s2 = malloc(sizeof(JsSlot) * (sh->nslots + 1));
	size_t		c1 = 0;
	size_t		c2 = 0;
	bool		exact;
	bool		keyed;
	int			i;

	if (!js_build_keyed(sh, a))
	{
		FUZZ_ASSERT(!js_match_keyed(sh, cand, cand + clen, s2, &c2));
		goto done;
	}
	if (sh->quoting == JS_PLAIN)
		FUZZ_ASSERT(js_match_keyed(sh, model, model + mlen, s2, &c2) &&
					c2 == mlen);
	exact = js_match(sh, cand, cand + clen, s1, &c1, NULL, NULL);
	keyed = js_match_keyed(sh, cand, cand + clen, s2, &c2);
	if (keyed)
	{
		FUZZ_ASSERT(c2 <= clen);
		if (sh->quoting == JS_PLAIN)
			FUZZ_ASSERT(valid_json(cand, c2));
	}
	if (exact)
	{
		FUZZ_ASSERT(keyed && c2 >= c1);
		for (i = 0; i < sh->nslots; i++)
			FUZZ_ASSERT(s1[i].off == s2[i].off && s1[i].len == s2[i].len &&
						s1[i].kind == s2[i].kind &&
						(s1[i].kind != JS_SLOT_STRING ||
						 s1[i].escaped == s2[i].escaped));
	}
done:
	free(s1);
	free(s2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	const char *nul = memchr(text, '\0', size);
	size_t		mlen = nul ? (size_t) (nul - text) : size;
	const char *cand = nul ? nul + 1 : text;
	size_t		clen = nul ? size - mlen - 1 : size;
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot	   *slots;
	char	   *out;
	size_t		consumed;
	size_t		outlen;

	if (size > 1 << 16 || !valid_json(text, mlen))
		return 0;
	fmt_arena_init(&arena, 1 << 24);
	a = fmt_arena_allocator(&arena);
	/* (the wide walk with the template: check_output compares the two) */
	if (js_build(&sh, text, mlen, JS_PLAIN, &a) &&
		js_build_template(&sh, &a))
	{
		slots = malloc(sizeof(JsSlot) * (sh.nslots + 1));
		out = malloc(mlen + clen + 1);
		FUZZ_ASSERT(js_match(&sh, text, text + mlen, slots, &consumed, out, &outlen));
		FUZZ_ASSERT(consumed == mlen && outlen == mlen && memcmp(out, text, mlen) == 0);
		if (js_match(&sh, cand, cand + clen, slots, &consumed, out, &outlen))
		{
			FUZZ_ASSERT(consumed <= clen && outlen == consumed);
			FUZZ_ASSERT(valid_json(cand, consumed));
		}
		check_output(&sh, cand, clen);
		check_keyed(&sh, &a, text, mlen, cand, clen);
		free(slots);
		free(out);
	}
	/* escaped quoting: must never read out of bounds whatever it gets */
	if (js_build(&sh, text, mlen, JS_ESCAPED, &a) &&
		js_build_template(&sh, &a))
	{
		slots = malloc(sizeof(JsSlot) * (sh.nslots + 1));
		out = malloc(clen + 1);
		if (js_match(&sh, cand, cand + clen, slots, &consumed, out, &outlen))
			FUZZ_ASSERT(consumed <= clen && outlen <= consumed);
		check_output(&sh, cand, clen);
		check_keyed(&sh, &a, text, mlen, cand, clen);
		free(slots);
		free(out);
	}
	fmt_arena_free_all(&arena);
	return 0;
}
