/*-------------------------------------------------------------------------
 *
 * sparkpred.c
 *	  Recorded predicates to read predicates: the translation of the syntax
 *	  tree (sparkpred_parse.c) into PostgreSQL text (see sparkpred.h).
 *
 * Every node becomes exact text, a widened one, or nothing:
 *	AND		keeps what its children give, dropping the ones that give nothing
 *			(each dropped conjunct widens: the rest selects a superset);
 *	OR		needs every child (a dropped disjunct would narrow);
 *	NOT		needs an exact child (NOT of a superset is a subset);
 *	IN		is an OR of equalities when an item widens, nothing under NOT;
 *	leaves	are a column term (column, a widening cast of one, column % k)
 *			related to literals typed by that column.
 * Spark's three-valued logic is PostgreSQL's for AND, OR, NOT, the
 * comparisons, IN (a NULL item included), BETWEEN, LIKE and IS [NOT]
 * NULL; <=> is IS NOT DISTINCT FROM.  Float comparisons agree too (NaN
 * equals NaN and sorts above every number; -0.0 equals 0.0), strings
 * compare in byte order under the project's COLLATE "C".
 *
 * What a literal means is decided here, against the column's type:
 * - integers of any width compare exactly with integer and decimal
 *   columns; with double columns both engines compare doubles;
 * - a decimal literal meets a double column only as a double, and Spark
 *   converts decimals to doubles by a division that is correctly rounded
 *   only while the unscaled value is below 2^53 and the scale at most 22,
 *   so only those translate;
 * - a toString literal must be what Spark prints for the column's type
 *   (Long.toString, Double.toString, BigDecimal.toString, yyyy-MM-dd, the
 *   day number Spark <= 3.1 printed for dates, its microsecond count for
 *   timestamps, 0x... for binary); "null" next to a string column could be
 *   either the null literal or the word, so it does not translate;
 * - timestamps in the writer's session time zone (TIMESTAMP '...', the
 *   toString rendering) denote an instant within 18 hours of the
 *   wall-clock value read as UTC (java.time bounds zone offsets by
 *   +-18:00): = becomes BETWEEN those bounds, < and > the looser bound;
 * - delta-rs decimals '<N>'::decimal(p, s) are printed unscaled (N is
 *   value * 10^s) by the versions that have the quirk, and may be printed
 *   scaled by a fixed one: N stands for N * 10^-s or N, both where both fit
 *   decimal(p, s).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sparkpred.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <string.h>

#include "djson.h"
#include "djson_scan.h"
#include "sparkpred.h"
#include "sparkpred_parse.h"

/* Microseconds a session time zone can move a wall-clock value. */
#define SP_ZONE_SLACK_MICROS ((int64_t) 18 * 3600 * 1000000)

typedef struct Tx
{
	const FmtAllocator *a;
	SpResolveFn resolve;
	void	   *rctx;
	SpForm		form;
	bool		oom;
	const char *reason;			/* first thing dropped or widened */
	SpExprIds	ids;			/* toString attributes of all elements */
} Tx;

typedef struct Out
{
	SpOutcome	o;
	char	   *sql;
} Out;

/* A column term: its text and its type. */
typedef struct Term
{
	char	   *sql;
	SpType		type;
	int			precision;
	int			scale;
} Term;

/* A literal as a value of the column's type. */
enum
{
	V_EXACT = 0,				/* a */
	V_NULL,
	V_RANGE,					/* some value in [a, b] */
	V_PAIR						/* a or b, a <= b */
};

typedef struct Val
{
	int			k;
	char	   *a;
	char	   *b;
} Val;

static Out
none(Tx *tx, const char *why)
{
	Out			o = {SP_NONE, NULL};

	if (tx->reason == NULL)
		tx->reason = why;
	return o;
}

static char *
tx_dup(Tx *tx, const char *s)
{
	char	   *r = sp_strndup(tx->a, s, strlen(s));

	if (r == NULL)
		tx->oom = true;
	return r;
}

static char *
buf_done(Tx *tx, SpBuf *b)
{
	if (b->oom || b->data == NULL)
	{
		tx->oom = true;
		return NULL;
	}
	return b->data;
}

/* ---------- exact decimals ---------- */

/* value = digits * 10^-scale; digits without leading zeros ("0" for 0) */
typedef struct Dec
{
	bool		neg;
	char	   *digits;
	int			nd;
	int			scale;
} Dec;

#define SP_MAX_EXP 400

/*
 * Read [-+]d+[.d*][(e|E)[-+]d+] (or .d+ ...); exponents allowed when
 * allow_exp.  False when malformed or beyond the exponent bound.
 */
static bool
dec_read(Tx *tx, const char *s, size_t n, bool allow_exp, Dec *d)
{
	size_t		i = 0;
	size_t		ib;
	size_t		ie;
	size_t		fb = 0;
	size_t		fe = 0;
	long		e = 0;
	char	   *buf;
	int			nd = 0;
	int			scale;
	int			k;

	memset(d, 0, sizeof(*d));
	if (i < n && (s[i] == '-' || s[i] == '+'))
	{
		d->neg = s[i] == '-';
		i++;
	}
	ib = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	ie = i;
	if (i < n && s[i] == '.')
	{
		fb = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		fe = i;
	}
	if (ie == ib && fe == fb)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		bool		eneg = false;
		size_t		eb;

		if (!allow_exp)
			return false;
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		eb = i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
		{
			e = e * 10 + (s[i] - '0');
			if (e > SP_MAX_EXP)
				return false;
			i++;
		}
		if (i == eb)
			return false;
		if (eneg)
			e = -e;
	}
	if (i != n || (ie - ib) + (fe - fb) > 2 * SP_MAX_EXP)
		return false;
	scale = (int) (fe - fb) - (int) e;
	buf = fmt_alloc_raw(tx->a, (ie - ib) + (fe - fb) + SP_MAX_EXP + 2);
	if (buf == NULL)
	{
		tx->oom = true;
		return false;
	}
	for (k = 0; k < (int) (ie - ib); k++)
		buf[nd++] = s[ib + k];
	for (k = 0; k < (int) (fe - fb); k++)
		buf[nd++] = s[fb + k];
	while (scale < 0)
	{
		buf[nd++] = '0';
		scale++;
	}
	if (scale > 2 * SP_MAX_EXP)
		return false;
	buf[nd] = '\0';
	k = 0;
	while (k < nd - 1 && buf[k] == '0')
		k++;
	d->digits = buf + k;
	d->nd = nd - k;
	if (d->nd == 0)
	{
		d->digits = "0";
		d->nd = 1;
	}
	d->scale = scale;
	if (d->nd == 1 && d->digits[0] == '0')
		d->neg = false;
	else
	{
		/* all zeros? */
		int			z;

		for (z = 0; z < d->nd && d->digits[z] == '0'; z++)
			;
		if (z == d->nd)
			d->neg = false;
	}
	return true;
}

/* Digits before the point, leading zeros not counted. */
static int
dec_int_digits(const Dec *d)
{
	int			n = d->nd - d->scale;
	int			k;

	if (n <= 0)
		return 0;
	for (k = 0; k < n && d->digits[k] == '0'; k++)
		;
	return n - k;
}

/* Can the value be held exactly by decimal(p, s)? */
static bool
dec_fits(const Dec *d, int p, int s)
{
	int			k;

	if (dec_int_digits(d) > p - s)
		return false;
	for (k = 0; k < d->scale - s; k++)
		if (d->digits[d->nd - 1 - k] != '0')
			return false;
	return true;
}

static bool
dec_is_integer(const Dec *d)
{
	return dec_fits(d, 1000, 0);
}

/* Plain text (no exponent) of the value */
static char *
dec_text(Tx *tx, const Dec *d)
{
	SpBuf		b;
	int			k;

	spb_init(&b, tx->a);
	if (d->neg)
		spb_putc(&b, '-');
	if (d->scale == 0)
		spb_putn(&b, d->digits, (size_t) d->nd);
	else if (d->nd > d->scale)
	{
		spb_putn(&b, d->digits, (size_t) (d->nd - d->scale));
		spb_putc(&b, '.');
		spb_putn(&b, d->digits + d->nd - d->scale, (size_t) d->scale);
	}
	else
	{
		spb_puts(&b, "0.");
		for (k = 0; k < d->scale - d->nd; k++)
			spb_putc(&b, '0');
		spb_putn(&b, d->digits, (size_t) d->nd);
	}
	return buf_done(tx, &b);
}

/*
 * Spark's Decimal.toDouble for a literal that fits its compact form is the
 * unscaled long divided by 10^scale, correctly rounded when both are exact
 * doubles (unscaled below 2^53, scale at most 22): then it equals the
 * correctly rounded reading of the text, PostgreSQL's.
 */
