/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  Exact decoding of per-file statistics and of partition values.
 *
 * Nothing here raises an ERROR on bad input: a statistic that does not
 * parse exactly is reported missing (the caller then keeps the file) and a
 * partition value that does not parse is reported unparseable (the caller
 * then treats the partition predicate as matching).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <math.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "mb/pg_wchar.h"
#include "pgtime.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/float.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "common/fastpath.h"
#include "common/json_util.h"
#include "format/djson.h"
#include "format/djson_scan.h"
#include "format/jshape.h"
#include "format/jstr.h"
#include "log/actions.h"
#include "log/fastline.h"
#include "stats/stats.h"

/* Result of parsing a date-time text. */
typedef struct ParsedTs
{
	struct pg_tm tm;
	fsec_t		fsec;
	bool		has_time;
	bool		has_offset;
	int			offset_sec;		/* east of UTC, seconds */
} ParsedTs;

/*
 * Read exactly n decimal digits at *p into *out; advance *p.
 */
static bool
read_digits(const char **p, int n, int *out)
{
	int			v = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		char		c = (*p)[i];

		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	*p += n;
	*out = v;
	return true;
}

/*
 * Parse "yyyy-MM-dd[(T| )HH:mm[:ss[.f{1,9}]][Z|+-HH:MM|+-HHMM]]".  The
 * whole string must be consumed.  Validates field ranges; never raises.
 */
static bool
parse_datetime_text(const char *s, ParsedTs *out)
{
	const char *p = s;
	int			y,
				mo,
				d;

	memset(out, 0, sizeof(*out));
	if (!read_digits(&p, 4, &y) || *p++ != '-' ||
		!read_digits(&p, 2, &mo) || *p++ != '-' ||
		!read_digits(&p, 2, &d))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > day_tab[isleap(y)][mo - 1] || y < 1)
		return false;
	out->tm.tm_year = y;
	out->tm.tm_mon = mo;
	out->tm.tm_mday = d;
	if (*p == '\0')
		return true;
	if (*p != 'T' && *p != ' ')
		return false;
	p++;
	out->has_time = true;
	if (!read_digits(&p, 2, &out->tm.tm_hour) || *p++ != ':' ||
		!read_digits(&p, 2, &out->tm.tm_min))
		return false;
	if (*p == ':')
	{
		p++;
		if (!read_digits(&p, 2, &out->tm.tm_sec))
			return false;
		if (*p == '.')
		{
			int			ndig = 0;
			int			us = 0;

			p++;
			while (*p >= '0' && *p <= '9')
			{
				if (ndig < 6)
					us = us * 10 + (*p - '0');
				ndig++;
				p++;
			}
			if (ndig == 0 || ndig > 9)
				return false;
			for (; ndig < 6; ndig++)
				us *= 10;
			out->fsec = us;		/* digits past the 6th truncate (floor) */
		}
	}
	if (out->tm.tm_hour > 23 || out->tm.tm_min > 59 || out->tm.tm_sec > 59)
		return false;
	if (*p == 'Z')
	{
		out->has_offset = true;
		p++;
	}
	else if (*p == '+' || *p == '-')
	{
		int			sign = (*p == '-') ? -1 : 1;
		int			oh,
					om;

		p++;
		if (!read_digits(&p, 2, &oh))
			return false;
		if (*p == ':')
			p++;
		if (!read_digits(&p, 2, &om) || oh > 18 || om > 59)
			return false;
		out->has_offset = true;
		out->offset_sec = sign * (oh * 3600 + om * 60);
	}
	return *p == '\0';
}

/*
 * Turn a parsed date-time into a PostgreSQL timestamp.  mode: 'z' needs an
 * offset (or 's' may fall back to the session time zone), 'n' must have
 * none (local).  Returns false when out of range or the offset rule fails.
 */
static bool
parsed_to_timestamp(ParsedTs *pt, char mode, Timestamp *result)
{
	int			tz;

	if (!pt->has_time)
		return false;
	if (mode == 'n')
	{
		if (pt->has_offset)
			return false;
		if (tm2timestamp(&pt->tm, pt->fsec, NULL, result) != 0)
			return false;
	}
	else if (pt->has_offset)
	{
		tz = -pt->offset_sec;
		if (tm2timestamp(&pt->tm, pt->fsec, &tz, result) != 0)
			return false;
	}
	else if (mode == 's')
	{
		tz = DetermineTimeZoneOffset(&pt->tm, session_timezone);
		if (tm2timestamp(&pt->tm, pt->fsec, &tz, result) != 0)
			return false;
	}
	else
		return false;
	return IS_VALID_TIMESTAMP(*result);
}

/*
 * Parse a date text "yyyy-MM-dd" to a DateADT.
 */
static bool
parse_date_text(const char *s, DateADT *result)
{
	ParsedTs	pt;
	int			j;

	if (!parse_datetime_text(s, &pt) || pt.has_time)
		return false;
	j = date2j(pt.tm.tm_year, pt.tm.tm_mon, pt.tm.tm_mday);
	*result = j - POSTGRES_EPOCH_JDATE;
	return IS_VALID_DATE(*result);
}

/*
 * Strict integer text: optional '-', digits only, within [lo, hi].
 */
static bool
parse_int_text(const char *s, int64 lo, int64 hi, int64 *result)
{
	const char *p = s;
	bool		neg = false;
	uint64		acc = 0;

	if (*p == '-')
	{
		neg = true;
		p++;
	}
	if (*p == '\0')
		return false;
	for (; *p; p++)
	{
		if (*p < '0' || *p > '9')
			return false;
		if (acc > (PG_UINT64_MAX - 9) / 10)
			return false;
		acc = acc * 10 + (*p - '0');
		if (acc > (uint64) PG_INT64_MAX + 1)
			return false;
	}
	if (neg)
	{
		if (acc == (uint64) PG_INT64_MAX + 1)
			*result = PG_INT64_MIN;
		else
			*result = -(int64) acc;
	}
	else
	{
		if (acc > (uint64) PG_INT64_MAX)
			return false;
		*result = (int64) acc;
	}
	return *result >= lo && *result <= hi;
}

/*
 * Range of an integral Delta type.
 */
static void
int_range(DeltaTypeKind kind, int64 *lo, int64 *hi)
{
	switch (kind)
	{
		case DELTA_TYPE_BYTE:
			*lo = -128;
			*hi = 127;
			break;
		case DELTA_TYPE_SHORT:
			*lo = PG_INT16_MIN;
			*hi = PG_INT16_MAX;
			break;
		case DELTA_TYPE_INTEGER:
			*lo = PG_INT32_MIN;
			*hi = PG_INT32_MAX;
			break;
		default:
			*lo = PG_INT64_MIN;
			*hi = PG_INT64_MAX;
			break;
	}
}

/*
 * Datum of an integral value for the leaf's PostgreSQL type.
 */
static Datum
int_datum(const DeltaField *f, int64 v)
{
	if (f->pg_type == INT2OID)
		return Int16GetDatum((int16) v);
	if (f->pg_type == INT4OID)
		return Int32GetDatum((int32) v);
	return Int64GetDatum(v);
}

/*
 * Float text: a decimal number (strtod/strtof, correctly rounded; an
 * overflow is refused) or NaN / Infinity / -Infinity.
 */
static bool
parse_float_text(const char *s, bool is_float4, Datum *result)
{
	char	   *end;

	if (strcmp(s, "NaN") == 0)
	{
		*result = is_float4 ? Float4GetDatum(get_float4_nan()) :
			Float8GetDatum(get_float8_nan());
		return true;
	}
	if (strcmp(s, "Infinity") == 0 || strcmp(s, "+Infinity") == 0)
	{
		*result = is_float4 ? Float4GetDatum(get_float4_infinity()) :
			Float8GetDatum(get_float8_infinity());
		return true;
	}
	if (strcmp(s, "-Infinity") == 0)
	{
		*result = is_float4 ? Float4GetDatum(-get_float4_infinity()) :
			Float8GetDatum(-get_float8_infinity());
		return true;
	}
	/* only plain decimal syntax; no hex floats, no "inf"/"nan" spellings */
	{
		const char *p = s;

		if (*p == '-' || *p == '+')
			p++;
		if (!((*p >= '0' && *p <= '9') || *p == '.'))
			return false;
		for (; *p; p++)
			if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
				  *p == 'E' || *p == '-' || *p == '+'))
				return false;
	}
	errno = 0;
	if (is_float4)
	{
		float		v = strtof(s, &end);

		if (*end != '\0' || end == s || isinf(v) || (errno == ERANGE && v != 0))
			return false;
		if (errno == ERANGE)
			return false;		/* underflow: not exact enough to bound */
		*result = Float4GetDatum(v);
	}
	else
	{
		double		v = strtod(s, &end);

		if (*end != '\0' || end == s || isinf(v) || errno == ERANGE)
			return false;
		*result = Float8GetDatum(v);
	}
	return true;
}

/*
 * Decimal text to numeric, exactly.  Refuses anything but JSON-number
 * syntax and absurd exponents (numeric_in would raise on those).
 */
static bool
parse_decimal_text(const char *s, Datum *result)
{
	const char *p = s;
	bool		digits = false;

	if (*p == '-' || *p == '+')
		p++;
	while (*p >= '0' && *p <= '9')
	{
		p++;
		digits = true;
	}
	if (*p == '.')
	{
		p++;
		while (*p >= '0' && *p <= '9')
		{
			p++;
			digits = true;
		}
	}
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E')
	{
		int64		e;

		p++;
		if (*p == '+')
			p++;
		if (!parse_int_text(p, -1000, 1000, &e))
			return false;
	}
	else if (*p != '\0')
		return false;
	if (strlen(s) > 1000)
		return false;
	*result = DirectFunctionCall3(numeric_in, CStringGetDatum(s),
								  ObjectIdGetDatum(InvalidOid),
								  Int32GetDatum(-1));
	return true;
}

/*
 * Decode one minValues/maxValues entry for leaf f.  Returns false (with
 * *note saying why, or NULL when merely null) if it is not usable.
 */
