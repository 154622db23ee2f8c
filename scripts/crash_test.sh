#!/usr/bin/env bash
# scripts/crash_test.sh: the commit coordinator across server crashes.
#
# A throwaway cluster (pg_virtualenv; the script re-runs itself inside one)
# gets a writable copy of test/data/catalog/plain registered in the catalog.
# Several committer loops (one psql per commit, each with a unique
# commitInfo.txnId, blind appends of their own files) and a publisher loop
# run while the server is stopped with "-m immediate" at a different moment
# in each round.  After each restart the script checks that:
#   - the ratified versions run without a gap from the registration version
#     to the latest ratified version;
#   - no txnId was ratified twice;
#   - every commit a client saw acknowledged is ratified, at the version the
#     client was told;
#   - re-sending the last txnId each client attempted returns the version it
#     was ratified at, or ratifies it once;
#   - no file is published above the latest ratified version.
# At the end everything is published and every _delta_log/<v>.json must be
# its ratification (deltacc.ratified_commits.content) byte for byte.
# Prints "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

if [ -z "${DELTACC_CRASH_INSIDE:-}" ]; then
	export DELTACC_CRASH_INSIDE=1
	exec pg_virtualenv -t -v "${PG_MAJOR:-15}" bash "$ROOT/scripts/crash_test.sh" "$@"
fi

ROUNDS=${CRASH_ROUNDS:-3}
CLIENTS=${CRASH_CLIENTS:-4}
WORK=$(mktemp -d /tmp/deltacc-crash.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 777 "$WORK"
TABLE=$WORK/plain
cp -r "$ROOT/test/data/catalog/plain" "$TABLE"
mkdir -p "$TABLE/_delta_log/_staged_commits"
chmod -R a+rwX "$TABLE"

passed=0
failed=0
check() {				# check <name> <expected> <actual>
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
		echo "ok $1"
	else
		failed=$((failed + 1))
		echo "not ok $1: expected '$2', got '$3'"
	fi
}

q() {					# q <sql>: one value, unaligned
	psql -X -q -At -v ON_ERROR_STOP=1 -c "$1" 2>&1
}

# the cluster's name for pg_ctlcluster (pg_virtualenv exports PGPORT only)
CLUSTER=$(pg_lsclusters -h | awk -v p="$PGPORT" '$3 == p { print $1 " " $2 }')
server() {				# server stop|start
	if [ "$1" = stop ]; then
		pg_ctlcluster $CLUSTER stop -m immediate >/dev/null 2>&1
	else
		pg_ctlcluster $CLUSTER start >/dev/null 2>&1
		for _ in $(seq 50); do
			pg_isready -q && return
			sleep 0.2
		done
	fi
}

q "CREATE EXTENSION deltacc" >/dev/null
# the publisher keeps up, but a slow round must not stall on the limit
psql -X -q -v ON_ERROR_STOP=1 -c "LOAD 'deltacc'" -c "ALTER SYSTEM SET deltacc.max_unpublished_versions = 1000" >/dev/null
q "SELECT pg_reload_conf()" >/dev/null
REG=$(q "SELECT deltacc.register_table('$TABLE')")
check "registration version" 1 "$REG"

# commit_sql <client> <n>: the statement of attempt n of a client
commit_sql() {
	printf "SELECT deltacc.commit('%s', deltacc.latest_version('%s'), '[{\"commitInfo\":{\"operation\":\"WRITE\",\"txnId\":\"c%s-%s\",\"isBlindAppend\":true}},{\"add\":{\"path\":\"c%s-%s.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":1,\"dataChange\":true}}]')" \
		"$TABLE" "$TABLE" "$1" "$2" "$1" "$2"
}

committer() {				# committer <client>: until $WORK/stop exists
	local c=$1 n out
	n=$(cat "$WORK/next.$c" 2>/dev/null || echo 1)
	while [ ! -e "$WORK/stop" ]; do
		echo "$n" > "$WORK/attempt.$c"
		if out=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "$(commit_sql "$c" "$n")" 2>/dev/null); then
			echo "c$c-$n $out" >> "$WORK/acked"
			n=$((n + 1))
			echo "$n" > "$WORK/next.$c"
		else
			# unknown outcome (the server went away): the retry after the
			# restart settles it
			sleep 0.05
		fi
	done
}

publisher() {
	while [ ! -e "$WORK/stop" ]; do
		psql -X -q -At -c "SELECT deltacc.publish('$TABLE')" >/dev/null 2>&1
		sleep 0.1
	done
}

