-- Deletion vectors: deltacc.deletion_vector on fixtures made by
-- test/data/dv/make_fixtures.py and on the real tables' DVs.
\getenv abs_srcdir PG_ABS_SRCDIR
\set t :abs_srcdir '/data/dv/table'
\set VERBOSITY default
\set SHOW_CONTEXT errors

-- ============ good fixtures ============
-- three DVs in one file, at offsets 1, 45 and 121
SELECT * FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":36,"cardinality":2}');
SELECT * FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":45,"sizeInBytes":68,"cardinality":4}');
SELECT * FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":121,"sizeInBytes":35,"cardinality":6}');
-- a random prefix directory
SELECT storage_type, path, row_indexes FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"ab00000002m:Fb/MH00007","offset":1,"sizeInBytes":36,"cardinality":2}');
-- inline: the same bitmap as the second DV above
SELECT * FROM deltacc.deletion_vector(:'t',
  '{"storageType":"i","pathOrInlineDv":"^Bg9^0SSi20000000000iXQKl0SSi2000310rr917YTKo8#]%s0@@G8POrEE0025l0003100000000Mg000l7","sizeInBytes":68,"cardinality":4}');
-- absolute file: URI (path column not shown: it is absolute)
SELECT storage_type, "offset", cardinality, row_indexes FROM deltacc.deletion_vector(:'t',
  jsonb_build_object('storageType', 'p', 'pathOrInlineDv',
    'file://' || :'t' || '/deletion_vector_00000000-0000-4000-8000-000000000001.bin',
    'offset', 1, 'sizeInBytes', 36, 'cardinality', 2));
-- a scheme-less absolute path is a local file too
SELECT storage_type, "offset", cardinality, row_indexes FROM deltacc.deletion_vector(:'t',
  jsonb_build_object('storageType', 'p', 'pathOrInlineDv',
    :'t' || '/deletion_vector_00000000-0000-4000-8000-000000000001.bin',
    'offset', 45, 'sizeInBytes', 68, 'cardinality', 4));
-- cardinality 0: never loaded (Delta does not read empty DVs)
SELECT * FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00009","offset":1,"sizeInBytes":0,"cardinality":0}');

-- ============ corrupt fixtures: each a clean ERROR with an errcode ============
-- dv_err shows SQLSTATE, message, detail and the first context line
CREATE FUNCTION pg_temp.dv_err(t text, d jsonb) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  st text; msg text; det text; ctx text;
BEGIN
  PERFORM deltacc.deletion_vector(t, d);
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
    det = PG_EXCEPTION_DETAIL, ctx = PG_EXCEPTION_CONTEXT;
  ctx := split_part(ctx, E'\n', 1);
  RETURN st || ': ' || msg || coalesce(E'\n  ' || nullif(det, ''), '') ||
    CASE WHEN ctx LIKE 'PL/pgSQL%' OR ctx LIKE 'SQL statement%' THEN '' ELSE E'\n  (' || ctx || ')' END;
