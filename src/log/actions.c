/*-------------------------------------------------------------------------
 *
 * actions.c
 *	  Decode Delta actions (reference §1) from djson trees into the structs
 *	  of delta_actions.h (see actions.h for the contract).
 *
 * Strings of decoded actions are carved out of large blocks (a bump
 * allocator in the builder's context) rather than palloc'd one by one: a
 * snapshot of a million files then costs no per-chunk headers or
 * power-of-two rounding for its paths and statistics.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/log/actions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include "common/json_util.h"
#include "log/actions.h"

#define STR_BLOCK_FIRST 1024
#define STR_BLOCK_SIZE (64 * 1024)

/* See actions.h. */
void
DeltaArenaNewBlock(DeltaStrArena *a, size_t size)
{
	a->next = MemoryContextAlloc(a->cxt, size);
	a->left = size;
}

/* See actions.h. */
void
DeltaArenaReserve(DeltaStrArena *a, size_t need)
{
	size_t		size;

	if (a->next != NULL && a->left >= need)
		return;
	size = Max(a->grow, STR_BLOCK_FIRST);
	a->grow = Min(size * 2, STR_BLOCK_SIZE);
	DeltaArenaNewBlock(a, Max(size, need));
}

/*
 * Copy len bytes of s plus a NUL into the arena's blocks.  Strings larger
 * than a quarter block get their own chunk.
 */
