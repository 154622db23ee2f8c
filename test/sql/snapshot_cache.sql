--
-- snapshot_cache.sql: the session cache of read-version snapshots
-- (src/snapshot/snapshot_cache.c) behind the default path of the conflict
-- functions (no read_files: the read files derived from the read snapshot)
-- and behind deltacc.commit.  Every cached answer is compared with the
-- answer of the same check with the caches off (deltacc.commit_cache_size
-- = 0), across appends, a commit file rewritten in place, a log whose
-- first commits were cleaned up after a checkpoint, and a ratification
-- taken back by a rollback, ratified commits published, a published file
-- rewritten (the catalog's copy wins: readers see the ratified bytes), a
-- file in place of an unpublished version, and a table registered again;
-- the rewrite of a plain log's file, the winners read from the catalog's
-- copies and the new registration are the "must still conflict" cases:
-- served from a stale snapshot (or from the rewritten file), the loser
-- would not have read the file a winner removed.
-- No timing is asserted.
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
CREATE FUNCTION pg_temp.sh(cmd text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || cmd);
END $$;
-- write a file: its lines, each ending in a newline
CREATE FUNCTION pg_temp.write(path text, lines text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT %L) TO PROGRAM %L',
                 translate(encode(convert_to(array_to_string(lines, E'\n') || E'\n', 'UTF8'), 'base64'), E'\n', ''),
                 format('base64 -d > %s', path));
END $$;
SELECT set_config('deltacc_test.tmp', '/tmp/deltacc_sc_' || pg_backend_pid(), false) IS NOT NULL AS ok;
CREATE FUNCTION pg_temp.t(name text) RETURNS text LANGUAGE sql
    AS $$ SELECT current_setting('deltacc_test.tmp') || '/' || name $$;
CREATE FUNCTION pg_temp.v(name text, v int) RETURNS text LANGUAGE sql
    AS $$ SELECT pg_temp.t(name) || '/_delta_log/' || lpad(v::text, 20, '0') || '.json' $$;
-- an add of ids lo..hi (hi's digits keep a file's size when rewritten)
CREATE FUNCTION pg_temp.add(path text, lo text, hi text) RETURNS text LANGUAGE sql AS $$
    SELECT format('{"add":{"path":"%s","partitionValues":{},"size":100,"modificationTime":0,"dataChange":true,"stats":"{\"numRecords\":10,\"minValues\":{\"id\":%s},\"maxValues\":{\"id\":%s},\"nullCount\":{\"id\":0}}"}}',
                  path, lo, hi) $$;
CREATE FUNCTION pg_temp.remove(path text) RETURNS text LANGUAGE sql AS $$
    SELECT format('{"remove":{"path":"%s","deletionTimestamp":0,"dataChange":true}}', path) $$;
CREATE FUNCTION pg_temp.ci(op text) RETURNS text LANGUAGE sql AS $$
    SELECT format('{"commitInfo":{"operation":"%s","isBlindAppend":%s}}', op,
                  CASE WHEN op = 'WRITE' THEN 'true' ELSE 'false' END) $$;
SELECT pg_temp.sh(format('rm -rf %1$s && mkdir -p %1$s/ids/_delta_log', current_setting('deltacc_test.tmp')));
SELECT pg_temp.write(pg_temp.v('ids', 0), ARRAY[
    pg_temp.ci('WRITE'),
    '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
    '{"metaData":{"id":"sc","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{},"createdTime":0}}',
    pg_temp.add('a.parquet', '0', '99'),
    pg_temp.add('f.parquet', '1000', '1099')]);