static bool
decode_stat_value(const DeltaField *f, const DjValue *v, bool is_max,
				  Datum *out, char **text, const char **note)
{
	*note = NULL;
	*text = NULL;
	if (v == NULL || v->type == DJ_NULL)
		return false;
	if (v->type == DJ_NUMBER)
		*text = pstrdup(v->u.num);
	else if (v->type == DJ_STRING)
		*text = pstrdup(v->u.str);
	else
	{
		*note = "not a scalar";
		return false;
	}

	switch (f->kind)
	{
		case DELTA_TYPE_LONG:
		case DELTA_TYPE_INTEGER:
		case DELTA_TYPE_SHORT:
		case DELTA_TYPE_BYTE:
			{
				int64_t		iv;
				int64		lo,
							hi;

				int_range(f->kind, &lo, &hi);
				if (v->type != DJ_NUMBER || !dj_to_int64(v, &iv) ||
					iv < lo || iv > hi)
				{
					*note = "unparseable";
					return false;
				}
				*out = int_datum(f, iv);
				return true;
			}
		case DELTA_TYPE_FLOAT:
		case DELTA_TYPE_DOUBLE:
			if (!parse_float_text(*text, f->kind == DELTA_TYPE_FLOAT, out))
			{
				*note = "unparseable";
				return false;
			}
			return true;
		case DELTA_TYPE_DECIMAL:
			if (v->type != DJ_NUMBER || !parse_decimal_text(*text, out))
			{
				*note = "unparseable";
				return false;
			}
			return true;
		case DELTA_TYPE_STRING:
			if (v->type != DJ_STRING)
			{
				*note = "not a string";
				return false;
			}
			if (is_max && v->len >= 3 &&
				memcmp(v->u.str + v->len - 3, "\xEF\xBF\xBD", 3) == 0)
			{
				*note = "ends in U+FFFD (a truncation tie-breaker that is not an upper bound)";
				return false;
			}
			*out = PointerGetDatum(cstring_to_text_with_len(v->u.str, v->len));
			return true;
		case DELTA_TYPE_DATE:
			{
				DateADT		d;

				if (v->type != DJ_STRING || !parse_date_text(v->u.str, &d))
				{
					*note = "unparseable";
					return false;
				}
				*out = DateADTGetDatum(d);
				return true;
			}
		case DELTA_TYPE_TIMESTAMP:
		case DELTA_TYPE_TIMESTAMP_NTZ:
			{
				ParsedTs	pt;
				Timestamp	ts;

				if (v->type != DJ_STRING || !parse_datetime_text(v->u.str, &pt) ||
					!parsed_to_timestamp(&pt,
										 f->kind == DELTA_TYPE_TIMESTAMP ? 'z' : 'n',
										 &ts))
				{
					*note = "unparseable";
					return false;
				}
				*out = TimestampGetDatum(ts);
				return true;
			}
		default:
			*note = "not a min/max type";
			return false;
	}
}

/*
 * Follow f's physical path from the top of a minValues/maxValues/nullCount
 * object; NULL when any level is missing.
 */
static const DjValue *
stats_lookup(const DjValue *obj, const DeltaField *f)
{
	const DeltaField *chain[64];
	int			n = 0;
	const DeltaField *g;
	const DjValue *cur = obj;

	for (g = f; g != NULL && n < 64; g = g->parent)
		chain[n++] = g;
	if (g != NULL)
		return NULL;
	while (n > 0 && cur != NULL)
	{
		if (cur->type != DJ_OBJECT)
			return NULL;
		cur = dj_get(cur, chain[--n]->physical_name);
	}
	return cur;
}

/*
 * decode_leaf: the statistics of leaf f from the minValues / maxValues /
 * nullCount objects of a parsed stats root (each may be NULL) into *ls
 * (zeroed by the caller).  A nullCount above numRecords is not a count.
 * Allocates the values and texts in CurrentMemoryContext.
 */
static void
decode_leaf_values(const DeltaField *f, const DjValue *minval,
				   const DjValue *maxval, const DjValue *ncval,
				   bool has_min_obj, bool has_max_obj,
				   bool has_num_records, int64 num_records,
				   DeltaLeafStats *ls);

static void
decode_leaf(const DeltaField *f, const DjValue *minv, const DjValue *maxv,
			const DjValue *nullc, bool has_num_records, int64 num_records,
			DeltaLeafStats *ls)
{
	decode_leaf_values(f, minv ? stats_lookup(minv, f) : NULL,
					   maxv ? stats_lookup(maxv, f) : NULL,
					   nullc ? stats_lookup(nullc, f) : NULL,
					   minv != NULL, maxv != NULL,
					   has_num_records, num_records, ls);
}

/*
 * decode_leaf_values: decode_leaf once f's entries are looked up (each
 * NULL when absent); has_min_obj / has_max_obj: a minValues / maxValues
 * member exists at all.
 */
static void
decode_leaf_values(const DeltaField *f, const DjValue *minval,
				   const DjValue *maxval, const DjValue *ncval,
				   bool has_min_obj, bool has_max_obj,
				   bool has_num_records, int64 num_records,
				   DeltaLeafStats *ls)
{
	const DjValue *v = ncval;

	if (v != NULL)
	{
		int64_t		n;

		if (dj_to_int64(v, &n) && n >= 0 &&
			(!has_num_records || n <= num_records))
		{
			ls->has_null_count = true;
			ls->null_count = n;
		}
	}
	if (!f->minmax_eligible || !OidIsValid(f->pg_type))
		return;
	if (has_min_obj)
		ls->has_min = decode_stat_value(f, minval, false,
										&ls->min, &ls->min_text,
										&ls->min_note);
	if (has_max_obj)
		ls->has_max = decode_stat_value(f, maxval, true,
										&ls->max, &ls->max_text,
										&ls->max_note);
}

/* ---------------------------------------------------------------------
 * A scanner for the common shape of a stats string, without a parse tree
 *
 * It accepts a strict subset of what dj_parse accepts: a JSON object whose
 * keys are printable ASCII without escapes and whose string values are
 * any djson takes (jstr.h; in escaped mode at both levels), nested at most
 * SCAN_MAX_DEPTH deep, numbers in JSON syntax of at most SCAN_MAX_NUMBER
 * bytes.  On that subset it finds what the parse tree would give (the last
 * of duplicate keys, as dj_get) for numRecords, tightBounds and the
 * minValues / maxValues / nullCount entries of top-level columns, and the
 * entries are decoded by the same functions as from the tree.  Anything
 * outside the subset (a key with escapes, invalid strings, deep nesting, a
 * long number, a nested column) answers "not scanned" and the
 * caller parses the text with dj_parse: never a different answer, only a
 * slower one.
 * ---------------------------------------------------------------------
 */
#define SCAN_MAX_DEPTH 32
#define SCAN_MAX_NUMBER 64
/* a shape's slot answers as the scanner would only with the same limit */
StaticAssertDecl(SCAN_MAX_NUMBER == JS_MAX_NUMBER,
				 "the stats scanner and jshape must take the same numbers");

/* One scanned value: its type and token (strings without the quotes). */
typedef struct ScanSpan
{
	DjType		type;
	bool		escaped;		/* a string whose bytes are not its characters:
								 * decode with jstr_decode in the scan's
								 * quoting */
	bool		esc_mode;		/* that quoting: JS_ESCAPED, else JS_PLAIN */
	const char *p;
	int			len;
} ScanSpan;

typedef struct StatsScan
{
	const char *p;
	const char *end;
	int			nfields;
	const DeltaField *const *fields;
	ScanSpan	num_records;
	ScanSpan	tight_bounds;
	bool		has_min_obj;	/* minValues present (any type) */
	bool		has_max_obj;
	int		   *namelen;		/* [nfields]: strlen of physical names */
	ScanSpan   *min;			/* [nfields]; type -1: absent */
	ScanSpan   *max;
	ScanSpan   *nc;
	bool		esc;			/* escaped mode (see delta_stats_prescan_string):
								 * a quote is the two bytes backslash, '"' */
	char	   *out;			/* escaped mode: where the unescaped text
								 * continues (NULL: not wanted); the buffer
								 * has 8 bytes of slack beyond it */
	const char *copied;			/* escaped mode: input up to here is in out */
	bool		out_whole;		/* escaped mode: a string with escapes was
								 * met: out is made from the whole text at
								 * the end instead (jstr_decode) */
} StatsScan;

#define SPAN_ABSENT ((DjType) -1)

static bool scan_value(StatsScan *sc, int depth, ScanSpan *span,
					   ScanSpan *entries);

/* skip JSON white space */
static inline void
scan_ws(StatsScan *sc)
{
	if (likely(sc->p < sc->end && (unsigned char) *sc->p > ' '))
		return;					/* the usual case: no white space */
	while (sc->p < sc->end &&
		   (*sc->p == ' ' ||
			(!sc->esc && (*sc->p == '\t' || *sc->p == '\n' || *sc->p == '\r'))))
		sc->p++;
}

/*
 * scan_emit (escaped mode): append the input from sc->copied up to the
 * escaped quote at "at", then the quote itself, to sc->out.  Eight bytes
 * at a time when the input has eight readable bytes from "at" on (the
 * copies read before at + 8 and write at most 7 bytes past the text, into
 * out's slack).
 */
static inline void
scan_emit(StatsScan *sc, const char *at)
{
	const char *src = sc->copied;
	size_t		n = at - src;
	size_t		i;

	if (sc->end - at >= 8)
	{
		for (i = 0; i < n; i += 8)
			memcpy(sc->out + i, src + i, 8);
	}
	else
		memcpy(sc->out, src, n);
	sc->out[n] = '"';
	sc->out += n + 1;
	sc->copied = at + 2;
}

/*
 * scan_quote: sc->p is at a quote: '"', or in escaped mode backslash + '"'
 */
static inline bool
scan_quote(const StatsScan *sc)
{
	if (sc->esc)
		return sc->end - sc->p >= 2 && sc->p[0] == '\\' && sc->p[1] == '"';
	return sc->p < sc->end && *sc->p == '"';
}

/*
 * a string of printable ASCII without escapes (in escaped mode: between
 * two escaped quotes) at sc->p; false otherwise
 */
static pg_attribute_always_inline bool
scan_string(StatsScan *sc, ScanSpan *span, bool key)
{
	const int	qlen = sc->esc ? 2 : 1;
	const unsigned char *q = (const unsigned char *) sc->p + qlen;
	const unsigned char *end = (const unsigned char *) sc->end;
	bool		escaped = false;

	if (!scan_quote(sc))
		return false;
	q = dj_plain_span(q, end);
	if (sc->esc ? (end - q < 2 || q[0] != '\\' || q[1] != '"') :
		(q >= end || *q != '"'))
	{
		/* escapes, UTF-8, ...: a value's only, as djson takes it */
		if (key)
			return false;
		q = (const unsigned char *)
			jstr_end(sc->p + qlen, sc->end, sc->esc ? JS_ESCAPED : JS_PLAIN,
					 NULL);
		if (q == NULL || (const char *) q - (sc->p + qlen) > PG_INT32_MAX)
			return false;
		escaped = true;
		sc->out_whole = true;
	}
	if (sc->esc && sc->out != NULL && !sc->out_whole)
	{
		scan_emit(sc, sc->p);
		scan_emit(sc, (const char *) q);
	}
	span->type = DJ_STRING;
	span->escaped = escaped;
	span->esc_mode = sc->esc;
	span->p = sc->p + qlen;
	span->len = (int) ((const char *) q - (sc->p + qlen));
	sc->p = (const char *) q + qlen;
	return true;
}

