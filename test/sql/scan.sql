--
-- scan.sql: skipping_predicate and files_for_scan over small generated logs
-- (test/data/skipping, see generate.py), including the direct tests #8 and
-- #9 of reference §5.1 (AND within a read, OR across reads).
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set ids10 :abs_srcdir '/data/skipping/ids10'
\set ids10_part :abs_srcdir '/data/skipping/ids10_part'
\set ids10_nostat :abs_srcdir '/data/skipping/ids10_nostat'
\set colmap :abs_srcdir '/data/skipping/colmap'
SET TimeZone = 'UTC';

-- the keep-predicate a read compiles to
SELECT deltacc.skipping_predicate(:'ids10', 'id BETWEEN 0 AND 1000');
SELECT deltacc.skipping_predicate(:'ids10', 'id >= 200 AND id < 300');
SELECT deltacc.skipping_predicate(:'ids10', 'id % 2 = 1');
SELECT deltacc.skipping_predicate(:'ids10', 'true');
SELECT deltacc.skipping_predicate(:'ids10_nostat', 'id < 50');       -- no stats columns
SELECT deltacc.skipping_predicate(:'ids10_part', 'p = 0 AND id < 50');  -- partition conjunct excluded
SELECT deltacc.skipping_predicate(:'colmap', 'customer_id > 10 AND addr.city = ''Bern''');
SELECT deltacc.skipping_predicate(:'ids10', 'nosuch < 5');            -- ERROR
SELECT deltacc.skipping_predicate(:'ids10', 'id < 5', 7);             -- ERROR: no such version

-- #8: AND within one read
SELECT path FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 200 AND id < 300'], 0) ORDER BY path;
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 200'], 0);   -- 8
-- #9: OR across reads
SELECT path FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 200 AND id < 300', 'id >= 800'], 0) ORDER BY path;
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 200 AND id < 300', 'true'], 0);  -- 10
-- merging the reads into one AND would be wrong: nothing survives both
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 200 AND id < 300 AND id >= 800'], 0);  -- 0
-- no reads: nothing scanned
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', '{}', 0);
-- the version argument: version 1 adds 1000..1099
SELECT path FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 1000']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'ids10', ARRAY['id >= 1000'], 0) ORDER BY path;
-- unusable conjuncts keep everything
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', ARRAY['id % 2 = 1'], 0);
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', ARRAY['id < 50 OR id::text = ''7'''], 0);
-- same columns as snapshot_files
SELECT f.* FROM deltacc.files_for_scan(:'ids10', ARRAY['id = 150'], 0) f;
-- numIndexedCols = 0: every file kept (§5.1 #4)
SELECT count(*) FROM deltacc.files_for_scan(:'ids10_nostat', ARRAY['id < 50']);

-- partitioned: partition pruning and data skipping of the same read
SELECT path FROM deltacc.files_for_scan(:'ids10_part', ARRAY['p = 1']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'ids10_part', ARRAY['p IS NULL']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'ids10_part', ARRAY['p = 0 AND id < 50']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'ids10_part', ARRAY['p <> 0 AND id >= 50']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'ids10_part', ARRAY['p = 1', 'id >= 950']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'ids10_part', ARRAY['p = 1 OR id >= 950']) ORDER BY path;  -- mixed: data conjunct, no skipping on p

-- column mapping: logical names (any case) map to physical names at every level
SELECT path FROM deltacc.files_for_scan(:'colmap', ARRAY['CUSTOMER_ID > 150']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'colmap', ARRAY['addr.city < ''Basel''']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'colmap', ARRAY['"addr.zip" BETWEEN 1000 AND 1300']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'colmap', ARRAY['"Company Very Short" = ''ACME''']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'colmap', ARRAY['"company very short" IS NULL']) ORDER BY path;
SELECT path FROM deltacc.files_for_scan(:'colmap', ARRAY['"Company Very Short" = ''ACME'' AND customer_id <= 100']) ORDER BY path;

-- bad input
SELECT * FROM deltacc.files_for_scan(:'ids10', ARRAY['id = 1; SELECT 1']);   -- ERROR
SELECT * FROM deltacc.files_for_scan(:'ids10', ARRAY['true', NULL]);        -- ERROR
SELECT * FROM deltacc.files_for_scan(:'ids10', ARRAY[['true'],['true']]);  -- ERROR

-- privileges: file-reading functions need pg_read_server_files
SELECT has_function_privilege('public', 'deltacc.files_for_scan(text,text[],bigint)', 'EXECUTE') AS public_scan,
       has_function_privilege('pg_read_server_files', 'deltacc.files_for_scan(text,text[],bigint)', 'EXECUTE') AS prsf_scan,
       has_function_privilege('public', 'deltacc.skipping_predicate(text,text,bigint)', 'EXECUTE') AS public_pred,
       has_function_privilege('pg_read_server_files', 'deltacc.skipping_predicate(text,text,bigint)', 'EXECUTE') AS prsf_pred;
DROP ROLE IF EXISTS regress_pred_user;
CREATE ROLE regress_pred_user;
GRANT USAGE ON SCHEMA deltacc TO regress_pred_user;
GRANT EXECUTE ON FUNCTION deltacc.files_for_scan(text,text[],bigint) TO regress_pred_user;
SET ROLE regress_pred_user;
SELECT count(*) FROM deltacc.files_for_scan(:'ids10', ARRAY['true']);   -- ERROR: checked in C too
RESET ROLE;
REVOKE ALL ON SCHEMA deltacc FROM regress_pred_user;
REVOKE ALL ON FUNCTION deltacc.files_for_scan(text,text[],bigint) FROM regress_pred_user;
DROP ROLE regress_pred_user;
