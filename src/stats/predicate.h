/*-------------------------------------------------------------------------
 *
 * predicate.h
 *	  Read predicates: parsed with PostgreSQL's parser against a snapshot's
 *	  logical schema, split into partition and data conjuncts (reference
 *	  §2.1), compiled into Delta's keep-predicates over file statistics
 *	  (§3.2, verify(R) of §3.3) and into exact partition filters (§2.6).
 *
 * Usage (the conflict checker):
 *
 *	  rs = delta_readset_compile(read_snapshot_metadata, n, predicate_texts);
 *	  nan = delta_commit_stats_include_nan(winner->commit_info,
 *										   winner->adds_with_dv);
 *	  for each winner file f:
 *		  fs = delta_readset_decode_stats(rs, f);		  -- once per file
 *		  for each read i:
 *			  delta_read_stats_may_match(rs, i, fs, nan, &reason)
 *			  delta_read_partition_matches(rs, i, &f->pv, &reason)
 *
 * (A snapshot's own files carry the same answer per file, in
 * DeltaFileAction.stats_include_nan; a commit's file actions do not.)
 *
 * Semantics, in short:
 *	- A predicate text is ONE boolean expression (anything else is an
 *	  ERROR, ERRCODE_SYNTAX_ERROR); unknown columns are an ERROR
 *	  (ERRCODE_UNDEFINED_COLUMN).  'true' is an unfiltered read.
 *	- Top-level AND conjuncts referencing only partition columns (or no
 *	  column) are partition conjuncts; all others are data conjuncts.
 *	- delta_read_stats_may_match returns true (keep) unless the read's
 *	  keep-predicate is definitely false AND every statistic it references
 *	  verifies.  A read without any usable data conjunct always keeps.
 *	- delta_read_partition_matches returns true iff the read's partition
 *	  predicate is TRUE on the file's typed partition values (NULL and FALSE
 *	  do not match, an unparseable value matches, non-deterministic parts
 *	  are widened to TRUE as Delta does).
 *	- Strings compare in byte order (COLLATE "C") everywhere.
 *
 * Reasons are palloc'd in CurrentMemoryContext of the caller, e.g.
 * "max(customer_id)=901000 < 1000 ... ", "no statistics for customer_id".
 * The checker prefixes them ("skipped: ... rules out read 1").
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/predicate.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_PREDICATE_H
#define DELTACC_PREDICATE_H

#include "postgres.h"

#include "common/delta_actions.h"
#include "stats/schema.h"
#include "stats/stats.h"

typedef struct DeltaReadSet DeltaReadSet;

/*
 * Compile npreds read predicates against the read snapshot's metadata
 * (schema, partition columns, statistics column set).  The read set and
 * everything it needs live in a child context of CurrentMemoryContext
 * (freed with it, or explicitly by delta_readset_free).  ERROR on a bad
 * predicate; the message names the read (1-based).
 */
extern DeltaReadSet *delta_readset_compile(const DeltaMetadata *md,
										   int npreds,
										   const char *const *predicates);

/* Same, with an already built schema (must outlive the read set). */
extern DeltaReadSet *delta_readset_compile_schema(const DeltaSchema *schema,
												  int npreds,
												  const char *const *predicates);

/*
 * Deletes the read set's context (and the plan it was compiled with, for
 * the two functions above; an instance of a plan leaves the plan alone).
 */
extern void delta_readset_free(DeltaReadSet *rs);

/*
 * The two halves of delta_readset_compile, for a plan kept across
 * statements (src/readset_cache.c).
 *
 * delta_readset_plan compiles the predicates into a plan: everything
 * parsing, analysis and compilation produce, md's schema parsed again into
 * it, and no executor state.  It lives in a new context under
 * CurrentMemoryContext (delta_readset_plan_context; delete that context to
 * free it).  ERROR as delta_readset_compile.
 *
 * delta_readset_instance gives the read set the functions below are
 * called with, for one statement: its own context under
 * CurrentMemoryContext, sharing the plan's compiled parts (the plan must
 * outlive it), with its own executor state.  It prepares the reads' own
 * expressions, so EXECUTE privilege on the functions they call is checked
 * here, as the current user; ERROR as the executor would.
 *
 * delta_readset_builtin_only: every expression analysis produced uses
 * only node kinds the plan cache knows and only types, operators,
 * functions and collations created by initdb.
 */
