/*-------------------------------------------------------------------------
 *
 * jstr.c
 *	  JSON string bodies, plain or inside another JSON string (see jstr.h).
 *
 * Both levels are read as a stream of characters (Unicode code points).
 * The outer level, the bytes as they are: a plain byte, a UTF-8 sequence
 * (dj_utf8_seq_len's), a two-character escape or a \u escape (a high
 * surrogate must be followed by a \u escape of a low one, \u0000 is
 * refused), as djson's parse_string reads them.  In JS_ESCAPED mode the
 * inner level reads the outer characters the same way: a '"' ends the
 * inner string, a backslash starts an escape made of the next characters,
 * a character below U+0020 is refused.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/jstr.c
 *
 *-------------------------------------------------------------------------
 */
#include "jstr.h"

#include <stdint.h>

#include "djson_scan.h"

/* what the next character of a string body is */
#define JSTR_CHAR 0				/* a character (*cp) */
#define JSTR_QUOTE 1			/* the unescaped '"' closing the string */
#define JSTR_BAD -1				/* invalid, or the input ends */

/* the four hex digits at p (p + 4 <= end) as a number, or -1 */
static inline int32_t
hex4(const unsigned char *p)
{
	int32_t		v = 0;
	int			i;

	for (i = 0; i < 4; i++)
	{
		int			h = dj_hex_value(p[i]);

		if (h < 0)
			return -1;
		v = (v << 4) | h;
	}
	return v;
}

/*
 * outer_char: the next character of a string body as written, at *pp
 * (before e): JSTR_CHAR with *cp (and *pp past it), JSTR_QUOTE at the
 * closing quote (*pp left there), JSTR_BAD.
 */
static inline int
outer_char(const unsigned char **pp, const unsigned char *e, int32_t *cp)
{
	const unsigned char *p = *pp;
	unsigned char c;

	if (p >= e)
		return JSTR_BAD;
	c = *p;
	if (c == '"')
		return JSTR_QUOTE;
	if (c < 0x20)
		return JSTR_BAD;
	if (c < 0x80 && c != '\\')
	{
		*cp = c;
		*pp = p + 1;
		return JSTR_CHAR;
	}
	if (c >= 0x80)
	{
		int			l = dj_utf8_seq_len(p, (size_t) (e - p));
		int32_t		v;
		int			i;

		if (l == 0)
			return JSTR_BAD;
		v = c & (0x7F >> l);
		for (i = 1; i < l; i++)
			v = (v << 6) | (p[i] & 0x3F);
		*cp = v;
		*pp = p + l;
		return JSTR_CHAR;
	}
	/* an escape */
	if (e - p < 2)
		return JSTR_BAD;
	c = p[1];
	if (c != 'u')
	{
		if (dj_escape_byte[c] == 0)
			return JSTR_BAD;
		*cp = dj_escape_byte[c];
		*pp = p + 2;
		return JSTR_CHAR;
	}
	{
		int32_t		v;

		if (e - p < 6 || (v = hex4(p + 2)) < 0)
			return JSTR_BAD;
		p += 6;
		if (v >= 0xD800 && v <= 0xDBFF)
		{
			int32_t		lo;

			if (e - p < 6 || p[0] != '\\' || p[1] != 'u' ||
				(lo = hex4(p + 2)) < 0xDC00 || lo > 0xDFFF)
				return JSTR_BAD;
			v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
			p += 6;
		}
		else if ((v >= 0xDC00 && v <= 0xDFFF) || v == 0)
			return JSTR_BAD;
		*cp = v;
		*pp = p;
		return JSTR_CHAR;
	}
}

/* the outer character at *pp as an inner one: '"' only as backslash + '"' */
static inline int
outer_for_inner(const unsigned char **pp, const unsigned char *e, int32_t *cp,
				bool *quote_escape)
{
	const unsigned char *p = *pp;
	int			r = outer_char(pp, e, cp);

	*quote_escape = r == JSTR_CHAR && *cp == '"' && *pp - p == 2;
	return r;
}

/* the hex value of an inner character, or -1 */
static inline int
cp_hex(int32_t cp)
{
	return cp < 0x80 ? dj_hex_value((unsigned char) cp) : -1;
}

/*
 * inner_hex4: the four inner characters from *pp as hex digits: their
 * value, or -1 (*pp past them)
 */
static inline int32_t
inner_hex4(const unsigned char **pp, const unsigned char *e)
{
	int32_t		v = 0;
	int			i;

	for (i = 0; i < 4; i++)
	{
		int32_t		cp;
		int			h;

		if (outer_char(pp, e, &cp) != JSTR_CHAR || (h = cp_hex(cp)) < 0)
			return -1;
		v = (v << 4) | h;
	}
	return v;
}

/*
 * inner_char: the next character of an inner string (JS_ESCAPED) at *pp:
 * JSTR_CHAR with *cp (*pp past it), JSTR_QUOTE at the backslash + '"'
 * closing it (*pp there), JSTR_BAD.
 */
