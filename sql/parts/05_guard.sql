
-- ---------------------------------------------------------------------------
-- Install-time guard (owner: hostile).  CREATE EXTENSION reuses a schema
-- "deltacc" that already exists.  If a role that is not a superuser owns it
-- or may create objects in it, that role could drop, replace or shadow the
-- extension's objects later, which are called by pg_read_server_files
-- members and superusers: refuse to install there.
-- ---------------------------------------------------------------------------
DO $guard$
BEGIN
	IF EXISTS (SELECT 1
				 FROM pg_catalog.pg_namespace n
				 JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
				WHERE n.nspname OPERATOR(pg_catalog.=) 'deltacc'
				  AND NOT r.rolsuper)
	   OR EXISTS (SELECT 1
					FROM pg_catalog.pg_namespace n,
						 pg_catalog.aclexplode(n.nspacl) a
				   WHERE n.nspname OPERATOR(pg_catalog.=) 'deltacc'
					 AND a.privilege_type OPERATOR(pg_catalog.=) 'CREATE'
					 AND (a.grantee OPERATOR(pg_catalog.=) 0
						  OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles g
										  WHERE g.oid OPERATOR(pg_catalog.=) a.grantee
											AND g.rolsuper)))
	THEN
		RAISE EXCEPTION 'schema "deltacc" is not safe for extension deltacc'
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'A role that is not a superuser owns the schema or may create objects in it.',
				  HINT = 'Drop the schema (or give it to a superuser and revoke CREATE), then run CREATE EXTENSION again.';
	END IF;
END
$guard$;

-- ---------------------------------------------------------------------------
-- The schema's privileges (owner: foundation).  Every call of a function
-- below needs USAGE on schema deltacc.  pg_read_server_files gets it, so
-- that membership in that role is all a caller needs: the functions that
-- read files grant EXECUTE to it as well (and check the membership again in
-- C), load_log's pg_temp relations need only the TEMPORARY privilege on the
-- database that PUBLIC has by default.  PUBLIC gets nothing here.
-- sql/upgrade/1.0--1.1.sql grants the same to a 1.0 install.
-- ---------------------------------------------------------------------------
GRANT USAGE ON SCHEMA deltacc TO pg_read_server_files;
