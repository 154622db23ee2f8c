--
-- readset_cache.sql: compiled read predicates kept across statements
-- (src/check/readset_cache.c).  A kept plan must never answer for settings or
-- catalogs other than those it was compiled under.  Each case first checks
-- a read under which the winner's file is skipped (so a plan is kept), then
-- changes only one setting or the catalog, and the same text must conflict
-- (and the other way round).  Table env: version 1 adds new.parquet with
-- id 100..199, ts 2023-12-31T23:30Z..2024-01-01T00:30Z, d 2024-01-02.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.dir', :'abs_srcdir' || '/data/conflicts/', false) IS NOT NULL AS ok;
-- the loser: a DELETE that removed base.parquet after reading with pred
CREATE FUNCTION pg_temp.check(pred text) RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(format('v%s %s %s', winning_version, conflict, path), '; '),
                    'no conflict')
      FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'env', 0,
                             ARRAY[pred],
                             '[{"remove":{"path":"base.parquet","partitionValues":{},"size":1000,"deletionTimestamp":0,"dataChange":true}}]',
                             mode => 'stats') $$;

-- 1. TimeZone: a literal without a zone on a timestamp column
SET TimeZone = 'Etc/GMT-2';		-- UTC+2: local midnight is 22:00 UTC
SELECT pg_temp.check($$ts < '2024-01-01 00:00'$$) AS utc_plus_2;
SELECT pg_temp.check($$ts < '2024-01-01 00:00'$$) AS utc_plus_2_again;
SET TimeZone = 'UTC';			-- midnight UTC: min(ts) 23:30 is before it
SELECT pg_temp.check($$ts < '2024-01-01 00:00'$$) AS utc_must_conflict;
SET TimeZone = 'Etc/GMT-2';
SELECT pg_temp.check($$ts < '2024-01-01 00:00'$$) AS utc_plus_2_skips_again;
RESET TimeZone;

-- 2. DateStyle: one date text read day first, then month first
SET DateStyle = 'ISO, DMY';		-- 1 February 2024
SELECT pg_temp.check($$d = '01/02/2024'$$) AS dmy;
SET DateStyle = 'ISO, MDY';		-- 2 January 2024, the file's date
SELECT pg_temp.check($$d = '01/02/2024'$$) AS mdy_must_conflict;
RESET DateStyle;

