/*-------------------------------------------------------------------------
 *
 * http.c
 *	  HTTP requests over libcurl's multi interface (see http.h).
 *
 * libcurl's callbacks here only copy bytes: the body goes into memory
 * taken with MCXT_ALLOC_NO_OOM (a failure stops the transfer, and the
 * error is raised after curl has returned), the headers kept go into fixed
 * buffers of the transfer's state.  Errors are raised only between curl
 * calls, and a PG_FINALLY takes the easy handle out of the multi handle
 * and frees it on every path out.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/http.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "storage/curl_api.h"
#include "storage/http.h"

int			deltacc_storage_connect_timeout = 10000;
int			deltacc_storage_stall_timeout = 30;
int			deltacc_storage_retries = 3;

/* libcurl's functions (curl_api.h), from the first request on */
static const CurlApi *cu = NULL;

/* the backend's multi handle: its connection cache */
static CURLM *http_multi = NULL;
static bool http_global_done = false;

/* What the callbacks of one transfer fill. */
typedef struct Transfer
{
	const HttpRequest *req;
	MemoryContext cxt;
	char	   *body;
	Size		len;
	Size		cap;
	bool		too_large;
	bool		no_memory;
	int64		content_length;
	char		etag[HTTP_MAX_ETAG + 1];
	bool		etag_too_long;
	int			retry_after;	/* seconds, -1 when absent */
} Transfer;

