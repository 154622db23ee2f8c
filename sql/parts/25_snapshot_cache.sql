
-- ---------------------------------------------------------------------------
-- The session cache of read-version snapshots behind the conflict functions
-- and the coordinator (src/snapshot/snapshot_cache.c; its entries count
-- against deltacc.commit_cache_size).  New in 1.1.
-- ---------------------------------------------------------------------------

CREATE FUNCTION deltacc.snapshot_cache_stats(
    OUT hits      bigint,
    OUT advanced  bigint,
    OUT misses    bigint,
    OUT stale     bigint,
    OUT uncached  bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'deltacc_snapshot_cache_stats'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION deltacc.snapshot_cache_stats() IS
'This session''s cache of read-version snapshots used by the conflict functions and deltacc.commit: snapshots served from it (hits), made from a cached earlier version and the commits since (advanced), built from the log (misses), entries dropped because a commit file or ratified commit they were read from changed (stale), and snapshots built but not cached (a checkpoint start, a commit file changed less than a second ago, too big, or the cache disabled).';

REVOKE ALL ON FUNCTION deltacc.snapshot_cache_stats() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION deltacc.snapshot_cache_stats() TO pg_read_server_files;
