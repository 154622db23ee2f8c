/*
 * test_parquet.c
 *	  Unit tests of the Thrift compact decoder and the Parquet reader.
 *
 * Fixtures live in test/data/parquet (made by the scripts in its gen/
 * folder): NAME.parquet with the expected rows in NAME.jsonl (or a shared
 * expectation file), corrupt/ with corrupt files and the error each must
 * give, real/ with DuckDB's reading of every checkpoint and sidecar file of
 * the conformance tables.  The tables themselves are found through
 * DELTACC_TABLES (else /work/shared/delta-tables); tests that need them are
 * skipped, counted and reported when they are absent.  The repository root
 * is DELTACC_SRCDIR, else the current directory.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "djson.h"
#include "parquet.h"
#include "pq_render.h"
#include "thrift.h"
#include "unit.h"

static int	pq_skipped;

static const char *
srcdir(void)
{
	const char *s = getenv("DELTACC_SRCDIR");

	return (s && *s) ? s : ".";
}

static const char *
tables_dir(void)
{
	const char *s = getenv("DELTACC_TABLES");
	struct stat st;

	if (!(s && *s))
		s = "/work/shared/delta-tables";
	if (stat(s, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	return s;
}

/* Next line of a NUL-terminated buffer (the newline is replaced). */
static char *
next_line(char **cursor)
{
	char	   *line = *cursor;
	char	   *nl;

	if (line == NULL || *line == '\0')
		return NULL;
	nl = strchr(line, '\n');
	if (nl)
	{
		*nl = '\0';
		*cursor = nl + 1;
	}
	else
		*cursor = line + strlen(line);
	return line;
}

static void
skip(const char *why)
{
	pq_skipped++;
	printf("# skip: %s (%d skipped so far)\n", why, pq_skipped);
}

/* Read a whole file into malloc'd memory (NULL when absent). */
static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *buf;
	long		n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	if (buf == NULL || fread(buf, 1, (size_t) n, f) != (size_t) n)
	{
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t) n;
	return buf;
}

static uint8_t *
slurp_data(const char *rel, size_t *len)
{
	char		path[1024];

	snprintf(path, sizeof(path), "%s/test/data/parquet/%s", srcdir(), rel);
	return slurp(path, len);
}

/* ------------------------------------------------------------------ */
/* Thrift compact protocol                                             */
/* ------------------------------------------------------------------ */