extern DeltaReadSet *delta_readset_plan(const DeltaMetadata *md, int npreds,
										const char *const *predicates);
extern DeltaReadSet *delta_readset_instance(const DeltaReadSet *plan);
extern bool delta_readset_builtin_only(const DeltaReadSet *plan);
extern MemoryContext delta_readset_plan_context(const DeltaReadSet *plan);

/*
 * A number that names the plan a read set is (an instance of), for a
 * caller that remembers what the plan produced (the reason texts of kept
 * files): no two plans of a session get the same one.  0, the default:
 * the plan is not kept, so nothing derived from it is worth remembering.
 * The plan cache (src/readset_cache.c) numbers the plans it keeps with
 * delta_readset_set_serial, before any instance is made of them.
 */
extern uint64 delta_readset_serial(const DeltaReadSet *rs);
extern void delta_readset_set_serial(DeltaReadSet *plan, uint64 serial);

extern int	delta_readset_nreads(const DeltaReadSet *rs);
extern const DeltaSchema *delta_readset_schema(const DeltaReadSet *rs);

/* Read i (0-based) has at least one data (non-partition) conjunct. */
extern bool delta_read_has_data_conjuncts(const DeltaReadSet *rs, int read);

/*
 * Read i has at least one data conjunct that compiles to a keep-predicate
 * (so statistics can ever skip a file for it).
 */
extern bool delta_read_can_skip(const DeltaReadSet *rs, int read);

/* Read i has at least one partition conjunct other than TRUE. */
extern bool delta_read_has_partition_filter(const DeltaReadSet *rs, int read);

/*
 * The read's keep-predicate, deparsed (e.g. "(max(id) >= 200) AND
 * (min(id) < 300)"), or "true" when it cannot skip anything.  This is the
 * form for writers whose float statistics include NaN.
 */
extern char *delta_read_keep_predicate(const DeltaReadSet *rs, int read);

/* The read's partition predicate, deparsed ("true" when none). */
extern char *delta_read_partition_predicate(const DeltaReadSet *rs, int read);

/*
 * Decode the statistics of file f that any read of rs needs ("stats", else
 * "stats_parsed_json").  The result lives in the read set's per-file
 * context and stays valid until the next call (or delta_readset_free).
 */
extern DeltaFileStats *delta_readset_decode_stats(DeltaReadSet *rs,
												  const DeltaFileAction *f);

/*
 * The leaves (by leaf_index) whose statistics some read needs: what
 * delta_readset_decode_stats decodes.  Owned by the read set.
 */
extern const bool *delta_readset_wanted(const DeltaReadSet *rs);

/*
 * An exact image (binary, *len bytes, owned by the read set's plan) of the
 * keep-predicate that delta_read_stats_may_match evaluates for read i and
 * this writer kind:
 * node kinds, operators, constants (type and bytes), and the statistics
 * column key (delta_stats_column_key) of every leaf it reads.  Two reads
 * with equal keys give the same answer on the same file statistics, so a
 * caller may remember answers per file under the key (the conflict
 * checker's commit cache does).  NULL when the read cannot skip anything.
 */
extern const char *delta_read_decision_key(const DeltaReadSet *rs, int read,
										   bool writer_includes_nan, int *len);

/*
 * May file statistics fs hold a row that satisfies read i's data
 * conjuncts?  writer_includes_nan: the winner's writer is known to include
 * NaN in float/double statistics (see delta_writer_includes_nan); when
 * false, MAX-based forms on float/double columns never skip.  *reason (if
 * reason != NULL) gets a sentence without a prefix.
 */
