/*-------------------------------------------------------------------------
 *
 * http.h
 *	  HTTP requests of object-store reads, over libcurl's multi interface,
 *	  inside a backend.
 *
 * A request is driven by curl_multi_perform and curl_multi_poll (at most
 * 100 ms per poll) with CHECK_FOR_INTERRUPTS between polls, so a cancel or
 * statement_timeout ends it within a poll.  No callback of libcurl ever
 * raises an error or allocates in a way that can raise one.  Connect and
 * stall timeouts are the GUCs deltacc.storage_connect_timeout and
 * deltacc.storage_stall_timeout; redirects are never followed, only http
 * and https are spoken, proxies from the environment are ignored.  An
 * idempotent request is retried (deltacc.storage_retries times, with
 * jittered exponential backoff, honouring Retry-After) after a transport
 * error or a 408, 429, 500, 502, 503 or 504 status; the caller's prepare
 * callback signs every attempt anew.
 *
 * One multi handle per backend holds the connection cache; a request's
 * easy handle is removed from it (closing its connection when the transfer
 * did not finish) whether the request ends normally or by an ERROR.
 *
 * Messages name the request by the caller's display text, never by the URL
 * sent (which may carry a SAS token), and never quote a header.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/http.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_HTTP_H
#define DELTACC_HTTP_H

/* Largest number of request headers. */
#define HTTP_MAX_HEADERS 16
/* Longest ETag kept from a response (longer ones are an error). */
#define HTTP_MAX_ETAG 256

/* GUCs */
extern int	deltacc_storage_connect_timeout;	/* ms */
extern int	deltacc_storage_stall_timeout;	/* s */
extern int	deltacc_storage_retries;

typedef struct HttpRequest
{
	const char *method;			/* "GET" or "HEAD" */
	char	   *url;			/* what is sent (may hold a secret) */
	const char *display;		/* what messages name: no secret */
	const char *headers[HTTP_MAX_HEADERS];	/* "Name: value" */
	int			nheaders;
	bool		idempotent;
	Size		max_body;		/* a longer body is an ERROR */
	char	   *buf;			/* non-NULL: the body goes here (at most
								 * max_body bytes), not into a new buffer */
} HttpRequest;

typedef struct HttpResponse
{
	long		status;
	char	   *body;			/* palloc'd, NUL-terminated (or req->buf) */
	Size		body_len;
	int64		content_length; /* -1 when absent */
	char		etag[HTTP_MAX_ETAG + 1];	/* "" when absent */
	int			attempts;		/* how many were made */
} HttpResponse;

/*
 * Called before every attempt (attempt 0, 1, ...): set req->url and
 * req->headers for it (a new signature, a new date).  Runs outside any
 * libcurl call; it may ERROR.
 */
typedef void (*HttpPrepareFn) (void *arg, int attempt, HttpRequest *req);

/*
 * Perform req.  Returns the last attempt's status and body when a response
 * came (any status: the caller decides); ERRORs with
 * ERRCODE_CONNECTION_FAILURE when the last attempt got no complete
 * response (connect failure, stall, reset, truncated body), and with
 * ERRCODE_PROGRAM_LIMIT_EXCEEDED when the body is longer than max_body.
 * The body is allocated in CurrentMemoryContext.
 */
extern void http_execute(HttpRequest *req, HttpPrepareFn prepare, void *arg,
						 HttpResponse *resp);

/* Is 'status' one a retry may cure (408, 429, 500, 502, 503, 504)? */
extern bool http_status_retryable(long status);

/* Define the GUCs (called from _PG_init). */
extern void storage_http_init(void);

#endif							/* DELTACC_HTTP_H */
