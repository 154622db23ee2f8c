#!/usr/bin/env python3
"""Generate the small Delta logs under test/data/skipping/ (deterministic).

Run from anywhere: python3 test/data/skipping/generate.py
Only _delta_log/*.json files are written; the data files they name do not
exist (the predicate tests never read them).

Tables:
  ids10        unpartitioned, id long 0..999 in 10 files of 100 ids
               (reference §5.1 test fixture); version 1 adds 1000..1099
  ids10_part   the same rows partitioned by p (all p=0) plus one file in p=1
  ids10_nostat delta.dataSkippingNumIndexedCols=0: numRecords-only stats
  colmap       column mapping 'name': nested struct, physical names in
               stats and partitionValues, a partition column with a space
  writer_nan   a double column d (1.0 .. 7.5 in every file but one) whose
               files come from commits of different writers and operations
               (reference §3.6): Spark WRITE (twice, once with commitInfo
               as the last line), delta-rs, no engineInfo, Spark RESTORE,
               a Spark DELETE that re-adds a file with a deletion vector
               and adds a new one, a Spark file whose max d is NaN; version
               8 removes every file
  writer_nan_ckpt
               Spark WRITEs of a.parquet (v0), b.parquet (v1) and
               c.parquet (v2) with a v2 JSON checkpoint at version 1 and
               the JSON commits 0 and 1 gone, so a and b come from the
               checkpoint; version 3 removes every file
  writer_nan_ops
               one file per commit, each commit of another operation or
               writer: the operations that compute the statistics of the
               files they add (MERGE, UPDATE, OPTIMIZE, STREAMING UPDATE,
               CREATE OR REPLACE TABLE AS SELECT; a Databricks WRITE) and
               those that do not, or whose writer is not known to include
               NaN (CLONE, CONVERT, Manual Update, a lower-case "merge", a
               Photon WRITE); the last version removes every file
"""
import json
import os

ROOT = os.path.dirname(os.path.abspath(__file__))


def field(name, typ, meta=None, nullable=True):
    return {"name": name, "type": typ, "nullable": nullable, "metadata": meta or {}}


def write_log(table, commits):
    d = os.path.join(ROOT, table, "_delta_log")
    os.makedirs(d, exist_ok=True)
    for v, actions in enumerate(commits):
        with open(os.path.join(d, "%020d.json" % v), "w") as f:
            for a in actions:
                f.write(json.dumps(a, separators=(",", ":"), ensure_ascii=False) + "\n")


SPARK = "Apache-Spark/3.5.0 Delta-Lake/3.0.0"


def commit_info(op, blind, ts, engine=SPARK):
    ci = {"timestamp": ts, "operation": op,
          "operationParameters": {"mode": "Append"},
          "isolationLevel": "Serializable",
          "isBlindAppend": blind}
    if engine is not None:
        ci["engineInfo"] = engine
    return {"commitInfo": ci}


def protocol():
    return {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}


def metadata(schema_fields, part, conf, tid):
    return {"metaData": {"id": tid, "format": {"provider": "parquet", "options": {}},
                         "schemaString": json.dumps({"type": "struct", "fields": schema_fields},
                                                    separators=(",", ":")),
                         "partitionColumns": part, "configuration": conf,
                         "createdTime": 1700000000000}}


def add(path, pv, stats, ts, dv=None):
    a = {"path": path, "partitionValues": pv, "size": 1000,
         "modificationTime": ts, "dataChange": True}
    if stats is not None:
        a["stats"] = json.dumps(stats, separators=(",", ":"))
    if dv is not None:
        a["deletionVector"] = dv
    return {"add": a}


def remove(path, ts, dv=None):
    r = {"path": path, "deletionTimestamp": ts, "dataChange": True,
         "extendedFileMetadata": True, "partitionValues": {}, "size": 1000}
    if dv is not None:
        r["deletionVector"] = dv
    return {"remove": r}


def id_stats(lo, hi, full=True):
    s = {"numRecords": hi - lo + 1}
    if full:
        s.update({"minValues": {"id": lo}, "maxValues": {"id": hi}, "nullCount": {"id": 0}})
    return s


