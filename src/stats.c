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
 *	  src/stats.c
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

#include "actions.h"
#include "djson.h"
#include "json_util.h"
#include "stats.h"

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
decode_leaf(const DeltaField *f, const DjValue *minv, const DjValue *maxv,
			const DjValue *nullc, bool has_num_records, int64 num_records,
			DeltaLeafStats *ls)
{
	const DjValue *v;

	v = nullc ? stats_lookup(nullc, f) : NULL;
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
	if (minv)
		ls->has_min = decode_stat_value(f, stats_lookup(minv, f), false,
										&ls->min, &ls->min_text,
										&ls->min_note);
	if (maxv)
		ls->has_max = decode_stat_value(f, stats_lookup(maxv, f), true,
										&ls->max, &ls->max_text,
										&ls->max_note);
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

/*
 * delta_commit_stats_ensure: see stats.h.
 */
DeltaCommitStats *
delta_commit_stats_ensure(DeltaCommitStats *cs, DeltaCommit *commit,
						  int ncols, const DeltaField *const *fields,
						  DeltaLeafStats **vals_out, MemoryContext cxt)
{
	MemoryContext old;
	MemoryContext scratch;
	DeltaStatsColumn **newcols;
	int		   *newidx;
	int			nnew = 0;
	DeltaStatsHeader *hdr = NULL;
	char	  **keys;
	bool	   *byval;
	int16	   *typlen;
	int			k,
				j,
				i;

	old = MemoryContextSwitchTo(cxt);
	if (cs == NULL)
	{
		cs = palloc0(sizeof(DeltaCommitStats));
		cs->nfiles = commit->n_files;
	}
	keys = palloc(sizeof(char *) * Max(ncols, 1));
	newcols = palloc(sizeof(DeltaStatsColumn *) * Max(ncols, 1));
	newidx = palloc(sizeof(int) * Max(ncols, 1));
	byval = palloc(sizeof(bool) * Max(ncols, 1));
	typlen = palloc(sizeof(int16) * Max(ncols, 1));
	for (k = 0; k < ncols; k++)
	{
		DeltaStatsColumn *c;

		keys[k] = delta_stats_column_key(fields[k]);
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
		c = palloc(sizeof(DeltaStatsColumn));
		c->next = NULL;
		c->key = keys[k];
		c->vals = palloc_extended(sizeof(DeltaLeafStats) * Max(cs->nfiles, 1),
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
		MemoryContextSwitchTo(old);
		return cs;
	}
	if (cs->hdr == NULL)
		hdr = palloc_extended(sizeof(DeltaStatsHeader) * Max(cs->nfiles, 1),
							  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	/* one parse per file for the header and every new column */
	scratch = AllocSetContextCreate(old, "deltacc statistics decoding",
									ALLOCSET_DEFAULT_SIZES);
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

		CHECK_FOR_INTERRUPTS();
		if (json == NULL)
		{
			if (hdr)
				hdr[i].tight_bounds = -1;
			continue;
		}
		MemoryContextSwitchTo(scratch);
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
			/* keep only the values, copied to cxt; texts are for reasons */
			MemoryContextSwitchTo(cxt);
			ls->min_text = NULL;
			ls->max_text = NULL;
			if (ls->has_min && !byval[j])
				ls->min = datumCopy(ls->min, false, typlen[j]);
			if (ls->has_max && !byval[j])
				ls->max = datumCopy(ls->max, false, typlen[j]);
		}
		MemoryContextSwitchTo(cxt);
		MemoryContextReset(scratch);
	}
	MemoryContextDelete(scratch);

	/* publish only now: an ERROR above leaves no half-built column */
	if (hdr)
		cs->hdr = hdr;
	for (j = 0; j < nnew; j++)
	{
		newcols[j]->next = cs->cols;
		cs->cols = newcols[j];
	}
	MemoryContextSwitchTo(old);
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
