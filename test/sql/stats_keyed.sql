--
-- stats_keyed.sql: winner add lines whose statistics have the keys of one
-- layout in a new order on every line, as delta-rs writes them, and lines
-- at the edges of what the prescan's keyed models take
-- (test/data/stats_keyed/generate.py; js_match_keyed in
-- src/format/jshape.c).  deltacc.conflicts (fast decoders) must report
-- exactly the added files deltacc.explain_conflicts (parse tree and
-- executor, per file) reports, cold and warm; assert-enabled builds also
-- compare every prescanned answer with the parse tree's.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.t', :'abs_srcdir' || '/data/stats_keyed', false) IS NOT NULL AS ok;
\i :abs_srcdir/sql/stats_fast_slow.inc

-- the first check decodes the commit: the reordered lines are matched by
-- the keyed model of the layout, not scanned (45 lines, each with a stats
-- text; the scanner takes only what no model takes)
SELECT count(*) IS NOT NULL AS reset FROM deltacc.fastpath_stats(reset => true);
SELECT count(*) AS conflicts
  FROM deltacc.conflicts(current_setting('deltacc_test.t'), 0, '{id < 6}', pg_temp.loser(),
                         read_files => '{}', mode => 'stats');
SELECT fast_path, hits >= 30 AS most_matched, hits + misses AS texts, misses <= 14 AS few_scanned
  FROM deltacc.fastpath_stats() WHERE fast_path = 'stats.layout';

-- per file, for one read on the prescanned column
SELECT path, decision
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.t'), 0, '{id BETWEEN 40 AND 60}',
                                 pg_temp.loser(), read_files => '{}', mode => 'stats')
 WHERE "check" = 'added_files'
 ORDER BY path, decision;

-- fast = slow for reads on the integer columns (the prescan's), cold then
-- warm, and on the others
CREATE TEMP TABLE keyed AS
SELECT p, pg_temp.slow(p) AS slow, pg_temp.fast(p) AS cold, pg_temp.fast(p) AS warm
  FROM unnest(ARRAY['id BETWEEN 40 AND 60', 'id < 6', 'id > 1000', 'id = 45', 'id = 47',
                    'id < -100', 'id IS NULL', 'id IS NOT NULL', 'id <> 5',
                    'i > 2', 'i < 1', 'i = 1', 'id > 70 AND i = 1', 'id < 3 OR i > 5',
                    's > ''zz''', '"dev.b" > 9', '"dev.b" < 3', '"dev.os" = ''linux''']) AS p;
SELECT count(*) AS reads,
       count(*) FILTER (WHERE slow <> '') AS reads_with_conflicts,
       min(array_length(string_to_array(slow, ','), 1)) AS fewest_kept,
       max(array_length(string_to_array(slow, ','), 1)) AS most_kept
  FROM keyed;
-- mismatches (expected: none)
SELECT p, slow, cold, warm FROM keyed
 WHERE cold IS DISTINCT FROM slow OR warm IS DISTINCT FROM slow ORDER BY p;

-- must still conflict: a read that every usable id range rules out keeps
-- each line whose id statistics are missing or unusable
SELECT unnest(string_to_array(slow, ',')) AS kept FROM keyed WHERE p = 'id < -100' ORDER BY 1;
-- and the last of duplicate keys counts: e10's minValues object is given
-- twice (the first with id 900, then 100, the last one {"id":5})
SELECT p, 'e10_dup_id_last_low.parquet' = ANY (string_to_array(slow, ',')) AS dup_kept,
       'e11_dup_in_object.parquet' = ANY (string_to_array(slow, ',')) AS dup_in_object_kept
  FROM keyed WHERE p IN ('id < 6', 'id > 1000') ORDER BY p;

-- The read snapshot keeps each statistics text unescaped: the keyed models
-- take those lines too, the copy decoded on its own.  Version 2 removes
-- e19; a check from version 1 without read_files, asked twice in a new
-- session, looks that path up alone the first time and builds the read
-- snapshot of version 1 (its 45 lines prescanned) the second.  Must still
-- conflict: e19 is read by the reads that keep it (id 73..74), as
-- explain_conflicts finds; the files a read would scan (files_for_scan)
-- are the ones explain_conflicts keeps, for every read above.
CREATE TABLE keyed_slow AS SELECT p, slow FROM keyed;
\c
SELECT set_config('deltacc_test.t', :'abs_srcdir' || '/data/stats_keyed', false) IS NOT NULL AS ok;
\set L '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]'
SELECT winning_version AS v, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.t'), 1, '{id BETWEEN 70 AND 80}', :'L',
                         mode => 'stats');
SELECT count(*) IS NOT NULL AS reset FROM deltacc.fastpath_stats(reset => true);
SELECT winning_version AS v, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.t'), 1, '{id BETWEEN 70 AND 80}', :'L',
                         mode => 'stats');
SELECT fast_path, hits >= 30 AS most_matched, hits + misses AS texts, misses <= 14 AS few_scanned
  FROM deltacc.fastpath_stats() WHERE fast_path = 'stats.layout';
SELECT winning_version AS v, "check", path
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.t'), 1, '{id BETWEEN 70 AND 80}',
                                 :'L', mode => 'stats')
 WHERE decision = 'conflict';
-- a read that rules e19 out: no conflict
SELECT count(*) AS conflicts
  FROM deltacc.conflicts(current_setting('deltacc_test.t'), 1, '{id BETWEEN 1000 AND 1010}', :'L',
                         mode => 'stats');
-- mismatches (expected: none)
SELECT p, slow, scan
  FROM (SELECT p, slow,
               (SELECT coalesce(string_agg(path, ',' ORDER BY path), '')
                  FROM deltacc.files_for_scan(current_setting('deltacc_test.t'), ARRAY[p], 1))
                   AS scan
          FROM keyed_slow) s
 WHERE scan IS DISTINCT FROM slow ORDER BY p;
DROP TABLE keyed_slow;
