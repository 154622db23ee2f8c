/*-------------------------------------------------------------------------
 *
 * commit_cache.c
 *	  Session cache of decoded JSON commits (see commit_cache.h).
 *
 * Layout: a dynahash from the commit file's resolved path to its entry; an
 * LRU list of the entries in the cache (most recent first); a "graveyard"
 * of entries dropped from the cache (stale, evicted to make room, or too
 * big) while some call still had them pinned, freed once unpinned.  All of
 * it lives under CacheMemoryContext, each entry in its own child context.
 *
 * Pins: a call opens a scope (commit_cache_scope_begin) in its memory
 * context; every commit it obtains is pinned in that scope, and a reset
 * callback on the context unpins them whatever way the call ends (normal
 * end, ERROR, cancel).  The callback only decrements counters; entries are
 * freed later, at the next lookup, never during error cleanup.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/commit_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#include "common/sha2.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "common/hashfn.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "common/fileio.h"
#include "common/json_util.h"
#include "log/actions.h"
#include "log/fastline.h"
#include "snapshot/addline.h"
#include "snapshot/commit_cache.h"
#include "stats/stats.h"
#include "storage/objstore.h"

int			deltacc_commit_cache_size = 64 * 1024;	/* kB */

/* What makes two reads of a commit file read the same bytes (commit_cache.h). */
typedef CommitFileIdentity FileIdentity;

typedef struct CommitCacheEntry
{
	char	   *path;			/* resolved path of the commit file */
	int64		version;
	FileIdentity id;
	MemoryContext cxt;			/* owns commit and extra */
	DeltaCommit *commit;
	void	   *extra;
	Size		bytes;			/* accounted size */
	struct CommitStatsSource *src;	/* stats texts not kept, or NULL */
	int			pins;
	uint64		seen_by;		/* the log (open_id) that last found the
								 * file of this identity (see memo_entry) */
	bool		keyed;			/* another cache's entry (commit_cache_insert_keyed) */
	bool		cached;			/* in the hash and the LRU list; else in
								 * the graveyard */
	dlist_node	node;
} CommitCacheEntry;

typedef struct HashItem
{
	char		key[MAXPGPATH];
	CommitCacheEntry *entry;
} HashItem;

struct CommitCacheScope
{
	MemoryContextCallback cb;
	int			n;
	int			cap;
	CommitCacheEntry **pinned;
};

/*
 * The cached full decodings of catalog-ratified versions, direct-mapped by
 * version, looked up before any key is made: an entry's key is its table,
 * version and the SHA-256 of its bytes ("<table>#ratified:<version>:<hex>"),
 * and a slot holds the version and the SHA-256 of the entry it points at,
 * so a hit compares exactly what the key holds, without formatting the key
 * or a hash lookup.  A slot points only at an entry in the cache
 * (drop_entry clears it).
 */
#define RATIFIED_SLOTS 256

typedef struct RatifiedSlot
{
	CommitCacheEntry *e;
	size_t		keylen;			/* strlen(e->path) */
	int64		version;
	uint8		sha256[PG_SHA256_DIGEST_LENGTH];
} RatifiedSlot;

static RatifiedSlot ratified_slots[RATIFIED_SLOTS];

static CommitCacheRef *cache_get(CommitCacheScope *scope, DeltaLog *log,
								  int64 version, bool state_only,
								  DeltaStatsPrescan *ps);

static MemoryContext cache_cxt = NULL;
static HTAB *cache_hash = NULL;
static dlist_head cache_lru = DLIST_STATIC_INIT(cache_lru);
static dlist_head cache_graveyard = DLIST_STATIC_INIT(cache_graveyard);
static Size cache_bytes = 0;
static int64 cache_entries = 0;
static int64 stat_hits = 0;
static int64 stat_misses = 0;
static int64 stat_evictions = 0;
static int64 stat_stale = 0;

/*
 * commit_cache_init: define deltacc.commit_cache_size (called from
 * _PG_init).
 */
void
commit_cache_init(void)
{
	DefineCustomIntVariable("deltacc.commit_cache_size",
							"Memory for the session cache of decoded Delta commits used by the conflict functions.",
							"A commit file is parsed once per session while its size and modification time stay the same; 0 disables the cache, and the cache of compiled read predicates with it.",
							&deltacc_commit_cache_size,
							64 * 1024,
							0,
							MAX_KILOBYTES,
							PGC_USERSET,
							GUC_UNIT_KB,
							NULL, NULL, NULL);
}

/*
 * cache_limit: the configured limit in bytes.
 */
static Size
cache_limit(void)
{
	return (Size) deltacc_commit_cache_size * (Size) 1024;
}

/*
 * ensure_cache: create the cache's context and hash on first use.
 */
