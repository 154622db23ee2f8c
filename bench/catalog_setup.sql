-- bench/catalog_setup.sql: the tables and functions of the commit
-- coordinator benchmark (bench/catalog.sh, bench/catalog_callgrind.sh), in
-- a database where deltacc's functions exist.
CREATE TABLE bench_slot (tbl text, slot int, path text, gen int,
                         PRIMARY KEY (tbl, slot));
CREATE TABLE floor_head (id int PRIMARY KEY, latest bigint);
CREATE TABLE floor_log (version bigint, content text);
-- the indexed floor's log: the catalog's keys (one row per version, one
-- per txnId), as deltacc.ratified_commits has them
CREATE TABLE floor_log_keyed (table_path text, version bigint, txn_id text,
                              content text,
                              PRIMARY KEY (table_path, version),
                              UNIQUE (table_path, txn_id));
INSERT INTO floor_head VALUES (1, 0);

-- the actions of an UPDATE of slot s: remove its current file, add the next
CREATE FUNCTION bench_actions(t text, s int, read_version bigint,
                              OUT actions jsonb, OUT next_path text)
LANGUAGE plpgsql AS $$
DECLARE
	cur bench_slot;
	lo int := s * 1000;
	hi int := s * 1000 + 999;
BEGIN
	SELECT * INTO cur FROM bench_slot WHERE tbl = t AND slot = s;
	next_path := format('s%s-%s.parquet', s, gen_random_uuid());
	actions := jsonb_build_array(
		jsonb_build_object('commitInfo', jsonb_build_object(
			'operation', 'UPDATE', 'txnId', gen_random_uuid()::text,
			'readVersion', read_version, 'isBlindAppend', false,
			'operationParameters', jsonb_build_object(
				'predicate', format('id BETWEEN %s AND %s', lo, hi)))),
		jsonb_build_object('remove', jsonb_build_object(
			'path', cur.path, 'dataChange', true)),
		jsonb_build_object('add', jsonb_build_object(
			'path', next_path, 'partitionValues', '{}'::jsonb, 'size', 1000,
			'modificationTime', 1700000000000, 'dataChange', true,
			'stats', format('{"numRecords":1000,"minValues":{"id":%s},"maxValues":{"id":%s},"nullCount":{"id":0}}', lo, hi))));
END $$;

-- the floor's commit: the row lock (SELECT ... FOR UPDATE of one row) and
-- the bytes inserted (the actions as text), without any check
CREATE FUNCTION bench_floor_commit(actions jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v bigint;
BEGIN
	SELECT latest INTO v FROM floor_head WHERE id = 1 FOR UPDATE;
	INSERT INTO floor_log VALUES (v + 1, actions::text);
	UPDATE floor_head SET latest = v + 1 WHERE id = 1;
END $$;

-- the indexed floor's commit: the floor's, into a log with the catalog's
-- two unique keys
CREATE FUNCTION bench_floor_commit_keyed(t text, actions jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v bigint;
BEGIN
	SELECT latest INTO v FROM floor_head WHERE id = 1 FOR UPDATE;
	INSERT INTO floor_log_keyed
		VALUES (t, v + 1, actions -> 0 -> 'commitInfo' ->> 'txnId', actions::text);
	UPDATE floor_head SET latest = v + 1 WHERE id = 1;
END $$;

-- one UPDATE of slot s, through the catalog in mode m (false when it
-- aborted with 40001), or with m = 'floor' (or 'floor-keyed') the same
-- transaction with the floor's commit (or the indexed floor's) in place of
-- deltacc.commit (the same read of the latest version, actions,
-- subtransaction and bookkeeping)
CREATE FUNCTION bench_update(t text, s int, m text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	rv bigint;
	a record;
BEGIN
	IF m IN ('floor', 'floor-keyed') THEN
		SELECT latest INTO rv FROM floor_head WHERE id = 1;
	ELSE
		rv := deltacc.latest_version(t);
	END IF;
	a := bench_actions(t, s, rv);
	BEGIN
		IF m = 'floor' THEN
			PERFORM bench_floor_commit(a.actions);
		ELSIF m = 'floor-keyed' THEN
			PERFORM bench_floor_commit_keyed(t, a.actions);
		ELSE
			PERFORM deltacc.commit(t, rv, a.actions,
				ARRAY[format('id BETWEEN %s AND %s', s * 1000, s * 1000 + 999)],
				mode => m);
		END IF;
	EXCEPTION WHEN serialization_failure THEN
		RETURN false;
	END;
	UPDATE bench_slot SET path = a.next_path WHERE tbl = t AND slot = s;
	RETURN true;
END $$;

-- the bare floor, as the benchmark's first floor was: only the floor's
-- commit, inline (no read of the latest version, subtransaction or
-- bookkeeping)
CREATE FUNCTION bench_floor_bare(t text, s int) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	v bigint;
	a record;
BEGIN
	a := bench_actions(t, s, 0);
	SELECT latest INTO v FROM floor_head WHERE id = 1 FOR UPDATE;
	INSERT INTO floor_log VALUES (v + 1, a.actions::text);
	UPDATE floor_head SET latest = v + 1 WHERE id = 1;
	RETURN true;
END $$;
