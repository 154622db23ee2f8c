/*-------------------------------------------------------------------------
 *
 * roaring.c
 *	  Decoder of standard 32-bit Roaring bitmaps and Delta's
 *	  RoaringBitmapArray (see roaring.h for the contract).
 *
 * Decoding runs twice over the bytes: a first pass validates everything
 * and counts the containers, a second pass (over input now known to be
 * valid) fills an exactly-sized container array.  Nothing is allocated
 * before the bytes that justify it have been checked to be present.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/roaring.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "bytes.h"
#include "roaring.h"

#define RB_ARRAY_MAX 4096		/* largest array container */
#define RB_BITMAP_WORDS 1024
#define RB_BITMAP_BYTES (RB_BITMAP_WORDS * 8)
#define RB_NO_OFFSET_THRESHOLD 4	/* run-cookie bitmaps below this have no
									 * offset table */

typedef struct RbReader
{
	const uint8_t *buf;
	size_t		len;			/* end of the bytes we may read */
	size_t		pos;
	const FmtAllocator *alloc;
	DvError    *err;
	RbContainer *out;			/* NULL during the counting pass */
	uint32_t	nc;				/* containers seen so far */
	uint64_t	cardinality;
} RbReader;

/* True when 'n' more bytes are available; otherwise records an error. */
static bool
need(RbReader *r, uint64_t n, const char *what)
{
	if (n > r->len - r->pos)
		return dv_fail(r->err, r->pos,
					   "truncated bitmap: %s needs %llu bytes at offset %zu, %zu available",
					   what, (unsigned long long) n, r->pos, r->len - r->pos);
	return true;
}

static int
popcount64(uint64_t w)
{
	int			c = 0;

	while (w)
	{
		w &= w - 1;
		c++;
	}
	return c;
}

/*
 * Validate (and in the fill pass, copy) one container of cardinality 'card'
 * whose data starts at r->pos.  'key' is the container's 48-bit key.
 */
static bool
read_container(RbReader *r, uint64_t key, uint32_t card, bool is_run)
{
	const uint8_t *p;
	RbContainer *c = r->out ? &r->out[r->nc] : NULL;
	uint32_t	i;

	if (is_run)
	{
		uint32_t	nruns;
		uint64_t	total = 0;
		int64_t		prev_end = -1;

		if (!need(r, 2, "run container count"))
			return false;
		nruns = get_le16(r->buf + r->pos);
		r->pos += 2;
		if (nruns == 0)
			return dv_fail(r->err, r->pos - 2, "run container with no runs");
		if (!need(r, (uint64_t) nruns * 4, "run container"))
			return false;
		p = r->buf + r->pos;
		for (i = 0; i < nruns; i++)
		{
			uint32_t	start = get_le16(p + 4 * i);
			uint32_t	lenm1 = get_le16(p + 4 * i + 2);

			if (start + lenm1 > 0xFFFF)
				return dv_fail(r->err, r->pos + 4 * i, "run exceeds 16 bits");
			if ((int64_t) start <= prev_end)
				return dv_fail(r->err, r->pos + 4 * i, "runs overlap or are not ascending");
			prev_end = start + lenm1;
			total += lenm1 + 1;
		}
		if (total != card)
			return dv_fail(r->err, r->pos, "run container holds %llu values, header says %u",
						   (unsigned long long) total, card);
		if (c)
		{
			c->kind = RB_RUN;
			c->n = nruns;
			c->u.runs = fmt_alloc(r->alloc, (size_t) nruns * 4);
			if (c->u.runs == NULL)
				return dv_fail(r->err, r->pos, "out of memory");
			for (i = 0; i < nruns * 2; i++)
				c->u.runs[i] = get_le16(p + 2 * i);
		}
		r->pos += (size_t) nruns * 4;
	}
	else if (card <= RB_ARRAY_MAX)
	{
		if (!need(r, (uint64_t) card * 2, "array container"))
			return false;
		p = r->buf + r->pos;
		for (i = 1; i < card; i++)
			if (get_le16(p + 2 * i) <= get_le16(p + 2 * (i - 1)))
				return dv_fail(r->err, r->pos + 2 * i,
							   "array container values are not strictly ascending");
		if (c)
		{
			c->kind = RB_ARRAY;
			c->n = card;
			c->u.values = fmt_alloc(r->alloc, (size_t) card * 2);
			if (c->u.values == NULL)
				return dv_fail(r->err, r->pos, "out of memory");
			for (i = 0; i < card; i++)
				c->u.values[i] = get_le16(p + 2 * i);
		}
		r->pos += (size_t) card * 2;
	}
	else
	{
		uint32_t	bits = 0;

		if (!need(r, RB_BITMAP_BYTES, "bitmap container"))
			return false;
		p = r->buf + r->pos;
		for (i = 0; i < RB_BITMAP_WORDS; i++)
			bits += popcount64(get_le64(p + 8 * i));
		if (bits != card)
			return dv_fail(r->err, r->pos, "bitmap container holds %u values, header says %u",
						   bits, card);
		if (c)
		{
			c->kind = RB_BITMAP;
			c->n = RB_BITMAP_WORDS;
			c->u.words = fmt_alloc(r->alloc, RB_BITMAP_BYTES);
			if (c->u.words == NULL)
				return dv_fail(r->err, r->pos, "out of memory");
			for (i = 0; i < RB_BITMAP_WORDS; i++)
				c->u.words[i] = get_le64(p + 8 * i);
		}
		r->pos += RB_BITMAP_BYTES;
	}
	if (c)
	{
		c->key = key;
		c->cardinality = card;
	}
	r->nc++;
	r->cardinality += card;
	return true;
}

