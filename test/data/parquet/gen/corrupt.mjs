// corrupt.mjs: corrupt Parquet files, each with the error the reader must
// return (a substring), listed in ../corrupt/MANIFEST ("name<TAB>substring").
//   node corrupt.mjs
import fs from 'fs';
import zlib from 'zlib';
import { T, E, C, page, plain, buildFile, thriftStruct, rleHybrid, dbp } from './pqwrite.mjs';

const DIR = new URL('../corrupt/', import.meta.url).pathname;
fs.mkdirSync(DIR, { recursive: true });
const manifest = [];
const put = (name, buf, expect) => { fs.writeFileSync(DIR + name + '.parquet', buf); manifest.push(name + '\t' + expect); };

const root = n => [[4, 'bin', 'schema'], [5, 'i32', n]];
const leaf = (name, rep, type, extra = {}) => [[1, 'i32', type], [2, 'i32', extra.len], [3, 'i32', rep], [4, 'bin', name],
  [6, 'i32', extra.conv]];

// A valid one-column file: optional string with a dictionary, or an int column.
function strFile({ codec = C.NONE, idx = [0, 1, 2, 1, 0], dict = ['a', 'b', 'c'], mutatePage, mutateMeta, numRows,
  pageOpts = {}, dictOpts = {}, schema } = {}) {
  const N = idx.length;
  const B = s => Buffer.from(s);
  const def = idx.map(() => 1);
  const pages = [page({ kind: 'dict', codec, numValues: dict.length, encoding: E.PLAIN_DICTIONARY, values: plain(T.BYTE_ARRAY, dict.map(B)), ...dictOpts }),
    page({ kind: 'v1', codec, numValues: N, encoding: E.RLE_DICTIONARY, values: Buffer.concat([Buffer.from([2]), rleHybrid(idx, 2)]),
      def, maxDef: 1, ...pageOpts })];
  if (mutatePage) mutatePage(pages);
  return buildFile({ schema: schema || [root(1), leaf('s', 1, T.BYTE_ARRAY, { conv: 0 })],
    rowGroups: [{ numRows: numRows ?? N, columns: [{ path: ['s'], type: T.BYTE_ARRAY, codec, numValues: N,
      encodings: [E.PLAIN_DICTIONARY, E.RLE_DICTIONARY], pages, mutateMeta }] }], numRows: numRows ?? N });
}

function intFile({ vals = [1, 2, 3, 4], encoding = E.PLAIN, values, codec = C.NONE, kind = 'v1', maxDef = 0, levelMax, def, mutateMeta, numRows } = {}) {
  const N = vals.length;
  const pages = [page({ kind, codec, numValues: N, numRows: N, encoding, values: values || plain(T.INT32, vals), def, maxDef: levelMax ?? maxDef })];
  return buildFile({ schema: [root(1), leaf('i', maxDef ? 1 : 0, T.INT32)],
    rowGroups: [{ numRows: numRows ?? N, columns: [{ path: ['i'], type: T.INT32, codec, numValues: N, encodings: [encoding], pages, mutateMeta }] }],
    numRows: numRows ?? N });
}

