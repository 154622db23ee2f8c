/*-------------------------------------------------------------------------
 *
 * fmt_arena.c
 *	  A bounded bump allocator for running src/format outside the backend.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/fmt_arena.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_alloc.h"

struct FmtArenaBlock
{
	FmtArenaBlock *next;
	size_t		size;
	size_t		pos;
	/* payload follows, 16-byte aligned */
};

#define ARENA_HDR (((sizeof(FmtArenaBlock) + 15) / 16) * 16)
#define ARENA_MIN_BLOCK (64 * 1024)

void
fmt_arena_init(FmtArena *arena, size_t limit)
{
	arena->blocks = NULL;
	arena->used = 0;
	arena->limit = limit;
}

void *
fmt_arena_alloc(void *ctx, size_t size)
{
	FmtArena   *arena = (FmtArena *) ctx;
	FmtArenaBlock *b = arena->blocks;
	void	   *p;

	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + 7) & ~(size_t) 7;
	if (arena->limit != 0 && (size > arena->limit || arena->used > arena->limit - size))
		return NULL;

	if (b == NULL || b->size - b->pos < size)
	{
		size_t		bsize = size > ARENA_MIN_BLOCK ? size : ARENA_MIN_BLOCK;

		b = malloc(ARENA_HDR + bsize);
		if (b == NULL)
			return NULL;
		b->next = arena->blocks;
		b->size = bsize;
		b->pos = 0;
		arena->blocks = b;
	}
	p = (char *) b + ARENA_HDR + b->pos;
	b->pos += size;
	arena->used += size;
	memset(p, 0, size);
	return p;
}

void
fmt_arena_free_all(FmtArena *arena)
{
	FmtArenaBlock *b = arena->blocks;

	while (b)
	{
		FmtArenaBlock *next = b->next;

		free(b);
		b = next;
	}
	arena->blocks = NULL;
	arena->used = 0;
}

FmtAllocator
fmt_arena_allocator(FmtArena *arena)
{
	FmtAllocator a;

	a.alloc = fmt_arena_alloc;
	a.alloc_raw = NULL;			/* (zeroed for the harnesses too) */
	a.ctx = arena;
	return a;
}