static void
ensure_cache(void)
{
	HASHCTL		ctl;

	if (cache_hash != NULL)
		return;
	if (cache_cxt == NULL)
		cache_cxt = AllocSetContextCreate(CacheMemoryContext,
										  "deltacc commit cache",
										  ALLOCSET_SMALL_SIZES);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = MAXPGPATH;
	ctl.entrysize = sizeof(HashItem);
	ctl.hcxt = cache_cxt;
	cache_hash = hash_create("deltacc commit cache", 64, &ctl,
							 HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
}

/* identity_of: the identity a stat result describes */
static void
identity_of(const struct stat *st, FileIdentity *id)
{
	memset(id, 0, sizeof(*id));
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->size = st->st_size;
	id->mtime_sec = (int64) st->st_mtim.tv_sec;
	id->mtime_nsec = (int64) st->st_mtim.tv_nsec;
	id->ctime_sec = (int64) st->st_ctim.tv_sec;
	id->ctime_nsec = (int64) st->st_ctim.tv_nsec;
}

/*
 * file_identity: stat path; false when it cannot be stat'ed.
 */
static bool
file_identity(const char *path, FileIdentity *id)
{
	struct stat st;

	if (storage_is_remote(path))
	{
		StorageObjectInfo info;
		size_t		n;

		/* an object: its length and ETag (none: nothing to trust) */
		if (!storage_stat(path, &info) || info.etag[0] == '\0')
			return false;
		n = strlen(info.etag);
		memset(id, 0, sizeof(*id));
		id->size = (off_t) info.size;
		id->etag_hash[0] = hash_bytes_extended((const unsigned char *) info.etag,
											   (int) n, 0);
		id->etag_hash[1] = hash_bytes_extended((const unsigned char *) info.etag,
											   (int) n, 0x9e3779b97f4a7c15);
		return true;
	}
	if (stat(path, &st) != 0)
		return false;
	identity_of(&st, id);
	return true;
}

/*
 * too_recent: was the file changed less than a second ago (or "in the
 * future")?  File times have the kernel's coarse clock granularity (a few
 * milliseconds), so a file rewritten twice within one tick can keep its
 * size and times; an entry is only cached when its file has been left alone
 * for longer than that, so that any later change gives a newer change time
 * than the one remembered (as git does with "racily clean" entries).
 */
static bool
too_recent(const FileIdentity *id)
{
	struct timespec now;
	int64		newest;
	int64		now_ns;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		return true;
	now_ns = (int64) now.tv_sec * 1000000000 + now.tv_nsec;
	newest = Max(id->mtime_sec * 1000000000 + id->mtime_nsec,
				 id->ctime_sec * 1000000000 + id->ctime_nsec);
	return now_ns - newest < INT64CONST(1000000000);
}

/*
 * same_identity: do two stat results describe the same bytes?
 */
static bool
same_identity(const FileIdentity *a, const FileIdentity *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
		a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec &&
		a->ctime_sec == b->ctime_sec && a->ctime_nsec == b->ctime_nsec &&
		a->etag_hash[0] == b->etag_hash[0] && a->etag_hash[1] == b->etag_hash[1];
}

/*
 * free_entry: release an unpinned entry that is no longer cached.
 */
static void
free_entry(CommitCacheEntry *e)
{
	Assert(e->pins == 0 && !e->cached);
	dlist_delete(&e->node);
	MemoryContextDelete(e->cxt);
	pfree(e->path);
	pfree(e);
}

/*
 * drop_entry: take e out of the cache (hash, LRU, accounting); free it
 * now when unpinned, else move it to the graveyard.
 */
static void
drop_entry(CommitCacheEntry *e)
{
	char		key[MAXPGPATH];

	Assert(e->cached);
	if (e->version >= 0 &&
		ratified_slots[e->version % RATIFIED_SLOTS].e == e)
		ratified_slots[e->version % RATIFIED_SLOTS].e = NULL;
	strlcpy(key, e->path, MAXPGPATH);
	(void) hash_search(cache_hash, key, HASH_REMOVE, NULL);
	dlist_delete(&e->node);
	e->cached = false;
	cache_bytes -= e->bytes;
	cache_entries--;
	if (e->pins == 0)
	{
		dlist_push_tail(&cache_graveyard, &e->node);
		free_entry(e);
	}
	else
		dlist_push_tail(&cache_graveyard, &e->node);
}

/*
 * reap_graveyard: free dropped entries nobody pins any more.
 */
static void
reap_graveyard(void)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &cache_graveyard)
	{
		CommitCacheEntry *e = dlist_container(CommitCacheEntry, node, it.cur);

		if (e->pins == 0)
			free_entry(e);
	}
}

/*
 * make_room: evict unpinned entries, least recently used first, until
 * 'extra' more bytes fit under the limit.  Returns whether they fit.
 */
static bool
make_room(Size extra)
{
	Size		limit = cache_limit();
	dlist_node *cur;

	if (cache_hash == NULL)
		return extra <= limit;
	cur = dlist_is_empty(&cache_lru) ? NULL : dlist_tail_node(&cache_lru);
	while (cur != NULL && cache_bytes + extra > limit)
	{
		dlist_node *prev = dlist_has_prev(&cache_lru, cur) ?
			dlist_prev_node(&cache_lru, cur) : NULL;
		CommitCacheEntry *e = dlist_container(CommitCacheEntry, node, cur);

		if (e->pins == 0)
		{
			drop_entry(e);
			stat_evictions++;
		}
		cur = prev;
	}
	return cache_bytes + extra <= limit;
}

/*
 * scope_release: reset callback of a scope's context: unpin everything
 * the scope pinned (no freeing here: this may run during error cleanup).
 */
static void
scope_release(void *arg)
{
	CommitCacheScope *scope = (CommitCacheScope *) arg;
	int			i;

	for (i = 0; i < scope->n; i++)
		scope->pinned[i]->pins--;
	scope->n = 0;
}

/*
 * commit_cache_scope_begin: see commit_cache.h.
 */
CommitCacheScope *
commit_cache_scope_begin(void)
{
	CommitCacheScope *scope = palloc0(sizeof(CommitCacheScope));

	scope->cb.func = scope_release;
	scope->cb.arg = scope;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &scope->cb);
	return scope;
}

/*
 * scope_pin: pin e for the lifetime of the scope.  The slot is made
 * before the count goes up, so an out-of-memory ERROR cannot leave a pin
 * nobody releases.
 */
static void
scope_pin(CommitCacheScope *scope, CommitCacheEntry *e)
{
	if (scope->n == scope->cap)
	{
		int			newcap = scope->cap == 0 ? 16 : scope->cap * 2;

		if (scope->pinned == NULL)
			scope->pinned = MemoryContextAlloc(GetMemoryChunkContext(scope),
											   sizeof(CommitCacheEntry *) * newcap);
		else
			scope->pinned = repalloc(scope->pinned,
									 sizeof(CommitCacheEntry *) * newcap);
		scope->cap = newcap;
	}
	scope->pinned[scope->n++] = e;
	e->pins++;
}

