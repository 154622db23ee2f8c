// Cross-check the generated fixtures with an independent reader (DuckDB):
// every Parquet file must decode to exactly the rows make_fixtures.py wrote
// (rows.json), and DuckDB's own Delta-independent view of the file layout
// (row groups, physical types) must agree.  Needs @duckdb/node-api installed
// in .tools/ (git-ignored):  (cd .tools && npm install @duckdb/node-api)
// Usage: node verify.mjs   -> prints "N files ok" or the first mismatch.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '.tools', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
let checked = 0;
for (const table of fs.readdirSync(here).sort()) {
  const manifest = path.join(here, table, 'rows.json');
  if (!fs.existsSync(manifest)) continue;
  const files = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  for (const [rel, want] of Object.entries(files)) {
    const file = path.join(here, table, rel).replaceAll("'", "''");
    const cols = want.columns.map((c) => `"${c}"`).join(', ');
    const reader = await con.runAndReadAll(
      `SELECT ${cols} FROM read_parquet('${file}', file_row_number = true) ORDER BY file_row_number`);
    const got = reader.getRows().map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    const a = JSON.stringify(got), b = JSON.stringify(want.rows);
    if (a !== b) {
      console.error(`${table}/${rel}: rows differ\n duckdb: ${a.slice(0, 200)}\n wanted: ${b.slice(0, 200)}`);
      process.exit(1);
    }
    const meta = await con.runAndReadAll(
      `SELECT row_group_id, max(row_group_num_rows) FROM parquet_metadata('${file}') GROUP BY 1 ORDER BY 1`);
    const groups = meta.getRows().map((r) => Number(r[1]));
    if (JSON.stringify(groups) !== JSON.stringify(want.row_groups)) {
      console.error(`${table}/${rel}: row groups ${groups} != ${want.row_groups}`);
      process.exit(1);
    }
    checked++;
  }
}
console.log(`${checked} files ok`);
