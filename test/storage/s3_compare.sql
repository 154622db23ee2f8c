-- s3_compare.sql: the same questions asked of every conformance table and
-- of its copy in the S3 emulator (scripts/storage_test.sh uploads it to
-- s3://lake/tables, and to Azurite's az://lake/tables), and the answers
-- compared: through s3://, through s3:// with listings of 3 keys a page,
-- through gs:// (a server of that scheme on the same endpoint), and
-- through az://, Shared Key signed, also with pages of 3 blobs.
-- Variables: tables (the local root), endpoint (s3rver), az_endpoint,
-- az_account, az_key (Azurite).
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
\pset tuples_only on
\pset format unaligned
CREATE EXTENSION IF NOT EXISTS deltacc;
CREATE SERVER emu FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 's3://lake/', endpoint :'endpoint', region 'us-east-1');
CREATE USER MAPPING FOR CURRENT_USER SERVER emu
    OPTIONS (key_id 'S3RVER', secret 'S3RVER');
-- Azurite's container lake, signed with Shared Key
CREATE SERVER emu_az FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'az://lake/', endpoint :'az_endpoint', account :'az_account');
CREATE USER MAPPING FOR CURRENT_USER SERVER emu_az
    OPTIONS (account_key :'az_key');
-- the same bucket as gs:// (GCS's XML API is S3's, with HMAC keys)
CREATE SERVER emu_gs FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'gs://lake/', endpoint :'endpoint');
CREATE USER MAPPING FOR CURRENT_USER SERVER emu_gs
    OPTIONS (key_id 'S3RVER', secret 'S3RVER');

-- libcurl is loaded on the first object-store request (src/storage/curl_api.c):
-- this backend has read a local table and not yet a remote one.
CREATE FUNCTION pg_temp.curl_mapped() RETURNS boolean LANGUAGE sql AS $$
  SELECT count(*) > 0
    FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\n') m
   WHERE m LIKE '%/libcurl%' $$;
SELECT CASE WHEN count(*) > 0 AND NOT pg_temp.curl_mapped()
            THEN 'ok - libcurl is not loaded by local reads'
            ELSE 'not ok - libcurl is loaded by local reads' END
  FROM deltacc.history(:'tables' || '/rs-simple-table');

