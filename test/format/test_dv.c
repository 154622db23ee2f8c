/*
 * test_dv.c
 *	  Unit tests of the deletion-vector decoders: Z85, Roaring /
 *	  RoaringBitmapArray, the DV file framing, and the real DVs of the
 *	  conformance tables (DELTACC_TABLES, else /work/shared/delta-tables;
 *	  skipped when absent).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "djson.h"
#include "dvfile.h"
#include "roaring.h"
#include "unit.h"
#include "z85.h"

/* ---------- byte building helpers ---------- */

typedef struct Buf
{
	uint8_t    *b;
	size_t		n;
	size_t		cap;
} Buf;

static void
buf_init(Buf *b)
{
	b->cap = 1 << 20;
	b->b = calloc(1, b->cap);
	b->n = 0;
}

static void
put8(Buf *b, unsigned v)
{
	if (b->n < b->cap)
		b->b[b->n++] = (uint8_t) v;
}

static void
put16(Buf *b, unsigned v)
{
	put8(b, v & 0xFF);
	put8(b, (v >> 8) & 0xFF);
}

static void
put32(Buf *b, uint32_t v)
{
	put16(b, v & 0xFFFF);
	put16(b, v >> 16);
}

static void
put64(Buf *b, uint64_t v)
{
	put32(b, (uint32_t) v);
	put32(b, (uint32_t) (v >> 32));
}

static void
put32be(Buf *b, uint32_t v)
{
	put8(b, v >> 24);
	put8(b, (v >> 16) & 0xFF);
	put8(b, (v >> 8) & 0xFF);
	put8(b, v & 0xFF);
}

static void
set32(Buf *b, size_t at, uint32_t v)
{
	b->b[at] = v & 0xFF;
	b->b[at + 1] = (v >> 8) & 0xFF;
	b->b[at + 2] = (v >> 16) & 0xFF;
	b->b[at + 3] = v >> 24;
}

enum
{
	K_ARRAY, K_BITMAP, K_RUN
};

typedef struct TCont
{
	uint16_t	key;
	int			kind;
	int			n;				/* values, or runs */
	const uint16_t *v;			/* values, or (start, len-1) pairs */
} TCont;

static uint32_t
tcont_card(const TCont *c)
{
	uint32_t	card = 0;
	int			i;

	if (c->kind != K_RUN)
		return (uint32_t) c->n;
	for (i = 0; i < c->n; i++)
		card += (uint32_t) c->v[2 * i + 1] + 1;
	return card;
}

/*
 * Serialize a standard 32-bit Roaring bitmap.  run_cookie selects the
 * 12347 cookie (needed when a run container is present).
 */
static void
emit_r32(Buf *b, int n, const TCont *c, bool run_cookie)
{
	size_t		start = b->n;
	size_t		offpos = 0;
	bool		offsets;
	int			i;
	int			j;

	if (run_cookie)
	{
		put32(b, 12347u | ((uint32_t) (n - 1) << 16));
		for (i = 0; i < (n + 7) / 8; i++)
		{
			unsigned	flags = 0;

			for (j = 0; j < 8 && i * 8 + j < n; j++)
				if (c[i * 8 + j].kind == K_RUN)
					flags |= 1u << j;
			put8(b, flags);
		}
		offsets = n >= 4;
	}
	else
	{
		put32(b, 12346u);
		put32(b, (uint32_t) n);
		offsets = true;
	}
	for (i = 0; i < n; i++)
	{
		put16(b, c[i].key);
		put16(b, tcont_card(&c[i]) - 1);
	}
	if (offsets)
	{
		offpos = b->n;
		for (i = 0; i < n; i++)
			put32(b, 0);
	}
	for (i = 0; i < n; i++)
	{
		if (offsets)
			set32(b, offpos + 4 * i, (uint32_t) (b->n - start));
		if (c[i].kind == K_ARRAY)
			for (j = 0; j < c[i].n; j++)
				put16(b, c[i].v[j]);
		else if (c[i].kind == K_RUN)
		{
			put16(b, (unsigned) c[i].n);
			for (j = 0; j < 2 * c[i].n; j++)
				put16(b, c[i].v[j]);
		}
		else
		{
			uint64_t	words[1024];

			memset(words, 0, sizeof(words));
			for (j = 0; j < c[i].n; j++)
				words[c[i].v[j] >> 6] |= (uint64_t) 1 << (c[i].v[j] & 63);
			for (j = 0; j < 1024; j++)
				put64(b, words[j]);
		}
	}
}

static bool
decode_array(FmtArena *arena, const Buf *b, RbSet *s, DvError *err)
{
	FmtAllocator a = fmt_arena_allocator(arena);

	return rb_decode_array(b->b, b->n, &a, s, err);
}

