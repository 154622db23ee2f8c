/*
 * pq_render.h
 *	  Test helper: render a PqValue tree as JSON text (for messages and the
 *	  pqdump development tool).  Static functions, included by the tests.
 */
#ifndef DELTACC_PQ_RENDER_H
#define DELTACC_PQ_RENDER_H

#include <stdio.h>
#include <string.h>

#include "parquet.h"

static void
pq_render_str(FILE *out, const uint8_t *s, uint32_t len)
{
	uint32_t	i;

	fputc('"', out);
	for (i = 0; i < len; i++)
	{
		if (s[i] == '"' || s[i] == '\\')
			fprintf(out, "\\%c", s[i]);
		else if (s[i] < 0x20)
			fprintf(out, "\\u%04x", s[i]);
		else
			fputc(s[i], out);
	}
	fputc('"', out);
}

static void
pq_render(FILE *out, const PqValue *v)
{
	uint32_t	i;

	switch (v->kind)
	{
		case PQV_NULL:
			fputs("null", out);
			break;
		case PQV_BOOL:
			fputs(v->u.b ? "true" : "false", out);
			break;
		case PQV_INT32:
			fprintf(out, "%d", v->u.i32);
			break;
		case PQV_INT64:
			fprintf(out, "%lld", (long long) v->u.i64);
			break;
		case PQV_FLOAT:
			fprintf(out, "%.9g", v->u.f);
			break;
		case PQV_DOUBLE:
			fprintf(out, "%.17g", v->u.d);
			break;
		case PQV_STRING:
			pq_render_str(out, v->u.bytes, v->len);
			break;
		case PQV_BYTES:
			fputs("\"hex:", out);
			for (i = 0; i < v->len; i++)
				fprintf(out, "%02x", v->u.bytes[i]);
			fputc('"', out);
			break;
		case PQV_DECIMAL:
			fprintf(out, "\"dec:%s\"", v->u.text);
			break;
		case PQV_DATE:
			fprintf(out, "{\"date\":%d}", v->u.i32);
			break;
		case PQV_TIMESTAMP:
			fprintf(out, "{\"%s\":%lld}", v->ts_unit == PQ_MILLIS ? "ms" : v->ts_unit == PQ_MICROS ? "us" : "ns",
					(long long) v->u.i64);
			break;
		case PQV_STRUCT:
			fputc('{', out);
			for (i = 0; i < v->len; i++)
			{
				if (i)
					fputc(',', out);
				pq_render_str(out, (const uint8_t *) v->u.items[i].node->name,
							  (uint32_t) strlen(v->u.items[i].node->name));
				fputc(':', out);
				pq_render(out, &v->u.items[i]);
			}
			fputc('}', out);
			break;
		case PQV_LIST:
			fputc('[', out);
			for (i = 0; i < v->len; i++)
			{
				if (i)
					fputc(',', out);
				pq_render(out, &v->u.items[i]);
			}
			fputc(']', out);
			break;
		case PQV_MAP:
			fputs("{\"map\":[", out);
			for (i = 0; i < v->len; i++)
			{
				if (i)
					fputc(',', out);
				fputc('[', out);
				pq_render(out, &v->u.map.keys[i]);
				fputc(',', out);
				pq_render(out, &v->u.map.values[i]);
				fputc(']', out);
			}
			fputs("]}", out);
			break;
		default:
			fputs("\"?\"", out);
	}
}


/*
 * Compare a decoded value with the canonical JSON written by
 * test/data/parquet/gen/canon.mjs.  Returns true when equal; otherwise
 * appends the path of the first difference to 'where'.
 */
#include <math.h>
#include <stdlib.h>

#include "djson.h"

static bool
pq_num_eq_i64(const DjValue *e, int64_t x)
{
	int64_t		y;

	return e && e->type == DJ_NUMBER && dj_to_int64(e, &y) && y == x;
}

static bool
pq_special_eq(const DjValue *e, double d)
{
	if (e->type != DJ_STRING)
		return false;
	if (strcmp(e->u.str, "NaN") == 0)
		return isnan(d);
	if (strcmp(e->u.str, "Infinity") == 0)
		return isinf(d) && d > 0;
	if (strcmp(e->u.str, "-Infinity") == 0)
		return isinf(d) && d < 0;
	return false;
}

