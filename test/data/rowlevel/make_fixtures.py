#!/usr/bin/env python3
"""Generate the Delta tables of the row-level conflict tests (test/sql/rowlevel*.sql).

Standard library only.  Every table gets REAL Parquet data files (written
by the small writer below: PLAIN values, RLE definition levels, data pages
v1, uncompressed, one or more row groups) and REAL deletion-vector files in
Delta's portable RoaringBitmapArray layout with the big-endian size and
CRC-32 framing (reference §4.4-4.5), referenced by "u" descriptors
(Z85-encoded UUIDs) and by inline "i" descriptors.

Run from anywhere:   python3 test/data/rowlevel/make_fixtures.py
It rewrites the table folders beside this file; the output is deterministic
and committed, so CI never runs it.  `node verify.mjs` (see README.md here)
re-reads every Parquet file with DuckDB and compares it with rows.json.

Tables (versions are the winners the tests race against):
  exact        ids 0..999 in 10 files; v1 blind append of even ids
               1000..1098; v2 one all-odd and one all-even file; v3 ids
               2000..2099 (value-exact tier, reference §5.1 #10-#15)
  exact_part   partitioned by p, everything in p=0; v1 even ids into p=0 (#16)
  dvdel        one file ids 0..99 (two row groups), DVs on: v1 DELETE id<10
               (merge-on-read, "u" DV), v2 DELETE 60<=id<70 (inline DV),
               v3 RESTORE to v1 (DV shrinks), v4 DELETE id>=90 with a DV file
               whose CRC is wrong (§5.2 #1-#5, #10-#11, traps)
  fullrm       one file of even ids 0..98, DVs off; v1 removes it (§5.2 #6-#9)
  update       ids 0..99 with x = id % 10; v1 UPDATE SET x = 15 WHERE id = 5
               (merge-on-read re-add + new file holding the moved row)
  signed       files A (0..49, DV {0..9}) and B (50..99); v1 restores A to a
               smaller DV and deletes id 50 from B (a signed sum cancels)
  part_rm      partitioned by p: A in p=1, B in p=2, DVs on; removes with no
               partitionValues (v1), {} (v2), and a wrong value (v3)
  part_pv      partitioned by p, DVs off: A (even ids 0..98) and C (100..198)
               in p=1, B (0..98) in p=2; v1 removes C outright with {}, v2
               removes B with a wrong value (p=7), v3 adds D (200..298) to
               p=1, v4 removes D with {}, v5 moves A to p=2 (remove with {}
               and a re-add of the same path with p=2), v6 removes A again
               with {} (its rows are now in p=2)
  types        (id, name string); v1 appends names 'a', NULL, 'B' (strings in
               byte order, NULLs, functions of a column)
"""
import json
import os
import shutil
import struct
import uuid
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
MTIME = 1700000000000

# ---------------------------------------------------------------- thrift (compact)


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


class TStruct:
    """A Thrift compact-protocol struct: fields (id, type, value) in id order."""

    def __init__(self, *fields):
        self.fields = [f for f in fields if f[2] is not None]

    def encode(self):
        out = bytearray()
        last = 0
        for fid, ftype, value in self.fields:
            if ftype == "bool":
                code = 1 if value else 2
            else:
                code = {"i16": 4, "i32": 5, "i64": 6, "bin": 8, "list": 9, "struct": 12}[ftype]
            delta = fid - last
            if 0 < delta <= 15:
                out.append((delta << 4) | code)
            else:
                out.append(code)
                out += varint(zigzag(fid))
            last = fid
            if ftype != "bool":
                out += encode_value(ftype, value)
        out.append(0)
        return bytes(out)


def encode_value(ftype, value):
    if ftype in ("i16", "i32", "i64"):
        return varint(zigzag(value))
    if ftype == "bin":
        data = value.encode("utf-8") if isinstance(value, str) else value
        return varint(len(data)) + data
    if ftype == "struct":
        return value.encode()
    if ftype == "list":
        etype, items = value
        code = {"i32": 5, "i64": 6, "bin": 8, "struct": 12}[etype]
        head = bytes([(len(items) << 4) | code]) if len(items) < 15 else bytes([0xF0 | code]) + varint(len(items))
        return head + b"".join(encode_value(etype, i) for i in items)
    raise ValueError(ftype)


