/*
 * fuzz_objurl.c
 *	  libFuzzer harness for the object-store URL parser: an accepted URL has
 *	  a key without empty, "." or ".." segments, '?', '#' or control bytes,
 *	  and parsing "<scheme>://<authority>/<key>" rebuilt from the result
 *	  gives the same parts; a refused one has a message and an offset
 *	  inside the input.
 */
#include <string.h>

#include "fuzz_common.h"
#include "objurl.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *url = (const char *) data;
	FmtArena	arena;
	FmtAllocator a;
	ObjUrl		u;
	ObjUrl		v;
	const char *err = NULL;
	size_t		off = 0;

	if (size > 4096)
		return 0;
	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	if (objurl_parse(url, size, &a, &u, &err, &off))
	{
		char	   *again = fmt_alloc(&a, size + 8);
		size_t		k = strlen(u.key);
		size_t		i;

		FUZZ_ASSERT(k <= OBJURL_MAX_KEY);
		FUZZ_ASSERT(k == 0 || (u.key[0] != '/' && u.key[k - 1] != '/'));
		FUZZ_ASSERT(strstr(u.key, "//") == NULL);
		FUZZ_ASSERT(strcmp(u.key, "..") != 0 && strncmp(u.key, "../", 3) != 0 &&
					strstr(u.key, "/../") == NULL);
		for (i = 0; i < k; i++)
			FUZZ_ASSERT((unsigned char) u.key[i] >= 0x20 && u.key[i] != 0x7f &&
						u.key[i] != '?' && u.key[i] != '#');
		FUZZ_ASSERT(strlen(u.bucket) >= 3 && strlen(u.bucket) <= 63);
		strcpy(again, objurl_scheme_name(u.scheme));
		strcat(again, "://");
		strcat(again, u.bucket);
		if (u.account)
		{
			strcat(again, "@");
			strcat(again, u.account);
			if (u.scheme == OBJURL_ABFSS)
				strcat(again, ".dfs.core.windows.net");
		}
		strcat(again, "/");
		strcat(again, u.key);
		FUZZ_ASSERT(objurl_parse(again, strlen(again), &a, &v, &err, &off));
		FUZZ_ASSERT(v.scheme == u.scheme && strcmp(v.bucket, u.bucket) == 0 &&
					strcmp(v.key, u.key) == 0 &&
					(u.account == NULL) == (v.account == NULL));
	}
	else
		FUZZ_ASSERT(err != NULL && off <= size);
	fmt_arena_free_all(&arena);
	return 0;
}
