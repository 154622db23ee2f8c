/*-------------------------------------------------------------------------
 *
 * deltacc.c
 *	  Module magic and _PG_init: each layer that owns GUCs defines them in
 *	  its own *_init function, called from here (the only file that knows
 *	  every layer).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/deltacc.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "coord/store.h"
#include "check/conflict.h"
#include "check/rowlevel.h"
#include "common/compat.h"
#include "funcs/snapshot_scan.h"
#include "log/log_reader.h"
#include "rows/deletion_vector.h"
#include "snapshot/commit_cache.h"
#include "storage/objstore.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * Module load: define the GUCs.  Each subsystem that owns GUCs defines them
 * in its own *_init function, called from here; snapshot_scan_init
 * installs the planner hook of snapshot_files' scan.
 */
void
_PG_init(void)
{
	log_reader_init();
	storage_init();
	conflict_init();
	commit_cache_init();
	deletion_vector_init();
	rowlevel_init();
	catalog_init();
	snapshot_scan_init();
	MarkGUCPrefixReserved("deltacc");
}
