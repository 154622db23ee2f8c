#!/usr/bin/env python3
"""Make the hostile inputs of the test/sql/hostile_*.sql suites.

    make_hostile.py fixtures OUT   mutations of the small table below: OUT/<case>/
    make_hostile.py real OUT TABLES
                                   mutations of copies of the real Delta tables
                                   in TABLES: OUT/<mutation>@<table>/
    make_hostile.py big OUT N      one table whose single commit adds N files

Everything is deterministic (fixed seeds, sorted listings), written at test
time into a scratch directory (never into the repository: the real tables
must not be copied into it, and symlinks/FIFOs do not belong in git), and
made world-readable, because the server runs as another OS user.

The base table is written here, byte for byte: four commits of a table
partitioned by region with statistics, a deletion vector file ("u"), an
inline deletion vector ("i"), a txn, a domainMetadata and a v2 JSON
checkpoint.  Each case copies it and breaks one thing.
"""
import json
import os
import random
import shutil
import stat
import struct
import sys
import uuid
import zlib

LOG = "_delta_log"
DV_UUID = "a2084964-69d4-4e1e-95f5-9bbd6571d5c3"
CKPT_UUID = "3a0d65cd-4056-49b8-937b-95f9e3ee90e5"
Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def cname(v):
    return "%020d.json" % v


def line(obj):
    return json.dumps(obj, separators=(",", ":"))


