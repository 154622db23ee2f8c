#!/usr/bin/env python3
"""Generate the project-made history of the replay and concurrency suites
(test/sql/replay.sql, test/sql/concurrency.sql) and of docs/replay.md:
test/data/history/events, a Delta table of order events written by several
jobs at once, some of whose commits raced others (readVersion <
version - 1), with real Parquet data files (so that row_level can read
rows) written by the Parquet writer of test/data/rowlevel/make_fixtures.py.

Run from anywhere:   python3 test/data/history/make_history.py
It rewrites test/data/history/events; the output is deterministic and
committed, so the tests never need Python.  `--summary` prints each
version's actions and the live files after it.

The table: columns id (long), qty (long), region (string, the partition
column); files hold ids in runs, named region=<R>/<name>.parquet.  No
delta.isolationLevel is set: the writers record the level they ran at
(Spark's default WriteSerializable; OPTIMIZE SnapshotIsolation).  Spark's
predicates are recorded as Delta 3.2 records them (a JSON array of
Catalyst toString strings: id#10L, unquoted EU).

version  writer and what it did                                  read version
 0  CREATE (WRITE ErrorIfExists): e0 EU 0..99, e1 EU 100..199,
    u0 US 1000..1099, u1 US 1100..1199                              -
 1  hourly append (blind): e2 EU 200..209                            0
 2  hourly append (blind): u2 US 1200..1209                          0 raced
 3  UPDATE region = EU AND id = 5: e0 -> e0b                         2
 4  UPDATE region = EU AND id = 150: e1 -> e1b                       2 raced
 5  MERGE (Spark) inserting even ids: u3 US 1210..1218 (even)        4
 6  DELETE region = US AND id % 2 = 1: u0 u1 u2 -> u0b u1b u2b       4 raced
    (even ids left)
 7  hourly append (blind): e3 EU 210..219                            6
 8  OPTIMIZE region = EU: e1b e2 -> e4 EU 100..209                   6 raced
 9  DELETE region = EU AND id >= 200: e4 -> e4b 100..199, e3 gone    8
10  OPTIMIZE region = EU: e0b e4 -> e5 EU 0..209                     8 raced
    (it compacted e4, which version 9 had removed: the rows 200..209
    version 9 deleted are live again, in e5)
11  UPDATE region = US AND id = 1004: u0b -> u0c                    10
12  MERGE (Spark) updating EU: e5 -> e5b                            10 raced
13  DELETE region = EU AND id = 7: e5b -> e5c                       12
14  MERGE (delta-rs, predicate region = 'US' AND id BETWEEN 1000
    AND 1010): u0c -> u0d                                           12 raced
15  UPDATE region = US AND id = 1100: u1b -> u1c                    14
16  DELETE region = EU AND id = 42: e5c -> e5d                      14 raced
17  DELETE id IN (subquery): e4b -> e4c                             14 raced
18  hourly append (blind): u5 US 1400..1409                         17
19  DELETE region = US AND id = 1106, run at Serializable:
    u1c -> u1d                                                      17 raced
20  append by a Delta Kernel writer (no readVersion): e6 EU 300..309  -

test/data/history/broken: what keeps a replayed check from running, and a
row_level check without its data (unpartitioned, columns id and qty):
 0  CREATE: a0 ids 0..9
 1  append (blind): a1 ids 10..19                                   0
 2  DELETE id = 15 recording readVersion -1: a1 -> a1b             -1 raced
 3  MERGE (Spark) inserting even ids 20..28: a2, whose Parquet file
    is not on disk                                                  2
 4  DELETE id % 2 = 1: a0 -> a0c                                    2 raced
    (row_level would need a2's rows)
 5  UPDATE whose second line is not JSON (so no snapshot from 5 on
    can be read, and no replay that reaches 5 as a commit to check)   4
 6  DELETE id = 4: a0c -> a0d                                       4 raced
    (winner 5 cannot be read)

test/data/history/levels: which isolation level a replay runs at
(unpartitioned, no delta.isolationLevel until version 5):
 0  CREATE: a0 ids 0..9
 1  append (blind): a1 ids 10..19                                   0
 2  DELETE id = 5 recording SnapshotIsolation (a level Delta never
    records for a commit that changes data): a0 -> a0b              0 raced
 3  append (blind): a2 ids 20..29                                   2
 4  DELETE id = 7 at WriteSerializable: a0b -> a0c                  2 raced
 5  SET TBLPROPERTIES delta.isolationLevel = Serializable           4
 6  append (blind): a3 ids 30..39                                   5
 7  DELETE id = 8 recording WriteSerializable: a0c -> a0d           5 raced

test/data/history/badschema: the schema at the read version does not parse:
 0  CREATE with schemaString "{not json": a0 ids 0..9
 1  SET TBLPROPERTIES: a readable metaData                          0
 2  DELETE id = 5: a0 -> a0b                                        0 raced
"""
import importlib.util
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1772438400000              # 2026-03-02 08:00:00 UTC, in ms
SPARK = "Apache-Spark/3.5.0 Delta-Lake/3.2.0"


