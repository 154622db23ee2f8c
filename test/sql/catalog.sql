--
-- catalog.sql: catalog-managed tables, this database as the commit
-- coordinator (deltacc.register_table, commit, latest_version,
-- ratified_commits, publish), each rule with the case that must still be
-- refused.  The tables of test/data/catalog (make_catalog.py), and
-- test/data/rowlevel/update for its data files, are copied to a scratch
-- directory first, since publishing writes into _delta_log.  The helpers
-- p(t), try(sql) and write_lines are in catalog_helpers.inc.
--
\getenv builddir PG_ABS_BUILDDIR
\set cdir :builddir '/results/catalog_data'
\setenv CATALOG_DIR :cdir
\! rm -rf "$CATALOG_DIR" && mkdir -p "$CATALOG_DIR" && cp -r "$PG_ABS_SRCDIR/data/catalog/plain" "$PG_ABS_SRCDIR/data/catalog/cm" "$PG_ABS_SRCDIR/data/catalog/rt" "$PG_ABS_SRCDIR/data/catalog/part" "$CATALOG_DIR/" && cp -r "$PG_ABS_SRCDIR/data/rowlevel/update" "$CATALOG_DIR/rows" && cp -r "$PG_ABS_SRCDIR/data/catalog/plain" "$CATALOG_DIR/cache" && mkdir -p "$CATALOG_DIR/empty/_delta_log" && for t in plain cm rt part empty; do mkdir -p "$CATALOG_DIR/$t/_delta_log/_staged_commits"; done && chmod -R a+rwX "$CATALOG_DIR" && chmod a+rx "$PG_ABS_BUILDDIR/results"
SELECT set_config('catalog_test.dir', :'cdir', false) IS NOT NULL AS ok;

\getenv srcdir PG_ABS_SRCDIR
\i :srcdir/sql/catalog_helpers.inc

-- the catalog's tables are extension configuration tables (pg_dump dumps
-- their rows), and nobody but the owner has privileges on them
SELECT unnest(extconfig)::regclass AS config_table, unnest(extcondition) AS condition
  FROM pg_extension WHERE extname = 'deltacc' ORDER BY 1;
SELECT relname, relacl FROM pg_class
 WHERE relnamespace = 'deltacc'::regnamespace AND relkind = 'r' ORDER BY 1;
SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname = 'deltacc_committer';

-- ---------------------------------------------------------------------------
-- Registration
-- ---------------------------------------------------------------------------

-- a catalogManaged table nobody registered: refused, with a hint
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.snapshot_files(%L)', pg_temp.p('cm')));
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.conflicts(%L, 0)', pg_temp.p('cm')));
SELECT pg_temp.try(format('SELECT deltacc.latest_version(%L)', pg_temp.p('cm')));
SELECT pg_temp.try(format('SELECT deltacc.commit(%L, 0, ''[]'')', pg_temp.p('cm')));
-- registered, it is read through the catalog
SELECT deltacc.register_table(pg_temp.p('cm'));
SELECT count(*) AS cm_files FROM deltacc.snapshot_files(pg_temp.p('cm'));
-- a table with a published log: its latest version; twice is an error
SELECT deltacc.register_table(pg_temp.p('plain'));
SELECT pg_temp.try(format('SELECT deltacc.register_table(%L)', pg_temp.p('plain') || '/'));
-- an empty log is a table at version -1 (unregistered, it is no table)
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.history(%L)', pg_temp.p('empty')));
SELECT deltacc.register_table('file://' || pg_temp.p('empty'));
SELECT deltacc.latest_version(pg_temp.p('empty')), count(h.*) AS commits
  FROM deltacc.history(pg_temp.p('empty')) h;
SELECT deltacc.register_table(pg_temp.p('rt')), deltacc.register_table(pg_temp.p('part'));
SELECT replace(table_path, current_setting('catalog_test.dir'), '<dir>') AS table_path,
       table_id, latest_version, published_version
  FROM deltacc.managed_tables ORDER BY 1;

-- ---------------------------------------------------------------------------
-- Inline commits and the conflict check
-- ---------------------------------------------------------------------------

-- read version 0 with id < 100, rewrite a.parquet; version 1 (a blind
-- append of c.parquet, ids 200..299) is ruled out by its statistics
SELECT deltacc.commit(pg_temp.p('plain'), 0,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-a","isBlindAppend":false}},
    {"remove":{"path":"a.parquet","dataChange":true}},
    {"add":{"path":"a2.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":100,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":99},\"nullCount\":{\"id\":0}}"}}]',
  ARRAY['id < 100']) AS version;
-- must still conflict: a read that c.parquet may match (40001, the Delta
-- exception, the winning version and file)
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 0,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-b"}},{"remove":{"path":"b.parquet","dataChange":true}}]',
  ARRAY['id >= 150'])$q$, pg_temp.p('plain')));
-- the same disjoint read as w-a, Delta's own rule (partition mode): any
-- added file of an unpartitioned table conflicts
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 0,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-c"}},{"remove":{"path":"a.parquet","dataChange":true}}]',
  ARRAY['id < 100'], mode => 'partition')$q$, pg_temp.p('plain')));
-- deltacc.conflicts gives the same verdicts over the ratified versions
SELECT winning_version, conflict, path FROM deltacc.conflicts(pg_temp.p('plain'), 0,
  ARRAY['id >= 150'], '[{"remove":{"path":"b.parquet","dataChange":true}}]');