/* a number in JSON syntax (as parse_number), at most SCAN_MAX_NUMBER bytes */
static inline bool
scan_number(StatsScan *sc, ScanSpan *span)
{
	const char *q = dj_number_end(sc->p, sc->end);

	if (q == NULL || q - sc->p > SCAN_MAX_NUMBER)
		return false;
	span->type = DJ_NUMBER;
	span->escaped = false;
	span->p = sc->p;
	span->len = (int) (q - sc->p);
	sc->p = q;
	return true;
}

/*
 * span_int: a scanned number that is a plain integer (an optional '-' and
 * at most 18 digits, no fraction or exponent: dj_to_int64 gives the same
 * value for it) into *v; false for any other span.
 */
static pg_attribute_always_inline bool
span_int(const ScanSpan *span, int64 *v)
{
	const char *q = span->p;
	const char *end = span->p + span->len;
	bool		neg = false;
	uint64		acc;

	if (span->type != DJ_NUMBER)
		return false;
	if (q < end && *q == '-')
	{
		neg = true;
		q++;
	}
	/* (a number token's: false for a fraction or an exponent) */
	if (!dj_number_token_int(q, end - q, &acc))
		return false;
	*v = neg ? -(int64) acc : (int64) acc;
	return true;
}

/*
 * scan_open: step over the opening byte at sc->p and any white space; true
 * (and the closing byte close consumed too) when the container is empty.
 * Allocates nothing.
 */
static inline bool
scan_open(StatsScan *sc, char close)
{
	sc->p++;
	scan_ws(sc);
	if (sc->p < sc->end && *sc->p == close)
	{
		sc->p++;
		return true;
	}
	return false;
}

/* what follows a member of a container: see scan_next */
typedef enum ScanNext
{
	SCAN_NEXT_MORE,				/* ',' consumed: another member follows */
	SCAN_NEXT_CLOSED,			/* the closing byte consumed */
	SCAN_NEXT_BAD				/* anything else, or the end of the input */
} ScanNext;

/*
 * scan_next: skip white space after a member of a container and consume
 * the ',' or the closing byte close that must follow it.  Allocates
 * nothing.
 */
static inline ScanNext
scan_next(StatsScan *sc, char close)
{
	scan_ws(sc);
	if (sc->p >= sc->end)
		return SCAN_NEXT_BAD;
	if (*sc->p == ',')
	{
		sc->p++;
		return SCAN_NEXT_MORE;
	}
	if (*sc->p == close)
	{
		sc->p++;
		return SCAN_NEXT_CLOSED;
	}
	return SCAN_NEXT_BAD;
}

/*
 * scan_literal: the literal word (len bytes, e.g. "true") at sc->p into
 * *span as type; false when it is not there.  Allocates nothing.
 */
static inline bool
scan_literal(StatsScan *sc, const char *word, int len, DjType type,
			 ScanSpan *span)
{
	if (sc->end - sc->p < len || memcmp(sc->p, word, len) != 0)
		return false;
	sc->p += len;
	span->type = type;
	span->escaped = false;
	return true;
}

/*
 * scan_object: an object at sc->p.  entries (non-NULL for the minValues /
 * maxValues / nullCount objects): the entry of each field, by physical
 * name, last one wins.  At depth 0 (the root) the five interesting keys
 * are recorded in sc.
 */
static bool
scan_object(StatsScan *sc, int depth, ScanSpan *entries)
{
	if (scan_open(sc, '}'))
		return true;
	for (;;)
	{
		ScanSpan	key;
		ScanSpan	val;
		ScanSpan   *sub = NULL;
		ScanNext	next;
		int			k;

		scan_ws(sc);
		if (!scan_string(sc, &key, true))
			return false;
		scan_ws(sc);
		if (sc->p >= sc->end || *sc->p != ':')
			return false;
		sc->p++;
		if (depth == 0)
		{
			/* a later duplicate replaces the whole earlier object */
			if (key.len == 9 && memcmp(key.p, "minValues", 9) == 0)
			{
				sub = sc->min;
				sc->has_min_obj = true;
			}
			else if (key.len == 9 && memcmp(key.p, "maxValues", 9) == 0)
			{
				sub = sc->max;
				sc->has_max_obj = true;
			}
			else if (key.len == 9 && memcmp(key.p, "nullCount", 9) == 0)
				sub = sc->nc;
			if (sub)
				for (k = 0; k < sc->nfields; k++)
					sub[k].type = SPAN_ABSENT;
		}
		/* scalars inline (the common case), the rest through scan_value */
		scan_ws(sc);
		if (scan_quote(sc))
		{
			if (!scan_string(sc, &val, false))
				return false;
		}
		else if (sc->p < sc->end &&
				 ((*sc->p >= '0' && *sc->p <= '9') || *sc->p == '-'))
		{
			if (!scan_number(sc, &val))
				return false;
		}
		else if (!scan_value(sc, depth + 1, &val, sub))
			return false;
		if (depth == 0)
		{
			if (key.len == 10 && memcmp(key.p, "numRecords", 10) == 0)
				sc->num_records = val;
			else if (key.len == 11 && memcmp(key.p, "tightBounds", 11) == 0)
				sc->tight_bounds = val;
		}
		if (entries)
		{
			for (k = 0; k < sc->nfields; k++)
			{
				if (sc->namelen[k] == key.len &&
					memcmp(sc->fields[k]->physical_name, key.p, key.len) == 0)
					entries[k] = val;
			}
		}
		next = scan_next(sc, '}');
		if (next != SCAN_NEXT_MORE)
			return next == SCAN_NEXT_CLOSED;
	}
}

/*
 * scan_value: any value at sc->p into *span (containers: type only);
 * entries: see scan_object (used only when the value is an object).
 */
static bool
scan_value(StatsScan *sc, int depth, ScanSpan *span, ScanSpan *entries)
{
	if (depth > SCAN_MAX_DEPTH)
		return false;
	scan_ws(sc);
	if (sc->p >= sc->end)
		return false;
	span->p = sc->p;
	span->len = 0;
	span->escaped = false;
	switch (*sc->p)
	{
		case '{':
			span->type = DJ_OBJECT;
			return scan_object(sc, depth, entries);
		case '[':
			span->type = DJ_ARRAY;
			if (scan_open(sc, ']'))
				return true;
			for (;;)
			{
				ScanSpan	item;
				ScanNext	next;

				if (!scan_value(sc, depth + 1, &item, NULL))
					return false;
				next = scan_next(sc, ']');
				if (next != SCAN_NEXT_MORE)
					return next == SCAN_NEXT_CLOSED;
			}
		case '"':
		case '\\':
			return scan_string(sc, span, false);
		case 't':
			return scan_literal(sc, "true", 4, DJ_TRUE, span);
		case 'f':
			return scan_literal(sc, "false", 5, DJ_FALSE, span);
		case 'n':
			return scan_literal(sc, "null", 4, DJ_NULL, span);
		default:
			return scan_number(sc, span);
	}
}

/*
 * span_value: the DjValue the parse tree would hold for a scalar span
 * (text copied NUL-terminated into buf, which must hold
 * SCAN_MAX_NUMBER + 1 bytes for numbers; strings are copied with palloc).
 * NULL for an absent entry.
 */
static const DjValue *
span_value(const ScanSpan *span, DjValue *v, char *buf)
{
	if (span->type == SPAN_ABSENT)
		return NULL;
	memset(v, 0, sizeof(*v));
	v->type = span->type;
	if (span->type == DJ_NUMBER)
	{
		memcpy(buf, span->p, span->len);
		buf[span->len] = '\0';
		v->u.num = buf;
		v->len = (uint32) span->len;
	}
	else if (span->type == DJ_STRING && span->escaped)
	{
		char	   *str = palloc(span->len + 1);

		v->len = (uint32) jstr_decode(span->p, span->p + span->len,
									  span->esc_mode ? JS_ESCAPED : JS_PLAIN,
									  str);
		str[v->len] = '\0';
		v->u.str = str;
	}
	else if (span->type == DJ_STRING)
	{
		v->u.str = pnstrdup(span->p, span->len);
		v->len = (uint32) span->len;
	}
	return v;
}

/* an integral leaf whose min/max statistics are used (int_leaf_fast's) */
static inline bool
int_leaf_eligible(const DeltaField *f)
{
	return f->minmax_eligible && OidIsValid(f->pg_type) &&
		(f->kind == DELTA_TYPE_LONG || f->kind == DELTA_TYPE_INTEGER ||
		 f->kind == DELTA_TYPE_SHORT || f->kind == DELTA_TYPE_BYTE);
}

/*
 * int_leaf_fast: decode_leaf_values for an integral leaf whose present
 * entries are all plain integers (span_int), without DjValues; false
 * (nothing set) for any other leaf or entry, which the caller then
 * decodes the general way.  The same answer as decode_leaf_values, except
 * that min_text / max_text stay NULL (the scanner's caller drops them).
 */
static bool
int_leaf_fast(const DeltaField *f, const ScanSpan *minsp,
			  const ScanSpan *maxsp, const ScanSpan *ncsp,
			  bool has_min_obj, bool has_max_obj,
			  bool has_num_records, int64 num_records, DeltaLeafStats *ls)
{
	int64		vmin = 0;
	int64		vmax = 0;
	int64		nc = 0;
	int64		lo;
	int64		hi;
	bool		min_there;
	bool		max_there;

	if (!int_leaf_eligible(f))
		return false;
	min_there = has_min_obj && minsp->type != SPAN_ABSENT;
	max_there = has_max_obj && maxsp->type != SPAN_ABSENT;
	if ((min_there && !span_int(minsp, &vmin)) ||
		(max_there && !span_int(maxsp, &vmax)) ||
		(ncsp->type != SPAN_ABSENT && !span_int(ncsp, &nc)))
		return false;
	int_range(f->kind, &lo, &hi);
	if ((min_there && (vmin < lo || vmin > hi)) ||
		(max_there && (vmax < lo || vmax > hi)))
		return false;			/* out of range: the general way notes it */
	if (ncsp->type != SPAN_ABSENT && nc >= 0 &&
		(!has_num_records || nc <= num_records))
	{
		ls->has_null_count = true;
		ls->null_count = nc;
	}
	if (min_there)
	{
		ls->has_min = true;
		ls->min = int_datum(f, vmin);
	}
	if (max_there)
	{
		ls->has_max = true;
		ls->max = int_datum(f, vmax);
	}
	return true;
}

