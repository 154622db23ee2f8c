--
-- hostile_search_path.sql: neither the install script nor the functions'
-- own SQL can be captured by hostile objects that shadow catalog ones in a
-- schema placed before pg_catalog in search_path, and CREATE EXTENSION
-- refuses a pre-existing "deltacc" schema that another role controls.
-- Runs in a database of its own, so the extension can be dropped and
-- recreated freely.  Every hostile object raises a NOTICE when called:
-- the expected output has none.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set sales :abs_srcdir '/data/log/sales'
SELECT path || '/base' AS base FROM regress_hostile.dirs WHERE name = 'fx' \gset
\set regress_db :DBNAME
CREATE DATABASE regress_hostile_sp;
\c regress_hostile_sp
SET client_min_messages = notice;

-- 1. a "deltacc" schema that a non-superuser owns, or may create in
CREATE ROLE regress_hostile_squatter;
CREATE SCHEMA deltacc AUTHORIZATION regress_hostile_squatter;
CREATE EXTENSION deltacc;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER SCHEMA deltacc OWNER TO CURRENT_USER;
GRANT CREATE ON SCHEMA deltacc TO regress_hostile_squatter;
CREATE EXTENSION deltacc;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
DROP SCHEMA deltacc;
DROP ROLE regress_hostile_squatter;

-- 2. hostile look-alikes of catalog functions, operators and relations
CREATE SCHEMA regress_evil;
CREATE FUNCTION regress_evil.caught(what text) RETURNS void LANGUAGE plpgsql AS
$$BEGIN RAISE NOTICE 'hostile object called: %', what; END$$;
CREATE FUNCTION regress_evil.eq_text(a text, b text) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('=(text,text)'); RETURN a OPERATOR(pg_catalog.=) b; END$$;
CREATE FUNCTION regress_evil.ne_text(a text, b text) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('<>(text,text)'); RETURN a OPERATOR(pg_catalog.<>) b; END$$;
CREATE FUNCTION regress_evil.eq_int8(a bigint, b bigint) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('=(bigint,bigint)'); RETURN a OPERATOR(pg_catalog.=) b; END$$;
CREATE FUNCTION regress_evil.concat_text(a text, b text) RETURNS text LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('||(text,text)'); RETURN a OPERATOR(pg_catalog.||) b; END$$;
CREATE FUNCTION regress_evil.arrow(a jsonb, b text) RETURNS jsonb LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('->(jsonb,text)'); RETURN a OPERATOR(pg_catalog.->) b; END$$;
CREATE OPERATOR regress_evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = regress_evil.eq_text);
CREATE OPERATOR regress_evil.<> (LEFTARG = text, RIGHTARG = text, FUNCTION = regress_evil.ne_text);
CREATE OPERATOR regress_evil.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = regress_evil.eq_int8);
CREATE OPERATOR regress_evil.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = regress_evil.concat_text);
CREATE OPERATOR regress_evil.-> (LEFTARG = jsonb, RIGHTARG = text, FUNCTION = regress_evil.arrow);
CREATE FUNCTION regress_evil.lower(t text) RETURNS text LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('lower(text)'); RETURN pg_catalog.lower(t); END$$;
CREATE FUNCTION regress_evil.text(v bigint) RETURNS text LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('text(bigint)'); RETURN v::pg_catalog.text; END$$;
CREATE FUNCTION regress_evil.has_function_privilege(r name, f text, p text) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('has_function_privilege'); RETURN true; END$$;
CREATE FUNCTION regress_evil.pg_has_role(r name, p text) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('pg_has_role'); RETURN true; END$$;
CREATE FUNCTION regress_evil.jsonb_build_object(a text, b text) RETURNS jsonb LANGUAGE plpgsql AS
$$BEGIN PERFORM regress_evil.caught('jsonb_build_object'); RETURN '{}'; END$$;
CREATE FUNCTION regress_evil.aclexplode(a aclitem[]) RETURNS TABLE (grantor oid, grantee oid, privilege_type text, is_grantable boolean)
LANGUAGE plpgsql AS $$BEGIN PERFORM regress_evil.caught('aclexplode'); END$$;
CREATE TABLE regress_evil.delta_files (x int);
CREATE TABLE regress_evil.delta_commits (x int);
CREATE TABLE regress_evil.pg_namespace (nspname name, nspowner oid);
CREATE TABLE regress_evil.pg_roles (oid oid, rolsuper boolean);

-- the session's search_path puts them before pg_catalog
SET search_path = regress_evil, pg_catalog, public;
SELECT 'a'::text = 'a'::text AS hostile_operator_is_active;

-- install script
CREATE EXTENSION deltacc;
SELECT count(*) >= 7 AS installed FROM pg_proc WHERE pronamespace OPERATOR(pg_catalog.=) 'deltacc'::regnamespace;

-- the functions (their SQL and the loader's) under the same search_path
SELECT deltacc.load_log(:'sales') AS actions;
SELECT count(*) FROM pg_temp.delta_files;
SELECT count(*) FROM regress_evil.delta_files;
SELECT count(*) AS commits FROM deltacc.history(:'sales');
SELECT count(*) AS files FROM deltacc.snapshot_files(:'sales');
SELECT num_files FROM deltacc.table_info(:'sales');
SELECT deltacc.skipping_predicate(:'sales', 'id BETWEEN 1 AND 5') AS keep;
SELECT keep FROM deltacc.file_may_match(
  '{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]}',
  'id > 100', '{"numRecords":3,"minValues":{"id":1},"maxValues":{"id":9},"nullCount":{"id":0}}');
SELECT deltacc.load_log(:'base') AS actions;
SELECT cardinality(d.row_indexes) FROM pg_temp.delta_files f,
       deltacc.deletion_vector(:'base', f.deletion_vector) d
 WHERE f.deletion_vector IS NOT NULL AND f.table_path OPERATOR(pg_catalog.=) :'base' ORDER BY 1;

-- dropping and recreating inside the same hostile session
DROP EXTENSION deltacc;
CREATE EXTENSION deltacc;
SELECT count(*) >= 7 AS recreated FROM pg_proc WHERE pronamespace OPERATOR(pg_catalog.=) 'deltacc'::regnamespace;

RESET search_path;
\c :regress_db
DROP DATABASE regress_hostile_sp;
