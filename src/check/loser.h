/*-------------------------------------------------------------------------
 *
 * loser.h
 *	  The transaction being checked ("loser"): its actions, decoded from the
 *	  jsonb array conflicts() receives, and what Delta derives from them.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/loser.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_LOSER_H
#define DELTACC_LOSER_H

#include "utils/jsonb.h"

#include "check/checkdefs.h"
#include "format/djson.h"

/*
 * Decode a jsonb array of Delta action objects ([{"add":{...}}, ...], as in
 * a commit file) into a DeltaCommit (version -1).  *n_unknown receives the
 * number of actions of a kind the checker does not know (they block the
 * isolation downgrade).  Bad input (not an array, an element that is not a
 * one-action object, a file action without a path, a field of the wrong
 * type) is an ERROR with ERRCODE_INVALID_PARAMETER_VALUE.  The returned
 * commit is owned by this module, not the caller: it lives in a session
 * context that remembers the last decoding (keyed by the argument's full
 * bytes), so a repeated check does not decode again.  Callers treat it as
 * read-only and must not keep it past their own call (the next call with
 * other actions frees it).  Arguments over 1 MB are decoded into the
 * current memory context instead.
 */
extern const DeltaCommit *loser_decode_actions(Jsonb *actions, int *n_unknown);

/*
 * The decoding of loser_decode_actions from the djson tree of the actions
 * (dc_jsonb_parse of the argument), for a caller that keeps the tree: the
 * commit is palloc'd in CurrentMemoryContext and shares nothing with the
 * tree (strings are copied), and nothing is remembered.
 */
extern DeltaCommit *loser_decode_tree(const DjValue *root, int *n_unknown);

/*
 * The isolation level an isolation_level argument names; ERROR
 * (ERRCODE_INVALID_PARAMETER_VALUE) for an unknown one.
 */
extern DeltaIsolationLevel loser_isolation_arg(const char *isolation_param);

/*
 * The number of c's actions of a kind the checker does not know (they
 * block the isolation downgrade), for a loser decoded some other way than
 * by loser_decode_actions (a staged commit file).
 */
extern int	loser_count_unknown(const DeltaCommit *c);

/*
 * Fill the derived fields of *loser (reference §2.2, §2.3): blind append,
 * data-change flag, isolation level and its downgrade, backfill.  The
 * caller has set commit, read_whole_table and the read files.  n_reads is
 * the number of read predicates; isolation_param the user's explicit level
 * (NULL: the read snapshot's delta.isolationLevel, else Serializable).
 * ERROR on an unknown isolation_param.
 */
extern void loser_derive(LoserTxn *loser, const ConflictTable *table,
						 int n_reads, const char *isolation_param,
						 int n_unknown);

/*
 * Set the loser's read files: paths (as given or as in the snapshot) with
 * their AddFile when known (actions[i] may be NULL; then the AddFile of the
 * read snapshot with the same normalised path is used when there is one).
 */
extern void loser_set_read_files(LoserTxn *loser, const ConflictTable *table,
								 int n, char **paths,
								 const DeltaFileAction **actions);

#endif							/* DELTACC_LOSER_H */
