/*-------------------------------------------------------------------------
 *
 * funcs_rows.c
 *	  deltacc.read_rows: the live rows of a Delta snapshot as jsonb.
 *
 * Every live data file of the snapshot is read (Parquet), the rows its
 * deletion vector marks are dropped, partition columns are filled in from
 * partitionValues, and each row becomes one JSON object keyed by logical
 * column names (nested structs as nested objects).  An optional read
 * predicate filters the rows (delta_read_row_matches).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs_rows.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/stat.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "data_reader.h"
#include "deletion_vector.h"
#include "json_util.h"
#include "log_reader.h"
#include "parquet.h"
#include "predicate.h"
#include "schema.h"
#include "snapshot.h"
#include "stats.h"

PG_FUNCTION_INFO_V1(deltacc_read_rows);

/* one data file being read */
typedef struct RowsFile
{
	const DeltaSchema *schema;
	const char *path;			/* as in the log, for messages */
	const PqValue *row;			/* current row */
	Datum	   *values;			/* by leaf_index */
	bool	   *isnull;
} RowsFile;

/*
 * rows_float_json: append a float's text as a JSON number, or as a JSON
 * string for NaN and infinities (not representable as JSON numbers).
 */
static void
rows_float_json(StringInfo buf, char *text, bool finite)
{
	if (finite)
		appendStringInfoString(buf, text);
	else
		escape_json(buf, text);
}

/*
 * rows_leaf_json: append the JSON form of leaf f's decoded value.
 */
static void
rows_leaf_json(StringInfo buf, const DeltaField *f, Datum d, bool isnull)
{
	char		tbuf[MAXDATELEN + 1];
	int			utc = 0;

	if (isnull)
	{
		appendStringInfoString(buf, "null");
		return;
	}
	switch (f->kind)
	{
		case DELTA_TYPE_LONG:
			appendStringInfo(buf, INT64_FORMAT, DatumGetInt64(d));
			break;
		case DELTA_TYPE_INTEGER:
			appendStringInfo(buf, "%d", DatumGetInt32(d));
			break;
		case DELTA_TYPE_SHORT:
		case DELTA_TYPE_BYTE:
			appendStringInfo(buf, "%d", (int) DatumGetInt16(d));
			break;
		case DELTA_TYPE_FLOAT:
			rows_float_json(buf, DatumGetCString(DirectFunctionCall1(float4out, d)),
							!isnan(DatumGetFloat4(d)) && !isinf(DatumGetFloat4(d)));
			break;
		case DELTA_TYPE_DOUBLE:
			rows_float_json(buf, DatumGetCString(DirectFunctionCall1(float8out, d)),
							!isnan(DatumGetFloat8(d)) && !isinf(DatumGetFloat8(d)));
			break;
		case DELTA_TYPE_DECIMAL:
			appendStringInfoString(buf, DatumGetCString(DirectFunctionCall1(numeric_out, d)));
			break;
		case DELTA_TYPE_STRING:
			escape_json(buf, TextDatumGetCString(d));
			break;
		case DELTA_TYPE_BINARY:
			{
				bytea	   *b = DatumGetByteaPP(d);
				Size		n = VARSIZE_ANY_EXHDR(b);
				char	   *hex = palloc(n * 2 + 3);

				hex[0] = '\\';
				hex[1] = 'x';
				hex_encode(VARDATA_ANY(b), n, hex + 2);
				hex[n * 2 + 2] = '\0';
				escape_json(buf, hex);
			}
			break;
		case DELTA_TYPE_BOOLEAN:
			appendStringInfoString(buf, DatumGetBool(d) ? "true" : "false");
			break;
		case DELTA_TYPE_DATE:
			escape_json(buf, JsonEncodeDateTime(tbuf, d, DATEOID, NULL));
			break;
		case DELTA_TYPE_TIMESTAMP:
			escape_json(buf, JsonEncodeDateTime(tbuf, d, TIMESTAMPTZOID, &utc));
			break;
		case DELTA_TYPE_TIMESTAMP_NTZ:
			escape_json(buf, JsonEncodeDateTime(tbuf, d, TIMESTAMPOID, NULL));
			break;
		default:
			/* refused before reading (rows_check_schema) */
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("column \"%s\" of type %s cannot be read",
						   f->path, f->type_name));
	}
}

/*
 * rows_fields_json: append a JSON object of fields[0..n) of the current
 * row (structs nested; a null struct is JSON null).
 */
