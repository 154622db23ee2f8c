#!/usr/bin/env bash
# bench/release-build.sh SRC BUILD: a release build of deltacc (no
# assertion checking, -O2) of the source tree SRC in the directory BUILD
# (emptied first), and BUILD/bench-install.sql: the install script of the
# default version (not the update scripts) with the library path pointing
# at this build, to create the functions in a cluster without installing
# anything (without an extension there is no dump configuration to
# record: pg_extension_config_dump is left out).  Used by bench/run.sh and
# bench/catalog.sh.
set -euo pipefail
src=${1:?usage: release-build.sh SRC BUILD}
build=${2:?usage: release-build.sh SRC BUILD}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/${PG_MAJOR:-15}/bin/pg_config}
rm -rf "$build"
mkdir -p "$build"
(cd "$src" && cp -r Makefile deltacc.control src sql "$build"/)
rm -f "$build"/sql/deltacc--*.sql
find "$build" -name '*.o' -delete
make -s -C "$build" PG_CONFIG="$PG_CONFIG" \
	PG_CFLAGS="-Wno-unused-parameter -Wno-missing-field-initializers" >/dev/null
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$build/deltacc.control")
sed -e '/^\\echo/d' -e '/^\\quit/d' -e '/pg_extension_config_dump/d' \
	-e "s|MODULE_PATHNAME|$build/deltacc|g" -e 's|@extschema@|deltacc|g' \
	"$build/sql/deltacc--$version.sql" > "$build/bench-install.sql"
