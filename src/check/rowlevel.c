/*-------------------------------------------------------------------------
 *
 * rowlevel.c
 *	  The row-level tier of the conflict checker (see rowlevel.h):
 *	  merge-on-read re-add exclusion, the value-exact tier for added files
 *	  and row-level delete/read, reading Parquet data files under their
 *	  deletion vectors.
 *
 * Everything here is one-way: a file is ruled out only when the rows prove
 * it; any missing information, unsupported value, exceeded budget or error
 * keeps the decision Delta itself would make.  Errors are trapped per file
 * in an internal subtransaction (as PL/pgSQL's EXCEPTION blocks do), so a
 * corrupt file or DV becomes a "kept" reason instead of aborting the check;
 * query cancel and shutdown are re-thrown.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/rowlevel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <sys/stat.h>

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"

#include "check/rowlevel.h"
#include "common/json_util.h"
#include "common/subxact.h"
#include "format/parquet.h"
#include "log/log_reader.h"
#include "rows/data_reader.h"
#include "rows/deletion_vector.h"
#include "stats/predicate.h"
#include "stats/schema.h"
#include "stats/stats.h"

int			deltacc_row_level_max_bytes = 64 * 1024 * 1024;

/* Seconds between 1970-01-01 and 2000-01-01 (PostgreSQL's epoch). */

/*
 * What the loser's reads need from the rows: the compiled read set, the
 * leaves any read references, and whether every read has a usable data
 * conjunct (one that references a non-partition column).
 */
typedef struct RlReads
{
	DeltaReadSet *rs;
	const DeltaSchema *schema;
	int			nreads;
	bool	   *refs;			/* by leaf_index, union over the reads */
	int			no_data_read;	/* first read (0-based) without a usable
								 * data conjunct, or -1 */
} RlReads;

/* One scan of a data file's rows. */
typedef struct RlScan
{
	/* inputs */
	const ConflictTable *table;
	const RlReads *reads;
	const char *path;			/* as in the log */
	int64		num_records;	/* from the log, or -1 */
	const DeltaPartitionValues *pv; /* partition values to use */
	const RbSet *include;		/* consider only these rows (NULL: all) */
	const RbSet *exclude;		/* never consider these rows (NULL: none) */
	const DeltaDV *live_dv;		/* rl_scan_work: load this DV as exclude */
	int64	   *budget_used;	/* bytes read so far in this check */
	/* outputs */
	bool		over_budget;	/* not read: the budget would be exceeded */
	int64		file_size;
	int64		rows;			/* rows considered */
	int64		matching_rows;	/* rows matching at least one read */
	int64	   *matches;		/* per read */
} RlScan;

/* Arguments of the trapped work of a delete/read decision. */
typedef struct RlDeleteWork
{
	const ConflictTable *table;
	const DeltaDV *old_dv;		/* remove's DV (pre-image), may be NULL */
	const DeltaDV *new_dv;		/* re-add's DV (post-image), may be NULL */
	bool		has_post;		/* the winner re-adds the path */
	int64		num_records;
	RlScan	   *scan;
	/* outputs */
	bool		not_superset;	/* new DV does not contain the old one */
	int64		old_card;
	int64		new_card;
	bool		scanned;
} RlDeleteWork;

/* Arguments of the trapped DV subset test of the re-add exclusion. */
typedef struct RlSubsetWork
{
	const ConflictTable *table;
	const DeltaDV *old_dv;
	const DeltaDV *new_dv;
	int64		num_records;
	bool		subset;
} RlSubsetWork;

/* The winner's file actions of one kind, by normalised path (sorted). */
typedef struct RlPathIndex
{
	int			n;
	char	  **norm;
	const DeltaFileAction **acts;
} RlPathIndex;

struct RowLevelCheckState
{
	int64		budget_used;	/* bytes of data files read so far */
	RlPathIndex *adds;			/* the winner's adds, built on first use */
	RlReads    *reads;			/* built on first use */
};