/* ---------- Z85 ---------- */

UNIT_TEST(dv_z85_uuid_vectors)
{
	char		uuid[37];
	char		rel[128];
	DvError		err;

	UNIT_CHECK(z85_decode_uuid("WYbkwCTB$gH)J7t?$/sK", 20, uuid, &err));
	UNIT_CHECK(strcmp(uuid, "b6a98cdd-7843-470d-8897-708cdffa38c5") == 0);
	/* protocol example: prefix "ab" */
	UNIT_CHECK(dv_relative_path("ab^-aqEH.-t@S}K{vb[*k^", 22, rel, sizeof(rel), &err));
	UNIT_CHECK(strcmp(rel, "ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin") == 0);
	UNIT_CHECK(dv_relative_path("WYbkwCTB$gH)J7t?$/sK", 20, rel, sizeof(rel), &err));
	UNIT_CHECK(strcmp(rel, "deletion_vector_b6a98cdd-7843-470d-8897-708cdffa38c5.bin") == 0);
	/* errors */
	UNIT_CHECK(!z85_decode_uuid("WYbkwCTB$gH)J7t?$/s", 19, uuid, &err));
	UNIT_CHECK(!z85_decode_uuid("WYbkwCTB$gH)J7t?$/s\"", 20, uuid, &err));
	UNIT_CHECK(strstr(err.message, "invalid Z85 character") != NULL);
	UNIT_CHECK(!dv_relative_path("../WYbkwCTB$gH)J7t?$/sK", 23, rel, sizeof(rel), &err));
	UNIT_CHECK(!dv_relative_path("a/WYbkwCTB$gH)J7t?$/sK", 22, rel, sizeof(rel), &err));
	UNIT_CHECK(!dv_relative_path("short", 5, rel, sizeof(rel), &err));
	UNIT_CHECK(!dv_relative_path("ab^-aqEH.-t@S}K{vb[*k^", 22, rel, 20, &err));
}

UNIT_TEST(dv_z85_roundtrip_and_errors)
{
	uint8_t		in[64];
	uint8_t		out[64];
	char		text[128];
	DvError		err;
	size_t		n;
	int			i;

	for (i = 0; i < 64; i++)
		in[i] = (uint8_t) (i * 37 + 11);
	for (n = 0; n <= 64; n++)
	{
		z85_encode(in, n, text);
		UNIT_CHECK(strlen(text) == z85_encoded_len(n));
		UNIT_CHECK(z85_decode(text, strlen(text), out, &err));
		UNIT_CHECK(memcmp(in, out, n) == 0);
	}
	/* 0xFFFFFFFF is "%nSc0"; above it Delta keeps the low 32 bits */
	in[0] = in[1] = in[2] = in[3] = 0xFF;
	z85_encode(in, 4, text);
	UNIT_CHECK(strcmp(text, "%nSc0") == 0);
	UNIT_CHECK(z85_decode("%nSc1", 5, out, &err));
	UNIT_CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0);
	UNIT_CHECK(z85_decode("#####", 5, out, &err));	/* 85^5-1 mod 2^32 */
	UNIT_CHECK(out[0] == 0x08 && out[1] == 0x78 && out[2] == 0x0e && out[3] == 0xc4);
	UNIT_CHECK(!z85_decode("0000", 4, out, &err));
	UNIT_CHECK(!z85_decode("000 0", 5, out, &err));
	UNIT_CHECK(!z85_decode("0000\0", 5, out, &err));
	UNIT_CHECK(z85_decode("", 0, out, &err));
}

/* ---------- the reference's worked vector (§4.5) ---------- */

static const uint8_t ref_file[] = {
	0x01,
	0x00, 0x00, 0x00, 0x24,
	0xD1, 0xD3, 0x39, 0x64, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x3A, 0x30, 0, 0, 0x01, 0, 0, 0, 0, 0, 0x01, 0, 0x10, 0, 0, 0, 0, 0, 0x09, 0,
	0x2A, 0x67, 0x18, 0x46
};

