/*-------------------------------------------------------------------------
 *
 * snapshot_cache.h
 *	  A backend-local cache of read-version snapshots for the conflict
 *	  checker: the live files, metaData, protocol, txns and domains of a
 *	  table at one version, kept across calls.
 *
 * A check without read_files derives the loser's read files from its read
 * version's live files (files_for_scan semantics), and the coordinator
 * checks every commit against a read version a version or two back.
 * Replaying the log for that on every call costs the whole log; here the
 * snapshot is kept, and a snapshot of a later version is made from a
 * cached earlier one plus the commits in between (DeltaSnapshotAdvance,
 * the commits through the commit cache).
 *
 * Entries live in the commit cache (keyed "<table>#snapshot:<version>"),
 * under its bound (deltacc.commit_cache_size; 0 disables this cache too),
 * its LRU list and its pins.  Per table, one history records where each
 * version was read from when its cached snapshots were made: a commit file
 * by its identity (as the commit cache validates commits: device, inode,
 * size, modification and change times; a file changed less than a second
 * before is not cached), or a catalog's ratified commit by the SHA-256 of
 * its bytes.  An entry is served only while the table's log still reads
 * every version up to the entry's from the same source with the same
 * identity, and replay still starts at version 0 (no JSON commit cleaned
 * up); a snapshot that started from a checkpoint is never cached.  A
 * ratified commit that a rollback took back is another commit at the same
 * version, with other bytes (or the same bytes, and so the same snapshot).
 * A ratified commit published since (read from _delta_log/<v>.json now) is
 * the same source when the file's bytes hash to the ratified SHA-256.
 * Checking a log against the history costs a stat per file version and
 * nothing per committed ratified version (committed rows of a
 * registration never change: see DeltaCatalogState), so a commit through
 * the catalog costs the commits since its read version, not the log.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/snapshot_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SNAPSHOT_CACHE_H
#define DELTACC_SNAPSHOT_CACHE_H

#include "log/log_reader.h"
#include "snapshot/commit_cache.h"
#include "snapshot/snapshot.h"

struct DeltaCommitStats;		/* stats.h */

/*
 * A snapshot handed out: read-only, valid while the scope's context lives
 * (never DeltaSnapshotFree it).  files is a commit-shaped view of its live
 * files (files->files[i] is snap->files[i], n_files the same), so that the
 * statistics machinery of commits (delta_commit_stats_ensure_pre) serves
 * it too: its DeltaCommitStats goes in *stats, allocated in cxt, then
 * snapshot_cache_ref_grown.  The files carry no tags.
 */
typedef struct SnapshotCacheRef
{
	DeltaSnapshot *snap;
	const DeltaFileAction *live;	/* snap->files[i] == live + i */
	DeltaCommit *files;
	MemoryContext cxt;
	struct DeltaCommitStats **stats;
	CommitCacheRef *ref;		/* the commit cache's entry */
} SnapshotCacheRef;

/*
 * The snapshot of log at 'version' (0 <= version <= latest): from the
 * cache, made from a cached earlier version, or built (DeltaSnapshotBuild)
 * and cached when it qualifies.  Same errors as DeltaSnapshotBuild.
 */
extern SnapshotCacheRef *snapshot_cache_get(CommitCacheScope *scope,
											DeltaLog *log, int64 version);

/*
 * snapshot_cache_get, a snapshot built from the log being built with
 * DeltaSnapshotBuildPrescan(log, version, prescan_fn, arg); prescan_fn is
 * not called for one from the cache or made from a cached one.
 */
extern SnapshotCacheRef *snapshot_cache_get_prescan(CommitCacheScope *scope,
													DeltaLog *log,
													int64 version,
													DeltaSnapshotPrescanFn prescan_fn,
													void *arg);

/*
 * Only from the cache, or (may_advance) made from a cached earlier
 * version: NULL when neither (nothing is built from the log).
 */
extern SnapshotCacheRef *snapshot_cache_find(CommitCacheScope *scope,
											 DeltaLog *log, int64 version,
											 bool may_advance);

/*
 * The metaData and protocol in force at 'version' (0 <= version <= last
 * JSON commit) without building a snapshot: the commits from version down
 * to the newest cached snapshot at or before it are read for these two
 * actions only (commit_cache_get_state), newest first, and what they do
 * not name is that snapshot's (validated as every lookup is; a stale one
 * is dropped and the walk goes on to an older one).  Both point into
 * memory the scope keeps; the protocol is checked readable.  false
 * (nothing set) when no cached snapshot is at or before version: then the
 * caller reads the log itself.  Costs the commits after that snapshot,
 * never more than the caller's own walk, not the log.
 */
extern bool snapshot_cache_state_at(CommitCacheScope *scope, DeltaLog *log,
									int64 version,
									const DeltaMetadata **md,
									const DeltaProtocol **proto);

/* After attaching memory to ref->cxt (see commit_cache_ref_grown). */
extern void snapshot_cache_ref_grown(CommitCacheScope *scope,
									 SnapshotCacheRef *ref);

/* Counters, for deltacc.snapshot_cache_stats(). */
typedef struct SnapshotCacheStats
{
	int64		hits;			/* served from the cache */
	int64		advanced;		/* made from a cached earlier version */
	int64		misses;			/* built from the log */
	int64		stale;			/* entries found no longer valid */
	int64		uncached;		/* built but not cacheable (checkpoint
								 * start, a file changed too recently, too
								 * big, or the cache disabled) */
} SnapshotCacheStats;

extern void snapshot_cache_get_stats(SnapshotCacheStats *out);

#endif							/* DELTACC_SNAPSHOT_CACHE_H */