const good = strFile();
// --- file framing ---
put('bad_magic_head', Buffer.concat([Buffer.from('PAR0'), good.subarray(4)]), 'bad magic');
put('bad_magic_tail', Buffer.concat([good.subarray(0, good.length - 1), Buffer.from('2')]), 'bad magic');
put('encrypted_footer', Buffer.concat([good.subarray(0, good.length - 4), Buffer.from('PARE')]), 'encrypted');
put('tiny', Buffer.from('PAR1PAR1'), 'too small');
{
  const b = Buffer.from(good); b.writeUInt32LE(good.length, good.length - 8);
  put('footer_len_past_end', b, 'exceeds the file size');
}
{
  const b = Buffer.from(good); b.writeUInt32LE(0xffffffff, good.length - 8);
  put('footer_len_huge', b, 'exceeds the file size');
}
put('truncated_footer', Buffer.concat([good.subarray(0, 4), good.subarray(good.length - 30)]), 'exceeds the file size');
{
  // cut the footer short: keep the length but drop bytes before it
  const flen = good.readUInt32LE(good.length - 8);
  const footer = good.subarray(good.length - 8 - flen, good.length - 8);
  const cut = footer.subarray(0, flen - 10);
  const l = Buffer.alloc(4); l.writeUInt32LE(cut.length);
  put('footer_cut', Buffer.concat([Buffer.from('PAR1'), cut, l, Buffer.from('PAR1')]), 'malformed parquet footer');
}
// --- footer contents ---
{
  // schema list claiming 2^31 elements
  const f = thriftStruct([[1, 'i32', 1]]);
  const w = Buffer.concat([f.subarray(0, f.length - 1), Buffer.from([0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x08]), Buffer.from([0])]);
  const l = Buffer.alloc(4); l.writeUInt32LE(w.length);
  put('schema_count_huge', Buffer.concat([Buffer.from('PAR1'), w, l, Buffer.from('PAR1')]), 'exceeds the remaining bytes');
}
put('schema_children_past_end', strFile({ schema: [root(5), leaf('s', 1, T.BYTE_ARRAY, { conv: 0 })] }), 'more than the schema holds');
{
  const deep = [root(1)];
  for (let i = 0; i < 100; i++) deep.push([[3, 'i32', 1], [4, 'bin', 'g' + i], [5, 'i32', 1]]);
  deep.push(leaf('s', 1, T.BYTE_ARRAY, { conv: 0 }));
  put('schema_too_deep', strFile({ schema: deep }), 'nesting exceeds');
}
put('schema_no_repetition', strFile({ schema: [root(1), [[1, 'i32', T.BYTE_ARRAY], [4, 'bin', 's']]] }), 'no valid repetition');
put('fixed_len_zero', strFile({ schema: [root(1), leaf('s', 1, T.FIXED, { len: 0 })] }), 'invalid fixed length');
put('row_count_mismatch', strFile({ numRows: 9 }), 'values in a row group of 9 rows');
put('chunk_offset_past_end', strFile({ mutateMeta: m => m.map(f => (f[0] === 9 ? [9, 'i64', 1n << 40n] : f[0] === 11 ? [11, 'i64', undefined] : f)) }),
  'lies outside the file');
put('chunk_size_past_end', strFile({ mutateMeta: m => m.map(f => (f[0] === 7 ? [7, 'i64', 1000000] : f)) }), 'lies outside the file');
put('num_values_huge', strFile({ numRows: 1e12, mutateMeta: m => m.map(f => (f[0] === 5 ? [5, 'i64', 1e12] : f)) }), 'beyond the limit');
put('chunk_type_mismatch', strFile({ mutateMeta: m => m.map(f => (f[0] === 1 ? [1, 'i32', T.INT64] : f)) }), 'does not match the schema');
// --- pages ---
put('page_past_chunk', strFile({ mutatePage: p => { p[1] = { ...p[1], header: thriftStruct([[1, 'i32', 0], [2, 'i32', 5000], [3, 'i32', 5000],
  [5, 'struct', [[1, 'i32', 5], [2, 'i32', E.RLE_DICTIONARY], [3, 'i32', E.RLE], [4, 'i32', E.RLE]]]]) }; } }), 'extends past its column chunk');
put('page_header_truncated', strFile({ mutatePage: p => { p[1] = { header: p[1].header.subarray(0, 3), body: Buffer.alloc(0) }; } }),
  'malformed parquet page header');
put('page_header_garbage', strFile({ mutatePage: p => { p[1] = { header: Buffer.from([0x15, 0x00, 0x1f, 0xff, 0xff]), body: p[1].body }; } }),
  'malformed parquet page header');
