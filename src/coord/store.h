/*-------------------------------------------------------------------------
 *
 * store.h
 *	  The catalog's state in deltacc.managed_tables and
 *	  deltacc.ratified_commits: the reads (index scans of the tables' unique
 *	  indexes) and writes (statements run through SPI as the owner of those
 *	  tables; a ratified commit's rows written to the heap and indexes
 *	  directly, see store.c), and the lookup the log layer asks about every table it opens
 *	  (delta_catalog_lookup, installed by catalog_init).
 *
 * Nobody but the extension's owner has privileges on the two tables; the
 * SQL functions check their callers' roles (catalog_check_role), the
 * statements then run with the owner's user id, schema-qualified
 * throughout (operators too), so neither the caller's privileges nor the
 * caller's search_path take part, and the reads check no privilege.  The
 * reads and statements of a commit take a fresh snapshot each (outside
 * parallel mode): after the row lock of catalog_get_table(for_update) has
 * been waited for, the next read sees what the other transaction
 * committed.  catalog_get_table without the lock and catalog_list_ratified
 * without unpublished_only (what deltacc.latest_version and
 * deltacc.ratified_commits read) use the caller's statement snapshot, so
 * that both in one statement agree.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/coord/store.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_STORE_H
#define DELTACC_STORE_H

#include "common/sha2.h"
#include "datatype/timestamp.h"

#include "log/log_reader.h"

/* What a caller must hold (catalog_check_role). */
typedef enum CatalogRole
{
	CATALOG_ROLE_READ,			/* pg_read_server_files */
	CATALOG_ROLE_COMMIT,		/* + deltacc_committer */
	CATALOG_ROLE_PUBLISH		/* + pg_write_server_files */
} CatalogRole;

/* One row of deltacc.managed_tables. */
typedef struct ManagedTable
{
	char	   *table_path;
	char	   *table_id;		/* NULL while the log is empty */
	int64		latest_version;
	int64		published_version;
	TimestampTz registered_at;	/* (catalog_get_table only) */
} ManagedTable;

/* One row of deltacc.ratified_commits, as publish and the listing read it. */
typedef struct RatifiedRow
{
	int64		version;
	char	   *staged_path;	/* NULL for an inline commit */
	char	   *content;		/* inline bytes, else NULL */
	Size		content_len;
	uint8		sha256[PG_SHA256_DIGEST_LENGTH];
	bool		has_ict;
	TimestampTz in_commit_timestamp;
	TimestampTz ratified_at;
	bool		published;
	bool		mine;			/* ratified (or last changed) by the current
								 * transaction */
} RatifiedRow;

/* GUC deltacc.max_unpublished_versions and the module's _PG_init part. */
extern int	deltacc_max_unpublished_versions;
extern void catalog_init(void);

/*
 * ERROR (ERRCODE_INSUFFICIENT_PRIVILEGE) unless the current user has the
 * privileges of the roles 'role' stands for.
 */
extern void catalog_check_role(CatalogRole role);

/*
 * The table's row: false when it is not registered.  With for_update the
 * row is locked (SELECT ... FOR UPDATE) until the end of the transaction,
 * waiting for a transaction that holds it; a deadlock is PostgreSQL's
 * 40P01.  ERROR (ERRCODE_UNDEFINED_OBJECT) when the catalog tables are not
 * installed (a 1.0 extension under a newer library).  Strings palloc'd in
 * CurrentMemoryContext.
 */
extern bool catalog_get_table(const char *table_path, bool for_update,
							  ManagedTable *out);

/* ERROR (ERRCODE_UNDEFINED_OBJECT) naming table_path: not registered. */
extern void catalog_not_registered(const char *table_path) pg_attribute_noreturn();

/* Insert the row of a newly registered table; false when it exists. */
extern bool catalog_insert_table(const char *table_path, const char *table_id,
								 int64 latest_version);

/*
 * The catalog's state of the table whose row mt is (read under its lock by
 * catalog_get_table(for_update), so that it stays as it is), for
 * DeltaLogOpenWithCatalog, palloc'd in CurrentMemoryContext (its rows may
 * be kept ones, pinned for as long as that context lives); *done gets the
 * version ratified with txn_id, or -1 when there is none.  One query, in a
 * fresh snapshot (it sees what the transactions waited for committed).
 */
extern DeltaCatalogState *catalog_commit_state(const ManagedTable *mt,
											   const char *txn_id,
											   int64 *done);

/* The in-commit timestamp stored with 'version'; false when none. */
extern bool catalog_ict_of(const char *table_path, int64 version,
						   TimestampTz *ict);

/*
 * Record the ratification of 'version' (exactly one of staged_path and
 * content) and make it the table's latest version; table_id (may be
 * NULL: unchanged) becomes the table's id.  Written directly while the
 * tables are as the extension makes them, else by one statement (store.c,
 * "The insert of a ratified commit").
 */
extern void catalog_insert_ratified(const char *table_path, int64 version,
									const char *txn_id, const TimestampTz *ict,
									const char *staged_path,
									const char *content, Size content_len,
									const uint8 *sha256, TimestampTz ratified_at,
									const char *table_id);

/*
 * The ratified rows of the table with from <= version <= to (only those
 * not recorded as published when unpublished_only), ascending, and the
 * table's row (*table), from one snapshot; false (nothing set) when the
 * table is not registered.  Rows palloc'd in CurrentMemoryContext.
 */
extern bool catalog_list_ratified(const char *table_path, int64 from, int64 to,
								  bool unpublished_only, ManagedTable *table,
								  RatifiedRow **rows, int *nrows);

/*
 * Record versions from_version .. through_version (those not recorded
 * before) as published at 'at'.
 */
extern void catalog_record_published(const char *table_path,
									 int64 from_version,
									 int64 through_version, TimestampTz at);

#endif							/* DELTACC_STORE_H */