def ids_tables():
    schema = [field("id", "long")]
    ts = 1700000000000
    v0 = [commit_info("WRITE", True, ts), protocol(),
          metadata(schema, [], {}, "00000000-0000-0000-0000-000000000010")]
    for k in range(10):
        v0.append(add("part-%05d.parquet" % k, {}, id_stats(k * 100, k * 100 + 99), ts))
    v1 = [commit_info("WRITE", True, ts + 1000),
          add("part-00010.parquet", {}, id_stats(1000, 1099), ts + 1000)]
    write_log("ids10", [v0, v1])

    schema_p = [field("id", "long"), field("p", "integer")]
    v0 = [commit_info("WRITE", True, ts), protocol(),
          metadata(schema_p, ["p"], {}, "00000000-0000-0000-0000-000000000011")]
    for k in range(10):
        v0.append(add("p=0/part-%05d.parquet" % k, {"p": "0"}, id_stats(k * 100, k * 100 + 99), ts))
    v0.append(add("p=1/part-00010.parquet", {"p": "1"}, id_stats(0, 99), ts))
    v0.append(add("p=__HIVE_DEFAULT_PARTITION__/part-00011.parquet", {"p": None}, id_stats(0, 99), ts))
    write_log("ids10_part", [v0])

    v0 = [commit_info("WRITE", True, ts), protocol(),
          metadata(schema, [], {"delta.dataSkippingNumIndexedCols": "0"},
                   "00000000-0000-0000-0000-000000000012")]
    for k in range(10):
        v0.append(add("part-%05d.parquet" % k, {}, id_stats(k * 100, k * 100 + 99, False), ts))
    write_log("ids10_nostat", [v0])


def colmap_table():
    def cm(phys, cid):
        return {"delta.columnMapping.physicalName": phys, "delta.columnMapping.id": cid}
    schema = [
        field("Customer_ID", "long", cm("col-a1", 1)),
        field("addr", {"type": "struct", "fields": [
            field("City", "string", cm("col-b2", 3)),
            field("zip", "integer", cm("col-b3", 4))]}, cm("col-b1", 2)),
        field("Company Very Short", "string", cm("col-c1", 5)),
    ]
    ts = 1700000000000
    conf = {"delta.columnMapping.mode": "name", "delta.columnMapping.maxColumnId": "5"}
    v0 = [commit_info("WRITE", True, ts),
          {"protocol": {"minReaderVersion": 2, "minWriterVersion": 5}},
          metadata(schema, ["Company Very Short"], conf, "00000000-0000-0000-0000-000000000020")]
    files = [("ACME", 1, 100, "Bern", "Zurich", 3000, 8099),
             ("ACME", 101, 200, "Aarau", "Basel", 4000, 5000),
             ("Globex", 1, 50, "Geneva", "Geneva", 1200, 1299),
             (None, 500, 600, "Lugano", "Lugano", 6900, 6999)]
    for n, (co, lo, hi, cmin, cmax, zmin, zmax) in enumerate(files):
        stats = {"numRecords": hi - lo + 1,
                 "minValues": {"col-a1": lo, "col-b1": {"col-b2": cmin, "col-b3": zmin}},
                 "maxValues": {"col-a1": hi, "col-b1": {"col-b2": cmax, "col-b3": zmax}},
                 "nullCount": {"col-a1": 0, "col-b1": {"col-b2": 0, "col-b3": 0}}}
        v0.append(add("col-c1=%s/part-%05d.parquet" % (co or "__HIVE_DEFAULT_PARTITION__", n),
                      {"col-c1": co}, stats, ts))
    write_log("colmap", [v0])


def d_stats(dmax="7.5", tight=None):
    """Ten rows, id 0..9, d 1.0 .. dmax (a JSON number text, or "NaN")."""
    s = {"numRecords": 10, "minValues": {"id": 0, "d": 1.0},
         "maxValues": {"id": 9, "d": float(dmax) if dmax != "NaN" else "NaN"},
         "nullCount": {"id": 0, "d": 0}}
    if tight is not None:
        s["tightBounds"] = tight
    return s


