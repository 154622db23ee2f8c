/*-------------------------------------------------------------------------
 *
 * parquet.c
 *	  A bounded Parquet reader: footer, schema, pages, encodings, records.
 *
 * Layout of the work:
 *	  - pq_open reads the footer (FileMetaData, Thrift compact), builds the
 *		schema tree and the row-group / column-chunk table.
 *	  - pq_reader_load_row_group reads each projected column chunk in one
 *		piece, walks its pages, decompresses them and decodes repetition
 *		levels, definition levels and values into flat arrays (LeafData).
 *	  - pq_reader_next assembles one record from those arrays by walking
 *		the projected schema (Dremel record assembly) into a PqValue tree.
 *
 * Every count and length from the file is checked before use: offsets and
 * sizes against the file size and the enclosing buffer, value counts
 * against the declared counts and PqLimits.  Malformed input gives a
 * returned error, never a crash or an unbounded allocation.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/parquet.c
 *
 *-------------------------------------------------------------------------
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include "bytes.h"
#include "parquet.h"
#include "snappy.h"
#include "thrift.h"

/* Codecs (parquet.thrift CompressionCodec). */
#define CODEC_UNCOMPRESSED 0
#define CODEC_SNAPPY	1
#define CODEC_GZIP		2
#define CODEC_LZO		3
#define CODEC_BROTLI	4
#define CODEC_LZ4		5
#define CODEC_ZSTD		6
#define CODEC_LZ4_RAW	7

/* Encodings. */
#define ENC_PLAIN		0
#define ENC_PLAIN_DICTIONARY 2
#define ENC_RLE			3
#define ENC_BIT_PACKED	4
#define ENC_DELTA_BINARY_PACKED 5
#define ENC_DELTA_LENGTH_BYTE_ARRAY 6
#define ENC_DELTA_BYTE_ARRAY 7
#define ENC_RLE_DICTIONARY 8
#define ENC_BYTE_STREAM_SPLIT 9

/* Page types. */
#define PAGE_DATA		0
#define PAGE_INDEX		1
#define PAGE_DICTIONARY 2
#define PAGE_DATA_V2	3

#define MAX_DECIMAL_BYTES 128
#define MAX_FIXED_LEN	(1 << 24)

/* A byte string inside a decoded buffer. */
typedef struct PqBytes
{
	const uint8_t *p;
	uint32_t	len;
} PqBytes;

typedef struct ChunkMeta
{
	int32_t		type;
	int32_t		codec;
	int64_t		num_values;
	int64_t		total_compressed;
	int64_t		data_page_offset;
	bool		has_dict_offset;
	int64_t		dict_page_offset;
} ChunkMeta;

typedef struct RowGroup
{
	int64_t		num_rows;
	int64_t		first_row;
	ChunkMeta  *cols;
} RowGroup;

struct PqFile
{
	PqReadAtFn	read_at;
	void	   *ctx;
	const uint8_t *mem;			/* pq_open_buffer */
	uint64_t	size;
	FmtAllocator alloc;
	PqLimits	lim;
	PqSchemaNode *root;
	PqSchemaNode **nodes;
	int			nnodes;
	PqSchemaNode **leaves;
	int			nleaves;
	int64_t		num_rows;
	int			nrg;
	RowGroup   *rgs;
	const char *created_by;
	int			nkv;
	const char **kv_keys;
	const char **kv_vals;
};

/* Decoded data of one column chunk. */
typedef struct LeafData
{
	const PqSchemaNode *leaf;
	uint64_t	cap;			/* entries declared by the chunk */
	uint64_t	n;				/* level entries decoded */
	uint8_t    *def;			/* NULL when max_def == 0 */
	uint8_t    *rep;			/* NULL when max_rep == 0 */
	size_t		esize;			/* bytes per stored value */
	uint8_t    *vals;			/* nvals values of esize bytes */
	uint64_t	nvals;
	uint64_t	vcap;			/* room in vals (grown as pages need it) */
	uint64_t	pos;			/* assembly cursor: next entry */
	uint64_t	vpos;			/* assembly cursor: next value */
	/* dictionary of the chunk */
	uint8_t    *dict;
	uint64_t	ndict;
	bool		has_dict;
} LeafData;

struct PqReader
{
	PqFile	   *f;
	bool	   *selected;		/* per node_index */
	int		   *first_leaf;		/* per node_index: first selected leaf */
	/*
	 * The selected leaves in schema order (depth first): those under node
	 * i are dfs_leaf[dfs_start[i] .. dfs_end[i]), as a subtree's leaves
	 * are consecutive in that order (consume_absent walks them flat).
	 */
	int		   *dfs_leaf;
	int		   *dfs_start;		/* per node_index */
	int		   *dfs_end;
	LeafData   *leaves;			/* per leaf index */
	int			rg;				/* loaded row group, -1 none */
	int64_t		row_in_rg;
	int			next_any_rg;	/* pq_reader_next_any state */
	bool		any_started;
	z_stream   *zs;				/* reused inflate state */
	ZSTD_DCtx  *zdctx;			/* reused zstd context */
	PqReaderStats stats;		/* what the loaded pages used */
};

/* ---------- errors and small helpers ---------- */

#if defined(__GNUC__) || defined(__clang__)
#define PQ_PRINTF_ATTR __attribute__((format(printf, 2, 3)))
#else
#define PQ_PRINTF_ATTR
#endif

static bool pq_fail(PqError *err, const char *fmt,...) PQ_PRINTF_ATTR;

/*
 * pq_fail: format the error message into *err (when not NULL); always
 * returns false so callers can "return pq_fail(...)".
 */
