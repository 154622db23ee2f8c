/*-------------------------------------------------------------------------
 *
 * checkdefs.h
 *	  The vocabulary of a conflict check: the table as read, the loser
 *	  transaction, its reads (as callbacks), the decisions and the names
 *	  printed for them.  Shared by the checker (conflict.h) and the
 *	  row-level tier (rowlevel.h), which the checker calls, so that neither
 *	  needs the other's header for its types.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/checkdefs.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_CHECKDEFS_H
#define DELTACC_CHECKDEFS_H

#include "common/delta_actions.h"

typedef enum ConflictMode
{
	CONFLICT_MODE_PARTITION,	/* upstream Delta, exactly */
	CONFLICT_MODE_STATS,		/* + seed 1: per-read stats skipping */
	CONFLICT_MODE_ROW_LEVEL		/* + value-exact tier, row-level delete/read
								 * and re-add exclusion (src/rowlevel.c) */
} ConflictMode;

typedef enum DeltaIsolationLevel
{
	DELTA_ISO_SERIALIZABLE,
	DELTA_ISO_WRITE_SERIALIZABLE,
	DELTA_ISO_SNAPSHOT
} DeltaIsolationLevel;

/* The checks of reference §2.4, in Delta's order. */
typedef enum ConflictCheck
{
	CHECK_PROTOCOL = 1,
	CHECK_METADATA,
	CHECK_DOMAIN,
	CHECK_TXN,
	CHECK_APPEND,
	CHECK_DELETE_READ,
	CHECK_DELETE_DELETE
} ConflictCheck;

typedef enum ConflictDecisionKind
{
	DECISION_CONFLICT,
	DECISION_SKIPPED,
	DECISION_KEPT
} ConflictDecisionKind;

/* The Delta exceptions, as named in conflicts().conflict. */
#define EXC_APPEND			"ConcurrentAppendException"
#define EXC_DELETE_READ		"ConcurrentDeleteReadException"
#define EXC_DELETE_DELETE	"ConcurrentDeleteDeleteException"
#define EXC_METADATA		"MetadataChangedException"
#define EXC_PROTOCOL		"ProtocolChangedException"
#define EXC_TRANSACTION		"ConcurrentTransactionException"

/*
 * Stats-tier answer for one (read, file) pair.
 */
typedef enum ReadMatch
{
	READ_MATCH_NO = 0,			/* proven: no row of the file can match */
	READ_MATCH_MAYBE = 1		/* may match, or undecidable (kept) */
} ReadMatch;

/*
 * The loser's reads, as callbacks.  n_reads is the number of read
 * predicates (readWholeTable's implicit empty read is not counted here; the
 * engine handles read_whole_table itself).
 *
 * has_data_conjunct(read): true when the read has at least one usable data
 *		conjunct (one that compiles to a keep-predicate over statistics).
 * stats_match(read, file, &reason): stats tier of §5.1 for one read; the
 *		reason (palloc'd, may be NULL) says which statistic proved the skip
 *		or why the file was kept.  Must never throw for a bad statistic: an
 *		undecidable file is READ_MATCH_MAYBE.
 * partition_match(read, file, &reason): true when the read's partition
 *		predicate is TRUE on the file's partition values (or cannot be
 *		evaluated: keep).  reason may be left NULL.
 */
typedef struct ConflictReadSet
{
	int			n_reads;
	void	   *ctx;
	bool		(*has_data_conjunct) (void *ctx, int read);
	ReadMatch	(*stats_match) (void *ctx, int read, const DeltaFileAction *file,
								char **reason);
	bool		(*partition_match) (void *ctx, int read,
									const DeltaFileAction *file,
									char **reason);
	const char *(*read_text) (void *ctx, int read);	/* for messages */

	/*
	 * Optional (NULL: stats_match per file and read): the stats tier for n
	 * files at once, without reasons: keep[i] = stats_match(r, files[i],
	 * NULL) is READ_MATCH_MAYBE for some read r.
	 */
	void		(*stats_filter) (void *ctx, int n,
								 const DeltaFileAction **files, bool *keep);
	struct DeltaReadSet *compiled;	/* the compiled reads, for the row-level
									 * tier (src/rowlevel.c); may be NULL */
} ConflictReadSet;

