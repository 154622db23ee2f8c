-- DuckDB peer for W1 (deltacc.load_log): read every commit with read_ndjson
-- into one table of typed actions, then derive the same session tables as
-- deltacc (commits, files -- add, remove and cdc --, metadata, protocol,
-- txns, domains).
-- {{log}} = '<table>/_delta_log/*.json', {{columns}} = duck_columns.txt.
CREATE OR REPLACE TEMP TABLE peer_actions AS
SELECT CAST(regexp_extract(filename, '([0-9]{20})\.json$', 1) AS BIGINT) AS version, *
FROM read_ndjson({{log}}, columns = {{columns}}, filename = true);
CREATE OR REPLACE TEMP TABLE peer_commits AS
SELECT version, make_timestamp(commitInfo."timestamp" * 1000) AS committed_at,
	   commitInfo.operation, commitInfo.operationParameters AS operation_parameters,
	   commitInfo.isolationLevel AS isolation_level, commitInfo.isBlindAppend AS is_blind_append,
	   commitInfo.readVersion AS read_version, commitInfo.engineInfo AS engine_info,
	   to_json(commitInfo) AS commit_info
FROM peer_actions WHERE commitInfo IS NOT NULL;
CREATE OR REPLACE TEMP TABLE peer_files AS
SELECT version, k AS action, a.path, a.partitionValues AS partition_values, a.size,
	   make_timestamp(a.modificationTime * 1000) AS modification_time,
	   coalesce(a.dataChange, true) AS data_change,
	   CAST(st->>'$.numRecords' AS BIGINT) AS num_records,
	   coalesce(CAST(st->>'$.tightBounds' AS BOOLEAN), true) AS tight_bounds,
	   st AS stats, a.deletionVector AS deletion_vector, a.baseRowId AS base_row_id,
	   a.defaultRowCommitVersion AS default_row_commit_version, a.tags
FROM (SELECT version,
			 CASE WHEN add IS NOT NULL THEN 'add' ELSE 'remove' END AS k,
			 CASE WHEN add IS NOT NULL THEN add ELSE remove END AS a
	  FROM peer_actions WHERE add IS NOT NULL OR remove IS NOT NULL),
	 LATERAL (SELECT CAST(a.stats AS JSON) AS st)
UNION ALL
SELECT version, 'cdc', cdc.path, cdc.partitionValues, cdc.size, NULL::TIMESTAMP,
	   coalesce(cdc.dataChange, true), NULL::BIGINT, true, NULL::JSON, NULL::JSON,
	   NULL::BIGINT, NULL::BIGINT, cdc.tags
FROM peer_actions WHERE cdc IS NOT NULL;
CREATE OR REPLACE TEMP TABLE peer_metadata AS
SELECT version, metaData.id AS table_id, metaData.name, CAST(metaData.schemaString AS JSON) AS schema,
	   metaData.partitionColumns AS partition_columns, metaData.configuration,
	   make_timestamp(metaData.createdTime * 1000) AS created_time
FROM peer_actions WHERE metaData IS NOT NULL;
CREATE OR REPLACE TEMP TABLE peer_protocol AS
SELECT version, protocol.minReaderVersion AS min_reader_version,
	   protocol.minWriterVersion AS min_writer_version,
	   protocol.readerFeatures AS reader_features, protocol.writerFeatures AS writer_features
FROM peer_actions WHERE protocol IS NOT NULL;
CREATE OR REPLACE TEMP TABLE peer_txns AS
SELECT version, txn.appId AS app_id, txn.version AS txn_version,
	   make_timestamp(txn.lastUpdated * 1000) AS last_updated
FROM peer_actions WHERE txn IS NOT NULL;
CREATE OR REPLACE TEMP TABLE peer_domains AS
SELECT version, domainMetadata.domain, domainMetadata.configuration, domainMetadata.removed
FROM peer_actions WHERE domainMetadata IS NOT NULL;
SELECT count(*) AS n FROM peer_actions;
