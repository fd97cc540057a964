/**
 * Query parameters as the `CYPHER name=value ...` prefix FalkorDB reads: the same text the falkordb
 * package writes (strings double-quoted with `"` and `\` escaped, maps as `{key:value}`, lists as
 * `[a,b]`), built without its per-value regular expression, entry arrays and joins. An index run
 * encodes every node and edge it writes this way (tens of MB for 10,000 files), on the thread that
 * also resolves.
 */

/**
 * A value written as its JSON text, which is its Cypher text too when it holds only numbers,
 * booleans, null, lists of them and strings without `"`, `\` or control characters: the caller
 * vouches for that. An index run's edge rows by internal id are such (ids and numbers, `"value"`,
 * true), when they go as Cypher (a user the server does not let run GRAPH.BULK: index/writer.ts),
 * and JSON.stringify writes a batch of them two to three times faster than `cypherValue` (44,000
 * rows: 3 to 4 ms against 7 to 11 ms).
 */
export class CypherJson {
  constructor(readonly value: unknown) {}
}

/** `name=value` pairs, space-separated; throws on a value Cypher cannot carry (undefined, ...). */
export function cypherParams(params: Record<string, unknown>): string {
  let out = "";
  for (const key of Object.keys(params)) {
    if (out) out += " ";
    out += key + "=" + cypherValue(params[key]);
  }
  return out;
}

function cypherValue(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return value.indexOf('"') < 0 && value.indexOf("\\") < 0
        ? '"' + value + '"'
        : '"' + value.replace(/["\\]/g, "\\$&") + '"';
    case "number":
    case "boolean":
      return String(value);
    case "object": {
      if (value instanceof CypherJson) return JSON.stringify(value.value);
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i ? "," : "") + cypherValue(value[i]);
        return out + "]";
      }
      let out = "{";
      let first = true;
      for (const key of Object.keys(value)) {
        out += (first ? "" : ",") + key + ":" +
          cypherValue((value as Record<string, unknown>)[key]);
        first = false;
      }
      return out + "}";
    }
  }
  throw new TypeError(`Unexpected param type ${typeof value} ${String(value)}`);
}
