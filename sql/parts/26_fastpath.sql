-- ---------------------------------------------------------------------------
-- Hit counters of the log-reading fast paths (src/common/fastpath.c), new in
-- 1.1.  Valid in the install script and in the 1.0 -> 1.1 upgrade script
-- alike.
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.fastpath_stats(
    reset pg_catalog.bool DEFAULT false,
    OUT fast_path pg_catalog.text,
    OUT hits pg_catalog.int8,
    OUT misses pg_catalog.int8,
    OUT misses_go_to pg_catalog.text)
RETURNS SETOF pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_fastpath_stats'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION deltacc.fastpath_stats(pg_catalog.bool) IS
'This session''s counts of what each fast path of the log reader took (hits) and handed on (misses) since the session started or the last reset, and where it hands them: another fast path or the parse tree. reset => true sets the counters to zero after reading them. A fast path that sends lines of a real writer''s log to the parse tree is a bug.';

REVOKE ALL ON FUNCTION deltacc.fastpath_stats(pg_catalog.bool) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.fastpath_stats(pg_catalog.bool) TO pg_read_server_files;
