/*-------------------------------------------------------------------------
 *
 * addline.c
 *	  Add lines of a Delta log decoded without a parse tree (see addline.h):
 *	  the general fast decoder, the line shapes of a repeated layout, and the
 *	  proof that a line read only to be skipped is one file action.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/addline.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "common/fastpath.h"
#include "common/json_util.h"
#include "format/jshape.h"
#include "format/jstr.h"
#include "log/actions.h"
#include "log/fastline.h"
#include "log/log_reader.h"
#include "snapshot/addline.h"
#include "stats/stats.h"

/* ---------------------------------------------------------------------
 * The subset
 *
 * A line is decoded (or skipped) here only when it is valid JSON of a
 * conservative subset: strings as djson takes them (keys the decoder
 * compares plain ASCII), numbers in JSON syntax, nesting at most
 * FL_MAX_DEPTH (src/fastline.c).  An add line {"add":{"path":...,
 * "partitionValues":{...},"size":N,"modificationTime":N,"dataChange":b,
 * "stats":"...","tags":{...}}} is decoded straight from the text when it
 * is provably what DeltaDecodeAction(DELTA_DECODE_ROW) would decode
 * without an error: no duplicate of a key decode_file reads, path and
 * partition values strings (decoded as djson decodes them; values may be
 * null; partition keys plain ASCII), size and
 * modificationTime plain integers (size not negative), dataChange a
 * boolean, stats a string, deletion vector null or a descriptor
 * (fl_deletion_vector),
 * baseRowId / defaultRowCommitVersion plain integers if present; other
 * keys (tags included, which DELTA_DECODE_ROW does not keep) are only
 * validated.  A line read only to be skipped must be a JSON object whose
 * only key is add, remove or cdc (its fields are not checked).  Any other
 * line is the caller's to parse and decode.  Assert-enabled builds decode
 * every fast line the slow way too and compare.
 * ---------------------------------------------------------------------
 */

static bool line_shape_skip(const char *line, Size len);
static bool line_shape_want(void);
static void line_shape_learn_line(const char *line, Size len);

/*
 * skip_line_generic: the index in keys (add, remove, cdc) of the one
 * action the line provably is, or -1.
 */
static int
skip_line_generic(const char *line, Size len)
{
	const char *p = line;
	const char *end = line + len;
	static const char *const keys[] = {"\"add\"", "\"remove\"", "\"cdc\""};
	int			i;

	p = fl_skip_ws(p, end);
	if (p >= end || *p != '{')
		return -1;
	p = fl_skip_ws(p + 1, end);
	for (i = 0; i < lengthof(keys); i++)
	{
		size_t		kl = strlen(keys[i]);

		if ((size_t) (end - p) >= kl && memcmp(p, keys[i], kl) == 0)
			break;
	}
	if (i == lengthof(keys))
		return -1;
	p += strlen(keys[i]);
	if (!fl_colon(&p, end) || !fl_skip_value(&p, end, 1))
		return -1;
	p = fl_skip_ws(p, end);
	if (p >= end || *p != '}')
		return -1;
	p = fl_skip_ws(p + 1, end);
	return p == end ? i : -1;
}

/*
 * line_is_add: the line starts as an add action does ('{', "add"), so
 * that a fast path declining it counts a miss (fastpath.h); nothing else
 * is checked.
 */
