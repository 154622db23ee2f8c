/*-------------------------------------------------------------------------
 *
 * store.c
 *	  The catalog's tables, read and written through SPI as their owner
 *	  (see store.h), and the log layer's lookup of registered tables.
 *
 * Each query is prepared once per backend (SPI_keepplan); the plans name
 * every table, column and operator with its schema, so a re-analysis
 * after an invalidation (the extension dropped and created again, say)
 * finds the same objects whatever the session's search_path.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/coord/store.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "storage/bufmgr.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "coord/store.h"
#include "log/log_reader.h"
#include "snapshot/commit_cache.h"

int			deltacc_max_unpublished_versions = 10;

typedef enum CatalogQuery
{
	Q_LOOKUP,
	Q_TABLE,
	Q_TABLE_LOCK,
	Q_REGISTER,
	Q_TXN,
	Q_ICT,
	Q_INSERT,
	Q_ADVANCE,
	Q_LIST,
	Q_LIST_UNPUBLISHED,
	Q_PUBLISHED_ROWS,
	Q_PUBLISHED_TABLE,
	Q_COUNT
} CatalogQuery;

#define MAX_QUERY_ARGS 9

typedef struct QueryDef
{
	const char *sql;
	int			nargs;
	Oid			types[MAX_QUERY_ARGS];
	bool		in_snapshot;	/* read in the caller's statement snapshot */
} QueryDef;

/* the column list of the listings (Q_LIST, Q_LIST_UNPUBLISHED) */
#define LIST_SELECT \
	"SELECT m.table_id, m.latest_version, m.published_version, r.version, " \
	"r.staged_path, r.content, r.content_sha256, r.in_commit_timestamp, " \
	"r.ratified_at, r.published_at IS NOT NULL, r.xmin " \
	"FROM deltacc.managed_tables m " \
	"LEFT JOIN deltacc.ratified_commits r " \
	"ON r.table_path OPERATOR(pg_catalog.=) m.table_path " \
	"AND r.version OPERATOR(pg_catalog.>=) $2 " \
	"AND r.version OPERATOR(pg_catalog.<=) $3 "
#define LIST_WHERE \
	"WHERE m.table_path OPERATOR(pg_catalog.=) $1 ORDER BY r.version"

static const QueryDef queries[Q_COUNT] = {
	[Q_LOOKUP] = {
		"SELECT m.latest_version, m.published_version, r.version, "
		"r.staged_path, r.content, r.content_sha256, m.registered_at, r.xmin "
		"FROM deltacc.managed_tables m "
		"LEFT JOIN deltacc.ratified_commits r "
		"ON r.table_path OPERATOR(pg_catalog.=) m.table_path "
		"AND r.version OPERATOR(pg_catalog.>) GREATEST(m.published_version, $2) "
		"WHERE m.table_path OPERATOR(pg_catalog.=) $1 ORDER BY r.version",
	2, {TEXTOID, INT8OID}},
	[Q_TABLE] = {
		"SELECT table_id, latest_version, published_version "
		"FROM deltacc.managed_tables "
		"WHERE table_path OPERATOR(pg_catalog.=) $1",
	1, {TEXTOID}, true},
	[Q_TABLE_LOCK] = {
		"SELECT table_id, latest_version, published_version "
		"FROM deltacc.managed_tables "
		"WHERE table_path OPERATOR(pg_catalog.=) $1 FOR UPDATE",
	1, {TEXTOID}},
	[Q_REGISTER] = {
		"INSERT INTO deltacc.managed_tables "
		"(table_path, table_id, latest_version, published_version, registered_at) "
		"VALUES ($1, $2, $3, $3, $4) ON CONFLICT (table_path) DO NOTHING",
	4, {TEXTOID, TEXTOID, INT8OID, TIMESTAMPTZOID}},
	[Q_TXN] = {
		"SELECT version FROM deltacc.ratified_commits "
		"WHERE table_path OPERATOR(pg_catalog.=) $1 "
		"AND txn_id OPERATOR(pg_catalog.=) $2",
	2, {TEXTOID, TEXTOID}},
	[Q_ICT] = {
		"SELECT in_commit_timestamp FROM deltacc.ratified_commits "
		"WHERE table_path OPERATOR(pg_catalog.=) $1 "
		"AND version OPERATOR(pg_catalog.=) $2",
	2, {TEXTOID, INT8OID}},
	[Q_INSERT] = {
		"INSERT INTO deltacc.ratified_commits "
		"(table_path, version, txn_id, in_commit_timestamp, staged_path, "
		"content, content_sha256, ratified_at) "
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
	8, {TEXTOID, INT8OID, TEXTOID, TIMESTAMPTZOID, TEXTOID, BYTEAOID,
		BYTEAOID, TIMESTAMPTZOID}},
	[Q_ADVANCE] = {
		"UPDATE deltacc.managed_tables "
		"SET latest_version = $2, table_id = COALESCE($3, table_id) "
		"WHERE table_path OPERATOR(pg_catalog.=) $1",
	3, {TEXTOID, INT8OID, TEXTOID}},
	[Q_LIST] = {
		LIST_SELECT LIST_WHERE,
	3, {TEXTOID, INT8OID, INT8OID}, true},
	[Q_LIST_UNPUBLISHED] = {
		LIST_SELECT "AND r.published_at IS NULL " LIST_WHERE,
	3, {TEXTOID, INT8OID, INT8OID}},
	[Q_PUBLISHED_ROWS] = {
		"UPDATE deltacc.ratified_commits SET published_at = $3 "
		"WHERE table_path OPERATOR(pg_catalog.=) $1 "
		"AND version OPERATOR(pg_catalog.<=) $2 AND published_at IS NULL",
	3, {TEXTOID, INT8OID, TIMESTAMPTZOID}},
	[Q_PUBLISHED_TABLE] = {
		"UPDATE deltacc.managed_tables "
		"SET published_version = GREATEST(published_version, $2) "
		"WHERE table_path OPERATOR(pg_catalog.=) $1",
	2, {TEXTOID, INT8OID}},
};

