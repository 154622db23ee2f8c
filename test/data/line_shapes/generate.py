#!/usr/bin/env python3
"""Generate test/data/line_shapes: Delta tables whose add lines repeat one
layout, for the add line shapes of src/snapshot/addline.c (the line before and
after the stats value matched as JSON shape templates, each slot decoded by
the role its token had in the model line), tested in
test/sql/line_shapes.sql.

- ok/: one commit (version 0: protocol, metaData) and one commit
  (version 1) of add lines of one layout, then lines of the same layout
  whose slots take every value their roles allow (a null partition value,
  a baseRowId number or null, dataChange false, size 0, a negative
  modificationTime, other tags, a stats null), and lines of other layouts
  in between (the shapes are made again).
- bad_<case>/: version 0 as above, version 1: five lines of the layout,
  then one line of the same layout whose slot its role refuses (the decoder
  must give the same error as without shapes), then five more;
  bad_truncated_at_stats/ ends instead with a line cut right after
  "stats": (no value, no newline: the shapes' prefix matches it whole).

Run: python3 test/data/line_shapes/generate.py (deterministic output; the
generated logs are committed so the tests never need Python).
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

PROTOCOL = {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}
SCHEMA = {"type": "struct", "fields": [
    {"name": "id", "type": "long", "nullable": True, "metadata": {}},
    {"name": "p", "type": "string", "nullable": True, "metadata": {}}]}
METADATA = {"metaData": {"id": "line-shapes", "format": {"provider": "parquet", "options": {}},
                         "schemaString": json.dumps(SCHEMA, separators=(',', ':')),
                         "partitionColumns": ["p"], "configuration": {},
                         "createdTime": 1700000000000}}


def add_line(i, p='"a"', size='100', mtime='1700000000000', dc='true',
             stats=None, base='null', dv='null', tags='"x"', path=None):
    """One add line of the model layout, slot values given as JSON tokens."""
    if path is None:
        path = '"p=a/f%03d.parquet"' % i
    if stats is None:
        stats = json.dumps(json.dumps({"numRecords": i + 1, "minValues": {"id": i},
                                       "maxValues": {"id": i * 10},
                                       "nullCount": {"id": 0}},
                                      separators=(',', ':')))
    return ('{"add":{"path":%s,"partitionValues":{"p":%s},"size":%s,'
            '"modificationTime":%s,"dataChange":%s,"stats":%s,'
            '"deletionVector":%s,"baseRowId":%s,"tags":{"t":%s}}}'
            % (path, p, size, mtime, dc, stats, dv, base, tags))


def other_layout(i):
    """An add line of another layout (keys in another order, no tags)."""
    return ('{"add":{"path":"p=b/g%03d.parquet","size":%d,"partitionValues":{"p":"b"},'
            '"dataChange":true,"modificationTime":1700000000000,"stats":null}}' % (i, 7 * i))


def write_table(name, lines, tail=None):
    """tail: a last line written as it is (no newline, need not be JSON)."""
    d = os.path.join(HERE, name, '_delta_log')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, '%020d.json' % 0), 'w') as f:
        f.write(json.dumps(PROTOCOL, separators=(',', ':')) + '\n')
        f.write(json.dumps(METADATA, separators=(',', ':')) + '\n')
    with open(os.path.join(d, '%020d.json' % 1), 'w') as f:
        for l in lines:
            json.loads(l)          # (every line is valid JSON)
            f.write(l + '\n')
        if tail is not None:
            f.write(tail)


def main():
    for e in os.listdir(HERE):
        if os.path.isdir(os.path.join(HERE, e)):
            shutil.rmtree(os.path.join(HERE, e))
    ok = [add_line(i) for i in range(6)]
    ok += [add_line(6, p='null'), add_line(7, base='42'), add_line(8, dc='false'),
           add_line(9, size='0'), add_line(10, mtime='-1'), add_line(11, tags='"yy"'),
           add_line(12, stats='null'), add_line(13, base='0', p='""'),
           add_line(14, size='9223372036854775807'[:18])]
    ok += [other_layout(i) for i in range(3)]
    ok += [add_line(i) for i in range(15, 21)]
    ok += [other_layout(i) for i in range(3, 9)]      # more misses than the eager ones
    ok += [add_line(i) for i in range(21, 25)]
    write_table('ok', ok)
    bad = {
        'size_negative': dict(size='-5'),
        'size_fraction': dict(size='1.5'),
        'size_exponent': dict(size='1e3'),
        'size_too_long': dict(size='1234567890123456789012'),
        'mtime_fraction': dict(mtime='1700000000000.5'),
        'datachange_null': dict(dc='null'),
        'path_empty': dict(path='""'),
        'dv_true': dict(dv='true'),
        'base_true': dict(base='true'),
        'partition_true': dict(p='true'),
    }
    # the file ends right after "stats": (no value, no newline)
    model = add_line(5)
    write_table('bad_truncated_at_stats', [add_line(i) for i in range(5)],
                tail=model[:model.index('"stats":') + len('"stats":')])
    for case, kw in sorted(bad.items()):
        lines = [add_line(i) for i in range(5)] + [add_line(5, **kw)] + \
            [add_line(i) for i in range(6, 11)]
        write_table('bad_' + case, lines)


if __name__ == '__main__':
    main()
