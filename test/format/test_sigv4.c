/*
 * test_sigv4.c
 *	  Unit tests of the SigV4 signer (src/format/sigv4.c).
 *
 * Expected values come from two independent sources, never from the signer:
 * the worked examples of AWS's S3 documentation ("Signature Calculations for
 * the Authorization Header", access key AKIAIOSFODNN7EXAMPLE at
 * 20130524T000000Z in us-east-1: GET Object with a range, PUT Object,
 * GET Bucket Lifecycle, GET Bucket/List Objects) and of AWS's SigV4 test
 * suite (get-vanilla-query-order-key-case, key AKIDEXAMPLE), and, where AWS
 * publishes no example (ListObjectsV2 with encoded values, a key with
 * reserved and non-ASCII bytes), the signatures botocore 1.43.11's
 * S3SigV4Auth computes for the same request.  The rest are properties.
 */
#include <string.h>

#include "fmt_alloc.h"
#include "sigv4.h"
#include "unit.h"

#define DOC_KEY "AKIAIOSFODNN7EXAMPLE"
#define DOC_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define DOC_DATE "20130524T000000Z"
#define DOC_HOST "examplebucket.s3.amazonaws.com"

static SigV4Request
doc_request(const char *method, const char *path)
{
	SigV4Request r;

	memset(&r, 0, sizeof(r));
	r.method = method;
	r.host = DOC_HOST;
	r.path = path;
	r.payload_hash = SIGV4_EMPTY_SHA256;
	r.sign_content_sha256 = true;
	r.amz_date = DOC_DATE;
	r.region = "us-east-1";
	r.service = "s3";
	return r;
}

static bool
sign(const SigV4Request *r, const char *key, const char *secret,
	 FmtArena *arena, SigV4Result *out)
{
	FmtAllocator a = fmt_arena_allocator(arena);
	const char *err = NULL;
	bool		ok = sigv4_sign(r, key, secret, &a, out, &err);

	if (!ok)
		fprintf(stderr, "  sigv4_sign: %s\n", err);
	return ok;
}

UNIT_TEST(sigv4_doc_get_object_range)
{
	FmtArena	arena;
	SigV4Pair	h[] = {{"Range", "bytes=0-9"}};
	SigV4Request r = doc_request("GET", "/test.txt");
	SigV4Result s;

	fmt_arena_init(&arena, 0);
	r.headers = h;
	r.nheaders = 1;
	UNIT_CHECK(sign(&r, DOC_KEY, DOC_SECRET, &arena, &s));
	UNIT_CHECK(strcmp(s.canonical_request,
					  "GET\n/test.txt\n\n"
					  "host:examplebucket.s3.amazonaws.com\n"
					  "range:bytes=0-9\n"
					  "x-amz-content-sha256:" SIGV4_EMPTY_SHA256 "\n"
					  "x-amz-date:20130524T000000Z\n\n"
					  "host;range;x-amz-content-sha256;x-amz-date\n"
					  SIGV4_EMPTY_SHA256) == 0);
	UNIT_CHECK(strcmp(s.string_to_sign,
					  "AWS4-HMAC-SHA256\n20130524T000000Z\n"
					  "20130524/us-east-1/s3/aws4_request\n"
					  "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972") == 0);
	UNIT_CHECK(strcmp(s.signature,
					  "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41") == 0);
	UNIT_CHECK(strcmp(s.authorization,
					  "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
					  "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
					  "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41") == 0);
	UNIT_CHECK(strcmp(s.query_string, "") == 0);
	UNIT_CHECK(strstr(s.authorization, DOC_SECRET) == NULL);
	fmt_arena_free_all(&arena);
}

