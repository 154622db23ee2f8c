--
-- read_version_state.sql: what a check with read_files given (modes
-- 'partition' and 'stats') reads of the read version: its metaData and
-- protocol, from the lines that may hold them.  A line none of whose bytes
-- spell "metaData" or "protocol" or a \u escape is skipped unparsed.  Each
-- fixture (test/data/conflicts/generate.py, rv_*) has v0 saying
-- WriteSerializable, a read version v1 and a winner v2 that blind-appends
-- c.parquet (ids 20-29) into the loser's read (id < 25): no conflict under
-- WriteSerializable, ConcurrentAppendException under Serializable.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.dir', :'abs_srcdir' || '/data/conflicts/', false) IS NOT NULL AS ok;
CREATE FUNCTION pg_temp.tbl(name text) RETURNS text LANGUAGE sql
    AS $$ SELECT current_setting('deltacc_test.dir') || name $$;
\set VERBOSITY default
\set C 'SELECT winning_version AS v, conflict, path FROM deltacc.conflicts'
-- the loser writes a file (an empty commit would run at SnapshotIsolation)
\set A '''[{"add":{"path":"new.parquet","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}}]'''

-- rv_skim: v1's third line is cut short and names neither action: the
-- check does not read it (nothing of it is an input of the check), and
-- v0's WriteSerializable stands -> OK, in both modes and on a second call
-- (served from the cache)
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'partition');
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
-- ... the same commit read whole is still an error, with the file and line
SELECT count(*) FROM deltacc.snapshot_files(pg_temp.tbl('rv_skim'), 1);
-- ... as is a check that needs the read version's files: without
-- read_files, once a winner removes a file (rv_skim_del's v3 removes
-- a.parquet; its v2 is the same blind append as rv_skim's)
:C(pg_temp.tbl('rv_skim_del'), 1, '{id < 25}', :A, mode => 'stats');
:C(pg_temp.tbl('rv_skim_del'), 1, '{id < 25}', :A, mode => 'partition');
-- ... while a check whose winners only add files reads none of them
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_skim_del'), 1, '{id < 25}', :A, through_version => 2, mode => 'stats');
-- ... but explain_conflicts, which shows everything the check saw, reads them
SELECT count(*) FROM deltacc.explain_conflicts(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A,
                                               through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'row_level');
-- ... and an explicit isolation level is taken as given
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   isolation_level => 'Serializable', through_version => 2, mode => 'stats');

-- Must still conflict: a second metaData later in the read version, after
-- an add line, says Serializable; the last one wins, as in Delta's replay
-- -> ConcurrentAppendException on c.parquet
:C(pg_temp.tbl('rv_two_meta'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
-- Must still conflict: the same metaData with its key spelled
-- "meta\u0044ata" (JSON decodes it to metaData)
:C(pg_temp.tbl('rv_esc_meta'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_esc_meta'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'partition');
-- Must still conflict: the metaData as a second member of an add line
:C(pg_temp.tbl('rv_multi_key'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
-- Must still fail: a protocol with a reader feature deltacc does not know,
-- its key spelled "pro\u0074ocol"
:C(pg_temp.tbl('rv_esc_proto'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');

-- Must still conflict: without read_files the read files are derived when
-- the first winner that removes a file comes (rv_del's v3 removes
-- a.parquet, ids 0-9, which id < 25 read; v2 before it only adds) ->
-- ConcurrentDeleteReadException at v3; a read that misses a.parquet
-- (id > 100) did not read it -> OK; the same with the caches off below
:C(pg_temp.tbl('rv_del'), 1, '{id < 25}', :A, mode => 'stats');
:C(pg_temp.tbl('rv_del'), 1, '{id < 25}', :A, mode => 'partition');
:C(pg_temp.tbl('rv_del'), 1, '{id > 100}', :A, mode => 'stats');
SELECT winning_version AS v, "check", decision, path
FROM deltacc.explain_conflicts(pg_temp.tbl('rv_del'), 1, '{id > 100}', :A, mode => 'stats')
ORDER BY 1, 2, 4;

-- The partial entry kept for v1 never serves a full read: with v1 as a
-- winner, its malformed line is an error again, and rv_two_meta's v1 is
-- read whole (its metaData change, and its add of b.parquet, ids 10-19,
-- into the read; the check stops at that first conflicting winner)
:C(pg_temp.tbl('rv_skim'), 0, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_two_meta'), 0, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
-- ... and the full entry then serves the state read as well
:C(pg_temp.tbl('rv_two_meta'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');

-- The same answers with the commit cache off (every commit read anew)
SET deltacc.commit_cache_size = 0;
:C(pg_temp.tbl('rv_del'), 1, '{id < 25}', :A, mode => 'stats');
:C(pg_temp.tbl('rv_del'), 1, '{id > 100}', :A, mode => 'stats');
:C(pg_temp.tbl('rv_skim'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_two_meta'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_esc_meta'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
:C(pg_temp.tbl('rv_multi_key'), 1, '{id < 25}', :A, read_files => '{a.parquet}',
   through_version => 2, mode => 'stats');
RESET deltacc.commit_cache_size;
