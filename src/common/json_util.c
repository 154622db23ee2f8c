/*-------------------------------------------------------------------------
 *
 * json_util.c
 *	  palloc-backed FmtAllocator, DjValue -> jsonb / JSON text, and ERRORs
 *	  from djson failures (see json_util.h for the contracts).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/json_util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "common/fastpath.h"
#include "common/json_util.h"
#include "format/djson_scan.h"
#include "format/jshape.h"
#include "format/jstr.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Largest string a jsonb container entry can hold. */
#define DC_JSONB_MAX_STRING ((Size) JENTRY_OFFLENMASK)

/* Largest jsonb array / object (the limits of jsonb_util.c). */
#define DC_JSONB_MAX_ELEMS (Min(MaxAllocSize / sizeof(JsonbValue), JB_CMASK))
#define DC_JSONB_MAX_PAIRS (Min(MaxAllocSize / sizeof(JsonbPair), JB_CMASK))

/*
 * Largest decimal exponent we hand to numeric_in.  numeric holds up to
 * 131072 digits before the point and 16383 after; staying well inside keeps
 * numeric_in from raising on a hostile "1e999999999".
 */
#define DC_MAX_NUMERIC_EXPONENT 100000

/*
 * FmtAllocFn over a memory context: ctx is the context (NULL: the one
 * current at the time of the call), flags add MCXT_ALLOC_ZERO or not.
 * Returns NULL when out of memory.
 */
static inline void *
dc_fmt_palloc_flags(void *ctx, size_t size, int flags)
{
	MemoryContext cxt = ctx ? (MemoryContext) ctx : CurrentMemoryContext;

	if (size > MaxAllocHugeSize)
		return NULL;
	return MemoryContextAllocExtended(cxt, size,
									  MCXT_ALLOC_NO_OOM | MCXT_ALLOC_HUGE | flags);
}

static void *
dc_fmt_palloc(void *ctx, size_t size)
{
	return dc_fmt_palloc_flags(ctx, size, MCXT_ALLOC_ZERO);
}

/* dc_fmt_palloc without the zeroing (FmtAllocator.alloc_raw). */
static void *
dc_fmt_palloc_raw(void *ctx, size_t size)
{
	return dc_fmt_palloc_flags(ctx, size, 0);
}

/*
 * Returns an allocator handing out zeroed memory from cxt (NULL = the
 * current context at each call), and unzeroed memory to fmt_alloc_raw.
 * The struct is returned by value.
 */
FmtAllocator
dc_fmt_allocator(MemoryContext cxt)
{
	FmtAllocator a;

	a.alloc = dc_fmt_palloc;
	a.alloc_raw = dc_fmt_palloc_raw;
	a.ctx = cxt;
	return a;
}

/*
 * Raise the ERROR for a failed djson parse.  An allocation failure inside
 * the parser surfaces as a message mentioning memory; everything else is
 * malformed input and gets errcode_val.
 */
void
dc_json_report_error(const DjError *err, const char *what, int errcode_val)
{
	if (strstr(err->message, "out of memory") != NULL)
		ereport(ERROR,
				errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("out of memory while parsing %s", what));
	ereport(ERROR,
			errcode(errcode_val),
			errmsg("invalid JSON in %s", what),
			errdetail("The JSON parser reported: %s at byte %zu.",
					  err->message, err->offset));
	pg_unreachable();
}

/*
 * Parse buf[0..len) into a DjValue allocated in CurrentMemoryContext, or
 * raise an ERROR naming 'what'.
 */
DjValue
dc_json_parse(const char *buf, size_t len, const char *what, int errcode_val)
{
	FmtAllocator alloc = dc_fmt_allocator(CurrentMemoryContext);
	DjValue		v;
	DjError		err;

	if (!dj_parse(buf, len, &alloc, DJ_DEFAULT_MAX_DEPTH, &v, &err))
		dc_json_report_error(&err, what, errcode_val);
	return v;
}

/*
 * jb_scalar, jb_value: jsonb_walk's steps, each filling *out; false when
 * the walk declines.  jb_value's r and v: the token the iterator gave last
 * and its value; depth: containers open around it.
 */
static bool
jb_scalar(const JsonbValue *v, DjValue *out)
{
	switch (v->type)
	{
		case jbvNull:
			out->type = DJ_NULL;
			out->len = 0;
			return true;
		case jbvBool:
			out->type = v->val.boolean ? DJ_TRUE : DJ_FALSE;
			out->len = 0;
			return true;
		case jbvString:
			/* (jsonb holds no NUL: pnstrdup copies all of it) */
			out->type = DJ_STRING;
			out->len = (uint32) v->val.string.len;
			out->u.str = pnstrdup(v->val.string.val, v->val.string.len);
			return true;
		case jbvNumeric:
			{
				char	   *num;

				if (numeric_is_nan(v->val.numeric) ||
					numeric_is_inf(v->val.numeric))
					return false;	/* printed as a bare word */
				num = DatumGetCString(DirectFunctionCall1(numeric_out,
														  NumericGetDatum(v->val.numeric)));
				out->type = DJ_NUMBER;
				out->len = (uint32) strlen(num);
				out->u.num = num;
				return true;
			}
		default:
			return false;
	}
}

static bool
jb_value(JsonbIterator **it, JsonbIteratorToken r, JsonbValue *v,
		 DjValue *out, int depth)
{
	check_stack_depth();
	if (r == WJB_ELEM || r == WJB_VALUE)
		return jb_scalar(v, out);
	if (depth >= DJ_DEFAULT_MAX_DEPTH)
		return false;			/* let dj_parse report it */
	if (r == WJB_BEGIN_ARRAY)
	{
		int			n = v->val.array.nElems;
		int			i = 0;

		if (v->val.array.rawScalar)
		{
			r = JsonbIteratorNext(it, v, false);
			Assert(r == WJB_ELEM);
			if (!jb_scalar(v, out))
				return false;
			r = JsonbIteratorNext(it, v, false);
			Assert(r == WJB_END_ARRAY);
			return true;
		}
		out->type = DJ_ARRAY;
		out->len = (uint32) n;
		out->u.items = palloc(sizeof(DjValue) * Max(n, 1));
		while ((r = JsonbIteratorNext(it, v, false)) != WJB_END_ARRAY)
		{
			CHECK_FOR_INTERRUPTS();
			if (i >= n || !jb_value(it, r, v, &out->u.items[i++], depth + 1))
				return false;
		}
		return i == n;
	}
	if (r == WJB_BEGIN_OBJECT)
	{
		int			n = v->val.object.nPairs;
		int			i = 0;

		out->type = DJ_OBJECT;
		out->len = (uint32) n;
		out->u.members = palloc(sizeof(DjMember) * Max(n, 1));
		while ((r = JsonbIteratorNext(it, v, false)) != WJB_END_OBJECT)
		{
			DjMember   *m;

			CHECK_FOR_INTERRUPTS();
			if (r != WJB_KEY || i >= n || v->type != jbvString)
				return false;
			m = &out->u.members[i++];
			m->key = pnstrdup(v->val.string.val, v->val.string.len);
			m->keylen = (uint32) v->val.string.len;
			r = JsonbIteratorNext(it, v, false);
			if (!jb_value(it, r, v, &m->value, depth + 1))
				return false;
		}
		return i == n;
	}
	return false;
}

/*
 * jsonb_walk: dc_jsonb_parse's walk; false when it declines (*out is then
 * unusable).  Assert-enabled builds compare the tree with the one the text
 * gives.
 */
static bool
jsonb_walk(Jsonb *jb, DjValue *out)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken r;
	bool		ok;

	if (GetDatabaseEncoding() != PG_UTF8)
		return false;
	it = JsonbIteratorInit(&jb->root);
	r = JsonbIteratorNext(&it, &v, false);
	ok = jb_value(&it, r, &v, out, 0);
#ifdef USE_ASSERT_CHECKING
	if (ok)
	{
		char	   *text = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
		DjValue		viatext;

		Assert(dc_json_try_parse(text, strlen(text), &viatext));
		Assert(dj_equal(out, &viatext));
	}
#endif
	return ok;
}

/*
 * dc_jsonb_parse: see json_util.h.
 */
DjValue
dc_jsonb_parse(Jsonb *jb, const char *what, int errcode_val)
{
	DjValue		v;
	char	   *text;

	if (jsonb_walk(jb, &v))
		return v;
	text = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
	return dc_json_parse(text, strlen(text), what, errcode_val);
}

/*
 * Parse buf[0..len) into *out (CurrentMemoryContext); false when the text
 * is not valid JSON.
 */
bool
dc_json_try_parse(const char *buf, size_t len, DjValue *out)
{
	FmtAllocator alloc = dc_fmt_allocator(CurrentMemoryContext);
	DjError		err;

	return dj_parse(buf, len, &alloc, DJ_DEFAULT_MAX_DEPTH, out, &err);
}

/*
 * True when a JSON number token can be given to numeric_in without it
 * raising an overflow (the exponent is bounded).
 */
static bool
dj_number_fits_numeric(const DjValue *v)
{
	const char *e;
	long		exp_val;
	char	   *end;

	e = strpbrk(v->u.num, "eE");
	if (e == NULL)
		return v->len <= DC_MAX_NUMERIC_EXPONENT;
	errno = 0;
	exp_val = strtol(e + 1, &end, 10);
	if (errno != 0 || exp_val > DC_MAX_NUMERIC_EXPONENT ||
		exp_val < -DC_MAX_NUMERIC_EXPONENT)
		return false;
	return v->len <= DC_MAX_NUMERIC_EXPONENT;
}

/* True when every number and string in the tree fits jsonb. */
bool
dc_dj_fits_jsonb(const DjValue *v)
{
	uint32		i;

	check_stack_depth();
	switch (v->type)
	{
		case DJ_NUMBER:
			return dj_number_fits_numeric(v);
		case DJ_STRING:
			return v->len <= DC_JSONB_MAX_STRING;
		case DJ_ARRAY:
			for (i = 0; i < v->len; i++)
				if (!dc_dj_fits_jsonb(&v->u.items[i]))
					return false;
			return true;
		case DJ_OBJECT:
			for (i = 0; i < v->len; i++)
				if (v->u.members[i].keylen > DC_JSONB_MAX_STRING ||
					!dc_dj_fits_jsonb(&v->u.members[i].value))
					return false;
			return true;
		default:
			return true;
	}
}

/*
 * Numeric of a JSON number token that is a plain integer or decimal of at
 * most 18 digits without exponent (nearly every statistic), built from an
 * int64 mantissa with int64_to_numeric or int64_div_fast_to_numeric: the
 * same value with the same display scale numeric_in gives.  NULL for any
 * other token (the caller uses numeric_in on the exact text).
 */
static Numeric
dj_number_fast_numeric(const DjValue *v)
{
	const char *s = v->u.num;
	const char *end = s + v->len;
	bool		neg = false;
	int64		mant = 0;
	int			ndigits = 0;
	int			scale = 0;

	if (s < end && *s == '-')
	{
		neg = true;
		s++;
	}
	for (; s < end && *s >= '0' && *s <= '9'; s++)
	{
		mant = mant * 10 + (*s - '0');
		if (++ndigits > 18)
			return NULL;
	}
	if (s < end && *s == '.')
	{
		for (s++; s < end && *s >= '0' && *s <= '9'; s++)
		{
			mant = mant * 10 + (*s - '0');
			scale++;
			if (++ndigits > 18)
				return NULL;
		}
		if (scale == 0)
			return NULL;
	}
	if (s != end || ndigits == 0)
		return NULL;			/* exponent (or anything unexpected) */
	if (neg)
		mant = -mant;
	if (scale == 0)
		return int64_to_numeric(mant);
	return int64_div_fast_to_numeric(mant, scale);
}

/*
 * Fill a scalar JsonbValue from a scalar DjValue.  When the value cannot be
 * represented (number beyond numeric's range, string too long) raises an
 * ERROR if strict, else returns false.
 */
static bool
dj_scalar_to_jsonb(const DjValue *v, JsonbValue *jv, bool strict)
{
	switch (v->type)
	{
		case DJ_NULL:
			jv->type = jbvNull;
			break;
		case DJ_TRUE:
		case DJ_FALSE:
			jv->type = jbvBool;
			jv->val.boolean = (v->type == DJ_TRUE);
			break;
		case DJ_NUMBER:
			jv->type = jbvNumeric;
			jv->val.numeric = dj_number_fast_numeric(v);
			if (jv->val.numeric != NULL)
				break;
			if (!dj_number_fits_numeric(v))
			{
				if (!strict)
					return false;
				ereport(ERROR,
						errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						errmsg("JSON number is out of the range of type numeric"));
			}
			jv->val.numeric =
				DatumGetNumeric(DirectFunctionCall3(numeric_in,
													CStringGetDatum(v->u.num),
													ObjectIdGetDatum(InvalidOid),
													Int32GetDatum(-1)));
			break;
		case DJ_STRING:
			if (v->len > DC_JSONB_MAX_STRING)
			{
				if (!strict)
					return false;
				ereport(ERROR,
						errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("JSON string too long to represent as jsonb string"));
			}
			jv->type = jbvString;
			jv->val.string.val = (char *) v->u.str;
			jv->val.string.len = (int) v->len;
			break;
		default:
			elog(ERROR, "unexpected JSON value type %d", (int) v->type);
	}
	return true;
}

/*
 * Direct jsonb writer.  dj_to_jsonb_in writes the on-disk jsonb format
 * straight from a DjValue, as JsonbValueToJsonb would write the JsonbValue
 * tree pushJsonbValue builds for it: containers 4-byte aligned (padding
 * counted in the container), a header word, then one JEntry per child
 * (every JB_OFFSET_STRIDE'th holding the end offset instead of the
 * length), then the children's data; object keys sorted shorter first then
 * bytewise, keys before values, the last of duplicate keys kept; numerics
 * 4-byte aligned with the padding counted in their entry.  In assert-
 * enabled builds every result is compared with JsonbValueToJsonb's.
 */
static inline int
jbw_reserve(StringInfo buf, int len)
{
	int			off;

	if (unlikely(buf->maxlen - buf->len <= len))
		enlargeStringInfo(buf, len);
	off = buf->len;
	buf->len += len;
	buf->data[buf->len] = '\0';
	return off;
}

/*
 * Append len bytes (reserve first: the buffer may move, so never compute
 * buf->data + jbw_reserve(...) in one expression).
 */
static inline void
jbw_append(StringInfo buf, const void *data, int len)
{
	int			off = jbw_reserve(buf, len);

	memcpy(buf->data + off, data, len);
}

