// gen.mjs: writes the Parquet fixtures of test/data/parquet with DuckDB, and
// next to them the expected rows (NAME.jsonl, or one shared
// file for fixtures of the same rows) (canonical JSON, see
// canon.mjs), computed from the generating query itself (not read back).
//   cd test/data/parquet/gen && npm install && node gen.mjs
// handmade.mjs writes the fixtures DuckDB cannot (legacy layouts, other
// encodings and codecs) and corrupt.mjs the corrupt variants.
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'fs';
import { canon, toJson } from './canon.mjs';

const OUT = new URL('..', import.meta.url).pathname;
const inst = await DuckDBInstance.create(':memory:');
const conn = await inst.connect();
await conn.run('SET threads = 1');

// Every primitive type, with nulls, repeats (dictionary) and edge values.
const TYPES = `
SELECT
  i::INT AS id,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i % 2 = 0 END AS b,
  CASE WHEN i % 5 = 1 THEN NULL ELSE (i * 37 % 256 - 128)::TINYINT END AS i8,
  (i * 1001 % 65536 - 32768)::SMALLINT AS i16,
  CASE WHEN i = 0 THEN -2147483648 WHEN i = 1 THEN 2147483647 ELSE (i * 7919)::INT END AS i32,
  CASE WHEN i = 0 THEN -9223372036854775808 WHEN i = 1 THEN 9223372036854775807 ELSE i * 1000000007 END AS i64,
  (i * 3 % 256)::UTINYINT AS u8,
  (i * 300 % 65536)::USMALLINT AS u16,
  CASE WHEN i = 2 THEN 4294967295 ELSE i * 100000 END::UINTEGER AS u32,
  CASE WHEN i = 2 THEN 18446744073709551615 ELSE i END::UBIGINT AS u64,
  CASE WHEN i = 3 THEN 'NaN'::FLOAT WHEN i = 4 THEN '-inf'::FLOAT WHEN i = 5 THEN -0.0::FLOAT ELSE (i / 3.0)::FLOAT END AS f32,
  CASE WHEN i = 3 THEN 'NaN'::DOUBLE WHEN i = 4 THEN 'inf'::DOUBLE WHEN i % 11 = 0 THEN NULL ELSE i / 7.0 END AS f64,
  ((i - 50) * 1.25)::DECIMAL(4,2) AS d4,
  CASE WHEN i % 9 = 0 THEN NULL ELSE ((i - 50) * 123456.789012)::DECIMAL(18,6) END AS d18,
  ('-12345678901234567890123456.7890123456'::DECIMAL(38,10) + i * 1.5)::DECIMAL(38,10) AS d38,
  (i * 0.001)::DECIMAL(5,5) AS d5s5,
  'k' || (i % 4) AS s_dict,
  CASE WHEN i % 6 = 0 THEN NULL ELSE repeat(chr((97 + i % 26)::INT), (i % 13)::INT) || ' é ' || i END AS s_plain,
  CASE WHEN i % 4 = 0 THEN NULL ELSE ('\\x00\\xff' || i::VARCHAR)::BLOB END AS bin,
  DATE '1969-12-25' + (i * 40)::INT AS dt,
  TIMESTAMP '1960-01-01 00:00:00.000001' + to_seconds(i * 123456789) AS ts_us,
  (TIMESTAMP '2000-02-29 12:34:56.789' + to_days((i)::INT))::TIMESTAMP_MS AS ts_ms,
  (TIMESTAMP_NS '2024-01-01 00:00:00.123456789' + to_hours(i)) AS ts_ns,
  (TIMESTAMPTZ '2021-06-01 10:00:00+00' + to_minutes(i)) AS ts_tz,
  ('00000000-0000-0000-0000-' || lpad(i::VARCHAR, 12, '0'))::UUID AS uid
FROM range(60) t(i)`;