static bool
pq_fail(PqError *err, const char *fmt,...)
{
	va_list		ap;

	if (err)
	{
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return false;
}

/* The out-of-memory failure of pq_alloc and pq_alloc_raw: NULL. */
static void *
pq_alloc_failed(size_t n, PqError *err)
{
	pq_fail(err, "out of memory while reading parquet data (%zu bytes requested)", n);
	return NULL;
}

/* Zeroed memory from the allocator, or NULL with err set. */
static void *
pq_alloc(const FmtAllocator *a, size_t n, PqError *err)
{
	void	   *p = fmt_alloc(a, n);

	return p ? p : pq_alloc_failed(n, err);
}

/* pq_alloc for a buffer the caller fills whole (fmt_alloc_raw). */
static void *
pq_alloc_raw(const FmtAllocator *a, size_t n, PqError *err)
{
	void	   *p = fmt_alloc_raw(a, n);

	return p ? p : pq_alloc_failed(n, err);
}

/* Allocate count elements of size each, checking the product. */
static void *
pq_alloc_array(const FmtAllocator *a, uint64_t count, size_t size, PqError *err)
{
	if (size != 0 && count > (uint64_t) (SIZE_MAX / 4) / size)
	{
		pq_fail(err, "parquet array too large (%llu elements)", (unsigned long long) count);
		return NULL;
	}
	return pq_alloc(a, (size_t) (count * size), err);
}

static char *
dup_str(const FmtAllocator *a, const uint8_t *s, uint32_t len, PqError *err)
{
	char	   *d = pq_alloc(a, (size_t) len + 1, err);

	if (d == NULL)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/*
 * Read len bytes at off through the callback (or from memory); the range is
 * checked against the file size first.
 */
static bool
file_read(PqFile *f, uint64_t off, size_t len, void *buf, PqError *err)
{
	if (off > f->size || len > f->size - off)
		return pq_fail(err, "read past the end of the parquet file (offset %llu, length %zu, file size %llu)",
					   (unsigned long long) off, len, (unsigned long long) f->size);
	if (len == 0)
		return true;
	if (f->mem)
	{
		memcpy(buf, f->mem + off, len);
		return true;
	}
	if (f->read_at(f->ctx, off, len, buf) != 0)
		return pq_fail(err, "could not read parquet file at offset %llu", (unsigned long long) off);
	return true;
}

static int
mem_read_at(void *ctx, uint64_t off, size_t len, void *buf)
{
	memcpy(buf, (const uint8_t *) ctx + off, len);
	return 0;
}

static bool
thr_check(ThrReader *t, const char *what, PqError *err)
{
	if (t->failed)
		return pq_fail(err, "malformed parquet %s: %s", what, t->error);
	return true;
}

/* ---------- footer: schema elements ---------- */

typedef struct SElem
{
	const uint8_t *name;
	uint32_t	namelen;
	bool		has_type;
	int32_t		type;
	int32_t		type_length;
	bool		has_rep;
	int32_t		rep;
	bool		has_nc;
	int32_t		nc;
	int32_t		conv;
	int32_t		scale;
	int32_t		precision;
	bool		has_fid;
	int32_t		fid;
	PqLogicalType lt;
} SElem;

/* TimeUnit union. */
static PqTimeUnit
parse_time_unit(ThrReader *t, int type)
{
	int16_t		last = 0,
				id;
	int			ft;
	PqTimeUnit	u = PQ_MICROS;

	if (!thr_struct_enter(t, type, "time unit is not a struct"))
		return u;
	while (thr_field(t, &last, &ft, &id))
	{
		if (id == 1)
			u = PQ_MILLIS;
		else if (id == 2)
			u = PQ_MICROS;
		else if (id == 3)
			u = PQ_NANOS;
		else
			thr_fail(t, "unknown time unit");
		thr_skip(t, ft);
	}
	thr_struct_end(t);
	return u;
}

/* TimeType / TimestampType. */
static void
parse_time_type(ThrReader *t, int type, PqLogicalType *lt)
{
	int16_t		last = 0,
				id;
	int			ft;

	if (!thr_struct_enter(t, type, "time type is not a struct"))
		return;
	while (thr_field(t, &last, &ft, &id))
	{
		if (id == 1)
			lt->utc = thr_bool(t, ft);
		else if (id == 2)
			lt->unit = parse_time_unit(t, ft);
		else
			thr_skip(t, ft);
	}
	thr_struct_end(t);
}

/* The LogicalType union. */
static void
parse_logical(ThrReader *t, int type, PqLogicalType *lt)
{
	int16_t		last = 0,
				id;
	int			ft;

	memset(lt, 0, sizeof(*lt));
	if (!thr_struct_enter(t, type, "logical type is not a struct"))
		return;
	while (thr_field(t, &last, &ft, &id))
	{
		switch (id)
		{
			case 1:
				lt->kind = PQ_LT_STRING;
				thr_skip(t, ft);
				break;
			case 2:
				lt->kind = PQ_LT_MAP;
				thr_skip(t, ft);
				break;
			case 3:
				lt->kind = PQ_LT_LIST;
				thr_skip(t, ft);
				break;
			case 4:
				lt->kind = PQ_LT_ENUM;
				thr_skip(t, ft);
				break;
			case 5:
				{
					int16_t		l2 = 0,
								id2;
					int			ft2;

					lt->kind = PQ_LT_DECIMAL;
					if (!thr_struct_enter(t, ft, "decimal type is not a struct"))
						break;
					while (thr_field(t, &l2, &ft2, &id2))
					{
						if (id2 == 1)
							lt->scale = thr_i32(t, ft2);
						else if (id2 == 2)
							lt->precision = thr_i32(t, ft2);
						else
							thr_skip(t, ft2);
					}
					thr_struct_end(t);
				}
				break;
			case 6:
				lt->kind = PQ_LT_DATE;
				thr_skip(t, ft);
				break;
			case 7:
				lt->kind = PQ_LT_TIME;
				parse_time_type(t, ft, lt);
				break;
			case 8:
				lt->kind = PQ_LT_TIMESTAMP;
				parse_time_type(t, ft, lt);
				break;
			case 10:
				{
					int16_t		l2 = 0,
								id2;
					int			ft2;

					lt->kind = PQ_LT_INTEGER;
					lt->bit_width = 32;
					lt->is_signed = true;
					if (!thr_struct_enter(t, ft, "integer type is not a struct"))
						break;
					while (thr_field(t, &l2, &ft2, &id2))
					{
						if (id2 == 1)
							lt->bit_width = (int8_t) thr_i32(t, ft2);
						else if (id2 == 2)
							lt->is_signed = thr_bool(t, ft2);
						else
							thr_skip(t, ft2);
					}
					thr_struct_end(t);
				}
				break;
			case 11:
				lt->kind = PQ_LT_NULL;
				thr_skip(t, ft);
				break;
			case 12:
				lt->kind = PQ_LT_JSON;
				thr_skip(t, ft);
				break;
			case 13:
				lt->kind = PQ_LT_BSON;
				thr_skip(t, ft);
				break;
			case 14:
				lt->kind = PQ_LT_UUID;
				thr_skip(t, ft);
				break;
			case 15:
				lt->kind = PQ_LT_FLOAT16;
				thr_skip(t, ft);
				break;
			default:
				lt->kind = PQ_LT_OTHER;
				thr_skip(t, ft);
				break;
		}
	}
	thr_struct_end(t);
}

static void
parse_schema_element(ThrReader *t, SElem *e)
{
	int16_t		last = 0,
				id;
	int			ft;

	memset(e, 0, sizeof(*e));
	e->conv = -1;
	thr_struct_begin(t);
	while (thr_field(t, &last, &ft, &id))
	{
		switch (id)
		{
			case 1:
				e->has_type = true;
				e->type = thr_i32(t, ft);
				break;
			case 2:
				e->type_length = thr_i32(t, ft);
				break;
			case 3:
				e->has_rep = true;
				e->rep = thr_i32(t, ft);
				break;
			case 4:
				e->name = thr_binary(t, ft, &e->namelen);
				break;
			case 5:
				e->has_nc = true;
				e->nc = thr_i32(t, ft);
				break;
			case 6:
				e->conv = thr_i32(t, ft);
				break;
			case 7:
				e->scale = thr_i32(t, ft);
				break;
			case 8:
				e->precision = thr_i32(t, ft);
				break;
			case 9:
				e->has_fid = true;
				e->fid = thr_i32(t, ft);
				break;
			case 10:
				parse_logical(t, ft, &e->lt);
				break;
			default:
				thr_skip(t, ft);
				break;
		}
	}
	thr_struct_end(t);
}

/* The effective logical type from the LogicalType or the converted type. */
static bool
derive_logical(PqSchemaNode *n, const SElem *e, PqError *err)
{
	if (e->lt.kind != PQ_LT_NONE)
		n->logical = e->lt;
	else
	{
		PqLogicalType *lt = &n->logical;

		memset(lt, 0, sizeof(*lt));
		switch (e->conv)
		{
			case PQ_CT_UTF8:
				lt->kind = PQ_LT_STRING;
				break;
			case PQ_CT_ENUM:
				lt->kind = PQ_LT_ENUM;
				break;
			case PQ_CT_JSON:
				lt->kind = PQ_LT_JSON;
				break;
			case PQ_CT_BSON:
				lt->kind = PQ_LT_BSON;
				break;
			case PQ_CT_MAP:
			case PQ_CT_MAP_KEY_VALUE:
				lt->kind = PQ_LT_MAP;
				break;
			case PQ_CT_LIST:
				lt->kind = PQ_LT_LIST;
				break;
			case PQ_CT_DECIMAL:
				lt->kind = PQ_LT_DECIMAL;
				lt->scale = e->scale;
				lt->precision = e->precision;
				break;
			case PQ_CT_DATE:
				lt->kind = PQ_LT_DATE;
				break;
			case PQ_CT_TIME_MILLIS:
			case PQ_CT_TIME_MICROS:
				lt->kind = PQ_LT_TIME;
				lt->unit = e->conv == PQ_CT_TIME_MILLIS ? PQ_MILLIS : PQ_MICROS;
				lt->utc = true;
				break;
			case PQ_CT_TIMESTAMP_MILLIS:
			case PQ_CT_TIMESTAMP_MICROS:
				lt->kind = PQ_LT_TIMESTAMP;
				lt->unit = e->conv == PQ_CT_TIMESTAMP_MILLIS ? PQ_MILLIS : PQ_MICROS;
				lt->utc = true;
				break;
			case PQ_CT_UINT_8:
			case PQ_CT_UINT_16:
			case PQ_CT_UINT_32:
			case PQ_CT_UINT_64:
			case PQ_CT_INT_8:
			case PQ_CT_INT_16:
			case PQ_CT_INT_32:
			case PQ_CT_INT_64:
				{
					static const int8_t widths[] = {8, 16, 32, 64};
					int			k = e->conv >= PQ_CT_INT_8 ? e->conv - PQ_CT_INT_8 : e->conv - PQ_CT_UINT_8;

					lt->kind = PQ_LT_INTEGER;
					lt->bit_width = widths[k];
					lt->is_signed = e->conv >= PQ_CT_INT_8;
				}
				break;
			default:
				break;
		}
	}
	if (n->logical.kind == PQ_LT_DECIMAL)
	{
		if (n->logical.precision <= 0 || n->logical.scale < 0 ||
			n->logical.scale > n->logical.precision || n->logical.precision > 1000)
			return pq_fail(err, "parquet column \"%s\" has an invalid decimal precision %d or scale %d",
						   n->name, n->logical.precision, n->logical.scale);
		if (n->type != PQ_INT32 && n->type != PQ_INT64 && n->type != PQ_BYTE_ARRAY &&
			n->type != PQ_FIXED_LEN_BYTE_ARRAY)
			return pq_fail(err, "parquet column \"%s\" has a decimal annotation on an unsupported physical type", n->name);
	}
	if (n->logical.kind == PQ_LT_INTEGER &&
		n->logical.bit_width != 8 && n->logical.bit_width != 16 &&
		n->logical.bit_width != 32 && n->logical.bit_width != 64)
		return pq_fail(err, "parquet column \"%s\" has an invalid integer bit width", n->name);
	return true;
}

typedef struct SchemaBuild
{
	PqFile	   *f;
	SElem	   *elems;
	uint32_t	nelems;
	uint32_t	next;
	PqError    *err;
} SchemaBuild;

/* Build the node for elems[next] and its subtree (preorder). */
static PqSchemaNode *
build_node(SchemaBuild *b, PqSchemaNode *parent, int depth)
{
	PqFile	   *f = b->f;
	const SElem *e;
	PqSchemaNode *n;
	int			i;

	if (depth > f->lim.max_depth)
	{
		pq_fail(b->err, "parquet schema nesting exceeds %d levels", f->lim.max_depth);
		return NULL;
	}
	if (b->next >= b->nelems)
	{
		pq_fail(b->err, "parquet schema has fewer elements than its groups declare");
		return NULL;
	}
	e = &b->elems[b->next];
	n = pq_alloc(&f->alloc, sizeof(PqSchemaNode), b->err);
	if (n == NULL)
		return NULL;
	n->node_index = (int) b->next;
	f->nodes[b->next] = n;
	b->next++;
	if (e->name == NULL)
	{
		pq_fail(b->err, "parquet schema element without a name");
		return NULL;
	}
	if (memchr(e->name, 0, e->namelen) != NULL)
	{
		pq_fail(b->err, "parquet schema element name contains a NUL byte");
		return NULL;
	}
	n->name = dup_str(&f->alloc, e->name, e->namelen, b->err);
	if (n->name == NULL)
		return NULL;
	n->parent = parent;
	n->type_length = e->type_length;
	n->converted = (PqConvertedType) e->conv;
	n->has_field_id = e->has_fid;
	n->field_id = e->fid;
	n->leaf_index = -1;
	if (parent == NULL)
		n->repetition = PQ_REQUIRED;
	else
	{
		if (!e->has_rep || e->rep < 0 || e->rep > 2)
		{
			pq_fail(b->err, "parquet schema element \"%s\" has no valid repetition type", n->name);
			return NULL;
		}
		n->repetition = (PqRepetition) e->rep;
	}
	n->max_def = parent ? parent->max_def + (n->repetition != PQ_REQUIRED) : 0;
	n->max_rep = parent ? parent->max_rep + (n->repetition == PQ_REPEATED) : 0;

	if (e->has_type && (parent != NULL || !e->has_nc))
	{
		/* a leaf */
		if (e->has_nc && e->nc != 0)
		{
			pq_fail(b->err, "parquet schema element \"%s\" has both a type and children", n->name);
			return NULL;
		}
		if (e->type < 0 || e->type > 7)
		{
			pq_fail(b->err, "parquet column \"%s\" has an unknown physical type %d", n->name, e->type);
			return NULL;
		}
		n->type = (PqPhysicalType) e->type;
		if (n->type == PQ_FIXED_LEN_BYTE_ARRAY &&
			(e->type_length <= 0 || e->type_length > MAX_FIXED_LEN))
		{
			pq_fail(b->err, "parquet column \"%s\" has an invalid fixed length %d", n->name, e->type_length);
			return NULL;
		}
		if (parent == NULL)
		{
			pq_fail(b->err, "parquet schema root is not a group");
			return NULL;
		}
		if (!derive_logical(n, e, b->err))
			return NULL;
		n->leaf_index = f->nleaves;
		f->leaves[f->nleaves++] = n;
		return n;
	}

	/* a group */
	n->type = PQ_GROUP;
	if (!derive_logical(n, e, b->err))
		return NULL;
	if (e->nc < 0 || (uint32_t) e->nc > b->nelems - b->next)
	{
		pq_fail(b->err, "parquet schema group \"%s\" declares %d children, more than the schema holds",
				n->name, e->nc);
		return NULL;
	}
	n->num_children = e->nc;
	n->children = pq_alloc_array(&f->alloc, (uint64_t) e->nc, sizeof(PqSchemaNode *), b->err);
	if (n->children == NULL)
		return NULL;
	for (i = 0; i < e->nc; i++)
	{
		n->children[i] = build_node(b, n, depth + 1);
		if (n->children[i] == NULL)
			return NULL;
	}
	return n;
}

/* ---------- footer: row groups ---------- */

static void
parse_column_meta(ThrReader *t, int type, ChunkMeta *cm)
{
	int16_t		last = 0,
				id;
	int			ft;

	if (!thr_struct_enter(t, type, "column metadata is not a struct"))
		return;
	while (thr_field(t, &last, &ft, &id))
	{
		switch (id)
		{
			case 1:
				cm->type = thr_i32(t, ft);
				break;
			case 4:
				cm->codec = thr_i32(t, ft);
				break;
			case 5:
				cm->num_values = thr_i64(t, ft);
				break;
			case 7:
				cm->total_compressed = thr_i64(t, ft);
				break;
			case 9:
				cm->data_page_offset = thr_i64(t, ft);
				break;
			case 11:
				cm->has_dict_offset = true;
				cm->dict_page_offset = thr_i64(t, ft);
				break;
			default:
				thr_skip(t, ft);
				break;
		}
	}
	thr_struct_end(t);
}

static bool
parse_row_group(PqFile *f, ThrReader *t, RowGroup *rg, PqError *err)
{
	int16_t		last = 0,
				id;
	int			ft;
	bool		have_cols = false;
	bool		have_rows = false;

	rg->cols = pq_alloc_array(&f->alloc, (uint64_t) f->nleaves, sizeof(ChunkMeta), err);
	if (rg->cols == NULL)
		return false;
	thr_struct_begin(t);
	while (thr_field(t, &last, &ft, &id))
	{
		if (id == 1)
		{
			int			et;
			uint32_t	n,
						i;

			if (!thr_list_begin(t, ft, &et, &n))
				break;
			if (et != THR_STRUCT || n != (uint32_t) f->nleaves)
			{
				thr_container_end(t);
				thr_struct_end(t);
				return pq_fail(err, "parquet row group has %u column chunks but the schema has %d columns",
							   n, f->nleaves);
			}
			for (i = 0; i < n && !t->failed; i++)
			{
				int16_t		l2 = 0,
							id2;
				int			ft2;
				bool		have_meta = false;
				ChunkMeta  *cm = &rg->cols[i];

				thr_struct_begin(t);
				while (thr_field(t, &l2, &ft2, &id2))
				{
					if (id2 == 1)
					{
						thr_skip(t, ft2);
						thr_struct_end(t);
						thr_container_end(t);
						thr_struct_end(t);
						return pq_fail(err, "parquet column chunks stored in other files are not supported");
					}
					else if (id2 == 3)
					{
						parse_column_meta(t, ft2, cm);
						have_meta = true;
					}
					else if (id2 == 8 || id2 == 9)
					{
						thr_struct_end(t);
						thr_container_end(t);
						thr_struct_end(t);
						return pq_fail(err, "encrypted parquet columns are not supported");
					}
					else
						thr_skip(t, ft2);
				}
				thr_struct_end(t);
				if (!t->failed && !have_meta)
					return pq_fail(err, "parquet column chunk without metadata");
			}
			thr_container_end(t);
			have_cols = true;
		}
		else if (id == 3)
		{
			rg->num_rows = thr_i64(t, ft);
			have_rows = true;
		}
		else
			thr_skip(t, ft);
	}
	thr_struct_end(t);
	if (!thr_check(t, "footer", err))
		return false;
	if (!have_cols || !have_rows)
		return pq_fail(err, "parquet row group without columns or row count");
	if (rg->num_rows < 0)
		return pq_fail(err, "parquet row group has a negative row count");
	return true;
}

static bool
parse_kv(PqFile *f, ThrReader *t, int ft, PqError *err)
{
	int			et;
	uint32_t	n,
				i;

	if (!thr_list_begin(t, ft, &et, &n))
		return thr_check(t, "footer", err);
	if (et != THR_STRUCT)
	{
		thr_fail(t, "key_value_metadata is not a list of structs");
		return thr_check(t, "footer", err);
	}
	f->kv_keys = pq_alloc_array(&f->alloc, n, sizeof(char *), err);
	f->kv_vals = pq_alloc_array(&f->alloc, n, sizeof(char *), err);
	if (f->kv_keys == NULL || f->kv_vals == NULL)
		return false;
	for (i = 0; i < n && !t->failed; i++)
	{
		int16_t		last = 0,
					id;
		int			ft2;
		const uint8_t *k = NULL,
				   *v = NULL;
		uint32_t	kl = 0,
					vl = 0;

		thr_struct_begin(t);
		while (thr_field(t, &last, &ft2, &id))
		{
			if (id == 1)
				k = thr_binary(t, ft2, &kl);
			else if (id == 2)
				v = thr_binary(t, ft2, &vl);
			else
				thr_skip(t, ft2);
		}
		thr_struct_end(t);
		if (k && !t->failed)
		{
			f->kv_keys[f->nkv] = dup_str(&f->alloc, k, kl, err);
			f->kv_vals[f->nkv] = v ? dup_str(&f->alloc, v, vl, err) : NULL;
			if (f->kv_keys[f->nkv] == NULL || (v && f->kv_vals[f->nkv] == NULL))
				return false;
			f->nkv++;
		}
	}
	thr_container_end(t);
	return thr_check(t, "footer", err);
}

static bool
parse_footer(PqFile *f, const uint8_t *buf, size_t len, PqError *err)
{
	ThrReader	t;
	int16_t		last = 0,
				id;
	int			ft;
	bool		have_schema = false;
	bool		have_rgs = false;
	uint32_t	i;
	int64_t		total = 0;

	thr_init(&t, buf, len, f->lim.max_depth + 8);
	thr_struct_begin(&t);
	while (thr_field(&t, &last, &ft, &id))
	{
		if (id == 2)
		{
			int			et;
			uint32_t	n;
			SchemaBuild b;

			if (have_schema)
				return pq_fail(err, "parquet footer has two schemas");
			if (!thr_list_begin(&t, ft, &et, &n))
				break;
			if (et != THR_STRUCT || n == 0)
				return pq_fail(err, "parquet footer has an empty or malformed schema");
			b.elems = pq_alloc_array(&f->alloc, n, sizeof(SElem), err);
			if (b.elems == NULL)
				return false;
			for (i = 0; i < n && !t.failed; i++)
				parse_schema_element(&t, &b.elems[i]);
			thr_container_end(&t);
			if (!thr_check(&t, "footer", err))
				return false;
			f->nodes = pq_alloc_array(&f->alloc, n, sizeof(PqSchemaNode *), err);
			f->leaves = pq_alloc_array(&f->alloc, n, sizeof(PqSchemaNode *), err);
			if (f->nodes == NULL || f->leaves == NULL)
				return false;
			b.f = f;
			b.nelems = n;
			b.next = 0;
			b.err = err;
			f->root = build_node(&b, NULL, 0);
			if (f->root == NULL)
				return false;
			if (b.next != n)
				return pq_fail(err, "parquet schema has %u elements but the tree holds %u", n, b.next);
			f->nnodes = (int) n;
			have_schema = true;
		}
		else if (id == 3)
			f->num_rows = thr_i64(&t, ft);
		else if (id == 4)
		{
			int			et;
			uint32_t	n;

			if (!have_schema)
				return pq_fail(err, "parquet footer lists row groups before the schema");
			if (!thr_list_begin(&t, ft, &et, &n))
				break;
			if (et != THR_STRUCT)
				return pq_fail(err, "parquet footer row groups are not structs");
			f->rgs = pq_alloc_array(&f->alloc, n, sizeof(RowGroup), err);
			if (f->rgs == NULL)
				return false;
			for (i = 0; i < n; i++)
			{
				if (!parse_row_group(f, &t, &f->rgs[i], err))
					return false;
				f->rgs[i].first_row = total;
				if (f->rgs[i].num_rows > INT64_MAX - total)
					return pq_fail(err, "parquet row counts overflow");
				total += f->rgs[i].num_rows;
			}
			f->nrg = (int) n;
			thr_container_end(&t);
			have_rgs = true;
		}
		else if (id == 5)
		{
			if (!parse_kv(f, &t, ft, err))
				return false;
		}
		else if (id == 6)
		{
			uint32_t	l;
			const uint8_t *s = thr_binary(&t, ft, &l);

			if (s && (f->created_by = dup_str(&f->alloc, s, l, err)) == NULL)
				return false;
		}
		else if (id == 8)
			return pq_fail(err, "encrypted parquet files are not supported");
		else
			thr_skip(&t, ft);
	}
	thr_struct_end(&t);
	if (!thr_check(&t, "footer", err))
		return false;
	if (!have_schema)
		return pq_fail(err, "parquet footer has no schema");
	if (!have_rgs)
		f->nrg = 0;
	if (f->num_rows != total)
		return pq_fail(err, "parquet footer row count %lld does not match its row groups (%lld)",
					   (long long) f->num_rows, (long long) total);
	/* the column chunks must agree with the schema */
	for (i = 0; i < (uint32_t) f->nrg; i++)
	{
		int			c;

		for (c = 0; c < f->nleaves; c++)
			if (f->rgs[i].cols[c].type != (int32_t) f->leaves[c]->type)
				return pq_fail(err, "parquet column chunk type does not match the schema of column \"%s\"",
							   f->leaves[c]->name);
	}
	return true;
}

/* ---------- open ---------- */

static void
set_limits(PqLimits *dst, const PqLimits *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src)
		*dst = *src;
	if (dst->max_depth <= 0 || dst->max_depth > 200)
		dst->max_depth = 64;
	if (dst->max_footer_size == 0)
		dst->max_footer_size = 256u * 1024 * 1024;
	if (dst->max_page_size == 0)
		dst->max_page_size = 512u * 1024 * 1024;
	if (dst->max_chunk_values == 0)
		dst->max_chunk_values = (uint64_t) 1 << 28;
}

PqFile *
pq_open(PqReadAtFn read_at, void *ctx, uint64_t file_size,
		const FmtAllocator *alloc, const PqLimits *limits, PqError *err)
{
	PqFile	   *f;
	uint8_t		tail[8];
	uint8_t		head[4];
	uint32_t	flen;
	uint8_t    *fbuf;

	err->message[0] = '\0';
	f = pq_alloc(alloc, sizeof(PqFile), err);
	if (f == NULL)
		return NULL;
	f->read_at = read_at;
	f->ctx = ctx;
	f->size = file_size;
	f->alloc = *alloc;
	set_limits(&f->lim, limits);
	if (read_at == mem_read_at)
		f->mem = ctx;

	if (file_size < 12)
	{
		pq_fail(err, "file too small to be parquet (%llu bytes)", (unsigned long long) file_size);
		return NULL;
	}
	if (!file_read(f, 0, 4, head, err) || !file_read(f, file_size - 8, 8, tail, err))
		return NULL;
	if (memcmp(tail + 4, "PARE", 4) == 0)
	{
		pq_fail(err, "encrypted parquet files are not supported");
		return NULL;
	}
	if (memcmp(head, "PAR1", 4) != 0 || memcmp(tail + 4, "PAR1", 4) != 0)
	{
		pq_fail(err, "not a parquet file (bad magic)");
		return NULL;
	}
	flen = get_le32(tail);
	if ((uint64_t) flen > file_size - 12)
	{
		pq_fail(err, "parquet footer length %u exceeds the file size %llu", flen,
				(unsigned long long) file_size);
		return NULL;
	}
	if (flen > f->lim.max_footer_size)
	{
		pq_fail(err, "parquet footer length %u exceeds the limit of %u bytes", flen, f->lim.max_footer_size);
		return NULL;
	}
	fbuf = pq_alloc(alloc, flen, err);
	if (fbuf == NULL)
		return NULL;
	if (!file_read(f, file_size - 8 - flen, flen, fbuf, err))
		return NULL;
	if (!parse_footer(f, fbuf, flen, err))
		return NULL;
	return f;
}

PqFile *
pq_open_buffer(const uint8_t *buf, size_t len, const FmtAllocator *alloc,
			   const PqLimits *limits, PqError *err)
{
	return pq_open(mem_read_at, (void *) buf, len, alloc, limits, err);
}

/* ---------- metadata accessors ---------- */

const PqSchemaNode *
pq_schema_root(const PqFile *f)
{
	return f->root;
}

int
pq_num_columns(const PqFile *f)
{
	return f->nleaves;
}

const PqSchemaNode *
pq_column(const PqFile *f, int i)
{
	return (i >= 0 && i < f->nleaves) ? f->leaves[i] : NULL;
}

/* Child of n named name[0..len). */
static const PqSchemaNode *
find_child(const PqSchemaNode *n, const char *name, size_t len)
{
	int			i;

	for (i = 0; i < n->num_children; i++)
		if (strlen(n->children[i]->name) == len && memcmp(n->children[i]->name, name, len) == 0)
			return n->children[i];
	return NULL;
}

const PqSchemaNode *
pq_schema_find(const PqFile *f, const char *path)
{
	const PqSchemaNode *n = f->root;
	const char *p = path;

	while (n)
	{
		const char *dot = strchr(p, '.');
		size_t		len = dot ? (size_t) (dot - p) : strlen(p);

		n = find_child(n, p, len);
		if (dot == NULL)
			return n;
		p = dot + 1;
	}
	return NULL;
}

int64_t
pq_num_rows(const PqFile *f)
{
	return f->num_rows;
}

int
pq_num_row_groups(const PqFile *f)
{
	return f->nrg;
}

int64_t
pq_row_group_num_rows(const PqFile *f, int rg)
{
	return (rg >= 0 && rg < f->nrg) ? f->rgs[rg].num_rows : 0;
}

int64_t
pq_row_group_first_row(const PqFile *f, int rg)
{
	return (rg >= 0 && rg < f->nrg) ? f->rgs[rg].first_row : 0;
}

const char *
pq_created_by(const PqFile *f)
{
	return f->created_by;
}

const char *
pq_kv_metadata(const PqFile *f, const char *key)
{
	int			i;

	for (i = f->nkv - 1; i >= 0; i--)
		if (strcmp(f->kv_keys[i], key) == 0)
			return f->kv_vals[i];
	return NULL;
}

const PqValue *
pq_struct_get(const PqValue *v, const char *name)
{
	uint32_t	i;

	if (v == NULL || v->kind != PQV_STRUCT)
		return NULL;
	for (i = 0; i < v->len; i++)
		if (v->u.items[i].node && strcmp(v->u.items[i].node->name, name) == 0)
			return &v->u.items[i];
	return NULL;
}

const char *
pq_value_kind_name(int kind)
{
	static const char *const names[] = {
		"null", "bool", "int32", "int64", "float", "double", "bytes", "string",
		"decimal", "date", "timestamp", "struct", "list", "map"
	};

	if (kind < 0 || kind > PQV_MAP)
		return "unknown";
	return names[kind];
}

/* ---------- decompression ---------- */

static voidpf
z_alloc_cb(voidpf opaque, uInt items, uInt size)
{
	PqReader   *r = opaque;

	if (size != 0 && items > (SIZE_MAX / 4) / size)
		return NULL;
	return fmt_alloc(&r->f->alloc, (size_t) items * size);
}

static void
z_free_cb(voidpf opaque, voidpf p)
{
	(void) opaque;
	(void) p;
}

static void *
zstd_alloc_cb(void *opaque, size_t size)
{
	PqReader   *r = opaque;

	return fmt_alloc(&r->f->alloc, size);
}

static void
zstd_free_cb(void *opaque, void *p)
{
	(void) opaque;
	(void) p;
}

/* One raw LZ4 block that decompresses to exactly outlen bytes. */
static bool
lz4_raw(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen)
{
	int			n;

	if (inlen > INT32_MAX || outlen > INT32_MAX)
		return false;
	n = LZ4_decompress_safe((const char *) in, (char *) out, (int) inlen, (int) outlen);
	return n >= 0 && (size_t) n == outlen;
}

/* Hadoop's LZ4 framing: [be32 raw size][be32 compressed size][block]... */
static bool
lz4_hadoop(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen)
{
	size_t		ip = 0,
				op = 0;

	while (ip < inlen)
	{
		uint32_t	raw,
					comp;

		if (inlen - ip < 8)
			return false;
		raw = get_be32(in + ip);
		ip += 4;
		while (raw > 0)
		{
			int			got;

			if (inlen - ip < 4)
				return false;
			comp = get_be32(in + ip);
			ip += 4;
			if (comp > inlen - ip || comp > INT32_MAX || outlen - op > INT32_MAX)
				return false;
			got = LZ4_decompress_safe((const char *) in + ip, (char *) out + op, (int) comp, (int) (outlen - op));
			if (got < 0 || (uint32_t) got > raw)
				return false;
			ip += comp;
			op += (size_t) got;
			raw -= (uint32_t) got;
			if (got == 0)
				return false;
		}
	}
	return op == outlen;
}

/*
 * Decompress in[0..inlen) with codec into a new buffer of exactly outlen
 * bytes (the page header's uncompressed size); anything else is an error.
 */
static uint8_t *
decompress(PqReader *r, int codec, const uint8_t *in, size_t inlen, size_t outlen,
		   const FmtAllocator *a, PqError *err)
{
	uint8_t    *out;

	if (codec == CODEC_UNCOMPRESSED)
	{
		if (inlen != outlen)
		{
			pq_fail(err, "uncompressed parquet page sizes disagree (%zu and %zu)", inlen, outlen);
			return NULL;
		}
		return (uint8_t *) in;
	}
	/* (every codec below fills all outlen bytes or fails) */
	out = pq_alloc_raw(a, outlen, err);
	if (out == NULL)
		return NULL;
	switch (codec)
	{
		case CODEC_SNAPPY:
			/* (also fails when the block's own length is not outlen) */
			if (!snappy_decode(in, inlen, out, outlen))
				break;
			return out;
		case CODEC_GZIP:
			{
				int			rc;

				if (inlen > UINT32_MAX || outlen > UINT32_MAX)
					break;
				if (r->zs == NULL)
				{
					r->zs = pq_alloc(&r->f->alloc, sizeof(z_stream), err);
					if (r->zs == NULL)
						return NULL;
					r->zs->zalloc = z_alloc_cb;
					r->zs->zfree = z_free_cb;
					r->zs->opaque = r;
					if (inflateInit2(r->zs, 15 + 32) != Z_OK)
					{
						r->zs = NULL;
						pq_fail(err, "could not initialize gzip decompression");
						return NULL;
					}
				}
				else if (inflateReset(r->zs) != Z_OK)
					break;
				r->zs->next_in = (Bytef *) in;
				r->zs->avail_in = (uInt) inlen;
				r->zs->next_out = out;
				r->zs->avail_out = (uInt) outlen;
				rc = inflate(r->zs, Z_FINISH);
				if (rc != Z_STREAM_END || r->zs->avail_out != 0)
					break;
				return out;
			}
		case CODEC_ZSTD:
			{
				size_t		n;

				if (r->zdctx == NULL)
				{
					ZSTD_customMem cm;

					cm.customAlloc = zstd_alloc_cb;
					cm.customFree = zstd_free_cb;
					cm.opaque = r;
					r->zdctx = ZSTD_createDCtx_advanced(cm);
					if (r->zdctx == NULL)
					{
						pq_fail(err, "could not initialize zstd decompression");
						return NULL;
					}
				}
				n = ZSTD_decompressDCtx(r->zdctx, out, outlen, in, inlen);
				if (ZSTD_isError(n) || n != outlen)
					break;
				return out;
			}
		case CODEC_LZ4_RAW:
			if (lz4_raw(in, inlen, out, outlen))
				return out;
			break;
		case CODEC_LZ4:
			/* Hadoop's framing or, as older writers did, a raw block */
			if (lz4_hadoop(in, inlen, out, outlen) ||
				lz4_raw(in, inlen, out, outlen))
				return out;
			break;
		case CODEC_LZO:
			pq_fail(err, "parquet codec LZO is not supported");
			return NULL;
		case CODEC_BROTLI:
			pq_fail(err, "parquet codec BROTLI is not supported");
			return NULL;
		default:
			pq_fail(err, "unknown parquet compression codec %d", codec);
			return NULL;
	}
	pq_fail(err, "corrupt compressed parquet page (codec %d)", codec);
	return NULL;
}

/* ---------- RLE / bit-packed hybrid ---------- */

typedef struct Rle
{
	const uint8_t *p;
	const uint8_t *end;
	int			bw;
	uint64_t	left;			/* values left in the current run */
	bool		packed;
	uint64_t	value;			/* RLE run value */
	const uint8_t *pk;			/* bit-packed run data */
	uint64_t	pk_avail;		/* values available in pk */
	uint64_t	pk_idx;
} Rle;

static void
rle_init(Rle *d, const uint8_t *p, const uint8_t *end, int bw)
{
	memset(d, 0, sizeof(*d));
	d->p = p;
	d->end = end;
	d->bw = bw;
}

/* Read bw (<= 64) bits at bit offset bit of p (LSB first). */
static uint64_t
read_bits(const uint8_t *p, uint64_t bit, int bw)
{
	uint64_t	v = 0;
	int			got = 0;

	p += bit >> 3;
	bit &= 7;
	while (got < bw)
	{
		int			take = 8 - (int) bit;
		uint64_t	b = (*p >> bit) & ((1u << take) - 1);

		if (take > bw - got)
		{
			take = bw - got;
			b &= (1u << take) - 1;
		}
		v |= b << got;
		got += take;
		bit = 0;
		p++;
	}
	return v;
}

static bool
rle_varint(Rle *d, uint64_t *v)
{
	uint64_t	r = 0;
	int			shift = 0;

	while (d->p < d->end && shift < 64)
	{
		uint8_t		b = *d->p++;

		r |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
		{
			*v = r;
			return true;
		}
		shift += 7;
	}
	return false;
}

/* Next value of the hybrid stream; false when the data ends or is bad. */
static bool
rle_next(Rle *d, uint64_t *out)
{
	while (d->left == 0)
	{
		uint64_t	h;

		if (d->p >= d->end || !rle_varint(d, &h))
			return false;
		if (h & 1)
		{
			uint64_t	groups = h >> 1;
			uint64_t	bytes_avail = (uint64_t) (d->end - d->p);
			uint64_t	need;

			if (groups == 0 || groups > ((uint64_t) 1 << 40))
				return false;
			need = groups * (uint64_t) d->bw;
			d->packed = true;
			d->pk = d->p;
			d->pk_idx = 0;
			d->left = groups * 8;
			if (need > bytes_avail)
			{
				/* a short final run: only the values actually present */
				d->pk_avail = d->bw ? bytes_avail * 8 / (uint64_t) d->bw : d->left;
				d->p = d->end;
			}
			else
			{
				d->pk_avail = d->left;
				d->p += need;
			}
		}
		else
		{
			int			nb = (d->bw + 7) / 8;
			int			i;

			d->left = h >> 1;
			if (d->left == 0)
				return false;
			if (d->end - d->p < nb)
				return false;
			d->value = 0;
			for (i = 0; i < nb; i++)
				d->value |= (uint64_t) d->p[i] << (8 * i);
			d->p += nb;
			d->packed = false;
		}
	}
	if (d->packed)
	{
		if (d->pk_idx >= d->pk_avail)
			return false;
		*out = d->bw ? read_bits(d->pk, d->pk_idx * (uint64_t) d->bw, d->bw) : 0;
		d->pk_idx++;
	}
	else
		*out = d->value;
	d->left--;
	return true;
}

static int
bit_width_of(uint64_t v)
{
	int			w = 0;

	while (v)
	{
		w++;
		v >>= 1;
	}
	return w;
}

/*
 * Decode n levels (each <= max) into out.  Data page v1 prefixes RLE levels
 * with a 4-byte length (prefixed = true); v2 gives the length separately.
 * *pp advances past the level data.
 */
static bool
decode_levels(const uint8_t **pp, const uint8_t *end, int encoding, bool prefixed,
			  int max, uint8_t *out, uint64_t n, const char *what, PqError *err)
{
	const uint8_t *p = *pp;
	int			bw = bit_width_of((uint64_t) max);
	uint64_t	i;

	if (encoding == ENC_RLE)
	{
		const uint8_t *lend = end;
		Rle			d;

		if (prefixed)
		{
			uint32_t	l;

			if (end - p < 4)
				return pq_fail(err, "parquet %s levels truncated", what);
			l = get_le32(p);
			p += 4;
			if (l > (uint64_t) (end - p))
				return pq_fail(err, "parquet %s level length %u past the end of the page", what, l);
			lend = p + l;
		}
		rle_init(&d, p, lend, bw);
		for (i = 0; i < n; i++)
		{
			uint64_t	v;

			if (!rle_next(&d, &v))
				return pq_fail(err, "parquet %s levels ended early or are corrupt", what);
			if (v > (uint64_t) max)
				return pq_fail(err, "parquet %s level %llu exceeds the maximum %d", what,
							   (unsigned long long) v, max);
			out[i] = (uint8_t) v;
		}
		*pp = lend;
		return true;
	}
	if (encoding == ENC_BIT_PACKED)
	{
		/* deprecated: big-endian bit order, no length prefix */
		uint64_t	bytes = (n * (uint64_t) bw + 7) / 8;

		if (bytes > (uint64_t) (end - p))
			return pq_fail(err, "parquet %s levels truncated", what);
		for (i = 0; i < n; i++)
		{
			uint64_t	v = 0;
			int			k;

			for (k = 0; k < bw; k++)
			{
				uint64_t	bit = i * (uint64_t) bw + (uint64_t) k;

				v = (v << 1) | ((p[bit >> 3] >> (7 - (bit & 7))) & 1);
			}
			if (v > (uint64_t) max)
				return pq_fail(err, "parquet %s level exceeds the maximum", what);
			out[i] = (uint8_t) v;
		}
		*pp = p + bytes;
		return true;
	}
	return pq_fail(err, "unsupported parquet %s level encoding %d", what, encoding);
}

/* ---------- value decoding ---------- */

/* Width in bytes of a numeric type's values (0 for the other types). */
static size_t
numeric_width(PqPhysicalType t)
{
	switch (t)
	{
		case PQ_INT32:
		case PQ_FLOAT:
			return 4;
		case PQ_INT64:
		case PQ_DOUBLE:
			return 8;
		default:
			return 0;
	}
}

/* Size of one decoded value's slot: the number, a bool byte or a PqBytes. */
static size_t
value_size(PqPhysicalType t)
{
	size_t		w = numeric_width(t);

	if (t == PQ_BOOLEAN)
		return 1;
	return w != 0 ? w : sizeof(PqBytes);
}

/* Width in bytes of one plain fixed-width value (0 for BYTE_ARRAY). */
static size_t
plain_width(const PqSchemaNode *leaf)
{
	if (leaf->type == PQ_INT96)
		return 12;
	if (leaf->type == PQ_FIXED_LEN_BYTE_ARRAY)
		return (size_t) leaf->type_length;
	return numeric_width(leaf->type);
}

/*
 * n little-endian values of w bytes (4 or 8) from p into out as native
 * ones: a plain copy on a little-endian machine.
 */
static inline void
copy_le(uint8_t *out, const uint8_t *p, uint64_t n, size_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n > 0)
		memcpy(out, p, (size_t) n * w);
#else
	uint64_t	i;

	for (i = 0; i < n; i++)
	{
		if (w == 4)
		{
			uint32_t	v = get_le32(p + 4 * i);

			memcpy(out + 4 * i, &v, 4);
		}
		else
		{
			uint64_t	v = get_le64(p + 8 * i);

			memcpy(out + 8 * i, &v, 8);
		}
	}
#endif
}

