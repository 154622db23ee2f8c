--
-- writer_nan.sql: float/double maxima skip a file only when its statistics
-- are known to include NaN (reference §3.6): the file comes from a JSON
-- commit that delta_commit_stats_include_nan accepts (a Spark / Databricks
-- writer, an operation that computes the statistics of the files it adds,
-- no add with a deletion vector).  files_for_scan, the read files the
-- conflict functions derive (read_files NULL) and the per-winner added-files
-- check apply that one rule, so they agree file by file.  Fixtures:
-- test/data/skipping/generate.py (writer_nan, writer_nan_ckpt).
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set wn :abs_srcdir '/data/skipping/writer_nan'
\set wc :abs_srcdir '/data/skipping/writer_nan_ckpt'
SET TimeZone = 'UTC';
-- the loser: a non-blind write of one new file (Serializable)
CREATE FUNCTION pg_temp.loser() RETURNS jsonb LANGUAGE sql AS $$
    SELECT '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]'::jsonb $$;
-- the read files conflicts derives at read version rv, as the paths of the
-- delete/read candidates of winner rv + 1, which removes every live file
CREATE FUNCTION pg_temp.derived(t text, rv bigint, preds text[])
    RETURNS text[] LANGUAGE sql AS $$
    SELECT coalesce(array_agg(path ORDER BY path), '{}')
      FROM deltacc.explain_conflicts(t, rv, preds, pg_temp.loser(),
                                     through_version => rv + 1, mode => 'stats')
     WHERE "check" = 'delete_read' AND decision = 'conflict' $$;
CREATE FUNCTION pg_temp.scanned(t text, v bigint, preds text[])
    RETURNS text[] LANGUAGE sql AS $$
    SELECT coalesce(array_agg(path ORDER BY path), '{}')
      FROM deltacc.files_for_scan(t, preds, v) $$;

-- the commits: who wrote each, with which operation
SELECT version, operation, engine_info FROM deltacc.history(:'wn') ORDER BY version;

-- ===== files_for_scan =====
-- d > 7.5 (max-based): the Spark WRITEs are skipped, commitInfo first or
-- last; kept: delta-rs and no engineInfo (writer not known to include NaN),
-- RESTORE (statistics copied from an earlier add), both files of the DELETE
-- that re-added a file with a deletion vector, and the Spark file whose max
-- is NaN (must still keep)
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d > 7.5'], 7) ORDER BY path;
-- before the DELETE: delta-rs.parquet as the delta-rs commit added it
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d > 7.5'], 3) ORDER BY path;
-- other max-based forms
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d >= 7.6'], 7) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d = ''NaN'''], 7) ORDER BY path;
-- forms NaN never satisfies skip whatever the writer: only the max NaN file
-- may hold 8 ...
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d = 8'], 7) ORDER BY path;
-- ... and none is below its min
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d < 0.5'], 7) ORDER BY path;
-- a long column is not affected at all
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['id > 9'], 7) ORDER BY path;
-- OR across reads: a file skipped by one read is scanned for the other
SELECT path FROM deltacc.files_for_scan(:'wn', ARRAY['d > 7.5', 'd < 0.5 OR id = 3'], 7) ORDER BY path;

-- ===== the read files conflicts derives are files_for_scan's =====
SELECT pg_temp.derived(:'wn', 7, ARRAY['d > 7.5']);
SELECT p AS preds,
       pg_temp.derived(:'wn', 7, p) = pg_temp.scanned(:'wn', 7, p) AS same,
       cardinality(pg_temp.scanned(:'wn', 7, p)) AS n
  FROM (VALUES (ARRAY['d > 7.5']), (ARRAY['d >= 7.6']), (ARRAY['d = ''NaN''']),
               (ARRAY['d = 8']), (ARRAY['d < 0.5']), (ARRAY['true']),
               (ARRAY['d > 7.5 AND id < 100']), (ARRAY['d > 7.5', 'id = 3'])) AS x(p);
-- what the loser is told (skipped files first: ordered by path)
SELECT winning_version AS v, "check", path, decision, reason
  FROM deltacc.explain_conflicts(:'wn', 7, '{d > 7.5}', pg_temp.loser(),
                                 through_version => 8, mode => 'stats')
 ORDER BY path;
-- the refinement: a read every file skips conflicts with nothing ...
SELECT * FROM deltacc.conflicts(:'wn', 7, '{d < 0.5}', pg_temp.loser(), through_version => 8, mode => 'stats');
-- ... and d > 7.5 must still conflict, on a file it kept
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'wn', 7, '{d > 7.5}', pg_temp.loser(), through_version => 8, mode => 'stats')
 LIMIT 1;

-- ===== winners: the same rule per winner commit =====
SELECT winning_version AS v, path, decision, reason
  FROM deltacc.explain_conflicts(:'wn', 0, '{d > 7.5}', pg_temp.loser(),
                                 through_version => 7, mode => 'stats')
 WHERE "check" = 'added_files' ORDER BY 1, 2, 3;
