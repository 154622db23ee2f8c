
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
