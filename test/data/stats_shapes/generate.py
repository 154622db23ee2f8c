#!/usr/bin/env python3
"""Generate test/data/stats_shapes: one winner commit whose add lines carry
statistics and add-line shapes at the edges of the conflict checker's fast
decoders (src/stats/stats.c scan_stats, src/snapshot/commit_cache.c fast_add): duplicates,
non-objects, white space, escapes, non-ASCII, deep nesting, odd numbers,
nested columns, odd add-line layouts.  Run from this directory."""
import json

schema = {"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}},
    {"name": "s", "type": "string", "nullable": True, "metadata": {}},
    {"name": "d", "type": "double", "nullable": True, "metadata": {}},
    {"name": "t", "type": "timestamp", "nullable": True, "metadata": {}},
    {"name": "st", "type": {"type": "struct", "fields": [
        {"name": "a", "type": "integer", "nullable": True, "metadata": {}}]},
     "nullable": True, "metadata": {}},
    {"name": "i", "type": "integer", "nullable": True, "metadata": {}}]}
v0 = [
    {"commitInfo": {"timestamp": 1700000000000, "operation": "CREATE TABLE",
                    "operationParameters": {}, "isolationLevel": "Serializable",
                    "isBlindAppend": True, "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}},
    {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
    {"metaData": {"id": "stats-shapes", "format": {"provider": "parquet", "options": {}},
                  "schemaString": json.dumps(schema), "partitionColumns": [],
                  "configuration": {}, "createdTime": 1700000000000}},
]


def add(path, st, **extra):
    a = {"path": path, "partitionValues": {}, "size": 100,
         "modificationTime": 1700000000001, "dataChange": True}
    if st is not None:
        a["stats"] = st
    a.update(extra)
    return {"add": a}


S = [
    ('normal', '{"numRecords":10,"minValues":{"id":5,"s":"b","d":1.5,"t":"2024-01-01T00:00:00.000Z","st":{"a":1}},"maxValues":{"id":9,"s":"d","d":2.5,"t":"2024-01-02T00:00:00.000Z","st":{"a":3}},"nullCount":{"id":0,"s":0,"d":0,"t":0,"st":{"a":0}}}'),
    ('dup_min_last_wins', '{"numRecords":10,"minValues":{"id":100},"maxValues":{"id":200},"nullCount":{"id":0},"minValues":{"id":5}}'),
    ('dup_key_inner', '{"numRecords":10,"minValues":{"id":100,"id":1},"maxValues":{"id":2,"id":3},"nullCount":{"id":0}}'),
    ('min_not_object', '{"numRecords":10,"minValues":"x","maxValues":[1,2],"nullCount":{"id":0}}'),
    ('whitespace', ' { "numRecords" : 10 ,\n "minValues" : { "id" : 5 } ,\t"maxValues":{"id":9},"nullCount":{"id":0}}\r\n'),
    ('numrec_dup', '{"numRecords":1,"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":0},"tightBounds":true,"tightBounds":"x"}'),
    ('escape_in_value', '{"numRecords":10,"minValues":{"id":5,"s":"a\\"b"},"maxValues":{"id":9,"s":"z"},"nullCount":{"id":0,"s":0}}'),
    ('non_ascii', '{"numRecords":10,"minValues":{"id":5,"s":"\u00e9"},"maxValues":{"id":9,"s":"\u00ff"},"nullCount":{"id":0,"s":0}}'),
    ('trailing_garbage', '{"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":0}} x'),
    ('deep', '{"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":0},"x":' + '[' * 40 + ']' * 40 + '}'),
    ('exp_number', '{"numRecords":10,"minValues":{"id":1e5},"maxValues":{"id":2.0},"nullCount":{"id":0}}'),
    ('minus_zero', '{"numRecords":10,"minValues":{"id":-0},"maxValues":{"id":0.000},"nullCount":{"id":0}}'),
    ('leading_zero', '{"numRecords":10,"minValues":{"id":05},"maxValues":{"id":9},"nullCount":{"id":0}}'),
    ('literal_min', '{"numRecords":10,"minValues":{"id":true},"maxValues":{"id":null},"nullCount":{"id":0}}'),
    ('empty', '{}'),
    ('nullcount_too_big', '{"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":11}}'),
    ('all_null', '{"numRecords":10,"minValues":{},"maxValues":{},"nullCount":{"id":10}}'),
    ('escaped_key', '{"numRecords":10,"minValues":{"\\u0069d":5},"maxValues":{"id":9},"nullCount":{"id":0}}'),
    ('nested_only', '{"numRecords":10,"minValues":{"st":{"a":1}},"maxValues":{"st":{"a":2}},"nullCount":{"st":{"a":0}}}'),
    ('truncated', '{"numRecords":10,"minValues":{"id":5'),
    ('control_char', '{"numRecords":10,"minValues":{"id":5,"s":"a\tb"},"maxValues":{"id":9,"s":"z"},"nullCount":{"id":0,"s":0}}'),
    ('ts_values', '{"numRecords":3,"minValues":{"t":"2024-01-01T00:00:00.000Z"},"maxValues":{"t":"2024-01-01T00:00:00.000Z"},"nullCount":{"t":0}}'),
    ('neg_ids', '{"numRecords":3,"minValues":{"id":-9223372036854775808},"maxValues":{"id":-5},"nullCount":{"id":0}}'),
    # integer leaves decoded without a parse tree (int_leaf_fast) and
    # the shapes it leaves to the general decoder
    ('int_ok', '{"numRecords":4,"minValues":{"id":3,"i":-7},"maxValues":{"id":4,"i":2147483647},"nullCount":{"id":0,"i":4}}'),
    ('int_out_of_range', '{"numRecords":4,"minValues":{"id":3,"i":-2147483649},"maxValues":{"id":4,"i":2147483648},"nullCount":{"id":0,"i":0}}'),
    ('int_fraction', '{"numRecords":4.0,"minValues":{"id":3.0,"i":5.0},"maxValues":{"id":4.00,"i":6.0},"nullCount":{"id":0.0,"i":1.0}}'),
    ('int_19_digits', '{"numRecords":4,"minValues":{"id":1234567890123456789,"i":0},"maxValues":{"id":1234567890123456790,"i":0},"nullCount":{"id":0,"i":0}}'),
    ('int_null_entries', '{"numRecords":4,"minValues":{"id":null,"i":null},"maxValues":{"id":4,"i":"5"},"nullCount":{"id":null,"i":-1}}'),
    ('numrec_negative', '{"numRecords":-1,"minValues":{"id":3},"maxValues":{"id":4},"nullCount":{"id":2}}'),
    ('numrec_small', '{"numRecords":1,"minValues":{"id":3,"i":1},"maxValues":{"id":4,"i":1},"nullCount":{"id":2,"i":1}}'),
    ('long_stats', '{"numRecords":4,"pad":"' + 'p' * 20000 + '","minValues":{"id":3,"i":1},"maxValues":{"id":4,"i":1},"nullCount":{"id":0,"i":0}}'),
    # the prescan (stats scanned still escaped while the add line is read)
    ('spaces_only', '{ "numRecords" : 4 , "minValues" : { "id" : 3 , "i" : 1 } , "maxValues" : { "id" : 4 , "i" : 2 } , "nullCount" : { "id" : 0 , "i" : 0 } } '),
    ('slash_escape', '{"numRecords":4,"minValues":{"id":3,"s":"a/b"},"maxValues":{"id":4,"s":"a/c"},"nullCount":{"id":0,"s":0}}'),
    ('big_id', '{"numRecords":3,"minValues":{"id":9223372036854775808},"maxValues":{"id":9223372036854775807},"nullCount":{"id":0}}'),
]
lines = [{"commitInfo": {"timestamp": 1700000000001, "operation": "WRITE",
                         "operationParameters": {}, "isolationLevel": "Serializable",
                         "isBlindAppend": False, "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}}]
for name, st in S:
    lines.append(add(name + '.parquet', st))
one = '{"numRecords":1,"minValues":{"id":%d},"maxValues":{"id":%d},"nullCount":{"id":0}}'
lines.append(add('stats_null.parquet', None, stats=None))
lines.append(add('no_stats.parquet', None))
lines.append(add('with_slash.parquet', one % (5, 5)))
lines.append(add('tags_dv_null.parquet', one % (7, 7), tags={"a": "b", "n": {"x": [1, 2, None]}},
                 deletionVector=None, baseRowId=4, defaultRowCommitVersion=1,
                 clusteringProvider="liquid"))
lines.append(add('stats_object.parquet', None,
                 stats={"numRecords": 1, "minValues": {"id": 7}, "maxValues": {"id": 7}, "nullCount": {"id": 0}}))
lines.append(add('pv.parquet', one % (70, 70), partitionValues={"x": None, "y": "1"}))
lines.append(add('unicode_stats_escape.parquet',
                 '{"numRecords":1,"minValues":{"id":5,"s":"\\u00e9"},"maxValues":{"id":5,"s":"\\u00e9"},"nullCount":{"id":0,"s":0}}'))
with open('_delta_log/00000000000000000000.json', 'w') as f:
    for l in v0:
        f.write(json.dumps(l, separators=(',', ':')) + '\n')
with open('_delta_log/00000000000000000001.json', 'w') as f:
    for l in lines:
        f.write(json.dumps(l, separators=(',', ':'), ensure_ascii=False)
                .replace('with_slash', 'with\\/slash') + '\n')
    esc = lambda st: json.dumps(st)
    # hand-written shapes: a duplicate size key, a fractional size, spaces
    f.write('{"add":{"path":"dup_size.parquet","partitionValues":{},"size":-1,"size":5,'
            '"modificationTime":1,"dataChange":true,"stats":%s}}\n' % esc(one % (8, 8)))
    f.write('{"add":{"path":"size_frac.parquet","partitionValues":{},"size":1.0,'
            '"modificationTime":1,"dataChange":true,"stats":%s}}\n' % esc(one % (8, 8)))
    f.write(' { "add" : { "path" : "spaced.parquet" , "partitionValues" : { } , "size" : 1 ,'
            ' "modificationTime" : 1 , "dataChange" : false , "stats" : %s } } \n' % esc(one % (6, 6)))
    f.write('{"remove":{"path":"gone.parquet","deletionTimestamp":1,"dataChange":true}}\n')
    # prescanned stats, then the line is refused (a duplicate size after
    # them); the next fast line (no stats) must not inherit its answers
    f.write('{"add":{"path":"dup_after_stats.parquet","partitionValues":{},"size":1,'
            '"modificationTime":1,"dataChange":true,"stats":%s,"size":2}}\n' % esc(one % (1, 1)))
    f.write('{"add":{"path":"no_stats_after.parquet","partitionValues":{},"size":1,'
            '"modificationTime":1,"dataChange":true}}\n')
    # a stats string with a solidus escape: not prescanned, unescaped as usual
    f.write('{"add":{"path":"solidus.parquet","partitionValues":{},"size":1,'
            '"modificationTime":1,"dataChange":true,"stats":%s}}\n'
            % esc(one % (2, 2)).replace('numRecords', 'num\\/Records'))