UNIT_TEST(dv_reference_vector)
{
	FmtArena	arena;
	FmtAllocator a;
	RbSet		s;
	RbIter		it;
	DvError		err;
	uint64_t	v;
	uint8_t		bad[sizeof(ref_file)];

	fmt_arena_init(&arena, 1 << 20);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(dv_decode_file(ref_file, sizeof(ref_file), 1, 36, 2, &a, &s, &err));
	UNIT_CHECK(rb_cardinality(&s) == 2);
	rb_iter_init(&it, &s);
	UNIT_CHECK(rb_iter_next(&it, &v) && v == 0);
	UNIT_CHECK(rb_iter_next(&it, &v) && v == 9);
	UNIT_CHECK(!rb_iter_next(&it, &v));
	UNIT_CHECK(rb_contains(&s, 9) && !rb_contains(&s, 8) && !rb_contains(&s, ((uint64_t) 1 << 32) | 9));

	/* cardinality mismatch */
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 1, 36, 3, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "cardinality") != NULL);
	/* size mismatch */
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 1, 35, 2, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "size") != NULL);
	/* offsets: 0 reads the version byte as size; past the end; negative */
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 0, 36, 2, &a, &s, &err));
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 41, 36, 2, &a, &s, &err));
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 1000, 36, 2, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "outside the file") != NULL);
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), -1, 36, 2, &a, &s, &err));
	/* truncated */
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file) - 1, 1, 36, 2, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "truncated") != NULL);
	UNIT_CHECK(!dv_decode_file(ref_file, 3, 1, 36, 2, &a, &s, &err));
	/* bad CRC */
	memcpy(bad, ref_file, sizeof(bad));
	bad[sizeof(bad) - 1] ^= 1;
	UNIT_CHECK(!dv_decode_file(bad, sizeof(bad), 1, 36, 2, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "checksum") != NULL);
	/* a flipped data byte is caught by the CRC too */
	memcpy(bad, ref_file, sizeof(bad));
	bad[30] ^= 0x40;
	UNIT_CHECK(!dv_decode_file(bad, sizeof(bad), 1, 36, 2, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "checksum") != NULL);
	/* bad version */
	memcpy(bad, ref_file, sizeof(bad));
	bad[0] = 2;
	UNIT_CHECK(!dv_decode_file(bad, sizeof(bad), 1, 36, 2, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "version") != NULL);
	UNIT_CHECK(!dv_decode_file(bad, 0, 1, 36, 2, &a, &s, &err));
	/* negative size / cardinality */
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 1, -1, 2, &a, &s, &err));
	UNIT_CHECK(!dv_decode_file(ref_file, sizeof(ref_file), 1, 36, -2, &a, &s, &err));
	fmt_arena_free_all(&arena);
}

UNIT_TEST(dv_inline)
{
	FmtArena	arena;
	FmtAllocator a;
	RbSet		s;
	DvError		err;
	const char *i4 = "^Bg9^0rr910000000000iXQKl0rr91000935c8Xg000311onP9";
	const char *proto = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
	char		text[128];

	fmt_arena_init(&arena, 1 << 20);
	a = fmt_arena_allocator(&arena);
	UNIT_CHECK(dv_decode_inline(i4, strlen(i4), 40, 4, &a, &s, &err));
	UNIT_CHECK(rb_cardinality(&s) == 4);
	UNIT_CHECK(!dv_decode_inline(i4, strlen(i4), 40, 5, &a, &s, &err));
	UNIT_CHECK(!dv_decode_inline(i4, strlen(i4), 44, 4, &a, &s, &err));
	UNIT_CHECK(!dv_decode_inline(i4, strlen(i4) - 5, 36, 4, &a, &s, &err));
	/* PROTOCOL.md's inline example is big-endian native: not readable */
	UNIT_CHECK(!dv_decode_inline(proto, strlen(proto), 40, 6, &a, &s, &err));
	UNIT_CHECK(strstr(err.message, "magic") != NULL);
	/* the reference vector re-encoded inline; 36 bytes need no padding */
	z85_encode(ref_file + 5, 36, text);
	UNIT_CHECK(dv_decode_inline(text, strlen(text), 36, 2, &a, &s, &err));
	/* 34 of its bytes (a truncated bitmap) still Z85-decode, then fail */
	UNIT_CHECK(!dv_decode_inline(text, strlen(text), 34, 2, &a, &s, &err));
	fmt_arena_free_all(&arena);
}

/* ---------- hand-built bitmaps ---------- */

static const uint16_t arr_vals[] = {1, 5, 65535};
static const uint16_t run_vals[] = {10, 4, 100, 0, 65000, 535};	/* 10..14, 100, 65000..65535 */

