#!/usr/bin/env python3
"""bench/gen_variety.py: the bench's second family of Delta logs, written
the ways real writers write them.

bench/gen.py writes every line of its logs from one template.  This
generator writes tables of the same shape (an unpartitioned,
liquid-clustered table keyed by a long `id` whose per-file [min, max]
ranges are tight and disjoint, the same workloads and sizes) with the
variety of the logs that Spark, Databricks and delta-rs write, as seen in
the real tables under /work/shared/delta-tables and in the Delta protocol
(/work/shared/reference/delta-semantics.md).  Only the standard library is
used; every table is a pure function of its name, its sizes and the seed.

Writers (each line is rendered by one; see WRITERS below):
  spark       Apache-Spark/3.x Delta-Lake/3.x: commitInfo first; add keys
              path, partitionValues, size, modificationTime, dataChange,
              stats[, deletionVector][, clusteringProvider]; no tags; stats
              columns in schema order, tightBounds on DV tables; doubles in
              Java's Double.toString form (1.0E-4, 4.661261177E7);
              decimals with their scale (12.50); timestamps
              2024-05-01T10:11:12.345Z; non-ASCII characters raw (UTF-8).
  databricks  Databricks-Runtime/1x: as spark plus tags (INSERTION_TIME,
              MIN/MAX_INSERTION_TIME, OPTIMIZE_TARGET_SIZE, in either of
              two orders) and userId/userName/clusterId/notebook in
              commitInfo; stats with nullCount before minValues on some
              lines (DBR 17); timestamps with a session offset
              (2024-05-01T03:11:12.345-07:00) on some; truncated string
              maxima with U+FFFD or U+007F tie-breakers; random two-letter
              path prefixes (delta.randomizeFilePrefixes) on some files.
  delta-rs    delta-rs (Rust): commitInfo LAST in the commit, no newline at
              the end of the file; add ends with "tags":null,
              "deletionVector":null, "baseRowId":null,
              "defaultRowCommitVersion":null, "clusteringProvider":null;
              stats columns in hash order (a different order on each
              line), no tightBounds, numRecords first or last; doubles in
              ryu's shortest form (1e-5, 1e16); decimals as doubles;
              timestamps without the fraction when it is zero;
              operationMetrics as numbers; clientVersion.
  delta-rs-py delta-rs' Python writer (as in the kr-mixed-nulls table):
              stats made by Python's json.dumps: ", " and ": " separators,
              non-ASCII as \\u escapes (surrogate pairs above U+FFFF);
              timestamps in Python's isoformat (+00:00, microseconds).
  other-jvm   a third-party JVM writer whose JSON library escapes "/" as
              \\/ (paths under data/yyyy/mm/, DV descriptors, strings),
              writes add keys in its own order and stats with numRecords
              last.

Per line, within one log: the writer's layout; about 5% of adds miss one
leaf column's min and max (nullCount kept), about 1% miss one column's
nullCount, 0.5% have no stats at all (no key, or "stats":null), 0.3% only
numRecords; a nullable timestamp column is all-null in about 2% (no
min/max, or explicit null min/max, and nullCount == numRecords); strings
with spaces, quotes, backslashes, newlines, tabs, "/", accented and
non-BMP characters, long values truncated as writers truncate them;
NaN/Infinity as JSON strings; a nested struct column (device.os,
device.build) with nested stats; a column `note` added by schema
evolution mid-log (files written before it have no stats for it); removes
with and without size, tags, stats ("{ \\"numRecords\\" : 3 }" too) and
deletion vectors; DV updates (remove P + add P with a DV and
tightBounds=false); cdc actions; txn actions; commitInfo of WRITE, MERGE,
UPDATE, DELETE, OPTIMIZE, STREAMING UPDATE, CREATE OR REPLACE TABLE AS
SELECT, ADD COLUMNS.

Tables (under --out, default bench/data-variety; names as gen.py's):
  w1          100 commits x 1,000 adds (DV updates, copy-on-write MERGEs,
              OPTIMIZE, streaming appends with txn, cdc, the schema change
              at version 40 inside a MERGE with schema evolution).
  w2_<n>      versions 0..4 build 2,000 active files (CTAS, ADD COLUMNS,
              a delta-rs append, a DV DELETE, a MERGE); versions 5..14 are
              10 winners adding <n> files each (MERGEs of every writer, a
              streaming foreachBatch MERGE with a txn action, an UPDATE
              with deletion vectors on files the loser did not read).  The
              loser read version 4 through 3 range predicates on id.
  w4_<n>      version 0 alone: <n> adds in one JSON commit, the writers'
              layouts alternating in runs of a few lines (no single writer
              does that: it is how a reader meets layout changes from line
              to line), 2% with deletion vectors; the 8 columns of gen.py's
              table without the nested one, so that 1,000,000 adds stay
              under the 1 GB that PostgreSQL's pg_read_file (the SQL peer)
              reads at once.

Within a commit, lines come from its writer (Databricks 45%, Spark 20%,
delta-rs 20%, delta-rs-py 7%, other-jvm 8% where the commit does not fix
one), 3% of them in another writer's layout, 3% with their keys in a random
order.

Oracle (bench.json next to each _delta_log): as gen.py's, plus for W1 and
W4 the fingerprints bench.mjs computes (file and commit md5s, size and
numRecords sums), all computed here from the generated data.  W2's answer
applies Delta's statistics rules (delta-semantics.md sec. 3.2-3.3) to the
read ranges: a file is kept (read, or in conflict) when its id min/max
overlap a range, or when the statistics the range needs (min and max of
id, its nullCount, numRecords) are not all there.

Usage: gen_variety.py [--out DIR] [--seed N] [--only NAME[,NAME...]]
                      [--quick] [--force] [--writers W,...] [--without V,...]
--writers and --without write a variant, to find which variation costs
what: only these writers' layouts (a commit of another writer takes the
first one given), and without these line-level variations: missing
(statistics), strings (escapes, non-ASCII, long values), numbers (NaN,
Infinity, exponents, negatives), keyorder (the 3% of lines in a random
order), mixed (the 3% of lines in another writer's layout), dv (W4's
deletion vectors).
"""

import hashlib
import json
import os
import random
import sys
import time
from decimal import Decimal

from genlib import (BASE_TIME_MS, SLOT_WIDTH, fresh_table, log_path,
                    write_log_file)
import genlib

SEED = 20240602

LEAVES = ["id", "event_time", "updated_at", "customer", "region", "amount",
          "score", "price", "device.os", "device.build"]
NOTE = "note"                         # the column schema evolution adds

