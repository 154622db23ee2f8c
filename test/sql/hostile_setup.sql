--
-- hostile_setup.sql: the helpers of the hostile_* suites (kept in the
-- regression database's schema regress_hostile for the later suites) and
-- the scratch directory of mutated tables, generated now by
-- test/data/hostile/make_hostile.py (never committed: it copies real tables,
-- makes symlinks and FIFOs).
--
-- hostile_outcome(sql) runs one call and says how it ended: 'ok', the
-- two-character SQLSTATE class of a clean ERROR, or 'INTERNAL <message>'
-- for XX000 (which must never happen).  Calls slower than 5 s get ' SLOW'
-- (regress_hostile.slow_seconds overrides: make valgrind-check sets it).
-- A crash of the server shows up as a failed connection in the diff.
--
CREATE SCHEMA regress_hostile;

CREATE FUNCTION regress_hostile.outcome(q text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
	r text;
	t0 timestamptz := clock_timestamp();
BEGIN
	BEGIN
		EXECUTE q;
		r := 'ok';
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
		IF st = 'XX000' THEN
			r := 'INTERNAL ' || msg;
		ELSE
			r := left(st, 2);
		END IF;
	END;
	IF clock_timestamp() - t0 >
	   make_interval(secs => coalesce(nullif(current_setting('regress_hostile.slow_seconds', true), ''), '5')::float8) THEN
		r := r || ' SLOW';
	END IF;
	RETURN r;
END $$;

-- The calls made on every hostile table: one per SQL function that reads a
-- table (functions not installed yet are skipped, see calls()).
CREATE TABLE regress_hostile.calls (tag text PRIMARY KEY, fn text, sql text, ord int);
INSERT INTO regress_hostile.calls VALUES
 ('L', 'load_log', 'SELECT deltacc.load_log(%1$L)', 1),
 ('H', 'history', 'SELECT count(*) FROM deltacc.history(%1$L)', 2),
 ('S', 'snapshot_files', 'SELECT count(*) FROM deltacc.snapshot_files(%1$L)', 3),
 ('s', 'snapshot_files', 'SELECT count(*) FROM deltacc.snapshot_files(%1$L, 1)', 4),
 ('T', 'table_info', 'SELECT * FROM deltacc.table_info(%1$L)', 5),
 ('P', 'skipping_predicate', 'SELECT deltacc.skipping_predicate(%1$L, %2$L)', 6),
 ('D', 'deletion_vector', 'SELECT count(d.*) FROM pg_temp.delta_files f, deltacc.deletion_vector(%1$L, f.deletion_vector) d WHERE f.deletion_vector IS NOT NULL', 7),
 ('F', 'files_for_scan', 'SELECT count(*) FROM deltacc.files_for_scan(%1$L, ARRAY[%2$L])', 8),
 ('R', 'read_rows', 'SELECT count(*) FROM deltacc.read_rows(%1$L)', 9),
 ('r', 'read_rows', 'SELECT count(*) FROM deltacc.read_rows(%1$L, NULL, %2$L)', 10),
 ('C', 'conflicts', 'SELECT count(*) FROM deltacc.conflicts(%1$L, 0, ARRAY[%2$L], mode => ''stats'')', 11),
 ('E', 'explain_conflicts', 'SELECT count(*) FROM deltacc.explain_conflicts(%1$L, 0, ARRAY[%2$L], mode => ''partition'')', 12),
 ('W', 'conflicts', 'SELECT count(*) FROM deltacc.conflicts(%1$L, 0, ARRAY[%2$L], ''[{"remove":{"path":"region=US/part-1.parquet","dataChange":true}}]'', isolation_level => ''Serializable'', mode => ''row_level'')', 14),
 ('A', 'assert_no_conflict', 'SELECT deltacc.assert_no_conflict(%1$L, 0, ARRAY[%2$L], actions => ''[{"add":{"path":"new.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}]'', mode => ''stats'')', 13);

-- (W: the row-level checker, which opens the winners' data and DV files.)
-- Run every installed call on one table: 'L=ok H=XX ...'.  load_log runs
-- first so that 'D' sees that table's deletion vectors (and nothing when
-- the load failed).
CREATE FUNCTION regress_hostile.sweep_one(path text, pred text, tags text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	c record;
	res text := '';
BEGIN
	FOR c IN SELECT * FROM regress_hostile.calls
			  WHERE strpos(tags, tag) > 0
				AND EXISTS (SELECT 1 FROM pg_proc
							 WHERE proname = fn AND pronamespace = 'deltacc'::regnamespace)
			  ORDER BY ord
	LOOP
		IF c.tag = 'L' AND to_regclass('pg_temp.delta_files') IS NOT NULL THEN
			DELETE FROM pg_temp.delta_files WHERE true;
		END IF;
		IF c.tag = 'D' AND to_regclass('pg_temp.delta_files') IS NULL THEN
			res := res || 'D=- ';
			CONTINUE;
		END IF;
		res := res || c.tag || '=' ||
			regress_hostile.outcome(format(c.sql, path, pred)) || ' ';
	END LOOP;
	RETURN rtrim(res);
END $$;


-- Where the generated tables are ('fx', 'real', 'big') and the real
-- tables ('tables'), so that no query text shows an absolute path.
CREATE TABLE regress_hostile.dirs (name text PRIMARY KEY, path text);

-- Sweep every table directory of dirs[dirname] whose name starts with
-- prefix: one row per table.
CREATE FUNCTION regress_hostile.sweep(dirname text, prefix text, pred text,
									  tags text DEFAULT 'LHSsTPDFRrCEWA')
RETURNS TABLE (tbl text, outcome text) LANGUAGE plpgsql AS $$
DECLARE
	t text;
	dir text := (SELECT path FROM regress_hostile.dirs WHERE name = dirname);
BEGIN
	FOR t IN SELECT f FROM pg_ls_dir(dir) f
			  WHERE f LIKE prefix || '%' AND f NOT LIKE '.%' ORDER BY f COLLATE "C"
	LOOP
		tbl := t;
		outcome := regress_hostile.sweep_one(dir || '/' || t, pred, tags);
		RETURN NEXT;
	END LOOP;
END $$;

-- The scratch directory with every generated table (removed by
-- hostile_teardown).
\getenv builddir PG_ABS_BUILDDIR
\set hdir :builddir '/results/hostile_data'
\setenv HOSTILE_DIR :hdir
-- (a previous run's directory is removed in the background: deleting
-- tens of thousands of files can be slow)
\! if [ -e "$HOSTILE_DIR" ]; then mv "$HOSTILE_DIR" "$HOSTILE_DIR.old.$$" && (rm -rf "$HOSTILE_DIR.old.$$" &); fi
\! python3 "$PG_ABS_SRCDIR/data/hostile/make_hostile.py" fixtures "$HOSTILE_DIR/fx"
\! python3 "$PG_ABS_SRCDIR/data/hostile/make_hostile.py" real "$HOSTILE_DIR/real" "$DELTACC_TABLES"
\! python3 "$PG_ABS_SRCDIR/data/hostile/make_hostile.py" big "$HOSTILE_DIR/big" 1000000
\! chmod a+rx "$PG_ABS_BUILDDIR/results"
-- Watchdog: a reader blocked opening one of the FIFOs planted in the tables
-- (a regression of the O_NONBLOCK opens) cannot be cancelled; opening each
-- FIFO for writing every 10 s releases it, so such a regression shows up as
-- a SLOW call instead of hanging the suite.  Ends with the directory.
\! (for i in $(seq 1 90); do sleep 10; [ -d "$HOSTILE_DIR/fx" ] || exit 0; for f in $(find "$HOSTILE_DIR/fx" -type p); do timeout 1 sh -c ": > '$f'"; done; done) >/dev/null 2>&1 &
\getenv tables DELTACC_TABLES
INSERT INTO regress_hostile.dirs VALUES
  ('fx', :'hdir' || '/fx'), ('real', :'hdir' || '/real'),
  ('big', :'hdir' || '/big'), ('tables', :'tables');
SELECT count(*) > 400 AS fixtures_made FROM pg_ls_dir(:'hdir' || '/fx');
SELECT count(*) > 0 AS big_log_made FROM pg_ls_dir(:'hdir' || '/big/big/_delta_log');
