-- Row-level fixtures (test/data/rowlevel, made by make_fixtures.py): the
-- logs load, and every deletion vector the row-level tests rely on decodes
-- to the rows the generator deleted (the bad-CRC one is a clean error).
\getenv abs_srcdir PG_ABS_SRCDIR
\set d :abs_srcdir '/data/rowlevel'
\set VERBOSITY terse

SELECT t, (SELECT count(*) FROM deltacc.history(:'d' || '/' || t)) AS commits,
       (SELECT count(*) FROM deltacc.snapshot_files(:'d' || '/' || t)) AS live_files
FROM unnest(ARRAY['exact', 'exact_part', 'dvdel', 'fullrm', 'update', 'signed', 'part_rm', 'part_pv']) AS t
ORDER BY t;

-- every DV descriptor of every commit, decoded (u and i storage types)
SELECT t, deltacc.load_log(:'d' || '/' || t) AS actions
FROM unnest(ARRAY['dvdel', 'update', 'signed', 'part_rm']) AS t ORDER BY t;
SELECT t, f.version, f.action, f.path, dv.storage_type, dv.path AS dv_file,
       dv.cardinality, dv.row_indexes
FROM unnest(ARRAY['dvdel', 'update', 'signed', 'part_rm']) AS t,
     LATERAL (SELECT * FROM pg_temp.delta_files x
              WHERE x.table_path = :'d' || '/' || t AND x.deletion_vector IS NOT NULL
                AND NOT (t = 'dvdel' AND x.version = 4 AND x.action = 'add')) f,
     LATERAL deltacc.deletion_vector(:'d' || '/' || t, f.deletion_vector) dv
ORDER BY t, f.version, f.action, f.path;

-- the corrupt DV of dvdel version 4: a clean error
SELECT cardinality FROM deltacc.deletion_vector(:'d' || '/dvdel',
  (SELECT deletion_vector FROM deltacc.snapshot_files(:'d' || '/dvdel', 4)));

-- statistics as written: physical numRecords, wide bounds on DV re-adds
SELECT version, action, path, num_records, tight_bounds, stats->'minValues' AS min,
       stats->'maxValues' AS max
FROM pg_temp.delta_files WHERE table_path = :'d' || '/dvdel' ORDER BY version, action;
