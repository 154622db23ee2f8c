--
-- log_reader.sql: listing _delta_log, version contiguity, ignored files,
-- _last_checkpoint, tables whose early commits were replaced by checkpoints.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set data :abs_srcdir '/data/log'
\set VERBOSITY default
SET client_min_messages = notice;

-- Messages name table paths; hide the absolute prefix.
CREATE FUNCTION pg_temp.masked(sql text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN EXECUTE sql LOOP
    RETURN NEXT replace(r::text, current_setting('regress.data'), '<data>');
  END LOOP;
EXCEPTION WHEN OTHERS THEN
  RETURN NEXT 'ERROR ' || SQLSTATE || ': ' ||
    replace(SQLERRM, current_setting('regress.data'), '<data>');
END $$;
SELECT set_config('regress.data', :'data', false) IS NOT NULL AS set;

-- The sales table: commits 0..4, plus files that must be ignored (.crc,
-- dot files, *.json.tmp, _commits/, compacted logs, README.txt).
SELECT version, operation, num_actions
  FROM deltacc.history(:'data' || '/sales') ORDER BY version;

-- file:// URIs and trailing slashes name the same table.
SELECT count(*) FROM deltacc.history('file://' || :'data' || '/sales/');
SELECT count(*) FROM deltacc.history('file://localhost' || :'data' || '/sales');
SELECT count(*) FROM deltacc.history(:'data' || '/./sales//');

-- A version gap is an error naming the missing version.
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('$$ || :'data' || $$/gap')$$);

-- Not a Delta table / empty log / relative path / other schemes.
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('$$ || :'data' || $$/not_delta')$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('$$ || :'data' || $$/empty')$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('$$ || :'data' || $$/no_such_table')$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('relative/path')$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('s3://bucket/table')$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('file://otherhost/table')$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.history('')$$);

-- A corrupt _last_checkpoint is only a hint: it is ignored.
SELECT version, operation FROM deltacc.history(:'data' || '/corrupt_last_checkpoint');
SELECT version, num_files FROM deltacc.table_info(:'data' || '/corrupt_last_checkpoint');

-- Commits 0..10 were replaced by a checkpoint: history shows what is left,
-- and any state that needs the checkpoint is refused until checkpoints are
-- supported.
SELECT version, operation FROM deltacc.history(:'data' || '/checkpointed');
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.snapshot_files('$$ || :'data' || $$/checkpointed')$$);
SELECT * FROM pg_temp.masked($$SELECT version FROM deltacc.table_info('$$ || :'data' || $$/checkpointed', 10)$$);
SELECT * FROM pg_temp.masked($$SELECT deltacc.load_log('$$ || :'data' || $$/checkpointed')$$);

-- Versions out of range.
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.snapshot_files('$$ || :'data' || $$/sales', 5)$$);
SELECT * FROM pg_temp.masked($$SELECT * FROM deltacc.snapshot_files('$$ || :'data' || $$/sales', -1)$$);
SELECT * FROM pg_temp.masked($$SELECT deltacc.load_log('$$ || :'data' || $$/sales', 3, 2)$$);

-- NULL table paths give nothing.
SELECT count(*) FROM deltacc.history(NULL);
SELECT count(*) FROM deltacc.snapshot_files(NULL);
SELECT deltacc.load_log(NULL) IS NULL AS is_null;
