/*
 * test_objxml.c
 *	  Unit tests of the object-store XML reader (src/format/objxml.c):
 *	  ListObjectsV2 and List Blobs pages as the services document them,
 *	  error documents, and hostile documents refused.
 */
#include <string.h>

#include "fmt_alloc.h"
#include "objxml.h"
#include "unit.h"

static bool
s3_list(const char *xml, FmtArena *arena, ObjListPage *p, const char **err)
{
	FmtAllocator a = fmt_arena_allocator(arena);

	*err = NULL;
	return objxml_parse_s3_list(xml, strlen(xml), &a, p, err);
}

/* A page in the form of the ListObjectsV2 documentation's example. */
UNIT_TEST(objxml_s3_page)
{
	const char *xml =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n"
		"  <Name>bucket</Name><Prefix>t/_delta_log/</Prefix>\n"
		"  <StartAfter>t/_delta_log/00000000000000000000</StartAfter>\n"
		"  <KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>\n"
		"  <IsTruncated>true</IsTruncated>\n"
		"  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>\n"
		"  <Contents><Key>t/_delta_log/00000000000000000000.json</Key>"
		"<LastModified>2026-01-01T00:00:00.000Z</LastModified>"
		"<ETag>&quot;599bab3ed2c697f1d26842727561fd94&quot;</ETag>"
		"<Size>1024</Size><StorageClass>STANDARD</StorageClass></Contents>\n"
		"  <Contents><Key>t/_delta_log/a&amp;b&#x20AC;&#65;</Key><Size>0</Size></Contents>\n"
		"  <CommonPrefixes><Prefix>t/_delta_log/_staged_commits/</Prefix></CommonPrefixes>\n"
		"</ListBucketResult>\n";
	FmtArena	arena;
	ObjListPage p;
	const char *err;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(s3_list(xml, &arena, &p, &err));
	UNIT_CHECK(p.n == 2);
	UNIT_CHECK(p.truncated);
	UNIT_CHECK(p.next_token && strcmp(p.next_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=") == 0);
	UNIT_CHECK(p.n_prefixes == 1);
	if (p.n == 2)
	{
		UNIT_CHECK(strcmp(p.entries[0].key, "t/_delta_log/00000000000000000000.json") == 0);
		UNIT_CHECK(p.entries[0].size == 1024);
		UNIT_CHECK(strcmp(p.entries[0].etag, "\"599bab3ed2c697f1d26842727561fd94\"") == 0);
		UNIT_CHECK(strcmp(p.entries[1].key, "t/_delta_log/a&b\xE2\x82\xAC" "A") == 0);
		UNIT_CHECK(p.entries[1].size == 0);
		UNIT_CHECK(p.entries[1].etag == NULL);
	}
	fmt_arena_free_all(&arena);
}

UNIT_TEST(objxml_s3_last_page)
{
	FmtArena	arena;
	ObjListPage p;
	const char *err;

	fmt_arena_init(&arena, 0);
	UNIT_CHECK(s3_list("<ListBucketResult><IsTruncated>false</IsTruncated>"
					   "<Contents><Key><![CDATA[k<1>]]></Key><Size>5</Size></Contents>"
					   "</ListBucketResult>", &arena, &p, &err));
	UNIT_CHECK(!p.truncated && p.next_token == NULL && p.n == 1);
	if (p.n == 1)
		UNIT_CHECK(strcmp(p.entries[0].key, "k<1>") == 0);
	/* empty listing, self-closing elements, a namespace prefix */
	UNIT_CHECK(s3_list("<s3:ListBucketResult xmlns:s3='x'><s3:Name/>"
					   "<s3:IsTruncated>false</s3:IsTruncated></s3:ListBucketResult>",
					   &arena, &p, &err));
	UNIT_CHECK(p.n == 0);
	fmt_arena_free_all(&arena);
}

static void
check_bad_list(int *unit_failures, const char *xml, const char *msg_part)
{
	FmtArena	arena;
	ObjListPage p;
	const char *err;
	bool		ok;

	fmt_arena_init(&arena, 0);
	ok = s3_list(xml, &arena, &p, &err);
	UNIT_CHECK(!ok);
	if (!ok)
	{
		if (err == NULL || strstr(err, msg_part) == NULL)
			fprintf(stderr, "  %s: got \"%s\"\n", xml, err ? err : "(null)");
		UNIT_CHECK(err != NULL && strstr(err, msg_part) != NULL);
	}
	fmt_arena_free_all(&arena);
}

UNIT_TEST(objxml_hostile)
{
	check_bad_list(unit_failures, "", "no root");
	check_bad_list(unit_failures, "<ListBucketResult>", "unexpected end");
	check_bad_list(unit_failures, "<ListBucketResult><Contents><Key>a</Key>", "unexpected end");
	check_bad_list(unit_failures, "<ListBucketResult></Contents></ListBucketResult>", "mismatched");
	check_bad_list(unit_failures, "<ListBucketResult><a></b></ListBucketResult>", "mismatched");
	check_bad_list(unit_failures, "<Error><Code>AccessDenied</Code></Error>", "not a ListBucketResult");
	check_bad_list(unit_failures, "<!DOCTYPE x [<!ENTITY a \"b\">]><ListBucketResult/>", "document type");
	check_bad_list(unit_failures, "<ListBucketResult>&a;</ListBucketResult>", "undefined entity");
	check_bad_list(unit_failures, "<ListBucketResult>&#0;</ListBucketResult>", "character reference");
	check_bad_list(unit_failures, "<ListBucketResult>&#x110000;</ListBucketResult>", "character reference");
	check_bad_list(unit_failures, "<ListBucketResult>&#12</ListBucketResult>", "character reference");
	check_bad_list(unit_failures, "<ListBucketResult/><ListBucketResult/>", "more than one root");
	check_bad_list(unit_failures, "x<ListBucketResult/>", "outside the root");
	check_bad_list(unit_failures, "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>", "without Key");
	check_bad_list(unit_failures, "<ListBucketResult><Contents><Key>a</Key><Key>b</Key></Contents></ListBucketResult>", "duplicate");
	check_bad_list(unit_failures, "<ListBucketResult><Contents><Key>a</Key><Size>-1</Size></Contents></ListBucketResult>", "size");
	check_bad_list(unit_failures, "<ListBucketResult><Contents><Key>a</Key><Size>1e3</Size></Contents></ListBucketResult>", "size");
	check_bad_list(unit_failures, "<ListBucketResult><Contents><Key>a</Key><Size>9999999999999999999</Size></Contents></ListBucketResult>", "size");
	check_bad_list(unit_failures, "<ListBucketResult><IsTruncated>yes</IsTruncated></ListBucketResult>", "IsTruncated");
	check_bad_list(unit_failures, "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>", "continuation token");
	check_bad_list(unit_failures, "<ListBucketResult a=\"1><Key>\"", "attribute");
	check_bad_list(unit_failures, "<ListBucketResult><!-- x </ListBucketResult>", "comment");
	check_bad_list(unit_failures, "<?xml ", "processing instruction");
	check_bad_list(unit_failures,
				   "<ListBucketResult><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a>"
				   "</a></a></a></a></a></a></a></a></a></a></a></a></a></a></a></a></a></ListBucketResult>",
				   "nested too deeply");
	{
		/* a NUL inside the text */
		FmtArena	arena;
		FmtAllocator a;
		ObjListPage p;
		const char *err = NULL;
		static const char xml[] = "<ListBucketResult>a\0b</ListBucketResult>";

		fmt_arena_init(&arena, 0);
		a = fmt_arena_allocator(&arena);
		UNIT_CHECK(!objxml_parse_s3_list(xml, sizeof(xml) - 1, &a, &p, &err));
		UNIT_CHECK(err != NULL && strstr(err, "NUL") != NULL);
		fmt_arena_free_all(&arena);
	}
}

/* Memory stays within a small multiple of the input, whatever it holds. */
UNIT_TEST(objxml_bounded_memory)
{
	char		xml[20000];
	size_t		n = 0;
	int			i;
	FmtArena	arena;
	FmtAllocator a;
	ObjListPage p;
	const char *err;

	n += (size_t) snprintf(xml + n, sizeof(xml) - n, "<ListBucketResult>");
	for (i = 0; i < 300; i++)
		n += (size_t) snprintf(xml + n, sizeof(xml) - n,
							   "<Contents><Key>k%04d</Key><Size>%d</Size></Contents>", i, i);
	n += (size_t) snprintf(xml + n, sizeof(xml) - n, "</ListBucketResult>");
	fmt_arena_init(&arena, 4 * n + 65536);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(objxml_parse_s3_list(xml, n, &a, &p, &err));
	UNIT_CHECK(p.n == 300);
	if (p.n == 300)
		UNIT_CHECK(strcmp(p.entries[299].key, "k0299") == 0 && p.entries[299].size == 299);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(objxml_azure_page)
{
	const char *xml =
		"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>"
		"<EnumerationResults ServiceEndpoint=\"http://127.0.0.1:10000/devstoreaccount1\" ContainerName=\"c\">"
		"<Prefix>t/_delta_log/</Prefix><MaxResults>2</MaxResults>"
		"<Blobs><Blob><Name>t/_delta_log/00000000000000000000.json</Name>"
		"<Properties><Creation-Time>x</Creation-Time><Etag>0x8DC0</Etag>"
		"<Content-Length>77</Content-Length></Properties></Blob>"
		"<BlobPrefix><Name>t/_delta_log/x/</Name></BlobPrefix>"
		"<Blob><Name>t/_delta_log/00000000000000000001.json</Name>"
		"<Properties><Content-Length>0</Content-Length></Properties></Blob></Blobs>"
		"<NextMarker>2!72!MDAwMDE</NextMarker></EnumerationResults>";
	FmtArena	arena;
	FmtAllocator a;
	ObjListPage p;
	const char *err = NULL;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(objxml_parse_azure_list(xml, strlen(xml), &a, &p, &err));
	UNIT_CHECK(p.n == 2 && p.truncated && p.n_prefixes == 1);
	UNIT_CHECK(p.next_token && strcmp(p.next_token, "2!72!MDAwMDE") == 0);
	if (p.n == 2)
	{
		UNIT_CHECK(p.entries[0].size == 77 && strcmp(p.entries[0].etag, "0x8DC0") == 0);
		UNIT_CHECK(strcmp(p.entries[1].key, "t/_delta_log/00000000000000000001.json") == 0);
	}
	xml = "<EnumerationResults><Blobs/><NextMarker/></EnumerationResults>";
	UNIT_CHECK(objxml_parse_azure_list(xml, strlen(xml), &a, &p, &err));
	UNIT_CHECK(p.n == 0 && !p.truncated);
	UNIT_CHECK(!objxml_parse_azure_list("<ListBucketResult/>", 19, &a, &p, &err));
	fmt_arena_free_all(&arena);
}

UNIT_TEST(objxml_error_document)
{
	const char *xml =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<Error><Code>NoSuchKey</Code><Message>The resource you requested does not exist</Message>"
		"<Resource>/mybucket/myfoto.jpg</Resource><RequestId>4442587FB7D0A2F9</RequestId></Error>";
	FmtArena	arena;
	FmtAllocator a;
	char	   *code;
	char	   *msg;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(objxml_parse_error(xml, strlen(xml), &a, 200, &code, &msg));
	UNIT_CHECK(code && strcmp(code, "NoSuchKey") == 0);
	UNIT_CHECK(msg && strcmp(msg, "The resource you requested does not exist") == 0);
	/* cut at a character boundary */
	xml = "<Error><Message>ab\xC3\xA9</Message></Error>";
	UNIT_CHECK(objxml_parse_error(xml, strlen(xml), &a, 3, &code, &msg));
	UNIT_CHECK(code == NULL && msg && strcmp(msg, "ab") == 0);
	UNIT_CHECK(!objxml_parse_error("<html>oops</html>", 17, &a, 200, &code, &msg));
	UNIT_CHECK(!objxml_parse_error("not xml at all", 14, &a, 200, &code, &msg));
	UNIT_CHECK(code == NULL && msg == NULL);
	fmt_arena_free_all(&arena);
}
