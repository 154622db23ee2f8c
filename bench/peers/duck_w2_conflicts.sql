-- DuckDB peer for W2/W3 (deltacc.conflicts in 'stats' mode): the same rule
-- as pg_w2_conflicts.sql (a read range keeps an add whose id statistics do
-- not verify -- min(id), max(id), nullCount(id), numRecords, all numbers; a
-- missing min/max admissible only when nullCount = numRecords -- or whose
-- id range overlaps).  {{winners}} = the list of the winners' commit files
-- (versions after the read version, found with glob()), {{ranges}} =
-- [(lo, hi), ...] of the range reads on id, {{read_files}} = the paths the
-- loser read.
WITH lines AS MATERIALIZED (
	SELECT CAST(regexp_extract(filename, '([0-9]{20})\.json$', 1) AS BIGINT) AS version, *
	FROM read_ndjson({{winners}}, columns = {{columns}}, filename = true)
), blind AS (
	SELECT version FROM lines WHERE coalesce(commitInfo.isBlindAppend, false)
), ranges AS (
	SELECT r[1] AS lo, r[2] AS hi FROM (SELECT unnest({{ranges}}) AS r)
), raw AS (
	SELECT version, add.path AS path,
		   json_extract(add.stats, ['$.numRecords', '$.nullCount.id', '$.minValues.id', '$.maxValues.id']) AS x
	FROM lines WHERE add IS NOT NULL AND version NOT IN (SELECT version FROM blind)
), adds AS (
	SELECT version, path,
		   CASE WHEN json_type(x[1]) IN ('BIGINT', 'UBIGINT') THEN CAST(x[1] AS HUGEINT) END AS nr,
		   CASE WHEN json_type(x[2]) IN ('BIGINT', 'UBIGINT') THEN CAST(x[2] AS HUGEINT) END AS nc,
		   CASE WHEN json_type(x[3]) IN ('BIGINT', 'UBIGINT') THEN CAST(x[3] AS HUGEINT) END AS mn,
		   CASE WHEN json_type(x[4]) IN ('BIGINT', 'UBIGINT') THEN CAST(x[4] AS HUGEINT) END AS mx
	FROM raw
)
SELECT version, 1 AS ord, 'ProtocolChangedException' AS conflict, NULL AS path
FROM lines WHERE protocol IS NOT NULL
UNION ALL
SELECT version, 2, 'MetadataChangedException', NULL FROM lines WHERE metaData IS NOT NULL
UNION ALL
SELECT version, 7, 'ConcurrentAppendException', path FROM adds
WHERE nr IS NULL OR nc IS NULL
   OR ((mn IS NULL OR mx IS NULL) AND nc <> nr)
   OR EXISTS (SELECT 1 FROM ranges WHERE mx >= lo AND mn <= hi)
UNION ALL
SELECT version, 8, 'ConcurrentDeleteReadException', remove.path FROM lines
WHERE remove IS NOT NULL AND list_contains({{read_files}}, remove.path)
ORDER BY version, ord, path
