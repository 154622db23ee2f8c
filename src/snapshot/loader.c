/*-------------------------------------------------------------------------
 *
 * loader.c
 *	  deltacc.load_log: create the session's pg_temp.delta_* relations on
 *	  first use, delete the rows of the table path being loaded, and bulk
 *	  insert the decoded actions.
 *
 * Rows go in through table_multi_insert in batches (the COPY FROM path),
 * which is what makes a 100,000-file log load quickly.  When a relation
 * has something a raw heap insert would bypass (an index the user added, a
 * trigger, a rule, a constraint, row security) the loader falls back to one
 * prepared, parameterised INSERT executed per row; never to SQL strings
 * built from values.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/loader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "common/json_util.h"
#include "log/actions.h"
#include "log/fastline.h"
#include "snapshot/addline.h"
#include "snapshot/loader.h"
#include "snapshot/snapshot.h"

#define LOAD_BATCH_SIZE 1000

/* The six relations, their column types (for checking) and their DDL. */
typedef struct TempRelDef
{
	const char *name;
	int			natts;
	Oid			types[DF_NCOLS];
	const char *ddl;
} TempRelDef;

enum
{
	TR_COMMITS,
	TR_FILES,
	TR_METADATA,
	TR_PROTOCOL,
	TR_TXNS,
	TR_DOMAINS,
	TR_COUNT
};

static const TempRelDef temp_rels[TR_COUNT] = {
	{"delta_commits", 10,
		{TEXTOID, INT8OID, TIMESTAMPTZOID, TEXTOID, JSONBOID, TEXTOID, BOOLOID,
		INT8OID, TEXTOID, JSONBOID},
		"CREATE TEMPORARY TABLE pg_temp.delta_commits ("
		"table_path pg_catalog.text, version pg_catalog.int8, "
		"committed_at pg_catalog.timestamptz, operation pg_catalog.text, "
		"operation_parameters pg_catalog.jsonb, isolation_level pg_catalog.text, "
		"is_blind_append pg_catalog.bool, read_version pg_catalog.int8, "
		"engine_info pg_catalog.text, commit_info pg_catalog.jsonb)"},
	{"delta_files", DF_NCOLS,
		{TEXTOID, INT8OID, TEXTOID, TEXTOID, JSONBOID, INT8OID, TIMESTAMPTZOID,
			BOOLOID, INT8OID, BOOLOID, JSONBOID, JSONBOID, INT8OID, INT8OID,
		JSONBOID},
		"CREATE TEMPORARY TABLE pg_temp.delta_files ("
		"table_path pg_catalog.text, version pg_catalog.int8, "
		"action pg_catalog.text, path pg_catalog.text, "
		"partition_values pg_catalog.jsonb, size pg_catalog.int8, "
		"modification_time pg_catalog.timestamptz, data_change pg_catalog.bool, "
		"num_records pg_catalog.int8, tight_bounds pg_catalog.bool, "
		"stats pg_catalog.jsonb, deletion_vector pg_catalog.jsonb, "
		"base_row_id pg_catalog.int8, default_row_commit_version pg_catalog.int8, "
		"tags pg_catalog.jsonb)"},
	{"delta_metadata", 8,
		{TEXTOID, INT8OID, TEXTOID, TEXTOID, JSONBOID, TEXTARRAYOID, JSONBOID,
		TIMESTAMPTZOID},
		"CREATE TEMPORARY TABLE pg_temp.delta_metadata ("
		"table_path pg_catalog.text, version pg_catalog.int8, "
		"table_id pg_catalog.text, name pg_catalog.text, schema pg_catalog.jsonb, "
		"partition_columns pg_catalog.text[], configuration pg_catalog.jsonb, "
		"created_time pg_catalog.timestamptz)"},
	{"delta_protocol", 6,
		{TEXTOID, INT8OID, INT4OID, INT4OID, TEXTARRAYOID, TEXTARRAYOID},
		"CREATE TEMPORARY TABLE pg_temp.delta_protocol ("
		"table_path pg_catalog.text, version pg_catalog.int8, "
		"min_reader_version pg_catalog.int4, min_writer_version pg_catalog.int4, "
		"reader_features pg_catalog.text[], writer_features pg_catalog.text[])"},
	{"delta_txns", 5,
		{TEXTOID, INT8OID, TEXTOID, INT8OID, TIMESTAMPTZOID},
		"CREATE TEMPORARY TABLE pg_temp.delta_txns ("
		"table_path pg_catalog.text, version pg_catalog.int8, "
		"app_id pg_catalog.text, txn_version pg_catalog.int8, "
		"last_updated pg_catalog.timestamptz)"},
	{"delta_domains", 5,
		{TEXTOID, INT8OID, TEXTOID, TEXTOID, BOOLOID},
		"CREATE TEMPORARY TABLE pg_temp.delta_domains ("
		"table_path pg_catalog.text, version pg_catalog.int8, "
		"domain pg_catalog.text, configuration pg_catalog.text, "
		"removed pg_catalog.bool)"}
};

