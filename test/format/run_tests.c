/*
 * run_tests.c
 *	  Runs every unit test registered by test/format/test_*.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define MAX_TESTS 1024

static const char *names[MAX_TESTS];
static UnitTestFn fns[MAX_TESTS];
static int	ntests;

void
unit_register(const char *name, UnitTestFn fn)
{
	if (ntests >= MAX_TESTS)
	{
		fprintf(stderr, "too many unit tests\n");
		exit(2);
	}
	names[ntests] = name;
	fns[ntests] = fn;
	ntests++;
}

int
main(int argc, char **argv)
{
	int			passed = 0;
	int			failed = 0;
	int			i;

	for (i = 0; i < ntests; i++)
	{
		int			failures = 0;

		if (argc > 1 && strstr(names[i], argv[1]) == NULL)
			continue;
		fns[i] (&failures);
		if (failures == 0)
		{
			passed++;
			printf("ok - %s\n", names[i]);
		}
		else
		{
			failed++;
			printf("not ok - %s (%d checks failed)\n", names[i], failures);
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