UNIT_TEST(dv_roaring_containers_portable)
{
	FmtArena	arena;
	Buf			b;
	RbSet		s;
	RbIter		it;
	DvError		err;
	uint64_t	v;
	uint64_t	prev = 0;
	uint64_t	count = 0;
	uint16_t   *bits = calloc(5000, sizeof(uint16_t));
	TCont		c[3];
	int			i;

	for (i = 0; i < 5000; i++)
		bits[i] = (uint16_t) (i * 13);	/* 0 .. 64987 */
	c[0] = (TCont) {0, K_ARRAY, 3, arr_vals};
	c[1] = (TCont) {2, K_BITMAP, 5000, bits};
	c[2] = (TCont) {7, K_RUN, 3, run_vals};
	fmt_arena_init(&arena, 4 << 20);
	buf_init(&b);
	put32(&b, RB_MAGIC_PORTABLE);
	put64(&b, 2);
	put32(&b, 0);
	emit_r32(&b, 3, c, true);
	put32(&b, 5);
	emit_r32(&b, 1, c, false);	/* array only, no-run cookie */
	UNIT_CHECK(decode_array(&arena, &b, &s, &err));
	UNIT_CHECK(rb_cardinality(&s) == 3 + 5000 + (5 + 1 + 536) + 3);
	UNIT_CHECK(s.ncontainers == 4);
	UNIT_CHECK(rb_contains(&s, 65535) && rb_contains(&s, 1) && !rb_contains(&s, 0));
	UNIT_CHECK(rb_contains(&s, (2 << 16) | 13) && !rb_contains(&s, (2 << 16) | 14));
	UNIT_CHECK(rb_contains(&s, (7 << 16) | 14) && !rb_contains(&s, (7 << 16) | 15));
	UNIT_CHECK(rb_contains(&s, (7 << 16) | 65535) && !rb_contains(&s, (7 << 16) | 64999));
	UNIT_CHECK(rb_contains(&s, ((uint64_t) 5 << 32) | 5));
	UNIT_CHECK(!rb_contains(&s, ((uint64_t) 4 << 32) | 5));
	rb_iter_init(&it, &s);
	while (rb_iter_next(&it, &v))
	{
		if (count > 0 && v <= prev)
			UNIT_CHECK(v > prev);
		UNIT_CHECK(rb_contains(&s, v));
		prev = v;
		count++;
	}
	UNIT_CHECK(count == rb_cardinality(&s));
	UNIT_CHECK(rb_min(&s, &v) && v == 1);
	UNIT_CHECK(rb_max(&s, &v) && v == (((uint64_t) 5 << 32) | 65535));
	UNIT_CHECK(rb_is_subset(&s, &s));

	/* the same bitmap with all containers under the run cookie, 4+ containers (offsets) */
	{
		TCont		c4[4];
		RbSet		s4;

		c4[0] = c[0];
		c4[1] = c[1];
		c4[2] = c[2];
		c4[3] = (TCont) {9, K_RUN, 1, run_vals};
		b.n = 0;
		put32(&b, RB_MAGIC_PORTABLE);
		put64(&b, 1);
		put32(&b, 0);
		emit_r32(&b, 4, c4, true);
		UNIT_CHECK(decode_array(&arena, &b, &s4, &err));
		UNIT_CHECK(rb_cardinality(&s4) == 3 + 5000 + 542 + 5);
		UNIT_CHECK(rb_max(&s4, &v) && v == ((9 << 16) | 14));
		/* s4 minus bucket 5 is not a superset of s; s4 is not inside s */
		UNIT_CHECK(!rb_is_subset(&s, &s4));
		UNIT_CHECK(!rb_is_subset(&s4, &s));
	}
	free(b.b);
	free(bits);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(dv_roaring_native_layout)
{
	FmtArena	arena;
	Buf			b;
	Buf			inner;
	RbSet		s;
	DvError		err;
	uint64_t	v;
	TCont		c = {3, K_ARRAY, 3, arr_vals};

	fmt_arena_init(&arena, 4 << 20);
	buf_init(&b);
	buf_init(&inner);
	emit_r32(&inner, 1, &c, false);
	put32(&b, RB_MAGIC_NATIVE);
	put32(&b, 3);
	/* bitmap 0: empty; bitmap 1: empty; bitmap 2: the array */
	put32(&b, 8);
	put32(&b, 12346);
	put32(&b, 0);
	put32(&b, 8);
	put32(&b, 12346);
	put32(&b, 0);
	put32(&b, (uint32_t) inner.n);
	memcpy(b.b + b.n, inner.b, inner.n);
	b.n += inner.n;
	UNIT_CHECK(decode_array(&arena, &b, &s, &err));
	UNIT_CHECK(rb_cardinality(&s) == 3);
	UNIT_CHECK(rb_min(&s, &v) && v == (((uint64_t) 2 << 32) | (3 << 16) | 1));
	UNIT_CHECK(rb_contains(&s, ((uint64_t) 2 << 32) | (3 << 16) | 65535));
	/* wrong inner length */
	set32(&b, 4 + 4 + 12 + 12, (uint32_t) inner.n + 1);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	set32(&b, 4 + 4 + 12 + 12, (uint32_t) inner.n - 1);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	/* negative / huge counts */
	set32(&b, 4, 0x80000000u);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	set32(&b, 4, 1000000);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	UNIT_CHECK(strstr(err.message, "truncated") != NULL);
	/* empty array of bitmaps */
	b.n = 0;
	put32(&b, RB_MAGIC_NATIVE);
	put32(&b, 0);
	UNIT_CHECK(decode_array(&arena, &b, &s, &err) && rb_cardinality(&s) == 0);
	UNIT_CHECK(!rb_min(&s, &v) && !rb_max(&s, &v));
	free(b.b);
	free(inner.b);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(dv_roaring_lone_32bit)
{
	FmtArena	arena;
	FmtAllocator a;
	Buf			b;
	RbSet		s;
	DvError		err;
	TCont		c[2];

	c[0] = (TCont) {0, K_ARRAY, 3, arr_vals};
	c[1] = (TCont) {65535, K_RUN, 3, run_vals};
	fmt_arena_init(&arena, 1 << 20);
	a = fmt_arena_allocator(&arena);
	buf_init(&b);
	emit_r32(&b, 2, c, true);
	UNIT_CHECK(rb_decode_roaring32(b.b, b.n, &a, &s, &err));
	UNIT_CHECK(rb_cardinality(&s) == 3 + 542);
	UNIT_CHECK(rb_contains(&s, 0xFFFFFFFFu) && !rb_contains(&s, 0x100000000ull));
	free(b.b);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(dv_roaring_subset)
{
	FmtArena	arena;
	Buf			b;
	RbSet		small;
	RbSet		big;
	RbSet		runs;
	RbSet		empty;
	DvError		err;
	static const uint16_t sv[] = {10, 12, 14};
	static const uint16_t bv[] = {9, 10, 11, 12, 13, 14};
	static const uint16_t rv[] = {0, 99};
	static const uint16_t rv2[] = {0, 49, 60, 39};
	TCont		c;

	fmt_arena_init(&arena, 1 << 20);
	buf_init(&b);
#define BUILD(set, cont) \
	do { b.n = 0; put32(&b, RB_MAGIC_PORTABLE); put64(&b, 1); put32(&b, 0); \
		 c = cont; emit_r32(&b, 1, &c, c.kind == K_RUN); \
		 UNIT_CHECK(decode_array(&arena, &b, &set, &err)); } while (0)
	BUILD(small, ((TCont) {0, K_ARRAY, 3, sv}));
	BUILD(big, ((TCont) {0, K_ARRAY, 6, bv}));
	BUILD(runs, ((TCont) {0, K_RUN, 1, rv}));
	rb_set_empty(&empty);
	UNIT_CHECK(rb_is_subset(&small, &big));
	UNIT_CHECK(!rb_is_subset(&big, &small));
	UNIT_CHECK(rb_is_subset(&small, &runs));
	UNIT_CHECK(rb_is_subset(&big, &runs));
	UNIT_CHECK(!rb_is_subset(&runs, &big));
	UNIT_CHECK(rb_is_subset(&empty, &small));
	UNIT_CHECK(!rb_is_subset(&small, &empty));
	/* run vs run: 0..49, 60..99 inside 0..99 but not conversely */
	{
		RbSet		runs2;

		BUILD(runs2, ((TCont) {0, K_RUN, 2, rv2}));
		UNIT_CHECK(rb_is_subset(&runs2, &runs));
		UNIT_CHECK(!rb_is_subset(&runs, &runs2));
		UNIT_CHECK(!rb_is_subset(&big, &runs2) == false);	/* 9..14 inside 0..49 */
	}
#undef BUILD
	free(b.b);
	fmt_arena_free_all(&arena);
}

/* ---------- corrupt bitmaps ---------- */

UNIT_TEST(dv_roaring_corrupt)
{
	FmtArena	arena;
	Buf			b;
	RbSet		s;
	DvError		err;
	TCont		c[2];
	static const uint16_t dup[] = {5, 5};
	static const uint16_t desc[] = {6, 5};
	static const uint16_t overlap[] = {10, 5, 12, 0};
	static const uint16_t wide[] = {65530, 10};
	size_t		at;

	fmt_arena_init(&arena, 1 << 20);
	buf_init(&b);

#define START(nb) do { b.n = 0; put32(&b, RB_MAGIC_PORTABLE); put64(&b, nb); } while (0)
	/* bad magic */
	START(0);
	b.b[0] ^= 0x10;
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "magic"));
	/* too short for anything */
	b.n = 3;
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	/* empty portable array is fine */
	START(0);
	UNIT_CHECK(decode_array(&arena, &b, &s, &err) && rb_cardinality(&s) == 0);
	/* trailing bytes */
	put8(&b, 0);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "trailing"));
	/* bogus bucket counts */
	START(-1);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	START(0x7FFFFFFF);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "truncated"));
	/* bucket key with top bit / not ascending */
	c[0] = (TCont) {0, K_ARRAY, 3, arr_vals};
	START(1);
	put32(&b, 0x80000000u);
	emit_r32(&b, 1, c, false);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "bucket key"));
	START(2);
	put32(&b, 4);
	emit_r32(&b, 1, c, false);
	put32(&b, 4);
	emit_r32(&b, 1, c, false);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "ascending"));
	/* bad cookie */
	START(1);
	put32(&b, 0);
	put32(&b, 12345);
	put32(&b, 0);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "cookie"));
	/* bogus container count */
	START(1);
	put32(&b, 0);
	put32(&b, 12346);
	put32(&b, 70000);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	START(1);
	put32(&b, 0);
	put32(&b, 12346);
	put32(&b, 5000);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "truncated"));
	/* run cookie claiming 65536 containers */
	START(1);
	put32(&b, 0);
	put32(&b, 12347u | 0xFFFF0000u);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	/* container keys not ascending */
	c[0] = (TCont) {3, K_ARRAY, 3, arr_vals};
	c[1] = (TCont) {3, K_ARRAY, 3, arr_vals};
	START(1);
	put32(&b, 0);
	emit_r32(&b, 2, c, false);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "keys"));
	/* array values duplicated / descending */
	c[0] = (TCont) {0, K_ARRAY, 2, dup};
	START(1);
	put32(&b, 0);
	emit_r32(&b, 1, c, false);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	c[0] = (TCont) {0, K_ARRAY, 2, desc};
	START(1);
	put32(&b, 0);
	emit_r32(&b, 1, c, false);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	/* runs overlapping / beyond 16 bits / zero runs */
	c[0] = (TCont) {0, K_RUN, 2, overlap};
	START(1);
	put32(&b, 0);
	emit_r32(&b, 1, c, true);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "overlap"));
	c[0] = (TCont) {0, K_RUN, 1, wide};
	START(1);
	put32(&b, 0);
	emit_r32(&b, 1, c, true);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "16 bits"));
	c[0] = (TCont) {0, K_RUN, 1, run_vals};
	START(1);
	put32(&b, 0);
	at = b.n;
	emit_r32(&b, 1, c, true);
	b.b[at + 4 + 1 + 4] = 0;	/* run count */
	b.b[at + 4 + 1 + 4 + 1] = 0;
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err));
	/* header cardinality disagrees with the run lengths */
	START(1);
	put32(&b, 0);
	at = b.n;
	emit_r32(&b, 1, c, true);
	b.b[at + 4 + 1 + 2] = 9;
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "header says"));
	/* offset past the end / wrong offset */
	c[0] = (TCont) {0, K_ARRAY, 3, arr_vals};
	START(1);
	put32(&b, 0);
	at = b.n;
	emit_r32(&b, 1, c, false);
	set32(&b, at + 12, 0x7FFFFFF0u);
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "offset"));
	/* truncated container data */
	START(1);
	put32(&b, 0);
	emit_r32(&b, 1, c, false);
	b.n -= 1;
	UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "truncated"));
	/* bitmap container with a wrong popcount: header says 5000, 4097 set */
	{
		uint16_t   *bits = calloc(4097, sizeof(uint16_t));
		int			i;

		for (i = 0; i < 4097; i++)
			bits[i] = (uint16_t) i;
		c[0] = (TCont) {0, K_BITMAP, 4097, bits};
		START(1);
		put32(&b, 0);
		at = b.n;
		emit_r32(&b, 1, c, false);
		UNIT_CHECK(decode_array(&arena, &b, &s, &err) && rb_cardinality(&s) == 4097);
		b.b[at + 8 + 2] = (5000 - 1) & 0xFF;
		b.b[at + 8 + 3] = (5000 - 1) >> 8;
		UNIT_CHECK(!decode_array(&arena, &b, &s, &err) && strstr(err.message, "bitmap container"));
		free(bits);
	}
