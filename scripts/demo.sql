-- scripts/demo.sql: run by scripts/demo.sh against a throwaway cluster.
-- psql variable "table" is the path of a copy of test/data/log/sales,
-- "orders" the path of a copy of test/data/conflicts/orders.
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

\echo
\echo '== Conflict checking: the worked example'
\echo '   orders is liquid clustered (unpartitioned), customer_id statistics tight per file.'
\echo '   Winner, version 1: UPDATE orders ... WHERE customer_id BETWEEN 900000 AND 901000'
\echo '   Loser, read version 0: UPDATE orders ... WHERE customer_id BETWEEN 0 AND 1000'
\set loser_actions '[{"commitInfo":{"operation":"UPDATE"}}, {"remove":{"path":"part-00000.parquet","dataChange":true}}, {"add":{"path":"part-00000-u2.parquet","partitionValues":{},"size":1000,"modificationTime":0,"dataChange":true}}]'
\echo '-- mode partition (Delta today): the loser aborts'
SELECT winning_version, operation, conflict, path
  FROM deltacc.conflicts(:'orders', 0, '{customer_id BETWEEN 0 AND 1000}',
                         :'loser_actions', mode => 'partition');
\echo '-- mode stats (the default): no conflict'
SELECT winning_version, operation, conflict, path
  FROM deltacc.conflicts(:'orders', 0, '{customer_id BETWEEN 0 AND 1000}', :'loser_actions');
\echo '-- and why'
SELECT winning_version, "check", path, decision, reason
  FROM deltacc.explain_conflicts(:'orders', 0, '{customer_id BETWEEN 0 AND 1000}', :'loser_actions');
SELECT set_config('deltacc_demo.orders', :'orders', false) \g /dev/null
\echo '-- a loser whose range overlaps the winner''s new file still aborts (SQLSTATE 40001)'
DO $$
BEGIN
    PERFORM deltacc.assert_no_conflict(current_setting('deltacc_demo.orders'), 0,
        '{customer_id BETWEEN 900500 AND 900600}',
        '[{"remove":{"path":"part-00009.parquet","dataChange":true}}]');
EXCEPTION WHEN serialization_failure THEN
    RAISE NOTICE '%', SQLERRM;
END
$$;
