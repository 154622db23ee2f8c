/*-------------------------------------------------------------------------
 *
 * replay.c
 *	  History replay and audit (see replay.h): a commit's recorded reads
 *	  derived from its commitInfo, each check run by the driver inside a
 *	  subtransaction so that an error becomes a reported conflict, and the
 *	  two loops of deltacc.replay and deltacc.concurrency.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/replay.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "check/driver.h"
#include "check/loser.h"
#include "check/replay.h"
#include "common/json_util.h"
#include "common/subxact.h"
#include "log/actions.h"
#include "snapshot/commit_cache.h"
#include "stats/schema.h"
#include "stats/spark_predicate.h"

/* How a commit's reads are replayed (the driver's arguments, and the row's) */
typedef struct ReplayReads
{
	char	  **preds;
	int			npreds;
	bool		read_whole_table;
	char	  **read_files;
	int			nread_files;	/* -1: derived from preds */
	char	  **app_ids;
	int			napp;
	const char *isolation;		/* the level argument, or NULL */
	const char *read_predicate; /* for the row (see ReplayRow) */
	const char *note;			/* how they were derived, NULL when exact */
} ReplayReads;

/*
 * The metaData in force at each version a loop has gone past, so that a
 * commit's read version need not be looked up again (conflict_state_at
 * walks the log back to the newest metaData).  The loops feed every commit
 * they read, in version order; a version whose state was looked up
 * (learn) becomes a known point, and the metaData actions fed after it
 * are known changes: the state at r is that of the newest point at or
 * before r, provided every version between that point and r was fed.
 * Everything is copied into cxt (the call's context: commits of the
 * commit cache are not kept pinned).
 */
typedef struct MdTrack
{
	MemoryContext cxt;
	int64		first_fed;		/* first version fed in a row, -1: none */
	int64		upto;			/* last version fed */
	int			n;
	int			cap;
	int64	   *ver;			/* points, ascending */
	DeltaMetadata **md;
} MdTrack;

/* One check to run: the loser, where it read, through which winner. */
typedef struct ReplayWork
{
	DeltaLog   *log;
	const DeltaCommit *commit;	/* the loser: a commit of the table */
	int64		read_version;
	int64		through_version;
	ConflictMode mode;
	ReplayReads *reads;			/* filled by derive, read by check */
	ReplayVerdict *verdict;		/* filled by check */
	MemoryContext result_cxt;	/* where reads and verdict live */
	MdTrack    *track;			/* the metaData seen so far */
} ReplayWork;

const char *
replay_mode_name(ConflictMode mode)
{
	switch (mode)
	{
		case CONFLICT_MODE_PARTITION:
			return "partition";
		case CONFLICT_MODE_STATS:
			return "stats";
		case CONFLICT_MODE_ROW_LEVEL:
			return "row_level";
	}
	return "unknown";
}

/* ---------- the metaData in force at a read version ---------- */

static char *
md_strdup(MemoryContext cxt, const char *s)
{
	return s ? MemoryContextStrdup(cxt, s) : NULL;
}

