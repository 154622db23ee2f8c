/*-------------------------------------------------------------------------
 *
 * sigv4.c
 *	  AWS Signature Version 4 for S3 requests, over OpenSSL's libcrypto.
 *
 * See sigv4.h for the canonicalisation rules.  Every string is built in a
 * growable buffer on the caller's FmtAllocator; nothing is freed one by one.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sigv4.c
 *
 *-------------------------------------------------------------------------
 */
#define _POSIX_C_SOURCE 200809L

#include "sigv4.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* Bound on the number of query parameters and headers of one request. */
#define SIGV4_MAX_PAIRS 64

static const char hexdigits_upper[] = "0123456789ABCDEF";
static const char hexdigits_lower[] = "0123456789abcdef";

/* A string under construction on an FmtAllocator. */
typedef struct SBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
	const FmtAllocator *a;
	bool		failed;
} SBuf;

static void
sb_init(SBuf *b, const FmtAllocator *a)
{
	b->a = a;
	b->len = 0;
	b->cap = 256;
	b->failed = false;
	b->data = fmt_alloc_raw(a, b->cap);
	if (b->data == NULL)
		b->failed = true;
	else
		b->data[0] = '\0';
}

static void
sb_add(SBuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap)
	{
		size_t		cap = b->cap;
		char	   *p;

		while (b->len + n + 1 > cap)
		{
			if (cap > ((size_t) 1 << 30))
			{
				b->failed = true;
				return;
			}
			cap *= 2;
		}
		p = fmt_alloc_raw(b->a, cap);
		if (p == NULL)
		{
			b->failed = true;
			return;
		}
		memcpy(p, b->data, b->len);
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void
sb_str(SBuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void
sb_char(SBuf *b, char c)
{
	sb_add(b, &c, 1);
}

static bool
is_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		(c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~';
}

static void
sb_uri_encode(SBuf *b, const char *s, size_t len, bool keep_slash)
{
	size_t		i;

	for (i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (is_unreserved(c) || (keep_slash && c == '/'))
			sb_char(b, (char) c);
		else
		{
			char		esc[3];

			esc[0] = '%';
			esc[1] = hexdigits_upper[c >> 4];
			esc[2] = hexdigits_upper[c & 15];
			sb_add(b, esc, 3);
		}
	}
}

char *
sigv4_uri_encode(const char *s, size_t len, bool keep_slash, const FmtAllocator *a)
{
	SBuf		b;

	sb_init(&b, a);
	sb_uri_encode(&b, s, len, keep_slash);
	return b.failed ? NULL : b.data;
}

static void
to_hex(const unsigned char *bytes, size_t n, char *out)
{
	size_t		i;

	for (i = 0; i < n; i++)
	{
		out[2 * i] = hexdigits_lower[bytes[i] >> 4];
		out[2 * i + 1] = hexdigits_lower[bytes[i] & 15];
	}
	out[2 * n] = '\0';
}

void
sigv4_sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
	{
		/* libcrypto cannot fail here short of a broken install */
		memset(md, 0, sizeof(md));
		mdlen = 32;
	}
	to_hex(md, 32, out);
}

/* HMAC-SHA256 of msg with key into out[32]; false on a libcrypto failure. */
static bool
hmac256(const unsigned char *key, size_t keylen, const char *msg, size_t msglen,
		unsigned char out[32])
{
	unsigned int outlen = 0;

	if (HMAC(EVP_sha256(), key, (int) keylen, (const unsigned char *) msg,
			 msglen, out, &outlen) == NULL || outlen != 32)
		return false;
	return true;
}

bool
sigv4_format_date(time_t t, char out[SIGV4_DATE_LEN + 1])
{
	struct tm	tm;

	if (gmtime_r(&t, &tm) == NULL)
		return false;
	return strftime(out, SIGV4_DATE_LEN + 1, "%Y%m%dT%H%M%SZ", &tm) == SIGV4_DATE_LEN;
}

static bool
valid_date(const char *d)
{
	int			i;

	if (d == NULL || strlen(d) != SIGV4_DATE_LEN)
		return false;
	for (i = 0; i < SIGV4_DATE_LEN; i++)
	{
		char		c = d[i];

		if (i == 8 ? c != 'T' : i == 15 ? c != 'Z' : (c < '0' || c > '9'))
			return false;
	}
	return true;
}

/* A scope part (region, service): non-empty, no '/', no control or space. */
static bool
valid_token(const char *s)
{
	if (s == NULL || *s == '\0')
		return false;
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (c <= ' ' || c >= 127 || c == '/' || c == ',' || c == '=')
			return false;
	}
	return true;
}

