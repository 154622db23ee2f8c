/*-------------------------------------------------------------------------
 *
 * loser.c
 *	  Decode the loser's proposed actions and derive what Delta derives
 *	  from them: blind append (reference §2.2), the isolation level and its
 *	  downgrade (§2.3), data-change flags, row-tracking backfills.
 *
 * The actions arrive as a jsonb array of Delta action objects, exactly as
 * in a commit file.  The array is rendered back to JSON text and parsed
 * with djson (exact numbers, bounded depth), then only the fields the
 * conflict checks consult are decoded.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/loser.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/jsonb.h"

#include "djson.h"
#include "loser.h"

static void *loser_palloc(void *ctx, size_t size);
static char *dup_string_field(const DjValue *obj, const char *key,
							  const char *action, int index, bool required);
static bool bool_field(const DjValue *obj, const char *key, bool dflt,
					   const char *action, int index);
static void decode_partition_values(const DjValue *obj, DeltaPartitionValues *pv,
									const char *action, int index);
static void decode_file(const DjValue *obj, DeltaFileKind kind,
						DeltaFileAction *f, const char *action, int index);
static char **decode_string_array(const DjValue *v, int *n, const char *what,
								  int index);
static bool operation_changes_data(const char *op);

/*
 * loser_palloc: FmtAllocator callback over palloc (zeroed, no ERROR on
 * out-of-memory: djson reports it as a parse failure).
 */
static void *
loser_palloc(void *ctx, size_t size)
{
	return palloc_extended(size, MCXT_ALLOC_ZERO | MCXT_ALLOC_NO_OOM |
						   MCXT_ALLOC_HUGE);
}

static void
bad_action(const char *action, int index, const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("invalid action %d (%s) in actions", index + 1, action),
			errdetail("%s", what));
}

/*
 * dup_string_field: palloc'd copy of a string member, NULL when absent or
 * JSON null (ERROR when required); ERROR when of another type.
 */
static char *
dup_string_field(const DjValue *obj, const char *key, const char *action,
				 int index, bool required)
{
	const DjValue *v = dj_get(obj, key);

	if (v == NULL || v->type == DJ_NULL)
	{
		if (required)
			bad_action(action, index,
					   psprintf("The required field \"%s\" is missing.", key));
		return NULL;
	}
	if (v->type != DJ_STRING)
		bad_action(action, index,
				   psprintf("The field \"%s\" must be a string, not %s.", key,
							dj_type_name(v->type)));
	return pnstrdup(v->u.str, v->len);
}

/*
 * bool_field: a boolean member, 'dflt' when absent or null.
 */
static bool
bool_field(const DjValue *obj, const char *key, bool dflt, const char *action,
		   int index)
{
	const DjValue *v = dj_get(obj, key);

	if (v == NULL || v->type == DJ_NULL)
		return dflt;
	if (v->type == DJ_TRUE)
		return true;
	if (v->type == DJ_FALSE)
		return false;
	bad_action(action, index,
			   psprintf("The field \"%s\" must be a boolean, not %s.", key,
						dj_type_name(v->type)));
	return dflt;				/* not reached */
}

/*
 * decode_partition_values: the partitionValues map; string values as is,
 * numbers and booleans by their JSON text, null as NULL.
 */
static void
decode_partition_values(const DjValue *obj, DeltaPartitionValues *pv,
						const char *action, int index)
{
	const DjValue *v = dj_get(obj, "partitionValues");
	uint32		i;

	memset(pv, 0, sizeof(*pv));
	if (v == NULL || v->type == DJ_NULL)
	{
		pv->is_null_map = true;
		return;
	}
	if (v->type != DJ_OBJECT)
		bad_action(action, index, "The field \"partitionValues\" must be an object.");
	pv->n = v->len;
	pv->keys = palloc(sizeof(char *) * Max(v->len, 1));
	pv->values = palloc(sizeof(char *) * Max(v->len, 1));
	for (i = 0; i < v->len; i++)
	{
		const DjValue *e = &v->u.members[i].value;

		pv->keys[i] = pnstrdup(v->u.members[i].key, v->u.members[i].keylen);
		if (e->type == DJ_NULL)
			pv->values[i] = NULL;
		else if (e->type == DJ_STRING)
			pv->values[i] = pnstrdup(e->u.str, e->len);
		else if (e->type == DJ_NUMBER)
			pv->values[i] = pnstrdup(e->u.num, e->len);
		else if (e->type == DJ_TRUE || e->type == DJ_FALSE)
			pv->values[i] = pstrdup(e->type == DJ_TRUE ? "true" : "false");
		else
			bad_action(action, index,
					   "A partition value must be a string or null.");
	}
}

