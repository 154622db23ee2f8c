/*-------------------------------------------------------------------------
 *
 * thrift.c
 *	  Thrift compact protocol decoding, bounded and allocation-free.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/thrift.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <string.h>

#include "thrift.h"

/*
 * thr_init: start reading buf[0..len).
 */
void
thr_init(ThrReader *r, const uint8_t *buf, size_t len, int max_depth)
{
	r->start = buf;
	r->p = buf;
	r->end = buf + len;
	r->depth = 0;
	r->max_depth = max_depth > 0 ? max_depth : THR_DEFAULT_MAX_DEPTH;
	r->failed = false;
	r->error[0] = '\0';
}

/*
 * thr_fail: latch the first error; the read position jumps to the end so
 * that loops terminate.  Always returns false.
 */
bool
thr_fail(ThrReader *r, const char *msg)
{
	if (!r->failed)
	{
		r->failed = true;
		snprintf(r->error, sizeof(r->error), "%s", msg);
	}
	r->p = r->end;
	return false;
}

/*
 * thr_varint: an unsigned LEB128 varint of at most 10 bytes.
 */
uint64_t
thr_varint(ThrReader *r)
{
	uint64_t	v = 0;
	int			shift = 0;

	while (!r->failed)
	{
		uint8_t		b;

		if (r->p >= r->end)
		{
			thr_fail(r, "truncated varint");
			return 0;
		}
		b = *r->p++;
		if (shift == 63 && (b & 0x7e) != 0)
		{
			thr_fail(r, "varint overflows 64 bits");
			return 0;
		}
		v |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return v;
		shift += 7;
		if (shift > 63)
		{
			thr_fail(r, "varint too long");
			return 0;
		}
	}
	return 0;
}

/*
 * thr_zigzag: decode a zigzag-encoded integer.
 */
