#!/usr/bin/env python3
"""scripts/doctest.py: run every example of the documentation and compare
what psql prints with what the page shows.

Pages: README.md and docs/*.md (or the pages named on the command line).

An example is a fenced block with the info string `sql`, followed (blank
lines allowed between, nothing else) by a fenced block with the info string
`output` that holds exactly what psql prints for it: aligned format, the
"(N rows)" footer, command tags, and ERROR/NOTICE lines where the example
raises them.  An `sql` block without an `output` block is run but its output
is not compared (set-up statements).  An `sql norun` block is shown only.
Other fences (sh, plain) are ignored.  Trailing white space of each line and
blank lines at the start and end of an output are not significant.

Each page runs in a fresh database (UTF8, C collation) where
CREATE EXTENSION deltacc has been done, all its blocks in order in one psql
session started as `psql -X -v ON_ERROR_STOP=0` with the variables

  tables   the directory of the real Delta tables (DELTACC_TABLES; else
           ../shared/delta-tables beside the clone, else
           /work/shared/delta-tables, as scripts/test.sh finds them)
  data     the repository's test/data
  scratch  a fresh directory the server (the postgres OS user) may write

and with TimeZone UTC, DateStyle ISO, English messages.  A page whose blocks
are malformed (an `output` block that follows no `sql` block, an `sql` block
that does not end with ';' or a psql meta-command, an unknown `sql ...` info
string, an unclosed fence) fails.  A page that uses :tables when no tables
directory exists is skipped.  One pass or fail per page; the last line is
"N passed, M failed" like every step of scripts/test.sh.

Outside a cluster's environment the script runs itself inside a throwaway
one (pg_virtualenv, as the regression suites do); inside one (or with
DOCTEST_NO_VIRTUALENV=1 and the PG* variables naming a server of your own)
it uses that server.  deltacc must be installed (bash scripts/setup.sh).

  python3 scripts/doctest.py                 every page
  python3 scripts/doctest.py docs/reading.md one page
  python3 scripts/doctest.py --update PAGE   rewrite PAGE's output blocks
                                             with what psql prints now
                                             (review the diff before
                                             committing it)
"""
import difflib
import glob
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*(.*?)\s*$")


class Malformed(Exception):
    pass


class Block:
    def __init__(self, kind, line, body_start, body_end, text):
        self.kind = kind            # 'sql', 'norun', 'output'
        self.line = line            # 1-based line of the opening fence
        self.body_start = body_start  # 0-based index of the first body line
        self.body_end = body_end    # 0-based index of the closing fence
        self.text = text            # list of body lines
        self.output = None          # the paired output block (for 'sql')


def parse_page(lines):
    """Return the sql and norun blocks of a page, each sql block with its
    output block (or None).  Raises Malformed."""
    blocks = []
    prev = None         # the last block, while only blank lines follow it
    i = 0
    n = len(lines)
    while i < n:
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].strip():
                prev = None
            i += 1
            continue
        indent, fence, info = m.groups()
        start = i
        j = i + 1
        while j < n:
            c = FENCE.match(lines[j])
            if (c and c.group(2)[0] == fence[0] and len(c.group(2)) >= len(fence)
                    and c.group(3) == ""):
                break
            j += 1
        if j >= n:
            raise Malformed("line %d: fence never closed" % (start + 1))
        body = [l[len(indent):] if l.startswith(indent) else l.lstrip()
                for l in lines[start + 1:j]]
        words = info.split()
        kind = None
        if words[:1] == ["sql"]:
            if words == ["sql"]:
                kind = "sql"
            elif words == ["sql", "norun"]:
                kind = "norun"
            else:
                raise Malformed("line %d: unknown info string %r (sql, sql norun or output)"
                                % (start + 1, info))
        elif words[:1] == ["output"]:
            if words != ["output"]:
                raise Malformed("line %d: unknown info string %r" % (start + 1, info))
            kind = "output"
        if kind == "output":
            if prev is None or prev.kind != "sql" or prev.output is not None:
                raise Malformed("line %d: an output block must follow an sql block "
                                "(only blank lines between)" % (start + 1))
            prev.output = Block(kind, start + 1, start + 1, j, body)
            prev = None
        elif kind is not None:
            b = Block(kind, start + 1, start + 1, j, body)
            if kind == "sql":
                check_terminated(b)
            blocks.append(b)
            prev = b
        else:
            prev = None
        i = j + 1
    return blocks


