/*-------------------------------------------------------------------------
 *
 * snapshot_cache.c
 *	  Session cache of read-version snapshots (see snapshot_cache.h).
 *
 * An entry is a commit cache entry under a key of its own; its extra is a
 * SnapEntry (the snapshot, the commit-shaped view of its files, their
 * statistics, and the source of every version).  A per-table list of the
 * versions cached lately tells where to start a snapshot that is not
 * cached itself: the newest valid one before it, advanced by the commits
 * in between.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/snapshot_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "snapshot/snapshot_cache.h"
#include "stats/stats.h"

/* Where one version of an entry was read from. */
typedef struct SnapSource
{
	bool		ratified;		/* the catalog's copy, else a commit file */
	uint8		sha256[PG_SHA256_DIGEST_LENGTH];	/* ratified */
	CommitFileIdentity id;		/* a file */
} SnapSource;

/* *extra of an entry */
typedef struct SnapEntry
{
	DeltaSnapshot *snap;
	DeltaFileAction *live;		/* snap->files[i] == live + i */
	DeltaCommit *files;			/* commit-shaped view (own array) */
	int64		nsrc;			/* versions 0 .. snap->version */
	SnapSource *src;
	DeltaCommitStats *stats;
} SnapEntry;

/* The versions of one table cached lately (newest last). */
#define RECENT_VERSIONS 8
#define RECENT_TABLES 256

typedef struct RecentItem
{
	char		key[MAXPGPATH]; /* canonical table path */
	int			n;
	int64		versions[RECENT_VERSIONS];
} RecentItem;

static HTAB *recent_hash = NULL;
static MemoryContext recent_cxt = NULL;
static SnapshotCacheStats stats;

