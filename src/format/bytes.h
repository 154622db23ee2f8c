/*-------------------------------------------------------------------------
 *
 * bytes.h
 *	  Fixed-width integers read from unaligned byte buffers, in a stated
 *	  byte order: Parquet's footer and PLAIN values and the portable
 *	  Roaring format are little-endian, the deletion vector file's frame
 *	  and Hadoop's LZ4 framing big-endian.
 *
 *	  The caller has checked that the bytes are there; these only
 *	  assemble them.  Free of PostgreSQL headers (src/format).
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_BYTES_H
#define DELTACC_BYTES_H

#include <stdint.h>

static inline uint16_t
get_le16(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) |
		((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24);
}

static inline uint64_t
get_le64(const uint8_t *p)
{
	return (uint64_t) get_le32(p) | ((uint64_t) get_le32(p + 4) << 32);
}

static inline uint32_t
get_be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

#endif							/* DELTACC_BYTES_H */
