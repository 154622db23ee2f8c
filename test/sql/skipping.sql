--
-- skipping.sql: the keep-predicates of reference §3.2, verify(R) of §3.3 and
-- the traps of §7, through deltacc.file_may_match (no files are read).
-- Every case that skips has a "must still keep" twin.
--
SET client_min_messages = warning;
SET TimeZone = 'UTC';

CREATE TEMP TABLE sch (s text);
INSERT INTO sch VALUES ('{"type":"struct","fields":[
 {"name":"id","type":"long","nullable":true,"metadata":{}},
 {"name":"i","type":"integer","nullable":true,"metadata":{}},
 {"name":"sm","type":"short","nullable":true,"metadata":{}},
 {"name":"f","type":"float","nullable":true,"metadata":{}},
 {"name":"d","type":"double","nullable":true,"metadata":{}},
 {"name":"dec","type":"decimal(10,2)","nullable":true,"metadata":{}},
 {"name":"big","type":"decimal(38,0)","nullable":true,"metadata":{}},
 {"name":"name","type":"string","nullable":true,"metadata":{}},
 {"name":"bin","type":"binary","nullable":true,"metadata":{}},
 {"name":"flag","type":"boolean","nullable":true,"metadata":{}},
 {"name":"dt","type":"date","nullable":true,"metadata":{}},
 {"name":"ts","type":"timestamp","nullable":true,"metadata":{}},
 {"name":"tsn","type":"timestamp_ntz","nullable":true,"metadata":{}},
 {"name":"addr","type":{"type":"struct","fields":[
    {"name":"city","type":"string","nullable":true,"metadata":{}},
    {"name":"zip","type":"integer","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},
 {"name":"arr","type":{"type":"array","elementType":"integer","containsNull":true},"nullable":true,"metadata":{}},
 {"name":"p","type":"integer","nullable":true,"metadata":{}},
 {"name":"pts","type":"timestamp","nullable":true,"metadata":{}}]}');

-- The statistics of one "base" file: 100 rows.
CREATE TEMP TABLE base (j jsonb);
INSERT INTO base VALUES ('{"numRecords":100,
 "minValues":{"id":100,"i":-5,"sm":1,"f":0.5,"d":-1.5,"dec":10.25,"big":12345678901234567890123456789012345678,
              "name":"apple","dt":"2020-01-01","ts":"2020-01-01T00:00:00.000Z","tsn":"2020-01-01T00:00:00.000",
              "addr":{"city":"Bern","zip":3000}},
 "maxValues":{"id":199,"i":5,"sm":9,"f":2.5,"d":7.5,"dec":99.99,"big":12345678901234567890123456789012345679,
              "name":"melon","dt":"2020-12-31","ts":"2020-06-30T12:00:00.000Z","tsn":"2020-06-30T12:00:00.000",
              "addr":{"city":"Zurich","zip":8099}},
 "nullCount":{"id":0,"i":0,"sm":0,"f":0,"d":0,"dec":0,"big":0,"name":3,"bin":0,"flag":0,"dt":0,"ts":0,"tsn":0,
              "addr":{"city":0,"zip":0},"arr":0}}');

-- t(predicate, statistics [, writer_includes_nan]): decision and reason
CREATE FUNCTION t(pred text, stats jsonb DEFAULT NULL, nan boolean DEFAULT true,
                  pv jsonb DEFAULT '{"p":"1","pts":"2020-01-01T00:00:00.000000Z"}',
                  conf jsonb DEFAULT '{}')
RETURNS TABLE (decision text, keep_predicate text, reason text)
LANGUAGE sql AS $$
  SELECT CASE WHEN m.keep THEN 'keep' ELSE 'SKIP' END, m.keep_predicate, m.reason
    FROM deltacc.file_may_match((SELECT s FROM sch), pred,
                                COALESCE(stats, (SELECT j FROM base))::text,
                                pv, '{p,pts}', conf, nan) m
$$;
-- base statistics with one path replaced
CREATE FUNCTION b(path text[], val jsonb) RETURNS jsonb
LANGUAGE sql AS $$ SELECT jsonb_set((SELECT j FROM base), path, val) $$;
-- base statistics with one path removed
CREATE FUNCTION b_del(path text[]) RETURNS jsonb
LANGUAGE sql AS $$ SELECT (SELECT j FROM base) #- path $$;

\pset null '(null)'

-- ===== comparisons (§3.2 rows 1-5), both operand orders =====
SELECT * FROM t('id = 50');                 -- SKIP: min 100 > 50
SELECT * FROM t('id = 150');                -- keep
SELECT * FROM t('50 = id');                 -- SKIP (commuted)
SELECT * FROM t('id <> 150');               -- keep
SELECT * FROM t('id <> 7', b('{minValues,id}', '7') || '{}'::jsonb);  -- keep: max 199
SELECT * FROM t('id <> 100', jsonb_set(b('{maxValues,id}', '100'), '{minValues,id}', '100'));  -- SKIP: min = max = 100
SELECT * FROM t('id < 100');                -- SKIP
SELECT * FROM t('id < 101');                -- keep
SELECT * FROM t('id <= 99');                -- SKIP
SELECT * FROM t('id <= 100');               -- keep
SELECT * FROM t('id > 199');                -- SKIP
SELECT * FROM t('id > 198');                -- keep
SELECT * FROM t('id >= 200');               -- SKIP
SELECT * FROM t('id >= 199');               -- keep
SELECT * FROM t('200 <= id');               -- SKIP (commuted)
SELECT * FROM t('199 <= id');               -- keep
SELECT * FROM t('id BETWEEN 0 AND 99');     -- SKIP
SELECT * FROM t('id BETWEEN 0 AND 100');    -- keep
-- cross-type: bigint column vs integer / numeric-typed constants
SELECT * FROM t('id > 199::smallint');      -- SKIP
SELECT * FROM t('i > 5::bigint');           -- SKIP
SELECT * FROM t('i > 4::bigint');           -- keep
SELECT * FROM t('sm < 1');                  -- SKIP
SELECT * FROM t('sm < 2');                  -- keep
-- NOT of a comparison is rewritten
SELECT * FROM t('NOT (id < 200)');          -- SKIP (= id >= 200)
SELECT * FROM t('NOT (id < 199)');          -- keep
SELECT * FROM t('NOT (NOT (id > 199))');    -- SKIP
SELECT * FROM t('NOT (NOT (id > 198))');    -- keep

-- ===== IS NULL / IS NOT NULL =====
SELECT * FROM t('id IS NULL');              -- SKIP: nullCount 0
SELECT * FROM t('name IS NULL');            -- keep: nullCount 3
SELECT * FROM t('name IS NOT NULL', b('{nullCount,name}', '100'));  -- SKIP: all null
SELECT * FROM t('name IS NOT NULL');        -- keep
SELECT * FROM t('NOT (id IS NULL)');        -- keep (= IS NOT NULL)
SELECT * FROM t('NOT (name IS NOT NULL)', b('{nullCount,name}', '0'));  -- SKIP (= IS NULL)
SELECT * FROM t('flag IS NULL');            -- SKIP: nullCount exists for booleans
SELECT * FROM t('flag IS NULL', b('{nullCount,flag}', '1'));  -- keep
SELECT * FROM t('bin IS NULL');             -- SKIP
SELECT * FROM t('bin IS NOT NULL');         -- keep
-- null-safe equality (IS NOT DISTINCT FROM) and its negation
SELECT * FROM t('id IS NOT DISTINCT FROM 50');   -- SKIP
SELECT * FROM t('id IS NOT DISTINCT FROM 150');  -- keep
SELECT * FROM t('id IS NOT DISTINCT FROM NULL'); -- SKIP (IS NULL, nullCount 0)
SELECT * FROM t('name IS NOT DISTINCT FROM NULL'); -- keep
SELECT * FROM t('id IS DISTINCT FROM 100', jsonb_set(b('{maxValues,id}', '100'), '{minValues,id}', '100'));  -- SKIP
SELECT * FROM t('id IS DISTINCT FROM 150');      -- keep
-- (comparison) IS NULL: enhanced pushdown
SELECT * FROM t('(id = 5) IS NULL');        -- SKIP: id has no nulls
SELECT * FROM t('(name = ''x'') IS NULL');  -- keep
SELECT * FROM t('(id = NULL::bigint) IS NULL');  -- keep: NULL literal
SELECT * FROM t('(id > 5 AND i < 3) IS NULL');   -- SKIP
SELECT * FROM t('(id > 5 OR name < ''x'') IS NULL');   -- keep

-- ===== IN: a range test; only NULLs matches nothing =====
SELECT * FROM t('id IN (1, 2, 300)');       -- keep: range 1..300 overlaps
SELECT * FROM t('id IN (1, 2, 99)');        -- SKIP
SELECT * FROM t('id IN (200, 250, NULL)');  -- SKIP: NULLs dropped
SELECT * FROM t('id IN (150, NULL)');       -- keep
SELECT * FROM t('id IN (NULL)');            -- SKIP: matches nothing (parsed as id = NULL)
SELECT * FROM t('id IN (NULL::bigint, NULL)');  -- SKIP
SELECT * FROM t('id NOT IN (150, 151)');    -- keep: NOT IN never skips
SELECT * FROM t('id NOT IN (NULL)');        -- SKIP: id <> NULL is never true
SELECT * FROM t('name IN (''zebra'', ''zoo'')');   -- SKIP
SELECT * FROM t('name IN (''aa'', ''zoo'')');      -- keep (range covers)

-- ===== LIKE prefix (StartsWith) and its traps =====
SELECT * FROM t('name LIKE ''zz%''');        -- SKIP
SELECT * FROM t('name LIKE ''me%''');        -- keep
SELECT * FROM t('name LIKE ''ap%''');        -- keep
SELECT * FROM t('name LIKE ''a%z''');        -- keep (prefix a)
SELECT * FROM t('name LIKE ''b_x%''');       -- keep (prefix b)
SELECT * FROM t('name LIKE ''zz_''');        -- SKIP (prefix zz)
SELECT * FROM t('name LIKE ''zebra''');      -- SKIP (no wildcard: equality)
SELECT * FROM t('name LIKE ''%pple''');      -- keep: no prefix
SELECT * FROM t('name NOT LIKE ''zz%''');    -- keep: NOT LIKE never skips
SELECT * FROM t('name ILIKE ''zz%''');       -- keep: ILIKE is not a prefix test
SELECT * FROM t('name LIKE ''\%%''');        -- SKIP: escaped % is a literal prefix "%"
SELECT * FROM t('NOT (name LIKE ''zz%'')');  -- keep

-- ===== AND / OR / NOT composition =====
SELECT * FROM t('id > 150 AND id < 120');    -- keep: each conjunct alone may match (Delta's rule)
SELECT * FROM t('id > 150 AND id < 160');    -- keep
SELECT * FROM t('id < 50 OR id > 300');      -- SKIP
SELECT * FROM t('id < 50 OR id > 150');      -- keep
SELECT * FROM t('id < 50 OR id + 1 > 300');  -- keep: OR with an unusable side
SELECT * FROM t('id < 50 AND id + 1 > 300'); -- SKIP: AND keeps the usable side
SELECT * FROM t('NOT (id >= 50 AND id <= 300)');   -- SKIP (De Morgan)
SELECT * FROM t('NOT (id >= 50 AND id <= 150)');   -- keep
SELECT * FROM t('NOT (id < 50 OR id > 300)');      -- keep
SELECT * FROM t('NOT (id < 150 OR id > 300)', b('{minValues,id}', '100'));  -- keep: max 199 in range
SELECT * FROM t('NOT (id < 200 OR id > 300)');     -- SKIP
SELECT * FROM t('NOT (id < 50 OR id + 1 > 300)');  -- keep: only NOT(id < 50) is usable
SELECT * FROM t('NOT (id < 250 OR id + 1 > 300)'); -- SKIP

-- ===== forms that never skip =====
SELECT * FROM t('id + 1 = 5');              -- keep: arithmetic
SELECT * FROM t('id::integer = 5');         -- keep: cast on the column
SELECT * FROM t('abs(id) = 5');             -- keep: function
SELECT * FROM t('id = i');                  -- keep: column vs column
SELECT * FROM t('id < 50 AND random() < 2');  -- SKIP: volatile conjunct dropped, other usable
SELECT * FROM t('random() < 0.5');          -- keep: volatile only
SELECT * FROM t('id = (SELECT 5)');         -- keep: subquery
SELECT * FROM t('id < 50 AND id = (SELECT 5)');  -- SKIP: other conjunct usable
SELECT * FROM t('NOT flag');                -- keep
SELECT * FROM t('flag = true');             -- keep: booleans have no min/max
SELECT * FROM t('bin = ''\x00''::bytea');   -- keep: binary has no min/max
SELECT * FROM t('name COLLATE "C" = ''zebra''');  -- SKIP: strings always compare as "C", the COLLATE is a no-op
SELECT * FROM t('name COLLATE "C" = ''kiwi''');   -- keep
SELECT * FROM t('id = NULL');               -- SKIP: NULL for every row
SELECT * FROM t('id = NULL OR id = 150');    -- keep
SELECT * FROM t('id < 50.5');               -- keep: the column gets cast to numeric
SELECT * FROM t('true');                    -- keep
SELECT * FROM t('false');                   -- SKIP: a literal-only conjunct is a partition conjunct

-- ===== verify(R): missing, null and unparseable statistics =====
SELECT * FROM t('id = 50', 'null'::jsonb);   -- keep: stats not an object
SELECT * FROM t('id = 50', b_del('{minValues,id}'));        -- keep: min missing
SELECT * FROM t('id > 500', b_del('{minValues,id}'));       -- SKIP: uses only max
SELECT * FROM t('id = 50', b_del('{nullCount,id}'));        -- keep: nullCount missing
SELECT * FROM t('id = 50', b_del('{numRecords}'));          -- keep: numRecords missing
SELECT * FROM t('id IS NULL', b_del('{numRecords}'));       -- SKIP: IS NULL needs only nullCount
SELECT * FROM t('id = 50', b('{minValues,id}', '"100"'));   -- keep: a string for a long
SELECT * FROM t('id = 50', b('{minValues,id}', '1.5'));     -- keep: a fraction for a long
SELECT * FROM t('i = 50', b('{minValues,i}', '3000000000'));  -- keep: out of integer range
SELECT * FROM t('id = 50', b('{minValues,id}', 'null'));    -- keep: null min, column not all null
-- an all-null column: min/max absent or null, nullCount = numRecords
SELECT * FROM t('name = ''x''', b_del('{minValues,name}') #- '{maxValues,name}' || '{"nullCount":{"name":100}}'); -- SKIP: all null (nullCount object replaced)
SELECT * FROM t('name = ''x''', jsonb_set(jsonb_set(jsonb_set((SELECT j FROM base), '{minValues,name}', 'null'), '{maxValues,name}', 'null'), '{nullCount,name}', '100'));  -- SKIP
SELECT * FROM t('name = ''x''', jsonb_set(jsonb_set(jsonb_set((SELECT j FROM base), '{minValues,name}', 'null'), '{maxValues,name}', 'null'), '{nullCount,name}', '99'));   -- keep
SELECT * FROM t('name IS NULL', jsonb_set(jsonb_set(jsonb_set((SELECT j FROM base), '{minValues,name}', 'null'), '{maxValues,name}', 'null'), '{nullCount,name}', '100'));  -- keep
-- one read's missing statistic keeps the file even if another conjunct could skip
SELECT * FROM t('id = 50 AND i = 1000', b_del('{minValues,i}'));  -- keep
SELECT * FROM t('id = 50 AND i = 1000');                          -- SKIP
-- a nullCount larger than numRecords is unusable
SELECT * FROM t('id IS NULL', b('{nullCount,id}', '101'));  -- keep
-- no statistics, unparseable statistics
SELECT * FROM deltacc.file_may_match((SELECT s FROM sch), 'id = 50', NULL);
SELECT * FROM deltacc.file_may_match((SELECT s FROM sch), 'id = 50', '{"numRecords": 5, "minValues": {');
SELECT * FROM deltacc.file_may_match((SELECT s FROM sch), 'id = 50', '[1,2]');

-- ===== exact numbers: 64-bit and decimal(38) never through double =====
SELECT * FROM t('id > 9007199254740992', b('{maxValues,id}', '9007199254740993'));  -- keep (2^53+1 > 2^53)
SELECT * FROM t('id > 9007199254740993', b('{maxValues,id}', '9007199254740993'));  -- SKIP
SELECT * FROM t('big > 12345678901234567890123456789012345678');   -- keep (max is +1)
SELECT * FROM t('big > 12345678901234567890123456789012345679');   -- SKIP
SELECT * FROM t('dec >= 99.99');             -- keep
SELECT * FROM t('dec > 99.99');              -- SKIP
SELECT * FROM t('dec < 10.25');              -- SKIP
SELECT * FROM t('dec < 10.251');             -- keep
SELECT * FROM t('dec = 1e1', b('{minValues,dec}', '1.0E+1'));  -- keep: exponent form parsed exactly
SELECT * FROM t('id > 0', b('{maxValues,id}', '1e400'));       -- keep: unparseable

-- ===== strings: byte order, truncation, U+FFFD =====
SELECT * FROM t('name > ''melon''');         -- SKIP
SELECT * FROM t('name >= ''melon''');        -- keep
SELECT * FROM t('name < ''Zebra''');         -- SKIP: byte order, 'Z' < 'a'
SELECT * FROM t('name > ''Zebra''');         -- keep
SELECT * FROM t('name > ''é''');             -- SKIP: U+00E9 sorts after every ASCII letter
SELECT * FROM t('name > ''é''', b('{maxValues,name}', '"über"'));  -- keep
-- Delta truncates a max to 32 characters and appends U+007F or U+10FFFF
SELECT * FROM t('name = ''abcdefghijklmnopqrstuvwxyz0123456789''', jsonb_set(b('{minValues,name}', '"a"'), '{maxValues,name}', to_jsonb('abcdefghijklmnopqrstuvwxyz012345' || chr(127))));  -- keep
SELECT * FROM t('name = ''abcdefghijklmnopqrstuvwxyz012346''', jsonb_set(b('{minValues,name}', '"a"'), '{maxValues,name}', to_jsonb('abcdefghijklmnopqrstuvwxyz012345' || chr(127))));  -- SKIP: '6' > max
SELECT * FROM t('name = ''abcdefghijklmnopqrstuvwxyz012345€''', jsonb_set(b('{minValues,name}', '"a"'), '{maxValues,name}', to_jsonb('abcdefghijklmnopqrstuvwxyz012345' || chr(1114111))));  -- keep
SELECT * FROM t('name = ''abcdefghijklmnopqrstuvwxyz012346''', jsonb_set(b('{minValues,name}', '"a"'), '{maxValues,name}', to_jsonb('abcdefghijklmnopqrstuvwxyz012345' || chr(1114111))));  -- SKIP: '6' > '5'
-- a truncated max written as null (no valid tie-breaker) is missing
SELECT * FROM t('name > ''zzz''', b('{maxValues,name}', 'null'));  -- keep
-- Databricks 10.4 appended U+FFFD: not an upper bound for supplementary-plane characters
SELECT * FROM t('name > ''apple''', b('{maxValues,name}', to_jsonb('apple' || chr(65533))));  -- keep
SELECT * FROM t('name = ''apple😀''', b('{maxValues,name}', to_jsonb('apple' || chr(65533))));  -- keep (the value is > max)
SELECT * FROM t('name < ''apple''', b('{maxValues,name}', to_jsonb('apple' || chr(65533))));  -- SKIP: uses min only
-- a truncated min is a prefix, still a lower bound
SELECT * FROM t('name < ''appl''', b('{minValues,name}', '"appl"'));  -- SKIP
SELECT * FROM t('name <= ''appl''', b('{minValues,name}', '"appl"')); -- keep
-- struct leaves, dotted and quoted
SELECT * FROM t('addr.city = ''Aarau''');     -- SKIP
SELECT * FROM t('"addr.city" = ''Genf''');    -- keep
SELECT * FROM t('ADDR.ZIP > 8099');           -- SKIP: case-insensitive
SELECT * FROM t('addr.zip > 8000');           -- keep

-- ===== float NaN (§3.6) =====
SELECT * FROM t('d > 7.5', NULL, true);       -- SKIP: the writer includes NaN in max
SELECT * FROM t('d > 7.5', NULL, false);      -- keep: NaN may be missing from max
SELECT * FROM t('d >= 8', NULL, false);       -- keep
SELECT * FROM t('d <> 1', jsonb_set(b('{minValues,d}', '1'), '{maxValues,d}', '1'), false);  -- keep
SELECT * FROM t('d <> 1', jsonb_set(b('{minValues,d}', '1'), '{maxValues,d}', '1'), true);   -- SKIP
SELECT * FROM t('d = 8', NULL, false);        -- SKIP: NaN never equals 8
SELECT * FROM t('d = ''NaN''', NULL, false);  -- keep
SELECT * FROM t('d = ''NaN''', NULL, true);   -- SKIP: max 7.5 includes NaN
SELECT * FROM t('d IN (8, 9)', NULL, false);  -- SKIP
SELECT * FROM t('d IN (8, ''NaN'')', NULL, false);  -- keep
SELECT * FROM t('d < -1.5', NULL, false);     -- SKIP: min-based
SELECT * FROM t('d < -1.4', NULL, false);     -- keep
SELECT * FROM t('d > 7.5', b('{maxValues,d}', '"NaN"'), true);          -- keep: max NaN
SELECT * FROM t('d > 1e308', b('{maxValues,d}', '"Infinity"'), true);   -- keep
SELECT * FROM t('d < -1e308', b('{minValues,d}', '"-Infinity"'), true); -- keep
SELECT * FROM t('d < 0', b('{minValues,d}', '"Infinity"'), true);       -- SKIP
SELECT * FROM t('f > 2.5', NULL, true);       -- SKIP (float column, float8 constant)
SELECT * FROM t('f > 2.4', NULL, true);       -- keep
SELECT * FROM t('f = 0.1', b('{minValues,f}', '0.1'), true);  -- SKIP: real 0.1 widened to double is not 0.1
SELECT * FROM t('f = 0.1::real', b('{minValues,f}', '0.1'), true);  -- keep: stats read exactly as a float

-- ===== timestamps: +1 ms on max, offsets, NTZ =====
SELECT * FROM t('ts > ''2020-06-30T12:00:00.0005Z''');   -- keep: max + 1 ms
SELECT * FROM t('ts > ''2020-06-30T12:00:00.001Z''');    -- SKIP
SELECT * FROM t('ts >= ''2020-06-30T12:00:00.001Z''');   -- keep: max + 1 ms >= value
SELECT * FROM t('ts = ''2020-06-30T12:00:00.000999Z''');  -- keep
SELECT * FROM t('ts < ''2020-01-01T00:00:00Z''');        -- SKIP: min used as is
SELECT * FROM t('ts < ''2020-01-01T00:00:00.000001Z''');  -- keep
SELECT * FROM t('ts > ''2020-06-30T12:00:00.001Z''', b('{maxValues,ts}', '"2020-06-30T05:00:00.000-07:00"'));  -- SKIP: offset
SELECT * FROM t('ts > ''2020-06-30T12:00:00.000Z''', b('{maxValues,ts}', '"2020-06-30T05:00:00.000-07:00"'));  -- keep
SELECT * FROM t('ts > ''2020-06-30T12:00:00.001Z''', b('{maxValues,ts}', '"2020-06-30T12:00:00.000"'));  -- keep: no offset is unparseable
SELECT * FROM t('tsn > ''2020-06-30 12:00:00.001''');     -- SKIP
SELECT * FROM t('tsn > ''2020-06-30 12:00:00.0009''');    -- keep
SELECT * FROM t('tsn > ''2020-06-30 12:00:00.001''', b('{maxValues,tsn}', '"2020-06-30T12:00:00.000Z"'));  -- keep: NTZ with offset
SELECT * FROM t('dt > ''2020-12-31''');       -- SKIP
SELECT * FROM t('dt >= ''2020-12-31''');      -- keep
SELECT * FROM t('dt < ''2020-01-01''::timestamp');  -- SKIP: date vs timestamp
SELECT * FROM t('dt > ''2020-12-31 00:00:01''::timestamp');  -- SKIP
SELECT * FROM t('dt >= ''2020-12-31 00:00:00''::timestamp');  -- keep
SELECT * FROM t('dt > ''2020-12-31''', b('{maxValues,dt}', '"2020-02-30"'));  -- keep: invalid date

-- ===== tightBounds = false (wide bounds) =====
SELECT * FROM t('id > 199', b('{tightBounds}', 'false'));   -- SKIP: wide bounds are still bounds
SELECT * FROM t('id > 198', b('{tightBounds}', 'false'));   -- keep
SELECT * FROM t('name IS NULL', b('{tightBounds}', 'false') || '{"nullCount":{"name":0}}'); -- SKIP: all null (nullCount object replaced)
SELECT * FROM t('name IS NULL', jsonb_set(b('{tightBounds}', 'false'), '{nullCount,name}', '50'));  -- keep: unknown
SELECT * FROM t('name IS NULL', jsonb_set(b('{tightBounds}', 'false'), '{nullCount,name}', '0'));   -- SKIP
SELECT * FROM t('name IS NOT NULL', jsonb_set(b('{tightBounds}', 'false'), '{nullCount,name}', '100'));  -- SKIP
SELECT * FROM t('name IS NOT NULL', jsonb_set(b('{tightBounds}', 'false'), '{nullCount,name}', '99'));   -- keep

-- ===== partition conjuncts: exact, three-valued =====
SELECT * FROM t('p = 1');                     -- keep
SELECT * FROM t('p = 2');                     -- SKIP
SELECT * FROM t('p = 2', NULL, true, '{"p":null}');   -- SKIP: NULL is not TRUE
SELECT * FROM t('p IS NULL', NULL, true, '{"p":null}');  -- keep
SELECT * FROM t('p IS NULL', NULL, true, '{"p":""}');    -- keep: empty string is NULL
SELECT * FROM t('p IS NULL', NULL, true, '{}');          -- keep: missing key is NULL
SELECT * FROM t('p IS NULL', NULL, true, NULL);          -- keep: missing map
SELECT * FROM t('p IS NULL');                            -- SKIP
SELECT * FROM t('p = 2', NULL, true, '{"p":"two"}');     -- keep: unparseable
SELECT * FROM t('p = 2 OR p IS NULL', NULL, true, '{"p":null}');  -- keep
SELECT * FROM t('NOT (p = 2)', NULL, true, '{"p":null}');         -- SKIP: NULL
SELECT * FROM t('p = 2 OR random() < 0.5');    -- keep: non-deterministic side widened
SELECT * FROM t('p = 2 AND random() < 0.5');   -- SKIP: a AND X -> a
SELECT * FROM t('p = 2 AND id = 150');         -- SKIP on the partition, keep on stats
SELECT * FROM t('p = 1 AND id = 50');          -- SKIP on stats
SELECT * FROM t('p = 2 OR id = 50');           -- keep: a mixed conjunct is a data conjunct
SELECT * FROM t('pts = ''2020-01-01 00:00:00+00''');          -- keep: ISO UTC encoding
SELECT * FROM t('pts = ''2020-01-01 00:00:00+00''', NULL, true, '{"p":"1","pts":"2020-01-01 00:00:00"}');  -- keep: legacy encoding, session time zone UTC
SELECT * FROM t('pts = ''2020-01-01 00:00:00+00''', NULL, true, '{"p":"1","pts":"2020-01-01 00:00:01"}');  -- SKIP
SELECT * FROM t('pts > ''2020-01-01 00:00:00+00''', NULL, true, '{"p":"1","pts":"2020-01-01T00:00:00.000001Z"}');  -- keep

-- ===== statistics column set (§1.9) =====
SELECT * FROM t('id = 50', NULL, true, '{}', '{"delta.dataSkippingNumIndexedCols":"0"}');   -- keep
SELECT * FROM t('i = 50', NULL, true, '{}', '{"delta.dataSkippingNumIndexedCols":"2"}');    -- SKIP: i is column 2
SELECT * FROM t('sm = 50', NULL, true, '{}', '{"delta.dataSkippingNumIndexedCols":"2"}');   -- keep: sm is column 3
SELECT * FROM t('addr.zip = 1', NULL, true, '{}', '{"delta.dataSkippingNumIndexedCols":"15"}');  -- SKIP: addr.zip is leaf 15
SELECT * FROM t('addr.zip = 1', NULL, true, '{}', '{"delta.dataSkippingNumIndexedCols":"14"}');  -- keep
SELECT * FROM t('addr.city = ''A''', NULL, true, '{}', '{"delta.dataSkippingNumIndexedCols":"14"}');  -- SKIP: leaf 14
SELECT * FROM t('sm = 50', NULL, true, '{}', '{"delta.dataSkippingStatsColumns":"sm"}');  -- SKIP
SELECT * FROM t('id = 50', NULL, true, '{}', '{"delta.dataSkippingStatsColumns":"sm"}');  -- keep
SELECT * FROM t('addr.zip = 1', NULL, true, '{}', '{"delta.dataSkippingStatsColumns":"`ADDR`"}');  -- SKIP: struct name = all leaves
SELECT * FROM t('addr.zip = 1', NULL, true, '{}', '{"delta.dataSkippingStatsColumns":"sm, addr.city"}');  -- keep

-- ===== bad predicates are errors =====
SELECT * FROM t('nosuch = 1');
SELECT * FROM t('id = 1; DROP TABLE sch');
SELECT * FROM t('1 FROM pg_class');
SELECT * FROM t('id = 1 UNION SELECT true');
SELECT * FROM t('id) FROM pg_class WHERE (true');
SELECT * FROM t('id = 1 -- comment');
SELECT * FROM t('addr = NULL');
SELECT * FROM t('arr IS NULL');
SELECT * FROM t('id');
SELECT * FROM t('');
SELECT * FROM t('count(*) > 0');
SELECT * FROM t('$1 = 1');
SELECT * FROM t('id = 1 AS x');
SELECT * FROM t('*');
