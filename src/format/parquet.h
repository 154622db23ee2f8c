/*-------------------------------------------------------------------------
 *
 * parquet.h
 *	  A bounded Parquet reader: footer, schema, row groups, pages, records.
 *
 * Pure C99, no PostgreSQL headers.  Errors are returned (false / NULL / -1
 * plus a filled PqError), never raised.  Every byte comes from a
 * caller-supplied FmtAllocator; nothing is freed individually.  Every
 * length, offset and count read from the file is checked against the file
 * size (or a PqLimits bound) before it is used.
 *
 * The file is read through a callback, so a large file need not be loaded
 * whole: the footer is read once, then each projected column chunk of a row
 * group is read in one piece when that row group is loaded.
 *
 * Typical use:
 *
 *	  PqFile *f = pq_open(read_at, ctx, size, &file_alloc, NULL, &err);
 *	  PqReader *r = pq_reader_open(f, cols, ncols, &err);   (cols: NULL = all)
 *	  for (rg = 0; rg < pq_num_row_groups(f); rg++)
 *	  {
 *		  if (!pq_reader_load_row_group(r, rg, &rg_alloc, &err)) fail;
 *		  while ((rc = pq_reader_next(r, &row_alloc, &row, &rowpos, &err)) > 0)
 *			  use row (a PQV_STRUCT of the projected top-level fields);
 *		  if (rc < 0) fail;
 *		  reset rg_alloc (and row_alloc) if you want the memory back;
 *	  }
 *
 * Lifetimes: the PqFile (schema, metadata) lives in file_alloc.  The decoded
 * column data of a loaded row group lives in rg_alloc: string/bytes values
 * of a row may point into it, so a row is valid until rg_alloc is reset.
 * The value tree of each row (PqValue arrays, decimal text, INT96/unsigned
 * conversions) lives in row_alloc, which may be the same allocator as
 * rg_alloc, or a per-row one the caller resets after each row.
 *
 * Supported: physical types BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE,
 * BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY; data pages v1 and v2 (v2 with or without
 * compression), dictionary pages (also with plain fallback pages after
 * them); encodings PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY, RLE (levels and
 * booleans), BIT_PACKED (levels), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
 * DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED);
 * codecs UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW and LZ4 (Hadoop framing,
 * else raw); several row groups (also empty ones); nested groups, LIST and
 * MAP (also the legacy two-level lists, "array" / "<name>_tuple" element
 * groups, MAP_KEY_VALUE) and unannotated repeated fields; logical and
 * converted types as listed at PqValueKind.  Not supported (clean error):
 * encryption, column chunks stored in other files, LZO, BROTLI, page CRCs
 * are not verified, statistics and page indexes are not used.
 *
 * Values are not validated beyond the format: a PQV_STRING may hold invalid
 * UTF-8 or NUL bytes, so code that turns it into PostgreSQL text must check.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/parquet.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_PARQUET_H
#define DELTACC_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt_alloc.h"

/*
 * Read exactly len bytes at offset off into buf.  Return 0 on success,
 * nonzero on failure (the reader reports "could not read file").  The
 * reader never asks for bytes past the file_size given to pq_open.
 */
typedef int (*PqReadAtFn) (void *ctx, uint64_t off, size_t len, void *buf);

typedef struct PqError
{
	char		message[256];	/* lower-case phrase, no trailing period */
} PqError;

/* Bounds on what a file may make the reader do (0 in a field = default). */
typedef struct PqLimits
{
	int			max_depth;		/* schema nesting; default 64 */
	uint32_t	max_footer_size;	/* default 256 MiB */
	uint64_t	max_page_size;	/* uncompressed bytes of one page; default
								 * 512 MiB */
	uint64_t	max_chunk_values;	/* level entries in one column chunk;
									 * default 2^28 */
} PqLimits;

/* Parquet enums (values as in parquet.thrift). */
typedef enum PqPhysicalType
{
	PQ_BOOLEAN = 0,
	PQ_INT32 = 1,
	PQ_INT64 = 2,
	PQ_INT96 = 3,
	PQ_FLOAT = 4,
	PQ_DOUBLE = 5,
	PQ_BYTE_ARRAY = 6,
	PQ_FIXED_LEN_BYTE_ARRAY = 7,
	PQ_GROUP = -1				/* not a Parquet value: marks a group node */
} PqPhysicalType;

typedef enum PqRepetition
{
	PQ_REQUIRED = 0,
	PQ_OPTIONAL = 1,
	PQ_REPEATED = 2
} PqRepetition;

