#!/usr/bin/env bash
# bench/profile.sh: profile one SQL statement inside its PostgreSQL backend
# with perf (call graphs), as root, against the cluster named by the libpq
# environment (PGHOST, PGPORT, PGDATABASE, ...):
#
#   bash bench/profile.sh "SELECT count(s) FROM deltacc.snapshot_files('/abs/table') s"
#
# Prints the statement's time, the top self-time symbols and the top
# inclusive (children) symbols; keeps bench/out/perf.data for `perf report`.
set -euo pipefail
sql=${1:?usage: profile.sh SQL}
out=$(cd "$(dirname "$0")" && pwd)/out
mkdir -p "$out"
app=bench-profile-$$
PGAPPNAME=$app psql -qXAt -v ON_ERROR_STOP=1 \
	-c "SET work_mem = '256MB'" -c "SET deltacc.max_log_file_bytes = '2000MB'" -c "SELECT pg_sleep(1.5)" -c '\timing on' -c "$sql" \
	> "$out/profile.out" 2>&1 &
client=$!
pid=
for _ in $(seq 50); do
	pid=$(psql -qXAt -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app'")
	[ -n "$pid" ] && break
	sleep 0.1
done
[ -n "$pid" ] || { echo "profile.sh: backend not found" >&2; exit 1; }
perf record -F 999 -g -p "$pid" -o "$out/perf.data" >/dev/null 2>&1 &
perf=$!
wait "$client" || true
kill -INT "$perf" 2>/dev/null || true
wait "$perf" 2>/dev/null || true
grep -v '^$' "$out/profile.out" | tail -3
perf report -i "$out/perf.data" --no-children --percent-limit 1 --stdio 2>/dev/null |
	grep -E '^ +[0-9.]+%' | head -40
echo "---- inclusive (children)"
perf report -i "$out/perf.data" --children --percent-limit 3 --stdio 2>/dev/null |
	grep -E '^ +[0-9.]+%' | head -50
