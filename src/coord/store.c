/*-------------------------------------------------------------------------
 *
 * store.c
 *	  The catalog's tables, read by index scans and written through SPI as
 *	  their owner, a ratified commit directly (see store.h), and the log
 *	  layer's lookup of registered tables.
 *
 * The reads are described under "Direct reads" below.  Each statement is
 * prepared once per backend (SPI_keepplan) with a generic
 * plan (each is an index lookup whatever its arguments, and a custom plan
 * per call would cost a planning per call); the plans name every table,
 * column and operator with its schema, so a re-analysis after an
 * invalidation (the extension dropped and created again, say) finds the
 * same objects whatever the session's search_path.
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

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/sysattr.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "coord/store.h"
#include "log/log_reader.h"
#include "snapshot/commit_cache.h"

int			deltacc_max_unpublished_versions = 10;

typedef enum CatalogQuery
{
	Q_REGISTER,
	Q_INSERT,
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

/*
 * The ranges of ratified versions are bounded on both sides (the table's
 * latest version above), so that a generic plan estimates a few rows and
 * takes the primary key's index for them.
 */
static const QueryDef queries[Q_COUNT] = {
	[Q_REGISTER] = {
		"INSERT INTO deltacc.managed_tables "
		"(table_path, table_id, latest_version, published_version, registered_at) "
		"VALUES ($1, $2, $3, $3, $4) ON CONFLICT (table_path) DO NOTHING",
	4, {TEXTOID, TEXTOID, INT8OID, TIMESTAMPTZOID}},
	/* the ratified row, and the table's latest version: one statement */
	[Q_INSERT] = {
		"WITH ins AS (INSERT INTO deltacc.ratified_commits "
		"(table_path, version, txn_id, in_commit_timestamp, staged_path, "
		"content, content_sha256, ratified_at) "
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8)) "
		"UPDATE deltacc.managed_tables "
		"SET latest_version = $2, table_id = COALESCE($9, table_id) "
		"WHERE table_path OPERATOR(pg_catalog.=) $1",
	9, {TEXTOID, INT8OID, TEXTOID, TIMESTAMPTZOID, TEXTOID, BYTEAOID,
		BYTEAOID, TIMESTAMPTZOID, TEXTOID}},
	[Q_LIST] = {
		LIST_SELECT LIST_WHERE,
	3, {TEXTOID, INT8OID, INT8OID}, true},
	[Q_LIST_UNPUBLISHED] = {
		LIST_SELECT "AND r.version OPERATOR(pg_catalog.>) m.published_version "
		"AND r.published_at IS NULL " LIST_WHERE,
	3, {TEXTOID, INT8OID, INT8OID}},
	[Q_PUBLISHED_ROWS] = {
		"UPDATE deltacc.ratified_commits SET published_at = $3 "
		"WHERE table_path OPERATOR(pg_catalog.=) $1 "
		"AND version OPERATOR(pg_catalog.>) $4 "
		"AND version OPERATOR(pg_catalog.<=) $2 AND published_at IS NULL",
	4, {TEXTOID, INT8OID, TIMESTAMPTZOID, INT8OID}},
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
static void owner_invalidate(Datum arg, int cacheid, uint32 hashvalue);

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
	CacheRegisterSyscacheCallback(RELOID, owner_invalidate, (Datum) 0);
	CacheRegisterSyscacheCallback(NAMESPACEOID, owner_invalidate, (Datum) 0);
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
 * The catalog tables as the direct reads need them (see "Direct reads"
 * below): their owner, OIDs, the unique indexes the reads scan and the
 * columns they read, looked up once and kept until a relation or schema
 * changes anywhere (a syscache invalidation of pg_class or pg_namespace:
 * the extension dropped or created, a table renamed or given to another
 * owner, an index made or dropped).
 */
typedef struct CatalogRels
{
	Oid			owner;			/* InvalidOid: the tables are not there */
	Oid			managed;
	Oid			ratified;
	/* unique btree indexes, InvalidOid when missing */
	Oid			managed_key;	/* managed_tables (table_path) */
	Oid			ratified_key;	/* ratified_commits (table_path, version) */
	Oid			ratified_txn;	/* ratified_commits (table_path, txn_id) */
	/* managed_tables' columns */
	AttrNumber	m_path;
	AttrNumber	m_id;
	AttrNumber	m_latest;
	AttrNumber	m_published;
	AttrNumber	m_registered;
	/* ratified_commits' columns */
	AttrNumber	r_path;
	AttrNumber	r_version;
	AttrNumber	r_txn;
	AttrNumber	r_ict;
	AttrNumber	r_staged;
	AttrNumber	r_content;
	AttrNumber	r_sha;
} CatalogRels;

static bool rels_known = false;
static bool rels_columns_known = false;	/* rels_columns done for rels */
static uint64 rels_invalidations = 0;
static CatalogRels rels;

static void
owner_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	rels_known = false;
	rels_columns_known = false;
	rels_invalidations++;
}

/*
 * The unique, valid, non-partial btree index of rel on exactly the key
 * columns (a1) or (a1, a2) with the default operator families of text
 * (a1) and of the integers or text (a2), or InvalidOid.
 */
static Oid
find_key_index(Relation rel, AttrNumber a1, AttrNumber a2, Oid fam2)
{
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	Oid			found = InvalidOid;
	int			nkeys = a2 != InvalidAttrNumber ? 2 : 1;

	foreach(lc, indexes)
	{
		Relation	idx = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index f = idx->rd_index;

		if (f->indisunique && f->indisvalid && f->indimmediate &&
			idx->rd_rel->relam == BTREE_AM_OID &&
			f->indnkeyatts == nkeys && f->indnatts == nkeys &&
			heap_attisnull(idx->rd_indextuple, Anum_pg_index_indpred, NULL) &&
			f->indkey.values[0] == a1 &&
			idx->rd_opfamily[0] == TEXT_BTREE_FAM_OID &&
			(nkeys == 1 ||
			 (f->indkey.values[1] == a2 && idx->rd_opfamily[1] == fam2)))
			found = RelationGetRelid(idx);
		index_close(idx, AccessShareLock);
		if (OidIsValid(found))
			break;
	}
	list_free(indexes);
	return found;
}

/* The columns and indexes of the two tables (rels.managed, rels.ratified). */
static void
rels_columns(void)
{
	Relation	rel;

	rels.m_path = get_attnum(rels.managed, "table_path");
	rels.m_id = get_attnum(rels.managed, "table_id");
	rels.m_latest = get_attnum(rels.managed, "latest_version");
	rels.m_published = get_attnum(rels.managed, "published_version");
	rels.m_registered = get_attnum(rels.managed, "registered_at");
	rels.r_path = get_attnum(rels.ratified, "table_path");
	rels.r_version = get_attnum(rels.ratified, "version");
	rels.r_txn = get_attnum(rels.ratified, "txn_id");
	rels.r_ict = get_attnum(rels.ratified, "in_commit_timestamp");
	rels.r_staged = get_attnum(rels.ratified, "staged_path");
	rels.r_content = get_attnum(rels.ratified, "content");
	rels.r_sha = get_attnum(rels.ratified, "content_sha256");
	rel = table_open(rels.managed, AccessShareLock);
	if (rels.m_path != InvalidAttrNumber)
		rels.managed_key = find_key_index(rel, rels.m_path, InvalidAttrNumber,
										  InvalidOid);
	table_close(rel, AccessShareLock);
	rel = table_open(rels.ratified, AccessShareLock);
	if (rels.r_path != InvalidAttrNumber && rels.r_version != InvalidAttrNumber)
		rels.ratified_key = find_key_index(rel, rels.r_path, rels.r_version,
										   INTEGER_BTREE_FAM_OID);
	if (rels.r_path != InvalidAttrNumber && rels.r_txn != InvalidAttrNumber)
		rels.ratified_txn = find_key_index(rel, rels.r_path, rels.r_txn,
										   TEXT_BTREE_FAM_OID);
	table_close(rel, AccessShareLock);
}

