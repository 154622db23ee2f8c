/*-------------------------------------------------------------------------
 *
 * jshape.c
 *	  Shape templates of JSON texts (see jshape.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/jshape.c
 *
 *-------------------------------------------------------------------------
 */
#include "jshape.h"

#include "djson_scan.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/*
 * On x86-64 with GCC or clang, js_match walks with 32-byte compares when
 * the CPU has AVX2 (checked once, in js_plain_init): the same walk is
 * compiled a second time for AVX2 with a target attribute, the rest of the
 * file is not.
 */
#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#define JS_AVX2 1
#include <cpuid.h>
#include <immintrin.h>
#define JS_ALWAYS_INLINE inline __attribute__((always_inline))
static bool js_cpu_avx2 = false;	/* the CPU has AVX2 */
static bool js_avx2 = false;	/* and js_match uses it */
#else
#define JS_ALWAYS_INLINE inline
#endif

#define JS_SHORT_LIT 32

struct JsPiece
{
	size_t		lit_off;		/* the literal before the slot, in the model */
	size_t		lit_len;
	size_t		ulit_off;		/* the same literal unescaped, in umodel */
	size_t		ulit_len;
	size_t		slot_off;		/* the slot's token in the model */
	JsSlotKind	kind;			/* the model's kind (words: any word) */
	size_t		mlen;			/* the model's token: its length */
	JsSlotKind	mkind;			/* and its kind (words: which word) */

	/*
	 * For the template walk (js_walk): the slot as the model has it (off =
	 * slot_off, not escaped), and where the literal after it ends in the
	 * model (SIZE_MAX when that literal is empty, and for the last piece,
	 * which has no slot: the walk takes those itself).
	 */
	JsSlot		mslot;
	size_t		next_end;

	/*
	 * A literal of at most JS_SHORT_LIT bytes, padded with zeros, and the
	 * mask of its bytes (bit i: byte i): js_lit_short compares it without
	 * a loop.
	 */
	uint32_t	short_mask;
	unsigned char short_lit[JS_SHORT_LIT];
};

static bool js_plain_ready = false;

/*
 * Whether AVX2 can be used: the CPU has it (CPUID leaf 7) and the OS saves
 * the YMM registers (OSXSAVE, and XCR0's SSE and AVX state bits).  Asked
 * with CPUID directly rather than __builtin_cpu_supports, whose libgcc
 * initialiser runs as the library loads, in every backend, with a dozen
 * CPUID instructions (each a trap to the hypervisor in a virtual machine:
 * about 5 microseconds on the bench machine).
 */
static bool
js_detect_avx2(void)
{
#ifdef JS_AVX2
	unsigned int a,
				b,
				c,
				d;
	unsigned int xcr0_lo,
				xcr0_hi;

	if (__get_cpuid_max(0, NULL) < 7)
		return false;
	__cpuid(1, a, b, c, d);
	if ((c & bit_OSXSAVE) == 0 || (c & bit_AVX) == 0)
		return false;
	__asm__ volatile ("xgetbv" : "=a" (xcr0_lo), "=d" (xcr0_hi) : "c" (0));
	(void) xcr0_hi;
	if ((xcr0_lo & 6) != 6)
		return false;
	__cpuid_count(7, 0, a, b, c, d);
	return (b & bit_AVX2) != 0;
#else
	return false;
#endif
}

/* find out once whether the CPU has AVX2 */
static void
js_plain_init(void)
{
	if (js_plain_ready)
		return;
#ifdef JS_AVX2
	js_cpu_avx2 = js_detect_avx2();
	js_avx2 = js_cpu_avx2;
#endif
	js_plain_ready = true;
}

/* See jshape.h. */
bool
js_cpu_has_avx2(void)
{
	js_plain_init();
#ifdef JS_AVX2
	return js_cpu_avx2;
#else
	return false;
#endif
}

/* the first byte at or after p that is not plain (dj_plain), or end */
static inline const char *
js_plain_run(const char *p, const char *end)
{
	return (const char *) dj_plain_span((const unsigned char *) p,
										(const unsigned char *) end);
}

/*
 * Short copies and compares, inline: the pieces of a shape are a few bytes
 * to a few dozen, where a call to memcpy / memcmp costs more than the
 * work.  Words are read and written with memcpy of a constant size (one
 * instruction each) and never outside [p, p + n): a tail shorter than a
 * word is handled by a word that overlaps the previous one (eight bytes:
 * djson_scan.h's dj_load8).
 */
static inline uint32_t
js_load4(const char *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return v;
}

