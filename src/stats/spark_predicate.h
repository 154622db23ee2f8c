/*-------------------------------------------------------------------------
 *
 * spark_predicate.h
 *	  Predicates as Delta writers recorded them (commitInfo's
 *	  operationParameters.predicate) as read predicates of this project:
 *	  the backend side of src/format/sparkpred.h, resolving columns in a
 *	  snapshot's schema.
 *
 * Usage (history replay: the predicate of the commit that read version r):
 *
 *	  schema = delta_schema_from_metadata(metadata at r);
 *	  pred = delta_spark_predicate(text, schema,
 *								   delta_spark_dialect(commit's engineInfo),
 *								   &outcome, &reason);
 *	  if (pred == NULL)  -> the commit read the whole table
 *	  else               -> read_predicates = {pred}; outcome SP_WIDENED
 *							means the real read was possibly smaller
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/spark_predicate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SPARK_PREDICATE_H
#define DELTACC_SPARK_PREDICATE_H

#include "postgres.h"

#include "format/sparkpred.h"
#include "stats/schema.h"

/*
 * Translate a recorded predicate (a JSON array of strings, or one string;
 * see sparkpred.h for the renderings) into a read predicate over the
 * logical columns of schema, or NULL when no faithful translation exists
 * (the caller then treats the commit as a read of the whole table).
 *
 * schema: the table schema at the writer's read version, or NULL
 * (schema-less: names and literals as printed, see sparkpred.h).  With a
 * schema every column must resolve, case-insensitively, to a comparable
 * leaf whose dotted path names it unambiguously in a read predicate, and
 * every literal must be a value of its column's type.
 *
 * The result is palloc'd in CurrentMemoryContext; everything else the
 * translation allocates lives in a child context deleted before returning.
 * *outcome (if outcome != NULL): SP_EXACT, SP_WIDENED (a superset of the
 * writer's rows) or SP_NONE; *reason (if reason != NULL): a static English
 * phrase saying what was dropped, widened or refused, NULL when exact.
 * ERROR only when out of memory.
 */
extern char *delta_spark_predicate(const char *text, const DeltaSchema *schema,
								   SpDialect dialect, SpOutcome *outcome,
								   const char **reason);

/*
 * The dialect of a commit's writer from commitInfo.engineInfo (NULL or
 * unknown: SP_DIALECT_AUTO): "delta-rs..." is delta-rs, "Apache-Spark/..."
 * and "Databricks-Runtime/..." are Spark.
 */
extern SpDialect delta_spark_dialect(const char *engine_info);

#endif							/* DELTACC_SPARK_PREDICATE_H */
