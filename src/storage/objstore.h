/*-------------------------------------------------------------------------
 *
 * objstore.h
 *	  Reading Delta tables in object stores: listing a "directory" from a
 *	  name on, reading a whole object, reading a byte range, and the
 *	  Parquet reader's read-at callback over an object.
 *
 * Paths that start with s3://, gs://, az:// or abfss:// are object-store
 * URLs (storage_is_remote); everything else is a local path, read by
 * common/fileio.  Objects are read here with the server and user mapping
 * that storage_resolve (storage_options.h) chooses for the URL.  S3 and
 * GCS (its XML API with HMAC keys): requests signed with SigV4
 * (format/sigv4.h) when the mapping holds key_id and secret, listings by
 * ListObjectsV2.  Azure Blob (az://, and abfss:// through the Blob
 * endpoint): requests signed with Shared Key (format/azsig.h) when the
 * mapping holds account_key, or carrying its sas_token, listings by List
 * Blobs (which has no start-after: the names before it are skipped here).
 * Without a mapping, requests are anonymous.
 *
 * Every function may ERROR: 404 is ERRCODE_UNDEFINED_FILE, 401/403
 * ERRCODE_INSUFFICIENT_PRIVILEGE, another unexpected status (also a 5xx
 * after the retries of storage/http.h) ERRCODE_IO_ERROR with the store's
 * error Code and Message, a listing that is malformed or out of order
 * ERRCODE_DATA_CORRUPTED.  Messages name the object by its URL (which
 * holds no secret: format/objurl.h refuses query strings).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/objstore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_OBJSTORE_H
#define DELTACC_OBJSTORE_H

#include <stdint.h>

#include "storage/http.h"

/* GUC deltacc.storage_list_page_size: max-keys of one listing request. */
extern int	deltacc_storage_list_page_size;

/* What a listing or a HEAD says of an object. */
typedef struct StorageObjectInfo
{
	int64		size;
	char		etag[HTTP_MAX_ETAG + 1];	/* "" when the store sent none */
} StorageObjectInfo;

/* Is 'path' an object-store URL (by its scheme)? */
extern bool storage_is_remote(const char *path);

/*
 * The canonical text of an object-store URL ("s3://bucket/key", no
 * trailing '/'), palloc'd; ERRCODE_INVALID_PARAMETER_VALUE when it does
 * not parse (format/objurl.h).
 */
extern char *storage_canonical_url(const char *url);

/*
 * List the objects directly under dir_url ("s3://b/t/_delta_log": keys
 * "t/_delta_log/<name>" without a further '/') whose name sorts after
 * start_after (NULL: all), in ascending byte order, calling cb with each
 * name and what the listing says of it.  Pages are requested with
 * start-after and continuation tokens; every key is checked to be inside
 * the prefix and after the one before it.  Returns the number listed.
 */
typedef void (*StorageListFn) (void *arg, const char *name,
							   const StorageObjectInfo *info);
extern int	storage_list(const char *dir_url, const char *start_after,
						 StorageListFn cb, void *arg);

/*
 * HEAD the object: false when it does not exist, else its size and ETag.
 */
extern bool storage_stat(const char *url, StorageObjectInfo *info);

/*
 * storage_stat of an object that must exist: a missing one is
 * ERRCODE_UNDEFINED_FILE naming "<what> \"<display>\"".
 */
extern void storage_stat_existing(const char *url, const char *what,
								  const char *display, StorageObjectInfo *info);

/*
 * Read the whole object into a NUL-terminated palloc'd buffer.  Longer
 * than max_bytes: ERRCODE_PROGRAM_LIMIT_EXCEEDED naming "<what>
 * \"<display>\"" (the body is never read beyond the limit).  info may be
 * NULL.
 */
extern char *storage_read_object(const char *url, const char *what,
								 const char *display, Size max_bytes,
								 Size *len, StorageObjectInfo *info);

/*
 * Read up to len bytes at offset off into buf; fewer only at the end of
 * the object.  When etag is not NULL and not empty the read is
 * conditional (If-Match): an object that changed is ERRCODE_DATA_CORRUPTED.
 */
extern Size storage_read_range(const char *url, const char *etag,
							   const char *what, const char *display,
							   char *buf, Size len, uint64 off);

/*
 * An object opened for reads at offsets: its size and ETag from a HEAD,
 * and a read-ahead block.  palloc'd in CurrentMemoryContext (which must
 * outlive the reads); nothing to close.
 */
typedef struct StorageReader
{
	char	   *url;
	const char *what;
	const char *display;
	StorageObjectInfo info;
	char	   *block;			/* read-ahead buffer */
	uint64		block_off;
	Size		block_len;
	Size		block_cap;
} StorageReader;

/* ERRORs as storage_read_object: a missing object is ERRCODE_UNDEFINED_FILE. */
extern StorageReader *storage_reader_open(const char *url, const char *what,
										  const char *display);

/* Free the reader and its block. */
extern void storage_reader_free(StorageReader *r);

/*
 * Read exactly len bytes at off (ERROR when the object is shorter).
 * Small reads are served from one read-ahead block.
 */
extern void storage_reader_read(StorageReader *r, char *buf, Size len,
								uint64 off);

/*
 * PqReadAtFn (format/parquet.h) over a StorageReader (ctx): reads exactly
 * len bytes at off.  Errors are raised, not returned.
 */
extern int	storage_pq_read_at(void *ctx, uint64_t off, size_t len, void *buf);

/* Define the GUCs of the storage layer (called from _PG_init). */
extern void storage_init(void);

#endif							/* DELTACC_OBJSTORE_H */
