/*-------------------------------------------------------------------------
 *
 * snapshot.c
 *	  Log replay: the live files, metadata, protocol, txns and domains of a
 *	  Delta table at one version (see snapshot.h for the rules).
 *
 * Live files are tracked in a simplehash keyed by (path, DV unique id) whose
 * entries point at the decoded actions themselves: no string is copied, and
 * a million-file snapshot costs 16 bytes of hash entry per file on top of
 * the decoded actions.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "log_reader.h"
#include "snapshot.h"

DeltaCheckpointReadHook delta_checkpoint_read_hook = NULL;

/* Hash of the (path, DV unique id) key of a file action. */
static inline uint32
file_key_hash(const DeltaFileAction *fa)
{
	uint32		h = hash_bytes((const unsigned char *) fa->path,
							   (int) strlen(fa->path));

	if (fa->dv != NULL)
		h = hash_combine(h, hash_bytes((const unsigned char *) fa->dv->unique_id,
									   (int) strlen(fa->dv->unique_id)));
	return h;
}

/* Equality of (path, DV unique id) keys. */
static inline bool
file_key_equal(const DeltaFileAction *a, const DeltaFileAction *b)
{
	if (strcmp(a->path, b->path) != 0)
		return false;
	if (a->dv == NULL || b->dv == NULL)
		return a->dv == b->dv;
	return strcmp(a->dv->unique_id, b->dv->unique_id) == 0;
}

typedef struct LiveFileEntry
{
	DeltaFileAction *key;
	uint32		hash;
	char		status;
} LiveFileEntry;

#define SH_PREFIX livefiles
#define SH_ELEMENT_TYPE LiveFileEntry
#define SH_KEY_TYPE DeltaFileAction *
#define SH_KEY key
#define SH_HASH_KEY(tb, key) file_key_hash(key)
#define SH_EQUAL(tb, a, b) file_key_equal(a, b)
#define SH_STORE_HASH
#define SH_GET_HASH(tb, a) a->hash
#define SH_SCOPE static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

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
 * qsort comparator over DeltaFileAction pointers.  Sorting a million-file
 * snapshot takes seconds, so it checks for interrupts every 64k
 * comparisons: pg_qsort holds no resources, an ERROR may leave it.
 */
static int
cmp_file_ptr(const void *a, const void *b)
{
	static uint32 ncalls = 0;

	if ((++ncalls & 0xFFFF) == 0)
		CHECK_FOR_INTERRUPTS();
	return DeltaFileKeyCompare(*(DeltaFileAction *const *) a,
							   *(DeltaFileAction *const *) b);
}

/*
 * Where reading from_version..to_version starts (see snapshot.h).  This is
 * the one place where checkpoint state enters replay.
 */
