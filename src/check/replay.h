/*-------------------------------------------------------------------------
 *
 * replay.h
 *	  History replay and audit: a table's own commits re-checked with the
 *	  conflict checker, from what their writers recorded (commitInfo's
 *	  readVersion, isolationLevel, isBlindAppend and the operation's
 *	  predicate), and the what-if pairs of commits run side by side.  The
 *	  engine of deltacc.replay and deltacc.concurrency
 *	  (src/funcs/funcs_replay.c); every check is one run of the driver
 *	  (driver.h), the code deltacc.conflicts runs.
 *
 * A commit's reads, as replayed (docs/replay.md has the table):
 *	- a blind append (isBlindAppend true and only AddFiles): no read;
 *	- DELETE, UPDATE, WRITE with replaceWhere, a delta-rs MERGE: its
 *	  recorded predicate translated over the schema at the read version
 *	  (stats/spark_predicate.h), the read files being what that predicate
 *	  scans there; a predicate that does not translate is a read of the
 *	  whole table;
 *	- OPTIMIZE and REORG (COMPUTE STATS and row-tracking backfills): every
 *	  row of the files it rewrote (its removes; for the last two its adds
 *	  too);
 *	- everything else (a Spark MERGE, whose condition relates the target to
 *	  the source; a WRITE that is not a blind append; RESTORE; unknown
 *	  operations; no commitInfo): the whole table.
 * The app ids of its own txn actions count as read.  The isolation level
 * is the recorded one, or the table's delta.isolationLevel when that is
 * stricter; a recorded SnapshotIsolation (or none) leaves the level to the
 * table and Delta's downgrade rule.
 *
 * Whatever keeps a check from running (the read version's state or schema
 * unreadable, a winner's commit missing, a predicate that does not
 * compile) is reported as a conflict, CONFLICT_NOT_CHECKED, with the
 * error in the detail: never as a pass.  So is a commit that removes a
 * file one of the commits it raced added (it cannot have read a version
 * before them): CONFLICT_NOT_CHECKED too, with that file.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/replay.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_REPLAY_H
#define DELTACC_REPLAY_H

#include "check/checkdefs.h"
#include "log/log_reader.h"

/*
 * The conflict reported where no Delta rule decided (see above): the name
 * of the exception class Delta's conflict exceptions derive from.
 */
#define CONFLICT_NOT_CHECKED "ConcurrentModificationException"

/* The outcome of one replayed check. */
typedef struct ReplayVerdict
{
	const char *conflict;		/* the Delta exception, CONFLICT_NOT_CHECKED,
								 * or NULL: the check passes */
	int64		winning_version;	/* -1 when none */
	const char *path;			/* the file, or NULL */
	const char *detail;			/* why, and how the reads were derived when
								 * not exactly; may be NULL for a pass */
} ReplayVerdict;

/* One row of deltacc.replay. */
typedef struct ReplayRow
{
	int64		version;
	int64		read_version;
	const char *operation;		/* NULL when not recorded */
	const char *read_predicate; /* NULL: the whole table; "false": nothing */
	ConflictMode mode;
	ReplayVerdict verdict;
} ReplayRow;

/* One row of deltacc.concurrency. */
typedef struct ConcurrencyRow
{
	int64		version_a;
	int64		version_b;
	const char *conflict;		/* as ReplayVerdict's */
	const char *path;
} ConcurrencyRow;

/*
 * Receivers of the rows; what a row points to lives until the receiver
 * returns (copy what you keep).
 */
typedef void (*ReplayRowFn) (void *ctx, const ReplayRow *row);
typedef void (*ConcurrencyRowFn) (void *ctx, const ConcurrencyRow *row);

/*
 * deltacc.replay: every JSON commit of log from from_version to
 * to_version (-1: the first / last one present) whose readVersion is
 * below version - 1, checked against the commits readVersion+1 ..
 * version-1 in each of the nmodes modes: emit is called once per commit
 * and mode, in version order, then in the order of modes.  Commits without
 * readVersion are not replayed (their writers did not say what they read).
 * Each commit's work runs in a memory context of its own, reset before the
 * next one, with a query-cancel check per commit.  ERRORs only for the
 * table itself: a commit file that cannot be read (the same error as
 * deltacc.history's).
 */
extern void replay_history(DeltaLog *log, int64 from_version, int64 to_version,
						   int nmodes, const ConflictMode *modes,
						   ReplayRowFn emit, void *ctx);

/*
 * deltacc.concurrency: for each pair a < b of versions from from_version
 * to to_version (-1: first / last JSON commit present), a >= 1, with
 * b - a <= window, whether b, with its own actions and its reads as
 * above, would conflict with a had it read version a - 1 (mode).  emit is
 * called once per pair, ordered by a then b.  window must be at least 1
 * (the caller checks).  Same memory, cancel and error behaviour as
 * replay_history, per pair.
 */
extern void replay_concurrency(DeltaLog *log, int64 from_version,
							   int64 to_version, ConflictMode mode, int window,
							   ConcurrencyRowFn emit, void *ctx);

/* 'partition', 'stats' or 'row_level' */
extern const char *replay_mode_name(ConflictMode mode);

#endif							/* DELTACC_REPLAY_H */
