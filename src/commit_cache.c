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
 *	  src/commit_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/ilist.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "actions.h"
#include "commit_cache.h"
#include "fastline.h"
#include "jshape.h"
#include "json_util.h"
#include "stats.h"

int			deltacc_commit_cache_size = 64 * 1024;	/* kB */

/* What makes two reads of a commit file read the same bytes. */
typedef struct FileIdentity
{
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	int64		mtime_sec;
	int64		mtime_nsec;
	int64		ctime_sec;
	int64		ctime_nsec;
} FileIdentity;

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

static CommitCacheRef *cache_get(CommitCacheScope *scope, DeltaLog *log,
								  int64 version, bool table_only,
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
							"A commit file is parsed once per session while its size and modification time stay the same; 0 disables the cache.",
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
		a->ctime_sec == b->ctime_sec && a->ctime_nsec == b->ctime_nsec;
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
 * a parse tree when a line is provably one add / remove / cdc action: the
 * line is a JSON object whose only key is that action, and the whole line
 * is valid JSON of a conservative subset (printable ASCII, the standard
 * escapes, \u escapes other than \u0000 and surrogates, numbers in JSON
 * syntax, nesting at most FL_MAX_DEPTH: src/fastline.c); any other line
 * is parsed and decoded as usual.  (A skipped file action's fields are not
 * checked.)
 * ---------------------------------------------------------------------
 */

static bool line_shape_skip(const char *line, Size len);
static bool line_shape_want(void);
static void line_shape_learn_line(const char *line, Size len);

/*
 * skip_line_generic: the index in keys (add, remove, cdc) of the one
 * action the line provably is, or -1.
 */
static int
skip_line_generic(const char *line, Size len)
{
	const char *p = line;
	const char *end = line + len;
	static const char *const keys[] = {"\"add\"", "\"remove\"", "\"cdc\""};
	int			i;

	p = fl_skip_ws(p, end);
	if (p >= end || *p != '{')
		return -1;
	p = fl_skip_ws(p + 1, end);
	for (i = 0; i < lengthof(keys); i++)
	{
		size_t		kl = strlen(keys[i]);

		if ((size_t) (end - p) >= kl && memcmp(p, keys[i], kl) == 0)
			break;
	}
	if (i == lengthof(keys))
		return -1;
	p += strlen(keys[i]);
	if (!fl_colon(&p, end) || !fl_skip_value(&p, end, 1))
		return -1;
	p = fl_skip_ws(p, end);
	if (p >= end || *p != '}')
		return -1;
	p = fl_skip_ws(p + 1, end);
	return p == end ? i : -1;
}

/*
 * skip_file_action_line: DeltaActionLineSkip for reading only table-level
 * actions: true when the line is provably exactly one add, remove or cdc
 * action (see above): an add line of the current line shapes (see
 * below), else skip_line_generic (and the shapes are made from an add
 * line they did not take).  Assert-enabled builds check a shaped line
 * the generic way too.
 */
static bool
skip_file_action_line(void *arg, const char *line, Size len)
{
	int			kind;

	fl_init();
	if (line_shape_skip(line, len))
	{
		Assert(skip_line_generic(line, len) == 0);
		return true;
	}
	kind = skip_line_generic(line, len);
	if (kind == 0 && line_shape_want())
		line_shape_learn_line(line, len);
	return kind >= 0;
}

/* DeltaLogScanActionFileSkip callback: decode the action into a builder */
static void
decode_table_action(void *arg, const DjValue *action, int64 offset,
					int32 len, int64 line_no)
{
	DeltaDecodeAction((DeltaCommitBuilder *) arg, action);
}

/*
 * read_commit_table_actions: commit 'version' with its metaData, protocol,
 * commitInfo, txn and domain actions decoded and (provable) file actions
 * skipped; in CurrentMemoryContext.
 */
static DeltaCommit *
read_commit_table_actions(DeltaLog *log, int64 version)
{
	DeltaCommitBuilder b;
	char	   *name;

	DeltaLogCheckCommitAvailable(log, version);
	name = DeltaCommitFileName(version);
	DeltaCommitBuilderInit(&b, version);
	b.mode = DELTA_DECODE_ROW;
	DeltaLogScanActionFileSkip(log, name, skip_file_action_line,
							   decode_table_action, &b);
	pfree(name);
	return DeltaCommitBuilderFinish(&b);
}

/* ---------------------------------------------------------------------
 * Decoding add lines of the common shape without a parse tree
 *
 * A winner's add line {"add":{"path":...,"partitionValues":{...},"size":N,
 * "modificationTime":N,"dataChange":b,"stats":"...","tags":{...}}} is
 * decoded straight from the text when it is provably what
 * DeltaDecodeAction(DELTA_DECODE_ROW) would decode without an error: valid
 * JSON of the subset above, no duplicate of a key decode_file reads, path
 * and partition values plain ASCII strings (values may be null), size and
 * modificationTime plain integers (size not negative), dataChange a
 * boolean, stats a string (standard escapes only), no deletion vector,
 * baseRowId / defaultRowCommitVersion plain integers if present; other keys
 * (tags included, which DELTA_DECODE_ROW does not keep) are only validated.
 * Any other line goes through djson and DeltaDecodeAction as before.
 * Assert-enabled builds decode every fast line the slow way too and
 * compare.
 * ---------------------------------------------------------------------
 */

/* One file action of the commit being read, in line order. */
typedef struct OrderedFile
{
	bool		fast;			/* decoded here, else builder file 'index' */
	int			index;
} OrderedFile;

typedef struct FastReader
{
	DeltaCommitBuilder b;		/* table actions and slow file actions */
	DeltaFileAction *fast;		/* fast-decoded adds */
	int			n_fast;
	int			cap_fast;
	OrderedFile *order;
	int			n_order;
	int			cap_order;
	char	   *ubuf;			/* decoded stats of very long lines */
	Size		ucap;
	char	   *stats_at;		/* where stats_dest put the stats */
	DeltaStatsPrescan *ps;		/* NULL: no prescan */
	int			cap_hint;		/* first room for fast lines (0: none) */
	/* stats texts the prescan answered are not kept (see CommitStatsSource) */
	bool		defer;
	bool		deferred;		/* fast_add: this line's text was not kept */
	bool		esc_stats;		/* stats matched escaped when they can be
								 * (commit_cache_decode_add_line) */
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

/*
 * Lines up to this long decode their stats straight into the commit's
 * string arena (as DeltaArenaStrndup would copy them: blocks of
 * FAST_ARENA_BLOCK bytes), longer ones into ubuf and then by
 * DeltaArenaStrndup.
 */
#define FAST_ARENA_BLOCK (64 * 1024)
#define FAST_INPLACE_MAX (FAST_ARENA_BLOCK / 4)

/*
 * stats_dest: room for a decoded stats string of fewer than need bytes
 * plus its NUL (need: the rest of the line from the opening quote), also
 * left in r->stats_at.  In the arena the bytes stay unclaimed (the next
 * arena copy would overwrite them) until fast_add keeps them.
 */
static char *
stats_dest(FastReader *r, Size need)
{
	DeltaStrArena *a = &r->b.strings;

	if (need + 1 <= FAST_INPLACE_MAX)
	{
		if (a->next == NULL || a->left < need + 1)
			DeltaArenaNewBlock(a, FAST_ARENA_BLOCK);
		r->stats_at = a->next;
	}
	else
	{
		if (r->ucap < need + 1)
		{
			r->ucap = Max(need + 1, 2 * r->ucap);
			if (r->ubuf)
				pfree(r->ubuf);
			r->ubuf = MemoryContextAllocHuge(r->b.cxt, r->ucap);
		}
		r->stats_at = r->ubuf;
	}
	return r->stats_at;
}

/*
 * What fast_add takes from an add line before building the action: where
 * the strings are (in the line, or the stats in the arena / a match) and
 * where the model line's tokens were (for the line shapes below).
 */
typedef struct FastFields
{
	const char *stats;			/* decoded text (stats_dest), or NULL */
	int			stats_len;
	const char *stats_esc;		/* an escaped match's text, or NULL */
	bool		stats_null;
	const char *path;
	int			path_len;
	int			npv;
	const char *pvk[16];
	int			pvkl[16];
	const char *pvv[16];		/* NULL: JSON null */
	int			pvvl[16];
	/* the generic parse's token positions (line_shape_learn) */
	const char *stats_start;	/* the stats value's first byte */
	const char *stats_end;		/* the byte after it */
	const char *at_size;
	const char *at_mtime;
	const char *at_dc;
	const char *at_dv;
	const char *at_base;
	const char *at_drcv;
	const char *at_pv[16];		/* each partition value's first byte */
} FastFields;

/*
 * fast_stats: the "stats" value at *pp (a string or null) into ff: the
 * prescan's match, an escaped match (r->esc_stats), or the text unescaped
 * into stats_dest; *pp moves past it.  False: not provable.
 */
static bool
fast_stats(FastReader *r, const char **pp, const char *end, FastFields *ff)
{
	const char *p = *pp;
	const char *after;

	ff->stats_start = p;
	if (r->esc_stats && dc_json_stats_match_escaped(p, end, &after))
	{
		ff->stats_esc = p + 1;	/* the text: after the opening quote */
		p = after;
	}
	else if (*p == '"')
	{
		/* (8 bytes of slack for the prescan's copies) */
		char	   *dest = stats_dest(r, end - p + 8);

		if (r->ps != NULL && r->defer &&
			delta_stats_prescan_string(r->ps, r->n_fast, p, end, NULL,
									   NULL, &after, r->b.cxt))
		{
			/* valid; the text is kept only if some answer is missing */
			if (delta_stats_prescan_ok(r->ps, r->n_fast))
				r->deferred = true;
			else if (!fl_unescape_string(&p, end, dest, &ff->stats_len) ||
					 p != after)
				return false;	/* cannot happen: the same string */
			p = after;
		}
		else if (r->ps != NULL && !r->defer &&
				 delta_stats_prescan_string(r->ps, r->n_fast, p, end,
											dest, &ff->stats_len, &after,
											r->b.cxt))
			p = after;
		else if (!fl_unescape_string(&p, end, dest, &ff->stats_len))
			return false;
		ff->stats = r->deferred ? NULL : r->stats_at;
	}
	else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
	{
		ff->stats_null = true;
		p += 4;
	}
	else
		return false;
	ff->stats_end = p;
	*pp = p;
	return true;
}

/*
 * fast_build: the action from ff (fa's scalar fields already set), its
 * strings copied to b's arena.
 */
static void
fast_build(FastReader *r, FastFields *ff, DeltaFileAction *fa)
{
	DeltaCommitBuilder *b = &r->b;
	int			k;

	fa->kind = DELTA_FILE_ADD;
	fa->version = b->version;
	fa->tight_bounds = -1;
	if (ff->stats_esc != NULL)
	{
		fa->stats = unconstify(char *, ff->stats_esc);
		fa->stats_escaped = true;
	}
	/* first: the stats may lie unclaimed at the arena's next byte */
	if (ff->stats != NULL && !ff->stats_null)
	{
		if (ff->stats == b->strings.next)
		{
			/* decoded in place: keep it (NUL-terminated) */
			char	   *kept = b->strings.next;

			kept[ff->stats_len] = '\0';
			b->strings.next += ff->stats_len + 1;
			b->strings.left -= ff->stats_len + 1;
			fa->stats = kept;
		}
		else
			fa->stats = DeltaArenaStrndup(&b->strings, ff->stats,
										  ff->stats_len);
	}
	fa->pv.n = ff->npv;
	if (ff->npv > 0)
	{
		fa->pv.keys = MemoryContextAlloc(b->cxt, sizeof(char *) * ff->npv);
		fa->pv.values = MemoryContextAlloc(b->cxt, sizeof(char *) * ff->npv);
		for (k = 0; k < ff->npv; k++)
		{
			fa->pv.keys[k] = DeltaArenaStrndup(&b->strings, ff->pvk[k],
											   ff->pvkl[k]);
			fa->pv.values[k] = ff->pvv[k] ?
				DeltaArenaStrndup(&b->strings, ff->pvv[k], ff->pvvl[k]) : NULL;
		}
	}
	fa->path = DeltaArenaStrndup(&b->strings, ff->path, ff->path_len);
}

/*
 * fast_add_generic: decode one add line of the common shape into *fa and
 * ff (fast_build makes the action); false (nothing usable in *fa) when
 * the line is not provably of that shape.
 */
static bool
fast_add_generic(FastReader *r, const char *line, Size len,
				 DeltaFileAction *fa, FastFields *ff)
{
	const char *p = line;
	const char *end = line + len;
	unsigned	seen = 0;
	bool		closed;

	p = fl_skip_ws(p, end);
	if (end - p < 7 || memcmp(p, "{\"add\"", 6) != 0)
		return false;
	p += 6;
	if (!fl_colon(&p, end) || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	if (p < end && *p == '}')
		return false;			/* no fields: let decode_file complain */
	for (;;)
	{
		const char *key;
		int			kl;

		if (!fl_member_key(&p, end, &key, &kl))
			return false;
		if (FL_KEY("path"))
		{
			FL_ONCE(1);
			if (*p != '"' || !fl_plain_string(&p, end, &ff->path,
											  &ff->path_len) ||
				ff->path_len == 0)
				return false;
		}
		else if (FL_KEY("partitionValues"))
		{
			FL_ONCE(2);
			if (*p != '{')
				return false;
			p = fl_skip_ws(p + 1, end);
			if (p < end && *p == '}')
				p++;
			else
				for (;;)
				{
					int			n = ff->npv;

					if (n == lengthof(ff->pvk))
						return false;
					p = fl_skip_ws(p, end);
					if (p >= end || *p != '"' ||
						!fl_plain_string(&p, end, &ff->pvk[n], &ff->pvkl[n]) ||
						!fl_colon(&p, end))
						return false;
					ff->at_pv[n] = p;
					if (*p == '"')
					{
						if (!fl_plain_string(&p, end, &ff->pvv[n], &ff->pvvl[n]))
							return false;
					}
					else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
					{
						ff->pvv[n] = NULL;
						p += 4;
					}
					else
						return false;
					ff->npv++;
					if (!fl_obj_sep(&p, end, &closed))
						return false;
					if (closed)
						break;
				}
		}
		else if (FL_KEY("size"))
		{
			FL_ONCE(4);
			ff->at_size = p;
			if (!fl_plain_int(&p, end, &fa->size) || fa->size < 0)
				return false;
			fa->has_size = true;
		}
		else if (FL_KEY("modificationTime"))
		{
			FL_ONCE(8);
			ff->at_mtime = p;
			if (!fl_plain_int(&p, end, &fa->modification_time))
				return false;
			fa->has_modification_time = true;
		}
		else if (FL_KEY("dataChange"))
		{
			FL_ONCE(16);
			ff->at_dc = p;
			if (end - p >= 4 && memcmp(p, "true", 4) == 0)
			{
				fa->data_change = true;
				p += 4;
			}
			else if (end - p >= 5 && memcmp(p, "false", 5) == 0)
			{
				fa->data_change = false;
				p += 5;
			}
			else
				return false;
		}
		else if (FL_KEY("stats"))
		{
			FL_ONCE(32);
			if (!fast_stats(r, &p, end, ff))
				return false;
		}
		else if (FL_KEY("deletionVector"))
		{
			FL_ONCE(64);
			ff->at_dv = p;
			if (end - p >= 4 && memcmp(p, "null", 4) == 0)
				p += 4;
			else
				return false;
		}
		else if (FL_KEY("baseRowId") || FL_KEY("defaultRowCommitVersion"))
		{
			bool		base = FL_KEY("baseRowId");
			int64		v;

			FL_ONCE(base ? 128 : 256);
			if (base)
				ff->at_base = p;
			else
				ff->at_drcv = p;
			if (end - p >= 4 && memcmp(p, "null", 4) == 0)
				p += 4;
			else
			{
				if (!fl_plain_int(&p, end, &v))
					return false;
				if (base)
				{
					fa->has_base_row_id = true;
					fa->base_row_id = v;
				}
				else
				{
					fa->has_default_row_commit_version = true;
					fa->default_row_commit_version = v;
				}
			}
		}
		else if (FL_KEY("tags"))
		{
			FL_ONCE(512);
			if (!fl_skip_flat_strings(&p, end) && !fl_skip_value(&p, end, 2))
				return false;
		}
		else
		{
			/* a key decode_file does not read: only validated */
			if (!fl_skip_value(&p, end, 2))
				return false;
		}
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	if (!fl_line_closes(p, end) || (seen & 31) != 31)
		return false;			/* trailing data, or a required field missing */
	return true;
}

/* ---------------------------------------------------------------------
 * Line shapes of add lines
 *
 * A writer repeats one add line layout thousands of times: the same keys
 * in the same order, other values.  The part of the line before the stats
 * value and the part after it are each a JsShape (src/format/jshape.h)
 * made from a model line fast_add_generic decoded; a line whose two parts
 * match them (and whose stats value fast_stats takes, as in the generic
 * parse) has the model's keys in the model's order, none twice, and a
 * value of the same kind in each place, so it is decoded from the slots:
 * each slot has the role the model's token had (path, size, a partition
 * value, ...), and a role's checks are those of the generic parse (a
 * plain integer for size, a boolean for dataChange, null for
 * deletionVector, ...).  A slot of no role (a tag, a key decode_file does
 * not read) is only validated, by the match.  Any line that does not
 * match, or whose slot fails its role's check, goes the generic way; the
 * shapes are remade from such a line (after each of the first few misses
 * in a row, then every 64th).  They live for the backend in their own
 * small context.  Assert-enabled builds check every decoded line against
 * the parse tree (assert_fast_matches_tree).
 * ---------------------------------------------------------------------
 */
typedef enum LineRole
{
	LR_OTHER = 0,
	LR_PATH,
	LR_SIZE,
	LR_MTIME,
	LR_DC,
	LR_DV,
	LR_BASE,
	LR_DRCV,
	LR_PV						/* + the partition value's index */
} LineRole;

typedef struct LineShapes
{
	MemoryContext cxt;			/* owns everything below */
	bool		valid;
	JsShape		pre;			/* the line up to the stats value */
	JsShape		post;			/* the line after it */
	JsSlot	   *pre_slots;
	JsSlot	   *post_slots;
	/* the slots with a role (LineRole, LR_PV + i): index and role */
	int			npre_roles;
	int		   *pre_at;
	uint8	   *pre_role;
	int			npost_roles;
	int		   *post_at;
	uint8	   *post_role;
	int			npv;
	char	  **pvk;			/* the model's partition keys */
	int		   *pvkl;
} LineShapes;

#define LINE_SHAPE_EAGER_MISSES 4
#define LINE_SHAPE_RETRY_EVERY 64

static LineShapes *line_shapes = NULL;
static int	line_shape_misses = 0;	/* lines in a row not matched */

/* the role of the token at t of the model line (ff: its generic parse) */
static uint8
line_role(const FastFields *ff, const char *t)
{
	int			k;

	if (t == ff->path)
		return LR_PATH;
	if (t == ff->at_size)
		return LR_SIZE;
	if (t == ff->at_mtime)
		return LR_MTIME;
	if (t == ff->at_dc)
		return LR_DC;
	if (t == ff->at_dv)
		return LR_DV;
	if (t == ff->at_base)
		return LR_BASE;
	if (t == ff->at_drcv)
		return LR_DRCV;
	for (k = 0; k < ff->npv; k++)
		if (t == (ff->pvv[k] != NULL ? ff->pvv[k] : ff->at_pv[k]))
			return LR_PV + k;
	return LR_OTHER;
}

/*
 * line_shape_part: build *shape of model[0 .. len) and the role of each of
 * its slots (model tokens located through ff); false when it cannot be
 * shaped.  In CurrentMemoryContext (the shapes' context).
 */
static bool
line_shape_part(JsShape *shape, JsSlot **slots, int *nroles, int **at,
				uint8 **roles, const char *model, size_t len,
				const FastFields *ff)
{
	FmtAllocator alloc = dc_fmt_allocator(CurrentMemoryContext);
	size_t		consumed;
	int			i;

	if (!js_build(shape, model, len, JS_PLAIN, &alloc))
		return false;
	*slots = palloc(sizeof(JsSlot) * Max(shape->nslots, 1));
	*at = palloc(sizeof(int) * Max(shape->nslots, 1));
	*roles = palloc(sizeof(uint8) * Max(shape->nslots, 1));
	*nroles = 0;
	if (!js_match(shape, model, model + len, *slots, &consumed, NULL, NULL) ||
		consumed != len)
		return false;
	for (i = 0; i < shape->nslots; i++)
	{
		/* (a string slot's token is its content, as ff's pointers) */
		uint8		role = line_role(ff, model + (*slots)[i].off);

		if (role != LR_OTHER)
		{
			(*at)[*nroles] = i;
			(*roles)[*nroles] = role;
			(*nroles)++;
		}
	}
	return true;
}

/*
 * line_roles_complete: every field the model line's generic parse found
 * (ff) is the role of exactly one slot of ls, so that a shaped line
 * decodes each of them from its own token.
 */
static bool
line_roles_complete(const LineShapes *ls, const FastFields *ff)
{
	int			count[LR_PV + lengthof(ff->pvk)];
	int			want[LR_PV + lengthof(ff->pvk)];
	int			i;

	memset(count, 0, sizeof(count));
	memset(want, 0, sizeof(want));
	for (i = 0; i < ls->npre_roles; i++)
		count[ls->pre_role[i]]++;
	for (i = 0; i < ls->npost_roles; i++)
		count[ls->post_role[i]]++;
	want[LR_PATH] = 1;
	want[LR_SIZE] = 1;
	want[LR_MTIME] = 1;
	want[LR_DC] = 1;
	want[LR_DV] = ff->at_dv != NULL;
	want[LR_BASE] = ff->at_base != NULL;
	want[LR_DRCV] = ff->at_drcv != NULL;
	for (i = 0; i < ff->npv; i++)
		want[LR_PV + i] = 1;
	return memcmp(count, want, sizeof(count)) == 0;
}

/*
 * line_shape_want: count a line the shapes did not take; true when the
 * shapes are to be made again from it (the first few misses in a row,
 * then every LINE_SHAPE_RETRY_EVERY-th).
 */
static bool
line_shape_want(void)
{
	line_shape_misses++;
	return line_shape_misses <= LINE_SHAPE_EAGER_MISSES ||
		line_shape_misses % LINE_SHAPE_RETRY_EVERY == 0;
}

/*
 * line_shape_learn: make the line shapes from a line fast_add_generic
 * just decoded into ff (the current ones stay when it cannot be shaped).
 */
static void
line_shape_learn(const char *line, Size len, const FastFields *ff)
{
	LineShapes *ls = line_shapes;
	MemoryContext cxt;
	MemoryContext old;
	LineShapes *fresh;
	int			k;

	if (ff->stats_start == NULL)
		return;
	/* (made under the current context, which an ERROR leaves it to) */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc add line shapes",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	fresh = palloc0(sizeof(LineShapes));
	fresh->cxt = cxt;
	if (line_shape_part(&fresh->pre, &fresh->pre_slots, &fresh->npre_roles,
						&fresh->pre_at, &fresh->pre_role,
						line, ff->stats_start - line, ff) &&
		line_shape_part(&fresh->post, &fresh->post_slots, &fresh->npost_roles,
						&fresh->post_at, &fresh->post_role,
						ff->stats_end, (line + len) - ff->stats_end, ff))
	{
		fresh->npv = ff->npv;
		fresh->pvk = palloc(sizeof(char *) * Max(ff->npv, 1));
		fresh->pvkl = palloc(sizeof(int) * Max(ff->npv, 1));
		for (k = 0; k < ff->npv; k++)
		{
			fresh->pvk[k] = pnstrdup(ff->pvk[k], ff->pvkl[k]);
			fresh->pvkl[k] = ff->pvkl[k];
		}
		fresh->valid = line_roles_complete(fresh, ff);
	}
	MemoryContextSwitchTo(old);
	if (!fresh->valid)
	{
		MemoryContextDelete(cxt);
		return;
	}
	MemoryContextSetParent(cxt, TopMemoryContext);
	if (ls != NULL)
		MemoryContextDelete(ls->cxt);
	line_shapes = fresh;
}

/*
 * line_slot_int: the number token t[0 .. len) (valid JSON, a slot's) as
 * fl_plain_int takes it: an integer of at most 18 digits without fraction
 * or exponent (JSON's grammar already refuses leading zeros).
 */
static inline bool
line_slot_int(const char *t, size_t len, int64 *out)
{
	bool		neg = (*t == '-');
	size_t		i = neg ? 1 : 0;
	int64		v = 0;

	if (len - i > 18)
		return false;
	for (; i < len; i++)
	{
		unsigned	d = (unsigned char) t[i] - '0';

		if (d > 9)
			return false;		/* a fraction or an exponent */
		v = v * 10 + d;
	}
	*out = neg ? -v : v;
	return true;
}

/*
 * line_slots_take: the roles' values of a matched part (text: its start)
 * into fa and ff; false when a slot fails its role's check.
 */
static bool
line_slots_take(const LineShapes *ls, const JsSlot *slots, int nroles,
				const int *at, const uint8 *roles, const char *text,
				DeltaFileAction *fa, FastFields *ff)
{
	int			i;

	for (i = 0; i < nroles; i++)
	{
		const JsSlot *sl = &slots[at[i]];
		const char *t = text + sl->off;
		int64		v;

		switch (roles[i])
		{
			case LR_PATH:
				if (sl->kind != JS_SLOT_STRING || sl->len == 0)
					return false;
				ff->path = t;
				ff->path_len = (int) sl->len;
				break;
			case LR_SIZE:
			case LR_MTIME:
			case LR_BASE:
			case LR_DRCV:
				if (sl->kind == JS_SLOT_NULL &&
					(roles[i] == LR_BASE || roles[i] == LR_DRCV))
					break;
				if (sl->kind != JS_SLOT_NUMBER ||
					!line_slot_int(t, sl->len, &v))
					return false;
				if (roles[i] == LR_SIZE)
				{
					if (v < 0)
						return false;
					fa->size = v;
					fa->has_size = true;
				}
				else if (roles[i] == LR_MTIME)
				{
					fa->modification_time = v;
					fa->has_modification_time = true;
				}
				else if (roles[i] == LR_BASE)
				{
					fa->base_row_id = v;
					fa->has_base_row_id = true;
				}
				else
				{
					fa->default_row_commit_version = v;
					fa->has_default_row_commit_version = true;
				}
				break;
			case LR_DC:
				if (sl->kind != JS_SLOT_TRUE && sl->kind != JS_SLOT_FALSE)
					return false;
				fa->data_change = sl->kind == JS_SLOT_TRUE;
				break;
			case LR_DV:
				if (sl->kind != JS_SLOT_NULL)
					return false;
				break;
			default:
				{
					int			k = roles[i] - LR_PV;

					Assert(k < ls->npv);
					if (sl->kind == JS_SLOT_STRING)
					{
						ff->pvv[k] = t;
						ff->pvvl[k] = (int) sl->len;
					}
					else if (sl->kind == JS_SLOT_NULL)
						ff->pvv[k] = NULL;
					else
						return false;
				}
				break;
		}
	}
	return true;
}

/*
 * fast_add_shaped: fast_add for a line of the current line shapes; false
 * (nothing usable in *fa) when it is not one.
 */
static bool
fast_add_shaped(FastReader *r, const char *line, Size len,
				DeltaFileAction *fa, FastFields *ff)
{
	LineShapes *ls = line_shapes;
	const char *end = line + len;
	const char *p;
	size_t		consumed;
	int			k;

	if (ls == NULL || !ls->valid ||
		!js_match(&ls->pre, line, end, ls->pre_slots, &consumed, NULL, NULL))
		return false;
	p = line + consumed;
	ff->npv = ls->npv;
	for (k = 0; k < ls->npv; k++)
	{
		ff->pvk[k] = ls->pvk[k];
		ff->pvkl[k] = ls->pvkl[k];
	}
	if (!line_slots_take(ls, ls->pre_slots, ls->npre_roles, ls->pre_at,
						 ls->pre_role, line, fa, ff) ||
		!fast_stats(r, &p, end, ff) ||
		!js_match(&ls->post, p, end, ls->post_slots, &consumed, NULL, NULL) ||
		consumed != (size_t) (end - p) ||
		!line_slots_take(ls, ls->post_slots, ls->npost_roles, ls->post_at,
						 ls->post_role, p, fa, ff))
		return false;
	return true;
}

/*
 * fast_add: decode one add line of the common shape into *fa (strings in
 * b's arena); false (nothing usable in *fa) when the line is not provably
 * of that shape.  A line of the current line shapes is decoded from their
 * slots, any other by fast_add_generic (and the shapes remade from it).
 */
static bool
fast_add(FastReader *r, const char *line, Size len, DeltaFileAction *fa)
{
	FastFields	ff;

	memset(fa, 0, sizeof(*fa));
	memset(&ff, 0, sizeof(ff));
	if (fast_add_shaped(r, line, len, fa, &ff))
	{
		line_shape_misses = 0;
		fast_build(r, &ff, fa);
		return true;
	}
	/* (a declined shaped try may have set fields: start again) */
	memset(fa, 0, sizeof(*fa));
	memset(&ff, 0, sizeof(ff));
	r->deferred = false;
	if (!fast_add_generic(r, line, len, fa, &ff))
		return false;
	if (line_shape_want())
		line_shape_learn(line, len, &ff);
	fast_build(r, &ff, fa);
	return true;
}

/*
 * line_shape_key: true when the line is one of the current line shapes
 * with a valid stats value (a string of the subset, or null): then it is
 * provably exactly one add action of the subset.  fa not NULL: also every
 * slot passes its role's check, so fast_add would decode it, and *fa /
 * *ff hold its scalar fields and where its path and partition values are
 * (the stats are not decoded).
 */
static bool
line_shape_key(const char *line, Size len, DeltaFileAction *fa,
			   FastFields *ff)
{
	LineShapes *ls = line_shapes;
	const char *end = line + len;
	const char *p;
	size_t		consumed;

	if (ls == NULL || !ls->valid ||
		!js_match(&ls->pre, line, end, ls->pre_slots, &consumed, NULL, NULL))
		return false;
	p = line + consumed;
	if (fa != NULL &&
		!line_slots_take(ls, ls->pre_slots, ls->npre_roles, ls->pre_at,
						 ls->pre_role, line, fa, ff))
		return false;
	if (p < end && *p == '"')
	{
		if (!fl_skip_string(&p, end))
			return false;
	}
	else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
		p += 4;
	else
		return false;
	if (!js_match(&ls->post, p, end, ls->post_slots, &consumed, NULL, NULL) ||
		consumed != (size_t) (end - p) ||
		(fa != NULL &&
		 !line_slots_take(ls, ls->post_slots, ls->npost_roles, ls->post_at,
						  ls->post_role, p, fa, ff)))
		return false;
	line_shape_misses = 0;
	return true;
}

/*
 * line_shape_key when only the proof is wanted (a line to skip: its
 * fields are not checked, as skip_line_generic does not check them)
 */
static bool
line_shape_skip(const char *line, Size len)
{
	return line_shape_key(line, len, NULL, NULL);
}

/*
 * commit_cache_shaped_add_key: see commit_cache.h.
 */
bool
commit_cache_shaped_add_key(const char *line, Size len, const char **path,
							int *path_len, int64 *size)
{
	DeltaFileAction fa;
	FastFields	ff;

	if (!line_shape_key(line, len, &fa, &ff))
		return false;
	Assert(fa.has_size && ff.path != NULL);
	*path = ff.path;
	*path_len = ff.path_len;
	*size = fa.size;
	return true;
}

/*
 * commit_cache_shape_miss: see commit_cache.h.
 */
void
commit_cache_shape_miss(const char *line, Size len)
{
	if (line_shape_want())
		line_shape_learn_line(line, len);
}

/*
 * line_shape_learn_line: make the line shapes from an add line read only
 * to be skipped (a generic decode in a scratch context, thrown away).
 */
static void
line_shape_learn_line(const char *line, Size len)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc add line model",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	FastReader	r;
	FastFields	ff;
	DeltaFileAction fa;

	memset(&r, 0, sizeof(r));
	memset(&ff, 0, sizeof(ff));
	memset(&fa, 0, sizeof(fa));
	DeltaCommitBuilderInit(&r.b, 0);
	if (fast_add_generic(&r, line, len, &fa, &ff))
		line_shape_learn(line, len, &ff);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

#ifdef USE_ASSERT_CHECKING
/*
 * assert_fast_matches_tree: decode the line the slow way and compare with
 * the fast decoding field by field (assert-enabled builds).
 */
static void
assert_fast_matches_tree(const char *line, Size len, const DeltaFileAction *fa,
						 bool deferred)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc fast add check",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	DeltaCommitBuilder b;
	DjValue		v;
	DeltaFileAction t;
	const char *diff;

	v = DeltaLogParseLine(line, len);
	DeltaCommitBuilderInit(&b, fa->version);
	b.mode = DELTA_DECODE_ROW;
	DeltaDecodeAction(&b, &v);
	if (b.n_files != 1)
		elog(ERROR, "fast add line decoding: %d file actions in the line", b.n_files);
	t = b.files[0];
	/* an escaped match: its text unescaped is the file's */
	if (fa->stats_escaped)
	{
		DeltaFileAction *copy = palloc(sizeof(DeltaFileAction));

		*copy = *fa;
		copy->stats = dc_json_stats_escaped_text(fa->stats);
		copy->stats_escaped = false;
		fa = copy;
	}
	/* a text not kept: the file has one (commit_cache_stats_text reads it) */
	if (deferred)
	{
		if (t.stats == NULL || fa->stats != NULL)
			elog(ERROR, "fast add line decoding: statistics text not kept wrongly");
		t.stats = NULL;
	}
	diff = DeltaFileActionDiff(&t, fa);
	if (diff != NULL)
		elog(ERROR, "fast add line decoding differs from the parse tree in %s", diff);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}
#endif

/* append an entry to the line order */
static void
order_push(FastReader *r, bool fast, int index)
{
	if (r->n_order == r->cap_order)
	{
		r->cap_order = r->cap_order == 0 ? 256 : r->cap_order * 2;
		r->order = r->order == NULL ?
			MemoryContextAllocHuge(r->b.cxt, sizeof(OrderedFile) * r->cap_order) :
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
		MemoryContextAllocHuge(r->b.cxt, size * r->cap_fast) :
		repalloc_huge(arr, size * r->cap_fast);
}

/* DeltaActionLineTry: decode the line here when it is a common add */
static bool
fast_line(void *arg, const char *line, Size len, int64 offset, int64 line_no)
{
	FastReader *r = (FastReader *) arg;

	if (r->n_fast == r->cap_fast)
	{
		r->cap_fast = r->cap_fast == 0 ? Max(256, r->cap_hint) :
			r->cap_fast * 2;
		r->fast = fast_room(r, r->fast, sizeof(DeltaFileAction));
		if (r->defer)
		{
			r->def_off = fast_room(r, r->def_off, sizeof(int64));
			r->def_line = fast_room(r, r->def_line, sizeof(int64));
			r->def_len = fast_room(r, r->def_len, sizeof(int32));
		}
	}
	if (r->ps != NULL)
		delta_stats_prescan_forget(r->ps, r->n_fast);
	r->deferred = false;
	if (!fast_add(r, line, len, &r->fast[r->n_fast]))
		return false;
#ifdef USE_ASSERT_CHECKING
	assert_fast_matches_tree(line, len, &r->fast[r->n_fast], r->deferred);
#endif
	if (r->defer)
	{
		r->def_off[r->n_fast] = offset;
		r->def_line[r->n_fast] = line_no;
		r->def_len[r->n_fast] = r->deferred ? (int32) len : 0;
	}
	order_push(r, true, r->n_fast);
	r->n_fast++;
	return true;
}

/*
 * commit_cache_decode_add_line: see commit_cache.h.  fast_add with no
 * prescan and nothing deferred, on a reader borrowing b (its state is
 * given back whatever the outcome: a declined line may have moved
 * nothing but the arena's unclaimed bytes).
 */
bool
commit_cache_decode_add_line(DeltaCommitBuilder *b, const char *line,
							 Size len, DeltaFileAction *fa, bool esc_stats)
{
	FastReader	r;
	bool		ok;

	Assert(b->mode == DELTA_DECODE_ROW);
	fl_init();
	memset(&r, 0, sizeof(r));
	r.b = *b;
	r.esc_stats = esc_stats;
	ok = fast_add(&r, line, len, fa);
	*b = r.b;
	if (r.ubuf)
		pfree(r.ubuf);
#ifdef USE_ASSERT_CHECKING
	if (ok)
		assert_fast_matches_tree(line, len, fa, false);
#endif
	return ok;
}

/* DeltaActionLineCallback: any other line, as DeltaLogReadCommit does */
static void
slow_line(void *arg, const DjValue *action, int64 offset, int32 len,
		  int64 line_no)
{
	FastReader *r = (FastReader *) arg;
	int			before = r->b.n_files;
	int			k;

	DeltaDecodeAction(&r->b, action);
	for (k = before; k < r->b.n_files; k++)
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
	char	   *name;
	DeltaCommit *c;
	DeltaFileAction *files;
	int			k;

	DeltaLogCheckCommitAvailable(log, version);
	fl_init();
	name = DeltaCommitFileName(version);
	memset(&r, 0, sizeof(r));
	r.ps = ps;
	r.defer = ps != NULL && id != NULL;
	r.cap_hint = (int) Min(Max(size_hint, 0) / FAST_MIN_LINE + 1, FAST_MAX_HINT);
	DeltaCommitBuilderInit(&r.b, version);
	r.b.mode = DELTA_DECODE_ROW;
	DeltaLogScanActionFileTry(log, name, fast_line, slow_line, &r);
	c = DeltaCommitBuilderFinish(&r.b);
	if (r.ubuf)
		pfree(r.ubuf);
	*src = NULL;
	if (r.n_fast == 0)
	{
		pfree(name);
		return c;
	}
	if (r.defer)
	{
		CommitStatsSource *cs = palloc0(sizeof(CommitStatsSource));
		int			n = c->n_files == 0 ? r.n_fast : r.n_order;
		bool		any = false;

		cs->path = pstrdup(path);
		cs->name = name;
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
	if (*src == NULL)
		pfree(name);
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
	files = MemoryContextAllocHuge(r.b.cxt,
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
 * commit_cache_get_table_actions: see commit_cache.h.
 */
CommitCacheRef *
commit_cache_get_table_actions(CommitCacheScope *scope, DeltaLog *log,
							   int64 version)
{
	return cache_get(scope, log, version, true, NULL);
}

/*
 * cache_get: commit 'version' from the cache or read now.  table_only: the
 * table-level actions suffice (a full entry serves too; otherwise a
 * table-actions entry under its own key).
 */
static CommitCacheRef *
cache_get(CommitCacheScope *scope, DeltaLog *log, int64 version,
		  bool table_only, DeltaStatsPrescan *ps)
{
	char	   *name;
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

	DeltaLogCheckCommitAvailable(log, version);
	reap_graveyard();
	(void) make_room(0);		/* the limit may have been lowered */

	name = DeltaCommitFileName(version);
	path = psprintf("%s/%s", log->table_path, name);
	cacheable = cache_limit() > 0 && strlen(path) + 8 < MAXPGPATH &&
		file_identity(path, &before);

	if (cacheable && table_only)
	{
		HashItem   *item;

		/* a full decoding serves as well */
		ensure_cache();
		strlcpy(key, path, MAXPGPATH);
		item = hash_search(cache_hash, key, HASH_FIND, NULL);
		if (item != NULL && item->entry->version == version &&
			same_identity(&item->entry->id, &before))
		{
			stat_hits++;
			dlist_move_head(&cache_lru, &item->entry->node);
			pfree(name);
			pfree(path);
			return entry_ref(scope, item->entry);
		}
	}
	if (cacheable)
	{
		HashItem   *item;

		ensure_cache();
		/* the key: the file's path, "#table" appended for table actions */
		snprintf(key, MAXPGPATH, "%s%s", path, table_only ? "#table" : "");
		item = hash_search(cache_hash, key, HASH_FIND, NULL);
		if (item != NULL)
		{
			e = item->entry;
			if (e->version == version && same_identity(&e->id, &before))
			{
				stat_hits++;
				dlist_move_head(&cache_lru, &e->node);
				pfree(name);
				pfree(path);
				return entry_ref(scope, e);
			}
			/* the file changed: never serve the old decoding */
			drop_entry(e);
			stat_stale++;
		}
	}
	stat_misses++;

	/* read into a context of the call; it joins the cache only when done */
	tmp = AllocSetContextCreate(CurrentMemoryContext, "deltacc cached commit",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(tmp);
	if (table_only)
		commit = read_commit_table_actions(log, version);
	else
		commit = read_commit_fast(log, version, ps,
								  cacheable ? before.size : 0, path,
								  cacheable && !too_recent(&before) ?
								  &before : NULL, &src);
	if (!table_only)
		DeltaCommitIndexFiles(commit);
	MemoryContextSwitchTo(old);

	if (cacheable && file_identity(path, &after) &&
		same_identity(&before, &after) && !too_recent(&after))
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
			pfree(name);
			pfree(path);
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
	pfree(name);
	pfree(path);
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
	if (ld->file < 0)
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
	got = DeltaFileReadAtMost(ld->file, line, src->len[i], (off_t) src->off[i],
							  "Delta log file", src->name);
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