/* a[0 .. n) == b[0 .. n) */
static inline bool
js_same(const char *a, const char *b, size_t n)
{
	size_t		i;

	if (n >= 8)
	{
		for (i = 0; i + 8 <= n; i += 8)
			if (dj_load8((const unsigned char *) a + i) !=
				dj_load8((const unsigned char *) b + i))
				return false;
		return i == n || dj_load8((const unsigned char *) a + n - 8) ==
			dj_load8((const unsigned char *) b + n - 8);
	}
	if (n >= 4)
		return js_load4(a) == js_load4(b) &&
			js_load4(a + n - 4) == js_load4(b + n - 4);
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* dst[0 .. n) = src[0 .. n) (not overlapping) */
static inline void
js_copy(char *dst, const char *src, size_t n)
{
	size_t		i;

	if (n >= 8)
	{
		for (i = 0; i + 8 <= n; i += 8)
			memcpy(dst + i, src + i, 8);
		if (i < n)
			memcpy(dst + n - 8, src + n - 8, 8);
		return;
	}
	if (n >= 4)
	{
		memcpy(dst, src, 4);
		memcpy(dst + n - 4, src + n - 4, 4);
		return;
	}
	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

/*
 * js_masked_same: the len bytes of lit (32 bytes, zero-padded; mask: bit i
 * for byte i, the low len bits) are at p, where 32 bytes may be read: two
 * 16-byte compares under the mask (without SSE2: js_same).
 */
static inline bool
js_masked_same(const char *p, const unsigned char *lit, uint32_t mask,
			   size_t len)
{
#if defined(__SSE2__) && defined(__GNUC__)
	__m128i		a0 = _mm_loadu_si128((const __m128i *) p);
	__m128i		a1 = _mm_loadu_si128((const __m128i *) (p + 16));
	__m128i		b0 = _mm_loadu_si128((const __m128i *) lit);
	__m128i		b1 = _mm_loadu_si128((const __m128i *) (lit + 16));
	uint32_t	eq = (uint32_t) _mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
		((uint32_t) _mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16);

	(void) len;
	return (~eq & mask) == 0;
#else
	(void) mask;
	return js_same(p, (const char *) lit, len);
#endif
}

/*
 * js_lit_short: the literal of pc (at most JS_SHORT_LIT bytes) is at p,
 * where JS_SHORT_LIT bytes may be read.
 */
static inline bool
js_lit_short(const JsPiece *pc, const char *p)
{
	return js_masked_same(p, pc->short_lit, pc->short_mask, pc->lit_len);
}

/* a quote at p (JS_ESCAPED: backslash + '"'), p < end */
static inline bool
js_quote(JsQuoting q, const char *p, const char *end)
{
	if (q == JS_ESCAPED)
		return end - p >= 2 && p[0] == '\\' && p[1] == '"';
	return *p == '"';
}

/* JSON white space (JS_ESCAPED: the space only; the others are escapes) */
static inline bool
js_space(JsQuoting q, char c)
{
	return c == ' ' ||
		(q == JS_PLAIN && (c == '\t' || c == '\n' || c == '\r'));
}

/*
 * The end of the JSON number token at p, or NULL when there is none or it
 * is longer than JS_MAX_NUMBER.
 */
static inline const char *
js_number_end(const char *p, const char *end)
{
	const char *q = dj_number_end(p, end);

	return (q == NULL || q - p > JS_MAX_NUMBER) ? NULL : q;
}

/* The word (true, false, null) at p: its kind and end; NULL if none. */
static inline const char *
js_word_end(const char *p, const char *end, JsSlotKind *kind)
{
	size_t		left = end - p;

	if (left >= 4 && memcmp(p, "true", 4) == 0)
	{
		*kind = JS_SLOT_TRUE;
		return p + 4;
	}
	if (left >= 5 && memcmp(p, "false", 5) == 0)
	{
		*kind = JS_SLOT_FALSE;
		return p + 5;
	}
	if (left >= 4 && memcmp(p, "null", 4) == 0)
	{
		*kind = JS_SLOT_NULL;
		return p + 4;
	}
	return NULL;
}

/*
 * Split the model into literals and slots.  pieces NULL: only count; else
 * fill pieces[0 .. nslots] (literal offsets in the model; ulit_* not set).
 * Returns the number of slots, or -1 when the model is outside what a
 * shape describes.
 */
static int
js_split(const char *m, size_t n, JsQuoting q, JsPiece *pieces)
{
	const char *end = m + n;
	const char *p = m;
	const char *lit = m;		/* start of the current literal */
	const size_t qlen = (q == JS_ESCAPED) ? 2 : 1;
	int			nslots = 0;

	while (p < end)
	{
		const char *tok;
		const char *tok_end;
		JsSlotKind	kind;

		if (js_quote(q, p, end))
		{
			const char *c = p + qlen;
			const char *after;
			bool		simple = true;

			c = js_plain_run(c, end);
			if (c >= end || !js_quote(q, c, end))
			{
				/* escapes or UTF-8: a value's (never a key's) */
				simple = false;
				c = jstr_end(p + qlen, end, q, NULL);
				if (c == NULL)
					return -1;
			}
			after = c + qlen;
			tok = after;
			while (tok < end && js_space(q, *tok))
				tok++;
			if (tok < end && *tok == ':')
			{
				if (!simple)
					return -1;	/* a key that is not literal bytes */
				p = after;		/* a key: part of the literal */
				continue;
			}
			/* a string value: the slot is its content */
			tok = p + qlen;
			tok_end = c;
			kind = JS_SLOT_STRING;
			p = after;
		}
		else if (*p == '-' || (*p >= '0' && *p <= '9'))
		{
			tok = p;
			tok_end = js_number_end(p, end);
			if (tok_end == NULL)
				return -1;
			kind = JS_SLOT_NUMBER;
			p = tok_end;
		}
		else if (*p == 't' || *p == 'f' || *p == 'n')
		{
			tok = p;
			tok_end = js_word_end(p, end, &kind);
			if (tok_end == NULL)
				return -1;
			kind = JS_SLOT_NULL;	/* any word matches a word slot */
			p = tok_end;
		}
		else if (*p == '{' || *p == '}' || *p == '[' || *p == ']' ||
				 *p == ',' || *p == ':' || js_space(q, *p))
		{
			p++;
			continue;
		}
		else
			return -1;
		if (nslots >= JS_MAX_SLOTS)
			return -1;
		if (pieces != NULL)
		{
			pieces[nslots].lit_off = lit - m;
			pieces[nslots].lit_len = tok - lit;
			pieces[nslots].slot_off = tok - m;
			pieces[nslots].kind = kind;
		}
		nslots++;
		lit = tok_end;
	}
	if (pieces != NULL)
	{
		pieces[nslots].lit_off = lit - m;
		pieces[nslots].lit_len = end - lit;
		pieces[nslots].slot_off = n;
		pieces[nslots].kind = JS_SLOT_NULL;
	}
	return nslots;
}

/* See jshape.h. */
size_t
js_unescape_quotes(char *dst, const char *src, size_t len)
{
	size_t		i = 0;
	size_t		o = 0;

	while (i < len)
	{
		if (src[i] == '\\' && i + 1 < len && src[i + 1] == '"')
			i++;
		dst[o++] = src[i++];
	}
	return o;
}

/* template byte classes (see JsShape.tmpl_lo) */
static void
js_tmpl_set(JsShape *shape, size_t at, size_t n, unsigned char lo,
			unsigned char hi, bool plain)
{
	memset(shape->tmpl_lo + at, lo, n);
	memset(shape->tmpl_hi + at, hi, n);
	memset(shape->tmpl_plain + at, plain ? 0xff : 0, n);
}

/* template bytes [at, at + n) that are the model's bytes themselves */
static void
js_tmpl_exact(JsShape *shape, const char *m, size_t at, size_t n)
{
	memcpy(shape->tmpl_lo + at, m + at, n);
	memcpy(shape->tmpl_hi + at, m + at, n);
	memset(shape->tmpl_plain + at, 0, n);
}

/*
 * js_tmpl_slot: the template of slot pc's bytes: those a token of the
 * model's kind and length may have at each place, such that a text whose
 * bytes there pass (and whose next literal follows) has a token there
 * that the walk takes with these very bounds.  A string: plain bytes
 * (dj_plain: the walk's plain run then ends at the next literal's quote);
 * a number: the model's sign and point where the model has them, digits
 * elsewhere, the first of an integer part of two digits or more not 0
 * (JSON's grammar: the walk's greedy token then ends where the model's
 * did, before a literal byte no number continues with); a word: the
 * model's word.  A string with escapes or UTF-8 and a number with an
 * exponent have no template (their bytes refuse all).
 */
static void
js_tmpl_slot(JsShape *shape, const char *m, const JsPiece *pc)
{
	size_t		at = pc->slot_off;
	size_t		end = at + pc->mlen;
	size_t		k;

	if (pc->mkind == JS_SLOT_STRING)
	{
		for (k = at; k < end; k++)
			if (!dj_plain[(unsigned char) m[k]])
			{
				js_tmpl_set(shape, at, pc->mlen, 0xff, 0x00, false);
				return;
			}
		js_tmpl_set(shape, at, pc->mlen, 0x20, 0x7e, true);
	}
	else if (pc->mkind == JS_SLOT_NUMBER)
	{
		size_t		int_end;

		for (k = at; k < end; k++)
			if (m[k] == 'e' || m[k] == 'E')
			{
				js_tmpl_set(shape, at, pc->mlen, 0xff, 0x00, false);
				return;
			}
		k = at;
		if (m[k] == '-')
		{
			js_tmpl_set(shape, k, 1, '-', '-', false);
			k++;
		}
		int_end = k;
		while (int_end < end && m[int_end] >= '0' && m[int_end] <= '9')
			int_end++;
		if (int_end - k > 1)
		{
			js_tmpl_set(shape, k, 1, '1', '9', false);
			k++;
		}
		js_tmpl_set(shape, k, int_end - k, '0', '9', false);
		if (int_end < end)
		{
			/* the point and the fraction's digits */
			js_tmpl_set(shape, int_end, 1, '.', '.', false);
			js_tmpl_set(shape, int_end + 1, end - int_end - 1, '0', '9',
						false);
		}
	}
	else
		js_tmpl_exact(shape, m, at, pc->mlen);
}

/* See jshape.h. */
bool
js_build(JsShape *shape, const char *p, size_t len, JsQuoting quoting,
		 const FmtAllocator *alloc)
{
	int			nslots;
	char	   *model;
	size_t		uoff = 0;
	int			i;

	memset(shape, 0, sizeof(*shape));
	js_plain_init();
	if (len > JS_MAX_TEXT)
		return false;
	nslots = js_split(p, len, quoting, NULL);
	if (nslots < 0)
		return false;
	shape->pieces = fmt_alloc(alloc, sizeof(JsPiece) * (nslots + 1));
	model = fmt_alloc(alloc, len + 1);
	shape->umodel = fmt_alloc(alloc, len + 1);
	if (shape->pieces == NULL || model == NULL || shape->umodel == NULL)
		return false;
	memcpy(model, p, len);
	if (js_split(model, len, quoting, shape->pieces) != nslots)
		return false;			/* cannot happen: the same bytes */
	for (i = 0; i < nslots; i++)
	{
		JsPiece    *pc = &shape->pieces[i];

		pc->mlen = shape->pieces[i + 1].lit_off - pc->slot_off;
		pc->mkind = pc->kind;
		if (pc->kind == JS_SLOT_NULL)
			pc->mkind = model[pc->slot_off] == 't' ? JS_SLOT_TRUE :
				model[pc->slot_off] == 'f' ? JS_SLOT_FALSE : JS_SLOT_NULL;
		pc->mslot.off = pc->slot_off;
		pc->mslot.len = pc->mlen;
		pc->mslot.kind = pc->mkind;
		pc->mslot.escaped = false;
		pc->next_end = shape->pieces[i + 1].lit_len > 0 ?
			shape->pieces[i + 1].lit_off + shape->pieces[i + 1].lit_len :
			SIZE_MAX;
	}
	memset(&shape->pieces[nslots].mslot, 0, sizeof(JsSlot));
	shape->pieces[nslots].next_end = SIZE_MAX;
	for (i = 0; i <= nslots; i++)
	{
		JsPiece    *pc = &shape->pieces[i];

		pc->ulit_off = uoff;
		if (quoting == JS_ESCAPED)
			pc->ulit_len = js_unescape_quotes(shape->umodel + uoff,
											  model + pc->lit_off,
											  pc->lit_len);
		else
		{
			memcpy(shape->umodel + uoff, model + pc->lit_off, pc->lit_len);
			pc->ulit_len = pc->lit_len;
		}
		uoff += pc->ulit_len;
		if (pc->lit_len <= JS_SHORT_LIT)
		{
			memset(pc->short_lit, 0, JS_SHORT_LIT);
			memcpy(pc->short_lit, model + pc->lit_off, pc->lit_len);
			pc->short_mask = pc->lit_len == JS_SHORT_LIT ? ~(uint32_t) 0 :
				((uint32_t) 1 << pc->lit_len) - 1;
		}
	}
	shape->quoting = quoting;
	shape->nslots = nslots;
	shape->model = model;
	shape->model_len = len;
	return true;
}

/* See jshape.h. */
bool
js_build_template(JsShape *shape, const FmtAllocator *alloc)
{
	size_t		len = shape->model_len;
	int			i;

	if (shape->tmpl_lo != NULL)
		return true;
	shape->tmpl_lo = fmt_alloc(alloc, len + 32);
	shape->tmpl_hi = fmt_alloc(alloc, len + 32);
	shape->tmpl_plain = fmt_alloc(alloc, len + 32);
	if (shape->tmpl_lo == NULL || shape->tmpl_hi == NULL ||
		shape->tmpl_plain == NULL)
	{
		shape->tmpl_lo = NULL;
		return false;
	}
	/* the 32 bytes after the model refuse all */
	js_tmpl_set(shape, len, 32, 0xff, 0x00, false);
	for (i = 0; i <= shape->nslots; i++)
	{
		const JsPiece *pc = &shape->pieces[i];

		js_tmpl_exact(shape, shape->model, pc->lit_off, pc->lit_len);
		if (i < shape->nslots)
			js_tmpl_slot(shape, shape->model, pc);
	}
	return true;
}

/* See jshape.h. */
int
js_slot_at(const JsShape *shape, size_t off)
{
	int			lo = 0;
	int			hi = shape->nslots - 1;

	/* slot offsets grow with the slot number */
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		size_t		s = shape->pieces[mid].slot_off;

		if (s == off)
			return mid;
		if (s < off)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* See jshape.h. */
bool
js_literal_at(const JsShape *shape, size_t off, int *piece, size_t *delta)
{
	int			i;

	for (i = 0; i <= shape->nslots; i++)
	{
		const JsPiece *pc = &shape->pieces[i];

		if (off >= pc->lit_off && off < pc->lit_off + pc->lit_len)
		{
			*piece = i;
			*delta = off - pc->lit_off;
			return true;
		}
	}
	return false;
}

#if defined(__SSE2__) && defined(__GNUC__)
/*
 * js_number_fast: the end of the number token at p when it is an optional
 * '-', an integer part of 1 or more digits without a leading zero (or the
 * one digit 0) and an optional fraction ('.' and 1 or more digits), all in
 * 15 bytes, followed by neither 'e' nor 'E' (the byte after the last digit
 * is no digit by construction, and no '.' either: a point after the
 * integer part starts the fraction, one after the fraction ends the
 * token); the sixteen bytes from p are read at once (they must be
 * readable).  NULL: js_number_end decides (an exponent, a longer token, or
 * no number at all).  The token is then the one JSON's grammar takes
 * (greedy: every digit, and nothing after the last).
 */
static inline const char *
js_number_fast(const char *p)
{
	__m128i		x = _mm_loadu_si128((const __m128i *) p);
	unsigned	d = (unsigned) _mm_movemask_epi8(
		_mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
					  _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1))));
	unsigned	s = (p[0] == '-') ? 1 : 0;
	/* digits of the integer part; bits from 16 on are 0, so at most 16 */
	unsigned	nd = (unsigned) __builtin_ctz(~(d >> s));
	unsigned	e = s + nd;		/* where the integer part ends */
	char		c;

	if (nd == 0 || e > 15 || (p[s] == '0' && nd > 1))
		return NULL;
	if (p[e] == '.')
	{
		unsigned	nf = (unsigned) __builtin_ctz(~(d >> (e + 1)));

		if (nf == 0)
			return NULL;
		e += 1 + nf;
		if (e > 15)
			return NULL;
	}
	c = p[e];
	if (c == 'e' || c == 'E')
		return NULL;
	return p + e;
}
#endif