/*
 * entry_ref: a ref to a cached entry, pinned in the scope.
 */
static CommitCacheRef *
entry_ref(CommitCacheScope *scope, CommitCacheEntry *e)
{
	CommitCacheRef *ref = MemoryContextAllocZero(GetMemoryChunkContext(scope),
												 sizeof(CommitCacheRef));

	scope_pin(scope, e);
	ref->commit = e->commit;
	ref->cxt = e->cxt;
	ref->extra = &e->extra;
	ref->entry = e;
	ref->stats_src = e->src;
	return ref;
}

/* ---------------------------------------------------------------------
 * Reading only a commit's table-level actions
 *
 * The read version's metaData and protocol are all the checker needs from
 * it when the read files are given.  Its file actions are skipped without
 * a parse tree when a line is provably one add / remove / cdc action
 * (addline_skip_file_action); any other line is parsed and decoded as
 * usual.  (A skipped file action's fields are not checked.)
 * ---------------------------------------------------------------------
 */

/*
 * skip_state_line: DeltaActionLineSkip for reading only the metaData and
 * protocol: true when the line provably holds neither, because none of
 * its bytes could name them (fl_may_name_state) or because it is provably
 * exactly one add, remove or cdc action (addline_skip_file_action).
 */
static bool
skip_state_line(void *arg, const char *line, Size len)
{
	if (!fl_may_name_state(line, len))
	{
#ifdef USE_ASSERT_CHECKING
		/* parsed the full way (when it parses), it names neither action */
		MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
												  "deltacc state line check",
												  ALLOCSET_DEFAULT_SIZES);
		MemoryContext old = MemoryContextSwitchTo(cxt);
		DjValue		v;

		if (dc_json_try_parse(line, len, &v) && v.type == DJ_OBJECT)
		{
			uint32		i;

			for (i = 0; i < v.len; i++)
				Assert(strcmp(v.u.members[i].key, "metaData") != 0 &&
					   strcmp(v.u.members[i].key, "protocol") != 0);
		}
		MemoryContextSwitchTo(old);
		MemoryContextDelete(cxt);
#endif
		return true;
	}
	return addline_skip_file_action(line, len);
}

/*
 * read_commit_state: commit 'version' with its metaData and protocol
 * decoded (see commit_cache_get_state for what else); in
 * CurrentMemoryContext.
 */
static DeltaCommit *
read_commit_state(DeltaLog *log, int64 version)
{
	return DeltaLogReadCommitSkip(log, version, DELTA_DECODE_ROW,
								  skip_state_line);
}

/* One file action of the commit being read, in line order. */
typedef struct OrderedFile
{
	bool		fast;			/* decoded here, else builder file 'index' */
	int			index;
} OrderedFile;

typedef struct FastReader
{
	AddLineDecoder d;			/* its builder: table actions and slow file
								 * actions; the add lines it decodes */
	DeltaFileAction *fast;		/* fast-decoded adds */
	int			n_fast;
	int			cap_fast;
	OrderedFile *order;
	int			n_order;
	int			cap_order;
	int			cap_hint;		/* first room for fast lines (0: the size
								 * is not known, room for 256) */
	int64	   *def_off;		/* [cap_fast]: per fast line, where it is */
	int64	   *def_line;
	int32	   *def_len;		/* 0: its text kept, or none */
} FastReader;

/*
 * Where the stats texts a commit did not keep are: per file, its line in
 * the commit file (len 0: the text was kept, or there is none).  Only made
 * for a file whose identity was taken before the read and that had been
 * left alone for over a second (see too_recent), so that the identity
 * tells whether the bytes are still the same; lives in the commit's
 * context.
 */
typedef struct CommitStatsSource
{
	char	   *path;			/* the commit file */
	char	   *name;			/* its name in the log, for messages */
	FileIdentity id;
	int			nfiles;
	int64	   *off;			/* [nfiles] */
	int64	   *line_no;
	int32	   *len;
} CommitStatsSource;

/*
 * An add line is longer than this, so a file of n bytes holds fewer than
 * n / FAST_MIN_LINE of them; the first array is sized from that, at most
 * FAST_MAX_HINT entries (room is claimed from the system only as it is
 * written, and the array is cut to size at the end).
 */
#define FAST_MIN_LINE 80
#define FAST_MAX_HINT 65536

/* append an entry to the line order */
static void
order_push(FastReader *r, bool fast, int index)
{
	if (r->n_order == r->cap_order)
	{
		r->cap_order = r->cap_order == 0 ?
			(r->cap_hint > 0 ? Max(r->cap_hint, 8) : 256) : r->cap_order * 2;
		r->order = r->order == NULL ?
			MemoryContextAllocHuge(r->d.b.cxt, sizeof(OrderedFile) * r->cap_order) :
			repalloc_huge(r->order, sizeof(OrderedFile) * r->cap_order);
	}
	r->order[r->n_order].fast = fast;
	r->order[r->n_order].index = index;
	r->n_order++;
}

/* grow a fast-line array to r->cap_fast entries of size each */
static void *
fast_room(FastReader *r, void *arr, Size size)
{
	return arr == NULL ?
		MemoryContextAllocHuge(r->d.b.cxt, size * r->cap_fast) :
		repalloc_huge(arr, size * r->cap_fast);
}

/*
 * DeltaActionLineTry: decode the line here when it is a common add, remove
 * or commitInfo line
 */
