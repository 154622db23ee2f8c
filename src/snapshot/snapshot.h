/*-------------------------------------------------------------------------
 *
 * snapshot.h
 *	  The state of a Delta table at one version: log replay of the JSON
 *	  commits (optionally on top of a checkpoint).
 *
 * Replay rules (Delta PROTOCOL "Action Reconciliation"): live files are
 * keyed by (path, deletion-vector unique id); within the log order an add
 * makes its key live and a remove kills it (a remove wins over any older
 * add of the same key); the latest metaData and protocol win; txns keep the
 * latest version per appId; domains keep the latest action per domain name,
 * tombstones (removed = true) included.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/snapshot.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SNAPSHOT_H
#define DELTACC_SNAPSHOT_H

#include "common/delta_actions.h"
#include "log/log_reader.h"
#include "stats/stats.h"

typedef struct DeltaSnapshotLazy DeltaSnapshotLazy;

typedef struct DeltaSnapshot
{
	int64		version;
	DeltaMetadata *metadata;	/* never NULL (missing metaData is an ERROR) */
	DeltaProtocol *protocol;	/* never NULL (missing protocol is an ERROR) */
	int64		n_files;
	DeltaFileAction **files;	/* live adds, sorted by path (strcmp), then DV
								 * unique id (no DV first); each points into
								 * snapshot-owned memory.  NULL for a lazy
								 * snapshot: use DeltaSnapshotGetFile. */
	int64		size_bytes;		/* sum of the live files' sizes */
	int			n_txns;
	DeltaTxn   *txns;			/* sorted by app_id */
	int			n_domains;
	DeltaDomain *domains;		/* sorted by domain; removed ones kept with
								 * removed = true */
	int64		checkpoint_version; /* version of the checkpoint replay
									 * started from, -1 if none */
	MemoryContext cxt;			/* owns everything above (and the struct) */
	DeltaSnapshotLazy *lazy;	/* where each live file's action is */
} DeltaSnapshot;

/*
 * Build the snapshot at 'version' (-1 = latest).  The result lives in a new
 * memory context, a child of CurrentMemoryContext (free it with
 * DeltaSnapshotFree or with its parent).  ERRORs: version out of range
 * (ERRCODE_INVALID_PARAMETER_VALUE), JSON commits needed but gone and no
 * checkpoint available (ERRCODE_FEATURE_NOT_SUPPORTED, "checkpoint needed"),
 * no metaData/protocol at that version (ERRCODE_DATA_CORRUPTED), plus any
 * error of DeltaLogReadCommit.  The files are decoded as
 * DELTA_DECODE_FULL decodes them, except that the tags of files added by
 * JSON commits are not kept (tags_json NULL; a checkpoint's may be): no
 * reader of a built snapshot returns them.
 */
extern DeltaSnapshot *DeltaSnapshotBuild(DeltaLog *log, int64 version);

/*
 * A caller's prescan for a snapshot being built (DeltaSnapshotBuildPrescan):
 * called once the read version's metaData and protocol are known (md; the
 * protocol has been checked readable), before any file is decoded, in the
 * builder's CurrentMemoryContext; returns the prescan of the statistics
 * columns the caller will ask delta_commit_stats_ensure_pre for, or NULL.
 */
typedef DeltaStatsPrescan *(*DeltaSnapshotPrescanFn) (void *arg,
													  const DeltaMetadata *md);

/*
 * DeltaSnapshotBuild, with the statistics strings of the add lines the
 * add-line decoder takes scanned by the prescan prescan_fn gives (may be
 * NULL, or give NULL: then exactly DeltaSnapshotBuild): the prescan's entry
 * of file i is file i of the snapshot (snap->files order), so
 * delta_commit_stats_ensure_pre on the snapshot's files takes its answers
 * instead of scanning each text again, and those files' numRecords and
 * tightBounds come from the same scan.  The prescan is finished
 * (delta_stats_prescan_finish); its answer arrays grow in the snapshot's
 * context; it stays the caller's.
 */
extern DeltaSnapshot *DeltaSnapshotBuildPrescan(DeltaLog *log, int64 version,
												DeltaSnapshotPrescanFn prescan_fn,
												void *arg);

/*
 * Like DeltaSnapshotBuild, but the live files are not kept decoded: the
 * snapshot holds only each file's key, size and the position of its add
 * in the log (about 60 bytes plus the path per file), so a million-file
 * table fits in little memory.  files is NULL; read the files one at a time
 * with DeltaSnapshotGetFile (in order, for speed).  The snapshot keeps
 * 'log' and reads the commit files again when files are fetched.
 */