/* Pad buf to a multiple of 4 bytes with zeros; returns the padding. */
static inline int
jbw_pad(StringInfo buf)
{
	int			pad = INTALIGN(buf->len) - buf->len;
	int			off = jbw_reserve(buf, pad);

	memset(buf->data + off, 0, pad);
	return pad;
}

/* Raise the total-size error of jsonb containers (as jsonb_util.c does). */
static void
jbw_check_size(int totallen, const char *what)
{
	if (totallen > JENTRY_OFFLENMASK)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("total size of jsonb %s elements exceeds the maximum of %d bytes",
					   what, JENTRY_OFFLENMASK));
}

/*
 * Order of object members in jsonb: shorter key first, then bytewise; of
 * equal keys the later member (higher address) first.
 */
static int
dj_member_cmp(const DjMember *a, const DjMember *b)
{
	int			c;

	if (a->keylen != b->keylen)
		return a->keylen < b->keylen ? -1 : 1;
	c = memcmp(a->key, b->key, a->keylen);
	if (c != 0)
		return c;
	return a > b ? -1 : 1;
}

static int
dj_member_qsort_cmp(const void *a, const void *b)
{
	return dj_member_cmp(*(const DjMember *const *) a,
						 *(const DjMember *const *) b);
}

/*
 * Sort the members m[0..n) (pointers into one members array) into jsonb
 * order and drop the duplicate keys, keeping the last member of each key,
 * as pushJsonbValue does; returns how many are left (in m[0..)).
 * Allocates nothing.
 */
static uint32
dj_sort_unique_members(const DjMember **m, uint32 n)
{
	uint32		npairs;
	uint32		i;
	uint32		k;

	/* insertion sort for the small objects of statistics */
	if (n <= 24)
	{
		for (i = 1; i < n; i++)
		{
			const DjMember *t = m[i];

			for (k = i; k > 0 && dj_member_cmp(m[k - 1], t) > 0; k--)
				m[k] = m[k - 1];
			m[k] = t;
		}
	}
	else
		qsort(m, n, sizeof(DjMember *), dj_member_qsort_cmp);
	npairs = n > 0 ? 1 : 0;
	for (i = 1; i < n; i++)
		if (m[i]->keylen != m[npairs - 1]->keylen ||
			memcmp(m[i]->key, m[npairs - 1]->key, m[i]->keylen) != 0)
			m[npairs++] = m[i];
	return npairs;
}

static bool jbw_value(StringInfo buf, const DjValue *v, JEntry *header,
					  bool strict);
static bool jbw_scalar(StringInfo buf, const DjValue *v, JEntry *header,
					   bool strict);

/*
 * numeric.c's short on-disk format (NumericShort), as make_result writes
 * it for a value whose weight fits [-64, 63] and display scale <= 63: a
 * 4-byte varlena header, a uint16 header word (NUMERIC_SHORT, sign bit,
 * dscale << 7, weight sign bit, weight & 0x3F), then the base-10000 digits
 * (int16) without leading or trailing zero digits; zero has no digits,
 * weight 0 and a positive sign.
 */
#define DC_NUMERIC_SHORT		0x8000
#define DC_NUMERIC_SHORT_SIGN	0x2000
#define DC_NUMERIC_DSCALE_SHIFT 7
#define DC_NUMERIC_WEIGHT_SIGN	0x0040
#define DC_NUMERIC_WEIGHT_MASK	0x003F
#define DC_NUMERIC_SHORT_INT_DIGITS 19	/* in a uint64 */
#define DC_NUMERIC_SHORT_FRAC_DIGITS 16	/* < 10^16 once padded to 4s */
#define DC_NUMERIC_SHORT_MAX	(VARHDRSZ + sizeof(uint16) + 9 * sizeof(int16))

/*
 * Write into out (DC_NUMERIC_SHORT_MAX bytes) the numeric of the JSON number
 * token s[0..toklen) (no NUL needed) when it is a plain integer or decimal
 * without exponent, of at most 19 digits before the point and 16 after
 * (at most 5 + 4 base-10000 digits), byte for byte what numeric_in gives
 * for it; returns its length, or 0 for any other token.  Assert-enabled
 * builds compare every jsonb made with it against JsonbValueToJsonb of
 * numerics made by numeric_in (or int64_to_numeric /
 * int64_div_fast_to_numeric, which give the same).
 */
static pg_attribute_always_inline int
dj_number_short_numeric(const char *s, size_t toklen, char *out)
{
	const char *end = s + toklen;
	const char *ip;
	const char *fp;
	bool		neg = false;
	uint64		ival = 0;
	uint64		fval = 0;
	unsigned int d;
	int			ni;
	int			nf = 0;
	int16		lsf[10];		/* base-10000 digits, least significant first */
	int			n = 0;
	int			nint = 0;
	int			top;
	int			low;
	int			weight;
	int			k;
	uint16		head;
	int			len;

	if (toklen <= 4)
	{
		/* a small unsigned integer (nullCount, say): one digit or none */
		uint32		v = 0;

		for (k = 0; k < (int) toklen; k++)
		{
			d = (unsigned char) s[k] - '0';
			if (d > 9)
				break;
			v = v * 10 + d;
		}
		if (k == (int) toklen && k > 0)
		{
			int16		digit = (int16) v;

			head = DC_NUMERIC_SHORT;	/* positive, weight 0, dscale 0 */
			memcpy(out + VARHDRSZ, &head, sizeof(uint16));
			len = VARHDRSZ + sizeof(uint16);
			if (v != 0)
			{
				memcpy(out + len, &digit, sizeof(int16));
				len += sizeof(int16);
			}
			SET_VARSIZE(out, len);
			return len;
		}
	}
	if (s < end && *s == '-')
	{
		neg = true;
		s++;
	}
	for (ip = s; s < end && (d = (unsigned char) *s - '0') <= 9; s++)
		ival = ival * 10 + d;
	ni = (int) (s - ip);
	if (ni == 0 || ni > DC_NUMERIC_SHORT_INT_DIGITS)
		return 0;
	if (s < end && *s == '.')
	{
		/* wraps for more than 19 digits, but those are refused */
		for (fp = ++s; s < end && (d = (unsigned char) *s - '0') <= 9; s++)
			fval = fval * 10 + d;
		nf = (int) (s - fp);
		if (nf == 0 || nf > DC_NUMERIC_SHORT_FRAC_DIGITS)
			return 0;
	}
	if (s != end)
		return 0;				/* an exponent, or not a number */

	/*
	 * Base-10000 digits aligned on the decimal point: the fraction's padded
	 * on the right to whole digits (at most 16 decimal digits: below 10^16,
	 * no overflow), then the integer part's.
	 */
	for (k = nf; k % 4 != 0; k++)
		fval *= 10;
	for (k /= 4; k > 0; k--)
	{
		lsf[n++] = (int16) (fval % 10000);
		fval /= 10000;
	}
	for (; ival > 0; ival /= 10000)
	{
		lsf[n++] = (int16) (ival % 10000);
		nint++;
	}
	/* no leading (only the fraction's can be) or trailing zero digits */
	weight = nint - 1;
	for (top = n - 1; top >= 0 && lsf[top] == 0; top--)
		weight--;
	for (low = 0; low <= top && lsf[low] == 0; low++)
		;
	if (top < low)
	{
		/* zero: no digits, weight 0, never negative (dscale kept) */
		weight = 0;
		neg = false;
	}
	head = DC_NUMERIC_SHORT | (neg ? DC_NUMERIC_SHORT_SIGN : 0) |
		(uint16) (nf << DC_NUMERIC_DSCALE_SHIFT) |
		(weight < 0 ? DC_NUMERIC_WEIGHT_SIGN : 0) |
		(uint16) (weight & DC_NUMERIC_WEIGHT_MASK);
	len = VARHDRSZ + sizeof(uint16);
	memcpy(out + VARHDRSZ, &head, sizeof(uint16));
	for (k = top; k >= low; k--)
	{
		memcpy(out + len, &lsf[k], sizeof(int16));
		len += sizeof(int16);
	}
	SET_VARSIZE(out, len);
	return len;
}

/*
 * Write the numeric of the number token s[0..len) when
 * dj_number_short_numeric takes it (padding first, as for any numeric);
 * *header gets its JEntry.  False, writing nothing, for any other token.
 */
static inline bool
jbw_short_number(StringInfo buf, const char *s, size_t len, JEntry *header)
{
	int32		num[(DC_NUMERIC_SHORT_MAX + 7) / 4];	/* aligned */
	int			numlen = dj_number_short_numeric(s, len, (char *) num);
	int			pad;

	if (numlen == 0)
		return false;
	pad = jbw_pad(buf);
	jbw_append(buf, num, numlen);
	*header = JENTRY_ISNUMERIC | (pad + numlen);
	return true;
}

/*
 * Write the elements of an array (or the one raw scalar) as a container;
 * *header gets its JEntry.
 */
static bool
jbw_array(StringInfo buf, const DjValue *items, uint32 n, bool raw_scalar,
		  JEntry *header, bool strict)
{
	int			base = buf->len;
	uint32		head;
	int			entries;
	int			totallen = 0;
	uint32		i;

	check_stack_depth();
	if (n > DC_JSONB_MAX_ELEMS)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("number of jsonb array elements exceeds the maximum allowed (%zu)",
					   DC_JSONB_MAX_ELEMS));
	jbw_pad(buf);
	head = n | JB_FARRAY | (raw_scalar ? JB_FSCALAR : 0);
	jbw_append(buf, &head, sizeof(uint32));
	entries = jbw_reserve(buf, sizeof(JEntry) * n);
	for (i = 0; i < n; i++)
	{
		JEntry		meta;

		if (!jbw_value(buf, &items[i], &meta, strict))
			return false;
		totallen += JBE_OFFLENFLD(meta);
		jbw_check_size(totallen, "array");
		if (i % JB_OFFSET_STRIDE == 0)
			meta = (meta & JENTRY_TYPEMASK) | totallen | JENTRY_HAS_OFF;
		memcpy(buf->data + entries + i * sizeof(JEntry), &meta, sizeof(JEntry));
	}
	totallen = buf->len - base;
	jbw_check_size(totallen, "array");
	*header = JENTRY_ISCONTAINER | totallen;
	return true;
}

/* Write an object as a container; *header gets its JEntry. */
static bool
jbw_object(StringInfo buf, const DjValue *v, JEntry *header, bool strict)
{
	int			base = buf->len;
	const DjMember *local[32];
	const DjMember **m;
	uint32		n = v->len;
	uint32		npairs;
	uint32		head;
	int			entries;
	int			totallen = 0;
	uint32		i;

	CHECK_FOR_INTERRUPTS();
	check_stack_depth();
	if (n > DC_JSONB_MAX_PAIRS)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("number of jsonb object pairs exceeds the maximum allowed (%zu)",
					   DC_JSONB_MAX_PAIRS));
	m = n <= lengthof(local) ? local : palloc(sizeof(DjMember *) * n);
	for (i = 0; i < n; i++)
	{
		if (v->u.members[i].keylen > DC_JSONB_MAX_STRING)
		{
			if (!strict)
				return false;
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("JSON string too long to represent as jsonb string"));
		}
		m[i] = &v->u.members[i];
	}
	npairs = dj_sort_unique_members(m, n);

	jbw_pad(buf);
	head = npairs | JB_FOBJECT;
	jbw_append(buf, &head, sizeof(uint32));
	entries = jbw_reserve(buf, sizeof(JEntry) * npairs * 2);
	for (i = 0; i < npairs; i++)
	{
		JEntry		meta;

		jbw_append(buf, m[i]->key, m[i]->keylen);
		meta = JENTRY_ISSTRING | m[i]->keylen;
		totallen += m[i]->keylen;
		jbw_check_size(totallen, "object");
		if (i % JB_OFFSET_STRIDE == 0)
			meta = (meta & JENTRY_TYPEMASK) | totallen | JENTRY_HAS_OFF;
		memcpy(buf->data + entries + i * sizeof(JEntry), &meta, sizeof(JEntry));
	}
	for (i = 0; i < npairs; i++)
	{
		JEntry		meta;

		if (!jbw_value(buf, &m[i]->value, &meta, strict))
			return false;
		totallen += JBE_OFFLENFLD(meta);
		jbw_check_size(totallen, "object");
		if ((i + npairs) % JB_OFFSET_STRIDE == 0)
			meta = (meta & JENTRY_TYPEMASK) | totallen | JENTRY_HAS_OFF;
		memcpy(buf->data + entries + (i + npairs) * sizeof(JEntry), &meta,
			   sizeof(JEntry));
	}
	if (m != local)
		pfree(m);
	totallen = buf->len - base;
	jbw_check_size(totallen, "object");
	*header = JENTRY_ISCONTAINER | totallen;
	return true;
}

/* Write one value; *header gets its JEntry. */
static bool
jbw_value(StringInfo buf, const DjValue *v, JEntry *header, bool strict)
{
	/* check_stack_depth() in the container writers */
	if (v->type == DJ_ARRAY)
		return jbw_array(buf, v->u.items, v->len, false, header, strict);
	if (v->type == DJ_OBJECT)
		return jbw_object(buf, v, header, strict);
	if (v->type == DJ_NUMBER && jbw_short_number(buf, v->u.num, v->len, header))
		return true;
	return jbw_scalar(buf, v, header, strict);
}

/*
 * jbw_value for a scalar, with no short-number attempt (a number
 * jbw_short_number declined, or any other scalar).
 */
static bool
jbw_scalar(StringInfo buf, const DjValue *v, JEntry *header, bool strict)
{
	JsonbValue	jv;

	if (!dj_scalar_to_jsonb(v, &jv, strict))
		return false;
	switch (jv.type)
	{
		case jbvNull:
			*header = JENTRY_ISNULL;
			break;
		case jbvBool:
			*header = jv.val.boolean ? JENTRY_ISBOOL_TRUE : JENTRY_ISBOOL_FALSE;
			break;
		case jbvString:
			jbw_append(buf, jv.val.string.val, jv.val.string.len);
			*header = JENTRY_ISSTRING | jv.val.string.len;
			break;
		case jbvNumeric:
			{
				int			numlen = VARSIZE_ANY(jv.val.numeric);
				int			pad = jbw_pad(buf);

				jbw_append(buf, jv.val.numeric, numlen);
				*header = JENTRY_ISNUMERIC | (pad + numlen);
				break;
			}
		default:
			elog(ERROR, "unexpected jsonb scalar type %d", (int) jv.type);
	}
	return true;
}

