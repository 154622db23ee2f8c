--
-- line_shapes.sql: add lines decoded through the line shapes of
-- src/snapshot/addline.c (test/data/line_shapes/generate.py).  A line of the
-- model's layout is decoded from the shapes' slots, each by the role its
-- token had in the model; every value a role allows must come out as
-- PostgreSQL's own JSON parse of the line says, and a slot its role
-- refuses must give the error the general decoder gives (the same error
-- with and without shapes: the same line in a log of other layouts).
-- Assert-enabled builds also compare every decoded line with the parse
-- tree, and every shaped skip of the read version with the general skip.
--
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT set_config('deltacc_test.ls', :'abs_srcdir' || '/data/line_shapes/', false) IS NOT NULL AS ok;
-- the lines as PostgreSQL parses them
CREATE FUNCTION pg_temp.ref(t text) RETURNS TABLE (path text, size bigint, mtime bigint,
    data_change bool, pv jsonb, base_row_id bigint, stats jsonb) LANGUAGE sql AS $$
  SELECT a ->> 'path', (a ->> 'size')::bigint, (a ->> 'modificationTime')::bigint,
         (a ->> 'dataChange')::bool, a -> 'partitionValues', (a ->> 'baseRowId')::bigint,
         (a ->> 'stats')::jsonb
    FROM regexp_split_to_table(pg_read_file(current_setting('deltacc_test.ls') || t ||
                                            '/_delta_log/00000000000000000001.json'), E'\n') AS l,
         LATERAL (SELECT l::jsonb -> 'add') AS x(a)
   WHERE l LIKE '{"add"%'
$$;
-- every add of ok/ through snapshot_files, against the parse
SELECT count(*) AS files,
       count(*) FILTER (WHERE s.size = r.size
                          AND extract(epoch FROM s.modification_time) * 1000 = r.mtime
                          AND s.partition_values = r.pv
                          AND s.base_row_id IS NOT DISTINCT FROM r.base_row_id
                          AND s.stats IS NOT DISTINCT FROM r.stats) AS same_as_parse
  FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'ok') s
  JOIN pg_temp.ref('ok') r USING (path);
-- the values the roles allow, as decoded
SELECT path, size, extract(epoch FROM modification_time) * 1000 AS mtime,
       partition_values, base_row_id, stats IS NULL AS no_stats
  FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'ok')
 WHERE path ~ 'f0(0[6-9]|1[0-4])'
 ORDER BY path;
-- the same through load_log (the commit cache's reader), dataChange too
SELECT deltacc.load_log(current_setting('deltacc_test.ls') || 'ok') > 0 AS loaded;
SELECT count(*) AS files,
       count(*) FILTER (WHERE f.size = r.size AND f.data_change = r.data_change
                          AND f.base_row_id IS NOT DISTINCT FROM r.base_row_id) AS same_as_parse
  FROM pg_temp.delta_files f JOIN pg_temp.ref('ok') r USING (path)
 WHERE f.version = 1;
-- version 1 as a read version: its add lines are only skipped (shaped or not)
SELECT count(*) AS rows
  FROM deltacc.conflicts(current_setting('deltacc_test.ls') || 'ok', 1, '{id < 5}',
                         read_files => '{p=a/f000.parquet}');
--
-- A slot its role refuses, after five lines of the layout: the general
-- decoder's error, from snapshot_files, load_log and a read version's skip.
--
\set VERBOSITY default
SELECT deltacc.load_log(current_setting('deltacc_test.ls') || 'bad_size_negative');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_size_negative');
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.ls') || 'bad_size_negative', 1, '{id < 5}',
                                       read_files => '{p=a/f000.parquet}');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_size_fraction');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_size_exponent');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_size_too_long');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_mtime_fraction');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_datachange_null');
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.ls') || 'bad_datachange_null', 1, '{id < 5}',
                                       read_files => '{p=a/f000.parquet}');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_path_empty');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_dv_true');
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_base_true');
-- (a partition value true is taken by the general decoder: the shapes decline it)
SELECT path, partition_values FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_partition_true')
 WHERE path LIKE '%f005%';
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.ls') || 'bad_partition_true', 1, '{id < 5}',
                                       read_files => '{p=a/f000.parquet}');
-- a last line cut right after "stats": (the shapes' prefix, whole)
SELECT count(*) FROM deltacc.snapshot_files(current_setting('deltacc_test.ls') || 'bad_truncated_at_stats');
SELECT count(*) FROM deltacc.conflicts(current_setting('deltacc_test.ls') || 'bad_truncated_at_stats', 1, '{id < 5}',
                                       read_files => '{p=a/f000.parquet}');