static bool
dec_double_exact(const Dec *d)
{
	uint64_t	u = 0;
	int			k;

	if (d->scale > 22 || d->scale < 0 || d->nd > 16)
		return false;
	for (k = 0; k < d->nd; k++)
		u = u * 10 + (uint64_t) (d->digits[k] - '0');
	return u < ((uint64_t) 1 << 53);
}

/* ---------- the toString literal classes ---------- */

enum
{
	B_DIGITS = 0,				/* -?[1-9]d* | 0 */
	B_NUM,						/* d+.d+[E-?d+], d+E[+-]d+ (Java's forms) */
	B_SPECIAL,					/* NaN Infinity -Infinity */
	B_DATE,
	B_DATETIME,
	B_BOOL,
	B_NULL,
	B_HEX,
	B_WORDS
};

static bool
all_digits(const char *s, size_t n)
{
	size_t		k;

	if (n == 0)
		return false;
	for (k = 0; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

/* Java's Double/Float/BigDecimal toString forms, the integer part plain */
static bool
java_number(const char *s, size_t n)
{
	size_t		i = 0;
	size_t		b;
	bool		point = false;
	bool		expo = false;

	if (i < n && s[i] == '-')
		i++;
	b = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == b || (s[b] == '0' && i - b > 1))
		return false;
	if (i < n && s[i] == '.')
	{
		point = true;
		b = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == b)
			return false;
	}
	if (i < n && s[i] == 'E')
	{
		expo = true;
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		if (!all_digits(s + i, n - i) || n - i > 3)
			return false;
		i = n;
	}
	return i == n && (point || expo);
}

static int
bare_class(const char *s, size_t n)
{
	int32_t		days;
	int64_t		micros;

	if (n > 0 && (all_digits(s, n) || (s[0] == '-' && all_digits(s + 1, n - 1))))
	{
		size_t		b = s[0] == '-' ? 1 : 0;

		if ((s[b] != '0' || n - b == 1) && !(b == 1 && s[1] == '0'))
			return B_DIGITS;
		return B_WORDS;
	}
	if (java_number(s, n))
		return B_NUM;
	if ((n == 3 && memcmp(s, "NaN", 3) == 0) || (n == 8 && memcmp(s, "Infinity", 8) == 0) ||
		(n == 9 && memcmp(s, "-Infinity", 9) == 0))
		return B_SPECIAL;
	if (sp_read_date(s, n, &days))
		return B_DATE;
	if (n >= 19 && s[10] == ' ' && s[16] == ':' &&
		sp_read_datetime(s, n, false, NULL, &micros))
		return B_DATETIME;
	if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0))
		return B_BOOL;
	if (n == 4 && memcmp(s, "null", 4) == 0)
		return B_NULL;
	if (n >= 2 && s[0] == '0' && s[1] == 'x')
		return B_HEX;
	return B_WORDS;
}

/* ---------- printing ---------- */

static const char *
pg_type_name(SpType t)
{
	switch (t)
	{
		case SP_T_LONG:
			return "bigint";
		case SP_T_INT:
			return "integer";
		case SP_T_SHORT:
		case SP_T_BYTE:
			return "smallint";
		case SP_T_FLOAT:
			return "real";
		case SP_T_DOUBLE:
			return "double precision";
		case SP_T_DECIMAL:
			return "numeric";
		case SP_T_STRING:
			return "text";
		case SP_T_BINARY:
			return "bytea";
		case SP_T_BOOLEAN:
			return "boolean";
		case SP_T_DATE:
			return "date";
		case SP_T_TIMESTAMP:
			return "timestamptz";
		case SP_T_TIMESTAMP_NTZ:
			return "timestamp";
		default:
			return NULL;
	}
}

/*
 * A string constant: '...' with quotes doubled, or E'...' when it holds a
 * backslash (so standard_conforming_strings does not matter).
 */
static void
put_string(SpBuf *b, const char *s, size_t n)
{
	size_t		k;
	bool		bs = memchr(s, '\\', n) != NULL;

	if (bs)
		spb_putc(b, 'E');
	spb_putc(b, '\'');
	for (k = 0; k < n; k++)
	{
		if (s[k] == '\'')
			spb_putc(b, '\'');
		else if (s[k] == '\\')
			spb_putc(b, '\\');
		spb_putc(b, s[k]);
	}
	spb_putc(b, '\'');
}

static char *
string_text(Tx *tx, const char *s, size_t n, bool typed)
{
	SpBuf		b;

	spb_init(&b, tx->a);
	put_string(&b, s, n);
	if (typed)
		spb_puts(&b, "::text");
	return buf_done(tx, &b);
}

static char *
typed_text(Tx *tx, const char *s, size_t n, const char *type)
{
	SpBuf		b;

	spb_init(&b, tx->a);
	put_string(&b, s, n);
	spb_puts(&b, "::");
	spb_puts(&b, type);
	return buf_done(tx, &b);
}

static char *
date_text(Tx *tx, int64_t days)
{
	char		s[32];
	int			y;
	int			m;
	int			d;

	sp_civil_from_days(days, &y, &m, &d);
	snprintf(s, sizeof(s), "DATE '%04d-%02d-%02d'", y, m, d);
	return tx_dup(tx, s);
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t		q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static char *
ts_text(Tx *tx, int64_t micros, bool tz)
{
	char		s[64];
	int64_t		days = floor_div(micros, (int64_t) 86400 * 1000000);
	int64_t		rem = micros - days * (int64_t) 86400 * 1000000;
	int64_t		secs = rem / 1000000;
	int64_t		frac = rem % 1000000;
	int			y;
	int			m;
	int			d;
	int			len;

	sp_civil_from_days(days, &y, &m, &d);
	len = snprintf(s, sizeof(s), "'%04d-%02d-%02d %02d:%02d:%02d", y, m, d,
				   (int) (secs / 3600), (int) (secs / 60 % 60), (int) (secs % 60));
	if (frac != 0)
		len += snprintf(s + len, sizeof(s) - (size_t) len, ".%06d", (int) frac);
	snprintf(s + len, sizeof(s) - (size_t) len, "%s'::%s", tz ? "+00" : "",
			 tz ? "timestamptz" : "timestamp");
	return tx_dup(tx, s);
}

static char *
bytes_text(Tx *tx, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	SpBuf		b;
	size_t		k;

	spb_init(&b, tx->a);
	spb_puts(&b, "E'\\\\x");
	for (k = 0; k < n; k++)
	{
		spb_putc(&b, hex[((unsigned char) s[k]) >> 4]);
		spb_putc(&b, hex[((unsigned char) s[k]) & 15]);
	}
	spb_puts(&b, "'::bytea");
	return buf_done(tx, &b);
}

static char *
int_text(Tx *tx, int64_t v)
{
	char		s[32];

	snprintf(s, sizeof(s), "%lld", (long long) v);
	return tx_dup(tx, s);
}

/* An integer literal's text, canonical (SL_INT text can be any size). */
static char *
integer_text(Tx *tx, const SpLit *l)
{
	Dec			d;

	if (l->has_ival)
		return int_text(tx, l->ival);
	if (!dec_read(tx, l->text, l->len, false, &d) || !dec_is_integer(&d))
		return NULL;
	return dec_text(tx, &d);
}

/* ---------- literal values ---------- */

static bool
is_integral(SpType t)
{
	return t == SP_T_LONG || t == SP_T_INT || t == SP_T_SHORT || t == SP_T_BYTE;
}

static bool
in_range(SpType t, int64_t v)
{
	switch (t)
	{
		case SP_T_INT:
			return v >= INT32_MIN && v <= INT32_MAX;
		case SP_T_SHORT:
			return v >= -32768 && v <= 32767;
		case SP_T_BYTE:
			return v >= -128 && v <= 127;
		default:
			return true;
	}
}

/* Decimal digits any value of an integral type may need. */
static int
integral_digits(SpType t)
{
	switch (t)
	{
		case SP_T_BYTE:
			return 3;
		case SP_T_SHORT:
			return 5;
		case SP_T_INT:
			return 10;
		default:
			return 19;
	}
}

static int
integral_rank(SpType t)
{
	switch (t)
	{
		case SP_T_BYTE:
			return 1;
		case SP_T_SHORT:
			return 2;
		case SP_T_INT:
			return 3;
		case SP_T_LONG:
			return 4;
		default:
			return 0;
	}
}

static bool
special_float(const char *s, size_t n)
{
	return (n == 3 && memcmp(s, "NaN", 3) == 0) ||
		(n == 8 && memcmp(s, "Infinity", 8) == 0) ||
		(n == 9 && memcmp(s, "-Infinity", 9) == 0);
}

/* -?d+[.d+][(e|E)[-+]d+] or NaN, Infinity, -Infinity: what Java parses */
static bool
float_grammar(const char *s, size_t n)
{
	size_t		i = 0;
	size_t		b;

	if (special_float(s, n))
		return true;
	if (i < n && s[i] == '-')
		i++;
	b = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == b)
		return false;
	if (i < n && s[i] == '.')
	{
		b = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == b)
			return false;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		if (!all_digits(s + i, n - i) || n - i > 3)
			return false;
		i = n;
	}
	return i == n;
}

