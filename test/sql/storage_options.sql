--
-- storage_options.sql: object-store settings and credentials through the
-- foreign-data wrapper deltacc_storage.  The validator keeps secrets out of
-- server options, refuses unknown options, and lets only superusers set
-- server options; a URL is served by the server with the longest matching
-- url_prefix among those the user has USAGE on, with the user's (or
-- PUBLIC's) mapping; no message of ours ever quotes a secret.
--
\set VERBOSITY default
CREATE ROLE regress_storage_alice;
CREATE ROLE regress_storage_bob;
CREATE ROLE regress_storage_owner;
GRANT USAGE ON SCHEMA deltacc TO regress_storage_alice, regress_storage_bob,
    regress_storage_owner;
GRANT EXECUTE ON FUNCTION deltacc.storage_server_for(text)
   TO regress_storage_alice, regress_storage_bob;

-- Runs a statement and reports its SQLSTATE, message and detail, and whether the
-- message, detail or hint contain the marker every test secret carries.
-- (The statement's own text, which does hold the secret, is the context
-- and is not ours.)
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hnt text;
BEGIN
    EXECUTE stmt;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                            det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
    RETURN st || ': ' || msg || coalesce(nullif(' (' || det || ')', ' ()'), '') ||
           CASE WHEN concat(msg, det, hnt) LIKE '%TOPSECRET%'
                THEN ' [SECRET LEAKED]' ELSE '' END;
END$$;
GRANT EXECUTE ON FUNCTION pg_temp.try(text) TO PUBLIC;

-- The wrapper: created by the extension, USAGE granted to nobody.
SELECT fdwname, fdwvalidator::regproc, fdwacl IS NULL AS no_grants,
       pg_get_userbyid(fdwowner) = current_user AS owned_by_installer
  FROM pg_foreign_data_wrapper WHERE fdwname = 'deltacc_storage';
SELECT has_foreign_data_wrapper_privilege('regress_storage_alice',
           'deltacc_storage', 'USAGE') AS alice_usage;

-- 1. Validator refusals (superuser, so only the option rules apply).
-- secrets on a server
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', secret 'TOPSECRET-1')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', key_id 'TOPSECRET-2')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'az://cont1@acct1/', account_key 'TOPSECRET3')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'az://cont1@acct1/', sas_token 'sv=1&sig=TOPSECRET-4')$$);
-- unknown options, on a server, the wrapper and a foreign table
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', use_ssl 'false')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', "Secret" 'TOPSECRET-5')$$);
SELECT pg_temp.try($$ALTER FOREIGN DATA WRAPPER deltacc_storage OPTIONS (region 'x')$$);
-- values
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/t/../u')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'file:///etc/')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'az://cont1@acct1/t?sig=TOPSECRET-6')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', url_style 'dns')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', endpoint 'http://user:pw@127.0.0.1:9000')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', endpoint '127.0.0.1:9000')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', endpoint 'http://h/?x=1')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', region 'us east')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', account 'acct1')$$);
SELECT pg_temp.try($$CREATE SERVER bad FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'az://cont1@acct1/', account 'acct2')$$);

-- 2. The servers used below (and what is accepted).
CREATE SERVER st_bucket FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/', region 'us-east-1');
CREATE SERVER st_tables FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/tables', endpoint 'http://127.0.0.1:4568',
             url_style 'path', region 'us-east-1');
CREATE SERVER st_sales FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/tables/sales/');
CREATE SERVER st_lake FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'abfss://lake@acct1.dfs.core.windows.net/', account 'acct1');
-- a secret cannot be added later either
SELECT pg_temp.try($$ALTER SERVER st_bucket OPTIONS (ADD secret 'TOPSECRET-7')$$);
SELECT pg_temp.try($$ALTER SERVER st_bucket OPTIONS (DROP url_prefix)$$);

-- 3. User mappings: secrets only, in the right combinations.
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret 'TOPSECRET-8', endpoint 'http://10.0.0.1')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret E'TOPSECRET\n9')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret '')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_lake
    OPTIONS (account_key 'TOPSECRET==', sas_token 'sig=TOPSECRET')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_lake
    OPTIONS (account_key 'TOPSECRET-not-base64!')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_lake
    OPTIONS (sas_token '?sv=1&sig=TOPSECRET')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_alice SERVER st_tables
    OPTIONS (session_token 'TOPSECRET-10')$$);
CREATE USER MAPPING FOR regress_storage_alice SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret 'TOPSECRET-alice', session_token 'TOPSECRET-tok');
CREATE USER MAPPING FOR PUBLIC SERVER st_bucket
    OPTIONS (key_id 'AKIDTOPSECRET', secret 'TOPSECRET-public');
CREATE USER MAPPING FOR regress_storage_alice SERVER st_lake
    OPTIONS (sas_token 'sv=2022-11-02&sig=TOPSECRET');

