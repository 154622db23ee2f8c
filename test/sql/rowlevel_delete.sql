-- Row-level mode, removed files: row-level delete/read and the
-- merge-on-read re-add exclusion (reference §5.2 #1-#11), and the "must
-- still conflict" twins of every refinement: an UPDATE that moves a row
-- into the read, a removed row that matches, a RESTORE that shrinks a
-- deletion vector, a signed sum that would cancel, a winner DV with a bad
-- CRC, partitioned removes with wrong partition values, a file moved to
-- another partition, a read file not in the read snapshot.
\getenv abs_srcdir PG_ABS_SRCDIR
\set d :abs_srcdir '/data/rowlevel'
\set VERBOSITY terse

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
CREATE FUNCTION pg_temp.why(t text, rv bigint, preds text[], thru bigint,
                            files text[] DEFAULT NULL)
RETURNS TABLE (v bigint, "check" text, path text, decision text, reason text)
LANGUAGE sql AS $$
  SELECT winning_version, "check", path, decision, reason
  FROM deltacc.explain_conflicts(t, rv, preds,
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         read_files => files, through_version => thru, mode => 'row_level')
  WHERE "check" IN ('added_files', 'delete_read')
  ORDER BY 1, 2, 3, 4
$$;

-- ===== dvdel v1: DELETE WHERE id < 10, merge-on-read (remove P + add P
-- with a "u" DV of rows 0..9); the loser read the file at v0.
-- #1, #10, #11: the verdict depends on whether a removed row matches
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/dvdel', 0, p, 1, m)
FROM (VALUES (ARRAY['id < 5']), (ARRAY['id < 10']), (ARRAY['id >= 10']),
             (ARRAY['id >= 50'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 0, ARRAY['id >= 50'], 1);
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 0, ARRAY['id < 5'], 1);
-- #3: OR across reads (the file read explicitly)
SELECT p AS reads, pg_temp.verdict(:'d' || '/dvdel', 0, p, 1, 'row_level', '{part-00000.parquet}')
FROM (VALUES (ARRAY['id >= 200', 'id < 5']), (ARRAY['id >= 200', 'id < -5'])) AS x(p);
-- #4: a read without a usable data conjunct; #9 a whole-table read
SELECT pg_temp.verdict(:'d' || '/dvdel', 0, ARRAY['true'], 1, 'row_level');
SELECT pg_temp.verdict(:'d' || '/dvdel', 0, ARRAY['id >= 50'], 1, 'row_level', whole => true);
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 0, ARRAY['id >= 50', 'true'], 1);
-- #5: a column that is not in the table is a clean error; a column of the
-- schema that the data file lacks keeps the path-keyed conflict
SELECT pg_temp.verdict(:'d' || '/dvdel', 0, ARRAY['missing_col < 5'], 1, 'row_level');
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 0, ARRAY['note = ''x'''], 1, '{part-00000.parquet}');

-- ===== dvdel v2: DELETE WHERE 60 <= id < 70: pre-image "u" DV {0..9},
-- post-image inline DV {0..9, 60..69} (rows in the second row group)
SELECT p AS reads, pg_temp.verdict(:'d' || '/dvdel', 1, p, 2, 'row_level')
FROM (VALUES (ARRAY['id < 10']), (ARRAY['id >= 70']), (ARRAY['id >= 65 AND id < 100'])) AS x(p);
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 1, ARRAY['id >= 65 AND id < 100'], 2);

-- two winners against one read set (trap 5): v1 removed rows 0..9, v2 rows
-- 60..69; each winner's own DV difference decides
SELECT p AS reads, pg_temp.verdict(:'d' || '/dvdel', 0, p, 2, 'row_level')
FROM (VALUES (ARRAY['id >= 50 AND id < 60']), (ARRAY['id >= 65']),
             (ARRAY['id < 3 OR id = 69'])) AS x(p);