static bool
set_exact(Val *v, char *text)
{
	v->k = V_EXACT;
	v->a = text;
	return text != NULL;
}

/* A float literal of SQL text (digits or NaN/Infinity) as type */
static bool
float_value(Tx *tx, const SpLit *l, const char *type, Val *v)
{
	Dec			d;

	if (special_float(l->text, l->len))
		return set_exact(v, typed_text(tx, l->text, l->len, type));
	if (!dec_read(tx, l->text, l->len, true, &d))
		return false;
	if (d.scale - d.nd > 300 || dec_int_digits(&d) > 300)
		return false;			/* underflow or overflow: engines differ */
	return set_exact(v, typed_text(tx, l->text, l->len, type));
}

/*
 * A delta-rs decimal: '<N>'::decimal(p, s), N unscaled (the quirk) or
 * scaled.  Values: N * 10^-s and N, those that fit decimal(p, s).
 */
static bool
dfdec_value(Tx *tx, const SpLit *l, Val *v)
{
	Dec			d;
	Dec			u;
	bool		fit_scaled;
	bool		fit_unscaled;
	char	   *a;
	char	   *b;

	if (!dec_read(tx, l->text, l->len, false, &d))
		return false;
	if (memchr(l->text, '.', l->len) != NULL)
		return dec_fits(&d, l->precision, l->scale) && set_exact(v, dec_text(tx, &d));
	u = d;
	u.scale = d.scale + l->scale;
	fit_unscaled = dec_fits(&u, l->precision, l->scale);
	fit_scaled = dec_fits(&d, l->precision, l->scale);
	if (!fit_unscaled && !fit_scaled)
		return false;
	if (l->scale == 0 || !fit_scaled)
		return set_exact(v, dec_text(tx, &u));
	if (!fit_unscaled)
		return set_exact(v, dec_text(tx, &d));
	a = dec_text(tx, &u);
	b = dec_text(tx, &d);
	if (a == NULL || b == NULL)
		return false;
	v->k = V_PAIR;
	/* |N * 10^-s| <= |N|: for N < 0 the scaled reading is the smaller */
	v->a = d.neg ? b : a;
	v->b = d.neg ? a : b;
	return true;
}

/* A session-zone timestamp: the instants it can denote. */
static bool
local_ts_value(Tx *tx, int64_t micros, Val *v)
{
	v->k = V_RANGE;
	v->a = ts_text(tx, micros - SP_ZONE_SLACK_MICROS, true);
	v->b = ts_text(tx, micros + SP_ZONE_SLACK_MICROS, true);
	return v->a != NULL && v->b != NULL;
}

static int64_t
micros_of_days(int64_t days)
{
	return days * (int64_t) 86400 * 1000000;
}

/* Within the years literals may name */
static bool
days_in_range(int64_t days)
{
	return days >= sp_days_from_civil(SP_MIN_YEAR, 1, 1) &&
		days < sp_days_from_civil(SP_MAX_YEAR + 1, 1, 1);
}

static bool
micros_in_range(int64_t micros)
{
	return micros >= micros_of_days(sp_days_from_civil(SP_MIN_YEAR, 1, 1)) &&
		micros < micros_of_days(sp_days_from_civil(SP_MAX_YEAR + 1, 1, 1));
}

/* 0x<hex> of a toString binary literal, as bytea text */
static char *
bare_bytes(Tx *tx, const char *s, size_t n)
{
	SpBuf		b;
	size_t		k;

	if (n < 2 || (n - 2) % 2 != 0)
		return NULL;
	spb_init(&b, tx->a);
	for (k = 2; k < n; k += 2)
	{
		int			h = dj_hex_value((unsigned char) s[k]);
		int			l = dj_hex_value((unsigned char) s[k + 1]);

		if (h < 0 || l < 0)
			return NULL;
		spb_putc(&b, (char) (h * 16 + l));
	}
	if (b.oom)
	{
		tx->oom = true;
		return NULL;
	}
	return bytes_text(tx, b.data ? b.data : "", b.len);
}

/* A toString literal against a column of known type. */
static bool
bare_value(Tx *tx, const SpLit *l, const Term *ct, Val *v, const char **why)
{
	int			cls = bare_class(l->text, l->len);
	int64_t		iv;
	Dec			d;
	int32_t		days;
	int64_t		micros;

	*why = "an unquoted literal that is not a value of the column's type as Spark prints it";
	if (cls == B_NULL)
	{
		if (ct->type == SP_T_STRING)
		{
			*why = "an unquoted null next to a string column (the null literal or the word)";
			return false;
		}
		v->k = V_NULL;
		return true;
	}
	switch (ct->type)
	{
		case SP_T_LONG:
		case SP_T_INT:
		case SP_T_SHORT:
		case SP_T_BYTE:
			if (cls != B_DIGITS || !sp_read_int64(l->text, l->len, &iv) ||
				!in_range(ct->type, iv))
				return false;
			return set_exact(v, int_text(tx, iv));
		case SP_T_DECIMAL:
			if ((cls != B_DIGITS && cls != B_NUM) ||
				!dec_read(tx, l->text, l->len, true, &d))
				return false;
			return set_exact(v, dec_text(tx, &d));
		case SP_T_DOUBLE:
		case SP_T_FLOAT:
			if (cls != B_NUM && cls != B_SPECIAL)
				return false;
			return set_exact(v, typed_text(tx, l->text, l->len,
										   ct->type == SP_T_FLOAT ? "real" : "double precision"));
		case SP_T_STRING:
			return set_exact(v, string_text(tx, l->text, l->len, false));
		case SP_T_BOOLEAN:
			if (cls != B_BOOL)
				return false;
			return set_exact(v, tx_dup(tx, l->text[0] == 't' ? "true" : "false"));
		case SP_T_DATE:
			if (cls == B_DATE && sp_read_date(l->text, l->len, &days))
				return set_exact(v, date_text(tx, days));
			/* Spark <= 3.1 printed a date literal as its day number */
			if (cls == B_DIGITS && sp_read_int64(l->text, l->len, &iv) && days_in_range(iv))
				return set_exact(v, date_text(tx, iv));
			return false;
		case SP_T_TIMESTAMP:
			if (cls == B_DATETIME && sp_read_datetime(l->text, l->len, false, NULL, &micros))
				return local_ts_value(tx, micros, v);
			/* Spark <= 3.1: microseconds since the epoch, an instant */
			if (cls == B_DIGITS && sp_read_int64(l->text, l->len, &micros) &&
				micros_in_range(micros))
				return set_exact(v, ts_text(tx, micros, true));
			return false;
		case SP_T_TIMESTAMP_NTZ:
			if (cls == B_DATETIME && sp_read_datetime(l->text, l->len, false, NULL, &micros))
				return set_exact(v, ts_text(tx, micros, false));
			return false;
		case SP_T_BINARY:
			if (cls != B_HEX)
				return false;
			return set_exact(v, bare_bytes(tx, l->text, l->len));
		default:
			return false;
	}
}

/*
 * A toString literal without a column type (schema-less): only where
 * every type Spark could have printed it for reads it alike.
 */
static bool
bare_untyped(Tx *tx, const SpLit *l, Val *v, const char **why)
{
	Dec			d;

	switch (bare_class(l->text, l->len))
	{
		case B_DIGITS:
			/* integers and decimals; a date or timestamp (Spark <= 3.1) or a
			 * string column makes the comparison an error, never a read */
			if (!dec_read(tx, l->text, l->len, false, &d))
				return false;
			return set_exact(v, dec_text(tx, &d));
		case B_DATETIME:
			*why = "an unquoted timestamp (in the writer's session time zone) or string: the column's type decides";
			return false;
		case B_NULL:
			*why = "an unquoted null: the null literal or a string, the column's type decides";
			return false;
		case B_HEX:
			*why = "an unquoted 0x...: binary or a string, the column's type decides";
			return false;
		default:
			/* numbers with a point, NaN, dates, booleans, words: as typed by
			 * the column, which has the literal's type */
			return set_exact(v, string_text(tx, l->text, l->len, false));
	}
}

