#!/usr/bin/env python3
"""Generate the property cases of deltacc.spark_predicate (test/sql/
spark_predicate_property.sql): random predicates over a small typed table,
each rendered the three ways Delta writers record predicates, random rows
with NULLs, and for every predicate the rows Spark's semantics select,
computed by the reference evaluator below.

The evaluator is written from Spark's documented semantics (SQL three-valued
logic; integer, decimal and double comparisons; NaN equal to itself and
above every number, -0.0 equal to 0.0; strings compared by their UTF-8
bytes; LIKE with backslash escapes; Java's integer arithmetic), not from the
translator.  The renderings follow what the writers print:
  ts   Spark's toString (Delta >= 2.4): name#id[L], unquoted literals
       (Spark <= 3.1 printed dates and timestamps as day and microsecond
       numbers), lower-case cast, isnull, IN without spaces;
  sql  Spark's .sql (Delta < 2.4 DELETE): back-ticks or catalog qualifiers,
       10L / 10S / 1.50BD / 1.5D, CAST('1.5' AS FLOAT), DATE '..',
       TIMESTAMP '..' in the writer's session time zone;
  df   delta-rs: bare names, "Cat", get_field, '..'::date, the unscaled
       '150'::decimal(6, 2), arrow_cast timestamps, minimal parentheses.
A predicate a rendering cannot express is not rendered that way.

Run: python3 test/data/spark_predicate/make_cases.py  (rewrites cases.json
beside it; deterministic, committed so the tests never need Python).
"""
import datetime
import json
import os
import random
import struct
import zoneinfo
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260321
N_PREDICATES = 1400
N_ROWS = 40

# ---------------------------------------------------------------- schema
# name, Delta type, PostgreSQL type of the evaluation table
COLUMNS = [
    ("i", "integer"), ("l", "long"), ("sm", "short"), ("dc", "decimal(6,2)"),
    ("f", "float"), ("db", "double"), ("s", "string"), ("b", "boolean"),
    ("dt", "date"), ("ts", "timestamp"), ("tn", "timestamp_ntz"),
    ("st.x", "integer"), ("Cat", "string"),
]
TYPE = dict(COLUMNS)


def schema_string():
    fields = []
    for name, t in COLUMNS:
        if name == "st.x":
            fields.append({"name": "st", "type": {"type": "struct", "fields": [
                {"name": "x", "type": "integer", "nullable": True, "metadata": {}}]},
                "nullable": True, "metadata": {}})
        else:
            fields.append({"name": name, "type": t, "nullable": True, "metadata": {}})
    return json.dumps({"type": "struct", "fields": fields}, separators=(",", ":"))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)


def micros(y, mo, d, h=0, mi=0, s=0, us=0):
    dt = datetime.datetime(y, mo, d, h, mi, s, us, tzinfo=UTC)
    return (dt - EPOCH) // datetime.timedelta(microseconds=1)


NAN = float("nan")
INF = float("inf")
POOL = {
    "i": [-3, 0, 1, 2, 5, 7, 2147483647, -2147483648],
    "l": [-5, 0, 3, 10, 9007199254740993, -9223372036854775808, 42],
    "sm": [-1, 0, 4, 32767, 12],
    "dc": [Decimal("0.00"), Decimal("1.50"), Decimal("-3.25"), Decimal("1.05"),
           Decimal("9999.99"), Decimal("150.00"), Decimal("15.00")],
    "f": [0.0, -0.0, 1.5, -0.25, 100.5, f32(3.4028234663852886e38), NAN, INF],
    "db": [0.0, -0.0, 1.5, 0.1, 1e10, -2.25, 1e-05, 123456.789, NAN, INF, -INF],
    "s": ["", "a", "A", "ab", "abc", "b", "a b", "Dennis", "Retail Trade", "a,b",
          "it's", "back\\slash", "50%", "x_y", "\u00e9", "\u20acuro", "\U0001F600",
          "null", "true", "10", "a AND b", "zz", "a%", "a_c", "a\\%", "50", "50%x",
          "xay", "x_yz", "aXc"],
    "b": [True, False],
    "dt": [datetime.date(2020, 1, 1), datetime.date(2019, 12, 31),
           datetime.date(2024, 2, 29), datetime.date(1600, 3, 1),
           datetime.date(9999, 12, 31)],
    "ts": [micros(2020, 1, 1), micros(2020, 1, 1, 5, 30), micros(2019, 12, 31, 23),
           micros(2020, 6, 30, 12, 0, 0, 123456), micros(2020, 1, 2, 10)],
    "tn": [micros(2020, 1, 1), micros(2020, 1, 1, 5, 30), micros(2019, 12, 31, 23),
           micros(2020, 6, 30, 12, 0, 0, 123000)],
    "st.x": [1, 2, -7],
    "Cat": ["a", "B", "b", "Cat"],
}
ZONES = ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati",
         "Etc/GMT+12", "Europe/Berlin", "Asia/Kathmandu"]