-- 3. search_path: an operator of the same name and argument types (as
-- "id < 50" reads them: bigint < integer) in a schema searched first.
-- regress_rsc.< is no comparison statistics can rule on, so it keeps.
CREATE SCHEMA regress_rsc;
CREATE FUNCTION regress_rsc.always(a bigint, b integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR regress_rsc.< (LEFTARG = bigint, RIGHTARG = integer,
                               FUNCTION = regress_rsc.always);
SELECT pg_temp.check('id < 50') AS catalog_lt;
SET search_path = regress_rsc, pg_catalog, public;
SELECT pg_temp.check('id < 50') AS shadowed_lt_must_conflict;
RESET search_path;
SELECT pg_temp.check('id < 50') AS catalog_lt_again;

-- 4. the catalog changes while search_path stays the same
CREATE SCHEMA regress_rsc2;
SET search_path = regress_rsc2, pg_catalog, public;
SELECT pg_temp.check('id < 50') AS nothing_shadows_yet;
CREATE OPERATOR regress_rsc2.< (LEFTARG = bigint, RIGHTARG = integer,
                                FUNCTION = regress_rsc.always);
SELECT pg_temp.check('id < 50') AS new_operator_must_conflict;
DROP OPERATOR regress_rsc2.< (bigint, integer);
SELECT pg_temp.check('id < 50') AS dropped_again;
-- the same, inside one transaction that is then rolled back
BEGIN;
CREATE OPERATOR regress_rsc2.< (LEFTARG = bigint, RIGHTARG = integer,
                                FUNCTION = regress_rsc.always);
SELECT pg_temp.check('id < 50') AS in_transaction_must_conflict;
ROLLBACK;
SELECT pg_temp.check('id < 50') AS after_rollback;
RESET search_path;

-- 5. a user function folded into a constant is never kept: redefining it
-- changes the answer
CREATE FUNCTION regress_rsc.lim() RETURNS bigint LANGUAGE sql IMMUTABLE
    AS 'SELECT 50::bigint';
SELECT pg_temp.check('id < regress_rsc.lim()') AS lim_50;
CREATE OR REPLACE FUNCTION regress_rsc.lim() RETURNS bigint LANGUAGE sql IMMUTABLE
    AS 'SELECT 150::bigint';
SELECT pg_temp.check('id < regress_rsc.lim()') AS lim_150_must_conflict;

-- 5b. nor when it depends on what no key or invalidation covers (here a
-- setting of its own, behind a function wrongly declared IMMUTABLE)
CREATE FUNCTION regress_rsc.lim_set() RETURNS bigint LANGUAGE sql IMMUTABLE
    AS $$SELECT current_setting('regress_rsc.lim')::bigint$$;
SET regress_rsc.lim = '50';
SELECT pg_temp.check('id < regress_rsc.lim_set()') AS lim_set_50;
SET regress_rsc.lim = '150';
SELECT pg_temp.check('id < regress_rsc.lim_set()') AS lim_set_150_must_conflict;
RESET regress_rsc.lim;

-- 5c. nor when a literal names a catalog object (OID alias types): a role
-- dropped is no longer found, though no catalog the cache watches changed
CREATE ROLE regress_rsc_named;
SELECT pg_temp.check($$id < 50 AND 'regress_rsc_named'::regrole IS NOT NULL$$) AS role_named;
DROP ROLE regress_rsc_named;
SELECT pg_temp.check($$id < 50 AND 'regress_rsc_named'::regrole IS NOT NULL$$) AS role_gone;

-- 6. EXECUTE privilege is checked on every call, after a plan was kept
CREATE ROLE regress_rsc_reader IN ROLE pg_read_server_files;
SET ROLE regress_rsc_reader;
SELECT pg_temp.check('abs(id) < 50') AS abs_allowed;
SELECT pg_temp.check('abs(id) < 50') AS abs_allowed_again;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION pg_catalog.abs(bigint) FROM PUBLIC;
SET ROLE regress_rsc_reader;
SELECT pg_temp.check('abs(id) < 50') AS abs_revoked;
RESET ROLE;
GRANT EXECUTE ON FUNCTION pg_catalog.abs(bigint) TO PUBLIC;
SET ROLE regress_rsc_reader;
SELECT pg_temp.check('abs(id) < 50') AS abs_granted_again;
RESET ROLE;

-- 6b. the same search_path names another schema for another user ("$user")
CREATE SCHEMA regress_rsc_reader;
GRANT USAGE ON SCHEMA regress_rsc_reader TO regress_rsc_reader;
CREATE OPERATOR regress_rsc_reader.< (LEFTARG = bigint, RIGHTARG = integer,
                                      FUNCTION = regress_rsc.always);
SET search_path = "$user", pg_catalog, public;
SELECT pg_temp.check('id < 50') AS no_schema_of_this_user;
SET ROLE regress_rsc_reader;
SELECT pg_temp.check('id < 50') AS user_schema_must_conflict;
RESET ROLE;
SELECT pg_temp.check('id < 50') AS no_schema_of_this_user_again;
RESET search_path;
DROP SCHEMA regress_rsc_reader CASCADE;

-- 6c. what the cache did, as DEBUG1 messages: compiled and kept, reused,
-- compiled again under another setting, compiled and not kept
SET client_min_messages = debug1;
SELECT pg_temp.check('id BETWEEN 120 AND 130') AS first;
SELECT pg_temp.check('id BETWEEN 120 AND 130') AS again;
SET DateStyle = 'ISO, DMY';
SELECT pg_temp.check('id BETWEEN 120 AND 130') AS other_datestyle;
RESET DateStyle;
SELECT pg_temp.check('id < regress_rsc.lim()') AS user_function;
RESET client_min_messages;

-- 7. with the session caches off, the same answers
SET deltacc.commit_cache_size = 0;
SET TimeZone = 'Etc/GMT-2';
SELECT pg_temp.check($$ts < '2024-01-01 00:00'$$) AS off_utc_plus_2;
SET TimeZone = 'UTC';
SELECT pg_temp.check($$ts < '2024-01-01 00:00'$$) AS off_utc_must_conflict;
RESET TimeZone;
RESET deltacc.commit_cache_size;

-- 8. many different reads: more than the cache holds, each answered as
-- when compiled fresh (ids 100..199: a bound below 100 skips)
SELECT count(*) FILTER (WHERE pg_temp.check(format('id < %s', b)) = 'no conflict') AS skipped,
       count(*) FILTER (WHERE pg_temp.check(format('id < %s', b)) <> 'no conflict') AS kept
  FROM generate_series(51, 150) b;
SELECT pg_temp.check('id < 100') AS boundary_100, pg_temp.check('id < 101') AS boundary_101;

-- 9. the reason of a kept file is remembered with the winner's kept list,
-- for one kept plan at a time: the same read under another DateStyle is
-- another plan with the same keep-predicate (the same list), so each call
-- below replaces the texts the one before remembered.  Every call, and
-- the one with the caches off, must give the same text, worded from the
-- file's statistics.
CREATE FUNCTION pg_temp.why(pred text) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(format('v%s %s: %s', winning_version, path, detail), '; ')
      FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'env', 0,
                             ARRAY[pred],
                             '[{"remove":{"path":"base.parquet","partitionValues":{},"size":1000,"deletionTimestamp":0,"dataChange":true}}]',
                             mode => 'stats') $$;
