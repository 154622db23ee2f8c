/*-------------------------------------------------------------------------
 *
 * spark_predicate.c
 *	  Recorded predicates to read predicates, with the snapshot's schema
 *	  (see spark_predicate.h).
 *
 * The translation itself is pure string processing in src/format
 * (sparkpred.c, fuzzed standalone); this file gives it the schema: a
 * name's parts are matched level by level, case-insensitively as Spark
 * does, and the leaf found must be the one delta_schema_lookup finds for
 * its dotted path, so that the read predicate compiler (predicate.c)
 * resolves the printed name to the same column.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/spark_predicate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "common/json_util.h"
#include "stats/spark_predicate.h"

static SpType
sp_type_of(const DeltaField *f)
{
	if (!OidIsValid(f->pg_type))
		return SP_T_OTHER;
	switch (f->kind)
	{
		case DELTA_TYPE_LONG:
			return SP_T_LONG;
		case DELTA_TYPE_INTEGER:
			return SP_T_INT;
		case DELTA_TYPE_SHORT:
			return SP_T_SHORT;
		case DELTA_TYPE_BYTE:
			return SP_T_BYTE;
		case DELTA_TYPE_FLOAT:
			return SP_T_FLOAT;
		case DELTA_TYPE_DOUBLE:
			return SP_T_DOUBLE;
		case DELTA_TYPE_DECIMAL:
			return SP_T_DECIMAL;
		case DELTA_TYPE_STRING:
			return SP_T_STRING;
		case DELTA_TYPE_BINARY:
			return SP_T_BINARY;
		case DELTA_TYPE_BOOLEAN:
			return SP_T_BOOLEAN;
		case DELTA_TYPE_DATE:
			return SP_T_DATE;
		case DELTA_TYPE_TIMESTAMP:
			return SP_T_TIMESTAMP;
		case DELTA_TYPE_TIMESTAMP_NTZ:
			return SP_T_TIMESTAMP_NTZ;
		default:
			return SP_T_OTHER;
	}
}

/* SpResolveFn over a DeltaSchema (ctx) */
static int
resolve_in_schema(void *ctx, int nparts, const char *const *parts, SpColumn *out)
{
	const DeltaSchema *schema = (const DeltaSchema *) ctx;
	DeltaField **fields = schema->fields;
	int			nfields = schema->nfields;
	DeltaField *f = NULL;
	int			k;
	int			i;

	for (k = 0; k < nparts; k++)
	{
		DeltaField *match = NULL;

		if (f != NULL)
		{
			if (f->kind != DELTA_TYPE_STRUCT)
				return 0;
			fields = f->fields;
			nfields = f->nfields;
		}
		for (i = 0; i < nfields; i++)
			if (pg_strcasecmp(fields[i]->name, parts[k]) == 0)
			{
				if (match != NULL)
					return -1;	/* two fields differing in case only */
				match = fields[i];
			}
		if (match == NULL)
			return 0;
		f = match;
	}
	if (f == NULL)
		return 0;
	if (f->kind == DELTA_TYPE_STRUCT)
	{
		out->type = SP_T_OTHER;
		out->name = f->path;
		return 1;
	}
	if (delta_schema_lookup(schema, f->path) != f)
		return -1;				/* "a.b" would name another column */
	out->type = sp_type_of(f);
	out->precision = f->precision;
	out->scale = f->scale;
	out->name = f->path;
	return 1;
}

char *
delta_spark_predicate(const char *text, const DeltaSchema *schema,
					  SpDialect dialect, SpOutcome *outcome, const char **reason)
{
	MemoryContext cxt;
	MemoryContext old;
	FmtAllocator alloc;
	SpResult	r;
	char	   *result = NULL;
	bool		ok;

	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc spark predicate",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	alloc = dc_fmt_allocator(cxt);
	ok = sp_translate(text, strlen(text), dialect,
					  schema ? resolve_in_schema : NULL, (void *) schema,
					  &alloc, &r);
	MemoryContextSwitchTo(old);
	if (!ok)
	{
		MemoryContextDelete(cxt);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory while translating a recorded predicate")));
	}
	if (r.sql != NULL)
		result = pstrdup(r.sql);
	if (outcome)
		*outcome = r.outcome;
	if (reason)
		*reason = r.reason;
	MemoryContextDelete(cxt);
	return result;
}

SpDialect
delta_spark_dialect(const char *engine_info)
{
	if (engine_info == NULL)
		return SP_DIALECT_AUTO;
	if (pg_strncasecmp(engine_info, "delta-rs", 8) == 0)
		return SP_DIALECT_DELTA_RS;
	if (pg_strncasecmp(engine_info, "Apache-Spark/", 13) == 0 ||
		pg_strncasecmp(engine_info, "Databricks-Runtime/", 19) == 0)
		return SP_DIALECT_SPARK;
	return SP_DIALECT_AUTO;
}
