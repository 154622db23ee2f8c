#!/usr/bin/env bash
# bench/catalog_callgrind.sh: exact instruction counts of the commit
# coordinator benchmark's transactions (bench/catalog.sh, disjoint slots),
# as root, from a clone:
#
#     bash bench/catalog_callgrind.sh [MODE] [T1 T2]
#
# MODE: stats (default), partition, floor or floor-bare.  A private cluster is made
# under ${CG_DATA:-/tmp/deltacc-catalog-callgrind} from a release build of
# the working tree (bench/release-build.sh into bench/out/catalog-build),
# with bench/catalog_setup.sql and a fresh table; the server runs under
# callgrind (every backend is a fork of it, with its own output file) and
# 8 pgbench clients make T transactions each on disjoint slots, as in
# bench/catalog.sh.  It is run twice, with T1 and T2 transactions per
# client (default 30 and 130): the difference of the clients' backends'
# instructions, divided by the difference of commits, is the cost of one
# commit without the backends' start (library load, first plans), at
# versions 8*T1 .. 8*T2 of the table.  Prints it, the winners a commit
# checked on average (conflict_check_winner calls: the count moves with
# them), and the functions with the most inclusive instructions per commit (CG_TOP=n of them, read from
# the callgrind files); the callgrind files stay in $CG_DATA/run-T1 and
# run-T2.  CG_PUBLISH=1: a loop calls deltacc.publish every 0.2 s while the
# clients run (as bench/catalog.sh's disjoint-stats-published; the
# publisher's own backends are not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
MODE=${1:-stats}
T1=${2:-30}
T2=${3:-130}
TOP=${CG_TOP:-40}
[ "$(id -u)" -eq 0 ] || { echo "catalog_callgrind.sh: run as root" >&2; exit 1; }
case $MODE in stats | partition | floor | floor-bare) ;; *) echo "catalog_callgrind.sh: MODE is stats, partition, floor or floor-bare" >&2; exit 1 ;; esac
bin=$(/usr/lib/postgresql/${PG_MAJOR:-15}/bin/pg_config --bindir)
base=${CG_DATA:-/tmp/deltacc-catalog-callgrind}
BUILD=$ROOT/bench/out/catalog-build
as_pg() { runuser -u postgres -- "$@"; }

echo "== release build of deltacc (bench/out/catalog-build)"
bash bench/release-build.sh "$ROOT" "$BUILD"
chmod -R a+rX "$ROOT/bench/out"
rm -rf "$base"
mkdir -p "$base"
chmod 755 "$base"