def z85(data):
    data = data + b"\0" * (-len(data) % 4)
    out = []
    for i in range(0, len(data), 4):
        v = struct.unpack(">I", data[i:i + 4])[0]
        out.append("".join(Z85[(v // 85 ** k) % 85] for k in range(4, -1, -1)))
    return "".join(out)


def roaring_array(values):
    """Standard portable Roaring bitmap: one array container (key 0)."""
    out = struct.pack("<II", 12346, 1)
    out += struct.pack("<HH", 0, len(values) - 1)
    out += struct.pack("<I", len(out) + 4)
    out += b"".join(struct.pack("<H", v) for v in values)
    return out


def dv_bitmap(values, n_buckets=None):
    """Delta's RoaringBitmapArray, portable layout, one bucket."""
    return struct.pack("<Iq", 1681511377, 1 if n_buckets is None else n_buckets) + \
        struct.pack("<I", 0) + roaring_array(values)


def dv_frame(bitmap, crc=None):
    return struct.pack(">i", len(bitmap)) + bitmap + \
        struct.pack(">I", zlib.crc32(bitmap) if crc is None else crc)


SCHEMA = json.dumps({"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}},
    {"name": "name", "type": "string", "nullable": True, "metadata": {}},
    {"name": "region", "type": "string", "nullable": True, "metadata": {}}]},
    separators=(",", ":"))

DV_BITMAP = dv_bitmap([2, 7])
DV_FILE = b"\x01" + dv_frame(DV_BITMAP)
DV_U = {"storageType": "u", "pathOrInlineDv": z85(uuid.UUID(DV_UUID).bytes),
        "offset": 1, "sizeInBytes": len(DV_BITMAP), "cardinality": 2}
INLINE_BITMAP = dv_bitmap([0, 3, 9])
DV_I = {"storageType": "i", "pathOrInlineDv": z85(INLINE_BITMAP),
        "sizeInBytes": len(INLINE_BITMAP), "cardinality": 3}


def stats(n, lo, hi):
    return line({"numRecords": n, "minValues": {"id": lo, "name": "a"},
                 "maxValues": {"id": hi, "name": "z"},
                 "nullCount": {"id": 0, "name": 0}})


def add(path, region, n, lo, hi, dv=None):
    a = {"path": path, "partitionValues": {"region": region}, "size": 1000 + n,
         "modificationTime": 1700000000000 + n, "dataChange": True,
         "stats": stats(n, lo, hi)}
    if dv is not None:
        a["deletionVector"] = dv
    return {"add": a}


def remove(path, region, n):
    return {"remove": {"path": path, "deletionTimestamp": 1700000500000,
                       "dataChange": True, "extendedFileMetadata": True,
                       "partitionValues": {"region": region}, "size": 1000 + n}}


def commit_info(ts, op):
    return {"commitInfo": {"timestamp": ts, "operation": op,
                           "operationParameters": {"mode": "Append"},
                           "isolationLevel": "Serializable",
                           "isBlindAppend": op == "WRITE",
                           "engineInfo": "deltacc-hostile/1.0"}}


PROTOCOL = {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                         "readerFeatures": ["deletionVectors"],
                         "writerFeatures": ["deletionVectors", "domainMetadata"]}}
METADATA = {"metaData": {"id": "0b0e7a1e-0000-4000-8000-00000000beef",
                         "name": "hostile", "format": {"provider": "parquet", "options": {}},
                         "schemaString": SCHEMA, "partitionColumns": ["region"],
                         "configuration": {"delta.enableDeletionVectors": "true"},
                         "createdTime": 1700000000000}}

BASE_COMMITS = [
    [commit_info(1700000000000, "WRITE"), PROTOCOL, METADATA,
     add("region=EU/part-0.parquet", "EU", 10, 0, 9),
     add("region=US/part-1.parquet", "US", 10, 10, 19)],
    [commit_info(1700000100000, "DELETE"),
     remove("region=US/part-1.parquet", "US", 10),
     add("region=US/part-1.parquet", "US", 10, 10, 19, dv=DV_U),
     add("region=EU/part-2.parquet", "EU", 5, 20, 24)],
    [commit_info(1700000200000, "MERGE"),
     {"txn": {"appId": "app-1", "version": 7, "lastUpdated": 1700000200000}},
     {"domainMetadata": {"domain": "delta.rowTracking", "configuration": "{}", "removed": False}},
     remove("region=EU/part-0.parquet", "EU", 10),
     add("region=EU/part-0.parquet", "EU", 10, 0, 9, dv=DV_I)],
    [commit_info(1700000300000, "DELETE"),
     remove("region=EU/part-2.parquet", "EU", 5)],
]


def checkpoint_lines():
    """A v2 JSON checkpoint of version 2 (state after commits 0..2)."""
    return [
        {"checkpointMetadata": {"version": 2}},
        PROTOCOL, METADATA,
        {"txn": {"appId": "app-1", "version": 7, "lastUpdated": 1700000200000}},
        {"domainMetadata": {"domain": "delta.rowTracking", "configuration": "{}", "removed": False}},
        add("region=US/part-1.parquet", "US", 10, 10, 19, dv=DV_U),
        add("region=EU/part-2.parquet", "EU", 5, 20, 24),
        add("region=EU/part-0.parquet", "EU", 10, 0, 9, dv=DV_I),
    ]


CKPT_NAME = "%020d.checkpoint.%s.json" % (2, CKPT_UUID)
DV_NAME = "deletion_vector_%s.bin" % DV_UUID


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def write_base(t):
    for v, actions in enumerate(BASE_COMMITS):
        write(os.path.join(t, LOG, cname(v)), "".join(line(a) + "\n" for a in actions))
    write(os.path.join(t, LOG, CKPT_NAME), "".join(line(a) + "\n" for a in checkpoint_lines()))
    write(os.path.join(t, DV_NAME), DV_FILE)


def cpath(t, v):
    return os.path.join(t, LOG, cname(v))


def read(p):
    with open(p, "rb") as f:
        return f.read()


def lines_of(p):
    return read(p).split(b"\n")[:-1]


def set_lines(p, ls):
    write(p, b"".join(l + b"\n" for l in ls))


def edit_action(t, v, idx, fn):
    """Replace action idx of commit v by fn(parsed action) (a dict, or raw
    bytes/str to write as the line)."""
    p = cpath(t, v)
    ls = lines_of(p)
    new = fn(json.loads(ls[idx]))
    if isinstance(new, dict):
        new = line(new)
    ls[idx] = new.encode("utf-8") if isinstance(new, str) else new
    set_lines(p, ls)


def add_field(t, v, idx, key, value, kind="add"):
    def f(a):
        if value is DELETE:
            a[kind].pop(key, None)
        else:
            a[kind][key] = value
        return a
    edit_action(t, v, idx, f)


DELETE = object()


# ---------------------------------------------------------------------------
# The cases: name -> function(table dir, scratch dir)
# ---------------------------------------------------------------------------
CASES = {}


def case(name):
    def reg(fn):
        CASES[name] = fn
        return fn
    return reg


case("base")(lambda t, s: None)

# --- truncation, byte flips, deleted and injected lines ---
for cut in (1, 17, 100, 233, -1):
    def trunc(t, s, cut=cut):
        p = cpath(t, 1)
        d = read(p)
        write(p, d[:cut if cut > 0 else len(d) + cut])
    case("truncate_commit1_at_%s" % (cut if cut > 0 else "end-1"))(trunc)

case("truncate_commit0_empty")(lambda t, s: write(cpath(t, 0), b""))
for seed in range(12):
    def flip(t, s, seed=seed):
        rnd = random.Random(seed)
        v = seed % 4
        p = cpath(t, v)
        d = bytearray(read(p))
        for _ in range(1 + seed % 3):
            i = rnd.randrange(len(d))
            d[i] ^= 1 << rnd.randrange(8)
        write(p, bytes(d))
    case("byteflip_%02d" % seed)(flip)

for i in range(5):
    def dl(t, s, i=i):
        p = cpath(t, 0)
        ls = lines_of(p)
        del ls[i]
        set_lines(p, ls)
    case("delete_line_c0_%d" % i)(dl)

INJECT = {
    "open_brace": b"{",
    "array": b"[]",
    "null": b"null",
    "number": b"42",
    "string": b'"add"',
    "add_null": b'{"add":null}',
    "add_array": b'{"add":[1,2]}',
    "two_actions": b'{"add":{"path":"x","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true},"remove":{"path":"y","dataChange":true}}',
    "unknown_action": b'{"somethingNew":{"a":1}}',
    "empty_object": b"{}",
    "dup_keys": b'{"add":{"path":"a","path":"b","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}',
    "nul_byte": b'{"commitInfo":{"x":"a\x00b"}}',
    "control_char": b'{"commitInfo":{"x":"a\x01b"}}',
    "bom": b'\xef\xbb\xbf{"commitInfo":{}}',
    "second_protocol": line(PROTOCOL).encode(),
    "second_metadata": line(METADATA).encode(),
    "cr_only": b"\r",
    "comment": b"// comment",
    "trailing_comma": b'{"commitInfo":{"a":1,}}',
    "single_quotes": b"{'commitInfo':{}}",
    "nan_literal": b'{"commitInfo":{"a":NaN}}',
    "infinity": b'{"commitInfo":{"a":-Infinity}}',
}
for name, raw in INJECT.items():
    def inj(t, s, raw=raw):
        p = cpath(t, 1)
        ls = lines_of(p)
        ls.insert(1, raw)
        set_lines(p, ls)
    case("inject_%s" % name)(inj)

# --- invalid UTF-8 ---
UTF8 = {
    "lone_continuation": b"\x80",
    "overlong_slash": b"\xc0\xaf",
    "truncated_3byte": b"\xe2\x82",
    "surrogate_raw": b"\xed\xa0\x80",
    "above_10ffff": b"\xf4\x90\x80\x80",
    "ff_byte": b"\xff",
}
for name, bad in UTF8.items():
    def u8(t, s, bad=bad):
        p = cpath(t, 1)
        d = read(p)
        write(p, d.replace(b"region=EU/part-2.parquet", b"region=EU/part-2" + bad + b".parquet", 1))
    case("utf8_path_%s" % name)(u8)

    def u8k(t, s, bad=bad):
        p = cpath(t, 0)
        d = read(p)
        write(p, d.replace(b'"engineInfo"', b'"engine' + bad + b'Info"', 1))
    case("utf8_key_%s" % name)(u8k)

ESCAPES = {
    "lone_high_surrogate": "\\ud800",
    "lone_low_surrogate": "\\udc00",
    "reversed_surrogates": "\\udc00\\ud800",
    "nul_escape": "\\u0000",
    "bad_hex": "\\u12g4",
    "short_escape": "\\u12",
    "bad_escape": "\\q",
}
for name, esc in ESCAPES.items():
    def es(t, s, esc=esc):
        p = cpath(t, 1)
        d = read(p)
        write(p, d.replace(b"part-2.parquet", ("part-2" + esc + ".parquet").encode(), 1))
    case("escape_path_%s" % name)(es)

# --- deep nesting, huge numbers, giant lines ---
for where, depth in (("commitinfo", 100000), ("partition_values", 5000),
                     ("stats", 100000), ("configuration", 300), ("tags", 2000)):
    def deep(t, s, where=where, depth=depth):
        nest = "[" * depth + "]" * depth
        if where == "commitinfo":
            edit_action(t, 0, 0, lambda a: line(a)[:-2] + ',"deep":' + nest + "}}")
        elif where == "partition_values":
            edit_action(t, 1, 3, lambda a: line(a).replace('"partitionValues":{"region":"EU"}',
                                                           '"partitionValues":{"region":' + nest + "}"))
        elif where == "stats":
            add_field(t, 1, 3, "stats", '{"numRecords":5,"minValues":' + "{\"a\":" * depth + "1" + "}" * depth + "}")
        elif where == "configuration":
            edit_action(t, 0, 2, lambda a: line(a).replace('"configuration":{', '"configuration":{"deep":' + "{\"a\":" * depth + "1" + "}" * depth + ","))
        else:
            add_field(t, 1, 3, "tags", {"x": json.loads("[" * 20 + "]" * 20)} if depth < 0 else None)
            edit_action(t, 1, 3, lambda a: line(a).replace('"tags":null', '"tags":' + "{\"a\":" * depth + "{}" + "}" * depth))
    case("deep_%s_%d" % (where, depth))(deep)

HUGE = {
    "size_1e400": "1e400",
    "size_2p63": "9223372036854775808",
    "size_neg_2p63m1": "-9223372036854775809",
    "size_600_digits": "9" * 600,
    "size_neg_zero": "-0",
    "size_tiny_exp": "1e-400",
    "size_exp_huge": "1e999999999999999999999",
    "mtime_2p63": "9223372036854775807",
    "mtime_neg": "-9223372036854775808",
}
for name, num in HUGE.items():
    key = "size" if name.startswith("size") else "modificationTime"

    def hn(t, s, key=key, num=num):
        edit_action(t, 1, 3, lambda a: line(a).replace('"%s":%d' % (key, a["add"][key]),
                                                       '"%s":%s' % (key, num), 1))
    case("huge_%s" % name)(hn)

for name, num in (("numrecords_2p64", "18446744073709551616"), ("numrecords_neg", "-5"),
                  ("numrecords_1e30", "1e30"), ("min_id_1e400", None)):
    def hs(t, s, name=name, num=num):
        st = json.loads(stats(5, 20, 24))
        if num is None:
            text = line(st).replace('"id":20', '"id":1e400')
        else:
            text = line(st).replace('"numRecords":5', '"numRecords":' + num)
        add_field(t, 1, 3, "stats", text)
    case("stats_%s" % name)(hs)

for name, value in (("reader_2p31", "2147483648"), ("reader_neg", "-1"), ("writer_huge", "1" + "0" * 40),
                    ("reader_float", "3.0")):
    def hp(t, s, name=name, value=value):
        field = "minWriterVersion" if name.startswith("writer") else "minReaderVersion"
        edit_action(t, 0, 1, lambda a: line(a).replace('"%s":%d' % (field, a["protocol"][field]),
                                                       '"%s":%s' % (field, value)))
    case("protocol_%s" % name)(hp)

for name, value in (("version_2p63", "9223372036854775808"), ("version_neg", "-1"),
                    ("lastupdated_float", "1.5")):
    def ht(t, s, name=name, value=value):
        field = "lastUpdated" if name.startswith("last") else "version"
        edit_action(t, 2, 1, lambda a: line(a).replace('"%s":%d' % (field, a["txn"][field]),
                                                       '"%s":%s' % (field, value)))
    case("txn_%s" % name)(ht)

for mb in (1, 20):
    def giant(t, s, mb=mb):
        edit_action(t, 3, 0, lambda a: line(a)[:-2] + ',"giant":"' + "x" * (mb << 20) + '"}}')
    case("giant_line_%dmb" % mb)(giant)

case("giant_stats_4mb")(lambda t, s: add_field(t, 1, 3, "stats", '{"numRecords":5,"minValues":{"name":"' + "y" * (4 << 20) + '"}}'))
case("giant_path_1mb")(lambda t, s: add_field(t, 1, 3, "path", "p" * (1 << 20)))
case("many_keys_200k")(lambda t, s: add_field(t, 1, 3, "tags", {"k%d" % i: "v" for i in range(200000)}))
case("many_lines_100k_blank")(lambda t, s: write(cpath(t, 3), read(cpath(t, 3)) + b"\n" * 100000))
case("many_partition_values_100k")(lambda t, s: add_field(t, 1, 3, "partitionValues", {"c%d" % i: str(i) for i in range(100000)}))
case("no_trailing_newline")(lambda t, s: write(cpath(t, 3), read(cpath(t, 3)).rstrip(b"\n")))
case("crlf_lines")(lambda t, s: write(cpath(t, 1), read(cpath(t, 1)).replace(b"\n", b"\r\n")))

# --- wrong types and missing fields ---
WRONG = {"string": "12", "number": 12, "negative": -1, "float": 1.5, "bool": True,
         "null": None, "array": [1], "object": {"a": 1}}
ADD_FIELDS = ("path", "partitionValues", "size", "modificationTime", "dataChange",
              "stats", "tags", "deletionVector", "baseRowId", "defaultRowCommitVersion",
              "clusteringProvider")
for fld in ADD_FIELDS:
    for tname in ("string", "number", "negative", "null", "array", "object"):
        def wt(t, s, fld=fld, tname=tname):
            add_field(t, 1, 2 if fld == "deletionVector" else 3, fld, WRONG[tname])
        case("wrongtype_add_%s_%s" % (fld, tname))(wt)
    if fld in ("path", "partitionValues", "size", "modificationTime", "dataChange"):
        case("missing_add_%s" % fld)(lambda t, s, fld=fld: add_field(t, 1, 3, fld, DELETE))

for fld in ("storageType", "pathOrInlineDv", "offset", "sizeInBytes", "cardinality"):
    case("missing_dv_%s" % fld)(lambda t, s, fld=fld: edit_action(
        t, 1, 2, lambda a: (a["add"]["deletionVector"].pop(fld), a)[1]))
    for tname in ("string", "number", "negative", "null", "array", "float"):
        def wdv(t, s, fld=fld, tname=tname):
            def f(a):
                a["add"]["deletionVector"][fld] = WRONG[tname]
                return a
            edit_action(t, 1, 2, f)
        case("wrongtype_dv_%s_%s" % (fld, tname))(wdv)

for fld in ("path", "dataChange", "deletionTimestamp", "size", "partitionValues"):
    case("missing_remove_%s" % fld)(lambda t, s, fld=fld: add_field(t, 1, 1, fld, DELETE, "remove"))
    for tname in ("string", "array", "null"):
        case("wrongtype_remove_%s_%s" % (fld, tname))(
            lambda t, s, fld=fld, tname=tname: add_field(t, 1, 1, fld, WRONG[tname], "remove"))

for fld in ("id", "schemaString", "partitionColumns", "configuration", "format", "createdTime"):
    case("missing_metadata_%s" % fld)(lambda t, s, fld=fld: add_field(t, 0, 2, fld, DELETE, "metaData"))
    for tname in ("string", "number", "array", "object", "null"):
        case("wrongtype_metadata_%s_%s" % (fld, tname))(
            lambda t, s, fld=fld, tname=tname: add_field(t, 0, 2, fld, WRONG[tname], "metaData"))

SCHEMAS = {
    "not_json": "{not json",
    "not_struct": '{"type":"long"}',
    "fields_not_array": '{"type":"struct","fields":{}}',
    "field_no_type": '{"type":"struct","fields":[{"name":"id"}]}',
    "unknown_type": '{"type":"struct","fields":[{"name":"id","type":"quaternion","nullable":true,"metadata":{}}]}',
    "decimal_bad": '{"type":"struct","fields":[{"name":"id","type":"decimal(99,-3)","nullable":true,"metadata":{}}]}',
    "deep_struct": '{"type":"struct","fields":[' + '{"name":"a","type":{"type":"struct","fields":[' * 3000 + '{"name":"z","type":"long","nullable":true,"metadata":{}}' + ']},"nullable":true,"metadata":{}}' * 3000 + "]}",
    "dup_columns": '{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},{"name":"ID","type":"string","nullable":true,"metadata":{}}]}',
    "empty_name": '{"type":"struct","fields":[{"name":"","type":"long","nullable":true,"metadata":{}}]}',
    "partition_col_missing": None,
}
for name, sch in SCHEMAS.items():
    def sc(t, s, name=name, sch=sch):
        if sch is None:
            add_field(t, 0, 2, "partitionColumns", ["nope"], "metaData")
        else:
            add_field(t, 0, 2, "schemaString", sch, "metaData")
    case("schema_%s" % name)(sc)

for fld in ("minReaderVersion", "minWriterVersion"):
    case("missing_protocol_%s" % fld)(lambda t, s, fld=fld: add_field(t, 0, 1, fld, DELETE, "protocol"))
for fld in ("readerFeatures", "writerFeatures"):
    for tname in ("string", "number", "object", "null"):
        case("wrongtype_protocol_%s_%s" % (fld, tname))(
            lambda t, s, fld=fld, tname=tname: add_field(t, 0, 1, fld, WRONG[tname], "protocol"))
    case("protocol_%s_array_of_numbers" % fld)(lambda t, s, fld=fld: add_field(t, 0, 1, fld, [1, 2], "protocol"))
for fld in ("timestamp", "operation", "operationParameters", "isBlindAppend", "readVersion", "isolationLevel"):
    for tname in ("string", "array", "object", "null"):
        case("wrongtype_commitinfo_%s_%s" % (fld, tname))(
            lambda t, s, fld=fld, tname=tname: add_field(t, 1, 0, fld, WRONG[tname], "commitInfo"))
for fld in ("appId", "version"):
    case("missing_txn_%s" % fld)(lambda t, s, fld=fld: add_field(t, 2, 1, fld, DELETE, "txn"))
for fld in ("domain", "configuration", "removed"):
    case("missing_domain_%s" % fld)(lambda t, s, fld=fld: add_field(t, 2, 2, fld, DELETE, "domainMetadata"))
    case("wrongtype_domain_%s" % fld)(lambda t, s, fld=fld: add_field(t, 2, 2, fld, [1], "domainMetadata"))

# --- unknown reader features and protocol changes ---
case("unknown_reader_feature")(lambda t, s: add_field(t, 0, 1, "readerFeatures", ["deletionVectors", "fancyNewThing"], "protocol"))
case("unknown_writer_feature")(lambda t, s: add_field(t, 0, 1, "writerFeatures", ["fancyNewThing"], "protocol"))
case("reader_version_4")(lambda t, s: add_field(t, 0, 1, "minReaderVersion", 4, "protocol"))
case("reader_version_99")(lambda t, s: add_field(t, 0, 1, "minReaderVersion", 99, "protocol"))
case("reader_features_on_v1")(lambda t, s: add_field(t, 0, 1, "minReaderVersion", 1, "protocol"))
case("protocol_upgrade_unknown_later")(lambda t, s: set_lines(cpath(t, 3), lines_of(cpath(t, 3)) + [line(
    {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7, "readerFeatures": ["vacuumProtocolCheck2"],
                  "writerFeatures": []}}).encode()]))
case("column_mapping_id_no_ids")(lambda t, s: add_field(t, 0, 2, "configuration", {"delta.columnMapping.mode": "id"}, "metaData"))
case("column_mapping_bogus_mode")(lambda t, s: add_field(t, 0, 2, "configuration", {"delta.columnMapping.mode": "zzz"}, "metaData"))

# --- versions: gaps, duplicates, odd names, non-files ---
case("gap_missing_v1")(lambda t, s: os.unlink(cpath(t, 1)))
case("gap_missing_v0_no_checkpoint")(lambda t, s: (os.unlink(cpath(t, 0)), os.unlink(os.path.join(t, LOG, CKPT_NAME))))
case("gap_missing_v0_v1_with_checkpoint")(lambda t, s: (os.unlink(cpath(t, 0)), os.unlink(cpath(t, 1))))
case("only_checkpoint")(lambda t, s: [os.unlink(cpath(t, v)) for v in range(4)])
case("version_far_future")(lambda t, s: shutil.copy(cpath(t, 3), os.path.join(t, LOG, cname(10 ** 18))))
case("version_int64_max")(lambda t, s: shutil.copy(cpath(t, 3), os.path.join(t, LOG, "%020d.json" % (2 ** 63 - 1))))
case("version_21_digits")(lambda t, s: shutil.copy(cpath(t, 3), os.path.join(t, LOG, "%021d.json" % 4)))
case("version_short_name")(lambda t, s: shutil.copy(cpath(t, 3), os.path.join(t, LOG, "4.json")))
case("commit_is_directory")(lambda t, s: os.mkdir(os.path.join(t, LOG, cname(4))))
case("commit_unreadable")(lambda t, s: os.chmod(cpath(t, 3), 0))
case("delta_log_is_file")(lambda t, s: (shutil.rmtree(os.path.join(t, LOG)), write(os.path.join(t, LOG), b"x")))
case("delta_log_empty")(lambda t, s: (shutil.rmtree(os.path.join(t, LOG)), os.mkdir(os.path.join(t, LOG))))
case("table_root_missing")(lambda t, s: shutil.rmtree(t))
case("many_junk_files_3k")(lambda t, s: [write(os.path.join(t, LOG, "junk-%05d.json" % i), b"") for i in range(3000)])
case("checkpoint_names_junk")(lambda t, s: [write(os.path.join(t, LOG, n), b"junk") for n in (
    "%020d.checkpoint.0000000001.0000000000.parquet" % 1, "%020d.checkpoint.0000000002.0000000001.parquet" % 1,
    "%020d.checkpoint.zzzz.json" % 1, "%020d.checkpoint.parquet" % 99)])

# --- symlinks and special files ---
case("symlink_commit_to_etc_passwd")(lambda t, s: (os.unlink(cpath(t, 3)), os.symlink("/etc/passwd", cpath(t, 3))))
case("symlink_commit_to_dev_zero")(lambda t, s: (os.unlink(cpath(t, 3)), os.symlink("/dev/zero", cpath(t, 3))))
case("symlink_commit_to_dev_null")(lambda t, s: (os.unlink(cpath(t, 3)), os.symlink("/dev/null", cpath(t, 3))))
case("symlink_commit_dangling")(lambda t, s: (os.unlink(cpath(t, 3)), os.symlink("/nonexistent/deltacc", cpath(t, 3))))
case("symlink_commit_loop")(lambda t, s: (os.unlink(cpath(t, 3)), os.symlink(cname(3), cpath(t, 3))))
case("symlink_commit_to_directory")(lambda t, s: (os.unlink(cpath(t, 3)), os.symlink("/", cpath(t, 3))))
case("fifo_commit")(lambda t, s: (os.unlink(cpath(t, 3)), os.mkfifo(cpath(t, 3))))
case("fifo_last_checkpoint")(lambda t, s: os.mkfifo(os.path.join(t, LOG, "_last_checkpoint")))
case("fifo_checkpoint")(lambda t, s: (os.unlink(os.path.join(t, LOG, CKPT_NAME)), os.mkfifo(os.path.join(t, LOG, CKPT_NAME)),
                                      os.unlink(cpath(t, 0))))
case("fifo_dv_file")(lambda t, s: (os.unlink(os.path.join(t, DV_NAME)), os.mkfifo(os.path.join(t, DV_NAME))))
case("symlink_dv_to_dev_zero")(lambda t, s: (os.unlink(os.path.join(t, DV_NAME)), os.symlink("/dev/zero", os.path.join(t, DV_NAME))))


def out_of_table(t, s):
    """_delta_log is a symlink to another table's log outside the root."""
    other = os.path.join(s, "outside-log")
    if not os.path.exists(other):
        write_base(other)
    shutil.rmtree(os.path.join(t, LOG))
    os.symlink(os.path.join(other, LOG), os.path.join(t, LOG))


case("symlink_delta_log_out_of_table")(out_of_table)
case("symlink_delta_log_to_root")(lambda t, s: (shutil.rmtree(os.path.join(t, LOG)), os.symlink("/", os.path.join(t, LOG))))
case("symlink_dv_out_of_table")(lambda t, s: (shutil.move(os.path.join(t, DV_NAME), os.path.join(s, "outside-" + DV_NAME)),
                                              os.symlink(os.path.join(s, "outside-" + DV_NAME), os.path.join(t, DV_NAME))))

# --- hostile paths in add.path / remove.path ---
PATHS = {
    "absolute_etc_passwd": "/etc/passwd",
    "dotdot_etc_passwd": "../../../../../../etc/passwd",
    "dotdot_inside": "region=EU/../region=EU/part-2.parquet",
    "dotdot_encoded": "%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "slash_encoded": "..%2f..%2f..%2fetc%2fpasswd",
    "file_uri": "file:///etc/passwd",
    "file_uri_host": "file://otherhost/etc/passwd",
    "file_uri_relative": "file:relative/path",
    "s3_uri": "s3://bucket/key.parquet",
    "empty": "",
    "percent_bad": "part%zz.parquet",
    "percent_nul": "part%00.parquet",
    "just_dot": ".",
    "just_slash": "/",
    "trailing_slash": "region=EU/",
    "double_slash": "region=EU//part-2.parquet",
    "backslashes": "..\\..\\etc\\passwd",
    "very_long": "a/" * 5000 + "f.parquet",
    "newline": "part\n2.parquet",
}
for name, pth in PATHS.items():
    def hp_(t, s, pth=pth):
        add_field(t, 1, 3, "path", pth)
    case("path_%s" % name)(hp_)
case("remove_path_dotdot")(lambda t, s: add_field(t, 3, 1, "path", "../../../etc/passwd", "remove"))

# --- deletion vectors ---
DVS = {
    "offset_past_end": {"offset": 10 ** 6},
    "offset_int32_max": {"offset": 2 ** 31 - 1},
    "offset_negative": {"offset": -5},
    "offset_zero": {"offset": 0},
    "size_too_big": {"sizeInBytes": len(DV_BITMAP) + 1},
    "size_too_small": {"sizeInBytes": 4},
    "size_zero": {"sizeInBytes": 0},
    "size_negative": {"sizeInBytes": -8},
    "size_int32_max": {"sizeInBytes": 2 ** 31 - 1},
    "size_2p31": {"sizeInBytes": 2 ** 31},
    "cardinality_wrong": {"cardinality": 3},
    "cardinality_huge": {"cardinality": 2 ** 62},
    "cardinality_negative": {"cardinality": -1},
    "cardinality_zero": {"cardinality": 0},
    "storage_type_x": {"storageType": "x"},
    "storage_type_long": {"storageType": "uu"},
    "storage_type_empty": {"storageType": ""},
    "u_bad_z85": {"pathOrInlineDv": "~~~~~~~~~~~~~~~~~~~~"},
    "u_short": {"pathOrInlineDv": "abc"},
    "u_prefix_dotdot": {"pathOrInlineDv": "../" + DV_U["pathOrInlineDv"]},
    "u_prefix_slash": {"pathOrInlineDv": "/etc" + DV_U["pathOrInlineDv"]},
    "u_missing_file": {"pathOrInlineDv": z85(uuid.UUID(int=1).bytes)},
    "p_etc_passwd": {"storageType": "p", "pathOrInlineDv": "file:///etc/passwd"},
    "p_relative": {"storageType": "p", "pathOrInlineDv": "../" + DV_NAME},
    "p_s3": {"storageType": "p", "pathOrInlineDv": "s3://b/k.bin"},
    "p_bad_escape": {"storageType": "p", "pathOrInlineDv": "file:///tmp/%zz"},
    "i_garbage": {"storageType": "i", "pathOrInlineDv": "!!!!!"},
    "i_empty": {"storageType": "i", "pathOrInlineDv": "", "sizeInBytes": 0},
    "i_size_mismatch": {"storageType": "i", "pathOrInlineDv": DV_I["pathOrInlineDv"], "sizeInBytes": 400},
}
for name, change in DVS.items():
    def dvm(t, s, change=change):
        def f(a):
            a["add"]["deletionVector"].update(change)
            return a
        edit_action(t, 1, 2, f)
    case("dv_%s" % name)(dvm)


def dv_file(data):
    return lambda t, s: write(os.path.join(t, DV_NAME), data)


def dv_frame_bad_len(bitmap, n):
    return struct.pack(">i", n) + bitmap + struct.pack(">I", zlib.crc32(bitmap))


case("dvfile_bad_crc")(dv_file(b"\x01" + dv_frame(DV_BITMAP, crc=0xdeadbeef)))
case("dvfile_bad_version")(dv_file(b"\x02" + dv_frame(DV_BITMAP)))
case("dvfile_empty")(dv_file(b""))
case("dvfile_truncated")(dv_file(DV_FILE[:len(DV_FILE) // 2]))
case("dvfile_size_word_huge")(dv_file(b"\x01" + dv_frame_bad_len(DV_BITMAP, 2 ** 31 - 1)))
case("dvfile_size_word_negative")(dv_file(b"\x01" + dv_frame_bad_len(DV_BITMAP, -1)))
BOGUS_BITMAPS = {
    "bucket_count_huge": struct.pack("<Iq", 1681511377, 2 ** 62) + DV_BITMAP[12:],
    "bucket_count_negative": struct.pack("<Iq", 1681511377, -1) + DV_BITMAP[12:],
    "bad_magic": struct.pack("<Iq", 1234, 1) + DV_BITMAP[12:],
    "container_count_huge": DV_BITMAP[:16] + struct.pack("<II", 12346, 2 ** 31),
    "container_count_65537": DV_BITMAP[:16] + struct.pack("<II", 12346, 65537) + DV_BITMAP[24:],
    "container_card_huge": DV_BITMAP[:16] + struct.pack("<IIHH", 12346, 1, 0, 65535) + DV_BITMAP[28:],
    "container_offset_past_end": DV_BITMAP[:16] + struct.pack("<IIHHI", 12346, 1, 0, 1, 10 ** 6) + DV_BITMAP[32:],
    "run_cookie_bogus": DV_BITMAP[:16] + struct.pack("<I", 12347 | (65535 << 16)) + DV_BITMAP[20:],
    "unsorted_values": dv_bitmap([7, 2]),
    "duplicate_values": dv_bitmap([2, 2]),
    "native_huge_count": struct.pack("<Ii", 1681511376, 2 ** 31 - 1) + DV_BITMAP[12:],
    "buckets_unsorted": struct.pack("<Iq", 1681511377, 2) + struct.pack("<I", 5) + roaring_array([1]) +
    struct.pack("<I", 1) + roaring_array([1]),
}
for name, bm in BOGUS_BITMAPS.items():
    def bb(t, s, bm=bm):
        write(os.path.join(t, DV_NAME), b"\x01" + dv_frame(bm))

        def f(a):
            a["add"]["deletionVector"]["sizeInBytes"] = len(bm)
            return a
        edit_action(t, 1, 2, f)
    case("roaring_%s" % name)(bb)

    def bi(t, s, bm=bm):
        def f(a):
            a["add"]["deletionVector"]["pathOrInlineDv"] = z85(bm)
            a["add"]["deletionVector"]["sizeInBytes"] = len(bm)
            return a
        edit_action(t, 2, 4, f)
    case("inline_roaring_%s" % name)(bi)

# --- checkpoints and _last_checkpoint ---
LASTCK = {
    "nowhere": '{"version":999,"size":3}',
    "points_to_v1": '{"version":1,"size":3}',
    "negative": '{"version":-1}',
    "huge": '{"version":9223372036854775807,"parts":2147483647}',
    "not_json": "not json at all",
    "parts_huge": '{"version":2,"parts":1000000000}',
    "empty": "",
    "deep": "[" * 100000,
    "string_version": '{"version":"2"}',
}
for name, text in LASTCK.items():
    def lc(t, s, text=text):
        write(os.path.join(t, LOG, "_last_checkpoint"), text)
        os.unlink(cpath(t, 0))
        os.unlink(cpath(t, 1))
    case("last_checkpoint_%s" % name)(lc)
case("last_checkpoint_directory")(lambda t, s: os.mkdir(os.path.join(t, LOG, "_last_checkpoint")))
case("last_checkpoint_giant")(lambda t, s: write(os.path.join(t, LOG, "_last_checkpoint"), b" " * (2 << 20) + b'{"version":2}'))


def ckpt_edit(fn):
    def f(t, s):
        p = os.path.join(t, LOG, CKPT_NAME)
        fn(p)
        os.unlink(cpath(t, 0))
        os.unlink(cpath(t, 1))
    return f


case("checkpoint_json_alone")(ckpt_edit(lambda p: None))
case("checkpoint_json_truncated")(ckpt_edit(lambda p: write(p, read(p)[:200])))
case("checkpoint_json_flipped")(ckpt_edit(lambda p: write(p, read(p).replace(b'"add"', b'"adx"', 1))))
case("checkpoint_json_missing_protocol")(ckpt_edit(lambda p: set_lines(p, [l for l in lines_of(p) if b'"protocol"' not in l])))
case("checkpoint_json_sidecar_escape")(ckpt_edit(lambda p: set_lines(p, lines_of(p) + [
    line({"sidecar": {"path": "../../../../etc/passwd", "sizeInBytes": 10, "modificationTime": 1}}).encode()])))
case("checkpoint_json_sidecar_missing")(ckpt_edit(lambda p: set_lines(p, lines_of(p) + [
    line({"sidecar": {"path": "nope.parquet", "sizeInBytes": 10, "modificationTime": 1}}).encode()])))
case("checkpoint_json_sidecar_absolute")(ckpt_edit(lambda p: set_lines(p, lines_of(p) + [
    line({"sidecar": {"path": "/etc/passwd", "sizeInBytes": 10, "modificationTime": 1}}).encode()])))
case("checkpoint_parquet_garbage")(lambda t, s: (write(os.path.join(t, LOG, "%020d.checkpoint.parquet" % 1), b"PAR1garbagePAR1"),
                                                  os.unlink(cpath(t, 0))))
case("checkpoint_parquet_empty")(lambda t, s: (write(os.path.join(t, LOG, "%020d.checkpoint.parquet" % 1), b""),
                                                os.unlink(cpath(t, 0))))
case("checkpoint_parquet_footer_len_huge")(lambda t, s: (write(os.path.join(t, LOG, "%020d.checkpoint.parquet" % 1),
                                                               b"PAR1" + b"\0" * 16 + struct.pack("<I", 2 ** 32 - 1) + b"PAR1"),
                                                         os.unlink(cpath(t, 0))))
case("checkpoint_multipart_incomplete")(lambda t, s: (write(os.path.join(t, LOG, "%020d.checkpoint.0000000001.0000000003.parquet" % 1), b"PAR1xxxxPAR1"),
                                                       os.unlink(cpath(t, 0))))


def make_fixtures(out):
    scratch = os.path.join(out, ".scratch")
    os.makedirs(scratch, exist_ok=True)
    for name in sorted(CASES):
        t = os.path.join(out, name)
        if os.path.lexists(t):
            shutil.rmtree(t)
        write_base(t)
        CASES[name](t, scratch)


# ---------------------------------------------------------------------------
# Mutations of the real tables
# ---------------------------------------------------------------------------
def commits_of(log):
    return sorted(n for n in os.listdir(log) if len(n) == 25 and n.endswith(".json") and n[:20].isdigit())


def checkpoints_of(log):
    return sorted(n for n in os.listdir(log) if ".checkpoint." in n and n[:20].isdigit())


def dv_files_of(t):
    found = []
    for root, dirs, files in os.walk(t):
        dirs[:] = sorted(d for d in dirs if d != LOG)
        for f in sorted(files):
            if f.startswith("deletion_vector_") and f.endswith(".bin"):
                found.append(os.path.join(root, f))
    return found


def flip_bytes(p, rnd, n):
    d = bytearray(read(p))
    if not d:
        return
    for _ in range(n):
        i = rnd.randrange(len(d))
        d[i] ^= 1 << rnd.randrange(8)
    write(p, bytes(d))


def m_truncate_last(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    p = os.path.join(t, LOG, c[-1])
    d = read(p)
    write(p, d[:rnd.randrange(max(1, len(d)))])
    return True


def m_flip_last(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    flip_bytes(os.path.join(t, LOG, c[-1]), rnd, 3)
    return True


def m_flip_every_commit(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    for n in c:
        flip_bytes(os.path.join(t, LOG, n), rnd, 1)
    return bool(c)


def m_delete_line(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    p = os.path.join(t, LOG, c[rnd.randrange(len(c))])
    ls = lines_of(p)
    if ls:
        del ls[rnd.randrange(len(ls))]
    set_lines(p, ls)
    return True


def m_duplicate_line(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    p = os.path.join(t, LOG, c[-1])
    ls = lines_of(p)
    if ls:
        i = rnd.randrange(len(ls))
        ls.insert(i, ls[i])
    set_lines(p, ls)
    return True


def m_swap_commits(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if len(c) < 2:
        return False
    a, b = os.path.join(t, LOG, c[0]), os.path.join(t, LOG, c[-1])
    da, db = read(a), read(b)
    write(a, db)
    write(b, da)
    return True


def m_remove_middle_commit(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if len(c) < 3:
        return False
    os.unlink(os.path.join(t, LOG, c[len(c) // 2]))
    return True


def m_remove_first_commits(t, rnd):
    """Force reading from the checkpoint: drop every commit at or before it."""
    log = os.path.join(t, LOG)
    ck = checkpoints_of(log)
    if not ck:
        return False
    v = int(ck[-1][:20])
    for n in commits_of(log):
        if int(n[:20]) <= v:
            os.unlink(os.path.join(log, n))
    return True


def m_ckpt(fn):
    def m(t, rnd):
        log = os.path.join(t, LOG)
        ck = checkpoints_of(log)
        if not ck:
            return False
        m_remove_first_commits(t, rnd)
        for n in ck:
            fn(os.path.join(log, n), rnd)
        return True
    return m


def ck_truncate(p, rnd):
    d = read(p)
    write(p, d[:rnd.randrange(max(1, len(d)))])


def ck_flip_footer(p, rnd):
    d = bytearray(read(p))
    for _ in range(4):
        if len(d) > 8:
            i = len(d) - 8 - rnd.randrange(min(len(d) - 8, 512))
            d[i] ^= 1 << rnd.randrange(8)
    write(p, bytes(d))


def ck_footer_len(p, rnd):
    d = bytearray(read(p))
    if len(d) >= 8:
        d[-8:-4] = struct.pack("<I", rnd.choice([0, 1, len(d), len(d) - 7, 2 ** 31 - 1, 2 ** 32 - 1]))
    write(p, bytes(d))


def ck_flip_body(p, rnd):
    flip_bytes(p, rnd, 16)


def ck_zero_middle(p, rnd):
    d = bytearray(read(p))
    if len(d) > 64:
        a = rnd.randrange(4, len(d) // 2)
        d[a:a + 32] = b"\0" * 32
    write(p, bytes(d))


def m_last_checkpoint_nowhere(t, rnd):
    write(os.path.join(t, LOG, "_last_checkpoint"), '{"version":%d,"size":10}' % (10 ** 6))
    return True


def m_dv(fn):
    def m(t, rnd):
        dvs = dv_files_of(t)
        for p in dvs:
            fn(p, rnd)
        return bool(dvs)
    return m


def dv_bad_crc(p, rnd):
    d = bytearray(read(p))
    if len(d) > 5:
        d[-1] ^= 0xFF
    write(p, bytes(d))


def dv_flip_header(p, rnd):
    d = bytearray(read(p))
    if len(d) > 24:
        i = rnd.randrange(1, 24)
        d[i] ^= 1 << rnd.randrange(8)
    write(p, bytes(d))


def dv_container_count(p, rnd):
    """Overwrite the first Roaring header's container count (the frame's
    CRC is recomputed so the bitmap decoder itself sees the lie)."""
    d = bytearray(read(p))
    if len(d) < 1 + 4 + 20 + 4:
        return
    size = struct.unpack(">i", d[1:5])[0]
    bm = bytearray(d[5:5 + size])
    if len(bm) >= 20:
        bm[16:20] = struct.pack("<I", rnd.choice([12346 | 0, 12347 | (65535 << 16)]))
        if len(bm) >= 24 and bm[16:18] == b"\x3a\x30":
            bm[20:24] = struct.pack("<I", 2 ** 31 - 1)
    d[5:5 + size] = bm
    d[5 + size:9 + size] = struct.pack(">I", zlib.crc32(bytes(bm)))
    write(p, bytes(d))


def dv_truncate(p, rnd):
    d = read(p)
    write(p, d[:len(d) // 2])


def dv_remove(p, rnd):
    os.unlink(p)


def m_unknown_reader_feature(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    p = os.path.join(t, LOG, c[-1])
    ls = lines_of(p)
    ls.append(line({"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                                 "readerFeatures": ["futureFeature"], "writerFeatures": ["futureFeature"]}}).encode())
    set_lines(p, ls)
    return True


def m_paths_escape(t, rnd):
    """Every add/remove path of the last commit becomes ../-escaping, or absolute."""
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    p = os.path.join(t, LOG, c[-1])
    out = []
    for i, l in enumerate(lines_of(p)):
        try:
            a = json.loads(l)
        except ValueError:
            out.append(l)
            continue
        for k in ("add", "remove"):
            if k in a and isinstance(a[k], dict) and "path" in a[k]:
                a[k]["path"] = "../../../../etc/passwd" if i % 2 else "/etc/passwd"
        out.append(line(a).encode())
    set_lines(p, out)
    return True


def m_symlink_log_file_out(t, rnd):
    c = commits_of(os.path.join(t, LOG))
    if not c:
        return False
    p = os.path.join(t, LOG, c[-1])
    os.unlink(p)
    os.symlink("/etc/hostname" if os.path.exists("/etc/hostname") else "/etc/passwd", p)
    return True


REAL_MUTATIONS = {
    "truncate_last": m_truncate_last,
    "flip_last": m_flip_last,
    "flip_every_commit": m_flip_every_commit,
    "delete_line": m_delete_line,
    "duplicate_line": m_duplicate_line,
    "swap_commits": m_swap_commits,
    "gap": m_remove_middle_commit,
    "checkpoint_only": m_remove_first_commits,
    "ckpt_truncate": m_ckpt(ck_truncate),
    "ckpt_flip_footer": m_ckpt(ck_flip_footer),
    "ckpt_footer_len": m_ckpt(ck_footer_len),
    "ckpt_flip_body": m_ckpt(ck_flip_body),
    "ckpt_zero_middle": m_ckpt(ck_zero_middle),
    "last_checkpoint_nowhere": m_last_checkpoint_nowhere,
    "dv_bad_crc": m_dv(dv_bad_crc),
    "dv_flip_header": m_dv(dv_flip_header),
    "dv_container_count": m_dv(dv_container_count),
    "dv_truncate": m_dv(dv_truncate),
    "dv_missing": m_dv(dv_remove),
    "unknown_reader_feature": m_unknown_reader_feature,
    "paths_escape": m_paths_escape,
    "symlink_commit_out": m_symlink_log_file_out,
}


def make_real(out, tables):
    names = sorted(n for n in os.listdir(tables) if os.path.isdir(os.path.join(tables, n, LOG)))
    for mi, (mname, fn) in enumerate(sorted(REAL_MUTATIONS.items())):
        for ti, tname in enumerate(names):
            rnd = random.Random("%s/%s" % (mname, tname))
            t = os.path.join(out, "%s@%s" % (mname, tname))
            if os.path.lexists(t):
                shutil.rmtree(t)
            shutil.copytree(os.path.join(tables, tname), t, symlinks=True)
            if not fn(t, rnd):
                shutil.rmtree(t)


def make_big(out, n):
    """One commit adding n files (about 90 bytes a line)."""
    t = os.path.join(out, "big")
    log = os.path.join(t, LOG)
    os.makedirs(log, exist_ok=True)
    head = [commit_info(1700000000000, "WRITE"),
            {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
            {"metaData": dict(METADATA["metaData"], partitionColumns=[], configuration={})}]
    with open(os.path.join(log, cname(0)), "w") as f:
        for a in head:
            f.write(line(a) + "\n")
        tmpl = '{"add":{"path":"f%d.parquet","partitionValues":{},"size":%d,"modificationTime":1700000000000,"dataChange":true}}\n'
        chunk = []
        for i in range(n):
            chunk.append(tmpl % (i, 100 + i % 1000))
            if len(chunk) == 10000:
                f.write("".join(chunk))
                chunk = []
        f.write("".join(chunk))


def make_readable(out):
    for root, dirs, files in os.walk(out):
        for d in dirs:
            p = os.path.join(root, d)
            if not os.path.islink(p):
                os.chmod(p, 0o755)
        for f in files:
            p = os.path.join(root, f)
            if os.path.islink(p) or not os.path.exists(p):
                continue
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode) and st.st_mode & 0o777 != 0:
                os.chmod(p, 0o644)
    os.chmod(out, 0o755)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if mode == "fixtures":
        make_fixtures(out)
    elif mode == "real":
        if len(sys.argv) > 3 and sys.argv[3] and os.path.isdir(sys.argv[3]):
            make_real(out, sys.argv[3])
    elif mode == "big":
        make_big(out, int(sys.argv[3]))
    elif mode == "list":
        for name in sorted(CASES):
            print(name)
        return
    else:
        sys.exit(__doc__)
    make_readable(out)


if __name__ == "__main__":
    main()
