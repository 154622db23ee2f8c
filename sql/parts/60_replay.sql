
-- ---------------------------------------------------------------------------
-- History replay and audit (src/funcs/funcs_replay.c).  These functions
-- read no files (their inputs are all arguments): no pg_read_server_files
-- requirement, EXECUTE stays with PUBLIC.  Valid in the install script and
-- in the 1.0 -> 1.1 upgrade script alike.
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.spark_predicate(predicate pg_catalog.text)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'deltacc_spark_predicate'
LANGUAGE C IMMUTABLE PARALLEL SAFE STRICT;

COMMENT ON FUNCTION deltacc.spark_predicate(pg_catalog.text) IS
'The read predicate (a PostgreSQL expression over the logical columns) equivalent to a predicate as a Delta writer recorded it in commitInfo.operationParameters (Spark''s toString and .sql forms, delta-rs''s printer, or a JSON array of them), or NULL when it cannot be translated faithfully: then treat the commit as a read of the whole table. A translation may be a superset of the writer''s rows (a dropped conjunct, a timestamp in an unknown session time zone), never a subset. Without a schema, names and literal types are taken as printed (see deltacc.explain_spark_predicate). Reads no files: no pg_read_server_files needed.';

CREATE FUNCTION deltacc.explain_spark_predicate(
    predicate pg_catalog.text,
    schema_string pg_catalog.text DEFAULT NULL,
    engine_info pg_catalog.text DEFAULT NULL,
    OUT read_predicate pg_catalog.text,
    OUT outcome pg_catalog.text,
    OUT reason pg_catalog.text)
RETURNS pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_explain_spark_predicate'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.explain_spark_predicate(pg_catalog.text, pg_catalog.text, pg_catalog.text) IS
'deltacc.spark_predicate against a table schema (a metaData schemaString: columns resolved case-insensitively, every literal checked against its column''s type) and a writer (commitInfo.engineInfo: delta-rs or Spark; NULL: decided from the text): the read predicate or NULL, the outcome (exact, widened: a superset of the writer''s rows, none) and the reason for anything not exact. Reads no files: no pg_read_server_files needed.';
