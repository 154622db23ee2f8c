/*-------------------------------------------------------------------------
 *
 * objstore.c
 *	  Object-store reads of Delta tables: S3 and GCS's XML API (see
 *	  objstore.h).
 *
 * A request is built from the URL and the server that serves it
 * (storage_resolve): the endpoint (the server's, else AWS's regional one
 * or storage.googleapis.com), path style ("/bucket/key" on the endpoint's
 * host) or virtual-host style ("/key" on "bucket.host"), and, when the
 * user mapping holds a key, a SigV4 signature made anew for every attempt
 * (format/sigv4.h).  Listings are ListObjectsV2 pages parsed by
 * format/objxml.h.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/objstore.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "common/json_util.h"
#include "format/azsig.h"
#include "format/objurl.h"
#include "format/objxml.h"
#include "format/sigv4.h"
#include "storage/http.h"
#include "storage/objstore.h"
#include "storage/storage_options.h"

int			deltacc_storage_list_page_size = 1000;

/* read-ahead block of a StorageReader */
#define READER_BLOCK (1024 * 1024)
/* largest listing page accepted */
#define MAX_LIST_BODY (16 * 1024 * 1024)
/* largest error body looked at */
#define MAX_ERROR_BODY (64 * 1024)
/* longest Code or Message quoted from an error document */
#define MAX_ERROR_TEXT 200

#define MAX_QUERY 8
/* most pages in a row without an entry that a listing may send */
#define MAX_EMPTY_PAGES 100

/* x-ms-version of Azure requests */
#define AZURE_API_VERSION "2021-12-02"

void
storage_init(void)
{
	storage_http_init();
	DefineCustomIntVariable("deltacc.storage_list_page_size",
							"Most keys asked for in one object-store listing request.",
							NULL,
							&deltacc_storage_list_page_size,
							1000, 1, 1000,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
}

bool
storage_is_remote(const char *path)
{
	return strncmp(path, "s3://", 5) == 0 || strncmp(path, "gs://", 5) == 0 ||
		strncmp(path, "az://", 5) == 0 || strncmp(path, "abfss://", 8) == 0;
}

/* Parse url or ERROR. */
static void
parse_url(const char *url, ObjUrl *u)
{
	FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
	const char *msg = NULL;
	size_t		off = 0;

	if (!objurl_parse(url, strlen(url), &a, u, &msg, &off))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid object-store URL \"%s\"",
					   pnstrdup(url, strcspn(url, "?#"))),
				errdetail("%s at byte %zu.", msg, off));
}

static char *
url_text(const ObjUrl *u)
{
	if (u->account != NULL)
		return psprintf("%s://%s@%s%s%s", objurl_scheme_name(u->scheme),
						u->bucket, u->account, u->key[0] ? "/" : "", u->key);
	return psprintf("%s://%s%s%s", objurl_scheme_name(u->scheme), u->bucket,
					u->key[0] ? "/" : "", u->key);
}

char *
storage_canonical_url(const char *url)
{
	ObjUrl		u;

	parse_url(url, &u);
	return url_text(&u);
}

/* ---------------------------------------------------------------- */
/* requests: S3 and GCS, or Azure Blob (azure) */

typedef struct S3Call
{
	StorageTarget *t;
	bool		azure;
	const char *account;		/* Azure */
	const char *method;
	char	   *scheme_host;	/* "https://host[:port]" */
	char	   *host;			/* "host[:port]" */
	char	   *path;			/* unencoded, starts with '/' */
	const char *region;
	SigV4Pair	query[MAX_QUERY];
	int			nquery;
	SigV4Pair	headers[2];		/* range, if-match */
	int			nheaders;
} S3Call;

/*
 * Set up a request of 'method' on the object 'key' of url's bucket (NULL:
 * the URL's own key); *u gets the parsed URL.
 */
