/*-------------------------------------------------------------------------
 *
 * deletion_vector.c
 *	  Deletion vectors in the backend: locate, read with limits, verify,
 *	  decode (see deletion_vector.h), and the SQL function
 *	  deltacc.deletion_vector for analysts and tests.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/rows/deletion_vector.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"

#include "common/compat.h"
#include "common/fileio.h"
#include "common/json_util.h"
#include "format/dvfile.h"
#include "log/actions.h"
#include "rows/deletion_vector.h"
#include "storage/objstore.h"

PG_FUNCTION_INFO_V1(deltacc_deletion_vector);

int			deltacc_max_deletion_vector_bytes = 128 * 1024 * 1024;

/* Largest row_indexes array deltacc.deletion_vector returns. */
#define DV_SQL_MAX_ROWS ((int64) 16 * 1024 * 1024)

/* What the error context callback reports. */
typedef struct DVErrorPosition
{
	const char *display_path;	/* NULL for an inline DV */
	int64		offset;
	ErrorContextCallback cb;
} DVErrorPosition;

/*
 * Define deltacc.max_deletion_vector_bytes.  Called once from _PG_init.
 */
void
deletion_vector_init(void)
{
	DefineCustomIntVariable("deltacc.max_deletion_vector_bytes",
							"Largest deletion vector deltacc reads.",
							"A descriptor whose sizeInBytes exceeds this is refused before anything is read or allocated.",
							&deltacc_max_deletion_vector_bytes,
							128 * 1024 * 1024,
							64,
							INT_MAX,
							PGC_SUSET,
							GUC_UNIT_BYTE,
							NULL, NULL, NULL);
}

/* Error context: 'deletion vector file "<path>", offset N' or inline. */
static void
dv_error_callback(void *arg)
{
	DVErrorPosition *pos = (DVErrorPosition *) arg;

	if (pos->display_path == NULL)
		errcontext("inline deletion vector");
	else
		errcontext("deletion vector file \"%s\", offset " INT64_FORMAT,
				   pos->display_path, pos->offset);
}

/*
 * Raise the ERROR for a failed src/format decode: out of memory as
 * ERRCODE_OUT_OF_MEMORY, everything else ERRCODE_DATA_CORRUPTED with the
 * decoder's reason (capitalised into a sentence) as the detail.
 */
static void
dv_report(const DvError *err)
{
	char		detail[sizeof(err->message)];

	if (strcmp(err->message, "out of memory") == 0)
		ereport(ERROR,
				errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("out of memory while decoding a deletion vector"));
	strlcpy(detail, err->message, sizeof(detail));
	if (detail[0] >= 'a' && detail[0] <= 'z')
		detail[0] = detail[0] - 'a' + 'A';
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("invalid deletion vector"),
			errdetail("%s (at byte %zu).", detail, err->offset));
}

/*
 * Resolve a descriptor to its file (see deletion_vector.h).
 */
void
DeltaDVLocate(const DeltaLog *log, const DeltaDV *dv, DeltaDVLocation *loc)
{
	DvError		err;
	size_t		len = strlen(dv->path_or_inline);

	loc->storage_type = dv->storage_type;
	loc->offset = dv->has_offset ? dv->offset : 0;
	loc->abs_path = NULL;
	loc->display_path = NULL;
	switch (dv->storage_type)
	{
		case 'i':
			break;
		case 'u':
			{
				/* prefix + "/" + file name; the prefix is shorter than the id */
				size_t		cap = len + DV_FILE_NAME_LEN + 2;
				char	   *rel = palloc(cap);

				if (!dv_relative_path(dv->path_or_inline, len, rel, cap, &err))
					dv_report(&err);
				loc->display_path = rel;
				loc->abs_path = psprintf("%s/%s", log->table_path, rel);
				break;
			}
		case 'p':
			{
				char	   *path = palloc(len + 1);

				if (strncmp(dv->path_or_inline, "file:", 5) != 0 &&
					dv->path_or_inline[0] != '/')
					ereport(ERROR,
							errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							errmsg("unsupported deletion vector location \"%s\"",
								   dv->path_or_inline),
							errdetail("Only absolute file: URIs and absolute paths can be read."));
				if (!dv_uri_to_path(dv->path_or_inline, len, path, len + 1, &err))
					dv_report(&err);
				loc->abs_path = path;
				loc->display_path = path;
				break;
			}
		default:
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("unsupported deletion vector storage type \"%c\"",
						   dv->storage_type),
					errdetail("Storage types \"u\", \"i\" and \"p\" are supported."));
	}
}

/*
 * Read the version byte and the frame (size word, bitmap, checksum) of a
 * stored DV, check them, and return the bitmap bytes (palloc'd) in *data.
 */
