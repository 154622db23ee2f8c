/*
 * fuzz_thrift.c
 *	  libFuzzer harness for the Thrift compact protocol decoder.
 *
 * The input is skipped as one struct (any field types, any nesting) with a
 * small depth limit, then walked field by field with the typed readers.
 * Invariants: the reader never moves past the input, a successful skip
 * consumes the same prefix when repeated on exactly that prefix, and a
 * failed read leaves an error message.
 */
#include <string.h>

#include "fuzz_common.h"
#include "thrift.h"

/* Read every field of the current struct with the typed readers. */
static void
walk_struct(ThrReader *r)
{
	int16_t		last = 0,
				id;
	int			type;
	uint32_t	n,
				i;
	int			et,
				kt,
				vt;

	if (!thr_struct_begin(r))
		return;
	while (thr_field(r, &last, &type, &id))
	{
		switch (type)
		{
			case THR_TRUE:
			case THR_FALSE:
				(void) thr_bool(r, type);
				break;
			case THR_BYTE:
			case THR_I16:
			case THR_I32:
				(void) thr_i32(r, type);
				break;
			case THR_I64:
				(void) thr_i64(r, type);
				break;
			case THR_DOUBLE:
				(void) thr_double(r, type);
				break;
			case THR_BINARY:
				{
					const uint8_t *s = thr_binary(r, type, &n);

					FUZZ_ASSERT(s == NULL || (s >= r->start && s + n <= r->end));
				}
				break;
			case THR_LIST:
			case THR_SET:
				if (thr_list_begin(r, type, &et, &n))
				{
					FUZZ_ASSERT(n <= (uint32_t) (r->end - r->p));
					for (i = 0; i < n && !thr_failed(r); i++)
					{
						if (et == THR_STRUCT)
							walk_struct(r);
						else
							thr_skip(r, et);
					}
					thr_container_end(r);
				}
				break;
			case THR_MAP:
				if (thr_map_begin(r, type, &kt, &vt, &n))
				{
					for (i = 0; i < n && !thr_failed(r); i++)
					{
						thr_skip(r, kt);
						thr_skip(r, vt);
					}
					thr_container_end(r);
				}
				break;
			case THR_STRUCT:
				walk_struct(r);
				break;
			default:
				thr_skip(r, type);
		}
		FUZZ_ASSERT(r->p >= r->start && r->p <= r->end);
	}
	thr_struct_end(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ThrReader	r;
	ThrReader	again;
	size_t		used;

	thr_init(&r, data, size, 24);
	if (thr_skip(&r, THR_STRUCT))
	{
		used = thr_consumed(&r);
		FUZZ_ASSERT(used >= 1 && used <= size);
		thr_init(&again, data, used, 24);
		FUZZ_ASSERT(thr_skip(&again, THR_STRUCT));
		FUZZ_ASSERT(thr_consumed(&again) == used);
	}
	else
		FUZZ_ASSERT(thr_failed(&r) && r.error[0] != '\0');

	thr_init(&r, data, size, 24);
	walk_struct(&r);
	FUZZ_ASSERT(thr_consumed(&r) <= size);
	FUZZ_ASSERT(!thr_failed(&r) || r.error[0] != '\0');
	return 0;
}
