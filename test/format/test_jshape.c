/*
 * test_jshape.c
 *	  Unit tests of JSON shape templates: what a shape accepts, what it
 *	  refuses, and that everything it accepts is valid JSON (checked with
 *	  the exact parser).
 */
#include <stdlib.h>
#include <string.h>

#include "djson.h"
#include "jshape.h"
#include "ref_json.h"
#include "unit.h"

/* match text (whole) against shape; slots room for 64 */
static bool
match_all(const JsShape *sh, const char *text, JsSlot *slots, char *out,
		  size_t *outlen)
{
	size_t		consumed = 0;

	if (!js_match(sh, text, text + strlen(text), slots, &consumed, out, outlen))
		return false;
	return consumed == strlen(text);
}

/* the exact parser accepts text */
static bool
valid_json(const char *text)
{
	FmtArena	arena;
	FmtAllocator a;
	DjValue		v;
	DjError		err;
	bool		ok;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	ok = dj_parse(text, strlen(text), &a, 0, &v, &err);
	fmt_arena_free_all(&arena);
	return ok;
}

UNIT_TEST(jshape_plain_slots_and_literals)
{
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[64];
	char		out[256];
	size_t		outlen = 0;
	const char *model = "{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}";

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(js_build(&sh, model, strlen(model), JS_PLAIN, &a));
	UNIT_CHECK(sh.nslots == 8);
	/* the model matches itself */
	UNIT_CHECK(match_all(&sh, model, slots, out, &outlen));
	UNIT_CHECK(outlen == strlen(model) && memcmp(out, model, outlen) == 0);
	/* other values of the same kinds */
	UNIT_CHECK(match_all(&sh, "{\"numRecords\":123456789012,\"minValues\":{\"id\":0,\"s\":\"\",\"b\":null},\"tightBounds\":true,\"a\":[-0.0, 7, false]}", slots, NULL, NULL));
	UNIT_CHECK(slots[0].kind == JS_SLOT_NUMBER && slots[0].len == 12);
	UNIT_CHECK(slots[2].kind == JS_SLOT_STRING && slots[2].len == 0);
	UNIT_CHECK(slots[3].kind == JS_SLOT_NULL && slots[4].kind == JS_SLOT_TRUE);
	UNIT_CHECK(slots[7].kind == JS_SLOT_FALSE);
	/* slot lookup by model offset */
	UNIT_CHECK(js_slot_at(&sh, strchr(model, '1') - model) == 0);
	UNIT_CHECK(js_slot_at(&sh, strstr(model, "abc") - model) == 2);
	UNIT_CHECK(js_slot_at(&sh, 0) == -1);
	/* texts the shape refuses: the model with one change each */
	{
		static const char *const refused[] = {
			/* a different key */
			"{\"numRecords\":10,\"minValues\":{\"ID\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* spacing */
			"{\"numRecords\": 10,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* a string for a number */
			"{\"numRecords\":\"10\",\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* a number for a word */
			"{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":1},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* one more member */
			"{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null, 4]}",
			/* a leading zero */
			"{\"numRecords\":01,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* a dot without digits */
			"{\"numRecords\":1.,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* a lone minus */
			"{\"numRecords\":-,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* an invalid escape in a string slot */
			"{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"a\\xc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* invalid UTF-8 in a string slot */
			"{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"a\xc3\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* not a word */
			"{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":tru},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
			/* a number longer than JS_MAX_NUMBER */
			"{\"numRecords\":12345678901234567890123456789012345678901234567890123456789012345,\"minValues\":{\"id\":-3,\"s\":\"abc\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}",
		};
		size_t		k;

		for (k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
			UNIT_CHECK(!match_all(&sh, refused[k], slots, NULL, NULL));
	}
	/* escapes and UTF-8 in a string slot: taken, and said so */
	UNIT_CHECK(match_all(&sh, "{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"a\\nc\\u00e9\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}", slots, NULL, NULL));
	UNIT_CHECK(slots[2].kind == JS_SLOT_STRING && slots[2].escaped &&
			   slots[2].len == 10 && !slots[1].escaped);
	UNIT_CHECK(match_all(&sh, "{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"S\xc3\xa3o\",\"b\":true},\"tightBounds\":false,\"a\":[1, 2.5e3, null]}", slots, NULL, NULL));
	UNIT_CHECK(slots[2].escaped && slots[2].len == 4);
	/* truncated anywhere: refused */
	{
		size_t		n = strlen(model);
		size_t		k;
		size_t		consumed;

		for (k = 0; k < n; k++)
			UNIT_CHECK(!js_match(&sh, model, model + k, slots, &consumed, NULL, NULL));
	}
	fmt_arena_free_all(&arena);
}

