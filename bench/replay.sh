#!/usr/bin/env bash
# bench/replay.sh: deltacc.replay and deltacc.concurrency over a history of
# 10,000 commits, in one command (as root, from a clone):
#
#     bash bench/replay.sh          (BENCH_COMMITS=N, BENCH_RUNS=N, BENCH_WINDOW=N)
#
# 1. bench/gen_history.py writes bench/data-replay/history (git-ignored;
#    kept while the generator and the commit count are unchanged): a
#    partitioned table of BENCH_COMMITS commits by appending, deleting,
#    updating, merging and compacting writers, a quarter of them racing,
#    with real Parquet data files.
# 2. A release build (-O2, no assertion checking) in bench/out/build-replay,
#    its functions created in a throwaway cluster (pg_virtualenv) straight
#    from that build, as bench/run.sh does: nobody else's `make install`
#    can swap the library during the run.
# 3. Timed, each in a fresh session (so the session caches start empty),
#    the median of BENCH_RUNS (default 1) runs: deltacc.history (reading
#    every commit once: a floor); deltacc.replay in each mode; once each:
#    the same replay again in the same session (warm caches), the peer,
#    deltacc.concurrency in stats mode with window 1 over every version and
#    with window BENCH_WINDOW (default 10) over the last 1,000.  The peer:
#    what an analyst would write without replay, a PL/pgSQL loop calling
#    deltacc.conflicts for every raced commit with its actions (from
#    load_log) and the reads replay derived; it must agree with replay on
#    every row (the run fails otherwise).
# Results: bench/replay-results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
COMMITS=${BENCH_COMMITS:-10000}
RUNS=${BENCH_RUNS:-1}
WINDOW=${BENCH_WINDOW:-10}
DATA=$ROOT/bench/data-replay
BUILD=$ROOT/bench/out/build-replay
OUT=${BENCH_OUT:-$ROOT/bench/replay-results.md}

if [ -z "${DELTACC_BENCH_INSIDE:-}" ]; then
	[ "$(id -u)" -eq 0 ] || { echo "bench: run as root" >&2; exit 1; }
	stamp="$COMMITS $(sha1sum bench/gen_history.py test/data/history/make_history.py test/data/rowlevel/make_fixtures.py | sha1sum)"
	if [ "$(cat "$DATA/.stamp" 2>/dev/null)" != "$stamp" ]; then
		echo "== data: $COMMITS commits (bench/gen_history.py)"
		rm -rf "$DATA"
		mkdir -p "$DATA"
		python3 bench/gen_history.py --commits "$COMMITS" --out "$DATA/history"
		echo "$stamp" > "$DATA/.stamp"
	fi
	chmod -R a+rX "$DATA"
	d=$DATA
	while [ "$d" != / ]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done

	echo "== release build of deltacc ($BUILD)"
	rm -rf "$BUILD"
	mkdir -p "$BUILD"
	cp -r Makefile deltacc.control src sql "$BUILD"/
	rm -f "$BUILD"/sql/deltacc--*.sql
	find "$BUILD" -name '*.o' -delete
	make -s -C "$BUILD" PG_CONFIG="$PG_CONFIG" \
		PG_CFLAGS="-Wno-unused-parameter -Wno-missing-field-initializers" >/dev/null
	version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$BUILD/deltacc.control")
	# (no extension to record configuration tables for)
	sed -e '/^\\echo/d' -e '/^\\quit/d' -e '/pg_extension_config_dump/d' \
		-e "s|MODULE_PATHNAME|$BUILD/deltacc|g" -e 's|@extschema@|deltacc|g' \
		"$BUILD/sql/deltacc--$version.sql" > "$BUILD/bench-install.sql"
	chmod -R a+rX "$ROOT/bench/out"
	export DELTACC_BENCH_INSIDE=1 BENCH_COMMIT
	BENCH_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	if [ -n "$(git status --porcelain -- src sql Makefile 2>/dev/null)" ]; then
		BENCH_COMMIT="$BENCH_COMMIT+local changes"
	fi
	exec pg_virtualenv -t -v "$PG_MAJOR" bash "$ROOT/bench/replay.sh" "$@"
fi

T=$DATA/history
psql -qX -v ON_ERROR_STOP=1 -c "CREATE SCHEMA deltacc" -f "$BUILD/bench-install.sql" >/dev/null