/* Where rows of one relation go: batched multi-insert or a prepared plan. */
typedef struct RowSink
{
	const TempRelDef *def;
	Relation	rel;
	bool		multi;
	TupleTableSlot *slots[LOAD_BATCH_SIZE];
	int			nslots;			/* slots created so far */
	int			nused;			/* slots filled in this batch */
	BulkInsertState bis;
	CommandId	cid;
	SPIPlanPtr	plan;
	int64		rows;
	MemoryContext cxt;			/* where slots live (outlives commits) */
} RowSink;

/* Milliseconds since the Unix epoch -> timestamptz (NULL if out of range). */
Datum
DeltaMsToTimestampTz(int64 ms, bool *isnull)
{
	int64		us;
	TimestampTz ts;

	*isnull = false;
	if (pg_mul_s64_overflow(ms, 1000, &us) ||
		pg_sub_s64_overflow(us, (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY, &ts) ||
		!IS_VALID_TIMESTAMP(ts))
	{
		*isnull = true;
		return (Datum) 0;
	}
	return TimestampTzGetDatum(ts);
}

/* text[] of n C strings (CurrentMemoryContext). */
Datum
DeltaTextArray(int n, char **items)
{
	Datum	   *d;
	int			i;
	ArrayType  *arr;

	if (n <= 0)
		return PointerGetDatum(construct_empty_array(TEXTOID));
	d = palloc(sizeof(Datum) * n);
	for (i = 0; i < n; i++)
		d[i] = CStringGetTextDatum(items[i]);
	arr = construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT);
	pfree(d);
	return PointerGetDatum(arr);
}

/*
 * jsonb object from parallel key/value arrays (NULL value: JSON null),
 * written directly by dc_dj_to_jsonb (keys sorted, the last of duplicate
 * keys kept, as pushJsonbValue does); palloc'd in CurrentMemoryContext.
 */
Datum
DeltaStringMapJsonb(int n, char **keys, char **values)
{
	DjMember   *m;
	DjValue		obj;
	Jsonb	   *j;
	int			i;

	if (n == 0)
	{
		/* {} (most partitionValues): a header word without entries */
		j = palloc(VARHDRSZ + sizeof(uint32));
		SET_VARSIZE(j, VARHDRSZ + sizeof(uint32));
		j->root.header = JB_FOBJECT;
#ifdef USE_ASSERT_CHECKING
		obj.type = DJ_OBJECT;
		obj.len = 0;
		obj.u.members = NULL;
		Assert(memcmp(dc_dj_to_jsonb(&obj), j, VARSIZE(j)) == 0);
#endif
		return JsonbPGetDatum(j);
	}
	m = palloc(sizeof(DjMember) * n);
	for (i = 0; i < n; i++)
	{
		m[i].key = keys[i];
		m[i].keylen = (uint32) strlen(keys[i]);
		if (values[i] == NULL)
		{
			m[i].value.type = DJ_NULL;
			m[i].value.len = 0;
			m[i].value.u.str = NULL;
		}
		else
		{
			m[i].value.type = DJ_STRING;
			m[i].value.len = (uint32) strlen(values[i]);
			m[i].value.u.str = values[i];
		}
	}
	obj.type = DJ_OBJECT;
	obj.len = (uint32) n;
	obj.u.members = m;
	j = dc_dj_to_jsonb(&obj);
	pfree(m);
	return JsonbPGetDatum(j);
}

/* jsonb of JSON text; NULL for NULL or invalid text. */
Datum
DeltaJsonTextJsonb(const char *text, bool *isnull)
{
	Jsonb	   *j;

	*isnull = true;
	if (text == NULL)
		return (Datum) 0;
	j = dc_json_text_to_jsonb(text, strlen(text));
	if (j == NULL)
		return (Datum) 0;
	*isnull = false;
	return JsonbPGetDatum(j);
}

/* The deletionVector descriptor as a jsonb object, as the log writes it. */
static Datum
dv_jsonb(const DeltaDV *dv)
{
	StringInfoData buf;
	bool		isnull;
	Datum		d;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "{\"storageType\":");
	{
		char		st[2] = {dv->storage_type, '\0'};

		dc_json_append_string(&buf, st);
	}
	appendStringInfoString(&buf, ",\"pathOrInlineDv\":");
	dc_json_append_string(&buf, dv->path_or_inline);
	if (dv->has_offset)
		appendStringInfo(&buf, ",\"offset\":%d", dv->offset);
	appendStringInfo(&buf, ",\"sizeInBytes\":%d,\"cardinality\":" INT64_FORMAT "}",
					 dv->size_in_bytes, dv->cardinality);
	d = DeltaJsonTextJsonb(buf.data, &isnull);
	pfree(buf.data);
	Assert(!isnull);
	return d;
}