def check_terminated(b):
    """An sql block must leave psql's query buffer empty, so that the
    harness's marker after it runs: its last line ends with ';' (a trailing
    -- comment allowed) or is a psql meta-command."""
    last = [l for l in b.text if l.strip()]
    if not last:
        raise Malformed("line %d: empty sql block" % b.line)
    l = last[-1].strip()
    if l.startswith("\\") or re.search(r"\\g\w*(\s.*)?$", l):
        return
    if re.sub(r"\s*--[^'\"]*$", "", l).endswith(";"):
        return
    raise Malformed("line %d: sql block does not end with ';' or a psql meta-command"
                    % b.line)


def tables_dir():
    d = os.environ.get("DELTACC_TABLES")
    if d:
        return os.path.abspath(d) if os.path.isdir(d) else None
    for d in (os.path.join(ROOT, "..", "shared", "delta-tables"),
              "/work/shared/delta-tables"):
        if os.path.isdir(d):
            return os.path.realpath(d)
    return None


def normalise(lines):
    out = [l.rstrip() for l in lines]
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def psql_env():
    env = dict(os.environ)
    env.update({
        "LC_ALL": "C.UTF-8",
        "LANG": "C.UTF-8",
        "PGCLIENTENCODING": "UTF8",
        "PGTZ": "UTC",
        "PGDATESTYLE": "ISO, MDY",
        "PGOPTIONS": "-c lc_messages=C",
    })
    env.pop("PSQLRC", None)
    return env


def admin(sql, env):
    env = dict(env, PGOPTIONS=env["PGOPTIONS"] + " -c client_min_messages=warning")
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", "postgres",
                    "-c", sql], env=env, check=True, stdout=subprocess.DEVNULL)


