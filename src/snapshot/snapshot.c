/*-------------------------------------------------------------------------
 *
 * snapshot.c
 *	  Log replay: the live files, metadata, protocol, txns and domains of a
 *	  Delta table at one version (see snapshot.h for the rules).
 *
 * Replay decodes (and so validates) every action, but keeps of each add
 * only its key, its size and where its line is (commit version, byte
 * offset, length, line number): a LiveKey of about 60 bytes plus the path.
 * Live keys sit in a simplehash keyed by (path, DV unique id).  An eager
 * snapshot then decodes the live adds again, in key order, by reading
 * their lines with pread; a lazy one does that one file at a time for its
 * caller, so snapshot_files over a million files never holds them all.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/snapshot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "common/hashfn.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/memutils.h"

#include "common/fileio.h"
#include "common/json_util.h"
#include "log/actions.h"
#include "log/fastline.h"
#include "log/log_reader.h"
#include "snapshot/addline.h"
#include "snapshot/checkpoint.h"
#include "snapshot/commit_cache.h"
#include "snapshot/snapshot.h"
#include "stats/predicate.h"
#include "stats/stats.h"
#include "storage/objstore.h"

/*
 * A live file during replay: its key, size and where its add is.  fa is set
 * when the add is already decoded in memory (checkpoint state); otherwise
 * the add is line line_no of the commit file of version sources[source].
 */
typedef struct LiveKey
{
	const char *path;
	const char *dv_uid;			/* NULL without a DV */
	DeltaFileAction *fa;
	int64		offset;
	int64		size;
	int32		len;
	int32		line_no;
	int32		source;
	bool		has_size;
	bool		live;			/* false once removed */
} LiveKey;

/*
 * Re-reading the add lines of a lazy snapshot (lazy_window_line).  Keys
 * come in path order, which in many logs interleaves a few sequential runs
 * of lines: commit files whose paths alternate, or one commit written as
 * several sorted runs (part-00000..part-99999 and again).  Each run gets a
 * read-ahead window of its own, found again by proximity (the next line
 * starts at most LAZY_SEQ_GAP bytes past the run's last one), doubling from
 * LAZY_WINDOW_MIN to LAZY_WINDOW bytes while the run goes on; a line that
 * continues no run reads just itself into the least recently used window.
 * A commit file of at most LAZY_WINDOW bytes is read whole into one window
 * instead (small commits whose paths interleave are then read once each).
 * Memory: LAZY_WINDOWS * LAZY_WINDOW bytes (a longer line gets a buffer of
 * its own size until the window is reused).  The commit files stay open in
 * a cache of LAZY_FILES virtual files, least recently used closed first.
 */
#define LAZY_WINDOWS 16
#define LAZY_WINDOW (256 * 1024)
#define LAZY_WINDOW_MIN (64 * 1024)
#define LAZY_SEQ_GAP 4096
#define LAZY_FILES 32
#define LAZY_NAME_LEN 48		/* "_delta_log/" + 20 digits + ".json" */

typedef struct LazyWindow
{
	int32		source;			/* commit (index in sources), -1: none */
	char		name[LAZY_NAME_LEN];	/* its file name */
	char	   *buf;			/* bytes [start, start + len) of the file */
	Size		cap;
	int64		start;
	Size		len;
	Size		want;			/* read-ahead size of the run */
	int64		last_end;		/* end of the line served last */
	uint64		used;			/* LRU clock */
} LazyWindow;

typedef struct LazyFile
{
	int32		source;			/* commit (index in sources), -1: none */
	File		file;			/* a virtual file: transaction abort leaves
								 * it open, lazy_close_cb closes it */
	int64		size;			/* its size when opened */
	uint64		used;			/* LRU clock */
	char	   *url;			/* in an object store: its URL (file is
								 * -1), else NULL */
	char	   *etag;			/* and its ETag then */
} LazyFile;

struct DeltaSnapshotLazy
{
	DeltaLog   *log;
	LiveKey   **keys;			/* sorted by (path, dv_uid) */
	int64	   *sources;		/* commit versions, by source index */
	bool	   *source_nan;		/* by source index: the commit's float/double
								 * statistics include NaN
								 * (delta_commit_stats_include_nan) */
	int			n_sources;
	DcArena    *arena;			/* parse trees of re-read lines */
	MemoryContext arena_owner;	/* the snapshot context */
	uint64		clock;			/* LRU clock of windows and files */
	LazyWindow	windows[LAZY_WINDOWS];
	LazyFile	files[LAZY_FILES];
	DeltaCkptCursor *ckpt_cursor;	/* checkpoint files (fa != NULL) are
									 * keys only: decode them with this */
	bool		no_tags;		/* DELTA_DECODE_FULL leaves tags out (the
								 * files of DeltaSnapshotBuild) */
	DeltaStatsPrescan *ps;		/* DeltaSnapshotBuildPrescan's prescan, or
								 * NULL */
	int64		ps_index;		/* its entry for the file being decoded */
	MemoryContextCallback close_cb;
};

/* Hash of a (path, DV unique id) key. */
static inline uint32
live_key_hash(const LiveKey *k)
{
	uint32		h = hash_bytes((const unsigned char *) k->path,
							   (int) strlen(k->path));

	if (k->dv_uid != NULL)
		h = hash_combine(h, hash_bytes((const unsigned char *) k->dv_uid,
									   (int) strlen(k->dv_uid)));
	return h;
}

/* Equality of (path, DV unique id) keys. */
static inline bool
live_key_equal(const LiveKey *a, const LiveKey *b)
{
	if (strcmp(a->path, b->path) != 0)
		return false;
	if (a->dv_uid == NULL || b->dv_uid == NULL)
		return a->dv_uid == b->dv_uid;
	return strcmp(a->dv_uid, b->dv_uid) == 0;
}

typedef struct LiveFileEntry
{
	LiveKey    *key;
	uint32		hash;
	char		status;
} LiveFileEntry;

#define SH_PREFIX livefiles
#define SH_ELEMENT_TYPE LiveFileEntry
#define SH_KEY_TYPE LiveKey *
#define SH_KEY key
#define SH_HASH_KEY(tb, key) live_key_hash(key)
#define SH_EQUAL(tb, a, b) live_key_equal(a, b)
#define SH_STORE_HASH
#define SH_GET_HASH(tb, a) a->hash
#define SH_SCOPE static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/* Order of live keys: path, then DV unique id with "no DV" first. */
static int
live_key_compare(const LiveKey *a, const LiveKey *b)
{
	int			c = strcmp(a->path, b->path);

	if (c != 0)
		return c;
	if (a->dv_uid == NULL || b->dv_uid == NULL)
		return (a->dv_uid != NULL) - (b->dv_uid != NULL);
	return strcmp(a->dv_uid, b->dv_uid);
}

/*
 * Sorting the live keys (live_key_compare's order) without a strcmp per
 * comparison: each key is sorted with its path's first 16 bytes as two
 * big-endian integers (bytes past the path's end zero).  Two paths whose
 * integers differ compare as strcmp compares them (a path that ends first
 * has a zero where the other has a byte, as strcmp sees its NUL); equal
 * integers fall back to live_key_compare.  The sort is interruptible: it
 * holds no resources, an ERROR may leave it.
 */
typedef struct SortedKey
{
	uint64		k0;				/* path bytes 0..7, big-endian */
	uint64		k1;				/* path bytes 8..15 */
	LiveKey    *key;
} SortedKey;

static inline int
sorted_key_compare(const SortedKey *a, const SortedKey *b)
{
	if (a->k0 != b->k0)
		return a->k0 < b->k0 ? -1 : 1;
	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	return live_key_compare(a->key, b->key);
}