extern bool delta_read_stats_may_match(DeltaReadSet *rs, int read,
									   const DeltaFileStats *fs,
									   bool writer_includes_nan,
									   char **reason);

/*
 * delta_read_stats_may_match (without a reason) for many files at once,
 * their statistics given by column: file j has header hdr[idx[j]] and, for
 * each k < ncols, leaf col_leaf[k] statistics colvals[k][idx[j]] (every
 * other leaf all-missing, as in a DeltaFileStats built from them).  Sets
 * keep[j] for j < n.  Returns false, setting nothing, unless the read is
 * decided by integer comparisons of statistics alone (a flat
 * keep-predicate) over leaves among col_leaf; the caller then asks per
 * file.  Allocates nothing; checks for interrupts.
 */
extern bool delta_read_stats_may_match_columns(DeltaReadSet *rs, int read,
											   bool writer_includes_nan,
											   int n, const int *idx,
											   const DeltaStatsHeader *hdr,
											   int ncols, const int *col_leaf,
											   DeltaLeafStats *const *colvals,
											   bool *keep);

/*
 * Does read i's partition predicate evaluate to TRUE on pv (Delta's
 * semantics: only TRUE matches; unparseable values match)?
 */
extern bool delta_read_partition_matches(DeltaReadSet *rs, int read,
										 const DeltaPartitionValues *pv,
										 char **reason);

/*
 * Would a reader running the reads of rs scan file f (files_for_scan's
 * rule): for some read, the partition predicate is TRUE on f's partition
 * values and f's statistics (delta_readset_decode_stats, judged for the
 * writer that added f: f->stats_include_nan) may match its data
 * conjuncts.  Allocates as delta_readset_decode_stats does.
 */
extern bool delta_read_file_scanned(DeltaReadSet *rs,
									const DeltaFileAction *f);

/*
 * Evaluate read i's usable conjuncts (partition and data; conjuncts that
 * were dropped count as TRUE) on one decoded row: values/isnull indexed by
 * the schema's leaf_index.  Returns true iff the result is TRUE.
 */
extern bool delta_read_row_matches(DeltaReadSet *rs, int read,
								   const Datum *values, const bool *isnull);

/*
 * (Added for the row-level checker, src/rowlevel.c.)  The leaves that read
 * i's row expression (the usable conjuncts delta_read_row_matches
 * evaluates) references: refs[leaf_index] is set for each, refs must hold
 * schema->nleaves entries and is not cleared first.  Returns false when the
 * read has no usable conjunct at all (every row matches).
 */
extern bool delta_read_row_references(const DeltaReadSet *rs, int read,
									  bool *refs);

/*
 * Is the writer named by a commitInfo.engineInfo known to include NaN in
 * float/double min/max statistics (Spark-computed statistics: Apache
 * Spark with Delta Lake, Databricks Runtime)?  NULL or unknown: false.
 */
extern bool delta_writer_includes_nan(const char *engine_info);

/*
 * Are the float/double min/max statistics of the files a commit adds known
 * to include NaN, so that MAX-based forms may skip them?  True only when
 * the commit's commitInfo ci names a writer delta_writer_includes_nan
 * accepts, its operation is one whose added files carry statistics that
 * writer computed from the rows it wrote (WRITE, STREAMING UPDATE, MERGE,
 * UPDATE, DELETE, OPTIMIZE and the AS SELECT forms of CREATE / REPLACE
 * TABLE), and none of its adds has a deletion vector (adds_with_dv false):
 * a file re-added with a deletion vector, or by RESTORE, CLONE, a
 * backfill or a hand-made commit, keeps statistics an earlier writer may
 * have computed.  ci NULL: false.  The conflict checker applies it to each
 * winner, and the snapshot to the commit each live file comes from (files
 * from a checkpoint: false), so both ask the same question.
 */
extern bool delta_commit_stats_include_nan(const DeltaCommitInfo *ci,
										   bool adds_with_dv);

#endif							/* DELTACC_PREDICATE_H */
