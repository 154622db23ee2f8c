// handmade.mjs: fixtures DuckDB cannot write, built with pqwrite.mjs, each
// with its expected rows (canonical JSON, see canon.mjs).
//   node handmade.mjs
import fs from 'fs';
import { T, E, C, page, plain, dbp, dba, bss, buildFile, bitWidth } from './pqwrite.mjs';
import { toJson } from './canon.mjs';

const OUT = new URL('..', import.meta.url).pathname;
const raw = x => ({ $raw: String(x) });

// SchemaElement helpers (field ids from parquet.thrift).
const REQ = 0, OPT = 1, REP = 2;
const leaf = (name, rep, type, extra = {}) => [[1, 'i32', type], [2, 'i32', extra.len], [3, 'i32', rep], [4, 'bin', name],
  [6, 'i32', extra.conv], [7, 'i32', extra.scale], [8, 'i32', extra.precision], [10, 'struct', extra.logical]];
const group = (name, rep, n, extra = {}) => [[3, 'i32', rep], [4, 'bin', name], [5, 'i32', n], [6, 'i32', extra.conv],
  [10, 'struct', extra.logical]];
const root = n => [[4, 'bin', 'schema'], [5, 'i32', n]];
const LT = {
  string: [[1, 'struct', []]],
  decimal: (s, p) => [[5, 'struct', [[1, 'i32', s], [2, 'i32', p]]]],
  int: (w, signed) => [[10, 'struct', [[1, 'byte', w], [2, 'bool', signed]]]],
  unknown: [[11, 'struct', []]],
};
const CONV = { UTF8: 0, MAP: 1, MAP_KEY_VALUE: 2, LIST: 3, DECIMAL: 5, TIME_MILLIS: 7, TIMESTAMP_MILLIS: 9, UINT_32: 13, UINT_64: 14 };

// Levels and values of one leaf from per-row entries [{rep, def, val?}].
function column(path, type, codec, entries, encodings, makePages) {
  return { path, type, codec, numValues: entries.length, encodings, pages: makePages(entries) };
}
const defs = es => es.map(e => e.def);
const reps = es => es.map(e => e.rep);
const present = (es, maxDef) => es.filter(e => e.def === maxDef).map(e => e.val);

function write(name, file, rows) {
  fs.writeFileSync(OUT + name + '.parquet', file);
  fs.writeFileSync(OUT + name + '.jsonl', rows.map(r => toJson(r) + '\n').join(''));
  console.log(name, file.length, 'bytes,', rows.length, 'rows');
}

