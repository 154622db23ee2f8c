/*-------------------------------------------------------------------------
 *
 * checkpoint.c
 *	  Reading Delta checkpoints into a DeltaCommit (from_checkpoint = true).
 *
 * A Parquet checkpoint row is rendered as the JSON action object it stands
 * for ({"add": {...}}, {"metaData": {...}}, ...) and decoded by the same
 * code as a JSON commit line (actions.c), so both paths apply the same
 * validation.  Only the columns that make up a snapshot are projected
 * (remove tombstones are not needed).  add.stats_parsed is rendered to
 * JSON text into stats_parsed_json when add.stats is absent.
 *
 * Which checkpoint: the newest one in the _delta_log listing at or before
 * the requested version that is complete (a multi-part checkpoint needs
 * all its parts).  _last_checkpoint is only a hint, and the listing is
 * always available, so it is not needed.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/checkpoint.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "datatype/timestamp.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/datetime.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "common/fileio.h"
#include "common/json_util.h"
#include "common/subxact.h"
#include "format/djson_scan.h"
#include "format/parquet.h"
#include "log/actions.h"
#include "rows/data_reader.h"
#include "snapshot/checkpoint.h"
#include "storage/objstore.h"

/* Top-level checkpoint columns that make up a snapshot. */
static const char *const ckpt_columns[] = {
	"add", "metaData", "protocol", "txn", "domainMetadata",
	"checkpointMetadata", "sidecar"
};

/*
 * The same for a keys-only read (DELTA_DECODE_KEYS, the first pass of a
 * lazy snapshot): the add fields that mode decodes, without the statistics
 * and tags (the bulk of a checkpoint), which it does not keep.  Those are
 * read with the rest of the row when the file is output (the checkpoint
 * cursor reads every column), so a live file's statistics and tags are
 * checked exactly as before; a file removed by a later commit is never
 * output, and its statistics and tags are no longer inspected at all.
 */
static const char *const ckpt_key_columns[] = {
	"add.path", "add.partitionValues", "add.size", "add.modificationTime",
	"add.dataChange", "add.deletionVector", "add.baseRowId",
	"add.defaultRowCommitVersion",
	"metaData", "protocol", "txn", "domainMetadata",
	"checkpointMetadata", "sidecar"
};

/*
 * Raise ERRCODE_DATA_CORRUPTED for a Parquet reader failure (the error
 * context names the file).
 */
static void
ckpt_pq_error(const PqError *err)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("invalid Parquet checkpoint file"),
			errdetail("The Parquet reader reported: %s.",
					  err->message[0] ? err->message : "unknown error"));
}

/*
 * Whether a Parquet string value is valid UTF-8 without NUL bytes.  Plain
 * ASCII without NUL (nearly every path and statistics string) is checked
 * here a word at a time; anything else by pg_verify_mbstr.  Allocates
 * nothing.
 */
static inline bool
pq_string_ok(const PqValue *v)
{
	const unsigned char *p = v->u.bytes;
	size_t		n = v->len;
	size_t		i = 0;
	bool		ascii = true;

	for (; ascii && i + 8 <= n; i += 8)
	{
		uint64_t	x = dj_load8(p + i);

		ascii = ((x & DJ_HIGHS) | dj_has_byte(x, 0)) == 0;
	}
	for (; ascii && i < n; i++)
		ascii = p[i] != 0 && p[i] < 0x80;
	if (ascii)
		return true;
	return pg_verify_mbstr(PG_UTF8, (const char *) p, (int) n, true);
}

/*
 * Check that a Parquet string value is valid UTF-8 without NUL bytes
 * (ERRCODE_DATA_CORRUPTED otherwise).  Allocates nothing.
 */
static void
check_pq_string(const PqValue *v)
{
	if (!pq_string_ok(v))
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("invalid UTF-8 string in checkpoint column \"%s\"",
					   v->node ? v->node->name : "?"));
}

/*
 * Check that a map key is a string (ERRCODE_DATA_CORRUPTED otherwise); its
 * bytes are checked by the caller.  Allocates nothing.
 */
static void
check_map_key(const PqValue *k)
{
	if (k->kind != PQV_STRING)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("checkpoint map key of type %s is not a string",
					   pq_value_kind_name(k->kind)));
}

/*
 * Append a Parquet string value as a JSON string, after checking it
 * (check_pq_string).  Allocates only by growing buf.
 */
static void
append_pq_string(StringInfo buf, const PqValue *v)
{
	check_pq_string(v);
	dc_json_append_string_len(buf, (const char *) v->u.bytes, v->len);
}

/*
 * Value kinds append_pq_value renders without any check (all the kinds up
 * to PQV_TIMESTAMP but strings, see PqValueKind).
 */
#define PQ_KIND_UNCHECKED(k) ((k) <= PQV_TIMESTAMP && (k) != PQV_STRING)

/*
 * Whether append_pq_value would render v without an error.  With 'raise',
 * raise that error instead of returning false.  Allocates nothing.
 */
static bool
pq_value_ok(const PqValue *v, bool raise)
{
	uint32		i;

	check_stack_depth();
	switch (v->kind)
	{
		case PQV_NULL:
		case PQV_BYTES:
		case PQV_BOOL:
		case PQV_INT32:
		case PQV_INT64:
		case PQV_FLOAT:
		case PQV_DOUBLE:
		case PQV_DECIMAL:
		case PQV_DATE:
		case PQV_TIMESTAMP:
			return true;
		case PQV_STRING:
			if (pq_string_ok(v))
				return true;
			if (raise)
				check_pq_string(v); /* raises */
			return false;
		case PQV_STRUCT:
		case PQV_LIST:
			/* items of the unchecked kinds (nulls too) are skipped inline */
			for (i = 0; i < v->len; i++)
				if (!PQ_KIND_UNCHECKED(v->u.items[i].kind) &&
					!pq_value_ok(&v->u.items[i], raise))
					return false;
			return true;
		case PQV_MAP:
			for (i = 0; i < v->len; i++)
			{
				const PqValue *k = &v->u.map.keys[i];

				if (raise)
					check_map_key(k);
				if (k->kind != PQV_STRING || !pq_value_ok(k, raise) ||
					!pq_value_ok(&v->u.map.values[i], raise))
					return false;
			}
			return true;
		default:
			if (raise)
				ereport(ERROR,
						errcode(ERRCODE_DATA_CORRUPTED),
						errmsg("unexpected Parquet value kind %d in checkpoint",
							   (int) v->kind));
			return false;
	}
}

/*
 * Raise the errors append_pq_value would raise for v, without rendering it
 * (for values a row's JSON leaves out but that were always checked).
 */
static void
check_pq_value(const PqValue *v)
{
	(void) pq_value_ok(v, true);
}

/*
 * Append a timestamp value as ISO-8601 text ("Z" suffix when adjusted to
 * UTC), microsecond precision.  Out-of-range values become null.
 */
