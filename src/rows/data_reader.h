/*-------------------------------------------------------------------------
 *
 * data_reader.h
 *	  Reading Parquet data files row by row: values to PostgreSQL Datums by
 *	  Delta schema leaf, and rows to JSON (shared by read_rows, read_parquet
 *	  and the row-level checker).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/rows/data_reader.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DATA_READER_H
#define DELTACC_DATA_READER_H

#include "lib/stringinfo.h"

#include "format/parquet.h"
#include "format/roaring.h"
#include "stats/schema.h"
#include "stats/stats.h"

/*
 * Convert v to the Datum of f's PostgreSQL type in the current context;
 * false when v's kind does not fit the type.
 */
extern bool DeltaDataLeafDatum(const DeltaField *f, const PqValue *v,
							   Datum *d, bool *isnull);

/*
 * One Parquet data file read row by row (the one row loop of the project).
 *
 * DeltaRowIterOpen opens the file (DeltaOpenRegularFile), reads its footer
 * into a memory context of its own (a child of CurrentMemoryContext) and,
 * row group by row group, only the projected column chunks (never the
 * whole file), checks the row count against
 * num_records (when >= 0) and projects it:
 *	- schema != NULL: to the leaves of schema with refs[leaf] set (refs NULL:
 *	  every leaf), by physical names (column mapping id mode: by Parquet
 *	  field_id where the file has field ids, at every nesting level); partition leaves are filled from pv
 *	  once; a data column absent from the file reads as NULL when
 *	  missing_ok, else is an ERROR (ERRCODE_UNDEFINED_COLUMN);
 *	- schema == NULL: every column of the file, no Datums (read_parquet).
 * DeltaRowIterNext advances to the next row not excluded by include /
 * exclude (row positions; set them after Open), decodes the projected
 * leaves into values/isnull (arrays and maps: only isnull; render them with
 * DeltaRowIterJson) and returns false at the end.  The row and its Datums
 * live in row_cxt until the next call; callers may allocate per-row data
 * there too.  DeltaRowIterClose frees everything.
 *
 * Errors: ERRCODE_DATA_CORRUPTED naming display_path for unreadable
 * Parquet, a row count that disagrees with the log, or a value that does
 * not fit its column's type; file access errors as DeltaFileErrcode.
 */
typedef struct DeltaRowIter
{
	/* read by the caller */
	const char *display_path;	/* as in the log, for messages */
	const DeltaSchema *schema;	/* NULL: raw Parquet */
	PqFile	   *pf;
	Datum	   *values;			/* by leaf_index */
	bool	   *isnull;
	PqValue		row;			/* current row (PQV_STRUCT) */
	int64		pos;			/* its position in the file */
	MemoryContext row_cxt;
	/* set by the caller after Open (NULL: no filter) */
	const RbSet *include;		/* only these row positions */
	const RbSet *exclude;		/* never these row positions */
	/* private */
	const bool *refs;
	bool		missing_ok;
	bool		by_id;			/* column mapping id mode (dr_file_name) */
	MemoryContext file_cxt;
	MemoryContext rg_cxt;
	PqReader   *reader;
	int			fd;				/* the open file (DeltaPqReadAt), or -1 */
	struct StorageReader *remote;	/* the object read instead of fd */
	int			rg;
	bool		rg_loaded;
} DeltaRowIter;

/*
 * Size of a data file (stat), ERROR naming display_path when it cannot be
 * stat'ed or is not a regular file.
 */
extern int64 DeltaDataFileSize(const char *abs_path, const char *display_path);

extern DeltaRowIter *DeltaRowIterOpen(const char *abs_path,
									  const char *display_path,
									  const DeltaSchema *schema,
									  const bool *refs, bool missing_ok,
									  int64 num_records,
									  const DeltaPartitionValues *pv);
extern bool DeltaRowIterNext(DeltaRowIter *it);
extern void DeltaRowIterClose(DeltaRowIter *it);

/*
 * Append the current row of it as one JSON object to buf: with a schema,
 * keyed by logical names in schema order (structs as objects, arrays as
 * arrays, maps as objects or entry arrays, partition values filled in);
 * without, keyed by the Parquet field names.  Value rendering (one code
 * path for both): integers and decimals as exact JSON numbers, floats as
 * numbers (NaN and infinities as strings), strings, binary as "\\x<hex>",
 * dates "YYYY-MM-DD", timestamps ISO-8601 (UTC with "Z"; timestamp_ntz
 * without zone), null as null at every level.  A map whose keys are
 * strings becomes an object; any other map becomes an array of
 * {"key": k, "value": v} objects in file order (JSON object keys must be
 * strings: turning 1 and "1", or a struct key, into the same text would
 * lose information).
 */
extern void DeltaRowIterJson(StringInfo buf, DeltaRowIter *it);

#endif							/* DELTACC_DATA_READER_H */