/*
 * decode_file: add / remove / cdc.  dataChange of an add without the field
 * counts as true (the field is required; assuming a data change is the
 * safe reading), of a remove defaults to true as the protocol says.
 */
static void
decode_file(const DjValue *obj, DeltaFileKind kind, DeltaFileAction *f,
			const char *action, int index)
{
	const DjValue *v;

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->version = -1;
	f->tight_bounds = -1;
	f->path = dup_string_field(obj, "path", action, index, true);
	decode_partition_values(obj, &f->pv, action, index);
	f->data_change = bool_field(obj, "dataChange", kind != DELTA_FILE_CDC,
								action, index);
	f->stats = dup_string_field(obj, "stats", action, index, false);
	v = dj_get(obj, "size");
	if (v && v->type == DJ_NUMBER)
	{
		int64_t		s;

		if (dj_to_int64(v, &s))
		{
			f->has_size = true;
			f->size = s;
		}
	}
}

/*
 * decode_string_array: an array of strings (palloc'd); *n = -1 when the
 * value is absent or null.
 */
static char **
decode_string_array(const DjValue *v, int *n, const char *what, int index)
{
	char	  **out;
	uint32		i;

	*n = -1;
	if (v == NULL || v->type == DJ_NULL)
		return NULL;
	if (v->type != DJ_ARRAY)
		bad_action(what, index, "Expected an array of strings.");
	out = palloc(sizeof(char *) * Max(v->len, 1));
	for (i = 0; i < v->len; i++)
	{
		if (v->u.items[i].type != DJ_STRING)
			bad_action(what, index, "Expected an array of strings.");
		out[i] = pnstrdup(v->u.items[i].u.str, v->u.items[i].len);
	}
	*n = (int) v->len;
	return out;
}

/*
 * loser_decode_actions: see loser.h.
 */
