--
-- spark_predicate.sql: recorded predicates (commitInfo.operationParameters)
-- translated into read predicates.  Every real string of
-- reference/predicates.md §5.5 and the delta-rs forms of §2, each with the
-- schema of the table it comes from (or the one its test implies) and the
-- writer, then schema-less; then twins that must not translate (or only
-- widen), and what a schema decides (names, types, ambiguity).
--
-- Outcomes: exact (same rows), widened (a superset of the writer's rows),
-- none (NULL: the caller treats the commit as a read of the whole table).
--
SET client_min_messages = warning;

-- schemaString of "name:type" columns (type: a Delta type name or JSON)
CREATE FUNCTION pg_temp.sch(VARIADIC cols text[]) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
SELECT json_build_object('type', 'struct', 'fields',
         json_agg(json_build_object(
           'name', left(c, strpos(c, ':') - 1),
           'type', CASE WHEN substr(c, strpos(c, ':') + 1, 1) = '{'
                        THEN substr(c, strpos(c, ':') + 1)::json
                        ELSE to_json(substr(c, strpos(c, ':') + 1)) END,
           'nullable', true, 'metadata', '{}'::json) ORDER BY o))::text
  FROM unnest(cols) WITH ORDINALITY AS u(c, o) $$;

CREATE TEMP TABLE cases (n serial, ref text, pred text, schema text, engine text);

\set spark '''Apache-Spark/3.5.0 Delta-Lake/3.2.0'''
\set dbr '''Databricks-Runtime/12.2.x-scala2.12'''
\set rs '''delta-rs:py-1.1.0'''

INSERT INTO cases (ref, pred, schema, engine) VALUES
-- 1 dd-dv-many-deletes-checkpoint v1 DELETE (Delta 2.4): id = 0
('1', '["(id#378L = 0)"]', pg_temp.sch('id:long'), :spark),
-- 2 golden-inserts-deletes-checkpoint v5 (BETWEEN 5 AND 9), v13
('2', '((id#1904L >= 5) AND (id#1904L <= 9))', pg_temp.sch('id:long'), :spark),
('2', '(id#6991L >= 66)', pg_temp.sch('id:long'), :spark),
-- 3 golden-dv-partitioned-checkpoint v1, golden-dv-columnmapping v1: the
--   logical name under column mapping
('3', '(col1#463 = 0)', pg_temp.sch('col1:integer', 'col2:string'), :spark),
('3', '(col1#493 = 0)', pg_temp.sch('col1:integer', 'col2:string'), :spark),
-- 4 golden-inserts-updates v1 UPDATE (id is an int column: no L)
('4', '(id#480 < 50)', pg_temp.sch('id:integer'), :spark),
-- 5 golden-inserts-merge v1 MERGE: #480L the bigint source, #482 the int
--   target column, told apart only by expression id: two relations
('5', '(id#480L = cast(id#482 as bigint))', pg_temp.sch('id:integer'), :spark),
-- 6 same MERGE, its notMatchedBySource clause: the condition alone is a
--   target predicate, but such a MERGE scans the whole target; replay
--   takes the read set of a Spark MERGE to be the whole table (§5.4) and
--   never asks for this translation
('6', '(id#482 < 10)', pg_temp.sch('id:integer'), :spark),
-- 7 rs-deletion-logs v5 DELETE, v6 UPDATE (DBR 12.2)
('7', '((id#10410L >= 8000) AND (id#10410L <= 8100))', pg_temp.sch('id:long'), :dbr),
('7', '(id#10763L = 115)', pg_temp.sch('id:long'), :dbr),
-- 8 rs-cdf-cdc-dvs v16 (DBR 16)
('8', '((id#4468 > 6) AND (id#4468 < 9))', pg_temp.sch('id:integer'), :dbr),
-- 9 same, v18 MERGE: two relations
('9', '(id#5058 = id#5062)', pg_temp.sch('id:integer'), :dbr),
-- 10 same, v3 auto OPTIMIZE: no condition (its read set is its removes)
('10', '[]', pg_temp.sch('id:integer'), :dbr),
-- 11 tr-dv-pages-cdc v2 UPDATE (Delta 3.2)
('11', '(id#3023 = 20001)', pg_temp.sch('id:integer'), :spark),
-- 12 rs-simple-table v3 UPDATE (bare toString, Delta ~0.5): id % 2 = 0
('12', '((id#697L % cast(2 as bigint)) = cast(0 as bigint))', pg_temp.sch('id:long'), NULL),
-- 13 rs-simple-table v4 DELETE (.sql, Spark 2.4)
('13', '["((`id` % CAST(2 AS BIGINT)) = CAST(0 AS BIGINT))"]', pg_temp.sch('id:long'), NULL),
-- 14 rs-simple-table v1 MERGE (.sql): two relations
('14', '(oldData.`id` = newData.`id`)', pg_temp.sch('id:long'), NULL),
-- 15 golden snapshot-data2-deleted v4 (Delta 0.x)
('15', '`col2` LIKE ''data-2-%''', pg_temp.sch('col1:integer', 'col2:string'), NULL),
-- 16 delta table-with-dv-large v1 (2.3-era .sql, catalog qualifier)
('16', '(spark_catalog.delta.`/private/var/folders/g3/hcd28y8s71s0yh7whh443wz00000gp/T/spark-cb573b98-72ac-4328-b4a1-5c0c20d2e7fc`.id IN (0, 180, 308, 225, 756, 1007, 1503))', pg_temp.sch('id:integer'), NULL),
-- 17 delta-rs table-with-dv-small v1
('17', '(spark_catalog.delta.`/tmp/table-with-dv-small`.value IN (0, 9))', pg_temp.sch('value:integer'), NULL),
-- 18 delta-1.2.1 v4 UPDATE (bare toString)
('18', '(col2#477L = 2)', pg_temp.sch('col1:long', 'col2:long'), NULL),
-- 19 delta-rs simple_table_with_cdc v2 UPDATE (DBR 2022, bare)
('19', '(id#1188678 = 0)', pg_temp.sch('id:integer', 'name:string'), :dbr),
-- 20 delta-rs delta-0.8.0 v1 DELETE
('20', '["(`value` = 3)"]', pg_temp.sch('value:integer'), NULL),
-- 21 delta-rs cdf-table-non-partitioned v1 UPDATE (Delta 3.0)
('21', 'id#1262 IN (2,3,4)', pg_temp.sch('id:integer', 'name:string', 'birthday:date'), :spark),
-- 22 same, v3 DELETE: the unquoted string Dennis
('22', '(name#1263 = Dennis)', pg_temp.sch('id:integer', 'name:string', 'birthday:date'), :spark),
-- 23 delta-rs cdc_ict_table v2 (Spark 4.1 / Delta 4.3)
('23', '((birthyear#132 = 1995) AND (age#133 < 30))', pg_temp.sch('name:string', 'age:integer', 'birthyear:integer'), :spark),
-- 24 same, v3 UPDATE without WHERE
('24', '[]', pg_temp.sch('name:string', 'age:integer', 'birthyear:integer'), :spark),
-- 25 python/delta/tests/test_deltatable.py: an unresolved attribute 'key
('25', '["(''key = a)"]', pg_temp.sch('key:string', 'value:long'), :spark),
-- 26 public doc UPDATE: a two-word unquoted string
('26', '(Industry#761 = Retail Trade)', pg_temp.sch('Industry:string', 'Year:integer'), :dbr),
-- 27 public doc, Delta 2.1 DELETE (Windows path qualifier)
('27', '(spark_catalog.delta.`C:\Users\someone\delta-table`.part = 0L)', pg_temp.sch('id:long', 'part:long'), NULL),
-- 28 same doc, MERGE and its matched clause: source s, target t
('28', '(s.id = t.id)', pg_temp.sch('id:long'), NULL),
('28', '(s.id = 1L)', pg_temp.sch('id:long'), NULL),
-- 29 public doc, Delta ~1.0 MERGE
('29', '((1 = 1) AND (current.`hid_address` = new.`hid_address`))', pg_temp.sch('hid_address:string'), NULL),
-- 30 DBR conflict message, MERGE: user_id printed without an id
('30', '((id#191844 = user_id) AND (new_token#192017 = token#191847))', pg_temp.sch('id:string', 'token:string', 'new_token:string'), :dbr),
-- 31 DescribeDeltaHistorySuite: DFv1 replaceWhere, the user's text
('31', 'part = 1', pg_temp.sch('id:long', 'part:integer'), :spark),
-- 32 same, SQL REPLACE WHERE / DFv2 overwrite: translateFilters(..).sql
('32', '(part = 1)', pg_temp.sch('id:long', 'part:integer'), :spark),
-- 33 delta-rs delete.rs, update/tests.rs
('33', 'value = 1', pg_temp.sch('id:string', 'value:integer', 'modified:string'), :rs),
('33', 'id = ''A''', pg_temp.sch('id:string', 'value:integer', 'modified:string'), :rs),
('33', 'modified = ''2021-02-03''', pg_temp.sch('id:string', 'value:integer', 'modified:string'), :rs),
-- 34 delta-rs test_merge.py: MERGE's generalized partition filter
('34', 'date = ''2022-02-01''::date', pg_temp.sch('id:string', 'date:date'), :rs),
-- 35, 36 timestamps without and with a zone (ntz and timestamp columns)
('35', 'datetime = arrow_cast(''2022-02-01T00:00:00.000000'', ''Timestamp(Microsecond, None)'')', pg_temp.sch('id:string', 'datetime:timestamp_ntz'), :rs),
('36', 'datetime = arrow_cast(''2022-02-01T00:00:00.000000'', ''Timestamp(Microsecond, Some("UTC"))'')', pg_temp.sch('id:string', 'datetime:timestamp'), :rs),
-- 37 issue 3033: 150.5 printed unscaled as '1505'::decimal(6, 1); both
--   readings kept (a fixed printer would write it scaled)
('37', 'timestamp = arrow_cast(''2024-03-20T12:30:00.000000'', ''Timestamp(Microsecond, None)'') AND altitude = ''1505''::decimal(6, 1)', pg_temp.sch('timestamp:timestamp_ntz', 'altitude:decimal(6,1)'), :rs),
-- 38 delta-rs expr.rs ParseTests
('38', '"Value3" = 3', pg_temp.sch('value:integer', 'Value3:integer', 'modified:string'), :rs),
('38', 'value BETWEEN 20 AND 30', pg_temp.sch('value:integer', 'Value3:integer', 'modified:string'), :rs),
('38', 'modified IN (''a'', ''c'')', pg_temp.sch('value:integer', 'Value3:integer', 'modified:string'), :rs),
-- 39 same: a struct field (exact: the field is a leaf deltacc names
--   "_struct.a"), a cast to Utf8, substr
('39', 'get_field(_struct, ''a'') = 20', pg_temp.sch('_struct:{"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}}]}'), :rs),
('39', 'arrow_cast(value, ''Utf8'') = ''1''', pg_temp.sch('value:integer'), :rs),
('39', 'substr(modified, 0, 4) = ''2021''', pg_temp.sch('modified:string'), :rs),
-- 40 delta-rs command_optimize.rs: a quoted partition value
('40', '["date = ''2022-05-22''"]', pg_temp.sch('x:integer', 'date:date'), :rs),
-- 41 Trino: operationParameters hold a queryId, no predicate
('41', '{"queryId":"20240911_101132_00090_2dq6g"}', pg_temp.sch('id:integer'), 'trino-455'),
-- 42 inferred renderings: isnotnull, NOT, a date (Spark >= 3.2), a
--   timestamp in the writer's session time zone
('42', 'isnotnull(region#5)', pg_temp.sch('region:string', 'd:date', 'ts:timestamp'), :spark),
('42', 'NOT (region#5 = EU)', pg_temp.sch('region:string', 'd:date', 'ts:timestamp'), :spark),
('42', '(d#3 = 2020-01-01)', pg_temp.sch('region:string', 'd:date', 'ts:timestamp'), :spark),
('42', '(ts#4 >= 2020-01-01 00:00:00)', pg_temp.sch('region:string', 'd:date', 'ts:timestamp'), :spark),
-- §2: delta-rs's printer: '1'::decimal(2, 2) is 0.01 (1 cannot be a
--   decimal(2, 2)), decode(.., 'hex'), precedence without parentheses,
--   IS TRUE, NOT BETWEEN, NOT IN, NOT LIKE; ILIKE and CASE do not translate
('§2', 'x = ''1''::decimal(2, 2)', pg_temp.sch('x:decimal(2,2)'), :rs),
('§2', 'bin = decode(''aa00ff'', ''hex'')', pg_temp.sch('bin:binary'), :rs),
('§2', 'a = ''v'' AND b = 1 OR c IS TRUE', pg_temp.sch('a:string', 'b:long', 'c:boolean'), :rs),
('§2', 'b NOT BETWEEN 1 AND 5 AND a NOT IN (''x'', ''y'') AND a NOT LIKE ''v%''', pg_temp.sch('a:string', 'b:long'), :rs),
('§2', 'NOT c AND c IS NOT FALSE', pg_temp.sch('c:boolean'), :rs),
('§2', 'a ILIKE ''v%''', pg_temp.sch('a:string'), :rs),
('§2', 'CASE WHEN b = 1 THEN true ELSE false END', pg_temp.sch('b:long'), :rs);