-- two writers on disjoint ranges of version 2: both commit in stats mode
SELECT deltacc.commit(pg_temp.p('plain'), 2,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-d"}},
    {"remove":{"path":"a2.parquet","dataChange":true}},
    {"add":{"path":"a3.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":100,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":99},\"nullCount\":{\"id\":0}}"}}]',
  ARRAY['id BETWEEN 0 AND 99'], mode => 'stats') AS version;
SELECT deltacc.commit(pg_temp.p('plain'), 2,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-e"}},
    {"remove":{"path":"b.parquet","dataChange":true}},
    {"add":{"path":"b2.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":100,\"minValues\":{\"id\":100},\"maxValues\":{\"id\":199},\"nullCount\":{\"id\":0}}"}}]',
  ARRAY['id BETWEEN 100 AND 199'], mode => 'stats') AS version;
-- ... where Delta's partition rule aborts the second
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 2,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-f"}},{"remove":{"path":"b.parquet","dataChange":true}}]',
  ARRAY['id BETWEEN 100 AND 199'], mode => 'partition')$q$, pg_temp.p('plain')));
-- the default mode is deltacc.default_mode
SET deltacc.default_mode = 'partition';
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 2,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"w-f"}},{"remove":{"path":"b.parquet","dataChange":true}}]',
  ARRAY['id BETWEEN 100 AND 199'])$q$, pg_temp.p('plain')));
RESET deltacc.default_mode;
-- why the second could commit, as an analyst asks it
SELECT winning_version, "check", path, decision FROM deltacc.explain_conflicts(pg_temp.p('plain'), 2,
  ARRAY['id BETWEEN 100 AND 199'], '[{"remove":{"path":"b.parquet","dataChange":true}}]',
  through_version => 3)
 ORDER BY 1, 2, 3;

-- ---------------------------------------------------------------------------
-- txnId: required, and a retried request returns its version again
-- ---------------------------------------------------------------------------
SELECT deltacc.commit(pg_temp.p('plain'), 0, '[{"commitInfo":{"operation":"UPDATE","txnId":"w-d"}}]') AS retried;
SELECT deltacc.latest_version(pg_temp.p('plain'));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 4, '[{"commitInfo":{"operation":"WRITE"}}]')$q$, pg_temp.p('plain')));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 4, '[{"add":{"path":"x.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]')$q$, pg_temp.p('plain')));
-- one source: actions or a staged file
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 4, NULL)$q$, pg_temp.p('plain')));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 4, '[]', staged_path => '_delta_log/_staged_commits/00000000000000000005.6f1c2a7e-0d4e-4c39-9b1e-2f7d9a1c0b35.json')$q$, pg_temp.p('plain')));
-- a read version ahead of the catalog; an unknown isolation level (with
-- no commit to check against too); an unregistered table
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 7, '[{"commitInfo":{"txnId":"w-g"}}]')$q$, pg_temp.p('plain')));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 4, '[{"commitInfo":{"txnId":"w-g"}}]', isolation_level => 'Bogus')$q$, pg_temp.p('plain')));
SELECT pg_temp.try($q$SELECT deltacc.commit('/nonexistent/table', 0, '[]')$q$);

-- ---------------------------------------------------------------------------
-- Readers see the ratified commits, published or not; the catalog's copy
-- wins over a file; files above the latest ratified version are ignored
-- ---------------------------------------------------------------------------
SELECT version, operation, num_actions FROM deltacc.history(pg_temp.p('plain'));
SELECT path FROM deltacc.snapshot_files(pg_temp.p('plain')) ORDER BY 1;
SELECT version, num_files FROM deltacc.table_info(pg_temp.p('plain'));
SELECT path FROM deltacc.files_for_scan(pg_temp.p('plain'), ARRAY['id < 50']);
SELECT deltacc.load_log(pg_temp.p('plain')) AS actions;
SELECT version, action, path FROM pg_temp.delta_files
 WHERE table_path = pg_temp.p('plain') AND version >= 2 ORDER BY 1, 2, 3;
-- a rogue writer publishes version 4 with other bytes and version 5 above
-- the catalog's latest
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/00000000000000000004.json'),
  ARRAY['{"commitInfo":{"operation":"ROGUE","txnId":"rogue-4"}}',
        '{"add":{"path":"rogue4.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}']);
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/00000000000000000005.json'),
  ARRAY['{"commitInfo":{"operation":"ROGUE","txnId":"rogue-5"}}',
        '{"add":{"path":"rogue5.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}']);
SELECT version, operation FROM deltacc.history(pg_temp.p('plain')) WHERE version >= 3;
SELECT path FROM deltacc.snapshot_files(pg_temp.p('plain')) ORDER BY 1;
SELECT deltacc.load_log(pg_temp.p('plain')) AS actions;
SELECT count(*) AS rows_from_rogue_files FROM pg_temp.delta_files
 WHERE table_path = pg_temp.p('plain') AND path LIKE 'rogue%';
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.snapshot_files(%L, 5)', pg_temp.p('plain')));
SELECT count(*) AS winners FROM deltacc.explain_conflicts(pg_temp.p('plain'), 3, ARRAY['true'])
 WHERE winning_version > 4;

