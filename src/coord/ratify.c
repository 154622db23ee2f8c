/*-------------------------------------------------------------------------
 *
 * ratify.c
 *	  Registering tables and ratifying commits (see ratify.h).
 *
 * A commit, in the caller's transaction:
 *	0. an inline proposal is decoded, and what needs no lock is done before
 *	   the lock (precheck: its content made and hashed, the caches of the
 *	   check filled), while other commits hold it;
 *	1. lock the table's row in deltacc.managed_tables (FOR UPDATE): commits
 *	   of one table run one after the other from here to the end of their
 *	   transactions; a rollback takes the ratification back;
 *	2. read a staged proposal (once) and open the table through the
 *	   catalog, whose state one read gives (it sees every ratified
 *	   version, the locked transaction's own included, and the version of
 *	   the proposal's txnId);
 *	3. a txnId already ratified returns its version (a retried request);
 *	4. refuse a commit beyond deltacc.max_unpublished_versions;
 *	5. the version is latest + 1: a staged commit for another version is
 *	   refused (re-stage) before anything is checked;
 *	6. check the proposal against every version after read_version with the
 *	   driver of deltacc.conflicts (src/check/driver.c) in the given mode;
 *	7. an inline commit is rebased as Delta rebases after a successful
 *	   check (a staged one only checked for what would need rebasing);
 *	8. store it and advance the table's latest version.
 *
 * Rebasing (inline commits; a staged commit is only checked, because its
 * bytes are fixed):
 *	- in-commit timestamps (table property delta.enableInCommitTimestamps):
 *	  commitInfo comes first and its inCommitTimestamp is above the previous
 *	  version's (the catalog's clock when the commit has none);
 *	- row tracking (writer feature rowTracking): the new files' baseRowId
 *	  (those without one or above the read version's high-water mark) are
 *	  assigned again above the latest high-water mark when a winner raised
 *	  it or some are missing, from each file's numRecords; the
 *	  delta.rowTracking domain's rowIdHighWaterMark follows; a
 *	  defaultRowCommitVersion missing or above the read version becomes the
 *	  commit's version;
 *	- app transactions (txn): each appId's version must stay increasing
 *	  over the versions ratified since the read version.
 * What cannot be rebased (a row-tracking backfill on either side, a new
 * file without numRecords that needs row ids) is an ERROR naming it.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/coord/ratify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "common/int.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "coord/ratify.h"
#include "coord/store.h"
#include "check/driver.h"
#include "check/loser.h"
#include "common/json_util.h"
#include "common/subxact.h"
#include "log/log_reader.h"
#include "snapshot/loader.h"
#include "snapshot/snapshot.h"

#define ROW_TRACKING_DOMAIN "delta.rowTracking"

/* The commit being ratified, and what the ratification learns about it. */
typedef struct Ratification
{
	const char *path;			/* canonical table path */
	DeltaLog   *log;
	int64		read_version;
	int64		latest;			/* latest ratified version (locked) */
	int64		version;		/* the version it takes: latest + 1 */
	/* the proposal */
	bool		staged;
	const char *staged_path;
	const char *bytes;			/* a staged commit's bytes */
	Size		len;
	const DeltaCommit *commit;	/* decoded (read-only) */
	DjValue		tree;			/* an inline commit's actions, rebased in
								 * place */
	/* what the check saw */
	bool		checked;		/* the driver ran (seen is set) */
	ConflictCheckSeen seen;
	const DeltaMetadata *md;	/* in force once the commit is in */
	const DeltaProtocol *proto;
	DeltaSnapshot *read_snap;	/* built when needed (read_state) */
	/*
	 * The inline content as proposed (before the rebase), decoded back,
	 * and its SHA-256, made before the lock (spec_valid); stored as they
	 * are when the rebase leaves the tree unchanged (tree_changed false)
	 */
	bool		spec_valid;
	char	   *spec_content;
	Size		spec_len;
	const DeltaCommit *spec_back;
	uint8		spec_sha256[PG_SHA256_DIGEST_LENGTH];
	bool		tree_changed;	/* the rebase changed the tree */
	DeltaLog   *pre_log;		/* the table as opened before the lock, or
								 * NULL */
	/* results */
	bool		has_ict;
	int64		ict_ms;
	TimestampTz now;			/* the ratification time, and the in-commit
								 * timestamp of a commit without one */
} Ratification;

/* ---------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------
 */

