/*-------------------------------------------------------------------------
 *
 * funcs_scan.c
 *	  SQL functions of the predicate compiler: deltacc.skipping_predicate,
 *	  deltacc.files_for_scan and deltacc.file_may_match.
 *
 * Thin wrappers: arguments -> snapshot (log_reader / snapshot) ->
 * predicate.c -> rows.  The file-reading functions check
 * pg_read_server_files themselves (DeltaLogOpen does) on top of the
 * install script's GRANTs.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_scan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "common/json_util.h"
#include "format/djson.h"
#include "funcs/funcs_args.h"
#include "log/log_reader.h"
#include "snapshot/loader.h"
#include "snapshot/snapshot.h"
#include "stats/predicate.h"

PG_FUNCTION_INFO_V1(deltacc_skipping_predicate);
PG_FUNCTION_INFO_V1(deltacc_file_may_match);
PG_FUNCTION_INFO_V1(deltacc_files_for_scan);

/*
 * deltacc.skipping_predicate(table_path text, predicate text, version
 * bigint) returns text: the keep-predicate the read compiles to, "true"
 * when it cannot skip any file.
 */
Datum
deltacc_skipping_predicate(PG_FUNCTION_ARGS)
{
	char	   *path;
	char	   *pred;
	DeltaLog   *log;
	DeltaSnapshot *snap;
	DeltaReadSet *rs;
	char	   *result;

	DeltaCheckReadPrivilege();
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	pred = text_to_cstring(PG_GETARG_TEXT_PP(1));
	log = DeltaLogOpen(path);
	snap = DeltaSnapshotBuild(log, dc_version_arg(fcinfo, 2, "version"));
	rs = delta_readset_compile(snap->metadata, 1, (const char *const *) &pred);
	result = delta_read_keep_predicate(rs, 0);
	PG_RETURN_TEXT_P(cstring_to_text(result));
}

/*
 * Parse a jsonb object argument into parallel key/value arrays (string
 * values as is, JSON null as NULL, other scalars as their JSON text).
 * ERROR unless it is an object of scalars.
 */
