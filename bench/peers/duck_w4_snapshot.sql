-- DuckDB peer for W4 (deltacc.snapshot_files at the latest version):
-- replay the commits with read_ndjson; the last action on a path wins (an
-- add beats a remove in the same commit); active = last action is an add.
-- {{log}} = '<table>/_delta_log/*.json'.
WITH acts AS (
	SELECT CAST(regexp_extract(filename, '([0-9]{20})\.json$', 1) AS BIGINT) AS version,
		   add IS NOT NULL AS is_add, coalesce(add.path, remove.path) AS path, add AS a
	FROM read_ndjson({{log}}, columns = {{columns}}, filename = true)
	WHERE add IS NOT NULL OR remove IS NOT NULL
), latest AS (
	SELECT * FROM acts
	QUALIFY row_number() OVER (PARTITION BY path ORDER BY version DESC, is_add DESC) = 1
)
SELECT path, a.partitionValues AS partition_values, a.size,
	   make_timestamp(a.modificationTime * 1000) AS modification_time,
	   CAST(st->>'$.numRecords' AS BIGINT) AS num_records, st AS stats,
	   a.deletionVector AS deletion_vector, a.baseRowId AS base_row_id,
	   a.defaultRowCommitVersion AS default_row_commit_version
FROM latest, LATERAL (SELECT CAST(a.stats AS JSON) AS st)
WHERE is_add