/* the end of the number token at p (js_number_end's answer), or NULL */
static JS_ALWAYS_INLINE const char *
js_number_token(const char *p, const char *end)
{
	const char *e = NULL;

#if defined(__SSE2__) && defined(__GNUC__)
	if (end - p >= 16)
		e = js_number_fast(p);
#endif
	return e != NULL ? e : js_number_end(p, end);
}

#ifdef JS_AVX2
/* js_lit_short with one 32-byte compare (AVX2 callers only) */
__attribute__((target("avx2")))
static inline bool
js_lit_short_avx2(const JsPiece *pc, const char *p)
{
	__m256i		a = _mm256_loadu_si256((const __m256i *) p);
	__m256i		b = _mm256_loadu_si256((const __m256i *) pc->short_lit);
	uint32_t	eq = (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b));

	return (~eq & pc->short_mask) == 0;
}

/* js_plain_run thirty-two bytes at a time (AVX2 callers only) */
__attribute__((target("avx2")))
static inline const char *
js_plain_run_avx2(const char *p, const char *end)
{
	while (end - p >= 32)
	{
		__m256i		v = _mm256_loadu_si256((const __m256i *) p);
		/* signed: below 0x20, or 0x80 and above */
		__m256i		ctl = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v);
		__m256i		del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7f));
		__m256i		quo = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'));
		__m256i		bsl = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'));
		uint32_t	m = (uint32_t) _mm256_movemask_epi8(
			_mm256_or_si256(_mm256_or_si256(ctl, del), _mm256_or_si256(quo, bsl)));

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 32;
	}
	return js_plain_run(p, end);
}
#endif

