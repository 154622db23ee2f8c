/*-------------------------------------------------------------------------
 *
 * storage_options.c
 *	  The deltacc_storage wrapper's option validator and the lookup of the
 *	  server and user mapping serving an object-store URL (see
 *	  storage_options.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/storage_options.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_foreign_data_wrapper.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "common/json_util.h"
#include "storage/storage_options.h"

typedef enum OptionPlace
{
	PLACE_SERVER,
	PLACE_MAPPING
} OptionPlace;

typedef struct StorageOption
{
	const char *name;
	OptionPlace place;
} StorageOption;

static const StorageOption storage_options[] = {
	{"url_prefix", PLACE_SERVER},
	{"endpoint", PLACE_SERVER},
	{"region", PLACE_SERVER},
	{"url_style", PLACE_SERVER},
	{"account", PLACE_SERVER},
	{"key_id", PLACE_MAPPING},
	{"secret", PLACE_MAPPING},
	{"session_token", PLACE_MAPPING},
	{"account_key", PLACE_MAPPING},
	{"sas_token", PLACE_MAPPING},
};

static const StorageOption *
find_option(const char *name)
{
	int			i;

	for (i = 0; i < lengthof(storage_options); i++)
		if (strcmp(storage_options[i].name, name) == 0)
			return &storage_options[i];
	return NULL;
}

bool
storage_option_is_secret(const char *name)
{
	const StorageOption *o = find_option(name);

	return o != NULL && o->place == PLACE_MAPPING;
}

/* The option names allowed in one place, for a hint. */
static char *
names_of(OptionPlace place)
{
	StringInfoData b;
	int			i;

	initStringInfo(&b);
	for (i = 0; i < lengthof(storage_options); i++)
		if (storage_options[i].place == place)
			appendStringInfo(&b, "%s%s", b.len > 0 ? ", " : "", storage_options[i].name);
	return b.data;
}

/*
 * A URL for a message: only up to the first '?' or '#' (a SAS token would
 * follow them), at most 200 bytes, never splitting a character.
 */
static char *
url_for_message(const char *url)
{
	size_t		n = strcspn(url, "?#");

	if (n > 200)
		n = 200;
	n = pg_mbcliplen(url, n, n);
	return pnstrdup(url, n);
}

/* Parse 'url' or ERROR (errcode invalid_parameter_value), quoting 'what'. */
static void
parse_url_or_error(const char *url, ObjUrl *out, const char *what)
{
	FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
	const char *msg = NULL;
	size_t		off = 0;

	if (!objurl_parse(url, strlen(url), &a, out, &msg, &off))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid %s \"%s\"", what, url_for_message(url)),
				 errdetail("At byte %zu: %s.", off, msg),
				 errhint("Object-store URLs are s3://bucket/key, gs://bucket/key, az://container@account/key or abfss://container@account.dfs.core.windows.net/key.")));
}

/* A text value holds no control character (checked without quoting it). */
static bool
plain_text(const char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static void
validate_endpoint(const char *v)
{
	const char *host;
	size_t		hostlen;

	if (strncmp(v, "https://", 8) == 0)
		host = v + 8;
	else if (strncmp(v, "http://", 7) == 0)
		host = v + 7;
	else
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"endpoint\": \"%s\"", url_for_message(v)),
				 errdetail("An endpoint starts with https:// or http://.")));
	hostlen = strcspn(host, "/");
	if (hostlen == 0 || !plain_text(v) || strpbrk(v, "?#@ \\") != NULL ||
		(host[hostlen] == '/' && host[hostlen + 1] != '\0'))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"endpoint\": \"%s\"", url_for_message(v)),
				 errdetail("An endpoint is a scheme and a host with an optional port, without user name, path, query string or fragment.")));
}

static void
validate_token_value(const char *name, const char *v, const char *allowed, int maxlen)
{
	if (*v == '\0' || strlen(v) > maxlen || strspn(v, allowed) != strlen(v))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", name,
						plain_text(v) ? v : "(control characters)")));
}

