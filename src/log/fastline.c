/*-------------------------------------------------------------------------
 *
 * fastline.c
 *	  Reading Delta log lines of a strict JSON subset without a parse tree
 *	  (see fastline.h for the subset and the contract).
 *
 * Every function here answers "not provable" (false) rather than guess:
 * a line it refuses goes through djson and DeltaDecodeAction, which accept
 * it or raise the error they always raised.  Callers in assert-enabled
 * builds decode every line they accepted here the full way too and compare.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/log/fastline.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/fastpath.h"
#include "format/djson_scan.h"
#include "format/jshape.h"
#include "format/jstr.h"
#include "log/fastline.h"

/*
 * On x86-64 with GCC or clang, fl_skip_string walks 32 bytes at a time
 * when the CPU has AVX2 (checked once, in fl_init; the code is compiled
 * for AVX2 with a target attribute, the rest of the file is not).
 */
#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#define FL_AVX2 1
#include <immintrin.h>
static bool fl_avx2 = false;
#endif

static bool fl_ready = false;

/* find out once whether AVX2 is there (see fastline.h) */
void
fl_init(void)
{
	if (likely(fl_ready))
		return;
#ifdef FL_AVX2
	fl_avx2 = js_cpu_has_avx2();
#endif
	fl_ready = true;
}

/* is c a hexadecimal digit */
static inline bool
is_hex(char c)
{
	return dj_hex_value((unsigned char) c) >= 0;
}

/*
 * escape_len: the length of the escape of the subset at q (a backslash,
 * before e): 2, or 6 for a \u escape other than \u0000 and surrogates
 * (those are djson's to judge); 0 for anything else.
 */
static inline int
escape_len(const unsigned char *q, const unsigned char *e)
{
	unsigned char c;

	if (e - q < 2)
		return 0;
	c = q[1];
	if (likely(dj_escape_byte[c] != 0))
		return 2;
	if (c != 'u' || e - q < 6 || !is_hex(q[2]) || !is_hex(q[3]) ||
		!is_hex(q[4]) || !is_hex(q[5]))
		return 0;
	if (memcmp(q + 2, "0000", 4) == 0 ||
		((q[2] == 'd' || q[2] == 'D') &&
		 strchr("89abcdefABCDEF", q[3]) != NULL))
		return 0;
	return 6;
}

#ifdef DJ_SSE2
/*
 * walk_flagged: the flagged bytes m (dj_special16's kind) of the
 * width-byte block at p, one by one.  Returns 1 at the closing quote (*pp
 * past it), -1 for a byte or escape outside the subset, 0 when the block
 * is done; *next (the block's end on entry) moves past an escape that ran
 * beyond it.
 */
static inline int
walk_flagged(const unsigned char *p, uint32 m, int width,
			 const unsigned char *e, const unsigned char **pp,
			 const unsigned char **next)
{
	while (m != 0)
	{
		const unsigned char *q = p + pg_rightmost_one_pos32(m);
		int			n;

		if (*q == '"')
		{
			*pp = q + 1;
			return 1;
		}
		if (*q >= 0x80)
		{
			/* a UTF-8 sequence, as djson validates it */
			if ((n = dj_utf8_seq_len(q, (size_t) (e - q))) == 0)
				return -1;
		}
		else if (*q != '\\' || (n = escape_len(q, e)) == 0)
			return -1;			/* control, an escape jstr judges */
		q += n;
		if (q - p >= width)
		{
			*next = q;			/* the escape ran past the block */
			return 0;
		}
		m &= ~(uint32) 0 << (q - p);	/* the escape's bytes are done */
	}
	return 0;
}

/*
 * simple_escapes: the block of width bytes at p at once when every
 * backslash in it (b) starts a \" or \/ escape (esc: the bytes after each
 * position, p[1 .. width], that are '"' or '/') and no two are adjacent,
 * as in statistics strings.  b << 1 marks the escaped bytes (bit width:
 * p[width]), rest the flagged bytes m of neither kind; the first of those
 * ends the string ('"') or is outside the subset.  Returns 2 when the
 * block holds none (*next: where the next block starts, past an escaped
 * p[width]), 1 at the closing quote (*pp past it), -1 at a byte outside
 * the subset (let djson judge), 0 when some backslash is not such an
 * escape (walk_flagged decides).
 */
