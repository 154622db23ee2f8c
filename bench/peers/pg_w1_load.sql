-- PostgreSQL peer for W1 (deltacc.load_log): load every commit of a Delta
-- log into session tables with pg_read_file + jsonb, as a PostgreSQL user
-- would without deltacc.  $1 = table path.  Returns the number of actions.
-- (Tables are created by pg_w1_setup.sql; the same columns as deltacc's.)
WITH lines AS MATERIALIZED (
	SELECT substr(f, 1, 20)::bigint AS version, l.line::jsonb AS j
	FROM pg_ls_dir($1 || '/_delta_log') AS f,
		 string_to_table(pg_read_file($1 || '/_delta_log/' || f), E'\n') AS l(line)
	WHERE f ~ '^[0-9]{20}\.json$' AND l.line <> ''
), del_commits AS (DELETE FROM peer_commits WHERE table_path = $1
), del_files AS (DELETE FROM peer_files WHERE table_path = $1
), del_metadata AS (DELETE FROM peer_metadata WHERE table_path = $1
), del_protocol AS (DELETE FROM peer_protocol WHERE table_path = $1
), del_txns AS (DELETE FROM peer_txns WHERE table_path = $1
), del_domains AS (DELETE FROM peer_domains WHERE table_path = $1
), ins_commits AS (
	INSERT INTO peer_commits
	SELECT $1, version, to_timestamp((c->>'timestamp')::bigint / 1000.0),
		   c->>'operation', c->'operationParameters', c->>'isolationLevel',
		   (c->>'isBlindAppend')::boolean, (c->>'readVersion')::bigint,
		   c->>'engineInfo', c
	FROM lines, LATERAL (SELECT j->'commitInfo' AS c) x
	WHERE j ? 'commitInfo'
), ins_files AS (
	INSERT INTO peer_files
	SELECT $1, version, k, a->>'path', a->'partitionValues', (a->>'size')::bigint,
		   to_timestamp((a->>'modificationTime')::bigint / 1000.0),
		   coalesce((a->>'dataChange')::boolean, true),
		   (st->>'numRecords')::bigint, coalesce((st->>'tightBounds')::boolean, true),
		   st, a->'deletionVector', (a->>'baseRowId')::bigint,
		   (a->>'defaultRowCommitVersion')::bigint, a->'tags'
	FROM lines,
		 LATERAL (SELECT CASE WHEN j ? 'add' THEN 'add' WHEN j ? 'remove' THEN 'remove' ELSE 'cdc' END AS k) kk,
		 LATERAL (SELECT j->k AS a) x,
		 LATERAL (SELECT (a->>'stats')::jsonb AS st) s
	WHERE j ? 'add' OR j ? 'remove' OR j ? 'cdc'
), ins_metadata AS (
	INSERT INTO peer_metadata
	SELECT $1, version, m->>'id', m->>'name', (m->>'schemaString')::jsonb,
		   ARRAY(SELECT jsonb_array_elements_text(m->'partitionColumns')),
		   m->'configuration', to_timestamp((m->>'createdTime')::bigint / 1000.0)
	FROM lines, LATERAL (SELECT j->'metaData' AS m) x
	WHERE j ? 'metaData'
), ins_protocol AS (
	INSERT INTO peer_protocol
	SELECT $1, version, (p->>'minReaderVersion')::int, (p->>'minWriterVersion')::int,
		   ARRAY(SELECT jsonb_array_elements_text(p->'readerFeatures')),
		   ARRAY(SELECT jsonb_array_elements_text(p->'writerFeatures'))
	FROM lines, LATERAL (SELECT j->'protocol' AS p) x
	WHERE j ? 'protocol'
), ins_domains AS (
	INSERT INTO peer_domains
	SELECT $1, version, d->>'domain', d->>'configuration', (d->>'removed')::boolean
	FROM lines, LATERAL (SELECT j->'domainMetadata' AS d) x
	WHERE j ? 'domainMetadata'
), ins_txns AS (
	INSERT INTO peer_txns
	SELECT $1, version, t->>'appId', (t->>'version')::bigint,
		   to_timestamp((t->>'lastUpdated')::bigint / 1000.0)
	FROM lines, LATERAL (SELECT j->'txn' AS t) x
	WHERE j ? 'txn'
)
SELECT count(*) FROM lines