-- a version the session's commit cache decoded from its file (version 1 of
-- a copy of plain: c.parquet, ids 200..299) is removed from the log, and
-- version 1 ratified with other content (d.parquet, ids 500..599): the
-- check reads the catalog's copy (the cache keys it by its hash)
SELECT pg_sleep(1.1);	-- (the cache takes files left alone for a second)
SELECT path FROM deltacc.conflicts(pg_temp.p('cache'), 0, ARRAY['id >= 200'],
  '[{"remove":{"path":"b.parquet","dataChange":true}}]');
\! rm "$CATALOG_DIR/cache/_delta_log/00000000000000000001.json"
SELECT deltacc.register_table(pg_temp.p('cache'));
SELECT deltacc.commit(pg_temp.p('cache'), 0,
  '[{"commitInfo":{"operation":"WRITE","txnId":"k-1","isBlindAppend":true}},
    {"add":{"path":"d.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":100,\"minValues\":{\"id\":500},\"maxValues\":{\"id\":599},\"nullCount\":{\"id\":0}}"}}]') AS version;
SELECT path FROM deltacc.conflicts(pg_temp.p('cache'), 0, ARRAY['id >= 200'],
  '[{"remove":{"path":"b.parquet","dataChange":true}}]');

-- ---------------------------------------------------------------------------
-- Publishing: in order, never overwriting, only what the bytes say
-- ---------------------------------------------------------------------------
-- the rogue version 4 differs: data_corrupted (versions 2 and 3 were
-- linked before it, the publication is not recorded: the call failed)
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('plain')));
SELECT version, published FROM deltacc.ratified_commits(pg_temp.p('plain'));
\! rm -f "$CATALOG_DIR/plain/_delta_log/00000000000000000004.json" "$CATALOG_DIR/plain/_delta_log/00000000000000000005.json"
-- through version 3: versions 2 and 3 exist with the ratified bytes
SELECT deltacc.publish(pg_temp.p('plain'), 3) AS published;
SELECT deltacc.publish(pg_temp.p('plain')) AS published;
SELECT deltacc.publish(pg_temp.p('plain')) AS published_again;
SELECT version, published FROM deltacc.ratified_commits(pg_temp.p('plain'));
SELECT latest_version, published_version FROM deltacc.managed_tables WHERE table_path = pg_temp.p('plain');
-- every published file is its ratification, byte for byte; no temporary
-- file is left
SELECT r.version,
       pg_read_binary_file(pg_temp.p('plain/_delta_log/' || lpad(r.version::text, 20, '0') || '.json'))
         = convert_to(r.content, 'UTF8') AS same_bytes
  FROM deltacc.ratified_commits(pg_temp.p('plain')) r;
