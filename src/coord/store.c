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
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "coord/store.h"
#include "log/log_reader.h"

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
		"r.staged_path, r.content, r.content_sha256 "
		"FROM deltacc.managed_tables m "
		"LEFT JOIN deltacc.ratified_commits r "
		"ON r.table_path OPERATOR(pg_catalog.=) m.table_path "
		"AND r.version OPERATOR(pg_catalog.>) m.published_version "
		"WHERE m.table_path OPERATOR(pg_catalog.=) $1 ORDER BY r.version",
	1, {TEXTOID}},
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
 * catalog_owner: the owner of deltacc.managed_tables, or InvalidOid when
 * the catalog tables are not there (the extension not installed in this
 * database, or installed at a version without them).
 */
static Oid
catalog_owner(void)
{
	Oid			nsp = get_namespace_oid("deltacc", true);
	Oid			rel;
	HeapTuple	tup;
	Oid			owner;

	if (!OidIsValid(nsp))
		return InvalidOid;
	rel = get_relname_relid("managed_tables", nsp);
	if (!OidIsValid(rel) ||
		!OidIsValid(get_relname_relid("ratified_commits", nsp)))
		return InvalidOid;
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(rel));
	if (!HeapTupleIsValid(tup))
		return InvalidOid;
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return owner;
}

/*
 * session_begin: connect to SPI and become the catalog tables' owner.
 * Returns false when the catalog is not installed; with 'must' that is an
 * ERROR instead.  (An ERROR later on leaves the user id to transaction
 * or subtransaction abort, which restores it.)
 */
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
	s->outer = CurrentMemoryContext;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	GetUserIdAndSecContext(&s->save_userid, &s->save_sec_context);
	SetUserIdAndSecContext(owner,
						   s->save_sec_context | SECURITY_LOCAL_USERID_CHANGE);
	return true;
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

/*
 * catalog_lookup: the log layer's delta_catalog_lookup (see log_reader.h):
 * the table's row and its unpublished ratified commits, from one query.
 */
static DeltaCatalogState *
catalog_lookup(const char *table_path)
{
	CatalogSession s;
	DeltaCatalogState *cat;
	Datum		args[1];
	uint64		i;
	uint64		n;

	if (!session_begin(&s, false))
		return NULL;
	args[0] = CStringGetTextDatum(table_path);
	run(Q_LOOKUP, args, NULL, SPI_OK_SELECT);
	if (SPI_processed == 0)
	{
		session_end(&s);
		return NULL;
	}
	cat = MemoryContextAllocZero(s.outer, sizeof(DeltaCatalogState));
	cat->latest_version = DatumGetInt64(col_datum(0, 1));
	cat->published_version = DatumGetInt64(col_datum(0, 2));
	n = col_null(0, 3) ? 0 : SPI_processed;
	cat->commits = MemoryContextAllocZero(s.outer,
										  sizeof(DeltaRatifiedCommit) *
										  Max(n, 1));
	for (i = 0; i < n; i++)
	{
		DeltaRatifiedCommit *rc = &cat->commits[i];

		CHECK_FOR_INTERRUPTS();
		rc->version = DatumGetInt64(col_datum(i, 3));
		rc->staged_path = col_text(i, 4, s.outer);
		rc->content = col_bytea(i, 5, s.outer, &rc->content_len);
		col_sha256(i, 6, rc->sha256);
	}
	cat->n_commits = (int) n;
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
