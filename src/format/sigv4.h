/*-------------------------------------------------------------------------
 *
 * sigv4.h
 *	  AWS Signature Version 4 for S3 requests (header authentication).
 *
 * The signer builds the canonical request, the string to sign, the signing
 * key and the Authorization header value of one request, S3's way: the path
 * is URI-encoded once ('/' kept, no "." or ".." removal, no second encoding
 * as other AWS services use), query names and values are URI-encoded and
 * sorted by name then value (a parameter without value is signed as
 * "name="), header names are lowercased and sorted, header values trimmed
 * with inner runs of spaces folded to one.  x-amz-date and (for S3)
 * x-amz-content-sha256 are always signed; host is required.
 *
 * The caller sends exactly what was signed: the encoded path and the
 * canonical query string of the result, and the headers it passed plus
 * x-amz-date, x-amz-content-sha256, x-amz-security-token (when a session
 * token is given) and Authorization.
 *
 * Memory comes from the caller's FmtAllocator.  The secret never appears in
 * anything returned, and the derived keys are wiped before returning.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sigv4.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SIGV4_H
#define DELTACC_SIGV4_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fmt_alloc.h"

/* Hex SHA-256 of the empty string: the payload hash of a GET. */
#define SIGV4_EMPTY_SHA256 \
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/* The payload hash S3 accepts when the body is not signed. */
#define SIGV4_UNSIGNED_PAYLOAD "UNSIGNED-PAYLOAD"

/* "YYYYMMDDTHHMMSSZ" */
#define SIGV4_DATE_LEN 16

/* A query parameter or header, unencoded (value NULL is the empty value). */
typedef struct SigV4Pair
{
	const char *name;
	const char *value;
} SigV4Pair;

typedef struct SigV4Request
{
	const char *method;			/* "GET", "HEAD", ... (upper-case letters) */
	const char *host;			/* Host header value, with ":port" if sent */
	const char *path;			/* unencoded, starts with '/' */
	const SigV4Pair *query;		/* unencoded parameters, any order */
	int			nquery;
	const SigV4Pair *headers;	/* further headers to sign (range, ...), any
								 * case; not host, x-amz-date,
								 * x-amz-content-sha256, x-amz-security-token
								 * or authorization */
	int			nheaders;
	const char *payload_hash;	/* hex SHA-256 or SIGV4_UNSIGNED_PAYLOAD */
	bool		sign_content_sha256;	/* send and sign x-amz-content-sha256
										 * (S3 requires it) */
	const char *amz_date;		/* SIGV4_DATE_LEN characters, UTC */
	const char *region;			/* "us-east-1" */
	const char *service;		/* "s3" */
	const char *session_token;	/* NULL, or the temporary credentials' token */
} SigV4Request;

typedef struct SigV4Result
{
	char	   *encoded_path;	/* the path to put in the request line */
	char	   *query_string;	/* canonical query ("" when none): send it */
	char	   *canonical_request;
	char	   *string_to_sign;
	char	   *signed_headers; /* "host;range;x-amz-date" */
	char		signature[65];	/* hex */
	char	   *authorization;	/* the Authorization header value */
} SigV4Result;

/*
 * Sign 'req' with the access key id and secret.  Returns false with a
 * static message in *errmsg (which never quotes the secret or the key id)
 * when an input is malformed (a control character in a header value, a
 * date that is not SIGV4_DATE_LEN characters of the form, a header named
 * twice, a path not starting with '/', ...) or the allocator fails.
 */
extern bool sigv4_sign(const SigV4Request *req, const char *key_id,
					   const char *secret, const FmtAllocator *a,
					   SigV4Result *out, const char **errmsg);

/*
 * URI-encode s[0..len) as SigV4 does: every byte except A-Z a-z 0-9 - _ . ~
 * (and '/' when keep_slash) becomes %XY with upper-case hex.  The result is
 * NUL-terminated and allocated from 'a'; NULL when the allocator fails.
 */
extern char *sigv4_uri_encode(const char *s, size_t len, bool keep_slash,
							  const FmtAllocator *a);

/* Lower-case hex SHA-256 of data[0..len) into out[65] (NUL-terminated). */
extern void sigv4_sha256_hex(const void *data, size_t len, char out[65]);

/* Format a UTC time as x-amz-date into out[SIGV4_DATE_LEN + 1]. */
extern bool sigv4_format_date(time_t t, char out[SIGV4_DATE_LEN + 1]);

#endif							/* DELTACC_SIGV4_H */
