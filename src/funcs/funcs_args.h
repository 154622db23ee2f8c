/*-------------------------------------------------------------------------
 *
 * funcs_args.h
 *	  Argument helpers shared by the SQL-callable functions of src/funcs.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_args.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_FUNCS_ARGS_H
#define DELTACC_FUNCS_ARGS_H

#include "fmgr.h"

#include "check/checkdefs.h"

/*
 * The elements of the text[] argument argno as palloc'd C strings
 * (CurrentMemoryContext); a NULL argument gives NULL with *n = -1.  A
 * multi-dimensional array (ERRCODE_ARRAY_SUBSCRIPT_ERROR) or a NULL
 * element (ERRCODE_NULL_VALUE_NOT_ALLOWED) is an ERROR naming 'name'.
 */
extern char **dc_text_array_arg(FunctionCallInfo fcinfo, int argno,
								const char *name, int *n);

/*
 * The conflict mode argument argno: NULL gives deltacc.default_mode, an
 * unknown name is an ERROR (conflict_mode_parse).
 */
extern ConflictMode dc_mode_arg(FunctionCallInfo fcinfo, int argno);

/*
 * The optional bigint version argument argno: -1 when absent or NULL; a
 * negative value is an ERROR (ERRCODE_INVALID_PARAMETER_VALUE) "<name>
 * must not be negative".
 */
extern int64 dc_version_arg(FunctionCallInfo fcinfo, int argno,
							const char *name);

#endif							/* DELTACC_FUNCS_ARGS_H */