static SPIPlanPtr plans[Q_COUNT];

/* An SPI connection running as the owner of the catalog tables. */
typedef struct CatalogSession
{
	Oid			save_userid;
	int			save_sec_context;
	MemoryContext outer;		/* the caller's context: results go there */
} CatalogSession;

static DeltaCatalogState *catalog_lookup(const char *table_path);

/*
 * catalog_init: define deltacc.max_unpublished_versions and install the
 * log layer's lookup (called from _PG_init).
 */
void
catalog_init(void)
{
	DefineCustomIntVariable("deltacc.max_unpublished_versions",
							"Most ratified versions of one catalog-managed table that may wait to be published.",
							"deltacc.commit refuses a commit beyond it (SQLSTATE 53400) until deltacc.publish catches up, so that a publisher that stopped is noticed.",
							&deltacc_max_unpublished_versions,
							10,
							1,
							INT_MAX,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
	delta_catalog_lookup = catalog_lookup;
}

/*
 * catalog_check_role: see store.h.
 */
void
catalog_check_role(CatalogRole role)
{
	Oid			committer;

	if (role >= CATALOG_ROLE_COMMIT)
	{
		committer = get_role_oid("deltacc_committer", true);
		if (!OidIsValid(committer) ||
			!has_privs_of_role(GetUserId(), committer))
			ereport(ERROR,
					errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					errmsg("permission denied to commit to catalog-managed Delta tables"),
					errdetail("Only roles with privileges of the \"%s\" role may register, commit to and publish catalog-managed tables.",
							  "deltacc_committer"));
	}
	DeltaCheckReadPrivilege();
	if (role >= CATALOG_ROLE_PUBLISH &&
		!has_privs_of_role(GetUserId(), ROLE_PG_WRITE_SERVER_FILES))
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied to publish Delta commits"),
				errdetail("Only roles with privileges of the \"%s\" role may write the published commit files.",
						  "pg_write_server_files"));
}

/*
 * catalog_owner_rels: the owner of deltacc.managed_tables, or InvalidOid
 * when the catalog tables are not there (the extension not installed in
 * this database, or installed at a version without them); *managed and
 * *ratified get the two tables' OIDs (InvalidOid when missing).
 */
