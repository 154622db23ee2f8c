# deltacc: Delta Lake log reading and commit-conflict checking for PostgreSQL
#
# PGXS build.  Every object is listed explicitly; the install script is
# assembled from the per-module pieces in sql/parts/ (one owner each), the
# update scripts from sql/upgrade/ and the parts new in their version.

EXTENSION = deltacc
EXTVERSION = 1.1
MODULE_big = deltacc
PGFILEDESC = "deltacc - Delta Lake log reading and conflict checking"

# Pure C decoders (no PostgreSQL headers; fuzzed standalone in test/fuzz).
FORMAT_OBJS = \
	src/format/fmt_arena.o \
	src/format/djson.o \
	src/format/jshape.o \
	src/format/jstr.o \
	src/format/z85.o \
	src/format/roaring.o \
	src/format/dvfile.o \
	src/format/thrift.o \
	src/format/parquet.o \
	src/format/snappy.o \
	src/format/sparkpred_parse.o \
	src/format/sparkpred.o \
	src/format/sigv4.o \
	src/format/objurl.o \
	src/format/objxml.o \
	src/format/azsig.o

# The extension, layer by layer from the bottom (docs/architecture.md):
# every file includes only headers of its own layer or of layers below it
# (scripts/lint.py checks it).
COMMON_OBJS = src/common/fileio.o src/common/json_util.o src/common/subxact.o \
	src/common/fastpath.o
STORAGE_OBJS = src/storage/storage_options.o src/storage/curl_api.o src/storage/http.o \
	src/storage/objstore.o
LOG_OBJS = src/log/log_reader.o src/log/actions.o src/log/fastline.o
STATS_OBJS = src/stats/schema.o src/stats/stats.o src/stats/predicate.o \
	src/stats/spark_predicate.o
ROWS_OBJS = src/rows/data_reader.o src/rows/deletion_vector.o
SNAPSHOT_OBJS = src/snapshot/addline.o src/snapshot/commit_cache.o src/snapshot/snapshot_cache.o \
	src/snapshot/checkpoint.o src/snapshot/snapshot.o src/snapshot/loader.o
CHECK_OBJS = src/check/checkdefs.o src/check/conflict.o src/check/loser.o \
	src/check/rowlevel.o src/check/readset_cache.o src/check/driver.o \
	src/check/replay.o
COORD_OBJS = src/coord/store.o src/coord/ratify.o src/coord/publish.o
FUNCS_OBJS = src/funcs/funcs_args.o src/funcs/funcs_log.o src/funcs/funcs_scan.o \
	src/funcs/funcs_conflict.o src/funcs/funcs_rows.o src/funcs/funcs_catalog.o \
	src/funcs/funcs_replay.o src/funcs/funcs_storage.o src/funcs/funcs_fastpath.o \
	src/funcs/snapshot_scan.o \
	src/funcs/deltacc.o

OBJS = $(FORMAT_OBJS) $(COMMON_OBJS) $(STORAGE_OBJS) $(LOG_OBJS) $(STATS_OBJS) $(ROWS_OBJS) \
	$(SNAPSHOT_OBJS) $(CHECK_OBJS) $(COORD_OBJS) $(FUNCS_OBJS)

# Install script pieces, in this order (a piece new in this version goes into
# its update script's list as well, see UPGRADE_1_1_PARTS).
SQL_PARTS = \
	sql/parts/00_header.sql \
	sql/parts/05_guard.sql \
	sql/parts/10_log.sql \
	sql/parts/15_scan.sql \
	sql/parts/20_conflict.sql \
	sql/parts/25_snapshot_cache.sql \
	sql/parts/26_fastpath.sql \
	sql/parts/30_dv.sql \
	sql/parts/40_rows.sql \
	sql/parts/50_catalog.sql \
	sql/parts/60_replay.sql \
	sql/parts/70_storage.sql

# Update script 1.0 -> 1.1: sql/upgrade/1.0--1.1.sql (what changes in the
# objects 1.0 already has), then every install-script part that is entirely
# new in 1.1, in SQL_PARTS order.  A part added to SQL_PARTS for 1.1 (such
# as the commit coordinator's sql/parts/50_catalog.sql) is appended here as
# well, so that ALTER EXTENSION deltacc UPDATE gives what CREATE EXTENSION
# gives (test/sql/extension_upgrade.sql compares the two).
UPGRADE_1_1_PARTS = sql/parts/25_snapshot_cache.sql sql/parts/26_fastpath.sql \
	sql/parts/50_catalog.sql sql/parts/60_replay.sql \
	sql/parts/70_storage.sql

# Install scripts of released versions are frozen: sql/deltacc--1.0.sql is
# the 1.0 script as released, never regenerated.
DATA = sql/deltacc--1.0.sql
DATA_built = sql/deltacc--$(EXTVERSION).sql sql/deltacc--1.0--1.1.sql