#define ST_SORT sort_live_keys
#define ST_ELEMENT_TYPE SortedKey
#define ST_COMPARE(a, b) sorted_key_compare(a, b)
#define ST_CHECK_FOR_INTERRUPTS
#define ST_SCOPE static
#define ST_DECLARE
#define ST_DEFINE
#include "lib/sort_template.h"

/* the first 16 bytes of path (zero past its end) as two integers */
static inline void
path_prefix_key(const char *path, uint64 *k0, uint64 *k1)
{
	uint64		v[2] = {0, 0};
	int			i;

	for (i = 0; i < 16 && path[i] != '\0'; i++)
		v[i >> 3] |= (uint64) (unsigned char) path[i] << (8 * (7 - (i & 7)));
	*k0 = v[0];
	*k1 = v[1];
}

/*
 * Sort keys[0..n) by live_key_compare; a scratch array in
 * CurrentMemoryContext, freed before returning.
 */
static void
live_keys_sort(LiveKey **keys, int64 n)
{
	SortedKey  *sk;
	int64		i;

	if (n < 2)
		return;
	sk = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(SortedKey) * n);
	for (i = 0; i < n; i++)
	{
		path_prefix_key(keys[i]->path, &sk[i].k0, &sk[i].k1);
		sk[i].key = keys[i];
	}
	sort_live_keys(sk, n);
	for (i = 0; i < n; i++)
		keys[i] = sk[i].key;
	pfree(sk);
#ifdef USE_ASSERT_CHECKING
	for (i = 1; i < n; i++)
		Assert(live_key_compare(keys[i - 1], keys[i]) <= 0);
#endif
}

/*
 * Order of file actions: path (strcmp), then DV unique id with "no DV"
 * first.
 */
int
DeltaFileKeyCompare(const DeltaFileAction *a, const DeltaFileAction *b)
{
	int			c = strcmp(a->path, b->path);

	if (c != 0)
		return c;
	if (a->dv == NULL || b->dv == NULL)
		return (a->dv != NULL) - (b->dv != NULL);
	return strcmp(a->dv->unique_id, b->dv->unique_id);
}

/*
 * Where reading from_version..to_version starts (see snapshot.h).  This is
 * the one place where checkpoint state enters replay.
 */
DeltaCommit *
DeltaLogStartingState(DeltaLog *log, int64 from_version, int64 to_version,
					  int64 *first_json)
{
	return DeltaLogStartingStateExt(log, from_version, to_version, first_json,
									false);
}

/* Same, possibly with a keys-only checkpoint state (see snapshot.h). */
DeltaCommit *
DeltaLogStartingStateExt(DeltaLog *log, int64 from_version, int64 to_version,
						 int64 *first_json, bool keys_only)
{
	DeltaCommit *state;

	if (log->first_version >= 0 && from_version >= log->first_version)
	{
		*first_json = from_version;
		return NULL;
	}
	state = DeltaCheckpointReadExt(log, to_version, keys_only);
	if (state != NULL && state->version <= to_version &&
		(state->version + 1 >= log->first_version ||
		 state->version == to_version))
	{
		*first_json = state->version + 1;
		return state;
	}
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("checkpoint needed to read version " INT64_FORMAT " of Delta table \"%s\"",
				   to_version, log->table_path),
			log->first_version >= 0 ?
			errdetail("The JSON commits before version " INT64_FORMAT
					  " have been removed from the log.", log->first_version) :
			errdetail("The log holds no JSON commit files."),
			errhint("No usable checkpoint at or before version " INT64_FORMAT " was found.",
					to_version));
	return NULL;				/* keep compiler quiet */
}

/*
 * Reader features whose effect on reading the log deltacc knows.  A
 * feature not listed here may change what the log means (e.g. commits kept
 * outside _delta_log), so reading such a table is refused rather than
 * guessed.
 */
static const char *const known_reader_features[] = {
	"columnMapping",
	"deletionVectors",
	"timestampNtz",
	"v2Checkpoint",
	"vacuumProtocolCheck",
	"typeWidening",
	"typeWidening-preview",
	"variantType",
	"variantType-preview",
	"variantShredding-preview",
	NULL
};

/* Refuse protocols deltacc cannot interpret (see snapshot.h). */
void
DeltaProtocolCheckReadable(const DeltaLog *log, const DeltaProtocol *protocol)
{
	int			i;
	int			k;

	if (protocol->min_reader_version > 3)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("Delta table requires reader version %d",
					   protocol->min_reader_version),
				errdetail("Only reader versions up to 3 are supported."));
	if (protocol->min_reader_version < 3)
		return;
	for (i = 0; i < protocol->n_reader_features; i++)
	{
		if (strcmp(protocol->reader_features[i], "catalogManaged") == 0)
		{
			if (log->catalog != NULL)
				continue;		/* read through the catalog */
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("Delta table \"%s\" is catalog-managed", log->table_path),
					errdetail("Its protocol has the reader feature \"catalogManaged\": only its catalog knows which commits won."),
					errhint("Register the table with deltacc.register_table() to make this database its catalog."));
		}
		for (k = 0; known_reader_features[k] != NULL; k++)
			if (strcmp(protocol->reader_features[i], known_reader_features[k]) == 0)
				break;
		if (known_reader_features[k] == NULL)
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("Delta table requires unsupported reader feature \"%s\"",
						   protocol->reader_features[i]));
	}
}

/* Replay state. */
typedef struct ReplayState
{
	livefiles_hash *live;
	LiveKey   **order;			/* every key made, in log order (dead ones
								 * too) */
	int64		n_order;
	int64		cap_order;
	DeltaStrArena strings;		/* key strings (snapshot context) */
	DeltaCommitBuilder meta;	/* metaData, protocol, txn, domains (snapshot
								 * context) */
	int32		source;			/* index of the commit being replayed */
	int64		version;
	bool		ci_nan;			/* its (last) commitInfo passes
								 * delta_commit_stats_include_nan */
	bool		add_dv;			/* one of its adds has a deletion vector */
	MemoryContext cxt;			/* snapshot context */
	char	   *fbuf;			/* fl_file_key's strings (snapshot context) */
	Size		fbuf_cap;
} ReplayState;

/* Apply one add or remove to the live set. */
static void
replay_file(ReplayState *rs, DeltaFileAction *fa, bool in_memory,
			int64 offset, int32 len, int64 line_no)
{
	LiveKey		probe;
	LiveFileEntry *e;
	bool		found;

	probe.path = fa->path;
	probe.dv_uid = fa->dv ? fa->dv->unique_id : NULL;
	if (fa->kind == DELTA_FILE_REMOVE)
	{
		e = livefiles_lookup(rs->live, &probe);
		if (e != NULL)
		{
			e->key->live = false;
			livefiles_delete_item(rs->live, e);
		}
		return;
	}
	if (fa->kind != DELTA_FILE_ADD)
		return;
	if (fa->dv != NULL)
		rs->add_dv = true;
	e = livefiles_insert(rs->live, &probe, &found);
	if (!found)
	{
		LiveKey    *k = MemoryContextAlloc(rs->cxt, sizeof(LiveKey));

		if (in_memory)
		{
			k->path = fa->path;
			k->dv_uid = probe.dv_uid;
		}
		else
		{
			k->path = DeltaArenaStrndup(&rs->strings, fa->path, strlen(fa->path));
			k->dv_uid = probe.dv_uid ?
				DeltaArenaStrndup(&rs->strings, probe.dv_uid, strlen(probe.dv_uid)) : NULL;
		}
		k->live = true;
		e->key = k;
		if (rs->n_order == rs->cap_order)
		{
			rs->cap_order = rs->cap_order == 0 ? 1024 : rs->cap_order * 2;
			rs->order = rs->order == NULL ?
				MemoryContextAllocHuge(rs->cxt, sizeof(LiveKey *) * rs->cap_order) :
				repalloc_huge(rs->order, sizeof(LiveKey *) * rs->cap_order);
		}
		rs->order[rs->n_order++] = k;
	}
	/* the newer add replaces an older one of the same key */
	e->key->fa = in_memory ? fa : NULL;
	e->key->offset = offset;
	e->key->len = len;
	e->key->line_no = (int32) Min(line_no, PG_INT32_MAX);
	e->key->source = rs->source;
	e->key->has_size = fa->has_size;
	e->key->size = fa->size;
}