# ---------------------------------------------------------------- parquet writer

# Column types: "long" (INT64), "int" (INT32), "string" (BYTE_ARRAY UTF8).
PHYS = {"long": 2, "int": 1, "string": 6}


def rle_levels(levels):
    """RLE/bit-packing hybrid of bit width 1, as RLE runs only."""
    out = bytearray()
    i = 0
    while i < len(levels):
        j = i
        while j < len(levels) and levels[j] == levels[i]:
            j += 1
        out += varint((j - i) << 1) + bytes([levels[i]])
        i = j
    return struct.pack("<I", len(out)) + bytes(out)


def plain(ctype, values):
    if ctype == "long":
        return b"".join(struct.pack("<q", v) for v in values)
    if ctype == "int":
        return b"".join(struct.pack("<i", v) for v in values)
    return b"".join(struct.pack("<I", len(v.encode())) + v.encode() for v in values)


def parquet_file(columns, rows, group_rows=None):
    """columns: [(name, type)]; rows: list of tuples (None = null).
    group_rows: sizes of the row groups (default: one group)."""
    groups = group_rows or [len(rows)]
    assert sum(groups) == len(rows)
    body = bytearray(b"PAR1")
    row_groups = []
    start = 0
    for n in groups:
        chunk_meta = []
        total = 0
        for ci, (name, ctype) in enumerate(columns):
            vals = [r[ci] for r in rows[start:start + n]]
            page = rle_levels([0 if v is None else 1 for v in vals]) + \
                plain(ctype, [v for v in vals if v is not None])
            header = TStruct((1, "i32", 0), (2, "i32", len(page)), (3, "i32", len(page)),
                             (5, "struct", TStruct((1, "i32", n), (2, "i32", 0),
                                                   (3, "i32", 3), (4, "i32", 3)))).encode()
            offset = len(body)
            body += header + page
            size = len(header) + len(page)
            total += size
            meta = TStruct((1, "i32", PHYS[ctype]), (2, "list", ("i32", [0, 3])),
                           (3, "list", ("bin", [name])), (4, "i32", 0), (5, "i64", n),
                           (6, "i64", size), (7, "i64", size), (9, "i64", offset))
            chunk_meta.append(TStruct((2, "i64", offset), (3, "struct", meta)))
        row_groups.append(TStruct((1, "list", ("struct", chunk_meta)), (2, "i64", total),
                                  (3, "i64", n)))
        start += n
    schema = [TStruct((4, "bin", "spark_schema"), (5, "i32", len(columns)))]
    for name, ctype in columns:
        logical = None
        conv = None
        if ctype == "string":
            conv = 0
            logical = TStruct((1, "struct", TStruct()))
        schema.append(TStruct((1, "i32", PHYS[ctype]), (3, "i32", 1), (4, "bin", name),
                              (6, "i32", conv), (10, "struct", logical)))
    footer = TStruct((1, "i32", 1), (2, "list", ("struct", schema)), (3, "i64", len(rows)),
                     (4, "list", ("struct", row_groups)),
                     (6, "bin", "deltacc rowlevel fixture writer")).encode()
    body += footer + struct.pack("<I", len(footer)) + b"PAR1"
    return bytes(body)


# ---------------------------------------------------------------- deletion vectors

Z85_CHARS = ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
             ".-:+=^!/*?&<>()[]{}@%$#")


def z85_encode(data):
    data = data + b"\0" * (-len(data) % 4)
    out = []
    for i in range(0, len(data), 4):
        word = struct.unpack(">I", data[i:i + 4])[0]
        digits = []
        for _ in range(5):
            digits.append(Z85_CHARS[word % 85])
            word //= 85
        out.extend(reversed(digits))
    return "".join(out)


def roaring_array(rows):
    """Row indexes -> Delta's portable RoaringBitmapArray (array containers)."""
    buckets = {}
    for r in sorted(set(rows)):
        buckets.setdefault(r >> 32, {}).setdefault((r >> 16) & 0xFFFF, []).append(r & 0xFFFF)
    out = struct.pack("<Iq", 1681511377, len(buckets))
    for high in sorted(buckets):
        conts = sorted(buckets[high].items())
        bm = struct.pack("<II", 12346, len(conts))
        bm += b"".join(struct.pack("<HH", k, len(v) - 1) for k, v in conts)
        pos = len(bm) + 4 * len(conts)
        for _, v in conts:
            bm += struct.pack("<I", pos)
            pos += 2 * len(v)
        for _, v in conts:
            bm += struct.pack("<%dH" % len(v), *v)
        out += struct.pack("<I", high) + bm
    return out


