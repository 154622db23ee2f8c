/*
 * test_azsig.c
 *	  Unit tests of the Azure Shared Key signer (src/format/azsig.c): two
 *	  requests whose strings to sign and signatures were computed apart
 *	  from it (Python's hmac over the string Microsoft's "Authorize with
 *	  Shared Key" page describes, with Azurite's published development
 *	  key), the date format, and refusals.  Azurite checks the same
 *	  signatures end to end in scripts/storage_test.sh.
 */
#include <string.h>

#include "azsig.h"
#include "fmt_alloc.h"
#include "unit.h"

#define DEV_KEY "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
#define DATE "Sun, 06 Nov 1994 08:49:37 GMT"

/* Sign r with the development key; the results live in *arena. */
static bool
sign(const AzSignRequest *r, FmtArena *arena, char **auth, char **sts)
{
	FmtAllocator a;
	const char *err = NULL;

	fmt_arena_init(arena, 0);
	a = fmt_arena_allocator(arena);
	return azsig_sign(r, DEV_KEY, &a, auth, sts, &err);
}

UNIT_TEST(azsig_list_blobs)
{
	AzPair		query[] = {{"restype", "container"}, {"comp", "list"},
	{"prefix", "t/_delta_log/"}, {"Delimiter", "/"}};
	AzPair		headers[] = {{"x-ms-version", "2021-12-02"}, {"X-MS-Date", DATE},
	{"Host", "127.0.0.1:10000"}};
	AzSignRequest r = {"GET", "devstoreaccount1", "/devstoreaccount1/lake", query, 4, headers, 3};
	FmtArena	arena;
	char	   *auth = NULL;
	char	   *sts = NULL;

	UNIT_CHECK(sign(&r, &arena, &auth, &sts));
	UNIT_CHECK(sts && strcmp(sts, "GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:" DATE
							 "\nx-ms-version:2021-12-02\n/devstoreaccount1/devstoreaccount1/lake"
							 "\ncomp:list\ndelimiter:/\nprefix:t/_delta_log/\nrestype:container") == 0);
	UNIT_CHECK(auth && strcmp(auth, "SharedKey devstoreaccount1:6ZgdOvqqWcOF9ohDiazNjIH5XF6qv3Z1aMtorGbjZ1Y=") == 0);
	/* the key never appears in what is returned */
	UNIT_CHECK(auth && strstr(auth, "Eby8vd") == NULL && strstr(sts, "Eby8vd") == NULL);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(azsig_range_if_match)
{
	AzPair		headers[] = {{"Range", "bytes=0-9"}, {"x-ms-date", "  " DATE "  "},
	{"If-Match", "\"0x8D\""}, {"x-ms-version", "2021-12-02"}, {"Content-Length", "0"}};
	AzSignRequest r = {"HEAD", "acct", "/c/a%20b.json", NULL, 0, headers, 5};
	FmtArena	arena;
	char	   *auth = NULL;
	char	   *sts = NULL;

	UNIT_CHECK(sign(&r, &arena, &auth, &sts));
	UNIT_CHECK(sts && strcmp(sts, "HEAD\n\n\n\n\n\n\n\n\"0x8D\"\n\n\nbytes=0-9\nx-ms-date:" DATE
							 "\nx-ms-version:2021-12-02\n/acct/c/a%20b.json") == 0);
	UNIT_CHECK(auth && strcmp(auth, "SharedKey acct:012vmNjvKN1XLE2e2JUQntzhCfsPncyxFX1GYOVIfHs=") == 0);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(azsig_refusals)
{
	AzPair		twice[] = {{"x-ms-date", DATE}, {"X-Ms-Date", DATE}};
	AzPair		ctl[] = {{"x-ms-date", "a\r\nb"}};
	AzSignRequest r = {"GET", "acct", "/c/b", NULL, 0, NULL, 0};
	FmtArena	arena;
	FmtAllocator a;
	char	   *auth;
	char	   *sts;
	const char *err;
	char		date[AZSIG_DATE_LEN + 1];

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	err = NULL;
	UNIT_CHECK(!azsig_sign(&r, "not base64!", &a, &auth, &sts, &err) && err && strstr(err, "base64"));
	UNIT_CHECK(!azsig_sign(&r, "abc", &a, &auth, &sts, &err));
	UNIT_CHECK(!azsig_sign(&r, "ab=c", &a, &auth, &sts, &err));
	UNIT_CHECK(!azsig_sign(&r, "", &a, &auth, &sts, &err));
	r.headers = twice;
	r.nheaders = 2;
	UNIT_CHECK(!azsig_sign(&r, DEV_KEY, &a, &auth, &sts, &err) && strstr(err, "twice"));
	r.headers = ctl;
	r.nheaders = 1;
	UNIT_CHECK(!azsig_sign(&r, DEV_KEY, &a, &auth, &sts, &err) && strstr(err, "control"));
	r.headers = NULL;
	r.nheaders = 0;
	r.path = "c/b";
	UNIT_CHECK(!azsig_sign(&r, DEV_KEY, &a, &auth, &sts, &err));
	fmt_arena_free_all(&arena);

	UNIT_CHECK(azsig_format_date(784111777LL, date) && strcmp(date, DATE) == 0);
	UNIT_CHECK(azsig_format_date(0, date) && strcmp(date, "Thu, 01 Jan 1970 00:00:00 GMT") == 0);
}
