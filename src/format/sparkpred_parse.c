/*-------------------------------------------------------------------------
 *
 * sparkpred_parse.c
 *	  Tokenizers and recursive-descent parsers of recorded predicates (see
 *	  sparkpred.h): Spark's toString rendering ("TS") and SQL text (Spark's
 *	  .sql, user text, delta-rs's printer), into one syntax tree
 *	  (sparkpred_int.h).
 *
 * The SQL grammar is the usual one (OR < AND < NOT < comparison, IS, IN,
 * BETWEEN, LIKE < + - < * / % < unary minus, ::).  The TS grammar is the
 * shape Catalyst prints and nothing looser: every binary operator is
 * "(left op right)" with exactly one space around the operator, NOT is
 * "NOT x", IN is "x IN (a,b)", LIKE is "x LIKE p", a function is
 * "name(a, b)".  Holding the text to that shape is what makes unquoted
 * literals readable at all: a literal is a run of words separated by single
 * spaces, each of a small set of characters and none an operator or
 * keyword, so a literal that contained "(", ",", ")", an operator or a
 * keyword cannot be taken for structure; the text then fails to parse.
 *
 * Parsing never decides what a literal means; the translator does, from
 * the column it is compared with.  What the parser does decide is which
 * rendering a text is: SQL first (a '#' cannot occur in it outside
 * quotes), and the toString form when the SQL grammar rejects the text;
 * within SQL text, Spark or delta-rs by markers (back-ticks, 10L, DATE '..'
 * for Spark; ::, arrow_cast, get_field for delta-rs) or the caller's hint.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/sparkpred_parse.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "sparkpred_parse.h"

/* ---------- small helpers (shared with sparkpred.c) ---------- */

void
spb_init(SpBuf *b, const FmtAllocator *alloc)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->alloc = alloc;
	b->oom = false;
}

void
spb_putn(SpBuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap)
	{
		size_t		cap = b->cap ? b->cap : 64;
		char	   *d;

		while (cap < b->len + n + 1)
			cap *= 2;
		d = fmt_alloc_raw(b->alloc, cap);
		if (d == NULL)
		{
			b->oom = true;
			return;
		}
		if (b->len > 0)
			memcpy(d, b->data, b->len);
		b->data = d;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
spb_puts(SpBuf *b, const char *s)
{
	spb_putn(b, s, strlen(s));
}

void
spb_putc(SpBuf *b, char c)
{
	spb_putn(b, &c, 1);
}

char *
sp_strndup(const FmtAllocator *alloc, const char *s, size_t n)
{
	return fmt_strndup(alloc, s, n);
}

static char
ascii_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char) (c + ('a' - 'A')) : c;
}

bool
sp_eq_ci(const char *s, size_t n, const char *w)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (w[i] == '\0' || ascii_lower(s[i]) != ascii_lower(w[i]))
			return false;
	return w[n] == '\0';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * Proleptic Gregorian day numbers (days since 1970-01-01), the usual
 * era-based conversion.
 */
int64_t
sp_days_from_civil(int y, int m, int d)
{
	int64_t		yy = y - (m <= 2);
	int64_t		era = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t		yoe = yy - era * 400;
	int64_t		doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t		doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

void
sp_civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t		era;
	int64_t		doe;
	int64_t		yoe;
	int64_t		doy;
	int64_t		mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = (int) (yoe + era * 400 + (*m <= 2));
}