def gen_rows(rnd):
    rows = []
    for rid in range(1, N_ROWS + 1):
        row = {"rid": rid}
        for name, _ in COLUMNS:
            row[name] = None if rnd.random() < 0.15 else rnd.choice(POOL[name])
        rows.append(row)
    return rows


# ---------------------------------------------------------------- Spark semantics
def is_nan(x):
    return isinstance(x, float) and x != x


def cmp_values(t, a, b):
    """-1, 0, 1 as Spark orders two non-null values of type t."""
    if t in ("float", "double"):
        if is_nan(a) and is_nan(b):
            return 0
        if is_nan(a):
            return 1
        if is_nan(b):
            return -1
        return (a > b) - (a < b)        # -0.0 == 0.0
    if t == "string":
        a, b = a.encode("utf-8"), b.encode("utf-8")
    return (a > b) - (a < b)


def wrap32(v):
    return (v + 2 ** 31) % 2 ** 32 - 2 ** 31


def wrap64(v):
    return (v + 2 ** 63) % 2 ** 64 - 2 ** 63


def java_rem(a, b):
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return a - q * b


def like_match(s, p):
    """Spark LIKE: % any run, _ one character, backslash escapes % _ \\."""
    toks = []
    k = 0
    while k < len(p):
        c = p[k]
        if c == "\\":
            toks.append(("lit", p[k + 1]))
            k += 2
            continue
        toks.append(("any",) if c == "%" else ("one",) if c == "_" else ("lit", c))
        k += 1
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if j == len(toks):
            r = i == len(s)
        elif toks[j][0] == "any":
            r = m(i, j + 1) or (i < len(s) and m(i + 1, j))
        elif i < len(s) and (toks[j][0] == "one" or toks[j][1] == s[i]):
            r = m(i + 1, j + 1)
        else:
            r = False
        memo[(i, j)] = r
        return r
    return m(0, 0)


def term_type(t):
    k = t[0]
    if k == "col":
        return TYPE[t[1]]
    if k == "cast":
        return t[2]
    if k in ("mod", "abs", "plus"):
        return term_type(t[1])
    if k == "length":
        return "integer"
    raise ValueError(k)


def eval_term(t, row):
    k = t[0]
    if k == "col":
        return row[t[1]]
    v = eval_term(t[1], row)
    if v is None:
        return None
    if k == "cast":
        return float(v) if t[2] == "double" else Decimal(v) if t[2].startswith("decimal") else v
    if k == "mod":
        return java_rem(v, t[2])
    if k == "abs":
        return wrap32(abs(v)) if term_type(t[1]) == "integer" else wrap64(abs(v))
    if k == "plus":
        return wrap32(v + t[2]) if term_type(t[1]) == "integer" else wrap64(v + t[2])
    if k == "length":
        return len(v)
    raise ValueError(k)


def k_and(a, b):
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def k_or(a, b):
    if a is True or b is True:
        return True
    if a is None or b is None:
        return None
    return False


def compare(op, typ, x, y):
    if op == "<=>":
        if x is None or y is None:
            return x is None and y is None
        return cmp_values(typ, x, y) == 0
    if x is None or y is None:
        return None
    c = cmp_values(typ, x, y)
    return {"=": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]