static inline int
simple_escapes(const unsigned char *p, uint32 m, uint32 b, uint32 esc,
			   int width, const unsigned char **pp,
			   const unsigned char **next)
{
	uint32		rest;

	if ((b & (b << 1)) != 0 || (b & ~esc) != 0)
		return 0;
	rest = m & ~b & ~(b << 1);
	if (rest == 0)
	{
		*next = p + width + (b >> (width - 1));
		return 2;
	}
	if (p[pg_rightmost_one_pos32(rest)] >= 0x80)
		return 0;				/* UTF-8: walk_flagged validates it */
	if (p[pg_rightmost_one_pos32(rest)] != '"')
		return -1;
	*pp = p + pg_rightmost_one_pos32(rest) + 1;
	return 1;
}

/*
 * skip_escape_run: sixteen bytes at a time, the part of fl_skip_string's
 * work that lies at least sixteen bytes before e: *pp (inside the string)
 * advances over plain bytes and escapes of the subset.  Returns 1 at the
 * closing quote (*pp past it), -1 for a byte or escape outside the subset,
 * 0 when fewer than sixteen bytes are left (*pp where the byte loop goes
 * on).  Escape-dense strings (stats) are why the flagged bytes of a block
 * are walked one by one rather than the block reloaded after each.
 */
static inline int
skip_escape_run(const unsigned char **pp, const unsigned char *e)
{
	const unsigned char *p = *pp;

	while (e - p >= 16)
	{
		unsigned	m = dj_special16(p);
		const unsigned char *next = p + 16;
		int			r;

		if (m != 0 && e - p >= 17)
		{
			/* the whole block at once in the usual case (y: p[1 .. 16]) */
			__m128i		x = _mm_loadu_si128((const __m128i *) p);
			__m128i		y = _mm_loadu_si128((const __m128i *) (p + 1));
			uint32		b = (uint32) _mm_movemask_epi8(
				_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
			uint32		esc = (uint32) _mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(y, _mm_set1_epi8('"')),
							 _mm_cmpeq_epi8(y, _mm_set1_epi8('/'))));

			r = simple_escapes(p, m, b, esc, 16, pp, &next);
			if (r == 2)
			{
				p = next;
				continue;
			}
			if (r != 0)
				return r;
		}
		r = walk_flagged(p, m, 16, e, pp, &next);	/* (m 0: nothing) */
		if (r != 0)
			return r;
		p = next;
	}
	*pp = p;
	return 0;
}
#endif

#ifdef FL_AVX2
/*
 * skip_escape_run_avx2: skip_escape_run thirty-two bytes at a time (the
 * same walk, 32-bit masks), then skip_escape_run for the rest.  Only
 * called when fl_init found AVX2.
 */
__attribute__((target("avx2")))
static int
skip_escape_run_avx2(const unsigned char **pp, const unsigned char *e)
{
	const unsigned char *p = *pp;
	const __m256i quote = _mm256_set1_epi8('"');
	const __m256i bslash = _mm256_set1_epi8('\\');
	const __m256i slash = _mm256_set1_epi8('/');
	const __m256i space = _mm256_set1_epi8(0x20);
	const __m256i del = _mm256_set1_epi8(0x7f);

	while (e - p >= 33)
	{
		__m256i		x = _mm256_loadu_si256((const __m256i *) p);
		uint32		b = (uint32) _mm256_movemask_epi8(_mm256_cmpeq_epi8(x, bslash));
		/* flagged: as dj_special16 (signed: 0x80 and above are below 0x20) */
		uint32		m = b | (uint32) _mm256_movemask_epi8(
			_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, quote),
											_mm256_cmpgt_epi8(space, x)),
							_mm256_cmpeq_epi8(x, del)));
		const unsigned char *next = p + 32;
		int			r;

		if (m == 0)
		{
			p = next;
			continue;
		}
		if (b != 0)
		{
			/* the whole block at once in the usual case (y: p[1 .. 32]) */
			__m256i		y = _mm256_loadu_si256((const __m256i *) (p + 1));
			uint32		esc = (uint32) _mm256_movemask_epi8(
				_mm256_or_si256(_mm256_cmpeq_epi8(y, quote),
								_mm256_cmpeq_epi8(y, slash)));

			r = simple_escapes(p, m, b, esc, 32, pp, &next);
			if (r == 2)
			{
				p = next;
				continue;
			}
			if (r != 0)
				return r;
		}
		r = walk_flagged(p, m, 32, e, pp, &next);
		if (r != 0)
			return r;
		p = next;
	}
	*pp = p;
	return skip_escape_run(pp, e);
}
#endif

