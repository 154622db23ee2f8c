--
-- deferred_read_files.sql: conflicts() without read_files derives the
-- loser's read files only once a winner removes a file, and then, while
-- the read snapshot is not cached, only for the removed paths: each is
-- looked up among the read version's live files (a snapshot of keys only)
-- and judged by the reads as files_for_scan judges it.  explain_conflicts
-- always derives them whole from the read snapshot.  Both must give the
-- same conflicts on every real table (47 writers' logs: absolute and
-- percent-encoded paths, partitions, deletion vectors, checkpoints) for
-- reads of every file ('{true}': must still conflict, every winner's
-- removal of a file live at the read version is ConcurrentDeleteRead)
-- and for a read no statistics can keep (so that no file is read), from
-- read versions 0 and half way.  No timing is asserted.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.dir', :'abs_srcdir' || '/data/conflicts/', false) IS NOT NULL AS ok;
\set A '[{"add":{"path":"deltacc-new.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]'

-- rv_many_del (test/data/conflicts/generate.py): 300 files of ten ids;
-- v2 removes f000..f009, looked up one by one; v3 removes the other 290:
-- past 256 paths the read files are derived whole.  Must still conflict:
-- the reads (id < 55: f000..f005; id BETWEEN 2000 AND 2019: f200, f201)
-- make ConcurrentDeleteReadException at v2 on f000..f005 and at v3 on
-- f200 and f201; the same with read_files given, and from explain.
SELECT winning_version AS v, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'rv_many_del', 0,
                         '{id < 55, id BETWEEN 2000 AND 2019}', :'A', mode => 'stats')
 ORDER BY 1, 3;
SELECT misses AS snapshots_built FROM deltacc.snapshot_cache_stats();
SELECT winning_version AS v, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'rv_many_del', 0,
                         '{id < 55, id BETWEEN 2000 AND 2019}', :'A',
                         read_files => ARRAY(SELECT format('f%s.parquet', lpad(k::text, 3, '0'))
                                               FROM unnest(ARRAY[0, 1, 2, 3, 4, 5, 200, 201]) k),
                         mode => 'stats')
 ORDER BY 1, 3;
SELECT winning_version AS v, path
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.dir') || 'rv_many_del', 0,
                                 '{id < 55, id BETWEEN 2000 AND 2019}', :'A', mode => 'stats')
 WHERE decision = 'conflict' ORDER BY 1, 2;
-- a read that misses every removed file (id >= 5000: g only) -> OK
SELECT count(*) AS conflicts
  FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'rv_many_del', 0,
                         '{id >= 5000}', :'A', mode => 'stats');

-- rv_path_forms (generate.py): v1 removes the five files of v0 naming
-- them in other forms.  Must still conflict: looked up one by one, the
-- four written differently (an escape, a "." and an empty component) are
-- the files read, as explain_conflicts finds them; P5.parquet is not
-- p5.parquet.
SELECT winning_version AS v, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.dir') || 'rv_path_forms', 0,
                         '{true}', :'A', mode => 'stats')
 ORDER BY 1, 3;
SELECT winning_version AS v, path
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.dir') || 'rv_path_forms', 0,
                                 '{true}', :'A', mode => 'stats')
 WHERE decision = 'conflict' ORDER BY 1, 2;

\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables
CREATE TABLE dr_tables AS
SELECT d AS name,
       CASE WHEN pg_stat_file(:'tables' || '/' || d || '/delta', true) IS NULL
            THEN :'tables' || '/' || d ELSE :'tables' || '/' || d || '/delta' END AS path
  FROM pg_ls_dir(:'tables') AS d
 WHERE (pg_stat_file(:'tables' || '/' || d)).isdir;
-- the latest version of each (tables deltacc cannot read are left out)
CREATE FUNCTION latest_or_null(p text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT version FROM deltacc.table_info(p));
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;
CREATE TABLE dr_cases AS
SELECT name, path, rv, pred
  FROM (SELECT name, path, latest_or_null(path) AS latest FROM dr_tables) t,
       LATERAL (SELECT DISTINCT v FROM unnest(ARRAY[0, latest / 2]) v WHERE v < latest) AS r(rv),
       unnest(ARRAY['true', 'false']) AS pred
 WHERE latest IS NOT NULL;