def ev(n, row):
    k = n[0]
    if k == "and":
        return k_and(ev(n[1], row), ev(n[2], row))
    if k == "or":
        return k_or(ev(n[1], row), ev(n[2], row))
    if k == "not":
        v = ev(n[1], row)
        return None if v is None else not v
    if k == "const":
        return n[1]
    if k == "boolcol":
        return row[n[1]]
    if k == "cmp":
        _, t, op, lit = n
        return compare(op, lit[0], eval_term(t, row), lit[1])
    if k == "colcmp":
        _, t1, op, t2 = n
        return compare(op, term_type(t1), eval_term(t1, row), eval_term(t2, row))
    if k == "in":
        _, t, lits, neg = n
        x = eval_term(t, row)
        if x is None:
            r = None
        else:
            r = False
            for typ, v in lits:
                if v is None:
                    r = None if r is False else r
                elif cmp_values(typ, x, v) == 0:
                    r = True
                    break
        return r if not neg or r is None else not r
    if k == "between":
        _, t, lo, hi = n
        x = eval_term(t, row)
        return k_and(compare(">=", lo[0], x, lo[1]), compare("<=", hi[0], x, hi[1]))
    if k == "isnull":
        return (eval_term(n[1], row) is None) != n[2]
    if k == "like":
        x = eval_term(n[1], row)
        return None if x is None else like_match(x, n[2])
    if k == "strfn":
        _, kind, t, v = n
        x = eval_term(t, row)
        if x is None:
            return None
        xb, vb = x.encode(), v.encode()
        return {"startswith": xb.startswith(vb), "endswith": xb.endswith(vb),
                "contains": vb in xb}[kind]
    raise ValueError(k)


# ---------------------------------------------------------------- generation
def pick_literal(rnd, col, typ):
    pool = POOL[col] if col in POOL else POOL["i"]
    if rnd.random() < 0.06:
        return (typ, None)
    v = rnd.choice(pool)
    r = rnd.random()
    if typ in ("integer", "long", "short") and r < 0.3:
        v = v + rnd.choice([-1, 1])
        lim = {"integer": 31, "long": 63, "short": 15}[typ]
        v = max(-2 ** lim, min(2 ** lim - 1, v))
    elif typ.startswith("decimal") and r < 0.3:
        v = v + rnd.choice([Decimal("-0.01"), Decimal("0.01"), Decimal("1.00")])
        v = max(Decimal("-9999.99"), min(Decimal("9999.99"), v))
    elif typ == "date" and r < 0.3:
        step = rnd.choice([-1, 1])
        if v == datetime.date(9999, 12, 31):
            step = -1
        v = v + datetime.timedelta(days=step)
    elif typ in ("timestamp", "timestamp_ntz") and r < 0.4:
        v = v + rnd.choice([-1, 1, 3600 * 10 ** 6, -60 * 10 ** 6, 13 * 3600 * 10 ** 6])
    elif typ == "string" and r < 0.2:
        v = v + rnd.choice(["a", "", " "])
    if typ.startswith("decimal"):
        v = Decimal(v).quantize(Decimal("0.01"))
    elif typ == "double":
        v = float(v)
    return (typ, v)


def gen_term(rnd, cols=None):
    col = rnd.choice(cols or [c for c, _ in COLUMNS if c != "b"])
    t = ("col", col)
    typ = TYPE[col]
    r = rnd.random()
    if typ in ("integer", "short") and r < 0.15:
        return ("cast", t, rnd.choice(["long", "decimal(12,2)", "double"]) if typ == "integer"
                else rnd.choice(["integer", "long"])), col
    if typ == "float" and r < 0.3:
        return ("cast", t, "double"), col
    if typ in ("integer", "long") and r < 0.3:
        return ("mod", t, rnd.choice([2, 3, -3, 7])), col
    if typ in ("integer", "long") and r < 0.36:
        return ("abs", t), col
    if typ in ("integer", "long") and r < 0.4:
        return ("plus", t, 1), col
    if typ == "string" and r < 0.08:
        return ("length", t), "i"
    return t, col


