/*-------------------------------------------------------------------------
 *
 * conflict.h
 *	  Delta's ConflictChecker, reproduced, plus conflict-time data skipping.
 *
 * The checker takes the loser (the transaction being checked: its read
 * snapshot, reads and proposed actions) and the winners (the commits made
 * after its read version) and produces one ConflictDecision per candidate
 * decision, in the order Delta detects conflicts: winner version, then the
 * check order of reference §2.4 (protocol, metadata, domain metadata, app
 * transactions, added files, delete/read, delete/delete), then, inside a
 * check, the file Delta itself would name first followed by the rest in
 * path order.  conflicts() is the subset whose decision is "conflict";
 * explain_conflicts() is all of it.
 *
 * The engine does not parse predicates itself: the loser's reads come in
 * as a ConflictReadSet of callbacks (stats tier and partition tier per
 * read), which funcs_conflict.c binds to the predicate compiler.  That
 * keeps the rule engine independent of how predicates are compiled.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/conflict.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_CONFLICT_H
#define DELTACC_CONFLICT_H

#include "check/checkdefs.h"

/*
 * Check one winner against the loser, appending decisions to *result.  The
 * winner must be indexed (DeltaCommitIndexFiles; the commit cache indexes
 * every commit it reads with its files).
 * The loser's current metadata/protocol (*cur_metadata, *cur_protocol)
 * are updated when the winner's change is accepted (Delta's adoption).
 * Everything is palloc'd in the current memory context.
 */
extern void conflict_check_winner(const ConflictTable *table,
								  LoserTxn *loser,
								  const ConflictReadSet *reads,
								  ConflictMode mode,
								  const DeltaCommit *winner,
								  const DeltaMetadata **cur_metadata,
								  const DeltaProtocol **cur_protocol,
								  ConflictResult *result);

/* GUC deltacc.default_mode and its definition (driver.c; called from _PG_init). */
extern int	deltacc_default_mode;
extern void conflict_init(void);

/* Is this protocol feature one the checker understands? */
extern bool conflict_feature_known(const char *feature);

#endif							/* DELTACC_CONFLICT_H */