/* The converted_type field (-1 when absent). */
typedef enum PqConvertedType
{
	PQ_CT_NONE = -1,
	PQ_CT_UTF8 = 0,
	PQ_CT_MAP = 1,
	PQ_CT_MAP_KEY_VALUE = 2,
	PQ_CT_LIST = 3,
	PQ_CT_ENUM = 4,
	PQ_CT_DECIMAL = 5,
	PQ_CT_DATE = 6,
	PQ_CT_TIME_MILLIS = 7,
	PQ_CT_TIME_MICROS = 8,
	PQ_CT_TIMESTAMP_MILLIS = 9,
	PQ_CT_TIMESTAMP_MICROS = 10,
	PQ_CT_UINT_8 = 11,
	PQ_CT_UINT_16 = 12,
	PQ_CT_UINT_32 = 13,
	PQ_CT_UINT_64 = 14,
	PQ_CT_INT_8 = 15,
	PQ_CT_INT_16 = 16,
	PQ_CT_INT_32 = 17,
	PQ_CT_INT_64 = 18,
	PQ_CT_JSON = 19,
	PQ_CT_BSON = 20,
	PQ_CT_INTERVAL = 21
} PqConvertedType;

/*
 * The effective logical type of a node: the LogicalType union when present,
 * else derived from converted_type (+ scale/precision).
 */
typedef enum PqLogicalKind
{
	PQ_LT_NONE = 0,
	PQ_LT_STRING,
	PQ_LT_MAP,
	PQ_LT_LIST,
	PQ_LT_DECIMAL,
	PQ_LT_DATE,
	PQ_LT_TIME,
	PQ_LT_TIMESTAMP,
	PQ_LT_INTEGER,
	PQ_LT_NULL,					/* UNKNOWN: always null */
	PQ_LT_JSON,
	PQ_LT_BSON,
	PQ_LT_UUID,
	PQ_LT_FLOAT16,
	PQ_LT_ENUM,
	PQ_LT_OTHER					/* a logical type this reader does not know */
} PqLogicalKind;

typedef enum PqTimeUnit
{
	PQ_MILLIS = 0,
	PQ_MICROS = 1,
	PQ_NANOS = 2
} PqTimeUnit;

typedef struct PqLogicalType
{
	PqLogicalKind kind;
	int32_t		scale;			/* DECIMAL */
	int32_t		precision;		/* DECIMAL */
	PqTimeUnit	unit;			/* TIME, TIMESTAMP */
	bool		utc;			/* TIME, TIMESTAMP: isAdjustedToUTC */
	int8_t		bit_width;		/* INTEGER: 8, 16, 32, 64 */
	bool		is_signed;		/* INTEGER */
} PqLogicalType;

typedef struct PqSchemaNode PqSchemaNode;

struct PqSchemaNode
{
	const char *name;			/* NUL-terminated (an embedded NUL is an
								 * error) */
	PqRepetition repetition;	/* the root is PQ_REQUIRED */
	PqPhysicalType type;		/* PQ_GROUP for groups */
	int32_t		type_length;	/* FIXED_LEN_BYTE_ARRAY width */
	PqConvertedType converted;
	PqLogicalType logical;
	bool		has_field_id;
	int32_t		field_id;
	int			num_children;
	PqSchemaNode **children;
	PqSchemaNode *parent;		/* NULL for the root */
	int			max_def;		/* definition level of this node */
	int			max_rep;		/* repetition level of this node */
	int			leaf_index;		/* column index for leaves, -1 for groups */
	int			node_index;		/* position in the flattened schema */
};

typedef struct PqFile PqFile;

/*
 * Open a Parquet file: check both magics, read and decode the footer and the
 * schema.  All metadata is allocated from alloc, which must outlive the
 * PqFile and everything opened from it.  limits may be NULL.  Returns NULL
 * and fills *err on any problem (bad magic, footer length past the file,
 * malformed Thrift, inconsistent schema, encrypted footer, ...).
 */
extern PqFile *pq_open(PqReadAtFn read_at, void *ctx, uint64_t file_size,
					   const FmtAllocator *alloc, const PqLimits *limits,
					   PqError *err);

/* Open a file held whole in memory (buf must outlive the PqFile). */
extern PqFile *pq_open_buffer(const uint8_t *buf, size_t len,
							  const FmtAllocator *alloc,
							  const PqLimits *limits, PqError *err);

/* The schema root (a group; its children are the top-level fields). */
extern const PqSchemaNode *pq_schema_root(const PqFile *f);

/* Number of leaf columns and the i-th leaf. */
extern int	pq_num_columns(const PqFile *f);
extern const PqSchemaNode *pq_column(const PqFile *f, int i);

/*
 * Find a node by top-level name or dotted path ("add.deletionVector.
 * storageType"); exact, case-sensitive.  NULL when absent.
 */
extern const PqSchemaNode *pq_schema_find(const PqFile *f, const char *path);

/* Row counts.  pq_row_group_first_row is the file-order position of the
 * group's first row (sum of the earlier groups' num_rows). */
extern int64_t pq_num_rows(const PqFile *f);
extern int	pq_num_row_groups(const PqFile *f);
extern int64_t pq_row_group_num_rows(const PqFile *f, int rg);
extern int64_t pq_row_group_first_row(const PqFile *f, int rg);

/* created_by from the footer, or NULL. */
extern const char *pq_created_by(const PqFile *f);

