--
-- skipping_property.sql: a randomized property test of the predicate
-- compiler.  It generates files with real rows, writes the statistics Delta
-- writers would write for them (string truncation with tie-breakers, the
-- Databricks 10.4 U+FFFD variant, millisecond timestamps with offsets, NaN
-- included or left out, nulls, all-null columns, wide bounds after
-- deletes, missing statistics) and random read predicates, then checks
-- with an oracle that evaluates each predicate on the live rows in
-- PostgreSQL (strings COLLATE "C"): no file that holds a matching row may
-- be skipped.  The seed is fixed so the output is stable; the generator is
-- real (change the seed to explore).
--
SET client_min_messages = warning;
SET TimeZone = 'UTC';
SELECT setseed(0.4242);

CREATE TEMP TABLE prop_schema AS SELECT '{"type":"struct","fields":[
 {"name":"id","type":"long","nullable":true,"metadata":{}},
 {"name":"v","type":"double","nullable":true,"metadata":{}},
 {"name":"s","type":"string","nullable":true,"metadata":{}},
 {"name":"ts","type":"timestamp","nullable":true,"metadata":{}},
 {"name":"d","type":"decimal(10,2)","nullable":true,"metadata":{}},
 {"name":"p","type":"integer","nullable":true,"metadata":{}}]}'::text AS s;

CREATE TEMP TABLE prop_rows (file int, live boolean, id bigint, v float8,
                             s text COLLATE "C", ts timestamptz, d numeric(10,2), p int);
CREATE TEMP TABLE prop_files (file int PRIMARY KEY, p int, pv jsonb, stats text,
                              nan_in_stats boolean, tight boolean);

-- Delta's max truncation (reference §1.9): prefix of L characters, extended
-- past U+10FFFF characters up to 2L, then U+007F or U+10FFFF; NULL if none fits
CREATE FUNCTION prop_trunc_max(v text, l int) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  n int := char_length(v);
  i int := l;
  res text := left(v, l);
BEGIN
  IF v IS NULL OR n <= l THEN RETURN v; END IF;
  WHILE i < n AND ascii(substr(v, i + 1, 1)) = 1114111 LOOP
    IF i >= 2 * l THEN RETURN NULL; END IF;
    res := res || chr(1114111);
    i := i + 1;
  END LOOP;
  IF i = n THEN RETURN res; END IF;
  IF i >= 2 * l THEN RETURN NULL; END IF;
  IF ascii(substr(v, i + 1, 1)) < 127 THEN RETURN res || chr(127); END IF;
  RETURN res || chr(1114111);
END $$;

CREATE FUNCTION prop_pick(a text[]) RETURNS text
LANGUAGE sql VOLATILE AS $$ SELECT a[1 + floor(random() * array_length(a, 1))::int] $$;

CREATE FUNCTION prop_str() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet text[] := ARRAY['a','b','m','z','A','~', chr(127), 'é', '€', '😀', chr(65533), chr(1114111), ' '];
  r text := '';
  n int := floor(random() * 7)::int;
BEGIN
  FOR k IN 1 .. n LOOP
    r := r || prop_pick(alphabet);
  END LOOP;
  RETURN r;
END $$;

