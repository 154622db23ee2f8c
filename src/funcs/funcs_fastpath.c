/*-------------------------------------------------------------------------
 *
 * funcs_fastpath.c
 *	  deltacc.fastpath_stats: the fast paths' hit counters
 *	  (src/common/fastpath.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_fastpath.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "common/fastpath.h"
#include "log/log_reader.h"

PG_FUNCTION_INFO_V1(deltacc_fastpath_stats);

/*
 * deltacc.fastpath_stats(reset boolean): one row per fast path (name,
 * hits, misses, where the misses go), then the counters zeroed when reset.
 * Requires pg_read_server_files, like the functions that move the
 * counters.
 */
Datum
deltacc_fastpath_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		reset = PG_GETARG_BOOL(0);
	int			fp;

	DeltaCheckReadPrivilege();
	InitMaterializedSRF(fcinfo, 0);
	for (fp = 0; fp < DC_FP_N; fp++)
	{
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};

		values[0] = CStringGetTextDatum(dc_fastpath_name(fp));
		values[1] = Int64GetDatum((int64) dc_fastpath_counts[fp][0]);
		values[2] = Int64GetDatum((int64) dc_fastpath_counts[fp][1]);
		values[3] = CStringGetTextDatum(dc_fastpath_next(fp));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (reset)
		dc_fastpath_reset();
	PG_RETURN_VOID();
}
