/*-------------------------------------------------------------------------
 *
 * addline.h
 *	  Add lines of a Delta log decoded without a parse tree.
 *
 * A writer's add lines are decoded straight from the text when they are
 * provably what DeltaDecodeAction (DELTA_DECODE_ROW) would decode without
 * an error (the subset and its proofs are described in addline.c); any
 * other line is for the caller to parse and decode as usual.  Lines of a
 * layout the writer repeats are matched against the line shapes made from
 * an earlier one (kept for the backend in their own small context);
 * assert-enabled builds compare every decoded line with the parse tree.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/snapshot/addline.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_ADDLINE_H
#define DELTACC_ADDLINE_H

#include "log/actions.h"
#include "stats/stats.h"

/*
 * The state of decoding the add lines of one commit (or one line).  The
 * caller sets b (DeltaCommitBuilderInit, DELTA_DECODE_ROW), and optionally
 * ps / ps_index / defer / esc_stats; addline_decode sets deferred.  Strings
 * go to b's arena; ubuf (a buffer for very long statistics texts, in
 * b.cxt) is the caller's to pfree when done.
 */
typedef struct AddLineDecoder
{
	DeltaCommitBuilder b;
	DeltaStatsPrescan *ps;		/* NULL: no prescan */
	int			ps_index;		/* the prescan entry of this line */
	bool		defer;			/* a text the prescan answered is not kept */
	bool		deferred;		/* out: this line's text was not kept */
	bool		esc_stats;		/* a stats string the current statistics
								 * layout matches is not unescaped: fa->stats
								 * is that match (fa->stats_escaped) */
	char	   *ubuf;			/* decoded stats of very long lines */
	Size		ucap;
	char	   *stats_at;		/* where the stats text was put */
	/*
	 * out: the line shapes that took the line (their post part from
	 * shaped_post on), or NULL and the add's "tags" value, tags[0 ..
	 * tags_len) of the line (NULL: the line has none), when tags_known
	 */
	const struct LineShapes *shaped;
	const char *shaped_post;
	bool		tags_known;
	const char *tags;
	Size		tags_len;
} AddLineDecoder;

/*
 * Decode line[0..len) into *fa when it is an add line of the subset; false
 * (nothing usable in *fa; b's arena may have unclaimed bytes moved) for
 * any other line.
 */
extern bool addline_decode(AddLineDecoder *d, const char *line, Size len,
						   DeltaFileAction *fa);

/*
 * addline_decode on a decoder borrowing b (DELTA_DECODE_ROW), with no
 * prescan: strings go to b's arena, b's state is given back.  esc_stats as
 * in AddLineDecoder (fa->stats then points into line).
 */
extern bool addline_decode_row(DeltaCommitBuilder *b, const char *line,
							   Size len, DeltaFileAction *fa, bool esc_stats);

/*
 * addline_decode_row with the stats string scanned by ps into its entry
 * ps_index (delta_stats_prescan_string; not deferred: fa->stats is the
 * unescaped text), and that entry forgotten when the line is declined.
 * The prescan's arrays grow in b's context.
 */
extern bool addline_decode_row_prescan(DeltaCommitBuilder *b,
									   const char *line, Size len,
									   DeltaFileAction *fa,
									   DeltaStatsPrescan *ps, int ps_index);

/*
 * addline_decode_remove: when line[0..len) is a remove line of the subset
 * (addline.c) and b decodes DELTA_DECODE_ROW, the remove action
 * DeltaDecodeAction would append to b, appended (strings in b's arena,
 * arrays in b->cxt; the line counted as one action), and returned; NULL
 * (b unchanged but for its arena's unclaimed bytes) for any other line.
 * *is_remove: whether the line begins as a remove action ('{', "remove"),
 * the lines that count as a hit or a miss of DC_FP_REMOVELINE_SCAN.
 */
extern DeltaFileAction *addline_decode_remove(DeltaCommitBuilder *b,
											  const char *line, Size len,
											  bool *is_remove);

/*
 * addline_decode_commit_info: when line[0..len) is a commitInfo line of
 * the subset (addline.c), b's commit info set as DeltaDecodeAction would
 * set it (strings in b's arena, the struct in b->cxt; the object's text
 * kept in place of its parse tree; the line counted as one action), and
 * true; false (b unchanged but for its arena's unclaimed bytes) for any
 * other line.  *is_commit_info: whether the line begins as a commitInfo
 * action, the lines that count as a hit or a miss of
 * DC_FP_COMMITINFO_SCAN.
 */
extern bool addline_decode_commit_info(DeltaCommitBuilder *b,
									   const char *line, Size len,
									   bool *is_commit_info);

/*
 * True when line[0..len) is provably exactly one add, remove or cdc action
 * of the subset (its fields are not checked): a reader of table-level
 * actions may skip it.
 */
extern bool addline_skip_file_action(const char *line, Size len);

/*
 * addline_shaped_key: when line[0..len) is an add line of the current line
 * shapes whose every field passes the decoder's checks and whose stats
 * value is a valid string of the subset (or null), its path (*path_len
 * bytes inside line, or when it holds escapes its characters in a buffer
 * of addline's, valid until the next call) and size, and true;
 * the statistics are validated, not decoded.  False: not provable this way.
 * addline_shape_miss: an add line the shapes did not take, which a caller
 * decoded another way; the shapes may be made from it.  Neither allocates
 * in the caller's context.
 */
extern bool addline_shaped_key(const char *line, Size len, const char **path,
							   int *path_len, int64 *size);
extern void addline_shape_miss(const char *line, Size len);

/*
 * addline_decode_row with esc_stats, and where the add's "tags" value is
 * in the line: *tags[0 .. *tags_len) (*tags NULL when it has none) when
 * *tags_known (a line of a shape whose model's tags are no object: not
 * known; addline_tags_span finds them).
 */
extern bool addline_decode_row_tags(DeltaCommitBuilder *b, const char *line,
									Size len, DeltaFileAction *fa,
									bool *tags_known, const char **tags,
									Size *tags_len);

/*
 * addline_tags_span: where the value of the add's "tags" member is in
 * line[0 .. len), a line addline_decode_row just decoded (*tags NULL when
 * it has none); false when that is not provable here (the caller then
 * decodes the line the general way).  Reads the line only; allocates
 * nothing.
 */
extern bool addline_tags_span(const char *line, Size len, const char **tags,
							  Size *tags_len);

#ifdef USE_ASSERT_CHECKING
/*
 * Decode the line the slow way and compare with *fa field by field (an
 * escaped statistics match compared unescaped; deferred: the text was not
 * kept); ERROR on any difference.
 */
extern void addline_assert_matches_tree(const char *line, Size len,
										const DeltaFileAction *fa,
										bool deferred);

/*
 * Decode the commitInfo line the slow way and compare with *ci, field by
 * field and as JSON text; ERROR on any difference.
 */
extern void addline_assert_commit_info_matches_tree(const char *line,
													Size len,
													const DeltaCommitInfo *ci);
#endif

#endif							/* DELTACC_ADDLINE_H */
