/*-------------------------------------------------------------------------
 *
 * json_util.c
 *	  palloc-backed FmtAllocator, DjValue -> jsonb / JSON text, and ERRORs
 *	  from djson failures (see json_util.h for the contracts).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/json_util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "json_util.h"

/* Largest string a jsonb container entry can hold. */
#define DC_JSONB_MAX_STRING ((Size) JENTRY_OFFLENMASK)

/*
 * Largest decimal exponent we hand to numeric_in.  numeric holds up to
 * 131072 digits before the point and 16383 after; staying well inside keeps
 * numeric_in from raising on a hostile "1e999999999".
 */
#define DC_MAX_NUMERIC_EXPONENT 100000

static JsonbValue *dj_push_jsonb(JsonbParseState **state, const DjValue *v,
								 JsonbIteratorToken container_token);

/*
 * FmtAllocFn over palloc.  ctx is a MemoryContext, or NULL for the context
 * current at the time of the call.  Returns NULL when out of memory.
 */
static void *
dc_fmt_palloc(void *ctx, size_t size)
{
	MemoryContext cxt = ctx ? (MemoryContext) ctx : CurrentMemoryContext;

	if (size > MaxAllocHugeSize)
		return NULL;
	return MemoryContextAllocExtended(cxt, size,
									  MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO |
									  MCXT_ALLOC_HUGE);
}

/*
 * Returns an allocator handing out zeroed memory from cxt (NULL = the
 * current context at each call).  The struct is returned by value.
 */
FmtAllocator
dc_fmt_allocator(MemoryContext cxt)
{
	FmtAllocator a;

	a.alloc = dc_fmt_palloc;
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
 * Fill a scalar JsonbValue from a scalar DjValue.  Numbers go through
 * numeric_in on the exact token text.
 */
static void
dj_scalar_to_jsonb(const DjValue *v, JsonbValue *jv)
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
			if (!dj_number_fits_numeric(v))
				ereport(ERROR,
						errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						errmsg("JSON number is out of the range of type numeric"));
			jv->type = jbvNumeric;
			jv->val.numeric =
				DatumGetNumeric(DirectFunctionCall3(numeric_in,
													CStringGetDatum(v->u.num),
													ObjectIdGetDatum(InvalidOid),
													Int32GetDatum(-1)));
			break;
		case DJ_STRING:
			if (v->len > DC_JSONB_MAX_STRING)
				ereport(ERROR,
						errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("JSON string too long to represent as jsonb string"));
			jv->type = jbvString;
			jv->val.string.val = (char *) v->u.str;
			jv->val.string.len = (int) v->len;
			break;
		default:
			elog(ERROR, "unexpected JSON value type %d", (int) v->type);
	}
}

/*
 * Push v onto the jsonb parse state.  container_token says where a scalar v
 * sits: WJB_ELEM inside an array, WJB_VALUE as an object member value.
 * Returns what the last pushJsonbValue returned (for a top-level container,
 * the finished JsonbValue).
 */
static JsonbValue *
dj_push_jsonb(JsonbParseState **state, const DjValue *v,
			  JsonbIteratorToken container_token)
{
	uint32		i;
	JsonbValue	jv;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();

	if (v->type == DJ_ARRAY)
	{
		pushJsonbValue(state, WJB_BEGIN_ARRAY, NULL);
		for (i = 0; i < v->len; i++)
			dj_push_jsonb(state, &v->u.items[i], WJB_ELEM);
		return pushJsonbValue(state, WJB_END_ARRAY, NULL);
	}
	if (v->type == DJ_OBJECT)
	{
		pushJsonbValue(state, WJB_BEGIN_OBJECT, NULL);
		for (i = 0; i < v->len; i++)
		{
			const DjMember *m = &v->u.members[i];

			if (m->keylen > DC_JSONB_MAX_STRING)
				ereport(ERROR,
						errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("JSON string too long to represent as jsonb string"));
			jv.type = jbvString;
			jv.val.string.val = (char *) m->key;
			jv.val.string.len = (int) m->keylen;
			pushJsonbValue(state, WJB_KEY, &jv);
			dj_push_jsonb(state, &m->value, WJB_VALUE);
		}
		return pushJsonbValue(state, WJB_END_OBJECT, NULL);
	}
	dj_scalar_to_jsonb(v, &jv);
	return pushJsonbValue(state, container_token, &jv);
}

/*
 * Build a Jsonb from a DjValue (palloc'd in CurrentMemoryContext).  A
 * top-level scalar becomes a raw-scalar jsonb, as jsonb_in makes it.
 */
Jsonb *
dc_dj_to_jsonb(const DjValue *v)
{
	JsonbParseState *state = NULL;
	JsonbValue *res;

	if (v->type == DJ_ARRAY || v->type == DJ_OBJECT)
		res = dj_push_jsonb(&state, v, WJB_ELEM);
	else
	{
		JsonbValue	arr;
		JsonbValue	jv;

		memset(&arr, 0, sizeof(arr));
		arr.type = jbvArray;
		arr.val.array.rawScalar = true;
		pushJsonbValue(&state, WJB_BEGIN_ARRAY, &arr);
		dj_scalar_to_jsonb(v, &jv);
		pushJsonbValue(&state, WJB_ELEM, &jv);
		res = pushJsonbValue(&state, WJB_END_ARRAY, NULL);
	}
	return JsonbValueToJsonb(res);
}

/*
 * Parse JSON text exactly and convert it to Jsonb; NULL when the text is
 * not valid JSON or holds a number or string jsonb cannot represent.  The
 * parse tree lives in a temporary context deleted before returning.
 */
Jsonb *
dc_json_text_to_jsonb(const char *text, size_t len)
{
	MemoryContext tmp;
	MemoryContext old;
	DjValue		v;
	Jsonb	   *result = NULL;

	tmp = AllocSetContextCreate(CurrentMemoryContext,
								"deltacc JSON conversion context",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	if (dc_json_try_parse(text, len, &v) && dc_dj_fits_jsonb(&v))
	{
		MemoryContextSwitchTo(old);
		result = dc_dj_to_jsonb(&v);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
	return result;
}

/* Append s as a JSON string literal (escape_json does the escaping). */
void
dc_json_append_string(StringInfo buf, const char *s)
{
	escape_json(buf, s);
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
			escape_json(buf, v->u.str);
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
				escape_json(buf, v->u.members[i].key);
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
