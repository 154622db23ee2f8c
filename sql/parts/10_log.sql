
-- ---------------------------------------------------------------------------
-- Reading the log (owner: foundation).  Every function here reads server
-- files: EXECUTE is revoked from PUBLIC and granted to pg_read_server_files,
-- and the C code checks that membership again.
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.load_log(table_path pg_catalog.text,
                                 from_version pg_catalog.int8 DEFAULT NULL,
                                 to_version pg_catalog.int8 DEFAULT NULL)
RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'deltacc_load_log'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION deltacc.load_log(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) IS
'(re)fill the session''s pg_temp.delta_* relations with the actions of a Delta table''s log; returns the number of actions loaded';

CREATE FUNCTION deltacc.history(table_path pg_catalog.text,
    OUT version pg_catalog.int8,
    OUT committed_at pg_catalog.timestamptz,
    OUT operation pg_catalog.text,
    OUT operation_parameters pg_catalog.jsonb,
    OUT isolation_level pg_catalog.text,
    OUT is_blind_append pg_catalog.bool,
    OUT read_version pg_catalog.int8,
    OUT engine_info pg_catalog.text,
    OUT num_actions pg_catalog.int4)
RETURNS SETOF pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_history'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.history(pg_catalog.text) IS
'one row per JSON commit of a Delta table, from its commitInfo';

-- The planner support function of snapshot_files (src/funcs/snapshot_scan.c):
-- it answers no request; the planner calling it loads the library, whose
-- planner hook runs snapshot_files in FROM as a scan that makes only the
-- columns the query reads.  New in 1.1 (the update script adds it too).
CREATE FUNCTION deltacc.snapshot_files_support(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'deltacc_snapshot_files_support'
LANGUAGE C STRICT;

COMMENT ON FUNCTION deltacc.snapshot_files_support(pg_catalog.internal) IS
'planner support function of deltacc.snapshot_files (not called from SQL)';

CREATE FUNCTION deltacc.snapshot_files(table_path pg_catalog.text,
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
AS 'MODULE_PATHNAME', 'deltacc_snapshot_files'
LANGUAGE C VOLATILE PARALLEL SAFE
SUPPORT deltacc.snapshot_files_support;

COMMENT ON FUNCTION deltacc.snapshot_files(pg_catalog.text, pg_catalog.int8) IS
'the live data files of a Delta table at a version (latest when NULL), by log replay';

CREATE FUNCTION deltacc.table_info(table_path pg_catalog.text,
    version pg_catalog.int8 DEFAULT NULL,
    OUT version pg_catalog.int8,
    OUT table_id pg_catalog.text,
    OUT name pg_catalog.text,
    OUT schema pg_catalog.jsonb,
    OUT partition_columns pg_catalog.text[],
    OUT configuration pg_catalog.jsonb,
    OUT min_reader_version pg_catalog.int4,
    OUT min_writer_version pg_catalog.int4,
    OUT reader_features pg_catalog.text[],
    OUT writer_features pg_catalog.text[],
    OUT num_files pg_catalog.int8,
    OUT size_bytes pg_catalog.int8)
RETURNS pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_table_info'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.table_info(pg_catalog.text, pg_catalog.int8) IS
'metadata, protocol and size of a Delta table at a version (latest when NULL)';

REVOKE ALL ON FUNCTION deltacc.load_log(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.history(pg_catalog.text) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.snapshot_files(pg_catalog.text, pg_catalog.int8) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.table_info(pg_catalog.text, pg_catalog.int8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.load_log(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION deltacc.history(pg_catalog.text) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION deltacc.snapshot_files(pg_catalog.text, pg_catalog.int8) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION deltacc.table_info(pg_catalog.text, pg_catalog.int8) TO pg_read_server_files;
