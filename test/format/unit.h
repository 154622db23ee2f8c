/*
 * unit.h
 *	  A minimal self-registering unit-test harness for src/format.
 *
 * Each test_*.c file defines tests with UNIT_TEST(name) { ... } and checks
 * with UNIT_CHECK(cond).  run_tests.c runs every registered test and ends
 * with the line "N passed, M failed".
 */
#ifndef DELTACC_UNIT_H
#define DELTACC_UNIT_H

#include <stdint.h>
#include <stdio.h>

typedef void (*UnitTestFn) (int *failures);

extern void unit_register(const char *name, UnitTestFn fn);

#define UNIT_TEST(name) \
	static void name(int *unit_failures); \
	__attribute__((constructor)) static void name##_register(void) \
	{ unit_register(#name, name); } \
	static void name(int *unit_failures)

#define UNIT_CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			(*unit_failures)++; \
		} \
	} while (0)

/*
 * The next state of a test's seeded random stream (a 32-bit linear
 * congruential generator: reproducible, and good enough to pick bytes
 * from its upper bits).
 */
static inline uint32_t
unit_next(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed;
}

#endif