typedef void (*RlWorkFn) (void *arg);

static char *rl_try(RlWorkFn fn, void *arg);
static RlReads *rl_reads(const ConflictReadSet *reads);
static RbSet *rl_load_dv(const ConflictTable *table, const DeltaDV *dv,
						 int64 num_records);
static void rl_scan_file(RlScan *scan);
static void rl_scan_work(void *arg);
static void rl_subset_work(void *arg);
static void rl_delete_work(void *arg);
static char *rl_match_summary(const RlScan *scan, const ConflictReadSet *reads,
							  const char *what);
static RlPathIndex *rl_path_index(const ConflictTable *table,
								  const DeltaCommit *winner,
								  DeltaFileKind kind);
static int	rl_find_paths(const RlPathIndex *idx, const char *norm_path,
						  const DeltaFileAction **first);
static bool rl_dv_empty(const DeltaDV *dv);
static bool rl_pv_carried(const DeltaPartitionValues *pv);
static bool rl_pv_equal(const DeltaSchema *schema,
						const DeltaPartitionValues *a,
						const DeltaPartitionValues *b);
static const char *rl_hint(const ConflictTable *table,
						   const DeltaPartitionValues *pv);
static char *rl_readd_pv_note(const ConflictTable *table,
							  const LoserTxn *loser, const RlReads *rr,
							  const DeltaFileAction *rem,
							  const DeltaFileAction *add,
							  const char *norm_path);
static const DeltaPartitionValues *rl_removed_pv(const ConflictTable *table,
												 const RlReads *rr,
												 const DeltaFileAction *remove,
												 const DeltaFileAction *read_file,
												 char **why);
static char *rl_rows(int64 n);

/*
 * rowlevel_init: define deltacc.row_level_max_bytes (called from _PG_init).
 */
void
rowlevel_init(void)
{
	DefineCustomIntVariable("deltacc.row_level_max_bytes",
							"Bytes of data files one row-level check of one winning commit may read.",
							"In mode row_level, files past this budget are kept (treated as Delta treats them) without being read; 0 disables reading.",
							&deltacc_row_level_max_bytes,
							64 * 1024 * 1024,
							0, INT_MAX,
							PGC_USERSET,
							GUC_UNIT_BYTE,
							NULL, NULL, NULL);
}

/*
 * rl_try: run fn(arg) inside an internal subtransaction (dc_try_subxact;
 * out-of-memory is trapped like any other error), in a scratch
 * memory context that is deleted afterwards (fn reports through *arg,
 * never through memory it allocates).  Returns NULL when fn completed,
 * else the error message (palloc'd in the caller's context); the
 * subtransaction is rolled back, releasing the files it opened.  Query
 * cancel and shutdown errors are re-thrown.  In parallel mode (no
 * subtransactions) fn runs untrapped, so an error is raised: a clean
 * error, never a pass.
 */
static char *
rl_try(RlWorkFn fn, void *arg)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	MemoryContext work_cxt;
	ErrorData  *edata;
	char	   *message = NULL;

	work_cxt = AllocSetContextCreate(oldcxt, "deltacc row-level work",
									 ALLOCSET_DEFAULT_SIZES);
	if (IsInParallelMode())
	{
		MemoryContextSwitchTo(work_cxt);
		fn(arg);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextDelete(work_cxt);
		return NULL;
	}

	edata = dc_try_subxact(fn, arg, work_cxt, false);
	if (edata != NULL)
	{
		if (edata->detail)
		{
			size_t		dl = strlen(edata->detail);

			/* "message: detail", without the detail's final period */
			message = psprintf("%s: %.*s", edata->message,
							   (int) (dl > 0 && edata->detail[dl - 1] == '.' ? dl - 1 : dl),
							   edata->detail);
		}
		else
			message = pstrdup(edata->message);
		FreeErrorData(edata);
	}
	MemoryContextDelete(work_cxt);
	return message;
}

