/*-------------------------------------------------------------------------
 *
 * json_util.h
 *	  Glue between the exact JSON parser (src/format/djson) and the backend:
 *	  palloc-backed allocation, DjValue -> jsonb / JSON text, and turning a
 *	  DjError into a clean ERROR.
 *
 * All log JSON goes through djson; json-c is not used.  Numbers are never
 * converted through double: jsonb numerics are built from the exact token
 * text with numeric_in.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/json_util.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_JSON_UTIL_H
#define DELTACC_JSON_UTIL_H

#include "lib/stringinfo.h"
#include "utils/jsonb.h"
#include "utils/palloc.h"

#include "format/djson.h"

/*
 * An FmtAllocator that allocates zeroed memory in 'cxt' (or, when cxt is
 * NULL, in whatever CurrentMemoryContext is at the time of each
 * allocation) with palloc_extended(MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO |
 * MCXT_ALLOC_HUGE).  Returns NULL (never ERRORs) when memory is exhausted,
 * so decoders report the failure as an ordinary error.
 */
extern FmtAllocator dc_fmt_allocator(MemoryContext cxt);

/*
 * DcArena: a reusable bump allocator for short-lived parse trees.  Memory
 * comes from 64kB blocks owned by the context given at creation and kept
 * across dc_arena_reset (which forgets everything allocated), so parsing
 * one line after another costs no malloc/free and no per-node chunk
 * header.  Requests above 16kB get their own chunk, freed by the reset.
 */
typedef struct DcArena DcArena;

extern DcArena *dc_arena_create(MemoryContext cxt);
extern void dc_arena_reset(DcArena *a);
extern FmtAllocator dc_arena_allocator(DcArena *a);

/*
 * dc_json_parse into an arena: resets it first (so the previous tree is
 * gone), then parses; errors as dc_json_parse.
 */
extern DjValue dc_json_parse_arena(DcArena *a, const char *buf, size_t len,
								   const char *what, int errcode_val);

/*
 * Parse one JSON value from buf[0..len) with djson, allocating the tree in
 * CurrentMemoryContext.  On failure raises ERROR with 'errcode_val' and the
 * message "invalid JSON in <what>" plus a detail naming the parser's reason
 * and byte offset.  An out-of-memory failure is reported as
 * ERRCODE_OUT_OF_MEMORY.
 */
extern DjValue dc_json_parse(const char *buf, size_t len, const char *what,
							 int errcode_val);

/*
 * The djson tree of a jsonb argument, exactly what dc_json_parse gives for
 * JsonbToCString's text of it (members in jsonb's order, strings as
 * stored, numbers as numeric_out writes them), allocated in
 * CurrentMemoryContext; errors as dc_json_parse's for that text.  The
 * jsonb is walked without rendering it, except where the text might not
 * parse to the walked tree (a database encoding other than UTF-8, a NaN or
 * infinite number, which jsonb prints as a bare word, nesting at djson's
 * depth limit): then the text is rendered and parsed.
 */
extern DjValue dc_jsonb_parse(Jsonb *jb, const char *what, int errcode_val);

/*
 * Like dc_json_parse, but returns false instead of raising (for optional
 * content such as "stats", where unparseable means "missing").
 */
extern bool dc_json_try_parse(const char *buf, size_t len, DjValue *out);

/*
 * Raise an ERROR for a djson failure: message "invalid JSON in <what>",
 * detail "<reason> at byte <offset>." with the given errcode.  Never returns.
 */
extern void dc_json_report_error(const DjError *err, const char *what,
								 int errcode_val) pg_attribute_noreturn();

/*
 * Build a Jsonb directly from a DjValue (no text round trip; numbers exact:
 * from their token text, never through double).  Result palloc'd in
 * CurrentMemoryContext.
 */
extern Jsonb *dc_dj_to_jsonb(const DjValue *v);

/*
 * Same, but NULL instead of an ERROR when a number or string cannot be
 * represented (what dc_json_text_to_jsonb gives for v's JSON text).
 */
extern Jsonb *dc_dj_to_jsonb_lenient(const DjValue *v);

/*
 * True when dc_dj_to_jsonb(v) cannot fail: every number within numeric's
 * range and every string short enough for a jsonb entry.
 */
extern bool dc_dj_fits_jsonb(const DjValue *v);

/*
 * Parse JSON text (exactly) and build a Jsonb; NULL when the text is not
 * valid JSON (callers decide whether that is an error).  Allocates in
 * CurrentMemoryContext (the parse tree is freed before returning).
 */
