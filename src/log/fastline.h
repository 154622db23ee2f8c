/*-------------------------------------------------------------------------
 *
 * fastline.h
 *	  Reading Delta log lines of a strict JSON subset without a parse tree.
 *
 * The full path for a log line is djson (src/format/djson.c) and then
 * DeltaDecodeAction (src/actions.c).  The scanners here accept a strict
 * SUBSET of what djson accepts and decode what they accept to exactly what
 * djson would: strings as djson takes them (UTF-8, every escape; keys the
 * scanners compare must be plain ASCII), numbers in JSON syntax of at most
 * 4096 bytes, nesting at most FL_MAX_DEPTH.  Anything outside the subset makes them
 * return false, "not provable": the caller then takes the full path, which
 * accepts the line or raises the proper error.  They never raise an
 * error, never allocate, and read only [*pp, end).
 *
 * Users: src/addline.c (add lines, lines skipped by table-action-only
 * reads), src/commit_cache.c (fl_may_name_state: the lines of a read
 * version that cannot hold its metaData or protocol) and src/snapshot.c
 * (the keys of add/remove lines during log replay).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/log/fastline.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_FASTLINE_H
#define DELTACC_FASTLINE_H

#include "port/pg_bitutils.h"

#include "format/djson_scan.h"


#define FL_MAX_DEPTH 32

/*
 * Find out whether the CPU has AVX2 (cheap after the first call); call
 * before any scanner.
 */
extern void fl_init(void);

/* Skip JSON white space; returns the first other byte (or end). */
static inline const char *
fl_skip_ws(const char *p, const char *end)
{
	return (const char *) dj_skip_ws((const unsigned char *) p,
									 (const unsigned char *) end);
}

/*
 * fl_obj_sep: skip white space after a member of an object at *pp and the
 * ',' or '}' that must follow it, advancing *pp past it; *closed tells
 * which.  False (*pp unchanged) for anything else or the end of the input.
 */
static inline bool
fl_obj_sep(const char **pp, const char *end, bool *closed)
{
	const char *p = fl_skip_ws(*pp, end);

	if (p >= end || (*p != ',' && *p != '}'))
		return false;
	*closed = (*p == '}');
	*pp = p + 1;
	return true;
}

/*
 * fl_obj_open: an object's '{' at *pp and the white space after it; when
 * the object is empty ('}' follows) *empty is set and *pp moves past the
 * '}', else *pp moves to the first key.  False (*pp unchanged) when *pp is
 * not at a '{'.
 */
