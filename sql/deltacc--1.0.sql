/* deltacc/sql/deltacc--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION deltacc" to load this file. \quit

-- The extension lives in schema deltacc (see deltacc.control).  Every object
-- below is schema-qualified and every catalog function or operator used in a
-- body is pg_catalog-qualified, so a hostile search_path cannot capture it.

-- ---------------------------------------------------------------------------
-- Install-time guard (owner: hostile).  CREATE EXTENSION reuses a schema
-- "deltacc" that already exists.  If a role that is not a superuser owns it
-- or may create objects in it, that role could drop, replace or shadow the
-- extension's objects later, which are called by pg_read_server_files
-- members and superusers: refuse to install there.
-- ---------------------------------------------------------------------------
DO $guard$
BEGIN
	IF EXISTS (SELECT 1
				 FROM pg_catalog.pg_namespace n
				 JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
				WHERE n.nspname OPERATOR(pg_catalog.=) 'deltacc'
				  AND NOT r.rolsuper)
	   OR EXISTS (SELECT 1
					FROM pg_catalog.pg_namespace n,
						 pg_catalog.aclexplode(n.nspacl) a
				   WHERE n.nspname OPERATOR(pg_catalog.=) 'deltacc'
					 AND a.privilege_type OPERATOR(pg_catalog.=) 'CREATE'
					 AND (a.grantee OPERATOR(pg_catalog.=) 0
						  OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles g
										  WHERE g.oid OPERATOR(pg_catalog.=) a.grantee
											AND g.rolsuper)))
	THEN
		RAISE EXCEPTION 'schema "deltacc" is not safe for extension deltacc'
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'A role that is not a superuser owns the schema or may create objects in it.',
				  HINT = 'Drop the schema (or give it to a superuser and revoke CREATE), then run CREATE EXTENSION again.';
	END IF;
END
$guard$;

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
LANGUAGE C VOLATILE PARALLEL SAFE;

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

-- ---------------------------------------------------------------------------
-- Conflict checking (src/funcs/funcs_conflict.c): Delta's ConflictChecker.
-- Not STRICT: NULL isolation_level, read_files, through_version and mode
-- have a meaning (see COMMENT ON FUNCTION below).
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.conflicts(
    table_path       text,
    read_version     bigint,
    read_predicates  text[]  DEFAULT '{}',
    actions          jsonb   DEFAULT '[]',
    isolation_level  text    DEFAULT NULL,
    read_whole_table boolean DEFAULT false,
    read_app_ids     text[]  DEFAULT '{}',
    read_files       text[]  DEFAULT NULL,
    through_version  bigint  DEFAULT NULL,
    mode             text    DEFAULT NULL)
RETURNS TABLE (
    winning_version  bigint,
    operation        text,
    conflict         text,
    path             text,
    partition_hint   text,
    detail           text)
AS 'MODULE_PATHNAME', 'deltacc_conflicts'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) IS
'Conflicts a transaction that read version read_version would hit when committing now, in the order Delta detects them (LIMIT 1 = the exception Delta raises). mode NULL = deltacc.default_mode (stats); isolation_level NULL = the table''s delta.isolationLevel, else Serializable; read_files NULL = files_for_scan(read_predicates); through_version NULL = latest.';

REVOKE ALL ON FUNCTION deltacc.conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) TO pg_read_server_files;

CREATE FUNCTION deltacc.explain_conflicts(
    table_path       text,
    read_version     bigint,
    read_predicates  text[]  DEFAULT '{}',
    actions          jsonb   DEFAULT '[]',
    isolation_level  text    DEFAULT NULL,
    read_whole_table boolean DEFAULT false,
    read_app_ids     text[]  DEFAULT '{}',
    read_files       text[]  DEFAULT NULL,
    through_version  bigint  DEFAULT NULL,
    mode             text    DEFAULT NULL)
RETURNS TABLE (
    winning_version  bigint,
    "check"          text,
    path             text,
    decision         text,
    reason           text)
AS 'MODULE_PATHNAME', 'deltacc_explain_conflicts'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.explain_conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) IS
'Every candidate decision of the conflict check (conflict, skipped or kept) with its reason; same arguments as deltacc.conflicts.';

REVOKE ALL ON FUNCTION deltacc.explain_conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.explain_conflicts(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) TO pg_read_server_files;

CREATE FUNCTION deltacc.assert_no_conflict(
    table_path       text,
    read_version     bigint,
    read_predicates  text[]  DEFAULT '{}',
    actions          jsonb   DEFAULT '[]',
    isolation_level  text    DEFAULT NULL,
    read_whole_table boolean DEFAULT false,
    read_app_ids     text[]  DEFAULT '{}',
    read_files       text[]  DEFAULT NULL,
    through_version  bigint  DEFAULT NULL,
    mode             text    DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'deltacc_assert_no_conflict'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.assert_no_conflict(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) IS
'Returns nothing when the commit would succeed; otherwise raises SQLSTATE 40001 naming the Delta exception (first conflict of deltacc.conflicts).';

REVOKE ALL ON FUNCTION deltacc.assert_no_conflict(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.assert_no_conflict(text, bigint, text[], jsonb, text, boolean, text[], text[], bigint, text) TO pg_read_server_files;

-- ---------------------------------------------------------------------------
-- The session cache of decoded commits behind the conflict functions
-- (src/snapshot/commit_cache.c, GUC deltacc.commit_cache_size).
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.commit_cache_stats(
    OUT entries   bigint,
    OUT bytes     bigint,
    OUT hits      bigint,
    OUT misses    bigint,
    OUT evictions bigint,
    OUT stale     bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'deltacc_commit_cache_stats'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION deltacc.commit_cache_stats() IS
'This session''s cache of decoded Delta commits used by the conflict functions: entries and bytes held (bounded by deltacc.commit_cache_size), lookups served from it (hits) or read from disk (misses), entries evicted to stay under the limit, and entries dropped because their commit file changed (stale).';

REVOKE ALL ON FUNCTION deltacc.commit_cache_stats() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.commit_cache_stats() TO pg_read_server_files;

-- ---------------------------------------------------------------------------
-- Deletion vectors (src/rows/deletion_vector.c)
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.deletion_vector(
    table_path text,
    descriptor jsonb,
    OUT storage_type text,
    OUT path text,
    OUT "offset" integer,
    OUT size_in_bytes integer,
    OUT cardinality bigint,
    OUT row_indexes bigint[])
RETURNS record
AS 'MODULE_PATHNAME', 'deltacc_deletion_vector'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION deltacc.deletion_vector(text, jsonb) IS
'Decodes a deletion-vector descriptor (the deletionVector object of an add or remove, as in deltacc.snapshot_files) of the Delta table at table_path: its storage type, file (relative to the table root for "u", absolute for "p", NULL for inline), offset, size, cardinality and the deleted row indexes in ascending order. The file''s framing, CRC-32 and the cardinality are verified. Requires pg_read_server_files.';

REVOKE ALL ON FUNCTION deltacc.deletion_vector(text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.deletion_vector(text, jsonb) TO pg_read_server_files;

-- ---------------------------------------------------------------------------
-- Reading rows (src/funcs/funcs_rows.c)
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.read_rows(
    table_path text,
    version bigint DEFAULT NULL,
    predicate text DEFAULT NULL)
RETURNS SETOF jsonb
AS 'MODULE_PATHNAME', 'deltacc_read_rows'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION deltacc.read_rows(text, bigint, text) IS
'The live rows of the Delta table at table_path at version (NULL: latest), deletion vectors applied and partition columns filled in, one jsonb object per row keyed by logical column names (structs nested, arrays as JSON arrays, maps with string keys as objects, other maps as arrays of {"key","value"} objects; column mapping resolved at every level). Timestamps are ISO-8601 UTC strings, decimals JSON numbers at full precision, binary "\\x" hex. predicate (a read predicate over the logical columns) filters the rows. Requires pg_read_server_files.';

REVOKE ALL ON FUNCTION deltacc.read_rows(text, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.read_rows(text, bigint, text) TO pg_read_server_files;

CREATE FUNCTION deltacc.read_parquet(path text)
RETURNS SETOF jsonb
AS 'MODULE_PATHNAME', 'deltacc_read_parquet'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION deltacc.read_parquet(text) IS
'Every row of the Parquet file at the absolute path, or of every data file of the directory at path (names not starting with "." or "_", in name order), one jsonb object per row keyed by the Parquet field names, values rendered exactly as read_rows renders them. Requires pg_read_server_files.';

REVOKE ALL ON FUNCTION deltacc.read_parquet(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.read_parquet(text) TO pg_read_server_files;