/* Secrets: checked for form only, the message never quotes them. */
static void
validate_secret_value(const char *name, const char *v)
{
	if (*v == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("option \"%s\" is empty", name)));
	if (!plain_text(v) || strlen(v) > 8192)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("option \"%s\" holds a control character or is longer than 8192 bytes", name),
				 errdetail("The value is not shown.")));
	if (strcmp(name, "sas_token") == 0 && (v[0] == '?' || strchr(v, '#') != NULL))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("option \"sas_token\" must be the query string of a shared access signature without the leading \"?\" and without \"#\""),
				 errdetail("The value is not shown.")));
	if (strcmp(name, "account_key") == 0 &&
		strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != strlen(v))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("option \"account_key\" is not base64"),
				 errdetail("The value is not shown.")));
}

static const char *
place_name(Oid catalog)
{
	switch (catalog)
	{
		case ForeignDataWrapperRelationId:
			return "foreign-data wrapper";
		case ForeignServerRelationId:
			return "server";
		case UserMappingRelationId:
			return "user mapping";
		case ForeignTableRelationId:
			return "foreign table";
		default:
			return "object";
	}
}

void
storage_validate_options(List *options, Oid catalog)
{
	ListCell   *lc;
	const char *url_prefix = NULL;
	const char *account = NULL;
	bool		key_id = false;
	bool		secret = false;
	bool		session_token = false;
	bool		account_key = false;
	bool		sas_token = false;

	if (catalog == ForeignServerRelationId && !superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to set options of a server of foreign-data wrapper \"%s\"",
						STORAGE_FDW_NAME),
				 errdetail("Only superusers may create or alter servers of \"%s\": a server's url_prefix decides whose credentials serve a URL.",
						   STORAGE_FDW_NAME)));

	foreach(lc, options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);
		const StorageOption *o = find_option(def->defname);
		const char *v;

		if (o == NULL ||
			(catalog != ForeignServerRelationId && catalog != UserMappingRelationId))
		{
			if (catalog == ForeignServerRelationId || catalog == UserMappingRelationId)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
						 errmsg("invalid option \"%s\" for a %s of foreign-data wrapper \"%s\"",
								def->defname, place_name(catalog), STORAGE_FDW_NAME),
						 errhint("Valid options on a %s: %s.", place_name(catalog),
								 names_of(catalog == ForeignServerRelationId
										  ? PLACE_SERVER : PLACE_MAPPING))));
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 catalog == ForeignDataWrapperRelationId
					 ? errmsg("invalid option \"%s\": foreign-data wrapper \"%s\" takes no options",
							  def->defname, STORAGE_FDW_NAME)
					 : errmsg("invalid option \"%s\": a %s of foreign-data wrapper \"%s\" takes no options",
							  def->defname, place_name(catalog), STORAGE_FDW_NAME),
					 errdetail("Options of \"%s\" go on servers (settings) and user mappings (secrets) only.",
							   STORAGE_FDW_NAME)));
		}
		if (o->place == PLACE_MAPPING && catalog != UserMappingRelationId)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("option \"%s\" is a secret and is allowed only on a user mapping",
							def->defname),
					 errdetail("Server options are readable by every role (pg_foreign_server); the value is not shown."),
					 errhint("Put it into CREATE USER MAPPING ... SERVER ... OPTIONS (%s '...').",
							 def->defname)));
		if (o->place == PLACE_SERVER && catalog != ForeignServerRelationId)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("option \"%s\" is allowed only on a server", def->defname),
					 errhint("Valid options on a user mapping: %s.", names_of(PLACE_MAPPING))));

		v = defGetString(def);
		if (strcmp(def->defname, "url_prefix") == 0)
		{
			ObjUrl		u;

			parse_url_or_error(v, &u, "url_prefix");
			url_prefix = v;
			if (u.account != NULL)
				account = u.account;
		}
		else if (strcmp(def->defname, "endpoint") == 0)
			validate_endpoint(v);
		else if (strcmp(def->defname, "region") == 0)
			validate_token_value("region", v, "abcdefghijklmnopqrstuvwxyz0123456789-", 64);
		else if (strcmp(def->defname, "url_style") == 0)
		{
			if (strcmp(v, "path") != 0 && strcmp(v, "virtual") != 0)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("invalid value for option \"url_style\": \"%s\"",
								plain_text(v) ? v : "(control characters)"),
						 errhint("Valid values are \"path\" and \"virtual\".")));
		}
		else if (strcmp(def->defname, "account") == 0)
			validate_token_value("account", v, "abcdefghijklmnopqrstuvwxyz0123456789", 24);
		else
		{
			validate_secret_value(def->defname, v);
			key_id |= strcmp(def->defname, "key_id") == 0;
			secret |= strcmp(def->defname, "secret") == 0;
			session_token |= strcmp(def->defname, "session_token") == 0;
			account_key |= strcmp(def->defname, "account_key") == 0;
			sas_token |= strcmp(def->defname, "sas_token") == 0;
		}
	}

	if (catalog == ForeignServerRelationId)
	{
		ObjUrl		u;
		const char *acc_opt = NULL;

		if (url_prefix == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
					 errmsg("a server of foreign-data wrapper \"%s\" needs option \"url_prefix\"",
							STORAGE_FDW_NAME),
					 errhint("For example OPTIONS (url_prefix 's3://bucket/')")));
		parse_url_or_error(url_prefix, &u, "url_prefix");
		foreach(lc, options)
		{
			DefElem    *def = lfirst_node(DefElem, lc);

			if (strcmp(def->defname, "account") == 0)
				acc_opt = defGetString(def);
		}
		if (acc_opt != NULL && u.scheme != OBJURL_AZ && u.scheme != OBJURL_ABFSS)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("option \"account\" is only for az:// and abfss:// servers")));
		if (acc_opt != NULL && account != NULL && strcmp(acc_opt, account) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("option \"account\" \"%s\" differs from the account of url_prefix, \"%s\"",
							acc_opt, account)));
	}
	if (catalog == UserMappingRelationId)
	{
		if (key_id != secret)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
					 errmsg("options \"key_id\" and \"secret\" go together")));
		if (session_token && !key_id)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
					 errmsg("option \"session_token\" needs \"key_id\" and \"secret\"")));
		if ((key_id ? 1 : 0) + (account_key ? 1 : 0) + (sas_token ? 1 : 0) > 1)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("a user mapping holds one kind of credential: key_id and secret, account_key, or sas_token")));
	}
}