char *
DeltaArenaStrndup(DeltaStrArena *a, const char *s, size_t len)
{
	char	   *r;

	if (len + 1 > STR_BLOCK_SIZE / 4)
		r = MemoryContextAllocHuge(a->cxt, len + 1);
	else
	{
		DeltaArenaReserve(a, len + 1);
		r = a->next;
		a->next += len + 1;
		a->left -= len + 1;
	}
	memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

/* Error context of a DeltaArgumentContext (see actions.h). */
static void
argument_context_callback(void *arg)
{
	const DeltaArgumentContext *ctx = (const DeltaArgumentContext *) arg;

	if (ctx->item > 0)
		errcontext("Delta action %d of %s", ctx->item, ctx->what);
	else
		errcontext("%s", ctx->what);
}

/*
 * The SQLSTATE of a malformed action: invalid_parameter_value while a
 * DeltaArgumentContext is on the error context stack (actions a caller
 * passed as an argument), else data_corrupted (a log's).  Asked when the
 * error is raised, so nothing has to be restored after one.
 */
static int
bad_entry_errcode(void)
{
	ErrorContextCallback *cb;

	for (cb = error_context_stack; cb != NULL; cb = cb->previous)
		if (cb->callback == argument_context_callback)
			return ERRCODE_INVALID_PARAMETER_VALUE;
	return ERRCODE_DATA_CORRUPTED;
}

/*
 * DeltaArgumentContextPush, DeltaArgumentContextPop: see actions.h.
 */
void
DeltaArgumentContextPush(DeltaArgumentContext *ctx, const char *what)
{
	ctx->what = what;
	ctx->item = 0;
	ctx->cb.callback = argument_context_callback;
	ctx->cb.arg = ctx;
	ctx->cb.previous = error_context_stack;
	error_context_stack = &ctx->cb;
}

void
DeltaArgumentContextPop(DeltaArgumentContext *ctx)
{
	Assert(error_context_stack == &ctx->cb);
	error_context_stack = ctx->cb.previous;
}

/* Copy a string into the builder's arena. */
static inline char *
bstrndup(DeltaCommitBuilder *b, const char *s, size_t len)
{
	return DeltaArenaStrndup(&b->strings, s, len);
}

static char *
bstrdup(DeltaCommitBuilder *b, const char *s)
{
	return bstrndup(b, s, strlen(s));
}

/* Copy a DJ_STRING value (may contain no NUL: djson refuses \u0000). */
static char *
bstr_value(DeltaCommitBuilder *b, const DjValue *v)
{
	return bstrndup(b, v->u.str, v->len);
}

/* Compact JSON text of v, copied into the builder's blocks. */
static char *
bjson(DeltaCommitBuilder *b, const DjValue *v)
{
	char	   *tmp = dc_dj_to_json(v);
	char	   *r = bstrdup(b, tmp);

	pfree(tmp);
	return r;
}

/*
 * Raise "invalid Delta log entry" for a field.  'problem' is a sentence
 * fragment such as "is missing".
 */
static void
field_error(const char *action, const char *field, const char *problem)
	pg_attribute_noreturn();

static void
field_error(const char *action, const char *field, const char *problem)
{
	ereport(ERROR,
			errcode(bad_entry_errcode()),
			errmsg("invalid Delta log entry"),
			errdetail("Field \"%s.%s\" %s.", action, field, problem));
}

/* Raise the wrong-type error for a field. */
static void
type_error(const char *action, const char *field, const char *expected,
		   const DjValue *got) pg_attribute_noreturn();

static void
type_error(const char *action, const char *field, const char *expected,
		   const DjValue *got)
{
	ereport(ERROR,
			errcode(bad_entry_errcode()),
			errmsg("invalid Delta log entry"),
			errdetail("Field \"%s.%s\" must be %s, not %s.",
					  action, field, expected, dj_type_name(got->type)));
}

/* A member that is present and not JSON null, else NULL. */
static const DjValue *
field(const DjValue *obj, const char *key)
{
	const DjValue *v = dj_get(obj, key);

	if (v == NULL || v->type == DJ_NULL)
		return NULL;
	return v;
}

static const DjValue *
req_field(const DjValue *obj, const char *action, const char *key)
{
	const DjValue *v = field(obj, key);

	if (v == NULL)
		field_error(action, key, "is missing");
	return v;
}

/* Convert a number field exactly to int64, or raise. */
static int64
to_int64(const DjValue *v, const char *action, const char *key)
{
	int64_t		r;

	if (v->type != DJ_NUMBER)
		type_error(action, key, "an integer", v);
	if (!dj_to_int64(v, &r))
		ereport(ERROR,
				errcode(bad_entry_errcode()),
				errmsg("invalid Delta log entry"),
				errdetail("Field \"%s.%s\" is not a 64-bit integer: %s.",
						  action, key, v->u.num));
	return (int64) r;
}

static int32
to_int32(const DjValue *v, const char *action, const char *key)
{
	int64		r = to_int64(v, action, key);

	if (r < PG_INT32_MIN || r > PG_INT32_MAX)
		ereport(ERROR,
				errcode(bad_entry_errcode()),
				errmsg("invalid Delta log entry"),
				errdetail("Field \"%s.%s\" is out of range for a 32-bit integer: %s.",
						  action, key, v->u.num));
	return (int32) r;
}

static bool
to_bool(const DjValue *v, const char *action, const char *key)
{
	if (v->type != DJ_TRUE && v->type != DJ_FALSE)
		type_error(action, key, "a boolean", v);
	return v->type == DJ_TRUE;
}

static char *
req_string(DeltaCommitBuilder *b, const DjValue *obj, const char *action,
		   const char *key)
{
	const DjValue *v = req_field(obj, action, key);

	if (v->type != DJ_STRING)
		type_error(action, key, "a string", v);
	return bstr_value(b, v);
}

static char *
opt_string(DeltaCommitBuilder *b, const DjValue *obj, const char *action,
		   const char *key)
{
	const DjValue *v = field(obj, key);

	if (v == NULL)
		return NULL;
	if (v->type != DJ_STRING)
		type_error(action, key, "a string", v);
	return bstr_value(b, v);
}

/* Optional int64 field: returns whether present, value in *out. */
static bool
opt_int64(const DjValue *obj, const char *action, const char *key, int64 *out)
{
	const DjValue *v = field(obj, key);

	if (v == NULL)
		return false;
	*out = to_int64(v, action, key);
	return true;
}

/*
 * Decode a map of string (or null) values: partitionValues, configuration.
 * Numbers and booleans are kept as their exact text (lenient towards
 * writers that do not quote them); nested containers are an error.
 */
static void
decode_string_map(DeltaCommitBuilder *b, const DjValue *v, const char *action,
				  const char *key, int *n_out, char ***keys_out,
				  char ***values_out)
{
	uint32		i;
	char	  **keys;
	char	  **values;

	if (v->type != DJ_OBJECT)
		type_error(action, key, "an object", v);
	*n_out = (int) v->len;
	if (v->len == 0)
	{
		*keys_out = NULL;
		*values_out = NULL;
		return;
	}
	keys = MemoryContextAlloc(b->cxt, sizeof(char *) * v->len);
	values = MemoryContextAlloc(b->cxt, sizeof(char *) * v->len);
	for (i = 0; i < v->len; i++)
	{
		const DjMember *m = &v->u.members[i];

		keys[i] = bstrndup(b, m->key, m->keylen);
		switch (m->value.type)
		{
			case DJ_NULL:
				values[i] = NULL;
				break;
			case DJ_STRING:
				values[i] = bstr_value(b, &m->value);
				break;
			case DJ_NUMBER:
				values[i] = bstrndup(b, m->value.u.num, m->value.len);
				break;
			case DJ_TRUE:
				values[i] = bstrdup(b, "true");
				break;
			case DJ_FALSE:
				values[i] = bstrdup(b, "false");
				break;
			default:
				ereport(ERROR,
						errcode(bad_entry_errcode()),
						errmsg("invalid Delta log entry"),
						errdetail("Value of \"%s\" in field \"%s.%s\" must be a string, not %s.",
								  m->key, action, key, dj_type_name(m->value.type)));
		}
	}
	*keys_out = keys;
	*values_out = values;
}

/* Decode an array of strings (partitionColumns, reader/writerFeatures). */
static int
decode_string_array(DeltaCommitBuilder *b, const DjValue *v, const char *action,
					const char *key, char ***out)
{
	uint32		i;
	char	  **arr;

	if (v->type != DJ_ARRAY)
		type_error(action, key, "an array", v);
	if (v->len == 0)
	{
		*out = NULL;
		return 0;
	}
	arr = MemoryContextAlloc(b->cxt, sizeof(char *) * v->len);
	for (i = 0; i < v->len; i++)
	{
		if (v->u.items[i].type != DJ_STRING)
			ereport(ERROR,
					errcode(bad_entry_errcode()),
					errmsg("invalid Delta log entry"),
					errdetail("Elements of field \"%s.%s\" must be strings, not %s.",
							  action, key, dj_type_name(v->u.items[i].type)));
		arr[i] = bstr_value(b, &v->u.items[i]);
	}
	*out = arr;
	return (int) v->len;
}

/*
 * Unique id of a DV: storageType + pathOrInlineDv [+ "@" + offset],
 * palloc'd in CurrentMemoryContext.
 */
char *
DeltaDVUniqueId(const DeltaDV *dv)
{
	if (dv->has_offset)
		return psprintf("%c%s@%d", dv->storage_type, dv->path_or_inline,
						dv->offset);
	return psprintf("%c%s", dv->storage_type, dv->path_or_inline);
}

/* Decode a deletionVector descriptor object. */
static DeltaDV *
decode_dv(DeltaCommitBuilder *b, const DjValue *v, const char *action)
{
	DeltaDV    *dv;
	const DjValue *f;
	char	   *st;

	if (v->type != DJ_OBJECT)
		type_error(action, "deletionVector", "an object", v);
	dv = MemoryContextAllocZero(b->cxt, sizeof(DeltaDV));
	f = req_field(v, "deletionVector", "storageType");
	if (f->type != DJ_STRING)
		type_error("deletionVector", "storageType", "a string", f);
	st = (char *) f->u.str;
	if (f->len != 1)
		field_error("deletionVector", "storageType",
					"must be a single character");
	dv->storage_type = st[0];
	dv->path_or_inline = req_string(b, v, "deletionVector", "pathOrInlineDv");
	f = field(v, "offset");
	if (f != NULL)
	{
		dv->has_offset = true;
		dv->offset = to_int32(f, "deletionVector", "offset");
		if (dv->offset < 0)
			field_error("deletionVector", "offset", "must not be negative");
	}
	dv->size_in_bytes = to_int32(req_field(v, "deletionVector", "sizeInBytes"),
								 "deletionVector", "sizeInBytes");
	if (dv->size_in_bytes < 0)
		field_error("deletionVector", "sizeInBytes", "must not be negative");
	dv->cardinality = to_int64(req_field(v, "deletionVector", "cardinality"),
							   "deletionVector", "cardinality");
	if (dv->cardinality < 0)
		field_error("deletionVector", "cardinality", "must not be negative");
	DeltaDVSetUniqueId(b, dv);
	return dv;
}

/*
 * See actions.h: dv->unique_id (DeltaDVUniqueId) copied into b's strings.
 */
void
DeltaDVSetUniqueId(DeltaCommitBuilder *b, DeltaDV *dv)
{
	char	   *uid = DeltaDVUniqueId(dv);

	dv->unique_id = bstrdup(b, uid);
	pfree(uid);
}

/*
 * Pull numRecords and tightBounds out of a stats JSON string.  Unparseable
 * stats, or a numRecords that is not a non-negative 64-bit integer, count
 * as missing (reference §1.9), never as an error.
 */
static void
stats_fields_peek(void *arg, const DjValue *v)
{
	DeltaStatsFieldsFromJson((DeltaFileAction *) arg, v);
}

static void
extract_stats_fields(DeltaFileAction *fa, const char *stats, size_t len)
{
	/* parsed in a scratch arena: nothing of it stays in the caller's context */
	(void) dc_json_peek(stats, len, stats_fields_peek, fa);
}

/*
 * Set fa->stats to a copy of text[0..len) in the builder's memory and, in
 * DELTA_DECODE_FULL mode, numRecords/tightBounds from it (see actions.h).
 */
void
DeltaFileSetStats(DeltaCommitBuilder *b, DeltaFileAction *fa,
				  const char *text, size_t len)
{
	fa->stats = bstrndup(b, text, len);
	if (b->mode == DELTA_DECODE_FULL)
		extract_stats_fields(fa, fa->stats, len);
}

/*
 * Set num_records / tight_bounds of fa from parsed stats (see actions.h).
 */
void
DeltaStatsFieldsFromJson(DeltaFileAction *fa, const DjValue *stats)
{
	const DjValue *f;
	int64_t		n;
	const DjValue v = *stats;

	if (v.type != DJ_OBJECT)
		return;
	f = dj_get(&v, "numRecords");
	if (f && f->type == DJ_NUMBER && dj_to_int64(f, &n) && n >= 0)
	{
		fa->has_num_records = true;
		fa->num_records = (int64) n;
	}
	f = dj_get(&v, "tightBounds");
	if (f && (f->type == DJ_TRUE || f->type == DJ_FALSE))
		fa->tight_bounds = (f->type == DJ_TRUE) ? 1 : 0;
}

/* Grow the files array by one and return the new zeroed slot. */
static DeltaFileAction *
new_file(DeltaCommitBuilder *b)
{
	DeltaFileAction *fa;

	if (b->n_files == b->cap_files)
	{
		int			newcap = b->cap_files == 0 ? 16 : b->cap_files * 2;

		if (b->files == NULL)
			b->files = MemoryContextAllocHuge(b->cxt, sizeof(DeltaFileAction) * newcap);
		else
			b->files = repalloc_huge(b->files, sizeof(DeltaFileAction) * newcap);
		b->cap_files = newcap;
	}
	fa = &b->files[b->n_files++];
	memset(fa, 0, sizeof(*fa));
	return fa;
}

/*
 * See actions.h: a new zeroed file action of 'kind' at the end of b's files,
 * with the defaults decode_file starts from.
 */
DeltaFileAction *
DeltaCommitBuilderNewFile(DeltaCommitBuilder *b, DeltaFileKind kind)
{
	DeltaFileAction *fa = new_file(b);

	fa->kind = kind;
	fa->version = b->version;
	fa->tight_bounds = -1;
	return fa;
}

/* Decode add / remove / cdc. */
static void
decode_file(DeltaCommitBuilder *b, const DjValue *v, DeltaFileKind kind,
			const char *action)
{
	DeltaFileAction *fa;
	const DjValue *f;

	if (v->type != DJ_OBJECT)
		type_error(action, "(action)", "an object", v);
	fa = DeltaCommitBuilderNewFile(b, kind);
	fa->path = req_string(b, v, action, "path");
	if (fa->path[0] == '\0')
		field_error(action, "path", "is empty");

	f = (kind == DELTA_FILE_REMOVE) ? field(v, "partitionValues")
		: req_field(v, action, "partitionValues");
	if (f != NULL)
		decode_string_map(b, f, action, "partitionValues", &fa->pv.n,
						  &fa->pv.keys, &fa->pv.values);
	else
		fa->pv.is_null_map = true;

	f = (kind == DELTA_FILE_REMOVE) ? field(v, "size")
		: req_field(v, action, "size");
	if (f != NULL)
	{
		fa->has_size = true;
		fa->size = to_int64(f, action, "size");
		if (fa->size < 0)
			field_error(action, "size", "must not be negative");
	}
	if (kind == DELTA_FILE_ADD)
	{
		fa->has_modification_time = true;
		fa->modification_time = to_int64(req_field(v, action, "modificationTime"),
										 action, "modificationTime");
	}
	else
		fa->has_modification_time = opt_int64(v, action, "modificationTime",
											  &fa->modification_time);

	f = (kind == DELTA_FILE_REMOVE) ? field(v, "dataChange")
		: req_field(v, action, "dataChange");
	fa->data_change = (f == NULL) ? true : to_bool(f, action, "dataChange");

	if (kind == DELTA_FILE_CDC)
	{
		f = field(v, "tags");
		if (f)
			fa->tags_json = bjson(b, f);
		return;
	}

	if (kind == DELTA_FILE_REMOVE)
	{
		fa->has_deletion_timestamp = opt_int64(v, action, "deletionTimestamp",
											   &fa->deletion_timestamp);
		f = field(v, "extendedFileMetadata");
		fa->extended_file_metadata = f ? to_bool(f, action, "extendedFileMetadata") : false;
	}

	f = field(v, "stats");
	if (f != NULL)
	{
		if (f->type != DJ_STRING && f->type != DJ_OBJECT)
			type_error(action, "stats", "a string", f);
		if (b->mode == DELTA_DECODE_KEYS)
		{
			/* replay: statistics are not kept */
		}
		else if (f->type == DJ_STRING)
			DeltaFileSetStats(b, fa, f->u.str, f->len);
		else
		{
			/* not what the protocol says, but unambiguous: keep it */
			fa->stats = bjson(b, f);
			if (b->mode == DELTA_DECODE_FULL)
				extract_stats_fields(fa, fa->stats, strlen(fa->stats));
		}
	}
	f = field(v, "tags");
	if (f && b->mode != DELTA_DECODE_KEYS && b->mode != DELTA_DECODE_ROW)
		fa->tags_json = bjson(b, f);
	f = field(v, "deletionVector");
	if (f)
		fa->dv = decode_dv(b, f, action);
	fa->has_base_row_id = opt_int64(v, action, "baseRowId", &fa->base_row_id);
	fa->has_default_row_commit_version =
		opt_int64(v, action, "defaultRowCommitVersion",
				  &fa->default_row_commit_version);
}

/* Decode metaData (the latest one in a commit wins). */
static void
decode_metadata(DeltaCommitBuilder *b, const DjValue *v)
{
	DeltaMetadata *md;
	const DjValue *f;

	if (v->type != DJ_OBJECT)
		type_error("metaData", "(action)", "an object", v);
	md = MemoryContextAllocZero(b->cxt, sizeof(DeltaMetadata));
	md->id = req_string(b, v, "metaData", "id");
	md->name = opt_string(b, v, "metaData", "name");
	md->description = opt_string(b, v, "metaData", "description");
	f = field(v, "format");
	if (f != NULL)
	{
		if (f->type != DJ_OBJECT)
			type_error("metaData", "format", "an object", f);
		md->format_json = bjson(b, f);
	}
	md->schema_string = req_string(b, v, "metaData", "schemaString");
	md->n_partition_columns =
		decode_string_array(b, req_field(v, "metaData", "partitionColumns"),
							"metaData", "partitionColumns",
							&md->partition_columns);
	f = field(v, "configuration");
	if (f != NULL)
		decode_string_map(b, f, "metaData", "configuration",
						  &md->n_configuration, &md->config_keys,
						  &md->config_values);
	md->has_created_time = opt_int64(v, "metaData", "createdTime",
									 &md->created_time);
	b->metadata = md;
}

/* Decode protocol. */
static void
decode_protocol(DeltaCommitBuilder *b, const DjValue *v)
{
	DeltaProtocol *p;
	const DjValue *f;

	if (v->type != DJ_OBJECT)
		type_error("protocol", "(action)", "an object", v);
	p = MemoryContextAllocZero(b->cxt, sizeof(DeltaProtocol));
	p->min_reader_version = to_int32(req_field(v, "protocol", "minReaderVersion"),
									 "protocol", "minReaderVersion");
	p->min_writer_version = to_int32(req_field(v, "protocol", "minWriterVersion"),
									 "protocol", "minWriterVersion");
	if (p->min_reader_version < 1)
		field_error("protocol", "minReaderVersion", "must be at least 1");
	if (p->min_writer_version < 1)
		field_error("protocol", "minWriterVersion", "must be at least 1");
	f = field(v, "readerFeatures");
	p->n_reader_features = f ? decode_string_array(b, f, "protocol", "readerFeatures",
												   &p->reader_features) : -1;
	f = field(v, "writerFeatures");
	p->n_writer_features = f ? decode_string_array(b, f, "protocol", "writerFeatures",
												   &p->writer_features) : -1;
	b->protocol = p;
}

/*
 * Copy the tree src into dst, its strings into the builder's arena and
 * its arrays and members into b->cxt (recursion as deep as the tree,
 * which the parser bounds).
 */
static void
copy_tree(DeltaCommitBuilder *b, const DjValue *src, DjValue *dst)
{
	uint32		i;

	check_stack_depth();
	*dst = *src;
	switch (src->type)
	{
		case DJ_STRING:
			dst->u.str = bstrndup(b, src->u.str, src->len);
			break;
		case DJ_NUMBER:
			dst->u.num = bstrndup(b, src->u.num, src->len);
			break;
		case DJ_ARRAY:
			{
				DjValue    *items = MemoryContextAlloc(b->cxt, sizeof(DjValue) *
													   Max(src->len, 1));

				for (i = 0; i < src->len; i++)
					copy_tree(b, &src->u.items[i], &items[i]);
				dst->u.items = items;
				break;
			}
		case DJ_OBJECT:
			{
				DjMember   *m = MemoryContextAlloc(b->cxt, sizeof(DjMember) *
												   Max(src->len, 1));

				for (i = 0; i < src->len; i++)
				{
					m[i].key = bstrndup(b, src->u.members[i].key,
										src->u.members[i].keylen);
					m[i].keylen = src->u.members[i].keylen;
					copy_tree(b, &src->u.members[i].value, &m[i].value);
				}
				dst->u.members = m;
				break;
			}
		default:
			break;
	}
}

/*
 * Decode commitInfo.  It is free-form: fields of an unexpected type are
 * treated as absent rather than as corruption.  The object is kept as a
 * tree (its strings, operation's and the others', are the tree's): its
 * JSON text is made only when asked for (DeltaCommitInfoJson).
 */
static void
decode_commit_info(DeltaCommitBuilder *b, const DjValue *src)
{
	DeltaCommitInfo *ci;
	DjValue    *v;
	const DjValue *f;
	int64_t		n;

	if (src->type != DJ_OBJECT)
		type_error("commitInfo", "(action)", "an object", src);
	ci = MemoryContextAllocZero(b->cxt, sizeof(DeltaCommitInfo));
	v = MemoryContextAlloc(b->cxt, sizeof(DjValue));
	copy_tree(b, src, v);
	ci->info = v;
	ci->is_blind_append = -1;
	f = field(v, "operation");
	if (f && f->type == DJ_STRING)
		ci->operation = unconstify(char *, f->u.str);
	f = field(v, "isBlindAppend");
	if (f && (f->type == DJ_TRUE || f->type == DJ_FALSE))
		ci->is_blind_append = (f->type == DJ_TRUE) ? 1 : 0;
	f = field(v, "isolationLevel");
	if (f && f->type == DJ_STRING)
		ci->isolation_level = unconstify(char *, f->u.str);
	f = field(v, "readVersion");
	if (f && f->type == DJ_NUMBER && dj_to_int64(f, &n))
	{
		ci->has_read_version = true;
		ci->read_version = (int64) n;
	}
	f = field(v, "engineInfo");
	if (f && f->type == DJ_STRING)
		ci->engine_info = unconstify(char *, f->u.str);
	f = field(v, "timestamp");
	if (f && f->type == DJ_NUMBER && dj_to_int64(f, &n))
	{
		ci->has_timestamp = true;
		ci->timestamp = (int64) n;
	}
	f = field(v, "inCommitTimestamp");
	if (f && f->type == DJ_NUMBER && dj_to_int64(f, &n))
	{
		ci->has_in_commit_timestamp = true;
		ci->in_commit_timestamp = (int64) n;
	}
	f = field(v, "tags");
	if (f && f->type == DJ_OBJECT)
	{
		const DjValue *t = dj_get(f, "delta.identity.schemaUpdate");

		ci->identity_schema_update =
			(t != NULL && t->type == DJ_STRING && strcmp(t->u.str, "true") == 0);
	}
	f = field(v, "txnId");
	if (f && f->type == DJ_STRING)
		ci->txn_id = unconstify(char *, f->u.str);
	b->commit_info = ci;
}

/*
 * The commitInfo object of ci as a tree: ci->info, or its text parsed now
 * (in CurrentMemoryContext; a scanner validated it when it kept the text).
 */
static const DjValue *
commit_info_tree(const DeltaCommitInfo *ci)
{
	DjValue    *v;

	if (ci->info != NULL)
		return ci->info;
	Assert(ci->info_json != NULL);
	v = palloc(sizeof(DjValue));
	*v = dc_json_parse(ci->info_json, strlen(ci->info_json), "commitInfo",
					   ERRCODE_DATA_CORRUPTED);
	return v;
}

/*
 * DeltaCommitInfoJson: see actions.h.
 */
char *
DeltaCommitInfoJson(const DeltaCommitInfo *ci)
{
	return dc_dj_to_json(commit_info_tree(ci));
}

/*
 * DeltaCommitInfoOperationParametersJson: see actions.h.
 */
char *
DeltaCommitInfoOperationParametersJson(const DeltaCommitInfo *ci)
{
	const DjValue *f = field(commit_info_tree(ci), "operationParameters");

	return f && f->type == DJ_OBJECT ? dc_dj_to_json(f) : NULL;
}

/* Decode txn. */
static void
decode_txn(DeltaCommitBuilder *b, const DjValue *v)
{
	DeltaTxn   *t;

	if (v->type != DJ_OBJECT)
		type_error("txn", "(action)", "an object", v);
	if (b->n_txns == b->cap_txns)
	{
		b->cap_txns = b->cap_txns == 0 ? 4 : b->cap_txns * 2;
		b->txns = b->txns ? repalloc_huge(b->txns, sizeof(DeltaTxn) * b->cap_txns)
			: MemoryContextAlloc(b->cxt, sizeof(DeltaTxn) * b->cap_txns);
	}
	t = &b->txns[b->n_txns++];
	memset(t, 0, sizeof(*t));
	t->app_id = req_string(b, v, "txn", "appId");
	t->txn_version = to_int64(req_field(v, "txn", "version"), "txn", "version");
	t->has_last_updated = opt_int64(v, "txn", "lastUpdated", &t->last_updated);
}

/* Decode domainMetadata. */
static void
decode_domain(DeltaCommitBuilder *b, const DjValue *v)
{
	DeltaDomain *d;

	if (v->type != DJ_OBJECT)
		type_error("domainMetadata", "(action)", "an object", v);
	if (b->n_domains == b->cap_domains)
	{
		b->cap_domains = b->cap_domains == 0 ? 4 : b->cap_domains * 2;
		b->domains = b->domains ?
			repalloc_huge(b->domains, sizeof(DeltaDomain) * b->cap_domains)
			: MemoryContextAlloc(b->cxt, sizeof(DeltaDomain) * b->cap_domains);
	}
	d = &b->domains[b->n_domains++];
	d->domain = req_string(b, v, "domainMetadata", "domain");
	d->configuration = req_string(b, v, "domainMetadata", "configuration");
	d->removed = to_bool(req_field(v, "domainMetadata", "removed"),
						 "domainMetadata", "removed");
}

/* Record a v2 checkpoint sidecar action (path and sizeInBytes). */
static void
decode_sidecar(DeltaCommitBuilder *b, const DjValue *v)
{
	int64		size = -1;

	if (v->type != DJ_OBJECT)
		type_error("sidecar", "(action)", "an object", v);
	if (b->n_sidecars == b->cap_sidecars)
	{
		b->cap_sidecars = b->cap_sidecars == 0 ? 4 : b->cap_sidecars * 2;
		b->sidecars = b->sidecars ?
			repalloc_huge(b->sidecars, sizeof(char *) * b->cap_sidecars)
			: MemoryContextAlloc(b->cxt, sizeof(char *) * b->cap_sidecars);
		b->sidecar_sizes = b->sidecar_sizes ?
			repalloc_huge(b->sidecar_sizes, sizeof(int64) * b->cap_sidecars)
			: MemoryContextAlloc(b->cxt, sizeof(int64) * b->cap_sidecars);
	}
	if (!opt_int64(v, "sidecar", "sizeInBytes", &size) || size < 0)
		size = -1;
	b->sidecar_sizes[b->n_sidecars] = size;
	b->sidecars[b->n_sidecars++] = req_string(b, v, "sidecar", "path");
}

/* Start collecting the actions of one commit in CurrentMemoryContext. */
void
DeltaCommitBuilderInit(DeltaCommitBuilder *b, int64 version)
{
	memset(b, 0, sizeof(*b));
	b->cxt = CurrentMemoryContext;
	b->strings.cxt = b->cxt;
	b->version = version;
}

/*
 * Decode one action object.  Every known key is decoded; unknown keys are
 * counted as an action and otherwise ignored.
 */
void
DeltaDecodeAction(DeltaCommitBuilder *b, const DjValue *action)
{
	uint32		i;

	if (action->type != DJ_OBJECT)
		ereport(ERROR,
				errcode(bad_entry_errcode()),
				errmsg("invalid Delta log entry"),
				errdetail("A log entry must be a JSON object, not %s.",
						  dj_type_name(action->type)));
	b->n_actions++;
	for (i = 0; i < action->len; i++)
	{
		const DjMember *m = &action->u.members[i];
		const DjValue *v = &m->value;

		CHECK_FOR_INTERRUPTS();
		if (v->type == DJ_NULL)
			continue;			/* e.g. checkpoint rows with null columns */
		if (strcmp(m->key, "add") == 0)
			decode_file(b, v, DELTA_FILE_ADD, "add");
		else if (strcmp(m->key, "remove") == 0)
			decode_file(b, v, DELTA_FILE_REMOVE, "remove");
		else if (strcmp(m->key, "cdc") == 0)
			decode_file(b, v, DELTA_FILE_CDC, "cdc");
		else if (strcmp(m->key, "metaData") == 0)
			decode_metadata(b, v);
		else if (strcmp(m->key, "protocol") == 0)
			decode_protocol(b, v);
		else if (strcmp(m->key, "commitInfo") == 0)
			decode_commit_info(b, v);
		else if (strcmp(m->key, "txn") == 0)
			decode_txn(b, v);
		else if (strcmp(m->key, "domainMetadata") == 0)
			decode_domain(b, v);
		else if (strcmp(m->key, "sidecar") == 0)
			decode_sidecar(b, v);
		else if (strcmp(m->key, "checkpointMetadata") == 0)
			b->has_checkpoint_metadata = true;
		/* anything else: unknown action, ignored as Delta requires */
	}
}

/*
 * Produce the DeltaCommit from the builder, arrays shrunk to size, in
 * b->cxt.
 */
DeltaCommit *
DeltaCommitBuilderFinish(DeltaCommitBuilder *b)
{
	DeltaCommit *c = MemoryContextAllocZero(b->cxt, sizeof(DeltaCommit));

	c->version = b->version;
	c->n_files = b->n_files;
	if (b->n_files > 0 && b->n_files < b->cap_files)
		b->files = repalloc_huge(b->files, sizeof(DeltaFileAction) * b->n_files);
	c->files = b->files;
	c->metadata = b->metadata;
	c->protocol = b->protocol;
	c->commit_info = b->commit_info;
	c->n_txns = b->n_txns;
	c->txns = b->txns;
	c->n_domains = b->n_domains;
	c->domains = b->domains;
	c->n_actions = b->n_actions;
	c->has_checkpoint_metadata = b->has_checkpoint_metadata;
	c->n_sidecars = b->n_sidecars;
	c->sidecars = b->sidecars;
	c->sidecar_sizes = b->sidecar_sizes;
	return c;
}

/*
 * DeltaCommitIndexFiles: see actions.h.
 */
void
DeltaCommitIndexFiles(DeltaCommit *c)
{
	int			i;

	c->adds = palloc_extended(sizeof(DeltaFileAction *) * Max(c->n_files, 1),
							  MCXT_ALLOC_HUGE);
	c->n_adds = 0;
	c->n_removes = 0;
	c->adds_with_dv = false;
	for (i = 0; i < c->n_files; i++)
	{
		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		if (c->files[i].kind == DELTA_FILE_ADD)
		{
			c->adds[c->n_adds++] = &c->files[i];
			if (c->files[i].dv != NULL)
				c->adds_with_dv = true;
		}
		else if (c->files[i].kind == DELTA_FILE_REMOVE)
			c->n_removes++;
	}
}

/*
 * Decode a JSON array of action objects into one DeltaCommit
 * (CurrentMemoryContext).
 */
DeltaCommit *
DeltaDecodeActionArray(const DjValue *array, int64 version)
{
	DeltaCommitBuilder b;
	DeltaArgumentContext ctx;
	uint32		i;
	DeltaCommit *c;

	if (array->type != DJ_ARRAY)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("Delta actions must be a JSON array of action objects"));
	DeltaCommitBuilderInit(&b, version);
	DeltaArgumentContextPush(&ctx, "the actions argument");
	for (i = 0; i < array->len; i++)
	{
		CHECK_FOR_INTERRUPTS();
		ctx.item = (int) i + 1;
		DeltaDecodeAction(&b, &array->u.items[i]);
	}
	DeltaArgumentContextPop(&ctx);
	c = DeltaCommitBuilderFinish(&b);
	return c;
}