#ifdef USE_ASSERT_CHECKING
/*
 * Order of jsonb object pairs as jsonb stores them: shorter key first, then
 * bytewise; among equal keys the later member (higher order) first, so that
 * keeping the first of a run keeps the last duplicate, as pushJsonbValue
 * does.
 */
static int
jbv_pair_cmp(const JsonbPair *a, const JsonbPair *b)
{
	int			la = a->key.val.string.len;
	int			lb = b->key.val.string.len;
	int			c;

	if (la != lb)
		return la < lb ? -1 : 1;
	c = memcmp(a->key.val.string.val, b->key.val.string.val, la);
	if (c != 0)
		return c;
	return a->order > b->order ? -1 : 1;
}

static int
jbv_pair_qsort_cmp(const void *a, const void *b)
{
	return jbv_pair_cmp((const JsonbPair *) a, (const JsonbPair *) b);
}

/*
 * Sort the pairs of an object into jsonb order and drop duplicate keys
 * (the last one wins).  Small objects (statistics have a handful of keys
 * per level) use an insertion sort.  Returns the new number of pairs.
 */
static int
jbv_sort_unique_pairs(JsonbPair *pairs, int n)
{
	int			i;
	int			k;

	if (n <= 1)
		return n;
	if (n <= 24)
	{
		for (i = 1; i < n; i++)
		{
			JsonbPair	t = pairs[i];

			for (k = i; k > 0 && jbv_pair_cmp(&pairs[k - 1], &t) > 0; k--)
				pairs[k] = pairs[k - 1];
			pairs[k] = t;
		}
	}
	else
		qsort(pairs, n, sizeof(JsonbPair), jbv_pair_qsort_cmp);
	k = 1;
	for (i = 1; i < n; i++)
	{
		const JsonbValue *prev = &pairs[k - 1].key;

		if (pairs[i].key.val.string.len == prev->val.string.len &&
			memcmp(pairs[i].key.val.string.val, prev->val.string.val,
				   prev->val.string.len) == 0)
			continue;
		pairs[k++] = pairs[i];
	}
	return k;
}

/*
 * Build the JsonbValue tree of v in CurrentMemoryContext, objects with
 * sorted unique keys, exactly as pushJsonbValue would produce it (strings
 * point into v).  A value jsonb cannot represent raises an ERROR if strict,
 * else returns false.
 */
static bool
dj_build_jbv(const DjValue *v, JsonbValue *out, bool strict)
{
	uint32		i;

	check_stack_depth();
	if (v->type == DJ_ARRAY)
	{
		if (v->len > DC_JSONB_MAX_ELEMS)
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("number of jsonb array elements exceeds the maximum allowed (%zu)",
						   DC_JSONB_MAX_ELEMS));
		out->type = jbvArray;
		out->val.array.nElems = (int) v->len;
		out->val.array.rawScalar = false;
		out->val.array.elems = v->len ? palloc(sizeof(JsonbValue) * v->len) : NULL;
		for (i = 0; i < v->len; i++)
			if (!dj_build_jbv(&v->u.items[i], &out->val.array.elems[i], strict))
				return false;
		return true;
	}
	if (v->type == DJ_OBJECT)
	{
		JsonbPair  *pairs;

		CHECK_FOR_INTERRUPTS();
		if (v->len > DC_JSONB_MAX_PAIRS)
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("number of jsonb object pairs exceeds the maximum allowed (%zu)",
						   DC_JSONB_MAX_PAIRS));
		pairs = v->len ? palloc(sizeof(JsonbPair) * v->len) : NULL;
		for (i = 0; i < v->len; i++)
		{
			const DjMember *m = &v->u.members[i];

			if (m->keylen > DC_JSONB_MAX_STRING)
			{
				if (!strict)
					return false;
				ereport(ERROR,
						errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("JSON string too long to represent as jsonb string"));
			}
			pairs[i].key.type = jbvString;
			pairs[i].key.val.string.val = (char *) m->key;
			pairs[i].key.val.string.len = (int) m->keylen;
			pairs[i].order = i;
			if (!dj_build_jbv(&m->value, &pairs[i].value, strict))
				return false;
		}
		out->type = jbvObject;
		out->val.object.pairs = pairs;
		out->val.object.nPairs = jbv_sort_unique_pairs(pairs, (int) v->len);
		return true;
	}
	return dj_scalar_to_jsonb(v, out, strict);
}

#endif							/* USE_ASSERT_CHECKING */

/*
 * Jsonb of v (the tree built in build_cxt, the result in
 * CurrentMemoryContext), or NULL when not strict and v does not fit.  A
 * top-level scalar becomes a raw-scalar jsonb, as jsonb_in makes it.
 */
static Jsonb *
dj_to_jsonb_in(const DjValue *v, MemoryContext build_cxt, bool strict)
{
	MemoryContext old;
	StringInfoData buf;
	JEntry		header;
	bool		ok;
	Jsonb	   *res;

	initStringInfo(&buf);		/* the result, in CurrentMemoryContext */
	jbw_reserve(&buf, VARHDRSZ);
	old = MemoryContextSwitchTo(build_cxt);
	if (v->type == DJ_ARRAY || v->type == DJ_OBJECT)
		ok = jbw_value(&buf, v, &header, strict);
	else
		ok = jbw_array(&buf, v, 1, true, &header, strict);
	MemoryContextSwitchTo(old);
	if (!ok)
	{
		pfree(buf.data);
		return NULL;
	}
	res = (Jsonb *) buf.data;
	SET_VARSIZE(res, buf.len);
#ifdef USE_ASSERT_CHECKING
	{
		/* the same bytes as JsonbValueToJsonb of pushJsonbValue's tree */
		JsonbValue	top;
		JsonbValue *scalar = NULL;
		Jsonb	   *ref;

		old = MemoryContextSwitchTo(build_cxt);
		if (v->type != DJ_ARRAY && v->type != DJ_OBJECT)
		{
			scalar = palloc(sizeof(JsonbValue));
			top.type = jbvArray;
			top.val.array.nElems = 1;
			top.val.array.rawScalar = true;
			top.val.array.elems = scalar;
		}
		ok = dj_build_jbv(v, scalar ? scalar : &top, strict);
		Assert(ok);
		ref = JsonbValueToJsonb(&top);
		Assert(VARSIZE(ref) == VARSIZE(res) &&
			   memcmp(ref, res, VARSIZE(res)) == 0);
		MemoryContextSwitchTo(old);
	}
#endif
	return res;
}

/*
 * Like dc_dj_to_jsonb, but NULL (not an ERROR) when v holds a number or
 * string jsonb cannot represent, as dc_json_text_to_jsonb of its text.
 */
Jsonb *
dc_dj_to_jsonb_lenient(const DjValue *v)
{
	return dj_to_jsonb_in(v, CurrentMemoryContext, false);
}

/*
 * Build a Jsonb from a DjValue (palloc'd in CurrentMemoryContext).  A top-level scalar becomes a raw-scalar jsonb,
 * as jsonb_in makes it.
 */
Jsonb *
dc_dj_to_jsonb(const DjValue *v)
{
	return dj_to_jsonb_in(v, CurrentMemoryContext, true);
}

/*
 * DcArena: a reusable bump allocator for short-lived parse trees (see
 * json_util.h).  Blocks of DC_ARENA_BLOCK bytes are kept across resets;
 * larger requests go to a child context emptied by the reset.
 */
#define DC_ARENA_BLOCK (64 * 1024)

typedef struct DcArenaBlock
{
	struct DcArenaBlock *next;
	char		data[FLEXIBLE_ARRAY_MEMBER];
} DcArenaBlock;

struct DcArena
{
	MemoryContext cxt;			/* owns the blocks */
	MemoryContext large_cxt;	/* large requests, emptied by reset */
	DcArenaBlock *first;
	DcArenaBlock *cur;
	char	   *next;
	size_t		left;
};

/* Create an arena whose memory belongs to cxt. */
DcArena *
dc_arena_create(MemoryContext cxt)
{
	DcArena    *a = MemoryContextAllocZero(cxt, sizeof(DcArena));

	a->cxt = cxt;
	a->large_cxt = AllocSetContextCreate(cxt, "deltacc arena large chunks",
										 ALLOCSET_SMALL_SIZES);
	return a;
}

/* Forget everything allocated; keep the blocks for the next use. */
void
dc_arena_reset(DcArena *a)
{
	a->cur = a->first;
	a->next = a->first ? a->first->data : NULL;
	a->left = a->first ? DC_ARENA_BLOCK : 0;
	MemoryContextReset(a->large_cxt);
}

/* Move to the arena's next block (taking a new one); false when out of memory. */
static bool
dc_arena_next_block(DcArena *a)
{
	DcArenaBlock *b = a->cur ? a->cur->next : a->first;

	if (b == NULL)
	{
		b = MemoryContextAllocExtended(a->cxt,
									   offsetof(DcArenaBlock, data) + DC_ARENA_BLOCK,
									   MCXT_ALLOC_NO_OOM);
		if (b == NULL)
			return false;
		b->next = NULL;
		if (a->cur)
			a->cur->next = b;
		else
			a->first = b;
	}
	a->cur = b;
	a->next = b->data;
	a->left = DC_ARENA_BLOCK;
	return true;
}

/*
 * Bump-allocate size bytes (MAXALIGNed, NOT zeroed) from an arena; NULL
 * when out of memory.
 */
static void *
dc_arena_alloc_raw(DcArena *a, size_t size)
{
	char	   *r;

	if (size > MaxAllocHugeSize)
		return NULL;
	size = MAXALIGN(size);
	if (size > DC_ARENA_BLOCK / 4)
		return MemoryContextAllocExtended(a->large_cxt, size,
										  MCXT_ALLOC_NO_OOM | MCXT_ALLOC_HUGE);
	if (unlikely(a->left < size) && !dc_arena_next_block(a))
		return NULL;
	r = a->next;
	a->next += size;
	a->left -= size;
	return r;
}

/*
 * Room for up to size bytes (at most DC_ARENA_BLOCK / 4) at the arena's
 * bump pointer, without taking it: the caller writes there, then
 * dc_arena_commit's what it used.  NULL when out of memory.
 */
static inline char *
dc_arena_reserve(DcArena *a, size_t size)
{
	Assert(size <= DC_ARENA_BLOCK / 4);
	if (unlikely(a->left < size) && !dc_arena_next_block(a))
		return NULL;
	return a->next;
}

/* Take the first used bytes (<= the reservation) of dc_arena_reserve. */
static inline void
dc_arena_commit(DcArena *a, size_t used)
{
	used = MAXALIGN(used);
	Assert(used <= a->left);
	a->next += used;
	a->left -= used;
}

/* FmtAllocFn of an arena: zeroed, MAXALIGNed, NULL when out of memory. */
static void *
dc_arena_alloc(void *ctx, size_t size)
{
	void	   *r = dc_arena_alloc_raw((DcArena *) ctx, size);

	if (r != NULL)
		memset(r, 0, MAXALIGN(size));
	return r;
}

/* dc_arena_alloc without the zeroing (FmtAllocator.alloc_raw). */
static void *
dc_arena_alloc_unzeroed(void *ctx, size_t size)
{
	return dc_arena_alloc_raw((DcArena *) ctx, size);
}

/* An FmtAllocator over an arena. */
FmtAllocator
dc_arena_allocator(DcArena *a)
{
	FmtAllocator alloc;

	alloc.alloc = dc_arena_alloc;
	alloc.alloc_raw = dc_arena_alloc_unzeroed;
	alloc.ctx = a;
	return alloc;
}

static bool dc_json_parse_fast(DcArena *arena, const char *text, size_t len,
							   DjValue *out, DjError *err);

/*
 * Reset the arena and parse buf[0..len) into it (the fast parser below when
 * it can, else dj_parse), or raise an ERROR as dc_json_parse does.
 */
DjValue
dc_json_parse_arena(DcArena *a, const char *buf, size_t len, const char *what,
					int errcode_val)
{
	DjValue		v;
	DjError		err;

	dc_arena_reset(a);
	if (!dc_json_parse_fast(a, buf, len, &v, &err))
		dc_json_report_error(&err, what, errcode_val);
	return v;
}

/*
 * Fast parser for log lines and statistics text.  fj_value builds exactly
 * the DjValue tree dj_parse builds (strings decoded and NUL-terminated,
 * numbers as their exact NUL-terminated token text, duplicates kept in
 * order), bump-allocated from a DcArena without zeroing, with the children
 * of each container gathered on the C stack instead of in doubling arena
 * arrays.  It handles what log lines and statistics hold: strings of
 * printable ASCII and valid UTF-8 with the two-character escapes (at most
 * FJ_ONE_PASS_MAX bytes), numbers, literals, nesting up to
 * DJ_DEFAULT_MAX_DEPTH.  Anything else (\u escapes, invalid JSON, out of
 * memory) makes it return false, and the caller parses the text again with
 * dj_parse, which decides (so errors and their messages stay dj_parse's).
 * Assert-enabled builds compare every tree it accepts with dj_parse's;
 * test/fuzz/fuzz_fjson.c does the same on fuzzed input.
 */
typedef struct FjParser
{
	const unsigned char *p;
	const unsigned char *end;
	DcArena    *arena;
} FjParser;

/* Children gathered on the C stack before a container is copied out. */
#define FJ_LOCAL_CHILDREN 16

static bool fj_value(FjParser *ps, DjValue *out, int depth);

/* Skip JSON white space. */
static inline void
fj_skip_ws(FjParser *ps)
{
	ps->p = dj_skip_ws(ps->p, ps->end);
}

/* Longest string fj_string takes (longer ones: dj_parse). */
#define FJ_ONE_PASS_MAX (DC_ARENA_BLOCK / 4 - 1)

/*
 * Parse a string at its opening quote into a NUL-terminated copy in the
 * arena.  False for anything but printable ASCII, valid UTF-8 and
 * two-character escapes.
 * One pass: the string is validated and decoded straight into room
 * reserved at the arena's bump pointer (the decoded form is never longer
 * than the source), eight bytes at a time between the special bytes.  A
 * string longer than FJ_ONE_PASS_MAX is not taken (false).
 */
