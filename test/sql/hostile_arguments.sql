--
-- hostile_arguments.sql: hostile arguments rather than hostile files.
-- Table paths that are not absolute, not local, huge or odd; read
-- predicates that try to run code (volatile functions, subqueries, a second
-- statement, DML, injection through parentheses, absurd nesting); and
-- actions arguments of the conflict functions that are not what they
-- claim.  Every call ends in success or a clean ERROR (its SQLSTATE class
-- is shown), nothing in a predicate is ever executed (a volatile function
-- that would raise a NOTICE, sleep or kill the backend), and the session
-- survives.
--
SELECT path || '/base' AS base FROM regress_hostile.dirs WHERE name = 'fx' \gset
CREATE FUNCTION regress_hostile.boom() RETURNS boolean LANGUAGE plpgsql VOLATILE AS
$$BEGIN RAISE NOTICE 'predicate code was executed'; RETURN true; END$$;

-- table paths
SELECT v AS table_path_case, regress_hostile.outcome(format('SELECT deltacc.load_log(%L)', p)) AS load_log,
       regress_hostile.outcome(format('SELECT count(*) FROM deltacc.snapshot_files(%L)', p)) AS snapshot_files
  FROM (VALUES ('empty', ''), ('relative', 'some/table'), ('dot', '.'), ('root', '/'),
               ('dotdot', '/..'), ('file_uri_host', 'file://otherhost/tmp/t'),
               ('file_uri_bad_escape', 'file:///tmp/%zz'), ('file_uri_nul', 'file:///tmp/%00x'),
               ('s3', 's3://bucket/table'), ('http', 'http://example.com/t'),
               ('long_100k', '/' || repeat('a', 100000)), ('deep_dirs', repeat('/a', 5000)),
               ('newline', E'/tmp/a\nb'), ('proc_self', '/proc/self'), ('dev', '/dev'),
               ('data_directory', current_setting('data_directory')))
       AS t(v, p)
 ORDER BY 1;

-- predicates: nothing may run, every call ends cleanly
SELECT v AS predicate_case,
       regress_hostile.outcome(format('SELECT deltacc.skipping_predicate(%L, %L)', :'base', p)) AS skipping_predicate,
       regress_hostile.outcome(format('SELECT count(*) FROM deltacc.conflicts(%L, 0, ARRAY[%L])', :'base', p)) AS conflicts
  FROM (VALUES ('volatile_notice', 'regress_hostile.boom()'),
               ('volatile_and', 'id > 5 AND regress_hostile.boom()'),
               ('sleep', 'pg_sleep(30) IS NOT NULL'),
               ('terminate', 'pg_terminate_backend(pg_backend_pid())'),
               ('subquery', 'id > (SELECT count(*) FROM pg_authid)'),
               ('exists', 'EXISTS (SELECT regress_hostile.boom())'),
               ('second_statement', 'true; DROP TABLE regress_hostile.dirs'),
               ('comment_out', 'true --'),
               ('paren_injection', 'id > 5) OR (true'),
               ('from_clause', 'true FROM pg_class'),
               ('with_clause', 'true) x WITH y AS (SELECT 1'),
               ('set_returning', 'generate_series(1, 10000000) > 0'),
               ('aggregate', 'count(*) > 0'),
               ('window', 'row_number() OVER () > 0'),
               ('deep_parens', repeat('(', 10000) || 'true' || repeat(')', 10000)),
               ('deep_not', repeat('NOT ', 10000) || 'true'),
               ('long_or', 'id = 1' || repeat(' OR id = 1', 20000)),
               ('empty', ''),
               ('null_byte_escape', E'name = \'a\\\\u0000\''),
               ('unknown_column', 'nope > 1'),
               ('huge_number', 'id > 1e100000'),
               ('copy_program', 'pg_read_file(''/etc/passwd'') IS NOT NULL'),
               ('lo_import', 'lo_import(''/etc/passwd'') > 0'))
       AS t(v, p)
 ORDER BY 1;

-- actions arguments of the conflict functions
SELECT v AS actions_case,
       regress_hostile.outcome(format('SELECT count(*) FROM deltacc.conflicts(%L, 0, ARRAY[''true''], %L::jsonb)', :'base', a)) AS conflicts
  FROM (VALUES ('not_array', '{"add":{}}'), ('scalar', '42'), ('array_of_scalars', '[1,2]'),
               ('add_missing_path', '[{"add":{"size":1}}]'),
               ('add_path_dotdot', '[{"add":{"path":"../../etc/passwd","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]'),
               ('remove_absolute', '[{"remove":{"path":"/etc/passwd","dataChange":true}}]'),
               ('size_huge', '[{"add":{"path":"a","partitionValues":{},"size":1e400,"modificationTime":1,"dataChange":true}}]'),
               ('dv_garbage', '[{"remove":{"path":"a","dataChange":true,"deletionVector":{"storageType":"p","pathOrInlineDv":"file:///etc/passwd","sizeInBytes":2147483647,"cardinality":4611686018427387904}}}]'),
               ('protocol_unknown_feature', '[{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["zzz"],"writerFeatures":["zzz"]}}]'),
               ('metadata_bad_schema', '[{"metaData":{"id":"x","format":{"provider":"parquet"},"schemaString":"{","partitionColumns":[],"configuration":{}}}]'),
               ('txn_huge_version', '[{"txn":{"appId":"a","version":99999999999999999999999}}]'),
               ('deep', repeat('[', 5000) || repeat(']', 5000)),
               ('deep_64', repeat('[', 64) || repeat(']', 64)),
               ('deep_65', repeat('[', 65) || repeat(']', 65)),
               ('path_escapes', '[{"add":{"path":"a b\"c\\d/\u00e9\ud83d\ude00\u0001\t.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]'),
               ('number_forms', '[{"add":{"path":"a","partitionValues":{},"size":1.0e2,"modificationTime":-0,"dataChange":true}},{"commitInfo":{"n":[1.50,-0.0,1E-5,123456789012345678901234567890]}}]'),
               ('many_adds', (SELECT jsonb_agg(jsonb_build_object('add', jsonb_build_object('path', 'f' || i, 'partitionValues', '{}'::jsonb, 'size', 1, 'modificationTime', 1, 'dataChange', true)))::text FROM generate_series(1, 50000) i)))
       AS t(v, a)
 ORDER BY 1;
-- a malformed action in the argument is the caller's error (22023); a
-- malformed action in a log read right after it is still a corrupt log
-- (XX001)
\getenv abs_srcdir PG_ABS_SRCDIR
SELECT regress_hostile.outcome(format('SELECT count(*) FROM deltacc.conflicts(%L, 0, ARRAY[''true''], %L::jsonb)',
                                      :'base', '[{"add":{"size":1}}]')) AS bad_argument,
       regress_hostile.outcome(format('SELECT count(*) FROM deltacc.history(%L)',
                                      :'abs_srcdir' || '/data/bad/add_missing_path')) AS bad_log_after;
SELECT 'server is up' AS check;
DROP FUNCTION regress_hostile.boom();
