/*-------------------------------------------------------------------------
 *
 * data_reader.c
 *	  The one row iterator over Parquet data files (read_rows, read_parquet
 *	  and the row-level checker), resolving Delta fields to file columns
 *	  (physical names, or Parquet field ids in column mapping id mode),
 *	  decoding values into PostgreSQL Datums, and rendering rows as JSON
 *	  (one code path for every value, at every nesting level).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/rows/data_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/stat.h>

#include "catalog/pg_type.h"
#include "common/int.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "common/fileio.h"
#include "common/json_util.h"
#include "log/log_reader.h"
#include "rows/data_reader.h"
#include "storage/objstore.h"

#define DR_EPOCH_DIFF_DAYS	((POSTGRES_EPOCH_JDATE) - (UNIX_EPOCH_JDATE))
#define DR_EPOCH_DIFF_USECS	((int64) DR_EPOCH_DIFF_DAYS * USECS_PER_DAY)

static bool dr_datum(DeltaTypeKind kind, int32 typmod, const PqValue *v,
					 Datum *d, bool *isnull);
static void dr_value_json(StringInfo buf, DeltaRowIter *it,
						  const DeltaField *f, const PqValue *v);

/*
 * dr_file_name: the name under which Delta field f is stored among the
 * children of Parquet group node 'group' (NULL: absent from the file).
 * Column mapping id mode (by_id) matches the Parquet field_id against
 * delta.columnMapping.id, as Delta's id mode requires: when any child at
 * that level carries a field_id, only an id match counts; a level without
 * field ids falls back to the physical name.  Otherwise the physical name.
 */
static const char *
dr_file_name(const PqSchemaNode *group, const DeltaField *f, bool by_id)
{
	int			i;
	bool		any_id = false;

	if (!by_id || !f->has_field_id || group == NULL)
		return f->physical_name;
	for (i = 0; i < group->num_children; i++)
	{
		const PqSchemaNode *c = group->children[i];

		if (!c->has_field_id)
			continue;
		any_id = true;
		if ((int64) c->field_id == f->field_id)
			return c->name;
	}
	return any_id ? NULL : f->physical_name;
}

/*
 * dr_child: the value of field f inside struct value v (NULL when absent).
 */
static const PqValue *
dr_child(const PqValue *v, const DeltaField *f, bool by_id)
{
	const char *name = dr_file_name(v->node, f, by_id);

	return name ? pq_struct_get(v, name) : NULL;
}

/*
 * dr_find_leaf: the value of schema field f inside a projected row (a
 * PQV_STRUCT of top-level fields), following f's chain of parents through
 * nested structs by file name (dr_file_name).  NULL when absent; a null
 * struct on the way gives a PQV_NULL value.
 */
static const PqValue *
dr_find_leaf(const PqValue *row, const DeltaField *f, bool by_id)
{
	const DeltaField *chain[64];
	int			depth = 0;
	const PqValue *v = row;
	const DeltaField *p;

	for (p = f; p != NULL && depth < lengthof(chain); p = p->parent)
		chain[depth++] = p;
	if (p != NULL)
		return NULL;
	while (depth-- > 0)
	{
		if (v->kind == PQV_NULL)
			return v;
		v = dr_child(v, chain[depth], by_id);
		if (v == NULL)
			return NULL;
	}
	return v;
}

/*
 * dr_file_path: the dotted path of field f in file pf (the projection
 * name for pq_reader_open), palloc'd; NULL when f is not in the file.
 */
static char *
dr_file_path(const PqFile *pf, const DeltaField *f, bool by_id)
{
	const DeltaField *chain[64];
	int			depth = 0;
	const DeltaField *p;
	const PqSchemaNode *node = pq_schema_root(pf);
	StringInfoData path;

	for (p = f; p != NULL && depth < lengthof(chain); p = p->parent)
		chain[depth++] = p;
	if (p != NULL)
		return NULL;
	initStringInfo(&path);
	while (depth-- > 0)
	{
		const char *name = dr_file_name(node, chain[depth], by_id);
		const PqSchemaNode *next = NULL;
		int			i;

		if (name == NULL)
			return NULL;
		for (i = 0; node != NULL && i < node->num_children; i++)
			if (strcmp(node->children[i]->name, name) == 0)
				next = node->children[i];
		if (next == NULL)
			return NULL;
		appendStringInfo(&path, "%s%s", path.len ? "." : "", name);
		node = next;
	}
	return path.data;
}

