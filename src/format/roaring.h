/*-------------------------------------------------------------------------
 *
 * roaring.h
 *	  Decoder of Delta's serialized deletion-vector bitmaps: the standard
 *	  32-bit Roaring format and Delta's RoaringBitmapArray around it
 *	  (reference §4.4), into a compact set of 64-bit row indexes.
 *
 * The decoded set keeps Roaring's containers as they were (sorted array,
 * 2^16-bit bitmap or runs), each under its 48-bit key (row index >> 16), so
 * its memory is proportional to the serialized size however many rows a
 * run container covers.  Everything is validated before it is used:
 * magics and cookies, bucket and container counts against the bytes
 * present, keys strictly ascending (bucket keys with the top bit clear),
 * per-container cardinalities against their contents, values strictly
 * ascending, runs disjoint and inside 16 bits, the offset table against the
 * actual container positions, and no trailing bytes.
 *
 * Memory comes from the caller's FmtAllocator (at most a small multiple of
 * the input size); nothing is freed individually.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/roaring.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_ROARING_H
#define DELTACC_ROARING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dv_error.h"
#include "fmt_alloc.h"

/* RoaringBitmapArray magics (little-endian int32 at byte 0). */
#define RB_MAGIC_PORTABLE 1681511377u
#define RB_MAGIC_NATIVE 1681511376u

/* Standard 32-bit Roaring cookies. */
#define RB_COOKIE_NO_RUNS 12346u
#define RB_COOKIE_RUNS 12347u

/* Largest bucket key Delta allows (row index high 32 bits). */
#define RB_MAX_BUCKET_KEY 0x7FFFFFFEu

typedef enum RbKind
{
	RB_ARRAY,					/* 'n' sorted uint16 values */
	RB_BITMAP,					/* 1024 uint64 words, bit j = value j */
	RB_RUN						/* 'n' runs: (start, length - 1) pairs */
} RbKind;

typedef struct RbContainer
{
	uint64_t	key;			/* row index >> 16 */
	uint32_t	cardinality;	/* 1 .. 65536 */
	uint32_t	n;				/* array: values; run: runs; bitmap: 1024 */
	RbKind		kind;
	union
	{
		uint16_t   *values;		/* RB_ARRAY */
		uint64_t   *words;		/* RB_BITMAP */
		uint16_t   *runs;		/* RB_RUN: start0, len0-1, start1, ... */
	}			u;
} RbContainer;

/* A set of row indexes; containers sorted by key, keys unique. */
typedef struct RbSet
{
	uint64_t	cardinality;
	uint32_t	ncontainers;
	RbContainer *containers;
} RbSet;

/* Ascending iteration over an RbSet. */
typedef struct RbIter
{
	const RbSet *set;
	uint32_t	ci;				/* current container */
	uint32_t	pos;			/* array index / bit / run index */
	uint32_t	sub;			/* offset inside the current run */
} RbIter;

/*
 * Decode a serialized RoaringBitmapArray (portable or native layout) of
 * exactly 'len' bytes.  On success fills *out (memory from 'alloc') and
 * returns true; otherwise returns false with *err filled.
 */
extern bool rb_decode_array(const uint8_t *buf, size_t len,
							const FmtAllocator *alloc, RbSet *out,
							DvError *err);

/*
 * Decode one standard 32-bit Roaring bitmap of exactly 'len' bytes (the
 * values become row indexes 0 .. 2^32-1).
 */
extern bool rb_decode_roaring32(const uint8_t *buf, size_t len,
								const FmtAllocator *alloc, RbSet *out,
								DvError *err);

/* An empty set (no allocation). */
extern void rb_set_empty(RbSet *set);

static inline uint64_t
rb_cardinality(const RbSet *set)
{
	return set->cardinality;
}

extern bool rb_contains(const RbSet *set, uint64_t value);

/* Smallest / largest member; false when the set is empty. */
extern bool rb_min(const RbSet *set, uint64_t *value);
extern bool rb_max(const RbSet *set, uint64_t *value);

extern void rb_iter_init(RbIter *it, const RbSet *set);

/* Next member in ascending order into *value; false at the end. */
extern bool rb_iter_next(RbIter *it, uint64_t *value);

/*
 * True when every member of 'a' is in 'b'.  Work is O(containers * 1024 +
 * array values * log), never proportional to the rows a run covers.
 */
extern bool rb_is_subset(const RbSet *a, const RbSet *b);

#endif							/* DELTACC_ROARING_H */
