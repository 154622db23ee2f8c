#!/usr/bin/env python3
"""Generate the hand-designed Delta log fixtures of the foundation tests.

Run from anywhere: python3 test/data/make_fixtures.py
It rewrites test/data/log/ (good tables) and test/data/bad/ (one malformed
case per table).  Output is deterministic; the generated files are committed
so the tests never need Python.
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def line(obj):
    return json.dumps(obj, separators=(",", ":"))


def write(path, content, binary=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content if binary else content.encode("utf-8"))


def commit(table, version, actions, raw_lines=None):
    text = "".join(line(a) + "\n" for a in actions)
    if raw_lines:
        text += "".join(l + "\n" for l in raw_lines)
    write(os.path.join(table, "_delta_log", "%020d.json" % version), text)


SCHEMA = json.dumps({"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}},
    {"name": "amount", "type": "decimal(38,0)", "nullable": True, "metadata": {}},
    {"name": "region", "type": "string", "nullable": True, "metadata": {}}]},
    separators=(",", ":"))


def ci(ts, op, blind, read_version=None, params=None, **extra):
    c = {"timestamp": ts, "operation": op, "operationParameters": params or {},
         "isolationLevel": "Serializable", "isBlindAppend": blind,
         "engineInfo": "deltacc-fixture/1.0"}
    if read_version is not None:
        c["readVersion"] = read_version
    c.update(extra)
    return {"commitInfo": c}


def protocol(r, w, rf=None, wf=None):
    p = {"minReaderVersion": r, "minWriterVersion": w}
    if rf is not None:
        p["readerFeatures"] = rf
    if wf is not None:
        p["writerFeatures"] = wf
    return {"protocol": p}


def metadata(config=None, pcols=("region",), created=1700000000000):
    return {"metaData": {"id": "f0e1d2c3-0000-4000-8000-000000000001",
                         "name": "sales", "description": None,
                         "format": {"provider": "parquet", "options": {}},
                         "schemaString": SCHEMA, "partitionColumns": list(pcols),
                         "configuration": config or {}, "createdTime": created}}


def add(path, region, size, nrec, mn, mx, mtime=1700000100000, dv=None, extra=None):
    stats = ('{"numRecords":%d,"minValues":{"id":%s,"amount":%s},'
             '"maxValues":{"id":%s,"amount":%s},"nullCount":{"id":0,"amount":0}}'
             % (nrec, mn[0], mn[1], mx[0], mx[1]))
    a = {"path": path, "partitionValues": {"region": region}, "size": size,
         "modificationTime": mtime, "dataChange": True, "stats": stats}
    if dv is not None:
        a["deletionVector"] = dv
        a["stats"] = stats[:-1] + ',"tightBounds":false}'
    if extra:
        a.update(extra)
    return {"add": a}


def good_tables():
    root = os.path.join(HERE, "log")
    shutil.rmtree(root, ignore_errors=True)

    # --- sales: a small partitioned table exercising every action -------
    t = os.path.join(root, "sales")
    commit(t, 0, [ci(1700000000000, "CREATE TABLE", True, params={"partitionBy": "[\"region\"]"}),
                  protocol(1, 2), metadata({"delta.appendOnly": "false"})])
    commit(t, 1, [ci(1700000100000, "WRITE", True, 0, {"mode": "Append"}),
                  add("region=EU/part-00000-a.parquet", "EU", 1000, 10, ("1", "5"),
                      ("10", "12345678901234567890123")),
                  add("region=US/part-00000-b.parquet", "US", 2000, 20, ("11", "-99999999999999999999999999999999999999"),
                      ("30", "99999999999999999999999999999999999999")),
                  add("region=__HIVE_DEFAULT_PARTITION__/part-00000-c.parquet", None, 3000, 5,
                      ("31", "0"), ("35", "1.5E+3"))])
    dv = {"storageType": "u", "pathOrInlineDv": "ab^-aqEH.-t@S}K{vb[*k^",
          "offset": 1, "sizeInBytes": 36, "cardinality": 2}
    commit(t, 2, [ci(1700000200000, "DELETE", False, 1, {"predicate": "[\"(id = 3)\"]"}),
                  {"remove": {"path": "region=EU/part-00000-a.parquet", "deletionTimestamp": 1700000200000,
                              "dataChange": True, "extendedFileMetadata": True,
                              "partitionValues": {"region": "EU"}, "size": 1000}},
                  add("region=EU/part-00000-a.parquet", "EU", 1000, 10, ("1", "5"),
                      ("10", "12345678901234567890123"), mtime=1700000100000, dv=dv,
                      extra={"baseRowId": 0, "defaultRowCommitVersion": 1})])
    commit(t, 3, [ci(1700000300000, "STREAMING UPDATE", True, 2, {"outputMode": "Append"},
                     futureField={"nested": [1, 2, 3]}),
                  {"txn": {"appId": "stream-1", "version": 7, "lastUpdated": 1700000300000}},
                  {"txn": {"appId": "stream-2", "version": 1}},
                  {"domainMetadata": {"domain": "delta.rowTracking",
                                      "configuration": "{\"rowIdHighWaterMark\":34}", "removed": False}},
                  {"cdc": {"path": "_change_data/cdc-00000.parquet", "partitionValues": {"region": "US"},
                           "size": 120, "dataChange": False}},
                  {"someFutureAction": {"whatever": True}},
                  add("region=US/part-00001-d%20e.parquet", "US", 4000, 40, ("36", "7"), ("75", "8"),
                      extra={"tags": {"INSERTION_TIME": "1700000300000000"}, "unknownField": 1})])
    commit(t, 4, [ci(1700000400000, "SET TBLPROPERTIES", False, 3,
                     {"properties": "{\"delta.enableDeletionVectors\":\"true\"}"}),
                  protocol(3, 7, ["deletionVectors"], ["deletionVectors", "domainMetadata"]),
                  metadata({"delta.appendOnly": "false", "delta.enableDeletionVectors": "true"}),
                  {"remove": {"path": "region=__HIVE_DEFAULT_PARTITION__/part-00000-c.parquet",
                              "deletionTimestamp": 1700000400000}},
                  {"domainMetadata": {"domain": "delta.rowTracking",
                                      "configuration": "{\"rowIdHighWaterMark\":34}", "removed": True}}])
    crc = {"tableSizeBytes": 1000 + 2000 + 4000, "numFiles": 3, "numMetadata": 1, "numProtocol": 1}
    write(os.path.join(t, "_delta_log", "%020d.crc" % 4), json.dumps(crc) + "\n")
    # things a lister must ignore
    write(os.path.join(t, "_delta_log", ".%020d.json.crc" % 1), "not a commit\n")
    write(os.path.join(t, "_delta_log", ".%020d.json.tmp" % 5), "{\"add\":\n")
    write(os.path.join(t, "_delta_log", "%020d.json.tmp" % 5), "garbage\n")
    write(os.path.join(t, "_delta_log", "_commits", "%020d.7d1c4a8e-0000-4000-8000-000000000000.json" % 5),
          "garbage\n")
    write(os.path.join(t, "_delta_log", "README.txt"), "ignored\n")
    write(os.path.join(t, "_delta_log", "%020d.%020d.compacted.json" % (0, 1)), "garbage\n")

    # --- checkpointed: JSON commits before 11 are gone ---------------------
    t = os.path.join(root, "checkpointed")
    write(os.path.join(t, "_delta_log", "%020d.checkpoint.parquet" % 10), "PAR1 placeholder\n")
    write(os.path.join(t, "_delta_log", "%020d.checkpoint.%010d.%010d.parquet" % (5, 1, 2)), "x")
    write(os.path.join(t, "_delta_log", "%020d.checkpoint.%010d.%010d.parquet" % (5, 2, 2)), "x")
    write(os.path.join(t, "_delta_log", "%020d.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json" % 8), "{}\n")
    write(os.path.join(t, "_delta_log", "_last_checkpoint"), '{"version":10,"size":13}')
    commit(t, 11, [ci(1700001100000, "WRITE", True, 10),
                   add("part-00011.parquet", None, 11, 1, ("1", "1"), ("1", "1"))])
    commit(t, 12, [ci(1700001200000, "WRITE", True, 11),
                   add("part-00012.parquet", None, 12, 1, ("2", "2"), ("2", "2"))])

    # --- corrupt _last_checkpoint is tolerated -----------------------------
    t = os.path.join(root, "corrupt_last_checkpoint")
    commit(t, 0, [ci(1700000000000, "CREATE TABLE", True), protocol(1, 2), metadata(pcols=())])
    write(os.path.join(t, "_delta_log", "_last_checkpoint"), '{"version":')

    # --- gap: version 2 is missing -----------------------------------------
    t = os.path.join(root, "gap")
    commit(t, 0, [ci(1700000000000, "CREATE TABLE", True), protocol(1, 2), metadata(pcols=())])
    commit(t, 1, [ci(1700000100000, "WRITE", True, 0)])
    commit(t, 3, [ci(1700000300000, "WRITE", True, 2)])

    # --- empty _delta_log ----------------------------------------------------
    os.makedirs(os.path.join(root, "empty", "_delta_log"), exist_ok=True)
    write(os.path.join(root, "empty", "_delta_log", ".keep"), "")
    # --- not a Delta table ---------------------------------------------------
    write(os.path.join(root, "not_delta", "part-00000.parquet"), "x")


BASE = [ci(1700000000000, "CREATE TABLE", True), protocol(1, 2), metadata(pcols=())]

GOOD_ADD = ('{"add":{"path":"p.parquet","partitionValues":{},"size":1,'
            '"modificationTime":1,"dataChange":true}}')

BAD = {
    # name: (raw lines of version 1, description)
    "truncated_line": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1'],
    "not_json": ["this is not JSON"],
    "not_object": ["[1,2,3]"],
    "trailing_garbage": [GOOD_ADD + " x"],
    "invalid_utf8": None,  # written as bytes below
    "nul_escape": ['{"add":{"path":"p\\u0000.parquet","partitionValues":{},"size":1,'
                   '"modificationTime":1,"dataChange":true}}'],
    "deep_nesting": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1,'
                     '"modificationTime":1,"dataChange":true,"tags":' + "[" * 200 + "]" * 200 + "}}"],
    "add_missing_path": ['{"add":{"partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}'],
    "add_missing_size": ['{"add":{"path":"p.parquet","partitionValues":{},"modificationTime":1,"dataChange":true}}'],
    "add_size_string": ['{"add":{"path":"p.parquet","partitionValues":{},"size":"12",'
                        '"modificationTime":1,"dataChange":true}}'],
    "add_size_fraction": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1.5,'
                          '"modificationTime":1,"dataChange":true}}'],
    "add_size_huge": ['{"add":{"path":"p.parquet","partitionValues":{},"size":99999999999999999999,'
                      '"modificationTime":1,"dataChange":true}}'],
    "add_size_negative": ['{"add":{"path":"p.parquet","partitionValues":{},"size":-1,'
                          '"modificationTime":1,"dataChange":true}}'],
    "add_datachange_string": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1,'
                              '"modificationTime":1,"dataChange":"true"}}'],
    "add_partition_values_array": ['{"add":{"path":"p.parquet","partitionValues":[],"size":1,'
                                   '"modificationTime":1,"dataChange":true}}'],
    "add_partition_value_object": ['{"add":{"path":"p.parquet","partitionValues":{"a":{}},"size":1,'
                                   '"modificationTime":1,"dataChange":true}}'],
    "dv_bad_storage_type": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1,'
                            '"modificationTime":1,"dataChange":true,"deletionVector":'
                            '{"storageType":"uu","pathOrInlineDv":"x","sizeInBytes":1,"cardinality":1}}}'],
    "dv_missing_cardinality": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1,'
                               '"modificationTime":1,"dataChange":true,"deletionVector":'
                               '{"storageType":"u","pathOrInlineDv":"x","sizeInBytes":1}}}'],
    "remove_missing_path": ['{"remove":{"deletionTimestamp":1,"dataChange":true}}'],
    "metadata_missing_schema": ['{"metaData":{"id":"x","format":{"provider":"parquet","options":{}},'
                                '"partitionColumns":[],"configuration":{}}}'],
    "metadata_partition_columns_number": ['{"metaData":{"id":"x","format":{"provider":"parquet"},'
                                          '"schemaString":"{}","partitionColumns":[1],"configuration":{}}}'],
    "protocol_reader_zero": ['{"protocol":{"minReaderVersion":0,"minWriterVersion":2}}'],
    "protocol_version_huge": ['{"protocol":{"minReaderVersion":4294967296,"minWriterVersion":2}}'],
    "txn_version_string": ['{"txn":{"appId":"a","version":"1"}}'],
    "domain_missing_removed": ['{"domainMetadata":{"domain":"d","configuration":"{}"}}'],
    "unknown_reader_feature": ['{"protocol":{"minReaderVersion":3,"minWriterVersion":7,'
                               '"readerFeatures":["teleportation"],"writerFeatures":["teleportation"]}}'],
    "reader_version_4": ['{"protocol":{"minReaderVersion":4,"minWriterVersion":7}}'],
    "bad_stats_ignored": ['{"add":{"path":"p.parquet","partitionValues":{},"size":1,'
                          '"modificationTime":1,"dataChange":true,"stats":"{not json"}}'],
}


def bad_tables():
    root = os.path.join(HERE, "bad")
    shutil.rmtree(root, ignore_errors=True)
    for name, lines in BAD.items():
        t = os.path.join(root, name)
        commit(t, 0, BASE)
        if lines is None:
            continue
        write(os.path.join(t, "_delta_log", "%020d.json" % 1),
              line(ci(1700000100000, "WRITE", False, 0)) + "\n" + "".join(l + "\n" for l in lines))
    # invalid UTF-8 inside a string value
    t = os.path.join(root, "invalid_utf8")
    write(os.path.join(t, "_delta_log", "%020d.json" % 1),
          (line(ci(1700000100000, "WRITE", False, 0)) + "\n").encode() +
          b'{"add":{"path":"p\xff\xfe.parquet","partitionValues":{},"size":1,'
          b'"modificationTime":1,"dataChange":true}}\n', binary=True)
    # version 0 without protocol / metaData
    t = os.path.join(root, "no_protocol")
    commit(t, 0, [ci(1700000000000, "CREATE TABLE", True), metadata(pcols=())])
    t = os.path.join(root, "no_metadata")
    commit(t, 0, [ci(1700000000000, "CREATE TABLE", True), protocol(1, 2)])
    # a commit file larger than a small deltacc.max_log_file_bytes
    t = os.path.join(root, "big_commit")
    commit(t, 0, BASE + [{"add": {"path": "p%04d.parquet" % i, "partitionValues": {}, "size": 1,
                                  "modificationTime": 1, "dataChange": True}} for i in range(40)])
    # a version number that does not fit in 64 bits
    t = os.path.join(root, "version_overflow")
    commit(t, 0, BASE)
    write(os.path.join(t, "_delta_log", "99999999999999999999.json"), GOOD_ADD + "\n")


if __name__ == "__main__":
    good_tables()
    bad_tables()