static void
append_pq_timestamp(StringInfo buf, const PqValue *v)
{
	int64		us = v->u.i64;
	int64		days;
	int64		rem;
	int			y,
				m,
				d;

	if (v->ts_unit == PQ_MILLIS)
	{
		if (us > PG_INT64_MAX / 1000 || us < PG_INT64_MIN / 1000)
		{
			appendStringInfoString(buf, "null");
			return;
		}
		us *= 1000;
	}
	else if (v->ts_unit == PQ_NANOS)
		us = (us >= 0 ? us / 1000 : -((-(us + 1)) / 1000) - 1);
	days = us / USECS_PER_DAY;
	rem = us % USECS_PER_DAY;
	if (rem < 0)
	{
		rem += USECS_PER_DAY;
		days--;
	}
	if (days > 2000000 || days < -2000000)
	{
		appendStringInfoString(buf, "null");
		return;
	}
	j2date((int) (days + UNIX_EPOCH_JDATE), &y, &m, &d);
	appendStringInfo(buf, "\"%04d-%02d-%02dT%02d:%02d:%02d.%06d%s\"",
					 y, m, d,
					 (int) (rem / USECS_PER_HOUR),
					 (int) ((rem / USECS_PER_MINUTE) % 60),
					 (int) ((rem / USECS_PER_SEC) % 60),
					 (int) (rem % USECS_PER_SEC),
					 v->ts_utc ? "Z" : "");
}

/*
 * Append an object member's name (as a JSON string) and ':' to buf, after
 * a ',' unless *first, which is then cleared; the caller appends the value.
 * Allocates only by growing buf.
 */
static void
append_member_key(StringInfo buf, bool *first, const char *name)
{
	if (!*first)
		appendStringInfoChar(buf, ',');
	*first = false;
	dc_json_append_string(buf, name);
	appendStringInfoChar(buf, ':');
}

/*
 * Append the JSON rendering of a Parquet value.  Struct fields that are
 * null are left out; in an "add" struct stats_parsed and
 * partitionValues_parsed are left out (handled separately or not needed).
 * Bytes and non-finite floats become null.  Recursion is bounded by the
 * schema depth (PqLimits.max_depth).
 */
static void
append_pq_value(StringInfo buf, const PqValue *v, bool is_add)
{
	uint32		i;
	bool		first = true;

	check_stack_depth();
	switch (v->kind)
	{
		case PQV_NULL:
		case PQV_BYTES:
			appendStringInfoString(buf, "null");
			break;
		case PQV_BOOL:
			appendStringInfoString(buf, v->u.b ? "true" : "false");
			break;
		case PQV_INT32:
			appendStringInfo(buf, "%d", (int) v->u.i32);
			break;
		case PQV_INT64:
			appendStringInfo(buf, INT64_FORMAT, (int64) v->u.i64);
			break;
		case PQV_FLOAT:
		case PQV_DOUBLE:
			{
				double		d = v->kind == PQV_FLOAT ? (double) v->u.f : v->u.d;

				if (isfinite(d))
					appendStringInfo(buf, "%.17g", d);
				else
					appendStringInfoString(buf, "null");
				break;
			}
		case PQV_STRING:
			append_pq_string(buf, v);
			break;
		case PQV_DECIMAL:
			appendStringInfoString(buf, v->u.text);
			break;
		case PQV_DATE:
			{
				int			y,
							m,
							d;

				if (v->u.i32 > 2000000 || v->u.i32 < -2000000)
				{
					appendStringInfoString(buf, "null");
					break;
				}
				j2date(v->u.i32 + UNIX_EPOCH_JDATE, &y, &m, &d);
				appendStringInfo(buf, "\"%04d-%02d-%02d\"", y, m, d);
				break;
			}
		case PQV_TIMESTAMP:
			append_pq_timestamp(buf, v);
			break;
		case PQV_STRUCT:
			appendStringInfoChar(buf, '{');
			for (i = 0; i < v->len; i++)
			{
				const PqValue *it = &v->u.items[i];
				const char *name = it->node ? it->node->name : "";

				if (it->kind == PQV_NULL)
					continue;
				if (is_add && (strcmp(name, "stats_parsed") == 0 ||
							   strcmp(name, "partitionValues_parsed") == 0))
					continue;
				append_member_key(buf, &first, name);
				append_pq_value(buf, it, false);
			}
			appendStringInfoChar(buf, '}');
			break;
		case PQV_LIST:
			appendStringInfoChar(buf, '[');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					appendStringInfoChar(buf, ',');
				append_pq_value(buf, &v->u.items[i], false);
			}
			appendStringInfoChar(buf, ']');
			break;
		case PQV_MAP:
			appendStringInfoChar(buf, '{');
			for (i = 0; i < v->len; i++)
			{
				const PqValue *k = &v->u.map.keys[i];

				check_map_key(k);
				if (i > 0)
					appendStringInfoChar(buf, ',');
				append_pq_string(buf, k);
				appendStringInfoChar(buf, ':');
				append_pq_value(buf, &v->u.map.values[i], false);
			}
			appendStringInfoChar(buf, '}');
			break;
		default:
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("unexpected Parquet value kind %d in checkpoint",
						   (int) v->kind));
	}
}

/*
 * Render a row as its JSON action object.  The "add" struct (when add is
 * not NULL) is rendered without stats_parsed and partitionValues_parsed
 * (only checked: they are handled separately or not needed) and, when its
 * one "stats" field is a string, without it: *stats_out then points to that
 * value (checked to be UTF-8) for the caller to set directly, which saves
 * escaping and parsing the statistics as JSON.  Otherwise *stats_out is
 * NULL.
 */
static void
append_row(StringInfo buf, const PqValue *row, const PqValue *add,
		   const PqValue **stats_out)
{
	uint32		i;
	uint32		j;
	bool		first = true;
	int			n_stats = 0;

	*stats_out = NULL;
	appendStringInfoChar(buf, '{');
	for (i = 0; i < row->len; i++)
	{
		const PqValue *it = &row->u.items[i];

		if (it->kind == PQV_NULL)
			continue;
		append_member_key(buf, &first, it->node ? it->node->name : "");
		if (it != add)
		{
			append_pq_value(buf, it, false);
			continue;
		}
		for (j = 0; j < it->len; j++)
			if (it->u.items[j].node &&
				strcmp(it->u.items[j].node->name, "stats") == 0)
				n_stats++;
		appendStringInfoChar(buf, '{');
		first = true;
		for (j = 0; j < it->len; j++)
		{
			const PqValue *f = &it->u.items[j];
			const char *name = f->node ? f->node->name : "";

			if (f->kind == PQV_NULL)
				continue;
			if (strcmp(name, "stats_parsed") == 0 ||
				strcmp(name, "partitionValues_parsed") == 0)
			{
				check_pq_value(f);
				continue;
			}
			if (n_stats == 1 && f->kind == PQV_STRING &&
				strcmp(name, "stats") == 0)
			{
				check_pq_string(f);
				*stats_out = f;
				continue;
			}
			append_member_key(buf, &first, name);
			append_pq_value(buf, f, false);
		}
		appendStringInfoChar(buf, '}');
		first = false;
	}
	appendStringInfoChar(buf, '}');
}

/*
 * True when a checkpoint row holds an add struct (the rows that become file
 * actions; anything else in an add column is an error when decoded).
 */
static const PqValue *
row_add_struct(const PqValue *row)
{
	const PqValue *add = pq_struct_get(row, "add");

	return (add != NULL && add->kind == PQV_STRUCT) ? add : NULL;
}

/*
 * numRecords and tightBounds of a file whose statistics come from
 * add.stats_parsed (a struct, no JSON text): the same fields the JSON path
 * takes from add.stats (DeltaStatsFieldsFromJson).  A negative or
 * wrongly-typed numRecords is left unset, as there.
 */
