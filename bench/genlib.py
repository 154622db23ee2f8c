"""bench/genlib.py: what bench/gen.py and bench/gen_variety.py share --
the table directories, the commit files' names and times, the slots of
the clustering key, and the command line that writes a family's tables.

Only the standard library is used."""

import argparse
import hashlib
import json
import os
import time

BASE_TIME_MS = 1714521600000          # 2024-05-01T00:00:00Z
SLOT_WIDTH = 1000000                  # key space of one file's slot


def log_path(table, version):
    return os.path.join(table, "_delta_log", "%020d.json" % version)


def write_log_file(table, version, text):
    """Write commit `version` of `table` atomically, its mtime an hour per
    version after BASE_TIME_MS."""
    p = log_path(table, version)
    tmp = p + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, p)
    t = (BASE_TIME_MS + version * 3600000) / 1000
    os.utime(p, (t, t))


def fresh_table(out, name):
    """An empty _delta_log for table `name` under `out`; its path."""
    table = os.path.join(out, name)
    os.makedirs(os.path.join(table, "_delta_log"), exist_ok=True)
    for f in os.listdir(os.path.join(table, "_delta_log")):
        os.unlink(os.path.join(table, "_delta_log", f))
    return table


def slot_order(rng, total):
    """A seeded permutation: file number -> disjoint key slot."""
    slots = list(range(total))
    rng.shuffle(slots)
    return slots


def w2_manifest(name, read_version, winners, per_winner, winner_adds, ranges,
                read_files, expected):
    """The manifest of a W2 table: the loser's read (version, the ranges on
    id, the paths it read) and the answer, [(version, path), ...] of the
    ConcurrentAppendException rows in Delta's order."""
    return {"workload": "W2", "table": name, "read_version": read_version,
            "latest_version": read_version + winners, "winners": winners,
            "per_winner": per_winner, "winner_adds": winner_adds,
            "ranges": ranges,
            "predicates": ["id BETWEEN %d AND %d" % r for r in ranges],
            "read_files": read_files,
            "conflict": bool(expected),
            "expected": [[v, p] for v, p in expected]}


def standard_jobs(out, seed, quick, gen_w1, gen_w2, gen_w4):
    """The tables of a family: (name, job) for W1, W2 and W4 at the bench's
    sizes (small ones with quick)."""
    if quick:
        jobs = [("w1", lambda: gen_w1(out, seed, 10, 100, 5))]
        sizes2, sizes4 = (10, 100), (1000, 10000)
    else:
        jobs = [("w1", lambda: gen_w1(out, seed))]
        sizes2, sizes4 = (100, 1000, 10000), (100000, 300000, 1000000)
    jobs += [("w2_%d" % n, (lambda n=n: gen_w2(out, seed, n))) for n in sizes2]
    jobs += [("w4_%d" % n, (lambda n=n: gen_w4(out, seed, n))) for n in sizes4]
    return jobs


def write_manifest(table, manifest, extra):
    """bench.json of a table: the manifest (workload, sizes, the oracle's
    answer) with the fields in `extra` (generator, family)."""
    manifest.update(extra)
    with open(os.path.join(table, "bench.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


def main(doc, script, data_dir, default_seed, gens, extra, label="",
         options=(), configure=None):
    """The generators' command line: [--out DIR] [--seed N] [--only
    NAME,...] [--quick] [--force], and the generator's own string
    `options` ((flag, help), ...), handed to configure(args) before any
    table is written.  gens = (gen_w1, gen_w2, gen_w4), each returning its
    table's manifest; the manifests get `extra`.  A table whose bench.json
    carries the same stamp (the generator's and this file's sources, its
    name, the seed, quick or not, the options) is left as it is."""
    here = os.path.dirname(os.path.abspath(script))
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(here, data_dir))
    ap.add_argument("--seed", type=int, default=default_seed)
    ap.add_argument("--only", default="")
    ap.add_argument("--force", action="store_true",
                    help="rewrite tables that are up to date")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes only (for a smoke run)")
    for flag, text in options:
        ap.add_argument(flag, default="", help=text)
    args = ap.parse_args()
    opts = tuple(getattr(args, flag.lstrip("-").replace("-", "_")) for flag, _ in options)
    if configure:
        configure(args)
    os.makedirs(args.out, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    source = b""
    for path in (os.path.abspath(script), os.path.abspath(__file__)):
        with open(path, "rb") as f:
            source += f.read()
    for name, job in standard_jobs(args.out, args.seed, args.quick, *gens):
        if only and name not in only:
            continue
        key = (name, args.seed, args.quick) + (opts if any(opts) else ())
        stamp = hashlib.sha256(source + repr(key).encode()).hexdigest()[:16]
        mpath = os.path.join(args.out, name, "bench.json")
        if not args.force and os.path.exists(mpath):
            with open(mpath) as f:
                if json.load(f).get("stamp") == stamp:
                    print("gen: %-10s up to date%s" % (name, label))
                    continue
        t = time.time()
        m = job()
        m["seed"] = args.seed
        m["stamp"] = stamp
        write_manifest(os.path.join(args.out, name), m, extra)
        print("gen: %-10s %6.1f s  %s%s" % (name, time.time() - t, json.dumps(
            {k: m[k] for k in ("num_actions", "winner_adds", "active_files",
                               "conflict") if k in m}), label))
    return 0
