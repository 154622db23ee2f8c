--
-- hostile_teardown.sql: drop the helpers of the hostile_* suites and
-- remove the scratch directory (in the background: deleting tens of
-- thousands of files can be slow).
--
SET client_min_messages = warning;
DROP SCHEMA regress_hostile CASCADE;
RESET client_min_messages;
\getenv builddir PG_ABS_BUILDDIR
\set hdir :builddir '/results/hostile_data'
\setenv HOSTILE_DIR :hdir
\! if [ -e "$HOSTILE_DIR" ]; then mv "$HOSTILE_DIR" "$HOSTILE_DIR.old.$$" && (rm -rf "$HOSTILE_DIR.old.$$" >/dev/null 2>&1 &); fi
