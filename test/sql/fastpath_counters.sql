--
-- fastpath_counters.sql: the fast paths' hit counters (deltacc.fastpath_stats)
-- on add lines laid out as five writers lay them out, mixed line by line
-- (test/data/fastpath/generate.py: key orders, tags in two orders,
-- statistics with their columns in a new order on every line, missing
-- minima and maxima, escapes and UTF-8 in strings, deletion vectors, a
-- column added by schema evolution): every answer is PostgreSQL's own
-- parse of the lines, no line goes to the parse tree, and no statistics
-- text read for a check does.  (The statistics jsonb plans are made from
-- a layout's first text, which the tree writer writes; in this small log
-- most layouts come once or twice.)  Then lines that are malformed, or
-- valid but outside what the fast paths prove: the parse tree decides
-- them (a miss is counted), with the parser's answer or error.
-- Assert-enabled builds also compare every fast answer with the parse
-- tree's.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.fp', :'abs_srcdir' || '/data/fastpath/', false) IS NOT NULL AS ok;

-- the counters since the last call, then zero: what each fast path took,
-- and how many it sent to the parse tree
CREATE FUNCTION pg_temp.counters() RETURNS TABLE (fast_path text, took boolean, to_parse_tree bigint)
LANGUAGE sql AS $$
  SELECT fast_path, hits > 0, CASE WHEN misses_go_to = 'parse tree' THEN misses END
    FROM deltacc.fastpath_stats(true) ORDER BY 1 $$;
SELECT count(*) FROM pg_temp.counters();

-- whether PostgreSQL parses t as jsonb
CREATE FUNCTION pg_temp.parses(t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM t::jsonb;
  RETURN true;
EXCEPTION WHEN OTHERS THEN
  RETURN false;
END $$;

-- the live files as PostgreSQL parses the log: the last add or remove of
-- each path wins
CREATE FUNCTION pg_temp.ref(t text, upto int) RETURNS TABLE (path text, size bigint, mtime bigint,
    pv jsonb, stats jsonb, dv jsonb, base_row_id bigint)
LANGUAGE sql AS $$
  WITH l AS (
    SELECT v, n, line::jsonb AS j
      FROM generate_series(1, upto) AS v,
           LATERAL regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') || t ||
                     '/_delta_log/' || lpad(v::text, 20, '0') || '.json'), E'\n')
                   WITH ORDINALITY AS x(line, n)
     WHERE line <> ''),
  acts AS (SELECT v, n, coalesce(j -> 'add', j -> 'remove') AS a, j ? 'add' AS is_add
             FROM l WHERE j ? 'add' OR j ? 'remove'),
  last AS (SELECT DISTINCT ON (a ->> 'path') * FROM acts ORDER BY a ->> 'path', v DESC, n DESC)
  SELECT a ->> 'path', (a ->> 'size')::bigint, (a ->> 'modificationTime')::bigint,
         a -> 'partitionValues', (a ->> 'stats')::jsonb, a -> 'deletionVector',
         (a ->> 'baseRowId')::bigint
    FROM last WHERE is_add $$;

--
-- The variety.
--
-- log replay only (count(*): the scan makes no column)
SELECT count(*) AS files FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'variety');
SELECT * FROM pg_temp.counters();
-- every column of every file, against the parse
SELECT count(*) AS files,
       count(*) FILTER (WHERE s.size = r.size
                          AND extract(epoch FROM s.modification_time) * 1000 = r.mtime
                          AND s.partition_values = r.pv
                          AND s.stats = r.stats
                          AND s.num_records = (r.stats ->> 'numRecords')::bigint
                          AND s.deletion_vector IS NOT DISTINCT FROM nullif(r.dv, 'null')
                          AND s.base_row_id IS NOT DISTINCT FROM r.base_row_id) AS same_as_parse,
       count(*) FILTER (WHERE s.deletion_vector IS NOT NULL) AS with_dv,
       count(*) FILTER (WHERE s.stats -> 'minValues' ? 'note') AS with_note
  FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'variety') s
  FULL JOIN pg_temp.ref('variety', 2) r USING (path);
