#!/usr/bin/env python3
"""scripts/lint.py: the project's C conventions, checked mechanically.

Each rule is one test; the last line is "N passed, M failed" like every other
part of scripts/test.sh.  A finding prints file:line and the rule.  Rules:

  no-line-comments   no // comments in C sources (style.md: C89 comments only)
  format-pure        src/format includes no PostgreSQL header and no header
                     of src/ (it is fuzzed standalone)
  postgres-h-first   every src/*.c includes "postgres.h" first
  ereport-errcode    every ereport at ERROR or above names an errcode
  no-libc-alloc      no malloc/calloc/realloc/free/strdup in src/ (palloc in
                     the extension; the caller's FmtAllocator in src/format;
                     fmt_arena.c, the malloc-backed arena of the unit tests
                     and fuzzers, is the one exception)
  no-stdio-output    no printf/fprintf/puts in src/ (ereport/elog only)
  layers             src/ is layered (LAYERS below, docs/architecture.md):
                     outside src/format every project header is included by
                     its folder ("log/actions.h"), only from the file's own
                     layer or a layer below it
  no-include-cycle   the include graph of src/ has no cycle, a module (foo.c
                     with foo.h) counted as one node: no two modules of one
                     layer need each other

The C is tokenized just enough to skip string and character literals and
comments, so "file://" in a string is not a comment and a word inside a
comment is not a call.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources(*dirs, exts=(".c", ".h")):
    for d in dirs:
        base = os.path.join(ROOT, d)
        for dirpath, _, names in os.walk(base):
            for n in sorted(names):
                if n.endswith(exts):
                    yield os.path.join(dirpath, n)


def split_code(text):
    """Return (code, line_comments): code with literals and comments blanked
    (newlines kept, so offsets map to the same lines), and the line numbers
    of // comments."""
    out = []
    slashes = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            out.append(c)
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            chunk = text[i:j]
            line += chunk.count("\n")
            out.append(re.sub(r"[^\n]", " ", chunk))
            i = j
        elif text.startswith("//", i):
            slashes.append(line)
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            chunk = text[i:j]
            out.append(c + " " * (len(chunk) - 2) + c if len(chunk) >= 2 else chunk)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out), slashes


def rel(p):
    return os.path.relpath(p, ROOT)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_line_comments(findings):
    for p in sources("src", "test/format", "test/fuzz"):
        _, slashes = split_code(open(p, encoding="utf-8", errors="replace").read())
        for ln in slashes:
            findings.append(f"{rel(p)}:{ln}: // comment")


FORMAT_OK = re.compile(r'#\s*include\s*(<[^>]+>|"([A-Za-z0-9_]+\.h)")')


def check_format_pure(findings):
    fmt = os.path.join(ROOT, "src", "format")
    local = {n for n in os.listdir(fmt) if n.endswith(".h")}
    for p in sources("src/format"):
        for ln, l in enumerate(open(p, encoding="utf-8", errors="replace"), 1):
            if not re.match(r"\s*#\s*include", l):
                continue
            m = FORMAT_OK.match(l.strip())
            bad = m is None
            if m and m.group(2) is not None and m.group(2) not in local:
                bad = True
            if m and m.group(1).startswith("<") and re.search(
                    r"postgres|fmgr|utils/|catalog/|nodes/|access/|executor/|storage/", m.group(1)):
                bad = True
            if bad:
                findings.append(f"{rel(p)}:{ln}: include outside src/format: {l.strip()}")


def check_postgres_first(findings):
    for p in sources("src", exts=(".c",)):
        if os.sep + "format" + os.sep in p:
            continue
        code, _ = split_code(open(p, encoding="utf-8", errors="replace").read())
        for ln, l in enumerate(code.split("\n"), 1):
            if re.match(r"\s*#\s*include", l):
                if not re.search(r'include\s+"postgres\.h"', open(p).read().split("\n")[ln - 1]):
                    findings.append(f"{rel(p)}:{ln}: first include is not \"postgres.h\"")
                break


def balanced_call(code, start):
    """Text of the call whose '(' is at or after start, up to its ')'."""
    i = code.find("(", start)
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return code[i:j + 1]
    return code[i:]