/*
 * DeltaDataLeafDatum: convert a Parquet value to the Datum of leaf f's
 * PostgreSQL type (DESIGN.md's mapping), in the current memory context.
 * Returns false when the value's kind does not fit the column's type (the
 * caller then raises: the file is kept).
 */
bool
DeltaDataLeafDatum(const DeltaField *f, const PqValue *v, Datum *d, bool *isnull)
{
	return dr_datum(f->kind, f->pg_typmod, v, d, isnull);
}

/*
 * dr_datum: DeltaDataLeafDatum by type kind and numeric typmod.
 */
static bool
dr_datum(DeltaTypeKind kind, int32 typmod, const PqValue *v, Datum *d,
		 bool *isnull)
{
	*isnull = false;
	if (v->kind == PQV_NULL)
	{
		*isnull = true;
		return true;
	}
	switch (kind)
	{
		case DELTA_TYPE_LONG:
			if (v->kind == PQV_INT64)
				*d = Int64GetDatum(v->u.i64);
			else if (v->kind == PQV_INT32)
				*d = Int64GetDatum((int64) v->u.i32);
			else
				return false;
			return true;
		case DELTA_TYPE_INTEGER:
			if (v->kind != PQV_INT32)
				return false;
			*d = Int32GetDatum(v->u.i32);
			return true;
		case DELTA_TYPE_SHORT:
		case DELTA_TYPE_BYTE:
			if (v->kind != PQV_INT32 || v->u.i32 < PG_INT16_MIN ||
				v->u.i32 > PG_INT16_MAX)
				return false;
			*d = Int16GetDatum((int16) v->u.i32);
			return true;
		case DELTA_TYPE_FLOAT:
			if (v->kind != PQV_FLOAT)
				return false;
			*d = Float4GetDatum(v->u.f);
			return true;
		case DELTA_TYPE_DOUBLE:
			if (v->kind == PQV_DOUBLE)
				*d = Float8GetDatum(v->u.d);
			else if (v->kind == PQV_FLOAT)
				*d = Float8GetDatum((double) v->u.f);
			else
				return false;
			return true;
		case DELTA_TYPE_DECIMAL:
			if (v->kind != PQV_DECIMAL)
				return false;
			*d = DirectFunctionCall3(numeric_in, CStringGetDatum(v->u.text),
									 ObjectIdGetDatum(InvalidOid),
									 Int32GetDatum(typmod));
			return true;
		case DELTA_TYPE_STRING:
			if (v->kind != PQV_STRING)
				return false;
			/* invalid UTF-8 is an ERROR here: the file is kept */
			pg_verifymbstr((const char *) v->u.bytes, (int) v->len, false);
			*d = PointerGetDatum(cstring_to_text_with_len((const char *) v->u.bytes,
														  (int) v->len));
			return true;
		case DELTA_TYPE_BINARY:
			if (v->kind != PQV_BYTES && v->kind != PQV_STRING)
				return false;
			{
				bytea	   *b = palloc(VARHDRSZ + v->len);

				SET_VARSIZE(b, VARHDRSZ + v->len);
				if (v->len > 0)
					memcpy(VARDATA(b), v->u.bytes, v->len);
				*d = PointerGetDatum(b);
			}
			return true;
		case DELTA_TYPE_BOOLEAN:
			if (v->kind != PQV_BOOL)
				return false;
			*d = BoolGetDatum(v->u.b);
			return true;
		case DELTA_TYPE_DATE:
			if (v->kind != PQV_DATE)
				return false;
			*d = DateADTGetDatum((DateADT) ((int64) v->u.i32 - DR_EPOCH_DIFF_DAYS));
			return true;
		case DELTA_TYPE_TIMESTAMP:
		case DELTA_TYPE_TIMESTAMP_NTZ:
			{
				int64		us;

				if (v->kind != PQV_TIMESTAMP)
					return false;
				if (v->ts_unit == PQ_MICROS)
					us = v->u.i64;
				else if (v->ts_unit == PQ_MILLIS)
				{
					if (pg_mul_s64_overflow(v->u.i64, 1000, &us))
						return false;
				}
				else if (v->u.i64 % 1000 == 0)
					us = v->u.i64 / 1000;	/* nanoseconds, exact in micros */
				else
					return false;	/* not exact in PostgreSQL */
				if (pg_sub_s64_overflow(us, DR_EPOCH_DIFF_USECS, &us))
					return false;
				*d = Int64GetDatum(us);
			}
			return true;
		default:
			return false;
	}
}

