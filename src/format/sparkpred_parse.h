/*-------------------------------------------------------------------------
 *
 * sparkpred_parse.h
 *	  The parser of the predicate translator (sparkpred.h): the syntax
 *	  tree it builds and the translator (sparkpred.c) prints, and the small
 *	  helpers both use.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sparkpred_parse.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SPARKPRED_PARSE_H
#define DELTACC_SPARKPRED_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt_alloc.h"
#include "sparkpred_types.h"

/* How a string (one element of a JSON array) was rendered. */
typedef enum SpForm
{
	SP_FORM_TS = 0,				/* Spark toString */
	SP_FORM_SPARK,				/* Spark .sql or user text */
	SP_FORM_DF,					/* delta-rs */
	SP_FORM_AMBIG				/* SQL text that could be either of the two */
} SpForm;

/* What a literal's rendering says about it. */
typedef enum SpLitKind
{
	SL_BARE = 0,				/* TS, unquoted: meaning depends on the type */
	SL_STRING,					/* quoted string, bytes decoded */
	SL_BADSTRING,				/* quoted string whose escapes cannot be read
								 * faithfully */
	SL_INT,						/* integer digits (text, and ival if it fits) */
	SL_DECIMAL,					/* exact decimal (text) */
	SL_AMBIGNUM,				/* 1.5 in SQL text of unknown writer: decimal
								 * (Spark) or double (delta-rs) */
	SL_DOUBLE,					/* text in float input syntax */
	SL_FLOAT,
	SL_BOOL,
	SL_NULL,
	SL_DATE,					/* days since 1970-01-01 */
	SL_TS_LOCAL,				/* writer's session zone: micros as if UTC */
	SL_TS_UTC,					/* an instant: micros since the epoch */
	SL_TS_NTZ,					/* micros of the wall-clock value */
	SL_BINARY,					/* bytes */
	SL_DFDEC					/* delta-rs decimal: text N, precision, scale */
} SpLitKind;

typedef struct SpLit
{
	SpLitKind	kind;
	SpType		type;			/* declared type (SL_INT: suffix or cast;
								 * SL_NULL: cast), else SP_T_UNKNOWN */
	int			precision;		/* SL_DFDEC, typed decimals */
	int			scale;
	const char *text;			/* SL_BARE, numbers: text; strings, binary:
								 * bytes */
	size_t		len;
	bool		has_ival;		/* SL_INT fits int64 */
	int64_t		ival;
	int64_t		micros;			/* timestamps */
	int32_t		days;			/* dates */
	bool		bval;			/* SL_BOOL */
} SpLit;

/* A column name as written. */
typedef struct SpName
{
	int			nparts;
	char	  **parts;			/* unquoted */
	bool		all_quoted;		/* every part was back-ticked / quoted */
	bool		catalog_qualified;	/* a spark_catalog.x.y qualifier was
									 * removed */
	bool		ts_attr;		/* TS attribute: name#id[L] (parts[0]) */
	bool		ts_long;		/* ... with the L suffix (LongType) */
	bool		ambiguous;		/* a "..." part where that may be a string */
	bool		struct_path;	/* the parts are known to be attribute +
								 * struct fields (TS, get_field, catalog
								 * qualifier removed) */
} SpName;

typedef enum SpNodeKind
{
	SN_AND = 0,
	SN_OR,
	SN_NOT,
	SN_CMP,						/* op, a, b */
	SN_IN,						/* a, items, negated */
	SN_BETWEEN,					/* a, b (low), c (high), negated */
	SN_ISNULL,					/* a, negated */
	SN_ISBOOL,					/* a, op: SP_ISB_* */
	SN_LIKE,					/* a, b (pattern), negated */
	SN_STRFN,					/* a, b: op SP_STR_* (startswith ...) */
	SN_COL,
	SN_LIT,
	SN_CAST,					/* a, to */
	SN_MOD,						/* a % b */
	SN_OTHER					/* anything untranslatable: why */
} SpNodeKind;

typedef enum SpCmpOp
{
	SP_OP_EQ = 0,
	SP_OP_NSEQ,					/* <=>, IS NOT DISTINCT FROM */
	SP_OP_DISTINCT,				/* IS DISTINCT FROM */
	SP_OP_NE,
	SP_OP_LT,
	SP_OP_LE,
	SP_OP_GT,
	SP_OP_GE
} SpCmpOp;