/* ms since the Unix epoch of a TimestampTz (floor). */
static int64
timestamptz_ms(TimestampTz ts)
{
	int64		us = ts + (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;

	return us >= 0 ? us / 1000 : -((-us + 999) / 1000);
}

/* The configuration value of key in md, or NULL. */
static const char *
config_value(const DeltaMetadata *md, const char *key)
{
	int			i;

	if (md == NULL)
		return NULL;
	for (i = 0; i < md->n_configuration; i++)
		if (strcmp(md->config_keys[i], key) == 0)
			return md->config_values[i];
	return NULL;
}

/* Whether the protocol lists writer feature 'feature'. */
static bool
writer_feature(const DeltaProtocol *p, const char *feature)
{
	int			i;

	if (p == NULL)
		return false;
	for (i = 0; i < p->n_writer_features; i++)
		if (strcmp(p->writer_features[i], feature) == 0)
			return true;
	return false;
}

/* A JSON number DjValue for n (palloc'd text). */
static DjValue
dj_number(int64 n)
{
	DjValue		v;

	v.type = DJ_NUMBER;
	v.u.num = psprintf(INT64_FORMAT, n);
	v.len = (uint32) strlen(v.u.num);
	return v;
}

/* A JSON string DjValue for s (not copied). */
static DjValue
dj_string(const char *s)
{
	DjValue		v;

	v.type = DJ_STRING;
	v.u.str = s;
	v.len = (uint32) strlen(s);
	return v;
}

/* The value of the last member 'key' of object obj (mutable), or NULL. */
static DjValue *
member(DjValue *obj, const char *key)
{
	int			i;

	if (obj->type != DJ_OBJECT)
		return NULL;
	for (i = (int) obj->len - 1; i >= 0; i--)
		if (strcmp(obj->u.members[i].key, key) == 0)
			return &obj->u.members[i].value;
	return NULL;
}

/* Set member key of object obj to v (replaced, or appended). */
static void
set_member(DjValue *obj, const char *key, DjValue v)
{
	DjValue    *cur = member(obj, key);
	DjMember   *m;

	Assert(obj->type == DJ_OBJECT);
	if (cur != NULL)
	{
		*cur = v;
		return;
	}
	m = palloc(sizeof(DjMember) * (obj->len + 1));
	if (obj->len > 0)
		memcpy(m, obj->u.members, sizeof(DjMember) * obj->len);
	m[obj->len].key = key;
	m[obj->len].keylen = (uint32) strlen(key);
	m[obj->len].value = v;
	obj->u.members = m;
	obj->len++;
}

/* The body of action element e when it is a 'kind' action, else NULL. */
static DjValue *
action_body(DjValue *e, const char *kind)
{
	if (e->type != DJ_OBJECT || e->len != 1 ||
		strcmp(e->u.members[0].key, kind) != 0)
		return NULL;
	return &e->u.members[0].value;
}

/* ---------------------------------------------------------------------
 * The state the rebase compares against
 * ---------------------------------------------------------------------
 */

/* The read snapshot (built on first use; NULL for the first commit). */
static DeltaSnapshot *
read_state(Ratification *r)
{
	if (r->read_version < 0)
		return NULL;
	if (r->read_snap == NULL)
		r->read_snap = r->checked && r->seen.read_snapshot != NULL ?
			r->seen.read_snapshot :
			DeltaSnapshotBuildLazy(r->log, r->read_version);
	return r->read_snap;
}

/* The winners the check read (read_version+1 .. latest). */
static int
winners(const Ratification *r, const DeltaCommit ***out)
{
	if (!r->checked)
	{
		*out = NULL;
		return 0;
	}
	*out = r->seen.winners;
	return r->seen.n_winners;
}

/*
 * The row-id high-water mark a delta.rowTracking domain's configuration
 * records (-1 when it has none): 'whose' names the commit in messages.
 */
static int64
hwm_of(const char *configuration, const char *whose, int code)
{
	DjValue		v;
	const DjValue *f;
	int64		h;

	if (configuration == NULL ||
		!dc_json_try_parse(configuration, strlen(configuration), &v) ||
		v.type != DJ_OBJECT)
		ereport(ERROR,
				errcode(code),
				errmsg("invalid %s domain configuration in %s", ROW_TRACKING_DOMAIN, whose));
	f = dj_get(&v, "rowIdHighWaterMark");
	if (f == NULL)
		return -1;
	if (f->type != DJ_NUMBER || !dj_to_int64(f, &h))
		ereport(ERROR,
				errcode(code),
				errmsg("invalid rowIdHighWaterMark in %s", whose));
	return h;
}

/* The high-water mark of the domains d[0..n) (-1 when none sets it). */
static int64
hwm_in(const DeltaDomain *d, int n, int64 dflt, const char *whose)
{
	int			i;

	for (i = n - 1; i >= 0; i--)
		if (strcmp(d[i].domain, ROW_TRACKING_DOMAIN) == 0)
			return d[i].removed ? -1 :
				hwm_of(d[i].configuration, whose, ERRCODE_DATA_CORRUPTED);
	return dflt;
}

/*
 * The in-commit timestamp of version v (ms): from the commit's commitInfo
 * (inCommitTimestamp, else timestamp) when the check read it, else the
 * catalog's record (the same value: it is stored as the commit has it),
 * else from the commit read now; false when v < 0 or the commit records
 * neither.
 */
static bool
previous_ict(Ratification *r, int64 v, int64 *ms)
{
	TimestampTz ts;
	const DeltaCommit **w;
	int			nw = winners(r, &w);
	const DeltaCommit *c;

	if (v < 0)
		return false;
	if (nw > 0 && w[nw - 1]->version == v)
		c = w[nw - 1];
	else if (catalog_ict_of(r->path, v, &ts))
	{
		*ms = timestamptz_ms(ts);
		return true;
	}
	else
		c = DeltaLogReadCommit(r->log, v);
	if (c->commit_info == NULL)
		return false;
	if (c->commit_info->has_in_commit_timestamp)
		*ms = c->commit_info->in_commit_timestamp;
	else if (c->commit_info->has_timestamp)
		*ms = c->commit_info->timestamp;
	else
		return false;
	return true;
}

/* ---------------------------------------------------------------------
 * Rebase and checks
 * ---------------------------------------------------------------------
 */

/* 40001 for a staged commit that cannot stand at its version. */
static void
restage_error(const Ratification *r, const char *what, const char *detail)
{
	ereport(ERROR,
			errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			errmsg("staged commit \"%s\" cannot be ratified as version %lld: %s",
				   r->staged_path, (long long) r->version, what),
			errdetail("%s", detail),
			errhint("Stage the commit again on top of version %lld and retry.",
					(long long) r->latest));
}

/*
 * In-commit timestamps: on a table with them, commitInfo first and its
 * inCommitTimestamp strictly above the previous version's.
 */
static void
rebase_ict(Ratification *r)
{
	const char *on = config_value(r->md, "delta.enableInCommitTimestamps");
	const DeltaCommitInfo *ci = r->commit->commit_info;
	int64		prev = 0;
	bool		has_prev;
	int64		t;

	if (on == NULL || strcmp(on, "true") != 0)
		return;
	has_prev = previous_ict(r, r->latest, &prev);
	if (r->staged)
	{
		DjValue		first;
		const char *nl = memchr(r->bytes, '\n', r->len);

		if (!ci->has_in_commit_timestamp)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("staged commit \"%s\" has no commitInfo.inCommitTimestamp",
						   r->staged_path),
					errdetail("The table has in-commit timestamps (delta.enableInCommitTimestamps)."));
		if (!dc_json_try_parse(r->bytes, nl ? (Size) (nl - r->bytes) : r->len,
							   &first) ||
			first.type != DJ_OBJECT || first.len != 1 ||
			strcmp(first.u.members[0].key, "commitInfo") != 0)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("staged commit \"%s\" does not begin with its commitInfo",
						   r->staged_path),
					errdetail("On a table with in-commit timestamps commitInfo is the first action."));
		if (has_prev && ci->in_commit_timestamp <= prev)
			restage_error(r, "its in-commit timestamp is not above the previous version's",
						  psprintf("Its inCommitTimestamp is %lld; version %lld has %lld.",
								   (long long) ci->in_commit_timestamp,
								   (long long) r->latest, (long long) prev));
		t = ci->in_commit_timestamp;
	}
	else
	{
		DjValue    *items = r->tree.u.items;
		int			i;

		r->tree_changed = true;
		t = ci->has_in_commit_timestamp ? ci->in_commit_timestamp :
			timestamptz_ms(r->now);
		if (has_prev && t <= prev)
			t = prev + 1;		/* Delta's rebase: above the winner's */
		for (i = 0; i < (int) r->tree.len; i++)
		{
			DjValue    *body = action_body(&items[i], "commitInfo");

			if (body == NULL || body->type != DJ_OBJECT)
				continue;
			set_member(body, "inCommitTimestamp", dj_number(t));
			if (i > 0)
			{
				DjValue		e = items[i];

				memmove(&items[1], &items[0], sizeof(DjValue) * i);
				items[0] = e;
			}
			break;
		}
	}
	r->has_ict = true;
	r->ict_ms = t;
}