class Table:
    def __init__(self, name, columns, partition=(), dvs=False, extra_schema=()):
        self.name = name
        self.root = os.path.join(HERE, name)
        self.columns = columns                 # data columns, in file order
        self.partition = list(partition)       # [(name, type)]
        self.dvs = dvs
        self.extra_schema = list(extra_schema)  # schema-only columns (not in files)
        self.version = 0
        self.dv_counter = 0
        self.files = {}                        # path -> {"rows", "pv", "size", "stats"}
        self.manifest = {}
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(os.path.join(self.root, "_delta_log"))

    # -- actions
    def protocol(self):
        if self.dvs:
            return {"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                                 "readerFeatures": ["deletionVectors"],
                                 "writerFeatures": ["deletionVectors"]}}
        return {"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}

    def metadata(self):
        spark = {"long": "long", "int": "integer", "string": "string"}
        fields = [{"name": n, "type": spark[t], "nullable": True, "metadata": {}}
                  for n, t in self.columns + self.partition + self.extra_schema]
        conf = {"delta.isolationLevel": "Serializable"}
        if self.dvs:
            conf["delta.enableDeletionVectors"] = "true"
        return {"metaData": {"id": "rowlevel-" + self.name, "name": self.name,
                             "format": {"provider": "parquet", "options": {}},
                             "schemaString": json.dumps({"type": "struct", "fields": fields},
                                                        separators=(",", ":")),
                             "partitionColumns": [n for n, _ in self.partition],
                             "configuration": conf, "createdTime": MTIME}}

    def data_file(self, path, rows, pv=None, groups=None):
        """Write a Parquet file of data rows; return its add action."""
        data = parquet_file(self.columns, rows, groups)
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        stats = {"numRecords": len(rows), "minValues": {}, "maxValues": {}, "nullCount": {}}
        for ci, (name, _) in enumerate(self.columns):
            vals = [r[ci] for r in rows if r[ci] is not None]
            stats["nullCount"][name] = len(rows) - len(vals)
            if vals:
                stats["minValues"][name] = min(vals)
                stats["maxValues"][name] = max(vals)
        pvs = {k: v for k, v in (pv or {}).items()}
        self.files[path] = {"rows": rows, "pv": pvs, "size": len(data), "stats": stats}
        self.manifest[path] = {"columns": [n for n, _ in self.columns],
                               "rows": [list(r) for r in rows], "row_groups": groups or [len(rows)]}
        return self.add(path)

    def add(self, path, dv=None, pv=None):
        """pv: None for the file's own partition values, or another map."""
        f = self.files[path]
        stats = dict(f["stats"])
        if dv is not None:
            stats["tightBounds"] = False
        a = {"path": path, "partitionValues": f["pv"] if pv is None else pv, "size": f["size"],
             "modificationTime": MTIME, "dataChange": True,
             "stats": json.dumps(stats, separators=(",", ":"))}
        if dv is not None:
            a["deletionVector"] = dv
        return {"add": a}

    def remove(self, path, dv=None, pv="same"):
        """pv: "same" (extended metadata with the file's values), None (no
        partitionValues at all), or an explicit map."""
        f = self.files[path]
        r = {"path": path, "deletionTimestamp": MTIME + self.version, "dataChange": True}
        if pv is not None:
            r["extendedFileMetadata"] = True
            r["partitionValues"] = f["pv"] if pv == "same" else pv
            r["size"] = f["size"]
        if dv is not None:
            r["deletionVector"] = dv
        return {"remove": r}

    def dv_file(self, rows, prefix="", corrupt_crc=False):
        """A DV file holding one bitmap; returns its "u" descriptor."""
        self.dv_counter += 1
        u = uuid.UUID("%08x-0000-4000-8000-%012d" % (zlib.crc32(self.name.encode()), self.dv_counter))
        bm = roaring_array(rows)
        crc = zlib.crc32(bm)
        if corrupt_crc:
            crc ^= 0x5A5A
        content = b"\x01" + struct.pack(">i", len(bm)) + bm + struct.pack(">I", crc)
        d = os.path.join(self.root, prefix)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "deletion_vector_%s.bin" % u), "wb") as f:
            f.write(content)
        return {"storageType": "u", "pathOrInlineDv": prefix + z85_encode(u.bytes),
                "offset": 1, "sizeInBytes": len(bm), "cardinality": len(set(rows))}

    @staticmethod
    def dv_inline(rows):
        bm = roaring_array(rows)
        return {"storageType": "i", "pathOrInlineDv": z85_encode(bm),
                "sizeInBytes": len(bm), "cardinality": len(set(rows))}

    def commit(self, op, actions, blind=False, params=None):
        info = {"commitInfo": {"timestamp": MTIME + 1000 * self.version, "operation": op,
                               "operationParameters": params or {},
                               "isolationLevel": "Serializable", "isBlindAppend": blind,
                               "engineInfo": "Apache-Spark/3.5.0 Delta-Lake/3.2.0"}}
        if self.version > 0:
            info["commitInfo"]["readVersion"] = self.version - 1
        lines = [info] + actions
        if self.version == 0:
            lines = [info, self.protocol(), self.metadata()] + actions
        with open(os.path.join(self.root, "_delta_log", "%020d.json" % self.version), "w") as f:
            for a in lines:
                f.write(json.dumps(a, separators=(",", ":")) + "\n")
        self.version += 1

    def finish(self):
        with open(os.path.join(self.root, "rows.json"), "w") as f:
            json.dump(self.manifest, f, sort_keys=True, separators=(",", ":"))
            f.write("\n")