static bool
fast_line(void *arg, const char *line, Size len, int64 offset, int64 line_no)
{
	FastReader *r = (FastReader *) arg;
	DeltaFileAction *rm;
	bool		is_commit_info;
	bool		is_remove;

	/* a commitInfo line: into the builder, as slow_line would */
	if (addline_decode_commit_info(&r->d.b, line, len, &is_commit_info))
	{
#ifdef USE_ASSERT_CHECKING
		addline_assert_commit_info_matches_tree(line, len, r->d.b.commit_info);
#endif
		return true;
	}
	if (is_commit_info)
		return false;			/* (one the scanner declined) */

	/* a remove line: into the builder's files, as slow_line would */
	rm = addline_decode_remove(&r->d.b, line, len, &is_remove);
	if (is_remove)
	{
		if (rm == NULL)
			return false;
#ifdef USE_ASSERT_CHECKING
		addline_assert_matches_tree(line, len, rm, false);
#endif
		order_push(r, false, r->d.b.n_files - 1);
		return true;
	}
	if (r->n_fast == r->cap_fast)
	{
		r->cap_fast = r->cap_fast == 0 ? (r->cap_hint > 0 ? r->cap_hint : 256) :
			r->cap_fast * 2;
		r->fast = fast_room(r, r->fast, sizeof(DeltaFileAction));
		if (r->d.defer)
		{
			r->def_off = fast_room(r, r->def_off, sizeof(int64));
			r->def_line = fast_room(r, r->def_line, sizeof(int64));
			r->def_len = fast_room(r, r->def_len, sizeof(int32));
		}
	}
	if (r->d.ps != NULL)
		delta_stats_prescan_forget(r->d.ps, r->n_fast);
	r->d.ps_index = r->n_fast;
	r->d.deferred = false;
	if (!addline_decode(&r->d, line, len, &r->fast[r->n_fast]))
		return false;
#ifdef USE_ASSERT_CHECKING
	addline_assert_matches_tree(line, len, &r->fast[r->n_fast], r->d.deferred);
#endif
	if (r->d.defer)
	{
		r->def_off[r->n_fast] = offset;
		r->def_line[r->n_fast] = line_no;
		r->def_len[r->n_fast] = r->d.deferred ? (int32) len : 0;
	}
	order_push(r, true, r->n_fast);
	r->n_fast++;
	return true;
}

/* DeltaActionLineCallback: any other line, as DeltaLogReadCommit does */
static void
slow_line(void *arg, const DjValue *action, int64 offset, int32 len,
		  int64 line_no)
{
	FastReader *r = (FastReader *) arg;
	int			before = r->d.b.n_files;
	int			k;

	DeltaDecodeAction(&r->d.b, action);
	for (k = before; k < r->d.b.n_files; k++)
		order_push(r, false, k);
}

/*
 * read_commit_fast: DeltaLogReadCommitMode(log, version, DELTA_DECODE_ROW)
 * with the common add lines decoded without a parse tree (see above); the
 * same DeltaCommit, files in line order.  In CurrentMemoryContext.  ps
 * (may be NULL): prescan the fast add lines' stats strings into it, and
 * finish it when there were any.  size_hint: the file's size (0: unknown),
 * to size the first array of fast lines.
 */
