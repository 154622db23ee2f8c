-- ---------------------------------------------------------------------------
-- Object-store settings and credentials (src/storage/storage_options.c):
-- the foreign-data wrapper deltacc_storage, whose servers hold non-secret
-- settings per URL prefix and whose user mappings hold secrets.  USAGE on
-- the wrapper is granted to nobody, so only superusers create its servers
-- (the validator refuses server options set by anyone else as well): a role
-- that could create a server with a longer url_prefix could capture other
-- roles' reads.  New in 1.1.
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.storage_validator(pg_catalog.text[], pg_catalog.oid)
RETURNS void
AS 'MODULE_PATHNAME', 'deltacc_storage_validator'
LANGUAGE C STRICT;

COMMENT ON FUNCTION deltacc.storage_validator(pg_catalog.text[], pg_catalog.oid) IS
'Validator of the foreign-data wrapper deltacc_storage: servers take url_prefix, endpoint, region, url_style and account; user mappings take only the secrets key_id, secret, session_token, account_key, sas_token.';

REVOKE ALL ON FUNCTION deltacc.storage_validator(pg_catalog.text[], pg_catalog.oid) FROM PUBLIC;

CREATE FOREIGN DATA WRAPPER deltacc_storage VALIDATOR deltacc.storage_validator;

COMMENT ON FOREIGN DATA WRAPPER deltacc_storage IS
'Object-store locations of Delta tables: one server per url_prefix (superusers only), secrets in user mappings.';

CREATE FUNCTION deltacc.storage_server_for(
    url                 pg_catalog.text,
    OUT server          pg_catalog.name,
    OUT server_options  pg_catalog.text[],
    OUT mapping_options pg_catalog.text[])
RETURNS record
AS 'MODULE_PATHNAME', 'deltacc_storage_server_for'
LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;

COMMENT ON FUNCTION deltacc.storage_server_for(pg_catalog.text) IS
'The deltacc_storage server that serves an object-store URL for the current user (the longest matching url_prefix among servers the user has USAGE on), its options, and the names (never the values) of the options of the user mapping that applies.';

REVOKE ALL ON FUNCTION deltacc.storage_server_for(pg_catalog.text) FROM PUBLIC;