/*
 * catalog_rels: the catalog tables (owner InvalidOid when they are not
 * there: the extension not installed in this database, or installed at a
 * version without them), without their columns and indexes
 * (catalog_rels_full).
 */
static const CatalogRels *
catalog_rels(void)
{
	Oid			nsp;
	HeapTuple	tup;
	uint64		before = rels_invalidations;

	if (rels_known)
		return &rels;
	memset(&rels, 0, sizeof(rels));
	rels_columns_known = false;
	nsp = get_namespace_oid("deltacc", true);
	if (OidIsValid(nsp))
	{
		rels.managed = get_relname_relid("managed_tables", nsp);
		rels.ratified = get_relname_relid("ratified_commits", nsp);
	}
	if (OidIsValid(rels.managed) && OidIsValid(rels.ratified))
	{
		tup = SearchSysCache1(RELOID, ObjectIdGetDatum(rels.managed));
		if (HeapTupleIsValid(tup))
		{
			rels.owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
			ReleaseSysCache(tup);
		}
	}
	/* kept unless an invalidation arrived while they were looked up */
	rels_known = rels_invalidations == before;
	return &rels;
}

/*
 * catalog_rels_full: catalog_rels with the columns and key indexes looked
 * up too (rels_columns), when the tables are there.  A backend that only
 * reads plain tables needs none of it (catalog_lookup tests the registry
 * for rows first).
 */
static const CatalogRels *
catalog_rels_full(void)
{
	const CatalogRels *cr = catalog_rels();
	uint64		before = rels_invalidations;

	if (OidIsValid(cr->owner) && !rels_columns_known)
	{
		rels_columns();
		rels_columns_known = rels_known && rels_invalidations == before;
	}
	return cr;
}

/*
 * catalog_rels_for_reads: catalog_rels, with every index and column the
 * direct reads use; ERROR (ERRCODE_UNDEFINED_OBJECT) when the tables are
 * not installed (must) or not as the extension makes them.  NULL when
 * they are not installed and !must.
 */
static const CatalogRels *
catalog_rels_for_reads(bool must)
{
	const CatalogRels *cr = catalog_rels_full();

	if (!OidIsValid(cr->owner))
	{
		if (must)
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_OBJECT),
					errmsg("the deltacc catalog tables are not installed in this database"),
					errhint("Update the extension with ALTER EXTENSION deltacc UPDATE."));
		return NULL;
	}
	if (!OidIsValid(cr->managed_key) || !OidIsValid(cr->ratified_key) ||
		!OidIsValid(cr->ratified_txn) || cr->m_id == InvalidAttrNumber ||
		cr->m_latest == InvalidAttrNumber ||
		cr->m_published == InvalidAttrNumber ||
		cr->m_registered == InvalidAttrNumber ||
		cr->r_ict == InvalidAttrNumber || cr->r_staged == InvalidAttrNumber ||
		cr->r_content == InvalidAttrNumber || cr->r_sha == InvalidAttrNumber)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("the deltacc catalog tables lack a column or unique index of the extension"),
				errdetail("deltacc.managed_tables needs its primary key on table_path, deltacc.ratified_commits its primary key on (table_path, version) and its unique constraint on (table_path, txn_id)."),
				errhint("Create the extension again, or update it with ALTER EXTENSION deltacc UPDATE."));
	return cr;
}

/* catalog_owner: the owner of the catalog tables, or InvalidOid. */
static Oid
catalog_owner(void)
{
	return catalog_rels()->owner;
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
		SPIPlanPtr	plan = SPI_prepare_cursor(queries[q].sql, queries[q].nargs,
											  (Oid *) queries[q].types,
											  CURSOR_OPT_GENERIC_PLAN);

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

/* datum_text: a text value copied into cxt, NULL for NULL. */
static char *
datum_text(Datum d, bool isnull, MemoryContext cxt)
{
	MemoryContext old;
	char	   *s;

	if (isnull)
		return NULL;
	old = MemoryContextSwitchTo(cxt);
	s = TextDatumGetCString(d);
	MemoryContextSwitchTo(old);
	return s;
}

/* datum_bytea: a bytea value copied into cxt (NUL-terminated), NULL for NULL. */
static char *
datum_bytea(Datum d, bool isnull, MemoryContext cxt, Size *len)
{
	bytea	   *b;
	char	   *out;

	*len = 0;
	if (isnull)
		return NULL;
	b = DatumGetByteaPP(d);
	*len = VARSIZE_ANY_EXHDR(b);
	out = MemoryContextAllocHuge(cxt, *len + 1);
	memcpy(out, VARDATA_ANY(b), *len);
	out[*len] = '\0';
	if ((Pointer) b != DatumGetPointer(d))
		pfree(b);
	return out;
}

/* datum_sha256: a 32-byte hash value into out (ERROR for another size). */
static void
datum_sha256(Datum d, uint8 *out)
{
	bytea	   *b = DatumGetByteaPP(d);

	if (VARSIZE_ANY_EXHDR(b) != PG_SHA256_DIGEST_LENGTH)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("invalid content_sha256 in deltacc.ratified_commits"));
	memcpy(out, VARDATA_ANY(b), PG_SHA256_DIGEST_LENGTH);
}

/* col_text: a text column copied into cxt, NULL for NULL. */
static char *
col_text(uint64 row, int col, MemoryContext cxt)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[row],
								  SPI_tuptable->tupdesc, col, &isnull);

	return datum_text(d, isnull, cxt);
}

/* col_bytea: a bytea column copied into cxt (NUL-terminated), NULL for NULL. */
static char *
col_bytea(uint64 row, int col, MemoryContext cxt, Size *len)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[row],
								  SPI_tuptable->tupdesc, col, &isnull);

	return datum_bytea(d, isnull, cxt, len);
}

/* col_sha256: a 32-byte hash column into out (ERROR for another size). */
static void
col_sha256(uint64 row, int col, uint8 *out)
{
	datum_sha256(col_datum(row, col), out);
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
 * Direct reads
 *
 * The reads of a commit and of the log layer's lookup (the table's row,
 * locked or not; the ratified rows of a range of versions; the version of
 * a txnId; the in-commit timestamp of a version) are index scans of the
 * catalog tables' unique indexes made here rather than SQL statements: a
 * statement costs its executor's start and end, several times the index
 * probe.  They read what those statements read: the same snapshot (see
 * scan_snapshot), through the same indexes (so with the same predicate
 * locks under serializable isolation), and the locked read takes the row
 * lock of SELECT ... FOR UPDATE as the executor takes it (lock_row).  No
 * privilege is checked on relations read this way: the SQL functions
 * checked their callers' roles, and nobody but the owner may change the
 * tables.
 * ---------------------------------------------------------------------
 */

