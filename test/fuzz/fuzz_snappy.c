/*
 * fuzz_snappy.c
 *	  libFuzzer harness for the Snappy block decoder (src/format/snappy.c),
 *	  with libsnappy (linked into this harness only) as the oracle:
 *	  - the input as a block: decoded into a buffer of exactly the
 *		preamble's length (at most 1 MB), ours and libsnappy must both
 *		reject it or both accept it with the same bytes;
 *	  - the input as data: libsnappy's compression of it must decode back
 *		to it.
 */
#include <string.h>

#include <snappy-c.h>

#include "fuzz_common.h"
#include "snappy.h"

/* Largest decoded length tried (a block's preamble can say 4 GB). */
#define FUZZ_SNAPPY_MAX_OUT ((size_t) 1 << 20)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t		len;
	size_t		clen;
	char	   *comp;
	uint8_t    *back;

	if (snappy_decoded_length(data, size, &len))
	{
		size_t		theirs_len;
		uint8_t    *ours;
		char	   *theirs;
		bool		ok_ours;
		bool		ok_theirs;

		FUZZ_ASSERT(snappy_uncompressed_length((const char *) data, size, &theirs_len) == SNAPPY_OK);
		FUZZ_ASSERT(theirs_len == len);
		if (len <= FUZZ_SNAPPY_MAX_OUT)
		{
			/* exactly sized: ASan sees any write past the end */
			ours = malloc(len ? len : 1);
			theirs = malloc(len ? len : 1);
			ok_ours = snappy_decode(data, size, ours, len);
			ok_theirs = snappy_uncompress((const char *) data, size, theirs, &theirs_len) == SNAPPY_OK &&
				theirs_len == len;
			FUZZ_ASSERT(ok_ours == ok_theirs);
			FUZZ_ASSERT(!ok_ours || memcmp(ours, theirs, len) == 0);
			/* a buffer of any other size is refused */
			if (len > 0)
				FUZZ_ASSERT(!snappy_decode(data, size, ours, len - 1));
			free(ours);
			free(theirs);
		}
	}
	else
		FUZZ_ASSERT(snappy_validate_compressed_buffer((const char *) data, size) != SNAPPY_OK);

	/* round trip through libsnappy's compressor */
	clen = snappy_max_compressed_length(size);
	comp = malloc(clen);
	back = malloc(size ? size : 1);
	FUZZ_ASSERT(snappy_compress((const char *) data, size, comp, &clen) == SNAPPY_OK);
	FUZZ_ASSERT(snappy_decoded_length((const uint8_t *) comp, clen, &len) && len == size);
	FUZZ_ASSERT(snappy_decode((const uint8_t *) comp, clen, back, size));
	FUZZ_ASSERT(size == 0 || memcmp(back, data, size) == 0);
	free(comp);
	free(back);
	return 0;
}