static void
s3_call_init(S3Call *c, const char *url, const char *method, ObjUrl *u,
			 const char *key)
{
	StorageTarget *t;
	const char *endpoint;
	const char *style;
	const char *hostpart;
	bool		gs;

	memset(c, 0, sizeof(*c));
	parse_url(url, u);
	gs = u->scheme == OBJURL_GS;
	if (key == NULL)
		key = u->key;
	t = storage_resolve(url);
	c->t = t;
	c->method = method;
	if (u->scheme == OBJURL_AZ || u->scheme == OBJURL_ABFSS)
	{
		/* Azure Blob: the account's blob endpoint, /container/blob */
		c->azure = true;
		c->account = t->account;
		if (c->account == NULL)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("no Azure storage account for \"%s\"", url),
					errhint("Name it in the URL (az://container@account/...) or in the server option \"account\"."));
		endpoint = t->endpoint ? t->endpoint :
			psprintf("https://%s.blob.core.windows.net", c->account);
		style = t->url_style ? t->url_style :
			(t->endpoint != NULL ? "path" : "virtual");
		hostpart = strstr(endpoint, "://");
		Assert(hostpart != NULL);
		c->host = pstrdup(hostpart + 3);
		c->scheme_host = pstrdup(endpoint);
		c->path = psprintf("%s%s/%s%s%s",
						   strcmp(style, "path") == 0 ? "/" : "",
						   strcmp(style, "path") == 0 ? c->account : "",
						   u->bucket, key[0] ? "/" : "", key);
		return;
	}
	c->region = t->region ? t->region : (gs ? "auto" : "us-east-1");
	if (t->endpoint != NULL)
		endpoint = t->endpoint;
	else if (gs)
		endpoint = "https://storage.googleapis.com";
	else
		endpoint = psprintf("https://s3.%s.amazonaws.com", c->region);
	style = t->url_style ? t->url_style :
		(t->endpoint != NULL || gs ? "path" : "virtual");
	hostpart = strstr(endpoint, "://");
	Assert(hostpart != NULL);
	hostpart += 3;
	if (strcmp(style, "virtual") == 0)
	{
		c->host = psprintf("%s.%s", u->bucket, hostpart);
		c->scheme_host = psprintf("%.*s%s", (int) (hostpart - endpoint),
								  endpoint, c->host);
		c->path = psprintf("/%s", key);
	}
	else
	{
		c->host = pstrdup(hostpart);
		c->scheme_host = pstrdup(endpoint);
		c->path = key[0] ? psprintf("/%s/%s", u->bucket, key) :
			psprintf("/%s", u->bucket);
	}
}

static void
s3_add_query(S3Call *c, const char *name, const char *value)
{
	Assert(c->nquery < MAX_QUERY);
	c->query[c->nquery].name = name;
	c->query[c->nquery].value = value;
	c->nquery++;
}

static void
s3_add_header(S3Call *c, const char *name, const char *value)
{
	Assert(c->nheaders < lengthof(c->headers));
	c->headers[c->nheaders].name = name;
	c->headers[c->nheaders].value = value;
	c->nheaders++;
}

static char *
encode(const char *s, bool keep_slash)
{
	FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
	char	   *r = sigv4_uri_encode(s, strlen(s), keep_slash, &a);

	if (r == NULL)
		ereport(ERROR,
				errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("out of memory"));
	return r;
}

/*
 * The URL and headers of an Azure request (after Host): x-ms-date,
 * x-ms-version and the call's headers, signed with the account key
 * (Shared Key) when the mapping has one, else the SAS token appended to
 * the query string, else anonymous.
 */