/*
 * skip_string_general: fl_skip_string for a string the fast walk below
 * did not take (non-ASCII characters, \u escapes of surrogate pairs):
 * jstr_end judges it from its start, as djson would.
 */
static bool
skip_string_general(const char **pp, const char *end)
{
	const char *close = jstr_end(*pp + 1, end, JS_PLAIN, NULL);

	if (close == NULL)
		return false;
	*pp = close + 1;
	return true;
}

/*
 * fl_skip_string: see fastline.h.
 */
bool
fl_skip_string(const char **pp, const char *end)
{
	const unsigned char *p = (const unsigned char *) *pp + 1;
	const unsigned char *e = (const unsigned char *) end;

#ifdef DJ_SSE2
#ifdef FL_AVX2
	switch (fl_avx2 ? skip_escape_run_avx2(&p, e) : skip_escape_run(&p, e))
#else
	switch (skip_escape_run(&p, e))
#endif
	{
		case 1:
			*pp = (const char *) p;
			return true;
		case -1:
			return skip_string_general(pp, end);
		default:
			break;
	}
#endif
	while (p < e)
	{
		unsigned char c;
		int			n;

		/* runs of plain bytes, four at a time */
		p = dj_plain_run4(p, e);
		if (p >= e)
			break;
		c = *p;
		if (c == '"')
		{
			*pp = (const char *) p + 1;
			return true;
		}
		if (c >= 0x80)
		{
			if ((n = dj_utf8_seq_len(p, (size_t) (e - p))) == 0)
				return false;	/* invalid UTF-8 */
		}
		else if (c != '\\' || (n = escape_len(p, e)) == 0)
			return skip_string_general(pp, end);	/* control, \u pairs, ... */
		p += n;
	}
	return false;
}

/*
 * state_name_at: fl_may_name_state's test at a candidate p (before end):
 * a backslash followed by 'u', or the eight bytes of either name.
 */
static inline bool
state_name_at(const char *p, const char *end)
{
	if (*p == '\\')
		return end - p >= 2 && p[1] == 'u';
	return end - p >= 8 &&
		(memcmp(p, "metaData", 8) == 0 || memcmp(p, "protocol", 8) == 0);
}

/* fl_may_name_state a byte at a time */
static bool
may_name_state_bytes(const char *p, const char *end)
{
	for (; p < end; p++)
	{
		char		c = *p;

		if ((c == 'm' || c == 'p' || c == '\\') && state_name_at(p, end))
			return true;
	}
	return false;
}

#ifdef FL_AVX2
/*
 * may_name_state_avx2: fl_may_name_state thirty-two candidates at a time:
 * 'm' with 'a' seven bytes on, 'p' with 'l' seven bytes on, a backslash
 * with 'u' after it (each candidate then checked whole).  Only called when
 * fl_init found AVX2.
 */
