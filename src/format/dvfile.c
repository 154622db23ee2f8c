/*-------------------------------------------------------------------------
 *
 * dvfile.c
 *	  Deletion-vector path derivation, file framing and inline DVs (see
 *	  dvfile.h for the contract).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/dvfile.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include <zlib.h>

#include "bytes.h"
#include "djson_scan.h"
#include "dvfile.h"
#include "z85.h"

static bool
is_alnum_ascii(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool
dv_relative_path(const char *path_or_inline, size_t len, char *out,
				 size_t outsize, DvError *err)
{
	char		uuid[Z85_UUID_TEXT_LEN + 1];
	size_t		plen;
	size_t		i;
	int			n;

	if (len < Z85_UUID_CHARS)
		return dv_fail(err, 0, "deletion vector id has %zu characters, at least %d expected",
					   len, Z85_UUID_CHARS);
	plen = len - Z85_UUID_CHARS;
	for (i = 0; i < plen; i++)
		if (!is_alnum_ascii(path_or_inline[i]))
			return dv_fail(err, i, "deletion vector path prefix contains the character 0x%02x",
						   (unsigned char) path_or_inline[i]);
	if (!z85_decode_uuid(path_or_inline + plen, Z85_UUID_CHARS, uuid, err))
	{
		err->offset += plen;
		return false;
	}
	if (plen > 0)
		n = snprintf(out, outsize, "%.*s/deletion_vector_%s.bin", (int) plen,
					 path_or_inline, uuid);
	else
		n = snprintf(out, outsize, "deletion_vector_%s.bin", uuid);
	if (n < 0 || (size_t) n >= outsize)
		return dv_fail(err, 0, "deletion vector path too long");
	return true;
}

bool
dv_uri_to_path(const char *uri, size_t len, char *out, size_t outsize,
			   DvError *err)
{
	size_t		i;
	size_t		o = 0;

	if (len >= 8 && strncmp(uri, "file:///", 8) == 0)
		i = 7;
	else if (len >= 17 && strncmp(uri, "file://localhost/", 17) == 0)
		i = 16;
	else if (len >= 6 && strncmp(uri, "file:/", 6) == 0 &&
			 (len == 6 || uri[6] != '/'))
		i = 5;
	else if (len >= 1 && uri[0] == '/' && (len == 1 || uri[1] != '/'))
		i = 0;					/* a scheme-less absolute URI: the local file
								 * system, as Hadoop's Path resolves it here */
	else
		return dv_fail(err, 0, "deletion vector path is not an absolute file: URI");

	for (; i < len; i++)
	{
		char		c = uri[i];

		if (c == '%')
		{
			int			h1 = i + 1 < len ? dj_hex_value((unsigned char) uri[i + 1]) : -1;
			int			h2 = i + 2 < len ? dj_hex_value((unsigned char) uri[i + 2]) : -1;

			if (h1 < 0 || h2 < 0)
				return dv_fail(err, i, "bad percent escape in deletion vector path");
			c = (char) (h1 * 16 + h2);
			i += 2;
		}
		if (c == '\0')
			return dv_fail(err, i, "deletion vector path contains a NUL byte");
		if (o + 1 >= outsize)
			return dv_fail(err, i, "deletion vector path too long");
		out[o++] = c;
	}
	out[o] = '\0';
	if (o < 2)
		return dv_fail(err, 0, "deletion vector path names no file");
	return true;
}

bool
dv_check_version(const uint8_t *file, size_t len, DvError *err)
{
	if (len < 1)
		return dv_fail(err, 0, "deletion vector file is empty");
	if (file[0] != DV_FILE_FORMAT_VERSION)
		return dv_fail(err, 0, "unsupported deletion vector file format version %u",
					   file[0]);
	return true;
}

