/*-------------------------------------------------------------------------
 *
 * commit_cache.h
 *	  A backend-local cache of decoded JSON commits, for repeated conflict
 *	  checks in one session.
 *
 * A Delta commit file is immutable once written, so a commit decoded once
 * need not be parsed again in the same session.  Entries are keyed by the
 * commit file's resolved path and version and are served only while the
 * file's identity (size, modification time, change time, inode, device)
 * is unchanged: a file rewritten in place is read again (and a file changed
 * less than a second ago is not cached at all, since file times only move
 * with the kernel's coarse clock).  A file is stat'ed once per DeltaLog
 * (one call's view of the table): an entry that log found the file of
 * already is served to it again without a stat, so that within a call
 * every read of a commit is the same, and the next call checks every file
 * again.  The total size is
 * bounded by deltacc.commit_cache_size (0 disables the cache); the least
 * recently used unpinned entries are evicted first.
 *
 * Each entry owns a memory context holding the decoded DeltaCommit and
 * whatever the caller attaches to it (the decoded statistics columns,
 * src/stats/stats.c), so the cache does not know the structs' layout.  An entry
 * is built in a temporary context and inserted only once complete: an
 * ERROR while reading leaves nothing behind.
 *
 * Privileges are not the cache's business: it is only reached through a
 * DeltaLog, and DeltaLogOpen checks the caller's privileges on every call.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/commit_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_COMMIT_CACHE_H
#define DELTACC_COMMIT_CACHE_H

#include "common/delta_actions.h"
#include "log/actions.h"
#include "log/log_reader.h"

/*
 * What makes two reads of a file read the same bytes: its stat identity
 * (device, inode, size, modification and change times to the nanosecond).
 */
typedef struct CommitFileIdentity
{
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	int64		mtime_sec;
	int64		mtime_nsec;
	int64		ctime_sec;
	int64		ctime_nsec;
	uint64		etag_hash[2];	/* an object in an object store: its
								 * ETag's (the times and inode are 0) */
} CommitFileIdentity;

/* GUC deltacc.commit_cache_size, in kB. */
extern int	deltacc_commit_cache_size;

/* Define the GUC (called from _PG_init). */
extern void commit_cache_init(void);

/* A set of entries in use by one call (see commit_cache_scope_begin). */
typedef struct CommitCacheScope CommitCacheScope;

/* One commit handed out: the commit and where to attach extras. */
typedef struct CommitCacheRef
{
	DeltaCommit *commit;
	MemoryContext cxt;			/* owns commit; allocate extras here */
	void	  **extra;			/* the caller's attachment slot */
	struct CommitCacheEntry *entry; /* NULL when not cached */
	struct CommitStatsSource *stats_src;	/* NULL: every stats text kept */
} CommitCacheRef;

/*
 * Begin a scope in CurrentMemoryContext: every commit obtained through it
 * stays valid (pinned, never evicted) until that context is reset or
 * deleted, error or not.
 */
extern CommitCacheScope *commit_cache_scope_begin(void);

struct DeltaStatsPrescan;		/* stats.h */

/*
 * The JSON commit 'version' of 'log', decoded with DELTA_DECODE_ROW (stats
 * kept as text, numRecords/tightBounds only set once the statistics were
 * decoded by delta_commit_stats_ensure_pre, tags not kept: the conflict
 * checks never read them), from the cache or read now (and cached when it
 * fits).  The ref is allocated in the scope's context.  Same errors as
 * DeltaLogReadCommit.  When the commit is read now, its add lines' stats
 * strings are prescanned into ps (see stats.h; reset by the caller before,
 * finished here).  ps may be NULL.
 *
 * The stats text of a file whose every column the prescan answered is not
 * kept (when the file's identity could be taken): its stats field is NULL
 * although the file has statistics.  Whoever needs such a text asks
 * commit_cache_stats_text, which reads it again from the commit file.
 */
extern CommitCacheRef *commit_cache_get_prescan(CommitCacheScope *scope,
												DeltaLog *log, int64 version,
												struct DeltaStatsPrescan *ps);

/*
 * Commit 'version' when only its metaData and protocol matter (the state
 * a read version leaves): a full entry is served if cached, else the
 * commit is read with every line skipped unparsed that provably holds
 * neither action, and cached under a key of its own.  Skipped: the lines
 * fl_may_name_state clears (not validated either: a malformed one raises
 * no error here), and the provable file-action lines among the others.
 * The entry's metadata and protocol are exactly a full read's (assert
 * builds parse each line fl_may_name_state clears and check it names
 * neither); its other fields are partial (n_files, n_actions,
 * commit_info and the rest miss the skipped lines).  Same errors as
 * DeltaLogReadCommit for the lines read.
 */