/*
 * The value(s) literal l stands for next to a term of type ct.  False (and
 * *why) when no faithful value exists.
 */
static bool
coerce(Tx *tx, const SpLit *l, const Term *ct, Val *v, const char **why)
{
	bool		spark = tx->form == SP_FORM_TS || tx->form == SP_FORM_SPARK;
	Dec			d;

	memset(v, 0, sizeof(*v));
	*why = "a literal whose type does not match the column's";
	if (l->kind == SL_NULL)
	{
		v->k = V_NULL;
		return true;
	}
	if (l->kind == SL_BARE)
		return ct->type == SP_T_UNKNOWN ? bare_untyped(tx, l, v, why) :
			bare_value(tx, l, ct, v, why);
	if (l->kind == SL_BADSTRING)
	{
		*why = "a string literal with escapes the translation cannot read faithfully";
		return false;
	}
	if (l->kind == SL_AMBIGNUM && ct->type != SP_T_DOUBLE)
	{
		*why = "a number with a point in text of unknown writer (a decimal for Spark, a double for delta-rs)";
		return false;
	}
	switch (ct->type)
	{
		case SP_T_LONG:
		case SP_T_INT:
		case SP_T_SHORT:
		case SP_T_BYTE:
			if (l->kind == SL_INT)
				return set_exact(v, integer_text(tx, l));
			if (l->kind == SL_DECIMAL)
				return dec_read(tx, l->text, l->len, true, &d) &&
					set_exact(v, dec_text(tx, &d));
			if (l->kind == SL_DOUBLE && spark)
				return float_value(tx, l, "double precision", v);
			if (l->kind == SL_STRING && tx->form != SP_FORM_TS)
			{
				int64_t		iv;

				/* user text or delta-rs: the string is cast to the column's
				 * type; an integer's plain text reads alike everywhere */
				if (sp_read_int64(l->text, l->len, &iv) && in_range(ct->type, iv))
					return set_exact(v, int_text(tx, iv));
			}
			return false;
		case SP_T_DECIMAL:
			if (l->kind == SL_INT)
				return set_exact(v, integer_text(tx, l));
			if (l->kind == SL_DECIMAL)
				return dec_read(tx, l->text, l->len, true, &d) &&
					set_exact(v, dec_text(tx, &d));
			if (l->kind == SL_DFDEC)
				return dfdec_value(tx, l, v);
			return false;
		case SP_T_DOUBLE:
			if (l->kind == SL_DOUBLE)
				return float_value(tx, l, "double precision", v);
			if (l->kind == SL_FLOAT)
				return float_value(tx, l, "real", v);
			if (l->kind == SL_INT)
			{
				char	   *t = integer_text(tx, l);

				return t != NULL && set_exact(v, typed_text(tx, t, strlen(t), "double precision"));
			}
			if (l->kind == SL_DECIMAL || l->kind == SL_AMBIGNUM)
			{
				if (!dec_read(tx, l->text, l->len, true, &d) || !dec_double_exact(&d))
				{
					*why = "a decimal literal that Spark converts to a double by an inexact division";
					return false;
				}
				return set_exact(v, typed_text(tx, l->text, l->len, "double precision"));
			}
			return false;
		case SP_T_FLOAT:
			if (!spark)
			{
				*why = "a float column next to a delta-rs literal (DataFusion's coercion is not modelled)";
				return false;
			}
			if (l->kind == SL_FLOAT)
				return float_value(tx, l, "real", v);
			if (l->kind == SL_DOUBLE)
				return float_value(tx, l, "double precision", v);
			if (l->kind == SL_INT)
			{
				char	   *t = integer_text(tx, l);

				return t != NULL && set_exact(v, typed_text(tx, t, strlen(t), "real"));
			}
			if (l->kind == SL_DECIMAL)
			{
				if (!dec_read(tx, l->text, l->len, true, &d) || !dec_double_exact(&d))
					return false;
				return set_exact(v, typed_text(tx, l->text, l->len, "double precision"));
			}
			return false;
		case SP_T_STRING:
			if (l->kind == SL_STRING)
				return set_exact(v, string_text(tx, l->text, l->len, false));
			return false;
		case SP_T_BOOLEAN:
			if (l->kind == SL_BOOL)
				return set_exact(v, tx_dup(tx, l->bval ? "true" : "false"));
			return false;
		case SP_T_DATE:
			if (l->kind == SL_DATE)
				return set_exact(v, date_text(tx, l->days));
			if (l->kind == SL_STRING && tx->form != SP_FORM_TS)
			{
				int32_t		days;

				/* delta-rs's partition filters: date = '2022-05-22' (cast to
				 * date by DataFusion and Spark 3; Spark 2.4 compared the
				 * strings, the same order for yyyy-mm-dd) */
				if (sp_read_date(l->text, l->len, &days))
					return set_exact(v, date_text(tx, days));
			}
			return false;
		case SP_T_TIMESTAMP:
			if (l->kind == SL_TS_UTC)
				return set_exact(v, ts_text(tx, l->micros, true));
			if (l->kind == SL_TS_LOCAL)
				return local_ts_value(tx, l->micros, v);
			return false;
		case SP_T_TIMESTAMP_NTZ:
			if (l->kind == SL_TS_NTZ)
				return set_exact(v, ts_text(tx, l->micros, false));
			return false;
		case SP_T_BINARY:
			if (l->kind == SL_BINARY)
				return set_exact(v, bytes_text(tx, l->text, l->len));
			return false;
		case SP_T_UNKNOWN:
			switch (l->kind)
			{
				case SL_INT:
					return set_exact(v, integer_text(tx, l));
				case SL_DECIMAL:
					return dec_read(tx, l->text, l->len, true, &d) &&
						set_exact(v, dec_text(tx, &d));
				case SL_DOUBLE:
					return float_value(tx, l, "double precision", v);
				case SL_FLOAT:
					return float_value(tx, l, "real", v);
				case SL_STRING:
					return set_exact(v, string_text(tx, l->text, l->len, true));
				case SL_BOOL:
					return set_exact(v, tx_dup(tx, l->bval ? "true" : "false"));
				case SL_DATE:
					return set_exact(v, date_text(tx, l->days));
				case SL_TS_LOCAL:
					return local_ts_value(tx, l->micros, v);
				case SL_TS_UTC:
					return set_exact(v, ts_text(tx, l->micros, true));
				case SL_TS_NTZ:
					return set_exact(v, ts_text(tx, l->micros, false));
				case SL_BINARY:
					return set_exact(v, bytes_text(tx, l->text, l->len));
				case SL_DFDEC:
					return dfdec_value(tx, l, v);
				default:
					return false;
			}
		default:
			*why = "a column of a type the translation does not compare";
			return false;
	}
}

/* ---------- casts of literals ---------- */

static bool
textual(const SpLit *l)
{
	return l->kind == SL_STRING || l->kind == SL_BARE;
}

/* l as an exact decimal, when it is a number (or number text) */
static bool
lit_dec(Tx *tx, const SpLit *l, bool allow_exp, Dec *d)
{
	if (l->kind == SL_INT || l->kind == SL_DECIMAL || textual(l))
		return dec_read(tx, l->text, l->len, allow_exp || l->kind == SL_DECIMAL, d);
	return false;
}

/*
 * cast(in as to), folded when Spark's cast and the value PostgreSQL will
 * read agree exactly; false otherwise.
 */