def writer_nan_tables():
    schema = [field("id", "long"), field("d", "double")]
    ts = 1700000000000
    proto = {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                          "readerFeatures": ["deletionVectors"],
                          "writerFeatures": ["deletionVectors"]}}
    md = metadata(schema, [], {"delta.enableDeletionVectors": "true"},
                  "00000000-0000-0000-0000-000000000030")
    # an inline deletion vector of rows 2 and 7 (the bitmap and Z85 text as
    # test/data/hostile/make_hostile.py makes them: dv_bitmap([2, 7]))
    dv = {"storageType": "i", "pathOrInlineDv": "^Bg9^0rr910000000000iXQKl0rr91000315c8Xg0SSD9",
          "sizeInBytes": 36, "cardinality": 2}
    live = ["spark.parquet", "delta-rs.parquet", "no-engine.parquet",
            "spark-ci-last.parquet", "restored.parquet",
            "spark-dv-commit.parquet", "spark-nan.parquet"]
    commits = [
        [commit_info("CREATE TABLE", True, ts), proto, md],
        [commit_info("WRITE", True, ts + 1),
         add("spark.parquet", {}, d_stats(), ts + 1)],
        [commit_info("WRITE", True, ts + 2, "delta-rs:py-1.1.0"),
         add("delta-rs.parquet", {}, d_stats(), ts + 2)],
        [commit_info("WRITE", True, ts + 3, None),
         add("no-engine.parquet", {}, d_stats(), ts + 3)],
        [add("spark-ci-last.parquet", {}, d_stats(), ts + 4),
         commit_info("WRITE", True, ts + 4)],
        [commit_info("RESTORE", False, ts + 5),
         add("restored.parquet", {}, d_stats(), ts + 5)],
        [commit_info("DELETE", False, ts + 6),
         remove("delta-rs.parquet", ts + 6),
         add("delta-rs.parquet", {}, d_stats(tight=False), ts + 6, dv),
         add("spark-dv-commit.parquet", {}, d_stats(), ts + 6)],
        [commit_info("WRITE", True, ts + 7),
         add("spark-nan.parquet", {}, d_stats("NaN"), ts + 7)],
        [commit_info("DELETE", False, ts + 8)] +
        [remove(p, ts + 8, dv if p == "delta-rs.parquet" else None) for p in live],
    ]
    write_log("writer_nan", commits)

    # the checkpointed variant: commits 0 and 1 only in the checkpoint
    d = os.path.join(ROOT, "writer_nan_ckpt", "_delta_log")
    md = metadata(schema, [], {}, "00000000-0000-0000-0000-000000000031")
    proto = protocol()
    a = add("a.parquet", {}, d_stats(), ts)
    b = add("b.parquet", {}, d_stats(), ts + 1)
    commits = [
        [commit_info("WRITE", True, ts), proto, md, a],
        [commit_info("WRITE", True, ts + 1), b],
        [commit_info("WRITE", True, ts + 2), add("c.parquet", {}, d_stats(), ts + 2)],
        [commit_info("DELETE", False, ts + 3)] +
        [remove(p, ts + 3) for p in ("a.parquet", "b.parquet", "c.parquet")],
    ]
    write_log("writer_nan_ckpt", commits)
    for v in (0, 1):
        os.unlink(os.path.join(d, "%020d.json" % v))
    name = "%020d.checkpoint.%s.json" % (1, "5f0c3d1e-8a2b-4c6d-9e0f-1a2b3c4d5e6f")
    with open(os.path.join(d, name), "w") as f:
        for act in [{"checkpointMetadata": {"version": 1}}, proto, md, a, b]:
            f.write(json.dumps(act, separators=(",", ":")) + "\n")


def writer_nan_ops_table():
    schema = [field("id", "long"), field("d", "double")]
    ts = 1700000000000
    md = metadata(schema, [], {}, "00000000-0000-0000-0000-000000000032")
    dbr = "Databricks-Runtime/15.4.x-scala2.12"
    photon = "Databricks-Runtime/15.4.x-photon-scala2.12"
    writers = [  # (file, operation, engineInfo)
        ("merge.parquet", "MERGE", SPARK),
        ("update.parquet", "UPDATE", SPARK),
        ("optimize.parquet", "OPTIMIZE", SPARK),
        ("streaming.parquet", "STREAMING UPDATE", SPARK),
        ("rtas.parquet", "CREATE OR REPLACE TABLE AS SELECT", SPARK),
        ("databricks.parquet", "WRITE", dbr),
        ("clone.parquet", "CLONE", SPARK),
        ("convert.parquet", "CONVERT", SPARK),
        ("manual.parquet", "Manual Update", SPARK),
        ("lower-merge.parquet", "merge", SPARK),
        ("photon.parquet", "WRITE", photon),
    ]
    commits = [[commit_info("CREATE TABLE", True, ts), protocol(), md]]
    for n, (path, op, engine) in enumerate(writers, start=1):
        commits.append([commit_info(op, op == "WRITE", ts + n, engine),
                        add(path, {}, d_stats(), ts + n)])
    n = len(writers) + 1
    commits.append([commit_info("DELETE", False, ts + n)] +
                   [remove(w[0], ts + n) for w in writers])
    write_log("writer_nan_ops", commits)


if __name__ == "__main__":
    ids_tables()
    colmap_table()
    writer_nan_tables()
    writer_nan_ops_table()
