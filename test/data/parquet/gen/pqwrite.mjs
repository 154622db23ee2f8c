// pqwrite.mjs: a small Parquet writer used only to build test fixtures that
// DuckDB cannot produce (legacy list layouts, deprecated level encodings,
// DELTA_BYTE_ARRAY, INT96, converted-type-only columns, Hadoop LZ4, many
// pages per chunk) and to build corrupt variants.  Written from the Parquet
// format specification; not a general-purpose writer.
import zlib from 'zlib';

// ---------- Thrift compact protocol ----------
const CT = { true: 1, false: 2, byte: 3, i16: 4, i32: 5, i64: 6, double: 7, bin: 8, list: 9, set: 10, map: 11, struct: 12 };

export class ThriftWriter {
  constructor() { this.b = []; }
  byte(x) { this.b.push(x & 255); }
  varint(n) {
    let v = BigInt(n);
    for (;;) {
      if (v < 128n) { this.byte(Number(v)); return; }
      this.byte(Number(v & 127n) | 128);
      v >>= 7n;
    }
  }
  zz(n) { const v = BigInt(n); this.varint(v >= 0n ? v << 1n : ((-v) << 1n) - 1n); }
  value(t, v, et) {
    switch (t) {
      case 'i32': case 'i64': case 'i16': this.zz(v); break;
      case 'byte': this.byte(v); break;
      case 'bin': { const buf = Buffer.isBuffer(v) ? v : Buffer.from(v, 'utf8'); this.varint(buf.length); for (const x of buf) this.byte(x); break; }
      case 'struct': this.struct(v); break;
      case 'list': this.list(et, v); break;
      case 'boolelem': this.byte(v ? 1 : 2); break;
      default: throw new Error('thrift type ' + t);
    }
  }
  // fields: array of [id, type, value, elemType?]; undefined values are skipped
  struct(fields) {
    let last = 0;
    for (const [id, t, v, et] of fields) {
      if (v === undefined) continue;
      const code = t === 'bool' ? (v ? CT.true : CT.false) : CT[t];
      const d = id - last;
      if (d > 0 && d <= 15) this.byte((d << 4) | code);
      else { this.byte(code); this.zz(id); }
      last = id;
      if (t !== 'bool') this.value(t, v, et);
    }
    this.byte(0);
  }
  list(et, items) {
    const code = et === 'bool' ? CT.true : CT[et];
    if (items.length < 15) this.byte((items.length << 4) | code);
    else { this.byte(0xf0 | code); this.varint(items.length); }
    for (const it of items) this.value(et === 'bool' ? 'boolelem' : et, it);
  }
  buffer() { return Buffer.from(this.b); }
}

export function thriftStruct(fields) { const w = new ThriftWriter(); w.struct(fields); return w.buffer(); }

// ---------- encodings ----------
export const T = { BOOLEAN: 0, INT32: 1, INT64: 2, INT96: 3, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6, FIXED: 7 };
export const E = { PLAIN: 0, PLAIN_DICTIONARY: 2, RLE: 3, BIT_PACKED: 4, DBP: 5, DLBA: 6, DBA: 7, RLE_DICTIONARY: 8, BSS: 9 };
export const C = { NONE: 0, SNAPPY: 1, GZIP: 2, LZ4: 5, ZSTD: 6, LZ4_RAW: 7 };

function uvarint(n) { const w = new ThriftWriter(); w.varint(n); return w.buffer(); }
function zigzag(n) { const w = new ThriftWriter(); w.zz(n); return w.buffer(); }
export function bitWidth(max) { let w = 0; while (max > 0) { w++; max >>= 1; } return w; }

// LSB-first bit packing of BigInt/number values with width bw.
function packLSB(vals, bw) {
  const out = Buffer.alloc(Math.ceil(vals.length * bw / 8));
  let bit = 0;
  for (const v0 of vals) {
    const v = BigInt(v0);
    for (let k = 0; k < bw; k++, bit++) if ((v >> BigInt(k)) & 1n) out[bit >> 3] |= 1 << (bit & 7);
  }
  return out;
}

// RLE / bit-packed hybrid (no length prefix): RLE runs for repeats of >= 8,
// bit-packed groups of 8 otherwise.
export function rleHybrid(vals, bw) {
  const parts = [];
  let i = 0;
  while (i < vals.length) {
    let j = i;
    while (j < vals.length && vals[j] === vals[i]) j++;
    if (j - i >= 8) {
      parts.push(uvarint((j - i) * 2));
      const vb = Buffer.alloc(Math.ceil(bw / 8));
      for (let k = 0; k < vb.length; k++) vb[k] = (vals[i] >> (8 * k)) & 255;
      parts.push(vb);
      i = j;
    } else {
      const group = vals.slice(i, i + 8);
      while (group.length < 8) group.push(0);
      parts.push(uvarint(1 * 2 + 1));
      parts.push(packLSB(group, bw));
      i += 8;
    }
  }
  return Buffer.concat(parts);
}

