/*-------------------------------------------------------------------------
 *
 * z85.c
 *	  Z85 decoding and encoding for deletion-vector descriptors (see z85.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/z85.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "z85.h"

static const char z85_alphabet[86] =
"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/* Value (0..84) of a character, or -1 when it is outside the alphabet. */
static int
z85_value(unsigned char c)
{
	const char *p = memchr(z85_alphabet, c, 85);

	return p == NULL ? -1 : (int) (p - z85_alphabet);
}

bool
z85_decode(const char *in, size_t len, uint8_t *out, DvError *err)
{
	size_t		i;

	if (len % 5 != 0)
		return dv_fail(err, len, "Z85 text length %zu is not a multiple of 5", len);
	for (i = 0; i < len; i += 5)
	{
		uint64_t	v = 0;
		int			k;

		for (k = 0; k < 5; k++)
		{
			int			d = z85_value((unsigned char) in[i + k]);

			if (d < 0)
				return dv_fail(err, i + k, "invalid Z85 character 0x%02x at position %zu",
							   (unsigned char) in[i + k], i + k);
			v = v * 85 + (uint64_t) d;
		}
		/*
		 * A group above 2^32-1 cannot come from the encoder, but Delta's
		 * decoder keeps its low 32 bits (Codec.scala: sum.toInt), and
		 * hand-made inline DVs in the wild rely on it: do the same.
		 */
		v &= UINT32_MAX;
		out[i / 5 * 4] = (uint8_t) (v >> 24);
		out[i / 5 * 4 + 1] = (uint8_t) (v >> 16);
		out[i / 5 * 4 + 2] = (uint8_t) (v >> 8);
		out[i / 5 * 4 + 3] = (uint8_t) v;
	}
	return true;
}

void
z85_encode(const uint8_t *in, size_t n, char *out)
{
	size_t		i;
	size_t		o = 0;

	for (i = 0; i < n; i += 4)
	{
		uint32_t	v = 0;
		int			k;

		for (k = 0; k < 4; k++)
			v = (v << 8) | (i + k < n ? in[i + k] : 0);
		for (k = 4; k >= 0; k--)
		{
			out[o + k] = z85_alphabet[v % 85];
			v /= 85;
		}
		o += 5;
	}
	out[o] = '\0';
}

bool
z85_decode_uuid(const char *in, size_t len, char out[Z85_UUID_TEXT_LEN + 1],
				DvError *err)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t		bytes[16];
	size_t		o = 0;
	int			i;

	if (len != Z85_UUID_CHARS)
		return dv_fail(err, 0, "encoded UUID has %zu characters, expected %d",
					   len, Z85_UUID_CHARS);
	if (!z85_decode(in, len, bytes, err))
		return false;
	for (i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[bytes[i] >> 4];
		out[o++] = hex[bytes[i] & 15];
	}
	out[o] = '\0';
	return true;
}