// ---------------------------------------------------------------------------
// hm_legacy_lists: two-level lists, "array" and "_tuple" element groups, an
// unannotated repeated field, a MAP_KEY_VALUE map; v1 pages, BIT_PACKED
// levels on one column.
{
  const N = 40;
  const rowsA = [], rowsB = [], rowsC = [], rowsD = [], rowsE = [];
  for (let i = 0; i < N; i++) {
    rowsA.push(i % 5 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => i * 10 + k));
    rowsB.push(i % 6 === 1 ? null : Array.from({ length: i % 3 }, (_, k) => 's' + i + '_' + k));
    rowsC.push(i % 7 === 2 ? null : Array.from({ length: (i + 1) % 3 }, (_, k) => -i - k));
    rowsD.push(Array.from({ length: i % 3 }, (_, k) => k + i));
    rowsE.push(i % 4 === 3 ? null : Array.from({ length: i % 3 }, (_, k) => ['k' + k, (i + k) % 2 ? null : i + k]));
  }
  // optional list (def 0 null, 1 empty, 2 element) of required elements
  const shred = (rows, listOptional, elemOptional) => {
    const es = [];
    const L = listOptional ? 1 : 0;
    for (const r of rows) {
      if (r === null) { es.push({ rep: 0, def: 0 }); continue; }
      if (r.length === 0) { es.push({ rep: 0, def: L }); continue; }
      r.forEach((v, k) => {
        if (elemOptional && v === null) es.push({ rep: k ? 1 : 0, def: L + 1 });
        else es.push({ rep: k ? 1 : 0, def: L + 1 + (elemOptional ? 1 : 0), val: v });
      });
    }
    return es;
  };
  const eA = shred(rowsA, true, false), eB = shred(rowsB, true, false), eC = shred(rowsC, true, false);
  const eD = shred(rowsD, false, false);
  const eK = shred(rowsE.map(r => r && r.map(kv => kv[0])), true, false);
  const eV = shred(rowsE.map(r => r && r.map(kv => kv[1])), true, true);
  const v1 = (es, type, maxDef, levelEnc = E.RLE, conv) => [page({ kind: 'v1', codec: C.NONE, numValues: es.length,
    encoding: E.PLAIN, values: plain(type, present(es, maxDef).map(conv || (x => x))), rep: reps(es), def: defs(es),
    maxRep: 1, maxDef, levelEnc })];
  const buf = s => Buffer.from(s, 'utf8');
  const schema = [root(5),
    group('a', OPT, 1, { conv: CONV.LIST }), leaf('array', REP, T.INT32),
    group('b', OPT, 1, { conv: CONV.LIST }), group('array', REP, 1), leaf('str', REQ, T.BYTE_ARRAY, { conv: CONV.UTF8 }),
    group('c', OPT, 1, { logical: [[3, 'struct', []]] }), group('c_tuple', REP, 1), leaf('x', REQ, T.INT32),
    leaf('d', REP, T.INT32),
    group('e', OPT, 1, { conv: CONV.MAP }), group('map', REP, 2, { conv: CONV.MAP_KEY_VALUE }),
    leaf('key', REQ, T.BYTE_ARRAY, { conv: CONV.UTF8 }), leaf('value', OPT, T.INT32)];
  const cols = [
    column(['a', 'array'], T.INT32, C.NONE, eA, [E.PLAIN, E.BIT_PACKED], es => v1(es, T.INT32, 2, E.BIT_PACKED)),
    column(['b', 'array', 'str'], T.BYTE_ARRAY, C.NONE, eB, [E.PLAIN, E.RLE], es => v1(es, T.BYTE_ARRAY, 2, E.RLE, buf)),
    column(['c', 'c_tuple', 'x'], T.INT32, C.NONE, eC, [E.PLAIN, E.RLE], es => v1(es, T.INT32, 2)),
    { ...column(['d'], T.INT32, C.NONE, eD, [E.PLAIN, E.RLE], es => v1(es, T.INT32, 1)) },
    column(['e', 'map', 'key'], T.BYTE_ARRAY, C.NONE, eK, [E.PLAIN, E.RLE], es => v1(es, T.BYTE_ARRAY, 2, E.RLE, buf)),
    column(['e', 'map', 'value'], T.INT32, C.NONE, eV, [E.PLAIN, E.RLE], es => v1(es, T.INT32, 3)),
  ];
  const file = buildFile({ schema, rowGroups: [{ numRows: N, columns: cols }], numRows: N });
  const rows = [];
  for (let i = 0; i < N; i++) rows.push({
    a: rowsA[i], b: rowsB[i] && rowsB[i].map(s => ({ str: s })), c: rowsC[i] && rowsC[i].map(x => ({ x })), d: rowsD[i],
    e: rowsE[i] && { map: rowsE[i] } });
  write('hm_legacy_lists', file, rows);
}

