/*-------------------------------------------------------------------------
 *
 * djson.c
 *	  An exact, bounded JSON parser (see djson.h for the contract).
 *
 * Recursive descent over a byte buffer.  Arrays and objects are first
 * collected on a small growable scratch stack per nesting level and then
 * copied into an exactly-sized block, so the tree costs one allocation per
 * container plus one per string.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/djson.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "djson.h"
#include "djson_scan.h"

typedef struct DjParser
{
	const unsigned char *p;
	const unsigned char *start;
	const unsigned char *end;
	const FmtAllocator *alloc;
	int			max_depth;
	DjError    *err;
} DjParser;

static bool parse_value(DjParser *ps, DjValue *out, int depth);

static bool
fail(DjParser *ps, const char *msg)
{
	ps->err->offset = (size_t) (ps->p - ps->start);
	snprintf(ps->err->message, sizeof(ps->err->message), "%s", msg);
	return false;
}

static void
skip_ws(DjParser *ps)
{
	ps->p = dj_skip_ws(ps->p, ps->end);
}

static bool
read_hex4(DjParser *ps, unsigned *cp)
{
	unsigned	v = 0;
	int			i;

	if (ps->end - ps->p < 4)
		return fail(ps, "truncated \\u escape");
	for (i = 0; i < 4; i++)
	{
		int			h = dj_hex_value(ps->p[i]);

		if (h < 0)
			return fail(ps, "invalid \\u escape");
		v = (v << 4) | (unsigned) h;
	}
	ps->p += 4;
	*cp = v;
	return true;
}


static size_t
put_utf8(unsigned char *dst, unsigned cp)
{
	if (cp < 0x80)
	{
		dst[0] = (unsigned char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		dst[0] = (unsigned char) (0xC0 | (cp >> 6));
		dst[1] = (unsigned char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		dst[0] = (unsigned char) (0xE0 | (cp >> 12));
		dst[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
		dst[2] = (unsigned char) (0x80 | (cp & 0x3F));
		return 3;
	}
	dst[0] = (unsigned char) (0xF0 | (cp >> 18));
	dst[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3F));
	dst[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
	dst[3] = (unsigned char) (0x80 | (cp & 0x3F));
	return 4;
}

/*
 * Parse a string starting at the opening quote.  The decoded form is never
 * longer than the source, so one allocation of the source length suffices.
 * Runs of plain bytes are scanned and copied eight at a time.  (Writing all
 * eight bytes of a block of which only k count is safe: n never exceeds
 * the source bytes consumed, and the block lies before the closing quote.)
 */
