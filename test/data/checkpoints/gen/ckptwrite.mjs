// ckptwrite.mjs: the Parquet checkpoint writer of the fixture generators
// (make_direct.mjs, ../../lazyio/make_lazyio.mjs): Spark-shaped schema nodes
// (protocol, metaData, add with replaceable fields), Dremel shredding of
// row objects, and checkpointFile(top, rows) -> one-row-group Parquet bytes.
// Built on the project's own Parquet writer (../../parquet/gen/pqwrite.mjs).
import { T, E, C, page, plain, buildFile } from '../../parquet/gen/pqwrite.mjs';

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

export { REQ, OPT, REP, CONV, str, i64, i32, bool, grp, strMap, strList, protocolNode, metaDataNode, dvNode, addNode, checkpointFile };