/*
 * scan_root: set up sc over [p, end) for fields[0..nfields) (spans: 3 *
 * nfields of room) and scan the root object there, leaving sc->p after it
 * and any white space that follows.  False when outside the subset.
 */
static bool
scan_root(StatsScan *sc, const char *p, const char *end, int nfields,
		  const DeltaField *const *fields, const int *namelen,
		  ScanSpan *spans)
{
	ScanSpan	root;
	int			k;

	sc->p = p;
	sc->end = end;
	sc->nfields = nfields;
	sc->fields = fields;
	sc->namelen = (int *) namelen;
	sc->min = spans;
	sc->max = spans + nfields;
	sc->nc = spans + 2 * nfields;
	sc->num_records.type = SPAN_ABSENT;
	sc->tight_bounds.type = SPAN_ABSENT;
	sc->has_min_obj = sc->has_max_obj = false;
	for (k = 0; k < 3 * nfields; k++)
		spans[k].type = SPAN_ABSENT;
	scan_ws(sc);
	if (sc->p >= sc->end || *sc->p != '{')
		return false;
	if (!scan_value(sc, 0, &root, NULL))
		return false;
	scan_ws(sc);
	return true;
}

/* scan_header: the column-independent part of a scanned stats text */
static void
scan_header(const StatsScan *sc, DeltaStatsHeader *hdr)
{
	DjValue		v;
	char		buf[SCAN_MAX_NUMBER + 1];
	const DjValue *nr;
	int64		n;

	memset(hdr, 0, sizeof(*hdr));
	hdr->has_stats = true;
	hdr->tight_bounds = -1;
	if (span_int(&sc->num_records, &n))
	{
		/* the common case, without a DjValue */
		if (n >= 0)
		{
			hdr->has_num_records = true;
			hdr->num_records = n;
		}
	}
	else if ((nr = span_value(&sc->num_records, &v, buf)) != NULL)
	{
		if (dj_to_int64(nr, &n) && n >= 0)
		{
			hdr->has_num_records = true;
			hdr->num_records = n;
		}
	}
	if (sc->tight_bounds.type == DJ_TRUE)
		hdr->tight_bounds = 1;
	else if (sc->tight_bounds.type == DJ_FALSE)
		hdr->tight_bounds = 0;
}

/*
 * scan_stats: decode the header and the leaves fields[0..nfields) (all
 * top-level, minmax per decode_leaf) of one stats text with the scanner.
 * False when the text is outside the scanner's subset: nothing is set then
 * and the caller must parse it.  Values in CurrentMemoryContext; the
 * texts of the minima and maxima (min_text, max_text) only when texts,
 * else integral ones are left NULL.
 */
static bool
scan_stats(const char *json, int nfields, const DeltaField *const *fields,
		   const int *namelen, ScanSpan *spans, DeltaStatsHeader *hdr,
		   DeltaLeafStats **out, bool texts)
{
	StatsScan	sc;
	int			k;

	memset(&sc, 0, sizeof(sc));
	if (!scan_root(&sc, json, json + strlen(json), nfields, fields, namelen,
				   spans) || sc.p != sc.end)
		return false;
	scan_header(&sc, hdr);
	for (k = 0; k < nfields; k++)
	{
		DjValue		vmin,
					vmax,
					vnc;
		char		bmin[SCAN_MAX_NUMBER + 1],
					bmax[SCAN_MAX_NUMBER + 1],
					bnc[SCAN_MAX_NUMBER + 1];

		if (!texts &&
			int_leaf_fast(fields[k], &sc.min[k], &sc.max[k], &sc.nc[k],
						  sc.has_min_obj, sc.has_max_obj,
						  hdr->has_num_records, hdr->num_records, out[k]))
			continue;
		/* a minValues that is not an object looks up nothing */
		decode_leaf_values(fields[k],
						   span_value(&sc.min[k], &vmin, bmin),
						   span_value(&sc.max[k], &vmax, bmax),
						   span_value(&sc.nc[k], &vnc, bnc),
						   sc.has_min_obj, sc.has_max_obj,
						   hdr->has_num_records, hdr->num_records, out[k]);
	}
	return true;
}

/*
 * delta_stats_scan_header: see stats.h.  scan_header's numRecords is
 * dj_to_int64's of a number (a string there is no count, as for
 * DeltaStatsFieldsFromJson).
 */
bool
delta_stats_scan_header(const char *json, size_t len, DeltaStatsHeader *hdr)
{
	StatsScan	sc;

	memset(&sc, 0, sizeof(sc));
	if (!scan_root(&sc, json, json + len, 0, NULL, NULL, NULL) ||
		sc.p != sc.end)
		return false;
	if (sc.num_records.type != DJ_NUMBER)
		sc.num_records.type = SPAN_ABSENT;
	scan_header(&sc, hdr);
	return true;
}

/*
 * One remembered layout of the prescan: a shape (jshape.h) and role[]:
 * the slot that holds numRecords, tightBounds, then min, max, nullCount of
 * each column (-1: absent in that layout).
 */
typedef struct PrescanShape
{
	MemoryContext cxt;			/* owns the shape and everything below */
	JsShape		shape;
	JsSlot	   *slots;			/* [shape.nslots] */
	int		   *role;			/* [2 + 3 * ncols] */
	bool		min_obj;		/* minValues / maxValues present in the */
	bool		max_obj;		/* layout (any type) */
	int			matched;		/* texts it took (its template from the
								 * second on: js_build_template) */
} PrescanShape;

/* layouts a prescan remembers at once, and builds at most (for texts of
 * ever-changing layouts, which the scanner reads) */
#define PRESCAN_SHAPES 8
#define PRESCAN_MAX_SHAPES 64
#define PRESCAN_RETRY_EVERY 64
#define PRESCAN_KEYED_TRIES 3	/* keyed models a text is tried on */

/*
 * The prescan: a winner's add line's stats string scanned while the line
 * is read (see stats.h).
 */
struct DeltaStatsPrescan
{
	int			ncols;
	const DeltaField **fields;
	int		   *namelen;
	ScanSpan   *spans;			/* [3 * ncols] */
	int			cap;			/* room in the arrays below */
	int			nfiles;			/* valid entries (after _finish) */
	bool		finished;
	bool	   *ok;				/* [cap]: the entry below is the file's */
	DeltaStatsHeader *hdr;		/* [cap] */
	DeltaLeafStats **vals;		/* [ncols][cap] */

	/*
	 * The shapes of the last few stats texts the scanner accepted (see
	 * jshape.h), the one matched last first: a text of one of them is
	 * decoded by matching it, without the scanner.
	 */
	int			nshapes;
	PrescanShape *shapes[PRESCAN_SHAPES];
	PrescanShape *keyed_last;	/* the shape of the last keyed match */
	int			shape_builds;	/* shapes built so far (bounded) */
	int			scanned;		/* texts scanned since the bound was met */
};

/*
 * delta_stats_prescan_create: see stats.h.
 */
DeltaStatsPrescan *
delta_stats_prescan_create(int ncols, const DeltaField *const *fields)
{
	DeltaStatsPrescan *ps;
	int			k;

	if (ncols <= 0)
		return NULL;
	for (k = 0; k < ncols; k++)
	{
		const DeltaField *f = fields[k];

		if (f->parent != NULL || !int_leaf_eligible(f))
			return NULL;		/* only top-level integral leaves */
	}
	ps = palloc0(sizeof(DeltaStatsPrescan));
	ps->ncols = ncols;
	ps->fields = palloc(sizeof(DeltaField *) * ncols);
	ps->namelen = palloc(sizeof(int) * ncols);
	for (k = 0; k < ncols; k++)
	{
		ps->fields[k] = fields[k];
		ps->namelen[k] = (int) strlen(fields[k]->physical_name);
	}
	ps->spans = palloc(sizeof(ScanSpan) * 3 * ncols);
	ps->vals = palloc0(sizeof(DeltaLeafStats *) * ncols);
	return ps;
}

/*
 * prescan_role: the slot of the model [base, ...) that holds span (a
 * scalar), -1 when span is absent, -2 when no slot does (a container).
 */
static int
prescan_role(const JsShape *shape, const char *base, const ScanSpan *span)
{
	int			slot;

	if (span->type == SPAN_ABSENT)
		return -1;
	if (span->type == DJ_OBJECT || span->type == DJ_ARRAY)
		return -2;
	slot = js_slot_at(shape, span->p - base);
	return slot >= 0 ? slot : -2;
}

/*
 * prescan_build_shape: remember the shape of the stats text [base, stop)
 * that the scanner (or a keyed model) just accepted into sc, with the
 * slots of its answers, last
 * among the shapes (replacing the last one when all places are taken: a
 * shape made last and matched by no text since); nothing when it does not
 * fit one.  Each shape has its own context, under the prescan's.
 */