SELECT pg_temp.write(pg_temp.v('ids', 1), ARRAY[pg_temp.ci('WRITE'), pg_temp.add('b.parquet', '2000', '2099')]);
-- version 2 deletes f's rows, version 3 appends ids 3000..
SELECT pg_temp.write(pg_temp.v('ids', 2), ARRAY[pg_temp.ci('DELETE'), pg_temp.remove('f.parquet')]);
SELECT pg_temp.write(pg_temp.v('ids', 3), ARRAY[pg_temp.ci('WRITE'), pg_temp.add('c.parquet', '3000', '3099')]);
-- the loser: a DELETE of ids below 50 that read version rv (it rewrites a)
CREATE FUNCTION pg_temp.loser() RETURNS jsonb LANGUAGE sql AS $$
    SELECT format('[%s, %s, %s]', pg_temp.ci('DELETE'), pg_temp.remove('a.parquet'),
                  pg_temp.add('a2.parquet', '0', '49'))::jsonb $$;
-- every decision of the check, as one text
CREATE FUNCTION pg_temp.decisions(t text, rv bigint, preds text[])
    RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(format('%s %s %s %s: %s', winning_version, "check", path,
                                      decision, reason), E'\n'
                               ORDER BY winning_version, "check", path, reason), '(none)')
      FROM deltacc.explain_conflicts(t, rv, preds, pg_temp.loser()) $$;
-- the same check with every cache off, in the same statement
CREATE FUNCTION pg_temp.uncached(t text, rv bigint, preds text[])
    RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  d text;
BEGIN
  PERFORM set_config('deltacc.commit_cache_size', '0', true);
  d := pg_temp.decisions(t, rv, preds);
  PERFORM set_config('deltacc.commit_cache_size', '64MB', true);
  RETURN d;
END $$;
CREATE FUNCTION pg_temp.same(t text, rv bigint, preds text[]) RETURNS boolean
    LANGUAGE sql AS $$ SELECT pg_temp.decisions(t, rv, preds) = pg_temp.uncached(t, rv, preds) $$;
-- counters relative to the last pg_temp.mark()
CREATE TEMP TABLE sc_mark AS SELECT * FROM deltacc.snapshot_cache_stats();
CREATE FUNCTION pg_temp.mark() RETURNS void LANGUAGE sql AS $$
    DELETE FROM sc_mark; INSERT INTO sc_mark SELECT * FROM deltacc.snapshot_cache_stats() $$;
CREATE FUNCTION pg_temp.delta(OUT hits bigint, OUT advanced bigint, OUT misses bigint,
                              OUT stale bigint, OUT uncached bigint)
    LANGUAGE sql AS $$
    SELECT s.hits - m.hits, s.advanced - m.advanced, s.misses - m.misses,
           s.stale - m.stale, s.uncached - m.uncached
      FROM deltacc.snapshot_cache_stats() s, sc_mark m $$;
\set C 'SELECT winning_version AS v, conflict, path FROM deltacc.conflicts'
SET deltacc.commit_cache_size = '64MB';

-- files changed less than a second ago are read but not cached
SELECT pg_temp.mark();
SELECT pg_temp.same(pg_temp.t('ids'), 1, '{id < 50}') AS same_fresh;
SELECT hits, misses > 0 AS built, uncached > 0 AS not_cached FROM pg_temp.delta();
SELECT pg_sleep(1.1);

-- read version 1: the loser read a (f and b are skipped by id < 50);
-- version 2's removal of f is no conflict, version 3's append neither
SELECT pg_temp.decisions(pg_temp.t('ids'), 1, '{id < 50}');
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('ids'), 1, '{id < 50}') IS NOT NULL AS cold;
SELECT pg_temp.decisions(pg_temp.t('ids'), 1, '{id < 50}') IS NOT NULL AS warm;
SELECT hits > 0 AS served_from_cache, misses AS built FROM pg_temp.delta();
SELECT pg_temp.same(pg_temp.t('ids'), 1, '{id < 50}') AS same_v1,
       pg_temp.same(pg_temp.t('ids'), 1, '{id >= 1000}') AS same_v1_f,
       pg_temp.same(pg_temp.t('ids'), 0, '{id < 50}') AS same_v0;