-- 4. Only superusers set server options.  Without USAGE on the wrapper
-- PostgreSQL refuses; with it (a grant the install script never makes),
-- the validator still does.
SET ROLE regress_storage_owner;
SELECT pg_temp.try($$CREATE SERVER mine FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/tables/sales/x')$$);
RESET ROLE;
GRANT USAGE ON FOREIGN DATA WRAPPER deltacc_storage TO regress_storage_owner;
SET ROLE regress_storage_owner;
SELECT pg_temp.try($$CREATE SERVER mine FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a/tables/sales/x')$$);
SELECT pg_temp.try($$CREATE SERVER mine FOREIGN DATA WRAPPER deltacc_storage$$);
RESET ROLE;
REVOKE USAGE ON FOREIGN DATA WRAPPER deltacc_storage FROM regress_storage_owner;

-- 5. Which server serves a URL: the longest prefix the user has USAGE on,
-- on path-segment boundaries.
GRANT USAGE ON FOREIGN SERVER st_bucket, st_tables, st_lake TO regress_storage_alice;
GRANT USAGE ON FOREIGN SERVER st_bucket TO regress_storage_bob;
SET ROLE regress_storage_alice;
SELECT u.url, s.*
  FROM unnest(ARRAY['s3://bucket-a/tables/t1/_delta_log',
                    's3://bucket-a/tables',
                    's3://bucket-a/tablesX/t',
                    's3://bucket-a/other/t/',
                    'abfss://lake@acct1.dfs.core.windows.net/gold/t']) AS u(url),
       LATERAL deltacc.storage_server_for(u.url) s;
-- st_sales is longer, but alice has no USAGE on it: st_tables serves
SELECT server FROM deltacc.storage_server_for('s3://bucket-a/tables/sales/_delta_log');
RESET ROLE;
GRANT USAGE ON FOREIGN SERVER st_sales TO regress_storage_alice;
SET ROLE regress_storage_alice;
-- now st_sales (which has no mapping for alice or PUBLIC: anonymous)
SELECT * FROM deltacc.storage_server_for('s3://bucket-a/tables/sales/_delta_log');
RESET ROLE;
SET ROLE regress_storage_bob;
-- bob: st_bucket through the PUBLIC mapping
SELECT * FROM deltacc.storage_server_for('s3://bucket-a/tables/sales');
RESET ROLE;
REVOKE USAGE ON FOREIGN SERVER st_bucket FROM regress_storage_bob;
SET ROLE regress_storage_bob;
-- no USAGE on any matching server; no server at all; not a URL
SELECT pg_temp.try($$SELECT deltacc.storage_server_for('s3://bucket-a/tables/sales')$$);
SELECT pg_temp.try($$SELECT deltacc.storage_server_for('s3://bucket-b/t')$$);
SELECT pg_temp.try($$SELECT deltacc.storage_server_for('az://lake@acct1/t?sig=TOPSECRET-11')$$);
SELECT pg_temp.try($$SELECT deltacc.storage_server_for('/tmp/t')$$);
RESET ROLE;
-- two servers with the same prefix are ambiguous
CREATE SERVER st_bucket_again FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://bucket-a');
SELECT pg_temp.try($$SELECT deltacc.storage_server_for('s3://bucket-a/other/t')$$);
DROP SERVER st_bucket_again;

-- 6. A user with USAGE on a server may map itself, with secrets only.
SET ROLE regress_storage_bob;
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_bob SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret 'TOPSECRET-bob')$$);
RESET ROLE;
GRANT USAGE ON FOREIGN SERVER st_tables TO regress_storage_bob;
SET ROLE regress_storage_bob;
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_bob SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret 'TOPSECRET-bob', region 'eu-west-1')$$);
SELECT pg_temp.try($$CREATE USER MAPPING FOR regress_storage_bob SERVER st_tables
    OPTIONS (key_id 'AKIDTOPSECRET', secret 'TOPSECRET-bob')$$);
SELECT * FROM deltacc.storage_server_for('s3://bucket-a/tables/t1');
-- the mapping's values are visible to bob in pg_user_mappings, to nobody
-- else who is not a superuser
SELECT srvname, usename, umoptions IS NOT NULL AS options_shown
  FROM pg_user_mappings WHERE srvname LIKE 'st\_%' ORDER BY 1, 2;
RESET ROLE;

-- 7. No catalog column readable by everyone holds a secret.
SELECT count(*) AS server_options_with_secrets
  FROM pg_foreign_server s, unnest(s.srvoptions) o
 WHERE o LIKE '%TOPSECRET%';

DROP SERVER st_bucket, st_tables, st_sales, st_lake CASCADE;
DROP FUNCTION pg_temp.try(text);
REVOKE USAGE ON SCHEMA deltacc FROM regress_storage_alice, regress_storage_bob,
    regress_storage_owner;
REVOKE EXECUTE ON FUNCTION deltacc.storage_server_for(text)
  FROM regress_storage_alice, regress_storage_bob;
DROP ROLE regress_storage_alice, regress_storage_bob, regress_storage_owner;