UNIT_TEST(jshape_escaped_mode)
{
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[64];
	char		out[256];
	size_t		outlen = 0;
	size_t		consumed = 0;
	/* as inside a JSON string: every quote is backslash + quote */
	const char *model = "{\\\"numRecords\\\":5,\\\"minValues\\\":{\\\"t\\\":\\\"2024-01-01T00:00:00.000Z\\\"}}";
	const char *other = "{\\\"numRecords\\\":77,\\\"minValues\\\":{\\\"t\\\":\\\"x y\\\"}}\",\"tags\":{}";

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(js_build(&sh, model, strlen(model), JS_ESCAPED, &a));
	UNIT_CHECK(sh.nslots == 2);
	UNIT_CHECK(js_match(&sh, other, other + strlen(other), slots, &consumed, out, &outlen));
	UNIT_CHECK(consumed == strlen(other) - strlen("\",\"tags\":{}"));
	UNIT_CHECK(outlen == strlen("{\"numRecords\":77,\"minValues\":{\"t\":\"x y\"}}"));
	UNIT_CHECK(memcmp(out, "{\"numRecords\":77,\"minValues\":{\"t\":\"x y\"}}", outlen) == 0);
	UNIT_CHECK(slots[1].kind == JS_SLOT_STRING && slots[1].len == 3 &&
			   memcmp(other + slots[1].off, "x y", 3) == 0);
	/* another escape inside a string slot (the text's a\\b): taken */
	{
		const char *t = "{\\\"numRecords\\\":5,\\\"minValues\\\":{\\\"t\\\":\\\"a\\\\\\\\b\\\"}}";
		const char *u = "{\"numRecords\":5,\"minValues\":{\"t\":\"a\\\\b\"}}";

		UNIT_CHECK(js_match(&sh, t, t + strlen(t), slots, &consumed, out, &outlen));
		UNIT_CHECK(consumed == strlen(t) && slots[1].escaped &&
				   outlen == strlen(u) && memcmp(out, u, outlen) == 0);
	}
	/* a raw newline in the text's string (the line's \n): refused */
	UNIT_CHECK(!match_all(&sh, "{\\\"numRecords\\\":5,\\\"minValues\\\":{\\\"t\\\":\\\"a\\nb\\\"}}", slots, NULL, NULL));
	/* a raw quote where an escaped one belongs: refused */
	UNIT_CHECK(!match_all(&sh, "{\"numRecords\\\":5,\\\"minValues\\\":{\\\"t\\\":\\\"x\\\"}}", slots, NULL, NULL));
	/* models outside the subset are refused */
	UNIT_CHECK(!js_build(&sh, "{\\\"a\\\":\\\"\\n\\\"}", 14, JS_ESCAPED, &a));
	UNIT_CHECK(!js_build(&sh, "{\"a\\n\":1}", 10, JS_PLAIN, &a));
	UNIT_CHECK(!js_build(&sh, "{\"\xc3\xa9\":1}", 8, JS_PLAIN, &a));
	/* string values with escapes and UTF-8 are slots */
	UNIT_CHECK(js_build(&sh, "{\\\"a\\\":\\\"\\\\n\\\"}", 15, JS_ESCAPED, &a) &&
			   sh.nslots == 1);
	UNIT_CHECK(js_build(&sh, "{\"a\":\"b\\nc\"}", 12, JS_PLAIN, &a) && sh.nslots == 1);
	UNIT_CHECK(js_build(&sh, "{\"a\":\"\xc3\xa9\"}", 10, JS_PLAIN, &a) && sh.nslots == 1);
	UNIT_CHECK(!js_build(&sh, "{\"a\":tru}", 9, JS_PLAIN, &a));
	UNIT_CHECK(!js_build(&sh, "{\"a\":1}\t", 8, JS_ESCAPED, &a));
	fmt_arena_free_all(&arena);
}

/*
 * Every text a shape accepts is valid JSON: random texts made from a valid
 * model by replacing slot tokens with random tokens (valid or not) and by
 * random byte edits; whenever js_match accepts one, the exact parser must
 * accept it too.
 */
