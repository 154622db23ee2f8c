// bench/bench.mjs: the benchmark driver (run it through bench/run.sh).
//
// For every table of the two log families -- bench/gen.py's under
// bench/data (one template for every line) and bench/gen_variety.py's under
// bench/data-variety (the layouts of Spark, Databricks, delta-rs and other
// writers mixed line by line) -- it runs the workload three ways in the
// same run: deltacc (when the function exists in
// the connected database), the hand-written PostgreSQL peer (bench/peers/
// pg_*.sql: pg_read_file + jsonb in the same server) and the DuckDB peer
// (bench/peers/duck_*.sql through @duckdb/node-api in a child process).
// It first checks that they agree (same path sets / same conflict rows, and
// the generator's own answer), then times them interleaved (the order
// rotates every run), takes the median, and measures peak memory: the
// PostgreSQL backend's VmHWM (reset through /proc/<pid>/clear_refs before
// each run; needs root) and the DuckDB process's VmHWM.  The floor is the
// time to read the same log bytes from a warm page cache (1 MiB read()
// loop).  Results: bench/out/results.json and bench/results.md.
//
// Every session runs with the server's default settings (work_mem 4MB; the
// library is not preloaded unless run.sh is told to), except
// deltacc.max_log_file_bytes, raised so that W4's 1 GB commit may be read.
// W2 and W3 call deltacc.conflicts on its default path: no read_files (the
// function finds the files the loser read itself); W2 also times the call
// with read_files given, shown next to it.
//
// Environment: the libpq variables (PGHOST, PGPORT, PGUSER, PGDATABASE,
// PGPASSWORD) as pg_virtualenv sets them; BENCH_DATA / BENCH_DATA_VARIETY
// (the two families' directories; BENCH_FAMILIES=gen,variety says which to
// run); BENCH_RUNS (timed runs per
// workload and implementation, default 5; 3 for logs over 300 MB and W3);
// BENCH_ONLY (comma-separated workload ids, e.g. W1,W2-10000 for both
// families, W2-10000@variety for one); BENCH_W3_REPEAT
// (default 50); BENCH_W3_SIZE (the W2 table W3 repeats: adds per winner, 1000); BENCH_MACHINE (free text for the results header).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAMILIES = (process.env.BENCH_FAMILIES || 'gen,variety').split(',').filter(Boolean);
const DATA_DIRS = {
	gen: path.resolve(process.env.BENCH_DATA || path.join(HERE, 'data')),
	variety: path.resolve(process.env.BENCH_DATA_VARIETY || path.join(HERE, 'data-variety')),
};
const FAMILY_TITLE = { gen: 'gen.py', variety: 'variety' };
const OUT = path.join(HERE, 'out');
const PEERS = path.join(HERE, 'peers');
// A smoke run (BENCH_QUICK) or a partial one (BENCH_ONLY) keeps its results
// apart from the real ones (bench/out/results-quick.md / -partial.md).
// BENCH_MERGE=1 with BENCH_ONLY instead replaces those workloads' rows in
// bench/out/results.json and rewrites bench/results.md from it (a re-run of
// some workloads after a change; each row records the commit it measured).
const MERGE = process.env.BENCH_MERGE === '1' && process.env.BENCH_QUICK !== '1' && !process.env.BENCH_SKIP;
const SUFFIX = process.env.BENCH_QUICK === '1' ? '-quick' :
	(process.env.BENCH_ONLY || process.env.BENCH_SKIP) && !MERGE ? '-partial' : '';
const RESULTS_MD = SUFFIX ? path.join(OUT, `results${SUFFIX}.md`) : path.join(HERE, 'results.md');
const W3_REPEAT = Number(process.env.BENCH_W3_REPEAT || 50);
const ONLY = new Set((process.env.BENCH_ONLY || '').split(',').filter(Boolean));
// BENCH_SKIP=pg (comma-separated: pg, duck, dcrf): leave those out, for a
// quick look while developing; a run that skips one writes -partial results.
const SKIP = new Set((process.env.BENCH_SKIP || '').split(',').filter(Boolean));
// Settings of every PostgreSQL session (deltacc and the SQL peer alike):
// the server's defaults (work_mem 4MB), except that deltacc may read W4's
// 1 GB commit file (its default limit, deltacc.max_log_file_bytes, is
// 512 MB).  (Set through a DO block: a build without that GUC must not
// fail.)
const SESSION_SQL = `DO $$ BEGIN PERFORM set_config('deltacc.max_log_file_bytes', '2000MB', false);
	EXCEPTION WHEN OTHERS THEN NULL; END $$`;

const peer = (f) => fs.readFileSync(path.join(PEERS, f), 'utf8');
const PG_W1_SETUP = peer('pg_w1_setup.sql');
const PG_W1 = peer('pg_w1_load.sql');
const PG_W2 = peer('pg_w2_conflicts.sql');
const PG_W4 = peer('pg_w4_snapshot.sql');
const DUCK_COLUMNS = peer('duck_columns.txt').trim();
const DUCK_W1 = peer('duck_w1_load.sql');
const DUCK_W2 = peer('duck_w2_conflicts.sql');
const DUCK_W4 = peer('duck_w4_snapshot.sql');
const DUCK_W4C = peer('duck_w4c_snapshot.sql');

const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;
const stripComments = (sql) => sql.replace(/^--.*$/gm, '').trim();
const splitSql = (sql) => stripComments(sql).split(/;\s*\n/).map((s) => s.trim().replace(/;$/, ''))
	.filter(Boolean);