-- appends: read versions 2 and 3 are made from the cached version 1 and
-- the commits since.  (A check with the caches off empties them: the
-- cached answers are taken first.)
SELECT pg_temp.decisions(pg_temp.t('ids'), 1, '{id < 50}') IS NOT NULL AS v1_cached;
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('ids'), 2, '{id < 50}') AS d2 \gset
SELECT pg_temp.decisions(pg_temp.t('ids'), 3, '{id < 3050}') AS d3 \gset
SELECT advanced AS advanced, misses AS built FROM pg_temp.delta();
SELECT :'d2' = pg_temp.uncached(pg_temp.t('ids'), 2, '{id < 50}') AS same_v2,
       :'d3' = pg_temp.uncached(pg_temp.t('ids'), 3, '{id < 3050}') AS same_v3;
SELECT path FROM deltacc.files_for_scan(pg_temp.t('ids'), '{id >= 0}', 3) ORDER BY path;
SELECT pg_temp.sh(format('cp %s %s', pg_temp.v('ids', 3), pg_temp.t('v3.json')));
SELECT pg_temp.write(pg_temp.v('ids', 4), ARRAY[pg_temp.ci('DELETE'), pg_temp.remove('b.parquet'),
                                                pg_temp.add('b2.parquet', '2000', '2049')]);
SELECT pg_sleep(1.1);
SELECT pg_temp.same(pg_temp.t('ids'), 4, '{id >= 2000}') AS same_v4,
       pg_temp.same(pg_temp.t('ids'), 3, '{id >= 2000}') AS same_v3_again;

-- must still conflict: f's statistics rewritten in place in version 0
-- (same size, new content: ids 10..1099).  The loser at read version 1
-- now read f, which version 2 removed: a conflict.  A snapshot served
-- from before the rewrite would say the loser never read f.
SELECT pg_temp.decisions(pg_temp.t('ids'), 1, '{id < 50}') IS NOT NULL AS v1_cached;
SELECT pg_temp.sh(format($c$sed 's/"id\\":1000}/"id\\":  10}/' %1$s > %1$s.tmp && cat %1$s.tmp > %1$s && rm %1$s.tmp$c$,
                         pg_temp.v('ids', 0)));
SELECT pg_temp.mark();
:C(pg_temp.t('ids'), 1, '{id < 50}', pg_temp.loser());
SELECT stale > 0 AS stale_dropped FROM pg_temp.delta();
SELECT pg_sleep(1.1);
:C(pg_temp.t('ids'), 1, '{id < 50}', pg_temp.loser());
SELECT pg_temp.same(pg_temp.t('ids'), 1, '{id < 50}') AS same_rewritten,
       pg_temp.same(pg_temp.t('ids'), 3, '{id < 50}') AS same_rewritten_v3;

-- a real log with a checkpoint at version 10: cached while every JSON
-- commit is there; once the commits before it are cleaned up, replay
-- starts from the checkpoint and the cached snapshot is not served
\if :have_tables
SELECT pg_temp.sh(format('cp -R %s %s && chmod -R u+w %s', :'tables' || '/golden-inserts-deletes-checkpoint/delta',
                         pg_temp.t('ckpt'), pg_temp.t('ckpt')));
SELECT pg_sleep(1.1);
SELECT pg_temp.same(pg_temp.t('ckpt'), 12, '{id < 30}') AS same_ckpt_json;
SELECT pg_temp.decisions(pg_temp.t('ckpt'), 12, '{id < 30}') AS dk \gset
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('ckpt'), 12, '{id < 30}') = :'dk' AS same_ckpt_json_warm;
SELECT hits > 0 AS served_from_cache FROM pg_temp.delta();
SELECT pg_temp.sh(format('rm %s/_delta_log/0000000000000000000[0-8].json', pg_temp.t('ckpt')));
SELECT pg_temp.mark();
SELECT pg_temp.same(pg_temp.t('ckpt'), 12, '{id < 30}') AS same_ckpt_cleaned;
SELECT hits AS hits, misses > 0 AS built FROM pg_temp.delta();
\else
\echo 'skipped: no real Delta tables (DELTACC_TABLES)'
\endif

