/*-------------------------------------------------------------------------
 *
 * schema.c
 *	  Parse metaData.schemaString (Spark's JSON schema) into a DeltaSchema:
 *	  logical and physical names, field ids, types and their PostgreSQL
 *	  mapping, partition columns and the statistics column set
 *	  (reference §1.9).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/schema.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "common/json_util.h"
#include "format/djson.h"
#include "stats/schema.h"

typedef struct SchemaBuild
{
	DeltaSchema *schema;
	int			cap_leaves;
	bool		column_mapping;
	int			inner;			/* > 0 inside an array element or map
								 * key/value: no leaves are numbered there */
} SchemaBuild;

static DeltaField *parse_field(SchemaBuild *b, const DjValue *fv,
							   DeltaField *parent, int depth);
static void parse_type(SchemaBuild *b, DeltaField *f, const DjValue *tv,
					   int depth);
static void add_leaf(SchemaBuild *b, DeltaField *f);
static DeltaField *parse_inner(SchemaBuild *b, DeltaField *container,
							   const DjValue *tv, const char *name,
							   int depth);
static void compute_stats_columns(DeltaSchema *s);
static void mark_stats_subtree(DeltaField *f);

/*
 * The value of configuration key in md, NULL when absent or JSON null.
 */
const char *
delta_metadata_config(const DeltaMetadata *md, const char *key)
{
	int			i;
	const char *found = NULL;

	if (md == NULL)
		return NULL;
	for (i = 0; i < md->n_configuration; i++)
	{
		if (md->config_keys[i] && strcmp(md->config_keys[i], key) == 0)
			found = md->config_values[i];
	}
	return found;
}

/*
 * Build the schema from a metaData action; see schema.h.
 */
DeltaSchema *
delta_schema_from_metadata(const DeltaMetadata *md)
{
	if (md == NULL || md->schema_string == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("Delta table has no schema"),
				 errdetail("The snapshot's metaData action carries no schemaString.")));
	return delta_schema_parse(md->schema_string,
							  md->n_partition_columns, md->partition_columns,
							  md->n_configuration, md->config_keys,
							  md->config_values);
}

/*
 * Parse schemaString and the relevant configuration; see schema.h.
 */
