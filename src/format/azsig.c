/*-------------------------------------------------------------------------
 *
 * azsig.c
 *	  Azure Storage Shared Key signatures (see azsig.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/azsig.c
 *
 *-------------------------------------------------------------------------
 */
#define _POSIX_C_SOURCE 200809L

#include "azsig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* The standard headers of the string to sign, in its order. */
static const char *const std_headers[] = {
	"content-encoding", "content-language", "content-length", "content-md5",
	"content-type", "date", "if-modified-since", "if-match", "if-none-match",
	"if-unmodified-since", "range"
};

typedef struct Lowered
{
	char	   *name;			/* lowercased copy */
	const char *value;
} Lowered;

static int
cmp_lowered(const void *a, const void *b)
{
	return strcmp(((const Lowered *) a)->name, ((const Lowered *) b)->name);
}

static char *
lowered_copy(const char *s, const FmtAllocator *a)
{
	size_t		n = strlen(s);
	char	   *r = fmt_alloc_raw(a, n + 1);
	size_t		i;

	if (r == NULL)
		return NULL;
	for (i = 0; i <= n; i++)
		r[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char) (s[i] - 'A' + 'a') : s[i];
	return r;
}

static bool
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* Append value trimmed, inner white-space runs folded to one space. */
static char *
put_folded(char *o, const char *v)
{
	bool		space = false;
	bool		any = false;

	for (; *v; v++)
	{
		if (*v == ' ' || *v == '\t')
		{
			space = any;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		any = true;
		*o++ = *v;
	}
	return o;
}

static char *
put_str(char *o, const char *s)
{
	size_t		n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

/*
 * Sort a copy of pairs by lowercased name; false on a name given twice
 * (or memory).
 */
static Lowered *
sorted_pairs(const AzPair *p, int n, const FmtAllocator *a, const char **errmsg)
{
	Lowered    *l = fmt_alloc(a, sizeof(Lowered) * (size_t) (n > 0 ? n : 1));
	int			i;

	if (l == NULL)
	{
		*errmsg = "out of memory";
		return NULL;
	}
	for (i = 0; i < n; i++)
	{
		l[i].name = lowered_copy(p[i].name, a);
		l[i].value = p[i].value ? p[i].value : "";
		if (l[i].name == NULL)
		{
			*errmsg = "out of memory";
			return NULL;
		}
		if (has_control(l[i].value) || has_control(l[i].name) || l[i].name[0] == '\0')
		{
			*errmsg = "control character or empty name in a header or query parameter";
			return NULL;
		}
	}
	if (n > 1)
		qsort(l, (size_t) n, sizeof(Lowered), cmp_lowered);
	for (i = 1; i < n; i++)
		if (strcmp(l[i - 1].name, l[i].name) == 0)
		{
			*errmsg = "a header or query parameter is given twice";
			return NULL;
		}
	return l;
}

static bool
decode_key(const char *key, unsigned char **out, size_t *outlen,
		   const FmtAllocator *a)
{
	size_t		n = strlen(key);
	size_t		i;
	int			pad = 0;
	int			got;

	if (n == 0 || n % 4 != 0)
		return false;
	for (i = 0; i < n; i++)
	{
		char		c = key[i];

		if (c == '=')
		{
			if (i < n - 2)
				return false;
			pad++;
		}
		else if (pad > 0 ||
				 !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
				   (c >= '0' && c <= '9') || c == '+' || c == '/'))
			return false;
	}
	*out = fmt_alloc_raw(a, n / 4 * 3 + 1);
	if (*out == NULL)
		return false;
	got = EVP_DecodeBlock(*out, (const unsigned char *) key, (int) n);
	if (got < pad)
		return false;
	*outlen = (size_t) got - (size_t) pad;
	return true;
}

bool
azsig_sign(const AzSignRequest *req, const char *account_key,
		   const FmtAllocator *a, char **authorization, char **string_to_sign,
		   const char **errmsg)
{
	Lowered    *h;
	Lowered    *q;
	size_t		cap;
	char	   *sts;
	char	   *o;
	int			i;
	size_t		k;
	unsigned char *key;
	size_t		keylen = 0;
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;
	char	   *auth;
	bool		ok;

	if (req->path == NULL || req->path[0] != '/' || has_control(req->path) ||
		req->account == NULL || req->account[0] == '\0' ||
		has_control(req->account) || has_control(req->method))
	{
		*errmsg = "invalid method, account or path";
		return false;
	}
	h = sorted_pairs(req->headers, req->nheaders, a, errmsg);
	if (h == NULL)
		return false;
	q = sorted_pairs(req->query, req->nquery, a, errmsg);
	if (q == NULL)
		return false;

	cap = strlen(req->method) + strlen(req->account) + strlen(req->path) + 64;
	for (i = 0; i < req->nheaders; i++)
		cap += strlen(h[i].name) + strlen(h[i].value) + 2;
	for (i = 0; i < req->nquery; i++)
		cap += strlen(q[i].name) + strlen(q[i].value) + 2;
	sts = fmt_alloc_raw(a, cap);
	if (sts == NULL)
	{
		*errmsg = "out of memory";
		return false;
	}
	o = put_str(sts, req->method);
	*o++ = '\n';
	for (k = 0; k < sizeof(std_headers) / sizeof(std_headers[0]); k++)
	{
		for (i = 0; i < req->nheaders; i++)
			if (strcmp(h[i].name, std_headers[k]) == 0)
			{
				/* a Content-Length of 0 is signed as "" */
				if (!(k == 2 && strcmp(h[i].value, "0") == 0))
					o = put_folded(o, h[i].value);
				break;
			}
		*o++ = '\n';
	}
	for (i = 0; i < req->nheaders; i++)
	{
		if (strncmp(h[i].name, "x-ms-", 5) != 0)
			continue;
		o = put_str(o, h[i].name);
		*o++ = ':';
		o = put_folded(o, h[i].value);
		*o++ = '\n';
	}
	*o++ = '/';
	o = put_str(o, req->account);
	o = put_str(o, req->path);
	for (i = 0; i < req->nquery; i++)
	{
		*o++ = '\n';
		o = put_str(o, q[i].name);
		*o++ = ':';
		o = put_str(o, q[i].value);
	}
	*o = '\0';

	if (!decode_key(account_key, &key, &keylen, a))
	{
		*errmsg = "the account key is not base64";
		return false;
	}
	ok = HMAC(EVP_sha256(), key, (int) keylen, (const unsigned char *) sts,
			  strlen(sts), mac, &maclen) != NULL && maclen == 32;
	OPENSSL_cleanse(key, keylen);
	if (!ok)
	{
		*errmsg = "HMAC-SHA256 failed in libcrypto";
		return false;
	}
	auth = fmt_alloc_raw(a, strlen(req->account) + 16 + 48);
	if (auth == NULL)
	{
		*errmsg = "out of memory";
		return false;
	}
	o = put_str(auth, "SharedKey ");
	o = put_str(o, req->account);
	*o++ = ':';
	EVP_EncodeBlock((unsigned char *) o, mac, 32);
	OPENSSL_cleanse(mac, sizeof(mac));
	*authorization = auth;
	*string_to_sign = sts;
	return true;
}

bool
azsig_format_date(long long t, char out[AZSIG_DATE_LEN + 1])
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t		tt = (time_t) t;
	struct tm	tm;
	char		buf[64];
	int			n;

	if (gmtime_r(&tt, &tm) == NULL || tm.tm_year + 1900 > 9999 ||
		tm.tm_year + 1900 < 0)
		return false;
	n = snprintf(buf, sizeof(buf), "%s, %02d %s %04d %02d:%02d:%02d GMT",
				 days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
				 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (n != AZSIG_DATE_LEN)
		return false;
	memcpy(out, buf, AZSIG_DATE_LEN + 1);
	return true;
}