/* ---------- rendering values as JSON ---------- */

/*
 * dr_float_json: append a float's text as a JSON number, or as a JSON
 * string for NaN and infinities (not representable as JSON numbers).
 */
static void
dr_float_json(StringInfo buf, char *text, bool finite)
{
	if (finite)
		appendStringInfoString(buf, text);
	else
		escape_json(buf, text);
}

/*
 * dr_datum_json: append the JSON form of a Datum of a primitive Delta type
 * kind (as made by dr_datum or by partition value parsing).
 */
static void
dr_datum_json(StringInfo buf, DeltaTypeKind kind, Datum d, bool isnull)
{
	char		tbuf[MAXDATELEN + 1];
	int			utc = 0;

	if (isnull)
	{
		appendStringInfoString(buf, "null");
		return;
	}
	switch (kind)
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
			dr_float_json(buf, DatumGetCString(DirectFunctionCall1(float4out, d)),
						  !isnan(DatumGetFloat4(d)) && !isinf(DatumGetFloat4(d)));
			break;
		case DELTA_TYPE_DOUBLE:
			dr_float_json(buf, DatumGetCString(DirectFunctionCall1(float8out, d)),
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
				char	   *hex;

				if (n > (MaxAllocSize - 3) / 2)
					ereport(ERROR,
							errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
							errmsg("binary value of %zu bytes is too large to render as hex",
								   n));
				hex = palloc(n * 2 + 3);

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
			/* read_rows refuses these columns before reading */
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("values of type %s cannot be rendered",
						   delta_type_kind_name(kind)));
	}
}

/*
 * dr_untyped_kind: the Delta type kind a Parquet value renders as when no
 * Delta type is known (read_parquet, or an array element without a type).
 * Returns false for containers.
 */
static bool
dr_untyped_kind(const PqValue *v, DeltaTypeKind *kind)
{
	switch (v->kind)
	{
		case PQV_BOOL:
			*kind = DELTA_TYPE_BOOLEAN;
			return true;
		case PQV_INT32:
			*kind = DELTA_TYPE_INTEGER;
			return true;
		case PQV_INT64:
			*kind = DELTA_TYPE_LONG;
			return true;
		case PQV_FLOAT:
			*kind = DELTA_TYPE_FLOAT;
			return true;
		case PQV_DOUBLE:
			*kind = DELTA_TYPE_DOUBLE;
			return true;
		case PQV_BYTES:
			*kind = DELTA_TYPE_BINARY;
			return true;
		case PQV_STRING:
			*kind = DELTA_TYPE_STRING;
			return true;
		case PQV_DECIMAL:
			*kind = DELTA_TYPE_DECIMAL;
			return true;
		case PQV_DATE:
			*kind = DELTA_TYPE_DATE;
			return true;
		case PQV_TIMESTAMP:
			*kind = v->ts_utc ? DELTA_TYPE_TIMESTAMP : DELTA_TYPE_TIMESTAMP_NTZ;
			return true;
		default:
			return false;
	}
}

/*
 * dr_misfit: ERROR for a value of the current row that does not fit the
 * type of field f (or, untyped, cannot be rendered).
 */
static void
dr_misfit(const DeltaRowIter *it, const DeltaField *f, const PqValue *v)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("value of column \"%s\" in row %lld of data file \"%s\" does not fit type %s",
				   f ? f->path : (v->node ? v->node->name : "?"),
				   (long long) it->pos, it->display_path,
				   f ? f->type_name : pq_value_kind_name(v->kind)));
}

/*
 * dr_struct_json: a struct value as a JSON object: the fields of Delta
 * struct f (logical names, looked up by physical name; a field absent from
 * the file is null), or, untyped, the value's own items by Parquet name.
 */
static void
dr_struct_json(StringInfo buf, DeltaRowIter *it, const DeltaField *f,
			   const PqValue *v)
{
	uint32		i;

	if (v->kind != PQV_STRUCT)
		dr_misfit(it, f, v);
	appendStringInfoChar(buf, '{');
	if (f != NULL)
	{
		for (i = 0; i < (uint32) f->nfields; i++)
		{
			const DeltaField *c = f->fields[i];

			if (i > 0)
				appendStringInfoString(buf, ", ");
			escape_json(buf, c->name);
			appendStringInfoString(buf, ": ");
			dr_value_json(buf, it, c, dr_child(v, c, it->by_id));
		}
	}
	else
	{
		for (i = 0; i < v->len; i++)
		{
			const PqValue *c = &v->u.items[i];

			if (i > 0)
				appendStringInfoString(buf, ", ");
			escape_json(buf, c->node ? c->node->name : "");
			appendStringInfoString(buf, ": ");
			dr_value_json(buf, it, NULL, c);
		}
	}
	appendStringInfoChar(buf, '}');
}