/*
 * One standard 32-bit Roaring bitmap starting at r->pos; its values get
 * 'high' as their upper 32 bits.
 */
static bool
read_roaring32(RbReader *r, uint32_t high)
{
	size_t		start = r->pos;
	uint32_t	cookie;
	uint32_t	n;
	bool		has_runs;
	bool		has_offsets;
	const uint8_t *runflags = NULL;
	const uint8_t *header;
	const uint8_t *offsets = NULL;
	uint32_t	i;

	if (!need(r, 4, "cookie"))
		return false;
	cookie = get_le32(r->buf + r->pos);
	r->pos += 4;
	if (cookie == RB_COOKIE_NO_RUNS)
	{
		if (!need(r, 4, "container count"))
			return false;
		n = get_le32(r->buf + r->pos);
		r->pos += 4;
		if (n > 65536)
			return dv_fail(r->err, r->pos - 4, "container count %u exceeds 65536", n);
		has_runs = false;
		has_offsets = true;
	}
	else if ((cookie & 0xFFFF) == RB_COOKIE_RUNS)
	{
		n = (cookie >> 16) + 1;
		has_runs = true;
		has_offsets = n >= RB_NO_OFFSET_THRESHOLD;
		if (!need(r, (n + 7) / 8, "run flags"))
			return false;
		runflags = r->buf + r->pos;
		r->pos += (n + 7) / 8;
	}
	else
		return dv_fail(r->err, r->pos - 4, "bad Roaring cookie %u", cookie);

	/* descriptive header, then offsets; the smallest container is 2 bytes */
	if (!need(r, (uint64_t) n * (has_offsets ? 10 : 6), "container headers"))
		return false;
	header = r->buf + r->pos;
	r->pos += (size_t) n * 4;
	if (has_offsets)
	{
		offsets = r->buf + r->pos;
		r->pos += (size_t) n * 4;
	}

	for (i = 0; i < n; i++)
	{
		uint32_t	key = get_le16(header + 4 * i);
		uint32_t	card = (uint32_t) get_le16(header + 4 * i + 2) + 1;
		bool		is_run = has_runs && (runflags[i / 8] >> (i % 8)) & 1;

		if (i > 0 && key <= get_le16(header + 4 * (i - 1)))
			return dv_fail(r->err, (size_t) (header - r->buf) + 4 * i,
						   "container keys are not strictly ascending");
		if (offsets && get_le32(offsets + 4 * i) != r->pos - start)
			return dv_fail(r->err, (size_t) (offsets - r->buf) + 4 * i,
						   "container %u offset %u does not match its position %zu",
						   i, get_le32(offsets + 4 * i), r->pos - start);
		if (!read_container(r, ((uint64_t) high << 16) | key, card, is_run))
			return false;
	}
	return true;
}