/*
 * rl_reads: what the rows must provide for the loser's reads (palloc'd in
 * the current context).  NULL when the read set was not compiled.
 */
static RlReads *
rl_reads(const ConflictReadSet *reads)
{
	RlReads    *r;
	int			i,
				j;

	if (reads->compiled == NULL)
		return NULL;
	r = palloc0(sizeof(RlReads));
	r->rs = reads->compiled;
	r->schema = delta_readset_schema(r->rs);
	r->nreads = reads->n_reads;
	r->refs = palloc0(sizeof(bool) * Max(r->schema->nleaves, 1));
	r->no_data_read = -1;
	for (i = 0; i < r->nreads; i++)
	{
		bool	   *mine = palloc0(sizeof(bool) * Max(r->schema->nleaves, 1));
		bool		data = false;

		if (delta_read_row_references(r->rs, i, mine))
		{
			for (j = 0; j < r->schema->nleaves; j++)
			{
				if (!mine[j])
					continue;
				r->refs[j] = true;
				if (!r->schema->leaves[j]->is_partition)
					data = true;
			}
		}
		if (!data && r->no_data_read < 0)
			r->no_data_read = i;
		pfree(mine);
	}
	return r;
}

/*
 * rl_rows: "1 row" / "N rows" (palloc'd).
 */
static char *
rl_rows(int64 n)
{
	return psprintf("%lld row%s", (long long) n, n == 1 ? "" : "s");
}

/*
 * rl_dv_empty: no DV, or one with cardinality 0 (nothing deleted).
 */
static bool
rl_dv_empty(const DeltaDV *dv)
{
	return dv == NULL || dv->cardinality == 0;
}

/*
 * rl_pv_carried: the partitionValues map has an entry (a remove may carry
 * none: the field is optional on remove).
 */
static bool
rl_pv_carried(const DeltaPartitionValues *pv)
{
	return pv != NULL && !pv->is_null_map && pv->n > 0;
}

/*
 * rl_pv_equal: a and b give every partition column of schema the same
 * value as the row reader fills it (a missing key, JSON null and the empty
 * string all read as NULL).  Other values must be the same string: two
 * spellings of one value (a timestamp in both of its forms) count as
 * different, the safe direction.
 */
static bool
rl_pv_equal(const DeltaSchema *schema, const DeltaPartitionValues *a,
			const DeltaPartitionValues *b)
{
	int			i;

	for (i = 0; i < schema->npartition; i++)
	{
		const DeltaField *f = schema->partition[i];
		const char *va;
		const char *vb;

		if (f == NULL)
			continue;			/* not in the schema: no row carries it */
		(void) delta_partition_value_lookup(a, f, &va);
		(void) delta_partition_value_lookup(b, f, &vb);
		if (va != NULL && va[0] == '\0')
			va = NULL;
		if (vb != NULL && vb[0] == '\0')
			vb = NULL;
		if ((va == NULL) != (vb == NULL) ||
			(va != NULL && strcmp(va, vb) != 0))
			return false;
	}
	return true;
}

/*
 * rl_hint: the partition values as Delta prints them ("[p=1]"), "[]" for
 * none.
 */
static const char *
rl_hint(const ConflictTable *table, const DeltaPartitionValues *pv)
{
	char	   *hint = conflict_partition_hint(table, pv);

	return hint ? hint : "[]";
}

/*
 * rl_removed_pv: the partition values of the rows of a partitioned file the
 * winner removes (reference §5.2 trap 3): those of read_file, the loser's
 * read file with the same normalised path (the same physical file, with
 * the values this transaction read it under).  The remove may carry no
 * partition values; when it carries some, they must agree with the read
 * file's, or which rows it removed is not certain.  Returns NULL, with
 * *why set to a phrase, when read_file is NULL or has no partition values,
 * or when the two disagree.
 *
 * Safe even when an earlier winner re-added that path in another
 * partition, so that a later remove carrying no values names the newer
 * copy: that earlier winner is checked first, and its re-add is not
 * excluded as a merge-on-read re-add (rl_readd_pv_note), so its rows go
 * through the value-exact tier; a wrong guess here can then only add a
 * false conflict, never hide one.
 */