static bool
fj_string(FjParser *ps, const char **str, uint32 *len)
{
	const unsigned char *s = ps->p + 1;
	const unsigned char *r = s;
	const unsigned char *limit;
	unsigned char *buf;
	unsigned char *w;
	size_t		room = Min((size_t) (ps->end - s), FJ_ONE_PASS_MAX);

	/* room + 1 bytes: at most room decoded bytes, then the NUL */
	buf = (unsigned char *) dc_arena_reserve(ps->arena, room + 1);
	if (buf == NULL)
		return false;
	limit = s + room;			/* r stays below: w - buf <= r - s < room */
	w = buf;
	for (;;)
	{
		unsigned char c;

#ifdef __SSE2__
		if (limit - r >= 16)
		{
			/* signed compare: bytes >= 0x80 are below 0x20 too */
			__m128i		x = _mm_loadu_si128((const __m128i *) r);
			int			m = _mm_movemask_epi8(
				_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
										  _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
							 _mm_cmplt_epi8(x, _mm_set1_epi8(0x20))));

			_mm_storeu_si128((__m128i *) w, x); /* only the bytes before a
												 * special one count */
			if (m == 0)
			{
				r += 16;
				w += 16;
				continue;
			}
			m = __builtin_ctz(m);
			r += m;
			w += m;
		}
		else
#endif
		if (limit - r >= 8)
		{
			uint64_t	x = dj_load8(r);
			uint64_t	m = dj_special_mask(x);

			memcpy(w, &x, 8);	/* only the bytes before a special one count */
			if (m == 0)
			{
				r += 8;
				w += 8;
				continue;
			}
			m = dj_first_flagged(m);
			r += m;
			w += m;
		}
		if (r >= limit)
			return false;		/* unterminated, or longer than FJ_ONE_PASS_MAX */
		c = *r;
		if (c == '"')
			break;
		if (c == '\\')
		{
			if (limit - r < 2)
				return false;
			c = dj_escape_byte[r[1]];
			if (c == 0)
				return false;	/* \u escapes and invalid ones */
			*w++ = c;
			r += 2;
			continue;
		}
		if (c >= 0x80)
		{
			/* UTF-8 as djson validates it (within limit, else false) */
			int			l = dj_utf8_seq_len(r, (size_t) (limit - r));

			if (l == 0)
				return false;
			memcpy(w, r, l);
			w += l;
			r += l;
			continue;
		}
		if (c < 0x20)
			return false;
		*w++ = c;
		r++;
	}
	*w = '\0';
	dc_arena_commit(ps->arena, (size_t) (w - buf) + 1);
	*str = (const char *) buf;
	*len = (uint32) (w - buf);
	ps->p = r + 1;
	return true;
}

/* Parse a number token (djson's grammar) into a NUL-terminated copy. */
static bool
fj_number(FjParser *ps, DjValue *out)
{
	const unsigned char *s = ps->p;
	const unsigned char *q;
	char	   *text;

	q = (const unsigned char *) dj_number_end((const char *) s,
											  (const char *) ps->end);
	if (q == NULL)
		return false;
	if ((size_t) (q - s) > DJ_MAX_NUMBER_LEN)
		return false;
	text = dc_arena_reserve(ps->arena, Max((size_t) (q - s) + 1, 16));
	if (text == NULL)
		return false;
	if (q - s <= 16 && ps->end - s >= 16)
		memcpy(text, s, 16);	/* a short token: one fixed-size copy */
	else
		memcpy(text, s, q - s);
	text[q - s] = '\0';
	dc_arena_commit(ps->arena, (size_t) (q - s) + 1);
	out->type = DJ_NUMBER;
	out->len = (uint32) (q - s);
	out->u.num = text;
	ps->p = q;
	return true;
}

/*
 * Copy n gathered children (the first min(n, FJ_LOCAL_CHILDREN) in local,
 * the rest in *spill, which may grow) into an exactly-sized arena array.
 */
static void *
fj_children(FjParser *ps, const void *local, const void *spill, uint32 n,
			size_t elem)
{
	uint32		nlocal = Min(n, FJ_LOCAL_CHILDREN);
	char	   *r;

	r = dc_arena_alloc_raw(ps->arena, Max(n, 1) * elem);
	if (r == NULL)
		return NULL;
	memcpy(r, local, nlocal * elem);
	if (n > nlocal)
		memcpy(r + nlocal * elem, spill, (n - nlocal) * elem);
	return r;
}

/*
 * Keep item (elem bytes) as child number n of a container: in local (an
 * array of FJ_LOCAL_CHILDREN on the C stack) while it has room, then in
 * the spill array *spill of capacity *cap (doubling, in the arena); false
 * when out of memory or the container is too large.
 */
static bool
fj_keep(FjParser *ps, void *local, void **spill, uint32 *cap, uint32 n,
		const void *item, size_t elem)
{
	uint32		k;

	if (n < FJ_LOCAL_CHILDREN)
	{
		memcpy((char *) local + (size_t) n * elem, item, elem);
		return true;
	}
	k = n - FJ_LOCAL_CHILDREN;

	if (k == *cap)
	{
		uint32		newcap = *cap ? *cap * 2 : 16;
		void	   *nd;

		if (newcap > JB_CMASK)
			return false;
		nd = dc_arena_alloc_raw(ps->arena, (size_t) newcap * elem);
		if (nd == NULL)
			return false;
		if (k > 0)
			memcpy(nd, *spill, (size_t) k * elem);
		*spill = nd;
		*cap = newcap;
	}
	memcpy((char *) *spill + (size_t) k * elem, item, elem);
	return true;
}

/*
 * After an array element or object member: ',' (*more) or the closing
 * byte (!*more), consumed with the white space before it; false for
 * anything else.
 */
static inline bool
fj_after_item(FjParser *ps, char close, bool *more)
{
	int			c = dj_after_item(&ps->p, ps->end, (unsigned char) close);

	*more = c == ',';
	return c != 0;
}

/* Parse an array at its '['. */
static bool
fj_array(FjParser *ps, DjValue *out, int depth)
{
	DjValue		local[FJ_LOCAL_CHILDREN];
	void	   *spill = NULL;
	uint32		cap = 0;
	uint32		n = 0;
	bool		more;

	if (!dj_open_container(&ps->p, ps->end, ']'))
	{
		do
		{
			DjValue		v;

			if (!fj_value(ps, &v, depth + 1))
				return false;
			if (!fj_keep(ps, local, &spill, &cap, n++, &v, sizeof(DjValue)))
				return false;
			if (!fj_after_item(ps, ']', &more))
				return false;
		} while (more);
	}
	out->type = DJ_ARRAY;
	out->len = n;
	out->u.items = fj_children(ps, local, spill, n, sizeof(DjValue));
	return out->u.items != NULL;
}

/* Parse an object at its '{'. */
static bool
fj_object(FjParser *ps, DjValue *out, int depth)
{
	DjMember	local[FJ_LOCAL_CHILDREN];
	void	   *spill = NULL;
	uint32		cap = 0;
	uint32		n = 0;
	bool		more;

	if (!dj_open_container(&ps->p, ps->end, '}'))
	{
		do
		{
			DjMember	m;

			fj_skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != '"')
				return false;
			if (!fj_string(ps, &m.key, &m.keylen))
				return false;
			fj_skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return false;
			ps->p++;
			if (!fj_value(ps, &m.value, depth + 1))
				return false;
			if (!fj_keep(ps, local, &spill, &cap, n++, &m, sizeof(DjMember)))
				return false;
			if (!fj_after_item(ps, '}', &more))
				return false;
		} while (more);
	}
	out->type = DJ_OBJECT;
	out->len = n;
	out->u.members = fj_children(ps, local, spill, n, sizeof(DjMember));
	return out->u.members != NULL;
}

/* Parse one value (depth as djson counts it). */
static bool
fj_value(FjParser *ps, DjValue *out, int depth)
{
	if (depth > DJ_DEFAULT_MAX_DEPTH)
		return false;
	fj_skip_ws(ps);
	if (ps->p >= ps->end)
		return false;
	switch (*ps->p)
	{
		case '{':
			return fj_object(ps, out, depth);
		case '[':
			return fj_array(ps, out, depth);
		case '"':
			out->type = DJ_STRING;
			return fj_string(ps, &out->u.str, &out->len);
		case 't':
		case 'f':
		case 'n':
			{
				const char *word = *ps->p == 't' ? "true" :
					*ps->p == 'f' ? "false" : "null";
				size_t		l = strlen(word);

				if ((size_t) (ps->end - ps->p) < l ||
					memcmp(ps->p, word, l) != 0)
					return false;
				ps->p += l;
				out->type = *word == 't' ? DJ_TRUE :
					*word == 'f' ? DJ_FALSE : DJ_NULL;
				out->len = 0;
				out->u.str = NULL;
				return true;
			}
		default:
			return fj_number(ps, out);
	}
}


/*
 * Parse text[0..len) into arena (not reset here): with fj_parse when it
 * can, else with dj_parse.  Returns whether the text is valid JSON (*out
 * set); on failure *err is set when err is not NULL.
 */
static bool
dc_json_parse_fast(DcArena *arena, const char *text, size_t len, DjValue *out,
				   DjError *err)
{
	FjParser	ps;
	FmtAllocator alloc;
	DjError		local_err;

	ps.p = (const unsigned char *) text;
	ps.end = ps.p + len;
	ps.arena = arena;
	if (fj_value(&ps, out, 0))
	{
		fj_skip_ws(&ps);
		if (ps.p == ps.end)
		{
#ifdef USE_ASSERT_CHECKING
			DjValue		ref;
			MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
													  "deltacc fj check",
													  ALLOCSET_DEFAULT_SIZES);

			alloc = dc_fmt_allocator(cxt);
			Assert(dj_parse(text, len, &alloc, DJ_DEFAULT_MAX_DEPTH, &ref,
							&local_err));
			Assert(dj_equal(out, &ref));
			MemoryContextDelete(cxt);
#endif
			return true;
		}
	}
	alloc = dc_arena_allocator(arena);
	return dj_parse(text, len, &alloc, DJ_DEFAULT_MAX_DEPTH, out,
					err ? err : &local_err);
}

/*
 * Scratch space of dc_json_text_to_jsonb_ext, created once per backend: an
 * arena for the parse tree and a context for the JsonbValue tree, both
 * emptied after every use (and before, in case an ERROR left something
 * behind).  The function calls no code that could use them recursively.
 */
static DcArena *dc_scratch_arena = NULL;
static MemoryContext dc_scratch_cxt = NULL;

/*
 * The layouts of the last statistics texts (dc_json_stats_to_jsonb_keys),
 * the one matched last first; a layout made from a text none matched goes
 * last, replacing the last one when all places are taken, so that a layout
 * seen once displaces none that repeats.  Writers mix layouts (nullCount
 * first or last, a column's min and max missing on some files, columns in
 * a new order on every file); past the first few, a text is tried only
 * against the layouts of its keys (their signature, see
 * stats_key_signature), so that many can be kept.
 */
typedef struct StatsLayout StatsLayout;

#define DC_STATS_LAYOUTS 32
#define STATS_LAYOUT_EXACT_TRIES 3	/* layouts a text is matched byte for
										 * byte against (then by its keys) */
#define STATS_LAYOUT_ESCAPED_TRIES 4	/* layouts a line's text is tried on */

static StatsLayout *dc_stats_layouts[DC_STATS_LAYOUTS];
static int	dc_n_stats_layouts = 0;
static int	dc_stats_layout_misses = 0;	/* texts in a row none matched */
static StatsLayout *dc_escaped_layout = NULL;	/* the escaped match's */
static StatsLayout *dc_keyed_layout = NULL;	/* keyed matches try this one */

/*
 * dc_layout_seq counts the matches into a layout's slots and the layouts
 * made; the last match dc_json_stats_match_escaped made is the escaped
 * text at dc_escaped_text (inside the line it was read from), valid while
 * dc_layout_seq is still dc_escaped_seq.
 */
static uint64 dc_layout_seq = 0;
static const char *dc_escaped_text = NULL;
static size_t dc_escaped_len = 0;
static uint64 dc_escaped_seq = 0;

/*
 * Forget the scratch space without freeing it: for standalone harnesses
 * (test/fuzz) whose allocator stub frees all memory between inputs.
 */
void
dc_json_scratch_forget(void)
{
	dc_scratch_arena = NULL;
	dc_scratch_cxt = NULL;
	dc_n_stats_layouts = 0;
	dc_escaped_layout = NULL;
	dc_keyed_layout = NULL;
	dc_escaped_text = NULL;
}

static void
dc_scratch_prepare(void)
{
	if (dc_scratch_cxt == NULL)
	{
		dc_scratch_cxt = AllocSetContextCreate(TopMemoryContext,
											   "deltacc JSON scratch context",
											   ALLOCSET_DEFAULT_SIZES);
		dc_scratch_arena = dc_arena_create(TopMemoryContext);
	}
	MemoryContextReset(dc_scratch_cxt);
	dc_arena_reset(dc_scratch_arena);
}

/*
 * The jsonb of a tree in the scratch space (CurrentMemoryContext; NULL when
 * jsonb cannot represent it), and peek(arg, tree) when it can and peek is
 * not NULL.
 */
static Jsonb *
scratch_tree_to_jsonb(const DjValue *v,
					  void (*peek) (void *arg, const DjValue *v), void *arg)
{
	Jsonb	   *result = dj_to_jsonb_in(v, dc_scratch_cxt, false);

	if (result != NULL && peek != NULL)
		peek(arg, v);
	return result;
}

/*
 * Parse JSON text exactly and convert it to Jsonb (CurrentMemoryContext);
 * NULL when the text is not valid JSON or holds a number or string jsonb
 * cannot represent.  When the conversion succeeds and peek is not NULL,
 * peek(arg, tree) is called on the parse tree first (it must not keep
 * pointers into it).  The tree lives in a scratch context emptied before
 * returning.
 */
Jsonb *
dc_json_text_to_jsonb_ext(const char *text, size_t len,
						  void (*peek) (void *arg, const DjValue *v),
						  void *arg)
{
	DjValue		v;
	Jsonb	   *result = NULL;

	dc_scratch_prepare();
	if (dc_json_parse_fast(dc_scratch_arena, text, len, &v, NULL))
		result = scratch_tree_to_jsonb(&v, peek, arg);
	MemoryContextReset(dc_scratch_cxt);
	dc_arena_reset(dc_scratch_arena);
	return result;
}

/* ---------------------------------------------------------------------
 * Statistics texts of one layout
 *
 * A writer repeats one statistics layout on every add of a table: the same
 * keys in the same order, only the numbers and strings change.  A text
 * laid out like the last one parsed (jshape.h: same bytes between the
 * scalar values, each scalar of the same kind, strings without escapes) is
 * not parsed: js_match finds its values, and the layout's jsonb plan (below)
 * writes its jsonb straight from them.  Its parse tree, when a caller wants
 * to peek at it or the plan declines, is the model's tree with the scalar
 * leaves pointed at the new values (in one copy of the text, each value
 * NUL-terminated there, as the parser would give it).  Any other text is
 * parsed as usual, and its layout remembered (at most a few times in a row
 * when layouts keep changing).
 * ---------------------------------------------------------------------
 */

