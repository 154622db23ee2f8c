--
-- hostile_real.sql: mutated copies of the real Delta tables of
-- $DELTACC_TABLES (made by hostile_setup in a scratch directory: truncated
-- and byte-flipped commits, deleted/duplicated lines, swapped commits,
-- version gaps, checkpoints that are truncated, flipped, zeroed or whose
-- footer length lies, a _last_checkpoint pointing nowhere, deletion-vector
-- files with bad CRCs, flipped headers, bogus Roaring container counts,
-- truncated or missing, unknown reader features, add/remove paths that
-- escape the root or are absolute, commit files that are symlinks out of
-- the table), each through every SQL function that reads a table.
--
-- Which calls succeed depends on the table, so this suite prints, per
-- mutation, how many tables it was applied to and the calls that broke the
-- rules (an XX000 internal error or a call slower than 5 s); the expected
-- anomaly list is empty.  After each batch a query proves the server is up.
--
\getenv builddir PG_ABS_BUILDDIR
\getenv tables DELTACC_TABLES
\set real :builddir '/results/hostile_data/real'
SET statement_timeout = '900s';
SELECT :'tables' <> '' AS have_tables \gset
\if :have_tables
-- the unmutated tables first
SELECT count(*) AS tables,
       count(*) FILTER (WHERE outcome ~ 'INTERNAL|SLOW') AS bad,
       string_agg(CASE WHEN outcome ~ 'INTERNAL|SLOW' THEN tbl || ': ' || outcome END, E'\n') AS anomalies
  FROM regress_hostile.sweep('tables', '', 'true');
SELECT format($q$SELECT %L AS mutation, count(*) AS tables,
       count(*) FILTER (WHERE outcome ~ 'INTERNAL|SLOW') AS bad,
       string_agg(CASE WHEN outcome ~ 'INTERNAL|SLOW' THEN tbl || ': ' || outcome END, E'\n') AS anomalies
  FROM regress_hostile.sweep('real', %L, 'true')$q$, m, m || '@') AS sweep,
       'SELECT ''server is up'' AS check' AS alive
  FROM (SELECT DISTINCT split_part(f, '@', 1) AS m FROM pg_ls_dir(:'real') f) s
 ORDER BY m COLLATE "C" \gexec
\else
\echo 'DELTACC_TABLES is empty: hostile_real skipped'
\endif
