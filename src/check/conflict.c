/*-------------------------------------------------------------------------
 *
 * conflict.c
 *	  The rule engine of Delta's ConflictChecker (reference §2), per winner.
 *
 * For one winning commit, conflict_check_winner() runs Delta's checks in
 * Delta's order (protocol, metadata, domain metadata, app transactions,
 * added files, delete/read, delete/delete) and records one decision per
 * candidate: the conflicts Delta raises and, for explain_conflicts(), every
 * candidate it ruled out with the reason.  Unlike Delta it does not stop at
 * the first conflict: every conflict of every check is reported, and the
 * row Delta itself would raise is ranked first inside its check.
 *
 * Safety rule: whenever something cannot be decided (unknown protocol
 * feature, metadata difference outside Delta's allow-list, statistics that
 * do not verify), the decision is "conflict" or "kept", never "skipped".
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/check/conflict.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"

#include "check/conflict.h"
#include "check/rowlevel.h"
#include "log/actions.h"

static void add_decision(ConflictResult *result, int64 version,
						 const char *operation, ConflictCheck check,
						 ConflictDecisionKind decision, const char *exception,
						 const char *path, char *hint, char *reason, int rank);
static const char *winner_operation(const DeltaCommit *winner);
static const char *config_get(const DeltaMetadata *md, const char *key,
							  bool *found);
static bool protocol_has_feature(const DeltaProtocol *p, const char *feature);
static int	protocol_features(const DeltaProtocol *p, const char **out,
							  int max);
static void check_protocol(const DeltaCommit *winner, LoserTxn *loser,
						   const DeltaProtocol **cur_protocol,
						   const char *op, ConflictResult *result);
static void check_metadata(const DeltaCommit *winner, LoserTxn *loser,
						   const DeltaMetadata **cur_metadata,
						   const DeltaProtocol *cur_protocol,
						   const char *op, ConflictResult *result);
static char *metadata_diff_blocker(const DeltaMetadata *cur,
								   const DeltaMetadata *win,
								   const DeltaProtocol *protocol);
static void check_domains(const DeltaCommit *winner, LoserTxn *loser,
						  const char *op, ConflictResult *result);
static void check_txns(const DeltaCommit *winner, LoserTxn *loser,
					   const char *op, ConflictResult *result);
static void check_append(const ConflictTable *table, LoserTxn *loser,
						 const ConflictReadSet *reads, ConflictMode mode,
						 const DeltaCommit *winner,
						 const DeltaFileAction **adds, int nadd,
						 const char *op, ConflictResult *result);
static void check_delete_read(const ConflictTable *table, LoserTxn *loser,
							  const ConflictReadSet *reads, ConflictMode mode,
							  const DeltaCommit *winner, char *const *norm,
							  const char *op, ConflictResult *result);
static void check_delete_delete(const ConflictTable *table, LoserTxn *loser,
								const DeltaCommit *winner, char *const *norm,
								const char *op, ConflictResult *result);
typedef struct PathIndex
{
	char	   *path;
	int			idx;
} PathIndex;

static int	cmp_path_index(const void *a, const void *b);
static void sort_check_rows(ConflictResult *result, int from);

/*
 * Protocol features whose effect on conflict checking deltacc knows.  A
 * winner protocol naming any other feature is reported as a conflict.
 * (coordinatedCommits / catalogOwned move the commit log itself, and
 * materializePartitionColumns is one Delta flags as failing concurrent
 * transactions at upgrade: all deliberately absent.)
 */
static const char *const known_features[] = {
	"appendOnly", "invariants", "checkConstraints", "changeDataFeed",
	"generatedColumns", "columnMapping", "identityColumns",
	"deletionVectors", "rowTracking", "timestampNtz", "domainMetadata",
	"v2Checkpoint", "icebergCompatV1", "icebergCompatV2", "clustering",
	"vacuumProtocolCheck", "typeWidening", "typeWidening-preview",
	"inCommitTimestamp", "variantType", "variantType-preview",
	"allowColumnDefaults", "checkpointProtection"
};

/*
 * conflict_feature_known: true when 'feature' is in known_features.
 */
bool
conflict_feature_known(const char *feature)
{
	int			i;

	for (i = 0; i < lengthof(known_features); i++)
		if (strcmp(known_features[i], feature) == 0)
			return true;
	return false;
}

/*
 * add_decision: append one decision row.  hint and reason are taken over
 * (palloc'd by the caller); the other strings are copied.
 */
static void
add_decision(ConflictResult *result, int64 version, const char *operation,
			 ConflictCheck check, ConflictDecisionKind decision,
			 const char *exception, const char *path, char *hint,
			 char *reason, int rank)
{
	ConflictDecision *d;

	if (result->conflicts_only && decision != DECISION_CONFLICT)
		return;
	if (result->n == result->cap)
	{
		result->cap = result->cap == 0 ? 16 : result->cap * 2;
		if (result->rows == NULL)
			result->rows = palloc(sizeof(ConflictDecision) * result->cap);
		else
			result->rows = repalloc_huge(result->rows,
										 sizeof(ConflictDecision) * result->cap);
	}
	d = &result->rows[result->n++];
	d->winning_version = version;
	d->operation = pstrdup(operation);
	d->check = check;
	d->decision = decision;
	d->exception = exception ? pstrdup(exception) : NULL;
	d->path = path ? pstrdup(path) : NULL;
	d->partition_hint = hint;
	d->reason = reason;
	d->rank = rank;
}