static bool
pq_ts_eq(const PqValue *v, const DjValue *e)
{
	static const char *const units[] = {"ms", "us", "ns"};
	static const int64_t scale[] = {1000000, 1000, 1};
	int			u;

	if (e->type != DJ_OBJECT || e->len != 1)
		return false;
	for (u = 0; u < 3; u++)
	{
		const DjValue *n = dj_get(e, units[u]);
		int64_t		y;
		long double a,
					b;

		if (n == NULL)
			continue;
		if (!dj_to_int64(n, &y))
			return false;
		a = (long double) v->u.i64 * scale[v->ts_unit];
		b = (long double) y * scale[u];
		if (v->ts_unit == u)
			return v->u.i64 == y;
		return a == b;
	}
	return false;
}

static bool
pq_expect(const PqValue *v, const DjValue *e, char *where, size_t wsz)
{
	uint32_t	i;
	bool		ok = false;

	switch (v->kind)
	{
		case PQV_NULL:
			ok = e->type == DJ_NULL;
			break;
		case PQV_BOOL:
			ok = e->type == (v->u.b ? DJ_TRUE : DJ_FALSE);
			break;
		case PQV_INT32:
			ok = pq_num_eq_i64(e, v->u.i32);
			break;
		case PQV_INT64:
			ok = pq_num_eq_i64(e, v->u.i64);
			break;
		case PQV_FLOAT:
			if (e->type == DJ_NUMBER)
				ok = (float) strtod(e->u.num, NULL) == v->u.f &&
					(signbit(strtod(e->u.num, NULL)) != 0) == (signbit(v->u.f) != 0);
			else
				ok = pq_special_eq(e, v->u.f);
			break;
		case PQV_DOUBLE:
			if (e->type == DJ_NUMBER)
				ok = strtod(e->u.num, NULL) == v->u.d &&
					(signbit(strtod(e->u.num, NULL)) != 0) == (signbit(v->u.d) != 0);
			else
				ok = pq_special_eq(e, v->u.d);
			break;
		case PQV_STRING:
			ok = e->type == DJ_STRING && e->len == v->len && memcmp(e->u.str, v->u.bytes, v->len) == 0;
			break;
		case PQV_BYTES:
			if (e->type == DJ_STRING && strncmp(e->u.str, "hex:", 4) == 0 && e->len == 4 + 2 * v->len)
			{
				ok = true;
				for (i = 0; i < v->len && ok; i++)
				{
					char		h[3];

					snprintf(h, sizeof(h), "%02x", v->u.bytes[i]);
					ok = memcmp(h, e->u.str + 4 + 2 * i, 2) == 0;
				}
			}
			else if (e->type == DJ_STRING && strncmp(e->u.str, "uuid:", 5) == 0 && v->len == 16)
			{
				char		u[40];
				int			k = 0;

				for (i = 0; i < 16; i++)
				{
					if (i == 4 || i == 6 || i == 8 || i == 10)
						u[k++] = '-';
					k += snprintf(u + k, sizeof(u) - k, "%02x", v->u.bytes[i]);
				}
				ok = strcmp(u, e->u.str + 5) == 0;
			}
			break;
		case PQV_DECIMAL:
			if (e->type == DJ_STRING && strncmp(e->u.str, "dec:", 4) == 0)
				ok = strcmp(e->u.str + 4, v->u.text) == 0;
			else if (e->type == DJ_NUMBER)
				ok = strcmp(e->u.num, v->u.text) == 0;
			break;
		case PQV_DATE:
			ok = e->type == DJ_OBJECT && pq_num_eq_i64(dj_get(e, "date"), v->u.i32);
			break;
		case PQV_TIMESTAMP:
			ok = pq_ts_eq(v, e);
			break;
		case PQV_STRUCT:
			if (e->type != DJ_OBJECT || e->len != v->len)
				break;
			for (i = 0; i < v->len; i++)
			{
				if (strcmp(e->u.members[i].key, v->u.items[i].node->name) != 0)
				{
					snprintf(where + strlen(where), wsz - strlen(where), ".%s(key)", v->u.items[i].node->name);
					return false;
				}
				if (!pq_expect(&v->u.items[i], &e->u.members[i].value, where, wsz))
				{
					char		tmp[512];

					snprintf(tmp, sizeof(tmp), ".%s%s", v->u.items[i].node->name, where);
					snprintf(where, wsz, "%s", tmp);
					return false;
				}
			}
			return true;
		case PQV_LIST:
			if (e->type != DJ_ARRAY || e->len != v->len)
				break;
			for (i = 0; i < v->len; i++)
				if (!pq_expect(&v->u.items[i], &e->u.items[i], where, wsz))
				{
					char		tmp[512];

					snprintf(tmp, sizeof(tmp), "[%u]%s", i, where);
					snprintf(where, wsz, "%s", tmp);
					return false;
				}
			return true;
		case PQV_MAP:
			{
				const DjValue *m = dj_get(e, "map");

				if (e->type != DJ_OBJECT || m == NULL || m->type != DJ_ARRAY || m->len != v->len)
					break;
				for (i = 0; i < v->len; i++)
				{
					const DjValue *kv = &m->u.items[i];

					if (kv->type != DJ_ARRAY || kv->len != 2 ||
						!pq_expect(&v->u.map.keys[i], &kv->u.items[0], where, wsz) ||
						!pq_expect(&v->u.map.values[i], &kv->u.items[1], where, wsz))
					{
						char		tmp[512];

						snprintf(tmp, sizeof(tmp), "{%u}%s", i, where);
						snprintf(where, wsz, "%s", tmp);
						return false;
					}
				}
				return true;
			}
	}
	if (!ok && strlen(where) == 0)
		snprintf(where, wsz, " (got %s)", pq_value_kind_name(v->kind));
	return ok;
}