SELECT f FROM pg_ls_dir(pg_temp.p('plain/_delta_log')) f WHERE f NOT LIKE '_staged%' ORDER BY 1;
SELECT pg_temp.try(format('SELECT deltacc.publish(%L, 9)', pg_temp.p('plain')));
-- never this transaction's own ratification, and a rollback takes it back
BEGIN;
SELECT deltacc.commit(pg_temp.p('plain'), 4,
  '[{"commitInfo":{"operation":"WRITE","txnId":"w-h","isBlindAppend":true}},
    {"add":{"path":"h.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS version;
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('plain')));
SELECT deltacc.latest_version(pg_temp.p('plain'));
ROLLBACK;
SELECT deltacc.latest_version(pg_temp.p('plain')), count(*) AS ratified
  FROM deltacc.ratified_commits(pg_temp.p('plain'));
SELECT count(*) AS files_of_rolled_back FROM deltacc.snapshot_files(pg_temp.p('plain')) WHERE path = 'h.parquet';

-- ---------------------------------------------------------------------------
-- Two tables in one transaction: both or neither
-- ---------------------------------------------------------------------------
-- one commit on each of two tables (plain, and the first of empty)
CREATE FUNCTION pg_temp.two_tables(OUT plain_version bigint, OUT empty_version bigint)
LANGUAGE sql AS $$
SELECT deltacc.commit(pg_temp.p('plain'), 4,
  '[{"commitInfo":{"operation":"WRITE","txnId":"two-1","isBlindAppend":true}},
    {"add":{"path":"t1.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]'),
       deltacc.commit(pg_temp.p('empty'), -1,
  '[{"commitInfo":{"operation":"CREATE TABLE","txnId":"two-2"}},
    {"protocol":{"minReaderVersion":1,"minWriterVersion":2}},
    {"metaData":{"id":"55555555-5555-5555-5555-555555555555","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{}}}]')
$$;
-- (the first commit of a table has its protocol and metaData)
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, -1, '[{"commitInfo":{"txnId":"two-0"}},{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}]')$q$, pg_temp.p('empty')));
BEGIN;
SELECT * FROM pg_temp.two_tables();
ROLLBACK;
SELECT deltacc.latest_version(pg_temp.p('plain')) AS plain, deltacc.latest_version(pg_temp.p('empty')) AS empty;
BEGIN;
SELECT * FROM pg_temp.two_tables();
COMMIT;
SELECT deltacc.latest_version(pg_temp.p('plain')) AS plain, deltacc.latest_version(pg_temp.p('empty')) AS empty;
SELECT version, table_id FROM deltacc.table_info(pg_temp.p('empty'));
SELECT table_id FROM deltacc.managed_tables WHERE table_path = pg_temp.p('empty');
-- creating it again: the table exists (Delta's error for a concurrent
-- creation)
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, -1, '[{"commitInfo":{"txnId":"two-3"}},{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}]')$q$, pg_temp.p('empty')));

-- several commits of one table in one transaction, with a savepoint rolled
-- back and a commit that fails after taking the row lock in between: each
-- locks the row's newest version and updates that one
BEGIN;
SELECT deltacc.commit(pg_temp.p('empty'), 0,
  '[{"commitInfo":{"operation":"WRITE","txnId":"same-1","isBlindAppend":true}},
    {"add":{"path":"s1.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS v1;
SELECT deltacc.commit(pg_temp.p('empty'), 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"same-2","isBlindAppend":true}},
    {"add":{"path":"s2.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS v2;
SAVEPOINT s;
SELECT deltacc.commit(pg_temp.p('empty'), 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"same-3","isBlindAppend":true}},
    {"add":{"path":"s3.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS v3;
ROLLBACK TO s;
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 7, '[{"commitInfo":{"txnId":"same-x"}}]')$q$, pg_temp.p('empty')));
SELECT deltacc.commit(pg_temp.p('empty'), 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"same-4","isBlindAppend":true}},
    {"add":{"path":"s4.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS v3_again;
SELECT deltacc.commit(pg_temp.p('empty'), 3,
  '[{"commitInfo":{"operation":"WRITE","txnId":"same-5","isBlindAppend":true}},
    {"add":{"path":"s5.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS v4;
COMMIT;
SELECT deltacc.latest_version(pg_temp.p('empty')) AS latest,
       (SELECT latest_version FROM deltacc.managed_tables
         WHERE table_path = pg_temp.p('empty')) AS row_latest,
       (SELECT string_agg(version::text, ',' ORDER BY version)
          FROM deltacc.ratified_commits(pg_temp.p('empty'))) AS versions;
SELECT string_agg(path, ',' ORDER BY path) AS files
  FROM deltacc.snapshot_files(pg_temp.p('empty'));

-- ---------------------------------------------------------------------------
-- The bound on unpublished versions
-- ---------------------------------------------------------------------------
SET deltacc.max_unpublished_versions = 2;
SELECT deltacc.commit(pg_temp.p('plain'), 5,
  '[{"commitInfo":{"operation":"WRITE","txnId":"b-1","isBlindAppend":true}}]') AS version;
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 6, '[{"commitInfo":{"operation":"WRITE","txnId":"b-2"}}]')$q$, pg_temp.p('plain')));
-- a retry of a ratified txnId is still answered
SELECT deltacc.commit(pg_temp.p('plain'), 5, '[{"commitInfo":{"txnId":"b-1"}}]') AS retried;
SELECT deltacc.publish(pg_temp.p('plain')) AS published;
SELECT deltacc.commit(pg_temp.p('plain'), 6,
  '[{"commitInfo":{"operation":"WRITE","txnId":"b-2","isBlindAppend":true}}]') AS version;
RESET deltacc.max_unpublished_versions;

-- ---------------------------------------------------------------------------
-- Staged commits: the version in the name is authoritative
-- ---------------------------------------------------------------------------
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000008.0b8e4e26-7c0c-4a0e-8d38-5c7f3b1a9e01.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"s-1","isBlindAppend":true}}',
        '{"add":{"path":"s1.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":5,\"minValues\":{\"id\":500},\"maxValues\":{\"id\":504},\"nullCount\":{\"id\":0}}"}}']);
SELECT deltacc.commit(pg_temp.p('plain'), 7, NULL,
  staged_path => '_delta_log/_staged_commits/00000000000000000008.0b8e4e26-7c0c-4a0e-8d38-5c7f3b1a9e01.json') AS version;
SELECT version, staged_path, content IS NULL AS no_inline_content, published
  FROM deltacc.ratified_commits(pg_temp.p('plain'), 8);
SELECT path FROM deltacc.snapshot_files(pg_temp.p('plain')) WHERE path LIKE 's%';
-- a staged commit for a version that is taken: 40001, re-stage at the next
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000008.1c9f5f37-8d1d-4b1f-9e49-6d8a4c2b0f12.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"s-2","isBlindAppend":true}}',
        '{"add":{"path":"s2.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 7, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000008.1c9f5f37-8d1d-4b1f-9e49-6d8a4c2b0f12.json')$q$, pg_temp.p('plain')));
-- ... and one ahead of the table
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000010.2d0a6a48-9e2e-4c2a-8f5a-7e9b5d3c1a23.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"s-3","isBlindAppend":true}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 8, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000010.2d0a6a48-9e2e-4c2a-8f5a-7e9b5d3c1a23.json')$q$, pg_temp.p('plain')));
-- names are checked strictly before anything is read
SELECT s AS staged_path, pg_temp.try(format('SELECT deltacc.commit(%L, 8, NULL, staged_path => %L)', pg_temp.p('plain'), s)) AS outcome
  FROM unnest(ARRAY[
    '../00000000000000000009.2d0a6a48-9e2e-4c2a-8f5a-7e9b5d3c1a23.json',
    '_delta_log/_staged_commits/../00000000000000000009.json',
    '_delta_log/_staged_commits/9.2d0a6a48-9e2e-4c2a-8f5a-7e9b5d3c1a23.json',
    '_delta_log/_staged_commits/00000000000000000009.not-a-uuid-at-all-0000000000000000.json',
    '_delta_log/_staged_commits/00000000000000000009.2d0a6a48-9e2e-4c2a-8f5a-7e9b5d3c1a23.json/..',
    '/etc/00000000000000000009.2d0a6a48-9e2e-4c2a-8f5a-7e9b5d3c1a23.json',
    '_delta_log/00000000000000000009.json']) s;