UNIT_TEST(jshape_accepted_texts_are_valid_json)
{
	static const char *const models[] = {
		"{\"numRecords\":10,\"minValues\":{\"id\":-3,\"s\":\"abc\"},\"maxValues\":{\"id\":9,\"s\":\"zz\"},\"nullCount\":{\"id\":0,\"s\":1},\"tightBounds\":true}",
		"[1, [2, {\"a\": null}], \"x\", -0.5e-7, false]",
		"{ \"a\" : { \"b\" : [ ] } , \"c\" : 1 }",
	};
	static const char *const tokens[] = {
		"0", "-0", "12", "1.5", "1e9", "-2E-3", "01", "1.", "-", "1e", ".5",
		"\"\"", "\"q\"", "\"a b\"", "\"\\n\"", "\"", "true", "false", "null",
		"nul", "tru", "{}", "[]", "1 ", " 1", "\"x\":1", ",", "}",
	};
	unsigned int seed = 12345;
	int			m;

	for (m = 0; m < 3; m++)
	{
		FmtArena	arena;
		FmtAllocator a;
		JsShape		sh;
		JsSlot		ms[64];		/* the model's slots */
		JsSlot		slots[64];
		size_t		consumed;
		int			trial;
		int			accepted = 0;

		fmt_arena_init(&arena, 0);
		a = fmt_arena_allocator(&arena);
		UNIT_CHECK(valid_json(models[m]));
		UNIT_CHECK(js_build(&sh, models[m], strlen(models[m]), JS_PLAIN, &a));
		UNIT_CHECK(js_match(&sh, models[m], models[m] + strlen(models[m]), ms, &consumed, NULL, NULL));
		for (trial = 0; trial < 20000; trial++)
		{
			char		text[1024];
			size_t		tl = 0;
			int			i;

			/* the model with random slot tokens */
			for (i = 0; i <= sh.nslots; i++)
			{
				size_t		start = (i == 0) ? 0 : ms[i - 1].off + ms[i - 1].len;
				size_t		stop = (i == sh.nslots) ? strlen(models[m]) : ms[i].off;
				const char *tok;
				size_t		tn;

				memcpy(text + tl, models[m] + start, stop - start);
				tl += stop - start;
				if (i == sh.nslots)
					break;
				unit_next(&seed);
				if ((seed >> 16) % 3 != 0)
				{
					tok = models[m] + ms[i].off;
					tn = ms[i].len;
				}
				else
				{
					tok = tokens[(seed >> 8) % (sizeof(tokens) / sizeof(tokens[0]))];
					tn = strlen(tok);
					/* string slots hold the content: strip the quotes */
					if (ms[i].kind == JS_SLOT_STRING && tn >= 2 &&
						tok[0] == '"' && tok[tn - 1] == '"')
					{
						tok++;
						tn -= 2;
					}
				}
				memcpy(text + tl, tok, tn);
				tl += tn;
			}
			/* sometimes a random byte edit on top */
			unit_next(&seed);
			if ((seed >> 16) % 4 == 0 && tl > 0)
			{
				static const char edits[] = "{}[],:\" \\1-eatn.";

				text[(seed >> 4) % tl] = edits[(seed >> 20) % (sizeof(edits) - 1)];
			}
			text[tl] = '\0';
			if (!js_match(&sh, text, text + tl, slots, &consumed, NULL, NULL) ||
				consumed != tl)
				continue;
			accepted++;
			if (!valid_json(text))
			{
				fprintf(stderr, "  accepted invalid JSON: %s\n", text);
				UNIT_CHECK(false);
				break;
			}
		}
		/* the test means something only if many variants were accepted */
		if (accepted <= 500)
			fprintf(stderr, "  model %d: %d accepted\n", m, accepted);
		UNIT_CHECK(accepted > 500);
		fmt_arena_free_all(&arena);
	}
}

/*
 * Literals of every length from 1 to 40 bytes (those up to 32 are compared
 * sixteen bytes at a time under a mask when 32 bytes can be read, the
 * others byte by byte): a change of any one literal byte is refused, both
 * with the text in a large buffer and with the text ending the buffer.
 */
