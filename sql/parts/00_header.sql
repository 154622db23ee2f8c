/* deltacc install script: the Makefile assembles sql/deltacc--<version>.sql from sql/parts/ */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION deltacc" to load this file. \quit

-- The extension lives in schema deltacc (see deltacc.control).  Every object
-- below is schema-qualified and every catalog function or operator used in a
-- body is pg_catalog-qualified, so a hostile search_path cannot capture it.
