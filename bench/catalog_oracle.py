#!/usr/bin/env python3
"""Independent check that no ratified commit of a benchmark run should have
aborted (bench/catalog.sh).  It does not use deltacc's checker.

Input: the table's published version 0 (_delta_log/00000000000000000000.json)
and the ratified commits as JSON lines {"version": v, "content": "..."}
(deltacc.ratified_commits through json_build_object).  Every generated
commit carries commitInfo.readVersion and commitInfo.operationParameters
.predicate "id BETWEEN lo AND hi" (its read range); its removes and adds
are files of one key slot, each add with minValues/maxValues of "id".

For each ratified commit C read at r and ratified at v, every commit W with
r < W.version < v is a commit C raced with.  C should have aborted when W
  - added a file whose [min, max] meets C's read range (concurrent append),
  - removed a file whose [min, max] meets C's read range (delete of read),
  - removed a file C removes (delete of delete),
  - changed metaData or protocol.
Files without statistics meet every range.  Prints the number of commits
checked and of those that should have aborted (with the first few), and
exits 1 when there is any.

    catalog_oracle.py <version-0 json> <ratified jsonl>
    catalog_oracle.py --self-test
"""
import json
import re
import sys

RANGE = re.compile(r"^id BETWEEN (-?\d+) AND (-?\d+)$")


def file_range(add):
    """[min, max] of id of an add, or None (meets everything)"""
    try:
        st = json.loads(add["stats"])
        return (int(st["minValues"]["id"]), int(st["maxValues"]["id"]))
    except (KeyError, TypeError, ValueError):
        return None


def meets(rng, lo, hi):
    return rng is None or (rng[0] <= hi and lo <= rng[1])


def parse(content):
    return [json.loads(l) for l in content.split("\n") if l.strip()]


def missed_conflicts(v0_actions, commits):
    """commits: list of (version, [actions]) ascending.  Returns the list of
    (version, winning version, reason) of commits that should have aborted,
    and the number of commits checked."""
    ranges = {}
    for a in v0_actions:
        if "add" in a:
            ranges[a["add"]["path"]] = file_range(a["add"])
    by_version = {}
    for version, actions in commits:
        for a in actions:
            if "add" in a:
                ranges[a["add"]["path"]] = file_range(a["add"])
        by_version[version] = actions
    missed = []
    for version, actions in commits:
        info = next(a["commitInfo"] for a in actions if "commitInfo" in a)
        read_version = int(info["readVersion"])
        m = RANGE.match(info["operationParameters"]["predicate"])
        lo, hi = int(m.group(1)), int(m.group(2))
        removes = {a["remove"]["path"] for a in actions if "remove" in a}
        for w in range(read_version + 1, version):
            reason = None
            for a in by_version.get(w, []):
                if "add" in a and meets(file_range(a["add"]), lo, hi):
                    reason = "concurrent append of " + a["add"]["path"]
                elif "remove" in a:
                    p = a["remove"]["path"]
                    if p in removes:
                        reason = "concurrent delete of removed " + p
                    elif meets(ranges.get(p), lo, hi):
                        reason = "concurrent delete of read " + p
                elif "metaData" in a or "protocol" in a:
                    reason = "metadata or protocol change"
                if reason:
                    break
            if w not in by_version:
                reason = "version %d missing from the ratified history" % w
            if reason:
                missed.append((version, w, reason))
                break
    return missed, len(commits)


def self_test():
    """The oracle must flag overlapping races and pass disjoint ones."""
    def add(p, lo, hi):
        return {"add": {"path": p, "stats": json.dumps(
            {"minValues": {"id": lo}, "maxValues": {"id": hi}})}}

    def info(rv, lo, hi):
        return {"commitInfo": {"readVersion": rv, "operationParameters":
                               {"predicate": "id BETWEEN %d AND %d" % (lo, hi)}}}
    v0 = [add("s0", 0, 9), add("s1", 10, 19)]
    disjoint = [(1, [info(0, 0, 9), {"remove": {"path": "s0"}}, add("s0b", 0, 9)]),
                (2, [info(0, 10, 19), {"remove": {"path": "s1"}}, add("s1b", 10, 19)])]
    overlap = [(1, [info(0, 0, 9), {"remove": {"path": "s0"}}, add("s0b", 0, 9)]),
               (2, [info(0, 5, 15), {"remove": {"path": "s1"}}, add("s1b", 10, 19)])]
    same_file = [(1, [info(0, 0, 9), {"remove": {"path": "s0"}}]),
                 (2, [info(0, 100, 200), {"remove": {"path": "s0"}}])]
    ok = (missed_conflicts(v0, disjoint)[0] == []
          and len(missed_conflicts(v0, overlap)[0]) == 1
          and "removed s0" in missed_conflicts(v0, same_file)[0][0][2])
    print("oracle self-test:", "ok" if ok else "FAILED")
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    with open(sys.argv[1], encoding="utf-8") as f:
        v0 = parse(f.read())
    commits = []
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                commits.append((int(r["version"]), parse(r["content"])))
    commits.sort()
    missed, checked = missed_conflicts(v0, commits)
    print("oracle: %d commits checked, %d should have aborted" % (checked, len(missed)))
    for version, w, reason in missed[:5]:
        print("  version %d raced with version %d: %s" % (version, w, reason))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
