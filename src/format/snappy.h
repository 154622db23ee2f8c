/*-------------------------------------------------------------------------
 *
 * snappy.h
 *	  Decoder of the raw Snappy block format, as Parquet's SNAPPY codec
 *	  stores pages (not Snappy's framing format).
 *
 * A block is a little-endian base-128 varint with the uncompressed length
 * (at most 2^32 - 1, at most 5 bytes), then elements until the input ends.
 * The low 2 bits of an element's tag byte give its type:
 *	  00 literal: the upper 6 bits are length - 1 when below 60; 60..63 say
 *		 that length - 1 follows in 1..4 little-endian bytes; then the bytes;
 *	  01 copy, length 4 + bits 2..4, offset bits 5..7 << 8 | the next byte;
 *	  10 copy, length 1 + upper 6 bits, 2-byte little-endian offset;
 *	  11 copy, length 1 + upper 6 bits, 4-byte little-endian offset.
 * A copy repeats the output that ended 'offset' bytes back (it may overlap
 * the bytes it writes: offset < length repeats a pattern).  Offset 0 and an
 * offset reaching before the start of the output are invalid, and the
 * output must end exactly at the preamble's length when the input ends
 * exactly after the last element.
 *
 * Nothing is allocated: the caller owns both buffers.  Malformed input is a
 * false return, never a read or write outside the buffers.  This replaces
 * libsnappy in the extension (whose C++ runtime cost ~1 ms to load into
 * every fresh backend); the unit tests keep libsnappy as an oracle.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/snappy.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_SNAPPY_H
#define DELTACC_SNAPPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Read the uncompressed length from the preamble of in[0..inlen) into
 * *outlen.  False when the varint is truncated, longer than 5 bytes or
 * above 2^32 - 1.  Says nothing about the rest of the block.
 */
extern bool snappy_decoded_length(const uint8_t *in, size_t inlen, size_t *outlen);

/*
 * Decode the block in[0..inlen) into out[0..outlen), which the caller
 * owns.  True only when the preamble says exactly outlen and the elements
 * are valid and produce exactly outlen bytes.  On false, out[0..outlen)
 * may have been written partially (never beyond outlen).  Allocates
 * nothing.
 */
extern bool snappy_decode(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen);

#endif							/* DELTACC_SNAPPY_H */
