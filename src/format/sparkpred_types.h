/*-------------------------------------------------------------------------
 *
 * sparkpred_types.h
 *	  The types the predicate translator (sparkpred.h) and its parser
 *	  (sparkpred_parse.h) share.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sparkpred_types.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SPARKPRED_TYPES_H
#define DELTACC_SPARKPRED_TYPES_H

/* Column types as far as the translation cares (Delta's atomic types). */
typedef enum SpType
{
	SP_T_UNKNOWN = 0,			/* schema-less: not known */
	SP_T_LONG,
	SP_T_INT,
	SP_T_SHORT,
	SP_T_BYTE,
	SP_T_FLOAT,
	SP_T_DOUBLE,
	SP_T_DECIMAL,
	SP_T_STRING,
	SP_T_BINARY,
	SP_T_BOOLEAN,
	SP_T_DATE,
	SP_T_TIMESTAMP,				/* instant (Spark TimestampType) */
	SP_T_TIMESTAMP_NTZ,
	SP_T_OTHER					/* struct, array, map, ...: not comparable */
} SpType;

/* Which writer printed the text, when the caller knows it. */
typedef enum SpDialect
{
	SP_DIALECT_AUTO = 0,		/* decide from the text's own markers */
	SP_DIALECT_SPARK,			/* Apache Spark / Databricks */
	SP_DIALECT_DELTA_RS			/* delta-rs (DataFusion SQL) */
} SpDialect;

#endif							/* DELTACC_SPARKPRED_TYPES_H */