/*
 * dr_map_json: a map as a JSON object when its keys are strings (by Delta
 * type, or untyped by the Parquet values), else as an array of
 * {"key": k, "value": v} objects in file order.
 */
static void
dr_map_json(StringInfo buf, DeltaRowIter *it, const DeltaField *f,
			const PqValue *v)
{
	const DeltaField *kf = f ? f->key : NULL;
	const DeltaField *vf = f ? f->value : NULL;
	bool		string_keys;
	uint32		i;

	if (v->kind != PQV_MAP)
		dr_misfit(it, f, v);
	if (kf != NULL)
		string_keys = (kf->kind == DELTA_TYPE_STRING);
	else
	{
		string_keys = true;
		for (i = 0; i < v->len; i++)
			if (v->u.map.keys[i].kind != PQV_STRING)
				string_keys = false;
	}
	appendStringInfoChar(buf, string_keys ? '{' : '[');
	for (i = 0; i < v->len; i++)
	{
		const PqValue *k = &v->u.map.keys[i];

		CHECK_FOR_INTERRUPTS();
		if (i > 0)
			appendStringInfoString(buf, ", ");
		if (string_keys)
		{
			if (k->kind != PQV_STRING)
				dr_misfit(it, kf, k);
			dr_value_json(buf, it, kf, k);
			appendStringInfoString(buf, ": ");
		}
		else
		{
			appendStringInfoString(buf, "{\"key\": ");
			dr_value_json(buf, it, kf, k);
			appendStringInfoString(buf, ", \"value\": ");
		}
		dr_value_json(buf, it, vf, &v->u.map.values[i]);
		if (!string_keys)
			appendStringInfoChar(buf, '}');
	}
	appendStringInfoChar(buf, string_keys ? '}' : ']');
}

/*
 * dr_value_json: append the JSON form of Parquet value v of Delta field f
 * (f NULL: untyped, rendered by the value's own kind).  v NULL (absent
 * from the file) and PQV_NULL are JSON null at every level.  Recurses
 * through structs, lists and maps (bounded by the Parquet schema depth).
 */
static void
dr_value_json(StringInfo buf, DeltaRowIter *it, const DeltaField *f,
			  const PqValue *v)
{
	DeltaTypeKind kind;
	int32		typmod = -1;
	Datum		d;
	bool		isnull;
	uint32		i;

	check_stack_depth();
	if (v == NULL || v->kind == PQV_NULL)
	{
		appendStringInfoString(buf, "null");
		return;
	}
	if (f != NULL)
	{
		kind = f->kind;
		typmod = f->pg_typmod;
	}
	else if (v->kind == PQV_STRUCT)
		kind = DELTA_TYPE_STRUCT;
	else if (v->kind == PQV_LIST)
		kind = DELTA_TYPE_ARRAY;
	else if (v->kind == PQV_MAP)
		kind = DELTA_TYPE_MAP;
	else if (!dr_untyped_kind(v, &kind))
		dr_misfit(it, f, v);

	switch (kind)
	{
		case DELTA_TYPE_STRUCT:
			dr_struct_json(buf, it, f, v);
			return;
		case DELTA_TYPE_ARRAY:
			if (v->kind != PQV_LIST)
				dr_misfit(it, f, v);
			appendStringInfoChar(buf, '[');
			for (i = 0; i < v->len; i++)
			{
				CHECK_FOR_INTERRUPTS();
				if (i > 0)
					appendStringInfoString(buf, ", ");
				dr_value_json(buf, it, f ? f->element : NULL, &v->u.items[i]);
			}
			appendStringInfoChar(buf, ']');
			return;
		case DELTA_TYPE_MAP:
			dr_map_json(buf, it, f, v);
			return;
		default:
			if (!dr_datum(kind, typmod, v, &d, &isnull))
				dr_misfit(it, f, v);
			dr_datum_json(buf, kind, d, isnull);
			return;
	}
}