def run_page(page, blocks, tables, number):
    """Run the page's blocks in one psql session; return a list with, per sql
    block, the lines psql printed for it.  Raises Malformed when psql did not
    reach the end of a block."""
    env = psql_env()
    db = "deltacc_doctest_%d" % number
    token = secrets.token_hex(6)
    marker = "@@doctest-%s-%%d@@" % token
    script = ["CREATE EXTENSION deltacc;"]
    runnable = [b for b in blocks if b.kind == "sql"]
    for k, b in enumerate(runnable):
        script.append("\\echo '%s'" % (marker % k))
        script.extend(b.text)
    script.append("\\echo '%s'" % (marker % len(runnable)))
    scratch = tempfile.mkdtemp(prefix="deltacc-doctest-")
    try:
        if os.geteuid() == 0:
            shutil.chown(scratch, "postgres", "postgres")
        admin("DROP DATABASE IF EXISTS %s" % db, env)
        admin("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8' "
              "LC_COLLATE 'C' LC_CTYPE 'C'" % db, env)
        cmd = ["psql", "-X", "-v", "ON_ERROR_STOP=0", "-d", db,
               "-v", "tables=" + (tables or "/nonexistent/delta-tables"),
               "-v", "data=" + os.path.join(ROOT, "test", "data"),
               "-v", "scratch=" + scratch]
        p = subprocess.run(cmd, input="\n".join(script) + "\n", env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        admin("DROP DATABASE IF EXISTS %s WITH (FORCE)" % db, env)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    out = p.stdout.split("\n")
    pos = {}
    for idx, l in enumerate(out):
        m = re.fullmatch(r"@@doctest-%s-(\d+)@@" % token, l)
        if m:
            pos[int(m.group(1))] = idx
    if 0 not in pos or normalise(out[:pos[0]]) != ["CREATE EXTENSION"]:
        raise Malformed("CREATE EXTENSION deltacc failed:\n" + "\n".join(out[:pos.get(0, 20)]))
    results = []
    for k, b in enumerate(runnable):
        if k + 1 not in pos:
            raise Malformed("line %d: psql did not reach the end of this block "
                            "(an unterminated quote or statement?)" % b.line)
        results.append(out[pos[k] + 1:pos[k + 1]])
    return runnable, results


def check_page(page, number, tables, update):
    """Return 'ok', 'failed' or 'skipped' and print what went wrong."""
    rel = os.path.relpath(page, ROOT)
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        blocks = parse_page(lines)
    except Malformed as e:
        print("FAILED %s: malformed example: %s" % (rel, e))
        return "failed"
    runnable = [b for b in blocks if b.kind == "sql"]
    if not runnable:
        print("ok %s (no examples)" % rel)
        return "ok"
    if tables is None and any(re.search(r":'?tables\b", "\n".join(b.text)) for b in runnable):
        print("skipped %s (no Delta tables directory: set DELTACC_TABLES)" % rel)
        return "skipped"
    try:
        runnable, results = run_page(page, blocks, tables, number)
    except Malformed as e:
        print("FAILED %s: %s" % (rel, e))
        return "failed"
    except subprocess.CalledProcessError as e:
        print("FAILED %s: %s" % (rel, e))
        return "failed"
    compared = 0
    bad = 0
    for b, got in zip(runnable, results):
        if b.output is None:
            continue
        compared += 1
        want = normalise(b.output.text)
        have = normalise(got)
        if want == have:
            continue
        bad += 1
        if not update:
            print("%s:%d: output differs" % (rel, b.line))
            sys.stdout.writelines(difflib.unified_diff(
                [l + "\n" for l in want], [l + "\n" for l in have],
                "%s:%d (expected)" % (rel, b.output.line),
                "%s:%d (psql)" % (rel, b.line)))
    if update:
        if bad:
            # replace the output blocks' bodies, last first
            for b, got in reversed(list(zip(runnable, results))):
                if b.output is None:
                    continue
                lines[b.output.body_start:b.output.body_end] = normalise(got)
            with open(page, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
            print("updated %s: %d of %d outputs rewritten" % (rel, bad, compared))
        else:
            print("ok %s (%d examples, nothing to update)" % (rel, compared))
        return "ok"
    if bad:
        print("FAILED %s: %d of %d examples differ" % (rel, bad, compared))
        return "failed"
    print("ok %s (%d examples, %d blocks)" % (rel, compared, len(runnable)))
    return "ok"


def main(argv):
    update = False
    pages = []
    for a in argv:
        if a == "--update":
            update = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            pages.append(os.path.abspath(a))
    if update and not pages:
        print("doctest: --update needs the pages to rewrite", file=sys.stderr)
        return 2
    if "PG_CLUSTER_CONF_ROOT" not in os.environ and "DOCTEST_NO_VIRTUALENV" not in os.environ:
        major = os.environ.get("PG_MAJOR", "15")
        return subprocess.call(["pg_virtualenv", "-t", "-v", major, sys.executable,
                                os.path.abspath(__file__)] + argv)
    if not pages:
        pages = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    tables = tables_dir()
    counts = {"ok": 0, "failed": 0, "skipped": 0}
    for number, page in enumerate(pages):
        if not os.path.isfile(page):
            print("FAILED %s: no such page" % page)
            counts["failed"] += 1
            continue
        counts[check_page(page, number, tables, update)] += 1
    line = "%d passed, %d failed" % (counts["ok"], counts["failed"])
    if counts["skipped"]:
        line += ", %d skipped" % counts["skipped"]
    print(line)
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
