#!/usr/bin/env bash
# bench/run.sh: the whole benchmark in one command (as root, from a clone):
#
#     sudo bash bench/run.sh
#
# 1. scripts/setup.sh: Debian packages, build, install (as for the tests);
#    then nodejs/npm when missing and `npm ci` of bench/package.json into
#    bench/node_modules (git-ignored): @duckdb/node-api and pg.
# 2. Two families of synthetic Delta logs of the same shapes and sizes:
#    bench/gen.py writes one into bench/data (every line from one template)
#    and bench/gen_variety.py the other into bench/data-variety (the layouts
#    of Spark, Databricks, delta-rs and other writers, mixed line by line);
#    both git-ignored, skipped when already there from the same generator.
#    bench/gen_checkpoint.mjs writes each family's W4 tables again as
#    Parquet checkpoints.  BENCH_FAMILIES=gen or =variety runs one family.
# 3. A release build of deltacc (no assertion checking, -O2) is made in
#    bench/out/build from the working tree and its functions are created in
#    a throwaway cluster (pg_virtualenv) straight from that build, so the
#    numbers are those of an optimised build and nobody else's `make
#    install` can swap the library during the run.  BENCH_EXTENSION=installed
#    uses `CREATE EXTENSION deltacc` (the build setup.sh installed) instead;
#    BENCH_SRC=<dir> builds deltacc from another source tree (e.g. a
#    `git archive` of a branch) to measure it before it is merged.
# 4. bench/bench.mjs runs every workload on every family: agreement check,
#    interleaved timed runs, peak memory, floor; writes bench/results.md
#    and bench/out/results.json, and exits non-zero if the implementations
#    disagree.  Every session has the server's default settings (work_mem
#    4MB), and W2/W3 call deltacc.conflicts without read_files.
#
# BENCH_PRELOAD=1: the server preloads deltacc (see below; default: not).
# Environment passed through to bench.mjs: BENCH_RUNS, BENCH_ONLY, BENCH_SKIP,
# BENCH_W3_REPEAT, BENCH_MACHINE, BENCH_MERGE (=1 with BENCH_ONLY: replace
# those rows of the last full run's bench/out/results.json and rewrite
# bench/results.md), BENCH_COMMIT (default: the measured tree's commit).  BENCH_QUICK=1 generates small tables
# (bench/data-quick, bench/data-variety-quick) for a smoke run, reported in bench/out/results-quick.md.  BENCH_SETUP=0 skips scripts/setup.sh
# (packages already there; the release build below needs no install).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}

if [ "$(id -u)" -ne 0 ]; then
	echo "bench: run as root (sudo bash bench/run.sh): it installs packages and reads" >&2
	echo "bench: the PostgreSQL backend's /proc entries for its peak memory" >&2
	exit 1
fi

if [ "${BENCH_SETUP:-1}" = 1 ]; then
	echo "== setup (scripts/setup.sh)"
	flock -o /tmp/deltacc-pg.lock bash scripts/setup.sh
fi
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
	echo "bench: installing nodejs and npm"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
if [ ! -d bench/node_modules/@duckdb/node-api ] || [ ! -d bench/node_modules/pg ]; then
	(cd bench && npm ci --no-audit --no-fund --loglevel=error)
fi

export BENCH_FAMILIES=${BENCH_FAMILIES:-gen,variety}
QUICK=()
SUFFIX=
if [ "${BENCH_QUICK:-}" = 1 ]; then
	export BENCH_W3_SIZE=${BENCH_W3_SIZE:-100} BENCH_RUNS=${BENCH_RUNS:-3} BENCH_QUICK
	QUICK=(--quick)
	SUFFIX=-quick
fi
DATA=$ROOT/bench/data$SUFFIX
DATA_VARIETY=$ROOT/bench/data-variety$SUFFIX
for fam in ${BENCH_FAMILIES//,/ }; do
	case $fam in
	gen) dir=$DATA gen=bench/gen.py ;;
	variety) dir=$DATA_VARIETY gen=bench/gen_variety.py ;;
	*) echo "bench: unknown family $fam (gen, variety)" >&2; exit 1 ;;
	esac
	echo "== data: $fam ($gen)"
	python3 "$gen" "${QUICK[@]}" --out "$dir"
	# W4 from a Parquet checkpoint: the same tables as classic checkpoints.
	(cd bench && node gen_checkpoint.mjs "$dir")
	# The server runs as the postgres OS user: it must reach the logs.
	chmod -R a+rX "$dir"
	d=$dir
	while [ "$d" != / ]; do
		chmod o+x "$d" 2>/dev/null || true
		d=$(dirname "$d")
	done
done

BUILD=$ROOT/bench/out/build
if [ "${BENCH_EXTENSION:-release}" != installed ]; then
	echo "== release build of deltacc (bench/out/build)"
	bash bench/release-build.sh "${BENCH_SRC:-$ROOT}" "$BUILD"
	chmod -R a+rX "$ROOT/bench/out"
fi

echo "== benchmark (pg_virtualenv)"
export BENCH_DATA=$DATA BENCH_DATA_VARIETY=$DATA_VARIETY BENCH_BUILD=$BUILD
BENCH_COMMIT=${BENCH_COMMIT:-$(git -C "${BENCH_SRC:-$ROOT}" rev-parse --short HEAD 2>/dev/null || true)}
if [ -n "$BENCH_COMMIT" ] && [ -n "$(git -C "${BENCH_SRC:-$ROOT}" status --porcelain -- src sql Makefile 2>/dev/null)" ]; then
	BENCH_COMMIT="$BENCH_COMMIT+local changes"
fi
export BENCH_COMMIT
# The server's default settings: the library is not preloaded, each backend
# loads it on its first call (about 1.6 ms once per backend; the bench's
# "calls" floor includes it).  BENCH_PRELOAD=1 preloads it
# (shared_preload_libraries), as docs/conflicts.md advises for a catalog calling
# deltacc on every commit.
BENCH_PRELOAD=${BENCH_PRELOAD:-0}	# (bench.mjs asks the server which it is)
PG_OPTS=()
if [ "$BENCH_PRELOAD" = 1 ]; then
	if [ "${BENCH_EXTENSION:-release}" = installed ]; then
		PG_OPTS=(-o "shared_preload_libraries=deltacc")
	else
		PG_OPTS=(-o "shared_preload_libraries=$BUILD/deltacc")
	fi
fi
pg_virtualenv -t -v "$PG_MAJOR" "${PG_OPTS[@]}" bash -c '
	set -euo pipefail
	if [ "${BENCH_EXTENSION:-release}" = installed ]; then
		psql -qX -v ON_ERROR_STOP=1 -c "CREATE EXTENSION deltacc"
	else
		psql -qX -v ON_ERROR_STOP=1 -c "CREATE SCHEMA deltacc" \
			-f "$BENCH_BUILD/bench-install.sql" >/dev/null
	fi
	cd bench && node bench.mjs
'
