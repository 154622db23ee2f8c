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

/*
 * Where one version was read from: a commit file (its identity), or the
 * catalog's copy of a ratified commit (its SHA-256; committed: a row that
 * committed, of the history's registration).  stamp: the history's clock
 * when it was recorded.
 */
typedef struct SnapSource
{
	bool		ratified;
	bool		committed;
	uint8		sha256[PG_SHA256_DIGEST_LENGTH];	/* ratified */
	CommitFileIdentity id;		/* a file */
	uint64		stamp;
} SnapSource;

/*
 * A table's history: where versions 0 .. n - 1 were read from when the
 * cached snapshots of the table were made, shared by all of them.  An
 * entry made at clock value g for version v is served while src[v].stamp
 * <= g: a version found read from elsewhere cuts the history there, and
 * the versions recorded again later get a newer stamp (stamps only grow
 * along the history, so src[v]'s is the newest of src[0 .. v]'s).
 *
 * Checking the history against a log costs a stat of each file version
 * and nothing per ratified version: the committed rows of one
 * registration never change (store.c, DeltaCatalogState), so the run
 * src[rat_from .. rat_to] of committed rows of the history's registration
 * is the same as long as the log reads those versions from the catalog
 * and they are committed rows of the same registration there too.  Rows
 * of the current transaction are compared by hash each time.  Publishing
 * a version changes nothing here: the log keeps reading it from the
 * catalog's copy while its ratified row exists (log_reader.h,
 * DeltaCatalogState), so the published file is never stat'ed.  A version
 * recorded from the catalog and now read from _delta_log/<v>.json (the
 * table registered again, its rows taken out) is accepted when the
 * file's bytes hash to the ratified commit's SHA-256: the same bytes, the
 * same snapshot; from then on it is a file of that identity (once it is
 * more than a second old: see commit_cache_too_recent; until then it is
 * hashed again on each check).  What a log was checked against is kept
 * for that log (checked_id, checked_through): a DeltaLog is one view of
 * the table.
 */
#define RECENT_VERSIONS 16

typedef struct SnapHistory
{
	char		key[MAXPGPATH]; /* canonical table path */
	int64		n;
	int64		cap;
	SnapSource *src;
	Oid			relid;			/* the registration of the committed rows */
	TimestampTz registered_at;
	int64		rat_from;		/* committed rows: rat_from .. rat_to */
	int64		rat_to;			/* (empty when rat_to < rat_from) */
	uint64		checked_id;		/* the log (open_id) checked ... */
	int64		checked_through;	/* ... for versions 0 .. this */
	int			nrecent;		/* versions used lately, latest last */
	int64		recent[RECENT_VERSIONS];
} SnapHistory;

#define RECENT_TABLES 256

/* *extra of an entry */
typedef struct SnapEntry
{
	DeltaSnapshot *snap;
	DeltaFileAction *live;		/* snap->files[i] == live + i */
	DeltaCommit *files;			/* commit-shaped view (own array) */
	uint64		clock;			/* the history's clock when it was made */
	DeltaCommitStats *stats;
} SnapEntry;

static HTAB *history_hash = NULL;
static MemoryContext history_cxt = NULL;
static uint64 history_clock = 1;
static SnapshotCacheStats stats;

