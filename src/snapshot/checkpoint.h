/*-------------------------------------------------------------------------
 *
 * checkpoint.h
 *	  Reading Delta checkpoints (classic and multi-part Parquet, v2 with
 *	  JSON or Parquet top-level files and JSON/Parquet sidecars) into one
 *	  DeltaCommit, for snapshot.c's DeltaLogStartingStateExt.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/checkpoint.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_CHECKPOINT_H
#define DELTACC_CHECKPOINT_H

#include "log/actions.h"
#include "log/log_reader.h"

/*
 * The state of the newest complete checkpoint with version <= max_version
 * as one DeltaCommit (from_checkpoint = true, version = the checkpoint's;
 * files = its live adds, plus metadata, protocol, txns, domains), or NULL
 * when the listing has none.  The result is allocated in
 * CurrentMemoryContext.  Corrupt checkpoint content raises
 * ERRCODE_DATA_CORRUPTED with a context naming the file.
 *
 * When keys_only and the checkpoint is classic or multi-part
 * Parquet, its files are decoded in DELTA_DECODE_KEYS mode (no stats, no
 * tags: a lazy snapshot of a million-file checkpoint then fits in little
 * memory) and the result has ckpt_keys_only set; read the files in full
 * with a DeltaCkptCursor (or DeltaCheckpointReadFull).  ckpt_first/ckpt_n
 * name the checkpoint read in the listing.
 */
extern DeltaCommit *DeltaCheckpointReadExt(DeltaLog *log, int64 max_version,
										   bool keys_only);

/*
 * The checkpoint of a keys-only state read again whole, fully decoded
 * (CurrentMemoryContext); its files are in the same order as the state's.
 */
extern DeltaCommit *DeltaCheckpointReadFull(DeltaLog *log,
											const DeltaCommit *state);

/*
 * A cursor over the files of a keys-only checkpoint state (allocated in
 * CurrentMemoryContext, which must outlive it).  DeltaCheckpointCursorGet
 * decodes the file of ordinal i (its index in state->files) in 'mode' into
 * CurrentMemoryContext; increasing ordinals are read in one pass, a smaller
 * one restarts from the first part.  ERRORs as reading the checkpoint
 * (ERRCODE_DATA_CORRUPTED when it no longer has that file), with the
 * context naming the file and row.  Close releases the open file (a
 * virtual file, also closed when the cursor's memory context is reset or
 * deleted); the cursor may be used again after it.
 */
typedef struct DeltaCkptCursor DeltaCkptCursor;

extern DeltaCkptCursor *DeltaCheckpointCursorOpen(DeltaLog *log,
												  const DeltaCommit *state);
extern DeltaFileAction *DeltaCheckpointCursorGet(DeltaCkptCursor *cur,
												 int64 ordinal,
												 DeltaDecodeMode mode);
extern void DeltaCheckpointCursorClose(DeltaCkptCursor *cur);

#endif							/* DELTACC_CHECKPOINT_H */