# the peer: deltacc.conflicts per raced commit, the reads as replay derived
# them (read_predicate: NULL the whole table, 'false' none; an OPTIMIZE
# reads the files it removes; taken once, before the timings, into
# bench_reads), the isolation level as recorded (NULL for SnapshotIsolation
# or none: the table sets no level)
psql -qX -v ON_ERROR_STOP=1 -v t="$DATA/history" <<'SQL'
CREATE TABLE bench_reads AS
SELECT version, read_predicate FROM deltacc.replay(:'t', modes => ARRAY['partition']);
CREATE FUNCTION bench_peer(t text, m text)
RETURNS TABLE (version bigint, winning_version bigint, conflict text, path text)
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	acts jsonb;
	rm text[];
BEGIN
	PERFORM deltacc.load_log(t);
	FOR c IN SELECT h.version, h.read_version, h.operation, h.isolation_level,
	                r.read_predicate, h.commit_info
	           FROM pg_temp.delta_commits h
	           JOIN bench_reads r USING (version)
	          ORDER BY h.version LOOP
		SELECT jsonb_build_array(jsonb_build_object('commitInfo', c.commit_info)) ||
		       coalesce(jsonb_agg(jsonb_build_object(f.action, jsonb_build_object(
		           'path', f.path, 'partitionValues', f.partition_values, 'size', f.size,
		           'modificationTime', 0, 'deletionTimestamp', 0,
		           'dataChange', f.data_change, 'stats', f.stats::text))), '[]'),
		       array_agg(f.path) FILTER (WHERE f.action = 'remove')
		  INTO acts, rm
		  FROM pg_temp.delta_files f WHERE f.table_path = t AND f.version = c.version;
		version := c.version;
		SELECT x.winning_version, x.conflict, x.path
		  INTO winning_version, conflict, path
		  FROM deltacc.conflicts(t, c.read_version,
		         CASE WHEN c.read_predicate IS NULL OR c.read_predicate = 'false'
		              THEN '{}'::text[] ELSE ARRAY[c.read_predicate] END,
		         acts,
		         isolation_level => CASE WHEN c.isolation_level = 'SnapshotIsolation'
		                                 THEN NULL ELSE c.isolation_level END,
		         read_whole_table => c.read_predicate IS NULL,
		         read_files => CASE WHEN c.operation = 'OPTIMIZE' THEN coalesce(rm, '{}') END,
		         through_version => c.version - 1, mode => m) x
		 LIMIT 1;
		IF NOT FOUND THEN
			winning_version := NULL; conflict := NULL; path := NULL;
		END IF;
		RETURN NEXT;
	END LOOP;
END $$;
SQL

