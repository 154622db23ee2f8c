/*-------------------------------------------------------------------------
 *
 * funcs_storage.c
 *	  SQL-callable functions of object-store credentials: the validator of
 *	  the foreign-data wrapper deltacc_storage, and
 *	  deltacc.storage_server_for, which shows which server and user mapping
 *	  serve a URL for the current user (the names of the mapping's options,
 *	  never their values).  The work is in src/storage.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/funcs_storage.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "storage/storage_options.h"

PG_FUNCTION_INFO_V1(deltacc_storage_validator);
PG_FUNCTION_INFO_V1(deltacc_storage_server_for);

Datum
deltacc_storage_validator(PG_FUNCTION_ARGS)
{
	List	   *options = untransformRelOptions(PG_GETARG_DATUM(0));
	Oid			catalog = PG_GETARG_OID(1);

	storage_validate_options(options, catalog);
	PG_RETURN_VOID();
}

/*
 * A text[] of the options as name=value, or (values_shown false) of their
 * names only; NULL for an empty list.
 */
static Datum
options_array(List *options, bool values_shown, bool *isnull)
{
	ArrayBuildState *astate = NULL;
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);
		char	   *s = values_shown && !storage_option_is_secret(def->defname)
			? psprintf("%s=%s", def->defname, defGetString(def))
			: pstrdup(def->defname);

		astate = accumArrayResult(astate, CStringGetTextDatum(s), false,
								  TEXTOID, CurrentMemoryContext);
	}
	*isnull = astate == NULL;
	return astate ? makeArrayResult(astate, CurrentMemoryContext) : (Datum) 0;
}

/*
 * deltacc.storage_server_for(url text, OUT server name,
 *   OUT server_options text[], OUT mapping_options text[])
 */
Datum
deltacc_storage_server_for(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};
	StorageTarget *t;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	t = storage_resolve(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	values[0] = DirectFunctionCall1(namein, CStringGetDatum(t->servername));
	values[1] = options_array(t->server_options, true, &nulls[1]);
	values[2] = options_array(t->mapping_options, false, &nulls[2]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