/*
 * winner_operation: commitInfo.operation, or "TRANSACTION" as Delta prints
 * it when the winner has no commitInfo.
 */
static const char *
winner_operation(const DeltaCommit *winner)
{
	if (winner->commit_info && winner->commit_info->operation)
		return winner->commit_info->operation;
	return "TRANSACTION";
}

/*
 * config_get: value of a configuration key (exact match); *found tells an
 * absent key from a JSON null value.
 */
static const char *
config_get(const DeltaMetadata *md, const char *key, bool *found)
{
	int			i;

	*found = false;
	if (md == NULL)
		return NULL;
	for (i = md->n_configuration - 1; i >= 0; i--)
	{
		if (strcmp(md->config_keys[i], key) == 0)
		{
			*found = true;
			return md->config_values[i];
		}
	}
	return NULL;
}

/*
 * protocol_features: the table features a protocol enables, the legacy
 * ones implied by its versions included.  Fills out[0..max) with static or
 * protocol-owned strings; returns the count.
 */
static int
protocol_features(const DeltaProtocol *p, const char **out, int max)
{
	int			n = 0;
	int			i;

#define ADD_FEATURE(f) do { if (n < max) out[n++] = (f); } while (0)
	if (p == NULL)
		return 0;
	if (p->n_writer_features >= 0)
	{
		for (i = 0; i < p->n_writer_features; i++)
			ADD_FEATURE(p->writer_features[i]);
	}
	else
	{
		if (p->min_writer_version >= 2)
		{
			ADD_FEATURE("appendOnly");
			ADD_FEATURE("invariants");
		}
		if (p->min_writer_version >= 3)
			ADD_FEATURE("checkConstraints");
		if (p->min_writer_version >= 4)
		{
			ADD_FEATURE("changeDataFeed");
			ADD_FEATURE("generatedColumns");
		}
		if (p->min_writer_version >= 5)
			ADD_FEATURE("columnMapping");
		if (p->min_writer_version >= 6)
			ADD_FEATURE("identityColumns");
	}
	if (p->n_reader_features >= 0)
	{
		for (i = 0; i < p->n_reader_features; i++)
			ADD_FEATURE(p->reader_features[i]);
	}
	else if (p->min_reader_version >= 2)
		ADD_FEATURE("columnMapping");
#undef ADD_FEATURE
	return n;
}

/*
 * protocol_has_feature: does the protocol enable 'feature' (explicitly or
 * through its legacy versions)?
 */
static bool
protocol_has_feature(const DeltaProtocol *p, const char *feature)
{
	const char *f[256];
	int			n = protocol_features(p, f, lengthof(f));
	int			i;

	for (i = 0; i < n; i++)
		if (strcmp(f[i], feature) == 0)
			return true;
	return false;
}

/*
 * check_protocol: reference §2.4.1.  A winner protocol with a feature
 * deltacc does not understand, or with versions beyond reader 3 / writer 7,
 * is a conflict; so is a loser that changes the protocol too, and a winner
 * that drops a feature.  Otherwise the loser adopts the winner's protocol.
 */
static void
check_protocol(const DeltaCommit *winner, LoserTxn *loser,
			   const DeltaProtocol **cur_protocol, const char *op,
			   ConflictResult *result)
{
	const DeltaProtocol *wp = winner->protocol;
	const char *wf[256];
	const char *cf[256];
	int			nw,
				nc,
				i,
				j;
	StringInfoData unknown;

	if (wp == NULL)
		return;

	initStringInfo(&unknown);
	nw = protocol_features(wp, wf, lengthof(wf));
	for (i = 0; i < nw; i++)
	{
		if (!conflict_feature_known(wf[i]))
			appendStringInfo(&unknown, "%s%s", unknown.len ? ", " : "", wf[i]);
	}
	if (wp->min_reader_version > 3 || wp->min_writer_version > 7)
		appendStringInfo(&unknown, "%sprotocol (%d, %d)", unknown.len ? ", " : "",
						 wp->min_reader_version, wp->min_writer_version);
	if (unknown.len > 0)
	{
		add_decision(result, winner->version, op, CHECK_PROTOCOL,
					 DECISION_CONFLICT, EXC_PROTOCOL, NULL, NULL,
					 psprintf("The winner's protocol uses %s, which deltacc does not understand, so it cannot prove the commit safe.",
							  unknown.data), 0);
		return;
	}
	if (loser->commit->protocol != NULL)
	{
		add_decision(result, winner->version, op, CHECK_PROTOCOL,
					 DECISION_CONFLICT, EXC_PROTOCOL, NULL, NULL,
					 pstrdup("Both the winner and this transaction change the protocol."),
					 0);
		return;
	}
	nc = protocol_features(*cur_protocol, cf, lengthof(cf));
	for (i = 0; i < nc; i++)
	{
		bool		kept = false;

		for (j = 0; j < nw; j++)
			if (strcmp(cf[i], wf[j]) == 0)
				kept = true;
		if (!kept)
		{
			add_decision(result, winner->version, op, CHECK_PROTOCOL,
						 DECISION_CONFLICT, EXC_PROTOCOL, NULL, NULL,
						 psprintf("The winner's protocol drops the feature %s that this transaction's snapshot has.",
								  cf[i]), 0);
			return;
		}
	}
	add_decision(result, winner->version, op, CHECK_PROTOCOL,
				 DECISION_SKIPPED, NULL, NULL, NULL,
				 psprintf("The winner's protocol (%d, %d) only adds features deltacc understands; the transaction adopts it.",
						  wp->min_reader_version, wp->min_writer_version), 0);
	*cur_protocol = wp;
}

