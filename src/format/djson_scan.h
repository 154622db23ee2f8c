/*-------------------------------------------------------------------------
 *
 * djson_scan.h
 *	  Byte tests and small token scanners shared by the JSON readers: djson.c,
 *	  the fast parser and string escaping of json_util.c, the statistics
 *	  scanner of stats.c, jshape.c, fastline.c and checkpoint.c.  Pure C99
 *	  (SSE2 intrinsics where the compiler offers them), header-only.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/djson_scan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DJSON_SCAN_H
#define DELTACC_DJSON_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && defined(__GNUC__)
#define DJ_SSE2 1
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define DJ_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DJ_ALWAYS_INLINE inline
#endif

/*
 * Word-at-a-time tests on 8 bytes (exact for "is there any such byte").
 */
#define DJ_ONES  UINT64_C(0x0101010101010101)
#define DJ_HIGHS UINT64_C(0x8080808080808080)

static inline uint64_t
dj_load8(const unsigned char *s)
{
	uint64_t	x;

	memcpy(&x, s, 8);
	return x;
}

static inline uint32_t
dj_load4(const unsigned char *s)
{
	uint32_t	x;

	memcpy(&x, s, 4);
	return x;
}

/* Nonzero when some byte of x equals c. */
static inline uint64_t
dj_has_byte(uint64_t x, unsigned char c)
{
	uint64_t	y = x ^ (DJ_ONES * c);

	return (y - DJ_ONES) & ~y & DJ_HIGHS;
}

/*
 * Nonzero when some byte of x is one a JSON string must escape: a control
 * byte (< 0x20), '"' or '\\' (bytes >= 0x80 are not flagged).
 */
static inline uint64_t
dj_escape_mask(uint64_t x)
{
	uint64_t	less = (x - DJ_ONES * 0x20) & ~x;	/* some byte < 0x20 */

	return (less | dj_has_byte(x, '"') | dj_has_byte(x, '\\')) & DJ_HIGHS;
}

/*
 * Nonzero when some byte of x is not printable ASCII other than '"' and
 * '\\' (not a byte a string can hold as it is): dj_escape_mask's bytes
 * and those from 0x80 on.
 */
static inline uint64_t
dj_special_mask(uint64_t x)
{
	return dj_escape_mask(x) | (x & DJ_HIGHS);
}

/* The first byte from p on (before end) that is not JSON white space. */
static inline const unsigned char *
dj_skip_ws(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/*
 * At a container's opening byte *p: step over it and the white space after
 * it; when the closing byte 'close' comes next, step over that too and
 * return true (the container is empty).
 */
static inline bool
dj_open_container(const unsigned char **p, const unsigned char *end,
				  unsigned char close)
{
	const unsigned char *q = dj_skip_ws(*p + 1, end);
	bool		empty = q < end && *q == close;

	*p = empty ? q + 1 : q;
	return empty;
}

/*
 * After an array element or object member: step over the white space at
 * *p and the ',' or closing byte 'close' that must follow, and return that
 * byte; 0 (*p left after the white space) for anything else or the end of
 * the input.
 */
static inline int
dj_after_item(const unsigned char **p, const unsigned char *end,
			  unsigned char close)
{
	const unsigned char *q = dj_skip_ws(*p, end);

	*p = q;
	if (q >= end || (*q != ',' && *q != close))
		return 0;
	*p = q + 1;
	return *q;
}

/* The value of the hexadecimal digit c, or -1 when c is none. */
static inline int
dj_hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * dj_plain[c]: byte c stands for itself in a JSON string and needs no
 * checking beyond this test: printable ASCII other than '"' and backslash
 * (0x20 .. 0x7e less 0x22 and 0x5c).  The fast scanners accept a string
 * whose bytes are all plain without decoding it.
 */
static const bool dj_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x10 */
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x20: '"' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x30 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x40 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,	/* 0x50: '\\' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x60 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,	/* 0x70: DEL */
	/* 0x80 .. 0xff: not plain */
};

#ifdef DJ_SSE2
/*
 * dj_special16: bit i set when byte p[i] (i < 16) is not plain (dj_plain):
 * '"', backslash, a byte below 0x20 or from 0x7f on.  Reads p[0..15].
 */
static inline unsigned
dj_special16(const unsigned char *p)
{
	__m128i		x = _mm_loadu_si128((const __m128i *) p);

	/* bytes >= 0x80 are negative, so "signed < 0x20" catches them too */
	return (unsigned) _mm_movemask_epi8(
		_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
								  _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
					 _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
								  _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)))));
}
#endif

