/*-------------------------------------------------------------------------
 *
 * data_reader.h
 *	  Parquet data-file values to PostgreSQL Datums, by Delta schema leaf.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/data_reader.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DATA_READER_H
#define DELTACC_DATA_READER_H

#include "parquet.h"
#include "schema.h"

/* dotted physical (column-mapped) path of f, palloc'd */
extern char *DeltaDataPhysicalPath(const DeltaField *f);

/* f's value inside a projected row (NULL when absent; see data_reader.c) */
extern const PqValue *DeltaDataFindLeaf(const PqValue *row, const DeltaField *f);

/*
 * Convert v to the Datum of f's PostgreSQL type in the current context;
 * false when v's kind does not fit the type.
 */
extern bool DeltaDataLeafDatum(const DeltaField *f, const PqValue *v,
							   Datum *d, bool *isnull);

#endif							/* DELTACC_DATA_READER_H */