put('bad_dictionary_index', strFile({ idx: [0, 1, 3, 1, 0] }), 'dictionary index 3 out of range');
put('no_dictionary_page', strFile({ mutatePage: p => { p.shift(); } }), 'without a dictionary page');
put('dictionary_count_huge', strFile({ dictOpts: { numValues: 1000000 } }), 'more than its');
put('def_level_too_large', (() => {
  // max definition level 2 (bit width 2), a level of 3 in the page
  const pages = [page({ kind: 'v1', codec: C.NONE, numValues: 2, encoding: E.PLAIN, values: plain(T.INT32, [1]), def: [2, 3], maxDef: 2 })];
  return buildFile({ schema: [root(1), [[3, 'i32', 1], [4, 'bin', 'g'], [5, 'i32', 1]], leaf('i', 1, T.INT32)],
    rowGroups: [{ numRows: 2, columns: [{ path: ['g', 'i'], type: T.INT32, codec: C.NONE, numValues: 2, encodings: [E.PLAIN], pages }] }], numRows: 2 });
})(), 'exceeds the maximum');
put('levels_truncated', intFile({ vals: Array(12).fill(7), maxDef: 1, def: Array(8).fill(1), values: plain(T.INT32, Array(8).fill(7)) }), 'levels ended early');
put('values_truncated', intFile({ vals: [1, 2, 3, 4], values: plain(T.INT32, [1, 2, 3]) }), 'values truncated');
put('byte_array_len_past_end', (() => {
  const v = Buffer.from([0xff, 0xff, 0, 0, 0x41]);
  const pages = [page({ kind: 'v1', codec: C.NONE, numValues: 1, encoding: E.PLAIN, values: v })];
  return buildFile({ schema: [root(1), leaf('b', 0, T.BYTE_ARRAY)], rowGroups: [{ numRows: 1, columns: [{ path: ['b'], type: T.BYTE_ARRAY,
    codec: C.NONE, numValues: 1, encodings: [E.PLAIN], pages }] }], numRows: 1 });
})(), 'past the end of the page');
put('uncompressed_size_mismatch', strFile({ pageOpts: { mutateHeader: h => h.map(f => (f[0] === 2 ? [2, 'i32', f[2] + 1] : f)) } }), 'sizes disagree');
{
  // compressed pages whose bodies are garbage
  const garbage = (codec) => strFile({ codec, mutatePage: p => { p[1] = { ...p[1], body: Buffer.alloc(p[1].body.length, 0x5a) }; } });
  put('bad_gzip', garbage(C.GZIP), 'corrupt compressed parquet page');
  put('bad_lz4_raw', garbage(C.LZ4_RAW), 'corrupt compressed parquet page');
  put('bad_lz4_hadoop', garbage(C.LZ4), 'corrupt compressed parquet page');
  // snappy / zstd declared on uncompressed bytes: invalid streams
  put('bad_snappy', strFile({ mutateMeta: m => m.map(f => (f[0] === 4 ? [4, 'i32', C.SNAPPY] : f)),
    mutatePage: p => { p[1] = { ...p[1], body: Buffer.alloc(p[1].body.length, 0xff) }; } }), 'corrupt compressed parquet page');
  put('bad_zstd', strFile({ mutateMeta: m => m.map(f => (f[0] === 4 ? [4, 'i32', C.ZSTD] : f)) }), 'corrupt compressed parquet page');
  put('codec_brotli', strFile({ mutateMeta: m => m.map(f => (f[0] === 4 ? [4, 'i32', 4] : f)) }), 'BROTLI is not supported');
  put('codec_unknown', strFile({ mutateMeta: m => m.map(f => (f[0] === 4 ? [4, 'i32', 42] : f)) }), 'unknown parquet compression codec');
  // gzip stream that inflates to more than the declared size
  put('gzip_bigger_than_declared', strFile({ codec: C.GZIP, pageOpts: { mutateHeader: h => h.map(f => (f[0] === 2 ? [2, 'i32', f[2] - 3] : f)) } }),
    'corrupt compressed parquet page');
}
put('delta_bad_block', intFile({ encoding: E.DBP, values: Buffer.from([0x81, 0x01, 0x04, 0x04, 0x02]) }), 'invalid block size');
put('delta_count_too_big', intFile({ encoding: E.DBP, values: dbp([1, 2, 3, 4, 5, 6]) }), 'more than the page');
put('delta_truncated', intFile({ vals: Array.from({ length: 40 }, (_, i) => i * i), encoding: E.DBP,
  values: dbp(Array.from({ length: 40 }, (_, i) => i * i)).subarray(0, 12) }), 'truncated');
put('unsupported_encoding', intFile({ encoding: 10 }), 'unsupported parquet value encoding');
put('v2_level_lengths', intFile({ kind: 'v2', maxDef: 1, def: [1, 1, 1, 1] }).map((x) => x), 'ok-v2-control');
fs.writeFileSync(DIR + 'MANIFEST', manifest.filter(l => !l.endsWith('ok-v2-control')).join('\n') + '\n');
fs.unlinkSync(DIR + 'v2_level_lengths.parquet');
console.log(manifest.length - 1, 'corrupt files');
