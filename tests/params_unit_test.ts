/**
 * cypherParams (src/db/params.ts) writes exactly the `CYPHER ...` prefix the falkordb package
 * writes for the same parameters, faster; no database needed.
 */
import assert from "node:assert/strict";
import { CypherJson, cypherParams } from "../src/db/params.ts";
import { pushQueryArguments } from "falkordb/dist/src/commands/index.js";

/** The package's own text for these parameters. */
function theirs(params: Record<string, unknown>): string {
  const args = (pushQueryArguments as (...a: unknown[]) => string[])(
    [],
    "g",
    "RETURN 1",
    { params },
    false,
  );
  return args[1].slice("CYPHER ".length, -" RETURN 1".length);
}

Deno.test("parameters are written as the falkordb package writes them", () => {
  const cases: Record<string, unknown>[] = [
    { rows: [] },
    { n: 3, f: 1.5, neg: -2, big: 1e21, t: true, f2: false, nul: null },
    { s: "plain", q: 'say "hi"', b: "back\\slash", both: 'a\\"b', nl: "line\nnext", uni: "é∑😀" },
    {
      rows: [
        { id: "src/a.ts#f", line: 3, via: null, type_only: true, params: ["x", "y"] },
        { id: 'q"uote', line: 0, nested: { deep: [1, [2, { k: "v" }]] } },
      ],
    },
    { empty: {}, list: [[], [null], ["a", 1, false]] },
  ];
  for (const c of cases) assert.equal(cypherParams(c), theirs(c), JSON.stringify(c));
});

Deno.test("a value Cypher cannot carry is refused, as by the package", () => {
  for (const bad of [{ x: undefined }, { rows: [{ f: () => 1 }] }]) {
    assert.throws(() => theirs(bad), TypeError);
    assert.throws(() => cypherParams(bad), TypeError);
  }
});

Deno.test("rows vouched for as JSON are written as the general encoder writes them", () => {
  // An index run's edge rows by internal id, as Cypher (without GRAPH.BULK): numbers, "value",
  // true and null.
  const rows = [[12, 40, 3, 2, 0.9, "value"], [7, 7, 1, 1, 1, null], [1, 2], [5, 9, 4, true], []];
  assert.equal(cypherParams({ rows: new CypherJson(rows) }), cypherParams({ rows }));
  assert.equal(cypherParams({ rows: new CypherJson(rows) }), theirs({ rows }));
});