/* PLAIN: n values from p..end into out (esize-sized slots). */
static bool
decode_plain(const PqSchemaNode *leaf, const uint8_t *p, const uint8_t *end,
			 uint64_t n, uint8_t *out, const uint8_t **after, PqError *err)
{
	uint64_t	i;
	uint64_t	avail = (uint64_t) (end - p);

	switch (leaf->type)
	{
		case PQ_BOOLEAN:
			if (n > avail * 8)
				return pq_fail(err, "parquet boolean values truncated");
			for (i = 0; i < n; i++)
				out[i] = (p[i >> 3] >> (i & 7)) & 1;
			p += (n + 7) / 8;
			break;
		case PQ_INT32:
		case PQ_FLOAT:
		case PQ_INT64:
		case PQ_DOUBLE:
			{
				size_t		w = plain_width(leaf);

				if (n > avail / w)
					return pq_fail(err, "parquet values truncated");
				copy_le(out, p, n, w);
				p += w * n;
			}
			break;
		case PQ_INT96:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			{
				size_t		w = plain_width(leaf);
				PqBytes    *b = (PqBytes *) out;

				if (n > avail / w)
					return pq_fail(err, "parquet values truncated");
				for (i = 0; i < n; i++)
				{
					b[i].p = p + w * i;
					b[i].len = (uint32_t) w;
				}
				p += w * n;
			}
			break;
		case PQ_BYTE_ARRAY:
			{
				PqBytes    *b = (PqBytes *) out;

				for (i = 0; i < n; i++)
				{
					uint32_t	l;

					if (end - p < 4)
						return pq_fail(err, "parquet byte array values truncated");
					l = get_le32(p);
					p += 4;
					if (l > (uint64_t) (end - p))
						return pq_fail(err, "parquet byte array length %u past the end of the page", l);
					b[i].p = p;
					b[i].len = l;
					p += l;
				}
			}
			break;
		default:
			return pq_fail(err, "unsupported parquet physical type");
	}
	if (after)
		*after = p;
	return true;
}

