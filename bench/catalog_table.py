#!/usr/bin/env python3
"""bench/catalog_table.py DIR: version 0 of the coordinator benchmark's
Delta table in DIR (8 key slots: slot s is one file of ids s*1000 ..
s*1000+999, with statistics), and an empty _delta_log/_staged_commits."""
import json, os, sys
d = os.path.join(sys.argv[1], "_delta_log")
os.makedirs(os.path.join(d, "_staged_commits"))
schema = json.dumps({"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}}]})
acts = [{"commitInfo": {"operation": "WRITE", "txnId": "init", "isBlindAppend": True}},
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
        {"metaData": {"id": "bench", "format": {"provider": "parquet", "options": {}},
                      "schemaString": schema, "partitionColumns": [],
                      "configuration": {}, "createdTime": 1700000000000}}]
for s in range(8):
    acts.append({"add": {"path": "s%d-0.parquet" % s, "partitionValues": {}, "size": 1000,
                         "modificationTime": 1700000000000, "dataChange": True,
                         "stats": json.dumps({"numRecords": 1000, "minValues": {"id": s * 1000},
                                              "maxValues": {"id": s * 1000 + 999},
                                              "nullCount": {"id": 0}})}})
with open(os.path.join(d, "%020d.json" % 0), "w") as f:
    f.write("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in acts))