bool
dv_unframe(const uint8_t *frame, size_t len, int64_t size_in_bytes,
		   const uint8_t **data, DvError *err)
{
	uint32_t	size;
	uint32_t	stored_crc;
	uLong		crc;

	if (size_in_bytes < 0 || size_in_bytes > 0x7FFFFFFF)
		return dv_fail(err, 0, "sizeInBytes %lld out of range", (long long) size_in_bytes);
	if (len < 4)
		return dv_fail(err, 0, "truncated deletion vector: %zu bytes where the size word belongs",
					   len);
	size = get_be32(frame);
	if ((int64_t) size != size_in_bytes)
		return dv_fail(err, 0, "deletion vector size in file is %u, descriptor says %lld",
					   size, (long long) size_in_bytes);
	if (len - 4 < (size_t) size || len - 4 - size < 4)
		return dv_fail(err, 4, "truncated deletion vector: %u data bytes and checksum expected, %zu available",
					   size, len - 4);
	stored_crc = get_be32(frame + 4 + size);
	crc = crc32(0L, Z_NULL, 0);
	/* zlib takes uInt lengths; size is at most 2^31-1 */
	crc = crc32(crc, frame + 4, (uInt) size);
	if ((uint32_t) crc != stored_crc)
		return dv_fail(err, 4 + (size_t) size,
					   "deletion vector checksum mismatch: stored %08x, computed %08x",
					   stored_crc, (uint32_t) crc);
	*data = frame + 4;
	return true;
}

bool
dv_decode_bitmap(const uint8_t *data, size_t len, int64_t cardinality,
				 const FmtAllocator *alloc, RbSet *out, DvError *err)
{
	if (cardinality < 0)
		return dv_fail(err, 0, "negative cardinality %lld", (long long) cardinality);
	if (!rb_decode_array(data, len, alloc, out, err))
		return false;
	if (out->cardinality != (uint64_t) cardinality)
		return dv_fail(err, 0, "deletion vector holds %llu rows, descriptor cardinality is %lld",
					   (unsigned long long) out->cardinality, (long long) cardinality);
	return true;
}

bool
dv_decode_file(const uint8_t *file, size_t file_len, int64_t offset,
			   int64_t size_in_bytes, int64_t cardinality,
			   const FmtAllocator *alloc, RbSet *out, DvError *err)
{
	const uint8_t *data;

	if (!dv_check_version(file, file_len, err))
		return false;
	if (offset < 0 || (uint64_t) offset >= file_len)
		return dv_fail(err, 0, "deletion vector offset %lld is outside the file (%zu bytes)",
					   (long long) offset, file_len);
	if (!dv_unframe(file + offset, file_len - (size_t) offset, size_in_bytes, &data, err))
	{
		err->offset += (size_t) offset;
		return false;
	}
	if (!dv_decode_bitmap(data, (size_t) size_in_bytes, cardinality, alloc, out, err))
	{
		err->offset += (size_t) offset + 4;
		return false;
	}
	return true;
}

bool
dv_decode_inline(const char *z85, size_t len, int64_t size_in_bytes,
				 int64_t cardinality, const FmtAllocator *alloc, RbSet *out,
				 DvError *err)
{
	uint8_t    *bytes;
	size_t		padded;

	if (size_in_bytes < 0 || size_in_bytes > 0x7FFFFFFF)
		return dv_fail(err, 0, "sizeInBytes %lld out of range", (long long) size_in_bytes);
	padded = ((size_t) size_in_bytes + 3) / 4 * 4;
	if (len % 5 != 0 || z85_decoded_len(len) != padded)
		return dv_fail(err, 0, "inline deletion vector of %zu characters does not hold %lld bytes",
					   len, (long long) size_in_bytes);
	bytes = fmt_alloc(alloc, padded);
	if (bytes == NULL)
		return dv_fail(err, 0, "out of memory");
	if (!z85_decode(z85, len, bytes, err))
		return false;
	return dv_decode_bitmap(bytes, (size_t) size_in_bytes, cardinality, alloc, out, err);
}
