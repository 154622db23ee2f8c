// make_direct.mjs: Parquet checkpoints whose add rows have unusual shapes,
// for test/sql/checkpoint_direct.sql (the direct decoder of checkpoint add
// rows, src/checkpoint.c decode_add_direct, and its fallback to the
// render+parse path).  Each case is a table under ../direct/<case> with one
// classic checkpoint at version 1 (protocol, metaData, then the add rows)
// and a JSON commit 2 holding only commitInfo, so reading the table must
// use the checkpoint.  Built with the project's own Parquet writer.
//   node make_direct.mjs
import fs from 'fs';
import path from 'path';
import { T, E, C, page, plain, buildFile } from '../../parquet/gen/pqwrite.mjs';

const OUT = new URL('../direct/', import.meta.url).pathname;
const REQ = 0, OPT = 1, REP = 2;
const CONV = { UTF8: 0, MAP: 1, MAP_KEY_VALUE: 2, LIST: 3 };

// schema nodes: { name, rep, type?, conv?, children? }
const str = (name, rep = OPT) => ({ name, rep, type: T.BYTE_ARRAY, conv: CONV.UTF8 });
const i64 = (name, rep = OPT) => ({ name, rep, type: T.INT64 });
const i32 = (name, rep = OPT) => ({ name, rep, type: T.INT32 });
const bool = (name, rep = OPT) => ({ name, rep, type: T.BOOLEAN });
const grp = (name, children, rep = OPT, conv) => ({ name, rep, conv, children });
const strMap = (name, valueNode = str('value')) =>
  grp(name, [grp('key_value', [str('key', REQ), valueNode], REP, CONV.MAP_KEY_VALUE)], OPT, CONV.MAP);
const strList = name => grp(name, [grp('list', [str('element')], REP)], OPT, CONV.LIST);

const protocolNode = grp('protocol', [i32('minReaderVersion'), i32('minWriterVersion')]);
const metaDataNode = grp('metaData', [str('id'), str('schemaString'), strList('partitionColumns')]);
const dvNode = (offsetNode = i32('offset')) => grp('deletionVector', [str('storageType'), str('pathOrInlineDv'),
  offsetNode, i32('sizeInBytes'), i64('cardinality')]);

// the add struct of a Spark checkpoint, with replaceable fields
function addNode(over = {}) {
  const f = {
    path: str('path'), partitionValues: strMap('partitionValues'), size: i64('size'),
    modificationTime: i64('modificationTime'), dataChange: bool('dataChange'), stats: str('stats'),
    tags: strMap('tags'), deletionVector: dvNode(), baseRowId: i64('baseRowId'),
    defaultRowCommitVersion: i64('defaultRowCommitVersion'), clusteringProvider: str('clusteringProvider'),
    ...over,
  };
  return grp('add', Object.values(f).filter(Boolean));
}

// Dremel shredding of one leaf (path: the nodes from a top-level field down).
function shred(rows, nodes) {
  const out = [];
  const repAt = [];
  let r = 0;
  for (const n of nodes) { if (n.rep === REP) r++; repAt.push(r); }
  const walk = (obj, d, rep, def) => {
    const n = nodes[d];
    const v = obj == null ? undefined : obj[n.name];
    const emit = (x, rep2, def2) => (d === nodes.length - 1 ? out.push({ rep: rep2, def: def2, val: x })
      : walk(x, d + 1, rep2, def2));
    if (n.rep === REP) {
      if (v == null || v.length === 0) { out.push({ rep, def }); return; }
      v.forEach((x, i) => emit(x, i === 0 ? rep : repAt[d], def + 1));
    } else if (n.rep === OPT) {
      if (v == null) { out.push({ rep, def }); return; }
      emit(v, rep, def + 1);
    } else emit(v, rep, def);
  };
  for (const row of rows) walk(row, 0, 0, 0);
  return { entries: out, maxRep: r, maxDef: nodes.filter(n => n.rep !== REQ).length };
}

function leaves(node, prefix = []) {
  const p = [...prefix, node];
  return node.children ? node.children.flatMap(c => leaves(c, p)) : [p];
}

function schemaElements(node) {
  if (node.children)
    return [[[3, 'i32', node.rep], [4, 'bin', node.name], [5, 'i32', node.children.length], [6, 'i32', node.conv]],
      ...node.children.flatMap(schemaElements)];
  return [[[1, 'i32', node.type], [3, 'i32', node.rep], [4, 'bin', node.name], [6, 'i32', node.conv]]];
}

const toBuf = v => (Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'utf8'));

function checkpointFile(top, rows) {
  const schema = [[[4, 'bin', 'spark_schema'], [5, 'i32', top.length]], ...top.flatMap(schemaElements)];
  const columns = top.flatMap(t => leaves(t)).map(nodes => {
    const leaf = nodes[nodes.length - 1];
    const { entries, maxRep, maxDef } = shred(rows, nodes);
    let vals = entries.filter(e => e.def === maxDef).map(e => e.val);
    if (leaf.type === T.BYTE_ARRAY) vals = vals.map(toBuf);
    return {
      path: nodes.map(n => n.name), type: leaf.type, codec: C.NONE, numValues: entries.length,
      encodings: [E.PLAIN, E.RLE],
      pages: [page({ kind: 'v1', codec: C.NONE, numValues: entries.length, encoding: E.PLAIN,
        values: plain(leaf.type, vals), rep: entries.map(e => e.rep), def: entries.map(e => e.def), maxRep, maxDef })],
    };
  });
  return buildFile({ schema, rowGroups: [{ numRows: rows.length, columns }], numRows: rows.length });
}