static inline bool
fl_obj_open(const char **pp, const char *end, bool *empty)
{
	const char *p = *pp;

	if (p >= end || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	*empty = (p < end && *p == '}');
	*pp = *empty ? p + 1 : p;
	return true;
}

/*
 * fl_line_closes: is the rest of a log line from p white space, the '}'
 * closing the entry, white space (the entry had only one member)?
 */
static inline bool
fl_line_closes(const char *p, const char *end)
{
	p = fl_skip_ws(p, end);
	if (p >= end || *p != '}')
		return false;
	return fl_skip_ws(p + 1, end) == end;
}

/*
 * fl_plain_string: a string without escapes at *pp (the opening quote):
 * *s / *len get its bytes between the quotes (pointing into the input),
 * *pp moves past the closing quote.  False (*pp unchanged) for any other
 * string.
 */
static pg_attribute_always_inline bool
fl_plain_string(const char **pp, const char *end, const char **s, int *len)
{
	const unsigned char *start = (const unsigned char *) *pp + 1;
	const unsigned char *e = (const unsigned char *) end;
	const unsigned char *p = dj_plain_span(start, e);

	if (p >= e || *p != '"')
		return false;			/* an escape, a control or non-ASCII byte */
	*s = (const char *) start;
	*len = (int) (p - start);
	*pp = (const char *) p + 1;
	return true;
}

/*
 * fl_colon: at *pp (white space allowed) the ':' after an object member's
 * key, then the white space before its value: *pp moves to the value's
 * first byte.  False when there is no ':' or nothing follows it.
 */
static pg_attribute_always_inline bool
fl_colon(const char **pp, const char *end)
{
	const char *p = fl_skip_ws(*pp, end);

	if (p >= end || *p != ':')
		return false;
	p = fl_skip_ws(p + 1, end);
	if (p >= end)
		return false;
	*pp = p;
	return true;
}

/*
 * fl_member_key: at *pp (white space allowed) an object member's key, a
 * string without escapes, then ':' and the white space before the value:
 * *key / *kl get the key's bytes (pointing into the input), *pp the
 * value's first byte.  False for anything else (or no value follows).
 */
static pg_attribute_always_inline bool
fl_member_key(const char **pp, const char *end, const char **key, int *kl)
{
	const char *p = fl_skip_ws(*pp, end);

	if (p >= end || *p != '"' || !fl_plain_string(&p, end, key, kl) ||
		!fl_colon(&p, end))
		return false;
	*pp = p;
	return true;
}

/* Is the key of fl_member_key (variables key, kl) the literal lit? */
#define FL_KEY(lit) (kl == (int) sizeof(lit) - 1 && memcmp(key, lit, kl) == 0)

/*
 * FL_ONCE: record bit in the local 'seen' mask, or return false (not
 * provable) when it is already there: a key read twice.
 */
#define FL_ONCE(bit) \
	do { if (seen & (bit)) return false; seen |= (bit); } while (0)

/*
 * fl_skip_string: validate the string of the subset at *pp (the opening
 * quote) and move *pp past it; false: not provable.
 */
extern bool fl_skip_string(const char **pp, const char *end);

/*
 * fl_skip_value: validate one JSON value of the subset at *pp (white space
 * before it allowed), nested 'depth' levels deep, and move *pp past it;
 * false: not provable.
 */
extern bool fl_skip_value(const char **pp, const char *end, int depth);

/*
 * fl_may_name_state: false only when line[0..len) provably holds neither a
 * metaData nor a protocol action, however it parses: none of its bytes
 * spell "metaData" or "protocol", and none is a backslash followed by 'u'.
 * A JSON key decodes to one of those names only when it is written with
 * the name's bytes or with at least one \u escape (no other escape stands
 * for a letter), so a line that holds either action shows one of the
 * three wherever the key is.  True: it may (the caller decodes the line).
 * It validates nothing; a line it clears may well be malformed.
 */
extern bool fl_may_name_state(const char *line, size_t len);

/*
 * fl_plain_int: an integer token in JSON syntax of at most 18 digits (no
 * fraction, no exponent) at *pp into *out; false otherwise.  Such a token
 * is exactly what dj_to_int64 converts to the same value.
 */
extern bool fl_plain_int(const char **pp, const char *end, int64 *out);

/*
 * fl_unescape_string: validate the string at *pp (the opening quote) and
 * write its decoded bytes (djson's: escapes decoded, \u escapes as UTF-8)
 * to buf, which must hold as many bytes as remain in the input; *outlen
 * gets the decoded length (no NUL written).  False: not provable.
 */
extern bool fl_unescape_string(const char **pp, const char *end, char *buf,
							   int *outlen);

/*
 * fl_skip_flat_strings: an object whose values are all strings of the
 * subset (Delta's tags) at *pp; false (*pp unchanged) when it is not one.
 */
extern bool fl_skip_flat_strings(const char **pp, const char *end);

/*
 * A deletionVector object as decode_file (src/log/actions.c) decodes it,
 * its path still where the line holds it: path[0 .. path_len), the body
 * of a string (path_esc: with escapes or UTF-8, decode it with
 * jstr_decode; else its bytes are the path).
 */
typedef struct FlDeletionVector
{
	char		storage_type;
	const char *path;
	int			path_len;
	bool		path_esc;
	bool		has_offset;
	int32		offset;
	int32		size_in_bytes;
	int64		cardinality;
	/* where the values' tokens start (a string's: after its quote) */
	const char *at_storage_type;
	const char *at_offset;		/* NULL: no offset key */
	const char *at_size;
	const char *at_cardinality;
} FlDeletionVector;

/*
 * fl_deletion_vector: the object at *pp when it is provably a deletion
 * vector descriptor decode_file decodes without an error (storageType a
 * one-byte plain string, pathOrInlineDv a string, offset null or an int32
 * >= 0, sizeInBytes an int32 >= 0, cardinality an int64 >= 0, none twice,
 * other keys validated only): *dv filled, *pp past it.  False otherwise.
 */
extern bool fl_deletion_vector(const char **pp, const char *end,
							   FlDeletionVector *dv);

/*
 * The keys of one add or remove line, as log replay needs them (see
 * fl_file_key).  Strings are decoded, NUL-terminated, in the caller's
 * buffer.
 */
typedef struct FlFileKey
{
	bool		remove;			/* a remove, else an add */
	const char *path;			/* decoded, not empty */
	bool		has_size;
	int64		size;			/* >= 0 when has_size */
	bool		has_dv;			/* deletion vector descriptor present */
	char		dv_storage_type;
	const char *dv_path_or_inline;	/* decoded */
	bool		dv_has_offset;
	int32		dv_offset;
} FlFileKey;

/*
 * fl_file_key: when line[0..len) is provably a log entry holding exactly one
 * add or one remove action that DeltaDecodeAction (DELTA_DECODE_KEYS) would
 * decode without an error, fill *k with what it would decode (path, size,
 * the deletion vector's storage type, path and offset) and return true.
 * buf must hold len + 2 bytes; k's strings point into it.  False: not
 * provable (take the full path).  Allocates nothing.
 */
extern bool fl_file_key(const char *line, Size len, char *buf, FlFileKey *k);

#endif							/* DELTACC_FASTLINE_H */