static void
stats_parsed_fields(DeltaFileAction *fa, const PqValue *sp)
{
	const PqValue *f;

	f = pq_struct_get(sp, "numRecords");
	if (f != NULL && (f->kind == PQV_INT64 || f->kind == PQV_INT32))
	{
		int64		n = f->kind == PQV_INT64 ? f->u.i64 : f->u.i32;

		if (n >= 0)
		{
			fa->has_num_records = true;
			fa->num_records = n;
		}
	}
	f = pq_struct_get(sp, "tightBounds");
	if (f != NULL && f->kind == PQV_BOOL)
		fa->tight_bounds = f->u.b ? 1 : 0;
}

/*
 * Put the statistics of add struct 'add' that has no "stats" string into
 * fa (the file just decoded from it): add.stats_parsed, when it is a
 * struct, rendered as JSON text into fa->stats_parsed_json (b's context),
 * with numRecords / tightBounds.  The rendering is built in row_cxt.
 */
static void
set_stats_parsed(DeltaCommitBuilder *b, DeltaFileAction *fa,
				 const PqValue *add, MemoryContext row_cxt)
{
	const PqValue *sp = pq_struct_get(add, "stats_parsed");
	StringInfoData buf;
	MemoryContext old;

	if (sp == NULL || sp->kind != PQV_STRUCT)
		return;
	old = MemoryContextSwitchTo(row_cxt);
	initStringInfo(&buf);
	append_pq_value(&buf, sp, false);
	MemoryContextSwitchTo(old);
	fa->stats_parsed_json = MemoryContextStrdup(b->cxt, buf.data);
	stats_parsed_fields(fa, sp);
}

/*
 * Decode one checkpoint row the general way: render it as its JSON action
 * object in row_cxt, parse that into arena (both scratch for the caller to
 * reset) and decode it with DeltaDecodeAction.  add is row_add_struct(row).
 */
static void
decode_rendered_row(DeltaCommitBuilder *b, const PqValue *row,
					const PqValue *add, MemoryContext row_cxt, DcArena *arena)
{
	const PqValue *stats;
	int			n_before;
	DjValue		action;
	StringInfoData buf;
	MemoryContext old;

	old = MemoryContextSwitchTo(row_cxt);
	initStringInfo(&buf);
	append_row(&buf, row, add, &stats);
	action = dc_json_parse_arena(arena, buf.data, buf.len, "checkpoint row",
								 ERRCODE_DATA_CORRUPTED);
	MemoryContextSwitchTo(old);

	n_before = b->n_files;
	DeltaDecodeAction(b, &action);
	if (b->mode == DELTA_DECODE_KEYS || b->n_files == n_before)
		return;
	if (stats != NULL)
		DeltaFileSetStats(b, &b->files[b->n_files - 1],
						  (const char *) stats->u.bytes, stats->len);
	if (add != NULL && b->files[b->n_files - 1].stats == NULL)
		set_stats_parsed(b, &b->files[b->n_files - 1], add, row_cxt);
}

/*
 * The direct decoder of add rows (decode_add_direct) works from the
 * Parquet values of the add struct.  AddShape caches, per file, which of
 * the fields decode_file reads each child of the add struct is (matched by
 * schema node, so rows cost no name comparisons); it is reset whenever a
 * file is opened.
 */
typedef enum AddField
{
	AF_PATH,
	AF_PARTITION_VALUES,
	AF_SIZE,
	AF_MODIFICATION_TIME,
	AF_DATA_CHANGE,
	AF_STATS,
	AF_TAGS,
	AF_DELETION_VECTOR,
	AF_BASE_ROW_ID,
	AF_DEFAULT_ROW_COMMIT_VERSION,
	AF_STATS_PARSED,
	AF_PARTITION_VALUES_PARSED,
	AF_N
} AddField;

static const char *const add_field_names[AF_N] = {
	"path", "partitionValues", "size", "modificationTime", "dataChange",
	"stats", "tags", "deletionVector", "baseRowId",
	"defaultRowCommitVersion", "stats_parsed", "partitionValues_parsed"
};

#define ADD_SHAPE_MAX 32

typedef struct AddShape
{
	uint32		n;				/* children cached (0: nothing yet) */
	bool		usable;			/* no known name twice */
	const PqSchemaNode *nodes[ADD_SHAPE_MAX];
	int8		field[ADD_SHAPE_MAX];	/* AddField, -1 for other children */
} AddShape;

/*
 * Whether shape describes the children of add, (re)building it when they
 * come from other schema nodes.  False (decode the row the general way)
 * for more children than the cache holds or a known name seen twice.
 */
static bool
add_shape_match(AddShape *shape, const PqValue *add)
{
	uint32		i;
	int			k;
	bool		seen[AF_N];

	if (add->len == 0 || add->len > ADD_SHAPE_MAX)
		return false;
	if (shape->n == add->len)
	{
		for (i = 0; i < add->len; i++)
			if (add->u.items[i].node != shape->nodes[i])
				break;
		if (i == add->len)
			return shape->usable;
	}
	memset(seen, 0, sizeof(seen));
	shape->n = add->len;
	shape->usable = true;
	for (i = 0; i < add->len; i++)
	{
		const PqSchemaNode *node = add->u.items[i].node;

		shape->nodes[i] = node;
		shape->field[i] = -1;
		if (node == NULL)
			continue;
		for (k = 0; k < AF_N; k++)
			if (strcmp(node->name, add_field_names[k]) == 0)
			{
				if (seen[k])
					shape->usable = false;
				seen[k] = true;
				shape->field[i] = (int8) k;
				break;
			}
	}
	return shape->usable;
}

/*
 * An integer Parquet value (INT32 or INT64) into *out: false for any other
 * kind, NULL included.
 */
static inline bool
pq_int_value(const PqValue *v, int64 *out)
{
	if (v == NULL)
		return false;
	if (v->kind == PQV_INT64)
		*out = (int64) v->u.i64;
	else if (v->kind == PQV_INT32)
		*out = (int64) v->u.i32;
	else
		return false;
	return true;
}

/*
 * Whether a child the direct decoder does not read is a plain value whose
 * rendering the general path would accept without an error (it ignores it
 * too).  Nested values are left to the general path.
 */
static inline bool
plain_ignored_value(const PqValue *v)
{
	switch (v->kind)
	{
		case PQV_NULL:
		case PQV_BOOL:
		case PQV_INT32:
		case PQV_INT64:
			return true;
		case PQV_STRING:
			return pq_string_ok(v);
		default:
			return false;
	}
}

/* A non-null string that is valid UTF-8 without NUL bytes. */
static inline bool
good_string(const PqValue *v)
{
	return v != NULL && v->kind == PQV_STRING && pq_string_ok(v);
}

/*
 * Decode a checkpoint deletionVector struct into a new DeltaDV in b's
 * memory, as decode_dv does from its JSON.  NULL (nothing allocated) when
 * it is not of the plain shape, or decode_dv would raise an error.
 */
