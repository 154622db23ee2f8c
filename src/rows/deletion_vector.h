/*-------------------------------------------------------------------------
 *
 * deletion_vector.h
 *	  Reading Delta deletion vectors (reference §4) inside the backend:
 *	  descriptor -> file, bounded read of the DV's frame, CRC and
 *	  cardinality checks, and the decoded set of deleted row indexes.
 *
 * The decoding itself is src/format (z85, roaring, dvfile); this module
 * adds file access, limits, privileges and PostgreSQL errors.  Every
 * failure is an ERROR: corrupt content ERRCODE_DATA_CORRUPTED, a DV larger
 * than deltacc.max_deletion_vector_bytes ERRCODE_PROGRAM_LIMIT_EXCEEDED,
 * an unknown storage type or URI scheme ERRCODE_FEATURE_NOT_SUPPORTED, file
 * access problems errcode_for_file_access(); the error context names the DV
 * file (relative to the table root when it lies inside it) and offset.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/rows/deletion_vector.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DELETION_VECTOR_H
#define DELTACC_DELETION_VECTOR_H

#include "common/delta_actions.h"
#include "format/roaring.h"
#include "log/log_reader.h"

/* GUC: largest serialized deletion vector (sizeInBytes) deltacc reads. */
extern int	deltacc_max_deletion_vector_bytes;

/* Define the GUCs of this module (called from _PG_init). */
extern void deletion_vector_init(void);

/*
 * Where a DV's bytes live.  'abs_path' is NULL for inline DVs; for "u" it
 * is <table root>/[<prefix>/]deletion_vector_<uuid>.bin, for "p" the local
 * path of its file: URI.  'display_path' is the path relative to the table
 * root for "u" (safe to print in tests), the absolute path for "p", NULL
 * for "i".  Strings palloc'd in CurrentMemoryContext.
 */
typedef struct DeltaDVLocation
{
	char		storage_type;
	char	   *abs_path;
	char	   *display_path;
	int64		offset;			/* 0 when the descriptor has none */
} DeltaDVLocation;

/*
 * Resolve a descriptor to its location (no file access).  ERRORs: an
 * unsupported storage type, a malformed "u" id or "p" URI.
 */
extern void DeltaDVLocate(const DeltaLog *log, const DeltaDV *dv,
						  DeltaDVLocation *loc);

/*
 * Load the deleted row indexes of 'dv' (a file of 'log's table).  The
 * result and its containers are palloc'd in CurrentMemoryContext.  A
 * cardinality of 0 gives the empty set without touching any file (Delta
 * never loads those).  The decoded set must hold exactly the descriptor's
 * cardinality.  When num_records >= 0 (the file's physical row count) every
 * row index must also be below it, else ERRCODE_DATA_CORRUPTED; pass -1
 * when unknown.
 *
 * 'log' is the proof that the caller passed the pg_read_server_files check
 * (DeltaLogOpen does it).
 */
extern RbSet *DeltaDVLoad(const DeltaLog *log, const DeltaDV *dv,
						  int64 num_records);

#endif							/* DELTACC_DELETION_VECTOR_H */
