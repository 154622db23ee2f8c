#!/usr/bin/env python3
"""Generate the small Delta tables the conflict-checker suites use.

Each table is a _delta_log only (the checker never opens data files in the
'partition' and 'stats' modes): version 0 creates the table and adds the
files of the loser's read snapshot, later versions are the winners.  The
output is deterministic; the generated files are committed, so the test
suite does not need Python.  Re-run after editing:

    python3 test/data/conflicts/generate.py
"""
import json
import os
import shutil
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TS = 1700000000000


def field(name, typ, nullable=True):
    return {"name": name, "type": typ, "nullable": nullable, "metadata": {}}


def schema(*fields):
    return json.dumps({"type": "struct", "fields": list(fields)}, separators=(",", ":"))


def file_path(name, pv):
    if not pv:
        return name + ".parquet"
    return "/".join("%s=%s" % (k, v) for k, v in pv.items()) + "/" + name + ".parquet"


def part_of(name, pcols):
    """X_P1 -> {part: 1}; X_1_2 -> {a: 1, b: 2}; plain names: unpartitioned."""
    if not pcols:
        return {}
    bits = name.split("_")[1:]
    if len(bits) == 1 and bits[0].startswith("P"):
        return {pcols[0]: bits[0][1:]}
    return {c: b for c, b in zip(pcols, bits)}


def stats(lo=None, hi=None, n=10, col="id", extra=None):
    if lo is None:
        return json.dumps({"numRecords": n}, separators=(",", ":"))
    s = {"numRecords": n, "minValues": {col: lo}, "maxValues": {col: hi},
         "nullCount": {col: 0}}
    if extra:
        for k, (a, b) in extra.items():
            s["minValues"][k] = a
            s["maxValues"][k] = b
            s["nullCount"][k] = 0
    return json.dumps(s, separators=(",", ":"))


