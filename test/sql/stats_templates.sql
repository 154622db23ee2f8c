--
-- stats_templates.sql: winner add lines whose statistics share one shape
-- except for one change at a time (test/data/stats_templates/generate.py).
-- The conflict checker decodes a stats string of the shape it last
-- scanned by matching the shape (src/format/jshape.c) instead of scanning
-- it; every change must still give the decision of the parse tree:
-- deltacc.conflicts (fast decoders) must report exactly the added files
-- deltacc.explain_conflicts (parse tree and executor, per file) reports,
-- cold and warm.  Assert-enabled builds also compare every prescanned
-- answer with the parse tree's.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.t', :'abs_srcdir' || '/data/stats_templates', false) IS NOT NULL AS ok;
\i :abs_srcdir/sql/stats_fast_slow.inc

-- per file, for one read on the prescanned column: which lines conflict
-- (kept) and which the statistics rule out
SELECT path, decision
  FROM deltacc.explain_conflicts(current_setting('deltacc_test.t'), 0, '{id BETWEEN 40 AND 60}',
                                 pg_temp.loser(), read_files => '{}', mode => 'stats')
 WHERE "check" = 'added_files'
 ORDER BY path;

-- fast = slow for reads on the integer columns (the prescan's), cold then
-- warm, and a read on two of them
CREATE TEMP TABLE tmpl AS
SELECT p, pg_temp.slow(p) AS slow, pg_temp.fast(p) AS cold, pg_temp.fast(p) AS warm
  FROM unnest(ARRAY['id BETWEEN 40 AND 60', 'id < 5', 'id > 9', 'id = 6', 'id = 7',
                    'id < -10', 'id >= 1234567890123456789', 'id > 9223372036854775806',
                    'id = 0', 'id IS NULL', 'id IS NOT NULL', 'id <> 5',
                    'i > 2', 'i < 1', 'i = 1', 'i > 2147483646',
                    'id > 70 AND i = 1', 'id < 3 OR i > 5']) AS p;
SELECT count(*) AS reads,
       count(*) FILTER (WHERE slow <> '') AS reads_with_conflicts,
       min(array_length(string_to_array(slow, ','), 1)) AS fewest_kept,
       max(array_length(string_to_array(slow, ','), 1)) AS most_kept
  FROM tmpl;
-- mismatches (expected: none)
SELECT p, slow, cold, warm FROM tmpl
 WHERE cold IS DISTINCT FROM slow OR warm IS DISTINCT FROM slow ORDER BY p;

-- must still conflict: each line whose change leaves the statistics
-- unusable for id is kept by a read that only its id range would rule out
SELECT p, string_to_array(slow, ',') @> ARRAY['m14_string_where_number.parquet',
                                             'm16_null_where_number.parquet',
                                             'm18_long_number.parquet',
                                             'm20_leading_zero.parquet',
                                             'm22_key_case.parquet',
                                             'm32_trailing_garbage.parquet',
                                             'm40_truncated.parquet'] AS unusable_kept
  FROM tmpl WHERE p = 'id < -10';

-- statistics texts not kept: a commit cached by a read on id alone keeps
-- no texts for the lines whose id statistics the prescan answered; a
-- later read on other columns reads them again from the commit file and
-- must answer as with the cache off (where every text is kept)
SET deltacc.commit_cache_size = 0;
CREATE TEMP TABLE nocache AS
SELECT p, pg_temp.slow(p) AS slow, pg_temp.fast(p) AS fast
  FROM unnest(ARRAY['i > 2', 'i < 1', 'id > 70 AND i = 1', 's < ''b''',
                    's > ''zz''', 'id < 3 OR s = ''a''']) AS p;
RESET deltacc.commit_cache_size;
SELECT count(*) > 0 AS cached_by_id
  FROM deltacc.conflicts(current_setting('deltacc_test.t'), 0, '{id < 5}', pg_temp.loser(),
                         read_files => '{}', mode => 'stats');
SELECT n.p, n.fast = pg_temp.fast(n.p) AS fast_same, n.slow = pg_temp.slow(n.p) AS slow_same,
       n.fast = n.slow AS fast_is_slow
  FROM nocache n ORDER BY n.p;
