#!/usr/bin/env bash
# test/fuzz/run.sh SECONDS HARNESS...: build and run each libFuzzer harness
# for SECONDS, keep the grown corpus in corpus-work/<name>/ and crashes in
# crashes/<name>/, print one line per harness (executions, coverage) and
# finally "N passed, M failed".  A harness passes when it builds and runs
# its time without a crash, leak, timeout or out-of-memory.
set -u
cd "$(dirname "$0")"
secs=$1
shift
passed=0
failed=0
mkdir -p build
for h in "$@"; do
	log=build/$h.log
	if ! make -s "build/fuzz_$h" > "$log" 2>&1; then
		echo "fuzz_$h: BUILD FAILED"
		tail -20 "$log"
		failed=$((failed + 1))
		continue
	fi
	mkdir -p "corpus-work/$h" "crashes/$h" "seeds/$h"
	# per-harness libFuzzer flags (e.g. -max_len) live in fuzz_<name>.options
	opts=
	if [ -f "fuzz_$h.options" ]; then
		opts=$(grep -v '^#' "fuzz_$h.options" | tr '\n' ' ')
	fi
	# seeds/<name>/ is read only; new inputs go to corpus-work/<name>/
	# shellcheck disable=SC2086
	"build/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-malloc_limit_mb=512 -print_final_stats=1 $opts \
		-artifact_prefix="crashes/$h/" "corpus-work/$h" "seeds/$h" > "$log" 2>&1
	rc=$?
	execs=$(grep -aE '^stat::number_of_executed_units' "$log" | awk '{print $2}')
	cov=$(grep -aE '^#[0-9]+' "$log" | grep -oE 'cov: [0-9]+' | tail -1 | awk '{print $2}')
	ft=$(grep -aE '^#[0-9]+' "$log" | grep -oE 'ft: [0-9]+' | tail -1 | awk '{print $2}')
	corp=$(ls "corpus-work/$h" | wc -l)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz_$h: ok, ${execs:-?} executions in ${secs} s, cov ${cov:-?} edges, ft ${ft:-?} features, corpus $corp"
		passed=$((passed + 1))
	else
		echo "fuzz_$h: FAILED (exit $rc) after ${execs:-?} executions"
		grep -aE 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20
		for f in $(grep -aoE "crashes/$h/[^ ]+" "$log" | sort -u); do
			echo "  crash input $f ($(wc -c < "$f") bytes):"
			od -A d -t x1 "$f" | head -8 | sed 's/^/    /'
		done
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
