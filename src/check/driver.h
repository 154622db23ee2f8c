/*-------------------------------------------------------------------------
 *
 * driver.h
 *	  One conflict check from end to end: the read snapshot, the reads
 *	  compiled against its schema, the loser decoded, its read files derived
 *	  (files_for_scan semantics when none are given), then every winner
 *	  read_version+1 .. through_version checked by the rule engine of
 *	  conflict.c.  deltacc.conflicts, explain_conflicts and
 *	  assert_no_conflict (src/funcs/funcs_conflict.c) and the catalog's
 *	  commit (src/coord) all run this same code, so a catalog gets the
 *	  verdict an analyst sees.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/driver.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DRIVER_H
#define DELTACC_DRIVER_H

#include "utils/jsonb.h"

#include "check/checkdefs.h"
#include "log/log_reader.h"
#include "snapshot/snapshot.h"

/*
 * The arguments of a check, as deltacc.conflicts takes them.  Exactly one
 * of actions and loser_commit may be set (neither: the loser has no
 * actions).  loser_commit is a commit the caller decoded itself (a staged
 * commit file, say) with loser_n_unknown actions of a kind the checker does
 * not know; the check treats it as read-only.
 */
typedef struct ConflictCheckArgs
{
	DeltaLog   *log;			/* the opened table */
	int64		read_version;
	bool		has_through_version;	/* false: through the latest version */
	int64		through_version;
	char	  **preds;			/* read predicates */
	int			npreds;
	Jsonb	   *actions;		/* the loser's actions, or NULL */
	const DeltaCommit *loser_commit;	/* or decoded already, or NULL */
	int			loser_n_unknown;
	const char *isolation;		/* NULL: the read snapshot's level */
	bool		read_whole_table;
	char	  **app_ids;		/* read app ids */
	int			napp;
	char	  **read_files;		/* the loser's read files ... */
	int			nread_files;	/* ... or -1: derived from the reads */
	ConflictMode mode;

	/*
	 * With nread_files -1 and seen NULL: derive the read files only when a
	 * winner removes a file (they are consulted for nothing else), and
	 * while the read snapshot is not cached only for the removed paths (see
	 * LazyReadFiles in driver.c), so a check whose winners only add files
	 * never builds the read snapshot (and so never reports what is wrong
	 * with its files).  Off for
	 * explain_conflicts, and for the coordinator, which wants the snapshot
	 * built before its row lock (ratify.c).  Ignored in row_level mode.
	 */
	bool		defer_read_files;
} ConflictCheckArgs;

/*
 * What a check saw besides its decisions, for a caller that goes on to
 * commit (src/coord).  Everything lives as long as the memory context
 * that was current when the check ran (the winners are pinned in the
 * commit cache for that long).
 */
typedef struct ConflictCheckSeen
{
	const DeltaMetadata *read_metadata; /* in force at read_version */
	const DeltaProtocol *read_protocol;
	const DeltaMetadata *final_metadata;	/* after adopting every winner's */
	const DeltaProtocol *final_protocol;
	DeltaSnapshot *read_snapshot;	/* the read snapshot, when it was built;
									 * else NULL */
	int			n_winners;		/* read_version+1 .. through_version */
	const DeltaCommit **winners;
	const LoserTxn *loser;		/* the loser as the check derived it */
} ConflictCheckSeen;

/*
 * Run the check.  ERRORs (ERRCODE_INVALID_PARAMETER_VALUE) for a
 * read_version or through_version outside the table's versions, and every
 * error of reading the table, compiling the reads and decoding the loser.
 * conflicts_only: keep only the conflicts (and skip building the other
 * decisions' reasons).  seen (may be NULL) is filled as described above.
 * The result is allocated in CurrentMemoryContext.
 */
extern ConflictResult *conflict_check_run(const ConflictCheckArgs *args,
										  bool conflicts_only,
										  ConflictCheckSeen *seen);

/*
 * The metaData and protocol in force at 'version' (the protocol checked
 * readable), as the check finds those of its read version: through the
 * commit cache, or from a snapshot when the JSON commits do not reach
 * them.  They live as long as CurrentMemoryContext.
 */
extern void conflict_state_at(DeltaLog *log, int64 version,
							  const DeltaMetadata **md,
							  const DeltaProtocol **proto);

/*
 * ERROR with SQLSTATE 40001 (serialization failure) naming the Delta
 * exception, the operation, the winning version and the file of the first
 * conflict in res, as deltacc.assert_no_conflict raises it; returns when
 * res has no conflict.  hint (may be NULL) becomes the error's hint.
 */
extern void conflict_raise_first(const ConflictResult *res, const char *hint);

/*
 * A mode name ('partition', 'stats', 'row_level'); NULL gives
 * deltacc.default_mode.  Any other name is an ERROR
 * (ERRCODE_INVALID_PARAMETER_VALUE).
 */
extern ConflictMode conflict_mode_parse(const char *name);

#endif							/* DELTACC_DRIVER_H */