static const DeltaPartitionValues *
rl_removed_pv(const ConflictTable *table, const RlReads *rr,
			  const DeltaFileAction *remove, const DeltaFileAction *read_file,
			  char **why)
{
	if (read_file == NULL)
	{
		*why = pstrdup("the partition values of the removed file are unknown: this transaction read no file of that path in the read snapshot");
		return NULL;
	}
	if (!rl_pv_carried(&read_file->pv))
	{
		*why = pstrdup("the file this transaction read carries no partition values");
		return NULL;
	}
	if (rl_pv_carried(&remove->pv) &&
		!rl_pv_equal(rr->schema, &remove->pv, &read_file->pv))
	{
		*why = psprintf("the winner's remove gives partition values %s, but this transaction read the file in %s",
						rl_hint(table, &remove->pv),
						rl_hint(table, &read_file->pv));
		return NULL;
	}
	return &read_file->pv;
}

/*
 * rl_readd_pv_note: NULL when the winner's re-add 'add' of a partitioned
 * file it also removes ('rem'; norm_path is the normalised path) keeps the
 * partition values this transaction read the file under; else why the
 * re-add is not excluded (rows that move to another partition are new
 * there; unknown values prove nothing).  palloc'd.
 */
static char *
rl_readd_pv_note(const ConflictTable *table, const LoserTxn *loser,
				 const RlReads *rr, const DeltaFileAction *rem,
				 const DeltaFileAction *add, const char *norm_path)
{
	int			k = conflict_find_sorted(loser->read_file_norm,
										 loser->n_read_files, norm_path);
	const DeltaPartitionValues *before;
	char	   *why;

	before = rl_removed_pv(table, rr, rem,
						   k >= 0 ? loser->read_file_action[k] : NULL, &why);
	if (before == NULL)
		return psprintf("not excluded as a re-add: %s", why);
	if (!rl_pv_equal(rr->schema, &add->pv, before))
		return psprintf("not excluded as a re-add: it moves the file from %s, where this transaction read it, to %s, so its rows are new there",
						rl_hint(table, before), rl_hint(table, &add->pv));
	return NULL;
}

/*
 * rl_load_dv: the deleted rows of dv (an empty set for no DV), palloc'd in
 * the current context.  ERRORs as DeltaDVLoad.
 */
static RbSet *
rl_load_dv(const ConflictTable *table, const DeltaDV *dv, int64 num_records)
{
	RbSet	   *set;

	if (rl_dv_empty(dv))
	{
		set = palloc0(sizeof(RbSet));
		rb_set_empty(set);
		return set;
	}
	return DeltaDVLoad(table->log, dv, num_records);
}

/* qsort comparator of RlPathIndex entries (via an index array) */
typedef struct RlPathItem
{
	char	   *norm;
	const DeltaFileAction *act;
	int			seq;
} RlPathItem;

static int
rl_cmp_path_item(const void *a, const void *b)
{
	const RlPathItem *x = a;
	const RlPathItem *y = b;
	int			c = strcmp(x->norm, y->norm);

	return c != 0 ? c : x->seq - y->seq;
}

/*
 * rl_path_index: the winner's file actions of 'kind', sorted by normalised
 * path (palloc'd in the current context), so each lookup is a binary
 * search instead of a pass over the winner's files.
 */
