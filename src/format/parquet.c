/*-------------------------------------------------------------------------
 *
 * parquet.c
 *	  Parquet reader (work in progress: the API of parquet.h, not yet
 *	  implemented; every entry point returns an error).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/parquet.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <string.h>

#include "parquet.h"
#include "thrift.h"

static void
not_yet(PqError *err)
{
	snprintf(err->message, sizeof(err->message), "parquet reader not implemented yet");
}

PqFile *
pq_open(PqReadAtFn read_at, void *ctx, uint64_t file_size,
		const FmtAllocator *alloc, const PqLimits *limits, PqError *err)
{
	(void) read_at; (void) ctx; (void) file_size; (void) alloc; (void) limits;
	not_yet(err);
	return NULL;
}

PqFile *
pq_open_buffer(const uint8_t *buf, size_t len, const FmtAllocator *alloc,
			   const PqLimits *limits, PqError *err)
{
	(void) buf; (void) len; (void) alloc; (void) limits;
	not_yet(err);
	return NULL;
}

const PqSchemaNode *pq_schema_root(const PqFile *f) { (void) f; return NULL; }
int pq_num_columns(const PqFile *f) { (void) f; return 0; }
const PqSchemaNode *pq_column(const PqFile *f, int i) { (void) f; (void) i; return NULL; }
const PqSchemaNode *pq_schema_find(const PqFile *f, const char *path) { (void) f; (void) path; return NULL; }
int64_t pq_num_rows(const PqFile *f) { (void) f; return 0; }
int pq_num_row_groups(const PqFile *f) { (void) f; return 0; }
int64_t pq_row_group_num_rows(const PqFile *f, int rg) { (void) f; (void) rg; return 0; }
int64_t pq_row_group_first_row(const PqFile *f, int rg) { (void) f; (void) rg; return 0; }
const char *pq_created_by(const PqFile *f) { (void) f; return NULL; }
const char *pq_kv_metadata(const PqFile *f, const char *key) { (void) f; (void) key; return NULL; }
const PqValue *pq_struct_get(const PqValue *v, const char *name) { (void) v; (void) name; return NULL; }
const char *pq_value_kind_name(int kind) { (void) kind; return "unknown"; }

PqReader *
pq_reader_open(PqFile *f, const char *const *columns, int ncolumns, PqError *err)
{
	(void) f; (void) columns; (void) ncolumns;
	not_yet(err);
	return NULL;
}

bool
pq_reader_load_row_group(PqReader *r, int rg, const FmtAllocator *rg_alloc, PqError *err)
{
	(void) r; (void) rg; (void) rg_alloc;
	not_yet(err);
	return false;
}

int
pq_reader_next(PqReader *r, const FmtAllocator *row_alloc, PqValue *row, int64_t *row_pos, PqError *err)
{
	(void) r; (void) row_alloc; (void) row; (void) row_pos;
	not_yet(err);
	return -1;
}

int
pq_reader_next_any(PqReader *r, const FmtAllocator *alloc, PqValue *row, int64_t *row_pos, PqError *err)
{
	(void) r; (void) alloc; (void) row; (void) row_pos;
	not_yet(err);
	return -1;
}