DeltaSchema *
delta_schema_parse(const char *schema_string,
				   int npartition, char **partition_columns,
				   int nconfig, char **config_keys, char **config_values)
{
	SchemaBuild b;
	DeltaSchema *s;
	DjValue		root;
	DjError		err;
	FmtAllocator alloc = dc_fmt_allocator(NULL);
	const DjValue *fields;
	const char *mode = NULL;
	const char *ncols = NULL;
	const char *statcols = NULL;
	int			i;

	for (i = 0; i < nconfig; i++)
	{
		if (config_keys[i] == NULL)
			continue;
		if (strcmp(config_keys[i], "delta.columnMapping.mode") == 0)
			mode = config_values[i];
		else if (strcmp(config_keys[i], "delta.dataSkippingNumIndexedCols") == 0)
			ncols = config_values[i];
		else if (strcmp(config_keys[i], "delta.dataSkippingStatsColumns") == 0)
			statcols = config_values[i];
	}

	s = palloc0(sizeof(DeltaSchema));
	memset(&b, 0, sizeof(b));
	b.schema = s;
	b.column_mapping = (mode != NULL &&
						(pg_strcasecmp(mode, "name") == 0 ||
						 pg_strcasecmp(mode, "id") == 0));
	s->column_mapping = b.column_mapping;
	s->column_mapping_id = (mode != NULL && pg_strcasecmp(mode, "id") == 0);
	s->num_indexed_cols = 32;
	if (ncols != NULL)
	{
		char	   *end;
		long		v;

		errno = 0;
		v = strtol(ncols, &end, 10);
		if (errno == 0 && end != ncols && *end == '\0' && v >= -1 && v <= INT_MAX)
			s->num_indexed_cols = (int) v;
	}
	s->stats_columns = statcols ? pstrdup(statcols) : NULL;

	if (schema_string == NULL ||
		!dj_parse(schema_string, strlen(schema_string), &alloc,
				  DJ_DEFAULT_MAX_DEPTH, &root, &err))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid Delta schemaString"),
				 errdetail("The schema is not valid JSON: %s at byte %zu.",
						   schema_string ? err.message : "missing",
						   schema_string ? err.offset : (size_t) 0)));
	fields = dj_get(&root, "fields");
	if (root.type != DJ_OBJECT || fields == NULL || fields->type != DJ_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid Delta schemaString"),
				 errdetail("The schema is not a struct type with a \"fields\" array.")));

	s->nfields = fields->len;
	s->fields = palloc0(sizeof(DeltaField *) * Max(1, fields->len));
	b.cap_leaves = 16;
	b.inner = 0;
	s->leaves = palloc0(sizeof(DeltaField *) * b.cap_leaves);
	for (i = 0; i < (int) fields->len; i++)
		s->fields[i] = parse_field(&b, &fields->u.items[i], NULL, 0);

	/* partition columns (logical names, matched case-insensitively) */
	s->npartition = npartition;
	s->partition = palloc0(sizeof(DeltaField *) * Max(1, npartition));
	s->partition_names = palloc0(sizeof(char *) * Max(1, npartition));
	for (i = 0; i < npartition; i++)
	{
		int			j;

		s->partition_names[i] = pstrdup(partition_columns[i] ? partition_columns[i] : "");
		for (j = 0; j < s->nfields; j++)
		{
			if (pg_strcasecmp(s->fields[j]->name, s->partition_names[i]) == 0)
			{
				s->partition[i] = s->fields[j];
				s->fields[j]->is_partition = true;
				break;
			}
		}
	}

	compute_stats_columns(s);
	return s;
}

/*
 * Parse one StructField object.  Allocates the DeltaField in
 * CurrentMemoryContext; ERROR on a malformed field.
 */
static DeltaField *
parse_field(SchemaBuild *b, const DjValue *fv, DeltaField *parent, int depth)
{
	DeltaField *f;
	const DjValue *name;
	const DjValue *type;
	const DjValue *nullable;
	const DjValue *meta;

	check_stack_depth();
	name = dj_get(fv, "name");
	type = dj_get(fv, "type");
	if (fv->type != DJ_OBJECT || name == NULL || name->type != DJ_STRING ||
		type == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid Delta schemaString"),
				 errdetail("A struct field has no string \"name\" or no \"type\".")));

	f = palloc0(sizeof(DeltaField));
	f->name = pstrdup(name->u.str);
	f->physical_name = f->name;
	f->parent = parent;
	f->depth = depth;
	f->leaf_index = -1;
	f->path = parent ? psprintf("%s.%s", parent->path, f->name) : f->name;
	nullable = dj_get(fv, "nullable");
	f->nullable = (nullable == NULL || nullable->type != DJ_FALSE);

	meta = dj_get(fv, "metadata");
	if (meta != NULL && meta->type == DJ_OBJECT)
	{
		const DjValue *pn = dj_get(meta, "delta.columnMapping.physicalName");
		const DjValue *id = dj_get(meta, "delta.columnMapping.id");
		int64_t		idv;

		if (b->column_mapping && pn != NULL && pn->type == DJ_STRING)
			f->physical_name = pstrdup(pn->u.str);
		if (id != NULL && dj_to_int64(id, &idv))
		{
			f->has_field_id = true;
			f->field_id = idv;
		}
	}

	parse_type(b, f, type, depth);
	return f;
}

/*
 * Fill kind, type name, PostgreSQL mapping and (for structs) children of f
 * from the JSON type tv.
 */
