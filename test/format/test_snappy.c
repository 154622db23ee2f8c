/*
 * test_snappy.c
 *	  Unit tests of the Snappy block decoder (src/format/snappy.c): hand-built
 *	  blocks for every element type and every error, then libsnappy (linked
 *	  into this test binary only) as an oracle over many compressed inputs
 *	  and over corrupted and truncated blocks.
 *
 * Every decode writes into a buffer malloc'ed to exactly the preamble's
 * length, so a write past the end shows under valgrind / ASan.
 */
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "snappy.h"
#include "unit.h"

/* ---------- a block builder that also computes the expected output ---------- */

#define SB_CAP (1 << 20)
/* largest output the tests allocate for a (corrupted) block */
#define ORACLE_OUT_CAP ((size_t) 64 << 20)

typedef struct SnBlock
{
	uint8_t    *body;			/* elements */
	size_t		blen;
	uint8_t    *want;			/* what they decode to */
	size_t		wlen;
	uint8_t    *block;			/* preamble + body, after sb_finish */
	size_t		len;
} SnBlock;

static void
sb_init(SnBlock *b)
{
	b->body = calloc(1, SB_CAP);
	b->want = calloc(1, SB_CAP);
	b->block = calloc(1, SB_CAP + 8);
	b->blen = b->wlen = b->len = 0;
}

static void
sb_free(SnBlock *b)
{
	free(b->body);
	free(b->want);
	free(b->block);
}

static void
sb_byte(SnBlock *b, unsigned v)
{
	if (b->blen < SB_CAP)
		b->body[b->blen++] = (uint8_t) v;
}

/* v as 'n' little-endian bytes */
static void
sb_le(SnBlock *b, uint32_t v, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		sb_byte(b, (v >> (8 * i)) & 0xFF);
}

/*
 * A literal of data[0..n) whose length - 1 is written in 'lenbytes' extra
 * bytes (0: in the tag, n <= 60).
 */
static void
sb_literal(SnBlock *b, const uint8_t *data, size_t n, int lenbytes)
{
	if (lenbytes == 0)
		sb_byte(b, (unsigned) (n - 1) << 2);
	else
	{
		sb_byte(b, (unsigned) (59 + lenbytes) << 2);
		sb_le(b, (uint32_t) (n - 1), lenbytes);
	}
	memcpy(b->body + b->blen, data, n);
	b->blen += n;
	memcpy(b->want + b->wlen, data, n);
	b->wlen += n;
}

/* A copy element of 'type' (1, 2 or 4 offset bytes); expected output byte by byte. */
static void
sb_copy(SnBlock *b, int type, uint32_t off, size_t len)
{
	size_t		i;

	if (type == 1)
	{
		sb_byte(b, 1 | (unsigned) ((len - 4) << 2) | ((off >> 8) << 5));
		sb_byte(b, off & 0xFF);
	}
	else if (type == 2)
	{
		sb_byte(b, 2 | (unsigned) ((len - 1) << 2));
		sb_le(b, off, 2);
	}
	else
	{
		sb_byte(b, 3 | (unsigned) ((len - 1) << 2));
		sb_le(b, off, 4);
	}
	for (i = 0; i < len && off <= b->wlen; i++, b->wlen++)
		b->want[b->wlen] = b->want[b->wlen - off];
}

/* block = varint(plen) + body */
static void
sb_finish_len(SnBlock *b, uint64_t plen)
{
	b->len = 0;
	do
	{
		uint8_t		c = plen & 0x7f;

		plen >>= 7;
		b->block[b->len++] = c | (plen ? 0x80 : 0);
	} while (plen);
	memcpy(b->block + b->len, b->body, b->blen);
	b->len += b->blen;
}

static void
sb_finish(SnBlock *b)
{
	sb_finish_len(b, b->wlen);
}

/*
 * Decode in[0..n) into an exactly-sized buffer; true when it decodes and
 * equals want[0..wlen).
 */
static bool
decodes_to(const uint8_t *in, size_t n, const uint8_t *want, size_t wlen)
{
	size_t		len;
	uint8_t    *out;
	bool		ok;

	if (!snappy_decoded_length(in, n, &len) || len != wlen)
		return false;
	out = malloc(len ? len : 1);
	ok = snappy_decode(in, n, out, len) && memcmp(out, want, len) == 0;
	free(out);
	return ok;
}

/* True when in[0..n) is rejected (with an output buffer of its preamble's size). */
static bool
rejected(const uint8_t *in, size_t n)
{
	size_t		len;
	uint8_t    *out;
	bool		ok;

	if (!snappy_decoded_length(in, n, &len))
		return true;
	if (len > ORACLE_OUT_CAP)
		return false;			/* cannot tell: the calling check fails */
	out = malloc(len ? len : 1);
	ok = snappy_decode(in, n, out, len);
	free(out);
	return !ok;
}

