/*-------------------------------------------------------------------------
 *
 * loser.c
 *	  Decode the loser's proposed actions and derive what Delta derives
 *	  from them: blind append (reference §2.2), the isolation level and its
 *	  downgrade (§2.3), data-change flags, row-tracking backfills.
 *
 * The actions arrive as a jsonb array of Delta action objects, exactly as
 * in a commit file.  The array becomes the djson tree its JSON text would
 * parse to (exact numbers, bounded depth; dc_jsonb_parse), then only the
 * fields the conflict checks consult are decoded.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/loser.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "check/loser.h"
#include "common/json_util.h"
#include "log/actions.h"

static bool operation_changes_data(const char *op);
static DeltaCommit *decode_actions(Jsonb *actions, int *n_unknown);

/*
 * The last loser decoded in this session, remembered for a check repeated
 * with the same actions: keyed by the FULL bytes of the jsonb argument
 * (equal bytes, equal value, equal decoding: the decoder reads nothing
 * else), compared with memcmp.  Everything (the key, the parse tree, the
 * decoded commit) lives in loser_memo_cxt, which is reset
 * whenever the key changes; the key is set only once a decoding has
 * succeeded, so an ERROR leaves nothing remembered.  Arguments above
 * LOSER_MEMO_MAX_BYTES are decoded as before and not remembered.
 */
#define LOSER_MEMO_MAX_BYTES (1024 * 1024)

static MemoryContext loser_memo_cxt = NULL;
static char *loser_memo_key = NULL;
static Size loser_memo_keylen = 0;
static DeltaCommit *loser_memo_commit = NULL;
static int	loser_memo_unknown = 0;

/*
 * loser_decode_actions: see loser.h.  The decoded commit is shared with
 * later calls that pass the same bytes: callers treat it as read-only and
 * must not keep it past their own call (the next call with other actions
 * frees it).
 */
const DeltaCommit *
loser_decode_actions(Jsonb *actions, int *n_unknown)
{
	Size		len = VARSIZE(actions);
	MemoryContext old;
	DeltaCommit *c;
	int			unknown;

	if (len > LOSER_MEMO_MAX_BYTES)
		return decode_actions(actions, n_unknown);
	if (loser_memo_key != NULL && loser_memo_keylen == len &&
		memcmp(loser_memo_key, actions, len) == 0)
	{
		*n_unknown = loser_memo_unknown;
		return loser_memo_commit;
	}
	if (loser_memo_cxt == NULL)
		loser_memo_cxt = AllocSetContextCreate(TopMemoryContext,
											   "deltacc loser actions",
											   ALLOCSET_DEFAULT_SIZES);
	loser_memo_key = NULL;
	loser_memo_commit = NULL;
	MemoryContextReset(loser_memo_cxt);
	old = MemoryContextSwitchTo(loser_memo_cxt);
	c = decode_actions(actions, &unknown);
	MemoryContextSwitchTo(old);
	loser_memo_key = MemoryContextAlloc(loser_memo_cxt, len);
	memcpy(loser_memo_key, actions, len);
	loser_memo_keylen = len;
	loser_memo_commit = c;
	loser_memo_unknown = unknown;
	*n_unknown = unknown;
	return c;
}

/*
 * decode_actions: the decoding itself, in CurrentMemoryContext.  The jsonb
 * becomes the djson tree its text would parse to (dc_jsonb_parse), then
 * decoded by the log reader's action decoder, so the loser's actions
 * mean exactly what they would mean in a commit file.
 */
static DeltaCommit *
decode_actions(Jsonb *actions, int *n_unknown)
{
	DjValue		root;

	root = dc_jsonb_parse(actions, "actions", ERRCODE_INVALID_PARAMETER_VALUE);
	return loser_decode_tree(&root, n_unknown);
}

/*
 * loser_decode_tree: see loser.h.
 */
DeltaCommit *
loser_decode_tree(const DjValue *root, int *n_unknown)
{
	DeltaCommit *c;

	if (root->type != DJ_ARRAY)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("actions must be a JSON array of Delta action objects"),
				errdetail("Got a JSON %s.", dj_type_name(root->type)));
	c = DeltaDecodeActionArray(root, -1);
	*n_unknown = loser_count_unknown(c);
	return c;
}

/*
 * loser_isolation_arg: see loser.h.
 */
DeltaIsolationLevel
loser_isolation_arg(const char *isolation_param)
{
	DeltaIsolationLevel level;

	if (!delta_isolation_parse(isolation_param, &level))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid isolation level \"%s\"", isolation_param),
				errhint("Use Serializable, WriteSerializable or SnapshotIsolation."));
	return level;
}

/*
 * loser_count_unknown: see loser.h.
 */
int
loser_count_unknown(const DeltaCommit *c)
{
	int			known;

	known = c->n_files + c->n_txns + c->n_domains +
		(c->metadata != NULL) + (c->protocol != NULL) +
		(c->commit_info != NULL);
	return Max(c->n_actions - known, 0);
}

/*
 * operation_changes_data: Delta's Operation.changesData, conservatively:
 * only operations known to rearrange data without changing it count as
 * not data-changing; an unknown or absent operation changes data (which
 * forbids the WriteSerializable downgrade: the stricter, safe reading).
 */
static bool
operation_changes_data(const char *op)
{
	static const char *const not_changing[] = {
		"OPTIMIZE", "ROW TRACKING BACKFILL", "ROW TRACKING UNBACKFILL",
		"REORG"
	};
	int			i;

	if (op == NULL)
		return true;
	for (i = 0; i < lengthof(not_changing); i++)
		if (strcmp(op, not_changing[i]) == 0)
			return false;
	return true;
}

