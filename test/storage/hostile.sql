-- hostile.sql: object-store endpoints that misbehave (test/storage/
-- hostile_server.py on loopback) end in clean errors with the right
-- SQLSTATE, in bounded time, and no message, detail, hint or context
-- line holds the user mapping's secret.  Variables: endpoint (the hostile
-- server), refused (an endpoint where nothing listens).
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS deltacc;
SELECT set_config('hostile.endpoint', :'endpoint', false) IS NOT NULL AS set,
       set_config('hostile.refused', :'refused', false) IS NOT NULL AS set;

DO $$
DECLARE
  b text;
BEGIN
  FOREACH b IN ARRAY ARRAY['good', 'hang', 'dribble', 'lateok', 'trunc', 's403',
                           's404', 's500', 's503', 'flaky', 'get404', 'order',
                           'truncxml', 'notoken', 'sametoken', 'newtoken', 'outside',
                           'redirect', 'huge', 'hugeget', 'nolength'] LOOP
    EXECUTE format('CREATE SERVER %I FOREIGN DATA WRAPPER deltacc_storage
                      OPTIONS (url_prefix %L, endpoint %L)',
                   'h_' || b, 's3://' || b || '/', current_setting('hostile.endpoint'));
    EXECUTE format('CREATE USER MAPPING FOR CURRENT_USER SERVER %I
                      OPTIONS (key_id %L, secret %L)',
                   'h_' || b, 'AKIDHOSTILE', 'hostile-secret-value-42');
  END LOOP;
  EXECUTE format('CREATE SERVER h_refused FOREIGN DATA WRAPPER deltacc_storage
                    OPTIONS (url_prefix %L, endpoint %L)',
                 's3://refused/', current_setting('hostile.refused'));
  CREATE USER MAPPING FOR CURRENT_USER SERVER h_refused
    OPTIONS (key_id 'AKIDHOSTILE', secret 'hostile-secret-value-42');
  -- Azure, with the secret in a SAS token (so in every request's URL)
  FOREACH b IN ARRAY ARRAY['hang', 's403', 's503', 'good'] LOOP
    EXECUTE format('CREATE SERVER %I FOREIGN DATA WRAPPER deltacc_storage
                      OPTIONS (url_prefix %L, endpoint %L, url_style %L)',
                   'h_az_' || b, 'az://' || b || '@hostileacct/',
                   current_setting('hostile.endpoint'), 'virtual');
    EXECUTE format('CREATE USER MAPPING FOR CURRENT_USER SERVER %I
                      OPTIONS (sas_token %L)',
                   'h_az_' || b, 'sv=2021-12-02&sp=rl&sig=hostile-secret-value-42');
  END LOOP;
END $$;

-- Run q; 'ok' when it fails with SQLSTATE want (NULL: succeeds) within
-- max_seconds and leaks no secret.
CREATE FUNCTION pg_temp.expect(name text, q text, want text, max_seconds float8)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz := clock_timestamp();
  secs float8;
  got text := NULL;
  msg text := '';
  det text;
  hint text;
  ctx text;
  everything text := '';
BEGIN
  BEGIN
    EXECUTE q;
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    GET STACKED DIAGNOSTICS got = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
      det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT, ctx = PG_EXCEPTION_CONTEXT;
    everything := concat_ws(' | ', msg, det, hint, ctx);
  END;
  secs := extract(epoch FROM clock_timestamp() - t0);
  IF got IS DISTINCT FROM want THEN
    RETURN format('not ok - %s: SQLSTATE %s, expected %s (%s)', name,
                  coalesce(got, 'none'), coalesce(want, 'none'), everything);
  END IF;
  IF everything LIKE '%hostile-secret%' THEN
    RETURN format('not ok - %s: the secret is in the error: %s', name, everything);
  END IF;
  IF secs > max_seconds THEN
    RETURN format('not ok - %s: took %s s (more than %s)', name, round(secs::numeric, 1), max_seconds);
  END IF;
  RETURN format('ok - %s (%s%s)', name, coalesce(got, 'no error'),
                CASE WHEN msg <> '' THEN ': ' || msg ELSE '' END);
END $$;

SET deltacc.storage_retries = 2;
SET deltacc.storage_stall_timeout = '2s';
SET deltacc.storage_connect_timeout = '2s';

\pset tuples_only on
\pset format unaligned
SELECT pg_temp.expect('good endpoint', $$SELECT * FROM deltacc.history('s3://good/t')$$, NULL, 5);
SELECT pg_temp.expect('answers after a pause', $$SELECT * FROM deltacc.history('s3://lateok/t')$$, NULL, 10);
SELECT pg_temp.expect('503 twice, then the answer (retried)', $$SELECT * FROM deltacc.history('s3://flaky/t')$$, NULL, 10);
SELECT pg_temp.expect('HEAD without Content-Length', $$SELECT * FROM deltacc.history('s3://nolength/t')$$, '08P01', 5);
-- no answer: the stall timeout ends each attempt
SELECT pg_temp.expect('never answers (stall timeout)', $$SELECT * FROM deltacc.history('s3://hang/t')$$, '08006', 12);
SELECT pg_temp.expect('nothing listens', $$SELECT * FROM deltacc.history('s3://refused/t')$$, '08006', 5);
-- a cancel ends a request at once: statement_timeout while it hangs
SET deltacc.storage_stall_timeout = '600s';
SET statement_timeout = '1s';
SELECT pg_temp.expect('never answers (statement_timeout)', $$SELECT * FROM deltacc.history('s3://hang/t')$$, '57014', 4);
SELECT pg_temp.expect('answers one byte at a time (statement_timeout)', $$SELECT * FROM deltacc.history('s3://dribble/t')$$, '57014', 4);
RESET statement_timeout;
SET deltacc.storage_stall_timeout = '2s';
SELECT pg_temp.expect('truncated body', $$SELECT * FROM deltacc.history('s3://trunc/t')$$, '08006', 10);
SELECT pg_temp.expect('403', $$SELECT * FROM deltacc.history('s3://s403/t')$$, '42501', 5);
SELECT pg_temp.expect('404 bucket', $$SELECT * FROM deltacc.history('s3://s404/t')$$, '58P01', 5);
SELECT pg_temp.expect('404 commit', $$SELECT * FROM deltacc.history('s3://get404/t')$$, '58P01', 5);
SELECT pg_temp.expect('500 (after retries)', $$SELECT * FROM deltacc.history('s3://s500/t')$$, '58030', 10);
SELECT pg_temp.expect('503 (after retries)', $$SELECT * FROM deltacc.history('s3://s503/t')$$, '58030', 10);
SELECT pg_temp.expect('redirect not followed', $$SELECT * FROM deltacc.history('s3://redirect/t')$$, '58030', 5);
SELECT pg_temp.expect('listing out of order', $$SELECT * FROM deltacc.history('s3://order/t')$$, 'XX001', 5);
SELECT pg_temp.expect('listing cut short', $$SELECT * FROM deltacc.history('s3://truncxml/t')$$, 'XX001', 5);
SELECT pg_temp.expect('truncated listing without a token', $$SELECT * FROM deltacc.history('s3://notoken/t')$$, 'XX001', 5);
SELECT pg_temp.expect('listing repeating its token', $$SELECT * FROM deltacc.history('s3://sametoken/t')$$, 'XX001', 5);
SELECT pg_temp.expect('listing of empty pages forever', $$SELECT * FROM deltacc.history('s3://newtoken/t')$$, 'XX001', 10);
SELECT pg_temp.expect('listing outside the prefix', $$SELECT * FROM deltacc.history('s3://outside/t')$$, 'XX001', 5);
SELECT pg_temp.expect('64 MB listing (16 MB limit)', $$SELECT * FROM deltacc.history('s3://huge/t')$$, '54000', 10);
SET deltacc.max_log_file_bytes = '1MB';
SELECT pg_temp.expect('4 MB commit (1 MB limit)', $$SELECT * FROM deltacc.history('s3://hugeget/t')$$, '54000', 10);
RESET deltacc.max_log_file_bytes;
SELECT pg_temp.expect('Azure: 403', $$SELECT * FROM deltacc.history('az://s403@hostileacct/t')$$, '42501', 5);
SELECT pg_temp.expect('Azure: 503 (after retries)', $$SELECT * FROM deltacc.history('az://s503@hostileacct/t')$$, '58030', 10);
SELECT pg_temp.expect('Azure: a listing that is no List Blobs result', $$SELECT * FROM deltacc.history('az://good@hostileacct/t')$$, 'XX001', 5);
SET deltacc.storage_stall_timeout = '1s';
SET deltacc.storage_retries = 0;
SELECT pg_temp.expect('Azure: never answers (stall timeout)', $$SELECT * FROM deltacc.history('az://hang@hostileacct/t')$$, '08006', 5);
SET deltacc.storage_stall_timeout = '600s';
SET statement_timeout = '1s';
SELECT pg_temp.expect('Azure: never answers (statement_timeout)', $$SELECT * FROM deltacc.history('az://hang@hostileacct/t')$$, '57014', 4);
RESET statement_timeout;
RESET deltacc.storage_stall_timeout;
RESET deltacc.storage_retries;
SELECT pg_temp.expect('the same backend reads again after all that', $$SELECT * FROM deltacc.history('s3://good/t')$$, NULL, 5);