-- the coordinator: a ratification taken back by a rollback is never
-- served.  Version 1 is ratified (adding ids 0..9), read at version 1 in
-- the same transaction, rolled back; another version 1 (ids 5000..5009)
-- is ratified: reading version 1 again sees the second one.
SELECT pg_temp.sh(format('mkdir -p %1$s/cm/_delta_log/_staged_commits && cp %2$s %1$s/cm/_delta_log/',
                         current_setting('deltacc_test.tmp'), pg_temp.v('ids', 0)));
SELECT pg_sleep(1.1);
SELECT deltacc.register_table(pg_temp.t('cm'));
CREATE FUNCTION pg_temp.append(lo text, hi text, txn text) RETURNS jsonb LANGUAGE sql AS $$
    SELECT format('[{"commitInfo":{"operation":"WRITE","isBlindAppend":true,"txnId":"%s"}}, %s]',
                  txn, pg_temp.add('n-' || txn || '.parquet', lo, hi))::jsonb $$;
BEGIN;
SELECT deltacc.commit(pg_temp.t('cm'), 0, pg_temp.append('0', '9', 'one'));
SELECT pg_temp.decisions(pg_temp.t('cm'), 1, '{id < 50}') = pg_temp.uncached(pg_temp.t('cm'), 1, '{id < 50}') AS same_in_txn;
SELECT path FROM deltacc.files_for_scan(pg_temp.t('cm'), '{id < 50}', 1) ORDER BY path;
ROLLBACK;
SELECT deltacc.commit(pg_temp.t('cm'), 0, pg_temp.append('5000', '5009', 'two'));
SELECT pg_temp.mark();
SELECT pg_temp.same(pg_temp.t('cm'), 1, '{id < 50}') AS same_after_rollback,
       pg_temp.same(pg_temp.t('cm'), 1, '{id >= 5000}') AS same_after_rollback_2;
SELECT stale > 0 AS stale_dropped FROM pg_temp.delta();
-- a loser at read version 0 that read ids below 50: version 1 (ids 5000..)
-- is no conflict; one that read ids from 5000 on conflicts with it
:C(pg_temp.t('cm'), 0, '{id < 50}', pg_temp.loser());
:C(pg_temp.t('cm'), 0, '{id >= 5000}', pg_temp.loser());
-- commits through the catalog: each checked against the snapshot made from
-- the previous one; the versions and files as ratified
SELECT deltacc.commit(pg_temp.t('cm'), 1, pg_temp.append('6000', '6009', 'three'), '{id >= 6000}');
SELECT deltacc.commit(pg_temp.t('cm'), 1, pg_temp.append('7000', '7009', 'four'), '{id >= 7000}');
SELECT pg_temp.same(pg_temp.t('cm'), 2, '{id >= 6000}') AS same_v2,
       pg_temp.same(pg_temp.t('cm'), 1, '{id >= 6000}') AS same_v1;
SELECT path FROM deltacc.files_for_scan(pg_temp.t('cm'), '{id >= 0}') ORDER BY path;

-- publishing: readers keep taking the catalog's copies of the published
-- versions (their ratified rows exist), so the snapshots cached from them
-- are served (not built again), with the same answers, and no published
-- file is read or stat'ed for them
SELECT pg_temp.decisions(pg_temp.t('cm'), 3, '{id >= 6000}') AS dp \gset
SELECT deltacc.publish(pg_temp.t('cm')) AS published;
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('cm'), 3, '{id >= 6000}') = :'dp' AS same_published;
SELECT hits > 0 AS served_from_cache, misses AS built, stale FROM pg_temp.delta();
SELECT pg_sleep(1.1);
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('cm'), 3, '{id >= 6000}') = :'dp' AS same_settled,
       pg_temp.decisions(pg_temp.t('cm'), 3, '{id >= 6000}') = :'dp' AS same_settled_again;
