// canon.mjs: turn values read by DuckDB (node-api) into the canonical JSON
// that test/format/pq_render.h compares against (see pq_expect_* there).
//   null, booleans, numbers (bigints as exact integers; NaN/Infinity as strings),
//   strings, blobs "hex:..", decimals "dec:<exact text>", dates {"date":days},
//   timestamps {"us":n} / {"ms":n} / {"ns":n}, structs as objects (schema order),
//   lists as arrays, maps {"map":[[k,v],...]}.
export function canon(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return { $raw: v.toString() };
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    if (Object.is(v, -0)) return { $raw: '-0.0' };
    return v;
  }
  if (typeof v === 'string') return v;
  const c = v.constructor && v.constructor.name;
  switch (c) {
    case 'DuckDBDecimalValue': return 'dec:' + v.toString();
    case 'DuckDBDateValue': return { date: v.days };
    case 'DuckDBTimestampValue':
    case 'DuckDBTimestampTZValue': return { us: { $raw: v.micros.toString() } };
    case 'DuckDBTimestampMillisecondsValue': return { ms: { $raw: v.millis.toString() } };
    case 'DuckDBTimestampNanosecondsValue': return { ns: { $raw: v.nanos.toString() } };
    case 'DuckDBTimestampSecondsValue': return { ms: { $raw: (v.seconds * 1000n).toString() } };
    case 'DuckDBBlobValue': return 'hex:' + Buffer.from(v.bytes).toString('hex');
    case 'DuckDBListValue':
    case 'DuckDBArrayValue': return v.items.map(canon);
    case 'DuckDBStructValue': {
      const o = {};
      for (const [k, x] of Object.entries(v.entries)) o[k] = canon(x);
      return o;
    }
    case 'DuckDBMapValue': return { map: v.entries.map(e => [canon(e.key), canon(e.value)]) };
    case 'DuckDBUUIDValue': return 'uuid:' + v.toString();
    case 'DuckDBTimeValue': return { time_us: { $raw: v.micros.toString() } };
    case 'DuckDBHugeIntValue':
    case 'DuckDBUHugeIntValue': return { $raw: v.toString() };
    default: throw new Error('unhandled DuckDB value ' + c + ': ' + String(v));
  }
}

// JSON text with $raw numbers spliced in verbatim.
export function toJson(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return '[' + x.map(toJson).join(',') + ']';
  if (typeof x === 'object') {
    if ('$raw' in x && Object.keys(x).length === 1) return x.$raw;
    return '{' + Object.entries(x).map(([k, y]) => JSON.stringify(k) + ':' + toJson(y)).join(',') + '}';
  }
  return JSON.stringify(x);
}

// Rows of a Parquet file, as canonical JSON lines (file order).
export async function dumpRows(conn, path) {
  const r = await conn.runAndReadAll(
    `SELECT * FROM read_parquet('${path.replace(/'/g, "''")}', binary_as_string = false, file_row_number = false, hive_partitioning = false)`);
  const names = r.columnNames();
  return r.getRows().map(row => {
    const o = {};
    names.forEach((n, i) => { o[n] = canon(row[i]); });
    return toJson(o);
  });
}
