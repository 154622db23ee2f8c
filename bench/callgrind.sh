#!/usr/bin/env bash
# bench/callgrind.sh: exact instruction counts of SQL statements inside a
# single-user PostgreSQL backend running the bench's release build of
# deltacc, as root (the backend runs as the postgres OS user):
#
#   sudo bash bench/callgrind.sh OUTDIR "SELECT ..." ["SELECT ..." ...]
#
# Needs the release build that bench/run.sh makes (bench/out/build, or
# BENCH_BUILD=<dir> holding deltacc.so and bench-install.sql) and tables the
# postgres user can read.  A private cluster is made once under
# ${CG_DATA:-/tmp/deltacc-callgrind} (initdb, the functions created from the
# build; server defaults, nothing preloaded), then every statement runs in
# one `postgres --single` backend under callgrind, after a first deltacc
# call (SELECT count(*) FROM deltacc.commit_cache_stats(), which loads the
# library): statement k's instructions are in OUTDIR/callgrind.out.<k>
# (callgrind --dump-after=PortalRun: each part holds one
# statement).  Prints the instruction count of each statement and its top
# functions (self, and inclusive); `callgrind_annotate OUTDIR/callgrind.out.<k>`
# gives the rest.  A statement is one line.  CG_TOP=n: functions listed.
set -euo pipefail
out=${1:?usage: callgrind.sh OUTDIR SQL...}
shift
[ $# -ge 1 ] || { echo "callgrind.sh: no statement" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "callgrind.sh: run as root" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
build=${BENCH_BUILD:-$here/out/build}
bin=$(/usr/lib/postgresql/${PG_MAJOR:-15}/bin/pg_config --bindir)
data=${CG_DATA:-/tmp/deltacc-callgrind}
top=${CG_TOP:-25}
[ -f "$build/deltacc.so" ] && [ -f "$build/bench-install.sql" ] ||
	{ echo "callgrind.sh: no release build in $build (run bench/run.sh first)" >&2; exit 1; }
as_pg() { runuser -u postgres -- "$@"; }

if [ ! -f "$data/PG_VERSION" ]; then
	mkdir -p "$data"
	chown postgres: "$data"
	as_pg "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
	sock=$(mktemp -d)
	chown postgres: "$sock"
	as_pg "$bin/pg_ctl" -D "$data" -o "-k $sock -c listen_addresses=''" -w start >/dev/null
	as_pg psql -qX -h "$sock" -U postgres -d postgres -v ON_ERROR_STOP=1 \
		-c "CREATE SCHEMA deltacc" -f "$build/bench-install.sql" >/dev/null
	as_pg "$bin/pg_ctl" -D "$data" -w stop >/dev/null
	rmdir "$sock"
fi

mkdir -p "$out"
chown postgres: "$out"
rm -f "$out"/callgrind.out.*
stmts=$(mktemp)
{
	echo "SELECT count(*) FROM deltacc.commit_cache_stats()"
	for s in "$@"; do printf '%s\n' "$s"; done
} > "$stmts"
chmod a+r "$stmts"
as_pg valgrind --tool=callgrind --dump-after=PortalRun \
	--callgrind-out-file="$out/callgrind.out.%p" \
	"$bin/postgres" --single -D "$data" postgres < "$stmts" > "$out/backend.log" 2>&1 || {
	tail -20 "$out/backend.log" >&2
	exit 1
}
rm -f "$stmts"
# callgrind.out.<pid>.<n>: part n = statement n (1 = the first deltacc call).
pid=$(ls "$out" | sed -n 's/^callgrind\.out\.\([0-9]*\)\.1$/\1/p' | head -1)
[ -n "$pid" ] || { echo "callgrind.sh: no parts written" >&2; exit 1; }
# Self cost by function: callgrind_annotate splits a function by the file of
# each inlined piece and its recursion depth ('2); added up here.
self_by_function() {
	callgrind_annotate --auto=no --inclusive=no --threshold=100 "$1" 2>/dev/null | python3 -c '
import re, sys
tot, acc = 0, {}
for line in sys.stdin:
    m = re.match(r"^\s*([0-9,]+) \(\s*([0-9.]+)%\)\s+(.*)$", line)
    if not m:
        continue
    n, where = int(m.group(1).replace(",", "")), m.group(3)
    if where.startswith("PROGRAM TOTALS"):
        tot = n
        continue
    if m.group(2) == "100.0":
        continue                         # the frames above the statement
    fn = re.sub(r"\s+\[.*\]$", "", where).rsplit(":", 1)[-1]
    fn = re.sub(r"'\''[0-9]+$", "", fn)
    acc[fn] = acc.get(fn, 0) + n
for fn, n in sorted(acc.items(), key=lambda x: -x[1])[:int(sys.argv[1])]:
    print("%15s %5.1f%%  %s" % (format(n, ","), 100.0 * n / tot, fn))
' "$top"
}
k=0
for s in "$@"; do
	k=$((k + 1))
	part="$out/callgrind.out.$pid.$((k + 1))"
	mv "$part" "$out/callgrind.out.$k"
	echo "== statement $k: ${s:0:160}"
	{ callgrind_annotate "$out/callgrind.out.$k" 2>/dev/null || true; } | grep -m1 'PROGRAM TOTALS' || true
	echo "-- self, by function"
	self_by_function "$out/callgrind.out.$k"
	echo "-- inclusive"
	{ callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$out/callgrind.out.$k" 2>/dev/null || true; } |
		grep -E '^ *[0-9,]+ \(' | grep -v '100.0%' | head -"$top" || true
done
rm -f "$out/callgrind.out.$pid"*