#undef START
	free(b.b);
	fmt_arena_free_all(&arena);
}

/* Two DVs in one file: the second at an offset other than 1. */
UNIT_TEST(dv_file_two_frames)
{
	FmtArena	arena;
	FmtAllocator a;
	Buf			bm;
	Buf			f;
	RbSet		s;
	DvError		err;
	TCont		c = {0, K_RUN, 3, run_vals};
	size_t		second;

	fmt_arena_init(&arena, 1 << 20);
	a = fmt_arena_allocator(&arena);
	buf_init(&bm);
	buf_init(&f);
	put32(&bm, RB_MAGIC_PORTABLE);
	put64(&bm, 1);
	put32(&bm, 0);
	emit_r32(&bm, 1, &c, true);
	put8(&f, 1);
	put32be(&f, 36);
	memcpy(f.b + f.n, ref_file + 5, 40);
	f.n += 40;
	second = f.n;
	put32be(&f, (uint32_t) bm.n);
	memcpy(f.b + f.n, bm.b, bm.n);
	f.n += bm.n;
	put32be(&f, (uint32_t) crc32(crc32(0L, Z_NULL, 0), bm.b, (uInt) bm.n));
	UNIT_CHECK(dv_decode_file(f.b, f.n, 1, 36, 2, &a, &s, &err));
	UNIT_CHECK(dv_decode_file(f.b, f.n, (int64_t) second, (int64_t) bm.n, 542, &a, &s, &err));
	UNIT_CHECK(rb_contains(&s, 65535) && !rb_contains(&s, 15));
	UNIT_CHECK(!dv_decode_file(f.b, f.n, (int64_t) second - 1, (int64_t) bm.n, 542, &a, &s, &err));
	free(bm.b);
	free(f.b);
	fmt_arena_free_all(&arena);
}