/* Does the parsed prefix p cover the parsed URL u? */
static bool
prefix_matches(const ObjUrl *p, const ObjUrl *u)
{
	size_t		n = strlen(p->key);

	if (p->scheme != u->scheme || strcmp(p->bucket, u->bucket) != 0)
		return false;
	if ((p->account == NULL) != (u->account == NULL) ||
		(p->account != NULL && strcmp(p->account, u->account) != 0))
		return false;
	if (n == 0)
		return true;
	return strncmp(p->key, u->key, n) == 0 && (u->key[n] == '\0' || u->key[n] == '/');
}

static char *
option_value(List *options, const char *name)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);

		if (strcmp(def->defname, name) == 0)
			return pstrdup(defGetString(def));
	}
	return NULL;
}

/* The user mapping of 'userid' (or PUBLIC) on the server, NULL if none. */
static UserMapping *
find_user_mapping(Oid userid, Oid serverid)
{
	HeapTuple	tp;

	tp = SearchSysCache2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(userid),
						 ObjectIdGetDatum(serverid));
	if (!HeapTupleIsValid(tp))
		tp = SearchSysCache2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(InvalidOid),
							 ObjectIdGetDatum(serverid));
	if (!HeapTupleIsValid(tp))
		return NULL;
	ReleaseSysCache(tp);
	/* GetUserMapping repeats the lookup and copies the options */
	return GetUserMapping(userid, serverid);
}