static RlPathIndex *
rl_path_index(const ConflictTable *table, const DeltaCommit *winner,
			  DeltaFileKind kind)
{
	RlPathIndex *idx = palloc0(sizeof(RlPathIndex));
	RlPathItem *items;
	int			i;

	items = palloc_extended(sizeof(RlPathItem) * Max(winner->n_files, 1),
							MCXT_ALLOC_HUGE);
	for (i = 0; i < winner->n_files; i++)
	{
		const DeltaFileAction *f = &winner->files[i];

		CHECK_FOR_INTERRUPTS();
		if (f->kind != kind)
			continue;
		items[idx->n].norm = conflict_normalize_path(table, f->path);
		items[idx->n].act = f;
		items[idx->n].seq = i;
		idx->n++;
	}
	qsort(items, idx->n, sizeof(RlPathItem), rl_cmp_path_item);
	idx->norm = palloc_extended(sizeof(char *) * Max(idx->n, 1), MCXT_ALLOC_HUGE);
	idx->acts = palloc_extended(sizeof(DeltaFileAction *) * Max(idx->n, 1),
								MCXT_ALLOC_HUGE);
	for (i = 0; i < idx->n; i++)
	{
		idx->norm[i] = items[i].norm;
		idx->acts[i] = items[i].act;
	}
	pfree(items);
	return idx;
}

/*
 * rl_find_paths: the number of indexed actions whose normalised path is
 * norm_path; *first gets the first of them in the winner's order (or NULL).
 */
static int
rl_find_paths(const RlPathIndex *idx, const char *norm_path,
			  const DeltaFileAction **first)
{
	int			k = conflict_find_first_sorted(idx->norm, idx->n, norm_path);
	int			n = 0;

	*first = k >= 0 ? idx->acts[k] : NULL;
	for (; k >= 0 && k < idx->n && strcmp(idx->norm[k], norm_path) == 0; k++)
		n++;
	return n;
}

/*
 * rl_scan_file: read the data file of scan->path and count, among the rows
 * it considers (in scan->include, if set, and not in scan->exclude), those
 * that satisfy each read.  Runs untrapped (call it through rl_try); ERRORs
 * on anything it cannot read exactly.  Sets scan->over_budget instead of
 * reading when the file would exceed the byte budget.
 */
static void
rl_scan_file(RlScan *scan)
{
	const RlReads *rr = scan->reads;
	char	   *abs_path;
	DeltaRowIter *it;

	abs_path = DeltaLogResolvePath(scan->table->log, scan->path);
	scan->file_size = DeltaDataFileSize(abs_path, scan->path);
	if (scan->file_size > (int64) deltacc_row_level_max_bytes - *scan->budget_used)
	{
		scan->over_budget = true;
		return;
	}
	*scan->budget_used += scan->file_size;

	it = DeltaRowIterOpen(abs_path, scan->path, rr->schema, rr->refs, false,
						  scan->num_records, scan->pv);
	it->include = scan->include;
	it->exclude = scan->exclude;
	while (DeltaRowIterNext(it))
	{
		bool		any = false;
		int			r;

		scan->rows++;
		for (r = 0; r < rr->nreads; r++)
		{
			if (delta_read_row_matches(rr->rs, r, it->values, it->isnull))
			{
				scan->matches[r]++;
				any = true;
			}
		}
		if (any)
			scan->matching_rows++;
	}
	DeltaRowIterClose(it);
}

/* trapped: load the add's DV, then scan its live rows */
static void
rl_scan_work(void *arg)
{
	RlScan	   *scan = arg;

	scan->exclude = rl_load_dv(scan->table, scan->live_dv, scan->num_records);
	rl_scan_file(scan);
}

/* trapped: is the re-add's DV a superset of the removed one? */
static void
rl_subset_work(void *arg)
{
	RlSubsetWork *w = arg;
	RbSet	   *old_set = rl_load_dv(w->table, w->old_dv, w->num_records);
	RbSet	   *new_set = rl_load_dv(w->table, w->new_dv, w->num_records);

	w->subset = rb_is_subset(old_set, new_set);
}

/*
 * trapped: the removed rows of a delete/read overlap.  Loads the pre- and
 * post-image DVs, checks new ⊇ old, then scans the rows in new \ old (or
 * every live row of the pre-image when the file is removed outright).
 */