SELECT hits > 0 AS served_from_cache, misses AS built, stale FROM pg_temp.delta();
SELECT :'dp' = pg_temp.uncached(pg_temp.t('cm'), 3, '{id >= 6000}') AS same_uncached;

-- a published file rewritten in place: the catalog's copy of a version
-- whose ratified row exists wins over the file of that name, published or
-- not (DESIGN, "Catalog-managed tables"), so the rewrite changes nothing
-- a reader sees.  Version 4 adds n-five (ids 8000..8009, a WRITE),
-- version 5 removes it.  Published, then version 4's file is rewritten
-- in place (ids 0..9, a MERGE): history, snapshot_files, the conflict
-- functions and commit read version 4 as ratified, cached or not.
CREATE FUNCTION pg_temp.delete(path text, txn text) RETURNS jsonb LANGUAGE sql AS $$
    SELECT format('[{"commitInfo":{"operation":"DELETE","isBlindAppend":false,"txnId":"%s"}}, %s]',
                  txn, pg_temp.remove(path))::jsonb $$;
CREATE FUNCTION pg_temp.loser_commit(txn text) RETURNS jsonb LANGUAGE sql AS $$
    SELECT format('[{"commitInfo":{"operation":"DELETE","isBlindAppend":false,"txnId":"%s"}}, %s, %s]',
                  txn, pg_temp.remove('a.parquet'), pg_temp.add('a2.parquet', '0', '49'))::jsonb $$;
SELECT deltacc.commit(pg_temp.t('cm'), 3, pg_temp.append('8000', '8009', 'five')) AS v4;
SELECT deltacc.commit(pg_temp.t('cm'), 4, pg_temp.delete('n-five.parquet', 'six')) AS v5;
:C(pg_temp.t('cm'), 4, '{id < 50}', pg_temp.loser());
SELECT pg_temp.decisions(pg_temp.t('cm'), 4, '{id < 50}') AS d4 \gset
SELECT deltacc.publish(pg_temp.t('cm')) AS published;
SELECT pg_temp.sh(format($c$sed 's/"id\\":8000}/"id\\":   0}/; s/"id\\":8009}/"id\\":   9}/; s/"WRITE"/"MERGE"/' %1$s > %1$s.tmp && cat %1$s.tmp > %1$s && rm %1$s.tmp$c$,
                         pg_temp.v('cm', 4)));
SELECT pg_temp.mark();
:C(pg_temp.t('cm'), 4, '{id < 50}', pg_temp.loser());
SELECT stale AS stale FROM pg_temp.delta();
SELECT pg_temp.decisions(pg_temp.t('cm'), 4, '{id < 50}') = :'d4' AS same_as_ratified,
       pg_temp.uncached(pg_temp.t('cm'), 4, '{id < 50}') = :'d4' AS same_as_ratified_uncached;
SELECT version, operation FROM deltacc.history(pg_temp.t('cm')) WHERE version = 4;
SELECT path, stats->'minValues' AS min FROM deltacc.snapshot_files(pg_temp.t('cm'), 4)
 WHERE path = 'n-five.parquet';