StorageTarget *
storage_resolve(const char *url)
{
	ForeignDataWrapper *fdw;
	StorageTarget *t = palloc0(sizeof(StorageTarget));
	Relation	rel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	Oid			userid = GetUserId();
	Oid			best = InvalidOid;
	size_t		best_len = 0;
	bool		tie = false;
	char	   *denied = NULL;
	size_t		denied_len = 0;
	ForeignServer *server;
	UserMapping *um;

	parse_url_or_error(url, &t->url, "object-store URL");
	fdw = GetForeignDataWrapperByName(STORAGE_FDW_NAME, false);

	rel = table_open(ForeignServerRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_foreign_server_srvfdw, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(fdw->fdwid));
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 1, &key);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_foreign_server srv = (Form_pg_foreign_server) GETSTRUCT(tup);
		ForeignServer *s;
		char	   *prefix;
		ObjUrl		p;
		FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
		const char *msg;
		size_t		off;
		size_t		len;

		CHECK_FOR_INTERRUPTS();
		s = GetForeignServer(srv->oid);
		prefix = option_value(s->options, "url_prefix");
		/* a server the validator accepted always parses; skip if not */
		if (prefix == NULL ||
			!objurl_parse(prefix, strlen(prefix), &a, &p, &msg, &off) ||
			!prefix_matches(&p, &t->url))
			continue;
		len = strlen(p.key) + 1;
		if (pg_foreign_server_aclcheck(srv->oid, userid, ACL_USAGE) != ACLCHECK_OK)
		{
			if (len > denied_len)
			{
				denied = pstrdup(s->servername);
				denied_len = len;
			}
			continue;
		}
		if (len > best_len)
		{
			best = srv->oid;
			best_len = len;
			tie = false;
		}
		else if (len == best_len)
			tie = true;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	if (!OidIsValid(best) && denied != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for foreign server %s", denied),
				 errdetail("Server \"%s\" of foreign-data wrapper \"%s\" serves \"%s\".",
						   denied, STORAGE_FDW_NAME, url_for_message(url)),
				 errhint("A superuser can GRANT USAGE ON FOREIGN SERVER %s.", denied)));
	if (!OidIsValid(best))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("no server of foreign-data wrapper \"%s\" serves \"%s\"",
						STORAGE_FDW_NAME, url_for_message(url)),
				 errhint("A superuser can CREATE SERVER ... FOREIGN DATA WRAPPER %s OPTIONS (url_prefix '...').",
						 STORAGE_FDW_NAME)));
	if (tie)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("more than one server of foreign-data wrapper \"%s\" has the longest url_prefix matching \"%s\"",
						STORAGE_FDW_NAME, url_for_message(url))));

	server = GetForeignServer(best);
	t->serverid = best;
	t->servername = pstrdup(server->servername);
	t->server_options = server->options;
	t->url_prefix = option_value(server->options, "url_prefix");
	t->endpoint = option_value(server->options, "endpoint");
	t->region = option_value(server->options, "region");
	t->url_style = option_value(server->options, "url_style");
	t->account = option_value(server->options, "account");
	if (t->account == NULL && t->url.account != NULL)
		t->account = pstrdup(t->url.account);

	um = find_user_mapping(userid, best);
	if (um != NULL)
	{
		t->has_mapping = true;
		t->mapping_options = um->options;
		t->key_id = option_value(um->options, "key_id");
		t->secret = option_value(um->options, "secret");
		t->session_token = option_value(um->options, "session_token");
		t->account_key = option_value(um->options, "account_key");
		t->sas_token = option_value(um->options, "sas_token");
	}
	return t;
}
