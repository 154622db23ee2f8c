/*-------------------------------------------------------------------------
 *
 * objxml.c
 *	  A small strict XML reader for object-store listings and error
 *	  documents (see objxml.h for the subset accepted).
 *
 * The walk keeps two buffers sized from the document itself (a path of
 * element names and the character data of the open elements), so its
 * memory is bounded by twice the input's length whatever the input is.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/objxml.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "objxml.h"

typedef struct XmlWalk
{
	const char *s;
	size_t		len;
	size_t		pos;
	char	   *path;			/* names joined by '/' */
	size_t		path_len;
	char	   *text;			/* direct text of the open elements, each
								 * after its parent's */
	size_t		text_len;
	int			depth;
	size_t		path_at[OBJXML_MAX_DEPTH + 1];	/* path_len before each
												 * element's name */
	size_t		text_at[OBJXML_MAX_DEPTH + 1];	/* text_len when it opened */
	size_t		name_len[OBJXML_MAX_DEPTH + 1];
	bool		root_done;
} XmlWalk;

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool
starts(const XmlWalk *w, const char *lit)
{
	size_t		n = strlen(lit);

	return w->len - w->pos >= n && memcmp(w->s + w->pos, lit, n) == 0;
}

/* Position of 'lit' at or after w->pos, or (size_t) -1. */
static size_t
find(const XmlWalk *w, const char *lit)
{
	size_t		n = strlen(lit);
	size_t		i;

	if (w->len - w->pos < n)
		return (size_t) -1;
	for (i = w->pos; i + n <= w->len; i++)
		if (w->s[i] == lit[0] && memcmp(w->s + i, lit, n) == 0)
			return i;
	return (size_t) -1;
}

static bool
is_name_char(char c)
{
	return !(is_space(c) || c == '/' || c == '>' || c == '<' || c == '=' ||
			 c == '"' || c == '\'' || c == '&' || c == '\0');
}