#ifdef JS_AVX2
/*
 * js_tmpl_run_avx2: how many bytes of the text from pos on pass the
 * shape's template from model offset mo on (JsShape.tmpl_lo), thirty-two
 * at a time while the text has thirty-two more; the first byte that does
 * not pass ends the count.  (mo + the count never passes model_len: the
 * template's last 32 bytes refuse all, so each load of 32 stays inside.)
 */
__attribute__((target("avx2")))
static inline size_t
js_tmpl_run_avx2(const JsShape *shape, size_t mo, const char *pos,
				 const char *end)
{
	size_t		n = 0;

	while (end - (pos + n) >= 32)
	{
		__m256i		t = _mm256_loadu_si256((const __m256i *) (pos + n));
		__m256i		lo = _mm256_loadu_si256((const __m256i *) (shape->tmpl_lo + mo + n));
		__m256i		hi = _mm256_loadu_si256((const __m256i *) (shape->tmpl_hi + mo + n));
		__m256i		pl = _mm256_loadu_si256((const __m256i *) (shape->tmpl_plain + mo + n));
		__m256i		in = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_max_epu8(t, lo), t),
			_mm256_cmpeq_epi8(_mm256_min_epu8(t, hi), t));
		__m256i		qb = _mm256_and_si256(pl, _mm256_or_si256(
			_mm256_cmpeq_epi8(t, _mm256_set1_epi8('"')),
			_mm256_cmpeq_epi8(t, _mm256_set1_epi8('\\'))));
		uint32_t	bad = ~(uint32_t) _mm256_movemask_epi8(in) |
			(uint32_t) _mm256_movemask_epi8(qb);

		if (bad != 0)
			return n + (size_t) __builtin_ctz(bad);
		n += 32;
	}
	return n;
}
#endif