REGIONS = ["af-south-1", "ap-northeast-1", "ap-south-1", "ca-central-1",
           "eu-central-1", "eu-west-1", "eu-west-3", "sa-east-1",
           "us-east-1", "us-east-2", "us-west-1", "us-west-2",
           "S\u00e3o Paulo", "Z\u00fcrich (CH)", "Montr\u00e9al/Qu\u00e9bec",
           "Th\u1ee7 \u0110\u1ee9c"]
NAMES = ["Zo\u00eb \"Z\" O'Neil", "C:\\data\\imports", "\u00c5ngstr\u00f6m & Co",
         "Nguy\u1ec5n V\u0103n A", "Jos\u00e9 Mar\u00eda", "acme/eu/retail",
         "tab\there", "two\nlines", "M\u00fcller GmbH", "\u5317\u4eac\u5e02",
         "emoji \U0001F600 shop", "back\\slash \"quote\"", "Fran\u00e7ois",
         "ACME Corp.", "  leading spaces", "trailing  ", "\u00e9t\u00e9 2024"]
LONG = ["1200 Avenue of the Americas, Suite 4500, New York",
        "Unit 6055 Box 5622\nDPO AE 10192 (APO/FPO)",
        "\u00c9tablissements Dupont & Fils, 14 rue de la Paix, Paris",
        "Nordwestdeutsche Versicherungsgesellschaft mbH, Hamburg"]
OS = ["Android 14", "Android 15", "iOS 17.4", "iOS 18.0", "Windows 11",
      "macOS 14.5", "Linux/x86_64", "ChromeOS \"beta\""]
NOTES = ["ok", "refund requested", "line1\nline2", "C:\\tmp\\a.csv",
         "said \"hello\"", "see https://example.com/a/b", "caf\u00e9 cr\u00e8me",
         "\u2603 snow", "tab\tsep", "\U0001F4E6 parcel", ""]


# Variants for finding which variation costs what (--writers, --without;
# the default is everything): the writers allowed, the line-level variations
# left out.
KNOBS = {"writers": None, "without": frozenset()}
VARIATIONS = ("missing", "strings", "numbers", "keyorder", "mixed", "dv")


def without(v):
    return v in KNOBS["without"]


class Raw(str):
    """A JSON value already formatted (a number in a writer's format)."""


class Style:
    """How one JSON serialiser writes: separators, escapes."""

    def __init__(self, comma=",", colon=":", ascii_only=False, slash=False):
        self.comma, self.colon = comma, colon
        self.ascii_only, self.slash = ascii_only, slash

    def s(self, v):
        out = json.dumps(v, ensure_ascii=self.ascii_only)
        if self.slash:
            out = out.replace("/", "\\/")
        return out

    def enc(self, v):
        t = type(v)
        if t is Raw:
            return v
        if t is str:
            return self.s(v)
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if t is int:
            return str(v)
        if t is dict:
            c = self.colon
            return "{" + self.comma.join(self.s(k) + c + self.enc(x)
                                          for k, x in v.items()) + "}"
        if t is list:
            return "[" + self.comma.join(self.enc(x) for x in v) + "]"
        raise TypeError(t)


COMPACT = Style()
COMPACT_ASCII = Style(ascii_only=True)
PYTHON = Style(comma=", ", colon=": ", ascii_only=True)
SLASHED = Style(slash=True)
SPACED = Style(comma=" , ", colon=" : ")   # Databricks' "{ \"numRecords\" : 3 }"


# ---------------------------------------------------------------- numbers

def java_double(x):
    """Java's Double.toString: plain between 1e-3 and 1e7, else d.dddE-n."""
    if x == 0:
        return "0.0"
    a = abs(x)
    r = repr(x)
    if 1e-3 <= a < 1e7:
        if "e" in r:
            r = format(Decimal(r), "f")
        return r if "." in r else r + ".0"
    sign, digits, exp = Decimal(r).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    e = len(digits) - 1 + exp
    return ("-" if sign else "") + ds[0] + "." + (ds[1:] or "0") + "E" + str(e)


def ryu_double(x):
    """serde_json (ryu): shortest digits, exponent without + or padding."""
    r = repr(x)
    if "e" in r:
        m, e = r.split("e")
        if m.endswith(".0"):
            m = m[:-2]
        return m + "e" + str(int(e))
    return r


def py_double(x):
    return repr(x)


# ---------------------------------------------------------------- times

_days = {}


def _day(day):
    d = _days.get(day)
    if d is None:
        d = time.strftime("%Y-%m-%d", time.gmtime(day * 86400))
        _days[day] = d
    return d


def _parts(ms):
    day, rem = divmod(ms, 86400000)
    h, rem = divmod(rem, 3600000)
    m, rem = divmod(rem, 60000)
    s, milli = divmod(rem, 1000)
    return _day(day), h, m, s, milli


def ts_spark(ms):
    d, h, m, s, milli = _parts(ms)
    return "%sT%02d:%02d:%02d.%03dZ" % (d, h, m, s, milli)


def ts_offset(ms, minutes):
    d, h, m, s, milli = _parts(ms + minutes * 60000)
    sign = "-" if minutes < 0 else "+"
    return "%sT%02d:%02d:%02d.%03d%s%02d:%02d" % (
        d, h, m, s, milli, sign, abs(minutes) // 60, abs(minutes) % 60)


def ts_rs(ms):
    d, h, m, s, milli = _parts(ms)
    if milli:
        return "%sT%02d:%02d:%02d.%03dZ" % (d, h, m, s, milli)
    return "%sT%02d:%02d:%02dZ" % (d, h, m, s)


def ts_py(ms):
    d, h, m, s, milli = _parts(ms)
    if milli:
        return "%sT%02d:%02d:%02d.%06d+00:00" % (d, h, m, s, milli * 1000)
    return "%sT%02d:%02d:%02d+00:00" % (d, h, m, s)


# ---------------------------------------------------------------- files

class File:
    """One data file: what the generator knows about it (the oracle's
    input), independent of how a writer renders it."""
    __slots__ = ("path", "size", "mtime", "nrec", "lo", "hi", "vals",
                 "nulls", "drop_minmax", "drop_nc", "stats_kind", "dv",
                 "has_note", "has_device", "all_null", "liquid", "ins_us")

    def id_stats(self):
        """(numRecords, nullCount(id), min(id), max(id)) as written; None
        for a statistic that is not in the file's stats."""
        if self.stats_kind in ("none", "null"):
            return None, None, None, None
        if self.stats_kind == "nr":
            return self.nrec, None, None, None
        nc = None if self.drop_nc == "id" else 0
        if self.drop_minmax == "id":
            return self.nrec, nc, None, None
        return self.nrec, nc, self.lo, self.hi

    def kept_by(self, ranges):
        """Delta's rule for a read `id BETWEEN lo AND hi` (one per range):
        keep when the needed statistics do not verify, or min/max overlap."""
        nr, nc, mn, mx = self.id_stats()
        if nr is None or nc is None:
            return True
        if mn is None or mx is None:
            # admissible only for an all-null column; K is then NULL (skip)
            return nc != nr
        return any(mx >= lo and mn <= hi for lo, hi in ranges)

    def leaves(self):
        """The leaf columns with statistics in this file."""
        ls = LEAVES if self.has_device else LEAVES[:-2]
        return ls + [NOTE] if self.has_note else ls

    def num_records(self):
        return None if self.stats_kind in ("none", "null") else self.nrec


def z85ish(r, n=20):
    alphabet = ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                ".-:+=^!/*?&<>()[]{}@%$#")
    return "".join(alphabet[r.randrange(85)] for _ in range(n))