static void
parse_type(SchemaBuild *b, DeltaField *f, const DjValue *tv, int depth)
{
	f->pg_type = InvalidOid;
	f->pg_typmod = -1;
	f->pg_collation = InvalidOid;

	if (tv->type == DJ_OBJECT)
	{
		const DjValue *t = dj_get(tv, "type");
		const char *tn = (t && t->type == DJ_STRING) ? t->u.str : "";

		f->type_name = pstrdup(tn);
		if (strcmp(tn, "struct") == 0)
		{
			const DjValue *fields = dj_get(tv, "fields");
			int			i;

			if (fields == NULL || fields->type != DJ_ARRAY)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("invalid Delta schemaString"),
						 errdetail("Struct field \"%s\" has no \"fields\" array.",
								   f->path)));
			f->kind = DELTA_TYPE_STRUCT;
			f->nfields = fields->len;
			f->fields = palloc0(sizeof(DeltaField *) * Max(1, fields->len));
			for (i = 0; i < (int) fields->len; i++)
				f->fields[i] = parse_field(b, &fields->u.items[i], f, depth + 1);
			return;
		}
		if (strcmp(tn, "array") == 0)
		{
			f->kind = DELTA_TYPE_ARRAY;
			f->element = parse_inner(b, f, dj_get(tv, "elementType"),
									 "element", depth);
		}
		else if (strcmp(tn, "map") == 0)
		{
			f->kind = DELTA_TYPE_MAP;
			f->key = parse_inner(b, f, dj_get(tv, "keyType"), "key", depth);
			f->value = parse_inner(b, f, dj_get(tv, "valueType"), "value",
								   depth);
		}
		else
			f->kind = DELTA_TYPE_UNSUPPORTED;
		add_leaf(b, f);
		return;
	}
	if (tv->type != DJ_STRING)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid Delta schemaString"),
				 errdetail("Field \"%s\" has a type that is neither a string nor an object.",
						   f->path)));

	f->type_name = pstrdup(tv->u.str);
	f->kind = DELTA_TYPE_UNSUPPORTED;
	if (strcmp(tv->u.str, "long") == 0)
	{
		f->kind = DELTA_TYPE_LONG;
		f->pg_type = INT8OID;
	}
	else if (strcmp(tv->u.str, "integer") == 0)
	{
		f->kind = DELTA_TYPE_INTEGER;
		f->pg_type = INT4OID;
	}
	else if (strcmp(tv->u.str, "short") == 0)
	{
		f->kind = DELTA_TYPE_SHORT;
		f->pg_type = INT2OID;
	}
	else if (strcmp(tv->u.str, "byte") == 0)
	{
		f->kind = DELTA_TYPE_BYTE;
		f->pg_type = INT2OID;
	}
	else if (strcmp(tv->u.str, "float") == 0)
	{
		f->kind = DELTA_TYPE_FLOAT;
		f->pg_type = FLOAT4OID;
	}
	else if (strcmp(tv->u.str, "double") == 0)
	{
		f->kind = DELTA_TYPE_DOUBLE;
		f->pg_type = FLOAT8OID;
	}
	else if (strcmp(tv->u.str, "string") == 0)
	{
		f->kind = DELTA_TYPE_STRING;
		f->pg_type = TEXTOID;
		f->pg_collation = C_COLLATION_OID;
	}
	else if (strcmp(tv->u.str, "binary") == 0)
	{
		f->kind = DELTA_TYPE_BINARY;
		f->pg_type = BYTEAOID;
	}
	else if (strcmp(tv->u.str, "boolean") == 0)
	{
		f->kind = DELTA_TYPE_BOOLEAN;
		f->pg_type = BOOLOID;
	}
	else if (strcmp(tv->u.str, "date") == 0)
	{
		f->kind = DELTA_TYPE_DATE;
		f->pg_type = DATEOID;
	}
	else if (strcmp(tv->u.str, "timestamp") == 0)
	{
		f->kind = DELTA_TYPE_TIMESTAMP;
		f->pg_type = TIMESTAMPTZOID;
	}
	else if (strcmp(tv->u.str, "timestamp_ntz") == 0)
	{
		f->kind = DELTA_TYPE_TIMESTAMP_NTZ;
		f->pg_type = TIMESTAMPOID;
	}
	else if (strcmp(tv->u.str, "decimal") == 0 ||
			 strncmp(tv->u.str, "decimal(", 8) == 0)
	{
		int			p = 10;
		int			sc = 0;
		char		tail;

		if (tv->u.str[7] == '\0' ||
			(sscanf(tv->u.str, "decimal(%d,%d%c", &p, &sc, &tail) == 3 &&
			 tail == ')' && p >= 1 && p <= 38 && sc >= 0 && sc <= p))
		{
			f->kind = DELTA_TYPE_DECIMAL;
			f->precision = p;
			f->scale = sc;
			f->pg_type = NUMERICOID;
			f->pg_typmod = ((p << 16) | sc) + VARHDRSZ;
		}
	}

	f->minmax_eligible = (f->kind <= DELTA_TYPE_STRING ||
						  f->kind == DELTA_TYPE_DATE ||
						  f->kind == DELTA_TYPE_TIMESTAMP ||
						  f->kind == DELTA_TYPE_TIMESTAMP_NTZ);
	add_leaf(b, f);
}