ID = [("id", "long")]


def ids(lo, hi, step=1):
    return [(i,) for i in range(lo, hi, step)]


def make_exact():
    t = Table("exact", ID, extra_schema=[("note", "string")])
    t.commit("WRITE", [t.data_file("part-%05d.parquet" % k, ids(100 * k, 100 * k + 100))
                       for k in range(10)], blind=True)
    t.commit("WRITE", [t.data_file("even-1000.parquet", ids(1000, 1100, 2))], blind=True)
    t.commit("WRITE", [t.data_file("odd-1100.parquet", ids(1101, 1200, 2)),
                       t.data_file("even-1100.parquet", ids(1100, 1200, 2))], blind=True)
    t.commit("WRITE", [t.data_file("all-2000.parquet", ids(2000, 2100))], blind=True)
    t.finish()


def make_exact_part():
    t = Table("exact_part", ID, partition=[("p", "int")])
    t.commit("WRITE", [t.data_file("p=0/part-%05d.parquet" % k, ids(100 * k, 100 * k + 100),
                                   pv={"p": "0"}) for k in range(2)], blind=True)
    t.commit("WRITE", [t.data_file("p=0/even-1000.parquet", ids(1000, 1100, 2), pv={"p": "0"})],
             blind=True)
    t.finish()


def make_dvdel():
    t = Table("dvdel", ID, dvs=True, extra_schema=[("note", "string")])
    p = "part-00000.parquet"
    t.commit("WRITE", [t.data_file(p, ids(0, 100), groups=[50, 50])], blind=True)
    d1 = t.dv_file(range(0, 10))
    t.commit("DELETE", [t.remove(p), t.add(p, d1)],
             params={"predicate": '["(id < 10)"]'})
    d2 = t.dv_inline(list(range(0, 10)) + list(range(60, 70)))
    t.commit("DELETE", [t.remove(p, d1), t.add(p, d2)],
             params={"predicate": '["((id >= 60) AND (id < 70))"]'})
    t.commit("RESTORE", [t.remove(p, d2), t.add(p, d1)], params={"version": 1})
    d4 = t.dv_file(list(range(0, 10)) + list(range(90, 100)), corrupt_crc=True)
    t.commit("DELETE", [t.remove(p, d1), t.add(p, d4)],
             params={"predicate": '["(id >= 90)"]'})
    t.finish()


def make_fullrm():
    t = Table("fullrm", ID)
    p = "part-00000.parquet"
    t.commit("WRITE", [t.data_file(p, ids(0, 100, 2))], blind=True)
    t.commit("DELETE", [t.remove(p)], params={"predicate": '["(id >= 0)"]'})
    t.finish()