/*
 * The first byte from p on (before e) that is not plain, or e: a table
 * lookup four bytes at a time (dj_plain_run4, for the short strings of
 * statistics and keys), or first sixteen at a time with SSE2
 * (dj_plain_span, for paths and other long values).
 */
static DJ_ALWAYS_INLINE const unsigned char *
dj_plain_run4(const unsigned char *p, const unsigned char *e)
{
	while (e - p >= 4 && dj_plain[p[0]] && dj_plain[p[1]] &&
		   dj_plain[p[2]] && dj_plain[p[3]])
		p += 4;
	while (p < e && dj_plain[*p])
		p++;
	return p;
}

static DJ_ALWAYS_INLINE const unsigned char *
dj_plain_span(const unsigned char *p, const unsigned char *e)
{
#ifdef DJ_SSE2
	while (e - p >= 16)
	{
		unsigned	m = dj_special16(p);

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	return dj_plain_run4(p, e);
}

/* Longest number token the parsers take (a longer one is refused). */
#define DJ_MAX_NUMBER_LEN 4096

/*
 * Index (0..7) of the first byte in memory order flagged by a nonzero mask
 * of the functions above.  Their lowest flagged byte is always a true match
 * (a borrow only spreads towards higher bytes), so on a little-endian
 * machine this is exact; elsewhere it returns 0 and the caller looks at
 * the bytes one by one.
 */
static inline int
dj_first_flagged(uint64_t mask)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_ctzll(mask) >> 3;
#else
	(void) mask;
	return 0;
#endif
}

/*
 * Length of a valid UTF-8 sequence starting at s (at most avail bytes), or 0
 * when it is not valid (overlong forms, surrogates and values above U+10FFFF
 * are invalid).
 */
static inline int
dj_utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return (avail >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF)
	{
		if (avail < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if (c == 0xE0 && s[1] < 0xA0)
			return 0;			/* overlong */
		if (c == 0xED && s[1] >= 0xA0)
			return 0;			/* surrogate */
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4)
	{
		if (avail < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
			(s[3] & 0xC0) != 0x80)
			return 0;
		if (c == 0xF0 && s[1] < 0x90)
			return 0;			/* overlong */
		if (c == 0xF4 && s[1] >= 0x90)
			return 0;			/* above U+10FFFF */
		return 4;
	}
	return 0;
}

/*
 * Nonzero when some byte of x is not an ASCII digit; the lowest flagged
 * byte (dj_first_flagged) is the first such byte.  A byte is a digit when
 * its high nibble is 3 both as it is and with 6 added (0x30 .. 0x3f and
 * 0x2a .. 0x39); a carry out of a byte (one of 0xfa .. 0xff, itself
 * flagged) only disturbs the bytes above it.
 */
static inline uint64_t
dj_nondigit_mask(uint64_t x)
{
	const uint64_t nib = DJ_ONES * 0xf0;
	const uint64_t three = DJ_ONES * 0x30;

	return ((x & nib) ^ three) | (((x + DJ_ONES * 0x06) & nib) ^ three);
}

/* The first byte from p on (before end) that is not an ASCII digit. */
static inline const char *
dj_digit_run(const char *p, const char *end)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8)
	{
		uint64_t	m = dj_nondigit_mask(dj_load8((const unsigned char *) p));

		if (m != 0)
			return p + dj_first_flagged(m);
		p += 8;
	}
#endif
	while (p < end && (unsigned char) (*p - '0') <= 9)
		p++;
	return p;
}

/*
 * dj_digits8: the number that eight digit values (bytes 0 .. 9, the first,
 * most significant, digit in the lowest byte: an 8-byte load of the digits
 * minus '0' on a little-endian machine) stand for.
 */
static inline uint64_t
dj_digits8(uint64_t x)
{
	x = x * 10 + (x >> 8);
	return ((x & UINT64_C(0x000000FF000000FF)) * UINT64_C(0x000F424000000064) +
			((x >> 16) & UINT64_C(0x000000FF000000FF)) *
			UINT64_C(0x0000271000000001)) >> 32;
}

/* dj_digits8 of the first k (1 .. 8) digit values of x */
static inline uint64_t
dj_digits_prefix(uint64_t x, unsigned k)
{
	return dj_digits8(k == 8 ? x : x << (8 * (8 - k)));
}

/*
 * dj_digits_known: the value of the n ASCII digits at p[0 .. n), which
 * the caller knows are digits (1 <= n <= 18, so it fits an int64).  Reads
 * only p[0 .. n), a word at a time (little-endian machines; elsewhere a
 * digit at a time).
 */