/* Portable or native RoaringBitmapArray over all of r->buf[0..len). */
static bool
read_array(RbReader *r)
{
	uint32_t	magic;

	if (!need(r, 4, "magic"))
		return false;
	magic = get_le32(r->buf);
	r->pos = 4;
	if (magic == RB_MAGIC_PORTABLE)
	{
		uint64_t	nbuckets;
		uint64_t	b;
		int64_t		prev_key = -1;

		if (!need(r, 8, "bucket count"))
			return false;
		nbuckets = get_le64(r->buf + r->pos);
		r->pos += 8;
		if (nbuckets > 0x7FFFFFFF)
			return dv_fail(r->err, 4, "bucket count %lld out of range",
						   (long long) nbuckets);
		/* each bucket takes at least a key and an empty bitmap: 12 bytes */
		if (!need(r, nbuckets * 12, "buckets"))
			return false;
		for (b = 0; b < nbuckets; b++)
		{
			uint32_t	key;

			if (!need(r, 4, "bucket key"))
				return false;
			key = get_le32(r->buf + r->pos);
			if (key > RB_MAX_BUCKET_KEY)
				return dv_fail(r->err, r->pos, "bucket key %u out of range", key);
			if ((int64_t) key <= prev_key)
				return dv_fail(r->err, r->pos, "bucket keys are not strictly ascending");
			prev_key = key;
			r->pos += 4;
			if (!read_roaring32(r, key))
				return false;
		}
	}
	else if (magic == RB_MAGIC_NATIVE)
	{
		uint32_t	nbitmaps;
		uint32_t	b;
		size_t		outer_len = r->len;

		if (!need(r, 4, "bitmap count"))
			return false;
		nbitmaps = get_le32(r->buf + r->pos);
		r->pos += 4;
		if (nbitmaps > 0x7FFFFFFF)
			return dv_fail(r->err, 4, "bitmap count %d is negative", (int32_t) nbitmaps);
		/* each bitmap takes at least a length and an empty bitmap: 12 bytes */
		if (!need(r, (uint64_t) nbitmaps * 12, "bitmaps"))
			return false;
		for (b = 0; b < nbitmaps; b++)
		{
			uint32_t	blen;
			size_t		bstart;

			if (b > RB_MAX_BUCKET_KEY)
				return dv_fail(r->err, r->pos, "too many bitmaps");
			if (!need(r, 4, "bitmap length"))
				return false;
			blen = get_le32(r->buf + r->pos);
			r->pos += 4;
			if (blen > 0x7FFFFFFF)
				return dv_fail(r->err, r->pos - 4, "bitmap length %d is negative", (int32_t) blen);
			if (!need(r, blen, "bitmap"))
				return false;
			bstart = r->pos;
			r->len = r->pos + blen;
			if (!read_roaring32(r, b))
				return false;
			r->len = outer_len;
			if (r->pos != bstart + blen)
				return dv_fail(r->err, r->pos, "bitmap %u is %zu bytes, its length says %u",
							   b, r->pos - bstart, blen);
		}
	}
	else
		return dv_fail(r->err, 0, "bad RoaringBitmapArray magic %u", magic);
	return true;
}

/* Run one pass: 'array' selects RoaringBitmapArray vs lone 32-bit bitmap. */
static bool
run_pass(RbReader *r, bool array)
{
	r->pos = 0;
	r->nc = 0;
	r->cardinality = 0;
	if (!(array ? read_array(r) : read_roaring32(r, 0)))
		return false;
	if (r->pos != r->len)
		return dv_fail(r->err, r->pos, "%zu trailing bytes after the bitmap",
					   r->len - r->pos);
	return true;
}