UNIT_TEST(jshape_every_literal_byte_counts)
{
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[8];
	char		model[128];
	char		buf[256];
	int			klen;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	for (klen = 1; klen <= 34; klen++)
	{
		size_t		len;
		size_t		litlen;
		size_t		i;
		int			at_end;

		/* {"kkk...":1,"z":2}: the first literal is {" + key + ": */
		memset(model, 0, sizeof(model));
		model[0] = '{';
		model[1] = '"';
		memset(model + 2, 'k', klen);
		strcpy(model + 2 + klen, "\":1,\"z\":2}");
		len = strlen(model);
		litlen = 2 + klen + 2;
		UNIT_CHECK(js_build(&sh, model, len, JS_PLAIN, &a));
		/* at_end 0, 1: the walk with AVX2 (when there); 2, 3: without */
		for (at_end = 0; at_end < 4; at_end++)
		{
			/* the text at the buffer's start (room after) or its end */
			char	   *t = (at_end % 2) ? buf + sizeof(buf) - len : buf;
			size_t		consumed = 0;

			js_use_wide(at_end < 2);

			memset(buf, 'x', sizeof(buf));
			memcpy(t, model, len);
			UNIT_CHECK(js_match(&sh, t, t + len, slots, &consumed, NULL, NULL) &&
					   consumed == len);
			for (i = 0; i < litlen; i++)
			{
				char		save = t[i];

				t[i] = (char) (save == 'k' ? 'q' : 'k');
				UNIT_CHECK(!js_match(&sh, t, t + len, slots, &consumed, NULL, NULL));
				t[i] = save;
			}
			/* the literal after the first slot (,"z":) too */
			for (i = litlen + 1; i < litlen + 6; i++)
			{
				char		save = t[i];

				t[i] = 'y';
				UNIT_CHECK(!js_match(&sh, t, t + len, slots, &consumed, NULL, NULL));
				t[i] = save;
			}
		}
	}
	js_use_wide(true);
	fmt_arena_free_all(&arena);
}

/*
 * A number slot takes exactly the token JSON's grammar takes (integers and
 * decimals of up to 15 bytes are measured sixteen bytes at a time, longer
 * ones and exponents byte by byte): random texts of digits, signs, points
 * and exponents in the slot of [1], both in a large buffer and ending the
 * buffer, are accepted exactly when the grammar reads the whole token, and
 * the slot is the token.
 */
UNIT_TEST(jshape_number_slot_matches_the_grammar)
{
	static const char alphabet[] = "0123456789-.eE+0.-";
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[2];
	char		tok[32];
	char		buf[128];
	uint32_t	seed = 4242;
	int			t;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(js_build(&sh, "[1]", 3, JS_PLAIN, &a));
	for (t = 0; t < 300000; t++)
	{
		size_t		len;
		size_t		i;
		int			at_end;
		const char *ref;
		bool		want;

		/* half of them with the walk without AVX2 */
		js_use_wide(t % 2 == 0);
		unit_next(&seed);
		len = 1 + (seed >> 16) % 24;
		for (i = 0; i < len; i++)
		{
			unit_next(&seed);
			/* mostly digits: long runs on both sides of a point */
			tok[i] = ((seed >> 16) % 3 != 0) ? (char) ('0' + (seed >> 20) % 10) :
				alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
		}
		ref = ref_number_end(tok, tok + len);
		want = ref == tok + len;
		for (at_end = 0; at_end < 2; at_end++)
		{
			char	   *p = at_end ? buf + sizeof(buf) - (len + 2) : buf;
			size_t		consumed = 0;
			bool		got;

			/* in the large buffer the text is followed by more digits */
			memset(buf, '5', sizeof(buf));
			p[0] = '[';
			memcpy(p + 1, tok, len);
			p[len + 1] = ']';
			got = js_match(&sh, p, buf + sizeof(buf), slots, &consumed, NULL,
						   NULL);
			UNIT_CHECK(got == want);
			if (got)
				UNIT_CHECK(consumed == len + 2 && slots[0].off == 1 &&
						   slots[0].len == len);
		}
	}
	js_use_wide(true);
	fmt_arena_free_all(&arena);
}

/*
 * A string slot holds printable ASCII other than '"' and backslash, and
 * ends at the model's closing quote: random strings of 0 to 99 bytes,
 * mostly plain with now and then a byte that is not (a control byte,
 * DEL, one from 0x80 on, '"', backslash), written into ["x"] (followed by
 * more text or ending the buffer), match exactly when the first byte
 * after the opening quote that is not plain is a quote followed by ']',
 * and the slot is the bytes before it (a '"' + ']' inside the string
 * ends an instance there); with each walk (32 bytes at a time with AVX2,
 * 16 without).
 */
