/*-------------------------------------------------------------------------
 *
 * dvfile.h
 *	  Deletion-vector descriptors and files (reference §4.1, §4.2, §4.5):
 *	  path derivation, the on-disk framing with its CRC-32, inline DVs,
 *	  and the cardinality check against the descriptor.
 *
 * A DV file is one version byte (1) followed by DVs, each framed as
 *	   dataSize (int32 big-endian) | bitmap (dataSize bytes) | CRC-32 (int32
 *	   big-endian, zlib polynomial, of the bitmap bytes)
 * and a descriptor's offset points at its dataSize word.
 *
 * Pure C: errors are returned in a DvError, memory comes from the caller's
 * FmtAllocator.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/dvfile.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DVFILE_H
#define DELTACC_DVFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dv_error.h"
#include "fmt_alloc.h"
#include "roaring.h"

#define DV_FILE_FORMAT_VERSION 1
#define DV_FRAME_OVERHEAD 8		/* dataSize word + checksum word */

/* "deletion_vector_" + 36-char UUID + ".bin" */
#define DV_FILE_NAME_LEN (16 + 36 + 4)

/*
 * Relative path of a "u" descriptor's file: "<prefix>/deletion_vector_
 * <uuid>.bin", or without "<prefix>/" when the prefix is empty.  The prefix
 * (everything before the last 20 characters) must consist of ASCII letters
 * and digits (what Delta writes), so the result never leaves the table
 * root.  'out' receives a NUL-terminated string of at most outsize-1 bytes.
 */
extern bool dv_relative_path(const char *path_or_inline, size_t len,
							 char *out, size_t outsize, DvError *err);

/*
 * Local file path of a "p" descriptor: an absolute "file:" URI
 * ("file:/a/b", "file:///a/b" or "file://localhost/a/b") or a scheme-less
 * absolute one ("/a/b"), percent-decoded.
 * Other schemes, relative or empty paths, bad escapes and %00 are errors.
 * 'out' receives a NUL-terminated string of at most outsize-1 bytes.
 */
extern bool dv_uri_to_path(const char *uri, size_t len, char *out,
						   size_t outsize, DvError *err);

/* Check the version byte at the start of a DV file (len bytes available). */
extern bool dv_check_version(const uint8_t *file, size_t len, DvError *err);

/*
 * Check one frame: frame[0..len) starts at the dataSize word.  The size
 * must equal size_in_bytes, the frame must be complete, and the CRC must
 * match.  On success *data points at the bitmap bytes inside 'frame'.
 */
extern bool dv_unframe(const uint8_t *frame, size_t len,
					   int64_t size_in_bytes, const uint8_t **data,
					   DvError *err);

/*
 * Decode serialized bitmap bytes (a RoaringBitmapArray) and check that the
 * set holds exactly 'cardinality' row indexes.
 */
extern bool dv_decode_bitmap(const uint8_t *data, size_t len,
							 int64_t cardinality, const FmtAllocator *alloc,
							 RbSet *out, DvError *err);

/*
 * The whole read of a stored DV from a DV file held in file[0..file_len):
 * version byte, frame at 'offset', CRC, decode, cardinality.
 */
extern bool dv_decode_file(const uint8_t *file, size_t file_len,
						   int64_t offset, int64_t size_in_bytes,
						   int64_t cardinality, const FmtAllocator *alloc,
						   RbSet *out, DvError *err);

/*
 * An inline ("i") DV: Z85-decode z85[0..len), which must decode to
 * size_in_bytes padded to a multiple of 4, keep the first size_in_bytes
 * bytes, decode and check the cardinality.
 */
extern bool dv_decode_inline(const char *z85, size_t len,
							 int64_t size_in_bytes, int64_t cardinality,
							 const FmtAllocator *alloc, RbSet *out,
							 DvError *err);

#endif							/* DELTACC_DVFILE_H */