/* Append a code point as UTF-8 to the text buffer. */
static void
put_utf8(XmlWalk *w, uint32_t cp)
{
	char	   *o = w->text + w->text_len;

	if (cp < 0x80)
		o[0] = (char) cp, w->text_len += 1;
	else if (cp < 0x800)
	{
		o[0] = (char) (0xC0 | (cp >> 6));
		o[1] = (char) (0x80 | (cp & 0x3F));
		w->text_len += 2;
	}
	else if (cp < 0x10000)
	{
		o[0] = (char) (0xE0 | (cp >> 12));
		o[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char) (0x80 | (cp & 0x3F));
		w->text_len += 3;
	}
	else
	{
		o[0] = (char) (0xF0 | (cp >> 18));
		o[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
		o[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
		o[3] = (char) (0x80 | (cp & 0x3F));
		w->text_len += 4;
	}
}

static bool
is_xml_char(uint32_t cp)
{
	return cp == 0x9 || cp == 0xA || cp == 0xD ||
		(cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
		(cp >= 0x10000 && cp <= 0x10FFFF);
}

/*
 * Decode the reference at w->pos ('&') into the text buffer.  A reference
 * is never longer than its UTF-8 result, so the buffer (sized from the
 * input) always has room.
 */
static bool
decode_reference(XmlWalk *w, const char **errmsg)
{
	static const struct
	{
		const char *name;
		char		c;
	}			named[] = {
		{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}
	};
	size_t		i;

	w->pos++;					/* '&' */
	if (w->pos < w->len && w->s[w->pos] == '#')
	{
		uint32_t	cp = 0;
		bool		hex = false;
		int			digits = 0;

		w->pos++;
		if (w->pos < w->len && w->s[w->pos] == 'x')
		{
			hex = true;
			w->pos++;
		}
		while (w->pos < w->len && w->s[w->pos] != ';')
		{
			char		c = w->s[w->pos];
			int			d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (hex && c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (hex && c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
			{
				*errmsg = "invalid character reference";
				return false;
			}
			if (++digits > 8)
			{
				*errmsg = "invalid character reference";
				return false;
			}
			cp = cp * (hex ? 16 : 10) + (uint32_t) d;
			w->pos++;
		}
		if (w->pos >= w->len || digits == 0 || !is_xml_char(cp))
		{
			*errmsg = "invalid character reference";
			return false;
		}
		w->pos++;				/* ';' */
		put_utf8(w, cp);
		return true;
	}
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
	{
		size_t		n = strlen(named[i].name);

		if (w->len - w->pos >= n && memcmp(w->s + w->pos, named[i].name, n) == 0)
		{
			w->pos += n;
			w->text[w->text_len++] = named[i].c;
			return true;
		}
	}
	*errmsg = "undefined entity reference";
	return false;
}

/* Character data up to the next '<' (or the end). */
static bool
read_text(XmlWalk *w, const char **errmsg)
{
	while (w->pos < w->len && w->s[w->pos] != '<')
	{
		char		c = w->s[w->pos];

		if (w->depth == 0)
		{
			if (!is_space(c))
			{
				*errmsg = "text outside the root element";
				return false;
			}
			w->pos++;
			continue;
		}
		if (c == '&')
		{
			if (!decode_reference(w, errmsg))
				return false;
			continue;
		}
		if (c == '\0')
		{
			*errmsg = "NUL byte in document";
			return false;
		}
		w->text[w->text_len++] = c;
		w->pos++;
	}
	return true;
}

/* Skip an attribute list up to '>' or "/>"; *empty tells which. */
static bool
skip_attributes(XmlWalk *w, bool *empty, const char **errmsg)
{
	for (;;)
	{
		char		q;

		while (w->pos < w->len && is_space(w->s[w->pos]))
			w->pos++;
		if (w->pos >= w->len)
			break;
		if (w->s[w->pos] == '>')
		{
			w->pos++;
			*empty = false;
			return true;
		}
		if (starts(w, "/>"))
		{
			w->pos += 2;
			*empty = true;
			return true;
		}
		/* name = "value" */
		if (!is_name_char(w->s[w->pos]))
			break;
		while (w->pos < w->len && is_name_char(w->s[w->pos]))
			w->pos++;
		while (w->pos < w->len && is_space(w->s[w->pos]))
			w->pos++;
		if (w->pos >= w->len || w->s[w->pos] != '=')
			break;
		w->pos++;
		while (w->pos < w->len && is_space(w->s[w->pos]))
			w->pos++;
		if (w->pos >= w->len || (w->s[w->pos] != '"' && w->s[w->pos] != '\''))
			break;
		q = w->s[w->pos++];
		while (w->pos < w->len && w->s[w->pos] != q)
		{
			if (w->s[w->pos] == '<' || w->s[w->pos] == '\0')
			{
				*errmsg = "invalid attribute value";
				return false;
			}
			w->pos++;
		}
		if (w->pos >= w->len)
			break;
		w->pos++;
	}
	*errmsg = "malformed start tag";
	return false;
}

/* The name at w->pos: its start and length, namespace prefix dropped. */
static bool
read_name(XmlWalk *w, const char **name, size_t *name_len, const char **errmsg)
{
	size_t		start = w->pos;
	size_t		i;

	while (w->pos < w->len && is_name_char(w->s[w->pos]))
		w->pos++;
	if (w->pos == start)
	{
		*errmsg = "missing element name";
		return false;
	}
	*name = w->s + start;
	*name_len = w->pos - start;
	for (i = *name_len; i > 0; i--)
		if ((*name)[i - 1] == ':')
		{
			*name += i;
			*name_len -= i;
			break;
		}
	if (*name_len == 0)
	{
		*errmsg = "missing element name";
		return false;
	}
	return true;
}

/* Close the innermost element: call back and pop it. */
static bool
close_element(XmlWalk *w, ObjXmlElementFn cb, void *arg, const char **errmsg)
{
	int			d = w->depth;
	bool		ok;

	w->path[w->path_len] = '\0';
	w->text[w->text_len] = '\0';
	ok = cb(arg, w->path, w->path_len, d, w->text + w->text_at[d],
			w->text_len - w->text_at[d], errmsg);
	if (!ok)
		return false;
	w->path_len = w->path_at[d];
	w->text_len = w->text_at[d];
	w->depth--;
	if (w->depth == 0)
		w->root_done = true;
	return true;
}

bool
objxml_walk(const char *xml, size_t len, const FmtAllocator *a,
			ObjXmlElementFn cb, void *arg, const char **errmsg)
{
	XmlWalk		w;

	memset(&w, 0, sizeof(w));
	w.s = xml;
	w.len = len;
	w.path = fmt_alloc_raw(a, len + 2);
	w.text = fmt_alloc_raw(a, len + 1);
	if (w.path == NULL || w.text == NULL)
	{
		*errmsg = "out of memory";
		return false;
	}
	if (len >= 3 && memcmp(xml, "\xEF\xBB\xBF", 3) == 0)
		w.pos = 3;
	while (w.pos < w.len)
	{
		if (w.s[w.pos] != '<')
		{
			if (!read_text(&w, errmsg))
				return false;
			continue;
		}
		if (starts(&w, "<?"))
		{
			size_t		e = find(&w, "?>");

			if (e == (size_t) -1)
			{
				*errmsg = "unterminated processing instruction";
				return false;
			}
			w.pos = e + 2;
		}
		else if (starts(&w, "<!--"))
		{
			size_t		e;

			w.pos += 4;
			e = find(&w, "-->");
			if (e == (size_t) -1)
			{
				*errmsg = "unterminated comment";
				return false;
			}
			w.pos = e + 3;
		}
		else if (starts(&w, "<![CDATA["))
		{
			size_t		e;

			if (w.depth == 0)
			{
				*errmsg = "text outside the root element";
				return false;
			}
			w.pos += 9;
			e = find(&w, "]]>");
			if (e == (size_t) -1)
			{
				*errmsg = "unterminated CDATA section";
				return false;
			}
			if (memchr(w.s + w.pos, '\0', e - w.pos) != NULL)
			{
				*errmsg = "NUL byte in document";
				return false;
			}
			memcpy(w.text + w.text_len, w.s + w.pos, e - w.pos);
			w.text_len += e - w.pos;
			w.pos = e + 3;
		}
		else if (starts(&w, "<!"))
		{
			*errmsg = "document type declarations are not accepted";
			return false;
		}
		else if (starts(&w, "</"))
		{
			const char *name;
			size_t		nlen;

			w.pos += 2;
			if (!read_name(&w, &name, &nlen, errmsg))
				return false;
			while (w.pos < w.len && is_space(w.s[w.pos]))
				w.pos++;
			if (w.pos >= w.len || w.s[w.pos] != '>')
			{
				*errmsg = "malformed end tag";
				return false;
			}
			w.pos++;
			if (w.depth == 0 || w.name_len[w.depth] != nlen ||
				memcmp(w.path + w.path_len - nlen, name, nlen) != 0)
			{
				*errmsg = "mismatched end tag";
				return false;
			}
			if (!close_element(&w, cb, arg, errmsg))
				return false;
		}
		else
		{
			const char *name;
			size_t		nlen;
			bool		empty;

			w.pos++;
			if (w.root_done)
			{
				*errmsg = "more than one root element";
				return false;
			}
			if (w.depth == OBJXML_MAX_DEPTH)
			{
				*errmsg = "elements nested too deeply";
				return false;
			}
			if (!read_name(&w, &name, &nlen, errmsg))
				return false;
			if (!skip_attributes(&w, &empty, errmsg))
				return false;
			w.depth++;
			w.path_at[w.depth] = w.path_len;
			w.text_at[w.depth] = w.text_len;
			w.name_len[w.depth] = nlen;
			if (w.depth > 1)
				w.path[w.path_len++] = '/';
			memcpy(w.path + w.path_len, name, nlen);
			w.path_len += nlen;
			if (empty && !close_element(&w, cb, arg, errmsg))
				return false;
		}
	}
	if (w.depth != 0)
	{
		*errmsg = "unexpected end of document";
		return false;
	}
	if (!w.root_done)
	{
		*errmsg = "no root element";
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- */

typedef struct ListBuild
{
	const FmtAllocator *a;
	ObjListPage *out;
	bool		azure;
	int			cap;
	bool		root_ok;
	/* the entry being read */
	char	   *key;
	int64_t		size;
	char	   *etag;
	bool		have_size;
	bool		have_truncated;
} ListBuild;

static bool
parse_size(const char *s, size_t n, int64_t *v)
{
	int64_t		r = 0;
	size_t		i;

	if (n == 0 || n > 18)
		return false;
	for (i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		r = r * 10 + (s[i] - '0');
	}
	*v = r;
	return true;
}

static bool
path_is(const char *path, size_t path_len, const char *lit)
{
	return path_len == strlen(lit) && memcmp(path, lit, path_len) == 0;
}

static bool
list_push(ListBuild *b, const char **errmsg)
{
	ObjListPage *out = b->out;

	if (b->key == NULL)
	{
		*errmsg = b->azure ? "Blob without Name in listing" :
			"Contents without Key in listing";
		return false;
	}
	if (out->n == b->cap)
	{
		int			ncap = b->cap ? b->cap * 2 : 64;
		ObjListEntry *e;

		if (ncap > (1 << 24))
		{
			*errmsg = "too many entries in listing";
			return false;
		}
		e = fmt_alloc_raw(b->a, sizeof(ObjListEntry) * (size_t) ncap);
		if (e == NULL)
		{
			*errmsg = "out of memory";
			return false;
		}
		if (out->n > 0)
			memcpy(e, out->entries, sizeof(ObjListEntry) * (size_t) out->n);
		out->entries = e;
		b->cap = ncap;
	}
	out->entries[out->n].key = b->key;
	out->entries[out->n].size = b->have_size ? b->size : -1;
	out->entries[out->n].etag = b->etag;
	out->n++;
	b->key = NULL;
	b->etag = NULL;
	b->have_size = false;
	return true;
}

/* Set a field of the entry once; a second value is refused. */
static bool
set_once(ListBuild *b, char **field, const char *text, size_t n,
		 const char **errmsg)
{
	if (*field != NULL)
	{
		*errmsg = "duplicate element in listing entry";
		return false;
	}
	*field = fmt_strndup(b->a, text, n);
	if (*field == NULL)
	{
		*errmsg = "out of memory";
		return false;
	}
	return true;
}

static bool
set_size(ListBuild *b, const char *text, size_t n, const char **errmsg)
{
	if (b->have_size)
	{
		*errmsg = "duplicate element in listing entry";
		return false;
	}
	if (!parse_size(text, n, &b->size))
	{
		*errmsg = "invalid object size in listing";
		return false;
	}
	b->have_size = true;
	return true;
}

static bool
s3_list_cb(void *arg, const char *path, size_t path_len, int depth,
		   const char *text, size_t text_len, const char **errmsg)
{
	ListBuild  *b = (ListBuild *) arg;

	if (depth == 1)
	{
		if (!path_is(path, path_len, "ListBucketResult"))
		{
			*errmsg = "not a ListBucketResult document";
			return false;
		}
		if (b->out->truncated && b->out->next_token == NULL)
		{
			*errmsg = "truncated listing without a continuation token";
			return false;
		}
		b->root_ok = true;
		return true;
	}
	if (path_is(path, path_len, "ListBucketResult/Contents/Key"))
		return set_once(b, &b->key, text, text_len, errmsg);
	if (path_is(path, path_len, "ListBucketResult/Contents/Size"))
		return set_size(b, text, text_len, errmsg);
	if (path_is(path, path_len, "ListBucketResult/Contents/ETag"))
		return set_once(b, &b->etag, text, text_len, errmsg);
	if (path_is(path, path_len, "ListBucketResult/Contents"))
		return list_push(b, errmsg);
	if (path_is(path, path_len, "ListBucketResult/CommonPrefixes"))
	{
		b->out->n_prefixes++;
		return true;
	}
	if (path_is(path, path_len, "ListBucketResult/IsTruncated"))
	{
		if (b->have_truncated)
		{
			*errmsg = "duplicate IsTruncated in listing";
			return false;
		}
		b->have_truncated = true;
		if (text_len == 4 && memcmp(text, "true", 4) == 0)
			b->out->truncated = true;
		else if (text_len == 5 && memcmp(text, "false", 5) == 0)
			b->out->truncated = false;
		else
		{
			*errmsg = "invalid IsTruncated in listing";
			return false;
		}
		return true;
	}
	if (path_is(path, path_len, "ListBucketResult/NextContinuationToken"))
	{
		if (text_len == 0)
			return true;
		return set_once(b, &b->out->next_token, text, text_len, errmsg);
	}
	return true;
}

static bool
azure_list_cb(void *arg, const char *path, size_t path_len, int depth,
			  const char *text, size_t text_len, const char **errmsg)
{
	ListBuild  *b = (ListBuild *) arg;

	if (depth == 1)
	{
		if (!path_is(path, path_len, "EnumerationResults"))
		{
			*errmsg = "not an EnumerationResults document";
			return false;
		}
		b->root_ok = true;
		return true;
	}
	if (path_is(path, path_len, "EnumerationResults/Blobs/Blob/Name"))
		return set_once(b, &b->key, text, text_len, errmsg);
	if (path_is(path, path_len,
				"EnumerationResults/Blobs/Blob/Properties/Content-Length"))
		return set_size(b, text, text_len, errmsg);
	if (path_is(path, path_len, "EnumerationResults/Blobs/Blob/Properties/Etag"))
		return set_once(b, &b->etag, text, text_len, errmsg);
	if (path_is(path, path_len, "EnumerationResults/Blobs/Blob"))
		return list_push(b, errmsg);
	if (path_is(path, path_len, "EnumerationResults/Blobs/BlobPrefix"))
	{
		b->out->n_prefixes++;
		return true;
	}
	if (path_is(path, path_len, "EnumerationResults/NextMarker"))
	{
		if (text_len == 0)
			return true;
		if (!set_once(b, &b->out->next_token, text, text_len, errmsg))
			return false;
		b->out->truncated = true;
		return true;
	}
	return true;
}

static bool
parse_list(const char *xml, size_t len, const FmtAllocator *a,
		   ObjListPage *out, bool azure, const char **errmsg)
{
	ListBuild	b;

	memset(out, 0, sizeof(*out));
	memset(&b, 0, sizeof(b));
	b.a = a;
	b.out = out;
	b.azure = azure;
	if (!objxml_walk(xml, len, a, azure ? azure_list_cb : s3_list_cb, &b,
					 errmsg))
		return false;
	if (!b.root_ok)
	{
		*errmsg = "not a listing document";
		return false;
	}
	return true;
}

bool
objxml_parse_s3_list(const char *xml, size_t len, const FmtAllocator *a,
					 ObjListPage *out, const char **errmsg)
{
	return parse_list(xml, len, a, out, false, errmsg);
}

bool
objxml_parse_azure_list(const char *xml, size_t len, const FmtAllocator *a,
						ObjListPage *out, const char **errmsg)
{
	return parse_list(xml, len, a, out, true, errmsg);
}

typedef struct ErrorBuild
{
	const FmtAllocator *a;
	size_t		max_text;
	char	  **code;
	char	  **message;
	bool		root_ok;
} ErrorBuild;

/* text cut to at most max bytes at a UTF-8 character boundary */
static char *
copy_cut(const FmtAllocator *a, const char *s, size_t n, size_t max)
{
	if (n > max)
	{
		n = max;
		while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
			n--;
	}
	return fmt_strndup(a, s, n);
}

static bool
error_cb(void *arg, const char *path, size_t path_len, int depth,
		 const char *text, size_t text_len, const char **errmsg)
{
	ErrorBuild *b = (ErrorBuild *) arg;

	(void) errmsg;
	if (depth == 1)
	{
		b->root_ok = path_is(path, path_len, "Error");
		return true;
	}
	if (path_is(path, path_len, "Error/Code") && *b->code == NULL)
		*b->code = copy_cut(b->a, text, text_len, b->max_text);
	else if (path_is(path, path_len, "Error/Message") && *b->message == NULL)
		*b->message = copy_cut(b->a, text, text_len, b->max_text);
	return true;
}

bool
objxml_parse_error(const char *xml, size_t len, const FmtAllocator *a,
				   size_t max_text, char **code, char **message)
{
	ErrorBuild	b;
	const char *errmsg = NULL;

	*code = NULL;
	*message = NULL;
	memset(&b, 0, sizeof(b));
	b.a = a;
	b.max_text = max_text;
	b.code = code;
	b.message = message;
	if (!objxml_walk(xml, len, a, error_cb, &b, &errmsg) || !b.root_ok)
	{
		*code = NULL;
		*message = NULL;
		return false;
	}
	return true;
}
