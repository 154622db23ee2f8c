/*-------------------------------------------------------------------------
 *
 * data_reader.c
 *	  Decoding Parquet data-file values into PostgreSQL Datums by Delta
 *	  schema leaf (shared by the row-level checker and read_rows).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/data_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/timestamp.h"

#include "data_reader.h"

#define DR_EPOCH_DIFF_DAYS	((POSTGRES_EPOCH_JDATE) - (UNIX_EPOCH_JDATE))
#define DR_EPOCH_DIFF_USECS	((int64) DR_EPOCH_DIFF_DAYS * USECS_PER_DAY)

/*
 * DeltaDataPhysicalPath: the dotted physical path of field f (its column
 * path in the Parquet file), palloc'd in the current context.
 */
char *
DeltaDataPhysicalPath(const DeltaField *f)
{
	StringInfoData path;
	const DeltaField *p;
	const DeltaField *chain[64];
	int			depth = 0;

	for (p = f; p != NULL && depth < lengthof(chain); p = p->parent)
		chain[depth++] = p;
	initStringInfo(&path);
	while (depth-- > 0)
		appendStringInfo(&path, "%s%s", path.len ? "." : "",
						 chain[depth]->physical_name);
	return path.data;
}

/*
 * DeltaDataFindLeaf: the value of schema leaf f inside a projected row (a
 * PQV_STRUCT of top-level fields), following f's physical path through
 * nested structs.  NULL when absent; a null struct on the way gives a
 * PQV_NULL value.
 */
const PqValue *
DeltaDataFindLeaf(const PqValue *row, const DeltaField *f)
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
		v = pq_struct_get(v, chain[depth]->physical_name);
		if (v == NULL)
			return NULL;
	}
	return v;
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
	*isnull = false;
	if (v->kind == PQV_NULL)
	{
		*isnull = true;
		return true;
	}
	switch (f->kind)
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
									 Int32GetDatum(f->pg_typmod));
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
				else
					return false;	/* nanoseconds: not exact in PostgreSQL */
				if (pg_sub_s64_overflow(us, DR_EPOCH_DIFF_USECS, &us))
					return false;
				*d = Int64GetDatum(us);
			}
			return true;
		default:
			return false;
	}
}