static void
rl_delete_work(void *arg)
{
	RlDeleteWork *w = arg;
	RbSet	   *old_set = rl_load_dv(w->table, w->old_dv, w->num_records);
	RbSet	   *new_set = NULL;

	w->old_card = (int64) rb_cardinality(old_set);
	if (w->has_post)
	{
		new_set = rl_load_dv(w->table, w->new_dv, w->num_records);
		w->new_card = (int64) rb_cardinality(new_set);
		if (!rb_is_subset(old_set, new_set))
		{
			w->not_superset = true;
			return;
		}
		if (w->new_card == w->old_card)
			return;				/* the same rows: nothing removed */
		w->scan->include = new_set;
	}
	w->scan->exclude = old_set;
	rl_scan_file(w->scan);
	w->scanned = true;
}

/*
 * rl_match_summary: "3 of 50 live rows match read 1 (id % 2 = 0)" style
 * text for a finished scan ('what' names the rows: "live", "removed").
 */
static char *
rl_match_summary(const RlScan *scan, const ConflictReadSet *reads,
				 const char *what)
{
	StringInfoData buf;
	int			r;
	bool		first = true;

	initStringInfo(&buf);
	if (scan->matching_rows == 0)
	{
		appendStringInfo(&buf, "none of the %lld %s row%s matches %s",
						 (long long) scan->rows, what,
						 scan->rows == 1 ? "" : "s",
						 reads->n_reads == 1 ? "the read" : "any read");
		return buf.data;
	}
	for (r = 0; r < reads->n_reads; r++)
	{
		if (scan->matches[r] == 0)
			continue;
		appendStringInfo(&buf, "%s%lld of %lld %s row%s match%s read %d (%s)",
						 first ? "" : "; ",
						 (long long) scan->matches[r], (long long) scan->rows,
						 what, scan->rows == 1 ? "" : "s",
						 scan->matches[r] == 1 ? "es" : "",
						 r + 1,
						 reads->read_text ? reads->read_text(reads->ctx, r) : "?");
		first = false;
	}
	return buf.data;
}

/*
 * rowlevel_filter_added: see rowlevel.h.
 */