UNIT_TEST(jshape_string_slot_takes_plain_bytes)
{
	static const char odd[] = "\x01\x1f\x7f\x80\xff\"\\";
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[2];
	char		str[100];
	char		buf[256];
	uint32_t	seed = 99;
	int			t;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(js_build(&sh, "[\"x\"]", 5, JS_PLAIN, &a));
	for (t = 0; t < 200000; t++)
	{
		size_t		len;
		size_t		i;
		int			at_end;

		js_use_wide(t % 2 == 0);
		unit_next(&seed);
		len = (seed >> 16) % sizeof(str);
		for (i = 0; i < len; i++)
		{
			unit_next(&seed);
			if ((seed >> 16) % 97 == 0)
				str[i] = odd[(seed >> 24) % (sizeof(odd) - 1)];
			else if ((seed >> 16) % 89 == 0)
				str[i] = ']';	/* so that '"' + ']' turns up inside */
			else
				str[i] = (char) (0x20 + (seed >> 20) % 0x5f);
		}
		for (at_end = 0; at_end < 2; at_end++)
		{
			char	   *p = at_end ? buf + sizeof(buf) - (len + 4) : buf;
			size_t		consumed = 0;
			size_t		k = 0;
			bool		want;
			bool		got;
			bool		plain;

			memset(buf, 'y', sizeof(buf));
			p[0] = '[';
			p[1] = '"';
			memcpy(p + 2, str, len);
			p[len + 2] = '"';
			p[len + 3] = ']';
			/* the reference: the plain run, a byte at a time */
			while (p[2 + k] >= 0x20 && p[2 + k] < 0x7f && p[2 + k] != '"' &&
				   p[2 + k] != '\\')
				k++;
			plain = p[2 + k] == '"';
			if (!plain)
			{
				/* anything else: the string jstr finds */
				const char *c = jstr_end(p + 2, p + len + 4, JS_PLAIN, NULL);

				k = c ? (size_t) (c - (p + 2)) : len + 2;
			}
			want = k <= len && p[2 + k] == '"' && p[3 + k] == ']';
			if (at_end)
			{
				/* alone in a buffer of its size (a read past it shows) */
				char	   *alone = malloc(len + 4);

				UNIT_CHECK(alone != NULL);
				memcpy(alone, p, len + 4);
				got = js_match(&sh, alone, alone + len + 4, slots, &consumed,
							   NULL, NULL);
				free(alone);
			}
			else
				got = js_match(&sh, p, buf + sizeof(buf), slots, &consumed,
							   NULL, NULL);
			UNIT_CHECK(got == want);
			if (got)
				UNIT_CHECK(consumed == k + 4 && slots[0].off == 2 &&
						   slots[0].len == k && slots[0].escaped == !plain);
		}
	}
	js_use_wide(true);
	fmt_arena_free_all(&arena);
}

/*
 * The AVX2 walk takes a run of the model's own token lengths 32 bytes at
 * a time against the shape's template (js_build_template); the walk without AVX2
 * goes token by token.  Both must say the same of every text: the same
 * answer, length and slots.  Texts: the model with each slot's token
 * replaced by one of its kind, of the model's length or another (numbers
 * with signs, points, leading zeros and exponents, strings with quotes,
 * escapes and UTF-8, any word), some with one byte changed; at one level
 * and inside a string.
 */
static const char *const tmpl_numbers[] = {
	"0", "7", "12", "01", "-3", "-0", "10", "99", "123456", "1234567890",
	"12345678901234567", "3.5", "0.25", "12.75", "1e5", "2E-3", "-1.5e+2",
	"1.", ".5", "--1", "1.2.3", "00", "5a"
};
static const char *const tmpl_strings[] = {
	"", "a", "ab", "abcdefgh", "customer-0123456", "customer-012345X",
	"eu-west-1", "2024-04-08T08:10:26.465Z", "x\\ny", "caf\xc3\xa9",
	"q\\\"q", "\\u00e9", "tab\\tsep", "a\"b", "\x01", "0123456789abcdef0123"
};

