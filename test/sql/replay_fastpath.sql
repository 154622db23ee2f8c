--
-- replay_fastpath.sql: log replay reads add / remove lines of the common
-- shape without a parse tree (src/log/fastline.c).  Odd but valid lines
-- (escapes, white space, duplicate keys, deletion vectors, numbers at the
-- limits, several actions in one entry) must give exactly the snapshot the
-- full decoder gives, and lines that must be refused the same ERROR as
-- before.  The expected output was made by the build without the fast
-- path; assert-enabled builds also decode every fast line the full way and
-- compare.  Fixtures: test/data/make_replay_fixtures.py.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set odd :abs_srcdir '/data/replay/odd'
\set bad :abs_srcdir '/data/replay/'
\set VERBOSITY default
\set SHOW_CONTEXT always
SET TIME ZONE 'UTC';

SELECT v AS version, path, size, partition_values, num_records,
       deletion_vector, default_row_commit_version
  FROM generate_series(0, 2) v, deltacc.snapshot_files(:'odd', v)
 ORDER BY v, path COLLATE "C", deletion_vector::text COLLATE "C";
SELECT v AS version, num_files, size_bytes
  FROM generate_series(0, 2) v, deltacc.table_info(:'odd', v);

-- lines that must be refused (line 4 of each table)
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_escape');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_control');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_utf8');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_size');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_size_string');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_missing_mtime');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_empty_path');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_dv_storage');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_dv_offset');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_dv_missing');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_remove_size');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_trailing');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'bad_pv_nested');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