SELECT * FROM pg_temp.counters();
-- load_log (every action, statistics as jsonb)
SELECT deltacc.load_log(current_setting('deltacc_test.fp') || 'variety') AS actions;
SELECT count(*) FILTER (WHERE f.stats = (a.a ->> 'stats')::jsonb) AS same_stats, count(*) AS adds
  FROM pg_temp.delta_files f
  JOIN (SELECT v, line::jsonb -> 'add' AS a
          FROM generate_series(1, 2) AS v,
               LATERAL regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') ||
                         'variety/_delta_log/' || lpad(v::text, 20, '0') || '.json'), E'\n') AS line
         WHERE line LIKE '{"add"%') a ON a.v = f.version AND a.a ->> 'path' = f.path
 WHERE f.action = 'add';
SELECT * FROM pg_temp.counters();
-- load_log's rows of every add, every column against PostgreSQL's parse
-- of the line (tags: absent or null give none)
CREATE FUNCTION pg_temp.load_same(t text, upto int) RETURNS TABLE (adds bigint, same_as_parse bigint, with_tags bigint)
LANGUAGE sql AS $$
  WITH a AS (
    SELECT v, line::jsonb -> 'add' AS a
      FROM generate_series(1, upto) AS v,
           LATERAL regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') || t ||
                     '/_delta_log/' || lpad(v::text, 20, '0') || '.json'), E'\n') AS line
     WHERE line LIKE '{"add"%')
  SELECT count(*),
         count(*) FILTER (WHERE f.size = (a.a ->> 'size')::bigint
                            AND extract(epoch FROM f.modification_time) * 1000 = (a.a ->> 'modificationTime')::bigint
                            AND f.data_change = (a.a ->> 'dataChange')::boolean
                            AND f.partition_values = a.a -> 'partitionValues'
                            AND f.stats = (a.a ->> 'stats')::jsonb
                            AND f.num_records = (f.stats ->> 'numRecords')::bigint
                            AND f.deletion_vector IS NOT DISTINCT FROM nullif(a.a -> 'deletionVector', 'null')
                            AND f.base_row_id IS NOT DISTINCT FROM (a.a ->> 'baseRowId')::bigint
                            AND f.default_row_commit_version IS NOT DISTINCT FROM
                                (a.a ->> 'defaultRowCommitVersion')::bigint
                            AND f.tags IS NOT DISTINCT FROM nullif(a.a -> 'tags', 'null')),
         count(f.tags)
    FROM pg_temp.delta_files f
    JOIN a ON a.v = f.version AND a.a ->> 'path' = f.path
   WHERE f.action = 'add' AND f.table_path = current_setting('deltacc_test.fp') || t $$;
SELECT * FROM pg_temp.load_same('variety', 2);
-- add lines whose tags come after or before the statistics, with values
-- of changing lengths around them, as a word, a number or a string, nested
-- or empty, or not at all (load_tags/_delta_log/...1.json): each row's
-- tags are the line's own
SELECT deltacc.load_log(current_setting('deltacc_test.fp') || 'load_tags') AS actions;
SELECT * FROM pg_temp.load_same('load_tags', 1);
SELECT * FROM pg_temp.counters();
-- a conflict check on the default path: version 2 won over a reader of
-- version 1 whose read was an id range; the winner's adds a range keeps
-- (its statistics, read by the prescan, do not rule it out) against the
-- parse
SELECT array_agg(path ORDER BY path) IS NOT DISTINCT FROM
       (SELECT array_agg(a ->> 'path' ORDER BY a ->> 'path')
          FROM (SELECT line::jsonb -> 'add' AS a
                  FROM regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') ||
                         'variety/_delta_log/00000000000000000002.json'), E'\n') AS line
                 WHERE line LIKE '{"add"%') x,
               LATERAL (SELECT (a ->> 'stats')::jsonb AS s) y
         WHERE NOT (s -> 'minValues' ? 'id' AND s -> 'maxValues' ? 'id'
                    AND s -> 'nullCount' ? 'id' AND s ? 'numRecords'
                    AND ((s -> 'maxValues' ->> 'id')::bigint < 1500
                         OR (s -> 'minValues' ->> 'id')::bigint > 70500))) AS appends_as_parse,
       count(*) AS appends
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'variety', 1,
                         '{id BETWEEN 1500 AND 70500}',
                         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
                         mode => 'stats')
 WHERE conflict = 'ConcurrentAppendException';
