#!/usr/bin/env python3
"""Writes test/data/lazyio/path_order: one commit whose add lines come in no
order, with paths that share long prefixes, end inside one another, hold
UTF-8 and bytes above 0x7f, and one path twice (with and without a deletion
vector), for the order of snapshot_files' rows (lazy_reread.sql)."""
import json, os, random

here = os.path.dirname(os.path.abspath(__file__))
log = os.path.join(here, "path_order", "_delta_log")
os.makedirs(log, exist_ok=True)
schema = {"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}}]}
paths = ["a", "ab", "abcdefgh", "abcdefghi", "abcdefghijklmno",
         "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopA",
         "abcdefghijklmnop/x", "abcdefghijklmnop-", "abcdefghijklmnoq",
         "abcdefgh\u00e9", "abcdefghZ", "Z", "~", "\u00e9t\u00e9/part-0",
         "\u00ff", "\u4e2d/part", "part-00001", "part-000010", "part-0000",
         "part-00001-aaaaaaaaaaaa", "part-00001-aaaaaaaaaaab",
         "x/y/z/part-00001-aaaaaaaa", "x/y/z/part-00001-aaaaaaa",
         "dv.parquet"]
random.seed(7)
random.shuffle(paths)
lines = [{"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                       "readerFeatures": ["deletionVectors"],
                       "writerFeatures": ["deletionVectors"]}},
         {"metaData": {"id": "path-order-fixture",
                       "format": {"provider": "parquet", "options": {}},
                       "schemaString": json.dumps(schema),
                       "partitionColumns": [], "configuration": {},
                       "createdTime": 1700000000000}}]
for i, p in enumerate(paths):
    lines.append({"add": {"path": p, "partitionValues": {}, "size": 100 + i,
                          "modificationTime": 1700000000000,
                          "dataChange": True,
                          "stats": json.dumps({"numRecords": 10})}})
lines.insert(5, {"add": {"path": "dv.parquet", "partitionValues": {},
                         "size": 1, "modificationTime": 1700000000000,
                         "dataChange": True,
                         "deletionVector": {"storageType": "u",
                                            "pathOrInlineDv": "ab^-aqEH.-t@S}K{vb[*k^",
                                            "offset": 4, "sizeInBytes": 40,
                                            "cardinality": 2}}})
with open(os.path.join(log, "00000000000000000000.json"), "w") as f:
    for l in lines:
        f.write(json.dumps(l, ensure_ascii=False) + "\n")