-- a staged file that is not there
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 8, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000009.3e1b7b59-af3f-4d3b-9a6b-8fac6e4d2b34.json')$q$, pg_temp.p('plain')));
-- a staged file changed after its ratification: readers refuse it
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000008.0b8e4e26-7c0c-4a0e-8d38-5c7f3b1a9e01.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"s-1","isBlindAppend":true}}']);
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.history(%L)', pg_temp.p('plain')));
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('plain')));
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000008.0b8e4e26-7c0c-4a0e-8d38-5c7f3b1a9e01.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"s-1","isBlindAppend":true}}',
        '{"add":{"path":"s1.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":5,\"minValues\":{\"id\":500},\"maxValues\":{\"id\":504},\"nullCount\":{\"id\":0}}"}}']);
SELECT deltacc.publish(pg_temp.p('plain')) AS published;
SELECT pg_read_binary_file(pg_temp.p('plain/_delta_log/00000000000000000008.json'))
     = pg_read_binary_file(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000008.0b8e4e26-7c0c-4a0e-8d38-5c7f3b1a9e01.json'))
       AS published_is_staged;
-- a staged commit that conflicts is named as a conflict, not as a version
-- to re-stage
SELECT pg_temp.write_lines(pg_temp.p('plain/_delta_log/_staged_commits/00000000000000000009.4f2c8c6a-b04a-4e4c-8b7c-9abd7f5e3c45.json'),
  ARRAY['{"commitInfo":{"operation":"DELETE","txnId":"s-4"}}',
        '{"remove":{"path":"s1.parquet","dataChange":true}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 7, NULL, ARRAY['id >= 500'], staged_path => '_delta_log/_staged_commits/00000000000000000009.4f2c8c6a-b04a-4e4c-8b7c-9abd7f5e3c45.json')$q$, pg_temp.p('plain')));
SELECT deltacc.commit(pg_temp.p('plain'), 8, NULL, ARRAY['id >= 500'],
  staged_path => '_delta_log/_staged_commits/00000000000000000009.4f2c8c6a-b04a-4e4c-8b7c-9abd7f5e3c45.json') AS version;

-- ---------------------------------------------------------------------------
-- In-commit timestamps (table cm): strictly increasing, the catalog's
-- clock when the commit has none, commitInfo first
-- ---------------------------------------------------------------------------
SELECT deltacc.commit(pg_temp.p('cm'), 0,
  '[{"add":{"path":"b.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}},
    {"commitInfo":{"operation":"WRITE","txnId":"i-1","isBlindAppend":true}}]') AS version;
SELECT version, in_commit_timestamp > '2023-11-14 22:13:20+00' AS above_version_0,
       in_commit_timestamp <= clock_timestamp() AS not_in_future,
       content LIKE '{"commitInfo":%' AS commit_info_first,
       (regexp_match(content, '"inCommitTimestamp":([0-9]+)'))[1]::bigint
         = (extract(epoch FROM in_commit_timestamp) * 1000)::bigint AS stored_is_written
  FROM deltacc.ratified_commits(pg_temp.p('cm'));
-- a timestamp below the previous one becomes the previous one + 1 ms ...
SELECT deltacc.commit(pg_temp.p('cm'), 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"i-2","isBlindAppend":true,"inCommitTimestamp":1600000000000}}]') AS version;
-- ... one above it stays as it is
SELECT deltacc.commit(pg_temp.p('cm'), 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"i-3","isBlindAppend":true,"inCommitTimestamp":4102444800000}}]') AS version;
SELECT r2.in_commit_timestamp - r1.in_commit_timestamp AS step_2,
       r3.in_commit_timestamp AS ict_3
  FROM deltacc.ratified_commits(pg_temp.p('cm'), 1, 1) r1,
       deltacc.ratified_commits(pg_temp.p('cm'), 2, 2) r2,
       deltacc.ratified_commits(pg_temp.p('cm'), 3, 3) r3;
SELECT version, committed_at > lag(committed_at) OVER (ORDER BY version) AS increasing
  FROM deltacc.history(pg_temp.p('cm'));
-- a staged commit cannot be rebased: no timestamp, or one not above
SELECT pg_temp.write_lines(pg_temp.p('cm/_delta_log/_staged_commits/00000000000000000004.5a3d9d7b-c15b-4f5d-9c8d-abce8a6f4d56.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"i-4","isBlindAppend":true}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 3, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000004.5a3d9d7b-c15b-4f5d-9c8d-abce8a6f4d56.json')$q$, pg_temp.p('cm')));
SELECT pg_temp.write_lines(pg_temp.p('cm/_delta_log/_staged_commits/00000000000000000004.6b4eae8c-d26c-4a6e-8d9e-bcdf9b7a5e67.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"i-5","isBlindAppend":true,"inCommitTimestamp":4102444800000}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 3, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000004.6b4eae8c-d26c-4a6e-8d9e-bcdf9b7a5e67.json')$q$, pg_temp.p('cm')));
SELECT pg_temp.write_lines(pg_temp.p('cm/_delta_log/_staged_commits/00000000000000000004.7c5fbf9d-e37d-4b7f-8eaf-cde0ac8b6f78.json'),
  ARRAY['{"add":{"path":"z.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}',
        '{"commitInfo":{"operation":"WRITE","txnId":"i-6","isBlindAppend":true,"inCommitTimestamp":4102444800001}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 3, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000004.7c5fbf9d-e37d-4b7f-8eaf-cde0ac8b6f78.json')$q$, pg_temp.p('cm')));
