/*-------------------------------------------------------------------------
 *
 * stats.h
 *	  Exact decoding of a file's statistics JSON (reference §1.9) into
 *	  PostgreSQL Datums, and of typed partition values (§1.8).
 *
 * Every value that cannot be parsed exactly counts as MISSING, never as an
 * approximation: decimals and 64-bit integers come from djson's token
 * text, never through a double; timestamps need an explicit offset (Z or
 * +-HH:MM), timestamp_ntz none; "NaN", "Infinity" and "-Infinity" strings
 * are accepted for float and double.  A string maximum ending in U+FFFD
 * (the Databricks 10.4 truncation tie-breaker) is not an upper bound for
 * supplementary-plane characters and is therefore treated as missing.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/stats.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_STATS_H
#define DELTACC_STATS_H

#include "postgres.h"

#include "common/delta_actions.h"
#include "stats/schema.h"

/* Per-leaf statistics of one file. */
typedef struct DeltaLeafStats
{
	bool		has_min;		/* minValues entry present and parsed */
	bool		has_max;
	bool		has_null_count;
	Datum		min;			/* of the leaf's pg_type (max as written:
								 * the +1 ms widening is the predicate's) */
	Datum		max;
	int64		null_count;
	char	   *min_text;		/* as written, for reasons; NULL if absent */
	char	   *max_text;
	const char *min_note;		/* why min is missing (NULL: simply absent) */
	const char *max_note;
} DeltaLeafStats;

typedef struct DeltaFileStats
{
	bool		has_stats;		/* a stats object was found */
	const char *error;			/* the stats JSON did not parse (then
								 * has_stats is false) */
	bool		has_num_records;
	int64		num_records;
	int			tight_bounds;	/* -1 absent, 0 false, 1 true */
	int			nleaves;		/* = schema->nleaves */
	DeltaLeafStats *leaves;		/* by leaf_index; unrequested leaves are
								 * all-missing */
} DeltaFileStats;

/*
 * Decode the statistics JSON text (an add's "stats" string, or a
 * checkpoint's stats_parsed rendered as JSON) for the leaves flagged in
 * wanted[] (indexed by leaf_index; NULL = every stats column).  Only the
 * schema's statistics columns are ever decoded.  json may be NULL (no
 * statistics).  Allocates in CurrentMemoryContext; never raises an ERROR
 * for bad statistics (they count as missing).
 */
extern DeltaFileStats *delta_stats_decode(const DeltaSchema *schema,
										  const char *json,
										  const bool *wanted);

/* The column-independent part of a file's statistics. */
typedef struct DeltaStatsHeader
{
	int64		num_records;
	int			tight_bounds;	/* -1 absent, 0 false, 1 true */
	bool		has_stats;		/* parsed, and a JSON object */
	bool		has_num_records;
} DeltaStatsHeader;

/*
 * delta_stats_scan_header: numRecords and tightBounds of the stats text
 * json[0..len) (no NUL inside) into *hdr with the statistics scanner, the
 * values DeltaStatsFieldsFromJson takes from its parse (has_stats: the
 * text is a JSON object).  False when the text is outside the scanner's
 * subset (invalid JSON among it): nothing set, the caller parses it.
 * Allocates nothing.
 */
extern bool delta_stats_scan_header(const char *json, size_t len,
									DeltaStatsHeader *hdr);

/*
 * Decoded statistics of every file of one commit, for the columns asked
 * for so far (the conflict checker's session cache keeps them with the
 * commit, src/commit_cache.c).  A column is keyed by
 * delta_stats_column_key (physical path and type), so a read set compiled
 * against another snapshot's schema finds it only if it decodes the same.
 * vals[i] is file i of the commit; its min_text/max_text are always NULL
 * (reasons are built from the text, by delta_stats_decode).
 */
typedef struct DeltaStatsColumn
{
	struct DeltaStatsColumn *next;
	char	   *key;
	DeltaLeafStats *vals;
} DeltaStatsColumn;

/*
 * Remembered answers of one keep-predicate (delta_read_decision_key) on
 * the files of a commit: state[i] 0 not known yet, 1 skip, 2 keep.
 */
typedef struct DeltaDecisionMemo
{
	struct DeltaDecisionMemo *next;
	char	   *key;
	int			keylen;
	uint8	   *state;
} DeltaDecisionMemo;