/*
 * scan_snapshot: the snapshot a read sees, registered (UnregisterSnapshot
 * it): the caller's active snapshot with in_snapshot or in parallel mode;
 * else, as for an SQL statement run through SPI, a fresh snapshot after
 * the command counter is advanced (in READ COMMITTED it sees what the
 * transactions a row lock waited for committed, and always the current
 * transaction's own earlier writes).
 */
static Snapshot
scan_snapshot(bool in_snapshot)
{
	if (in_snapshot || IsInParallelMode())
		return RegisterSnapshot(GetActiveSnapshot());
	CommandCounterIncrement();
	return RegisterSnapshot(GetTransactionSnapshot());
}

/* An index scan of one of the catalog tables. */
typedef struct KeyScan
{
	Relation	rel;
	Relation	idx;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	ScanKeyData keys[3];
	int			nkeys;
} KeyScan;

/* Open relid and its index indexid in mode, held to the transaction's end. */
static void
keyscan_open(KeyScan *ks, Oid relid, Oid indexid, LOCKMODE mode)
{
	ks->rel = table_open(relid, mode);
	ks->idx = index_open(indexid, mode);
	ks->nkeys = 0;
}

/* Add a key on text index column col: equal to s. */
static void
keyscan_text(KeyScan *ks, int col, const char *s)
{
	ScanKeyEntryInitialize(&ks->keys[ks->nkeys++], 0, col,
						   BTEqualStrategyNumber, InvalidOid,
						   ks->idx->rd_indcollation[col - 1], F_TEXTEQ,
						   CStringGetTextDatum(s));
}

/* Add a key on bigint index column col: strategy (=, > or <=) v. */
static void
keyscan_int8(KeyScan *ks, int col, StrategyNumber strategy, int64 v)
{
	RegProcedure proc;

	switch (strategy)
	{
		case BTEqualStrategyNumber:
			proc = F_INT8EQ;
			break;
		case BTGreaterStrategyNumber:
			proc = F_INT8GT;
			break;
		case BTLessEqualStrategyNumber:
			proc = F_INT8LE;
			break;
		default:
			elog(ERROR, "unexpected strategy %d", (int) strategy);
	}
	ScanKeyEntryInitialize(&ks->keys[ks->nkeys++], 0, col, strategy,
						   InvalidOid, InvalidOid, proc, Int64GetDatum(v));
}

/* Start the scan with the keys added, in snapshot snap. */
static void
keyscan_start(KeyScan *ks, Snapshot snap)
{
	ks->scan = index_beginscan(ks->rel, ks->idx, snap, ks->nkeys, 0);
	index_rescan(ks->scan, ks->keys, ks->nkeys, NULL, 0);
	ks->slot = table_slot_create(ks->rel, NULL);
}

/* The next row in index order into ks->slot; false at the end. */
static bool
keyscan_next(KeyScan *ks)
{
	return index_getnext_slot(ks->scan, ForwardScanDirection, ks->slot);
}

/* End the scan (the locks stay). */
static void
keyscan_end(KeyScan *ks)
{
	ExecDropSingleTupleTableSlot(ks->slot);
	index_endscan(ks->scan);
	index_close(ks->idx, NoLock);
	table_close(ks->rel, NoLock);
}

/* Column att of the slot's row (isnull set). */
static inline Datum
slot_col(KeyScan *ks, AttrNumber att, bool *isnull)
{
	return slot_getattr(ks->slot, att, isnull);
}

/* Column att of the slot's row, which is NOT NULL. */
static inline Datum
slot_col_nn(KeyScan *ks, AttrNumber att)
{
	bool		isnull;
	Datum		d = slot_getattr(ks->slot, att, &isnull);

	if (isnull)
		elog(ERROR, "unexpected null in a deltacc catalog table");
	return d;
}

/*
 * lock_row: lock the row in ks->slot as SELECT ... FOR UPDATE does
 * (waiting for a transaction that holds it; a deadlock is PostgreSQL's
 * 40P01): in READ COMMITTED the newest version of the row is locked and
 * left in the slot; in REPEATABLE READ or SERIALIZABLE a row changed since
 * the transaction's snapshot is a serialization failure.  False when the
 * row was deleted meanwhile (or changed by the current command).
 */
static bool
lock_row(KeyScan *ks, Snapshot snap)
{
	ItemPointerData tid = ks->slot->tts_tid;
	TM_FailureData tmfd;
	TM_Result	res;
	uint8		flags = IsolationUsesXactSnapshot() ? 0 :
		TUPLE_LOCK_FLAG_FIND_LAST_VERSION;

	res = table_tuple_lock(ks->rel, &tid, snap, ks->slot,
						   GetCurrentCommandId(true), LockTupleExclusive,
						   LockWaitBlock, flags, &tmfd);
	switch (res)
	{
		case TM_Ok:
			return true;
		case TM_SelfModified:
			return false;
		case TM_Updated:
		case TM_Deleted:
			if (IsolationUsesXactSnapshot())
				ereport(ERROR,
						errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
						errmsg("could not serialize access due to concurrent update"));
			if (res == TM_Deleted)
				return false;
			elog(ERROR, "unexpected table_tuple_lock status: %u", res);
			break;
		default:
			elog(ERROR, "unexpected table_tuple_lock status: %u", res);
	}
	return false;
}

/* managed_tables' row of table_path in ks->slot into *out (in cxt). */
static void
table_from_slot(KeyScan *ks, const CatalogRels *cr, const char *table_path,
				MemoryContext cxt, ManagedTable *out)
{
	bool		isnull;
	Datum		d = slot_col(ks, cr->m_id, &isnull);

	out->table_path = MemoryContextStrdup(cxt, table_path);
	out->table_id = datum_text(d, isnull, cxt);
	out->latest_version = DatumGetInt64(slot_col_nn(ks, cr->m_latest));
	out->published_version = DatumGetInt64(slot_col_nn(ks, cr->m_published));
	out->registered_at = DatumGetTimestampTz(slot_col_nn(ks, cr->m_registered));
}

/*
 * The row version read_table(for_update) locked last, kept for the update
 * of that row by the same commit (direct_managed_tuple), which then needs
 * no second index scan: while a transaction holds the row lock nobody
 * else changes the row, and in a commit nothing of its own transaction
 * does between the lock and that update.  It is used only in the same
 * transaction and subtransaction as the lock, for the same relation and
 * table, and once; anything else (or an update given a version that is no
 * longer the newest, which heap_update refuses with an ERROR) takes the
 * index scan.  The copy lives in TopTransactionContext.
 */
typedef struct LockedRow
{
	bool		valid;
	LocalTransactionId lxid;
	SubTransactionId subid;
	Oid			relid;
	ItemPointerData tid;
	HeapTuple	tuple;
	char	   *table_path;
} LockedRow;

static LockedRow locked_row;
static bool locked_row_callback = false;

