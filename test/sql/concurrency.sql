--
-- concurrency.sql: deltacc.concurrency, the what-if pairs, on the
-- project-made history test/data/history/events (make_history.py lists
-- each version).  For a pair a < b: would b, with its own actions and
-- recorded reads, have conflicted with a had it read version a - 1?  The
-- expected answers for every pair at most two versions apart are written
-- here by hand, each with why; the suite prints only disagreements.
--
SET client_min_messages = warning;
\getenv abs_srcdir PG_ABS_SRCDIR
\set events :abs_srcdir '/data/history/events'
\set broken :abs_srcdir '/data/history/broken'

-- p, s, r: the conflict in partition, stats and row_level mode (NULL: b
-- could run beside a); path: the file of every non-NULL one.  Names:
-- CAE ConcurrentAppendException, CDR ConcurrentDeleteReadException, CME
-- ConcurrentModificationException (no Delta rule: b rewrites a file a
-- added, so it cannot have read a - 1).
CREATE TEMP TABLE expected (a bigint, b bigint, p text, s text, r text, path text, why text);
INSERT INTO expected VALUES
-- one apart
(1, 2, NULL, NULL, NULL, NULL, 'b is a blind append'),
(2, 3, NULL, NULL, NULL, NULL, 'a is a blind append, b runs at WriteSerializable'),
(3, 4, 'CAE', NULL, NULL, 'region=EU/e0b.parquet', 'same partition; e0b holds ids 0..99, b reads id = 150'),
(4, 5, 'CAE', 'CAE', 'CAE', 'region=EU/e1b.parquet', 'b is a Spark MERGE: the whole table'),
(5, 6, 'CAE', 'CAE', NULL, 'region=US/u3.parquet', 'same partition; id % 2 = 1 has no bound; u3 holds even ids only'),
(6, 7, NULL, NULL, NULL, NULL, 'b is a blind append'),
(7, 8, NULL, NULL, NULL, NULL, 'b is an OPTIMIZE (SnapshotIsolation); a removed nothing'),
(8, 9, 'CAE', 'CAE', 'CAE', 'region=EU/e4.parquet', 'a''s compacted e4 (dataChange false still counts) holds ids 200..209, which b deletes'),
(9, 10, 'CDR', 'CDR', 'CDR', 'region=EU/e4.parquet', 'a removed e4, which b compacted'),
(10, 11, NULL, NULL, NULL, NULL, 'a in EU, b reads US'),
(11, 12, 'CAE', 'CAE', 'CAE', 'region=US/u0c.parquet', 'b is a Spark MERGE: the whole table'),
(12, 13, 'CAE', 'CAE', 'CAE', 'region=EU/e5b.parquet', 'a''s e5b holds id 7, which b deletes'),
(13, 14, NULL, NULL, NULL, NULL, 'a in EU, b (delta-rs) reads US; b did not read the file a removed'),
(14, 15, 'CAE', NULL, NULL, 'region=US/u0d.parquet', 'same partition; u0d''s ids stop at 1098, b reads id = 1100'),
(15, 16, NULL, NULL, NULL, NULL, 'a in US, b reads EU'),
(16, 17, 'CAE', 'CAE', 'CAE', 'region=EU/e5d.parquet', 'b''s predicate is a subquery: the whole table'),
(17, 18, NULL, NULL, NULL, NULL, 'b is a blind append'),
(18, 19, 'CAE', NULL, NULL, 'region=US/u5.parquet', 'b runs at Serializable: a''s blind append counts; u5''s ids start at 1400'),
(19, 20, 'CAE', 'CAE', 'CAE', 'region=US/u1d.parquet', 'b (Kernel) is not a blind append and records no predicate: the whole table'),
-- two apart
(1, 3, NULL, NULL, NULL, NULL, 'a is a blind append'),
(2, 4, NULL, NULL, NULL, NULL, 'a is a blind append'),
(3, 5, 'CAE', 'CAE', 'CAE', 'region=EU/e0b.parquet', 'b is a Spark MERGE: the whole table'),
(4, 6, NULL, NULL, NULL, NULL, 'a in EU, b reads US'),
(5, 7, NULL, NULL, NULL, NULL, 'b is a blind append'),
(6, 8, NULL, NULL, NULL, NULL, 'b is an OPTIMIZE in EU; a removed US files only'),
(7, 9, 'CME', 'CME', 'CME', 'region=EU/e3.parquet', 'b removes e3, which a added'),
(8, 10, 'CME', 'CME', 'CME', 'region=EU/e4.parquet', 'b removes e4, which a added'),
(9, 11, NULL, NULL, NULL, NULL, 'a in EU, b reads US'),
(10, 12, 'CAE', 'CAE', 'CAE', 'region=EU/e5.parquet', 'b is a Spark MERGE: the whole table'),
(11, 13, NULL, NULL, NULL, NULL, 'a in US, b reads EU'),
(12, 14, NULL, NULL, NULL, NULL, 'a in EU, b reads US'),
(13, 15, NULL, NULL, NULL, NULL, 'a in EU, b reads US'),
(14, 16, NULL, NULL, NULL, NULL, 'a in US, b reads EU'),
(15, 17, 'CAE', 'CAE', 'CAE', 'region=US/u1c.parquet', 'b: the whole table'),
(16, 18, NULL, NULL, NULL, NULL, 'b is a blind append'),
(17, 19, NULL, NULL, NULL, NULL, 'a in EU, b reads US'),
(18, 20, 'CAE', 'CAE', 'CAE', 'region=US/u5.parquet', 'b: the whole table');

CREATE TEMP TABLE got AS
SELECT m AS mode, c.*
  FROM unnest(ARRAY['partition', 'stats', 'row_level']) m,
       LATERAL deltacc.concurrency(:'events', mode => m, window_versions => 2) c;

