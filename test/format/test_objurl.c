/*
 * test_objurl.c
 *	  Unit tests of the object-store URL parser (src/format/objurl.c):
 *	  every accepted form, and hostile texts refused with the offset of the
 *	  offending byte.
 */
#include <string.h>

#include "fmt_alloc.h"
#include "objurl.h"
#include "unit.h"

static bool
parse(const char *url, size_t len, FmtArena *arena, ObjUrl *u, const char **err,
	  size_t *off)
{
	FmtAllocator a = fmt_arena_allocator(arena);

	*err = NULL;
	*off = (size_t) -1;
	return objurl_parse(url, len, &a, u, err, off);
}

static void
check_ok(int *unit_failures, const char *url, ObjUrlScheme scheme,
		 const char *bucket, const char *account, const char *key)
{
	FmtArena	arena;
	ObjUrl		u;
	const char *err;
	size_t		off;
	bool		ok;

	fmt_arena_init(&arena, 0);
	ok = parse(url, strlen(url), &arena, &u, &err, &off);
	if (!ok)
		fprintf(stderr, "  %s: %s at %zu\n", url, err, off);
	UNIT_CHECK(ok);
	if (ok)
	{
		UNIT_CHECK(u.scheme == scheme);
		UNIT_CHECK(strcmp(u.bucket, bucket) == 0);
		UNIT_CHECK(account == NULL ? u.account == NULL :
				   (u.account != NULL && strcmp(u.account, account) == 0));
		UNIT_CHECK(strcmp(u.key, key) == 0);
	}
	fmt_arena_free_all(&arena);
}