/* XactCallback: the copy goes with TopTransactionContext. */
static void
locked_row_forget(XactEvent event, void *arg)
{
	locked_row.valid = false;
}

/* Remember ks's row (just locked) as the row of table_path. */
static void
locked_row_keep(KeyScan *ks, const char *table_path)
{
	MemoryContext old;

	if (!locked_row_callback)
	{
		RegisterXactCallback(locked_row_forget, NULL);
		locked_row_callback = true;
	}
	old = MemoryContextSwitchTo(TopTransactionContext);
	locked_row.valid = false;
	locked_row.tuple = ExecCopySlotHeapTuple(ks->slot);
	locked_row.table_path = pstrdup(table_path);
	locked_row.tid = ks->slot->tts_tid;
	locked_row.relid = RelationGetRelid(ks->rel);
	locked_row.lxid = MyProc->lxid;
	locked_row.subid = GetCurrentSubTransactionId();
	locked_row.valid = true;
	MemoryContextSwitchTo(old);
}

/*
 * The row of table_path in relation relid locked by this transaction and
 * subtransaction, a copy in CurrentMemoryContext and its tid, or NULL;
 * either way it is not kept any longer.
 */
static HeapTuple
locked_row_take(Oid relid, const char *table_path, ItemPointer tid)
{
	HeapTuple	tup = NULL;

	if (locked_row.valid && locked_row.lxid == MyProc->lxid &&
		locked_row.subid == GetCurrentSubTransactionId() &&
		locked_row.relid == relid &&
		strcmp(locked_row.table_path, table_path) == 0)
	{
		tup = heap_copytuple(locked_row.tuple);
		*tid = locked_row.tid;
	}
	locked_row.valid = false;
	return tup;
}

/*
 * read_table: the row of table_path in snapshot snap into *out (in cxt),
 * locked when for_update (see lock_row); false when there is none.
 */
static bool
read_table(const CatalogRels *cr, const char *table_path, Snapshot snap,
		   bool for_update, MemoryContext cxt, ManagedTable *out)
{
	KeyScan		ks;
	bool		found;

	keyscan_open(&ks, cr->managed, cr->managed_key,
				 for_update ? RowShareLock : AccessShareLock);
	keyscan_text(&ks, 1, table_path);
	keyscan_start(&ks, snap);
	found = keyscan_next(&ks);
	if (found && for_update)
	{
		found = lock_row(&ks, snap);
		/* (the newest version still the table's row, as LockRows checks) */
		if (found)
		{
			char	   *p = TextDatumGetCString(slot_col_nn(&ks, cr->m_path));

			found = strcmp(p, table_path) == 0;
			pfree(p);
		}
	}
	if (found)
	{
		table_from_slot(&ks, cr, table_path, cxt, out);
		if (for_update)
			locked_row_keep(&ks, table_path);
	}
	keyscan_end(&ks);
	return found;
}

/* ---------------------------------------------------------------------
 * The lookup's cache of ratified commits
 *
 * A ratified commit is one row per (table, version), inserted once by the
 * transaction that ratified it and never changed afterwards (publishing
 * only sets published_at).  A row that the lookup sees and that the
 * current transaction did not insert is therefore committed, and is the
 * table's commit of that version for every snapshot that sees the version
 * at all: a ratification taken back by a rollback was never visible to
 * another transaction, and the current transaction's own rows (which a
 * rollback, or a subtransaction's, may still take back) are never kept.
 * (Its own rows come last: the table's row stays locked from its first
 * ratification to its end, so nobody else ratifies after them.)  So the
 * committed rows are kept per table, by version, and only the versions
 * after the last one kept are read (a range query).  What is kept belongs
 * to one registration of the table (the ratified_commits table's OID and
 * the table row's registered_at): a table registered again, or the
 * extension created again, starts afresh.
 *
 * A reader takes the catalog's copy of every version whose ratified row
 * exists, published or not (DESIGN, "Catalog-managed tables").  (Reading
 * the published versions from their files instead would cost each
 * opening of the table a listing of _delta_log and a stat of every
 * published file, the check that each is still what was ratified: a
 * commit would cost the published log.)  But what a commit reads is the
 * versions after its read version, and the check of its read snapshot
 * needs nothing of a committed row (see snapshot_cache.c): so only the
 * unpublished rows are kept, as many as deltacc.max_unpublished_versions
 * lets wait, and a state holds those; the published ones, from the
 * registration's first ratified version (t->base, looked up once) on, are
 * read one at a time when a reader asks for one (state_fetch: an index
 * probe).  A state costs the unpublished versions, not the published log.
 *
 * The rows live in chunks of CAT_CHUNK rows that never move, so that a
 * DeltaCatalogState points into them (one run per chunk) instead of
 * copying them; the cache pins a table's rows until the caller's memory
 * context goes (a pinned table may grow, never shrink).  At most
 * deltacc.commit_cache_size bytes of content are kept, across tables;
 * beyond it a lookup reads the rows after the kept ones each time.
 *
 * Of the unpublished rows, only those of the newest CAT_KEEP_VERSIONS
 * versions stay kept (the versions a session's next commits and checks
 * read, and those of readers a little behind); older ones are read one at
 * a time when asked for, as published ones are.  Without that bound a
 * session would copy every row the table's other committers ratify and
 * keep it until publishing catches up: its memory would grow with the
 * versions waiting (deltacc.max_unpublished_versions may allow millions),
 * and each copy would land on memory the process never touched before (a
 * page fault per 4 kB of rows), where trimmed rows hand theirs on.
 * ---------------------------------------------------------------------
 */
#define CAT_CHUNK 1024
#define CAT_KEEP_VERSIONS 1024

typedef struct CatTable
{
	char	   *key;			/* canonical table path */
	Oid			relid;			/* deltacc.ratified_commits */
	TimestampTz registered_at;
	MemoryContext cxt;			/* the chunks, the rows' content */
	int64		first;			/* version of the first kept row */
	int64		base;			/* the registration's first ratified
								 * version, -1 while not known */
	int64		n;				/* kept: versions first .. first + n - 1 */
	int			head;			/* position of version 'first' in chunks[0] */
	int			nchunks;
	int			capchunks;
	DeltaRatifiedCommit **chunks;
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

/* The kept row of version v (first <= v < first + n). */
static DeltaRatifiedCommit *
cat_row(const CatTable *t, int64 v)
{
	int64		idx = t->head + (v - t->first);

	Assert(v >= t->first && v < t->first + t->n);
	return &t->chunks[idx / CAT_CHUNK][idx % CAT_CHUNK];
}

/* The bytes a kept row counts against the bound. */
static Size
row_bytes(const DeltaRatifiedCommit *rc)
{
	return rc->content_len +
		(rc->staged_path ? strlen(rc->staged_path) + 1 : 0);
}

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
	t->base = -1;
	t->cxt = AllocSetContextCreate(cat_cxt, "deltacc catalog table rows",
								   ALLOCSET_DEFAULT_SIZES);
	item = hash_search(cat_hash, key, HASH_ENTER, &found);
	Assert(!found);
	item->t = t;
	return t;
}

/*
 * The kept rows of table_path for the registration (ratified, registered_at):
 * those of another registration are dropped first; NULL when nothing is
 * kept (the cache disabled, or a path too long).
 */