UNIT_TEST(dv_uri_paths)
{
	char		out[256];
	DvError		err;

	UNIT_CHECK(dv_uri_to_path("file:/tmp/a%20b/x.bin", 21, out, sizeof(out), &err));
	UNIT_CHECK(strcmp(out, "/tmp/a b/x.bin") == 0);
	UNIT_CHECK(dv_uri_to_path("file:///tmp/x.bin", 17, out, sizeof(out), &err));
	UNIT_CHECK(strcmp(out, "/tmp/x.bin") == 0);
	UNIT_CHECK(dv_uri_to_path("file://localhost/tmp/x.bin", 26, out, sizeof(out), &err));
	UNIT_CHECK(strcmp(out, "/tmp/x.bin") == 0);
	UNIT_CHECK(!dv_uri_to_path("s3://bucket/x.bin", 17, out, sizeof(out), &err));
	UNIT_CHECK(!dv_uri_to_path("file://host/x.bin", 17, out, sizeof(out), &err));
	UNIT_CHECK(dv_uri_to_path("/tmp/x%2Fy.bin", 14, out, sizeof(out), &err));
	UNIT_CHECK(strcmp(out, "/tmp/x/y.bin") == 0);
	UNIT_CHECK(!dv_uri_to_path("//host/x.bin", 12, out, sizeof(out), &err));
	UNIT_CHECK(!dv_uri_to_path("tmp/x.bin", 9, out, sizeof(out), &err));
	UNIT_CHECK(!dv_uri_to_path("file:/tmp/%00", 13, out, sizeof(out), &err));
	UNIT_CHECK(!dv_uri_to_path("file:/tmp/%4", 12, out, sizeof(out), &err));
	UNIT_CHECK(!dv_uri_to_path("file:/", 6, out, sizeof(out), &err));
	UNIT_CHECK(!dv_uri_to_path("file:/tmp/x.bin", 15, out, 8, &err));
}