/* '$' in the key is encoded once; further headers sort among the rest. */
UNIT_TEST(sigv4_doc_put_object)
{
	FmtArena	arena;
	SigV4Pair	h[] = {{"x-amz-storage-class", "REDUCED_REDUNDANCY"},
	{"Date", "Fri, 24 May 2013 00:00:00 GMT"}};
	SigV4Request r = doc_request("PUT", "/test$file.text");
	SigV4Result s;

	fmt_arena_init(&arena, 0);
	r.headers = h;
	r.nheaders = 2;
	r.payload_hash = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072";
	UNIT_CHECK(sign(&r, DOC_KEY, DOC_SECRET, &arena, &s));
	UNIT_CHECK(strcmp(s.encoded_path, "/test%24file.text") == 0);
	UNIT_CHECK(strcmp(s.signed_headers,
					  "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class") == 0);
	UNIT_CHECK(strstr(s.string_to_sign,
					  "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d") != NULL);
	UNIT_CHECK(strcmp(s.signature,
					  "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd") == 0);
	fmt_arena_free_all(&arena);
}

/*
 * Sign a GET of the bucket's root with these query parameters as the
 * documentation's examples do and check the canonical query, the hash in
 * the string to sign (NULL: not published) and the signature.
 */
static void
check_bucket_get(int *unit_failures, const SigV4Pair *q, int nq,
				 const char *query, const char *sts_hash, const char *signature)
{
	FmtArena	arena;
	SigV4Request r = doc_request("GET", "/");
	SigV4Result s;

	fmt_arena_init(&arena, 0);
	r.query = q;
	r.nquery = nq;
	UNIT_CHECK(sign(&r, DOC_KEY, DOC_SECRET, &arena, &s));
	UNIT_CHECK(strcmp(s.query_string, query) == 0);
	UNIT_CHECK(sts_hash == NULL || strstr(s.string_to_sign, sts_hash) != NULL);
	UNIT_CHECK(strcmp(s.signature, signature) == 0);
	fmt_arena_free_all(&arena);
}