/* Read one unsigned varint from p..end. */
static bool
get_uvarint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	uint64_t	r = 0;
	int			shift = 0;
	const uint8_t *p = *pp;

	while (p < end && shift < 64)
	{
		uint8_t		b = *p++;

		r |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
		{
			*v = r;
			*pp = p;
			return true;
		}
		shift += 7;
	}
	return false;
}

/*
 * DELTA_BINARY_PACKED: decode the values of one stream.  The header's value
 * count must be <= max_count; the values (wrapping arithmetic, truncated to
 * 32 bits when is32) go to a new array *out of *count entries.  *after is
 * the first byte past the stream.
 */
static bool
decode_dbp(const uint8_t *p, const uint8_t *end, bool is32, uint64_t max_count,
		   const FmtAllocator *a, int64_t **out, uint64_t *count,
		   const uint8_t **after, PqError *err)
{
	uint64_t	block,
				nmini,
				total,
				zz;
	uint64_t	per_mini;
	uint64_t	got = 0;
	uint64_t	cur;
	int64_t    *vals;

	if (!get_uvarint(&p, end, &block) || !get_uvarint(&p, end, &nmini) ||
		!get_uvarint(&p, end, &total) || !get_uvarint(&p, end, &zz))
		return pq_fail(err, "parquet delta header truncated");
	if (block == 0 || block % 128 != 0 || block > (1u << 20) || nmini == 0 ||
		block % nmini != 0 || (block / nmini) % 32 != 0)
		return pq_fail(err, "parquet delta header has an invalid block size");
	if (total > max_count)
		return pq_fail(err, "parquet delta stream holds %llu values, more than the page's %llu",
					   (unsigned long long) total, (unsigned long long) max_count);
	per_mini = block / nmini;
	vals = pq_alloc_array(a, total, sizeof(int64_t), err);
	if (vals == NULL)
		return false;
	cur = (uint64_t) thr_zigzag(zz);
	if (total > 0)
		vals[got++] = (int64_t) cur;
	while (got < total)
	{
		uint64_t	mind;
		const uint8_t *widths;
		uint64_t	m;

		if (!get_uvarint(&p, end, &zz))
			return pq_fail(err, "parquet delta block truncated");
		mind = (uint64_t) thr_zigzag(zz);
		if ((uint64_t) (end - p) < nmini)
			return pq_fail(err, "parquet delta block truncated");
		widths = p;
		p += nmini;
		for (m = 0; m < nmini && got < total; m++)
		{
			int			bw = widths[m];
			uint64_t	bytes = per_mini * (uint64_t) bw / 8;
			uint64_t	k;

			if (bw > 64)
				return pq_fail(err, "parquet delta bit width %d too large", bw);
			for (k = 0; k < per_mini && got < total; k++)
			{
				uint64_t	delta;

				if ((k + 1) * (uint64_t) bw > (uint64_t) (end - p) * 8)
					return pq_fail(err, "parquet delta miniblock truncated");
				delta = bw ? read_bits(p, k * (uint64_t) bw, bw) : 0;
				cur = cur + mind + delta;
				if (is32)
					vals[got++] = (int64_t) (int32_t) (uint32_t) cur;
				else
					vals[got++] = (int64_t) cur;
			}
			if (bytes > (uint64_t) (end - p))
				bytes = (uint64_t) (end - p);
			p += bytes;
		}
	}
	*out = vals;
	*count = total;
	*after = p;
	return true;
}

