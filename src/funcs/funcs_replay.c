/*-------------------------------------------------------------------------
 *
 * funcs_replay.c
 *	  SQL functions of history replay and audit: deltacc.spark_predicate
 *	  and deltacc.explain_spark_predicate.
 *
 * Thin wrappers over stats/spark_predicate.c.  Neither reads a file, so
 * neither needs pg_read_server_files.
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

#include "stats/schema.h"
#include "stats/spark_predicate.h"

PG_FUNCTION_INFO_V1(deltacc_spark_predicate);
PG_FUNCTION_INFO_V1(deltacc_explain_spark_predicate);

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