/* key_value_metadata lookup (e.g. "org.apache.spark.sql.parquet.row.metadata"); NULL if absent. */
extern const char *pq_kv_metadata(const PqFile *f, const char *key);

/* ---------- values ---------- */

typedef enum PqValueKind
{
	PQV_NULL = 0,
	PQV_BOOL,
	PQV_INT32,					/* INT32 without a logical type, INT(8/16/32,
								 * signed), UINT_8/16 */
	PQV_INT64,					/* INT64, INT(64), UINT_32, UINT_64 up to
								 * INT64_MAX, TIME (raw count in the node's
								 * unit) */
	PQV_FLOAT,
	PQV_DOUBLE,
	PQV_BYTES,					/* BYTE_ARRAY / FIXED without string type,
								 * UUID, FLOAT16, INTERVAL, BSON (raw bytes) */
	PQV_STRING,					/* STRING/UTF8/ENUM/JSON: bytes, not
								 * validated as UTF-8, not NUL-terminated */
	PQV_DECIMAL,				/* exact text, e.g. "-12.340", "0.05", "7";
								 * also UINT_64 above INT64_MAX */
	PQV_DATE,					/* u.i32 days since 1970-01-01 */
	PQV_TIMESTAMP,				/* u.i64 in ts_unit since the epoch; INT96
								 * becomes MICROS when exact, else NANOS */
	PQV_STRUCT,					/* u.items[0..len): the projected children in
								 * schema order; each item's node names it */
	PQV_LIST,					/* u.items[0..len) */
	PQV_MAP						/* u.map.keys[0..len), u.map.values[0..len) */
} PqValueKind;

typedef struct PqValue PqValue;

struct PqValue
{
	uint8_t		kind;			/* PqValueKind */
	uint8_t		ts_unit;		/* PQV_TIMESTAMP: PqTimeUnit */
	bool		ts_utc;			/* PQV_TIMESTAMP: isAdjustedToUTC (INT96:
								 * true) */
	uint32_t	len;			/* bytes (BYTES/STRING/DECIMAL) or items */
	const PqSchemaNode *node;	/* the schema node this value was read from */
	union
	{
		bool		b;
		int32_t		i32;
		int64_t		i64;
		float		f;
		double		d;
		const uint8_t *bytes;	/* BYTES, STRING */
		const char *text;		/* DECIMAL: NUL-terminated */
		PqValue    *items;		/* STRUCT, LIST */
		struct
		{
			PqValue    *keys;
			PqValue    *values;
		}			map;
	}			u;
};

/* A struct's child by field name (NULL when absent or v is not a struct). */
extern const PqValue *pq_struct_get(const PqValue *v, const char *name);

/* Short name of a value kind ("null", "int64", ...). */
extern const char *pq_value_kind_name(int kind);

/* ---------- record reader ---------- */

typedef struct PqReader PqReader;

/*
 * Prepare to read rows of f, projected to the named fields: top-level
 * names or dotted paths into nested groups (a dotted path keeps the
 * enclosing structs, with only the selected children).  columns == NULL or
 * ncolumns == 0 selects everything.  Names that are not in the file are
 * ignored (check with pq_schema_find when that matters).  Allocates from
 * the file's allocator.
 */
extern PqReader *pq_reader_open(PqFile *f, const char *const *columns,
								int ncolumns, PqError *err);

/*
 * Decode the projected column chunks of row group rg (reading them through
 * the callback, decompressing, decoding levels and values).  All buffers
 * come from rg_alloc.  Any earlier row group is forgotten.
 */
extern bool pq_reader_load_row_group(PqReader *r, int rg,
									 const FmtAllocator *rg_alloc,
									 PqError *err);

/*
 * Assemble the next row of the loaded row group into *row (a PQV_STRUCT of
 * the projected top-level fields, in schema order), allocating the value
 * tree from row_alloc.  *row_pos (may be NULL) gets the row's position in
 * the file (counting across row groups).  Returns 1 for a row, 0 when the
 * row group is exhausted, -1 on error.
 */
extern int	pq_reader_next(PqReader *r, const FmtAllocator *row_alloc,
						   PqValue *row, int64_t *row_pos, PqError *err);

/*
 * Convenience: iterate the whole file, loading row groups as needed; all
 * memory from one allocator (fine for small files and tests).
 */
extern int	pq_reader_next_any(PqReader *r, const FmtAllocator *alloc,
							   PqValue *row, int64_t *row_pos, PqError *err);

/*
 * What the pages loaded so far by this reader used (for tests and
 * diagnostics): bit n of encodings / level_encodings / codecs /
 * page_types is set when value encoding n, level encoding n, codec n or
 * page type n (parquet.thrift numbering) was seen.
 */
typedef struct PqReaderStats
{
	uint32_t	encodings;
	uint32_t	level_encodings;
	uint32_t	codecs;
	uint32_t	page_types;
	uint64_t	pages;
} PqReaderStats;

extern void pq_reader_stats(const PqReader *r, PqReaderStats *out);

#endif							/* DELTACC_PARQUET_H */