/*
 * Whether a row-tracking backfill (or unbackfill) is among the winners or
 * is the commit itself (none of them can be rebased here).
 */
static const char *
backfill_in(const Ratification *r)
{
	const DeltaCommit **w;
	int			nw = winners(r, &w);
	int			i;

	if (nw == 0)
		return NULL;
	if (r->seen.loser->is_backfill)
		return "the commit is a row tracking backfill";
	for (i = 0; i < nw; i++)
		if (w[i]->commit_info && w[i]->commit_info->operation &&
			(strcmp(w[i]->commit_info->operation, "ROW TRACKING BACKFILL") == 0 ||
			 strcmp(w[i]->commit_info->operation, "ROW TRACKING UNBACKFILL") == 0))
			return psprintf("version %lld is a row tracking backfill",
							(long long) w[i]->version);
	return NULL;
}

/* The delta.rowTracking domainMetadata body among the inline actions. */
static DjValue *
tree_hwm_domain(Ratification *r)
{
	int			i;

	for (i = 0; i < (int) r->tree.len; i++)
	{
		DjValue    *body = action_body(&r->tree.u.items[i], "domainMetadata");
		DjValue    *d = body ? member(body, "domain") : NULL;

		if (d != NULL && d->type == DJ_STRING &&
			strcmp(d->u.str, ROW_TRACKING_DOMAIN) == 0)
			return body;
	}
	return NULL;
}