static Oid
catalog_owner_rels(Oid *managed, Oid *ratified)
{
	Oid			nsp = get_namespace_oid("deltacc", true);
	Oid			rel;
	HeapTuple	tup;
	Oid			owner;

	if (!OidIsValid(nsp))
		return InvalidOid;
	rel = get_relname_relid("managed_tables", nsp);
	*managed = rel;
	*ratified = get_relname_relid("ratified_commits", nsp);
	if (!OidIsValid(rel) || !OidIsValid(*ratified))
		return InvalidOid;
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(rel));
	if (!HeapTupleIsValid(tup))
		return InvalidOid;
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return owner;
}

/* catalog_owner: catalog_owner_rels without the relations. */
static Oid
catalog_owner(void)
{
	Oid			managed;
	Oid			ratified;

	return catalog_owner_rels(&managed, &ratified);
}

/*
 * session_begin: connect to SPI and become the catalog tables' owner.
 * Returns false when the catalog is not installed; with 'must' that is an
 * ERROR instead.  (An ERROR later on leaves the user id to transaction
 * or subtransaction abort, which restores it.)
 */
static void session_enter(CatalogSession *s, Oid owner);

static bool
session_begin(CatalogSession *s, bool must)
{
	Oid			owner = catalog_owner();

	if (!OidIsValid(owner))
	{
		if (must)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("the deltacc catalog tables are not installed in this database"),
					errhint("Update the extension with ALTER EXTENSION deltacc UPDATE."));
		return false;
	}
	session_enter(s, owner);
	return true;
}

/* session_enter: connect to SPI as owner (see session_begin). */
static void
session_enter(CatalogSession *s, Oid owner)
{
	s->outer = CurrentMemoryContext;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	GetUserIdAndSecContext(&s->save_userid, &s->save_sec_context);
	SetUserIdAndSecContext(owner,
						   s->save_sec_context | SECURITY_LOCAL_USERID_CHANGE);
}

/* session_end: back to the caller's user id, and out of SPI. */
static void
session_end(CatalogSession *s)
{
	SetUserIdAndSecContext(s->save_userid, s->save_sec_context);
	if (SPI_finish() != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed");
}

/*
 * run: execute query q with its arguments (nulls as SPI takes them: 'n'
 * for NULL, ' ' otherwise; NULL for none); ERROR unless SPI answers
 * 'expect'.  A fresh snapshot per query (what a commit needs after its
 * row lock), except for the queries of latest_version and
 * ratified_commits, which read in the caller's statement snapshot (so
 * that both in one statement agree), and in parallel mode, where none can
 * be taken (the readers that may run there only read).
 */
static void
run(CatalogQuery q, Datum *values, const char *nulls, int expect)
{
	int			rc;

	if (plans[q] == NULL)
	{
		SPIPlanPtr	plan = SPI_prepare(queries[q].sql, queries[q].nargs,
									   (Oid *) queries[q].types);

		if (plan == NULL)
			elog(ERROR, "could not prepare catalog query: %s",
				 SPI_result_code_string(SPI_result));
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "could not keep catalog query plan");
		plans[q] = plan;
	}
	rc = SPI_execute_plan(plans[q], values, nulls,
						  queries[q].in_snapshot || IsInParallelMode(), 0);
	if (rc != expect)
		elog(ERROR, "catalog query failed: %s", SPI_result_code_string(rc));
}

/* col_null: is column col (1-based) of result row 'row' NULL? */
static bool
col_null(uint64 row, int col)
{
	bool		isnull;

	(void) SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col,
						 &isnull);
	return isnull;
}

/* col_datum: column col of row 'row' (not NULL). */
static Datum
col_datum(uint64 row, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[row],
								  SPI_tuptable->tupdesc, col, &isnull);

	Assert(!isnull);
	return d;
}

/* col_text: a text column copied into cxt, NULL for NULL. */
static char *
col_text(uint64 row, int col, MemoryContext cxt)
{
	MemoryContext old;
	char	   *s;

	if (col_null(row, col))
		return NULL;
	old = MemoryContextSwitchTo(cxt);
	s = TextDatumGetCString(col_datum(row, col));
	MemoryContextSwitchTo(old);
	return s;
}

