/*-------------------------------------------------------------------------
 *
 * funcs_conflict.c
 *	  SQL-callable conflict checking: deltacc.conflicts,
 *	  deltacc.explain_conflicts, deltacc.assert_no_conflict.
 *
 * All three take their arguments apart the same way (run_check), open the
 * table and hand the rest to the driver of src/check/driver.c (which
 * deltacc.commit runs too).  The functions only differ in what they do
 * with the decisions.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_conflict.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "check/conflict.h"
#include "check/driver.h"
#include "funcs/funcs_args.h"
#include "log/log_reader.h"
#include "snapshot/commit_cache.h"
#include "snapshot/snapshot_cache.h"

PG_FUNCTION_INFO_V1(deltacc_conflicts);
PG_FUNCTION_INFO_V1(deltacc_explain_conflicts);
PG_FUNCTION_INFO_V1(deltacc_assert_no_conflict);
PG_FUNCTION_INFO_V1(deltacc_commit_cache_stats);
PG_FUNCTION_INFO_V1(deltacc_snapshot_cache_stats);

/*
 * run_check: the arguments (positions fixed by the SQL declarations:
 * 0 table_path, 1 read_version, 2 read_predicates, 3 actions,
 * 4 isolation_level, 5 read_whole_table, 6 read_app_ids, 7 read_files,
 * 8 through_version, 9 mode) passed to the driver (src/check/driver.c).
 * Returns every decision in Delta's detection order, allocated in
 * CurrentMemoryContext.
 */
static ConflictResult *
run_check(FunctionCallInfo fcinfo, bool conflicts_only)
{
	ConflictCheckArgs a;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("table_path must not be NULL"));
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("read_version must not be NULL"));
	memset(&a, 0, sizeof(a));
	a.read_version = PG_GETARG_INT64(1);
	a.preds = dc_text_array_arg(fcinfo, 2, "read_predicates", &a.npreds);
	if (a.npreds < 0)
		a.npreds = 0;
	if (!PG_ARGISNULL(3))
		a.actions = PG_GETARG_JSONB_P(3);
	if (!PG_ARGISNULL(4))
		a.isolation = text_to_cstring(PG_GETARG_TEXT_PP(4));
	a.read_whole_table = PG_ARGISNULL(5) ? false : PG_GETARG_BOOL(5);
	a.app_ids = dc_text_array_arg(fcinfo, 6, "read_app_ids", &a.napp);
	if (a.napp < 0)
		a.napp = 0;
	a.read_files = dc_text_array_arg(fcinfo, 7, "read_files", &a.nread_files);
	a.has_through_version = !PG_ARGISNULL(8);
	if (a.has_through_version)
		a.through_version = PG_GETARG_INT64(8);
	a.mode = dc_mode_arg(fcinfo, 9);
	/*
	 * conflicts() and assert_no_conflict() read the read version's files
	 * only for a winner that removes one; explain_conflicts(), which shows
	 * everything the check saw, reads them always (the decisions are the
	 * same either way).
	 */
	a.defer_read_files = conflicts_only;
	a.log = DeltaLogOpen(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	return conflict_check_run(&a, conflicts_only, NULL);
}

/* A text column of a result row: s, or SQL NULL when s is NULL. */
static void
text_or_null(const char *s, Datum *value, bool *isnull)
{
	if (s != NULL)
		*value = CStringGetTextDatum(s);
	else
		*isnull = true;
}

/* The columns of one row of conflicts() and explain_conflicts(). */
#define DECISION_MAX_COLS 6
typedef void (*DecisionRowFn) (const ConflictDecision *d, Datum *values,
							   bool *nulls);

/* A row of deltacc.conflicts: a conflict Delta would raise. */
static void
conflict_row(const ConflictDecision *d, Datum *values, bool *nulls)
{
	values[0] = Int64GetDatum(d->winning_version);
	values[1] = CStringGetTextDatum(d->operation);
	values[2] = CStringGetTextDatum(d->exception);
	text_or_null(d->path, &values[3], &nulls[3]);
	text_or_null(d->partition_hint, &values[4], &nulls[4]);
	values[5] = CStringGetTextDatum(d->reason);
}

