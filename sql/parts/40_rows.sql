
-- ---------------------------------------------------------------------------
-- Reading rows (src/funcs_rows.c)
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.read_rows(
    table_path text,
    version bigint DEFAULT NULL,
    predicate text DEFAULT NULL)
RETURNS SETOF jsonb
AS 'MODULE_PATHNAME', 'deltacc_read_rows'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION deltacc.read_rows(text, bigint, text) IS
'The live rows of the Delta table at table_path at version (NULL: latest), deletion vectors applied and partition columns filled in, one jsonb object per row keyed by logical column names (structs nested). Timestamps are ISO-8601 UTC strings, decimals JSON numbers at full precision, binary "\\x" hex. predicate (a read predicate over the logical columns) filters the rows. Arrays and maps are not supported. Requires pg_read_server_files.';

REVOKE ALL ON FUNCTION deltacc.read_rows(text, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.read_rows(text, bigint, text) TO pg_read_server_files;