# ms of one statement in a fresh session (the last of its timings: the
# statements before it are set-up)
ms() {
	psql -qX -v ON_ERROR_STOP=1 -o /dev/null -c '\timing on' "$@" 2>&1 |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {	# timed <runs> <label> <psql args...>: median of fresh sessions
	local runs=$1 label=$2 all=
	shift 2
	for _ in $(seq "$runs"); do all="$all $(ms "$@")"; done
	printf '%s\t%s\n' "$label" "$(echo "$all" | median)" >> "$WORK/times"
	echo "   $label: $(echo "$all" | median) ms (runs:$all)"
}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
: > "$WORK/times"

q() { psql -qX -At -v ON_ERROR_STOP=1 -c "$1"; }
commits=$(q "SELECT count(*) FROM deltacc.history('$T')")
raced=$(q "SELECT count(*) FROM deltacc.history('$T') WHERE read_version < version - 1")
files=$(q "SELECT count(*) FROM deltacc.snapshot_files('$T')")
last=$(q "SELECT max(version) FROM deltacc.history('$T')")
tail_from=$((last > 1000 ? last - 999 : 0))

echo "== timings"
timed "$RUNS" "history" -c "SELECT count(*) FROM deltacc.history('$T')"
for m in partition stats row_level; do
	# (the last run's rows are kept for the agreement check)
	timed "$RUNS" "replay $m" -c "DROP TABLE IF EXISTS r_$m" \
		-c "CREATE TABLE r_$m AS SELECT * FROM deltacc.replay('$T', modes => ARRAY['$m'])"
	timed 1 "replay $m, again in the session" \
		-c "SELECT count(*) FROM deltacc.replay('$T', modes => ARRAY['$m'])" \
		-c "SELECT count(*) FROM deltacc.replay('$T', modes => ARRAY['$m'])"
	timed 1 "peer $m" -c "CREATE TABLE p_$m AS SELECT * FROM bench_peer('$T', '$m')"
	bad=$(q "SELECT count(*) FROM r_$m r FULL JOIN p_$m p USING (version)
	          WHERE r.conflict IS DISTINCT FROM 'ConcurrentModificationException'
	            AND (r.version IS NULL OR p.version IS NULL
	                 OR r.conflict IS DISTINCT FROM p.conflict
	                 OR r.winning_version IS DISTINCT FROM p.winning_version
	                 OR r.path IS DISTINCT FROM p.path)")
	echo "   $m: $bad disagreements with the peer"
	[ "$bad" = 0 ] || { echo "bench: replay and the peer disagree in $m mode" >&2; exit 1; }
	q "SELECT '$m', count(*), count(conflict),
	          count(*) FILTER (WHERE conflict = 'ConcurrentModificationException')
	     FROM r_$m" | tr '|' '\t' >> "$WORK/aborts"
done
# (the pairs counted without running them: a >= 1, b - a <= window)
npairs() { q "SELECT count(*) FROM generate_series(greatest($1, 1), $last - 1) a,
                                 generate_series(1, $2) d WHERE a + d <= $last"; }
pairs1=$(npairs 0 1)
timed 1 "concurrency stats, window 1" \
	-c "SELECT count(*) FROM deltacc.concurrency('$T', mode => 'stats', window_versions => 1)"
pairsw=$(npairs "$tail_from" "$WINDOW")
timed 1 "concurrency stats, window $WINDOW, last versions" \
	-c "SELECT count(*) FROM deltacc.concurrency('$T', $tail_from, NULL, 'stats', $WINDOW)"

t() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$WORK/times"; }
per() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
{
	echo "# Replay benchmark (bench/replay.sh)"
	echo
	echo "Command: \`bash bench/replay.sh\` (BENCH_COMMITS=$COMMITS, BENCH_RUNS=$RUNS, BENCH_WINDOW=$WINDOW)."
	echo "Machine: $(nproc) CPU ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), $(awk '/MemTotal/ {printf "%d GB", $2/1048576}' /proc/meminfo),"
	echo "$(psql -qXAt -c 'SELECT version()' | sed 's/ on .*//'), deltacc $BENCH_COMMIT release build"
	echo "(bench/out/build-replay), throwaway cluster with default settings. Date: $(date -u +%F)."
	echo
	echo "History (bench/gen_history.py): $commits commits, $raced of them raced others"
	echo "(readVersion < version - 1), $files live files at the end. Every time is"
	echo "the median of $RUNS fresh session(s) (the commit cache empty at the start) unless"
	echo "said otherwise; the peer calls deltacc.conflicts once per raced commit from"
	echo "PL/pgSQL with the commit's actions (load_log) and the reads replay derived,"
	echo "and agreed with replay on every row."
	echo
	echo "| run | ms | per raced commit (or pair) ms |"
	echo "|---|---|---|"
	echo "| history (every commit read once) | $(t history) | |"
	for m in partition stats row_level; do
		echo "| replay $m | $(t "replay $m") | $(per "$(t "replay $m")" "$raced") |"
		echo "| replay $m, again in the same session (1 run) | $(t "replay $m, again in the session") | $(per "$(t "replay $m, again in the session")" "$raced") |"
		echo "| peer (conflicts per commit) $m (1 run) | $(t "peer $m") | $(per "$(t "peer $m")" "$raced") |"
	done
	echo "| concurrency stats, window 1, every version ($pairs1 pairs, 1 run) | $(t "concurrency stats, window 1") | $(per "$(t "concurrency stats, window 1")" "$pairs1") |"
	echo "| concurrency stats, window $WINDOW, versions $tail_from.. ($pairsw pairs, 1 run) | $(t "concurrency stats, window $WINDOW, last versions") | $(per "$(t "concurrency stats, window $WINDOW, last versions")" "$pairsw") |"
	echo
	echo "Aborts replay reports (of $raced raced commits; ConcurrentModificationException: not checked or a rewritten file a winner added):"
	echo
	echo "| mode | rows | conflicts | of them ConcurrentModificationException |"
	echo "|---|---|---|---|"
	awk -F'\t' '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}' "$WORK/aborts"
} > "$OUT"
echo "== wrote $OUT"
cat "$OUT"