/*
 * metadata_diff_blocker: compare the loser's current metadata with the
 * winner's the way Delta's conflict resolution does (§2.4.2) and return a
 * sentence naming the first difference Delta does not accept, or NULL when
 * every difference is on its allow-list.
 *
 * Conservative where deltacc does not reproduce Delta: any schemaString
 * difference blocks (Delta accepts a column-mapping-only schema change).
 */
static char *
metadata_diff_blocker(const DeltaMetadata *cur, const DeltaMetadata *win,
					  const DeltaProtocol *protocol)
{
	int			i;
	bool		win_enables_row_tracking = false;
	bool		found;
	const char *v;

	if (cur == NULL)
		return pstrdup("The winner changes the metadata of a snapshot without metadata.");
	if (!DeltaStrEqual(cur->id, win->id))
		return pstrdup("The winner changes the table id.");
	if (!DeltaStrEqual(cur->name, win->name))
		return pstrdup("The winner changes the table name.");
	if (!DeltaStrEqual(cur->description, win->description))
		return pstrdup("The winner changes the table description.");
	if (!DeltaStrEqual(cur->format_json, win->format_json))
		return pstrdup("The winner changes the table format.");
	if (cur->has_created_time != win->has_created_time ||
		(cur->has_created_time && cur->created_time != win->created_time))
		return pstrdup("The winner changes the table creation time.");
	if (cur->n_partition_columns != win->n_partition_columns)
		return pstrdup("The winner changes the partition columns.");
	for (i = 0; i < cur->n_partition_columns; i++)
		if (strcmp(cur->partition_columns[i], win->partition_columns[i]) != 0)
			return pstrdup("The winner changes the partition columns.");
	if (!DeltaStrEqual(cur->schema_string, win->schema_string))
		return pstrdup("The winner changes the table schema.");

	/* configuration: removed keys block */
	for (i = 0; i < cur->n_configuration; i++)
	{
		config_get(win, cur->config_keys[i], &found);
		if (!found)
			return psprintf("The winner removes the table property %s.",
							cur->config_keys[i]);
	}
	v = config_get(win, "delta.enableRowTracking", &found);
	if (found && v && pg_strcasecmp(v, "true") == 0)
	{
		const char *old = config_get(cur, "delta.enableRowTracking", &found);

		win_enables_row_tracking = !(found && old && pg_strcasecmp(old, "true") == 0);
	}

	/* added or changed keys must be on the allow-list */
	for (i = 0; i < win->n_configuration; i++)
	{
		const char *key = win->config_keys[i];
		const char *nv = win->config_values[i];
		const char *ov;
		bool		had;
		bool		ok = false;

		ov = config_get(cur, key, &had);
		if (had && DeltaStrEqual(ov, nv))
			continue;
		if (strcmp(key, "delta.enableRowTracking") == 0)
			ok = win_enables_row_tracking &&
				protocol_has_feature(protocol, "rowTracking");
		else if (strcmp(key, "delta.rowTracking.materializedRowIdColumnName") == 0 ||
				 strcmp(key, "delta.rowTracking.materializedRowCommitVersionColumnName") == 0)
			ok = win_enables_row_tracking;
		else if (strcmp(key, "delta.columnMapping.mode") == 0)
			ok = (!had || (ov && pg_strcasecmp(ov, "none") == 0)) &&
				nv && pg_strcasecmp(nv, "name") == 0 &&
				protocol_has_feature(protocol, "columnMapping");
		else if (strcmp(key, "delta.columnMapping.maxColumnId") == 0)
			ok = true;
		else if (strcmp(key, "delta.enableDeletionVectors") == 0)
			ok = nv && pg_strcasecmp(nv, "true") == 0 &&
				protocol_has_feature(protocol, "deletionVectors");
		else if (strcmp(key, "delta.checkpointPolicy") == 0)
			ok = nv && pg_strcasecmp(nv, "v2") == 0 &&
				protocol_has_feature(protocol, "v2Checkpoint");
		else if (strcmp(key, "delta.enableInCommitTimestamps") == 0)
			ok = nv && pg_strcasecmp(nv, "true") == 0;
		else if (strcmp(key, "delta.inCommitTimestampEnablementVersion") == 0 ||
				 strcmp(key, "delta.inCommitTimestampEnablementTimestamp") == 0)
			ok = !had;
		if (!ok)
			return psprintf("The winner sets the table property %s, a change Delta does not accept concurrently.",
							key);
	}
	return NULL;
}

/*
 * check_metadata: reference §2.4.2 (featureEnablement.conflictResolution
 * on, Delta's default).
 */
