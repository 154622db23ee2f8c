-- scripts/demo.sql: run by scripts/demo.sh against a throwaway cluster.
-- psql variable "table" is the path of a copy of test/data/log/sales.
\set ON_ERROR_STOP on
\pset footer off
SET TIME ZONE 'UTC';
CREATE EXTENSION deltacc;

\echo
\echo '== deltacc.history: one row per commit'
SELECT version, committed_at, operation, is_blind_append, read_version, num_actions
  FROM deltacc.history(:'table');

\echo '== deltacc.snapshot_files: the live files of the latest version'
SELECT path, partition_values, size, num_records, deletion_vector IS NOT NULL AS has_dv
  FROM deltacc.snapshot_files(:'table');

\echo '== ... and of version 1 (time travel)'
SELECT path, size FROM deltacc.snapshot_files(:'table', 1);

\echo '== deltacc.table_info: metadata, protocol and size'
\x on
SELECT * FROM deltacc.table_info(:'table');
\x off

\echo '== deltacc.load_log: every action into pg_temp.delta_* for SQL analysis'
SELECT deltacc.load_log(:'table') AS actions_loaded;
SELECT version, action, path, data_change, num_records,
       stats -> 'maxValues' -> 'amount' AS max_amount
  FROM pg_temp.delta_files ORDER BY version, action, path;