// Nested structs, lists and maps with nulls and empties at every level,
// shaped like the Delta checkpoint schema.
const NESTED = `
SELECT
  i::INT AS id,
  CASE WHEN i % 5 = 0 THEN NULL ELSE {
    'path': 'part-' || i || '.parquet',
    'partitionValues': CASE WHEN i % 3 = 0 THEN MAP {} ELSE MAP {'p': (i % 3)::VARCHAR, 'q': CASE WHEN i % 2 = 0 THEN NULL ELSE 'x' END} END,
    'size': i * 100,
    'dataChange': i % 2 = 0,
    'tags': CASE WHEN i % 4 = 0 THEN NULL ELSE MAP {'t': 'v' || i} END,
    'deletionVector': CASE WHEN i % 3 = 1 THEN NULL ELSE {'storageType': 'u', 'pathOrInlineDv': 'ab' || i, 'offset': CASE WHEN i % 2 = 0 THEN NULL ELSE 1 END, 'sizeInBytes': 34, 'cardinality': i::BIGINT} END,
    'stats_parsed': {'numRecords': i::BIGINT, 'minValues': {'a': i, 'n': {'x': CASE WHEN i % 7 = 0 THEN NULL ELSE 'm' || i END}}, 'nullCount': {'a': 0::BIGINT, 'n': {'x': (i % 2)::BIGINT}}}
  } END AS "add",
  CASE WHEN i % 4 = 2 THEN NULL WHEN i % 4 = 3 THEN []::INT[] ELSE [i, NULL, i + 1][1 : 1 + i % 3] END AS ints,
  CASE WHEN i % 6 = 5 THEN NULL ELSE [[i], [], NULL, [i, i]][1 : i % 5] END AS lol,
  [ {'k': 'a' || i, 'v': CASE WHEN i % 2 = 0 THEN NULL ELSE i END} , NULL ][1 : i % 3] AS los,
  CASE WHEN i % 7 = 6 THEN NULL ELSE MAP {'a': [i], 'b': NULL} END AS map_of_lists,
  MAP {i: {'x': i * 2, 'y': CASE WHEN i % 2 = 0 THEN NULL ELSE 'y' END}} AS map_of_structs,
  CASE WHEN i % 2 = 0 THEN ['readerA', 'readerB'] ELSE [] END AS "readerFeatures"
FROM range(60) t(i)`;

const fixtures = [];
for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw']) {
  fixtures.push({ name: `types_v1_${codec}`, expect: 'types', q: TYPES, opts: `COMPRESSION ${codec}` });
  fixtures.push({ name: `types_v2_${codec}`, expect: 'types', q: TYPES, opts: `COMPRESSION ${codec}, PARQUET_VERSION V2` });
}
fixtures.push({ name: 'nested_v1', expect: 'nested', q: NESTED, opts: 'COMPRESSION snappy' });
fixtures.push({ name: 'nested_v2', expect: 'nested', q: NESTED, opts: 'COMPRESSION zstd, PARQUET_VERSION V2' });
fixtures.push({ name: 'row_groups', q: `SELECT i::BIGINT AS pos, 'r' || (i % 3) AS s, CASE WHEN i % 10 = 0 THEN NULL ELSE [i] END AS l FROM range(250) t(i)`,
  opts: "COMPRESSION snappy, ROW_GROUP_SIZE 64" }); // DuckDB keeps whole vectors per group: one group here; hm_row_groups has several
fixtures.push({ name: 'empty', q: `SELECT 1::INT AS a, 'x' AS b WHERE false`, opts: 'COMPRESSION snappy' });

for (const f of fixtures) {
  const file = OUT + f.name + '.parquet';
  await conn.run(`COPY (${f.q}) TO '${file}' (FORMAT parquet, ${f.opts})`);
  const r = await conn.runAndReadAll(f.q);
  const names = r.columnNames();
  const lines = r.getRows().map(row => {
    const o = {};
    names.forEach((n, i) => { o[n] = canon(row[i]); });
    return toJson(o) + '\n';
  });
  fs.writeFileSync(OUT + (f.expect || f.name) + '.jsonl', lines.join(''));
  const meta = await conn.runAndReadAll(`SELECT DISTINCT encodings, compression FROM parquet_metadata('${file}')`);
  console.log(f.name, fs.statSync(file).size, JSON.stringify(meta.getRows()));
}