static void
check_metadata(const DeltaCommit *winner, LoserTxn *loser,
			   const DeltaMetadata **cur_metadata,
			   const DeltaProtocol *cur_protocol, const char *op,
			   ConflictResult *result)
{
	char	   *blocker;

	if (winner->metadata == NULL)
		return;
	if (loser->commit->metadata != NULL)
	{
		add_decision(result, winner->version, op, CHECK_METADATA,
					 DECISION_CONFLICT, EXC_METADATA, NULL, NULL,
					 pstrdup("Both the winner and this transaction change the table metadata."),
					 0);
		return;
	}
	if (winner->commit_info && winner->commit_info->identity_schema_update)
	{
		add_decision(result, winner->version, op, CHECK_METADATA,
					 DECISION_SKIPPED, NULL, NULL, NULL,
					 pstrdup("The winner's metadata change is an identity-column high-water-mark update, which Delta accepts."),
					 0);
		*cur_metadata = winner->metadata;
		return;
	}
	blocker = metadata_diff_blocker(*cur_metadata, winner->metadata,
									cur_protocol);
	if (blocker != NULL)
	{
		add_decision(result, winner->version, op, CHECK_METADATA,
					 DECISION_CONFLICT, EXC_METADATA, NULL, NULL, blocker, 0);
		return;
	}
	add_decision(result, winner->version, op, CHECK_METADATA,
				 DECISION_SKIPPED, NULL, NULL, NULL,
				 pstrdup("Every metadata difference is one Delta accepts concurrently; the transaction adopts the winner's metadata."),
				 0);
	*cur_metadata = winner->metadata;
}

/*
 * check_domains: reference §2.4.3.  Every domain the loser writes (except
 * delta.rowTracking) conflicts with any winner action on the same domain,
 * tombstones included.  (Checked whatever the protocol says: when the
 * protocol lacks domainMetadata neither side can legally write one.)
 */
static void
check_domains(const DeltaCommit *winner, LoserTxn *loser, const char *op,
			  ConflictResult *result)
{
	int			i,
				j;

	for (i = 0; i < loser->commit->n_domains; i++)
	{
		const char *dom = loser->commit->domains[i].domain;

		if (strcmp(dom, "delta.rowTracking") == 0)
			continue;
		for (j = 0; j < winner->n_domains; j++)
		{
			if (strcmp(winner->domains[j].domain, dom) == 0)
			{
				add_decision(result, winner->version, op, CHECK_DOMAIN,
							 DECISION_CONFLICT, EXC_TRANSACTION, NULL, NULL,
							 psprintf("A conflicting metadata domain %s is added.", dom),
							 0);
				break;
			}
		}
	}
}

/*
 * check_txns: reference §2.4.4.  A winner txn whose appId the loser read.
 */
static void
check_txns(const DeltaCommit *winner, LoserTxn *loser, const char *op,
		   ConflictResult *result)
{
	int			i,
				j;

	for (i = 0; i < winner->n_txns; i++)
	{
		bool		read = false;

		for (j = 0; j < loser->n_read_app_ids; j++)
			if (strcmp(winner->txns[i].app_id, loser->read_app_ids[j]) == 0)
				read = true;
		if (read)
			add_decision(result, winner->version, op, CHECK_TXN,
						 DECISION_CONFLICT, EXC_TRANSACTION, NULL, NULL,
						 psprintf("The winner committed a transaction of application %s, whose version this transaction read: another streaming query may be using the same checkpoint.",
								  winner->txns[i].app_id), 0);
		else
			add_decision(result, winner->version, op, CHECK_TXN,
						 DECISION_SKIPPED, NULL, NULL, NULL,
						 psprintf("The winner's transaction of application %s was not read by this transaction.",
								  winner->txns[i].app_id), 0);
	}
}

/*
 * The first i >= from with survives[i] true, or n: a byte scan (memchr),
 * because after the stats tier only a few of a winner's files survive.
 */
static inline int
next_survivor(const bool *survives, int from, int n)
{
	const void *p;

	if (from >= n)
		return n;
	p = memchr(survives + from, true, n - from);
	return p == NULL ? n : (int) ((const bool *) p - survives);
}

/*
 * check_append: reference §2.5 (and §5.1 tier 1 in stats mode).
 *
 * Candidates are chosen by the loser's isolation level; a blind-append
 * loser checks nothing; in stats mode each candidate must survive the
 * per-read statistics tier; then the unchanged tail: a whole-table read or
 * an unpartitioned table makes every surviving candidate a conflict,
 * otherwise a candidate conflicts when it satisfies some read's partition
 * predicate.  Delta's own pick (first read in order, first file in the
 * winner's order) is ranked first.  adds[0..nadd) are the winner's
 * AddFiles in its order (collected once by conflict_check_winner).
 */