/*
 * The jsonb plan of a layout.  Every text of a layout has the same
 * containers and keys, so the same key order in jsonb; only the scalars
 * differ.  A plan, made once per layout from the model's tree, is
 * jbw_value unrolled for that tree: a list of steps in the order jsonb
 * stores things.  An OPEN step copies a container's fixed part, prepared
 * once: its header word, its JEntries (the keys' final, the values' zero
 * until filled), and its keys sorted as jsonb sorts them, without the
 * duplicates jsonb drops (the values of dropped members get no steps:
 * their slots are matched but never written).  A STRING, NUMBER or WORD
 * step writes one scalar of the text (a string slot's bytes as they are,
 * since a slot's string has no escapes; a number with
 * dj_number_short_numeric, or through jbw_scalar for other forms; true,
 * false or null, whichever the text has) and fills its JEntry, whose place
 * and kind (length or end offset) the step knows; a CLOSE step fills the
 * container's own JEntry in its parent.  The padding before containers
 * and numerics depends on the lengths before them, so it is worked out
 * while writing, as jbw_value does.  The result is the bytes jbw_value
 * writes for the text's tree, which assert-enabled builds check against a
 * parse of every text.
 */
typedef enum JbStepKind
{
	JBS_OPEN,
	JBS_STRING,
	JBS_NUMBER,
	JBS_WORD,
	JBS_CLOSE
} JbStepKind;

typedef struct JbStep
{
	JbStepKind	kind;
	bool		has_off;		/* values: the JEntry holds the end offset */
	int			idx;			/* values: index of the JEntry in the
								 * container (-1: the top-level container) */
	int			slot;			/* scalars: the slot */
	int			fixed_off;		/* OPEN: its fixed part in plan->fixed */
	int			fixed_len;
	int			keylen;			/* OPEN: bytes of its keys */
} JbStep;

/* Deepest container nesting a plan takes (deeper: the tree writer). */
#define JB_PLAN_MAX_DEPTH 16

typedef struct JbPlan
{
	JbStep	   *steps;
	int			nsteps;
	int			cap;
	StringInfoData fixed;		/* the containers' fixed parts */
	int			bound;			/* bytes a result can take beyond the
								 * text's length (see plan_write) */
	MemoryContext cxt;			/* the layout's: out lives there */
	char	   *out;			/* plan_write's buffer */
	int			out_size;
} JbPlan;

/*
 * A layout's model as a tree of its containers' keys, for texts whose
 * objects hold the model's members in another order (delta-rs writes the
 * statistics columns in a new order on every file): each scalar leaf
 * knows its slot (in the model's text order, as js_match numbers them),
 * each object its keys, so that a text walked in its own order can put
 * each value in the slot the model's value of that key has.  Built only
 * for a model whose objects have no duplicate key and at most
 * KEYED_MAX_MEMBERS members.
 */
typedef struct KeyedNode
{
	DjType		type;			/* DJ_OBJECT, DJ_ARRAY or a scalar's */
	int			slot;			/* scalars: its slot */
	uint32		n;				/* containers: members / items */
	const char **keys;			/* objects: [n], the model's order */
	uint32	   *keylens;
	struct KeyedNode *children; /* [n] */
} KeyedNode;

#define KEYED_MAX_MEMBERS 1024

struct StatsLayout
{
	MemoryContext cxt;			/* owns everything below; reset per build */
	bool		valid;
	JsShape		shape;
	DjValue		root;			/* the model's tree (dj_parse, in cxt) */
	DjValue   **leaf;			/* [shape.nslots]: its scalars, text order */
	JsSlot	   *slots;			/* [shape.nslots] */
	bool		has_plan;		/* plan is usable */
	JbPlan		plan;
	KeyedNode  *keyed;			/* the model for texts of its keys in any
								 * order (layout_keyed_match), or NULL */
	/* a keyed peek's tree (layout_peek_prepare) */
	const char *const *peek_keys;	/* the keys it was made for, or NULL */
	bool		peek_ok;		/* it can be made */
	DjValue		peek_root;		/* object of the members with those keys */
	int		   *peek_member;	/* [peek_root.len]: index in root */
	int		   *peek_first;		/* [peek_root.len]: first slot */
	int		   *peek_nslots;	/* [peek_root.len]: number of slots */

	/*
	 * The same layout as the text appears inside a JSON string (each '"'
	 * written as backslash + '"'), for texts matched where a log line holds
	 * them (dc_json_stats_match_escaped); made only for a model of
	 * printable ASCII (no other escapes), its slots then the same as
	 * shape's, in the same order.
	 */
	bool		has_eshape;
	JsShape		eshape;
	uint64		sig_sum;		/* the model's key signature */
	uint32		sig_nkeys;		/* (stats_key_signature) */
};

/* Rebuild after each of the first few misses in a row, then every 64th. */
#define STATS_LAYOUT_EAGER_MISSES 4
#define STATS_LAYOUT_RETRY_EVERY 64

/*
 * Once every place is taken, a layout is made only from a text whose keys
 * a recent miss had too: making one costs some twenty parses of the text,
 * and a layout met once (a file missing one column's statistics) would
 * only displace one that repeats.  The keys are told by a signature that
 * ignores their order and nesting (the sum of a hash of each key, and
 * their number); two texts with the same signature may still be of
 * different layouts, which only costs a layout made in vain or a match
 * tried in vain.
 */
#define STATS_MISS_SIGNATURES 32

typedef struct StatsKeySignature
{
	uint64		sum;
	uint32		nkeys;
} StatsKeySignature;

static StatsKeySignature dc_miss_sigs[STATS_MISS_SIGNATURES];
static int	dc_n_miss_sigs = 0;
static int	dc_next_miss_sig = 0;

/*
 * stats_key_signature: the signature of the keys of JSON text[0..len)
 * (any string followed by ':' is a key).  Reads only inside the text, for
 * any bytes; allocates nothing.
 */
