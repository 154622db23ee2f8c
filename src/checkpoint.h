/*-------------------------------------------------------------------------
 *
 * checkpoint.h
 *	  Reading Delta checkpoints (classic and multi-part Parquet, v2 with
 *	  JSON or Parquet top-level files and JSON/Parquet sidecars) into one
 *	  DeltaCommit, through snapshot.h's delta_checkpoint_read_hook.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/checkpoint.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_CHECKPOINT_H
#define DELTACC_CHECKPOINT_H

#include "log_reader.h"

/* Install delta_checkpoint_read_hook (called from _PG_init). */
extern void checkpoint_init(void);

/*
 * The state of the newest complete checkpoint with version <= max_version
 * (see DeltaCheckpointReadHook), or NULL when the listing has none.  The
 * result is allocated in CurrentMemoryContext.  Corrupt checkpoint content
 * raises ERRCODE_DATA_CORRUPTED with a context naming the file.
 */
extern DeltaCommit *DeltaCheckpointRead(DeltaLog *log, int64 max_version);

#endif							/* DELTACC_CHECKPOINT_H */
