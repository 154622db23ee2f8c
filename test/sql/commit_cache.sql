--
-- commit_cache.sql: the session cache of decoded commits behind the
-- conflict functions (src/snapshot/commit_cache.c, deltacc.commit_cache_size).
-- A cache hit answers exactly like a cold read; a commit file rewritten in
-- place is read again; size 0 disables the cache; a cache too small for
-- every commit evicts and still answers right; the privilege check runs
-- before the cache is consulted.  No timing is asserted.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.dir', :'abs_srcdir' || '/data/conflicts/', false) IS NOT NULL AS ok;
CREATE FUNCTION pg_temp.tbl(name text) RETURNS text LANGUAGE sql
    AS $$ SELECT current_setting('deltacc_test.dir') || name $$;
-- the loser's DELETE on ids: removes part-00 and writes its survivors back
CREATE FUNCTION pg_temp.delete_actions() RETURNS jsonb LANGUAGE sql
    AS $$ SELECT '[{"remove":{"path":"part-00.parquet","partitionValues":{},"size":1000,"deletionTimestamp":0,"dataChange":true}},
                   {"add":{"path":"rewritten.parquet","partitionValues":{},"size":1000,"modificationTime":0,"dataChange":true}}]'::jsonb $$;
-- counters relative to the last call of pg_temp.mark()
CREATE TEMP TABLE cc_mark AS SELECT * FROM deltacc.commit_cache_stats();
CREATE FUNCTION pg_temp.mark() RETURNS void LANGUAGE sql AS $$
    DELETE FROM cc_mark; INSERT INTO cc_mark SELECT * FROM deltacc.commit_cache_stats() $$;
CREATE FUNCTION pg_temp.delta(OUT hits bigint, OUT misses bigint,
                              OUT evictions bigint, OUT stale bigint)
    LANGUAGE sql AS $$
    SELECT s.hits - m.hits, s.misses - m.misses, s.evictions - m.evictions,
           s.stale - m.stale
      FROM deltacc.commit_cache_stats() s, cc_mark m $$;
-- every decision of a check, as one text (explain_conflicts: reasons too)
CREATE FUNCTION pg_temp.decisions(t text, preds text[], rf text[] DEFAULT NULL,
                                  m text DEFAULT 'stats')
    RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(format('%s %s %s %s: %s', winning_version, "check", path,
                             decision, reason), E'\n'
                      ORDER BY winning_version, "check", path, reason)
      FROM deltacc.explain_conflicts(t, 0, preds, pg_temp.delete_actions(),
                                     read_files => rf, mode => m) $$;
\set C 'SELECT winning_version AS v, conflict, path FROM deltacc.conflicts'

