--
-- catalog_safety.sql: what a reader and a publisher of a catalog-managed
-- table must not trust, each case with what still works:
--   - checkpoints (and _last_checkpoint) above the catalog's published
--     version: not read, the catalog's copies are;
--   - a published version whose commit file is gone: data_corrupted,
--     unless a checkpoint at or above it holds it;
--   - a symbolic link or another non-regular file at _delta_log/<v>.json:
--     never "published already";
--   - a staged commit for a taken version: refused as such before the
--     conflict check;
--   - one clock read per commit: the in-commit timestamp the catalog gives
--     is the ratification time.
-- Fixtures: test/data/catalog_safety (make_catalog_safety.py) and
-- test/data/catalog, copied to a scratch directory first.
--
\getenv builddir PG_ABS_BUILDDIR
\set sdir :builddir '/results/catalog_safety_data'
\setenv SAFETY_DIR :sdir
\! rm -rf "$SAFETY_DIR" && mkdir -p "$SAFETY_DIR" && cp -r "$PG_ABS_SRCDIR/data/catalog_safety/ck" "$PG_ABS_SRCDIR/data/catalog_safety/rogue" "$SAFETY_DIR/" && for t in gone_all gone_first gone_late gone_rogue pub stg; do cp -r "$PG_ABS_SRCDIR/data/catalog/plain" "$SAFETY_DIR/$t"; done && cp -r "$PG_ABS_SRCDIR/data/catalog/cm" "$SAFETY_DIR/cm" && for t in ck gone_all gone_first gone_late gone_rogue pub stg cm; do mkdir -p "$SAFETY_DIR/$t/_delta_log/_staged_commits"; done && chmod -R a+rwX "$SAFETY_DIR" && chmod a+rx "$PG_ABS_BUILDDIR/results"
SELECT set_config('catalog_test.dir', :'sdir', false) IS NOT NULL AS ok;

\getenv srcdir PG_ABS_SRCDIR
\i :srcdir/sql/catalog_helpers.inc