static DeltaCommit *
read_commit_fast(DeltaLog *log, int64 version, DeltaStatsPrescan *ps,
				 off_t size_hint, const char *path, const FileIdentity *id,
				 CommitStatsSource **src)
{
	FastReader	r;
	DeltaCommit *c;
	DeltaFileAction *files;
	int			k;

	fl_init();
	memset(&r, 0, sizeof(r));
	r.d.ps = ps;
	r.d.defer = ps != NULL && id != NULL;
	r.cap_hint = size_hint > 0 ?
		(int) Min(size_hint / FAST_MIN_LINE + 1, FAST_MAX_HINT) : 0;
	DeltaCommitBuilderInit(&r.d.b, version);
	r.d.b.mode = DELTA_DECODE_ROW;
	DeltaLogScanCommitTry(log, version, fast_line, slow_line, &r);
	c = DeltaCommitBuilderFinish(&r.d.b);
	if (r.d.ubuf)
		pfree(r.d.ubuf);
	*src = NULL;
	if (r.n_fast == 0)
		return c;
	if (r.d.defer)
	{
		CommitStatsSource *cs = palloc0(sizeof(CommitStatsSource));
		int			n = c->n_files == 0 ? r.n_fast : r.n_order;
		bool		any = false;

		cs->path = pstrdup(path);
		cs->name = DeltaCommitFileName(version);
		cs->id = *id;
		cs->nfiles = n;
		cs->off = palloc_extended(sizeof(int64) * n, MCXT_ALLOC_HUGE);
		cs->line_no = palloc_extended(sizeof(int64) * n, MCXT_ALLOC_HUGE);
		cs->len = palloc_extended(sizeof(int32) * n,
								  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		for (k = 0; k < n; k++)
		{
			int			f = c->n_files == 0 ? k :
				(r.order[k].fast ? r.order[k].index : -1);

			if (f < 0)
				continue;		/* a slow line: its text is kept */
			cs->off[k] = r.def_off[f];
			cs->line_no[k] = r.def_line[f];
			cs->len[k] = r.def_len[f];
			any |= r.def_len[f] > 0;
		}
		pfree(r.def_off);
		pfree(r.def_line);
		pfree(r.def_len);
		if (any)
			*src = cs;
	}
	if (c->n_files == 0)
	{
		/* every file action was fast (the usual case): no copy */
		c->files = repalloc_huge(r.fast, sizeof(DeltaFileAction) * r.n_fast);
		c->n_files = r.n_fast;
		c->n_actions += r.n_fast;
		pfree(r.order);
		if (ps != NULL)
			delta_stats_prescan_finish(ps, r.n_fast, NULL);
		return c;
	}
	files = MemoryContextAllocHuge(r.d.b.cxt,
								   sizeof(DeltaFileAction) * r.n_order);
	for (k = 0; k < r.n_order; k++)
	{
		CHECK_FOR_INTERRUPTS();
		files[k] = r.order[k].fast ? r.fast[r.order[k].index] :
			c->files[r.order[k].index];
	}
	Assert(r.n_order == c->n_files + r.n_fast);
	if (ps != NULL)
	{
		int		   *map = palloc_extended(sizeof(int) * r.n_order,
										  MCXT_ALLOC_HUGE);

		for (k = 0; k < r.n_order; k++)
			map[k] = r.order[k].fast ? r.order[k].index : -1;
		delta_stats_prescan_finish(ps, r.n_order, map);
		pfree(map);
	}
	c->files = files;
	c->n_files = r.n_order;
	c->n_actions += r.n_fast;
	pfree(r.fast);
	pfree(r.order);
	return c;
}

/*
 * commit_cache_get_prescan: see commit_cache.h.
 */
CommitCacheRef *
commit_cache_get_prescan(CommitCacheScope *scope, DeltaLog *log,
						 int64 version, DeltaStatsPrescan *ps)
{
	return cache_get(scope, log, version, false, ps);
}

/*
 * commit_cache_get_state: see commit_cache.h.
 */
CommitCacheRef *
commit_cache_get_state(CommitCacheScope *scope, DeltaLog *log, int64 version)
{
	return cache_get(scope, log, version, true, NULL);
}

/*
 * memo_entry: the entry of commit file 'path' at 'version' (the full
 * decoding, else with state_only the state entry) when the same log
 * (open_id) found the file of that identity already, or NULL.  A DeltaLog
 * is one call's view of the table (DeltaLogOpen lists the log once per
 * call): within it a commit file is taken to be what it was the first
 * time the call stat'ed it, so that a call that asks for a commit again
 * and again (replay: every snapshot and every check) costs one stat per
 * file, and the call's answers are those of one read of the log.  The
 * next call stats every file again: a file rewritten between two calls is
 * read again.
 */
static CommitCacheEntry *
memo_entry(const char *path, int64 version, bool state_only, uint64 open_id)
{
	char		key[MAXPGPATH];
	HashItem   *item;
	int			pass;

	if (cache_hash == NULL || open_id == 0)
		return NULL;
	for (pass = 0; pass < (state_only ? 2 : 1); pass++)
	{
		snprintf(key, MAXPGPATH, "%s%s", path, pass == 1 ? "#state" : "");
		item = hash_search(cache_hash, key, HASH_FIND, NULL);
		if (item != NULL && !item->entry->keyed &&
			item->entry->version == version && item->entry->seen_by == open_id)
			return item->entry;
	}
	return NULL;
}

/* Whether cache entry e is a ratified version of the table at table_path. */
static bool
ratified_of_table(const CommitCacheEntry *e, const char *table_path,
				  size_t n)
{
	return strncmp(e->path, table_path, n) == 0 &&
		strncmp(e->path + n, "#ratified:", strlen("#ratified:")) == 0;
}

/*
 * The cached full decoding of ratified row rc, version 'version' of the
 * table at table_path, from its slot, or NULL.
 */
static CommitCacheEntry *
ratified_slot_find(const char *table_path, int64 version,
				   const DeltaRatifiedCommit *rc)
{
	RatifiedSlot *sl = &ratified_slots[version % RATIFIED_SLOTS];
	size_t		n;
	size_t		digits = 1;
	int64		v;

	if (sl->e == NULL || sl->version != version ||
		memcmp(sl->sha256, rc->sha256, PG_SHA256_DIGEST_LENGTH) != 0)
		return NULL;
	/* the key is this table's: "<table_path>#ratified:" and as long */
	for (v = version; v >= 10; v /= 10)
		digits++;
	n = strlen(table_path);
	if (sl->keylen != n + strlen("#ratified:") + digits + 1 +
		2 * PG_SHA256_DIGEST_LENGTH ||
		!ratified_of_table(sl->e, table_path, n))
		return NULL;
	Assert(sl->e->cached && !sl->e->keyed && sl->e->version == version);
	return sl->e;
}

/* Point the slot of cached entry e, the full decoding of rc, at it. */
static void
ratified_slot_set(CommitCacheEntry *e, const DeltaRatifiedCommit *rc)
{
	RatifiedSlot *sl = &ratified_slots[e->version % RATIFIED_SLOTS];

	Assert(e->cached && !e->keyed && e->version >= 0);
	sl->e = e;
	sl->keylen = strlen(e->path);
	sl->version = e->version;
	memcpy(sl->sha256, rc->sha256, PG_SHA256_DIGEST_LENGTH);
}

/*
 * Point the slot of e, the full decoding of rc just cached for the table
 * at table_path, at it; the entry there before leaves the cache when it is
 * an older version of the same table that nobody pins.  So a session keeps
 * the decodings of about the newest RATIFIED_SLOTS versions of a table:
 * what a commit checks is the versions after its read version, almost
 * always among the newest.  Without the bound a committing session, which
 * decodes every version the table's other committers ratify, would fill
 * the cache with versions nobody asks for again, each on memory the
 * process had not touched before (a page fault per 4 kB) until the cache
 * is full.  A reader further behind decodes the older versions again.
 */
static void
ratified_slot_claim(CommitCacheEntry *e, const DeltaRatifiedCommit *rc,
					const char *table_path)
{
	CommitCacheEntry *old = ratified_slots[e->version % RATIFIED_SLOTS].e;

	if (old != NULL && old != e && old->version < e->version &&
		old->pins == 0 &&
		ratified_of_table(old, table_path, strlen(table_path)))
	{
		drop_entry(old);
		stat_evictions++;
	}
	ratified_slot_set(e, rc);
}

/* pfree cache_get's path unless it is its key buffer */
static inline void
path_free(char *path, const char *key)
{
	if (path != key)
		pfree(path);
}

/*
 * cache_get: commit 'version' from the cache or read now.  state_only:
 * the metaData and protocol suffice (a full entry serves too; otherwise a
 * state entry under its own key, see commit_cache_get_state).
 */
static CommitCacheRef *
cache_get(CommitCacheScope *scope, DeltaLog *log, int64 version,
		  bool state_only, DeltaStatsPrescan *ps)
{
	char	   *name = NULL;	/* (a file's: its name) */
	char	   *path;
	char		key[MAXPGPATH];
	FileIdentity before;
	FileIdentity after;
	bool		cacheable;
	MemoryContext tmp;
	MemoryContext old;
	DeltaCommit *commit;
	CommitCacheRef *ref;
	CommitCacheEntry *e;
	CommitStatsSource *src = NULL;
	const DeltaRatifiedCommit *rc;

	DeltaLogCheckCommitAvailable(log, version);
	reap_graveyard();
	(void) make_room(0);		/* the limit may have been lowered */

	rc = DeltaLogRatified(log, version);
	if (rc != NULL && cache_limit() > 0 &&
		(e = ratified_slot_find(log->table_path, version, rc)) != NULL)
	{
		/* (a full decoding serves a state-only call as well) */
		stat_hits++;
		dlist_move_head(&cache_lru, &e->node);
		return entry_ref(scope, e);
	}
	if (rc != NULL)
	{
		/*
		 * The catalog's copy of the version: keyed by what it is (table,
		 * version and the SHA-256 of its bytes), never by a file, so no
		 * other bytes can be served for it; an identity of zeros, always
		 * the same.
		 */
		char		hex[PG_SHA256_DIGEST_STRING_LENGTH];
		int			n;

		hex[hex_encode((const char *) rc->sha256, PG_SHA256_DIGEST_LENGTH,
					   hex)] = '\0';
		n = snprintf(key, MAXPGPATH, "%s#ratified:" INT64_FORMAT ":%s",
					 log->table_path, version, hex);
		path = key;				/* (not to be freed) */
		memset(&before, 0, sizeof(before));
		cacheable = cache_limit() > 0 && n >= 0 && n + 8 < MAXPGPATH;
	}
	else
	{
		name = DeltaCommitFileName(version);
		path = psprintf("%s/%s", log->table_path, name);
		if (cache_limit() > 0 && strlen(path) + 8 < MAXPGPATH &&
			(e = memo_entry(path, version, state_only, log->open_id)) != NULL)
		{
			/* this call found the file of this identity already */
			stat_hits++;
			dlist_move_head(&cache_lru, &e->node);
			pfree(name);
			path_free(path, key);
			return entry_ref(scope, e);
		}
		cacheable = cache_limit() > 0 && strlen(path) + 8 < MAXPGPATH &&
			file_identity(path, &before);
	}

	if (cacheable && state_only)
	{
		HashItem   *item;

		/* a full decoding serves as well */
		ensure_cache();
		if (path != key)
			strlcpy(key, path, MAXPGPATH);
		item = hash_search(cache_hash, key, HASH_FIND, NULL);
		if (item != NULL && !item->entry->keyed &&
			item->entry->version == version &&
			same_identity(&item->entry->id, &before))
		{
			stat_hits++;
			if (rc == NULL)
				item->entry->seen_by = log->open_id;
			else
				ratified_slot_set(item->entry, rc);
			dlist_move_head(&cache_lru, &item->entry->node);
			if (name)
				pfree(name);
			path_free(path, key);
			return entry_ref(scope, item->entry);
		}
	}
	if (cacheable)
	{
		HashItem   *item;

		ensure_cache();
		/* the key: the file's path, "#state" appended for a state entry */
		if (path != key)
			snprintf(key, MAXPGPATH, "%s%s", path, state_only ? "#state" : "");
		else if (state_only)
			strlcat(key, "#state", MAXPGPATH);
		item = hash_search(cache_hash, key, HASH_FIND, NULL);
		if (item != NULL)
		{
			e = item->entry;
			if (!e->keyed && e->version == version &&
				same_identity(&e->id, &before))
			{
				stat_hits++;
				if (rc == NULL)
					e->seen_by = log->open_id;
				else if (!state_only)
					ratified_slot_set(e, rc);
				dlist_move_head(&cache_lru, &e->node);
				if (name)
					pfree(name);
				path_free(path, key);
				return entry_ref(scope, e);
			}
			/* the file changed: never serve the old decoding */
			drop_entry(e);
			stat_stale++;
		}
	}
	stat_misses++;

	/*
	 * read into a context of the call; it joins the cache only when done
	 * (most commits are small: its first block is too)
	 */
	tmp = AllocSetContextCreate(CurrentMemoryContext, "deltacc cached commit",
								ALLOCSET_START_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	if (state_only)
		commit = read_commit_state(log, version);
	else
		commit = read_commit_fast(log, version, ps,
								  rc != NULL ? (off_t) (rc->staged_path ? 0 : rc->content_len) :
								  cacheable ? before.size : 0, path,
								  cacheable && rc == NULL && !too_recent(&before) ?
								  &before : NULL, &src);
	if (!state_only)
		DeltaCommitIndexFiles(commit);
	MemoryContextSwitchTo(old);

	if (cacheable &&
		(rc != NULL ||
		 (file_identity(path, &after) && same_identity(&before, &after) &&
		  !too_recent(&after))))
	{
		Size		bytes = MemoryContextMemAllocated(tmp, true) +
			sizeof(CommitCacheEntry) + strlen(path) + 1 + sizeof(HashItem);

		if (make_room(bytes))
		{
			HashItem   *item;
			bool		found;

			ensure_cache();
			e = MemoryContextAllocZero(cache_cxt, sizeof(CommitCacheEntry));
			e->path = MemoryContextStrdup(cache_cxt, key);
			e->version = version;
			e->id = before;
			e->seen_by = rc == NULL ? log->open_id : 0;
			e->cxt = tmp;
			e->commit = commit;
			e->src = src;
			e->bytes = bytes;
			item = hash_search(cache_hash, key, HASH_ENTER, &found);
			Assert(!found);
			item->entry = e;
			MemoryContextSetParent(tmp, cache_cxt);
			e->cached = true;
			dlist_push_head(&cache_lru, &e->node);
			cache_bytes += bytes;
			cache_entries++;
			if (rc != NULL && !state_only)
				ratified_slot_claim(e, rc, log->table_path);
			if (name)
				pfree(name);
			path_free(path, key);
			return entry_ref(scope, e);
		}
	}

	/* not cached: the commit lives and dies with the caller's context */
	ref = MemoryContextAllocZero(GetMemoryChunkContext(scope),
								 sizeof(CommitCacheRef));
	ref->commit = commit;
	ref->cxt = tmp;
	ref->extra = MemoryContextAllocZero(tmp, sizeof(void *));
	ref->entry = NULL;
	ref->stats_src = src;
	if (name)
		pfree(name);
	path_free(path, key);
	return ref;
}

/*
 * commit_cache_ref_grown: see commit_cache.h.
 */
void
commit_cache_ref_grown(CommitCacheScope *scope, CommitCacheRef *ref)
{
	CommitCacheEntry *e = ref->entry;
	Size		bytes;

	if (e == NULL || !e->cached)
		return;
	bytes = MemoryContextMemAllocated(e->cxt, true) +
		sizeof(CommitCacheEntry) + strlen(e->path) + 1 + sizeof(HashItem);
	cache_bytes = cache_bytes - e->bytes + bytes;
	e->bytes = bytes;
	if (!make_room(0))
	{
		/* even alone it is too big: the scope keeps it alive until done */
		drop_entry(e);
		stat_evictions++;
	}
}

/*
 * commit_cache_ref_sole: see commit_cache.h.
 */
bool
commit_cache_ref_sole(const CommitCacheRef *ref)
{
	const CommitCacheEntry *e = ref->entry;

	return e == NULL || e->pins <= 1;
}

/* ---------------------------------------------------------------------
 * Stats texts not kept (see CommitStatsSource)
 * ---------------------------------------------------------------------
 */
struct CommitStatsLoader
{
	CommitCacheRef *ref;
	File		file;			/* the commit file (a virtual fd, which no
								 * (sub)transaction abort closes behind the
								 * callback's back), -1 until needed */
	MemoryContext scratch;		/* one text's line and parse tree; made on
								 * the first read, NULL until then and after
								 * the close */
	int			loaded;			/* texts read again so far */
	bool		remote_checked; /* an object's identity checked again */
	MemoryContextCallback close_cb;
};

/* memory context reset callback: close the loader's file */
static void
loader_close_cb(void *arg)
{
	CommitStatsLoader *ld = (CommitStatsLoader *) arg;

	if (ld->file >= 0)
		FileClose(ld->file);
	ld->file = -1;
}

/*
 * commit_cache_stats_loader: see commit_cache.h.  Nothing but the loader
 * itself is allocated until a text is read: most winners never read one.
 */
CommitStatsLoader *
commit_cache_stats_loader(CommitCacheRef *ref)
{
	CommitStatsLoader *ld;

	if (ref->stats_src == NULL)
		return NULL;
	ld = palloc0(sizeof(CommitStatsLoader));
	ld->ref = ref;
	ld->file = -1;
	ld->close_cb.func = loader_close_cb;
	ld->close_cb.arg = ld;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &ld->close_cb);
	return ld;
}

/* the file changed since it was read: nothing read from it now is used */
static void
loader_changed(const CommitStatsSource *src)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("Delta log file \"%s\" changed while it was being read",
				   src->name),
			errdetail("The conflict check read it again for statistics it had not kept."));
}

