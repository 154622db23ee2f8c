--
-- unescape_blocks.sql: statistics strings dense with escapes, decoded by
-- the add-line decoder without a parse tree (src/log/fastline.c
-- fl_unescape_string, which copies the runs between escapes sixteen bytes
-- at a time) when snapshot_files reads each line again.  The oracle is
-- PostgreSQL's own JSON parser: each file's stats from snapshot_files must
-- equal the stats string of its line as jsonb parses it.  Escapes fall on
-- every offset of a sixteen-byte block, next to each other, at the end of
-- a block (escaping the next block's first byte), and mixed with the
-- line's other escapes: \\ (every value's own \", \\ and \n) and \n (a
-- newline in the statistics text, every third file) decoded one by one,
-- \u (every fifth file) left to the general path.
--
CREATE FUNCTION pg_temp.sh(cmd text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || cmd);
END $$;
SELECT set_config('deltacc_test.tmp', '/tmp/deltacc_unesc_' || pg_backend_pid(), false) IS NOT NULL AS ok;
SELECT pg_temp.sh(format('rm -rf %1$s && mkdir -p %1$s/t/_delta_log', current_setting('deltacc_test.tmp')));

-- the values: a run of n plain bytes, then a piece with escapes, shifted
-- through the block (n = 0 .. 40)
CREATE TEMP TABLE piece(k int, raw text);
INSERT INTO piece VALUES
  (1, '"'), (2, '/'), (3, '""'), (4, '"/"/"/"/'), (5, 'a"b/c"d/e"f/g"h'),
  (6, '\'), (7, E'\n'), (8, 'A\u0041'), (9, '"\"'), (10, '/////'),
  (11, repeat('"x', 20)), (12, repeat('/', 17) || '"');
CREATE TEMP TABLE val AS
SELECT row_number() OVER (ORDER BY k, n) AS i, k, n,
       repeat('v', n) || raw || repeat('w', (n * 7) % 23) AS raw
  FROM piece, generate_series(0, 40) AS n;
-- and lines longer than the line scanner's 256 kB read buffer (it moves
-- such a line to a larger buffer of its own) between short ones
INSERT INTO val VALUES (1001, 13, 0, repeat('"/x', 100000)),
                       (1002, 14, 0, 'short'),
                       (1003, 15, 0, repeat('ab', 200000) || '"');