__attribute__((target("avx2")))
static bool
may_name_state_avx2(const char *p, const char *end)
{
	const char *last;
	const __m256i m = _mm256_set1_epi8('m');
	const __m256i a = _mm256_set1_epi8('a');
	const __m256i pe = _mm256_set1_epi8('p');
	const __m256i l = _mm256_set1_epi8('l');
	const __m256i bs = _mm256_set1_epi8('\\');
	const __m256i u = _mm256_set1_epi8('u');

	/* the loads reach p[38] */
	if (end - p < 39)
		return may_name_state_bytes(p, end);
	last = end - 39;			/* the last block's start (overlapping) */
	for (;;)
	{
		__m256i		x0 = _mm256_loadu_si256((const __m256i *) p);
		__m256i		x1 = _mm256_loadu_si256((const __m256i *) (p + 1));
		__m256i		x7 = _mm256_loadu_si256((const __m256i *) (p + 7));
		__m256i		hit = _mm256_or_si256(
			_mm256_or_si256(
				_mm256_and_si256(_mm256_cmpeq_epi8(x0, m), _mm256_cmpeq_epi8(x7, a)),
				_mm256_and_si256(_mm256_cmpeq_epi8(x0, pe), _mm256_cmpeq_epi8(x7, l))),
			_mm256_and_si256(_mm256_cmpeq_epi8(x0, bs), _mm256_cmpeq_epi8(x1, u)));
		uint32		mask = (uint32) _mm256_movemask_epi8(hit);

		while (mask != 0)
		{
			if (state_name_at(p + pg_rightmost_one_pos32(mask), end))
				return true;
			mask &= mask - 1;
		}
		if (p == last)
		{
			/* the last seven starts, where only a backslash and a u fit */
			return may_name_state_bytes(end - 7, end);
		}
		/* the next block, or the last one (its first bytes seen again) */
		p = (last - p > 32) ? p + 32 : last;
	}
}
#endif

/*
 * fl_may_name_state: see fastline.h.
 */
bool
fl_may_name_state(const char *line, size_t len)
{
	fl_init();
#ifdef FL_AVX2
	if (fl_avx2)
		return may_name_state_avx2(line, line + len);
#endif
	return may_name_state_bytes(line, line + len);
}

/*
 * fl_skip_value: see fastline.h.
 */
bool
fl_skip_value(const char **pp, const char *end, int depth)
{
	const char *p = fl_skip_ws(*pp, end);

	if (depth > FL_MAX_DEPTH || p >= end)
		return false;
	switch (*p)
	{
		case '{':
		case '[':
			{
				char		close = (*p == '{') ? '}' : ']';
				bool		object = (*p == '{');

				p = fl_skip_ws(p + 1, end);
				if (p < end && *p == close)
				{
					*pp = p + 1;
					return true;
				}
				for (;;)
				{
					if (object)
					{
						p = fl_skip_ws(p, end);
						if (p >= end || *p != '"' || !fl_skip_string(&p, end) ||
							!fl_colon(&p, end))
							return false;
					}
					if (!fl_skip_value(&p, end, depth + 1))
						return false;
					p = fl_skip_ws(p, end);
					if (p >= end)
						return false;
					if (*p == ',')
					{
						p++;
						continue;
					}
					if (*p != close)
						return false;
					*pp = p + 1;
					return true;
				}
			}
		case '"':
			*pp = p;
			return fl_skip_string(pp, end);
		case 't':
		case 'n':
			if (end - p < 4 || (memcmp(p, "true", 4) != 0 &&
								memcmp(p, "null", 4) != 0))
				return false;
			*pp = p + 4;
			return true;
		case 'f':
			if (end - p < 5 || memcmp(p, "false", 5) != 0)
				return false;
			*pp = p + 5;
			return true;
		default:
			{
				const char *q = dj_number_end(p, end);

				if (q == NULL || q - p > DJ_MAX_NUMBER_LEN)
					return false;
				*pp = q;
				return true;
			}
	}
}

/*
 * fl_plain_int: see fastline.h.
 */
bool
fl_plain_int(const char **pp, const char *end, int64 *out)
{
	const char *p = *pp;
	const char *q;
	bool		neg = false;
	uint64		v;

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	q = dj_digit_run(p, end);
	/* 1 to 18 digits, no leading zero, no fraction or exponent after */
	if (q == p || (*p == '0' && q - p > 1) ||
		(q < end && (*q == '.' || *q == 'e' || *q == 'E')) ||
		q - p > 18)
		return false;
	v = dj_digits_known(p, q - p);
	*out = neg ? -(int64) v : (int64) v;
	*pp = q;
	return true;
}