-- the bytes the catalog ratified as version v of table t, written to path
CREATE FUNCTION pg_temp.write_ratified(t text, v bigint, path text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('COPY (SELECT translate(encode(convert_to(content, ''UTF8''), ''base64''), E''\n'', '''') FROM deltacc.ratified_commits(%L, %s, %s)) TO PROGRAM %L',
				   pg_temp.p(t), v, v, 'base64 -d > ' || quote_literal(path));
END $$;

-- ---------------------------------------------------------------------------
-- Checkpoints are trusted only at published versions
-- ---------------------------------------------------------------------------
-- ck: commit 0 cleaned up, the checkpoint at version 1 (published) is read
SELECT deltacc.register_table(pg_temp.p('ck'));
SELECT path FROM deltacc.snapshot_files(pg_temp.p('ck')) ORDER BY 1;
-- version 2 through the catalog (not published): a blind append of
-- d.parquet (ids 300..399)
SELECT deltacc.commit(pg_temp.p('ck'), 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"ck-2","isBlindAppend":true}},
    {"add":{"path":"d.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,
            "stats":"{\"numRecords\":100,\"minValues\":{\"id\":300},\"maxValues\":{\"id\":399},\"nullCount\":{\"id\":0}}"}}]') AS version;
-- a writer that bypassed the catalog leaves checkpoints at versions 2 (a
-- ratified, unpublished version) and 3 (above the latest), and a
-- _last_checkpoint at 3, all holding only a.parquet and rogue.parquet
\! cp "$SAFETY_DIR"/rogue/* "$SAFETY_DIR/ck/_delta_log/"
-- readers read the checkpoint at version 1 and the catalog's version 2
SELECT path FROM deltacc.snapshot_files(pg_temp.p('ck')) ORDER BY 1;
SELECT path FROM deltacc.snapshot_files(pg_temp.p('ck'), 2) ORDER BY 1;
SELECT version, num_files FROM deltacc.table_info(pg_temp.p('ck'));
-- version 3 removes c.parquet (ids 200..299) ...
SELECT deltacc.commit(pg_temp.p('ck'), 2,
  '[{"commitInfo":{"operation":"DELETE","txnId":"ck-3"}},
    {"remove":{"path":"c.parquet","dataChange":true}}]',
  ARRAY['id BETWEEN 200 AND 299']) AS version;
-- ... now the rogue checkpoint at 3 is at the latest ratified version: not
-- read either
SELECT path FROM deltacc.snapshot_files(pg_temp.p('ck')) ORDER BY 1;
-- must still conflict: a writer that read id >= 200 at version 2 read
-- c.parquet, which version 3 removed (the rogue checkpoint at 2 has no
-- c.parquet, so trusting it would let the commit through)
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"ck-4","isBlindAppend":false}},
    {"add":{"path":"e.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]',
  ARRAY['id >= 200'])$q$, pg_temp.p('ck')));
SELECT winning_version, conflict, path FROM deltacc.conflicts(pg_temp.p('ck'), 2,
  ARRAY['id >= 200'], '[{"add":{"path":"e.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]');
-- once versions 2 and 3 are published, the checkpoint at version 1 still
-- serves (the rogue ones are gone before: a published version may be
-- checkpointed by anyone)
\! rm "$SAFETY_DIR"/ck/_delta_log/0000000000000000000[23].checkpoint.* "$SAFETY_DIR/ck/_delta_log/_last_checkpoint"
SELECT deltacc.publish(pg_temp.p('ck')) AS published;
SELECT path FROM deltacc.snapshot_files(pg_temp.p('ck')) ORDER BY 1;
-- the JSON commit 1 removed as well: the checkpoint at version 1 holds it
\! rm "$SAFETY_DIR/ck/_delta_log/00000000000000000001.json"
SELECT path FROM deltacc.snapshot_files(pg_temp.p('ck')) ORDER BY 1;
SELECT version, operation FROM deltacc.history(pg_temp.p('ck')) ORDER BY 1;

-- ---------------------------------------------------------------------------
-- A published version nothing holds is data_corrupted
-- ---------------------------------------------------------------------------
SELECT deltacc.register_table(pg_temp.p(t)) AS registered
  FROM unnest(ARRAY['gone_all', 'gone_first', 'gone_late', 'gone_rogue']) t;
-- every commit file gone (the catalog says versions 0 and 1 are published)
\! rm "$SAFETY_DIR"/gone_all/_delta_log/*.json
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.history(%L)', pg_temp.p('gone_all')));
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.snapshot_files(%L)', pg_temp.p('gone_all')));
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.conflicts(%L, 1)', pg_temp.p('gone_all')));
-- the first one gone, no checkpoint
\! rm "$SAFETY_DIR/gone_first/_delta_log/00000000000000000000.json"
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.history(%L)', pg_temp.p('gone_first')));
-- with unpublished versions above: versions 2 and 3 published, 4 not,
-- then the published files are all gone
SELECT deltacc.commit(pg_temp.p('gone_late'), 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"gl-2","isBlindAppend":true}}]') AS version;
SELECT deltacc.commit(pg_temp.p('gone_late'), 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"gl-3","isBlindAppend":true}}]') AS version;
SELECT deltacc.publish(pg_temp.p('gone_late')) AS published;
SELECT deltacc.commit(pg_temp.p('gone_late'), 3,
  '[{"commitInfo":{"operation":"WRITE","txnId":"gl-4","isBlindAppend":true}}]') AS version;
\! rm "$SAFETY_DIR"/gone_late/_delta_log/*.json
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.history(%L)', pg_temp.p('gone_late')));
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.conflicts(%L, 4)', pg_temp.p('gone_late')));
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 4, '[{"commitInfo":{"operation":"WRITE","txnId":"gl-5","isBlindAppend":true}}]')$q$, pg_temp.p('gone_late')));
SELECT deltacc.commit(pg_temp.p('gone_rogue'), 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"gr-2","isBlindAppend":true}}]') AS version;
-- a checkpoint at an unpublished version does not hold the published
-- ones: gone_rogue's commit files gone, a checkpoint at version 2 (ratified,
-- not published) left by a writer that bypassed the catalog
\! rm "$SAFETY_DIR"/gone_rogue/_delta_log/*.json && cp "$SAFETY_DIR"/rogue/00000000000000000002.checkpoint.* "$SAFETY_DIR/gone_rogue/_delta_log/"
SELECT pg_temp.try(format('SELECT count(*) FROM deltacc.snapshot_files(%L)', pg_temp.p('gone_rogue')));

-- ---------------------------------------------------------------------------
-- publish: only a regular file with the ratified bytes is published already
-- ---------------------------------------------------------------------------
SELECT deltacc.register_table(pg_temp.p('pub'));
SELECT deltacc.commit(pg_temp.p('pub'), 1,
  '[{"commitInfo":{"operation":"WRITE","txnId":"pub-2","isBlindAppend":true}},
    {"add":{"path":"p2.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]') AS version;
-- a symbolic link to a file with exactly the ratified bytes
SELECT pg_temp.write_ratified('pub', 2, pg_temp.p('pub_v2_copy.json'));
SELECT pg_read_binary_file(pg_temp.p('pub_v2_copy.json')) = convert_to(content, 'UTF8') AS copy_is_ratified
  FROM deltacc.ratified_commits(pg_temp.p('pub'), 2, 2);
\! ln -s "$SAFETY_DIR/pub_v2_copy.json" "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json"
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('pub')));
SELECT version, published FROM deltacc.ratified_commits(pg_temp.p('pub'));
-- a dangling link, a link to other bytes, a directory
\! rm "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json" && ln -s "$SAFETY_DIR/nowhere.json" "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json"
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('pub')));
\! rm "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json" && ln -s "$SAFETY_DIR/pub/_delta_log/00000000000000000001.json" "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json"
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('pub')));
\! rm "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json" && mkdir "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json"
SELECT pg_temp.try(format('SELECT deltacc.publish(%L)', pg_temp.p('pub')));
SELECT version, published FROM deltacc.ratified_commits(pg_temp.p('pub'));
-- the name free again: published, a regular file with the ratified bytes
\! rmdir "$SAFETY_DIR/pub/_delta_log/00000000000000000002.json"
SELECT deltacc.publish(pg_temp.p('pub')) AS published;
SELECT pg_read_binary_file(pg_temp.p('pub/_delta_log/00000000000000000002.json')) = convert_to(content, 'UTF8') AS same_bytes,
       (pg_stat_file(pg_temp.p('pub/_delta_log/00000000000000000002.json'))).isdir AS isdir
  FROM deltacc.ratified_commits(pg_temp.p('pub'), 2, 2);
-- and a regular file with the ratified bytes is published already
SELECT deltacc.commit(pg_temp.p('pub'), 2,
  '[{"commitInfo":{"operation":"WRITE","txnId":"pub-3","isBlindAppend":true}}]') AS version;
SELECT pg_temp.write_ratified('pub', 3, pg_temp.p('pub/_delta_log/00000000000000000003.json'));
SELECT deltacc.publish(pg_temp.p('pub')) AS published;

-- ---------------------------------------------------------------------------
-- A staged commit for a taken version: re-stage, before any conflict check
-- ---------------------------------------------------------------------------
SELECT deltacc.register_table(pg_temp.p('stg'));
SELECT pg_temp.write_lines(pg_temp.p('stg/_delta_log/_staged_commits/00000000000000000002.5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d.json'),
  ARRAY['{"commitInfo":{"operation":"DELETE","txnId":"stg-a"}}',
        '{"remove":{"path":"a.parquet","dataChange":true}}']);
-- another writer takes version 2, removing a.parquet too
SELECT deltacc.commit(pg_temp.p('stg'), 1,
  '[{"commitInfo":{"operation":"DELETE","txnId":"stg-b"}},{"remove":{"path":"a.parquet","dataChange":true}}]',
  ARRAY['id < 100']) AS version;
-- the staged commit for version 2 would also conflict: the answer is the
-- taken version, with the hint to stage it again as version 3
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 1, NULL, ARRAY['id < 100'], staged_path => '_delta_log/_staged_commits/00000000000000000002.5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d.json')$q$, pg_temp.p('stg')));
-- staged again as version 3, the same commit is the conflict it is
SELECT pg_temp.write_lines(pg_temp.p('stg/_delta_log/_staged_commits/00000000000000000003.6b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e.json'),
  ARRAY['{"commitInfo":{"operation":"DELETE","txnId":"stg-a"}}',
        '{"remove":{"path":"a.parquet","dataChange":true}}']);
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 1, NULL, ARRAY['id < 100'], staged_path => '_delta_log/_staged_commits/00000000000000000003.6b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e.json')$q$, pg_temp.p('stg')));
SELECT deltacc.latest_version(pg_temp.p('stg'));

-- ---------------------------------------------------------------------------
-- The catalog's in-commit timestamp is the ratification time
-- ---------------------------------------------------------------------------
SELECT deltacc.register_table(pg_temp.p('cm'));
SELECT deltacc.commit(pg_temp.p('cm'), 0,
  '[{"commitInfo":{"operation":"WRITE","txnId":"cm-1","isBlindAppend":true}}]') AS version;
SELECT version, in_commit_timestamp = date_trunc('milliseconds', ratified_at) AS ict_is_ratified_at
  FROM deltacc.ratified_commits(pg_temp.p('cm'));

-- ---------------------------------------------------------------------------
-- Several winners: each compared with the loser's removes and reads
-- ---------------------------------------------------------------------------
\! cp -r "$PG_ABS_SRCDIR/data/catalog/plain" "$SAFETY_DIR/wr" && mkdir -p "$SAFETY_DIR/wr/_delta_log/_staged_commits" && chmod -R a+rwX "$SAFETY_DIR/wr"
SELECT deltacc.register_table(pg_temp.p('wr'));
-- versions 2 and 3 remove a.parquet, then c.parquet (written %-encoded)
SELECT deltacc.commit(pg_temp.p('wr'), 1,
  '[{"commitInfo":{"operation":"DELETE","txnId":"wr-2"}},{"remove":{"path":"a.parquet","dataChange":true}}]',
  ARRAY['id < 100']) AS version;
SELECT deltacc.commit(pg_temp.p('wr'), 2,
  '[{"commitInfo":{"operation":"DELETE","txnId":"wr-3"}},{"remove":{"path":"%63.parquet","dataChange":true}}]',
  ARRAY['id >= 200']) AS version;
-- must still conflict: a writer that read b.parquet at version 1 and
-- removes a.parquet and c.parquet meets both winners (the second one
-- too: the loser's removes are compared with every winner's)
SELECT winning_version, conflict, path FROM deltacc.conflicts(pg_temp.p('wr'), 1,
  ARRAY['id BETWEEN 100 AND 199'],
  '[{"commitInfo":{"operation":"DELETE"}},{"remove":{"path":"a.parquet","dataChange":true}},{"remove":{"path":"c.parquet","dataChange":true}}]')
  ORDER BY 1;
-- must still conflict: a writer that read c.parquet at version 2 (an
-- append) meets version 3's remove of it
SELECT winning_version, conflict, path FROM deltacc.conflicts(pg_temp.p('wr'), 2,
  ARRAY['id >= 200'],
  '[{"commitInfo":{"operation":"WRITE"}},{"add":{"path":"e.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]');
SELECT pg_temp.try(format($q$SELECT deltacc.commit(%L, 1,
  '[{"commitInfo":{"operation":"DELETE","txnId":"wr-x"}},{"remove":{"path":"c.parquet","dataChange":true}}]',
  ARRAY['id BETWEEN 100 AND 199'])$q$, pg_temp.p('wr')));

-- a version decoded in this session is not served for the same version of
-- a later registration of the table (other bytes): rr's version 2 removes
-- c.parquet, then, registered afresh, a.parquet, which the reader of
-- 'id < 100' read
\! cp -r "$PG_ABS_SRCDIR/data/catalog/plain" "$SAFETY_DIR/rr" && mkdir -p "$SAFETY_DIR/rr/_delta_log/_staged_commits" && chmod -R a+rwX "$SAFETY_DIR/rr"
SELECT deltacc.register_table(pg_temp.p('rr'));
SELECT deltacc.commit(pg_temp.p('rr'), 1,
  '[{"commitInfo":{"operation":"DELETE","txnId":"rr-2"}},{"remove":{"path":"c.parquet","dataChange":true}}]',
  ARRAY['id >= 200']) AS version;
SELECT count(*) AS conflicts_first FROM deltacc.conflicts(pg_temp.p('rr'), 1,
  ARRAY['id < 100'],
  '[{"commitInfo":{"operation":"WRITE"}},{"add":{"path":"f.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]');
DELETE FROM deltacc.ratified_commits WHERE table_path = pg_temp.p('rr');
DELETE FROM deltacc.managed_tables WHERE table_path = pg_temp.p('rr');
SELECT deltacc.register_table(pg_temp.p('rr'));
SELECT deltacc.commit(pg_temp.p('rr'), 1,
  '[{"commitInfo":{"operation":"DELETE","txnId":"rr-2"}},{"remove":{"path":"a.parquet","dataChange":true}}]',
  ARRAY['id < 100']) AS version;
-- must still conflict: the winner now removes a.parquet
SELECT winning_version, conflict, path FROM deltacc.conflicts(pg_temp.p('rr'), 1,
  ARRAY['id < 100'],
  '[{"commitInfo":{"operation":"WRITE"}},{"add":{"path":"f.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]');

-- ---------------------------------------------------------------------------
-- The catalog's rows: written directly only while the tables are as the
-- extension makes them
-- ---------------------------------------------------------------------------
SELECT version, txn_id, in_commit_timestamp IS NULL AS no_ict, staged_path,
       content_sha256 = sha256(content) AS sha_ok, published_at
  FROM deltacc.ratified_commits WHERE table_path = pg_temp.p('wr') ORDER BY version;
SELECT latest_version, published_version, table_id
  FROM deltacc.managed_tables WHERE table_path = pg_temp.p('wr');
-- a trigger on ratified_commits fires for the commit's row (the
-- statement writes it)
CREATE FUNCTION public.regress_saw_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE NOTICE 'trigger saw version % (%)', NEW.version, NEW.txn_id;
	RETURN NEW;
END $$;
CREATE TRIGGER regress_saw AFTER INSERT ON deltacc.ratified_commits
  FOR EACH ROW EXECUTE FUNCTION public.regress_saw_commit();
SELECT deltacc.commit(pg_temp.p('wr'), 3,
  '[{"commitInfo":{"operation":"WRITE","txnId":"wr-4","isBlindAppend":true}}]') AS version;
DROP TRIGGER regress_saw ON deltacc.ratified_commits;
DROP FUNCTION public.regress_saw_commit();
-- a CHECK constraint the extension does not make is still enforced
ALTER TABLE deltacc.ratified_commits
  ADD CONSTRAINT regress_not_wr5 CHECK (txn_id <> 'wr-5') NOT VALID;
SELECT split_part(pg_temp.try(format($q$SELECT deltacc.commit(%L, 4,
  '[{"commitInfo":{"operation":"WRITE","txnId":"wr-5","isBlindAppend":true}}]')$q$,
  pg_temp.p('wr'))), E'\n', 1) AS refused;
ALTER TABLE deltacc.ratified_commits DROP CONSTRAINT regress_not_wr5;
SELECT deltacc.commit(pg_temp.p('wr'), 4,
  '[{"commitInfo":{"operation":"WRITE","txnId":"wr-5","isBlindAppend":true}}]') AS version;
SELECT version, txn_id FROM deltacc.ratified_commits
 WHERE table_path = pg_temp.p('wr') AND version >= 4 ORDER BY version;
SELECT latest_version FROM deltacc.managed_tables WHERE table_path = pg_temp.p('wr');

-- the catalog's state at the end; the suite's tables are forgotten
SELECT replace(table_path, current_setting('catalog_test.dir'), '<dir>') AS table_path,
       latest_version, published_version
  FROM deltacc.managed_tables
 WHERE table_path LIKE current_setting('catalog_test.dir') || '/%' ORDER BY 1;
DELETE FROM deltacc.ratified_commits WHERE table_path LIKE current_setting('catalog_test.dir') || '/%';
DELETE FROM deltacc.managed_tables WHERE table_path LIKE current_setting('catalog_test.dir') || '/%';
\! rm -rf "$SAFETY_DIR"
