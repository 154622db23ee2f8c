/*-------------------------------------------------------------------------
 *
 * readset_cache.c
 *	  The session cache of compiled read sets; see readset_cache.h.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/readset_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "common/hashfn.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "parser/parse_expr.h"
#include "parser/parser.h"
#include "pgtime.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"
#include "utils/xml.h"

#include "check/readset_cache.h"
#include "snapshot/commit_cache.h"

/* One kept plan; it lives in the plan's own context. */
typedef struct PlanEntry
{
	MemoryContext cxt;			/* the plan's context: freeing it frees all */
	DeltaReadSet *plan;
	char	   *key;
	int			keylen;
	uint32		hash;
	uint64		generation;		/* the catalogs' generation it was built in */
	uint64		last_used;
	int			pins;			/* instances alive */
	bool		dead;			/* out of the cache: freed at the last unpin */
} PlanEntry;

static PlanEntry *entries[READSET_CACHE_ENTRIES];
static int	n_entries = 0;
static uint64 use_clock = 0;
static uint64 last_serial = 0;	/* the serials of kept plans */
static MemoryContext cache_cxt = NULL;

/*
 * Bumped by every invalidation of the catalogs analysis reads.  One
 * syscache per catalog is enough: PostgreSQL sends an invalidation to every
 * cache of a catalog whose row changes.  Creating or dropping a relation
 * changes its row type in pg_type, so a regclass literal is covered too.
 */
static uint64 catalog_generation = 1;
static bool callbacks_registered = false;

static const int watched_caches[] = {
	PROCOID,					/* pg_proc: functions, their ACLs */
	OPEROID,					/* pg_operator */
	TYPEOID,					/* pg_type: types, relations' row types */
	CASTSOURCETARGET,			/* pg_cast */
	COLLOID,					/* pg_collation */
	NAMESPACEOID,				/* pg_namespace: search_path's schemas */
	AMOPOPID,					/* pg_amop: operator family members */
	AMPROCNUM,					/* pg_amproc */
	CLAOID,						/* pg_opclass */
	OPFAMILYOID,				/* pg_opfamily */
	TSCONFIGOID,				/* pg_ts_config: regconfig literals */
};

static void
catalog_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	catalog_generation++;
}

static void
register_callbacks(void)
{
	int			i;

	if (callbacks_registered)
		return;
	for (i = 0; i < lengthof(watched_caches); i++)
		CacheRegisterSyscacheCallback(watched_caches[i], catalog_changed,
									  (Datum) 0);
	callbacks_registered = true;
}

/* Take entry i out of the cache; free it now unless an instance holds it. */
static void
remove_entry(int i)
{
	PlanEntry  *e = entries[i];

	entries[i] = entries[--n_entries];
	entries[n_entries] = NULL;
	if (e->pins > 0)
		e->dead = true;
	else
		MemoryContextDelete(e->cxt);
}

static void
unpin(void *arg)
{
	PlanEntry  *e = (PlanEntry *) arg;

	Assert(e->pins > 0);
	if (--e->pins == 0 && e->dead)
		MemoryContextDelete(e->cxt);
}

/* Append len, then the bytes (NULL as length -1). */
static void
key_add(StringInfo key, const char *s)
{
	int32		len = s ? (int32) strlen(s) : -1;

	appendBinaryStringInfo(key, (const char *) &len, sizeof(len));
	if (s)
		appendBinaryStringInfo(key, s, len);
}

/*
 * The settings under which analysis looks names up and reads literals
 * (the input functions of the built-in types consult these), read from
 * the variables PostgreSQL keeps them in (what their values mean; a
 * lookup by name per setting costs more than the rest of the key):
 * search_path, DateStyle (style and order), IntervalStyle, TimeZone (the
 * zone's name), standard_conforming_strings, backslash_quote,
 * transform_null_equals, array_nulls, lc_monetary and xmloption; by name
 * only timezone_abbreviations, whose variable is not exported.
 */
static void
key_add_settings(StringInfo key)
{
	int			ints[5];
	bool		bools[3];

	ints[0] = DateStyle;
	ints[1] = DateOrder;
	ints[2] = IntervalStyle;
	ints[3] = backslash_quote;
	ints[4] = xmloption;
	bools[0] = standard_conforming_strings;
	bools[1] = Transform_null_equals;
	bools[2] = Array_nulls;
	appendBinaryStringInfo(key, (const char *) ints, sizeof(ints));
	appendBinaryStringInfo(key, (const char *) bools, sizeof(bools));
	key_add(key, namespace_search_path);
	key_add(key, session_timezone ? pg_get_timezone_name(session_timezone) : NULL);
	key_add(key, locale_monetary);
	key_add(key, GetConfigOption("timezone_abbreviations", true, false));
}

/*
 * The key: everything the plan's compilation read besides the catalogs.
 */
