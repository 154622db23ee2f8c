// bench/gen_checkpoint.mjs: W4 from a Parquet checkpoint.
//
// For every table w4_<n> that bench/gen.py or bench/gen_variety.py wrote
// (the data directory given), writes w4c_<n>: the same
// version 0 as a classic Delta Parquet checkpoint
// (_delta_log/00000000000000000000.checkpoint.parquet, one row per action,
// columns txn/add/remove/metaData/protocol/domainMetadata as the Delta
// protocol lays them out, stats as a JSON string, snappy), plus
// _last_checkpoint.  The commit file itself is not there (as after log
// clean-up), so a reader must start from the checkpoint.  The Parquet file
// is written by DuckDB (the npm package the bench already installs).
// Usage: node gen_checkpoint.mjs [data dir]   (skips tables already done)
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.resolve(process.argv[2] || path.join(HERE, 'data'));
const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;

const DV = 'STRUCT(storageType VARCHAR, pathOrInlineDv VARCHAR, "offset" INTEGER, sizeInBytes INTEGER, cardinality BIGINT)';
const COLUMNS = `{
	'add': 'STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR, tags MAP(VARCHAR, VARCHAR), deletionVector ${DV.replace(/'/g, "''")}, baseRowId BIGINT, defaultRowCommitVersion BIGINT, clusteringProvider VARCHAR)',
	'metaData': 'STRUCT(id VARCHAR, name VARCHAR, description VARCHAR, format STRUCT(provider VARCHAR, options MAP(VARCHAR, VARCHAR)), schemaString VARCHAR, partitionColumns VARCHAR[], configuration MAP(VARCHAR, VARCHAR), createdTime BIGINT)',
	'protocol': 'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, readerFeatures VARCHAR[], writerFeatures VARCHAR[])',
	'domainMetadata': 'STRUCT(domain VARCHAR, configuration VARCHAR, removed BOOLEAN)'
}`;

function checkpointSql(src, dst) {
	return `COPY (
	SELECT
		NULL::STRUCT(appId VARCHAR, version BIGINT, lastUpdated BIGINT) AS txn,
		CASE WHEN add IS NOT NULL THEN struct_pack(
			path := add.path, partitionValues := add.partitionValues, size := add.size,
			modificationTime := add.modificationTime, dataChange := false,
			tags := add.tags, deletionVector := add.deletionVector, baseRowId := add.baseRowId,
			defaultRowCommitVersion := add.defaultRowCommitVersion, clusteringProvider := add.clusteringProvider,
			stats := add.stats) END AS add,
		NULL::STRUCT(path VARCHAR, deletionTimestamp BIGINT, dataChange BOOLEAN,
			extendedFileMetadata BOOLEAN, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT,
			deletionVector ${DV}, baseRowId BIGINT, defaultRowCommitVersion BIGINT) AS remove,
		metaData, protocol, domainMetadata
	FROM read_ndjson(${lit(src)}, columns = ${COLUMNS})
	WHERE add IS NOT NULL OR metaData IS NOT NULL OR protocol IS NOT NULL
		OR domainMetadata IS NOT NULL
	ORDER BY add IS NOT NULL, add.path
) TO ${lit(dst)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 131072)`;
}

const inst = await DuckDBInstance.create(':memory:');
const conn = await inst.connect();
for (const name of fs.readdirSync(DATA).filter((d) => /^w4_\d+$/.test(d)).sort()) {
	const src = path.join(DATA, name);
	const manifest = JSON.parse(fs.readFileSync(path.join(src, 'bench.json'), 'utf8'));
	const dst = path.join(DATA, name.replace('w4_', 'w4c_'));
	const mpath = path.join(dst, 'bench.json');
	if (fs.existsSync(mpath) && JSON.parse(fs.readFileSync(mpath, 'utf8')).from_stamp === manifest.stamp) {
		console.log(`gen: ${path.basename(dst).padEnd(10)} up to date`);
		continue;
	}
	const t0 = Date.now();
	fs.rmSync(dst, { recursive: true, force: true });
	fs.mkdirSync(path.join(dst, '_delta_log'), { recursive: true });
	const commit = path.join(src, '_delta_log', '00000000000000000000.json');
	const ckpt = path.join(dst, '_delta_log', '00000000000000000000.checkpoint.parquet');
	await conn.run(checkpointSql(commit, ckpt));
	const rows = Number((await conn.runAndReadAll(
		`SELECT count(*) AS n FROM read_parquet(${lit(ckpt)})`)).getRowObjectsJson()[0].n);
	const size = fs.statSync(ckpt).size;
	fs.writeFileSync(path.join(dst, '_delta_log', '_last_checkpoint'),
		JSON.stringify({ version: 0, size: rows, sizeInBytes: size, numOfAddFiles: manifest.active_files }) + '\n');
	fs.writeFileSync(mpath, JSON.stringify({
		...manifest, table: path.basename(dst), checkpoint: '00000000000000000000.checkpoint.parquet',
		checkpoint_rows: rows, checkpoint_bytes: size, from_stamp: manifest.stamp,
		generator: 'bench/gen_checkpoint.mjs',
	}, null, 1) + '\n');
	console.log(`gen: ${path.basename(dst).padEnd(10)} ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  {"active_files": ${manifest.active_files}, "checkpoint_bytes": ${size}}`);
}
conn.closeSync();
inst.closeSync();
