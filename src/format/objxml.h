/*-------------------------------------------------------------------------
 *
 * objxml.h
 *	  The XML documents of object stores that deltacc reads: S3's
 *	  ListObjectsV2 result (also GCS's XML API), Azure's List Blobs result,
 *	  and the error document both send with a failed request.
 *
 * The reader accepts the subset of XML 1.0 these services send: an
 * optional declaration, comments, elements with attributes (ignored),
 * character data with the five predefined entities and numeric character
 * references, and CDATA sections.  A document type declaration is refused
 * (no entity is ever defined or expanded), and so are unbalanced or
 * mismatched tags, nesting deeper than OBJXML_MAX_DEPTH, a NUL byte, and a
 * character reference that is not a valid XML character.  Text is
 * returned as UTF-8 with references decoded.
 *
 * Memory comes from the caller's FmtAllocator; every string returned is
 * NUL-terminated.  Nothing here talks to the network.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/objxml.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_OBJXML_H
#define DELTACC_OBJXML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt_alloc.h"

#define OBJXML_MAX_DEPTH 16

/* One object of a listing. */
typedef struct ObjListEntry
{
	char	   *key;			/* the full key (S3) or blob name (Azure) */
	int64_t		size;			/* bytes; -1 when the listing gave none */
	char	   *etag;			/* as sent (S3 quotes it); NULL when none */
} ObjListEntry;

/* One page of a listing. */
typedef struct ObjListPage
{
	int			n;
	ObjListEntry *entries;		/* [n], in the order of the document */
	bool		truncated;		/* S3 IsTruncated; Azure: NextMarker set */
	char	   *next_token;		/* S3 NextContinuationToken, Azure
								 * NextMarker; NULL when none */
	int			n_prefixes;		/* CommonPrefixes / BlobPrefix entries */
} ObjListPage;

/*
 * Parse a ListObjectsV2 result (root ListBucketResult): every Contents
 * element's Key, Size and ETag, IsTruncated and NextContinuationToken.
 * A Contents without Key, a Size that is not a non-negative decimal, an
 * IsTruncated other than "true"/"false", or IsTruncated true without a
 * token is refused.  Returns false with a static message in *errmsg.
 */
extern bool objxml_parse_s3_list(const char *xml, size_t len,
								 const FmtAllocator *a, ObjListPage *out,
								 const char **errmsg);

/*
 * Parse a List Blobs result (root EnumerationResults): every Blob's Name,
 * Properties/Content-Length and Properties/Etag, and NextMarker (empty or
 * absent: the last page).  Same refusals as objxml_parse_s3_list.
 */
extern bool objxml_parse_azure_list(const char *xml, size_t len,
									const FmtAllocator *a, ObjListPage *out,
									const char **errmsg);

/*
 * The Code and Message of an error document (root Error, as S3, GCS and
 * Azure send it).  Returns false when the body is no such document; *code
 * and *message are NULL when the element is missing.  Either text is cut
 * to at most max_text bytes (at a UTF-8 character boundary) so that a
 * message built from it stays short.
 */
extern bool objxml_parse_error(const char *xml, size_t len,
							   const FmtAllocator *a, size_t max_text,
							   char **code, char **message);

/*
 * The generic walk the parsers above are made of, for tests and fuzzing:
 * calls cb for every element with its path of names from the root
 * ("ListBucketResult/Contents/Key"; names without namespace prefix) and
 * its decoded text (the concatenation of its direct character data; ""
 * when none), when the element closes.  cb returns false to stop (the
 * walk then returns false with *errmsg as cb set it).
 */
typedef bool (*ObjXmlElementFn) (void *arg, const char *path, size_t path_len,
								 int depth, const char *text, size_t text_len,
								 const char **errmsg);
extern bool objxml_walk(const char *xml, size_t len, const FmtAllocator *a,
						ObjXmlElementFn cb, void *arg, const char **errmsg);

#endif							/* DELTACC_OBJXML_H */