/* col_bytea: a bytea column copied into cxt (NUL-terminated), NULL for NULL. */
static char *
col_bytea(uint64 row, int col, MemoryContext cxt, Size *len)
{
	bytea	   *b;
	char	   *out;

	*len = 0;
	if (col_null(row, col))
		return NULL;
	b = DatumGetByteaPP(col_datum(row, col));
	*len = VARSIZE_ANY_EXHDR(b);
	out = MemoryContextAllocHuge(cxt, *len + 1);
	memcpy(out, VARDATA_ANY(b), *len);
	out[*len] = '\0';
	return out;
}

/* col_sha256: a 32-byte hash column into out (ERROR for another size). */
static void
col_sha256(uint64 row, int col, uint8 *out)
{
	bytea	   *b = DatumGetByteaPP(col_datum(row, col));

	if (VARSIZE_ANY_EXHDR(b) != PG_SHA256_DIGEST_LENGTH)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("invalid content_sha256 in deltacc.ratified_commits"));
	memcpy(out, VARDATA_ANY(b), PG_SHA256_DIGEST_LENGTH);
}

/* bytea_datum: data[0..len) as a bytea Datum (CurrentMemoryContext). */
static Datum
bytea_datum(const void *data, Size len)
{
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), data, len);
	return PointerGetDatum(b);
}

/* ---------------------------------------------------------------------
 * The lookup's cache of ratified commits
 *
 * A ratified commit is one row per (table, version), inserted once by the
 * transaction that ratified it and never changed afterwards (publishing
 * only sets published_at; nothing deletes it).  A row that the lookup sees
 * and that the current transaction did not insert is therefore committed,
 * and is the table's commit of that version for every snapshot that sees
 * the version at all: a ratification taken back by a rollback was never
 * visible to another transaction, and the current transaction's own rows
 * (which a rollback, or a subtransaction's, may still take back) are never
 * kept.  So the committed rows are kept per table, by version, and only
 * the versions after the last one kept are read (a range query).  What is
 * kept belongs to one registration of the table (the ratified_commits
 * table's OID and the table row's registered_at): a table registered
 * again, or the extension created again, starts afresh.  The rows handed
 * to a DeltaLog point into the cache; the cache pins them until the
 * caller's memory context goes.  At most deltacc.commit_cache_size bytes
 * of content are kept, across tables.
 * ---------------------------------------------------------------------
 */
typedef struct CatTable
{
	char	   *key;			/* canonical table path */
	Oid			relid;			/* deltacc.ratified_commits */
	TimestampTz registered_at;
	MemoryContext cxt;			/* the rows' content and labels */
	int64		first;			/* version of rows[0] */
	int			n;
	int			cap;
	DeltaRatifiedCommit *rows;	/* versions first .. first + n - 1 */
	Size		bytes;
	int			pins;			/* DeltaLogs using rows */
	bool		dead;			/* out of the hash, freed once unpinned */
} CatTable;

typedef struct CatItem
{
	char		key[MAXPGPATH];
	CatTable   *t;
} CatItem;

typedef struct CatPin
{
	MemoryContextCallback cb;
	CatTable   *t;
} CatPin;

static HTAB *cat_hash = NULL;
static MemoryContext cat_cxt = NULL;
static List *cat_graveyard = NIL;
static Size cat_bytes = 0;

/* Free a table's rows now (unpinned). */
static void
cat_free(CatTable *t)
{
	Assert(t->pins == 0);
	cat_bytes -= t->bytes;
	MemoryContextDelete(t->cxt);
	pfree(t->key);
	pfree(t);
}

/* Take t out of the hash: freed now, or when the last pin goes. */
static void
cat_drop(CatTable *t)
{
	char		key[MAXPGPATH];

	strlcpy(key, t->key, MAXPGPATH);
	(void) hash_search(cat_hash, key, HASH_REMOVE, NULL);
	t->dead = true;
	if (t->pins == 0)
		cat_free(t);
	else
	{
		MemoryContext old = MemoryContextSwitchTo(cat_cxt);

		cat_graveyard = lappend(cat_graveyard, t);
		MemoryContextSwitchTo(old);
	}
}

/* Free dropped tables nobody pins any more. */
static void
cat_reap(void)
{
	ListCell   *lc;
	List	   *keep = NIL;
	MemoryContext old;

	if (cat_graveyard == NIL)
		return;
	old = MemoryContextSwitchTo(cat_cxt);
	foreach(lc, cat_graveyard)
	{
		CatTable   *t = lfirst(lc);

		if (t->pins == 0)
			cat_free(t);
		else
			keep = lappend(keep, t);
	}
	list_free(cat_graveyard);
	cat_graveyard = keep;
	MemoryContextSwitchTo(old);
}

