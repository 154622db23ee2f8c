/*
 * fuzz_z85.c
 *	  libFuzzer harness for Z85 and the DV path derivations: decode, the
 *	  encode/decode round trip, UUID and relative-path derivation, file:
 *	  URIs.
 */
#include <string.h>

#include "dvfile.h"
#include "fuzz_common.h"
#include "z85.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	uint8_t    *bytes;
	char	   *enc;
	uint8_t    *back;
	char		uuid[Z85_UUID_TEXT_LEN + 1];
	char		path[512];
	DvError		err;

	if (size > 1 << 16)
		return 0;
	bytes = malloc(z85_decoded_len(size) + 1);
	if (z85_decode(text, size, bytes, &err))
	{
		size_t		n = z85_decoded_len(size);

		/* bytes -> text -> bytes is the identity */
		enc = malloc(z85_encoded_len(n) + 1);
		back = malloc(n + 1);
		z85_encode(bytes, n, enc);
		FUZZ_ASSERT(strlen(enc) == z85_encoded_len(n));
		FUZZ_ASSERT(z85_decode(enc, strlen(enc), back, &err));
		FUZZ_ASSERT(memcmp(bytes, back, n) == 0);
		free(enc);
		free(back);
	}
	else
		FUZZ_ASSERT(err.offset <= size);
	free(bytes);

	/* encoding arbitrary bytes (any length) always decodes back */
	enc = malloc(z85_encoded_len(size) + 1);
	back = malloc(z85_decoded_len(z85_encoded_len(size)) + 1);
	z85_encode(data, size, enc);
	FUZZ_ASSERT(z85_decode(enc, strlen(enc), back, &err));
	FUZZ_ASSERT(size == 0 || memcmp(data, back, size) == 0);
	free(enc);
	free(back);

	if (z85_decode_uuid(text, size, uuid, &err))
		FUZZ_ASSERT(strlen(uuid) == Z85_UUID_TEXT_LEN);
	if (dv_relative_path(text, size, path, sizeof(path), &err))
		FUZZ_ASSERT(strstr(path, "..") == NULL && path[0] != '/');
	if (dv_uri_to_path(text, size, path, sizeof(path), &err))
		FUZZ_ASSERT(path[0] == '/' && strlen(path) < sizeof(path));
	return 0;
}