static bool
fold_cast(Tx *tx, const SpLit *in, const SpTypeSpec *to, bool dcolon,
		  SpLit *out, const char **why)
{
	Dec			d;
	int64_t		iv;
	int32_t		days;
	int64_t		micros;
	bool		zone;
	int			cls = in->kind == SL_BARE ? bare_class(in->text, in->len) : -1;

	*out = *in;
	*why = "a cast of a literal that Spark and PostgreSQL may not read alike";
	if (to->type == SP_T_OTHER)
	{
		*why = "a cast to a type the translation does not know";
		return false;
	}
	if (in->kind == SL_NULL)
	{
		out->type = to->type;
		return true;
	}
	if (cls == B_NULL)
		return false;
	if (dcolon && tx->form == SP_FORM_DF)
	{
		if (to->type == SP_T_DECIMAL && in->kind == SL_STRING)
		{
			out->kind = SL_DFDEC;
			out->precision = to->precision;
			out->scale = to->scale;
			return true;
		}
		if (to->type != SP_T_DATE)
		{
			*why = "a delta-rs cast other than ::date and ::decimal";
			return false;
		}
	}
	switch (to->type)
	{
		case SP_T_LONG:
		case SP_T_INT:
		case SP_T_SHORT:
		case SP_T_BYTE:
			if (in->kind == SL_DOUBLE || in->kind == SL_FLOAT ||
				(in->kind != SL_DECIMAL && memchr(in->text, '.', in->len) != NULL) ||
				!lit_dec(tx, in, false, &d) || !dec_is_integer(&d))
				return false;
			{
				char	   *t = dec_text(tx, &d);

				if (t == NULL || !sp_read_int64(t, strlen(t), &iv) || !in_range(to->type, iv))
					return false;
				out->kind = SL_INT;
				out->type = to->type;
				out->text = t;
				out->len = strlen(t);
				out->has_ival = true;
				out->ival = iv;
			}
			return true;
		case SP_T_DECIMAL:
			if (!lit_dec(tx, in, true, &d) || !dec_fits(&d, to->precision, to->scale))
				return false;
			if (cls != -1 && cls != B_DIGITS && cls != B_NUM)
				return false;
			out->kind = SL_DECIMAL;
			out->type = SP_T_DECIMAL;
			out->precision = to->precision;
			out->scale = to->scale;
			out->text = dec_text(tx, &d);
			out->len = out->text ? strlen(out->text) : 0;
			return out->text != NULL;
		case SP_T_DOUBLE:
			if (in->kind == SL_DOUBLE || in->kind == SL_FLOAT)
				return true;
			if (in->kind == SL_INT || cls == B_DIGITS ||
				(in->kind == SL_STRING && float_grammar(in->text, in->len)) ||
				cls == B_SPECIAL)
			{
				out->kind = SL_DOUBLE;
				return true;
			}
			if ((in->kind == SL_DECIMAL || cls == B_NUM) &&
				lit_dec(tx, in, true, &d) && dec_double_exact(&d))
			{
				out->kind = SL_DOUBLE;
				return true;
			}
			return false;
		case SP_T_FLOAT:
			if (in->kind == SL_FLOAT)
				return true;
			if (in->kind == SL_INT || cls == B_DIGITS || cls == B_SPECIAL ||
				(in->kind == SL_STRING && float_grammar(in->text, in->len)))
			{
				out->kind = SL_FLOAT;
				return true;
			}
			return false;
		case SP_T_STRING:
			if (in->kind == SL_STRING)
				return true;
			if (in->kind == SL_INT || cls == B_DIGITS)
			{
				if (!dec_read(tx, in->text, in->len, false, &d))
					return false;
				out->kind = SL_STRING;
				out->text = dec_text(tx, &d);
				out->len = out->text ? strlen(out->text) : 0;
				return out->text != NULL && (in->kind != SL_BARE ||
											 strcmp(out->text, in->text) == 0 ||
											 out->len == in->len);
			}
			if (in->kind == SL_BOOL)
			{
				out->kind = SL_STRING;
				out->text = in->bval ? "true" : "false";
				out->len = strlen(out->text);
				return true;
			}
			return false;
		case SP_T_BOOLEAN:
			if (in->kind == SL_BOOL)
				return true;
			if (textual(in) && ((in->len == 4 && memcmp(in->text, "true", 4) == 0) ||
								(in->len == 5 && memcmp(in->text, "false", 5) == 0)))
			{
				out->kind = SL_BOOL;
				out->bval = in->text[0] == 't';
				return true;
			}
			return false;
		case SP_T_DATE:
			if (in->kind == SL_DATE)
				return true;
			if (textual(in) && sp_read_date(in->text, in->len, &days))
			{
				out->kind = SL_DATE;
				out->days = days;
				return true;
			}
			return false;
		case SP_T_TIMESTAMP:
			if (in->kind == SL_TS_LOCAL || in->kind == SL_TS_UTC)
				return true;
			if (in->kind == SL_DATE || in->kind == SL_TS_NTZ)
			{
				/* midnight / the wall clock in the session time zone */
				out->kind = SL_TS_LOCAL;
				out->micros = in->kind == SL_DATE ? micros_of_days(in->days) : in->micros;
				return true;
			}
			if (in->kind == SL_STRING &&
				sp_read_datetime(in->text, in->len, true, &zone, &micros))
			{
				out->kind = zone ? SL_TS_UTC : SL_TS_LOCAL;
				out->micros = micros;
				return true;
			}
			if ((cls == B_DATETIME || cls == B_DATE) &&
				sp_read_datetime(in->text, in->len, true, NULL, &micros))
			{
				out->kind = SL_TS_LOCAL;
				out->micros = micros;
				return true;
			}
			return false;
		case SP_T_TIMESTAMP_NTZ:
			if (in->kind == SL_TS_NTZ)
				return true;
			if (in->kind == SL_DATE)
			{
				out->kind = SL_TS_NTZ;
				out->micros = micros_of_days(in->days);
				return true;
			}
			if (textual(in) && (in->kind == SL_STRING || cls == B_DATETIME || cls == B_DATE) &&
				sp_read_datetime(in->text, in->len, true, NULL, &micros))
			{
				out->kind = SL_TS_NTZ;
				out->micros = micros;
				return true;
			}
			return false;
		case SP_T_BINARY:
			if (in->kind == SL_BINARY)
				return true;
			if (in->kind == SL_STRING)
			{
				out->kind = SL_BINARY;
				return true;
			}
			return false;
		default:
			return false;
	}
}

/* A literal, possibly under casts. */
static bool
tx_fold(Tx *tx, const SpNode *n, SpLit *out, const char **why)
{
	SpLit		inner;

	if (n->kind == SN_LIT)
	{
		*out = n->lit;
		return true;
	}
	if (n->kind == SN_CAST && !n->has_col)
		return tx_fold(tx, n->a, &inner, why) &&
			fold_cast(tx, &inner, &n->to, n->dcolon, out, why);
	*why = n->kind == SN_OTHER ? n->why : "an operand that is not a literal";
	return false;
}

/* ---------- columns and column terms ---------- */

static char *
quote_ident(Tx *tx, const char *name)
{
	SpBuf		b;
	const char *c;

	spb_init(&b, tx->a);
	spb_putc(&b, '"');
	for (c = name; *c; c++)
	{
		if (*c == '"')
			spb_putc(&b, '"');
		spb_putc(&b, *c);
	}
	spb_putc(&b, '"');
	return buf_done(tx, &b);
}

static bool
tx_column(Tx *tx, const SpName *nm, Term *t, const char **why)
{
	const char *const *parts = (const char *const *) nm->parts;
	int			n = nm->nparts;
	int			k;

	memset(t, 0, sizeof(*t));
	if (nm->ambiguous)
	{
		*why = "a double-quoted name, a string for some writers";
		return false;
	}
	if (tx->resolve)
	{
		SpColumn	col;
		int			r;

		memset(&col, 0, sizeof(col));
		r = tx->resolve(tx->rctx, n, parts, &col);
		if (r <= 0)
		{
			*why = r == 0 ? "a name that is not a column of the table" :
				"a name that matches more than one column";
			return false;
		}
		if (n > 1 && !nm->struct_path)
		{
			SpColumn	other;

			/* parts[0..k) could be a relation's qualifier */
			for (k = 1; k < n; k++)
				if (tx->resolve(tx->rctx, n - k, parts + k, &other) != 0)
				{
					*why = "a qualified name that may name a column of another relation";
					return false;
				}
		}
		if (nm->ts_attr && n == 1 && (col.type == SP_T_LONG) != nm->ts_long)
		{
			*why = "an attribute whose type suffix does not match the schema";
			return false;
		}
		if (col.type == SP_T_OTHER || col.type == SP_T_UNKNOWN || col.name == NULL)
		{
			*why = "a column of a type the translation does not compare";
			return false;
		}
		t->type = col.type;
		t->precision = col.precision;
		t->scale = col.scale;
		t->sql = quote_ident(tx, col.name);
		return t->sql != NULL;
	}
	else
	{
		SpBuf		b;

		for (k = 0; k < n; k++)
			if (strchr(parts[k], '.') != NULL)
			{
				*why = "a name containing a dot (a column or a struct field: the schema decides)";
				return false;
			}
		if (n > 1 && !nm->struct_path && !nm->all_quoted)
		{
			*why = "a qualified name (a column of another relation?)";
			return false;
		}
		spb_init(&b, tx->a);
		for (k = 0; k < n; k++)
		{
			if (k > 0)
				spb_putc(&b, '.');
			spb_puts(&b, parts[k]);
		}
		if (buf_done(tx, &b) == NULL)
			return false;
		t->type = nm->ts_long ? SP_T_LONG : SP_T_UNKNOWN;
		t->sql = quote_ident(tx, b.data);
		return t->sql != NULL;
	}
}

