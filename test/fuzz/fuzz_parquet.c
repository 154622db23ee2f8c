/*
 * fuzz_parquet.c
 *	  libFuzzer harness for the Parquet reader.
 *
 * The input is a whole Parquet file.  It is opened, its schema walked, and
 * every row read twice: with every column, and projected to the first
 * top-level field, row group by row group.  Every value of every row is
 * visited (so out-of-bounds pointers show up under ASan).  Invariants: row
 * positions count up from 0 across row groups, a file that reads to the end
 * yields exactly its declared row count, every error has a message, and all
 * memory comes from a bounded arena.
 */
#include <string.h>

#include "fuzz_common.h"
#include "parquet.h"

static uint64_t
visit(const PqValue *v, int depth)
{
	uint64_t	h = v->kind;
	uint32_t	i;

	FUZZ_ASSERT(depth < 256);
	FUZZ_ASSERT(v->kind <= PQV_MAP);
	switch (v->kind)
	{
		case PQV_BYTES:
		case PQV_STRING:
			for (i = 0; i < v->len; i++)
				h = h * 31 + v->u.bytes[i];
			break;
		case PQV_DECIMAL:
			FUZZ_ASSERT(strlen(v->u.text) == v->len);
			break;
		case PQV_STRUCT:
		case PQV_LIST:
			for (i = 0; i < v->len; i++)
				h += visit(&v->u.items[i], depth + 1);
			break;
		case PQV_MAP:
			for (i = 0; i < v->len; i++)
				h += visit(&v->u.map.keys[i], depth + 1) + visit(&v->u.map.values[i], depth + 1);
			break;
		default:
			break;
	}
	if (v->kind == PQV_STRUCT)
		for (i = 0; i < v->len; i++)
			FUZZ_ASSERT(v->u.items[i].node != NULL);
	return h;
}

static void
read_rows(PqFile *f, const char *const *cols, int ncols, FmtAllocator *a)
{
	PqError		err;
	PqReader   *r = pq_reader_open(f, cols, ncols, &err);
	PqValue		row;
	int64_t		pos,
				expect = 0;
	int			g,
				rc = 0;
	volatile uint64_t sink = 0;

	if (r == NULL)
		return;
	for (g = 0; g < pq_num_row_groups(f); g++)
	{
		FUZZ_ASSERT(pq_row_group_first_row(f, g) == expect);
		if (!pq_reader_load_row_group(r, g, a, &err))
		{
			FUZZ_ASSERT(err.message[0] != '\0');
			return;
		}
		while ((rc = pq_reader_next(r, a, &row, &pos, &err)) > 0)
		{
			FUZZ_ASSERT(pos == expect);
			FUZZ_ASSERT(row.kind == PQV_STRUCT);
			sink += visit(&row, 0);
			expect++;
		}
		if (rc < 0)
		{
			FUZZ_ASSERT(err.message[0] != '\0');
			return;
		}
		FUZZ_ASSERT(expect == pq_row_group_first_row(f, g) + pq_row_group_num_rows(f, g));
	}
	FUZZ_ASSERT(expect == pq_num_rows(f));
	(void) sink;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FmtArena	arena;
	FmtAllocator a;
	PqError		err;
	PqFile	   *f;
	const PqSchemaNode *root;
	int			i;

	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	f = pq_open_buffer(data, size, &a, NULL, &err);
	if (f == NULL)
		FUZZ_ASSERT(err.message[0] != '\0');
	else
	{
		root = pq_schema_root(f);
		FUZZ_ASSERT(root != NULL && root->type == PQ_GROUP);
		for (i = 0; i < pq_num_columns(f); i++)
		{
			const PqSchemaNode *c = pq_column(f, i);

			FUZZ_ASSERT(c->leaf_index == i && c->type != PQ_GROUP);
			FUZZ_ASSERT(c->max_def >= c->max_rep);
		}
		read_rows(f, NULL, 0, &a);
		if (root->num_children > 0)
		{
			const char *first = root->children[0]->name;

			FUZZ_ASSERT(pq_schema_find(f, first) != NULL || strchr(first, '.') != NULL);
			read_rows(f, &first, 1, &a);
		}
	}
	fmt_arena_free_all(&arena);
	return 0;
}
