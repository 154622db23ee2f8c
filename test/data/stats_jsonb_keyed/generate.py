#!/usr/bin/env python3
"""Generate test/data/stats_jsonb_keyed/{tame,wild}: a JSON commit each
whose add lines carry statistics texts of many layouts interleaved line by
line (tame: three key sets, each key's values of one type, in any order;
wild: anything below), so that a
text is matched against the remembered layouts of its keys (by their
signature), byte for byte or by key: the same keys in other orders at
every level, columns missing from minValues / maxValues, nested structs,
values of another type under the same keys (string, number, null, object,
array, true/false), escapes, raw UTF-8, NaN / Infinity as strings, numbers
of every size, duplicate keys, keys that differ only in escapes, and white
space.  Each text must become the jsonb PostgreSQL's own input makes of it
(test/sql/stats_jsonb.sql).

Run: python3 test/data/stats_jsonb_keyed/generate.py (seeded, deterministic;
the generated log is committed so the tests never need Python).
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20)

COLS = ["id", "name", "ts", "amount", "s"]
VALUES = {
    "id": lambda: rng.choice([str(rng.randint(-10**6, 10**6)), "9223372036854775807",
                              "-9223372036854775808", "123456789012345678901234567890",
                              "1e3", "-0", "0.0", "1.50"]),
    "name": lambda: json.dumps(rng.choice(["abc", "a b", "tab\there", "quote\"q",
                                           "back\\slash", "\u00e9t\u00e9", "\u4e2d\u6587",
                                           "\U0001f600", "NaN", "Infinity", "-Infinity",
                                           "", "x" * 40]),
                               ensure_ascii=rng.random() < 0.5),
    "ts": lambda: json.dumps("2024-0%d-01T00:00:00.000Z" % rng.randint(1, 9)),
    "amount": lambda: rng.choice(["12.50", "0.001", "1E+400", "-1.7976931348623157E308",
                                  "\"NaN\"", "\"Infinity\"", "null", "3"]),
    "s": lambda: rng.choice(['{"a":1,"b":"x"}', '{"b":"x","a":1}', '{"a":{"c":[1,2]}}',
                             '[1,"two",null]', 'null', 'true', '"s"', '{}', '[]']),
}


# the same keys with values of one type each (a writer's own columns)
TAME = {
    "id": lambda: str(rng.randint(-10**6, 10**6)),
    "name": lambda: json.dumps(rng.choice(["abc", "a b", "quote\"q", "\u00e9t\u00e9", "NaN"]),
                               ensure_ascii=False),
    "ts": lambda: json.dumps("2024-0%d-01T00:00:00.000Z" % rng.randint(1, 9)),
    "amount": lambda: rng.choice(["12.50", "0.001", "3", "1E+400"]),
    "s": lambda: '{"a":%d}' % rng.randint(0, 9),
}


def obj(members, ws):
    sep = ", " if ws else ","
    col = ": " if ws else ":"
    return "{" + sep.join('"%s"%s%s' % (k, col, v) for k, v in members) + "}"


def stats_text(i, wild):
    cols = COLS[:]
    ws = rng.random() < 0.2 if wild else False
    if wild:
        present = [c for c in cols if rng.random() < 0.85] or ["id"]
    else:
        present = rng.choice([cols, cols, cols[:3]])
    order = lambda xs: rng.sample(xs, len(xs)) if rng.random() < 0.5 else xs
    value = (lambda c: VALUES[c]()) if wild else (lambda c: TAME[c]())
    mins = [(c, value(c)) for c in order(present)]
    maxs = [(c, value(c)) for c in order(present)]
    ncs = [(c, str(rng.randint(0, 5))) for c in order(cols)]
    top = [("numRecords", str(rng.randint(0, 100))),
           ("minValues", obj(mins, ws)), ("maxValues", obj(maxs, ws)),
           ("nullCount", obj(ncs, ws))]
    if rng.random() < 0.3:
        top.append(("tightBounds", rng.choice(["true", "false"])))
    top = order(top)
    text = obj(top, ws)
    r = rng.random() if wild else 1
    if r < 0.03:
        text = text[:-1] + ',"numRecords":7}'          # duplicate key (last wins)
    elif r < 0.05:
        text = text.replace('"minValues"', '"min\\u0056alues"', 1)  # escaped key
    elif r < 0.06:
        text = text[:-1] + ',"minValues":null}'        # a duplicate of another type
    return text


lines = [
    {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
    {"metaData": {"id": "stats-jsonb-keyed", "format": {"provider": "parquet", "options": {}},
                  "schemaString": json.dumps({"type": "struct", "fields": [
                      {"name": "id", "type": "long", "nullable": True, "metadata": {}},
                      {"name": "name", "type": "string", "nullable": True, "metadata": {}},
                      {"name": "ts", "type": "timestamp", "nullable": True, "metadata": {}},
                      {"name": "amount", "type": "double", "nullable": True, "metadata": {}},
                      {"name": "s", "type": {"type": "struct", "fields": [
                          {"name": "a", "type": "long", "nullable": True, "metadata": {}}]},
                       "nullable": True, "metadata": {}}]}),
                  "partitionColumns": [], "configuration": {}, "createdTime": 1700000000000}},
]
for name, wild in (("tame", False), ("wild", True)):
    log = os.path.join(HERE, name, "_delta_log")
    os.makedirs(log, exist_ok=True)
    with open(os.path.join(log, "00000000000000000000.json"), "w") as f:
        for l in lines:
            f.write(json.dumps(l) + "\n")
        for i in range(1000):
            add = {"path": "k%04d.parquet" % i, "partitionValues": {}, "size": 100 + i,
                   "modificationTime": 1700000000000, "dataChange": True,
                   "stats": stats_text(i, wild)}
            f.write(json.dumps({"add": add}) + "\n")
