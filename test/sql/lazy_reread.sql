--
-- Re-reads of a lazy snapshot (fixtures made by
-- test/data/lazyio/make_lazyio.mjs): the add lines of snapshot_files are
-- read again at output, through read-ahead windows that serve several
-- interleaved sequential streams (a small commit file is read whole) and a
-- small cache of open commit files;
-- keys-only Parquet checkpoints are read again with a cursor (rows in path
-- order) or whole (any other order).  The files they keep open are virtual
-- file descriptors closed by their memory context: an ERROR while one is
-- open must leave no stale descriptor behind (no WARNING).
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set d :abs_srcdir '/data/lazyio/'
SET lazyio.d = :'d';

-- ===================================================================
-- the rows: paths interleaved across and within commit files, and a
-- commit in no path order
-- ===================================================================
SELECT count(*), sum(size), count(DISTINCT path),
       md5(string_agg(s::text, '|' ORDER BY path)) AS digest
  FROM deltacc.snapshot_files(:'d' || 'json_interleaved') s;
SELECT path, size, num_records, stats->'minValues'->'id' AS min_id
  FROM deltacc.snapshot_files(:'d' || 'json_interleaved')
 WHERE path IN ('part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet',
                'part-00009.parquet', 's-00010-a.parquet', 's-00010-c.parquet',
                's-00039-c.parquet')
 ORDER BY path;
-- removed: none of these is live
SELECT count(*) FROM deltacc.snapshot_files(:'d' || 'json_interleaved')
 WHERE path IN ('part-00007.parquet', 'part-00008.parquet', 'part-00100.parquet',
                'part-00101.parquet', 's-00010-b.parquet');
-- an older version: commits 1 and 2 only
SELECT count(*), min(path), max(path)
  FROM deltacc.snapshot_files(:'d' || 'json_interleaved', 2);

-- the checkpoint in path order (cursor) and reversed (read again whole):
-- the same rows
SELECT count(*), md5(string_agg(s::text, '|' ORDER BY path)) AS digest
  FROM deltacc.snapshot_files(:'d' || 'ckpt_sorted') s;
SELECT count(*), md5(string_agg(s::text, '|' ORDER BY path)) AS digest
  FROM deltacc.snapshot_files(:'d' || 'ckpt_reversed') s;

-- ===================================================================
-- an ERROR while a commit file or checkpoint part is open
-- ===================================================================
-- The function scan's result tuplestore (WITH ORDINALITY keeps the
-- function scan) spills to a temporary file past 64 kB, which
-- temp_file_limit = 0 refuses: the ERROR comes in the middle of the rows,
-- with the snapshot's files open.  Inside a PL/pgSQL function the
-- snapshot's memory outlives the transaction's file cleanup: a descriptor
-- from OpenTransientFile closed by the context's callback then drew
-- "WARNING:  fd passed to CloseTransientFile was not obtained from
-- OpenTransientFile".
CREATE FUNCTION lazy_count(p text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    SELECT count(*) INTO n FROM deltacc.snapshot_files(p) WITH ORDINALITY;
    RETURN n;
END $$;
-- The scan that makes only the columns read (snapshot_files alone in FROM)
-- stores no rows; an ERROR of the query's own (a division by zero at the
-- middle file) comes in the middle of its rows instead, the snapshot's
-- files open there too.
CREATE FUNCTION lazy_div(p text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    k bigint;
    n bigint;
BEGIN
    SELECT size INTO k FROM deltacc.snapshot_files(p)
     ORDER BY path OFFSET (SELECT count(*) / 2 FROM deltacc.snapshot_files(p)) LIMIT 1;
    SELECT count(*) INTO n FROM deltacc.snapshot_files(p) s
     WHERE s.size / (s.size - k) >= 0;
    RETURN n;
END $$;
\set VERBOSITY terse
SET work_mem = '64kB';
SET temp_file_limit = 0;
SELECT lazy_count(:'d' || 'json_interleaved');  -- ERROR
SELECT lazy_count(:'d' || 'ckpt_sorted');  -- ERROR
SELECT lazy_count(:'d' || 'ckpt_reversed');  -- ERROR
SELECT lazy_div(:'d' || 'json_interleaved');  -- ERROR
SELECT lazy_div(:'d' || 'ckpt_sorted');  -- ERROR
SELECT lazy_div(:'d' || 'ckpt_reversed');  -- ERROR
-- caught in a subtransaction; the transaction goes on
BEGIN;
DO $$
BEGIN
    PERFORM lazy_count(current_setting('lazyio.d') || 'json_interleaved');
EXCEPTION WHEN configuration_limit_exceeded THEN
    RAISE NOTICE 'caught: %', SQLERRM;
END $$;
DO $$
BEGIN
    PERFORM count(*) FROM deltacc.snapshot_files(current_setting('lazyio.d') || 'ckpt_sorted') WITH ORDINALITY;
EXCEPTION WHEN configuration_limit_exceeded THEN
    RAISE NOTICE 'caught: %', SQLERRM;
END $$;
DO $$
BEGIN
    PERFORM lazy_div(current_setting('lazyio.d') || 'ckpt_sorted');
EXCEPTION WHEN division_by_zero THEN
    RAISE NOTICE 'caught: %', SQLERRM;
END $$;
RESET temp_file_limit;
SELECT lazy_count(:'d' || 'json_interleaved') AS json_files,
       lazy_count(:'d' || 'ckpt_sorted') AS ckpt_files;
COMMIT;
RESET work_mem;
\set VERBOSITY default
SELECT lazy_count(:'d' || 'json_interleaved');
DROP FUNCTION lazy_count(text);
DROP FUNCTION lazy_div(text);
RESET lazyio.d;

-- ===================================================================
-- row order (test/data/lazyio/make_path_order.py): paths byte by byte as
-- strcmp orders them (prefixes of one another, 16-byte prefixes shared,
-- UTF-8), then a file without its deletion vector before the same path
-- with one
-- ===================================================================
SELECT string_agg(path || CASE WHEN deletion_vector IS NULL THEN '' ELSE '+dv' END,
                  ' ') AS rows_in_order
  FROM deltacc.snapshot_files(:'d' || 'path_order');
SELECT count(*) AS files,
       bool_and(n = 1 OR prev < path COLLATE "C" OR
                (prev = path AND prev_dv IS NULL AND dv IS NOT NULL)) AS in_order
  FROM (SELECT n, path, deletion_vector AS dv,
               lag(path COLLATE "C") OVER (ORDER BY n) AS prev,
               lag(deletion_vector) OVER (ORDER BY n) AS prev_dv
          FROM deltacc.snapshot_files(:'d' || 'path_order') WITH ORDINALITY AS s(path, pv, size, mt, nr, st, deletion_vector, b, d, n)) o;