DeltaCommit *
loser_decode_actions(Jsonb *actions, int *n_unknown)
{
	char	   *text;
	FmtAllocator alloc;
	DjValue		root;
	DjError		err;
	DeltaCommit *c;
	uint32		i;
	int			nfiles = 0,
				ntxn = 0,
				ndom = 0;

	*n_unknown = 0;
	text = JsonbToCString(NULL, &actions->root, VARSIZE(actions));
	alloc.alloc = loser_palloc;
	alloc.ctx = NULL;
	if (!dj_parse(text, strlen(text), &alloc, DJ_DEFAULT_MAX_DEPTH, &root, &err))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("could not parse actions: %s", err.message));
	if (root.type != DJ_ARRAY)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("actions must be a JSON array of Delta action objects"),
				errdetail("Got a JSON %s.", dj_type_name(root.type)));

	c = palloc0(sizeof(DeltaCommit));
	c->version = -1;
	c->files = palloc0(sizeof(DeltaFileAction) * Max(root.len, 1));
	c->txns = palloc0(sizeof(DeltaTxn) * Max(root.len, 1));
	c->domains = palloc0(sizeof(DeltaDomain) * Max(root.len, 1));
	c->n_actions = root.len;

	for (i = 0; i < root.len; i++)
	{
		const DjValue *el = &root.u.items[i];
		const char *kind;
		const DjValue *body;

		CHECK_FOR_INTERRUPTS();
		if (el->type != DJ_OBJECT || el->len != 1)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("invalid action %u in actions", i + 1),
					errdetail("Each element must be an object with exactly one key naming the action, as in a commit file."));
		kind = el->u.members[0].key;
		body = &el->u.members[0].value;
		if (body->type != DJ_OBJECT)
			bad_action(kind, i, "The action's value must be an object.");

		if (strcmp(kind, "add") == 0)
			decode_file(body, DELTA_FILE_ADD, &c->files[nfiles++], kind, i);
		else if (strcmp(kind, "remove") == 0)
			decode_file(body, DELTA_FILE_REMOVE, &c->files[nfiles++], kind, i);
		else if (strcmp(kind, "cdc") == 0)
			decode_file(body, DELTA_FILE_CDC, &c->files[nfiles++], kind, i);
		else if (strcmp(kind, "metaData") == 0)
		{
			DeltaMetadata *md = palloc0(sizeof(DeltaMetadata));

			md->id = dup_string_field(body, "id", kind, i, false);
			md->name = dup_string_field(body, "name", kind, i, false);
			md->description = dup_string_field(body, "description", kind, i, false);
			md->schema_string = dup_string_field(body, "schemaString", kind, i, false);
			md->partition_columns =
				decode_string_array(dj_get(body, "partitionColumns"),
									&md->n_partition_columns, kind, i);
			if (md->n_partition_columns < 0)
				md->n_partition_columns = 0;
			c->metadata = md;
		}
		else if (strcmp(kind, "protocol") == 0)
		{
			DeltaProtocol *p = palloc0(sizeof(DeltaProtocol));
			const DjValue *v;
			int64_t		n;

			v = dj_get(body, "minReaderVersion");
			if (v && v->type == DJ_NUMBER && dj_to_int64(v, &n) && n >= 0 && n <= PG_INT32_MAX)
				p->min_reader_version = (int32) n;
			v = dj_get(body, "minWriterVersion");
			if (v && v->type == DJ_NUMBER && dj_to_int64(v, &n) && n >= 0 && n <= PG_INT32_MAX)
				p->min_writer_version = (int32) n;
			p->reader_features = decode_string_array(dj_get(body, "readerFeatures"),
													 &p->n_reader_features, kind, i);
			p->writer_features = decode_string_array(dj_get(body, "writerFeatures"),
													 &p->n_writer_features, kind, i);
			c->protocol = p;
		}
		else if (strcmp(kind, "commitInfo") == 0)
		{
			DeltaCommitInfo *ci = palloc0(sizeof(DeltaCommitInfo));
			const DjValue *v;

			ci->operation = dup_string_field(body, "operation", kind, i, false);
			ci->isolation_level = dup_string_field(body, "isolationLevel", kind, i, false);
			v = dj_get(body, "isBlindAppend");
			ci->is_blind_append = (v == NULL || v->type == DJ_NULL) ? -1 :
				(v->type == DJ_TRUE ? 1 : 0);
			c->commit_info = ci;
		}
		else if (strcmp(kind, "txn") == 0)
		{
			c->txns[ntxn].app_id = dup_string_field(body, "appId", kind, i, true);
			ntxn++;
		}
		else if (strcmp(kind, "domainMetadata") == 0)
		{
			c->domains[ndom].domain = dup_string_field(body, "domain", kind, i, true);
			c->domains[ndom].configuration =
				dup_string_field(body, "configuration", kind, i, false);
			c->domains[ndom].removed = bool_field(body, "removed", false, kind, i);
			ndom++;
		}
		else
			(*n_unknown)++;
	}
	c->n_files = nfiles;
	c->n_txns = ntxn;
	c->n_domains = ndom;
	return c;
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
		if (!delta_isolation_parse(isolation_param, &loser->table_level))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("invalid isolation level \"%s\"", isolation_param),
					errhint("Use Serializable, WriteSerializable or SnapshotIsolation."));
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
		loser->isolation_reason = pstrdup("SnapshotIsolation was given.");
	}
	else if (!loser->has_incompatible_actions && !loser->has_data_change &&
			 (loser->table_level == DELTA_ISO_SERIALIZABLE ||
			  (loser->table_level == DELTA_ISO_WRITE_SERIALIZABLE &&
			   !operation_changes_data(loser->operation))))
	{
		loser->isolation = DELTA_ISO_SNAPSHOT;
		loser->isolation_reason =
			psprintf("Downgraded from %s (%s) to SnapshotIsolation: the transaction changes no data.",
					 delta_isolation_name(loser->table_level), source);
	}
	else
	{
		loser->isolation = loser->table_level;
		loser->isolation_reason = psprintf("%s (%s).",
										   delta_isolation_name(loser->table_level),
										   source);
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
		items[i].norm = conflict_normalize_path(table->table_root, paths[i]);
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
				snap[k].norm = conflict_normalize_path(table->table_root,
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
