/*-------------------------------------------------------------------------
 *
 * snapshot_scan.h
 *	  deltacc.snapshot_files in FROM as a scan that makes only the columns
 *	  the query reads, row by row.
 *
 * A set-returning function in FROM is run to completion into a tuplestore
 * before its first row is read, every column of every row made whether
 * the query reads it or not: SELECT count(*) FROM deltacc.snapshot_files(t)
 * over a million files would turn a million statistics texts into jsonb
 * and spill them to disk, to count rows.  The planner knows which columns
 * a query needs from a relation (RelOptInfo.reltarget), so this module
 * adds, for a call of deltacc.snapshot_files alone in its FROM item
 * (no ORDINALITY, no lateral reference), a custom scan path next to the
 * function scan's: it builds the same snapshot, returns its files in the
 * same order, one at a time, and makes only the referenced columns (none
 * for count(*): no line is read again).  The rows are the function's,
 * column for column; the function scan stays the plan wherever the
 * custom path does not apply.
 *
 * The path is added by a set_rel_pathlist_hook installed when the library
 * is loaded.  snapshot_files has a planner support function
 * (deltacc.snapshot_files_support), so that planning a query that calls it
 * loads the library, and with it the hook, before the query's paths are
 * made, also in a backend that had not loaded deltacc yet.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/snapshot_scan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SNAPSHOT_SCAN_H
#define DELTACC_SNAPSHOT_SCAN_H

#include "snapshot/snapshot.h"

/* Install the path hook and register the scan (from _PG_init). */
extern void snapshot_scan_init(void);

/*
 * The snapshot deltacc.snapshot_files(path, version) returns the files of,
 * in a new context under CurrentMemoryContext (DeltaSnapshotFree); NULL
 * when path is NULL (no rows).  Checks the caller's read privilege first,
 * then the version (negative: ERROR), as the function does.
 */
extern DeltaSnapshot *snapshot_files_snapshot(Datum path, bool path_isnull,
											  Datum version,
											  bool version_isnull);

#endif							/* DELTACC_SNAPSHOT_SCAN_H */