static DeltaDV *
direct_dv(DeltaCommitBuilder *b, const PqValue *v)
{
	const PqValue *st = NULL;
	const PqValue *path = NULL;
	const PqValue *offset = NULL;
	const PqValue *size = NULL;
	const PqValue *card = NULL;
	int64		off = 0;
	int64		sz;
	int64		n;
	uint32		i;
	DeltaDV    *dv;

	if (v->kind != PQV_STRUCT)
		return NULL;
	for (i = 0; i < v->len; i++)
	{
		const PqValue *it = &v->u.items[i];
		const char *name = it->node ? it->node->name : "";
		const PqValue **slot;

		if (it->kind == PQV_NULL)
			continue;
		if (strcmp(name, "storageType") == 0)
			slot = &st;
		else if (strcmp(name, "pathOrInlineDv") == 0)
			slot = &path;
		else if (strcmp(name, "offset") == 0)
			slot = &offset;
		else if (strcmp(name, "sizeInBytes") == 0)
			slot = &size;
		else if (strcmp(name, "cardinality") == 0)
			slot = &card;
		else if (plain_ignored_value(it))
			continue;
		else
			return NULL;
		if (*slot != NULL)
			return NULL;		/* a name twice */
		*slot = it;
	}
	if (!good_string(st) || st->len != 1 || !good_string(path))
		return NULL;
	if (offset != NULL &&
		(offset->kind != PQV_INT32 || offset->u.i32 < 0))
		return NULL;
	if (size == NULL || size->kind != PQV_INT32 || size->u.i32 < 0)
		return NULL;
	if (!pq_int_value(card, &n) || n < 0)
		return NULL;
	sz = size->u.i32;
	if (offset != NULL)
		off = offset->u.i32;

	dv = MemoryContextAllocZero(b->cxt, sizeof(DeltaDV));
	dv->storage_type = (char) st->u.bytes[0];
	dv->path_or_inline = DeltaArenaStrndup(&b->strings,
										   (const char *) path->u.bytes,
										   path->len);
	dv->has_offset = (offset != NULL);
	dv->offset = (int32) off;
	dv->size_in_bytes = (int32) sz;
	dv->cardinality = n;
	DeltaDVSetUniqueId(b, dv);
	return dv;
}

/*
 * Decode a row whose only non-null column is the add struct 'add' straight
 * from its Parquet values into b, exactly as DeltaDecodeAction decodes the
 * row's JSON rendering (decode_rendered_row), in b->mode.  Returns false,
 * with b unchanged, when the row is not of the shape handled here: any
 * other non-null column, a field of an unexpected Parquet kind, a nested
 * field decode_file does not read, tags the mode keeps, or anything
 * decode_file or the rendering would raise an error for; the caller then
 * decodes it the general way, which raises the errors.
 */
static bool
decode_add_direct(DeltaCommitBuilder *b, const PqValue *row,
				  const PqValue *add, AddShape *shape, MemoryContext row_cxt)
{
	const PqValue *fv[AF_N];
	const PqValue *pv;
	const PqValue *f;
	DeltaFileAction *fa;
	DeltaDV    *dv = NULL;
	int64		size;
	int64		mtime;
	int64		base_row_id = 0;
	int64		drcv = 0;
	uint32		i;

	for (i = 0; i < row->len; i++)
		if (row->u.items[i].kind != PQV_NULL && &row->u.items[i] != add)
			return false;
	if (!add_shape_match(shape, add))
		return false;
	memset(fv, 0, sizeof(fv));
	for (i = 0; i < add->len; i++)
	{
		const PqValue *it = &add->u.items[i];

		if (it->kind == PQV_NULL)
			continue;
		if (shape->field[i] >= 0)
			fv[shape->field[i]] = it;
		else if (!plain_ignored_value(it))
			return false;
	}

	/* everything decode_file and the rendering check, before any allocation */
	f = fv[AF_PATH];
	if (!good_string(f) || f->len == 0)
		return false;
	pv = fv[AF_PARTITION_VALUES];
	if (pv == NULL || pv->kind != PQV_MAP)
		return false;
	for (i = 0; i < pv->len; i++)
	{
		const PqValue *val = &pv->u.map.values[i];

		if (!good_string(&pv->u.map.keys[i]))
			return false;
		if (val->kind != PQV_NULL && !good_string(val))
			return false;
	}
	if (!pq_int_value(fv[AF_SIZE], &size) || size < 0)
		return false;
	if (!pq_int_value(fv[AF_MODIFICATION_TIME], &mtime))
		return false;
	f = fv[AF_DATA_CHANGE];
	if (f == NULL || f->kind != PQV_BOOL)
		return false;
	if (fv[AF_STATS] != NULL && !good_string(fv[AF_STATS]))
		return false;
	if (fv[AF_TAGS] != NULL &&
		((b->mode != DELTA_DECODE_KEYS && b->mode != DELTA_DECODE_ROW) ||
		 fv[AF_TAGS]->kind != PQV_MAP || !pq_value_ok(fv[AF_TAGS], false)))
		return false;
	if (fv[AF_BASE_ROW_ID] != NULL &&
		!pq_int_value(fv[AF_BASE_ROW_ID], &base_row_id))
		return false;
	if (fv[AF_DEFAULT_ROW_COMMIT_VERSION] != NULL &&
		!pq_int_value(fv[AF_DEFAULT_ROW_COMMIT_VERSION], &drcv))
		return false;
	if ((fv[AF_STATS_PARSED] != NULL &&
		 !pq_value_ok(fv[AF_STATS_PARSED], false)) ||
		(fv[AF_PARTITION_VALUES_PARSED] != NULL &&
		 !pq_value_ok(fv[AF_PARTITION_VALUES_PARSED], false)))
		return false;
	if (fv[AF_DELETION_VECTOR] != NULL &&
		(dv = direct_dv(b, fv[AF_DELETION_VECTOR])) == NULL)
		return false;

	/* the row is one action, decoded as decode_file would */
	b->n_actions++;
	fa = DeltaCommitBuilderNewFile(b, DELTA_FILE_ADD);
	fa->path = DeltaArenaStrndup(&b->strings,
								 (const char *) fv[AF_PATH]->u.bytes,
								 fv[AF_PATH]->len);
	fa->pv.n = (int) pv->len;
	if (pv->len > 0)
	{
		fa->pv.keys = MemoryContextAlloc(b->cxt, sizeof(char *) * pv->len);
		fa->pv.values = MemoryContextAlloc(b->cxt, sizeof(char *) * pv->len);
		for (i = 0; i < pv->len; i++)
		{
			const PqValue *k = &pv->u.map.keys[i];
			const PqValue *val = &pv->u.map.values[i];

			fa->pv.keys[i] = DeltaArenaStrndup(&b->strings,
											   (const char *) k->u.bytes, k->len);
			fa->pv.values[i] = val->kind == PQV_NULL ? NULL :
				DeltaArenaStrndup(&b->strings, (const char *) val->u.bytes,
								  val->len);
		}
	}
	fa->has_size = true;
	fa->size = size;
	fa->has_modification_time = true;
	fa->modification_time = mtime;
	fa->data_change = fv[AF_DATA_CHANGE]->u.b;
	fa->dv = dv;
	fa->has_base_row_id = (fv[AF_BASE_ROW_ID] != NULL);
	fa->base_row_id = base_row_id;
	fa->has_default_row_commit_version =
		(fv[AF_DEFAULT_ROW_COMMIT_VERSION] != NULL);
	fa->default_row_commit_version = drcv;
	if (b->mode == DELTA_DECODE_KEYS)
		return true;
	if (fv[AF_STATS] != NULL)
		DeltaFileSetStats(b, fa, (const char *) fv[AF_STATS]->u.bytes,
						  fv[AF_STATS]->len);
	else
		set_stats_parsed(b, fa, add, row_cxt);
	return true;
}

