--
-- extension_upgrade.sql: ALTER EXTENSION deltacc UPDATE from 1.0 gives what
-- CREATE EXTENSION gives, and mends 1.0's privileges: in 1.0 a role that is
-- a member of pg_read_server_files and has nothing else could call no
-- function (no USAGE on the schema).  Runs in a scratch database, so the
-- regression database's extension (pg_regress --load-extension) is left
-- alone.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set sales :abs_srcdir '/data/log/sales'
\set regress_db :DBNAME
-- (terse: a refusal at the schema would otherwise quote the path)
\set VERBOSITY terse
CREATE DATABASE regress_deltacc_upgrade;
\c regress_deltacc_upgrade
CREATE ROLE regress_upgrade_reader IN ROLE pg_read_server_files;
CREATE ROLE regress_upgrade_nobody;

-- An ACL as text, the installing role (the current user) shown as OWNER so
-- that the output does not depend on its name.
CREATE FUNCTION pg_temp.role_text(r oid) RETURNS text LANGUAGE sql STABLE AS
$$SELECT CASE WHEN r = 0 THEN 'PUBLIC'
              WHEN r = current_user::regrole THEN 'OWNER'
              ELSE r::regrole::text END$$;
CREATE FUNCTION pg_temp.acl_text(acl aclitem[]) RETURNS text LANGUAGE sql STABLE AS
$$SELECT string_agg(item, ', ' ORDER BY item)
    FROM (SELECT format('%s %s%s from %s', pg_temp.role_text(a.grantee),
                        a.privilege_type,
                        CASE WHEN a.is_grantable THEN ' (grantable)' ELSE '' END,
                        pg_temp.role_text(a.grantor)) AS item
            FROM aclexplode(acl) a) items$$;

-- What the extension consists of: one row per member object, with its ACL,
-- the initial privileges pg_dump restores, its comment and (functions) its
-- whole definition; one row for the extension itself and one for its
-- schema (which CREATE EXTENSION creates but does not make a member).  A
-- member of a kind not listed below shows its catalog in place of the ACL.
CREATE TEMP VIEW ext_state AS
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS object,
       CASE d.classid
         WHEN 'pg_proc'::regclass THEN
           (SELECT pg_temp.acl_text(p.proacl) FROM pg_proc p WHERE p.oid = d.objid)
         WHEN 'pg_namespace'::regclass THEN
           (SELECT pg_temp.acl_text(n.nspacl) FROM pg_namespace n WHERE n.oid = d.objid)
         WHEN 'pg_class'::regclass THEN
           (SELECT pg_temp.acl_text(c.relacl) FROM pg_class c WHERE c.oid = d.objid)
         WHEN 'pg_type'::regclass THEN
           (SELECT pg_temp.acl_text(t.typacl) FROM pg_type t WHERE t.oid = d.objid)
         WHEN 'pg_foreign_data_wrapper'::regclass THEN
           (SELECT pg_temp.acl_text(w.fdwacl) FROM pg_foreign_data_wrapper w WHERE w.oid = d.objid)
         ELSE 'member of ' || d.classid::regclass::text
       END AS acl,
       (SELECT pg_temp.acl_text(i.initprivs) FROM pg_init_privs i
         WHERE i.classoid = d.classid AND i.objoid = d.objid
           AND i.objsubid = d.objsubid) AS init_privs,
       obj_description(d.objid, d.classid::regclass::name) AS comment,
       CASE WHEN d.classid = 'pg_proc'::regclass
            THEN pg_get_functiondef(d.objid)
            WHEN d.classid = 'pg_foreign_data_wrapper'::regclass
            THEN (SELECT format('handler %s, validator %s, options %s',
                                w.fdwhandler::regproc, w.fdwvalidator::regproc,
                                w.fdwoptions)
                    FROM pg_foreign_data_wrapper w WHERE w.oid = d.objid) END AS definition
  FROM pg_depend d
  JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass
                     AND d.refobjid = e.oid
 WHERE e.extname = 'deltacc' AND d.deptype = 'e'
UNION ALL
SELECT 'extension ' || e.extname, NULL, NULL,
       obj_description(e.oid, 'pg_extension'),
       format('version %s, schema %s, relocatable %s, config %s, condition %s',
              e.extversion, e.extnamespace::regnamespace, e.extrelocatable,
              e.extconfig::regclass[], e.extcondition)
  FROM pg_extension e
 WHERE e.extname = 'deltacc'