static void
check_append(const ConflictTable *table, LoserTxn *loser,
			 const ConflictReadSet *reads, ConflictMode mode,
			 const DeltaCommit *winner,
			 const DeltaFileAction **adds, int nadd,
			 const char *op, ConflictResult *result)
{
	int			i,
				r;
	bool		winner_blind;
	char	   *not_candidate = NULL;
	bool	   *survives;
	char	  **stats_reason;
	bool		stats_tier = false;
	char	   *no_stats_tier = NULL;
	int			pick = -1;
	bool	   *part_match = NULL;
	char	  **part_reason = NULL;
	int			first_row = result->n;
	int		   *live;
	int			nlive;
	int			j;

	if (nadd == 0)
		return;

	winner_blind = winner->commit_info != NULL &&
		winner->commit_info->is_blind_append == 1;

	/* candidate choice */
	if (loser->is_backfill)
		not_candidate = pstrdup("this transaction is a row-tracking backfill, which skips the added-files check");
	else if (winner->commit_info && winner->commit_info->operation &&
			 (strcmp(winner->commit_info->operation, "ROW TRACKING BACKFILL") == 0 ||
			  strcmp(winner->commit_info->operation, "ROW TRACKING UNBACKFILL") == 0))
		not_candidate = pstrdup("the winner is a row-tracking backfill, which skips the added-files check");
	else if (loser->isolation == DELTA_ISO_SNAPSHOT)
		not_candidate = psprintf("this transaction runs at SnapshotIsolation, which does not check added files (%s)",
								 loser->isolation_reason);
	else if (loser->isolation == DELTA_ISO_WRITE_SERIALIZABLE &&
			 loser->commit->metadata == NULL && winner_blind)
		not_candidate = psprintf("the winner is a blind append and this transaction runs at WriteSerializable (%s)",
								 loser->isolation_reason);
	else if (loser->is_blind_append)
		not_candidate = pstrdup("this transaction is a blind append");

	if (not_candidate)
	{
		for (i = 0; i < nadd; i++)
		{
			CHECK_FOR_INTERRUPTS();
			add_decision(result, winner->version, op, CHECK_APPEND,
						 DECISION_SKIPPED, NULL, adds[i]->path, NULL,
						 psprintf("Not checked: %s.", not_candidate), 1);
		}
		sort_check_rows(result, first_row);
		return;
	}

	/* stats tier (§5.1 tier 1) */
	survives = palloc(sizeof(bool) * nadd);
	stats_reason = palloc0(sizeof(char *) * nadd);
	memset(survives, true, sizeof(bool) * nadd);
	if (mode != CONFLICT_MODE_PARTITION)
	{
		if (loser->read_whole_table)
			no_stats_tier = "this transaction read the whole table, which disables statistics skipping";
		else if (reads->n_reads == 0)
			no_stats_tier = "this transaction has no read predicate, so every added file is kept";
		else
		{
			for (r = 0; r < reads->n_reads; r++)
			{
				if (!reads->has_data_conjunct(reads->ctx, r))
				{
					no_stats_tier = psprintf("read %d has no usable data conjunct, so every added file is kept",
											 r + 1);
					break;
				}
			}
		}
		stats_tier = (no_stats_tier == NULL);
	}
	if (stats_tier && result->conflicts_only)
	{
		/*
		 * Only survivors are reported: no reason is built for a skipped
		 * file (nothing allocated per file), a survivor's reason is built
		 * once it is known to survive.
		 */
		if (reads->stats_filter)
			reads->stats_filter(reads->ctx, nadd, adds, survives);
		for (i = next_survivor(survives, 0, nadd); i < nadd;
			 i = next_survivor(survives, i + 1, nadd))
		{
			/* (files the filter ruled out are passed over) */
			CHECK_FOR_INTERRUPTS();
			survives[i] = false;
			for (r = 0; r < reads->n_reads; r++)
			{
				char	   *reason = NULL;

				if (reads->stats_match(reads->ctx, r, adds[i], NULL) !=
					READ_MATCH_MAYBE)
					continue;
				survives[i] = true;
				(void) reads->stats_match(reads->ctx, r, adds[i], &reason);
				stats_reason[i] = psprintf("kept: read %d: %s", r + 1,
										   reason ? reason : "statistics cannot rule it out");
				break;
			}
		}
	}
	else if (stats_tier)
	{
		for (i = 0; i < nadd; i++)
		{
			StringInfoData why;
			bool		keep = false;

			CHECK_FOR_INTERRUPTS();
			initStringInfo(&why);
			for (r = 0; r < reads->n_reads && !keep; r++)
			{
				char	   *reason = NULL;

				if (reads->stats_match(reads->ctx, r, adds[i],
									   result->conflicts_only ? NULL : &reason) ==
					READ_MATCH_MAYBE)
				{
					keep = true;
					/* a survivor conflicts: now its reason is worth building */
					if (result->conflicts_only)
						(void) reads->stats_match(reads->ctx, r, adds[i], &reason);
					resetStringInfo(&why);
					appendStringInfo(&why, "kept: read %d: %s", r + 1,
									 reason ? reason : "statistics cannot rule it out");
				}
				else if (!result->conflicts_only)
					appendStringInfo(&why, "%sread %d: %s",
									 why.len ? "; " : "skipped: ", r + 1,
									 reason ? reason : "statistics rule it out");
			}
			survives[i] = keep;
			stats_reason[i] = why.data;
		}
	}

	/*
	 * row_level (src/rowlevel.c): merge-on-read re-add exclusion and the
	 * value-exact tier may rule out more candidates, with per-file reasons.
	 */
	if (mode == CONFLICT_MODE_ROW_LEVEL &&
		rowlevel_filter_added(table, loser, reads, winner, nadd, adds,
							  survives, stats_reason))
	{
		stats_tier = true;
		no_stats_tier = NULL;
	}

	/* the tail: partition filter, whole table, unpartitioned */
	if (!loser->read_whole_table && table->n_partition_columns > 0 &&
		reads->n_reads > 0)
	{
		part_match = palloc0(sizeof(bool) * nadd * reads->n_reads);
		part_reason = palloc0(sizeof(char *) * nadd * reads->n_reads);
		for (i = 0; i < nadd; i++)
		{
			if (!survives[i])
				continue;
			CHECK_FOR_INTERRUPTS();
			for (r = 0; r < reads->n_reads; r++)
				part_match[i * reads->n_reads + r] =
					reads->partition_match(reads->ctx, r, adds[i],
										   &part_reason[i * reads->n_reads + r]);
		}
		for (r = 0; r < reads->n_reads && pick < 0; r++)
			for (i = 0; i < nadd; i++)
				if (survives[i] && part_match[i * reads->n_reads + r])
				{
					pick = i;
					break;
				}
	}
	else if ((i = next_survivor(survives, 0, nadd)) < nadd)
		pick = i;

	/*
	 * The files to report, in the winner's order: every candidate, or only
	 * the survivors when only conflicts are reported.
	 */
	live = palloc(sizeof(int) * nadd);
	nlive = 0;
	if (result->conflicts_only)
	{
		for (i = next_survivor(survives, 0, nadd); i < nadd;
			 i = next_survivor(survives, i + 1, nadd))
			live[nlive++] = i;
	}
	else
	{
		for (i = 0; i < nadd; i++)
			live[nlive++] = i;
	}

	for (j = 0; j < nlive; j++)
	{
		char	   *hint;
		int			rank;
		char	   *prefix;

		CHECK_FOR_INTERRUPTS();
		i = live[j];
		rank = (i == pick) ? 0 : 1;
		hint = conflict_partition_hint(table, &adds[i]->pv);
		prefix = stats_reason[i] ? psprintf("%s; ", stats_reason[i]) : pstrdup("");
		if (no_stats_tier)
			prefix = psprintf("kept: %s; ", no_stats_tier);
		if (stats_tier && !result->conflicts_only)
			add_decision(result, winner->version, op, CHECK_APPEND,
						 survives[i] ? DECISION_KEPT : DECISION_SKIPPED,
						 NULL, adds[i]->path, NULL,
						 psprintf("%s.", stats_reason[i]), rank);
		if (!survives[i])
			continue;
		if (stats_tier)
			prefix = result->conflicts_only ?
				psprintf("%s; ", stats_reason[i]) : pstrdup("");
		if (loser->read_whole_table)
			add_decision(result, winner->version, op, CHECK_APPEND,
						 DECISION_CONFLICT, EXC_APPEND, adds[i]->path, hint,
						 psprintf("%sThe winner added this file and this transaction read the whole table.",
								  prefix), rank);
		else if (table->n_partition_columns == 0)
			add_decision(result, winner->version, op, CHECK_APPEND,
						 DECISION_CONFLICT, EXC_APPEND, adds[i]->path, hint,
						 psprintf("%sThe winner added this file to an unpartitioned table, where any added file conflicts.",
								  prefix), rank);
		else if (reads->n_reads == 0)
			add_decision(result, winner->version, op, CHECK_APPEND,
						 DECISION_SKIPPED, NULL, adds[i]->path, hint,
						 psprintf("%sThe table is partitioned and this transaction has no read predicate to match.",
								  prefix), rank);
		else
		{
			int			matched = -1;

			for (r = 0; r < reads->n_reads; r++)
				if (part_match[i * reads->n_reads + r])
				{
					matched = r;
					break;
				}
			if (matched >= 0)
				add_decision(result, winner->version, op, CHECK_APPEND,
							 DECISION_CONFLICT, EXC_APPEND, adds[i]->path, hint,
							 psprintf("%sThe winner added this file in partition %s, which read %d (%s) selects.",
									  prefix, hint ? hint : "[]", matched + 1,
									  reads->read_text ? reads->read_text(reads->ctx, matched) : "?"),
							 rank);
			else
				add_decision(result, winner->version, op, CHECK_APPEND,
							 DECISION_SKIPPED, NULL, adds[i]->path, hint,
							 psprintf("%sPartition %s satisfies no read's partition predicate.",
									  prefix, hint ? hint : "[]"), rank);
		}
	}
	sort_check_rows(result, first_row);

	/*
	 * The per-file arrays go back now: a check of many winners then reuses
	 * the same memory instead of touching new pages for each.
	 */
	pfree(live);
	pfree(stats_reason);
	pfree(survives);
	if (part_match)
	{
		pfree(part_match);
		pfree(part_reason);
	}
}