/* Reset callback of a caller's context: unpin (no freeing here). */
static void
cat_unpin(void *arg)
{
	CatPin	   *p = (CatPin *) arg;

	p->t->pins--;
}

/* The kept rows of table_path (created when missing), or NULL. */
static CatTable *
cat_table(const char *table_path, bool create)
{
	char		key[MAXPGPATH];
	CatItem    *item;
	CatTable   *t;
	bool		found;

	if (strlen(table_path) + 1 > MAXPGPATH || deltacc_commit_cache_size == 0)
		return NULL;
	if (cat_hash == NULL)
	{
		HASHCTL		ctl;

		if (!create)
			return NULL;
		cat_cxt = AllocSetContextCreate(CacheMemoryContext,
										"deltacc catalog rows",
										ALLOCSET_SMALL_SIZES);
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = MAXPGPATH;
		ctl.entrysize = sizeof(CatItem);
		ctl.hcxt = cat_cxt;
		cat_hash = hash_create("deltacc catalog rows", 16, &ctl,
							   HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	}
	strlcpy(key, table_path, MAXPGPATH);
	item = hash_search(cat_hash, key, HASH_FIND, NULL);
	if (item != NULL || !create)
		return item ? item->t : NULL;
	t = MemoryContextAllocZero(cat_cxt, sizeof(CatTable));
	t->key = MemoryContextStrdup(cat_cxt, key);
	t->relid = InvalidOid;
	t->cxt = AllocSetContextCreate(cat_cxt, "deltacc catalog table rows",
								   ALLOCSET_DEFAULT_SIZES);
	item = hash_search(cat_hash, key, HASH_ENTER, &found);
	Assert(!found);
	item->t = t;
	return t;
}

/*
 * Forget t's rows of versions up to 'through' (published: read from the
 * log from now on); only while nobody pins them.
 */
static void
cat_trim(CatTable *t, int64 through)
{
	int			k;
	int			i;

	if (t->pins > 0 || t->n == 0 || through < t->first)
		return;
	k = (int) Min(through - t->first + 1, (int64) t->n);
	for (i = 0; i < k; i++)
	{
		DeltaRatifiedCommit *rc = &t->rows[i];
		Size		b = rc->content_len +
			(rc->staged_path ? strlen(rc->staged_path) + 1 : 0);

		if (rc->content != NULL)
			pfree(unconstify(char *, rc->content));
		if (rc->staged_path != NULL)
			pfree(unconstify(char *, rc->staged_path));
		t->bytes -= b;
		cat_bytes -= b;
	}
	memmove(t->rows, t->rows + k, sizeof(DeltaRatifiedCommit) * (t->n - k));
	t->n -= k;
	t->first += k;
	if (t->n == 0)
		t->first = through + 1;
}

/*
 * Keep row rc (version t->first + t->n, committed) when it fits under the
 * bound; returns whether it was kept.  Its staged path and inline content
 * are copied into t's context.
 */
static bool
cat_append(CatTable *t, const DeltaRatifiedCommit *rc)
{
	Size		b = rc->content_len +
		(rc->staged_path ? strlen(rc->staged_path) + 1 : 0);
	Size		limit = (Size) deltacc_commit_cache_size * 1024;
	DeltaRatifiedCommit *kept;

	if (cat_bytes + b + sizeof(DeltaRatifiedCommit) > limit)
		return false;
	if (t->n == t->cap)
	{
		int			cap = t->cap == 0 ? 64 : t->cap * 2;

		t->rows = t->rows == NULL ?
			MemoryContextAllocHuge(t->cxt, sizeof(DeltaRatifiedCommit) * cap) :
			repalloc_huge(t->rows, sizeof(DeltaRatifiedCommit) * cap);
		t->cap = cap;
	}
	kept = &t->rows[t->n];
	*kept = *rc;
	kept->label = NULL;
	kept->staged_path = rc->staged_path ?
		MemoryContextStrdup(t->cxt, rc->staged_path) : NULL;
	if (rc->staged_path == NULL && rc->content != NULL)
	{
		char	   *c = MemoryContextAllocHuge(t->cxt, rc->content_len + 1);

		memcpy(c, rc->content, rc->content_len);
		c[rc->content_len] = '\0';
		kept->content = c;
	}
	else
		kept->content = NULL;	/* a staged file: read by the log */
	t->n++;
	t->bytes += b;
	cat_bytes += b;
	return true;
}

/*
 * catalog_empty: whether deltacc.managed_tables has no row at all, for
 * any snapshot: a relation of no blocks holds no tuple, and a row any
 * snapshot may still see keeps its block (an insert extends the relation
 * before it commits; vacuum truncates only what no snapshot can see).
 */
static bool
catalog_empty(Oid managed)
{
	Relation	rel = table_open(managed, AccessShareLock);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);

	table_close(rel, AccessShareLock);
	return nblocks == 0;
}

