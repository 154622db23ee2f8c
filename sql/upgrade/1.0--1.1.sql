/* deltacc update script 1.0 -> 1.1: the Makefile assembles sql/deltacc--1.0--1.1.sql from this file and the parts new in 1.1 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION deltacc UPDATE TO '1.1'" to load this file. \quit

-- 1.0 granted EXECUTE on the file-reading functions to pg_read_server_files
-- but no USAGE on the schema, so a role that was only a member of
-- pg_read_server_files could call none of them (sql/parts/05_guard.sql).
GRANT USAGE ON SCHEMA deltacc TO pg_read_server_files;

-- ---------------------------------------------------------------------------
-- snapshot_files in FROM as a scan that makes only the columns the query
-- reads (src/funcs/snapshot_scan.c): its planner support function, which
-- loads the library during planning (sql/parts/10_log.sql).
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.snapshot_files_support(pg_catalog.internal)
RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'deltacc_snapshot_files_support'
LANGUAGE C STRICT;

COMMENT ON FUNCTION deltacc.snapshot_files_support(pg_catalog.internal) IS
'planner support function of deltacc.snapshot_files (not called from SQL)';

ALTER FUNCTION deltacc.snapshot_files(pg_catalog.text, pg_catalog.int8)
    SUPPORT deltacc.snapshot_files_support;