/* Write high-water mark h into a delta.rowTracking domain body. */
static void
set_tree_hwm(DjValue *body, int64 h)
{
	DjValue    *conf = member(body, "configuration");
	DjValue		v;
	StringInfoData buf;

	if (conf == NULL || conf->type != DJ_STRING ||
		!dc_json_try_parse(conf->u.str, conf->len, &v) || v.type != DJ_OBJECT)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("invalid %s domain configuration in the commit", ROW_TRACKING_DOMAIN));
	set_member(&v, "rowIdHighWaterMark", dj_number(h));
	initStringInfo(&buf);
	dc_dj_append_json(&buf, &v);
	set_member(body, "configuration", dj_string(buf.data));
}

/*
 * The bodies of the inline commit's file actions (add, remove, cdc), in
 * order: the i-th is the decoded commit's files[i], whose actions come in
 * the order of the array.  ERROR if the counts differ.
 */
static DjValue **
tree_files(Ratification *r)
{
	DjValue   **out = palloc(sizeof(DjValue *) * Max(r->commit->n_files, 1));
	int			k;
	int			f = 0;

	for (k = 0; k < (int) r->tree.len; k++)
	{
		DjValue    *e = &r->tree.u.items[k];
		DjValue    *body = action_body(e, "add");

		if (body == NULL)
			body = action_body(e, "remove");
		if (body == NULL)
			body = action_body(e, "cdc");
		if (body == NULL)
			continue;
		if (f == r->commit->n_files)
			break;
		out[f++] = body;
	}
	if (f != r->commit->n_files)
		elog(ERROR, "the commit's file actions do not match its decoding");
	return out;
}

/*
 * Row tracking (see the file header).  'fresh' marks the new files: adds
 * without a baseRowId or with one above the read version's mark.
 */
