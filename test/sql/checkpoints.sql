--
-- checkpoints.sql: reading Delta checkpoints (classic, multi-part, v2 JSON
-- and Parquet with sidecars) against the real tables of $DELTACC_TABLES.
--
-- For every table with checkpoint files:
--   * when its JSON history is complete, for every checkpoint version c a
--     copy of _delta_log without the JSON commits 0..c is made in a temp
--     directory (so replay must start from the checkpoint), and
--     snapshot_files at c and at the latest version must equal full JSON
--     replay on the original (path, size, partition_values,
--     deletion_vector, stats presence, num_records, and the statistics'
--     nullCount and tightBounds: min/max may be rendered differently from
--     stats_parsed, e.g. a timestamp with microseconds);
--   * at every version with a .crc file that the checkpoint-based state can
--     reach, numFiles / tableSizeBytes must match;
--   * table_info works at the latest version.
-- When DELTACC_TABLES is empty or unset the suite says it is skipped.
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables

CREATE FUNCTION pg_temp.snap_diff(a text, b text, v bigint)
RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM (
    (SELECT path, size, partition_values, deletion_vector, stats IS NOT NULL AS has_stats,
            num_records, stats -> 'nullCount' AS null_count, stats -> 'tightBounds' AS tight
       FROM deltacc.snapshot_files(a, v)
     EXCEPT ALL
     SELECT path, size, partition_values, deletion_vector, stats IS NOT NULL,
            num_records, stats -> 'nullCount', stats -> 'tightBounds'
       FROM deltacc.snapshot_files(b, v))
    UNION ALL
    (SELECT path, size, partition_values, deletion_vector, stats IS NOT NULL,
            num_records, stats -> 'nullCount', stats -> 'tightBounds'
       FROM deltacc.snapshot_files(b, v)
     EXCEPT ALL
     SELECT path, size, partition_values, deletion_vector, stats IS NOT NULL,
            num_records, stats -> 'nullCount', stats -> 'tightBounds'
       FROM deltacc.snapshot_files(a, v))) d
$$;

CREATE FUNCTION pg_temp.crc_check(troot text, logdir text, min_v bigint)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  f text;
  v bigint;
  crc jsonb;
  n bigint;
  s bigint;
  problems text[] := '{}';
BEGIN
  FOR f IN SELECT x FROM pg_ls_dir(logdir) x WHERE x ~ '^[0-9]{20}\.crc$' ORDER BY x LOOP
    v := substr(f, 1, 20)::bigint;
    CONTINUE WHEN v < min_v;
    crc := pg_read_file(logdir || '/' || f)::jsonb;
    SELECT count(*), coalesce(sum(size), 0) INTO n, s
      FROM deltacc.snapshot_files(troot, v);
    IF n <> (crc ->> 'numFiles')::bigint OR s <> (crc ->> 'tableSizeBytes')::bigint THEN
      problems := problems || format('v%s: %s files / %s bytes, crc says %s / %s',
                                     v, n, s, crc ->> 'numFiles', crc ->> 'tableSizeBytes');
    END IF;
  END LOOP;
  RETURN problems;
END $$;

CREATE FUNCTION pg_temp.checkpoints(root text)
RETURNS TABLE (tbl text, kinds text, ckpt_versions int, compared int,
               crc_versions int, result text)