/*
 * The outcome of a whole set of reads on a commit's AddFiles: which of them
 * some read keeps, for a set of reads identified by its key (the reads'
 * decision keys in order).  Only complete lists are stored, so a list
 * answers every file.
 */
typedef struct DeltaKeptList
{
	struct DeltaKeptList *next;
	char	   *key;
	int			keylen;
	int			n;				/* the AddFiles the list answers */
	int			nkept;
	int		   *kept;			/* positions in 0..n some read keeps,
								 * ascending */
	/* remembered reasons (delta_kept_reason); reason_serial 0: none */
	uint64		reason_serial;
	int		   *reason_read;	/* [nkept]: 1 + the read, 0 unknown */
	char	  **reason;			/* [nkept]: its text, NULL for none */
} DeltaKeptList;

typedef struct DeltaCommitStats
{
	int			nfiles;			/* = commit->n_files */
	DeltaStatsHeader *hdr;		/* [nfiles], NULL before the first pass */
	DeltaStatsColumn *cols;
	DeltaDecisionMemo *memos;
	DeltaKeptList *kept;
} DeltaCommitStats;

/* The kept list stored under this key, or NULL. */
extern const DeltaKeptList *delta_commit_stats_kept(const DeltaCommitStats *cs,
													const char *key,
													int keylen);

/*
 * Store the kept list of keep[0..n) under key (which must not be stored
 * yet), allocated in cxt; returns it.
 */
extern const DeltaKeptList *delta_commit_stats_kept_store(DeltaCommitStats *cs,
														  const char *key,
														  int keylen, int n,
														  const bool *keep,
														  MemoryContext cxt);

/*
 * The index in kl->kept[] of position pos (binary search), or -1 when pos
 * is not kept.
 */
extern int	delta_kept_index(const DeltaKeptList *kl, int pos);

/*
 * Reason texts of kept files, remembered with their list: the text a read
 * gave for keeping kl->kept[k], as the read set numbered serial
 * (delta_readset_serial, never 0) words it.  delta_kept_reason is true
 * when it is known for that read set and read, and then sets *reason
 * (NULL: the read gave none).  delta_kept_reason_store copies reason into
 * cxt (the list's); storing for another serial first frees what was kept
 * for the old one, so one list holds the texts of one read set at a time.
 */
extern bool delta_kept_reason(const DeltaKeptList *kl, uint64 serial, int k,
							  int read, const char **reason);
extern void delta_kept_reason_store(DeltaKeptList *kl, uint64 serial, int k,
									int read, const char *reason,
									MemoryContext cxt);

/*
 * How many answer arrays and kept lists cs holds, and
 * delta_commit_stats_forget, which frees them all (with the kept lists'
 * reasons): they are caches, a later call makes again what it needs.  Only
 * for a cs nobody holds pointers into (commit_cache_ref_sole).
 */
extern int	delta_commit_stats_remembered(const DeltaCommitStats *cs);
extern void delta_commit_stats_forget(DeltaCommitStats *cs);

/*
 * The answer array of the keep-predicate with this key, created zeroed
 * (nothing known) in cxt when new.  Any prefix of answers is valid, so an
 * ERROR while filling it leaves nothing wrong behind.
 */
extern uint8 *delta_commit_stats_memo(DeltaCommitStats *cs, const char *key,
									  int keylen, MemoryContext cxt);

/* The cache key of leaf f's statistics (palloc'd). */
extern char *delta_stats_column_key(const DeltaField *f);

/*
 * delta_commit_stats_ensure_pre (declared below, after the prescan it may
 * take answers from): make sure cs (NULL: a new one) holds the header of
 * every file of commit and the statistics of the ncols leaves in fields[]
 * (keys[k]: the delta_stats_column_key of fields[k], made once by the
 * caller); vals_out[k] gets the per-file array of fields[k].  Whatever is
 * missing is decoded in one pass, one parse of each file's stats, into cxt
 * (nothing else goes there: a call that finds everything decoded
 * allocates nothing in cxt, and its working memory is
 * CurrentMemoryContext's); the first pass also sets each file action's
 * has_num_records/num_records/tight_bounds (for commits read with
 * DELTA_DECODE_DEFER_STATS).  New columns are linked in only when the
 * pass completes, so an ERROR (e.g. a cancel) never leaves a half-decoded
 * column behind.  Returns cs.  Bad statistics never raise.
 */

