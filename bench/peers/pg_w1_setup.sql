-- Session tables of the PostgreSQL peer for W1 (same shape as deltacc's).
CREATE TEMP TABLE IF NOT EXISTS peer_commits (table_path text, version bigint,
	committed_at timestamptz, operation text, operation_parameters jsonb,
	isolation_level text, is_blind_append boolean, read_version bigint,
	engine_info text, commit_info jsonb);
CREATE TEMP TABLE IF NOT EXISTS peer_files (table_path text, version bigint,
	action text, path text, partition_values jsonb, size bigint,
	modification_time timestamptz, data_change boolean, num_records bigint,
	tight_bounds boolean, stats jsonb, deletion_vector jsonb, base_row_id bigint,
	default_row_commit_version bigint, tags jsonb);
CREATE TEMP TABLE IF NOT EXISTS peer_metadata (table_path text, version bigint,
	table_id text, name text, schema jsonb, partition_columns text[],
	configuration jsonb, created_time timestamptz);
CREATE TEMP TABLE IF NOT EXISTS peer_protocol (table_path text, version bigint,
	min_reader_version int, min_writer_version int, reader_features text[],
	writer_features text[]);
CREATE TEMP TABLE IF NOT EXISTS peer_txns (table_path text, version bigint,
	app_id text, txn_version bigint, last_updated timestamptz);
CREATE TEMP TABLE IF NOT EXISTS peer_domains (table_path text, version bigint,
	domain text, configuration text, removed boolean);