static void
azure_prepare(S3Call *c, HttpRequest *req)
{
	StorageTarget *t = c->t;
	char		date[AZSIG_DATE_LEN + 1];
	AzPair		hdrs[HTTP_MAX_HEADERS];
	AzPair		query[MAX_QUERY];
	int			nh = 0;
	int			i;
	char	   *path = encode(c->path, true);
	StringInfoData q;

	if (!azsig_format_date((long long) time(NULL), date))
		ereport(ERROR,
				errcode(ERRCODE_INTERNAL_ERROR),
				errmsg("could not format the request date"));
	hdrs[nh].name = "x-ms-date";
	hdrs[nh++].value = pstrdup(date);
	hdrs[nh].name = "x-ms-version";
	hdrs[nh++].value = AZURE_API_VERSION;
	for (i = 0; i < c->nheaders; i++)
		hdrs[nh++] = (AzPair)
		{
			c->headers[i].name, c->headers[i].value
		};
	for (i = 0; i < nh; i++)
		req->headers[req->nheaders++] = psprintf("%s: %s", hdrs[i].name,
												 hdrs[i].value);
	initStringInfo(&q);
	for (i = 0; i < c->nquery; i++)
	{
		query[i].name = c->query[i].name;
		query[i].value = c->query[i].value;
		appendStringInfo(&q, "%s%s=%s", i ? "&" : "",
						 encode(c->query[i].name, false),
						 encode(c->query[i].value ? c->query[i].value : "", false));
	}
	if (t->account_key != NULL)
	{
		FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
		AzSignRequest sr;
		char	   *auth;
		char	   *sts;
		const char *msg = NULL;

		sr.method = c->method;
		sr.account = c->account;
		sr.path = path;
		sr.query = query;
		sr.nquery = c->nquery;
		sr.headers = hdrs;
		sr.nheaders = nh;
		if (!azsig_sign(&sr, t->account_key, &a, &auth, &sts, &msg))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("could not sign the request for %s", req->display),
					errdetail("%s", msg));
		req->headers[req->nheaders++] = psprintf("Authorization: %s", auth);
	}
	else if (t->sas_token != NULL)
		appendStringInfo(&q, "%s%s", q.len > 0 ? "&" : "", t->sas_token);
	req->headers[req->nheaders++] = "Accept:";
	Assert(req->nheaders <= HTTP_MAX_HEADERS);
	req->url = psprintf("%s%s%s%s", c->scheme_host, path, q.len > 0 ? "?" : "",
						q.data);
}

/* HttpPrepareFn: the URL and headers of one attempt, signed when keyed. */
static void
s3_prepare(void *arg, int attempt, HttpRequest *req)
{
	S3Call	   *c = (S3Call *) arg;
	StorageTarget *t = c->t;
	const char *path;
	const char *qs;
	int			i;

	req->nheaders = 0;
	req->headers[req->nheaders++] = psprintf("Host: %s", c->host);
	if (c->azure)
	{
		azure_prepare(c, req);
		return;
	}
	if (t->key_id != NULL && t->secret != NULL)
	{
		FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
		SigV4Request sr;
		SigV4Result res;
		char		date[SIGV4_DATE_LEN + 1];
		const char *msg = NULL;

		if (!sigv4_format_date(time(NULL), date))
			ereport(ERROR,
					errcode(ERRCODE_INTERNAL_ERROR),
					errmsg("could not format the request date"));
		memset(&sr, 0, sizeof(sr));
		sr.method = c->method;
		sr.host = c->host;
		sr.path = c->path;
		sr.query = c->query;
		sr.nquery = c->nquery;
		sr.headers = c->headers;
		sr.nheaders = c->nheaders;
		sr.payload_hash = SIGV4_UNSIGNED_PAYLOAD;
		sr.sign_content_sha256 = true;
		sr.amz_date = date;
		sr.region = c->region;
		sr.service = "s3";
		sr.session_token = t->session_token;
		if (!sigv4_sign(&sr, t->key_id, t->secret, &a, &res, &msg))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("could not sign the request for %s", req->display),
					errdetail("%s", msg));
		path = res.encoded_path;
		qs = res.query_string;
		req->headers[req->nheaders++] = psprintf("x-amz-date: %s", date);
		req->headers[req->nheaders++] =
			psprintf("x-amz-content-sha256: %s", SIGV4_UNSIGNED_PAYLOAD);
		if (t->session_token != NULL)
			req->headers[req->nheaders++] =
				psprintf("x-amz-security-token: %s", t->session_token);
		req->headers[req->nheaders++] =
			psprintf("Authorization: %s", res.authorization);
	}
	else
	{
		StringInfoData q;

		initStringInfo(&q);
		for (i = 0; i < c->nquery; i++)
			appendStringInfo(&q, "%s%s=%s", i ? "&" : "",
							 encode(c->query[i].name, false),
							 encode(c->query[i].value ? c->query[i].value : "", false));
		path = encode(c->path, true);
		qs = q.data;
		req->headers[req->nheaders++] =
			psprintf("x-amz-content-sha256: %s", SIGV4_UNSIGNED_PAYLOAD);
	}
	for (i = 0; i < c->nheaders; i++)
		req->headers[req->nheaders++] =
			psprintf("%s: %s", c->headers[i].name, c->headers[i].value);
	/* no default Accept header from libcurl */
	req->headers[req->nheaders++] = "Accept:";
	Assert(req->nheaders <= HTTP_MAX_HEADERS);
	req->url = psprintf("%s%s%s%s", c->scheme_host, path, qs[0] ? "?" : "", qs);
}