/*
 * commit_cache_stats_text: see commit_cache.h.  The line is read again and
 * decoded by the parse tree (the slow, general decoder); the commit file
 * must still have the identity taken before it was first read, and the
 * line must still be the add of the same path.
 */
const char *
commit_cache_stats_text(void *loader, int i)
{
	CommitStatsLoader *ld = (CommitStatsLoader *) loader;
	CommitCacheRef *ref = ld->ref;
	CommitStatsSource *src = ref->stats_src;
	DeltaFileAction *fa;
	MemoryContext old;
	DeltaErrorPosition errpos;
	Size		got;
	DeltaCommitBuilder b;
	DjValue		v;
	char	   *line;
	char	   *text;

	Assert(i >= 0 && i < ref->commit->n_files);
	fa = &ref->commit->files[i];
	if (fa->stats != NULL || fa->stats_parsed_json != NULL)
		return fa->stats ? fa->stats : fa->stats_parsed_json;
	if (i >= src->nfiles || src->len[i] <= 0)
		return NULL;			/* the file has no statistics */
	if (storage_is_remote(src->path))
	{
		FileIdentity now;

		if (!ld->remote_checked &&
			(!file_identity(src->path, &now) || !same_identity(&src->id, &now)))
			loader_changed(src);
		ld->remote_checked = true;
	}
	else if (ld->file < 0)
	{
		struct stat st;
		FileIdentity now;

		ld->file = DeltaOpenRegularVfd(src->path, "Delta log file", src->name,
									   &st);
		identity_of(&st, &now);
		if (!same_identity(&src->id, &now))
			loader_changed(src);
	}
	if (ld->scratch == NULL)
		ld->scratch = AllocSetContextCreate(GetMemoryChunkContext(ld),
											"deltacc stats text",
											ALLOCSET_DEFAULT_SIZES);
	MemoryContextReset(ld->scratch);
	old = MemoryContextSwitchTo(ld->scratch);
	line = palloc(src->len[i]);
	if (storage_is_remote(src->path))
		got = storage_read_range(src->path, NULL, "Delta log file", src->name,
								 line, src->len[i], (uint64) src->off[i]);
	else
		got = DeltaFileReadAtMost(ld->file, line, src->len[i],
								  (off_t) src->off[i], "Delta log file",
								  src->name);
	if (got != (Size) src->len[i])
		loader_changed(src);
	DeltaErrorContextPush(&errpos, src->name);
	errpos.line = src->line_no[i];
	v = DeltaLogParseLine(line, src->len[i]);
	DeltaCommitBuilderInit(&b, fa->version);
	b.mode = DELTA_DECODE_ROW;
	DeltaDecodeAction(&b, &v);
	DeltaErrorContextPop(&errpos);
	if (b.n_files != 1 || b.files[0].kind != DELTA_FILE_ADD ||
		strcmp(b.files[0].path, fa->path) != 0 || b.files[0].stats == NULL)
		loader_changed(src);
	text = MemoryContextStrdup(ref->cxt, b.files[0].stats);
	MemoryContextSwitchTo(old);
	fa->stats = text;			/* kept from now on */
	ld->loaded++;
	return text;
}