// Deprecated BIT_PACKED levels: MSB-first, no header.
export function bitPackedMSB(vals, bw) {
  const out = Buffer.alloc(Math.ceil(vals.length * bw / 8));
  let bit = 0;
  for (const v of vals) for (let k = bw - 1; k >= 0; k--, bit++) if ((v >> k) & 1) out[bit >> 3] |= 0x80 >> (bit & 7);
  return out;
}

const M64 = (1n << 64n) - 1n;
// DELTA_BINARY_PACKED, block 128 with 4 miniblocks of 32.
export function dbp(values) {
  const vals = values.map(BigInt);
  const parts = [uvarint(128), uvarint(4), uvarint(vals.length), zigzag(vals.length ? vals[0] : 0n)];
  for (let s = 1; s < vals.length; s += 128) {
    const deltas = [];
    for (let i = s; i < Math.min(s + 128, vals.length); i++) deltas.push(vals[i] - vals[i - 1]);
    const min = deltas.reduce((a, b) => (b < a ? b : a));
    parts.push(zigzag(min));
    const widths = [0, 0, 0, 0];
    const minis = [];
    for (let m = 0; m < 4 && m * 32 < deltas.length; m++) {
      const chunk = deltas.slice(m * 32, m * 32 + 32).map(d => (d - min) & M64);
      let mx = 0n; for (const x of chunk) if (x > mx) mx = x;
      let bw = 0; while ((mx >> BigInt(bw)) > 0n) bw++;
      widths[m] = bw;
      while (chunk.length < 32) chunk.push(0n);
      minis.push(packLSB(chunk, bw));
    }
    parts.push(Buffer.from(widths));
    parts.push(...minis);
  }
  return Buffer.concat(parts);
}

export function dlba(bufs) { return Buffer.concat([dbp(bufs.map(b => b.length)), ...bufs]); }

export function dba(bufs) {
  const pre = [], suf = [];
  let prev = Buffer.alloc(0);
  for (const b of bufs) {
    let p = 0; while (p < prev.length && p < b.length && prev[p] === b[p]) p++;
    pre.push(p); suf.push(b.subarray(p)); prev = b;
  }
  return Buffer.concat([dbp(pre), dlba(suf)]);
}

export function bss(bufs, w) {
  const out = Buffer.alloc(bufs.length * w);
  bufs.forEach((b, i) => { for (let k = 0; k < w; k++) out[k * bufs.length + i] = b[k]; });
  return out;
}

// PLAIN values of a physical type.
export function plain(type, vals, fixedLen) {
  switch (type) {
    case T.BOOLEAN: return packLSB(vals.map(v => (v ? 1 : 0)), 1);
    case T.INT32: { const b = Buffer.alloc(4 * vals.length); vals.forEach((v, i) => b.writeInt32LE(v, 4 * i)); return b; }
    case T.INT64: { const b = Buffer.alloc(8 * vals.length); vals.forEach((v, i) => b.writeBigInt64LE(BigInt.asIntN(64, BigInt(v)), 8 * i)); return b; }
    case T.FLOAT: { const b = Buffer.alloc(4 * vals.length); vals.forEach((v, i) => b.writeFloatLE(v, 4 * i)); return b; }
    case T.DOUBLE: { const b = Buffer.alloc(8 * vals.length); vals.forEach((v, i) => b.writeDoubleLE(v, 8 * i)); return b; }
    case T.INT96: case T.FIXED: return Buffer.concat(vals.map(v => { if (v.length !== (type === T.INT96 ? 12 : fixedLen)) throw new Error('bad fixed'); return v; }));
    case T.BYTE_ARRAY: return Buffer.concat(vals.flatMap(v => { const l = Buffer.alloc(4); l.writeUInt32LE(v.length); return [l, v]; }));
    default: throw new Error('type');
  }
}

// LZ4 block holding only literals (valid LZ4: the last sequence has no match).
function lz4Literals(buf) {
  const parts = [];
  const n = buf.length;
  parts.push(Buffer.from([(Math.min(n, 15)) << 4]));
  if (n >= 15) { let r = n - 15; while (r >= 255) { parts.push(Buffer.from([255])); r -= 255; } parts.push(Buffer.from([r])); }
  parts.push(buf);
  return Buffer.concat(parts);
}