-- must still conflict: a winner that is only in the catalog (version 6
-- below, unpublished) and a published winner whose ratified row exists
-- (version 5, read from the catalog's copy): a loser at read version 4
-- that read ids from 8000 on read n-five, which version 5 removed; with
-- the rewritten file taken for version 4 the loser would not have read
-- it.  Through commit too (a rollback takes the ratification back).
:C(pg_temp.t('cm'), 4, '{id >= 8000}', pg_temp.loser());
\set VERBOSITY terse
SELECT deltacc.commit(pg_temp.t('cm'), 4, pg_temp.loser_commit('loser-a'), '{id >= 8000}');
BEGIN;
SELECT deltacc.commit(pg_temp.t('cm'), 4, pg_temp.loser_commit('loser-b'), '{id < 50}') AS v6_rolled_back;
ROLLBACK;
\set VERBOSITY default
-- a published version whose ratified row is gone is not read from its
-- file either: the catalog is damaged (data_corrupted), never guessed
BEGIN;
DELETE FROM deltacc.ratified_commits WHERE table_path = pg_temp.t('cm') AND version = 2;
DO $$ BEGIN
  PERFORM count(*) FROM deltacc.history(pg_temp.t('cm'));
EXCEPTION WHEN data_corrupted THEN
  RAISE NOTICE 'data_corrupted: %', regexp_replace(SQLERRM, '"[^"]*"', '"..."');
END $$;
ROLLBACK;
SELECT pg_sleep(1.1);

-- a file in place of an unpublished version with other bytes: publish
-- refuses it (data_corrupted) and leaves it as it is; the version is still
-- read from the catalog's copy, cached or not
SELECT deltacc.commit(pg_temp.t('cm'), 5, pg_temp.append('9000', '9009', 'seven')) AS v6;
SELECT pg_temp.decisions(pg_temp.t('cm'), 6, '{id >= 9000}') AS d6 \gset
SELECT pg_temp.write(pg_temp.v('cm', 6), ARRAY[pg_temp.ci('WRITE'), pg_temp.add('rogue.parquet', '9000', '9009')]);
\set VERBOSITY terse
SELECT deltacc.publish(pg_temp.t('cm'));
\set VERBOSITY default
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('cm'), 6, '{id >= 9000}') = :'d6' AS same_unpublished;
SELECT hits > 0 AS served_from_cache, misses AS built FROM pg_temp.delta();
SELECT :'d6' = pg_temp.uncached(pg_temp.t('cm'), 6, '{id >= 9000}') AS same_unpublished_uncached;
SELECT path FROM deltacc.files_for_scan(pg_temp.t('cm'), '{id >= 9000}', 6) ORDER BY path;
-- must still conflict: version 6, ratified and not published (publish
-- refused), is a winner for a loser at read version 5 that read it
:C(pg_temp.t('cm'), 5, '{id >= 9000}', pg_temp.loser());
\set VERBOSITY terse
SELECT deltacc.commit(pg_temp.t('cm'), 5, pg_temp.loser_commit('loser-c'), '{id >= 9000}');
\set VERBOSITY default

-- must still conflict: the table registered again (its rows and row taken
-- out: versions 0..5 of the log are its history now) has other commits
-- after version 5, and nothing cached from the first registration is
-- served for them.  Version 6 adds n-eight (ids 0..9) now, version 7
-- removes it: a loser at read version 6 that read ids below 50 conflicts
-- with version 7.  The cached version 6 of the first registration (n-seven,
-- ids 9000..9009) would miss it.
SELECT pg_temp.decisions(pg_temp.t('cm'), 6, '{id < 50}') IS NOT NULL AS v6_cached;
SELECT pg_temp.mark();
DELETE FROM deltacc.ratified_commits WHERE table_path = pg_temp.t('cm');
DELETE FROM deltacc.managed_tables WHERE table_path = pg_temp.t('cm');
SELECT pg_temp.sh(format('rm %s', pg_temp.v('cm', 6)));
SELECT deltacc.register_table(pg_temp.t('cm')) AS registered;
SELECT deltacc.commit(pg_temp.t('cm'), 5, pg_temp.append('0', '9', 'eight')) AS v6;
SELECT deltacc.commit(pg_temp.t('cm'), 6, pg_temp.delete('n-eight.parquet', 'nine')) AS v7;
:C(pg_temp.t('cm'), 6, '{id < 50}', pg_temp.loser());
SELECT stale > 0 AS stale_dropped FROM pg_temp.delta();
SELECT pg_temp.same(pg_temp.t('cm'), 6, '{id < 50}') AS same_registered_again;

