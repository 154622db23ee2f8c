--
-- stats_fastpath.sql: the stats tier of deltacc.conflicts judges winner
-- files on statistics decoded once per commit (a scanner for the common
-- shape, the parse tree otherwise), with a direct evaluator and answers
-- remembered per commit.  deltacc.explain_conflicts builds a reason for
-- every file, so it decodes each file's statistics text with the parse
-- tree, and a file the direct evaluator would skip is evaluated again by
-- the executor (a wrong skip shows as a mismatch; assert-enabled builds
-- compare every answer with the executor).  Differential test on the real
-- tables ($DELTACC_TABLES): for reads built from every top-level column's
-- recorded minima (<, =, >, <=, >=, BETWEEN it and itself, IS NULL, IS
-- NOT NULL, and for numbers comparisons with the ends of bigint's range,
-- which the one-column interval evaluator treats apart), the conflicting added
-- files must be the same both ways, cold, warm (from the cache) and with
-- the cache disabled.  (The explain call compiles each read; the "cold"
-- and "warm" calls take it from the cache of compiled reads, the
-- "nocache" call compiles it again.)  Skipped (and says so) when DELTACC_TABLES is empty.
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables
SELECT set_config('deltacc_test.tables', :'tables' || '/', false) IS NOT NULL AS ok;

-- the added-files conflicts, fast path (conflicts) and reason path (explain)
CREATE FUNCTION pg_temp.fast(t text, rv bigint, p text) RETURNS text
LANGUAGE sql AS $$
  SELECT coalesce(string_agg(winning_version || ':' || path, ',' ORDER BY winning_version, path), '')
    FROM deltacc.conflicts(t, rv, ARRAY[p],
           '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
           isolation_level => 'Serializable', read_files => '{}', mode => 'stats')
   WHERE conflict = 'ConcurrentAppendException' $$;
CREATE FUNCTION pg_temp.slow(t text, rv bigint, p text) RETURNS text
LANGUAGE sql AS $$
  SELECT coalesce(string_agg(winning_version || ':' || path, ',' ORDER BY winning_version, path), '')
    FROM deltacc.explain_conflicts(t, rv, ARRAY[p],
           '[{"add":{"path":"loser.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]',
           isolation_level => 'Serializable', read_files => '{}', mode => 'stats')
   WHERE "check" = 'added_files' AND decision = 'conflict' $$;

CREATE TEMP TABLE fp_result (tbl text, pred text, slow text, cold text,
                             warm text, nocache text);
DO $$
DECLARE
  root text := current_setting('deltacc_test.tables');
  d text;
  t text;
  rv bigint;
  c record;
  p text;
  s text;
BEGIN
  FOR d IN SELECT x FROM pg_ls_dir(root) x ORDER BY 1 LOOP
    FOREACH t IN ARRAY ARRAY[root || d, root || d || '/delta'] LOOP
      BEGIN
        SELECT min(version) INTO rv FROM deltacc.history(t);
      EXCEPTION WHEN OTHERS THEN
        CONTINUE;
      END;
      FOR c IN
        SELECT DISTINCT ON (k) k, v
          FROM deltacc.snapshot_files(t) f,
               LATERAL jsonb_each(f.stats -> 'minValues') AS m(k, v)
         WHERE jsonb_typeof(v) IN ('number', 'string')
         ORDER BY k, f.path
      LOOP
        FOREACH p IN ARRAY ARRAY[
            format('%I < %L', c.k, c.v #>> '{}'),
            format('%I = %L', c.k, c.v #>> '{}'),
            format('%I > %L', c.k, c.v #>> '{}'),
            format('%I <= %L', c.k, c.v #>> '{}'),
            format('%I >= %L', c.k, c.v #>> '{}'),
            format('%I BETWEEN %L AND %L', c.k, c.v #>> '{}', c.v #>> '{}'),
            format('%I IS NULL', c.k),
            format('%I IS NOT NULL', c.k)] ||
            -- the ends of bigint's range (for numbers; others may refuse)
            CASE WHEN jsonb_typeof(c.v) = 'number' THEN ARRAY[
              format('%I > 9223372036854775807', c.k),
              format('%I >= 9223372036854775807', c.k),
              format('%I < -9223372036854775808', c.k),
              format('%I <= -9223372036854775808', c.k)]
            ELSE '{}'::text[] END LOOP
          BEGIN
            PERFORM set_config('deltacc.commit_cache_size', '64MB', true);
            s := pg_temp.slow(t, rv, p);
            INSERT INTO fp_result VALUES (d, p, s, pg_temp.fast(t, rv, p),
                                          pg_temp.fast(t, rv, p), NULL);
            PERFORM set_config('deltacc.commit_cache_size', '0', true);
            UPDATE fp_result SET nocache = pg_temp.fast(t, rv, p)
             WHERE tbl = d AND pred = p;
          EXCEPTION WHEN OTHERS THEN
            NULL;			-- a read this table cannot take: not compared
          END;
        END LOOP;
      END LOOP;
    END LOOP;
  END LOOP;
END $$;
RESET deltacc.commit_cache_size;

-- enough of them compared, some conflicting and some not
SELECT count(DISTINCT tbl) >= 10 AS tables, count(*) >= 100 AS reads,
       count(*) FILTER (WHERE slow <> '') > 0 AS some_conflict,
       count(*) FILTER (WHERE slow = '') > 0 AS some_skip
  FROM fp_result;
-- mismatches (expected: none)
SELECT tbl, pred, slow, cold, warm, nocache
  FROM fp_result
 WHERE cold IS DISTINCT FROM slow OR warm IS DISTINCT FROM slow
    OR nocache IS DISTINCT FROM slow
 ORDER BY 1, 2;
\else
\echo 'stats_fastpath: DELTACC_TABLES is empty, suite skipped'
\endif
