--
-- replay.sql: deltacc.replay on the project-made histories of
-- test/data/history (make_history.py; its docstring lists every version
-- of every table: which files each commit removed and added, and which
-- version it read).  The expected verdicts are written here by hand, each
-- with why; the suite prints only the rows where replay disagrees, then
-- the rows themselves (details pinned by the expected output).
--
SET client_min_messages = warning;
\getenv abs_srcdir PG_ABS_SRCDIR
\set events :abs_srcdir '/data/history/events'
\set broken :abs_srcdir '/data/history/broken'
\set levels :abs_srcdir '/data/history/levels'
\set badschema :abs_srcdir '/data/history/badschema'

-- -------------------------------------------------------------------------
-- events: 21 commits, 10 of which raced others.  No delta.isolationLevel:
-- the recorded WriteSerializable holds, under which a blind append's
-- files never conflict (delta-semantics.md §2.5).
-- -------------------------------------------------------------------------
CREATE TEMP TABLE expected (version bigint, mode text, winning_version bigint,
                            conflict text, path text, why text);
INSERT INTO expected VALUES
-- v2, a blind append racing the blind append v1: it read nothing.
(2, 'partition', NULL, NULL, NULL, 'blind append: no read, no remove'),
(2, 'stats', NULL, NULL, NULL, 'blind append'),
(2, 'row_level', NULL, NULL, NULL, 'blind append'),
-- v4, UPDATE region = EU AND id = 150 (read version 2) against v3, the
-- UPDATE of id = 5 that rewrote e0 into e0b (EU, ids 0..99).  Delta's rule
-- is per partition: e0b is in EU, so v4 should have aborted.  Statistics:
-- e0b's ids stop at 99, so id = 150 cannot be in it; v4 read only e1
-- (100..199) and v3 removed e0, not e1: no delete conflict.
(4, 'partition', 3, 'ConcurrentAppendException', 'region=EU/e0b.parquet', 'same partition'),
(4, 'stats', NULL, NULL, NULL, 'max(id) = 99 < 150'),
(4, 'row_level', NULL, NULL, NULL, 'statistics already rule it out'),
-- v6, DELETE region = US AND id % 2 = 1 (read 4) against the Spark MERGE
-- v5 that inserted u3 (US, even ids 1210..1218).  Same partition; a
-- modulus has no statistics bound, so stats keeps u3; its rows are all
-- even, so row_level rules it out.
(6, 'partition', 5, 'ConcurrentAppendException', 'region=US/u3.parquet', 'same partition'),
(6, 'stats', 5, 'ConcurrentAppendException', 'region=US/u3.parquet', 'id % 2 = 1 cannot be bounded'),
(6, 'row_level', NULL, NULL, NULL, 'no odd id among u3''s rows'),
-- v8, OPTIMIZE (read 6) against the blind append v7.  OPTIMIZE changes no
-- data: SnapshotIsolation, which does not look at added files; v7 removed
-- nothing.
(8, 'partition', NULL, NULL, NULL, 'SnapshotIsolation: appends are not checked'),
(8, 'stats', NULL, NULL, NULL, 'same'),
(8, 'row_level', NULL, NULL, NULL, 'same'),
-- v10, OPTIMIZE (read 8) against v9, the DELETE of EU ids >= 200 that
-- removed e4.  v10 read e4 (it compacted it), so Delta's delete/read rule
-- fires in every mode: the audit's writer that broke isolation (v10
-- brought back the rows v9 deleted).  Row level cannot help: OPTIMIZE
-- read every row of e4.
(10, 'partition', 9, 'ConcurrentDeleteReadException', 'region=EU/e4.parquet', 'read a file the winner removed'),
(10, 'stats', 9, 'ConcurrentDeleteReadException', 'region=EU/e4.parquet', 'path-keyed'),
(10, 'row_level', 9, 'ConcurrentDeleteReadException', 'region=EU/e4.parquet', 'every row of e4 was read'),
-- v12, a Spark MERGE (read 10) against the UPDATE v11 that rewrote u0b
-- into u0c in US.  A Spark MERGE condition relates two relations, so the
-- replay takes the whole table as read: a conflict in every mode, even
-- though v12 only changed EU (the safe direction).
(12, 'partition', 11, 'ConcurrentAppendException', 'region=US/u0c.parquet', 'whole table read'),
(12, 'stats', 11, 'ConcurrentAppendException', 'region=US/u0c.parquet', 'whole table read'),
(12, 'row_level', 11, 'ConcurrentAppendException', 'region=US/u0c.parquet', 'whole table read'),
-- v14, a delta-rs MERGE with its recorded target filter region = 'US' AND
-- id BETWEEN 1000 AND 1010 (read 12) against v13, a DELETE in EU: another
-- partition, and v13 removed e5b, which v14 did not read.
(14, 'partition', NULL, NULL, NULL, 'other partition'),
(14, 'stats', NULL, NULL, NULL, 'other partition'),
(14, 'row_level', NULL, NULL, NULL, 'other partition'),
-- v16, DELETE region = EU AND id = 42 (read 14) against the UPDATE v15 in
-- US: another partition.
(16, 'partition', NULL, NULL, NULL, 'other partition'),
(16, 'stats', NULL, NULL, NULL, 'other partition'),
(16, 'row_level', NULL, NULL, NULL, 'other partition'),
-- v17, its twin: a DELETE (read 14) whose predicate is a subquery, which
-- does not translate: the whole table, so v15's u1c conflicts in every
-- mode (v16 too, later: the first of several conflicts).
(17, 'partition', 15, 'ConcurrentAppendException', 'region=US/u1c.parquet', 'whole table read'),
(17, 'stats', 15, 'ConcurrentAppendException', 'region=US/u1c.parquet', 'whole table read'),
(17, 'row_level', 15, 'ConcurrentAppendException', 'region=US/u1c.parquet', 'whole table read'),
-- v19, DELETE region = US AND id = 1106 run at Serializable (read 17)
-- against the blind append v18 of u5 (US, 1400..1409).  At Serializable a
-- blind append's files count: same partition.  u5's ids start at 1400.
(19, 'partition', 18, 'ConcurrentAppendException', 'region=US/u5.parquet', 'Serializable, same partition'),
(19, 'stats', NULL, NULL, NULL, 'min(id) = 1400 > 1106'),
(19, 'row_level', NULL, NULL, NULL, 'statistics already rule it out');