class Gen:
    """Seeded source of files and their statistics."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def uuid(self):
        h = "%032x" % self.r.getrandbits(128)
        return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16],
                                      "89ab"[int(h[16], 16) & 3], h[17:20],
                                      h[20:])

    def path(self, writer, part):
        r = self.r
        u = self.uuid()
        if writer == "databricks":
            p = "part-%05d-%s.c000.zstd.parquet" % (part % 1000, u)
            if r.random() < 0.3:
                p = "%s%s/%s" % (r.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                                 r.choice("0123456789abcdefghijklmnopqrstuvwxyz"), p)
            return p
        if writer == "spark":
            return "part-%05d-%s-c000.zstd.parquet" % (part % 1000, u)
        if writer == "delta-rs":
            return "part-%05d-%s-c000.snappy.parquet" % (part % 100, u)
        if writer == "delta-rs-py":
            return "%d-%s-0.parquet" % (part % 8, u)
        return "data/2024/%02d/%s.parquet" % (1 + part % 12, u)

    def strpair(self, pool_kind):
        """Two values of a string column, min <= max in code-point order."""
        r = self.r
        if without("strings"):                    # plain ASCII, no escapes
            c0 = int(r.random() * 500000)
            pools = {"region": REGIONS[:12], "os": OS[:5], "note": NOTES[:2]}
            if pool_kind == "customer":
                return "customer-%07d" % c0, "customer-%07d" % (c0 + 1 + int(r.random() * 400000))
            a, b = r.choice(pools[pool_kind]), r.choice(pools[pool_kind])
            return (a, b) if a <= b else (b, a)
        x = r.random()
        if pool_kind == "customer":
            if x < 0.80:
                c0 = int(r.random() * 500000)
                a, b = "customer-%07d" % c0, "customer-%07d" % (c0 + 1 + int(r.random() * 400000))
            elif x < 0.95:
                a, b = r.choice(NAMES), r.choice(NAMES)
            else:
                a, b = r.choice(LONG), r.choice(LONG + NAMES)
        elif pool_kind == "region":
            a, b = r.choice(REGIONS), r.choice(REGIONS)
        elif pool_kind == "os":
            a, b = r.choice(OS), r.choice(OS)
        else:
            a, b = r.choice(NOTES), r.choice(NOTES)
        return (a, b) if a <= b else (b, a)

    def file(self, writer, part, slot, commit_ms, has_note, liquid=False,
             stats=True, device=True):
        r = self.r
        rnd = r.random
        f = File()
        f.path = self.path(writer, part)
        f.lo = slot * SLOT_WIDTH + int(rnd() * (SLOT_WIDTH // 10))
        f.hi = slot * SLOT_WIDTH + SLOT_WIDTH - 1 - int(rnd() * (SLOT_WIDTH // 10))
        f.nrec = 20000 + int(rnd() * 380000)
        f.size = f.nrec * 37 + int(rnd() * 65536)
        if writer in ("spark", "databricks"):
            f.mtime = commit_ms - int(rnd() * 30) * 1000
        else:
            f.mtime = commit_ms - int(rnd() * 30000)
        f.ins_us = (commit_ms // 1000) * 1000000 + int(rnd() * 1000)
        t0 = BASE_TIME_MS - int(rnd() * (30 * 86400000))
        if rnd() < 0.1:
            t0 -= t0 % 1000
        t1 = t0 + 60000 + int(rnd() * (6 * 3600000))
        if rnd() < 0.1:
            t1 -= t1 % 1000
        u0 = t0 + int(rnd() * 3600000)
        u1 = t1 + int(rnd() * (7 * 86400000))
        a0 = rnd() * 50
        a1 = a0 + rnd() * 9000
        plain = without("numbers")
        if rnd() < 0.03 and not plain:
            a1 = 1e7 + rnd() * 1e9        # Java writes it as 1.23E8
        if rnd() < 0.02 and not plain:
            a0 = -rnd() * 100
        s0 = rnd() * 0.2
        if rnd() < 0.03 and not plain:
            s0 = rnd() * 1e-4             # 1.2E-5 / 1.2e-5
        s1 = s0 + rnd() * 0.8
        p0 = 100 + int(rnd() * 9900)
        p1 = p0 + 1 + int(rnd() * 9000000)
        c = self.strpair("customer")
        g = self.strpair("region")
        o = self.strpair("os")
        b0 = int(rnd() * 20000)
        vals = {"id": (f.lo, f.hi), "event_time": (t0, t1),
                "updated_at": (u0, u1), "customer": c, "region": g,
                "amount": (round(a0, 4), round(a1, 4)),
                "score": (round(s0, 6), round(s1, 6)), "price": (p0, p1),
                "device.os": o, "device.build": (b0, b0 + int(rnd() * 500))}
        if rnd() < 0.004 and not plain:
            vals["score"] = (vals["score"][0], "NaN")
        if rnd() < 0.002 and not plain:
            vals["amount"] = ("-Infinity", vals["amount"][1])
        f.has_note = has_note
        f.has_device = device
        if has_note:
            vals[NOTE] = self.strpair("note")
        f.vals = vals
        f.nulls = {"id": 0, "event_time": 0, "updated_at": int(rnd() * 10),
                   "customer": int(rnd() * 50), "region": 0,
                   "amount": int(rnd() * 3), "score": int(rnd() * 100),
                   "price": int(rnd() * 5), "device.os": int(rnd() * 20),
                   "device.build": 0}
        if has_note:
            f.nulls[NOTE] = int(rnd() * f.nrec)
        f.all_null = None
        if rnd() < 0.02:
            f.all_null = "updated_at"
            f.nulls["updated_at"] = f.nrec
        leaves = f.leaves()
        f.drop_minmax = r.choice(leaves) if rnd() < 0.05 else None
        f.drop_nc = r.choice(leaves) if rnd() < 0.01 else None
        x = rnd()
        if not stats or x < 0.003:
            f.stats_kind = "none" if (writer not in ("delta-rs", "delta-rs-py") or rnd() < 0.5) else "null"
        elif x < 0.006:
            f.stats_kind = "nr"
        else:
            f.stats_kind = "full"
        if without("missing"):
            if f.all_null:
                f.nulls[f.all_null] = 0
            f.drop_minmax = f.drop_nc = f.all_null = None
            f.stats_kind = "full" if stats else f.stats_kind
        f.dv = None
        f.liquid = liquid
        return f

    def dv(self):
        r = self.r
        card = 1 + int(r.random() * 400)
        return {"storageType": "u", "pathOrInlineDv": z85ish(r),
                "offset": 1 + int(r.random() * 4) * 2048,
                "sizeInBytes": 34 + card * 2, "cardinality": card}


# ---------------------------------------------------------------- writers

class Writer:
    def __init__(self, name, engine, line, stats, dbl, dec, ts, tags,
                 nulls_tail, ci_last, newline_at_end, order, dv_table):
        self.name, self.engine = name, engine
        self.line, self.stats = line, stats       # Styles
        self.dbl, self.dec, self.ts = dbl, dec, ts
        self.tags, self.nulls_tail = tags, nulls_tail
        self.ci_last, self.newline_at_end = ci_last, newline_at_end
        self.order = order                        # add key order
        self.dv_table = dv_table


SPARK_ORDER = ["path", "partitionValues", "size", "modificationTime",
               "dataChange", "stats", "tags", "deletionVector", "baseRowId",
               "defaultRowCommitVersion", "clusteringProvider"]
OTHER_ORDER = ["path", "size", "dataChange", "modificationTime",
               "partitionValues", "deletionVector", "stats", "tags"]

WRITERS = {
    "spark": Writer("spark", "Apache-Spark/3.5.1 Delta-Lake/3.2.0", COMPACT,
                    COMPACT, java_double, "scale", "spark", False, False,
                    False, True, SPARK_ORDER, True),
    "databricks": Writer("databricks", "Databricks-Runtime/15.4.x-photon-scala2.12",
                         COMPACT, COMPACT, java_double, "scale", "dbr", True,
                         False, False, True, SPARK_ORDER, True),
    "delta-rs": Writer("delta-rs", "delta-rs:0.22.3", COMPACT, COMPACT,
                       ryu_double, "double", "rs", False, True, True, False,
                       SPARK_ORDER, False),
    "delta-rs-py": Writer("delta-rs-py", "delta-rs:py-0.18.0", COMPACT, PYTHON,
                          py_double, "double", "py", False, True, True, False,
                          SPARK_ORDER, False),
    "other-jvm": Writer("other-jvm", "acme-ingest/2.3.1 (delta-jvm)", SLASHED,
                        SLASHED, java_double, "scale", "spark", False, False,
                        False, True, OTHER_ORDER, True),
}
ENGINES = {"databricks": ["Databricks-Runtime/15.4.x-photon-scala2.12",
                          "Databricks-Runtime/16.0.x-scala2.12",
                          "Databricks-Runtime/13.3.x-photon-scala2.12"],
           "spark": ["Apache-Spark/3.5.1 Delta-Lake/3.2.0",
                     "Apache-Spark/3.4.0 Delta-Lake/2.4.0"],
           "delta-rs": ["delta-rs:0.22.3", "delta-rs:py-1.1.0"],
           "delta-rs-py": ["delta-rs:py-0.18.0"],
           "other-jvm": ["acme-ingest/2.3.1 (delta-jvm)"]}


def fmt_val(w, leaf, v, r):
    """One statistic value as writer w writes it (a Raw number or a str)."""
    if isinstance(v, str) and leaf in ("score", "amount"):
        return v                                   # "NaN", "-Infinity"
    if leaf in ("id", "device.build"):
        return Raw(str(v))
    if leaf in ("amount", "score"):
        return Raw(w.dbl(v))
    if leaf == "price":
        if w.dec == "scale":
            return Raw("%d.%02d" % divmod(v, 100))
        return Raw(w.dbl(v / 100.0))
    if leaf in ("event_time", "updated_at"):
        if w.ts == "spark":
            return ts_spark(v)
        if w.ts == "dbr":
            return ts_offset(v, -420) if r.random() < 0.1 else ts_spark(v)
        if w.ts == "rs":
            return ts_rs(v)
        return ts_py(v)
    return v


def truncate_max(w, s, r):
    """A string max longer than 32 characters as writers truncate it."""
    if len(s) <= 32:
        return s
    p = s[:32]
    if w.name == "databricks":
        return p + ("\ufffd" if r.random() < 0.5 else "\x7f")
    if w.name in ("spark", "other-jvm"):
        return p + ("\x7f" if ord(s[32]) < 0x7f else "\U0010ffff")
    return s


def stats_obj(w, f, r):
    """The stats object of file f as writer w lays it out (dict order is
    the key order), or None for no stats."""
    if f.stats_kind in ("none", "null"):
        return None
    if f.stats_kind == "nr":
        return {"numRecords": f.nrec}
    mins, maxs, ncs = {}, {}, {}
    leaves = f.leaves()
    if w.name in ("delta-rs", "delta-rs-py"):
        leaves = leaves[:]
        r.shuffle(leaves)
    for leaf in leaves:
        if leaf != f.drop_nc:
            put(ncs, leaf, f.nulls[leaf])
        if leaf == f.drop_minmax:
            continue
        if leaf == f.all_null:
            if w.name == "spark" and r.random() < 0.5:
                put(mins, leaf, None)
                put(maxs, leaf, None)
            continue
        lo, hi = f.vals[leaf]
        if leaf in ("customer", NOTE):
            lo = lo[:32] if w.name != "delta-rs" and w.name != "delta-rs-py" else lo
            hi = truncate_max(w, hi, r)
        put(mins, leaf, fmt_val(w, leaf, lo, r))
        put(maxs, leaf, fmt_val(w, leaf, hi, r))
    parts = [("minValues", mins), ("maxValues", maxs), ("nullCount", ncs)]
    if w.name == "databricks" and r.random() < 0.2:
        parts = [parts[2], parts[0], parts[1]]
    out = {}
    nr_last = w.name == "other-jvm" or (w.name == "delta-rs" and r.random() < 0.5)
    if not nr_last:
        out["numRecords"] = f.nrec
    for k, v in parts:
        out[k] = v
    if w.dv_table:
        out["tightBounds"] = f.dv is None
    if nr_last:
        out["numRecords"] = f.nrec
    return out


def put(d, leaf, v):
    if "." in leaf:
        a, b = leaf.split(".")
        d.setdefault(a, {})[b] = v
    else:
        d[leaf] = v


def tags_obj(w, f, r):
    if not w.tags:
        return None
    us = str(f.ins_us)
    if r.random() < 0.7:
        return {"INSERTION_TIME": us, "MIN_INSERTION_TIME": us,
                "MAX_INSERTION_TIME": us, "OPTIMIZE_TARGET_SIZE": "268435456"}
    return {"MAX_INSERTION_TIME": us, "INSERTION_TIME": us,
            "MIN_INSERTION_TIME": us, "OPTIMIZE_TARGET_SIZE": "268435456"}


def add_line(w, f, r, data_change=True):
    st = stats_obj(w, f, r)
    fields = {"path": f.path, "partitionValues": {}, "size": f.size,
              "modificationTime": f.mtime, "dataChange": data_change}
    if st is not None:
        fields["stats"] = Raw(w.line.s(w.stats.enc(st)))
    elif f.stats_kind == "null":
        fields["stats"] = None
    tg = tags_obj(w, f, r)
    if tg is not None:
        fields["tags"] = tg
    if f.dv is not None:
        fields["deletionVector"] = f.dv
    if f.liquid and not w.nulls_tail:
        fields["clusteringProvider"] = "liquid"
    if w.nulls_tail:
        fields.update({"tags": None, "deletionVector": f.dv, "baseRowId": None,
                       "defaultRowCommitVersion": None,
                       "clusteringProvider": "liquid" if f.liquid else None})
    ordered = {k: fields[k] for k in w.order if k in fields}
    if r.random() < 0.03 and not without("keyorder"):  # a writer's own key order
        keys = list(ordered)
        r.shuffle(keys)
        ordered = {k: ordered[k] for k in keys}
    return w.line.enc({"add": ordered})


def remove_line(w, f, ms, r, data_change=True, dv=None):
    """A remove of f (its logical file: dv is the DV it had, if any);
    returns (line, size written or None, numRecords written or None)."""
    if w.nulls_tail:
        o = {"path": f.path, "dataChange": data_change, "deletionTimestamp": ms,
             "extendedFileMetadata": True, "partitionValues": {}, "size": f.size,
             "tags": None, "deletionVector": dv, "baseRowId": None,
             "defaultRowCommitVersion": None}
        return w.line.enc({"remove": o}), f.size, None
    o = {"path": f.path, "deletionTimestamp": ms, "dataChange": data_change}
    x = r.random()
    if x < 0.9:
        o["extendedFileMetadata"] = True
        o["partitionValues"] = {}
        o["size"] = f.size
    tg = tags_obj(w, f, r)
    if tg is not None and x < 0.9:
        o["tags"] = tg
    if dv is not None:
        o["deletionVector"] = dv
    rec = None
    if w.name == "databricks" and x < 0.9 and f.stats_kind not in ("none", "null"):
        o["stats"] = (SPACED.enc({"numRecords": f.nrec}).replace("{", "{ ").replace("}", " }")
                      if r.random() < 0.3 else COMPACT.enc({"numRecords": f.nrec}))
        rec = f.nrec
    return w.line.enc({"remove": o}), o.get("size"), rec


def cdc_line(w, g, ms):
    o = {"path": "_change_data/cdc-%05d-%s.c000.snappy.parquet" % (
        g.r.randrange(100), g.uuid()), "partitionValues": {},
         "size": 1000 + g.r.randrange(100000), "dataChange": False}
    return w.line.enc({"cdc": o}), o["size"]


# ---------------------------------------------------------------- commits

def params_for(op, w, v):
    rs = w.name.startswith("delta-rs")
    if op == "WRITE":
        if rs:
            return {"mode": "Append", "partitionBy": "[]"}
        return {"mode": "Append", "statsOnLoad": False, "partitionBy": "[]",
                "clusterBy": "[\"id\"]"}
    if op == "MERGE":
        if rs:
            return {"predicate": "target.id = source.id",
                    "mergePredicate": "target.id = source.id",
                    "matchedPredicates": "[{\"actionType\":\"update\"}]",
                    "notMatchedPredicates": "[{\"actionType\":\"insert\"}]",
                    "notMatchedBySourcePredicates": "[]"}
        return {"predicate": "[\"(id#%dL = id#%dL)\"]" % (1021 + v, 2044 + v),
                "matchedPredicates": "[{\"actionType\":\"update\"}]",
                "notMatchedPredicates": "[{\"actionType\":\"insert\"}]",
                "notMatchedBySourcePredicates": "[]"}
    if op == "MERGE-INSERT":
        return {"predicate": "[\"(id#1021L = id#2044L)\"]",
                "matchedPredicates": "[]",
                "notMatchedPredicates": "[{\"actionType\":\"insert\"}]",
                "notMatchedBySourcePredicates": "[]"}
    if op == "UPDATE":
        return {"predicate": "[\"((customer#%d = 'O\\\"Neil') OR (id#%dL >= %d))\"]"
                % (17055 + v, 17050 + v, v * 1000)}
    if op == "DELETE":
        return {"predicate": "[\"(region#%d IN (S\u00e3o Paulo, eu-west-1))\"]" % (90 + v)}
    if op == "OPTIMIZE":
        return {"predicate": "[]", "auto": True, "clusterBy": "[\"id\"]",
                "zOrderBy": "[]", "batchId": "0"}
    if op == "STREAMING UPDATE":
        return {"outputMode": "Append",
                "queryId": "5f0c3a1e-7b1d-4c55-9d0e-%012d" % v, "epochId": str(v)}
    if op == "CREATE OR REPLACE TABLE AS SELECT":
        return {"partitionBy": "[]", "clusterBy": "[\"id\"]", "description": None,
                "isManaged": "true",
                "properties": "{\"delta.enableDeletionVectors\":\"true\","
                              "\"delta.enableChangeDataFeed\":\"true\"}",
                "statsOnLoad": False}
    if op == "ADD COLUMNS":
        return {"columns": "[{\"column\":{\"name\":\"note\",\"type\":\"string\","
                           "\"nullable\":true,\"metadata\":{}}}]"}
    raise ValueError(op)


def commit_info(w, g, v, ms, op, blind, nadd, nrem, engine=None):
    """commitInfo as writer w writes it; returns (line, operation)."""
    opname = "MERGE" if op == "MERGE-INSERT" else op
    params = params_for(op, w, v)
    if w.name.startswith("delta-rs"):
        ci = {"timestamp": ms, "operation": opname, "operationParameters": params}
        if v > 0 and g.r.random() < 0.7:
            ci["readVersion"] = v - 1
        ci["engineInfo"] = engine or w.engine
        ci["operationMetrics"] = {"execution_time_ms": g.r.randrange(5, 5000),
                                  "num_added_files": nadd, "num_removed_files": nrem,
                                  "num_added_rows": nadd * 1000}
        ci["clientVersion"] = (engine or w.engine).replace(":", ".")
        return w.line.enc({"commitInfo": ci}), opname, None
    ci = {"timestamp": ms}
    if w.name == "databricks":
        ci["userId"] = "4203419021437512"
        ci["userName"] = "etl-service@example.com"
    ci["operation"] = opname
    ci["operationParameters"] = params
    if w.name == "databricks":
        if g.r.random() < 0.5:
            ci["notebook"] = {"notebookId": "2476182773968461"}
        ci["clusterId"] = "0501-092314-abcd1234-v2n"
    if v > 0:
        ci["readVersion"] = v - 1
    ci["isolationLevel"] = ("WriteSerializable" if w.name == "databricks"
                            else "Serializable")
    ci["isBlindAppend"] = blind
    ci["operationMetrics"] = {"numFiles": str(nadd), "numOutputRows": str(nadd * 1000),
                              "numOutputBytes": str(nadd * 8000000),
                              "numRemovedFiles": str(nrem)}
    if w.name == "databricks":
        ci["tags"] = {"noRowsCopied": "false", "restoresDeletedRows": "false"}
    ci["engineInfo"] = engine or w.engine
    ci["txnId"] = g.uuid()
    return w.line.enc({"commitInfo": ci}), opname, blind


def schema_string(with_note, device=True):
    def field(n, t, nullable=True):
        return {"name": n, "type": t, "nullable": nullable, "metadata": {}}
    fields = [field("id", "long", False), field("event_time", "timestamp", False),
              field("updated_at", "timestamp"), field("customer", "string"),
              field("region", "string"), field("amount", "double"),
              field("score", "double"), field("price", "decimal(18,2)")]
    if device:
        fields.append(field("device", {"type": "struct", "fields": [
            field("os", "string"), field("build", "integer")]}))
    if with_note:
        fields.append(field(NOTE, "string"))
    return json.dumps({"type": "struct", "fields": fields}, separators=(",", ":"))


def metadata_line(w, g, table_id, ms, with_note, device=True):
    conf = {"delta.enableDeletionVectors": "true",
            "delta.enableChangeDataFeed": "true",
            "delta.checkpoint.writeStatsAsStruct": "true",
            "delta.randomizeFilePrefixes": "true",
            "delta.isolationLevel": "Serializable"}
    if w.name.startswith("delta-rs"):
        m = {"id": table_id, "name": None, "description": None,
             "format": {"provider": "parquet", "options": {}},
             "schemaString": schema_string(with_note, device), "partitionColumns": [],
             "createdTime": ms, "configuration": conf}
    else:
        m = {"id": table_id, "format": {"provider": "parquet", "options": {}},
             "schemaString": schema_string(with_note, device), "partitionColumns": [],
             "configuration": conf, "createdTime": ms}
    return w.line.enc({"metaData": m})


def header_lines(w, g, table_id, ms, device=True):
    protocol = {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                             "readerFeatures": ["deletionVectors"],
                             "writerFeatures": ["domainMetadata", "clustering",
                                                "deletionVectors", "changeDataFeed",
                                                "invariants", "appendOnly"]}}
    dom = {"domainMetadata": {"domain": "delta.clustering", "configuration":
                              json.dumps({"clusteringColumns": [["id"]],
                                          "domainName": "delta.clustering"},
                                         separators=(",", ":")),
                              "removed": False}}
    return [metadata_line(w, g, table_id, ms, False, device), w.line.enc(protocol),
            w.line.enc(dom)]


def write_commit(table, version, w, ci, lines):
    """The commit file: commitInfo first or last as the writer puts it;
    delta-rs leaves no newline after the last line."""
    body = lines + [ci] if w.ci_last else [ci] + lines
    write_log_file(table, version,
                   "\n".join(body) + ("\n" if w.newline_at_end else ""))


def slot_order(g, total):
    return genlib.slot_order(g.r, total)


def pick_writer(g, weights=(("databricks", 45), ("spark", 20), ("delta-rs", 20),
                            ("delta-rs-py", 7), ("other-jvm", 8))):
    x = g.r.random() * sum(wt for _, wt in weights)
    for name, wt in weights:
        x -= wt
        if x < 0:
            return writer(name)
    return writer(weights[-1][0])


def writer(name):
    """The writer `name`, or the first one allowed by --writers."""
    allowed = KNOBS["writers"]
    return WRITERS[name if not allowed or name in allowed else allowed[0]]


class Fingerprint:
    """What bench.mjs's W1 fingerprint computes, computed here."""

    def __init__(self):
        self.files = []            # "version action path"
        self.commits = []          # "version operation[ blind]"
        self.size_sum = 0
        self.records_sum = 0
        self.counts = {"add": 0, "remove": 0, "cdc": 0, "commitInfo": 0,
                       "protocol": 0, "metaData": 0, "domainMetadata": 0, "txn": 0}

    def file(self, version, action, path, size, records):
        self.files.append((version, action, path.encode("utf-8")))
        self.counts[action] += 1
        if size is not None:
            self.size_sum += size
        if records is not None:
            self.records_sum += records

    def commit(self, version, op, blind):
        self.commits.append("%d %s%s" % (version, op, " blind" if blind else ""))
        self.counts["commitInfo"] += 1

    def oracle(self):
        files = sorted(self.files)
        return {
            "files_md5": hashlib.md5(b"\n".join(b"%d %s %s" % (v, a.encode(), p)
                                                for v, a, p in files)).hexdigest(),
            "size_sum": self.size_sum, "records_sum": self.records_sum,
            "commits_md5": hashlib.md5("\n".join(self.commits).encode()).hexdigest(),
        }