/*
 * dr_fields_json: a JSON object of the Delta fields fields[0..n) of the
 * current row: top-level primitive leaves from the decoded Datums (which
 * include partition values), structs nested, arrays and maps rendered
 * from the Parquet value.
 */
static void
dr_fields_json(StringInfo buf, DeltaRowIter *it, DeltaField **fields, int n)
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
			const PqValue *v = dr_find_leaf(&it->row, f, it->by_id);

			if (v == NULL || v->kind == PQV_NULL)
				appendStringInfoString(buf, "null");
			else
				dr_fields_json(buf, it, f->fields, f->nfields);
		}
		else if (f->kind == DELTA_TYPE_ARRAY || f->kind == DELTA_TYPE_MAP)
			dr_value_json(buf, it, f,
						  it->isnull[f->leaf_index] ? NULL :
						  dr_find_leaf(&it->row, f, it->by_id));
		else
			dr_datum_json(buf, f->kind, it->values[f->leaf_index],
						  it->isnull[f->leaf_index]);
	}
	appendStringInfoChar(buf, '}');
}

/*
 * DeltaRowIterJson: see data_reader.h.
 */
void
DeltaRowIterJson(StringInfo buf, DeltaRowIter *it)
{
	if (it->schema != NULL)
		dr_fields_json(buf, it, it->schema->fields, it->schema->nfields);
	else
		dr_struct_json(buf, it, NULL, &it->row);
}

/* ---------- the row iterator ---------- */

/*
 * dr_parquet_error: ERROR for a Parquet decoding failure of it's file.
 */
static void
dr_parquet_error(const char *display_path, const PqError *err)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("could not read Parquet file \"%s\": %s", display_path,
				   err->message));
}

/*
 * DeltaDataFileSize: see data_reader.h.
 */
int64
DeltaDataFileSize(const char *abs_path, const char *display_path)
{
	struct stat st;

	if (storage_is_remote(abs_path))
	{
		StorageObjectInfo info;

		storage_stat_existing(abs_path, "data file", display_path, &info);
		return info.size;
	}
	DeltaStatRegularFile(abs_path, "data file", display_path, &st);
	return (int64) st.st_size;
}

/*
 * DeltaRowIterOpen: see data_reader.h.
 */
DeltaRowIter *
DeltaRowIterOpen(const char *abs_path, const char *display_path,
				 const DeltaSchema *schema,
				 const bool *refs, bool missing_ok, int64 num_records,
				 const DeltaPartitionValues *pv)
{
	MemoryContext file_cxt;
	MemoryContext old;
	DeltaRowIter *it;
	struct stat st;
	FmtAllocator file_alloc;
	PqError		err;
	const char **cols = NULL;
	int			ncols = 0;
	int			nleaves = schema ? schema->nleaves : 0;
	int			i;

	file_cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc data file",
									 ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(file_cxt);
	it = palloc0(sizeof(DeltaRowIter));
	it->file_cxt = file_cxt;
	it->display_path = pstrdup(display_path);
	it->schema = schema;
	it->refs = refs;
	it->missing_ok = missing_ok;
	it->by_id = schema != NULL && schema->column_mapping_id;
	it->pos = -1;
	it->row_cxt = AllocSetContextCreate(file_cxt, "deltacc data row",
										ALLOCSET_DEFAULT_SIZES);

	file_alloc = dc_fmt_allocator(file_cxt);
	if (storage_is_remote(abs_path))
	{
		it->fd = -1;
		it->remote = storage_reader_open(abs_path, "data file", it->display_path);
		it->pf = pq_open(storage_pq_read_at, it->remote,
						 (uint64_t) it->remote->info.size, &file_alloc, NULL,
						 &err);
	}
	else
	{
		it->fd = DeltaOpenRegularFile(abs_path, "data file", display_path, &st);
		it->pf = pq_open(DeltaPqReadAt, &it->fd, (uint64_t) st.st_size,
						 &file_alloc, NULL, &err);
	}
	if (it->pf == NULL)
		dr_parquet_error(display_path, &err);
	if (num_records >= 0 && pq_num_rows(it->pf) != num_records)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Parquet file \"%s\" has %lld rows, its log entry says %lld",
					   display_path, (long long) pq_num_rows(it->pf),
					   (long long) num_records));

	it->values = palloc0(sizeof(Datum) * Max(nleaves, 1));
	it->isnull = palloc(sizeof(bool) * Max(nleaves, 1));
	for (i = 0; i < nleaves; i++)
		it->isnull[i] = true;

	/* the projected data columns, by physical (dotted) path */
	if (schema != NULL)
	{
		cols = palloc(sizeof(char *) * Max(nleaves, 1));
		for (i = 0; i < nleaves; i++)
		{
			const DeltaField *f = schema->leaves[i];
			char	   *path;

			if ((refs && !refs[i]) || f->is_partition)
				continue;
			path = dr_file_path(it->pf, f, it->by_id);
			if (path != NULL)
				cols[ncols++] = path;
			else if (!missing_ok)
				ereport(ERROR,
						errcode(ERRCODE_UNDEFINED_COLUMN),
						errmsg("column \"%s\" is not in data file \"%s\"",
							   f->path, display_path));
		}
	}
	it->reader = pq_reader_open(it->pf, cols, ncols, &err);
	if (it->reader == NULL)
		dr_parquet_error(display_path, &err);

	/* partition columns: the same for every row of the file */
	for (i = 0; i < nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];
		const char *val;

		if ((refs && !refs[i]) || !f->is_partition)
			continue;
		if (pv == NULL || !delta_partition_value_lookup(pv, f, &val))
			continue;			/* missing key: NULL, as Delta reads it */
		if (!delta_partition_value_parse(f, val, &it->values[i], &it->isnull[i]))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("partition value %s=%s cannot be parsed as %s",
						   f->path, quote_literal_cstr(val), f->type_name));
	}
	MemoryContextSwitchTo(old);
	return it;
}

