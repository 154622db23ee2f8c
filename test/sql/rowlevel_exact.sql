-- Row-level mode, added files: the value-exact tier (reference §5.1
-- #10-#16) on tables with real Parquet data files (test/data/rowlevel),
-- the byte cap, and the same races decided in all three modes.
\getenv abs_srcdir PG_ABS_SRCDIR
\set d :abs_srcdir '/data/rowlevel'
\set VERBOSITY terse

-- one verdict per (mode, race): the conflicts, or 'no conflict'
CREATE FUNCTION pg_temp.verdict(t text, rv bigint, preds text[], thru bigint,
                                m text, files text[] DEFAULT NULL,
                                whole boolean DEFAULT false)
RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(format('v%s %s %s', winning_version, conflict, path),
                             '; ' ORDER BY winning_version, conflict, path),
                  'no conflict')
  FROM deltacc.conflicts(t, rv, preds,
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         read_whole_table => whole, read_files => files, through_version => thru,
         mode => m)
$$;
-- the explain rows of the added-files check
CREATE FUNCTION pg_temp.why(t text, rv bigint, preds text[], thru bigint, m text)
RETURNS TABLE (v bigint, path text, decision text, reason text) LANGUAGE sql AS $$
  SELECT winning_version, path, decision, reason
  FROM deltacc.explain_conflicts(t, rv, preds,
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         through_version => thru, mode => m)
  WHERE "check" = 'added_files'
  ORDER BY 1, 2, 3
$$;

-- #10 / #11: loser DELETE WHERE id % 2 = 1 (reads all 10 files); the winner
-- appends even ids 1000..1098.  Statistics cannot skip a modulo predicate;
-- the rows can.
SELECT m AS mode, pg_temp.verdict(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, m)
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
-- #12: a genuinely matching added file still conflicts (no over-skip)
SELECT m AS mode, pg_temp.verdict(:'d' || '/exact', 0, ARRAY['id % 2 = 0'], 1, m)
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
-- #13: the per-file decision and its reason; an unfiltered read keeps it
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, 'row_level');
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['id % 2 = 0'], 1, 'row_level');
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, 'stats');
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['true'], 1, 'row_level');
-- #14: an all-odd and an all-even file.  Delta's tier is all-or-nothing;
-- deltacc decides per file (the even file has no odd row).
SELECT p AS reads, pg_temp.verdict(:'d' || '/exact', 1, p, 2, 'row_level')
FROM (VALUES (ARRAY['id % 2 = 1']), (ARRAY['id % 2 = 0']), (ARRAY['id % 2 = 5']),
             (ARRAY['id % 2 = 5', 'id = 1101'])) AS x(p);
SELECT * FROM pg_temp.why(:'d' || '/exact', 1, ARRAY['id % 2 = 5', 'id = 1101', 'id % 3 = 0'], 2, 'row_level');
-- #15: an unresolvable predicate is a clean error, never a pass ...
SELECT pg_temp.verdict(:'d' || '/exact', 0, ARRAY['nosuchcolumn % 2 = 1'], 1, 'row_level');
-- ... and a column of the schema that the data files lack keeps the file
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['note = ''x'''], 1, 'row_level');
-- a read without a usable data conjunct (a volatile one is dropped) keeps it
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['id % 2 = 1', 'random() < 0.5'], 1, 'row_level');
-- a whole-table read: the row-level tier is not used
SELECT pg_temp.verdict(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, 'row_level', whole => true);

-- #16: partitioned table (everything in p=0): the rows decide inside the
-- partition, the partition filter still applies after them
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/exact_part', 0, p, 1, m)
FROM (VALUES (ARRAY['id % 2 = 1']), (ARRAY['p = 0 AND id % 2 = 0']),
             (ARRAY['p = 1 AND id % 2 = 0'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;

-- the byte cap: a candidate past deltacc.row_level_max_bytes is kept unread
SET deltacc.row_level_max_bytes = 100;
SELECT pg_temp.verdict(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, 'row_level');
SELECT * FROM pg_temp.why(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, 'row_level');
SET deltacc.row_level_max_bytes = '1kB';
SELECT * FROM pg_temp.why(:'d' || '/exact', 1, ARRAY['id % 2 = 5'], 2, 'row_level');
RESET deltacc.row_level_max_bytes;

-- The same race in all three modes: winners v1..v3 against a loser that
-- read id % 2 = 1 AND id < 1150.  partition ⊇ stats ⊇ row_level.
SELECT m AS mode, pg_temp.verdict(:'d' || '/exact', 0, ARRAY['id % 2 = 1 AND id < 1150'], 3, m)
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
WITH c AS (
  SELECT m, winning_version, conflict, path
  FROM unnest(ARRAY['partition', 'stats', 'row_level']) m,
       LATERAL deltacc.conflicts(:'d' || '/exact', 0, ARRAY['id % 2 = 1 AND id < 1150'],
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         mode => m))
SELECT (SELECT count(*) FROM c WHERE m = 'partition') AS partition,
       (SELECT count(*) FROM c WHERE m = 'stats') AS stats,
       (SELECT count(*) FROM c WHERE m = 'row_level') AS row_level,
       NOT EXISTS (SELECT winning_version, conflict, path FROM c WHERE m = 'stats'
                   EXCEPT SELECT winning_version, conflict, path FROM c WHERE m = 'partition')
       AND NOT EXISTS (SELECT winning_version, conflict, path FROM c WHERE m = 'row_level'
                   EXCEPT SELECT winning_version, conflict, path FROM c WHERE m = 'stats')
         AS nested;

-- assert_no_conflict and the default mode
SELECT deltacc.assert_no_conflict(:'d' || '/exact', 0, ARRAY['id % 2 = 1'],
  '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
  through_version => 1, mode => 'row_level');
SELECT deltacc.assert_no_conflict(:'d' || '/exact', 0, ARRAY['id % 2 = 0'],
  '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
  through_version => 1, mode => 'row_level');
SET deltacc.default_mode = 'row_level';
SELECT pg_temp.verdict(:'d' || '/exact', 0, ARRAY['id % 2 = 1'], 1, NULL);
RESET deltacc.default_mode;

-- The README's demo: why row_level reports only odd-1100.parquet
SELECT winning_version AS v, "check", path, decision, reason
FROM deltacc.explain_conflicts(:'d' || '/exact', 0, ARRAY['id % 2 = 1 AND id < 1150'],
  '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
  mode => 'row_level')
WHERE "check" = 'added_files'
ORDER BY 1, 3, 4;

-- Strings and NULLs (test/data/rowlevel/types: v1 appends names 'a', NULL,
-- 'B'): byte-order comparison, IS NULL, a function of a column
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/types', 0, p, 1, m)
FROM (VALUES (ARRAY['name = ''Z''']), (ARRAY['name IS NULL']),
             (ARRAY['name > ''A'' AND name < ''C''']), (ARRAY['upper(name) = ''A''']),
             (ARRAY['upper(name) = ''Q''']), (ARRAY['name IS NOT NULL AND id > 101'])) AS x(p),
     unnest(ARRAY['stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/types', 0, ARRAY['name = ''Z''', 'upper(name) = ''Q'''], 1, 'row_level');