/* The table's list of recent versions (created when 'create'), or NULL. */
static RecentItem *
recent_of(const char *table_path, bool create)
{
	char		key[MAXPGPATH];
	RecentItem *item;
	bool		found;

	if (strlen(table_path) + 1 > MAXPGPATH)
		return NULL;
	if (recent_hash == NULL)
	{
		HASHCTL		ctl;

		if (!create)
			return NULL;
		if (recent_cxt == NULL)
			recent_cxt = AllocSetContextCreate(CacheMemoryContext,
											   "deltacc snapshot cache",
											   ALLOCSET_SMALL_SIZES);
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = MAXPGPATH;
		ctl.entrysize = sizeof(RecentItem);
		ctl.hcxt = recent_cxt;
		recent_hash = hash_create("deltacc snapshot cache tables", 16, &ctl,
								  HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	}
	strlcpy(key, table_path, MAXPGPATH);
	if (!create)
		return hash_search(recent_hash, key, HASH_FIND, NULL);
	if (hash_get_num_entries(recent_hash) >= RECENT_TABLES &&
		hash_search(recent_hash, key, HASH_FIND, NULL) == NULL)
	{
		/* a hint only: forgetting it costs a rebuild */
		hash_destroy(recent_hash);
		recent_hash = NULL;
		return recent_of(table_path, true);
	}
	item = hash_search(recent_hash, key, HASH_ENTER, &found);
	if (!found)
		item->n = 0;
	return item;
}

/* Remember that the table's version v is cached. */
static void
recent_add(const char *table_path, int64 v)
{
	RecentItem *item = recent_of(table_path, true);
	int			i;

	if (item == NULL)
		return;
	for (i = 0; i < item->n; i++)
		if (item->versions[i] == v)
		{
			memmove(&item->versions[i], &item->versions[i + 1],
					sizeof(int64) * (item->n - i - 1));
			item->n--;
			break;
		}
	if (item->n == RECENT_VERSIONS)
	{
		memmove(&item->versions[0], &item->versions[1],
				sizeof(int64) * (RECENT_VERSIONS - 1));
		item->n--;
	}
	item->versions[item->n++] = v;
}

/* The cache key of the table's snapshot at v (palloc'd). */
static char *
entry_key(const DeltaLog *log, int64 v)
{
	return psprintf("%s#snapshot:" INT64_FORMAT, log->table_path, v);
}

/* The path of version v's commit file (palloc'd). */
static char *
commit_path(const DeltaLog *log, int64 v)
{
	return psprintf("%s/%020lld.json", log->log_dir, (long long) v);
}

/*
 * Where the log reads version v from, now: false when it is a file that
 * cannot be stat'ed.
 */
static bool
source_now(const DeltaLog *log, int64 v, SnapSource *out)
{
	const DeltaRatifiedCommit *rc = DeltaLogRatified(log, v);
	char	   *path;
	bool		ok;

	memset(out, 0, sizeof(*out));
	if (rc != NULL)
	{
		out->ratified = true;
		memcpy(out->sha256, rc->sha256, PG_SHA256_DIGEST_LENGTH);
		return true;
	}
	path = commit_path(log, v);
	ok = commit_cache_file_identity(path, &out->id);
	pfree(path);
	return ok;
}

/* Whether the log still reads version v from source s. */
static bool
source_same(const DeltaLog *log, int64 v, const SnapSource *s)
{
	SnapSource	now;

	if (!source_now(log, v, &now) || now.ratified != s->ratified)
		return false;
	if (s->ratified)
		return memcmp(now.sha256, s->sha256, PG_SHA256_DIGEST_LENGTH) == 0;
	return commit_cache_same_identity(&now.id, &s->id);
}

/*
 * Whether a snapshot at v of this log can be cached at all: replay starts
 * at version 0 (DeltaLogStartingState takes no checkpoint) and v's JSON
 * commit is there.
 */
static bool
log_cacheable(const DeltaLog *log, int64 v)
{
	return deltacc_commit_cache_size > 0 && log->first_version == 0 &&
		v >= 0 && v <= log->last_version;
}

/* Whether entry e (a snapshot at v) is still what the log reads. */
static bool
entry_valid(const DeltaLog *log, const SnapEntry *e, int64 v)
{
	int64		w;

	if (!log_cacheable(log, v) || e->snap->version != v || e->nsrc != v + 1)
		return false;
	for (w = 0; w <= v; w++)
	{
		CHECK_FOR_INTERRUPTS();
		if (!source_same(log, w, &e->src[w]))
			return false;
	}
	return true;
}

/* A ref to entry e as ref cref holds it. */
static SnapshotCacheRef *
make_ref(CommitCacheRef *cref, SnapEntry *e)
{
	SnapshotCacheRef *r = palloc0(sizeof(SnapshotCacheRef));

	r->snap = e->snap;
	r->live = e->live;
	r->files = e->files;
	r->cxt = e->snap->cxt;
	r->stats = &e->stats;
	r->ref = cref;
	return r;
}

/*
 * Finish a snapshot made now into an entry (in its context): the
 * commit-shaped view of its files, its sources.  The snapshot's files are
 * made one array without tags.
 */
static SnapEntry *
make_entry(DeltaSnapshot *snap, SnapSource *src, int64 nsrc)
{
	MemoryContext old = MemoryContextSwitchTo(snap->cxt);
	SnapEntry  *e = palloc0(sizeof(SnapEntry));
	DeltaCommit *c = palloc0(sizeof(DeltaCommit));
	DeltaFileAction *flat;
	int64		i;

	/* one array (a copy of each file, as DeltaSnapshotAdvance makes it) */
	flat = MemoryContextAllocHuge(snap->cxt, sizeof(DeltaFileAction) *
								  Max(snap->n_files, 1));
	for (i = 0; i < snap->n_files; i++)
	{
		flat[i] = *snap->files[i];
		flat[i].tags_json = NULL;
		snap->files[i] = &flat[i];
	}
	snap->lazy = NULL;			/* every file is decoded */

	/* the view the statistics are decoded for writes its own copies */
	c->version = snap->version;
	c->n_files = (int) snap->n_files;
	c->files = MemoryContextAllocHuge(snap->cxt, sizeof(DeltaFileAction) *
									  Max(snap->n_files, 1));
	memcpy(c->files, flat, sizeof(DeltaFileAction) * snap->n_files);
	c->metadata = snap->metadata;
	c->protocol = snap->protocol;
	c->n_txns = snap->n_txns;
	c->txns = snap->txns;
	c->n_domains = snap->n_domains;
	c->domains = snap->domains;
	c->n_actions = c->n_files;
	e->snap = snap;
	e->live = flat;
	e->files = c;
	e->nsrc = nsrc;
	e->src = palloc(sizeof(SnapSource) * Max(nsrc, 1));
	if (nsrc > 0)
		memcpy(e->src, src, sizeof(SnapSource) * nsrc);
	MemoryContextSwitchTo(old);
	return e;
}

/*
 * Whether the file sources src[from .. to] still have the identity
 * recorded before they were read, and none changed too recently to trust
 * the identity.
 */
static bool
sources_settled(const DeltaLog *log, const SnapSource *src, int64 from,
				int64 to)
{
	int64		w;

	for (w = from; w <= to; w++)
	{
		if (src[w].ratified)
			continue;
		if (!source_same(log, w, &src[w]) ||
			commit_cache_too_recent(&src[w].id))
			return false;
	}
	return true;
}

/* Cache entry e (made now) when cacheable, else hand it out uncached. */
static SnapshotCacheRef *
store(CommitCacheScope *scope, DeltaLog *log, SnapEntry *e, bool cacheable)
{
	CommitCacheRef *cref;

	if (!cacheable)
	{
		stats.uncached++;
		return make_ref(NULL, e);
	}
	cref = commit_cache_insert_keyed(scope, entry_key(log, e->snap->version),
									 e->files, e->snap->cxt, e);
	if (cref->entry == NULL)
		stats.uncached++;
	else
		recent_add(log->table_path, e->snap->version);
	return make_ref(cref, e);
}

/* The valid cached entry of the table at v, or NULL (a stale one dropped). */
static SnapshotCacheRef *
lookup(CommitCacheScope *scope, DeltaLog *log, int64 v)
{
	char	   *key = entry_key(log, v);
	CommitCacheRef *cref = commit_cache_lookup_keyed(scope, key);

	if (cref == NULL)
	{
		pfree(key);
		return NULL;
	}
	if (!entry_valid(log, (SnapEntry *) *cref->extra, v))
	{
		commit_cache_forget_keyed(key);
		stats.stale++;
		pfree(key);
		return NULL;
	}
	pfree(key);
	return make_ref(cref, (SnapEntry *) *cref->extra);
}

/*
 * The snapshot at v made from the newest valid cached one before it, or
 * NULL when there is none.
 */
static SnapshotCacheRef *
advance(CommitCacheScope *scope, DeltaLog *log, int64 v)
{
	RecentItem *item = recent_of(log->table_path, false);
	SnapshotCacheRef *base = NULL;
	int64		best;
	int			i;
	CommitCacheRef **refs;
	SnapSource *src;
	SnapEntry  *be;
	DeltaSnapshot *snap;
	int			n;
	int64		w;
	bool		cacheable;

	while (item != NULL && base == NULL)
	{
		best = -1;
		for (i = 0; i < item->n; i++)
			if (item->versions[i] < v && item->versions[i] > best)
				best = item->versions[i];
		if (best < 0)
			break;
		base = lookup(scope, log, best);
		if (base == NULL)
		{
			/* gone or stale: forget it, try an older one */
			for (i = 0; i < item->n; i++)
				if (item->versions[i] == best)
				{
					memmove(&item->versions[i], &item->versions[i + 1],
							sizeof(int64) * (item->n - i - 1));
					item->n--;
					break;
				}
		}
	}
	if (base == NULL)
		return NULL;

	be = (SnapEntry *) *base->ref->extra;
	n = (int) (v - base->snap->version);
	src = palloc(sizeof(SnapSource) * (v + 1));
	memcpy(src, be->src, sizeof(SnapSource) * be->nsrc);
	cacheable = true;
	for (w = base->snap->version + 1; w <= v; w++)
		cacheable &= source_now(log, w, &src[w]);
	refs = palloc(sizeof(CommitCacheRef *) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		refs[i] = commit_cache_get_prescan(scope, log,
										   base->snap->version + 1 + i, NULL);
	}
	snap = DeltaSnapshotAdvance(log, base->snap, scope, refs, n);
	cacheable &= sources_settled(log, src, base->snap->version + 1, v);
	stats.advanced++;
	return store(scope, log, make_entry(snap, src, v + 1), cacheable);
}

/* Build the snapshot at v from the log. */
static SnapshotCacheRef *
build(CommitCacheScope *scope, DeltaLog *log, int64 v)
{
	bool		cacheable = log_cacheable(log, v);
	SnapSource *src = NULL;
	DeltaSnapshot *snap;
	int64		w;

	if (cacheable)
	{
		src = palloc(sizeof(SnapSource) * (v + 1));
		for (w = 0; w <= v && cacheable; w++)
			cacheable = source_now(log, w, &src[w]);
	}
	snap = DeltaSnapshotBuild(log, v);
	if (cacheable)
		cacheable = snap->checkpoint_version < 0 &&
			sources_settled(log, src, 0, v);
	stats.misses++;
	return store(scope, log, make_entry(snap, src, cacheable ? v + 1 : 0),
				 cacheable);
}

/*
 * snapshot_cache_find: see snapshot_cache.h.
 */
SnapshotCacheRef *
snapshot_cache_find(CommitCacheScope *scope, DeltaLog *log, int64 version,
					bool may_advance)
{
	SnapshotCacheRef *r;

	if (!log_cacheable(log, version))
		return NULL;
	r = lookup(scope, log, version);
	if (r != NULL)
	{
		DeltaProtocolCheckReadable(log, r->snap->protocol);
		stats.hits++;
		return r;
	}
	return may_advance ? advance(scope, log, version) : NULL;
}

/*
 * snapshot_cache_get: see snapshot_cache.h.
 */
SnapshotCacheRef *
snapshot_cache_get(CommitCacheScope *scope, DeltaLog *log, int64 version)
{
	SnapshotCacheRef *r;

	if (version < 0 || version > log->latest_version)
		return build(scope, log, version);	/* its error */
	r = snapshot_cache_find(scope, log, version, true);
	return r != NULL ? r : build(scope, log, version);
}

/*
 * snapshot_cache_ref_grown: see snapshot_cache.h.
 */
void
snapshot_cache_ref_grown(CommitCacheScope *scope, SnapshotCacheRef *ref)
{
	if (ref->ref != NULL)
		commit_cache_ref_grown(scope, ref->ref);
}

/*
 * snapshot_cache_get_stats: current counters.
 */
void
snapshot_cache_get_stats(SnapshotCacheStats *out)
{
	*out = stats;
}