static StatsKeySignature
stats_key_signature(const char *text, size_t len)
{
	const char *p = text;
	const char *end = text + len;
	StatsKeySignature sig = {0, 0};

	while (p < end)
	{
		const char *q;
		const char *r;

		p = memchr(p, '"', end - p);
		if (p == NULL)
			break;
		/* the closing quote: one not escaped by an odd run of backslashes */
		q = p + 1;
		for (;;)
		{
			const char *b;

			q = memchr(q, '"', end - q);
			if (q == NULL)
				return sig;
			for (b = q; b > p + 1 && b[-1] == '\\'; b--)
				;
			if ((q - b) % 2 == 0)
				break;
			q++;
		}
		r = q + 1;
		while (r < end && (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r'))
			r++;
		if (r < end && *r == ':')
		{
			/* FNV-1a over the key's bytes, then a final mix */
			uint64		h = UINT64CONST(14695981039346656037);
			const unsigned char *k;

			for (k = (const unsigned char *) p + 1; k < (const unsigned char *) q; k++)
				h = (h ^ *k) * UINT64CONST(1099511628211);
			h ^= h >> 29;
			h *= UINT64CONST(0xbf58476d1ce4e5b9);
			h ^= h >> 32;
			sig.sum += h;
			sig.nkeys++;
		}
		p = r;
	}
	return sig;
}

/*
 * stats_miss_repeats: whether a recent miss had sig (that entry then
 * used up); else sig is remembered, replacing the oldest.
 */
static bool
stats_miss_repeats(StatsKeySignature sig)
{
	int			i;

	for (i = 0; i < dc_n_miss_sigs; i++)
		if (dc_miss_sigs[i].sum == sig.sum && dc_miss_sigs[i].nkeys == sig.nkeys)
		{
			dc_miss_sigs[i].nkeys = PG_UINT32_MAX;	/* (no text has that many) */
			return true;
		}
	dc_miss_sigs[dc_next_miss_sig] = sig;
	dc_next_miss_sig = (dc_next_miss_sig + 1) % STATS_MISS_SIGNATURES;
	if (dc_n_miss_sigs < STATS_MISS_SIGNATURES)
		dc_n_miss_sigs++;
	return false;
}

/* collect v's scalar leaves in text order into leaf[*n] (room: max) */
static bool
layout_leaves(DjValue *v, DjValue **leaf, int max, int *n)
{
	uint32		i;

	switch (v->type)
	{
		case DJ_OBJECT:
			for (i = 0; i < v->len; i++)
				if (!layout_leaves(&v->u.members[i].value, leaf, max, n))
					return false;
			return true;
		case DJ_ARRAY:
			for (i = 0; i < v->len; i++)
				if (!layout_leaves(&v->u.items[i], leaf, max, n))
					return false;
			return true;
		default:
			if (*n >= max)
				return false;
			leaf[(*n)++] = v;
			return true;
	}
}

/* the slot kind a scalar leaf of the model must have */
static bool
layout_kind_matches(const DjValue *v, JsSlotKind kind)
{
	switch (v->type)
	{
		case DJ_NUMBER:
			return kind == JS_SLOT_NUMBER;
		case DJ_STRING:
			return kind == JS_SLOT_STRING;
		case DJ_TRUE:
		case DJ_FALSE:
		case DJ_NULL:
			return kind == JS_SLOT_TRUE || kind == JS_SLOT_FALSE ||
				kind == JS_SLOT_NULL;
		default:
			return false;
	}
}

/* Number of scalar leaves of v (the slots it takes). */
static int
plan_count_leaves(const DjValue *v)
{
	int			n = 0;
	uint32		i;

	check_stack_depth();
	if (v->type == DJ_OBJECT)
		for (i = 0; i < v->len; i++)
			n += plan_count_leaves(&v->u.members[i].value);
	else if (v->type == DJ_ARRAY)
		for (i = 0; i < v->len; i++)
			n += plan_count_leaves(&v->u.items[i]);
	else
		n = 1;
	return n;
}

/*
 * Append a step of the given kind to the plan (CurrentMemoryContext: the
 * layout's) and return it; the pointer is good until the next call.
 * idx is the JEntry the step's value fills in its container (-1: none).
 */
static JbStep *
plan_step(JbPlan *plan, JbStepKind kind, int idx)
{
	JbStep	   *st;

	if (plan->nsteps == plan->cap)
	{
		plan->cap = plan->cap ? plan->cap * 2 : 64;
		plan->steps = plan->steps ?
			repalloc(plan->steps, sizeof(JbStep) * plan->cap) :
			palloc(sizeof(JbStep) * plan->cap);
	}
	st = &plan->steps[plan->nsteps++];
	memset(st, 0, sizeof(JbStep));
	st->kind = kind;
	st->idx = idx;
	st->has_off = idx >= 0 && idx % JB_OFFSET_STRIDE == 0;
	return st;
}

/* Append n zero JEntries to a container's fixed part. */
static void
plan_zero_entries(StringInfo fixed, uint32 n)
{
	int			off;

	enlargeStringInfo(fixed, (int) (n * sizeof(JEntry)));
	off = fixed->len;
	memset(fixed->data + off, 0, n * sizeof(JEntry));
	fixed->len += (int) (n * sizeof(JEntry));
}

/*
 * Add the steps that write v, whose first scalar leaf is slot first_slot,
 * as the value whose JEntry is number idx of its container (-1: the top
 * level), at container depth depth, to the plan (memory:
 * CurrentMemoryContext, the layout's); plan->bound grows by the most each
 * step can write beyond the text's bytes.  False when the plan cannot
 * take v (nesting too deep).
 */
static bool
plan_add(JbPlan *plan, const DjValue *v, int first_slot, int idx, int depth)
{
	uint32		n = v->len;
	uint32		head;
	int			fixed_off = plan->fixed.len;
	int			keylen = 0;
	uint32		npairs = 0;
	uint32		i;
	JbStep	   *st;

	CHECK_FOR_INTERRUPTS();
	check_stack_depth();
	switch (v->type)
	{
		case DJ_STRING:
			/* its bytes are the text's */
			plan_step(plan, JBS_STRING, idx)->slot = first_slot;
			return true;
		case DJ_NUMBER:
			plan->bound += 3 + DC_NUMERIC_SHORT_MAX;
			plan_step(plan, JBS_NUMBER, idx)->slot = first_slot;
			return true;
		case DJ_TRUE:
		case DJ_FALSE:
		case DJ_NULL:
			plan_step(plan, JBS_WORD, idx)->slot = first_slot;
			return true;
		default:
			break;
	}
	if (depth >= JB_PLAN_MAX_DEPTH)
		return false;
	if (v->type == DJ_ARRAY)
	{
		int			slot = first_slot;

		head = n | JB_FARRAY;
		appendBinaryStringInfo(&plan->fixed, (const char *) &head,
							   sizeof(uint32));
		plan_zero_entries(&plan->fixed, n);
		st = plan_step(plan, JBS_OPEN, idx);
		st->fixed_off = fixed_off;
		st->fixed_len = plan->fixed.len - fixed_off;
		st->keylen = 0;
		plan->bound += 3 + st->fixed_len;
		for (i = 0; i < n; i++)
		{
			if (!plan_add(plan, &v->u.items[i], slot, (int) i, depth + 1))
				return false;
			slot += plan_count_leaves(&v->u.items[i]);
		}
	}
	else
	{
		const DjMember **m = palloc(sizeof(DjMember *) * Max(n, 1));
		int		   *start = palloc(sizeof(int) * Max(n, 1));

		/* each member's first slot, in text order */
		for (i = 0; i < n; i++)
		{
			m[i] = &v->u.members[i];
			start[i] = i == 0 ? first_slot :
				start[i - 1] + plan_count_leaves(&v->u.members[i - 1].value);
		}
		npairs = dj_sort_unique_members(m, n);
		head = npairs | JB_FOBJECT;
		appendBinaryStringInfo(&plan->fixed, (const char *) &head,
							   sizeof(uint32));
		for (i = 0; i < npairs; i++)
		{
			JEntry		meta = JENTRY_ISSTRING | m[i]->keylen;

			keylen += (int) m[i]->keylen;
			if (i % JB_OFFSET_STRIDE == 0)
				meta = JENTRY_ISSTRING | keylen | JENTRY_HAS_OFF;
			appendBinaryStringInfo(&plan->fixed, (const char *) &meta,
								   sizeof(JEntry));
		}
		plan_zero_entries(&plan->fixed, npairs);
		for (i = 0; i < npairs; i++)
			appendBinaryStringInfo(&plan->fixed, m[i]->key, (int) m[i]->keylen);
		st = plan_step(plan, JBS_OPEN, idx);
		st->fixed_off = fixed_off;
		st->fixed_len = plan->fixed.len - fixed_off;
		st->keylen = keylen;
		plan->bound += 3 + st->fixed_len;
		for (i = 0; i < npairs; i++)
			if (!plan_add(plan, &m[i]->value, start[m[i] - v->u.members],
						  (int) (npairs + i), depth + 1))
				return false;
		pfree(m);
		pfree(start);
	}
	plan_step(plan, JBS_CLOSE, idx);
	return true;
}

/* A container being written by plan_write. */
typedef struct JbFrame
{
	int			base;			/* buffer offset before its padding */
	int			entries;		/* buffer offset of its JEntries */
	int			totallen;		/* bytes of its data so far */
} JbFrame;

/*
 * The jsonb of the text whose slots (matched against the layout of plan)
 * are slots, palloc'd in CurrentMemoryContext; NULL, leaving nothing
 * allocated there, when a number does not fit numeric (the general path
 * decides).  It is written in plan->out (the plan's own buffer, which
 * grows as needed), then copied out at its exact size.
 *
 * The buffer has room for the most the text can make: each
 * container's fixed part and up to 3 bytes of padding before it, for each
 * number up to 3 bytes of padding and DC_NUMERIC_SHORT_MAX bytes (a
 * number dj_number_short_numeric does not take makes room for itself and
 * for all that again), and the strings' bytes, which are fewer than the
 * text's; so the writes below need no checks.  The text is at most
 * JS_MAX_TEXT bytes, so the result stays far below jsonb's size limits
 * (each text byte makes at most ~8 bytes of jsonb: a one-digit number and
 * its comma become a JEntry, up to 3 bytes of padding and an 8-byte
 * numeric).
 */
static Jsonb *
plan_write(JbPlan *plan, const char *text, size_t textlen,
		   const JsSlot *slots, JsQuoting quoting)
{
	JbFrame		frames[JB_PLAN_MAX_DEPTH];
	JbFrame    *fr = NULL;
	int			depth = -1;
	StringInfoData buf;
	char	   *d;
	int			len = VARHDRSZ;
	int			need = plan->bound + (int) textlen + VARHDRSZ + sizeof(uint32);
	int			room = need;
	const JbStep *st;
	const JbStep *end = plan->steps + plan->nsteps;
	Jsonb	   *result;

	Assert(textlen <= JS_MAX_TEXT);
	if (plan->out_size < room)
	{
		plan->out_size = Max(room, plan->out_size * 2);
		plan->out = plan->out ?
			repalloc(plan->out, plan->out_size) :
			MemoryContextAlloc(plan->cxt, plan->out_size);
	}
	d = plan->out;
	room = plan->out_size;
	for (st = plan->steps; st < end; st++)
	{
		const JsSlot *sl = NULL;
		JEntry		meta;
		int			vlen;
		int			at;

		switch (st->kind)
		{
			case JBS_OPEN:
				CHECK_FOR_INTERRUPTS();
				fr = &frames[++depth];
				fr->base = len;
				memset(d + len, 0, sizeof(uint32));	/* padding */
				len = INTALIGN(len);
				memcpy(d + len, plan->fixed.data + st->fixed_off,
					   st->fixed_len);
				fr->entries = len + sizeof(uint32);
				fr->totallen = st->keylen;
				len += st->fixed_len;
				continue;
			case JBS_STRING:
				sl = &slots[st->slot];
				if (sl->escaped)
					vlen = (int) jstr_decode(text + sl->off,
											 text + sl->off + sl->len,
											 quoting, d + len);
				else
				{
					memcpy(d + len, text + sl->off, sl->len);
					vlen = (int) sl->len;
				}
				len += vlen;
				meta = JENTRY_ISSTRING;
				break;
			case JBS_NUMBER:
				sl = &slots[st->slot];
				memset(d + len, 0, sizeof(uint32));	/* padding */
				at = INTALIGN(len);
				vlen = dj_number_short_numeric(text + sl->off, sl->len, d + at);
				if (vlen > 0)
				{
					vlen += at - len;	/* the padding counts */
					len += vlen;
				}
				meta = JENTRY_ISNUMERIC;
				if (vlen == 0)
				{
					/*
					 * other forms: a NUL-terminated token for jbw_scalar (not
					 * jbw_value, whose short-number try was just made)
					 */
					char		tok[JS_MAX_NUMBER + 1];
					DjValue		v;
					JEntry		header;
					bool		ok;
					MemoryContext old;

					if (sl->len > JS_MAX_NUMBER)
						ok = false;
					else
					{
						memcpy(tok, text + sl->off, sl->len);
						tok[sl->len] = '\0';
						v.type = DJ_NUMBER;
						v.len = (uint32) sl->len;
						v.u.num = tok;
						buf.data = d;
						buf.len = len;
						buf.maxlen = room;
						buf.cursor = 0;
						old = MemoryContextSwitchTo(dc_scratch_cxt);
						ok = jbw_scalar(&buf, &v, &header, false);
						MemoryContextSwitchTo(old);
						/* room again for all the plan's worst case */
						if (ok)
							enlargeStringInfo(&buf, need);
						d = plan->out = buf.data;
						room = plan->out_size = buf.maxlen;
					}
					if (!ok)
						return NULL;
					vlen = buf.len - len;
					len = buf.len;
					Assert((int) JBE_OFFLENFLD(header) == vlen);
				}
				break;
			case JBS_WORD:
				sl = &slots[st->slot];
				meta = sl->kind == JS_SLOT_TRUE ? JENTRY_ISBOOL_TRUE :
					sl->kind == JS_SLOT_FALSE ? JENTRY_ISBOOL_FALSE :
					JENTRY_ISNULL;
				vlen = 0;
				break;
			case JBS_CLOSE:
			default:
				vlen = len - fr->base;
				if (--depth < 0)
					continue;
				fr = &frames[depth];
				meta = JENTRY_ISCONTAINER;
				break;
		}
		/* the value's JEntry in its container */
		fr->totallen += vlen;
		meta |= st->has_off ? (JEntry) fr->totallen | JENTRY_HAS_OFF :
			(JEntry) vlen;
		memcpy(d + fr->entries + st->idx * sizeof(JEntry), &meta,
			   sizeof(JEntry));
	}
	Assert(depth == -1 && len <= room);
	SET_VARSIZE(d, len);
	result = palloc(len);
	memcpy(result, d, len);
	return result;
}

/*
 * Make the layout's jsonb plan (in lay->cxt, which is current) from its
 * model tree; lay->has_plan says whether it could.  A top-level scalar
 * (jsonb wraps it in a raw-scalar array) and nesting beyond
 * JB_PLAN_MAX_DEPTH are left to the tree writer.
 */
static void
plan_build(StatsLayout *lay)
{
	JbPlan	   *plan = &lay->plan;

	lay->has_plan = false;
	memset(plan, 0, sizeof(JbPlan));
	plan->cxt = lay->cxt;
	if (lay->root.type != DJ_OBJECT && lay->root.type != DJ_ARRAY)
		return;
	initStringInfo(&plan->fixed);
	if (!plan_add(plan, &lay->root, 0, -1, 0))
		return;
	lay->has_plan = true;
}

/*
 * An empty layout (nothing valid), allocated in its own context under
 * parent: deleting lay->cxt frees all of it.
 */
static StatsLayout *
layout_new(MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent,
											  "deltacc statistics layout",
											  ALLOCSET_SMALL_SIZES);
	StatsLayout *lay = MemoryContextAllocZero(cxt, sizeof(StatsLayout));

	lay->cxt = cxt;
	return lay;
}

/*
 * unescape_quotes_copy: text[0 .. len), a text an escaped shape matched
 * (inside a JSON string), as the string holds it: its escapes decoded (the
 * literals' are backslash + '"' only, the slots' any); palloc'd,
 * NUL-terminated.
 */
static char *
unescape_quotes_copy(const char *text, size_t len)
{
	char	   *plain = palloc(len + 1);

	plain[jstr_decode(text, text + len, JS_PLAIN, plain)] = '\0';
	return plain;
}

/*
 * slot_text: the characters of slot sl of a text at base in quoting q
 * (strings decoded; other tokens as they are), palloc'd; *len its length.
 */
static char *
slot_text(const char *base, const JsSlot *sl, JsQuoting q, size_t *len)
{
	char	   *t = palloc(sl->len + 1);

	if (sl->kind == JS_SLOT_STRING && sl->escaped)
		*len = jstr_decode(base + sl->off, base + sl->off + sl->len, q, t);
	else
	{
		memcpy(t, base + sl->off, sl->len);
		*len = sl->len;
	}
	return t;
}

/*
 * layout_build_escaped: lay's escaped shape (see StatsLayout), from its
 * model text (valid, just matched into lay->slots) written as a JSON
 * string holds it (dc_json_append_string_len's escapes), when its slots
 * are the plain shape's: as many, of the same kinds, with the same
 * characters; in CurrentMemoryContext (lay->cxt).
 */
static void
layout_build_escaped(StatsLayout *lay, const char *text, size_t len)
{
	FmtAllocator alloc = dc_fmt_allocator(lay->cxt);
	StringInfoData esc;
	const char *body;
	size_t		blen;
	size_t		consumed;
	JsSlot	   *eslots;
	int			k;

	initStringInfo(&esc);
	dc_json_append_string_len(&esc, text, len);
	body = esc.data + 1;		/* without the quotes */
	blen = esc.len - 2;
	eslots = palloc(sizeof(JsSlot) * Max(lay->shape.nslots, 1));
	if (!js_build(&lay->eshape, body, blen, JS_ESCAPED, &alloc) ||
		lay->eshape.nslots != lay->shape.nslots ||
		!js_match(&lay->eshape, body, body + blen, eslots, &consumed, NULL,
				  NULL) ||
		consumed != blen)
	{
		pfree(esc.data);
		pfree(eslots);
		return;
	}
	for (k = 0; k < lay->shape.nslots; k++)
	{
		size_t		l1;
		size_t		l2;
		char	   *t1;
		char	   *t2;
		bool		same;

		if (eslots[k].kind != lay->slots[k].kind)
			break;
		t1 = slot_text(body, &eslots[k], JS_ESCAPED, &l1);
		t2 = slot_text(text, &lay->slots[k], JS_PLAIN, &l2);
		same = l1 == l2 && memcmp(t1, t2, l1) == 0;
		pfree(t1);
		pfree(t2);
		if (!same)
			break;
	}
	lay->has_eshape = (k == lay->shape.nslots);
	/* (the shape keeps its own copy of the model) */
	pfree(esc.data);
	pfree(eslots);
}

/*
 * keyed_build: the KeyedNode of model value v whose first scalar is slot
 * *slot (advanced past its scalars), in CurrentMemoryContext (the
 * layout's); false when the model cannot have one (a duplicate key, too
 * many members, nesting beyond JB_PLAN_MAX_DEPTH).
 */
static bool
keyed_build(const DjValue *v, KeyedNode *node, int *slot, int depth)
{
	uint32		i,
				j;

	node->type = v->type;
	node->n = 0;
	if (v->type != DJ_OBJECT && v->type != DJ_ARRAY)
	{
		node->slot = (*slot)++;
		return true;
	}
	if (depth >= JB_PLAN_MAX_DEPTH || v->len > KEYED_MAX_MEMBERS)
		return false;
	node->n = v->len;
	node->children = palloc0(sizeof(KeyedNode) * Max(v->len, 1));
	if (v->type == DJ_OBJECT)
	{
		node->keys = palloc(sizeof(char *) * Max(v->len, 1));
		node->keylens = palloc(sizeof(uint32) * Max(v->len, 1));
	}
	for (i = 0; i < v->len; i++)
	{
		const DjValue *c = v->type == DJ_OBJECT ? &v->u.members[i].value :
			&v->u.items[i];

		if (v->type == DJ_OBJECT)
		{
			const DjMember *m = &v->u.members[i];

			for (j = 0; j < i; j++)
				if (node->keylens[j] == m->keylen &&
					memcmp(node->keys[j], m->key, m->keylen) == 0)
					return false;	/* a duplicate key: the last one counts */
			node->keys[i] = m->key;
			node->keylens[i] = m->keylen;
		}
		if (!keyed_build(c, &node->children[i], slot, depth + 1))
			return false;
	}
	return true;
}

/* A text being walked by layout_keyed_match. */
typedef struct KeyedScan
{
	const char *start;			/* the text */
	const char *p;
	const char *end;
	JsSlot	   *slots;			/* the layout's, filled in model order */
} KeyedScan;

static bool keyed_value(KeyedScan *ks, const KeyedNode *node);

/* the plain string at ks->p (a key): its bytes, ks->p past it */
static inline bool
keyed_key(KeyedScan *ks, const char **key, uint32 *len)
{
	const char *q;

	if (ks->p >= ks->end || *ks->p != '"')
		return false;
	q = (const char *) dj_plain_span((const unsigned char *) ks->p + 1,
									 (const unsigned char *) ks->end);
	if (q >= ks->end || *q != '"')
		return false;			/* escapes: not the model's literal key */
	*key = ks->p + 1;
	*len = (uint32) (q - *key);
	ks->p = q + 1;
	return true;
}

/* skip white space, then the byte c; false when it is not there */
static inline bool
keyed_byte(KeyedScan *ks, char c)
{
	ks->p = (const char *) dj_skip_ws((const unsigned char *) ks->p,
									  (const unsigned char *) ks->end);
	if (ks->p >= ks->end || *ks->p != c)
		return false;
	ks->p++;
	return true;
}

/* is the model's key i of node the len bytes at key? (first byte first) */
static inline bool
keyed_key_is(const KeyedNode *node, uint32 i, const char *key, uint32 len)
{
	return node->keylens[i] == len &&
		(len == 0 || (node->keys[i][0] == key[0] &&
					  memcmp(node->keys[i] + 1, key + 1, len - 1) == 0));
}

/*
 * keyed_container: the object or array at ks->p (its opening byte
 * consumed) against node: every member once, none the model lacks.
 */
static bool
keyed_container(KeyedScan *ks, const KeyedNode *node)
{
	bool		seen[KEYED_MAX_MEMBERS];
	char		close = node->type == DJ_OBJECT ? '}' : ']';
	uint32		count = 0;
	uint32		k = 0;

	if (node->type == DJ_OBJECT)
		memset(seen, 0, node->n);
	ks->p = (const char *) dj_skip_ws((const unsigned char *) ks->p,
									  (const unsigned char *) ks->end);
	if (ks->p < ks->end && *ks->p == close)
	{
		ks->p++;
		return node->n == 0;
	}
	for (;;)
	{
		if (node->type == DJ_OBJECT)
		{
			const char *key;
			uint32		len;
			uint32		i;

			ks->p = (const char *) dj_skip_ws((const unsigned char *) ks->p,
											  (const unsigned char *) ks->end);
			if (!keyed_key(ks, &key, &len) || !keyed_byte(ks, ':'))
				return false;
			/* the model's member of that key: first where the text has it */
			if (count < node->n && keyed_key_is(node, count, key, len))
				k = count;
			else
			{
				for (i = 0; i < node->n; i++)
					if (keyed_key_is(node, i, key, len))
						break;
				if (i == node->n)
					return false;
				k = i;
			}
			if (seen[k])
				return false;	/* a duplicate key in the text */
			seen[k] = true;
		}
		else
		{
			if (count >= node->n)
				return false;
			k = count;
		}
		if (!keyed_value(ks, &node->children[k]))
			return false;
		count++;
		ks->p = (const char *) dj_skip_ws((const unsigned char *) ks->p,
										  (const unsigned char *) ks->end);
		if (ks->p >= ks->end)
			return false;
		if (*ks->p == ',')
		{
			ks->p++;
			continue;
		}
		if (*ks->p != close)
			return false;
		ks->p++;
		return count == node->n;
	}
}

/* the value at ks->p (white space first) against node */
static bool
keyed_value(KeyedScan *ks, const KeyedNode *node)
{
	JsSlot	   *sl;
	const char *q;

	CHECK_FOR_INTERRUPTS();
	ks->p = (const char *) dj_skip_ws((const unsigned char *) ks->p,
									  (const unsigned char *) ks->end);
	if (ks->p >= ks->end)
		return false;
	if (node->type == DJ_OBJECT || node->type == DJ_ARRAY)
	{
		if (*ks->p != (node->type == DJ_OBJECT ? '{' : '['))
			return false;
		ks->p++;
		return keyed_container(ks, node);
	}
	sl = &ks->slots[node->slot];
	sl->escaped = false;
	switch (node->type)
	{
		case DJ_NUMBER:
			q = dj_number_end(ks->p, ks->end);
			if (q == NULL || q - ks->p > JS_MAX_NUMBER)
				return false;
			sl->kind = JS_SLOT_NUMBER;
			break;
		case DJ_STRING:
			{
				bool		simple;

				if (*ks->p != '"')
					return false;
				q = jstr_end(ks->p + 1, ks->end, JS_PLAIN, &simple);
				if (q == NULL)
					return false;
				sl->kind = JS_SLOT_STRING;
				sl->escaped = !simple;
				sl->off = ks->p + 1 - ks->start;
				sl->len = q - (ks->p + 1);
				ks->p = q + 1;
				return true;
			}
		default:
			/* a word: whichever the text has (as a word slot takes) */
			if (ks->end - ks->p >= 4 && memcmp(ks->p, "true", 4) == 0)
				sl->kind = JS_SLOT_TRUE;
			else if (ks->end - ks->p >= 5 && memcmp(ks->p, "false", 5) == 0)
				sl->kind = JS_SLOT_FALSE;
			else if (ks->end - ks->p >= 4 && memcmp(ks->p, "null", 4) == 0)
				sl->kind = JS_SLOT_NULL;
			else
				return false;
			q = ks->p + (sl->kind == JS_SLOT_FALSE ? 5 : 4);
			break;
	}
	sl->off = ks->p - ks->start;
	sl->len = q - ks->p;
	ks->p = q;
	return true;
}

/*
 * layout_keyed_match: text[0 .. len) is valid JSON of lay's model but for
 * the order of its objects' members (the same keys, each once, every value
 * of its model value's kind, arrays item for item): lay->slots then hold
 * its values in the model's slot order, which lay's plan and tree take
 * whatever order the text has them in.
 */
static bool
layout_keyed_match(StatsLayout *lay, const char *text, size_t len)
{
	KeyedScan	ks;

	if (lay->keyed == NULL || !lay->has_plan)
		return false;
	ks.start = text;
	ks.p = text;
	ks.end = text + len;
	ks.slots = lay->slots;
	if (!keyed_value(&ks, lay->keyed))
		return false;
	return dj_skip_ws((const unsigned char *) ks.p,
					  (const unsigned char *) ks.end) ==
		(const unsigned char *) ks.end;
}

/*
 * layout_build: make lay (new from layout_new) the layout of text (valid
 * JSON): its shape, its tree, which leaf each slot fills, and its jsonb
 * plan, all in lay->cxt.  lay stays invalid when the text does not fit a
 * layout (see jshape.h) or anything disagrees.
 */
static void
layout_build(StatsLayout *lay, const char *text, size_t len)
{
	FmtAllocator alloc;
	DjError		err;
	size_t		consumed;
	int			n = 0;
	int			i;
	MemoryContext old;

	Assert(!lay->valid);
	dc_layout_seq++;
	alloc = dc_fmt_allocator(lay->cxt);
	if (!js_build(&lay->shape, text, len, JS_PLAIN, &alloc) ||
		!dj_parse(text, len, &alloc, DJ_DEFAULT_MAX_DEPTH, &lay->root, &err))
		return;
	lay->leaf = MemoryContextAlloc(lay->cxt,
								   sizeof(DjValue *) * Max(lay->shape.nslots, 1));
	lay->slots = MemoryContextAlloc(lay->cxt,
									sizeof(JsSlot) * Max(lay->shape.nslots, 1));
	if (!layout_leaves(&lay->root, lay->leaf, lay->shape.nslots, &n) ||
		n != lay->shape.nslots ||
		!js_match(&lay->shape, text, text + len, lay->slots, &consumed, NULL,
				  NULL) || consumed != len)
		return;
	for (i = 0; i < n; i++)
		if (!layout_kind_matches(lay->leaf[i], lay->slots[i].kind))
			return;
	lay->valid = true;
	old = MemoryContextSwitchTo(lay->cxt);
	plan_build(lay);
	layout_build_escaped(lay, text, len);
	{
		KeyedNode  *keyed = palloc0(sizeof(KeyedNode));
		int			slot = 0;

		if (keyed_build(&lay->root, keyed, &slot, 0) && slot == n)
			lay->keyed = keyed;
	}
	MemoryContextSwitchTo(old);
}

/*
 * A copy of text[0..len) in the scratch arena, with room for a NUL after
 * it, for layout_fill.
 */
static char *
layout_copy(const char *text, size_t len)
{
	char	   *copy = dc_arena_alloc_raw(dc_scratch_arena, len + 1);

	if (copy == NULL)
		ereport(ERROR,
				errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("out of memory"),
				errdetail("Failed on a request of size %zu.", len + 1));
	memcpy(copy, text, len);
	return copy;
}

/*
 * Point the model's leaves of slots [first, first + n) at the values of
 * the text just matched (lay->slots), in copy (layout_copy of the text),
 * where each value is NUL-terminated (the byte after a value is never part
 * of another: values are separated by at least one literal byte).
 */
static void
layout_fill(StatsLayout *lay, char *copy, int first, int n, JsQuoting quoting)
{
	int			i;

	for (i = first; i < first + n; i++)
	{
		const JsSlot *sl = &lay->slots[i];
		DjValue    *v = lay->leaf[i];

		v->len = 0;
		if (sl->kind == JS_SLOT_STRING && sl->escaped)
		{
			/* its characters, apart (the copy keeps the text's bytes) */
			char	   *str = dc_arena_alloc_raw(dc_scratch_arena, sl->len + 1);

			if (str == NULL)
				ereport(ERROR,
						errcode(ERRCODE_OUT_OF_MEMORY),
						errmsg("out of memory"));
			v->type = DJ_STRING;
			v->len = (uint32) jstr_decode(copy + sl->off,
										  copy + sl->off + sl->len,
										  quoting, str);
			str[v->len] = '\0';
			v->u.str = str;
			continue;
		}
		switch (sl->kind)
		{
			case JS_SLOT_NUMBER:
			case JS_SLOT_STRING:
				copy[sl->off + sl->len] = '\0';
				v->type = sl->kind == JS_SLOT_NUMBER ? DJ_NUMBER : DJ_STRING;
				v->len = (uint32) sl->len;
				if (v->type == DJ_NUMBER)
					v->u.num = copy + sl->off;
				else
					v->u.str = copy + sl->off;
				break;
			case JS_SLOT_TRUE:
				v->type = DJ_TRUE;
				break;
			case JS_SLOT_FALSE:
				v->type = DJ_FALSE;
				break;
			case JS_SLOT_NULL:
				v->type = DJ_NULL;
				break;
			case JS_SLOT_ABSENT:
				/* (js_match_keyed's; js_match never leaves a slot empty) */
				elog(ERROR, "statistics layout slot without a value");
				break;
		}
	}
}

/*
 * layout_tree: the parse tree of text, which js_match just matched against
 * the layout (lay->slots): the model's tree with its leaves pointed at the
 * values (layout_fill; in the scratch arena).
 */
static DjValue *
layout_tree(StatsLayout *lay, const char *text, size_t len, bool escaped)
{
	layout_fill(lay, layout_copy(text, len), 0, lay->shape.nslots,
				escaped ? JS_ESCAPED : JS_PLAIN);
	return &lay->root;
}

/*
 * Whether a keyed peek's tree can be made for keys (a NULL-terminated
 * array, compared by address): an object holding copies of the model's
 * top-level members with those keys, in text order, and the slots of each.
 * Made once per layout (in its context) for the first keys asked for;
 * other keys get false (the whole tree).
 */
static bool
layout_peek_prepare(StatsLayout *lay, const char *const *keys)
{
	const DjValue *root = &lay->root;
	DjMember   *members;
	int			slot = 0;
	int			k = 0;
	uint32		i;

	if (lay->peek_keys != NULL)
		return lay->peek_keys == keys && lay->peek_ok;
	lay->peek_keys = keys;
	lay->peek_ok = false;
	if (root->type != DJ_OBJECT)
		return false;
	members = MemoryContextAlloc(lay->cxt, sizeof(DjMember) * Max(root->len, 1));
	lay->peek_member = MemoryContextAlloc(lay->cxt, sizeof(int) * Max(root->len, 1));
	lay->peek_first = MemoryContextAlloc(lay->cxt, sizeof(int) * Max(root->len, 1));
	lay->peek_nslots = MemoryContextAlloc(lay->cxt, sizeof(int) * Max(root->len, 1));
	for (i = 0; i < root->len; i++)
	{
		const DjMember *m = &root->u.members[i];
		int			n = plan_count_leaves(&m->value);
		const char *const *kp;

		for (kp = keys; *kp != NULL; kp++)
			if (m->keylen == strlen(*kp) && memcmp(m->key, *kp, m->keylen) == 0)
			{
				members[k] = *m;
				lay->peek_member[k] = (int) i;
				lay->peek_first[k] = slot;
				lay->peek_nslots[k] = n;
				k++;
				break;
			}
		slot += n;
	}
	lay->peek_root.type = DJ_OBJECT;
	lay->peek_root.len = (uint32) k;
	lay->peek_root.u.members = members;
	lay->peek_ok = true;
	return true;
}

/*
 * The keyed peek's tree of text, which js_match just matched against the
 * layout (layout_peek_prepare said yes): the selected members with their
 * leaves filled (layout_fill; in the scratch arena).
 */
static const DjValue *
layout_peek_tree(StatsLayout *lay, const char *text, size_t len, bool escaped)
{
	char	   *copy = layout_copy(text, len);
	uint32		k;

	for (k = 0; k < lay->peek_root.len; k++)
	{
		layout_fill(lay, copy, lay->peek_first[k], lay->peek_nslots[k],
					escaped ? JS_ESCAPED : JS_PLAIN);
		lay->peek_root.u.members[k].value =
			lay->root.u.members[lay->peek_member[k]].value;
	}
#ifdef USE_ASSERT_CHECKING
	{
		/* the same members as in the parse of the text */
		MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
												  "deltacc peek check",
												  ALLOCSET_DEFAULT_SIZES);
		FmtAllocator alloc = dc_fmt_allocator(cxt);
		DjValue		ref;
		DjError		err;

		if (escaped)
		{
			MemoryContext old = MemoryContextSwitchTo(cxt);

			text = unescape_quotes_copy(text, len);
			len = strlen(text);
			MemoryContextSwitchTo(old);
		}
		Assert(dj_parse(text, len, &alloc, DJ_DEFAULT_MAX_DEPTH, &ref, &err));
		for (k = 0; k < lay->peek_root.len; k++)
		{
			/*
			 * the member at the model's place, or (a keyed match's text,
			 * whose members come in any order, each key once) of its key
			 */
			const DjMember *a = &lay->peek_root.u.members[k];
			const DjMember *b = &ref.u.members[lay->peek_member[k]];
			bool		same = a->keylen == b->keylen &&
				memcmp(a->key, b->key, a->keylen) == 0 &&
				dj_equal(&a->value, &b->value);

			if (!same && lay->keyed != NULL)
			{
				const DjValue *bv = dj_get(&ref, a->key);

				same = bv != NULL && dj_equal(&a->value, bv);
			}
			Assert(same);
		}
		MemoryContextDelete(cxt);
	}
#endif
	return &lay->peek_root;
}

