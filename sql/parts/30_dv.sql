
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