# ---------------------------------------------------------------- W1

def gen_w1(out, seed, commits=100, per_commit=1000, removes=50):
    name = "w1"
    table = fresh_table(out, name)
    g = Gen(seed * 7 + 1)
    r = g.r
    slots = slot_order(g, commits * per_commit)
    active = []                   # File objects, active
    nslot = 0
    fp = Fingerprint()
    table_id = g.uuid()
    evolve_at = commits * 4 // 10
    has_note = False
    for v in range(commits):
        ms = BASE_TIME_MS + v * 3600000 + r.randrange(1000)
        kind = v % 10
        if v == 0:
            w = writer("databricks")
            op, blind = "CREATE OR REPLACE TABLE AS SELECT", False
        elif v == evolve_at:
            w, op, blind = writer("databricks"), "MERGE", False
        elif kind == 3:
            w, op, blind = writer(r.choice(["databricks", "spark"])), "UPDATE", False
        elif kind == 5:
            w, op, blind = writer(r.choice(["delta-rs", "delta-rs-py"])), "MERGE", False
        elif kind == 7:
            w, op, blind = pick_writer(g), "MERGE", False
        elif v % 20 == 11:
            w, op, blind = writer("databricks"), "OPTIMIZE", False
        elif kind == 9:
            w, op, blind = writer("databricks"), "STREAMING UPDATE", True
        else:
            w, op, blind = pick_writer(g), "WRITE", True
        if w.name.startswith("delta-rs"):
            blind = None                          # delta-rs writes no isBlindAppend
        lines = []
        if v == 0:
            lines += header_lines(w, g, table_id, ms)
            fp.counts["metaData"] += 1
            fp.counts["protocol"] += 1
            fp.counts["domainMetadata"] += 1
        if v == evolve_at:
            has_note = True
            lines.append(metadata_line(w, g, table_id, BASE_TIME_MS, True))
            fp.counts["metaData"] += 1
        nrem = 0
        dv_updates = []
        if op in ("UPDATE", "MERGE", "OPTIMIZE") and v > 0:
            n = removes * (2 if op == "OPTIMIZE" else 1)
            for _ in range(n):
                i = r.randrange(len(active))
                active[i], active[-1] = active[-1], active[i]
                f = active.pop()
                if op == "UPDATE":
                    dv_updates.append(f)
                    continue
                line, size, rec = remove_line(w, f, ms, r, data_change=op != "OPTIMIZE",
                                              dv=f.dv)
                lines.append(line)
                fp.file(v, "remove", f.path, size, rec)
                nrem += 1
        # DV updates: remove the logical file, add it again with a new DV.
        for f in dv_updates:
            line, size, rec = remove_line(w, f, ms, r, dv=f.dv)
            lines.append(line)
            fp.file(v, "remove", f.path, size, rec)
            nrem += 1
            f.dv = g.dv()
            lines.append(add_line(w, f, r))
            fp.file(v, "add", f.path, f.size, f.num_records())
            active.append(f)
        nadd = per_commit - len(dv_updates)
        for k in range(nadd):
            lw = w if (r.random() < 0.97 or without("mixed")) else pick_writer(g)
            f = g.file(lw.name, k, slots[nslot], ms, has_note, liquid=v == 0)
            nslot += 1
            lines.append(add_line(lw, f, r, data_change=op != "OPTIMIZE"))
            fp.file(v, "add", f.path, f.size, f.num_records())
            active.append(f)
        if op == "UPDATE":
            for _ in range(3):
                line, size = cdc_line(w, g, ms)
                lines.append(line)
                path = json.loads(line)["cdc"]["path"]
                fp.file(v, "cdc", path, size, None)
        if op == "STREAMING UPDATE":
            lines.append(w.line.enc({"txn": {"appId": "3ba13872-2d47-4e17-86a0-21afd2a22395",
                                             "version": v, "lastUpdated": ms}}))
            fp.counts["txn"] += 1
        ci, opname, bl = commit_info(w, g, v, ms, op, blind, per_commit, nrem,
                                     engine=r.choice(ENGINES[w.name]))
        fp.commit(v, opname, bl)
        write_commit(table, v, w, ci, lines)
    counts = fp.counts
    fa = counts["add"] + counts["remove"] + counts["cdc"]
    manifest = {"workload": "W1", "table": name, "commits": commits,
                "latest_version": commits - 1, "actions": counts,
                "num_actions": sum(counts.values()), "file_actions": fa,
                "active_files": len(active), "fingerprint": fp.oracle()}
    return manifest


