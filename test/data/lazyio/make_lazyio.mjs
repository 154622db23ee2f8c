// make_lazyio.mjs: fixtures of test/sql/lazy_reread.sql (the re-reads of a
// lazy snapshot: src/snapshot.c lazy_window_line and the checkpoint cursor).
//   node make_lazyio.mjs
// - json_interleaved/: commit 0 (protocol, metaData), commits 1-3 of 60
//   adds each whose paths interleave across the commits (in path order the
//   lines come from three commit files in turn), commit 4 of 120 adds
//   whose paths interleave within the file (three sequential streams), and
//   commit 5 removing some of them, commit 6 of 40 adds in no path order.  The stats texts are long so that 300
//   snapshot rows overflow a 64 kB tuplestore.
// - ckpt_sorted/, ckpt_reversed/: a classic Parquet checkpoint at version 1
//   with 150 adds in path order (read again with the cursor) and in reverse
//   (read again whole), then a JSON commit 2 with one more add.
// Output is deterministic; the files are committed so the tests never need
// node.
import fs from 'fs';
import path from 'path';
import { addNode, checkpointFile, metaDataNode, protocolNode } from '../checkpoints/gen/ckptwrite.mjs';

const OUT = path.dirname(new URL(import.meta.url).pathname);
const SCHEMA = JSON.stringify({ type: 'struct', fields: [
  { name: 'id', type: 'long', nullable: true, metadata: {} },
  { name: 'note', type: 'string', nullable: true, metadata: {} }] });
const pad = (n, w) => String(n).padStart(w, '0');
const stats = n => JSON.stringify({ numRecords: n, minValues: { id: n, note: 'a'.repeat(120) + pad(n, 5) },
  maxValues: { id: n + 1000, note: 'z'.repeat(120) + pad(n, 5) }, nullCount: { id: 0, note: 0 } });
const add = (p, n) => ({ add: { path: p, partitionValues: {}, size: 1000 + n, modificationTime: 1700000000000 + n,
  dataChange: true, stats: stats(n) } });

function writeCommit(table, version, actions) {
  const dir = path.join(OUT, table, '_delta_log');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, pad(version, 20) + '.json'), actions.map(a => JSON.stringify(a) + '\n').join(''));
}

const protocol = { protocol: { minReaderVersion: 1, minWriterVersion: 2 } };
const metaData = { metaData: { id: 'lazyio-fixture', format: { provider: 'parquet', options: {} }, schemaString: SCHEMA,
  partitionColumns: [], configuration: {}, createdTime: 1700000000000 } };

// json_interleaved
fs.rmSync(path.join(OUT, 'json_interleaved'), { recursive: true, force: true });
writeCommit('json_interleaved', 0, [protocol, metaData]);
for (let v = 1; v <= 3; v++) {
  const adds = [];
  for (let i = 0; i < 60; i++)
    adds.push(add('part-' + pad(3 * i + v - 1, 5) + '.parquet', 3 * i + v));
  writeCommit('json_interleaved', v, [{ commitInfo: { timestamp: 1700000000000 + v, operation: 'WRITE' } }, ...adds]);
}
{
  const adds = [];
  for (let i = 0; i < 120; i++)
    adds.push(add('s-' + pad(i % 40, 5) + '-' + 'abc'[Math.floor(i / 40)] + '.parquet', 500 + i));
  writeCommit('json_interleaved', 4, [{ commitInfo: { timestamp: 1700000000004, operation: 'WRITE' } }, ...adds]);
}
// commit 6: 40 adds in no path order (read whole: the file is small)
writeCommit('json_interleaved', 6, [{ commitInfo: { timestamp: 1700000000006, operation: 'WRITE' } },
  ...Array.from({ length: 40 }, (_, i) => add('r-' + pad((i * 17) % 40, 5) + '.parquet', 700 + i))]);
writeCommit('json_interleaved', 5, [{ commitInfo: { timestamp: 1700000000005, operation: 'DELETE' } },
  ...[7, 8, 100, 101].map(n => ({ remove: { path: 'part-' + pad(n, 5) + '.parquet', deletionTimestamp: 1700000000005,
    dataChange: true } })),
  { remove: { path: 's-00010-b.parquet', deletionTimestamp: 1700000000005, dataChange: true } }]);

// ckpt_sorted, ckpt_reversed
const kv = obj => ({ key_value: Object.entries(obj).map(([key, value]) => ({ key, value })) });
const head = [protocol, { metaData: { id: 'lazyio-fixture', schemaString: SCHEMA, partitionColumns: { list: [] } } }];
const rows = [];
for (let i = 0; i < 150; i++)
  rows.push({ add: { ...add('c-' + pad(i, 5) + '.parquet', i).add, partitionValues: kv({}) } });
for (const [name, order] of [['ckpt_sorted', rows], ['ckpt_reversed', [...rows].reverse()]]) {
  const dir = path.join(OUT, name, '_delta_log');
  fs.rmSync(path.join(OUT, name), { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, pad(1, 20) + '.checkpoint.parquet'),
    checkpointFile([protocolNode, metaDataNode, addNode()], [...head, ...order]));
  writeCommit(name, 2, [{ commitInfo: { timestamp: 1700000000002, operation: 'WRITE' } }, add('d-00000.parquet', 999)]);
}
console.log('done');