/* fn##_avx2 args when wide, else fn args */
#ifdef JS_AVX2
#define JS_WIDE_OR_NOT(wide, fn, args) ((wide) ? fn##_avx2 args : fn args)
#else
#define JS_WIDE_OR_NOT(wide, fn, args) (fn args)
#endif

/*
 * js_walk: the walk of js_match (slots and length; the output, when
 * wanted, is put together from the slots afterwards).  wide: compare and
 * scan with AVX2 (a constant in each of the two instances below).
 */
static JS_ALWAYS_INLINE bool
js_walk(const JsShape *shape, const char *p, const char *end,
		JsSlot *slots, size_t *consumed, bool wide)
{
	const char *pos = p;
	const JsPiece *pc = shape->pieces;
	const JsPiece *last = shape->pieces + shape->nslots;
	JsSlot	   *sl = slots;

	(void) wide;				/* without JS_AVX2 */
	for (;; pc++, sl++)
	{
		const char *e;
		JsSlotKind	kind;
		size_t		ll = pc->lit_len;

		if (ll <= JS_SHORT_LIT && end - pos >= JS_SHORT_LIT)
		{
			if (!JS_WIDE_OR_NOT(wide, js_lit_short, (pc, pos)))
				return false;
		}
		else if ((size_t) (end - pos) < ll ||
				 !js_same(pos, shape->model + pc->lit_off, ll))
			return false;
		pos += ll;
		if (pc == last)
			break;
#ifdef JS_AVX2
		if (wide && shape->tmpl_lo != NULL)
		{
			/*
			 * The slots from here on that lie, with the literal after
			 * each, inside the bytes that pass the template: their tokens
			 * are the model's lengths, and the walk below would take them
			 * with the same bounds (see js_tmpl_slot).  A slot followed by
			 * an empty literal is left to the walk.  (The walk without
			 * AVX2 uses no template.)
			 */
			const char *base = pos;
			const JsPiece *first = pc;
			size_t		mo = pc->slot_off;
			size_t		run = js_tmpl_run_avx2(shape, mo, pos, end);
			size_t		delta = (size_t) (base - p) - mo;	/* (modulo) */

			/* (next_end: SIZE_MAX at the last piece and empty literals) */
			while (pc->next_end - mo <= run)
			{
				*sl = pc->mslot;
				sl->off += delta;
				pc++;
				sl++;
			}
			if (pc != first)
			{
				pos = base + (pc->lit_off + pc->lit_len - mo);
				if (pc == last)
					break;
			}
		}
#endif
		kind = pc->kind;
		sl->escaped = false;
		if (kind == JS_SLOT_NUMBER)
			e = js_number_token(pos, end);
		else if (kind == JS_SLOT_STRING)
		{
			/* the next literal has the quote */
			e = JS_WIDE_OR_NOT(wide, js_plain_run, (pos, end));
			if (e < end && !js_quote(shape->quoting, e, end))
			{
				/* escapes, UTF-8, a control byte: jstr judges */
				e = jstr_end(pos, end, shape->quoting, NULL);
				sl->escaped = true;
			}
		}
		else
			e = js_word_end(pos, end, &kind);
		if (e == NULL)
			return false;
		sl->off = pos - p;
		sl->len = e - pos;
		sl->kind = kind;
		pos = e;
	}
	*consumed = pos - p;
	return true;
}

