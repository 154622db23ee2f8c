/*-------------------------------------------------------------------------
 *
 * readset_cache.h
 *	  A backend-local cache of compiled read sets (plans, predicate.h), for
 *	  conflict checks repeated with the same read predicates.
 *
 * Parsing, analysing and compiling a loser's read predicates is done again
 * by every call, and a catalog checks the same reads over and over.  A plan
 * is kept when everything its analysis produced names only objects that
 * initdb created (delta_readset_builtin_only): no user function, operator,
 * type or collation can change under it.  What else analysis depends on is
 * part of the key or empties the cache:
 *
 *	- the key: the predicate texts; the metadata the schema is parsed from
 *	  (schemaString, partition columns, configuration); the current user;
 *	  and the settings under which names are looked up and literals are
 *	  read (search_path, DateStyle, IntervalStyle, TimeZone,
 *	  timezone_abbreviations, standard_conforming_strings, backslash_quote,
 *	  transform_null_equals, array_nulls, lc_monetary, xmloption);
 *	- invalidation: any change to the catalogs of functions, operators,
 *	  types, casts, collations, namespaces, operator families and classes,
 *	  or to a relation (a regclass literal), as PostgreSQL's own
 *	  invalidation messages announce it, drops every plan.
 *
 * Each use gets an instance of the plan (delta_readset_instance), which
 * prepares the reads' own expressions again: EXECUTE privileges are checked
 * on every call.  A plan in use is pinned by its instance until the
 * instance's memory context goes (normally or on ERROR); a plan evicted
 * meanwhile is freed then.  At most READSET_CACHE_ENTRIES plans of at most
 * READSET_CACHE_MAX_BYTES each are kept, least recently used first out;
 * deltacc.commit_cache_size = 0 turns this cache off too.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/readset_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_READSET_CACHE_H
#define DELTACC_READSET_CACHE_H

#include "common/delta_actions.h"
#include "stats/predicate.h"

#define READSET_CACHE_ENTRIES 32
#define READSET_CACHE_MAX_BYTES (1024 * 1024)

/*
 * An instance, in CurrentMemoryContext, of the plan of npreds predicates
 * against md's schema: from the cache, or compiled now (and kept when it
 * qualifies).  ERROR as delta_readset_compile.  The instance's schema
 * (delta_readset_schema) is the plan's and lives as long as the instance.
 */
extern DeltaReadSet *readset_cache_instance(const DeltaMetadata *md,
											int npreds,
											const char *const *predicates);

#endif							/* DELTACC_READSET_CACHE_H */
