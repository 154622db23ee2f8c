/*
 * fuzz_objxml.c
 *	  libFuzzer harness for the object-store XML reader: the input is read
 *	  as a ListObjectsV2 page, a List Blobs page and an error document;
 *	  whatever is accepted has entries with keys, sizes that are -1 or
 *	  non-negative, a token whenever an S3 page says it is truncated, and
 *	  error texts no longer than asked; memory stays within the arena's
 *	  budget (the reader's buffers are sized from the input).
 */
#include <string.h>

#include "fuzz_common.h"
#include "objxml.h"

static void
check_page(const ObjListPage *p, bool s3)
{
	int			i;

	FUZZ_ASSERT(p->n >= 0);
	for (i = 0; i < p->n; i++)
	{
		FUZZ_ASSERT(p->entries[i].key != NULL);
		FUZZ_ASSERT(p->entries[i].size >= -1);
	}
	if (s3 && p->truncated)
		FUZZ_ASSERT(p->next_token != NULL && p->next_token[0] != '\0');
	if (!s3)
		FUZZ_ASSERT(p->truncated == (p->next_token != NULL));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *xml = (const char *) data;
	FmtArena	arena;
	FmtAllocator a;
	ObjListPage page;
	const char *err = NULL;
	char	   *code;
	char	   *msg;

	if (size > 1 << 20)
		return 0;
	fmt_arena_init(&arena, 4 * size + 65536 + sizeof(ObjListEntry) * 2 * (size / 8 + 64));
	a = fmt_arena_allocator(&arena);
	if (objxml_parse_s3_list(xml, size, &a, &page, &err))
		check_page(&page, true);
	else
		FUZZ_ASSERT(err != NULL);
	fmt_arena_free_all(&arena);

	fmt_arena_init(&arena, 4 * size + 65536 + sizeof(ObjListEntry) * 2 * (size / 8 + 64));
	a = fmt_arena_allocator(&arena);
	err = NULL;
	if (objxml_parse_azure_list(xml, size, &a, &page, &err))
		check_page(&page, false);
	else
		FUZZ_ASSERT(err != NULL);
	if (objxml_parse_error(xml, size, &a, 16, &code, &msg))
	{
		FUZZ_ASSERT(code == NULL || strlen(code) <= 16);
		FUZZ_ASSERT(msg == NULL || strlen(msg) <= 16);
	}
	else
		FUZZ_ASSERT(code == NULL && msg == NULL);
	fmt_arena_free_all(&arena);
	return 0;
}