static CatTable *
cat_table_for(const char *table_path, Oid ratified, TimestampTz registered_at)
{
	CatTable   *t = cat_table(table_path, true);

	if (t != NULL && t->relid != InvalidOid &&
		(t->relid != ratified || t->registered_at != registered_at))
	{
		cat_drop(t);
		t = cat_table(table_path, true);
	}
	if (t != NULL && t->relid == InvalidOid)
	{
		t->relid = ratified;
		t->registered_at = registered_at;
	}
	return t;
}

/*
 * Forget t's rows of versions up to 'through' (published, or older than
 * the newest CAT_KEEP_VERSIONS: a state fetches them one by one when a
 * reader asks, see state_fetch); only while nobody pins them.
 */
static void
cat_trim(CatTable *t, int64 through)
{
	int64		k;
	int64		i;

	if (t->pins > 0)
		return;
	if (t->n == 0 || through < t->first)
	{
		if (t->n == 0)
			t->first = Max(t->first, through + 1);
		return;
	}
	k = Min(through - t->first + 1, t->n);
	for (i = 0; i < k; i++)
	{
		DeltaRatifiedCommit *rc = cat_row(t, t->first + i);
		Size		b = row_bytes(rc);

		if (rc->content != NULL)
			pfree(unconstify(char *, rc->content));
		if (rc->staged_path != NULL)
			pfree(unconstify(char *, rc->staged_path));
		t->bytes -= b;
		cat_bytes -= b;
	}
	t->first += k;
	t->n -= k;
	t->head += (int) (k % CAT_CHUNK);
	k /= CAT_CHUNK;				/* whole chunks passed, then the rest */
	if (t->head >= CAT_CHUNK)
	{
		t->head -= CAT_CHUNK;
		k++;
	}
	for (i = 0; i < k && i < t->nchunks; i++)
		pfree(t->chunks[i]);
	if (k > 0)
	{
		memmove(t->chunks, t->chunks + k,
				sizeof(DeltaRatifiedCommit *) * (t->nchunks - k));
		t->nchunks -= (int) k;
	}
	if (t->n == 0)
	{
		for (i = 0; i < t->nchunks; i++)
			pfree(t->chunks[i]);
		t->nchunks = 0;
		t->head = 0;
		t->first = through + 1;
	}
}

/*
 * cat_trim for a lookup of the table whose row is mt: the published
 * versions, and those before the newest CAT_KEEP_VERSIONS.
 */
static void
cat_trim_for(CatTable *t, const ManagedTable *mt)
{
	cat_trim(t, Max(mt->published_version,
					mt->latest_version - CAT_KEEP_VERSIONS));
}

/*
 * Keep row rc (version t->first + t->n, committed) when it fits under the
 * bound; returns whether it was kept.  Its staged path and inline
 * content are copied into t's context.
 */
static bool
cat_append(CatTable *t, const DeltaRatifiedCommit *rc)
{
	Size		b = row_bytes(rc);
	Size		limit = (Size) deltacc_commit_cache_size * 1024;
	int64		idx = t->head + t->n;
	DeltaRatifiedCommit *kept;

	if (cat_bytes + b + sizeof(DeltaRatifiedCommit) > limit)
		return false;
	if (idx / CAT_CHUNK >= t->nchunks)
	{
		if (t->nchunks == t->capchunks)
		{
			int			cap = t->capchunks == 0 ? 8 : t->capchunks * 2;

			t->chunks = t->chunks == NULL ?
				MemoryContextAlloc(t->cxt, sizeof(DeltaRatifiedCommit *) * cap) :
				repalloc(t->chunks, sizeof(DeltaRatifiedCommit *) * cap);
			t->capchunks = cap;
		}
		t->chunks[t->nchunks++] =
			MemoryContextAlloc(t->cxt, sizeof(DeltaRatifiedCommit) * CAT_CHUNK);
	}
	if (t->n == 0)
		t->first = rc->version;
	t->n++;
	kept = cat_row(t, rc->version);
	*kept = *rc;
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
 * Runs for the kept versions from .. to of t (all kept) after runs[0 ..
 * *nruns), one per chunk they span; t is pinned while cxt lives.
 */
static void
kept_runs(DeltaRatifiedRun *runs, int *nruns, CatTable *t, int64 from,
		  int64 to, MemoryContext cxt)
{
	CatPin	   *pin = MemoryContextAllocZero(cxt, sizeof(CatPin));
	int64		next = from;

	while (next <= to)
	{
		int64		idx = t->head + (next - t->first);
		int64		n = Min(to - next + 1, CAT_CHUNK - idx % CAT_CHUNK);

		runs[*nruns].first = next;
		runs[*nruns].n = (int) n;
		runs[*nruns].rows = cat_row(t, next);
		(*nruns)++;
		next += n;
	}
	pin->t = t;
	pin->cb.func = cat_unpin;
	pin->cb.arg = pin;
	t->pins++;
	MemoryContextRegisterResetCallback(cxt, &pin->cb);
}

/* The most runs kept_runs may make for versions from .. to. */
#define KEPT_RUNS(from, to) \
	((to) >= (from) ? (int) (((to) - (from)) / CAT_CHUNK) + 2 : 0)

/*
 * read_rows: the rows of ratified_commits of table_path with next <= version
 * <= to, in snapshot snap, in version order (*nrows of them), read into
 * cxt; those that follow t's kept rows and were committed are kept in t
 * too (t NULL: none).  *committed_through is raised to the last of the
 * rows that committed before the first of the current transaction's own.
 * ERROR data_corrupted when the rows do not follow each other.
 */
static DeltaRatifiedCommit *
read_rows(const CatalogRels *cr, const char *table_path, CatTable *t,
		  Snapshot snap, int64 next, int64 to, int64 *committed_through,
		  MemoryContext cxt, int *nrows)
{
	DeltaRatifiedCommit *rows;
	KeyScan		ks;
	bool		appending;
	bool		committed = true;
	int			cap = 8;
	int			n = 0;

	rows = MemoryContextAllocZero(cxt, sizeof(DeltaRatifiedCommit) * cap);
	if (to < next)
	{
		*nrows = 0;
		return rows;
	}
	keyscan_open(&ks, cr->ratified, cr->ratified_key, AccessShareLock);
	keyscan_text(&ks, 1, table_path);
	keyscan_int8(&ks, 2, BTGreaterStrategyNumber, next - 1);
	keyscan_int8(&ks, 2, BTLessEqualStrategyNumber, to);
	keyscan_start(&ks, snap);
	/* (appending moves no kept row: a pinned table may grow) */
	appending = t != NULL && (t->n == 0 || t->first + t->n == next);
	while (keyscan_next(&ks))
	{
		DeltaRatifiedCommit *rc;
		TransactionId xmin;
		bool		isnull;
		Datum		d;
		bool		mine;

		CHECK_FOR_INTERRUPTS();
		if (n == cap)
		{
			rows = repalloc_huge(rows, sizeof(DeltaRatifiedCommit) * cap * 2);
			memset(rows + cap, 0, sizeof(DeltaRatifiedCommit) * cap);
			cap *= 2;
		}
		rc = &rows[n];
		rc->version = DatumGetInt64(slot_col_nn(&ks, cr->r_version));
		if (rc->version != next + n)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("catalog of Delta table \"%s\" is missing ratified version " INT64_FORMAT,
						   table_path, next + n));
		d = slot_col(&ks, cr->r_staged, &isnull);
		rc->staged_path = datum_text(d, isnull, cxt);
		d = slot_col(&ks, cr->r_content, &isnull);
		rc->content = datum_bytea(d, isnull, cxt, &rc->content_len);
		datum_sha256(slot_col_nn(&ks, cr->r_sha), rc->sha256);
		if (rc->staged_path == NULL)
		{
			if (rc->content == NULL)
				ereport(ERROR,
						errcode(ERRCODE_DATA_CORRUPTED),
						errmsg("ratified commit " INT64_FORMAT " of Delta table \"%s\" has neither content nor a staged path",
							   rc->version, table_path));
		}
		xmin = DatumGetTransactionId(slot_getsysattr(ks.slot,
													 MinTransactionIdAttributeNumber,
													 &isnull));
		mine = TransactionIdIsCurrentTransactionId(xmin);
		/* committed rows only, in order (see above) */
		committed = committed && !mine;
		if (committed)
			*committed_through = rc->version;
		if (appending && committed &&
			(t->n == 0 || t->first + t->n == rc->version))
			appending = cat_append(t, rc);
		else
			appending = false;
		n++;
	}
	keyscan_end(&ks);
	*nrows = n;
	return rows;
}

