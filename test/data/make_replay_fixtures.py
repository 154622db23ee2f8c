#!/usr/bin/env python3
"""Generate the fixtures of the replay_fastpath suite (test/data/replay/).

Run from anywhere: python3 test/data/make_replay_fixtures.py
Each table's commits are written byte for byte from the raw lines below
(odd but valid JSON the fast replay decoder must read exactly as the full
decoder does, or leave to it), plus one table per line that must be
refused with the same ERROR as before.  Output is deterministic; the
generated files are committed so the tests never need Python.
"""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "replay")

PROTOCOL = '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}'
METADATA = ('{"metaData":{"id":"replay-fixture","format":{"provider":"parquet",'
            '"options":{}},"schemaString":"{\\"type\\":\\"struct\\",\\"fields\\":'
            '[{\\"name\\":\\"id\\",\\"type\\":\\"long\\",\\"nullable\\":true,'
            '\\"metadata\\":{}}]}","partitionColumns":[],"configuration":{},'
            '"createdTime":1700000000000}}')
STATS = '"{\\"numRecords\\":3,\\"minValues\\":{\\"id\\":1},\\"maxValues\\":{\\"id\\":3},\\"nullCount\\":{\\"id\\":0}}"'


def add(path, extra='', size='10', stats=STATS):
    s = ('{"add":{"path":%s,"partitionValues":{},"size":%s,'
         '"modificationTime":1700000000000,"dataChange":true' % (path, size))
    if stats is not None:
        s += ',"stats":' + stats
    return s + extra + '}}'


def write(table, version, lines):
    path = os.path.join(OUT, table, "_delta_log", "%020d.json" % version)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write("".join(l + "\n" for l in lines).encode("utf-8")
                if isinstance(lines[0], str) else b"".join(l + b"\n" for l in lines))


DV = ('"deletionVector":{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^",'
      '"offset":1,"sizeInBytes":36,"cardinality":2}')
DV_NO_OFFSET = ('"deletionVector":{"cardinality":7,"sizeInBytes":40,'
                '"pathOrInlineDv":"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L",'
                '"storageType":"i"}')

ODD_V0 = [
    '{"commitInfo":{"timestamp":1700000000000,"operation":"WRITE"}}',
    PROTOCOL,
    METADATA,
    # %-encoding stays as it is in the key
    add('"a%20b.parquet"'),
    # \/ escape in the path
    add('"dir\\/c.parquet"'),
    # \u escapes in the path (left to the full decoder)
    add('"\\u00e9t\\u00e9.parquet"'),
    # raw UTF-8 in the path (left to the full decoder)
    add('"\u00fcber.parquet"'),
    # white space between every token
    ' {\t"add" :\t{ "path" : "ws.parquet" , "partitionValues" : { } , "size" : 11 ,'
    ' "modificationTime" : 1700000000000 , "dataChange" : true , "stats" : null } } \t',
    # duplicate keys: the last wins (left to the full decoder)
    add('"dupsize.parquet"', ',"size":22'),
    '{"add":{"path":"dup1.parquet","path":"dup2.parquet","partitionValues":{},'
    '"size":12,"modificationTime":1,"dataChange":false}}',
    # an escaped key
    '{"add":{"p\\u0061th":"keyesc.parquet","partitionValues":{},"size":13,'
    '"modificationTime":1,"dataChange":true}}',
    # no stats at all, and stats as an object
    add('"nostats.parquet"', stats=None),
    add('"objstats.parquet"', stats='{"numRecords":4}'),
    # numbers at the limits
    add('"big18.parquet"', size='999999999999999999'),
    add('"big19.parquet"', size='9223372036854775807'),
    add('"zero.parquet"', size='-0'),
    add('"frac.parquet"', size='5.0'),
    '{"add":{"path":"mtime.parquet","partitionValues":{},"size":14,'
    '"modificationTime":-9223372036854775808,"dataChange":true,'
    '"baseRowId":null,"defaultRowCommitVersion":5}}',
    # deletion vectors: one with an offset, one inline without, and the same
    # path without a DV (another key)
    add('"dv.parquet"', ',' + DV),
    add('"dv.parquet"'),
    add('"dv2.parquet"', ',' + DV_NO_OFFSET),
    add('"dvnull.parquet"', ',"deletionVector":null'),
    # odd stats escapes, nested tags, unknown keys with containers
    add('"esc.parquet"',
        stats='"{\\"numRecords\\":1,\\"minValues\\":{\\"s\\":\\"a\\\\/b\\\\\\\\c\\\\n\\\\u00e9\\\\t\\"}}"'),
    # \u escapes in the stats string itself: validated, or (a surrogate
    # pair) left to the full decoder
    add('"uesc.parquet"', stats='"{\\"s\\":\\"\\u00e9\\u20ac\\"}"'.replace('\\\\u', '\\u')),
    add('"surr.parquet"', stats='"{\\"s\\":\\"\\ud83d\\ude00\\"}"'.replace('\\\\u', '\\u')),
    # nesting deeper than the fast decoder's limit (not the full one's)
    add('"deep.parquet"', ',"unknown":' + '[' * 40 + ']' * 40),
    add('"tags.parquet"', ',"tags":{"a":{"b":[1,2,{"c":null}]},"d":"e"},'
        '"unknown":[[],{},true,false,null,-1.5e+10]'),
    add('"partvals.parquet"').replace('"partitionValues":{}',
                                      '"partitionValues":{"a":"x","b":null,"c":1.5,"d":true}'),
    # two actions in one entry, and a null action
    '{"add":{"path":"pair_add.parquet","partitionValues":{},"size":15,'
    '"modificationTime":1,"dataChange":true},'
    '"remove":{"path":"nostats.parquet"}}',
    '{"add":null,"remove":{"path":"objstats.parquet","dataChange":true}}',
    # a remove of a file added above in the same commit, and one of nothing
    '{"remove":{"path":"big18.parquet","deletionTimestamp":1,"dataChange":true}}',
    '{"remove":{"path":"never-added.parquet"}}',
    # (big19's size would overflow the table's size sum)
    '{"remove":{"path":"big19.parquet"}}',
]

