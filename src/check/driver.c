/*-------------------------------------------------------------------------
 *
 * driver.c
 *	  One conflict check from end to end (see driver.h), and the GUC
 *	  deltacc.default_mode.
 *
 * The driver opens nothing itself: it gets the opened table, builds the
 * read snapshot, compiles the reads, decodes the loser, derives its read
 * files (files_for_scan semantics when read_files is not given; for the
 * SQL functions only once a winner removes a file), then
 * checks every winner read_version+1 .. through_version with the rule
 * engine of conflict.c.  Its callers only differ in what they do with the
 * decisions.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/driver.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "check/conflict.h"
#include "check/driver.h"
#include "check/loser.h"
#include "check/readset_cache.h"
#include "log/log_reader.h"
#include "snapshot/commit_cache.h"
#include "snapshot/snapshot.h"
#include "snapshot/snapshot_cache.h"
#include "stats/predicate.h"
#include "stats/schema.h"

int			deltacc_default_mode = CONFLICT_MODE_STATS;

static const struct config_enum_entry mode_options[] = {
	{"partition", CONFLICT_MODE_PARTITION, false},
	{"stats", CONFLICT_MODE_STATS, false},
	{"row_level", CONFLICT_MODE_ROW_LEVEL, false},
	{NULL, 0, false}
};

/*
 * conflict_init: define deltacc.default_mode (called from _PG_init).
 * 'row_level' is not offered until it is supported.
 */