/*
 * A state as the lookup makes it: the log layer's part, and what fetching
 * an older row needs (state_fetch).
 */
typedef struct StoreState
{
	DeltaCatalogState pub;		/* first: the log layer's pointer */
	char	   *table_path;
	MemoryContext cxt;			/* the state's: fetched rows go there */
	HTAB	   *fetched;		/* FetchedRow by version, or NULL */
} StoreState;

typedef struct FetchedRow
{
	int64		version;		/* hash key */
	DeltaRatifiedCommit *rc;
} FetchedRow;

/*
 * state_fetch: the state's DeltaRatifiedFetch: the committed row of a
 * version before the state's loaded ones (first_ratified <= version <
 * loaded_from), read by an index probe in a fresh snapshot (a committed
 * row of the registration never changes, so any snapshot that has it has
 * the same row) and kept with the state.  ERROR data_corrupted when it is
 * not there any more.
 */
static const DeltaRatifiedCommit *
state_fetch(DeltaCatalogState *pub, int64 version)
{
	StoreState *st = (StoreState *) pub;
	const CatalogRels *cr = catalog_rels_for_reads(true);
	FetchedRow *fr;
	bool		found;
	Snapshot	snap;
	DeltaRatifiedCommit *rows;
	int64		committed = -1;
	int			n;

	Assert(version >= pub->first_ratified && version < pub->loaded_from);
	if (st->fetched == NULL)
	{
		HASHCTL		ctl;

		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(int64);
		ctl.entrysize = sizeof(FetchedRow);
		ctl.hcxt = st->cxt;
		st->fetched = hash_create("deltacc ratified rows fetched", 16, &ctl,
								  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	fr = hash_search(st->fetched, &version, HASH_FIND, NULL);
	if (fr != NULL)
		return fr->rc;
	if (cr->ratified != pub->catalog_relid)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("catalog of Delta table \"%s\" was created again while it was read",
					   st->table_path));
	snap = scan_snapshot(false);
	rows = read_rows(cr, st->table_path, NULL, snap, version, version,
					 &committed, st->cxt, &n);
	UnregisterSnapshot(snap);
	if (n != 1 || committed != version)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("catalog of Delta table \"%s\" is missing ratified version " INT64_FORMAT,
					   st->table_path, version));
	fr = hash_search(st->fetched, &version, HASH_ENTER, &found);
	fr->rc = rows;
	return rows;
}

/*
 * The registration's first ratified version: the version of the table's
 * first row in ratified_commits (kept in t once known: rows are never
 * taken out of a registration), or 'none' when there is no row.
 */
static int64
first_ratified_of(const CatalogRels *cr, const char *table_path,
				  CatTable *t, Snapshot snap, int64 none)
{
	KeyScan		ks;
	int64		v = none;

	if (t != NULL && t->base >= 0)
		return t->base;
	keyscan_open(&ks, cr->ratified, cr->ratified_key, AccessShareLock);
	keyscan_text(&ks, 1, table_path);
	keyscan_start(&ks, snap);
	if (keyscan_next(&ks))
	{
		v = DatumGetInt64(slot_col_nn(&ks, cr->r_version));
		if (t != NULL)
			t->base = v;
	}
	keyscan_end(&ks);
	return v;
}

/*
 * The state of a table whose row says 'latest', 'published', registered
 * as (ratified, registered_at), in cxt: every ratified commit there is,
 * published or not (DESIGN: a reader takes the catalog's copy of each).
 * Loaded: t's kept rows (t may be NULL) and the rows after them, read in
 * snapshot snap (see read_rows), or without kept rows the unpublished
 * ones; the versions before those, from the registration's first ratified
 * one, are fetched when asked for (state_fetch).
 */
static DeltaCatalogState *
state_new(const CatalogRels *cr, const char *table_path, CatTable *t,
		  int64 latest, int64 published, TimestampTz registered_at,
		  Snapshot snap, MemoryContext cxt)
{
	StoreState *st;
	DeltaCatalogState *cat;
	DeltaRatifiedRun *runs;
	DeltaRatifiedCommit *rows;
	int64		kept_from = -1;
	int64		kept_to = -2;
	int64		next;
	int			nruns = 0;
	int			nrows;

	st = MemoryContextAllocZero(cxt, sizeof(StoreState));
	st->table_path = MemoryContextStrdup(cxt, table_path);
	st->cxt = cxt;
	cat = &st->pub;
	cat->latest_version = latest;
	cat->published_version = published;
	cat->catalog_relid = cr->ratified;
	cat->registered_at = registered_at;
	cat->fetch = state_fetch;
	cat->first_ratified = first_ratified_of(cr, table_path, t, snap,
											latest + 1);
	cat->loaded_from = Max(cat->first_ratified, published + 1);
	if (t != NULL && t->n > 0 && t->first <= latest &&
		t->first >= cat->first_ratified)
	{
		kept_from = t->first;
		kept_to = Min(latest, t->first + t->n - 1);
		cat->loaded_from = kept_from;
	}
	runs = MemoryContextAlloc(cxt, sizeof(DeltaRatifiedRun) *
							  (1 + KEPT_RUNS(kept_from, kept_to)));
	/*
	 * (the rows before the loaded ones are published, or were kept:
	 * committed either way, as the current transaction's own rows come
	 * after every committed one)
	 */
	cat->committed_through = cat->loaded_from - 1;
	next = cat->loaded_from;
	if (kept_to >= kept_from)
	{
		kept_runs(runs, &nruns, t, kept_from, kept_to, cxt);
		cat->committed_through = kept_to;
		next = kept_to + 1;
	}
	rows = read_rows(cr, table_path, t, snap, next, latest,
					 &cat->committed_through, cxt, &nrows);
	if (nrows > 0)
	{
		runs[nruns].first = next;
		runs[nruns].n = nrows;
		runs[nruns].rows = rows;
		nruns++;
	}
	cat->n_commits = (int) (latest - cat->loaded_from + 1);
	cat->n_runs = nruns;
	cat->runs = runs;
	return cat;
}

