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
import { i64, i32, grp, strMap, protocolNode, metaDataNode, dvNode, addNode, checkpointFile }
  from './ckptwrite.mjs';

const OUT = new URL('../direct/', import.meta.url).pathname;
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