CREATE TEMP TABLE got AS
SELECT * FROM deltacc.replay(:'events');

-- disagreements with the hand-derived verdicts (none expected)
SELECT coalesce(e.version, g.version) AS version, coalesce(e.mode, g.mode) AS mode,
       e.conflict AS expected, g.conflict AS got, g.winning_version, g.path
  FROM expected e
  FULL JOIN got g ON g.version = e.version AND g.mode = e.mode
 WHERE g.version IS NULL OR e.version IS NULL
    OR g.winning_version IS DISTINCT FROM e.winning_version
    OR g.conflict IS DISTINCT FROM e.conflict
    OR g.path IS DISTINCT FROM e.path;

-- the rows, as an analyst sees them (modes in the order asked)
SELECT version, read_version, operation, read_predicate, mode, winning_version, conflict
  FROM got ORDER BY version, array_position(ARRAY['partition','stats','row_level'], mode);

-- their details: the first conflict's reason, how the reads were derived
SELECT version, mode, detail FROM got
 WHERE detail IS NOT NULL
 ORDER BY version, array_position(ARRAY['partition','stats','row_level'], mode);

-- commits without readVersion (v0, and the Kernel append v20) and commits
-- that read the version before their own are not replayed
SELECT h.version, h.read_version, count(g.*) AS replay_rows
  FROM deltacc.history(:'events') h LEFT JOIN got g USING (version)
 WHERE h.read_version IS NULL OR h.read_version >= h.version - 1
 GROUP BY 1, 2 HAVING count(g.*) > 0;
SELECT count(*) FILTER (WHERE read_version IS NULL) AS not_auditable,
       count(*) FILTER (WHERE read_version < version - 1) AS raced
  FROM deltacc.history(:'events');