static void
rebase_row_tracking(Ratification *r)
{
	const DeltaCommit *c = r->commit;
	const DeltaCommit **w;
	int			nw = winners(r, &w);
	DeltaSnapshot *rs;
	int64		read_hwm;
	int64		latest_hwm;
	int64		new_hwm;
	int64		next;
	int			n_fresh = 0;
	bool		missing = false;
	bool		reassign;
	const char *backfill;
	DjValue   **bodies;
	int			i;

	if (!writer_feature(r->proto, "rowTracking"))
		return;
	rs = read_state(r);
	read_hwm = rs ? hwm_in(rs->domains, rs->n_domains, -1, "the read version") : -1;
	latest_hwm = read_hwm;
	for (i = 0; i < nw; i++)
		latest_hwm = hwm_in(w[i]->domains, w[i]->n_domains, latest_hwm,
							psprintf("version %lld", (long long) w[i]->version));
	backfill = backfill_in(r);
	if (backfill != NULL && c->n_files > 0)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot rebase the commit onto version %lld: %s",
					   (long long) r->latest, backfill),
				errdetail("Row ids of a backfill cannot be reassigned by the catalog."),
				errhint("Read the table again at version %lld and retry.",
						(long long) r->latest));
	for (i = 0; i < c->n_files; i++)
	{
		const DeltaFileAction *fa = &c->files[i];

		if (fa->kind != DELTA_FILE_ADD ||
			(fa->has_base_row_id && fa->base_row_id <= read_hwm))
			continue;
		n_fresh++;
		missing |= !fa->has_base_row_id;
	}
	reassign = n_fresh > 0 && (latest_hwm != read_hwm || missing);

	if (r->staged)
	{
		for (i = 0; i < c->n_files; i++)
		{
			const DeltaFileAction *fa = &c->files[i];

			if (fa->kind != DELTA_FILE_ADD)
				continue;
			if (fa->has_default_row_commit_version &&
				fa->default_row_commit_version > r->read_version &&
				fa->default_row_commit_version != r->version)
				restage_error(r, "a defaultRowCommitVersion is not the commit's version",
							  psprintf("File \"%s\" has defaultRowCommitVersion %lld.",
									   fa->path, (long long) fa->default_row_commit_version));
			if (fa->has_base_row_id && fa->base_row_id <= read_hwm)
				continue;
			if (!fa->has_base_row_id)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("staged commit \"%s\" adds file \"%s\" without a baseRowId",
							   r->staged_path, fa->path),
						errdetail("The table has row tracking: every new file needs row ids."));
			if (fa->base_row_id <= latest_hwm)
				restage_error(r, "its row ids overlap rows committed since its read version",
							  psprintf("File \"%s\" has baseRowId %lld; the high-water mark is %lld.",
									   fa->path, (long long) fa->base_row_id,
									   (long long) latest_hwm));
		}
		for (i = 0; i < c->n_domains; i++)
			if (strcmp(c->domains[i].domain, ROW_TRACKING_DOMAIN) == 0 &&
				!c->domains[i].removed &&
				hwm_of(c->domains[i].configuration, "the commit",
					   ERRCODE_INVALID_PARAMETER_VALUE) < latest_hwm)
				restage_error(r, "its row-id high-water mark is below the table's",
							  psprintf("The table's high-water mark is %lld.",
									   (long long) latest_hwm));
		return;
	}

	/* inline: baseRowId and defaultRowCommitVersion */
	r->tree_changed = true;
	bodies = tree_files(r);
	next = latest_hwm + 1;
	new_hwm = latest_hwm;
	for (i = 0; i < c->n_files; i++)
	{
		const DeltaFileAction *fa = &c->files[i];
		DjValue    *body;

		CHECK_FOR_INTERRUPTS();
		if (fa->kind != DELTA_FILE_ADD)
			continue;
		body = bodies[i];
		if (member(body, "path") == NULL || member(body, "path")->type != DJ_STRING ||
			strcmp(member(body, "path")->u.str, fa->path) != 0)
			elog(ERROR, "file action %d of the commit does not match its decoding", i);
		if (!fa->has_default_row_commit_version ||
			fa->default_row_commit_version > r->read_version)
			set_member(body, "defaultRowCommitVersion", dj_number(r->version));
		if (fa->has_base_row_id && fa->base_row_id <= read_hwm)
			continue;			/* a file the table had: its ids stay */
		if (reassign)
		{
			if (!fa->has_num_records)
				ereport(ERROR,
						errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						errmsg("cannot assign row ids to file \"%s\": its statistics have no numRecords",
							   fa->path),
						errdetail("The catalog assigns the commit's row ids above the high-water mark %lld.",
								  (long long) latest_hwm));
			set_member(body, "baseRowId", dj_number(next));
			if (pg_add_s64_overflow(next, fa->num_records, &next))
				ereport(ERROR,
						errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						errmsg("row ids of the commit exceed the 64-bit range"));
			new_hwm = next - 1;
		}
		else if (fa->has_num_records && fa->num_records > 0)
			new_hwm = Max(new_hwm, fa->base_row_id + fa->num_records - 1);
	}

	/* the high-water mark */
	{
		DjValue    *dom = tree_hwm_domain(r);

		if (dom != NULL)
		{
			DjValue    *conf = member(dom, "configuration");

			if (!reassign && conf != NULL && conf->type == DJ_STRING)
				new_hwm = Max(new_hwm, hwm_of(conf->u.str, "the commit",
											  ERRCODE_INVALID_PARAMETER_VALUE));
			set_tree_hwm(dom, new_hwm);
		}
		else if (new_hwm > latest_hwm)
		{
			/* a domainMetadata action of its own, after the others */
			DjValue    *items = palloc(sizeof(DjValue) * (r->tree.len + 1));
			DjValue		elem;
			DjValue		body;
			DjValue		conf;

			memcpy(items, r->tree.u.items, sizeof(DjValue) * r->tree.len);
			body.type = DJ_OBJECT;
			body.len = 0;
			body.u.members = NULL;
			set_member(&body, "domain", dj_string(ROW_TRACKING_DOMAIN));
			conf.type = DJ_OBJECT;
			conf.len = 0;
			conf.u.members = NULL;
			set_member(&conf, "rowIdHighWaterMark", dj_number(new_hwm));
			set_member(&conf, "domainName", dj_string(ROW_TRACKING_DOMAIN));
			set_member(&body, "configuration", dj_string(dc_dj_to_json(&conf)));
			memset(&conf, 0, sizeof(conf));
			conf.type = DJ_FALSE;
			set_member(&body, "removed", conf);
			elem.type = DJ_OBJECT;
			elem.len = 0;
			elem.u.members = NULL;
			set_member(&elem, "domainMetadata", body);
			items[r->tree.len] = elem;
			r->tree.u.items = items;
			r->tree.len++;
		}
	}
}

/*
 * App transactions: each txn's version above the appId's latest one, in
 * the versions ratified since the read version (a concurrent writer of the
 * same appId: 40001) and at the read version (22023).
 */
static void
check_app_txns(Ratification *r)
{
	const DeltaCommit *c = r->commit;
	const DeltaCommit **w;
	int			nw = winners(r, &w);
	int			i,
				k,
				j;

	for (i = 0; i < c->n_txns; i++)
	{
		const DeltaTxn *t = &c->txns[i];
		bool		found = false;
		DeltaSnapshot *rs;

		for (k = nw - 1; k >= 0 && !found; k--)
			for (j = w[k]->n_txns - 1; j >= 0; j--)
			{
				const DeltaTxn *wt = &w[k]->txns[j];

				if (strcmp(wt->app_id, t->app_id) != 0)
					continue;
				found = true;
				if (t->txn_version <= wt->txn_version)
					ereport(ERROR,
							errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
							errmsg("ConcurrentTransactionException: a concurrent transaction committed version %lld of application \"%s\" at version %lld",
								   (long long) wt->txn_version, t->app_id,
								   (long long) w[k]->version),
							errdetail("This commit writes version %lld of that application, which is not above it.",
									  (long long) t->txn_version),
							errhint("Read the table again at version %lld and retry.",
									(long long) r->latest));
				break;
			}
		if (found || (rs = read_state(r)) == NULL)
			continue;
		for (j = 0; j < rs->n_txns; j++)
			if (strcmp(rs->txns[j].app_id, t->app_id) == 0 &&
				t->txn_version <= rs->txns[j].txn_version)
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("application \"%s\" is at version %lld already, the commit writes version %lld",
							   t->app_id, (long long) rs->txns[j].txn_version,
							   (long long) t->txn_version),
						errdetail("Application transaction versions only increase."));
	}
}