enum
{
	SP_ISB_TRUE = 0, SP_ISB_FALSE, SP_ISB_NOT_TRUE, SP_ISB_NOT_FALSE
};

enum
{
	SP_STR_STARTS = 0, SP_STR_ENDS, SP_STR_CONTAINS
};

/* A cast's target type. */
typedef struct SpTypeSpec
{
	SpType		type;			/* SP_T_OTHER: a type the translator does
								 * not know */
	int			precision;
	int			scale;
} SpTypeSpec;

typedef struct SpNode SpNode;

struct SpNode
{
	SpNodeKind	kind;
	int			op;
	bool		negated;
	bool		has_col;		/* the subtree references a column */
	bool		dcolon;			/* SN_CAST written value::type (delta-rs) */
	SpNode	   *a;
	SpNode	   *b;
	SpNode	   *c;
	SpNode	  **items;			/* SN_AND, SN_OR (flattened), SN_IN */
	int			nitems;
	SpName		name;			/* SN_COL */
	SpLit		lit;			/* SN_LIT */
	SpTypeSpec	to;				/* SN_CAST */
	const char *why;			/* SN_OTHER */
};

/* One parsed predicate string. */
typedef struct SpParsed
{
	SpNode	   *root;			/* NULL: did not parse */
	SpForm		form;
	bool		two_relations;	/* compares two columns, or one name has two
								 * expression ids: a MERGE condition */
	const char *error;			/* why it did not parse */
} SpParsed;

/*
 * The years literals may name: from the first full year of the Gregorian
 * calendar (Spark 2.4 used the Julian calendar before October 1582, so
 * older dates and times are not compared the same way everywhere).
 */
#define SP_MIN_YEAR 1583
#define SP_MAX_YEAR 9999

/* Parser limits */
#define SP_MAX_DEPTH 200

/*
 * The toString attributes seen so far (lower-cased name, expression id), so
 * that the elements of one JSON array are held to one relation too.
 */
typedef struct SpExprIds
{
	char	  **names;
	long long  *ids;
	int			n;
	int			cap;
} SpExprIds;

/*
 * Parse text[0..len) (one predicate, not a JSON array).  ids (zeroed
 * before the first call) collects attributes across calls; a name seen
 * with another id sets two_relations.  Returns false on an allocation
 * failure; a text that does not parse gives root NULL.
 */
extern bool sp_parse(const char *text, size_t len, SpDialect dialect,
					 const FmtAllocator *alloc, SpExprIds *ids, SpParsed *out);

/* ---- helpers shared by the two files ---- */

/* A growable NUL-terminated string from an FmtAllocator. */
typedef struct SpBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
	const FmtAllocator *alloc;
	bool		oom;
} SpBuf;

extern void spb_init(SpBuf *b, const FmtAllocator *alloc);
extern void spb_putn(SpBuf *b, const char *s, size_t n);
extern void spb_puts(SpBuf *b, const char *s);
extern void spb_putc(SpBuf *b, char c);

extern char *sp_strndup(const FmtAllocator *alloc, const char *s, size_t n);

/* ASCII case-insensitive comparison of s[0..n) with the NUL-terminated w */
extern bool sp_eq_ci(const char *s, size_t n, const char *w);

/* The civil date of day number d (days since 1970-01-01), and back. */
extern void sp_civil_from_days(int64_t d, int *y, int *m, int *dd);
extern int64_t sp_days_from_civil(int y, int m, int d);

/*
 * Strict readers of literal text (whole string, no surrounding spaces):
 *	sp_read_date:	 yyyy-mm-dd, a valid date in years 1583..9999
 *	sp_read_datetime: date, then [ T]HH:MM[:SS[.f{1,6}]] (time optional when
 *	  allow_date_only), then, when zone is non-NULL, an optional Z, UTC, or
 *	  +HH[:MM] / -HH[:MM] (*zone set when one was present): micros of the
 *	  wall-clock value, the offset already applied when a zone was given
 *	sp_read_int64:	 -?digits without a leading zero, fits int64
 */
extern bool sp_read_date(const char *s, size_t n, int32_t *days);
extern bool sp_read_datetime(const char *s, size_t n, bool allow_date_only,
							 bool *zone, int64_t *micros);
extern bool sp_read_int64(const char *s, size_t n, int64_t *v);

#endif							/* DELTACC_SPARKPRED_PARSE_H */