export function compress(codec, buf) {
  switch (codec) {
    case C.NONE: return buf;
    case C.GZIP: return zlib.gzipSync(buf);
    case C.LZ4_RAW: return lz4Literals(buf);
    case C.LZ4: {
      // Hadoop framing: [be32 raw][be32 compressed][block]
      const blk = lz4Literals(buf);
      const h = Buffer.alloc(8); h.writeUInt32BE(buf.length, 0); h.writeUInt32BE(blk.length, 4);
      return Buffer.concat([h, blk]);
    }
    default: throw new Error('codec ' + codec);
  }
}

// ---------- file assembly ----------
// schema: array of SchemaElement field lists in preorder (see thriftStruct)
// columns: [{ path: [...], type, codec, numValues, pages: [Buffer of header+body...], dictOffsetIndex }]
export function levelsV1(levels, max, enc = E.RLE) {
  if (max === 0) return Buffer.alloc(0);
  const bw = bitWidth(max);
  if (enc === E.BIT_PACKED) return bitPackedMSB(levels, bw);
  const body = rleHybrid(levels, bw);
  const l = Buffer.alloc(4); l.writeUInt32LE(body.length);
  return Buffer.concat([l, body]);
}

// Build one page (header + body).
//   kind: 'v1' | 'v2' | 'dict'
export function page({ kind, codec, numValues, encoding, values, rep = [], def = [], maxRep = 0, maxDef = 0,
  levelEnc = E.RLE, numNulls = 0, numRows = 0, compressed = true, mutateHeader }) {
  let header, body;
  if (kind === 'dict') {
    const raw = values;
    body = compress(codec, raw);
    header = [[1, 'i32', 2], [2, 'i32', raw.length], [3, 'i32', body.length],
      [7, 'struct', [[1, 'i32', numValues], [2, 'i32', encoding]]]];
  } else if (kind === 'v1') {
    const raw = Buffer.concat([levelsV1(rep, maxRep, levelEnc), levelsV1(def, maxDef, levelEnc), values]);
    body = compress(codec, raw);
    header = [[1, 'i32', 0], [2, 'i32', raw.length], [3, 'i32', body.length],
      [5, 'struct', [[1, 'i32', numValues], [2, 'i32', encoding], [3, 'i32', levelEnc], [4, 'i32', levelEnc]]]];
  } else {
    const r = maxRep ? rleHybrid(rep, bitWidth(maxRep)) : Buffer.alloc(0);
    const d = maxDef ? rleHybrid(def, bitWidth(maxDef)) : Buffer.alloc(0);
    const vals = compressed ? compress(codec, values) : values;
    body = Buffer.concat([r, d, vals]);
    header = [[1, 'i32', 3], [2, 'i32', r.length + d.length + values.length], [3, 'i32', body.length],
      [8, 'struct', [[1, 'i32', numValues], [2, 'i32', numNulls], [3, 'i32', numRows], [4, 'i32', encoding],
        [5, 'i32', d.length], [6, 'i32', r.length], [7, 'bool', compressed ? undefined : false]]]];
  }
  if (mutateHeader) header = mutateHeader(header);
  return { header: thriftStruct(header), body, isDict: kind === 'dict' };
}

export function buildFile({ schema, rowGroups, numRows, kv, createdBy = 'deltacc handmade fixture' }) {
  const chunks = [Buffer.from('PAR1')];
  let off = 4;
  const rgs = [];
  for (const rg of rowGroups) {
    const cols = [];
    for (const col of rg.columns) {
      const start = off;
      let dictOff;
      let usize = 0;
      const encs = new Set();
      for (const p of col.pages) {
        if (p.isDict) dictOff = off;
        chunks.push(p.header, p.body);
        off += p.header.length + p.body.length;
        usize += p.header.length + p.body.length;
      }
      for (const e of col.encodings) encs.add(e);
      const dataOff = dictOff === undefined ? start : start + col.pages[0].header.length + col.pages[0].body.length;
      const meta = [[1, 'i32', col.type], [2, 'list', [...encs], 'i32'], [3, 'list', col.path, 'bin'],
        [4, 'i32', col.codec], [5, 'i64', col.numValues], [6, 'i64', usize], [7, 'i64', off - start],
        [9, 'i64', col.dataPageOffset ?? dataOff], [11, 'i64', dictOff]];
      cols.push([[2, 'i64', start], [3, 'struct', col.mutateMeta ? col.mutateMeta(meta) : meta]]);
    }
    rgs.push([[1, 'list', cols, 'struct'], [2, 'i64', 0], [3, 'i64', rg.numRows]]);
  }
  const footer = thriftStruct([[1, 'i32', 1], [2, 'list', schema, 'struct'], [3, 'i64', numRows],
    [4, 'list', rgs, 'struct'], [5, 'list', kv, 'struct'], [6, 'bin', createdBy]]);
  const len = Buffer.alloc(4); len.writeUInt32LE(footer.length);
  chunks.push(footer, len, Buffer.from('PAR1'));
  return Buffer.concat(chunks);
}
