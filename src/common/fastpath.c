/*-------------------------------------------------------------------------
 *
 * fastpath.c
 *	  Hit counters of the log-reading fast paths (see fastpath.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/fastpath.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/fastpath.h"

uint64		dc_fastpath_counts[DC_FP_N][2];

static const char *const fp_names[DC_FP_N] = {
	[DC_FP_ADDLINE_SHAPE] = "add_line.shape",
	[DC_FP_ADDLINE_SCAN] = "add_line.scan",
	[DC_FP_FILE_KEY] = "file_key.scan",
	[DC_FP_STATS_LAYOUT] = "stats.layout",
	[DC_FP_STATS_SCAN] = "stats.scan",
	[DC_FP_JSONB_LAYOUT] = "stats_jsonb.layout",
	[DC_FP_REMOVELINE_SCAN] = "remove_line.scan",
	[DC_FP_COMMITINFO_SCAN] = "commit_info.scan",
};

static const char *const fp_next[DC_FP_N] = {
	[DC_FP_ADDLINE_SHAPE] = "add_line.scan, file_key.scan",
	[DC_FP_ADDLINE_SCAN] = "parse tree",
	[DC_FP_FILE_KEY] = "parse tree",
	[DC_FP_STATS_LAYOUT] = "stats.scan",
	[DC_FP_STATS_SCAN] = "parse tree",
	[DC_FP_JSONB_LAYOUT] = "parse tree",
	[DC_FP_REMOVELINE_SCAN] = "parse tree",
	[DC_FP_COMMITINFO_SCAN] = "parse tree",
};

/* See fastpath.h. */
const char *
dc_fastpath_name(DcFastPath fp)
{
	Assert(fp >= 0 && fp < DC_FP_N);
	return fp_names[fp];
}

/* See fastpath.h. */
const char *
dc_fastpath_next(DcFastPath fp)
{
	Assert(fp >= 0 && fp < DC_FP_N);
	return fp_next[fp];
}

/* See fastpath.h. */
void
dc_fastpath_reset(void)
{
	memset(dc_fastpath_counts, 0, sizeof(dc_fastpath_counts));
}