def make_update():
    t = Table("update", [("id", "long"), ("x", "long")], dvs=True)
    a = "part-00000.parquet"
    t.commit("WRITE", [t.data_file(a, [(i, i % 10) for i in range(100)])], blind=True)
    dv = t.dv_file([5], prefix="dv")
    t.commit("UPDATE", [t.remove(a), t.add(a, dv),
                        t.data_file("part-00001.parquet", [(5, 15)])],
             params={"predicate": '["(id = 5)"]'})
    t.finish()


def make_signed():
    t = Table("signed", ID, dvs=True)
    a, b = "a.parquet", "b.parquet"
    d_a1 = t.dv_file(range(0, 10))
    t.commit("WRITE", [t.data_file(a, ids(0, 50)), t.data_file(b, ids(50, 100))], blind=True)
    # v0 re-states A with its DV (a table whose A already had rows 0..9 deleted)
    t.commit("DELETE", [t.remove(a), t.add(a, d_a1)], params={"predicate": '["(id < 10)"]'})
    d_a0 = t.dv_inline(range(1, 10))
    d_b = t.dv_inline([0])
    t.commit("MERGE", [t.remove(a, d_a1), t.add(a, d_a0), t.remove(b), t.add(b, d_b)])
    t.finish()


def make_part_rm():
    t = Table("part_rm", ID, partition=[("p", "string")], dvs=True)
    a, b = "p=1/a.parquet", "p=2/b.parquet"
    t.commit("WRITE", [t.data_file(a, ids(0, 100), pv={"p": "1"}),
                       t.data_file(b, ids(0, 100), pv={"p": "2"})], blind=True)
    d1 = t.dv_file(range(0, 10))
    t.commit("DELETE", [t.remove(a, pv=None), t.add(a, d1)],
             params={"predicate": '["((p = \'1\') AND (id < 10))"]'})
    d2 = t.dv_file(list(range(0, 10)) + list(range(90, 100)))
    t.commit("DELETE", [t.remove(a, d1, pv={}), t.add(a, d2)],
             params={"predicate": '["((p = \'1\') AND (id >= 90))"]'})
    d3 = t.dv_inline(range(0, 5))
    t.commit("DELETE", [t.remove(b, pv={"p": "9"}), t.add(b, d3)],
             params={"predicate": '["((p = \'2\') AND (id < 5))"]'})
    t.finish()


def make_part_pv():
    t = Table("part_pv", ID, partition=[("p", "string")])
    a, b, c, d = "p=1/a.parquet", "p=2/b.parquet", "p=1/c.parquet", "p=1/d.parquet"
    t.commit("WRITE", [t.data_file(a, ids(0, 100, 2), pv={"p": "1"}),
                       t.data_file(b, ids(0, 100, 2), pv={"p": "2"}),
                       t.data_file(c, ids(100, 200, 2), pv={"p": "1"})], blind=True)
    t.commit("DELETE", [t.remove(c, pv={})],
             params={"predicate": '["((p = \'1\') AND (id >= 100))"]'})
    t.commit("DELETE", [t.remove(b, pv={"p": "7"})],
             params={"predicate": '["(p = \'2\')"]'})
    t.commit("WRITE", [t.data_file(d, ids(200, 300, 2), pv={"p": "1"})], blind=True)
    t.commit("DELETE", [t.remove(d, pv={})],
             params={"predicate": '["((p = \'1\') AND (id >= 200))"]'})
    t.commit("UPDATE", [t.remove(a, pv={}), t.add(a, pv={"p": "2"})],
             params={"predicate": '["(p = \'1\')"]'})
    t.commit("DELETE", [t.remove(a, pv={})],
             params={"predicate": '["(p = \'2\')"]'})
    t.finish()


def make_types():
    t = Table("types", [("id", "long"), ("name", "string")])
    t.commit("WRITE", [t.data_file("part-00000.parquet", [(i, "x") for i in range(10)])],
             blind=True)
    t.commit("WRITE", [t.data_file("part-00001.parquet", [(100, "a"), (101, None), (102, "B")])],
             blind=True)
    t.finish()


if __name__ == "__main__":
    make_exact()
    make_exact_part()
    make_dvdel()
    make_fullrm()
    make_update()
    make_signed()
    make_part_rm()
    make_part_pv()
    make_types()
