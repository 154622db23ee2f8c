/*-------------------------------------------------------------------------
 *
 * subxact.h
 *	  The subtransaction trap shared by the modules that fall back on
 *	  errors (the checkpoint reader, the row-level tier).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/subxact.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SUBXACT_H
#define DELTACC_SUBXACT_H

#include "utils/elog.h"
#include "utils/palloc.h"

/* work run by dc_try_subxact */
typedef void (*DcWorkFn) (void *arg);

/*
 * dc_try_subxact: run fn(arg) inside an internal subtransaction with
 * work_cxt (the caller's, not deleted here) as CurrentMemoryContext.
 * Returns NULL when fn completed (the subtransaction is committed), else
 * the error, copied into the caller's CurrentMemoryContext (free it with
 * FreeErrorData): the subtransaction is rolled back, releasing what it
 * opened, and the error state is flushed.  Query cancel and shutdown
 * errors are re-thrown, and out-of-memory too when rethrow_oom.  The
 * caller's memory context and resource owner are current again on return.
 * Needs a transaction not in parallel mode.
 */
extern ErrorData *dc_try_subxact(DcWorkFn fn, void *arg,
								 MemoryContext work_cxt, bool rethrow_oom);

#endif							/* DELTACC_SUBXACT_H */