/*
 * commit_cache_stats_loader_close: see commit_cache.h.
 */
int
commit_cache_stats_loader_close(CommitStatsLoader *ld)
{
	if (ld == NULL)
		return 0;
	loader_close_cb(ld);
	if (ld->scratch != NULL)
		MemoryContextDelete(ld->scratch);
	ld->scratch = NULL;
	return ld->loaded;
}

/*
 * commit_cache_get_stats: current counters.
 */
void
commit_cache_get_stats(CommitCacheStats *out)
{
	out->entries = cache_entries;
	out->bytes = (int64) cache_bytes;
	out->hits = stat_hits;
	out->misses = stat_misses;
	out->evictions = stat_evictions;
	out->stale = stat_stale;
}

/* ---------------------------------------------------------------------
 * Entries of another cache (snapshot_cache.c), under the same bound
 * ---------------------------------------------------------------------
 */

/*
 * commit_cache_file_identity, commit_cache_same_identity,
 * commit_cache_too_recent: see commit_cache.h.
 */
bool
commit_cache_file_identity(const char *path, CommitFileIdentity *id)
{
	return file_identity(path, id);
}

bool
commit_cache_same_identity(const CommitFileIdentity *a,
						   const CommitFileIdentity *b)
{
	return same_identity(a, b);
}

