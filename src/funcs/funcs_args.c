/*-------------------------------------------------------------------------
 *
 * funcs_args.c
 *	  Argument helpers shared by the SQL-callable functions (see
 *	  funcs_args.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_args.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "check/driver.h"
#include "funcs/funcs_args.h"

/*
 * dc_text_array_arg: the non-null elements of a text[] argument (see
 * funcs_args.h).
 */
char	  **
dc_text_array_arg(FunctionCallInfo fcinfo, int argno, const char *name, int *n)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			nelems;
	char	  **out;
	int			i;

	*n = -1;
	if (PG_ARGISNULL(argno))
		return NULL;
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must be a one-dimensional array", name));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &nelems);
	out = palloc(sizeof(char *) * Max(nelems, 1));
	for (i = 0; i < nelems; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s must not contain NULL elements", name));
		out[i] = TextDatumGetCString(elems[i]);
	}
	*n = nelems;
	return out;
}

/*
 * dc_mode_arg: the mode argument (NULL: deltacc.default_mode).
 */
ConflictMode
dc_mode_arg(FunctionCallInfo fcinfo, int argno)
{
	if (PG_ARGISNULL(argno))
		return conflict_mode_parse(NULL);
	return conflict_mode_parse(text_to_cstring(PG_GETARG_TEXT_PP(argno)));
}

/*
 * dc_version_arg: an optional version argument (see funcs_args.h).
 */
int64
dc_version_arg(FunctionCallInfo fcinfo, int argno, const char *name)
{
	int64		v;

	if (PG_NARGS() <= argno || PG_ARGISNULL(argno))
		return -1;
	v = PG_GETARG_INT64(argno);
	if (v < 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s must not be negative", name));
	return v;
}
