/*-------------------------------------------------------------------------
 *
 * z85.h
 *	  Z85 (ZeroMQ base-85) as Delta Lake uses it for deletion vectors.
 *
 * Each 4-byte group, read as a big-endian unsigned 32-bit integer, is
 * written as 5 characters, most significant base-85 digit first, with the
 * alphabet 0-9, a-z, A-Z, then the 23 symbols of reference §4.3.  Encoding
 * pads a length that is not a multiple of 4 with zero bytes.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/z85.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_Z85_H
#define DELTACC_Z85_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dv_error.h"

/* Characters of a Delta "u" descriptor's encoded UUID, and its text form. */
#define Z85_UUID_CHARS 20
#define Z85_UUID_TEXT_LEN 36

/* Bytes z85_decode produces from 'len' characters (len must be % 5 == 0). */
static inline size_t
z85_decoded_len(size_t len)
{
	return len / 5 * 4;
}

/* Characters z85_encode produces from 'n' bytes (padded to 4), no NUL. */
static inline size_t
z85_encoded_len(size_t n)
{
	return (n / 4 + (n % 4 != 0)) * 5;
}

/*
 * Decode in[0..len) into out[0..z85_decoded_len(len)).  Fails (false, *err
 * filled) when len is not a multiple of 5 or a character is outside the
 * alphabet.  A group whose value exceeds 2^32-1 keeps its low 32 bits, as
 * Delta's decoder does.  'out' may be written partially on failure.
 */
extern bool z85_decode(const char *in, size_t len, uint8_t *out, DvError *err);

/*
 * Encode in[0..n) into out, which must hold z85_encoded_len(n) + 1 bytes;
 * the result is NUL-terminated.  The last group is padded with zero bytes.
 */
extern void z85_encode(const uint8_t *in, size_t n, char *out);

/*
 * Decode the 20-character Z85 id of a "u" descriptor into the canonical
 * lowercase UUID text (8-4-4-4-12, NUL-terminated) in out[0..37).  The first
 * 8 decoded bytes are the most significant bits.
 */
extern bool z85_decode_uuid(const char *in, size_t len,
							char out[Z85_UUID_TEXT_LEN + 1], DvError *err);

#endif							/* DELTACC_Z85_H */
