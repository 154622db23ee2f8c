
-- ---------------------------------------------------------------------------
-- Predicates and statistics (owner: pred).  skipping_predicate and
-- files_for_scan read server files: EXECUTE is revoked from PUBLIC and
-- granted to pg_read_server_files, and the C code checks that membership
-- again.  file_may_match reads nothing (its inputs are all arguments).
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.skipping_predicate(table_path pg_catalog.text,
                                           predicate pg_catalog.text,
                                           version pg_catalog.int8 DEFAULT NULL)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'deltacc_skipping_predicate'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.skipping_predicate(pg_catalog.text, pg_catalog.text, pg_catalog.int8) IS
'the keep-predicate over file statistics that a read predicate compiles to (Delta''s data-skipping rules), or true when it cannot skip any file';

REVOKE ALL ON FUNCTION deltacc.skipping_predicate(pg_catalog.text, pg_catalog.text, pg_catalog.int8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.skipping_predicate(pg_catalog.text, pg_catalog.text, pg_catalog.int8) TO pg_read_server_files;

CREATE FUNCTION deltacc.file_may_match(schema_string pg_catalog.text,
    predicate pg_catalog.text,
    stats pg_catalog.text DEFAULT NULL,
    partition_values pg_catalog.jsonb DEFAULT NULL,
    partition_columns pg_catalog.text[] DEFAULT '{}',
    configuration pg_catalog.jsonb DEFAULT '{}',
    writer_includes_nan pg_catalog.bool DEFAULT false,
    OUT keep pg_catalog.bool,
    OUT stats_may_match pg_catalog.bool,
    OUT partition_matches pg_catalog.bool,
    OUT keep_predicate pg_catalog.text,
    OUT reason pg_catalog.text)
RETURNS pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_file_may_match'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.file_may_match(pg_catalog.text, pg_catalog.text, pg_catalog.text, pg_catalog.jsonb, pg_catalog.text[], pg_catalog.jsonb, pg_catalog.bool) IS
'whether a file with these statistics and partition values may hold a row matching the read predicate, for a table with this schema (nothing is read from disk)';

CREATE FUNCTION deltacc.files_for_scan(table_path pg_catalog.text,
    predicates pg_catalog.text[],
    version pg_catalog.int8 DEFAULT NULL,
    OUT path pg_catalog.text,
    OUT partition_values pg_catalog.jsonb,
    OUT size pg_catalog.int8,
    OUT modification_time pg_catalog.timestamptz,
    OUT num_records pg_catalog.int8,
    OUT stats pg_catalog.jsonb,
    OUT deletion_vector pg_catalog.jsonb,
    OUT base_row_id pg_catalog.int8,
    OUT default_row_commit_version pg_catalog.int8)
RETURNS SETOF pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_files_for_scan'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.files_for_scan(pg_catalog.text, pg_catalog.text[], pg_catalog.int8) IS
'the files of a Delta snapshot that a reader running these read predicates would scan (partition pruning and data skipping, OR across reads)';

REVOKE ALL ON FUNCTION deltacc.files_for_scan(pg_catalog.text, pg_catalog.text[], pg_catalog.int8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.files_for_scan(pg_catalog.text, pg_catalog.text[], pg_catalog.int8) TO pg_read_server_files;