void
storage_http_init(void)
{
	DefineCustomIntVariable("deltacc.storage_connect_timeout",
							"Longest wait for a connection to an object store.",
							NULL,
							&deltacc_storage_connect_timeout,
							10000, 1, 600000,
							PGC_USERSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("deltacc.storage_stall_timeout",
							"Longest time an object-store request may go without receiving a byte.",
							"A request that receives nothing for this long fails (and is retried when it may be).",
							&deltacc_storage_stall_timeout,
							30, 1, 3600,
							PGC_USERSET, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("deltacc.storage_retries",
							"How many times a failed object-store read is retried.",
							"Connection failures, stalls, truncated bodies and the statuses 408, 429, 500, 502, 503 and 504 are retried, with jittered exponential backoff.",
							&deltacc_storage_retries,
							3, 0, 10,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
}

/*
 * The multi handle, made on first use (libcurl loaded and
 * curl_global_init'ed with it); every other use of cu comes after it.
 */
static CURLM *
get_multi(void)
{
	if (cu == NULL)
		cu = curl_api();
	if (!http_global_done)
	{
		if (cu->global_init(CURL_GLOBAL_ALL) != CURLE_OK)
			ereport(ERROR,
					errcode(ERRCODE_INTERNAL_ERROR),
					errmsg("could not initialize libcurl"));
		http_global_done = true;
	}
	if (http_multi == NULL)
	{
		http_multi = cu->multi_init();
		if (http_multi == NULL)
			ereport(ERROR,
					errcode(ERRCODE_OUT_OF_MEMORY),
					errmsg("out of memory"),
					errdetail("libcurl could not make a multi handle."));
		/* a few connections per backend are enough */
		cu->multi_setopt(http_multi, CURLMOPT_MAXCONNECTS, 8L);
	}
	return http_multi;
}

bool
http_status_retryable(long status)
{
	return status == 408 || status == 429 || status == 500 ||
		status == 502 || status == 503 || status == 504;
}

/* libcurl write callback: copy, never raise. */
static size_t
write_cb(char *data, size_t size, size_t nmemb, void *arg)
{
	Transfer   *t = (Transfer *) arg;
	Size		n = size * nmemb;

	if (n == 0)
		return 0;
	if (n > t->req->max_body || t->len > t->req->max_body - n)
	{
		t->too_large = true;
		return 0;
	}
	if (t->req->buf != NULL)
	{
		memcpy(t->req->buf + t->len, data, n);
		t->len += n;
		return n;
	}
	if (t->len + n + 1 > t->cap)
	{
		Size		ncap = Max(t->cap * 2, t->len + n + 1);
		char	   *nb;

		ncap = Min(ncap, t->req->max_body + 1);
		nb = MemoryContextAllocExtended(t->cxt, ncap,
										MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
		if (nb == NULL)
		{
			t->no_memory = true;
			return 0;
		}
		if (t->len > 0)
			memcpy(nb, t->body, t->len);
		if (t->body != NULL)
			pfree(t->body);
		t->body = nb;
		t->cap = ncap;
	}
	memcpy(t->body + t->len, data, n);
	t->len += n;
	return n;
}

/* Does header line h[0..n) have the name 'name' (case-insensitive)? */
static const char *
header_value(const char *h, size_t n, const char *name, size_t *vlen)
{
	size_t		k = strlen(name);
	const char *v;
	const char *e;

	if (n <= k || pg_strncasecmp(h, name, k) != 0 || h[k] != ':')
		return NULL;
	v = h + k + 1;
	e = h + n;
	while (v < e && (*v == ' ' || *v == '\t'))
		v++;
	while (e > v && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*vlen = (size_t) (e - v);
	return v;
}

/* Parse up to 18 decimal digits; -1 when not a number. */
static int64
parse_decimal(const char *v, size_t n)
{
	int64		r = 0;
	size_t		i;

	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++)
	{
		if (v[i] < '0' || v[i] > '9')
			return -1;
		r = r * 10 + (v[i] - '0');
	}
	return r;
}

/* libcurl header callback: keep ETag, Content-Length, Retry-After. */
static size_t
header_cb(char *data, size_t size, size_t nmemb, void *arg)
{
	Transfer   *t = (Transfer *) arg;
	size_t		n = size * nmemb;
	const char *v;
	size_t		vlen;

	/* a new response (after a 100 Continue): forget the last one's */
	if (n >= 5 && memcmp(data, "HTTP/", 5) == 0)
	{
		t->content_length = -1;
		t->etag[0] = '\0';
		t->etag_too_long = false;
		t->retry_after = -1;
	}
	else if ((v = header_value(data, n, "etag", &vlen)) != NULL)
	{
		if (vlen > HTTP_MAX_ETAG)
			t->etag_too_long = true;
		else
		{
			memcpy(t->etag, v, vlen);
			t->etag[vlen] = '\0';
		}
	}
	else if ((v = header_value(data, n, "content-length", &vlen)) != NULL)
		t->content_length = parse_decimal(v, vlen);
	else if ((v = header_value(data, n, "retry-after", &vlen)) != NULL)
	{
		int64		s = parse_decimal(v, vlen);

		t->retry_after = s < 0 ? -1 : (int) Min(s, 3600);
	}
	return n;
}

/*
 * Sleep ms milliseconds, waking for interrupts (a cancel during a backoff
 * ends the request at once).
 */
static void
backoff_sleep(long ms)
{
	TimestampTz end = GetCurrentTimestamp() + (TimestampTz) ms * 1000;

	for (;;)
	{
		long		left;

		CHECK_FOR_INTERRUPTS();
		left = (long) ((end - GetCurrentTimestamp()) / 1000);
		if (left <= 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Min(left, 100L), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* The wait before retry 'attempt' (1-based): full jitter, capped. */
static long
backoff_ms(int attempt, int retry_after)
{
	long		cap = 100L << Min(attempt, 7);	/* 200 ms, 400 ms, ... */
	long		ms;

	cap = Min(cap, 10000L);
	ms = cap / 2 + (long) pg_prng_uint64_range(&pg_global_prng_state, 0,
											   (uint64) (cap / 2));
	if (retry_after >= 0)
		ms = Max(ms, Min((long) retry_after * 1000L, 30000L));
	return ms;
}

/*
 * One attempt: run the transfer on the backend's multi handle.  Returns
 * the curl result; *status the response code (0 when none).
 */
static CURLcode
run_once(HttpRequest *req, Transfer *t, long *status, char *errbuf)
{
	CURLM	   *multi = get_multi();
	CURL	   *easy;
	struct curl_slist *volatile hdrs = NULL;
	volatile bool added = false;
	CURLcode	result = CURLE_OK;
	int			i;

	*status = 0;
	easy = cu->easy_init();
	if (easy == NULL)
		ereport(ERROR,
				errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("out of memory"),
				errdetail("libcurl could not make an easy handle."));
	PG_TRY();
	{
		bool		done = false;

		for (i = 0; i < req->nheaders; i++)
		{
			struct curl_slist *n = cu->slist_append(hdrs, req->headers[i]);

			if (n == NULL)
				ereport(ERROR,
						errcode(ERRCODE_OUT_OF_MEMORY),
						errmsg("out of memory"));
			hdrs = n;
		}
		/* never send "Expect: 100-continue", nor a default Accept */
		errbuf[0] = '\0';
		if (cu->easy_setopt(easy, CURLOPT_URL, req->url) != CURLE_OK)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("invalid object-store request URL for %s", req->display));
		cu->easy_setopt(easy, CURLOPT_HTTPHEADER, hdrs);
		cu->easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
		cu->easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
		cu->easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
		cu->easy_setopt(easy, CURLOPT_PROXY, "");
		cu->easy_setopt(easy, CURLOPT_VERBOSE, 0L);
		cu->easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
		cu->easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
						 (long) deltacc_storage_connect_timeout);
		cu->easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
		cu->easy_setopt(easy, CURLOPT_LOW_SPEED_TIME,
						 (long) deltacc_storage_stall_timeout);
		cu->easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_cb);
		cu->easy_setopt(easy, CURLOPT_WRITEDATA, t);
		cu->easy_setopt(easy, CURLOPT_HEADERFUNCTION, header_cb);
		cu->easy_setopt(easy, CURLOPT_HEADERDATA, t);
		cu->easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
		if (strcmp(req->method, "HEAD") == 0)
			cu->easy_setopt(easy, CURLOPT_NOBODY, 1L);
		else if (strcmp(req->method, "GET") != 0)
			cu->easy_setopt(easy, CURLOPT_CUSTOMREQUEST, req->method);

		if (cu->multi_add_handle(multi, easy) != CURLM_OK)
			ereport(ERROR,
					errcode(ERRCODE_INTERNAL_ERROR),
					errmsg("could not start object-store request for %s", req->display));
		added = true;
		pgstat_report_wait_start(PG_WAIT_EXTENSION);
		while (!done)
		{
			int			running = 0;
			CURLMcode	mc;
			CURLMsg    *msg;
			int			left;

			pgstat_report_wait_end();
			CHECK_FOR_INTERRUPTS();
			pgstat_report_wait_start(PG_WAIT_EXTENSION);
			mc = cu->multi_perform(multi, &running);
			if (mc != CURLM_OK)
				ereport(ERROR,
						errcode(ERRCODE_CONNECTION_FAILURE),
						errmsg("object-store request for %s failed: %s",
							   req->display, cu->multi_strerror(mc)));
			while ((msg = cu->multi_info_read(multi, &left)) != NULL)
			{
				if (msg->msg == CURLMSG_DONE && msg->easy_handle == easy)
				{
					result = msg->data.result;
					done = true;
				}
			}
			if (done)
				break;
			mc = cu->multi_poll(multi, NULL, 0, 100, NULL);
			if (mc != CURLM_OK)
				ereport(ERROR,
						errcode(ERRCODE_CONNECTION_FAILURE),
						errmsg("object-store request for %s failed: %s",
							   req->display, cu->multi_strerror(mc)));
		}
		pgstat_report_wait_end();
		cu->easy_getinfo(easy, CURLINFO_RESPONSE_CODE, status);
	}
	PG_FINALLY();
	{
		pgstat_report_wait_end();
		if (added)
			cu->multi_remove_handle(multi, easy);
		cu->easy_cleanup(easy);
		cu->slist_free_all(hdrs);
	}
	PG_END_TRY();
	return result;
}

/*
 * The text of a transport failure: curl's message when it names no URL
 * (it never quotes a query string, but a '?' means take no chance), else
 * the generic one for the code.
 */
static const char *
failure_text(CURLcode code, const char *errbuf)
{
	if (errbuf[0] != '\0' && strchr(errbuf, '?') == NULL &&
		strstr(errbuf, "://") == NULL)
		return errbuf;
	return cu->easy_strerror(code);
}

void
http_execute(HttpRequest *req, HttpPrepareFn prepare, void *arg,
			 HttpResponse *resp)
{
	int			attempt;
	int			max_attempts = req->idempotent ? deltacc_storage_retries + 1 : 1;
	char		errbuf[CURL_ERROR_SIZE];
	CURLcode	result = CURLE_OK;
	Transfer	t;

	memset(resp, 0, sizeof(*resp));
	for (attempt = 0; attempt < max_attempts; attempt++)
	{
		long		status;

		if (attempt > 0)
			backoff_sleep(backoff_ms(attempt, t.retry_after));
		prepare(arg, attempt, req);
		memset(&t, 0, sizeof(t));
		t.req = req;
		t.cxt = CurrentMemoryContext;
		t.content_length = -1;
		t.retry_after = -1;
		result = run_once(req, &t, &status, errbuf);
		resp->attempts = attempt + 1;
		if (t.too_large)
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("object-store response for \"%s\" is too large", req->display),
					errdetail("The limit is %zu bytes.", req->max_body));
		if (t.no_memory)
			ereport(ERROR,
					errcode(ERRCODE_OUT_OF_MEMORY),
					errmsg("out of memory"),
					errdetail("Failed while receiving the object-store response for %s.",
							  req->display));
		if (t.etag_too_long)
			ereport(ERROR,
					errcode(ERRCODE_PROTOCOL_VIOLATION),
					errmsg("object-store response for %s has an ETag longer than %d bytes",
						   req->display, HTTP_MAX_ETAG));
		if (result == CURLE_OK && !http_status_retryable(status))
		{
			resp->status = status;
			break;
		}
		if (result == CURLE_OK)
			resp->status = status;	/* retryable status: try again */
		if (t.body != NULL && attempt + 1 < max_attempts)
		{
			pfree(t.body);
			t.body = NULL;
			t.len = 0;
		}
	}
	if (result != CURLE_OK)
		ereport(ERROR,
				errcode(ERRCODE_CONNECTION_FAILURE),
				errmsg("could not read \"%s\" from object store: %s", req->display,
					   failure_text(result, errbuf)),
				errdetail("%d attempts were made.", resp->attempts));
	if (req->buf != NULL)
		resp->body = req->buf;
	else
	{
		if (t.body == NULL)
			t.body = palloc(1);
		t.body[t.len] = '\0';
		resp->body = t.body;
	}
	resp->body_len = t.len;
	resp->content_length = t.content_length;
	strlcpy(resp->etag, t.etag, sizeof(resp->etag));
}