/*
 * DeltaLogScanActionFileTry callback of replay for the lines
 * replay_fast_line declines: decode the line (which validates it); file
 * actions go to the live set, everything else but commitInfo is decoded
 * again into the long-lived builder.
 */
static void
replay_line_cb(void *arg, const DjValue *action, int64 offset, int32 len,
			   int64 line_no)
{
	ReplayState *rs = (ReplayState *) arg;
	DeltaCommitBuilder scratch;
	int			i;

	DeltaCommitBuilderInit(&scratch, rs->version);	/* line context */
	scratch.mode = DELTA_DECODE_KEYS;
	DeltaDecodeAction(&scratch, action);
	for (i = 0; i < scratch.n_files; i++)
		replay_file(rs, &scratch.files[i], false, offset, len, line_no);
	if (scratch.commit_info != NULL)
	{
		/* the last one counts, as for a DeltaCommit; adds_with_dv later */
		rs->ci_nan = delta_commit_stats_include_nan(scratch.commit_info,
													false);
	}
	if (scratch.metadata || scratch.protocol || scratch.n_txns > 0 ||
		scratch.n_domains > 0)
	{
		/* the builder allocates what it keeps in its own (snapshot) context */
		DeltaDecodeAction(&rs->meta, action);
		rs->meta.n_files = 0;	/* files were handled above */
		rs->meta.commit_info = NULL;
	}
}

#ifdef USE_ASSERT_CHECKING
/*
 * check_fast_key: decode the line the full way (djson, DeltaDecodeAction in
 * DELTA_DECODE_KEYS mode) and compare with what replay_fast_line made of it;
 * ERROR on any difference (assert-enabled builds).  Memory in a temporary
 * context.
 */
static void
check_fast_key(ReplayState *rs, const char *line, Size len,
			   const DeltaFileAction *fast)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc fast key check",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	DeltaCommitBuilder b;
	DjValue		v;
	const DeltaFileAction *t;
	const char *tuid;
	const char *fuid;

	v = DeltaLogParseLine(line, len);
	DeltaCommitBuilderInit(&b, rs->version);
	b.mode = DELTA_DECODE_KEYS;
	DeltaDecodeAction(&b, &v);
	if (b.n_files != 1 || b.metadata || b.protocol || b.commit_info ||
		b.n_txns > 0 || b.n_domains > 0 || b.n_sidecars > 0)
		elog(ERROR, "fast replay line decoding differs: %d file actions",
			 b.n_files);
	t = &b.files[0];
	tuid = t->dv ? t->dv->unique_id : NULL;
	fuid = fast->dv ? fast->dv->unique_id : NULL;
	if (t->kind != fast->kind || strcmp(t->path, fast->path) != 0 ||
		(tuid == NULL) != (fuid == NULL) ||
		(tuid != NULL && strcmp(tuid, fuid) != 0) ||
		t->has_size != fast->has_size ||
		(t->has_size && t->size != fast->size))
		elog(ERROR, "fast replay line decoding differs: kind %d/%d path \"%s\"/\"%s\" dv \"%s\"/\"%s\" size %d:" INT64_FORMAT "/%d:" INT64_FORMAT,
			 (int) t->kind, (int) fast->kind, t->path, fast->path,
			 tuid ? tuid : "", fuid ? fuid : "",
			 (int) t->has_size, t->size, (int) fast->has_size, fast->size);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}
#endif

/*
 * DeltaLogScanActionFileTry callback of replay: an add or remove line that
 * fl_file_key decodes (see fastline.c for what it proves) goes straight to
 * the live set, without a parse tree; false for any other line, which
 * replay_line_cb then decodes the full way.
 */
static bool
replay_fast_line(void *arg, const char *line, Size len, int64 offset,
				 int64 line_no)
{
	ReplayState *rs = (ReplayState *) arg;
	FlFileKey	k;
	DeltaFileAction fa;
	DeltaDV		dv;
	char	   *uid = NULL;
	const char *spath;
	int			spath_len;
	int64		ssize;

	if (rs->fbuf_cap < len + 2)
	{
		if (rs->fbuf)
			pfree(rs->fbuf);
		rs->fbuf_cap = Max(len + 2, 2 * rs->fbuf_cap);
		rs->fbuf = MemoryContextAllocHuge(rs->cxt, rs->fbuf_cap);
	}
	if (addline_shaped_key(line, len, &spath, &spath_len, &ssize))
	{
		/* an add line of the repeated layout (addline.c) */
		memset(&k, 0, sizeof(k));
		memcpy(rs->fbuf, spath, spath_len);
		rs->fbuf[spath_len] = '\0';
		k.path = rs->fbuf;
		k.has_size = true;
		k.size = ssize;
	}
	else
	{
		if (!fl_file_key(line, len, rs->fbuf, &k))
			return false;
		if (!k.remove)
			addline_shape_miss(line, len);
	}
	memset(&fa, 0, sizeof(fa));
	fa.kind = k.remove ? DELTA_FILE_REMOVE : DELTA_FILE_ADD;
	fa.version = rs->version;
	fa.path = (char *) k.path;
	fa.has_size = k.has_size;
	fa.size = k.has_size ? k.size : 0;
	if (k.has_dv)
	{
		/* the unique id exactly as decode_dv builds it */
		memset(&dv, 0, sizeof(dv));
		dv.storage_type = k.dv_storage_type;
		dv.path_or_inline = (char *) k.dv_path_or_inline;
		dv.has_offset = k.dv_has_offset;
		dv.offset = k.dv_offset;
		uid = DeltaDVUniqueId(&dv);
		dv.unique_id = uid;
		fa.dv = &dv;
	}
#ifdef USE_ASSERT_CHECKING
	check_fast_key(rs, line, len, &fa);
#endif
	replay_file(rs, &fa, false, offset, (int32) len, line_no);
	if (uid)
		pfree(uid);
	return true;
}

/* Order for txns: app_id, then position (stable). */
typedef struct IndexedTxn
{
	DeltaTxn	t;
	int			pos;
} IndexedTxn;

typedef struct IndexedDomain
{
	DeltaDomain d;
	int			pos;
} IndexedDomain;

static int
cmp_indexed_txn(const void *a, const void *b)
{
	const IndexedTxn *x = a;
	const IndexedTxn *y = b;
	int			c = strcmp(x->t.app_id, y->t.app_id);

	return c != 0 ? c : x->pos - y->pos;
}

static int
cmp_indexed_domain(const void *a, const void *b)
{
	const IndexedDomain *x = a;
	const IndexedDomain *y = b;
	int			c = strcmp(x->d.domain, y->d.domain);

	return c != 0 ? c : x->pos - y->pos;
}

/*
 * Keep the latest txn per appId from the starting state's txns followed by
 * the replayed ones.
 */