/*
 * Compare every row of a Parquet file (in memory) with a JSON-lines file
 * of expected rows.  Returns NULL when equal, else a static message.
 */
static const char *
pq_compare_file(const uint8_t *buf, size_t len, const char *jsonl, size_t jlen)
{
	static char msg[1024];
	FmtArena	ar;
	FmtAllocator a;
	PqError		err;
	PqFile	   *f;
	PqReader   *r;
	PqValue		row;
	int64_t		pos;
	int			rc;
	size_t		off = 0;
	long		n = 0;

	fmt_arena_init(&ar, 0);
	a = fmt_arena_allocator(&ar);
	msg[0] = '\0';
	f = pq_open_buffer(buf, len, &a, NULL, &err);
	if (f == NULL)
	{
		snprintf(msg, sizeof(msg), "open: %s", err.message);
		goto done;
	}
	r = pq_reader_open(f, NULL, 0, &err);
	if (r == NULL)
	{
		snprintf(msg, sizeof(msg), "reader: %s", err.message);
		goto done;
	}
	while ((rc = pq_reader_next_any(r, &a, &row, &pos, &err)) > 0)
	{
		const char *nl;
		DjValue		e;
		DjError		de;
		char		where[512] = "";

		if (off >= jlen)
		{
			snprintf(msg, sizeof(msg), "more rows than expected (%ld)", n);
			goto done;
		}
		nl = memchr(jsonl + off, '\n', jlen - off);
		if (nl == NULL)
			nl = jsonl + jlen;
		if (!dj_parse(jsonl + off, (size_t) (nl - (jsonl + off)), &a, 200, &e, &de))
		{
			snprintf(msg, sizeof(msg), "expected row %ld: bad JSON: %s", n, de.message);
			goto done;
		}
		if (pos != n)
		{
			snprintf(msg, sizeof(msg), "row %ld has position %lld", n, (long long) pos);
			goto done;
		}
		if (!pq_expect(&row, &e, where, sizeof(where)))
		{
			snprintf(msg, sizeof(msg), "row %ld differs at %s", n, where);
			goto done;
		}
		off = (size_t) (nl - jsonl) + 1;
		n++;
	}
	if (rc < 0)
		snprintf(msg, sizeof(msg), "row %ld: %s", n, err.message);
	else if (off < jlen)
		snprintf(msg, sizeof(msg), "fewer rows than expected (%ld)", n);
done:
	fmt_arena_free_all(&ar);
	return msg[0] ? msg : NULL;
}

#endif