bool
rowlevel_filter_added(const ConflictTable *table, const LoserTxn *loser,
					  const ConflictReadSet *reads, const DeltaCommit *winner,
					  int nadd, const DeltaFileAction **adds,
					  bool *survives, char **reasons)
{
	RlReads    *rr;
	RlPathIndex *removes;
	int64		budget_used = 0;
	int			i;

	if (loser->read_whole_table || reads->n_reads == 0)
		return false;
	rr = rl_reads(reads);
	if (rr == NULL)
		return false;
	removes = rl_path_index(table, winner, DELTA_FILE_REMOVE);

	for (i = 0; i < nadd; i++)
	{
		const DeltaFileAction *add = adds[i];
		const DeltaFileAction *rem;
		int			nrem;
		char	   *norm;
		char	   *readd_note = NULL;

		CHECK_FOR_INTERRUPTS();

		/*
		 * (a) merge-on-read re-add exclusion, only with the partition values
		 * kept and a proven superset
		 */
		norm = conflict_normalize_path(table, add->path);
		nrem = rl_find_paths(removes, norm, &rem);
		if (nrem > 1)
			readd_note = "not excluded as a re-add: the winner removes this path more than once";
		else if (nrem == 1)
		{
			bool		proven = false;

			if (table->n_partition_columns > 0)
				readd_note = rl_readd_pv_note(table, loser, rr, rem, add, norm);
			if (readd_note == NULL)
			{
				if (rl_dv_empty(rem->dv))
					proven = true;
				else if (rl_dv_empty(add->dv))
					readd_note = "not excluded as a re-add: it drops the deletion vector of the removed file, so deleted rows come back";
				else if (rem->dv->unique_id && add->dv->unique_id &&
						 strcmp(rem->dv->unique_id, add->dv->unique_id) == 0)
					proven = true;
				else if (add->dv->cardinality < rem->dv->cardinality)
					readd_note = psprintf("not excluded as a re-add: its deletion vector (%s) is smaller than the removed one (%s), so rows come back",
										  rl_rows(add->dv->cardinality),
										  rl_rows(rem->dv->cardinality));
				else
				{
					RlSubsetWork w;
					char	   *errmsg_text;

					memset(&w, 0, sizeof(w));
					w.table = table;
					w.old_dv = rem->dv;
					w.new_dv = add->dv;
					w.num_records = add->has_num_records ? add->num_records : -1;
					errmsg_text = rl_try(rl_subset_work, &w);
					if (errmsg_text)
						readd_note = psprintf("not excluded as a re-add: deletion vectors not read: %s",
											  errmsg_text);
					else if (w.subset)
						proven = true;
					else
						readd_note = "not excluded as a re-add: its deletion vector does not contain the removed one, so rows come back";
				}
			}
			if (proven)
			{
				survives[i] = false;
				reasons[i] = psprintf("skipped: merge-on-read re-add: the winner also removes this file and the new deletion vector (%s) contains the removed one (%s), so it adds no row; the delete/read check decides",
									  rl_rows(add->dv ? add->dv->cardinality : 0),
									  rl_rows(rem->dv ? rem->dv->cardinality : 0));
				continue;
			}
		}

		if (!survives[i])
			continue;			/* the statistics ruled it out */

		/* (b) the value-exact tier */
		if (rr->no_data_read >= 0)
		{
			reasons[i] = psprintf("kept: %s%sread %d has no usable data conjunct, so rows cannot rule the file out",
								  readd_note ? readd_note : "",
								  readd_note ? "; " : "",
								  rr->no_data_read + 1);
			continue;
		}
		{
			RlScan		scan;
			char	   *errmsg_text;
			const char *prefix = readd_note ? psprintf("%s; ", readd_note) : "";

			memset(&scan, 0, sizeof(scan));
			scan.table = table;
			scan.reads = rr;
			scan.path = add->path;
			scan.num_records = add->has_num_records ? add->num_records : -1;
			scan.pv = &add->pv;
			scan.live_dv = add->dv;
			scan.budget_used = &budget_used;
			scan.matches = palloc0(sizeof(int64) * reads->n_reads);
			errmsg_text = rl_try(rl_scan_work, &scan);
			if (errmsg_text)
				reasons[i] = psprintf("kept: %srows not read: %s", prefix,
									  errmsg_text);
			else if (scan.over_budget)
				reasons[i] = psprintf("kept: %srows not read: the file (%lld bytes) would exceed deltacc.row_level_max_bytes (%d bytes, %lld already read)",
									  prefix, (long long) scan.file_size,
									  deltacc_row_level_max_bytes,
									  (long long) budget_used);
			else if (scan.matching_rows == 0)
			{
				survives[i] = false;
				reasons[i] = psprintf("skipped: %srows: %s", prefix,
									  rl_match_summary(&scan, reads, "live"));
			}
			else
				reasons[i] = psprintf("kept: %srows: %s", prefix,
									  rl_match_summary(&scan, reads, "live"));
		}
	}
	return true;
}

/*
 * rowlevel_delete_read_skips: see rowlevel.h.
 */
