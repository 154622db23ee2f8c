/*-------------------------------------------------------------------------
 *
 * fmt_alloc.h
 *	  Caller-supplied allocation for the pure-C decoders of src/format.
 *
 * The decoders never call malloc or free themselves.  Every byte they
 * allocate comes from an FmtAllocator; nothing is freed individually.  The
 * owner of the allocator's context releases everything at once: inside the
 * backend that is a MemoryContext (palloc_extended with MCXT_ALLOC_NO_OOM),
 * in the unit tests and fuzz harnesses a FmtArena.
 *
 * An allocator returns NULL when it cannot (or will not) satisfy a request;
 * the decoders turn that into an ordinary returned error.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/fmt_alloc.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_FMT_ALLOC_H
#define DELTACC_FMT_ALLOC_H

#include <stddef.h>
#include <string.h>

typedef void *(*FmtAllocFn) (void *ctx, size_t size);

typedef struct FmtAllocator
{
	FmtAllocFn	alloc;			/* returns zeroed memory, 8-byte aligned, or
								 * NULL */
	FmtAllocFn	alloc_raw;		/* the same, not zeroed (NULL: alloc serves) */
	void	   *ctx;
} FmtAllocator;

static inline void *
fmt_alloc(const FmtAllocator *a, size_t size)
{
	return a->alloc(a->ctx, size == 0 ? 1 : size);
}

/*
 * Memory that need not be zeroed: only for a buffer the caller fills whole
 * before anything reads it (a decompressed page, bytes read from a file).
 */
static inline void *
fmt_alloc_raw(const FmtAllocator *a, size_t size)
{
	return (a->alloc_raw ? a->alloc_raw : a->alloc) (a->ctx, size == 0 ? 1 : size);
}

/*
 * A NUL-terminated copy of the n bytes at s, from a; NULL when a fails.
 */
static inline char *
fmt_strndup(const FmtAllocator *a, const char *s, size_t n)
{
	char	   *d = fmt_alloc_raw(a, n + 1);

	if (d != NULL)
	{
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/*
 * FmtArena: a malloc-backed bump allocator for code outside the backend
 * (unit tests, fuzz harnesses).  'limit' bounds the total bytes it hands out
 * (0 = unbounded), so a harness can check that hostile input cannot make a
 * decoder allocate without bound.
 */
typedef struct FmtArenaBlock FmtArenaBlock;

typedef struct FmtArena
{
	FmtArenaBlock *blocks;
	size_t		used;			/* bytes handed out so far */
	size_t		limit;			/* 0 = no limit */
} FmtArena;

extern void fmt_arena_init(FmtArena *arena, size_t limit);
extern void *fmt_arena_alloc(void *arena, size_t size);
extern void fmt_arena_free_all(FmtArena *arena);
extern FmtAllocator fmt_arena_allocator(FmtArena *arena);

#endif							/* DELTACC_FMT_ALLOC_H */
