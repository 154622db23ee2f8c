-- DuckDB peer for W4 from a Parquet checkpoint (deltacc.snapshot_files):
-- read the checkpoint with read_parquet (this table has no commit after
-- it); the last action on a path wins, active = last action is an add.
-- {{checkpoint}} = the checkpoint file.
WITH acts AS (
	SELECT add IS NOT NULL AS is_add, coalesce(add.path, remove.path) AS path, add AS a
	FROM read_parquet({{checkpoint}})
	WHERE add IS NOT NULL OR remove IS NOT NULL
), latest AS (
	SELECT * FROM acts
	QUALIFY row_number() OVER (PARTITION BY path ORDER BY is_add DESC) = 1
)
SELECT path, to_json(a.partitionValues) AS partition_values, a.size,
	   make_timestamp(a.modificationTime * 1000) AS modification_time,
	   CAST(st->>'$.numRecords' AS BIGINT) AS num_records, st AS stats,
	   to_json(a.deletionVector) AS deletion_vector, a.baseRowId AS base_row_id,
	   a.defaultRowCommitVersion AS default_row_commit_version
FROM latest, LATERAL (SELECT CAST(a.stats AS JSON) AS st)
WHERE is_add
