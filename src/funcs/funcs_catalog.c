/*-------------------------------------------------------------------------
 *
 * funcs_catalog.c
 *	  SQL-callable functions of catalog-managed tables: deltacc.register_table,
 *	  deltacc.commit, deltacc.latest_version, deltacc.ratified_commits and
 *	  deltacc.publish.  The work is in src/coord; these take the
 *	  arguments apart (privileges are checked there, in C, as well as by
 *	  GRANT).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_catalog.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "coord/publish.h"
#include "coord/ratify.h"
#include "coord/store.h"
#include "funcs/funcs_args.h"
#include "log/log_reader.h"

PG_FUNCTION_INFO_V1(deltacc_register_table);
PG_FUNCTION_INFO_V1(deltacc_commit);
PG_FUNCTION_INFO_V1(deltacc_latest_version);
PG_FUNCTION_INFO_V1(deltacc_ratified_commits);
PG_FUNCTION_INFO_V1(deltacc_publish);

/* ERROR when argument argno, called 'name', is NULL. */
static void
require_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("%s must not be NULL", name));
}

/*
 * deltacc.register_table(table_path text) RETURNS bigint
 */
Datum
deltacc_register_table(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(catalog_register(text_to_cstring(PG_GETARG_TEXT_PP(0))));
}

/*
 * deltacc.commit(table_path, read_version, actions, read_predicates,
 * read_whole_table, read_app_ids, read_files, isolation_level, mode,
 * staged_path) RETURNS bigint
 */
Datum
deltacc_commit(PG_FUNCTION_ARGS)
{
	CommitRequest req;

	require_arg(fcinfo, 0, "table_path");
	require_arg(fcinfo, 1, "read_version");
	memset(&req, 0, sizeof(req));
	req.table_path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	req.read_version = PG_GETARG_INT64(1);
	if (!PG_ARGISNULL(2))
		req.actions = PG_GETARG_JSONB_P(2);
	req.preds = dc_text_array_arg(fcinfo, 3, "read_predicates", &req.npreds);
	if (req.npreds < 0)
		req.npreds = 0;
	req.read_whole_table = PG_ARGISNULL(4) ? false : PG_GETARG_BOOL(4);
	req.app_ids = dc_text_array_arg(fcinfo, 5, "read_app_ids", &req.napp);
	if (req.napp < 0)
		req.napp = 0;
	req.read_files = dc_text_array_arg(fcinfo, 6, "read_files",
									   &req.nread_files);
	if (!PG_ARGISNULL(7))
		req.isolation = text_to_cstring(PG_GETARG_TEXT_PP(7));
	req.mode = dc_mode_arg(fcinfo, 8);
	if (!PG_ARGISNULL(9))
		req.staged_path = text_to_cstring(PG_GETARG_TEXT_PP(9));
	PG_RETURN_INT64(catalog_commit(&req));
}

/*
 * deltacc.latest_version(table_path text) RETURNS bigint
 */
Datum
deltacc_latest_version(PG_FUNCTION_ARGS)
{
	char	   *path;
	ManagedTable mt;

	catalog_check_role(CATALOG_ROLE_READ);
	path = DeltaCanonicalTablePath(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	if (!catalog_get_table(path, false, &mt))
		catalog_not_registered(path);
	PG_RETURN_INT64(mt.latest_version);
}

/*
 * deltacc.ratified_commits(table_path, start_version, end_version): the
 * ratified commits in the range, ascending, from one snapshot.  An inline
 * commit's content is returned as text (the bytes are UTF-8), a staged
 * one's by its path.
 */
Datum
deltacc_ratified_commits(PG_FUNCTION_ARGS)
{
#define RATIFIED_COLS 6
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *path;
	ManagedTable mt;
	RatifiedRow *rows;
	int			nrows;
	int			i;

	catalog_check_role(CATALOG_ROLE_READ);
	require_arg(fcinfo, 0, "table_path");
	InitMaterializedSRF(fcinfo, 0);
	path = DeltaCanonicalTablePath(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	if (!catalog_list_ratified(path,
							   PG_ARGISNULL(1) ? PG_INT64_MIN : PG_GETARG_INT64(1),
							   PG_ARGISNULL(2) ? PG_INT64_MAX : PG_GETARG_INT64(2),
							   false, &mt, &rows, &nrows))
		catalog_not_registered(path);
	for (i = 0; i < nrows; i++)
	{
		RatifiedRow *rw = &rows[i];
		Datum		values[RATIFIED_COLS];
		bool		nulls[RATIFIED_COLS];

		memset(nulls, 0, sizeof(nulls));
		values[0] = Int64GetDatum(rw->version);
		if (rw->staged_path)
			values[1] = CStringGetTextDatum(rw->staged_path);
		else
			nulls[1] = true;
		if (rw->content)
		{
			char	   *s = pg_any_to_server(rw->content, (int) rw->content_len,
											 PG_UTF8);

			values[2] = PointerGetDatum(cstring_to_text_with_len(s, strlen(s)));
		}
		else
			nulls[2] = true;
		values[3] = TimestampTzGetDatum(rw->in_commit_timestamp);
		nulls[3] = !rw->has_ict;
		values[4] = TimestampTzGetDatum(rw->ratified_at);
		values[5] = BoolGetDatum(rw->published);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
#undef RATIFIED_COLS
	return (Datum) 0;
}

/*
 * deltacc.publish(table_path text, through_version bigint) RETURNS bigint
 */
Datum
deltacc_publish(PG_FUNCTION_ARGS)
{
	require_arg(fcinfo, 0, "table_path");
	PG_RETURN_INT64(catalog_publish(text_to_cstring(PG_GETARG_TEXT_PP(0)),
									!PG_ARGISNULL(1),
									PG_ARGISNULL(1) ? 0 : PG_GETARG_INT64(1)));
}