/* DELTA_LENGTH_BYTE_ARRAY body: lengths then the concatenated bytes. */
static bool
decode_dlba(const uint8_t *p, const uint8_t *end, uint64_t n, PqBytes *out,
			const FmtAllocator *a, const uint8_t **after, PqError *err)
{
	int64_t    *lens;
	uint64_t	cnt,
				i;

	if (!decode_dbp(p, end, true, (uint64_t) (end - p) * 8 + 1, a, &lens, &cnt, &p, err))
		return false;
	if (cnt < n)
		return pq_fail(err, "parquet delta-length stream has %llu lengths for %llu values",
					   (unsigned long long) cnt, (unsigned long long) n);
	for (i = 0; i < n; i++)
	{
		if (lens[i] < 0 || (uint64_t) lens[i] > (uint64_t) (end - p))
			return pq_fail(err, "parquet delta-length value length out of range");
		out[i].p = p;
		out[i].len = (uint32_t) lens[i];
		p += lens[i];
	}
	if (after)
		*after = p;
	return true;
}

/* DELTA_BYTE_ARRAY: prefix lengths, then suffixes as DELTA_LENGTH_BYTE_ARRAY. */
static bool
decode_dba(const PqSchemaNode *leaf, const uint8_t *p, const uint8_t *end, uint64_t n,
		   PqBytes *out, const FmtAllocator *a, PqError *err)
{
	int64_t    *pre;
	uint64_t	cnt,
				i;
	const uint8_t *prev = NULL;
	uint32_t	prevlen = 0;

	if (!decode_dbp(p, end, true, (uint64_t) (end - p) * 8 + 1, a, &pre, &cnt, &p, err))
		return false;
	if (cnt < n)
		return pq_fail(err, "parquet delta byte array has %llu prefixes for %llu values",
					   (unsigned long long) cnt, (unsigned long long) n);
	if (!decode_dlba(p, end, n, out, a, NULL, err))
		return false;
	for (i = 0; i < n; i++)
	{
		uint64_t	pl = (uint64_t) pre[i];
		uint8_t    *v;

		if (pre[i] < 0 || pl > prevlen)
			return pq_fail(err, "parquet delta byte array prefix length out of range");
		if (pl > 0)
		{
			if (pl + out[i].len > UINT32_MAX)
				return pq_fail(err, "parquet delta byte array value too long");
			v = pq_alloc(a, pl + out[i].len, err);
			if (v == NULL)
				return false;
			memcpy(v, prev, pl);
			memcpy(v + pl, out[i].p, out[i].len);
			out[i].p = v;
			out[i].len += (uint32_t) pl;
		}
		if (leaf->type == PQ_FIXED_LEN_BYTE_ARRAY && out[i].len != (uint32_t) leaf->type_length)
			return pq_fail(err, "parquet fixed-length value has the wrong length");
		prev = out[i].p;
		prevlen = out[i].len;
	}
	return true;
}

/* BYTE_STREAM_SPLIT: byte k of value i is at stream k, position i. */
static bool
decode_bss(const PqSchemaNode *leaf, const uint8_t *p, const uint8_t *end, uint64_t n,
		   uint8_t *out, const FmtAllocator *a, PqError *err)
{
	size_t		w = plain_width(leaf);
	uint64_t	avail = (uint64_t) (end - p);
	uint64_t	i;
	size_t		k;

	if (w == 0 || leaf->type == PQ_INT96)
		return pq_fail(err, "BYTE_STREAM_SPLIT is not valid for this parquet type");
	if (n > avail / w)
		return pq_fail(err, "parquet byte-stream-split values truncated");
	if (leaf->type == PQ_FIXED_LEN_BYTE_ARRAY)
	{
		PqBytes    *b = (PqBytes *) out;
		uint8_t    *buf = pq_alloc_array(a, n, w, err);

		if (buf == NULL)
			return false;
		for (i = 0; i < n; i++)
		{
			for (k = 0; k < w; k++)
				buf[i * w + k] = p[k * n + i];
			b[i].p = buf + i * w;
			b[i].len = (uint32_t) w;
		}
		return true;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < w; k++)
			out[i * w + k] = p[k * n + i];	/* little-endian host order */
	return true;
}

/*
 * Decode n non-null values of a data page (encoding enc, bytes p..end) into
 * ld->vals at ld->nvals.
 */
static bool
decode_values(LeafData *ld, int enc, const uint8_t *p, const uint8_t *end, uint64_t n,
			  const FmtAllocator *a, PqError *err)
{
	const PqSchemaNode *leaf = ld->leaf;
	uint8_t    *out;
	uint64_t	i;

	if (n == 0)
		return true;			/* (vals may be NULL: no room was needed) */
	out = ld->vals + ld->nvals * ld->esize;
	switch (enc)
	{
		case ENC_PLAIN:
			return decode_plain(leaf, p, end, n, out, NULL, err);
		case ENC_PLAIN_DICTIONARY:
		case ENC_RLE_DICTIONARY:
			{
				Rle			d;
				int			bw;

				if (!ld->has_dict)
					return pq_fail(err, "parquet dictionary-encoded page without a dictionary page");
				if (p >= end)
					return pq_fail(err, "parquet dictionary page data truncated");
				bw = *p++;
				if (bw > 32)
					return pq_fail(err, "parquet dictionary index bit width %d too large", bw);
				rle_init(&d, p, end, bw);
				for (i = 0; i < n; i++)
				{
					uint64_t	idx;

					if (!rle_next(&d, &idx))
						return pq_fail(err, "parquet dictionary indexes ended early or are corrupt");
					if (idx >= ld->ndict)
						return pq_fail(err, "parquet dictionary index %llu out of range (dictionary has %llu entries)",
									   (unsigned long long) idx, (unsigned long long) ld->ndict);
					memcpy(out + i * ld->esize, ld->dict + idx * ld->esize, ld->esize);
				}
				return true;
			}
		case ENC_RLE:
			{
				Rle			d;
				uint32_t	l;

				if (leaf->type != PQ_BOOLEAN)
					return pq_fail(err, "RLE value encoding is only valid for booleans");
				if (end - p < 4)
					return pq_fail(err, "parquet boolean RLE data truncated");
				l = get_le32(p);
				p += 4;
				if (l > (uint64_t) (end - p))
					return pq_fail(err, "parquet boolean RLE length past the end of the page");
				rle_init(&d, p, p + l, 1);
				for (i = 0; i < n; i++)
				{
					uint64_t	v;

					if (!rle_next(&d, &v))
						return pq_fail(err, "parquet boolean RLE data ended early");
					out[i] = (uint8_t) (v & 1);
				}
				return true;
			}
		case ENC_DELTA_BINARY_PACKED:
			{
				int64_t    *v;
				uint64_t	cnt;
				const uint8_t *after;

				if (leaf->type != PQ_INT32 && leaf->type != PQ_INT64)
					return pq_fail(err, "DELTA_BINARY_PACKED is only valid for integers");
				if (!decode_dbp(p, end, leaf->type == PQ_INT32, n, a, &v, &cnt, &after, err))
					return false;
				if (cnt != n)
					return pq_fail(err, "parquet delta stream has %llu values, the page needs %llu",
								   (unsigned long long) cnt, (unsigned long long) n);
				for (i = 0; i < n; i++)
				{
					if (leaf->type == PQ_INT32)
					{
						int32_t		x = (int32_t) v[i];

						memcpy(out + 4 * i, &x, 4);
					}
					else
						memcpy(out + 8 * i, &v[i], 8);
				}
				return true;
			}
		case ENC_DELTA_LENGTH_BYTE_ARRAY:
			if (leaf->type != PQ_BYTE_ARRAY)
				return pq_fail(err, "DELTA_LENGTH_BYTE_ARRAY is only valid for byte arrays");
			return decode_dlba(p, end, n, (PqBytes *) out, a, NULL, err);
		case ENC_DELTA_BYTE_ARRAY:
			if (leaf->type != PQ_BYTE_ARRAY && leaf->type != PQ_FIXED_LEN_BYTE_ARRAY)
				return pq_fail(err, "DELTA_BYTE_ARRAY is only valid for byte arrays");
			return decode_dba(leaf, p, end, n, (PqBytes *) out, a, err);
		case ENC_BYTE_STREAM_SPLIT:
			return decode_bss(leaf, p, end, n, out, a, err);
		default:
			return pq_fail(err, "unsupported parquet value encoding %d", enc);
	}
}