static void
read_stored_bitmap(const DeltaDVLocation *loc, const DeltaDV *dv,
				   const uint8_t **data)
{
	int			fd;
	struct stat st;
	StorageReader *remote = NULL;
	uint8_t		version;
	Size		frame_len = (Size) dv->size_in_bytes + DV_FRAME_OVERHEAD;
	char	   *frame;
	Size		got;
	DvError		err;

	if (storage_is_remote(loc->abs_path))
	{
		/* the version byte and the frame: one read-ahead block if small */
		remote = storage_reader_open(loc->abs_path, "deletion vector file",
									 loc->display_path);
		fd = -1;
		st.st_size = (off_t) remote->info.size;
	}
	else
		fd = DeltaOpenRegularFile(loc->abs_path, "deletion vector file",
								  loc->display_path, &st);
	if (loc->offset < 0 || (uint64) loc->offset + frame_len > (uint64) st.st_size)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("deletion vector extends past the end of its file"),
				errdetail("The descriptor places %zu bytes at offset " INT64_FORMAT "; the file has %lld bytes.",
						  frame_len, loc->offset, (long long) st.st_size));

	version = 0;
	if (fd < 0)
	{
		storage_reader_read(remote, (char *) &version, 1, 0);
		got = 1;
	}
	else
		got = DeltaReadAtMost(fd, (char *) &version, 1, 0, "deletion vector file",
							  loc->display_path);
	if (!dv_check_version(&version, got, &err))
		dv_report(&err);

	frame = palloc_extended(frame_len, MCXT_ALLOC_HUGE);
	if (fd < 0)
	{
		storage_reader_read(remote, frame, frame_len, (uint64) loc->offset);
		got = frame_len;
		storage_reader_free(remote);
	}
	else
	{
		got = DeltaReadAtMost(fd, frame, frame_len, (off_t) loc->offset,
							  "deletion vector file", loc->display_path);
		CloseTransientFile(fd);
	}
	if (!dv_unframe((const uint8_t *) frame, got, dv->size_in_bytes, data, &err))
	{
		err.offset += (size_t) loc->offset;
		dv_report(&err);
	}
}

/*
 * Load the deleted row indexes of a DV (see deletion_vector.h).
 */
RbSet *
DeltaDVLoad(const DeltaLog *log, const DeltaDV *dv, int64 num_records)
{
	DeltaDVLocation loc;
	DVErrorPosition pos;
	FmtAllocator alloc = dc_fmt_allocator(CurrentMemoryContext);
	RbSet	   *set = palloc0(sizeof(RbSet));
	DvError		err;
	uint64_t	max_row;

	DeltaDVLocate(log, dv, &loc);
	if (dv->cardinality == 0)
	{
		rb_set_empty(set);
		return set;
	}

	pos.display_path = loc.display_path;
	pos.offset = loc.offset;
	pos.cb.callback = dv_error_callback;
	pos.cb.arg = &pos;
	pos.cb.previous = error_context_stack;
	error_context_stack = &pos.cb;

	if (dv->size_in_bytes > deltacc_max_deletion_vector_bytes)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("deletion vector is too large"),
				errdetail("It has %d bytes; the limit (deltacc.max_deletion_vector_bytes) is %d bytes.",
						  dv->size_in_bytes, deltacc_max_deletion_vector_bytes));

	if (dv->storage_type == 'i')
	{
		if (!dv_decode_inline(dv->path_or_inline, strlen(dv->path_or_inline),
							  dv->size_in_bytes, dv->cardinality, &alloc, set, &err))
			dv_report(&err);
	}
	else
	{
		const uint8_t *data;

		read_stored_bitmap(&loc, dv, &data);
		CHECK_FOR_INTERRUPTS();
		if (!dv_decode_bitmap(data, (size_t) dv->size_in_bytes, dv->cardinality,
							  &alloc, set, &err))
		{
			err.offset += (size_t) loc.offset + 4;
			dv_report(&err);
		}
		pfree((void *) (data - 4));
	}

	if (num_records >= 0 && rb_max(set, &max_row) && max_row >= (uint64) num_records)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("deletion vector deletes a row its data file does not have"),
				errdetail("It deletes row index %llu; the file has " INT64_FORMAT " rows (numRecords).",
						  (unsigned long long) max_row, num_records));

	error_context_stack = pos.cb.previous;
	return set;
}

/*
 * Decode a descriptor given as jsonb, with the same validation as a
 * deletionVector inside a log entry (actions.c): the object is wrapped as
 * {"remove": {"path": "-", "deletionVector": <descriptor>}} and decoded.
 */