// ---------------------------------------------------------------------------
// hm_encodings: DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT (fixed, double), RLE
// booleans in an uncompressed v2 page, INT96, converted-only decimals,
// timestamps and unsigned ints, UNKNOWN, a dictionary chunk with several
// v1/v2 pages and a plain fallback page, long DELTA_BINARY_PACKED runs,
// codecs GZIP, LZ4 (Hadoop framing), LZ4_RAW.
{
  const N = 300;
  const B = s => Buffer.from(s, 'utf8');
  const rows = Array.from({ length: N }, () => ({}));
  const cols = [];
  const schema = [];
  const addCol = (schemaElem, col) => { schema.push(schemaElem); cols.push(col); };
  const optEntries = (vals) => vals.map(v => (v === null ? { rep: 0, def: 0 } : { rep: 0, def: 1, val: v }));
  const reqEntries = (vals) => vals.map(v => ({ rep: 0, def: 0, val: v }));

  // s_dba: required string, DELTA_BYTE_ARRAY, v2 page, gzip
  {
    const vals = rows.map((r, i) => 'common/prefix/' + (i % 10 === 0 ? '' : 'dir' + Math.floor(i / 7) + '/') + 'file-' + i);
    vals.forEach((v, i) => { rows[i].s_dba = v; });
    addCol(leaf('s_dba', REQ, T.BYTE_ARRAY, { logical: LT.string }),
      { path: ['s_dba'], type: T.BYTE_ARRAY, codec: C.GZIP, numValues: N, encodings: [E.DBA],
        pages: [page({ kind: 'v2', codec: C.GZIP, numValues: N, numRows: N, encoding: E.DBA, values: dba(vals.map(B)) })] });
  }
  // fl_dba: required fixed(3), DELTA_BYTE_ARRAY, v1, uncompressed
  {
    const vals = rows.map((r, i) => Buffer.from([i % 4, (i >> 2) % 3, i & 255]));
    vals.forEach((v, i) => { rows[i].fl_dba = 'hex:' + v.toString('hex'); });
    addCol(leaf('fl_dba', REQ, T.FIXED, { len: 3 }),
      { path: ['fl_dba'], type: T.FIXED, codec: C.NONE, numValues: N, encodings: [E.DBA],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.DBA, values: dba(vals) })] });
  }
  // fl_bss: optional fixed(4), BYTE_STREAM_SPLIT, v2, LZ4 (Hadoop framing)
  {
    const vals = rows.map((r, i) => (i % 5 === 0 ? null : Buffer.from([i & 255, 0xab, (i * 7) & 255, 0x01])));
    vals.forEach((v, i) => { rows[i].fl_bss = v ? 'hex:' + v.toString('hex') : null; });
    const es = optEntries(vals);
    const pv = present(es, 1);
    addCol(leaf('fl_bss', OPT, T.FIXED, { len: 4 }),
      { path: ['fl_bss'], type: T.FIXED, codec: C.LZ4, numValues: N, encodings: [E.BSS, E.RLE],
        pages: [page({ kind: 'v2', codec: C.LZ4, numValues: N, numRows: N, numNulls: N - pv.length, encoding: E.BSS,
          values: bss(pv, 4), def: defs(es), maxDef: 1 })] });
  }
  // bool_rle: optional boolean, RLE, v2 page with is_compressed = false (chunk codec gzip)
  {
    const vals = rows.map((r, i) => (i % 9 === 4 ? null : (i % 3 === 0 || i > 200)));
    vals.forEach((v, i) => { rows[i].bool_rle = v; });
    const es = optEntries(vals);
    const pv = present(es, 1).map(v => (v ? 1 : 0));
    const body = (() => {
      const r = rleHybridLocal(pv, 1);
      const l = Buffer.alloc(4); l.writeUInt32LE(r.length);
      return Buffer.concat([l, r]);
    })();
    addCol(leaf('bool_rle', OPT, T.BOOLEAN),
      { path: ['bool_rle'], type: T.BOOLEAN, codec: C.GZIP, numValues: N, encodings: [E.RLE],
        pages: [page({ kind: 'v2', codec: C.GZIP, numValues: N, numRows: N, encoding: E.RLE, values: body,
          def: defs(es), maxDef: 1, compressed: false })] });
  }
  // bool_plain: required boolean, PLAIN, v1, LZ4_RAW
  {
    const vals = rows.map((r, i) => i % 7 < 3);
    vals.forEach((v, i) => { rows[i].bool_plain = v; });
    addCol(leaf('bool_plain', REQ, T.BOOLEAN),
      { path: ['bool_plain'], type: T.BOOLEAN, codec: C.LZ4_RAW, numValues: N, encodings: [E.PLAIN],
        pages: [page({ kind: 'v1', codec: C.LZ4_RAW, numValues: N, encoding: E.PLAIN, values: plain(T.BOOLEAN, vals) })] });
  }
  // ts96: optional INT96, v1, BIT_PACKED definition levels
  {
    const vals = rows.map((r, i) => {
      if (i % 8 === 7) return null;
      const julian = 2440588 + (i - 150) * 37;                  // days around 1970
      const nanos = BigInt(i) * 3600000000123n % 86400000000000n; // sub-micro part on most rows
      const nanos2 = i % 2 ? nanos - nanos % 1000n : nanos;
      const b = Buffer.alloc(12); b.writeBigUInt64LE(nanos2, 0); b.writeInt32LE(julian, 8);
      return { b, ns: BigInt(julian - 2440588) * 86400000000000n + nanos2 };
    });
    vals.forEach((v, i) => { rows[i].ts96 = v ? { ns: raw(v.ns) } : null; });
    const es = optEntries(vals.map(v => v && v.b));
    addCol(leaf('ts96', OPT, T.INT96),
      { path: ['ts96'], type: T.INT96, codec: C.NONE, numValues: N, encodings: [E.PLAIN, E.BIT_PACKED],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.PLAIN, values: plain(T.INT96, present(es, 1)),
          def: defs(es), maxDef: 1, levelEnc: E.BIT_PACKED })] });
  }
  // dec_ba: optional BYTE_ARRAY decimal(20,3), converted type only, minimal two's complement
  {
    const big = [0n, 1n, -1n, 127n, 128n, -128n, -129n, 99999999999999999999n, -99999999999999999999n, 5n, -5n, 1000n];
    const vals = rows.map((r, i) => (i % 6 === 5 ? null : big[i % big.length] * (i % 2 ? 1n : 1n) + (i < big.length ? 0n : BigInt(i) * (i % 3 ? -1n : 1n))));
    const enc = v => {
      let n = 1;
      while (!(v >= -(1n << BigInt(8 * n - 1)) && v < (1n << BigInt(8 * n - 1)))) n++;
      const b = Buffer.alloc(n);
      let u = BigInt.asUintN(8 * n, v);
      for (let k = n - 1; k >= 0; k--) { b[k] = Number(u & 255n); u >>= 8n; }
      return b;
    };
    const text = (v, s) => {
      const neg = v < 0n; let t = (neg ? -v : v).toString().padStart(s + 1, '0');
      return (neg ? '-' : '') + t.slice(0, t.length - s) + '.' + t.slice(t.length - s);
    };
    vals.forEach((v, i) => { rows[i].dec_ba = v === null ? null : 'dec:' + text(v, 3); });
    const es = optEntries(vals.map(v => v === null ? null : enc(v)));
    addCol(leaf('dec_ba', OPT, T.BYTE_ARRAY, { conv: CONV.DECIMAL, scale: 3, precision: 20 }),
      { path: ['dec_ba'], type: T.BYTE_ARRAY, codec: C.GZIP, numValues: N, encodings: [E.PLAIN, E.RLE],
        pages: [page({ kind: 'v1', codec: C.GZIP, numValues: N, encoding: E.PLAIN, values: plain(T.BYTE_ARRAY, present(es, 1)),
          def: defs(es), maxDef: 1 })] });
    // dec_fixed: required FIXED(5) decimal(10,2) logical type
    const fv = rows.map((r, i) => BigInt(i * 1234567 - 150000000) * (i % 2 ? -1n : 1n));
    fv.forEach((v, i) => { rows[i].dec_fixed = 'dec:' + text(v, 2); });
    const fb = fv.map(v => { const b = Buffer.alloc(5); let u = BigInt.asUintN(40, v); for (let k = 4; k >= 0; k--) { b[k] = Number(u & 255n); u >>= 8n; } return b; });
    addCol(leaf('dec_fixed', REQ, T.FIXED, { len: 5, logical: LT.decimal(2, 10) }),
      { path: ['dec_fixed'], type: T.FIXED, codec: C.NONE, numValues: N, encodings: [E.PLAIN],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.PLAIN, values: plain(T.FIXED, fb, 5) })] });
  }
  // ts_millis_ct: required INT64 TIMESTAMP_MILLIS (converted only), DELTA_BINARY_PACKED v2
  {
    const vals = rows.map((r, i) => 1600000000000n + BigInt(i * i) * 997n - (i % 3 ? 0n : 5000000n));
    vals.forEach((v, i) => { rows[i].ts_millis_ct = { ms: raw(v) }; });
    addCol(leaf('ts_millis_ct', REQ, T.INT64, { conv: CONV.TIMESTAMP_MILLIS }),
      { path: ['ts_millis_ct'], type: T.INT64, codec: C.GZIP, numValues: N, encodings: [E.DBP],
        pages: [page({ kind: 'v2', codec: C.GZIP, numValues: N, numRows: N, encoding: E.DBP, values: dbp(vals) })] });
  }
  // u64: required INT64 UINT_64 (converted only); u32: INT32 UINT_32; i8: INT32 INTEGER(8, signed)
  {
    const vals = rows.map((r, i) => (i % 4 === 0 ? (1n << 64n) - BigInt(i + 1) : BigInt(i) * 1000n));
    vals.forEach((v, i) => { rows[i].u64 = raw(v); });
    addCol(leaf('u64', REQ, T.INT64, { conv: CONV.UINT_64 }),
      { path: ['u64'], type: T.INT64, codec: C.NONE, numValues: N, encodings: [E.PLAIN],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.PLAIN, values: plain(T.INT64, vals) })] });
    const v32 = rows.map((r, i) => (i % 3 === 0 ? -1 - i : i * 70000));
    v32.forEach((v, i) => { rows[i].u32 = v < 0 ? v + 4294967296 : v; });
    addCol(leaf('u32', REQ, T.INT32, { conv: CONV.UINT_32 }),
      { path: ['u32'], type: T.INT32, codec: C.NONE, numValues: N, encodings: [E.PLAIN],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.PLAIN, values: plain(T.INT32, v32) })] });
    const v8 = rows.map((r, i) => (i % 256) - 128);
    v8.forEach((v, i) => { rows[i].i8 = v; });
    addCol(leaf('i8', REQ, T.INT32, { logical: LT.int(8, true) }),
      { path: ['i8'], type: T.INT32, codec: C.NONE, numValues: N, encodings: [E.DBP],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.DBP, values: dbp(v8) })] });
  }
  // time_ms: required INT32 TIME_MILLIS (raw value); unknown: optional INT32 UNKNOWN (always null)
  {
    const vals = rows.map((r, i) => (i * 287001) % 86400000);
    vals.forEach((v, i) => { rows[i].time_ms = v; });
    addCol(leaf('time_ms', REQ, T.INT32, { conv: CONV.TIME_MILLIS }),
      { path: ['time_ms'], type: T.INT32, codec: C.NONE, numValues: N, encodings: [E.PLAIN],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.PLAIN, values: plain(T.INT32, vals) })] });
    rows.forEach(r => { r.unknown = null; });
    const es = optEntries(rows.map(() => null));
    addCol(leaf('unknown', OPT, T.INT32, { logical: LT.unknown }),
      { path: ['unknown'], type: T.INT32, codec: C.NONE, numValues: N, encodings: [E.PLAIN, E.RLE],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.PLAIN, values: Buffer.alloc(0), def: defs(es), maxDef: 1 })] });
  }
  // dict_multi: optional string; dictionary page + v1 PLAIN_DICTIONARY + v2 RLE_DICTIONARY + v1 PLAIN fallback
  {
    const dict = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const vals = rows.map((r, i) => (i % 11 === 10 ? null : i < 250 ? dict[(i * 7) % 5] : 'plain-' + i));
    vals.forEach((v, i) => { rows[i].dict_multi = v; });
    const idx = v => dict.indexOf(v);
    const mk = (from, to, kind, enc) => {
      const es = optEntries(vals.slice(from, to));
      const pv = present(es, 1);
      let values;
      if (enc === E.PLAIN) values = plain(T.BYTE_ARRAY, pv.map(s => B(s)));
      else values = Buffer.concat([Buffer.from([3]), rleHybridLocal(pv.map(idx), 3)]);
      return page({ kind, codec: C.NONE, numValues: to - from, numRows: to - from, numNulls: to - from - pv.length,
        encoding: enc, values, def: defs(es), maxDef: 1 });
    };
    addCol(leaf('dict_multi', OPT, T.BYTE_ARRAY, { conv: CONV.UTF8 }),
      { path: ['dict_multi'], type: T.BYTE_ARRAY, codec: C.NONE, numValues: N, encodings: [E.PLAIN_DICTIONARY, E.RLE_DICTIONARY, E.PLAIN, E.RLE],
        pages: [page({ kind: 'dict', codec: C.NONE, numValues: dict.length, encoding: E.PLAIN_DICTIONARY, values: plain(T.BYTE_ARRAY, dict.map(B)) }),
          mk(0, 100, 'v1', E.PLAIN_DICTIONARY), mk(100, 250, 'v2', E.RLE_DICTIONARY), mk(250, N, 'v1', E.PLAIN)] });
  }
  // i64_dbp: required INT64, DELTA_BINARY_PACKED over several blocks, big and negative deltas;
  // i32_wrap: required INT32 DELTA_BINARY_PACKED whose deltas need 33 bits
  {
    const vals = rows.map((r, i) => (i % 50 === 0 ? (i % 100 ? -(1n << 62n) : (1n << 62n)) : BigInt(i * i * i) - 5000000n));
    vals.forEach((v, i) => { rows[i].i64_dbp = raw(v); });
    addCol(leaf('i64_dbp', REQ, T.INT64),
      { path: ['i64_dbp'], type: T.INT64, codec: C.GZIP, numValues: N, encodings: [E.DBP],
        pages: [page({ kind: 'v1', codec: C.GZIP, numValues: N, encoding: E.DBP, values: dbp(vals) })] });
    const w = rows.map((r, i) => (i % 2 ? 2147483647 : -2147483648 + i));
    w.forEach((v, i) => { rows[i].i32_wrap = v; });
    addCol(leaf('i32_wrap', REQ, T.INT32),
      { path: ['i32_wrap'], type: T.INT32, codec: C.NONE, numValues: N, encodings: [E.DBP],
        pages: [page({ kind: 'v2', codec: C.NONE, numValues: N, numRows: N, encoding: E.DBP, values: dbp(w) })] });
  }
  // f_bss: required DOUBLE, BYTE_STREAM_SPLIT, v1
  {
    const vals = rows.map((r, i) => (i - 150) / 8 + (i % 3 ? 0.1 : 0));
    vals.forEach((v, i) => { rows[i].f_bss = v; });
    addCol(leaf('f_bss', REQ, T.DOUBLE),
      { path: ['f_bss'], type: T.DOUBLE, codec: C.NONE, numValues: N, encodings: [E.BSS],
        pages: [page({ kind: 'v1', codec: C.NONE, numValues: N, encoding: E.BSS,
          values: bss(vals.map(v => { const b = Buffer.alloc(8); b.writeDoubleLE(v); return b; }), 8) })] });
  }
  const file = buildFile({ schema: [root(schema.length), ...schema], rowGroups: [{ numRows: N, columns: cols }], numRows: N });
  write('hm_encodings', file, rows);
}