/* ---------- pages ---------- */

typedef struct PageHeader
{
	int32_t		type;
	int32_t		usize;
	int32_t		csize;
	bool		have_data;
	bool		have_dict;
	bool		have_v2;
	int32_t		num_values;
	int32_t		encoding;
	int32_t		def_enc;
	int32_t		rep_enc;
	int32_t		num_nulls;
	int32_t		num_rows;
	int32_t		def_len;
	int32_t		rep_len;
	bool		is_compressed;
} PageHeader;

static bool
parse_page_header(const uint8_t *p, size_t len, PageHeader *h, size_t *hlen, PqError *err)
{
	ThrReader	t;
	int16_t		last = 0,
				id;
	int			ft;
	bool		have_type = false,
				have_us = false,
				have_cs = false;

	memset(h, 0, sizeof(*h));
	h->is_compressed = true;
	thr_init(&t, p, len, 16);
	thr_struct_begin(&t);
	while (thr_field(&t, &last, &ft, &id))
	{
		int16_t		l2 = 0,
					id2;
		int			ft2;

		switch (id)
		{
			case 1:
				h->type = thr_i32(&t, ft);
				have_type = true;
				break;
			case 2:
				h->usize = thr_i32(&t, ft);
				have_us = true;
				break;
			case 3:
				h->csize = thr_i32(&t, ft);
				have_cs = true;
				break;
			case 5:
			case 7:
			case 8:
				if (!thr_struct_enter(&t, ft, "page header member is not a struct"))
					break;
				if (id == 5)
					h->have_data = true;
				else if (id == 7)
					h->have_dict = true;
				else
					h->have_v2 = true;
				while (thr_field(&t, &l2, &ft2, &id2))
				{
					if (id == 5)
					{
						if (id2 == 1)
							h->num_values = thr_i32(&t, ft2);
						else if (id2 == 2)
							h->encoding = thr_i32(&t, ft2);
						else if (id2 == 3)
							h->def_enc = thr_i32(&t, ft2);
						else if (id2 == 4)
							h->rep_enc = thr_i32(&t, ft2);
						else
							thr_skip(&t, ft2);
					}
					else if (id == 7)
					{
						if (id2 == 1)
							h->num_values = thr_i32(&t, ft2);
						else if (id2 == 2)
							h->encoding = thr_i32(&t, ft2);
						else
							thr_skip(&t, ft2);
					}
					else
					{
						if (id2 == 1)
							h->num_values = thr_i32(&t, ft2);
						else if (id2 == 2)
							h->num_nulls = thr_i32(&t, ft2);
						else if (id2 == 3)
							h->num_rows = thr_i32(&t, ft2);
						else if (id2 == 4)
							h->encoding = thr_i32(&t, ft2);
						else if (id2 == 5)
							h->def_len = thr_i32(&t, ft2);
						else if (id2 == 6)
							h->rep_len = thr_i32(&t, ft2);
						else if (id2 == 7)
							h->is_compressed = thr_bool(&t, ft2);
						else
							thr_skip(&t, ft2);
					}
				}
				thr_struct_end(&t);
				break;
			default:
				thr_skip(&t, ft);
				break;
		}
	}
	thr_struct_end(&t);
	if (!thr_check(&t, "page header", err))
		return false;
	if (!have_type || !have_us || !have_cs)
		return pq_fail(err, "parquet page header lacks its type or sizes");
	if (h->usize < 0 || h->csize < 0 || h->num_values < 0)
		return pq_fail(err, "parquet page header has a negative size or count");
	if ((h->type == PAGE_DATA && !h->have_data) || (h->type == PAGE_DICTIONARY && !h->have_dict) ||
		(h->type == PAGE_DATA_V2 && !h->have_v2))
		return pq_fail(err, "parquet page header lacks the header for its page type");
	*hlen = thr_consumed(&t);
	return true;
}

/* Count the non-null entries (def == max) among n levels. */
static uint64_t
count_present(const uint8_t *def, uint64_t n, int max)
{
	uint64_t	c = 0,
				i;

	if (def == NULL)
		return n;
	for (i = 0; i < n; i++)
		c += def[i] == max;
	return c;
}

static bool
load_dictionary(PqReader *r, LeafData *ld, const PageHeader *h, int codec,
				const uint8_t *body, const FmtAllocator *a, PqError *err)
{
	const uint8_t *data;
	uint64_t	n = (uint64_t) h->num_values;
	size_t		w;

	if (ld->has_dict)
		return pq_fail(err, "parquet column chunk has two dictionary pages");
	r->stats.page_types |= 1u << PAGE_DICTIONARY;
	if (h->encoding != ENC_PLAIN && h->encoding != ENC_PLAIN_DICTIONARY)
		return pq_fail(err, "unsupported parquet dictionary encoding %d", h->encoding);
	data = decompress(r, codec, body, (size_t) h->csize, (size_t) h->usize, a, err);
	if (data == NULL)
		return false;
	/* each entry takes at least one byte (a bit for booleans) */
	w = plain_width(ld->leaf);
	if (ld->leaf->type == PQ_BYTE_ARRAY)
		w = 4;
	if (w == 0)
		w = 1;
	if (ld->leaf->type != PQ_BOOLEAN && n > (uint64_t) h->usize / w)
		return pq_fail(err, "parquet dictionary declares %llu entries, more than its %d bytes hold",
					   (unsigned long long) n, h->usize);
	if (ld->leaf->type == PQ_BOOLEAN && n > (uint64_t) h->usize * 8)
		return pq_fail(err, "parquet dictionary declares too many entries");
	ld->dict = pq_alloc_array(a, n, ld->esize, err);
	if (ld->dict == NULL)
		return false;
	if (!decode_plain(ld->leaf, data, data + h->usize, n, ld->dict, NULL, err))
		return false;
	ld->ndict = n;
	ld->has_dict = true;
	return true;
}

/*
 * Make room in ld->vals for the present values of a page of nv entries.  A
 * column with nulls gets room only for the values it has (a column of the
 * checkpoint's metaData is null on nearly every row): doubling, or the
 * whole chunk at once when the page had no null.  Outgrown arrays stay in
 * the row group's allocator until it is reset.
 */
static bool
vals_room(LeafData *ld, uint64_t nv, uint64_t present, const FmtAllocator *a,
		  PqError *err)
{
	uint64_t	want;
	uint8_t    *grown;

	if (present == 0 || ld->nvals + present <= ld->vcap)
		return true;
	if (present == nv && ld->vcap == 0)
		want = ld->cap;			/* dense: every entry will have a value */
	else
	{
		/* (nvals + present <= cap: present counts entries of this page) */
		want = ld->vcap * 2 < 64 ? 64 : ld->vcap * 2;
		if (want > ld->cap)
			want = ld->cap;
		if (want < ld->nvals + present)
			want = ld->nvals + present;
	}
	grown = pq_alloc_array(a, want, ld->esize, err);
	if (grown == NULL)
		return false;
	if (ld->nvals > 0)
		memcpy(grown, ld->vals, (size_t) (ld->nvals * ld->esize));
	ld->vals = grown;
	ld->vcap = want;
	return true;
}

static bool
load_data_page(PqReader *r, LeafData *ld, const PageHeader *h, int codec,
			   const uint8_t *body, const FmtAllocator *a, PqError *err)
{
	const PqSchemaNode *leaf = ld->leaf;
	uint64_t	nv = (uint64_t) h->num_values;
	uint64_t	present;
	const uint8_t *p;
	const uint8_t *end;

	if (nv > ld->cap - ld->n)
		return pq_fail(err, "parquet pages of column \"%s\" hold more values than the chunk declares",
					   leaf->name);
	r->stats.page_types |= 1u << h->type;
	if (h->encoding >= 0 && h->encoding < 32)
		r->stats.encodings |= 1u << h->encoding;
	if (h->type == PAGE_DATA)
	{
		if (leaf->max_rep > 0 && h->rep_enc >= 0 && h->rep_enc < 32)
			r->stats.level_encodings |= 1u << h->rep_enc;
		if (leaf->max_def > 0 && h->def_enc >= 0 && h->def_enc < 32)
			r->stats.level_encodings |= 1u << h->def_enc;
	}
	else if (leaf->max_rep > 0 || leaf->max_def > 0)
		r->stats.level_encodings |= 1u << ENC_RLE;
	if (h->type == PAGE_DATA)
	{
		p = decompress(r, codec, body, (size_t) h->csize, (size_t) h->usize, a, err);
		if (p == NULL)
			return false;
		end = p + h->usize;
		if (leaf->max_rep > 0 &&
			!decode_levels(&p, end, h->rep_enc, true, leaf->max_rep, ld->rep + ld->n, nv, "repetition", err))
			return false;
		if (leaf->max_def > 0 &&
			!decode_levels(&p, end, h->def_enc, true, leaf->max_def, ld->def + ld->n, nv, "definition", err))
			return false;
	}
	else
	{
		const uint8_t *lp = body;
		uint64_t	lvl = (uint64_t) h->rep_len + (uint64_t) h->def_len;

		if (h->rep_len < 0 || h->def_len < 0 || lvl > (uint64_t) h->csize || lvl > (uint64_t) h->usize)
			return pq_fail(err, "parquet v2 page level lengths exceed the page");
		if (leaf->max_rep > 0 &&
			!decode_levels(&lp, body + h->rep_len, ENC_RLE, false, leaf->max_rep, ld->rep + ld->n, nv, "repetition", err))
			return false;
		lp = body + h->rep_len;
		if (leaf->max_def > 0 &&
			!decode_levels(&lp, lp + h->def_len, ENC_RLE, false, leaf->max_def, ld->def + ld->n, nv, "definition", err))
			return false;
		if (h->is_compressed)
			p = decompress(r, codec, body + lvl, (size_t) ((uint64_t) h->csize - lvl),
						   (size_t) ((uint64_t) h->usize - lvl), a, err);
		else
		{
			if (h->csize != h->usize)
				return pq_fail(err, "uncompressed parquet v2 page sizes disagree");
			p = body + lvl;
		}
		if (p == NULL)
			return false;
		end = p + ((uint64_t) h->usize - lvl);
	}
	present = count_present(ld->def ? ld->def + ld->n : NULL, nv, leaf->max_def);
	if (!vals_room(ld, nv, present, a, err) ||
		!decode_values(ld, h->encoding, p, end, present, a, err))
		return false;
	ld->n += nv;
	ld->nvals += present;
	return true;
}