-- the stats string as a writer escapes it: quotes, backslashes and
-- newlines always, slashes in every other file, and (uesc) the R of
-- numRecords as \u0052
CREATE FUNCTION pg_temp.esc(s text, slash bool, uesc bool) RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN uesc THEN replace(e2, 'numRecords', 'num\u0052ecords') ELSE e2 END
    FROM (SELECT CASE WHEN slash THEN replace(e, '/', '\/') ELSE e END AS e2
            FROM (SELECT replace(replace(replace(s, '\', '\\'), '"', '\"'),
                                 E'\n', '\n') AS e) x) y $$;
CREATE TEMP TABLE line AS
SELECT i, format('{"add":{"path":"f%s.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true,"stats":"%s"}}',
                 i, pg_temp.esc(format('{"numRecords":1,%s"minValues":{"s":%s},"maxValues":{"s":%s},"nullCount":{"s":0}}',
                                       CASE WHEN i % 3 = 0 THEN E'\n' ELSE '' END,
                                       to_json(raw), to_json(raw || 'z')),
                                i % 2 = 0, i % 5 = 0)) AS l
  FROM val;
-- every line is valid JSON whose stats string is a JSON object; the line
-- level escapes each kind of line holds
SELECT count(*) AS lines, count(*) FILTER (WHERE jsonb_typeof((l::jsonb -> 'add' ->> 'stats')::jsonb) = 'object') AS objects,
       count(*) FILTER (WHERE length(l) > 256 * 1024) AS over_256kb,
       count(*) FILTER (WHERE strpos(l, '\\') > 0) AS with_backslash,
       count(*) FILTER (WHERE strpos(l, '\n') > 0 AND strpos(replace(l, '\\', ''), '\n') > 0) AS with_newline,
       count(*) FILTER (WHERE strpos(l, '\u0052') > 0) AS with_u
  FROM line;
CREATE TEMP TABLE commit_lines AS
SELECT -1 AS o, '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}' AS l
UNION ALL
SELECT 0, '{"metaData":{"id":"unesc","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"s\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{},"createdTime":0}}'
UNION ALL
SELECT i, l FROM line;
-- written raw: CSV with quote and delimiter bytes that never occur
DO $$
BEGIN
  EXECUTE format('COPY (SELECT l FROM commit_lines ORDER BY o) TO %L WITH (FORMAT csv, QUOTE %L, DELIMITER %L)',
                 current_setting('deltacc_test.tmp') || '/t/_delta_log/00000000000000000000.json', E'\x01', E'\x02');
END $$;
SELECT pg_temp.sh(format('chmod -R a+rX %s', current_setting('deltacc_test.tmp')));

-- deltacc's statistics of every file against PostgreSQL's parse of its line
SELECT count(*) AS files,
       count(*) FILTER (WHERE s.stats = (l.l::jsonb -> 'add' ->> 'stats')::jsonb) AS same_stats,
       count(*) FILTER (WHERE s.stats -> 'minValues' ->> 's' = v.raw) AS same_min
  FROM deltacc.snapshot_files(current_setting('deltacc_test.tmp') || '/t') s
  JOIN line l ON s.path = format('f%s.parquet', l.i)
  JOIN val v ON v.i = l.i;
-- the files whose statistics differ (none)
SELECT v.k, v.n, s.stats, (l.l::jsonb -> 'add' ->> 'stats')::jsonb AS expected
  FROM deltacc.snapshot_files(current_setting('deltacc_test.tmp') || '/t') s
  JOIN line l ON s.path = format('f%s.parquet', l.i)
  JOIN val v ON v.i = l.i
 WHERE s.stats IS DISTINCT FROM (l.l::jsonb -> 'add' ->> 'stats')::jsonb
 ORDER BY v.k, v.n;

--
-- Strings the add-line scanners must refuse, at every offset of a 32-byte
-- block and beyond (the keys pass skips a statistics string 16 or, with
-- AVX2, 32 bytes at a time): in the third line of a table of its own,
-- after two good lines, a file the next commit removes (so only the keys
-- pass reads its line).  Each table must fail to read (the general
-- parser's error); a raw DEL is valid JSON and must read.
--
CREATE TEMP TABLE bad_piece(k int, raw text);
INSERT INTO bad_piece VALUES (1, '\x'), (2, '\u00'), (3, E'\x01'), (4, '\uD800'),
  (5, '\u0000'), (6, E'\t'), (7, E'\x7f');
CREATE TEMP TABLE bad_line AS
SELECT k, n, i,
       format('{"add":{"path":"f%s","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true,"stats":"{\"numRecords\":1,\"minValues\":{\"s\":\"%s%sz\"}}"}}',
              i, repeat('a', n), CASE WHEN i = 3 THEN raw ELSE '' END) AS l
  FROM bad_piece, generate_series(0, 69) AS n, generate_series(1, 3) AS i;
DO $$
DECLARE
  t record;
  dir text;
BEGIN
  FOR t IN SELECT DISTINCT k, n FROM bad_line LOOP
    dir := format('%s/b%s_%s', current_setting('deltacc_test.tmp'), t.k, t.n);
    PERFORM pg_temp.sh(format('mkdir -p %s/_delta_log', dir));
    EXECUTE format('COPY (SELECT l FROM (SELECT o, l FROM commit_lines WHERE o <= 0 '
                   'UNION ALL SELECT i, l FROM bad_line WHERE k = %s AND n = %s) x ORDER BY o) '
                   'TO %L WITH (FORMAT csv, QUOTE %L, DELIMITER %L)',
                   t.k, t.n, dir || '/_delta_log/00000000000000000000.json', E'\x01', E'\x02');
    EXECUTE format('COPY (SELECT %L) TO %L WITH (FORMAT csv, QUOTE %L, DELIMITER %L)',
                   '{"remove":{"path":"f3","deletionTimestamp":1,"dataChange":true}}',
                   dir || '/_delta_log/00000000000000000001.json', E'\x01', E'\x02');
  END LOOP;
END $$;
SELECT pg_temp.sh(format('chmod -R a+rX %s', current_setting('deltacc_test.tmp')));
CREATE FUNCTION pg_temp.reads(dir text) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
  PERFORM count(*) FROM deltacc.snapshot_files(dir);
  RETURN true;
EXCEPTION WHEN data_corrupted THEN
  RETURN false;
END $$;
SELECT k, raw = E'\x7f' AS valid_json, count(*) AS tables,
       count(*) FILTER (WHERE pg_temp.reads(format('%s/b%s_%s', current_setting('deltacc_test.tmp'), k, n))) AS read
  FROM (SELECT DISTINCT k, n FROM bad_line) t JOIN bad_piece USING (k)
 GROUP BY k, raw ORDER BY k;

SELECT pg_temp.sh(format('rm -rf %s', current_setting('deltacc_test.tmp')));
