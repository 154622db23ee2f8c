--
-- snapshot_scan.sql: deltacc.snapshot_files alone in FROM runs as a custom
-- scan that makes only the columns the query reads (src/funcs/
-- snapshot_scan.c); anywhere else (WITH ORDINALITY, a lateral argument, a
-- whole-row reference) it stays a function scan.  On every real table
-- ($DELTACC_TABLES) and on the project's own fixtures, both plans must give
-- the same rows for every column set, or the same error; plus rescans,
-- prepared statements, scroll cursors, the version argument and the
-- EXECUTE privilege the function scan checks.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\set t :abs_srcdir '/data/line_shapes/ok'

-- the plans
EXPLAIN (COSTS OFF) SELECT count(*) FROM deltacc.snapshot_files(:'t');
EXPLAIN (COSTS OFF) SELECT path, num_records FROM deltacc.snapshot_files(:'t') WHERE size > 10;
EXPLAIN (COSTS OFF) SELECT count(*) FROM deltacc.snapshot_files(:'t') WITH ORDINALITY;
EXPLAIN (COSTS OFF) SELECT f FROM deltacc.snapshot_files(:'t') f;
EXPLAIN (COSTS OFF) SELECT count(*) FROM (VALUES (:'t'), (:'t')) v(p), deltacc.snapshot_files(v.p);
EXPLAIN (COSTS OFF) SELECT (deltacc.snapshot_files(:'t')).path LIMIT 1;

-- the rows of both plans for one table: every column, some column sets
-- (the function scan's through WITH ORDINALITY), or both errors
CREATE FUNCTION pg_temp.both_plans(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    scan_rows text;
    fn_rows text;
    scan_err text;
    fn_err text;
    q text;
    cols text;
BEGIN
    FOREACH cols IN ARRAY ARRAY[
        'path, partition_values, size, modification_time, num_records, stats, deletion_vector, base_row_id, default_row_commit_version',
        'path', 'num_records', 'stats', 'deletion_vector, size', 'partition_values, modification_time',
        'base_row_id, default_row_commit_version', '1']
    LOOP
        scan_err := NULL;
        fn_err := NULL;
        q := format('SELECT md5(coalesce(string_agg(r::text, %L ORDER BY o), %L)) || '':'' || count(*)
                       FROM (SELECT row_number() OVER () AS o, %s FROM deltacc.snapshot_files(%L)) r',
                    '|', '', cols, t);
        BEGIN
            EXECUTE q INTO scan_rows;
        EXCEPTION WHEN OTHERS THEN
            scan_err := SQLSTATE || ' ' || SQLERRM;
        END;
        q := format('SELECT md5(coalesce(string_agg(r::text, %L ORDER BY o), %L)) || '':'' || count(*)
                       FROM (SELECT ordinality AS o, %s FROM deltacc.snapshot_files(%L) WITH ORDINALITY) r',
                    '|', '', cols, t);
        BEGIN
            EXECUTE q INTO fn_rows;
        EXCEPTION WHEN OTHERS THEN
            fn_err := SQLSTATE || ' ' || SQLERRM;
        END;
        IF scan_err IS DISTINCT FROM fn_err OR
           (scan_err IS NULL AND scan_rows IS DISTINCT FROM fn_rows) THEN
            RETURN format('differ on %s: %s / %s', cols,
                          coalesce(scan_err, scan_rows), coalesce(fn_err, fn_rows));
        END IF;
    END LOOP;
    RETURN coalesce('same error: ' || split_part(scan_err, ' ', 1), 'same rows');
END $$;

-- the project's fixtures with add lines of many layouts (and bad ones)
SELECT d AS fixture, pg_temp.both_plans(:'abs_srcdir' || '/data/line_shapes/' || d) AS outcome
  FROM pg_ls_dir(:'abs_srcdir' || '/data/line_shapes') AS d
 WHERE d <> 'generate.py'
 ORDER BY 1;
SELECT d AS fixture, pg_temp.both_plans(:'abs_srcdir' || '/data/fastpath/' || d) AS outcome
  FROM pg_ls_dir(:'abs_srcdir' || '/data/fastpath') AS d
 WHERE d <> 'generate.py'
 ORDER BY 1;

\if :have_tables
-- every real table: the same rows (or the same error) both ways
SELECT count(*) AS tables,
       count(*) FILTER (WHERE outcome = 'same rows') AS same_rows,
       count(*) FILTER (WHERE outcome LIKE 'same error%') AS same_error,
       string_agg(d || ': ' || outcome, '; ') FILTER (WHERE outcome NOT LIKE 'same%') AS differ
  FROM (SELECT d, pg_temp.both_plans(CASE WHEN pg_stat_file(:'tables' || '/' || d || '/delta', true) IS NULL
                                          THEN :'tables' || '/' || d
                                          ELSE :'tables' || '/' || d || '/delta' END) AS outcome
          FROM pg_ls_dir(:'tables') AS d
         WHERE (pg_stat_file(:'tables' || '/' || d)).isdir) x;
\else
\echo 'snapshot_scan: DELTACC_TABLES is empty, real tables skipped'
\endif

-- a rescan per outer row (the argument changes; NULL gives no rows), and
-- the version argument
SELECT v.n, (SELECT count(*) FROM deltacc.snapshot_files(v.p)) AS files
  FROM (VALUES (1, :'t'), (2, NULL), (3, :'t')) v(n, p) ORDER BY 1;
SELECT (SELECT count(*) FROM deltacc.snapshot_files(:'t', v.v)) AS files
  FROM (VALUES (0), (1)) v(v) ORDER BY 1;
SELECT count(*) FROM deltacc.snapshot_files(:'t', -1);
SELECT count(*) FROM deltacc.snapshot_files(NULL);

-- a prepared statement: custom plans, then the generic plan
PREPARE q(text) AS SELECT count(*), sum(size) FROM deltacc.snapshot_files($1);
EXECUTE q(:'t'); EXECUTE q(:'t'); EXECUTE q(:'t'); EXECUTE q(:'t'); EXECUTE q(:'t');
EXECUTE q(:'t');
DEALLOCATE q;

-- a scroll cursor (the scan does not go backwards: the planner puts a
-- Material on top)
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT path FROM deltacc.snapshot_files(:'t');
FETCH LAST FROM c;
FETCH FIRST FROM c;
FETCH RELATIVE 2 FROM c;
FETCH BACKWARD 1 FROM c;
COMMIT;

-- the EXECUTE privilege, as the function scan checks it (a role that may
-- use the schema but not call snapshot_files): the same error both ways
CREATE ROLE regress_snapscan_noexec;
GRANT USAGE ON SCHEMA deltacc TO regress_snapscan_noexec;
SET ROLE regress_snapscan_noexec;
SELECT count(*) FROM deltacc.snapshot_files(:'t');
SELECT count(*) FROM deltacc.snapshot_files(:'t') WITH ORDINALITY;
RESET ROLE;
REVOKE USAGE ON SCHEMA deltacc FROM regress_snapscan_noexec;
DROP ROLE regress_snapscan_noexec;
