--
-- stats_jsonb.sql: the stats -> jsonb conversion of snapshot_files, load_log
-- and files_for_scan on odd statistics strings (test/data/stats_jsonb/
-- generate.py): number display scales, -0, 19+ digit integers, exponents,
-- duplicate keys (the last wins), key order, string escapes including
-- surrogate pairs, raw UTF-8, \u0000 (not representable: stats NULL),
-- invalid JSON (stats NULL), non-object stats, deep nesting, and stats
-- strings escaped more than needed in the log line.  The expected output
-- was produced by the code before the fast stats path; assert-enabled
-- builds also compare every fast conversion with the general one.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.t', :'abs_srcdir' || '/data/stats_jsonb', false) IS NOT NULL AS ok;
SELECT path, num_records, jsonb_typeof(stats) AS type, stats
  FROM deltacc.snapshot_files(current_setting('deltacc_test.t'))
 ORDER BY path;
-- the same values through the eager snapshot (files_for_scan)
SELECT count(*) AS files,
       count(*) FILTER (WHERE a.stats IS NOT DISTINCT FROM b.stats
                          AND a.num_records IS NOT DISTINCT FROM b.num_records) AS same
  FROM deltacc.snapshot_files(current_setting('deltacc_test.t')) a
  JOIN deltacc.files_for_scan(current_setting('deltacc_test.t'), ARRAY['id = 1']) b
 USING (path);
-- and through load_log (delta_files: tight_bounds too)
SELECT deltacc.load_log(current_setting('deltacc_test.t')) > 0 AS loaded;
SELECT count(*) AS files,
       count(*) FILTER (WHERE a.stats IS NOT DISTINCT FROM b.stats
                          AND a.num_records IS NOT DISTINCT FROM b.num_records) AS same
  FROM deltacc.snapshot_files(current_setting('deltacc_test.t')) a
  JOIN pg_temp.delta_files b USING (path);
SELECT path, tight_bounds FROM pg_temp.delta_files
 WHERE tight_bounds IS NOT NULL ORDER BY path;
-- numeric display scales survive (text of each number)
SELECT path, k, v::text
  FROM deltacc.snapshot_files(current_setting('deltacc_test.t')) s,
       jsonb_each(s.stats -> 'minValues') AS e(k, v)
 WHERE path IN ('f01.parquet', 'f02.parquet', 'f03.parquet', 'f04.parquet')
 ORDER BY path, k;