-- the abort rate per mode (docs/replay.md): partition 6 of 10 (v4 v6 v10
-- v12 v17 v19), stats 4 (v6 v10 v12 v17), row_level 3 (v10 v12 v17)
SELECT mode, count(*) AS raced, count(conflict) AS aborts,
       round(100.0 * count(conflict) / count(*)) AS abort_pct
  FROM got GROUP BY mode ORDER BY array_position(ARRAY['partition','stats','row_level'], mode);

-- the same verdict as deltacc.conflicts gives when asked by hand: v4's
-- actions, its translated predicate, read version 2, through version 3
SELECT deltacc.load_log(:'events', 4, 4) > 0 AS loaded;
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(:'events', 2,
         ARRAY['("region" = ''EU'') AND ("id" = 150)'],
         (SELECT jsonb_agg(jsonb_build_object(action, jsonb_build_object(
                   'path', path, 'partitionValues', partition_values, 'size', size,
                   'modificationTime', 0, 'deletionTimestamp', 0,
                   'dataChange', data_change)))
            FROM pg_temp.delta_files WHERE version = 4),
         isolation_level => 'WriteSerializable', through_version => 3,
         mode => 'partition');

-- -------------------------------------------------------------------------
-- Arguments
-- -------------------------------------------------------------------------
-- a version range selects the commits replayed, not their winners
SELECT version, mode, winning_version, conflict
  FROM deltacc.replay(:'events', 10, 12, '{partition}');
-- modes in the order given, repeated ones too; NULL: the default mode
SELECT version, mode FROM deltacc.replay(:'events', 4, 4, '{row_level,partition,row_level}');
SET deltacc.default_mode = 'row_level';
SELECT version, mode, conflict FROM deltacc.replay(:'events', 6, 6, NULL);
RESET deltacc.default_mode;
SELECT count(*) FROM deltacc.replay(:'events', 4, 4, '{}');
-- nothing in range, or past the log
SELECT count(*) FROM deltacc.replay(:'events', 12, 11);
SELECT count(*) FROM deltacc.replay(:'events', 100);
SELECT count(*) FROM deltacc.replay(:'events', NULL, 1000);
SELECT * FROM deltacc.replay(:'events', -1);
SELECT * FROM deltacc.replay(:'events', modes => '{fast}');
SELECT * FROM deltacc.replay(:'events', modes => '{stats,NULL}');
SELECT * FROM deltacc.replay(NULL);
SELECT * FROM deltacc.replay('/no/such/table');

-- -------------------------------------------------------------------------
-- Must still conflict: inputs a check cannot use are reported as
-- conflicts (ConcurrentModificationException, the error in detail), never
-- as passes.
-- -------------------------------------------------------------------------
-- broken v2 records readVersion -1; v4's winner v3 added a2, whose data
-- file is missing, so row_level cannot read its rows and keeps Delta's
-- verdict (an unpartitioned table: any added file conflicts); v6's winner
-- v5 is not JSON (replay stops before v5 itself, which cannot be read).
SELECT version, read_version, mode, winning_version, conflict, path, detail
  FROM deltacc.replay(:'broken', 0, 4);
SELECT version, read_version, mode, winning_version, conflict, path, detail
  FROM deltacc.replay(:'broken', 6);
-- reaching v5 as a commit to replay is the table's own error, as history's
SELECT count(*) FROM deltacc.replay(:'broken');
-- badschema v2 read version 0, whose schemaString does not parse
SELECT version, mode, conflict, detail FROM deltacc.replay(:'badschema');

-- -------------------------------------------------------------------------
-- Isolation levels (levels): a recorded SnapshotIsolation on a commit that
-- changes data does not weaken the check (v2: the table's level, none set,
-- so Serializable, under which v1's blind append counts on an
-- unpartitioned table); a recorded WriteSerializable holds (v4: the blind
-- append v3 does not count); the table's Serializable, once set, is
-- stricter than a recorded WriteSerializable (v7 against the blind v6).
-- -------------------------------------------------------------------------
SELECT version, mode, winning_version, conflict, path
  FROM deltacc.replay(:'levels');
-- the same for v7 alone (the level at its read version looked up rather
-- than followed through the commits before it)
SELECT version, mode, winning_version, conflict, path
  FROM deltacc.replay(:'levels', 7, 7, '{partition}');