static int
inner_char(const unsigned char **pp, const unsigned char *e, int32_t *cp)
{
	const unsigned char *start = *pp;
	bool		qe;
	int			r = outer_for_inner(pp, e, cp, &qe);
	int32_t		c;

	if (r != JSTR_CHAR)
		return JSTR_BAD;		/* the outer string ends inside the inner */
	if (*cp == '"')
	{
		if (!qe)
			return JSTR_BAD;	/* closed by \u0022: not provable here */
		*pp = start;
		return JSTR_QUOTE;
	}
	if (*cp < 0x20)
		return JSTR_BAD;
	if (*cp != '\\')
		return JSTR_CHAR;
	/* an inner escape: the next outer characters */
	if (outer_char(pp, e, &c) != JSTR_CHAR || c >= 0x80)
		return JSTR_BAD;
	if (c != 'u')
	{
		if (dj_escape_byte[c] == 0)
			return JSTR_BAD;
		*cp = dj_escape_byte[c];
		return JSTR_CHAR;
	}
	c = inner_hex4(pp, e);
	if (c < 0)
		return JSTR_BAD;
	if (c >= 0xD800 && c <= 0xDBFF)
	{
		int32_t		b;
		int32_t		u;
		int32_t		lo;

		if (outer_char(pp, e, &b) != JSTR_CHAR || b != '\\' ||
			outer_char(pp, e, &u) != JSTR_CHAR || u != 'u' ||
			(lo = inner_hex4(pp, e)) < 0xDC00 || lo > 0xDFFF)
			return JSTR_BAD;
		c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
	}
	else if ((c >= 0xDC00 && c <= 0xDFFF) || c == 0)
		return JSTR_BAD;
	*cp = c;
	return JSTR_CHAR;
}

/* See jstr.h. */
const char *
jstr_end(const char *p, const char *end, JsQuoting q, bool *simple)
{
	const unsigned char *s = (const unsigned char *) p;
	const unsigned char *e = (const unsigned char *) end;
	const unsigned char *run = dj_plain_span(s, e);
	int32_t		cp;
	int			r;

	if (simple != NULL)
		*simple = false;
	/* the usual case: plain bytes up to the closing quote */
	if (q == JS_PLAIN ? (run < e && *run == '"') :
		(e - run >= 2 && run[0] == '\\' && run[1] == '"'))
	{
		if (simple != NULL)
			*simple = true;
		return (const char *) run;
	}
	s = run;
	for (;;)
	{
		/* UTF-8 and two-character escapes here, the rest character-wise */
		if (s < e && *s >= 0x80)
		{
			int			l = dj_utf8_seq_len(s, (size_t) (e - s));

			if (l == 0)
				return NULL;
			s += l;
		}
		else if (q == JS_PLAIN && e - s >= 2 && s[0] == '\\' && s[1] != 'u' &&
				 dj_escape_byte[s[1]] != 0)
			s += 2;
		else if (q == JS_ESCAPED && e - s >= 2 && s[0] == '\\' && s[1] == '"')
			return (const char *) s;	/* the inner string's closing quote */
		else
		{
			r = q == JS_PLAIN ? outer_char(&s, e, &cp) : inner_char(&s, e, &cp);
			if (r == JSTR_QUOTE)
				return (const char *) s;
			if (r != JSTR_CHAR)
				return NULL;
		}
		s = dj_plain_span(s, e);
	}
}

/* cp as UTF-8 at o; returns the bytes written */
static inline size_t
put_utf8(char *o, int32_t cp)
{
	unsigned char *d = (unsigned char *) o;

	if (cp < 0x80)
	{
		d[0] = (unsigned char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		d[0] = (unsigned char) (0xC0 | (cp >> 6));
		d[1] = (unsigned char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		d[0] = (unsigned char) (0xE0 | (cp >> 12));
		d[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
		d[2] = (unsigned char) (0x80 | (cp & 0x3F));
		return 3;
	}
	d[0] = (unsigned char) (0xF0 | (cp >> 18));
	d[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3F));
	d[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
	d[3] = (unsigned char) (0x80 | (cp & 0x3F));
	return 4;
}

/*
 * jstr_copy_plain: copy the plain bytes from *sp on (before e) to *op and
 * move both past them.  With SSE2, sixteen bytes are stored at a time
 * while they are looked at, plain or not: a store at o of the sixteen
 * bytes at s (s + 16 <= e) ends before out + (e - p) (o - out <= s - p: a
 * body never decodes to more bytes than it has), inside the room
 * jstr_decode's caller gives; the bytes past the plain ones are
 * overwritten by what follows or lie beyond the answer.
 */
static inline void
jstr_copy_plain(const unsigned char **sp, const unsigned char *e, char **op)
{
	const unsigned char *s = *sp;
	char	   *o = *op;

#ifdef DJ_SSE2
	while (e - s >= 16)
	{
		unsigned	m = dj_special16(s);

		memcpy(o, s, 16);
		if (m != 0)
		{
			unsigned	n = (unsigned) __builtin_ctz(m);

			*sp = s + n;
			*op = o + n;
			return;
		}
		s += 16;
		o += 16;
	}
#endif
	while (s < e && dj_plain[*s])
		*o++ = (char) *s++;
	*sp = s;
	*op = o;
}

/* See jstr.h. */
size_t
jstr_decode(const char *p, const char *close, JsQuoting q, char *out)
{
	const unsigned char *s = (const unsigned char *) p;
	const unsigned char *e = (const unsigned char *) close;
	char	   *o = out;

	while (s < e)
	{
		int32_t		cp;
		int			r;

		jstr_copy_plain(&s, e, &o);
		if (s >= e)
			break;
		if (*s >= 0x80)
		{
			/* (valid: accepted) */
			int			l = dj_utf8_seq_len(s, (size_t) (e - s));
			int			i;

			for (i = 0; i < l; i++)
				o[i] = (char) s[i];
			o += l;
			s += l;
			continue;
		}
		if (q == JS_PLAIN && s[0] == '\\' && e - s >= 2 && s[1] != 'u')
		{
			*o++ = (char) dj_escape_byte[s[1]];
			s += 2;
			continue;
		}
		/* (accepted: every character decodes, and ends before close) */
		r = q == JS_PLAIN ? outer_char(&s, e, &cp) : inner_char(&s, e, &cp);
		if (r != JSTR_CHAR)
			break;				/* cannot happen on an accepted body */
		o += put_utf8(o, cp);
	}
	return (size_t) (o - out);
}