static char **
md_strsdup(MemoryContext cxt, char **v, int n)
{
	char	  **r = MemoryContextAllocZero(cxt, sizeof(char *) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
		r[i] = md_strdup(cxt, v[i]);
	return r;
}

/* A deep copy of md in cxt */
static DeltaMetadata *
md_copy(MemoryContext cxt, const DeltaMetadata *md)
{
	DeltaMetadata *c = MemoryContextAlloc(cxt, sizeof(DeltaMetadata));

	*c = *md;
	c->id = md_strdup(cxt, md->id);
	c->name = md_strdup(cxt, md->name);
	c->description = md_strdup(cxt, md->description);
	c->format_json = md_strdup(cxt, md->format_json);
	c->schema_string = md_strdup(cxt, md->schema_string);
	c->partition_columns = md_strsdup(cxt, md->partition_columns,
									  md->n_partition_columns);
	c->config_keys = md_strsdup(cxt, md->config_keys, md->n_configuration);
	c->config_values = md_strsdup(cxt, md->config_values, md->n_configuration);
	return c;
}

/* Record md as the state at version v (points stay ascending). */
static void
md_track_put(MdTrack *t, int64 v, const DeltaMetadata *md)
{
	DeltaMetadata *copy;
	int			i = t->n;

	while (i > 0 && t->ver[i - 1] > v)
		i--;
	if (i > 0 && t->ver[i - 1] == v)
		return;					/* known already */
	copy = md_copy(t->cxt, md);
	if (t->n == t->cap)
	{
		t->cap = Max(8, t->cap * 2);
		t->ver = t->ver ? repalloc(t->ver, sizeof(int64) * t->cap) :
			MemoryContextAlloc(t->cxt, sizeof(int64) * t->cap);
		t->md = t->md ? repalloc(t->md, sizeof(DeltaMetadata *) * t->cap) :
			MemoryContextAlloc(t->cxt, sizeof(DeltaMetadata *) * t->cap);
	}
	memmove(t->ver + i + 1, t->ver + i, sizeof(int64) * (t->n - i));
	memmove(t->md + i + 1, t->md + i, sizeof(DeltaMetadata *) * (t->n - i));
	t->ver[i] = v;
	t->md[i] = copy;
	t->n++;
}

/* The loop read commit v (of version v): its metaData is a change. */
static void
md_track_feed(MdTrack *t, int64 v, const DeltaCommit *c)
{
	if (t->first_fed < 0 || v != t->upto + 1)
	{
		/* not contiguous: start again */
		t->n = 0;
		t->first_fed = v;
	}
	t->upto = v;
	if (c->metadata != NULL)
		md_track_put(t, v, c->metadata);
}

/* The state at r, or NULL when the track does not know it. */
static const DeltaMetadata *
md_track_at(const MdTrack *t, int64 r)
{
	int			i;

	if (t->first_fed < 0 || r > t->upto || r < t->first_fed - 1)
		return NULL;
	for (i = t->n - 1; i >= 0; i--)
		if (t->ver[i] <= r)
			return t->md[i];
	return NULL;
}

/* md was looked up as the state at r: a point, when the track covers r. */
static void
md_track_learn(MdTrack *t, int64 r, const DeltaMetadata *md)
{
	if (t->first_fed >= 0 && r >= t->first_fed - 1 && r <= t->upto)
		md_track_put(t, r, md);
}

/* ---------- the reads a commit recorded ---------- */

/* A parameter that is true: JSON true or the text "true" (delta-rs) */
static bool
param_true(const DjValue *params, const char *key)
{
	const DjValue *v = params ? dj_get(params, key) : NULL;

	return v != NULL && (v->type == DJ_TRUE ||
						 (v->type == DJ_STRING && pg_strcasecmp(v->u.str, "true") == 0));
}

static bool
op_is(const char *op, const char *name)
{
	return op != NULL && strcmp(op, name) == 0;
}

/*
 * The writer's dialect: engineInfo (Spark, Databricks, delta-rs), else
 * delta-rs's clientVersion ("delta-rs.0.22.3").
 */
static SpDialect
commit_dialect(const DeltaCommitInfo *ci)
{
	DjValue		info;
	const DjValue *cv;
	char	   *json;

	if (ci->engine_info != NULL)
		return delta_spark_dialect(ci->engine_info);
	json = DeltaCommitInfoJson(ci);
	if (dc_json_try_parse(json, strlen(json), &info) &&
		(cv = dj_get(&info, "clientVersion")) != NULL && cv->type == DJ_STRING &&
		pg_strncasecmp(cv->u.str, "delta-rs", 8) == 0)
		return SP_DIALECT_DELTA_RS;
	return SP_DIALECT_AUTO;
}

static void
reads_whole_table(ReplayReads *r, const char *why)
{
	r->npreds = 0;
	r->read_whole_table = true;
	r->read_files = NULL;
	r->nread_files = -1;
	r->read_predicate = NULL;
	r->note = psprintf("read set: the whole table (%s)", why);
}

/*
 * The recorded predicate (a JSON string holding Spark's JSON array or one
 * expression; an array as such) translated over the schema of md; a read
 * of the whole table when it does not translate.
 */
static void
reads_translate(ReplayReads *r, const DjValue *pred, const DeltaMetadata *md,
				SpDialect dialect)
{
	const char *text;
	char	   *sql;
	SpOutcome	outcome;
	const char *reason;

	if (pred->type == DJ_STRING)
		text = pred->u.str;
	else if (pred->type == DJ_ARRAY)
		text = dc_dj_to_json(pred);
	else
	{
		reads_whole_table(r, "the recorded predicate is not text");
		return;
	}
	sql = delta_spark_predicate(text, delta_schema_from_metadata(md), dialect,
								&outcome, &reason);
	if (sql == NULL)
	{
		reads_whole_table(r, psprintf("the recorded predicate does not translate: %s",
									  reason ? reason : "no reason given"));
		return;
	}
	r->preds = palloc(sizeof(char *));
	r->preds[0] = sql;
	r->npreds = 1;
	r->read_predicate = sql;
	if (outcome == SP_WIDENED)
		r->note = psprintf("read set: the recorded predicate, widened (%s)",
						   reason ? reason : "no reason given");
}

/*
 * The isolation level argument: the recorded level, or the table's when
 * that is stricter (smaller); NULL (the table's level and Delta's
 * downgrade) when none is recorded, or SnapshotIsolation is.
 */
static const char *
reads_isolation(const DeltaCommitInfo *ci, const DeltaMetadata *md)
{
	DeltaIsolationLevel recorded;
	DeltaIsolationLevel table;
	const char *conf = delta_metadata_config(md, "delta.isolationLevel");

	if (ci == NULL || ci->isolation_level == NULL ||
		!delta_isolation_parse(ci->isolation_level, &recorded) ||
		recorded == DELTA_ISO_SNAPSHOT)
		return NULL;
	if (conf != NULL && delta_isolation_parse(conf, &table) && table < recorded)
		recorded = table;
	return delta_isolation_name(recorded);
}

/* Operations that rewrite files without changing data: they read those files. */
static bool
rewrites_files(const char *op, bool *adds_read)
{
	*adds_read = op_is(op, "COMPUTE STATS") || op_is(op, "ROW TRACKING BACKFILL") ||
		op_is(op, "ROW TRACKING UNBACKFILL");
	return *adds_read || op_is(op, "OPTIMIZE") || op_is(op, "REORG");
}

/*
 * derive_reads (a DcWorkFn): w->reads from the loser's commitInfo, at
 * w->read_version.  Allocates in w->result_cxt.
 */
static void
derive_reads(void *arg)
{
	ReplayWork *w = (ReplayWork *) arg;
	const DeltaCommit *c = w->commit;
	const DeltaCommitInfo *ci = c->commit_info;
	const char *op = ci ? ci->operation : NULL;
	ReplayReads *r;
	const DeltaMetadata *md;
	const DeltaProtocol *proto;
	DjValue		params;
	char	   *params_json;
	bool		have_params;
	bool		only_adds = true;
	bool		adds_read;
	const DjValue *pred;
	int			i;
	MemoryContext old = MemoryContextSwitchTo(w->result_cxt);

	if (w->read_version < 0)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("readVersion %lld is not a version of the table",
					   (long long) w->read_version));
	md = md_track_at(w->track, w->read_version);
	if (md == NULL)
	{
		conflict_state_at(w->log, w->read_version, &md, &proto);
		md_track_learn(w->track, w->read_version, md);
	}

	params.type = DJ_OBJECT;	/* none recorded: no parameters */
	params.len = 0;
	r = palloc0(sizeof(ReplayReads));
	r->nread_files = -1;
	r->isolation = reads_isolation(ci, md);
	r->app_ids = palloc(sizeof(char *) * Max(c->n_txns, 1));
	for (i = 0; i < c->n_txns; i++)
		r->app_ids[i] = c->txns[i].app_id;
	r->napp = c->n_txns;
	for (i = 0; i < c->n_files; i++)
		if (c->files[i].kind != DELTA_FILE_ADD)
			only_adds = false;

	params_json = ci ? DeltaCommitInfoOperationParametersJson(ci) : NULL;
	have_params = ci != NULL && (params_json == NULL ||
								 (dc_json_try_parse(params_json,
													strlen(params_json),
													&params) &&
								  params.type == DJ_OBJECT));
	pred = have_params ? dj_get(&params, "predicate") : NULL;

	if (ci == NULL)
		reads_whole_table(r, "the commit has no commitInfo");
	else if (!have_params)
		reads_whole_table(r, "its operationParameters do not parse");
	else if (rewrites_files(op, &adds_read))
	{
		int			n = 0;

		r->read_files = palloc(sizeof(char *) * Max(c->n_files, 1));
		for (i = 0; i < c->n_files; i++)
			if (c->files[i].kind == DELTA_FILE_REMOVE ||
				(adds_read && c->files[i].kind == DELTA_FILE_ADD))
				r->read_files[n++] = c->files[i].path;
		r->nread_files = n;
		r->preds = palloc(sizeof(char *));
		r->preds[0] = "true";
		r->npreds = 1;
		r->read_predicate = "true";
		r->note = psprintf("read set: every row of the %d file%s %s rewrote",
						   n, n == 1 ? "" : "s", op);
	}
	else if (op_is(op, "MERGE"))
	{
		if (commit_dialect(ci) != SP_DIALECT_DELTA_RS)
			reads_whole_table(r, "a MERGE written by Spark: its condition relates the target to the source");
		else if (pred == NULL)
			reads_whole_table(r, "a MERGE that records no predicate");
		else
			reads_translate(r, pred, md, SP_DIALECT_DELTA_RS);
	}
	else if (op_is(op, "DELETE") || op_is(op, "UPDATE"))
	{
		if (pred == NULL)
			reads_whole_table(r, psprintf("a %s that records no predicate", op));
		else
			reads_translate(r, pred, md, commit_dialect(ci));
	}
	else if (ci->is_blind_append == 1 && !only_adds)
		reads_whole_table(r, "recorded as a blind append, but it removes files");
	else if (op_is(op, "WRITE") || op_is(op, "STREAMING UPDATE"))
	{
		if (param_true(&params, "isDynamicPartitionOverwrite") ||
			dj_get(&params, "replaceOnCond") != NULL ||
			dj_get(&params, "replaceUsingCols") != NULL)
			reads_whole_table(r, psprintf("a %s that overwrites by partitions or by a condition on the data written", op));
		else if (pred != NULL)
			reads_translate(r, pred, md, commit_dialect(ci));
		else if (ci->is_blind_append == 1)
		{
			r->read_predicate = "false";
			r->note = "read set: none (a blind append)";
		}
		else
			reads_whole_table(r, psprintf("a %s that is not a blind append records no predicate", op));
	}
	else if (ci->is_blind_append == 1)
	{
		r->read_predicate = "false";
		r->note = "read set: none (a blind append)";
	}
	else
		reads_whole_table(r, op ? psprintf("operation %s records no read set", op) :
						  "no operation is recorded");
	w->reads = r;
	MemoryContextSwitchTo(old);
}

