#!/usr/bin/env python3
"""Generate the fixtures of test/sql/catalog_safety.sql (what a reader of a
catalog-managed table must not trust).

Run from anywhere: python3 test/data/catalog_safety/make_catalog_safety.py
It rewrites the files below next to this script.  Output is deterministic;
the generated files are committed.  The suite copies them to a scratch
directory first (it commits, publishes and deletes files there).

  ck       one long column "id", unpartitioned; its JSON commit 0 is cleaned
           up: a (JSON, V2) checkpoint at version 1 holds a.parquet (id
           0..99), b.parquet (id 100..199) and c.parquet (id 200..299), and
           commit 1 (the blind append of c.parquet) is still there, with
           _last_checkpoint pointing at version 1
  rogue/   what a writer that bypassed the catalog leaves in ck's
           _delta_log: checkpoints at versions 2 and 3 that hold only
           a.parquet and rogue.parquet (id 1000..1099), as if versions 2
           and 3 were other commits than the ones the catalog ratified, and
           a _last_checkpoint pointing at version 3
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE_ID = "66666666-6666-6666-6666-666666666666"


def line(obj):
    return json.dumps(obj, separators=(",", ":"))


def write(path, actions):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line(a) + "\n" for a in actions))


def stats(n, lo, hi):
    return line({"numRecords": n, "minValues": {"id": lo},
                 "maxValues": {"id": hi}, "nullCount": {"id": 0}})


def add(path, n, lo, hi):
    return {"add": {"path": path, "partitionValues": {}, "size": 1000,
                    "modificationTime": 1700000000000, "dataChange": True,
                    "stats": stats(n, lo, hi)}}


PROTOCOL = {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}
METADATA = {"metaData": {
    "id": TABLE_ID, "format": {"provider": "parquet", "options": {}},
    "schemaString": line({"type": "struct", "fields": [
        {"name": "id", "type": "long", "nullable": True, "metadata": {}}]}),
    "partitionColumns": [], "configuration": {},
    "createdTime": 1700000000000}}


def checkpoint(dirname, version, uuid, files):
    name = "%020d.checkpoint.%s.json" % (version, uuid)
    write(os.path.join(dirname, name),
          [{"checkpointMetadata": {"version": version}}, PROTOCOL, METADATA] + files)


def last_checkpoint(dirname, version, size):
    with open(os.path.join(dirname, "_last_checkpoint"), "w", encoding="utf-8") as f:
        f.write(line({"version": version, "size": size}) + "\n")


def main():
    for d in ("ck", "rogue"):
        shutil.rmtree(os.path.join(HERE, d), ignore_errors=True)

    log = os.path.join(HERE, "ck", "_delta_log")
    write(os.path.join(log, "%020d.json" % 1), [
        {"commitInfo": {"timestamp": 1700000001000, "operation": "WRITE",
                        "operationParameters": {}, "isBlindAppend": True,
                        "txnId": "ck-1", "readVersion": 0}},
        add("c.parquet", 100, 200, 299),
    ])
    checkpoint(log, 1, "0d6f4c1e-3b2a-4f5e-8d7c-1a2b3c4d5e01", [
        add("a.parquet", 100, 0, 99),
        add("b.parquet", 100, 100, 199),
        add("c.parquet", 100, 200, 299),
    ])
    last_checkpoint(log, 1, 6)

    rogue = os.path.join(HERE, "rogue")
    for v, uuid in ((2, "7e1a2b3c-4d5e-4f60-9a7b-8c9d0e1f2a02"),
                    (3, "7e1a2b3c-4d5e-4f60-9a7b-8c9d0e1f2a03")):
        checkpoint(rogue, v, uuid, [
            add("a.parquet", 100, 0, 99),
            add("rogue.parquet", 100, 1000, 1099),
        ])
    last_checkpoint(rogue, 3, 5)


if __name__ == "__main__":
    main()
