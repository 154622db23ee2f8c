/*-------------------------------------------------------------------------
 *
 * loader.h
 *	  deltacc.load_log: filling the session's pg_temp.delta_* relations,
 *	  and the Datum builders shared with the SQL functions of funcs_log.c.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/loader.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_LOADER_H
#define DELTACC_LOADER_H

#include "nodes/execnodes.h"

#include "common/delta_actions.h"
#include "log/log_reader.h"

/*
 * Columns of pg_temp.delta_files (DESIGN.md), in order.  snapshot_files
 * returns a subset of them.
 */
enum
{
	DF_TABLE_PATH,
	DF_VERSION,
	DF_ACTION,
	DF_PATH,
	DF_PARTITION_VALUES,
	DF_SIZE,
	DF_MODIFICATION_TIME,
	DF_DATA_CHANGE,
	DF_NUM_RECORDS,
	DF_TIGHT_BOUNDS,
	DF_STATS,
	DF_DELETION_VECTOR,
	DF_BASE_ROW_ID,
	DF_DEFAULT_ROW_COMMIT_VERSION,
	DF_TAGS,
	DF_NCOLS
};

/*
 * Load versions from_version..to_version (-1 = first available / latest)
 * of 'log' into the temp relations, replacing the rows whose table_path is
 * 'key'.  Creates the relations on first use.  Returns the number of
 * actions loaded.  All temporary memory is released before returning.
 */
extern int64 DeltaLoadLog(DeltaLog *log, const char *key, int64 from_version,
						  int64 to_version);

/*
 * Fill values/nulls[DF_NCOLS] for one file action (table_path column left
 * to the caller: values[DF_TABLE_PATH] is not set).  Allocates in
 * CurrentMemoryContext.
 */
extern void DeltaFileRowValues(const DeltaFileAction *fa, Datum *values,
							   bool *nulls);

/* The snapshot_files columns (see DeltaPutSnapshotFileRow). */
#define DELTA_SNAPSHOT_NCOLS 9

/*
 * Datums of the snapshot_files columns (in their order) for fa into
 * values / nulls[DELTA_SNAPSHOT_NCOLS], each made only when need[k] (need
 * NULL: all of them); a column not needed is null.  Tags are never built.
 * Allocates in CurrentMemoryContext.
 */
extern void DeltaSnapshotFileRowValues(const DeltaFileAction *fa,
									   const bool *need, Datum *values,
									   bool *nulls);

/*
 * Append one row of the snapshot_files column set (path, partition_values,
 * size, modification_time, num_records, stats, deletion_vector,
 * base_row_id, default_row_commit_version) for fa to rsinfo's tuplestore.
 * Used by snapshot_files and files_for_scan; tags are not built (not a
 * column).  Allocates in CurrentMemoryContext (callers reset it per row).
 */
extern void DeltaPutSnapshotFileRow(ReturnSetInfo *rsinfo,
									const DeltaFileAction *fa);

/* Milliseconds since the Unix epoch -> timestamptz; *isnull when out of range. */
extern Datum DeltaMsToTimestampTz(int64 ms, bool *isnull);

/* text[] from a C string array (n >= 0). */
extern Datum DeltaTextArray(int n, char **items);

/* jsonb object from parallel key/value arrays (NULL value = JSON null). */
extern Datum DeltaStringMapJsonb(int n, char **keys, char **values);

/* jsonb of a JSON text, *isnull when text is NULL or not valid JSON. */
extern Datum DeltaJsonTextJsonb(const char *text, bool *isnull);

#endif							/* DELTACC_LOADER_H */