/* ---------- the real tables ---------- */

static char *
read_all(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf;
	long		n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	if (buf && fread(buf, 1, (size_t) n, f) != (size_t) n)
	{
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
	{
		buf[n] = '\0';
		*len = (size_t) n;
	}
	return buf;
}

static bool
get_i64(const DjValue *obj, const char *key, int64_t *out)
{
	const DjValue *v = dj_get(obj, key);

	return v && v->type == DJ_NUMBER && dj_to_int64(v, out);
}

/*
 * Decode every DV descriptor in the JSON commits of one table; returns how
 * many were checked, or -1 on any failure.
 */
static int
check_table_dvs(const char *tables, const char *name)
{
	char		root[1024];
	char		logdir[1100];
	char		path[2300];
	struct stat st;
	DIR		   *d;
	struct dirent *de;
	int			checked = 0;
	bool		ok = true;

	snprintf(root, sizeof(root), "%s/%s/delta", tables, name);
	if (stat(root, &st) != 0)
		snprintf(root, sizeof(root), "%s/%s", tables, name);
	snprintf(logdir, sizeof(logdir), "%s/_delta_log", root);
	d = opendir(logdir);
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
	{
		size_t		nlen = strlen(de->d_name);
		char	   *text;
		size_t		len;
		char	   *line;
		char	   *save = NULL;

		if (nlen != 25 || strcmp(de->d_name + 20, ".json") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", logdir, de->d_name);
		text = read_all(path, &len);
		if (text == NULL)
			return -1;
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		{
			FmtArena	arena;
			FmtAllocator a;
			DjValue		v;
			DjError		jerr;
			DvError		err;
			const DjValue *act;
			const DjValue *dv;
			const DjValue *st_type;
			const DjValue *pid;
			int64_t		size;
			int64_t		card;
			int64_t		offset = 0;
			RbSet		s;

			fmt_arena_init(&arena, 64 << 20);
			a = fmt_arena_allocator(&arena);
			if (!dj_parse(line, strlen(line), &a, 0, &v, &jerr))
			{
				fmt_arena_free_all(&arena);
				continue;
			}
			act = dj_get(&v, "add");
			if (act == NULL || act->type != DJ_OBJECT)
				act = dj_get(&v, "remove");
			dv = act && act->type == DJ_OBJECT ? dj_get(act, "deletionVector") : NULL;
			if (dv == NULL || dv->type != DJ_OBJECT)
			{
				fmt_arena_free_all(&arena);
				continue;
			}
			st_type = dj_get(dv, "storageType");
			pid = dj_get(dv, "pathOrInlineDv");
			if (!st_type || st_type->type != DJ_STRING || !pid || pid->type != DJ_STRING ||
				!get_i64(dv, "sizeInBytes", &size) || !get_i64(dv, "cardinality", &card))
			{
				fprintf(stderr, "  %s: malformed descriptor\n", name);
				ok = false;
			}
			else if (strcmp(st_type->u.str, "i") == 0)
			{
				if (!dv_decode_inline(pid->u.str, pid->len, size, card, &a, &s, &err))
				{
					fprintf(stderr, "  %s: inline DV: %s\n", name, err.message);
					ok = false;
				}
				else
					checked++;
			}
			else if (strcmp(st_type->u.str, "u") == 0)
			{
				char		rel[256];
				char		full[1400];
				char	   *file;
				size_t		flen;

				get_i64(dv, "offset", &offset);
				if (!dv_relative_path(pid->u.str, pid->len, rel, sizeof(rel), &err))
				{
					fprintf(stderr, "  %s: %s\n", name, err.message);
					ok = false;
				}
				else
				{
					snprintf(full, sizeof(full), "%s/%s", root, rel);
					file = read_all(full, &flen);
					if (file == NULL)
					{
						fprintf(stderr, "  %s: cannot read %s\n", name, full);
						ok = false;
					}
					else
					{
						if (!dv_decode_file((const uint8_t *) file, flen, offset, size, card,
											&a, &s, &err))
						{
							fprintf(stderr, "  %s: %s: %s\n", name, rel, err.message);
							ok = false;
						}
						else
						{
							const DjValue *stats = dj_get(act, "stats");
							uint64_t	mx;

							checked++;
							/* every deleted row index lies inside the file */
							if (stats && stats->type == DJ_STRING && rb_max(&s, &mx))
							{
								DjValue		sv;
								int64_t		nrec;

								if (dj_parse(stats->u.str, stats->len, &a, 0, &sv, &jerr) &&
									get_i64(&sv, "numRecords", &nrec) && mx >= (uint64_t) nrec)
								{
									fprintf(stderr, "  %s: row %llu >= numRecords\n", name,
											(unsigned long long) mx);
									ok = false;
								}
							}
						}
						free(file);
					}
				}
			}
			fmt_arena_free_all(&arena);
		}
		free(text);
	}
	closedir(d);
	return ok ? checked : -1;
}

UNIT_TEST(dv_real_tables)
{
	const char *tables = getenv("DELTACC_TABLES");
	struct stat st;
	static const char *names[] = {
		"kr-inline-dv", "golden-dv-log-replay-keys", "dd-dv-many-deletes-checkpoint",
		"rs-deletion-logs", "rs-cdf-cdc-dvs", "golden-dv-partitioned-checkpoint",
		"golden-dv-columnmapping"
	};
	size_t		i;

	if (tables == NULL || tables[0] == '\0')
		tables = "/work/shared/delta-tables";
	if (stat(tables, &st) != 0)
	{
		printf("# dv_real_tables: skipped, %s not found\n", tables);
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
	{
		int			n = check_table_dvs(tables, names[i]);

		if (n <= 0)
			fprintf(stderr, "  %s: %d DVs checked\n", names[i], n);
		UNIT_CHECK(n > 0);
	}
}