/*
 * The read snapshot as the checker needs it.
 */
typedef struct ConflictTable
{
	const struct DeltaLog *log; /* the opened table (path normalisation) */
	int64		read_version;
	const DeltaMetadata *metadata;	/* read snapshot metadata */
	const DeltaProtocol *protocol;	/* read snapshot protocol */
	int			n_partition_columns;
	char	  **partition_logical;	/* read-snapshot partition order */
	char	  **partition_physical; /* key in partitionValues */
	/* active files of the read snapshot (for read-file partition hints) */
	int			n_files;
	const DeltaFileAction *files;
} ConflictTable;

/*
 * The loser, as Delta's CurrentTransactionInfo sees it (derived by
 * loser.c from the actions jsonb and the reads).
 */
typedef struct LoserTxn
{
	const DeltaCommit *commit;	/* its proposed actions, decoded (read-only:
									 * loser_decode_actions owns it) */
	char	   *operation;		/* commitInfo.operation or NULL */
	bool		is_blind_append;
	DeltaIsolationLevel table_level;	/* before the downgrade */
	DeltaIsolationLevel isolation;	/* the level the check runs at */
	char	   *isolation_reason;	/* where the level came from (a phrase) */
	bool		has_data_change;	/* some file action has dataChange */
	bool		has_incompatible_actions;	/* blocks the downgrade */
	bool		is_backfill;	/* ROW TRACKING (UN)BACKFILL */
	bool		read_whole_table;
	int			n_read_app_ids;
	char	  **read_app_ids;
	/* readFiles: normalised paths (sorted) and their AddFile, if known */
	int			n_read_files;
	char	  **read_file_norm;
	const DeltaFileAction **read_file_action;	/* may hold NULLs */
	bool		read_files_given;	/* passed explicitly, not derived */
	/* its RemoveFiles normalised (sorted), made by the first winner that
	 * removes a file (conflict.c); remove_idx: their index in commit */
	bool		removes_ready;
	int			n_removes_norm;
	char	  **remove_norm;
	int		   *remove_idx;
} LoserTxn;

typedef struct ConflictDecision
{
	int64		winning_version;
	char	   *operation;		/* winner's operation or "TRANSACTION" */
	ConflictCheck check;
	ConflictDecisionKind decision;
	char	   *exception;		/* set for conflicts */
	char	   *path;			/* as written by the winner, or NULL */
	char	   *partition_hint; /* "[c=v, ...]" or NULL */
	char	   *reason;			/* one sentence */
	int			rank;			/* 0 for Delta's own pick, 1 otherwise */
} ConflictDecision;

typedef struct ConflictResult
{
	bool		conflicts_only; /* keep only DECISION_CONFLICT rows and
								 * skip building the reasons of others */
	int			n;
	int			cap;
	ConflictDecision *rows;
} ConflictResult;

/* Names used in SQL output. */
extern const char *conflict_check_name(ConflictCheck check);
extern const char *conflict_decision_name(ConflictDecisionKind d);
extern const char *delta_isolation_name(DeltaIsolationLevel level);
extern bool delta_isolation_parse(const char *s, DeltaIsolationLevel *level);

/* The partition hint Delta prints for a partitionValues map, or NULL. */
extern char *conflict_partition_hint(const ConflictTable *table,
									 const DeltaPartitionValues *pv);

/*
 * Normalise a path from the log (or a user-given path) for comparison:
 * URL-decoded, resolved against the table root (DeltaLogNormalizePath).
 * More matches is the safe direction.  Returns palloc'd text.
 */
extern char *conflict_normalize_path(const ConflictTable *table,
									 const char *path);

/*
 * The index of key in sorted[0..n) (strcmp order, e.g. a LoserTxn's
 * read_file_norm), or -1.
 */
extern int	conflict_find_sorted(char *const *sorted, int n, const char *key);

/*
 * The first index of key in sorted[0..n) (strcmp order, duplicates
 * adjacent), so that a run of equal keys is sorted[i], sorted[i+1], ...;
 * -1 when key is not there.
 */
extern int	conflict_find_first_sorted(char *const *sorted, int n,
									   const char *key);

#endif							/* DELTACC_CHECKDEFS_H */
