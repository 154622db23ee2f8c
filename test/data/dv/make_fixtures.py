#!/usr/bin/env python3
"""Generate the deletion-vector fixtures of test/sql/deletion_vectors.sql.

A tiny Delta table (table/) whose deletion-vector files are built here byte
by byte (reference §4.4-4.5), good and corrupt, with deterministic UUIDs.
Run it from anywhere; it rewrites table/ and prints the descriptors."""
import json
import os
import struct
import uuid
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "table")
Z = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def z85(data):
    data = data + b"\0" * (-len(data) % 4)
    return "".join("".join(Z[(struct.unpack(">I", data[i:i + 4])[0] // 85 ** k) % 85]
                           for k in range(4, -1, -1)) for i in range(0, len(data), 4))


def r32(containers):
    """Containers: (key, sorted values) -> no-run-cookie Roaring bitmap."""
    out = struct.pack("<II", 12346, len(containers))
    for k, vals in containers:
        out += struct.pack("<HH", k, len(vals) - 1)
    pos = len(out) + 4 * len(containers)
    for k, vals in containers:
        out += struct.pack("<I", pos)
        pos += 2 * len(vals)
    for k, vals in containers:
        out += b"".join(struct.pack("<H", v) for v in vals)
    return out


def r32_runs(runs):
    """One run container (key 0) under the run cookie."""
    card = sum(l + 1 for _, l in runs)
    return (struct.pack("<IB", 12347, 1) + struct.pack("<HH", 0, card - 1) +
            struct.pack("<H", len(runs)) + b"".join(struct.pack("<HH", s, l) for s, l in runs))


def portable(buckets):
    out = struct.pack("<Iq", 1681511377, len(buckets))
    for key, bm in buckets:
        out += struct.pack("<I", key) + bm
    return out


def frame(bm, crc=None):
    return struct.pack(">i", len(bm)) + bm + struct.pack(">I", zlib.crc32(bm) if crc is None else crc)


def uid(n):
    return uuid.UUID("00000000-0000-4000-8000-%012d" % n)


def write_dv(n, content):
    u = uid(n)
    with open(os.path.join(TABLE, "deletion_vector_%s.bin" % u), "wb") as f:
        f.write(content)
    return z85(u.bytes)


os.makedirs(os.path.join(TABLE, "_delta_log"), exist_ok=True)
small = portable([(0, r32([(0, [0, 9])]))])                       # rows 0, 9
multi = portable([(0, r32([(0, [3, 5]), (1, [34464])])),          # 3, 5, 100000
                  (1, r32([(0, [7])]))])                          # 2^32 + 7
runs = portable([(0, r32_runs([(10, 4), (20, 0)]))])              # 10..14, 20

desc = {}
good = b"\x01" + frame(small)
second = len(good)
good += frame(multi)
third = len(good)
good += frame(runs)
desc["good"] = (write_dv(1, good), [(1, len(small), 2), (second, len(multi), 4), (third, len(runs), 6)])
desc["bad_crc"] = write_dv(2, b"\x01" + frame(small, crc=zlib.crc32(small) ^ 1))
bad_magic = bytearray(small)
bad_magic[0] ^= 0x10
desc["bad_magic"] = write_dv(3, b"\x01" + frame(bytes(bad_magic)))
desc["bad_version"] = write_dv(4, b"\x02" + frame(small))
desc["truncated"] = write_dv(5, (b"\x01" + frame(small))[:-3])
bogus = bytearray(small)
bogus[4 + 8 + 4 + 4:4 + 8 + 4 + 8] = struct.pack("<I", 60000)        # container count
desc["bogus_count"] = write_dv(6, b"\x01" + frame(bytes(bogus)))
desc["prefix"] = "ab" + z85(uid(7).bytes)
os.makedirs(os.path.join(TABLE, "ab"), exist_ok=True)
with open(os.path.join(TABLE, "ab", "deletion_vector_%s.bin" % uid(7)), "wb") as f:
    f.write(b"\x01" + frame(small))
desc["inline"] = z85(multi)

with open(os.path.join(TABLE, "_delta_log", "00000000000000000000.json"), "w") as f:
    f.write(json.dumps({"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                                     "readerFeatures": ["deletionVectors"],
                                     "writerFeatures": ["deletionVectors"]}}) + "\n")
    f.write(json.dumps({"metaData": {"id": "dv-fixtures", "format": {"provider": "parquet", "options": {}},
                                     "schemaString": json.dumps({"type": "struct", "fields": [
                                         {"name": "id", "type": "long", "nullable": True, "metadata": {}}]}),
                                     "partitionColumns": [],
                                     "configuration": {"delta.enableDeletionVectors": "true"},
                                     "createdTime": 0}}) + "\n")
for k, v in desc.items():
    print(k, v, "size", len(small), "inline size", len(multi))
