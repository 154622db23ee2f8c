/*-------------------------------------------------------------------------
 *
 * subxact.c
 *	  dc_try_subxact: run a piece of work in an internal subtransaction and
 *	  hand its error back, for the modules that fall back on errors.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/subxact.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "utils/resowner.h"

#include "common/subxact.h"

/* See subxact.h. */
ErrorData *
dc_try_subxact(DcWorkFn fn, void *arg, MemoryContext work_cxt,
			   bool rethrow_oom)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	ErrorData  *volatile result = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(work_cxt);
	PG_TRY();
	{
		fn(arg);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN ||
			edata->sqlerrcode == ERRCODE_CRASH_SHUTDOWN ||
			(rethrow_oom && edata->sqlerrcode == ERRCODE_OUT_OF_MEMORY))
		{
			FreeErrorData(edata);
			PG_RE_THROW();
		}
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		result = edata;
	}
	PG_END_TRY();
	return result;
}
