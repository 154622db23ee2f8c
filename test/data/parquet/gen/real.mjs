// real.mjs: DuckDB's reading of every checkpoint and sidecar Parquet file of
// the conformance tables, as canonical JSON lines in ../real/, listed in
// ../real/MANIFEST ("relative path<TAB>expected file").  The unit tests read
// the same files with deltacc's reader (when the tables are present) and
// compare.   DELTACC_TABLES=/path node real.mjs
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'fs';
import path from 'path';
import { dumpRows } from './canon.mjs';

const TABLES = process.env.DELTACC_TABLES || '/work/shared/delta-tables';
const OUT = new URL('../real/', import.meta.url).pathname;
fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT, { recursive: true });
const inst = await DuckDBInstance.create(':memory:');
const conn = await inst.connect();
const found = [];
const walk = d => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.parquet') && p.includes('/_delta_log/')) found.push(path.relative(TABLES, p));
  }
};
walk(TABLES);
found.sort();
const manifest = [];
for (const rel of found) {
  const name = rel.replace(/\//g, '__').replace(/\.parquet$/, '.jsonl');
  const rows = await dumpRows(conn, path.join(TABLES, rel));
  fs.writeFileSync(OUT + name, rows.map(l => l + '\n').join(''));
  manifest.push(rel + '\t' + name);
}
fs.writeFileSync(OUT + 'MANIFEST', manifest.join('\n') + '\n');
console.log(found.length, 'files');