-- ===== twin: dvdel v3 RESTORE to v1: remove(P, {0..9, 60..69}) + add(P,
-- {0..9}): rows 60..69 come back.  Never excluded as a re-add, never a
-- negative difference: it conflicts in every mode.
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/dvdel', 2, p, 3, m)
FROM (VALUES (ARRAY['id >= 60 AND id < 70']), (ARRAY['id >= 95'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 2, ARRAY['id >= 60 AND id < 70'], 3);

-- ===== twin: dvdel v4 DELETE WHERE id >= 90 whose new DV file has a bad
-- CRC: kept with the reason, never a pass
SELECT m AS mode, pg_temp.verdict(:'d' || '/dvdel', 3, ARRAY['id < 50'], 4, m)
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
SELECT * FROM pg_temp.why(:'d' || '/dvdel', 3, ARRAY['id < 50'], 4);

-- ===== fullrm: the only file (even ids 0..98, no DVs) removed outright
-- #2, #6, #7, #8: every live row of the pre-image is removed
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/fullrm', 0, p, 1, m)
FROM (VALUES (ARRAY['id % 2 = 1']), (ARRAY['id % 2 = 0']), (ARRAY['id < 5'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT pg_temp.verdict(:'d' || '/fullrm', 0, ARRAY['id >= 200'], 1, 'row_level', '{part-00000.parquet}');
SELECT * FROM pg_temp.why(:'d' || '/fullrm', 0, ARRAY['id % 2 = 1'], 1);
-- #9: whole-table read
SELECT pg_temp.verdict(:'d' || '/fullrm', 0, ARRAY['id % 2 = 1'], 1, 'row_level', whole => true);

-- ===== twin: update v1: UPDATE SET x = 15 WHERE id = 5 (merge-on-read:
-- remove A, add A with DV {5}, add B holding the moved row (5, 15))
-- a row moves INTO the read x > 10: B conflicts (the loser did not even
-- read A); a read that neither row satisfies commits
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/update', 0, p, 1, m)
FROM (VALUES (ARRAY['x > 10']), (ARRAY['x > 20']), (ARRAY['x = 5']), (ARRAY['x = 6'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/update', 0, ARRAY['x > 10'], 1);
-- a row moves OUT of the read x = 5: its pre-image was removed from A
SELECT * FROM pg_temp.why(:'d' || '/update', 0, ARRAY['x = 5'], 1);

-- ===== twin: signed v2: A's DV shrinks {0..9} -> {1..9} (row 0 comes
-- back, -1 match of id % 10 = 0) while B loses row 50 (+1 match): a signed
-- sum over both files is 0; per file, both conflict
SELECT m AS mode, pg_temp.verdict(:'d' || '/signed', 1, ARRAY['id % 10 = 0'], 2, m)
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
SELECT * FROM pg_temp.why(:'d' || '/signed', 1, ARRAY['id % 10 = 0'], 2);

-- ===== part_rm (partitioned by p; A in p=1, B in p=2, DVs on)
-- v1 removes A with no partitionValues, v2 with {} (the field is optional
-- on remove): the removed rows take p from the loser's own read file.  v1
-- removes rows 0..9, v2 rows 90..99; row level decides by them, the other
-- modes keep Delta's path-keyed conflict
SELECT rv, p AS reads, m AS mode,
       pg_temp.verdict(:'d' || '/part_rm', rv, p, rv + 1, m)
FROM (VALUES (0), (1)) AS v(rv),
     (VALUES (ARRAY['p = ''1'' AND id >= 50']), (ARRAY['p = ''1'' AND id < 50'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2, 3;
SELECT * FROM pg_temp.why(:'d' || '/part_rm', 0, ARRAY['p = ''1'' AND id >= 50'], 1);
SELECT * FROM pg_temp.why(:'d' || '/part_rm', 1, ARRAY['p = ''1'' AND id >= 50'], 2);
-- twin: v3 removes B with a WRONG partition value (p=9) while the loser
-- read B in p=2: which rows went is not certain, the conflict stays, and
-- the re-add is not excluded (the value-exact tier reads its live rows)
SELECT p AS reads, pg_temp.verdict(:'d' || '/part_rm', 2, p, 3, 'row_level')
FROM (VALUES (ARRAY['p = ''2'' AND id < 5']), (ARRAY['p = ''2'' AND id >= 50']),
             (ARRAY['p = ''9'' OR id < 3'])) AS x(p);
SELECT * FROM pg_temp.why(:'d' || '/part_rm', 2, ARRAY['p = ''2'' AND id >= 50'], 3);

-- ===== part_pv (partitioned by p, DVs off; files removed outright)
-- the files as written (p filled from the adds)
SELECT r FROM deltacc.read_rows(:'d' || '/part_pv', 0, 'id % 40 = 0') AS r
ORDER BY (r->>'id')::int;
-- v1 removes C (p=1, even ids 100..198) with partitionValues {}: no removed
-- row is odd, so row level lets the loser commit; a removed row that
-- matches (id = 150, any even id) still conflicts
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/part_pv', 0, p, 1, m)
FROM (VALUES (ARRAY['p = ''1'' AND id % 2 = 1']), (ARRAY['id % 2 = 1']),
             (ARRAY['p = ''1'' AND id = 150']), (ARRAY['p = ''1'' AND id % 2 = 0'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 0, ARRAY['p = ''1'' AND id % 2 = 1'], 1);
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 0, ARRAY['p = ''1'' AND id = 150'], 1);
-- the removed rows are in p=1, not NULL: a read of p IS NULL does not see
-- them, a read of p = '1' does
SELECT p AS reads, m AS mode,
       pg_temp.verdict(:'d' || '/part_pv', 0, p, 1, m, '{p=1/c.parquet}')
FROM (VALUES (ARRAY['p IS NULL AND id >= 0']), (ARRAY['p = ''1'' AND id >= 0'])) AS x(p),
     unnest(ARRAY['partition', 'row_level']) m
ORDER BY 1, 2;
-- Delta's own rule, in every mode: a file the loser did not read (read
-- files given without C) is no delete/read conflict
SELECT m AS mode, pg_temp.verdict(:'d' || '/part_pv', 0, ARRAY['p = ''1'' AND id % 2 = 1'],
                                  1, m, '{p=1/a.parquet}')
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
-- twin: the loser names D among its read files, but D is not in its read
-- snapshot (v2; D is added by v3, removed with {} by v4): the partition
-- values of D's rows are unknown, the conflict stays.  At v3 it is known.
SELECT rv, m AS mode,
       pg_temp.verdict(:'d' || '/part_pv', rv, ARRAY['p = ''1'' AND id % 2 = 1'], 4, m,
                       '{p=1/d.parquet}')
FROM (VALUES (2), (3)) AS v(rv), unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 2, ARRAY['p = ''1'' AND id % 2 = 1'], 4,
                          '{p=1/d.parquet}');
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 3, ARRAY['p = ''1'' AND id % 2 = 1'], 4,
                          '{p=1/d.parquet}');
-- twin: v2 removes B with p=7, the loser read B in p=2: kept
SELECT m AS mode, pg_temp.verdict(:'d' || '/part_pv', 1, ARRAY['p = ''2'' AND id % 2 = 1'], 2, m)
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m;
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 1, ARRAY['p = ''2'' AND id % 2 = 1'], 2);
-- twin: v5 moves A from p=1 to p=2 (remove with {}, re-add of the same
-- path with p=2, no DV): its rows are new to p=2, so the re-add is no
-- merge-on-read re-add; the value-exact tier reads it, and a loser that
-- read A in p=1 keeps the delete/read conflict
SELECT p AS reads, m AS mode, pg_temp.verdict(:'d' || '/part_pv', 4, p, 5, m)
FROM (VALUES (ARRAY['p = ''2'' AND id < 50']), (ARRAY['id < 50']),
             (ARRAY['p = ''2'' AND id > 100'])) AS x(p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2;
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 4, ARRAY['p = ''2'' AND id < 50'], 5);
SELECT * FROM pg_temp.why(:'d' || '/part_pv', 4, ARRAY['id < 50'], 5);
-- twin: v6 removes A again with {} after v5 moved it to p=2.  A loser that
-- read A in p=1 (at v4) is caught by v5 (the move), whatever the remove of
-- v6 is guessed to hold; one that read at v5 knows A is in p=2, and only a
-- removed row that matches conflicts
SELECT rv, p AS reads, m AS mode, pg_temp.verdict(:'d' || '/part_pv', rv, p, 6, m)
FROM (VALUES (4, ARRAY['p = ''1'' AND id < 50']), (4, ARRAY['p = ''2'' AND id < 50']),
             (5, ARRAY['p = ''2'' AND id < 50']), (5, ARRAY['p = ''2'' AND id > 100']),
             (5, ARRAY['p = ''1'' AND id < 50'])) AS x(rv, p),
     unnest(ARRAY['partition', 'stats', 'row_level']) m
ORDER BY 1, 2, 3;
-- delete/delete stays path-keyed in every mode: the loser also removed C
SELECT m AS mode, c.winning_version, c.conflict, c.path
FROM unnest(ARRAY['partition', 'stats', 'row_level']) m,
     LATERAL deltacc.conflicts(:'d' || '/part_pv', 0, ARRAY['p = ''1'' AND id % 2 = 1'],
       '[{"remove":{"path":"p=1/c.parquet","deletionTimestamp":0,"dataChange":true}}]',
       through_version => 1, mode => m) c
ORDER BY 1, 3;

-- partition ⊇ stats ⊇ row_level over every race of this file
WITH races(t, rv, thru, p) AS (VALUES
  ('dvdel', 0, 1, ARRAY['id >= 50']), ('dvdel', 1, 2, ARRAY['id < 10']),
  ('dvdel', 2, 3, ARRAY['id >= 95']), ('dvdel', 3, 4, ARRAY['id < 50']),
  ('fullrm', 0, 1, ARRAY['id % 2 = 1']), ('update', 0, 1, ARRAY['x > 10']),
  ('update', 0, 1, ARRAY['x = 6']), ('signed', 1, 2, ARRAY['id % 10 = 0']),
  ('part_rm', 0, 1, ARRAY['p = ''1'' AND id >= 50']),
  ('part_rm', 2, 3, ARRAY['p = ''2'' AND id >= 50']),
  ('part_pv', 0, 1, ARRAY['p = ''1'' AND id % 2 = 1']),
  ('part_pv', 4, 5, ARRAY['p = ''2'' AND id < 50']), ('part_pv', 4, 5, ARRAY['id < 50'])),
c AS (
  SELECT r.t, r.p, m, c.winning_version, c.conflict, c.path
  FROM races r, unnest(ARRAY['partition', 'stats', 'row_level']) m,
       LATERAL deltacc.conflicts(:'d' || '/' || r.t, r.rv::bigint, r.p,
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         through_version => r.thru::bigint, mode => m) c)
SELECT r.t, r.p,
       (SELECT count(*) FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'partition') AS partition,
       (SELECT count(*) FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'stats') AS stats,
       (SELECT count(*) FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'row_level') AS row_level,
       NOT EXISTS (SELECT winning_version, conflict, path FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'stats'
                   EXCEPT SELECT winning_version, conflict, path FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'partition')
       AND NOT EXISTS (SELECT winning_version, conflict, path FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'row_level'
                   EXCEPT SELECT winning_version, conflict, path FROM c WHERE c.t = r.t AND c.p = r.p AND m = 'stats')
         AS nested
FROM races r ORDER BY 1, 2;