/*
 * Copy the plain bytes from *pp on (dj_plain_span) to *op, moving both
 * past them.  Sixteen bytes are copied at a time and the plain part kept,
 * so a run between two escapes costs no memcpy call; the copy never writes
 * beyond the output the bytes so far consumed plus sixteen, which
 * fl_unescape_string's caller provides (room for the rest of the input).
 */
static pg_attribute_always_inline void
fl_copy_plain(const unsigned char **pp, const unsigned char *e, char **op)
{
	const unsigned char *p = *pp;
	char	   *o = *op;
	const unsigned char *run;

#ifdef DJ_SSE2
	while (e - p >= 16)
	{
		unsigned	m = dj_special16(p);

		memcpy(o, p, 16);
		if (m != 0)
		{
			int			n = pg_rightmost_one_pos32(m);

			*pp = p + n;
			*op = o + n;
			return;
		}
		p += 16;
		o += 16;
	}
#endif
	run = dj_plain_span(p, e);
	memcpy(o, p, run - p);
	*op = o + (run - p);
	*pp = run;
}

/*
 * fl_unescape_string: see fastline.h.  Plain bytes, UTF-8 and
 * two-character escapes here; a string with anything else (\u escapes,
 * control bytes) is judged and decoded by jstr from its start.
 */
bool
fl_unescape_string(const char **pp, const char *end, char *buf, int *outlen)
{
	const unsigned char *p = (const unsigned char *) *pp + 1;
	const unsigned char *e = (const unsigned char *) end;
	char	   *o = buf;
	const char *close;

	for (;;)
	{
		unsigned char c;

		fl_copy_plain(&p, e, &o);
		if (p >= e)
			return false;
		if (*p == '"')
		{
			*pp = (const char *) p + 1;
			*outlen = (int) (o - buf);
			return true;
		}
		if (*p >= 0x80)
		{
			/* a UTF-8 sequence, as djson validates it */
			int			n = dj_utf8_seq_len(p, (size_t) (e - p));

			if (n == 0)
				return false;
			memcpy(o, p, n);
			o += n;
			p += n;
			continue;
		}
		if (*p != '\\' || e - p < 2 || (c = dj_escape_byte[p[1]]) == 0)
			break;
		*o++ = (char) c;
		p += 2;
	}
	close = jstr_end(*pp + 1, end, JS_PLAIN, NULL);
	if (close == NULL || close - (*pp + 1) > PG_INT32_MAX)
		return false;
	*outlen = (int) jstr_decode(*pp + 1, close, JS_PLAIN, buf);
	*pp = close + 1;
	return true;
}

/*
 * skip_flat: an object of one level at *pp whose values are strings of the
 * subset (scalars false) or strings, numbers, booleans or nulls (scalars
 * true); false (*pp unchanged) when it is not one.
 */
static bool
skip_flat(const char **pp, const char *end, bool scalars)
{
	const char *p = *pp;
	bool		closed;
	bool		empty;

	if (!fl_obj_open(&p, end, &empty))
		return false;
	if (empty)
	{
		*pp = p;
		return true;
	}
	for (;;)
	{
		const char *s;
		int			len;

		/* plain strings (the usual tags) first, any string of the subset */
		p = fl_skip_ws(p, end);
		if (p >= end || *p != '"' ||
			(!fl_plain_string(&p, end, &s, &len) && !fl_skip_string(&p, end)) ||
			!fl_colon(&p, end))
			return false;
		if (scalars && *p != '"')
		{
			if (*p == '{' || *p == '[' || !fl_skip_value(&p, end, 3))
				return false;
		}
		else if (*p != '"' ||
				 (!fl_plain_string(&p, end, &s, &len) &&
				  !fl_skip_string(&p, end)))
			return false;
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
		{
			*pp = p;
			return true;
		}
	}
}