class Table:
    def __init__(self, name, fields, pcols=(), config=None, protocol=(1, 2),
                 writer_features=None, reader_features=None, extra_v0=()):
        self.name = name
        self.pcols = list(pcols)
        self.fields = fields
        self.config = config or {}
        self.protocol = protocol
        self.writer_features = writer_features
        self.reader_features = reader_features
        self.commits = []
        self.files = {}          # name -> (path, pv, stats)
        self.extra_v0 = list(extra_v0)

    def metadata(self, config=None, fields=None):
        return {"metaData": {
            "id": "00000000-0000-0000-0000-" + ("%012d" % zlib.crc32(self.name.encode())),
            "format": {"provider": "parquet", "options": {}},
            "schemaString": schema(*(fields or self.fields)),
            "partitionColumns": self.pcols,
            "configuration": dict(self.config if config is None else config),
            "createdTime": TS}}

    def protocol_action(self, rv=None, wv=None, rf=None, wf=None):
        p = {"minReaderVersion": rv or self.protocol[0],
             "minWriterVersion": wv or self.protocol[1]}
        if rf is not None or (rv is None and self.reader_features is not None):
            p["readerFeatures"] = rf if rf is not None else self.reader_features
        if wf is not None or (wv is None and self.writer_features is not None):
            p["writerFeatures"] = wf if wf is not None else self.writer_features
        return {"protocol": p}

    def add(self, name, lo=None, hi=None, n=10, stats_json=None, data_change=True,
            pv=None, extra=None, **more):
        if pv is None:
            pv = part_of(name, self.pcols)
        path = file_path(name, pv)
        st = stats_json if stats_json is not None else (
            stats(lo, hi, n, extra=extra) if lo is not None else None)
        self.files[name] = (path, pv)
        a = {"path": path, "partitionValues": pv, "size": 1000,
             "modificationTime": TS, "dataChange": data_change}
        if st is not None:
            a["stats"] = st
        a.update(more)
        return {"add": a}

    def remove(self, name, data_change=True, pv="default", **more):
        path, fpv = self.files.get(name, (None, None))
        if path is None:
            fpv = part_of(name, self.pcols)
            path = file_path(name, fpv)
        r = {"path": path, "deletionTimestamp": TS, "dataChange": data_change,
             "extendedFileMetadata": True,
             "partitionValues": fpv if pv == "default" else pv, "size": 1000}
        r.update(more)
        return {"remove": r}

    def commit(self, op, actions, blind=None, read_version=None, iso="Serializable",
               tags=None, engine="Apache-Spark/3.5.0 Delta-Lake/3.2.0"):
        if blind is None:
            blind = all("add" in a for a in actions if "add" in a or "remove" in a) \
                and not any("remove" in a for a in actions)
        ci = {"timestamp": TS + len(self.commits) + 1, "operation": op,
              "operationParameters": {}, "isolationLevel": iso,
              "isBlindAppend": blind, "engineInfo": engine,
              "txnId": "txn-%s-%d" % (self.name, len(self.commits) + 1)}
        if read_version is not None:
            ci["readVersion"] = read_version
        if tags:
            ci["tags"] = tags
        if op is None:
            self.commits.append(list(actions))
        else:
            self.commits.append([{"commitInfo": ci}] + list(actions))
        return len(self.commits)      # version (v0 is create)

    def write(self, base_files):
        root = os.path.join(HERE, self.name)
        if os.path.exists(root):
            shutil.rmtree(root)
        log = os.path.join(root, "_delta_log")
        os.makedirs(log)
        v0 = [{"commitInfo": {"timestamp": TS, "operation": "CREATE TABLE",
                              "operationParameters": {}, "isolationLevel": "Serializable",
                              "isBlindAppend": True,
                              "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}},
              self.protocol_action(), self.metadata()] + self.extra_v0 + base_files
        for v, actions in enumerate([v0] + self.commits):
            with open(os.path.join(log, "%020d.json" % v), "w") as f:
                for a in actions:
                    # a str is a line written as it is (hand-made bytes)
                    f.write((a if isinstance(a, str)
                             else json.dumps(a, separators=(",", ":"))) + "\n")


ID = field("id", "long")
YEAR = field("year", "integer")
PART = field("part", "integer")
X = field("x", "integer")
A = field("a", "integer")
B = field("b", "integer")


def part_table(name, base, pcols=("part",)):
    fields = [ID, YEAR] + [field(c, "integer") for c in pcols]
    t = Table(name, fields, pcols)
    files = [t.add(n, 0, 9, extra={"year": (2020, 2020)}) for n in base]
    return t, files


def main():
    tables = []

    # -- unpart: unpartitioned, families of §6.1/§6.3 on one table ------------
    t = Table("unpart", [ID, field("v", "string")])
    base = [t.add("a", 0, 99, 100), t.add("b", 100, 199, 100)]
    t.commit("WRITE", [t.add("n1", 200, 299, 100)])                  # v1 blind append
    t.commit("DELETE", [t.remove("a")], blind=False)                  # v2
    t.commit("UPDATE", [t.remove("b"), t.add("c", 100, 199, 100)], blind=False)  # v3
    t.commit("Manual Update", [], blind=False)                        # v4 empty
    t.commit("STREAMING UPDATE", [{"txn": {"appId": "t2", "version": 1, "lastUpdated": TS}}],
             blind=True)                                               # v5
    t.commit("STREAMING UPDATE", [{"txn": {"appId": "t1", "version": 7, "lastUpdated": TS}}],
             blind=True)                                               # v6
    t.commit("UPGRADE PROTOCOL", [t.protocol_action(1, 7, wf=["appendOnly", "invariants",
                                                                "domainMetadata"])],
             blind=False)                                              # v7
    t.commit("Manual Update", [{"domainMetadata": {"domain": "app.settings",
                                                   "configuration": "{}", "removed": False}}],
             blind=False)                                              # v8
    t.commit("CHANGE COLUMN", [t.metadata(fields=[ID, field("v", "string"),
                                                  field("w", "string")])],
             blind=False)                                              # v9
    t.write(base)

    # -- meta: the metadata allow-list (§2.4.2) ----------------------------------
    t = Table("meta", [ID], config={"delta.isolationLevel": "Serializable"})
    base = [t.add("a", 0, 9)]
    t.commit("SET TBLPROPERTIES", [t.metadata(config={"delta.isolationLevel": "Serializable",
                                                      "delta.appendOnly": "true"})],
             blind=False)                                              # v1 not allowed
    t.commit("WRITE", [t.metadata(), t.add("n", 10, 19)], blind=True,
             tags={"delta.identity.schemaUpdate": "true"})             # v2 identity only
    t.commit("UPGRADE PROTOCOL", [t.protocol_action(3, 7, rf=["deletionVectors"],
                                                    wf=["deletionVectors", "appendOnly",
                                                        "invariants"])],
             blind=False)                                              # v3 adopt
    t.commit("SET TBLPROPERTIES", [t.metadata(config={"delta.isolationLevel": "Serializable",
                                                      "delta.enableDeletionVectors": "true"})],
             blind=False)                                              # v4 allowed
    t.commit("UNSET TBLPROPERTIES", [t.metadata(config={})], blind=False)  # v5 key removed
    t.commit("UPGRADE PROTOCOL", [t.protocol_action(1, 2)], blind=False)  # v6 drops DVs
    t.write(base)

    # -- proto_unknown: a winner protocol with a feature deltacc does not know --
    t = Table("proto_unknown", [ID])
    base = [t.add("a", 0, 9)]
    t.commit("UPGRADE PROTOCOL", [t.protocol_action(3, 7, rf=["deletionVectors"],
                                                    wf=["deletionVectors", "appendOnly",
                                                        "invariants", "catalogOwned-preview"])],
             blind=False)                                              # v1
    t.write(base)

    # -- part_x: §6.1 harness, partitioned by x ---------------------------------
    t = Table("part_x", [ID, X], ["x"])
    base = [t.add("f1", 0, 9, pv={"x": "1"}), t.add("f2", 10, 19, pv={"x": "2"})]
    t.commit("TRUNCATE", [t.add("n1", 20, 29, pv={"x": "1"})])         # v1
    t.commit("TRUNCATE", [t.add("n2", 30, 39, pv={"x": "2"})])         # v2
    t.commit("TRUNCATE", [t.add("n3", 40, 49, pv={"x": "3"})])         # v3
    t.commit("TRUNCATE", [t.remove("f2")], blind=False)                # v4
    t.commit("TRUNCATE", [t.remove("f1")], blind=False)                # v5
    t.write(base)

    # -- dpo: §6.2 #15-#18 ------------------------------------------------------
    t = Table("dpo", [ID, PART], ["part"])
    base = [t.add("a", 0, 9, pv={"part": "0"}), t.add("b", 10, 19, pv={"part": "1"})]
    t.commit("Manual Update", [t.add("y", 20, 29, pv={"part": "0"})])  # v1
    t.commit("Manual Update", [t.add("y1", 30, 39, pv={"part": "1"})])  # v2
    t.commit("Manual Update", [t.remove("a")], blind=False)            # v3
    t.commit("Manual Update", [t.remove("b")], blind=False)            # v4
    t.write(base)

    # -- §6.2 #21/#22: typed partition values in DPO lookups ------------------
    t = Table("dpo_ts", [ID, field("ts", "timestamp")], ["ts"])
    base = [t.add("a", 0, 9, pv={"ts": "2000-01-01 12:00:00"})]
    t.commit("WRITE", [t.add("b", 10, 19, pv={"ts": "2000-01-01T12:00:00.000000Z"})])  # v1
    t.write(base)

    t = Table("dpo_bad", [ID, field("p", "integer")], ["p"])
    base = [t.add("a", 0, 9, pv={"p": "1"})]
    t.commit("WRITE", [t.add("b", 10, 19, pv={"p": "not_a_number"})])  # v1
    t.write(base)

    # -- §6.3 legacy scenarios, one table each ----------------------------------
    def legacy(num, base_names, winner, pcols=("part",), blind=False):
        name = "s%02d" % num
        t, files = part_table(name, base_names, pcols)
        acts = []
        for w in winner:
            if w.startswith("+"):
                acts.append(t.add(w[1:], 100, 109, extra={"year": (2021, 2021)}))
            elif w.startswith("-"):
                acts.append(t.remove(w[1:]))
            elif w.startswith("~"):       # remove with empty partitionValues
                acts.append(t.remove(w[1:], pv={}))
        if winner:
            t.commit("Manual Update", acts, blind=blind)
        t.write(files)

    legacy(27, ["A_P1", "E_P3"], ["+B_P1"])
    legacy(28, ["A_P1", "D_P2"], ["+C_P2", "-D_P2"])
    legacy(29, ["A_P1", "D_P2", "E_P3"], ["+B_P1"])
    legacy(30, ["A_P1", "D_P2"], ["+C_P2", "-D_P2"])
    legacy(31, ["A_1_1"], ["+B_1_2"], ("a", "b"))
    legacy(33, ["A_1_1", "B_1_2"], ["+C_2_1"], ("a", "b"))
    legacy(34, ["A_1_1", "B_1_2"], ["-A_1_1"], ("a", "b"))
    legacy(35, ["A_1_1"], ["+B_1_2"], ("a", "b"))
    legacy(37, ["B_1_2"], ["-B_1_2"], ("a", "b"))
    legacy(38, ["B_1_2"], ["~B_1_2"], ("a", "b"))
    legacy(40, ["A_P1", "C_P2"], ["-C_P2", "+B_P1"])
    legacy(41, ["A_P1", "C_P2"], ["-A_P1"])
    legacy(42, ["A_P1"], ["+E_P3"])
    legacy(43, ["A_P1"], ["+C_P2"])
    legacy(44, ["A_P1", "G_P4"], ["-A_P1", "+C_P2"])
    legacy(45, ["A_P1"], ["+B_P1"], blind=True)
    legacy(46, ["A_P1", "B_P1"], ["-A_P1"])
    legacy(47, ["A_P1"], ["-A_P1", "+B_P1"])
    legacy(48, ["A_P1", "C_P2", "E_P3"], ["-A_P1", "-E_P3", "+B_P1"])
    legacy(49, ["A_P1", "E_P3"], ["+C_P2"], blind=True)
    legacy(52, ["A_P1", "B_P1"], ["+E_P3"], blind=True)
    legacy(53, ["A_P1", "B_P1"], ["-A_P1"])

    # -- §6.4 #57-#60 -----------------------------------------------------------
    t = Table("rowtrack", [ID], config={"delta.enableRowTracking": "true"},
              protocol=(1, 7), writer_features=["domainMetadata", "rowTracking",
                                                "appendOnly", "invariants"],
              reader_features=None,
              extra_v0=[{"domainMetadata": {"domain": "delta.rowTracking",
                                            "configuration": "{\"rowIdHighWaterMark\":9}",
                                            "removed": False}}])
    base = [t.add("a", 0, 9, baseRowId=0, defaultRowCommitVersion=0)]
    t.commit("WRITE", [t.add("w", 10, 19, baseRowId=10, defaultRowCommitVersion=1),
                       {"domainMetadata": {"domain": "delta.rowTracking",
                                           "configuration": "{\"rowIdHighWaterMark\":19}",
                                           "removed": False}}])  # v1 blind append
    t.write(base)

    t = Table("optimize_dv", [ID], config={"delta.enableDeletionVectors": "true"},
              protocol=(3, 7), reader_features=["deletionVectors"],
              writer_features=["deletionVectors", "appendOnly", "invariants"])
    base = [t.add("f1", 0, 49, 50), t.add("f2", 50, 99, 50)]
    dv = {"storageType": "u", "pathOrInlineDv": "ab^-aqEH.-t@S}K{vb[*k^", "offset": 1,
          "sizeInBytes": 36, "cardinality": 25}
    t.commit("DELETE", [t.remove("f1"),
                        t.add("f1", 0, 49, 50, deletionVector=dv,
                              stats_json=json.dumps({"numRecords": 50, "minValues": {"id": 0},
                                                     "maxValues": {"id": 49},
                                                     "nullCount": {"id": 0},
                                                     "tightBounds": False},
                                                    separators=(",", ":")))],
             blind=False)                                              # v1 DV delete
    t.write(base)

    # -- §5.1 seed-1 tables ------------------------------------------------------
    t = Table("ids", [ID, field("v", "string")], config={"delta.isolationLevel": "Serializable"})
    base = [t.add("part-%02d" % k, k * 100, k * 100 + 99, 100) for k in range(10)]
    t.commit("WRITE", [t.add("new-1000", 1000, 1099, 100)])           # v1 blind append
    t.commit("Manual Update", [t.add("manufactured", n=1)], blind=False)  # v2 no stats
    t.write(base)

    t = Table("ids_nostats", [ID], config={"delta.isolationLevel": "Serializable",
                                          "delta.dataSkippingNumIndexedCols": "0"})
    base = [t.add("part-%02d" % k, stats_json=stats(n=100)) for k in range(10)]
    t.commit("WRITE", [t.add("new-1000", stats_json=stats(n=100))])   # v1
    t.write(base)

    t = Table("ids_part", [ID, field("p", "integer")], ["p"],
              config={"delta.isolationLevel": "Serializable"})
    base = [t.add("part-%02d" % k, k * 100, k * 100 + 99, 100, pv={"p": "0"})
            for k in range(10)]
    t.commit("WRITE", [t.add("new-1000", 1000, 1099, 100, pv={"p": "0"})])  # v1
    t.write(base)

    t = Table("ids_winner10", [ID], config={"delta.isolationLevel": "Serializable"})
    t.commit("WRITE", [t.add("part-%02d" % k, k * 100, k * 100 + 99, 100)
                       for k in range(10)])                           # v1
    t.write([])

    # -- readset_cache: literals read under the session's settings -------------
    t = Table("env", [ID, field("ts", "timestamp"), field("d", "date")],
              config={"delta.isolationLevel": "Serializable"})
    base = [t.add("base", 0, 99, 100,
                  extra={"ts": ("2023-06-01T00:00:00.000Z", "2023-06-02T00:00:00.000Z"),
                         "d": ("2023-06-01", "2023-06-01")})]
    t.commit("WRITE", [t.add("new", 100, 199, 100,
                             extra={"ts": ("2023-12-31T23:30:00.000Z",
                                           "2024-01-01T00:30:00.000Z"),
                                    "d": ("2024-01-02", "2024-01-02")})],
             blind=False)                                              # v1
    t.write(base)

    # -- the worked example: liquid-clustered orders ----------------------------
    t = Table("orders", [field("order_id", "long"), field("customer_id", "long"),
                         field("amount", "double")],
              config={"delta.isolationLevel": "Serializable",
                      "delta.enableRowTracking": "false"},
              protocol=(1, 7), writer_features=["clustering", "domainMetadata",
                                                "appendOnly", "invariants"],
              extra_v0=[{"domainMetadata": {
                  "domain": "delta.clustering",
                  "configuration": "{\"clusteringColumns\":[[\"customer_id\"]]}",
                  "removed": False}}])

    def orders_stats(k, lo=None, hi=None):
        lo = k * 100000 if lo is None else lo
        hi = k * 100000 + 99999 if hi is None else hi
        return json.dumps({"numRecords": 5000,
                           "minValues": {"order_id": k * 5000, "customer_id": lo,
                                         "amount": 1.0},
                           "maxValues": {"order_id": k * 5000 + 4999, "customer_id": hi,
                                         "amount": 999.5},
                           "nullCount": {"order_id": 0, "customer_id": 0, "amount": 0}},
                          separators=(",", ":"))
    base = [t.add("part-%05d" % k, stats_json=orders_stats(k)) for k in range(10)]
    # the winner: UPDATE orders ... WHERE customer_id BETWEEN 900000 AND 901000
    t.commit("UPDATE", [t.remove("part-00009"),
                        t.add("part-00009-u1", stats_json=orders_stats(9, 900000, 999999))],
             blind=False, iso="Serializable")                          # v1
    t.write(base)

    # -- rv_*: what the check reads of a read version (read_files given) ---------
    # Only the lines that may hold a metaData or protocol action: a line
    # none of whose bytes spell either name or a \u escape is skipped
    # unparsed.  v0 says WriteSerializable, under which the winner v2, a
    # blind append into the read, does not conflict; a later metaData in the
    # read version v1 saying Serializable makes it conflict, wherever and
    # however that line names it.  rv_skim's v1 has a malformed line that
    # names neither: the check does not read it (snapshot_files does).
    def rv_table(name, v1_lines, v3_remove=False):
        t = Table(name, [ID], config={"delta.isolationLevel": "WriteSerializable"})
        base = [t.add("a", 0, 9)]
        t.commit("WRITE", v1_lines(t), blind=False)                   # v1: read
        t.commit("WRITE", [t.add("c", 20, 29)], blind=True)           # v2: winner
        if v3_remove:
            t.commit("DELETE", [t.remove("a")], blind=False)          # v3: winner
        t.write(base)

    ser = {"delta.isolationLevel": "Serializable"}

    def meta_line(t, key="metaData"):
        return json.dumps({key: t.metadata(config=ser)["metaData"]},
                          separators=(",", ":"))

    # (the must-still cases start v1 with a protocol and a WriteSerializable
    # metaData: a reader that stopped once it had both would miss the rest)
    rv_table("rv_skim", lambda t: [t.add("b", 10, 19),
                                   '{"add":{"path":"x.parquet","size":'])
    # rv_skim_del: the same and a winner v3 that removes a.parquet, so a
    # check without read_files needs the read version's files
    rv_table("rv_skim_del", lambda t: [t.add("b", 10, 19),
                                       '{"add":{"path":"x.parquet","size":'],
             v3_remove=True)
    # rv_del: well formed, with the same v3 (read files derived at v3)
    rv_table("rv_del", lambda t: [t.add("b", 10, 19)], v3_remove=True)

    # rv_many_del: 300 files of ten ids each (f000: 0-9, f001: 10-19, ...);
    # v1 blind-appends, v2 removes f000..f009, v3 removes f010..f299: past
    # the 256 removed paths looked up one by one, the read files of a check
    # without read_files are derived whole at v3
    t = Table("rv_many_del", [ID], config={"delta.isolationLevel": "WriteSerializable"})
    base = [t.add("f%03d" % k, 10 * k, 10 * k + 9) for k in range(300)]
    t.commit("WRITE", [t.add("g", 5000, 5009)], blind=True)           # v1
    t.commit("DELETE", [t.remove("f%03d" % k) for k in range(10)], blind=False)       # v2
    t.commit("DELETE", [t.remove("f%03d" % k) for k in range(10, 300)], blind=False)  # v3
    t.write(base)
    # rv_path_forms: v1 removes the files of v0 naming them in other forms
    # (an escape, a "." and an empty component, each way round), which name
    # the same files: a read of every file must still conflict on each.
    # P5.parquet is another file than p5.parquet (no conflict on it).
    t = Table("rv_path_forms", [ID], config={"delta.isolationLevel": "WriteSerializable"})
    forms = [("p1", "a=1/p1.parquet", "a%3D1/p1.parquet"),
             ("p2", "./p2.parquet", "p2.parquet"),
             ("p3", "p3%20x.parquet", "p3 x.parquet"),
             ("p4", "d/p4.parquet", "d//p4.parquet"),
             ("p5", "p5.parquet", "P5.parquet")]
    base = [t.add(n, 10 * k, 10 * k + 9, path=a) for k, (n, a, _) in enumerate(forms)]
    t.commit("DELETE", [t.remove(n, path=r) for n, _, r in forms], blind=False)  # v1
    t.write(base)
    rv_table("rv_two_meta", lambda t: [t.protocol_action(), t.metadata(),
                                       t.add("b", 10, 19), t.metadata(config=ser)])
    rv_table("rv_esc_meta", lambda t: [t.protocol_action(), t.metadata(),
                                       t.add("b", 10, 19),
                                       meta_line(t).replace('"metaData"',
                                                            '"meta\\u0044ata"', 1)])
    rv_table("rv_multi_key", lambda t: [
        t.protocol_action(), t.metadata(),
        json.dumps(t.add("b", 10, 19), separators=(",", ":"))[:-1] + "," +
        meta_line(t)[1:]])
    rv_table("rv_esc_proto", lambda t: [
        t.protocol_action(), t.metadata(), t.add("b", 10, 19),
        json.dumps(t.protocol_action(3, 7, rf=["fancyReaderFeature"],
                                     wf=["fancyReaderFeature"]),
                   separators=(",", ":")).replace('"protocol"', '"pro\\u0074ocol"', 1)])


if __name__ == "__main__":
    main()