SELECT pg_temp.write_lines(pg_temp.p('cm/_delta_log/_staged_commits/00000000000000000004.8d6ac0ae-f48e-4c8a-9fb0-def1bd9c7a89.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"i-7","isBlindAppend":true,"inCommitTimestamp":4102444800001}}']);
SELECT deltacc.commit(pg_temp.p('cm'), 3, NULL,
  staged_path => '_delta_log/_staged_commits/00000000000000000004.8d6ac0ae-f48e-4c8a-9fb0-def1bd9c7a89.json') AS version;
SELECT version, in_commit_timestamp FROM deltacc.ratified_commits(pg_temp.p('cm'), 4);
-- published, the catalog-managed table is read the same way
SELECT deltacc.publish(pg_temp.p('cm')) AS published;
SELECT version, num_files FROM deltacc.table_info(pg_temp.p('cm'));

-- ---------------------------------------------------------------------------
-- Row tracking (table rt; version 1 raised the high-water mark to 249)
-- ---------------------------------------------------------------------------
-- read version 0: the new file's row ids (assigned from 200 by the
-- writer) move above 249, the high-water mark and the row commit version
-- follow; the re-added a.parquet keeps its ids
SELECT deltacc.commit(pg_temp.p('rt'), 0,
  '[{"commitInfo":{"operation":"WRITE","txnId":"r-1","isBlindAppend":false}},
    {"remove":{"path":"a.parquet","dataChange":false}},
    {"add":{"path":"a.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":false,
            "stats":"{\"numRecords\":100}","baseRowId":0,"defaultRowCommitVersion":0,
            "tags":{"retagged":"true"}}},
    {"add":{"path":"d.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":10}","baseRowId":200,"defaultRowCommitVersion":1}},
    {"domainMetadata":{"domain":"delta.rowTracking","configuration":"{\"rowIdHighWaterMark\":209,\"domainName\":\"delta.rowTracking\"}","removed":false}}]',
  ARRAY['id < 0']) AS version;
SELECT path, base_row_id, default_row_commit_version FROM deltacc.snapshot_files(pg_temp.p('rt')) ORDER BY 1;
SELECT deltacc.load_log(pg_temp.p('rt')) AS actions;
SELECT domain, configuration FROM pg_temp.delta_domains
 WHERE table_path = pg_temp.p('rt') AND version = 2;
-- no winner raised the mark: the writer's ids stay; a file without ids gets
-- them, and the domain is added when the commit has none
SELECT deltacc.commit(pg_temp.p('rt'), 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"r-2","isBlindAppend":true}},
    {"add":{"path":"e.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":5}","baseRowId":260,"defaultRowCommitVersion":3}},
    {"domainMetadata":{"domain":"delta.rowTracking","configuration":"{\"rowIdHighWaterMark\":264,\"domainName\":\"delta.rowTracking\"}","removed":false}}]') AS version;
SELECT deltacc.commit(pg_temp.p('rt'), 3,
  '[{"commitInfo":{"operation":"WRITE","txnId":"r-3","isBlindAppend":true}},
    {"add":{"path":"f.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":7}"}}]') AS version;
SELECT path, base_row_id, default_row_commit_version FROM deltacc.snapshot_files(pg_temp.p('rt'))
 WHERE path IN ('e.parquet', 'f.parquet') ORDER BY 1;
SELECT deltacc.load_log(pg_temp.p('rt')) AS actions;
SELECT version, configuration FROM pg_temp.delta_domains
 WHERE table_path = pg_temp.p('rt') AND version >= 3 ORDER BY 1;
-- what cannot be rebased: ids needed but no numRecords; a backfill over
-- a concurrent commit
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 3,
  '[{"commitInfo":{"operation":"WRITE","txnId":"r-4","isBlindAppend":true}},
    {"add":{"path":"g.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]')$q$, pg_temp.p('rt')));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 3,
  '[{"commitInfo":{"operation":"ROW TRACKING BACKFILL","txnId":"r-5"}},
    {"add":{"path":"f.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":false,
            "stats":"{\"numRecords\":7}","baseRowId":265}}]')$q$, pg_temp.p('rt')));
-- a staged commit with ids below the mark: re-stage
SELECT pg_temp.write_lines(pg_temp.p('rt/_delta_log/_staged_commits/00000000000000000005.9e7bd1bf-059f-4d9b-8a01-ef02ce0d8b9a.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"r-6","isBlindAppend":true}}',
        '{"add":{"path":"h.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":3}","baseRowId":265,"defaultRowCommitVersion":5}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 3, NULL, staged_path => '_delta_log/_staged_commits/00000000000000000005.9e7bd1bf-059f-4d9b-8a01-ef02ce0d8b9a.json')$q$, pg_temp.p('rt')));
SELECT pg_temp.write_lines(pg_temp.p('rt/_delta_log/_staged_commits/00000000000000000005.af8ce2c0-16a0-4eac-9b12-f013df1e9cab.json'),
  ARRAY['{"commitInfo":{"operation":"WRITE","txnId":"r-7","isBlindAppend":true}}',
        '{"add":{"path":"h.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":3}","baseRowId":272,"defaultRowCommitVersion":5}}',
        '{"domainMetadata":{"domain":"delta.rowTracking","configuration":"{\"rowIdHighWaterMark\":274}","removed":false}}']);
SELECT deltacc.commit(pg_temp.p('rt'), 3, NULL,
  staged_path => '_delta_log/_staged_commits/00000000000000000005.af8ce2c0-16a0-4eac-9b12-f013df1e9cab.json') AS version;

-- ---------------------------------------------------------------------------
-- App transactions (version 1 of rt set "app" to 1)
-- ---------------------------------------------------------------------------
-- Delta's check: the commit read "app", a winner wrote it
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 0,
  '[{"commitInfo":{"operation":"STREAMING UPDATE","txnId":"a-1"}},{"txn":{"appId":"app","version":1}}]',
  read_app_ids => ARRAY['app'])$q$, pg_temp.p('rt')));
-- must still be refused without the declared read: the version does not
-- rise over the winner's
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 0,
  '[{"commitInfo":{"operation":"STREAMING UPDATE","txnId":"a-1"}},{"txn":{"appId":"app","version":1}}]')$q$, pg_temp.p('rt')));