function duckSql(template, vars) {
	let s = stripComments(template).replaceAll('{{columns}}', DUCK_COLUMNS);
	for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{{${k}}}`, v);
	return s;
}
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/* ------------------------------------------------------------------ */
/* PostgreSQL sessions                                                 */

function procPeakKb(pid) {
	try {
		const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) : null;
	} catch {
		return null;
	}
}

function procResetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

async function pgSession() {
	const c = new pg.Client();
	// A backend that dies (crash) fails the pending query; do not let the
	// client's 'error' event end the driver.
	c.on('error', (e) => console.log(`   (connection lost: ${e.message})`));
	await c.connect();
	await c.query(SESSION_SQL);
	const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
	return { c, pid };
}

// Run `body(client)` in a fresh backend; time it and take the backend's peak
// RSS during it.
async function pgTimed(body) {
	const { c, pid } = await pgSession();
	try {
		const reset = procResetPeak(pid);
		const t0 = process.hrtime.bigint();
		const result = await body(c);
		const ms = Number(process.hrtime.bigint() - t0) / 1e6;
		return { ms, hwm_kb: reset ? procPeakKb(pid) : null, result };
	} finally {
		await c.end();
	}
}

/* ------------------------------------------------------------------ */
/* DuckDB child process                                                */

class Duck {
	constructor() {
		this.p = spawn(process.execPath, ['--expose-gc', path.join(HERE, 'duck_worker.mjs')], {
			cwd: HERE, stdio: ['pipe', 'pipe', 'inherit'],
		});
		this.rl = readline.createInterface({ input: this.p.stdout });
		this.waiting = [];
		this.rl.on('line', (l) => this.waiting.shift()(JSON.parse(l)));
	}

	call(cmd) {
		return new Promise((resolve, reject) => {
			this.waiting.push((a) => (a.error ? reject(new Error(`duckdb: ${a.error}`)) : resolve(a)));
			this.p.stdin.write(JSON.stringify(cmd) + '\n');
		});
	}

	async exit() {
		this.p.stdin.write('{"op":"exit"}\n');
		await new Promise((r) => this.p.on('exit', r));
	}
}

/* ------------------------------------------------------------------ */
/* The floor: read the same bytes from a warm page cache               */

function readFloor(files) {
	const buf = Buffer.allocUnsafe(1 << 20);
	let bytes = 0;
	const t0 = process.hrtime.bigint();
	for (const f of files) {
		const fd = fs.openSync(f, 'r');
		let n;
		while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) bytes += n;
		fs.closeSync(fd);
	}
	return { ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes };
}

function logFiles(table, after = -1) {
	const dir = path.join(table, '_delta_log');
	return fs.readdirSync(dir).filter((f) => /^\d{20}\.json$/.test(f))
		.filter((f) => Number(f.slice(0, 20)) > after).sort().map((f) => path.join(dir, f));
}

/* ------------------------------------------------------------------ */
/* Workloads                                                           */

async function deltaccHas(signature) {
	const { c } = await pgSession();
	try {
		return (await c.query('SELECT to_regprocedure($1) IS NOT NULL AS ok', [signature])).rows[0].ok;
	} finally {
		await c.end();
	}
}

const W1_FINGERPRINT_PG = (files, commits) => `
	SELECT (SELECT count(*) FROM ${files}) AS file_actions,
		   (SELECT count(*) FROM ${files} WHERE action = 'add') AS adds,
		   (SELECT count(*) FROM ${files} WHERE action = 'remove') AS removes,
		   (SELECT md5(string_agg(concat_ws(' ', version, action, path), E'\\n'
				ORDER BY version, action, path COLLATE "C")) FROM ${files}) AS files_md5,
		   (SELECT sum(size) FROM ${files}) AS size_sum,
		   (SELECT sum(num_records) FROM ${files}) AS records_sum,
		   (SELECT count(*) FROM ${commits}) AS commits,
		   (SELECT md5(string_agg(concat_ws(' ', version, operation, CASE WHEN is_blind_append THEN 'blind' END), E'\\n'
				ORDER BY version)) FROM ${commits}) AS commits_md5`;
const W1_FINGERPRINT_DUCK = `
	SELECT (SELECT count(*) FROM peer_files) AS file_actions,
		   (SELECT count(*) FROM peer_files WHERE action = 'add') AS adds,
		   (SELECT count(*) FROM peer_files WHERE action = 'remove') AS removes,
		   (SELECT md5(string_agg(concat_ws(' ', version, action, path), chr(10)
				ORDER BY version, action, path)) FROM peer_files) AS files_md5,
		   (SELECT sum(size) FROM peer_files) AS size_sum,
		   (SELECT sum(num_records) FROM peer_files) AS records_sum,
		   (SELECT count(*) FROM peer_commits) AS commits,
		   (SELECT md5(string_agg(concat_ws(' ', version, operation, CASE WHEN is_blind_append THEN 'blind' END), chr(10)
				ORDER BY version)) FROM peer_commits) AS commits_md5`;
const W4_FINGERPRINT = (q, nl, coll) => `
	SELECT count(*) AS files, md5(string_agg(path, ${nl} ORDER BY path${coll})) AS paths_md5,
		   sum(size) AS size_sum, sum(num_records) AS records_sum
	FROM (${q}) s`;

const norm = (o) => JSON.stringify(Object.fromEntries(Object.entries(o)
	.map(([k, v]) => [k, v === null ? null : String(v).replace(/\.0+$/, '')])));
const conflictRows = (rows) => rows.map((r) =>
	`${r.winning_version ?? r.version}|${r.conflict}|${r.path ?? ''}`);

// The added-file conflicts [[version, path], ...] of table t in the order
// docs/conflicts.md documents: by winner version; inside one, the file
// Delta's ConflictChecker names (the first conflicting add of the winning
// commit, in its line order), then the others in path (byte) order.
function deltaRowOrder(t, pairs) {
	const byVersion = new Map();
	for (const [v, p] of pairs) {
		if (!byVersion.has(v)) byVersion.set(v, new Set());
		byVersion.get(v).add(p);
	}
	const out = [];
	for (const v of [...byVersion.keys()].sort((a, b) => a - b)) {
		const want = byVersion.get(v);
		const log = path.join(t, '_delta_log', `${String(v).padStart(20, '0')}.json`);
		let pick = null;
		for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
			if (!line.trim()) continue;
			const a = JSON.parse(line);
			if (a.add && want.has(a.add.path)) { pick = a.add.path; break; }
		}
		const rest = [...want].filter((p) => p !== pick)
			.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
		for (const p of pick === null ? rest : [pick, ...rest])
			out.push(`${v}|ConcurrentAppendException|${p}`);
	}
	return out;
}

// The generator's answer, compared with what an implementation computed:
// every key the manifest's oracle holds must be equal (the counts always;
// the md5s and sums where the generator computed them).
const oracleMatches = (v, oracle) => {
	const got = typeof v === 'string' ? JSON.parse(v) : v;
	return Object.entries(oracle).every(([k, x]) => String(got[k]) === String(x));
};

// Each workload: implementations with a check() (untimed, returns a
// comparable value) and a run() (timed).  `pg` bodies get a client.
// Ids: the workload's (W1, W2-1000, W3, W4-100000-ckpt, ...), with
// "@variety" for the second family.
function buildWorkloads(manifests) {
	const list = [];
	for (const m of manifests) {
		const t = m.dir;
		const family = m.family || 'gen';
		const tag = family === 'gen' ? '' : `@${family}`;
		const fam = { family, tag };
		if (m.workload === 'W1') {
			const files = logFiles(t);
			list.push({
				...fam, kind: 'W1', id: `W1${tag}`, title: `W1 load_log, ${m.commits} commits, ${m.actions.add} adds`,
				size: m.actions.add, files, fn: 'deltacc.load_log(text,bigint,bigint)',
				oracle: { file_actions: m.file_actions, adds: m.actions.add, removes: m.actions.remove,
					commits: m.commits, ...(m.fingerprint || {}) },
				deltacc: {
					run: (c) => c.query('SELECT deltacc.load_log($1) AS n', [t]),
					check: async (c) => {
						await c.query('SELECT deltacc.load_log($1)', [t]);
						return norm((await c.query(W1_FINGERPRINT_PG(
							`(SELECT * FROM pg_temp.delta_files WHERE table_path = ${lit(t)}) f`,
							`(SELECT * FROM pg_temp.delta_commits WHERE table_path = ${lit(t)}) c`))).rows[0]);
					},
				},
				pg: {
					run: async (c) => { await c.query(PG_W1_SETUP); return c.query(PG_W1, [t]); },
					check: async (c) => {
						await c.query(PG_W1_SETUP);
						await c.query(PG_W1, [t]);
						return norm((await c.query(W1_FINGERPRINT_PG('peer_files f', 'peer_commits c'))).rows[0]);
					},
				},
				duck: {
					sql: splitSql(duckSql(DUCK_W1, { log: lit(path.join(t, '_delta_log', '*.json')) })),
					fingerprint: W1_FINGERPRINT_DUCK,
				},
				compare: oracleMatches,
			});
		} else if (m.workload === 'W2') {
			const actions = fs.readFileSync(path.join(t, 'loser_actions.json'), 'utf8');
			const lo = m.ranges.map((r) => String(r[0]));
			const hi = m.ranges.map((r) => String(r[1]));
			const expected = m.expected.map(([v, p]) => `${v}|ConcurrentAppendException|${p}`);
			const documentedOrder = deltaRowOrder(t, m.expected);
			// The default path: no read_files (deltacc finds the files the
			// loser read from the read version's snapshot and the
			// predicates).  dcallRf: the same call with read_files given.
			const dcall = (c) => c.query(`SELECT winning_version, conflict, path
				FROM deltacc.conflicts($1, $2, $3::text[], $4::jsonb, mode => 'stats')`,
			[t, m.read_version, m.predicates, actions]);
			const dcallRf = (c) => c.query(`SELECT winning_version, conflict, path
				FROM deltacc.conflicts($1, $2, $3::text[], $4::jsonb, read_files => $5::text[],
									   mode => 'stats')`,
			[t, m.read_version, m.predicates, actions, m.read_files]);
			const pcall = (c) => c.query(PG_W2, [t, m.read_version, lo, hi, m.read_files]);
			const dsql = splitSql(duckSql(DUCK_W2, {
				ranges: `[${m.ranges.map((r) => `[${r[0]}, ${r[1]}]`).join(', ')}]`,
				read_files: `[${m.read_files.map(lit).join(', ')}]::VARCHAR[]`,
			}));
			const winners = { glob: path.join(t, '_delta_log', '*.json'), after: m.read_version };
			const files = logFiles(t, m.read_version);
			const base = {
				...fam, size: m.winner_adds, files,
				fn: 'deltacc.conflicts(text,bigint,text[],jsonb,text,boolean,text[],text[],bigint,text)',
				// The same conflict rows (as a multiset); whether they also come
				// in the documented order (docs/conflicts.md: version, check,
				// then inside one the file Delta names first, then the others
				// in path order) is reported apart, as "order".
				oracle: expected,
				compare: (v, oracle) => JSON.stringify([...v].sort()) === JSON.stringify([...oracle].sort()),
				ordered: (v) => JSON.stringify(v) === JSON.stringify(documentedOrder),
			};
			// The fixed cost of one such call: the same parameters sent to a
			// statement that does nothing with them (protocol, parse, the
			// jsonb input), and the first deltacc call of a fresh backend
			// (library load, catalog lookups) on top of it.
			const nop = (c) => c.query(`SELECT count(*) FROM (SELECT $1::text, $2::bigint, $3::text[],
				$4::jsonb) s`, [t, m.read_version, m.predicates, actions]);
			const first = async (c) => { await c.query('SELECT count(*) FROM deltacc.commit_cache_stats()'); return nop(c); };
			list.push({
				...base, kind: 'W2', id: `W2-${m.winner_adds}${tag}`,
				title: `W2 conflicts (stats), ${m.winners} winners x ${m.per_winner} adds`,
				deltacc: { run: dcall, check: async (c) => conflictRows((await dcall(c)).rows) },
				dcrf: { run: dcallRf, check: async (c) => conflictRows((await dcallRf(c)).rows) },
				pg: { run: pcall, check: async (c) => conflictRows((await pcall(c)).rows) },
				duck: { sql: dsql, winners, rows: true },
				call_floor: first,
			});
			if (m.per_winner === Number(process.env.BENCH_W3_SIZE || 1000)) {
				const rep = async (c, f) => { let r; for (let i = 0; i < W3_REPEAT; i++) r = await f(c); return r; };
				list.push({
					...base, kind: 'W3', id: `W3${tag}`, repeat: W3_REPEAT,
					title: `W3 the W2 check (${m.winner_adds} winner adds) x ${W3_REPEAT} in one session`,
					deltacc: { run: (c) => rep(c, dcall), check: async (c) => conflictRows((await rep(c, dcall)).rows) },
					pg: { run: (c) => rep(c, pcall), check: async (c) => conflictRows((await pcall(c)).rows) },
					duck: { sql: dsql, winners, rows: true, repeat: W3_REPEAT },
					call_floor: async (c) => { await first(c); for (let i = 1; i < W3_REPEAT; i++) await nop(c); },
				});
			}
		} else if (m.workload === 'W4') {
			// From one JSON commit (w4_<n>) or from a Parquet checkpoint
			// (w4c_<n>, bench/gen_checkpoint.mjs: no PostgreSQL peer, as
			// PostgreSQL has no Parquet reader).  Timed: count(*) over the
			// function, as a user counting the files writes it.
			const ckpt = m.checkpoint ? path.join(t, '_delta_log', m.checkpoint) : null;
			const files = ckpt ? [ckpt] : logFiles(t);
			const dq = `SELECT * FROM deltacc.snapshot_files(${lit(t)})`;
			const pq = stripComments(PG_W4).replaceAll('$1', lit(t));
			const uq = ckpt ? duckSql(DUCK_W4C, { checkpoint: lit(ckpt) })
				: duckSql(DUCK_W4, { log: lit(path.join(t, '_delta_log', '*.json')) });
			list.push({
				...fam, kind: 'W4', id: `W4-${m.active_files}${ckpt ? '-ckpt' : ''}${tag}`,
				title: `W4 snapshot_files, ${m.active_files} files in ${ckpt ? 'a Parquet checkpoint' : 'one JSON commit'}`,
				size: m.active_files, files, fn: 'deltacc.snapshot_files(text,bigint)',
				oracle: { files: m.active_files, ...(m.fingerprint || {}) },
				deltacc: {
					run: (c) => c.query(`SELECT count(*) FROM deltacc.snapshot_files(${lit(t)})`),
					check: async (c) => norm((await c.query(W4_FINGERPRINT(dq, "E'\\n'", ' COLLATE "C"'))).rows[0]),
				},
				pg: ckpt ? null : {
					run: (c) => c.query(`SELECT count(*) FROM (${pq}) s`),
					check: async (c) => norm((await c.query(W4_FINGERPRINT(pq, "E'\\n'", ' COLLATE "C"'))).rows[0]),
				},
				duck: {
					sql: [`SELECT count(*) FROM (${uq}) s`],
					fingerprint: W4_FINGERPRINT(uq, 'chr(10)', ''),
				},
				compare: oracleMatches,
				// What PostgreSQL alone costs to hand out these rows from a
				// set-returning function: the same rows, kept in a table,
				// returned by a SQL function over it and counted as deltacc's
				// are; and the scan of that table alone.  The difference is
				// the function's share: the tuplestore every set-returning
				// function in FROM fills and the executor reads back, which
				// only a plan without the function scan (a planner hook
				// putting a custom scan in its place) would not pay.
				// VOLATILE: a STABLE SQL function would be inlined into the
				// plain scan.
				rows_floor: {
					setup: async (c) => {
						await c.query(`DROP TABLE IF EXISTS bench_w4_rows CASCADE;
							CREATE UNLOGGED TABLE bench_w4_rows AS ${dq};
							CREATE FUNCTION bench_w4_rows() RETURNS SETOF bench_w4_rows
								LANGUAGE sql VOLATILE AS 'SELECT * FROM bench_w4_rows'`);
						await c.query('VACUUM ANALYZE bench_w4_rows');
					},
					run: (c) => c.query('SELECT count(*) FROM bench_w4_rows()'),
					scan: (c) => c.query('SELECT count(*) FROM bench_w4_rows'),
					teardown: (c) => c.query('DROP TABLE bench_w4_rows CASCADE'),
				},
			});
		}
	}
	return list.filter((w) => !ONLY.size || ONLY.has(w.id) || ONLY.has(w.id.replace(/@.*$/, '')));
}

/* ------------------------------------------------------------------ */
/* Running one workload                                                */

async function duckRun(duck, w, { check }) {
	const d = w.duck;
	const sql = [...d.sql];
	const repeat = check ? 1 : (d.repeat || 1);
	await duck.call({ op: 'open' });
	const cmd = { op: 'run', sql: [], fetch: Boolean(check && d.rows), winners: d.winners };
	for (let i = 0; i < repeat; i++) cmd.sql.push(...sql);
	const r = await duck.call(cmd);
	let value = null;
	if (check) {
		if (d.rows) value = conflictRows(r.rows);
		else value = norm((await duck.call({ op: 'run', sql: [d.fingerprint], fetch: true })).rows[0]);
	}
	await duck.call({ op: 'close' });
	return { ms: r.ms, hwm_kb: r.hwm_kb, value };
}

async function runWorkload(w, duck, haveDeltacc) {
	// dcrf: deltacc with read_files given (W2 only), shown beside deltacc.
	const impls = ['deltacc', 'dcrf', 'pg', 'duck']
		.filter((i) => w[i] && ((i !== 'deltacc' && i !== 'dcrf') || haveDeltacc))
		.filter((i) => !SKIP.has(i));
	const res = { id: w.id, kind: w.kind, family: w.family, title: w.title, size: w.size,
		repeat: w.repeat || 1, impls: {}, agree: true };
	const bytes = w.files.reduce((s, f) => s + fs.statSync(f).size, 0);
	res.bytes = bytes;
	const runs = Number(process.env.BENCH_RUNS || (bytes > 300e6 || w.repeat > 1 ? 3 : 5));
	console.log(`\n== ${w.id}: ${w.title} (${(bytes / 1e6).toFixed(1)} MB of log, ${runs} runs)`);

	// 1. Agreement (untimed; also warms the page cache).
	for (const i of impls) {
		const r = { times: [], peaks: [] };
		res.impls[i] = r;
		try {
			if (i === 'duck') r.value = (await duckRun(duck, w, { check: true })).value;
			else {
				const { c } = await pgSession();
				try { r.value = await w[i].check(c); } finally { await c.end(); }
			}
		} catch (e) {
			r.error = String(e.message || e).split('\n')[0];
			console.log(`   ${i}: ERROR ${r.error}`);
		}
	}
	const ok = impls.filter((i) => !res.impls[i].error);
	const canon = (v) => JSON.stringify(Array.isArray(v) ? [...v].sort() : v);
	const ref = ok.length ? canon(res.impls[ok[0]].value) : null;
	res.unordered = [];
	for (const i of ok) {
		const same = canon(res.impls[i].value) === ref;
		if (w.ordered && !w.ordered(res.impls[i].value, w.oracle)) {
			res.unordered.push(i);
			console.log(`   ORDER ${i}: the same rows, not in the documented order: ${JSON.stringify(res.impls[i].value).slice(0, 400)}`);
		}
		const oracle = w.compare(typeof res.impls[i].value === 'string' ? res.impls[i].value : res.impls[i].value, w.oracle);
		res.impls[i].agrees = same && oracle;
		if (!same || !oracle) {
			res.agree = false;
			console.log(`   DISAGREE ${i}: ${JSON.stringify(res.impls[i].value).slice(0, 400)}`);
		}
	}
	// An implementation that fails (e.g. a feature deltacc does not have yet)
	// is reported in the table; only answers that differ count as
	// disagreement.
	res.errors = impls.filter((i) => res.impls[i].error);
	console.log(`   agreement: ${res.agree ? 'all that ran agree' : 'NO'} (${ok.length} of ${impls.length} ran; answer ${String(ref).slice(0, 160)})`);

	// 1b. What each fast path took (deltacc.fastpath_stats, the backend's
	// counters): on the timed statement, and on the agreement check (for W4
	// every column of every file), each in a fresh backend; untimed.
	if (haveDeltacc && w.deltacc && !res.impls.deltacc?.error) {
		for (const [key, body] of [['fastpath', w.deltacc.run], ['fastpath_check', w.deltacc.check]]) {
			const { c } = await pgSession();
			try {
				await body(c);
				res[key] = (await c.query('SELECT * FROM deltacc.fastpath_stats()')).rows
					.map((x) => ({ fast_path: x.fast_path, hits: Number(x.hits), misses: Number(x.misses),
						to: x.misses_go_to }));
			} catch (e) {
				/* a build without deltacc.fastpath_stats */
			} finally {
				await c.end();
			}
		}
		if (res.fastpath)
			console.log(`   fast paths: ${fastpathLine(res.fastpath)}`);
	}

	if (w.rows_floor && haveDeltacc) {
		const { c } = await pgSession();
		try { await w.rows_floor.setup(c); } finally { await c.end(); }
	}

	// 2. Timed runs, interleaved, order rotating.
	for (let run = 0; run < runs; run++) {
		const order = ok.map((_, k) => ok[(k + run) % ok.length]);
		for (const i of order) {
			let t;
			try {
				if (i === 'duck') t = await duckRun(duck, w, { check: false });
				else t = await pgTimed(w[i].run);
			} catch (e) {
				res.impls[i].error = String(e.message || e).split('\n')[0];
				continue;
			}
			res.impls[i].times.push(t.ms);
			if (t.hwm_kb) res.impls[i].peaks.push(t.hwm_kb);
		}
		const f = readFloor(w.files);
		(res.floor ??= []).push(f.ms);
		if (w.call_floor && haveDeltacc)
			(res.call_floor ??= []).push((await pgTimed(w.call_floor)).ms);
		if (w.rows_floor && haveDeltacc) {
			(res.rows_floor ??= []).push((await pgTimed(w.rows_floor.run)).ms);
			(res.rows_scan ??= []).push((await pgTimed(w.rows_floor.scan)).ms);
		}
	}
	if (w.rows_floor && haveDeltacc) {
		const { c } = await pgSession();
		try { await w.rows_floor.teardown(c); } finally { await c.end(); }
	}
	for (const i of ok) {
		const r = res.impls[i];
		r.median_ms = r.times.length ? median(r.times) : null;
		r.peak_kb = r.peaks.length ? Math.max(...r.peaks) : null;
		console.log(`   ${i.padEnd(8)} median ${r.median_ms?.toFixed(1)} ms  runs [${r.times.map((x) => x.toFixed(0)).join(', ')}]  peak ${r.peak_kb ? (r.peak_kb / 1024).toFixed(0) + ' MB' : 'n/a'}`);
	}
	res.floor_ms = median(res.floor);
	console.log(`   floor    median ${res.floor_ms.toFixed(1)} ms (${(bytes / 1e6 / (res.floor_ms / 1000)).toFixed(0)} MB/s)`);
	if (res.call_floor) {
		res.call_floor_ms = median(res.call_floor);
		console.log(`   calls    median ${res.call_floor_ms.toFixed(2)} ms (the same parameters to a statement that ignores them, in a fresh backend after a first deltacc call)`);
	}
	if (res.rows_floor) {
		res.rows_floor_ms = median(res.rows_floor);
		res.rows_scan_ms = median(res.rows_scan);
		console.log(`   rows out median ${res.rows_floor_ms.toFixed(1)} ms (the same rows from a table through a SQL set-returning function; ` +
			`the table scan alone ${res.rows_scan_ms.toFixed(1)} ms; the function's share ${((res.rows_floor_ms - res.rows_scan_ms) / res.floor_ms).toFixed(1)}x the floor)`);
	}
	return res;
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

// One fast path's counters: the share it took, and what it sent to the
// parse tree (a miss to another fast path is not counted there).
function fastpathCell(x) {
	const n = x.hits + x.misses;
	if (!n) return '-';
	const pct = (100 * x.hits / n);
	return `${pct >= 99.95 && x.misses ? '99.9' : pct.toFixed(pct < 99.95 ? 1 : 0)}%` +
		(x.to === 'parse tree' && x.misses ? ` (${x.misses} to tree)` : '');
}
const fastpathLine = (rows) => rows.map((x) => `${x.fast_path} ${fastpathCell(x)}`).join(', ');

// The targets of issue 20, on both families, default settings: the ratio
// to the faster peer in the same run.
const TARGETS = {
	W1: 'deltacc >= 2x faster than the faster peer',
	W2: 'deltacc >= 5x faster than the faster peer (no read_files)',
	W3: 'deltacc >= 50x faster than the faster peer',
	W4: 'deltacc >= 1x the faster peer, peak backend memory < 1 GB',
};

const kindOf = (r) => r.kind || r.id.split('-')[0].replace(/@.*$/, '');
const familyOf = (r) => r.family || 'gen';

// The faster peer's median / deltacc's median, or null.
function peerRatio(r) {
	const d = r.impls.deltacc;
	if (!d || d.median_ms == null) return null;
	const peers = ['pg', 'duck'].map((i) => r.impls[i]?.median_ms).filter((x) => x != null);
	return peers.length ? Math.min(...peers) / d.median_ms : null;
}

function targetMet(r) {
	const d = r.impls.deltacc;
	if (!d) return 'pending (deltacc not wired)';
	if (d.median_ms == null) return 'pending (deltacc fails)';
	const ratio = peerRatio(r);
	if (ratio == null) return 'no peer';
	const need = { W1: 2, W2: 5, W3: 50, W4: 1 }[kindOf(r)];
	const miss = [];
	if (ratio < need) miss.push(`${ratio.toFixed(ratio < 10 ? 2 : 1)}x < ${need}x`);
	if (kindOf(r) === 'W4' && d.peak_kb != null && d.peak_kb >= 1024 * 1024)
		miss.push(`peak ${(d.peak_kb / 1024).toFixed(0)} MB`);
	return miss.length ? `missed (${miss.join(', ')})` : 'met';
}

function fmtMs(ms, repeat) {
	if (ms == null) return 'n/a';
	const per = repeat > 1 ? ` (${(ms / repeat).toFixed(ms / repeat < 10 ? 2 : 1)}/check)` : '';
	return (ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`) + per;
}
const shortError = (e) => e.replace(/"\/[^"]*"/g, '<table>').replace(/\|/g, '/').slice(0, 70);
const fmtMb = (kb) => (kb == null ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);

const IMPL_TITLE = { deltacc: 'deltacc', dcrf: 'deltacc with read_files', pg: 'PG peer', duck: 'DuckDB peer' };

function agreeCell(r) {
	if (!r.agree) return 'NO';
	const notes = [];
	if (r.errors.length) notes.push(`${r.errors.map((i) => IMPL_TITLE[i]).join(', ')} failed`);
	if (r.unordered?.length)
		notes.push(`${r.unordered.map((i) => IMPL_TITLE[i]).join(', ')}: rows not in the documented order`);
	return notes.length ? `yes (${notes.join('; ')})` : 'yes';
}

function report(unsorted, machine) {
	const fams = ['gen', 'variety'];
	const rank = (r) => [kindOf(r), r.id.includes('-ckpt') ? 1 : 0, r.size, fams.indexOf(familyOf(r))];
	const results = [...unsorted].sort((a, b) => {
		const [x, y] = [rank(a), rank(b)];
		return x[0] !== y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] - y[1] || x[2] - y[2] || x[3] - y[3];
	});
	const lines = [];
	lines.push(`Machine: ${machine.cpus} x ${machine.cpu}, ${machine.mem_gb} GB RAM; ` +
		`PostgreSQL ${machine.pg}; DuckDB ${machine.duckdb} (${machine.duck_threads} threads) ` +
		`via @duckdb/node-api on node ${machine.node}; ${machine.date}.` +
		(machine.note ? ` ${machine.note}` : ''));
	const commits = [...new Set(results.map((r) => r.commit).filter(Boolean))];
	if (commits.length)
		lines.push('', `deltacc measured: release build of ${commits.length > 1 ? 'commits' : 'commit'} ` +
			`${commits.join(', ')}${commits.length > 1 ? ' (the "commit" column of bench/out/results.json says which row is which)' : ''}` +
			(machine.preload === true ? ', preloaded by the server (shared_preload_libraries), as docs/conflicts.md advises for a catalog.'
				: machine.preload === false ? ', not preloaded: each backend loads it on its first call.' : '.'));
	lines.push('', `Settings: the server's defaults for every session (work_mem ${machine.work_mem || '4MB'}` +
		`${machine.preload === true ? '' : ', no preload'}), except deltacc.max_log_file_bytes = 2000MB so that W4's ` +
		'1 GB commit may be read. W2 and W3 call deltacc.conflicts on its default path, without read_files ' +
		'(deltacc finds the files the loser read); W2\'s deltacc cell also gives the call with read_files given. ' +
		'W4 times `SELECT count(*) FROM deltacc.snapshot_files(t)` (the peers: count(*) over their query).');
	lines.push('', 'Log families: **gen.py** = bench/gen.py (every line from one template); ' +
		'**variety** = bench/gen_variety.py (the same table shapes and sizes written as Spark, Databricks, delta-rs and ' +
		'other writers write them, mixed line by line: key orders, missing statistics, escapes, tags, deletion vectors, ' +
		'a column added by schema evolution).');
	lines.push('');
	lines.push('| workload | family | deltacc | PG SQL peer | DuckDB peer | deltacc vs faster peer | floor (read bytes) | peak RSS deltacc / PG / DuckDB | agree | target |');
	lines.push('|---|---|---|---|---|---|---|---|---|---|');
	for (const r of results) {
		const d = r.impls.deltacc;
		const cell = (i) => {
			const x = r.impls[i];
			if (!x) return i === 'pg' ? 'n/a (no Parquet reader)' : 'n/a';
			if (x.error && x.median_ms == null) return `error: ${shortError(x.error)}`;
			const ratio = d?.median_ms ? ` (${(x.median_ms / d.median_ms).toFixed(1)}x)` : '';
			return fmtMs(x.median_ms, r.repeat) + ratio;
		};
		const rf = r.impls.dcrf;
		const rfcell = rf ? (rf.median_ms != null ? `; read_files given: ${fmtMs(rf.median_ms, r.repeat)}`
			: `; read_files given: error: ${shortError(rf.error || '')}`) : '';
		const dcell = d ? (d.median_ms != null ? fmtMs(d.median_ms, r.repeat) + rfcell
			: `error: ${shortError(d.error || '')}`) : 'not wired yet';
		const ratio = peerRatio(r);
		lines.push(`| ${r.title} | ${FAMILY_TITLE[familyOf(r)] || familyOf(r)} | ${dcell} | ${cell('pg')} | ${cell('duck')} | ` +
			`${ratio == null ? '-' : `${ratio.toFixed(ratio < 10 ? 2 : 1)}x`} | ` +
			`${fmtMs(r.floor_ms, 1)} (${(r.bytes / 1e6).toFixed(0)} MB)` +
			`${r.call_floor_ms != null ? `; calls ${fmtMs(r.call_floor_ms, r.repeat)}` : ''}` +
			`${r.rows_floor_ms != null ? `; rows out ${fmtMs(r.rows_floor_ms, 1)} (scan ${fmtMs(r.rows_scan_ms, 1)})` : ''} | ` +
			`${d ? fmtMb(d.peak_kb) : '-'} / ${fmtMb(r.impls.pg?.peak_kb)} / ${fmtMb(r.impls.duck?.peak_kb)} | ` +
			`${agreeCell(r)} | ${targetMet(r)} |`);
	}
	// The fast paths' hit rates, per workload and family.
	const fpNames = [...new Set(results.flatMap((r) => (r.fastpath || []).map((x) => x.fast_path)))];
	if (fpNames.length) {
		lines.push('');
		lines.push('Fast paths (deltacc.fastpath_stats in the backend after the timed statement; for W4 also after ' +
			'the agreement check, which reads every column of every file): the share of their inputs each took, and ' +
			'how many it sent to the parse tree (a miss a fast path hands to another is not one):');
		lines.push('');
		lines.push(`| workload | family | ${fpNames.join(' | ')} |`);
		lines.push(`|---|---|${fpNames.map(() => '---').join('|')}|`);
		for (const r of results) {
			for (const [key, note] of [['fastpath', ''], ['fastpath_check', ' (every column)']]) {
				if (!r[key] || (key === 'fastpath_check' && kindOf(r) !== 'W4')) continue;
				const by = Object.fromEntries(r[key].map((x) => [x.fast_path, x]));
				lines.push(`| ${r.title}${note} | ${FAMILY_TITLE[familyOf(r)] || familyOf(r)} | ` +
					`${fpNames.map((f) => (by[f] ? fastpathCell(by[f]) : '-')).join(' | ')} |`);
			}
		}
	}
	// Linear growth: time per 1,000 files at each size of W2 and W4.
	const groups = {};
	for (const r of results) {
		const k = kindOf(r) === 'W2' ? 'W2 (per 1,000 winner adds)'
			: kindOf(r) === 'W4' ? `W4 ${r.id.includes('-ckpt') ? 'checkpoint' : 'JSON'} (per 1,000 files)` : null;
		if (k) (groups[`${k}|${familyOf(r)}`] ??= []).push(r);
	}
	if (Object.keys(groups).length) {
		lines.push('');
		lines.push('Growth (ms per 1,000 files at each size; flat = linear):');
		lines.push('');
		lines.push('| workload | family | sizes | deltacc | PG SQL peer | DuckDB peer |');
		lines.push('|---|---|---|---|---|---|');
		for (const [key, rs] of Object.entries(groups)) {
			const [k, f] = key.split('|');
			const per = (i) => rs.map((r) => (r.impls[i]?.median_ms != null
				? (r.impls[i].median_ms / (r.size / 1000)).toFixed(2) : '-')).join(' / ');
			lines.push(`| ${k} | ${FAMILY_TITLE[f] || f} | ${rs.map((r) => r.size).join(' / ')} | ${per('deltacc')} | ${per('pg')} | ${per('duck')} |`);
		}
	}
	lines.push('');
	lines.push('Targets (issue 20, on both families): ' + Object.entries(TARGETS).map(([k, v]) => `${k} ${v}`).join('; ') + '.');
	lines.push('');
	lines.push('Times are medians of interleaved runs (fresh backend / fresh DuckDB database each run); ' +
		'(Nx) = peer time / deltacc time; "deltacc vs faster peer" = the faster peer\'s time / deltacc\'s. W3 shows the total for the repeated checks and the time per check. ' +
		'"agree": every implementation gave the generator\'s answer (W1 and W4: the counts, and for the variety family the md5s and sums of the files; W2 and W3: the same set of conflict rows) and the same as the others; ' +
		'an implementation whose conflict rows are not in the documented order (docs/conflicts.md: winner version, check, then inside one check the file Delta names first, the first conflicting add of the winning commit, then the others in path order) is named there. ' +
		'Peak RSS: VmHWM of the PostgreSQL backend / the DuckDB process (node + DuckDB: about 90 MB when idle), reset before each run. ' +
		'The floor reads the same commit files from the warm page cache with a 1 MiB read() loop; ' +
		'for W2 and W3, "calls" is the fixed cost of the calls alone, timed like deltacc in a fresh backend: ' +
		'a first deltacc call (catalog lookups; the library load too when not preloaded) and then the same parameters sent to a statement that ignores them (client, protocol, parse, jsonb input), once for W2, 50 times for W3. ' +
		'For W4, "rows out" is what PostgreSQL alone takes to hand out the same rows from a set-returning function, timed like deltacc in a fresh backend: ' +
		'the rows kept in an unlogged table, returned by a (not inlined) SQL function over it and counted the same way, and in brackets the scan of that table alone; ' +
		'the difference is the set-returning function\'s own cost (the tuplestore PostgreSQL fills and reads back), which every set-returning function in FROM pays.');
	return lines.join('\n');
}

/* ------------------------------------------------------------------ */

function readManifests(family) {
	const dir = DATA_DIRS[family];
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir).sort((a, b) => {
		const k = (s) => [s.split('_')[0], Number(s.split('_')[1] || 0)];
		const [x, y] = [k(a), k(b)];
		return x[0] === y[0] ? x[1] - y[1] : x[0] < y[0] ? -1 : 1;
	}).filter((d) => fs.existsSync(path.join(dir, d, 'bench.json')))
		.map((d) => ({ family, ...JSON.parse(fs.readFileSync(path.join(dir, d, 'bench.json'), 'utf8')),
			dir: path.join(dir, d) }));
}