static size_t
tmpl_text(uint32_t *seed, const JsShape *sh, const char *model, bool esc,
		  char *out)
{
	JsSlot		slots[64];
	size_t		consumed;
	size_t		o = 0;
	size_t		from = 0;
	int			i;

	if (!js_match(sh, model, model + strlen(model), slots, &consumed, NULL,
				  NULL))
		return 0;
	for (i = 0; i < sh->nslots; i++)
	{
		const char *tok = NULL;
		char		tmp[64];
		unsigned	pick = (unit_next(seed) >> 16) % 4;

		memcpy(out + o, model + from, slots[i].off - from);
		o += slots[i].off - from;
		if (pick == 0)
			tok = NULL;			/* the model's own token */
		else if (slots[i].kind == JS_SLOT_NUMBER)
			tok = tmpl_numbers[(unit_next(seed) >> 16) %
							   (sizeof(tmpl_numbers) / sizeof(tmpl_numbers[0]))];
		else if (slots[i].kind == JS_SLOT_STRING)
		{
			const char *s = tmpl_strings[(unit_next(seed) >> 16) %
										 (sizeof(tmpl_strings) / sizeof(tmpl_strings[0]))];
			size_t		k,
						t = 0;

			/* inside a string every quote is written backslash + '"' */
			for (k = 0; s[k] && t + 2 < sizeof(tmp); k++)
			{
				if (esc && (s[k] == '"' || s[k] == '\\'))
					tmp[t++] = '\\';
				tmp[t++] = s[k];
			}
			tmp[t] = '\0';
			tok = tmp;
		}
		else
			tok = (const char *[]) {"true", "false", "null"}[pick % 3];
		if (tok == NULL)
		{
			memcpy(out + o, model + slots[i].off, slots[i].len);
			o += slots[i].len;
		}
		else
		{
			memcpy(out + o, tok, strlen(tok));
			o += strlen(tok);
		}
		from = slots[i].off + slots[i].len;
	}
	memcpy(out + o, model + from, strlen(model) - from);
	o += strlen(model) - from;
	if ((unit_next(seed) >> 16) % 4 == 0)
		out[(unit_next(seed) >> 16) % o] =
			"0a\"\\,:}{ .-e1"[(unit_next(seed) >> 16) % 13];
	return o;
}

UNIT_TEST(jshape_template_walk_matches_token_walk)
{
	/* three texts at one level, then one inside a string (its last) */
	static const char *const models[] = {
		"{\"add\":{\"path\":\"part-00000-ff02809b-8c46-4686-acfc-b5212f0d35da-c000.zstd.parquet\",\"partitionValues\":{},\"size\":1980359,\"modificationTime\":1714521900000,\"dataChange\":true,\"stats\":",
		"{\"a\":1,\"b\":[1,2,3,-4.5,0,10],\"c\":\"xyzxyzxyzxyzxyzxyzxyz\",\"d\":{\"e\":null,\"f\":false,\"g\":true},\"h\":\"\",\"i\":12.25}",
		"[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36]",
		"{\\\"numRecords\\\":53419,\\\"minValues\\\":{\\\"id\\\":6194099893,\\\"event_time\\\":\\\"2024-04-08T08:10:26.465Z\\\",\\\"customer\\\":\\\"customer-0308247\\\",\\\"amount\\\":46.5077,\\\"score\\\":0.066885},\\\"maxValues\\\":{\\\"id\\\":6194953143,\\\"event_time\\\":\\\"2024-04-08T08:16:28.276Z\\\",\\\"customer\\\":\\\"customer-0673784\\\",\\\"amount\\\":3018.1212,\\\"score\\\":0.671973},\\\"nullCount\\\":{\\\"id\\\":0,\\\"event_time\\\":0,\\\"customer\\\":5,\\\"amount\\\":1,\\\"score\\\":56},\\\"tightBounds\\\":true}\"}}",
	};
	FmtArena	arena;
	FmtAllocator a;
	uint32_t	seed = 31337;
	int			m;
	int			iter;
	int			matched = 0;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	for (m = 0; m < 4; m++)
	{
		bool		esc = m == 3;
		const char *model = models[m];
		size_t		mlen = strlen(model);
		JsShape		sh;

		/* the escaped model: the text up to its string's closing quote */
		if (esc)
			mlen = strstr(model, "}\"}}") + 1 - model;
		{
			char	   *copy = fmt_alloc(&a, mlen + 1);

			memcpy(copy, model, mlen);
			copy[mlen] = '\0';
			model = copy;
		}
		UNIT_CHECK(js_build(&sh, model, mlen, esc ? JS_ESCAPED : JS_PLAIN, &a));
		UNIT_CHECK(js_build_template(&sh, &a));
		for (iter = 0; iter < 20000; iter++)
		{
			char		buf[4096];
			char		text[4096];
			size_t		n = tmpl_text(&seed, &sh, model, esc, text);
			size_t		tail = (unit_next(&seed) >> 16) % 3 == 0 ? 0 : 40;
			JsSlot		s1[64],
						s2[64];
			size_t		c1 = 0,
						c2 = 0;
			bool		m1,
						m2;
			int			i;

			/* the text ends the buffer, or bytes follow it */
			memset(buf, '}', sizeof(buf));
			memcpy(buf + sizeof(buf) - tail - n, text, n);
			js_use_wide(true);
			m1 = js_match(&sh, buf + sizeof(buf) - tail - n, buf + sizeof(buf),
						  s1, &c1, NULL, NULL);
			js_use_wide(false);
			m2 = js_match(&sh, buf + sizeof(buf) - tail - n, buf + sizeof(buf),
						  s2, &c2, NULL, NULL);
			UNIT_CHECK(m1 == m2);
			if (!m1 || !m2)
				continue;
			matched++;
			UNIT_CHECK(c1 == c2);
			for (i = 0; i < sh.nslots; i++)
				UNIT_CHECK(s1[i].off == s2[i].off && s1[i].len == s2[i].len &&
						   s1[i].kind == s2[i].kind &&
						   s1[i].escaped == s2[i].escaped);
		}
	}
	js_use_wide(true);
	UNIT_CHECK(matched > 5000);
	fmt_arena_free_all(&arena);
}