static void
rows_fields_json(StringInfo buf, RowsFile *rf, DeltaField **fields, int n)
{
	int			i;

	appendStringInfoChar(buf, '{');
	for (i = 0; i < n; i++)
	{
		const DeltaField *f = fields[i];

		if (i > 0)
			appendStringInfoString(buf, ", ");
		escape_json(buf, f->name);
		appendStringInfoString(buf, ": ");
		if (f->kind == DELTA_TYPE_STRUCT)
		{
			const PqValue *v = DeltaDataFindLeaf(rf->row, f);

			if (v == NULL || v->kind == PQV_NULL)
				appendStringInfoString(buf, "null");
			else
				rows_fields_json(buf, rf, f->fields, f->nfields);
		}
		else
			rows_leaf_json(buf, f, rf->values[f->leaf_index],
						   rf->isnull[f->leaf_index]);
	}
	appendStringInfoChar(buf, '}');
}

/*
 * rows_check_schema: ERROR (feature not supported) when a leaf has a type
 * read_rows cannot render (arrays, maps, unsupported Delta types).
 */
static void
rows_check_schema(const DeltaSchema *schema)
{
	int			i;

	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];

		if (f->kind == DELTA_TYPE_ARRAY || f->kind == DELTA_TYPE_MAP ||
			f->kind == DELTA_TYPE_UNSUPPORTED)
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("read_rows does not support column \"%s\" of type %s",
						   f->path, f->type_name),
					errdetail("Only primitive columns and structs of them are read."));
	}
}

/*
 * rows_read_file: emit the live rows of data file fa (matching read 0 of
 * rs when rs is set) into the tuplestore.  Allocates in the current
 * (per-file) memory context; ERRORs on anything it cannot read exactly.
 */
