/*-------------------------------------------------------------------------
 *
 * jshape.h
 *	  Shape templates of JSON texts: recognise a text that differs from an
 *	  earlier one only in its scalar values, without parsing it.
 *
 * Machine-written Delta logs repeat one shape thousands of times: every add
 * line of a commit carries a statistics text with the same keys in the same
 * order, only the numbers and string values change.  A JsShape is built
 * from one such text (the model) and splits it into literal pieces (the
 * structure, the keys, the white space: compared byte for byte) and slots
 * (the scalar values: numbers, strings, true / false / null).  js_match then accepts a text exactly when it is the model with
 * each slot's token replaced by another token of the same kind, and reports
 * where each slot's token is.
 *
 * Why an accepted text means what the model means: the bytes before each
 * slot are the model's, so a JSON parser reaching the slot is in the same
 * state as in the model and expects a value there; the slot's token is a
 * complete token of JSON syntax (numbers are matched greedily by JSON's
 * number grammar, strings up to their closing quote as jstr_end finds it,
 * which must then begin the model's next literal); and the bytes after it
 * are the model's again.  So the text is valid JSON of the model's structure,
 * provided the model was: js_build must only be given a model that a JSON
 * parser accepted (it checks token syntax, not structure).
 *
 * Two quoting modes: JS_PLAIN, a JSON text as is; JS_ESCAPED, a JSON text
 * as it appears inside a JSON string (every '"' written as backslash + '"'),
 * the way a Delta add line holds its "stats".  A string slot may hold
 * anything djson accepts there (jstr.h: escapes, UTF-8; in JS_ESCAPED mode
 * valid at both levels); a slot whose bytes are not its characters says so
 * (JsSlot.escaped).  Keys are literal bytes: a model with a key that is not
 * printable ASCII without backslashes is refused (js_build returns false).
 *
 * Pure C, no PostgreSQL headers; memory from the caller's FmtAllocator.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/format/jshape.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_JSHAPE_H
#define DELTACC_JSHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "fmt_alloc.h"
#include "jstr.h"

typedef enum JsSlotKind
{
	JS_SLOT_NUMBER,				/* a JSON number */
	JS_SLOT_STRING,				/* a string's content (without the quotes) */
	JS_SLOT_TRUE,
	JS_SLOT_FALSE,
	JS_SLOT_NULL,
	JS_SLOT_ABSENT				/* js_match_keyed only: a scalar member of the
								 * model that the text lacks */
} JsSlotKind;

/* Where a slot's token is in a text (offset from the text's start). */
typedef struct JsSlot
{
	size_t		off;
	size_t		len;
	JsSlotKind	kind;			/* words: which word this text has there */
	bool		escaped;		/* strings: not plain printable ASCII (decode
								 * with jstr_decode in the shape's quoting) */
} JsSlot;

/* Limits: a model beyond them is refused. */
#define JS_MAX_SLOTS 4096
#define JS_MAX_TEXT (1024 * 1024)
#define JS_MAX_NUMBER 64		/* bytes of one number token */

typedef struct JsPiece JsPiece;

typedef struct JsShape
{
	JsQuoting	quoting;
	int			nslots;
	JsPiece    *pieces;			/* [nslots + 1]: literal i precedes slot i;
								 * the last literal ends the text */
	const char *model;			/* the model's bytes (a copy) */
	char	   *umodel;			/* JS_ESCAPED: the literals unescaped */
	size_t		model_len;

	/*
	 * The model as a template of bytes (js_build_template; NULL until
	 * then): model_len + 32 of each, the last 32 refusing every byte.  A
	 * byte of a text is one a text of the model's token lengths may have
	 * there when tmpl_lo <= it <= tmpl_hi and, where tmpl_plain is set, it
	 * is no quote or backslash: literal bytes are themselves, a slot's
	 * the bytes a token of its kind and length may have there.
	 */
	unsigned char *tmpl_lo;
	unsigned char *tmpl_hi;
	unsigned char *tmpl_plain;

	/* The model's objects keyed by their members (js_build_keyed), or NULL */
	struct JsKNode *keyed;
} JsShape;

/*
 * Build the shape of the model text [p, p + len).  True on success: *shape
 * then points into memory from alloc (a copy of the model included, so the
 * caller's text may go away).  False when the model is outside what a
 * shape can describe (see the file header) or alloc fails; *shape is then
 * unusable.
 */
extern bool js_build(JsShape *shape, const char *p, size_t len,
					 JsQuoting quoting, const FmtAllocator *alloc);

/*
 * js_build_template: give a built shape its template (memory from alloc),
 * with which js_match, where it walks with AVX2, takes a run of slots
 * whose tokens have the model's lengths 32 bytes at a time instead of
 * token by token: the same answers, cheaper for texts whose values keep
 * their lengths.  For a shape that is matched again and again (the
 * template costs a pass over the model).  False when alloc fails (the
 * shape is then as before).
 */
extern bool js_build_template(JsShape *shape, const FmtAllocator *alloc);