/*
 * fl_skip_flat_strings: see fastline.h.
 */
bool
fl_skip_flat_strings(const char **pp, const char *end)
{
	return skip_flat(pp, end, false);
}

/* ---------------------------------------------------------------------
 * The keys of add / remove lines for log replay
 *
 * What decode_file (src/actions.c) checks of an add or remove in
 * DELTA_DECODE_KEYS mode, and how fl_file_key stays inside it:
 *	path: required string, not empty (decoded as djson decodes it);
 *	partitionValues: required for add (not null), else optional; an object
 *		of strings, numbers, booleans or nulls;
 *	size: required for add, else optional; an integer >= 0;
 *	modificationTime: required for add, else optional; an integer;
 *	dataChange: required for add, else optional; a boolean;
 *	deletionTimestamp, extendedFileMetadata (remove only): optional
 *		integer, boolean;
 *	stats: optional string or object;
 *	deletionVector: optional object: storageType a one-byte string,
 *		pathOrInlineDv a string, offset an optional int32 >= 0,
 *		sizeInBytes an int32 >= 0, cardinality an int64 >= 0;
 *	baseRowId, defaultRowCommitVersion: optional integers.
 * A JSON null counts as absent (as 'field' there does).  Integers are
 * taken only as fl_plain_int tokens.  Any key read there that appears
 * twice is not provable (dj_get would take the last: not worth
 * reproducing); other keys are only validated.  The entry must hold no
 * other action (one member), since DeltaDecodeAction decodes every member.
 * ---------------------------------------------------------------------
 */
#define FK_PATH		0x001
#define FK_PV		0x002
#define FK_SIZE		0x004
#define FK_MTIME	0x008
#define FK_DC		0x010
#define FK_STATS	0x020
#define FK_DV		0x040
#define FK_BASE		0x080
#define FK_DRCV		0x100
#define FK_DELTS	0x200
#define FK_EFM		0x400

/* is the literal null at p */
static inline bool
at_null(const char *p, const char *end)
{
	return end - p >= 4 && memcmp(p, "null", 4) == 0;
}

/* a boolean literal at *pp: move past it; false for anything else */
static inline bool
skip_bool(const char **pp, const char *end)
{
	const char *p = *pp;

	if (end - p >= 4 && memcmp(p, "true", 4) == 0)
	{
		*pp = p + 4;
		return true;
	}
	if (end - p >= 5 && memcmp(p, "false", 5) == 0)
	{
		*pp = p + 5;
		return true;
	}
	return false;
}

/*
 * opt_int: null (*has false) or a plain integer within [lo, hi] (*has
 * true, value in *out) at *pp; false for anything else.
 */
static bool
opt_int(const char **pp, const char *end, int64 lo, int64 hi, bool *has,
		int64 *out)
{
	int64		v;

	if (at_null(*pp, end))
	{
		*pp += 4;
		*has = false;
		return true;
	}
	if (!fl_plain_int(pp, end, &v) || v < lo || v > hi)
		return false;
	*has = true;
	*out = v;
	return true;
}

/*
 * take_string: decode the string at *pp (two-character escapes only) to
 * *out, NUL-terminate it there and move *out past the NUL; *s gets it and
 * *len its length.  False: not provable.
 */
static bool
take_string(const char **pp, const char *end, char **out, const char **s,
			int *len)
{
	const char *plain;

	if (*pp >= end || **pp != '"')
		return false;
	if (fl_plain_string(pp, end, &plain, len))
		memcpy(*out, plain, *len);	/* the usual path: no escapes */
	else if (!fl_unescape_string(pp, end, *out, len))
		return false;
	*s = *out;
	(*out)[*len] = '\0';
	*out += *len + 1;
	return true;
}

#define DV_ST		0x01
#define DV_PATH		0x02
#define DV_OFFSET	0x04
#define DV_SIZE		0x08
#define DV_CARD		0x10

/*
 * fl_deletion_vector: see fastline.h (the rules of decode_dv, as above).
 */