/*
 * The element type of an array or the key/value type of a map, as a field
 * named "element", "key" or "value" under container (NULL when tv is
 * absent).  Struct fields inside keep their column-mapping physical names;
 * nothing inside is numbered as a leaf (b->inner).
 */
static DeltaField *
parse_inner(SchemaBuild *b, DeltaField *container, const DjValue *tv,
			const char *name, int depth)
{
	DeltaField *f;

	if (tv == NULL)
		return NULL;
	f = palloc0(sizeof(DeltaField));
	f->name = pstrdup(name);
	f->physical_name = f->name;
	f->parent = container;
	f->depth = depth + 1;
	f->leaf_index = -1;
	f->path = psprintf("%s.%s", container->path, name);
	f->nullable = true;
	b->inner++;
	parse_type(b, f, tv, depth + 1);
	b->inner--;
	return f;
}

/*
 * Append f to the schema's depth-first leaf list (not inside an array
 * element or map key/value: those are read whole with their container).
 */
static void
add_leaf(SchemaBuild *b, DeltaField *f)
{
	DeltaSchema *s = b->schema;

	if (b->inner > 0)
		return;

	if (s->nleaves == b->cap_leaves)
	{
		b->cap_leaves *= 2;
		s->leaves = repalloc(s->leaves, sizeof(DeltaField *) * b->cap_leaves);
	}
	f->leaf_index = s->nleaves;
	s->leaves[s->nleaves++] = f;
}

/*
 * Find a child of parent (or a top-level field when parent is NULL) whose
 * name matches the dotted path from its start, then descend.  Names that
 * contain dots are found by trying every dot position.
 */
static DeltaField *
lookup_in(DeltaField **fields, int nfields, const char *dotted)
{
	int			i;
	size_t		len = strlen(dotted);

	for (i = 0; i < nfields; i++)
	{
		DeltaField *f = fields[i];
		size_t		nl = strlen(f->name);

		if (nl > len || pg_strncasecmp(f->name, dotted, nl) != 0)
			continue;
		if (nl == len)
			return f;
		if (dotted[nl] == '.' && f->kind == DELTA_TYPE_STRUCT)
		{
			DeltaField *r = lookup_in(f->fields, f->nfields, dotted + nl + 1);

			if (r)
				return r;
		}
	}
	return NULL;
}

/*
 * Case-insensitive dotted lookup; see schema.h.
 */
DeltaField *
delta_schema_lookup(const DeltaSchema *schema, const char *dotted)
{
	return lookup_in(schema->fields, schema->nfields, dotted);
}

/*
 * Mark every leaf under f (f itself when it is a leaf) as having stats,
 * partition columns excepted.
 */
static void
mark_stats_subtree(DeltaField *f)
{
	int			i;

	if (f->is_partition)
		return;
	if (f->kind != DELTA_TYPE_STRUCT)
	{
		f->in_stats = true;
		return;
	}
	for (i = 0; i < f->nfields; i++)
		mark_stats_subtree(f->fields[i]);
}

