/*-------------------------------------------------------------------------
 *
 * deltacc.c
 *	  Module magic, _PG_init, the GUCs of deltacc and dc_try_subxact.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/deltacc.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "utils/guc.h"
#include "utils/resowner.h"

#include "commit_cache.h"
#include "compat.h"
#include "deletion_vector.h"
#include "deltacc.h"
#include "conflict.h"
#include "log_reader.h"
#include "rowlevel.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * Module load: define the GUCs.  Each subsystem that owns GUCs defines them
 * in its own *_init function, called from here.
 */
void
_PG_init(void)
{
	log_reader_init();
	conflict_init();
	commit_cache_init();
	deletion_vector_init();
	rowlevel_init();
	MarkGUCPrefixReserved("deltacc");
}

/* See deltacc.h. */
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
