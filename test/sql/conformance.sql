--
-- conformance.sql: deltacc against the real Delta tables of $DELTACC_TABLES
-- (written by Spark, Databricks and delta-rs; never copied into the repo).
--
-- For every table whose JSON history is complete (version 0 present):
--   * history has one row per commit file;
--   * at every version with a _delta_log/NNN.crc file, snapshot_files has
--     the crc's numFiles files whose sizes sum to its tableSizeBytes.
-- Tables whose early commits were replaced by checkpoints are reported as
-- skipped until checkpoints are read.  When DELTACC_TABLES is empty or unset
-- the whole suite says it is skipped (expected/conformance_1.out).
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables

CREATE FUNCTION pg_temp.conformance(root text)
RETURNS TABLE (tbl text, commit_files int, history_rows int, crc_versions int,
               latest_files bigint, result text)
LANGUAGE plpgsql AS $$
DECLARE
  d text;
  troot text;
  logdir text;
  files text[];
  f text;
  crc jsonb;
  v bigint;
  n bigint;
  s bigint;
  problems text[];
BEGIN
  FOR d IN SELECT x FROM pg_ls_dir(root) x ORDER BY x COLLATE "C" LOOP
    troot := root || '/' || d;
    IF NOT (pg_stat_file(troot)).isdir THEN
      CONTINUE;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_ls_dir(troot) x WHERE x = '_delta_log') THEN
      IF EXISTS (SELECT 1 FROM pg_ls_dir(troot) x WHERE x = 'delta') THEN
        troot := troot || '/delta';
      ELSE
        CONTINUE;
      END IF;
    END IF;
    logdir := troot || '/_delta_log';
    SELECT array_agg(x ORDER BY x) INTO files FROM pg_ls_dir(logdir) x;
    tbl := d;
    commit_files := (SELECT count(*) FROM unnest(files) x WHERE x ~ '^[0-9]{20}\.json$');
    history_rows := NULL;
    crc_versions := 0;
    latest_files := NULL;
    problems := '{}';
    IF NOT '00000000000000000000.json' = ANY (files) THEN
      result := 'skipped: commits before the oldest checkpoint are gone';
      RETURN NEXT;
      CONTINUE;
    END IF;
    BEGIN
      history_rows := (SELECT count(*) FROM deltacc.history(troot));
      IF history_rows <> commit_files THEN
        problems := problems || format('history has %s rows for %s commit files',
                                       history_rows, commit_files);
      END IF;
      FOREACH f IN ARRAY files LOOP
        CONTINUE WHEN f !~ '^[0-9]{20}\.crc$';
        v := substr(f, 1, 20)::bigint;
        crc := pg_read_file(logdir || '/' || f)::jsonb;
        SELECT count(*), coalesce(sum(size), 0) INTO n, s
          FROM deltacc.snapshot_files(troot, v);
        crc_versions := crc_versions + 1;
        IF n <> (crc ->> 'numFiles')::bigint OR s <> (crc ->> 'tableSizeBytes')::bigint THEN
          problems := problems || format('v%s: %s files / %s bytes, crc says %s / %s',
                                         v, n, s, crc ->> 'numFiles', crc ->> 'tableSizeBytes');
        END IF;
      END LOOP;
      latest_files := (SELECT num_files FROM deltacc.table_info(troot));
      result := CASE WHEN cardinality(problems) = 0 THEN 'ok'
                     ELSE array_to_string(problems, '; ') END;
    EXCEPTION WHEN OTHERS THEN
      result := 'ERROR ' || SQLSTATE || ': ' || replace(SQLERRM, root, '<tables>');
    END;
    RETURN NEXT;
  END LOOP;
END $$;

SELECT * FROM pg_temp.conformance(:'tables');

\else
\echo conformance suite skipped: DELTACC_TABLES is empty
\endif