/*
 * catalog_lookup: the log layer's delta_catalog_lookup (see log_reader.h):
 * the table's row and its ratified commits, the committed ones kept from
 * earlier lookups (see above) and the rest read after them, in one fresh
 * snapshot.
 */
static DeltaCatalogState *
catalog_lookup(const char *table_path)
{
	const CatalogRels *cr;
	DeltaCatalogState *cat;
	ManagedTable mt;
	Snapshot	snap;
	CatTable   *t;

	/* (no table registered: the common case, and no more to look up) */
	cr = catalog_rels();
	if (!OidIsValid(cr->owner) || catalog_empty(cr->managed))
		return NULL;
	cr = catalog_rels_for_reads(false);
	if (cr == NULL)
		return NULL;
	cat_reap();
	snap = scan_snapshot(false);
	if (!read_table(cr, table_path, snap, false, CurrentMemoryContext, &mt))
	{
		UnregisterSnapshot(snap);
		return NULL;
	}
	/* (those of another registration are dropped) */
	t = cat_table_for(table_path, cr->ratified, mt.registered_at);
	if (t != NULL)
		cat_trim_for(t, &mt);
	cat = state_new(cr, table_path, t, mt.latest_version,
					mt.published_version, mt.registered_at, snap,
					CurrentMemoryContext);
	UnregisterSnapshot(snap);
	return cat;
}

/*
 * catalog_commit_state: see store.h.
 */
DeltaCatalogState *
catalog_commit_state(const ManagedTable *mt, const char *txn_id, int64 *done)
{
	const CatalogRels *cr = catalog_rels_for_reads(true);
	DeltaCatalogState *cat;
	Snapshot	snap;
	KeyScan		ks;
	CatTable   *t;

	cat_reap();
	t = cat_table_for(mt->table_path, cr->ratified, mt->registered_at);
	if (t != NULL)
		cat_trim_for(t, mt);
	snap = scan_snapshot(false);
	/* the version of the txnId, if it is ratified */
	*done = -1;
	keyscan_open(&ks, cr->ratified, cr->ratified_txn, AccessShareLock);
	keyscan_text(&ks, 1, mt->table_path);
	keyscan_text(&ks, 2, txn_id);
	keyscan_start(&ks, snap);
	if (keyscan_next(&ks))
		*done = DatumGetInt64(slot_col_nn(&ks, cr->r_version));
	keyscan_end(&ks);
	cat = state_new(cr, mt->table_path, t, mt->latest_version,
					mt->published_version, mt->registered_at, snap,
					CurrentMemoryContext);
	UnregisterSnapshot(snap);
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
	out->registered_at = 0;
}

/*
 * catalog_get_table: see store.h.
 */
bool
catalog_get_table(const char *table_path, bool for_update, ManagedTable *out)
{
	const CatalogRels *cr = catalog_rels_for_reads(true);
	Snapshot	snap = scan_snapshot(!for_update);
	bool		found;

	found = read_table(cr, table_path, snap, for_update, CurrentMemoryContext,
					   out);
	UnregisterSnapshot(snap);
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
 * catalog_ict_of: see store.h.
 */
bool
catalog_ict_of(const char *table_path, int64 version, TimestampTz *ict)
{
	const CatalogRels *cr = catalog_rels_for_reads(true);
	Snapshot	snap = scan_snapshot(false);
	KeyScan		ks;
	bool		found = false;

	keyscan_open(&ks, cr->ratified, cr->ratified_key, AccessShareLock);
	keyscan_text(&ks, 1, table_path);
	keyscan_int8(&ks, 2, BTEqualStrategyNumber, version);
	keyscan_start(&ks, snap);
	if (keyscan_next(&ks))
	{
		bool		isnull;
		Datum		d = slot_col(&ks, cr->r_ict, &isnull);

		if (!isnull)
		{
			*ict = DatumGetTimestampTz(d);
			found = true;
		}
	}
	keyscan_end(&ks);
	UnregisterSnapshot(snap);
	return found;
}

/* ---------------------------------------------------------------------
 * The insert of a ratified commit
 *
 * Its two rows (the ratified_commits row, the table's latest_version and
 * table_id in managed_tables) are written straight through the heap and
 * its indexes, as PostgreSQL writes its own catalogs (CatalogTupleInsert,
 * CatalogTupleUpdate), rather than as the statement Q_INSERT: under the
 * table's row lock, where every commit of the table waits, a statement
 * costs its executor's start and end and the check constraints' parse
 * per execution, several times the writes.  They write what the
 * statement writes: the same tuples (heap_insert and heap_update as the
 * executor calls them, TOAST and HOT alike, the command's id), the same
 * index entries with the same uniqueness checks (and errors), the
 * constraints checked here (NOT NULL, and the two CHECK constraints the
 * extension creates, whose conditions the values are tested against).
 * Only when the tables are as the extension makes them: plain tables
 * without triggers or row security, no defaults or generated columns,
 * their CHECK constraints the extension's by name, their indexes without
 * expressions, predicates, exclusion or deferred checks, and every
 * column one the statement names with its type.  Otherwise the statement
 * runs (as the tables' owner).  As for the direct reads, no privilege is
 * checked: the SQL function checked its caller's role, and nobody but
 * the owner may change the tables.
 * ---------------------------------------------------------------------
 */

/* ratified_commits' columns as Q_INSERT names them (published_at NULL) */
#define RC_NCOLS 9
static const char *const rc_names[RC_NCOLS] = {
	"table_path", "version", "txn_id", "in_commit_timestamp", "staged_path",
	"content", "content_sha256", "ratified_at", "published_at"
};
static const Oid rc_types[RC_NCOLS] = {
	TEXTOID, INT8OID, TEXTOID, TIMESTAMPTZOID, TEXTOID,
	BYTEAOID, BYTEAOID, TIMESTAMPTZOID, TIMESTAMPTZOID
};

/*
 * Whether rel can be written directly (see above): check_name is its one
 * CHECK constraint; ind its open indexes.
 */
static bool
direct_write_ok(Relation rel, CatalogIndexState ind, const char *check_name)
{
	TupleConstr *c = RelationGetDescr(rel)->constr;
	int			i;

	if (rel->rd_rel->relkind != RELKIND_RELATION || rel->trigdesc != NULL ||
		rel->rd_rel->relrowsecurity)
		return false;
	if (c == NULL || c->num_defval != 0 || c->has_generated_stored ||
		c->num_check != 1 || strcmp(c->check[0].ccname, check_name) != 0)
		return false;
	for (i = 0; i < ind->ri_NumIndices; i++)
	{
		IndexInfo  *ii = ind->ri_IndexRelationInfo[i];

		if (ii->ii_Expressions != NIL || ii->ii_Predicate != NIL ||
			ii->ii_ExclusionOps != NULL || ii->ii_NumIndexKeyAttrs == 0 ||
			!ind->ri_IndexRelationDescs[i]->rd_index->indimmediate)
			return false;
	}
	return true;
}

/*
 * The ratified_commits tuple of values v/isnull (RC_NCOLS, in rc_names'
 * order), or NULL when a column is not one of them with its type, one of
 * them is missing, or a NOT NULL column would be null.
 */
static HeapTuple
direct_ratified_tuple(Relation rel, const Datum *v, const bool *isnull)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Datum	   *values = palloc0(sizeof(Datum) * Max(desc->natts, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(desc->natts, 1));
	int			seen = 0;
	int			i,
				k;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		nulls[i] = true;
		if (att->attisdropped)
			continue;
		for (k = 0; k < RC_NCOLS; k++)
			if (strcmp(NameStr(att->attname), rc_names[k]) == 0)
				break;
		if (k == RC_NCOLS || att->atttypid != rc_types[k] ||
			(att->attnotnull && isnull[k]))
			return NULL;
		values[i] = v[k];
		nulls[i] = isnull[k];
		seen++;
	}
	if (seen != RC_NCOLS)
		return NULL;
	return heap_form_tuple(desc, values, nulls);
}