/* dc_json_text_to_jsonb_ext peek: numRecords/tightBounds of the stats. */
static void
stats_fields_peek(void *arg, const DjValue *v)
{
	DeltaStatsFieldsFromJson((DeltaFileAction *) arg, v);
}

/* the only top-level members DeltaStatsFieldsFromJson reads */
static const char *const stats_peek_keys[] = {"numRecords", "tightBounds", NULL};

/* The snapshot_files columns, in order, as delta_files columns. */
static const int snapshot_src_col[DELTA_SNAPSHOT_NCOLS] = {
	DF_PATH, DF_PARTITION_VALUES, DF_SIZE, DF_MODIFICATION_TIME,
	DF_NUM_RECORDS, DF_STATS, DF_DELETION_VECTOR, DF_BASE_ROW_ID,
	DF_DEFAULT_ROW_COMMIT_VERSION
};

#define DF_BIT(c) ((uint32) 1 << (c))
#define DF_ALL (DF_BIT(DF_NCOLS) - 1)

static void file_row_values(const DeltaFileAction *fa, uint32 need,
							Datum *values, bool *nulls);

/*
 * DeltaSnapshotFileRowValues: see loader.h.
 */
void
DeltaSnapshotFileRowValues(const DeltaFileAction *fa, const bool *need,
						   Datum *values, bool *nulls)
{
	Datum		all[DF_NCOLS];
	bool		allnulls[DF_NCOLS];
	uint32		mask = 0;
	int			k;

	for (k = 0; k < DELTA_SNAPSHOT_NCOLS; k++)
		if (need == NULL || need[k])
			mask |= DF_BIT(snapshot_src_col[k]);
	/* (tags are not a column: never built) */
	file_row_values(fa, mask, all, allnulls);
	for (k = 0; k < DELTA_SNAPSHOT_NCOLS; k++)
	{
		values[k] = all[snapshot_src_col[k]];
		nulls[k] = allnulls[snapshot_src_col[k]] || (need != NULL && !need[k]);
	}
}

/*
 * DeltaPutSnapshotFileRow: see loader.h.
 */