/* The table's history (created when 'create'), or NULL. */
static SnapHistory *
history_of(const char *table_path, bool create)
{
	char		key[MAXPGPATH];
	SnapHistory *h;
	bool		found;

	if (strlen(table_path) + 1 > MAXPGPATH)
		return NULL;
	if (history_hash == NULL)
	{
		HASHCTL		ctl;

		if (!create)
			return NULL;
		history_cxt = AllocSetContextCreate(CacheMemoryContext,
											"deltacc snapshot cache",
											ALLOCSET_SMALL_SIZES);
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = MAXPGPATH;
		ctl.entrysize = sizeof(SnapHistory);
		ctl.hcxt = history_cxt;
		history_hash = hash_create("deltacc snapshot cache tables", 16, &ctl,
								   HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	}
	strlcpy(key, table_path, MAXPGPATH);
	if (!create)
		return hash_search(history_hash, key, HASH_FIND, NULL);
	if (hash_get_num_entries(history_hash) >= RECENT_TABLES &&
		hash_search(history_hash, key, HASH_FIND, NULL) == NULL)
	{
		/*
		 * Too many tables: forget every history (the entries they served
		 * are then never served again: a new history's stamps are newer
		 * than any entry's clock).
		 */
		hash_destroy(history_hash);
		history_hash = NULL;
		MemoryContextReset(history_cxt);
		history_clock++;
		return history_of(table_path, true);
	}
	h = hash_search(history_hash, key, HASH_ENTER, &found);
	if (!found)
	{
		h->n = 0;
		h->cap = 0;
		h->src = NULL;
		h->relid = InvalidOid;
		h->registered_at = 0;
		h->rat_from = 0;
		h->rat_to = -1;
		h->checked_id = 0;
		h->checked_through = -1;
		h->nrecent = 0;
	}
	return h;
}

/* Forget version v from the recent list. */
static void
recent_forget(SnapHistory *h, int64 v)
{
	int			i;

	for (i = 0; i < h->nrecent; i++)
		if (h->recent[i] == v)
		{
			memmove(&h->recent[i], &h->recent[i + 1],
					sizeof(int64) * (h->nrecent - i - 1));
			h->nrecent--;
			return;
		}
}

/* The cache key of the table's snapshot at v (palloc'd). */
static char *
entry_key(const DeltaLog *log, int64 v)
{
	return psprintf("%s#snapshot:" INT64_FORMAT, log->table_path, v);
}

/*
 * Remember that the table's version v is cached, or was just served.  The
 * version served least lately leaves a full list, and its snapshot leaves
 * the cache: a session keeps the snapshots of the RECENT_VERSIONS read
 * versions of a table it used last.  (A session that commits or checks
 * again and again reads a new version each time, a snapshot advanced from
 * the one before; without the bound the snapshots of every version it ever
 * read would stay until the cache is full, each on memory the process had
 * not touched before.)
 */
static void
recent_add(SnapHistory *h, const DeltaLog *log, int64 v)
{
	recent_forget(h, v);
	if (h->nrecent == RECENT_VERSIONS)
	{
		char	   *key = entry_key(log, h->recent[0]);

		commit_cache_forget_keyed(key);
		pfree(key);
		memmove(&h->recent[0], &h->recent[1],
				sizeof(int64) * (RECENT_VERSIONS - 1));
		h->nrecent--;
	}
	h->recent[h->nrecent++] = v;
}

/* The path of version v's commit file (palloc'd). */
static char *
commit_path(const DeltaLog *log, int64 v)
{
	return psprintf("%s/%020lld.json", log->log_dir, (long long) v);
}

/* Whether the log's catalog state is of the history's registration. */
static bool
same_registration(const SnapHistory *h, const DeltaCatalogState *cat)
{
	return cat != NULL && OidIsValid(h->relid) &&
		cat->catalog_relid == h->relid &&
		cat->registered_at == h->registered_at;
}

/*
 * Where the log reads version v from, now: false when it is a file that
 * cannot be stat'ed.  (stamp not set.)
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
		out->committed = v <= log->catalog->committed_through;
		memcpy(out->sha256, rc->sha256, PG_SHA256_DIGEST_LENGTH);
		return true;
	}
	path = commit_path(log, v);
	ok = commit_cache_file_identity(path, &out->id);
	pfree(path);
	return ok;
}

/* End the run of committed rows before version w (w .. are hashed). */
static void
run_end(SnapHistory *h, int64 w)
{
	int64		k;

	for (k = Max(w, h->rat_from); k <= h->rat_to && k < h->n; k++)
		h->src[k].committed = false;
	h->rat_to = Min(h->rat_to, w - 1);
}

/* Cut the history at version w: w and later are recorded no more. */
static void
history_cut(SnapHistory *h, int64 w)
{
	if (w >= h->n)
		return;
	h->n = w;
	h->rat_to = Min(h->rat_to, w - 1);
	if (h->rat_to < h->rat_from)
	{
		h->rat_from = 0;
		h->rat_to = -1;
	}
	h->checked_through = Min(h->checked_through, w - 1);
	history_clock++;			/* later records are newer than any entry */
}

/*
 * Whether file version w (the log reads _delta_log/<w>.json) holds the
 * bytes of the ratified commit recorded at w: read and hashed.  When it
 * has been left alone long enough for its identity to tell any later
 * change, it is recorded as that file from now on.
 */
static bool
accept_published(SnapHistory *h, const DeltaLog *log, int64 w)
{
	SnapSource *s = &h->src[w];
	char	   *path = commit_path(log, w);
	char	   *name = DeltaCommitFileName(w);
	CommitFileIdentity before;
	CommitFileIdentity after;
	uint8		hash[PG_SHA256_DIGEST_LENGTH];
	char	   *bytes;
	Size		len;
	bool		same;

	if (!commit_cache_file_identity(path, &before))
		return false;
	bytes = DeltaReadWholeFile(path, name, 0, &len);
	DeltaSha256(bytes, len, hash);
	pfree(bytes);
	same = memcmp(hash, s->sha256, PG_SHA256_DIGEST_LENGTH) == 0;
	if (same && commit_cache_file_identity(path, &after) &&
		commit_cache_same_identity(&before, &after) &&
		!commit_cache_too_recent(&after))
	{
		/* the same bytes: a file of this identity from now on */
		if (w == h->rat_from && h->rat_from <= h->rat_to)
			h->rat_from++;
		else if (w >= h->rat_from && w <= h->rat_to)
			run_end(h, w);
		s->ratified = false;
		s->committed = false;
		s->id = after;
	}
	pfree(path);
	pfree(name);
	return same;
}

/*
 * Whether the log reads versions 0 .. v (v < h->n) as the history recorded
 * them; the first that differs cuts the history there (see SnapHistory).
 */
static bool
history_check(SnapHistory *h, const DeltaLog *log, int64 v)
{
	const DeltaCatalogState *cat = log->catalog;
	int64		w;

	Assert(v < h->n);
	if (h->checked_id == log->open_id && h->checked_through >= v)
		return true;
	w = h->checked_id == log->open_id ? h->checked_through + 1 : 0;
	if (cat != NULL && OidIsValid(h->relid) && !same_registration(h, cat))
	{
		/* another registration: its rows are compared one by one */
		run_end(h, h->rat_from);
		h->rat_from = 0;
		h->rat_to = -1;
		h->relid = InvalidOid;
	}
	while (w <= v)
	{
		SnapSource *s = &h->src[w];
		const DeltaRatifiedCommit *rc;

		if ((w & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		rc = DeltaLogRatified(log, w);
		if (rc != NULL)
		{
			/* the catalog's copy */
			if (s->ratified && s->committed && w >= h->rat_from &&
				w <= h->rat_to && w <= cat->committed_through &&
				same_registration(h, cat))
			{
				/* committed rows of the registration: the same, in a run */
				w = Min(Min(v, h->rat_to), cat->committed_through) + 1;
				continue;
			}
			if (!s->ratified ||
				memcmp(s->sha256, rc->sha256, PG_SHA256_DIGEST_LENGTH) != 0)
			{
				history_cut(h, w);
				return false;
			}
			if (!s->committed && w <= cat->committed_through &&
				(!OidIsValid(h->relid) || same_registration(h, cat)))
			{
				/* (now committed: the same bytes for good) */
				h->relid = cat->catalog_relid;
				h->registered_at = cat->registered_at;
				if (h->rat_to < h->rat_from)
					h->rat_from = h->rat_to = w;
				else if (w == h->rat_to + 1)
					h->rat_to = w;
				else
				{
					w++;
					continue;	/* (outside the run: checked each time) */
				}
				s->committed = true;
			}
		}
		else if (s->ratified)
		{
			/* published since: the same bytes, or another commit */
			if (!accept_published(h, log, w))
			{
				history_cut(h, w);
				return false;
			}
		}
		else
		{
			char	   *path = commit_path(log, w);
			CommitFileIdentity now;
			bool		same;

			same = commit_cache_file_identity(path, &now) &&
				commit_cache_same_identity(&now, &s->id);
			pfree(path);
			if (!same)
			{
				history_cut(h, w);
				return false;
			}
		}
		w++;
	}
	h->checked_id = log->open_id;
	h->checked_through = Max(h->checked_through, v);
	return true;
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
	SnapHistory *h;

	if (!log_cacheable(log, v) || e->snap->version != v)
		return false;
	h = history_of(log->table_path, false);
	if (h == NULL || v >= h->n || h->src[v].stamp > e->clock)
		return false;
	return history_check(h, log, v);
}

/*
 * The sources of versions from .. to as the log reads them now, for
 * history_record after the snapshot was made (palloc'd; NULL when one
 * cannot be stat'ed).
 */
static SnapSource *
sources_before(const DeltaLog *log, int64 from, int64 to)
{
	SnapSource *src = palloc(sizeof(SnapSource) * Max(to - from + 1, 1));
	int64		w;

	for (w = from; w <= to; w++)
		if (!source_now(log, w, &src[w - from]))
		{
			pfree(src);
			return NULL;
		}
	return src;
}

/*
 * Record versions from .. to (from == h->n) with the sources src[0 ..]
 * taken before they were read, when the files among them still have those
 * identities and none changed too recently; false (nothing recorded) when
 * not.
 */
static bool
history_record(SnapHistory *h, const DeltaLog *log, int64 from, int64 to,
			   const SnapSource *src)
{
	int64		w;

	Assert(from == h->n);
	for (w = from; w <= to; w++)
	{
		const SnapSource *s = &src[w - from];

		if (!s->ratified)
		{
			char	   *path = commit_path(log, w);
			CommitFileIdentity now;
			bool		same;

			same = commit_cache_file_identity(path, &now) &&
				commit_cache_same_identity(&now, &s->id) &&
				!commit_cache_too_recent(&now);
			pfree(path);
			if (!same)
				return false;
		}
	}
	if (to >= h->cap)
	{
		int64		cap = Max(to + 1, Max(h->cap * 2, 64));

		h->src = h->src == NULL ?
			MemoryContextAllocHuge(history_cxt, sizeof(SnapSource) * cap) :
			repalloc_huge(h->src, sizeof(SnapSource) * cap);
		h->cap = cap;
	}
	if (log->catalog != NULL && !same_registration(h, log->catalog) &&
		h->rat_to < h->rat_from)
	{
		h->relid = log->catalog->catalog_relid;
		h->registered_at = log->catalog->registered_at;
	}
	for (w = from; w <= to; w++)
	{
		SnapSource *s = &h->src[w];

		*s = src[w - from];
		s->stamp = history_clock;
		if (s->ratified && s->committed && same_registration(h, log->catalog) &&
			(h->rat_to < h->rat_from || w == h->rat_to + 1))
		{
			if (h->rat_to < h->rat_from)
				h->rat_from = w;
			h->rat_to = w;
		}
		else
			s->committed = false;	/* (checked by hash each time) */
	}
	h->n = to + 1;
	if (h->checked_id == log->open_id && h->checked_through == from - 1)
		h->checked_through = to;
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
 * commit-shaped view of its files.  The snapshot's files are made one
 * array without tags.
 */
static SnapEntry *
make_entry(DeltaSnapshot *snap)
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
	MemoryContextSwitchTo(old);
	return e;
}

/*
 * Cache entry e (made now) when cacheable (its versions recorded in the
 * history), else hand it out uncached.
 */
static SnapshotCacheRef *
store(CommitCacheScope *scope, DeltaLog *log, SnapHistory *h, SnapEntry *e,
	  bool cacheable)
{
	CommitCacheRef *cref;

	if (!cacheable)
	{
		stats.uncached++;
		return make_ref(NULL, e);
	}
	e->clock = history_clock;
	cref = commit_cache_insert_keyed(scope, entry_key(log, e->snap->version),
									 e->files, e->snap->cxt, e);
	if (cref->entry == NULL)
		stats.uncached++;
	else
		recent_add(h, log, e->snap->version);
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
 * The history's record of versions from .. v for a snapshot at v made now
 * (versions before 'from' checked already): checked where recorded, the
 * rest taken now (sources_before), recorded by finish_record once the
 * snapshot is made.  Returns the versions to record (*nsrc of them, from
 * *rec_from), or false when the snapshot cannot be cached.
 */
static bool
prepare_record(SnapHistory *h, DeltaLog *log, int64 from, int64 v,
			   SnapSource **src, int64 *rec_from)
{
	*src = NULL;
	*rec_from = Max(from, h->n);
	if (from < h->n && !history_check(h, log, Min(v, h->n - 1)))
		*rec_from = h->n;		/* cut: record from there */
	if (*rec_from > v)
		return true;
	*src = sources_before(log, *rec_from, v);
	return *src != NULL;
}

/* The newest of the versions cached lately at or before v, or -1. */
static int64
recent_newest(const SnapHistory *h, int64 v)
{
	int64		best = -1;
	int			i;

	for (i = 0; i < h->nrecent; i++)
		if (h->recent[i] <= v && h->recent[i] > best)
			best = h->recent[i];
	return best;
}

/*
 * The newest valid cached snapshot of the table at or before v among the
 * versions cached lately, or NULL (those found gone or stale forgotten).
 */
static SnapshotCacheRef *
recent_base(CommitCacheScope *scope, DeltaLog *log, SnapHistory *h, int64 v)
{
	SnapshotCacheRef *base = NULL;
	int64		best;

	while (h != NULL && base == NULL)
	{
		best = recent_newest(h, v);
		if (best < 0)
			break;
		base = lookup(scope, log, best);
		if (base == NULL)
			recent_forget(h, best); /* gone or stale: try an older one */
	}
	return base;
}

/*
 * Whether the commits refs[0 ..] (versions base + 1 ..) that an advance
 * read are those of the sources src[0 ..] of versions from .. to, taken
 * before: a commit served from the cache was decoded from the file
 * identity its entry records, which within a call need not be the file's
 * now (commit_cache_ref_identity); a snapshot made from other bytes than
 * the recorded ones must not be cached under them.  (A commit read now,
 * not cached, is checked by history_record.)
 */
static bool
sources_used(CommitCacheRef **refs, int64 base, int64 from, int64 to,
			 const SnapSource *src)
{
	int64		w;

	for (w = from; w <= to; w++)
	{
		const SnapSource *s = &src[w - from];
		CommitFileIdentity id;

		if (!s->ratified &&
			commit_cache_ref_identity(refs[w - base - 1], &id) &&
			!commit_cache_same_identity(&id, &s->id))
			return false;
	}
	return true;
}

/*
 * The snapshot at v made from the newest valid cached one before it, or
 * NULL when there is none.
 */
static SnapshotCacheRef *
advance(CommitCacheScope *scope, DeltaLog *log, SnapHistory *h, int64 v)
{
	SnapshotCacheRef *base = recent_base(scope, log, h, v - 1);
	int			i;
	CommitCacheRef **refs;
	SnapSource *src;
	int64		rec_from;
	DeltaSnapshot *snap;
	int			n;
	bool		cacheable;

	if (base == NULL)
		return NULL;

	/* (the base's versions were checked by its lookup) */
	cacheable = prepare_record(h, log, base->snap->version + 1, v, &src,
							   &rec_from);
	n = (int) (v - base->snap->version);
	refs = palloc(sizeof(CommitCacheRef *) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		refs[i] = commit_cache_get_prescan(scope, log,
										   base->snap->version + 1 + i, NULL);
	}
	snap = DeltaSnapshotAdvance(log, base->snap, scope, refs, n);
	if (cacheable && rec_from <= v)
		cacheable = sources_used(refs, base->snap->version, rec_from, v, src) &&
			history_record(h, log, rec_from, v, src);
	stats.advanced++;
	return store(scope, log, h, make_entry(snap), cacheable);
}

/* Build the snapshot at v from the log. */
static SnapshotCacheRef *
build(CommitCacheScope *scope, DeltaLog *log, int64 v,
	  DeltaSnapshotPrescanFn prescan_fn, void *arg)
{
	bool		cacheable = log_cacheable(log, v);
	SnapHistory *h = cacheable ? history_of(log->table_path, true) : NULL;
	SnapSource *src = NULL;
	int64		rec_from = 0;
	DeltaSnapshot *snap;

	if (h == NULL)
		cacheable = false;
	if (cacheable)
		cacheable = prepare_record(h, log, 0, v, &src, &rec_from);
	snap = DeltaSnapshotBuildPrescan(log, v, prescan_fn, arg);
	if (cacheable)
		cacheable = snap->checkpoint_version < 0 &&
			(rec_from > v || history_record(h, log, rec_from, v, src));
	stats.misses++;
	return store(scope, log, h, make_entry(snap), cacheable);
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
		SnapHistory *h = history_of(log->table_path, false);

		DeltaProtocolCheckReadable(log, r->snap->protocol);
		stats.hits++;
		if (h != NULL)
			recent_add(h, log, version);
		return r;
	}
	return may_advance ?
		advance(scope, log, history_of(log->table_path, false), version) :
		NULL;
}

/*
 * snapshot_cache_state_at: see snapshot_cache.h.
 */
bool
snapshot_cache_state_at(CommitCacheScope *scope, DeltaLog *log, int64 version,
						const DeltaMetadata **md, const DeltaProtocol **proto)
{
	SnapHistory *h;
	SnapshotCacheRef *base = NULL;
	const DeltaMetadata *m = NULL;
	const DeltaProtocol *p = NULL;
	int64		best;
	int64		v;

	if (!log_cacheable(log, version) ||
		(h = history_of(log->table_path, false)) == NULL)
		return false;
	best = recent_newest(h, version);
	v = version;
	while (best >= 0 && base == NULL)
	{
		/*
		 * The commits after the newest cached version, newest first, until
		 * both are known (then no snapshot is needed: the answer of the
		 * caller's own walk), then that snapshot for what is missing (gone
		 * or stale: the commits down to an older one).
		 */
		for (; v > best && (m == NULL || p == NULL); v--)
		{
			DeltaCommit *c;

			CHECK_FOR_INTERRUPTS();
			c = commit_cache_get_state(scope, log, v)->commit;
			if (m == NULL && c->metadata != NULL)
				m = c->metadata;
			if (p == NULL && c->protocol != NULL)
				p = c->protocol;
		}
		if (m != NULL && p != NULL)
			break;
		base = lookup(scope, log, best);
		if (base == NULL)
		{
			recent_forget(h, best);
			best = recent_newest(h, best);
		}
	}
	if (m == NULL || p == NULL)
	{
		if (base == NULL)
			return false;
		if (m == NULL)
			m = base->snap->metadata;
		if (p == NULL)
			p = base->snap->protocol;
	}
	*md = m;
	*proto = p;
	DeltaProtocolCheckReadable(log, p);
	return true;
}

/*
 * snapshot_cache_get: see snapshot_cache.h.
 */
SnapshotCacheRef *
snapshot_cache_get(CommitCacheScope *scope, DeltaLog *log, int64 version)
{
	return snapshot_cache_get_prescan(scope, log, version, NULL, NULL);
}

/*
 * snapshot_cache_get_prescan: see snapshot_cache.h.
 */
SnapshotCacheRef *
snapshot_cache_get_prescan(CommitCacheScope *scope, DeltaLog *log,
						   int64 version, DeltaSnapshotPrescanFn prescan_fn,
						   void *arg)
{
	SnapshotCacheRef *r;

	if (version < 0 || version > log->latest_version)
		return build(scope, log, version, prescan_fn, arg); /* its error */
	r = snapshot_cache_find(scope, log, version, true);
	return r != NULL ? r : build(scope, log, version, prescan_fn, arg);
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
