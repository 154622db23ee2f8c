
-- ---------------------------------------------------------------------------
-- History replay and audit (src/funcs/funcs_replay.c).  Valid in the
-- install script and in the 1.0 -> 1.1 upgrade script alike.
-- spark_predicate and explain_spark_predicate read no files (their inputs
-- are all arguments): no pg_read_server_files requirement, EXECUTE stays
-- with PUBLIC.
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

-- deltacc.replay and deltacc.concurrency read the table (and, in row_level
-- mode, its data files): revoked from PUBLIC and granted to
-- pg_read_server_files like every reading function, and checked in C.
-- Not STRICT: NULL versions mean the first / last commit, NULL modes the
-- default mode.  VOLATILE (the log may grow) and PARALLEL UNSAFE (each
-- check runs in a subtransaction, so that an error is reported as a
-- conflict of that commit rather than ending the query).

CREATE FUNCTION deltacc.replay(
    table_path   pg_catalog.text,
    from_version pg_catalog.int8 DEFAULT NULL,
    to_version   pg_catalog.int8 DEFAULT NULL,
    modes        pg_catalog.text[] DEFAULT '{partition,stats,row_level}')
RETURNS TABLE (
    version         pg_catalog.int8,
    read_version    pg_catalog.int8,
    operation       pg_catalog.text,
    read_predicate  pg_catalog.text,
    mode            pg_catalog.text,
    winning_version pg_catalog.int8,
    conflict        pg_catalog.text,
    path            pg_catalog.text,
    detail          pg_catalog.text)
AS 'MODULE_PATHNAME', 'deltacc_replay'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION deltacc.replay(pg_catalog.text, pg_catalog.int8, pg_catalog.int8, pg_catalog.text[]) IS
'Every commit from_version..to_version (NULL: first / last) that raced others (readVersion < version - 1), re-checked against the commits in between with its own actions and the reads its writer recorded (the predicate translated by spark_predicate over the schema at the read version, NULL read_predicate = the whole table, ''false'' = none; isolationLevel; isBlindAppend), one row per commit and mode (modes NULL: deltacc.default_mode); conflict NULL when the check passes, else the first conflict as deltacc.conflicts orders them. A partition-mode conflict is a commit Delta''s own rules say should have aborted. Commits without readVersion are not replayed. A check that cannot run (an unreadable input) is reported as ConcurrentModificationException with the error in detail, never as a pass.';

REVOKE ALL ON FUNCTION deltacc.replay(pg_catalog.text, pg_catalog.int8, pg_catalog.int8, pg_catalog.text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.replay(pg_catalog.text, pg_catalog.int8, pg_catalog.int8, pg_catalog.text[]) TO pg_read_server_files;

CREATE FUNCTION deltacc.concurrency(
    table_path      pg_catalog.text,
    from_version    pg_catalog.int8 DEFAULT NULL,
    to_version      pg_catalog.int8 DEFAULT NULL,
    mode            pg_catalog.text DEFAULT NULL,
    window_versions pg_catalog.int4 DEFAULT 10)
RETURNS TABLE (
    version_a pg_catalog.int8,
    version_b pg_catalog.int8,
    conflict  pg_catalog.text,
    path      pg_catalog.text)
AS 'MODULE_PATHNAME', 'deltacc_concurrency'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION deltacc.concurrency(pg_catalog.text, pg_catalog.int8, pg_catalog.int8, pg_catalog.text, pg_catalog.int4) IS
'What-if: for each pair of commits a < b of from_version..to_version (a >= 1) at most window_versions (NULL: 10) apart, whether b, with its own actions and recorded reads, would have conflicted with a had it read version a - 1 (mode NULL: deltacc.default_mode). One row per pair ordered by a, b; conflict NULL when the two could run side by side, ConcurrentModificationException when no Delta rule decided (b rewrites a file a added, path names it; or an input could not be read, path NULL).';

REVOKE ALL ON FUNCTION deltacc.concurrency(pg_catalog.text, pg_catalog.int8, pg_catalog.int8, pg_catalog.text, pg_catalog.int4) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.concurrency(pg_catalog.text, pg_catalog.int8, pg_catalog.int8, pg_catalog.text, pg_catalog.int4) TO pg_read_server_files;
