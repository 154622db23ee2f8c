-- PostgreSQL peer for W2/W3 (deltacc.conflicts in 'stats' mode), in plain
-- SQL over jsonb.  $1 = table path, $2 = the loser's read version,
-- $3/$4 = lower/upper bounds of the loser's range reads on the clustering
-- key id (id BETWEEN $3[i] AND $4[i]), $5 = the paths the loser read.
-- One row per conflict, in Delta's order (version, check, path):
--   metaData/protocol in a winner        -> MetadataChanged/ProtocolChanged
--   a winner add, from a winner that is not a blind append, that a read
--     range keeps                         -> ConcurrentAppendException
--   a winner remove of a file the loser read -> ConcurrentDeleteReadException
-- A range keeps an add when its statistics do not verify or its id range
-- overlaps (Delta's rule, reference/delta-semantics.md 3.2-3.3): the range
-- needs min(id), max(id), nullCount(id) and numRecords, all JSON numbers; a
-- missing min or max is admissible only when nullCount = numRecords (all
-- null, and then the range skips the file).
WITH lines AS MATERIALIZED (
	SELECT substr(f, 1, 20)::bigint AS version, l.line::jsonb AS j
	FROM pg_ls_dir($1 || '/_delta_log') AS f,
		 string_to_table(pg_read_file($1 || '/_delta_log/' || f), E'\n') AS l(line)
	WHERE f ~ '^[0-9]{20}\.json$' AND substr(f, 1, 20)::bigint > $2 AND l.line <> ''
), blind AS (
	SELECT version FROM lines
	WHERE coalesce((j->'commitInfo'->>'isBlindAppend')::boolean, false)
), ranges AS (
	SELECT * FROM unnest($3::numeric[], $4::numeric[]) AS r(lo, hi)
)
SELECT version, 1 AS ord, 'ProtocolChangedException' AS conflict,
	   NULL::text COLLATE "C" AS path
FROM lines WHERE j ? 'protocol'
UNION ALL
SELECT version, 2, 'MetadataChangedException', NULL
FROM lines WHERE j ? 'metaData'
UNION ALL
SELECT version, 7, 'ConcurrentAppendException', j->'add'->>'path'
FROM lines,
	 LATERAL (SELECT (j->'add'->>'stats')::jsonb AS st) s,
	 LATERAL (SELECT
		CASE WHEN jsonb_typeof(st->'numRecords') = 'number' THEN (st->>'numRecords')::numeric END AS nr,
		CASE WHEN jsonb_typeof(st->'nullCount'->'id') = 'number' THEN (st->'nullCount'->>'id')::numeric END AS nc,
		CASE WHEN jsonb_typeof(st->'minValues'->'id') = 'number' THEN (st->'minValues'->>'id')::numeric END AS mn,
		CASE WHEN jsonb_typeof(st->'maxValues'->'id') = 'number' THEN (st->'maxValues'->>'id')::numeric END AS mx) v
WHERE j ? 'add'
  AND version NOT IN (SELECT version FROM blind)
  AND (nr IS NULL OR nc IS NULL
	   OR ((mn IS NULL OR mx IS NULL) AND nc <> nr)
	   OR EXISTS (SELECT 1 FROM ranges WHERE mx >= lo AND mn <= hi))
UNION ALL
SELECT version, 8, 'ConcurrentDeleteReadException', j->'remove'->>'path'
FROM lines
WHERE j ? 'remove' AND j->'remove'->>'path' = ANY ($5::text[])
ORDER BY version, ord, path