def gen_leaf(rnd):
    r = rnd.random()
    if r < 0.03:
        return ("boolcol", "b")
    if r < 0.05:
        t1, _ = gen_term(rnd, ["i"])
        return ("colcmp", t1, "=", ("col", "st.x"))
    t, col = gen_term(rnd)
    typ = term_type(t)
    if typ == "string" and t[0] == "col" and rnd.random() < 0.35:
        r = 0.9                 # LIKE and the string functions, often
    if r < 0.55:
        op = rnd.choice(["=", "=", "<", "<=", ">", ">=", "!=", "<=>"])
        return ("cmp", t, op, pick_literal(rnd, col, typ))
    if r < 0.7:
        lits = [pick_literal(rnd, col, typ) for _ in range(rnd.randint(1, 4))]
        return ("in", t, lits, rnd.random() < 0.3)
    if r < 0.78:
        a, b = pick_literal(rnd, col, typ), pick_literal(rnd, col, typ)
        return ("between", t, a, b)
    if r < 0.86:
        return ("isnull", t, rnd.random() < 0.5)
    if typ == "string" and t[0] == "col":
        if r < 0.94:
            base = rnd.choice(POOL["s"])
            # a backslash always escapes (Spark refuses a pattern where it
            # precedes anything but % _ or \)
            pat = "".join(rnd.choice([c, "%", "_"]) if rnd.random() < 0.3 and c != "\\" else
                          ("\\" + c if c in "%_\\" else c) for c in base)
            if rnd.random() < 0.4:
                pat += "%"
            return ("like", t, pat)
        v = rnd.choice(POOL["s"])
        v = v[: rnd.randint(0, 3)] if rnd.random() < 0.5 else v
        return ("strfn", rnd.choice(["startswith", "endswith", "contains"]), t, v)
    return ("cmp", t, "=", pick_literal(rnd, col, typ))


def gen_pred(rnd, depth=0):
    r = rnd.random()
    if depth >= 3 or r < 0.45:
        return gen_leaf(rnd)
    if r < 0.72:
        return ("and", gen_pred(rnd, depth + 1), gen_pred(rnd, depth + 1))
    if r < 0.9:
        return ("or", gen_pred(rnd, depth + 1), gen_pred(rnd, depth + 1))
    return ("not", gen_pred(rnd, depth + 1))


# ---------------------------------------------------------------- renderings
class NotRendered(Exception):
    pass


def sci_java(x):
    """Java's Double.toString / Float.toString for the values used here."""
    if is_nan(x):
        return "NaN"
    if x == INF:
        return "Infinity"
    if x == -INF:
        return "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    a = abs(x)
    if 1e-3 <= a < 1e7:
        s = repr(x)
        return s if "." in s or "e" in s else s + ".0"
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    e = exp + len(digits) - 1
    mant = ds[0] + "." + (ds[1:] or "0")
    return ("-" if sign else "") + mant + "E" + str(e)


def rust_display(x):
    """Rust's Display of an f64 (delta-rs prints Float64 literals so)."""
    d = Decimal(repr(x))
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def wall(us, zone):
    dt = EPOCH + datetime.timedelta(microseconds=us)
    if zone is not None:
        dt = dt.astimezone(zoneinfo.ZoneInfo(zone))
    return dt


def ts_text(us, zone, sep=" ", frac6=False):
    dt = wall(us, zone)
    s = dt.strftime("%Y-%m-%d" + sep + "%H:%M:%S")
    if dt.microsecond or frac6:
        f = "%06d" % dt.microsecond
        s += "." + (f if frac6 else f.rstrip("0"))
    return s


class Ctx:
    def __init__(self, rnd):
        self.rnd = rnd
        self.zone = rnd.choice(ZONES)
        self.old_spark = rnd.random() < 0.2      # Spark <= 3.1 literals
        self.ids = {}
        base = rnd.randint(1, 99999)
        for k, (c, _) in enumerate(COLUMNS):
            self.ids[c.split(".")[0]] = base + k
        self.sql_style = rnd.choice(["bq", "bare", "qual"])