/* A header value may hold no control character (CR/LF would split it). */
static bool
valid_header_value(const char *s)
{
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if ((c < ' ' && c != '\t') || c == 127)
			return false;
	}
	return true;
}

/* RFC 9110 token characters, the only ones a header name may have. */
static bool
valid_header_name(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			  (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c) != NULL))
			return false;
	}
	return true;
}

typedef struct CanonPair
{
	char	   *name;
	char	   *value;
} CanonPair;

static int
canon_pair_cmp(const void *x, const void *y)
{
	const CanonPair *p = x;
	const CanonPair *q = y;
	int			c = strcmp(p->name, q->name);

	return c != 0 ? c : strcmp(p->value, q->value);
}

/* Lower-cased name, value trimmed with inner runs of blanks folded. */
static bool
canon_header(const char *name, const char *value, const FmtAllocator *a, CanonPair *out)
{
	SBuf		n;
	SBuf		v;
	const char *s;
	const char *end;
	bool		blank = false;

	sb_init(&n, a);
	for (s = name; *s; s++)
		sb_char(&n, (*s >= 'A' && *s <= 'Z') ? (char) (*s - 'A' + 'a') : *s);
	sb_init(&v, a);
	s = value ? value : "";
	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (; s < end; s++)
	{
		if (*s == ' ' || *s == '\t')
			blank = true;
		else
		{
			if (blank)
				sb_char(&v, ' ');
			blank = false;
			sb_char(&v, *s);
		}
	}
	if (n.failed || v.failed)
		return false;
	out->name = n.data;
	out->value = v.data;
	return true;
}

static bool
reserved_header(const char *lname)
{
	return strcmp(lname, "host") == 0 || strcmp(lname, "x-amz-date") == 0 ||
		strcmp(lname, "x-amz-content-sha256") == 0 ||
		strcmp(lname, "x-amz-security-token") == 0 ||
		strcmp(lname, "authorization") == 0;
}