DeltaCommit *
DeltaLogStartingState(DeltaLog *log, int64 from_version, int64 to_version,
					  int64 *first_json)
{
	DeltaCommit *state = NULL;

	if (log->first_version >= 0 && from_version >= log->first_version)
	{
		*first_json = from_version;
		return NULL;
	}
	if (delta_checkpoint_read_hook != NULL)
		state = delta_checkpoint_read_hook(log, to_version);
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
			delta_checkpoint_read_hook == NULL ?
			errhint("This build of deltacc cannot read checkpoints yet.") :
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
DeltaProtocolCheckReadable(const DeltaProtocol *protocol)
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

/* Growable arrays of txns/domains seen during replay. */
typedef struct ReplayState
{
	livefiles_hash *live;
	DeltaMetadata *metadata;
	DeltaProtocol *protocol;
	IndexedTxn *txns;
	int			n_txns;
	int			cap_txns;
	IndexedDomain *domains;
	int			n_domains;
	int			cap_domains;
} ReplayState;

/* Apply one commit (or checkpoint state) to the replay state. */
static void
replay_commit(ReplayState *rs, DeltaCommit *c)
{
	int			i;
	bool		found;

	for (i = 0; i < c->n_files; i++)
	{
		DeltaFileAction *fa = &c->files[i];

		CHECK_FOR_INTERRUPTS();
		if (fa->kind == DELTA_FILE_ADD)
		{
			LiveFileEntry *e = livefiles_insert(rs->live, fa, &found);

			e->key = fa;		/* the newer add replaces an older one */
		}
		else if (fa->kind == DELTA_FILE_REMOVE)
			livefiles_delete(rs->live, fa);
	}
	if (c->metadata)
		rs->metadata = c->metadata;
	if (c->protocol)
		rs->protocol = c->protocol;
	for (i = 0; i < c->n_txns; i++)
	{
		if (rs->n_txns == rs->cap_txns)
		{
			rs->cap_txns = rs->cap_txns ? rs->cap_txns * 2 : 8;
			rs->txns = rs->txns ? repalloc_huge(rs->txns, sizeof(IndexedTxn) * rs->cap_txns)
				: palloc(sizeof(IndexedTxn) * rs->cap_txns);
		}
		rs->txns[rs->n_txns].t = c->txns[i];
		rs->txns[rs->n_txns].pos = rs->n_txns;
		rs->n_txns++;
	}
	for (i = 0; i < c->n_domains; i++)
	{
		if (rs->n_domains == rs->cap_domains)
		{
			rs->cap_domains = rs->cap_domains ? rs->cap_domains * 2 : 8;
			rs->domains = rs->domains ?
				repalloc_huge(rs->domains, sizeof(IndexedDomain) * rs->cap_domains)
				: palloc(sizeof(IndexedDomain) * rs->cap_domains);
		}
		rs->domains[rs->n_domains].d = c->domains[i];
		rs->domains[rs->n_domains].pos = rs->n_domains;
		rs->n_domains++;
	}
}

/*
 * Build the snapshot at 'version' (-1 = latest) in a new child context of
 * CurrentMemoryContext.
 */
DeltaSnapshot *
DeltaSnapshotBuild(DeltaLog *log, int64 version)
{
	MemoryContext cxt;
	MemoryContext old;
	DeltaSnapshot *snap;
	ReplayState rs;
	DeltaCommit *start;
	int64		first_json;
	int64		v;
	int64		n;
	livefiles_iterator it;
	LiveFileEntry *e;
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

	memset(&rs, 0, sizeof(rs));
	rs.live = livefiles_create(cxt, 1024, NULL);

	start = DeltaLogStartingState(log, 0, version, &first_json);
	if (start != NULL)
	{
		snap->checkpoint_version = start->version;
		replay_commit(&rs, start);
	}
	for (v = first_json; v <= version; v++)
	{
		CHECK_FOR_INTERRUPTS();
		replay_commit(&rs, DeltaLogReadCommit(log, v));
	}

	if (rs.protocol == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Delta table has no protocol action at version " INT64_FORMAT, version));
	if (rs.metadata == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Delta table has no metaData action at version " INT64_FORMAT, version));
	snap->metadata = rs.metadata;
	snap->protocol = rs.protocol;
	DeltaProtocolCheckReadable(rs.protocol);

	snap->files = MemoryContextAllocHuge(cxt, sizeof(DeltaFileAction *) *
										 Max(rs.live->members, 1));
	n = 0;
	livefiles_start_iterate(rs.live, &it);
	while ((e = livefiles_iterate(rs.live, &it)) != NULL)
	{
		snap->files[n++] = e->key;
		if (e->key->has_size)
			snap->size_bytes += e->key->size;
	}
	snap->n_files = n;
	livefiles_destroy(rs.live);
	qsort(snap->files, n, sizeof(DeltaFileAction *), cmp_file_ptr);

	/* txns: latest per appId */
	if (rs.n_txns > 0)
	{
		qsort(rs.txns, rs.n_txns, sizeof(IndexedTxn), cmp_indexed_txn);
		snap->txns = palloc(sizeof(DeltaTxn) * rs.n_txns);
		for (i = 0; i < rs.n_txns; i++)
		{
			if (i + 1 < rs.n_txns &&
				strcmp(rs.txns[i].t.app_id, rs.txns[i + 1].t.app_id) == 0)
				continue;
			snap->txns[snap->n_txns++] = rs.txns[i].t;
		}
	}
	/* domains: latest action per domain, tombstones kept */
	if (rs.n_domains > 0)
	{
		qsort(rs.domains, rs.n_domains, sizeof(IndexedDomain), cmp_indexed_domain);
		snap->domains = palloc(sizeof(DeltaDomain) * rs.n_domains);
		for (i = 0; i < rs.n_domains; i++)
		{
			if (i + 1 < rs.n_domains &&
				strcmp(rs.domains[i].d.domain, rs.domains[i + 1].d.domain) == 0)
				continue;
			snap->domains[snap->n_domains++] = rs.domains[i].d;
		}
	}

	MemoryContextSwitchTo(old);
	return snap;
}

/* Release a snapshot and everything it owns. */
void
DeltaSnapshotFree(DeltaSnapshot *snap)
{
	MemoryContextDelete(snap->cxt);
}

/* Binary search for (path, dv_unique_id); NULL when not live. */
DeltaFileAction *
DeltaSnapshotFind(const DeltaSnapshot *snap, const char *path,
				  const char *dv_unique_id)
{
	int64		lo = 0;
	int64		hi = snap->n_files - 1;
	DeltaFileAction key;
	DeltaDV		dv;

	memset(&key, 0, sizeof(key));
	key.path = (char *) path;
	if (dv_unique_id != NULL)
	{
		memset(&dv, 0, sizeof(dv));
		dv.unique_id = (char *) dv_unique_id;
		key.dv = &dv;
	}
	while (lo <= hi)
	{
		int64		mid = lo + (hi - lo) / 2;
		int			c = DeltaFileKeyCompare(snap->files[mid], &key);

		if (c == 0)
			return snap->files[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}