/*
 * ERROR for an unexpected response: the status, and the store's error
 * Code and Message when the body is an error document.
 */
static void
s3_fail(const HttpResponse *r, const char *what, const char *display)
{
	FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
	char	   *code = NULL;
	char	   *message = NULL;
	int			sqlstate;

	if (r->body != NULL && r->body_len > 0)
		(void) objxml_parse_error(r->body, Min(r->body_len, MAX_ERROR_BODY), &a,
								  MAX_ERROR_TEXT, &code, &message);
	if (r->status == 404)
		sqlstate = ERRCODE_UNDEFINED_FILE;
	else if (r->status == 401 || r->status == 403)
		sqlstate = ERRCODE_INSUFFICIENT_PRIVILEGE;
	else if (r->status == 412)
		sqlstate = ERRCODE_DATA_CORRUPTED;
	else
		sqlstate = ERRCODE_IO_ERROR;
	ereport(ERROR,
			errcode(sqlstate),
			r->status == 404 ?
			errmsg("could not read %s \"%s\": no such object", what, display) :
			r->status == 412 ?
			errmsg("%s \"%s\" changed while it was being read", what, display) :
			errmsg("could not read %s \"%s\": HTTP status %ld", what, display,
				   r->status),
			code || message ?
			errdetail("The object store answered %s%s%s.",
					  code ? code : "", code && message ? ": " : "",
					  message ? message : "") : 0,
			r->attempts > 1 ? errhint("%d attempts were made.", r->attempts) : 0);
}

/* Perform the call; the body bounded by max_body (into buf when given). */
static void
s3_execute(S3Call *c, const char *display, Size max_body, char *buf,
		   HttpResponse *resp)
{
	HttpRequest req;

	memset(&req, 0, sizeof(req));
	req.method = c->method;
	req.display = display;
	req.idempotent = true;
	req.max_body = max_body;
	req.buf = buf;
	http_execute(&req, s3_prepare, c, resp);
}

bool
storage_stat(const char *url, StorageObjectInfo *info)
{
	S3Call		c;
	ObjUrl		u;
	HttpResponse r;

	s3_call_init(&c, url, "HEAD", &u, NULL);
	s3_execute(&c, url, MAX_ERROR_BODY, NULL, &r);
	if (r.status == 404)
		return false;
	if (r.status != 200)
		s3_fail(&r, "object", url);
	if (r.content_length < 0)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("object store sent no Content-Length for \"%s\"", url));
	info->size = r.content_length;
	strlcpy(info->etag, r.etag, sizeof(info->etag));
	return true;
}

void
storage_stat_existing(const char *url, const char *what, const char *display,
					  StorageObjectInfo *info)
{
	if (!storage_stat(url, info))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FILE),
				errmsg("could not open %s \"%s\": no such object", what, display));
}

char *
storage_read_object(const char *url, const char *what, const char *display,
					Size max_bytes, Size *len, StorageObjectInfo *info)
{
	S3Call		c;
	ObjUrl		u;
	HttpResponse r;

	s3_call_init(&c, url, "GET", &u, NULL);
	PG_TRY();
	{
		s3_execute(&c, display, max_bytes, NULL, &r);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		MemoryContext ecxt = MemoryContextSwitchTo(ErrorContext);

		/* name the object as the caller does in its limit errors */
		edata = CopyErrorData();
		MemoryContextSwitchTo(ecxt);
		if (edata->sqlerrcode != ERRCODE_PROGRAM_LIMIT_EXCEEDED)
			PG_RE_THROW();
		FlushErrorState();
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("%s \"%s\" is too large", what, display),
				errdetail("The limit is %zu bytes.", max_bytes));
	}
	PG_END_TRY();
	if (r.status != 200)
		s3_fail(&r, what, display);
	if (r.content_length >= 0 && (Size) r.content_length != r.body_len)
		ereport(ERROR,
				errcode(ERRCODE_CONNECTION_FAILURE),
				errmsg("could not read %s \"%s\": received %zu of %lld bytes",
					   what, display, r.body_len, (long long) r.content_length));
	*len = r.body_len;
	if (info != NULL)
	{
		info->size = (int64) r.body_len;
		strlcpy(info->etag, r.etag, sizeof(info->etag));
	}
	return r.body;
}

