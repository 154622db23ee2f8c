// bench/duck_worker.mjs: the DuckDB peer's process.
//
// Started by bench.mjs as a child process so that its peak memory is
// DuckDB's (plus node's baseline), not the driver's.  Reads one JSON command
// per line on stdin, answers one JSON line on stdout:
//   {"op":"open"}                 new in-memory database + connection
//   {"op":"run","sql":[...],"fetch":true,"winners":{"glob":..,"after":r}}
//                                 run the statements in order (with
//                                 {{winners}} replaced by the commit files
//                                 of versions > r, listed with glob() inside
//                                 the timed part); answer
//                                 {"ms":..,"hwm_kb":..,"rows":[...]} with the
//                                 rows of the last statement when fetch
//   {"op":"close"} / {"op":"exit"}
// Peak memory: /proc/self/clear_refs is reset to the current RSS before the
// statements run; VmHWM afterwards is the peak of this process during them.
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import readline from 'node:readline';

let instance = null;
let conn = null;

function resetPeak() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
	} catch {
		/* not permitted: VmHWM then covers the process lifetime */
	}
}

function peakKb() {
	const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
	return m ? Number(m[1]) : null;
}

function close() {
	if (conn) conn.closeSync();
	if (instance) instance.closeSync();
	conn = null;
	instance = null;
}

async function handle(cmd) {
	switch (cmd.op) {
	case 'open':
		close();
		instance = await DuckDBInstance.create(':memory:');
		conn = await instance.connect();
		return { ok: true };
	case 'run': {
		let reader = null;
		if (global.gc) global.gc();
		resetPeak();
		const t0 = process.hrtime.bigint();
		let sql = cmd.sql;
		if (cmd.winners) {
			// The winners' commit files: list the log, keep versions > read.
			const g = await conn.runAndReadAll(
				`SELECT file FROM glob('${cmd.winners.glob.replace(/'/g, "''")}') ORDER BY file`);
			const files = g.getRowObjectsJson().map((r) => r.file)
				.filter((f) => /(\d{20})\.json$/.test(f)
					&& Number(/(\d{20})\.json$/.exec(f)[1]) > cmd.winners.after);
			const list = `[${files.map((f) => `'${f.replace(/'/g, "''")}'`).join(', ')}]`;
			sql = sql.map((s) => s.replaceAll('{{winners}}', list));
		}
		for (const s of sql) reader = await conn.runAndReadAll(s);
		const ms = Number(process.hrtime.bigint() - t0) / 1e6;
		const out = { ms, hwm_kb: peakKb() };
		if (cmd.fetch && reader) out.rows = reader.getRowObjectsJson();
		return out;
	}
	case 'version': {
		const r = await conn.runAndReadAll(
			"SELECT version() AS version, current_setting('threads') AS threads");
		return r.getRowObjectsJson()[0];
	}
	case 'close':
		close();
		return { ok: true };
	case 'exit':
		close();
		process.exit(0);
	default:
		throw new Error(`unknown op ${cmd.op}`);
	}
}

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
	let answer;
	try {
		answer = await handle(JSON.parse(line));
	} catch (e) {
		answer = { error: String(e && e.message ? e.message : e) };
	}
	process.stdout.write(JSON.stringify(answer) + '\n');
}
close();