/* ---------- one check ---------- */

/*
 * The first file the loser removes that a winner added (not as a re-add
 * of a path the winner also removes): the loser cannot have read a
 * version before that winner.  Returns the winner's index, or -1.
 */
static int
first_dependency(const DeltaLog *log, const DeltaCommit *loser,
				 int nwinners, const DeltaCommit *const *winners,
				 const char **path)
{
	char	  **removes;
	int			nrem = 0;
	int			i;
	int			k;

	removes = palloc(sizeof(char *) * Max(loser->n_files, 1));
	for (i = 0; i < loser->n_files; i++)
		if (loser->files[i].kind == DELTA_FILE_REMOVE)
			removes[nrem++] = DeltaLogNormalizePath(log, loser->files[i].path);
	if (nrem == 0)
		return -1;
	qsort(removes, nrem, sizeof(char *), pg_qsort_strcmp);
	for (k = 0; k < nwinners; k++)
	{
		const DeltaCommit *wc = winners[k];
		char	  **wrem;
		int			nw = 0;

		wrem = palloc(sizeof(char *) * Max(wc->n_files, 1));
		for (i = 0; i < wc->n_files; i++)
			if (wc->files[i].kind == DELTA_FILE_REMOVE)
				wrem[nw++] = DeltaLogNormalizePath(log, wc->files[i].path);
		qsort(wrem, nw, sizeof(char *), pg_qsort_strcmp);
		for (i = 0; i < wc->n_files; i++)
		{
			char	   *norm;

			if (wc->files[i].kind != DELTA_FILE_ADD)
				continue;
			CHECK_FOR_INTERRUPTS();
			norm = DeltaLogNormalizePath(log, wc->files[i].path);
			if (conflict_find_sorted(removes, nrem, norm) >= 0 &&
				conflict_find_sorted(wrem, nw, norm) < 0)
			{
				*path = wc->files[i].path;
				return k;
			}
		}
	}
	return -1;
}

