/*-------------------------------------------------------------------------
 *
 * rowlevel.h
 *	  The row-level tier of the conflict checker (mode 'row_level',
 *	  reference §5.1 tier 2 and §5.2): decide by the rows of the data files
 *	  when statistics cannot.
 *
 * Three decisions, each per file and each one-way (a file is ruled out
 * only on proof; anything missing, unsupported, too large or erroring
 * keeps Delta's own decision):
 *
 *	- Merge-on-read re-add exclusion (§5.2 (a)): a winner add of a path the
 *	  same winner also removes adds no row when its new deletion vector
 *	  contains the removed one (bitmap subset, both loaded) and, on a
 *	  partitioned table, it keeps the partition values of the file this
 *	  transaction read under that path; it is then left to the delete/read
 *	  check.  A shrinking DV (RESTORE) or a move to another partition is
 *	  never excluded.
 *	- Value-exact tier for added files (§5.1 tier 2): a candidate that the
 *	  statistics could not rule out is read (Parquet, its DV applied) and
 *	  conflicts only if one of its live rows satisfies one of the loser's
 *	  reads (usable conjuncts only, partition values from the file).
 *	- Row-level delete/read (§5.2 (b)): for a winner remove of a file the
 *	  loser read, the removed rows are the pre-image's live rows minus the
 *	  post-image's (old DV vs the re-add's new DV, or every live row when the
 *	  file is removed outright); the loser conflicts only if a removed row
 *	  matches one of its reads.  Decided per file (never a signed sum), with
 *	  partition values from the loser's own read file: the remove may carry
 *	  none (partitionValues is optional on remove); a remove that carries
 *	  other values, a re-add in another partition, or a read file of
 *	  unknown partition values keeps the conflict.
 *
 * Reading is bounded by the GUC deltacc.row_level_max_bytes: the data files
 * one check of one winner reads add up to at most that many bytes; files
 * past the budget are kept unread.  Errors while reading (a missing file, a
 * corrupt Parquet or DV file, a bad CRC, a value that does not convert) keep
 * the file: the error is trapped in a subtransaction and becomes the reason.
 * (Inside a parallel operation, where subtransactions are not allowed, the
 * error is raised instead: a clean error, never a pass.)
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/rowlevel.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_ROWLEVEL_H
#define DELTACC_ROWLEVEL_H

#include "check/checkdefs.h"

/*
 * State shared by the calls of one check of one winner (byte budget, index
 * of the winner's paths); the caller starts with a NULL pointer and passes
 * its address to every call.  Allocated in the current memory context.
 */
typedef struct RowLevelCheckState RowLevelCheckState;

/* GUC: bytes of data files one row-level check of one winner may read. */
extern int	deltacc_row_level_max_bytes;

/* Define the GUCs of this module (called from _PG_init). */
extern void rowlevel_init(void);

/*
 * Added-files check hook (conflict.c check_append, mode row_level), called
 * after the isolation-level candidate choice and the statistics tier.
 * adds[0..nadd) are the winner's AddFiles; survives[i] is true when the
 * statistics tier kept adds[i] (or did not run), reasons[i] its reason or
 * NULL.  May turn survives[i] false (re-add exclusion, no live row matches)
 * and replaces reasons[i] with a "kept: ..." / "skipped: ..." phrase.
 * Returns false (changing nothing) when the row-level tier does not apply
 * (whole-table read, no read predicate); everything palloc'd in the
 * current memory context.
 */
extern bool rowlevel_filter_added(const ConflictTable *table,
								  const LoserTxn *loser,
								  const ConflictReadSet *reads,
								  const DeltaCommit *winner,
								  int nadd, const DeltaFileAction **adds,
								  bool *survives, char **reasons);

/*
 * Delete/read check hook (conflict.c check_delete_read, mode row_level)
 * for one winner RemoveFile 'remove' whose path the loser read;
 * 'read_file' is the loser's AddFile for that path (NULL when unknown);
 * *state is this winner's delete/read check state (start it at NULL).
 * Returns true when the rows prove that no removed row matches any read
 * (the file is not a delete/read conflict); false when it stays a
 * conflict.  Either way *reason gets one sentence saying why.
 */
extern bool rowlevel_delete_read_skips(const ConflictTable *table,
									   const LoserTxn *loser,
									   const ConflictReadSet *reads,
									   const DeltaCommit *winner,
									   const DeltaFileAction *remove,
									   const DeltaFileAction *read_file,
									   RowLevelCheckState **state,
									   char **reason);

#endif							/* DELTACC_ROWLEVEL_H */