static bool
js_walk_sse(const JsShape *shape, const char *p, const char *end,
			JsSlot *slots, size_t *consumed)
{
	return js_walk(shape, p, end, slots, consumed, false);
}

#ifdef JS_AVX2
__attribute__((target("avx2")))
static bool
js_walk_avx2(const JsShape *shape, const char *p, const char *end,
			 JsSlot *slots, size_t *consumed)
{
	return js_walk(shape, p, end, slots, consumed, true);
}
#endif

/* ---------------------------------------------------------------------
 * Keyed shapes (see jshape.h)
 *
 * The model as a tree: an object node holds its members (key and value
 * node), in the model's order, a scalar node the slot the shape gave its
 * token (a text may have a scalar of any kind there: writers put NaN and
 * Infinity as strings where other files have numbers).  The tree is
 * built from the shape's own split, so the slots are the shape's: each
 * scalar of the model must start where the shape's next slot starts.  Each
 * member also keeps its key as the text has it with the closing quote and
 * the colon (JsKMember.lit), so that a text whose member comes where the
 * model has it is checked with one compare.
 * ---------------------------------------------------------------------
 */
#define JS_KEY_LIT 32

#define JS_KEY_BUCKETS 16

typedef struct JsKMember
{
	const char *key;			/* in the shape's copy of the model */
	size_t		keylen;
	struct JsKNode *node;
	int			next;			/* the next member of its bucket, or -1 */
	uint32_t	lit_mask;		/* bytes of lit (0: the key is too long) */
	unsigned char lit[JS_KEY_LIT];	/* key, closing quote, ':' */
} JsKMember;

struct JsKNode
{
	bool		object;
	int			slot;			/* scalars */
	int			nmembers;		/* objects */
	JsKMember  *members;		/* objects: [nmembers], the model's order */
	int			bucket[JS_KEY_BUCKETS];	/* objects: the first member of each
										 * bucket (js_key_bucket), or -1 */
};

/*
 * The bucket of the key whose first byte is at k (two bytes readable: a
 * key of one byte or none brings its closing quote's first byte in, the
 * same in the model and the text).
 */
static inline int
js_key_bucket(const char *k)
{
	unsigned	a = (unsigned char) k[0];
	unsigned	b = (unsigned char) k[1];

	return (int) ((a ^ (b << 1) ^ (b >> 3)) & (JS_KEY_BUCKETS - 1));
}

typedef struct JsKBuild
{
	const JsShape *shape;
	const char *p;
	const char *end;
	size_t		qlen;
	int			slot;			/* the next scalar's */
	const FmtAllocator *alloc;
} JsKBuild;

static inline const char *
js_skip_space(JsQuoting q, const char *p, const char *end)
{
	while (p < end && js_space(q, *p))
		p++;
	return p;
}

/* member m's lit: its key, the closing quote and ':' (when they fit) */
static void
js_key_lit(JsKMember *m, JsQuoting q)
{
	size_t		qlen = q == JS_ESCAPED ? 2 : 1;
	size_t		n = m->keylen + qlen + 1;

	memset(m->lit, 0, JS_KEY_LIT);
	m->lit_mask = 0;
	if (n > JS_KEY_LIT)
		return;
	memcpy(m->lit, m->key, m->keylen);
	memcpy(m->lit + m->keylen, q == JS_ESCAPED ? "\\\":" : "\":", qlen + 1);
	m->lit_mask = n == JS_KEY_LIT ? ~(uint32_t) 0 : ((uint32_t) 1 << n) - 1;
}

