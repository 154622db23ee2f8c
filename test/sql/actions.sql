--
-- actions.sql: every action type decoded and shown through load_log,
-- snapshot_files, table_info; exact big numbers; unknown fields and actions
-- ignored; remove wins over an older add; (path, DV id) keys.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set sales :abs_srcdir '/data/log/sales'
SET TIME ZONE 'UTC';

SELECT deltacc.load_log(:'sales') AS actions_loaded;

-- the six relations exist in pg_temp with DESIGN's columns
SELECT c.relname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
 WHERE c.relnamespace = pg_my_temp_schema() AND c.relname LIKE 'delta\_%'
 GROUP BY c.relname ORDER BY c.relname;

SELECT version, committed_at, operation, operation_parameters, isolation_level,
       is_blind_append, read_version, engine_info
  FROM pg_temp.delta_commits ORDER BY version;
-- the whole commitInfo is kept, unknown fields included
SELECT commit_info -> 'futureField' AS future_field FROM pg_temp.delta_commits WHERE version = 3;

SELECT version, action, path, partition_values, size, modification_time, data_change,
       num_records, tight_bounds, deletion_vector, base_row_id, default_row_commit_version, tags
  FROM pg_temp.delta_files ORDER BY version, action, path;

-- statistics are exact: decimal(38) extremes and a 23-digit maximum survive
SELECT path, stats -> 'maxValues' -> 'amount' AS max_amount,
       stats -> 'minValues' -> 'amount' AS min_amount,
       (stats -> 'maxValues' ->> 'amount')::numeric AS as_numeric
  FROM pg_temp.delta_files WHERE action = 'add' ORDER BY version, path;

SELECT version, table_id, name, schema -> 'fields' -> 1 AS amount_field,
       partition_columns, configuration, created_time
  FROM pg_temp.delta_metadata ORDER BY version;
SELECT version, min_reader_version, min_writer_version, reader_features, writer_features
  FROM pg_temp.delta_protocol ORDER BY version;
SELECT version, app_id, txn_version, last_updated FROM pg_temp.delta_txns ORDER BY version, app_id;
SELECT version, domain, configuration, removed FROM pg_temp.delta_domains ORDER BY version, domain;

-- reloading a version range replaces this table path's rows, other paths stay
INSERT INTO pg_temp.delta_commits (table_path, version) VALUES ('/some/other/table', 42);
SELECT deltacc.load_log(:'sales', 2, 3) AS actions_loaded;
SELECT table_path = :'sales' AS this_table, count(*), min(version), max(version)
  FROM pg_temp.delta_commits GROUP BY 1 ORDER BY 1;
SELECT count(*) AS files_rows FROM pg_temp.delta_files;

-- the snapshot: the EU file lives on with its DV (the remove at v2 killed
-- the DV-less key, the add re-created it with a DV), the null-partition
-- file was removed at v4 (remove without a DV kills the DV-less key)
SELECT path, partition_values, size, modification_time, num_records,
       deletion_vector, base_row_id, default_row_commit_version
  FROM deltacc.snapshot_files(:'sales');
SELECT path, stats FROM deltacc.snapshot_files(:'sales') WHERE path LIKE '%d\%20e%';

-- time travel
SELECT v AS version, (SELECT count(*) FROM deltacc.snapshot_files(:'sales', v)) AS files
  FROM generate_series(0, 4) v;
SELECT path FROM deltacc.snapshot_files(:'sales', 1);

SELECT * FROM deltacc.table_info(:'sales');
SELECT version, min_reader_version, reader_features, num_files, size_bytes,
       configuration FROM deltacc.table_info(:'sales', 1);

-- history
SELECT * FROM deltacc.history(:'sales');