#ifdef USE_ASSERT_CHECKING
/*
 * Decode the row just decoded by decode_add_direct (the last file of b)
 * again the general way, in a temporary context, and ERROR on any
 * difference (assert-enabled builds).
 */
static void
check_direct_row(DeltaCommitBuilder *b, const PqValue *row,
				 const PqValue *add, MemoryContext row_cxt, DcArena *arena)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc direct row check",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	DeltaCommitBuilder ref;
	const DeltaFileAction *direct = &b->files[b->n_files - 1];
	const char *diff;

	DeltaCommitBuilderInit(&ref, b->version);
	ref.mode = b->mode;
	decode_rendered_row(&ref, row, add, row_cxt, arena);
	if (ref.n_files != 1 || ref.n_actions != 1 || ref.metadata ||
		ref.protocol || ref.commit_info || ref.n_txns > 0 ||
		ref.n_domains > 0 || ref.n_sidecars > 0 ||
		ref.has_checkpoint_metadata)
		elog(ERROR, "direct checkpoint row decoding differs: %d file actions",
			 ref.n_files);
	diff = DeltaFileActionDiff(&ref.files[0], direct);
	if (diff != NULL)
		elog(ERROR, "direct checkpoint row decoding differs in \"%s\" of file \"%s\" (mode %d)",
			 diff, ref.files[0].path, (int) b->mode);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}
#endif

/*
 * Decode one checkpoint row into b (b->mode says how much of a file is
 * kept): an add row of the common shape straight from its Parquet values
 * (decode_add_direct, shape caching its add struct's layout), any other row
 * by rendering it as JSON in row_cxt and parsing that into arena (both
 * scratch for the caller to reset).
 */
static void
decode_ckpt_row(DeltaCommitBuilder *b, const PqValue *row,
				MemoryContext row_cxt, DcArena *arena, AddShape *shape)
{
	const PqValue *add;
	uint32		i;

	if (row->kind != PQV_STRUCT)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("checkpoint row is not a struct"));

	/* a row with only nulls: a remove, commitInfo or other unprojected action */
	for (i = 0; i < row->len; i++)
		if (row->u.items[i].kind != PQV_NULL)
			break;
	if (i == row->len)
		return;
	add = row_add_struct(row);
	if (add != NULL && decode_add_direct(b, row, add, shape, row_cxt))
	{
#ifdef USE_ASSERT_CHECKING
		check_direct_row(b, row, add, row_cxt, arena);
#endif
		return;
	}
	decode_rendered_row(b, row, add, row_cxt, arena);
}

/*
 * Decode one Parquet checkpoint file (or Parquet sidecar), given relative
 * to the table root, into a DeltaCommit of 'version' allocated in
 * CurrentMemoryContext.  Row groups are decoded in a context reset per row
 * group, each row's JSON rendering in one reset per row.  ERRORs: file
 * access (DeltaFileErrcode), any Parquet or action decoding problem
 * (ERRCODE_DATA_CORRUPTED), with the context naming the file and row.
 */
static DeltaCommit *
read_parquet_file(DeltaLog *log, const char *rel_path, int64 version,
				  DeltaDecodeMode mode)
{
	DeltaErrorPosition pos;
	DeltaCommitBuilder b;
	MemoryContext result_cxt PG_USED_FOR_ASSERTS_ONLY = CurrentMemoryContext;
	MemoryContext file_cxt;
	MemoryContext rg_cxt;
	MemoryContext row_cxt;
	FmtAllocator file_alloc;
	FmtAllocator rg_alloc;
	FmtAllocator row_alloc;
	DcArena    *row_arena;
	DcArena    *arena;
	int			fd;
	char	   *abs_path;
	struct stat st;
	StorageReader *remote = NULL;
	PqFile	   *f;
	PqReader   *r;
	PqError		err;
	int			rg;
	DeltaCommit *result;
	AddShape	shape;

	DeltaErrorContextPush(&pos, rel_path);
	abs_path = psprintf("%s/%s", log->table_path, rel_path);
	if (storage_is_remote(abs_path))
	{
		remote = storage_reader_open(abs_path, "checkpoint file", rel_path);
		fd = -1;
		st.st_size = (off_t) remote->info.size;
	}
	else
		fd = DeltaOpenRegularFile(abs_path, "checkpoint file", rel_path, &st);

	file_cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc checkpoint file",
									 ALLOCSET_DEFAULT_SIZES);
	rg_cxt = AllocSetContextCreate(file_cxt, "deltacc checkpoint row group",
								   ALLOCSET_DEFAULT_SIZES);
	row_cxt = AllocSetContextCreate(file_cxt, "deltacc checkpoint row",
									ALLOCSET_DEFAULT_SIZES);
	file_alloc = dc_fmt_allocator(file_cxt);
	rg_alloc = dc_fmt_allocator(rg_cxt);
	/* a row's Parquet values: bump-allocated, the arena reset per row */
	row_arena = dc_arena_create(file_cxt);
	row_alloc = dc_arena_allocator(row_arena);
	arena = dc_arena_create(file_cxt);

	memset(&err, 0, sizeof(err));
	if (remote != NULL)
		f = pq_open(storage_pq_read_at, remote, (uint64_t) st.st_size,
					&file_alloc, NULL, &err);
	else
		f = pq_open(DeltaPqReadAt, &fd, (uint64_t) st.st_size, &file_alloc,
					NULL, &err);
	if (f == NULL)
		ckpt_pq_error(&err);
	if (mode == DELTA_DECODE_KEYS)
		r = pq_reader_open(f, ckpt_key_columns, lengthof(ckpt_key_columns),
						   &err);
	else
		r = pq_reader_open(f, ckpt_columns, lengthof(ckpt_columns), &err);
	if (r == NULL)
		ckpt_pq_error(&err);

	DeltaCommitBuilderInit(&b, version);
	b.mode = mode;
	memset(&shape, 0, sizeof(shape));
	for (rg = 0; rg < pq_num_row_groups(f); rg++)
	{
		PqValue		row;
		int64_t		rowpos;
		int			rc;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(rg_cxt);
		if (!pq_reader_load_row_group(r, rg, &rg_alloc, &err))
			ckpt_pq_error(&err);
		for (;;)
		{
			CHECK_FOR_INTERRUPTS();
			MemoryContextReset(row_cxt);
			dc_arena_reset(row_arena);
			rc = pq_reader_next(r, &row_alloc, &row, &rowpos, &err);
			if (rc < 0)
				ckpt_pq_error(&err);
			if (rc == 0)
				break;
			pos.line = (int64) rowpos + 1;
			decode_ckpt_row(&b, &row, row_cxt, arena, &shape);
		}
	}
	pos.line = 0;
	result = DeltaCommitBuilderFinish(&b);
	MemoryContextDelete(file_cxt);
	if (fd >= 0)
		CloseTransientFile(fd);
	if (remote != NULL)
		storage_reader_free(remote);
	pfree(abs_path);
	DeltaErrorContextPop(&pos);
	Assert(CurrentMemoryContext == result_cxt);
	return result;
}

