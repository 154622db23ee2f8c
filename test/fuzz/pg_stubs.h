/*
 * pg_stubs.h
 *	  Standalone stand-ins for backend services (see pg_stubs.c), for the
 *	  harnesses that fuzz PostgreSQL-side decoding code (fuzz_actions.c).
 */
#ifndef DELTACC_PG_STUBS_H
#define DELTACC_PG_STUBS_H

#include <setjmp.h>

/* Allocation budget per input (the backend's limits are checked too). */
#define STUB_ALLOC_BUDGET ((size_t) 256 << 20)

/* ereport(ERROR) longjmps here; the message of the last one. */
extern jmp_buf stub_error_jmp;
extern char stub_last_error[1024];

/* Free everything allocated since the last call. */
extern void stub_free_all(void);

#endif
