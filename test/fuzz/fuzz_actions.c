/*
 * fuzz_actions.c
 *	  libFuzzer harness for Delta action decoding (src/log/actions.c, with the
 *	  JSON helpers of src/common/json_util.c): the input is a commit file, one
 *	  JSON action per line, decoded exactly as the log reader does, then
 *	  (when the whole input is one JSON array) as the actions argument of
 *	  the conflict functions.  Runs outside the server: pg_stubs.c provides
 *	  palloc, ereport (ERROR longjmps back here) and StringInfo.
 *
 * Checked: no crash or sanitizer report, no XX000 (pg_stubs.c aborts on
 * errcode(ERRCODE_INTERNAL_ERROR)), and the decoded structures are whole
 * (every string NUL-terminated and readable, counts matching arrays, the
 * numRecords/tightBounds pulled out of stats consistent).
 */
#include "postgres.h"

#include "log/actions.h"
#include "common/json_util.h"

#include "fuzz_common.h"
#include "pg_stubs.h"

static void
check_str(const char *s)
{
	if (s != NULL)
		(void) strlen(s);
}

static void
check_commit(const DeltaCommit *c)
{
	int			i,
				k;

	FUZZ_ASSERT(c->n_files >= 0 && (c->n_files == 0 || c->files != NULL));
	for (i = 0; i < c->n_files; i++)
	{
		const DeltaFileAction *f = &c->files[i];

		FUZZ_ASSERT(f->path != NULL);
		check_str(f->path);
		check_str(f->stats);
		check_str(f->tags_json);
		FUZZ_ASSERT(f->tight_bounds >= -1 && f->tight_bounds <= 1);
		FUZZ_ASSERT(!f->has_num_records || f->stats != NULL || f->stats_parsed_json != NULL);
		for (k = 0; k < f->pv.n; k++)
		{
			check_str(f->pv.keys[k]);
			check_str(f->pv.values[k]);
		}
		if (f->dv)
		{
			FUZZ_ASSERT(f->dv->path_or_inline != NULL && f->dv->unique_id != NULL);
			check_str(f->dv->path_or_inline);
			check_str(f->dv->unique_id);
			(void) DeltaDVUniqueId(f->dv);
		}
	}
	if (c->metadata)
	{
		check_str(c->metadata->id);
		check_str(c->metadata->schema_string);
		check_str(c->metadata->format_json);
		for (k = 0; k < c->metadata->n_partition_columns; k++)
			check_str(c->metadata->partition_columns[k]);
		for (k = 0; k < c->metadata->n_configuration; k++)
		{
			check_str(c->metadata->config_keys[k]);
			check_str(c->metadata->config_values[k]);
		}
	}
	if (c->protocol)
	{
		for (k = 0; k < c->protocol->n_reader_features; k++)
			check_str(c->protocol->reader_features[k]);
		for (k = 0; k < c->protocol->n_writer_features; k++)
			check_str(c->protocol->writer_features[k]);
	}
	if (c->commit_info)
	{
		FUZZ_ASSERT(c->commit_info->info != NULL);
		check_str(DeltaCommitInfoJson(c->commit_info));
		check_str(c->commit_info->operation);
		check_str(DeltaCommitInfoOperationParametersJson(c->commit_info));
		check_str(c->commit_info->isolation_level);
		check_str(c->commit_info->engine_info);
		check_str(c->commit_info->txn_id);
	}
	for (i = 0; i < c->n_txns; i++)
		check_str(c->txns[i].app_id);
	for (i = 0; i < c->n_domains; i++)
	{
		check_str(c->domains[i].domain);
		check_str(c->domains[i].configuration);
	}
	for (i = 0; i < c->n_sidecars; i++)
		check_str(c->sidecars[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *) data;
	static volatile size_t pos;
	DjValue		v;
	DjError		err;
	FmtAllocator alloc;

	pos = 0;
	if (setjmp(stub_error_jmp) == 0)
	{
		DeltaCommitBuilder b;

		DeltaCommitBuilderInit(&b, 7);
		alloc = dc_fmt_allocator(CurrentMemoryContext);
		while (pos < size)
		{
			const char *line = buf + pos;
			const char *nl = memchr(line, '\n', size - pos);
			size_t		len = nl ? (size_t) (nl - line) : size - pos;

			pos += len + (nl ? 1 : 0);
			if (len == 0)
				continue;
			if (!dj_parse(line, len, &alloc, DJ_DEFAULT_MAX_DEPTH, &v, &err))
				continue;		/* the log reader raises; other lines still count */
			DeltaDecodeAction(&b, &v);
		}
		check_commit(DeltaCommitBuilderFinish(&b));
	}
	stub_free_all();

	/* the whole input as the conflict functions' actions argument */
	if (setjmp(stub_error_jmp) == 0)
	{
		alloc = dc_fmt_allocator(CurrentMemoryContext);
		if (dj_parse(buf, size, &alloc, DJ_DEFAULT_MAX_DEPTH, &v, &err) &&
			v.type == DJ_ARRAY)
			check_commit(DeltaDecodeActionArray(&v, 7));
	}
	stub_free_all();
	return 0;
}