void
DeltaPutSnapshotFileRow(ReturnSetInfo *rsinfo, const DeltaFileAction *fa)
{
	Datum		values[DELTA_SNAPSHOT_NCOLS];
	bool		nulls[DELTA_SNAPSHOT_NCOLS];

	DeltaSnapshotFileRowValues(fa, NULL, values, nulls);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * Datums of the delta_files columns for one file action (all but
 * table_path).
 */
void
DeltaFileRowValues(const DeltaFileAction *fa, Datum *values, bool *nulls)
{
	file_row_values(fa, DF_ALL, values, nulls);
}

/*
 * file_row_values: DeltaFileRowValues for the columns in need (bits
 * DF_BIT of the delta_files columns); the others are left null and cost
 * nothing.
 */
static void
file_row_values(const DeltaFileAction *fa, uint32 need, Datum *values,
				bool *nulls)
{
	static const char *const kinds[] = {"add", "remove", "cdc"};

	memset(nulls, true, sizeof(bool) * DF_NCOLS);
	values[DF_VERSION] = Int64GetDatum(fa->version);
	nulls[DF_VERSION] = false;
	if (need & DF_BIT(DF_ACTION))
	{
		values[DF_ACTION] = CStringGetTextDatum(kinds[fa->kind]);
		nulls[DF_ACTION] = false;
	}
	if (need & DF_BIT(DF_PATH))
	{
		values[DF_PATH] = CStringGetTextDatum(fa->path);
		nulls[DF_PATH] = false;
	}
	if (!fa->pv.is_null_map && (need & DF_BIT(DF_PARTITION_VALUES)))
	{
		values[DF_PARTITION_VALUES] = DeltaStringMapJsonb(fa->pv.n, fa->pv.keys,
														  fa->pv.values);
		nulls[DF_PARTITION_VALUES] = false;
	}
	if (fa->has_size)
	{
		values[DF_SIZE] = Int64GetDatum(fa->size);
		nulls[DF_SIZE] = false;
	}
	if (fa->has_modification_time && (need & DF_BIT(DF_MODIFICATION_TIME)))
		values[DF_MODIFICATION_TIME] =
			DeltaMsToTimestampTz(fa->modification_time, &nulls[DF_MODIFICATION_TIME]);
	values[DF_DATA_CHANGE] = BoolGetDatum(fa->data_change);
	nulls[DF_DATA_CHANGE] = false;
	if (fa->has_num_records)
	{
		values[DF_NUM_RECORDS] = Int64GetDatum(fa->num_records);
		nulls[DF_NUM_RECORDS] = false;
	}
	if (fa->tight_bounds >= 0)
	{
		values[DF_TIGHT_BOUNDS] = BoolGetDatum(fa->tight_bounds == 1);
		nulls[DF_TIGHT_BOUNDS] = false;
	}
	/*
	 * numRecords or tightBounds not yet known come from the stats as their
	 * jsonb's peek gives them (only when jsonb can hold the text): so the
	 * stats are made for them too
	 */
	if (fa->stats != NULL && !fa->has_num_records && fa->tight_bounds < 0 &&
		(need & (DF_BIT(DF_NUM_RECORDS) | DF_BIT(DF_TIGHT_BOUNDS))))
		need |= DF_BIT(DF_STATS);
	if (fa->stats != NULL && (need & DF_BIT(DF_STATS)))
	{
		/* one parse gives the jsonb and, if still unset, numRecords */
		bool		unset = !fa->has_num_records && fa->tight_bounds < 0;
		DeltaFileAction copy = *fa;
		Jsonb	   *j;

		if (fa->stats_escaped)
			j = dc_json_stats_escaped_to_jsonb(fa->stats, stats_peek_keys,
											   unset ? stats_fields_peek : NULL,
											   &copy);
		else
			j = dc_json_stats_to_jsonb_keys(fa->stats, strlen(fa->stats),
											stats_peek_keys,
											unset ? stats_fields_peek : NULL,
											&copy);
		if (j != NULL)
		{
			values[DF_STATS] = JsonbPGetDatum(j);
			nulls[DF_STATS] = false;
			if (unset && copy.has_num_records)
			{
				values[DF_NUM_RECORDS] = Int64GetDatum(copy.num_records);
				nulls[DF_NUM_RECORDS] = false;
			}
			if (unset && copy.tight_bounds >= 0)
			{
				values[DF_TIGHT_BOUNDS] = BoolGetDatum(copy.tight_bounds == 1);
				nulls[DF_TIGHT_BOUNDS] = false;
			}
		}
	}
	else if (fa->stats_parsed_json != NULL && (need & DF_BIT(DF_STATS)))
		values[DF_STATS] = DeltaJsonTextJsonb(fa->stats_parsed_json, &nulls[DF_STATS]);
	if (fa->dv != NULL && (need & DF_BIT(DF_DELETION_VECTOR)))
	{
		values[DF_DELETION_VECTOR] = dv_jsonb(fa->dv);
		nulls[DF_DELETION_VECTOR] = false;
	}
	if (fa->has_base_row_id)
	{
		values[DF_BASE_ROW_ID] = Int64GetDatum(fa->base_row_id);
		nulls[DF_BASE_ROW_ID] = false;
	}
	if (fa->has_default_row_commit_version)
	{
		values[DF_DEFAULT_ROW_COMMIT_VERSION] = Int64GetDatum(fa->default_row_commit_version);
		nulls[DF_DEFAULT_ROW_COMMIT_VERSION] = false;
	}
	if (fa->tags_json != NULL && (need & DF_BIT(DF_TAGS)))
		values[DF_TAGS] = DeltaJsonTextJsonb(fa->tags_json, &nulls[DF_TAGS]);
}

/* OID of pg_temp.<name>, or InvalidOid when it does not exist yet. */
static Oid
temp_rel_oid(const char *name)
{
	Oid			nsp = LookupExplicitNamespace("pg_temp", true);

	if (!OidIsValid(nsp))
		return InvalidOid;
	return get_relname_relid(name, nsp);
}

/*
 * Make sure pg_temp.<def->name> exists (creating it) and has exactly the
 * expected columns.  Must run inside SPI.
 */
static Oid
ensure_temp_rel(const TempRelDef *def)
{
	Oid			relid = temp_rel_oid(def->name);
	Relation	rel;
	TupleDesc	desc;
	int			i;
	bool		ok;

	if (!OidIsValid(relid))
	{
		if (SPI_execute(def->ddl, false, 0) != SPI_OK_UTILITY)
			elog(ERROR, "could not create pg_temp.%s", def->name);
		relid = temp_rel_oid(def->name);
		if (!OidIsValid(relid))
			elog(ERROR, "could not find pg_temp.%s after creating it", def->name);
	}
	rel = table_open(relid, AccessShareLock);
	desc = RelationGetDescr(rel);
	ok = (rel->rd_rel->relkind == RELKIND_RELATION && desc->natts == def->natts);
	for (i = 0; ok && i < def->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped || att->atttypid != def->types[i])
			ok = false;
	}
	table_close(rel, AccessShareLock);
	if (!ok)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("relation \"pg_temp.%s\" does not have the columns deltacc expects",
					   def->name),
				errhint("Drop it and call deltacc.load_log again."));
	return relid;
}

