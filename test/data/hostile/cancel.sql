-- Run in the background by test/sql/hostile_limits.sql: wait until a
-- "SELECT deltacc.<fn>(" statement of another session has been active for
-- 0.5 s, cancel it with pg_cancel_backend and record when (the test then
-- checks that the cancel landed within a second).  Gives up after ~20 s.
DO $$
DECLARE
	p int;
BEGIN
	FOR i IN 1..2000 LOOP
		PERFORM pg_stat_clear_snapshot();
		SELECT pid INTO p FROM pg_stat_activity
		 WHERE state = 'active' AND pid <> pg_backend_pid()
		   AND query LIKE 'SELECT count(*) FROM deltacc.snapshot_files(%'
		   AND clock_timestamp() - query_start > interval '0.5 s';
		IF p IS NOT NULL THEN
			INSERT INTO regress_hostile.cancels VALUES (clock_timestamp(), pg_cancel_backend(p));
			RETURN;
		END IF;
		PERFORM pg_sleep(0.01);
	END LOOP;
END $$;