extern DeltaSnapshot *DeltaSnapshotBuildLazy(DeltaLog *log, int64 version);

/*
 * The i-th live file (0 <= i < n_files) in (path, DV id) order.  For an
 * eager snapshot returns snap->files[i].  For a lazy one decodes the file's
 * add action again from the log into CurrentMemoryContext (reset it between
 * calls); ERROR if the log changed meanwhile.
 *
 * Either way the file's stats_include_nan tells whether the JSON commit its
 * add comes from passes delta_commit_stats_include_nan (its commitInfo, and
 * whether any of its adds has a deletion vector); a file whose add comes
 * from the checkpoint replay started from gets false.  Replay keeps that
 * as one bool per JSON commit, nothing per file.
 */
extern DeltaFileAction *DeltaSnapshotGetFile(DeltaSnapshot *snap, int64 i);

/*
 * The i-th live file's path as its add action writes it, without decoding
 * the file (owned by the snapshot).
 */
extern const char *DeltaSnapshotFilePath(const DeltaSnapshot *snap, int64 i);

/*
 * Same, but when defer_stats is true a lazily decoded file's
 * has_num_records/num_records/tight_bounds are left unset for the caller to
 * fill with DeltaStatsFieldsFromJson when it parses the stats anyway (saves
 * one parse of the statistics per file), and its tags are not decoded
 * (tags_json NULL; snapshot_files does not return them), and its stats
 * may be an escaped match (fa->stats_escaped, see json_util.h) that stays
 * valid only until the next call: convert it first.  A file from a
 * checkpoint state is returned as is (tags included).
 */
extern DeltaFileAction *DeltaSnapshotGetFileExt(DeltaSnapshot *snap, int64 i,
												bool defer_stats);

extern void DeltaSnapshotFree(DeltaSnapshot *snap);

struct CommitCacheScope;		/* commit_cache.h */
struct CommitCacheRef;

/*
 * The snapshot at base->version + n: base (an eager snapshot, not changed)
 * with the commits base->version + 1 .. base->version + n applied in order,
 * as replay applies them (refs[k]->commit is version base->version + 1 + k,
 * read through the commit cache in scope).  Every live file is a deep copy
 * (tags not kept), each commit's adds get its stats_include_nan, and a
 * statistics text the commit cache did not keep is read again first.
 * files[i] == files[0] + i (one array).  A new child context of
 * CurrentMemoryContext owns the result; the protocol is checked readable.
 */
extern DeltaSnapshot *DeltaSnapshotAdvance(DeltaLog *log,
										   const DeltaSnapshot *base,
										   struct CommitCacheScope *scope,
										   struct CommitCacheRef *const *refs,
										   int n);

/*
 * ERROR (ERRCODE_FEATURE_NOT_SUPPORTED) unless deltacc can interpret the
 * log of a table with this protocol: minReaderVersion at most 3, and every
 * readerFeature (reader version 3) one whose effect on the log deltacc
 * knows.  catalogManaged is one of them when log is read through the
 * catalog (log->catalog); on a table the catalog does not know it is
 * refused with a hint to register the table, since the protocol forbids
 * filesystem readers to guess which commits won.  DeltaSnapshotBuild calls
 * it on the snapshot's protocol.
 */
extern void DeltaProtocolCheckReadable(const DeltaLog *log,
									   const DeltaProtocol *protocol);

/*
 * Where reading versions from_version..to_version has to start.  When every
 * JSON commit from from_version on is present, returns NULL and sets
 * *first_json = from_version.  Otherwise asks DeltaCheckpointReadExt for
 * the newest checkpoint c <= to_version with c >= log->first_version - 1
 * (so the JSON commits c+1.. are all present), returns its state and sets
 * *first_json = c + 1; with no such checkpoint raises
 * ERRCODE_FEATURE_NOT_SUPPORTED "checkpoint needed to read version N".
 * The state is allocated in CurrentMemoryContext.
 */
extern DeltaCommit *DeltaLogStartingState(DeltaLog *log, int64 from_version,
										  int64 to_version, int64 *first_json);

/* Same, asking for a keys-only checkpoint state when keys_only. */
extern DeltaCommit *DeltaLogStartingStateExt(DeltaLog *log, int64 from_version,
											 int64 to_version, int64 *first_json,
											 bool keys_only);

/* Compare two file actions by (path, DV unique id); for qsort and search. */
extern int	DeltaFileKeyCompare(const DeltaFileAction *a, const DeltaFileAction *b);

#endif							/* DELTACC_SNAPSHOT_H */
