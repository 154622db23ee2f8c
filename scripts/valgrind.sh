#!/usr/bin/env bash
# scripts/valgrind.sh (make valgrind-check): run the regression suites once
# against a PostgreSQL server running under valgrind's memcheck, and fail
# when valgrind reports an error with a deltacc function on its stack.
#
# What it proves, with Debian's stock (non-cassert, non-USE_VALGRIND)
# server: no read of uninitialised memory that decides a branch, no
# uninitialised bytes passed to a system call, no invalid read or write
# outside a malloc'd block, no invalid free, in any code path the suites
# drive through deltacc (including the hostile_* inputs).  It cannot see
# overruns that stay inside one palloc block (aset.c carves chunks out of
# large malloc'd blocks; a USE_VALGRIND server build would mark chunk
# boundaries) nor uses of recycled palloc chunks.  Reports from PostgreSQL
# itself (no deltacc frame) are counted and shown, not failed; the
# suppressions in test/valgrind/postgres.supp silence the known ones.
#
# Time-bound suites (hostile_limits) are skipped: under valgrind every call
# is 20-50 times slower.  Override the list with VALGRIND_REGRESS="...".
#
# The server runs from a private copy of the PostgreSQL installation in a
# scratch directory (PostgreSQL finds its share and lib directories relative
# to its binary), with this build of deltacc installed there: the system's
# installation is not touched, so no lock is needed and a long run does not
# block anybody.  Must run as root (it starts the server as postgres).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PG_MAJOR=${PG_MAJOR:-15}
BIN=/usr/lib/postgresql/$PG_MAJOR/bin
PORT=${VALGRIND_PORT:-54329}

export PG_CFLAGS=${PG_CFLAGS:-"-Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Wno-sign-compare"}
make -s PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" PG_CFLAGS="$PG_CFLAGS" >/dev/null || exit 1
command -v valgrind >/dev/null || { echo "valgrind is not installed"; exit 1; }

ALL=$(make -s -f - print-regress <<'MK'
include Makefile
print-regress:
	@echo $(REGRESS)
MK
)
REGRESS_LIST=${VALGRIND_REGRESS:-$(echo "$ALL" | tr ' ' '\n' | grep -v '^hostile_limits$' | tr '\n' ' ')}

if [ -z "${DELTACC_TABLES:-}" ]; then
	for d in "$ROOT/../shared/delta-tables" /work/shared/delta-tables; do
		[ -d "$d" ] && DELTACC_TABLES=$(cd "$d" && pwd) && break
	done
fi
export DELTACC_TABLES=${DELTACC_TABLES:-}

WORK=$(mktemp -d /tmp/deltacc-valgrind.XXXXXX)
chmod 755 "$WORK"
mkdir "$WORK/logs"
chown postgres "$WORK" "$WORK/logs"
cleanup() {
	runuser -u postgres -- "$BIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# the private installation: same layout as the system's, plus deltacc
SYS_LIB=$("$BIN/pg_config" --pkglibdir)
SYS_SHARE=$("$BIN/pg_config" --sharedir)
mkdir -p "$WORK/pg$(dirname "/usr/lib/postgresql/$PG_MAJOR")" "$WORK/pg$(dirname "$SYS_SHARE")"
cp -a "/usr/lib/postgresql/$PG_MAJOR" "$WORK/pg/usr/lib/postgresql/"
cp -a "$SYS_SHARE" "$WORK/pg$(dirname "$SYS_SHARE")/"
PRIV_LIB=$WORK/pg$SYS_LIB
PRIV_SHARE=$WORK/pg$SYS_SHARE
cp deltacc.so "$PRIV_LIB/"
cp deltacc.control sql/deltacc--*.sql "$PRIV_SHARE/extension/"
chmod -R a+rX "$WORK/pg"
BIN=$WORK/pg/usr/lib/postgresql/$PG_MAJOR/bin

runuser -u postgres -- "$BIN/initdb" -D "$WORK/data" -A trust -U postgres --no-sync >/dev/null || exit 1
cat >> "$WORK/data/postgresql.conf" <<CONF
port = $PORT
listen_addresses = ''
unix_socket_directories = '$WORK'
autovacuum = off
shared_buffers = 32MB
max_connections = 20
fsync = off
max_stack_depth = 7MB
CONF

echo "valgrind: starting the server under memcheck (logs in $WORK/logs)"
runuser -u postgres -- bash -c "valgrind --quiet --tool=memcheck --trace-children=no \
	--suppressions='$ROOT/test/valgrind/postgres.supp' --num-callers=40 \
	--error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END \
	--log-file='$WORK/logs/%p.log' \
	'$BIN/postgres' -D '$WORK/data' > '$WORK/server.log' 2>&1 &"
for _ in $(seq 1 300); do
	runuser -u postgres -- "$BIN/pg_isready" -h "$WORK" -p "$PORT" -q && break
	sleep 1
done

chmod -R a+rX "$ROOT/test" 2>/dev/null || true
echo "valgrind: running $REGRESS_LIST"
# (calls are slow under valgrind: the hostile suites' 5 s "SLOW" flag is
# raised to 10 minutes)
PGHOST=$WORK PGPORT=$PORT PGUSER=postgres PGOPTIONS="-c regress_hostile.slow_seconds=600" \
	make -s PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" installcheck REGRESS="$REGRESS_LIST" \
	> "$WORK/regress.out" 2>&1
grep -E '\.\.\. ' "$WORK/regress.out"
rp=$(grep -cE '\.\.\. ok' "$WORK/regress.out")
rf=$(grep -cE '\.\.\. (FAILED|failed)' "$WORK/regress.out")

runuser -u postgres -- "$BIN/pg_ctl" -D "$WORK/data" -m fast -w -t 600 stop >/dev/null 2>&1

# Every error block, and those with a deltacc frame (a function defined in
# one of our source files).
SRCS=$(cd src && ls *.c format/*.c | sed 's#.*/##' | paste -sd'|')
awk -v srcs="($SRCS):[0-9]" '
	/VALGRINDERROR-BEGIN/ { inb = 1; blk = ""; ours = 0; next }
	/VALGRINDERROR-END/ { inb = 0; total++; if (ours) { n++; print blk > "/dev/stderr" } next }
	inb { blk = blk $0 "\n"; if ($0 ~ srcs) ours = 1 }
	END { printf "%d %d\n", total + 0, n + 0 }
' "$WORK"/logs/*.log 2> "$WORK/deltacc-errors.txt" > "$WORK/counts"
read -r total ours < "$WORK/counts"
echo "valgrind: $total error(s) reported in total, $ours with a deltacc frame"
if [ "$ours" -gt 0 ]; then
	head -200 "$WORK/deltacc-errors.txt"
fi
if [ "$rp" -eq 0 ] && [ "$rf" -eq 0 ]; then
	tail -30 "$WORK/regress.out"
	rf=1
fi
[ "$rf" -eq 0 ] || head -100 regression.diffs 2>/dev/null
echo "valgrind-check: $rp suites ok, $rf failed, $ours deltacc valgrind errors"
[ "$rf" -eq 0 ] && [ "$ours" -eq 0 ]
