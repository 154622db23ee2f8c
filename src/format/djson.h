/*-------------------------------------------------------------------------
 *
 * djson.h
 *	  An exact, bounded JSON parser for Delta log lines and statistics.
 *
 * Why not json-c: it clamps integers above 2^64 without complaint (a
 * decimal(38) statistic would silently change), allocates with malloc (a
 * parsed tree leaks when the backend raises an ERROR), and is slower than
 * the performance targets allow.  djson instead
 *   - keeps every number as its exact source text (callers convert it with
 *     the helpers below, which fail rather than round or clamp),
 *   - allocates only from a caller-supplied FmtAllocator,
 *   - validates UTF-8 and rejects \u0000 (PostgreSQL text cannot hold it),
 *   - bounds nesting depth, and
 *   - returns errors (with the byte offset) instead of raising them.
 *
 * Duplicate object keys are kept in order; dj_get returns the last one, as
 * JSON parsers on the JVM (Jackson, used by Delta Spark) do.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/djson.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DJSON_H
#define DELTACC_DJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt_alloc.h"

typedef enum DjType
{
	DJ_NULL = 0,
	DJ_FALSE,
	DJ_TRUE,
	DJ_NUMBER,
	DJ_STRING,
	DJ_ARRAY,
	DJ_OBJECT
} DjType;

typedef struct DjValue DjValue;
typedef struct DjMember DjMember;

struct DjValue
{
	DjType		type;
	uint32_t	len;			/* DJ_STRING: bytes (no NUL counted);
								 * DJ_NUMBER: bytes of the token; DJ_ARRAY:
								 * elements; DJ_OBJECT: members */
	union
	{
		const char *str;		/* DJ_STRING: decoded UTF-8, NUL-terminated */
		const char *num;		/* DJ_NUMBER: exact token text,
								 * NUL-terminated */
		DjValue    *items;		/* DJ_ARRAY */
		DjMember   *members;	/* DJ_OBJECT */
	}			u;
};

struct DjMember
{
	const char *key;			/* decoded UTF-8, NUL-terminated */
	uint32_t	keylen;
	DjValue		value;
};

typedef struct DjError
{
	size_t		offset;			/* byte offset in the input where it failed */
	char		message[128];	/* lower-case phrase, no trailing period */
} DjError;

#define DJ_DEFAULT_MAX_DEPTH 64

/*
 * Parse exactly one JSON value from buf[0..len) (leading and trailing
 * white space allowed, nothing else).  The input need not be
 * NUL-terminated.  On success fills *out and returns true; all memory hangs
 * off the allocator.  On failure returns false and fills *err.
 */
extern bool dj_parse(const char *buf, size_t len, const FmtAllocator *alloc,
					 int max_depth, DjValue *out, DjError *err);

/* Object member lookup (last duplicate wins); NULL if absent or not an object. */
extern const DjValue *dj_get(const DjValue *obj, const char *key);

/* Case-insensitive (ASCII) member lookup, last match wins. */
extern const DjValue *dj_get_ci(const DjValue *obj, const char *key);

/*
 * Exact conversions of a DJ_NUMBER.  dj_to_int64 fails (returns false) on a
 * fraction, an exponent that leaves a fraction, or a value outside int64;
 * it never rounds or clamps.  dj_to_double converts with strtod semantics
 * (callers that need exactness must use the token text).
 */
extern bool dj_to_int64(const DjValue *v, int64_t *result);
extern bool dj_to_double(const DjValue *v, double *result);

/*
 * Whether two trees are the same: types, lengths, string and number bytes,
 * member keys and order (not JSON equality: 1.0 and 1 differ, so do
 * objects whose members come in another order).  Recursion as deep as the
 * trees, which dj_parse bounds.
 */
extern bool dj_equal(const DjValue *a, const DjValue *b);

/* Short name of a type, for error messages ("object", "string", ...). */
extern const char *dj_type_name(DjType type);

#endif							/* DELTACC_DJSON_H */