static Jsonb *layout_write(StatsLayout *lay, const char *text, size_t len,
						   bool escaped, const char *const *keys,
						   void (*peek) (void *arg, const DjValue *v),
						   void *arg);
#ifdef USE_ASSERT_CHECKING
static void assert_same_jsonb(const Jsonb *result, const char *text,
							  size_t len);
#endif

/* move layout i to the front of the list (the one matched last) */
static inline StatsLayout *
layout_to_front(int i)
{
	StatsLayout *lay = dc_stats_layouts[i];

	if (i > 0)
	{
		memmove(&dc_stats_layouts[1], &dc_stats_layouts[0],
				sizeof(StatsLayout *) * i);
		dc_stats_layouts[0] = lay;
	}
	return lay;
}

/*
 * layout_learn: remember the layout of text (valid; its jsonb was just
 * made the general way) when it fits one, last in the list.
 */
static void
layout_learn(const char *text, size_t len, StatsKeySignature sig)
{
	/* (built under the current context, which an ERROR leaves it to) */
	StatsLayout *fresh = layout_new(CurrentMemoryContext);

	layout_build(fresh, text, len);
	if (!fresh->valid)
	{
		MemoryContextDelete(fresh->cxt);
		return;
	}
	fresh->sig_sum = sig.sum;
	fresh->sig_nkeys = sig.nkeys;
	MemoryContextSetParent(fresh->cxt, TopMemoryContext);
	if (dc_n_stats_layouts == DC_STATS_LAYOUTS)
	{
		StatsLayout *old = dc_stats_layouts[--dc_n_stats_layouts];

		if (old == dc_keyed_layout)
			dc_keyed_layout = NULL;
		MemoryContextDelete(old->cxt);
	}
	dc_stats_layouts[dc_n_stats_layouts++] = fresh;
	/* the next text of a writer that reorders its keys is keyed to it */
	dc_keyed_layout = fresh;
}