Size
storage_read_range(const char *url, const char *etag, const char *what,
				   const char *display, char *buf, Size len, uint64 off)
{
	S3Call		c;
	ObjUrl		u;
	HttpResponse r;

	if (len == 0)
		return 0;
	s3_call_init(&c, url, "GET", &u, NULL);
	s3_add_header(&c, "range",
				  psprintf("bytes=" UINT64_FORMAT "-" UINT64_FORMAT, off,
						   off + len - 1));
	if (etag != NULL && etag[0] != '\0')
		s3_add_header(&c, "if-match", etag);
	s3_execute(&c, display, len, buf, &r);
	if (r.status == 416)
		return 0;
	if (r.status == 200 && off == 0)
		return r.body_len;		/* a store that ignores Range, small object */
	if (r.status != 206)
		s3_fail(&r, what, display);
	return r.body_len;
}

/* ---------------------------------------------------------------- */
/* listing */

int
storage_list(const char *dir_url, const char *start_after, StorageListFn cb,
			 void *arg)
{
	ObjUrl		u;
	S3Call		c;
	char	   *prefix;
	size_t		plen;
	char	   *after = NULL;
	char	   *token = NULL;
	char	   *prev = NULL;
	int			count = 0;
	int			empty_pages = 0;
	MemoryContext page_cxt;
	MemoryContext old;

	parse_url(dir_url, &u);
	prefix = u.key[0] ? psprintf("%s/", u.key) : pstrdup("");
	plen = strlen(prefix);
	if (start_after != NULL)
		after = psprintf("%s%s", prefix, start_after);
	page_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "deltacc object-store listing",
									 ALLOCSET_DEFAULT_SIZES);
	for (;;)
	{
		HttpResponse r;
		ObjListPage page;
		FmtAllocator a;
		const char *msg = NULL;
		int			i;
		char	   *next;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(page_cxt);
		old = MemoryContextSwitchTo(page_cxt);
		s3_call_init(&c, dir_url, "GET", &u, "");
		if (c.azure)
		{
			/* List Blobs has no start-after: the client skips instead */
			s3_add_query(&c, "restype", "container");
			s3_add_query(&c, "comp", "list");
			s3_add_query(&c, "prefix", prefix);
			s3_add_query(&c, "delimiter", "/");
			s3_add_query(&c, "maxresults",
						 psprintf("%d", deltacc_storage_list_page_size));
			if (token != NULL)
				s3_add_query(&c, "marker", token);
		}
		else
		{
			s3_add_query(&c, "list-type", "2");
			s3_add_query(&c, "prefix", prefix);
			s3_add_query(&c, "delimiter", "/");
			s3_add_query(&c, "max-keys",
						 psprintf("%d", deltacc_storage_list_page_size));
			if (after != NULL)
				s3_add_query(&c, "start-after", after);
			if (token != NULL)
				s3_add_query(&c, "continuation-token", token);
		}
		s3_execute(&c, dir_url, MAX_LIST_BODY, NULL, &r);
		if (r.status != 200)
			s3_fail(&r, "listing of", dir_url);
		a = dc_fmt_allocator(page_cxt);
		if (!(c.azure ?
			  objxml_parse_azure_list(r.body, r.body_len, &a, &page, &msg) :
			  objxml_parse_s3_list(r.body, r.body_len, &a, &page, &msg)))
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("invalid object-store listing of \"%s\"", dir_url),
					errdetail("%s.", msg));
		MemoryContextSwitchTo(old);
		for (i = 0; i < page.n; i++)
		{
			const char *key = page.entries[i].key;
			StorageObjectInfo info;

			if (strncmp(key, prefix, plen) != 0)
				ereport(ERROR,
						errcode(ERRCODE_DATA_CORRUPTED),
						errmsg("invalid object-store listing of \"%s\"", dir_url),
						errdetail("It holds the key \"%s\", outside the prefix.", key));
			if (c.azure && after != NULL && strcmp(key, after) <= 0)
				continue;		/* before start_after: skipped here */
			if ((prev != NULL && strcmp(key, prev) <= 0) ||
				(prev == NULL && after != NULL && strcmp(key, after) <= 0))
				ereport(ERROR,
						errcode(ERRCODE_DATA_CORRUPTED),
						errmsg("object-store listing of \"%s\" is not in key order",
							   dir_url),
						errdetail("Key \"%s\" follows \"%s\".", key,
								  prev ? prev : after));
			if (prev != NULL)
				pfree(prev);
			prev = pstrdup(key);
			if (strchr(key + plen, '/') != NULL || key[plen] == '\0')
				continue;		/* not directly under the prefix */
			info.size = page.entries[i].size;
			info.etag[0] = '\0';
			if (page.entries[i].etag != NULL)
				strlcpy(info.etag, page.entries[i].etag, sizeof(info.etag));
			cb(arg, key + plen, &info);
			count++;
		}
		if (!page.truncated)
			break;
		/* a store that pages on without an entry never ends: refuse it */
		empty_pages = page.n + page.n_prefixes == 0 ? empty_pages + 1 : 0;
		if (empty_pages > MAX_EMPTY_PAGES)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("invalid object-store listing of \"%s\"", dir_url),
					errdetail("More than %d pages in a row hold no entry and say more follow.",
							  MAX_EMPTY_PAGES));
		next = page.next_token;
		if (token != NULL && strcmp(next, token) == 0)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("invalid object-store listing of \"%s\"", dir_url),
					errdetail("A page repeats the continuation token it was asked with."));
		if (token != NULL)
			pfree(token);
		token = pstrdup(next);
	}
	MemoryContextDelete(page_cxt);
	return count;
}

