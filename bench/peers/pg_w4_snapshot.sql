-- PostgreSQL peer for W4 (deltacc.snapshot_files at the latest version):
-- replay every commit with pg_read_file + jsonb; the last action on a path
-- wins (an add beats a remove in the same commit); the active files are
-- the paths whose last action is an add.  $1 = table path.
WITH lines AS (
	SELECT substr(f, 1, 20)::bigint AS version, l.n, l.line::jsonb AS j
	FROM pg_ls_dir($1 || '/_delta_log') AS f,
		 string_to_table(pg_read_file($1 || '/_delta_log/' || f), E'\n')
			 WITH ORDINALITY AS l(line, n)
	WHERE f ~ '^[0-9]{20}\.json$' AND l.line <> ''
), acts AS (
	SELECT version, j ? 'add' AS is_add, coalesce(j->'add', j->'remove') AS a
	FROM lines WHERE j ? 'add' OR j ? 'remove'
), latest AS (
	SELECT DISTINCT ON (a->>'path') is_add, a
	FROM acts
	ORDER BY a->>'path', version DESC, is_add DESC
)
SELECT a->>'path' AS path, a->'partitionValues' AS partition_values,
	   (a->>'size')::bigint AS size,
	   to_timestamp((a->>'modificationTime')::bigint / 1000.0) AS modification_time,
	   (st->>'numRecords')::bigint AS num_records,
	   st AS stats, a->'deletionVector' AS deletion_vector,
	   (a->>'baseRowId')::bigint AS base_row_id,
	   (a->>'defaultRowCommitVersion')::bigint AS default_row_commit_version
FROM latest, LATERAL (SELECT (a->>'stats')::jsonb AS st) s
WHERE is_add