/* the model's value at b->p into node (b->p moves past it) */
static bool
js_keyed_build_value(JsKBuild *b, struct JsKNode *node, int depth)
{
	const JsShape *sh = b->shape;
	JsQuoting	q = sh->quoting;
	const JsPiece *pc;
	size_t		at;

	b->p = js_skip_space(q, b->p, b->end);
	if (b->p >= b->end || *b->p == '[')
		return false;			/* (arrays are not keyed) */
	if (*b->p == '{')
	{
		JsKMember	tmp[JS_KEYED_MAX_MEMBERS];
		int			n = 0;
		int			j;

		if (depth >= JS_KEYED_MAX_DEPTH)
			return false;
		node->object = true;
		b->p = js_skip_space(q, b->p + 1, b->end);
		if (b->p < b->end && *b->p == '}')
			b->p++;
		else
			for (;;)
			{
				const char *key;
				const char *e;

				b->p = js_skip_space(q, b->p, b->end);
				if (b->p >= b->end || !js_quote(q, b->p, b->end) ||
					n == JS_KEYED_MAX_MEMBERS)
					return false;
				key = b->p + b->qlen;
				e = js_plain_run(key, b->end);
				if (e >= b->end || !js_quote(q, e, b->end))
					return false;	/* a key that is not literal bytes */
				for (j = 0; j < n; j++)
					if (tmp[j].keylen == (size_t) (e - key) &&
						memcmp(tmp[j].key, key, e - key) == 0)
						return false;	/* a duplicate: the last one counts */
				tmp[n].key = key;
				tmp[n].keylen = e - key;
				js_key_lit(&tmp[n], q);
				tmp[n].node = fmt_alloc(b->alloc, sizeof(struct JsKNode));
				if (tmp[n].node == NULL)
					return false;
				b->p = js_skip_space(q, e + b->qlen, b->end);
				if (b->p >= b->end || *b->p != ':')
					return false;
				b->p++;
				if (!js_keyed_build_value(b, tmp[n].node, depth + 1))
					return false;
				n++;
				b->p = js_skip_space(q, b->p, b->end);
				if (b->p < b->end && *b->p == ',')
				{
					b->p++;
					continue;
				}
				if (b->p < b->end && *b->p == '}')
				{
					b->p++;
					break;
				}
				return false;
			}
		node->nmembers = n;
		for (j = 0; j < JS_KEY_BUCKETS; j++)
			node->bucket[j] = -1;
		if (n > 0)
		{
			node->members = fmt_alloc(b->alloc, sizeof(JsKMember) * n);
			if (node->members == NULL)
				return false;
			memcpy(node->members, tmp, sizeof(JsKMember) * n);
			/* each bucket's members in the model's order */
			for (j = n - 1; j >= 0; j--)
			{
				int			h = js_key_bucket(node->members[j].key);

				node->members[j].next = node->bucket[h];
				node->bucket[h] = j;
			}
		}
		return true;
	}
	/* a scalar: the shape's next slot, which must start right here */
	if (b->slot >= sh->nslots)
		return false;
	pc = &sh->pieces[b->slot];
	at = (size_t) (b->p - sh->model);
	if (pc->kind == JS_SLOT_STRING)
		at += b->qlen;			/* a string slot is the string's content */
	if (at != pc->slot_off)
		return false;
	node->object = false;
	node->slot = b->slot++;
	b->p = sh->model + pc->slot_off + pc->mlen +
		(pc->kind == JS_SLOT_STRING ? b->qlen : 0);
	return true;
}

/* See jshape.h. */
bool
js_build_keyed(JsShape *shape, const FmtAllocator *alloc)
{
	JsKBuild	b;
	struct JsKNode *root;

	if (shape->keyed != NULL)
		return true;
	root = fmt_alloc(alloc, sizeof(struct JsKNode));	/* (zeroed) */
	if (root == NULL)
		return false;
	b.shape = shape;
	b.p = shape->model;
	b.end = shape->model + shape->model_len;
	b.qlen = shape->quoting == JS_ESCAPED ? 2 : 1;
	b.slot = 0;
	b.alloc = alloc;
	if (!js_keyed_build_value(&b, root, 0) || !root->object ||
		b.slot != shape->nslots ||
		js_skip_space(shape->quoting, b.p, b.end) != b.end)
		return false;
	shape->keyed = root;
	return true;
}

/*
 * js_key_here: the key that starts at p (after its opening quote), with
 * its closing quote and ':', is member m's lit; JS_KEY_LIT bytes from p
 * may be read.  (Without SSE2: a bytewise compare.)
 */
static inline bool
js_key_here(const JsKMember *m, const char *p)
{
	return m->lit_mask != 0 &&
		js_masked_same(p, m->lit, m->lit_mask,
					   (size_t) __builtin_popcount(m->lit_mask));
}

static bool js_keyed_object_esc(const struct JsKNode *node, const char **pp,
								const char *base, const char *end,
								JsSlot *slots);
static bool js_keyed_object_plain(const struct JsKNode *node, const char **pp,
								  const char *base, const char *end,
								  JsSlot *slots);

/*
 * js_keyed_object: the text's object at *pp (its '{') against object node
 * (each scalar into its slot, offsets from base); *pp moves past it.  q is
 * a constant in each of the two instances; the recursion follows the
 * model's nesting, at most JS_KEYED_MAX_DEPTH deep.
 */