/*
 * check_delete_read: reference §2.7 (path-keyed).  A winner RemoveFile
 * whose normalised path (norm[i] for winner->files[i]) is among the
 * loser's read files conflicts (hint from the loser's read AddFile); with
 * readWholeTable every winner RemoveFile conflicts (no hint).  dataChange
 * is not consulted.
 */
static void
check_delete_read(const ConflictTable *table, LoserTxn *loser,
				  const ConflictReadSet *reads, ConflictMode mode,
				  const DeltaCommit *winner, char *const *norm,
				  const char *op, ConflictResult *result)
{
	int			i;
	int			pick = -1;
	int			first_row = result->n;
	int			nrem = 0;
	int		   *hit;
	bool	   *rl_skip;
	char	  **rl_reason;
	RowLevelCheckState *rl_state = NULL;

	hit = palloc(sizeof(int) * Max(winner->n_files, 1));
	rl_skip = palloc0(sizeof(bool) * Max(winner->n_files, 1));
	rl_reason = palloc0(sizeof(char *) * Max(winner->n_files, 1));
	for (i = 0; i < winner->n_files; i++)
	{
		const DeltaFileAction *f = &winner->files[i];

		hit[i] = -1;
		if (f->kind != DELTA_FILE_REMOVE)
			continue;
		CHECK_FOR_INTERRUPTS();
		nrem++;
		hit[i] = conflict_find_sorted(loser->read_file_norm,
									  loser->n_read_files, norm[i]);
		/* row_level (src/rowlevel.c): did a removed row match a read? */
		if (hit[i] >= 0 && mode == CONFLICT_MODE_ROW_LEVEL)
			rl_skip[i] = rowlevel_delete_read_skips(table, loser, reads, winner, f,
													loser->read_file_action[hit[i]],
													&rl_state, &rl_reason[i]);
		if (hit[i] >= 0 && !rl_skip[i] && pick < 0)
			pick = i;
	}
	if (nrem == 0)
		return;
	if (pick < 0 && loser->read_whole_table)
		for (i = 0; i < winner->n_files; i++)
			if (winner->files[i].kind == DELTA_FILE_REMOVE)
			{
				pick = i;
				break;
			}

	for (i = 0; i < winner->n_files; i++)
	{
		const DeltaFileAction *f = &winner->files[i];
		int			rank = (i == pick) ? 0 : 1;

		if (f->kind != DELTA_FILE_REMOVE)
			continue;
		CHECK_FOR_INTERRUPTS();
		if (hit[i] >= 0 && rl_skip[i])
			add_decision(result, winner->version, op, CHECK_DELETE_READ,
						 DECISION_SKIPPED, NULL, f->path, NULL,
						 psprintf("The winner removed a file this transaction read, but no removed row matches: %s.",
								  rl_reason[i]),
						 rank);
		else if (hit[i] >= 0)
		{
			const DeltaFileAction *rf = loser->read_file_action[hit[i]];
			char	   *hint;

			/* hint from the loser's own read file (same physical file) */
			hint = conflict_partition_hint(table, rf ? &rf->pv : &f->pv);
			add_decision(result, winner->version, op, CHECK_DELETE_READ,
						 DECISION_CONFLICT, EXC_DELETE_READ, f->path, hint,
						 rl_reason[i] ?
						 psprintf("The winner removed a file this transaction read; %s.",
								  rl_reason[i]) :
						 pstrdup("The winner removed a file this transaction read."),
						 rank);
		}
		else if (loser->read_whole_table)
			add_decision(result, winner->version, op, CHECK_DELETE_READ,
						 DECISION_CONFLICT, EXC_DELETE_READ, f->path, NULL,
						 pstrdup("The winner removed a file and this transaction read the whole table."),
						 rank);
		else
			add_decision(result, winner->version, op, CHECK_DELETE_READ,
						 DECISION_SKIPPED, NULL, f->path, NULL,
						 pstrdup("This transaction did not read the file the winner removed."),
						 rank);
	}
	sort_check_rows(result, first_row);
}

