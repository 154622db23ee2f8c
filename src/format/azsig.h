/*-------------------------------------------------------------------------
 *
 * azsig.h
 *	  Azure Storage Shared Key authorization of Blob service requests.
 *
 * The string to sign is the verb, the values of Content-Encoding,
 * Content-Language, Content-Length (empty when 0), Content-MD5,
 * Content-Type, Date, If-Modified-Since, If-Match, If-None-Match,
 * If-Unmodified-Since and Range (each "" when not sent), one line each,
 * then every x-ms-* header as "name:value" (names lowercased, sorted,
 * values trimmed with inner runs of white space folded), then the
 * canonicalized resource: "/<account><path>" and, for every query
 * parameter sorted by lowercased name, "\n<name>:<value>" (values as sent
 * before URL encoding).  The signature is the base64 of HMAC-SHA256 of
 * that string with the base64-decoded account key.
 *
 * Memory comes from the caller's FmtAllocator; the key never appears in
 * anything returned, and its decoded bytes are wiped before returning.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/azsig.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_AZSIG_H
#define DELTACC_AZSIG_H

#include <stdbool.h>
#include <stddef.h>

#include "fmt_alloc.h"

/* "Sun, 06 Nov 1994 08:49:37 GMT" */
#define AZSIG_DATE_LEN 29

typedef struct AzPair
{
	const char *name;
	const char *value;			/* NULL: "" */
} AzPair;

typedef struct AzSignRequest
{
	const char *method;			/* "GET", "HEAD" */
	const char *account;
	const char *path;			/* the URI path as sent (encoded), from '/';
								 * with the account first in path style */
	const AzPair *query;		/* unencoded, any order */
	int			nquery;
	const AzPair *headers;		/* every header sent but Authorization, any
								 * case and order */
	int			nheaders;
} AzSignRequest;

/*
 * Sign req with the base64 account key: *authorization gets "SharedKey
 * <account>:<signature>" and *string_to_sign what was signed (both from
 * 'a').  False with a static message in *errmsg when the key is not
 * base64, a header is named twice, a value holds a control character, or
 * memory runs out.
 */
extern bool azsig_sign(const AzSignRequest *req, const char *account_key,
					   const FmtAllocator *a, char **authorization,
					   char **string_to_sign, const char **errmsg);

/* Format a UTC time as an RFC 1123 date into out[AZSIG_DATE_LEN + 1]. */
extern bool azsig_format_date(long long t, char out[AZSIG_DATE_LEN + 1]);

#endif							/* DELTACC_AZSIG_H */