/*
 * The managed_tables row of table_path with latest_version 'version' and
 * table_id (when not NULL), or NULL when the row's columns are not as the
 * extension makes them or its CHECK constraint would not hold.  *tid gets
 * the row's (locked) version.  ERROR when the row is gone.
 */
static HeapTuple
direct_managed_tuple(const CatalogRels *cr, Relation rel,
					 const char *table_path, int64 version,
					 const char *table_id, ItemPointer tid)
{
	TupleDesc	desc = RelationGetDescr(rel);
	KeyScan		ks;
	Snapshot	snap;
	HeapTuple	old;
	bool		isnull;
	int64		published;
	Datum	   *values;
	bool	   *nulls;
	bool	   *repl;

	if (cr->m_latest == InvalidAttrNumber || cr->m_id == InvalidAttrNumber ||
		cr->m_published == InvalidAttrNumber ||
		TupleDescAttr(desc, cr->m_latest - 1)->atttypid != INT8OID ||
		TupleDescAttr(desc, cr->m_published - 1)->atttypid != INT8OID ||
		TupleDescAttr(desc, cr->m_id - 1)->atttypid != TEXTOID)
		return NULL;
	old = locked_row_take(RelationGetRelid(rel), table_path, tid);
	if (old == NULL)
	{
		snap = scan_snapshot(false);
		keyscan_open(&ks, cr->managed, cr->managed_key, RowExclusiveLock);
		keyscan_text(&ks, 1, table_path);
		keyscan_start(&ks, snap);
		if (!keyscan_next(&ks))
			elog(ERROR, "catalog row of Delta table \"%s\" vanished", table_path);
		old = ExecCopySlotHeapTuple(ks.slot);
		*tid = ks.slot->tts_tid;
		keyscan_end(&ks);
		UnregisterSnapshot(snap);
	}
	published = DatumGetInt64(heap_getattr(old, cr->m_published, desc,
										   &isnull));
	/* managed_tables_versions */
	if (isnull || published < -1 || published > version)
		return NULL;
	values = palloc0(sizeof(Datum) * desc->natts);
	nulls = palloc0(sizeof(bool) * desc->natts);
	repl = palloc0(sizeof(bool) * desc->natts);
	values[cr->m_latest - 1] = Int64GetDatum(version);
	repl[cr->m_latest - 1] = true;
	if (table_id != NULL)
	{
		values[cr->m_id - 1] = CStringGetTextDatum(table_id);
		repl[cr->m_id - 1] = true;
	}
	return heap_modify_tuple(old, desc, values, nulls, repl);
}

/*
 * Write the rows directly (see above); false, with nothing written, when
 * the tables are not as that needs.  v/isnull: the ratified_commits
 * values in rc_names' order.
 */
static bool
insert_ratified_direct(const char *table_path, int64 version,
					   const char *table_id, const Datum *v,
					   const bool *isnull)
{
	const CatalogRels *cr = catalog_rels_full();
	Relation	rrel;
	Relation	mrel;
	CatalogIndexState rind;
	CatalogIndexState mind;
	HeapTuple	rtup = NULL;
	HeapTuple	mtup = NULL;
	ItemPointerData mtid;
	bool		ok;

	if (!OidIsValid(cr->owner) || !OidIsValid(cr->managed_key))
		return false;
	rrel = table_open(cr->ratified, RowExclusiveLock);
	mrel = table_open(cr->managed, RowExclusiveLock);
	rind = CatalogOpenIndexes(rrel);
	mind = CatalogOpenIndexes(mrel);
	ok = direct_write_ok(rrel, rind, "ratified_commits_one_source") &&
		direct_write_ok(mrel, mind, "managed_tables_versions") &&
		/* ratified_commits_one_source */
		isnull[4] != isnull[5] &&
		(rtup = direct_ratified_tuple(rrel, v, isnull)) != NULL &&
		(mtup = direct_managed_tuple(cr, mrel, table_path, version, table_id,
									 &mtid)) != NULL;
	if (ok)
	{
		CatalogTupleInsertWithInfo(rrel, rtup, rind);
		CatalogTupleUpdateWithInfo(mrel, &mtid, mtup, mind);
	}
	CatalogCloseIndexes(mind);
	CatalogCloseIndexes(rind);
	table_close(mrel, NoLock);
	table_close(rrel, NoLock);
	return ok;
}

/*
 * catalog_insert_ratified: see store.h and "The insert of a ratified
 * commit" above.
 */
void
catalog_insert_ratified(const char *table_path, int64 version,
						const char *txn_id, const TimestampTz *ict,
						const char *staged_path, const char *content,
						Size content_len, const uint8 *sha256,
						TimestampTz ratified_at, const char *table_id)
{
	CatalogSession s;
	Datum		args[9];
	char		nulls[9] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
	Datum		dv[RC_NCOLS];
	bool		dnull[RC_NCOLS];
	int			i;

	Assert((staged_path == NULL) != (content == NULL));
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
	if (table_id != NULL)
		args[8] = CStringGetTextDatum(table_id);
	else
		nulls[8] = 'n';
	/* directly (the same columns: Q_INSERT's $1 .. $8, published_at NULL) */
	for (i = 0; i < RC_NCOLS - 1; i++)
	{
		dv[i] = args[i];
		dnull[i] = nulls[i] == 'n';
	}
	dv[RC_NCOLS - 1] = (Datum) 0;
	dnull[RC_NCOLS - 1] = true;
	if (insert_ratified_direct(table_path, version, table_id, dv, dnull))
		return;
	/* the row, and the table's latest version (one statement) */
	session_begin(&s, true);
	run(Q_INSERT, args, nulls, SPI_OK_UPDATE);
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
catalog_record_published(const char *table_path, int64 from_version,
						 int64 through_version, TimestampTz at)
{
	CatalogSession s;
	Datum		args[4];

	session_begin(&s, true);
	args[0] = CStringGetTextDatum(table_path);
	args[1] = Int64GetDatum(through_version);
	args[2] = TimestampTzGetDatum(at);
	args[3] = Int64GetDatum(from_version - 1);
	run(Q_PUBLISHED_ROWS, args, NULL, SPI_OK_UPDATE);
	run(Q_PUBLISHED_TABLE, args, NULL, SPI_OK_UPDATE);
	session_end(&s);
}
