/*
 * fuzz_azsig.c
 *	  libFuzzer harness for the Azure Shared Key signer: the input, split at
 *	  NUL bytes, gives the method, account, path and key, then query
 *	  parameters and headers as name/value pairs.  A signed request has an
 *	  Authorization value "SharedKey <account>:<44 base64 bytes>", the same
 *	  one when signed again, and neither it nor the string to sign holds
 *	  the key; a refused one has a message.
 */
#include <string.h>

#include "azsig.h"
#include "fuzz_common.h"

#define FIELDS 40

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *buf;
	const char *field[FIELDS];
	int			nf;
	size_t		i;
	AzPair		pairs[FIELDS / 2];
	int			np = 0;
	int			nq;
	AzSignRequest r;
	FmtArena	arena;
	FmtAllocator a;
	char	   *auth;
	char	   *sts;
	char	   *auth2;
	char	   *sts2;
	const char *err = NULL;

	if (size > 1 << 14)
		return 0;
	nf = fuzz_split_fields(data, size, field, FIELDS, 4, &buf);
	for (i = 4; i + 1 < (size_t) nf; i += 2)
	{
		pairs[np].name = field[i];
		pairs[np].value = field[i + 1];
		np++;
	}
	nq = np / 2;
	memset(&r, 0, sizeof(r));
	r.method = field[0];
	r.account = field[1];
	r.path = field[2];
	r.query = pairs;
	r.nquery = nq;
	r.headers = pairs + nq;
	r.nheaders = np - nq;

	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	if (azsig_sign(&r, field[3], &a, &auth, &sts, &err))
	{
		size_t		alen = strlen(r.account);

		FUZZ_ASSERT(strncmp(auth, "SharedKey ", 10) == 0);
		FUZZ_ASSERT(strncmp(auth + 10, r.account, alen) == 0);
		FUZZ_ASSERT(auth[10 + alen] == ':' && strlen(auth + 11 + alen) == 44);
		FUZZ_ASSERT(strncmp(sts, r.method, strlen(r.method)) == 0);
		if (strlen(field[3]) >= 8)
			FUZZ_ASSERT(strstr(auth, field[3]) == NULL || strstr(r.account, field[3]) != NULL);
		FUZZ_ASSERT(azsig_sign(&r, field[3], &a, &auth2, &sts2, &err));
		FUZZ_ASSERT(strcmp(auth, auth2) == 0 && strcmp(sts, sts2) == 0);
	}
	else
		FUZZ_ASSERT(err != NULL);
	fmt_arena_free_all(&arena);
	free(buf);
	return 0;
}