async function main() {
	const manifests = FAMILIES.flatMap(readManifests);
	if (!manifests.length)
		throw new Error(`no generated tables under ${FAMILIES.map((f) => DATA_DIRS[f]).join(', ')}: run bench/gen.py and bench/gen_variety.py`);
	const workloads = buildWorkloads(manifests);
	const duck = new Duck();
	await duck.call({ op: 'open' });
	const dv = await duck.call({ op: 'version' });
	const { c } = await pgSession();
	const pgv = (await c.query('SHOW server_version')).rows[0].server_version;
	const preload = /deltacc/.test((await c.query('SHOW shared_preload_libraries')).rows[0].shared_preload_libraries);
	const workMem = (await c.query('SHOW work_mem')).rows[0].work_mem;
	await c.end();
	const machine = {
		cpus: os.cpus().length, cpu: os.cpus()[0].model.trim(),
		mem_gb: (os.totalmem() / 2 ** 30).toFixed(0), pg: pgv, duckdb: dv.version,
		duck_threads: dv.threads, node: process.version, date: new Date().toISOString().slice(0, 10),
		note: process.env.BENCH_MACHINE || '',
		preload, work_mem: workMem,
	};
	const results = [];
	for (const w of workloads) {
		const have = await deltaccHas(w.fn);
		if (!have) console.log(`\n(${w.fn} is not in the database: deltacc column pending)`);
		const r = await runWorkload(w, duck, have);
		r.commit = process.env.BENCH_COMMIT || '';
		results.push(r);
	}
	await duck.exit();
	fs.mkdirSync(OUT, { recursive: true });
	if (MERGE) {
		const prev = path.join(OUT, 'results.json');
		const old = fs.existsSync(prev) ? JSON.parse(fs.readFileSync(prev, 'utf8')).results : [];
		const ids = new Set(results.map((r) => r.id));
		results.unshift(...old.filter((r) => !ids.has(r.id)));
	}
	fs.writeFileSync(path.join(OUT, `results${SUFFIX}.json`), JSON.stringify({ machine, results }, null, 1));
	const md = report(results, machine);
	fs.writeFileSync(RESULTS_MD, `# deltacc benchmark results\n\n${md}\n`);
	console.log(`\n${md}`);
	if (!results.every((r) => r.agree)) {
		console.log('\nbench: the implementations DISAGREE on some workload (see above)');
		process.exitCode = 1;
	}
}

if (process.argv[2] === '--report') {
	// Rewrite bench/results.md from bench/out/results.json (no run).
	const { machine, results } = JSON.parse(fs.readFileSync(path.join(OUT, `results${SUFFIX}.json`), 'utf8'));
	const md = report(results, machine);
	fs.writeFileSync(RESULTS_MD, `# deltacc benchmark results\n\n${md}\n`);
	console.log(md);
} else {
	await main();
}