/* Open a sink on pg_temp.<def->name>.  Must run inside SPI. */
static void
sink_open(RowSink *s, const TempRelDef *def, Oid relid)
{
	AclResult	aclresult;

	memset(s, 0, sizeof(*s));
	s->def = def;
	s->cxt = CurrentMemoryContext;
	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_INSERT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLE, def->name);
	s->rel = table_open(relid, RowExclusiveLock);
	s->multi = (s->rel->rd_rel->relkind == RELKIND_RELATION &&
				!s->rel->rd_rel->relhasindex &&
				!s->rel->rd_rel->relhasrules &&
				!s->rel->rd_rel->relrowsecurity &&
				s->rel->trigdesc == NULL &&
				s->rel->rd_att->constr == NULL);
	if (s->multi)
	{
		s->bis = GetBulkInsertState();
		s->cid = GetCurrentCommandId(true);
	}
	else
	{
		StringInfoData q;
		int			i;

		initStringInfo(&q);
		appendStringInfo(&q, "INSERT INTO pg_temp.%s VALUES (", def->name);
		for (i = 0; i < def->natts; i++)
			appendStringInfo(&q, "%s$%d", i > 0 ? ", " : "", i + 1);
		appendStringInfoChar(&q, ')');
		s->plan = SPI_prepare(q.data, def->natts, (Oid *) def->types);
		if (s->plan == NULL)
			elog(ERROR, "SPI_prepare failed for pg_temp.%s: %s", def->name,
				 SPI_result_code_string(SPI_result));
		pfree(q.data);
	}
}

/* Insert the filled slots of the current batch. */
static void
sink_flush(RowSink *s)
{
	int			i;

	if (!s->multi || s->nused == 0)
		return;
	table_multi_insert(s->rel, s->slots, s->nused, s->cid, 0, s->bis);
	for (i = 0; i < s->nused; i++)
		ExecClearTuple(s->slots[i]);
	s->nused = 0;
}

/* Add one row (values copied: the caller may free them right after). */
static void
sink_put(RowSink *s, Datum *values, bool *nulls)
{
	s->rows++;
	if (s->multi)
	{
		TupleTableSlot *slot;

		if (s->nused == s->nslots)
		{
			MemoryContext old = MemoryContextSwitchTo(s->cxt);

			s->slots[s->nslots++] =
				MakeSingleTupleTableSlot(RelationGetDescr(s->rel),
										 table_slot_callbacks(s->rel));
			MemoryContextSwitchTo(old);
		}
		slot = s->slots[s->nused++];
		ExecClearTuple(slot);
		memcpy(slot->tts_values, values, sizeof(Datum) * s->def->natts);
		memcpy(slot->tts_isnull, nulls, sizeof(bool) * s->def->natts);
		ExecStoreVirtualTuple(slot);
		ExecMaterializeSlot(slot);
		if (s->nused == LOAD_BATCH_SIZE)
			sink_flush(s);
	}
	else
	{
		char		cnulls[DF_NCOLS];
		int			i;
		int			rc;

		Assert(s->def->natts <= DF_NCOLS);
		memset(cnulls, ' ', sizeof(cnulls));
		for (i = 0; i < s->def->natts; i++)
			cnulls[i] = nulls[i] ? 'n' : ' ';
		rc = SPI_execute_plan(s->plan, values, cnulls, false, 0);
		if (rc != SPI_OK_INSERT)
			elog(ERROR, "could not insert into pg_temp.%s: %s", s->def->name,
				 SPI_result_code_string(rc));
	}
}

/* Flush and close a sink. */
static void
sink_close(RowSink *s)
{
	int			i;

	sink_flush(s);
	if (s->multi)
	{
		FreeBulkInsertState(s->bis);
		table_finish_bulk_insert(s->rel, 0);
		for (i = 0; i < s->nslots; i++)
			ExecDropSingleTupleTableSlot(s->slots[i]);
	}
	else
		SPI_freeplan(s->plan);
	table_close(s->rel, NoLock);
}

/* Set values[i] to a text Datum, or null for NULL. */
static inline void
set_text(Datum *values, bool *nulls, int i, const char *s)
{
	nulls[i] = (s == NULL);
	values[i] = s ? CStringGetTextDatum(s) : (Datum) 0;
}

/*
 * Insert the delta_commits row of one commit (ci may be NULL: a commit
 * without commitInfo still gets its row).  Returns 1 if ci was loaded.
 */
static int64
load_commit_row(RowSink *sinks, Datum key, int64 version,
				const DeltaCommitInfo *ci)
{
	Datum		values[DF_NCOLS];
	bool		nulls[DF_NCOLS];
	int64		n = 0;

	memset(nulls, true, sizeof(nulls));
	values[0] = key;
	nulls[0] = false;
	values[1] = Int64GetDatum(version);
	nulls[1] = false;
	if (ci != NULL)
	{
		if (ci->has_in_commit_timestamp)
			values[2] = DeltaMsToTimestampTz(ci->in_commit_timestamp, &nulls[2]);
		else if (ci->has_timestamp)
			values[2] = DeltaMsToTimestampTz(ci->timestamp, &nulls[2]);
		set_text(values, nulls, 3, ci->operation);
		values[4] = DeltaJsonTextJsonb(DeltaCommitInfoOperationParametersJson(ci),
									   &nulls[4]);
		set_text(values, nulls, 5, ci->isolation_level);
		if (ci->is_blind_append >= 0)
		{
			values[6] = BoolGetDatum(ci->is_blind_append == 1);
			nulls[6] = false;
		}
		if (ci->has_read_version)
		{
			values[7] = Int64GetDatum(ci->read_version);
			nulls[7] = false;
		}
		set_text(values, nulls, 8, ci->engine_info);
		values[9] = DeltaJsonTextJsonb(DeltaCommitInfoJson(ci), &nulls[9]);
		n++;
	}
	sink_put(&sinks[TR_COMMITS], values, nulls);
	return n;
}