/* ---------------------------------------------------------------- */
/* readers */

StorageReader *
storage_reader_open(const char *url, const char *what, const char *display)
{
	StorageReader *r = palloc0(sizeof(StorageReader));

	r->url = pstrdup(url);
	r->what = what;
	r->display = display;
	storage_stat_existing(url, what, display, &r->info);
	return r;
}

void
storage_reader_free(StorageReader *r)
{
	if (r->block != NULL)
		pfree(r->block);
	pfree(r->url);
	pfree(r);
}

void
storage_reader_read(StorageReader *r, char *buf, Size len, uint64 off)
{
	uint64		size = (uint64) r->info.size;
	Size		got;

	if (off > size || len > size - off)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("could not read %s \"%s\": read of %zu bytes at offset "
					   UINT64_FORMAT " is past its end (" UINT64_FORMAT " bytes)",
					   r->what, r->display, len, off, size));
	if (len == 0)
		return;
	if (r->block != NULL && off >= r->block_off &&
		off + len <= r->block_off + r->block_len)
	{
		memcpy(buf, r->block + (off - r->block_off), len);
		return;
	}
	if (len >= READER_BLOCK / 2)
	{
		got = storage_read_range(r->url, r->info.etag, r->what, r->display,
								 buf, len, off);
		if (got != len)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("%s \"%s\" changed while it was being read", r->what,
						   r->display),
					errdetail("%zu of %zu bytes at offset " UINT64_FORMAT " were read.",
							  got, len, off));
		return;
	}
	/* one block around the read; a read near the end takes the tail */
	if (r->block == NULL)
	{
		r->block_cap = (Size) Min((uint64) READER_BLOCK, size);
		r->block = MemoryContextAllocHuge(GetMemoryChunkContext(r),
										  Max(r->block_cap, 1));
	}
	r->block_off = off;
	if (off + r->block_cap > size)
		r->block_off = size - r->block_cap;
	r->block_len = 0;
	got = storage_read_range(r->url, r->info.etag, r->what, r->display,
							 r->block, r->block_cap, r->block_off);
	if (got != r->block_cap)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("%s \"%s\" changed while it was being read", r->what,
					   r->display),
				errdetail("%zu of %zu bytes at offset " UINT64_FORMAT " were read.",
						  got, r->block_cap, r->block_off));
	r->block_len = got;
	memcpy(buf, r->block + (off - r->block_off), len);
}

int
storage_pq_read_at(void *ctx, uint64_t off, size_t len, void *buf)
{
	storage_reader_read((StorageReader *) ctx, buf, len, off);
	return 0;
}
