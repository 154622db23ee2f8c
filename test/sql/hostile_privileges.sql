--
-- hostile_privileges.sql: the privilege matrix of every function of the
-- extension, found in the catalogs (so functions added later are covered
-- without editing this file), for four roles:
--   nobody   nothing on the extension: refused at the schema
--   usage    USAGE on the schema only (as if an administrator had opened
--            it to more roles): refused by every function that reads files
--   granted  USAGE, and EXECUTE granted directly on every function, but not
--            a member of pg_read_server_files: the C check must still
--            refuse, and before touching the path (a nonexistent path must
--            give 42501, not "no such file")
--   reader   member of pg_read_server_files and nothing else on the
--            extension: every function that reads must let it through
-- (All four may use this suite's own schema regress_hostile.)  A function
-- "reads files" when it has an input argument table_path or path; those
-- must not be executable by PUBLIC.  A function that "commits" (EXECUTE
-- granted to deltacc_committer, not to pg_read_server_files: registering,
-- committing and publishing catalog-managed tables) refuses a reader too.
-- Only rule violations are listed (expected: none); the matrix of the
-- functions known when this was written follows.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\set sales :abs_srcdir '/data/log/sales'
SELECT path || '/base' AS base FROM regress_hostile.dirs WHERE name = 'fx' \gset

CREATE ROLE regress_hostile_nobody;
CREATE ROLE regress_hostile_usage;
CREATE ROLE regress_hostile_granted;
CREATE ROLE regress_hostile_reader IN ROLE pg_read_server_files;
GRANT USAGE ON SCHEMA deltacc TO regress_hostile_usage, regress_hostile_granted;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA deltacc TO regress_hostile_granted;
GRANT USAGE ON SCHEMA regress_hostile
   TO regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
      regress_hostile_reader;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA regress_hostile
   TO regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
      regress_hostile_reader;
GRANT SELECT ON regress_hostile.dirs
   TO regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
      regress_hostile_reader;

-- the extension's functions (everything in its schema), with a call using only their required
-- arguments: the table path, then typed sample values
CREATE VIEW regress_hostile.ext_functions AS
SELECT p.oid::regprocedure AS fn, p.proname,
       EXISTS (SELECT 1 FROM unnest(p.proargnames) WITH ORDINALITY AS n(name, i)
                WHERE n.name IN ('table_path', 'path')
                  AND coalesce(p.proargmodes[n.i], 'i') IN ('i', 'b')) AS reads_files,
       has_function_privilege('deltacc_committer', p.oid, 'EXECUTE')
         AND NOT has_function_privilege('pg_read_server_files', p.oid, 'EXECUTE') AS commits,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_execute,
       format('SELECT count(*) FROM (SELECT deltacc.%I(%s)) s', p.proname,
              (SELECT string_agg(CASE
                   WHEN i = 1 AND t = 'text'::regtype THEN '%1$L'
                   WHEN t = 'text'::regtype THEN '''true'''
                   WHEN t = 'text[]'::regtype THEN 'ARRAY[''true'']'
                   WHEN t = 'jsonb'::regtype THEN '''{"storageType":"i","pathOrInlineDv":"","sizeInBytes":0,"cardinality":0}''::jsonb'
                   WHEN t = 'bigint'::regtype THEN '0'
                   WHEN t = 'integer'::regtype THEN '0'
                   WHEN t = 'boolean'::regtype THEN 'false'
                   ELSE 'NULL::' || t::regtype::text END, ', ' ORDER BY i)
                 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, i)
                WHERE i <= p.pronargs - p.pronargdefaults)) AS call
  FROM pg_proc p
 WHERE p.pronamespace = 'deltacc'::regnamespace
   AND NOT 'internal'::regtype = ANY (p.proargtypes::oid[]);
GRANT SELECT ON regress_hostile.ext_functions
   TO regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
      regress_hostile_reader;

-- outcome of every function for the current role, on table 'path'
CREATE FUNCTION regress_hostile.try_all(path text)
RETURNS TABLE (proname name, reads_files boolean, commits boolean, outcome text)
LANGUAGE plpgsql AS $$
DECLARE
	f record;
	st text;
BEGIN
	FOR f IN SELECT * FROM regress_hostile.ext_functions ORDER BY 1::text LOOP
		proname := f.proname;
		reads_files := f.reads_files;
		commits := f.commits;
		BEGIN
			EXECUTE format(f.call, path);
			outcome := 'ok';
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
			outcome := st;
		END;
		RETURN NEXT;
	END LOOP;
END $$;
GRANT EXECUTE ON FUNCTION regress_hostile.try_all(text)
   TO regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
      regress_hostile_reader;

CREATE TABLE regress_hostile.matrix (role text, path text, proname name,
                                     reads_files boolean, commits boolean,
                                     outcome text);
GRANT INSERT ON regress_hostile.matrix
   TO regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
      regress_hostile_reader;

SET ROLE regress_hostile_nobody;
INSERT INTO regress_hostile.matrix SELECT current_user, 'sales', * FROM regress_hostile.try_all(:'sales');
RESET ROLE;
SET ROLE regress_hostile_usage;
INSERT INTO regress_hostile.matrix SELECT current_user, 'sales', * FROM regress_hostile.try_all(:'sales');
RESET ROLE;
SET ROLE regress_hostile_granted;
INSERT INTO regress_hostile.matrix SELECT current_user, 'sales', * FROM regress_hostile.try_all(:'sales');
INSERT INTO regress_hostile.matrix SELECT current_user, 'missing', * FROM regress_hostile.try_all('/nonexistent/deltacc/table');
RESET ROLE;
SET ROLE regress_hostile_reader;
INSERT INTO regress_hostile.matrix SELECT current_user, 'sales', * FROM regress_hostile.try_all(:'sales');
INSERT INTO regress_hostile.matrix SELECT current_user, 'missing', * FROM regress_hostile.try_all('/nonexistent/deltacc/table');
RESET ROLE;

SELECT count(DISTINCT proname) >= 7 AS functions_checked FROM regress_hostile.matrix;

-- the functions left out of the matrix take an internal argument (the
-- planner support function of snapshot_files), which no SQL call can give
SELECT p.oid::regprocedure AS internal_only
  FROM pg_proc p
 WHERE p.pronamespace = 'deltacc'::regnamespace
   AND 'internal'::regtype = ANY (p.proargtypes::oid[])
 ORDER BY 1;
SET ROLE regress_hostile_granted;
SELECT deltacc.snapshot_files_support(NULL);
SELECT deltacc.snapshot_files_support(NULL::internal);
RESET ROLE;

-- violations (expected: none)
SELECT fn::text AS function, 'executable by PUBLIC' AS violation
  FROM regress_hostile.ext_functions WHERE reads_files AND public_execute
UNION ALL
SELECT proname::text, format('%s on %s: %s', role, path, outcome)
  FROM regress_hostile.matrix
 WHERE CASE
         WHEN role = 'regress_hostile_reader' AND commits THEN outcome <> '42501'
         WHEN role = 'regress_hostile_reader' THEN outcome IN ('42501', 'XX000')
         WHEN role = 'regress_hostile_nobody' OR reads_files THEN outcome <> '42501'
         ELSE outcome = 'XX000'
       END
ORDER BY 1, 2;

-- the matrix of the functions known when this suite was written
SELECT m.proname, m.reads_files,
       max(outcome) FILTER (WHERE role = 'regress_hostile_nobody') AS nobody,
       max(outcome) FILTER (WHERE role = 'regress_hostile_usage') AS usage,
       max(outcome) FILTER (WHERE role = 'regress_hostile_granted' AND path = 'sales') AS granted,
       max(outcome) FILTER (WHERE role = 'regress_hostile_granted' AND path = 'missing') AS granted_missing,
       max(outcome) FILTER (WHERE role = 'regress_hostile_reader' AND path = 'sales') AS reader,
       max(outcome) FILTER (WHERE role = 'regress_hostile_reader' AND path = 'missing') AS reader_missing
  FROM regress_hostile.matrix m
 WHERE m.proname IN ('load_log', 'history', 'snapshot_files', 'table_info',
                     'skipping_predicate', 'file_may_match', 'deletion_vector',
                     'files_for_scan', 'read_rows', 'conflicts',
                     'explain_conflicts', 'assert_no_conflict',
                     'commit_cache_stats', 'read_parquet',
                     'register_table', 'commit', 'latest_version',
                     'ratified_commits', 'publish')
 GROUP BY 1, 2 ORDER BY 1;

-- paths from the log: a "p" deletion vector may name any absolute file the
-- caller could read anyway (pg_read_server_files), a "u" one never leaves
-- the table root; relative add paths that escape the root are refused where
-- files are opened (also hostile_fixtures: dv_u_prefix_dotdot, path_*)
SET ROLE regress_hostile_reader;
-- the row-level checker opens the winners' added data files: a relative
-- path escaping the root (plain or %-encoded) is never opened, an absolute
-- one is (the caller could read it anyway); either way the file is kept as
-- a conflict, with the reason
SELECT c.name AS tbl, e.decision, e.reason
  FROM regress_hostile.dirs d,
       LATERAL (VALUES ('path_dotdot_etc_passwd'), ('path_dotdot_encoded'),
                       ('path_absolute_etc_passwd'), ('path_file_uri')) AS c(name),
       LATERAL deltacc.explain_conflicts(d.path || '/' || c.name, 0, ARRAY['id > 5'],
         '[{"remove":{"path":"region=US/part-1.parquet","dataChange":true}}]',
         isolation_level => 'Serializable', mode => 'row_level') e
 WHERE d.name = 'fx' AND e."check" = 'added_files' AND e.winning_version = 1
   AND e.path NOT LIKE 'region=%'
 ORDER BY 1, 3;
SELECT storage_type, cardinality FROM deltacc.deletion_vector(:'base',
  '{"storageType":"u","pathOrInlineDv":"../Q6Kt3y1b)0MgZSWwPunr","offset":1,"sizeInBytes":36,"cardinality":2}');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;

DROP TABLE regress_hostile.matrix;
DROP FUNCTION regress_hostile.try_all(text);
DROP VIEW regress_hostile.ext_functions;
REVOKE ALL ON regress_hostile.dirs
  FROM regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
       regress_hostile_reader;
DROP OWNED BY regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
              regress_hostile_reader;
DROP ROLE regress_hostile_nobody, regress_hostile_usage, regress_hostile_granted,
          regress_hostile_reader;
