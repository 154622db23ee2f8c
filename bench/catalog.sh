#!/usr/bin/env bash
# bench/catalog.sh: the commit coordinator under 8 concurrent committers, in
# one command (as root, from a clone, after scripts/setup.sh installed the
# extension):
#
#     bash bench/catalog.sh            (BENCH_SECONDS=N per configuration)
#
# A throwaway cluster (pg_virtualenv) gets, per configuration, a fresh Delta
# table of 8 key slots (slot s: one file of ids s*1000 .. s*1000+999, with
# statistics) registered in the catalog.  Each pgbench transaction is one
# UPDATE of a slot through deltacc.commit: read the latest version, remove
# the slot's current file, add its replacement with statistics, read
# predicate "id BETWEEN lo AND hi" of the slot.  A 40001 is caught by the
# wrapper and counted as an abort (transactions - ratified commits).
#   disjoint: client k updates slot k;  hot: every client updates slot 0 or 1.
#   floor: the same row lock (SELECT ... FOR UPDATE of one row) and the same
#   bytes inserted (the commit's actions as text) without any check.
# deltacc.max_unpublished_versions is raised above the run's commit count
# (nothing is published during the run).  After each deltacc configuration
# bench/catalog_oracle.py re-checks every ratified commit against the
# commits it raced with, without deltacc's checker.
# Results: bench/catalog-results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

if [ -z "${DELTACC_BENCH_INSIDE:-}" ]; then
	export DELTACC_BENCH_INSIDE=1
	exec pg_virtualenv -t -v "${PG_MAJOR:-15}" bash "$ROOT/bench/catalog.sh" "$@"
fi