UNION ALL
SELECT 'schema of the extension ' || n.nspname, pg_temp.acl_text(n.nspacl),
       (SELECT pg_temp.acl_text(i.initprivs) FROM pg_init_privs i
         WHERE i.classoid = 'pg_namespace'::regclass AND i.objoid = n.oid
           AND i.objsubid = 0),
       obj_description(n.oid, 'pg_namespace'),
       'owner ' || pg_temp.role_text(n.nspowner)
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE e.extname = 'deltacc';

-- 1. A fresh install of the default version: a member of
-- pg_read_server_files needs nothing else, a non-member is refused.
CREATE EXTENSION deltacc;
SELECT extversion FROM pg_extension WHERE extname = 'deltacc';
CREATE TEMP TABLE fresh AS SELECT * FROM ext_state;
-- the rows in which ext_state and the table fresh differ
CREATE TEMP VIEW state_diff AS
(SELECT 'installed only' AS side, * FROM ext_state
 EXCEPT SELECT 'installed only', * FROM fresh)
UNION ALL
(SELECT 'fresh 1.1 only', * FROM fresh
 EXCEPT SELECT 'fresh 1.1 only', * FROM ext_state);
SELECT count(*) FILTER (WHERE object LIKE 'function deltacc.%') >= 14 AS functions,
       count(*) FILTER (WHERE acl LIKE 'member of %') AS unlisted_kinds
  FROM fresh;
SELECT object, acl, init_privs,
       CASE WHEN object NOT LIKE 'function %' THEN definition END AS definition
  FROM fresh
 WHERE object LIKE 'schema%' OR object LIKE 'extension%'
    OR object = 'function deltacc.history(text)'
 ORDER BY 1;
SET ROLE regress_upgrade_reader;
SELECT count(*) FROM deltacc.history(:'sales');
RESET ROLE;
SET ROLE regress_upgrade_nobody;
SELECT count(*) FROM deltacc.history(:'sales');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;

-- 2. Version 1.0 as released: the member of pg_read_server_files is refused
-- at the schema, though it may execute the function.
DROP EXTENSION deltacc;
-- (the schema stays, with 1.1's grant: drop it too)
SELECT pg_temp.acl_text(nspacl) FROM pg_namespace WHERE nspname = 'deltacc';
DROP SCHEMA deltacc;
CREATE EXTENSION deltacc VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'deltacc';
SELECT has_function_privilege('regress_upgrade_reader',
                              'deltacc.history(text)', 'EXECUTE') AS reader_execute,
       has_schema_privilege('regress_upgrade_reader', 'deltacc', 'USAGE') AS reader_usage;
SET ROLE regress_upgrade_reader;
SELECT count(*) FROM deltacc.history(:'sales');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT deltacc.load_log(:'sales');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;
-- what 1.0 lacks compared with a fresh 1.1 (so the comparison below can
-- fail)
SELECT side, object, acl, init_privs,
       CASE WHEN object NOT LIKE 'function %' THEN definition END AS definition
  FROM state_diff ORDER BY object, side;

-- 3. The update: now the same as a fresh install.
ALTER EXTENSION deltacc UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'deltacc';
SET ROLE regress_upgrade_reader;
SELECT count(*) FROM deltacc.history(:'sales');
SELECT deltacc.load_log(:'sales') > 0 AS loaded;
SELECT count(*) > 0 AS files_loaded FROM pg_temp.delta_files;
SELECT num_files FROM deltacc.table_info(:'sales');
SELECT count(*) FROM deltacc.files_for_scan(:'sales', ARRAY['region = ''US''']);
SELECT count(*) FROM deltacc.conflicts(:'sales', 0, mode => 'partition');
SELECT entries >= 0 AS cache_stats FROM deltacc.commit_cache_stats();
RESET ROLE;
SET ROLE regress_upgrade_nobody;
SELECT count(*) FROM deltacc.history(:'sales');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;
-- every member object, ACL, initial privilege, comment and definition is
-- the fresh install's (expected: no rows)
SELECT side, object, acl, init_privs, comment, definition
  FROM state_diff ORDER BY object, side;
SELECT count(*) = (SELECT count(*) FROM fresh) AS same_count FROM ext_state;

\c :regress_db
DROP DATABASE regress_deltacc_upgrade;
DROP ROLE regress_upgrade_reader, regress_upgrade_nobody;
