--
-- conflict_seed.sql: mode 'stats' = seed 1 (reference §5.1 tier 1),
-- conflict-time data skipping of the winner's added files, with a paired
-- "must still conflict" test for every skip; the ConflictDataSkippingSuite
-- tests #1-#9 and the worked example (liquid-clustered orders).
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.dir', :'abs_srcdir' || '/data/conflicts/', false) IS NOT NULL AS ok;
CREATE FUNCTION pg_temp.tbl(name text) RETURNS text LANGUAGE sql
    AS $$ SELECT current_setting('deltacc_test.dir') || name $$;
CREATE FUNCTION pg_temp.add(path text, pv jsonb DEFAULT '{}', dc boolean DEFAULT true)
    RETURNS jsonb LANGUAGE sql
    AS $$ SELECT jsonb_build_object('add', jsonb_build_object('path', path,
          'partitionValues', pv, 'size', 1000, 'modificationTime', 0, 'dataChange', dc)) $$;
CREATE FUNCTION pg_temp.rm(path text, pv jsonb DEFAULT '{}', dc boolean DEFAULT true)
    RETURNS jsonb LANGUAGE sql
    AS $$ SELECT jsonb_build_object('remove', jsonb_build_object('path', path,
          'partitionValues', pv, 'size', 1000, 'deletionTimestamp', 0,
          'extendedFileMetadata', true, 'dataChange', dc)) $$;
-- the loser's DELETE on ids: removes part-00 and writes its survivors back
CREATE FUNCTION pg_temp.delete_actions() RETURNS jsonb LANGUAGE sql
    AS $$ SELECT jsonb_build_array(pg_temp.rm('part-00.parquet'),
                                   pg_temp.add('rewritten.parquet')) $$;
\set C 'SELECT winning_version AS v, operation, conflict, path, partition_hint FROM deltacc.conflicts'

-- ids: unpartitioned, id 0..999 in 10 files of 100, Serializable;
-- winner v1 blind-appends new-1000 (ids 1000..1099).