# ---------------------------------------------------------------- W2

def gen_w2(out, seed, per_winner, winners=10, base_files=2000):
    name = "w2_%d" % per_winner
    table = fresh_table(out, name)
    g = Gen(seed * 7 + 2 + per_winner)
    r = g.r
    total = base_files + winners * per_winner + 64
    slots = slot_order(g, total)
    nslot = 0
    table_id = g.uuid()
    active = {}                                   # path -> File
    ms0 = BASE_TIME_MS

    def new_files(w, n, ms, has_note, mixed=0.03, liquid=False):
        nonlocal nslot
        out_ = []
        for k in range(n):
            lw = w if (r.random() >= mixed or without("mixed")) else pick_writer(g)
            f = g.file(lw.name, k, slots[nslot], ms, has_note, liquid=liquid)
            f_slot = slots[nslot]
            nslot += 1
            out_.append((lw, f, f_slot))
        return out_

    slot_of = {}

    def base_files_of(files):
        """Files of the versions up to the read version: active, with slots."""
        for _, f, s in files:
            active[f.path] = f
            slot_of[f.path] = s
        return files

    # v0: CTAS (Databricks), 1,200 files.
    w = writer("databricks")
    files = base_files_of(new_files(w, 1200, ms0, False, liquid=True))
    lines = header_lines(w, g, table_id, ms0) + [add_line(lw, f, r) for lw, f, _ in files]
    ci, _, _ = commit_info(w, g, 0, ms0, "CREATE OR REPLACE TABLE AS SELECT", False, 1200, 0)
    write_commit(table, 0, w, ci, lines)
    # v1: ALTER TABLE ADD COLUMNS (note).
    ms = ms0 + 600000
    ci, _, _ = commit_info(w, g, 1, ms, "ADD COLUMNS", False, 0, 0)
    write_commit(table, 1, w, ci, [metadata_line(w, g, table_id, ms0, True)])
    # v2: a delta-rs append of 600 files with stats for note.
    ms = ms0 + 1200000
    w = writer("delta-rs")
    files = base_files_of(new_files(w, 600, ms, True, mixed=0))
    ci, _, _ = commit_info(w, g, 2, ms, "WRITE", None, 600, 0)
    write_commit(table, 2, w, ci, [add_line(lw, f, r) for lw, f, _ in files])
    # v3: a DELETE with deletion vectors on 40 files.
    ms = ms0 + 1800000
    w = writer("databricks")
    lines = []
    for f in r.sample(sorted(active.values(), key=lambda f: f.path), 40):
        lines.append(remove_line(w, f, ms, r, dv=f.dv)[0])
        f.dv = g.dv()
        lines.append(add_line(w, f, r))
    ci, _, _ = commit_info(w, g, 3, ms, "DELETE", False, 40, 40)
    write_commit(table, 3, w, ci, lines)
    # v4: a Spark MERGE adding 200 files.
    ms = ms0 + 2400000
    w = writer("spark")
    files = base_files_of(new_files(w, 200, ms, True))
    ci, _, _ = commit_info(w, g, 4, ms, "MERGE-INSERT", False, 200, 0)
    write_commit(table, 4, w, ci, [add_line(lw, f, r) for lw, f, _ in files])
    read_version = 4
    base = sorted(active.values(), key=lambda f: f.path)
    assert len(base) == base_files

    # The loser's three ranges, as gen.py draws them: each around the slot
    # of a random base file, overlapping four consecutive slots.
    ranges = []
    used = []
    while len(ranges) < 3:
        s = slot_of[base[r.randrange(len(base))].path] - 1
        if s < 0 or s + 3 >= total or any(abs(s - u) < 8 for u in used):
            continue
        used.append(s)
        ranges.append((s * SLOT_WIDTH + SLOT_WIDTH // 2,
                       (s + 3) * SLOT_WIDTH + SLOT_WIDTH // 4))
    read = [f for f in base if f.kept_by(ranges)]
    read_paths = set(f.path for f in read)
    unread = [f for f in base if f.path not in read_paths]

    # Winners.
    plan = ["databricks", "delta-rs", "spark", "stream", "delta-rs-py",
            "dv-update", "other-jvm", "databricks", "delta-rs", "spark"]
    expected = []
    winner_adds = 0
    for i in range(winners):
        v = read_version + 1 + i
        ms = ms0 + 3000000 + i * 60000
        kind = plan[i % len(plan)]
        lines = []
        nrem = 0
        if kind == "stream":
            w, op = writer("databricks"), "MERGE-INSERT"
        elif kind == "dv-update":
            w, op = writer("databricks"), "UPDATE"
        else:
            w, op = writer(kind), "MERGE-INSERT"
        if kind == "dv-update":
            for f in r.sample(unread, min(20, len(unread))):
                lines.append(remove_line(w, f, ms, r, dv=f.dv)[0])
                nrem += 1
                f.dv = g.dv()
                lines.append(add_line(w, f, r))
                winner_adds += 1
                if f.kept_by(ranges):
                    expected.append((v, f.path))
        for lw, f, _s in new_files(w, per_winner, ms, True):
            lines.append(add_line(lw, f, r))
            winner_adds += 1
            if f.kept_by(ranges):
                expected.append((v, f.path))
        if kind == "stream":
            lines.append(w.line.enc({"txn": {"appId": "f3d6b8a0-1c2e-4f5a-9b7c-000000000001",
                                             "version": 1000 + i, "lastUpdated": ms}}))
        ci, _, _ = commit_info(w, g, v, ms, op, None if w.name.startswith("delta-rs") else False,
                               per_winner, nrem)
        write_commit(table, v, w, ci, lines)

    # The loser: an UPDATE (Databricks) that read version 4 through the
    # ranges: removes every file it read (with its DV) and adds rewrites.
    lms = ms0 + 2700000
    w = writer("databricks")
    loser = [json.loads(commit_info(w, g, read_version + 1, lms, "UPDATE", False,
                                    len(read), len(read))[0])]
    loser[0]["commitInfo"]["readVersion"] = read_version
    loser[0]["commitInfo"]["operationParameters"] = {"predicate": json.dumps(
        ["(((id#1021L >= %d) AND (id#1021L <= %d)) OR ...)" % ranges[0]])}
    for f in read:
        loser.append(json.loads(remove_line(w, f, lms, r, dv=f.dv)[0]))
    for f in read:
        nf = g.file("databricks", 0, slot_of.get(f.path, 0), lms, True)
        loser.append(json.loads(add_line(w, nf, r)))
    with open(os.path.join(table, "loser_actions.json"), "w", encoding="utf-8") as fh:
        json.dump(loser, fh, separators=(",", ":"), ensure_ascii=False)
    expected.sort(key=lambda e: (e[0], e[1].encode("utf-8")))
    return genlib.w2_manifest(name, read_version, winners, per_winner, winner_adds,
                              ranges, [f.path for f in read], expected)


# ---------------------------------------------------------------- W4

def gen_w4(out, seed, nfiles):
    name = "w4_%d" % nfiles
    table = fresh_table(out, name)
    g = Gen(seed * 7 + 4 + nfiles)
    r = g.r
    slots = slot_order(g, nfiles)
    ms = BASE_TIME_MS
    w0 = writer("databricks")
    ci, _, _ = commit_info(w0, g, 0, ms, "CREATE OR REPLACE TABLE AS SELECT", False,
                           nfiles, 0)
    head = [ci] + header_lines(w0, g, g.uuid(), ms, device=False)
    p = log_path(table, 0)
    tmp = p + ".tmp"
    paths = []
    size_sum = 0
    records_sum = 0
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write("\n".join(head) + "\n")
        buf = []
        w = w0
        run = 0
        for i in range(nfiles):
            if run == 0:                          # the next run of lines
                w = pick_writer(g)
                run = 1 + int(r.expovariate(1 / 8.0))
            run -= 1
            f = g.file(w.name, i, slots[i], ms, False, liquid=True, device=False)
            if r.random() < 0.02 and not without("dv"):
                f.dv = g.dv()
            buf.append(add_line(w, f, r))
            paths.append(f.path.encode("utf-8"))
            size_sum += f.size
            if f.num_records() is not None:
                records_sum += f.nrec
            if len(buf) == 10000:
                fh.write("\n".join(buf) + "\n")
                buf = []
        if buf:
            fh.write("\n".join(buf) + "\n")
    os.replace(tmp, p)
    t = BASE_TIME_MS / 1000
    os.utime(p, (t, t))
    paths.sort()
    manifest = {"workload": "W4", "table": name, "latest_version": 0,
                "active_files": nfiles, "checkpoint": None,
                "fingerprint": {"paths_md5": hashlib.md5(b"\n".join(paths)).hexdigest(),
                                "size_sum": size_sum, "records_sum": records_sum}}
    return manifest


# ---------------------------------------------------------------- main

EXTRA = {"family": "variety", "generator": "bench/gen_variety.py"}


def configure(args):
    """--writers / --without: a variant of the family (see KNOBS)."""
    if args.writers:
        ws = args.writers.split(",")
        for w in ws:
            if w not in WRITERS:
                sys.exit("gen_variety.py: unknown writer %s (%s)" % (w, ", ".join(WRITERS)))
        KNOBS["writers"] = ws
    if args.without:
        vs = frozenset(args.without.split(","))
        if not vs <= set(VARIATIONS):
            sys.exit("gen_variety.py: --without takes %s" % ",".join(VARIATIONS))
        KNOBS["without"] = vs
    if args.writers or args.without:
        EXTRA["variant"] = {"writers": args.writers, "without": args.without}


def main():
    return genlib.main(__doc__, __file__, "data-variety", SEED, (gen_w1, gen_w2, gen_w4),
                       EXTRA, " (variety)",
                       (("--writers", "only these writers' layouts: " + ",".join(WRITERS)),
                        ("--without", "leave out these variations: " + ",".join(VARIATIONS))),
                       configure)


if __name__ == "__main__":
    sys.exit(main())