/*
 * layout_find: the index of the layout text[0 .. len) matches (its values
 * then in that layout's slots), or dc_n_stats_layouts.  First byte for
 * byte against the layouts matched last; then by its keys: a writer that
 * orders them anew on every file (delta-rs) has its texts keyed-matched
 * to the layout the last such text matched or was made into, whatever
 * other layouts come in between; then, byte for byte and by key, against
 * the rest of the layouts whose key signature is the text's (*sig: set
 * then, else its nkeys is PG_UINT32_MAX).
 */
static int
layout_find(const char *text, size_t len, StatsKeySignature *sig)
{
	int			n = dc_n_stats_layouts;
	int			first = Min(n, STATS_LAYOUT_EXACT_TRIES);
	size_t		consumed;
	int			i;

	sig->nkeys = PG_UINT32_MAX;	/* not computed */

	for (i = 0; i < first; i++)
	{
		StatsLayout *lay = dc_stats_layouts[i];

		if (js_match(&lay->shape, text, text + len, lay->slots, &consumed,
					 NULL, NULL) && consumed == len)
			return i;
	}
	if (dc_keyed_layout != NULL)
		for (i = 0; i < n; i++)
			if (dc_stats_layouts[i] == dc_keyed_layout)
			{
				if (layout_keyed_match(dc_keyed_layout, text, len))
					return i;
				break;
			}
	if (first == n)
		return n;

	/*
	 * The rest: only layouts of the text's keys can match, byte for byte
	 * or by key (a wrong signature only sends the text to the parse).
	 */
	*sig = stats_key_signature(text, len);
	for (i = first; i < n; i++)
	{
		StatsLayout *lay = dc_stats_layouts[i];

		if (lay->sig_sum != sig->sum || lay->sig_nkeys != sig->nkeys)
			continue;
		if (js_match(&lay->shape, text, text + len, lay->slots, &consumed,
					 NULL, NULL) && consumed == len)
			return i;
		if (lay != dc_keyed_layout && layout_keyed_match(lay, text, len))
		{
			dc_keyed_layout = lay;
			return i;
		}
	}
	return n;
}

/*
 * dc_json_stats_to_jsonb_keys: see json_util.h.
 */
Jsonb *
dc_json_stats_to_jsonb_keys(const char *text, size_t len,
							const char *const *keys,
							void (*peek) (void *arg, const DjValue *v),
							void *arg)
{
	StatsLayout *lay = NULL;
	Jsonb	   *result = NULL;
	StatsKeySignature sig;
	int			i;

	dc_layout_seq++;
	i = layout_find(text, len, &sig);
	if (i == dc_n_stats_layouts)
	{
		/*
		 * Another layout: parsed, and remembered in its turn, but only when
		 * it can be (a text no shape takes leaves the layouts be), after
		 * each of the first few misses in a row, then every 64th.
		 */
		dc_fastpath_note(DC_FP_JSONB_LAYOUT, false);
		result = dc_json_text_to_jsonb_ext(text, len, peek, arg);
		dc_stats_layout_misses++;
		if (result != NULL &&
			(dc_stats_layout_misses <= STATS_LAYOUT_EAGER_MISSES ||
			 dc_stats_layout_misses % STATS_LAYOUT_RETRY_EVERY == 0))
		{
			if (sig.nkeys == PG_UINT32_MAX)
				sig = stats_key_signature(text, len);
			if (dc_n_stats_layouts < DC_STATS_LAYOUTS ||
				stats_miss_repeats(sig))
			{
				dc_layout_seq++;
				layout_learn(text, len, sig);
			}
		}
		return result;
	}
	dc_stats_layout_misses = 0;
	lay = layout_to_front(i);
	result = layout_write(lay, text, len, false, keys, peek, arg);
#ifdef USE_ASSERT_CHECKING
	assert_same_jsonb(result, text, len);
#endif
	return result;
}

/*
 * layout_write: the jsonb of text (len bytes, plain or escaped), which
 * lay's shape or escaped shape just matched into lay->slots, and the peek
 * (see dc_json_stats_to_jsonb_keys).  The slots' tokens are the same bytes
 * in both forms, and the plan reads nothing else of the text.
 */
static Jsonb *
layout_write(StatsLayout *lay, const char *text, size_t len, bool escaped,
			 const char *const *keys,
			 void (*peek) (void *arg, const DjValue *v), void *arg)
{
	Jsonb	   *result = NULL;

	dc_scratch_prepare();
	if (lay->has_plan && len <= JS_MAX_TEXT)
		result = plan_write(&lay->plan, text, len, lay->slots,
							escaped ? JS_ESCAPED : JS_PLAIN);
	dc_fastpath_note(DC_FP_JSONB_LAYOUT, result != NULL);
	if (result == NULL)
		result = scratch_tree_to_jsonb(layout_tree(lay, text, len, escaped),
									   peek, arg);
	else if (peek != NULL)
		peek(arg, keys != NULL && layout_peek_prepare(lay, keys) ?
			 layout_peek_tree(lay, text, len, escaped) :
			 layout_tree(lay, text, len, escaped));
	MemoryContextReset(dc_scratch_cxt);
	dc_arena_reset(dc_scratch_arena);
	return result;
}

#ifdef USE_ASSERT_CHECKING
/* result is the jsonb the parse of the plain text [text, text + len) gives */
static void
assert_same_jsonb(const Jsonb *result, const char *text, size_t len)
{
	Jsonb	   *slow = dc_json_text_to_jsonb_ext(text, len, NULL, NULL);

	if ((slow == NULL) != (result == NULL) ||
		(slow != NULL && (VARSIZE(slow) != VARSIZE(result) ||
						  memcmp(slow, result, VARSIZE(slow)) != 0)))
		elog(ERROR, "statistics layout gives another jsonb than the parse");
}
#endif

/*
 * dc_json_stats_match_escaped: see json_util.h.
 */
bool
dc_json_stats_match_escaped(const char *p, const char *end, const char **after)
{
	StatsLayout *lay = NULL;
	size_t		consumed = 0;
	int			i;

	if (p >= end || *p != '"')
		return false;
	p++;
	dc_layout_seq++;
	for (i = 0; i < Min(dc_n_stats_layouts, STATS_LAYOUT_ESCAPED_TRIES); i++)
	{
		lay = dc_stats_layouts[i];
		if (lay->has_eshape &&
			js_match(&lay->eshape, p, end, lay->slots, &consumed, NULL, NULL) &&
			(size_t) (end - p) > consumed && p[consumed] == '"')
			break;
	}
	if (i == Min(dc_n_stats_layouts, STATS_LAYOUT_ESCAPED_TRIES))
		return false;
	dc_escaped_layout = layout_to_front(i);
	dc_escaped_text = p;
	dc_escaped_len = consumed;
	dc_escaped_seq = dc_layout_seq;
	*after = p + consumed + 1;
	return true;
}

/*
 * dc_json_stats_escaped_forget: see json_util.h.
 */
void
dc_json_stats_escaped_forget(void)
{
	dc_escaped_text = NULL;
}

/*
 * dc_json_stats_escaped_text: see json_util.h.
 */
char *
dc_json_stats_escaped_text(const char *text)
{
	if (text != dc_escaped_text || dc_layout_seq != dc_escaped_seq)
		elog(ERROR, "escaped statistics text is not the last one matched");
	return unescape_quotes_copy(text, dc_escaped_len);
}

/*
 * dc_json_stats_escaped_to_jsonb: see json_util.h.
 */
Jsonb *
dc_json_stats_escaped_to_jsonb(const char *text, const char *const *keys,
							   void (*peek) (void *arg, const DjValue *v),
							   void *arg)
{
	StatsLayout *lay = dc_escaped_layout;
	Jsonb	   *result;

	if (text != dc_escaped_text || dc_layout_seq != dc_escaped_seq)
		elog(ERROR, "escaped statistics text is not the last one matched");
	result = layout_write(lay, text, dc_escaped_len, true, keys, peek, arg);
#ifdef USE_ASSERT_CHECKING
	{
		char	   *plain = dc_json_stats_escaped_text(text);

		assert_same_jsonb(result, plain, strlen(plain));
		pfree(plain);
	}
#endif
	dc_escaped_text = NULL;
	return result;
}

/*
 * Parse JSON text into the scratch arena and, when it is valid, call
 * peek(arg, tree); returns whether it was valid.  Nothing is left allocated.
 */
bool
dc_json_peek(const char *text, size_t len,
			 void (*peek) (void *arg, const DjValue *v), void *arg)
{
	DjValue		v;
	bool		ok;

	dc_scratch_prepare();
	ok = dc_json_parse_fast(dc_scratch_arena, text, len, &v, NULL);
	if (ok)
		peek(arg, &v);
	dc_arena_reset(dc_scratch_arena);
	return ok;
}

/*
 * Parse JSON text exactly and convert it to Jsonb; NULL when the text is
 * not valid JSON or holds a number or string jsonb cannot represent.
 */
Jsonb *
dc_json_text_to_jsonb(const char *text, size_t len)
{
	return dc_json_text_to_jsonb_ext(text, len, NULL, NULL);
}

/*
 * Append s[0..len) as a JSON string literal, escaped exactly as PostgreSQL's
 * escape_json does (\b \f \n \r \t \" \\, other control characters as
 * \u00xx), but copying runs of plain bytes at once.
 */
void
dc_json_append_string_len(StringInfo buf, const char *s, size_t len)
{
	const char *end = s + len;
#ifdef USE_ASSERT_CHECKING
	const char *orig = s;
	int			start = buf->len;
#endif

	/* room for the quotes and the bytes themselves; escapes enlarge more */
	enlargeStringInfo(buf, (int) Min(len + 2, (size_t) MaxAllocSize));
	buf->data[buf->len++] = '"';
	while (s < end)
	{
		const char *p = s;
		unsigned char c;
		char		esc[8];
		int			esclen = 2;

		/* the next byte escape_json changes, eight bytes at a time */
		while (end - p >= 8)
		{
			uint64_t	m = dj_escape_mask(dj_load8((const unsigned char *) p));

			if (m != 0)
			{
				p += dj_first_flagged(m);
				break;
			}
			p += 8;
		}
		while (p < end && (unsigned char) *p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		if (p > s)
		{
			if (buf->maxlen - buf->len <= p - s)
				enlargeStringInfo(buf, (int) (p - s));
			memcpy(buf->data + buf->len, s, p - s);
			buf->len += (int) (p - s);
		}
		if (p >= end)
			break;
		c = (unsigned char) *p;
		esc[0] = '\\';
		switch (c)
		{
			case '\b':
				esc[1] = 'b';
				break;
			case '\f':
				esc[1] = 'f';
				break;
			case '\n':
				esc[1] = 'n';
				break;
			case '\r':
				esc[1] = 'r';
				break;
			case '\t':
				esc[1] = 't';
				break;
			case '"':
			case '\\':
				esc[1] = (char) c;
				break;
			default:
				/* "\\u%04x" of a control character */
				memcpy(esc + 1, "u00", 3);
				esc[4] = "0123456789abcdef"[c >> 4];
				esc[5] = "0123456789abcdef"[c & 0xF];
				esclen = 6;
				break;
		}
		if (buf->maxlen - buf->len <= esclen)
			enlargeStringInfo(buf, esclen);
		memcpy(buf->data + buf->len, esc, esclen);
		buf->len += esclen;
		s = p + 1;
	}
	if (buf->maxlen - buf->len <= 1)
		enlargeStringInfo(buf, 1);
	buf->data[buf->len++] = '"';
	buf->data[buf->len] = '\0';
#ifdef USE_ASSERT_CHECKING
	{
		/* the same text as escape_json gives for the NUL-free string */
		StringInfoData ref;
		char	   *copy = pnstrdup(orig, len);

		initStringInfo(&ref);
		if (strlen(copy) == len)
		{
			escape_json(&ref, copy);
			Assert(ref.len == buf->len - start &&
				   memcmp(ref.data, buf->data + start, ref.len) == 0);
		}
		pfree(ref.data);
		pfree(copy);
	}
#endif
}

/* Append s (NUL-terminated) as a JSON string literal, as escape_json does. */
void
dc_json_append_string(StringInfo buf, const char *s)
{
	dc_json_append_string_len(buf, s, strlen(s));
}

/*
 * Append the compact JSON text of v to buf: keys in their original order
 * (duplicates kept), numbers as their exact token text.
 */
void
dc_dj_append_json(StringInfo buf, const DjValue *v)
{
	uint32		i;

	check_stack_depth();
	switch (v->type)
	{
		case DJ_NULL:
			appendStringInfoString(buf, "null");
			break;
		case DJ_TRUE:
			appendStringInfoString(buf, "true");
			break;
		case DJ_FALSE:
			appendStringInfoString(buf, "false");
			break;
		case DJ_NUMBER:
			appendBinaryStringInfo(buf, v->u.num, (int) v->len);
			break;
		case DJ_STRING:
			dc_json_append_string_len(buf, v->u.str, v->len);
			break;
		case DJ_ARRAY:
			appendStringInfoChar(buf, '[');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					appendStringInfoChar(buf, ',');
				dc_dj_append_json(buf, &v->u.items[i]);
			}
			appendStringInfoChar(buf, ']');
			break;
		case DJ_OBJECT:
			appendStringInfoChar(buf, '{');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					appendStringInfoChar(buf, ',');
				dc_json_append_string_len(buf, v->u.members[i].key,
										  v->u.members[i].keylen);
				appendStringInfoChar(buf, ':');
				dc_dj_append_json(buf, &v->u.members[i].value);
			}
			appendStringInfoChar(buf, '}');
			break;
	}
}

/* The compact JSON text of v, palloc'd in CurrentMemoryContext. */
char *
dc_dj_to_json(const DjValue *v)
{
	StringInfoData buf;

	initStringInfo(&buf);
	dc_dj_append_json(&buf, v);
	return buf.data;
}