/* True when name ends with suffix. */
static bool
ends_with(const char *name, const char *suffix)
{
	size_t		n = strlen(name);
	size_t		s = strlen(suffix);

	return n >= s && strcmp(name + n - s, suffix) == 0;
}

/*
 * Read one checkpoint file or sidecar (Parquet or JSON by its name).
 */
static DeltaCommit *
read_any_file(DeltaLog *log, const char *rel_path, int64 version,
			  DeltaDecodeMode mode)
{
	if (ends_with(rel_path, ".parquet"))
		return read_parquet_file(log, rel_path, version, mode);
	if (ends_with(rel_path, ".json"))
		return DeltaLogReadActionFile(log, rel_path, version);
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("checkpoint file \"%s\" is neither Parquet nor JSON", rel_path));
	return NULL;				/* keep compiler quiet */
}

/*
 * Relative path of a sidecar named in a v2 checkpoint: sidecar paths are
 * relative to _delta_log/_sidecars/ (a plain file name).  Anything with a
 * directory part or a URI is refused (ERRCODE_FEATURE_NOT_SUPPORTED).
 */
static char *
sidecar_rel_path(const char *path)
{
	if (path[0] == '\0' || strchr(path, '/') != NULL || strcmp(path, "..") == 0 ||
		strcmp(path, ".") == 0)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("unsupported sidecar path \"%s\"", path),
				errdetail("Only sidecar files directly under _delta_log/_sidecars are supported."));
	return psprintf("_delta_log/_sidecars/%s", path);
}

/*
 * The sidecar action of checkpoint 'ckpt' says sidecar rel_path has
 * expected bytes (-1: not recorded): a file of another size is not the
 * sidecar the checkpoint was written with (truncated, replaced), so it is
 * refused (ERRCODE_DATA_CORRUPTED) before it is read.
 */
static void
check_sidecar_size(DeltaLog *log, const char *rel_path, int64 expected,
				   const char *ckpt)
{
	struct stat st;
	int			fd;
	char	   *abs_path;

	if (expected < 0)
		return;
	abs_path = psprintf("%s/%s", log->table_path, rel_path);
	if (storage_is_remote(abs_path))
	{
		StorageObjectInfo info;

		storage_stat_existing(abs_path, "sidecar file", rel_path, &info);
		st.st_size = (off_t) info.size;
	}
	else
	{
		fd = DeltaOpenRegularFile(abs_path, "sidecar file", rel_path, &st);
		CloseTransientFile(fd);
	}
	pfree(abs_path);
	if ((int64) st.st_size != expected)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("sidecar file \"%s\" has %lld bytes, checkpoint \"%s\" says %lld",
					   rel_path, (long long) st.st_size, ckpt,
					   (long long) expected),
				errdetail("The sidecar action's sizeInBytes must equal the file's size."));
}

/*
 * Merge the parts of a checkpoint into one DeltaCommit (CurrentMemoryContext):
 * adds only, the last metaData/protocol seen, all txns and domains.  A
 * checkpoint without metaData or protocol is ERRCODE_DATA_CORRUPTED.
 */
static DeltaCommit *
merge_parts(DeltaCommit **parts, int nparts, int64 version, const char *name)
{
	DeltaCommit *c = palloc0(sizeof(DeltaCommit));
	int			i,
				j;
	int64		nf = 0,
				nt = 0,
				nd = 0;

	c->version = version;
	c->from_checkpoint = true;
	for (i = 0; i < nparts; i++)
	{
		for (j = 0; j < parts[i]->n_files; j++)
			if (parts[i]->files[j].kind == DELTA_FILE_ADD)
				nf++;
		nt += parts[i]->n_txns;
		nd += parts[i]->n_domains;
		if (parts[i]->metadata)
			c->metadata = parts[i]->metadata;
		if (parts[i]->protocol)
			c->protocol = parts[i]->protocol;
		c->n_actions += parts[i]->n_actions;
	}
	if (nf > PG_INT32_MAX || nt > PG_INT32_MAX || nd > PG_INT32_MAX)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("checkpoint \"%s\" holds too many actions", name));
	if (c->metadata == NULL || c->protocol == NULL)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("checkpoint \"%s\" has no %s action", name,
					   c->metadata == NULL ? "metaData" : "protocol"));
	/* one part (the common case): keep its array, adds moved to the front */
	c->files = nparts == 1 && parts[0]->n_files > 0 ? parts[0]->files :
		palloc_extended(sizeof(DeltaFileAction) * Max(nf, 1), MCXT_ALLOC_HUGE);
	c->txns = palloc(sizeof(DeltaTxn) * Max(nt, 1));
	c->domains = palloc(sizeof(DeltaDomain) * Max(nd, 1));
	for (i = 0; i < nparts; i++)
	{
		CHECK_FOR_INTERRUPTS();
		for (j = 0; j < parts[i]->n_files; j++)
		{
			if (parts[i]->files[j].kind != DELTA_FILE_ADD)
				continue;
			if (&c->files[c->n_files] != &parts[i]->files[j])
				c->files[c->n_files] = parts[i]->files[j];
			c->files[c->n_files].version = version;
			c->n_files++;
		}
		for (j = 0; j < parts[i]->n_txns; j++)
			c->txns[c->n_txns++] = parts[i]->txns[j];
		for (j = 0; j < parts[i]->n_domains; j++)
			c->domains[c->n_domains++] = parts[i]->domains[j];
	}
	return c;
}

/*
 * Whether the checkpoint log->checkpoints[first..first+n) can be read again
 * row by row with a DeltaCkptCursor: classic or multi-part Parquet (v2
 * checkpoints with their sidecars, and JSON parts, are always read whole).
 */
static bool
stream_supported(DeltaLog *log, int first, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		DeltaCheckpointFile *cp = &log->checkpoints[first + i];

		if ((cp->kind != DELTA_CKPT_CLASSIC && cp->kind != DELTA_CKPT_MULTIPART) ||
			!ends_with(cp->name, ".parquet"))
			return false;
	}
	return true;
}

/* A second pass over a checkpoint read with keys only (checkpoint.h). */
struct DeltaCkptCursor
{
	DeltaLog   *log;
	int			first;			/* the checkpoint's files in the listing */
	int			n;
	int64		version;
	MemoryContext cxt;			/* owns everything below */
	int			part;			/* part being read (n: past the end) */
	char	   *rel_path;		/* of that part, NULL when none is open */
	StorageReader *remote;		/* that part in an object store (in
								 * file_cxt), else NULL */
	File		file;			/* that part (a virtual file, closed by
								 * cursor_cxt_cb when the cursor's context
								 * goes: abort leaves it open), or -1 */
	MemoryContext file_cxt;		/* the open part: footer, reader, arena */
	MemoryContext rg_cxt;
	MemoryContext row_cxt;
	FmtAllocator rg_alloc;
	FmtAllocator row_alloc;		/* over row_arena: a row's Parquet values */
	DcArena    *row_arena;
	DcArena    *arena;
	PqFile	   *f;
	PqReader   *r;
	int			rg;				/* loaded row group, -1 before the first */
	int64		next_ordinal;	/* ordinal of the next add row */
	AddShape	shape;			/* of the open part's add struct */
};

