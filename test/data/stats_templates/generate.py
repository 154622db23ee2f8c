#!/usr/bin/env python3
"""Generate test/data/stats_templates: one winner commit whose add lines
share the shape of their statistics except for one change at a time, to
test the prescan's shape templates (src/format/jshape.c, used by
src/stats/stats.c): a line of the remembered shape is decoded by matching, any
other is scanned and its shape remembered.  Each change below must give the
decision the parse tree gives.  Run from this directory."""
import json

schema = {"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}},
    {"name": "i", "type": "integer", "nullable": True, "metadata": {}},
    {"name": "s", "type": "string", "nullable": True, "metadata": {}}]}
v0 = [
    {"commitInfo": {"timestamp": 1700000000000, "operation": "CREATE TABLE",
                    "operationParameters": {}, "isolationLevel": "Serializable",
                    "isBlindAppend": True, "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}},
    {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
    {"metaData": {"id": "stats-templates", "format": {"provider": "parquet", "options": {}},
                  "schemaString": json.dumps(schema), "partitionColumns": [],
                  "configuration": {}, "createdTime": 1700000000000}},
]

# The model shape; {nr} {lo} {hi} {ilo} {ihi} {tb} are filled per line.
BASE = ('{{"numRecords":{nr},"minValues":{{"id":{lo},"i":{ilo},"s":"a"}},'
        '"maxValues":{{"id":{hi},"i":{ihi},"s":"z"}},'
        '"nullCount":{{"id":0,"i":0,"s":0}},"tightBounds":{tb}}}')


def base(nr=10, lo=5, hi=9, ilo=1, ihi=2, tb='true'):
    return BASE.format(nr=nr, lo=lo, hi=hi, ilo=ilo, ihi=ihi, tb=tb)


S = [
    # the model and lines of its shape (decoded by matching)
    ('m00_model', base()),
    ('m01_same_shape', base(lo=100, hi=200)),
    ('m02_negative', base(lo=-50, hi=-3)),
    ('m03_tight_false', base(lo=6, hi=6, tb='false')),
    ('m04_tight_null', base(lo=7, hi=7, tb='null')),
    ('m05_numrec_exp', base(nr='1e1', lo=20, hi=30)),
    ('m06_numrec_frac', base(nr='10.0', lo=20, hi=30)),
    ('m07_id_frac', base(lo='5.5', hi='8.0')),
    ('m08_id_exp', base(lo='1e2', hi='2E2')),
    ('m09_id_19_digits', base(lo=1234567890123456789, hi=1234567890123456790)),
    ('m10_id_out_of_range', base(lo=9223372036854775808, hi=9223372036854775809)),
    ('m11_i_out_of_range', base(ilo=-2147483649, ihi=2147483648)),
    ('m12_minus_zero', base(lo='-0', hi='0')),
    ('m13_numrec_small', base(nr=0, lo=1, hi=2)),
    ('m14_string_where_number', base(lo='"5"', hi=9)),
    ('m15_back_to_model', base(lo=3, hi=4)),
    ('m16_null_where_number', base(lo='null', hi='null')),
    ('m17_back_again', base(lo=40, hi=41)),
    ('m18_long_number', base(lo='1' + '0' * 70, hi=9)),
    ('m19_after_long', base(lo=42, hi=43)),
    ('m20_leading_zero', base(lo='05', hi=9)),
    ('m21_after_bad', base(lo=44, hi=45)),
    # literal changes: another key, spacing, an extra member, a duplicate
    ('m22_key_case', base().replace('"id":5', '"iD":5')),
    ('m23_model_again', base(lo=46, hi=47)),
    ('m24_space', base(lo=48, hi=49).replace('"id":48', '"id": 48')),
    ('m25_model_again', base(lo=50, hi=51)),
    ('m26_extra_member', base(lo=52, hi=53)[:-1] + ',"x":1}'),
    ('m27_model_again', base(lo=54, hi=55)),
    ('m28_dup_min_after', base(lo=56, hi=57)[:-1] + ',"minValues":{"id":0}}'),
    ('m29_model_again', base(lo=58, hi=59)),
    ('m30_escape_in_string', base(lo=60, hi=61).replace('"s":"a"', '"s":"a\\"b"')),
    ('m31_model_again', base(lo=62, hi=63)),
    ('m32_trailing_garbage', base(lo=64, hi=65) + ' x'),
    ('m33_model_again', base(lo=66, hi=67)),
    ('m34_trailing_space', base(lo=68, hi=69) + ' '),
    ('m35_model_again', base(lo=70, hi=71)),
    ('m36_number_in_word_slot', base(lo=72, hi=73, tb='1')),
    ('m37_model_again', base(lo=74, hi=75)),
    ('m38_string_value_changes', base(lo=76, hi=77).replace('"s":"z"', '"s":"zzz yyy"')),
    ('m39_empty_string', base(lo=78, hi=79).replace('"s":"a"', '"s":""')),
    ('m40_truncated', base(lo=80, hi=81)[:-5]),
    ('m41_model_again', base(lo=82, hi=83)),
]


def add(path, st):
    return {"add": {"path": path, "partitionValues": {}, "size": 100,
                    "modificationTime": 1700000000001, "dataChange": True, "stats": st}}


with open('_delta_log/00000000000000000000.json', 'w') as f:
    for l in v0:
        f.write(json.dumps(l, separators=(',', ':')) + '\n')
with open('_delta_log/00000000000000000001.json', 'w') as f:
    f.write(json.dumps({"commitInfo": {"timestamp": 1700000000001, "operation": "WRITE",
                                       "operationParameters": {}, "isolationLevel": "Serializable",
                                       "isBlindAppend": False,
                                       "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}},
                       separators=(',', ':')) + '\n')
    for name, st in S:
        f.write(json.dumps(add(name + '.parquet', st), separators=(',', ':')) + '\n')
