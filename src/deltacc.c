/*-------------------------------------------------------------------------
 *
 * deltacc.c
 *	  Module magic, _PG_init and the GUCs of deltacc.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/deltacc.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "checkpoint.h"
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
	checkpoint_init();
	MarkGUCPrefixReserved("deltacc");
}