/* ---------------------------------------------------------------------
 * The proposal
 * ---------------------------------------------------------------------
 */

/*
 * Read and decode the staged commit: its name validated strictly, its
 * bytes read once (what is checked is what is stored).
 */
static void
read_staged(Ratification *r)
{
	char	   *abs_path = psprintf("%s/%s", r->path, r->staged_path);

	r->bytes = DeltaReadWholeFile(abs_path, r->staged_path, 0, &r->len);
	r->commit = DeltaLogDecodeBytes(NULL, r->bytes, r->len, r->staged_path,
									-1);
}

/* The inline content: one line per action, each ending in a newline. */
static char *
inline_content(const Ratification *r, Size *len)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	for (i = 0; i < (int) r->tree.len; i++)
	{
		CHECK_FOR_INTERRUPTS();
		dc_dj_append_json(&buf, &r->tree.u.items[i]);
		appendStringInfoChar(&buf, '\n');
	}
	*len = buf.len;
	return buf.data;
}

/* ---------------------------------------------------------------------
 * The check
 * ---------------------------------------------------------------------
 */

/* The arguments of the request's check of winners through 'through'. */
static void
check_args(ConflictCheckArgs *a, const CommitRequest *req, DeltaLog *log,
		   int64 through, const DeltaCommit *commit, int n_unknown)
{
	memset(a, 0, sizeof(*a));
	a->log = log;
	a->read_version = req->read_version;
	a->has_through_version = true;
	a->through_version = through;
	a->preds = req->preds;
	a->npreds = req->npreds;
	a->loser_commit = commit;
	a->loser_n_unknown = n_unknown;
	a->isolation = req->isolation;
	a->read_whole_table = req->read_whole_table;
	a->app_ids = req->app_ids;
	a->napp = req->napp;
	a->read_files = req->read_files;
	a->nread_files = req->nread_files;
	a->mode = req->mode;
}

/*
 * ERROR unless 'back' (the stored content decoded as readers decode it)
 * is the commit checked: its txnId and number of file actions.
 */
static void
check_decoded(const DeltaCommit *back, const Ratification *r,
			  const char *txn_id)
{
	if (back->commit_info == NULL || back->commit_info->txn_id == NULL ||
		strcmp(back->commit_info->txn_id, txn_id) != 0 ||
		back->n_files != r->commit->n_files)
		elog(ERROR, "rebased commit does not decode to the commit checked");
}

/* What the work before the row lock runs on (precheck). */
typedef struct PreCheck
{
	const CommitRequest *req;
	Ratification *r;
	int			n_unknown;
	MemoryContext outer;		/* where the content made goes */
} PreCheck;

static void
precheck_work(void *arg)
{
	PreCheck   *p = (PreCheck *) arg;
	Ratification *r = p->r;
	DeltaLog   *log;
	ConflictCheckArgs a;
	MemoryContext old = MemoryContextSwitchTo(p->outer);

	/* the content as proposed, as readers decode it, and its hash */
	r->spec_content = inline_content(r, &r->spec_len);
	r->spec_back = DeltaLogDecodeBytes(NULL, r->spec_content, r->spec_len,
									   "the commit proposed", -1);
	DeltaSha256(r->spec_content, r->spec_len, r->spec_sha256);
	r->spec_valid = true;

	/* the view of the table, kept for the steps under the lock */
	log = DeltaLogOpen(r->path);
	r->pre_log = log;
	MemoryContextSwitchTo(old);

	if (log->catalog == NULL || p->req->read_version < 0 ||
		p->req->read_version > log->latest_version)
		return;
	check_args(&a, p->req, log, log->latest_version, r->commit,
			   p->n_unknown);
	(void) conflict_check_run(&a, true, NULL);
}

/*
 * The work of an inline commit that can be done before the row lock:
 * commits of the table wait for the lock from its holder's check to its
 * end, so what is done here, while others hold it, is work their commits
 * do not wait for.
 *	- the content as proposed, decoded back and hashed: stored as it is
 *	  when the rebase under the lock changes nothing;
 *	- the check against the versions ratified so far, for what it leaves in
 *	  the session's caches alone: the read version's snapshot and read
 *	  files, the reads compiled, the winners decoded with their statistics.
 *	  It decides nothing: the check under the lock runs again in full (from
 *	  the caches, each validated as always);
 *	- the view of the table it opened (the listing of _delta_log, checked
 *	  by the caches once): under the lock the same view with the catalog's
 *	  newer state, when that is of the same registration and published
 *	  version (DeltaLogWithNewerCatalog), else the table opened again.
 * Any error met here is left to the steps under the lock that raise
 * errors, in their order (a subtransaction takes it back).
 */