-- must still conflict: the metaData in force at a read version is that
-- of the newest cached snapshot before it unless a commit since names a
-- newer one.  Version 0 sets WriteSerializable, version 1 Serializable, version 2 blind-appends c (ids 20..29)
-- into the loser's read.  With the snapshot at version 0 cached, a check
-- at read version 1 given its read files (only the read version's
-- metaData and protocol needed) must run at Serializable: a
-- ConcurrentAppendException.  Version 0's level would let it pass.
SELECT pg_temp.sh(format('mkdir -p %s/_delta_log', pg_temp.t('iso')));
CREATE FUNCTION pg_temp.md(conf text) RETURNS text LANGUAGE sql AS $$
    SELECT format('{"metaData":{"id":"iso","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{%s},"createdTime":0}}', conf) $$;
SELECT pg_temp.write(pg_temp.v('iso', 0), ARRAY[
    pg_temp.ci('WRITE'),
    '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
    pg_temp.md('"delta.isolationLevel":"WriteSerializable"'),
    pg_temp.add('a.parquet', '0', '9')]);
SELECT pg_temp.write(pg_temp.v('iso', 1), ARRAY[
    pg_temp.ci('SET TBLPROPERTIES'), pg_temp.md('"delta.isolationLevel":"Serializable"')]);