const SCHEMA = JSON.stringify({ type: 'struct', fields: [
  { name: 'a', type: 'long', nullable: true, metadata: {} }, { name: 'p', type: 'string', nullable: true, metadata: {} }] });
const kv = obj => ({ key_value: Object.entries(obj).map(([key, value]) => ({ key, value })) });
const head = [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
  { metaData: { id: 'direct-test', schemaString: SCHEMA, partitionColumns: { list: [{ element: 'p' }] } } }];
const stats = n => JSON.stringify({ numRecords: n, minValues: { a: 1 }, maxValues: { a: n }, nullCount: { a: 0 }, tightBounds: true });
const add = (name, over = {}) => ({ add: { path: 'p=x/' + name + '.parquet', partitionValues: kv({ p: 'x' }), size: 100,
  modificationTime: 1700000000000, dataChange: true, stats: stats(3), ...over } });

function table(name, addFields, adds) {
  const dir = path.join(OUT, name, '_delta_log');
  fs.mkdirSync(dir, { recursive: true });
  const file = checkpointFile([protocolNode, metaDataNode, addNode(addFields)], [...head, ...adds]);
  fs.writeFileSync(path.join(dir, '00000000000000000001.checkpoint.parquet'), file);
  fs.writeFileSync(path.join(dir, '00000000000000000002.json'), '{"commitInfo":{"operation":"WRITE"}}\n');
  console.log(name, file.length, 'bytes,', adds.length, 'adds');
}

// decoded directly (compared with the render+parse path in assert builds):
// in path order (snapshot_files reads the rows again with a cursor) and in
// reverse (the checkpoint is read again whole)
const SHAPES = [
  add('plain'),
  add('null-partition', { partitionValues: kv({ p: null }), stats: undefined }),
  add('no-partition-values', { partitionValues: kv({}), dataChange: false }),
  add('dv-offset', { deletionVector: { storageType: 'u', pathOrInlineDv: 'ab^-aqEH.-t@S}K{vb[*k^', offset: 4, sizeInBytes: 40, cardinality: 6 } }),
  add('dv-inline', { deletionVector: { storageType: 'i', pathOrInlineDv: 'wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L', sizeInBytes: 40, cardinality: 2 } }),
  add('row-tracking', { baseRowId: 41, defaultRowCommitVersion: 7 }),
  add('clustered', { clusteringProvider: 'liquid' }),
  add('tagged', { tags: kv({ INSERTION_TIME: '1700000000000000', t2: null }) }),
  add('unicode-\u00e9\u4e2d', { partitionValues: kv({ p: 'x\u00e9"\\\n' }), stats: '{"numRecords":-1}' }),
  add('stats-not-json', { stats: 'not json' }),
];
SHAPES.sort((a, b) => Buffer.compare(Buffer.from(a.add.path), Buffer.from(b.add.path)));
table('shapes', { size: i32('size') }, SHAPES);
table('shapes_reversed', { size: i32('size') }, [...SHAPES].reverse());
// fall back to render+parse, still decode
table('pv_int', { partitionValues: strMap('partitionValues', i32('value')) }, [
  add('int-partition', { partitionValues: kv({ p: 5 }) })]);
table('offset_int64', { deletionVector: dvNode(i64('offset')) }, [
  add('dv-offset64', { deletionVector: { storageType: 'u', pathOrInlineDv: 'ab^-aqEH.-t@S}K{vb[*k^', offset: 1, sizeInBytes: 40, cardinality: 6 } })]);
table('extra_nested', { extra: grp('extra', [i32('x')]) }, [add('extra', { extra: { x: 1 } })]);
// fall back to render+parse, which raises the error
table('size_negative', {}, [add('neg', { size: -1 })]);
table('path_empty', {}, [add('empty', { path: '' })]);
table('path_bad_utf8', {}, [add('bad', { path: Buffer.from([0x61, 0xff, 0x62]) })]);
table('stats_bad_utf8', {}, [add('bad-stats', { stats: Buffer.from([0x7b, 0xc3, 0x7d]) })]);
table('datachange_missing', {}, [add('no-dc', { dataChange: undefined })]);
table('mtime_missing', {}, [add('no-mtime', { modificationTime: undefined })]);
table('dv_storage_type_long', {}, [
  add('dv-bad', { deletionVector: { storageType: 'uu', pathOrInlineDv: 'x', sizeInBytes: 1, cardinality: 1 } })]);
table('dv_cardinality_missing', {}, [
  add('dv-nocard', { deletionVector: { storageType: 'u', pathOrInlineDv: 'x', sizeInBytes: 1 } })]);
table('dv_size_negative', {}, [
  add('dv-negsize', { deletionVector: { storageType: 'u', pathOrInlineDv: 'x', sizeInBytes: -1, cardinality: 1 } })]);