static bool
sb_ok(SnBlock *b)
{
	return decodes_to(b->block, b->len, b->want, b->wlen);
}

/* sb_finish, then sb_ok */
static bool
sb_finish_ok(SnBlock *b)
{
	sb_finish(b);
	return sb_ok(b);
}

static uint32_t
rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void
fill_random(uint8_t *p, size_t n, uint32_t *s)
{
	size_t		i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t) (rng(s) >> 7);
}

/* ---------- hand-written blocks ---------- */

UNIT_TEST(snappy_literal_bytes)
{
	static const uint8_t empty[] = {0x00};
	static const uint8_t hello[] = {0x05, 0x10, 'h', 'e', 'l', 'l', 'o'};
	/* "abcdabcdabcdab": literal abcd, copy-1 of 10 at offset 4 */
	static const uint8_t rep[] = {0x0e, 0x0c, 'a', 'b', 'c', 'd', 0x19, 0x04};
	/* "xyxyxyx": literal xy, copy-2 of 5 at offset 2 */
	static const uint8_t rep2[] = {0x07, 0x04, 'x', 'y', 0x12, 0x02, 0x00};
	/* "q" x 9: literal q, copy-4 of 8 at offset 1 */
	static const uint8_t rep4[] = {0x09, 0x00, 'q', 0x1f, 0x01, 0x00, 0x00, 0x00};
	/* "z" with its length in one extra byte */
	static const uint8_t lit1[] = {0x01, 0xf0, 0x00, 'z'};
	size_t		len = 99;

	UNIT_CHECK(decodes_to(empty, sizeof(empty), (const uint8_t *) "", 0));
	UNIT_CHECK(snappy_decode(empty, sizeof(empty), NULL, 0));
	UNIT_CHECK(decodes_to(hello, sizeof(hello), (const uint8_t *) "hello", 5));
	UNIT_CHECK(decodes_to(rep, sizeof(rep), (const uint8_t *) "abcdabcdabcdab", 14));
	UNIT_CHECK(decodes_to(rep2, sizeof(rep2), (const uint8_t *) "xyxyxyx", 7));
	UNIT_CHECK(decodes_to(rep4, sizeof(rep4), (const uint8_t *) "qqqqqqqqq", 9));
	UNIT_CHECK(decodes_to(lit1, sizeof(lit1), (const uint8_t *) "z", 1));
	UNIT_CHECK(snappy_decoded_length(hello, sizeof(hello), &len) && len == 5);
}

UNIT_TEST(snappy_literal_lengths)
{
	static const size_t sizes[] = {1, 15, 16, 17, 59, 60, 61, 100, 255, 256, 257, 4000, 65536, 65537, 70000};
	uint8_t    *data = malloc(70000);
	uint32_t	s = 7;
	size_t		i;
	int			lb;

	fill_random(data, 70000, &s);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	{
		for (lb = 0; lb <= 4; lb++)
		{
			SnBlock		b;

			if (lb == 0 && sizes[i] > 60)
				continue;
			if (lb == 1 && sizes[i] > 256)
				continue;
			if (lb == 2 && sizes[i] > 65536)
				continue;
			sb_init(&b);
			sb_literal(&b, data, sizes[i], lb);
			UNIT_CHECK(sb_finish_ok(&b));
			/* and followed by a short literal and a copy */
			sb_literal(&b, data + 1, 3, 0);
			sb_copy(&b, 2, 4, 9);
			UNIT_CHECK(sb_finish_ok(&b));
			sb_free(&b);
		}
	}
	free(data);
}

UNIT_TEST(snappy_copy_types)
{
	uint8_t    *data = malloc(70000);
	uint32_t	s = 11;
	SnBlock		b;
	size_t		len;

	fill_random(data, 70000, &s);
	/* type 1: every length 4..11 at small and the largest offset (2047) */
	for (len = 4; len <= 11; len++)
	{
		sb_init(&b);
		sb_literal(&b, data, 2047, 2);
		sb_copy(&b, 1, 2047, len);
		sb_copy(&b, 1, 5, len);
		sb_copy(&b, 1, 1, len);
		UNIT_CHECK(sb_finish_ok(&b));
		sb_free(&b);
	}
	/* type 2: lengths 1..64, largest offset 65535 */
	for (len = 1; len <= 64; len++)
	{
		sb_init(&b);
		sb_literal(&b, data, 65535, 2);
		sb_copy(&b, 2, 65535, len);
		sb_copy(&b, 2, 300, len);
		UNIT_CHECK(sb_finish_ok(&b));
		sb_free(&b);
	}
	/* type 4: offset beyond 16 bits and exactly everything written */
	sb_init(&b);
	sb_literal(&b, data, 70000, 3);
	sb_copy(&b, 4, 70000, 64);
	sb_copy(&b, 4, 70064, 1);
	sb_copy(&b, 4, 65536, 33);
	UNIT_CHECK(sb_finish_ok(&b));
	sb_free(&b);
	free(data);
}