def _rowlevel_writer():
    """The Parquet writer of the row-level fixtures (one writer, not two)."""
    path = os.path.join(HERE, "..", "rowlevel", "make_fixtures.py")
    spec = importlib.util.spec_from_file_location("rowlevel_fixtures", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


RL = _rowlevel_writer()
COLUMNS = [("id", "long"), ("qty", "long")]


def js(obj):
    return json.dumps(obj, separators=(",", ":"))


def predicate_array(*strings):
    """operationParameters.predicate as Delta >= 2.4 writes it."""
    return js(list(strings))


class History:
    """A partitioned Delta table written commit by commit."""

    def __init__(self, root, data=True, checkpoint_every=0):
        self.root = root
        self.data = data                   # write Parquet files (or only the log)
        self.version = 0
        self.files = {}                    # name -> {"path", "region", "ids", "qty", "size", "stats"}
        self.live = []                     # names, in the order added
        self.txn = 0
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, "_delta_log"))

    # -- data files
    def new_file(self, name, region, ids, qty=None, on_disk=True):
        path = ("region=%s/%s.parquet" % (region, name)) if region else name + ".parquet"
        qty = qty or {}
        rows = [(i, qty.get(i, i % 10)) for i in ids]
        size = 100 + 16 * len(rows)
        if self.data and on_disk:
            content = RL.parquet_file(COLUMNS, rows)
            full = os.path.join(self.root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(content)
            size = len(content)
        stats = {"numRecords": len(rows),
                 "minValues": {"id": min(ids), "qty": min(r[1] for r in rows)},
                 "maxValues": {"id": max(ids), "qty": max(r[1] for r in rows)},
                 "nullCount": {"id": 0, "qty": 0}}
        self.files[name] = {"path": path, "region": region, "ids": list(ids),
                            "qty": {i: q for i, q in rows}, "size": size,
                            "stats": js(stats)}
        return name

    def add(self, name, data_change=True):
        f = self.files[name]
        self.live.append(name)
        return {"add": {"path": f["path"], "partitionValues": self.pv(f),
                        "size": f["size"], "modificationTime": T0 + 60000 * self.version,
                        "dataChange": data_change, "stats": f["stats"]}}

    def remove(self, name, data_change=True):
        f = self.files[name]
        self.live.remove(name)
        return {"remove": {"path": f["path"], "deletionTimestamp": T0 + 60000 * self.version,
                           "dataChange": data_change, "extendedFileMetadata": True,
                           "partitionValues": self.pv(f), "size": f["size"]}}

    @staticmethod
    def pv(f):
        return {"region": f["region"]} if f["region"] else {}

    def rewrite(self, old, new, keep, qty=None, data_change=True):
        """Copy-on-write: old's ids that keep() accepts into file new."""
        f = self.files[old]
        ids = [i for i in f["ids"] if keep(i)]
        q = dict(f["qty"])
        q.update(qty or {})
        acts = [self.remove(old, data_change)]
        if ids:
            self.new_file(new, f["region"], ids, {i: q[i] for i in ids})
            acts.append(self.add(new, data_change))
        return acts

    # -- commits
    def commit(self, op, params, actions, read_version=None, isolation="WriteSerializable",
               blind=False, engine=SPARK, extra=None, raw_lines=()):
        info = {"timestamp": T0 + 60000 * self.version, "operation": op,
                "operationParameters": params}
        if read_version is not None:
            info["readVersion"] = read_version
        if isolation is not None:
            info["isolationLevel"] = isolation
        if blind is not None:
            info["isBlindAppend"] = blind
        if engine is not None:
            info["engineInfo"] = engine
        self.txn += 1
        info["txnId"] = "00000000-0000-4000-8000-%012d" % self.txn
        info.update(extra or {})
        lines = [{"commitInfo": info}] + actions
        with open(os.path.join(self.root, "_delta_log", "%020d.json" % self.version), "w") as f:
            f.write(js(lines[0]) + "\n")
            for raw in raw_lines:
                f.write(raw + "\n")
            for a in lines[1:]:
                f.write(js(a) + "\n")
        self.version += 1

    def metadata(self, partitioned=True, schema_string=None):
        fields = [{"name": "id", "type": "long", "nullable": True, "metadata": {}},
                  {"name": "qty", "type": "long", "nullable": True, "metadata": {}}]
        if partitioned:
            fields.append({"name": "region", "type": "string", "nullable": True, "metadata": {}})
        schema = js({"type": "struct", "fields": fields})
        return {"metaData": {"id": "5d0f7c1e-6a43-4b8e-9b1a-000000000021",
                             "format": {"provider": "parquet", "options": {}},
                             "schemaString": schema_string or schema,
                             "partitionColumns": ["region"] if partitioned else [],
                             "configuration": {}, "createdTime": T0}}

    def create(self, files, partitioned=True, schema_string=None):
        proto = {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}
        self.commit("WRITE", {"mode": "ErrorIfExists",
                              "partitionBy": js(["region"] if partitioned else [])},
                    [proto, self.metadata(partitioned, schema_string)] +
                    [self.add(n) for n in files], blind=True)

    def append(self, name, region, ids, read_version):
        self.new_file(name, region, ids)
        self.commit("WRITE", {"mode": "Append", "partitionBy": "[]"},
                    [self.add(name)], read_version=read_version, blind=True)

    def summary(self, out):
        out.write("live after version %d:\n" % (self.version - 1))
        for n in sorted(self.live):
            f = self.files[n]
            out.write("  %-5s %s %d..%d (%d rows)\n" % (n, f["region"], min(f["ids"]),
                                                       max(f["ids"]), len(f["ids"])))


def make_events():
    h = History(os.path.join(HERE, "events"))
    r = range
    h.new_file("e0", "EU", r(0, 100))
    h.new_file("e1", "EU", r(100, 200))
    h.new_file("u0", "US", r(1000, 1100))
    h.new_file("u1", "US", r(1100, 1200))
    h.create(["e0", "e1", "u0", "u1"])                                     # 0
    h.append("e2", "EU", r(200, 210), 0)                                   # 1
    h.append("u2", "US", r(1200, 1210), 0)                                 # 2
    h.commit("UPDATE", {"predicate": predicate_array("((region#12 = EU) AND (id#10L = 5))")},
             h.rewrite("e0", "e0b", lambda i: True, {5: 50}), read_version=2)   # 3
    h.commit("UPDATE", {"predicate": predicate_array("((region#12 = EU) AND (id#10L = 150))")},
             h.rewrite("e1", "e1b", lambda i: True, {150: 50}), read_version=2)  # 4
    h.new_file("u3", "US", r(1210, 1219, 2))
    h.commit("MERGE", {"predicate": predicate_array("(id#10L = id#40L)"),
                       "matchedPredicates": "[]",
                       "notMatchedPredicates": js([{"actionType": "insert"}]),
                       "notMatchedBySourcePredicates": "[]"},
             [h.add("u3")], read_version=4)                                 # 5
    acts = []
    for old, new in (("u0", "u0b"), ("u1", "u1b"), ("u2", "u2b")):
        acts += h.rewrite(old, new, lambda i: i % 2 == 0)
    h.commit("DELETE", {"predicate": predicate_array(
        "((region#12 = US) AND ((id#10L % cast(2 as bigint)) = cast(1 as bigint)))")},
        acts, read_version=4)                                               # 6
    h.append("e3", "EU", r(210, 220), 6)                                   # 7
    h.new_file("e4", "EU", list(r(100, 200)) + list(r(200, 210)),
               {**h.files["e1b"]["qty"], **h.files["e2"]["qty"]})
    h.commit("OPTIMIZE", {"predicate": predicate_array("(region#12 = EU)"), "zOrderBy": "[]",
                          "clusterBy": "[]", "auto": False},
             [h.remove("e1b", False), h.remove("e2", False), h.add("e4", False)],
             read_version=6, isolation="SnapshotIsolation")                 # 8
    h.commit("DELETE", {"predicate": predicate_array("((region#12 = EU) AND (id#10L >= 200))")},
             h.rewrite("e4", "e4b", lambda i: i < 200) + [h.remove("e3")],
             read_version=8)                                                # 9
    # (version 10 compacts e4 as version 8 left it: it never saw version 9)
    h.new_file("e5", "EU", list(r(0, 210)),
               {**h.files["e0b"]["qty"], **h.files["e4"]["qty"]})
    h.live.append("e4")          # what version 10 believed was live
    h.commit("OPTIMIZE", {"predicate": predicate_array("(region#12 = EU)"), "zOrderBy": "[]",
                          "clusterBy": "[]", "auto": False},
             [h.remove("e0b", False), h.remove("e4", False), h.add("e5", False)],
             read_version=8, isolation="SnapshotIsolation")                 # 10
    h.commit("UPDATE", {"predicate": predicate_array("((region#12 = US) AND (id#10L = 1004))")},
             h.rewrite("u0b", "u0c", lambda i: True, {1004: 40}), read_version=10)  # 11
    h.commit("MERGE", {"predicate": predicate_array("(id#10L = id#40L)"),
                       "matchedPredicates": js([{"actionType": "update"}]),
                       "notMatchedPredicates": "[]", "notMatchedBySourcePredicates": "[]"},
             h.rewrite("e5", "e5b", lambda i: True, {3: 30}), read_version=10)      # 12
    h.commit("DELETE", {"predicate": predicate_array("((region#12 = EU) AND (id#10L = 7))")},
             h.rewrite("e5b", "e5c", lambda i: i != 7), read_version=12)            # 13
    h.commit("MERGE", {"predicate": "region = 'US' AND id BETWEEN 1000 AND 1010",
                       "mergePredicate": "target.id = source.id",
                       "matchedPredicates": js([{"actionType": "update"}]),
                       "notMatchedPredicates": "[]", "notMatchedBySourcePredicates": "[]"},
             h.rewrite("u0c", "u0d", lambda i: True, {1002: 20}), read_version=12,
             isolation=None, blind=None, engine=None,
             extra={"clientVersion": "delta-rs.0.22.3"})                            # 14
    h.commit("UPDATE", {"predicate": predicate_array("((region#12 = US) AND (id#10L = 1100))")},
             h.rewrite("u1b", "u1c", lambda i: True, {1100: 0}), read_version=14)   # 15
    h.commit("DELETE", {"predicate": predicate_array("((region#12 = EU) AND (id#10L = 42))")},
             h.rewrite("e5c", "e5d", lambda i: i != 42), read_version=14)           # 16
    h.commit("DELETE", {"predicate": predicate_array("(id#10L IN (listquery#99 []))")},
             h.rewrite("e4b", "e4c", lambda i: i != 120), read_version=14)          # 17
    h.append("u5", "US", r(1400, 1410), 17)                                         # 18
    h.commit("DELETE", {"predicate": predicate_array("((region#12 = US) AND (id#10L = 1106))")},
             h.rewrite("u1c", "u1d", lambda i: i != 1106), read_version=17,
             isolation="Serializable")                                              # 19
    h.new_file("e6", "EU", r(300, 310))
    h.commit("WRITE", {}, [h.add("e6")], isolation=None, blind=False,
             engine="Kernel-3.3.0/DeltaSink")                                       # 20
    return h


def make_broken():
    h = History(os.path.join(HERE, "broken"))
    r = range
    h.new_file("a0", None, r(0, 10))
    h.create(["a0"], partitioned=False)                                     # 0
    h.append("a1", None, r(10, 20), 0)                                      # 1
    h.commit("DELETE", {"predicate": predicate_array("(id#1L = 15)")},
             h.rewrite("a1", "a1b", lambda i: i != 15), read_version=-1)    # 2
    h.new_file("a2", None, r(20, 29, 2), on_disk=False)
    h.commit("MERGE", {"predicate": predicate_array("(id#1L = id#7L)"),
                       "matchedPredicates": "[]",
                       "notMatchedPredicates": js([{"actionType": "insert"}]),
                       "notMatchedBySourcePredicates": "[]"},
             [h.add("a2")], read_version=2)                                  # 3
    h.commit("DELETE", {"predicate": predicate_array(
        "((id#1L % cast(2 as bigint)) = cast(1 as bigint))")},
        h.rewrite("a0", "a0c", lambda i: i % 2 == 0), read_version=2)       # 4
    h.commit("UPDATE", {"predicate": predicate_array("(id#1L = 12)")}, [], read_version=4,
             raw_lines=['{"remove":{"path":"a1b.parquet",'])                # 5
    h.commit("DELETE", {"predicate": predicate_array("(id#1L = 4)")},
             h.rewrite("a0c", "a0d", lambda i: i != 4), read_version=4)     # 6
    return h


def make_levels():
    h = History(os.path.join(HERE, "levels"))
    r = range
    h.new_file("a0", None, r(0, 10))
    h.create(["a0"], partitioned=False)                                     # 0
    h.append("a1", None, r(10, 20), 0)                                      # 1
    h.commit("DELETE", {"predicate": predicate_array("(id#1L = 5)")},
             h.rewrite("a0", "a0b", lambda i: i != 5), read_version=0,
             isolation="SnapshotIsolation")                                  # 2
    h.append("a2", None, r(20, 30), 2)                                      # 3
    h.commit("DELETE", {"predicate": predicate_array("(id#1L = 7)")},
             h.rewrite("a0b", "a0c", lambda i: i != 7), read_version=2)     # 4
    meta = h.metadata(partitioned=False)
    meta["metaData"]["configuration"] = {"delta.isolationLevel": "Serializable"}
    h.commit("SET TBLPROPERTIES", {"properties": js({"delta.isolationLevel": "Serializable"})},
             [meta], read_version=4)                                         # 5
    h.append("a3", None, r(30, 40), 5)                                      # 6
    h.commit("DELETE", {"predicate": predicate_array("(id#1L = 8)")},
             h.rewrite("a0c", "a0d", lambda i: i != 8), read_version=5)     # 7
    return h


def make_badschema():
    h = History(os.path.join(HERE, "badschema"))
    h.new_file("a0", None, range(0, 10))
    h.create(["a0"], partitioned=False, schema_string="{not json")          # 0
    meta = h.metadata(partitioned=False)
    meta["metaData"]["configuration"] = {"delta.appendOnly": "false"}
    h.commit("SET TBLPROPERTIES", {"properties": js({"delta.appendOnly": "false"})},
             [meta], read_version=0)                                         # 1
    h.commit("DELETE", {"predicate": predicate_array("(id#1L = 5)")},
             h.rewrite("a0", "a0b", lambda i: i != 5), read_version=0)      # 2
    return h


if __name__ == "__main__":
    make_broken()
    make_levels()
    make_badschema()
    hist = make_events()
    if "--summary" in sys.argv[1:]:
        hist.summary(sys.stdout)
