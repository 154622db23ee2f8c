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
# BENCH_CLIENTS=N: N pgbench clients instead of 8 (at most 8: one per slot).
# BENCH_PAIRS=N: after the configurations, N pairs of BENCH_PAIR_SECONDS
# (default 5) runs of disjoint-stats and disjoint-floor, the first of each
# pair alternating, with the median, lowest and highest ratio (the
# machine's speed drifts between runs, so one pair says little);
# BENCH_CLIENT_SWEEP="2 4 8": one such pair per number of clients.
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
#   floor-bare: only that lock and insert;  floor-keyed: the floor into a
#   log with the catalog's two unique keys (table and version, table and
#   txnId).
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
CLIENTS=${BENCH_CLIENTS:-8}
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
	# (the commit built, and whether its code had local changes, as
	# bench/run.sh tells them)
	rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
	if [ -n "$(git -C "$ROOT" status --porcelain -- src sql Makefile bench/catalog_setup.sql 2>/dev/null)" ]; then
		rev="$rev with local changes"
	fi
	BUILD_NOTE="a release build of the working tree (commit $rev): make without -DUSE_ASSERT_CHECKING, the functions created from bench/out/catalog-build"
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
# (run_seconds, run_clients: this run's duration and clients, default
# SECONDS_PER and CLIENTS; run_quiet=1: the run is not a row of the main
# table, its rate and aborts are left in last_rate / last_aborts and its
# oracle line in last_oracle)
run_seconds=
run_clients=
run_quiet=
run() {
	if [ -z "$run_quiet" ] && [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $1 "* ]]; then
		return 0
	fi
	local name=$1 slots=$2 mode=$3 t=$WORK/$1 slot_expr call
	local secs=${run_seconds:-$SECONDS_PER} nclients=${run_clients:-$CLIENTS}
	make_table "$t"
	q "SELECT deltacc.register_table('$t')" >/dev/null
	q "INSERT INTO bench_slot SELECT '$t', s, format('s%s-0.parquet', s), 0 FROM generate_series(0, 7) s"
	q "TRUNCATE floor_log, floor_log_keyed; UPDATE floor_head SET latest = 0"
	if [ "$slots" = disjoint ]; then
		slot_expr=':client_id'
	else
		slot_expr='random(0, 1)'
	fi
	if [ "$mode" = floor ] || [ "$mode" = floor-keyed ]; then
		call="SELECT bench_update('$t', :slot, '$mode');"
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
	(cd "$WORK" && pgbench -n -c "$nclients" -j 2 -T "$secs" -f "$WORK/$name.sql" \
		--log --log-prefix="$WORK/$name" > "$WORK/$name.out" 2>&1)
	touch "$WORK/$name.done"
	[ -z "$pub" ] || wait "$pub"
	local xacts commits
	xacts=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$WORK/$name.out")
	if [ "$mode" = floor-keyed ]; then
		commits=$(q "SELECT count(*) FROM floor_log_keyed")
	elif [ "$mode" = floor ] || [ "$mode" = floor-bare ]; then
		commits=$(q "SELECT count(*) FROM floor_log")
	else
		commits=$(q "SELECT count(*) FROM deltacc.ratified_commits('$t')")
		q "SELECT json_build_object('version', version, 'content', content)
		     FROM deltacc.ratified_commits('$t')" > "$WORK/$name.jsonl"
		last_oracle=$(python3 "$ROOT/bench/catalog_oracle.py" \
			"$t/_delta_log/00000000000000000000.json" "$WORK/$name.jsonl" | head -1)
		[ -n "$run_quiet" ] || oracle_lines+=("| $name | $last_oracle |")
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
	last_rate=$(awk -v c="$commits" -v s="$secs" 'BEGIN { printf "%.0f", c / s }')
	last_aborts=$(awk -v x="$xacts" -v c="$commits" 'BEGIN { printf "%.1f%%", x ? 100 * (x - c) / x : 0 }')
	[ -z "$run_quiet" ] || return 0
	results+=("| $name | $slots | $mode | $xacts | $commits | $last_rate | $last_aborts |$lat")
	echo "${results[-1]}"
}

# pair <tag> <first: stats|floor> [clients]: disjoint-stats and
# disjoint-floor one after the other, BENCH_PAIR_SECONDS each; prints
# "stats_rate floor_rate stats_aborts oracle" as its last line
pair() {
	local tag=$1 first=$2 clients=${3:-$CLIENTS} s f a o
	run_quiet=1 run_seconds=${BENCH_PAIR_SECONDS:-5} run_clients=$clients
	if [ "$first" = stats ]; then
		run "$tag-stats" disjoint stats; s=$last_rate; a=$last_aborts; o=$last_oracle
		run "$tag-floor" disjoint floor; f=$last_rate
	else
		run "$tag-floor" disjoint floor; f=$last_rate
		run "$tag-stats" disjoint stats; s=$last_rate; a=$last_aborts; o=$last_oracle
	fi
	run_quiet= run_seconds= run_clients=
	echo "$s $f $a $o"
}

run disjoint-partition disjoint partition
run disjoint-stats disjoint stats
run disjoint-stats-published disjoint stats publish
run disjoint-floor disjoint floor
run disjoint-floor-bare disjoint floor-bare
run disjoint-floor-keyed disjoint floor-keyed
run hot-partition hot partition
run hot-stats hot stats
run hot-floor hot floor

# BENCH_PAIRS=N: N pairs of short runs, disjoint-stats and disjoint-floor,
# the order alternating; BENCH_CLIENT_SWEEP="2 4 8": one pair per number of
# clients
pair_rows=()
ratios=()
for ((i = 1; i <= ${BENCH_PAIRS:-0}; i++)); do
	if ((i % 2)); then first=stats; else first=floor; fi
	read -r s f a o < <(pair "pair$i" "$first" | tail -1)
	ratios+=("$(awk -v s="$s" -v f="$f" 'BEGIN { printf "%.3f", f ? s / f : 0 }')")
	pair_rows+=("| $i | $first | $s | $f | $(awk -v r="${ratios[-1]}" 'BEGIN { printf "%.0f%%", 100 * r }') | $a | $o |")
	echo "${pair_rows[-1]}"
done
sweep_rows=()
for c in ${BENCH_CLIENT_SWEEP:-}; do
	read -r s f a o < <(pair "clients$c" stats "$c" | tail -1)
	sweep_rows+=("| $c | $s | $f | $(awk -v s="$s" -v f="$f" 'BEGIN { printf "%.0f%%", f ? 100 * s / f : 0 }') | $a | $o |")
	echo "${sweep_rows[-1]}"
done

{
	echo "# Commit coordinator benchmark (bench/catalog.sh)"
	echo
	cmd="bash bench/catalog.sh"
	if [ -n "${BENCH_PAIRS:-}" ]; then
		cmd="BENCH_PAIRS=$BENCH_PAIRS BENCH_PAIR_SECONDS=${BENCH_PAIR_SECONDS:-5} $cmd"
	fi
	echo "Command: \`$cmd\` (BENCH_SECONDS=$SECONDS_PER per configuration)."
	echo "Machine: $(nproc) CPU ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(free -g | awk '/Mem:/ { print $2 }') GB,"
	echo "PostgreSQL $(q 'SHOW server_version'), deltacc: $BUILD_NOTE;"
	echo "throwaway cluster with default settings."
	echo "Date: $(date -u +%Y-%m-%d)."
	echo
	echo "$CLIENTS pgbench clients, $SECONDS_PER s per configuration.  Each transaction is one"
	echo "UPDATE of a key slot through deltacc.commit (remove the slot's file, add its"
	echo "replacement with statistics, read predicate on the slot's id range); disjoint:"
	echo "client k updates slot k; hot: every client updates slot 0 or 1.  The floor"
	echo "is the same transaction without deltacc: the same read of the latest version,"
	echo "actions, subtransaction and bookkeeping, and in place of deltacc.commit the"
	echo "same row lock (SELECT ... FOR UPDATE) and the same bytes inserted, without any"
	echo "check; the bare floor only takes that lock and inserts those bytes (no read of"
	echo "the latest version, subtransaction or bookkeeping); the keyed floor inserts into"
	echo "a log with the catalog's two unique keys (table and version, table and"
	echo "txnId), as deltacc.ratified_commits has them.  Aborts are the"
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
	if [ ${#pair_rows[@]} -gt 0 ]; then
		echo
		echo "Pairs: ${#pair_rows[@]} pairs of runs of ${BENCH_PAIR_SECONDS:-5} s, disjoint slots, $CLIENTS clients,"
		echo "disjoint-stats and disjoint-floor one after the other (the first of"
		echo "each pair alternating), each on a fresh table after a VACUUM and a"
		echo "CHECKPOINT; the oracle re-checks every commit of each stats run."
		echo
		echo "| pair | first | stats commits/s | floor commits/s | stats / floor | stats aborts | oracle |"
		echo "|---|---|---|---|---|---|---|"
		printf '%s\n' "${pair_rows[@]}"
		echo
		printf '%s\n' "${ratios[@]}" | sort -n | awk '
			{ r[NR] = $1; if ($1 >= 0.5) half++ }
			END {
				m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
				printf "stats / floor over the pairs: median %.0f%%, lowest %.0f%%, highest %.0f%%; %d of %d pairs at or above 50%%.\n",
					100 * m, 100 * r[1], 100 * r[NR], half, NR
			}'
	fi
	if [ ${#sweep_rows[@]} -gt 0 ]; then
		echo
		echo "Clients: one pair of ${BENCH_PAIR_SECONDS:-5}-s runs (disjoint-stats, then disjoint-floor) per"
		echo "number of pgbench clients, disjoint slots."
		echo
		echo "| clients | stats commits/s | floor commits/s | stats / floor | stats aborts | oracle |"
		echo "|---|---|---|---|---|---|"
		printf '%s\n' "${sweep_rows[@]}"
	fi
} > "$OUT"
cat "$OUT"