/*
 * Load the file, metaData, protocol, txn and domain actions of c (a line of
 * a commit, or checkpoint state) into the sinks; returns the actions loaded.
 */
static int64
load_actions(RowSink *sinks, Datum key, const DeltaCommit *c,
			 const DjValue *tags)
{
	Datum		values[DF_NCOLS];
	bool		nulls[DF_NCOLS];
	int64		n = 0;
	int			i;

	for (i = 0; i < c->n_files; i++)
	{
		CHECK_FOR_INTERRUPTS();
		DeltaFileRowValues(&c->files[i], values, nulls);
		if (tags != NULL)
		{
			Jsonb	   *j = dc_dj_to_jsonb_lenient(tags);

			values[DF_TAGS] = PointerGetDatum(j);
			nulls[DF_TAGS] = (j == NULL);
		}
		values[DF_TABLE_PATH] = key;
		nulls[DF_TABLE_PATH] = false;
		sink_put(&sinks[TR_FILES], values, nulls);
		n++;
	}

	if (c->metadata)
	{
		const DeltaMetadata *md = c->metadata;

		memset(nulls, false, sizeof(nulls));
		values[0] = key;
		values[1] = Int64GetDatum(c->version);
		set_text(values, nulls, 2, md->id);
		set_text(values, nulls, 3, md->name);
		values[4] = DeltaJsonTextJsonb(md->schema_string, &nulls[4]);
		values[5] = DeltaTextArray(md->n_partition_columns, md->partition_columns);
		values[6] = DeltaStringMapJsonb(md->n_configuration, md->config_keys,
										md->config_values);
		if (md->has_created_time)
			values[7] = DeltaMsToTimestampTz(md->created_time, &nulls[7]);
		else
			nulls[7] = true;
		sink_put(&sinks[TR_METADATA], values, nulls);
		n++;
	}

	if (c->protocol)
	{
		const DeltaProtocol *p = c->protocol;

		memset(nulls, false, sizeof(nulls));
		values[0] = key;
		values[1] = Int64GetDatum(c->version);
		values[2] = Int32GetDatum(p->min_reader_version);
		values[3] = Int32GetDatum(p->min_writer_version);
		if (p->n_reader_features >= 0)
			values[4] = DeltaTextArray(p->n_reader_features, p->reader_features);
		else
			nulls[4] = true;
		if (p->n_writer_features >= 0)
			values[5] = DeltaTextArray(p->n_writer_features, p->writer_features);
		else
			nulls[5] = true;
		sink_put(&sinks[TR_PROTOCOL], values, nulls);
		n++;
	}

	for (i = 0; i < c->n_txns; i++)
	{
		const DeltaTxn *t = &c->txns[i];

		memset(nulls, false, sizeof(nulls));
		values[0] = key;
		values[1] = Int64GetDatum(c->version);
		set_text(values, nulls, 2, t->app_id);
		values[3] = Int64GetDatum(t->txn_version);
		if (t->has_last_updated)
			values[4] = DeltaMsToTimestampTz(t->last_updated, &nulls[4]);
		else
			nulls[4] = true;
		sink_put(&sinks[TR_TXNS], values, nulls);
		n++;
	}

	for (i = 0; i < c->n_domains; i++)
	{
		const DeltaDomain *d = &c->domains[i];

		memset(nulls, false, sizeof(nulls));
		values[0] = key;
		values[1] = Int64GetDatum(c->version);
		set_text(values, nulls, 2, d->domain);
		set_text(values, nulls, 3, d->configuration);
		values[4] = BoolGetDatum(d->removed);
		sink_put(&sinks[TR_DOMAINS], values, nulls);
		n++;
	}
	return n;
}

/* State of loading one commit file line by line. */
typedef struct LoadLineState
{
	RowSink    *sinks;
	Datum		key;
	int64		version;
	bool		saw_commit_info;
	int64		total;
	MemoryContext line_cxt;		/* load_try_line's, reset after each line */
} LoadLineState;

static void load_file_row(LoadLineState *st, const DeltaFileAction *fa,
						  const char *tags, Size tags_len);