/*
 * The prescan: while a winner's add line is read (src/commit_cache.c), its
 * stats string is scanned in place, still escaped, for the header and the
 * statistics of the columns a conflict check needs, and unescaped in the
 * same pass; delta_commit_stats_ensure_pre then takes those answers instead
 * of scanning the text again.  Only top-level integral columns; only the
 * common shape (the scanner's subset whose only escapes are escaped
 * quotes): anything else is left to the usual decoders.
 */
typedef struct DeltaStatsPrescan DeltaStatsPrescan;

/* A prescan for fields[0..ncols) in CurrentMemoryContext; NULL if none fits. */
extern DeltaStatsPrescan *delta_stats_prescan_create(int ncols,
													 const DeltaField *const *fields);

/* Forget the answers of one commit (frees its arrays); before each commit. */
extern void delta_stats_prescan_reset(DeltaStatsPrescan *ps);

/* The fast add line at index will not use an earlier line's answer. */
extern void delta_stats_prescan_forget(DeltaStatsPrescan *ps, int index);

/*
 * Scan the JSON string at p (the opening quote, in an add line ending at
 * end) that holds a stats text: true when it is valid and of the common
 * shape; then out (room for end - p + 9 bytes; NULL: the text is not
 * wanted) holds the unescaped text, *outlen its length (no NUL written;
 * untouched when out is NULL), *after the byte after the closing quote,
 * and the file's answers are remembered at index when every column
 * decoded (delta_stats_prescan_ok).  False: nothing is known (out may hold
 * garbage).  The answer arrays grow in cxt.
 */
extern bool delta_stats_prescan_string(DeltaStatsPrescan *ps, int index,
									   const char *p, const char *end,
									   char *out, int *outlen,
									   const char **after, MemoryContext cxt);

/* Were the answers of the line at index remembered (every column decoded)? */
extern bool delta_stats_prescan_ok(const DeltaStatsPrescan *ps, int index);

/*
 * The header (numRecords, tightBounds) of the line at index into *hdr when
 * its answers were remembered (delta_stats_prescan_ok), with the values
 * delta_stats_scan_header gives for the same text; else false, nothing set.
 */
extern bool delta_stats_prescan_header(const DeltaStatsPrescan *ps, int index,
									   DeltaStatsHeader *hdr);

/*
 * The commit's files are known: nfiles of them, map[i] the prescan index
 * of file i (-1: not a fast add line), or map NULL when index i is file i.
 */
extern void delta_stats_prescan_finish(DeltaStatsPrescan *ps, int nfiles,
									   const int *map);

/*
 * The statistics text of file i of a commit whose texts were not all kept
 * (NULL: the file has none); see delta_commit_stats_ensure_pre.
 */
typedef const char *(*DeltaStatsTextFn) (void *arg, int i);

/*
 * delta_commit_stats_ensure_pre (see above) takes the prescan's answers:
 * pre may be NULL, or unfinished (then it is not used); when it is used,
 * its answer arrays may become the commit's, allocated in cxt, and leave
 * pre.  text_fn (may be NULL): asked for the text of a file whose stats and
 * stats_parsed_json are both NULL when that text is needed (a file the prescan answered needs none, except in
 * assert-enabled builds, which check the answer against it).
 */
extern DeltaCommitStats *delta_commit_stats_ensure_pre(DeltaCommitStats *cs,
													   DeltaCommit *commit,
													   int ncols,
													   const DeltaField *const *fields,
													   const char *const *keys,
													   DeltaLeafStats **vals_out,
													   MemoryContext cxt,
													   DeltaStatsPrescan *pre,
													   DeltaStatsTextFn text_fn,
													   void *text_arg);

/*
 * Parse one partition value (the string form of §1.8) for field f.  Sets
 * *isnull for JSON null (value NULL) and the empty string.  Returns false
 * when the text cannot be parsed exactly as f's type (the caller then
 * treats the predicate as matching).  Timestamps without an offset are read
 * in the session time zone.
 */
extern bool delta_partition_value_parse(const DeltaField *f, const char *value,
										Datum *result, bool *isnull);

/* The partitionValues entry for f (physical name; exact, then case-insensitive). */
extern bool delta_partition_value_lookup(const DeltaPartitionValues *pv,
										 const DeltaField *f,
										 const char **value);

#endif							/* DELTACC_STATS_H */
