--
-- extension.sql: the extension installs into its own schema and is not relocatable.
--
SELECT extname, extversion, extrelocatable, nspname
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE extname = 'deltacc';

-- the extension may not be moved to another schema
CREATE SCHEMA regress_elsewhere;
ALTER EXTENSION deltacc SET SCHEMA regress_elsewhere;  -- ERROR
DROP SCHEMA regress_elsewhere;