static bool
parse_string(DjParser *ps, const char **str, uint32_t *len)
{
	const unsigned char *q;
	unsigned char *buf;
	size_t		n = 0;
	bool		has_escape = false;

	ps->p++;					/* opening quote */
	/* find the closing quote, validating as we go */
	q = ps->p;
	while (q < ps->end)
	{
		if (ps->end - q >= 8)
		{
			uint64_t	m = dj_special_mask(dj_load8(q));

			if (m == 0)
			{
				q += 8;
				continue;
			}
			q += dj_first_flagged(m);
		}
		if (*q == '"')
			break;
		if (*q == '\\')
		{
			has_escape = true;
			if (ps->end - q < 2)
				break;
			q += 2;
			continue;
		}
		if (*q < 0x20)
		{
			ps->p = q;
			return fail(ps, "unescaped control character in string");
		}
		if (*q < 0x80)
			q++;
		else
		{
			int			l = dj_utf8_seq_len(q, (size_t) (ps->end - q));

			if (l == 0)
			{
				ps->p = q;
				return fail(ps, "invalid UTF-8 in string");
			}
			q += l;
		}
	}
	if (q >= ps->end || *q != '"')
		return fail(ps, "unterminated string");
	if ((size_t) (q - ps->p) > UINT32_MAX - 1)
		return fail(ps, "string too long");

	buf = fmt_alloc(ps->alloc, (size_t) (q - ps->p) + 1);
	if (buf == NULL)
		return fail(ps, "out of memory");

	if (!has_escape)
	{
		n = (size_t) (q - ps->p);
		memcpy(buf, ps->p, n);
		ps->p = q + 1;
	}
	else
	{
		while (ps->p < q)
		{
			unsigned char c;

			/*
			 * Eight bytes without a backslash are copied as they are (n is
			 * at most the bytes consumed, so buf has room for them).
			 */
			if (q - ps->p >= 8)
			{
				uint64_t	x = dj_load8(ps->p);
				uint64_t	m = dj_has_byte(x, '\\');
				int			k;

				if (m == 0)
				{
					memcpy(buf + n, &x, 8);
					n += 8;
					ps->p += 8;
					continue;
				}
				k = dj_first_flagged(m);
				memcpy(buf + n, &x, 8);	/* only k bytes count */
				n += k;
				ps->p += k;
			}
			c = *ps->p;
			if (c != '\\')
			{
				buf[n++] = c;
				ps->p++;
				continue;
			}
			ps->p++;
			if (ps->p >= q)
				return fail(ps, "truncated escape");
			c = *ps->p++;
			if (dj_escape_byte[c] != 0)
			{
				/* a two-character escape */
				buf[n++] = dj_escape_byte[c];
				continue;
			}
			switch (c)
			{
				case 'u':
					{
						unsigned	cp;

						if (!read_hex4(ps, &cp))
							return false;
						if (cp >= 0xD800 && cp <= 0xDBFF)
						{
							unsigned	lo;

							if (q - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u')
								return fail(ps, "unpaired surrogate in \\u escape");
							ps->p += 2;
							if (!read_hex4(ps, &lo))
								return false;
							if (lo < 0xDC00 || lo > 0xDFFF)
								return fail(ps, "unpaired surrogate in \\u escape");
							cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
						}
						else if (cp >= 0xDC00 && cp <= 0xDFFF)
							return fail(ps, "unpaired surrogate in \\u escape");
						if (cp == 0)
							return fail(ps, "\\u0000 cannot be represented");
						/* an escape is at least 6 source bytes, so it fits */
						n += put_utf8(buf + n, cp);
						break;
					}
				default:
					return fail(ps, "invalid escape in string");
			}
		}
		ps->p = q + 1;
	}
	buf[n] = '\0';
	*str = (const char *) buf;
	*len = (uint32_t) n;
	return true;
}

/* The first byte from q on that is not a digit. */
static inline const unsigned char *
digits_end(const DjParser *ps, const unsigned char *q)
{
	return (const unsigned char *) dj_digit_run((const char *) q,
												(const char *) ps->end);
}

/*
 * The digit run of a fraction or exponent at q: *qp is set past it; false
 * ("invalid number" at q) when no digit is there.
 */
static bool
digits_after(DjParser *ps, const unsigned char **qp, const unsigned char *q)
{
	if (q >= ps->end || *q < '0' || *q > '9')
	{
		ps->p = q;
		return fail(ps, "invalid number");
	}
	*qp = digits_end(ps, q + 1);
	return true;
}

static bool
parse_number(DjParser *ps, DjValue *out)
{
	const unsigned char *s = ps->p;
	const unsigned char *q = s;
	char	   *text;

	if (q < ps->end && *q == '-')
		q++;
	if (q >= ps->end)
		return fail(ps, "truncated number");
	if (*q == '0')
		q++;
	else if (*q >= '1' && *q <= '9')
		q = digits_end(ps, q + 1);
	else
		return fail(ps, "invalid number");
	if (q < ps->end && *q == '.')
	{
		if (!digits_after(ps, &q, q + 1))
			return false;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E'))
	{
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (!digits_after(ps, &q, q))
			return false;
	}
	if ((size_t) (q - s) > DJ_MAX_NUMBER_LEN)
		return fail(ps, "number too long");
	text = fmt_alloc(ps->alloc, (size_t) (q - s) + 1);
	if (text == NULL)
		return fail(ps, "out of memory");
	memcpy(text, s, (size_t) (q - s));
	text[q - s] = '\0';
	out->type = DJ_NUMBER;
	out->len = (uint32_t) (q - s);
	out->u.num = text;
	ps->p = q;
	return true;
}

static bool
parse_literal(DjParser *ps, const char *word, DjType type, DjValue *out)
{
	size_t		l = strlen(word);

	if ((size_t) (ps->end - ps->p) < l || memcmp(ps->p, word, l) != 0)
		return fail(ps, "invalid literal");
	ps->p += l;
	out->type = type;
	out->len = 0;
	return true;
}

/*
 * Growable scratch area for the elements of one container.  It is taken
 * from the allocator too (doubling), so abandoned copies are reclaimed with
 * everything else; the final exactly-sized array is copied out.
 */
typedef struct Scratch
{
	void	   *data;
	size_t		n;
	size_t		cap;
	size_t		elem;
} Scratch;

static bool
scratch_push(DjParser *ps, Scratch *s, const void *item)
{
	if (s->n == s->cap)
	{
		size_t		newcap = s->cap ? s->cap * 2 : 8;
		void	   *nd;

		if (newcap > (size_t) UINT32_MAX || newcap > SIZE_MAX / s->elem)
			return fail(ps, "too many elements");
		nd = fmt_alloc(ps->alloc, newcap * s->elem);
		if (nd == NULL)
			return fail(ps, "out of memory");
		if (s->n)
			memcpy(nd, s->data, s->n * s->elem);
		s->data = nd;
		s->cap = newcap;
	}
	memcpy((char *) s->data + s->n * s->elem, item, s->elem);
	s->n++;
	return true;
}

/*
 * After an array element or object member: the white space and the ','
 * (*more) or the closing byte (!*more) that must follow, consumed.
 */
static bool
after_item(DjParser *ps, unsigned char close, bool *more)
{
	int			c = dj_after_item(&ps->p, ps->end, close);
	bool		array = close == ']';

	if (c == 0 && ps->p >= ps->end)
		return fail(ps, array ? "unterminated array" : "unterminated object");
	if (c == 0)
		return fail(ps, array ? "expected ',' or ']' in array" :
					"expected ',' or '}' in object");
	*more = c == ',';
	return true;
}

static bool
parse_array(DjParser *ps, DjValue *out, int depth)
{
	Scratch		s = {NULL, 0, 0, sizeof(DjValue)};
	bool		more;

	if (!dj_open_container(&ps->p, ps->end, ']'))
	{
		do
		{
			DjValue		v;

			if (!parse_value(ps, &v, depth + 1))
				return false;
			if (!scratch_push(ps, &s, &v))
				return false;
			if (!after_item(ps, ']', &more))
				return false;
		} while (more);
	}
	out->type = DJ_ARRAY;
	out->len = (uint32_t) s.n;
	out->u.items = s.data;
	return true;
}

static bool
parse_object(DjParser *ps, DjValue *out, int depth)
{
	Scratch		s = {NULL, 0, 0, sizeof(DjMember)};
	bool		more;

	if (!dj_open_container(&ps->p, ps->end, '}'))
	{
		do
		{
			DjMember	m;

			skip_ws(ps);
			if (ps->p >= ps->end)
				return fail(ps, "unterminated object");
			if (*ps->p != '"')
				return fail(ps, "expected string key in object");
			if (!parse_string(ps, &m.key, &m.keylen))
				return false;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':' after object key");
			ps->p++;
			if (!parse_value(ps, &m.value, depth + 1))
				return false;
			if (!scratch_push(ps, &s, &m))
				return false;
			if (!after_item(ps, '}', &more))
				return false;
		} while (more);
	}
	out->type = DJ_OBJECT;
	out->len = (uint32_t) s.n;
	out->u.members = s.data;
	return true;
}

static bool
parse_value(DjParser *ps, DjValue *out, int depth)
{
	if (depth > ps->max_depth)
		return fail(ps, "nesting too deep");
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input");
	switch (*ps->p)
	{
		case '{':
			return parse_object(ps, out, depth);
		case '[':
			return parse_array(ps, out, depth);
		case '"':
			out->type = DJ_STRING;
			return parse_string(ps, &out->u.str, &out->len);
		case 't':
			return parse_literal(ps, "true", DJ_TRUE, out);
		case 'f':
			return parse_literal(ps, "false", DJ_FALSE, out);
		case 'n':
			return parse_literal(ps, "null", DJ_NULL, out);
		default:
			if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
				return parse_number(ps, out);
			return fail(ps, "unexpected character");
	}
}

bool
dj_parse(const char *buf, size_t len, const FmtAllocator *alloc,
		 int max_depth, DjValue *out, DjError *err)
{
	DjParser	ps;

	ps.start = (const unsigned char *) buf;
	ps.p = ps.start;
	ps.end = ps.start + len;
	ps.alloc = alloc;
	ps.max_depth = max_depth > 0 ? max_depth : DJ_DEFAULT_MAX_DEPTH;
	ps.err = err;
	err->offset = 0;
	err->message[0] = '\0';

	if (!parse_value(&ps, out, 0))
		return false;
	skip_ws(&ps);
	if (ps.p != ps.end)
		return fail(&ps, "unexpected data after the JSON value");
	return true;
}

static int
ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* Do the kl bytes at a and b match, ASCII letters compared caseless? */
static bool
keys_equal_ci(const char *a, const char *b, size_t kl)
{
	size_t		j;

	for (j = 0; j < kl; j++)
		if (ascii_lower((unsigned char) a[j]) != ascii_lower((unsigned char) b[j]))
			return false;
	return true;
}

/*
 * dj_get and dj_get_ci: the last member of obj named key (ci: compared as
 * keys_equal_ci does).  Inlined into both, so ci is a constant there.
 */
static inline const DjValue *
find_member(const DjValue *obj, const char *key, bool ci)
{
	uint32_t	i;
	size_t		kl;

	if (obj == NULL || obj->type != DJ_OBJECT)
		return NULL;
	kl = strlen(key);
	for (i = obj->len; i > 0; i--)
	{
		const DjMember *m = &obj->u.members[i - 1];

		if (m->keylen == kl &&
			(ci ? keys_equal_ci(m->key, key, kl) :
			 memcmp(m->key, key, kl) == 0))
			return &m->value;
	}
	return NULL;
}

const DjValue *
dj_get(const DjValue *obj, const char *key)
{
	return find_member(obj, key, false);
}

const DjValue *
dj_get_ci(const DjValue *obj, const char *key)
{
	return find_member(obj, key, true);
}

bool
dj_to_int64(const DjValue *v, int64_t *result)
{
	const char *s;
	bool		neg = false;
	uint64_t	acc = 0;
	uint64_t	limit;

	if (v == NULL || v->type != DJ_NUMBER)
		return false;
	s = v->u.num;
	if (*s == '-')
	{
		neg = true;
		s++;
	}
	limit = neg ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT64_MAX;
	for (; *s >= '0' && *s <= '9'; s++)
	{
		unsigned	d = (unsigned) (*s - '0');

		if (acc > (limit - d) / 10)
			return false;
		acc = acc * 10 + d;
	}
	/* a fraction of zeros ("5.0") is still an integer; anything else is not */
	if (*s == '.')
	{
		for (s++; *s == '0'; s++)
			;
		if (*s >= '1' && *s <= '9')
			return false;
	}
	if (*s == 'e' || *s == 'E')
		return false;			/* exponent forms are not accepted as
								 * integers */
	if (*s != '\0')
		return false;
	if (neg)
		*result = (acc == (uint64_t) INT64_MAX + 1) ? INT64_MIN : -(int64_t) acc;
	else
		*result = (int64_t) acc;
	return true;
}

bool
dj_to_double(const DjValue *v, double *result)
{
	char	   *end;
	double		d;

	if (v == NULL || v->type != DJ_NUMBER)
		return false;
	errno = 0;
	d = strtod(v->u.num, &end);
	if (*end != '\0')
		return false;
	*result = d;
	return true;
}

const char *
dj_type_name(DjType type)
{
	switch (type)
	{
		case DJ_NULL:
			return "null";
		case DJ_FALSE:
		case DJ_TRUE:
			return "boolean";
		case DJ_NUMBER:
			return "number";
		case DJ_STRING:
			return "string";
		case DJ_ARRAY:
			return "array";
		case DJ_OBJECT:
			return "object";
	}
	return "unknown";
}

/*
 * dj_equal: see djson.h.
 */
bool
dj_equal(const DjValue *a, const DjValue *b)
{
	uint32_t	i;

	if (a->type != b->type || a->len != b->len)
		return false;
	switch (a->type)
	{
		case DJ_STRING:
		case DJ_NUMBER:
			return memcmp(a->u.str, b->u.str, a->len + 1) == 0;
		case DJ_ARRAY:
			for (i = 0; i < a->len; i++)
				if (!dj_equal(&a->u.items[i], &b->u.items[i]))
					return false;
			return true;
		case DJ_OBJECT:
			for (i = 0; i < a->len; i++)
				if (a->u.members[i].keylen != b->u.members[i].keylen ||
					memcmp(a->u.members[i].key, b->u.members[i].key,
						   a->u.members[i].keylen + 1) != 0 ||
					!dj_equal(&a->u.members[i].value, &b->u.members[i].value))
					return false;
			return true;
		default:
			return true;
	}
}
