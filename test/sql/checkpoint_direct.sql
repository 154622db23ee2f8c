--
-- Parquet checkpoint add rows of unusual shapes (made by
-- test/data/checkpoints/gen/make_direct.mjs).  Rows of the common shape are
-- decoded straight from their Parquet values (and, in assert-enabled
-- builds, decoded the render+parse way too and compared field by field);
-- any other row falls back to the render+parse path, with its result or
-- error exactly as before.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set d :abs_srcdir '/data/checkpoints/direct/'
\set VERBOSITY default

-- decoded directly: keys pass, then rows (snapshot_files), and a full read
SELECT path, partition_values, size, modification_time, num_records, stats,
       deletion_vector, base_row_id, default_row_commit_version
  FROM deltacc.snapshot_files(:'d' || 'shapes') ORDER BY path;
SELECT path, size FROM deltacc.files_for_scan(:'d' || 'shapes', ARRAY['a > 5']) ORDER BY path;
SELECT version, num_files, size_bytes FROM deltacc.table_info(:'d' || 'shapes');
-- the same rows in reverse path order: the same files (no row of either
-- side is missing from the other, duplicates counted)
WITH r AS (SELECT path, partition_values, size, modification_time, num_records, stats,
                  deletion_vector, base_row_id, default_row_commit_version
             FROM deltacc.snapshot_files(:'d' || 'shapes_reversed')),
     s AS (SELECT path, partition_values, size, modification_time, num_records, stats,
                  deletion_vector, base_row_id, default_row_commit_version
             FROM deltacc.snapshot_files(:'d' || 'shapes'))
SELECT (SELECT count(*) FROM (TABLE r EXCEPT ALL TABLE s) x) AS only_reversed,
       (SELECT count(*) FROM (TABLE s EXCEPT ALL TABLE r) x) AS only_in_order;
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'shapes_reversed');

-- fall back to render+parse, and decode as before
SELECT path, partition_values FROM deltacc.snapshot_files(:'d' || 'pv_int');
SELECT path, deletion_vector FROM deltacc.snapshot_files(:'d' || 'offset_int64');
SELECT path, size FROM deltacc.snapshot_files(:'d' || 'extra_nested');

-- fall back to render+parse, which raises the error it always raised
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'size_negative');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'path_empty');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'path_bad_utf8');
SELECT count(stats) FROM deltacc.snapshot_files(:'d' || 'stats_bad_utf8');
-- (a query that reads no statistics does not decode them: counted)
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'stats_bad_utf8');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'datachange_missing');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'mtime_missing');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'dv_storage_type_long');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'dv_cardinality_missing');
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'dv_size_negative');
