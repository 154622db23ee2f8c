
-- ---------------------------------------------------------------------------
-- Catalog-managed tables (owner: catalog; src/coord, src/funcs/funcs_catalog.c):
-- this database as the commit coordinator of Delta tables.  Valid both in
-- the install script and appended to an upgrade script.
--
-- The catalog's state is two configuration tables (pg_dump includes their
-- rows).  Nobody but the extension's owner has privileges on them: the
-- functions below check their callers' roles in C and then read and write
-- the tables as the owner, so that a committer cannot ratify around the
-- conflict check with a plain INSERT.
-- ---------------------------------------------------------------------------

-- The role of committers.  Roles belong to the cluster, not to a database
-- or an extension: it is created only when no role of that name exists
-- (an existing one is used as it is), and DROP EXTENSION leaves it.
DO $role$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles
					WHERE rolname OPERATOR(pg_catalog.=) 'deltacc_committer') THEN
		CREATE ROLE deltacc_committer NOLOGIN;
	END IF;
END
$role$;

-- One row per registered table.  latest_version is the latest ratified
-- version, the catalog's word (-1: none yet); published_version the
-- latest one recorded as copied to _delta_log/<v>.json.
CREATE TABLE deltacc.managed_tables (
    table_path        pg_catalog.text PRIMARY KEY,
    table_id          pg_catalog.text,
    latest_version    pg_catalog.int8 NOT NULL,
    published_version pg_catalog.int8 NOT NULL,
    registered_at     pg_catalog.timestamptz NOT NULL,
    CONSTRAINT managed_tables_versions
        CHECK (published_version >= -1 AND published_version <= latest_version)
);

-- One row per version ratified through this catalog (the versions of the
-- log at registration have none).  Exactly one of staged_path (relative to
-- the table root) and content (an inline commit's bytes) is set;
-- content_sha256 is the hash of the ratified bytes either way.  A row is
-- inserted only by deltacc.commit, holding the lock of its table's row in
-- managed_tables, so table_path always names a registered table; it has no
-- foreign key (whose check would lock that row again in every commit).
CREATE TABLE deltacc.ratified_commits (
    table_path          pg_catalog.text NOT NULL,
    version             pg_catalog.int8 NOT NULL,
    txn_id              pg_catalog.text NOT NULL,
    in_commit_timestamp pg_catalog.timestamptz,
    staged_path         pg_catalog.text,
    content             pg_catalog.bytea,
    content_sha256      pg_catalog.bytea NOT NULL,
    ratified_at         pg_catalog.timestamptz NOT NULL,
    published_at        pg_catalog.timestamptz,
    PRIMARY KEY (table_path, version),
    CONSTRAINT ratified_commits_txn_id UNIQUE (table_path, txn_id),
    CONSTRAINT ratified_commits_one_source
        CHECK ((staged_path IS NULL) <> (content IS NULL))
);

SELECT pg_catalog.pg_extension_config_dump('deltacc.managed_tables', '');
SELECT pg_catalog.pg_extension_config_dump('deltacc.ratified_commits', '');

REVOKE ALL ON TABLE deltacc.managed_tables FROM PUBLIC;
REVOKE ALL ON TABLE deltacc.ratified_commits FROM PUBLIC;

CREATE FUNCTION deltacc.register_table(table_path pg_catalog.text)
RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'deltacc_register_table'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION deltacc.register_table(pg_catalog.text) IS
'make this database the catalog of a Delta table: its published log (possibly empty) becomes the ratified history; returns the latest version (-1 for an empty log)';

CREATE FUNCTION deltacc.commit(
    table_path       pg_catalog.text,
    read_version     pg_catalog.int8,
    actions          pg_catalog.jsonb,
    read_predicates  pg_catalog.text[]  DEFAULT '{}',
    read_whole_table pg_catalog.bool    DEFAULT false,
    read_app_ids     pg_catalog.text[]  DEFAULT '{}',
    read_files       pg_catalog.text[]  DEFAULT NULL,
    isolation_level  pg_catalog.text    DEFAULT NULL,
    mode             pg_catalog.text    DEFAULT NULL,
    staged_path      pg_catalog.text    DEFAULT NULL)
RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'deltacc_commit'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION deltacc.commit(pg_catalog.text, pg_catalog.int8, pg_catalog.jsonb, pg_catalog.text[], pg_catalog.bool, pg_catalog.text[], pg_catalog.text[], pg_catalog.text, pg_catalog.text, pg_catalog.text) IS
'ratify a commit of a registered table inside the caller''s transaction: checks it against every version after read_version as deltacc.conflicts does in that mode (40001 on a conflict), rebases it and returns its version; actions NULL with staged_path: the staged file''s actions';

CREATE FUNCTION deltacc.latest_version(table_path pg_catalog.text)
RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'deltacc_latest_version'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.latest_version(pg_catalog.text) IS
'the latest ratified version of a registered table (the catalog''s word, authoritative over the file system)';

CREATE FUNCTION deltacc.ratified_commits(table_path pg_catalog.text,
    start_version pg_catalog.int8 DEFAULT NULL,
    end_version pg_catalog.int8 DEFAULT NULL,
    OUT version pg_catalog.int8,
    OUT staged_path pg_catalog.text,
    OUT content pg_catalog.text,
    OUT in_commit_timestamp pg_catalog.timestamptz,
    OUT ratified_at pg_catalog.timestamptz,
    OUT published boolean)
RETURNS SETOF pg_catalog.record
AS 'MODULE_PATHNAME', 'deltacc_ratified_commits'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION deltacc.ratified_commits(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) IS
'the commits ratified through the catalog in a version range, ascending, from one snapshot (getRatifiedCommits)';

CREATE FUNCTION deltacc.publish(table_path pg_catalog.text,
                                through_version pg_catalog.int8 DEFAULT NULL)
RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'deltacc_publish'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION deltacc.publish(pg_catalog.text, pg_catalog.int8) IS
'copy committed ratifications, in version order, to _delta_log/<v>.json without ever overwriting (temporary file, fsync, link, fsync of the directory); returns the last published version';

-- Registering, committing and publishing need deltacc_committer (publishing
-- writes server files: pg_write_server_files too); reading the catalog
-- needs pg_read_server_files, like every reading function.  The C code
-- checks the same memberships.
REVOKE ALL ON FUNCTION deltacc.register_table(pg_catalog.text) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.commit(pg_catalog.text, pg_catalog.int8, pg_catalog.jsonb, pg_catalog.text[], pg_catalog.bool, pg_catalog.text[], pg_catalog.text[], pg_catalog.text, pg_catalog.text, pg_catalog.text) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.latest_version(pg_catalog.text) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.ratified_commits(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) FROM PUBLIC;
REVOKE ALL ON FUNCTION deltacc.publish(pg_catalog.text, pg_catalog.int8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.register_table(pg_catalog.text) TO deltacc_committer;
GRANT EXECUTE ON FUNCTION deltacc.commit(pg_catalog.text, pg_catalog.int8, pg_catalog.jsonb, pg_catalog.text[], pg_catalog.bool, pg_catalog.text[], pg_catalog.text[], pg_catalog.text, pg_catalog.text, pg_catalog.text) TO deltacc_committer;
GRANT EXECUTE ON FUNCTION deltacc.latest_version(pg_catalog.text) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION deltacc.ratified_commits(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION deltacc.publish(pg_catalog.text, pg_catalog.int8) TO deltacc_committer;