bool
rowlevel_delete_read_skips(const ConflictTable *table, const LoserTxn *loser,
						   const ConflictReadSet *reads,
						   const DeltaCommit *winner,
						   const DeltaFileAction *remove,
						   const DeltaFileAction *read_file,
						   RowLevelCheckState **state, char **reason)
{
	RowLevelCheckState *st;
	RlReads    *rr;
	const DeltaFileAction *readd;
	int			nadd;
	RlDeleteWork w;
	RlScan		scan;
	char	   *errmsg_text;
	const DeltaPartitionValues *pv;
	const char *pv_note = "";

	if (loser->read_whole_table)
	{
		*reason = pstrdup("row level not used: this transaction read the whole table");
		return false;
	}
	if (reads->n_reads == 0)
	{
		*reason = pstrdup("row level not used: this transaction has no read predicate");
		return false;
	}
	if (*state == NULL)
		*state = palloc0(sizeof(RowLevelCheckState));
	st = *state;
	if (st->reads == NULL)
		st->reads = rl_reads(reads);
	rr = st->reads;
	if (rr == NULL)
	{
		*reason = pstrdup("row level not used: the reads are not compiled");
		return false;
	}
	if (rr->no_data_read >= 0)
	{
		*reason = psprintf("row level not used: read %d has no usable data conjunct",
						   rr->no_data_read + 1);
		return false;
	}
	pv = &remove->pv;			/* unpartitioned: no partition leaf to fill */
	if (table->n_partition_columns > 0)
	{
		char	   *why;

		/* from the loser's own read file (the same physical file) */
		pv = rl_removed_pv(table, rr, remove, read_file, &why);
		if (pv == NULL)
		{
			*reason = psprintf("row level not used: %s", why);
			return false;
		}
		if (!rl_pv_carried(&remove->pv))
			pv_note = psprintf("; the removed rows are in %s, the partition of the file this transaction read (the winner's remove carries no partition values)",
							   rl_hint(table, pv));
	}
	if (st->adds == NULL)
		st->adds = rl_path_index(table, winner, DELTA_FILE_ADD);
	nadd = rl_find_paths(st->adds, conflict_normalize_path(table, remove->path),
						 &readd);
	if (nadd > 1)
	{
		*reason = pstrdup("row level not used: the winner adds this path more than once");
		return false;
	}
	if (readd && table->n_partition_columns > 0 &&
		!rl_pv_equal(rr->schema, &readd->pv, pv))
	{
		*reason = psprintf("row level not used: the winner re-adds the file in %s, but this transaction read it in %s, so its rows leave that partition",
						   rl_hint(table, &readd->pv), rl_hint(table, pv));
		return false;
	}

	memset(&w, 0, sizeof(w));
	memset(&scan, 0, sizeof(scan));
	scan.table = table;
	scan.reads = rr;
	scan.path = remove->path;
	scan.num_records = read_file && read_file->has_num_records ?
		read_file->num_records :
		(readd && readd->has_num_records ? readd->num_records : -1);
	scan.pv = pv;
	scan.budget_used = &st->budget_used;
	scan.matches = palloc0(sizeof(int64) * reads->n_reads);
	w.table = table;
	w.old_dv = remove->dv;
	w.new_dv = readd ? readd->dv : NULL;
	w.has_post = (readd != NULL);
	w.num_records = scan.num_records;
	w.scan = &scan;
	errmsg_text = rl_try(rl_delete_work, &w);
	if (errmsg_text)
	{
		*reason = psprintf("rows not read: %s", errmsg_text);
		return false;
	}
	if (w.not_superset)
	{
		*reason = psprintf("row level not used: the winner re-adds the file with a deletion vector (%s) that does not contain the removed one (%s), so rows come back",
						   rl_rows(w.new_card), rl_rows(w.old_card));
		return false;
	}
	if (w.has_post && !w.scanned)
	{
		*reason = psprintf("the winner re-adds the file with the same deleted rows (%s), so no row was removed",
						   rl_rows(w.new_card));
		return true;
	}
	if (scan.over_budget)
	{
		*reason = psprintf("rows not read: the file (%lld bytes) would exceed deltacc.row_level_max_bytes (%d bytes, %lld already read)",
						   (long long) scan.file_size,
						   deltacc_row_level_max_bytes,
						   (long long) st->budget_used);
		return false;
	}
	*reason = psprintf("%s%s%s",
					   w.has_post ? "merge-on-read delete: " : "file removed outright: ",
					   rl_match_summary(&scan, reads, "removed"), pv_note);
	return scan.matching_rows == 0;
}
