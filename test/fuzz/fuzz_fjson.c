/*
 * fuzz_fjson.c
 *	  libFuzzer harness for the fast JSON parser of src/common/json_util.c (fj_*,
 *	  used for every log line and statistics string): the input is parsed
 *	  with dc_json_peek (the fast parser, falling back to djson) and with
 *	  dj_parse.  Runs outside the server on pg_stubs.c.
 *
 * Also fl_may_name_state (src/log/fastline.c: which log lines a check skips
 * unparsed in its read version): it answers as a plain byte-by-byte
 * search for "metaData", "protocol" and backslash-u does, and it is true
 * whenever dj_parse takes the input for an object with a metaData or a
 * protocol member.
 *
 * Checked: dc_json_peek accepts exactly the inputs dj_parse accepts (its
 * fast parser may decline an input and leave it to djson, but must never
 * accept one djson refuses), and the tree it hands to the peek callback is
 * the same as djson's (types, lengths, bytes including each string's
 * terminating NUL, member order).  That the fast parser itself takes the
 * common inputs is not checked here; the assert-enabled builds of the test
 * suite compare each tree it makes with djson's.
 */
#include "postgres.h"

#include "log/fastline.h"
#include "common/json_util.h"

#include "fuzz_common.h"
#include "pg_stubs.h"

static const DjValue *ref_tree;

/* dc_json_peek callback: the fast tree must be djson's. */
static void
check_tree(void *arg, const DjValue *v)
{
	FUZZ_ASSERT(ref_tree != NULL);
	FUZZ_ASSERT(dj_equal(v, ref_tree));
	*(bool *) arg = true;
}

/* fl_may_name_state the plain way */
static bool
naive_may_name_state(const char *p, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if ((n - i >= 2 && p[i] == '\\' && p[i + 1] == 'u') ||
			(n - i >= 8 && (memcmp(p + i, "metaData", 8) == 0 ||
							memcmp(p + i, "protocol", 8) == 0)))
			return true;
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (setjmp(stub_error_jmp) == 0)
	{
		FmtAllocator alloc = dc_fmt_allocator(CurrentMemoryContext);
		DjValue		ref;
		DjError		err;
		bool		ref_ok;
		bool		fast_ok;
		bool		peeked = false;

		ref_ok = dj_parse((const char *) data, size, &alloc,
						  DJ_DEFAULT_MAX_DEPTH, &ref, &err);
		ref_tree = ref_ok ? &ref : NULL;
		fast_ok = dc_json_peek((const char *) data, size, check_tree, &peeked);
		FUZZ_ASSERT(fast_ok == ref_ok);
		FUZZ_ASSERT(peeked == fast_ok);	/* peek is called exactly on success */
		{
			bool		may = fl_may_name_state((const char *) data, size);
			uint32		i;

			FUZZ_ASSERT(may == naive_may_name_state((const char *) data, size));
			if (ref_ok && ref.type == DJ_OBJECT)
				for (i = 0; i < ref.len; i++)
					if (strcmp(ref.u.members[i].key, "metaData") == 0 ||
						strcmp(ref.u.members[i].key, "protocol") == 0)
						FUZZ_ASSERT(may);
		}
	}
	ref_tree = NULL;
	stub_free_all();
	return 0;
}