static bool
line_is_add(const char *line, Size len)
{
	const char *end = line + len;
	const char *p = fl_skip_ws(line, end);

	if (p >= end || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	return end - p >= 5 && memcmp(p, "\"add\"", 5) == 0;
}

/*
 * addline_skip_file_action: see addline.h.  An add line of the current
 * line shapes (see below), else skip_line_generic (and the shapes are
 * made from an add line they did not take).  Assert-enabled builds check
 * a shaped line the generic way too.
 */
bool
addline_skip_file_action(const char *line, Size len)
{
	int			kind;

	fl_init();
	if (line_shape_skip(line, len))
	{
		Assert(skip_line_generic(line, len) == 0);
		dc_fastpath_note(DC_FP_ADDLINE_SHAPE, true);
		return true;
	}
	kind = skip_line_generic(line, len);
	if (kind == 0 || (kind < 0 && line_is_add(line, len)))
	{
		dc_fastpath_note(DC_FP_ADDLINE_SHAPE, false);
		dc_fastpath_note(DC_FP_ADDLINE_SCAN, kind == 0);
	}
	if (kind == 0 && line_shape_want())
		line_shape_learn_line(line, len);
	return kind >= 0;
}

/*
 * Statistics up to this long decode straight into the commit's string
 * arena (where DeltaArenaStrndup would copy them), longer ones into ubuf
 * and then by DeltaArenaStrndup.
 */
#define FAST_INPLACE_MAX (16 * 1024)

/*
 * stats_dest: room for a decoded stats string of fewer than need bytes
 * plus its NUL (need: the rest of the line from the opening quote), also
 * left in r->stats_at.  In the arena the bytes stay unclaimed (the next
 * arena copy would overwrite them) until fast_build keeps them.
 */
static char *
stats_dest(AddLineDecoder *r, Size need)
{
	DeltaStrArena *a = &r->b.strings;

	if (need + 1 <= FAST_INPLACE_MAX)
	{
		DeltaArenaReserve(a, need + 1);
		r->stats_at = a->next;
	}
	else
	{
		if (r->ucap < need + 1)
		{
			r->ucap = Max(need + 1, 2 * r->ucap);
			if (r->ubuf)
				pfree(r->ubuf);
			r->ubuf = MemoryContextAllocHuge(r->b.cxt, r->ucap);
		}
		r->stats_at = r->ubuf;
	}
	return r->stats_at;
}

/*
 * What addline_decode takes from an add line before building the action: where
 * the strings are (in the line, or the stats in the arena / a match) and
 * where the model line's tokens were (for the line shapes below).
 */
typedef struct FastFields
{
	const char *stats;			/* decoded text (stats_dest), or NULL */
	int			stats_len;
	const char *stats_esc;		/* an escaped match's text, or NULL */
	bool		stats_null;
	const char *path;
	int			path_len;
	bool		path_esc;		/* path: a string body with escapes or
								 * UTF-8 (path_len bytes to its close) */
	int			npv;
	const char *pvk[16];
	int			pvkl[16];
	const char *pvv[16];		/* NULL: JSON null */
	int			pvvl[16];
	bool		pvv_esc[16];	/* as path_esc */
	bool		has_dv;			/* a deletion vector descriptor: dv */
	FlDeletionVector dv;
	/* the generic parse's token positions (line_shape_learn) */
	const char *stats_start;	/* the stats value's first byte */
	const char *stats_end;		/* the byte after it */
	const char *at_size;
	const char *at_mtime;
	const char *at_dc;
	const char *at_dv;			/* a null deletionVector */
	const char *at_base;
	const char *at_drcv;
	const char *at_pv[16];		/* each partition value's first byte */
	const char *tags;			/* the tags value (NULL: none) */
	Size		tags_len;
} FastFields;

/*
 * fast_stats: the "stats" value at *pp (a string or null) into ff: the
 * prescan's match, an escaped match (r->esc_stats), or the text unescaped
 * into stats_dest; *pp moves past it.  False: not provable.
 */
static bool
fast_stats(AddLineDecoder *r, const char **pp, const char *end, FastFields *ff)
{
	const char *p = *pp;
	const char *after;

	if (p >= end)
		return false;
	ff->stats_start = p;
	if (r->esc_stats && dc_json_stats_match_escaped(p, end, &after))
	{
		ff->stats_esc = p + 1;	/* the text: after the opening quote */
		p = after;
	}
	else if (*p == '"')
	{
		/* (8 bytes of slack for the prescan's copies) */
		char	   *dest = stats_dest(r, end - p + 8);

		if (r->ps != NULL && r->defer &&
			delta_stats_prescan_string(r->ps, r->ps_index, p, end, NULL,
									   NULL, &after, r->b.cxt))
		{
			/* valid; the text is kept only if some answer is missing */
			if (delta_stats_prescan_ok(r->ps, r->ps_index))
				r->deferred = true;
			else if (!fl_unescape_string(&p, end, dest, &ff->stats_len) ||
					 p != after)
				return false;	/* cannot happen: the same string */
			p = after;
		}
		else if (r->ps != NULL && !r->defer &&
				 delta_stats_prescan_string(r->ps, r->ps_index, p, end,
											dest, &ff->stats_len, &after,
											r->b.cxt))
			p = after;
		else if (!fl_unescape_string(&p, end, dest, &ff->stats_len))
			return false;
		ff->stats = r->deferred ? NULL : r->stats_at;
	}
	else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
	{
		ff->stats_null = true;
		p += 4;
	}
	else
		return false;
	ff->stats_end = p;
	*pp = p;
	return true;
}

/*
 * arena_string: a string of the line in the arena, NUL-terminated: its
 * bytes s[0 .. len), or when esc the characters of the string body
 * s[0 .. len) (jstr_decode; s + len is its closing quote).
 */
static char *
arena_string(DeltaStrArena *a, const char *s, int len, bool esc)
{
	char		local[256];
	char	   *tmp;
	char	   *r;
	size_t		n;

	if (!esc)
		return DeltaArenaStrndup(a, s, len);
	tmp = len <= (int) sizeof(local) ? local : palloc(len);
	n = jstr_decode(s, s + len, JS_PLAIN, tmp);
	r = DeltaArenaStrndup(a, tmp, n);
	if (tmp != local)
		pfree(tmp);
	return r;
}

/*
 * line_string: the string at *pp (its opening quote), as djson takes it:
 * *s / *len its body up to the closing quote, *esc whether that body
 * holds escapes or UTF-8 (then arena_string decodes it); *pp moves past
 * it.  False: not a valid string.
 */
static pg_attribute_always_inline bool
line_string(const char **pp, const char *end, const char **s, int *len,
			bool *esc)
{
	const char *close;

	if (fl_plain_string(pp, end, s, len))
	{
		*esc = false;
		return true;
	}
	close = jstr_end(*pp + 1, end, JS_PLAIN, NULL);
	if (close == NULL || close - *pp > PG_INT32_MAX)
		return false;
	*s = *pp + 1;
	*len = (int) (close - *s);
	*esc = true;
	*pp = close + 1;
	return true;
}

/*
 * fast_partition_values: the partitionValues object at *pp into ff (keys
 * plain ASCII, values strings or null, at most lengthof(ff->pvk) of
 * them); *pp moves past it.  False: not provable.
 */
static bool
fast_partition_values(const char **pp, const char *end, FastFields *ff)
{
	const char *p = *pp;
	bool		closed;

	if (p >= end || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	if (p < end && *p == '}')
	{
		*pp = p + 1;
		return true;
	}
	for (;;)
	{
		int			n = ff->npv;

		if (n == lengthof(ff->pvk))
			return false;
		p = fl_skip_ws(p, end);
		if (p >= end || *p != '"' ||
			!fl_plain_string(&p, end, &ff->pvk[n], &ff->pvkl[n]) ||
			!fl_colon(&p, end))
			return false;
		ff->at_pv[n] = p;
		if (*p == '"')
		{
			if (!line_string(&p, end, &ff->pvv[n], &ff->pvvl[n],
							 &ff->pvv_esc[n]))
				return false;
		}
		else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
		{
			ff->pvv[n] = NULL;
			p += 4;
		}
		else
			return false;
		ff->npv++;
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	*pp = p;
	return true;
}

/*
 * fast_build_strings: fa's partition values, path and deletion vector
 * from ff, copied to b's arena (add and remove lines alike).
 */
static void
fast_build_strings(DeltaCommitBuilder *b, const FastFields *ff,
				   DeltaFileAction *fa)
{
	int			k;

	fa->pv.n = ff->npv;
	if (ff->npv > 0)
	{
		fa->pv.keys = MemoryContextAlloc(b->cxt, sizeof(char *) * ff->npv);
		fa->pv.values = MemoryContextAlloc(b->cxt, sizeof(char *) * ff->npv);
		for (k = 0; k < ff->npv; k++)
		{
			fa->pv.keys[k] = DeltaArenaStrndup(&b->strings, ff->pvk[k],
											   ff->pvkl[k]);
			fa->pv.values[k] = ff->pvv[k] ?
				arena_string(&b->strings, ff->pvv[k], ff->pvvl[k],
							 ff->pvv_esc[k]) : NULL;
		}
	}
	fa->path = arena_string(&b->strings, ff->path, ff->path_len, ff->path_esc);
	if (ff->has_dv)
	{
		DeltaDV    *dv = MemoryContextAllocZero(b->cxt, sizeof(DeltaDV));

		dv->storage_type = ff->dv.storage_type;
		dv->path_or_inline = arena_string(&b->strings, ff->dv.path,
										  ff->dv.path_len, ff->dv.path_esc);
		dv->has_offset = ff->dv.has_offset;
		dv->offset = ff->dv.offset;
		dv->size_in_bytes = ff->dv.size_in_bytes;
		dv->cardinality = ff->dv.cardinality;
		DeltaDVSetUniqueId(b, dv);
		fa->dv = dv;
	}
}

/*
 * fast_build: the action from ff (fa's scalar fields already set), its
 * strings copied to b's arena.
 */
static void
fast_build(AddLineDecoder *r, FastFields *ff, DeltaFileAction *fa)
{
	DeltaCommitBuilder *b = &r->b;

	fa->kind = DELTA_FILE_ADD;
	fa->version = b->version;
	fa->tight_bounds = -1;
	if (ff->stats_esc != NULL)
	{
		fa->stats = unconstify(char *, ff->stats_esc);
		fa->stats_escaped = true;
	}
	/* first: the stats may lie unclaimed at the arena's next byte */
	if (ff->stats != NULL && !ff->stats_null)
	{
		if (ff->stats == b->strings.next)
		{
			/* decoded in place: keep it (NUL-terminated) */
			char	   *kept = b->strings.next;

			kept[ff->stats_len] = '\0';
			b->strings.next += ff->stats_len + 1;
			b->strings.left -= ff->stats_len + 1;
			fa->stats = kept;
		}
		else
			fa->stats = DeltaArenaStrndup(&b->strings, ff->stats,
										  ff->stats_len);
	}
	fast_build_strings(b, ff, fa);
}

/*
 * fast_add_generic: decode one add line of the common shape into *fa and
 * ff (fast_build makes the action); false (nothing usable in *fa) when
 * the line is not provably of that shape.
 */
static bool
fast_add_generic(AddLineDecoder *r, const char *line, Size len,
				 DeltaFileAction *fa, FastFields *ff)
{
	const char *p = line;
	const char *end = line + len;
	unsigned	seen = 0;
	bool		closed;

	p = fl_skip_ws(p, end);
	if (end - p < 7 || memcmp(p, "{\"add\"", 6) != 0)
		return false;
	p += 6;
	if (!fl_colon(&p, end) || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	if (p < end && *p == '}')
		return false;			/* no fields: let decode_file complain */
	for (;;)
	{
		const char *key;
		int			kl;

		if (!fl_member_key(&p, end, &key, &kl))
			return false;
		if (FL_KEY("path"))
		{
			FL_ONCE(1);
			if (*p != '"' || !line_string(&p, end, &ff->path, &ff->path_len,
										  &ff->path_esc) ||
				ff->path_len == 0)
				return false;
		}
		else if (FL_KEY("partitionValues"))
		{
			FL_ONCE(2);
			if (!fast_partition_values(&p, end, ff))
				return false;
		}
		else if (FL_KEY("size"))
		{
			FL_ONCE(4);
			ff->at_size = p;
			if (!fl_plain_int(&p, end, &fa->size) || fa->size < 0)
				return false;
			fa->has_size = true;
		}
		else if (FL_KEY("modificationTime"))
		{
			FL_ONCE(8);
			ff->at_mtime = p;
			if (!fl_plain_int(&p, end, &fa->modification_time))
				return false;
			fa->has_modification_time = true;
		}
		else if (FL_KEY("dataChange"))
		{
			FL_ONCE(16);
			ff->at_dc = p;
			if (end - p >= 4 && memcmp(p, "true", 4) == 0)
			{
				fa->data_change = true;
				p += 4;
			}
			else if (end - p >= 5 && memcmp(p, "false", 5) == 0)
			{
				fa->data_change = false;
				p += 5;
			}
			else
				return false;
		}
		else if (FL_KEY("stats"))
		{
			FL_ONCE(32);
			if (!fast_stats(r, &p, end, ff))
				return false;
		}
		else if (FL_KEY("deletionVector"))
		{
			FL_ONCE(64);
			if (end - p >= 4 && memcmp(p, "null", 4) == 0)
			{
				ff->at_dv = p;
				p += 4;
			}
			else if (fl_deletion_vector(&p, end, &ff->dv))
				ff->has_dv = true;
			else
				return false;
		}
		else if (FL_KEY("baseRowId") || FL_KEY("defaultRowCommitVersion"))
		{
			bool		base = FL_KEY("baseRowId");
			int64		v;

			FL_ONCE(base ? 128 : 256);
			if (base)
				ff->at_base = p;
			else
				ff->at_drcv = p;
			if (end - p >= 4 && memcmp(p, "null", 4) == 0)
				p += 4;
			else
			{
				if (!fl_plain_int(&p, end, &v))
					return false;
				if (base)
				{
					fa->has_base_row_id = true;
					fa->base_row_id = v;
				}
				else
				{
					fa->has_default_row_commit_version = true;
					fa->default_row_commit_version = v;
				}
			}
		}
		else if (FL_KEY("tags"))
		{
			FL_ONCE(512);
			ff->tags = p;
			if (!fl_skip_flat_strings(&p, end) && !fl_skip_value(&p, end, 2))
				return false;
			ff->tags_len = (Size) (p - ff->tags);
		}
		else
		{
			/* a key decode_file does not read: only validated */
			if (!fl_skip_value(&p, end, 2))
				return false;
		}
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	if (!fl_line_closes(p, end) || (seen & 31) != 31)
		return false;			/* trailing data, or a required field missing */
	return true;
}

/* ---------------------------------------------------------------------
 * Line shapes of add lines
 *
 * A writer repeats one add line layout thousands of times: the same keys
 * in the same order, other values.  The part of the line before the stats
 * value and the part after it are each a JsShape (src/format/jshape.h)
 * made from a model line fast_add_generic decoded; a line whose two parts
 * match them (and whose stats value fast_stats takes, as in the generic
 * parse) has the model's keys in the model's order, none twice, and a
 * value of the same kind in each place, so it is decoded from the slots:
 * each slot has the role the model's token had (path, size, a partition
 * value, ...), and a role's checks are those of the generic parse (a
 * plain integer for size, a boolean for dataChange, null for
 * deletionVector, ...).  A slot of no role (a tag, a key decode_file does
 * not read) is only validated, by the match.  Any line that does not
 * match, or whose slot fails its role's check, goes the generic way; a
 * shape is made from such a line (after each of the first few misses in
 * a row, then every 64th) and kept with those of the last few layouts
 * (LINE_SHAPES_MAX).  Each lives for the backend in its own small context.  Assert-enabled builds check every decoded line against
 * the parse tree (addline_assert_matches_tree).
 * ---------------------------------------------------------------------
 */
typedef enum LineRole
{
	LR_OTHER = 0,
	LR_PATH,
	LR_SIZE,
	LR_MTIME,
	LR_DC,
	LR_DV,
	LR_BASE,
	LR_DRCV,
	LR_DV_TYPE,					/* a deletion vector's fields */
	LR_DV_PATH,
	LR_DV_OFFSET,
	LR_DV_SIZE,
	LR_DV_CARD,
	LR_PV						/* + the partition value's index */
} LineRole;

typedef struct LineShapes
{
	MemoryContext cxt;			/* owns everything below */
	JsShape		pre;			/* the line up to the stats value */
	JsShape		post;			/* the line after it */
	JsSlot	   *pre_slots;
	JsSlot	   *post_slots;
	/* the slots with a role (LineRole, LR_PV + i): index and role */
	int			npre_roles;
	int		   *pre_at;
	uint8	   *pre_role;
	int			npost_roles;
	int		   *post_at;
	uint8	   *post_role;
	int			npv;
	char	  **pvk;			/* the model's partition keys */
	int		   *pvkl;
	bool		has_dv;			/* its lines have a deletion vector */
	/*
	 * Where its lines' tags value is: tags_part 0: they have none; 1 / 2:
	 * in pre / post, from byte tags_d0 of literal tags_p0 to the byte
	 * before byte tags_d1 of literal tags_p1 (an object's braces are
	 * literal bytes), or (tags_slot >= 0) the token of that slot of the
	 * part (the model's tags a word or a number); -1: not known (the
	 * model's tags a string).
	 */
	int			tags_part;
	int			tags_slot;
	int			tags_p0;
	size_t		tags_d0;
	int			tags_p1;
	size_t		tags_d1;
} LineShapes;

#define LINE_SHAPE_EAGER_MISSES 4
#define LINE_SHAPE_RETRY_EVERY 64

/*
 * The shapes of the last few layouts, the one matched last first: a line
 * is tried against each in turn, a shape it matches moves to the front,
 * and a shape made from a line none took goes last (replacing the last
 * one when all places are taken), so that a layout seen once (a line
 * with its keys in a random order) displaces no layout that repeats.
 * Writers change layouts from line to line (tags in either of two orders,
 * lines of another writer in between); a handful of places hold them.
 */
#define LINE_SHAPES_MAX 8

static LineShapes *line_shapes[LINE_SHAPES_MAX];
static int	n_line_shapes = 0;
static int	line_shape_misses = 0;	/* lines in a row not matched */
static char *shaped_path = NULL;	/* addline_shaped_key's decoded paths */
static Size shaped_path_cap = 0;

/* the role of the token at t of the model line (ff: its generic parse) */
static uint8
line_role(const FastFields *ff, const char *t)
{
	int			k;

	if (t == ff->path)
		return LR_PATH;
	if (t == ff->at_size)
		return LR_SIZE;
	if (t == ff->at_mtime)
		return LR_MTIME;
	if (t == ff->at_dc)
		return LR_DC;
	if (t == ff->at_dv)
		return LR_DV;
	if (t == ff->at_base)
		return LR_BASE;
	if (t == ff->at_drcv)
		return LR_DRCV;
	if (ff->has_dv)
	{
		if (t == ff->dv.at_storage_type)
			return LR_DV_TYPE;
		if (t == ff->dv.path)
			return LR_DV_PATH;
		if (t == ff->dv.at_offset)
			return LR_DV_OFFSET;
		if (t == ff->dv.at_size)
			return LR_DV_SIZE;
		if (t == ff->dv.at_cardinality)
			return LR_DV_CARD;
	}
	for (k = 0; k < ff->npv; k++)
		if (t == (ff->pvv[k] != NULL ? ff->pvv[k] : ff->at_pv[k]))
			return LR_PV + k;
	return LR_OTHER;
}

/*
 * line_shape_part: build *shape of model[0 .. len) and the role of each of
 * its slots (model tokens located through ff); false when it cannot be
 * shaped.  In CurrentMemoryContext (the shapes' context).
 */
static bool
line_shape_part(JsShape *shape, JsSlot **slots, int *nroles, int **at,
				uint8 **roles, const char *model, size_t len,
				const FastFields *ff)
{
	FmtAllocator alloc = dc_fmt_allocator(CurrentMemoryContext);
	size_t		consumed;
	int			i;

	if (!js_build(shape, model, len, JS_PLAIN, &alloc))
		return false;
	*slots = palloc(sizeof(JsSlot) * Max(shape->nslots, 1));
	*at = palloc(sizeof(int) * Max(shape->nslots, 1));
	*roles = palloc(sizeof(uint8) * Max(shape->nslots, 1));
	*nroles = 0;
	if (!js_match(shape, model, model + len, *slots, &consumed, NULL, NULL) ||
		consumed != len)
		return false;
	for (i = 0; i < shape->nslots; i++)
	{
		/* (a string slot's token is its content, as ff's pointers) */
		uint8		role = line_role(ff, model + (*slots)[i].off);

		if (role != LR_OTHER)
		{
			(*at)[*nroles] = i;
			(*roles)[*nroles] = role;
			(*nroles)++;
		}
	}
	return true;
}

/*
 * line_roles_complete: every field the model line's generic parse found
 * (ff) is the role of exactly one slot of ls, so that a shaped line
 * decodes each of them from its own token.
 */
static bool
line_roles_complete(const LineShapes *ls, const FastFields *ff)
{
	int			count[LR_PV + lengthof(ff->pvk)];
	int			want[LR_PV + lengthof(ff->pvk)];
	int			i;

	memset(count, 0, sizeof(count));
	memset(want, 0, sizeof(want));
	for (i = 0; i < ls->npre_roles; i++)
		count[ls->pre_role[i]]++;
	for (i = 0; i < ls->npost_roles; i++)
		count[ls->post_role[i]]++;
	want[LR_PATH] = 1;
	want[LR_SIZE] = 1;
	want[LR_MTIME] = 1;
	want[LR_DC] = 1;
	want[LR_DV] = ff->at_dv != NULL;
	want[LR_BASE] = ff->at_base != NULL;
	want[LR_DRCV] = ff->at_drcv != NULL;
	want[LR_DV_TYPE] = want[LR_DV_PATH] = want[LR_DV_SIZE] =
		want[LR_DV_CARD] = ff->has_dv;
	want[LR_DV_OFFSET] = ff->has_dv && ff->dv.at_offset != NULL;
	for (i = 0; i < ff->npv; i++)
		want[LR_PV + i] = 1;
	return memcmp(count, want, sizeof(count)) == 0;
}

/*
 * line_shape_want: count a line the shapes did not take; true when the
 * shapes are to be made again from it (the first few misses in a row,
 * then every LINE_SHAPE_RETRY_EVERY-th).
 */
static bool
line_shape_want(void)
{
	line_shape_misses++;
	return line_shape_misses <= LINE_SHAPE_EAGER_MISSES ||
		line_shape_misses % LINE_SHAPE_RETRY_EVERY == 0;
}

/*
 * line_shape_tags: where ls's lines hold their tags, from the model line
 * (its generic parse ff; ls's two parts already made from it).
 */
static void
line_shape_tags(LineShapes *ls, const char *line, const FastFields *ff)
{
	const JsShape *part;
	size_t		off;

	ls->tags_part = -1;
	if (ff->tags == NULL)
	{
		ls->tags_part = 0;
		return;
	}
	if (ff->tags < ff->stats_start)
	{
		part = &ls->pre;
		off = ff->tags - line;
	}
	else
	{
		part = &ls->post;
		off = ff->tags - ff->stats_end;
	}
	ls->tags_slot = -1;
	if (*ff->tags != '{' && *ff->tags != '[')
	{
		/* a scalar: a slot's token, unless a string (quotes around it) */
		if (*ff->tags != '"' && (ls->tags_slot = js_slot_at(part, off)) >= 0)
			ls->tags_part = part == &ls->pre ? 1 : 2;
		return;
	}
	if (js_literal_at(part, off, &ls->tags_p0, &ls->tags_d0) &&
		js_literal_at(part, off + ff->tags_len - 1, &ls->tags_p1,
					  &ls->tags_d1))
	{
		ls->tags_d1++;
		ls->tags_part = part == &ls->pre ? 1 : 2;
	}
}

/*
 * line_shape_learn: make the line shapes from a line fast_add_generic
 * just decoded into ff (the current ones stay when it cannot be shaped).
 */
static void
line_shape_learn(const char *line, Size len, const FastFields *ff)
{
	MemoryContext cxt;
	MemoryContext old;
	LineShapes *fresh;
	bool		ok = false;
	int			k;

	if (ff->stats_start == NULL)
		return;
	/* (made under the current context, which an ERROR leaves it to) */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc add line shapes",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	fresh = palloc0(sizeof(LineShapes));
	fresh->cxt = cxt;
	if (line_shape_part(&fresh->pre, &fresh->pre_slots, &fresh->npre_roles,
						&fresh->pre_at, &fresh->pre_role,
						line, ff->stats_start - line, ff) &&
		line_shape_part(&fresh->post, &fresh->post_slots, &fresh->npost_roles,
						&fresh->post_at, &fresh->post_role,
						ff->stats_end, (line + len) - ff->stats_end, ff))
	{
		fresh->npv = ff->npv;
		fresh->has_dv = ff->has_dv;
		fresh->pvk = palloc(sizeof(char *) * Max(ff->npv, 1));
		fresh->pvkl = palloc(sizeof(int) * Max(ff->npv, 1));
		for (k = 0; k < ff->npv; k++)
		{
			fresh->pvk[k] = pnstrdup(ff->pvk[k], ff->pvkl[k]);
			fresh->pvkl[k] = ff->pvkl[k];
		}
		ok = line_roles_complete(fresh, ff);
		line_shape_tags(fresh, line, ff);
	}
	MemoryContextSwitchTo(old);
	if (!ok)
	{
		MemoryContextDelete(cxt);
		return;
	}
	MemoryContextSetParent(cxt, TopMemoryContext);
	if (n_line_shapes == LINE_SHAPES_MAX)
	{
		/* the last place: a shape made last and matched since by no line */
		MemoryContextDelete(line_shapes[LINE_SHAPES_MAX - 1]->cxt);
		n_line_shapes--;
	}
	line_shapes[n_line_shapes++] = fresh;
}

/*
 * line_slot_int: the number token t[0 .. len) (valid JSON, a slot's) as
 * fl_plain_int takes it: an integer of at most 18 digits without fraction
 * or exponent (JSON's grammar already refuses leading zeros).
 */
static pg_attribute_always_inline bool
line_slot_int(const char *t, size_t len, int64 *out)
{
	bool		neg = (*t == '-');
	size_t		i = neg ? 1 : 0;
	uint64		v;

	/* (a number token's: false for a fraction or an exponent) */
	if (!dj_number_token_int(t + i, len - i, &v))
		return false;
	*out = neg ? -(int64) v : (int64) v;
	return true;
}

/*
 * line_slots_take: the roles' values of a matched part (text: its start)
 * into fa and ff; false when a slot fails its role's check.
 */
static bool
line_slots_take(const LineShapes *ls, const JsSlot *slots, int nroles,
				const int *at, const uint8 *roles, const char *text,
				DeltaFileAction *fa, FastFields *ff)
{
	int			i;

	for (i = 0; i < nroles; i++)
	{
		const JsSlot *sl = &slots[at[i]];
		const char *t = text + sl->off;
		int64		v;

		switch (roles[i])
		{
			case LR_PATH:
				if (sl->kind != JS_SLOT_STRING || sl->len == 0)
					return false;
				ff->path = t;
				ff->path_len = (int) sl->len;
				ff->path_esc = sl->escaped;
				break;
			case LR_SIZE:
			case LR_MTIME:
			case LR_BASE:
			case LR_DRCV:
				if (sl->kind == JS_SLOT_NULL &&
					(roles[i] == LR_BASE || roles[i] == LR_DRCV))
					break;
				if (sl->kind != JS_SLOT_NUMBER ||
					!line_slot_int(t, sl->len, &v))
					return false;
				if (roles[i] == LR_SIZE)
				{
					if (v < 0)
						return false;
					fa->size = v;
					fa->has_size = true;
				}
				else if (roles[i] == LR_MTIME)
				{
					fa->modification_time = v;
					fa->has_modification_time = true;
				}
				else if (roles[i] == LR_BASE)
				{
					fa->base_row_id = v;
					fa->has_base_row_id = true;
				}
				else
				{
					fa->default_row_commit_version = v;
					fa->has_default_row_commit_version = true;
				}
				break;
			case LR_DC:
				if (sl->kind != JS_SLOT_TRUE && sl->kind != JS_SLOT_FALSE)
					return false;
				fa->data_change = sl->kind == JS_SLOT_TRUE;
				break;
			case LR_DV:
				if (sl->kind != JS_SLOT_NULL)
					return false;
				break;
			case LR_DV_TYPE:
				if (sl->kind != JS_SLOT_STRING || sl->escaped || sl->len != 1)
					return false;
				ff->dv.storage_type = *t;
				break;
			case LR_DV_PATH:
				if (sl->kind != JS_SLOT_STRING)
					return false;
				ff->dv.path = t;
				ff->dv.path_len = (int) sl->len;
				ff->dv.path_esc = sl->escaped;
				break;
			case LR_DV_OFFSET:
			case LR_DV_SIZE:
			case LR_DV_CARD:
				if (sl->kind == JS_SLOT_NULL && roles[i] == LR_DV_OFFSET)
				{
					ff->dv.has_offset = false;
					ff->dv.offset = 0;
					break;
				}
				if (sl->kind != JS_SLOT_NUMBER ||
					!line_slot_int(t, sl->len, &v) || v < 0 ||
					(roles[i] != LR_DV_CARD && v > PG_INT32_MAX))
					return false;
				if (roles[i] == LR_DV_OFFSET)
				{
					ff->dv.has_offset = true;
					ff->dv.offset = (int32) v;
				}
				else if (roles[i] == LR_DV_SIZE)
					ff->dv.size_in_bytes = (int32) v;
				else
					ff->dv.cardinality = v;
				break;
			default:
				{
					int			k = roles[i] - LR_PV;

					Assert(k < ls->npv);
					if (sl->kind == JS_SLOT_STRING)
					{
						ff->pvv[k] = t;
						ff->pvvl[k] = (int) sl->len;
						ff->pvv_esc[k] = sl->escaped;
					}
					else if (sl->kind == JS_SLOT_NULL)
						ff->pvv[k] = NULL;
					else
						return false;
				}
				break;
		}
	}
	return true;
}

/*
 * The stats value of a line as fast_stats took it at one place: the shapes
 * line_shape_match tries in turn put the stats value of a line at the
 * same place whenever their parts before it match alike, and fast_stats
 * (deterministic for a place and the state it leaves) is then not run
 * again for the next shape.
 */
typedef struct StatsTry
{
	const char *at;				/* where it ran (NULL: not yet) */
	bool		ok;
	const char *after;
	const char *stats;			/* ff's stats fields it set */
	int			stats_len;
	const char *stats_esc;
	bool		stats_null;
	const char *stats_end;
	bool		deferred;		/* r's */
	char	   *stats_at;
} StatsTry;

/* fast_stats at *pp, or its outcome there again (see StatsTry; t NULL:
 * nothing kept) */
static bool
fast_stats_once(AddLineDecoder *r, const char **pp, const char *end,
				FastFields *ff, StatsTry *t)
{
	if (t == NULL)
		return fast_stats(r, pp, end, ff);
	if (t->at == *pp)
	{
		if (!t->ok)
			return false;
		ff->stats_start = t->at;
		ff->stats = t->stats;
		ff->stats_len = t->stats_len;
		ff->stats_esc = t->stats_esc;
		ff->stats_null = t->stats_null;
		ff->stats_end = t->stats_end;
		r->deferred = t->deferred;
		r->stats_at = t->stats_at;
		*pp = t->after;
		return true;
	}
	t->at = *pp;
	t->ok = fast_stats(r, pp, end, ff);
	if (t->ok)
	{
		t->after = *pp;
		t->stats = ff->stats;
		t->stats_len = ff->stats_len;
		t->stats_esc = ff->stats_esc;
		t->stats_null = ff->stats_null;
		t->stats_end = ff->stats_end;
		t->deferred = r->deferred;
		t->stats_at = r->stats_at;
	}
	return t->ok;
}

/*
 * line_shape_match_one: line_shape_match against the shapes ls; *wrote
 * is set when a declined try may have set fields of fa / ff or r.
 */
static bool
line_shape_match_one(const LineShapes *ls, AddLineDecoder *r,
					 const char *line, Size len, DeltaFileAction *fa,
					 FastFields *ff, bool *wrote, StatsTry *st)
{
	const char *end = line + len;
	const char *p;
	size_t		consumed;
	int			k;

	if (!js_match(&ls->pre, line, end, ls->pre_slots, &consumed, NULL, NULL))
		return false;
	*wrote = true;
	p = line + consumed;
	if (fa != NULL)
	{
		ff->has_dv = ls->has_dv;
		ff->npv = ls->npv;
		for (k = 0; k < ls->npv; k++)
		{
			ff->pvk[k] = ls->pvk[k];
			ff->pvkl[k] = ls->pvkl[k];
		}
		if (!line_slots_take(ls, ls->pre_slots, ls->npre_roles, ls->pre_at,
							 ls->pre_role, line, fa, ff))
			return false;
	}
	if (r != NULL)
	{
		if (!fast_stats_once(r, &p, end, ff, st))
			return false;
	}
	else if (p < end && *p == '"')
	{
		if (!fl_skip_string(&p, end))
			return false;
	}
	else if (end - p >= 4 && memcmp(p, "null", 4) == 0)
		p += 4;
	else
		return false;
	if (!js_match(&ls->post, p, end, ls->post_slots, &consumed, NULL, NULL) ||
		consumed != (size_t) (end - p) ||
		(fa != NULL &&
		 !line_slots_take(ls, ls->post_slots, ls->npost_roles, ls->post_at,
						  ls->post_role, p, fa, ff)))
		return false;
	if (r != NULL)
	{
		r->shaped = ls;
		r->shaped_post = p;
	}
	return true;
}

/*
 * line_shape_match: true when the line is one of the current line shapes
 * with a valid stats value: then it is provably exactly one add action of
 * the subset.  fa / ff not NULL: also every slot passes its role's check,
 * and *fa / *ff hold the line's scalar fields, where its path and
 * partition values are, and (r not NULL) its stats value as fast_stats
 * takes it (the line is then one addline_decode decodes); r NULL: the
 * stats string is only validated (fl_skip_string, which also takes \u
 * escapes the decoder leaves to the general path).  The shapes are tried
 * in order; the one that matches moves to the front.
 */
static bool
line_shape_match(AddLineDecoder *r, const char *line, Size len,
				 DeltaFileAction *fa, FastFields *ff)
{
	StatsTry	st;
	int			i;

	/* (one shape: no second try) */
	if (n_line_shapes > 1)
		memset(&st, 0, sizeof(st));
	for (i = 0; i < n_line_shapes; i++)
	{
		LineShapes *ls = line_shapes[i];
		bool		wrote = false;

		if (line_shape_match_one(ls, r, line, len, fa, ff, &wrote,
								 n_line_shapes > 1 ? &st : NULL))
		{
			if (i > 0)
			{
				memmove(&line_shapes[1], &line_shapes[0],
						sizeof(LineShapes *) * i);
				line_shapes[0] = ls;
			}
			line_shape_misses = 0;
			return true;
		}
		if (wrote && fa != NULL)
		{
			/* the next try starts from nothing, as the first did */
			memset(fa, 0, sizeof(*fa));
			memset(ff, 0, sizeof(*ff));
		}
		if (wrote && r != NULL)
			r->deferred = false;
	}
	return false;
}

/*
 * addline_decode: see addline.h.  A line of the current line shapes is
 * decoded from their slots, any other by fast_add_generic (and the shapes
 * remade from it).
 */
bool
addline_decode(AddLineDecoder *r, const char *line, Size len,
			   DeltaFileAction *fa)
{
	FastFields	ff;

	memset(fa, 0, sizeof(*fa));
	memset(&ff, 0, sizeof(ff));
	if (line_shape_match(r, line, len, fa, &ff))
	{
		dc_fastpath_note(DC_FP_ADDLINE_SHAPE, true);
		fast_build(r, &ff, fa);
		return true;
	}
	/* (a declined shaped try may have set fields: start again) */
	memset(fa, 0, sizeof(*fa));
	memset(&ff, 0, sizeof(ff));
	r->deferred = false;
	if (!fast_add_generic(r, line, len, fa, &ff))
	{
		if (line_is_add(line, len))
		{
			dc_fastpath_note(DC_FP_ADDLINE_SHAPE, false);
			dc_fastpath_note(DC_FP_ADDLINE_SCAN, false);
		}
		return false;
	}
	dc_fastpath_note(DC_FP_ADDLINE_SHAPE, false);
	dc_fastpath_note(DC_FP_ADDLINE_SCAN, true);
	r->shaped = NULL;
	r->tags_known = true;
	r->tags = ff.tags;
	r->tags_len = ff.tags_len;
	if (line_shape_want())
		line_shape_learn(line, len, &ff);
	fast_build(r, &ff, fa);
	return true;
}

/*
 * fast_nullable_int: a plain integer (*has true) or null (*has false) at
 * *pp, as opt_int64 takes it; *pp moves past it.  False: not provable.
 */
static bool
fast_nullable_int(const char **pp, const char *end, bool *has, int64 *v)
{
	if (end - *pp >= 4 && memcmp(*pp, "null", 4) == 0)
	{
		*pp += 4;
		*has = false;
		return true;
	}
	*has = true;
	return fl_plain_int(pp, end, v);
}

/*
 * fast_nullable_bool: true, false (*has true) or null (*has false) at *pp;
 * *pp moves past it.  False: not provable.
 */
static bool
fast_nullable_bool(const char **pp, const char *end, bool *has, bool *v)
{
	*has = true;
	if (end - *pp >= 4 && memcmp(*pp, "true", 4) == 0)
	{
		*pp += 4;
		*v = true;
	}
	else if (end - *pp >= 5 && memcmp(*pp, "false", 5) == 0)
	{
		*pp += 5;
		*v = false;
	}
	else if (end - *pp >= 4 && memcmp(*pp, "null", 4) == 0)
	{
		*pp += 4;
		*has = false;
	}
	else
		return false;
	return true;
}

/* The integer and boolean fields of a remove line (addline_decode_remove). */
enum
{
	RI_SIZE, RI_MTIME, RI_DTS, RI_BASE, RI_DRCV
};
static const char *const remove_ints[] = {
	[RI_SIZE] = "size",
	[RI_MTIME] = "modificationTime",
	[RI_DTS] = "deletionTimestamp",
	[RI_BASE] = "baseRowId",
	[RI_DRCV] = "defaultRowCommitVersion",
};
enum
{
	RB_DC, RB_EFM
};
static const char *const remove_bools[] = {
	[RB_DC] = "dataChange",
	[RB_EFM] = "extendedFileMetadata",
};

/* The index of key[0 .. kl) in the array names, or -1. */
#define field_index(key, kl, names) \
	field_index_in((key), (kl), (names), lengthof(names))
static int
field_index_in(const char *key, int kl, const char *const *names, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if ((size_t) kl == strlen(names[i]) && memcmp(key, names[i], kl) == 0)
			return i;
	return -1;
}

/*
 * line_action_value: when line[0 .. len) begins as the action named key
 * ('{', white space, the quoted key), where that key ends, else NULL.
 */
static const char *
line_action_value(const char *line, Size len, const char *key)
{
	const char *end = line + len;
	const char *p = fl_skip_ws(line, end);
	size_t		kl = strlen(key);

	if (p >= end || *p != '{')
		return NULL;
	p = fl_skip_ws(p + 1, end);
	if ((size_t) (end - p) < kl + 2 || p[0] != '"' ||
		memcmp(p + 1, key, kl) != 0 || p[kl + 1] != '"')
		return NULL;
	return p + kl + 2;
}

/*
 * addline_decode_remove: see addline.h.  The subset: the line is
 * {"remove":{...}} and nothing else, no key decode_file reads appears
 * twice, path a non-empty string, partitionValues null or an object
 * fast_partition_values takes, size / modificationTime /
 * deletionTimestamp / baseRowId / defaultRowCommitVersion plain integers
 * or null (size not negative), dataChange / extendedFileMetadata booleans
 * or null, stats a string or null, deletionVector null or a descriptor
 * (fl_deletion_vector); tags and keys decode_file does not read are only
 * validated.  JSON null is an absent field, as decode_file's field()
 * takes it.  Nothing is added to b unless the whole line is proved.
 */
DeltaFileAction *
addline_decode_remove(DeltaCommitBuilder *b, const char *line, Size len,
					  bool *is_remove)
{
	const char *p = line_action_value(line, len, "remove");
	const char *end = line + len;
	unsigned	seen = 0;
	bool		closed;
	FastFields	ff;
	bool		pv_null = true;
	bool		ihas[lengthof(remove_ints)] = {0};
	int64		ival[lengthof(remove_ints)] = {0};
	bool		bhas[lengthof(remove_bools)] = {0};
	bool		bval[lengthof(remove_bools)] = {0};
	int			i;
	const char *stats = NULL;
	int			stats_len = 0;
	bool		stats_esc = false;
	DeltaFileAction *fa;

	*is_remove = p != NULL;
	if (p == NULL)
		return NULL;
	if (b->mode != DELTA_DECODE_ROW)
		goto declined;
	fl_init();
	memset(&ff, 0, sizeof(ff));
	if (!fl_colon(&p, end) || *p != '{')
		goto declined;
	p = fl_skip_ws(p + 1, end);
	if (p < end && *p == '}')
		goto declined;			/* no path: let decode_file complain */
	for (;;)
	{
		const char *key;
		int			kl;
		bool		ok = true;

		if (!fl_member_key(&p, end, &key, &kl))
			goto declined;
		if (FL_KEY("path"))
		{
			ok = !(seen & 1) && *p == '"' &&
				line_string(&p, end, &ff.path, &ff.path_len, &ff.path_esc) &&
				ff.path_len > 0;
			seen |= 1;
		}
		else if (FL_KEY("partitionValues"))
		{
			ok = !(seen & 2);
			seen |= 2;
			if (ok && end - p >= 4 && memcmp(p, "null", 4) == 0)
				p += 4;
			else if (ok)
			{
				pv_null = false;
				ok = fast_partition_values(&p, end, &ff);
			}
		}
		else if ((i = field_index(key, kl, remove_ints)) >= 0)
		{
			ok = !(seen & (4u << i)) &&
				fast_nullable_int(&p, end, &ihas[i], &ival[i]) &&
				(i != RI_SIZE || ival[i] >= 0);
			seen |= 4u << i;
		}
		else if ((i = field_index(key, kl, remove_bools)) >= 0)
		{
			ok = !(seen & (128u << i)) &&
				fast_nullable_bool(&p, end, &bhas[i], &bval[i]);
			seen |= 128u << i;
		}
		else if (FL_KEY("stats"))
		{
			ok = !(seen & 512);
			seen |= 512;
			if (ok && end - p >= 4 && memcmp(p, "null", 4) == 0)
				p += 4;
			else if (ok)
				ok = *p == '"' &&
					line_string(&p, end, &stats, &stats_len, &stats_esc);
		}
		else if (FL_KEY("deletionVector"))
		{
			ok = !(seen & 1024);
			seen |= 1024;
			if (ok && end - p >= 4 && memcmp(p, "null", 4) == 0)
				p += 4;
			else if (ok)
				ok = ff.has_dv = fl_deletion_vector(&p, end, &ff.dv);
		}
		else if (FL_KEY("tags"))
		{
			/* (not kept in DELTA_DECODE_ROW: only validated) */
			ok = !(seen & 2048) && fl_skip_value(&p, end, 2);
			seen |= 2048;
		}
		else
		{
			/* a key decode_file does not read: only validated */
			ok = fl_skip_value(&p, end, 2);
		}
		if (!ok || !fl_obj_sep(&p, end, &closed))
			goto declined;
		if (closed)
			break;
	}
	if (!fl_line_closes(p, end) || !(seen & 1))
		goto declined;			/* trailing data, or no path */

	fa = DeltaCommitBuilderNewFile(b, DELTA_FILE_REMOVE);
	fast_build_strings(b, &ff, fa);
	fa->pv.is_null_map = pv_null;
	/* (a null or absent field: ival / bval stayed 0 / false) */
	fa->has_size = ihas[RI_SIZE];
	fa->size = ival[RI_SIZE];
	fa->has_modification_time = ihas[RI_MTIME];
	fa->modification_time = ival[RI_MTIME];
	fa->has_deletion_timestamp = ihas[RI_DTS];
	fa->deletion_timestamp = ival[RI_DTS];
	fa->has_base_row_id = ihas[RI_BASE];
	fa->base_row_id = ival[RI_BASE];
	fa->has_default_row_commit_version = ihas[RI_DRCV];
	fa->default_row_commit_version = ival[RI_DRCV];
	fa->data_change = bhas[RB_DC] ? bval[RB_DC] : true;
	fa->extended_file_metadata = bval[RB_EFM];
	if (stats != NULL)
		fa->stats = arena_string(&b->strings, stats, stats_len, stats_esc);
	b->n_actions++;
	dc_fastpath_note(DC_FP_REMOVELINE_SCAN, true);
	return fa;

declined:
	dc_fastpath_note(DC_FP_REMOVELINE_SCAN, false);
	return NULL;
}

/*
 * fast_ci_string: a string value at *pp into *out (b's arena), or any
 * other value validated and *out left NULL, as decode_commit_info takes
 * a field it wants a string of; *pp moves past it.  False: not provable.
 */
static bool
fast_ci_string(DeltaCommitBuilder *b, const char **pp, const char *end,
			   char **out)
{
	const char *s;
	int			n;
	bool		esc;

	if (**pp != '"')
		return fl_skip_value(pp, end, 2);
	if (!line_string(pp, end, &s, &n, &esc))
		return false;
	*out = arena_string(&b->strings, s, n, esc);
	return true;
}

/*
 * fast_ci_int: a plain integer at *pp (*has set), or a value that is no
 * number validated (*has left false), as decode_commit_info takes a field
 * it wants an integer of (dj_to_int64); a number of any other form is not
 * provable here (false).  *pp moves past it.
 */
static bool
fast_ci_int(const char **pp, const char *end, bool *has, int64 *v)
{
	if (**pp == '-' || (**pp >= '0' && **pp <= '9'))
	{
		if (!fl_plain_int(pp, end, v))
			return false;
		*has = true;
		return true;
	}
	return fl_skip_value(pp, end, 2);
}

/*
 * fast_ci_tags: the commitInfo's tags value at *pp: whether it is an
 * object whose member "delta.identity.schemaUpdate" is the string "true"
 * (decode_commit_info's identity_schema_update); any other value only
 * validated.  False: not provable (a key with escapes, that member twice).
 */
static bool
fast_ci_tags(const char **pp, const char *end, bool *flag)
{
	const char *p = *pp;
	bool		empty;
	bool		closed;
	bool		seen = false;

	*flag = false;
	if (*p != '{')
		return fl_skip_value(pp, end, 2);
	if (!fl_obj_open(&p, end, &empty))
		return false;
	while (!empty)
	{
		const char *key;
		int			kl;

		if (!fl_member_key(&p, end, &key, &kl))
			return false;
		if (FL_KEY("delta.identity.schemaUpdate"))
		{
			const char *s;
			int			n;
			bool		esc;

			if (seen)
				return false;
			seen = true;
			if (*p == '"')
			{
				if (!line_string(&p, end, &s, &n, &esc) || esc)
					return false;
				*flag = n == 4 && memcmp(s, "true", 4) == 0;
			}
			else if (!fl_skip_value(&p, end, 3))
				return false;
		}
		else if (!fl_skip_value(&p, end, 3))
			return false;
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	*pp = p;
	return true;
}

/* The fields of a commitInfo line that decode_commit_info reads. */
enum
{
	CI_OPERATION, CI_BLIND, CI_ISOLATION, CI_READ_VERSION, CI_ENGINE,
	CI_TIMESTAMP, CI_ICT, CI_TAGS, CI_TXN
};
static const char *const ci_fields[] = {
	[CI_OPERATION] = "operation",
	[CI_BLIND] = "isBlindAppend",
	[CI_ISOLATION] = "isolationLevel",
	[CI_READ_VERSION] = "readVersion",
	[CI_ENGINE] = "engineInfo",
	[CI_TIMESTAMP] = "timestamp",
	[CI_ICT] = "inCommitTimestamp",
	[CI_TAGS] = "tags",
	[CI_TXN] = "txnId",
};

/*
 * addline_decode_commit_info: see addline.h.  The subset: the line is
 * {"commitInfo":{...}} and nothing else, every value valid JSON of the
 * scanners' subset, no field decode_commit_info reads given twice, its
 * integer fields plain integers when they are numbers, the tags' keys
 * plain.  The fields are taken as decode_commit_info takes them (a value
 * of another type than it wants: absent); the object's text is kept for
 * DeltaCommitInfoJson instead of a parse tree.
 */
bool
addline_decode_commit_info(DeltaCommitBuilder *b, const char *line, Size len,
						   bool *is_commit_info)
{
	const char *p = line_action_value(line, len, "commitInfo");
	const char *end = line + len;
	const char *obj;
	unsigned	seen = 0;
	bool		empty;
	bool		closed;
	DeltaCommitInfo ci;
	DeltaCommitInfo *kept;

	*is_commit_info = p != NULL;
	if (p == NULL)
		return false;
	fl_init();
	memset(&ci, 0, sizeof(ci));
	ci.is_blind_append = -1;
	if (!fl_colon(&p, end) || *p != '{')
		goto declined;
	obj = p;
	if (!fl_obj_open(&p, end, &empty))
		goto declined;
	while (!empty)
	{
		const char *key;
		int			kl;
		int			i;
		bool		ok;

		if (!fl_member_key(&p, end, &key, &kl))
			goto declined;
		i = field_index(key, kl, ci_fields);
		if (i >= 0 && (seen & (1u << i)))
			goto declined;		/* (the parse takes the last) */
		if (i >= 0)
			seen |= 1u << i;
		switch (i)
		{
			case CI_OPERATION:
				ok = fast_ci_string(b, &p, end, &ci.operation);
				break;
			case CI_ISOLATION:
				ok = fast_ci_string(b, &p, end, &ci.isolation_level);
				break;
			case CI_ENGINE:
				ok = fast_ci_string(b, &p, end, &ci.engine_info);
				break;
			case CI_TXN:
				ok = fast_ci_string(b, &p, end, &ci.txn_id);
				break;
			case CI_BLIND:
				if (end - p >= 4 && memcmp(p, "true", 4) == 0)
					ci.is_blind_append = 1;
				else if (end - p >= 5 && memcmp(p, "false", 5) == 0)
					ci.is_blind_append = 0;
				ok = fl_skip_value(&p, end, 2);
				break;
			case CI_READ_VERSION:
				ok = fast_ci_int(&p, end, &ci.has_read_version,
								 &ci.read_version);
				break;
			case CI_TIMESTAMP:
				ok = fast_ci_int(&p, end, &ci.has_timestamp, &ci.timestamp);
				break;
			case CI_ICT:
				ok = fast_ci_int(&p, end, &ci.has_in_commit_timestamp,
								 &ci.in_commit_timestamp);
				break;
			case CI_TAGS:
				ok = fast_ci_tags(&p, end, &ci.identity_schema_update);
				break;
			default:
				ok = fl_skip_value(&p, end, 2);
				break;
		}
		if (!ok || !fl_obj_sep(&p, end, &closed))
			goto declined;
		if (closed)
			break;
	}
	if (!fl_line_closes(p, end))
		goto declined;

	kept = MemoryContextAlloc(b->cxt, sizeof(DeltaCommitInfo));
	*kept = ci;
	kept->info_json = DeltaArenaStrndup(&b->strings, obj, p - obj);
	b->commit_info = kept;
	b->n_actions++;
	dc_fastpath_note(DC_FP_COMMITINFO_SCAN, true);
	return true;

declined:
	dc_fastpath_note(DC_FP_COMMITINFO_SCAN, false);
	return false;
}

/*
 * line_shape_match when only the proof is wanted (a line to skip: its
 * fields are not checked, as skip_line_generic does not check them)
 */
static bool
line_shape_skip(const char *line, Size len)
{
	return line_shape_match(NULL, line, len, NULL, NULL);
}

/*
 * addline_shaped_key: see addline.h.
 */
bool
addline_shaped_key(const char *line, Size len, const char **path,
							int *path_len, int64 *size)
{
	DeltaFileAction fa;
	FastFields	ff;

	/* (only what is read below; the roles write the rest) */
	fa.has_size = false;
	fa.size = 0;
	ff.path = NULL;
	ff.path_len = 0;
	ff.path_esc = false;
	ff.has_dv = false;
	if (!line_shape_match(NULL, line, len, &fa, &ff))
	{
		if (line_is_add(line, len))
			dc_fastpath_note(DC_FP_ADDLINE_SHAPE, false);
		return false;
	}
	if (ff.has_dv)
	{
		/* (replay needs the deletion vector's key: fl_file_key's) */
		dc_fastpath_note(DC_FP_ADDLINE_SHAPE, false);
		return false;
	}
	dc_fastpath_note(DC_FP_ADDLINE_SHAPE, true);
	Assert(fa.has_size && ff.path != NULL);
	*path = ff.path;
	*path_len = ff.path_len;
	if (ff.path_esc)
	{
		/* its characters, in a buffer of this module's */
		if (shaped_path_cap < (Size) ff.path_len)
		{
			if (shaped_path != NULL)
				pfree(shaped_path);
			shaped_path_cap = Max((Size) ff.path_len, 2 * shaped_path_cap);
			shaped_path = MemoryContextAlloc(TopMemoryContext,
											 shaped_path_cap);
		}
		*path = shaped_path;
		*path_len = (int) jstr_decode(ff.path, ff.path + ff.path_len,
									  JS_PLAIN, shaped_path);
	}
	*size = fa.size;
	return true;
}

/*
 * addline_shape_miss: see addline.h.
 */
void
addline_shape_miss(const char *line, Size len)
{
	if (line_shape_want())
		line_shape_learn_line(line, len);
}

/*
 * line_shape_learn_line: make the line shapes from an add line read only
 * to be skipped (a generic decode in a scratch context, thrown away).
 */
static void
line_shape_learn_line(const char *line, Size len)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc add line model",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	AddLineDecoder r;
	FastFields	ff;
	DeltaFileAction fa;

	memset(&r, 0, sizeof(r));
	memset(&ff, 0, sizeof(ff));
	memset(&fa, 0, sizeof(fa));
	DeltaCommitBuilderInit(&r.b, 0);
	if (fast_add_generic(&r, line, len, &fa, &ff))
		line_shape_learn(line, len, &ff);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

#ifdef USE_ASSERT_CHECKING
/*
 * addline_assert_matches_tree: see addline.h.
 */
void
addline_assert_matches_tree(const char *line, Size len, const DeltaFileAction *fa,
						 bool deferred)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc fast add check",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	DeltaCommitBuilder b;
	DjValue		v;
	DeltaFileAction t;
	const char *diff;

	v = DeltaLogParseLine(line, len);
	DeltaCommitBuilderInit(&b, fa->version);
	b.mode = DELTA_DECODE_ROW;
	DeltaDecodeAction(&b, &v);
	if (b.n_files != 1)
		elog(ERROR, "fast line decoding: %d file actions in the line", b.n_files);
	t = b.files[0];
	/* an escaped match: its text unescaped is the file's */
	if (fa->stats_escaped)
	{
		DeltaFileAction *copy = palloc(sizeof(DeltaFileAction));

		*copy = *fa;
		copy->stats = dc_json_stats_escaped_text(fa->stats);
		copy->stats_escaped = false;
		fa = copy;
	}
	/* a text not kept: the file has one (commit_cache_stats_text reads it) */
	if (deferred)
	{
		if (t.stats == NULL || fa->stats != NULL)
			elog(ERROR, "fast add line decoding: statistics text not kept wrongly");
		t.stats = NULL;
	}
	diff = DeltaFileActionDiff(&t, fa);
	if (diff != NULL)
		elog(ERROR, "fast line decoding differs from the parse tree in %s", diff);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

/*
 * addline_assert_commit_info_matches_tree: see addline.h.
 */
void
addline_assert_commit_info_matches_tree(const char *line, Size len,
										const DeltaCommitInfo *ci)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc fast commitInfo check",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	DeltaCommitBuilder b;
	DjValue		v;
	const DeltaCommitInfo *t;

	v = DeltaLogParseLine(line, len);
	DeltaCommitBuilderInit(&b, 0);
	b.mode = DELTA_DECODE_ROW;
	DeltaDecodeAction(&b, &v);
	t = b.commit_info;
	if (t == NULL || ci == NULL ||
		!DeltaStrEqual(t->operation, ci->operation) ||
		t->is_blind_append != ci->is_blind_append ||
		!DeltaStrEqual(t->isolation_level, ci->isolation_level) ||
		t->has_read_version != ci->has_read_version ||
		(t->has_read_version && t->read_version != ci->read_version) ||
		!DeltaStrEqual(t->engine_info, ci->engine_info) ||
		t->has_timestamp != ci->has_timestamp ||
		(t->has_timestamp && t->timestamp != ci->timestamp) ||
		t->has_in_commit_timestamp != ci->has_in_commit_timestamp ||
		(t->has_in_commit_timestamp &&
		 t->in_commit_timestamp != ci->in_commit_timestamp) ||
		t->identity_schema_update != ci->identity_schema_update ||
		!DeltaStrEqual(t->txn_id, ci->txn_id) ||
		strcmp(DeltaCommitInfoJson(t), DeltaCommitInfoJson(ci)) != 0)
		elog(ERROR, "fast commitInfo decoding differs from the parse tree");
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}
#endif

/*
 * decode_row: addline_decode on a decoder borrowing b (its state is given
 * back whatever the outcome: a declined line may have moved nothing but
 * the arena's unclaimed bytes), nothing deferred, the stats string
 * prescanned into ps's entry ps_index when ps is not NULL (forgotten again
 * when the line is declined).
 */
static bool
decode_row(DeltaCommitBuilder *b, const char *line, Size len,
		   DeltaFileAction *fa, bool esc_stats, DeltaStatsPrescan *ps,
		   int ps_index, AddLineDecoder *out)
{
	AddLineDecoder local;
	AddLineDecoder *rp = out ? out : &local;
	bool		ok;

	Assert(b->mode == DELTA_DECODE_ROW);
	fl_init();
	memset(rp, 0, sizeof(*rp));
	rp->b = *b;
	rp->esc_stats = esc_stats;
	rp->ps = ps;
	rp->ps_index = ps_index;
	ok = addline_decode(rp, line, len, fa);
	*b = rp->b;
	if (rp->ubuf)
		pfree(rp->ubuf);
	if (!ok && ps != NULL)
		delta_stats_prescan_forget(ps, ps_index);
#ifdef USE_ASSERT_CHECKING
	if (ok)
		addline_assert_matches_tree(line, len, fa, false);
#endif
	return ok;
}

/*
 * addline_decode_row: see addline.h.
 */
bool
addline_decode_row(DeltaCommitBuilder *b, const char *line, Size len,
				   DeltaFileAction *fa, bool esc_stats)
{
	return decode_row(b, line, len, fa, esc_stats, NULL, 0, NULL);
}

/*
 * addline_decode_row_prescan: see addline.h.
 */
bool
addline_decode_row_prescan(DeltaCommitBuilder *b, const char *line, Size len,
						   DeltaFileAction *fa, DeltaStatsPrescan *ps,
						   int ps_index)
{
	return decode_row(b, line, len, fa, false, ps, ps_index, NULL);
}


/*
 * shaped_tags: where the line that ls just matched (its post part from
 * post on) holds its tags: the same literal bytes as the model's, after
 * the slots before them, or the token of their slot.
 */
static void
shaped_tags(const LineShapes *ls, const char *line, const char *post,
			bool *known, const char **tags, Size *tags_len)
{
	const char *base = ls->tags_part == 1 ? line : post;
	const JsSlot *sl = ls->tags_part == 1 ? ls->pre_slots : ls->post_slots;

	*known = ls->tags_part >= 0;
	*tags = NULL;
	*tags_len = 0;
	if (ls->tags_part > 0 && ls->tags_slot >= 0)
	{
		*tags = base + sl[ls->tags_slot].off;
		*tags_len = sl[ls->tags_slot].len;
	}
	else if (ls->tags_part > 0)
	{
		*tags = base + js_literal_start(sl, ls->tags_p0) + ls->tags_d0;
		*tags_len = (Size) ((base + js_literal_start(sl, ls->tags_p1) +
							 ls->tags_d1) - *tags);
	}
}

/*
 * addline_decode_row_tags: see addline.h.
 */
bool
addline_decode_row_tags(DeltaCommitBuilder *b, const char *line, Size len,
						DeltaFileAction *fa, bool *tags_known,
						const char **tags, Size *tags_len)
{
	AddLineDecoder r;
	bool		ok = decode_row(b, line, len, fa, true, NULL, 0, &r);

	if (ok && r.shaped != NULL)
		shaped_tags(r.shaped, line, r.shaped_post, tags_known, tags,
					tags_len);
	else
	{
		*tags_known = ok && r.tags_known;
		*tags = r.tags;
		*tags_len = r.tags_len;
	}
	return ok;
}

/*
 * addline_tags_span: see addline.h.  The line is one add action whose keys
 * are plain strings, "tags" at most once among them (addline_decode_row
 * took it: fast_add_generic reads every key with fl_member_key and tags
 * once; a shaped line has its model's keys); its members are walked
 * again here, each value skipped, and any doubt declines.
 */
bool
addline_tags_span(const char *line, Size len, const char **tags,
				  Size *tags_len)
{
	const char *p = line;
	const char *end = line + len;
	const char *key;
	int			kl;
	bool		closed;

	*tags = NULL;
	*tags_len = 0;
	fl_init();
	p = fl_skip_ws(p, end);
	if (p >= end || *p != '{')
		return false;
	p++;
	if (!fl_member_key(&p, end, &key, &kl) || !FL_KEY("add") || *p != '{')
		return false;
	p = fl_skip_ws(p + 1, end);
	for (;;)
	{
		const char *v;

		if (!fl_member_key(&p, end, &key, &kl))
			return false;
		v = p;
		if (*p == '"' ? !fl_skip_string(&p, end) : !fl_skip_value(&p, end, 2))
			return false;
		if (FL_KEY("tags"))
		{
			if (*tags != NULL)
				return false;	/* twice: not the line decoded */
			*tags = v;
			*tags_len = (Size) (p - v);
		}
		if (!fl_obj_sep(&p, end, &closed))
			return false;
		if (closed)
			break;
	}
	return fl_line_closes(p, end);
}
