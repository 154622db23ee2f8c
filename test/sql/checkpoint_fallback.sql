--
-- checkpoint_fallback.sql: robustness of checkpoint reading, on
-- project-made corrupt copies of real tables (under a per-backend temp
-- directory, removed at the end; paths never printed).
--
--  * the newest checkpoint unreadable (truncated or garbage) while an older
--    complete checkpoint exists and the JSON commits after it are present:
--    a WARNING names the skipped checkpoint and the older one is used; the
--    snapshot equals full JSON replay on the original table;
--  * two corrupt checkpoints in a row: two WARNINGs, the third is used;
--  * no usable fallback (the JSON commits after the older checkpoint are
--    gone): the error is raised, naming the corrupt file;
--  * v2 checkpoint sidecars whose size differs from the sidecar action's
--    sizeInBytes (grown, truncated), or that are missing: clean errors
--    (data_corrupted / undefined_file) naming the sidecar.
-- When DELTACC_TABLES is empty the suite says it is skipped.
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables

SELECT '/tmp/deltacc_ckfb_' || pg_backend_pid() AS tmp \gset
SELECT set_config('deltacc_test.tmp', :'tmp', false) IS NOT NULL AS set;

-- run a shell command (COPY TO PROGRAM; it drains its stdin first)
CREATE FUNCTION pg_temp.sh(cmd text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || cmd);
END $$;

