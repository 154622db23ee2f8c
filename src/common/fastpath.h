/*-------------------------------------------------------------------------
 *
 * fastpath.h
 *	  Hit counters of the log-reading fast paths, for
 *	  deltacc.fastpath_stats().
 *
 * Every fast path of the JSON stack (docs/architecture.md) takes what it
 * can prove and hands the rest on: to the next fast path, or to the parse
 * tree.  Each counts, per backend, the inputs it took (hits) and those it
 * handed on (misses); dc_fastpath_next says where its misses go.  A fast
 * path whose misses go to the parse tree and that misses on a log a real
 * writer wrote is a bug to fix, not a tuning matter.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/fastpath.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_FASTPATH_H
#define DELTACC_FASTPATH_H

typedef enum DcFastPath
{
	DC_FP_ADDLINE_SHAPE,		/* add lines matched by a remembered line
								 * shape (snapshot/addline.c) */
	DC_FP_ADDLINE_SCAN,			/* add lines the shapes missed, decoded (or
								 * proved) by the line scanner */
	DC_FP_FILE_KEY,				/* add / remove lines that log replay keyed
								 * by the scanner (log/fastline.c) */
	DC_FP_STATS_LAYOUT,			/* statistics texts matched by a remembered
								 * layout (stats/stats.c, the prescan) */
	DC_FP_STATS_SCAN,			/* statistics texts whose wanted entries the
								 * statistics scanner found */
	DC_FP_JSONB_LAYOUT,			/* statistics jsonb written by a layout's
								 * plan (common/json_util.c) */
	DC_FP_REMOVELINE_SCAN,		/* remove lines of commits read for checks,
								 * decoded by the line scanner
								 * (snapshot/addline.c) */
	DC_FP_COMMITINFO_SCAN,		/* commitInfo lines of commits read for
								 * checks, decoded by the line scanner */
	DC_FP_N
} DcFastPath;

/* [fast path][0: hits, 1: misses], this backend's, since it started */
extern uint64 dc_fastpath_counts[DC_FP_N][2];

/* Count one input of fast path fp: taken (hit) or handed on. */
static inline void
dc_fastpath_note(DcFastPath fp, bool hit)
{
	dc_fastpath_counts[fp][hit ? 0 : 1]++;
}

/* The fast path's name, and where its misses go (another name, or "parse tree"). */
extern const char *dc_fastpath_name(DcFastPath fp);
extern const char *dc_fastpath_next(DcFastPath fp);

/* Set every counter to zero. */
extern void dc_fastpath_reset(void);

#endif							/* DELTACC_FASTPATH_H */
