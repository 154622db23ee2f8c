/*
 * pg_stubs.c
 *	  The few PostgreSQL backend services that src/log/actions.c and
 *	  src/common/json_util.c need, for running them standalone under libFuzzer
 *	  (fuzz_actions.c): memory contexts reduced to a list of malloc'd
 *	  blocks freed after every input, ereport(ERROR) turned into a longjmp
 *	  back to the harness (after formatting the message, so format bugs
 *	  show up under the sanitizers), StringInfo, escape_json and the
 *	  interrupt and stack-depth checks as no-ops.
 *
 * Only what the linker asks for is here.  The Jsonb side of json_util.c is
 * not reachable from action decoding: its backend functions abort.
 */
#include "postgres.h"

#include <setjmp.h>
#include <stdarg.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/json.h"
#include "utils/memutils.h"

#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"

#include "common/json_util.h"
#include "pg_stubs.h"

/* port.h maps the printf family onto src/port's; use the C library's */
#undef vsnprintf
#undef fprintf
#undef vfprintf

int
pg_vsnprintf(char *str, size_t count, const char *fmt, va_list args)
{
	return vsnprintf(str, count, fmt, args);
}

int
pg_fprintf(FILE *stream, const char *fmt,...)
{
	va_list		args;
	int			n;

	va_start(args, fmt);
	n = vfprintf(stream, fmt, args);
	va_end(args);
	return n;
}

/* ---- the Jsonb half of json_util.c: never reached from action decoding ---- */
JsonbValue *
pushJsonbValue(JsonbParseState **pstate, JsonbIteratorToken seq,
			   JsonbValue *jbval)
{
	abort();
}

Jsonb *
JsonbValueToJsonb(JsonbValue *val)
{
	abort();
}

Datum
numeric_in(PG_FUNCTION_ARGS)
{
	abort();
}

Datum
numeric_out(PG_FUNCTION_ARGS)
{
	abort();
}

bool
numeric_is_nan(Numeric num)
{
	abort();
}

bool
numeric_is_inf(Numeric num)
{
	abort();
}

Datum
DirectFunctionCall1Coll(PGFunction func, Oid collation, Datum arg1)
{
	abort();
}

JsonbIterator *
JsonbIteratorInit(JsonbContainer *container)
{
	abort();
}

JsonbIteratorToken
JsonbIteratorNext(JsonbIterator **it, JsonbValue *val, bool skipNested)
{
	abort();
}

int
GetDatabaseEncoding(void)
{
	abort();
}

char *
JsonbToCString(StringInfo out, JsonbContainer *in, int estimated_len)
{
	abort();
}

Numeric
int64_to_numeric(int64 val)
{
	abort();
}

Numeric
int64_div_fast_to_numeric(int64 val1, int log10val2)
{
	abort();
}

void
pg_qsort(void *base, size_t nel, size_t elsize,
		 int (*cmp) (const void *, const void *))
{
	abort();
}

Datum
DirectFunctionCall3Coll(PGFunction func, Oid collation, Datum arg1,
						Datum arg2, Datum arg3)
{
	abort();
}

struct varlena *
pg_detoast_datum(struct varlena *datum)
{
	abort();
}

/* ---- allocation: every block goes on one list, freed per input ---- */
typedef struct StubBlock
{
	struct StubBlock *next;
	size_t		size;
	double		data[];		/* MAXALIGN'd payload */
} StubBlock;

static StubBlock *blocks = NULL;
static size_t allocated = 0;
static MemoryContextData stub_context;
MemoryContext CurrentMemoryContext = &stub_context;
MemoryContext TopMemoryContext = &stub_context;
ErrorContextCallback *error_context_stack = NULL;
sigjmp_buf *PG_exception_stack = NULL;
volatile sig_atomic_t InterruptPending = false;

jmp_buf		stub_error_jmp;
char		stub_last_error[1024];

static void *
stub_alloc(size_t size, bool zero)
{
	StubBlock  *b;

	/* the backend's limits: MaxAllocSize, MaxAllocHugeSize, and a budget */
	if (size > MaxAllocHugeSize || allocated + size > STUB_ALLOC_BUDGET)
		ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory (stub budget)"));
	b = malloc(sizeof(StubBlock) + size + 1);
	if (b == NULL)
		abort();
	if (zero)
		memset(b->data, 0, size);
	b->size = size;
	b->next = blocks;
	blocks = b;
	allocated += size;
	return b->data;
}

void
stub_free_all(void)
{
	while (blocks)
	{
		StubBlock  *n = blocks->next;

		free(blocks);
		blocks = n;
	}
	allocated = 0;
	error_context_stack = NULL;
	dc_json_scratch_forget();	/* its blocks were just freed */
}

void *
palloc(Size size)
{
	if (!AllocSizeIsValid(size))
		ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("invalid memory alloc request size %zu", size));
	return stub_alloc(size, false);
}

void *
palloc0(Size size)
{
	if (!AllocSizeIsValid(size))
		ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("invalid memory alloc request size %zu", size));
	return stub_alloc(size, true);
}

void *
palloc_extended(Size size, int flags)
{
	if (!(flags & MCXT_ALLOC_HUGE) && !AllocSizeIsValid(size))
		ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("invalid memory alloc request size %zu", size));
	return stub_alloc(size, (flags & MCXT_ALLOC_ZERO) != 0);
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return palloc(size);
}

void *
MemoryContextAllocZero(MemoryContext context, Size size)
{
	return palloc0(size);
}

void *
MemoryContextAllocHuge(MemoryContext context, Size size)
{
	return stub_alloc(size, false);
}

