/*-------------------------------------------------------------------------
 *
 * actions.h
 *	  Decoding Delta actions (reference §1) from parsed JSON into the
 *	  structs of delta_actions.h.
 *
 * Unknown fields and unknown action types are ignored (Delta requires it).
 * A known action with a missing or mistyped required field raises
 * ERRCODE_DATA_CORRUPTED "invalid Delta log entry" with a detail naming the
 * field; callers push an error context naming the file and line.  Numbers
 * are converted exactly (a fraction or an out-of-range value is an error,
 * never rounded or clamped).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/log/actions.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_ACTIONS_H
#define DELTACC_ACTIONS_H

#include "utils/palloc.h"

#include "common/delta_actions.h"
#include "format/djson.h"

/*
 * A bump allocator for many small strings that all die together: carved out
 * of blocks of 'cxt' (no per-string chunk header or rounding).  The blocks
 * start at 1kB and double up to 64kB, so that a small commit's strings
 * cost about what they hold (a backend keeps hundreds of decoded commits)
 * and a large one's a block per 64kB.  Zero it and set cxt before use.
 */
typedef struct DeltaStrArena
{
	MemoryContext cxt;
	char	   *next;
	size_t		left;
	size_t		grow;			/* size of the next block; 0: the first */
} DeltaStrArena;