extern CommitCacheRef *commit_cache_get_state(CommitCacheScope *scope,
											  DeltaLog *log, int64 version);

/*
 * After attaching more memory to ref->cxt: account for it, and evict other
 * entries (or drop this one from the cache, leaving it to the scope) when
 * the total exceeds the limit.
 */
extern void commit_cache_ref_grown(CommitCacheScope *scope, CommitCacheRef *ref);

/*
 * Whether the caller's scope is the only one using ref's entry (it pins it
 * once and no other call in progress does): then what hangs off ref->extra
 * may be freed without leaving another call's pointers dangling.  True for
 * an entry not in the cache.
 */
extern bool commit_cache_ref_sole(const CommitCacheRef *ref);

/*
 * Loading the stats texts the commit did not keep (see
 * commit_cache_get_prescan): a loader for ref, in CurrentMemoryContext
 * (the commit file stays open while it lives, closed when that context is
 * reset or deleted); NULL when ref kept every text.
 */
typedef struct CommitStatsLoader CommitStatsLoader;

extern CommitStatsLoader *commit_cache_stats_loader(CommitCacheRef *ref);

/*
 * The stats text of file i of the loader's commit (a DeltaStatsTextFn, arg
 * the loader): the kept text, or the one read again from the commit file
 * and kept from now on (allocated in ref->cxt; the caller accounts for it
 * with commit_cache_ref_grown), or NULL when the file has none.  ERROR
 * (ERRCODE_DATA_CORRUPTED) when the file is no longer the one read.
 */
extern const char *commit_cache_stats_text(void *loader, int i);

/*
 * Close the loader's file and free its scratch memory now (it may still
 * load: both are made again); returns how many texts it read again (NULL
 * loader: 0).
 */
extern int	commit_cache_stats_loader_close(CommitStatsLoader *ld);

/* Counters, for deltacc.commit_cache_stats(). */
typedef struct CommitCacheStats
{
	int64		entries;
	int64		bytes;
	int64		hits;
	int64		misses;
	int64		evictions;
	int64		stale;
} CommitCacheStats;

extern void commit_cache_get_stats(CommitCacheStats *out);

/*
 * The file identity the cache validates commits with (false when path
 * cannot be stat'ed), its comparison, and whether a file changed less than
 * a second ago (then what was read from it is not to be cached: a later
 * change might keep the same identity).
 */
extern bool commit_cache_file_identity(const char *path, CommitFileIdentity *id);
extern bool commit_cache_same_identity(const CommitFileIdentity *a,
									   const CommitFileIdentity *b);
extern bool commit_cache_too_recent(const CommitFileIdentity *id);

/*
 * The identity of the commit file ref's commit was decoded from, when ref
 * is a cache entry of a commit file (false: not cached, or not a file's).
 * Whoever records what a result was made from takes this one: within a
 * call an entry is served without a stat (see above), so a stat taken now
 * may describe newer bytes than the entry's.
 */
extern bool commit_cache_ref_identity(const CommitCacheRef *ref,
									  CommitFileIdentity *id);

/*
 * Entries of another cache under the same bound, LRU list and pins
 * (src/snapshot/snapshot_cache.c): a DeltaCommit-shaped value and an
 * extra pointer in a memory context of their own, under a key of the
 * caller's choosing ("<table>#snapshot:<version>"), validated by the
 * caller.  commit_cache_lookup_keyed: the entry under key, pinned in
 * scope, or NULL (also with the cache disabled).  commit_cache_forget_keyed:
 * drop it (freed once unpinned).  commit_cache_insert_keyed: take cxt
 * (which owns commit and extra) into the cache under key, replacing what
 * was there; when it does not fit, the ref is not cached and cxt stays
 * where it is (a child of the caller's context).  Either way the ref is
 * allocated in the scope's context and *ref->extra is extra.
 */
extern CommitCacheRef *commit_cache_lookup_keyed(CommitCacheScope *scope,
												 const char *key);
extern void commit_cache_forget_keyed(const char *key);
extern CommitCacheRef *commit_cache_insert_keyed(CommitCacheScope *scope,
												 const char *key,
												 DeltaCommit *commit,
												 MemoryContext cxt,
												 void *extra);

#endif							/* DELTACC_COMMIT_CACHE_H */