/* n digits at s as a number; false unless all are digits */
static bool
read_digits(const char *s, size_t n, int *v)
{
	size_t		i;

	*v = 0;
	for (i = 0; i < n; i++)
	{
		if (!is_digit(s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return n > 0;
}

static int
days_in_month(int y, int m)
{
	static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dm[m - 1];
}

static bool
read_ymd(const char *s, size_t n, int32_t *days)
{
	int			y;
	int			m;
	int			d;

	if (n != 10 || s[4] != '-' || s[7] != '-')
		return false;
	if (!read_digits(s, 4, &y) || !read_digits(s + 5, 2, &m) ||
		!read_digits(s + 8, 2, &d))
		return false;
	if (y < SP_MIN_YEAR || y > SP_MAX_YEAR || m < 1 || m > 12 || d < 1 ||
		d > days_in_month(y, m))
		return false;
	*days = (int32_t) sp_days_from_civil(y, m, d);
	return true;
}

bool
sp_read_date(const char *s, size_t n, int32_t *days)
{
	return read_ymd(s, n, days);
}

bool
sp_read_datetime(const char *s, size_t n, bool allow_date_only, bool *zone,
				 int64_t *micros)
{
	int32_t		days;
	int			hh = 0;
	int			mi = 0;
	int			ss = 0;
	int64_t		frac = 0;
	size_t		i;
	int64_t		off = 0;

	if (zone)
		*zone = false;
	if (n < 10 || !read_ymd(s, 10, &days))
		return false;
	i = 10;
	if (i == n)
	{
		if (!allow_date_only)
			return false;
	}
	else
	{
		if (s[i] != ' ' && s[i] != 'T')
			return false;
		i++;
		if (i + 5 > n || s[i + 2] != ':' || !read_digits(s + i, 2, &hh) ||
			!read_digits(s + i + 3, 2, &mi))
			return false;
		i += 5;
		if (i < n && s[i] == ':')
		{
			if (i + 3 > n || !read_digits(s + i + 1, 2, &ss))
				return false;
			i += 3;
			if (i < n && s[i] == '.')
			{
				int			k = 0;

				i++;
				while (i < n && is_digit(s[i]))
				{
					if (k == 6)
						return false;	/* below microseconds */
					frac = frac * 10 + (s[i] - '0');
					k++;
					i++;
				}
				if (k == 0)
					return false;
				while (k < 6)
				{
					frac *= 10;
					k++;
				}
			}
		}
		if (hh > 23 || mi > 59 || ss > 59)
			return false;
	}
	if (i < n)
	{
		int			oh = 0;
		int			om = 0;
		int			sign;

		if (zone == NULL)
			return false;
		if (n - i == 1 && s[i] == 'Z')
			i = n;
		else if (n - i == 3 && sp_eq_ci(s + i, 3, "UTC"))
			i = n;
		else
		{
			if (s[i] != '+' && s[i] != '-')
				return false;
			sign = s[i] == '-' ? -1 : 1;
			i++;
			if (i + 2 > n || !read_digits(s + i, 2, &oh))
				return false;
			i += 2;
			if (i < n)
			{
				if (s[i] == ':')
					i++;
				if (i + 2 != n || !read_digits(s + i, 2, &om))
					return false;
				i = n;
			}
			if (oh > 18 || om > 59)
				return false;
			off = sign * ((int64_t) oh * 3600 + om * 60);
		}
		*zone = true;
	}
	*micros = ((int64_t) days * 86400 + hh * 3600 + mi * 60 + ss - off) * 1000000 + frac;
	return true;
}

bool
sp_read_int64(const char *s, size_t n, int64_t *v)
{
	size_t		i = 0;
	bool		neg = false;
	uint64_t	acc = 0;
	uint64_t	limit;

	if (n > 0 && s[0] == '-')
	{
		neg = true;
		i = 1;
	}
	if (i == n || (s[i] == '0' && n - i > 1))
		return false;
	limit = neg ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT64_MAX;
	for (; i < n; i++)
	{
		if (!is_digit(s[i]))
			return false;
		if (acc > (limit - (uint64_t) (s[i] - '0')) / 10)
			return false;
		acc = acc * 10 + (uint64_t) (s[i] - '0');
	}
	if (neg && acc == 0)
		return false;			/* "-0" is no integer's rendering */
	*v = neg ? (acc == (uint64_t) INT64_MAX + 1 ? INT64_MIN : -(int64_t) acc)
		: (int64_t) acc;
	return true;
}

/* ---------- tokens ---------- */

typedef enum TokKind
{
	TK_EOF = 0,
	TK_LP,
	TK_RP,
	TK_COMMA,
	TK_DOT,
	TK_OP,
	TK_WORD,
	TK_NUM,
	TK_STR,
	TK_BQ,
	TK_DQ
} TokKind;

typedef enum OpKind
{
	OP_EQ = 0,
	OP_EQ2,						/* == */
	OP_NSEQ,					/* <=> */
	OP_NE,						/* != <> */
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_PLUS,
	OP_MINUS,
	OP_STAR,
	OP_SLASH,
	OP_PCT,
	OP_DCOLON,
	OP_CONCAT,
	OP_BIT						/* & | ^ ~ */
} OpKind;

typedef struct Tok
{
	TokKind		kind;
	int			op;
	const char *p;				/* raw text */
	size_t		n;
	char	   *val;			/* TK_STR, TK_BQ, TK_DQ: decoded */
	size_t		vlen;
	int			ws;				/* white-space characters before it */
	bool		ws_odd;			/* ... not all of them ' ' */
	bool		bad;			/* TK_STR/TK_DQ: an escape the writer's
								 * reading of which is unknown */
	bool		backslash;		/* TK_STR/TK_DQ: contained a backslash */
	char		suffix[3];		/* TK_NUM: "", "L", "S", "Y", "D", "F", "BD" */
	bool		frac;			/* TK_NUM: has a fraction */
	bool		expo;			/* TK_NUM: has an exponent */
	size_t		numlen;			/* TK_NUM: length without the suffix */
} Tok;

typedef struct P
{
	const FmtAllocator *a;
	const char *s;
	size_t		len;
	Tok		   *toks;
	int			ntoks;
	int			cap;
	int			i;
	SpForm		form;
	int			depth;
	bool		oom;
	const char *err;
	bool		two_rel;
	SpExprIds  *ids;			/* the caller's */
	int			nids_start;		/* entries before this text */
} P;

static void *
p_alloc(P *p, size_t size)
{
	void	   *r;

	if (p->oom)
		return NULL;
	r = fmt_alloc(p->a, size);
	if (r == NULL)
		p->oom = true;
	return r;
}

static char *
p_strndup(P *p, const char *s, size_t n)
{
	char	   *r;

	if (p->oom)
		return NULL;
	r = sp_strndup(p->a, s, n);
	if (r == NULL)
		p->oom = true;
	return r;
}

/* Record a parse error (the first one wins); returns NULL for callers. */
static SpNode *
fail(P *p, const char *msg)
{
	if (p->err == NULL)
		p->err = msg;
	return NULL;
}

static bool
failed(const P *p)
{
	return p->err != NULL || p->oom;
}

static Tok *
push_tok(P *p)
{
	if (p->ntoks == p->cap)
	{
		int			ncap = p->cap ? p->cap * 2 : 32;
		Tok		   *nt = p_alloc(p, sizeof(Tok) * (size_t) ncap);

		if (nt == NULL)
			return NULL;
		if (p->ntoks > 0)
			memcpy(nt, p->toks, sizeof(Tok) * (size_t) p->ntoks);
		p->toks = nt;
		p->cap = ncap;
	}
	memset(&p->toks[p->ntoks], 0, sizeof(Tok));
	return &p->toks[p->ntoks++];
}

static Tok *
cur(P *p)
{
	return &p->toks[p->i];
}

static Tok *
peek(P *p, int k)
{
	int			j = p->i + k;

	return &p->toks[j < p->ntoks ? j : p->ntoks - 1];
}

static void
advance(P *p)
{
	if (p->i < p->ntoks - 1)
		p->i++;
}

static bool
tok_is_word(const Tok *t, const char *w)
{
	return t->kind == TK_WORD && sp_eq_ci(t->p, t->n, w);
}

/* exact (case-sensitive) word, for the toString form's upper-case keywords */
static bool
tok_is(const Tok *t, const char *w)
{
	return t->kind == TK_WORD && strlen(w) == t->n && memcmp(t->p, w, t->n) == 0;
}

/* ---------- the SQL tokenizer ---------- */

/*
 * A quoted run starting at s[i] (the quote q).  Spark: a backslash escapes
 * the next character (only \\ \' \" decode: .sql writes no others, and
 * user text's \n, \t, \u.... are not read); delta-rs: a doubled quote is
 * one quote and a backslash is an ordinary character whose reading by
 * DataFusion depends on its dialect, so it is not read either.
 */
static bool
lex_quoted(P *p, size_t *ip, char q, bool df, Tok *t)
{
	const char *s = p->s;
	size_t		i = *ip + 1;
	SpBuf		b;

	spb_init(&b, p->a);
	for (;;)
	{
		if (i >= p->len)
		{
			fail(p, "unterminated quoted text");
			return false;
		}
		if (s[i] == '\\')
		{
			t->backslash = true;
			if (df)
			{
				t->bad = true;
				spb_putc(&b, s[i]);
				i++;
				continue;
			}
			if (i + 1 >= p->len)
			{
				fail(p, "unterminated quoted text");
				return false;
			}
			if (s[i + 1] == '\\' || s[i + 1] == '\'' || s[i + 1] == '"')
				spb_putc(&b, s[i + 1]);
			else
			{
				t->bad = true;
				spb_putn(&b, s + i, 2);
			}
			i += 2;
			continue;
		}
		if (s[i] == q)
		{
			if (df && i + 1 < p->len && s[i + 1] == q)
			{
				spb_putc(&b, q);
				i += 2;
				continue;
			}
			i++;
			break;
		}
		if (s[i] == '\0')
		{
			fail(p, "a NUL byte in quoted text");
			return false;
		}
		spb_putc(&b, s[i]);
		i++;
	}
	if (b.oom)
	{
		p->oom = true;
		return false;
	}
	t->val = b.data ? b.data : p_strndup(p, "", 0);
	t->vlen = b.len;
	t->n = i - *ip;
	*ip = i;
	return !p->oom;
}

/*
 * The start of the next token of both tokenizers: skip white space from
 * *ip (recording how much, and whether any of it was not a plain space)
 * and push a token of one byte at the new *ip.  At the end of the text the
 * token is TK_EOF (of length 0) and *at_end is set.  NULL when out of
 * memory.
 */
static Tok *
lex_start(P *p, size_t *ip, bool *at_end)
{
	const char *s = p->s;
	size_t		i = *ip;
	int			ws = 0;
	bool		odd = false;
	Tok		   *t;

	while (i < p->len && is_space(s[i]))
	{
		if (s[i] != ' ')
			odd = true;
		ws++;
		i++;
	}
	*ip = i;
	t = push_tok(p);
	if (t == NULL)
		return NULL;
	t->ws = ws;
	t->ws_odd = odd;
	t->p = s + i;
	t->n = 1;
	*at_end = i >= p->len;
	if (*at_end)
	{
		t->kind = TK_EOF;
		t->n = 0;
	}
	return t;
}

static bool
lex_sql(P *p, bool df)
{
	const char *s = p->s;
	size_t		i = 0;

	p->ntoks = 0;
	p->i = 0;
	for (;;)
	{
		bool		at_end;
		Tok		   *t = lex_start(p, &i, &at_end);
		char		c;

		if (t == NULL)
			return false;
		if (at_end)
			return true;
		c = s[i];
		if (c == '(' || c == ')' || c == ',' || c == '.')
		{
			t->kind = c == '(' ? TK_LP : c == ')' ? TK_RP : c == ',' ? TK_COMMA : TK_DOT;
			i++;
		}
		else if (c == '\'')
		{
			t->kind = TK_STR;
			if (!lex_quoted(p, &i, '\'', df, t))
				return false;
		}
		else if (c == '"')
		{
			t->kind = TK_DQ;
			if (!lex_quoted(p, &i, '"', df, t))
				return false;
			if (df && t->bad)
			{
				/* an identifier: backslashes are ordinary there */
				t->bad = false;
			}
		}
		else if (c == '`')
		{
			SpBuf		b;
			size_t		j = i + 1;

			spb_init(&b, p->a);
			for (;;)
			{
				if (j >= p->len)
				{
					fail(p, "unterminated back-quoted name");
					return false;
				}
				if (s[j] == '`')
				{
					if (j + 1 < p->len && s[j + 1] == '`')
					{
						spb_putc(&b, '`');
						j += 2;
						continue;
					}
					j++;
					break;
				}
				if (s[j] == '\0')
				{
					fail(p, "a NUL byte in a name");
					return false;
				}
				spb_putc(&b, s[j]);
				j++;
			}
			if (b.oom)
			{
				p->oom = true;
				return false;
			}
			t->kind = TK_BQ;
			t->val = b.data ? b.data : p_strndup(p, "", 0);
			t->vlen = b.len;
			t->n = j - i;
			i = j;
		}
		else if (is_digit(c))
		{
			size_t		j = i;

			while (j < p->len && is_digit(s[j]))
				j++;
			if (j < p->len && s[j] == '.' && j + 1 < p->len && is_digit(s[j + 1]))
			{
				t->frac = true;
				j++;
				while (j < p->len && is_digit(s[j]))
					j++;
			}
			if (j < p->len && (s[j] == 'e' || s[j] == 'E'))
			{
				size_t		k = j + 1;

				if (k < p->len && (s[k] == '+' || s[k] == '-'))
					k++;
				if (k < p->len && is_digit(s[k]))
				{
					while (k < p->len && is_digit(s[k]))
						k++;
					t->expo = true;
					j = k;
				}
			}
			t->numlen = j - i;
			if (j + 1 < p->len && (s[j] == 'B' || s[j] == 'b') &&
				(s[j + 1] == 'D' || s[j + 1] == 'd'))
			{
				memcpy(t->suffix, "BD", 3);
				j += 2;
			}
			else if (j < p->len && strchr("LlSsYyDdFf", s[j]) != NULL && s[j] != '\0')
			{
				t->suffix[0] = (char) (s[j] >= 'a' ? s[j] - ('a' - 'A') : s[j]);
				t->suffix[1] = '\0';
				j++;
			}
			if (j < p->len && (is_alpha(s[j]) || is_digit(s[j])))
			{
				fail(p, "a malformed number");
				return false;
			}
			if ((t->suffix[0] == 'L' || t->suffix[0] == 'S' || t->suffix[0] == 'Y') &&
				(t->frac || t->expo))
			{
				fail(p, "an integer suffix on a fractional number");
				return false;
			}
			t->kind = TK_NUM;
			t->n = j - i;
			i = j;
		}
		else if (is_alpha(c))
		{
			size_t		j = i;

			while (j < p->len && (is_alpha(s[j]) || is_digit(s[j])))
				j++;
			t->kind = TK_WORD;
			t->n = j - i;
			i = j;
		}
		else
		{
			static const struct
			{
				const char *text;
				int			op;
			}			ops[] =
			{
				{"<=>", OP_NSEQ}, {"<=", OP_LE}, {">=", OP_GE}, {"<>", OP_NE},
				{"!=", OP_NE}, {"==", OP_EQ2}, {"::", OP_DCOLON}, {"||", OP_CONCAT},
				{"=", OP_EQ}, {"<", OP_LT}, {">", OP_GT}, {"+", OP_PLUS},
				{"-", OP_MINUS}, {"*", OP_STAR}, {"/", OP_SLASH}, {"%", OP_PCT},
				{"&", OP_BIT}, {"|", OP_BIT}, {"^", OP_BIT}, {"~", OP_BIT}
			};
			size_t		k;
			bool		found = false;

			for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
			{
				size_t		ol = strlen(ops[k].text);

				if (i + ol <= p->len && memcmp(s + i, ops[k].text, ol) == 0)
				{
					t->kind = TK_OP;
					t->op = ops[k].op;
					t->n = ol;
					i += ol;
					found = true;
					break;
				}
			}
			if (!found)
			{
				fail(p, "a character that SQL text does not contain");
				return false;
			}
		}
	}
}

/* Markers of the writer in SQL tokens. */
static void
sql_markers(P *p, bool *spark, bool *df, bool *adjacent_strings, bool *backslash)
{
	int			k;

	*spark = *df = *adjacent_strings = *backslash = false;
	for (k = 0; k < p->ntoks; k++)
	{
		Tok		   *t = &p->toks[k];
		Tok		   *nx = &p->toks[k + 1 < p->ntoks ? k + 1 : k];

		if (t->kind == TK_BQ || (t->kind == TK_NUM && t->suffix[0] != '\0'))
			*spark = true;
		if ((t->kind == TK_STR || t->kind == TK_DQ) && t->backslash)
			*backslash = true;
		if (t->kind == TK_STR && nx->kind == TK_STR && nx->ws == 0)
			*adjacent_strings = true;
		if (t->kind == TK_WORD && nx->kind == TK_STR &&
			(tok_is_word(t, "date") || tok_is_word(t, "timestamp") ||
			 tok_is_word(t, "timestamp_ntz") || tok_is_word(t, "timestamp_ltz") ||
			 tok_is_word(t, "x") || tok_is_word(t, "interval")))
			*spark = true;
		if (tok_is_word(t, "spark_catalog"))
			*spark = true;
		if (t->kind == TK_OP && t->op == OP_DCOLON)
			*df = true;
		if (nx->kind == TK_LP &&
			(tok_is_word(t, "arrow_cast") || tok_is_word(t, "get_field")))
			*df = true;
	}
}

/* ---------- nodes ---------- */

static SpNode *
mk(P *p, SpNodeKind kind)
{
	SpNode	   *n = p_alloc(p, sizeof(SpNode));

	if (n)
		n->kind = kind;
	return n;
}

static SpNode *
mk_other(P *p, const char *why, bool has_col)
{
	SpNode	   *n = mk(p, SN_OTHER);

	if (n)
	{
		n->why = why;
		n->has_col = has_col;
	}
	return n;
}

/*
 * A node relating two operands (comparison, IN item, LIKE, BETWEEN
 * bound): both sides naming columns marks the text as a condition over
 * two relations.
 */
static void
relate(P *p, const SpNode *x, const SpNode *y)
{
	if (x && y && x->has_col && y->has_col)
		p->two_rel = true;
}

static SpNode *
mk2(P *p, SpNodeKind kind, int op, SpNode *a, SpNode *b)
{
	SpNode	   *n;

	if (a == NULL || b == NULL)
		return NULL;
	n = mk(p, kind);
	if (n == NULL)
		return NULL;
	n->op = op;
	n->a = a;
	n->b = b;
	n->has_col = a->has_col || b->has_col;
	if (kind == SN_CMP || kind == SN_LIKE || kind == SN_STRFN || kind == SN_MOD)
		relate(p, a, b);
	return n;
}

static SpNode *
mk_not(P *p, SpNode *a)
{
	SpNode	   *n;

	if (a == NULL)
		return NULL;
	n = mk(p, SN_NOT);
	if (n)
	{
		n->a = a;
		n->has_col = a->has_col;
	}
	return n;
}

static SpNode *
mk_lit(P *p, SpLitKind kind, const char *text, size_t len)
{
	SpNode	   *n = mk(p, SN_LIT);

	if (n)
	{
		n->lit.kind = kind;
		n->lit.text = text;
		n->lit.len = len;
	}
	return n;
}

/* A list of nodes being collected. */
typedef struct NodeList
{
	SpNode	  **items;
	int			n;
	int			cap;
} NodeList;

static bool
nl_add(P *p, NodeList *l, SpNode *x)
{
	if (x == NULL)
		return false;
	if (l->n == l->cap)
	{
		int			ncap = l->cap ? l->cap * 2 : 8;
		SpNode	  **ni = p_alloc(p, sizeof(SpNode *) * (size_t) ncap);

		if (ni == NULL)
			return false;
		if (l->n > 0)
			memcpy(ni, l->items, sizeof(SpNode *) * (size_t) l->n);
		l->items = ni;
		l->cap = ncap;
	}
	l->items[l->n++] = x;
	return true;
}

static SpNode *
mk_in(P *p, SpNode *a, NodeList *items, bool negated)
{
	SpNode	   *n;
	int			k;

	if (a == NULL)
		return NULL;
	n = mk(p, SN_IN);
	if (n == NULL)
		return NULL;
	n->a = a;
	n->items = items->items;
	n->nitems = items->n;
	n->negated = negated;
	n->has_col = a->has_col;
	for (k = 0; k < items->n; k++)
	{
		relate(p, a, items->items[k]);
		n->has_col = n->has_col || items->items[k]->has_col;
	}
	return n;
}

/* Set the column-name fields of an SN_COL node from parts. */
static SpNode *
mk_col(P *p, char **parts, int nparts)
{
	SpNode	   *n = mk(p, SN_COL);

	if (n)
	{
		n->name.parts = parts;
		n->name.nparts = nparts;
		n->has_col = true;
	}
	return n;
}

/* Remember a TS attribute's expression id; one name, two ids: MERGE. */
static void
note_expr_id(P *p, const char *name, size_t n, long long id)
{
	SpExprIds  *e = p->ids;
	int			k;
	char	   *low;
	size_t		j;

	for (k = 0; k < e->n; k++)
		if (strlen(e->names[k]) == n && sp_eq_ci(name, n, e->names[k]))
		{
			if (e->ids[k] != id)
				p->two_rel = true;
			return;
		}
	if (e->n == e->cap)
	{
		int			ncap = e->cap ? e->cap * 2 : 8;
		char	  **nn = p_alloc(p, sizeof(char *) * (size_t) ncap);
		long long  *ni = p_alloc(p, sizeof(long long) * (size_t) ncap);

		if (nn == NULL || ni == NULL)
			return;
		if (e->n > 0)
		{
			memcpy(nn, e->names, sizeof(char *) * (size_t) e->n);
			memcpy(ni, e->ids, sizeof(long long) * (size_t) e->n);
		}
		e->names = nn;
		e->ids = ni;
		e->cap = ncap;
	}
	low = p_strndup(p, name, n);
	if (low == NULL)
		return;
	for (j = 0; j < n; j++)
		low[j] = ascii_lower(low[j]);
	e->names[e->n] = low;
	e->ids[e->n] = id;
	e->n++;
}

/* ---------- types of casts ---------- */

static const struct
{
	const char *name;
	SpType		type;
}			type_names[] =
{
	{"bigint", SP_T_LONG}, {"long", SP_T_LONG}, {"int", SP_T_INT},
	{"integer", SP_T_INT}, {"smallint", SP_T_SHORT}, {"short", SP_T_SHORT},
	{"tinyint", SP_T_BYTE}, {"byte", SP_T_BYTE}, {"double", SP_T_DOUBLE},
	{"float", SP_T_FLOAT}, {"real", SP_T_FLOAT}, {"string", SP_T_STRING},
	{"boolean", SP_T_BOOLEAN}, {"binary", SP_T_BINARY}, {"date", SP_T_DATE},
	{"timestamp", SP_T_TIMESTAMP}, {"timestamp_ltz", SP_T_TIMESTAMP},
	{"timestamp_ntz", SP_T_TIMESTAMP_NTZ}, {"decimal", SP_T_DECIMAL},
	{"dec", SP_T_DECIMAL}, {"numeric", SP_T_DECIMAL}
};

/* A decimal's (p[,s]) after the type name, at '(' */
static bool
parse_decimal_args(P *p, SpTypeSpec *ts, bool ts_form)
{
	int			v;
	Tok		   *t;

	advance(p);					/* ( */
	t = cur(p);
	if ((ts_form && t->ws != 0) || t->kind != (ts_form ? TK_WORD : TK_NUM) ||
		t->n > 2 || !read_digits(t->p, t->n, &v))
		return false;
	ts->precision = v;
	ts->scale = 0;
	advance(p);
	t = cur(p);
	if (t->kind == TK_COMMA)
	{
		if (ts_form && t->ws != 0)
			return false;
		advance(p);
		t = cur(p);
		if ((ts_form && t->ws != 0) || t->kind != (ts_form ? TK_WORD : TK_NUM) ||
			t->n > 2 || !read_digits(t->p, t->n, &v))
			return false;
		ts->scale = v;
		advance(p);
		t = cur(p);
	}
	if (t->kind != TK_RP || (ts_form && t->ws != 0))
		return false;
	advance(p);
	return ts->precision >= 1 && ts->precision <= 38 && ts->scale <= ts->precision;
}

/*
 * A cast's target type at the current token: a known name (decimal with
 * its arguments; decimal alone is decimal(10,0)), anything else SP_T_OTHER
 * when it is a single word.  false: not a type at all.
 */
static bool
parse_type(P *p, SpTypeSpec *ts, bool ts_form)
{
	Tok		   *t = cur(p);
	size_t		k;

	memset(ts, 0, sizeof(*ts));
	if (t->kind != TK_WORD)
		return false;
	ts->type = SP_T_OTHER;
	for (k = 0; k < sizeof(type_names) / sizeof(type_names[0]); k++)
		if (ts_form ? tok_is(t, type_names[k].name) : tok_is_word(t, type_names[k].name))
		{
			ts->type = type_names[k].type;
			break;
		}
	advance(p);
	if (ts->type == SP_T_DECIMAL)
	{
		ts->precision = 10;
		ts->scale = 0;
		if (cur(p)->kind == TK_LP && (!ts_form || cur(p)->ws == 0))
			return parse_decimal_args(p, ts, ts_form);
	}
	else if (cur(p)->kind == TK_LP && (!ts_form || cur(p)->ws == 0))
	{
		int			depth = 0;

		/* varchar(10), Decimal128(12, 2) and the like: skip the arguments */
		if (ts_form || ts->type != SP_T_OTHER)
			return false;
		do
		{
			if (cur(p)->kind == TK_LP)
				depth++;
			else if (cur(p)->kind == TK_RP)
				depth--;
			else if (cur(p)->kind == TK_EOF)
				return false;
			advance(p);
		} while (depth > 0);
	}
	return true;
}

/* ---------- the SQL grammar ---------- */

static SpNode *sql_expr(P *p);
static SpNode *sql_add(P *p);

/* SQL words that never name a column */
static bool
reserved_word(const Tok *t)
{
	static const char *const words[] = {
		"and", "or", "not", "in", "is", "null", "true", "false", "like",
		"ilike", "rlike", "regexp", "similar", "between", "case", "when",
		"then", "else", "end", "cast", "select", "exists", "from", "where",
		"distinct", "interval", "escape", "as", "any", "all", "some"
	};
	size_t		k;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (tok_is_word(t, words[k]))
			return true;
	return false;
}

/* A number token as a literal, negated when neg (the token is consumed). */
static SpNode *
sql_number(P *p, Tok *t, bool neg)
{
	size_t		n = t->numlen + (neg ? 1 : 0);
	char	   *s = p_alloc(p, n + 1);
	SpNode	   *x;
	char		suf = t->suffix[0];

	advance(p);
	if (s == NULL)
		return NULL;
	if (neg)
		s[0] = '-';
	memcpy(s + (neg ? 1 : 0), t->p, t->numlen);
	s[n] = '\0';
	if (suf == 'D')
		return mk_lit(p, SL_DOUBLE, s, n);
	if (suf == 'F')
		return mk_lit(p, SL_FLOAT, s, n);
	if (suf == 'B')
		return mk_lit(p, SL_DECIMAL, s, n);
	if (t->frac || t->expo)
	{
		if (t->expo || p->form == SP_FORM_DF)
			return mk_lit(p, SL_DOUBLE, s, n);
		return mk_lit(p, p->form == SP_FORM_SPARK ? SL_DECIMAL : SL_AMBIGNUM, s, n);
	}
	x = mk_lit(p, SL_INT, s, n);
	if (x == NULL)
		return NULL;
	x->lit.has_ival = sp_read_int64(s, n, &x->lit.ival);
	if (suf == 'L')
		x->lit.type = SP_T_LONG;
	else if (suf == 'S')
		x->lit.type = SP_T_SHORT;
	else if (suf == 'Y')
		x->lit.type = SP_T_BYTE;
	else if (p->form == SP_FORM_DF)
		x->lit.type = SP_T_LONG;
	else if (p->form == SP_FORM_SPARK)
	{
		/* Spark: int if it fits, else bigint, else decimal */
		x->lit.type = !x->lit.has_ival ? SP_T_DECIMAL :
			(x->lit.ival <= INT32_MAX && x->lit.ival >= INT32_MIN) ? SP_T_INT : SP_T_LONG;
		if (x->lit.type == SP_T_DECIMAL)
			x->lit.kind = SL_DECIMAL;
	}
	if (x->lit.kind == SL_INT && x->lit.type != SP_T_UNKNOWN && !x->lit.has_ival)
		return mk_other(p, "an integer literal out of range", false);

	/*
	 * Spark's parser refuses 128Y or 40000S, so such a text was not printed
	 * by Spark, and another reader may take the value modulo the type's
	 * width: no value stands for it faithfully.
	 */
	if ((suf == 'S' && (x->lit.ival < -32768 || x->lit.ival > 32767)) ||
		(suf == 'Y' && (x->lit.ival < -128 || x->lit.ival > 127)))
		return mk_other(p, "an integer literal out of the range of its type suffix", false);
	return x;
}

/* The literal of a quoted string token. */
static SpNode *
sql_string(P *p, Tok *t)
{
	SpNode	   *x = mk_lit(p, t->bad ? SL_BADSTRING : SL_STRING, t->val, t->vlen);

	advance(p);
	return x;
}

/* Hex digits to bytes; false unless an even number of hex digits */
static bool
hex_bytes(P *p, const char *s, size_t n, char **out, size_t *outlen)
{
	size_t		k;
	char	   *b;

	if (n % 2 != 0)
		return false;
	b = p_alloc(p, n / 2 + 1);
	if (b == NULL)
		return false;
	for (k = 0; k < n; k++)
	{
		char		c = s[k];
		int			v;

		if (is_digit(c))
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = c - 'A' + 10;
		else
			return false;
		if (k % 2 == 0)
			b[k / 2] = (char) (v << 4);
		else
			b[k / 2] = (char) (b[k / 2] | v);
	}
	*out = b;
	*outlen = n / 2;
	return true;
}

/* DATE '..', TIMESTAMP '..', TIMESTAMP_NTZ '..', X'..' (word at cur) */
static SpNode *
sql_typed_literal(P *p)
{
	Tok		   *w = cur(p);
	Tok		   *s = peek(p, 1);
	SpNode	   *x;

	advance(p);
	advance(p);
	if (s->bad)
		return mk_other(p, "a typed literal with escapes", false);
	if (tok_is_word(w, "x"))
	{
		char	   *b;
		size_t		bl;

		if (s->ws != 0 || !hex_bytes(p, s->val, s->vlen, &b, &bl))
			return p->oom ? NULL : mk_other(p, "a malformed binary literal", false);
		return mk_lit(p, SL_BINARY, b, bl);
	}
	if (tok_is_word(w, "interval"))
		return mk_other(p, "an interval", false);
	x = mk_lit(p, SL_DATE, s->val, s->vlen);
	if (x == NULL)
		return NULL;
	if (tok_is_word(w, "date"))
	{
		if (!sp_read_date(s->val, s->vlen, &x->lit.days))
			return mk_other(p, "a date literal outside years 1583..9999 or malformed", false);
	}
	else if (tok_is_word(w, "timestamp_ntz"))
	{
		x->lit.kind = SL_TS_NTZ;
		if (!sp_read_datetime(s->val, s->vlen, true, NULL, &x->lit.micros))
			return mk_other(p, "a timestamp literal it cannot read", false);
	}
	else
	{
		bool		zone;

		if (!sp_read_datetime(s->val, s->vlen, true, &zone, &x->lit.micros))
			return mk_other(p, "a timestamp literal it cannot read", false);
		x->lit.kind = zone ? SL_TS_UTC : SL_TS_LOCAL;
	}
	return x;
}

/* name: part (. part)*, no white space around the dots */
static SpNode *
sql_name(P *p)
{
	char	   *parts[64];
	char	  **pv;
	int			n = 0;
	bool		all_quoted = true;
	bool		ambiguous = false;
	SpNode	   *x;

	for (;;)
	{
		Tok		   *t = cur(p);

		if (n == 64)
			return fail(p, "a name of too many parts");
		if (t->kind == TK_WORD)
		{
			if (reserved_word(t))
				return fail(p, "a keyword where a name belongs");
			parts[n] = p_strndup(p, t->p, t->n);
			all_quoted = false;
		}
		else if (t->kind == TK_BQ)
			parts[n] = t->val;
		else if (t->kind == TK_DQ)
		{
			parts[n] = t->val;
			if (p->form != SP_FORM_DF)
				ambiguous = true;
			all_quoted = false;
		}
		else
			return fail(p, "a name expected");
		if (parts[n] == NULL)
			return NULL;
		n++;
		advance(p);
		if (cur(p)->kind == TK_DOT && cur(p)->ws == 0 && peek(p, 1)->ws == 0 &&
			(peek(p, 1)->kind == TK_WORD || peek(p, 1)->kind == TK_BQ ||
			 peek(p, 1)->kind == TK_DQ))
		{
			advance(p);
			continue;
		}
		break;
	}
	pv = p_alloc(p, sizeof(char *) * (size_t) n);
	if (pv == NULL)
		return NULL;
	memcpy(pv, parts, sizeof(char *) * (size_t) n);
	x = mk_col(p, pv, n);
	if (x == NULL)
		return NULL;
	x->name.all_quoted = all_quoted;
	x->name.ambiguous = ambiguous;
	if (n >= 4 && sp_eq_ci(pv[0], strlen(pv[0]), "spark_catalog"))
	{
		/* spark_catalog.<namespace>.<table>.<column>[.<field>...] */
		x->name.parts = pv + 3;
		x->name.nparts = n - 3;
		x->name.catalog_qualified = true;
		x->name.struct_path = true;
	}
	return x;
}

/* args of a function call, after '(' ; closing ')' consumed */
static bool
sql_args(P *p, NodeList *args)
{
	if (cur(p)->kind == TK_RP)
	{
		advance(p);
		return true;
	}
	for (;;)
	{
		if (!nl_add(p, args, sql_expr(p)))
			return false;
		if (cur(p)->kind == TK_COMMA)
		{
			advance(p);
			continue;
		}
		if (cur(p)->kind != TK_RP)
		{
			fail(p, "a function call not closed");
			return false;
		}
		advance(p);
		return true;
	}
}

static bool
any_col(const NodeList *l)
{
	int			k;

	for (k = 0; k < l->n; k++)
		if (l->items[k]->has_col)
			return true;
	return false;
}

/*
 * arrow_cast('...', 'Timestamp(<unit>, None)') or ..., Some("UTC"))
 * (delta-rs's timestamp literals).
 */
static SpNode *
df_arrow_cast(P *p, NodeList *args)
{
	SpNode	   *v;
	SpNode	   *ty;
	const char *t;
	size_t		tl;
	static const char *const units[] = {"Second", "Millisecond", "Microsecond", "Nanosecond"};
	size_t		k;
	size_t		i;
	SpNode	   *x;
	char	   *val;
	size_t		vl;

	if (args->n != 2 || args->items[0]->kind != SN_LIT ||
		args->items[0]->lit.kind != SL_STRING || args->items[1]->kind != SN_LIT ||
		args->items[1]->lit.kind != SL_STRING)
		return mk_other(p, "arrow_cast of something other than a literal", any_col(args));
	v = args->items[0];
	ty = args->items[1];
	t = ty->lit.text;
	tl = ty->lit.len;
	if (tl < 10 || memcmp(t, "Timestamp(", 10) != 0)
		return mk_other(p, "arrow_cast to a type other than a timestamp", false);
	i = 10;
	for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
	{
		size_t		ul = strlen(units[k]);

		if (i + ul <= tl && memcmp(t + i, units[k], ul) == 0)
		{
			i += ul;
			break;
		}
	}
	if (k == sizeof(units) / sizeof(units[0]))
		return mk_other(p, "arrow_cast to an unknown timestamp unit", false);
	/* nanosecond values: the last three digits must be zero */
	val = (char *) v->lit.text;
	vl = v->lit.len;
	if (vl == 29 && val[19] == '.' && memcmp(val + 26, "000", 3) == 0)
		vl = 26;
	x = mk_lit(p, SL_TS_NTZ, val, vl);
	if (x == NULL)
		return NULL;
	if (tl - i == 7 && memcmp(t + i, ", None)", 7) == 0)
		x->lit.kind = SL_TS_NTZ;
	else if (tl - i == 14 && memcmp(t + i, ", Some(\"UTC\"))", 14) == 0)
		x->lit.kind = SL_TS_UTC;
	else
		return mk_other(p, "arrow_cast to a timestamp with a time zone other than UTC", false);
	if (!sp_read_datetime(val, vl, true, NULL, &x->lit.micros))
		return mk_other(p, "a timestamp literal it cannot read", false);
	return x;
}

/* function call: name at cur, then '(' */
static SpNode *
sql_call(P *p)
{
	Tok		   *w = cur(p);
	NodeList	args = {0};
	SpNode	   *x;

	if (tok_is_word(w, "cast"))
	{
		SpTypeSpec ts;
		SpNode	   *e;

		advance(p);
		advance(p);
		e = sql_expr(p);
		if (e == NULL)
			return NULL;
		if (!tok_is_word(cur(p), "as"))
			return fail(p, "CAST without AS");
		advance(p);
		if (!parse_type(p, &ts, false))
			return fail(p, "CAST to something that is not a type");
		if (cur(p)->kind != TK_RP)
			return fail(p, "CAST not closed");
		advance(p);
		x = mk(p, SN_CAST);
		if (x == NULL)
			return NULL;
		x->a = e;
		x->to = ts;
		x->has_col = e->has_col;
		return x;
	}
	if (tok_is_word(w, "exists") || tok_is_word(w, "select"))
		return fail(p, "a subquery");
	advance(p);
	advance(p);
	if (cur(p)->kind == TK_OP && cur(p)->op == OP_STAR)
		return fail(p, "a function of *");
	if (!sql_args(p, &args))
		return NULL;
	if ((tok_is_word(w, "isnull") || tok_is_word(w, "isnotnull")) && args.n == 1)
	{
		x = mk(p, SN_ISNULL);
		if (x)
		{
			x->a = args.items[0];
			x->negated = tok_is_word(w, "isnotnull");
			x->has_col = x->a->has_col;
		}
		return x;
	}
	if (args.n == 2 && (tok_is_word(w, "startswith") || tok_is_word(w, "starts_with") ||
						tok_is_word(w, "endswith") || tok_is_word(w, "contains")))
		return mk2(p, SN_STRFN,
				   tok_is_word(w, "endswith") ? SP_STR_ENDS :
				   tok_is_word(w, "contains") ? SP_STR_CONTAINS : SP_STR_STARTS,
				   args.items[0], args.items[1]);
	if (tok_is_word(w, "arrow_cast"))
		return df_arrow_cast(p, &args);
	if (tok_is_word(w, "get_field") && args.n == 2 && args.items[0]->kind == SN_COL &&
		args.items[1]->kind == SN_LIT && args.items[1]->lit.kind == SL_STRING &&
		!args.items[0]->name.ambiguous)
	{
		SpNode	   *c = args.items[0];
		char	  **pv = p_alloc(p, sizeof(char *) * (size_t) (c->name.nparts + 1));

		if (pv == NULL)
			return NULL;
		memcpy(pv, c->name.parts, sizeof(char *) * (size_t) c->name.nparts);
		pv[c->name.nparts] = (char *) args.items[1]->lit.text;
		c->name.parts = pv;
		c->name.nparts++;
		if (c->name.nparts == 2)
			c->name.struct_path = true;
		return c;
	}
	if (tok_is_word(w, "decode") && p->form == SP_FORM_DF && args.n == 2 &&
		args.items[0]->kind == SN_LIT && args.items[0]->lit.kind == SL_STRING &&
		args.items[1]->kind == SN_LIT && args.items[1]->lit.kind == SL_STRING &&
		sp_eq_ci(args.items[1]->lit.text, args.items[1]->lit.len, "hex"))
	{
		char	   *b;
		size_t		bl;

		if (!hex_bytes(p, args.items[0]->lit.text, args.items[0]->lit.len, &b, &bl))
			return p->oom ? NULL : mk_other(p, "a malformed binary literal", false);
		return mk_lit(p, SL_BINARY, b, bl);
	}
	return mk_other(p, "a function the translation does not know", any_col(&args));
}

static SpNode *
sql_primary(P *p)
{
	Tok		   *t = cur(p);
	SpNode	   *x;

	switch (t->kind)
	{
		case TK_LP:
			advance(p);
			x = sql_expr(p);
			if (x == NULL)
				return NULL;
			if (cur(p)->kind != TK_RP)
				return fail(p, "a parenthesis not closed");
			advance(p);
			return x;
		case TK_NUM:
			return sql_number(p, t, false);
		case TK_STR:
			return sql_string(p, t);
		case TK_BQ:
			return sql_name(p);
		case TK_DQ:
			if (p->form == SP_FORM_DF)
				return sql_name(p);
			/* Spark reads "x" as a string, or with ANSI settings a name */
			advance(p);
			if (cur(p)->kind == TK_DOT)
				return fail(p, "a double-quoted qualifier");
			return mk_other(p, "a double-quoted token, a string or a name depending on the writer's settings", false);
		case TK_WORD:
			if (tok_is_word(t, "true") || tok_is_word(t, "false"))
			{
				x = mk_lit(p, SL_BOOL, t->p, t->n);
				if (x)
					x->lit.bval = tok_is_word(t, "true");
				advance(p);
				return x;
			}
			if (tok_is_word(t, "null"))
			{
				advance(p);
				return mk_lit(p, SL_NULL, "NULL", 4);
			}
			if (peek(p, 1)->kind == TK_STR &&
				(tok_is_word(t, "date") || tok_is_word(t, "timestamp") ||
				 tok_is_word(t, "timestamp_ntz") || tok_is_word(t, "timestamp_ltz") ||
				 tok_is_word(t, "x") || tok_is_word(t, "interval")))
				return sql_typed_literal(p);
			if (tok_is_word(t, "case"))
				return fail(p, "CASE");
			if (peek(p, 1)->kind == TK_LP)
				return sql_call(p);
			return sql_name(p);
		default:
			return fail(p, "an operand expected");
	}
}

static SpNode *
sql_unary(P *p)
{
	Tok		   *t = cur(p);
	SpNode	   *x;

	if (++p->depth > SP_MAX_DEPTH)
		return fail(p, "nested too deeply");
	if (t->kind == TK_OP && (t->op == OP_MINUS || t->op == OP_PLUS))
	{
		bool		minus = t->op == OP_MINUS;

		advance(p);
		if (cur(p)->kind == TK_NUM && !(peek(p, 1)->kind == TK_OP && peek(p, 1)->op == OP_DCOLON))
			x = sql_number(p, cur(p), minus);
		else
		{
			x = sql_unary(p);
			if (x != NULL)
				x = mk_other(p, "arithmetic", x->has_col);
		}
		p->depth--;
		return x;
	}
	x = sql_primary(p);
	while (x && cur(p)->kind == TK_OP && cur(p)->op == OP_DCOLON)
	{
		SpTypeSpec ts;
		SpNode	   *c;

		advance(p);
		if (!parse_type(p, &ts, false))
			return fail(p, ":: followed by something that is not a type");
		c = mk(p, SN_CAST);
		if (c == NULL)
			return NULL;
		c->a = x;
		c->to = ts;
		c->dcolon = true;
		c->has_col = x->has_col;
		x = c;
	}
	p->depth--;
	return x;
}

static SpNode *
sql_mul(P *p)
{
	SpNode	   *l = sql_unary(p);

	while (l && cur(p)->kind == TK_OP &&
		   (cur(p)->op == OP_STAR || cur(p)->op == OP_SLASH || cur(p)->op == OP_PCT))
	{
		int			op = cur(p)->op;
		SpNode	   *r;

		advance(p);
		r = sql_unary(p);
		if (r == NULL)
			return NULL;
		if (op == OP_PCT)
			l = mk2(p, SN_MOD, 0, l, r);
		else
			l = mk_other(p, "arithmetic", l->has_col || r->has_col);
	}
	return l;
}

static SpNode *
sql_add(P *p)
{
	SpNode	   *l = sql_mul(p);

	while (l && cur(p)->kind == TK_OP &&
		   (cur(p)->op == OP_PLUS || cur(p)->op == OP_MINUS ||
			cur(p)->op == OP_CONCAT || cur(p)->op == OP_BIT))
	{
		SpNode	   *r;

		advance(p);
		r = sql_mul(p);
		if (r == NULL)
			return NULL;
		l = mk_other(p, "arithmetic", l->has_col || r->has_col);
	}
	return l;
}

static int
cmp_op(int op)
{
	switch (op)
	{
		case OP_EQ:
		case OP_EQ2:
			return SP_OP_EQ;
		case OP_NSEQ:
			return SP_OP_NSEQ;
		case OP_NE:
			return SP_OP_NE;
		case OP_LT:
			return SP_OP_LT;
		case OP_LE:
			return SP_OP_LE;
		case OP_GT:
			return SP_OP_GT;
		case OP_GE:
			return SP_OP_GE;
	}
	return -1;
}

static SpNode *
sql_pred(P *p)
{
	SpNode	   *l = sql_add(p);
	Tok		   *t;
	bool		negated = false;

	if (l == NULL)
		return NULL;
	t = cur(p);
	if (t->kind == TK_OP && cmp_op(t->op) >= 0)
	{
		int			op = cmp_op(t->op);
		SpNode	   *r;

		advance(p);
		r = sql_add(p);
		if (r && cur(p)->kind == TK_OP && cmp_op(cur(p)->op) >= 0)
			return fail(p, "chained comparisons");
		return mk2(p, SN_CMP, op, l, r);
	}
	if (tok_is_word(t, "is"))
	{
		SpNode	   *x;

		advance(p);
		if (tok_is_word(cur(p), "not"))
		{
			negated = true;
			advance(p);
		}
		t = cur(p);
		if (tok_is_word(t, "null"))
		{
			advance(p);
			x = mk(p, SN_ISNULL);
			if (x)
			{
				x->a = l;
				x->negated = negated;
				x->has_col = l->has_col;
			}
			return x;
		}
		if (tok_is_word(t, "true") || tok_is_word(t, "false"))
		{
			bool		tr = tok_is_word(t, "true");

			advance(p);
			x = mk(p, SN_ISBOOL);
			if (x)
			{
				x->a = l;
				x->op = negated ? (tr ? SP_ISB_NOT_TRUE : SP_ISB_NOT_FALSE) :
					(tr ? SP_ISB_TRUE : SP_ISB_FALSE);
				x->has_col = l->has_col;
			}
			return x;
		}
		if (tok_is_word(t, "distinct") && tok_is_word(peek(p, 1), "from"))
		{
			advance(p);
			advance(p);
			return mk2(p, SN_CMP, negated ? SP_OP_NSEQ : SP_OP_DISTINCT, l, sql_add(p));
		}
		return fail(p, "IS followed by something it does not know");
	}
	if (tok_is_word(t, "not") &&
		(tok_is_word(peek(p, 1), "in") || tok_is_word(peek(p, 1), "between") ||
		 tok_is_word(peek(p, 1), "like") || tok_is_word(peek(p, 1), "ilike") ||
		 tok_is_word(peek(p, 1), "rlike") || tok_is_word(peek(p, 1), "regexp")))
	{
		negated = true;
		advance(p);
		t = cur(p);
	}
	if (tok_is_word(t, "in"))
	{
		NodeList	items = {0};

		advance(p);
		if (cur(p)->kind != TK_LP)
			return fail(p, "IN without a list");
		advance(p);
		if (tok_is_word(cur(p), "select") || cur(p)->kind == TK_RP)
			return fail(p, "IN over a subquery or an empty list");
		for (;;)
		{
			if (!nl_add(p, &items, sql_add(p)))
				return NULL;
			if (cur(p)->kind == TK_COMMA)
			{
				advance(p);
				continue;
			}
			if (cur(p)->kind != TK_RP)
				return fail(p, "an IN list not closed");
			advance(p);
			break;
		}
		return mk_in(p, l, &items, negated);
	}
	if (tok_is_word(t, "between"))
	{
		SpNode	   *lo;
		SpNode	   *hi;
		SpNode	   *x;

		advance(p);
		lo = sql_add(p);
		if (lo == NULL)
			return NULL;
		if (!tok_is_word(cur(p), "and"))
			return fail(p, "BETWEEN without AND");
		advance(p);
		hi = sql_add(p);
		if (hi == NULL)
			return NULL;
		x = mk(p, SN_BETWEEN);
		if (x == NULL)
			return NULL;
		x->a = l;
		x->b = lo;
		x->c = hi;
		x->negated = negated;
		x->has_col = l->has_col || lo->has_col || hi->has_col;
		relate(p, l, lo);
		relate(p, l, hi);
		return x;
	}
	if (tok_is_word(t, "like") || tok_is_word(t, "ilike") || tok_is_word(t, "rlike") ||
		tok_is_word(t, "regexp"))
	{
		bool		plain = tok_is_word(t, "like");
		SpNode	   *x;

		advance(p);
		x = mk2(p, SN_LIKE, 0, l, sql_add(p));
		if (x == NULL)
			return NULL;
		x->negated = negated;
		if (tok_is_word(cur(p), "escape"))
		{
			advance(p);
			if (sql_add(p) == NULL)
				return NULL;
			plain = false;
		}
		if (!plain)
			return mk_other(p, "ILIKE, RLIKE or LIKE with ESCAPE", x->has_col);
		return x;
	}
	return l;
}

static SpNode *
sql_not(P *p)
{
	SpNode	   *x;

	if (++p->depth > SP_MAX_DEPTH)
		return fail(p, "nested too deeply");
	if (tok_is_word(cur(p), "not"))
	{
		advance(p);
		x = mk_not(p, sql_not(p));
	}
	else
		x = sql_pred(p);
	p->depth--;
	return x;
}

/* x (word x)*: one n-ary node (a long chain nests no deeper) */
static SpNode *
sql_chain(P *p, const char *word, SpNodeKind kind, SpNode *(*operand) (P *))
{
	NodeList	l = {0};
	SpNode	   *x = operand(p);
	SpNode	   *n;
	int			k;

	if (x == NULL || !tok_is_word(cur(p), word))
		return x;
	if (!nl_add(p, &l, x))
		return NULL;
	while (tok_is_word(cur(p), word))
	{
		advance(p);
		if (!nl_add(p, &l, operand(p)))
			return NULL;
	}
	n = mk(p, kind);
	if (n == NULL)
		return NULL;
	n->items = l.items;
	n->nitems = l.n;
	for (k = 0; k < l.n; k++)
		n->has_col = n->has_col || l.items[k]->has_col;
	return n;
}

static SpNode *
sql_and(P *p)
{
	return sql_chain(p, "and", SN_AND, sql_not);
}

static SpNode *
sql_expr(P *p)
{
	SpNode	   *l;

	if (++p->depth > SP_MAX_DEPTH)
		return fail(p, "nested too deeply");
	l = sql_chain(p, "or", SN_OR, sql_and);
	p->depth--;
	return l;
}

/* ---------- the toString tokenizer and grammar ---------- */

static bool
lex_ts(P *p)
{
	const char *s = p->s;
	size_t		i = 0;

	p->ntoks = 0;
	p->i = 0;
	for (;;)
	{
		bool		at_end;
		Tok		   *t = lex_start(p, &i, &at_end);
		char		c;

		if (t == NULL)
			return false;
		if (at_end)
			return true;
		c = s[i];
		if (c == '(' || c == ')' || c == ',')
		{
			t->kind = c == '(' ? TK_LP : c == ')' ? TK_RP : TK_COMMA;
			i++;
			continue;
		}
		if (c == '\0')
		{
			fail(p, "a NUL byte");
			return false;
		}
		t->kind = TK_WORD;
		{
			size_t		start = i;

			while (i < p->len && !is_space(s[i]) && s[i] != '(' && s[i] != ')' &&
				   s[i] != ',' && s[i] != '\0')
				i++;
			t->n = i - start;
		}
	}
}

/* single space before the token */
static bool
ws1(const Tok *t)
{
	return t->ws == 1 && !t->ws_odd;
}

/* words of Catalyst's infix operators and keywords: never literal text */
static int
ts_opword(const Tok *t)
{
	static const struct
	{
		const char *w;
		int			code;
	}			words[] =
	{
		{"=", 1}, {"<=>", 2}, {"<", 3}, {"<=", 4}, {">", 5}, {">=", 6},
		{"AND", 7}, {"OR", 8}, {"%", 9}, {"+", 10}, {"-", 10}, {"*", 10},
		{"/", 10}, {"&", 10}, {"|", 10}, {"^", 10}, {"||", 10}, {"!=", 11},
		{"<>", 11}, {"==", 11}, {"NOT", 12}, {"IN", 12}, {"LIKE", 12},
		{"RLIKE", 12}, {"ILIKE", 12}, {"ESCAPE", 12}, {"INSET", 12},
		{"IS", 12}, {"BETWEEN", 12}
	};
	size_t		k;

	if (t->kind != TK_WORD)
		return 0;
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (tok_is(t, words[k].w))
			return words[k].code;
	return 0;
}

/*
 * A word that can be (part of) an unquoted literal: letters, digits,
 * _ . : + @ / % - and non-ASCII bytes, and not an operator or keyword.
 */
static bool
ts_litword(const Tok *t)
{
	size_t		k;

	if (t->kind != TK_WORD || t->n == 0 || ts_opword(t) != 0)
		return false;
	for (k = 0; k < t->n; k++)
	{
		unsigned char c = (unsigned char) t->p[k];

		if (!(is_alpha((char) c) || is_digit((char) c) || c >= 0x80 ||
			  strchr("_.:+@/%-", (char) c) != NULL))
			return false;
	}
	return true;
}

static bool
ts_namechars(const char *s, size_t n)
{
	size_t		k;

	if (n == 0)
		return false;
	for (k = 0; k < n; k++)
		if (!is_alpha(s[k]) && !is_digit(s[k]))
			return false;
	return true;
}

/*
 * A toString attribute: name#id[L][.field...], or 'name[.field...] (an
 * unresolved one).  NULL with no error: not an attribute.
 */
static SpNode *
ts_attr(P *p, const Tok *t)
{
	const char *s = t->p;
	size_t		n = t->n;
	size_t		i = 0;
	size_t		namelen;
	char	   *parts[64];
	char	  **pv;
	int			np = 0;
	long long	id = 0;
	bool		is_long = false;
	bool		unresolved = false;
	SpNode	   *x;

	if (n > 0 && s[0] == '\'')
	{
		unresolved = true;
		i = 1;
	}
	while (i < n && (is_alpha(s[i]) || is_digit(s[i])))
		i++;
	namelen = i - (unresolved ? 1 : 0);
	if (!ts_namechars(s + (unresolved ? 1 : 0), namelen))
		return NULL;
	parts[np] = p_strndup(p, s + (unresolved ? 1 : 0), namelen);
	if (parts[np] == NULL)
		return NULL;
	np++;
	if (!unresolved)
	{
		size_t		d = 0;

		if (i >= n || s[i] != '#')
			return NULL;
		i++;
		while (i < n && is_digit(s[i]) && d < 18)
		{
			id = id * 10 + (s[i] - '0');
			i++;
			d++;
		}
		if (d == 0 || (i < n && is_digit(s[i])))
			return NULL;
		if (i < n && s[i] == 'L')
		{
			is_long = true;
			i++;
		}
	}
	while (i < n)
	{
		size_t		st;

		if (s[i] != '.' || np == 64)
			return NULL;
		st = ++i;
		while (i < n && (is_alpha(s[i]) || is_digit(s[i])))
			i++;
		if (!ts_namechars(s + st, i - st))
			return NULL;
		parts[np] = p_strndup(p, s + st, i - st);
		if (parts[np] == NULL)
			return NULL;
		np++;
	}
	pv = p_alloc(p, sizeof(char *) * (size_t) np);
	if (pv == NULL)
		return NULL;
	memcpy(pv, parts, sizeof(char *) * (size_t) np);
	x = mk_col(p, pv, np);
	if (x == NULL)
		return NULL;
	if (!unresolved)
	{
		x->name.ts_attr = true;
		x->name.ts_long = is_long && np == 1;
		x->name.struct_path = true;
		if (is_long && np > 1)
			return NULL;		/* a struct has no L */
		note_expr_id(p, parts[0], strlen(parts[0]), id);
	}
	else if (np > 1)
		x->name.struct_path = false;
	return x;
}

enum
{
	TSC_PLAIN = 0,				/* literal runs end at ) , and keywords */
	TSC_CAST					/* ... and at "as" */
};

static SpNode *ts_expr(P *p, int ctx);

/* A run of literal words separated by single spaces. */
static SpNode *
ts_literal(P *p, int ctx)
{
	Tok		   *first = cur(p);
	Tok		   *last = first;

	if (!ts_litword(first))
		return fail(p, "an operand that is neither an attribute nor a readable literal");
	advance(p);
	while (ts_litword(cur(p)) && ws1(cur(p)) &&
		   !(ctx == TSC_CAST && tok_is(cur(p), "as")) &&
		   peek(p, 1)->kind != TK_LP)
	{
		last = cur(p);
		advance(p);
	}
	return mk_lit(p, SL_BARE, first->p, (size_t) (last->p - first->p) + last->n);
}

/* name(arg, arg) after the name; cur is '(' */
static bool
ts_args(P *p, NodeList *args)
{
	advance(p);					/* ( */
	if (cur(p)->kind == TK_RP && cur(p)->ws == 0)
	{
		advance(p);
		return true;
	}
	for (;;)
	{
		Tok		   *t = cur(p);

		if (t->ws != (args->n == 0 ? 0 : 1) || t->ws_odd)
		{
			fail(p, "unexpected spacing in a function call");
			return false;
		}
		if (!nl_add(p, args, ts_expr(p, TSC_PLAIN)))
			return false;
		t = cur(p);
		if (t->ws != 0)
		{
			fail(p, "unexpected spacing in a function call");
			return false;
		}
		if (t->kind == TK_COMMA)
		{
			advance(p);
			continue;
		}
		if (t->kind != TK_RP)
		{
			fail(p, "a function call not closed");
			return false;
		}
		advance(p);
		return true;
	}
}

static SpNode *
ts_atom(P *p, int ctx)
{
	Tok		   *t = cur(p);
	SpNode	   *x;

	if (t->kind != TK_WORD)
		return fail(p, "an operand expected");
	if (peek(p, 1)->kind == TK_LP && peek(p, 1)->ws == 0 && ts_namechars(t->p, t->n))
	{
		NodeList	args = {0};

		if (tok_is(t, "cast"))
		{
			SpTypeSpec ts;
			SpNode	   *e;

			advance(p);
			advance(p);
			if (cur(p)->ws != 0)
				return fail(p, "unexpected spacing in a cast");
			e = ts_expr(p, TSC_CAST);
			if (e == NULL)
				return NULL;
			if (!tok_is(cur(p), "as") || !ws1(cur(p)))
				return fail(p, "cast without as");
			advance(p);
			if (!ws1(cur(p)) || !parse_type(p, &ts, true))
				return fail(p, "cast to something that is not a type");
			if (cur(p)->kind != TK_RP || cur(p)->ws != 0)
				return fail(p, "cast not closed");
			advance(p);
			x = mk(p, SN_CAST);
			if (x == NULL)
				return NULL;
			x->a = e;
			x->to = ts;
			x->has_col = e->has_col;
			return x;
		}
		advance(p);
		if (!ts_args(p, &args))
			return NULL;
		if ((tok_is(t, "isnull") || tok_is(t, "isnotnull")) && args.n == 1)
		{
			x = mk(p, SN_ISNULL);
			if (x)
			{
				x->a = args.items[0];
				x->negated = tok_is(t, "isnotnull");
				x->has_col = x->a->has_col;
			}
			return x;
		}
		if (args.n == 2 && (tok_is(t, "startswith") || tok_is(t, "endswith") ||
							tok_is(t, "contains")))
			return mk2(p, SN_STRFN,
					   tok_is(t, "endswith") ? SP_STR_ENDS :
					   tok_is(t, "contains") ? SP_STR_CONTAINS : SP_STR_STARTS,
					   args.items[0], args.items[1]);
		return mk_other(p, "a function the translation does not know", any_col(&args));
	}
	if (memchr(t->p, '#', t->n) != NULL || t->p[0] == '\'')
	{
		x = ts_attr(p, t);
		if (x == NULL)
			return p->oom ? NULL : fail(p, "a word with '#' or a quote that is not an attribute");
		advance(p);
		/* listquery#12 [], exists#3 [x#1]: a subquery and its outer references */
		if (cur(p)->n > 0 && cur(p)->p[0] == '[')
			return fail(p, "a subquery");
		return x;
	}
	return ts_literal(p, ctx);
}

/*
 * NOT x IN (...) is NOT (x IN (...)) unless x IN could be (NOT x) IN: an
 * IN list of booleans (items true or false, or nothing but null).
 */
static bool
in_may_be_boolean(const SpNode *in)
{
	int			k;
	bool		all_null = true;

	for (k = 0; k < in->nitems; k++)
	{
		const SpNode *it = in->items[k];
		bool		is_lit = it->kind == SN_LIT && it->lit.kind == SL_BARE;

		if (is_lit && (sp_eq_ci(it->lit.text, it->lit.len, "true") ||
					   sp_eq_ci(it->lit.text, it->lit.len, "false")))
			return true;
		if (!(is_lit && sp_eq_ci(it->lit.text, it->lit.len, "null")))
			all_null = false;
	}
	return all_null;
}

/* "(" left op right ")" */
static SpNode *
ts_binop(P *p)
{
	SpNode	   *l;
	SpNode	   *r;
	Tok		   *op;
	int			code;

	advance(p);					/* ( */
	if (cur(p)->ws != 0)
		return fail(p, "unexpected spacing after a parenthesis");
	l = ts_expr(p, TSC_PLAIN);
	if (l == NULL)
		return NULL;
	op = cur(p);
	code = ts_opword(op);
	if (!ws1(op) || code == 0 || code >= 11)
		return fail(p, "a binary operator expected");
	advance(p);
	if (!ws1(cur(p)))
		return fail(p, "unexpected spacing after an operator");
	r = ts_expr(p, TSC_PLAIN);
	if (r == NULL)
		return NULL;
	if (cur(p)->kind != TK_RP || cur(p)->ws != 0)
		return fail(p, "a parenthesis not closed where toString closes it");
	advance(p);
	switch (code)
	{
		case 1:
			return mk2(p, SN_CMP, SP_OP_EQ, l, r);
		case 2:
			return mk2(p, SN_CMP, SP_OP_NSEQ, l, r);
		case 3:
			return mk2(p, SN_CMP, SP_OP_LT, l, r);
		case 4:
			return mk2(p, SN_CMP, SP_OP_LE, l, r);
		case 5:
			return mk2(p, SN_CMP, SP_OP_GT, l, r);
		case 6:
			return mk2(p, SN_CMP, SP_OP_GE, l, r);
		case 7:
			return mk2(p, SN_AND, 0, l, r);
		case 8:
			return mk2(p, SN_OR, 0, l, r);
		case 9:
			return mk2(p, SN_MOD, 0, l, r);
		default:
			return mk_other(p, "arithmetic", l->has_col || r->has_col);
	}
}

static SpNode *
ts_expr(P *p, int ctx)
{
	Tok		   *t = cur(p);
	SpNode	   *x;

	if (++p->depth > SP_MAX_DEPTH)
		return fail(p, "nested too deeply");
	if (tok_is(t, "NOT"))
	{
		advance(p);
		if (!ws1(cur(p)))
			return fail(p, "unexpected spacing after NOT");
		x = ts_expr(p, ctx);
		if (x && x->kind == SN_IN && in_may_be_boolean(x))
			x = mk_other(p, "NOT before a boolean IN list (which operand NOT applies to is ambiguous)", x->has_col);
		else
			x = mk_not(p, x);
	}
	else
	{
		x = t->kind == TK_LP ? ts_binop(p) : ts_atom(p, ctx);
		if (x && tok_is(cur(p), "IN") && ws1(cur(p)))
		{
			NodeList	items = {0};

			advance(p);
			if (cur(p)->kind != TK_LP || !ws1(cur(p)))
				return fail(p, "IN without a list");
			advance(p);
			for (;;)
			{
				if (cur(p)->ws != 0)
					return fail(p, "unexpected spacing in an IN list");
				if (!nl_add(p, &items, ts_expr(p, TSC_PLAIN)))
					return NULL;
				if (cur(p)->ws != 0)
					return fail(p, "unexpected spacing in an IN list");
				if (cur(p)->kind == TK_COMMA)
				{
					advance(p);
					continue;
				}
				if (cur(p)->kind != TK_RP)
					return fail(p, "an IN list not closed");
				advance(p);
				break;
			}
			x = mk_in(p, x, &items, false);
		}
		else if (x && tok_is(cur(p), "LIKE") && ws1(cur(p)))
		{
			advance(p);
			if (!ws1(cur(p)))
				return fail(p, "unexpected spacing after LIKE");
			x = mk2(p, SN_LIKE, 0, x, ts_atom(p, ctx));
			if (x && tok_is(cur(p), "ESCAPE"))
				return fail(p, "LIKE with ESCAPE");
		}
	}
	p->depth--;
	return x;
}

/* ---------- entry ---------- */

static void
reset(P *p)
{
	p->err = NULL;
	p->two_rel = false;
	p->ids->n = p->nids_start;
	p->depth = 0;
	p->i = 0;
}

/* Parse as SQL text in form (lexed already). */
static SpNode *
parse_sql_tokens(P *p)
{
	SpNode	   *root = sql_expr(p);

	if (root && cur(p)->kind != TK_EOF)
		return fail(p, "text after the end of the predicate");
	return root;
}

bool
sp_parse(const char *text, size_t len, SpDialect dialect,
		 const FmtAllocator *alloc, SpExprIds *ids, SpParsed *out)
{
	P			p;
	SpNode	   *root = NULL;
	const char *sql_err = NULL;
	bool		spark;
	bool		df;
	bool		adjacent;
	bool		backslash;

	memset(&p, 0, sizeof(p));
	memset(out, 0, sizeof(*out));
	p.a = alloc;
	p.s = text;
	p.len = len;
	p.ids = ids;
	p.nids_start = ids->n;

	/* 1. SQL text */
	p.form = dialect == SP_DIALECT_DELTA_RS ? SP_FORM_DF : SP_FORM_SPARK;
	if (dialect != SP_DIALECT_AUTO)
		(void) lex_sql(&p, p.form == SP_FORM_DF);
	else if (lex_sql(&p, false))
	{
		sql_markers(&p, &spark, &df, &adjacent, &backslash);
		if (spark && df)
			fail(&p, "markers of both Spark and delta-rs");
		else if (df)
		{
			p.form = SP_FORM_DF;
			(void) lex_sql(&p, true);
		}
		else if (!spark && adjacent)
			fail(&p, "string quoting that Spark and delta-rs read differently");
		else if (!spark && backslash)
		{
			/*
			 * Spark's backslash escapes tokenize it; if delta-rs's quoting
			 * (backslash ordinary, quotes doubled) tokenizes it too, the
			 * writer decides what it says.
			 */
			if (lex_sql(&p, true))
				fail(&p, "string quoting that Spark and delta-rs read differently");
			else
			{
				p.err = NULL;
				(void) lex_sql(&p, false);
			}
		}
		else if (!spark)
			p.form = SP_FORM_AMBIG;
	}
	else if (!p.oom)
	{
		/* not Spark's quoting: delta-rs's, when that tokenizes it */
		p.err = NULL;
		if (lex_sql(&p, true))
		{
			sql_markers(&p, &spark, &df, &adjacent, &backslash);
			if (spark)
				fail(&p, "markers of Spark in text only delta-rs's quoting reads");
			p.form = SP_FORM_DF;
		}
	}
	if (!failed(&p))
		root = parse_sql_tokens(&p);
	if (p.oom)
		return false;
	if (root != NULL)
	{
		out->root = root;
		out->form = p.form;
		out->two_relations = p.two_rel;
		return true;
	}
	sql_err = p.err;

	/* 2. Spark's toString */
	if (dialect != SP_DIALECT_DELTA_RS)
	{
		reset(&p);
		p.form = SP_FORM_TS;
		if (lex_ts(&p))
		{
			root = ts_expr(&p, TSC_PLAIN);
			if (root && cur(&p)->kind != TK_EOF)
				root = fail(&p, "text after the end of the predicate");
		}
		if (p.oom)
			return false;
		if (root != NULL)
		{
			out->root = root;
			out->form = SP_FORM_TS;
			out->two_relations = p.two_rel;
			return true;
		}
	}
	out->error = memchr(text, '#', len) != NULL || sql_err == NULL ? p.err : sql_err;
	if (out->error == NULL)
		out->error = "it does not parse";
	return true;
}