SELECT pg_temp.write(pg_temp.v('iso', 2), ARRAY[pg_temp.ci('WRITE'), pg_temp.add('c.parquet', '20', '29')]);
SELECT pg_sleep(1.1);
SELECT pg_temp.decisions(pg_temp.t('iso'), 0, '{id < 50}') IS NOT NULL AS v0_cached;
SELECT pg_temp.mark();
:C(pg_temp.t('iso'), 1, '{id < 50}', pg_temp.loser(), read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
SELECT misses AS built FROM pg_temp.delta();
:C(pg_temp.t('iso'), 1, '{id < 50}', pg_temp.loser(), read_files => '{a.parquet}',
   through_version => 2, mode => 'partition');

-- the read snapshot built by a check on the default path has its
-- statistics strings prescanned for the reads' columns as its add lines
-- are decoded, and the same prescan then serves the winners.  Version 0:
-- a (ids 100..199, skipped by id < 50), b (ids 0..9, read), c (a minimum
-- the scanner cannot take as a long: read, its statistics unknown).
-- Version 1 appends n (no statistics) and m (ids 1000..1099); version 2
-- deletes a and c.  Must still conflict: n (file 0 of its commit, as a is
-- of the snapshot) has no statistics; were the snapshot's answers not
-- forgotten before the winners are read, n would be judged on what file
-- 0 of the snapshot left in the prescan.  c, a read file, deleted:
-- ConcurrentDeleteReadException.
SELECT pg_temp.sh(format('mkdir -p %s/_delta_log', pg_temp.t('rvp')));
SELECT pg_temp.write(pg_temp.v('rvp', 0), ARRAY[
    pg_temp.ci('WRITE'),
    '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
    '{"metaData":{"id":"rvp","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{},"createdTime":0}}',
    pg_temp.add('a.parquet', '100', '199'),
    pg_temp.add('b.parquet', '0', '9'),
    pg_temp.add('c.parquet', '\"5\"', '200')]);
SELECT pg_temp.write(pg_temp.v('rvp', 1), ARRAY[
    pg_temp.ci('WRITE'),
    '{"add":{"path":"n.parquet","partitionValues":{},"size":100,"modificationTime":0,"dataChange":true,"stats":null}}',
    pg_temp.add('m.parquet', '1000', '1099')]);
SELECT pg_temp.write(pg_temp.v('rvp', 2), ARRAY[
    pg_temp.ci('DELETE'), pg_temp.remove('a.parquet'), pg_temp.remove('c.parquet')]);
CREATE FUNCTION pg_temp.rvp_loser() RETURNS jsonb LANGUAGE sql AS $$
    SELECT format('[%s, %s, %s]', pg_temp.ci('DELETE'), pg_temp.remove('b.parquet'),
                  pg_temp.add('b2.parquet', '0', '9'))::jsonb $$;
SELECT pg_temp.mark();
-- (the first time, the removed paths are looked up one by one in a
-- snapshot of keys only: nothing is built or cached ...)
:C(pg_temp.t('rvp'), 0, '{id < 50}', pg_temp.rvp_loser(), mode => 'stats') ORDER BY 1, 3;
SELECT misses AS built FROM pg_temp.delta();
-- (... asked again, the snapshot is built with its statistics prescanned)
:C(pg_temp.t('rvp'), 0, '{id < 50}', pg_temp.rvp_loser(), mode => 'stats') ORDER BY 1, 3;
SELECT misses AS built FROM pg_temp.delta();
-- the same from the cached snapshot, and with the caches off
:C(pg_temp.t('rvp'), 0, '{id < 50}', pg_temp.rvp_loser(), mode => 'stats') ORDER BY 1, 3;
SET deltacc.commit_cache_size = 0;
:C(pg_temp.t('rvp'), 0, '{id < 50}', pg_temp.rvp_loser(), mode => 'stats') ORDER BY 1, 3;
SET deltacc.commit_cache_size = '64MB';

-- A session keeps the snapshots of the 16 read versions of a table it used
-- last: read versions 0 to 19 in turn (each advanced from the one before),
-- version 19 is still served, version 0 is made again (no version before
-- it is kept), and its answers are those with the caches off.  Must still
-- conflict: version 5 removes a.parquet, which the loser rewrites.
SELECT pg_temp.sh(format('mkdir -p %s/many/_delta_log', current_setting('deltacc_test.tmp')));
SELECT pg_temp.write(pg_temp.v('many', 0), ARRAY[
    pg_temp.ci('WRITE'),
    '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
    '{"metaData":{"id":"many","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{},"createdTime":0}}',
    pg_temp.add('a.parquet', '0', '99')]);
SELECT count(*) AS written FROM (
  SELECT pg_temp.write(pg_temp.v('many', k),
           CASE WHEN k = 5 THEN ARRAY[pg_temp.ci('DELETE'), pg_temp.remove('a.parquet')]
                ELSE ARRAY[pg_temp.ci('WRITE'),
                           pg_temp.add(format('f%s.parquet', k), (1000 * k)::text, (1000 * k + 99)::text)]
           END)
    FROM generate_series(1, 20) k) w;
SELECT pg_sleep(1.1);
SELECT count(DISTINCT pg_temp.decisions(pg_temp.t('many'), rv, '{id < 50}')) AS checked
  FROM generate_series(0, 19) rv;
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('many'), 19, '{id < 50}') IS NOT NULL AS v19;
SELECT hits, advanced, misses FROM pg_temp.delta();
SELECT pg_temp.mark();
SELECT pg_temp.decisions(pg_temp.t('many'), 0, '{id < 50}') AS d0 \gset
SELECT hits, advanced, misses FROM pg_temp.delta();
:C(pg_temp.t('many'), 0, '{id < 50}', pg_temp.loser(), mode => 'stats') ORDER BY 1, 3;
SELECT :'d0' = pg_temp.uncached(pg_temp.t('many'), 0, '{id < 50}') AS same_v0;

-- (the registration is this suite's own: taken out again)
DELETE FROM deltacc.ratified_commits WHERE table_path = pg_temp.t('cm');
DELETE FROM deltacc.managed_tables WHERE table_path = pg_temp.t('cm');
SELECT pg_temp.sh(format('rm -rf %s', current_setting('deltacc_test.tmp')));
RESET deltacc.commit_cache_size;