/*
 * catalog_lookup: the log layer's delta_catalog_lookup (see log_reader.h):
 * the table's row and its unpublished ratified commits, the committed
 * ones kept from earlier lookups (see above) and the rest from one range
 * query.
 */
static DeltaCatalogState *
catalog_lookup(const char *table_path)
{
	CatalogSession s;
	DeltaCatalogState *cat;
	Datum		args[2];
	Oid			managed;
	Oid			ratified;
	Oid			owner;
	CatTable   *t;
	int64		through;
	int64		latest;
	int64		published;
	TimestampTz registered_at;
	uint64		i;
	uint64		n;
	int64		from_kept;
	int64		k;
	int			pos;
	bool		appending;

	owner = catalog_owner_rels(&managed, &ratified);
	if (!OidIsValid(owner) || catalog_empty(managed))
		return NULL;
	cat_reap();
	session_enter(&s, owner);
	args[0] = CStringGetTextDatum(table_path);
	t = cat_table(table_path, true);
	/* what is kept reaches 'through' */
	through = t != NULL && t->n > 0 && t->relid == ratified ?
		t->first + t->n - 1 : -1;
	args[1] = Int64GetDatum(through);
	run(Q_LOOKUP, args, NULL, SPI_OK_SELECT);
	if (SPI_processed == 0)
	{
		session_end(&s);
		return NULL;
	}
	latest = DatumGetInt64(col_datum(0, 1));
	published = DatumGetInt64(col_datum(0, 2));
	registered_at = DatumGetTimestampTz(col_datum(0, 7));
	if (t != NULL && (t->relid != ratified || t->registered_at != registered_at ||
					  (through >= 0 && t->first > published + 1 &&
					   through > published)))
	{
		/*
		 * Another registration, or kept rows that do not reach back to the
		 * oldest unpublished version (a snapshot older than what was
		 * trimmed): read them all, and keep them afresh when this is a
		 * new registration.
		 */
		bool		fresh = t->relid != ratified || t->registered_at != registered_at;

		if (fresh)
		{
			cat_drop(t);
			t = cat_table(table_path, true);
			t->relid = ratified;
			t->registered_at = registered_at;
		}
		else
			t = NULL;			/* not used for this lookup */
		if (through >= 0)
		{
			through = -1;
			args[1] = Int64GetDatum(through);
			run(Q_LOOKUP, args, NULL, SPI_OK_SELECT);
			if (SPI_processed == 0)
			{
				session_end(&s);
				return NULL;
			}
			latest = DatumGetInt64(col_datum(0, 1));
			published = DatumGetInt64(col_datum(0, 2));
		}
	}
	else if (t != NULL && t->relid == InvalidOid)
	{
		t->relid = ratified;
		t->registered_at = registered_at;
	}
	if (t != NULL)
		cat_trim(t, published);
	if (t != NULL && t->n == 0)
		t->first = published + 1;

	cat = MemoryContextAllocZero(s.outer, sizeof(DeltaCatalogState));
	cat->latest_version = latest;
	cat->published_version = published;
	n = col_null(0, 3) ? 0 : SPI_processed;
	/* the kept rows serve published + 1 .. min(through, latest) */
	from_kept = t != NULL && t->n > 0 && through >= 0 ?
		Min(through, latest) - Max(published + 1, t->first) + 1 : 0;
	if (from_kept < 0)
		from_kept = 0;
	cat->n_commits = (int) (from_kept + n);
	cat->commits = MemoryContextAllocZero(s.outer,
										  sizeof(DeltaRatifiedCommit) *
										  Max(cat->n_commits, 1));
	pos = 0;
	if (from_kept > 0)
	{
		CatPin	   *pin = MemoryContextAllocZero(s.outer, sizeof(CatPin));

		for (k = 0; k < from_kept; k++)
			cat->commits[pos++] = t->rows[published + 1 - t->first + k];
		pin->t = t;
		pin->cb.func = cat_unpin;
		pin->cb.arg = pin;
		t->pins++;
		MemoryContextRegisterResetCallback(s.outer, &pin->cb);
	}
	/* (appending moves no kept content: a pinned table may grow) */
	appending = t != NULL;
	for (i = 0; i < n; i++)
	{
		DeltaRatifiedCommit *rc = &cat->commits[pos++];
		TransactionId xmin;

		CHECK_FOR_INTERRUPTS();
		rc->version = DatumGetInt64(col_datum(i, 3));
		rc->staged_path = col_text(i, 4, s.outer);
		rc->content = col_bytea(i, 5, s.outer, &rc->content_len);
		col_sha256(i, 6, rc->sha256);
		xmin = DatumGetTransactionId(col_datum(i, 8));
		/* committed rows only, in order (see above) */
		if (appending && t->first + t->n == rc->version &&
			!TransactionIdIsCurrentTransactionId(xmin))
			appending = cat_append(t, rc);
		else
			appending = false;
	}
	session_end(&s);
	return cat;
}

