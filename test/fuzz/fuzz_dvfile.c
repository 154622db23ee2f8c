/*
 * fuzz_dvfile.c
 *	  libFuzzer harness for the DV file framing and inline DVs.
 *
 * Input layout: byte 0 = flags, bytes 1..2 = offset (little-endian), bytes
 * 3..6 = cardinality (little-endian), the rest = the DV file.  Flags:
 *	 bit 0: take sizeInBytes from the frame (else from bytes 7..10 of the
 *			input, part of the file), so the size check is usually passed;
 *	 bit 1: rewrite the frame's CRC so the bitmap decoder is reached;
 *	 bit 2: also decode the rest as an inline (Z85) DV.
 */
#include <string.h>

#include <zlib.h>

#include "dvfile.h"
#include "fuzz_common.h"
#include "z85.h"

static uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | p[3];
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FmtArena	arena;
	FmtAllocator a;
	RbSet		s;
	DvError		err;
	uint8_t		flags;
	int64_t		offset;
	int64_t		card;
	int64_t		dvsize;
	uint8_t    *file;
	size_t		flen;

	if (size < 7)
		return 0;
	flags = data[0];
	offset = data[1] | (data[2] << 8);
	card = (int64_t) (data[3] | (data[4] << 8) | (data[5] << 16) | ((uint32_t) data[6] << 24));
	flen = size - 7;
	file = malloc(flen + 1);
	memcpy(file, data + 7, flen);

	dvsize = flen >= 4 ? (int64_t) be32(file) : 0;
	if ((flags & 1) && (uint64_t) offset + 4 <= flen)
		dvsize = be32(file + offset);
	if ((flags & 2) && dvsize >= 0 && (uint64_t) offset + 8 + (uint64_t) dvsize <= flen)
	{
		uint32_t	crc = (uint32_t) crc32(crc32(0L, Z_NULL, 0), file + offset + 4, (uInt) dvsize);
		uint8_t    *p = file + offset + 4 + dvsize;

		p[0] = (uint8_t) (crc >> 24);
		p[1] = (uint8_t) (crc >> 16);
		p[2] = (uint8_t) (crc >> 8);
		p[3] = (uint8_t) crc;
	}

	fmt_arena_init(&arena, FUZZ_ARENA_LIMIT);
	a = fmt_arena_allocator(&arena);
	if (dv_decode_file(file, flen, offset, dvsize, card, &a, &s, &err))
	{
		FUZZ_ASSERT(rb_cardinality(&s) == (uint64_t) card);
		FUZZ_ASSERT(file[0] == DV_FILE_FORMAT_VERSION);
	}
	else
		FUZZ_ASSERT(err.message[0] != '\0');
	if (flags & 4)
	{
		int64_t		isize = (int64_t) (z85_decoded_len(flen)) - (flags >> 6);

		if (dv_decode_inline((const char *) file, flen, isize, card, &a, &s, &err))
			FUZZ_ASSERT(rb_cardinality(&s) == (uint64_t) card);
	}
	fmt_arena_free_all(&arena);
	free(file);
	return 0;
}
