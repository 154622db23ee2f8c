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
--
-- The layout-driven jsonb writer (test/data/stats_jsonb_plan/generate.py):
-- runs of statistics texts of one layout each, every number form, words
-- swapped, strings of every length, texts it must decline (escapes, other
-- layouts), duplicate keys, empty containers, arrays, more than 32 keys or
-- elements, nesting deeper than it takes, top-level arrays and scalars.
-- Every value must be what PostgreSQL's own jsonb input makes of the text
-- (compared as text, which shows numeric display scales; NULL where the
-- number does not fit numeric); assert-enabled builds compare the bytes.
--
SELECT set_config('deltacc_test.p', :'abs_srcdir' || '/data/stats_jsonb_plan', false) IS NOT NULL AS ok;
CREATE FUNCTION pg_temp.try_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql AS
$$BEGIN RETURN t::jsonb; EXCEPTION WHEN others THEN RETURN NULL; END$$;
WITH lines AS (
  SELECT l::jsonb -> 'add' AS a
    FROM regexp_split_to_table(pg_read_file(current_setting('deltacc_test.p') ||
                                            '/_delta_log/00000000000000000000.json'),
                               E'\n') AS l
   WHERE l LIKE '{"add"%'),
ref AS (SELECT a ->> 'path' AS path, pg_temp.try_jsonb(a ->> 'stats') AS stats
          FROM lines)
SELECT count(*) AS files,
       count(*) FILTER (WHERE s.stats::text IS NOT DISTINCT FROM r.stats::text) AS same_as_jsonb_in,
       count(*) FILTER (WHERE s.stats IS NULL) AS null_stats
  FROM deltacc.snapshot_files(current_setting('deltacc_test.p')) s
  JOIN ref r USING (path);
-- the values themselves (long ones by length and md5; the random run,
-- r*.parquet, only in the comparison above)
SELECT path, num_records,
       CASE WHEN length(stats::text) <= 200 THEN stats::text
            ELSE length(stats::text) || ' bytes, md5 ' || md5(stats::text) END AS stats
  FROM deltacc.snapshot_files(current_setting('deltacc_test.p'))
 WHERE path LIKE 'f%'
 ORDER BY path;
--
-- Layouts found by their keys (test/data/stats_jsonb_keyed/generate.py):
-- 1,000 texts each of many layouts interleaved line by line: "tame" (three
-- key sets, key orders at every level, each key's values of one type, as
-- a writer that orders its columns anew writes them) and "wild" (missing
-- columns, nested structs, other value types under the same keys,
-- escapes, UTF-8, NaN / Infinity strings, numbers of every size, duplicate
-- and escaped keys, white space).  Each must be what PostgreSQL's jsonb
-- input makes of the text, through snapshot_files and load_log; the tame
-- texts are nearly all written from a layout (at most 5% to the parse
-- tree: the strings with escapes, which layouts decline).
--
CREATE FUNCTION pg_temp.keyed_ref(t text) RETURNS TABLE (path text, stats jsonb)
LANGUAGE sql AS $$
  SELECT a ->> 'path', pg_temp.try_jsonb(a ->> 'stats')
    FROM (SELECT l::jsonb -> 'add' AS a
            FROM regexp_split_to_table(pg_read_file(t || '/_delta_log/00000000000000000000.json'),
                                       E'\n') AS l
           WHERE l LIKE '{"add"%') x $$;
SELECT set_config('deltacc_test.k', :'abs_srcdir' || '/data/stats_jsonb_keyed/', false) IS NOT NULL AS ok;
SELECT d, (SELECT count(*) FROM deltacc.fastpath_stats(true)) > 0 AS reset,
       (SELECT count(*) FILTER (WHERE s.stats::text IS NOT DISTINCT FROM r.stats::text)
          FROM deltacc.snapshot_files(current_setting('deltacc_test.k') || d) s
          JOIN pg_temp.keyed_ref(current_setting('deltacc_test.k') || d) r USING (path)) AS same_as_jsonb_in,
       (SELECT hits + misses FROM deltacc.fastpath_stats()
         WHERE fast_path = 'stats_jsonb.layout') AS texts
  FROM unnest(ARRAY['tame', 'wild']) AS d;
SELECT count(*) >= 0 AS reset FROM deltacc.fastpath_stats(true);
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.k') || 'tame') s
 WHERE s.stats IS NOT NULL;
SELECT hits + misses AS texts, misses * 20 <= hits + misses AS nearly_all_from_layouts
  FROM deltacc.fastpath_stats() WHERE fast_path = 'stats_jsonb.layout';
CREATE FUNCTION pg_temp.keyed_load(d text) RETURNS TABLE (files bigint, same_as_jsonb_in bigint)
LANGUAGE plpgsql AS $$
DECLARE
  t text := current_setting('deltacc_test.k') || d;
BEGIN
  PERFORM deltacc.load_log(t);
  RETURN QUERY
    SELECT count(*), count(*) FILTER (WHERE b.stats::text IS NOT DISTINCT FROM r.stats::text)
      FROM pg_temp.delta_files b JOIN pg_temp.keyed_ref(t) r USING (path)
     WHERE b.table_path = t;
END $$;
SELECT d, k.* FROM unnest(ARRAY['tame', 'wild']) AS d, pg_temp.keyed_load(d) AS k;