bool
commit_cache_too_recent(const CommitFileIdentity *id)
{
	return too_recent(id);
}

/*
 * commit_cache_ref_identity: see commit_cache.h.  (A ratified commit's
 * entry has no file: seen_by stays 0 for it, and its identity is zeros.)
 */
bool
commit_cache_ref_identity(const CommitCacheRef *ref, CommitFileIdentity *id)
{
	const CommitCacheEntry *e = ref->entry;

	if (e == NULL || e->keyed || strstr(e->path, "#ratified:") != NULL)
		return false;
	*id = e->id;
	return true;
}

/*
 * commit_cache_lookup_keyed: see commit_cache.h.
 */
CommitCacheRef *
commit_cache_lookup_keyed(CommitCacheScope *scope, const char *key)
{
	char		k[MAXPGPATH];
	HashItem   *item;

	if (cache_limit() == 0 || strlen(key) + 1 > MAXPGPATH)
		return NULL;
	reap_graveyard();
	(void) make_room(0);
	ensure_cache();
	strlcpy(k, key, MAXPGPATH);
	item = hash_search(cache_hash, k, HASH_FIND, NULL);
	if (item == NULL || !item->entry->keyed)
		return NULL;
	dlist_move_head(&cache_lru, &item->entry->node);
	return entry_ref(scope, item->entry);
}

/*
 * commit_cache_forget_keyed: see commit_cache.h.
 */
void
commit_cache_forget_keyed(const char *key)
{
	char		k[MAXPGPATH];
	HashItem   *item;

	if (cache_hash == NULL || strlen(key) + 1 > MAXPGPATH)
		return;
	strlcpy(k, key, MAXPGPATH);
	item = hash_search(cache_hash, k, HASH_FIND, NULL);
	if (item != NULL && item->entry->keyed)
		drop_entry(item->entry);
}

/*
 * commit_cache_insert_keyed: see commit_cache.h.
 */
CommitCacheRef *
commit_cache_insert_keyed(CommitCacheScope *scope, const char *key,
						  DeltaCommit *commit, MemoryContext cxt, void *extra)
{
	char		k[MAXPGPATH];
	CommitCacheRef *ref;

	if (cache_limit() > 0 && strlen(key) + 1 <= MAXPGPATH)
	{
		Size		bytes = MemoryContextMemAllocated(cxt, true) +
			sizeof(CommitCacheEntry) + strlen(key) + 1 + sizeof(HashItem);

		commit_cache_forget_keyed(key);
		if (make_room(bytes))
		{
			CommitCacheEntry *e;
			HashItem   *item;
			bool		found;

			ensure_cache();
			strlcpy(k, key, MAXPGPATH);
			e = MemoryContextAllocZero(cache_cxt, sizeof(CommitCacheEntry));
			e->path = MemoryContextStrdup(cache_cxt, k);
			e->version = -1;
			e->keyed = true;
			e->cxt = cxt;
			e->commit = commit;
			e->extra = extra;
			e->bytes = bytes;
			item = hash_search(cache_hash, k, HASH_FIND, NULL);
			if (item != NULL)
				drop_entry(item->entry);	/* a commit under the same key */
			item = hash_search(cache_hash, k, HASH_ENTER, &found);
			Assert(!found);
			item->entry = e;
			MemoryContextSetParent(cxt, cache_cxt);
			e->cached = true;
			dlist_push_head(&cache_lru, &e->node);
			cache_bytes += bytes;
			cache_entries++;
			return entry_ref(scope, e);
		}
	}
	/* not cached: it lives and dies with the caller's context */
	ref = MemoryContextAllocZero(GetMemoryChunkContext(scope),
								 sizeof(CommitCacheRef));
	ref->commit = commit;
	ref->cxt = cxt;
	ref->extra = MemoryContextAllocZero(cxt, sizeof(void *));
	*ref->extra = extra;
	return ref;
}