void
conflict_init(void)
{
	DefineCustomEnumVariable("deltacc.default_mode",
							 "Mode of the conflict functions when their mode argument is NULL.",
							 "partition reproduces Delta exactly; stats adds conflict-time data skipping.",
							 &deltacc_default_mode,
							 CONFLICT_MODE_STATS,
							 mode_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}

/* Binding of the rule engine's ConflictReadSet to the predicate compiler. */
typedef struct ReadBinding
{
	DeltaReadSet *rs;
	char	  **texts;
	bool		nan_ok;			/* the statistics judged include NaN: the
								 * current winner's
								 * (delta_commit_stats_include_nan), or
								 * while the read files are derived, the
								 * read snapshot file's stats_include_nan */
	const DeltaFileAction *cached_file; /* decoded from text (reasons) */
	DeltaFileStats *cached_stats;
	/* pre-decoded statistics of the current winner (the fast path) */
	const DeltaCommit *winner;
	const DeltaStatsHeader *hdr;	/* NULL: no fast path */
	int			ncols;
	int		   *col_leaf;		/* leaf index of each decoded column */
	const DeltaField **col_field;
	const char **col_key;		/* delta_stats_column_key of each */
	DeltaLeafStats **colvals;	/* per column: the winner's files */
	const DeltaFileAction *fast_file;
	DeltaFileStats fast_stats;	/* leaves[] sized nleaves */
	/* remembered answers (per read, for the current winner; NULL: none) */
	const char **memo_key[2];	/* [variant][read]: decision keys */
	int		   *memo_keylen[2];
	uint8	  **memo;			/* [read] */
	int			reads_n;
	CommitStatsLoader *loader;	/* the winner's stats texts not kept, or
								 * NULL */
	/* the outcome of all reads together, per winner (see rb_stats_filter) */
	char	   *set_key[2];		/* [variant]: the reads' keys, or NULL */
	int			set_keylen[2];
	int			set_var;		/* the current winner's variant */
	DeltaCommitStats *cs;		/* the current winner's statistics, or NULL */
	MemoryContext cs_cxt;		/* where they live */
	const DeltaKeptList *kept;	/* the current winner's list, or NULL */
	bool		kept_stored;	/* a list was stored for the current winner */
	bool		reasons_stored; /* reasons were remembered in the list */
} ReadBinding;

static bool
rb_has_data_conjunct(void *ctx, int read)
{
	ReadBinding *rb = ctx;

	return delta_read_can_skip(rb->rs, read);
}

/*
 * rb_kept_index: the index, in the current winner's kept list, of file (one
 * of the winner's AddFiles), when reasons can be remembered there: the
 * read set's plan is kept (serial not 0) and the list is the winner's;
 * else -1.
 */
static int
rb_kept_index(const ReadBinding *rb, const DeltaFileAction *file)
{
	const DeltaCommit *w = rb->winner;
	int			lo = 0;
	int			hi;

	if (delta_readset_serial(rb->rs) == 0 || rb->kept == NULL || w == NULL ||
		w->adds == NULL || rb->kept->n != w->n_adds)
		return -1;
	/* the AddFiles' pointers ascend: they point into w->files in order */
	hi = w->n_adds - 1;
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (w->adds[mid] == file)
			return delta_kept_index(rb->kept, mid);
		if (w->adds[mid] < file)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * rb_stats_match: the stats tier for one (read, file).  Without a reason
 * wanted, a file of the current winner is judged on its statistics as
 * decoded once per commit (delta_commit_stats_ensure_pre: same decoder, same
 * Datums, no texts), with nothing allocated; reasons come from decoding
 * the file's statistics text again, which gives the same decision.  The
 * reason of a kept file is remembered with the winner's kept list, for the
 * read set's kept plan (delta_kept_reason), so a check repeated with the
 * same reads words it again without decoding anything.
 */
static ReadMatch
rb_stats_match(void *ctx, int read, const DeltaFileAction *file, char **reason)
{
	ReadBinding *rb = ctx;
	int			kept_k;			/* index in the kept list, or -1 */
	int			reason_key = 2 * read + (rb->nan_ok ? 1 : 0);	/* the variant too */
	const char *known = NULL;
	bool		have_known = false;
	bool		match;

	if (reason == NULL && rb->hdr != NULL &&
		file >= rb->winner->files &&
		file < rb->winner->files + rb->winner->n_files)
	{
		int			i = (int) (file - rb->winner->files);
		uint8	   *memo = rb->memo[read];
		bool		keep;

#ifndef USE_ASSERT_CHECKING
		if (memo != NULL && memo[i] != 0)
			return memo[i] == 2 ? READ_MATCH_MAYBE : READ_MATCH_NO;
#endif
		if (rb->fast_file != file)
		{
			const DeltaStatsHeader *h = &rb->hdr[i];
			DeltaFileStats *fs = &rb->fast_stats;
			int			k;

			fs->has_stats = h->has_stats;
			fs->error = NULL;
			fs->has_num_records = h->has_num_records;
			fs->num_records = h->num_records;
			fs->tight_bounds = h->tight_bounds;
			for (k = 0; k < rb->ncols; k++)
				fs->leaves[rb->col_leaf[k]] = rb->colvals[k][i];
			rb->fast_file = file;
		}
		keep = delta_read_stats_may_match(rb->rs, read, &rb->fast_stats,
										  rb->nan_ok, NULL);
		if (memo != NULL)
		{
			/* (assert-enabled builds check every remembered answer) */
			Assert(memo[i] == 0 || memo[i] == (keep ? 2 : 1));
			memo[i] = keep ? 2 : 1;
		}
		return keep ? READ_MATCH_MAYBE : READ_MATCH_NO;
	}
	/* a kept file's reason may be remembered */
	kept_k = reason != NULL ? rb_kept_index(rb, file) : -1;
	if (kept_k >= 0)
		have_known = delta_kept_reason(rb->kept, delta_readset_serial(rb->rs),
									   kept_k, reason_key, &known);
#ifndef USE_ASSERT_CHECKING
	if (have_known)
	{
		*reason = known ? pstrdup(known) : NULL;
		return READ_MATCH_MAYBE;
	}
#endif
	if (rb->cached_file != file)
	{
		/* a text the cached winner did not keep is read again first */
		if (rb->loader != NULL && rb->winner != NULL &&
			file >= rb->winner->files &&
			file < rb->winner->files + rb->winner->n_files)
			(void) commit_cache_stats_text(rb->loader,
										   (int) (file - rb->winner->files));
		rb->cached_stats = delta_readset_decode_stats(rb->rs, file);
		rb->cached_file = file;
	}
	match = delta_read_stats_may_match(rb->rs, read, rb->cached_stats,
									   rb->nan_ok, reason);
	if (have_known)
	{
		/* (assert-enabled builds: the remembered text is the same) */
		Assert(match);
		Assert((known == NULL && *reason == NULL) ||
			   (known != NULL && *reason != NULL &&
				strcmp(known, *reason) == 0));
	}
	else if (kept_k >= 0 && match)
	{
		delta_kept_reason_store(unconstify(DeltaKeptList *, rb->kept),
								delta_readset_serial(rb->rs), kept_k,
								reason_key, *reason, rb->cs_cxt);
		rb->reasons_stored = true;
	}
	return match ? READ_MATCH_MAYBE : READ_MATCH_NO;
}

/*
 * rb_stats_fill_memo: decide, for each read, the current winner's files
 * among files[0..n) that its memo does not know yet, column by column
 * (delta_read_stats_may_match_columns: the same answers as rb_stats_match,
 * without a call per file and read), and remember the answers.  A read
 * the columns cannot decide is left to rb_stats_match.
 */
static void
rb_stats_fill_memo(ReadBinding *rb, int n, const DeltaFileAction **files)
{
	const DeltaFileAction *first = rb->winner->files;
	const DeltaFileAction *last = first + rb->winner->n_files;
	int		   *idx = palloc(sizeof(int) * Max(n, 1));
	bool	   *keep = palloc(sizeof(bool) * Max(n, 1));
	int			r,
				i;

	for (r = 0; r < rb->reads_n; r++)
	{
		uint8	   *memo = rb->memo[r];
		int			m = 0;

		for (i = 0; i < n; i++)
		{
			if (files[i] >= first && files[i] < last &&
				memo[files[i] - first] == 0)
				idx[m++] = (int) (files[i] - first);
		}
		if (m == 0 ||
			!delta_read_stats_may_match_columns(rb->rs, r, rb->nan_ok, m, idx,
												rb->hdr, rb->ncols,
												rb->col_leaf, rb->colvals,
												keep))
			continue;
		for (i = 0; i < m; i++)
			memo[idx[i]] = keep[i] ? 2 : 1;
	}
	pfree(idx);
	pfree(keep);
}

/*
 * rb_is_winner_adds: whether files[0..n) is the current winner's list of
 * AddFiles in order, as conflict_check_winner passes it (the positions a
 * kept list speaks of).
 */
static bool
rb_is_winner_adds(const ReadBinding *rb, int n, const DeltaFileAction **files)
{
	const DeltaCommit *w = rb->winner;

	if (w == NULL || w->adds == NULL || n != w->n_adds)
		return false;
#ifdef USE_ASSERT_CHECKING
	{
		int			i;

		/* conflict_check_winner passes exactly these */
		for (i = 0; i < n; i++)
			Assert(files[i] == w->adds[i]);
	}
#endif
	return n == 0 || (files[0] == w->adds[0] && files[n - 1] == w->adds[n - 1]);
}

/*
 * rb_stats_filter: the stats tier for n files at once (no reasons).  For
 * the current winner's AddFiles the outcome of the whole set of reads is
 * kept with the winner's statistics (a DeltaKeptList under the reads'
 * keys): a repeated check with the same reads sets keep[] from the list
 * without visiting a file.  Otherwise from the remembered answers where
 * all reads have one, else rb_stats_match; after such a pass over the
 * winner's AddFiles the list is stored.  The reads' answer arrays are
 * copied to a local array first (up to RB_FILTER_MAX_READS reads; more
 * reads take rb_stats_match, which finds the same remembered answers), so
 * the loop reloads nothing per file.  Assert-enabled builds recompute
 * every answer and compare it with the list.
 */
#define RB_FILTER_MAX_READS 16

/* answer arrays and kept lists remembered with one commit, at most */
#define RB_MAX_REMEMBERED 64

static void
rb_stats_filter(void *ctx, int n, const DeltaFileAction **files, bool *keep)
{
	ReadBinding *rb = ctx;
	const int	nreads = rb->reads_n;
	const uint8 *memo[RB_FILTER_MAX_READS];
	const DeltaFileAction *first = NULL;
	const DeltaFileAction *last = NULL;
	bool		listable = rb->cs != NULL && rb->set_key[rb->set_var] != NULL &&
		rb_is_winner_adds(rb, n, files);
	int			i,
				r;

#ifndef USE_ASSERT_CHECKING
	if (listable && rb->kept != NULL && rb->kept->n == n)
	{
		memset(keep, 0, sizeof(bool) * n);
		for (i = 0; i < rb->kept->nkept; i++)
			keep[rb->kept->kept[i]] = true;
		return;
	}
#endif
	if (rb->hdr != NULL && nreads <= RB_FILTER_MAX_READS)
	{
		first = rb->winner->files;
		last = first + rb->winner->n_files;
		for (r = 0; r < nreads; r++)
		{
			memo[r] = rb->memo[r];
			if (memo[r] == NULL)
				first = last = NULL;	/* some read remembers nothing */
		}
		if (first != NULL)
			rb_stats_fill_memo(rb, n, files);
	}
	for (i = 0; i < n; i++)
	{
		const DeltaFileAction *f = files[i];
		bool		k = false;
		bool		known = false;

		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		if (f >= first && f < last)
		{
			size_t		idx = (size_t) (f - first);

			known = true;
			for (r = 0; r < nreads; r++)
			{
				uint8		m = memo[r][idx];

				if (m == 2)
				{
					k = true;
					break;
				}
				if (m == 0)
				{
					known = false;
					break;
				}
			}
		}
#ifdef USE_ASSERT_CHECKING
		known = false;			/* assert-enabled builds recheck every answer */
#endif
		if (!known)
		{
			k = false;
			for (r = 0; r < nreads && !k; r++)
				k = rb_stats_match(ctx, r, f, NULL) == READ_MATCH_MAYBE;
		}
		keep[i] = k;
	}
	if (!listable)
		return;
	if (rb->kept == NULL)
	{
		rb->kept = delta_commit_stats_kept_store(rb->cs,
												 rb->set_key[rb->set_var],
												 rb->set_keylen[rb->set_var],
												 n, keep, rb->cs_cxt);
		rb->kept_stored = true;
	}
#ifdef USE_ASSERT_CHECKING
	else
	{
		int			j = 0;

		Assert(rb->kept->n == n);
		for (i = 0; i < n; i++)
		{
			bool		listed = j < rb->kept->nkept && rb->kept->kept[j] == i;

			Assert(keep[i] == listed);
			j += listed ? 1 : 0;
		}
		Assert(j == rb->kept->nkept);
	}
#endif
}

static bool
rb_partition_match(void *ctx, int read, const DeltaFileAction *file,
				   char **reason)
{
	ReadBinding *rb = ctx;

	return delta_read_partition_matches(rb->rs, read, &file->pv, reason);
}

static const char *
rb_read_text(void *ctx, int read)
{
	return ((ReadBinding *) ctx)->texts[read];
}
/*
 * read_version_state: the metaData and protocol in force at read_version
 * (the newest of each at or before it), from the JSON commits read_version,
 * read_version - 1, ... through the commit cache (down to the newest
 * cached snapshot at or before it, when there is one:
 * snapshot_cache_state_at), reading of each only the lines that may hold
 * either action (commit_cache_get_state): the rest of
 * the read version is no input of the check, as it is none of Delta's,
 * whose loser holds its read snapshot in memory.  Returns false when the
 * JSON commits run out first (the caller then builds the snapshot, which
 * knows checkpoints and reports what is missing).  The protocol must be
 * readable, as for a snapshot.
 */
static bool
read_version_state(DeltaLog *log, int64 read_version, CommitCacheScope *scope,
				   const DeltaMetadata **md, const DeltaProtocol **proto)
{
	int64		v;
	SnapshotCacheRef *cached;

	*md = NULL;
	*proto = NULL;
	if (log->first_version < 0 || read_version < log->first_version ||
		read_version > log->last_version)
		return false;
	/* a cached snapshot of the version knows them (checked readable) */
	cached = snapshot_cache_find(scope, log, read_version, false);
	if (cached != NULL)
	{
		*md = cached->snap->metadata;
		*proto = cached->snap->protocol;
		return true;
	}
	/* a cached snapshot before it, and the commits since */
	if (snapshot_cache_state_at(scope, log, read_version, md, proto))
		return true;
	for (v = read_version; v >= log->first_version; v--)
	{
		DeltaCommit *c;

		CHECK_FOR_INTERRUPTS();
		c = commit_cache_get_state(scope, log, v)->commit;
		if (*md == NULL && c->metadata != NULL)
			*md = c->metadata;
		if (*proto == NULL && c->protocol != NULL)
			*proto = c->protocol;
		if (*md != NULL && *proto != NULL)
		{
			DeltaProtocolCheckReadable(log, *proto);
			return true;
		}
	}
	return false;
}

/*
 * bind_stats_columns: the statistics columns the reads need (wanted
 * leaves in the statistics column set), for the per-commit decoding.
 * Allocates rb's arrays in CurrentMemoryContext.
 */
static void
bind_stats_columns(ReadBinding *rb, const DeltaSchema *schema)
{
	const bool *wanted = delta_readset_wanted(rb->rs);
	int			i;

	rb->col_leaf = palloc(sizeof(int) * Max(schema->nleaves, 1));
	rb->col_field = palloc(sizeof(DeltaField *) * Max(schema->nleaves, 1));
	rb->col_key = palloc(sizeof(char *) * Max(schema->nleaves, 1));
	rb->colvals = palloc0(sizeof(DeltaLeafStats *) * Max(schema->nleaves, 1));
	rb->ncols = 0;
	for (i = 0; i < schema->nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];

		if (!wanted[i] || !f->in_stats)
			continue;
		rb->col_leaf[rb->ncols] = i;
		rb->col_field[rb->ncols] = f;
		rb->col_key[rb->ncols] = delta_stats_column_key(f);
		rb->ncols++;
	}
	for (i = 0; i < 2; i++)
	{
		int			r;

		rb->memo_key[i] = palloc0(sizeof(const char *) * Max(rb->reads_n, 1));
		rb->memo_keylen[i] = palloc0(sizeof(int) * Max(rb->reads_n, 1));
		for (r = 0; r < rb->reads_n; r++)
			rb->memo_key[i][r] = delta_read_decision_key(rb->rs, r, i == 1,
														 &rb->memo_keylen[i][r]);
	}
	for (i = 0; i < 2; i++)
	{
		StringInfoData key;
		int			r;

		/* the set's key: each read's key after its length */
		initStringInfo(&key);
		for (r = 0; r < rb->reads_n && rb->memo_key[i][r] != NULL; r++)
		{
			appendBinaryStringInfo(&key, (char *) &rb->memo_keylen[i][r],
								   sizeof(int));
			appendBinaryStringInfo(&key, rb->memo_key[i][r],
								   rb->memo_keylen[i][r]);
		}
		rb->set_key[i] = (rb->reads_n > 0 && r == rb->reads_n) ? key.data : NULL;
		rb->set_keylen[i] = key.len;
	}
	rb->memo = palloc0(sizeof(uint8 *) * Max(rb->reads_n, 1));
	rb->fast_stats.nleaves = schema->nleaves;
	rb->fast_stats.leaves = palloc0(sizeof(DeltaLeafStats) *
									Max(schema->nleaves, 1));
}

/*
 * The read version's prescan (rv_prescan): the reads compiled against the
 * read snapshot's metaData and their statistics columns bound while the
 * snapshot is built, so its files' statistics strings are scanned once,
 * as they are decoded, for derive_read_files.
 */
typedef struct RvPrescan
{
	ReadBinding *rb;
	int			npreds;
	char	  **preds;
	const DeltaMetadata *md;	/* what rb->rs was compiled against, or NULL */
	DeltaStatsPrescan *ps;		/* the prescan made, or NULL */
} RvPrescan;

/* DeltaSnapshotPrescanFn of the read snapshot (see RvPrescan). */
static DeltaStatsPrescan *
rv_prescan(void *arg, const DeltaMetadata *md)
{
	RvPrescan  *a = arg;
	ReadBinding *rb = a->rb;

	rb->rs = readset_cache_instance(md, a->npreds,
									(const char *const *) a->preds);
	rb->reads_n = a->npreds;
	bind_stats_columns(rb, delta_readset_schema(rb->rs));
	a->md = md;
	a->ps = delta_stats_prescan_create(rb->ncols, rb->col_field);
	return a->ps;
}

/*
 * The prescan of a read snapshot built for deferred read files: the reads
 * are compiled and their columns bound already (against the metaData of
 * read_version_state, the same action the snapshot replays), so only a
 * prescan for those columns is made; none when the snapshot's schema text
 * differs (then derive_read_files decodes the statistics itself).
 */
typedef struct DeferredPrescan
{
	ReadBinding *rb;
	const DeltaMetadata *md;	/* what rb's columns were bound against */
	DeltaStatsPrescan *ps;		/* the prescan made, or NULL */
} DeferredPrescan;

/* DeltaSnapshotPrescanFn of a deferred read snapshot (see DeferredPrescan). */
static DeltaStatsPrescan *
deferred_prescan(void *arg, const DeltaMetadata *md)
{
	DeferredPrescan *a = arg;

	if (md == NULL || a->md == NULL || md->schema_string == NULL ||
		a->md->schema_string == NULL ||
		strcmp(md->schema_string, a->md->schema_string) != 0)
		return NULL;
	a->ps = delta_stats_prescan_create(a->rb->ncols, a->rb->col_field);
	return a->ps;
}

/*
 * derive_read_files: the loser's read files when none are given,
 * files_for_scan(read_predicates) on the read snapshot: every live file
 * that some read's partition and statistics tests keep.  The statistics
 * are those of the snapshot's files as decoded once per cached snapshot
 * (delta_commit_stats_ensure_pre on its commit-shaped view: the decoder
 * and Datums of the winners' fast path), each file judged for its own
 * writer (stats_include_nan), and the answers remembered per read's
 * decision key with the snapshot, so a check repeated with the same reads
 * decodes nothing.  rb's columns are bound (bind_stats_columns).
 */
static void
derive_read_files(ReadBinding *rb, LoserTxn *loser, const ConflictTable *table,
				  CommitCacheScope *scope, SnapshotCacheRef *sref, int npreds,
				  DeltaStatsPrescan *ps)
{
	char	  **paths = palloc_extended(sizeof(char *) * Max(table->n_files, 1),
										MCXT_ALLOC_HUGE);
	const DeltaFileAction **acts =
		palloc_extended(sizeof(DeltaFileAction *) * Max(table->n_files, 1),
						MCXT_ALLOC_HUGE);
	uint8	  **memo[2];
	DeltaCommitStats *cs;
	DeltaFileStats *fs = &rb->fast_stats;
	int			n = 0;
	int			i;
	int			var;

	if (npreds == 0 || table->n_files == 0)
	{
		loser_set_read_files(loser, table, 0, paths, acts);
		return;
	}
	cs = delta_commit_stats_ensure_pre(*sref->stats, sref->files, rb->ncols,
									   rb->col_field, rb->col_key,
									   rb->colvals, sref->cxt, ps, NULL,
									   NULL);
	*sref->stats = cs;
	if (delta_commit_stats_remembered(cs) > RB_MAX_REMEMBERED &&
		(sref->ref == NULL || commit_cache_ref_sole(sref->ref)))
		delta_commit_stats_forget(cs);
	for (var = 0; var < 2; var++)
	{
		int			r;

		memo[var] = palloc0(sizeof(uint8 *) * npreds);
		for (r = 0; r < npreds; r++)
			memo[var][r] = rb->memo_key[var][r] == NULL ? NULL :
				delta_commit_stats_memo(cs, rb->memo_key[var][r],
										rb->memo_keylen[var][r], sref->cxt);
	}
	snapshot_cache_ref_grown(scope, sref);
	for (i = 0; i < table->n_files; i++)
	{
		const DeltaFileAction *f = &table->files[i];
		int			r;

		CHECK_FOR_INTERRUPTS();
		/* the writer of the commit that added it, as files_for_scan */
		var = f->stats_include_nan ? 1 : 0;
		for (r = 0; r < npreds; r++)
		{
			uint8	   *m = memo[var][r];
			bool		keep;

			if (!delta_read_partition_matches(rb->rs, r, &f->pv, NULL))
				continue;
#ifndef USE_ASSERT_CHECKING
			if (m != NULL && m[i] != 0)
				keep = m[i] == 2;
			else
#endif
			{
				const DeltaStatsHeader *h = &cs->hdr[i];
				int			k;

				fs->has_stats = h->has_stats;
				fs->error = NULL;
				fs->has_num_records = h->has_num_records;
				fs->num_records = h->num_records;
				fs->tight_bounds = h->tight_bounds;
				for (k = 0; k < rb->ncols; k++)
					fs->leaves[rb->col_leaf[k]] = rb->colvals[k][i];
				keep = delta_read_stats_may_match(rb->rs, r, fs, var == 1,
												  NULL);
#ifdef USE_ASSERT_CHECKING
				{
					/* the statistics text decoded again gives the same */
					DeltaFileStats *full = delta_readset_decode_stats(rb->rs, f);

					Assert(keep == delta_read_stats_may_match(rb->rs, r, full,
															  var == 1, NULL));
					Assert(m == NULL || m[i] == 0 || m[i] == (keep ? 2 : 1));
				}
#endif
				if (m != NULL)
					m[i] = keep ? 2 : 1;
			}
			if (keep)
			{
				paths[n] = f->path;
				acts[n] = f;
				n++;
				break;
			}
		}
	}
	rb->fast_file = NULL;
	loser_set_read_files(loser, table, n, paths, acts);
}

/*
 * Read files found path by path (deferred read files, when the read
 * snapshot is not cached).  The first winners that remove files need to
 * know only whether the loser read those files: each removed path is
 * looked up among the read snapshot's live files (a lazy snapshot: keys
 * only), and a file found is decoded and judged by the reads exactly as
 * derive_read_files judges it (the full statistics decode its fast path
 * is asserted equal to).  The loser's read files are then the read files
 * among the paths removed so far, which is all the delete/read check asks
 * of them.  Past LAZY_READ_MAX removed paths, or when the same read
 * version was asked for recently (so that the next calls are served from
 * the snapshot cache), the read files are derived whole instead.
 */
#define LAZY_READ_MAX 256

typedef struct KeyIdx
{
	DeltaPathKey key;
	int64		idx;
} KeyIdx;

typedef struct LazyReadFiles
{
	DeltaSnapshot *snap;		/* lazy read snapshot, or NULL until needed */
	int			n;				/* its live files */
	KeyIdx	   *items;			/* their path keys (and index in snap), sorted */
	bool	   *looked;			/* [n]: items[k] was looked up already */
	int			looked_up;		/* removed paths looked up so far */
	bool		given_up;		/* too many: derived whole instead */
	int			nfound;			/* read files found */
	int			capfound;
	char	  **found_paths;
	const DeltaFileAction **found_acts;
} LazyReadFiles;

static int
cmp_key_idx(const void *a, const void *b)
{
	return DeltaPathKeyCmp(&((const KeyIdx *) a)->key,
						   &((const KeyIdx *) b)->key);
}

/* the first k with items[k]'s key not below key (n: none) */
static int
lazy_find_first(const KeyIdx *items, int n, const DeltaPathKey *key)
{
	int			lo = 0,
				hi = n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (DeltaPathKeyCmp(&items[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Read versions whose read files were found path by path lately, as hashes
 * of (table, version): asked for again, the snapshot is built whole and
 * cached.  A collision only changes which way is taken.
 */
#define LAZY_RECENT 64
static uint32 lazy_recent[LAZY_RECENT];
static int	lazy_recent_next = 0;

static uint32
lazy_recent_key(const DeltaLog *log, int64 version)
{
	uint32		h = hash_bytes((const unsigned char *) log->table_path,
							   (int) strlen(log->table_path));

	return hash_combine(h, hash_bytes((const unsigned char *) &version,
									  sizeof(version))) | 1;
}

/* true when (log, version) was seen lately; else remembers it */
static bool
lazy_recent_seen(const DeltaLog *log, int64 version)
{
	uint32		key = lazy_recent_key(log, version);
	int			i;

	for (i = 0; i < LAZY_RECENT; i++)
		if (lazy_recent[i] == key)
			return true;
	lazy_recent[lazy_recent_next] = key;
	lazy_recent_next = (lazy_recent_next + 1) % LAZY_RECENT;
	return false;
}

/*
 * lazy_read_files_add: look winner's removed paths up (see LazyReadFiles)
 * and give the loser the read files found so far.  false (nothing done)
 * when they are to be derived whole instead: the read snapshot is cached,
 * or the read version was asked for lately, when the first winner comes;
 * too many paths to look up one by one, at any winner.
 */
static bool
lazy_read_files_add(LazyReadFiles *lr, CommitCacheScope *scope,
					ReadBinding *rb, LoserTxn *loser,
					const ConflictTable *table, DeltaLog *log,
					int64 read_version, const DeltaCommit *winner)
{
	int			nrem = 0;
	int			i;

	if (lr->given_up)
		return false;
	if (lr->snap == NULL &&
		(snapshot_cache_find(scope, log, read_version, true) != NULL ||
		 lazy_recent_seen(log, read_version)))
		return false;
	for (i = 0; i < winner->n_files; i++)
		if (winner->files[i].kind == DELTA_FILE_REMOVE)
			nrem++;
	if (lr->looked_up + nrem > LAZY_READ_MAX)
	{
		lr->given_up = true;
		return false;
	}
	lr->looked_up += nrem;
	if (lr->snap == NULL)
	{
		KeyIdx	   *items;
		int			k;

		lr->snap = DeltaSnapshotBuildLazy(log, read_version);
		if (lr->snap->n_files > PG_INT32_MAX / 2)
		{
			lr->given_up = true;
			return false;
		}
		lr->n = (int) lr->snap->n_files;
		/* keys, not normal forms: most paths are their own key */
		items = palloc_extended(sizeof(KeyIdx) * Max(lr->n, 1),
								MCXT_ALLOC_HUGE);
		for (k = 0; k < lr->n; k++)
		{
			if ((k & 1023) == 0)
				CHECK_FOR_INTERRUPTS();
			items[k].key = DeltaLogPathKey(table->log,
										   DeltaSnapshotFilePath(lr->snap, k));
			items[k].idx = k;
		}
		qsort(items, lr->n, sizeof(KeyIdx), cmp_key_idx);
		lr->items = items;
		lr->looked = palloc_extended(sizeof(bool) * Max(lr->n, 1),
									 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	}
	for (i = 0; i < winner->n_files; i++)
	{
		DeltaPathKey key;
		int			k;

		if (winner->files[i].kind != DELTA_FILE_REMOVE)
			continue;
		CHECK_FOR_INTERRUPTS();
		key = DeltaLogPathKey(table->log, winner->files[i].path);
		/* every live file of that path (once: winners may remove it again) */
		for (k = lazy_find_first(lr->items, lr->n, &key);
			 k < lr->n && DeltaPathKeyCmp(&lr->items[k].key, &key) == 0; k++)
		{
			DeltaFileAction *f;

			if (lr->looked[k])
				continue;
			lr->looked[k] = true;
			f = DeltaSnapshotGetFile(lr->snap, lr->items[k].idx);
			if (!delta_read_file_scanned(rb->rs, f))
				continue;		/* not read */
			if (lr->nfound == lr->capfound)
			{
				lr->capfound = Max(16, lr->capfound * 2);
				lr->found_paths = lr->found_paths == NULL ?
					palloc(sizeof(char *) * lr->capfound) :
					repalloc(lr->found_paths, sizeof(char *) * lr->capfound);
				lr->found_acts = lr->found_acts == NULL ?
					palloc(sizeof(DeltaFileAction *) * lr->capfound) :
					repalloc(lr->found_acts,
							 sizeof(DeltaFileAction *) * lr->capfound);
			}
			lr->found_paths[lr->nfound] = f->path;
			lr->found_acts[lr->nfound] = f;
			lr->nfound++;
		}
	}
	loser_set_read_files(loser, table, lr->nfound, lr->found_paths,
						 lr->found_acts);
	return true;
}

/*
 * Whether commit c has a RemoveFile (the commit cache indexes its commits;
 * any other is scanned).
 */
static bool
commit_removes_files(const DeltaCommit *c)
{
	int			i;

	if (c->adds != NULL)
		return c->n_removes > 0;
	for (i = 0; i < c->n_files; i++)
		if (c->files[i].kind == DELTA_FILE_REMOVE)
			return true;
	return false;
}

/*
 * conflict_check_run: see driver.h.
 */
ConflictResult *
conflict_check_run(const ConflictCheckArgs *args, bool conflicts_only,
				   ConflictCheckSeen *seen)
{
	DeltaLog   *log = args->log;
	int64		read_version = args->read_version;
	int64		through_version;
	char	  **preds = args->preds;
	int			npreds = args->npreds;
	ConflictMode mode = args->mode;
	int			nread_files = args->nread_files;
	DeltaSnapshot *snap;
	SnapshotCacheRef *sref;
	const DeltaSchema *schema;
	ConflictTable table;
	LoserTxn	loser;
	ReadBinding rb;
	ConflictReadSet reads;
	ConflictResult *result;
	const DeltaMetadata *cur_md;
	const DeltaProtocol *cur_proto;
	int			n_unknown = 0;
	int			i;
	int64		v;
	CommitCacheScope *scope;
	DeltaStatsPrescan *ps;
	RvPrescan	rvp;
	const DeltaMetadata *rv_md = NULL;
	const DeltaProtocol *rv_proto = NULL;
	bool		deferred;		/* read files not derived whole yet */
	LazyReadFiles lazy;			/* ... found path by path so far */

	if (read_version < 0 || read_version > log->latest_version)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("read_version %lld is out of range", (long long) read_version),
				errdetail("The table's versions are 0 to %lld.",
						  (long long) log->latest_version));
	through_version = args->has_through_version ? args->through_version :
		log->latest_version;
	if (through_version < read_version || through_version > log->latest_version)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("through_version %lld is out of range", (long long) through_version),
				errdetail("It must lie between read_version %lld and the latest version %lld.",
						  (long long) read_version, (long long) log->latest_version));

	/*
	 * The read snapshot, and the reads compiled against its schema (kept
	 * across statements by readset_cache.c).  With read_files given, the
	 * stats and partition modes need only its metadata and protocol (the
	 * snapshot's files serve to derive the read files, as row-level input
	 * and for the partition hints of delete/read conflicts on partitioned
	 * tables): then they come from the newest commits at or before the read
	 * version, through the commit cache.
	 */
	scope = commit_cache_scope_begin();
	snap = NULL;
	sref = NULL;
	memset(&rb, 0, sizeof(rb));
	memset(&rvp, 0, sizeof(rvp));
	memset(&lazy, 0, sizeof(lazy));
	deferred = nread_files < 0 && npreds > 0 && args->defer_read_files &&
		seen == NULL && mode != CONFLICT_MODE_ROW_LEVEL;
	if ((deferred || (nread_files >= 0 && mode != CONFLICT_MODE_ROW_LEVEL)) &&
		read_version_state(log, read_version, scope, &rv_md, &rv_proto))
	{
		/*
		 * Deferred, the read files are derived when the first winner that
		 * removes a file comes; until then, as with read_files given, the
		 * check needs the read version's metaData and protocol only.
		 */
		rb.rs = readset_cache_instance(rv_md, npreds,
									   (const char *const *) preds);
		if (!deferred && delta_readset_schema(rb.rs)->npartition > 0)
		{
			/* partitioned: the hints need the files */
			sref = snapshot_cache_get(scope, log, read_version);
			snap = sref->snap;
			rv_md = snap->metadata;
			rv_proto = snap->protocol;
		}
	}
	else
	{
		deferred = false;

		/*
		 * (kept across calls by snapshot_cache.c; one built now has its
		 * statistics strings prescanned for the reads' columns while its
		 * add lines are decoded: see derive_read_files)
		 */
		rvp.rb = &rb;
		rvp.npreds = npreds;
		rvp.preds = preds;
		sref = snapshot_cache_get_prescan(scope, log, read_version,
										  nread_files < 0 &&
										  mode != CONFLICT_MODE_PARTITION ?
										  rv_prescan : NULL, &rvp);
		snap = sref->snap;
		rv_md = snap->metadata;
		rv_proto = snap->protocol;
		if (rvp.md != rv_md)
		{
			/* not built now (or not from this metaData): compile again */
			rb.rs = readset_cache_instance(rv_md, npreds,
										   (const char *const *) preds);
			rvp.ps = NULL;
			rvp.md = NULL;
		}
	}
	/* (the read version's metaData, so the same schema either way) */
	schema = delta_readset_schema(rb.rs);
	memset(&table, 0, sizeof(table));
	table.log = log;
	table.read_version = read_version;
	table.metadata = rv_md;
	table.protocol = rv_proto;
	table.n_partition_columns = schema->npartition;
	table.partition_logical = palloc(sizeof(char *) * Max(schema->npartition, 1));
	table.partition_physical = palloc(sizeof(char *) * Max(schema->npartition, 1));
	for (i = 0; i < schema->npartition; i++)
	{
		table.partition_logical[i] = schema->partition_names[i];
		table.partition_physical[i] = schema->partition[i] ?
			schema->partition[i]->physical_name : schema->partition_names[i];
	}
	table.n_files = snap ? (int) snap->n_files : 0;
	table.files = sref != NULL ? sref->live : NULL;

	/* the reads */
	rb.reads_n = npreds;
	rb.texts = preds;
	memset(&reads, 0, sizeof(reads));
	reads.n_reads = npreds;
	reads.ctx = &rb;
	reads.has_data_conjunct = rb_has_data_conjunct;
	reads.stats_match = rb_stats_match;
	reads.stats_filter = rb_stats_filter;
	reads.partition_match = rb_partition_match;
	reads.read_text = rb_read_text;
	reads.compiled = rb.rs;
	if (rvp.md == NULL)
		bind_stats_columns(&rb, schema);

	/* the loser */
	memset(&loser, 0, sizeof(loser));
	if (args->actions)
		loser.commit = loser_decode_actions(args->actions, &n_unknown);
	else if (args->loser_commit)
	{
		loser.commit = args->loser_commit;
		n_unknown = args->loser_n_unknown;
	}
	else
	{
		DeltaCommit *empty = palloc0(sizeof(DeltaCommit));

		empty->version = -1;
		loser.commit = empty;
	}
	loser.read_whole_table = args->read_whole_table;
	loser.n_read_app_ids = args->napp;
	loser.read_app_ids = args->app_ids;
	if (nread_files >= 0)
	{
		loser.read_files_given = true;
		loser_set_read_files(&loser, &table, nread_files, args->read_files,
							 NULL);
	}
	else if (!deferred)
		derive_read_files(&rb, &loser, &table, scope, sref, npreds, rvp.ps);
	loser_derive(&loser, &table, npreds, args->isolation, n_unknown);

	/* every winner, in order */
	result = palloc0(sizeof(ConflictResult));
	result->conflicts_only = conflicts_only;
	cur_md = rv_md;
	cur_proto = rv_proto;
	/* the read columns' statistics scanned while winners are read */
	if (rvp.ps != NULL)
	{
		/* the read snapshot's, for the same columns: reset for the winners */
		ps = rvp.ps;
		delta_stats_prescan_reset(ps);
	}
	else
		ps = mode == CONFLICT_MODE_PARTITION ? NULL :
			delta_stats_prescan_create(rb.ncols, rb.col_field);
	if (seen != NULL)
	{
		seen->n_winners = 0;
		seen->winners = palloc(sizeof(DeltaCommit *) *
							   Max(through_version - read_version, 1));
	}
	for (v = read_version + 1; v <= through_version; v++)
	{
		CommitCacheRef *ref;
		DeltaCommit *winner;

		CHECK_FOR_INTERRUPTS();
		/* (ps is reset: new, or after the previous winner's answers) */
		ref = commit_cache_get_prescan(scope, log, v, ps);
		winner = ref->commit;
		/*
		 * Deferred read files, now that a winner removes a file: path by
		 * path while the read snapshot is not cached (LazyReadFiles; the
		 * first such winner decides, and lazy.snap is built then), else
		 * from the read snapshot (cached across calls; one built now has
		 * its statistics prescanned for the reads' columns, as in the
		 * eager case).  rb's per-winner fields are set for this winner
		 * below.
		 */
		if (deferred && commit_removes_files(winner) &&
			!lazy_read_files_add(&lazy, scope, &rb, &loser, &table, log,
								 read_version, winner))
		{
			DeferredPrescan dp;

			dp.rb = &rb;
			dp.md = rv_md;
			dp.ps = NULL;
			sref = snapshot_cache_get_prescan(scope, log, read_version,
											  mode != CONFLICT_MODE_PARTITION ?
											  deferred_prescan : NULL, &dp);
			snap = sref->snap;
			table.n_files = (int) snap->n_files;
			table.files = sref->live;
			derive_read_files(&rb, &loser, &table, scope, sref, npreds, dp.ps);
			deferred = false;
		}
		if (seen != NULL)
			seen->winners[seen->n_winners++] = winner;
		rb.hdr = NULL;
		rb.winner = winner;
		rb.fast_file = NULL;
		rb.loader = commit_cache_stats_loader(ref);
		rb.cs = NULL;
		rb.kept = NULL;
		rb.kept_stored = false;
		rb.reasons_stored = false;
		/* (the commit cache indexes every winner; unindexed: conservative) */
		rb.set_var = delta_commit_stats_include_nan(winner->commit_info,
													winner->adds == NULL ||
													winner->adds_with_dv) ? 1 : 0;
		if (mode != CONFLICT_MODE_PARTITION)
		{
			/* numRecords (row level) and the read columns, decoded once */
			DeltaCommitStats *cs;

			cs = delta_commit_stats_ensure_pre((DeltaCommitStats *) *ref->extra,
											   winner, rb.ncols, rb.col_field,
											   rb.col_key, rb.colvals, ref->cxt, ps,
											   rb.loader ? commit_cache_stats_text : NULL,
											   rb.loader);
			if (ps != NULL)
				delta_stats_prescan_reset(ps);	/* answers copied */
			*ref->extra = cs;

			/*
			 * Answers and kept lists are remembered per set of reads; a
			 * session that keeps checking new reads against the same winner
			 * would pile them up until the cache evicted the commit itself.
			 * Past RB_MAX_REMEMBERED they are all forgotten (only while no
			 * other call in progress holds pointers into them), and this
			 * call makes again what it needs.
			 */
			if (delta_commit_stats_remembered(cs) > RB_MAX_REMEMBERED &&
				commit_cache_ref_sole(ref))
				delta_commit_stats_forget(cs);
			for (i = 0; i < npreds; i++)
			{
				int			var = rb.set_var;

				rb.memo[i] = rb.memo_key[var][i] == NULL ? NULL :
					delta_commit_stats_memo(cs, rb.memo_key[var][i],
											rb.memo_keylen[var][i], ref->cxt);
			}
			commit_cache_ref_grown(scope, ref);
			rb.hdr = cs->hdr;
			rb.cs = cs;
			rb.cs_cxt = ref->cxt;
			if (rb.set_key[rb.set_var] != NULL)
				rb.kept = delta_commit_stats_kept(cs, rb.set_key[rb.set_var],
												  rb.set_keylen[rb.set_var]);
		}
		rb.nan_ok = rb.set_var == 1;
		rb.cached_file = NULL;
		conflict_check_winner(&table, &loser, &reads, mode, winner,
							  &cur_md, &cur_proto, result);
		if (rb.kept_stored || rb.reasons_stored)
			commit_cache_ref_grown(scope, ref);
		rb.cs = NULL;
		/* texts read again for reasons now belong to the entry */
		if (commit_cache_stats_loader_close(rb.loader) > 0)
			commit_cache_ref_grown(scope, ref);
		rb.loader = NULL;
	}
	if (seen != NULL)
	{
		LoserTxn   *copy = palloc(sizeof(LoserTxn));

		*copy = loser;
		seen->loser = copy;
		seen->read_metadata = rv_md;
		seen->read_protocol = rv_proto;
		seen->final_metadata = cur_md;
		seen->final_protocol = cur_proto;
		seen->read_snapshot = snap;
	}
	return result;
}

/*
 * conflict_state_at: see driver.h.
 */
void
conflict_state_at(DeltaLog *log, int64 version, const DeltaMetadata **md,
				  const DeltaProtocol **proto)
{
	CommitCacheScope *scope = commit_cache_scope_begin();
	SnapshotCacheRef *cached = snapshot_cache_find(scope, log, version, true);

	if (cached != NULL)
	{
		*md = cached->snap->metadata;
		*proto = cached->snap->protocol;
		return;
	}
	if (!read_version_state(log, version, scope, md, proto))
	{
		DeltaSnapshot *snap = DeltaSnapshotBuildLazy(log, version);

		*md = snap->metadata;
		*proto = snap->protocol;
	}
}

/*
 * conflict_raise_first: see driver.h.  The message of
 * deltacc.assert_no_conflict.
 */
void
conflict_raise_first(const ConflictResult *res, const char *hint)
{
	int			i;

	for (i = 0; i < res->n; i++)
	{
		ConflictDecision *d = &res->rows[i];

		if (d->decision != DECISION_CONFLICT)
			continue;
		ereport(ERROR,
				errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				errmsg("%s: a concurrent %s committed at version %lld conflicts with this transaction",
					   d->exception, d->operation,
					   (long long) d->winning_version),
				d->path ?
				errdetail("Operation %s, version %lld, file \"%s\"%s%s: %s",
						  d->operation, (long long) d->winning_version,
						  d->path,
						  d->partition_hint ? " in partition " : "",
						  d->partition_hint ? d->partition_hint : "",
						  d->reason) :
				errdetail("Operation %s, version %lld: %s",
						  d->operation, (long long) d->winning_version,
						  d->reason),
				hint ? errhint("%s", hint) : 0);
	}
}

/*
 * conflict_mode_parse: see driver.h.
 */
ConflictMode
conflict_mode_parse(const char *m)
{
	if (m == NULL)
		return (ConflictMode) deltacc_default_mode;
	if (strcmp(m, "partition") == 0)
		return CONFLICT_MODE_PARTITION;
	if (strcmp(m, "stats") == 0)
		return CONFLICT_MODE_STATS;
	if (strcmp(m, "row_level") == 0)
		return CONFLICT_MODE_ROW_LEVEL;
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("invalid conflict mode \"%s\"", m),
			errhint("Valid modes are 'partition', 'stats' and 'row_level'."));
	return CONFLICT_MODE_PARTITION;	/* not reached */
}