void *
MemoryContextAllocExtended(MemoryContext context, Size size, int flags)
{
	return palloc_extended(size, flags);
}

static void *
stub_realloc(void *pointer, Size size)
{
	StubBlock  *old = (StubBlock *) ((char *) pointer - offsetof(StubBlock, data));
	void	   *n = stub_alloc(size, false);

	memcpy(n, pointer, Min(old->size, size));
	return n;
}

void *
repalloc(void *pointer, Size size)
{
	if (!AllocSizeIsValid(size))
		ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("invalid memory alloc request size %zu", size));
	return stub_realloc(pointer, size);
}

void *
repalloc_huge(void *pointer, Size size)
{
	return stub_realloc(pointer, size);
}

void
pfree(void *pointer)
{
	/* freed with everything else after the input */
}

char *
pstrdup(const char *in)
{
	return pnstrdup(in, strlen(in));
}

char *
pnstrdup(const char *in, Size len)
{
	char	   *out;

	len = strnlen(in, len);
	out = palloc(len + 1);
	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

char *
psprintf(const char *fmt,...)
{
	va_list		args;
	int			n;
	char	   *out;

	va_start(args, fmt);
	n = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	out = palloc(n + 1);
	va_start(args, fmt);
	vsnprintf(out, n + 1, fmt, args);
	va_end(args);
	return out;
}

MemoryContext
AllocSetContextCreateInternal(MemoryContext parent, const char *name,
							  Size minContextSize, Size initBlockSize,
							  Size maxBlockSize)
{
	return &stub_context;
}

void
MemoryContextReset(MemoryContext context)
{
}

void
MemoryContextDelete(MemoryContext context)
{
}

void
MemoryContextSetParent(MemoryContext context, MemoryContext new_parent)
{
}

/* ---- errors ---- */
static int	stub_elevel;

bool
errstart(int elevel, const char *domain)
{
	stub_elevel = elevel;
	stub_last_error[0] = '\0';
	return elevel >= ERROR;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	ErrorContextCallback *cb;

	/* run the context callbacks, as the backend would */
	for (cb = error_context_stack; cb != NULL; cb = cb->previous)
		cb->callback(cb->arg);
	longjmp(stub_error_jmp, 1);
}

int
errcode(int sqlerrcode)
{
	/* an internal error (XX000) from bad input is a bug */
	if (sqlerrcode == ERRCODE_INTERNAL_ERROR)
		abort();
	return 0;
}

static int
stub_format(const char *fmt, va_list args)
{
	vsnprintf(stub_last_error, sizeof(stub_last_error), fmt, args);
	return 0;
}

#define STUB_FORMATTER(name) \
int \
name(const char *fmt,...) \
{ \
	va_list		args; \
	va_start(args, fmt); \
	stub_format(fmt, args); \
	va_end(args); \
	return 0; \
}

STUB_FORMATTER(errmsg)
STUB_FORMATTER(errmsg_internal)
STUB_FORMATTER(errdetail)
STUB_FORMATTER(errdetail_internal)
STUB_FORMATTER(errhint)
STUB_FORMATTER(errcontext_msg)

int
set_errcontext_domain(const char *domain)
{
	return 0;
}

void
ProcessInterrupts(void)
{
}

void
check_stack_depth(void)
{
}

/* ---- StringInfo and escape_json ---- */
void
initStringInfo(StringInfo str)
{
	str->maxlen = 1024;
	str->data = palloc(str->maxlen);
	str->len = 0;
	str->data[0] = '\0';
	str->cursor = 0;
}

void
enlargeStringInfo(StringInfo str, int needed)
{
	int			newlen;

	if (needed < 0 || ((Size) needed) >= (MaxAllocSize - (Size) str->len))
		ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("out of memory"));
	needed += str->len + 1;
	if (needed <= str->maxlen)
		return;
	newlen = 2 * str->maxlen;
	while (needed > newlen)
		newlen = 2 * newlen;
	if (newlen > (int) MaxAllocSize)
		newlen = (int) MaxAllocSize;
	str->data = repalloc(str->data, newlen);
	str->maxlen = newlen;
}

void
appendBinaryStringInfo(StringInfo str, const char *data, int datalen)
{
	enlargeStringInfo(str, datalen);
	memcpy(str->data + str->len, data, datalen);
	str->len += datalen;
	str->data[str->len] = '\0';
}

void
appendStringInfoString(StringInfo str, const char *s)
{
	appendBinaryStringInfo(str, s, strlen(s));
}

void
appendStringInfoChar(StringInfo str, char ch)
{
	appendBinaryStringInfo(str, &ch, 1);
}

void
appendStringInfo(StringInfo str, const char *fmt,...)
{
	va_list		args;
	int			n;

	va_start(args, fmt);
	n = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	enlargeStringInfo(str, n);
	va_start(args, fmt);
	vsnprintf(str->data + str->len, n + 1, fmt, args);
	va_end(args);
	str->len += n;
}

void
escape_json(StringInfo buf, const char *str)
{
	const unsigned char *p;

	appendStringInfoChar(buf, '"');
	for (p = (const unsigned char *) str; *p; p++)
	{
		if (*p == '"' || *p == '\\')
		{
			appendStringInfoChar(buf, '\\');
			appendStringInfoChar(buf, (char) *p);
		}
		else if (*p < 0x20)
			appendStringInfo(buf, "\\u%04x", *p);
		else
			appendStringInfoChar(buf, (char) *p);
	}
	appendStringInfoChar(buf, '"');
}