/* keyed match of text (whole, plus a byte that ends it) */
static bool
keyed_all(const JsShape *sh, const char *text, JsSlot *slots)
{
	size_t		n = strlen(text);
	char	   *copy = malloc(n + 1);
	size_t		consumed = 0;
	bool		ok;

	/* (a copy of just the text, so that a read past its end is seen) */
	memcpy(copy, text, n);
	copy[n] = '#';
	ok = js_match_keyed(sh, copy, copy + n, slots, &consumed) &&
		consumed == n;
	free(copy);
	return ok;
}

/* the token of slot i of text is tok */
static bool
slot_is(const char *text, const JsSlot *sl, const char *tok)
{
	return sl->kind != JS_SLOT_ABSENT && sl->len == strlen(tok) &&
		memcmp(text + sl->off, tok, sl->len) == 0;
}

UNIT_TEST(jshape_keyed_plain)
{
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[64];
	const char *model = "{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}},\"tightBounds\":true}";
	const char *t;
	static const char *const refused[] = {
		/* a key the model lacks, a repeated key, an object member gone */
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"},\"z\":1},\"tightBounds\":true}",
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"id\":6,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}},\"tightBounds\":true}",
		"{\"numRecords\":10,\"numRecords\":11,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\"},\"tightBounds\":true}",
		"{\"numRecords\":10,\"tightBounds\":true}",
		/* an object where the model has a scalar, and the other way */
		"{\"numRecords\":{},\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":7}}",
		/* not JSON: a trailing comma, no colon, two members without one,
		 * a bad number, a word cut short, an escaped key, garbage after */
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"},},\"tightBounds\":true}",
		"{\"numRecords\" 10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"{\"numRecords\":10 \"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"{\"numRecords\":01,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}},\"tightBounds\":tru}",
		"{\"numRecords\":10,\"minValues\":{\"i\\u0064\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\",\"d\":{\"x\":1,\"y\":\"q\"}}}x",
		"{\"numRecords\":10,\"minValues\":{\"id\":5,\"s\":\"a\x01\",\"d\":{\"x\":1,\"y\":\"q\"}}}",
		"[1]",
		"",
	};
	int			k;
	size_t		i;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(js_build(&sh, model, strlen(model), JS_PLAIN, &a));
	UNIT_CHECK(!js_match_keyed(&sh, model, model + strlen(model), slots, &i));
	UNIT_CHECK(js_build_keyed(&sh, &a));
	UNIT_CHECK(sh.nslots == 6);
	UNIT_CHECK(keyed_all(&sh, model, slots));
	UNIT_CHECK(slot_is(model, &slots[0], "10") && slot_is(model, &slots[2], "a") &&
			   slot_is(model, &slots[5], "true"));
	/* every order, white space, other values and kinds: the model's slots */
	t = " { \"tightBounds\" : null , \"minValues\":{\"d\":{\"y\":\"r s\",\"x\":-2.5e3},\"s\":\"\\u00e9\",\"id\":\"NaN\"},\"numRecords\":7 } ";
	UNIT_CHECK(keyed_all(&sh, t, slots));
	UNIT_CHECK(valid_json(t));
	UNIT_CHECK(slot_is(t, &slots[0], "7") && slots[0].kind == JS_SLOT_NUMBER);
	UNIT_CHECK(slot_is(t, &slots[1], "NaN") && slots[1].kind == JS_SLOT_STRING);
	UNIT_CHECK(slots[2].kind == JS_SLOT_STRING && slots[2].escaped);
	UNIT_CHECK(slot_is(t, &slots[3], "-2.5e3") && slot_is(t, &slots[4], "r s"));
	UNIT_CHECK(slot_is(t, &slots[5], "null") && slots[5].kind == JS_SLOT_NULL);
	/* scalars the text lacks are absent, the others still found */
	t = "{\"minValues\":{\"d\":{\"y\":\"q\"},\"id\":9}}";
	UNIT_CHECK(keyed_all(&sh, t, slots));
	UNIT_CHECK(slots[0].kind == JS_SLOT_ABSENT && slot_is(t, &slots[1], "9") &&
			   slots[2].kind == JS_SLOT_ABSENT && slots[3].kind == JS_SLOT_ABSENT &&
			   slot_is(t, &slots[4], "q") && slots[5].kind == JS_SLOT_ABSENT);
	for (k = 0; k < (int) (sizeof(refused) / sizeof(refused[0])); k++)
		UNIT_CHECK(!keyed_all(&sh, refused[k], slots));
	/* every prefix of an accepted text is refused, and nothing past it read */
	t = "{\"numRecords\":10,\"minValues\":{\"s\":\"a\",\"d\":{\"y\":\"q\",\"x\":1},\"id\":5},\"tightBounds\":true}";
	UNIT_CHECK(keyed_all(&sh, t, slots));
	for (i = 0; i < strlen(t); i++)
	{
		char	   *pre = malloc(i + 1);
		size_t		consumed = 0;

		memcpy(pre, t, i);
		UNIT_CHECK(!js_match_keyed(&sh, pre, pre + i, slots, &consumed));
		free(pre);
	}
	/* models a keyed model cannot describe */
	UNIT_CHECK(js_build(&sh, "{\"a\":[1,2]}", 11, JS_PLAIN, &a));
	UNIT_CHECK(!js_build_keyed(&sh, &a) && sh.keyed == NULL);
	UNIT_CHECK(js_build(&sh, "{\"a\":1,\"a\":2}", 13, JS_PLAIN, &a));
	UNIT_CHECK(!js_build_keyed(&sh, &a));
	UNIT_CHECK(js_build(&sh, "7", 1, JS_PLAIN, &a));
	UNIT_CHECK(!js_build_keyed(&sh, &a));
	fmt_arena_free_all(&arena);
}

