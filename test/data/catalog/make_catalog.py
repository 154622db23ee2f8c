#!/usr/bin/env python3
"""Generate the Delta tables of the catalog suites (test/sql/catalog.sql and
the isolation specs of test/specs/).

Run from anywhere: python3 test/data/catalog/make_catalog.py
It rewrites the tables below next to this script.  Output is deterministic;
the generated files are committed.  The suites never write here: they copy
the tables to a scratch directory first (the catalog publishes into
_delta_log).

Tables (all JSON logs; no data files, the suites check the log):
  plain    protocol (1, 2), one long column "id", unpartitioned, version 0
           adds a.parquet (id 0..99) and b.parquet (id 100..199) with
           statistics, version 1 appends c.parquet (id 200..299) blind
  cm       catalog-managed (reader/writer feature catalogManaged) with
           in-commit timestamps (delta.enableInCommitTimestamps), version 0
           adds a.parquet (id 0..99)
  rt       row tracking (writer features domainMetadata, rowTracking),
           version 0 adds a.parquet (rows 0..99, baseRowId 0) and
           b.parquet (rows 100..199, baseRowId 100), high-water mark 199;
           version 1 re-adds nothing, it adds c.parquet (baseRowId 200,
           50 rows, high-water mark 249) and sets app transaction "app" to 1
  part     partitioned by "region" (string), one long column "id",
           version 0 adds region=EU/e0.parquet and region=US/u0.parquet
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def line(obj):
    return json.dumps(obj, separators=(",", ":"))


def commit(table, version, actions):
    path = os.path.join(HERE, table, "_delta_log", "%020d.json" % version)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line(a) + "\n" for a in actions))


def schema(*cols):
    return json.dumps({"type": "struct", "fields": [
        {"name": n, "type": t, "nullable": True, "metadata": {}} for n, t in cols]},
        separators=(",", ":"))


def stats(n, lo, hi):
    return json.dumps({"numRecords": n, "minValues": {"id": lo},
                       "maxValues": {"id": hi}, "nullCount": {"id": 0}},
                      separators=(",", ":"))


def add(path, n, lo, hi, pv=None, **extra):
    a = {"path": path, "partitionValues": pv or {}, "size": 1000,
         "modificationTime": 1700000000000, "dataChange": True,
         "stats": stats(n, lo, hi)}
    a.update(extra)
    return {"add": a}


def info(op, ts, blind, txn, **extra):
    c = {"timestamp": ts, "operation": op, "operationParameters": {},
         "isBlindAppend": blind, "txnId": txn}
    c.update(extra)
    return {"commitInfo": c}


def metadata(table_id, cols, config=None, partition=None):
    return {"metaData": {"id": table_id, "format": {"provider": "parquet", "options": {}},
                         "schemaString": schema(*cols),
                         "partitionColumns": partition or [],
                         "configuration": config or {},
                         "createdTime": 1700000000000}}


def main():
    for t in ("plain", "cm", "rt", "part"):
        shutil.rmtree(os.path.join(HERE, t), ignore_errors=True)

    commit("plain", 0, [
        info("CREATE TABLE", 1700000000000, False, "plain-0"),
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
        metadata("11111111-1111-1111-1111-111111111111", [("id", "long")]),
        add("a.parquet", 100, 0, 99),
        add("b.parquet", 100, 100, 199),
    ])
    commit("plain", 1, [
        info("WRITE", 1700000001000, True, "plain-1", readVersion=0),
        add("c.parquet", 100, 200, 299),
    ])

    commit("cm", 0, [
        info("CREATE TABLE", 1700000000000, False, "cm-0",
             inCommitTimestamp=1700000000000),
        {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                      "readerFeatures": ["catalogManaged"],
                      "writerFeatures": ["catalogManaged", "inCommitTimestamp"]}},
        metadata("22222222-2222-2222-2222-222222222222", [("id", "long")],
                 {"delta.enableInCommitTimestamps": "true"}),
        add("a.parquet", 100, 0, 99),
    ])

    commit("rt", 0, [
        info("CREATE TABLE", 1700000000000, False, "rt-0"),
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 7,
                      "writerFeatures": ["domainMetadata", "rowTracking"]}},
        metadata("33333333-3333-3333-3333-333333333333", [("id", "long")],
                 {"delta.enableRowTracking": "true"}),
        add("a.parquet", 100, 0, 99, baseRowId=0, defaultRowCommitVersion=0),
        add("b.parquet", 100, 100, 199, baseRowId=100, defaultRowCommitVersion=0),
        {"domainMetadata": {"domain": "delta.rowTracking",
                            "configuration": line({"rowIdHighWaterMark": 199,
                                                   "domainName": "delta.rowTracking"}),
                            "removed": False}},
    ])
    commit("rt", 1, [
        info("WRITE", 1700000001000, True, "rt-1", readVersion=0),
        {"txn": {"appId": "app", "version": 1, "lastUpdated": 1700000001000}},
        add("c.parquet", 50, 200, 249, baseRowId=200, defaultRowCommitVersion=1),
        {"domainMetadata": {"domain": "delta.rowTracking",
                            "configuration": line({"rowIdHighWaterMark": 249,
                                                   "domainName": "delta.rowTracking"}),
                            "removed": False}},
    ])

    commit("part", 0, [
        info("CREATE TABLE", 1700000000000, False, "part-0"),
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
        metadata("44444444-4444-4444-4444-444444444444",
                 [("id", "long"), ("region", "string")], partition=["region"]),
        add("region=EU/e0.parquet", 10, 0, 9, {"region": "EU"}),
        add("region=US/u0.parquet", 10, 10, 19, {"region": "US"}),
    ])


if __name__ == "__main__":
    main()