/*
 * run_check (a DcWorkFn): the driver on w's loser and reads, and the
 * first conflict it reports (Delta's pick), else the first dependency.
 * The verdict is allocated in w->result_cxt, the rest in the current
 * context.
 */
static void
run_check(void *arg)
{
	ReplayWork *w = (ReplayWork *) arg;
	const ReplayReads *r = w->reads;
	ConflictCheckArgs a;
	ConflictCheckSeen seen;
	ConflictResult *res;
	ReplayVerdict *v;
	const ConflictDecision *first = NULL;
	int			nconflicts = 0;
	int			i;
	int			dep;
	const char *dep_path = NULL;
	StringInfoData detail;

	memset(&a, 0, sizeof(a));
	a.log = w->log;
	a.read_version = w->read_version;
	a.has_through_version = true;
	a.through_version = w->through_version;
	a.preds = r->preds;
	a.npreds = r->npreds;
	a.loser_commit = w->commit;
	a.loser_n_unknown = loser_count_unknown(w->commit);
	a.isolation = r->isolation;
	a.read_whole_table = r->read_whole_table;
	a.app_ids = r->app_ids;
	a.napp = r->napp;
	a.read_files = r->read_files;
	a.nread_files = r->nread_files;
	a.mode = w->mode;
	res = conflict_check_run(&a, true, &seen);
	for (i = 0; i < res->n; i++)
		if (res->rows[i].decision == DECISION_CONFLICT)
		{
			if (first == NULL)
				first = &res->rows[i];
			nconflicts++;
		}
	dep = first ? -1 : first_dependency(w->log, w->commit, seen.n_winners,
										seen.winners, &dep_path);

	v = MemoryContextAllocZero(w->result_cxt, sizeof(ReplayVerdict));
	v->winning_version = -1;
	initStringInfo(&detail);
	if (first != NULL)
	{
		v->conflict = MemoryContextStrdup(w->result_cxt, first->exception);
		v->winning_version = first->winning_version;
		if (first->path)
			v->path = MemoryContextStrdup(w->result_cxt, first->path);
		appendStringInfoString(&detail, first->reason);
		if (nconflicts > 1)
			appendStringInfo(&detail, " The first of %d conflicts.", nconflicts);
	}
	else if (dep >= 0)
	{
		v->conflict = CONFLICT_NOT_CHECKED;
		v->winning_version = seen.winners[dep]->version;
		v->path = MemoryContextStrdup(w->result_cxt, dep_path);
		appendStringInfo(&detail, "This commit removes a file version %lld added after version %lld, which it says it read.",
						 (long long) v->winning_version, (long long) w->read_version);
	}
	if (r->note)
		appendStringInfo(&detail, "%s%c%s.", detail.len ? " " : "",
						 pg_toupper((unsigned char) r->note[0]), r->note + 1);
	if (detail.len > 0)
		v->detail = MemoryContextStrdup(w->result_cxt, detail.data);
	w->verdict = v;
}

