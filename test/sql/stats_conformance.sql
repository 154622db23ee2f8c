--
-- stats_conformance.sql: statistics and partition values written by real
-- Delta writers ($DELTACC_TABLES, never copied into the repo), decoded and
-- used by the predicate compiler: truncated strings (Databricks 10.4 U+FFFD,
-- 12.2 U+007F), NaN/Infinity, millisecond timestamps with offsets, legacy
-- partition timestamps, nested and column-mapped statistics, all-null
-- columns, a statistics column set that shrank, checkpoint stats_parsed.
-- When DELTACC_TABLES is empty the suite says it is skipped
-- (expected/stats_conformance_1.out).
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables
SET TimeZone = 'UTC';

-- per-file decisions for one read on the latest snapshot, with reasons
CREATE FUNCTION pg_temp.decide(root text, pred text, nan boolean DEFAULT true)
RETURNS TABLE (path text, keep boolean, reason text)
LANGUAGE sql AS $$
  SELECT f.path, m.keep, m.reason
    FROM deltacc.table_info(root) t,
         deltacc.snapshot_files(root) f,
         deltacc.file_may_match(t.schema::text, pred, f.stats::text, f.partition_values,
                                t.partition_columns, t.configuration, nan) m
   ORDER BY f.path
$$;
\set t :tables

-- kr-timestamp-truncation-stats: a file holds 00:00:04.000500 but its max
-- says 00:00:04.000; only max + 1 ms keeps it
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/kr-timestamp-truncation-stats', 'ts_col > ''1970-01-01 00:00:04+00''');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/kr-timestamp-truncation-stats', 'ts_col > ''1970-01-01 00:00:04.001+00''');
SELECT count(*) AS scanned FROM deltacc.files_for_scan(:'t' || '/kr-timestamp-truncation-stats',
                                                       ARRAY['ts_col = ''1970-01-01 00:00:04.0005+00''']);

-- tr-truncated-strings-dbr104: maxima end in U+FFFD, not an upper bound
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-truncated-strings-dbr104', 'comment > ''uickly special accounts cajole c''');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-truncated-strings-dbr104', 'comment < ''a''');
-- tr-truncated-strings-dbr122: U+007F tie-breaker, a valid upper bound
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-truncated-strings-dbr122', 'comment > ''uickly special accounts cajole c''');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-truncated-strings-dbr122', 'comment > ''uickly special accounts cajole d''');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-truncated-strings-dbr122', 'name LIKE ''MIDDLE%''');

-- tr-double-nan / tr-float-inf: "NaN", "Infinity", "-Infinity" statistics
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-double-nan', 'val > 1000');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-double-nan', 'val < 100');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-float-inf', 'val > 150');
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-float-inf', 'val > 150', false);
SELECT right(path, 20) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-float-inf', 'val IS NOT NULL AND part_key = 4');
-- partition values "NaN", "Infinity", "-Infinity" and null
SELECT right(path, 40) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-nan-inf-partitions', 'part_key = ''NaN''');
SELECT right(path, 40) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/tr-nan-inf-partitions', 'part_key > 1e308');

-- golden-parquet-all-types: every type, nested struct statistics
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'LongType > 200');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'LongType = 200 AND ByteType = -128 AND decimal = 123.52 AND StringType = ''99''');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'nested_struct.ac.aca > 1000');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'TimestampType < ''1970-01-01T06:30:23.523Z''');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'TimestampType <= ''1970-01-01T06:30:23.523Z''');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'TimestampNTZType < ''1970-01-03 17:03:54''');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'DateType < ''1970-01-01''');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-parquet-all-types/delta',
  'BooleanType IS NULL AND BinaryType IS NULL');

-- column mapping: name mode (physical names in stats), id mode (nested)
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-stats-all-types-cm-name/delta',
  'as_int > 0');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-stats-all-types-cm-name/delta',
  'as_timestamp < ''2000-01-01 08:00:00+00''');
SELECT keep, reason FROM pg_temp.decide(:'t' || '/golden-stats-all-types-cm-name/delta',
  'as_timestamp <= ''2000-01-01 08:00:00+00''');
SELECT right(path, 30) AS file, keep, reason FROM pg_temp.decide(:'t' || '/golden-cm-id-nested/delta',
  'IntegerType >= 2');
-- name mode with partitions keyed by physical names, deletion vectors
SELECT count(*) AS scanned FROM deltacc.files_for_scan(:'t' || '/golden-dv-columnmapping/delta',
  ARRAY['part = 3 AND col1 > 40']);
SELECT count(*) AS scanned FROM deltacc.files_for_scan(:'t' || '/golden-dv-columnmapping/delta',
  ARRAY['part = 3']);
SELECT count(*) AS total FROM deltacc.snapshot_files(:'t' || '/golden-dv-columnmapping/delta');

-- all-null column (nullCount = numRecords, no min/max), delta-rs writer
SELECT right(path, 30) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/kr-mixed-nulls', 'n = ''zzz''');
SELECT right(path, 30) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/kr-mixed-nulls', 'n IS NOT NULL');

-- the statistics column set of the latest snapshot (numIndexedCols 2 -> 1 -> 0)
SELECT right(path, 30) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/golden-stats-cols-change/delta', 'col1 > 1000');

-- legacy partition timestamps are local times of the writer (PST here)
SET TimeZone = 'America/Los_Angeles';
SELECT right(path, 60) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/golden-timestamp-pst/delta', 'part = ''2020-01-01 08:09:10.001-08''');
SELECT right(path, 60) AS file, keep, reason
  FROM pg_temp.decide(:'t' || '/golden-timestamp-pst/delta', 'time > ''2020-02-01 08:09:10-08''');
SET TimeZone = 'UTC';

-- Databricks 10.4 checkpoint with stats_parsed only (no JSON stats)
SELECT count(*) AS total, count(*) FILTER (WHERE keep) AS kept
  FROM pg_temp.decide(:'t' || '/rs-struct-stats-only', 'integer > 100000');

\else
\echo stats conformance suite skipped: DELTACC_TABLES is empty
\endif