# the ratified history as "txnId version" lines
ratified_txns() {
	q "SELECT (l::jsonb)->'commitInfo'->>'txnId' || ' ' || r.version
	     FROM deltacc.ratified_commits('$TABLE') r,
	          regexp_split_to_table(r.content, E'\n') l
	    WHERE l LIKE '{\"commitInfo\"%' ORDER BY r.version"
}

published_above_latest() {
	q "SELECT count(*) FROM pg_ls_dir('$TABLE/_delta_log') f
	    WHERE f ~ '^[0-9]{20}\.json$'
	      AND substr(f, 1, 20)::int8 > deltacc.latest_version('$TABLE')"
}

touch "$WORK/acked"
for round in $(seq "$ROUNDS"); do
	rm -f "$WORK/stop"
	pids=()
	for c in $(seq "$CLIENTS"); do
		committer "$c" &
		pids+=($!)
	done
	publisher &
	pids+=($!)
	# a different moment of the crash in each round
	sleep "$(awk -v r="$round" 'BEGIN { srand(r * 7919); printf "%.2f", 1.5 + rand() * 2.5 }')"
	server stop
	check "round $round: the server went down (immediate stop)" f "$(pg_isready -q && echo t || echo f)"
	touch "$WORK/stop"
	wait "${pids[@]}"
	server start

	latest=$(q "SELECT deltacc.latest_version('$TABLE')")
	count=$(q "SELECT count(*) FROM deltacc.ratified_commits('$TABLE')")
	contiguous=$(q "SELECT coalesce(min(version), $REG + 1) = $REG + 1
	                   AND coalesce(max(version), $REG) = deltacc.latest_version('$TABLE')
	                   AND count(*) = count(DISTINCT version)
	               FROM deltacc.ratified_commits('$TABLE')")
	check "round $round: versions $((REG + 1))..$latest without a gap ($count ratified)" t "$contiguous"
	check "round $round: some commits ratified" t "$([ "$count" -gt 0 ] && echo t || echo f)"
	ratified_txns > "$WORK/ratified"
	check "round $round: no txnId ratified twice" 0 "$(awk '{ print $1 }' "$WORK/ratified" | sort | uniq -d | wc -l)"
	lost=$(sort "$WORK/acked" | comm -23 - <(sort "$WORK/ratified") | wc -l)
	check "round $round: every acknowledged commit ratified at its version ($(wc -l < "$WORK/acked") acknowledged)" 0 "$lost"
	check "round $round: no file published above version $latest" 0 "$(published_above_latest)"

	# re-send each client's last attempt: the same version, or once
	retried_ok=0
	for c in $(seq "$CLIENTS"); do
		n=$(cat "$WORK/attempt.$c" 2>/dev/null) || continue
		before=$(awk -v t="c$c-$n" '$1 == t { print $2 }' "$WORK/ratified")
		v=$(q "$(commit_sql "$c" "$n")")
		again=$(q "$(commit_sql "$c" "$n")")
		if [[ "$v" =~ ^[0-9]+$ ]] && [ "$v" = "$again" ] && { [ -z "$before" ] || [ "$before" = "$v" ]; }; then
			retried_ok=$((retried_ok + 1))
			echo "c$c-$n $v" >> "$WORK/acked"
		else
			echo "client $c attempt $n: ratified at '${before:-none}', retry gave '$v', again '$again'"
		fi
		echo $((n + 1)) > "$WORK/next.$c"
	done
	check "round $round: retried txnIds give one version each" "$CLIENTS" "$retried_ok"
	ratified_txns > "$WORK/ratified"
	check "round $round: no txnId twice after the retries" 0 "$(awk '{ print $1 }' "$WORK/ratified" | sort | uniq -d | wc -l)"
done

# publish everything: every published file is its ratification, byte for byte
latest=$(q "SELECT deltacc.latest_version('$TABLE')")
check "publish through the latest version" "$latest" "$(q "SELECT deltacc.publish('$TABLE')")"
check "every version published with its ratified bytes" 0 \
	"$(q "SELECT count(*) FROM deltacc.ratified_commits('$TABLE') r
	       WHERE NOT r.published
	          OR pg_read_binary_file('$TABLE/_delta_log/' || lpad(r.version::text, 20, '0') || '.json')
	             IS DISTINCT FROM convert_to(r.content, 'UTF8')")"
check "no file published above version $latest" 0 "$(published_above_latest)"
check "the snapshot holds every appended file" \
	"$(q "SELECT count(*) FROM deltacc.snapshot_files('$TABLE')")" \
	"$(( $(q "SELECT count(*) FROM deltacc.ratified_commits('$TABLE')") + 3 ))"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
