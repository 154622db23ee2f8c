/*-------------------------------------------------------------------------
 *
 * sparkpred.h
 *	  Predicates as Delta writers record them in commitInfo
 *	  (operationParameters.predicate), translated into deltacc read
 *	  predicates: PostgreSQL boolean expressions over logical column names.
 *
 * Three renderings are understood (reference/predicates.md §1.3, §1.4, §2):
 *	- Spark's toString ("TS"): (id#480L = 5), isnull(x#3), cast(x#3 as
 *	  bigint), x#3 IN (1,2), string and date literals unquoted;
 *	- Spark's .sql and user text ("SQL"): `id` = 5L, CAST(x AS BIGINT),
 *	  'it\'s', 1.50BD, DATE '2024-01-01', spark_catalog.db.t.col;
 *	- delta-rs's printer ("DF"): "Value3" = 3, '2020-01-01'::date,
 *	  '1505'::decimal(6, 1) (the unscaled-decimal quirk), arrow_cast(...).
 * A text that starts with '[' is a JSON array of such strings (Delta >= 2.4
 * and pre-2.4 DELETE), translated as the AND of its elements; [] is true.
 *
 * The translation is exact or it is a sound widening, never narrower:
 *	- SP_EXACT: the result selects exactly the rows the writer's predicate
 *	  selected (Spark's three-valued logic, byte-order string comparison:
 *	  the project compares strings COLLATE "C").
 *	- SP_WIDENED: a superset of those rows: an untranslatable conjunct of an
 *	  AND was dropped, a timestamp literal in the writer's unknown session
 *	  time zone became the range of instants it can denote (+-18 hours), or
 *	  a delta-rs decimal literal became both values it can denote.  Never
 *	  below NOT, never a disjunct of OR alone.
 *	- SP_NONE: nothing faithful remains (result NULL): the caller must treat
 *	  the commit as a read of the whole table.  This includes predicates over
 *	  two relations (a comparison of two columns, one name with two
 *	  expression ids: MERGE conditions), subqueries, unknown or
 *	  non-deterministic functions, arithmetic other than "col % k", casts
 *	  that parse or truncate, unquoted strings that could be misread, and
 *	  anything that does not parse.
 *
 * Columns are resolved by a caller-supplied callback (the table schema at
 * the read version); without one ("schema-less"), names are printed as
 * written (struct paths dotted, "a.b") and a literal is printed with the
 * type its rendering shows.  Spark prints only analysed predicates, whose
 * literals have their column's type, so a schema-less translation is exact
 * for the table it was recorded against, and a literal whose rendering
 * fits several types with different meanings (an unquoted timestamp,
 * null, 0x...) is untranslatable.  An integer printed unquoted is printed
 * as a PostgreSQL number: against a column that is not numeric the result
 * does not compile (an error, never a different read).  With a schema,
 * every column and literal type is checked and a mismatch is
 * untranslatable.
 *
 * Pure C99; every byte comes from the caller's FmtAllocator.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sparkpred.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SPARKPRED_H
#define DELTACC_SPARKPRED_H

#include <stdbool.h>
#include <stddef.h>

#include "fmt_alloc.h"
#include "sparkpred_types.h"

/* A resolved column, filled in by an SpResolveFn. */
typedef struct SpColumn
{
	SpType		type;
	int			precision;		/* SP_T_DECIMAL only */
	int			scale;
	const char *name;			/* the name to print (logical dotted path,
								 * unquoted); must outlive the translation */
} SpColumn;

/*
 * Resolve a column named by nparts parts (attribute, then struct fields;
 * each part unquoted, possibly containing dots or spaces), matching each
 * part case-insensitively.  Returns 1 and fills *out when exactly one
 * column has that path and the printed name names it unambiguously, 0 when
 * there is none, -1 when the name is ambiguous.
 */
typedef int (*SpResolveFn) (void *ctx, int nparts, const char *const *parts,
							SpColumn *out);

typedef enum SpOutcome
{
	SP_EXACT = 0,
	SP_WIDENED,
	SP_NONE
} SpOutcome;

typedef struct SpResult
{
	SpOutcome	outcome;
	char	   *sql;			/* the read predicate, NUL-terminated; NULL
								 * for SP_NONE */
	const char *reason;			/* static text: why SP_NONE, or what was
								 * widened first; NULL for SP_EXACT */
} SpResult;

/* Longest predicate text translated; longer ones are SP_NONE. */
#define SP_MAX_INPUT (1 << 20)

/*
 * Translate text[0..len) (need not be NUL-terminated).  resolve may be
 * NULL (schema-less).  Returns false only when an allocation failed (out
 * is then undefined); every other outcome, malformed input included, is a
 * filled-in *out.  Memory use is bounded by a constant times len.
 */
extern bool sp_translate(const char *text, size_t len, SpDialect dialect,
						 SpResolveFn resolve, void *resolve_ctx,
						 const FmtAllocator *alloc, SpResult *out);

#endif							/* DELTACC_SPARKPRED_H */