static JS_ALWAYS_INLINE bool
js_keyed_object(const struct JsKNode *node, const char **pp,
				const char *base, const char *end, JsSlot *slots,
				JsQuoting q)
{
	const size_t qlen = q == JS_ESCAPED ? 2 : 1;
	const char *p = *pp + 1;
	uint64_t	seen = 0;
	int			count = 0;
	int			i;

	p = js_skip_space(q, p, end);
	if (p < end && *p == '}' && node->nmembers == 0)
	{
		*pp = p + 1;
		return true;
	}
	for (;;)
	{
		const JsKMember *m;
		const struct JsKNode *c;
		const char *key;
		const char *e;
		JsSlot	   *sl;
		JsSlotKind	kind;

		p = js_skip_space(q, p, end);
		if (p >= end || !js_quote(q, p, end))
			return false;
		key = p + qlen;
		i = -1;
		if (end - key >= JS_KEY_LIT)
		{
			/* the model's member at this place, or one of its bucket */
			if (count < node->nmembers &&
				js_key_here(&node->members[count], key))
				i = count;
			else
				for (i = node->bucket[js_key_bucket(key)];
					 i >= 0 && !js_key_here(&node->members[i], key);
					 i = node->members[i].next)
					;
		}
		if (i >= 0)
			p = key + node->members[i].keylen + qlen + 1;
		else
		{
			/* (near the end, or a long key: found by its bytes) */
			e = js_plain_run(key, end);
			if (e >= end || !js_quote(q, e, end))
				return false;
			for (i = 0; i < node->nmembers; i++)
				if (node->members[i].keylen == (size_t) (e - key) &&
					js_same(node->members[i].key, key, e - key))
					break;
			if (i == node->nmembers)
				return false;	/* a key the model lacks */
			p = js_skip_space(q, e + qlen, end);
			if (p >= end || *p != ':')
				return false;
			p++;
		}
		if (seen & ((uint64_t) 1 << i))
			return false;		/* a key the text repeats */
		seen |= (uint64_t) 1 << i;
		m = &node->members[i];
		c = m->node;
		p = js_skip_space(q, p, end);
		if (p >= end)
			return false;
		if (c->object)
		{
			if (*p != '{' ||
				!(q == JS_ESCAPED ?
				  js_keyed_object_esc(c, &p, base, end, slots) :
				  js_keyed_object_plain(c, &p, base, end, slots)))
				return false;
		}
		else
		{
			/* a scalar, as js_walk takes one */
			sl = &slots[c->slot];
			sl->escaped = false;
			kind = js_quote(q, p, end) ? JS_SLOT_STRING :
				(*p == '-' || (*p >= '0' && *p <= '9')) ? JS_SLOT_NUMBER :
				JS_SLOT_NULL;
			if (kind == JS_SLOT_NUMBER)
				e = js_number_token(p, end);
			else if (kind == JS_SLOT_STRING)
			{
				p += qlen;
				e = js_plain_run(p, end);
				if (e >= end || !js_quote(q, e, end))
				{
					/* escapes, UTF-8, a control byte: jstr judges */
					e = jstr_end(p, end, q, NULL);
					sl->escaped = true;
				}
			}
			else
				e = js_word_end(p, end, &kind);
			if (e == NULL)
				return false;
			sl->off = (size_t) (p - base);
			sl->len = (size_t) (e - p);
			sl->kind = kind;
			p = kind == JS_SLOT_STRING ? e + qlen : e;
		}
		count++;
		if (p < end && *p == ',')
		{
			p++;
			continue;
		}
		p = js_skip_space(q, p, end);
		if (p >= end)
			return false;
		if (*p == ',')
		{
			p++;
			continue;
		}
		if (*p != '}')
			return false;
		if (count != node->nmembers)
		{
			/* the members the text lacks: scalars only */
			for (i = 0; i < node->nmembers; i++)
				if ((seen & ((uint64_t) 1 << i)) == 0)
				{
					c = node->members[i].node;
					if (c->object)
						return false;
					slots[c->slot].kind = JS_SLOT_ABSENT;
					slots[c->slot].off = 0;
					slots[c->slot].len = 0;
					slots[c->slot].escaped = false;
				}
		}
		*pp = p + 1;
		return true;
	}
}

static bool
js_keyed_object_esc(const struct JsKNode *node, const char **pp,
					const char *base, const char *end, JsSlot *slots)
{
	return js_keyed_object(node, pp, base, end, slots, JS_ESCAPED);
}

static bool
js_keyed_object_plain(const struct JsKNode *node, const char **pp,
					  const char *base, const char *end, JsSlot *slots)
{
	return js_keyed_object(node, pp, base, end, slots, JS_PLAIN);
}

/* See jshape.h. */
bool
js_match_keyed(const JsShape *shape, const char *p, const char *end,
			   JsSlot *slots, size_t *consumed)
{
	const char *pos;

	if (shape->keyed == NULL)
		return false;
	pos = js_skip_space(shape->quoting, p, end);
	if (pos >= end || *pos != '{')
		return false;
	if (!(shape->quoting == JS_ESCAPED ?
		  js_keyed_object_esc(shape->keyed, &pos, p, end, slots) :
		  js_keyed_object_plain(shape->keyed, &pos, p, end, slots)))
		return false;
	*consumed = (size_t) (js_skip_space(shape->quoting, pos, end) - p);
	return true;
}

/* See jshape.h. */
bool
js_use_wide(bool allow)
{
	js_plain_init();
#ifdef JS_AVX2
	js_avx2 = allow && js_cpu_avx2;
	return js_avx2;
#else
	(void) allow;
	return false;
#endif
}

/* See jshape.h. */
bool
js_match(const JsShape *shape, const char *p, const char *end,
		 JsSlot *slots, size_t *consumed, char *out, size_t *outlen)
{
	char	   *o = out;
	int			i;

#ifdef JS_AVX2
	if (js_avx2 ? !js_walk_avx2(shape, p, end, slots, consumed) :
		!js_walk_sse(shape, p, end, slots, consumed))
		return false;
#else
	if (!js_walk_sse(shape, p, end, slots, consumed))
		return false;
#endif
	if (out == NULL)
		return true;
	/* the instance unescaped: the literals' unescaped forms and the tokens */
	for (i = 0;; i++)
	{
		const JsPiece *pc = &shape->pieces[i];

		js_copy(o, shape->umodel + pc->ulit_off, pc->ulit_len);
		o += pc->ulit_len;
		if (i == shape->nslots)
			break;
		if (slots[i].kind == JS_SLOT_STRING && slots[i].escaped &&
			shape->quoting == JS_ESCAPED)
		{
			/* the enclosing string's escapes decoded (one level) */
			o += jstr_decode(p + slots[i].off,
							 p + slots[i].off + slots[i].len, JS_PLAIN, o);
			continue;
		}
		js_copy(o, p + slots[i].off, slots[i].len);
		o += slots[i].len;
	}
	*outlen = o - out;
	return true;
}