/*
 * Overlapping copies (offset < length) of every offset 1..40, every length
 * 1..64, ending exactly at the end of the output (the byte-wise tail) or
 * followed by more elements (the 16-byte path), and long runs built from
 * many copies (offsets 1, 2, 3 and 7, as run-length data compresses).
 */
UNIT_TEST(snappy_overlapping_copies)
{
	uint8_t		data[64];
	uint32_t	s = 3;
	uint32_t	off;
	size_t		len;
	static const uint32_t runs[] = {1, 2, 3, 7};
	int			i;
	int			k;

	fill_random(data, sizeof(data), &s);
	for (off = 1; off <= 40; off++)
	{
		for (len = 1; len <= 64; len++)
		{
			SnBlock		b;

			sb_init(&b);
			sb_literal(&b, data, off, 0);
			sb_copy(&b, 2, off, len);
			UNIT_CHECK(sb_finish_ok(&b));
			sb_copy(&b, 2, off, len);
			sb_literal(&b, data, 20, 0);
			sb_copy(&b, 4, off, 64);
			sb_literal(&b, data, 1, 0);
			UNIT_CHECK(sb_finish_ok(&b));
			sb_free(&b);
		}
	}
	for (i = 0; i < 4; i++)
	{
		SnBlock		b;

		sb_init(&b);
		sb_literal(&b, data, runs[i], 0);
		for (k = 0; k < 3000; k++)
			sb_copy(&b, k % 3 == 0 ? 1 : 2, runs[i], k % 3 == 0 ? 11 : 64);
		sb_finish(&b);
		UNIT_CHECK(b.wlen > 100000);
		UNIT_CHECK(sb_ok(&b));
		sb_free(&b);
	}
}

/* ---------- every error ---------- */