bool
fl_deletion_vector(const char **pp, const char *end, FlDeletionVector *dv)
{
	const char *p = *pp;
	unsigned	seen = 0;
	bool		closed;
	bool		empty;

	memset(dv, 0, sizeof(*dv));
	if (!fl_obj_open(&p, end, &empty) || empty)
		return false;			/* required fields missing */
	for (;;)
	{
		const char *key;
		int			kl;
		const char *s;
		int			len;
		int64		v;
		bool		has;

		if (!fl_member_key(&p, end, &key, &kl))
			return false;
		if (FL_KEY("storageType"))
		{
			FL_ONCE(DV_ST);
			if (*p != '"' || !fl_plain_string(&p, end, &s, &len) || len != 1)
				return false;
			dv->storage_type = s[0];
			dv->at_storage_type = s;
		}
		else if (FL_KEY("pathOrInlineDv"))
		{
			const char *close;

			FL_ONCE(DV_PATH);
			if (*p != '"')
				return false;
			if (fl_plain_string(&p, end, &dv->path, &dv->path_len))
				dv->path_esc = false;
			else
			{
				close = jstr_end(p + 1, end, JS_PLAIN, NULL);
				if (close == NULL || close - p > PG_INT32_MAX)
					return false;
				dv->path = p + 1;
				dv->path_len = (int) (close - dv->path);
				dv->path_esc = true;
				p = close + 1;
			}
		}
		else if (FL_KEY("offset"))
		{
			FL_ONCE(DV_OFFSET);
			dv->at_offset = p;
			if (!opt_int(&p, end, 0, PG_INT32_MAX, &has, &v))
				return false;
			dv->has_offset = has;
			dv->offset = has ? (int32) v : 0;
		}
		else if (FL_KEY("sizeInBytes"))
		{
			FL_ONCE(DV_SIZE);
			dv->at_size = p;
			if (!opt_int(&p, end, 0, PG_INT32_MAX, &has, &v) || !has)
				return false;
			dv->size_in_bytes = (int32) v;
		}
		else if (FL_KEY("cardinality"))
		{
			FL_ONCE(DV_CARD);
			dv->at_cardinality = p;
			if (!opt_int(&p, end, 0, PG_INT64_MAX, &has, &v) || !has)
				return false;
			dv->cardinality = v;
		}
		else if (!fl_skip_value(&p, end, 3))
			return false;
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	if ((seen & (DV_ST | DV_PATH | DV_SIZE | DV_CARD)) !=
		(DV_ST | DV_PATH | DV_SIZE | DV_CARD))
		return false;
	*pp = p;
	return true;
}

/* the deletionVector object at *pp into k (its path decoded at *out) */
static bool
take_dv(const char **pp, const char *end, char **out, FlFileKey *k)
{
	FlDeletionVector dv;

	if (!fl_deletion_vector(pp, end, &dv))
		return false;
	if (dv.path_esc)
		dv.path_len = (int) jstr_decode(dv.path, dv.path + dv.path_len,
										JS_PLAIN, *out);
	else
		memcpy(*out, dv.path, dv.path_len);
	(*out)[dv.path_len] = '\0';
	k->dv_path_or_inline = *out;
	*out += dv.path_len + 1;
	k->dv_storage_type = dv.storage_type;
	k->dv_has_offset = dv.has_offset;
	k->dv_offset = dv.offset;
	k->has_dv = true;
	return true;
}

/*
 * file_key_action: fl_file_key from the value of the add or remove key at
 * p (k->remove says which) to the end of the line.
 */
static bool
file_key_action(const char *p, const char *end, char *buf, FlFileKey *k)
{
	char	   *out = buf;
	unsigned	seen = 0;
	bool		closed;
	bool		empty;
	bool		add = !k->remove;

	if (!fl_colon(&p, end) || !fl_obj_open(&p, end, &empty) || empty)
		return false;			/* no fields: let decode_file complain */
	for (;;)
	{
		const char *key;
		int			kl;
		int			slen;
		int64		v;
		bool		has;

		if (!fl_member_key(&p, end, &key, &kl))
			return false;
		if (FL_KEY("path"))
		{
			FL_ONCE(FK_PATH);
			if (!take_string(&p, end, &out, &k->path, &slen) || slen == 0)
				return false;
		}
		else if (FL_KEY("stats"))
		{
			FL_ONCE(FK_STATS);
			if (*p == '"')
			{
				if (!fl_skip_string(&p, end))
					return false;
			}
			else if (at_null(p, end))
				p += 4;
			else if (*p != '{' || !fl_skip_value(&p, end, 2))
				return false;
		}
		else if (FL_KEY("partitionValues"))
		{
			FL_ONCE(FK_PV);
			if (at_null(p, end) && !add)
				p += 4;
			else if (!skip_flat(&p, end, true))
				return false;
		}
		else if (FL_KEY("size"))
		{
			FL_ONCE(FK_SIZE);
			if (!opt_int(&p, end, 0, PG_INT64_MAX, &k->has_size, &k->size) ||
				(add && !k->has_size))
				return false;
		}
		else if (FL_KEY("modificationTime"))
		{
			FL_ONCE(FK_MTIME);
			if (!opt_int(&p, end, PG_INT64_MIN, PG_INT64_MAX, &has, &v) ||
				(add && !has))
				return false;
		}
		else if (FL_KEY("dataChange"))
		{
			FL_ONCE(FK_DC);
			if (at_null(p, end) && !add)
				p += 4;
			else if (!skip_bool(&p, end))
				return false;
		}
		else if (FL_KEY("deletionVector"))
		{
			FL_ONCE(FK_DV);
			if (at_null(p, end))
				p += 4;
			else if (!take_dv(&p, end, &out, k))
				return false;
		}
		else if (FL_KEY("baseRowId") || FL_KEY("defaultRowCommitVersion"))
		{
			FL_ONCE(FL_KEY("baseRowId") ? FK_BASE : FK_DRCV);
			if (!opt_int(&p, end, PG_INT64_MIN, PG_INT64_MAX, &has, &v))
				return false;
		}
		else if (!add && FL_KEY("deletionTimestamp"))
		{
			FL_ONCE(FK_DELTS);
			if (!opt_int(&p, end, PG_INT64_MIN, PG_INT64_MAX, &has, &v))
				return false;
		}
		else if (!add && FL_KEY("extendedFileMetadata"))
		{
			FL_ONCE(FK_EFM);
			if (at_null(p, end))
				p += 4;
			else if (!skip_bool(&p, end))
				return false;
		}
		else if (FL_KEY("tags"))
		{
			/* not read in this mode: validated only, usually flat strings */
			if (!fl_skip_flat_strings(&p, end) && !fl_skip_value(&p, end, 2))
				return false;
		}
		else if (!fl_skip_value(&p, end, 2))
			return false;		/* a key decode_file does not read */
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	if (!fl_line_closes(p, end) || k->path == NULL)
		return false;			/* another member, or no path */
	if (add && (seen & (FK_PV | FK_SIZE | FK_MTIME | FK_DC)) !=
		(FK_PV | FK_SIZE | FK_MTIME | FK_DC))
		return false;			/* a required field missing */
	return true;
}

/*
 * fl_file_key: see fastline.h and the rules above.  Counts a hit or a miss
 * of DC_FP_FILE_KEY for every line that starts as an add or remove.
 */
bool
fl_file_key(const char *line, Size len, char *buf, FlFileKey *k)
{
	const char *p = line;
	const char *end = line + len;
	bool		ok;

	fl_init();
	memset(k, 0, sizeof(*k));
	p = fl_skip_ws(p, end);
	if (p >= end || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	if (end - p >= 5 && memcmp(p, "\"add\"", 5) == 0)
		p += 5;
	else if (end - p >= 8 && memcmp(p, "\"remove\"", 8) == 0)
	{
		k->remove = true;
		p += 8;
	}
	else
		return false;
	ok = file_key_action(p, end, buf, k);
	dc_fastpath_note(DC_FP_FILE_KEY, ok);
	return ok;
}
