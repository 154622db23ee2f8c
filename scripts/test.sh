#!/usr/bin/env bash
# scripts/test.sh: set up everything (scripts/setup.sh), then run the whole
# test suite against a throwaway cluster and print "N passed, M failed".
#
# The server never runs as root: pg_virtualenv (postgresql-common) creates a
# temporary cluster owned by the postgres OS user and removes it afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
skipped=0
add_counts() {				# add_counts <file with a "N passed, M failed" line>
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
	failed=$((failed + $(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')))
	if echo "$line" | grep -q skipped; then
		skipped=$((skipped + $(echo "$line" | sed -E 's/.*, ([0-9]+) skipped.*/\1/')))
	fi
}

# The real Delta tables used by the conformance suites: ../shared/delta-tables
# beside the clone (CI), else the workplace copy.  When neither exists the
# conformance suites say they are skipped.
if [ -z "${DELTACC_TABLES:-}" ]; then
	for d in "$ROOT/../shared/delta-tables" /work/shared/delta-tables; do
		if [ -d "$d" ]; then
			DELTACC_TABLES=$(cd "$d" && pwd)
			break
		fi
	done
fi
export DELTACC_TABLES=${DELTACC_TABLES:-}

LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

# 0. The C conventions that can be checked mechanically (scripts/lint.py:
#    no // comments, src/format free of PostgreSQL headers, "postgres.h"
#    first, errcodes on every ereport(ERROR), no libc allocation or stdio).
#    VLAs are refused by the compiler (-Wvla -Werror, scripts/setup.sh).
echo "== conventions (scripts/lint.py)"
python3 scripts/lint.py > "$LOG/lint.out" 2>&1
grep -vE '^ok ' "$LOG/lint.out" || true
add_counts "$LOG/lint.out"

# 1. Unit tests of the pure-C decoders.
echo "== unit tests (src/format)"
make -s test/format/run_tests >/dev/null 2>"$LOG/unit.err" || cat "$LOG/unit.err"
test/format/run_tests > "$LOG/unit.out" 2>&1
grep -E '^not ok|check failed' "$LOG/unit.out" || true
tail -1 "$LOG/unit.out"
add_counts "$LOG/unit.out"

# 2. Short fuzzing pass (bounded time), when the harnesses exist.
if [ -f test/fuzz/Makefile ]; then
	echo "== fuzzing (short pass)"
	# CI gets the full short pass; a developer's run a quicker one (override
	# with FUZZ_SECONDS=N).
	if [ -z "${FUZZ_SECONDS:-}" ]; then
		if [ "${CI:-}" = true ]; then FUZZ_SECONDS=15; else FUZZ_SECONDS=3; fi
	fi
	make -s -C test/fuzz smoke FUZZ_SECONDS="$FUZZ_SECONDS" > "$LOG/fuzz.out" 2>&1
	tail -1 "$LOG/fuzz.out"
	add_counts "$LOG/fuzz.out"
fi

# 3. pg_regress suites and isolation specs (the Makefile's REGRESS and
#    ISOLATION, both run by installcheck) against a throwaway cluster.
# run_regress <log name> [pg_virtualenv options] -- [installcheck variables]:
# the pg_regress suites against a throwaway cluster, counted per suite
run_regress() {
	local out="$LOG/$1.out" rp rf
	local -a venv=() vars=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do venv+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	vars=("$@")
	pg_virtualenv -t -v "${PG_MAJOR:-15}" "${venv[@]}" \
		make -s PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/${PG_MAJOR:-15}/bin/pg_config}" installcheck \
		"${vars[@]}" > "$out" 2>&1
	grep -E '\.\.\. (ok|FAILED|failed)' "$out" || true
	rp=$(grep -cE '\.\.\. ok' "$out")
	rf=$(grep -cE '\.\.\. (FAILED|failed)' "$out")
	if [ "$rp" -eq 0 ] && [ "$rf" -eq 0 ]; then
		cat "$out"
		rf=1
	fi
	if [ -f regression.diffs ] && [ "$rf" -gt 0 ]; then
		head -300 regression.diffs
	fi
	# (the isolation specs, run by the same installcheck, write theirs here)
	if [ -f output_iso/regression.diffs ] && [ "$rf" -gt 0 ]; then
		head -300 output_iso/regression.diffs
	fi
	passed=$((passed + rp))
	failed=$((failed + rf))
}

echo "== regression tests"
chmod -R a+rX "$ROOT/test" 2>/dev/null || true
run_regress regress

# docs/conflicts.md advises preloading the library for a catalog: the conflict
# suites again with the server loading deltacc at start.
echo "== regression tests, deltacc preloaded (shared_preload_libraries)"
run_regress preload -o shared_preload_libraries=deltacc -- \
	REGRESS="extension conflict_scenarios conflict_seed commit_cache readset_cache stats_fastpath line_shapes catalog"

# 4. Every example of the documentation (README.md, docs/*.md): each sql
#    block with its output block runs in a fresh database of a throwaway
#    cluster and must print what the page shows (scripts/doctest.py); one
#    pass or fail per page.
echo "== documentation examples (scripts/doctest.py)"
pg_virtualenv -t -v "${PG_MAJOR:-15}" python3 scripts/doctest.py > "$LOG/doctest.out" 2>&1
grep -vE '^(Creating new PostgreSQL cluster|Dropping cluster|[0-9]+ passed, )' "$LOG/doctest.out" || true
grep -E '^[0-9]+ passed, ' "$LOG/doctest.out" | tail -1
add_counts "$LOG/doctest.out"

# 5. The commit coordinator across server crashes (its own throwaway
#    cluster, stopped with -m immediate while commits and publishes run).
echo "== crash test (scripts/crash_test.sh)"
bash scripts/crash_test.sh > "$LOG/crash.out" 2>&1
grep -E '^not ok' "$LOG/crash.out" || true
grep -E "^[0-9]+ passed, [0-9]+ failed" "$LOG/crash.out" | tail -1
add_counts "$LOG/crash.out"

# 6. Object-store reads (scripts/storage_test.sh): the conformance tables
#    and their copies in an S3 emulator on loopback (s3rver, installed from
#    npm by the script) give the same answers; misbehaving endpoints end in
#    clean errors.
echo "== object stores (scripts/storage_test.sh)"
bash scripts/storage_test.sh > "$LOG/storage.out" 2>&1
grep -E '^(not ok|storage_test:)' "$LOG/storage.out" || true
grep -E "^[0-9]+ passed, [0-9]+ failed" "$LOG/storage.out" | tail -1
add_counts "$LOG/storage.out"

echo
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