static void
prescan_build_shape(DeltaStatsPrescan *ps, const StatsScan *sc,
					const char *base, const char *stop)
{
	FmtAllocator alloc;
	MemoryContext cxt;
	PrescanShape *sh;
	int			k;

	/* (after the first few, one build per PRESCAN_RETRY_EVERY texts) */
	if (ps->shape_builds >= PRESCAN_MAX_SHAPES &&
		++ps->scanned % PRESCAN_RETRY_EVERY != 0)
		return;
	ps->shape_builds++;
	cxt = AllocSetContextCreate(GetMemoryChunkContext(ps),
								"deltacc stats shape", ALLOCSET_SMALL_SIZES);
	sh = MemoryContextAllocZero(cxt, sizeof(PrescanShape));
	sh->cxt = cxt;
	sh->role = MemoryContextAlloc(cxt, sizeof(int) * (2 + 3 * ps->ncols));
	alloc = dc_fmt_allocator(cxt);
	if (!js_build(&sh->shape, base, stop - base, JS_ESCAPED, &alloc))
	{
		MemoryContextDelete(cxt);
		return;
	}
	sh->role[0] = prescan_role(&sh->shape, base, &sc->num_records);
	sh->role[1] = prescan_role(&sh->shape, base, &sc->tight_bounds);
	for (k = 0; k < ps->ncols; k++)
	{
		sh->role[2 + 3 * k] = prescan_role(&sh->shape, base, &sc->min[k]);
		sh->role[3 + 3 * k] = prescan_role(&sh->shape, base, &sc->max[k]);
		sh->role[4 + 3 * k] = prescan_role(&sh->shape, base, &sc->nc[k]);
	}
	for (k = 0; k < 2 + 3 * ps->ncols; k++)
		if (sh->role[k] == -2)
		{
			MemoryContextDelete(cxt);
			return;				/* an answer the shape cannot give */
		}
	sh->slots = MemoryContextAlloc(cxt,
								   sizeof(JsSlot) * Max(sh->shape.nslots, 1));
	/* the same layout in any member order (no keyed model: none) */
	(void) js_build_keyed(&sh->shape, &alloc);
	sh->min_obj = sc->has_min_obj;
	sh->max_obj = sc->has_max_obj;
	if (ps->nshapes == PRESCAN_SHAPES)
	{
		PrescanShape *old = ps->shapes[--ps->nshapes];

		if (old == ps->keyed_last)
			ps->keyed_last = NULL;
		MemoryContextDelete(old->cxt);
	}
	ps->shapes[ps->nshapes++] = sh;
}

/* the span of role slot r of a text matched at base (r -1: absent) */
static inline void
prescan_slot_span(const PrescanShape *sh, const char *base, int r,
				  ScanSpan *span)
{
	static const DjType kinds[] = {
		[JS_SLOT_NUMBER] = DJ_NUMBER,
		[JS_SLOT_STRING] = DJ_STRING,
		[JS_SLOT_TRUE] = DJ_TRUE,
		[JS_SLOT_FALSE] = DJ_FALSE,
		[JS_SLOT_NULL] = DJ_NULL,
	};
	const JsSlot *sl;

	if (r < 0 || sh->slots[r].kind == JS_SLOT_ABSENT)
	{
		span->type = SPAN_ABSENT;	/* (absent: a keyed match's) */
		return;
	}
	sl = &sh->slots[r];
	span->type = kinds[sl->kind];
	span->escaped = sl->kind == JS_SLOT_STRING && sl->escaped;
	span->esc_mode = true;
	span->p = base + sl->off;
	span->len = (int) sl->len;
}

/*
 * prescan_match_shape: decode the stats string whose text starts at base
 * (after the opening quote; the line ends at end) by matching the
 * remembered shapes in turn, then their keyed models
 * (js_match_keyed: the layout's keys in any order, each once, scalar
 * members missing); true when one
 * matched (it moves to the front): sc holds the same answers the scanner
 * would give, out the unescaped text (*outlen bytes), *after the byte
 * after the closing quote and *keyed_match whether a keyed model took it.
 */
static bool
prescan_match_shape(DeltaStatsPrescan *ps, StatsScan *sc, const char *base,
					const char *end, char *out, int *outlen,
					const char **after, bool *keyed_match)
{
	size_t		consumed;
	size_t		olen;
	PrescanShape *sh = NULL;
	int			i;
	int			k;

	*keyed_match = false;
	for (i = 0; i < ps->nshapes; i++)
	{
		sh = ps->shapes[i];
		if (js_match(&sh->shape, base, end, sh->slots, &consumed, out, &olen) &&
			base + consumed < end && base[consumed] == '"')
			break;
	}
	if (i == ps->nshapes)
	{
		/*
		 * A layout's keys in another order (delta-rs orders the columns
		 * anew on every file), or some columns' entries missing: the
		 * layout of the last keyed match first, then the others, a few
		 * at most.  A keyed match writes no unescaped copy: when one is
		 * wanted, the string is decoded on its own below.
		 */
		int			tries = 0;
		bool		keyed = false;

		for (k = -1; k < ps->nshapes && tries < PRESCAN_KEYED_TRIES && !keyed;
			 k++)
		{
			sh = k < 0 ? ps->keyed_last : ps->shapes[k];
			if (sh == NULL || sh->shape.keyed == NULL ||
				(k >= 0 && sh == ps->keyed_last))
				continue;
			tries++;
			keyed = js_match_keyed(&sh->shape, base, end, sh->slots,
								   &consumed) &&
				base + consumed < end && base[consumed] == '"';
		}
		if (keyed && out != NULL)
		{
			/* the copy: the whole string, validated again as it is decoded */
			const char *q = base - 1;
			int			n;

			keyed = fl_unescape_string(&q, end, out, &n) &&
				q == base + consumed + 1;
			olen = (size_t) n;
		}
		*keyed_match = keyed;
		if (keyed)
		{
			ps->keyed_last = sh;
			for (i = 0; ps->shapes[i] != sh; i++)
				;
		}
	}
	if (i == ps->nshapes)
		return false;
	if (sh->matched < 2 && ++sh->matched == 2)
	{
		FmtAllocator alloc = dc_fmt_allocator(sh->cxt);

		(void) js_build_template(&sh->shape, &alloc);
	}
	if (i > 0)
	{
		memmove(&ps->shapes[1], &ps->shapes[0], sizeof(PrescanShape *) * i);
		ps->shapes[0] = sh;
	}
	sc->nfields = ps->ncols;
	sc->min = ps->spans;
	sc->max = ps->spans + ps->ncols;
	sc->nc = ps->spans + 2 * ps->ncols;
	prescan_slot_span(sh, base, sh->role[0], &sc->num_records);
	prescan_slot_span(sh, base, sh->role[1], &sc->tight_bounds);
	for (k = 0; k < ps->ncols; k++)
	{
		prescan_slot_span(sh, base, sh->role[2 + 3 * k], &sc->min[k]);
		prescan_slot_span(sh, base, sh->role[3 + 3 * k], &sc->max[k]);
		prescan_slot_span(sh, base, sh->role[4 + 3 * k], &sc->nc[k]);
	}
	sc->has_min_obj = sh->min_obj;
	sc->has_max_obj = sh->max_obj;
	if (out != NULL)
		*outlen = (int) olen;
	*after = base + consumed + 1;
	return true;
}

/*
 * prescan_room: the arrays hold index; they live in cxt (the commit's),
 * grown by doubling.
 */
static void
prescan_room(DeltaStatsPrescan *ps, int index, MemoryContext cxt)
{
	MemoryContext old;
	int			cap;
	int			k;

	if (index < ps->cap)
		return;
	old = MemoryContextSwitchTo(cxt);
	cap = Max(256, ps->cap * 2);
	while (cap <= index)
		cap *= 2;
	if (ps->ok == NULL)
	{
		ps->ok = palloc_extended(sizeof(bool) * cap, MCXT_ALLOC_HUGE);
		ps->hdr = palloc_extended(sizeof(DeltaStatsHeader) * cap,
								  MCXT_ALLOC_HUGE);
		for (k = 0; k < ps->ncols; k++)
			ps->vals[k] = palloc_extended(sizeof(DeltaLeafStats) * cap,
										  MCXT_ALLOC_HUGE);
	}
	else
	{
		ps->ok = repalloc_huge(ps->ok, sizeof(bool) * cap);
		ps->hdr = repalloc_huge(ps->hdr, sizeof(DeltaStatsHeader) * cap);
		for (k = 0; k < ps->ncols; k++)
			ps->vals[k] = repalloc_huge(ps->vals[k],
										sizeof(DeltaLeafStats) * cap);
	}
	/* entries never written say "not prescanned" */
	memset(ps->ok + ps->cap, 0, sizeof(bool) * (cap - ps->cap));
	ps->cap = cap;
	MemoryContextSwitchTo(old);
}

/*
 * delta_stats_prescan_reset: see stats.h.
 */
void
delta_stats_prescan_reset(DeltaStatsPrescan *ps)
{
	int			k;

	if (ps->ok != NULL)
	{
		/* (the header and columns may have gone to a commit's statistics) */
		pfree(ps->ok);
		if (ps->hdr != NULL)
			pfree(ps->hdr);
		for (k = 0; k < ps->ncols; k++)
			if (ps->vals[k] != NULL)
				pfree(ps->vals[k]);
	}
	ps->ok = NULL;
	ps->hdr = NULL;
	for (k = 0; k < ps->ncols; k++)
		ps->vals[k] = NULL;
	ps->cap = 0;
	ps->nfiles = 0;
	ps->finished = false;
}

/*
 * delta_stats_prescan_forget: see stats.h.
 */
void
delta_stats_prescan_forget(DeltaStatsPrescan *ps, int index)
{
	if (index < ps->cap)
		ps->ok[index] = false;
}

/*
 * delta_stats_prescan_string: see stats.h.
 */
bool
delta_stats_prescan_string(DeltaStatsPrescan *ps, int index, const char *p,
						   const char *end, char *out, int *outlen,
						   const char **after, MemoryContext cxt)
{
	StatsScan	sc;
	DeltaStatsHeader *h;
	bool		matched;
	bool		keyed;
	int			k;

	prescan_room(ps, index, cxt);
	ps->ok[index] = false;
	if (p >= end || *p != '"')
		return false;
	memset(&sc, 0, sizeof(sc));
	matched = prescan_match_shape(ps, &sc, p + 1, end, out, outlen, after,
								  &keyed);
	dc_fastpath_note(DC_FP_STATS_LAYOUT, matched);
	if (keyed && ps->shape_builds < PRESCAN_SHAPES)
	{
		/*
		 * Its own layout too, while few were made (one that other texts
		 * repeat is matched cheaper byte for byte).
		 */
		prescan_build_shape(ps, &sc, p + 1, *after - 1);
	}
	else if (!matched)
	{
		/* the scanner, then remember this text's shape */
		memset(&sc, 0, sizeof(sc));
		sc.esc = true;
		sc.out = out;
		sc.copied = p + 1;
		if (!scan_root(&sc, p + 1, end, ps->ncols, ps->fields, ps->namelen,
					   ps->spans) ||
			sc.p >= end || *sc.p != '"')
			return false;
		/* the rest of the string (after the last escaped quote) */
		if (out != NULL && sc.out_whole)
			*outlen = (int) jstr_decode(p + 1, sc.p, JS_PLAIN, out);
		else if (out != NULL)
		{
			memcpy(sc.out, sc.copied, sc.p - sc.copied);
			sc.out += sc.p - sc.copied;
			*outlen = (int) (sc.out - out);
		}
		*after = sc.p + 1;
		prescan_build_shape(ps, &sc, p + 1, sc.p);
	}

	h = &ps->hdr[index];
	scan_header(&sc, h);
	for (k = 0; k < ps->ncols; k++)
	{
		DeltaLeafStats *ls = &ps->vals[k][index];

		memset(ls, 0, sizeof(*ls));
		if (!int_leaf_fast(ps->fields[k], &sc.min[k], &sc.max[k], &sc.nc[k],
						   sc.has_min_obj, sc.has_max_obj,
						   h->has_num_records, h->num_records, ls))
			return true;		/* a valid string; its leaves decoded later
								 * (and counted then) */
	}
	ps->ok[index] = true;
	dc_fastpath_note(DC_FP_STATS_SCAN, true);
	return true;
}