static void
precheck(const CommitRequest *req, Ratification *r, int n_unknown)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "deltacc commit pre-check",
											  ALLOCSET_DEFAULT_SIZES);
	PreCheck	p;
	ErrorData  *e;

	p.req = req;
	p.r = r;
	p.n_unknown = n_unknown;
	p.outer = CurrentMemoryContext;
	e = dc_try_subxact(precheck_work, &p, cxt, false);
	if (e != NULL)
		FreeErrorData(e);
	MemoryContextDelete(cxt);
}

/* ---------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------
 */

/*
 * catalog_register: see ratify.h.
 */
int64
catalog_register(const char *table_path)
{
	char	   *path;
	ManagedTable mt;
	DeltaLog   *log;
	const char *table_id = NULL;

	catalog_check_role(CATALOG_ROLE_COMMIT);
	path = DeltaCanonicalTablePath(table_path);
	if (catalog_get_table(path, false, &mt))
		ereport(ERROR,
				errcode(ERRCODE_DUPLICATE_OBJECT),
				errmsg("Delta table \"%s\" is registered already", path));
	log = DeltaLogOpenForCatalog(path);
	if (log->latest_version >= 0)
	{
		DeltaSnapshot *snap = DeltaSnapshotBuildLazy(log, -1);

		table_id = pstrdup(snap->metadata->id);
		DeltaSnapshotFree(snap);
	}
	if (!catalog_insert_table(path, table_id, log->latest_version))
		ereport(ERROR,
				errcode(ERRCODE_DUPLICATE_OBJECT),
				errmsg("Delta table \"%s\" is registered already", path));
	return log->latest_version;
}

/*
 * catalog_commit: see ratify.h and the file header.
 */