/*
 * loser_derive: see loser.h.
 */
void
loser_derive(LoserTxn *loser, const ConflictTable *table, int n_reads,
			 const char *isolation_param, int n_unknown)
{
	const DeltaCommit *c = loser->commit;
	bool		only_adds = true;
	int			i;
	const char *source;

	loser->operation = c->commit_info ? c->commit_info->operation : NULL;
	loser->is_backfill = loser->operation &&
		(strcmp(loser->operation, "ROW TRACKING BACKFILL") == 0 ||
		 strcmp(loser->operation, "ROW TRACKING UNBACKFILL") == 0);

	loser->has_data_change = false;
	for (i = 0; i < c->n_files; i++)
	{
		if (c->files[i].kind != DELTA_FILE_ADD)
			only_adds = false;
		if (c->files[i].data_change)
			loser->has_data_change = true;
	}

	/* §2.2: only AddFiles and no read predicates and no read files */
	loser->is_blind_append = only_adds && n_reads == 0 &&
		!loser->read_whole_table && loser->n_read_files == 0;

	/* §2.3: actions other than file actions and the rowTracking domain */
	loser->has_incompatible_actions = n_unknown > 0 || c->metadata != NULL ||
		c->protocol != NULL || c->n_txns > 0;
	for (i = 0; i < c->n_domains; i++)
		if (strcmp(c->domains[i].domain, "delta.rowTracking") != 0)
			loser->has_incompatible_actions = true;

	/* the table's level */
	if (isolation_param != NULL)
	{
		loser->table_level = loser_isolation_arg(isolation_param);
		source = "given";
	}
	else
	{
		bool		found = false;
		const char *v = NULL;

		if (table->metadata)
		{
			for (i = table->metadata->n_configuration - 1; i >= 0; i--)
				if (strcmp(table->metadata->config_keys[i], "delta.isolationLevel") == 0)
				{
					found = true;
					v = table->metadata->config_values[i];
					break;
				}
		}
		if (found && v && delta_isolation_parse(v, &loser->table_level))
			source = "the table's delta.isolationLevel";
		else
		{
			loser->table_level = DELTA_ISO_SERIALIZABLE;
			source = found ? "the strictest level, the table's delta.isolationLevel being unknown" : "Delta's default";
		}
	}

	if (isolation_param != NULL && loser->table_level == DELTA_ISO_SNAPSHOT)
	{
		loser->isolation = DELTA_ISO_SNAPSHOT;
		loser->isolation_reason = pstrdup("given");
	}
	else if (!loser->has_incompatible_actions && !loser->has_data_change &&
			 (loser->table_level == DELTA_ISO_SERIALIZABLE ||
			  (loser->table_level == DELTA_ISO_WRITE_SERIALIZABLE &&
			   !operation_changes_data(loser->operation))))
	{
		loser->isolation = DELTA_ISO_SNAPSHOT;
		loser->isolation_reason =
			psprintf("downgraded from %s, %s, because it changes no data",
					 delta_isolation_name(loser->table_level), source);
	}
	else
	{
		loser->isolation = loser->table_level;
		loser->isolation_reason = pstrdup(source);
	}
}

typedef struct ReadFileItem
{
	char	   *norm;
	const DeltaFileAction *action;
} ReadFileItem;

static int
cmp_read_file_item(const void *a, const void *b)
{
	return strcmp(((const ReadFileItem *) a)->norm,
				  ((const ReadFileItem *) b)->norm);
}

/*
 * loser_set_read_files: see loser.h.  Duplicates are kept (harmless for
 * the binary search).
 */
void
loser_set_read_files(LoserTxn *loser, const ConflictTable *table, int n,
					 char **paths, const DeltaFileAction **actions)
{
	ReadFileItem *items;
	ReadFileItem *snap = NULL;
	int			nsnap = 0;
	int			i;

	items = palloc_extended(sizeof(ReadFileItem) * Max(n, 1), MCXT_ALLOC_HUGE);
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		items[i].norm = conflict_normalize_path(table, paths[i]);
		items[i].action = actions ? actions[i] : NULL;
		if (items[i].action == NULL && snap == NULL && table->n_files > 0)
		{
			int			k;

			/* index the read snapshot once, to find the AddFiles */
			snap = palloc_extended(sizeof(ReadFileItem) * table->n_files,
								   MCXT_ALLOC_HUGE);
			for (k = 0; k < table->n_files; k++)
			{
				CHECK_FOR_INTERRUPTS();
				snap[k].norm = conflict_normalize_path(table,
													   table->files[k].path);
				snap[k].action = &table->files[k];
			}
			nsnap = table->n_files;
			qsort(snap, nsnap, sizeof(ReadFileItem), cmp_read_file_item);
		}
		if (items[i].action == NULL && snap != NULL)
		{
			ReadFileItem *hit = bsearch(&items[i], snap, nsnap,
										sizeof(ReadFileItem),
										cmp_read_file_item);

			if (hit)
				items[i].action = hit->action;
		}
	}
	qsort(items, n, sizeof(ReadFileItem), cmp_read_file_item);
	loser->n_read_files = n;
	loser->read_file_norm = palloc_extended(sizeof(char *) * Max(n, 1), MCXT_ALLOC_HUGE);
	loser->read_file_action = palloc_extended(sizeof(DeltaFileAction *) * Max(n, 1),
											  MCXT_ALLOC_HUGE);
	for (i = 0; i < n; i++)
	{
		loser->read_file_norm[i] = items[i].norm;
		loser->read_file_action[i] = items[i].action;
	}
}