/* Close the part the cursor has open, if any. */
static void
cursor_close_part(DeltaCkptCursor *cur)
{
	if (cur->file >= 0)
		FileClose(cur->file);
	cur->file = -1;
	cur->remote = NULL;
	if (cur->file_cxt != NULL)
		MemoryContextDelete(cur->file_cxt);
	cur->file_cxt = NULL;
}

/*
 * Reset callback of the cursor's context: close its file (the part's
 * context is a child, already gone by then).
 */
static void
cursor_cxt_cb(void *arg)
{
	DeltaCkptCursor *cur = (DeltaCkptCursor *) arg;

	if (cur->file >= 0)
		FileClose(cur->file);
	cur->file = -1;
	cur->remote = NULL;
	cur->file_cxt = NULL;
}

/*
 * Open part cur->part (ERRORs as read_parquet_file); cur->rel_path must
 * name it already.
 */
static void
cursor_open_part(DeltaCkptCursor *cur)
{
	MemoryContext old = MemoryContextSwitchTo(cur->cxt);
	FmtAllocator file_alloc;
	struct stat st;
	PqError		err;
	char	   *abs_path;

	cur->file_cxt = AllocSetContextCreate(cur->cxt, "deltacc checkpoint cursor file",
										  ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cur->file_cxt);
	cur->rg_cxt = AllocSetContextCreate(cur->file_cxt, "deltacc checkpoint row group",
										ALLOCSET_DEFAULT_SIZES);
	cur->row_cxt = AllocSetContextCreate(cur->file_cxt, "deltacc checkpoint row",
										 ALLOCSET_DEFAULT_SIZES);
	file_alloc = dc_fmt_allocator(cur->file_cxt);
	cur->rg_alloc = dc_fmt_allocator(cur->rg_cxt);
	cur->row_arena = dc_arena_create(cur->file_cxt);
	cur->row_alloc = dc_arena_allocator(cur->row_arena);
	cur->arena = dc_arena_create(cur->file_cxt);
	abs_path = psprintf("%s/%s", cur->log->table_path, cur->rel_path);
	memset(&err, 0, sizeof(err));
	if (storage_is_remote(abs_path))
	{
		cur->remote = storage_reader_open(abs_path, "checkpoint file",
										  cur->rel_path);
		cur->f = pq_open(storage_pq_read_at, cur->remote,
						 (uint64_t) cur->remote->info.size, &file_alloc, NULL,
						 &err);
	}
	else
	{
		cur->file = DeltaOpenRegularVfd(abs_path, "checkpoint file",
										cur->rel_path, &st);
		cur->f = pq_open(DeltaPqReadAtVfd, &cur->file, (uint64_t) st.st_size,
						 &file_alloc, NULL, &err);
	}
	pfree(abs_path);
	if (cur->f == NULL)
		ckpt_pq_error(&err);
	cur->r = pq_reader_open(cur->f, ckpt_columns, lengthof(ckpt_columns), &err);
	if (cur->r == NULL)
		ckpt_pq_error(&err);
	cur->rg = -1;
	memset(&cur->shape, 0, sizeof(cur->shape));
	MemoryContextSwitchTo(old);
}

/* See checkpoint.h. */
DeltaCkptCursor *
DeltaCheckpointCursorOpen(DeltaLog *log, const DeltaCommit *state)
{
	MemoryContext cxt;
	DeltaCkptCursor *cur;
	MemoryContextCallback *cb;

	Assert(state->ckpt_keys_only);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc checkpoint cursor",
								ALLOCSET_SMALL_SIZES);
	cur = MemoryContextAllocZero(cxt, sizeof(DeltaCkptCursor));
	cur->log = log;
	cur->first = state->ckpt_first;
	cur->n = state->ckpt_n;
	cur->version = state->version;
	cur->cxt = cxt;
	cur->file = -1;
	cb = MemoryContextAlloc(cxt, sizeof(MemoryContextCallback));
	cb->func = cursor_cxt_cb;
	cb->arg = cur;
	MemoryContextRegisterResetCallback(cxt, cb);
	return cur;
}

/* See checkpoint.h. */
void
DeltaCheckpointCursorClose(DeltaCkptCursor *cur)
{
	cursor_close_part(cur);
	cur->part = 0;
	cur->next_ordinal = 0;
}

/*
 * See checkpoint.h.  Rows are numbered like the keys-only read numbers its
 * files: every row with an add struct is one file, in part, row group and
 * row order.  Rows before the wanted one are assembled but not decoded.
 */
DeltaFileAction *
DeltaCheckpointCursorGet(DeltaCkptCursor *cur, int64 ordinal,
						 DeltaDecodeMode mode)
{
	DeltaErrorPosition pos;
	PqError		err;

	if (ordinal < cur->next_ordinal)
		DeltaCheckpointCursorClose(cur);	/* start again from the top */
	memset(&err, 0, sizeof(err));
	DeltaErrorContextPush(&pos, cur->rel_path ? cur->rel_path : "_delta_log");
	if (cur->file < 0 && cur->remote == NULL)
		pos.file = "_delta_log";
	for (;;)
	{
		PqValue		row;
		int64_t		rowpos;
		int			rc;

		CHECK_FOR_INTERRUPTS();
		if (cur->file < 0 && cur->remote == NULL)
		{
			if (cur->part >= cur->n)
				ereport(ERROR,
						errcode(ERRCODE_DATA_CORRUPTED),
						errmsg("Delta checkpoint at version " INT64_FORMAT " changed while it was being read",
							   cur->version));
			{
				char	   *name = psprintf("_delta_log/%s",
											cur->log->checkpoints[cur->first + cur->part].name);
				char	   *prev = cur->rel_path;

				/* the new name in place before the old one is freed */
				cur->rel_path = MemoryContextStrdup(cur->cxt, name);
				pos.file = cur->rel_path;
				pfree(name);
				if (prev != NULL)
					pfree(prev);
			}
			pos.line = 0;
			cursor_open_part(cur);
		}
		if (cur->rg >= 0)
		{
			MemoryContextReset(cur->row_cxt);
			dc_arena_reset(cur->row_arena);
			rc = pq_reader_next(cur->r, &cur->row_alloc, &row, &rowpos, &err);
			if (rc < 0)
				ckpt_pq_error(&err);
		}
		else
			rc = 0;
		if (rc == 0)
		{
			/* next row group, or the next part */
			if (cur->rg + 1 >= pq_num_row_groups(cur->f))
			{
				cursor_close_part(cur);
				cur->part++;
				continue;
			}
			cur->rg++;
			MemoryContextReset(cur->rg_cxt);
			if (!pq_reader_load_row_group(cur->r, cur->rg, &cur->rg_alloc, &err))
				ckpt_pq_error(&err);
			continue;
		}
		if (row.kind != PQV_STRUCT || row_add_struct(&row) == NULL)
			continue;
		if (cur->next_ordinal++ == ordinal)
		{
			DeltaCommitBuilder b;

			pos.line = (int64) rowpos + 1;
			DeltaCommitBuilderInit(&b, cur->version);	/* caller's context */
			b.mode = mode;
			decode_ckpt_row(&b, &row, cur->row_cxt, cur->arena, &cur->shape);
			if (b.n_files != 1)
				ereport(ERROR,
						errcode(ERRCODE_DATA_CORRUPTED),
						errmsg("Delta checkpoint file \"%s\" changed while it was being read",
							   cur->rel_path));
			DeltaErrorContextPop(&pos);
			return &b.files[0];
		}
	}
}