/* A row of deltacc.explain_conflicts: any decision, with its reason. */
static void
explain_row(const ConflictDecision *d, Datum *values, bool *nulls)
{
	values[0] = Int64GetDatum(d->winning_version);
	values[1] = CStringGetTextDatum(conflict_check_name(d->check));
	text_or_null(d->path, &values[2], &nulls[2]);
	values[3] = CStringGetTextDatum(conflict_decision_name(d->decision));
	if (d->decision == DECISION_CONFLICT)
		values[4] = CStringGetTextDatum(psprintf("%s: %s", d->exception,
												 d->reason));
	else
		values[4] = CStringGetTextDatum(d->reason);
}

/*
 * Run the check and return its decisions as a materialized set, one row
 * (filled by fill) per decision, or per conflict when conflicts_only.
 */
static Datum
decision_rows(FunctionCallInfo fcinfo, bool conflicts_only, DecisionRowFn fill)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ConflictResult *res;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	res = run_check(fcinfo, conflicts_only);
	for (i = 0; i < res->n; i++)
	{
		const ConflictDecision *d = &res->rows[i];
		Datum		values[DECISION_MAX_COLS];
		bool		nulls[DECISION_MAX_COLS];

		if (conflicts_only && d->decision != DECISION_CONFLICT)
			continue;
		memset(nulls, 0, sizeof(nulls));
		fill(d, values, nulls);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * deltacc.conflicts(...): the conflicts Delta would raise, in order.
 */
Datum
deltacc_conflicts(PG_FUNCTION_ARGS)
{
	return decision_rows(fcinfo, true, conflict_row);
}

/*
 * deltacc.explain_conflicts(...): every candidate decision with its reason.
 */
Datum
deltacc_explain_conflicts(PG_FUNCTION_ARGS)
{
	return decision_rows(fcinfo, false, explain_row);
}

/*
 * deltacc.assert_no_conflict(...): void, or ERROR 40001 naming the Delta
 * exception Delta would raise (the first conflict).
 */
Datum
deltacc_assert_no_conflict(PG_FUNCTION_ARGS)
{
	conflict_raise_first(run_check(fcinfo, true), NULL);
	PG_RETURN_VOID();
}

/*
 * deltacc.commit_cache_stats(): one row describing this session's commit
 * cache (src/commit_cache.c): entries, bytes, hits, misses, evictions and
 * stale entries dropped.  Requires pg_read_server_files, like the
 * functions that fill the cache.
 */
Datum
deltacc_commit_cache_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	CommitCacheStats st;
	Datum		values[6];
	bool		nulls[6];

	DeltaCheckReadPrivilege();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("function returning record called in context that cannot accept type record"));
	commit_cache_get_stats(&st);
	memset(nulls, 0, sizeof(nulls));
	values[0] = Int64GetDatum(st.entries);
	values[1] = Int64GetDatum(st.bytes);
	values[2] = Int64GetDatum(st.hits);
	values[3] = Int64GetDatum(st.misses);
	values[4] = Int64GetDatum(st.evictions);
	values[5] = Int64GetDatum(st.stale);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * deltacc.snapshot_cache_stats(): one row of this session's counters of
 * the read-version snapshot cache (src/snapshot/snapshot_cache.c).
 * Requires pg_read_server_files, like deltacc.commit_cache_stats.
 */
Datum
deltacc_snapshot_cache_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	SnapshotCacheStats st;
	Datum		values[5];
	bool		nulls[5];

	DeltaCheckReadPrivilege();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("function returning record called in context that cannot accept type record"));
	snapshot_cache_get_stats(&st);
	memset(nulls, 0, sizeof(nulls));
	values[0] = Int64GetDatum(st.hits);
	values[1] = Int64GetDatum(st.advanced);
	values[2] = Int64GetDatum(st.misses);
	values[3] = Int64GetDatum(st.stale);
	values[4] = Int64GetDatum(st.uncached);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