CREATE FUNCTION prop_ts_text(t timestamptz, off_hours int) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN off_hours = 0
    THEN to_char(date_trunc('milliseconds', t) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') || 'Z'
    ELSE to_char((date_trunc('milliseconds', t) AT TIME ZONE 'UTC') + make_interval(hours => off_hours),
                 'YYYY-MM-DD"T"HH24:MI:SS.MS') || to_char(off_hours, 'S00') || ':00'
  END $$;

CREATE FUNCTION prop_float_json(x float8) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN x IS NULL THEN NULL
              WHEN x = 'NaN'::float8 THEN '"NaN"'::jsonb
              WHEN x = 'Infinity'::float8 THEN '"Infinity"'::jsonb
              WHEN x = '-Infinity'::float8 THEN '"-Infinity"'::jsonb
              ELSE to_jsonb(x) END $$;

-- ---------------------------------------------------------------------
-- generate 48 files
-- ---------------------------------------------------------------------
DO $$
DECLARE
  f int;
  nrows int;
  base bigint;
  pval int;
  tbase timestamptz;
  k int;
  all_null_col text;
BEGIN
  FOR f IN 1 .. 48 LOOP
    nrows := 1 + floor(random() * 12)::int;
    base := floor(random() * 1000)::bigint;
    pval := CASE WHEN random() < 0.2 THEN NULL ELSE floor(random() * 3)::int END;
    tbase := '2024-01-01 00:00:00+00'::timestamptz + make_interval(secs => floor(random() * 100) / 10.0);
    all_null_col := prop_pick(ARRAY['none', 'none', 'none', 'id', 'v', 's', 'ts', 'd']);
    FOR k IN 1 .. nrows LOOP
      INSERT INTO prop_rows VALUES (
        f,
        random() > 0.15,
        CASE WHEN all_null_col = 'id' OR random() < 0.1 THEN NULL ELSE base + floor(random() * 60)::bigint END,
        CASE WHEN all_null_col = 'v' OR random() < 0.1 THEN NULL
             WHEN random() < 0.08 THEN 'NaN'::float8
             WHEN random() < 0.03 THEN 'Infinity'::float8
             WHEN random() < 0.03 THEN '-Infinity'::float8
             ELSE round((base / 10.0 + random() * 20)::numeric, 3)::float8 END,
        CASE WHEN all_null_col = 's' OR random() < 0.1 THEN NULL ELSE prop_str() END,
        CASE WHEN all_null_col = 'ts' OR random() < 0.1 THEN NULL
             ELSE tbase + make_interval(secs => floor(random() * 3000000) / 1000000.0) END,
        CASE WHEN all_null_col = 'd' OR random() < 0.1 THEN NULL
             ELSE round((base / 7.0 + random() * 30)::numeric, 2) END,
        pval);
    END LOOP;
    INSERT INTO prop_files (file, p, pv, tight)
    VALUES (f, pval,
            CASE WHEN pval IS NOT NULL THEN jsonb_build_object('p', pval::text)
                 ELSE (ARRAY['{"p":null}', '{"p":""}', '{}'])[1 + floor(random() * 3)::int]::jsonb END,
            true);
  END LOOP;
  -- files with deletes: the deleted rows stay in the statistics (wide bounds)
  UPDATE prop_files SET tight = false WHERE file IN (SELECT DISTINCT file FROM prop_rows WHERE NOT live);
END $$;

-- statistics per file, the way a writer computes them over the physical rows
DO $$
DECLARE
  r record;
  l int := 3;            -- string prefix length (Delta's default is 32)
  mode text;
  minv jsonb;
  maxv jsonb;
  nullc jsonb;
  st jsonb;
  vmin float8;
  vmax float8;
  smin text;
  smax text;
  off int;
BEGIN
  FOR r IN SELECT f.file, f.tight, count(*) AS n,
                  min(id) AS idmin, max(id) AS idmax, count(*) - count(id) AS idnull,
                  min(v) AS vmin_all, max(v) AS vmax_all,
                  min(v) FILTER (WHERE v <> 'NaN') AS vmin_nonan, max(v) FILTER (WHERE v <> 'NaN') AS vmax_nonan,
                  count(*) - count(v) AS vnull,
                  min(s) AS smin, max(s) AS smax, count(*) - count(s) AS snull,
                  min(ts) AS tsmin, max(ts) AS tsmax, count(*) - count(ts) AS tsnull,
                  min(d) AS dmin, max(d) AS dmax, count(*) - count(d) AS dnull
             FROM prop_files f JOIN prop_rows w USING (file)
            GROUP BY f.file, f.tight ORDER BY f.file
  LOOP
    mode := prop_pick(ARRAY['spark', 'spark', 'spark', 'footer', 'dbr104', 'nostats', 'partial']);
    IF mode = 'footer' THEN
      vmin := r.vmin_nonan; vmax := r.vmax_nonan;
    ELSE
      vmin := r.vmin_all; vmax := r.vmax_all;
    END IF;
    smin := left(r.smin, l);
    smax := CASE WHEN mode = 'dbr104' AND char_length(r.smax) > l
                 THEN left(r.smax, l) || chr(65533)
                 ELSE prop_trunc_max(r.smax, l) END;
    off := (ARRAY[0, 0, 2, -8])[1 + floor(random() * 4)::int];
    minv := jsonb_strip_nulls(jsonb_build_object(
              'id', r.idmin, 'v', prop_float_json(vmin), 's', smin,
              'ts', prop_ts_text(r.tsmin, off), 'd', r.dmin));
    maxv := jsonb_strip_nulls(jsonb_build_object(
              'id', r.idmax, 'v', prop_float_json(vmax), 's', smax,
              'ts', prop_ts_text(r.tsmax, off), 'd', r.dmax));
    nullc := jsonb_build_object('id', r.idnull, 'v', r.vnull, 's', r.snull, 'ts', r.tsnull, 'd', r.dnull);
    IF mode = 'partial' THEN
      minv := minv - prop_pick(ARRAY['id', 'v', 's', 'ts', 'd']);
      nullc := nullc - prop_pick(ARRAY['id', 'v', 's', 'ts', 'd']);
    END IF;
    st := jsonb_build_object('numRecords', r.n, 'minValues', minv, 'maxValues', maxv, 'nullCount', nullc);
    IF NOT r.tight THEN
      st := st || '{"tightBounds": false}';
    END IF;
    UPDATE prop_files
       SET stats = CASE WHEN mode = 'nostats' THEN NULL ELSE st::text END,
           nan_in_stats = (mode <> 'footer')
     WHERE file = r.file;
  END LOOP;
END $$;

-- ---------------------------------------------------------------------
-- random predicates
-- ---------------------------------------------------------------------
CREATE FUNCTION prop_const(col text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  x text;
BEGIN
  -- half of the constants are values that occur in the data (boundaries)
  IF random() < 0.5 THEN
    EXECUTE format('SELECT %I::text FROM prop_rows WHERE %I IS NOT NULL ORDER BY random() LIMIT 1', col, col) INTO x;
  END IF;
  IF x IS NULL THEN
    x := CASE col
      WHEN 'id' THEN (floor(random() * 1100) - 20)::text
      WHEN 'v' THEN prop_pick(ARRAY[round((random() * 120 - 5)::numeric, 3)::text, 'NaN', 'Infinity', '-Infinity', '0'])
      WHEN 's' THEN prop_str()
      WHEN 'ts' THEN ('2024-01-01 00:00:00+00'::timestamptz + make_interval(secs => floor(random() * 15000000) / 1000000.0))::text
      WHEN 'd' THEN round((random() * 180 - 5)::numeric, 3)::text
      ELSE floor(random() * 4)::text END;
  END IF;
  RETURN quote_literal(x) || CASE col WHEN 'id' THEN '::bigint' WHEN 'v' THEN '::float8'
                                      WHEN 'ts' THEN '::timestamptz' WHEN 'd' THEN '::numeric'
                                      WHEN 'p' THEN '::int' ELSE '' END;
END $$;

CREATE FUNCTION prop_atom() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  col text := prop_pick(ARRAY['id', 'id', 'v', 's', 's', 'ts', 'd', 'p']);
  kind float8 := random();
BEGIN
  IF kind < 0.55 THEN
    RETURN format('%s %s %s', col, prop_pick(ARRAY['=', '<>', '<', '<=', '>', '>=']), prop_const(col));
  ELSIF kind < 0.62 THEN
    RETURN format('%s %s %s', prop_const(col), prop_pick(ARRAY['=', '<', '>=']), col);
  ELSIF kind < 0.72 THEN
    RETURN format('%s IN (%s, %s%s)', col, prop_const(col), prop_const(col),
                  CASE WHEN random() < 0.3 THEN ', NULL' ELSE '' END);
  ELSIF kind < 0.80 THEN
    RETURN format('%s IS %sNULL', col, CASE WHEN random() < 0.5 THEN 'NOT ' ELSE '' END);
  ELSIF kind < 0.88 THEN
    RETURN format('s LIKE %s', quote_literal(replace(replace(left(prop_str(), 2), '%', ''), '_', '') || '%'));
  ELSIF kind < 0.93 THEN
    RETURN format('%s BETWEEN %s AND %s', col, prop_const(col), prop_const(col));
  ELSIF kind < 0.97 THEN
    RETURN format('id + 1 > %s', prop_const('id'));
  ELSE
    RETURN format('%s IS NOT DISTINCT FROM %s', col, prop_const(col));
  END IF;
END $$;

CREATE FUNCTION prop_pred(depth int) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  k float8 := random();
BEGIN
  IF depth >= 2 OR k < 0.45 THEN
    RETURN prop_atom();
  ELSIF k < 0.7 THEN
    RETURN format('(%s AND %s)', prop_pred(depth + 1), prop_pred(depth + 1));
  ELSIF k < 0.9 THEN
    RETURN format('(%s OR %s)', prop_pred(depth + 1), prop_pred(depth + 1));
  ELSE
    RETURN format('NOT (%s)', prop_pred(depth + 1));
  END IF;
END $$;

CREATE TEMP TABLE prop_preds (n int PRIMARY KEY, pred text, matching int[]);
DO $$
DECLARE
  n int;
  pr text;
  m int[];
BEGIN
  FOR n IN 1 .. 250 LOOP
    pr := prop_pred(0);
    -- the oracle: files with a live row that satisfies the predicate
    EXECUTE format('SELECT coalesce(array_agg(DISTINCT file), ''{}'') FROM prop_rows WHERE live AND (%s)', pr) INTO m;
    INSERT INTO prop_preds VALUES (n, pr, m);
  END LOOP;
END $$;

-- every (predicate, file) decision; the writer's NaN behaviour is passed as
-- the checker passes it (footer writers: false), plus a random share of
-- Spark files checked conservatively
CREATE TEMP TABLE prop_decisions AS
SELECT q.n, f.file, f.file = ANY (q.matching) AS has_match, m.keep, m.reason,
       q.pred, f.stats, f.pv
  FROM prop_preds q CROSS JOIN prop_files f,
       LATERAL deltacc.file_may_match((SELECT s FROM prop_schema), q.pred, f.stats, f.pv, '{p}', '{}',
                                      f.nan_in_stats AND (f.file + q.n) % 3 <> 0) m;

-- the property: never skip a file that holds a matching row
SELECT count(*) AS decisions,
       count(*) FILTER (WHERE has_match) AS files_with_match,
       count(*) FILTER (WHERE NOT keep) AS skipped,
       count(*) FILTER (WHERE NOT keep AND has_match) AS unsafe_skips
  FROM prop_decisions;
-- the counterexamples, if any (must be empty)
SELECT n, file, pred, reason, stats, pv FROM prop_decisions WHERE NOT keep AND has_match ORDER BY n, file LIMIT 20;
-- the test is not vacuous: skips happen for many kinds of predicates
SELECT count(DISTINCT n) AS predicates_that_skip FROM prop_decisions WHERE NOT keep;
SELECT reason_kind, count(*) FROM (
  SELECT CASE WHEN reason LIKE 'partition predicate%' THEN 'partition'
              WHEN reason LIKE 'min(%' OR reason LIKE 'max(%' THEN 'min/max'
              WHEN reason LIKE 'left(%' THEN 'prefix'
              WHEN reason LIKE 'nullcount(%' OR reason LIKE '% is all null%' THEN 'null count'
              WHEN reason LIKE 'a conjunct is NULL or false%' THEN 'constant false'
              ELSE 'composite' END AS reason_kind
    FROM prop_decisions WHERE NOT keep) x
 GROUP BY 1 ORDER BY 1;
