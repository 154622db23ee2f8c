#!/usr/bin/env python3
"""Generate test/data/stats_jsonb: one JSON commit whose add lines carry
odd "stats" strings, for test/sql/stats_jsonb.sql (the stats -> jsonb
conversion of snapshot_files).  Each stats string is written here as the
exact JSON text it holds (the commit line escapes it once more).

Run: python3 test/data/stats_jsonb/generate.py (deterministic output; the
generated log is committed so the tests never need Python).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

STATS = [
    # plain statistics, as Spark writes them
    '{"numRecords":3,"minValues":{"id":1,"name":"a"},"maxValues":{"id":3,"name":"c"},"nullCount":{"id":0,"name":1}}',
    # numbers: display scale, -0, zeros, long integers, exponents, tiny/huge
    '{"numRecords":2,"minValues":{"a":-0,"b":1.50,"c":0.000,"d":-0.0,"e":100,"f":0.1,"g":10000,"h":99990000.00001}}',
    '{"numRecords":1,"minValues":{"i19":1234567890123456789,"i20":12345678901234567890,"neg":-9223372036854775808,"big":123456789012345678901234567890.123456789}}',
    '{"numRecords":1,"minValues":{"e1":1e5,"e2":1.5E-7,"e3":-2e+3,"e4":0e0,"e5":1E400,"e6":123.456e-2}}',
    '{"numRecords":1,"minValues":{"f15":123456789012345,"f16":1234567890123456,"d15":0.123456789012345,"d16":0.1234567890123456,"d18":123456789.123456789,"lead":0.0001,"m":-12.3400}}',
    # duplicate keys (last wins), at every level; numRecords twice
    '{"numRecords":5,"minValues":{"x":1,"x":2,"y":{"z":1,"z":"two"}},"numRecords":6,"minValues":{"x":3}}',
    # key order: length first, then bytes; keys needing escapes
    '{"numRecords":1,"minValues":{"bb":1,"a":2,"ccc":3,"B":4,"":5,"a\\"q":6,"tab\\tkey":7,"sl\\/ash":8,"back\\\\slash":9}}',
    # string escapes: quotes, backslash, controls, unicode, surrogate pairs
    '{"numRecords":1,"minValues":{"s1":"say \\"hi\\"","s2":"a\\\\b","s3":"l1\\nl2\\r\\t\\b\\f","s4":"caf\\u00e9","s5":"\\ud83d\\ude00","s6":"\\u20ac\\u0041","s7":"x\\/y"}}',
    # raw non-ASCII (UTF-8) strings and keys
    '{"numRecords":1,"minValues":{"name":"Zo\u00eb","\u00fcber":"\u6f22\u5b57","emoji":"\U0001F600"}}',
    # \\u0000 cannot be represented: stats NULL (as before)
    '{"numRecords":1,"minValues":{"s":"a\\u0000b"}}',
    # white space everywhere
    ' { "numRecords" : 4 ,\n "minValues" :\t{ "a" : [ 1 , 2 , { } , [ ] ] } , "tightBounds" : true } ',
    # arrays, nested objects, literals, empty containers
    '{"numRecords":1,"minValues":{"arr":[1,"two",null,true,false,[3,[4]],{"k":[]}],"o":{},"n":null,"t":true,"f":false},"tightBounds":false}',
    # not an object: scalar and array stats
    '42',
    '"just a string"',
    '[1,2,3]',
    'null',
    # invalid JSON: stats NULL
    '{"numRecords":1,',
    '{"numRecords":1}x',
    '{"numRecords":01}',
    '{"numRecords":1.}',
    '{"a":"\\x"}',
    '{"a":"\\ud83d"}',
    '{"a":"\\ude00\\ud83d"}',
    '{"a":tru}',
    '',
    # odd numRecords
    '{"numRecords":-1}',
    '{"numRecords":1.0}',
    '{"numRecords":1e2}',
    '{"numRecords":"7"}',
    '{"numRecords":99999999999999999999}',
    # many keys (more than an insertion sort's worth) and a wide array
    '{"numRecords":1,"minValues":{' + ','.join('"k%02d":%d' % (i, (i * 37) % 50) for i in range(40)) + '}}',
    '{"numRecords":1,"maxValues":{"w":[' + ','.join(str(i) for i in range(70)) + ']}}',
    # deep nesting: 64 levels parse, 65 do not (stats NULL)
    '{"d":' + '[' * 63 + '1' + ']' * 63 + '}',
    '{"d":' + '[' * 64 + '1' + ']' * 64 + '}',
    # long string value
    '{"numRecords":1,"minValues":{"long":"' + 'abcdefgh' * 300 + '"}}',
]


def main():
    log = os.path.join(HERE, "_delta_log")
    os.makedirs(log, exist_ok=True)
    lines = [
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
        {"metaData": {"id": "stats-jsonb", "format": {"provider": "parquet", "options": {}},
                      "schemaString": json.dumps({"type": "struct", "fields": [
                          {"name": "id", "type": "long", "nullable": True, "metadata": {}}]}),
                      "partitionColumns": [], "configuration": {}, "createdTime": 0}},
    ]
    for i, s in enumerate(STATS):
        lines.append({"add": {"path": "f%02d.parquet" % i, "partitionValues": {}, "size": 100 + i,
                              "modificationTime": 0, "dataChange": True, "stats": s}})
    # stats given as an object instead of a string (kept as its JSON text)
    lines.append({"add": {"path": "obj.parquet", "partitionValues": {}, "size": 1,
                          "modificationTime": 0, "dataChange": True,
                          "stats": {"numRecords": 2, "minValues": {"b": 1.10, "a": "x"}}}})
    text = "".join(json.dumps(l, separators=(",", ":"), ensure_ascii=False) + "\n" for l in lines)
    # stats strings whose line escapes more than needed (\u0022 for a quote,
    # \/ for a slash, \n and \t as white space, \u00e9 for a letter)
    head = '{"add":{"path":"%s","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true,"stats":"'
    text += head % "raw1.parquet" + r'{\u0022numRecords\u0022:9,\u0022minValues\u0022:{\u0022p\u0022:\"a\/b\"}}' + '"}}\n'
    text += head % "raw2.parquet" + r'{\n\t\"numRecords\":8,\r\n\"minValues\":{\"caf\u00e9\":\"\\u00e9\"}}' + '"}}\n'
    with open(os.path.join(log, "%020d.json" % 0), "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