UNIT_TEST(thrift_varints_and_zigzag)
{
	static const uint8_t buf[] = {0x00, 0x7f, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	static const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
	static const uint8_t longv[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
	ThrReader	r;

	thr_init(&r, buf, sizeof(buf), 0);
	UNIT_CHECK(thr_varint(&r) == 0);
	UNIT_CHECK(thr_varint(&r) == 127);
	UNIT_CHECK(thr_varint(&r) == 128);
	UNIT_CHECK(thr_varint(&r) == UINT64_MAX);
	UNIT_CHECK(!thr_failed(&r));
	UNIT_CHECK(thr_varint(&r) == 0 && thr_failed(&r));	/* past the end */
	UNIT_CHECK(thr_zigzag(0) == 0 && thr_zigzag(1) == -1 && thr_zigzag(2) == 1);
	UNIT_CHECK(thr_zigzag(UINT64_MAX) == INT64_MIN && thr_zigzag(UINT64_MAX - 1) == INT64_MAX);
	thr_init(&r, over, sizeof(over), 0);
	thr_varint(&r);
	UNIT_CHECK(thr_failed(&r));
	thr_init(&r, longv, sizeof(longv), 0);
	thr_varint(&r);
	UNIT_CHECK(thr_failed(&r));
}

UNIT_TEST(thrift_struct_fields_and_skipping)
{
	/*
	 * struct { 1: i32 = -3, 2: bool true, 5: binary "abc", 300: i64 = 7
	 * (long form id), 301: list<i32> [1,2], 302: map<binary,i32> {"k":1},
	 * 303: struct { 1: double 1.5 } } then STOP
	 */
	static const uint8_t buf[] = {
		0x15, 0x05,
		0x11,
		0x38, 0x03, 'a', 'b', 'c',
		0x06, 0xd8, 0x04, 0x0e,
		0x19, 0x25, 0x02, 0x04,
		0x1b, 0x01, 0x85, 0x01, 'k', 0x02,
		0x1c, 0x17, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0x00,
		0x00
	};
	ThrReader	r;
	int16_t		last = 0,
				id = 0;
	int			type = 0;
	uint32_t	len;
	const uint8_t *s;
	int			fields = 0;

	thr_init(&r, buf, sizeof(buf), 0);
	thr_struct_begin(&r);
	while (thr_field(&r, &last, &type, &id))
	{
		fields++;
		if (id == 1)
			UNIT_CHECK(thr_i32(&r, type) == -3);
		else if (id == 2)
			UNIT_CHECK(thr_bool(&r, type));
		else if (id == 5)
		{
			s = thr_binary(&r, type, &len);
			UNIT_CHECK(s && len == 3 && memcmp(s, "abc", 3) == 0);
		}
		else if (id == 300)
			UNIT_CHECK(thr_i64(&r, type) == 7);
		else
			UNIT_CHECK(thr_skip(&r, type));
	}
	thr_struct_end(&r);
	UNIT_CHECK(!thr_failed(&r));
	UNIT_CHECK(fields == 7);
	UNIT_CHECK(thr_consumed(&r) == sizeof(buf));
}

UNIT_TEST(thrift_hostile_inputs)
{
	/* list claiming 2^31 elements in 7 bytes */
	static const uint8_t biglist[] = {0x19, 0xf5, 0x80, 0x80, 0x80, 0x80, 0x08};
	/* binary with a length past the end */
	static const uint8_t bigbin[] = {0x18, 0x20, 'x'};
	/* i32 field holding a value outside int32 */
	static const uint8_t bigi32[] = {0x15, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00};
	/* invalid field type 13 */
	static const uint8_t badtype[] = {0x1d, 0x00};
	uint8_t		deep[400];
	ThrReader	r;
	int16_t		last = 0,
				id;
	int			type;
	int			et;
	uint32_t	n;
	int			i;

	thr_init(&r, biglist, sizeof(biglist), 0);
	thr_struct_begin(&r);
	UNIT_CHECK(thr_field(&r, &last, &type, &id) && type == THR_LIST);
	UNIT_CHECK(!thr_list_begin(&r, type, &et, &n) && thr_failed(&r));
	UNIT_CHECK(strstr(r.error, "exceeds the remaining bytes") != NULL);

	last = 0;
	thr_init(&r, bigbin, sizeof(bigbin), 0);
	thr_struct_begin(&r);
	UNIT_CHECK(thr_field(&r, &last, &type, &id));
	UNIT_CHECK(thr_binary(&r, type, &n) == NULL && thr_failed(&r));

	last = 0;
	thr_init(&r, bigi32, sizeof(bigi32), 0);
	thr_struct_begin(&r);
	UNIT_CHECK(thr_field(&r, &last, &type, &id));
	thr_i32(&r, type);
	UNIT_CHECK(thr_failed(&r));

	last = 0;
	thr_init(&r, badtype, sizeof(badtype), 0);
	thr_struct_begin(&r);
	UNIT_CHECK(!thr_field(&r, &last, &type, &id) && thr_failed(&r));

	/* 200 nested structs: field 1 of type struct, over and over */
	for (i = 0; i < 200; i++)
		deep[i] = 0x1c;
	for (i = 200; i < 400; i++)
		deep[i] = 0x00;
	thr_init(&r, deep, sizeof(deep), 32);
	UNIT_CHECK(!thr_skip(&r, THR_STRUCT));
	UNIT_CHECK(strstr(r.error, "too deep") != NULL);
	thr_init(&r, deep + 100, 300, 200);
	UNIT_CHECK(thr_skip(&r, THR_STRUCT));	/* 100 levels fit in 200 */

	/* every truncation of a valid struct fails cleanly */
	for (i = 0; i < 7; i++)
	{
		thr_init(&r, bigi32, (size_t) i, 0);
		UNIT_CHECK(!thr_skip(&r, THR_STRUCT));
	}
}

/* ------------------------------------------------------------------ */
/* Project fixtures                                                    */
/* ------------------------------------------------------------------ */

/*
 * Each fixture with the features its pages must show (bits numbered as in
 * parquet.thrift).  DuckDB's PARQUET_VERSION V2 switches encodings (delta,
 * byte-stream-split, RLE_DICTIONARY) but still writes v1 data pages; the
 * hm_* fixtures (gen/handmade.mjs) carry the DATA_PAGE_V2 pages.
 */
#define BIT(n) (1u << (n))
#define ENC_PLAIN BIT(0)
#define ENC_PLAIN_DICT BIT(2)
#define ENC_RLE BIT(3)
#define ENC_BIT_PACKED BIT(4)
#define ENC_DBP BIT(5)
#define ENC_DLBA BIT(6)
#define ENC_DBA BIT(7)
#define ENC_RLE_DICT BIT(8)
#define ENC_BSS BIT(9)
#define PAGE_V1 BIT(0)
#define PAGE_DICT BIT(2)
#define PAGE_V2 BIT(3)

typedef struct Fixture
{
	const char *file;
	const char *expect;
	uint32_t	encodings;		/* value encodings that must be seen */
	uint32_t	levels;			/* level encodings that must be seen */
	uint32_t	codecs;
	uint32_t	pages;
} Fixture;

static const Fixture fixtures[] = {
	{"types_v1_uncompressed", "types", ENC_PLAIN | ENC_PLAIN_DICT, ENC_RLE, BIT(0), PAGE_V1 | PAGE_DICT},
	{"types_v1_snappy", "types", ENC_PLAIN | ENC_PLAIN_DICT, ENC_RLE, BIT(1), PAGE_V1 | PAGE_DICT},
	{"types_v1_gzip", "types", ENC_PLAIN | ENC_PLAIN_DICT, ENC_RLE, BIT(2), PAGE_V1 | PAGE_DICT},
	{"types_v1_zstd", "types", ENC_PLAIN | ENC_PLAIN_DICT, ENC_RLE, BIT(6), PAGE_V1 | PAGE_DICT},
	{"types_v1_lz4_raw", "types", ENC_PLAIN | ENC_PLAIN_DICT, ENC_RLE, BIT(7), PAGE_V1 | PAGE_DICT},
	{"types_v2_uncompressed", "types", ENC_PLAIN | ENC_RLE_DICT | ENC_DBP | ENC_DLBA | ENC_BSS, ENC_RLE, BIT(0), PAGE_V1 | PAGE_DICT},
	{"types_v2_snappy", "types", ENC_PLAIN | ENC_RLE_DICT | ENC_DBP | ENC_DLBA | ENC_BSS, ENC_RLE, BIT(1), PAGE_V1 | PAGE_DICT},
	{"types_v2_gzip", "types", ENC_PLAIN | ENC_RLE_DICT | ENC_DBP | ENC_DLBA | ENC_BSS, ENC_RLE, BIT(2), PAGE_V1 | PAGE_DICT},
	{"types_v2_zstd", "types", ENC_PLAIN | ENC_RLE_DICT | ENC_DBP | ENC_DLBA | ENC_BSS, ENC_RLE, BIT(6), PAGE_V1 | PAGE_DICT},
	{"types_v2_lz4_raw", "types", ENC_PLAIN | ENC_RLE_DICT | ENC_DBP | ENC_DLBA | ENC_BSS, ENC_RLE, BIT(7), PAGE_V1 | PAGE_DICT},
	{"nested_v1", "nested", ENC_PLAIN | ENC_PLAIN_DICT, ENC_RLE, BIT(1), PAGE_V1 | PAGE_DICT},
	{"nested_v2", "nested", ENC_PLAIN | ENC_RLE_DICT | ENC_DBP | ENC_DLBA, ENC_RLE, BIT(6), PAGE_V1 | PAGE_DICT},
	{"row_groups", "row_groups", ENC_PLAIN_DICT, ENC_RLE, BIT(1), PAGE_V1 | PAGE_DICT},
	{"empty", "empty", 0, 0, 0, 0},
	{"hm_row_groups", "hm_row_groups", ENC_PLAIN | ENC_RLE_DICT, ENC_RLE, BIT(0) | BIT(2), PAGE_V1 | PAGE_V2 | PAGE_DICT},
	{"hm_legacy_lists", "hm_legacy_lists", ENC_PLAIN, ENC_RLE | ENC_BIT_PACKED, BIT(0), PAGE_V1},
	{"hm_encodings", "hm_encodings",
		ENC_PLAIN | ENC_PLAIN_DICT | ENC_RLE | ENC_DBP | ENC_DBA | ENC_RLE_DICT | ENC_BSS,
		ENC_RLE | ENC_BIT_PACKED, BIT(0) | BIT(2) | BIT(5) | BIT(7), PAGE_V1 | PAGE_V2 | PAGE_DICT},
};

UNIT_TEST(parquet_fixtures_match_expected_rows)
{
	size_t		i;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
	{
		const Fixture *fx = &fixtures[i];
		char		name[256];
		uint8_t    *pq,
				   *js;
		size_t		pqlen,
					jslen;
		const char *msg;
		FmtArena	ar;
		FmtAllocator a;
		PqError		err;
		PqFile	   *f;
		PqReader   *r;
		PqValue		row;
		PqReaderStats st;
		int			rc;

		snprintf(name, sizeof(name), "%s.parquet", fx->file);
		pq = slurp_data(name, &pqlen);
		snprintf(name, sizeof(name), "%s.jsonl", fx->expect);
		js = slurp_data(name, &jslen);
		UNIT_CHECK(pq != NULL && js != NULL);
		if (pq == NULL || js == NULL)
		{
			fprintf(stderr, "  missing fixture %s (run from the repository root or set DELTACC_SRCDIR)\n", fx->file);
			free(pq);
			free(js);
			continue;
		}
		msg = pq_compare_file(pq, pqlen, (const char *) js, jslen);
		if (msg)
			fprintf(stderr, "  %s: %s\n", fx->file, msg);
		UNIT_CHECK(msg == NULL);

		/* the fixture really exercises what it is meant to */
		fmt_arena_init(&ar, 0);
		a = fmt_arena_allocator(&ar);
		f = pq_open_buffer(pq, pqlen, &a, NULL, &err);
		UNIT_CHECK(f != NULL);
		if (f)
		{
			r = pq_reader_open(f, NULL, 0, &err);
			while ((rc = pq_reader_next_any(r, &a, &row, NULL, &err)) > 0)
				;
			UNIT_CHECK(rc == 0);
			pq_reader_stats(r, &st);
			if ((st.encodings & fx->encodings) != fx->encodings ||
				(st.level_encodings & fx->levels) != fx->levels ||
				(st.codecs & fx->codecs) != fx->codecs ||
				(st.page_types & fx->pages) != fx->pages)
			{
				fprintf(stderr, "  %s: coverage enc %x lev %x codec %x pages %x\n", fx->file,
						st.encodings, st.level_encodings, st.codecs, st.page_types);
				UNIT_CHECK(false);
			}
		}
		fmt_arena_free_all(&ar);
		free(pq);
		free(js);
	}
}

/* Open a fixture held in *buf. */
static PqFile *
open_fixture(const char *name, uint8_t **buf, FmtArena *ar, FmtAllocator *a, PqError *err)
{
	size_t		len;

	*buf = slurp_data(name, &len);
	if (*buf == NULL)
		return NULL;
	fmt_arena_init(ar, 0);
	*a = fmt_arena_allocator(ar);
	return pq_open_buffer(*buf, len, a, NULL, err);
}

UNIT_TEST(parquet_schema_and_metadata)
{
	uint8_t    *buf;
	FmtArena	ar;
	FmtAllocator a;
	PqError		err;
	PqFile	   *f = open_fixture("nested_v1.parquet", &buf, &ar, &a, &err);
	const PqSchemaNode *n;

	UNIT_CHECK(f != NULL);
	if (f == NULL)
		return;
	UNIT_CHECK(pq_num_rows(f) == 60);
	UNIT_CHECK(pq_created_by(f) != NULL);
	n = pq_schema_find(f, "add.partitionValues");
	UNIT_CHECK(n && n->logical.kind == PQ_LT_MAP && n->repetition == PQ_OPTIONAL);
	n = pq_schema_find(f, "add.deletionVector.cardinality");
	UNIT_CHECK(n && n->type == PQ_INT64 && n->max_def == 3 && n->max_rep == 0);
	n = pq_schema_find(f, "add.stats_parsed.minValues.n.x");
	UNIT_CHECK(n && n->logical.kind == PQ_LT_STRING);
	n = pq_schema_find(f, "lol");
	UNIT_CHECK(n && n->logical.kind == PQ_LT_LIST);
	UNIT_CHECK(pq_schema_find(f, "add.nope") == NULL);
	UNIT_CHECK(pq_schema_find(f, "nope") == NULL);
	UNIT_CHECK(pq_schema_find(f, "id.x") == NULL);
	fmt_arena_free_all(&ar);
	free(buf);
}

UNIT_TEST(parquet_projection)
{
	static const char *const cols[] = {"add.path", "add.deletionVector.cardinality",
	"add.partitionValues.key_value.key", "readerFeatures", "missing"};
	uint8_t    *buf;
	FmtArena	ar;
	FmtAllocator a;
	PqError		err;
	PqFile	   *f = open_fixture("nested_v2.parquet", &buf, &ar, &a, &err);
	PqReader   *r;
	PqValue		row;
	int64_t		pos;
	int			rc;
	int			rows = 0;

	UNIT_CHECK(f != NULL);
	if (f == NULL)
		return;
	r = pq_reader_open(f, cols, 5, &err);
	UNIT_CHECK(r != NULL);
	while ((rc = pq_reader_next_any(r, &a, &row, &pos, &err)) > 0)
	{
		const PqValue *add = pq_struct_get(&row, "add");
		const PqValue *rf = pq_struct_get(&row, "readerFeatures");

		UNIT_CHECK(row.kind == PQV_STRUCT && row.len == 2);
		UNIT_CHECK(pq_struct_get(&row, "id") == NULL);
		UNIT_CHECK(rf && rf->kind == PQV_LIST && rf->len == (pos % 2 == 0 ? 2u : 0u));
		if (pos % 5 == 0)
			UNIT_CHECK(add && add->kind == PQV_NULL);
		else
		{
			char		expect[64];
			const PqValue *p = pq_struct_get(add, "path");
			const PqValue *dv = pq_struct_get(add, "deletionVector");
			const PqValue *pv = pq_struct_get(add, "partitionValues");

			snprintf(expect, sizeof(expect), "part-%lld.parquet", (long long) pos);
			UNIT_CHECK(add && add->kind == PQV_STRUCT && add->len == 3);
			UNIT_CHECK(p && p->kind == PQV_STRING && p->len == strlen(expect) && memcmp(p->u.bytes, expect, p->len) == 0);
			UNIT_CHECK(pq_struct_get(add, "size") == NULL);
			/* a map is read whole once any part of it is selected */
			UNIT_CHECK(pv && pv->kind == PQV_MAP && pv->len == (pos % 3 == 0 ? 0u : 2u));
			if (pos % 3 == 1)
				UNIT_CHECK(dv && dv->kind == PQV_NULL);
			else
			{
				const PqValue *c = pq_struct_get(dv, "cardinality");

				UNIT_CHECK(dv && dv->kind == PQV_STRUCT && dv->len == 1);
				UNIT_CHECK(c && c->kind == PQV_INT64 && c->u.i64 == pos);
			}
		}
		rows++;
	}
	UNIT_CHECK(rc == 0 && rows == 60);
	fmt_arena_free_all(&ar);
	free(buf);
}

UNIT_TEST(parquet_row_groups_and_positions)
{
	uint8_t    *buf;
	FmtArena	ar;
	FmtAllocator a;
	FmtArena	rowar;
	FmtAllocator ra;
	PqError		err;
	PqFile	   *f = open_fixture("hm_row_groups.parquet", &buf, &ar, &a, &err);
	PqReader   *r;
	PqValue		row;
	int64_t		pos,
				total = 0;
	int			g,
				rc;

	UNIT_CHECK(f != NULL);
	if (f == NULL)
		return;
	UNIT_CHECK(pq_num_row_groups(f) == 4);
	UNIT_CHECK(pq_num_rows(f) == 62);
	UNIT_CHECK(pq_row_group_num_rows(f, 1) == 0);
	UNIT_CHECK(pq_row_group_first_row(f, 2) == 5 && pq_row_group_first_row(f, 3) == 22);
	r = pq_reader_open(f, NULL, 0, &err);
	fmt_arena_init(&rowar, 0);
	ra = fmt_arena_allocator(&rowar);
	/* read the groups backwards: positions still count across groups */
	for (g = pq_num_row_groups(f) - 1; g >= 0; g--)
	{
		int64_t		first = pq_row_group_first_row(f, g);
		int64_t		n = 0;

		UNIT_CHECK(pq_reader_load_row_group(r, g, &a, &err));
		while ((rc = pq_reader_next(r, &ra, &row, &pos, &err)) > 0)
		{
			const PqValue *p = pq_struct_get(&row, "pos");

			UNIT_CHECK(pos == first + n);
			UNIT_CHECK(p && p->kind == PQV_INT64 && p->u.i64 == pos);
			n++;
			fmt_arena_free_all(&rowar);		/* per-row memory can go */
		}
		UNIT_CHECK(rc == 0);
		UNIT_CHECK(n == pq_row_group_num_rows(f, g));
		total += n;
	}
	UNIT_CHECK(total == 62);
	UNIT_CHECK(!pq_reader_load_row_group(r, pq_num_row_groups(f), &a, &err));
	fmt_arena_free_all(&rowar);
	fmt_arena_free_all(&ar);
	free(buf);
}

/* read_at callback over a FILE*, checking every request stays in bounds. */
typedef struct CbFile
{
	FILE	   *fp;
	uint64_t	size;
	int			reads;
	int			bad;
} CbFile;

static int
cb_read_at(void *ctx, uint64_t off, size_t len, void *buf)
{
	CbFile	   *c = ctx;

	c->reads++;
	if (off > c->size || len > c->size - off)
	{
		c->bad++;
		return 1;
	}
	if (fseek(c->fp, (long) off, SEEK_SET) != 0 || fread(buf, 1, len, c->fp) != len)
		return 1;
	return 0;
}

static int
cb_fail_read_at(void *ctx, uint64_t off, size_t len, void *buf)
{
	(void) ctx;
	(void) off;
	(void) len;
	(void) buf;
	return 1;
}

UNIT_TEST(parquet_read_at_callback)
{
	char		path[1024];
	CbFile		c;
	FmtArena	ar;
	FmtAllocator a;
	PqError		err;
	PqFile	   *f;
	PqReader   *r;
	PqValue		row;
	int			rc,
				rows = 0;
	static const char *const cols[] = {"s"};

	snprintf(path, sizeof(path), "%s/test/data/parquet/row_groups.parquet", srcdir());
	c.fp = fopen(path, "rb");
	UNIT_CHECK(c.fp != NULL);
	if (c.fp == NULL)
		return;
	fseek(c.fp, 0, SEEK_END);
	c.size = (uint64_t) ftell(c.fp);
	c.reads = c.bad = 0;
	fmt_arena_init(&ar, 0);
	a = fmt_arena_allocator(&ar);
	f = pq_open(cb_read_at, &c, c.size, &a, NULL, &err);
	UNIT_CHECK(f != NULL);
	UNIT_CHECK(c.reads == 3);	/* head magic, tail, footer */
	r = pq_reader_open(f, cols, 1, &err);
	while ((rc = pq_reader_next_any(r, &a, &row, NULL, &err)) > 0)
		rows++;
	UNIT_CHECK(rc == 0 && rows == 250);
	/* one read per projected column chunk */
	UNIT_CHECK(c.reads == 3 + pq_num_row_groups(f));
	UNIT_CHECK(c.bad == 0);
	/* a claimed size larger than the file makes reads fail cleanly */
	f = pq_open(cb_read_at, &c, c.size + 100, &a, NULL, &err);
	UNIT_CHECK(f == NULL);
	f = pq_open(cb_fail_read_at, &c, c.size, &a, NULL, &err);
	UNIT_CHECK(f == NULL && strstr(err.message, "could not read") != NULL);
	fclose(c.fp);
	fmt_arena_free_all(&ar);
}

/* ------------------------------------------------------------------ */
/* Corrupt and hostile input                                           */
/* ------------------------------------------------------------------ */

/* Read every row of buf; returns 1 when it all decoded, 0 on a clean error. */
static int
read_all(const uint8_t *buf, size_t len, size_t arena_limit, PqError *err)
{
	FmtArena	ar;
	FmtAllocator a;
	PqFile	   *f;
	PqReader   *r;
	PqValue		row;
	int			rc = -1;

	fmt_arena_init(&ar, arena_limit);
	a = fmt_arena_allocator(&ar);
	f = pq_open_buffer(buf, len, &a, NULL, err);
	if (f && (r = pq_reader_open(f, NULL, 0, err)) != NULL)
		while ((rc = pq_reader_next_any(r, &a, &row, NULL, err)) > 0)
			;
	fmt_arena_free_all(&ar);
	if (rc < 0 && err->message[0] == '\0')
		snprintf(err->message, sizeof(err->message), "(no message)");
	return rc == 0;
}

UNIT_TEST(parquet_corrupt_files_give_clean_errors)
{
	size_t		mlen;
	char	   *manifest = (char *) slurp_data("corrupt/MANIFEST", &mlen);
	char	   *line;
	char	   *cursor;
	int			n = 0;

	UNIT_CHECK(manifest != NULL);
	if (manifest == NULL)
		return;
	cursor = manifest;
	while ((line = next_line(&cursor)) != NULL)
	{
		char	   *tab = strchr(line, '\t');
		char		name[512];
		uint8_t    *buf;
		size_t		len;
		PqError		err;

		if (tab == NULL)
			continue;
		*tab = '\0';
		snprintf(name, sizeof(name), "corrupt/%s.parquet", line);
		buf = slurp_data(name, &len);
		UNIT_CHECK(buf != NULL);
		if (buf == NULL)
			continue;
		err.message[0] = '\0';
		if (read_all(buf, len, 64 << 20, &err) || strstr(err.message, tab + 1) == NULL)
		{
			fprintf(stderr, "  %s: expected an error containing \"%s\", got \"%s\"\n", line, tab + 1, err.message);
			UNIT_CHECK(false);
		}
		n++;
		free(buf);
	}
	UNIT_CHECK(n >= 40);
	free(manifest);
}

/*
 * Deterministic mutation sweep: every single-byte change (three kinds) and
 * every truncation of small fixtures must decode or fail cleanly, within a
 * bounded allocation budget (ASan builds catch memory errors).
 */
UNIT_TEST(parquet_mutation_sweep)
{
	static const char *const files[] = {"hm_legacy_lists.parquet", "corrupt/bad_dictionary_index.parquet",
	"nested_v2.parquet"};
	size_t		fi;
	long		runs = 0,
				ok = 0;

	for (fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++)
	{
		size_t		len,
					i;
		uint8_t    *orig = slurp_data(files[fi], &len);
		uint8_t    *buf;
		PqError		err;

		UNIT_CHECK(orig != NULL);
		if (orig == NULL)
			continue;
		buf = malloc(len);
		for (i = 0; i < len; i++)
		{
			static const int kinds[] = {0xff, 0x00, 0x01};
			int			k;

			for (k = 0; k < 3; k++)
			{
				memcpy(buf, orig, len);
				if (kinds[k] == 0x01)
					buf[i] = (uint8_t) (buf[i] + 1);
				else if (kinds[k] == 0xff)
					buf[i] ^= 0xff;
				else
					buf[i] = 0;
				ok += read_all(buf, len, 16 << 20, &err);
				runs++;
			}
			ok += read_all(orig, i, 16 << 20, &err);	/* truncation */
			runs++;
		}
		free(buf);
		free(orig);
	}
	printf("# mutation sweep: %ld inputs, %ld decoded, %ld clean errors\n", runs, ok, runs - ok);
	UNIT_CHECK(runs > 1000);
}

UNIT_TEST(parquet_allocation_budget_is_an_error)
{
	size_t		len;
	uint8_t    *buf = slurp_data("types_v1_snappy.parquet", &len);
	PqError		err;
	size_t		limit;
	bool		saw_oom = false;

	UNIT_CHECK(buf != NULL);
	if (buf == NULL)
		return;
	for (limit = 1024; limit < ((size_t) 1 << 22); limit *= 2)
	{
		err.message[0] = '\0';
		if (!read_all(buf, len, limit, &err))
		{
			UNIT_CHECK(strstr(err.message, "out of memory") != NULL);
			saw_oom = true;
		}
	}
	UNIT_CHECK(saw_oom);
	UNIT_CHECK(read_all(buf, len, 0, &err));
	free(buf);
}

/* ------------------------------------------------------------------ */
/* Real Delta tables                                                   */
/* ------------------------------------------------------------------ */

static uint8_t *
slurp_table(const char *rel, size_t *len)
{
	char		path[2048];

	snprintf(path, sizeof(path), "%s/%s", tables_dir(), rel);
	return slurp(path, len);
}

/* Every checkpoint and sidecar of the tables reads as DuckDB reads it. */
UNIT_TEST(parquet_real_checkpoints_match_duckdb)
{
	size_t		mlen;
	char	   *manifest;
	char	   *line;
	char	   *cursor;
	int			n = 0;

	if (tables_dir() == NULL)
	{
		skip("parquet_real_checkpoints_match_duckdb: conformance tables not found");
		return;
	}
	manifest = (char *) slurp_data("real/MANIFEST", &mlen);
	UNIT_CHECK(manifest != NULL);
	if (manifest == NULL)
		return;
	cursor = manifest;
	while ((line = next_line(&cursor)) != NULL)
	{
		char	   *tab = strchr(line, '\t');
		char		name[1024];
		uint8_t    *pq,
				   *js;
		size_t		pqlen,
					jslen;
		const char *msg;

		if (tab == NULL)
			continue;
		*tab = '\0';
		pq = slurp_table(line, &pqlen);
		snprintf(name, sizeof(name), "real/%s", tab + 1);
		js = slurp_data(name, &jslen);
		UNIT_CHECK(pq != NULL && js != NULL);
		if (pq && js)
		{
			msg = pq_compare_file(pq, pqlen, (const char *) js, jslen);
			if (msg)
				fprintf(stderr, "  %s: %s\n", line, msg);
			UNIT_CHECK(msg == NULL);
			n++;
		}
		free(pq);
		free(js);
	}
	UNIT_CHECK(n >= 40);
	free(manifest);
}

/* Render every row of a file to text lines (sorted), for file comparisons. */
static char **
render_rows(const uint8_t *buf, size_t len, int *nrows)
{
	FmtArena	ar;
	FmtAllocator a;
	PqError		err;
	PqFile	   *f;
	PqReader   *r;
	PqValue		row;
	char	  **lines = NULL;
	int			n = 0,
				cap = 0;

	fmt_arena_init(&ar, 0);
	a = fmt_arena_allocator(&ar);
	f = pq_open_buffer(buf, len, &a, NULL, &err);
	r = f ? pq_reader_open(f, NULL, 0, &err) : NULL;
	while (r && pq_reader_next_any(r, &a, &row, NULL, &err) > 0)
	{
		FILE	   *tmp = tmpfile();
		long		l;

		pq_render(tmp, &row);
		l = ftell(tmp);
		rewind(tmp);
		if (n == cap)
		{
			cap = cap ? cap * 2 : 64;
			lines = realloc(lines, sizeof(char *) * (size_t) cap);
		}
		lines[n] = malloc((size_t) l + 1);
		if (fread(lines[n], 1, (size_t) l, tmp) != (size_t) l)
			l = 0;
		lines[n][l] = '\0';
		fclose(tmp);
		n++;
	}
	fmt_arena_free_all(&ar);
	*nrows = n;
	return lines;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The data file of a golden table holds exactly the rows of its expected/ file. */
static void
check_data_vs_expected(int *unit_failures, const char *data_rel, const char *exp_rel, int want_rows)
{
	size_t		l1,
				l2;
	uint8_t    *b1 = slurp_table(data_rel, &l1);
	uint8_t    *b2 = slurp_table(exp_rel, &l2);
	char	  **r1,
			  **r2;
	int			n1 = 0,
				n2 = 0,
				i;

	UNIT_CHECK(b1 != NULL && b2 != NULL);
	if (b1 == NULL || b2 == NULL)
	{
		free(b1);
		free(b2);
		return;
	}
	r1 = render_rows(b1, l1, &n1);
	r2 = render_rows(b2, l2, &n2);
	UNIT_CHECK(n1 == want_rows && n2 == want_rows);
	if (n1 == n2)
	{
		qsort(r1, (size_t) n1, sizeof(char *), cmp_str);
		qsort(r2, (size_t) n2, sizeof(char *), cmp_str);
		for (i = 0; i < n1; i++)
			if (strcmp(r1[i], r2[i]) != 0)
			{
				fprintf(stderr, "  %s row differs:\n    %s\n    %s\n", data_rel, r1[i], r2[i]);
				UNIT_CHECK(false);
				break;
			}
	}
	for (i = 0; i < n1; i++)
		free(r1[i]);
	for (i = 0; i < n2; i++)
		free(r2[i]);
	free(r1);
	free(r2);
	free(b1);
	free(b2);
}

UNIT_TEST(parquet_real_data_files_match_expected)
{
	if (tables_dir() == NULL)
	{
		skip("parquet_real_data_files_match_expected: conformance tables not found");
		return;
	}
	check_data_vs_expected(unit_failures,
						   "golden-parquet-all-types/delta/part-00000-bf6680d4-5e83-4fce-8ebb-d2b60d7e69c9-c000.snappy.parquet",
						   "golden-parquet-all-types/expected/part-00000-1ee19cd1-40ff-4780-b7f4-ccbe7b02eacf-c000.snappy.parquet",
						   200);
}

/* Count non-null values of a top-level field over the parts of a checkpoint. */
static int
count_actions(int *unit_failures, const char *const *parts, int nparts, const char *field,
			  const char *const *cols, int ncols, int64_t *rows_out,
			  bool (*check) (const PqValue *action))
{
	int			p,
				count = 0;
	int64_t		rows = 0;

	for (p = 0; p < nparts; p++)
	{
		size_t		len;
		uint8_t    *buf = slurp_table(parts[p], &len);
		FmtArena	ar;
		FmtAllocator a;
		PqError		err;
		PqFile	   *f;
		PqReader   *r;
		PqValue		row;
		int			rc;

		UNIT_CHECK(buf != NULL);
		if (buf == NULL)
			continue;
		fmt_arena_init(&ar, 0);
		a = fmt_arena_allocator(&ar);
		f = pq_open_buffer(buf, len, &a, NULL, &err);
		UNIT_CHECK(f != NULL);
		if (f)
		{
			r = pq_reader_open(f, cols, ncols, &err);
			while ((rc = pq_reader_next_any(r, &a, &row, NULL, &err)) > 0)
			{
				const PqValue *v = pq_struct_get(&row, field);

				rows++;
				if (v && v->kind != PQV_NULL)
				{
					count++;
					if (check && !check(v))
					{
						fprintf(stderr, "  %s: unexpected %s action\n", parts[p], field);
						UNIT_CHECK(false);
					}
				}
			}
			if (rc < 0)
				fprintf(stderr, "  %s: %s\n", parts[p], err.message);
			UNIT_CHECK(rc == 0);
		}
		fmt_arena_free_all(&ar);
		free(buf);
	}
	if (rows_out)
		*rows_out = rows;
	return count;
}

static bool
add_has_path_and_map(const PqValue *add)
{
	const PqValue *p = pq_struct_get(add, "path");
	const PqValue *pv = pq_struct_get(add, "partitionValues");

	return p && p->kind == PQV_STRING && p->len > 0 && pv && pv->kind == PQV_MAP;
}

static bool
add_has_struct_stats(const PqValue *add)
{
	const PqValue *sp = pq_struct_get(add, "stats_parsed");
	const PqValue *nr = pq_struct_get(sp, "numRecords");
	const PqValue *pvp = pq_struct_get(add, "partitionValues_parsed");

	return add_has_path_and_map(add) && nr && nr->kind == PQV_INT64 && nr->u.i64 > 0 &&
		pvp && pvp->kind == PQV_STRUCT;
}

static bool
add_has_dv(const PqValue *add)
{
	const PqValue *dv = pq_struct_get(add, "deletionVector");
	const PqValue *st,
			   *card;

	if (!add_has_path_and_map(add) || dv == NULL)
		return false;
	if (dv->kind == PQV_NULL)
		return true;
	st = pq_struct_get(dv, "storageType");
	card = pq_struct_get(dv, "cardinality");
	return st && st->kind == PQV_STRING && st->len == 1 && st->u.bytes[0] == 'u' &&
		card && card->kind == PQV_INT64 && card->u.i64 > 0;
}

static bool
protocol_ok(const PqValue *p)
{
	const PqValue *r = pq_struct_get(p, "minReaderVersion");

	return r && r->kind == PQV_INT32 && r->u.i32 >= 1;
}

static bool
metadata_ok(const PqValue *m)
{
	const PqValue *c = pq_struct_get(m, "configuration");
	const PqValue *s = pq_struct_get(m, "schemaString");

	return c && c->kind == PQV_MAP && s && s->kind == PQV_STRING;
}

UNIT_TEST(parquet_real_checkpoint_actions)
{
	static const char *const multipart[] = {
		"golden-multipart-checkpoint/delta/_delta_log/00000000000000000001.checkpoint.0000000001.0000000002.parquet",
		"golden-multipart-checkpoint/delta/_delta_log/00000000000000000001.checkpoint.0000000002.0000000002.parquet"
	};
	static const char *const structstats[] = {
		"kr-multipart-struct-stats-partitioned/_delta_log/00000000000000000005.checkpoint.0000000001.0000000003.parquet",
		"kr-multipart-struct-stats-partitioned/_delta_log/00000000000000000005.checkpoint.0000000002.0000000003.parquet",
		"kr-multipart-struct-stats-partitioned/_delta_log/00000000000000000005.checkpoint.0000000003.0000000003.parquet"
	};
	static const char *const dv[] = {
		"golden-dv-partitioned-checkpoint/delta/_delta_log/00000000000000000010.checkpoint.parquet"
	};
	static const char *const addcols[] = {"add", "protocol", "metaData"};
	int64_t		rows;

	if (tables_dir() == NULL)
	{
		skip("parquet_real_checkpoint_actions: conformance tables not found");
		return;
	}
	/* classic multi-part: the 10 files of version 1 spread over 2 parts */
	UNIT_CHECK(count_actions(unit_failures, multipart, 2, "add", addcols, 3, &rows, add_has_path_and_map) == 10);
	UNIT_CHECK(count_actions(unit_failures, multipart, 2, "protocol", addcols, 3, NULL, protocol_ok) == 1);
	UNIT_CHECK(count_actions(unit_failures, multipart, 2, "metaData", addcols, 3, NULL, metadata_ok) == 1);
	/* stats only as stats_parsed, with partitionValues_parsed */
	UNIT_CHECK(count_actions(unit_failures, structstats, 3, "add", addcols, 1, &rows, add_has_struct_stats) == 5);
	/* deletion vectors in a checkpoint */
	UNIT_CHECK(count_actions(unit_failures, dv, 1, "add", addcols, 1, &rows, add_has_dv) > 0);
}

UNIT_TEST(parquet_real_v2_checkpoint_and_sidecars)
{
	static const char *const top[] = {
		"golden-v2-checkpoint-parquet/delta/_delta_log/00000000000000000002.checkpoint.e8fa2696-9728-4e9c-b285-634743fdd4fb.parquet"
	};
	static const char *const sidecars[] = {
		"golden-v2-checkpoint-parquet/delta/_delta_log/_sidecars/00000000000000000002.checkpoint.0000000001.0000000002.055454d8-329c-4e0e-864d-7f867075af33.parquet",
		"golden-v2-checkpoint-parquet/delta/_delta_log/_sidecars/00000000000000000002.checkpoint.0000000002.0000000002.33321cc1-9c55-4d1f-8511-fafe6d2e1133.parquet"
	};
	static const char *const cols[] = {"checkpointMetadata", "sidecar", "add"};

	if (tables_dir() == NULL)
	{
		skip("parquet_real_v2_checkpoint_and_sidecars: conformance tables not found");
		return;
	}
	UNIT_CHECK(count_actions(unit_failures, top, 1, "checkpointMetadata", cols, 3, NULL, NULL) == 1);
	UNIT_CHECK(count_actions(unit_failures, top, 1, "sidecar", cols, 3, NULL, NULL) == 2);
	UNIT_CHECK(count_actions(unit_failures, sidecars, 2, "add", cols, 3, NULL, add_has_path_and_map) == 4);
}

UNIT_TEST(parquet_skip_report)
{
	printf("# parquet tests skipped: %d\n", pq_skipped);
	UNIT_CHECK(pq_skipped >= 0);
}