SELECT * FROM pg_temp.counters();

-- remove lines as writers lay them out (removes/_delta_log/...2.json): a
-- check of a reader of version 1 that read the whole table conflicts on
-- every file the lines remove as PostgreSQL parses them (a "path" given
-- twice: the last; an escaped key: the key it spells); the remove scanner
-- takes the lines it proves, the other three go to the parse tree.
-- (Assert-enabled builds compare each scanned line's action with the
-- parse tree's, field by field.)
SELECT array_agg(path ORDER BY path COLLATE "C") =
       (SELECT array_agg(line::jsonb -> 'remove' ->> 'path' ORDER BY line::jsonb -> 'remove' ->> 'path' COLLATE "C")
          FROM regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') ||
                 'removes/_delta_log/00000000000000000002.json'), E'\n') AS line
         WHERE line LIKE '%"remove"%') AS same_as_parse,
       count(*) AS deleted_read
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'removes', 1, '{}',
                         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
                         read_whole_table => true)
 WHERE conflict = 'ConcurrentDeleteReadException';
SELECT fast_path, hits, misses FROM deltacc.fastpath_stats(true)
 WHERE fast_path = 'remove_line.scan';
-- commitInfo lines as writers lay them out (commit_infos/, versions 1 to
-- 14, each with one added file): a Serializable reader of version 0 that
-- read the whole table conflicts with every version, each conflict naming
-- the winner's operation as PostgreSQL parses the line (a string, else
-- TRANSACTION, as Delta names a commit without one); a WriteSerializable one conflicts with exactly the versions whose
-- isBlindAppend is not true as PostgreSQL parses it (a blind append's
-- files are not its concern; isBlindAppend given twice: the last).  The
-- commitInfo scanner takes the lines it proves, the other three go to the
-- parse tree.  (Assert-enabled builds compare each scanned line's
-- decoding with the parse tree's, field by field and as JSON.)
CREATE FUNCTION pg_temp.ci(v bigint) RETURNS jsonb LANGUAGE sql AS $$
  SELECT line::jsonb -> 'commitInfo'
    FROM regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') ||
           'commit_infos/_delta_log/' || lpad(v::text, 20, '0') || '.json'), E'\n') AS line
   WHERE line LIKE '{%"commitInfo"%' $$;
SELECT count(*) AS conflicts,
       count(*) FILTER (WHERE operation IS NOT DISTINCT FROM
                          CASE WHEN jsonb_typeof(pg_temp.ci(winning_version) -> 'operation') = 'string'
                               THEN pg_temp.ci(winning_version) ->> 'operation'
                               ELSE 'TRANSACTION' END) AS operation_as_parse
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'commit_infos', 0, '{}',
                         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
                         isolation_level => 'Serializable', read_whole_table => true);
SELECT array_agg(winning_version ORDER BY winning_version) =
       (SELECT array_agg(v ORDER BY v) FROM generate_series(1::bigint, 14) AS v
         WHERE (pg_temp.ci(v) -> 'isBlindAppend') IS DISTINCT FROM 'true'::jsonb) AS conflicts_as_parse,
       count(*) AS conflicts
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'commit_infos', 0, '{}',
                         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
                         isolation_level => 'WriteSerializable', read_whole_table => true);