function rleHybridLocal(vals, bw) { return rleHybridImport(vals, bw); }
import { rleHybrid as rleHybridImport } from './pqwrite.mjs';

// ---------------------------------------------------------------------------
// hm_row_groups: four row groups (one empty) of a required int64 position,
// an optional dictionary string and an optional list; positions count
// across row groups.
{
  const sizes = [5, 0, 17, 40];
  const B = s => Buffer.from(s, 'utf8');
  const rows = [];
  const rowGroups = [];
  let pos = 0;
  for (const n of sizes) {
    const pv = [], sv = [], lv = [];
    for (let k = 0; k < n; k++, pos++) {
      pv.push(BigInt(pos));
      sv.push(pos % 4 === 3 ? null : 'g' + (pos % 3));
      lv.push(pos % 5 === 4 ? null : Array.from({ length: pos % 3 }, (_, j) => pos * 10 + j));
      rows.push({ pos: raw(pos), s: sv[k], l: lv[k] });
    }
    const sEs = sv.map(v => (v === null ? { rep: 0, def: 0 } : { rep: 0, def: 1, val: v }));
    const dict = ['g0', 'g1', 'g2'];
    const lEs = [];
    for (const r of lv) {
      if (r === null) lEs.push({ rep: 0, def: 0 });
      else if (r.length === 0) lEs.push({ rep: 0, def: 1 });
      else r.forEach((v, j) => lEs.push({ rep: j ? 1 : 0, def: 3, val: v }));
    }
    const cols = [
      { path: ['pos'], type: T.INT64, codec: C.GZIP, numValues: n, encodings: [E.PLAIN],
        pages: n ? [page({ kind: 'v1', codec: C.GZIP, numValues: n, encoding: E.PLAIN, values: plain(T.INT64, pv) })] : [] },
      { path: ['s'], type: T.BYTE_ARRAY, codec: C.NONE, numValues: n, encodings: [E.PLAIN, E.RLE_DICTIONARY],
        pages: n ? [page({ kind: 'dict', codec: C.NONE, numValues: 3, encoding: E.PLAIN, values: plain(T.BYTE_ARRAY, dict.map(B)) }),
          page({ kind: 'v2', codec: C.NONE, numValues: n, numRows: n, encoding: E.RLE_DICTIONARY,
            values: Buffer.concat([Buffer.from([2]), rleHybridLocal(present(sEs, 1).map(v => dict.indexOf(v)), 2)]),
            def: defs(sEs), maxDef: 1 })] : [] },
      { path: ['l', 'list', 'element'], type: T.INT32, codec: C.NONE, numValues: lEs.length, encodings: [E.PLAIN, E.RLE],
        pages: n ? [page({ kind: 'v1', codec: C.NONE, numValues: lEs.length, encoding: E.PLAIN, values: plain(T.INT32, present(lEs, 3)),
          rep: reps(lEs), def: defs(lEs), maxRep: 1, maxDef: 3 })] : [] },
    ];
    rowGroups.push({ numRows: n, columns: cols });
  }
  const schema = [root(3), leaf('pos', REQ, T.INT64), leaf('s', OPT, T.BYTE_ARRAY, { logical: LT.string }),
    group('l', OPT, 1, { conv: CONV.LIST }), group('list', REP, 1), leaf('element', OPT, T.INT32)];
  write('hm_row_groups', buildFile({ schema, rowGroups, numRows: pos }), rows);
}
