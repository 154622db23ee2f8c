#!/usr/bin/env bash
# scripts/storage_test.sh: object-store reads against servers on loopback,
# started here and stopped on exit.  Prints "N passed, M failed".
#
#  1. s3rver and Azurite (npm, pinned by test/storage/package-lock.json,
#     installed into $DELTACC_NPM_DIR, default .build/storage-npm, never
#     into the sources) each get a copy of every table of $DELTACC_TABLES,
#     uploaded at test time; test/storage/s3_compare.sql asks each table and
#     its s3://, gs:// and az:// copies the same questions (history,
#     snapshot_files, table_info, load_log, files_for_scan, read_rows,
#     conflicts) and compares the answers.
#  2. test/storage/hostile_server.py misbehaves in every way listed there;
#     test/storage/hostile.sql checks that each ends in a clean error with
#     the right SQLSTATE, in bounded time, without the secret in it.
#
# Needs the extension installed (scripts/setup.sh), node and npm (installed
# from Debian's packages when missing) and python3.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PG_MAJOR=${PG_MAJOR:-15}
NPM_DIR=${DELTACC_NPM_DIR:-$ROOT/.build/storage-npm}
TABLES=${DELTACC_TABLES:-}

WORK=$(mktemp -d)
chmod 755 "$WORK"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
	echo "not ok - $1"
	echo "0 passed, 1 failed"
	exit 1
}

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "storage_test: installing nodejs and npm"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null ||
		fail "could not install nodejs and npm"
fi
if [ ! -x "$NPM_DIR/node_modules/.bin/s3rver" ] || [ ! -x "$NPM_DIR/node_modules/.bin/azurite-blob" ] ||
	! cmp -s test/storage/package-lock.json "$NPM_DIR/package-lock.json"; then
	echo "storage_test: installing s3rver and azurite into $NPM_DIR"
	mkdir -p "$NPM_DIR"
	cp test/storage/package.json test/storage/package-lock.json "$NPM_DIR/"
	(cd "$NPM_DIR" && npm ci --no-audit --no-fund --loglevel=error >"$WORK/npm.log" 2>&1) ||
		{ cat "$WORK/npm.log"; fail "could not install the emulators"; }
fi

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL: until something answers there (any status), at most 20 s
wait_http() {
	python3 - "$1" <<'EOF'
import sys, time, urllib.request, urllib.error
for _ in range(200):
    try:
        urllib.request.urlopen(sys.argv[1], timeout=1).read()
        sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit(1)
EOF
}

S3_PORT=$(free_port)
mkdir -p "$WORK/s3"
# (its continuation tokens are DES-encrypted: OpenSSL 3 has DES only in
# its legacy provider)
node --openssl-legacy-provider "$NPM_DIR/node_modules/s3rver/bin/s3rver.js" \
	--address 127.0.0.1 --port "$S3_PORT" \
	--directory "$WORK/s3" --silent >"$WORK/s3rver.log" 2>&1 &
pids+=($!)
# Azurite, the Blob service only, on the development account (its key is
# published in Azurite's README)
AZ_PORT=$(free_port)
AZ_ACCOUNT=devstoreaccount1
AZ_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
mkdir -p "$WORK/az"
node "$NPM_DIR/node_modules/azurite/dist/src/blob/main.js" --blobHost 127.0.0.1 \
	--blobPort "$AZ_PORT" --location "$WORK/az" --silent --skipApiVersionCheck \
	--disableTelemetry >"$WORK/azurite.log" 2>&1 &
pids+=($!)
python3 test/storage/hostile_server.py "$WORK/hostile.port" >"$WORK/hostile.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$S3_PORT/" || { cat "$WORK/s3rver.log"; fail "s3rver did not start"; }
wait_http "http://127.0.0.1:$AZ_PORT/" || { cat "$WORK/azurite.log"; fail "azurite did not start"; }
for _ in $(seq 100); do [ -f "$WORK/hostile.port" ] && break; sleep 0.1; done
[ -f "$WORK/hostile.port" ] || fail "the hostile server did not start"
HOSTILE_PORT=$(cat "$WORK/hostile.port")
REFUSED_PORT=$(free_port)		# nothing listens there

passed=0
failed=0
count() {					# count <output file>
	grep -E '^not ok' "$1" || true
	passed=$((passed + $(grep -cE '^ok' "$1")))
	failed=$((failed + $(grep -cE '^not ok' "$1")))
}
# tally <psql's exit status> <output file> <what its lines are>: count its
# lines; a failed psql, or one that printed none, is one failure more
tally() {
	local n
	count "$2"
	n=$(grep -cE '^(ok|not ok)' "$2")
	echo "storage_test: $n $3"
	if [ "$1" -ne 0 ] || [ "$n" -eq 0 ]; then
		tail -20 "$2"
		failed=$((failed + 1))
	fi
}

# 1. local and s3:// copies give the same answers
if [ -n "$TABLES" ] && [ -d "$TABLES" ]; then
	python3 test/storage/upload.py "http://127.0.0.1:$S3_PORT" lake "$TABLES" tables \
		>"$WORK/upload.log" 2>&1 || { cat "$WORK/upload.log"; fail "could not upload the tables"; }
	echo "storage_test: $(cat "$WORK/upload.log") uploaded to s3rver"
	python3 test/storage/upload_azure.py "http://127.0.0.1:$AZ_PORT" "$AZ_ACCOUNT" "$AZ_KEY" \
		lake "$TABLES" tables >"$WORK/upload_az.log" 2>&1 ||
		{ cat "$WORK/upload_az.log"; fail "could not upload the tables to azurite"; }
	echo "storage_test: $(cat "$WORK/upload_az.log") uploaded to azurite"
	pg_virtualenv -t -v "$PG_MAJOR" psql -X -q -v tables="$TABLES" \
		-v endpoint="http://127.0.0.1:$S3_PORT" -v az_endpoint="http://127.0.0.1:$AZ_PORT" \
		-v az_account="$AZ_ACCOUNT" -v az_key="$AZ_KEY" \
		-v az_sas="$(python3 test/storage/upload_azure.py sas "$AZ_ACCOUNT" "$AZ_KEY")" \
		-f test/storage/s3_compare.sql \
		>"$WORK/compare.out" 2>&1
	tally $? "$WORK/compare.out" "comparisons of local and object-store tables"
else
	echo "storage_test: no DELTACC_TABLES, the comparison of local and s3:// tables is skipped"
fi

# 2. hostile endpoints
pg_virtualenv -t -v "$PG_MAJOR" psql -X -q -v endpoint="http://127.0.0.1:$HOSTILE_PORT" \
	-v refused="http://127.0.0.1:$REFUSED_PORT" -f test/storage/hostile.sql \
	>"$WORK/hostile.out" 2>&1
rc=$?
grep -E '^ok' "$WORK/hostile.out" || true
tally $rc "$WORK/hostile.out" "hostile endpoint cases"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