# Regression suites, per module, in dependency order.
REGRESS_FOUNDATION = extension extension_upgrade log_reader actions bad_input privileges conformance
REGRESS_FOUNDATION += replay_fastpath storage_options
REGRESS_FORMAT = deletion_vectors checkpoints read_rows golden_rows checkpoint_fallback checkpoint_direct lazy_reread unescape_blocks
REGRESS_FORMAT += snapshot_scan
REGRESS_CHECKER = skipping scan skipping_property stats_conformance conflict_scenarios conflict_seed conflict_real commit_cache readset_cache stats_fastpath stats_shapes stats_jsonb
REGRESS_CHECKER += stats_templates line_shapes read_version_state writer_nan snapshot_cache
REGRESS_CHECKER += fastpath_counters line_mutations deferred_read_files stats_keyed
REGRESS_ROWLEVEL = rowlevel_fixtures rowlevel_exact rowlevel_delete
REGRESS_CATALOG = catalog catalog_safety
REGRESS_REPLAY = spark_predicate spark_predicate_real spark_predicate_property replay concurrency
REGRESS_HOSTILE = hostile_setup hostile_fixtures hostile_real hostile_arguments hostile_limits hostile_privileges hostile_search_path hostile_teardown
REGRESS = $(REGRESS_FOUNDATION) $(REGRESS_FORMAT) $(REGRESS_CHECKER) \
	$(REGRESS_ROWLEVEL) $(REGRESS_CATALOG) $(REGRESS_REPLAY) $(REGRESS_HOSTILE)
REGRESS_OPTS = --inputdir=test --load-extension=deltacc

# Isolation specs (test/specs/<name>.spec, expected/<name>.out): concurrent
# commits to catalog-managed tables.
ISOLATION = catalog_concurrent catalog_deadlock
ISOLATION_OPTS = --inputdir=test --load-extension=deltacc

PG_CONFIG ?= pg_config
PKG_CONFIG ?= pkg-config

# Compression libraries used by the Parquet reader.
COMPRESS_LIBS = -lz -lzstd -llz4
# OpenSSL's libcrypto: SHA-256 and HMAC of the SigV4 signer (src/format/sigv4.c).
CRYPTO_LIBS = -lcrypto
# libcurl, the HTTP client of object-store reads (src/storage/http.c), is
# not linked: src/storage/curl_api.c loads it on the first request, so a
# backend reading only local tables never maps it.  Its headers are needed.

PG_CPPFLAGS += -I$(srcdir)/src
SHLIB_LINK += $(COMPRESS_LIBS) $(CRYPTO_LIBS)
# Calls between deltacc's own functions bound inside the library: without
# it each of them is a dynamic relocation that the loader resolves (with
# the server's BIND_NOW) by searching the server and every library it
# links before finding it here, on each backend's first call (measured:
# 696 -> 349 PLT relocations, LOAD 1.5-2.2 -> 1.3-1.4 ms on the bench VM).
SHLIB_LINK += -Wl,-Bsymbolic-functions

EXTRA_CLEAN = test/format/run_tests test/fuzz/build results regression.diffs regression.out

PGXS := $(shell $(PG_CONFIG) --pgxs)
ifeq ($(PGXS),)
$(error pg_config did not report a PGXS path: install the Debian package postgresql-server-dev-15)
endif
include $(PGXS)

# No per-file dependency tracking: every object depends on every header.
$(OBJS): $(wildcard src/*/*.h)

sql/deltacc--$(EXTVERSION).sql: $(SQL_PARTS)
	cat $(SQL_PARTS) > $@

sql/deltacc--1.0--1.1.sql: sql/upgrade/1.0--1.1.sql $(UPGRADE_1_1_PARTS)
	cat sql/upgrade/1.0--1.1.sql $(UPGRADE_1_1_PARTS) > $@

# Standalone unit tests of src/format (no server needed).
FORMAT_SRCS = $(FORMAT_OBJS:.o=.c)
FORMAT_TESTS = $(wildcard test/format/test_*.c)
# libsnappy is only the unit tests' oracle for src/format/snappy.c.
FORMAT_TEST_LIBS = -lsnappy

test/format/run_tests: $(FORMAT_SRCS) $(wildcard src/format/*.h) $(FORMAT_TESTS) test/format/run_tests.c test/format/unit.h test/format/ref_json.h
	$(CC) -std=c99 -O1 -g -Wall -Wextra -Werror -Wvla -Isrc/format -o $@ \
		test/format/run_tests.c $(FORMAT_TESTS) $(FORMAT_SRCS) $(COMPRESS_LIBS) $(CRYPTO_LIBS) $(FORMAT_TEST_LIBS)

.PHONY: formatcheck
formatcheck: test/format/run_tests
	test/format/run_tests

# The regression suites once against a server running under valgrind
# (scripts/valgrind.sh says what it proves); run as root, under the lock.
.PHONY: valgrind-check
valgrind-check:
	bash scripts/valgrind.sh
