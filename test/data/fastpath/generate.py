#!/usr/bin/env python3
"""Generate test/data/fastpath: small Delta tables whose add lines carry
the variety real writers produce, for the fast paths' hit counters
(deltacc.fastpath_stats) in test/sql/fastpath_counters.sql.

- variety/: version 0 (protocol, metaData of six columns), version 1: 64
  adds in runs of a few lines of each of five writer layouts (Spark;
  Databricks with tags in either of two orders, nullCount first on some
  lines and a column's min and max missing on some; delta-rs with the
  statistics columns in a new order on every line and a null tail; the
  Python writer's ", " and ": " separators and \\u escapes, a surrogate
  pair among them; a JVM writer escaping "/" and writing its own key
  order), string statistics with quotes, backslashes, newlines, tabs and
  raw UTF-8, deletion vectors, a few lines with their keys in a random
  order; version 2: a metaData adding a column (schema evolution), adds
  with statistics for it, removes, a deletion-vector update (remove and
  add of one path).
- bad_<case>/: versions 0 to 2 of variety/, then version 3: one line that
  is malformed, or valid but outside what the fast paths can prove
  (ambiguous), among lines of the variety:
    u0000_path         a path holding \\u0000 (the JSON parser refuses it)
    utf8_stats         invalid UTF-8 inside a statistics string value
    lone_surrogate     a statistics text with an unpaired \\ud800 escape
                       (the line is valid JSON, its statistics are not)
    inner_escape       a statistics text with an invalid escape \\x
    duplicate_path     an add whose "path" key comes twice
    quote_as_u0022     a statistics string closed by \\u0022 at the line's
                       level (valid twice over, not provable by the scanners)

- tpl_<case>/: versions 0 to 2 of variety/, then version 3: four add lines
  of one layout whose values keep their lengths from line to line (the
  AVX2 walk takes their statistics 32 bytes at a time against the
  prescan shape's template, src/format/jshape.h), then one of the same
  layout whose number of the same length has a leading zero (not JSON):
    zero_stats         the statistics' minValues id 90000 written 09000 (no
                       statistics: a conflict check keeps the file)
    zero_size          the line's size 9090 written 0909 (the parser's error)

- removes/: versions 0 and 1 of variety/, then version 2: remove lines of
  files of version 1 as writers lay them out (Spark with
  extendedFileMetadata, partition values, tags and statistics; delta-rs
  with nulls for every optional field; Databricks with a deletion vector
  and row tracking fields; the Python writer's separators and \\u
  escapes; a JVM writer escaping "/"; a minimal line; keys in a random
  order; keys no reader reads), and three valid lines the remove scanner
  does not prove (a duplicate "path", an escaped key, statistics as an
  object): the parse tree decides those.
- bad_remove_negative_size/: versions 0 and 1 of variety/, then version
  2: a remove whose size is negative (the decoder's error).

- commit_infos/: version 0 of variety/, then one commit per commitInfo
  layout (versions 1 to 14), each with an add of a new file: Spark,
  Databricks (tags, the identity schema update tag), delta-rs, the
  Python writer's separators and \\u escapes, a JVM writer's \\/, an
  in-commit timestamp, an empty object, values of types the decoder does
  not take (isBlindAppend and readVersion as strings, operation a number),
  and three lines the scanner does not prove (isBlindAppend twice, the
  last false; operation twice; readVersion 1.0): the parse tree decides
  those.

Run: python3 test/data/fastpath/generate.py (deterministic output; the
generated logs are committed so the tests never need Python).
"""
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
BASE_MS = 1714521600000

COLS = ["id", "ts", "customer", "region", "amount", "flag"]
TYPES = {"id": "long", "ts": "timestamp", "customer": "string",
         "region": "string", "amount": "double", "flag": "boolean"}
NAMES = ["Zo\u00eb \"Z\" O'Neil", "C:\\data\\imports", "tab\there", "two\nlines",
         "\u00c5ngstr\u00f6m & Co", "emoji \U0001F600 shop", "acme/eu/retail",
         "plain name", "back\\slash \"quote\"", "S\u00e3o Paulo"]
REGIONS = ["eu-west-1", "us-east-1", "Z\u00fcrich (CH)", "Th\u1ee7 \u0110\u1ee9c"]


def schema(cols):
    return json.dumps({"type": "struct", "fields": [
        {"name": c, "type": TYPES[c], "nullable": c != "id", "metadata": {}}
        for c in cols]}, separators=(',', ':'))