SELECT pg_temp.why('id >= 150') AS first;
SELECT pg_temp.why('id >= 150') = pg_temp.why('id >= 150') AS repeated_same;
SET DateStyle = 'ISO, DMY';
SELECT pg_temp.why('id >= 150') AS other_plan;
RESET DateStyle;
SELECT pg_temp.why('id >= 150') AS first_plan_again;
SET deltacc.commit_cache_size = 0;
SELECT pg_temp.why('id >= 150') AS caches_off;
RESET deltacc.commit_cache_size;
-- a read that keeps the file for another reason (no usable conjunct)
SELECT pg_temp.why('id >= 150 OR id::text = ''7''') AS other_reason;
SELECT pg_temp.why('id >= 150 OR id::text = ''7''') AS other_reason_again;
-- explain_conflicts words every candidate, the kept one from the list
-- the conflicts calls above remembered; the same with the caches off
CREATE FUNCTION pg_temp.explain(pred text) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(format('v%s %s %s %s: %s', winning_version, "check", path,
                             decision, reason), '; ' ORDER BY "check", path)
      FROM deltacc.explain_conflicts(current_setting('deltacc_test.dir') || 'env', 0,
                             ARRAY[pred],
                             '[{"remove":{"path":"base.parquet","partitionValues":{},"size":1000,"deletionTimestamp":0,"dataChange":true}}]',
                             mode => 'stats') $$;
SELECT pg_temp.explain('id >= 150') AS explained;
SELECT pg_temp.explain('id >= 150') AS explained_text \gset
SET deltacc.commit_cache_size = 0;
SELECT pg_temp.explain('id >= 150') = :'explained_text' AS explained_same_caches_off;
RESET deltacc.commit_cache_size;

DROP ROLE regress_rsc_reader;
DROP SCHEMA regress_rsc CASCADE;
DROP SCHEMA regress_rsc2 CASCADE;