/*
 * Run fn(w) inside a subtransaction, in a scratch context deleted
 * afterwards (fn's results go to w->result_cxt).  Returns NULL, or the
 * error as "message: detail" in w->result_cxt.  Query cancel, shutdown
 * and out-of-memory are re-thrown; in parallel mode (no subtransactions)
 * fn runs untrapped, so an error is raised: a clean error, never a pass.
 */
static char *
replay_try(DcWorkFn fn, ReplayWork *w)
{
	MemoryContext work_cxt;
	MemoryContext old;
	ErrorData  *edata;
	char	   *message = NULL;

	work_cxt = AllocSetContextCreate(w->result_cxt, "deltacc replay check",
									 ALLOCSET_DEFAULT_SIZES);
	if (IsInParallelMode())
	{
		old = MemoryContextSwitchTo(work_cxt);
		fn(w);
		MemoryContextSwitchTo(old);
		MemoryContextDelete(work_cxt);
		return NULL;
	}
	old = MemoryContextSwitchTo(w->result_cxt);
	edata = dc_try_subxact(fn, w, work_cxt, true);
	if (edata != NULL)
	{
		StringInfoData buf;
		size_t		dl = edata->detail ? strlen(edata->detail) : 0;

		/*
		 * "message: detail (context)", without the detail's final period,
		 * and only the innermost line of the context (the file and line)
		 */
		initStringInfo(&buf);
		appendStringInfoString(&buf, edata->message);
		if (dl > 0)
			appendStringInfo(&buf, ": %.*s",
							 (int) (edata->detail[dl - 1] == '.' ? dl - 1 : dl),
							 edata->detail);
		if (edata->context != NULL && edata->context[0] != '\0')
			appendStringInfo(&buf, " (%.*s)", (int) strcspn(edata->context, "\n"),
							 edata->context);
		message = buf.data;
		FreeErrorData(edata);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(work_cxt);
	return message;
}

/* The verdict of a check that could not run. */
static void
not_checked(ReplayVerdict *v, const char *error)
{
	memset(v, 0, sizeof(*v));
	v->conflict = CONFLICT_NOT_CHECKED;
	v->winning_version = -1;
	v->detail = psprintf("Not checked, so reported as a conflict: %s.", error);
}

/*
 * Derive the loser's reads at w->read_version (*reads_error: NULL or why
 * not), then check it in w->mode (when the reads are there) into *v.
 * Everything lives in w->result_cxt.
 */
static void
replay_check(ReplayWork *w, const char *reads_error, ReplayVerdict *v)
{
	char	   *err;

	if (reads_error != NULL)
	{
		not_checked(v, reads_error);
		return;
	}
	w->verdict = NULL;
	err = replay_try(run_check, w);
	if (err != NULL)
		not_checked(v, err);
	else
		*v = *w->verdict;
}

/* The JSON commit 'version', pinned by a scope in the current context. */
static const DeltaCommit *
replay_commit(DeltaLog *log, int64 version)
{
	CommitCacheScope *scope = commit_cache_scope_begin();

	return commit_cache_get_prescan(scope, log, version, NULL)->commit;
}

/* The range of JSON commits [from, to] asked for, within those present. */
static bool
replay_range(const DeltaLog *log, int64 *from, int64 *to)
{
	if (log->first_version < 0)
		return false;
	if (*from < log->first_version)
		*from = log->first_version;
	if (*to < 0 || *to > log->last_version)
		*to = log->last_version;
	return *from <= *to;
}

/*
 * replay_history: see replay.h.
 */
void
replay_history(DeltaLog *log, int64 from_version, int64 to_version,
			   int nmodes, const ConflictMode *modes,
			   ReplayRowFn emit, void *ctx)
{
	MemoryContext commit_cxt;
	MemoryContext old;
	MdTrack		track;
	int64		v;

	if (!replay_range(log, &from_version, &to_version))
		return;
	memset(&track, 0, sizeof(track));
	track.cxt = CurrentMemoryContext;
	track.first_fed = -1;
	commit_cxt = AllocSetContextCreate(CurrentMemoryContext,
									   "deltacc replay commit",
									   ALLOCSET_DEFAULT_SIZES);
	for (v = from_version; v <= to_version; v++)
	{
		const DeltaCommit *c;
		const DeltaCommitInfo *ci;
		ReplayWork	w;
		char	   *reads_error;
		int			m;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(commit_cxt);
		c = replay_commit(log, v);
		md_track_feed(&track, v, c);
		ci = c->commit_info;
		if (ci == NULL || !ci->has_read_version || ci->read_version >= v - 1)
		{
			MemoryContextSwitchTo(old);
			MemoryContextReset(commit_cxt);
			continue;
		}
		memset(&w, 0, sizeof(w));
		w.log = log;
		w.commit = c;
		w.read_version = ci->read_version;
		w.through_version = v - 1;
		w.result_cxt = commit_cxt;
		w.track = &track;
		reads_error = replay_try(derive_reads, &w);
		for (m = 0; m < nmodes; m++)
		{
			ReplayRow	row;

			memset(&row, 0, sizeof(row));
			row.version = v;
			row.read_version = ci->read_version;
			row.operation = ci->operation;
			row.read_predicate = reads_error ? NULL : w.reads->read_predicate;
			row.mode = modes[m];
			w.mode = modes[m];
			replay_check(&w, reads_error, &row.verdict);
			emit(ctx, &row);
		}
		MemoryContextSwitchTo(old);
		MemoryContextReset(commit_cxt);
	}
	MemoryContextDelete(commit_cxt);
}

/* feed_track (a DcWorkFn): commit w->through_version into w->track */
static void
feed_track(void *arg)
{
	ReplayWork *w = (ReplayWork *) arg;

	md_track_feed(w->track, w->through_version,
				  replay_commit(w->log, w->through_version));
}

/*
 * replay_concurrency: see replay.h.
 */
void
replay_concurrency(DeltaLog *log, int64 from_version, int64 to_version,
				   ConflictMode mode, int window,
				   ConcurrencyRowFn emit, void *ctx)
{
	MemoryContext pair_cxt;
	MemoryContext old;
	MdTrack		track;
	int64		a;
	int64		b;

	if (!replay_range(log, &from_version, &to_version))
		return;
	memset(&track, 0, sizeof(track));
	track.cxt = CurrentMemoryContext;
	track.first_fed = -1;
	pair_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "deltacc concurrency pair",
									 ALLOCSET_DEFAULT_SIZES);
	for (a = Max(from_version, 1); a < to_version; a++)
	{
		ReplayWork	fw;

		/* the winner a into the track (unreadable: the track starts again) */
		old = MemoryContextSwitchTo(pair_cxt);
		memset(&fw, 0, sizeof(fw));
		fw.log = log;
		fw.through_version = a;
		fw.result_cxt = pair_cxt;
		fw.track = &track;
		(void) replay_try(feed_track, &fw);
		MemoryContextSwitchTo(old);
		MemoryContextReset(pair_cxt);

		for (b = a + 1; b <= to_version && b - a <= window; b++)
		{
			ReplayWork	w;
			ReplayVerdict v;
			ConcurrencyRow row;
			char	   *reads_error;

			CHECK_FOR_INTERRUPTS();
			old = MemoryContextSwitchTo(pair_cxt);
			memset(&w, 0, sizeof(w));
			w.log = log;
			w.commit = replay_commit(log, b);
			w.read_version = a - 1;
			w.through_version = a;
			w.mode = mode;
			w.result_cxt = pair_cxt;
			w.track = &track;
			reads_error = replay_try(derive_reads, &w);
			replay_check(&w, reads_error, &v);
			row.version_a = a;
			row.version_b = b;
			row.conflict = v.conflict;
			row.path = v.path;
			emit(ctx, &row);
			MemoryContextSwitchTo(old);
			MemoryContextReset(pair_cxt);
		}
	}
	MemoryContextDelete(pair_cxt);
}
