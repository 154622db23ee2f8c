--
-- privileges.sql: every file-reading function needs pg_read_server_files,
-- through the GRANTs of the install script and again in C; membership in
-- it is all a caller needs (regress_deltacc_reader has nothing else).
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set sales :abs_srcdir '/data/log/sales'
\set VERBOSITY default

CREATE ROLE regress_deltacc_nobody;
CREATE ROLE regress_deltacc_reader IN ROLE pg_read_server_files;
CREATE ROLE regress_deltacc_granted;
-- (USAGE on the schema lets the other two reach the functions' own checks)
GRANT USAGE ON SCHEMA deltacc TO regress_deltacc_nobody, regress_deltacc_granted;
-- a direct grant bypasses the role-based GRANT, but not the C check
GRANT EXECUTE ON FUNCTION deltacc.load_log(text, bigint, bigint),
                          deltacc.history(text),
                          deltacc.snapshot_files(text, bigint),
                          deltacc.table_info(text, bigint)
   TO regress_deltacc_granted;

-- the install script's privileges
SELECT p.proname,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public,
       has_function_privilege('regress_deltacc_nobody', p.oid, 'EXECUTE') AS nobody,
       has_function_privilege('pg_read_server_files', p.oid, 'EXECUTE') AS pg_read_server_files
  FROM pg_proc p
 WHERE p.pronamespace = 'deltacc'::regnamespace
   AND p.proname IN ('load_log', 'history', 'snapshot_files', 'table_info')
 ORDER BY 1;

-- the schema: USAGE for pg_read_server_files (so its members) only, CREATE
-- for none of them
SELECT r.rolname,
       has_schema_privilege(r.oid, 'deltacc', 'USAGE') AS usage,
       has_schema_privilege(r.oid, 'deltacc', 'CREATE') AS create
  FROM pg_roles r
 WHERE r.rolname IN ('pg_read_server_files', 'regress_deltacc_reader')
UNION ALL
SELECT 'public',
       coalesce(bool_or(a.privilege_type = 'USAGE'), false),
       coalesce(bool_or(a.privilege_type = 'CREATE'), false)
  FROM pg_namespace n, aclexplode(n.nspacl) a
 WHERE n.nspname = 'deltacc' AND a.grantee = 0
ORDER BY 1;

SET ROLE regress_deltacc_nobody;
SELECT deltacc.load_log(:'sales');
SELECT count(*) FROM deltacc.history(:'sales');
SELECT count(*) FROM deltacc.snapshot_files(:'sales');
SELECT num_files FROM deltacc.table_info(:'sales');
RESET ROLE;

SET ROLE regress_deltacc_granted;
SELECT deltacc.load_log(:'sales');
SELECT count(*) FROM deltacc.history(:'sales');
SELECT count(*) FROM deltacc.snapshot_files(:'sales');
SELECT num_files FROM deltacc.table_info(:'sales');
RESET ROLE;

SET ROLE regress_deltacc_reader;
SELECT deltacc.load_log(:'sales');
SELECT count(*) FROM deltacc.history(:'sales');
SELECT count(*) FROM deltacc.snapshot_files(:'sales');
SELECT num_files FROM deltacc.table_info(:'sales');
SELECT count(*) FROM pg_temp.delta_files;
RESET ROLE;

-- a hostile search_path cannot capture the install script's or the
-- loader's references (the temp relations are always pg_temp's)
CREATE SCHEMA regress_hostile;
CREATE FUNCTION regress_hostile.text(integer) RETURNS text LANGUAGE sql AS $$SELECT 'hijacked'$$;
CREATE TABLE regress_hostile.delta_files (x int);
SET search_path = regress_hostile, pg_catalog;
SELECT deltacc.load_log(:'sales') > 0 AS loaded;
SELECT count(*) FROM regress_hostile.delta_files;
RESET search_path;
DROP SCHEMA regress_hostile CASCADE;

-- a user-made pg_temp relation with other columns is refused, not written
DROP TABLE pg_temp.delta_txns;
CREATE TEMP TABLE delta_txns (a int);
SELECT deltacc.load_log(:'sales');
DROP TABLE pg_temp.delta_txns;
-- an index on a temp relation is maintained (prepared-insert path)
CREATE INDEX ON pg_temp.delta_files (path);
SELECT deltacc.load_log(:'sales') AS actions_loaded;
SET enable_seqscan = off;
SELECT count(*) FROM pg_temp.delta_files WHERE path = 'region=US/part-00000-b.parquet';
RESET enable_seqscan;

DROP OWNED BY regress_deltacc_nobody, regress_deltacc_reader, regress_deltacc_granted;
DROP ROLE regress_deltacc_nobody, regress_deltacc_reader, regress_deltacc_granted;