-- (files changed less than a second ago are not cached: the test runner
-- may just have changed the fixtures' permissions)
SELECT pg_sleep(1.1);
SHOW deltacc.commit_cache_size;
SET deltacc.commit_cache_size = '64MB';

-- cold, then warm: the same answers, the second from the cache
SELECT pg_temp.mark();
CREATE TEMP TABLE cold AS
SELECT p, rf, m, pg_temp.decisions(pg_temp.tbl(t), p, rf, m) AS d
  FROM (VALUES ('ids', '{id < 50}'::text[], NULL::text[], 'stats'),
               ('ids', '{id >= 950}', NULL, 'stats'),
               ('ids', '{id < 50}', '{part-00.parquet}', 'stats'),
               ('ids', '{id >= 950, id < 50}', '{part-00.parquet}', 'stats'),
               ('ids', '{id < 50}', '{part-00.parquet}', 'partition'),
               ('orders', '{customer_id BETWEEN 0 AND 1000}', NULL, 'stats')) AS x(t, p, rf, m);
SELECT misses > 0 AS read_from_disk, hits >= 0 AS ok FROM pg_temp.delta();
SELECT pg_temp.mark();
CREATE TEMP TABLE warm AS
SELECT p, rf, m, pg_temp.decisions(pg_temp.tbl(t), p, rf, m) AS d
  FROM (VALUES ('ids', '{id < 50}'::text[], NULL::text[], 'stats'),
               ('ids', '{id >= 950}', NULL, 'stats'),
               ('ids', '{id < 50}', '{part-00.parquet}', 'stats'),
               ('ids', '{id >= 950, id < 50}', '{part-00.parquet}', 'stats'),
               ('ids', '{id < 50}', '{part-00.parquet}', 'partition'),
               ('orders', '{customer_id BETWEEN 0 AND 1000}', NULL, 'stats')) AS x(t, p, rf, m);
SELECT hits > 0 AS served_from_cache, misses AS misses FROM pg_temp.delta();
SELECT count(*) AS checks, count(*) FILTER (WHERE c.d IS NOT DISTINCT FROM w.d) AS identical,
       count(*) FILTER (WHERE c.d IS NULL) AS empty
  FROM cold c JOIN warm w ON c.p = w.p AND c.rf IS NOT DISTINCT FROM w.rf AND c.m = w.m;
-- the answers themselves (skip and its "must still conflict" pair, warm)
:C(pg_temp.tbl('ids'), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
:C(pg_temp.tbl('ids'), 0, '{id >= 950}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
:C(pg_temp.tbl('ids'), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'partition');
-- a partitioned table with read_files (the read snapshot is still built
-- for the partition hints)
:C(pg_temp.tbl('ids_part'), 0, '{true}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', mode => 'stats');

-- checks repeated over cached commits add nothing to the cache: what a
-- warm check needs only for itself stays out of the commits' memory
-- (conflicts, and explain_conflicts with its reasons; the first of each
-- kind may remember its answers with the commit, once)
SELECT pg_temp.decisions(pg_temp.tbl('ids'), '{id < 50}', '{part-00.parquet}') IS NOT NULL AS warm;
SELECT count(*) AS warm_conflicts FROM deltacc.conflicts(pg_temp.tbl('ids'), 0, '{id < 50}',
  pg_temp.delete_actions(), read_files => '{part-00.parquet}', mode => 'stats');
SELECT bytes AS warm_bytes FROM deltacc.commit_cache_stats() \gset
SELECT count(*) AS checks, count(DISTINCT d) AS answers
  FROM generate_series(1, 200) g,
       LATERAL (SELECT string_agg(path, ',') AS d
                  FROM deltacc.conflicts(pg_temp.tbl('ids'), 0, '{id < 50}', pg_temp.delete_actions(),
                                         read_files => '{part-00.parquet}', mode => 'stats')) c;
SELECT count(DISTINCT pg_temp.decisions(pg_temp.tbl('ids'), '{id < 50}', '{part-00.parquet}')) AS explained
  FROM generate_series(1, 100);
SELECT bytes - :warm_bytes AS grown FROM deltacc.commit_cache_stats();

-- ever-new reads against the same winners: the answers and kept lists
-- remembered per set of reads are forgotten past a limit (64 per commit),
-- so the cache stops growing with them (before: ~1.3 kB more per read);
-- the answers are those of the cache turned off
CREATE FUNCTION pg_temp.sweep(lo int, hi int) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(c.d, ' ' ORDER BY g)
      FROM generate_series(lo, hi) g,
           LATERAL (SELECT g || ':' || count(*) AS d
                      FROM deltacc.conflicts(pg_temp.tbl('ids'), 0, ARRAY[format('id < %s', g)],
                                             pg_temp.delete_actions(),
                                             read_files => '{part-00.parquet}', mode => 'stats')) c $$;
SELECT md5(pg_temp.sweep(1, 200)) AS sweep_on \gset
SELECT bytes AS swept_bytes FROM deltacc.commit_cache_stats() \gset
SELECT md5(pg_temp.sweep(201, 1200)) AS sweep_on_2 \gset
SELECT (bytes - :swept_bytes) / 1000 < 200 AS bounded_per_read FROM deltacc.commit_cache_stats();
SET deltacc.commit_cache_size = 0;
SELECT md5(pg_temp.sweep(1, 200)) = :'sweep_on' AND
       md5(pg_temp.sweep(201, 1200)) = :'sweep_on_2' AS same_answers_caches_off;
SET deltacc.commit_cache_size = '64MB';
SELECT pg_temp.decisions(pg_temp.tbl('ids'), '{id < 50}', '{part-00.parquet}') IS NOT NULL AS warm_again;

-- a commit rewritten in place is read again, never served stale.
-- Test-local copy of ids (the fixtures stay read-only).
CREATE FUNCTION pg_temp.sh(cmd text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || cmd);
END $$;
SELECT set_config('deltacc_test.tmp', '/tmp/deltacc_cc_' || pg_backend_pid(), false) IS NOT NULL AS ok;
SELECT pg_temp.sh(format('rm -rf %1$s && mkdir -p %1$s && cp -R %2$s %1$s/ids && chmod -R u+w %1$s',
                         current_setting('deltacc_test.tmp'), pg_temp.tbl('ids')));
CREATE FUNCTION pg_temp.copy() RETURNS text LANGUAGE sql
    AS $$ SELECT current_setting('deltacc_test.tmp') || '/ids' $$;
CREATE FUNCTION pg_temp.v1() RETURNS text LANGUAGE sql
    AS $$ SELECT pg_temp.copy() || '/_delta_log/00000000000000000001.json' $$;
-- v1's file new-1000 (ids 1000..1099) is skipped for id < 50.  Files
-- changed less than a second ago are read but not cached (file times move
-- with a coarse clock): two checks right after the copy both read v1 ...
SELECT pg_temp.mark();
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
SELECT hits AS hits, misses AS reads FROM pg_temp.delta();
-- ... a second later they are cached
SELECT pg_sleep(1.1);
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
SELECT pg_temp.mark();
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
SELECT hits > 0 AS served_from_cache, misses, stale FROM pg_temp.delta();
-- same size, new content (min 1000 -> "  10", same inode): now it conflicts
-- (also the pair of the per-call memo: a call stats each commit file once
-- and takes it as found for the rest of the call; the next call stats it
-- again and sees the rewrite.  A memo kept across calls misses it.)
SELECT pg_temp.sh(format($c$sed 's/:1000}/:  10}/' %1$s > %1$s.tmp && cat %1$s.tmp > %1$s && rm %1$s.tmp$c$,
                         pg_temp.v1()));
SELECT pg_temp.mark();
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
SELECT stale AS stale_dropped, misses AS reread FROM pg_temp.delta();
SELECT pg_sleep(1.1);
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
-- another size (min back to 1000, max 10990): skipped again
SELECT pg_temp.sh(format($c$sed 's/:  10}/:1000}/; s/:1099}/:10990}/' %1$s > %1$s.tmp && cat %1$s.tmp > %1$s && rm %1$s.tmp$c$,
                         pg_temp.v1()));
SELECT pg_temp.mark();
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');
SELECT stale AS stale_dropped, misses AS reread FROM pg_temp.delta();
-- ... and its pair: a read the new maximum reaches conflicts
:C(pg_temp.copy(), 0, '{id >= 10000}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1, mode => 'stats');

-- an ERROR while a commit is read leaves no entry behind: v2 gets a broken
-- last line, the check fails; repaired, it is read again and answers
SELECT pg_sleep(1.1);
SELECT count(*) AS v1_cached FROM deltacc.conflicts(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', through_version => 1);
CREATE FUNCTION pg_temp.v2() RETURNS text LANGUAGE sql
    AS $$ SELECT pg_temp.copy() || '/_delta_log/00000000000000000002.json' $$;
SELECT pg_temp.sh(format($c$cp %1$s %1$s.orig && printf '{"add":{"path":' >> %1$s$c$,
                         pg_temp.v2()));
SELECT pg_temp.mark();
SELECT entries AS entries_before FROM deltacc.commit_cache_stats() \gset
\set VERBOSITY sqlstate
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', mode => 'stats');
\set VERBOSITY default
SELECT s.entries - :entries_before AS new_entries, d.misses AS read_attempts FROM deltacc.commit_cache_stats() s, pg_temp.delta() d;
SELECT pg_temp.sh(format($c$cat %1$s.orig > %1$s && rm %1$s.orig$c$, pg_temp.v2()));
SELECT pg_temp.mark();
:C(pg_temp.copy(), 0, '{id < 50}', pg_temp.delete_actions(), read_files => '{part-00.parquet}', mode => 'stats');
SELECT misses AS read_again, hits > 0 AS others_from_cache FROM pg_temp.delta();

-- size 0 disables the cache: nothing kept, nothing served, same answers
SET deltacc.commit_cache_size = 0;
SELECT pg_temp.mark();
SELECT count(*) AS checks, count(*) FILTER (WHERE c.d IS NOT DISTINCT FROM
                                            pg_temp.decisions(pg_temp.tbl(CASE WHEN c.p[1] LIKE 'customer%' THEN 'orders' ELSE 'ids' END), c.p, c.rf, c.m)) AS identical
  FROM cold c;
SELECT hits AS hits, misses > 0 AS read_from_disk FROM pg_temp.delta();
SELECT entries, bytes FROM deltacc.commit_cache_stats();

-- a cache too small for every commit: evictions, and still the same answers
SET deltacc.commit_cache_size = '64MB';
SELECT count(*) FILTER (WHERE c.d IS NOT DISTINCT FROM
                        pg_temp.decisions(pg_temp.tbl(CASE WHEN c.p[1] LIKE 'customer%' THEN 'orders' ELSE 'ids' END), c.p, c.rf, c.m)) AS identical
  FROM cold c;
SELECT set_config('deltacc.commit_cache_size',
                  greatest(1, bytes / 1024 / 2)::text, false) IS NOT NULL AS shrunk
  FROM deltacc.commit_cache_stats();
SELECT pg_temp.mark();
SELECT count(*) FILTER (WHERE c.d IS NOT DISTINCT FROM
                        pg_temp.decisions(pg_temp.tbl(CASE WHEN c.p[1] LIKE 'customer%' THEN 'orders' ELSE 'ids' END), c.p, c.rf, c.m)) AS identical
  FROM cold c;
SELECT evictions > 0 AS evicted FROM pg_temp.delta();
SELECT bytes <= pg_size_bytes(current_setting('deltacc.commit_cache_size')) AS within_limit
  FROM deltacc.commit_cache_stats();
RESET deltacc.commit_cache_size;

-- conflicts() remembers, per winner, which added files the whole set of
-- reads keeps (keyed by every read, in order).  ids_winner10's winner adds
-- ten files of 100 ids each: repeated and reordered sets, sets sharing a
-- read with another, and a set that keeps nothing answer exactly as with
-- the cache off, warm and again; each kept file must still conflict.
CREATE FUNCTION pg_temp.survivors(preds text[]) RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(format('%s %s', winning_version, path), ', '
                               ORDER BY winning_version, path), '(none)')
      FROM deltacc.conflicts(pg_temp.tbl('ids_winner10'), 0, preds,
                             pg_temp.delete_actions(), mode => 'stats') $$;
CREATE TEMP TABLE read_sets(n int, p text[]);
INSERT INTO read_sets VALUES (1, '{id < 50}'), (2, '{id >= 950}'),
    (3, '{id < 50, id >= 950}'), (4, '{id >= 950, id < 50}'), (5, '{id < 50}'),
    (6, '{id > 100000}'), (7, '{id BETWEEN 150 AND 250}'),
    (8, '{id < 50, id > 100000}'), (9, '{id >= 950}');
SET deltacc.commit_cache_size = 0;
CREATE TEMP TABLE uncached AS SELECT n, p, pg_temp.survivors(p) AS s FROM read_sets;
RESET deltacc.commit_cache_size;
CREATE TEMP TABLE cached1 AS SELECT n, pg_temp.survivors(p) AS s FROM read_sets ORDER BY n;
CREATE TEMP TABLE cached2 AS SELECT n, pg_temp.survivors(p) AS s FROM read_sets ORDER BY n DESC;
SELECT u.n, u.p, u.s AS conflicts, u.s = c1.s AS same_warm, u.s = c2.s AS same_again
  FROM uncached u JOIN cached1 c1 USING (n) JOIN cached2 c2 USING (n) ORDER BY u.n;

-- the privilege check runs on every call, before the cache: a role
-- without pg_read_server_files gets 42501 even for commits cached here
CREATE ROLE regress_cc_nobody;
GRANT USAGE ON SCHEMA deltacc TO regress_cc_nobody;
GRANT EXECUTE ON FUNCTION deltacc.conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text),
                          deltacc.commit_cache_stats() TO regress_cc_nobody;
SELECT entries > 0 AS cache_warm FROM deltacc.commit_cache_stats();
SET ROLE regress_cc_nobody;
\set VERBOSITY sqlstate
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'ids', 0, '{id < 50}', read_files => '{part-00.parquet}');
SELECT count(*) FROM deltacc.commit_cache_stats();
\set VERBOSITY default
RESET ROLE;
REVOKE ALL ON SCHEMA deltacc FROM regress_cc_nobody;
REVOKE ALL ON FUNCTION deltacc.conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text),
                       deltacc.commit_cache_stats() FROM regress_cc_nobody;
DROP ROLE regress_cc_nobody;

SELECT pg_temp.sh(format('rm -rf %s', current_setting('deltacc_test.tmp')));
