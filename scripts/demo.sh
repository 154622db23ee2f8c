#!/usr/bin/env bash
# scripts/demo.sh: a short demonstration.  The same set-up as
# scripts/test.sh (scripts/setup.sh installs what is missing, builds and
# installs deltacc), then a throwaway cluster (pg_virtualenv, server owned by
# the postgres OS user) runs scripts/demo.sql over a bundled Delta table.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

bash scripts/setup.sh

# The server runs as the postgres OS user, which may not be able to enter the
# clone (e.g. under /root): give it a world-readable copy of the table.
WORK=$(mktemp -d /tmp/deltacc-demo.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp -r "$ROOT/test/data/log/sales" "$WORK/sales"
cp -r "$ROOT/test/data/conflicts/orders" "$WORK/orders"
chmod -R a+rX "$WORK"

pg_virtualenv -v "${PG_MAJOR:-15}" \
	psql -X -q -v table="$WORK/sales" -v orders="$WORK/orders" \
	-f "$ROOT/scripts/demo.sql"
