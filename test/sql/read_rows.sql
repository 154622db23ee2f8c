--
-- read_rows.sql: deltacc.read_rows on real Delta tables of $DELTACC_TABLES
-- (deletion vectors, checkpoints, partitions, column mapping).  When
-- DELTACC_TABLES is empty the suite says it is skipped
-- (expected/read_rows_1.out).
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables

-- row count = sum(numRecords) - sum(DV cardinality) of the live files
CREATE FUNCTION pg_temp.rows_check(root text, t text)
RETURNS TABLE (tbl text, read_rows bigint, expected bigint, result text)
LANGUAGE plpgsql AS $$
BEGIN
  tbl := t;
  SELECT sum(num_records) - coalesce(sum((deletion_vector ->> 'cardinality')::bigint), 0)
    INTO expected FROM deltacc.snapshot_files(root || '/' || t);
  BEGIN
    read_rows := (SELECT count(*) FROM deltacc.read_rows(root || '/' || t));
    result := CASE WHEN expected IS NULL THEN 'no numRecords in the log (golden_rows compares the rows)'
                   WHEN read_rows = expected THEN 'ok' ELSE 'MISMATCH' END;
  EXCEPTION WHEN OTHERS THEN
    result := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
  END;
  RETURN NEXT;
END $$;

SELECT c.* FROM unnest(ARRAY['golden-dv-partitioned-checkpoint/delta',
                  'golden-dv-log-replay-keys/delta',
                  'dd-dv-many-deletes-checkpoint',
                  'golden-inserts-deletes-checkpoint/delta',
                  'golden-dv-columnmapping/delta',
                  'golden-parquet-all-types/delta',
                  'golden-decimal-scales/delta',
                  'golden-partition-values/delta',
                  'golden-cm-id-nested/delta',
                  'golden-timestamp-ntz-id-mode/delta',
                  'golden-multipart-checkpoint/delta',
                  'kr-inline-dv',
                  'kr-partitioned-null',
                  'rs-deletion-logs',
                  'rs-partition-primitives',
                  'tr-dv-pages-cdc',
                  'tr-partition-values-parsed-all-types']) t,
     pg_temp.rows_check(:'tables', t) c
ORDER BY 1;

-- a few rows of one small table, deterministically ordered
SELECT r FROM deltacc.read_rows(:'tables' || '/golden-dv-partitioned-checkpoint/delta') r
ORDER BY r::text COLLATE "C" LIMIT 5;

-- typed values: decimals, timestamps, binary, partitions of every type
SELECT r FROM deltacc.read_rows(:'tables' || '/tr-partition-values-parsed-all-types') r
ORDER BY r::text COLLATE "C" LIMIT 3;
SELECT r ->> 'decimal_38_36' AS d FROM deltacc.read_rows(:'tables' || '/golden-decimal-scales/delta') r
WHERE r ->> 'decimal_38_36' IS NOT NULL ORDER BY r ->> 'decimal_38_36' COLLATE "C";

-- a read predicate filters rows
SELECT count(*) FROM deltacc.read_rows(:'tables' || '/golden-dv-partitioned-checkpoint/delta');
SELECT count(*) FROM deltacc.read_rows(:'tables' || '/golden-dv-partitioned-checkpoint/delta',
                                       NULL, 'part < 3');
SELECT count(*) FROM deltacc.read_rows(:'tables' || '/golden-dv-partitioned-checkpoint/delta') r
WHERE (r ->> 'part')::int < 3;
SELECT count(*) FROM deltacc.read_rows(:'tables' || '/golden-dv-columnmapping/delta',
                                       NULL, 'col1 >= 10 AND col1 < 20');
SELECT count(*) FROM deltacc.read_rows(:'tables' || '/golden-dv-columnmapping/delta') r
WHERE (r ->> 'col1')::int >= 10 AND (r ->> 'col1')::int < 20;

-- an older version
SELECT count(*) FROM deltacc.read_rows(:'tables' || '/golden-inserts-deletes-checkpoint/delta', 0);

-- a role without pg_read_server_files is refused
CREATE ROLE deltacc_rows_nopriv;
GRANT USAGE ON SCHEMA deltacc TO deltacc_rows_nopriv;
SET ROLE deltacc_rows_nopriv;
SELECT count(*) FROM deltacc.read_rows('/nonexistent');
RESET ROLE;
REVOKE USAGE ON SCHEMA deltacc FROM deltacc_rows_nopriv;
DROP ROLE deltacc_rows_nopriv;

\else
\echo read_rows suite skipped: DELTACC_TABLES is empty
\endif
