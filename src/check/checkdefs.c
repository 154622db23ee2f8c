/*-------------------------------------------------------------------------
 *
 * checkdefs.c
 *	  The names, isolation levels, partition hints and path normal form
 *	  shared by the checker (conflict.c) and its row-level tier
 *	  (rowlevel.c).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/checkdefs.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "check/checkdefs.h"
#include "log/log_reader.h"

/*
 * conflict_check_name: the name of a check as explain_conflicts prints it.
 */
const char *
conflict_check_name(ConflictCheck check)
{
	switch (check)
	{
		case CHECK_PROTOCOL:
			return "protocol";
		case CHECK_METADATA:
			return "metadata";
		case CHECK_DOMAIN:
			return "domain_metadata";
		case CHECK_TXN:
			return "app_transaction";
		case CHECK_APPEND:
			return "added_files";
		case CHECK_DELETE_READ:
			return "delete_read";
		case CHECK_DELETE_DELETE:
			return "delete_delete";
	}
	return "unknown";
}

/*
 * conflict_decision_name: "conflict", "skipped" or "kept".
 */
const char *
conflict_decision_name(ConflictDecisionKind d)
{
	switch (d)
	{
		case DECISION_CONFLICT:
			return "conflict";
		case DECISION_SKIPPED:
			return "skipped";
		case DECISION_KEPT:
			return "kept";
	}
	return "unknown";
}

/*
 * delta_isolation_name: Delta's spelling of an isolation level.
 */
const char *
delta_isolation_name(DeltaIsolationLevel level)
{
	switch (level)
	{
		case DELTA_ISO_SERIALIZABLE:
			return "Serializable";
		case DELTA_ISO_WRITE_SERIALIZABLE:
			return "WriteSerializable";
		case DELTA_ISO_SNAPSHOT:
			return "SnapshotIsolation";
	}
	return "unknown";
}

/*
 * delta_isolation_parse: parse Delta's spelling (case-insensitive); false
 * when it is none of the three levels.
 */
bool
delta_isolation_parse(const char *s, DeltaIsolationLevel *level)
{
	if (pg_strcasecmp(s, "Serializable") == 0)
		*level = DELTA_ISO_SERIALIZABLE;
	else if (pg_strcasecmp(s, "WriteSerializable") == 0)
		*level = DELTA_ISO_WRITE_SERIALIZABLE;
	else if (pg_strcasecmp(s, "SnapshotIsolation") == 0)
		*level = DELTA_ISO_SNAPSHOT;
	else
		return false;
	return true;
}

/*
 * conflict_partition_hint: "[col=value, ...]" exactly as Delta prints it
 * (reference §2.9), or NULL for an unpartitioned table or a null/empty
 * map.  Logical names in read-snapshot order, values looked up by physical
 * name, "null" for a missing key or JSON null.
 */
char *
conflict_partition_hint(const ConflictTable *table,
						const DeltaPartitionValues *pv)
{
	StringInfoData buf;
	int			i,
				k;

	if (table->n_partition_columns == 0 || pv == NULL || pv->is_null_map ||
		pv->n == 0)
		return NULL;
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (i = 0; i < table->n_partition_columns; i++)
	{
		const char *val = NULL;

		for (k = pv->n - 1; k >= 0; k--)
		{
			if (strcmp(pv->keys[k], table->partition_physical[i]) == 0)
			{
				val = pv->values[k];
				break;
			}
		}
		appendStringInfo(&buf, "%s%s=%s", i ? ", " : "",
						 table->partition_logical[i], val ? val : "null");
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/*
 * conflict_normalize_path: see checkdefs.h (the log reader's normal form).
 */
char *
conflict_normalize_path(const ConflictTable *table, const char *path)
{
	return DeltaLogNormalizePath(table->log, path);
}

/*
 * conflict_find_first_sorted: see checkdefs.h.
 */
int
conflict_find_first_sorted(char *const *sorted, int n, const char *key)
{
	int			lo = 0,
				hi = n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (strcmp(sorted[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(sorted[lo], key) == 0 ? lo : -1;
}

/*
 * conflict_find_sorted: see checkdefs.h.
 */
int
conflict_find_sorted(char *const *sorted, int n, const char *key)
{
	int			lo = 0,
				hi = n - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = strcmp(sorted[mid], key);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}