/*
 * Keyed shapes: writers that put the members of an object in a new order
 * on every text (delta-rs writes its statistics columns in hash order)
 * never repeat a shape byte for byte, but they repeat its keys.
 * js_build_keyed gives a built shape a model of its objects by key (memory
 * from alloc); js_match_keyed then accepts a text exactly when it is the
 * model but for the order of each object's members and for scalar members
 * it lacks: keys of the model only, each once, every member whose model
 * value is an object present; a scalar (of any kind: writers put NaN and
 * Infinity as strings where other files have numbers) where the model has
 * one, an object keyed the same way where it has an object; white space
 * wherever JSON allows it (JS_ESCAPED: spaces only); a key that is
 * literal bytes as in the model.  Its slots are filled in the
 * model's numbering whatever order the text has them in (the slot of a
 * member the text lacks: kind JS_SLOT_ABSENT), so a caller that knows which
 * slot holds what reads a keyed match as it reads a match.  (Writers leave
 * out a column's minimum and maximum where they have none, and
 * tightBounds on tables without deletion vectors.)
 *
 * Why an accepted text means what the model means: every key is compared
 * with a key of the model in that object, and none repeats, so the parse
 * of the text has the model's objects with the same keys, less the absent
 * slots' (a lookup of such a key finds nothing there); each value is a
 * complete token of JSON syntax taken as js_match takes it (or an object
 * checked the same way), followed by ',' or the object's '}'.  So the text
 * is valid JSON whose member of each key path is the slot's token.
 *
 * js_build_keyed returns false (shape->keyed stays NULL) for a model it
 * cannot key: an array, a duplicate key, more than JS_KEYED_MAX_MEMBERS
 * members in an object, nesting beyond JS_KEYED_MAX_DEPTH, or alloc
 * failing.  js_match_keyed: true with slots[0 .. nslots) and *consumed (up
 * to the root's end and the white space after it) as js_match gives them;
 * false for a shape without a keyed model.  Reads nothing at or beyond end;
 * allocates nothing; the work is bounded by the text's length.
 */
#define JS_KEYED_MAX_MEMBERS 64
#define JS_KEYED_MAX_DEPTH 16

extern bool js_build_keyed(JsShape *shape, const FmtAllocator *alloc);
extern bool js_match_keyed(const JsShape *shape, const char *p,
						   const char *end, JsSlot *slots, size_t *consumed);

/*
 * The slot whose token starts at offset off of the model (for a string
 * slot: its first byte after the opening quote), or -1: lets a caller that
 * located a value in the model find the slot that holds it.
 */
extern int	js_slot_at(const JsShape *shape, size_t off);

/*
 * js_literal_at: for an offset off of the model that lies in one of its
 * literals (a structural byte or a key's, never a slot's token), which
 * literal (*piece) and how far into it (*delta); false when off is in no
 * literal.  js_literal_start then says where that literal begins in a
 * text js_match matched into slots: literal 0 at the text's start, every
 * other right after the token of the slot before it (a string slot's
 * closing quote is the next literal's first byte).
 */
extern bool js_literal_at(const JsShape *shape, size_t off, int *piece,
						  size_t *delta);

static inline size_t
js_literal_start(const JsSlot *slots, int piece)
{
	return piece == 0 ? 0 : slots[piece - 1].off + slots[piece - 1].len;
}

/*
 * Match the text at [p, end) against the shape.  True when the text starts
 * with an instance of the shape; then slots[0 .. nslots) say where each
 * slot's token is (offsets from p), *consumed how many bytes the instance
 * takes, and, when out is not NULL, the instance unescaped (JS_ESCAPED:
 * the text the enclosing string holds, its escapes decoded; JS_PLAIN:
 * copied) is written to out,
 * which must have room for *consumed bytes, with *outlen its length.  False
 * otherwise (slots and out may then hold garbage).  Reads nothing at or
 * beyond end; allocates nothing.
 */
extern bool js_match(const JsShape *shape, const char *p, const char *end,
					 JsSlot *slots, size_t *consumed, char *out,
					 size_t *outlen);

/*
 * For tests: allow false makes js_match walk without AVX2 even on a CPU
 * that has it, so that both walks can be tested on one machine; true (the
 * default) lets it use AVX2 when the CPU has it.  Returns whether js_match
 * now uses AVX2.
 */
extern bool js_use_wide(bool allow);

/*
 * Whether this CPU (and OS) can run AVX2 code, found out once per process
 * (CPUID): for the other scanners that have an AVX2 variant.
 */
extern bool js_cpu_has_avx2(void);

/*
 * Copy src[0 .. len) to dst (room for len bytes), each backslash + '"' as
 * '"' and every other byte as it is; returns the bytes written.  Adds no
 * NUL.  (The literals of a JS_ESCAPED shape have no other escape; its
 * slots may: jstr_decode decodes a whole instance.)
 */
extern size_t js_unescape_quotes(char *dst, const char *src, size_t len);

#endif							/* DELTACC_JSHAPE_H */