static int
jsonb_object_arg(Jsonb *jb, const char *argname, char ***keys, char ***values)
{
	DjValue		v = dc_jsonb_parse(jb, argname, ERRCODE_INVALID_PARAMETER_VALUE);
	int			i;

	if (v.type != DJ_OBJECT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a JSON object", argname)));
	*keys = palloc0(sizeof(char *) * Max(1, v.len));
	*values = palloc0(sizeof(char *) * Max(1, v.len));
	for (i = 0; i < (int) v.len; i++)
	{
		const DjValue *mv = &v.u.members[i].value;

		(*keys)[i] = pstrdup(v.u.members[i].key);
		if (mv->type == DJ_STRING)
			(*values)[i] = pstrdup(mv->u.str);
		else if (mv->type == DJ_NULL)
			(*values)[i] = NULL;
		else if (mv->type == DJ_OBJECT || mv->type == DJ_ARRAY)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s values must be scalars", argname)));
		else
			(*values)[i] = dc_dj_to_json(mv);
	}
	return (int) v.len;
}

/*
 * deltacc.file_may_match(schema_string text, predicate text, stats text,
 *		partition_values jsonb, partition_columns text[], configuration jsonb,
 *		writer_includes_nan boolean)
 * returns (keep, stats_may_match, partition_matches, keep_predicate, reason):
 * the decision the predicate compiler takes for one file of a table with
 * that schema, without reading anything from disk.
 */
Datum
deltacc_file_may_match(PG_FUNCTION_ARGS)
{
	char	   *schema_string;
	char	   *pred;
	DeltaFileAction fa;
	char	  **pcols = NULL;
	int			npcols = 0;
	char	  **ckeys = NULL;
	char	  **cvals = NULL;
	int			nconf = 0;
	bool		nan_ok;
	DeltaSchema *schema;
	DeltaReadSet *rs;
	DeltaFileStats *fs;
	char	   *sreason;
	char	   *preason;
	bool		smatch;
	bool		pmatch;
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("schema_string and predicate must not be NULL")));
	schema_string = text_to_cstring(PG_GETARG_TEXT_PP(0));
	pred = text_to_cstring(PG_GETARG_TEXT_PP(1));
	memset(&fa, 0, sizeof(fa));
	fa.kind = DELTA_FILE_ADD;
	fa.path = "file";
	fa.tight_bounds = -1;
	fa.stats = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	fa.pv.is_null_map = PG_ARGISNULL(3);
	if (!PG_ARGISNULL(3))
		fa.pv.n = jsonb_object_arg(PG_GETARG_JSONB_P(3), "partition_values",
								   &fa.pv.keys, &fa.pv.values);
	if (!PG_ARGISNULL(4))
	{
		ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(4);
		Datum	   *elems;
		bool	   *enulls;
		int			i;

		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
						  &elems, &enulls, &npcols);
		pcols = palloc0(sizeof(char *) * Max(1, npcols));
		for (i = 0; i < npcols; i++)
			pcols[i] = enulls[i] ? pstrdup("") : TextDatumGetCString(elems[i]);
	}
	if (!PG_ARGISNULL(5))
		nconf = jsonb_object_arg(PG_GETARG_JSONB_P(5), "configuration",
								 &ckeys, &cvals);
	nan_ok = PG_ARGISNULL(6) ? false : PG_GETARG_BOOL(6);

	schema = delta_schema_parse(schema_string, npcols, pcols, nconf, ckeys, cvals);
	rs = delta_readset_compile_schema(schema, 1, (const char *const *) &pred);
	fs = delta_readset_decode_stats(rs, &fa);
	smatch = delta_read_stats_may_match(rs, 0, fs, nan_ok, &sreason);
	pmatch = delta_read_partition_matches(rs, 0, &fa.pv, &preason);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = BoolGetDatum(smatch && pmatch);
	values[1] = BoolGetDatum(smatch);
	values[2] = BoolGetDatum(pmatch);
	values[3] = CStringGetTextDatum(delta_read_keep_predicate(rs, 0));
	if (!pmatch)
		values[4] = CStringGetTextDatum(preason);
	else if (!smatch)
		values[4] = CStringGetTextDatum(sreason);
	else if (delta_read_has_partition_filter(rs, 0))
		values[4] = CStringGetTextDatum(psprintf("%s; %s", preason, sreason));
	else
		values[4] = CStringGetTextDatum(sreason);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * deltacc.files_for_scan(table_path text, predicates text[], version
 * bigint): the live files of that snapshot that a reader running these
 * reads would scan: for some read, the partition predicate is TRUE on the
 * file's partition values AND its statistics may match the read's data
 * conjuncts.  Same columns as snapshot_files.  Float/double maxima are
 * used only for a file whose statistics are known to include NaN (§3.6):
 * its stats_include_nan, from the commit that added it (a file from a
 * checkpoint: not known, so not used).  The conflict functions derive
 * their read files (read_files NULL) by the same rule.
 */
Datum
deltacc_files_for_scan(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	DeltaLog   *log;
	DeltaSnapshot *snap;
	DeltaReadSet *rs;
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *enulls;
	int			npreds;
	char	  **preds;
	int64		i;
	int			r;
	MemoryContext row_cxt;
	MemoryContext old;

	DeltaCheckReadPrivilege();
	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_VOID();
	arr = PG_GETARG_ARRAYTYPE_P(1);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("predicates must be a one-dimensional array")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &enulls, &npreds);
	preds = palloc0(sizeof(char *) * Max(1, npreds));
	for (r = 0; r < npreds; r++)
		preds[r] = enulls[r] ? NULL : TextDatumGetCString(elems[r]);

	log = DeltaLogOpen(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	snap = DeltaSnapshotBuild(log, dc_version_arg(fcinfo, 2, "version"));
	rs = delta_readset_compile(snap->metadata, npreds, (const char *const *) preds);

	row_cxt = AllocSetContextCreate(CurrentMemoryContext,
									"deltacc files_for_scan row context",
									ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < snap->n_files; i++)
	{
		DeltaFileAction *fa = snap->files[i];

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(row_cxt);
		if (delta_read_file_scanned(rs, fa))
			DeltaPutSnapshotFileRow(rsinfo, fa);
		MemoryContextSwitchTo(old);
		MemoryContextReset(row_cxt);
	}
	MemoryContextDelete(row_cxt);
	delta_readset_free(rs);
	DeltaSnapshotFree(snap);
	PG_RETURN_VOID();
}