/* A parameter without a value is signed as "name=". */
UNIT_TEST(sigv4_doc_get_lifecycle)
{
	SigV4Pair	q[] = {{"lifecycle", NULL}};

	check_bucket_get(unit_failures, q, 1, "lifecycle=",
					 "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
					 "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

/* Parameters given out of order are sorted. */
UNIT_TEST(sigv4_doc_list_objects)
{
	SigV4Pair	q[] = {{"prefix", "J"}, {"max-keys", "2"}};

	check_bucket_get(unit_failures, q, 2, "max-keys=2&prefix=J",
					 "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
					 "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

/* AWS's SigV4 test suite: no x-amz-content-sha256, service "service". */
UNIT_TEST(sigv4_suite_query_order_key_case)
{
	FmtArena	arena;
	SigV4Pair	q[] = {{"Param2", "value2"}, {"Param1", "value1"}};
	SigV4Request r;
	SigV4Result s;

	memset(&r, 0, sizeof(r));
	r.method = "GET";
	r.host = "example.amazonaws.com";
	r.path = "/";
	r.query = q;
	r.nquery = 2;
	r.payload_hash = SIGV4_EMPTY_SHA256;
	r.amz_date = "20150830T123600Z";
	r.region = "us-east-1";
	r.service = "service";
	fmt_arena_init(&arena, 0);
	UNIT_CHECK(sign(&r, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", &arena, &s));
	UNIT_CHECK(strcmp(s.canonical_request,
					  "GET\n/\nParam1=value1&Param2=value2\n"
					  "host:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
					  "host;x-amz-date\n" SIGV4_EMPTY_SHA256) == 0);
	UNIT_CHECK(strcmp(s.signature,
					  "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500") == 0);
	fmt_arena_free_all(&arena);
}

/*
 * ListObjectsV2 as the log lister sends it: '/' inside values encoded as
 * %2F.  Expected signature: botocore 1.43.11 S3SigV4Auth, same request.
 */
UNIT_TEST(sigv4_list_objects_v2_botocore)
{
	SigV4Pair	q[] = {{"start-after", "tbl/_delta_log/00000000000000000005"},
	{"prefix", "tbl/_delta_log/"}, {"list-type", "2"}};

	check_bucket_get(unit_failures, q, 3,
					 "list-type=2&prefix=tbl%2F_delta_log%2F"
					 "&start-after=tbl%2F_delta_log%2F00000000000000000005",
					 NULL,
					 "df7fc6f10bddf73b2f57f3d614a7af74b79f28e71046bb5cbe29048263171cd4");
}

/*
 * A path-style key with a space, '=', '+', ',', '!', '~' and UTF-8: each
 * byte encoded once, '/' and '~' kept.  Expected: botocore 1.43.11.
 */
UNIT_TEST(sigv4_path_style_key_botocore)
{
	FmtArena	arena;
	SigV4Pair	h[] = {{"Range", "bytes=100-199"}};
	SigV4Request r = doc_request("GET", "/examplebucket/my table/p=\xc3\xbc/a+b,c~!.parquet");
	SigV4Result s;

	fmt_arena_init(&arena, 0);
	r.host = "s3.us-east-1.amazonaws.com";
	r.headers = h;
	r.nheaders = 1;
	UNIT_CHECK(sign(&r, DOC_KEY, DOC_SECRET, &arena, &s));
	UNIT_CHECK(strcmp(s.encoded_path,
					  "/examplebucket/my%20table/p%3D%C3%BC/a%2Bb%2Cc~%21.parquet") == 0);
	UNIT_CHECK(strcmp(s.signature,
					  "a7d1b8e49020f94cb9b57af12c13873e4edc07800923c93eee52ecd980e1e22a") == 0);
	fmt_arena_free_all(&arena);
}

/* Properties: no second encoding, no dot-segment removal, value sorting. */
UNIT_TEST(sigv4_encoding_properties)
{
	FmtArena	arena;
	FmtAllocator a;
	SigV4Pair	q[] = {{"b", "2"}, {"a", "z"}, {"a", "y"}, {"a b", "%"}};
	SigV4Request r = doc_request("GET", "/a/../b//c%41");
	SigV4Result s;
	char		hex[65];

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(strcmp(sigv4_uri_encode("%2F", 3, false, &a), "%252F") == 0);
	UNIT_CHECK(strcmp(sigv4_uri_encode("a/b", 3, false, &a), "a%2Fb") == 0);
	UNIT_CHECK(strcmp(sigv4_uri_encode("a/b", 3, true, &a), "a/b") == 0);
	UNIT_CHECK(strcmp(sigv4_uri_encode("a\0b", 3, true, &a), "a%00b") == 0);
	UNIT_CHECK(strcmp(sigv4_uri_encode("-_.~*", 5, true, &a), "-_.~%2A") == 0);
	r.query = q;
	r.nquery = 4;
	UNIT_CHECK(sign(&r, DOC_KEY, DOC_SECRET, &arena, &s));
	UNIT_CHECK(strcmp(s.encoded_path, "/a/../b//c%2541") == 0);
	UNIT_CHECK(strcmp(s.query_string, "a=y&a=z&a%20b=%25&b=2") == 0);
	sigv4_sha256_hex("", 0, hex);
	UNIT_CHECK(strcmp(hex, SIGV4_EMPTY_SHA256) == 0);
	UNIT_CHECK(sigv4_format_date(1369353600, hex) && strcmp(hex, DOC_DATE) == 0);
	fmt_arena_free_all(&arena);
}

/* Header values are trimmed and inner blanks folded; UNSIGNED-PAYLOAD. */
UNIT_TEST(sigv4_header_canonical_form)
{
	FmtArena	arena;
	SigV4Pair	h[] = {{"X-Custom", "  a   b \t c  "}};
	SigV4Request r = doc_request("GET", "/k");
	SigV4Result s;

	fmt_arena_init(&arena, 0);
	r.headers = h;
	r.nheaders = 1;
	r.payload_hash = SIGV4_UNSIGNED_PAYLOAD;
	r.session_token = "tok";
	UNIT_CHECK(sign(&r, DOC_KEY, DOC_SECRET, &arena, &s));
	UNIT_CHECK(strstr(s.canonical_request, "\nx-custom:a b c\n") != NULL);
	UNIT_CHECK(strstr(s.canonical_request, "\nx-amz-content-sha256:UNSIGNED-PAYLOAD\n") != NULL);
	UNIT_CHECK(strstr(s.canonical_request, "\nx-amz-security-token:tok\n") != NULL);
	UNIT_CHECK(strcmp(s.signed_headers,
					  "host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-custom") == 0);
	UNIT_CHECK(strlen(s.canonical_request) > 0 &&
			   s.canonical_request[strlen(s.canonical_request) - 1] == 'D');
	fmt_arena_free_all(&arena);
}

/* Every malformed input is refused, and no message quotes a credential. */
UNIT_TEST(sigv4_refusals)
{
	static const SigV4Pair crlf[] = {{"range", "bytes=0-9\r\nx-evil: 1"}};
	static const SigV4Pair twice[] = {{"Range", "a"}, {"range", "b"}};
	static const SigV4Pair reserved[] = {{"Host", "other"}};
	static const SigV4Pair badname[] = {{"ra nge", "a"}};
	static const SigV4Pair noname[] = {{"", "a"}};
	FmtArena	arena;
	FmtAllocator a;
	SigV4Result s;
	const char *err;
	int			i;

	fmt_arena_init(&arena, 0);
	a = fmt_arena_allocator(&arena);
	for (i = 0; i < 16; i++)
	{
		SigV4Request r = doc_request("GET", "/k");
		const char *key = DOC_KEY;
		const char *secret = DOC_SECRET;

		switch (i)
		{
			case 0:
				r.headers = crlf;
				r.nheaders = 1;
				break;
			case 1:
				r.headers = twice;
				r.nheaders = 2;
				break;
			case 2:
				r.headers = reserved;
				r.nheaders = 1;
				break;
			case 3:
				r.headers = badname;
				r.nheaders = 1;
				break;
			case 4:
				r.path = "k";
				break;
			case 5:
				r.amz_date = "20130524T000000";
				break;
			case 6:
				r.amz_date = "2013-05-24T00:00Z";
				break;
			case 7:
				r.region = "us/east";
				break;
			case 8:
				key = "AKIA/EXAMPLE";
				break;
			case 9:
				secret = "";
				break;
			case 10:
				r.payload_hash = "E3B0";
				break;
			case 11:
				r.host = "h\nx";
				break;
			case 12:
				r.method = "get";
				break;
			case 13:
				r.query = noname;
				r.nquery = 1;
				break;
			case 14:
				r.session_token = "a\r\nb";
				break;
			case 15:
				r.nquery = 1000;
				r.query = noname;
				break;
		}
		err = NULL;
		UNIT_CHECK(!sigv4_sign(&r, key, secret, &a, &s, &err));
		UNIT_CHECK(err != NULL && strstr(err, "AKIA") == NULL &&
				   strstr(err, "EXAMPLEKEY") == NULL);
	}
	fmt_arena_free_all(&arena);
}

/* An allocator that fails makes a clean error, at every point. */
UNIT_TEST(sigv4_allocation_failure)
{
	SigV4Pair	q[] = {{"prefix", "J"}, {"max-keys", "2"}};
	SigV4Request r = doc_request("GET", "/");
	size_t		limit;
	bool		succeeded = false;

	r.query = q;
	r.nquery = 2;
	for (limit = 1; limit < 20000 && !succeeded; limit += 97)
	{
		FmtArena	arena;
		FmtAllocator a;
		SigV4Result s;
		const char *err = NULL;

		fmt_arena_init(&arena, limit);
		a = fmt_arena_allocator(&arena);
		if (sigv4_sign(&r, DOC_KEY, DOC_SECRET, &a, &s, &err))
		{
			succeeded = true;
			UNIT_CHECK(strcmp(s.signature,
							  "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7") == 0);
		}
		else
			UNIT_CHECK(err != NULL && strstr(err, "memory") != NULL);
		fmt_arena_free_all(&arena);
	}
	UNIT_CHECK(succeeded);
}