UNIT_TEST(snappy_bad_preamble)
{
	static const uint8_t trunc1[] = {0x80};
	static const uint8_t trunc2[] = {0xff, 0xff, 0xff};
	static const uint8_t max32[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
	static const uint8_t over32[] = {0xff, 0xff, 0xff, 0xff, 0x10};
	static const uint8_t six[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
	uint8_t		out[8];
	size_t		len = 0;

	UNIT_CHECK(!snappy_decoded_length(NULL, 0, &len));
	UNIT_CHECK(!snappy_decode(NULL, 0, out, 0));
	UNIT_CHECK(!snappy_decoded_length(trunc1, sizeof(trunc1), &len));
	UNIT_CHECK(!snappy_decoded_length(trunc2, sizeof(trunc2), &len));
	UNIT_CHECK(snappy_decoded_length(max32, sizeof(max32), &len) && len == 0xffffffffu);
	UNIT_CHECK(!snappy_decode(max32, sizeof(max32), out, sizeof(out)));
	UNIT_CHECK(!snappy_decoded_length(over32, sizeof(over32), &len));
	UNIT_CHECK(!snappy_decoded_length(six, sizeof(six), &len));
	UNIT_CHECK(!snappy_decode(six, sizeof(six), out, 0));
}

UNIT_TEST(snappy_bad_lengths)
{
	SnBlock		b;
	uint8_t		out[16];

	sb_init(&b);
	sb_literal(&b, (const uint8_t *) "hello", 5, 0);
	/* preamble larger and smaller than the output */
	sb_finish_len(&b, 6);
	UNIT_CHECK(rejected(b.block, b.len));
	sb_finish_len(&b, 4);
	UNIT_CHECK(rejected(b.block, b.len));
	/* the caller's buffer must match the preamble */
	UNIT_CHECK(sb_finish_ok(&b));
	UNIT_CHECK(!snappy_decode(b.block, b.len, out, 4));
	UNIT_CHECK(!snappy_decode(b.block, b.len, out, 6));
	/* a copy running past the declared length */
	sb_copy(&b, 2, 5, 5);
	sb_finish_len(&b, 9);
	UNIT_CHECK(rejected(b.block, b.len));
	UNIT_CHECK(sb_finish_ok(&b));
	sb_free(&b);
}

/*
 * "abcdef", then a copy of 4 bytes from 'off' back with 'type' offset
 * bytes: true when that 10-byte block decodes, to what it should.
 */
static bool
abcdef_copy_decodes(int type, uint32_t off)
{
	SnBlock		b;
	bool		ok;

	sb_init(&b);
	sb_literal(&b, (const uint8_t *) "abcdef", 6, 0);
	sb_copy(&b, type, off, 4);
	sb_finish_len(&b, 10);
	ok = !rejected(b.block, b.len) && decodes_to(b.block, b.len, b.want, b.wlen);
	sb_free(&b);
	return ok;
}

UNIT_TEST(snappy_bad_offsets)
{
	static const int types[] = {1, 2, 4};
	int			t;

	for (t = 0; t < 3; t++)
	{
		int			type = types[t];
		SnBlock		b;

		/* offset 0, one beyond what was written, then exactly what was */
		UNIT_CHECK(!abcdef_copy_decodes(type, 0));
		UNIT_CHECK(!abcdef_copy_decodes(type, 7));
		UNIT_CHECK(abcdef_copy_decodes(type, 6));
		/* a copy before anything was written */
		sb_init(&b);
		sb_copy(&b, type, 1, 4);
		sb_finish_len(&b, 4);
		UNIT_CHECK(rejected(b.block, b.len));
		sb_free(&b);
	}
}

UNIT_TEST(snappy_truncated_elements)
{
	/* literal of 10 with 5 bytes present */
	static const uint8_t lit[] = {0x0a, 0x24, 'a', 'b', 'c', 'd', 'e'};
	/* literal length bytes cut short (2 announced, 1 present) */
	static const uint8_t litlen[] = {0x0a, 0xf4, 0x09};
	static const uint8_t litlen4[] = {0x0a, 0xfc, 0x09, 0x00, 0x00};
	/* copies missing offset bytes after "abcd" */
	static const uint8_t c1[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x01};
	static const uint8_t c2[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x0e, 0x04};
	static const uint8_t c4[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x0f, 0x04, 0x00, 0x00};
	/* huge literal lengths must not wrap */
	static const uint8_t huge[] = {0x0a, 0xfc, 0xff, 0xff, 0xff, 0xff, 'a'};

	UNIT_CHECK(rejected(lit, sizeof(lit)));
	UNIT_CHECK(rejected(litlen, sizeof(litlen)));
	UNIT_CHECK(rejected(litlen4, sizeof(litlen4)));
	UNIT_CHECK(rejected(c1, sizeof(c1)));
	UNIT_CHECK(rejected(c2, sizeof(c2)));
	UNIT_CHECK(rejected(c4, sizeof(c4)));
	UNIT_CHECK(rejected(huge, sizeof(huge)));
}

UNIT_TEST(snappy_trailing_bytes)
{
	static const uint8_t tails[][4] = {
		{1, 0x00, 'x'},			/* a literal */
		{1, 0x01},				/* a lone copy-1 tag */
		{2, 0x02, 0x01},		/* a cut copy-2 */
		{3, 0x02, 0x01, 0x00},	/* a whole copy-2 */
		{1, 0x00},				/* a literal tag without its byte */
	};
	size_t		i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
	{
		SnBlock		b;

		sb_init(&b);
		sb_literal(&b, (const uint8_t *) "hello", 5, 0);
		UNIT_CHECK(sb_finish_ok(&b));
		memcpy(b.block + b.len, tails[i] + 1, tails[i][0]);
		b.len += tails[i][0];
		UNIT_CHECK(rejected(b.block, b.len));
		sb_free(&b);
	}
}

/* ---------- libsnappy as the oracle ---------- */

/* Input number i of the oracle test: sizes 0 .. ~300 kB, several shapes. */
static size_t
oracle_input(int i, uint8_t *p, size_t cap, uint32_t *s)
{
	size_t		n;
	size_t		k;
	int			shape = i % 6;

	if (i < 40)
		n = (size_t) i;			/* 0..39: every tiny size */
	else
		n = rng(s) % (i % 7 == 0 ? cap : 4096);
	switch (shape)
	{
		case 0:					/* random bytes */
			fill_random(p, n, s);
			break;
		case 1:					/* runs of one byte */
			for (k = 0; k < n;)
			{
				size_t		run = 1 + rng(s) % 300;
				uint8_t		c = (uint8_t) rng(s);

				while (run-- > 0 && k < n)
					p[k++] = c;
			}
			break;
		case 2:					/* a short random period */
			{
				size_t		period = 1 + rng(s) % 20;

				fill_random(p, period < n ? period : n, s);
				for (k = period; k < n; k++)
					p[k] = p[k - period];
			}
			break;
		case 3:					/* small alphabet */
			for (k = 0; k < n; k++)
				p[k] = "abcde"[rng(s) % 5];
			break;
		case 4:					/* chunks repeated from far back */
			fill_random(p, n < 70000 ? n : 70000, s);
			for (k = 70000; k < n;)
			{
				size_t		from = rng(s) % k;
				size_t		len = 1 + rng(s) % 200;

				while (len-- > 0 && k < n)
					p[k++] = p[from++];
			}
			break;
		default:				/* text-like: JSON-ish lines */
			for (k = 0; k < n; k++)
			{
				static const char *words[] = {"{\"add\":{\"path\":\"", "part-0000", ".snappy.parquet\",",
				"\"size\":", "1234", "\"stats\":\"{\\\"numRecords\\\":", "}}\n"};
				const char *w = words[rng(s) % 7];

				while (*w && k < n)
					p[k++] = (uint8_t) *w++;
				if (k < n)
					p[k] = (uint8_t) ('0' + rng(s) % 10);
			}
			break;
	}
	return n;
}

/*
 * Our decoder and libsnappy on the same block: both reject it, or both
 * accept it with the same output.  Returns false on any disagreement.
 */
static bool
agrees_with_libsnappy(const uint8_t *in, size_t n)
{
	size_t		len;
	size_t		theirs_len;
	uint8_t    *ours;
	uint8_t    *theirs;
	bool		ok_ours;
	bool		ok_theirs;
	bool		same;

	if (!snappy_decoded_length(in, n, &len))
		return snappy_validate_compressed_buffer((const char *) in, n) != SNAPPY_OK;
	if (len > ORACLE_OUT_CAP)
		return true;			/* a corrupted preamble: too large to try */
	ours = malloc(len ? len : 1);
	theirs = malloc(len ? len : 1);
	theirs_len = len;
	ok_ours = snappy_decode(in, n, ours, len);
	ok_theirs = snappy_uncompress((const char *) in, n, (char *) theirs, &theirs_len) == SNAPPY_OK &&
		theirs_len == len;
	same = ok_ours == ok_theirs && (!ok_ours || memcmp(ours, theirs, len) == 0);
	if (!same)
		fprintf(stderr, "  disagreement on a %zu-byte block: ours %d, libsnappy %d\n",
				n, ok_ours, ok_theirs);
	free(ours);
	free(theirs);
	return same;
}

UNIT_TEST(snappy_oracle)
{
	size_t		cap = 300 * 1024;
	uint8_t    *data = malloc(cap);
	size_t		ccap = snappy_max_compressed_length(cap);
	uint8_t    *comp = malloc(ccap);
	uint8_t    *bad = malloc(ccap + 16);
	uint32_t	s = 20261130;
	int			i;
	int			bad_decodes = 0;
	int			corrupt_accepted = 0;
	int			disagreements = 0;
	int			j;

	for (i = 0; i < 1000; i++)
	{
		size_t		n = oracle_input(i, data, cap, &s);
		size_t		clen = ccap;

		if (snappy_compress((const char *) data, n, (char *) comp, &clen) != SNAPPY_OK)
		{
			UNIT_CHECK(false);
			continue;
		}
		if (!decodes_to(comp, clen, data, n))
			bad_decodes++;
		/* corruptions: byte flips, truncations, inserted and deleted bytes */
		for (j = 0; j < 16; j++)
		{
			size_t		blen = clen;
			size_t		at = clen ? rng(&s) % clen : 0;
			int			kind = j % 4;

			memcpy(bad, comp, clen);
			if (kind == 0 && clen > 0)
				bad[at] ^= (uint8_t) (1 + rng(&s) % 255);
			else if (kind == 1)
				blen = at;
			else if (kind == 2)
			{
				memmove(bad + at + 1, bad + at, clen - at);
				bad[at] = (uint8_t) rng(&s);
				blen = clen + 1;
			}
			else if (clen > 0)
			{
				memmove(bad + at, bad + at + 1, clen - at - 1);
				blen = clen - 1;
			}
			if (!agrees_with_libsnappy(bad, blen))
				disagreements++;
			else if (!rejected(bad, blen))
				corrupt_accepted++;
		}
	}
	UNIT_CHECK(bad_decodes == 0);
	UNIT_CHECK(disagreements == 0);
	/* (some corruptions are valid blocks, e.g. a flipped literal byte) */
	UNIT_CHECK(corrupt_accepted > 0);
	free(data);
	free(comp);
	free(bad);
}
