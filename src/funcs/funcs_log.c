/*-------------------------------------------------------------------------
 *
 * funcs_log.c
 *	  SQL entry points for reading Delta logs: deltacc.load_log,
 *	  deltacc.history, deltacc.snapshot_files, deltacc.table_info.
 *
 * Thin: arguments -> log_reader / snapshot / loader -> rows.  Every entry
 * point checks pg_read_server_files membership itself (DeltaLogOpen does,
 * and the functions call DeltaCheckReadPrivilege before anything else), in
 * addition to the GRANTs of the install script.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_log.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "funcs/funcs_args.h"
#include "funcs/snapshot_scan.h"
#include "log/actions.h"
#include "log/log_reader.h"
#include "snapshot/loader.h"
#include "snapshot/snapshot.h"

PG_FUNCTION_INFO_V1(deltacc_load_log);
PG_FUNCTION_INFO_V1(deltacc_history);
PG_FUNCTION_INFO_V1(deltacc_snapshot_files);
PG_FUNCTION_INFO_V1(deltacc_table_info);

/*
 * deltacc.load_log(table_path text, from_version bigint, to_version bigint)
 * returns bigint: the number of actions loaded into the temp relations.
 */
Datum
deltacc_load_log(PG_FUNCTION_ARGS)
{
	char	   *path;
	int64		from_version;
	int64		to_version;
	DeltaLog   *log;

	DeltaCheckReadPrivilege();
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	from_version = dc_version_arg(fcinfo, 1, "from_version");
	to_version = dc_version_arg(fcinfo, 2, "to_version");
	log = DeltaLogOpen(path);
	PG_RETURN_INT64(DeltaLoadLog(log, path, from_version, to_version));
}

/*
 * deltacc.history(table_path text): one row per JSON commit present, oldest
 * first.
 */
Datum
deltacc_history(PG_FUNCTION_ARGS)
{
#define HISTORY_COLS 9
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	DeltaLog   *log;
	MemoryContext row_cxt;
	MemoryContext old;
	int64		v;

	DeltaCheckReadPrivilege();
	InitMaterializedSRF(fcinfo, 0);
	log = DeltaLogOpen(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	if (log->first_version < 0)
		PG_RETURN_VOID();

	row_cxt = AllocSetContextCreate(CurrentMemoryContext,
									"deltacc history row context",
									ALLOCSET_DEFAULT_SIZES);
	for (v = log->first_version; v <= log->last_version; v++)
	{
		Datum		values[HISTORY_COLS] = {0};
		bool		nulls[HISTORY_COLS];
		DeltaCommit *c;
		const DeltaCommitInfo *ci;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(row_cxt);
		c = DeltaLogReadCommit(log, v);
		ci = c->commit_info;
		memset(nulls, true, sizeof(nulls));
		values[0] = Int64GetDatum(v);
		nulls[0] = false;
		if (ci != NULL)
		{
			if (ci->has_in_commit_timestamp)
				values[1] = DeltaMsToTimestampTz(ci->in_commit_timestamp, &nulls[1]);
			else if (ci->has_timestamp)
				values[1] = DeltaMsToTimestampTz(ci->timestamp, &nulls[1]);
			if (ci->operation)
			{
				values[2] = CStringGetTextDatum(ci->operation);
				nulls[2] = false;
			}
			values[3] = DeltaJsonTextJsonb(DeltaCommitInfoOperationParametersJson(ci),
										   &nulls[3]);
			if (ci->isolation_level)
			{
				values[4] = CStringGetTextDatum(ci->isolation_level);
				nulls[4] = false;
			}
			if (ci->is_blind_append >= 0)
			{
				values[5] = BoolGetDatum(ci->is_blind_append == 1);
				nulls[5] = false;
			}
			if (ci->has_read_version)
			{
				values[6] = Int64GetDatum(ci->read_version);
				nulls[6] = false;
			}
			if (ci->engine_info)
			{
				values[7] = CStringGetTextDatum(ci->engine_info);
				nulls[7] = false;
			}
		}
		values[8] = Int32GetDatum(c->n_actions);
		nulls[8] = false;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_cxt);
	}
	MemoryContextDelete(row_cxt);
	PG_RETURN_VOID();
#undef HISTORY_COLS
}

/*
 * deltacc.snapshot_files(table_path text, version bigint): the live files
 * at that version (latest when NULL), ordered by path then DV id.  In FROM
 * the planner usually runs it as snapshot_scan.c's custom scan instead,
 * which gives the same rows; this is the function scan and the call
 * anywhere else.
 */
Datum
deltacc_snapshot_files(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	DeltaSnapshot *snap;
	int64		i;
	MemoryContext row_cxt;
	MemoryContext old;

	DeltaCheckReadPrivilege();
	InitMaterializedSRF(fcinfo, 0);
	snap = snapshot_files_snapshot(PG_GETARG_DATUM(0), PG_ARGISNULL(0),
								   PG_NARGS() > 1 ? PG_GETARG_DATUM(1) : 0,
								   PG_NARGS() <= 1 || PG_ARGISNULL(1));
	if (snap == NULL)
		PG_RETURN_VOID();

	row_cxt = AllocSetContextCreate(CurrentMemoryContext,
									"deltacc snapshot_files row context",
									ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < snap->n_files; i++)
	{
		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(row_cxt);
		DeltaPutSnapshotFileRow(rsinfo, DeltaSnapshotGetFileExt(snap, i, true));
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_cxt);
	}
	MemoryContextDelete(row_cxt);
	DeltaSnapshotFree(snap);
	PG_RETURN_VOID();
}

/*
 * deltacc.table_info(table_path text, version bigint): one row describing
 * the table at that version (latest when NULL).
 */
Datum
deltacc_table_info(PG_FUNCTION_ARGS)
{
#define INFO_COLS 12
	TupleDesc	tupdesc;
	Datum		values[INFO_COLS];
	bool		nulls[INFO_COLS];
	DeltaLog   *log;
	DeltaSnapshot *snap;
	const DeltaMetadata *md;
	const DeltaProtocol *p;
	HeapTuple	tuple;

	DeltaCheckReadPrivilege();
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	log = DeltaLogOpen(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	snap = DeltaSnapshotBuildLazy(log, dc_version_arg(fcinfo, 1, "version"));
	md = snap->metadata;
	p = snap->protocol;

	memset(nulls, false, sizeof(nulls));
	values[0] = Int64GetDatum(snap->version);
	values[1] = CStringGetTextDatum(md->id);
	if (md->name)
		values[2] = CStringGetTextDatum(md->name);
	else
		nulls[2] = true;
	values[3] = DeltaJsonTextJsonb(md->schema_string, &nulls[3]);
	values[4] = DeltaTextArray(md->n_partition_columns, md->partition_columns);
	values[5] = DeltaStringMapJsonb(md->n_configuration, md->config_keys,
									md->config_values);
	values[6] = Int32GetDatum(p->min_reader_version);
	values[7] = Int32GetDatum(p->min_writer_version);
	if (p->n_reader_features >= 0)
		values[8] = DeltaTextArray(p->n_reader_features, p->reader_features);
	else
		nulls[8] = true;
	if (p->n_writer_features >= 0)
		values[9] = DeltaTextArray(p->n_writer_features, p->writer_features);
	else
		nulls[9] = true;
	values[10] = Int64GetDatum(snap->n_files);
	values[11] = Int64GetDatum(snap->size_bytes);
	tupdesc = BlessTupleDesc(tupdesc);
	tuple = heap_form_tuple(tupdesc, values, nulls);
	DeltaSnapshotFree(snap);
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
#undef INFO_COLS
}