-- the files the winners' checks keep are the files files_for_scan keeps
SELECT (SELECT array_agg(DISTINCT path ORDER BY path)
          FROM deltacc.explain_conflicts(:'wn', 0, '{d > 7.5}', pg_temp.loser(),
                                         through_version => 7, mode => 'stats')
         WHERE "check" = 'added_files' AND decision = 'conflict') =
       pg_temp.scanned(:'wn', 7, ARRAY['d > 7.5']) AS same;
-- no conflict through the Spark WRITE; the delta-rs WRITE must still conflict
SELECT * FROM deltacc.conflicts(:'wn', 0, '{d > 7.5}', pg_temp.loser(), through_version => 1, mode => 'stats');
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'wn', 0, '{d > 7.5}', pg_temp.loser(), through_version => 2, mode => 'stats');
-- the Spark RESTORE and the Spark DELETE with a deletion vector must still conflict
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'wn', 4, '{d > 7.5}', pg_temp.loser(), through_version => 5, mode => 'stats');
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'wn', 5, '{d > 7.5}', pg_temp.loser(), through_version => 6, mode => 'stats')
 ORDER BY path;
-- a check repeated in the session (commit cache, remembered answers and
-- kept lists) decides the same
SELECT (SELECT array_agg(ROW(winning_version, "check", path, decision, reason)::text ORDER BY 1)
          FROM deltacc.explain_conflicts(:'wn', 0, '{d > 7.5}', pg_temp.loser(), through_version => 8, mode => 'stats')) =
       (SELECT array_agg(ROW(winning_version, "check", path, decision, reason)::text ORDER BY 1)
          FROM deltacc.explain_conflicts(:'wn', 0, '{d > 7.5}', pg_temp.loser(), through_version => 8, mode => 'stats'))
       AS repeated_same;
-- a read with no float maximum has the same decision key for both writer
-- kinds: its answers are shared, and every file skips
SELECT winning_version AS v, path, decision
  FROM deltacc.explain_conflicts(:'wn', 0, '{id > 9}', pg_temp.loser(),
                                 through_version => 7, mode => 'stats')
 WHERE "check" = 'added_files' ORDER BY 1, 2;

-- ===== files from a checkpoint: writer unknown, kept =====
SELECT version, operation, engine_info FROM deltacc.history(:'wc') ORDER BY version;
-- a.parquet and b.parquet come from the checkpoint (their JSON commits
-- are gone): kept; c.parquet, from a Spark WRITE after it: skipped
SELECT path FROM deltacc.files_for_scan(:'wc', ARRAY['d > 7.5'], 2) ORDER BY path;
SELECT pg_temp.derived(:'wc', 2, ARRAY['d > 7.5']) AS derived,
       pg_temp.derived(:'wc', 2, ARRAY['d > 7.5']) = pg_temp.scanned(:'wc', 2, ARRAY['d > 7.5']) AS same;
-- must still conflict: the checkpoint's files
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'wc', 2, '{d > 7.5}', pg_temp.loser(), through_version => 3, mode => 'stats')
 ORDER BY path;

-- ===== operations and writers: one file per commit (writer_nan_ops) =====
\set wo :abs_srcdir '/data/skipping/writer_nan_ops'
SELECT version, operation, engine_info FROM deltacc.history(:'wo') ORDER BY version;
-- d > 7.5 skips the files of MERGE, UPDATE, OPTIMIZE, STREAMING UPDATE,
-- CREATE OR REPLACE TABLE AS SELECT and the Databricks WRITE; it must keep
-- CLONE, CONVERT, Manual Update (statistics not computed by the commit), a
-- lower-case "merge" (not an operation name Delta writes) and the Photon
-- WRITE (writer not known to include NaN)
SELECT path FROM deltacc.files_for_scan(:'wo', ARRAY['d > 7.5'], 11) ORDER BY path;
-- a min-based read: every file skips whatever its writer (NaN never lowers
-- a minimum)
SELECT path FROM deltacc.files_for_scan(:'wo', ARRAY['d < 0.5'], 11) ORDER BY path;
-- each winner commit decides by the same rule: the checks of v1..v11
SELECT winning_version AS v, path, decision
  FROM deltacc.explain_conflicts(:'wo', 0, '{d > 7.5}', pg_temp.loser(),
                                 through_version => 11, mode => 'stats')
 WHERE "check" = 'added_files' ORDER BY 1, 2;
-- must still conflict: the first kept winner is CLONE (v7)
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'wo', 0, '{d > 7.5}', pg_temp.loser(), through_version => 11, mode => 'stats');
-- and no conflict through the six that compute their statistics
SELECT * FROM deltacc.conflicts(:'wo', 0, '{d > 7.5}', pg_temp.loser(), through_version => 6, mode => 'stats');
-- the delete/read files derived at v11 are files_for_scan's
SELECT pg_temp.derived(:'wo', 11, ARRAY['d > 7.5']) = pg_temp.scanned(:'wo', 11, ARRAY['d > 7.5']) AS same;