-- One query's answer as text with the table's root replaced, or its error
-- (SQLSTATE and message, root replaced).
CREATE FUNCTION pg_temp.answer(q text, root text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  r text;
BEGIN
  EXECUTE format('SELECT string_agg(x, E''\n'' ORDER BY x COLLATE "C") FROM (%s) s(x)',
                 replace(q, '$ROOT', quote_literal(root)))
    INTO r;
  RETURN replace(coalesce(r, '<none>'), root, '<root>');
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE || ': ' || replace(SQLERRM, root, '<root>');
END $$;

-- label: what the lines say; wanted: the queries asked (NULL: all)
CREATE FUNCTION pg_temp.compare(label text, local_root text, s3_root text,
                                wanted text[] DEFAULT NULL)
RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  d text;
  rel text;
  q record;
  a text;
  b text;
  latest bigint;
BEGIN
  FOR d IN SELECT x FROM pg_ls_dir(local_root) x ORDER BY x COLLATE "C" LOOP
    rel := d;
    CONTINUE WHEN NOT (pg_stat_file(local_root || '/' || d)).isdir;
    IF NOT EXISTS (SELECT 1 FROM pg_ls_dir(local_root || '/' || d) x WHERE x = '_delta_log') THEN
      CONTINUE WHEN NOT EXISTS (SELECT 1 FROM pg_ls_dir(local_root || '/' || d) x WHERE x = 'delta');
      rel := d || '/delta';
    END IF;
    BEGIN
      latest := (SELECT version FROM deltacc.table_info(local_root || '/' || rel));
    EXCEPTION WHEN OTHERS THEN
      latest := 0;
    END;
    FOR q IN SELECT * FROM (VALUES
        ('history', 'SELECT h::text FROM deltacc.history($ROOT) h'),
        ('snapshot_files', 'SELECT f::text FROM deltacc.snapshot_files($ROOT) f'),
        ('snapshot_files@0', 'SELECT f::text FROM deltacc.snapshot_files($ROOT, 0) f'),
        ('table_info', 'SELECT t::text FROM deltacc.table_info($ROOT) t'),
        ('load_log', 'SELECT deltacc.load_log($ROOT)::text'),
        ('files_for_scan', 'SELECT f::text FROM deltacc.files_for_scan($ROOT, ''{}'') f'),
        ('read_rows', 'SELECT r::text FROM deltacc.read_rows($ROOT) r'),
        ('conflicts', format('SELECT c::text FROM deltacc.conflicts($ROOT, %s, ''{}'', ''[{"remove": {"path": "x"}}]'', NULL, true) c',
                             greatest(latest - 2, 0)))
      ) v(name, sql)
    LOOP
      CONTINUE WHEN wanted IS NOT NULL AND NOT q.name = ANY (wanted);
      a := pg_temp.answer(q.sql, local_root || '/' || rel);
      b := pg_temp.answer(q.sql, s3_root || '/' || rel);
      IF a = b THEN
        RETURN NEXT format('ok - %s %s %s%s', label, d, q.name, CASE WHEN a LIKE 'ERROR %' THEN ' (both: ' || left(a, 15) || ')' ELSE '' END);
      ELSE
        RETURN NEXT format('not ok - %s %s %s: local %s / remote %s', label, d, q.name,
                           left(a, 300), left(b, 300));
      END IF;
    END LOOP;
  END LOOP;
END $$;

SELECT * FROM pg_temp.compare('s3', :'tables', 's3://lake/tables');
-- listings of 3 keys a page: continuation tokens and start-after
SET deltacc.storage_list_page_size = 3;
SELECT * FROM pg_temp.compare('s3 paged', :'tables', 's3://lake/tables',
                              '{history,snapshot_files,load_log}');
RESET deltacc.storage_list_page_size;
SELECT * FROM pg_temp.compare('gs', :'tables', 'gs://lake/tables',
                              '{history,snapshot_files,read_rows}');
SELECT * FROM pg_temp.compare('az', :'tables', 'az://lake/tables',
                              '{history,snapshot_files,table_info,files_for_scan,read_rows,conflicts}');
-- a SAS token instead of the key: a server with a longer prefix serves
-- one table; no error about it may show the token's signature
CREATE SERVER emu_az_sas FOREIGN DATA WRAPPER deltacc_storage
    OPTIONS (url_prefix 'az://lake/tables/rs-simple-table', endpoint :'az_endpoint',
             account :'az_account');
CREATE USER MAPPING FOR CURRENT_USER SERVER emu_az_sas OPTIONS (sas_token :'az_sas');
SELECT CASE WHEN pg_temp.answer(q, :'tables' || '/rs-simple-table') =
                 pg_temp.answer(q, 'az://lake/tables/rs-simple-table')
            THEN 'ok - az sas rs-simple-table ' || left(q, 40)
            ELSE 'not ok - az sas rs-simple-table ' || left(q, 40) END
  FROM unnest(ARRAY['SELECT h::text FROM deltacc.history($ROOT) h',
                    'SELECT f::text FROM deltacc.snapshot_files($ROOT) f',
                    'SELECT r::text FROM deltacc.read_rows($ROOT) r']) q;
SELECT CASE WHEN a LIKE 'ERROR 58P01%' AND strpos(a, split_part(:'az_sas', 'sig=', 2)) = 0
                 AND strpos(a, 'sig=') = 0
            THEN 'ok - az sas: a missing table is 58P01 without the token'
            ELSE 'not ok - az sas: a missing table: ' || a END
  FROM pg_temp.answer('SELECT h::text FROM deltacc.history($ROOT) h',
                      'az://lake/tables/rs-simple-table/none') a;
-- List Blobs of 3 blobs a page: markers
SET deltacc.storage_list_page_size = 3;
SELECT * FROM pg_temp.compare('az paged', :'tables', 'az://lake/tables',
                              '{history,load_log}');
RESET deltacc.storage_list_page_size;

-- The coordinator: each table registered both ways, the same commit
-- ratified on both, the answers compared again; publishing to the object
-- store is refused (0A000) and changes nothing.
CREATE FUNCTION pg_temp.coordinated(local_root text, s3_root text, tbl text)
RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  l text := local_root || '/' || tbl;
  r text := s3_root || '/' || tbl;
  v bigint;
  c text;
  q text;
  a text;
  b text;
  st text;
BEGIN
  v := deltacc.register_table(l);
  IF deltacc.register_table(r) <> v THEN
    RETURN NEXT format('not ok - coordinator %s: registered at different versions', tbl);
  END IF;
  c := '[{"commitInfo": {"txnId": "storage-test-1", "operation": "WRITE"}},
         {"add": {"path": "added-by-the-test.parquet", "partitionValues": {},
                  "size": 10, "modificationTime": 1, "dataChange": true}}]';
  IF deltacc.commit(l, v, c::jsonb) <> deltacc.commit(r, v, c::jsonb) THEN
    RETURN NEXT format('not ok - coordinator %s: ratified at different versions', tbl);
  END IF;
  FOREACH q IN ARRAY ARRAY[
      'SELECT deltacc.latest_version($ROOT)::text',
      'SELECT h::text FROM deltacc.history($ROOT) h',
      'SELECT f::text FROM deltacc.snapshot_files($ROOT) f',
      'SELECT t::text FROM deltacc.table_info($ROOT) t',
      format('SELECT c::text FROM deltacc.conflicts($ROOT, %s, ''{}'', ''[{"remove": {"path": "added-by-the-test.parquet"}}]'') c', v)]
  LOOP
    a := pg_temp.answer(q, l);
    b := pg_temp.answer(q, r);
    RETURN NEXT CASE WHEN a = b AND a NOT LIKE 'ERROR%'
                     THEN format('ok - coordinator %s: %s', tbl, left(q, 40))
                     ELSE format('not ok - coordinator %s: %s: local %s / remote %s',
                                 tbl, left(q, 40), left(a, 300), left(b, 300)) END;
  END LOOP;
  BEGIN
    PERFORM deltacc.publish(r);
    st := 'none';
  EXCEPTION WHEN OTHERS THEN
    st := SQLSTATE;
  END;
  RETURN NEXT CASE WHEN st = '0A000' THEN format('ok - coordinator %s: publish refused', tbl)
                   ELSE format('not ok - coordinator %s: publish gave %s', tbl, st) END;
END $$;

SELECT * FROM pg_temp.coordinated(:'tables', 's3://lake/tables', 'rs-simple-table');
SELECT * FROM pg_temp.coordinated(:'tables', 's3://lake/tables', 'golden-multipart-checkpoint/delta');
SELECT * FROM pg_temp.coordinated(:'tables', 's3://lake/tables', 'kr-v2-json-sidecars');

SELECT CASE WHEN pg_temp.curl_mapped()
            THEN 'ok - libcurl is loaded by the first remote read'
            ELSE 'not ok - libcurl is not mapped after remote reads' END;
