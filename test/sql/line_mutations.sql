--
-- line_mutations.sql: remove and commitInfo lines mutated at random (a
-- character deleted, doubled or replaced by one that means something in
-- JSON, two swapped, a member inserted first in the action), each as the
-- one winner of a table of its own, checked by a reader of the whole
-- table.  The line
-- scanners (remove_line.scan, commit_info.scan) either decline a line or
-- decode what the parse tree decodes: assert-enabled builds compare every
-- line they take with the parse tree's decoding (a difference is an
-- internal error, XX000, which must never show); every build must report
-- the conflicts PostgreSQL's parse of the line implies (a remove of one of
-- the table's files: ConcurrentDeleteReadException on it; a commitInfo
-- whose isBlindAppend is not true: a conflict on the winner's add for the
-- WriteSerializable reader), and a line that is not JSON is an error of
-- the log.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.fp', :'abs_srcdir' || '/data/fastpath/', false) IS NOT NULL AS ok;
SELECT set_config('deltacc_test.tmp', '/tmp/deltacc_mut_' || pg_backend_pid(), false) IS NOT NULL AS ok;
CREATE FUNCTION pg_temp.sh(cmd text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || cmd);
END $$;
-- write the lines of t (none empty) as the file at path, byte for byte
CREATE FUNCTION pg_temp.put(path text, t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT l FROM unnest(string_to_array(%L, E''\n'')) AS l WHERE l <> '''') '
                 'TO %L WITH (FORMAT csv, DELIMITER E''\x02'', QUOTE E''\x01'')', t, path);
END $$;
CREATE FUNCTION pg_temp.log(v int) RETURNS text LANGUAGE sql AS $$
  SELECT pg_read_file(current_setting('deltacc_test.fp') || 'removes/_delta_log/' ||
                      lpad(v::text, 20, '0') || '.json') $$;
-- a mutant of line: one or two random edits (setseed first)
CREATE FUNCTION pg_temp.mutate(line text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  s text := line;
  pos int;
  sig text[] := ARRAY['"', '\', '{', '}', ',', ':', '0', '-', 'n', 'u', 'e', ' ', '[', ']', 't', '.'];
  k int;
BEGIN
  FOR k IN 1 .. 1 + floor(random() * 2)::int LOOP
    pos := 1 + floor(random() * length(s))::int;
    CASE floor(random() * 5)::int
      WHEN 0 THEN s := overlay(s PLACING '' FROM pos FOR 1);
      WHEN 1 THEN s := overlay(s PLACING repeat(substr(s, pos, 1), 2) FROM pos FOR 1);
      WHEN 2 THEN s := overlay(s PLACING sig[1 + floor(random() * 16)::int] FROM pos FOR 1);
      WHEN 3 THEN s := overlay(s PLACING substr(s, pos + 1, 1) || substr(s, pos, 1) FROM pos FOR 2);
      ELSE s := regexp_replace(s, ':\{', (ARRAY[':{"path":"part-00002-spark.c000.snappy.parquet",',
                                             ':{"size":-1,', ':{"isBlindAppend":true,',
                                             ':{"tags":{"a":1},', ':{"dataChange":"x",'])[1 + floor(random() * 5)::int]);
    END CASE;
  END LOOP;
  RETURN s;
END $$;
-- the lines mutated: a remove as Spark writes it, one as delta-rs writes
-- it, a Databricks commitInfo
CREATE TEMP TABLE model (kind text, line text);
INSERT INTO model VALUES
 ('remove', '{"remove":{"path":"part-00001-spark.c000.snappy.parquet","deletionTimestamp":1714521600002,"dataChange":true,"extendedFileMetadata":true,"partitionValues":{},"size":1001,"tags":{"INSERTION_TIME":"1"},"stats":"{\"numRecords\":3,\"minValues\":{\"id\":1}}"}}'),
 ('remove', '{"remove":{"path":"part-00008-rs-c000.snappy.parquet","dataChange":true,"deletionTimestamp":1714521600002,"extendedFileMetadata":false,"partitionValues":{},"size":1008,"tags":null,"deletionVector":null,"baseRowId":null,"defaultRowCommitVersion":null}}'),
 ('commitInfo', '{"commitInfo":{"timestamp":1714521600010,"operation":"MERGE","operationParameters":{"predicate":"[\"(id#1 = id#2)\"]"},"readVersion":1,"isolationLevel":"WriteSerializable","isBlindAppend":false,"tags":{"delta.identity.schemaUpdate":"true"},"engineInfo":"Databricks-Runtime/14.3.x-scala2.12","txnId":"t-1"}}');
SELECT setseed(0.42);
CREATE TEMP TABLE mutant AS
  SELECT row_number() OVER () AS id, kind, pg_temp.mutate(line) AS line
    FROM model, generate_series(1, 150);
-- (a file of one line: no mutant holds a newline)
SELECT count(*) AS mutants, count(*) FILTER (WHERE line LIKE E'%\n%') AS with_newline FROM mutant;

-- each mutant as version 2 of a table whose versions 0 and 1 are those of
-- fastpath/removes: a commitInfo mutant with an add of a new file
SELECT pg_temp.sh('rm -rf ' || current_setting('deltacc_test.tmp') || ' && mkdir -p ' ||
                  (SELECT string_agg(current_setting('deltacc_test.tmp') || '/m' || id || '/_delta_log', ' ')
                     FROM mutant));
SELECT count(*) FROM (
  SELECT pg_temp.put(d || '00000000000000000000.json', pg_temp.log(0)),
         pg_temp.put(d || '00000000000000000001.json', pg_temp.log(1)),
         pg_temp.put(d || '00000000000000000002.json',
                     CASE WHEN kind = 'remove' THEN line
                          ELSE line || E'\n' || '{"add":{"path":"new.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}' END)
    FROM (SELECT *, current_setting('deltacc_test.tmp') || '/m' || id || '/_delta_log/' AS d FROM mutant) x) y;

-- PostgreSQL's parse of a mutant (NULL: jsonb does not take it)
CREATE FUNCTION pg_temp.parse(t text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN t::jsonb;
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END $$;
-- deltacc's answer: the conflicts of a WriteSerializable reader of the
-- whole table at version 1, or the error's SQLSTATE
CREATE FUNCTION pg_temp.answer(id bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r text;
BEGIN
  SELECT coalesce(string_agg(conflict || ' ' || coalesce(path, ''), ', ' ORDER BY conflict, path), 'none')
    INTO r
    FROM deltacc.conflicts(current_setting('deltacc_test.tmp') || '/m' || id, 1, '{}',
                           '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
                           isolation_level => 'WriteSerializable', read_whole_table => true);
  RETURN r;
EXCEPTION WHEN OTHERS THEN
  RETURN 'SQLSTATE ' || SQLSTATE;
END $$;
-- (the counters from zero)
SELECT count(*) FROM deltacc.fastpath_stats(true) WHERE false;
CREATE TEMP TABLE outcome AS
  SELECT id, kind, line, pg_temp.parse(line) AS j, pg_temp.answer(id) AS answer FROM mutant;

-- what PostgreSQL's parse implies: a remove object with a path of one of
-- the table's files removes it; a commitInfo whose isBlindAppend is not
-- true makes the winner's add of new.parquet a conflict
CREATE TEMP TABLE implied AS
  SELECT id, kind, line, answer, j,
         CASE
           WHEN j IS NULL THEN 'not jsonb'
           WHEN kind = 'remove' AND jsonb_typeof(j -> 'remove') = 'object' AND (SELECT count(*) FROM jsonb_object_keys(j)) = 1
                AND jsonb_typeof(j -> 'remove' -> 'path') = 'string'
             THEN 'removes ' || (j -> 'remove' ->> 'path')
           WHEN kind = 'commitInfo' AND jsonb_typeof(j -> 'commitInfo') = 'object' AND (SELECT count(*) FROM jsonb_object_keys(j)) = 1
             THEN CASE WHEN j -> 'commitInfo' -> 'isBlindAppend' = 'true' THEN 'blind' ELSE 'not blind' END
           ELSE 'other'
         END AS parse
    FROM outcome;

-- no internal error (an assert-enabled build's difference from the parse
-- tree); a line PostgreSQL's jsonb does not take is the log's error
-- (XX001), but one: its number 171452e600010 is JSON, beyond the range
-- of numeric; a remove without a path, with a size below zero or a
-- dataChange that is no boolean is the log's error too
SELECT CASE WHEN parse LIKE 'removes %' THEN 'removes a path' ELSE parse END AS parse,
       answer LIKE 'SQLSTATE XX000%' AS internal_error,
       CASE WHEN answer LIKE 'SQLSTATE%' THEN answer ELSE 'answered' END AS outcome, count(*)
  FROM implied GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT line ~ '171452e600010' AS big_number, answer FROM implied
 WHERE parse = 'not jsonb' AND answer NOT LIKE 'SQLSTATE%';
-- a remove of a file of the table (version 1's adds) conflicts on exactly
-- that file, whenever deltacc answered
SELECT count(*) AS removes_answered,
       count(*) FILTER (WHERE answer = 'ConcurrentDeleteReadException ' || substr(parse, 9)) AS conflict_on_the_file
  FROM implied
 WHERE parse LIKE 'removes %' AND answer NOT LIKE 'SQLSTATE%'
   AND substr(parse, 9) IN (SELECT line::jsonb -> 'add' ->> 'path'
                              FROM regexp_split_to_table(pg_temp.log(1), E'\n') AS line
                             WHERE line LIKE '{"add"%');
-- a commitInfo that is not a blind append: its add conflicts; a blind one:
-- none, whenever deltacc answered
SELECT parse, answer, count(*) FROM implied
 WHERE kind = 'commitInfo' AND parse IN ('blind', 'not blind') AND answer NOT LIKE 'SQLSTATE%'
 GROUP BY 1, 2 ORDER BY 1, 2;
-- the scanners took some of the lines and sent others to the parse tree
SELECT fast_path, hits > 0 AS took, misses > 0 AS declined
  FROM deltacc.fastpath_stats(true)
 WHERE fast_path IN ('remove_line.scan', 'commit_info.scan') ORDER BY 1;

SELECT pg_temp.sh('rm -rf ' || current_setting('deltacc_test.tmp'));
