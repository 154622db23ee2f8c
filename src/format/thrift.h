/*-------------------------------------------------------------------------
 *
 * thrift.h
 *	  A bounded decoder for the Thrift compact protocol (Parquet metadata).
 *
 * The decoder reads from a byte range it never leaves.  Every length and
 * count is checked against the bytes that remain before it is used, nesting
 * is bounded, and the first problem is latched into the reader: after an
 * error every call returns a zero/false value, so callers may check
 * thr_failed() once at the end of a struct instead of after every field.
 * Nothing is allocated.
 *
 * Usage for a struct:
 *
 *	  int16_t last = 0;  int type;  int16_t id;
 *	  thr_struct_begin(r);
 *	  while (thr_field(r, &last, &type, &id))
 *	  {
 *		  switch (id) { case 1: x = thr_i32(r, type); break;
 *						default: thr_skip(r, type); }
 *	  }
 *	  thr_struct_end(r);
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/thrift.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_THRIFT_H
#define DELTACC_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compact protocol type codes (as they appear in field headers). */
#define THR_STOP		0
#define THR_TRUE		1
#define THR_FALSE		2
#define THR_BYTE		3
#define THR_I16			4
#define THR_I32			5
#define THR_I64			6
#define THR_DOUBLE		7
#define THR_BINARY		8
#define THR_LIST		9
#define THR_SET			10
#define THR_MAP			11
#define THR_STRUCT		12
#define THR_BOOL_ELEM	13		/* pseudo type: a bool stored as one byte
								 * (list/set/map elements) */

#define THR_DEFAULT_MAX_DEPTH 64

typedef struct ThrReader
{
	const uint8_t *p;			/* next byte */
	const uint8_t *start;
	const uint8_t *end;			/* one past the last readable byte */
	int			depth;			/* current struct/container nesting */
	int			max_depth;
	bool		failed;
	char		error[96];		/* first error, lower-case phrase */
} ThrReader;

/* Start reading buf[0..len); max_depth <= 0 means THR_DEFAULT_MAX_DEPTH. */
extern void thr_init(ThrReader *r, const uint8_t *buf, size_t len, int max_depth);

/* Latch an error (only the first one is kept); always returns false. */
extern bool thr_fail(ThrReader *r, const char *msg);

static inline bool
thr_failed(const ThrReader *r)
{
	return r->failed;
}

/* Bytes consumed so far. */
static inline size_t
thr_consumed(const ThrReader *r)
{
	return (size_t) (r->p - r->start);
}

/* Enter / leave a struct (depth accounting). */
extern bool thr_struct_begin(ThrReader *r);
extern void thr_struct_end(ThrReader *r);

/*
 * Enter the struct value of a field (or element) whose header announced
 * 'type': false after latching not_struct (a constant phrase such as
 * "column metadata is not a struct") when it is not a struct; else true,
 * after thr_struct_begin (the caller reads the fields, then calls
 * thr_struct_end).
 */
extern bool thr_struct_enter(ThrReader *r, int type, const char *not_struct);

/*
 * Read the next field header of the current struct.  Returns false at the
 * STOP byte (or on error).  *last_id carries the previous field id (start
 * with 0) for the delta encoding.  For a bool field, *type is THR_TRUE or
 * THR_FALSE and the value is already known: use thr_bool(r, type).
 */
extern bool thr_field(ThrReader *r, int16_t *last_id, int *type, int16_t *id);

/*
 * Typed reads.  'type' is the type the field header (or container header)
 * announced; a mismatch latches an error.  Integers are widened: thr_i64
 * accepts an i8/i16/i32/i64, thr_i32 an i8/i16/i32 (an i64 outside int32
 * is an error).
 */
extern bool thr_bool(ThrReader *r, int type);
extern int32_t thr_i32(ThrReader *r, int type);
extern int64_t thr_i64(ThrReader *r, int type);
extern double thr_double(ThrReader *r, int type);

/* Binary/string: points into the buffer (not NUL-terminated). */
extern const uint8_t *thr_binary(ThrReader *r, int type, uint32_t *len);

/*
 * List/set header: element type and count.  The count is checked against
 * the bytes left (every element takes at least one byte), so a caller may
 * allocate count elements.  Call thr_container_end() after the elements.
 */
extern bool thr_list_begin(ThrReader *r, int type, int *elem_type, uint32_t *count);

/* Map header: key/value types and count (checked like a list). */
extern bool thr_map_begin(ThrReader *r, int type, int *key_type, int *val_type, uint32_t *count);
extern void thr_container_end(ThrReader *r);

/* Skip one value of the given type (bounded depth). */
extern bool thr_skip(ThrReader *r, int type);

/* Raw helpers (exposed for tests). */
extern uint64_t thr_varint(ThrReader *r);
extern int64_t thr_zigzag(uint64_t v);

#endif							/* DELTACC_THRIFT_H */