END $$;
-- bad CRC
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00002","offset":1,"sizeInBytes":36,"cardinality":2}');
-- bad magic (CRC valid)
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00003","offset":1,"sizeInBytes":36,"cardinality":2}');
-- bad format version byte
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00004","offset":1,"sizeInBytes":36,"cardinality":2}');
-- truncated file
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00005","offset":1,"sizeInBytes":36,"cardinality":2}');
-- bogus container count (CRC valid)
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00006","offset":1,"sizeInBytes":36,"cardinality":2}');
-- offset past the end of the file
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1000,"sizeInBytes":36,"cardinality":2}');
-- offset inside the file but not at a frame (reads the wrong size word)
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":2,"sizeInBytes":36,"cardinality":2}');
-- size mismatch
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":35,"cardinality":2}');
-- cardinality mismatch
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":36,"cardinality":3}');
-- inline: cardinality mismatch, wrong length, bad character
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"i","pathOrInlineDv":"^Bg9^0SSi20000000000iXQKl0SSi2000310rr917YTKo8#]%s0@@G8POrEE0025l0003100000000Mg000l7","sizeInBytes":68,"cardinality":5}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"i","pathOrInlineDv":"^Bg9^0SSi20000000000","sizeInBytes":68,"cardinality":4}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"i","pathOrInlineDv":"^Bg9^0SSi2000000000~","sizeInBytes":16,"cardinality":4}');
-- PROTOCOL.md's inline example is big-endian (reference §4.5): refused
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"i","pathOrInlineDv":"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L","sizeInBytes":40,"cardinality":6}');
-- missing file, hostile prefix, unknown storage type, other URI schemes
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00009","offset":1,"sizeInBytes":36,"cardinality":2}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"..00000002m:Fb/MH00001","offset":1,"sizeInBytes":36,"cardinality":2}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"r","pathOrInlineDv":"x.bin","offset":1,"sizeInBytes":36,"cardinality":2}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"p","pathOrInlineDv":"s3://bucket/x.bin","offset":1,"sizeInBytes":36,"cardinality":2}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"p","pathOrInlineDv":"x.bin","offset":1,"sizeInBytes":36,"cardinality":2}');
-- malformed descriptors
SELECT pg_temp.dv_err(:'t', '[1]');
SELECT pg_temp.dv_err(:'t', '{"storageType":"u","pathOrInlineDv":"x"}');
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":-1,"cardinality":2}');
-- the size limit
SET deltacc.max_deletion_vector_bytes = 64;
SELECT pg_temp.dv_err(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":45,"sizeInBytes":68,"cardinality":4}');
RESET deltacc.max_deletion_vector_bytes;

-- ============ privileges ============
\set VERBOSITY terse
DROP ROLE IF EXISTS regress_dv_nobody;
CREATE ROLE regress_dv_nobody;
GRANT USAGE ON SCHEMA deltacc TO regress_dv_nobody;
SELECT has_function_privilege('regress_dv_nobody', 'deltacc.deletion_vector(text, jsonb)', 'EXECUTE');
SET ROLE regress_dv_nobody;
SELECT cardinality FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":36,"cardinality":2}');
RESET ROLE;
GRANT EXECUTE ON FUNCTION deltacc.deletion_vector(text, jsonb) TO regress_dv_nobody;
SET ROLE regress_dv_nobody;
-- EXECUTE alone is not enough: the C check wants pg_read_server_files
SELECT cardinality FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":36,"cardinality":2}');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION deltacc.deletion_vector(text, jsonb) FROM regress_dv_nobody;
GRANT pg_read_server_files TO regress_dv_nobody;
SET ROLE regress_dv_nobody;
-- membership in pg_read_server_files gives both EXECUTE and the C check
SELECT cardinality FROM deltacc.deletion_vector(:'t',
  '{"storageType":"u","pathOrInlineDv":"00000002m:Fb/MH00001","offset":1,"sizeInBytes":36,"cardinality":2}');
RESET ROLE;
REVOKE USAGE ON SCHEMA deltacc FROM regress_dv_nobody;
DROP ROLE regress_dv_nobody;
\set VERBOSITY default

-- ============ the real tables ============
\getenv tables DELTACC_TABLES
SELECT coalesce(:'tables', '') <> '' AS have_tables \gset
\if :have_tables
-- every DV descriptor in every JSON commit of the DV tables decodes to its
-- cardinality, with row indexes strictly ascending
CREATE TEMP TABLE dv_tables(name text, root text);
INSERT INTO dv_tables VALUES
  ('kr-inline-dv', 'kr-inline-dv'),
  ('golden-dv-log-replay-keys', 'golden-dv-log-replay-keys/delta'),
  ('dd-dv-many-deletes-checkpoint', 'dd-dv-many-deletes-checkpoint'),
  ('rs-deletion-logs', 'rs-deletion-logs'),
  ('rs-cdf-cdc-dvs', 'rs-cdf-cdc-dvs'),
  ('golden-dv-partitioned-checkpoint', 'golden-dv-partitioned-checkpoint/delta'),
  ('golden-dv-columnmapping', 'golden-dv-columnmapping/delta');
CREATE TEMP TABLE dv_found AS
SELECT t.name, :'tables' || '/' || t.root AS root,
       coalesce(a -> 'add', a -> 'remove') -> 'deletionVector' AS dv
FROM dv_tables t,
     LATERAL pg_ls_dir(:'tables' || '/' || t.root || '/_delta_log') AS f,
     LATERAL regexp_split_to_table(
       pg_read_file(:'tables' || '/' || t.root || '/_delta_log/' || f), E'\n') AS line,
     LATERAL (SELECT line::jsonb AS a) j
WHERE f ~ '^[0-9]{20}\.json$' AND line <> ''
  AND jsonb_typeof(coalesce(a -> 'add', a -> 'remove') -> 'deletionVector') = 'object';
SELECT name, dv ->> 'storageType' AS storage_type, count(*) AS descriptors,
       bool_and(d.cardinality = (dv ->> 'cardinality')::bigint
                AND cardinality(d.row_indexes) = d.cardinality
                AND d.row_indexes = (SELECT array_agg(DISTINCT r ORDER BY r) FROM unnest(d.row_indexes) r))
         AS all_match,
       sum(d.cardinality) AS deleted_rows
FROM dv_found, LATERAL deltacc.deletion_vector(root, dv) d
GROUP BY 1, 2 ORDER BY 1, 2;
-- the worked vector of the reference (§4.5) is the shape of these files too
SELECT path, "offset", size_in_bytes, row_indexes
FROM deltacc.deletion_vector(:'tables' || '/rs-deletion-logs',
  '{"storageType":"u","pathOrInlineDv":"Q6Kt3y1b)0MgZSWwPunr","offset":1,"sizeInBytes":36,"cardinality":2}');
\else
\echo 'real Delta tables not found (DELTACC_TABLES is empty): skipped'
\endif