/* Does cast(from as to) preserve every value and its order exactly? */
static bool
cast_widens(const Term *from, const SpTypeSpec *to)
{
	if (is_integral(from->type))
	{
		if (is_integral(to->type))
			return integral_rank(to->type) >= integral_rank(from->type);
		if (to->type == SP_T_DECIMAL)
			return to->precision - to->scale >= integral_digits(from->type);
		/* both engines round to nearest */
		return to->type == SP_T_DOUBLE || to->type == SP_T_FLOAT;
	}
	if (from->type == SP_T_FLOAT)
		return to->type == SP_T_DOUBLE || to->type == SP_T_FLOAT;
	if (from->type == SP_T_DECIMAL && to->type == SP_T_DECIMAL)
		return to->scale >= from->scale &&
			to->precision - to->scale >= from->precision - from->scale;
	return from->type == to->type && from->type != SP_T_UNKNOWN &&
		from->type != SP_T_DECIMAL;
}

static bool
is_termish(const SpNode *n)
{
	return n->kind == SN_COL ||
		((n->kind == SN_CAST || n->kind == SN_MOD) && n->has_col);
}

static bool
tx_term(Tx *tx, const SpNode *n, Term *t, const char **why)
{
	Term		in;

	memset(t, 0, sizeof(*t));
	if (n->kind == SN_COL)
		return tx_column(tx, &n->name, t, why);
	if (n->kind == SN_CAST)
	{
		SpBuf		b;
		char		num[32];

		if (!tx_term(tx, n->a, &in, why))
			return false;
		if (n->to.type == SP_T_OTHER)
		{
			*why = "a cast to a type the translation does not know";
			return false;
		}
		if (in.type == SP_T_UNKNOWN)
		{
			*why = "a cast of a column whose type is not known without the schema";
			return false;
		}
		if (!cast_widens(&in, &n->to))
		{
			*why = "a cast that can change a value (it truncates, rounds or parses)";
			return false;
		}
		t->type = n->to.type;
		t->precision = n->to.precision;
		t->scale = n->to.scale;
		if (in.type == n->to.type && in.type != SP_T_DECIMAL)
		{
			t->sql = in.sql;
			return true;
		}
		spb_init(&b, tx->a);
		spb_puts(&b, "CAST(");
		spb_puts(&b, in.sql);
		spb_puts(&b, " AS ");
		spb_puts(&b, pg_type_name(n->to.type));
		if (n->to.type == SP_T_DECIMAL)
		{
			snprintf(num, sizeof(num), "(%d,%d)", n->to.precision, n->to.scale);
			spb_puts(&b, num);
		}
		spb_putc(&b, ')');
		t->sql = buf_done(tx, &b);
		return t->sql != NULL;
	}
	if (n->kind == SN_MOD)
	{
		SpLit		k;
		int64_t		kv;
		SpBuf		b;

		if (!tx_term(tx, n->a, &in, why))
			return false;
		if (!is_integral(in.type) && in.type != SP_T_UNKNOWN)
		{
			*why = "% of a column that is not an integer";
			return false;
		}
		if (!tx_fold(tx, n->b, &k, why))
			return false;
		if (!((k.kind == SL_INT && k.has_ival) ||
			  (k.kind == SL_BARE && bare_class(k.text, k.len) == B_DIGITS)) ||
			!sp_read_int64(k.text, k.len, &kv) || kv == 0 ||
			(in.type != SP_T_UNKNOWN && !in_range(in.type, kv) && k.kind == SL_BARE))
		{
			*why = "% by something other than a non-zero integer";
			return false;
		}
		t->type = in.type != SP_T_UNKNOWN ? in.type :
			is_integral(k.type) ? k.type : SP_T_UNKNOWN;
		spb_init(&b, tx->a);
		spb_putc(&b, '(');
		spb_puts(&b, in.sql);
		spb_puts(&b, " % ");
		{
			char	   *kt = int_text(tx, kv);

			if (kt == NULL)
				return false;
			spb_puts(&b, kt);
		}
		spb_putc(&b, ')');
		t->sql = buf_done(tx, &b);
		return t->sql != NULL;
	}
	*why = n->kind == SN_OTHER ? n->why : "an operand that is not a column";
	return false;
}

/* ---------- predicates ---------- */

static Out
out_of(Tx *tx, SpOutcome o, char *sql)
{
	Out			r;

	if (sql == NULL)
	{
		tx->oom = true;
		return none(tx, "out of memory");
	}
	r.o = o;
	r.sql = sql;
	return r;
}

static const char *
op_text(int op)
{
	switch (op)
	{
		case SP_OP_EQ:
			return "=";
		case SP_OP_NSEQ:
			return "IS NOT DISTINCT FROM";
		case SP_OP_DISTINCT:
			return "IS DISTINCT FROM";
		case SP_OP_NE:
			return "<>";
		case SP_OP_LT:
			return "<";
		case SP_OP_LE:
			return "<=";
		case SP_OP_GT:
			return ">";
		default:
			return ">=";
	}
}

static int
flip_op(int op)
{
	switch (op)
	{
		case SP_OP_LT:
			return SP_OP_GT;
		case SP_OP_LE:
			return SP_OP_GE;
		case SP_OP_GT:
			return SP_OP_LT;
		case SP_OP_GE:
			return SP_OP_LE;
		default:
			return op;
	}
}

static void
put3(SpBuf *b, const char *x, const char *y, const char *z)
{
	spb_puts(b, x);
	spb_putc(b, ' ');
	spb_puts(b, y);
	spb_putc(b, ' ');
	spb_puts(b, z);
}

/* term op value */
static Out
cmp_sql(Tx *tx, const Term *t, int op, const Val *v)
{
	SpBuf		b;

	spb_init(&b, tx->a);
	switch (v->k)
	{
		case V_EXACT:
			put3(&b, t->sql, op_text(op), v->a);
			return out_of(tx, SP_EXACT, buf_done(tx, &b));
		case V_NULL:
			if (op == SP_OP_NSEQ || op == SP_OP_DISTINCT)
			{
				spb_puts(&b, t->sql);
				spb_puts(&b, op == SP_OP_NSEQ ? " IS NULL" : " IS NOT NULL");
			}
			else
				put3(&b, t->sql, op_text(op), "NULL");
			return out_of(tx, SP_EXACT, buf_done(tx, &b));
		default:
			break;
	}
	if (op == SP_OP_NE || op == SP_OP_DISTINCT)
		return none(tx, v->k == V_RANGE ?
					"<> of a timestamp in the writer's session time zone" :
					"<> of a delta-rs decimal that may be printed unscaled");
	if (tx->reason == NULL)
		tx->reason = v->k == V_RANGE ?
			"a timestamp in the writer's session time zone (widened by 18 hours either way)" :
			"a delta-rs decimal that may be printed unscaled (both readings kept)";
	switch (op)
	{
		case SP_OP_EQ:
		case SP_OP_NSEQ:
			spb_puts(&b, t->sql);
			if (v->k == V_RANGE)
			{
				spb_puts(&b, " BETWEEN ");
				spb_puts(&b, v->a);
				spb_puts(&b, " AND ");
				spb_puts(&b, v->b);
			}
			else
			{
				spb_puts(&b, " IN (");
				spb_puts(&b, v->a);
				spb_puts(&b, ", ");
				spb_puts(&b, v->b);
				spb_putc(&b, ')');
			}
			break;
		case SP_OP_LT:
		case SP_OP_LE:
			put3(&b, t->sql, op_text(op), v->b);
			break;
		case SP_OP_GT:
		case SP_OP_GE:
			put3(&b, t->sql, op_text(op), v->a);
			break;
		default:
			break;
	}
	return out_of(tx, SP_WIDENED, buf_done(tx, &b));
}

/*
 * The column term and literal of a comparison-like node: the term on
 * either side (*flipped when it was on the right).
 */
static bool
term_and_lit(Tx *tx, const SpNode *x, const SpNode *y, Term *t, SpLit *l,
			 bool *flipped, const char **why)
{
	*flipped = false;
	if (!is_termish(x))
	{
		const SpNode *s = x;

		if (!is_termish(y))
		{
			*why = x->kind == SN_OTHER ? x->why : y->kind == SN_OTHER ? y->why :
				"a comparison without a column, or of two constants";
			return false;
		}
		x = y;
		y = s;
		*flipped = true;
	}
	return tx_term(tx, x, t, why) && tx_fold(tx, y, l, why);
}

static Out tx_pred(Tx *tx, const SpNode *n);

