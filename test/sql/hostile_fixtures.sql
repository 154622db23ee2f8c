--
-- hostile_fixtures.sql: every mutation of the small hand-made table of
-- test/data/hostile/make_hostile.py, through every SQL function that reads
-- a table.  Each call must end in success ('ok') or a clean ERROR, shown
-- by its SQLSTATE class (never 'INTERNAL': XX000), within bounded time,
-- with the server up after each batch.
--
-- L load_log, H history, S snapshot_files, s snapshot_files at version 1,
-- T table_info, P skipping_predicate, D deletion_vector of every DV the
-- log holds, F files_for_scan, R/r read_rows, C conflicts, E
-- explain_conflicts, A assert_no_conflict (when installed).
--
\getenv builddir PG_ABS_BUILDDIR
\set fx :builddir '/results/hostile_data/fx'
SET statement_timeout = '600s';
SELECT count(*) AS cases FROM pg_ls_dir(:'fx') f WHERE f NOT LIKE '.%';

-- one batch per kind of mutation, then a query proving the server is up
SELECT format('SELECT * FROM regress_hostile.sweep(''fx'', %L, %L)', k || '_',
              'id > 5 AND region = ''EU''') AS sweep,
       'SELECT ''server is up'' AS check' AS alive
  FROM (SELECT DISTINCT split_part(f, '_', 1) AS k FROM pg_ls_dir(:'fx') f
         WHERE f NOT LIKE '.%' AND f <> 'base') s
 ORDER BY k COLLATE "C" \gexec
SELECT * FROM regress_hostile.sweep('fx', 'base', 'id > 5 AND region = ''EU''');
