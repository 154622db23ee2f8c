--
-- conflict_real.sql: races on real Delta tables ($DELTACC_TABLES): real
-- DELETE / UPDATE commits treated as winners against hypothetical losers.
-- Skipped (and says so) when DELTACC_TABLES is empty.
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables
SELECT set_config('deltacc_test.tables', :'tables' || '/', false) IS NOT NULL AS ok;
\else
\echo 'conflict_real: DELTACC_TABLES is empty, suite skipped'
SELECT set_config('deltacc_test.tables', '', false) IS NOT NULL AS ok;
\endif
\if :have_tables
CREATE FUNCTION pg_temp.tbl(name text) RETURNS text LANGUAGE sql
    AS $$ SELECT current_setting('deltacc_test.tables') || name $$;
CREATE FUNCTION pg_temp.add(path text) RETURNS jsonb LANGUAGE sql
    AS $$ SELECT jsonb_build_object('add', jsonb_build_object('path', path,
          'partitionValues', '{}'::jsonb, 'size', 1000, 'modificationTime', 0, 'dataChange', true)) $$;
CREATE FUNCTION pg_temp.rm(path text) RETURNS jsonb LANGUAGE sql
    AS $$ SELECT jsonb_build_object('remove', jsonb_build_object('path', path,
          'size', 1000, 'deletionTimestamp', 0, 'dataChange', true)) $$;
\set C 'SELECT winning_version AS v, operation, conflict, left(path, 24) AS path, partition_hint FROM deltacc.conflicts'

-- golden-inserts-deletes-checkpoint, winner v13: DELETE WHERE id >= 66
-- (removes the files of ids 60..69 and 70..79, adds one of ids 60..65).
-- A loser that rewrote the file of ids 0..9 (read id < 5):
:C(pg_temp.tbl('golden-inserts-deletes-checkpoint/delta'), 12, '{id < 5}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 13, mode => 'partition');
:C(pg_temp.tbl('golden-inserts-deletes-checkpoint/delta'), 12, '{id < 5}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 13, mode => 'stats');
-- pair: a loser that read ids >= 65 conflicts in both modes (append first,
-- then delete/read of both files it read)
:C(pg_temp.tbl('golden-inserts-deletes-checkpoint/delta'), 12, '{id >= 65}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 13, mode => 'stats');
-- winner v9 (DELETE WHERE id BETWEEN 45 AND 49) and the three appends after
-- it, checked in order from read version 8 through 12
:C(pg_temp.tbl('golden-inserts-deletes-checkpoint/delta'), 8, '{id BETWEEN 40 AND 49}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 12, mode => 'stats');
-- a blind-append loser never conflicts with them
:C(pg_temp.tbl('golden-inserts-deletes-checkpoint/delta'), 8, '{}',
   jsonb_build_array(pg_temp.add('loser.parquet')), mode => 'stats');
-- ... a whole-table reader conflicts with every one
SELECT v, operation, conflict, count(*) FROM (
  :C(pg_temp.tbl('golden-inserts-deletes-checkpoint/delta'), 8, '{}',
     jsonb_build_array(pg_temp.add('loser.parquet')), read_whole_table => true, mode => 'stats')) s
  GROUP BY 1, 2, 3 ORDER BY 1, 3;

-- golden-dv-columnmapping (column mapping "name": partitionValues keyed by the
-- physical column name), winner v11: DELETE WHERE col1 = 20 (removes a file
-- of partition 0, adds none).  The hint
-- uses the logical name, the value looked up by the physical one.
:C(pg_temp.tbl('golden-dv-columnmapping/delta'), 10, '{part = 0}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 11, mode => 'partition');
:C(pg_temp.tbl('golden-dv-columnmapping/delta'), 10, '{part = 1}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 11, mode => 'partition');

-- rs-cdf-cdc-dvs (Databricks, deletion vectors, CDC), winner v12:
-- UPDATE WHERE id = 2 (remove file P, re-add P with a DV, add a new file).
:C(pg_temp.tbl('rs-cdf-cdc-dvs'), 11, '{id = 100}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 12, mode => 'partition');
:C(pg_temp.tbl('rs-cdf-cdc-dvs'), 11, '{id = 100}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 12, mode => 'stats');
-- pair: a loser reading id = 3 (in P's range): append (the DV re-add and the
-- new file are candidates) and delete/read of P
:C(pg_temp.tbl('rs-cdf-cdc-dvs'), 11, '{id = 3}',
   jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 12, mode => 'stats');
-- OPTIMIZE winners (v13) are not blind: a reader of the compacted files conflicts
SELECT v, operation, conflict, count(*) FROM (
  :C(pg_temp.tbl('rs-cdf-cdc-dvs'), 12, '{true}',
     jsonb_build_array(pg_temp.add('loser.parquet')), through_version => 13, mode => 'stats')) s
  GROUP BY 1, 2, 3 ORDER BY 1, 3;
\endif
