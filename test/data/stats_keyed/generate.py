#!/usr/bin/env python3
"""Generate test/data/stats_keyed: one winner commit whose add lines carry
statistics with the keys of one layout in a new order on every line, as
delta-rs writes them (its columns in hash order, numRecords first or last,
no tightBounds), for the prescan's keyed models (js_match_keyed in
src/format/jshape.c, used by src/stats/stats.c), and lines at the edges of
what a keyed model takes: a duplicate, an unknown or an escaped key, a
missing column or object, another kind of value, white space, invalid
texts.  Each must give the decision the parse tree gives.  Deterministic;
run from this directory."""
import json
import random

rnd = random.Random(20261204)
schema = {"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}},
    {"name": "i", "type": "integer", "nullable": True, "metadata": {}},
    {"name": "s", "type": "string", "nullable": True, "metadata": {}},
    {"name": "dev", "type": {"type": "struct", "fields": [
        {"name": "os", "type": "string", "nullable": True, "metadata": {}},
        {"name": "b", "type": "long", "nullable": True, "metadata": {}}]},
     "nullable": True, "metadata": {}}]}
v0 = [
    {"commitInfo": {"timestamp": 1700000000000, "operation": "CREATE TABLE",
                    "operationParameters": {}, "isolationLevel": "Serializable",
                    "isBlindAppend": True, "engineInfo": "delta-rs.0.22.0"}},
    {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
    {"metaData": {"id": "stats-keyed", "format": {"provider": "parquet", "options": {}},
                  "schemaString": json.dumps(schema), "partitionColumns": [],
                  "configuration": {}, "createdTime": 1700000000000}},
]


def shuffled(d):
    """d with its members in a new order, nested objects too"""
    items = [(k, shuffled(v) if isinstance(v, dict) else v) for k, v in d.items()]
    rnd.shuffle(items)
    return dict(items)


def stats(lo, hi, nr=10, ilo=1, ihi=2, tight=None):
    st = {"numRecords": nr,
          "minValues": {"id": lo, "i": ilo, "s": "a", "dev": {"os": "linux", "b": 3}},
          "maxValues": {"id": hi, "i": ihi, "s": "z", "dev": {"os": "mac os", "b": 9}},
          "nullCount": {"id": 0, "i": 0, "s": 0, "dev": {"os": 0, "b": 1}}}
    if tight is not None:
        st["tightBounds"] = tight
    return st


def text(st, order=True, sep=(',', ':')):
    return json.dumps(shuffled(st) if order else st, separators=sep, ensure_ascii=False)


S = [('k00_model', text(stats(5, 9, tight=True), order=False))]
# delta-rs lines: every line its own order; some id ranges meet the reads
for n in range(24):
    lo = [5, 40, 100, 1000, -50, 7][n % 6] + n
    S.append(('k%02d_reordered' % (n + 1), text(stats(lo, lo + 3, nr=10 + n))))
S += [
    # the text leaves out members: scalars may go (tightBounds, a column)
    ('e01_no_tight', text(stats(45, 46))),
    ('e02_no_id_min', text({k: ({kk: vv for kk, vv in v.items() if kk != 'id'}
                                if k == 'minValues' else v)
                            for k, v in stats(47, 48).items()})),
    ('e03_no_dev_b', text({k: ({kk: ({'os': 'x'} if kk == 'dev' else vv)
                                for kk, vv in v.items()} if k == 'maxValues' else v)
                           for k, v in stats(49, 50).items()})),
    # ... objects may not (the scanner or the tree decides)
    ('e04_no_min_object', text({k: v for k, v in stats(51, 52).items()
                                if k != 'minValues'})),
    ('e05_numrecords_only', json.dumps({"numRecords": 5})),
    # other kinds of values where the layout has numbers
    ('e06_string_id', text(stats('"53"', 54)).replace('"\\"53\\""', '"53"')),
    ('e07_null_id', text(stats(None, None))),
    ('e08_nan_string', text(stats('NaN', 56))),
    ('e09_object_id', text(stats({"x": 1}, 58))),
    # keys: repeated (the last counts), unknown, escaped
    ('e10_dup_id_last_low', text(stats(100, 200)).replace(
        '"minValues":{', '"minValues":{"id":900,', 1)[:-1] + ',"minValues":{"id":5}}'),
    ('e11_dup_in_object', text(stats(300, 301)).replace(
        '"maxValues":{', '"maxValues":{"id":302,', 1)),
    ('e12_unknown_key', text(stats(59, 60)).replace('"minValues":{', '"minValues":{"x":1,', 1)),
    ('e13_escaped_key', text(stats(61, 62)).replace('"maxValues"', '"max\\u0056alues"', 1)),
    # white space (Python's json.dumps), and texts that are not JSON
    ('e14_spaces', text(stats(63, 64), sep=(', ', ': '))),
    ('e15_trailing_comma', text(stats(65, 66))[:-1] + ',}'),
    ('e16_truncated', text(stats(67, 68))[:-7]),
    ('e17_no_colon', text(stats(69, 70)).replace('"numRecords":', '"numRecords" ', 1)),
    ('e18_garbage_after', text(stats(71, 72)) + ' x'),
    ('e19_back_to_keyed', text(stats(73, 74))),
    ('e20_non_ascii', text(stats(75, 76)).replace('"linux"', '"S\u00e3o Paulo \u2603"')),
]


def add(path, st):
    return {"add": {"path": path, "partitionValues": {}, "size": 100,
                    "modificationTime": 1700000000001, "dataChange": True, "stats": st,
                    "tags": None, "deletionVector": None, "baseRowId": None,
                    "defaultRowCommitVersion": None, "clusteringProvider": None}}


with open('_delta_log/00000000000000000000.json', 'w') as f:
    for line in v0:
        f.write(json.dumps(line, separators=(',', ':')) + '\n')
with open('_delta_log/00000000000000000001.json', 'w') as f:
    for name, st in S:
        f.write(json.dumps(add(name + '.parquet', st), separators=(',', ':')) + '\n')
    f.write(json.dumps({"commitInfo": {"timestamp": 1700000000001, "operation": "WRITE",
                                       "operationParameters": {"mode": "Append"},
                                       "isolationLevel": "Serializable",
                                       "isBlindAppend": False, "clientVersion": "delta-rs.0.22.0"}},
                       separators=(',', ':')))
# version 2 removes one of them: a check from version 1 without read_files
# then needs the read files, and builds the read snapshot (keyed lines, the
# unescaped copy of each statistics text kept) when asked again
with open('_delta_log/00000000000000000002.json', 'w') as f:
    f.write(json.dumps({"remove": {"path": "e19_back_to_keyed.parquet",
                                   "deletionTimestamp": 1700000000002, "dataChange": True,
                                   "extendedFileMetadata": True, "partitionValues": {},
                                   "size": 100}}, separators=(',', ':')) + '\n')
    f.write(json.dumps({"commitInfo": {"timestamp": 1700000000002, "operation": "DELETE",
                                       "operationParameters": {"predicate": "[\"(id = 73)\"]"},
                                       "isolationLevel": "Serializable",
                                       "isBlindAppend": False, "clientVersion": "delta-rs.0.22.0"}},
                       separators=(',', ':')) + '\n')