-- with the schema and the writer
SELECT c.n, c.ref, c.pred, e.read_predicate, e.outcome, e.reason
  FROM cases c, deltacc.explain_spark_predicate(c.pred, c.schema, c.engine) e
 ORDER BY c.n;

-- schema-less (deltacc.spark_predicate): names and literal types as printed
SELECT c.n, c.ref, deltacc.spark_predicate(c.pred) AS read_predicate,
       (deltacc.explain_spark_predicate(c.pred)).outcome
  FROM cases c ORDER BY c.n;

-- the translations compile as read predicates of their tables
SELECT c.n, c.ref, k.keep_predicate
  FROM cases c, deltacc.explain_spark_predicate(c.pred, c.schema, c.engine) e,
       LATERAL deltacc.file_may_match(c.schema, e.read_predicate) k
 WHERE e.read_predicate IS NOT NULL
 ORDER BY c.n;

-- ---------------------------------------------------------------------
-- Twins: a string that translates, and ones beside it that must not
-- (none) or may only widen.  Each must-not row says why.
-- ---------------------------------------------------------------------
CREATE TEMP TABLE twins (n serial, pred text, schema text, engine text);
INSERT INTO twins (pred, schema, engine) VALUES
-- unquoted strings: one that reads, then ones that could be misread
('(name#1 = Retail Trade)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = Retail AND Trade)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = a,b)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = it''s)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 =  x)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = x )', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = a  b)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = x) OR (id#2L = 1)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = null)', pg_temp.sch('name:string', 'id:long'), NULL),
('(id#2L = null)', pg_temp.sch('name:string', 'id:long'), NULL),
('(name#1 = )', pg_temp.sch('name:string', 'id:long'), NULL),
-- a literal of another type than the column
('(id#2L = Dennis)', pg_temp.sch('name:string', 'id:long'), NULL),
('(id#2L = 1.5)', pg_temp.sch('name:string', 'id:long'), NULL),
-- AND drops what it cannot translate; OR and NOT cannot
('((id#2L = 1) AND (abs(id#2L) = 1))', pg_temp.sch('name:string', 'id:long'), NULL),
('((id#2L = 1) OR (abs(id#2L) = 1))', pg_temp.sch('name:string', 'id:long'), NULL),
('NOT ((id#2L = 1) AND (abs(id#2L) = 1))', pg_temp.sch('name:string', 'id:long'), NULL),
('NOT ((id#2L = 1) AND (name#1 = x))', pg_temp.sch('name:string', 'id:long'), NULL),
-- session time zone: widened; never under NOT, never for <>
('(ts#3 < 2020-01-01 00:00:00)', pg_temp.sch('ts:timestamp'), NULL),
('(ts#3 = 2020-01-01 00:00:00)', pg_temp.sch('ts:timestamp'), NULL),
('NOT (ts#3 = 2020-01-01 00:00:00)', pg_temp.sch('ts:timestamp'), NULL),
('ts#3 IN (2020-01-01 00:00:00,2021-01-01 00:00:00)', pg_temp.sch('ts:timestamp'), NULL),
('(`ts` = TIMESTAMP ''2020-01-01 00:00:00+02:00'')', pg_temp.sch('ts:timestamp'), NULL),
('(ts#3 = 1577836800000000)', pg_temp.sch('ts:timestamp'), NULL),
('(tn#3 = 2020-01-01 00:00:00)', pg_temp.sch('tn:timestamp_ntz'), NULL),
-- Spark <= 3.1 printed dates as day numbers
('(d#4 = 18262)', pg_temp.sch('d:date'), NULL),
('(d#4 = 1500-01-01)', pg_temp.sch('d:date'), NULL),
-- casts: widening ones translate, the others do not
('(cast(i#5 as bigint) = 5)', pg_temp.sch('i:integer'), NULL),
('(cast(i#5 as decimal(12,2)) = 1.50)', pg_temp.sch('i:integer'), NULL),
('(cast(i#5 as decimal(5,2)) = 1.50)', pg_temp.sch('i:integer'), NULL),
('(cast(l#5L as int) = 5)', pg_temp.sch('l:long'), NULL),
('(cast(s#5 as int) = 5)', pg_temp.sch('s:string'), NULL),
('(cast(db#5 as int) = 5)', pg_temp.sch('db:double'), NULL),
('ansi_cast(s#5 as int) = 5', pg_temp.sch('s:string'), NULL),
-- col % k only for a non-zero integer k; other arithmetic never
('((i#5 % 3) = 1)', pg_temp.sch('i:integer'), NULL),
('((i#5 % 0) = 1)', pg_temp.sch('i:integer'), NULL),
('((i#5 / 2) = 1)', pg_temp.sch('i:integer'), NULL),
('((i#5 + 1) = 1)', pg_temp.sch('i:integer'), NULL),
-- <=> is IS NOT DISTINCT FROM; IN with NULL keeps its three values
('(i#5 <=> 3)', pg_temp.sch('i:integer'), NULL),
('NOT i#5 IN (1,null)', pg_temp.sch('i:integer'), NULL),
-- LIKE: backslash escapes only before % _ \ (Spark refuses others)
('(`s` LIKE ''a\\%b'')', pg_temp.sch('s:string'), NULL),
('(`s` LIKE ''a\\xb'')', pg_temp.sch('s:string'), NULL),
('startswith(s#5, 50%_)', pg_temp.sch('s:string'), NULL),
('(`s` RLIKE ''a.*'')', pg_temp.sch('s:string'), NULL),
('s#5 LIKE a% ESCAPE ''#''', pg_temp.sch('s:string'), NULL),
-- strings of Spark's .sql: \\ and \' escapes only
('(`s` = ''it\''s'')', pg_temp.sch('s:string'), NULL),
('(`s` = ''a\nb'')', pg_temp.sch('s:string'), NULL),
('(`s` = ''it'' ''s'')', pg_temp.sch('s:string'), NULL),
-- text of an unknown writer: quoting and 1.5 mean different things
('s = ''it''''s''', pg_temp.sch('s:string'), NULL),
('s = ''it''''s''', pg_temp.sch('s:string'), 'delta-rs:0.17.1'),
('db > 1.5', pg_temp.sch('db:double'), NULL),
('dc > 1.5', pg_temp.sch('dc:decimal(6,2)'), NULL),
('dc > 1.5', pg_temp.sch('dc:decimal(6,2)'), 'Apache-Spark/3.5.0'),
-- delta-rs decimals: = keeps both readings, <> none, NOT none
('dc = ''150''::decimal(6, 2)', pg_temp.sch('dc:decimal(6,2)'), 'delta-rs:py-1.1.0'),
('dc <> ''150''::decimal(6, 2)', pg_temp.sch('dc:decimal(6,2)'), 'delta-rs:py-1.1.0'),
('dc < ''150''::decimal(6, 2)', pg_temp.sch('dc:decimal(6,2)'), 'delta-rs:py-1.1.0'),
('dc = ''15000''::decimal(6, 2)', pg_temp.sch('dc:decimal(6,2)'), 'delta-rs:py-1.1.0'),
('dc = ''1.50''::decimal(6, 2)', pg_temp.sch('dc:decimal(6,2)'), 'delta-rs:py-1.1.0'),
-- subqueries, non-deterministic functions, CASE, truncated arguments
('(id#1L IN (listquery#12 []))', pg_temp.sch('id:long'), NULL),
('exists#12 []', pg_temp.sch('id:long'), NULL),
('((id#1L = 1) AND (rand() > 0.5))', pg_temp.sch('id:long'), NULL),
('((id#1L = 1) AND (rand(42) > 0.5))', pg_temp.sch('id:long'), NULL),
('(`id` = (SELECT max(id) FROM t))', pg_temp.sch('id:long'), NULL),
('coalesce(id#1L, 1, 2, ... 30 more fields)', pg_temp.sch('id:long'), NULL),
-- a JSON array over one relation, then over two (one name, two ids)
('["(id#1L >= 1)", "(id#1L <= 5)"]', pg_temp.sch('id:long'), NULL),
('["(id#1L >= 1)", "(id#2L <= 5)"]', pg_temp.sch('id:long'), NULL);

SELECT t.n, t.pred, e.read_predicate, e.outcome, e.reason
  FROM twins t, deltacc.explain_spark_predicate(t.pred, t.schema, t.engine) e
 ORDER BY t.n;

-- Integer literals with a type suffix (10S smallint, 10Y tinyint, 10L
-- bigint): at the ends of their range they translate; one past them, they
-- are no value Spark printed (its parser refuses 128Y), and a reader that
-- wraps would take 40000S for -25536, so they must not translate (none
-- alone, dropped from an AND), with or without a schema.
SELECT v.pred, v.schema IS NOT NULL AS with_schema,
       e.read_predicate, e.outcome, e.reason
  FROM (VALUES
  ('(`s` = 32767S)', pg_temp.sch('s:short')),
  ('(`s` = -32768S)', pg_temp.sch('s:short')),
  ('(`s` = 32768S)', pg_temp.sch('s:short')),
  ('(`s` = -32769S)', pg_temp.sch('s:short')),
  ('(`l` = 40000S)', pg_temp.sch('l:long')),
  ('(`l` = 40000S)', NULL),
  ('(`b` = 127Y)', pg_temp.sch('b:byte')),
  ('(`b` = -128Y)', pg_temp.sch('b:byte')),
  ('(`b` = 128Y)', pg_temp.sch('b:byte')),
  ('(`b` = -129Y)', pg_temp.sch('b:byte')),
  ('(`i` = 200Y)', pg_temp.sch('i:integer')),
  ('(`i` = 200Y)', NULL),
  ('(`l` = 9223372036854775807L)', pg_temp.sch('l:long')),
  ('(`l` = -9223372036854775808L)', pg_temp.sch('l:long')),
  ('(`l` = 9223372036854775808L)', pg_temp.sch('l:long')),
  ('(`l` = -9223372036854775809L)', NULL),
  ('(`s` IN (1S, 40000S))', pg_temp.sch('s:short')),
  ('((`l` = 1L) AND (`s` = 40000S))', pg_temp.sch('l:long', 's:short')),
  ('((`l` = 1L) OR (`b` = 300Y))', pg_temp.sch('l:long', 'b:byte'))
  ) AS v(pred, schema), LATERAL deltacc.explain_spark_predicate(v.pred, v.schema, NULL) e;

-- ---------------------------------------------------------------------
-- What the schema decides
-- ---------------------------------------------------------------------
SELECT e.* FROM (VALUES
  -- case-insensitive: the schema's spelling is printed
  ('(INDUSTRY#1 = x)', pg_temp.sch('Industry:string')),
  -- unknown column, struct column, array column
  ('(other#1 = x)', pg_temp.sch('Industry:string')),
  ('(s#1 = x)', pg_temp.sch('s:{"type":"struct","fields":[{"name":"a","type":"string","nullable":true,"metadata":{}}]}')),
  ('(s#1.a = x)', pg_temp.sch('s:{"type":"struct","fields":[{"name":"a","type":"string","nullable":true,"metadata":{}}]}')),
  ('(arr#1 = x)', pg_temp.sch('arr:{"type":"array","elementType":"string","containsNull":true}')),
  -- the L suffix (LongType) must agree with the schema
  ('(id#1 = 5)', pg_temp.sch('id:long')),
  ('(id#1L = 5)', pg_temp.sch('id:integer')),
  -- a.b: a struct field, or a qualified column of another relation?
  ('(a.b = 5)', pg_temp.sch('a:{"type":"struct","fields":[{"name":"b","type":"integer","nullable":true,"metadata":{}}]}')),
  ('(a.b = 5)', pg_temp.sch('a:{"type":"struct","fields":[{"name":"b","type":"integer","nullable":true,"metadata":{}}]}', 'b:integer')),
  -- `a.b`: one name with a dot.  A read predicate's "a.b" is looked up in
  -- schema order, so it names this column when it comes first, and the
  -- struct field a.b when that comes first: then it does not translate
  ('(`a.b` = 5)', pg_temp.sch('a.b:integer')),
  ('(`a.b` = 5)', pg_temp.sch('a.b:integer', 'a:{"type":"struct","fields":[{"name":"b","type":"integer","nullable":true,"metadata":{}}]}')),
  ('(`a.b` = 5)', pg_temp.sch('a:{"type":"struct","fields":[{"name":"b","type":"integer","nullable":true,"metadata":{}}]}', 'a.b:integer')),
  -- literal types checked against the column
  ('(`d` = DATE ''2020-01-01'')', pg_temp.sch('d:timestamp')),
  ('(`f` = CAST(''1.1'' AS FLOAT))', pg_temp.sch('f:float')),
  ('(`f` = 1.1D)', pg_temp.sch('f:float')),
  ('(`db` = 0.1BD)', pg_temp.sch('db:double')),
  ('(`db` = 0.12345678901234567BD)', pg_temp.sch('db:double')),
  ('(`dc` = 0.1D)', pg_temp.sch('dc:decimal(10,2)')),
  ('(`b` = X''0aFF'')', pg_temp.sch('b:binary')),
  ('(b#1 = 0x0AFF)', pg_temp.sch('b:binary')),
  ('(b#1 = 0x0AFF)', pg_temp.sch('b:string'))
) AS v(pred, schema), LATERAL deltacc.explain_spark_predicate(v.pred, v.schema, NULL) e;

-- STRICT, IMMUTABLE, and no file access (so no privilege needed)
SELECT deltacc.spark_predicate(NULL) IS NULL AS strict_null;
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_execute
  FROM pg_proc p
 WHERE p.pronamespace = 'deltacc'::regnamespace
   AND p.proname IN ('spark_predicate', 'explain_spark_predicate')
 ORDER BY 1;