/*
 * Read the checkpoint whose files are log->checkpoints[first..first+n).
 */
static DeltaCommit *
read_checkpoint(DeltaLog *log, int first, int n, bool keys_only)
{
	DeltaCheckpointFile *cp = &log->checkpoints[first];
	DeltaCommit **parts;
	DeltaCommit *result;
	int			nparts = 0;
	int			cap = n + 4;
	int			i;
	DeltaDecodeMode mode = DELTA_DECODE_FULL;

	/* keys only when the files can be read again row by row (see below) */
	if (keys_only && stream_supported(log, first, n))
		mode = DELTA_DECODE_KEYS;
	parts = palloc(sizeof(DeltaCommit *) * cap);
	for (i = 0; i < n; i++)
	{
		char	   *rel = psprintf("_delta_log/%s", log->checkpoints[first + i].name);

		CHECK_FOR_INTERRUPTS();
		parts[nparts++] = read_any_file(log, rel, cp->version, mode);
	}
	if (cp->kind == DELTA_CKPT_V2_JSON || cp->kind == DELTA_CKPT_V2_PARQUET)
	{
		DeltaCommit *top = parts[0];

		for (i = 0; i < top->n_sidecars; i++)
		{
			char	   *rel = sidecar_rel_path(top->sidecars[i]);

			CHECK_FOR_INTERRUPTS();
			if (top->sidecar_sizes != NULL)
				check_sidecar_size(log, rel, top->sidecar_sizes[i], cp->name);
			if (nparts == cap)
			{
				cap *= 2;
				parts = repalloc(parts, sizeof(DeltaCommit *) * cap);
			}
			parts[nparts++] = read_any_file(log, rel, cp->version, mode);
		}
	}
	result = merge_parts(parts, nparts, cp->version, cp->name);
	result->ckpt_keys_only = (mode == DELTA_DECODE_KEYS);
	result->ckpt_first = first;
	result->ckpt_n = n;
	return result;
}

/*
 * The complete checkpoint newest first at or below index *i of the listing
 * with version <= max_version: returns its first index and sets *n to its
 * number of files, or returns -1.  *i is moved below the checkpoint, so the
 * next call finds the next older one.
 */
static int
next_complete_checkpoint(DeltaLog *log, int *i, int64 max_version, int *n)
{
	for (; *i >= 0; (*i)--)
	{
		DeltaCheckpointFile *cp = &log->checkpoints[*i];

		CHECK_FOR_INTERRUPTS();
		if (cp->version > max_version)
			continue;
		if (cp->kind != DELTA_CKPT_MULTIPART)
		{
			*n = 1;
			return (*i)--;
		}

		/* multipart: this is part K of N; parts 1..N must all be there */
		if (cp->part == cp->n_parts && *i - cp->n_parts + 1 >= 0)
		{
			int			first = *i - cp->n_parts + 1;
			int			k;
			bool		complete = true;

			for (k = 0; k < cp->n_parts; k++)
			{
				DeltaCheckpointFile *p = &log->checkpoints[first + k];

				if (p->version != cp->version || p->kind != DELTA_CKPT_MULTIPART ||
					p->n_parts != cp->n_parts || p->part != k + 1)
				{
					complete = false;
					break;
				}
			}
			if (complete)
			{
				*n = cp->n_parts;
				*i = first - 1;
				return first;
			}
		}
	}
	return -1;
}

/* the arguments and the result of one try_read_checkpoint attempt */
typedef struct CheckpointAttempt
{
	DeltaLog   *log;
	int			first;
	int			n;
	bool		keys_only;
	DeltaCommit *result;
} CheckpointAttempt;

/* DcWorkFn for try_read_checkpoint: read_checkpoint into a->result */
static void
checkpoint_attempt_work(void *arg)
{
	CheckpointAttempt *a = (CheckpointAttempt *) arg;

	a->result = read_checkpoint(a->log, a->first, a->n, a->keys_only);
}

/*
 * try_read_checkpoint: read_checkpoint in a subtransaction (dc_try_subxact).
 * Returns the state (allocated in a child of CurrentMemoryContext), or NULL
 * with the error's message and detail in *message / *detail (palloc'd) when
 * reading failed: the subtransaction is rolled back, releasing its files.
 * Query cancel, shutdown and out-of-memory are re-thrown.
 */
static DeltaCommit *
try_read_checkpoint(DeltaLog *log, int first, int n, bool keys_only,
					char **message, char **detail)
{
	MemoryContext cxt;
	CheckpointAttempt a;
	ErrorData  *edata;

	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"deltacc checkpoint attempt",
								ALLOCSET_DEFAULT_SIZES);
	a.log = log;
	a.first = first;
	a.n = n;
	a.keys_only = keys_only;
	a.result = NULL;
	edata = dc_try_subxact(checkpoint_attempt_work, &a, cxt, true);
	if (edata == NULL)
		return a.result;
	*message = pstrdup(edata->message);
	*detail = edata->detail ? pstrdup(edata->detail) : NULL;
	FreeErrorData(edata);
	MemoryContextDelete(cxt);
	return NULL;
}

/*
 * See checkpoint.h.  The listing is sorted by (version, part); scan it from
 * the newest version down and take the first complete checkpoint.
 *
 * A newest checkpoint that cannot be read (truncated, corrupt, a sidecar
 * missing or of the wrong size, ...) is skipped with a WARNING naming it
 * and the error, when an older complete checkpoint exists from which the
 * JSON commits reach on (version + 1 >= the oldest JSON commit; the listing
 * has no gaps there): that one is read instead, like Delta falls back to an
 * older checkpoint.  Without such a fallback the error is raised as it is
 * (naming the file).  In parallel mode (no subtransactions) there is no
 * fallback either.
 */
DeltaCommit *
DeltaCheckpointReadExt(DeltaLog *log, int64 max_version, bool keys_only)
{
	int			i = log->n_checkpoints - 1;
	int			first;
	int			n;

	while ((first = next_complete_checkpoint(log, &i, max_version, &n)) >= 0)
	{
		DeltaCheckpointFile *cp = &log->checkpoints[first];
		int			j = i;
		int			older_n;
		int			older;
		DeltaCommit *state;
		char	   *message = NULL;
		char	   *detail = NULL;

		/* the next older checkpoint the JSON commits reach on from */
		older = next_complete_checkpoint(log, &j, cp->version - 1, &older_n);
		if (older < 0 || IsInParallelMode() ||
			(log->first_version < 0 ||
			 log->checkpoints[older].version + 1 < log->first_version))
			return read_checkpoint(log, first, n, keys_only);

		state = try_read_checkpoint(log, first, n, keys_only, &message, &detail);
		if (state != NULL)
			return state;
		ereport(WARNING,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("skipping unreadable checkpoint \"_delta_log/%s\"",
					   cp->name),
				errdetail("%s%s%s", message, detail ? ": " : "",
						  detail ? detail : ""),
				errhint("The older checkpoint at version " INT64_FORMAT
						" and the JSON commits after it are read instead.",
						log->checkpoints[older].version));
	}
	return NULL;
}

/* See checkpoint.h: the files of the checkpoint, fully decoded. */
DeltaCommit *
DeltaCheckpointReadFull(DeltaLog *log, const DeltaCommit *state)
{
	return read_checkpoint(log, state->ckpt_first, state->ckpt_n, false);
}