static Out
tx_cmp(Tx *tx, const SpNode *n)
{
	Term		t;
	SpLit		l;
	Val			v;
	bool		flipped;
	const char *why;

	if (!term_and_lit(tx, n->a, n->b, &t, &l, &flipped, &why) ||
		!coerce(tx, &l, &t, &v, &why))
		return none(tx, why);
	return cmp_sql(tx, &t, flipped ? flip_op(n->op) : n->op, &v);
}

static Out
tx_in(Tx *tx, const SpNode *n)
{
	Term		t;
	const char *why;
	Val		   *vals;
	bool		exact = true;
	int			k;
	SpBuf		b;

	if (!is_termish(n->a))
		return none(tx, n->a->kind == SN_OTHER ? n->a->why : "IN of something that is not a column");
	if (!tx_term(tx, n->a, &t, &why))
		return none(tx, why);
	vals = fmt_alloc(tx->a, sizeof(Val) * (size_t) n->nitems);
	if (vals == NULL)
	{
		tx->oom = true;
		return none(tx, "out of memory");
	}
	for (k = 0; k < n->nitems; k++)
	{
		SpLit		l;

		if (!tx_fold(tx, n->items[k], &l, &why) || !coerce(tx, &l, &t, &vals[k], &why))
			return none(tx, why);
		if (vals[k].k != V_EXACT && vals[k].k != V_NULL)
			exact = false;
	}
	spb_init(&b, tx->a);
	if (exact)
	{
		spb_puts(&b, t.sql);
		spb_puts(&b, n->negated ? " NOT IN (" : " IN (");
		for (k = 0; k < n->nitems; k++)
		{
			if (k > 0)
				spb_puts(&b, ", ");
			spb_puts(&b, vals[k].k == V_NULL ? "NULL" : vals[k].a);
		}
		spb_putc(&b, ')');
		return out_of(tx, SP_EXACT, buf_done(tx, &b));
	}
	if (n->negated)
		return none(tx, "NOT IN over literals that stand for more than one value");
	/* x IN (a, b) is x = a OR x = b, in three-valued logic too */
	for (k = 0; k < n->nitems; k++)
	{
		Out			o = cmp_sql(tx, &t, SP_OP_EQ, &vals[k]);

		if (o.o == SP_NONE)
			return o;
		if (k > 0)
			spb_puts(&b, " OR ");
		spb_putc(&b, '(');
		spb_puts(&b, o.sql);
		spb_putc(&b, ')');
	}
	return out_of(tx, SP_WIDENED, buf_done(tx, &b));
}

static Out
tx_between(Tx *tx, const SpNode *n)
{
	Term		t;
	SpLit		lo;
	SpLit		hi;
	Val			vl;
	Val			vh;
	const char *why;
	SpBuf		b;
	Out			ol;
	Out			oh;

	if (!is_termish(n->a))
		return none(tx, n->a->kind == SN_OTHER ? n->a->why : "BETWEEN of something that is not a column");
	if (!tx_term(tx, n->a, &t, &why) || !tx_fold(tx, n->b, &lo, &why) ||
		!tx_fold(tx, n->c, &hi, &why) || !coerce(tx, &lo, &t, &vl, &why) ||
		!coerce(tx, &hi, &t, &vh, &why))
		return none(tx, why);
	spb_init(&b, tx->a);
	if ((vl.k == V_EXACT || vl.k == V_NULL) && (vh.k == V_EXACT || vh.k == V_NULL))
	{
		spb_puts(&b, t.sql);
		spb_puts(&b, n->negated ? " NOT BETWEEN " : " BETWEEN ");
		spb_puts(&b, vl.k == V_NULL ? "NULL" : vl.a);
		spb_puts(&b, " AND ");
		spb_puts(&b, vh.k == V_NULL ? "NULL" : vh.a);
		return out_of(tx, SP_EXACT, buf_done(tx, &b));
	}
	if (n->negated)
		return none(tx, "NOT BETWEEN literals that stand for more than one value");
	ol = cmp_sql(tx, &t, SP_OP_GE, &vl);
	oh = cmp_sql(tx, &t, SP_OP_LE, &vh);
	if (ol.o == SP_NONE || oh.o == SP_NONE)
		return none(tx, "BETWEEN bounds it cannot widen");
	spb_putc(&b, '(');
	spb_puts(&b, ol.sql);
	spb_puts(&b, ") AND (");
	spb_puts(&b, oh.sql);
	spb_putc(&b, ')');
	return out_of(tx, SP_WIDENED, buf_done(tx, &b));
}

/* The text of a string operand of LIKE or startswith & co. */
static bool
string_operand(Tx *tx, const SpNode *n, const char **s, size_t *len, const char **why)
{
	SpLit		l;

	if (!tx_fold(tx, n, &l, why))
		return false;
	if (l.kind == SL_STRING ||
		(l.kind == SL_BARE && bare_class(l.text, l.len) != B_NULL))
	{
		*s = l.text;
		*len = l.len;
		return true;
	}
	*why = l.kind == SL_BADSTRING ?
		"a string literal with escapes the translation cannot read faithfully" :
		"a pattern that is not a string literal";
	return false;
}

static bool
string_term(Tx *tx, const SpNode *n, Term *t, const char **why)
{
	if (!is_termish(n))
	{
		*why = n->kind == SN_OTHER ? n->why : "a string function of something that is not a column";
		return false;
	}
	if (!tx_term(tx, n, t, why))
		return false;
	if (t->type != SP_T_STRING && t->type != SP_T_UNKNOWN)
	{
		*why = "LIKE or a string function of a column that is not a string";
		return false;
	}
	return true;
}

static Out
tx_like(Tx *tx, const SpNode *n)
{
	Term		t;
	const char *s;
	size_t		len;
	const char *why;
	size_t		k;
	SpBuf		b;

	if (!string_term(tx, n->a, &t, &why) || !string_operand(tx, n->b, &s, &len, &why))
		return none(tx, why);
	/*
	 * Spark's LIKE escapes with a backslash, which must precede % _ or \
	 * (anything else is an error at run time); PostgreSQL's default is the
	 * same.  delta-rs's reading of a backslash is DataFusion's: not used.
	 */
	for (k = 0; k < len; k++)
		if (s[k] == '\\')
		{
			if (tx->form == SP_FORM_DF || tx->form == SP_FORM_AMBIG || k + 1 >= len ||
				(s[k + 1] != '%' && s[k + 1] != '_' && s[k + 1] != '\\'))
				return none(tx, "a LIKE pattern with a backslash that engines read differently");
			k++;
		}
	spb_init(&b, tx->a);
	spb_puts(&b, t.sql);
	spb_puts(&b, n->negated ? " NOT LIKE " : " LIKE ");
	put_string(&b, s, len);
	return out_of(tx, SP_EXACT, buf_done(tx, &b));
}

static Out
tx_strfn(Tx *tx, const SpNode *n)
{
	Term		t;
	const char *s;
	size_t		len;
	const char *why;
	size_t		k;
	SpBuf		pat;
	SpBuf		b;

	if (!string_term(tx, n->a, &t, &why) || !string_operand(tx, n->b, &s, &len, &why))
		return none(tx, why);
	spb_init(&pat, tx->a);
	if (n->op != SP_STR_STARTS)
		spb_putc(&pat, '%');
	for (k = 0; k < len; k++)
	{
		if (s[k] == '%' || s[k] == '_' || s[k] == '\\')
			spb_putc(&pat, '\\');
		spb_putc(&pat, s[k]);
	}
	if (n->op != SP_STR_ENDS)
		spb_putc(&pat, '%');
	if (buf_done(tx, &pat) == NULL)
		return none(tx, "out of memory");
	spb_init(&b, tx->a);
	spb_puts(&b, t.sql);
	spb_puts(&b, " LIKE ");
	put_string(&b, pat.data, pat.len);
	return out_of(tx, SP_EXACT, buf_done(tx, &b));
}

static Out
tx_unary_test(Tx *tx, const SpNode *n)
{
	Term		t;
	const char *why;
	SpBuf		b;
	static const char *const isb[] = {" IS TRUE", " IS FALSE", " IS NOT TRUE", " IS NOT FALSE"};

	if (!is_termish(n->a))
		return none(tx, n->a->kind == SN_OTHER ? n->a->why :
					"a null test of something that is not a column");
	if (!tx_term(tx, n->a, &t, &why))
		return none(tx, why);
	if (n->kind == SN_ISBOOL && t.type != SP_T_BOOLEAN && t.type != SP_T_UNKNOWN)
		return none(tx, "IS TRUE of a column that is not boolean");
	spb_init(&b, tx->a);
	spb_puts(&b, t.sql);
	if (n->kind == SN_ISNULL)
		spb_puts(&b, n->negated ? " IS NOT NULL" : " IS NULL");
	else
		spb_puts(&b, isb[n->op]);
	return out_of(tx, SP_EXACT, buf_done(tx, &b));
}