static void
finish_txns(DeltaSnapshot *snap, const DeltaCommit *start,
			const DeltaCommitBuilder *meta)
{
	int			n = (start ? start->n_txns : 0) + meta->n_txns;
	IndexedTxn *all;
	int			i,
				k = 0;

	if (n == 0)
		return;
	all = palloc(sizeof(IndexedTxn) * n);
	for (i = 0; start && i < start->n_txns; i++, k++)
		all[k].t = start->txns[i], all[k].pos = k;
	for (i = 0; i < meta->n_txns; i++, k++)
		all[k].t = meta->txns[i], all[k].pos = k;
	qsort(all, n, sizeof(IndexedTxn), cmp_indexed_txn);
	snap->txns = palloc(sizeof(DeltaTxn) * n);
	for (i = 0; i < n; i++)
		if (i + 1 == n || strcmp(all[i].t.app_id, all[i + 1].t.app_id) != 0)
			snap->txns[snap->n_txns++] = all[i].t;
	pfree(all);
}

/* Keep the latest action per domain (tombstones included). */
static void
finish_domains(DeltaSnapshot *snap, const DeltaCommit *start,
			   const DeltaCommitBuilder *meta)
{
	int			n = (start ? start->n_domains : 0) + meta->n_domains;
	IndexedDomain *all;
	int			i,
				k = 0;

	if (n == 0)
		return;
	all = palloc(sizeof(IndexedDomain) * n);
	for (i = 0; start && i < start->n_domains; i++, k++)
		all[k].d = start->domains[i], all[k].pos = k;
	for (i = 0; i < meta->n_domains; i++, k++)
		all[k].d = meta->domains[i], all[k].pos = k;
	qsort(all, n, sizeof(IndexedDomain), cmp_indexed_domain);
	snap->domains = palloc(sizeof(DeltaDomain) * n);
	for (i = 0; i < n; i++)
		if (i + 1 == n || strcmp(all[i].d.domain, all[i + 1].d.domain) != 0)
			snap->domains[snap->n_domains++] = all[i].d;
	pfree(all);
}

/*
 * Memory context reset callback: close the cached commit files (virtual
 * files, which no transaction abort has closed behind its back).
 */
static void
lazy_close_cb(void *arg)
{
	DeltaSnapshotLazy *lz = (DeltaSnapshotLazy *) arg;
	int			i;

	for (i = 0; i < LAZY_FILES; i++)
	{
		if (lz->files[i].file >= 0)
			FileClose(lz->files[i].file);
		lz->files[i].source = -1;
		lz->files[i].file = -1;
	}
	/* the checkpoint cursor closes its file with its own context */
}

/* Whether the decoded add fa is the file of live key k: path and DV id. */
static bool
lazy_key_matches(const DeltaFileAction *fa, const LiveKey *k)
{
	if (strcmp(fa->path, k->path) != 0)
		return false;
	if (fa->dv == NULL || k->dv_uid == NULL)
		return fa->dv == NULL && k->dv_uid == NULL;
	return strcmp(fa->dv->unique_id, k->dv_uid) == 0;
}

/* ERROR: a commit file read again is not the one replayed. */
static void
lazy_log_changed(const char *name)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("Delta log file \"%s\" changed while it was being read", name));
}

/* ERROR: the checkpoint read again is not the one replayed. */
static void
lazy_checkpoint_changed(int64 version)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("Delta checkpoint at version " INT64_FORMAT " changed while it was being read",
				   version));
}

/*
 * The snapshot started from a keys-only checkpoint state: the live keys
 * that still come from it (fa set, offset = index in start->files) have no
 * stats.  When, in key order, those indexes only grow (checkpoints written
 * in path order), a cursor reads them in one pass as they are fetched;
 * otherwise the checkpoint is read again whole, fully decoded (as without
 * keys_only), and the keys point into that.  Either way each key must find
 * its own file (path and DV id) at its index, else the checkpoint changed
 * between the reads (ERRCODE_DATA_CORRUPTED).
 */
static void
lazy_checkpoint_files(DeltaSnapshot *snap, DeltaCommit *start)
{
	DeltaSnapshotLazy *lz = snap->lazy;
	int64		last = -1;
	int64		i;
	DeltaCommit *full;

	for (i = 0; i < snap->n_files; i++)
	{
		const LiveKey *k = lz->keys[i];

		if (k->fa == NULL)
			continue;
		if (k->offset <= last)
			break;
		last = k->offset;
	}
	if (i == snap->n_files)
	{
		lz->ckpt_cursor = DeltaCheckpointCursorOpen(lz->log, start);
		return;
	}
	full = DeltaCheckpointReadFull(lz->log, start);
	if (full->n_files != start->n_files)
		lazy_checkpoint_changed(start->version);
	for (i = 0; i < snap->n_files; i++)
	{
		LiveKey    *k = lz->keys[i];

		CHECK_FOR_INTERRUPTS();
		if (k->fa == NULL)
			continue;
		/* the same file at the same place, as the cursor checks */
		if (!lazy_key_matches(&full->files[k->offset], k))
			lazy_checkpoint_changed(start->version);
		k->fa = &full->files[k->offset];
	}
}

/*
 * Replay the log up to 'version' (-1 = latest) into a lazy snapshot, in a
 * new child context of CurrentMemoryContext.  keys_only: a Parquet
 * checkpoint is first read for its keys alone (the files are decoded again
 * as they are fetched); else it is decoded whole once, for a caller that
 * fetches every file anyway.
 */
