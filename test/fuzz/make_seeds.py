#!/usr/bin/env python3
"""Regenerate test/fuzz/seeds/<harness>/ from small real files and hand-built
inputs.  Real inputs come from the conformance tables (DELTACC_TABLES, else
/work/shared/delta-tables); the seeds are committed, so running this is only
needed to refresh them.  Seed files are named by content hash."""
import glob
import hashlib
import json
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.environ.get("DELTACC_TABLES") or "/work/shared/delta-tables"
MAX_SEED = 4096
# bitmap containers are 8 KiB: the bitmap harnesses take larger inputs
MAX_SEED_BY_HARNESS = {"roaring": 40000, "dvfile": 40000}


def put(harness, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_SEED_BY_HARNESS.get(harness, MAX_SEED):
        return
    d = os.path.join(HERE, "seeds", harness)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- standard Roaring / RoaringBitmapArray builders ----
def r32(containers, run_cookie=False):
    """containers: list of (key, kind, payload): kind 'a' values, 'b' values,
    'r' list of (start, len-1)."""
    n = len(containers)
    def card(c):
        k, kind, p = c
        return sum(l + 1 for _, l in p) if kind == "r" else len(p)
    out = bytearray()
    if run_cookie:
        out += struct.pack("<I", 12347 | ((n - 1) << 16))
        flags = bytearray((n + 7) // 8)
        for i, c in enumerate(containers):
            if c[1] == "r":
                flags[i // 8] |= 1 << (i % 8)
        out += flags
        offsets = n >= 4
    else:
        out += struct.pack("<II", 12346, n)
        offsets = True
    for c in containers:
        out += struct.pack("<HH", c[0], card(c) - 1)
    bodies = []
    for k, kind, p in containers:
        if kind == "a":
            bodies.append(b"".join(struct.pack("<H", v) for v in p))
        elif kind == "r":
            bodies.append(struct.pack("<H", len(p)) + b"".join(struct.pack("<HH", s, l) for s, l in p))
        else:
            words = [0] * 1024
            for v in p:
                words[v >> 6] |= 1 << (v & 63)
            bodies.append(b"".join(struct.pack("<Q", w) for w in words))
    if offsets:
        pos = len(out) + 4 * n
        for b in bodies:
            out += struct.pack("<I", pos)
            pos += len(b)
    for b in bodies:
        out += b
    return bytes(out)


def portable(buckets):
    out = struct.pack("<Iq", 1681511377, len(buckets))
    for key, bm in buckets:
        out += struct.pack("<I", key) + bm
    return out


def native(bitmaps):
    out = struct.pack("<Ii", 1681511376, len(bitmaps))
    for bm in bitmaps:
        out += struct.pack("<i", len(bm)) + bm
    return out


def frame(bitmap):
    return struct.pack(">i", len(bitmap)) + bitmap + struct.pack(">I", zlib.crc32(bitmap))


def dv_seed(flags, offset, card, file_bytes):
    return struct.pack("<BHI", flags, offset, card & 0xFFFFFFFF) + file_bytes


Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def z85(data):
    data = data + b"\0" * (-len(data) % 4)
    out = []
    for i in range(0, len(data), 4):
        v = struct.unpack(">I", data[i:i + 4])[0]
        out.append("".join(Z85[(v // 85 ** k) % 85] for k in range(4, -1, -1)))
    return "".join(out)


hand = [
    portable([]),
    portable([(0, r32([]))]),
    portable([(0, r32([(0, "a", [0, 9])]))]),
    portable([(0, r32([(0, "a", [1, 5, 65535]), (2, "b", list(range(0, 65000, 13))),
                      (7, "r", [(10, 4), (100, 0), (65000, 535)])], True)),
              (5, r32([(0, "a", [3])]))]),
    portable([(1, r32([(0, "r", [(0, 99)]), (1, "a", [7]), (2, "r", [(5, 5)]), (3, "a", [1, 2])], True))]),
    native([]),
    native([r32([]), r32([(3, "a", [1, 5])])]),
    native([r32([(0, "r", [(0, 65535)])], True)]),
    native([r32([(0, "b", list(range(0, 65536, 3)))]), r32([(1, "b", list(range(4097)))])]),
    r32([(0, "a", [0, 9])]),
]
for h in hand:
    put("roaring", h)
    put("dvfile", dv_seed(3, 1, 0, b"\x01" + frame(h)))
    put("dvfile", dv_seed(4, 0, 0, z85(h).encode()))
# two halves for the subset check: first byte chooses the cut
a = portable([(0, r32([(0, "a", [10, 12, 14])]))])
b = portable([(0, r32([(0, "r", [(0, 99)])], True))])
put("roaring", bytes([len(a) * 256 // (len(a) + len(b))]) + a + b)

# ---- real tables ----
if os.path.isdir(TABLES):
    for bin_path in sorted(glob.glob(os.path.join(TABLES, "*", "**", "*.bin"), recursive=True))[:40]:
        data = open(bin_path, "rb").read()
        if len(data) < 9 or data[0] != 1:
            continue
        size = struct.unpack(">i", data[1:5])[0]
        bitmap = data[5:5 + size]
        put("roaring", bitmap)
        put("dvfile", dv_seed(1, 1, 0, data))
    logs = []
    for t in sorted(os.listdir(TABLES)):
        found = sorted(glob.glob(os.path.join(TABLES, t, "_delta_log", "*.json")) +
                       glob.glob(os.path.join(TABLES, t, "delta", "_delta_log", "*.json")))
        # the first and last commits of each table
        logs += found[:1] + found[-1:]
    for log in logs:
        with open(log, "rb") as f:
            lines = f.read().split(b"\n")
        for i, line in enumerate(lines):
            if not line:
                continue
            if i < 4 and len(line) <= 2048:
                put("djson", line)
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            act = obj.get("add") or obj.get("remove")
            if not act:
                continue
            if isinstance(act.get("stats"), str) and i < 4:
                put("djson", act["stats"])
    for log in sorted(glob.glob(os.path.join(TABLES, "*", "_delta_log", "*.json")) +
                      glob.glob(os.path.join(TABLES, "*", "delta", "_delta_log", "*.json"))):
        for line in open(log, "rb").read().split(b"\n"):
            try:
                act = json.loads(line)
            except ValueError:
                continue
            act = act.get("add") or act.get("remove")
            if not act:
                continue
            dv = act.get("deletionVector")
            if dv:
                put("z85", dv["pathOrInlineDv"])
                if dv["storageType"] == "i":
                    put("dvfile", dv_seed(4, 0, dv["cardinality"], dv["pathOrInlineDv"].encode()))

for s in ["WYbkwCTB$gH)J7t?$/sK", "ab^-aqEH.-t@S}K{vb[*k^", "file:/tmp/a%20b/x.bin",
          "file:///tmp/x.bin", "%nSc0", "0000000000"]:
    put("z85", s)
for s in ['{"a":[1,2.5e-3,-0,true,false,null,"\\u00e9\\ud83d\\ude00"]}',
          '{"numRecords":3,"minValues":{"d":1.00000000000000000001},"maxValues":{}}',
          "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", '"\\t\\n\\"\\\\\\/"']:
    put("djson", s)
# string bodies as statistics inside add lines hold them (jstr: one level
# and two)
for s in [b'abc"', b'a\\u00e9\\ud83d\\ude00"', b'Zo\\\\u00eb \\\\\\"Z\\\\\\"\\"',
          b'S\xc3\xa3o Paulo\\"', b'C:\\\\\\\\data\\\\\\\\imports\\"', b'two\\\\nlines\\"',
          b'acme\\\\/eu\\/retail\\"', b'x\\u0022y\\"']:
    put("jstr", s)
for h in sorted(os.listdir(os.path.join(HERE, "seeds"))):
    print(h, len(os.listdir(os.path.join(HERE, "seeds", h))), "seeds", file=sys.stderr)

# ---- Parquet and Thrift (the project's own fixtures, test/data/parquet) ----
PQDIR = os.path.join(HERE, "..", "data", "parquet")
MAX_PQ_SEED = 8192


def put_pq(data):
    if len(data) <= MAX_PQ_SEED:
        d = os.path.join(HERE, "seeds", "parquet")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
            f.write(data)
    # the footer alone (a FileMetaData struct) seeds the Thrift harness
    if len(data) >= 12 and data[-4:] == b"PAR1":
        flen = struct.unpack("<I", data[-8:-4])[0]
        if flen <= len(data) - 8:
            put("thrift", data[len(data) - 8 - flen:len(data) - 8])


for path in sorted(glob.glob(os.path.join(PQDIR, "*.parquet")) + glob.glob(os.path.join(PQDIR, "corrupt", "*.parquet"))):
    with open(path, "rb") as f:
        put_pq(f.read())
for path in sorted(glob.glob(os.path.join(TABLES, "*", "_delta_log", "*.checkpoint*.parquet")) +
                   glob.glob(os.path.join(TABLES, "*", "delta", "_delta_log", "*.checkpoint*.parquet"))):
    with open(path, "rb") as f:
        put_pq(f.read())
for h in ("parquet", "thrift"):
    print(h, len(os.listdir(os.path.join(HERE, "seeds", h))), "seeds", file=sys.stderr)


# ---- Snappy blocks (a small encoder here: Python has no snappy module) ----
def snappy_varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def snappy_literal(data, lenbytes=None):
    n = len(data) - 1
    if lenbytes is None:
        lenbytes = 0 if n < 60 else (n.bit_length() + 7) // 8
    if lenbytes == 0:
        return bytes([n << 2]) + data
    return bytes([(59 + lenbytes) << 2]) + n.to_bytes(lenbytes, "little") + data


def snappy_copy(off, n, kind=None):
    """one copy element (n <= 64); kind 1, 2 or 4 offset bytes"""
    if kind is None:
        kind = 1 if 4 <= n <= 11 and off < 2048 else (2 if off < 65536 else 4)
    if kind == 1:
        return bytes([1 | ((n - 4) << 2) | ((off >> 8) << 5), off & 0xFF])
    if kind == 2:
        return bytes([2 | ((n - 1) << 2)]) + off.to_bytes(2, "little")
    return bytes([3 | ((n - 1) << 2)]) + off.to_bytes(4, "little")


def snappy_compress(data, kinds=(None,)):
    """greedy: a 4-byte hash of earlier positions; copies of up to 64 bytes,
    cycling through the offset sizes in kinds where they fit"""
    out = bytearray(snappy_varint(len(data)))
    last = {}
    i = lit = ncopies = 0
    while i + 4 <= len(data):
        j = last.get(data[i:i + 4])
        last[data[i:i + 4]] = i
        if j is None:
            i += 1
            continue
        n = 4
        while i + n < len(data) and data[j + n] == data[i + n]:
            n += 1
        if lit < i:
            out += snappy_literal(data[lit:i])
        while n > 0:
            step = min(n, 64)
            kind = kinds[ncopies % len(kinds)]
            if kind == 1 and not (4 <= step <= 11 and i - j < 2048):
                kind = None
            out += snappy_copy(i - j, step, kind)
            ncopies += 1
            i += step
            j += step
            n -= step
        lit = i
    if lit < len(data):
        out += snappy_literal(data[lit:])
    return bytes(out)


snappy_inputs = [b"", b"a", b"abcd" * 20, b"x" * 1000, bytes(range(256)) * 3,
                 b"0123456789" * 300 + b"tail"]
for path in sorted(glob.glob(os.path.join(TABLES, "*", "_delta_log", "*.json")))[:12]:
    with open(path, "rb") as f:
        snappy_inputs.append(f.read(3000))
for data in snappy_inputs:
    for kinds in ((None,), (2,), (4,), (1, 2, 4)):
        put("snappy", snappy_compress(data, kinds))
# every literal length form, a copy at the largest 16-bit offset, and
# hand-made bad blocks (offset 0, past the output, truncated, trailing)
for lb in range(5):
    put("snappy", snappy_varint(70) + snappy_literal(b"L" * 70, lb if lb else None))
put("snappy", snappy_varint(65536 + 64) + snappy_literal(bytes(range(256)))
    + b"".join(snappy_copy(256, 64, 2) for _ in range(1020)) + snappy_copy(65535, 64, 2))
put("snappy", snappy_varint(10) + snappy_literal(b"abcdef") + snappy_copy(0, 4))
put("snappy", snappy_varint(10) + snappy_literal(b"abcdef") + snappy_copy(7, 4))
put("snappy", snappy_varint(10) + snappy_literal(b"abcdef") + snappy_copy(3, 4)[:1])
put("snappy", snappy_varint(6) + snappy_literal(b"abcdef") + b"\x00x")
put("snappy", b"\xff\xff\xff\xff\x0f" + snappy_literal(b"big"))
print("snappy", len(os.listdir(os.path.join(HERE, "seeds", "snappy"))), "seeds", file=sys.stderr)

# ---- SigV4 requests: NUL-separated method, host, path, region, date, then
# query and header name/value pairs (the first half of the pairs is the query)
sigv4_inputs = [
    ["GET", "examplebucket.s3.amazonaws.com", "/test.txt", "us-east-1",
     "20130524T000000Z", "range", "bytes=0-9"],
    ["GET", "examplebucket.s3.amazonaws.com", "/", "us-east-1", "20130524T000000Z",
     "list-type", "2", "prefix", "t/_delta_log/", "start-after", "t/_delta_log/0005",
     "x-custom", "  a   b ", "Range", "bytes=1-2", "date", "x"],
    ["GET", "127.0.0.1:4568", "/bucket/a b/p=\u00fc/%41~!", "eu-west-1", "20240101T120000Z",
     "lifecycle", ""],
    ["PUT", "h", "/a/../b//c", "r", "20130524T000000Z", "range", "a\r\nb"],
]
for fields in sigv4_inputs:
    put("sigv4", "\0".join(fields))
print("sigv4", len(os.listdir(os.path.join(HERE, "seeds", "sigv4"))), "seeds", file=sys.stderr)

# ---- object-store URLs
for url in ["s3://my-bucket/tables/sales", "gs://my_bucket/a/b/", "az://data/t1",
            "az://data-1@acct01/x/y", "abfss://lake@myacct.dfs.core.windows.net/gold/t",
            "s3://abc/a%2Fb/p=1 x/\u00fc", "s3://abc/t/../x", "s3://abc//k?x#y"]:
    put("objurl", url)
print("objurl", len(os.listdir(os.path.join(HERE, "seeds", "objurl"))), "seeds", file=sys.stderr)

# ---- object-store XML: listing pages and error documents
for doc in [
    '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
    '<Name>b</Name><Prefix>t/_delta_log/</Prefix><IsTruncated>true</IsTruncated>'
    '<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>'
    '<Contents><Key>t/_delta_log/00000000000000000000.json</Key><ETag>&quot;599b&quot;</ETag>'
    '<Size>1024</Size></Contents><CommonPrefixes><Prefix>t/x/</Prefix></CommonPrefixes></ListBucketResult>',
    '<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key><![CDATA[a<b]]>&#x20AC;&amp;</Key>'
    '<Size>0</Size></Contents></ListBucketResult>',
    '\ufeff<?xml version="1.0" encoding="utf-8"?><EnumerationResults ContainerName="c"><Blobs><Blob>'
    '<Name>t/_delta_log/00000000000000000000.json</Name><Properties><Etag>0x8DC</Etag>'
    '<Content-Length>77</Content-Length></Properties></Blob><BlobPrefix><Name>t/x/</Name></BlobPrefix>'
    '</Blobs><NextMarker>2!72!MDAw</NextMarker></EnumerationResults>',
    '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>'
    '<RequestId>4442587FB7D0A2F9</RequestId></Error>',
    '<!DOCTYPE x [<!ENTITY a "b">]><ListBucketResult/>',
    '<a><!-- c --><b x="1" y=\'2\'/></a>',
]:
    put("objxml", doc)
print("objxml", len(os.listdir(os.path.join(HERE, "seeds", "objxml"))), "seeds", file=sys.stderr)

# ---- Azure Shared Key requests: NUL-separated method, account, path, key,
# then query and header name/value pairs (the first half is the query)
AZ_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
for fields in [
    ["GET", "devstoreaccount1", "/devstoreaccount1/lake", AZ_KEY, "restype", "container",
     "comp", "list", "x-ms-date", "Sun, 06 Nov 1994 08:49:37 GMT", "x-ms-version", "2021-12-02"],
    ["HEAD", "acct", "/c/a%20b.json", AZ_KEY, "Range", "bytes=0-9", "If-Match", "\"0x8D\""],
    ["GET", "a", "/c", "not base64", "x", "y"],
]:
    put("azsig", "\0".join(fields))
print("azsig", len(os.listdir(os.path.join(HERE, "seeds", "azsig"))), "seeds", file=sys.stderr)