-- above it, it commits; the same version again is refused
SELECT deltacc.commit(pg_temp.p('rt'), 5,
  '[{"commitInfo":{"operation":"STREAMING UPDATE","txnId":"a-2"}},{"txn":{"appId":"app","version":2}}]') AS version;
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 6,
  '[{"commitInfo":{"operation":"STREAMING UPDATE","txnId":"a-3"}},{"txn":{"appId":"app","version":2}}]')$q$, pg_temp.p('rt')));
SELECT deltacc.load_log(pg_temp.p('rt')) AS actions;
SELECT version, app_id, txn_version FROM pg_temp.delta_txns
 WHERE table_path = pg_temp.p('rt') ORDER BY version;

-- ---------------------------------------------------------------------------
-- Partitioned: the partition of the conflict in the message
-- ---------------------------------------------------------------------------
SELECT deltacc.commit(pg_temp.p('part'), 0,
  '[{"commitInfo":{"operation":"WRITE","txnId":"p-1","isBlindAppend":true}},
    {"add":{"path":"region=EU/e1.parquet","partitionValues":{"region":"EU"},"size":1,"modificationTime":1,"dataChange":true}}]') AS version;
SELECT deltacc.commit(pg_temp.p('part'), 0,
  '[{"commitInfo":{"operation":"DELETE","txnId":"p-2"}},{"remove":{"path":"region=US/u0.parquet","dataChange":true}}]',
  ARRAY['region = ''US''']) AS version;
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 0,
  '[{"commitInfo":{"operation":"DELETE","txnId":"p-3"}},{"remove":{"path":"region=EU/e0.parquet","dataChange":true}}]',
  ARRAY['region = ''EU'''])$q$, pg_temp.p('part')));

-- ---------------------------------------------------------------------------
-- Rows: read_rows and the row-level tier read through the catalog
-- (rows: 99 live rows of part-00000.parquet, one of part-00001.parquet)
-- ---------------------------------------------------------------------------
SELECT deltacc.register_table(pg_temp.p('rows'));
SELECT count(*) AS live_rows FROM deltacc.read_rows(pg_temp.p('rows'));
SELECT deltacc.commit(pg_temp.p('rows'), 1,
  '[{"commitInfo":{"operation":"DELETE","txnId":"rows-1"}},{"remove":{"path":"part-00001.parquet","dataChange":true}}]',
  ARRAY['id = 5']) AS version;
SELECT count(*) AS live_rows FROM deltacc.read_rows(pg_temp.p('rows'));
SELECT (SELECT count(*) FROM deltacc.read_rows(pg_temp.p('rows'), NULL, 'x = 15')) AS now,
       (SELECT count(*) FROM deltacc.read_rows(pg_temp.p('rows'), 1, 'x = 15')) AS at_version_1;
-- a writer that read x = 15 at version 1: the rows version 2 removed
-- match its read, in row_level mode too
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"rows-2","isBlindAppend":false}},
    {"add":{"path":"part-00002.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]',
  ARRAY['x = 15'], isolation_level => 'Serializable', mode => 'row_level')$q$, pg_temp.p('rows')));

-- ---------------------------------------------------------------------------
-- Privileges: reading needs pg_read_server_files, committing
-- deltacc_committer as well, publishing pg_write_server_files too; the
-- catalog tables are the owner's alone
-- ---------------------------------------------------------------------------
CREATE ROLE regress_catalog_reader IN ROLE pg_read_server_files;
CREATE ROLE regress_catalog_committer IN ROLE pg_read_server_files, deltacc_committer;
CREATE ROLE regress_catalog_publisher IN ROLE pg_read_server_files, pg_write_server_files, deltacc_committer;
GRANT USAGE ON SCHEMA deltacc TO regress_catalog_reader, regress_catalog_committer, regress_catalog_publisher;
SET ROLE regress_catalog_reader;
SELECT deltacc.latest_version(pg_temp.p('plain')) AS reader_latest;
SELECT count(*) AS reader_ratified FROM deltacc.ratified_commits(pg_temp.p('plain'));
SELECT count(*) AS reader_files FROM deltacc.snapshot_files(pg_temp.p('plain'));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 9, '[{"commitInfo":{"txnId":"x-1"}}]')$q$, pg_temp.p('plain')));
SELECT pg_temp.try('SELECT count(*) FROM deltacc.ratified_commits');
RESET ROLE;
-- EXECUTE granted, but not deltacc_committer: the C check refuses
GRANT EXECUTE ON FUNCTION deltacc.commit(text, bigint, jsonb, text[], boolean, text[], text[], text, text, text),
      deltacc.register_table(text) TO regress_catalog_reader;
