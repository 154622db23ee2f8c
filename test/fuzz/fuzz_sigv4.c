/*
 * fuzz_sigv4.c
 *	  libFuzzer harness for the SigV4 signer: the input, split at NUL bytes,
 *	  gives the method, host, path, region, date, then query parameters and
 *	  headers as name/value pairs.  A signed request has a 64-hex-digit
 *	  signature, an encoded path and query of unreserved bytes and escapes
 *	  only, the same signature when signed again, and an Authorization
 *	  value without the secret; a refused one has a message.
 */
#include <string.h>

#include "fuzz_common.h"
#include "sigv4.h"

#define FIELDS 40
#define SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

static int
only_encoded(const char *s, const char *extra)
{
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			  (c >= '0' && c <= '9') || strchr("-_.~%", c) || strchr(extra, c)))
			return 0;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *buf;
	const char *field[FIELDS];
	int			nf;
	size_t		i;
	SigV4Pair	pairs[FIELDS / 2];
	int			np = 0;
	int			nq;
	SigV4Request r;
	SigV4Result s;
	SigV4Result s2;
	FmtArena	arena;
	FmtAllocator a;
	const char *err = NULL;

	if (size > 1 << 14)
		return 0;
	nf = fuzz_split_fields(data, size, field, FIELDS, 5, &buf);
	for (i = 5; i + 1 < (size_t) nf; i += 2)
	{
		pairs[np].name = field[i];
		pairs[np].value = field[i + 1];
		np++;
	}
	nq = np / 2;

	memset(&r, 0, sizeof(r));
	r.method = field[0];
	r.host = field[1];
	r.path = field[2];
	r.region = field[3];
	r.amz_date = field[4];
	r.service = "s3";
	r.query = pairs;
	r.nquery = nq;
	r.headers = pairs + nq;
	r.nheaders = np - nq;
	r.payload_hash = SIGV4_UNSIGNED_PAYLOAD;
	r.sign_content_sha256 = 1;

	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	if (sigv4_sign(&r, "AKIAIOSFODNN7EXAMPLE", SECRET, &a, &s, &err))
	{
		FUZZ_ASSERT(strlen(s.signature) == 64);
		FUZZ_ASSERT(strspn(s.signature, "0123456789abcdef") == 64);
		FUZZ_ASSERT(only_encoded(s.encoded_path, "/"));
		FUZZ_ASSERT(only_encoded(s.query_string, "=&"));
		FUZZ_ASSERT(strstr(s.authorization, SECRET) == NULL);
		FUZZ_ASSERT(strchr(s.authorization, '\n') == NULL);
		FUZZ_ASSERT(sigv4_sign(&r, "AKIAIOSFODNN7EXAMPLE", SECRET, &a, &s2, &err));
		FUZZ_ASSERT(strcmp(s.signature, s2.signature) == 0);
	}
	else
		FUZZ_ASSERT(err != NULL && strstr(err, SECRET) == NULL);
	fmt_arena_free_all(&arena);
	free(buf);
	return 0;
}
