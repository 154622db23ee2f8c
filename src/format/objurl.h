/*-------------------------------------------------------------------------
 *
 * objurl.h
 *	  Object-store URLs of Delta tables: s3://, gs://, az:// and abfss://.
 *
 * Accepted forms (scheme in lower case):
 *
 *	  s3://bucket/key			  Amazon S3 and S3-compatible stores
 *	  gs://bucket/key			  Google Cloud Storage
 *	  az://container/key		  Azure Blob, account from the server options
 *	  az://container@account/key  Azure Blob
 *	  abfss://container@account.dfs.core.windows.net/key
 *								  ADLS Gen2 (read through the Blob endpoint)
 *
 * The key is taken literally, as Hadoop's Path(String) does: a '%' is part
 * of the key, never decoded.  The parser refuses what would make two
 * different texts name one object or let a prefix match be escaped: "." and
 * ".." segments, empty segments ("a//b"), '?' and '#' (no query string, so
 * no SAS token or endpoint override in a URL), '\' , control bytes, bytes
 * that are not UTF-8, and names outside the store's rules (S3 and GCS
 * buckets: 3-63 of a-z 0-9 . - and, for GCS, _; Azure containers: 3-63 of
 * a-z 0-9 - without "--"; accounts: 3-24 of a-z 0-9).  A trailing '/' is
 * dropped, so "s3://b/t/" and "s3://b/t" have the key "t".
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/objurl.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_OBJURL_H
#define DELTACC_OBJURL_H

#include <stdbool.h>
#include <stddef.h>

#include "fmt_alloc.h"

/* Longest key accepted (S3's and Azure's limit, in bytes). */
#define OBJURL_MAX_KEY 1024
/* Longest URL accepted. */
#define OBJURL_MAX_URL 2048

typedef enum ObjUrlScheme
{
	OBJURL_S3,
	OBJURL_GS,
	OBJURL_AZ,
	OBJURL_ABFSS
} ObjUrlScheme;

typedef struct ObjUrl
{
	ObjUrlScheme scheme;
	char	   *bucket;			/* S3/GCS bucket or Azure container */
	char	   *account;		/* Azure account; NULL when not in the URL
								 * (and always for s3/gs) */
	char	   *key;			/* "" for the bucket itself; no leading or
								 * trailing '/' */
} ObjUrl;

/*
 * Parse url[0..len) (a NUL inside it is refused).  On success fills *out
 * with strings allocated from 'a'.  On failure returns false with a static
 * message in *errmsg and, in *erroff, the byte offset the message is about.
 */
extern bool objurl_parse(const char *url, size_t len, const FmtAllocator *a,
						 ObjUrl *out, const char **errmsg, size_t *erroff);

/* The scheme's text ("s3", "gs", "az", "abfss"). */
extern const char *objurl_scheme_name(ObjUrlScheme scheme);

#endif							/* DELTACC_OBJURL_H */