static bool
decode(const uint8_t *buf, size_t len, bool array, const FmtAllocator *alloc,
	   RbSet *out, DvError *err)
{
	RbReader	r;

	memset(&r, 0, sizeof(r));
	r.buf = buf;
	r.len = len;
	r.alloc = alloc;
	r.err = err;
	rb_set_empty(out);
	if (!run_pass(&r, array))
		return false;
	if (r.nc > 0)
	{
		r.out = fmt_alloc(alloc, (size_t) r.nc * sizeof(RbContainer));
		if (r.out == NULL)
			return dv_fail(err, 0, "out of memory");
		if (!run_pass(&r, array))
			return false;
	}
	out->cardinality = r.cardinality;
	out->ncontainers = r.nc;
	out->containers = r.out;
	return true;
}

bool
rb_decode_array(const uint8_t *buf, size_t len, const FmtAllocator *alloc,
				RbSet *out, DvError *err)
{
	return decode(buf, len, true, alloc, out, err);
}

bool
rb_decode_roaring32(const uint8_t *buf, size_t len, const FmtAllocator *alloc,
					RbSet *out, DvError *err)
{
	return decode(buf, len, false, alloc, out, err);
}

void
rb_set_empty(RbSet *set)
{
	set->cardinality = 0;
	set->ncontainers = 0;
	set->containers = NULL;
}

/* Does container c hold the 16-bit value 'low'? */
static bool
container_contains(const RbContainer *c, uint32_t low)
{
	uint32_t	lo = 0;
	uint32_t	hi = c->n;

	switch (c->kind)
	{
		case RB_BITMAP:
			return (c->u.words[low >> 6] >> (low & 63)) & 1;
		case RB_ARRAY:
			while (lo < hi)
			{
				uint32_t	mid = lo + (hi - lo) / 2;

				if (c->u.values[mid] < low)
					lo = mid + 1;
				else
					hi = mid;
			}
			return lo < c->n && c->u.values[lo] == low;
		case RB_RUN:
			/* find the last run starting at or before 'low' */
			while (lo < hi)
			{
				uint32_t	mid = lo + (hi - lo) / 2;

				if (c->u.runs[2 * mid] <= low)
					lo = mid + 1;
				else
					hi = mid;
			}
			return lo > 0 &&
				low <= (uint32_t) c->u.runs[2 * (lo - 1)] + c->u.runs[2 * (lo - 1) + 1];
	}
	return false;
}

