
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