static void
build_key(StringInfo key, const DeltaMetadata *md, int npreds,
		  const char *const *predicates)
{
	Oid			user = GetUserId();
	int			i;

	appendStringInfoString(key, "deltacc read set v1");
	appendBinaryStringInfo(key, (const char *) &user, sizeof(user));
	key_add_settings(key);
	key_add(key, md->schema_string);
	appendBinaryStringInfo(key, (const char *) &md->n_partition_columns,
						   sizeof(int));
	for (i = 0; i < md->n_partition_columns; i++)
		key_add(key, md->partition_columns[i]);
	appendBinaryStringInfo(key, (const char *) &md->n_configuration,
						   sizeof(int));
	for (i = 0; i < md->n_configuration; i++)
	{
		key_add(key, md->config_keys[i]);
		key_add(key, md->config_values[i]);
	}
	appendBinaryStringInfo(key, (const char *) &npreds, sizeof(int));
	for (i = 0; i < npreds; i++)
		key_add(key, predicates[i]);
}

/*
 * An instance of e's plan, pinning it until CurrentMemoryContext (which
 * holds the instance) is reset or deleted, normally or on ERROR.
 */
static DeltaReadSet *
pinned_instance(PlanEntry *e)
{
	MemoryContextCallback *pin = palloc(sizeof(MemoryContextCallback));

	pin->func = unpin;
	pin->arg = e;
	e->pins++;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, pin);
	return delta_readset_instance(e->plan);
}

/*
 * readset_cache_instance: see readset_cache.h.
 */
DeltaReadSet *
readset_cache_instance(const DeltaMetadata *md, int npreds,
					   const char *const *predicates)
{
	StringInfoData key;
	uint32		hash;
	uint64		generation;
	DeltaReadSet *plan;
	MemoryContext plan_cxt;
	PlanEntry  *e;
	int			i;

	if (deltacc_commit_cache_size <= 0 || md == NULL ||
		md->schema_string == NULL)
	{
		/* off: what was kept goes too */
		while (n_entries > 0)
			remove_entry(n_entries - 1);
		return delta_readset_compile(md, npreds, predicates);
	}

	register_callbacks();
	/* plans built before a catalog change go first */
	for (i = n_entries - 1; i >= 0; i--)
		if (entries[i]->generation != catalog_generation)
			remove_entry(i);

	initStringInfo(&key);
	build_key(&key, md, npreds, predicates);
	hash = hash_bytes((const unsigned char *) key.data, key.len);
	for (i = 0; i < n_entries; i++)
	{
		e = entries[i];
		if (e->hash == hash && e->keylen == key.len &&
			memcmp(e->key, key.data, key.len) == 0)
		{
			pfree(key.data);
			e->last_used = ++use_clock;
			elog(DEBUG1, "deltacc: read predicates compiled earlier in this session reused");
			return pinned_instance(e);
		}
	}

	/*
	 * Compile now, in the caller's context: an ERROR leaves nothing behind.
	 * The generation is the one before compiling, so a catalog change
	 * during it makes the plan stale at once.
	 */
	generation = catalog_generation;
	plan = delta_readset_plan(md, npreds, predicates);
	plan_cxt = delta_readset_plan_context(plan);
	if (!delta_readset_builtin_only(plan) ||
		MemoryContextMemAllocated(plan_cxt, true) > READSET_CACHE_MAX_BYTES)
	{
		DeltaReadSet *rs = delta_readset_instance(plan);

		elog(DEBUG1, "deltacc: read predicates compiled, not kept (%s)",
			 delta_readset_builtin_only(plan) ?
			 "over the size limit" :
			 "they name objects not built in, or hold expressions not kept");
		pfree(key.data);
		return rs;				/* the plan goes with the caller's context */
	}

	if (cache_cxt == NULL)
		cache_cxt = AllocSetContextCreate(TopMemoryContext,
										  "deltacc read set cache",
										  ALLOCSET_SMALL_SIZES);
	if (n_entries == READSET_CACHE_ENTRIES)
	{
		int			lru = 0;

		for (i = 1; i < n_entries; i++)
			if (entries[i]->last_used < entries[lru]->last_used)
				lru = i;
		remove_entry(lru);
	}
	e = MemoryContextAllocZero(plan_cxt, sizeof(PlanEntry));
	e->cxt = plan_cxt;
	e->plan = plan;
	e->key = MemoryContextAlloc(plan_cxt, key.len);
	memcpy(e->key, key.data, key.len);
	e->keylen = key.len;
	e->hash = hash;
	e->generation = generation;
	e->last_used = ++use_clock;
	delta_readset_set_serial(plan, ++last_serial);
	pfree(key.data);
	MemoryContextSetParent(plan_cxt, cache_cxt);
	entries[n_entries++] = e;
	elog(DEBUG1, "deltacc: read predicates compiled and kept for this session");
	return pinned_instance(e);
}