ODD_V1 = [
    # the DV add's remove (same unique id): the DV-less key stays
    '{"remove":{"path":"dv.parquet","deletionTimestamp":2,"dataChange":true,'
    '"extendedFileMetadata":true,"partitionValues":{},"size":10,' + DV + '}}',
    # removes with escapes the fast decoder reads
    '{"remove":{"path":"dir\\/c.parquet","dataChange":null,"size":null,'
    '"partitionValues":null,"extendedFileMetadata":null,"modificationTime":null}}',
    # a \u escape spelling a %-encoded path
    '{"remove":{"path":"a\\u002520b.parquet","deletionTimestamp":3}}',
    # white space, a DV null, a remove of the inline DV key
    ' { "remove" : { "path" : "ws.parquet" , "deletionVector" : null } } ',
    '{"remove":{"path":"dv2.parquet",' + DV_NO_OFFSET + '}}',
    # a remove of dup1 (never live: dup2 was) and of the real dup2
    '{"remove":{"path":"dup1.parquet"}}',
    '{"remove":{"path":"dup2.parquet","size":12}}',
    '{"commitInfo":{"timestamp":1700000000001,"operation":"DELETE"}}',
]

ODD_V2 = [
    # re-adds of removed files, one with another size
    add('"dir\\/c.parquet"', size='99'),
    add('"big18.parquet"'),
]

# One table per line that must be refused exactly as before (line 4 of v0).
BAD = {
    "bad_escape": add('"x.parquet"', stats='"{\\"a\\":\\q}"'),
    "bad_control": add('"x.parquet"', stats='"{\\"a\\":\\"\tb\\"}"'),
    "bad_utf8": None,
    "bad_size": add('"x.parquet"', size='-1'),
    "bad_size_string": add('"x.parquet"', size='"10"'),
    "bad_missing_mtime": '{"add":{"path":"x.parquet","partitionValues":{},'
                         '"size":1,"dataChange":true}}',
    "bad_empty_path": add('""'),
    "bad_dv_storage": add('"x.parquet"', ',' + DV.replace('"u"', '"uu"')),
    "bad_dv_offset": add('"x.parquet"', ',' + DV.replace('"offset":1', '"offset":2147483648')),
    "bad_dv_missing": add('"x.parquet"', ',"deletionVector":{"storageType":"u",'
                          '"pathOrInlineDv":"abc","sizeInBytes":1}'),
    "bad_remove_size": '{"remove":{"path":"x.parquet","size":-5}}',
    "bad_trailing": add('"x.parquet"') + ' x',
    "bad_pv_nested": add('"x.parquet"').replace('"partitionValues":{}',
                                                '"partitionValues":{"a":[1]}'),
}


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    write("odd", 0, ODD_V0)
    write("odd", 1, ODD_V1)
    write("odd", 2, ODD_V2)
    for name, bad in sorted(BAD.items()):
        head = ['{"commitInfo":{"timestamp":1700000000000}}', PROTOCOL, METADATA]
        if bad is None:
            # invalid UTF-8 (a lone continuation byte) inside the stats string
            line = add('"x.parquet"').encode("utf-8").replace(b'\\"id\\":1', b'\\"id\\":\x80')
            write(name, 0, [h.encode("utf-8") for h in head] + [line])
        else:
            write(name, 0, head + [bad])


if __name__ == "__main__":
    main()