/* NULL-safe string equality (two NULLs are equal). */
static inline bool
DeltaStrEqual(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/*
 * Start a new block of size bytes in the arena (from a->cxt); the rest of
 * the current one is given up.  For callers that know how much room what
 * follows needs.
 */
extern void DeltaArenaNewBlock(DeltaStrArena *a, size_t size);

/*
 * At least need bytes of room at a->next: the current block's rest, else a
 * new block (the next of the growing sizes, or need bytes if larger).
 */
extern void DeltaArenaReserve(DeltaStrArena *a, size_t need);

/* Copy s[0..len) plus a NUL into the arena. */
extern char *DeltaArenaStrndup(DeltaStrArena *a, const char *s, size_t len);

/*
 * Accumulates the actions of one commit.  Initialise with
 * DeltaCommitBuilderInit, feed each action object (one log line) to
 * DeltaDecodeAction, then DeltaCommitBuilderFinish.  Everything decoded is
 * allocated in the memory context current at Init (b->cxt); the DjValue
 * passed in may live in a shorter-lived context (strings are copied).
 */
/* How much of a file action DeltaDecodeAction keeps (all fields are checked). */
typedef enum DeltaDecodeMode
{
	DELTA_DECODE_FULL = 0,		/* everything, numRecords/tightBounds pulled
								 * out of stats */
	DELTA_DECODE_DEFER_STATS,	/* stats kept as text, numRecords/tightBounds
								 * left for DeltaStatsFieldsFromJson */
	DELTA_DECODE_KEYS,			/* no stats, no tags (log replay) */
	DELTA_DECODE_ROW			/* as DEFER_STATS, but tags not kept
								 * (snapshot_files does not return them) */
} DeltaDecodeMode;

typedef struct DeltaCommitBuilder
{
	MemoryContext cxt;
	DeltaDecodeMode mode;		/* FULL after Init */
	int64		version;
	int			n_files;
	int			cap_files;
	DeltaFileAction *files;
	int			n_txns;
	int			cap_txns;
	DeltaTxn   *txns;
	int			n_domains;
	int			cap_domains;
	DeltaDomain *domains;
	DeltaMetadata *metadata;
	DeltaProtocol *protocol;
	DeltaCommitInfo *commit_info;
	int			n_actions;
	/* extra actions that only matter to checkpoint readers */
	bool		has_checkpoint_metadata;
	int			n_sidecars;
	int			cap_sidecars;
	char	  **sidecars;		/* sidecar "path" values */
	int64	   *sidecar_sizes;	/* their "sizeInBytes", -1 when absent (golden) */
	DeltaStrArena strings;		/* decoded strings (in cxt) */
} DeltaCommitBuilder;

extern void DeltaCommitBuilderInit(DeltaCommitBuilder *b, int64 version);

/*
 * Decode one action object ({"add": {...}} etc.).  Not an object, or an
 * object whose known action has bad fields: ERROR.  An object with several
 * keys decodes every known key (Delta writes one per line).
 */
extern void DeltaDecodeAction(DeltaCommitBuilder *b, const DjValue *action);

/*
 * The compact JSON text of a commitInfo object (palloc'd in
 * CurrentMemoryContext): the text the JSON of the log line it was decoded
 * from is written back as.
 */
extern char *DeltaCommitInfoJson(const DeltaCommitInfo *ci);

/*
 * The compact JSON text of its operationParameters (palloc'd in
 * CurrentMemoryContext), or NULL when it has none that is an object.
 */
extern char *DeltaCommitInfoOperationParametersJson(const DeltaCommitInfo *ci);

/* Produce the DeltaCommit (exactly sized arrays, in b->cxt). */
extern DeltaCommit *DeltaCommitBuilderFinish(DeltaCommitBuilder *b);

/*
 * Set c->adds, n_adds, n_removes and adds_with_dv (see delta_actions.h);
 * the array is allocated in CurrentMemoryContext and points into c->files,
 * which must not move afterwards.
 */
extern void DeltaCommitIndexFiles(DeltaCommit *c);

/*
 * Decoding actions a caller passed as an argument rather than read from a
 * log.  DeltaArgumentContextPush puts ctx on error_context_stack: errors
 * then say "<what>", or "Delta action <item> of <what>" once ctx->item is
 * set above 0, and a malformed action is the caller's bad argument
 * (ERRCODE_INVALID_PARAMETER_VALUE) instead of a corrupt log
 * (ERRCODE_DATA_CORRUPTED, what DeltaDecodeAction reports elsewhere).
 * DeltaArgumentContextPop takes it off again (an ERROR unwinds it
 * anyway).  what must outlive the context.
 */
typedef struct DeltaArgumentContext
{
	ErrorContextCallback cb;
	const char *what;
	int			item;			/* 1-based; 0: none */
} DeltaArgumentContext;

extern void DeltaArgumentContextPush(DeltaArgumentContext *ctx,
									 const char *what);
extern void DeltaArgumentContextPop(DeltaArgumentContext *ctx);

/*
 * Decode a JSON array of action objects (the conflict checker's "actions"
 * argument), each element as DeltaDecodeAction, in a DeltaArgumentContext
 * ("Delta action N of the actions argument").  Result in
 * CurrentMemoryContext.
 */
extern DeltaCommit *DeltaDecodeActionArray(const DjValue *array, int64 version);

/*
 * Set fa->has_num_records/num_records/tight_bounds from the parsed "stats"
 * object (anything unusable counts as missing).
 */
extern void DeltaStatsFieldsFromJson(DeltaFileAction *fa, const DjValue *stats);

/*
 * Set fa->stats to a copy of text[0..len) (a stats JSON string, already
 * checked to be UTF-8 without NUL) in b's memory, and in DELTA_DECODE_FULL
 * mode numRecords/tightBounds from it.  For readers that get the stats
 * string outside the action's JSON (Parquet checkpoints).
 */
extern void DeltaFileSetStats(DeltaCommitBuilder *b, DeltaFileAction *fa,
							  const char *text, size_t len);

/* Unique id of a DV: storageType + pathOrInlineDv [+ "@" offset] (palloc'd). */
extern char *DeltaDVUniqueId(const DeltaDV *dv);

/*
 * Added by ckdirect (direct Parquet checkpoint decoding):
 * DeltaCommitBuilderNewFile appends a zeroed file action of 'kind' to b
 * (version = b->version, tight_bounds = -1, as DeltaDecodeAction starts
 * one); DeltaDVSetUniqueId sets dv->unique_id (DeltaDVUniqueId) in b's
 * memory; DeltaFileActionDiff names the first field in which two file
 * actions differ, or returns NULL when they are equal.
 */
extern DeltaFileAction *DeltaCommitBuilderNewFile(DeltaCommitBuilder *b,
												  DeltaFileKind kind);
extern void DeltaDVSetUniqueId(DeltaCommitBuilder *b, DeltaDV *dv);
extern const char *DeltaFileActionDiff(const DeltaFileAction *a,
									   const DeltaFileAction *b);

#endif							/* DELTACC_ACTIONS_H */
