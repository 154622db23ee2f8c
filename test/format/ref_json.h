/*
 * ref_json.h
 *	  Reference implementations for the unit tests: the plainest form of a
 *	  JSON rule, byte at a time, that a fast implementation is checked
 *	  against.
 */
#ifndef DELTACC_TEST_REF_JSON_H
#define DELTACC_TEST_REF_JSON_H

#include <stddef.h>

/*
 * JSON's number grammar one byte at a time, the reference for dj_number_end
 * and for js_match's number slots: the end of the number token at p, or
 * NULL when there is none.
 */
static inline const char *
ref_number_end(const char *p, const char *end)
{
	const char *q = p;

	if (q < end && *q == '-')
		q++;
	if (q >= end)
		return NULL;
	if (*q == '0')
		q++;
	else if (*q >= '1' && *q <= '9')
		while (++q < end && *q >= '0' && *q <= '9')
			;
	else
		return NULL;
	if (q < end && *q == '.')
	{
		if (++q >= end || *q < '0' || *q > '9')
			return NULL;
		while (++q < end && *q >= '0' && *q <= '9')
			;
	}
	if (q < end && (*q == 'e' || *q == 'E'))
	{
		if (++q < end && (*q == '+' || *q == '-'))
			q++;
		if (q >= end || *q < '0' || *q > '9')
			return NULL;
		while (++q < end && *q >= '0' && *q <= '9')
			;
	}
	return q;
}

#endif							/* DELTACC_TEST_REF_JSON_H */