static DeltaSnapshot *
build_lazy(DeltaLog *log, int64 version, bool keys_only)
{
	MemoryContext cxt;
	MemoryContext old;
	DeltaSnapshot *snap;
	DeltaSnapshotLazy *lz;
	ReplayState rs;
	DeltaCommit *start;
	int64		first_json;
	int64		v;
	int64		n;
	int64		k;
	int			i;

	if (version < 0)
		version = log->latest_version;
	if (version < 0 || version > log->latest_version)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("Delta table version " INT64_FORMAT " does not exist", version),
				errdetail("The latest version is " INT64_FORMAT ".", log->latest_version));

	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc snapshot",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	snap = palloc0(sizeof(DeltaSnapshot));
	snap->cxt = cxt;
	snap->version = version;
	snap->checkpoint_version = -1;
	lz = palloc0(sizeof(DeltaSnapshotLazy));
	lz->log = log;
	for (i = 0; i < LAZY_WINDOWS; i++)
		lz->windows[i].source = -1;
	for (i = 0; i < LAZY_FILES; i++)
	{
		lz->files[i].source = -1;
		lz->files[i].file = -1;
	}
	lz->close_cb.func = lazy_close_cb;
	lz->close_cb.arg = lz;
	lz->arena = dc_arena_create(cxt);
	lz->arena_owner = cxt;
	MemoryContextRegisterResetCallback(cxt, &lz->close_cb);
	snap->lazy = lz;

	memset(&rs, 0, sizeof(rs));
	rs.cxt = cxt;
	rs.strings.cxt = cxt;
	rs.live = livefiles_create(cxt, 1024, NULL);
	DeltaCommitBuilderInit(&rs.meta, -1);

	start = DeltaLogStartingStateExt(log, 0, version, &first_json, keys_only);
	if (start != NULL)
	{
		snap->checkpoint_version = start->version;
		rs.source = -1;
		for (i = 0; i < start->n_files; i++)
		{
			CHECK_FOR_INTERRUPTS();
			replay_file(&rs, &start->files[i], true, i, 0, 0);
		}
	}
	lz->n_sources = (int) Max(version - first_json + 1, 0);
	lz->sources = palloc(sizeof(int64) * Max(lz->n_sources, 1));
	lz->source_nan = palloc0(sizeof(bool) * Max(lz->n_sources, 1));
	for (v = first_json; v <= version; v++)
	{
		CHECK_FOR_INTERRUPTS();
		rs.source = (int32) (v - first_json);
		rs.version = v;
		rs.meta.version = v;
		rs.ci_nan = false;
		rs.add_dv = false;
		lz->sources[rs.source] = v;
		MemoryContextSwitchTo(old);
		DeltaLogScanCommitTry(log, v, replay_fast_line, replay_line_cb, &rs);
		MemoryContextSwitchTo(cxt);
		/* delta_commit_stats_include_nan(ci, adds_with_dv) of the commit */
		lz->source_nan[rs.source] = rs.ci_nan && !rs.add_dv;
	}

	snap->metadata = rs.meta.metadata ? rs.meta.metadata : (start ? start->metadata : NULL);
	snap->protocol = rs.meta.protocol ? rs.meta.protocol : (start ? start->protocol : NULL);
	if (snap->protocol == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Delta table has no protocol action at version " INT64_FORMAT, version));
	if (snap->metadata == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Delta table has no metaData action at version " INT64_FORMAT, version));
	DeltaProtocolCheckReadable(log, snap->protocol);

	/*
	 * The survivors in log order, then sorted: logs written in path order
	 * (common) are recognised as sorted by the sort's presorted check.
	 */
	lz->keys = MemoryContextAllocHuge(cxt, sizeof(LiveKey *) *
									  Max(rs.live->members, 1));
	n = 0;
	for (k = 0; k < rs.n_order; k++)
	{
		LiveKey    *key = rs.order[k];

		if (!key->live)
			continue;
		lz->keys[n++] = key;
		if (key->has_size)
			snap->size_bytes += key->size;
	}
	Assert(n == rs.live->members);
	snap->n_files = n;
	livefiles_destroy(rs.live);
	if (rs.order)
		pfree(rs.order);
	if (rs.fbuf)
		pfree(rs.fbuf);
	live_keys_sort(lz->keys, n);
	if (start != NULL && start->ckpt_keys_only)
		lazy_checkpoint_files(snap, start);

	finish_txns(snap, start, &rs.meta);
	finish_domains(snap, start, &rs.meta);

	MemoryContextSwitchTo(old);
	return snap;
}

/*
 * Replay the log up to 'version' (-1 = latest) into a lazy snapshot (see
 * snapshot.h), in a new child context of CurrentMemoryContext.
 */
DeltaSnapshot *
DeltaSnapshotBuildLazy(DeltaLog *log, int64 version)
{
	return build_lazy(log, version, true);
}

/*
 * The open file of commit 'source' (file name 'name'), from the cache of
 * open files (opening it, and closing the least recently used one, when it
 * is not there).  The entry belongs to the cache: valid until the next call.
 */
static LazyFile *
lazy_source_file(DeltaSnapshotLazy *lz, int32 source, const char *name)
{
	char	   *abs_path;
	struct stat st;

	LazyFile   *lru = NULL;
	int			i;

	for (i = 0; i < LAZY_FILES; i++)
	{
		LazyFile   *f = &lz->files[i];

		if (f->source == source)
		{
			f->used = lz->clock;
			return f;
		}
		if (lru == NULL || f->used < lru->used)
			lru = f;
	}
	if (lru->file >= 0)
		FileClose(lru->file);
	lru->source = -1;
	lru->file = -1;
	abs_path = psprintf("%s/%s", lz->log->table_path, name);
	if (storage_is_remote(abs_path))
	{
		StorageObjectInfo info;

		storage_stat_existing(abs_path, "Delta log file", name, &info);
		if (lru->url != NULL)
			pfree(lru->url);
		if (lru->etag != NULL)
			pfree(lru->etag);
		lru->url = MemoryContextStrdup(lz->arena_owner, abs_path);
		lru->etag = MemoryContextStrdup(lz->arena_owner, info.etag);
		st.st_size = (off_t) info.size;
	}
	else
		lru->file = DeltaOpenRegularVfd(abs_path, "Delta log file", name, &st);
	pfree(abs_path);
	lru->size = (int64) st.st_size;
	lru->source = source;
	lru->used = lz->clock;
	return lru;
}

/*
 * The line of live key k, from a read-ahead window (see LazyWindow above);
 * *name is set to its commit file's name (owned by the snapshot).  The
 * result points into the window (valid until the next call) and is not
 * NUL-terminated.  A file shorter than the line says is
 * ERRCODE_DATA_CORRUPTED ("changed while it was being read").
 */
static const char *
lazy_window_line(DeltaSnapshotLazy *lz, const LiveKey *k, const char **name)
{
	int64		end = k->offset + k->len;
	LazyWindow *run = NULL;
	LazyWindow *lru = NULL;
	LazyWindow *w;
	LazyFile   *f;
	int64		start;
	Size		want;
	Size		got;
	int			i;

	lz->clock++;
	if (DeltaLogRatified(lz->log, lz->sources[k->source]) != NULL)
	{
		Size		len;
		bool		is_file;
		const char *bytes = DeltaLogRatifiedBytes(lz->log,
												  lz->sources[k->source],
												  &len, name, &is_file);

		/* the catalog's copy: in memory, never changed */
		if (end > (int64) len)
			lazy_log_changed(*name);
		return bytes + k->offset;
	}
	for (i = 0; i < LAZY_WINDOWS; i++)
	{
		w = &lz->windows[i];
		if (w->source == k->source)
		{
			if (k->offset >= w->start && end <= w->start + (int64) w->len)
			{
				w->last_end = end;
				w->used = lz->clock;
				*name = w->name;
				return w->buf + (k->offset - w->start);
			}
			/* the run this line continues: the nearest one before it */
			if (k->offset >= w->last_end &&
				k->offset - w->last_end <= LAZY_SEQ_GAP &&
				(run == NULL || w->last_end > run->last_end))
				run = w;
		}
		if (lru == NULL || w->used < lru->used)
			lru = w;
	}
	if (run != NULL)
	{
		w = run;
		w->want = Min(Max(w->want * 2, (Size) LAZY_WINDOW_MIN),
					  (Size) LAZY_WINDOW);
	}
	else
	{
		w = lru;
		w->want = 0;
		if (w->source != k->source)
		{
			char	   *fresh = DeltaCommitFileName(lz->sources[k->source]);

			w->source = -1;
			Assert(strlen(fresh) < LAZY_NAME_LEN);
			strlcpy(w->name, fresh, LAZY_NAME_LEN);
			pfree(fresh);
		}
	}
	w->source = k->source;
	w->len = 0;
	w->used = lz->clock;
	f = lazy_source_file(lz, k->source, w->name);
	if (f->size <= LAZY_WINDOW && end <= f->size)
	{
		start = 0;				/* a small file: all of it */
		want = (Size) f->size;
	}
	else
	{
		start = k->offset;
		want = Max((Size) k->len, w->want);
	}
	if (want > w->cap || (w->cap > LAZY_WINDOW && want <= LAZY_WINDOW))
	{
		/*
		 * First use (the whole LAZY_WINDOW at once: buffers that grow step
		 * by step make malloc move its mmap threshold and slow down every
		 * other allocation of the scan), a longer line, or back from one.
		 */
		if (w->buf != NULL)
			pfree(w->buf);
		w->buf = NULL;
		w->cap = 0;
		w->buf = MemoryContextAllocHuge(lz->arena_owner,
										Max(want, (Size) LAZY_WINDOW));
		w->cap = Max(want, (Size) LAZY_WINDOW);
	}
	if (f->file < 0)
		got = storage_read_range(f->url, f->etag, "Delta log file", w->name,
								 w->buf, want, (uint64) start);
	else
		got = DeltaFileReadAtMost(f->file, w->buf, want, (off_t) start,
								  "Delta log file", w->name);
	if (start + (int64) got < end)
		lazy_log_changed(w->name);
	w->start = start;
	w->len = got;
	w->last_end = end;
	*name = w->name;
	return w->buf + (k->offset - start);
}


/* a stats text's numRecords through DeltaStatsFieldsFromJson (a peek) */
static void
stats_fields_peek(void *arg, const DjValue *v)
{
	DeltaStatsFieldsFromJson((DeltaFileAction *) arg, v);
}

/*
 * Set fa->has_num_records / num_records / tight_bounds from hdr, the
 * statistics scanner's header of fa->stats (assert-enabled builds check it
 * against a parse, as stats_header_fields).
 */
static void
stats_header_set(DeltaFileAction *fa, const DeltaStatsHeader *hdr)
{
	fa->has_num_records = hdr->has_num_records;
	fa->num_records = hdr->has_num_records ? hdr->num_records : 0;
	fa->tight_bounds = hdr->tight_bounds;
#ifdef USE_ASSERT_CHECKING
	{
		DeltaFileAction ref;

		memset(&ref, 0, sizeof(ref));
		ref.tight_bounds = -1;
		(void) dc_json_peek(fa->stats, strlen(fa->stats), stats_fields_peek,
							&ref);
		Assert(ref.has_num_records == fa->has_num_records &&
			   ref.num_records == fa->num_records &&
			   ref.tight_bounds == fa->tight_bounds);
	}
#endif
}

/*
 * Set fa->has_num_records / num_records / tight_bounds from fa->stats as
 * DELTA_DECODE_FULL sets them: with the statistics scanner, or (a text
 * outside its subset) from a parse.  Nothing stays allocated.
 */
static void
stats_header_fields(DeltaFileAction *fa)
{
	DeltaStatsHeader hdr;
	size_t		len = strlen(fa->stats);

	if (delta_stats_scan_header(fa->stats, len, &hdr))
		stats_header_set(fa, &hdr);
	else
		(void) dc_json_peek(fa->stats, len, stats_fields_peek, fa);
}

/*
 * Decode the add behind a live key into CurrentMemoryContext, reading its
 * line again from its commit file (lazy_window_line).
 */
static DeltaFileAction *
lazy_read_file(DeltaSnapshot *snap, const LiveKey *k, DeltaDecodeMode mode)
{
	DeltaSnapshotLazy *lz = snap->lazy;
	int64		version = lz->sources[k->source];
	const char *name;
	const char *line;
	DeltaErrorPosition errpos;
	DeltaCommitBuilder b;
	DjValue		v;
	int			i;
	const DeltaRatifiedCommit *rc = DeltaLogRatified(lz->log, version);

	line = lazy_window_line(lz, k, &name);
	if (rc != NULL && rc->staged_path == NULL)
		DeltaErrorContextPushLabel(&errpos, name);	/* an inline commit */
	else
		DeltaErrorContextPush(&errpos, name);
	errpos.line = k->line_no;
	DeltaCommitBuilderInit(&b, version);
	b.mode = mode;
	/*
	 * Room for the line's strings up front: decoded, they are no longer
	 * than the line plus a NUL each, so the row needs one block only.
	 * Should it not do, the arena takes a block as usual.
	 */
	DeltaArenaNewBlock(&b.strings, (size_t) k->len + 64);
	if (mode == DELTA_DECODE_FULL && lz->no_tags)
	{
		/*
		 * An add line of the common shape decoded as DELTA_DECODE_ROW, then
		 * numRecords and tightBounds taken from its statistics as
		 * DELTA_DECODE_FULL takes them: the file without its tags.
		 */
		DeltaFileAction *fa = palloc(sizeof(DeltaFileAction));
		bool		ok;

		b.mode = DELTA_DECODE_ROW;
		if (lz->ps != NULL)
			ok = addline_decode_row_prescan(&b, line, k->len, fa, lz->ps,
											(int) lz->ps_index);
		else
			ok = addline_decode_row(&b, line, k->len, fa, false);
		b.mode = mode;
		if (ok)
		{
			DeltaStatsHeader hdr;

			DeltaErrorContextPop(&errpos);
			if (!lazy_key_matches(fa, k))
				lazy_log_changed(name);
			if (fa->stats != NULL && lz->ps != NULL &&
				delta_stats_prescan_header(lz->ps, (int) lz->ps_index, &hdr))
				stats_header_set(fa, &hdr);
			else if (fa->stats != NULL)
				stats_header_fields(fa);
			return fa;
		}
		pfree(fa);
	}
	if (mode == DELTA_DECODE_ROW)
	{
		/* an add line of the common shape: no parse tree (addline.c) */
		DeltaFileAction *fa = palloc(sizeof(DeltaFileAction));

		if (addline_decode_row(&b, line, k->len, fa, true))
		{
			DeltaErrorContextPop(&errpos);
			if (!lazy_key_matches(fa, k))
				lazy_log_changed(name);
			return fa;
		}
		pfree(fa);
	}
	v = DeltaLogParseLineArena(lz->arena, line, k->len);
	DeltaDecodeAction(&b, &v);
	DeltaErrorContextPop(&errpos);
	for (i = 0; i < b.n_files; i++)
	{
		DeltaFileAction *fa = &b.files[i];

		if (fa->kind == DELTA_FILE_ADD && lazy_key_matches(fa, k))
		{
			if (mode == DELTA_DECODE_FULL && lz->no_tags)
				fa->tags_json = NULL;
			return fa;
		}
	}
	lazy_log_changed(name);
	return NULL;				/* keep compiler quiet */
}

/*
 * Decode the checkpoint file behind a live key with the snapshot's cursor
 * into CurrentMemoryContext; ERROR when it is not the key's file.
 */
static DeltaFileAction *
lazy_checkpoint_file(DeltaSnapshot *snap, const LiveKey *k, DeltaDecodeMode mode)
{
	DeltaFileAction *fa = DeltaCheckpointCursorGet(snap->lazy->ckpt_cursor,
												   k->offset, mode);

	if (!lazy_key_matches(fa, k))
		lazy_checkpoint_changed(snap->checkpoint_version);
	return fa;
}

/* The i-th live file's path (see snapshot.h). */
const char *
DeltaSnapshotFilePath(const DeltaSnapshot *snap, int64 i)
{
	Assert(i >= 0 && i < snap->n_files);
	if (snap->files != NULL)
		return snap->files[i]->path;
	return snap->lazy->keys[i]->path;
}

/* The i-th live file (see snapshot.h). */
DeltaFileAction *
DeltaSnapshotGetFile(DeltaSnapshot *snap, int64 i)
{
	return DeltaSnapshotGetFileExt(snap, i, false);
}

/* The i-th live file, optionally with stats fields left unextracted. */
DeltaFileAction *
DeltaSnapshotGetFileExt(DeltaSnapshot *snap, int64 i, bool defer_stats)
{
	const LiveKey *k;
	DeltaFileAction *fa;

	Assert(i >= 0 && i < snap->n_files);
	/* a statistics match of the previous file is spent (its line may go) */
	dc_json_stats_escaped_forget();
	if (snap->files != NULL)
		return snap->files[i];
	k = snap->lazy->keys[i];
	if (k->fa != NULL)
	{
		/* from the checkpoint: its writer is not known */
		fa = snap->lazy->ckpt_cursor != NULL ?
			lazy_checkpoint_file(snap, k, defer_stats ? DELTA_DECODE_ROW
								 : DELTA_DECODE_FULL) : k->fa;
		fa->stats_include_nan = false;
		return fa;
	}
	fa = lazy_read_file(snap, k, defer_stats ? DELTA_DECODE_ROW
						: DELTA_DECODE_FULL);
	fa->stats_include_nan = snap->lazy->source_nan[k->source];
	return fa;
}

/*
 * Build the snapshot at 'version' (-1 = latest) with every live file
 * decoded (snap->files), in a new child context of CurrentMemoryContext.
 */
DeltaSnapshot *
DeltaSnapshotBuild(DeltaLog *log, int64 version)
{
	return DeltaSnapshotBuildPrescan(log, version, NULL, NULL);
}

/*
 * DeltaSnapshotBuildPrescan: see snapshot.h.  Only the JSON commits' add
 * lines the add-line decoder takes are prescanned (entries below PG_INT32_MAX);
 * every other file's entry stays unanswered.
 */
DeltaSnapshot *
DeltaSnapshotBuildPrescan(DeltaLog *log, int64 version,
						  DeltaSnapshotPrescanFn prescan_fn, void *arg)
{
	DeltaSnapshot *snap = build_lazy(log, version, false);
	DeltaStatsPrescan *ps = NULL;
	MemoryContext old;
	int64		i;
	DeltaFileAction **files;

	if (prescan_fn != NULL && snap->n_files > 0)
		ps = prescan_fn(arg, snap->metadata);
	old = MemoryContextSwitchTo(snap->cxt);
	snap->lazy->no_tags = true;

	files = MemoryContextAllocHuge(snap->cxt, sizeof(DeltaFileAction *) *
								   Max(snap->n_files, 1));
	for (i = 0; i < snap->n_files; i++)
	{
		CHECK_FOR_INTERRUPTS();
		snap->lazy->ps = i < PG_INT32_MAX ? ps : NULL;
		snap->lazy->ps_index = i;
		files[i] = DeltaSnapshotGetFile(snap, i);	/* snap->files still NULL */
	}
	snap->lazy->ps = NULL;
	if (ps != NULL)
		delta_stats_prescan_finish(ps, (int) Min(snap->n_files, PG_INT32_MAX), NULL);
	snap->files = files;
	lazy_close_cb(snap->lazy);
	for (i = 0; i < LAZY_WINDOWS; i++)
	{
		LazyWindow *w = &snap->lazy->windows[i];

		if (w->buf != NULL)
			pfree(w->buf);
		w->buf = NULL;
		w->cap = w->len = 0;
		w->source = -1;
	}
	if (snap->lazy->ckpt_cursor != NULL)
		DeltaCheckpointCursorClose(snap->lazy->ckpt_cursor);
	MemoryContextSwitchTo(old);
	return snap;
}

/* Release a snapshot and everything it owns (closes its open files). */
void
DeltaSnapshotFree(DeltaSnapshot *snap)
{
	MemoryContextDelete(snap->cxt);
}

/* ---------------------------------------------------------------------
 * Advancing a snapshot by commits (DeltaSnapshotAdvance)
 * ---------------------------------------------------------------------
 */

/* NULL-safe copy of a string into the arena. */
static char *
adv_strdup(DeltaStrArena *a, const char *s)
{
	return s ? DeltaArenaStrndup(a, s, strlen(s)) : NULL;
}

/* A copy of n strings (entries may be NULL) into the arena; NULL for none. */
static char **
adv_strvec(DeltaStrArena *a, char *const *v, int n)
{
	char	  **out;
	int			i;

	if (v == NULL || n <= 0)
		return NULL;
	out = palloc(sizeof(char *) * n);
	for (i = 0; i < n; i++)
		out[i] = adv_strdup(a, v[i]);
	return out;
}

/*
 * Deep copy of file action src into *dst (strings in the arena, arrays in
 * CurrentMemoryContext); tags are not kept.
 */
static void
adv_copy_file(DeltaStrArena *a, DeltaFileAction *dst, const DeltaFileAction *src)
{
	Assert(!src->stats_escaped);
	*dst = *src;
	dst->path = adv_strdup(a, src->path);
	dst->pv.keys = adv_strvec(a, src->pv.keys, src->pv.n);
	dst->pv.values = adv_strvec(a, src->pv.values, src->pv.n);
	dst->stats = adv_strdup(a, src->stats);
	dst->stats_parsed_json = adv_strdup(a, src->stats_parsed_json);
	dst->tags_json = NULL;
	if (src->dv != NULL)
	{
		DeltaDV    *dv = palloc(sizeof(DeltaDV));

		*dv = *src->dv;
		dv->path_or_inline = adv_strdup(a, src->dv->path_or_inline);
		dv->unique_id = adv_strdup(a, src->dv->unique_id);
		dst->dv = dv;
	}
}

/* Deep copy of a metaData action. */
static DeltaMetadata *
adv_copy_metadata(DeltaStrArena *a, const DeltaMetadata *src)
{
	DeltaMetadata *md = palloc(sizeof(DeltaMetadata));

	*md = *src;
	md->id = adv_strdup(a, src->id);
	md->name = adv_strdup(a, src->name);
	md->description = adv_strdup(a, src->description);
	md->format_json = adv_strdup(a, src->format_json);
	md->schema_string = adv_strdup(a, src->schema_string);
	md->partition_columns = adv_strvec(a, src->partition_columns,
									   src->n_partition_columns);
	md->config_keys = adv_strvec(a, src->config_keys, src->n_configuration);
	md->config_values = adv_strvec(a, src->config_values, src->n_configuration);
	return md;
}

/* Deep copy of a protocol action. */
static DeltaProtocol *
adv_copy_protocol(DeltaStrArena *a, const DeltaProtocol *src)
{
	DeltaProtocol *p = palloc(sizeof(DeltaProtocol));

	*p = *src;
	p->reader_features = adv_strvec(a, src->reader_features,
									src->n_reader_features);
	p->writer_features = adv_strvec(a, src->writer_features,
									src->n_writer_features);
	return p;
}

/* qsort comparator of file actions by key (DeltaFileKeyCompare). */
static int
cmp_file_action(const void *a, const void *b)
{
	static uint32 ncalls = 0;

	if ((++ncalls & 0xFFFF) == 0)
		CHECK_FOR_INTERRUPTS();
	return DeltaFileKeyCompare((const DeltaFileAction *) a,
							   (const DeltaFileAction *) b);
}

/*
 * Sort flat[0 .. n) by key, where flat[0 .. nbase) are the base's files
 * (in key order, as a snapshot's files are) and the rest the commits'
 * adds, none of whose keys is among the base's: the adds are sorted and
 * merged in from the end, so that an advance costs the files once, not a
 * sort of them all.  When the base's part is found out of order, all of
 * it is sorted.
 */
static void
adv_sort_files(DeltaFileAction *flat, int64 nbase, int64 n)
{
	DeltaFileAction *adds;
	int64		nadds = n - nbase;
	int64		i;
	int64		j;
	int64		k;

	for (i = 1; i < nbase; i++)
		if (DeltaFileKeyCompare(&flat[i - 1], &flat[i]) >= 0)
		{
			qsort(flat, n, sizeof(DeltaFileAction), cmp_file_action);
			return;
		}
	if (nadds == 0)
		return;
	adds = palloc(sizeof(DeltaFileAction) * nadds);
	memcpy(adds, flat + nbase, sizeof(DeltaFileAction) * nadds);
	qsort(adds, nadds, sizeof(DeltaFileAction), cmp_file_action);
	i = nbase - 1;
	j = nadds - 1;
	for (k = n - 1; j >= 0; k--)
	{
		if ((k & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		if (i >= 0 && DeltaFileKeyCompare(&flat[i], &adds[j]) > 0)
			flat[k] = flat[i--];
		else
			flat[k] = adds[j--];
	}
	pfree(adds);
}

/*
 * DeltaSnapshotAdvance: see snapshot.h.  The last add or remove of a key
 * among the commits decides it (an add makes it live with that add, a
 * remove kills it, whatever the base held); the base's other files stay.
 */
DeltaSnapshot *
DeltaSnapshotAdvance(DeltaLog *log, const DeltaSnapshot *base,
					 CommitCacheScope *scope, CommitCacheRef *const *refs,
					 int n)
{
	MemoryContext cxt;
	MemoryContext old;
	DeltaSnapshot *snap;
	DeltaStrArena strings;
	livefiles_hash *delta;
	LiveKey   **order;
	int64		n_order = 0;
	int64		n_delta_items = 0;
	bool	   *nan;
	DeltaFileAction *flat;
	int64		nflat = 0;
	int64		nbase;
	int64		cap;
	const DeltaMetadata *md = base->metadata;
	const DeltaProtocol *proto = base->protocol;
	DeltaCommitBuilder meta;
	DeltaCommit start;
	int64		i;
	int			k;

	Assert(base->files != NULL);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc snapshot",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	snap = palloc0(sizeof(DeltaSnapshot));
	snap->cxt = cxt;
	snap->version = n > 0 ? refs[n - 1]->commit->version : base->version;
	snap->checkpoint_version = base->checkpoint_version;
	memset(&strings, 0, sizeof(strings));
	strings.cxt = cxt;

	/* the commits' file actions, by key: the last one of each */
	for (k = 0; k < n; k++)
		n_delta_items += refs[k]->commit->n_files;
	delta = livefiles_create(CurrentMemoryContext, Max(n_delta_items, 16), NULL);
	order = palloc(sizeof(LiveKey *) * Max(n_delta_items, 1));
	nan = palloc(sizeof(bool) * Max(n, 1));
	for (k = 0; k < n; k++)
	{
		DeltaCommit *c = refs[k]->commit;
		bool		add_dv = false;

		Assert(c->version == base->version + 1 + k);
		for (i = 0; i < c->n_files; i++)
		{
			DeltaFileAction *f = &c->files[i];
			LiveKey		probe;
			LiveFileEntry *e;
			bool		found;

			CHECK_FOR_INTERRUPTS();
			if (f->kind != DELTA_FILE_ADD && f->kind != DELTA_FILE_REMOVE)
				continue;
			if (f->kind == DELTA_FILE_ADD && f->dv != NULL)
				add_dv = true;
			probe.path = f->path;
			probe.dv_uid = f->dv ? f->dv->unique_id : NULL;
			e = livefiles_insert(delta, &probe, &found);
			if (!found)
			{
				LiveKey    *lk = palloc0(sizeof(LiveKey));

				lk->path = probe.path;
				lk->dv_uid = probe.dv_uid;
				e->key = lk;
				order[n_order++] = lk;
			}
			e->key->live = f->kind == DELTA_FILE_ADD;
			e->key->fa = f->kind == DELTA_FILE_ADD ? f : NULL;
			e->key->offset = i;
			e->key->source = k;
		}
		/* as replay: the commit's (last) commitInfo, and its adds' DVs */
		nan[k] = delta_commit_stats_include_nan(c->commit_info, add_dv);
		if (c->metadata != NULL)
			md = c->metadata;
		if (c->protocol != NULL)
			proto = c->protocol;
	}

	/* the base's files no commit touched, then the commits' live adds */
	cap = base->n_files + n_order;
	flat = MemoryContextAllocHuge(cxt, sizeof(DeltaFileAction) * Max(cap, 1));
	for (i = 0; i < base->n_files; i++)
	{
		const DeltaFileAction *f = base->files[i];
		LiveKey		probe;

		CHECK_FOR_INTERRUPTS();
		probe.path = f->path;
		probe.dv_uid = f->dv ? f->dv->unique_id : NULL;
		if (livefiles_lookup(delta, &probe) != NULL)
			continue;
		adv_copy_file(&strings, &flat[nflat++], f);
	}
	nbase = nflat;
	for (i = 0; i < n_order; i++)
	{
		LiveKey    *lk = order[i];
		CommitCacheRef *ref;
		DeltaFileAction *f;

		CHECK_FOR_INTERRUPTS();
		if (!lk->live)
			continue;
		ref = refs[lk->source];
		f = lk->fa;
		if (f->stats == NULL && f->stats_parsed_json == NULL &&
			ref->stats_src != NULL)
		{
			/* a text the commit cache did not keep: read it again */
			CommitStatsLoader *ld = commit_cache_stats_loader(ref);

			(void) commit_cache_stats_text(ld, (int) lk->offset);
			if (commit_cache_stats_loader_close(ld) > 0)
				commit_cache_ref_grown(scope, ref);
		}
		adv_copy_file(&strings, &flat[nflat], f);
		flat[nflat].stats_include_nan = nan[lk->source];
		/* numRecords and tightBounds as a full decoding pulls them out */
		flat[nflat].has_num_records = false;
		flat[nflat].num_records = 0;
		flat[nflat].tight_bounds = -1;
		if (flat[nflat].stats != NULL)
			stats_header_fields(&flat[nflat]);
		nflat++;
	}
	livefiles_destroy(delta);
	adv_sort_files(flat, nbase, nflat);
#ifdef USE_ASSERT_CHECKING
	for (i = 1; i < nflat; i++)
		Assert(DeltaFileKeyCompare(&flat[i - 1], &flat[i]) < 0);
#endif
	snap->n_files = nflat;
	snap->files = MemoryContextAllocHuge(cxt, sizeof(DeltaFileAction *) *
										 Max(nflat, 1));
	for (i = 0; i < nflat; i++)
	{
		snap->files[i] = &flat[i];
		if (flat[i].has_size)
			snap->size_bytes += flat[i].size;
	}

	if (proto == NULL || md == NULL)
		elog(ERROR, "snapshot to advance has no metaData or protocol");
	snap->metadata = adv_copy_metadata(&strings, md);
	snap->protocol = adv_copy_protocol(&strings, proto);
	DeltaProtocolCheckReadable(log, snap->protocol);

	/* txns and domains: the base's, then each commit's, latest wins */
	memset(&start, 0, sizeof(start));
	start.n_txns = base->n_txns;
	start.txns = base->txns;
	start.n_domains = base->n_domains;
	start.domains = base->domains;
	DeltaCommitBuilderInit(&meta, -1);
	for (k = 0; k < n; k++)
	{
		const DeltaCommit *c = refs[k]->commit;

		for (i = 0; i < c->n_txns; i++)
		{
			if (meta.n_txns == meta.cap_txns)
			{
				meta.cap_txns = meta.cap_txns == 0 ? 8 : meta.cap_txns * 2;
				meta.txns = meta.txns == NULL ?
					palloc(sizeof(DeltaTxn) * meta.cap_txns) :
					repalloc(meta.txns, sizeof(DeltaTxn) * meta.cap_txns);
			}
			meta.txns[meta.n_txns++] = c->txns[i];
		}
		for (i = 0; i < c->n_domains; i++)
		{
			if (meta.n_domains == meta.cap_domains)
			{
				meta.cap_domains = meta.cap_domains == 0 ? 8 : meta.cap_domains * 2;
				meta.domains = meta.domains == NULL ?
					palloc(sizeof(DeltaDomain) * meta.cap_domains) :
					repalloc(meta.domains, sizeof(DeltaDomain) * meta.cap_domains);
			}
			meta.domains[meta.n_domains++] = c->domains[i];
		}
	}
	finish_txns(snap, &start, &meta);
	finish_domains(snap, &start, &meta);
	for (k = 0; k < snap->n_txns; k++)
		snap->txns[k].app_id = adv_strdup(&strings, snap->txns[k].app_id);
	for (k = 0; k < snap->n_domains; k++)
	{
		snap->domains[k].domain = adv_strdup(&strings, snap->domains[k].domain);
		snap->domains[k].configuration =
			adv_strdup(&strings, snap->domains[k].configuration);
	}
	MemoryContextSwitchTo(old);
	return snap;
}