int64
catalog_commit(const CommitRequest *req)
{
	Ratification r;
	ManagedTable mt;
	DeltaCatalogState *cat;
	const char *txn_id;
	int64		done;
	int64		staged_version = -1;
	int			n_unknown = 0;
	char	   *content;
	Size		content_len;
	uint8		sha256[32];
	TimestampTz ict_ts = 0;

	catalog_check_role(CATALOG_ROLE_COMMIT);
	memset(&r, 0, sizeof(r));
	r.now = GetCurrentTimestamp();
	r.path = DeltaCanonicalTablePath(req->table_path);
	r.read_version = req->read_version;
	if ((req->actions == NULL) == (req->staged_path == NULL))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("a commit has either actions or a staged_path"),
				errdetail("Pass the inline commit's actions, or NULL actions and the staged commit file's path."));
	if (req->staged_path != NULL)
	{
		r.staged = true;
		r.staged_path = req->staged_path;
		if (!DeltaParseStagedCommitName(req->staged_path, &staged_version))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("invalid staged commit path \"%s\"", req->staged_path),
					errdetail("A staged commit is \"_delta_log/_staged_commits/<20-digit version>.<uuid>.json\", relative to the table root."));
	}

	/*
	 * An inline proposal is decoded before the lock (no need to hold it
	 * for that); parsed once: the tree is rebased, its decoding checked
	 */
	if (!r.staged)
	{
		r.tree = dc_jsonb_parse(req->actions, "actions",
								ERRCODE_INVALID_PARAMETER_VALUE);
		r.commit = loser_decode_tree(&r.tree, &n_unknown);
		if (!IsInParallelMode())
			precheck(req, &r, n_unknown);
	}

	/* 1. the table's row, locked until the end of the transaction */
	if (!catalog_get_table(r.path, true, &mt))
		catalog_not_registered(r.path);
	r.latest = mt.latest_version;
	r.version = r.latest + 1;

	/* 2. a staged proposal, and the table through the catalog */
	if (r.staged)
	{
		read_staged(&r);
		n_unknown = loser_count_unknown(r.commit);
	}
	txn_id = r.commit->commit_info ? r.commit->commit_info->txn_id : NULL;
	if (txn_id == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("the commit has no commitInfo.txnId"),
				errdetail("A commit to a catalog-managed table carries a unique commitInfo.txnId, so that a retried request is recognised."));
	cat = catalog_commit_state(&mt, txn_id, &done);
	/* (the view opened before the lock when it is the same one, extended) */
	r.log = r.pre_log ? DeltaLogWithNewerCatalog(r.pre_log, cat) : NULL;
	if (r.log == NULL)
		r.log = DeltaLogOpenWithCatalog(r.path, cat);
	if (r.log->catalog == NULL || r.log->latest_version != r.latest)
		elog(ERROR, "catalog state of Delta table \"%s\" changed under its lock",
			 r.path);

	/* 3. a txnId ratified before: that version again */
	if (done >= 0)
		return done;

	/* 4. the bound on unpublished versions */
	if (mt.latest_version - mt.published_version >= deltacc_max_unpublished_versions)
		ereport(ERROR,
				errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				errmsg("Delta table \"%s\" has %lld ratified versions waiting to be published",
					   r.path, (long long) (mt.latest_version - mt.published_version)),
				errdetail("The limit is deltacc.max_unpublished_versions = %d.",
						  deltacc_max_unpublished_versions),
				errhint("Publish them with deltacc.publish(), then retry."));

	/*
	 * 5. the read version; a staged commit's version is authoritative: one
	 * that is not latest + 1 is refused before the (costlier) conflict
	 * check, and the answer is to stage it again, whether or not it would
	 * conflict
	 */
	if (r.read_version < -1 || r.read_version > r.latest)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("read_version %lld is out of range", (long long) r.read_version),
				errdetail("The table's latest ratified version is %lld.",
						  (long long) r.latest));
	if (r.staged && staged_version != r.version)
	{
		if (staged_version > r.version)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("staged commit \"%s\" is for version %lld, after the next version %lld",
						   r.staged_path, (long long) staged_version,
						   (long long) r.version));
		ereport(ERROR,
				errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				errmsg("version %lld of Delta table \"%s\" is taken",
					   (long long) staged_version, r.path),
				errdetail("The staged commit \"%s\" is for version %lld; the next version is %lld.",
						  r.staged_path, (long long) staged_version,
						  (long long) r.version),
				errhint("Stage the commit again as version %lld (\"_delta_log/_staged_commits/%020lld.<uuid>.json\") and retry.",
						(long long) r.version, (long long) r.version));
	}

	/* 6. the conflict check against every version after read_version */
	if (r.read_version == -1)
	{
		if (r.latest >= 0)
			ereport(ERROR,
					errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					errmsg("ProtocolChangedException: the table was created concurrently"),
					errdetail("The commit creates the table (read_version -1), but it is at version %lld.",
							  (long long) r.latest),
					errhint("Read the table again and retry."));
		if (r.commit->protocol == NULL || r.commit->metadata == NULL)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("the first commit of a table has a protocol and a metaData action"));
		r.md = r.commit->metadata;
		r.proto = r.commit->protocol;
	}
	else if (r.read_version < r.latest)
	{
		ConflictCheckArgs a;
		ConflictResult *res;

		check_args(&a, req, r.log, r.latest, r.commit, n_unknown);
		res = conflict_check_run(&a, true, &r.seen);
		r.checked = true;
		conflict_raise_first(res, psprintf("Read the table again at version %lld and retry.",
										   (long long) r.latest));
		r.md = r.seen.final_metadata;
		r.proto = r.seen.final_protocol;
	}
	else
	{
		/*
		 * Nothing was committed after the read version: nothing to check
		 * (the reads are not compiled), the arguments apart.
		 */
		if (req->isolation != NULL)
			(void) loser_isolation_arg(req->isolation);
		conflict_state_at(r.log, r.latest, &r.md, &r.proto);
	}
	if (r.commit->metadata != NULL)
		r.md = r.commit->metadata;
	if (r.commit->protocol != NULL)
		r.proto = r.commit->protocol;

	/* 7. the rebase at version latest + 1 */
	rebase_ict(&r);
	rebase_row_tracking(&r);
	check_app_txns(&r);

	/* 8. store it */
	if (r.staged)
	{
		content = NULL;
		content_len = r.len;
		DeltaSha256(r.bytes, r.len, sha256);
	}
	else if (r.spec_valid && !r.tree_changed)
	{
		/* nothing rebased: the content made before the lock */
		content = r.spec_content;
		content_len = r.spec_len;
		check_decoded(r.spec_back, &r, txn_id);
		memcpy(sha256, r.spec_sha256, PG_SHA256_DIGEST_LENGTH);
	}
	else
	{
		char	   *name = psprintf("ratified commit %lld of Delta table \"%s\"",
									(long long) r.version, r.path);

		content = inline_content(&r, &content_len);
		/* what readers will decode: the same decoder, once now */
		check_decoded(DeltaLogDecodeBytes(r.log, content, content_len, name,
										  r.version), &r, txn_id);
		DeltaSha256(content, content_len, sha256);
	}
	if (r.has_ict)
	{
		bool		isnull;

		ict_ts = DatumGetTimestampTz(DeltaMsToTimestampTz(r.ict_ms, &isnull));
		if (isnull)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("inCommitTimestamp %lld is out of range",
						   (long long) r.ict_ms));
	}
	catalog_insert_ratified(r.path, r.version, txn_id,
							r.has_ict ? &ict_ts : NULL,
							r.staged ? r.staged_path : NULL,
							content, content_len, sha256, r.now,
							r.commit->metadata ? r.commit->metadata->id : NULL);
	return r.version;
}
