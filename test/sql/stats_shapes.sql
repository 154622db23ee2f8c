--
-- stats_shapes.sql: winner add lines and statistics at the edges of the
-- conflict checker's fast decoders (test/data/stats_shapes/generate.py):
-- duplicates (the last wins), non-objects, white space, escapes,
-- non-ASCII, deep nesting, odd numbers, nested columns, odd add-line
-- layouts.  deltacc.conflicts (fast decoders, remembered answers) must
-- report exactly the added files deltacc.explain_conflicts (parse tree and
-- executor, per file) reports, cold and warm; assert-enabled builds also
-- compare every fast decoding with the slow one.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.t', :'abs_srcdir' || '/data/stats_shapes', false) IS NOT NULL AS ok;
\i :abs_srcdir/sql/stats_fast_slow.inc

-- the decisions for one read, per added file (kept = conflicts)
SELECT path, decision
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.t'), 0, '{id < 6}',
                                 pg_temp.loser(), read_files => '{}', mode => 'stats')
 WHERE "check" = 'added_files'
 ORDER BY path, decision;

-- fast = slow for many reads, cold then warm (remembered answers)
CREATE TEMP TABLE shapes AS
SELECT p, pg_temp.slow(p) AS slow, pg_temp.fast(p) AS cold, pg_temp.fast(p) AS warm
  FROM unnest(ARRAY['id < 6', 'id <= 5', 'id = 7', 'id > 8', 'id >= 9', 'id <> 5',
                    'id IS NULL', 'id IS NOT NULL', 'id BETWEEN 6 AND 8',
                    'id < -5', 'id > 9223372036854775806', 'id = 0',
                    's < ''c''', 's > ''y''', 's = ''b''',
                    'd > 2.0', 'd < 1.0',
                    't > ''2024-01-01 12:00:00+00''', 't < ''2023-12-31 00:00:00+00''',
                    't = ''2024-01-01 00:00:00.0005+00''',
                    '"st.a" > 2', '"st.a" < 1',
                    'id < 6 OR s > ''c''', 'id IN (1, 2, 3)',
                    'i > 5', 'i < 0', 'i = 1', 'i IS NULL', 'i IS NOT NULL',
                    'i > 2147483646', 'id = 3', 'id > 1234567890123456780']) AS p;
SELECT count(*) AS reads, count(*) FILTER (WHERE slow <> '') > 0 AS some_conflict,
       count(*) FILTER (WHERE slow = '' OR slow NOT LIKE '%normal%') > 0 AS some_skip
  FROM shapes;
-- mismatches (expected: none)
SELECT p, slow, cold, warm FROM shapes
 WHERE cold IS DISTINCT FROM slow OR warm IS DISTINCT FROM slow ORDER BY p;
-- the fast add-line decoder keeps what the slow one keeps (e.g. the last
-- of duplicate keys: dup_size.parquet has size 5)
SELECT count(*) AS conflicts, count(*) FILTER (WHERE path = 'with/slash.parquet') AS unescaped_path
  FROM deltacc.conflicts(current_setting('deltacc_test.t'), 0, '{true}', pg_temp.loser(),
                         read_files => '{}', mode => 'stats');