SELECT fast_path, hits, misses FROM deltacc.fastpath_stats(true)
 WHERE fast_path = 'commit_info.scan';
--
-- Malformed or ambiguous lines: the parse tree decides (a miss each), and
-- says what the parser says.
--
\set VERBOSITY terse
-- a path with \u0000, invalid UTF-8 in a statistics string: the parser's
-- error, from replay and from a conflict check
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'bad_u0000_path');
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'bad_utf8_stats');
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'bad_utf8_stats', 2,
                                       '{id < 5}', '[]', mode => 'stats');
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
\set VERBOSITY default
-- statistics texts that do not parse (an unpaired \ud800, an escape \x):
-- no statistics (as PostgreSQL's parse refuses them), and a conflict check
-- keeps the file for it
SELECT path, stats, num_records,
       (SELECT count(*) FROM regexp_split_to_table(pg_read_file(current_setting('deltacc_test.fp') ||
                'bad_lone_surrogate/_delta_log/00000000000000000003.json'), E'\n') AS l
         WHERE l LIKE '%00090-bad%' AND pg_temp.parses(l::jsonb -> 'add' ->> 'stats')) AS stats_parse
  FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'bad_lone_surrogate')
 WHERE path LIKE '%00090%';
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
SELECT path, stats FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'bad_inner_escape')
 WHERE path LIKE '%00090%';
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
SELECT winning_version, "check", path, decision, reason
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.fp') || 'bad_inner_escape', 2,
         '{id BETWEEN 1 AND 2}',
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         isolation_level => 'Serializable', read_files => '{}', mode => 'stats')
 WHERE path LIKE '%00090%';
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'bad_inner_escape', 2,
         '{id BETWEEN 1 AND 2}',
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         isolation_level => 'Serializable', read_files => '{}', mode => 'stats')
 ORDER BY 1, 3;
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
-- a remove whose size is negative: the decoder's error, the line counted
-- as the remove scanner's miss
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'bad_remove_negative_size',
                                       1, '{}', '[]', read_whole_table => true);
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
-- an add whose path key comes twice: the parse's answer (the last one)
SELECT path FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'bad_duplicate_path')
 WHERE path LIKE '%00090%';
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
-- a statistics string closed by \u0022 at the line's level: valid, and
-- what PostgreSQL reads twice
SELECT s.stats = r.stats AS same_as_parse, s.stats -> 'minValues' ->> 'region' AS region
  FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'bad_quote_as_u0022') s
  JOIN pg_temp.ref('bad_quote_as_u0022', 3) r USING (path)
 WHERE path LIKE '%00090%';
SELECT * FROM pg_temp.counters() WHERE to_parse_tree > 0;
--
-- Lines of one layout whose values keep their lengths: from the second
-- text it takes on, a statistics prescan shape walks them 32 bytes at a
-- time against its template (src/format/jshape.h), which must refuse what
-- the token walk refuses.  The fifth line has a number of the same length
-- with a leading zero (not JSON): in its statistics (minValues id 09000
-- for 90000), which then count as none, so the check keeps the file the
-- other four's statistics skip; in its size (0909 for 9090): the parser's
-- error.
--
SELECT winning_version, conflict, path
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'tpl_zero_stats', 2,
         '{id BETWEEN 1 AND 2}',
         '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
         isolation_level => 'Serializable', read_files => '{}', mode => 'stats')
 WHERE winning_version = 3
 ORDER BY 1, 3;
SELECT path, stats IS NULL AS no_stats, num_records
  FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'tpl_zero_stats')
 WHERE path LIKE 'part-0009%'
 ORDER BY path;
\set VERBOSITY terse
SELECT count(*)
  FROM deltacc.conflicts(current_setting('deltacc_test.fp') || 'tpl_zero_size', 2,
         '{id BETWEEN 1 AND 2}', '[]', read_files => '{}', mode => 'stats');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.fp') || 'tpl_zero_size');
\set VERBOSITY default