-- copy a table's _delta_log to <tmp>/<name> and drop its JSON commits <= upto
CREATE FUNCTION pg_temp.log_copy(src text, name text, upto bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  dst text := current_setting('deltacc_test.tmp') || '/' || name;
  rmlist text;
BEGIN
  SELECT string_agg(x, ' ') INTO rmlist FROM pg_ls_dir(src || '/_delta_log') x
   WHERE x ~ '^[0-9]{20}\.json$' AND substr(x, 1, 20)::bigint <= upto;
  PERFORM pg_temp.sh('mkdir -p ' || dst || ' && cp -r ' || src || '/_delta_log ' || dst ||
                     '/ && chmod -R u+w ' || dst || ' && cd ' || dst ||
                     '/_delta_log && rm -f ' || coalesce(rmlist, ''));
  RETURN dst;
END $$;

-- rows of snapshot_files that differ between two tables at version v
CREATE FUNCTION pg_temp.snap_diff(a text, b text, v bigint) RETURNS bigint
LANGUAGE sql AS $$
  SELECT count(*) FROM (
    (SELECT path, size, partition_values, deletion_vector FROM deltacc.snapshot_files(a, v)
     EXCEPT ALL
     SELECT path, size, partition_values, deletion_vector FROM deltacc.snapshot_files(b, v))
    UNION ALL
    (SELECT path, size, partition_values, deletion_vector FROM deltacc.snapshot_files(b, v)
     EXCEPT ALL
     SELECT path, size, partition_values, deletion_vector FROM deltacc.snapshot_files(a, v))) d
$$;

-- an error as SQLSTATE: message (and the file its context names; temp
-- paths masked)
CREATE FUNCTION pg_temp.try_files(t text, v bigint DEFAULT NULL) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  ctx text;
BEGIN
  PERFORM count(*) FROM deltacc.snapshot_files(t, v);
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
  RETURN SQLSTATE || ': ' || replace(SQLERRM, current_setting('deltacc_test.tmp'), '<tmp>') ||
         coalesce(' (' || substring(ctx from 'Delta log file "[^"]*"') || ')', '');
END $$;

SELECT pg_temp.sh('rm -rf ' || :'tmp' || ' && mkdir -p ' || :'tmp');
\set dd :tables '/dd-dv-many-deletes-checkpoint'
\set v2 :tables '/golden-v2-checkpoint-json/delta'

-- dd-dv-many-deletes-checkpoint has checkpoints at 10, 20, 30 and 40 and
-- commits up to 46.  Copy without commits 0..20, then truncate checkpoint 40.
SELECT pg_temp.log_copy(:'dd', 'trunc40', 20) IS NOT NULL AS copied;
SELECT pg_temp.sh('cd ' || :'tmp' || '/trunc40/_delta_log && ' ||
                  'head -c 200 00000000000000000040.checkpoint.parquet > x && ' ||
                  'mv x 00000000000000000040.checkpoint.parquet');
-- latest: checkpoint 40 is skipped (WARNING), 30 + commits 31..46 are used
SELECT pg_temp.snap_diff(:'dd', :'tmp' || '/trunc40', NULL) AS differing_rows;
SELECT count(*) AS files FROM deltacc.snapshot_files(:'tmp' || '/trunc40');
-- version 35 never needs checkpoint 40: no WARNING
SELECT pg_temp.snap_diff(:'dd', :'tmp' || '/trunc40', 35) AS differing_rows;

-- garbage in checkpoints 40 and 30: both skipped, 20 is used
SELECT pg_temp.log_copy(:'dd', 'garbage', 20) IS NOT NULL AS copied;
SELECT pg_temp.sh('cd ' || :'tmp' || '/garbage/_delta_log && ' ||
                  'for v in 30 40; do f=000000000000000000$v.checkpoint.parquet; ' ||
                  's=$(stat -c %s $f); head -c $s /dev/zero > $f; done');
SELECT pg_temp.snap_diff(:'dd', :'tmp' || '/garbage', NULL) AS differing_rows;
SELECT pg_temp.snap_diff(:'dd', :'tmp' || '/garbage', 44) AS differing_rows;

-- no fallback: commits 0..35 gone, so checkpoint 30 cannot reach version
-- 46 (31..35 missing); the corrupt checkpoint 40 is an error naming it
SELECT pg_temp.log_copy(:'dd', 'nofallback', 35) IS NOT NULL AS copied;
SELECT pg_temp.sh('cd ' || :'tmp' || '/nofallback/_delta_log && ' ||
                  'head -c 200 00000000000000000040.checkpoint.parquet > x && ' ||
                  'mv x 00000000000000000040.checkpoint.parquet');
SELECT pg_temp.try_files(:'tmp' || '/nofallback');
-- version 38 there: checkpoint 40 is too new and checkpoint 30 cannot
-- reach 38 (31..35 gone), so no state can be built
SELECT pg_temp.try_files(:'tmp' || '/nofallback', 38);
-- the intact copy of the same log reads fine (the corruption is the cause)
SELECT pg_temp.log_copy(:'dd', 'intact', 35) IS NOT NULL AS copied;
SELECT pg_temp.snap_diff(:'dd', :'tmp' || '/intact', NULL) AS differing_rows;

-- v2 checkpoint (JSON top-level file) with two Parquet sidecars whose
-- sizeInBytes are recorded; commits 0..2 removed so the checkpoint is read
SELECT pg_temp.log_copy(:'v2', 'v2ok', 2) IS NOT NULL AS copied;
SELECT pg_temp.snap_diff(:'v2', :'tmp' || '/v2ok', NULL) AS differing_rows;
-- a sidecar one byte longer than its action says
SELECT pg_temp.log_copy(:'v2', 'v2grown', 2) IS NOT NULL AS copied;
SELECT pg_temp.sh('cd ' || :'tmp' || '/v2grown/_delta_log/_sidecars && ' ||
                  'printf x >> $(ls | grep 0000000001.0000000002)');
SELECT pg_temp.try_files(:'tmp' || '/v2grown');
-- a truncated sidecar
SELECT pg_temp.log_copy(:'v2', 'v2cut', 2) IS NOT NULL AS copied;
SELECT pg_temp.sh('cd ' || :'tmp' || '/v2cut/_delta_log/_sidecars && ' ||
                  'f=$(ls | grep 0000000002.0000000002); head -c 1000 $f > x && mv x $f');
SELECT pg_temp.try_files(:'tmp' || '/v2cut');
-- a missing sidecar
SELECT pg_temp.log_copy(:'v2', 'v2gone', 2) IS NOT NULL AS copied;
SELECT pg_temp.sh('cd ' || :'tmp' || '/v2gone/_delta_log/_sidecars && ' ||
                  'rm -f $(ls | grep 0000000002.0000000002)');
SELECT pg_temp.try_files(:'tmp' || '/v2gone');

SELECT pg_temp.sh('chmod -R u+w ' || :'tmp' || ' && rm -rf ' || :'tmp');

\else
\echo checkpoint_fallback suite skipped: DELTACC_TABLES is empty
\endif