-- disagreements with the hand-derived answers (none expected)
WITH want AS (
  SELECT e.a, e.b, m.mode,
         CASE m.c WHEN 'CAE' THEN 'ConcurrentAppendException'
                  WHEN 'CDR' THEN 'ConcurrentDeleteReadException'
                  WHEN 'CME' THEN 'ConcurrentModificationException' END AS conflict,
         CASE WHEN m.c IS NOT NULL THEN e.path END AS path
    FROM expected e,
         LATERAL (VALUES ('partition', e.p), ('stats', e.s), ('row_level', e.r)) m(mode, c))
SELECT coalesce(w.a, g.version_a) AS a, coalesce(w.b, g.version_b) AS b,
       coalesce(w.mode, g.mode) AS mode, w.conflict AS expected, g.conflict AS got, g.path
  FROM want w
  FULL JOIN got g ON g.version_a = w.a AND g.version_b = w.b AND g.mode = w.mode
 WHERE w.a IS NULL OR g.version_a IS NULL
    OR g.conflict IS DISTINCT FROM w.conflict OR g.path IS DISTINCT FROM w.path;

-- the pairs, one line each
SELECT version_a AS a, version_b AS b,
       max(conflict) FILTER (WHERE mode = 'partition') AS partition,
       max(conflict) FILTER (WHERE mode = 'stats') AS stats,
       max(conflict) FILTER (WHERE mode = 'row_level') AS row_level,
       max(path) AS path
  FROM got GROUP BY 1, 2 ORDER BY 1, 2;

-- what a setting would save (docs/replay.md): pairs that collide per mode
SELECT mode, count(*) AS pairs, count(conflict) AS collide,
       round(100.0 * count(conflict) / count(*)) AS collide_pct
  FROM got GROUP BY mode ORDER BY array_position(ARRAY['partition','stats','row_level'], mode);

-- the same check as replay: a commit that read two versions back raced
-- exactly one commit, so its replay row is the pair (version - 1, version)
SELECT r.version, r.mode, r.conflict AS replay, g.conflict AS concurrency
  FROM deltacc.replay(:'events') r
  JOIN got g ON g.version_a = r.version - 1 AND g.version_b = r.version AND g.mode = r.mode
 WHERE r.read_version = r.version - 2
   AND (r.conflict IS DISTINCT FROM g.conflict OR r.path IS DISTINCT FROM g.path);
SELECT count(*) AS compared
  FROM deltacc.replay(:'events') r
 WHERE r.read_version = r.version - 2;

-- -------------------------------------------------------------------------
-- Arguments
-- -------------------------------------------------------------------------
-- order by a then b; a starts at 1 (nothing runs beside the creation);
-- b - a at most the window; the range holds both
SELECT version_a, version_b FROM deltacc.concurrency(:'events', 0, 4, 'stats', 3);
SELECT version_a, version_b, conflict FROM deltacc.concurrency(:'events', 18, NULL, 'partition', 5);
-- the default window is 10; NULL as well
SELECT count(*), max(version_b - version_a) FROM deltacc.concurrency(:'events', mode => 'partition');
SELECT count(*) FROM deltacc.concurrency(:'events', 0, 20, 'partition', NULL);
-- mode NULL: deltacc.default_mode
SET deltacc.default_mode = 'row_level';
SELECT conflict FROM deltacc.concurrency(:'events', 5, 6, NULL, 1);
RESET deltacc.default_mode;
SELECT count(*) FROM deltacc.concurrency(:'events', 20, 20);
SELECT count(*) FROM deltacc.concurrency(:'events', 7, 3);
SELECT * FROM deltacc.concurrency(:'events', window_versions => 0);
SELECT * FROM deltacc.concurrency(:'events', mode => 'fast');
SELECT * FROM deltacc.concurrency(:'events', -1);
SELECT * FROM deltacc.concurrency(NULL);

-- -------------------------------------------------------------------------
-- Must still conflict (broken): b = 2 removes a1, which a = 1 added; b = 4
-- against the MERGE a = 3, whose data file is missing, keeps Delta's
-- verdict in row_level; the winner a = 5 cannot be read, so (5, 6) is not
-- checked (and 5 as a b is the table's own error, as in history).
-- -------------------------------------------------------------------------
SELECT version_a, version_b, conflict, path
  FROM deltacc.concurrency(:'broken', 0, 4, 'row_level', 2);
SELECT version_a, version_b, conflict, path
  FROM deltacc.concurrency(:'broken', 5, 6, 'row_level', 1);
SELECT count(*) FROM deltacc.concurrency(:'broken', 4, 6, 'row_level', 1);

-- -------------------------------------------------------------------------
-- The table's level at a - 1 (levels: delta.isolationLevel = Serializable
-- from version 5 on).  (6, 7): b read 5, Serializable, so a's blind append
-- counts on an unpartitioned table; (3, 4): before version 5, b's recorded
-- WriteSerializable holds and a's blind append does not count; (1, 2): b
-- recorded SnapshotIsolation for a DELETE, which leaves the level to the
-- table (none: Serializable), so a's blind append counts; (4, 5): b, SET
-- TBLPROPERTIES, records no read set: the whole table; (5, 6): a changed
-- the table's configuration (Delta's metadata check).  The same (6, 7)
-- from the first pair of a range starting at 6 (the level at 5 looked up
-- rather than followed through the commits).
-- -------------------------------------------------------------------------
\set levels :abs_srcdir '/data/history/levels'
SELECT version_a, version_b, conflict, path
  FROM deltacc.concurrency(:'levels', mode => 'partition', window_versions => 1);
SELECT version_a, version_b, conflict, path
  FROM deltacc.concurrency(:'levels', 6, 7, 'partition', 1);
