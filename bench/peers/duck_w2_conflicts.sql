-- DuckDB peer for W2/W3 (deltacc.conflicts in 'stats' mode): the same rule
-- as pg_w2_conflicts.sql.  {{winners}} = the list of the winners' commit
-- files (versions after the read version, found with glob()),
-- {{ranges}} = [(lo, hi), ...] of the range reads on id, {{read_files}} =
-- the paths the loser read.
WITH lines AS MATERIALIZED (
	SELECT CAST(regexp_extract(filename, '([0-9]{20})\.json$', 1) AS BIGINT) AS version, *
	FROM read_ndjson({{winners}}, columns = {{columns}}, filename = true)
), blind AS (
	SELECT version FROM lines WHERE coalesce(commitInfo.isBlindAppend, false)
), ranges AS (
	SELECT r[1] AS lo, r[2] AS hi FROM (SELECT unnest({{ranges}}) AS r)
), adds AS (
	SELECT version, add.path AS path,
		   TRY_CAST(json_extract(add.stats, '$.minValues.id') AS HUGEINT) AS min_id,
		   TRY_CAST(json_extract(add.stats, '$.maxValues.id') AS HUGEINT) AS max_id
	FROM lines WHERE add IS NOT NULL AND version NOT IN (SELECT version FROM blind)
)
SELECT version, 1 AS ord, 'ProtocolChangedException' AS conflict, NULL AS path
FROM lines WHERE protocol IS NOT NULL
UNION ALL
SELECT version, 2, 'MetadataChangedException', NULL FROM lines WHERE metaData IS NOT NULL
UNION ALL
SELECT version, 7, 'ConcurrentAppendException', path FROM adds
WHERE min_id IS NULL OR max_id IS NULL
   OR EXISTS (SELECT 1 FROM ranges WHERE max_id >= lo AND min_id <= hi)
UNION ALL
SELECT version, 8, 'ConcurrentDeleteReadException', remove.path FROM lines
WHERE remove IS NOT NULL AND list_contains({{read_files}}, remove.path)
ORDER BY version, ord, path