def metadata(cols):
    return {"metaData": {"id": "fastpath-variety",
                         "format": {"provider": "parquet", "options": {}},
                         "schemaString": schema(cols), "partitionColumns": [],
                         "configuration": {"delta.enableDeletionVectors": "true"},
                         "createdTime": BASE_MS}}


PROTOCOL = {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                         "readerFeatures": ["deletionVectors"],
                         "writerFeatures": ["deletionVectors"]}}


class Style:
    """How one writer's JSON library writes."""

    def __init__(self, comma=",", colon=":", ascii_only=False, slash=False):
        self.comma, self.colon = comma, colon
        self.ascii_only, self.slash = ascii_only, slash

    def s(self, v):
        out = json.dumps(v, ensure_ascii=self.ascii_only)
        return out.replace("/", "\\/") if self.slash else out

    def enc(self, v):
        if isinstance(v, str):
            return self.s(v)
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, dict):
            return "{" + self.comma.join(self.s(k) + self.colon + self.enc(x)
                                          for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + self.comma.join(self.enc(x) for x in v) + "]"
        raise TypeError(type(v))


COMPACT = Style()
PYTHON = Style(comma=", ", colon=": ", ascii_only=True)
SLASHED = Style(slash=True)


def file_stats(rng, i, cols):
    """One file's statistics values: (numRecords, min, max, nullCount)."""
    n = 100 + i
    lo = 1000 * i
    mins = {"id": lo, "ts": "2024-05-01T10:%02d:00.000Z" % (i % 60),
            "customer": NAMES[i % len(NAMES)], "region": REGIONS[i % len(REGIONS)],
            "amount": 1.5 * i, "flag": False}
    maxs = {"id": lo + 999, "ts": "2024-05-02T10:%02d:00.000Z" % (i % 60),
            "customer": NAMES[(i + 3) % len(NAMES)],
            "region": REGIONS[(i + 1) % len(REGIONS)], "amount": 2.5 * i + 1,
            "flag": True}
    if "note" in cols:
        mins["note"] = "note \"%d\"" % i
        maxs["note"] = "note\\%d\u00e9" % i
    nulls = {c: (0 if c == "id" else i % 3) for c in cols}
    return n, ({c: mins[c] for c in cols}, {c: maxs[c] for c in cols}, nulls)


def stats_text(style, order, n, mm, missing=None, tight=None):
    """The statistics text, its members in order (keys of the root)."""
    mins, maxs, nulls = mm
    if missing is not None:
        mins = {k: v for k, v in mins.items() if k != missing}
        maxs = {k: v for k, v in maxs.items() if k != missing}
    parts = {"numRecords": n, "minValues": mins, "maxValues": maxs,
             "nullCount": nulls}
    root = {k: parts[k] for k in order}
    if tight is not None:
        root["tightBounds"] = tight
    return style.enc(root)


def add(style, keys, fields):
    return style.enc({"add": {k: fields[k] for k in keys}})


def writer_line(rng, writer, i, cols, dv=None):
    n, mm = file_stats(rng, i, cols)
    if writer == "spark":
        st = stats_text(COMPACT, ["numRecords", "minValues", "maxValues", "nullCount"], n, mm,
                        tight=None if dv is None else False)
        f = {"path": "part-%05d-spark.c000.snappy.parquet" % i, "partitionValues": {},
             "size": 1000 + i, "modificationTime": BASE_MS + i, "dataChange": True,
             "stats": st}
        keys = ["path", "partitionValues", "size", "modificationTime", "dataChange", "stats"]
        if dv is not None:
            f["deletionVector"] = dv
            keys.append("deletionVector")
        return add(COMPACT, keys, f)
    if writer == "databricks":
        order = (["numRecords", "nullCount", "minValues", "maxValues"] if i % 3 == 0
                 else ["numRecords", "minValues", "maxValues", "nullCount"])
        missing = COLS[1 + i % 5] if i % 4 == 1 else None
        tags = ({"INSERTION_TIME": "%d" % (BASE_MS * 1000 + i), "MIN_INSERTION_TIME": "1",
                 "MAX_INSERTION_TIME": "2", "OPTIMIZE_TARGET_SIZE": "268435456"}
                if i % 2 == 0 else
                {"MAX_INSERTION_TIME": "2", "INSERTION_TIME": "%d" % (BASE_MS * 1000 + i),
                 "MIN_INSERTION_TIME": "1", "OPTIMIZE_TARGET_SIZE": "268435456"})
        f = {"path": "%s/part-%05d-dbr.c000.zstd.parquet" % ("ab" if i % 2 else "Q7", i),
             "partitionValues": {}, "size": 2000 + i, "modificationTime": BASE_MS + i,
             "dataChange": True,
             "stats": stats_text(COMPACT, order, n, mm, missing=missing, tight=True),
             "tags": tags, "clusteringProvider": "liquid"}
        return add(COMPACT, list(f), f)
    if writer == "delta-rs":
        order = ["minValues", "maxValues", "nullCount", "numRecords"]
        mins, maxs, nulls = mm
        cs = list(mins)
        rng.shuffle(cs)
        mm2 = ({c: mins[c] for c in cs}, {c: maxs[c] for c in cs}, {c: nulls[c] for c in cs})
        f = {"path": "part-%05d-rs-c000.snappy.parquet" % i, "partitionValues": {},
             "size": 3000 + i, "modificationTime": BASE_MS + i, "dataChange": True,
             "stats": stats_text(COMPACT, order, n, mm2), "tags": None,
             "deletionVector": None, "baseRowId": None, "defaultRowCommitVersion": None,
             "clusteringProvider": None}
        return add(COMPACT, list(f), f)
    if writer == "python":
        f = {"path": "%d-rs-py.parquet" % i, "partitionValues": {}, "size": 4000 + i,
             "modificationTime": BASE_MS + i, "dataChange": True,
             "stats": stats_text(PYTHON, ["numRecords", "minValues", "maxValues", "nullCount"],
                                 n, mm),
             "tags": None, "deletionVector": None, "baseRowId": None,
             "defaultRowCommitVersion": None}
        return add(COMPACT, list(f), f)
    if writer == "jvm":
        f = {"dataChange": True, "path": "data/2024/05/%05d-jvm.parquet" % i,
             "modificationTime": BASE_MS + i, "size": 5000 + i, "partitionValues": {},
             "stats": stats_text(SLASHED, ["minValues", "maxValues", "nullCount", "numRecords"],
                                 n, mm)}
        return add(SLASHED, list(f), f)
    raise ValueError(writer)


def shuffled(line, rng):
    """The line with the add's keys in a random order."""
    obj = json.loads(line)
    keys = list(obj["add"])
    rng.shuffle(keys)
    return json.dumps({"add": {k: obj["add"][k] for k in keys}}, separators=(',', ':'),
                      ensure_ascii=False)


def dv(i):
    return {"storageType": "u", "pathOrInlineDv": "ab^-aqEH.-t@S}K{vb[*k^",
            "offset": 1 + i, "sizeInBytes": 36, "cardinality": 2 + i}


def commit_info(op, version):
    return {"commitInfo": {"timestamp": BASE_MS + version, "operation": op,
                           "operationParameters": {}, "isBlindAppend": op == "WRITE",
                           "engineInfo": "fastpath-fixtures"}}


def variety_commits():
    rng = random.Random(20240611)
    writers = ["spark", "databricks", "delta-rs", "python", "jvm"]
    v1 = [commit_info("WRITE", 1)]
    i = 0
    while i < 64:
        w = writers[(i // 4) % len(writers)]
        for _ in range(4):
            if i >= 64:
                break
            line = writer_line(rng, w, i, COLS[:6], dv=dv(i) if i % 16 == 5 else None)
            if i % 16 == 5 and w != "spark":
                line = writer_line(rng, "spark", i, COLS[:6], dv=dv(i))
            if i % 29 == 7:
                line = shuffled(line, rng)
            v1.append(line)
            i += 1
    v1 = [json.dumps(x, separators=(',', ':')) if isinstance(x, dict) else x for x in v1]
    cols2 = COLS[:6] + ["note"]
    TYPES["note"] = "string"
    v2 = [json.dumps(commit_info("MERGE", 2), separators=(',', ':')),
          json.dumps(metadata(cols2), separators=(',', ':'))]
    for j in range(64, 80):
        w = writers[j % len(writers)]
        v2.append(writer_line(rng, w, j, cols2))
    # removes of two files of version 1, and a deletion-vector update
    v2.append(json.dumps({"remove": {"path": "part-00000-spark.c000.snappy.parquet",
                                     "deletionTimestamp": BASE_MS + 2, "dataChange": True,
                                     "size": 1000}}, separators=(',', ':')))
    v2.append(json.dumps({"remove": {"path": "data/2024/05/00016-jvm.parquet",
                                     "deletionTimestamp": BASE_MS + 2, "dataChange": True}},
                         separators=(',', ':')))
    v2.append(json.dumps({"remove": {"path": "part-00001-spark.c000.snappy.parquet",
                                     "deletionTimestamp": BASE_MS + 2, "dataChange": True,
                                     "size": 1001}}, separators=(',', ':')))
    v2.append(writer_line(rng, "spark", 1, COLS[:6], dv=dv(100)))
    return v1, v2


def write_table(name, commits):
    d = os.path.join(HERE, name, "_delta_log")
    shutil.rmtree(os.path.join(HERE, name), ignore_errors=True)
    os.makedirs(d)
    for v, lines in enumerate(commits):
        with open(os.path.join(d, "%020d.json" % v), "w", encoding="utf-8",
                  errors="surrogateescape") as f:
            f.write("\n".join(lines) + "\n")


def bad_line(case):
    n, mm = file_stats(random.Random(1), 90, COLS[:6])
    st = stats_text(COMPACT, ["numRecords", "minValues", "maxValues", "nullCount"], n, mm)
    f = {"path": "part-00090-bad.parquet", "partitionValues": {}, "size": 9090,
         "modificationTime": BASE_MS + 90, "dataChange": True, "stats": st}
    line = add(COMPACT, list(f), f)
    if case == "u0000_path":
        return line.replace('"part-00090-bad.parquet"', '"part-00090-\\u0000bad.parquet"')
    if case == "utf8_stats":
        # a lone lead byte 0xC3 (written through surrogateescape)
        return line.replace("customer\\\":\\\"", "customer\\\":\\\"\udcc3(", 1)
    if case == "lone_surrogate":
        return line.replace("customer\\\":\\\"", "customer\\\":\\\"\\\\ud800", 1)
    if case == "inner_escape":
        return line.replace("customer\\\":\\\"", "customer\\\":\\\"\\\\x", 1)
    if case == "duplicate_path":
        return line.replace('{"add":{', '{"add":{"path":"part-00090-first.parquet",', 1)
    if case == "quote_as_u0022":
        # the region value's closing quote written as \u0022 by the line
        return line.replace("(CH)\\\"", "(CH)\\u0022", 1)
    raise ValueError(case)


def remove_lines(v1):
    """Version 2 of removes/: a remove of each of 16 files of version 1."""
    paths = [json.loads(l)["add"]["path"] for l in v1 if l.startswith('{"add"')]
    ms = BASE_MS + 2
    st = '{"numRecords":3,"minValues":{"id":1,"customer":"Zo\u00eb \\"Z\\""},' \
         '"maxValues":{"id":9,"customer":"plain"},"nullCount":{"id":0}}'
    rows = [
        # Spark
        (COMPACT, {"path": paths[0], "deletionTimestamp": ms, "dataChange": True,
                   "extendedFileMetadata": True, "partitionValues": {}, "size": 1000,
                   "tags": {"INSERTION_TIME": "1714521600000000", "ZCUBE_ID": "x"}}),
        (COMPACT, {"path": paths[1], "deletionTimestamp": ms, "dataChange": True,
                   "extendedFileMetadata": True, "partitionValues": {"region": "eu-west-1",
                                                                     "day": None},
                   "size": 1001, "stats": st}),
        # delta-rs: nulls for the optional fields
        (COMPACT, {"path": paths[8], "dataChange": True, "deletionTimestamp": ms,
                   "extendedFileMetadata": False, "partitionValues": {}, "size": 1008,
                   "tags": None, "deletionVector": None, "baseRowId": None,
                   "defaultRowCommitVersion": None, "stats": None}),
        (COMPACT, {"path": paths[9], "dataChange": None, "deletionTimestamp": None,
                   "extendedFileMetadata": None, "partitionValues": None, "size": None,
                   "modificationTime": None}),
        # Databricks: a deletion vector, row tracking
        (COMPACT, {"path": paths[5], "deletionTimestamp": ms, "dataChange": True,
                   "extendedFileMetadata": True, "partitionValues": {}, "size": 1005,
                   "deletionVector": dv(5), "baseRowId": 40, "defaultRowCommitVersion": 1,
                   "stats": st, "tags": {"INSERTION_TIME": "1"}}),
        (COMPACT, {"path": paths[4], "deletionTimestamp": ms, "dataChange": False,
                   "size": 1004, "modificationTime": ms - 7}),
        # the Python writer (separators, \\u escapes) and a JVM writer (\\/)
        (PYTHON, {"path": paths[12], "deletionTimestamp": ms, "dataChange": True,
                  "partitionValues": {"customer": NAMES[0], "region": REGIONS[2]},
                  "size": 1012, "stats": st}),
        (SLASHED, {"path": paths[16], "deletionTimestamp": ms, "dataChange": True,
                   "extendedFileMetadata": True, "size": 1016}),
        # minimal
        (COMPACT, {"path": paths[17]}),
        # keys no reader reads, nested
        (COMPACT, {"path": paths[18], "dataChange": True, "clusteringProvider": "liquid",
                   "x": [1, {"a": None, "b": [True, 2.5e3]}], "size": 1018}),
    ]
    out = [json.dumps(commit_info("DELETE", 2), separators=(',', ':'))]
    for style, f in rows:
        out.append("{" + style.s("remove") + style.colon + style.enc(f) + "}")
    # keys in a random order, white space around the tokens
    rng = random.Random(7)
    keys = ["path", "deletionTimestamp", "dataChange", "size", "partitionValues"]
    for k in range(2):
        rng.shuffle(keys)
        vals = {"path": paths[20 + k], "deletionTimestamp": ms, "dataChange": True,
                "size": 1020 + k, "partitionValues": {}}
        out.append('{ "remove" : { ' + ' , '.join('"%s" : %s' % (x, json.dumps(vals[x]))
                                                for x in keys) + ' } }')
    # valid, not proved by the scanner: the parse tree decides
    out.append('{"remove":{"path":"%s","dataChange":true,"path":"%s"}}' % (paths[30], paths[31]))
    out.append('{"remove":{"p\\u0061th":"%s","dataChange":true}}' % paths[32])
    out.append('{"remove":{"path":"%s","stats":{"numRecords":3}}}' % paths[33])
    return out


def commit_info_lines():
    """Versions 1 to 14 of commit_infos/: a commitInfo layout each."""
    ms = BASE_MS + 10
    metrics = {"numFiles": "1", "numOutputRows": "3", "numOutputBytes": "1000"}
    rows = [
        (COMPACT, {"timestamp": ms, "operation": "WRITE",
                   "operationParameters": {"mode": "Append", "partitionBy": "[]"},
                   "readVersion": 0, "isolationLevel": "Serializable", "isBlindAppend": True,
                   "operationMetrics": metrics,
                   "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.1.0",
                   "txnId": "8d7b1c52-0f8e-4c4e-9a43-1f1f4f0d0001"}),
        (COMPACT, {"timestamp": ms, "userId": "4117", "userName": "ana@example.com",
                   "operation": "MERGE",
                   "operationParameters": {"predicate": "[\"(id#1 = id#2)\"]",
                                           "matchedPredicates": "[{\"actionType\":\"update\"}]"},
                   "notebook": {"notebookId": "1207"}, "clusterId": "0101-abc",
                   "readVersion": 1, "isolationLevel": "WriteSerializable",
                   "isBlindAppend": False, "operationMetrics": metrics,
                   "tags": {"restoresDeletedRows": "false",
                            "delta.identity.schemaUpdate": "true"},
                   "engineInfo": "Databricks-Runtime/14.3.x-scala2.12",
                   "txnId": "8d7b1c52-0f8e-4c4e-9a43-1f1f4f0d0002"}),
        (COMPACT, {"timestamp": ms, "operation": "WRITE",
                   "operationParameters": {"mode": "Append"},
                   "clientVersion": "delta-rs.0.22.0", "readVersion": 2,
                   "isBlindAppend": True, "operationMetrics": {"num_added_files": 1,
                                                               "execution_time_ms": 12}}),
        (PYTHON, {"timestamp": ms, "operation": "DELETE \u00e9t\u00e9",
                  "operationParameters": {"predicate": NAMES[0]},
                  "readVersion": 3, "isBlindAppend": False,
                  "engineInfo": "py \"writer\" 1.0", "txnId": "t-" + NAMES[4]}),
        (SLASHED, {"timestamp": ms, "operation": "UPDATE",
                   "operationParameters": {"predicate": "a/b = 'c/d'"},
                   "readVersion": 4, "isBlindAppend": False,
                   "engineInfo": "jvm/2.0", "txnId": "x/y"}),
        (COMPACT, {"inCommitTimestamp": ms + 5, "timestamp": ms, "operation": "WRITE",
                   "operationParameters": {"mode": "Append"}, "readVersion": 5,
                   "isBlindAppend": True, "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}),
        (COMPACT, {}),
        (COMPACT, {"timestamp": ms, "operation": "WRITE", "isBlindAppend": "true",
                   "readVersion": "7"}),
        (COMPACT, {"timestamp": ms, "operation": 42, "isBlindAppend": None,
                   "engineInfo": None, "tags": None, "txnId": 7,
                   "x": [1, {"a": None, "b": [True, 2.5e3]}]}),
        (COMPACT, {"timestamp": -1, "operation": "OPTIMIZE", "isBlindAppend": False,
                   "tags": {"delta.identity.schemaUpdate": "false", "k": {"n": [1]}}}),
        (COMPACT, {"operation": "WRITE", "isBlindAppend": True, "readVersion": 9,
                   "operationMetrics": {"deep": [[[{"a": [[1]]}]]]}}),
    ]
    lines = ["{" + st.s("commitInfo") + st.colon + st.enc(f) + "}" for st, f in rows]
    # valid, not proved by the scanner: the parse tree decides
    lines.append('{"commitInfo":{"operation":"WRITE","isBlindAppend":true,"isBlindAppend":false}}')
    lines.append('{"commitInfo":{"operation":"DELETE","isBlindAppend":true,"operation":"WRITE"}}')
    lines.append('{"commitInfo":{"operation":"WRITE","readVersion":1.0,"isBlindAppend":true}}')
    commits = []
    for k, line in enumerate(lines):
        f = {"path": "ci-%02d.parquet" % (k + 1), "partitionValues": {}, "size": 100 + k,
             "modificationTime": ms, "dataChange": True,
             "stats": '{"numRecords":1,"minValues":{"id":%d},"maxValues":{"id":%d},'
                      '"nullCount":{"id":0}}' % (k, k)}
        commits.append([line, add(COMPACT, list(f), f)])
    return commits


def main():
    v0 = [json.dumps(commit_info("CREATE TABLE", 0), separators=(',', ':')),
          json.dumps(PROTOCOL, separators=(',', ':')),
          json.dumps(metadata(COLS[:6]), separators=(',', ':'))]
    v1, v2 = variety_commits()
    write_table("variety", [v0, v1, v2])
    for case in ["u0000_path", "utf8_stats", "lone_surrogate", "inner_escape",
                 "duplicate_path", "quote_as_u0022"]:
        v3 = [json.dumps(commit_info("WRITE", 3), separators=(',', ':'))]
        v3 += v1[1:4] + [bad_line(case)] + v1[4:7]
        # (the lines of version 1 again: new paths)
        v3 = [l.replace("part-0000", "part-3000").replace("-rs-py", "-rs-py-3")
              .replace("-jvm", "-jvm-3") if l.startswith('{"add"') and "bad" not in l else l
              for l in v3]
        write_table("bad_" + case, [v0, v1, v2, v3])
    for case in ["zero_stats", "zero_size"]:
        v3 = [json.dumps(commit_info("WRITE", 3), separators=(',', ':'))]
        line = bad_line("duplicate_path").replace('"path":"part-00090-first.parquet",', '', 1)
        v3 += [line.replace("part-00090-bad", "part-0009%d-tpl" % k) for k in range(1, 5)]
        if case == "zero_stats":
            bad = line.replace('minValues\\":{\\"id\\":90000', 'minValues\\":{\\"id\\":09000', 1)
        else:
            bad = line.replace('"size":9090,', '"size":0909,', 1)
        assert bad != line
        v3.append(bad.replace("part-00090-bad", "part-00095-bad"))
        write_table("tpl_" + case, [v0, v1, v2, v3])
    write_table("removes", [v0, v1, remove_lines(v1)])
    write_table("commit_infos", [v0] + commit_info_lines())
    bad = json.dumps({"remove": {"path": json.loads(v1[1])["add"]["path"],
                                 "dataChange": True, "size": -5}}, separators=(',', ':'))
    write_table("bad_remove_negative_size",
                [v0, v1, [json.dumps(commit_info("DELETE", 2), separators=(',', ':')), bad]])


if __name__ == "__main__":
    main()
