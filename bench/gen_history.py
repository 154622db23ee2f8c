#!/usr/bin/env python3
"""bench/gen_history.py: a long project-made history for bench/replay.sh.

A partitioned table (16 regions) written by the writers of
test/data/history/make_history.py (the same History class, so the same
commitInfo, predicates and Parquet data files), seeded and reproducible:
per commit one of

  45%  blind append of 10 new ids into a region
  15%  DELETE region = R AND id = x        (rewrites the file holding x)
  15%  UPDATE region = R AND id = x        (rewrites it)
   7%  DELETE region = R AND id % 2 = 1    (rewrites every file of R)
   8%  Spark MERGE: rewrites one file, inserts a new one
   5%  delta-rs MERGE region = 'R' AND id BETWEEN lo AND hi (rewrites one)
   5%  OPTIMIZE region = R                 (compacts the region's files)

A quarter of the commits read 1 to 3 versions back (they raced); a writer
only touches files that were live at the version it read, as a real
optimistic writer does.

    python3 bench/gen_history.py --commits 10000 --out bench/data-replay/history
"""
import argparse
import importlib.util
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "make_history", os.path.join(HERE, "..", "test", "data", "history", "make_history.py"))
MH = importlib.util.module_from_spec(spec)
spec.loader.exec_module(MH)
REGIONS = ["R%02d" % i for i in range(16)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", type=int, default=10000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    h = MH.History(args.out)
    added = {}                   # file name -> version that added it
    next_id = [0]
    seq = [0]

    def ids(n):
        lo = next_id[0]
        next_id[0] += n
        return range(lo, lo + n)

    def name(region):
        seq[0] += 1
        return "%s-%06d" % (region.lower(), seq[0])

    first = []
    for r in REGIONS:
        for _ in range(2):
            n = name(r)
            h.new_file(n, r, ids(100))
            first.append(n)
    h.create(first)
    for n in first:
        added[n] = 0

    def track(acts):
        for a in acts:
            if "add" in a:
                added[os.path.basename(a["add"]["path"])[:-8]] = h.version
        return acts

    while h.version < args.commits:
        v = h.version
        rv = v - 1 - (rnd.choice([1, 2, 3]) if rnd.random() < 0.25 and v > 4 else 0)
        region = rnd.choice(REGIONS)
        # files of the region live now and already at the read version
        files = [n for n in h.live if h.files[n]["region"] == region and added[n] <= rv]
        op = rnd.random()
        if op < 0.45 or not files:
            n = name(region)
            h.append(n, region, ids(10), rv)
            added[n] = v
            continue
        f = rnd.choice(files)
        x = rnd.choice(h.files[f]["ids"])
        part = "(region#12 = %s)" % region
        if op < 0.60:
            h.commit("DELETE", {"predicate": MH.predicate_array(
                "(%s AND (id#10L = %d))" % (part, x))},
                track(h.rewrite(f, name(region), lambda i: i != x)), read_version=rv)
        elif op < 0.75:
            h.commit("UPDATE", {"predicate": MH.predicate_array(
                "(%s AND (id#10L = %d))" % (part, x))},
                track(h.rewrite(f, name(region), lambda i: True, {x: 99})), read_version=rv)
        elif op < 0.82:
            acts = []
            for g in files:
                if any(i % 2 for i in h.files[g]["ids"]):
                    acts += h.rewrite(g, name(region), lambda i: i % 2 == 0)
            if not acts:
                acts = h.rewrite(f, name(region), lambda i: True)
            h.commit("DELETE", {"predicate": MH.predicate_array(
                "(%s AND ((id#10L %% cast(2 as bigint)) = cast(1 as bigint)))" % part)},
                track(acts), read_version=rv)
        elif op < 0.90:
            n = name(region)
            acts = h.rewrite(f, name(region), lambda i: True, {x: 7})
            h.new_file(n, region, ids(5))
            acts.append(h.add(n))
            h.commit("MERGE", {"predicate": MH.predicate_array("(id#10L = id#40L)"),
                               "matchedPredicates": MH.js([{"actionType": "update"}]),
                               "notMatchedPredicates": MH.js([{"actionType": "insert"}]),
                               "notMatchedBySourcePredicates": "[]"},
                     track(acts), read_version=rv)
        elif op < 0.95:
            fi = h.files[f]["ids"]
            h.commit("MERGE", {"predicate": "region = '%s' AND id BETWEEN %d AND %d"
                               % (region, min(fi), max(fi)),
                               "mergePredicate": "target.id = source.id",
                               "matchedPredicates": MH.js([{"actionType": "update"}]),
                               "notMatchedPredicates": "[]",
                               "notMatchedBySourcePredicates": "[]"},
                     track(h.rewrite(f, name(region), lambda i: True, {x: 3})),
                     read_version=rv, isolation=None, blind=None, engine=None,
                     extra={"clientVersion": "delta-rs.0.22.3"})
        else:
            if len(files) < 3:
                files = files + [f]
            n = name(region)
            allids = sorted(i for g in set(files) for i in h.files[g]["ids"])
            qty = {}
            for g in set(files):
                qty.update(h.files[g]["qty"])
            h.new_file(n, region, allids, qty)
            acts = [h.remove(g, False) for g in sorted(set(files))] + [h.add(n, False)]
            h.commit("OPTIMIZE", {"predicate": MH.predicate_array(part), "zOrderBy": "[]",
                                  "clusterBy": "[]", "auto": False},
                     track(acts), read_version=rv, isolation="SnapshotIsolation")
    print("gen_history: %d commits, %d live files in %s" % (h.version, len(h.live), args.out))


if __name__ == "__main__":
    main()
