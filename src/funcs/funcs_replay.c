/*-------------------------------------------------------------------------
 *
 * funcs_replay.c
 *	  SQL functions of history replay and audit: deltacc.spark_predicate
 *	  and deltacc.explain_spark_predicate (thin wrappers over
 *	  stats/spark_predicate.c, reading no file, so needing no
 *	  pg_read_server_files), deltacc.replay and deltacc.concurrency (over
 *	  check/replay.c; they read the table).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_replay.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "check/driver.h"
#include "check/replay.h"
#include "funcs/funcs_args.h"
#include "log/log_reader.h"
#include "stats/schema.h"
#include "stats/spark_predicate.h"

PG_FUNCTION_INFO_V1(deltacc_spark_predicate);
PG_FUNCTION_INFO_V1(deltacc_explain_spark_predicate);
PG_FUNCTION_INFO_V1(deltacc_replay);
PG_FUNCTION_INFO_V1(deltacc_concurrency);

/*
 * deltacc.spark_predicate(predicate text) returns text: the read predicate
 * a recorded predicate translates to, schema-less, or NULL.
 */
Datum
deltacc_spark_predicate(PG_FUNCTION_ARGS)
{
	char	   *pred = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *result = delta_spark_predicate(pred, NULL, SP_DIALECT_AUTO, NULL, NULL);

	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(result));
}

/*
 * deltacc.explain_spark_predicate(predicate text, schema_string text,
 * engine_info text) returns (read_predicate text, outcome text, reason
 * text): the translation against that table schema (a metaData
 * schemaString; NULL: schema-less) for that writer (commitInfo.engineInfo;
 * NULL: decided from the text), whether it is exact, widened or none, and
 * why.
 */
Datum
deltacc_explain_spark_predicate(PG_FUNCTION_ARGS)
{
	char	   *pred;
	DeltaSchema *schema = NULL;
	SpDialect	dialect = SP_DIALECT_AUTO;
	SpOutcome	outcome;
	const char *reason;
	char	   *result;
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	pred = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (!PG_ARGISNULL(1))
		schema = delta_schema_parse(text_to_cstring(PG_GETARG_TEXT_PP(1)),
									0, NULL, 0, NULL, NULL);
	if (!PG_ARGISNULL(2))
		dialect = delta_spark_dialect(text_to_cstring(PG_GETARG_TEXT_PP(2)));
	result = delta_spark_predicate(pred, schema, dialect, &outcome, &reason);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (result)
		values[0] = CStringGetTextDatum(result);
	else
		nulls[0] = true;
	values[1] = CStringGetTextDatum(outcome == SP_EXACT ? "exact" :
									outcome == SP_WIDENED ? "widened" : "none");
	if (reason)
		values[2] = CStringGetTextDatum(reason);
	else
		nulls[2] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* A text column: s, or SQL NULL */
static void
put_text(const char *s, Datum *value, bool *isnull)
{
	if (s != NULL)
		*value = CStringGetTextDatum(s);
	else
		*isnull = true;
}

/* ReplayRowFn: one row of deltacc.replay into the result set (ctx) */
static void
put_replay_row(void *ctx, const ReplayRow *row)
{
#define REPLAY_COLS 9
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) ctx;
	Datum		values[REPLAY_COLS];
	bool		nulls[REPLAY_COLS];

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int64GetDatum(row->version);
	values[1] = Int64GetDatum(row->read_version);
	put_text(row->operation, &values[2], &nulls[2]);
	put_text(row->read_predicate, &values[3], &nulls[3]);
	values[4] = CStringGetTextDatum(replay_mode_name(row->mode));
	if (row->verdict.winning_version >= 0)
		values[5] = Int64GetDatum(row->verdict.winning_version);
	else
		nulls[5] = true;
	put_text(row->verdict.conflict, &values[6], &nulls[6]);
	put_text(row->verdict.path, &values[7], &nulls[7]);
	put_text(row->verdict.detail, &values[8], &nulls[8]);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
#undef REPLAY_COLS
}

/* The table_path argument (0), which must not be NULL */
static char *
table_path_arg(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("table_path must not be NULL"));
	return text_to_cstring(PG_GETARG_TEXT_PP(0));
}

/*
 * deltacc.replay(table_path text, from_version bigint, to_version bigint,
 * modes text[]): every commit that raced others, re-checked per mode (NULL
 * modes: deltacc.default_mode alone).
 */
Datum
deltacc_replay(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *path;
	int64		from_version;
	int64		to_version;
	char	  **names;
	int			nmodes;
	ConflictMode *modes;
	int			i;
	DeltaLog   *log;

	DeltaCheckReadPrivilege();
	path = table_path_arg(fcinfo);
	from_version = dc_version_arg(fcinfo, 1, "from_version");
	to_version = dc_version_arg(fcinfo, 2, "to_version");
	names = dc_text_array_arg(fcinfo, 3, "modes", &nmodes);
	if (nmodes < 0)
	{
		modes = palloc(sizeof(ConflictMode));
		modes[0] = conflict_mode_parse(NULL);
		nmodes = 1;
	}
	else
	{
		modes = palloc(sizeof(ConflictMode) * Max(nmodes, 1));
		for (i = 0; i < nmodes; i++)
			modes[i] = conflict_mode_parse(names[i]);
	}
	InitMaterializedSRF(fcinfo, 0);
	log = DeltaLogOpen(path);
	replay_history(log, from_version, to_version, nmodes, modes,
				   put_replay_row, rsinfo);
	PG_RETURN_VOID();
}

/* ConcurrencyRowFn: one row of deltacc.concurrency into the result set */
static void
put_concurrency_row(void *ctx, const ConcurrencyRow *row)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) ctx;
	Datum		values[4];
	bool		nulls[4];

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int64GetDatum(row->version_a);
	values[1] = Int64GetDatum(row->version_b);
	put_text(row->conflict, &values[2], &nulls[2]);
	put_text(row->path, &values[3], &nulls[3]);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * deltacc.concurrency(table_path text, from_version bigint, to_version
 * bigint, mode text, window_versions integer): the what-if pairs.
 */
Datum
deltacc_concurrency(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *path;
	int64		from_version;
	int64		to_version;
	ConflictMode mode;
	int32		window = 10;
	DeltaLog   *log;

	DeltaCheckReadPrivilege();
	path = table_path_arg(fcinfo);
	from_version = dc_version_arg(fcinfo, 1, "from_version");
	to_version = dc_version_arg(fcinfo, 2, "to_version");
	mode = dc_mode_arg(fcinfo, 3);
	if (!PG_ARGISNULL(4))
		window = PG_GETARG_INT32(4);
	if (window < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("window_versions must be at least 1"));
	InitMaterializedSRF(fcinfo, 0);
	log = DeltaLogOpen(path);
	replay_concurrency(log, from_version, to_version, mode, window,
					   put_concurrency_row, rsinfo);
	PG_RETURN_VOID();
}