/*
 * DeltaLogScanCommitTry's try_line of load_log: an add line the add-line
 * decoder takes (addline.h: exactly what DeltaDecodeAction decodes, its
 * statistics matched where the line holds them when the current layout
 * takes them) goes into delta_files without a parse tree; its tags, which
 * that decoder does not keep, are made from their own bytes, as
 * load_line_cb makes them from the line's tree (the same parse of the same
 * text; absent or null: no tags).  False for any other line, which is then
 * parsed and given to load_line_cb.
 */
static bool
load_try_line(void *arg, const char *line, Size len, int64 offset,
			  int64 line_no)
{
	LoadLineState *st = (LoadLineState *) arg;
	MemoryContext old = MemoryContextSwitchTo(st->line_cxt);
	DeltaCommitBuilder b;
	DeltaFileAction fa;
	const char *tags;
	Size		tags_len;
	bool		known;
	bool		ok;

	DeltaCommitBuilderInit(&b, st->version);
	b.mode = DELTA_DECODE_ROW;
	ok = addline_decode_row_tags(&b, line, len, &fa, &known, &tags,
								 &tags_len) &&
		(known || addline_tags_span(line, len, &tags, &tags_len));
	if (ok)
		load_file_row(st, &fa, tags, tags_len);
	else
		dc_json_stats_escaped_forget();
	MemoryContextSwitchTo(old);
	MemoryContextReset(st->line_cxt);
	return ok;
}

/*
 * tags_jsonb: the jsonb of the tags value tags[0 .. len) (valid JSON, an
 * add line's) as the line's parse tree gives it (dc_dj_to_jsonb_lenient of
 * its tree; NULL when jsonb cannot hold it).  An object of at most
 * TAGS_FLAT_MAX members whose keys and values are strings without escapes
 * (or null values), as writers write tags, is made into that tree here, its
 * strings the same bytes the parser would decode them to; anything else is
 * parsed (dc_json_text_to_jsonb).
 */
#define TAGS_FLAT_MAX 16

static Jsonb *
tags_jsonb(const char *tags, Size len)
{
	const char *p = tags;
	const char *end = tags + len;
	DjMember	m[TAGS_FLAT_MAX];
	DjValue		obj;
	char	   *buf;
	char	   *o;
	uint32		n = 0;
	bool		empty;
	bool		closed = false;

	if (!fl_obj_open(&p, end, &empty))
		return dc_json_text_to_jsonb(tags, len);
	/* room for every string's bytes and a NUL each */
	o = buf = palloc(len + 1);
	while (!empty && !closed)
	{
		const char *s;
		int			sl;

		if (n == TAGS_FLAT_MAX)
			return dc_json_text_to_jsonb(tags, len);
		p = fl_skip_ws(p, end);
		if (p >= end || *p != '"' || !fl_plain_string(&p, end, &s, &sl) ||
			!fl_colon(&p, end))
			return dc_json_text_to_jsonb(tags, len);
		memcpy(o, s, sl);
		o[sl] = '\0';
		m[n].key = o;
		m[n].keylen = (uint32) sl;
		o += sl + 1;
		if (*p == '"' && fl_plain_string(&p, end, &s, &sl))
		{
			memcpy(o, s, sl);
			o[sl] = '\0';
			m[n].value.type = DJ_STRING;
			m[n].value.len = (uint32) sl;
			m[n].value.u.str = o;
			o += sl + 1;
		}
		else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
		{
			p += 4;
			m[n].value.type = DJ_NULL;
			m[n].value.len = 0;
			m[n].value.u.str = NULL;
		}
		else
			return dc_json_text_to_jsonb(tags, len);
		n++;
		if (!fl_obj_sep(&p, end, &closed))
			return dc_json_text_to_jsonb(tags, len);
	}
	if (fl_skip_ws(p, end) != end)
		return dc_json_text_to_jsonb(tags, len);
	obj.type = DJ_OBJECT;
	obj.len = n;
	obj.u.members = m;
	return dc_dj_to_jsonb_lenient(&obj);
}

/*
 * load_file_row: the delta_files row of fa, its tags the JSON text
 * tags[0 .. tags_len) (NULL or null: none).
 */
static void
load_file_row(LoadLineState *st, const DeltaFileAction *fa, const char *tags,
			  Size tags_len)
{
	Datum		values[DF_NCOLS];
	bool		nulls[DF_NCOLS];

	DeltaFileRowValues(fa, values, nulls);
	nulls[DF_TAGS] = true;
	if (tags != NULL && !(tags_len == 4 && memcmp(tags, "null", 4) == 0))
	{
		Jsonb	   *j = tags_jsonb(tags, tags_len);

		values[DF_TAGS] = PointerGetDatum(j);
		nulls[DF_TAGS] = (j == NULL);
	}
	values[DF_TABLE_PATH] = st->key;
	nulls[DF_TABLE_PATH] = false;
	sink_put(&st->sinks[TR_FILES], values, nulls);
	st->total++;
}

/*
 * DeltaLogScanActionFile callback of load_log: decode the line (stats left
 * for DeltaFileRowValues to parse once) and insert its rows.
 */