bool
sigv4_sign(const SigV4Request *req, const char *key_id, const char *secret,
		   const FmtAllocator *a, SigV4Result *out, const char **errmsg)
{
	CanonPair	query[SIGV4_MAX_PAIRS];
	CanonPair	headers[SIGV4_MAX_PAIRS + 4];
	int			nh = 0;
	int			i;
	SBuf		b;
	SBuf		sh;
	char		hash[65];
	char		date[9];
	unsigned char k1[32];
	unsigned char k2[32];
	unsigned char sig[32];
	unsigned char *kbuf;
	size_t		klen;
	bool		ok;

	memset(out, 0, sizeof(*out));
	*errmsg = NULL;

	/* the inputs */
	if (req->method == NULL || *req->method == '\0')
	{
		*errmsg = "request method is empty";
		return false;
	}
	for (i = 0; req->method[i]; i++)
		if (req->method[i] < 'A' || req->method[i] > 'Z')
		{
			*errmsg = "request method is not upper-case letters";
			return false;
		}
	if (req->path == NULL || req->path[0] != '/')
	{
		*errmsg = "request path does not start with \"/\"";
		return false;
	}
	if (req->host == NULL || *req->host == '\0' || !valid_header_value(req->host) ||
		strchr(req->host, ' ') != NULL)
	{
		*errmsg = "request host is empty or holds a space or control character";
		return false;
	}
	if (!valid_date(req->amz_date))
	{
		*errmsg = "x-amz-date is not of the form YYYYMMDDTHHMMSSZ";
		return false;
	}
	if (!valid_token(req->region) || !valid_token(req->service))
	{
		*errmsg = "region or service is empty or holds a character not allowed in a credential scope";
		return false;
	}
	if (!valid_token(key_id))
	{
		*errmsg = "access key id is empty or holds a character not allowed in a credential";
		return false;
	}
	if (secret == NULL || *secret == '\0')
	{
		*errmsg = "secret access key is empty";
		return false;
	}
	if (req->payload_hash == NULL ||
		(strcmp(req->payload_hash, SIGV4_UNSIGNED_PAYLOAD) != 0 &&
		 (strlen(req->payload_hash) != 64 ||
		  strspn(req->payload_hash, hexdigits_lower) != 64)))
	{
		*errmsg = "payload hash is neither 64 lower-case hex digits nor UNSIGNED-PAYLOAD";
		return false;
	}
	if (req->session_token != NULL &&
		(*req->session_token == '\0' || !valid_header_value(req->session_token)))
	{
		*errmsg = "session token is empty or holds a control character";
		return false;
	}
	if (req->nquery < 0 || req->nquery > SIGV4_MAX_PAIRS ||
		req->nheaders < 0 || req->nheaders > SIGV4_MAX_PAIRS)
	{
		*errmsg = "too many query parameters or headers";
		return false;
	}

	/* the encoded path and the canonical query string */
	out->encoded_path = sigv4_uri_encode(req->path, strlen(req->path), true, a);
	for (i = 0; i < req->nquery; i++)
	{
		const char *v = req->query[i].value ? req->query[i].value : "";

		if (req->query[i].name == NULL || req->query[i].name[0] == '\0')
		{
			*errmsg = "query parameter without a name";
			return false;
		}
		query[i].name = sigv4_uri_encode(req->query[i].name,
										 strlen(req->query[i].name), false, a);
		query[i].value = sigv4_uri_encode(v, strlen(v), false, a);
		if (query[i].name == NULL || query[i].value == NULL)
			goto oom;
	}
	if (out->encoded_path == NULL)
		goto oom;
	qsort(query, req->nquery, sizeof(CanonPair), canon_pair_cmp);
	sb_init(&b, a);
	for (i = 0; i < req->nquery; i++)
	{
		if (i > 0)
			sb_char(&b, '&');
		sb_str(&b, query[i].name);
		sb_char(&b, '=');
		sb_str(&b, query[i].value);
	}
	if (b.failed)
		goto oom;
	out->query_string = b.data;

	/* the headers */
	if (!canon_header("host", req->host, a, &headers[nh++]) ||
		!canon_header("x-amz-date", req->amz_date, a, &headers[nh++]))
		goto oom;
	if (req->sign_content_sha256 &&
		!canon_header("x-amz-content-sha256", req->payload_hash, a, &headers[nh++]))
		goto oom;
	if (req->session_token != NULL &&
		!canon_header("x-amz-security-token", req->session_token, a, &headers[nh++]))
		goto oom;
	for (i = 0; i < req->nheaders; i++)
	{
		const SigV4Pair *h = &req->headers[i];
		int			j;

		if (h->name == NULL || !valid_header_name(h->name))
		{
			*errmsg = "header name is empty or holds a character not allowed in a header name";
			return false;
		}
		if (h->value != NULL && !valid_header_value(h->value))
		{
			*errmsg = "header value holds a control character";
			return false;
		}
		if (!canon_header(h->name, h->value, a, &headers[nh]))
			goto oom;
		if (reserved_header(headers[nh].name))
		{
			*errmsg = "a header the signer sets itself was passed among the headers";
			return false;
		}
		for (j = 0; j < nh; j++)
			if (strcmp(headers[j].name, headers[nh].name) == 0)
			{
				*errmsg = "header named twice";
				return false;
			}
		nh++;
	}
	qsort(headers, nh, sizeof(CanonPair), canon_pair_cmp);

	/* the canonical request */
	sb_init(&b, a);
	sb_init(&sh, a);
	sb_str(&b, req->method);
	sb_char(&b, '\n');
	sb_str(&b, out->encoded_path);
	sb_char(&b, '\n');
	sb_str(&b, out->query_string);
	sb_char(&b, '\n');
	for (i = 0; i < nh; i++)
	{
		sb_str(&b, headers[i].name);
		sb_char(&b, ':');
		sb_str(&b, headers[i].value);
		sb_char(&b, '\n');
		if (i > 0)
			sb_char(&sh, ';');
		sb_str(&sh, headers[i].name);
	}
	sb_char(&b, '\n');
	sb_str(&b, sh.data ? sh.data : "");
	sb_char(&b, '\n');
	sb_str(&b, req->payload_hash);
	if (b.failed || sh.failed)
		goto oom;
	out->canonical_request = b.data;
	out->signed_headers = sh.data;

	/* the string to sign */
	memcpy(date, req->amz_date, 8);
	date[8] = '\0';
	sigv4_sha256_hex(out->canonical_request, strlen(out->canonical_request), hash);
	sb_init(&b, a);
	sb_str(&b, "AWS4-HMAC-SHA256\n");
	sb_str(&b, req->amz_date);
	sb_char(&b, '\n');
	sb_str(&b, date);
	sb_char(&b, '/');
	sb_str(&b, req->region);
	sb_char(&b, '/');
	sb_str(&b, req->service);
	sb_str(&b, "/aws4_request\n");
	sb_str(&b, hash);
	if (b.failed)
		goto oom;
	out->string_to_sign = b.data;

	/*
	 * The signing key: HMAC("AWS4" + secret, date) -> region -> service ->
	 * "aws4_request".  The "AWS4" + secret buffer is wiped, and so are the
	 * intermediate keys.
	 */
	klen = 4 + strlen(secret);
	kbuf = fmt_alloc_raw(a, klen);
	if (kbuf == NULL)
		goto oom;
	memcpy(kbuf, "AWS4", 4);
	memcpy(kbuf + 4, secret, klen - 4);
	ok = hmac256(kbuf, klen, date, strlen(date), k1) &&
		hmac256(k1, 32, req->region, strlen(req->region), k2) &&
		hmac256(k2, 32, req->service, strlen(req->service), k1) &&
		hmac256(k1, 32, "aws4_request", 12, k2) &&
		hmac256(k2, 32, out->string_to_sign, strlen(out->string_to_sign), sig);
	OPENSSL_cleanse(kbuf, klen);
	OPENSSL_cleanse(k1, sizeof(k1));
	OPENSSL_cleanse(k2, sizeof(k2));
	if (!ok)
	{
		*errmsg = "HMAC-SHA256 failed in libcrypto";
		return false;
	}
	to_hex(sig, 32, out->signature);

	/* the Authorization header value */
	sb_init(&b, a);
	sb_str(&b, "AWS4-HMAC-SHA256 Credential=");
	sb_str(&b, key_id);
	sb_char(&b, '/');
	sb_str(&b, date);
	sb_char(&b, '/');
	sb_str(&b, req->region);
	sb_char(&b, '/');
	sb_str(&b, req->service);
	sb_str(&b, "/aws4_request,SignedHeaders=");
	sb_str(&b, out->signed_headers);
	sb_str(&b, ",Signature=");
	sb_str(&b, out->signature);
	if (b.failed)
		goto oom;
	out->authorization = b.data;
	return true;

oom:
	*errmsg = "out of memory while signing a request";
	return false;
}
