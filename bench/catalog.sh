#!/usr/bin/env bash
# bench/catalog.sh: the commit coordinator under 8 concurrent committers, in
# one command (as root, from a clone, after scripts/setup.sh installed the
# packages):
#
#     bash bench/catalog.sh            (BENCH_SECONDS=N per configuration)
#
# deltacc is a release build (no assertion checking, -O2) made from the
# working tree in bench/out/catalog-build, its functions created in the
# throwaway cluster straight from that build, as bench/run.sh does (nobody
# else's `make install` swaps the library during the run);
# BENCH_EXTENSION=installed uses CREATE EXTENSION deltacc instead.
# BENCH_ONLY="disjoint-stats disjoint-floor" runs only those configurations
# (results then in bench/out/catalog-partial.md).
#
# A throwaway cluster (pg_virtualenv) gets, per configuration, a fresh Delta
# table of 8 key slots (slot s: one file of ids s*1000 .. s*1000+999, with
# statistics) registered in the catalog.  Each pgbench transaction is one
# UPDATE of a slot through deltacc.commit: read the latest version, remove
# the slot's current file, add its replacement with statistics, read
# predicate "id BETWEEN lo AND hi" of the slot.  A 40001 is caught by the
# wrapper and counted as an abort (transactions - ratified commits).
#   disjoint: client k updates slot k;  hot: every client updates slot 0 or 1.
#   floor: the same transaction without deltacc: the same read of the latest
#   version, actions, subtransaction and bookkeeping, and in place of
#   deltacc.commit the same row lock (SELECT ... FOR UPDATE of one row) and
#   the same bytes inserted (the commit's actions as text), no check;
#   floor-bare: only that lock and insert.
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
	if [ "${BENCH_EXTENSION:-release}" != installed ]; then
		BUILD=$ROOT/bench/out/catalog-build
		echo "== release build of deltacc (bench/out/catalog-build)"
		bash bench/release-build.sh "$ROOT" "$BUILD"
		chmod -R a+rX "$ROOT/bench/out"
		export DELTACC_BENCH_BUILD=$BUILD
	fi
	exec pg_virtualenv -t -v "${PG_MAJOR:-15}" bash "$ROOT/bench/catalog.sh" "$@"
fi

SECONDS_PER=${BENCH_SECONDS:-20}
CLIENTS=8
WORK=$(mktemp -d /tmp/deltacc-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 777 "$WORK"
OUT=$ROOT/bench/catalog-results.md
if [ -n "${BENCH_ONLY:-}" ]; then
	mkdir -p "$ROOT/bench/out"
	OUT=$ROOT/bench/out/catalog-partial.md
fi

q() { psql -X -q -At -v ON_ERROR_STOP=1 -c "$1"; }

if [ -n "${DELTACC_BENCH_BUILD:-}" ]; then
	psql -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA deltacc" \
		-f "$DELTACC_BENCH_BUILD/bench-install.sql" >/dev/null
	LIB=$DELTACC_BENCH_BUILD/deltacc
	BUILD_NOTE="a release build of the working tree: make without -DUSE_ASSERT_CHECKING, the functions created from bench/out/catalog-build"
else
	q "CREATE EXTENSION deltacc" >/dev/null
	LIB=deltacc
	BUILD_NOTE="CREATE EXTENSION of the build installed"
fi
psql -X -q -v ON_ERROR_STOP=1 -c "LOAD '$LIB'" -c "ALTER SYSTEM SET deltacc.max_unpublished_versions = 1000000" >/dev/null
q "SELECT pg_reload_conf()" >/dev/null

psql -X -q -v ON_ERROR_STOP=1 -f "$ROOT/bench/catalog_setup.sql" >/dev/null

# make_table <dir>: version 0 with 8 slots
make_table() {
	python3 "$ROOT/bench/catalog_table.py" "$1"
	chmod -R a+rwX "$1"
}

# run <name> <slots: disjoint|hot> <mode: partition|stats|floor|floor-bare> [publish]
# (publish: a loop calls deltacc.publish every 0.2 s during the run)
results=()
oracle_lines=()
run() {
	if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $1 "* ]]; then
		return 0
	fi
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
		call="SELECT bench_update('$t', :slot, 'floor');"
	elif [ "$mode" = floor-bare ]; then
		call="SELECT bench_floor_bare('$t', :slot);"
	else
		call="SELECT bench_update('$t', :slot, '$mode');"
	fi
	printf '\\set slot %s\n%s\n' "$slot_expr" "$call" > "$WORK/$name.sql"
	# Start each configuration quiet: the previous one's dead rows vacuumed
	# and its dirty pages written, so that neither autovacuum nor the
	# checkpointer works through them during this one.
	q "VACUUM" >/dev/null
	q "CHECKPOINT" >/dev/null
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
	if [ "$mode" = floor ] || [ "$mode" = floor-bare ]; then
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
run disjoint-floor-bare disjoint floor-bare
run hot-partition hot partition
run hot-stats hot stats
run hot-floor hot floor

{
	echo "# Commit coordinator benchmark (bench/catalog.sh)"
	echo
	echo "Command: \`bash bench/catalog.sh\` (BENCH_SECONDS=$SECONDS_PER per configuration)."
	echo "Machine: $(nproc) CPU ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(free -g | awk '/Mem:/ { print $2 }') GB,"
	echo "PostgreSQL $(q 'SHOW server_version'), deltacc: $BUILD_NOTE;"
	echo "throwaway cluster with default settings."
	echo "Date: $(date -u +%Y-%m-%d)."
	echo
	echo "8 pgbench clients, $SECONDS_PER s per configuration.  Each transaction is one"
	echo "UPDATE of a key slot through deltacc.commit (remove the slot's file, add its"
	echo "replacement with statistics, read predicate on the slot's id range); disjoint:"
	echo "client k updates slot k; hot: every client updates slot 0 or 1.  The floor"
	echo "is the same transaction without deltacc: the same read of the latest version,"
	echo "actions, subtransaction and bookkeeping, and in place of deltacc.commit the"
	echo "same row lock (SELECT ... FOR UPDATE) and the same bytes inserted, without any"
	echo "check; the bare floor only takes that lock and inserts those bytes (no read of"
	echo "the latest version, subtransaction or bookkeeping).  Aborts are the"
	echo "transactions whose commit raised 40001"
	echo "(caught in the wrapper).  deltacc.max_unpublished_versions was raised to"
	echo "1000000 for the run; nothing was published during it, except in"
	echo "disjoint-stats-published, where a loop calls deltacc.publish every 0.2 s."
	echo "Each configuration starts after a VACUUM and a CHECKPOINT of the database."
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
