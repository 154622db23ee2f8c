/*-------------------------------------------------------------------------
 *
 * schema.h
 *	  The table schema of a Delta snapshot (metaData.schemaString) as a tree
 *	  of fields with logical and physical names, PostgreSQL type mapping,
 *	  partition flags and the statistics column set.
 *
 * A DeltaSchema is built once per snapshot and is read-only afterwards.
 * Every "leaf" is a non-struct field (atomic types, arrays, maps and
 * unsupported types alike); leaves are numbered depth-first in schema
 * order, and that number (leaf_index) is how the predicate compiler and the
 * row-level reader address columns.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/schema.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SCHEMA_H
#define DELTACC_SCHEMA_H

#include "postgres.h"

#include "common/delta_actions.h"

typedef enum DeltaTypeKind
{
	DELTA_TYPE_LONG,
	DELTA_TYPE_INTEGER,
	DELTA_TYPE_SHORT,
	DELTA_TYPE_BYTE,
	DELTA_TYPE_FLOAT,
	DELTA_TYPE_DOUBLE,
	DELTA_TYPE_DECIMAL,
	DELTA_TYPE_STRING,
	DELTA_TYPE_BINARY,
	DELTA_TYPE_BOOLEAN,
	DELTA_TYPE_DATE,
	DELTA_TYPE_TIMESTAMP,
	DELTA_TYPE_TIMESTAMP_NTZ,
	DELTA_TYPE_STRUCT,
	DELTA_TYPE_ARRAY,
	DELTA_TYPE_MAP,
	DELTA_TYPE_UNSUPPORTED		/* variant, void, interval, ... (kept) */
} DeltaTypeKind;

typedef struct DeltaField DeltaField;

struct DeltaField
{
	char	   *name;			/* logical name */
	char	   *physical_name;	/* name in stats / partitionValues keys */
	bool		has_field_id;
	int64		field_id;		/* delta.columnMapping.id */
	DeltaTypeKind kind;
	char	   *type_name;		/* Spark type text ("decimal(10,2)", "struct") */
	int			precision;		/* decimal only */
	int			scale;			/* decimal only */
	bool		nullable;
	int			nfields;		/* struct children */
	DeltaField **fields;
	DeltaField *parent;			/* NULL at top level */
	DeltaField *element;		/* array: the element type (NULL if absent) */
	DeltaField *key;			/* map: the key type */
	DeltaField *value;			/* map: the value type */
	char	   *path;			/* dotted logical path ("address.city") */
	int			depth;			/* 0 at top level */
	int			leaf_index;		/* index in DeltaSchema.leaves; -1 for structs */
	bool		is_partition;	/* a (top-level) partition column */
	bool		in_stats;		/* in the snapshot's statistics column set */
	bool		minmax_eligible;	/* the type carries minValues/maxValues */
	Oid			pg_type;		/* InvalidOid: not usable in predicates */
	int32		pg_typmod;
	Oid			pg_collation;
};

typedef struct DeltaSchema
{
	int			nfields;		/* top-level fields */
	DeltaField **fields;
	int			nleaves;		/* every non-struct field, depth-first */
	DeltaField **leaves;
	int			npartition;		/* partitionColumns, in their order */
	DeltaField **partition;		/* NULL entry: name not in the schema */
	char	  **partition_names;	/* logical names as listed */
	bool		column_mapping; /* delta.columnMapping.mode is name or id */
	bool		column_mapping_id;	/* ... is id: data files are matched by
									 * Parquet field_id (added by golden) */
	int			num_indexed_cols;	/* dataSkippingNumIndexedCols (-1 = all) */
	char	   *stats_columns;	/* dataSkippingStatsColumns or NULL */
} DeltaSchema;

/*
 * Build the schema of a snapshot from its metaData action.  Allocates in
 * CurrentMemoryContext.  A malformed schemaString is an ERROR
 * (ERRCODE_DATA_CORRUPTED); unknown types are kept as
 * DELTA_TYPE_UNSUPPORTED.
 */
extern DeltaSchema *delta_schema_from_metadata(const DeltaMetadata *md);

/*
 * Same from the parts (schemaString, partitionColumns, configuration).
 */
extern DeltaSchema *delta_schema_parse(const char *schema_string,
									   int npartition, char **partition_columns,
									   int nconfig, char **config_keys,
									   char **config_values);

/*
 * Case-insensitive lookup of a field by its dotted logical path
 * ("address.city"); a top-level name that itself contains dots is found
 * too.  Returns NULL when there is no such field.
 */
extern DeltaField *delta_schema_lookup(const DeltaSchema *schema,
									   const char *dotted);

/* The configuration value of key in md, or NULL when absent or JSON null. */
extern const char *delta_metadata_config(const DeltaMetadata *md,
										 const char *key);

/* "long", "decimal(10,2)", ... for messages */
extern const char *delta_type_kind_name(DeltaTypeKind kind);

#endif							/* DELTACC_SCHEMA_H */