LANGUAGE plpgsql AS $$
DECLARE
  d text;
  troot text;
  logdir text;
  tmp text := '/tmp/deltacc_ckpt_' || pg_backend_pid();
  copyroot text;
  c bigint;
  complete bool;
  rmlist text;
  n bigint;
  problems text[];
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || 'chmod -R u+w ' || tmp || ' 2>/dev/null; rm -rf ' || tmp || ' && mkdir -p ' || tmp);
  FOR d IN SELECT x FROM pg_ls_dir(root) x ORDER BY x COLLATE "C" LOOP
    troot := root || '/' || d;
    CONTINUE WHEN NOT (pg_stat_file(troot)).isdir;
    IF NOT EXISTS (SELECT 1 FROM pg_ls_dir(troot) x WHERE x = '_delta_log') THEN
      CONTINUE WHEN NOT EXISTS (SELECT 1 FROM pg_ls_dir(troot) x WHERE x = 'delta');
      troot := troot || '/delta';
    END IF;
    logdir := troot || '/_delta_log';
    CONTINUE WHEN NOT EXISTS (SELECT 1 FROM pg_ls_dir(logdir) x WHERE x ~ '^[0-9]{20}\.checkpoint\.');
    tbl := d;
    SELECT string_agg(DISTINCT CASE
             WHEN x ~ '^[0-9]{20}\.checkpoint\.parquet$' THEN 'classic'
             WHEN x ~ '^[0-9]{20}\.checkpoint\.[0-9]+\.[0-9]+\.parquet$' THEN 'multipart'
             WHEN x ~ '\.json$' THEN 'v2-json'
             ELSE 'v2-parquet' END, ',')
      INTO kinds FROM pg_ls_dir(logdir) x WHERE x ~ '^[0-9]{20}\.checkpoint\.';
    SELECT count(DISTINCT substr(x, 1, 20)) INTO ckpt_versions
      FROM pg_ls_dir(logdir) x WHERE x ~ '^[0-9]{20}\.checkpoint\.';
    complete := EXISTS (SELECT 1 FROM pg_ls_dir(logdir) x WHERE x = '00000000000000000000.json');
    compared := 0;
    crc_versions := (SELECT count(*) FROM pg_ls_dir(logdir) x WHERE x ~ '^[0-9]{20}\.crc$');
    problems := '{}';
    BEGIN
      PERFORM * FROM deltacc.table_info(troot);
      IF complete THEN
        FOR c IN SELECT DISTINCT substr(x, 1, 20)::bigint FROM pg_ls_dir(logdir) x
                  WHERE x ~ '^[0-9]{20}\.checkpoint\.' ORDER BY 1 LOOP
          copyroot := tmp || '/' || d || '_' || c;
          SELECT string_agg(x, ' ') INTO rmlist FROM pg_ls_dir(logdir) x
            WHERE x ~ '^[0-9]{20}\.json$' AND substr(x, 1, 20)::bigint <= c;
          EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' ||
                         'mkdir -p ' || copyroot || ' && cp -r ' || logdir || ' ' || copyroot ||
                         '/ && chmod -R u+w ' || copyroot || ' && cd ' || copyroot || '/_delta_log && rm -f ' || rmlist);
          n := pg_temp.snap_diff(troot, copyroot, c);
          IF n <> 0 THEN
            problems := problems || format('v%s: %s rows differ', c, n);
          END IF;
          n := pg_temp.snap_diff(troot, copyroot, NULL);
          IF n <> 0 THEN
            problems := problems || format('latest from v%s: %s rows differ', c, n);
          END IF;
          problems := problems || pg_temp.crc_check(copyroot, logdir, c);
          compared := compared + 1;
        END LOOP;
      ELSE
        problems := problems || pg_temp.crc_check(troot, logdir,
          (SELECT min(substr(x, 1, 20)::bigint) FROM pg_ls_dir(logdir) x
            WHERE x ~ '^[0-9]{20}\.checkpoint\.'));
      END IF;
    EXCEPTION WHEN OTHERS THEN
      problems := problems || (SQLSTATE || ': ' || SQLERRM);
    END;
    result := CASE WHEN cardinality(problems) = 0 THEN 'ok'
                   ELSE array_to_string(problems, '; ') END;
    RETURN NEXT;
  END LOOP;
  -- the copies keep the read-only modes of the shared tables
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'cat >/dev/null; ' || 'chmod -R u+w ' || tmp || ' && rm -rf ' || tmp);
END $$;

-- One difference is expected: tr-partition-values-parsed-all-types was
-- checkpointed with writeStatsAsJson=false and without stats_parsed, so its
-- checkpoint carries no statistics at all and the 3 files read from it have
-- none ("6 rows differ" = 3 rows on each side, in the stats-presence column
-- only: paths, sizes and partition values agree).
SELECT * FROM pg_temp.checkpoints(:'tables');

-- golden-corrupted-last-checkpoint has an empty _last_checkpoint: the
-- listing is used instead
SELECT version, num_files FROM deltacc.table_info(:'tables' || '/golden-corrupted-last-checkpoint/delta');

\else
\echo checkpoints suite skipped: DELTACC_TABLES is empty
\endif

-- project-made broken checkpoints (the JSON commits before them are gone,
-- so replay must read them): clean errors naming the file
\getenv abs_srcdir PG_ABS_SRCDIR
\set VERBOSITY default
-- a Parquet file cut in half
SELECT count(*) FROM deltacc.snapshot_files(:'abs_srcdir' || '/data/checkpoints/truncated');
-- a valid Parquet file that holds no Delta actions
SELECT count(*) FROM deltacc.snapshot_files(:'abs_srcdir' || '/data/checkpoints/no_actions');