/* Refused, with the message containing 'msg_part' and at byte 'at'. */
static void
check_bad(int *unit_failures, const char *url, size_t len, const char *msg_part,
		  size_t at)
{
	FmtArena	arena;
	ObjUrl		u;
	const char *err;
	size_t		off;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(!parse(url, len, &arena, &u, &err, &off));
	UNIT_CHECK(err != NULL && strstr(err, msg_part) != NULL);
	if (off != at)
		fprintf(stderr, "  %s: offset %zu, expected %zu (%s)\n", url, off, at, err ? err : "");
	UNIT_CHECK(off == at);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(objurl_accepted_forms)
{
	check_ok(unit_failures, "s3://my-bucket/tables/sales", OBJURL_S3, "my-bucket", NULL, "tables/sales");
	check_ok(unit_failures, "s3://my.bucket.1/t/", OBJURL_S3, "my.bucket.1", NULL, "t");
	check_ok(unit_failures, "s3://abc", OBJURL_S3, "abc", NULL, "");
	check_ok(unit_failures, "s3://abc/", OBJURL_S3, "abc", NULL, "");
	check_ok(unit_failures, "gs://my_bucket/a/b", OBJURL_GS, "my_bucket", NULL, "a/b");
	check_ok(unit_failures, "az://data/t1", OBJURL_AZ, "data", NULL, "t1");
	check_ok(unit_failures, "az://data-1@acct01/x/y", OBJURL_AZ, "data-1", "acct01", "x/y");
	check_ok(unit_failures, "abfss://lake@myacct.dfs.core.windows.net/gold/t",
			 OBJURL_ABFSS, "lake", "myacct", "gold/t");
	/* taken literally: '%' is not decoded, '=' and ' ' and UTF-8 kept */
	check_ok(unit_failures, "s3://abc/a%2Fb/p=1 x/\xc3\xbc", OBJURL_S3, "abc", NULL,
			 "a%2Fb/p=1 x/\xc3\xbc");
	/* dots inside a segment are fine */
	check_ok(unit_failures, "s3://abc/.hidden/a..b/...", OBJURL_S3, "abc", NULL, ".hidden/a..b/...");
}

UNIT_TEST(objurl_hostile_inputs)
{
	char		big[OBJURL_MAX_URL + 2];
	char		key[8 + OBJURL_MAX_KEY + 2];

	check_bad(unit_failures, "", 0, "scheme", 0);
	check_bad(unit_failures, "S3://abc/k", 10, "scheme", 0);
	check_bad(unit_failures, "s3a://abc/k", 11, "scheme", 0);
	check_bad(unit_failures, "file:///etc/passwd", 18, "scheme", 0);
	check_bad(unit_failures, "s3:/abc/k", 9, "scheme", 0);
	/* empty parts */
	check_bad(unit_failures, "s3://", 5, "bucket name", 5);
	check_bad(unit_failures, "s3:///key", 9, "bucket name", 5);
	check_bad(unit_failures, "s3://abc//key", 13, "empty path segment", 9);
	check_bad(unit_failures, "s3://abc//", 10, "empty path segment", 9);
	check_bad(unit_failures, "s3://abc/a//b", 13, "empty path segment", 11);
	check_bad(unit_failures, "az://@acct/k", 12, "container name", 5);
	check_bad(unit_failures, "az://data@/k", 12, "account name", 10);
	check_bad(unit_failures, "abfss://lake/k", 14, "no \"container@", 8);
	/* dot segments */
	check_bad(unit_failures, "s3://abc/..", 11, "\"..\"", 9);
	check_bad(unit_failures, "s3://abc/t/../secret", 20, "\"..\"", 11);
	check_bad(unit_failures, "s3://abc/./t", 12, "\"..\"", 9);
	check_bad(unit_failures, "s3://abc/t/.", 12, "\"..\"", 11);
	/* NULs, control bytes, query strings, backslashes, bad UTF-8 */
	check_bad(unit_failures, "s3://abc/k\0/x", 13, "NUL", 10);
	check_bad(unit_failures, "s3://ab\0c/k", 11, "NUL", 7);
	check_bad(unit_failures, "s3://abc/k\r\nHost: evil", 22, "control", 10);
	check_bad(unit_failures, "s3://abc/k\x7f", 11, "control", 10);
	check_bad(unit_failures, "az://data@acct/t?sv=2020&sig=abc", 32, "query string", 16);
	check_bad(unit_failures, "s3://abc/t#frag", 15, "query string", 10);
	check_bad(unit_failures, "s3://abc?x=1", 12, "bucket name", 8);
	check_bad(unit_failures, "s3://abc/a\\..\\b", 15, "backslash", 10);
	check_bad(unit_failures, "s3://abc/\xc3", 10, "UTF-8", 9);
	check_bad(unit_failures, "s3://abc/\xc0\xaf", 11, "UTF-8", 9);
	check_bad(unit_failures, "s3://abc/\xed\xa0\x80", 12, "UTF-8", 9);
	/* names against the stores' rules */
	check_bad(unit_failures, "s3://ab/k", 9, "bucket name", 5);
	check_bad(unit_failures, "s3://ABC/k", 10, "bucket name", 5);
	check_bad(unit_failures, "s3://-abc/k", 11, "bucket name", 5);
	check_bad(unit_failures, "s3://a_bc/k", 11, "bucket name", 6);
	check_bad(unit_failures, "s3://user@abc/k", 15, "\"@\"", 9);
	check_bad(unit_failures, "s3://abc:9000/k", 15, "bucket name", 8);
	check_bad(unit_failures, "s3://a%62c/k", 12, "bucket name", 6);
	check_bad(unit_failures, "az://da--ta@acct/k", 18, "container name", 8);
	check_bad(unit_failures, "az://data@Acct/k", 16, "account name", 10);
	check_bad(unit_failures, "az://data@a.b.c/k", 17, "account name", 11);
	check_bad(unit_failures, "abfss://lake@acct.dfs.core.windows.net.evil.com/k", 49, "host", 17);
	check_bad(unit_failures, "abfss://lake@acct.blob.core.windows.net/k", 41, "host", 17);
	check_bad(unit_failures, "abfss://lake@acct/k", 19, "host", 17);
	check_bad(unit_failures, "abfss://lake@.dfs.core.windows.net/k", 36, "account name", 13);
	/* lengths */
	memset(big, 'a', sizeof(big));
	memcpy(big, "s3://abc/", 9);
	check_bad(unit_failures, big, OBJURL_MAX_URL + 1, "longer than 2048", OBJURL_MAX_URL);
	memset(key, 'k', sizeof(key));
	memcpy(key, "s3://abc/", 9);
	check_bad(unit_failures, key, 9 + OBJURL_MAX_KEY + 1, "longer than 1024", 9);
	check_ok(unit_failures, "gs://a-b_c/k", OBJURL_GS, "a-b_c", NULL, "k");
}

/*
 * Every prefix of a valid URL parses or fails cleanly, never reading past
 * its length: accepted exactly when it holds the whole host.
 */
UNIT_TEST(objurl_prefixes)
{
	const char *host = "abfss://lake@myacct.dfs.core.windows.net";
	const char *url = "abfss://lake@myacct.dfs.core.windows.net/gold/t/x";
	size_t		n;

	for (n = 0; n <= strlen(url); n++)
	{
		FmtArena	arena;
		ObjUrl		u;
		const char *err;
		size_t		off;
		bool		ok;

		fmt_arena_init(&arena, 0);
		ok = parse(url, n, &arena, &u, &err, &off);
		UNIT_CHECK(ok == (n >= strlen(host)));
		if (ok)
			UNIT_CHECK(strlen(u.key) < n && strcmp(u.account, "myacct") == 0);
		else
			UNIT_CHECK(err != NULL && off <= n);
		fmt_arena_free_all(&arena);
	}
}