/*
 * Split the dataSkippingStatsColumns list into names: comma-separated,
 * each a dotted path whose parts may be back-tick quoted (`` doubles a
 * back-tick).  Returns the names with the quoting removed, parts joined by
 * '.', as a List of char *.
 */
static List *
split_stats_columns(const char *list)
{
	List	   *result = NIL;
	StringInfoData cur;
	const char *p = list;
	bool		any = false;

	initStringInfo(&cur);
	for (;;)
	{
		if (*p == '`')
		{
			p++;
			while (*p)
			{
				if (*p == '`' && p[1] == '`')
				{
					appendStringInfoChar(&cur, '`');
					p += 2;
				}
				else if (*p == '`')
				{
					p++;
					break;
				}
				else
					appendStringInfoChar(&cur, *p++);
			}
			any = true;
			continue;
		}
		if (*p == ',' || *p == '\0')
		{
			char	   *s = cur.data;
			char	   *e;

			while (*s == ' ' || *s == '\t')
				s++;
			e = s + strlen(s);
			while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = '\0';
			if (*s || any)
				result = lappend(result, pstrdup(s));
			resetStringInfo(&cur);
			any = false;
			if (*p == '\0')
				break;
			p++;
			continue;
		}
		appendStringInfoChar(&cur, *p++);
	}
	return result;
}

/*
 * Depth-first walk marking the first *remaining leaves as stats columns.
 */
static void
mark_first_n(DeltaField *f, int *remaining)
{
	int			i;

	if (*remaining == 0 || f->is_partition)
		return;
	if (f->kind != DELTA_TYPE_STRUCT)
	{
		f->in_stats = true;
		if (*remaining > 0)
			(*remaining)--;
		return;
	}
	for (i = 0; i < f->nfields && *remaining != 0; i++)
		mark_first_n(f->fields[i], remaining);
}

/*
 * Decide the statistics column set of reference §1.9.
 */
static void
compute_stats_columns(DeltaSchema *s)
{
	int			i;

	if (s->stats_columns != NULL)
	{
		ListCell   *lc;

		foreach(lc, split_stats_columns(s->stats_columns))
		{
			DeltaField *f = delta_schema_lookup(s, (char *) lfirst(lc));

			if (f != NULL)
				mark_stats_subtree(f);
		}
		return;
	}
	{
		int			remaining = s->num_indexed_cols;

		for (i = 0; i < s->nfields && remaining != 0; i++)
			mark_first_n(s->fields[i], &remaining);
	}
}

/*
 * Short name of a type kind, for messages.
 */
const char *
delta_type_kind_name(DeltaTypeKind kind)
{
	switch (kind)
	{
		case DELTA_TYPE_LONG:
			return "long";
		case DELTA_TYPE_INTEGER:
			return "integer";
		case DELTA_TYPE_SHORT:
			return "short";
		case DELTA_TYPE_BYTE:
			return "byte";
		case DELTA_TYPE_FLOAT:
			return "float";
		case DELTA_TYPE_DOUBLE:
			return "double";
		case DELTA_TYPE_DECIMAL:
			return "decimal";
		case DELTA_TYPE_STRING:
			return "string";
		case DELTA_TYPE_BINARY:
			return "binary";
		case DELTA_TYPE_BOOLEAN:
			return "boolean";
		case DELTA_TYPE_DATE:
			return "date";
		case DELTA_TYPE_TIMESTAMP:
			return "timestamp";
		case DELTA_TYPE_TIMESTAMP_NTZ:
			return "timestamp_ntz";
		case DELTA_TYPE_STRUCT:
			return "struct";
		case DELTA_TYPE_ARRAY:
			return "array";
		case DELTA_TYPE_MAP:
			return "map";
		case DELTA_TYPE_UNSUPPORTED:
			break;
	}
	return "unsupported";
}