SECONDS_PER=${BENCH_SECONDS:-20}
CLIENTS=8
WORK=$(mktemp -d /tmp/deltacc-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 777 "$WORK"
OUT=$ROOT/bench/catalog-results.md

q() { psql -X -q -At -v ON_ERROR_STOP=1 -c "$1"; }

q "CREATE EXTENSION deltacc" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -c "LOAD 'deltacc'" -c "ALTER SYSTEM SET deltacc.max_unpublished_versions = 1000000" >/dev/null
q "SELECT pg_reload_conf()" >/dev/null

psql -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE TABLE bench_slot (tbl text, slot int, path text, gen int,
                         PRIMARY KEY (tbl, slot));
CREATE TABLE floor_head (id int PRIMARY KEY, latest bigint);
CREATE TABLE floor_log (version bigint, content text);
INSERT INTO floor_head VALUES (1, 0);

-- the actions of an UPDATE of slot s: remove its current file, add the next
CREATE FUNCTION bench_actions(t text, s int, read_version bigint,
                              OUT actions jsonb, OUT next_path text)
LANGUAGE plpgsql AS $$
DECLARE
	cur bench_slot;
	lo int := s * 1000;
	hi int := s * 1000 + 999;
BEGIN
	SELECT * INTO cur FROM bench_slot WHERE tbl = t AND slot = s;
	next_path := format('s%s-%s.parquet', s, gen_random_uuid());
	actions := jsonb_build_array(
		jsonb_build_object('commitInfo', jsonb_build_object(
			'operation', 'UPDATE', 'txnId', gen_random_uuid()::text,
			'readVersion', read_version, 'isBlindAppend', false,
			'operationParameters', jsonb_build_object(
				'predicate', format('id BETWEEN %s AND %s', lo, hi)))),
		jsonb_build_object('remove', jsonb_build_object(
			'path', cur.path, 'dataChange', true)),
		jsonb_build_object('add', jsonb_build_object(
			'path', next_path, 'partitionValues', '{}'::jsonb, 'size', 1000,
			'modificationTime', 1700000000000, 'dataChange', true,
			'stats', format('{"numRecords":1000,"minValues":{"id":%s},"maxValues":{"id":%s},"nullCount":{"id":0}}', lo, hi))));
END $$;

-- one UPDATE through the catalog; false when it aborted with 40001
CREATE FUNCTION bench_update(t text, s int, m text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	rv bigint := deltacc.latest_version(t);
	a record;
BEGIN
	a := bench_actions(t, s, rv);
	BEGIN
		PERFORM deltacc.commit(t, rv, a.actions,
			ARRAY[format('id BETWEEN %s AND %s', s * 1000, s * 1000 + 999)],
			mode => m);
	EXCEPTION WHEN serialization_failure THEN
		RETURN false;
	END;
	UPDATE bench_slot SET path = a.next_path WHERE tbl = t AND slot = s;
	RETURN true;
END $$;

-- the floor: the same row lock and the same bytes, no check
CREATE FUNCTION bench_floor(t text, s int) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	v bigint;
	a record;
BEGIN
	a := bench_actions(t, s, 0);
	SELECT latest INTO v FROM floor_head WHERE id = 1 FOR UPDATE;
	INSERT INTO floor_log VALUES (v + 1, a.actions::text);
	UPDATE floor_head SET latest = v + 1 WHERE id = 1;
	RETURN true;
END $$;
SQL

# make_table <dir>: version 0 with 8 slots
make_table() {
	python3 - "$1" <<'EOF'
import json, os, sys
d = os.path.join(sys.argv[1], "_delta_log")
os.makedirs(os.path.join(d, "_staged_commits"))
schema = json.dumps({"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}}]})
acts = [{"commitInfo": {"operation": "WRITE", "txnId": "init", "isBlindAppend": True}},
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
        {"metaData": {"id": "bench", "format": {"provider": "parquet", "options": {}},
                      "schemaString": schema, "partitionColumns": [],
                      "configuration": {}, "createdTime": 1700000000000}}]
for s in range(8):
    acts.append({"add": {"path": "s%d-0.parquet" % s, "partitionValues": {}, "size": 1000,
                         "modificationTime": 1700000000000, "dataChange": True,
                         "stats": json.dumps({"numRecords": 1000, "minValues": {"id": s * 1000},
                                              "maxValues": {"id": s * 1000 + 999},
                                              "nullCount": {"id": 0}})}})
with open(os.path.join(d, "%020d.json" % 0), "w") as f:
    f.write("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in acts))
EOF
	chmod -R a+rwX "$1"
}

# run <name> <slots: disjoint|hot> <mode: partition|stats|floor> [publish]
# (publish: a loop calls deltacc.publish every 0.2 s during the run)
results=()
oracle_lines=()
run() {
	local name=$1 slots=$2 mode=$3 t=$WORK/$1 slot_expr call
	make_table "$t"
	q "SELECT deltacc.register_table('$t')" >/dev/null
	q "INSERT INTO bench_slot SELECT '$t', s, format('s%s-0.parquet', s), 0 FROM generate_series(0, 7) s"
	q "TRUNCATE floor_log; UPDATE floor_head SET latest = 0"
	if [ "$slots" = disjoint ]; then
		slot_expr=':client_id'
	else
		slot_expr='random(0, 1)'
	fi
	if [ "$mode" = floor ]; then
		call="SELECT bench_floor('$t', :slot);"
	else
		call="SELECT bench_update('$t', :slot, '$mode');"
	fi
	printf '\\set slot %s\n%s\n' "$slot_expr" "$call" > "$WORK/$name.sql"
	local pub=
	if [ "${4:-}" = publish ]; then
		(while [ ! -e "$WORK/$name.done" ]; do
			q "SELECT deltacc.publish('$t')" >/dev/null
			sleep 0.2
		done) &
		pub=$!
	fi
	(cd "$WORK" && pgbench -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER" -f "$WORK/$name.sql" \
		--log --log-prefix="$WORK/$name" > "$WORK/$name.out" 2>&1)
	touch "$WORK/$name.done"
	[ -z "$pub" ] || wait "$pub"
	local xacts commits
	xacts=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$WORK/$name.out")
	if [ "$mode" = floor ]; then
		commits=$(q "SELECT count(*) FROM floor_log")
	else
		commits=$(q "SELECT count(*) FROM deltacc.ratified_commits('$t')")
		q "SELECT json_build_object('version', version, 'content', content)
		     FROM deltacc.ratified_commits('$t')" > "$WORK/$name.jsonl"
		oracle_lines+=("| $name | $(python3 "$ROOT/bench/catalog_oracle.py" \
			"$t/_delta_log/00000000000000000000.json" "$WORK/$name.jsonl" | head -1) |")
	fi
	local lat
	lat=$(cat "$WORK/$name".[0-9]* | awk '{ print $3 }' | sort -n | awk '
		{ a[NR] = $1 }
		END {
			p = "";
			split("50 90 99", q, " ");
			for (i = 1; i <= 3; i++) { k = int(NR * q[i] / 100); if (k < 1) k = 1; p = p sprintf(" %.2f |", a[k] / 1000) }
			print p
		}')
	results+=("| $name | $slots | $mode | $xacts | $commits | $(awk -v c="$commits" -v s="$SECONDS_PER" 'BEGIN { printf "%.0f", c / s }') | $(awk -v x="$xacts" -v c="$commits" 'BEGIN { printf "%.1f%%", x ? 100 * (x - c) / x : 0 }') |$lat")
	echo "${results[-1]}"
}

run disjoint-partition disjoint partition
run disjoint-stats disjoint stats
run disjoint-stats-published disjoint stats publish
run disjoint-floor disjoint floor
run hot-partition hot partition
run hot-stats hot stats
run hot-floor hot floor

{
	echo "# Commit coordinator benchmark (bench/catalog.sh)"
	echo
	echo "Command: \`bash bench/catalog.sh\` (BENCH_SECONDS=$SECONDS_PER per configuration)."
	echo "Machine: $(nproc) CPU ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(free -g | awk '/Mem:/ { print $2 }') GB,"
	echo "PostgreSQL $(q 'SHOW server_version'), deltacc as installed for the run"
	echo "(${BENCH_BUILD_NOTE:-by scripts/setup.sh, built with -DUSE_ASSERT_CHECKING}), throwaway cluster with default settings."
	echo "Date: $(date -u +%Y-%m-%d)."
	echo
	echo "8 pgbench clients, $SECONDS_PER s per configuration.  Each transaction is one"
	echo "UPDATE of a key slot through deltacc.commit (remove the slot's file, add its"
	echo "replacement with statistics, read predicate on the slot's id range); disjoint:"
	echo "client k updates slot k; hot: every client updates slot 0 or 1.  The floor"
	echo "takes the same row lock (SELECT ... FOR UPDATE) and inserts the same bytes"
	echo "without any check.  Aborts are the transactions whose commit raised 40001"
	echo "(caught in the wrapper).  deltacc.max_unpublished_versions was raised to"
	echo "1000000 for the run; nothing was published during it, except in"
	echo "disjoint-stats-published, where a loop calls deltacc.publish every 0.2 s."
	echo
	echo "| configuration | slots | mode | transactions | commits | commits/s | aborts | p50 ms | p90 ms | p99 ms |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${results[@]}"
	echo
	echo "Independent re-check of every ratified commit against the commits it raced"
	echo "with (bench/catalog_oracle.py, not deltacc's checker):"
	echo
	echo "| configuration | oracle |"
	echo "|---|---|"
	printf '%s\n' "${oracle_lines[@]}"
} > "$OUT"
cat "$OUT"
