--
-- spark_predicate_property.sql: a property test of the recorded-predicate
-- translator.  test/data/spark_predicate/make_cases.py (seeded, committed
-- with its output) generated random predicates over a small typed table,
-- each rendered as Spark's toString, Spark's .sql and delta-rs print it,
-- random rows with NULLs, and the rows Spark's semantics select, from a
-- reference evaluator of its own.  Here every rendering is translated three
-- ways (with the schema and the writer, with the schema alone, schema-less)
-- and PostgreSQL evaluates each translation on the rows:
--   exact     must select exactly the rows the reference selects,
--   widened   must select a superset of them,
--   none      (NULL: a read of the whole table) is always sound.
-- With a schema the translation must also compile as a read predicate
-- (deltacc.file_may_match).  Schema-less, a translation may fail to
-- compile against the table (documented: an unquoted integer next to a
-- string column is an error, never a different read); such errors are
-- counted, not failed.  The session settings below are hostile on purpose:
-- no translation may depend on the time zone, DateStyle or
-- standard_conforming_strings.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set cases :abs_srcdir '/data/spark_predicate/cases.json'
SET client_min_messages = warning;
SET TimeZone = 'Pacific/Chatham';
SET DateStyle = 'SQL, DMY';
SET IntervalStyle = 'sql_standard';
SET extra_float_digits = -3;
SET standard_conforming_strings = off;
SET escape_string_warning = off;

CREATE TEMP TABLE sp_data AS SELECT pg_read_file(:'cases')::jsonb AS j;

-- the table, typed by DESIGN.md's mapping; strings compare in byte order
CREATE TEMP TABLE sp_rows (rid int, i int, l bigint, sm smallint,
    dc numeric(6,2), f real, db double precision, s text COLLATE "C",
    b boolean, dt date, ts timestamptz, tn timestamp, "st.x" int,
    "Cat" text COLLATE "C");
INSERT INTO sp_rows
SELECT * FROM jsonb_populate_recordset(NULL::sp_rows, (SELECT j->'rows' FROM sp_data));

CREATE TEMP TABLE sp_cases AS
SELECT (c->>'pid')::int AS pid, c->>'fmt' AS fmt, c->>'engine' AS engine,
       c->>'text' AS txt,
       ARRAY(SELECT e::int FROM jsonb_array_elements_text(c->'expect') e ORDER BY 1) AS expect
  FROM sp_data, jsonb_array_elements(j->'cases') c;

SELECT (SELECT count(*) FROM sp_rows) AS rows,
       (SELECT count(*) FROM sp_rows WHERE s IS NULL) AS null_strings,
       (SELECT count(DISTINCT pid) FROM sp_cases) AS predicates,
       (SELECT count(*) FROM sp_cases) AS renderings;

-- rows a read predicate selects; NULL and the message when it errors
CREATE FUNCTION pg_temp.sp_select(pred text, OUT got int[], OUT err text)
LANGUAGE plpgsql AS $$
BEGIN
	IF pred IS NULL THEN
		RETURN;
	END IF;
	EXECUTE 'SELECT coalesce(array_agg(rid ORDER BY rid), ''{}'') FROM pg_temp.sp_rows WHERE '
		|| pred INTO got;
EXCEPTION WHEN OTHERS THEN
	got := NULL;
	err := SQLERRM;
END $$;

-- does it compile as a read predicate of the table (the project's dialect)?
CREATE FUNCTION pg_temp.sp_compiles(pred text, schema text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM deltacc.file_may_match(schema, pred);
	RETURN NULL;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLERRM;
END $$;

CREATE TEMP TABLE sp_results AS
WITH s AS (SELECT j->>'schema' AS schema FROM sp_data),
modes AS (
	SELECT c.pid, c.fmt, c.txt, c.expect, 'schema+writer' AS mode, e.*
	  FROM sp_cases c, s, deltacc.explain_spark_predicate(c.txt, s.schema, c.engine) e
	UNION ALL
	SELECT c.pid, c.fmt, c.txt, c.expect, 'schema', e.*
	  FROM sp_cases c, s, deltacc.explain_spark_predicate(c.txt, s.schema) e
	UNION ALL
	SELECT c.pid, c.fmt, c.txt, c.expect, 'schema-less', e.*
	  FROM sp_cases c, deltacc.explain_spark_predicate(c.txt) e)
SELECT m.*, r.got, r.err,
       CASE WHEN m.read_predicate IS NOT NULL AND m.mode <> 'schema-less'
            THEN pg_temp.sp_compiles(m.read_predicate, s.schema) END AS compile_err
  FROM modes m CROSS JOIN s, LATERAL pg_temp.sp_select(m.read_predicate) r;

-- spark_predicate(text) is the schema-less translation
SELECT count(*) AS schema_less_mismatches
  FROM sp_results r
 WHERE r.mode = 'schema-less'
   AND deltacc.spark_predicate(r.txt) IS DISTINCT FROM r.read_predicate;

ALTER TABLE sp_results ADD COLUMN verdict text;
UPDATE sp_results SET verdict = CASE
	WHEN outcome = 'none' THEN CASE WHEN read_predicate IS NULL THEN 'ok' ELSE 'none with a predicate' END
	WHEN read_predicate IS NULL THEN 'no predicate'
	WHEN compile_err IS NOT NULL THEN 'does not compile: ' || compile_err
	WHEN err IS NOT NULL THEN CASE WHEN mode = 'schema-less' THEN 'error' ELSE 'error: ' || err END
	WHEN outcome = 'exact' AND got = expect THEN 'ok'
	WHEN outcome = 'widened' AND got @> expect THEN 'ok'
	WHEN outcome = 'exact' AND got @> expect THEN 'exact but wider'
	ELSE 'NARROWER' END;

-- how the renderings translate (the outcome counts of this seed)
SELECT mode, fmt, count(*) FILTER (WHERE outcome = 'exact') AS exact,
       count(*) FILTER (WHERE outcome = 'widened') AS widened,
       count(*) FILTER (WHERE outcome = 'none') AS none,
       count(*) FILTER (WHERE verdict = 'error') AS schema_less_errors
  FROM sp_results GROUP BY 1, 2 ORDER BY 1, 2;

-- exact translations select rows at all (the test is not vacuous)
SELECT count(*) FILTER (WHERE outcome = 'exact' AND cardinality(expect) > 0
                          AND cardinality(expect) < 40) >= 1000 AS many_selective_exact,
       count(*) FILTER (WHERE outcome = 'widened' AND got <> expect) >= 50 AS some_strictly_wider
  FROM sp_results WHERE verdict = 'ok';

-- the verdict: every translation exact, a superset, or none
SELECT count(*) FILTER (WHERE verdict IN ('ok', 'error')) AS passed,
       count(*) FILTER (WHERE verdict NOT IN ('ok', 'error')) AS failed
  FROM sp_results;

-- failures, if any (expected: none)
SELECT mode, fmt, pid, txt, outcome, read_predicate, verdict,
       expect, got
  FROM sp_results WHERE verdict NOT IN ('ok', 'error')
 ORDER BY pid, fmt, mode LIMIT 20;