# run_once <T> <dir>: a fresh cluster and table, T transactions per client
run_once() {
	local T=$1 dir=$2 data=$2/data sock=$2/sock t=$2/table port=5491 P
	mkdir -p "$dir" "$sock"
	chown postgres: "$dir" "$sock"
	as_pg "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
	python3 "$ROOT/bench/catalog_table.py" "$t"
	chmod -R a+rwX "$t"
	# (version 0 older than a second: its identity is settled)
	touch -d '1 minute ago' "$t/_delta_log/00000000000000000000.json"
	P="psql -X -q -h $sock -p $port -U postgres -d postgres -v ON_ERROR_STOP=1"
	as_pg "$bin/pg_ctl" -D "$data" -o "-k $sock -c listen_addresses='' -p $port" -w start >/dev/null
	$P -c "CREATE SCHEMA deltacc" -f "$BUILD/bench-install.sql" >/dev/null
	$P -c "LOAD '$BUILD/deltacc'" -c "ALTER SYSTEM SET deltacc.max_unpublished_versions = 1000000" >/dev/null
	$P -f "$ROOT/bench/catalog_setup.sql" >/dev/null
	$P -c "SELECT deltacc.register_table('$t')" >/dev/null
	$P -c "INSERT INTO bench_slot SELECT '$t', s, format('s%s-0.parquet', s), 0 FROM generate_series(0, 7) s"
	as_pg "$bin/pg_ctl" -D "$data" -w stop >/dev/null
	as_pg valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" \
		"$bin/postgres" -D "$data" -k "$sock" -c listen_addresses='' -p $port \
		> "$dir/server.log" 2>&1 &
	for _ in $(seq 120); do $P -c "SELECT 1" >/dev/null 2>&1 && break; sleep 1; done
	if [ "$MODE" = floor ]; then
		echo "SELECT bench_update('$t', :client_id, 'floor');" > "$dir/x.sql"
	elif [ "$MODE" = floor-bare ]; then
		echo "SELECT bench_floor_bare('$t', :client_id);" > "$dir/x.sql"
	else
		echo "SELECT bench_update('$t', :client_id, '$MODE');" > "$dir/x.sql"
	fi
	chmod a+r "$dir/x.sql"
	(PGHOST=$sock PGPORT=$port pgbench -n -U postgres -c 8 -j 2 -t "$T" -f "$dir/x.sql" postgres \
		> "$dir/pgbench.out" 2>&1) &
	local bpid=$! pids= ppid=
	if [ -n "${CG_PUBLISH:-}" ]; then
		(while kill -0 $bpid 2>/dev/null; do
			$P -c "SELECT deltacc.publish('$t')" >/dev/null 2>&1 || true
			sleep 0.2
		done) &
		ppid=$!
	fi
	for _ in $(seq 200); do
		sleep 1
		pids=$($P -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench'")
		[ "$(echo $pids | wc -w)" -eq 8 ] && break
	done
	wait $bpid
	[ -z "$ppid" ] || wait "$ppid"
	if [ "$MODE" = floor ] || [ "$MODE" = floor-bare ]; then
		$P -At -c "SELECT count(*) FROM floor_log" > "$dir/commits"
	else
		$P -At -c "SELECT count(*) FROM deltacc.ratified_commits('$t')" > "$dir/commits"
	fi
	as_pg "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
	# (until every process under callgrind has written its file)
	while pgrep -f "callgrind-out-file=$dir/" >/dev/null; do sleep 1; done
	sleep 2
	echo "$pids" > "$dir/pids"
}

echo "== $MODE: $T1 then $T2 transactions per client, the server under callgrind"
run_once "$T1" "$base/run-$T1"
run_once "$T2" "$base/run-$T2"
python3 - "$base/run-$T1" "$base/run-$T2" "$TOP" <<'PY'
import re, sys

def inclusive(path):
    """
    Inclusive instructions by function name of one callgrind file: a
    function's own costs and those of the calls it makes (calls to itself
    left out), read from the file itself.
    """
    names = {}
    acc = {}
    calls = {}                  # calls made to each function
    fn = cfn = None
    pending = False             # the next cost line is a call's
    total = 0
    for line in open(path):
        if line.startswith(("fn=", "cfn=")):
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            key, ident, name = m.group(1), m.group(2), m.group(3)
            if name is not None:
                names[ident] = name
            if key == "fn":
                fn = names[ident]
            else:
                cfn = names[ident]
            continue
        if line.startswith("calls="):
            pending = True
            calls[cfn] = calls.get(cfn, 0) + int(line[6:].split()[0])
            continue
        if not (line[:1].isdigit() or line[:1] in ("+", "-", "*")):
            if line.startswith("summary:"):
                total = int(line.split()[1])
            continue
        parts = line.split()
        if len(parts) < 2 or fn is None:
            continue
        cost = int(parts[1])
        if pending:
            pending = False
            if cfn == fn:
                continue        # recursion: counted where it was entered
        acc[fn] = acc.get(fn, 0) + cost
    acc["TOTAL"] = total
    return acc, calls

def load(d):
    """
    Inclusive instructions and calls by function, summed over the clients'
    backends.
    """
    acc = {}
    calls = {}
    for p in open(d + "/pids").read().split():
        inc, c = inclusive("%s/cg.%s" % (d, p))
        for k, v in inc.items():
            acc[k] = acc.get(k, 0) + v
        for k, v in c.items():
            calls[k] = calls.get(k, 0) + v
    return acc, calls, int(open(d + "/commits").read())

a, calls_a, ca = load(sys.argv[1])
b, calls_b, cb = load(sys.argv[2])
n = cb - ca
print("commits %d and %d: %d instructions per commit" % (ca, cb, (b["TOTAL"] - a["TOTAL"]) // n))
# (the instructions per commit move with how many versions each commit finds
# ratified while it ran: the winners it checks)
w = calls_b.get("conflict_check_winner", 0) - calls_a.get("conflict_check_winner", 0)
if w > 0:
    print("winners checked per commit: %.2f (conflict_check_winner calls)" % (w / n))
print("-- inclusive, per commit")
rows = sorted(((b.get(k, 0) - a.get(k, 0)) / n, k) for k in set(a) | set(b)
              if k != "TOTAL" and not k.startswith("0x") and "'" not in k)
for v, k in sorted(rows, reverse=True)[:int(sys.argv[3])]:
    print("%12.0f  %s" % (v, k))
PY
