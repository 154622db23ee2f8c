/*-------------------------------------------------------------------------
 *
 * snappy.c
 *	  Raw Snappy block decoding for Parquet pages (see snappy.h).
 *
 * Speed matters: a Parquet checkpoint of a million files is hundreds of MB
 * of Snappy pages.  Literals of up to 16 bytes and copies move 16 bytes at
 * a time whenever both buffers have 16 bytes left at the current position
 * (the bytes written past the element's end are scratch that later
 * elements overwrite); a copy whose offset is below 16 first doubles the
 * copied pattern until its distance reaches 16.  Within 16 bytes of the end
 * of the output the copy is byte by byte.  Every length and offset is
 * checked against the bytes left before any memory is touched.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/snappy.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "snappy.h"

/* Longest preamble: 5 varint bytes carry 32 bits. */
#define SNAPPY_MAX_PREAMBLE 5

/*
 * Copy 16 bytes from src to dst through a temporary, so the two ranges may
 * overlap (the compiler turns this into one 16-byte load and store).
 */
static inline void
copy16(uint8_t *dst, const uint8_t *src)
{
	uint8_t		tmp[16];

	memcpy(tmp, src, 16);
	memcpy(dst, tmp, 16);
}

/* The little-endian unsigned integer in p[0..n), n 1..4. */
static inline uint32_t
load_le(const uint8_t *p, int n)
{
	uint32_t	v = 0;
	int			i;

	for (i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * Parse the preamble of in[0..inlen) into *len; returns the bytes it takes
 * (1..5), or 0 when it is truncated or does not fit in 32 bits (the fifth
 * byte may only carry the top 4 bits, without a continuation bit).
 */
static size_t
read_preamble(const uint8_t *in, size_t inlen, uint32_t *len)
{
	uint32_t	v = 0;
	size_t		i;

	for (i = 0; i < SNAPPY_MAX_PREAMBLE && i < inlen; i++)
	{
		uint8_t		b = in[i];

		if (i == SNAPPY_MAX_PREAMBLE - 1 && b > 15)
			return 0;
		v |= (uint32_t) (b & 0x7f) << (7 * i);
		if (b < 0x80)
		{
			*len = v;
			return i + 1;
		}
	}
	return 0;
}

/*
 * Append len bytes to the output at op, copied from off bytes back
 * (off >= 1, off <= bytes already written, len <= opend - op: the caller
 * checked).  The ranges may overlap, which repeats the last off bytes.
 * Writes nothing at or beyond opend.
 */
static inline void
copy_from_output(uint8_t *op, size_t off, size_t len, const uint8_t *opend)
{
	const uint8_t *src = op - off;
	uint8_t    *end = op + len;

	while (op < end && opend - op >= 16)
	{
		size_t		d = (size_t) (op - src);

		copy16(op, src);
		if (d < 16)
		{
			/*
			 * Only the first d bytes are right, but now src..op+d holds the
			 * pattern twice: the distance doubles, src stays.
			 */
			op += d;
		}
		else
		{
			op += 16;
			src += 16;
		}
	}
	/* last bytes before opend; the distance is a multiple of off here */
	while (op < end)
		*op++ = *src++;
}

bool
snappy_decoded_length(const uint8_t *in, size_t inlen, size_t *outlen)
{
	uint32_t	len;

	if (read_preamble(in, inlen, &len) == 0)
		return false;
	*outlen = len;
	return true;
}

bool
snappy_decode(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen)
{
	const uint8_t *ip;
	const uint8_t *ipend;
	uint8_t    *op;
	uint8_t    *opend;
	uint32_t	declared;
	size_t		n;

	n = read_preamble(in, inlen, &declared);
	if (n == 0 || declared != outlen)
		return false;
	/* (an empty output needs no buffer: out may be NULL) */
	if (outlen == 0)
		return n == inlen;
	ip = in + n;
	ipend = in + inlen;
	op = out;
	opend = out + outlen;

	while (ip < ipend)
	{
		uint8_t		tag = *ip++;
		size_t		len;
		size_t		off;

		switch (tag & 3)
		{
			case 0:
				{
					/* literal: m = length - 1 */
					uint32_t	m = tag >> 2;

					if (m >= 60)
					{
						int			nb = (int) m - 59;

						if (ipend - ip < nb)
							return false;
						m = load_le(ip, nb);
						ip += nb;
					}
					if ((size_t) m >= (size_t) (ipend - ip) ||
						(size_t) m >= (size_t) (opend - op))
						return false;
					len = (size_t) m + 1;
					if (ipend - ip >= 16 && opend - op >= 16 && len <= 16)
						copy16(op, ip);
					else
						memcpy(op, ip, len);
					op += len;
					ip += len;
					continue;
				}
			case 1:
				if (ip >= ipend)
					return false;
				len = 4 + ((tag >> 2) & 7);
				off = ((size_t) (tag >> 5) << 8) | ip[0];
				ip += 1;
				break;
			default:
				{
					/* 2- or 4-byte offset */
					int			nb = (tag & 3) == 2 ? 2 : 4;

					if (ipend - ip < nb)
						return false;
					len = 1 + (tag >> 2);
					off = (size_t) ip[0] | (size_t) ip[1] << 8;
					if (nb == 4)
						off |= (size_t) ip[2] << 16 | (size_t) ip[3] << 24;
					ip += nb;
					break;
				}
		}
		if (off == 0 || off > (size_t) (op - out) || len > (size_t) (opend - op))
			return false;
		copy_from_output(op, off, len, opend);
		op += len;
	}
	return op == opend;
}