/* Read and decode the column chunk of leaf li in row group rg. */
static bool
load_chunk(PqReader *r, int rg, int li, const FmtAllocator *a, PqError *err)
{
	PqFile	   *f = r->f;
	const ChunkMeta *cm = &f->rgs[rg].cols[li];
	LeafData   *ld = &r->leaves[li];
	const PqSchemaNode *leaf = f->leaves[li];
	int64_t		start;
	uint8_t    *buf;
	uint64_t	off = 0;
	uint64_t	len;

	memset(ld, 0, sizeof(*ld));
	ld->leaf = leaf;
	ld->esize = value_size(leaf->type);
	if (cm->num_values < 0 || (uint64_t) cm->num_values > f->lim.max_chunk_values)
		return pq_fail(err, "parquet column \"%s\" declares %lld values, beyond the limit",
					   leaf->name, (long long) cm->num_values);
	if (leaf->max_rep == 0 && cm->num_values != f->rgs[rg].num_rows)
		return pq_fail(err, "parquet column \"%s\" has %lld values in a row group of %lld rows",
					   leaf->name, (long long) cm->num_values, (long long) f->rgs[rg].num_rows);
	if (leaf->max_rep > 0 && cm->num_values < f->rgs[rg].num_rows)
		return pq_fail(err, "parquet column \"%s\" has fewer values than its row group has rows", leaf->name);
	ld->cap = (uint64_t) cm->num_values;
	if (leaf->max_def > 0 && (ld->def = pq_alloc_array(a, ld->cap, 1, err)) == NULL)
		return false;
	if (leaf->max_rep > 0 && (ld->rep = pq_alloc_array(a, ld->cap, 1, err)) == NULL)
		return false;
	/* a required column has a value per entry; others get room per page */
	if (leaf->max_def == 0)
	{
		if ((ld->vals = pq_alloc_array(a, ld->cap, ld->esize, err)) == NULL)
			return false;
		ld->vcap = ld->cap;
	}
	if (ld->cap == 0)
		return true;

	start = cm->data_page_offset;
	if (cm->has_dict_offset && cm->dict_page_offset > 0 && cm->dict_page_offset < start)
		start = cm->dict_page_offset;
	if (start < 4 || cm->total_compressed <= 0 ||
		(uint64_t) start > f->size || (uint64_t) cm->total_compressed > f->size - (uint64_t) start)
		return pq_fail(err, "parquet column chunk of \"%s\" lies outside the file (offset %lld, size %lld)",
					   leaf->name, (long long) start, (long long) cm->total_compressed);
	len = (uint64_t) cm->total_compressed;
	buf = pq_alloc_raw(a, (size_t) len, err);	/* file_read fills it or fails */
	if (buf == NULL || !file_read(f, (uint64_t) start, (size_t) len, buf, err))
		return false;

	while (ld->n < ld->cap)
	{
		PageHeader	h;
		size_t		hlen = 0;
		const uint8_t *body;

		if (off >= len)
			return pq_fail(err, "parquet column chunk of \"%s\" ends after %llu of %llu values",
						   leaf->name, (unsigned long long) ld->n, (unsigned long long) ld->cap);
		if (!parse_page_header(buf + off, (size_t) (len - off), &h, &hlen, err))
			return false;
		off += hlen;
		if ((uint64_t) h.csize > len - off)
			return pq_fail(err, "parquet page of \"%s\" extends past its column chunk", leaf->name);
		if ((uint64_t) h.usize > f->lim.max_page_size)
			return pq_fail(err, "parquet page of \"%s\" is larger than the limit", leaf->name);
		body = buf + off;
		off += (uint64_t) h.csize;
		r->stats.pages++;
		if (cm->codec >= 0 && cm->codec < 32)
			r->stats.codecs |= 1u << cm->codec;
		switch (h.type)
		{
			case PAGE_DICTIONARY:
				if (!load_dictionary(r, ld, &h, cm->codec, body, a, err))
					return false;
				break;
			case PAGE_DATA:
			case PAGE_DATA_V2:
				if (!load_data_page(r, ld, &h, cm->codec, body, a, err))
					return false;
				break;
			default:
				break;			/* index pages and unknown pages are skipped */
		}
	}
	return true;
}

/* ---------- record reader ---------- */

static void
select_subtree(PqReader *r, const PqSchemaNode *n)
{
	int			i;

	r->selected[n->node_index] = true;
	for (i = 0; i < n->num_children; i++)
		select_subtree(r, n->children[i]);
}

/* Fill dfs_leaf / dfs_start / dfs_end for the selected subtree at n. */
static void
compute_dfs_leaves(PqReader *r, const PqSchemaNode *n, int *next)
{
	int			i;

	r->dfs_start[n->node_index] = *next;
	if (r->selected[n->node_index])
	{
		if (n->type != PQ_GROUP)
			r->dfs_leaf[(*next)++] = n->leaf_index;
		for (i = 0; i < n->num_children; i++)
			compute_dfs_leaves(r, n->children[i], next);
	}
	r->dfs_end[n->node_index] = *next;
}

/* Compute first_leaf bottom-up; deselect groups without selected leaves. */
static int
compute_first_leaf(PqReader *r, const PqSchemaNode *n)
{
	int			first = -1;
	int			i;

	if (!r->selected[n->node_index])
	{
		r->first_leaf[n->node_index] = -1;
		for (i = 0; i < n->num_children; i++)
			compute_first_leaf(r, n->children[i]);
		return -1;
	}
	if (n->type != PQ_GROUP)
		first = n->leaf_index;
	for (i = 0; i < n->num_children; i++)
	{
		int			c = compute_first_leaf(r, n->children[i]);

		if (first < 0)
			first = c;
	}
	r->first_leaf[n->node_index] = first;
	if (first < 0 && n->parent != NULL)
		r->selected[n->node_index] = false;
	return first;
}

PqReader *
pq_reader_open(PqFile *f, const char *const *columns, int ncolumns, PqError *err)
{
	PqReader   *r;
	int			i;

	r = pq_alloc(&f->alloc, sizeof(PqReader), err);
	if (r == NULL)
		return NULL;
	r->f = f;
	r->rg = -1;
	r->selected = pq_alloc_array(&f->alloc, (uint64_t) f->nnodes, sizeof(bool), err);
	r->first_leaf = pq_alloc_array(&f->alloc, (uint64_t) f->nnodes, sizeof(int), err);
	r->leaves = pq_alloc_array(&f->alloc, (uint64_t) f->nleaves, sizeof(LeafData), err);
	r->dfs_leaf = pq_alloc_array(&f->alloc, (uint64_t) f->nleaves + 1, sizeof(int), err);
	r->dfs_start = pq_alloc_array(&f->alloc, (uint64_t) f->nnodes, sizeof(int), err);
	r->dfs_end = pq_alloc_array(&f->alloc, (uint64_t) f->nnodes, sizeof(int), err);
	if (r->selected == NULL || r->first_leaf == NULL || r->leaves == NULL ||
		r->dfs_leaf == NULL || r->dfs_start == NULL || r->dfs_end == NULL)
		return NULL;
	if (columns == NULL || ncolumns <= 0)
		select_subtree(r, f->root);
	else
	{
		r->selected[f->root->node_index] = true;
		for (i = 0; i < ncolumns; i++)
		{
			const PqSchemaNode *n = pq_schema_find(f, columns[i]);
			const PqSchemaNode *up;

			if (n == NULL)
				continue;
			/* a map or list is selected whole once any part of it is */
			for (up = n; up->parent; up = up->parent)
				if (up->logical.kind == PQ_LT_MAP || up->logical.kind == PQ_LT_LIST)
					n = up;
			select_subtree(r, n);
			for (up = n->parent; up; up = up->parent)
				r->selected[up->node_index] = true;
		}
	}
	compute_first_leaf(r, f->root);
	i = 0;
	compute_dfs_leaves(r, f->root, &i);
	return r;
}

bool
pq_reader_load_row_group(PqReader *r, int rg, const FmtAllocator *rg_alloc, PqError *err)
{
	int			i;

	err->message[0] = '\0';
	r->rg = -1;
	if (rg < 0 || rg >= r->f->nrg)
		return pq_fail(err, "parquet row group %d does not exist", rg);
	for (i = 0; i < r->f->nleaves; i++)
	{
		if (!r->selected[r->f->leaves[i]->node_index])
			continue;
		if (!load_chunk(r, rg, i, rg_alloc, err))
			return false;
		if (r->leaves[i].n != r->leaves[i].cap)
			return pq_fail(err, "parquet column chunk value counts disagree");
	}
	r->rg = rg;
	r->row_in_rg = 0;
	return true;
}

/* Assembly context for one row. */
typedef struct Asm
{
	PqReader   *r;
	const FmtAllocator *a;
	PqError    *err;
} Asm;

static bool read_node(Asm *s, const PqSchemaNode *n, PqValue *out);
static bool read_present(Asm *s, const PqSchemaNode *n, PqValue *out);

static LeafData *
first_leaf_data(Asm *s, const PqSchemaNode *n)
{
	int			li = s->r->first_leaf[n->node_index];

	return li >= 0 ? &s->r->leaves[li] : NULL;
}

static int
cur_def(const LeafData *ld)
{
	return ld->def ? ld->def[ld->pos] : ld->leaf->max_def;
}

static int
cur_rep(const LeafData *ld)
{
	return ld->rep ? ld->rep[ld->pos] : 0;
}

/*
 * Consume one "absent" entry (null/empty at level of n) from every selected
 * leaf under n, in schema order (each must have one, below its own
 * definition level).
 */
static bool
consume_absent(Asm *s, const PqSchemaNode *n)
{
	const PqReader *r = s->r;
	int			k;

	for (k = r->dfs_start[n->node_index]; k < r->dfs_end[n->node_index]; k++)
	{
		const PqSchemaNode *leaf = r->f->leaves[r->dfs_leaf[k]];
		LeafData   *ld = &s->r->leaves[r->dfs_leaf[k]];

		if (ld->pos >= ld->n)
			return pq_fail(s->err, "parquet column \"%s\" ended early", leaf->name);
		if (cur_def(ld) >= leaf->max_def)
			return pq_fail(s->err, "parquet levels of column \"%s\" are inconsistent", leaf->name);
		ld->pos++;
	}
	return true;
}

static int
count_selected_children(Asm *s, const PqSchemaNode *n)
{
	int			i,
				c = 0;

	for (i = 0; i < n->num_children; i++)
		c += s->r->selected[n->children[i]->node_index];
	return c;
}

/* ---- leaf value conversion ---- */

/*
 * Render the big-endian two's-complement integer b[0..len) with the given
 * scale as exact decimal text.
 */
static bool
decimal_text(Asm *s, const uint8_t *b, uint32_t len, int scale, PqValue *out)
{
	uint32_t	limbs[MAX_DECIMAL_BYTES / 4 + 2];	/* base 1e9, little end first */
	int			nl = 0;
	uint8_t		mag[MAX_DECIMAL_BYTES];
	bool		neg;
	uint32_t	i;
	char		digits[MAX_DECIMAL_BYTES * 3 + 16];
	int			nd = 0;
	char	   *txt;
	int			k,
				pos = 0;

	if (len == 0)
	{
		mag[0] = 0;
		b = mag;
		len = 1;
	}
	if (len > MAX_DECIMAL_BYTES)
		return pq_fail(s->err, "parquet decimal value of %u bytes is too long", len);
	neg = (b[0] & 0x80) != 0;
	memcpy(mag, b, len);
	if (neg)
	{
		/* two's complement negate */
		int			carry = 1;

		for (k = (int) len - 1; k >= 0; k--)
		{
			int			v = (uint8_t) ~mag[k] + carry;

			mag[k] = (uint8_t) v;
			carry = v >> 8;
		}
	}
	for (i = 0; i < len; i++)
	{
		uint64_t	carry = mag[i];
		int			j;

		for (j = 0; j < nl; j++)
		{
			uint64_t	v = (uint64_t) limbs[j] * 256 + carry;

			limbs[j] = (uint32_t) (v % 1000000000u);
			carry = v / 1000000000u;
		}
		while (carry)
		{
			limbs[nl++] = (uint32_t) (carry % 1000000000u);
			carry /= 1000000000u;
		}
	}
	/* digits, least significant first */
	for (k = 0; k < nl; k++)
	{
		uint32_t	v = limbs[k];
		int			c;

		for (c = 0; c < 9; c++)
		{
			digits[nd++] = (char) ('0' + v % 10);
			v /= 10;
			if (k == nl - 1 && v == 0)
				break;
		}
	}
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (nd == 0)
		digits[nd++] = '0';
	while (nd <= scale)
		digits[nd++] = '0';
	txt = pq_alloc(s->a, (size_t) nd + 3, s->err);
	if (txt == NULL)
		return false;
	if (neg)
		txt[pos++] = '-';
	for (k = nd - 1; k >= 0; k--)
	{
		txt[pos++] = digits[k];
		if (k == scale && scale > 0)
			txt[pos++] = '.';
	}
	txt[pos] = '\0';
	out->kind = PQV_DECIMAL;
	out->u.text = txt;
	out->len = (uint32_t) pos;
	return true;
}

static bool
decimal_from_int(Asm *s, int64_t v, int scale, PqValue *out)
{
	uint8_t		b[8];
	int			i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t) ((uint64_t) v >> (56 - 8 * i));
	return decimal_text(s, b, 8, scale, out);
}