/* The children of an AND or OR, flattened (binary nodes of TS, lists of SQL) */
typedef struct Junct
{
	Tx		   *tx;
	bool		is_and;
	SpBuf		b;
	char	   *first;
	int			kept;
	bool		widened;
	bool		dead;			/* OR: a child gave nothing */
} Junct;

static void
junct_add(Junct *j, const SpNode *n)
{
	Out			o;
	int			k;

	if (j->dead)
		return;
	if (n->kind == (j->is_and ? SN_AND : SN_OR))
	{
		if (n->items)
			for (k = 0; k < n->nitems; k++)
				junct_add(j, n->items[k]);
		else
		{
			junct_add(j, n->a);
			junct_add(j, n->b);
		}
		return;
	}
	o = tx_pred(j->tx, n);
	if (o.o == SP_NONE)
	{
		if (j->is_and)
			j->widened = true;
		else
			j->dead = true;
		return;
	}
	if (o.o == SP_WIDENED)
		j->widened = true;
	if (j->kept == 0)
		j->first = o.sql;
	if (j->kept > 0)
		spb_puts(&j->b, j->is_and ? " AND " : " OR ");
	spb_putc(&j->b, '(');
	spb_puts(&j->b, o.sql);
	spb_putc(&j->b, ')');
	j->kept++;
}

static Out
tx_junction(Tx *tx, const SpNode *n)
{
	Junct		j;

	memset(&j, 0, sizeof(j));
	j.tx = tx;
	j.is_and = n->kind == SN_AND;
	spb_init(&j.b, tx->a);
	junct_add(&j, n);
	if (j.dead || j.kept == 0)
		return none(tx, j.dead ? "a disjunct that does not translate" : "no conjunct translates");
	if (j.kept == 1)
		return out_of(tx, j.widened ? SP_WIDENED : SP_EXACT, j.first);
	return out_of(tx, j.widened ? SP_WIDENED : SP_EXACT, buf_done(tx, &j.b));
}

static Out
tx_pred(Tx *tx, const SpNode *n)
{
	Out			o;
	SpBuf		b;
	Term		t;
	const char *why;

	if (tx->oom)
		return none(tx, "out of memory");
	switch (n->kind)
	{
		case SN_AND:
		case SN_OR:
			return tx_junction(tx, n);
		case SN_NOT:
			o = tx_pred(tx, n->a);
			if (o.o != SP_EXACT)
				return none(tx, "NOT over a part that does not translate exactly");
			spb_init(&b, tx->a);
			spb_puts(&b, "NOT (");
			spb_puts(&b, o.sql);
			spb_putc(&b, ')');
			return out_of(tx, SP_EXACT, buf_done(tx, &b));
		case SN_CMP:
			return tx_cmp(tx, n);
		case SN_IN:
			return tx_in(tx, n);
		case SN_BETWEEN:
			return tx_between(tx, n);
		case SN_ISNULL:
		case SN_ISBOOL:
			return tx_unary_test(tx, n);
		case SN_LIKE:
			return tx_like(tx, n);
		case SN_STRFN:
			return tx_strfn(tx, n);
		case SN_COL:
			if (!tx_term(tx, n, &t, &why))
				return none(tx, why);
			if (t.type != SP_T_BOOLEAN && t.type != SP_T_UNKNOWN)
				return none(tx, "a column that is not boolean used as a condition");
			return out_of(tx, SP_EXACT, t.sql);
		case SN_LIT:
			if (n->lit.kind == SL_BOOL)
				return out_of(tx, SP_EXACT, tx_dup(tx, n->lit.bval ? "true" : "false"));
			if (n->lit.kind == SL_NULL ||
				(n->lit.kind == SL_BARE && bare_class(n->lit.text, n->lit.len) == B_NULL))
				return out_of(tx, SP_EXACT, tx_dup(tx, "NULL::boolean"));
			if (n->lit.kind == SL_BARE && bare_class(n->lit.text, n->lit.len) == B_BOOL)
				return out_of(tx, SP_EXACT, tx_dup(tx, n->lit.text[0] == 't' ? "true" : "false"));
			return none(tx, "a literal that is not a boolean used as a condition");
		case SN_OTHER:
			return none(tx, n->why);
		default:
			return none(tx, "an expression that is not a condition");
	}
}

/* ---------- entry ---------- */

static const char *const two_relations_reason =
"a condition over two relations (a MERGE condition?): it compares two columns or names one column by two expression ids";

static bool
translate_one(Tx *tx, const char *text, size_t len, SpDialect dialect,
			  Out *o, bool *two_rel)
{
	SpParsed	pr;

	if (!sp_parse(text, len, dialect, tx->a, &tx->ids, &pr))
	{
		tx->oom = true;
		return false;
	}
	if (pr.root == NULL)
	{
		*o = none(tx, pr.error);
		return true;
	}
	if (pr.two_relations)
	{
		*two_rel = true;
		*o = none(tx, two_relations_reason);
		return true;
	}
	tx->form = pr.form;
	*o = tx_pred(tx, pr.root);
	return !tx->oom;
}

bool
sp_translate(const char *text, size_t len, SpDialect dialect,
			 SpResolveFn resolve, void *resolve_ctx,
			 const FmtAllocator *alloc, SpResult *out)
{
	Tx			tx;
	Out			o;
	bool		two_rel = false;
	size_t		i = 0;

	memset(&tx, 0, sizeof(tx));
	memset(out, 0, sizeof(*out));
	tx.a = alloc;
	tx.resolve = resolve;
	tx.rctx = resolve_ctx;
	if (len > SP_MAX_INPUT || memchr(text, '\0', len) != NULL)
	{
		out->outcome = SP_NONE;
		out->reason = len > SP_MAX_INPUT ? "the predicate text is too long" :
			"the predicate text contains a NUL byte";
		return true;
	}
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i < len && text[i] == '[')
	{
		DjValue		v;
		DjError		err;
		uint32_t	k;
		Junct		j;

		if (!dj_parse(text, len, alloc, DJ_DEFAULT_MAX_DEPTH, &v, &err))
		{
			if (strstr(err.message, "out of memory") != NULL)
				return false;
			out->outcome = SP_NONE;
			out->reason = "a text starting with [ that is not a JSON array";
			return true;
		}
		if (v.type != DJ_ARRAY)
		{
			out->outcome = SP_NONE;
			out->reason = "a text starting with [ that is not a JSON array";
			return true;
		}
		for (k = 0; k < v.len; k++)
			if (v.u.items[k].type != DJ_STRING)
			{
				out->outcome = SP_NONE;
				out->reason = "a JSON array with an element that is not a string";
				return true;
			}
		if (v.len == 0)
		{
			out->outcome = SP_EXACT;
			out->sql = sp_strndup(alloc, "true", 4);
			return out->sql != NULL;
		}
		memset(&j, 0, sizeof(j));
		j.tx = &tx;
		j.is_and = true;
		spb_init(&j.b, alloc);
		for (k = 0; k < v.len; k++)
		{
			Out			e;

			if (!translate_one(&tx, v.u.items[k].u.str, v.u.items[k].len, dialect,
							   &e, &two_rel))
				return false;
			if (two_rel)
				break;
			if (e.o == SP_NONE)
			{
				j.widened = true;
				continue;
			}
			if (e.o == SP_WIDENED)
				j.widened = true;
			if (j.kept == 0)
				j.first = e.sql;
			else
				spb_puts(&j.b, " AND ");
			spb_putc(&j.b, '(');
			spb_puts(&j.b, e.sql);
			spb_putc(&j.b, ')');
			j.kept++;
		}
		if (two_rel)
			o = none(&tx, two_relations_reason);
		else if (j.kept == 0)
			o = none(&tx, "no element of the array translates");
		else if (j.kept == 1)
			o = out_of(&tx, j.widened ? SP_WIDENED : SP_EXACT, j.first);
		else
			o = out_of(&tx, j.widened ? SP_WIDENED : SP_EXACT, buf_done(&tx, &j.b));
	}
	else if (!translate_one(&tx, text, len, dialect, &o, &two_rel))
		return false;
	if (tx.oom)
		return false;
	out->outcome = o.o;
	out->sql = o.o == SP_NONE ? NULL : o.sql;
	if (two_rel)
		out->reason = two_relations_reason;
	else if (o.o == SP_EXACT)
		out->reason = NULL;
	else
		out->reason = tx.reason ? tx.reason : "a part does not translate";
	return true;
}
