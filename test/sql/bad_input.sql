--
-- bad_input.sql: every malformed log gives a clean ERROR with an errcode, a
-- PostgreSQL-style message, a detail, and a context naming the file and line
-- (relative to the table root).  One case per line.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set bad :abs_srcdir '/data/bad/'
\set VERBOSITY default
\set SHOW_CONTEXT always

-- malformed commit lines (version 1, line 2 of each table)
SELECT count(*) FROM deltacc.history(:'bad' || 'truncated_line');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'not_json');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'not_object');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'trailing_garbage');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'invalid_utf8');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'nul_escape');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'deep_nesting');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_missing_path');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_missing_size');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_size_string');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_size_fraction');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_size_huge');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_size_negative');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_datachange_string');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_partition_values_array');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'add_partition_value_object');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'dv_bad_storage_type');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'dv_missing_cardinality');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'remove_missing_path');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'metadata_missing_schema');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'metadata_partition_columns_number');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'protocol_reader_zero');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'protocol_version_huge');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'txn_version_string');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.history(:'bad' || 'domain_missing_removed');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- the same errors reach load_log and snapshot_files
SELECT deltacc.load_log(:'bad' || 'add_size_fraction');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'truncated_line');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- the commit that failed left nothing behind
SELECT to_regclass('pg_temp.delta_files') AS delta_files;

-- protocol features deltacc cannot interpret are refused when a snapshot is
-- built (the log itself still reads)
SELECT count(*) FROM deltacc.history(:'bad' || 'unknown_reader_feature');
SELECT count(*) FROM deltacc.snapshot_files(:'bad' || 'unknown_reader_feature');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT num_files FROM deltacc.table_info(:'bad' || 'reader_version_4');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- a missing protocol or metaData at the requested version
SELECT num_files FROM deltacc.table_info(:'bad' || 'no_protocol');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT num_files FROM deltacc.table_info(:'bad' || 'no_metadata');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- unparseable statistics are missing statistics, not an error
SELECT path, num_records, stats FROM deltacc.snapshot_files(:'bad' || 'bad_stats_ignored');

-- a commit file above deltacc.max_log_file_bytes is refused before it is read
SET deltacc.max_log_file_bytes = '2kB';
SELECT count(*) FROM deltacc.history(:'bad' || 'big_commit');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET deltacc.max_log_file_bytes;
SELECT count(*) FROM deltacc.history(:'bad' || 'big_commit');

-- a commit version that does not fit in 64 bits
SELECT count(*) FROM deltacc.history(:'bad' || 'version_overflow');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