static DeltaDV *
descriptor_from_jsonb(Jsonb *jb)
{
	DjValue		desc = dc_jsonb_parse(jb, "deletion vector descriptor",
									  ERRCODE_INVALID_PARAMETER_VALUE);
	DjMember	inner[2];
	DjMember	outer;
	DjValue		action;
	DeltaCommitBuilder b;
	DeltaCommit *commit;
	DeltaArgumentContext ctx;

	if (desc.type != DJ_OBJECT)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("deletion vector descriptor must be a JSON object"));

	memset(inner, 0, sizeof(inner));
	inner[0].key = "path";
	inner[0].keylen = 4;
	inner[0].value.type = DJ_STRING;
	inner[0].value.len = 1;
	inner[0].value.u.str = "-";
	inner[1].key = "deletionVector";
	inner[1].keylen = 14;
	inner[1].value = desc;
	memset(&outer, 0, sizeof(outer));
	outer.key = "remove";
	outer.keylen = 6;
	outer.value.type = DJ_OBJECT;
	outer.value.len = 2;
	outer.value.u.members = inner;
	memset(&action, 0, sizeof(action));
	action.type = DJ_OBJECT;
	action.len = 1;
	action.u.members = &outer;

	DeltaArgumentContextPush(&ctx, "deletion vector descriptor argument");
	DeltaCommitBuilderInit(&b, 0);
	DeltaDecodeAction(&b, &action);
	commit = DeltaCommitBuilderFinish(&b);
	DeltaArgumentContextPop(&ctx);

	if (commit->n_files != 1 || commit->files[0].dv == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("deletion vector descriptor could not be decoded"));
	return commit->files[0].dv;
}

/*
 * deltacc.deletion_vector(table_path text, descriptor jsonb)
 *	 -> (storage_type text, path text, "offset" integer, size_in_bytes
 *		 integer, cardinality bigint, row_indexes bigint[])
 *
 * Decodes one deletion-vector descriptor of the table at table_path: where
 * its bytes are, and the deleted row indexes, ascending.  Requires the
 * privileges of pg_read_server_files.  'path' is relative to the table
 * root for "u" descriptors, absolute for "p", NULL for inline ones.
 */
Datum
deltacc_deletion_vector(PG_FUNCTION_ARGS)
{
#define DV_SQL_COLS 6
	char	   *table_path;
	Jsonb	   *descriptor = PG_GETARG_JSONB_P(1);
	TupleDesc	tupdesc;
	Datum		values[DV_SQL_COLS];
	bool		nulls[DV_SQL_COLS];
	DeltaLog   *log;
	DeltaDV    *dv;
	DeltaDVLocation loc;
	RbSet	   *set;
	RbIter		it;
	uint64_t	row;
	Datum	   *rows;
	int64		n = 0;
	int			i = 0;

	DeltaCheckReadPrivilege();
	table_path = text_to_cstring(PG_GETARG_TEXT_PP(0));

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	log = DeltaLogOpen(table_path);
	dv = descriptor_from_jsonb(descriptor);
	DeltaDVLocate(log, dv, &loc);
	if (dv->cardinality > DV_SQL_MAX_ROWS)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("deletion vector has too many rows to return as an array"),
				errdetail("It has " INT64_FORMAT " rows; at most " INT64_FORMAT " can be returned.",
						  dv->cardinality, DV_SQL_MAX_ROWS));
	set = DeltaDVLoad(log, dv, -1);

	rows = palloc_extended(sizeof(Datum) * (Size) Max(rb_cardinality(set), 1),
						   MCXT_ALLOC_HUGE);
	rb_iter_init(&it, set);
	while (rb_iter_next(&it, &row))
	{
		if ((n & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		rows[n++] = Int64GetDatum((int64) row);
	}

	memset(nulls, 0, sizeof(nulls));
	values[i++] = CStringGetTextDatum(psprintf("%c", dv->storage_type));
	if (loc.display_path)
		values[i++] = CStringGetTextDatum(loc.display_path);
	else
		nulls[i++] = true;
	if (dv->has_offset)
		values[i++] = Int32GetDatum(dv->offset);
	else
		nulls[i++] = true;
	values[i++] = Int32GetDatum(dv->size_in_bytes);
	values[i++] = Int64GetDatum(dv->cardinality);
	values[i++] = PointerGetDatum(construct_array(rows, (int) n, INT8OID,
												  sizeof(int64), FLOAT8PASSBYVAL,
												  TYPALIGN_DOUBLE));
	Assert(i == DV_SQL_COLS);
#undef DV_SQL_COLS

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc),
													  values, nulls)));
}
