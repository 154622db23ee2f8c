// node dump.mjs FILE.parquet > FILE.jsonl : DuckDB's view of a file, canonical JSON per row.
import { DuckDBInstance } from '@duckdb/node-api';
import { dumpRows } from './canon.mjs';
const inst = await DuckDBInstance.create(':memory:');
const conn = await inst.connect();
for (const line of await dumpRows(conn, process.argv[2])) process.stdout.write(line + '\n');
