/*-------------------------------------------------------------------------
 *
 * dv_error.h
 *	  The error report shared by the deletion-vector decoders (Z85,
 *	  Roaring bitmaps, DV file framing).
 *
 * The decoders never raise: they fill a DvError and return false.  The
 * message is a lower-case phrase without a trailing period, fit to be the
 * errdetail of a PostgreSQL error once capitalised by the caller, or to be
 * printed as it is by the unit tests and fuzz harnesses.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/dv_error.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DV_ERROR_H
#define DELTACC_DV_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct DvError
{
	size_t		offset;			/* byte offset in the decoded input */
	char		message[160];	/* lower-case phrase, no trailing period */
} DvError;

#if defined(__GNUC__) || defined(__clang__)
#define DV_PRINTF_ATTR __attribute__((format(printf, 3, 4)))
#else
#define DV_PRINTF_ATTR
#endif

/*
 * Fill *err (when not NULL) and return false, so that a decoder can write
 * "return dv_fail(err, pos, "...", ...);".
 */
static inline bool dv_fail(DvError *err, size_t offset, const char *fmt,...) DV_PRINTF_ATTR;

static inline bool
dv_fail(DvError *err, size_t offset, const char *fmt,...)
{
	va_list		ap;

	if (err == NULL)
		return false;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return false;
}

#endif							/* DELTACC_DV_ERROR_H */
