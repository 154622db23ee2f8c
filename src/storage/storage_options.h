/*-------------------------------------------------------------------------
 *
 * storage_options.h
 *	  Object-store settings and credentials kept the PostgreSQL way: the
 *	  foreign data wrapper deltacc_storage, its servers (non-secret
 *	  settings, one per URL prefix) and their user mappings (secrets).
 *
 * A server of deltacc_storage has url_prefix (required: an s3://, gs://,
 * az:// or abfss:// URL, see format/objurl.h), and optionally endpoint,
 * region, url_style ('path' or 'virtual') and account (Azure only).  A user
 * mapping has only secrets: key_id with secret (and optionally
 * session_token) for S3 and GCS HMAC keys, account_key or sas_token for
 * Azure.  The validator refuses a secret anywhere but on a user mapping, an
 * option it does not know, and any server option set by a role that is not
 * a superuser (the install script grants USAGE on the wrapper to nobody, so
 * only superusers create servers; the validator holds even if USAGE is
 * granted later).  No message of this module quotes the value of a secret.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/storage_options.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_STORAGE_OPTIONS_H
#define DELTACC_STORAGE_OPTIONS_H

#include "nodes/pg_list.h"

#include "format/objurl.h"

#define STORAGE_FDW_NAME "deltacc_storage"

/*
 * What a URL resolves to for the current user.  Every string is palloc'd
 * in the caller's memory context.  The secret fields are NULL when the
 * user mapping (or the server's lack of one) does not set them; callers
 * must never put them into a message, a log line or a result.
 */
typedef struct StorageTarget
{
	Oid			serverid;
	char	   *servername;
	ObjUrl		url;			/* the parsed URL asked for */
	List	   *server_options; /* DefElems of the server, as stored */
	List	   *mapping_options;	/* DefElems of the user mapping, NIL when
									 * there is none (anonymous access) */
	bool		has_mapping;
	/* the server's settings (NULL when not set) */
	char	   *url_prefix;
	char	   *endpoint;
	char	   *region;
	char	   *url_style;
	char	   *account;
	/* the user mapping's secrets (NULL when not set) */
	char	   *key_id;
	char	   *secret;
	char	   *session_token;
	char	   *account_key;
	char	   *sas_token;
} StorageTarget;

/*
 * Check the options of a catalog object of deltacc_storage (the wrapper,
 * a server, a user mapping or a foreign table); 'catalog' is the OID of
 * its catalog, as a validator receives it.  ERROR on anything refused.
 */
extern void storage_validate_options(List *options, Oid catalog);

/*
 * The server of deltacc_storage whose url_prefix matches 'url' with the
 * longest key prefix among those the current user has USAGE on, and the
 * user mapping of the current user (or PUBLIC) on it.  ERROR when the URL
 * is not a valid object-store URL, when no server matches, when servers
 * match but the user has USAGE on none of them, and when two matching
 * servers with USAGE have the same prefix.
 */
extern StorageTarget *storage_resolve(const char *url);

/* Is 'name' one of the options that may hold a secret? */
extern bool storage_option_is_secret(const char *name);

#endif							/* DELTACC_STORAGE_OPTIONS_H */
