--
-- spark_predicate_real.sql: every predicate recorded in the commitInfo of
-- the real Delta tables ($DELTACC_TABLES), translated against the table's
-- schema at the writer's read version for the writer that recorded it;
-- then, for every DELETE, the rows the translation selects at the read
-- version must be exactly the rows the commit deleted (those live before
-- it and not after it).  Skipped (and says so) when DELTACC_TABLES is
-- empty.
--
\getenv tables DELTACC_TABLES
\if :{?tables}
SELECT :'tables' <> '' AS have_tables \gset
\else
\set have_tables false
\endif
\if :have_tables
SELECT set_config('deltacc_test.tables', :'tables' || '/', false) IS NOT NULL AS ok;
\else
\echo 'spark_predicate_real: DELTACC_TABLES is empty, suite skipped'
SELECT set_config('deltacc_test.tables', '', false) IS NOT NULL AS ok;
\endif
\if :have_tables
SET client_min_messages = warning;

-- table roots: <name>/ or, for the golden tables, <name>/delta/
CREATE TEMP TABLE roots AS
SELECT d AS tbl, root
  FROM pg_ls_dir(current_setting('deltacc_test.tables')) AS d,
       LATERAL (SELECT current_setting('deltacc_test.tables') || d ||
                       CASE WHEN d LIKE 'golden-%' THEN '/delta' ELSE '' END AS root) r
 WHERE (pg_stat_file(current_setting('deltacc_test.tables') || d)).isdir
   AND coalesce((pg_stat_file(root || '/_delta_log', true)).isdir, false);

-- the commits with a predicate (tables whose log does not load are left out)
CREATE FUNCTION pg_temp.recorded(root text)
RETURNS TABLE (version bigint, operation text, read_version bigint,
               engine_info text, pred text)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY
	SELECT h.version, h.operation, h.read_version, h.engine_info,
	       h.operation_parameters->>'predicate'
	  FROM deltacc.history(root) h
	 WHERE h.operation_parameters ? 'predicate';
EXCEPTION WHEN OTHERS THEN
	RETURN;
END $$;

CREATE FUNCTION pg_temp.schema_at(root text, v bigint) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	RETURN (SELECT schema::text FROM deltacc.table_info(root, v));
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;

CREATE TEMP TABLE translated AS
SELECT r.tbl, r.root, c.version, c.operation, c.read_version, c.engine_info,
       c.pred, e.read_predicate, e.outcome, e.reason
  FROM roots r, LATERAL pg_temp.recorded(r.root) c,
       LATERAL deltacc.explain_spark_predicate(
           c.pred,
           pg_temp.schema_at(r.root, greatest(coalesce(c.read_version, c.version - 1), 0)),
           c.engine_info) e;

SELECT count(DISTINCT tbl) >= 8 AS tables, count(*) >= 90 AS predicates FROM translated;

-- by operation and outcome
SELECT operation, outcome, count(*) FROM translated GROUP BY 1, 2 ORDER BY 1, 2;

-- each shape of recorded string (numbers aside) once, with its translation
SELECT DISTINCT ON (regexp_replace(pred, '[0-9]+', 'N', 'g'), outcome)
       operation, split_part(engine_info, ' ', 1) AS writer, pred, read_predicate,
       outcome, reason, count(*) OVER (PARTITION BY regexp_replace(pred, '[0-9]+', 'N', 'g')) AS strings
  FROM translated
 ORDER BY regexp_replace(pred, '[0-9]+', 'N', 'g'), outcome, tbl, version;

-- DELETEs: the translation selects exactly the deleted rows
CREATE FUNCTION pg_temp.delete_check(root text, v bigint, pred text,
                                     OUT deleted bigint, OUT selected bigint,
                                     OUT differ bigint)
LANGUAGE plpgsql AS $$
BEGIN
	CREATE TEMP TABLE before_rows ON COMMIT DROP AS
		SELECT r FROM deltacc.read_rows(root, v - 1) r;
	CREATE TEMP TABLE gone ON COMMIT DROP AS
		SELECT r FROM before_rows
		EXCEPT ALL SELECT r FROM deltacc.read_rows(root, v) r;
	CREATE TEMP TABLE chosen ON COMMIT DROP AS
		SELECT r FROM deltacc.read_rows(root, v - 1, pred) r;
	deleted := (SELECT count(*) FROM gone);
	selected := (SELECT count(*) FROM chosen);
	differ := (SELECT count(*) FROM ((SELECT r FROM gone EXCEPT ALL SELECT r FROM chosen)
	                                 UNION ALL
	                                 (SELECT r FROM chosen EXCEPT ALL SELECT r FROM gone)) x);
	DROP TABLE before_rows, gone, chosen;
END $$;

SELECT t.tbl, t.version, t.read_predicate, t.outcome, d.deleted, d.selected,
       CASE WHEN t.outcome = 'exact' THEN d.differ = 0
            ELSE d.deleted <= d.selected END AS right_rows
  FROM translated t, LATERAL pg_temp.delete_check(t.root, t.version, t.read_predicate) d
 WHERE t.operation = 'DELETE' AND t.read_predicate IS NOT NULL
   AND t.read_version = t.version - 1
 ORDER BY t.tbl, t.version;
\endif