/*
 * The loser's RemoveFiles, normalised and sorted (loser->remove_norm), with
 * the index of each in its commit (remove_idx): made on first use and
 * kept for the other winners of the check.
 */
static void
loser_removes(const ConflictTable *table, LoserTxn *loser)
{
	const DeltaCommit *lc = loser->commit;
	PathIndex  *pairs;
	int			nl = 0;
	int			i;

	if (loser->removes_ready)
		return;
	pairs = palloc(sizeof(PathIndex) * Max(lc->n_files, 1));
	for (i = 0; i < lc->n_files; i++)
		if (lc->files[i].kind == DELTA_FILE_REMOVE)
		{
			pairs[nl].path = conflict_normalize_path(table,
													 lc->files[i].path);
			pairs[nl].idx = i;
			nl++;
		}
	qsort(pairs, nl, sizeof(PathIndex), cmp_path_index);
	loser->remove_norm = palloc(sizeof(char *) * Max(nl, 1));
	loser->remove_idx = palloc(sizeof(int) * Max(nl, 1));
	for (i = 0; i < nl; i++)
	{
		loser->remove_norm[i] = pairs[i].path;
		loser->remove_idx[i] = pairs[i].idx;
	}
	pfree(pairs);
	loser->n_removes_norm = nl;
	loser->removes_ready = true;
}

/*
 * check_delete_delete: reference §2.8.  A winner RemoveFile whose
 * normalised path (norm[i] for winner->files[i]) the loser also removes;
 * hint from the loser's RemoveFile.  Called only for a winner with at
 * least one RemoveFile.
 */
