/*-------------------------------------------------------------------------
 *
 * objurl.c
 *	  Parsing object-store URLs of Delta tables (see objurl.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/objurl.c
 *
 *-------------------------------------------------------------------------
 */
#include "objurl.h"

#include <string.h>

#include "djson_scan.h"

#define ABFSS_HOST_SUFFIX ".dfs.core.windows.net"

typedef struct Parse
{
	const char *url;
	const char **errmsg;
	size_t	   *erroff;
} Parse;

static bool
fail(Parse *p, const char *msg, size_t off)
{
	*p->errmsg = msg;
	*p->erroff = off;
	return false;
}

static bool
is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/*
 * Check a bucket or container name s[0..n) at offset off: 3-63 bytes of
 * a-z 0-9 and the characters in 'extra', starting and ending with a letter
 * or digit; 'no_double' refuses two punctuation characters in a row.
 */
static bool
check_name(Parse *p, const char *s, size_t n, size_t off, const char *extra,
		   bool no_double, const char *what_msg)
{
	size_t		i;

	if (n < 3 || n > 63 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return fail(p, what_msg, off);
	for (i = 0; i < n; i++)
	{
		if (is_lower_alnum(s[i]))
			continue;
		if (strchr(extra, s[i]) == NULL || s[i] == '\0')
			return fail(p, what_msg, off + i);
		if (no_double && !is_lower_alnum(s[i - 1]))
			return fail(p, what_msg, off + i);
	}
	return true;
}

static bool
check_account(Parse *p, const char *s, size_t n, size_t off)
{
	size_t		i;

	if (n < 3 || n > 24)
		return fail(p, "storage account name must be 3 to 24 lower-case letters and digits", off);
	for (i = 0; i < n; i++)
		if (!is_lower_alnum(s[i]))
			return fail(p, "storage account name must be 3 to 24 lower-case letters and digits", off + i);
	return true;
}

/*
 * Check the key s[0..n) at offset off (no leading '/', trailing '/'
 * already removed): UTF-8, no control byte, '\', '?' or '#', no empty, "."
 * or ".." segment.
 */
static bool
check_key(Parse *p, const char *s, size_t n, size_t off)
{
	size_t		i = 0;
	size_t		seg = 0;

	if (n > OBJURL_MAX_KEY)
		return fail(p, "object key is longer than 1024 bytes", off);
	while (i <= n)
	{
		unsigned char c = i < n ? (unsigned char) s[i] : '/';

		if (c == '/')
		{
			size_t		len = i - seg;

			if (len == 0)
				return fail(p, "object key has an empty path segment", off + i);
			if ((len == 1 && s[seg] == '.') ||
				(len == 2 && s[seg] == '.' && s[seg + 1] == '.'))
				return fail(p, "object key has a \".\" or \"..\" path segment", off + seg);
			seg = i + 1;
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			return fail(p, "URL contains a control character", off + i);
		if (c == '?' || c == '#')
			return fail(p, "URL has a query string or fragment (\"?\" or \"#\"), which is not accepted", off + i);
		if (c == '\\')
			return fail(p, "URL contains a backslash", off + i);
		if (c >= 0x80)
		{
			size_t		l = dj_utf8_seq_len((const unsigned char *) s + i, n - i);

			if (l == 0)
				return fail(p, "object key is not valid UTF-8", off + i);
			i += l;
			continue;
		}
		i++;
	}
	return true;
}

const char *
objurl_scheme_name(ObjUrlScheme scheme)
{
	switch (scheme)
	{
		case OBJURL_S3:
			return "s3";
		case OBJURL_GS:
			return "gs";
		case OBJURL_AZ:
			return "az";
		case OBJURL_ABFSS:
			return "abfss";
	}
	return "?";
}

bool
objurl_parse(const char *url, size_t len, const FmtAllocator *a,
			 ObjUrl *out, const char **errmsg, size_t *erroff)
{
	static const struct
	{
		const char *prefix;
		ObjUrlScheme scheme;
	}			schemes[] = {
		{"s3://", OBJURL_S3}, {"gs://", OBJURL_GS}, {"az://", OBJURL_AZ},
		{"abfss://", OBJURL_ABFSS}
	};
	Parse		p = {url, errmsg, erroff};
	size_t		start = 0;
	size_t		auth_end;
	size_t		at;
	size_t		key_end;
	size_t		i;
	bool		found = false;

	memset(out, 0, sizeof(*out));
	if (len > OBJURL_MAX_URL)
		return fail(&p, "URL is longer than 2048 bytes", OBJURL_MAX_URL);
	if (memchr(url, '\0', len) != NULL)
		return fail(&p, "URL contains a NUL byte", (const char *) memchr(url, '\0', len) - url);
	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
	{
		size_t		pl = strlen(schemes[i].prefix);

		if (len >= pl && memcmp(url, schemes[i].prefix, pl) == 0)
		{
			out->scheme = schemes[i].scheme;
			start = pl;
			found = true;
			break;
		}
	}
	if (!found)
		return fail(&p, "URL scheme is not one of s3://, gs://, az://, abfss://", 0);

	/* the authority: up to the first '/', or the end */
	auth_end = start;
	while (auth_end < len && url[auth_end] != '/')
		auth_end++;
	at = start;
	while (at < auth_end && url[at] != '@')
		at++;

	if (out->scheme == OBJURL_S3 || out->scheme == OBJURL_GS)
	{
		if (at < auth_end)
			return fail(&p, "bucket name contains \"@\"", at);
		if (!check_name(&p, url + start, auth_end - start, start,
						out->scheme == OBJURL_GS ? ".-_" : ".-", false,
						out->scheme == OBJURL_GS
						? "bucket name must be 3 to 63 of a-z, 0-9, \".\", \"-\", \"_\", starting and ending with a letter or digit"
						: "bucket name must be 3 to 63 of a-z, 0-9, \".\", \"-\", starting and ending with a letter or digit"))
			return false;
	}
	else
	{
		const char *cmsg = "container name must be 3 to 63 of a-z, 0-9 and single \"-\", starting and ending with a letter or digit";

		if (out->scheme == OBJURL_ABFSS && at == auth_end)
			return fail(&p, "abfss:// URL has no \"container@account.dfs.core.windows.net\"", start);
		if (!check_name(&p, url + start, at - start, start, "-", true, cmsg))
			return false;
		if (at < auth_end)
		{
			size_t		acc = at + 1;
			size_t		acc_end = auth_end;

			if (out->scheme == OBJURL_ABFSS)
			{
				size_t		sl = strlen(ABFSS_HOST_SUFFIX);

				acc_end = acc;
				while (acc_end < auth_end && url[acc_end] != '.')
					acc_end++;
				if (auth_end - acc_end != sl ||
					memcmp(url + acc_end, ABFSS_HOST_SUFFIX, sl) != 0)
					return fail(&p, "abfss:// host is not <account>.dfs.core.windows.net", acc_end);
			}
			if (!check_account(&p, url + acc, acc_end - acc, acc))
				return false;
			out->account = fmt_strndup(a, url + acc, acc_end - acc);
			if (out->account == NULL)
				return fail(&p, "out of memory", 0);
		}
	}
	out->bucket = fmt_strndup(a, url + start, at - start);
	if (out->bucket == NULL)
		return fail(&p, "out of memory", 0);

	/* the key: after the '/', without one trailing '/' */
	start = auth_end < len ? auth_end + 1 : len;
	key_end = len;
	if (key_end > start + 1 && url[key_end - 1] == '/')
		key_end--;
	if (key_end > start && !check_key(&p, url + start, key_end - start, start))
		return false;
	out->key = fmt_strndup(a, url + start, key_end - start);
	if (out->key == NULL)
		return fail(&p, "out of memory", 0);
	return true;
}