/* Index of the container with 'key', or -1. */
static int64_t
find_container(const RbSet *set, uint64_t key)
{
	uint32_t	lo = 0;
	uint32_t	hi = set->ncontainers;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (set->containers[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < set->ncontainers && set->containers[lo].key == key)
		return lo;
	return -1;
}

bool
rb_contains(const RbSet *set, uint64_t value)
{
	int64_t		i = find_container(set, value >> 16);

	return i >= 0 && container_contains(&set->containers[i], (uint32_t) (value & 0xFFFF));
}

bool
rb_min(const RbSet *set, uint64_t *value)
{
	RbIter		it;

	rb_iter_init(&it, set);
	return rb_iter_next(&it, value);
}

bool
rb_max(const RbSet *set, uint64_t *value)
{
	const RbContainer *c;
	uint32_t	low = 0;
	int			w;

	if (set->ncontainers == 0)
		return false;
	c = &set->containers[set->ncontainers - 1];
	switch (c->kind)
	{
		case RB_ARRAY:
			low = c->u.values[c->n - 1];
			break;
		case RB_RUN:
			low = (uint32_t) c->u.runs[2 * (c->n - 1)] + c->u.runs[2 * (c->n - 1) + 1];
			break;
		case RB_BITMAP:
			for (w = RB_BITMAP_WORDS - 1; w >= 0 && c->u.words[w] == 0; w--)
				;
			/* cardinality > 0 guarantees a non-zero word */
			low = (uint32_t) w * 64 + 63;
			while (!((c->u.words[w] >> (low & 63)) & 1))
				low--;
			break;
	}
	*value = (c->key << 16) | low;
	return true;
}

void
rb_iter_init(RbIter *it, const RbSet *set)
{
	it->set = set;
	it->ci = 0;
	it->pos = 0;
	it->sub = 0;
}

bool
rb_iter_next(RbIter *it, uint64_t *value)
{
	while (it->ci < it->set->ncontainers)
	{
		const RbContainer *c = &it->set->containers[it->ci];

		switch (c->kind)
		{
			case RB_ARRAY:
				if (it->pos < c->n)
				{
					*value = (c->key << 16) | c->u.values[it->pos++];
					return true;
				}
				break;
			case RB_BITMAP:
				while (it->pos < 65536)
				{
					uint64_t	w = c->u.words[it->pos >> 6] >> (it->pos & 63);

					if (w == 0)
					{
						it->pos = (it->pos | 63) + 1;
						continue;
					}
					while (!(w & 1))
					{
						w >>= 1;
						it->pos++;
					}
					*value = (c->key << 16) | it->pos;
					it->pos++;
					return true;
				}
				break;
			case RB_RUN:
				if (it->pos < c->n)
				{
					*value = (c->key << 16) | ((uint32_t) c->u.runs[2 * it->pos] + it->sub);
					if (it->sub == c->u.runs[2 * it->pos + 1])
					{
						it->pos++;
						it->sub = 0;
					}
					else
						it->sub++;
					return true;
				}
				break;
		}
		it->ci++;
		it->pos = 0;
		it->sub = 0;
	}
	return false;
}

/* Expand a container into a 65536-bit bitmap. */
static void
container_to_words(const RbContainer *c, uint64_t *words)
{
	uint32_t	i;

	if (c->kind == RB_BITMAP)
	{
		memcpy(words, c->u.words, RB_BITMAP_BYTES);
		return;
	}
	memset(words, 0, RB_BITMAP_BYTES);
	if (c->kind == RB_ARRAY)
	{
		for (i = 0; i < c->n; i++)
			words[c->u.values[i] >> 6] |= (uint64_t) 1 << (c->u.values[i] & 63);
		return;
	}
	for (i = 0; i < c->n; i++)
	{
		uint32_t	s = c->u.runs[2 * i];
		uint32_t	e = s + c->u.runs[2 * i + 1];	/* inclusive */

		while (s <= e)
		{
			uint32_t	wlast = (s | 63) < e ? (s | 63) : e;
			uint32_t	nbits = wlast - s + 1;
			uint64_t	mask = nbits == 64 ? ~(uint64_t) 0 :
				(((uint64_t) 1 << nbits) - 1) << (s & 63);

			words[s >> 6] |= mask;
			s = wlast + 1;
		}
	}
}

bool
rb_is_subset(const RbSet *a, const RbSet *b)
{
	uint64_t	wa[RB_BITMAP_WORDS];
	uint64_t	wb[RB_BITMAP_WORDS];
	uint32_t	i;
	uint32_t	j = 0;

	if (a->cardinality > b->cardinality)
		return false;
	for (i = 0; i < a->ncontainers; i++)
	{
		const RbContainer *ca = &a->containers[i];
		const RbContainer *cb;
		uint32_t	k;

		while (j < b->ncontainers && b->containers[j].key < ca->key)
			j++;
		if (j == b->ncontainers || b->containers[j].key != ca->key)
			return false;
		cb = &b->containers[j];
		if (ca->cardinality > cb->cardinality)
			return false;
		if (ca->kind == RB_ARRAY)
		{
			for (k = 0; k < ca->n; k++)
				if (!container_contains(cb, ca->u.values[k]))
					return false;
			continue;
		}
		container_to_words(ca, wa);
		container_to_words(cb, wb);
		for (k = 0; k < RB_BITMAP_WORDS; k++)
			if (wa[k] & ~wb[k])
				return false;
	}
	return true;
}