/*
 * delta_stats_prescan_ok: see stats.h.
 */
bool
delta_stats_prescan_ok(const DeltaStatsPrescan *ps, int index)
{
	return index >= 0 && index < ps->cap && ps->ok[index];
}

/*
 * delta_stats_prescan_header: see stats.h.  Both come from scan_header over
 * the same scanner's spans (a numRecords that is not a number is no count
 * for either: span_int and dj_to_int64 take numbers only).
 */
bool
delta_stats_prescan_header(const DeltaStatsPrescan *ps, int index,
						   DeltaStatsHeader *hdr)
{
	if (!delta_stats_prescan_ok(ps, index))
		return false;
	*hdr = ps->hdr[index];
	return true;
}

/*
 * delta_stats_prescan_finish: see stats.h.
 */
void
delta_stats_prescan_finish(DeltaStatsPrescan *ps, int nfiles, const int *map)
{
	bool	   *ok;
	DeltaStatsHeader *hdr;
	MemoryContext old;
	int			i,
				k;

	ps->finished = true;
	ps->nfiles = nfiles;
	if (nfiles == 0 || ps->cap == 0)
	{
		ps->nfiles = 0;
		return;
	}
	if (map == NULL)
		return;					/* entry i is file i (none at cap or later) */
	old = MemoryContextSwitchTo(GetMemoryChunkContext(ps->ok));
	ok = palloc_extended(sizeof(bool) * nfiles, MCXT_ALLOC_HUGE);
	hdr = palloc_extended(sizeof(DeltaStatsHeader) * nfiles, MCXT_ALLOC_HUGE);
	for (i = 0; i < nfiles; i++)
	{
		CHECK_FOR_INTERRUPTS();
		ok[i] = map[i] >= 0 && map[i] < ps->cap && ps->ok[map[i]];
		if (ok[i])
			hdr[i] = ps->hdr[map[i]];
	}
	for (k = 0; k < ps->ncols; k++)
	{
		DeltaLeafStats *v = palloc_extended(sizeof(DeltaLeafStats) * nfiles,
											MCXT_ALLOC_HUGE);

		for (i = 0; i < nfiles; i++)
			if (ok[i])
				v[i] = ps->vals[k][map[i]];
		pfree(ps->vals[k]);
		ps->vals[k] = v;
	}
	pfree(ps->ok);
	pfree(ps->hdr);
	ps->ok = ok;
	ps->hdr = hdr;
	ps->cap = nfiles;
	MemoryContextSwitchTo(old);
}

/*
 * parse_stats_root: parse a stats JSON text and fill the column-independent
 * header.  Returns false (header says no statistics; *error set when the
 * text did not parse as an object) when there is nothing to decode.  The
 * DOM is allocated in CurrentMemoryContext.
 */
static bool
parse_stats_root(const char *json, DjValue *root, DeltaStatsHeader *hdr,
				 const char **error)
{
	FmtAllocator alloc = dc_fmt_allocator(NULL);
	DjError		err;
	const DjValue *nr;
	const DjValue *tb;

	memset(hdr, 0, sizeof(*hdr));
	hdr->tight_bounds = -1;
	*error = NULL;
	if (json == NULL)
		return false;
	if (!dj_parse(json, strlen(json), &alloc, DJ_DEFAULT_MAX_DEPTH, root, &err))
	{
		*error = psprintf("%s at byte %zu", err.message, err.offset);
		return false;
	}
	if (root->type != DJ_OBJECT)
	{
		*error = "statistics are not a JSON object";
		return false;
	}
	hdr->has_stats = true;
	nr = dj_get(root, "numRecords");
	if (nr != NULL)
	{
		int64_t		v;

		if (dj_to_int64(nr, &v) && v >= 0)
		{
			hdr->has_num_records = true;
			hdr->num_records = v;
		}
	}
	tb = dj_get(root, "tightBounds");
	if (tb != NULL && tb->type == DJ_TRUE)
		hdr->tight_bounds = 1;
	else if (tb != NULL && tb->type == DJ_FALSE)
		hdr->tight_bounds = 0;
	return true;
}

/*
 * decode_by_scan: delta_stats_decode with the scanner, when every leaf to
 * decode is a top-level column (at most DECODE_SCAN_MAX of them): fs
 * (leaves zeroed) filled and true; false (fs untouched) otherwise or when
 * the text is outside the scanner's subset.
 */
#define DECODE_SCAN_MAX 64

#ifdef USE_ASSERT_CHECKING
static void assert_scan_matches_tree(const char *json, int n,
									 const DeltaField *const *fields,
									 const DeltaStatsHeader *h,
									 DeltaLeafStats **got, bool texts);
#endif

static bool
decode_by_scan(const DeltaSchema *schema, const char *json,
			   const bool *wanted, DeltaFileStats *fs)
{
	const DeltaField *fields[DECODE_SCAN_MAX] = {0};
	int			namelen[DECODE_SCAN_MAX] = {0};
	DeltaLeafStats *outs[DECODE_SCAN_MAX] = {0};
	ScanSpan	spans[3 * DECODE_SCAN_MAX];
	DeltaStatsHeader hdr;
	int			n = 0;
	int			i;

	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];

		if (!f->in_stats || (wanted != NULL && !wanted[i]))
			continue;
		if (f->parent != NULL || n == DECODE_SCAN_MAX)
			return false;		/* nested: the parse tree finds it */
		fields[n] = f;
		namelen[n] = (int) strlen(f->physical_name);
		outs[n] = &fs->leaves[i];
		n++;
	}
	if (!scan_stats(json, n, fields, namelen, spans, &hdr, outs, true))
	{
		for (i = 0; i < n; i++)
			memset(outs[i], 0, sizeof(DeltaLeafStats));
		return false;
	}
#ifdef USE_ASSERT_CHECKING
	assert_scan_matches_tree(json, n, fields, &hdr, outs, true);
#endif
	fs->has_stats = true;
	fs->has_num_records = hdr.has_num_records;
	fs->num_records = hdr.num_records;
	fs->tight_bounds = hdr.tight_bounds;
	return true;
}

/*
 * Decode a file's statistics; see stats.h.
 */
DeltaFileStats *
delta_stats_decode(const DeltaSchema *schema, const char *json,
				   const bool *wanted)
{
	DeltaFileStats *fs = palloc0(sizeof(DeltaFileStats));
	DeltaStatsHeader hdr;
	DjValue		root;
	const DjValue *minv;
	const DjValue *maxv;
	const DjValue *nullc;
	int			i;

	fs->nleaves = schema->nleaves;
	fs->leaves = palloc0(sizeof(DeltaLeafStats) * Max(1, schema->nleaves));
	if (json != NULL && decode_by_scan(schema, json, wanted, fs))
	{
		dc_fastpath_note(DC_FP_STATS_SCAN, true);
		return fs;
	}
	if (json != NULL)
		dc_fastpath_note(DC_FP_STATS_SCAN, false);
	if (!parse_stats_root(json, &root, &hdr, &fs->error))
	{
		fs->tight_bounds = -1;
		return fs;
	}
	fs->has_stats = true;
	fs->has_num_records = hdr.has_num_records;
	fs->num_records = hdr.num_records;
	fs->tight_bounds = hdr.tight_bounds;

	minv = dj_get(&root, "minValues");
	maxv = dj_get(&root, "maxValues");
	nullc = dj_get(&root, "nullCount");

	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];

		if (!f->in_stats || (wanted != NULL && !wanted[i]))
			continue;
		decode_leaf(f, minv, maxv, nullc, fs->has_num_records,
					fs->num_records, &fs->leaves[i]);
	}
	return fs;
}

/*
 * delta_stats_column_key: see stats.h.  Every component is length-prefixed,
 * so no physical name can make two columns collide.
 */
char *
delta_stats_column_key(const DeltaField *f)
{
	StringInfoData buf;
	const DeltaField *chain[64];
	int			n = 0;
	const DeltaField *g;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%d/%u/%d/%d", (int) f->kind, f->pg_type,
					 (int) f->minmax_eligible, f->depth);
	for (g = f; g != NULL && n < 64; g = g->parent)
		chain[n++] = g;
	while (n > 0)
	{
		const char *name = chain[--n]->physical_name;

		appendStringInfo(&buf, "/%zu:%s", strlen(name), name);
	}
	return buf.data;
}

#ifdef USE_ASSERT_CHECKING
/*
 * assert_scan_matches_tree: the scanner's answer for one stats text must
 * be the parse tree's (checked in assert-enabled builds, so every
 * regression suite compares the two).
 */
static void
assert_scan_matches_tree(const char *json, int n,
						 const DeltaField *const *fields,
						 const DeltaStatsHeader *h, DeltaLeafStats **got,
						 bool texts)
{
	DeltaStatsHeader th;
	DjValue		root;
	const char *error;
	int			k;

	Assert(parse_stats_root(json, &root, &th, &error));
	Assert(th.has_stats == h->has_stats &&
		   th.has_num_records == h->has_num_records &&
		   (!th.has_num_records || th.num_records == h->num_records) &&
		   th.tight_bounds == h->tight_bounds);
	for (k = 0; k < n; k++)
	{
		DeltaLeafStats t;
		DeltaLeafStats *g = got[k];
		const DeltaField *f = fields[k];
		int16		typlen = -1;
		bool		byval = false;

		memset(&t, 0, sizeof(t));
		decode_leaf(f, dj_get(&root, "minValues"), dj_get(&root, "maxValues"),
					dj_get(&root, "nullCount"), th.has_num_records,
					th.num_records, &t);
		if (OidIsValid(f->pg_type))
			get_typlenbyval(f->pg_type, &typlen, &byval);
		Assert(t.has_min == g->has_min && t.has_max == g->has_max &&
			   t.has_null_count == g->has_null_count);
		Assert(!t.has_null_count || t.null_count == g->null_count);
		Assert(!t.has_min || datumIsEqual(t.min, g->min, byval, typlen));
		Assert(!t.has_max || datumIsEqual(t.max, g->max, byval, typlen));
		Assert((t.min_note == NULL) == (g->min_note == NULL) &&
			   (t.max_note == NULL) == (g->max_note == NULL));
		Assert(!texts || ((t.min_text == NULL) == (g->min_text == NULL) &&
						  (t.max_text == NULL) == (g->max_text == NULL)));
		Assert(!texts || t.min_text == NULL ||
			   strcmp(t.min_text, g->min_text) == 0);
		Assert(!texts || t.max_text == NULL ||
			   strcmp(t.max_text, g->max_text) == 0);
	}
}
#endif