/*
 * dr_decode_leaves: the projected data leaves of the current row into
 * it->values / it->isnull (in row_cxt).
 */
static void
dr_decode_leaves(DeltaRowIter *it)
{
	const DeltaSchema *schema = it->schema;
	int			i;

	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];
		const PqValue *v;

		if ((it->refs && !it->refs[i]) || f->is_partition)
			continue;
		v = dr_find_leaf(&it->row, f, it->by_id);
		if (v == NULL)
		{
			if (!it->missing_ok)
				dr_misfit(it, f, &it->row);
			it->isnull[i] = true;	/* column not in this file */
			continue;
		}
		if (f->kind == DELTA_TYPE_ARRAY || f->kind == DELTA_TYPE_MAP)
		{
			/* read whole from the value tree by DeltaRowIterJson */
			it->isnull[i] = (v->kind == PQV_NULL);
			continue;
		}
		if (!DeltaDataLeafDatum(f, v, &it->values[i], &it->isnull[i]))
			dr_misfit(it, f, v);
	}
}

/*
 * DeltaRowIterNext: see data_reader.h.
 */
bool
DeltaRowIterNext(DeltaRowIter *it)
{
	FmtAllocator row_alloc = dc_fmt_allocator(it->row_cxt);
	PqError		err;

	for (;;)
	{
		int			rc;
		int64		pos;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(it->row_cxt);
		if (!it->rg_loaded)
		{
			FmtAllocator rg_alloc;

			if (it->rg >= pq_num_row_groups(it->pf))
				return false;
			if (it->rg_cxt == NULL)
				it->rg_cxt = AllocSetContextCreate(it->file_cxt,
												   "deltacc data row group",
												   ALLOCSET_DEFAULT_SIZES);
			else
				MemoryContextReset(it->rg_cxt);
			rg_alloc = dc_fmt_allocator(it->rg_cxt);
			if (!pq_reader_load_row_group(it->reader, it->rg, &rg_alloc, &err))
				dr_parquet_error(it->display_path, &err);
			it->rg_loaded = true;
		}
		rc = pq_reader_next(it->reader, &row_alloc, &it->row, &pos, &err);
		if (rc < 0)
			dr_parquet_error(it->display_path, &err);
		if (rc == 0)
		{
			it->rg_loaded = false;
			it->rg++;
			continue;
		}
		it->pos = pos;
		if (it->include && !rb_contains(it->include, (uint64) pos))
			continue;
		if (it->exclude && rb_contains(it->exclude, (uint64) pos))
			continue;
		if (it->schema != NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(it->row_cxt);

			dr_decode_leaves(it);
			MemoryContextSwitchTo(old);
		}
		return true;
	}
}

/*
 * DeltaRowIterClose: free everything the iterator allocated.
 */
void
DeltaRowIterClose(DeltaRowIter *it)
{
	if (it->fd >= 0)
		CloseTransientFile(it->fd);
	MemoryContextDelete(it->file_cxt);
}