extern Jsonb *dc_json_text_to_jsonb(const char *text, size_t len);

/*
 * Same, in one parse: when the conversion succeeds and peek is not NULL,
 * peek(arg, tree) is called on the parse tree before it is freed (it must
 * not keep pointers into it).  The tree lives in a backend-wide scratch
 * context (bump-allocated), emptied before returning.  Plain integers and
 * short decimals become numerics without numeric_in; object keys are
 * sorted without pushJsonbValue.  The result is the same jsonb as
 * jsonb_in gives for the text.
 */
extern Jsonb *dc_json_text_to_jsonb_ext(const char *text, size_t len,
										void (*peek) (void *arg, const DjValue *v),
										void *arg);

/*
 * dc_json_text_to_jsonb_ext for statistics texts: the same result; a text
 * laid out like the last one converted (same keys, order and white space,
 * other values) is not parsed but matched against that layout
 * (src/format/jshape.h), and its jsonb written by the layout's plan (key
 * order and container shapes worked out once per layout).  The layout
 * lives for the backend in its own small context.
 *
 * keys (NULL, or a NULL-terminated array that stays valid, such as a
 * static one) names the only top-level members the peek reads (with
 * dj_get, say): it may then be given, instead of the whole text's tree, an
 * object holding just the members with those keys in text order, which is
 * cheaper to make for a text of the last layout.
 */
extern Jsonb *dc_json_stats_to_jsonb_keys(const char *text, size_t len,
										  const char *const *keys,
										  void (*peek) (void *arg, const DjValue *v),
										  void *arg);

/*
 * Statistics texts matched where a log line holds them, without
 * unescaping them first.  dc_json_stats_match_escaped: p is at the opening
 * quote of a JSON string in a line ending at end; true when the string is
 * the current statistics layout (the last one dc_json_stats_to_jsonb_keys
 * took) written inside a JSON string, with *after the byte after its
 * closing quote.  That proves the string is valid and its value a text of
 * the layout; the match is kept (no allocation) until the next match or
 * layout.  dc_json_stats_escaped_to_jsonb: the jsonb of that match, text
 * being p + 1 (what dc_json_stats_to_jsonb_keys would give for the
 * unescaped text, peek included); dc_json_stats_escaped_text: its
 * unescaped text, palloc'd.  Both ERROR (internal) when text is not the
 * last match or a match or layout came after it: a caller converts the
 * file it decoded before decoding another.
 */
extern bool dc_json_stats_match_escaped(const char *p, const char *end,
										const char **after);
extern Jsonb *dc_json_stats_escaped_to_jsonb(const char *text,
											 const char *const *keys,
											 void (*peek) (void *arg, const DjValue *v),
											 void *arg);
extern char *dc_json_stats_escaped_text(const char *text);

/*
 * Forget the last escaped match (dc_json_stats_match_escaped): a caller
 * about to read another line, whose bytes may take the matched line's
 * place, makes any use of the old match an error.
 */
extern void dc_json_stats_escaped_forget(void);

/*
 * Append the canonical JSON text of v to buf (compact, keys in their
 * original order, duplicates kept, numbers as their exact token text,
 * strings re-escaped).
 */
extern void dc_dj_append_json(StringInfo buf, const DjValue *v);

/* dc_dj_append_json into a fresh palloc'd string (CurrentMemoryContext). */
extern char *dc_dj_to_json(const DjValue *v);

/*
 * Append s (NUL-terminated UTF-8) as a JSON string literal to buf, escaped
 * exactly as escape_json does (but faster: plain runs copied at once).
 */
extern void dc_json_append_string(StringInfo buf, const char *s);

/* Same for s[0..len) (no NUL inside). */
extern void dc_json_append_string_len(StringInfo buf, const char *s,
									  size_t len);

/*
 * Parse JSON text into a backend-wide scratch arena and, when it is valid,
 * call peek(arg, tree) (which must not keep pointers into it); returns
 * whether the text was valid JSON.  Nothing stays allocated.  Not
 * reentrant: peek must not call the jsonb conversions of this module.
 */
extern bool dc_json_peek(const char *text, size_t len,
						 void (*peek) (void *arg, const DjValue *v),
						 void *arg);

/*
 * Drop the backend-wide scratch space of the functions above without
 * freeing it (for test harnesses that free all memory between inputs).
 */
extern void dc_json_scratch_forget(void);

#endif							/* DELTACC_JSON_UTIL_H */
