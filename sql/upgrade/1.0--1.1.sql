/* deltacc update script 1.0 -> 1.1: the Makefile assembles sql/deltacc--1.0--1.1.sql from this file and the parts new in 1.1 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION deltacc UPDATE TO '1.1'" to load this file. \quit

-- 1.0 granted EXECUTE on the file-reading functions to pg_read_server_files
-- but no USAGE on the schema, so a role that was only a member of
-- pg_read_server_files could call none of them (sql/parts/05_guard.sql).
GRANT USAGE ON SCHEMA deltacc TO pg_read_server_files;