/*
 * delta_commit_stats_memo: see stats.h.
 */
uint8 *
delta_commit_stats_memo(DeltaCommitStats *cs, const char *key, int keylen,
						MemoryContext cxt)
{
	DeltaDecisionMemo *m;

	for (m = cs->memos; m != NULL; m = m->next)
		if (m->keylen == keylen && memcmp(m->key, key, keylen) == 0)
			return m->state;
	m = MemoryContextAlloc(cxt, sizeof(DeltaDecisionMemo));
	m->key = MemoryContextAlloc(cxt, Max(keylen, 1));
	memcpy(m->key, key, keylen);
	m->keylen = keylen;
	m->state = MemoryContextAllocExtended(cxt, Max(cs->nfiles, 1),
										  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	m->next = cs->memos;
	cs->memos = m;
	return m->state;
}

/* Free the reasons a kept list remembers, if any (then it holds none). */
static void
kept_reasons_free(DeltaKeptList *kl)
{
	int			i;

	if (kl->reason_serial == 0)
		return;
	for (i = 0; i < kl->nkept; i++)
		if (kl->reason[i] != NULL)
			pfree(kl->reason[i]);
	pfree(kl->reason_read);
	pfree(kl->reason);
	kl->reason_serial = 0;
	kl->reason_read = NULL;
	kl->reason = NULL;
}

/*
 * delta_commit_stats_remembered, delta_commit_stats_forget: see stats.h.
 */
int
delta_commit_stats_remembered(const DeltaCommitStats *cs)
{
	const DeltaDecisionMemo *m;
	const DeltaKeptList *l;
	int			n = 0;

	for (m = cs->memos; m != NULL; m = m->next)
		n++;
	for (l = cs->kept; l != NULL; l = l->next)
		n++;
	return n;
}

void
delta_commit_stats_forget(DeltaCommitStats *cs)
{
	while (cs->memos != NULL)
	{
		DeltaDecisionMemo *m = cs->memos;

		cs->memos = m->next;
		pfree(m->key);
		pfree(m->state);
		pfree(m);
	}
	while (cs->kept != NULL)
	{
		DeltaKeptList *l = cs->kept;

		cs->kept = l->next;
		kept_reasons_free(l);
		pfree(l->key);
		pfree(l->kept);
		pfree(l);
	}
}

/*
 * delta_commit_stats_kept: see stats.h.
 */
const DeltaKeptList *
delta_commit_stats_kept(const DeltaCommitStats *cs, const char *key,
						int keylen)
{
	const DeltaKeptList *l;

	for (l = cs->kept; l != NULL; l = l->next)
		if (l->keylen == keylen && memcmp(l->key, key, keylen) == 0)
			return l;
	return NULL;
}

/*
 * delta_commit_stats_kept_store: see stats.h.  Everything is allocated
 * before the list is linked in, so an ERROR leaves no partial list.
 */
const DeltaKeptList *
delta_commit_stats_kept_store(DeltaCommitStats *cs, const char *key,
							  int keylen, int n, const bool *keep,
							  MemoryContext cxt)
{
	DeltaKeptList *l;
	int			nkept = 0;
	int			i;

	Assert(delta_commit_stats_kept(cs, key, keylen) == NULL);
	for (i = 0; i < n; i++)
		nkept += keep[i] ? 1 : 0;
	l = MemoryContextAlloc(cxt, sizeof(DeltaKeptList));
	l->key = MemoryContextAlloc(cxt, Max(keylen, 1));
	memcpy(l->key, key, keylen);
	l->keylen = keylen;
	l->n = n;
	l->nkept = 0;
	l->kept = MemoryContextAllocExtended(cxt, sizeof(int) * Max(nkept, 1),
										 MCXT_ALLOC_HUGE);
	for (i = 0; i < n; i++)
		if (keep[i])
			l->kept[l->nkept++] = i;
	l->reason_serial = 0;
	l->reason_read = NULL;
	l->reason = NULL;
	l->next = cs->kept;
	cs->kept = l;
	return l;
}

/*
 * delta_kept_index: see stats.h.
 */
int
delta_kept_index(const DeltaKeptList *kl, int pos)
{
	int			lo = 0;
	int			hi = kl->nkept - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (kl->kept[mid] == pos)
			return mid;
		if (kl->kept[mid] < pos)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * delta_kept_reason: see stats.h.
 */
bool
delta_kept_reason(const DeltaKeptList *kl, uint64 serial, int k, int read,
				  const char **reason)
{
	Assert(k >= 0 && k < kl->nkept);
	if (serial == 0 || kl->reason_serial != serial ||
		kl->reason_read[k] != read + 1)
		return false;
	*reason = kl->reason[k];
	return true;
}

/*
 * delta_kept_reason_store: see stats.h.  The arrays and texts are made
 * before anything is linked in, so an ERROR (out of memory) leaves the
 * list as it was, or with the old serial's texts gone.
 */
void
delta_kept_reason_store(DeltaKeptList *kl, uint64 serial, int k, int read,
						const char *reason, MemoryContext cxt)
{
	char	   *copy;

	Assert(serial != 0 && k >= 0 && k < kl->nkept);
	if (kl->reason_serial != serial)
	{
		int		   *rr;
		char	  **rt;

		kept_reasons_free(kl);
		rr = MemoryContextAllocExtended(cxt, sizeof(int) * kl->nkept,
										MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		rt = MemoryContextAllocExtended(cxt, sizeof(char *) * kl->nkept,
										MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		kl->reason_read = rr;
		kl->reason = rt;
		kl->reason_serial = serial;
	}
	copy = reason ? MemoryContextStrdup(cxt, reason) : NULL;
	if (kl->reason[k] != NULL)
		pfree(kl->reason[k]);
	kl->reason[k] = copy;
	kl->reason_read[k] = read + 1;
}

/*
 * keep_values: a decoded leaf made to outlive the scratch context: its
 * by-reference values copied into CurrentMemoryContext, its texts (which
 * only reasons use, and which stay in scratch) dropped.
 */
static void
keep_values(DeltaLeafStats *ls, bool byval, int16 typlen)
{
	ls->min_text = NULL;
	ls->max_text = NULL;
	if (ls->has_min && !byval)
		ls->min = datumCopy(ls->min, false, typlen);
	if (ls->has_max && !byval)
		ls->max = datumCopy(ls->max, false, typlen);
}

/*
 * delta_commit_stats_ensure_pre: see stats.h.  The prescan's answers are
 * taken for the first pass over a commit whose new columns are exactly the
 * prescan's (same fields, same order); assert-enabled builds compare each
 * with the parse tree of the file's (unescaped) stats text.
 */
DeltaCommitStats *
delta_commit_stats_ensure_pre(DeltaCommitStats *cs, DeltaCommit *commit,
							  int ncols, const DeltaField *const *fields,
							  const char *const *keys,
							  DeltaLeafStats **vals_out, MemoryContext cxt,
							  DeltaStatsPrescan *pre,
							  DeltaStatsTextFn text_fn, void *text_arg)
{
	bool		use_pre;
	bool		adopt;
	MemoryContext old;
	MemoryContext scratch;
	DeltaStatsColumn **newcols;
	int		   *newidx;
	int			nnew = 0;
	DeltaStatsHeader *hdr = NULL;
	const DeltaField **newfields;
	ScanSpan   *spans;
	int		   *namelen;
	DeltaLeafStats **outs;
	bool		can_scan;
	bool	   *byval;
	int16	   *typlen;
	int			k,
				j,
				i;

	/*
	 * What only this call needs is allocated in the caller's context; cxt
	 * (the commit's, kept across calls) only gets what is published, so a
	 * call that finds everything decoded leaves cxt as it was.
	 */
	old = CurrentMemoryContext;
	if (cs == NULL)
	{
		cs = MemoryContextAllocZero(cxt, sizeof(DeltaCommitStats));
		cs->nfiles = commit->n_files;
	}
	newcols = palloc(sizeof(DeltaStatsColumn *) * Max(ncols, 1));
	newidx = palloc(sizeof(int) * Max(ncols, 1));
	byval = palloc(sizeof(bool) * Max(ncols, 1));
	typlen = palloc(sizeof(int16) * Max(ncols, 1));
	for (k = 0; k < ncols; k++)
	{
		DeltaStatsColumn *c;

		Assert(strcmp(keys[k], delta_stats_column_key(fields[k])) == 0);
		vals_out[k] = NULL;
		for (c = cs->cols; c != NULL; c = c->next)
			if (strcmp(c->key, keys[k]) == 0)
			{
				vals_out[k] = c->vals;
				break;
			}
		/* a column asked for twice in one call is decoded once */
		for (j = 0; j < nnew && vals_out[k] == NULL; j++)
			if (strcmp(newcols[j]->key, keys[k]) == 0)
				vals_out[k] = newcols[j]->vals;
		if (vals_out[k] != NULL)
			continue;
		c = MemoryContextAlloc(cxt, sizeof(DeltaStatsColumn));
		c->next = NULL;
		c->key = MemoryContextStrdup(cxt, keys[k]);
		c->vals = MemoryContextAllocExtended(cxt, sizeof(DeltaLeafStats) *
											 Max(cs->nfiles, 1),
											 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		vals_out[k] = c->vals;
		newcols[nnew] = c;
		newidx[nnew] = k;
		if (OidIsValid(fields[k]->pg_type))
			get_typlenbyval(fields[k]->pg_type, &typlen[nnew], &byval[nnew]);
		else
		{
			typlen[nnew] = -1;
			byval[nnew] = false;
		}
		nnew++;
	}
	if (cs->hdr != NULL && nnew == 0)
	{
		pfree(newcols);
		pfree(newidx);
		pfree(byval);
		pfree(typlen);
		return cs;
	}
	if (cs->hdr == NULL)
		hdr = MemoryContextAllocExtended(cxt, sizeof(DeltaStatsHeader) *
										 Max(cs->nfiles, 1),
										 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	/* one parse per file for the header and every new column */
	scratch = AllocSetContextCreate(old, "deltacc statistics decoding",
									ALLOCSET_DEFAULT_SIZES);
	can_scan = true;
	newfields = palloc(sizeof(DeltaField *) * Max(nnew, 1));
	for (j = 0; j < nnew; j++)
	{
		newfields[j] = fields[newidx[j]];
		if (newfields[j]->parent != NULL)
			can_scan = false;	/* nested: the parse tree finds it */
	}
	spans = palloc(sizeof(ScanSpan) * 3 * Max(nnew, 1));
	namelen = palloc(sizeof(int) * Max(nnew, 1));
	for (j = 0; j < nnew; j++)
		namelen[j] = (int) strlen(newfields[j]->physical_name);
	outs = palloc(sizeof(DeltaLeafStats *) * Max(nnew, 1));
	use_pre = pre != NULL && pre->finished && pre->nfiles == cs->nfiles &&
		hdr != NULL && can_scan && nnew == pre->ncols;
	for (j = 0; j < nnew && use_pre; j++)
		use_pre = newfields[j] == pre->fields[j];

	/*
	 * The prescan's arrays (same context, indexed by file) become the
	 * header and the columns instead of being copied; the entries of files
	 * it did not answer are cleared first, as fresh arrays would be.  They
	 * are taken from the prescan only when published below.
	 */
	adopt = use_pre && pre->cap >= cs->nfiles && pre->hdr != NULL &&
		GetMemoryChunkContext(pre->hdr) == cxt;
	for (j = 0; j < nnew && adopt; j++)
		adopt = pre->vals[j] != NULL &&
			GetMemoryChunkContext(pre->vals[j]) == cxt;
	if (adopt)
	{
		for (i = 0; i < cs->nfiles; i++)
		{
			if (pre->ok[i])
				continue;
			memset(&pre->hdr[i], 0, sizeof(DeltaStatsHeader));
			for (j = 0; j < nnew; j++)
				memset(&pre->vals[j][i], 0, sizeof(DeltaLeafStats));
		}
		pfree(hdr);
		hdr = pre->hdr;
		for (j = 0; j < nnew; j++)
		{
			DeltaLeafStats *fresh = newcols[j]->vals;

			newcols[j]->vals = pre->vals[j];
			for (k = 0; k < ncols; k++)
				if (vals_out[k] == fresh)
					vals_out[k] = pre->vals[j];
			pfree(fresh);
		}
	}
	/* the loop below runs in cxt, where keep_values copies what is kept */
	MemoryContextSwitchTo(cxt);
	for (i = 0; i < cs->nfiles; i++)
	{
		DeltaFileAction *fa = &commit->files[i];
		const char *json = fa->stats ? fa->stats : fa->stats_parsed_json;
		DeltaStatsHeader h;
		DjValue		root;
		const char *error;
		const DjValue *minv;
		const DjValue *maxv;
		const DjValue *nullc;
		bool		scanned;

		CHECK_FOR_INTERRUPTS();
		for (j = 0; j < nnew; j++)
			outs[j] = &newcols[j]->vals[i];
		if (use_pre && i < pre->cap && pre->ok[i])
		{
			/*
			 * Scanned while the line was read (byval integers: no copy);
			 * the text itself may not have been kept (text_fn loads it).
			 */
			h = pre->hdr[i];
			if (!adopt)			/* (adopted: they are these entries) */
				for (j = 0; j < nnew; j++)
					*outs[j] = pre->vals[j][i];
#ifdef USE_ASSERT_CHECKING
			if (json == NULL && text_fn != NULL)
				json = text_fn(text_arg, i);
			Assert(json != NULL);
			MemoryContextSwitchTo(scratch);
			assert_scan_matches_tree(json, nnew, newfields, &h, outs, false);
			MemoryContextSwitchTo(cxt);
			MemoryContextReset(scratch);
#endif
			hdr[i] = h;
			fa->has_num_records = h.has_num_records;
			fa->num_records = h.num_records;
			if (h.tight_bounds >= 0)
				fa->tight_bounds = h.tight_bounds;
			continue;
		}
		if (json == NULL && text_fn != NULL)
			json = text_fn(text_arg, i);
		if (json == NULL)
		{
			if (hdr)
				hdr[i].tight_bounds = -1;
			continue;
		}
		MemoryContextSwitchTo(scratch);
		scanned = can_scan && scan_stats(json, nnew, newfields, namelen,
										 spans, &h, outs, false);
		dc_fastpath_note(DC_FP_STATS_SCAN, scanned);
		if (scanned)
		{
#ifdef USE_ASSERT_CHECKING
			assert_scan_matches_tree(json, nnew, newfields, &h, outs, false);
#endif
			if (hdr)
			{
				hdr[i] = h;
				/* what DELTA_DECODE_FULL would have pulled out of the stats */
				fa->has_num_records = h.has_num_records;
				fa->num_records = h.num_records;
				if (h.tight_bounds >= 0)
					fa->tight_bounds = h.tight_bounds;
			}
			MemoryContextSwitchTo(cxt);
			for (j = 0; j < nnew; j++)
				keep_values(outs[j], byval[j], typlen[j]);
			MemoryContextReset(scratch);
			continue;
		}
		if (!parse_stats_root(json, &root, &h, &error))
		{
			MemoryContextSwitchTo(cxt);
			MemoryContextReset(scratch);
			if (hdr)
				hdr[i] = h;
			continue;
		}
		if (hdr)
		{
			hdr[i] = h;
			/* what DELTA_DECODE_FULL would have pulled out of the stats */
			DeltaStatsFieldsFromJson(fa, &root);
		}
		minv = dj_get(&root, "minValues");
		maxv = dj_get(&root, "maxValues");
		nullc = dj_get(&root, "nullCount");
		for (j = 0; j < nnew; j++)
		{
			const DeltaField *f = fields[newidx[j]];
			DeltaLeafStats *ls = &newcols[j]->vals[i];

			MemoryContextSwitchTo(scratch);
			decode_leaf(f, minv, maxv, nullc, h.has_num_records,
						h.num_records, ls);
			MemoryContextSwitchTo(cxt);
			keep_values(ls, byval[j], typlen[j]);
		}
		MemoryContextSwitchTo(cxt);
		MemoryContextReset(scratch);
	}
	MemoryContextDelete(scratch);

	/* publish only now: an ERROR above leaves no half-built column */
	if (adopt)
	{
		pre->hdr = NULL;		/* the commit's now */
		for (j = 0; j < nnew; j++)
			pre->vals[j] = NULL;
	}
	if (hdr)
		cs->hdr = hdr;
	for (j = 0; j < nnew; j++)
	{
		newcols[j]->next = cs->cols;
		cs->cols = newcols[j];
	}
	MemoryContextSwitchTo(old);
	pfree(newcols);
	pfree(newidx);
	pfree(byval);
	pfree(typlen);
	pfree(newfields);
	pfree(spans);
	pfree(namelen);
	pfree(outs);
	return cs;
}

/*
 * Find f's entry in a partitionValues map; see stats.h.
 */
bool
delta_partition_value_lookup(const DeltaPartitionValues *pv,
							 const DeltaField *f, const char **value)
{
	int			i;
	int			found = -1;

	*value = NULL;
	if (pv == NULL || pv->is_null_map)
		return false;
	for (i = 0; i < pv->n; i++)
		if (pv->keys[i] && strcmp(pv->keys[i], f->physical_name) == 0)
			found = i;
	if (found < 0)
		for (i = 0; i < pv->n; i++)
			if (pv->keys[i] && pg_strcasecmp(pv->keys[i], f->physical_name) == 0)
				found = i;
	if (found < 0)
		return false;
	*value = pv->values[found];
	return true;
}

/*
 * Parse a partition value string; see stats.h.
 */
bool
delta_partition_value_parse(const DeltaField *f, const char *value,
							Datum *result, bool *isnull)
{
	*isnull = false;
	if (value == NULL || value[0] == '\0')
	{
		*isnull = true;
		return true;
	}
	switch (f->kind)
	{
		case DELTA_TYPE_STRING:
			if (GetDatabaseEncoding() != PG_UTF8 &&
				!pg_verifymbstr(value, strlen(value), true))
				return false;
			*result = PointerGetDatum(cstring_to_text(value));
			return true;
		case DELTA_TYPE_LONG:
		case DELTA_TYPE_INTEGER:
		case DELTA_TYPE_SHORT:
		case DELTA_TYPE_BYTE:
			{
				int64		lo,
							hi,
							v;

				int_range(f->kind, &lo, &hi);
				if (!parse_int_text(value, lo, hi, &v))
					return false;
				*result = int_datum(f, v);
				return true;
			}
		case DELTA_TYPE_FLOAT:
		case DELTA_TYPE_DOUBLE:
			return parse_float_text(value, f->kind == DELTA_TYPE_FLOAT, result);
		case DELTA_TYPE_DECIMAL:
			return parse_decimal_text(value, result);
		case DELTA_TYPE_BOOLEAN:
			if (pg_strcasecmp(value, "true") == 0)
				*result = BoolGetDatum(true);
			else if (pg_strcasecmp(value, "false") == 0)
				*result = BoolGetDatum(false);
			else
				return false;
			return true;
		case DELTA_TYPE_DATE:
			{
				DateADT		d;

				if (!parse_date_text(value, &d))
					return false;
				*result = DateADTGetDatum(d);
				return true;
			}
		case DELTA_TYPE_TIMESTAMP:
		case DELTA_TYPE_TIMESTAMP_NTZ:
			{
				ParsedTs	pt;
				Timestamp	ts;

				if (!parse_datetime_text(value, &pt) ||
					!parsed_to_timestamp(&pt,
										 f->kind == DELTA_TYPE_TIMESTAMP ? 's' : 'n',
										 &ts))
					return false;
				*result = TimestampGetDatum(ts);
				return true;
			}
		case DELTA_TYPE_BINARY:
			{
				size_t		len = strlen(value);
				bytea	   *b = palloc(VARHDRSZ + len);

				SET_VARSIZE(b, VARHDRSZ + len);
				memcpy(VARDATA(b), value, len);
				*result = PointerGetDatum(b);
				return true;
			}
		default:
			return false;
	}
}