/*
 * table_from_row: row 'row' of a result whose first three columns are
 * table_id, latest_version, published_version.
 */
static void
table_from_row(uint64 row, const char *table_path, MemoryContext cxt,
			   ManagedTable *out)
{
	out->table_path = MemoryContextStrdup(cxt, table_path);
	out->table_id = col_text(row, 1, cxt);
	out->latest_version = DatumGetInt64(col_datum(row, 2));
	out->published_version = DatumGetInt64(col_datum(row, 3));
}

/*
 * catalog_get_table: see store.h.
 */
bool
catalog_get_table(const char *table_path, bool for_update, ManagedTable *out)
{
	CatalogSession s;
	Datum		args[1];
	bool		found;

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	run(for_update ? Q_TABLE_LOCK : Q_TABLE, args, NULL, SPI_OK_SELECT);
	found = SPI_processed > 0;
	if (found)
		table_from_row(0, table_path, s.outer, out);
	session_end(&s);
	return found;
}

/*
 * catalog_not_registered: see store.h.
 */
void
catalog_not_registered(const char *table_path)
{
	ereport(ERROR,
			errcode(ERRCODE_UNDEFINED_OBJECT),
			errmsg("Delta table \"%s\" is not registered with the catalog",
				   table_path),
			errhint("Register it with deltacc.register_table()."));
}

/*
 * catalog_insert_table: see store.h.
 */