SET ROLE regress_catalog_reader;
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 9, '[{"commitInfo":{"txnId":"x-1"}}]')$q$, pg_temp.p('plain')));
SELECT pg_temp.try(format($q$SELECT deltacc.register_table(%L)$q$, pg_temp.p('plain')));
SELECT pg_temp.try($q$INSERT INTO deltacc.ratified_commits VALUES ('x', 99, 'x', NULL, NULL, '\x', '\x', now(), NULL)$q$);
RESET ROLE;
SET ROLE regress_catalog_committer;
SELECT deltacc.commit(pg_temp.p('plain'), 9,
  '[{"commitInfo":{"operation":"WRITE","txnId":"x-1","isBlindAppend":true}}]') AS committer_version;
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('plain')));
RESET ROLE;
SET ROLE regress_catalog_publisher;
SELECT deltacc.publish(pg_temp.p('plain')) AS publisher_published;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION deltacc.commit(text, bigint, jsonb, text[], boolean, text[], text[], text, text, text),
       deltacc.register_table(text) FROM regress_catalog_reader;
REVOKE USAGE ON SCHEMA deltacc FROM regress_catalog_reader, regress_catalog_committer, regress_catalog_publisher;
DROP ROLE regress_catalog_reader, regress_catalog_committer, regress_catalog_publisher;

-- ---------------------------------------------------------------------------
-- A session keeps the rows of the newest 1,024 ratified versions of a table;
-- older unpublished ones are read back when asked for, and decide as kept
-- ones do
-- ---------------------------------------------------------------------------

\! cp -r "$PG_ABS_SRCDIR/data/catalog/plain" "$CATALOG_DIR/many" && chmod -R a+rwX "$CATALOG_DIR/many"
SELECT deltacc.register_table(pg_temp.p('many'));
SET deltacc.max_unpublished_versions = 2000;
-- 1,100 commits, each in its own transaction, none published: the one of
-- read version k makes version k + 1 and adds f<k>.parquet (ids 1000k ..
-- 1000k + 999), not a blind append
CREATE PROCEDURE pg_temp.commit_many(n int) LANGUAGE plpgsql AS $$
BEGIN
	FOR k IN 1 .. n LOOP
		PERFORM deltacc.commit(pg_temp.p('many'), k,
			jsonb_build_array(
				jsonb_build_object('commitInfo', jsonb_build_object(
					'operation', 'WRITE', 'txnId', 'many-' || k, 'isBlindAppend', false)),
				jsonb_build_object('add', jsonb_build_object(
					'path', format('f%s.parquet', k), 'partitionValues', '{}'::jsonb,
					'size', 1, 'modificationTime', 1, 'dataChange', true,
					'stats', format('{"numRecords":1000,"minValues":{"id":%s},"maxValues":{"id":%s},"nullCount":{"id":0}}',
									1000 * k, 1000 * k + 999)))),
			ARRAY['id < 0'], mode => 'stats');
		COMMIT;
	END LOOP;
END $$;
CALL pg_temp.commit_many(1100);
SELECT deltacc.latest_version(pg_temp.p('many')) AS latest,
       (SELECT count(*) FROM deltacc.ratified_commits(pg_temp.p('many'))) AS ratified,
       (SELECT count(*) FROM deltacc.snapshot_files(pg_temp.p('many'))) AS files;
-- must still conflict: a rewrite of b.parquet whose reads from version 1
-- hit f5.parquet (version 6, no longer kept) and f1099.parquet (version
-- 1100, kept), and nothing else
SELECT winning_version, conflict, path FROM deltacc.conflicts(pg_temp.p('many'), 1,
  ARRAY['id BETWEEN 5000 AND 5005', 'id BETWEEN 1099000 AND 1099001'],
  '[{"remove":{"path":"b.parquet","dataChange":true}}]', mode => 'stats')
 ORDER BY winning_version;
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 1,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"many-x"}},{"remove":{"path":"b.parquet","dataChange":true}}]',
  ARRAY['id BETWEEN 5000 AND 5005'], mode => 'stats')$q$, pg_temp.p('many')));
-- a read no added file can match commits after them all
SELECT deltacc.commit(pg_temp.p('many'), 1,
  '[{"commitInfo":{"operation":"UPDATE","txnId":"many-y"}},{"remove":{"path":"b.parquet","dataChange":true}}]',
  ARRAY['id BETWEEN 100 AND 199'], mode => 'stats') AS version;
RESET deltacc.max_unpublished_versions;

-- the catalog's state at the end
SELECT replace(table_path, current_setting('catalog_test.dir'), '<dir>') AS table_path,
       latest_version, published_version
  FROM deltacc.managed_tables ORDER BY 1;
\! rm -rf "$CATALOG_DIR"