UNIT_TEST(jshape_keyed_escaped)
{
	FmtArena	arena;
	FmtAllocator a;
	JsShape		sh;
	JsSlot		slots[64];
	/* as inside a JSON string: every quote is backslash + quote */
	const char *model = "{\\\"numRecords\\\":5,\\\"minValues\\\":{\\\"id\\\":1,\\\"t\\\":\\\"x\\\"},\\\"maxValues\\\":{\\\"id\\\":2,\\\"t\\\":\\\"y\\\"}}";
	const char *t = "{\\\"maxValues\\\": {\\\"t\\\": \\\"a\\\\\\\\b\\\", \\\"id\\\": 20}, \\\"minValues\\\": {\\\"id\\\": 10}, \\\"numRecords\\\": 3}";

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(js_build(&sh, model, strlen(model), JS_ESCAPED, &a));
	UNIT_CHECK(js_build_keyed(&sh, &a));
	UNIT_CHECK(keyed_all(&sh, t, slots));
	UNIT_CHECK(slot_is(t, &slots[0], "3") && slot_is(t, &slots[1], "10") &&
			   slots[2].kind == JS_SLOT_ABSENT && slot_is(t, &slots[3], "20"));
	UNIT_CHECK(slots[4].kind == JS_SLOT_STRING && slots[4].escaped);
	/* a raw quote, a raw newline, a tab (an escape at the outer level) */
	UNIT_CHECK(!keyed_all(&sh, "{\"numRecords\\\":5,\\\"minValues\\\":{\\\"id\\\":1,\\\"t\\\":\\\"x\\\"},\\\"maxValues\\\":{\\\"id\\\":2,\\\"t\\\":\\\"y\\\"}}", slots));
	UNIT_CHECK(!keyed_all(&sh, "{\\\"numRecords\\\":5,\\\"minValues\\\":{\\\"id\\\":1,\\\"t\\\":\\\"x\ny\\\"},\\\"maxValues\\\":{\\\"id\\\":2,\\\"t\\\":\\\"y\\\"}}", slots));
	UNIT_CHECK(!keyed_all(&sh, "{\\\"numRecords\\\":5,\\t\\\"minValues\\\":{\\\"id\\\":1,\\\"t\\\":\\\"x\\\"},\\\"maxValues\\\":{\\\"id\\\":2,\\\"t\\\":\\\"y\\\"}}", slots));
	fmt_arena_free_all(&arena);
}