static bool
int96_value(Asm *s, const uint8_t *b, PqValue *out)
{
	int64_t		nanos = (int64_t) get_le64(b);
	int64_t		days = (int64_t) (int32_t) get_le32(b + 8) - 2440588;

	if (nanos < 0 || nanos >= INT64_C(86400000000000))
		return pq_fail(s->err, "parquet INT96 timestamp has an invalid time of day");
	out->kind = PQV_TIMESTAMP;
	out->ts_utc = true;
	if (days > INT64_C(106751990) || days < INT64_C(-106751990))
		return pq_fail(s->err, "parquet INT96 timestamp out of range");
	if (nanos % 1000 == 0)
	{
		out->ts_unit = PQ_MICROS;
		out->u.i64 = days * INT64_C(86400000000) + nanos / 1000;
	}
	else
	{
		if (days > 106750 || days < -106750)
			return pq_fail(s->err, "parquet INT96 timestamp out of range");
		out->ts_unit = PQ_NANOS;
		out->u.i64 = days * INT64_C(86400000000000) + nanos;
	}
	return true;
}

static bool
leaf_value(Asm *s, const PqSchemaNode *n, LeafData *ld, PqValue *out)
{
	const uint8_t *v;
	const PqLogicalType *lt = &n->logical;

	if (ld->vpos >= ld->nvals)
		return pq_fail(s->err, "parquet column \"%s\" has fewer values than its levels announce", n->name);
	v = ld->vals + ld->vpos * ld->esize;
	ld->vpos++;
	if (lt->kind == PQ_LT_NULL)
	{
		out->kind = PQV_NULL;
		return true;
	}
	switch (n->type)
	{
		case PQ_BOOLEAN:
			out->kind = PQV_BOOL;
			out->u.b = *v != 0;
			return true;
		case PQ_INT32:
			{
				int32_t		x;

				memcpy(&x, v, 4);
				if (lt->kind == PQ_LT_DECIMAL)
					return decimal_from_int(s, x, lt->scale, out);
				if (lt->kind == PQ_LT_DATE)
				{
					out->kind = PQV_DATE;
					out->u.i32 = x;
				}
				else if (lt->kind == PQ_LT_INTEGER && !lt->is_signed && lt->bit_width >= 32)
				{
					out->kind = PQV_INT64;
					out->u.i64 = (int64_t) (uint32_t) x;
				}
				else if (lt->kind == PQ_LT_TIME)
				{
					out->kind = PQV_INT64;
					out->u.i64 = x;
				}
				else
				{
					out->kind = PQV_INT32;
					out->u.i32 = x;
				}
				return true;
			}
		case PQ_INT64:
			{
				int64_t		x;

				memcpy(&x, v, 8);
				if (lt->kind == PQ_LT_DECIMAL)
					return decimal_from_int(s, x, lt->scale, out);
				if (lt->kind == PQ_LT_TIMESTAMP)
				{
					out->kind = PQV_TIMESTAMP;
					out->ts_unit = (uint8_t) lt->unit;
					out->ts_utc = lt->utc;
					out->u.i64 = x;
				}
				else if (lt->kind == PQ_LT_INTEGER && !lt->is_signed && x < 0)
				{
					uint8_t		b[9];
					int			i;

					b[0] = 0;
					for (i = 0; i < 8; i++)
						b[i + 1] = (uint8_t) ((uint64_t) x >> (56 - 8 * i));
					return decimal_text(s, b, 9, 0, out);
				}
				else
				{
					out->kind = PQV_INT64;
					out->u.i64 = x;
				}
				return true;
			}
		case PQ_INT96:
			return int96_value(s, ((const PqBytes *) v)->p, out);
		case PQ_FLOAT:
			out->kind = PQV_FLOAT;
			memcpy(&out->u.f, v, 4);
			return true;
		case PQ_DOUBLE:
			out->kind = PQV_DOUBLE;
			memcpy(&out->u.d, v, 8);
			return true;
		case PQ_BYTE_ARRAY:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			{
				const PqBytes *b = (const PqBytes *) v;

				if (lt->kind == PQ_LT_DECIMAL)
					return decimal_text(s, b->p, b->len, lt->scale, out);
				out->kind = (lt->kind == PQ_LT_STRING || lt->kind == PQ_LT_ENUM ||
							 lt->kind == PQ_LT_JSON) ? PQV_STRING : PQV_BYTES;
				out->u.bytes = b->p;
				out->len = b->len;
				return true;
			}
		default:
			return pq_fail(s->err, "unsupported parquet physical type");
	}
}

/*
 * Count the elements of the repeated node rn starting at the current entry
 * of ld (whose rep level starts the list): 1 + following entries with
 * rep == rn->max_rep, stopping at the first entry with a smaller rep.
 */
static uint64_t
count_elements(const LeafData *ld, const PqSchemaNode *rn)
{
	uint64_t	c = 1;
	uint64_t	i;

	for (i = ld->pos + 1; i < ld->n; i++)
	{
		int			rp = ld->rep ? ld->rep[i] : 0;

		if (rp < rn->max_rep)
			break;
		if (rp == rn->max_rep)
			c++;
	}
	return c;
}

typedef enum ElemMode
{
	ELEM_SELF,					/* the repeated node itself is the element */
	ELEM_CHILD,					/* its single child is the element */
	ELEM_MAP					/* children 0 and 1 are key and value */
} ElemMode;

/*
 * Read the elements of repeated node rn (whose parent is present) into a
 * list or map value.
 */
static bool
read_repeated(Asm *s, const PqSchemaNode *rn, ElemMode mode, PqValue *out)
{
	LeafData   *ld = first_leaf_data(s, rn);
	uint64_t	n,
				i;
	PqValue    *items = NULL;
	PqValue    *vals = NULL;

	out->kind = mode == ELEM_MAP ? PQV_MAP : PQV_LIST;
	out->len = 0;
	if (ld == NULL)
		return true;
	if (ld->pos >= ld->n)
		return pq_fail(s->err, "parquet column \"%s\" ended early", ld->leaf->name);
	if (cur_def(ld) < rn->max_def)
		return consume_absent(s, rn);	/* empty list */
	n = count_elements(ld, rn);
	if (n > UINT32_MAX)
		return pq_fail(s->err, "parquet list too long");
	items = pq_alloc_array(s->a, n, sizeof(PqValue), s->err);
	if (items == NULL)
		return false;
	if (mode == ELEM_MAP && (vals = pq_alloc_array(s->a, n, sizeof(PqValue), s->err)) == NULL)
		return false;
	for (i = 0; i < n; i++)
	{
		if (i > 0)
		{
			if (ld->pos >= ld->n || cur_rep(ld) != rn->max_rep)
				return pq_fail(s->err, "parquet repetition levels of \"%s\" are inconsistent", rn->name);
			if (cur_def(ld) < rn->max_def)
				return pq_fail(s->err, "parquet definition levels of \"%s\" are inconsistent", rn->name);
		}
		if (mode == ELEM_SELF)
		{
			if (!read_present(s, rn, &items[i]))
				return false;
		}
		else if (mode == ELEM_CHILD)
		{
			if (!read_node(s, rn->children[0], &items[i]))
				return false;
		}
		else
		{
			if (!read_node(s, rn->children[0], &items[i]))
				return false;
			if (rn->num_children > 1 && s->r->selected[rn->children[1]->node_index])
			{
				if (!read_node(s, rn->children[1], &vals[i]))
					return false;
			}
			else
				vals[i].kind = PQV_NULL;
		}
	}
	out->len = (uint32_t) n;
	if (mode == ELEM_MAP)
	{
		out->u.map.keys = items;
		out->u.map.values = vals;
	}
	else
		out->u.items = items;
	return true;
}

/* How a LIST-annotated group's repeated child maps to elements. */
static ElemMode
list_elem_mode(const PqSchemaNode *g, const PqSchemaNode *rn)
{
	size_t		gl;

	if (rn->type != PQ_GROUP)
		return ELEM_SELF;
	if (rn->num_children != 1)
		return ELEM_SELF;
	if (strcmp(rn->name, "array") == 0)
		return ELEM_SELF;
	gl = strlen(g->name);
	if (strlen(rn->name) == gl + 6 && strncmp(rn->name, g->name, gl) == 0 &&
		strcmp(rn->name + gl, "_tuple") == 0)
		return ELEM_SELF;
	return ELEM_CHILD;
}

/*
 * Read node n whose own level is known to be present at the current
 * entries (def >= n->max_def on its first selected leaf).
 */
static bool
read_present(Asm *s, const PqSchemaNode *n, PqValue *out)
{
	int			i,
				k;

	out->node = n;
	if (n->type != PQ_GROUP)
	{
		LeafData   *ld = &s->r->leaves[n->leaf_index];

		if (!leaf_value(s, n, ld, out))
			return false;
		ld->pos++;
		return true;
	}
	if (n->num_children == 1 && n->children[0]->repetition == PQ_REPEATED &&
		(n->logical.kind == PQ_LT_LIST || n->logical.kind == PQ_LT_MAP))
	{
		const PqSchemaNode *rn = n->children[0];

		if (n->logical.kind == PQ_LT_LIST)
			return read_repeated(s, rn, list_elem_mode(n, rn), out);
		if (rn->type == PQ_GROUP && (rn->num_children == 1 || rn->num_children == 2))
			return read_repeated(s, rn, ELEM_MAP, out);
	}
	/* a struct */
	out->kind = PQV_STRUCT;
	out->len = (uint32_t) count_selected_children(s, n);
	out->u.items = pq_alloc_array(s->a, out->len, sizeof(PqValue), s->err);
	if (out->u.items == NULL)
		return false;
	for (i = 0, k = 0; i < n->num_children; i++)
	{
		if (!s->r->selected[n->children[i]->node_index])
			continue;
		if (!read_node(s, n->children[i], &out->u.items[k++]))
			return false;
	}
	return true;
}

/* Read node n whose parent is present. */
static bool
read_node(Asm *s, const PqSchemaNode *n, PqValue *out)
{
	LeafData   *ld = first_leaf_data(s, n);

	out->node = n;
	out->kind = PQV_NULL;
	if (ld == NULL)
		return true;
	if (ld->pos >= ld->n)
		return pq_fail(s->err, "parquet column \"%s\" ended early", ld->leaf->name);
	if (n->repetition == PQ_REPEATED)
	{
		/* an unannotated repeated field: a list of its values */
		if (!read_repeated(s, n, ELEM_SELF, out))
			return false;
		out->node = n;
		return true;
	}
	if (cur_def(ld) < n->max_def)
	{
		if (n->repetition != PQ_OPTIONAL)
			return pq_fail(s->err, "parquet definition levels of \"%s\" are inconsistent", n->name);
		return consume_absent(s, n);
	}
	return read_present(s, n, out);
}

int
pq_reader_next(PqReader *r, const FmtAllocator *row_alloc, PqValue *row,
			   int64_t *row_pos, PqError *err)
{
	Asm			s;
	int			i;
	const PqSchemaNode *root = r->f->root;

	err->message[0] = '\0';
	if (r->rg < 0)
	{
		pq_fail(err, "no parquet row group is loaded");
		return -1;
	}
	if (r->row_in_rg >= r->f->rgs[r->rg].num_rows)
	{
		for (i = 0; i < r->f->nleaves; i++)
			if (r->selected[r->f->leaves[i]->node_index] && r->leaves[i].pos != r->leaves[i].n)
			{
				pq_fail(err, "parquet column \"%s\" has more entries than its row group has rows",
						r->f->leaves[i]->name);
				return -1;
			}
		return 0;
	}
	/* every selected leaf must start a new record here */
	for (i = 0; i < r->f->nleaves; i++)
	{
		LeafData   *ld = &r->leaves[i];

		if (!r->selected[r->f->leaves[i]->node_index])
			continue;
		if (ld->pos >= ld->n || cur_rep(ld) != 0)
		{
			pq_fail(err, "parquet column \"%s\" does not start a record where expected", ld->leaf->name);
			return -1;
		}
	}
	s.r = r;
	s.a = row_alloc;
	s.err = err;
	memset(row, 0, sizeof(*row));
	if (!read_present(&s, root, row))
		return -1;
	if (row_pos)
		*row_pos = r->f->rgs[r->rg].first_row + r->row_in_rg;
	r->row_in_rg++;
	return 1;
}

int
pq_reader_next_any(PqReader *r, const FmtAllocator *alloc, PqValue *row,
				   int64_t *row_pos, PqError *err)
{
	for (;;)
	{
		int			rc;

		if (r->any_started && r->rg >= 0)
		{
			rc = pq_reader_next(r, alloc, row, row_pos, err);
			if (rc != 0)
				return rc;
		}
		else if (r->any_started)
			return -1;
		if (r->next_any_rg >= r->f->nrg)
			return 0;
		r->any_started = true;
		if (!pq_reader_load_row_group(r, r->next_any_rg++, alloc, err))
			return -1;
	}
}

void
pq_reader_stats(const PqReader *r, PqReaderStats *out)
{
	*out = r->stats;
}