-- the delete/read conflicts of one check as text (an error by its SQLSTATE)
CREATE FUNCTION dr_answer(p text, rv bigint, pred text, explain boolean, loser jsonb)
    RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r text;
BEGIN
  IF explain THEN
    SELECT coalesce(string_agg(format('%s %s', winning_version, path), ', '
                               ORDER BY winning_version, path), '-')
      INTO r
      FROM deltacc.explain_conflicts(p, rv, ARRAY[pred], loser, mode => 'stats')
     WHERE decision = 'conflict' AND "check" = 'delete_read';
  ELSE
    SELECT coalesce(string_agg(format('%s %s', winning_version, path), ', '
                               ORDER BY winning_version, path), '-')
      INTO r
      FROM deltacc.conflicts(p, rv, ARRAY[pred], loser, mode => 'stats')
     WHERE conflict = 'ConcurrentDeleteReadException';
  END IF;
  RETURN r;
EXCEPTION WHEN others THEN
  RETURN 'error ' || SQLSTATE;
END $$;
CREATE TABLE dr_one_by_one (name text, rv bigint, pred text, a text);
-- In a new session (nothing cached), conflicts() once per table and read
-- version: the removed paths are looked up one by one, and no snapshot is
-- built but for a window that removes more than 256 files; once for each
-- read in turn.
\c
SELECT misses AS m0 FROM deltacc.snapshot_cache_stats() \gset
INSERT INTO dr_one_by_one
SELECT name, rv, pred, dr_answer(path, rv, pred, false, :'A'::jsonb) FROM dr_cases WHERE pred = 'true';
SELECT misses - :m0 AS snapshots_built FROM deltacc.snapshot_cache_stats();
\c
SELECT misses AS m0 FROM deltacc.snapshot_cache_stats() \gset
INSERT INTO dr_one_by_one
SELECT name, rv, pred, dr_answer(path, rv, pred, false, :'A'::jsonb) FROM dr_cases WHERE pred = 'false';
SELECT misses - :m0 AS snapshots_built FROM deltacc.snapshot_cache_stats();
-- Asked again, the read snapshots are built whole and cached; and
-- explain_conflicts derives the read files whole from them.
SELECT count(*) FILTER (WHERE dr_answer(path, rv, pred, false, :'A'::jsonb) = o.a) = count(*)
           AS same_again
  FROM dr_cases JOIN dr_one_by_one o USING (name, rv, pred);
SELECT misses - :m0 > 0 AS snapshots_built FROM deltacc.snapshot_cache_stats();
CREATE TABLE dr_whole AS
SELECT name, rv, pred, dr_answer(path, rv, pred, true, :'A'::jsonb) AS a FROM dr_cases;
SELECT count(*) > 60 AS many_cases,
       count(*) FILTER (WHERE l.a = w.a) = count(*) AS same,
       count(*) FILTER (WHERE l.pred = 'true' AND l.a <> '-' AND l.a NOT LIKE 'error%') > 5
           AS some_delete_read,
       count(*) FILTER (WHERE l.pred = 'false' AND l.a <> '-') AS read_nothing_conflicts,
       count(*) FILTER (WHERE l.a LIKE 'error%') AS errors
  FROM dr_one_by_one l JOIN dr_whole w USING (name, rv, pred);
SELECT l.name, l.rv, l.pred, l.a AS one_by_one, w.a AS whole
  FROM dr_one_by_one l JOIN dr_whole w USING (name, rv, pred)
 WHERE l.a IS DISTINCT FROM w.a ORDER BY 1, 2, 3;
DROP TABLE dr_tables, dr_cases, dr_one_by_one, dr_whole;
DROP FUNCTION latest_or_null(text), dr_answer(text, bigint, text, boolean, jsonb);
\else
\echo 'deferred_read_files: DELTACC_TABLES is empty, suite skipped'
\endif