bool
catalog_insert_table(const char *table_path, const char *table_id,
					 int64 latest_version)
{
	CatalogSession s;
	Datum		args[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	bool		inserted;

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	if (table_id != NULL)
		args[1] = CStringGetTextDatum(table_id);
	else
		nulls[1] = 'n';
	args[2] = Int64GetDatum(latest_version);
	args[3] = TimestampTzGetDatum(GetCurrentTimestamp());
	run(Q_REGISTER, args, nulls, SPI_OK_INSERT);
	inserted = SPI_processed == 1;
	session_end(&s);
	return inserted;
}

/*
 * catalog_version_of_txn: see store.h.
 */
int64
catalog_version_of_txn(const char *table_path, const char *txn_id)
{
	CatalogSession s;
	Datum		args[2];
	int64		v = -1;

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	args[1] = CStringGetTextDatum(txn_id);
	run(Q_TXN, args, NULL, SPI_OK_SELECT);
	if (SPI_processed > 0)
		v = DatumGetInt64(col_datum(0, 1));
	session_end(&s);
	return v;
}

/*
 * catalog_ict_of: see store.h.
 */
bool
catalog_ict_of(const char *table_path, int64 version, TimestampTz *ict)
{
	CatalogSession s;
	Datum		args[2];
	bool		found = false;

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	args[1] = Int64GetDatum(version);
	run(Q_ICT, args, NULL, SPI_OK_SELECT);
	if (SPI_processed > 0 && !col_null(0, 1))
	{
		*ict = DatumGetTimestampTz(col_datum(0, 1));
		found = true;
	}
	session_end(&s);
	return found;
}

/*
 * catalog_insert_ratified: see store.h.
 */
void
catalog_insert_ratified(const char *table_path, int64 version,
						const char *txn_id, const TimestampTz *ict,
						const char *staged_path, const char *content,
						Size content_len, const uint8 *sha256,
						TimestampTz ratified_at, const char *table_id)
{
	CatalogSession s;
	Datum		args[8];
	char		nulls[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};

	Assert((staged_path == NULL) != (content == NULL));
	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	args[1] = Int64GetDatum(version);
	args[2] = CStringGetTextDatum(txn_id);
	if (ict != NULL)
		args[3] = TimestampTzGetDatum(*ict);
	else
		nulls[3] = 'n';
	if (staged_path != NULL)
	{
		args[4] = CStringGetTextDatum(staged_path);
		nulls[5] = 'n';
	}
	else
	{
		nulls[4] = 'n';
		args[5] = bytea_datum(content, content_len);
	}
	args[6] = bytea_datum(sha256, PG_SHA256_DIGEST_LENGTH);
	args[7] = TimestampTzGetDatum(ratified_at);
	run(Q_INSERT, args, nulls, SPI_OK_INSERT);

	args[1] = Int64GetDatum(version);
	if (table_id != NULL)
		args[2] = CStringGetTextDatum(table_id);
	else
		nulls[2] = 'n';
	run(Q_ADVANCE, args, nulls, SPI_OK_UPDATE);
	if (SPI_processed != 1)
		elog(ERROR, "catalog row of Delta table \"%s\" vanished", table_path);
	session_end(&s);
}

/*
 * catalog_list_ratified: see store.h.
 */
bool
catalog_list_ratified(const char *table_path, int64 from, int64 to,
					  bool unpublished_only, ManagedTable *table,
					  RatifiedRow **rows, int *nrows)
{
	CatalogSession s;
	Datum		args[3];
	uint64		i;
	uint64		n;
	RatifiedRow *out;

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	args[1] = Int64GetDatum(from);
	args[2] = Int64GetDatum(to);
	run(unpublished_only ? Q_LIST_UNPUBLISHED : Q_LIST, args, NULL,
		SPI_OK_SELECT);
	if (SPI_processed == 0)
	{
		session_end(&s);
		return false;
	}
	table_from_row(0, table_path, s.outer, table);
	n = col_null(0, 4) ? 0 : SPI_processed;
	out = MemoryContextAllocZero(s.outer, sizeof(RatifiedRow) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		RatifiedRow *r = &out[i];

		CHECK_FOR_INTERRUPTS();
		r->version = DatumGetInt64(col_datum(i, 4));
		r->staged_path = col_text(i, 5, s.outer);
		r->content = col_bytea(i, 6, s.outer, &r->content_len);
		col_sha256(i, 7, r->sha256);
		r->has_ict = !col_null(i, 8);
		if (r->has_ict)
			r->in_commit_timestamp = DatumGetTimestampTz(col_datum(i, 8));
		r->ratified_at = DatumGetTimestampTz(col_datum(i, 9));
		r->published = DatumGetBool(col_datum(i, 10));
		r->mine = TransactionIdIsCurrentTransactionId(DatumGetTransactionId(col_datum(i, 11)));
	}
	*rows = out;
	*nrows = (int) n;
	session_end(&s);
	return true;
}

/*
 * catalog_record_published: see store.h.
 */
void
catalog_record_published(const char *table_path, int64 through_version,
						 TimestampTz at)
{
	CatalogSession s;
	Datum		args[3];

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	args[1] = Int64GetDatum(through_version);
	args[2] = TimestampTzGetDatum(at);
	run(Q_PUBLISHED_ROWS, args, NULL, SPI_OK_UPDATE);
	run(Q_PUBLISHED_TABLE, args, NULL, SPI_OK_UPDATE);
	session_end(&s);
}