def lit_ts(ctx, lit):
    typ, v = lit
    if v is None:
        return "null"
    if typ in ("integer", "long", "short"):
        return str(v)
    if typ.startswith("decimal"):
        return str(v)
    if typ == "double":
        return sci_java(v)
    if typ == "float":
        return sci_java(v)
    if typ == "string":
        return v
    if typ == "boolean":
        return "true" if v else "false"
    if typ == "date":
        if ctx.old_spark:
            return str((v - datetime.date(1970, 1, 1)).days)
        return v.isoformat()
    if typ == "timestamp":
        if ctx.old_spark:
            return str(v)
        return ts_text(v, ctx.zone)
    if typ == "timestamp_ntz":
        return ts_text(v, None)
    raise ValueError(typ)


def sql_string(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def lit_sql(ctx, lit):
    typ, v = lit
    if v is None:
        return ctx.rnd.choice(["NULL", "CAST(NULL AS %s)" % SQL_TYPE.get(typ, "INT")])
    if typ == "integer":
        return str(v)
    if typ == "long":
        return str(v) + "L"
    if typ == "short":
        return str(v) + "S"
    if typ.startswith("decimal"):
        return str(v) + "BD" if ctx.rnd.random() < 0.7 else \
            "CAST(%sBD AS DECIMAL(%s))" % (v, typ[8:-1])
    if typ == "double":
        if is_nan(v) or v in (INF, -INF):
            return "CAST('%s' AS DOUBLE)" % sci_java(v)
        return sci_java(v) + "D"
    if typ == "float":
        return "CAST('%s' AS FLOAT)" % sci_java(v)
    if typ == "string":
        return sql_string(v)
    if typ == "boolean":
        return "true" if v else "false"
    if typ == "date":
        return "DATE '%s'" % v.isoformat()
    if typ == "timestamp":
        return "TIMESTAMP '%s'" % ts_text(v, ctx.zone)
    if typ == "timestamp_ntz":
        return "TIMESTAMP_NTZ '%s'" % ts_text(v, None)
    raise ValueError(typ)


def lit_df(ctx, lit):
    typ, v = lit
    if v is None:
        return "NULL"
    if typ in ("integer", "long", "short"):
        return str(v)
    if typ.startswith("decimal"):
        p, s = typ[8:-1].split(",")
        unscaled = int(v.scaleb(int(s)))
        return "'%d'::decimal(%s, %s)" % (unscaled, p, s)
    if typ == "double":
        if is_nan(v) or v in (INF, -INF):
            raise NotRendered()
        return rust_display(v)
    if typ == "float":
        raise NotRendered()
    if typ == "string":
        return "'" + v.replace("'", "''") + "'"
    if typ == "boolean":
        return "true" if v else "false"
    if typ == "date":
        return "'%s'::date" % v.isoformat()
    if typ == "timestamp":
        return "arrow_cast('%s', 'Timestamp(Microsecond, Some(\"UTC\"))')" % ts_text(v, None, "T", True)
    if typ == "timestamp_ntz":
        return "arrow_cast('%s', 'Timestamp(Microsecond, None)')" % ts_text(v, None, "T", True)
    raise ValueError(typ)


SQL_TYPE = {"integer": "INT", "long": "BIGINT", "short": "SMALLINT", "double": "DOUBLE",
            "float": "FLOAT", "string": "STRING", "boolean": "BOOLEAN", "date": "DATE",
            "timestamp": "TIMESTAMP", "timestamp_ntz": "TIMESTAMP_NTZ",
            "decimal(12,2)": "DECIMAL(12,2)", "decimal(6,2)": "DECIMAL(6,2)"}
TS_TYPE = {"integer": "int", "long": "bigint", "short": "smallint", "double": "double",
           "decimal(12,2)": "decimal(12,2)"}
DF_TYPE = {"integer": "Int32", "long": "Int64", "double": "Float64", "decimal(12,2)": "Decimal128(12, 2)"}


def col_ts(ctx, c):
    if c == "st.x":
        return "st#%d.x" % ctx.ids["st"]
    return "%s#%d%s" % (c, ctx.ids[c], "L" if TYPE[c] == "long" else "")


def col_sql(ctx, c):
    parts = c.split(".")
    if ctx.sql_style == "bq":
        return ".".join("`%s`" % p for p in parts)
    prefix = "spark_catalog.default.t." if ctx.sql_style == "qual" else ""
    if len(parts) == 2:
        return prefix + parts[0] + ".`" + parts[1] + "`"
    return prefix + c


def col_df(ctx, c):
    if c == "st.x":
        return "get_field(st, 'x')"
    return '"Cat"' if c == "Cat" else c


def term_r(ctx, t, fmt):
    k = t[0]
    if k == "col":
        return {"ts": col_ts, "sql": col_sql, "df": col_df}[fmt](ctx, t[1])
    inner = term_r(ctx, t[1], fmt)
    if k == "cast":
        if fmt == "ts":
            return "cast(%s as %s)" % (inner, TS_TYPE[t[2]])
        if fmt == "sql":
            return "CAST(%s AS %s)" % (inner, SQL_TYPE[t[2]])
        return "CAST(%s AS %s)" % (inner, DF_TYPE[t[2]])
    if k in ("mod", "plus"):
        sym = "%" if k == "mod" else "+"
        typ = term_type(t[1])
        if fmt == "ts":
            kv = str(t[2]) if typ != "long" or ctx.rnd.random() < 0.5 else \
                "cast(%d as bigint)" % t[2]
            return "(%s %s %s)" % (inner, sym, kv)
        if fmt == "sql":
            kv = str(t[2]) + ("L" if typ == "long" else "")
            return "(%s %s %s)" % (inner, sym, kv)
        return "%s %s %d" % (inner, sym, t[2])
    if k == "abs":
        return "abs(%s)" % inner
    if k == "length":
        return ("character_length(%s)" if fmt == "df" else "length(%s)") % inner
    raise ValueError(k)


def lit_r(ctx, lit, fmt):
    return {"ts": lit_ts, "sql": lit_sql, "df": lit_df}[fmt](ctx, lit)


# precedence of the delta-rs printer: OR 1, AND 2, NOT 3, predicates 4, + 5, % 6
def prec(n):
    return {"or": 1, "and": 2, "not": 3}.get(n[0], 4)


def render(ctx, n, fmt, parent=0):
    k = n[0]
    R = lambda x, p=0: render(ctx, x, fmt, p)
    if k in ("and", "or"):
        op = k.upper()
        if fmt == "df":
            s = "%s %s %s" % (R(n[1], prec(n)), op, R(n[2], prec(n) + 1))
            return "(" + s + ")" if parent > prec(n) else s
        return "(%s %s %s)" % (R(n[1]), op, R(n[2]))
    if k == "not":
        if fmt == "ts":
            return "NOT " + R(n[1])
        if fmt == "sql":
            return "(NOT %s)" % R(n[1])
        s = "NOT " + R(n[1], 4)
        return "(" + s + ")" if parent > 3 else s
    if k == "const":
        return "true" if n[1] else "false"
    if k == "boolcol":
        return term_r(ctx, ("col", n[1]), fmt)
    if k == "cmp" or k == "colcmp":
        t = term_r(ctx, n[1], fmt)
        r = lit_r(ctx, n[3], fmt) if k == "cmp" else term_r(ctx, n[3], fmt)
        op = n[2]
        if fmt == "df":
            s = "%s %s %s" % (t, "IS NOT DISTINCT FROM" if op == "<=>" else op, r)
            return "(" + s + ")" if parent > 4 else s
        if op == "!=":
            inner = "(%s = %s)" % (t, r)
            return ("NOT " + inner) if fmt == "ts" else "(NOT %s)" % inner
        return "(%s %s %s)" % (t, op, r)
    if k == "in":
        t = term_r(ctx, n[1], fmt)
        items = [lit_r(ctx, x, fmt) for x in n[2]]
        if fmt == "ts":
            s = "%s IN (%s)" % (t, ",".join(items))
            return "NOT " + s if n[3] else s
        if fmt == "sql":
            s = "(%s IN (%s))" % (t, ", ".join(items))
            return "(NOT %s)" % s if n[3] else s
        s = "%s %sIN (%s)" % (t, "NOT " if n[3] else "", ", ".join(items))
        return "(" + s + ")" if parent > 4 else s
    if k == "between":
        if fmt == "df":
            s = "%s BETWEEN %s AND %s" % (term_r(ctx, n[1], fmt), lit_r(ctx, n[2], fmt),
                                          lit_r(ctx, n[3], fmt))
            return "(" + s + ")" if parent > 4 else s
        # Spark's parser makes BETWEEN two comparisons
        return R(("and", ("cmp", n[1], ">=", n[2]), ("cmp", n[1], "<=", n[3])), parent)
    if k == "isnull":
        t = term_r(ctx, n[1], fmt)
        if fmt == "ts":
            return ("isnotnull(%s)" if n[2] else "isnull(%s)") % t
        s = "%s IS %sNULL" % (t, "NOT " if n[2] else "")
        if fmt == "sql":
            return "(" + s + ")"
        return "(" + s + ")" if parent > 4 else s
    if k == "like":
        t = term_r(ctx, n[1], fmt)
        pat = n[2]
        if fmt == "ts":
            return "%s LIKE %s" % (t, pat)
        if fmt == "sql":
            return "%s LIKE %s" % (t, sql_string(pat))
        if "\\" in pat:
            raise NotRendered()
        s = "%s LIKE '%s'" % (t, pat.replace("'", "''"))
        return "(" + s + ")" if parent > 4 else s
    if k == "strfn":
        t = term_r(ctx, n[2], fmt)
        if fmt == "df":
            if n[1] != "startswith":
                raise NotRendered()
            return "starts_with(%s, '%s')" % (t, n[3].replace("'", "''"))
        v = n[3] if fmt == "ts" else sql_string(n[3])
        return "%s(%s, %s)" % (n[1], t, v)
    raise ValueError(k)


def render_top(ctx, n, fmt):
    # Delta >= 2.4 (toString) and DELETE before it (.sql) record a JSON
    # array of the top-level conjuncts
    if fmt != "df" and n[0] == "and" and ctx.rnd.random() < 0.5:
        conj = []

        def split(x):
            if x[0] == "and":
                split(x[1])
                split(x[2])
            else:
                conj.append(x)
        split(n)
        return json.dumps([render(ctx, c, fmt) for c in conj])
    return render(ctx, n, fmt)


def uses_ntz(n):
    return "timestamp_ntz" in repr(n) or "'tn'" in repr(n)


def plain(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if is_nan(v):
            return "NaN"
        if v in (INF, -INF):
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    if isinstance(v, Decimal):
        return str(v)
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


def main():
    rnd = random.Random(SEED)
    rows = gen_rows(rnd)
    out_rows = []
    for r in rows:
        o = {}
        for k, v in r.items():
            if k in ("ts", "tn") and v is not None:
                o[k] = ts_text(v, None, " ", True) + ("+00" if k == "ts" else "")
            else:
                o[k] = plain(v)
        out_rows.append(o)
    cases = []
    for pid in range(1, N_PREDICATES + 1):
        pred = gen_pred(rnd)
        selected = [r["rid"] for r in rows if ev(pred, r) is True]
        ctx = Ctx(rnd)
        if ctx.old_spark and uses_ntz(pred):
            ctx.old_spark = False
        for fmt, engine in (("ts", "Apache-Spark/3.5.0 Delta-Lake/3.2.0"),
                            ("sql", "Apache-Spark/3.1.2 Delta-Lake/1.0.0"),
                            ("df", "delta-rs:py-1.1.0")):
            try:
                text = render_top(ctx, pred, fmt)
            except NotRendered:
                continue
            cases.append({"pid": pid, "fmt": fmt, "engine": engine, "zone": ctx.zone,
                          "text": text, "expect": selected})
    data = {"seed": SEED, "schema": schema_string(), "rows": out_rows, "cases": cases}
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(data, f, indent=0, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