static void
load_line_cb(void *arg, const DjValue *action, int64 offset, int32 len,
			 int64 line_no)
{
	LoadLineState *st = (LoadLineState *) arg;
	DeltaCommitBuilder b;
	DeltaCommit *c;
	const DjValue *tags = NULL;

	DeltaCommitBuilderInit(&b, st->version);	/* line context */
	b.mode = DELTA_DECODE_DEFER_STATS;
	/*
	 * A line holding just one add or remove: its tags go into the jsonb
	 * column straight from the parse tree (DELTA_DECODE_ROW leaves
	 * tags_json unset), not through JSON text and a second parse.
	 */
	if (action->type == DJ_OBJECT && action->len == 1 &&
		(strcmp(action->u.members[0].key, "add") == 0 ||
		 strcmp(action->u.members[0].key, "remove") == 0) &&
		action->u.members[0].value.type == DJ_OBJECT)
	{
		tags = dj_get(&action->u.members[0].value, "tags");
		if (tags != NULL && tags->type == DJ_NULL)
			tags = NULL;
		if (tags != NULL)
			b.mode = DELTA_DECODE_ROW;
	}
	DeltaDecodeAction(&b, action);
	c = DeltaCommitBuilderFinish(&b);
	if (c->commit_info != NULL && !st->saw_commit_info)
	{
		st->saw_commit_info = true;
		st->total += load_commit_row(st->sinks, st->key, st->version,
									 c->commit_info);
	}
	st->total += load_actions(st->sinks, st->key, c,
							  c->n_files == 1 ? tags : NULL);
}

/*
 * Fill the temp relations for one table path (see loader.h).
 */
int64
DeltaLoadLog(DeltaLog *log, const char *key, int64 from_version,
			 int64 to_version)
{
	Oid			relids[TR_COUNT];
	RowSink    *sinks;
	DeltaCommit *start;
	int64		first_json;
	int64		v;
	int64		total = 0;
	int			i;
	Datum		keyd;
	MemoryContext commit_cxt;
	MemoryContext line_cxt;
	MemoryContext old;

	if (to_version < 0)
		to_version = log->latest_version;
	if (from_version < 0)
		from_version = 0;
	if (to_version > log->latest_version)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("Delta table version " INT64_FORMAT " does not exist", to_version),
				errdetail("The latest version is " INT64_FORMAT ".", log->latest_version));
	if (from_version > to_version)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("from_version " INT64_FORMAT " is after to_version " INT64_FORMAT,
					   from_version, to_version));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");

	keyd = CStringGetTextDatum(key);
	for (i = 0; i < TR_COUNT; i++)
	{
		Oid			argtypes[1] = {TEXTOID};
		Datum		args[1];
		char	   *q;
		int			rc;

		relids[i] = ensure_temp_rel(&temp_rels[i]);
		args[0] = keyd;
		q = psprintf("DELETE FROM pg_temp.%s WHERE table_path OPERATOR(pg_catalog.=) $1",
					 temp_rels[i].name);
		rc = SPI_execute_with_args(q, 1, argtypes, args, NULL, false, 0);
		if (rc != SPI_OK_DELETE)
			elog(ERROR, "could not delete from pg_temp.%s: %s", temp_rels[i].name,
				 SPI_result_code_string(rc));
		pfree(q);
	}
	CommandCounterIncrement();

	sinks = palloc0(sizeof(RowSink) * TR_COUNT);
	for (i = 0; i < TR_COUNT; i++)
		sink_open(&sinks[i], &temp_rels[i], relids[i]);

	commit_cxt = AllocSetContextCreate(CurrentMemoryContext,
									   "deltacc load_log commit context",
									   ALLOCSET_DEFAULT_SIZES);
	line_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "deltacc load_log line context",
									 ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(commit_cxt);
	start = DeltaLogStartingState(log, from_version, to_version, &first_json);
	if (start != NULL)
		total += load_actions(sinks, keyd, start, NULL);
	MemoryContextSwitchTo(old);
	MemoryContextReset(commit_cxt);

	for (v = first_json; v <= to_version; v++)
	{
		LoadLineState st;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(commit_cxt);
		st.sinks = sinks;
		st.key = keyd;
		st.version = v;
		st.saw_commit_info = false;
		st.total = 0;
		st.line_cxt = line_cxt;
		DeltaLogScanCommitTry(log, v, load_try_line, load_line_cb, &st);
		if (!st.saw_commit_info)
			load_commit_row(sinks, keyd, v, NULL);
		total += st.total;
		MemoryContextSwitchTo(old);
		MemoryContextReset(commit_cxt);
	}
	MemoryContextDelete(commit_cxt);
	MemoryContextDelete(line_cxt);

	for (i = 0; i < TR_COUNT; i++)
		sink_close(&sinks[i]);
	CommandCounterIncrement();
	SPI_finish();
	return total;
}
