/*-------------------------------------------------------------------------
 *
 * jstr.h
 *	  JSON string bodies, as written (JS_PLAIN) or held inside another JSON
 *	  string (JS_ESCAPED): validation and decoding exactly as djson does.
 *
 * A Delta add line holds its statistics as a JSON text inside a JSON
 * string, so a string value of the statistics is written twice escaped:
 * the statistics text says "a\"b" and the line says \"a\\\"b\".  The fast
 * paths read such values where the line holds them.  jstr_end finds where
 * a string body ends and proves that djson accepts it at every level:
 * in JS_ESCAPED mode the line's string is decoded first (its escapes, its
 * UTF-8) and the characters it yields must form a valid string of the
 * inner text, closed by the line's backslash + '"'.  jstr_decode then
 * gives the characters djson's parse tree holds for it.
 *
 * What is refused is only what djson refuses or what cannot be told apart
 * without a full parse: control characters, invalid escapes or UTF-8,
 * unpaired surrogates, \u0000 (at either level), a string running past
 * the input, and in JS_ESCAPED mode an inner string closed by a \u0022
 * escape of the outer string.
 *
 * Pure C, no PostgreSQL headers, no allocation.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/jstr.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_JSTR_H
#define DELTACC_JSTR_H

#include <stdbool.h>
#include <stddef.h>

typedef enum JsQuoting
{
	JS_PLAIN,					/* a JSON text as is */
	JS_ESCAPED					/* a JSON text inside a JSON string: every
								 * '"' of it written as backslash + '"' */
} JsQuoting;

/*
 * jstr_end: the body of a string starts at p (after its opening quote) and
 * the input ends at end.  Returns where its closing quote is (JS_ESCAPED:
 * the backslash of the backslash + '"' that closes it) when djson accepts
 * and decodes the body (see above), else NULL.  *simple (may be NULL) is
 * set to whether the body is printable ASCII without any backslash: then
 * its bytes are its characters.  Reads nothing at or beyond end.
 */
extern const char *jstr_end(const char *p, const char *end, JsQuoting q,
							bool *simple);

/*
 * jstr_decode: the characters of the body [p, close) that jstr_end
 * accepted (close: its answer), as UTF-8, into out, which must have room
 * for close - p bytes (a body never decodes to more bytes than it has);
 * returns how many were written.  Adds no NUL.
 */
extern size_t jstr_decode(const char *p, const char *close, JsQuoting q,
						  char *out);

#endif							/* DELTACC_JSTR_H */