/*
 * See actions.h: the name of the first field in which a and b differ, or
 * NULL when they are equal field by field.  Allocates nothing.
 */
const char *
DeltaFileActionDiff(const DeltaFileAction *a, const DeltaFileAction *b)
{
	int			i;

	if (a->kind != b->kind)
		return "kind";
	if (!DeltaStrEqual(a->path, b->path))
		return "path";
	if (a->pv.n != b->pv.n || a->pv.is_null_map != b->pv.is_null_map)
		return "partitionValues";
	for (i = 0; i < a->pv.n; i++)
		if (!DeltaStrEqual(a->pv.keys[i], b->pv.keys[i]) ||
			!DeltaStrEqual(a->pv.values[i], b->pv.values[i]))
			return "partitionValues";
	if (a->has_size != b->has_size || a->size != b->size)
		return "size";
	if (a->has_modification_time != b->has_modification_time ||
		a->modification_time != b->modification_time)
		return "modificationTime";
	if (a->data_change != b->data_change)
		return "dataChange";
	if (a->has_deletion_timestamp != b->has_deletion_timestamp ||
		a->deletion_timestamp != b->deletion_timestamp)
		return "deletionTimestamp";
	if (a->extended_file_metadata != b->extended_file_metadata)
		return "extendedFileMetadata";
	if (a->stats_escaped || b->stats_escaped)
		return "stats (an escaped match is no text)";
	if (!DeltaStrEqual(a->stats, b->stats))
		return "stats";
	if (!DeltaStrEqual(a->stats_parsed_json, b->stats_parsed_json))
		return "stats_parsed";
	if (!DeltaStrEqual(a->tags_json, b->tags_json))
		return "tags";
	if ((a->dv == NULL) != (b->dv == NULL))
		return "deletionVector";
	if (a->dv != NULL &&
		(a->dv->storage_type != b->dv->storage_type ||
		 !DeltaStrEqual(a->dv->path_or_inline, b->dv->path_or_inline) ||
		 a->dv->has_offset != b->dv->has_offset ||
		 a->dv->offset != b->dv->offset ||
		 a->dv->size_in_bytes != b->dv->size_in_bytes ||
		 a->dv->cardinality != b->dv->cardinality ||
		 !DeltaStrEqual(a->dv->unique_id, b->dv->unique_id)))
		return "deletionVector";
	if (a->has_base_row_id != b->has_base_row_id ||
		a->base_row_id != b->base_row_id)
		return "baseRowId";
	if (a->has_default_row_commit_version != b->has_default_row_commit_version ||
		a->default_row_commit_version != b->default_row_commit_version)
		return "defaultRowCommitVersion";
	if (a->has_num_records != b->has_num_records ||
		a->num_records != b->num_records)
		return "numRecords";
	if (a->tight_bounds != b->tight_bounds)
		return "tightBounds";
	if (a->version != b->version)
		return "version";
	return NULL;
}