static DJ_ALWAYS_INLINE uint64_t
dj_digits_known(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *) p;
	uint64_t	acc = 0;
	size_t		i;

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n >= 8)
	{
		const uint64_t zeros = DJ_ONES * '0';

		acc = dj_digits8(dj_load8(s + n - 8) - zeros);
		if (n > 16)
			acc += dj_digits8(dj_load8(s + n - 16) - zeros) *
				UINT64_C(100000000) +
				dj_digits_prefix(dj_load8(s) - zeros, (unsigned) (n - 16)) *
				UINT64_C(10000000000000000);
		else if (n > 8)
			acc += dj_digits_prefix(dj_load8(s) - zeros, (unsigned) (n - 8)) *
				UINT64_C(100000000);
		return acc;
	}
	if (n >= 4)
	{
		/* the first and the last four digits (they overlap below 8) */
		acc = dj_digits_prefix((uint64_t) (dj_load4(s + n - 4) -
										   UINT32_C(0x30303030)), 4);
		if (n > 4)
			acc += dj_digits_prefix((uint64_t) (dj_load4(s) -
												UINT32_C(0x30303030)),
									(unsigned) (n - 4)) * 10000;
		return acc;
	}
#endif
	for (i = 0; i < n; i++)
		acc = acc * 10 + (unsigned) (s[i] - '0');
	return acc;
}

/*
 * dj_number_token_int: p[0 .. n) is the part after the sign of a JSON
 * number token (dj_number_end's: digits, and maybe '.', 'e', 'E', '+',
 * '-'); true with its value in *v when it is 1 to 18 digits, a plain
 * integer; false for a fraction, an exponent or more digits.  Of those
 * bytes only the digits have the high nibble 3, so one test on a word
 * tells them apart.  Reads only p[0 .. n).
 */
static DJ_ALWAYS_INLINE bool
dj_number_token_int(const char *p, size_t n, uint64_t *v)
{
	const unsigned char *s = (const unsigned char *) p;
	size_t		i;

	if (n == 0 || n > 18)
		return false;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n >= 8)
	{
		const uint64_t nib = DJ_ONES * 0xf0;
		const uint64_t three = DJ_ONES * 0x30;
		uint64_t	bad = ((dj_load8(s) & nib) ^ three) |
			((dj_load8(s + n - 8) & nib) ^ three);

		if (n > 16)
			bad |= (dj_load8(s + n - 16) & nib) ^ three;
		if (bad != 0)
			return false;
		*v = dj_digits_known(p, n);
		return true;
	}
	if (n >= 4)
	{
		if ((((dj_load4(s) & UINT32_C(0xf0f0f0f0)) ^ UINT32_C(0x30303030)) |
			 ((dj_load4(s + n - 4) & UINT32_C(0xf0f0f0f0)) ^
			  UINT32_C(0x30303030))) != 0)
			return false;
		*v = dj_digits_known(p, n);
		return true;
	}
#endif
	for (i = 0; i < n; i++)
		if ((unsigned) (s[i] - '0') > 9)
			return false;
	*v = dj_digits_known(p, n);
	return true;
}

/*
 * The end of the JSON number token at p (JSON's grammar, greedy: an
 * optional '-', then 0 or a digit run without a leading zero, an optional
 * fraction, an optional exponent), or NULL when no number starts at p.
 * Reads nothing at or beyond end.
 */
static inline const char *
dj_number_end(const char *p, const char *end)
{
	const char *q = p;

	if (q < end && *q == '-')
		q++;
	if (q >= end)
		return NULL;
	if (*q == '0')
		q++;
	else if (*q >= '1' && *q <= '9')
		q = dj_digit_run(q + 1, end);
	else
		return NULL;
	if (q < end && *q == '.')
	{
		if (++q >= end || (unsigned char) (*q - '0') > 9)
			return NULL;
		q = dj_digit_run(q + 1, end);
	}
	if (q < end && (*q == 'e' || *q == 'E'))
	{
		if (++q < end && (*q == '+' || *q == '-'))
			q++;
		if (q >= end || (unsigned char) (*q - '0') > 9)
			return NULL;
		q = dj_digit_run(q + 1, end);
	}
	return q;
}

/*
 * The byte a two-character escape backslash-c stands for, or 0 when c does
 * not make one (\u escapes are not two-character escapes).
 */
static const unsigned char dj_escape_byte[256] = {
	['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f',
	['n'] = '\n', ['r'] = '\r', ['t'] = '\t'
};

#endif							/* DELTACC_DJSON_SCAN_H */