int64_t
thr_zigzag(uint64_t v)
{
	return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

/*
 * thr_struct_begin / thr_struct_end: nesting depth accounting.
 */
bool
thr_struct_begin(ThrReader *r)
{
	if (r->failed)
		return false;
	if (++r->depth > r->max_depth)
		return thr_fail(r, "thrift nesting too deep");
	return true;
}

void
thr_struct_end(ThrReader *r)
{
	if (r->depth > 0)
		r->depth--;
}

bool
thr_struct_enter(ThrReader *r, int type, const char *not_struct)
{
	if (type != THR_STRUCT)
		return thr_fail(r, not_struct);
	thr_struct_begin(r);
	return true;
}

void
thr_container_end(ThrReader *r)
{
	thr_struct_end(r);
}

/*
 * thr_field: the next field header of the current struct, or false at STOP.
 */
bool
thr_field(ThrReader *r, int16_t *last_id, int *type, int16_t *id)
{
	uint8_t		b;
	int			delta;

	if (r->failed)
		return false;
	if (r->p >= r->end)
		return thr_fail(r, "truncated struct");
	b = *r->p++;
	if (b == 0)
		return false;
	*type = b & 0x0f;
	if (*type < THR_TRUE || *type > THR_STRUCT)
		return thr_fail(r, "invalid thrift field type");
	delta = b >> 4;
	if (delta != 0)
	{
		int			nid = *last_id + delta;

		if (nid > INT16_MAX)
			return thr_fail(r, "thrift field id out of range");
		*id = (int16_t) nid;
	}
	else
	{
		int64_t		v = thr_zigzag(thr_varint(r));

		if (r->failed)
			return false;
		if (v < INT16_MIN || v > INT16_MAX)
			return thr_fail(r, "thrift field id out of range");
		*id = (int16_t) v;
	}
	*last_id = *id;
	return true;
}

/*
 * thr_bool: a field's bool is in its type code; a container element's is a
 * byte.
 */
bool
thr_bool(ThrReader *r, int type)
{
	if (r->failed)
		return false;
	if (type == THR_TRUE)
		return true;
	if (type == THR_FALSE)
		return false;
	if (type == THR_BOOL_ELEM)
	{
		uint8_t		b;

		if (r->p >= r->end)
			return thr_fail(r, "truncated bool");
		b = *r->p++;
		if (b == THR_TRUE)
			return true;
		if (b == THR_FALSE || b == 0)
			return false;
		return thr_fail(r, "invalid thrift bool");
	}
	return thr_fail(r, "thrift type mismatch: expected bool");
}

/*
 * thr_i64: any integer type, widened.
 */
int64_t
thr_i64(ThrReader *r, int type)
{
	if (r->failed)
		return 0;
	if (type == THR_BYTE)
	{
		if (r->p >= r->end)
			return thr_fail(r, "truncated byte");
		return (int8_t) *r->p++;
	}
	if (type == THR_I16 || type == THR_I32 || type == THR_I64)
	{
		int64_t		v = thr_zigzag(thr_varint(r));

		if (type == THR_I16 && (v < INT16_MIN || v > INT16_MAX))
			return thr_fail(r, "thrift i16 out of range");
		if (type == THR_I32 && (v < INT32_MIN || v > INT32_MAX))
			return thr_fail(r, "thrift i32 out of range");
		return v;
	}
	thr_fail(r, "thrift type mismatch: expected integer");
	return 0;
}

/*
 * thr_i32: an integer that must fit in int32.
 */
int32_t
thr_i32(ThrReader *r, int type)
{
	int64_t		v = thr_i64(r, type);

	if (v < INT32_MIN || v > INT32_MAX)
	{
		thr_fail(r, "thrift integer out of int32 range");
		return 0;
	}
	return (int32_t) v;
}

/*
 * thr_double: 8 bytes little-endian.
 */
double
thr_double(ThrReader *r, int type)
{
	uint64_t	bits = 0;
	double		d;
	int			i;

	if (r->failed)
		return 0;
	if (type != THR_DOUBLE)
	{
		thr_fail(r, "thrift type mismatch: expected double");
		return 0;
	}
	if (r->end - r->p < 8)
	{
		thr_fail(r, "truncated double");
		return 0;
	}
	for (i = 0; i < 8; i++)
		bits |= (uint64_t) r->p[i] << (8 * i);
	r->p += 8;
	memcpy(&d, &bits, sizeof(d));
	return d;
}

/*
 * thr_binary: a length-prefixed byte string, pointing into the buffer.
 */
const uint8_t *
thr_binary(ThrReader *r, int type, uint32_t *len)
{
	uint64_t	n;
	const uint8_t *s;

	*len = 0;
	if (r->failed)
		return NULL;
	if (type != THR_BINARY)
	{
		thr_fail(r, "thrift type mismatch: expected binary");
		return NULL;
	}
	n = thr_varint(r);
	if (r->failed)
		return NULL;
	if (n > (uint64_t) (r->end - r->p))
	{
		thr_fail(r, "thrift binary length past the end of the buffer");
		return NULL;
	}
	s = r->p;
	r->p += n;
	*len = (uint32_t) n;
	return s;
}

/*
 * Convert a container element type code; bools are one byte each there.
 */
static int
elem_type_code(ThrReader *r, int t)
{
	if (t == THR_TRUE || t == THR_FALSE)
		return THR_BOOL_ELEM;
	if (t < THR_BYTE || t > THR_STRUCT)
	{
		thr_fail(r, "invalid thrift element type");
		return THR_STOP;
	}
	return t;
}

/*
 * thr_list_begin: list or set header; count is checked against the bytes
 * left.
 */
bool
thr_list_begin(ThrReader *r, int type, int *elem_type, uint32_t *count)
{
	uint8_t		b;
	uint64_t	n;

	*count = 0;
	*elem_type = THR_STOP;
	if (r->failed)
		return false;
	if (type != THR_LIST && type != THR_SET)
		return thr_fail(r, "thrift type mismatch: expected list");
	if (r->p >= r->end)
		return thr_fail(r, "truncated list header");
	b = *r->p++;
	n = b >> 4;
	if (n == 15)
		n = thr_varint(r);
	*elem_type = elem_type_code(r, b & 0x0f);
	if (r->failed)
		return false;
	if (n > (uint64_t) (r->end - r->p))
		return thr_fail(r, "thrift list count exceeds the remaining bytes");
	if (!thr_struct_begin(r))
		return false;
	*count = (uint32_t) n;
	return true;
}

/*
 * thr_map_begin: map header; an empty map has no type byte.
 */
bool
thr_map_begin(ThrReader *r, int type, int *key_type, int *val_type, uint32_t *count)
{
	uint64_t	n;

	*count = 0;
	*key_type = *val_type = THR_STOP;
	if (r->failed)
		return false;
	if (type != THR_MAP)
		return thr_fail(r, "thrift type mismatch: expected map");
	n = thr_varint(r);
	if (r->failed)
		return false;
	if (n > 0)
	{
		uint8_t		b;

		if (r->p >= r->end)
			return thr_fail(r, "truncated map header");
		b = *r->p++;
		*key_type = elem_type_code(r, b >> 4);
		*val_type = elem_type_code(r, b & 0x0f);
		if (r->failed)
			return false;
		if (n > (uint64_t) (r->end - r->p) / 2)
			return thr_fail(r, "thrift map count exceeds the remaining bytes");
	}
	if (!thr_struct_begin(r))
		return false;
	*count = (uint32_t) n;
	return true;
}

/*
 * thr_skip: skip one value of the given type.
 */
bool
thr_skip(ThrReader *r, int type)
{
	uint32_t	n;
	uint32_t	i;
	int			et,
				kt,
				vt;
	int16_t		last = 0;
	int16_t		id;
	int			ft;

	if (r->failed)
		return false;
	switch (type)
	{
		case THR_TRUE:
		case THR_FALSE:
			return true;
		case THR_BOOL_ELEM:
			thr_bool(r, type);
			break;
		case THR_BYTE:
		case THR_I16:
		case THR_I32:
		case THR_I64:
			thr_i64(r, type);
			break;
		case THR_DOUBLE:
			thr_double(r, type);
			break;
		case THR_BINARY:
			thr_binary(r, type, &n);
			break;
		case THR_LIST:
		case THR_SET:
			if (!thr_list_begin(r, type, &et, &n))
				return false;
			for (i = 0; i < n && !r->failed; i++)
				thr_skip(r, et);
			thr_container_end(r);
			break;
		case THR_MAP:
			if (!thr_map_begin(r, type, &kt, &vt, &n))
				return false;
			for (i = 0; i < n && !r->failed; i++)
			{
				thr_skip(r, kt);
				thr_skip(r, vt);
			}
			thr_container_end(r);
			break;
		case THR_STRUCT:
			if (!thr_struct_begin(r))
				return false;
			while (thr_field(r, &last, &ft, &id))
				thr_skip(r, ft);
			thr_struct_end(r);
			break;
		default:
			return thr_fail(r, "invalid thrift type");
	}
	return !r->failed;
}