def check_ereport(findings):
    for p in sources("src", exts=(".c",)):
        text = open(p, encoding="utf-8", errors="replace").read()
        code, _ = split_code(text)
        for m in re.finditer(r"\bereport\s*\(", code):
            call = balanced_call(code, m.start())
            level = re.match(r"\(\s*([A-Za-z_]+)", call)
            if level and level.group(1) in ("ERROR", "FATAL", "PANIC") and "errcode" not in call:
                findings.append(f"{rel(p)}:{line_of(code, m.start())}: ereport({level.group(1)}) without errcode")


def check_words(findings, words, what, allow=()):
    pat = re.compile(r"(?<![A-Za-z0-9_.>])(" + "|".join(words) + r")\s*\(")
    for p in sources("src"):
        if rel(p) in allow:
            continue
        code, _ = split_code(open(p, encoding="utf-8", errors="replace").read())
        for m in pat.finditer(code):
            findings.append(f"{rel(p)}:{line_of(code, m.start())}: {what}: {m.group(1)}")


# The layers of src/, bottom first.  A file may include headers of its own
# layer and of the layers before it, never of a later one.
LAYERS = ["format", "common", "storage", "log", "stats", "rows", "snapshot", "check", "coord", "funcs"]
PROJECT_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def include_edges():
    """(file, line, included path relative to src/) for every project
    include of src/, resolved as the compiler does (the file's own folder
    first, then src/)."""
    src = os.path.join(ROOT, "src")
    for p in sources("src"):
        here = os.path.dirname(p)
        for ln, l in enumerate(open(p, encoding="utf-8", errors="replace"), 1):
            m = PROJECT_INCLUDE.match(l)
            if not m:
                continue
            name = m.group(1)
            if os.path.isfile(os.path.join(here, name)):
                target = os.path.relpath(os.path.join(here, name), src)
            elif os.path.isfile(os.path.join(src, name)):
                target = name
            else:
                continue  # a PostgreSQL header
            yield p, ln, name, target


def check_layers(findings):
    src = os.path.join(ROOT, "src")
    for p in sources("src"):
        layer = os.path.relpath(p, src).split(os.sep)[0]
        if layer not in LAYERS:
            findings.append(f"{rel(p)}: not in a layer folder of src/ ({', '.join(LAYERS)})")
    for p, ln, name, target in include_edges():
        mine = os.path.relpath(p, src).split(os.sep)[0]
        theirs = target.split("/")[0]
        if mine != "format" and "/" not in name:
            findings.append(f"{rel(p)}:{ln}: include \"{name}\" without its folder")
        if mine in LAYERS and theirs in LAYERS and LAYERS.index(theirs) > LAYERS.index(mine):
            findings.append(f"{rel(p)}:{ln}: {mine}/ includes {target} of the higher layer {theirs}/")


def check_include_cycle(findings):
    src = os.path.join(ROOT, "src")
    graph = {}
    for p, _, _, target in include_edges():
        a = os.path.splitext(os.path.relpath(p, src))[0]
        b = os.path.splitext(target)[0]
        if a != b:
            graph.setdefault(a, set()).add(b)
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                cyc = stack[stack.index(m):] + [m]
                findings.append("cycle: " + " -> ".join(cyc))
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)


RULES = [
    ("no-line-comments", check_line_comments),
    ("format-pure", check_format_pure),
    ("postgres-h-first", check_postgres_first),
    ("ereport-errcode", check_ereport),
    ("no-libc-alloc", lambda f: check_words(f, ["malloc", "calloc", "realloc", "free", "strdup"],
                                            "libc allocation",
                                            # the malloc-backed arena of the unit tests and fuzzers
                                            allow=("src/format/fmt_arena.c",))),
    ("no-stdio-output", lambda f: check_words(f, ["printf", "fprintf", "puts", "fputs"], "stdio output")),
    ("layers", check_layers),
    ("no-include-cycle", check_include_cycle),
]


def main():
    passed = failed = 0
    for name, fn in RULES:
        findings = []
        fn(findings)
        if findings:
            failed += 1
            print(f"not ok - {name}")
            for x in findings[:50]:
                print(f"  {x}")
        else:
            passed += 1
            print(f"ok - {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