-- #1 disjoint data ranges: the added file is skipped -> no conflict
:C(pg_temp.tbl('ids'), 0, '{id < 50}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- ... and the default mode is stats
:C(pg_temp.tbl('ids'), 0, '{id < 50}', pg_temp.delete_actions(), through_version => 1);
-- #3 (pair of #1) feature disabled: the same disjoint ranges conflict in 'partition'
:C(pg_temp.tbl('ids'), 0, '{id < 50}', pg_temp.delete_actions(), through_version => 1, mode => 'partition');
-- #2 (pair of #1) overlapping data ranges: still conflicts
:C(pg_temp.tbl('ids'), 0, '{id >= 950}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- pair: the boundary value itself (id = 1000 is the winner file's min)
:C(pg_temp.tbl('ids'), 0, '{id = 1000}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- pair: a read whose usable conjunct cannot skip (function of the column)
:C(pg_temp.tbl('ids'), 0, '{id % 2 = 1}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- pair: OR across reads: one disjoint read and one overlapping read conflict
:C(pg_temp.tbl('ids'), 0, '{id < 50, id > 1050}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- pair: one disjoint read and one read without a usable data conjunct
:C(pg_temp.tbl('ids'), 0, '{id < 50, true}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- #4 missing stats (dataSkippingNumIndexedCols = 0): disjoint ranges still conflict
:C(pg_temp.tbl('ids_nostats'), 0, '{id < 50}', pg_temp.delete_actions(), through_version => 1, mode => 'stats');
-- #5 partitioned table: skipping on a data column avoids the conflict
:C(pg_temp.tbl('ids_part'), 0, '{id < 50}',
   jsonb_build_array(pg_temp.rm('p=0/part-00.parquet', '{"p":"0"}'),
                     pg_temp.add('p=0/rewritten.parquet', '{"p":"0"}')),
   through_version => 1, mode => 'stats');
-- pair of #5: partition mode conflicts [p=0]
:C(pg_temp.tbl('ids_part'), 0, '{id < 50}',
   jsonb_build_array(pg_temp.rm('p=0/part-00.parquet', '{"p":"0"}'),
                     pg_temp.add('p=0/rewritten.parquet', '{"p":"0"}')),
   through_version => 1, mode => 'partition');
-- pair of #5: overlapping range, stats mode, conflicts [p=0]
:C(pg_temp.tbl('ids_part'), 0, '{id > 1050}',
   jsonb_build_array(pg_temp.add('p=0/x.parquet', '{"p":"0"}')),
   through_version => 1, mode => 'stats');
-- #6 empty read predicates on a non-blind loser (it removes without reading):
-- a winner file without statistics still conflicts
:C(pg_temp.tbl('ids'), 1, '{}', pg_temp.delete_actions(), through_version => 2, mode => 'stats');
-- #7 a whole-table read is never skipped
:C(pg_temp.tbl('ids'), 0, '{id < 50}', jsonb_build_array(pg_temp.add('x.parquet')),
   read_whole_table => true, through_version => 1, mode => 'stats');
-- ids_winner10: the winner (v1) adds 10 files of 100 ids each.
-- #8 AND within one read: exactly one file survives; the single conjunct keeps 8
:C(pg_temp.tbl('ids_winner10'), 0, '{id >= 200 AND id < 300}', pg_temp.delete_actions(), mode => 'stats');
SELECT count(*) FROM deltacc.conflicts(pg_temp.tbl('ids_winner10'), 0, '{id >= 200}',
   pg_temp.delete_actions(), mode => 'stats');
-- #9 OR across reads: 3 files; with an unfiltered second read all 10 are kept
:C(pg_temp.tbl('ids_winner10'), 0, '{id >= 200 AND id < 300, id >= 800}', pg_temp.delete_actions(), mode => 'stats');
SELECT count(*) FROM deltacc.conflicts(pg_temp.tbl('ids_winner10'), 0,
   '{id >= 200 AND id < 300, true}', pg_temp.delete_actions(), mode => 'stats');
-- partition mode: every one of the 10 files conflicts (unpartitioned table)
SELECT count(*) FROM deltacc.conflicts(pg_temp.tbl('ids_winner10'), 0,
   '{id >= 200 AND id < 300}', pg_temp.delete_actions(), mode => 'partition');
-- conflicts().detail of a file statistics could not rule out says why
SELECT path, detail FROM deltacc.conflicts(pg_temp.tbl('ids_winner10'), 0,
   '{id >= 200 AND id < 300, id >= 800}', pg_temp.delete_actions(), mode => 'stats');
-- the explanation names the statistic that ruled each file out
SELECT "check", path, decision, reason
  FROM deltacc.explain_conflicts(pg_temp.tbl('ids_winner10'), 0,
       '{id >= 200 AND id < 300, id >= 800}', pg_temp.delete_actions(), mode => 'stats');

-- ======================= the worked example ================================
-- orders: liquid clustered (so unpartitioned), customer_id statistics tight
-- per file (file k holds customer_id k*100000 .. k*100000+99999).
-- Winner v1: UPDATE orders ... WHERE customer_id BETWEEN 900000 AND 901000
-- (removes part-00009, adds part-00009-u1).  The loser: UPDATE orders ...
-- WHERE customer_id BETWEEN 0 AND 1000, which read part-00000 and rewrites it.
CREATE FUNCTION pg_temp.orders_loser() RETURNS jsonb LANGUAGE sql
    AS $$ SELECT jsonb_build_array(
        '{"commitInfo":{"operation":"UPDATE"}}'::jsonb,
        pg_temp.rm('part-00000.parquet'), pg_temp.add('part-00000-u2.parquet')) $$;
-- Delta today: ConcurrentAppendException
:C(pg_temp.tbl('orders'), 0, '{customer_id BETWEEN 0 AND 1000}', pg_temp.orders_loser(), mode => 'partition');
-- stats: nothing
:C(pg_temp.tbl('orders'), 0, '{customer_id BETWEEN 0 AND 1000}', pg_temp.orders_loser(), mode => 'stats');
SELECT "check", path, decision, reason
  FROM deltacc.explain_conflicts(pg_temp.tbl('orders'), 0, '{customer_id BETWEEN 0 AND 1000}',
       pg_temp.orders_loser(), mode => 'stats');
SELECT deltacc.assert_no_conflict(pg_temp.tbl('orders'), 0, '{customer_id BETWEEN 0 AND 1000}',
       pg_temp.orders_loser());
-- pair: a loser whose range overlaps the winner's new file still conflicts
:C(pg_temp.tbl('orders'), 0, '{customer_id BETWEEN 900500 AND 900600}',
   jsonb_build_array(pg_temp.rm('part-00009.parquet'), pg_temp.add('part-00009-u2.parquet')),
   mode => 'stats');
-- pair: a loser that read the file the winner removed conflicts on delete/read
-- (and on append: the winner's new file still covers 990000)
:C(pg_temp.tbl('orders'), 0, '{customer_id BETWEEN 990000 AND 990001}',
   jsonb_build_array(pg_temp.rm('part-00009.parquet'), pg_temp.add('part-00009-u2.parquet')),
   mode => 'stats');
-- pair: an expression on the column is not usable for skipping: every file
-- is kept (and every file counts as read)
:C(pg_temp.tbl('orders'), 0, '{customer_id + 0 BETWEEN 0 AND 1000}', pg_temp.orders_loser(), mode => 'stats');
