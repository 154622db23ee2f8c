#!/usr/bin/env bash
# scripts/setup.sh: install what deltacc needs on Debian 12, build and install it.
#
# Safe to run repeatedly: packages are installed only when missing.  Must run
# as root (or through sudo), because it installs packages and the extension.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_MAJOR=${PG_MAJOR:-15}
PACKAGES=(
	"postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" postgresql-common
	build-essential pkg-config clang llvm
	# (libsnappy-dev only for the tests: the oracle of src/format/snappy.c)
	zlib1g-dev libsnappy-dev libzstd-dev liblz4-dev
	# (libssl-dev: libcrypto's SHA-256 and HMAC for request signing)
	libssl-dev
	# (libcurl4-openssl-dev: the HTTP client of object-store reads)
	libcurl4-openssl-dev
	libclang-rt-14-dev python3
)

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
# Warnings are errors in our own builds (never in the Makefile: packagers'
# compilers differ).
export PG_CFLAGS=${PG_CFLAGS:-"-Wall -Wextra -Werror -Wvla -Wno-unused-parameter -Wno-missing-field-initializers -Wno-sign-compare -DUSE_ASSERT_CHECKING"}
make -s PG_CONFIG="$PG_CONFIG" PG_CFLAGS="$PG_CFLAGS" >/dev/null
$SUDO make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
echo "setup: deltacc built and installed for PostgreSQL $PG_MAJOR"
