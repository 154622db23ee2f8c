#!/usr/bin/env python3
"""Generate test/data/stats_jsonb_plan: one JSON commit whose add lines carry
runs of "stats" strings of one layout each (same keys, order and white space,
other values), for the layout-driven jsonb writer of json_util.c (its "plan")
tested in test/sql/stats_jsonb.sql.  Each run starts with a text that sets
the layout and goes on with texts the plan writes: every number form (the
short numeric path up to 36 digits, exponents, -0, display scales, numbers
numeric cannot hold), true/false/null swapped, strings of every length, and
texts the plan must decline (escapes, other layouts).  Layouts cover keys of
equal length, duplicate keys, empty containers, arrays, objects of more than
32 keys and arrays of more than 32 elements (jsonb's offset stride), nesting
beyond the plan's depth, and a top-level scalar.  Then 300 texts of one layout with random numbers
(r000.parquet ...; seeded, so the output is always the same).

Run: python3 test/data/stats_jsonb_plan/generate.py (deterministic output;
the generated log is committed so the tests never need Python).
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

NUMBERS = [
    '0', '-0', '1', '-1', '7', '10', '100', '10000', '-10000', '99990000',
    '1.50', '0.000', '-0.0', '0.1', '0.0001', '-0.00010', '12.3400',
    '99990000.00001', '85631010356', '21.6099', '0.030724', '23723.13',
    '123456789012345', '1234567890123456', '0.123456789012345',
    '0.1234567890123456', '123456789.123456789', '9223372036854775807',
    '-9223372036854775808', '12345678901234567890', '0.30000000000000004',
    '123456789012345678901234567890.123456',
    '-99999999999999999999999999999999.9999',
    '0.000000000000000000000000000000000001',
    '1234567890123456789012345678901234567',
    '0.0000000000000000000000000000000000001',
    # eight-digit boundaries
    '12345678', '123456789', '100000000', '99999999.99999999', '-1234567.8',
    '123456789012345.12345678', '1234567890123456', '0.12345678',
    '0.123456789', '-0.00000001', '10000000.00000000', '7.5e3', '12345678e1',
    # the short numeric path's bounds: 19 digits before the point, 16 after
    '9999999999999999999', '1000000000000000000', '10000000000000000000',
    '0.9999999999999999', '-0.0000000000000001', '0.12345678901234567',
    '1234567890123456789.1234567890123456', '-100000000.0000000000000000',
    '1e5', '1.5E-7', '-2e+3', '0e0', '-0E-0', '123.456e-2', '1E400',
    '1e-400', '1e999999',
]

WORDS = ['true', 'false', 'null']


def layout_a(num, word, s1, s2):
    # keys of equal length sorted bytewise; numRecords, a nested object, a
    # string, a word
    return ('{"numRecords":%s,"minValues":{"bb":%s,"aa":"%s","b":%s,"a":%s},'
            '"maxValues":{"zz":"%s","b":%s},"nullCount":{"aa":0,"bb":%s},'
            '"tightBounds":%s}' % (num, num, s1, word, num, s2, num, num, word))


def runs():
    out = []
    # A: every number in every numeric slot, words swapped, strings varied
    for i, n in enumerate(NUMBERS):
        out.append(layout_a(n, WORDS[i % 3], 'x' * (i % 7), 's%d' % i))
    # strings: empty, long, and ones the plan declines (escapes: another layout)
    out.append(layout_a('1', 'true', '', ''))
    out.append(layout_a('2', 'true', 'abcdefgh' * 40, 'Zz ~!#$%&()*+,-./:;<=>?@[]^_`{|}'))
    out.append(layout_a('3', 'false', 'a\\"b', 'c'))
    out.append(layout_a('4', 'false', 'a\\\\b', 'c'))
    out.append(layout_a('5', 'false', 'caf\\u00e9', 'c'))
    out.append(layout_a('6', 'null', 'plain again', 'c'))
    out.append(layout_a('7', 'null', 'and again', 'd'))
    # B: duplicate keys at every level (the last one wins)
    for n in ['1', '22', '-3.5', '1e2']:
        out.append('{"numRecords":%s,"minValues":{"x":%s,"x":"s%s","y":{"z":%s,"z":[%s]}},'
                   '"numRecords":%s,"minValues":{"x":%s}}' % (n, n, n, n, n, n, n))
    # C: empty containers and arrays, nested
    for n in ['1', '2.50', '-0', '77777777777777777777']:
        out.append('{"numRecords":%s,"minValues":{},"maxValues":{"a":[],"b":[%s,[%s,[]],{"k":[]}],'
                   '"c":{}},"nullCount":[]}' % (n, n, n))
    # D: white space in the layout
    for n in ['1', '23', '0.5']:
        out.append(' {\n "numRecords" : %s ,\t"minValues" : { "a" : [ %s , true ] } } ' % (n, n))
    # E: more than 32 keys and more than 32 elements (offset stride)
    for r in range(3):
        out.append('{"numRecords":%d,"minValues":{' % r +
                   ','.join('"k%02d":%d' % (i, (i * 37 + r) % 50) for i in range(40)) +
                   '},"maxValues":{"w":[' + ','.join(str(i * (r + 1)) for i in range(70)) +
                   '],"s":[' + ','.join('"%s"' % ('q' * ((i + r) % 5)) for i in range(35)) + ']}}')
    # F: deeper than the plan takes (16 containers): the tree writer
    for n in ['1', '2', '3']:
        out.append('{"numRecords":%s,"d":' % n + '[' * 20 + n + ']' * 20 + '}')
    # G: a top-level array and a top-level scalar, twice each
    for n in ['1', '2.5', '12345678', '-0.12345678', '123456789012345']:
        out.append('[%s,"a",{"b":%s}]' % (n, n))
    # numbers next to the start and the end of the text
    for n in ['1', '87654321', '-8765432.1', '0.5']:
        out.append('[%s]' % n)
    for n in ['42', '-4.20']:
        out.append(n)
    # H: back to layout A after all that
    out.append(layout_a('123', 'true', 'back', 'again'))
    out.append(layout_a('-0.5', 'false', 'back', 'twice'))
    return out


def random_runs():
    """Texts of one layout with random numbers (seeded: the same every run):
    every digit count before and after the point up to 21, signs, zeros,
    exponents; written as files r000.parquet ... and compared only in
    aggregate by the test."""
    rng = random.Random(20261130)
    out = []

    def number():
        ni = rng.randint(1, 21)
        digits = str(rng.randint(1, 9)) + ''.join(rng.choice('0123456789') for _ in range(ni - 1))
        if rng.random() < 0.15:
            digits = '0'
        text = ('-' if rng.random() < 0.3 else '') + digits
        if rng.random() < 0.6:
            nf = rng.randint(1, 21)
            text += '.' + ''.join(rng.choice('0000123456789') for _ in range(nf))
        if rng.random() < 0.1:
            text += rng.choice('eE') + rng.choice(['', '+', '-']) + str(rng.randint(0, 30))
        return text

    for _ in range(300):
        out.append('{"numRecords":%s,"minValues":{"a":%s,"b":"%s","c":%s},'
                   '"maxValues":{"a":%s,"c":[%s,%s]}}'
                   % (number(), number(), 'v' * rng.randint(0, 30), number(),
                      number(), number(), number()))
    return out


def main():
    log = os.path.join(HERE, "_delta_log")
    os.makedirs(log, exist_ok=True)
    lines = [
        {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
        {"metaData": {"id": "stats-jsonb-plan", "format": {"provider": "parquet", "options": {}},
                      "schemaString": json.dumps({"type": "struct", "fields": [
                          {"name": "id", "type": "long", "nullable": True, "metadata": {}}]}),
                      "partitionColumns": [], "configuration": {}, "createdTime": 0}},
    ]
    for i, s in enumerate(runs()):
        lines.append({"add": {"path": "f%03d.parquet" % i, "partitionValues": {}, "size": 100 + i,
                              "modificationTime": 0, "dataChange": True, "stats": s}})
    for i, s in enumerate(random_runs()):
        lines.append({"add": {"path": "r%03d.parquet" % i, "partitionValues": {}, "size": 1000 + i,
                              "modificationTime": 0, "dataChange": True, "stats": s}})
    text = "".join(json.dumps(l, separators=(",", ":"), ensure_ascii=False) + "\n" for l in lines)
    with open(os.path.join(log, "%020d.json" % 0), "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