static void
rows_read_file(ReturnSetInfo *rsinfo, DeltaLog *log, const DeltaSchema *schema,
			   DeltaReadSet *rs, const DeltaFileAction *fa)
{
	char	   *abs_path;
	struct stat st;
	char	   *buf;
	Size		len;
	MemoryContext file_cxt = CurrentMemoryContext;
	MemoryContext row_cxt;
	FmtAllocator file_alloc;
	FmtAllocator row_alloc;
	PqFile	   *pf;
	PqReader   *reader;
	PqError		err;
	const char **cols;
	int			ncols = 0;
	RbSet	   *deleted = NULL;
	RowsFile	rf;
	int			i,
				rg;

	if (rs != NULL && !delta_read_partition_matches(rs, 0, &fa->pv, NULL))
		return;
	if (fa->dv != NULL && fa->dv->cardinality > 0)
		deleted = DeltaDVLoad(log, fa->dv,
							  fa->has_num_records ? fa->num_records : -1);

	abs_path = DeltaLogResolvePath(log, fa->path);
	if (stat(abs_path, &st) != 0)
	{
		/* errcode_for_file_access maps e.g. ENAMETOOLONG to XX000 */
		if (errno == ENOENT || errno == EACCES || errno == EPERM ||
			errno == ENOTDIR)
			ereport(ERROR,
					errcode_for_file_access(),
					errmsg("could not stat data file \"%s\": %m", fa->path));
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FILE),
				errmsg("could not stat data file \"%s\": %m", fa->path));
	}
	buf = DeltaReadWholeFile(abs_path, fa->path, (Size) Max(st.st_size, 1), &len);
	file_alloc = dc_fmt_allocator(file_cxt);
	pf = pq_open_buffer((const uint8_t *) buf, len, &file_alloc, NULL, &err);
	if (pf == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("could not read Parquet file \"%s\": %s", fa->path,
					   err.message));
	if (fa->has_num_records && pq_num_rows(pf) != fa->num_records)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Parquet file \"%s\" has %lld rows, its log entry says %lld",
					   fa->path, (long long) pq_num_rows(pf),
					   (long long) fa->num_records));

	rf.schema = schema;
	rf.path = fa->path;
	rf.values = palloc0(sizeof(Datum) * Max(schema->nleaves, 1));
	rf.isnull = palloc(sizeof(bool) * Max(schema->nleaves, 1));
	for (i = 0; i < schema->nleaves; i++)
		rf.isnull[i] = true;

	/* data columns present in the file (absent ones read as NULL) */
	cols = palloc(sizeof(char *) * Max(schema->nleaves, 1));
	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];
		char	   *path;

		if (f->is_partition)
			continue;
		path = DeltaDataPhysicalPath(f);
		if (pq_schema_find(pf, path) != NULL)
			cols[ncols++] = path;
	}
	reader = pq_reader_open(pf, cols, ncols, &err);
	if (reader == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("could not read Parquet file \"%s\": %s", fa->path,
					   err.message));

	/* partition columns: the same for every row of the file */
	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];
		const char *val;

		if (!f->is_partition)
			continue;
		if (!delta_partition_value_lookup(&fa->pv, f, &val))
			continue;			/* missing key: NULL, as Delta reads it */
		if (!delta_partition_value_parse(f, val, &rf.values[i], &rf.isnull[i]))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("partition value %s=%s cannot be parsed as %s",
						   f->path, quote_literal_cstr(val), f->type_name));
	}

	row_cxt = AllocSetContextCreate(file_cxt, "deltacc read_rows row",
									ALLOCSET_DEFAULT_SIZES);
	row_alloc = dc_fmt_allocator(row_cxt);
	for (rg = 0; rg < pq_num_row_groups(pf); rg++)
	{
		MemoryContext rg_cxt;
		FmtAllocator rg_alloc;
		PqValue		row;
		int64		pos;
		int			rc;

		CHECK_FOR_INTERRUPTS();
		rg_cxt = AllocSetContextCreate(file_cxt, "deltacc read_rows row group",
									   ALLOCSET_DEFAULT_SIZES);
		rg_alloc = dc_fmt_allocator(rg_cxt);
		if (!pq_reader_load_row_group(reader, rg, &rg_alloc, &err))
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("could not read Parquet file \"%s\": %s", fa->path,
						   err.message));
		while ((rc = pq_reader_next(reader, &row_alloc, &row, &pos, &err)) > 0)
		{
			StringInfoData json;
			Datum		result;
			bool		rnull = false;

			CHECK_FOR_INTERRUPTS();
			if (deleted && rb_contains(deleted, (uint64) pos))
			{
				MemoryContextReset(row_cxt);
				continue;
			}
			MemoryContextSwitchTo(row_cxt);
			rf.row = &row;
			for (i = 0; i < schema->nleaves; i++)
			{
				const DeltaField *f = schema->leaves[i];
				const PqValue *v;

				if (f->is_partition)
					continue;
				v = DeltaDataFindLeaf(&row, f);
				if (v == NULL)
				{
					rf.isnull[i] = true;	/* column not in this file */
					continue;
				}
				if (!DeltaDataLeafDatum(f, v, &rf.values[i], &rf.isnull[i]))
					ereport(ERROR,
							errcode(ERRCODE_DATA_CORRUPTED),
							errmsg("value of column \"%s\" in row %lld of data file \"%s\" does not fit type %s",
								   f->path, (long long) pos, fa->path,
								   f->type_name));
			}
			if (rs == NULL || delta_read_row_matches(rs, 0, rf.values, rf.isnull))
			{
				initStringInfo(&json);
				rows_fields_json(&json, &rf, schema->fields, schema->nfields);
				result = DirectFunctionCall1(jsonb_in, CStringGetDatum(json.data));
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
									 &result, &rnull);
			}
			MemoryContextSwitchTo(file_cxt);
			MemoryContextReset(row_cxt);
		}
		if (rc < 0)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("could not read Parquet file \"%s\": %s", fa->path,
						   err.message));
		MemoryContextDelete(rg_cxt);
	}
}

/*
 * deltacc.read_rows(table_path text, version bigint, predicate text)
 * RETURNS SETOF jsonb: the live rows of the snapshot (see file header).
 * Requires pg_read_server_files.
 */
Datum
deltacc_read_rows(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	DeltaLog   *log;
	DeltaSnapshot *snap;
	DeltaSchema *schema;
	DeltaReadSet *rs = NULL;
	int64		version = -1;
	MemoryContext file_cxt;
	MemoryContext old;
	int64		i;

	DeltaCheckReadPrivilege();
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	if (PG_ARGISNULL(0))
		PG_RETURN_VOID();
	if (PG_NARGS() > 1 && !PG_ARGISNULL(1))
	{
		version = PG_GETARG_INT64(1);
		if (version < 0)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("version must not be negative"));
	}

	log = DeltaLogOpen(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	snap = DeltaSnapshotBuild(log, version);
	schema = delta_schema_from_metadata(snap->metadata);
	rows_check_schema(schema);
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		char	   *pred = text_to_cstring(PG_GETARG_TEXT_PP(2));

		rs = delta_readset_compile_schema(schema, 1, (const char *const *) &pred);
	}

	file_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "deltacc read_rows file",
									 ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < snap->n_files; i++)
	{
		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(file_cxt);
		rows_read_file(rsinfo, log, schema, rs, DeltaSnapshotGetFile(snap, i));
		MemoryContextSwitchTo(old);
		MemoryContextReset(file_cxt);
	}
	MemoryContextDelete(file_cxt);
	PG_RETURN_VOID();
}