static void
check_delete_delete(const ConflictTable *table, LoserTxn *loser,
					const DeltaCommit *winner, char *const *norm,
					const char *op, ConflictResult *result)
{
	int			i,
				j;
	bool		picked = false;
	int			first_row = result->n;
	const DeltaCommit *lc = loser->commit;

	loser_removes(table, loser);
	for (i = 0; i < winner->n_files; i++)
	{
		const DeltaFileAction *f = &winner->files[i];

		if (f->kind != DELTA_FILE_REMOVE)
			continue;
		CHECK_FOR_INTERRUPTS();
		j = conflict_find_sorted(loser->remove_norm, loser->n_removes_norm,
								 norm[i]);
		if (j >= 0)
		{
			add_decision(result, winner->version, op, CHECK_DELETE_DELETE,
						 DECISION_CONFLICT, EXC_DELETE_DELETE, f->path,
						 conflict_partition_hint(table, &lc->files[loser->remove_idx[j]].pv),
						 pstrdup("The winner removed a file this transaction also removes."),
						 picked ? 1 : 0);
			picked = true;
		}
		else
			add_decision(result, winner->version, op, CHECK_DELETE_DELETE,
						 DECISION_SKIPPED, NULL, f->path, NULL,
						 pstrdup("This transaction does not remove the file the winner removed."),
						 1);
	}
	sort_check_rows(result, first_row);
}

static int
cmp_path_index(const void *a, const void *b)
{
	const PathIndex *x = a;
	const PathIndex *y = b;
	int			c = strcmp(x->path, y->path);

	return c != 0 ? c : x->idx - y->idx;
}

/* ordering inside one check: Delta's pick first, then path, then emission */
typedef struct RowSortItem
{
	ConflictDecision row;
	int			seq;
} RowSortItem;

static int
cmp_rows(const void *a, const void *b)
{
	const RowSortItem *x = a;
	const RowSortItem *y = b;
	int			c;

	if (x->row.rank != y->row.rank)
		return x->row.rank - y->row.rank;
	if (x->row.path && y->row.path)
	{
		c = strcmp(x->row.path, y->row.path);
		if (c != 0)
			return c;
	}
	return x->seq - y->seq;
}

/*
 * sort_check_rows: order result->rows[from..n) by (rank, path, emission).
 */
static void
sort_check_rows(ConflictResult *result, int from)
{
	int			n = result->n - from;
	int			i;
	RowSortItem *items;

	if (n <= 1)
		return;
	items = palloc_extended(sizeof(RowSortItem) * n, MCXT_ALLOC_HUGE);
	for (i = 0; i < n; i++)
	{
		items[i].row = result->rows[from + i];
		items[i].seq = i;
	}
	qsort(items, n, sizeof(RowSortItem), cmp_rows);
	for (i = 0; i < n; i++)
		result->rows[from + i] = items[i].row;
	pfree(items);
}

/*
 * conflict_check_winner: run every check of reference §2.4 for one winner.
 * Its AddFiles come from its index (no file is visited for them), and the
 * two RemoveFile checks run only when it removes something (without a
 * RemoveFile they decide nothing).
 */
void
conflict_check_winner(const ConflictTable *table, LoserTxn *loser,
					  const ConflictReadSet *reads, ConflictMode mode,
					  const DeltaCommit *winner,
					  const DeltaMetadata **cur_metadata,
					  const DeltaProtocol **cur_protocol,
					  ConflictResult *result)
{
	const char *op = winner_operation(winner);
	const DeltaFileAction **adds = winner->adds;
	int			nadd = winner->n_adds;

	/* indexed once by the commit cache: no file is touched here */
	Assert(adds != NULL);
#ifdef USE_ASSERT_CHECKING
	{
		int			na = 0;
		int			nr = 0;
		int			i;

		for (i = 0; i < winner->n_files; i++)
		{
			if (winner->files[i].kind == DELTA_FILE_ADD)
				Assert(na < nadd && adds[na++] == &winner->files[i]);
			else if (winner->files[i].kind == DELTA_FILE_REMOVE)
				nr++;
		}
		Assert(na == nadd && nr == winner->n_removes);
	}
#endif

	check_protocol(winner, loser, cur_protocol, op, result);
	check_metadata(winner, loser, cur_metadata, *cur_protocol, op, result);
	check_domains(winner, loser, op, result);
	check_txns(winner, loser, op, result);
	check_append(table, loser, reads, mode, winner, adds, nadd, op, result);
	if (winner->n_removes > 0)
	{
		/* the winner's RemoveFiles normalised once, for both checks */
		char	  **norm = palloc0(sizeof(char *) * winner->n_files);
		int			i;

		for (i = 0; i < winner->n_files; i++)
			if (winner->files[i].kind == DELTA_FILE_REMOVE)
				norm[i] = conflict_normalize_path(table, winner->files[i].path);
		check_delete_read(table, loser, reads, mode, winner, norm, op, result);
		check_delete_delete(table, loser, winner, norm, op, result);
		for (i = 0; i < winner->n_files; i++)
			if (norm[i] != NULL)
				pfree(norm[i]);
		pfree(norm);
	}
}
