/**
 * The GRAPH.BULK relation and node blobs (src/db/bulk.ts), read back by a decoder written from the
 * format (FalkorDB's bulk_insert.c): the type or labels and property names, each row's node ids
 * (an edge's two, a node none) and typed values,
 * integers kept integers (negative and beyond 32 bits), other numbers doubles, text as UTF-8 with
 * a NUL inside it replaced, and what the endpoint cannot carry refused before anything is sent.
 */
import assert from "node:assert/strict";
import { bulkEdgesCommand, bulkNodesCommand, edgeBlob, nodeBlob } from "../src/db/bulk.ts";

/** The blob as FalkorDB reads it: `ids` node ids per row (2 for edges, 0 for nodes). */
function decode(blob: Uint8Array, ids = 2): { type: string; props: string[]; rows: unknown[][] } {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const dec = new TextDecoder();
  let at = 0;
  const cstring = () => {
    const end = blob.indexOf(0, at);
    assert.ok(end >= 0, "a string ends with NUL");
    const s = dec.decode(blob.subarray(at, end));
    at = end + 1;
    return s;
  };
  const i64 = () => {
    const v = view.getBigInt64(at, true);
    at += 8;
    return Number(v);
  };
  const type = cstring();
  const count = view.getUint32(at, true);
  at += 4;
  const props = Array.from({ length: count }, cstring);
  const rows: unknown[][] = [];
  while (at < blob.length) {
    const row: unknown[] = Array.from({ length: ids }, i64);
    for (let i = 0; i < count; i++) {
      const t = blob[at++];
      if (t === 0) row.push(null);
      else if (t === 1) row.push(blob[at++] === 1);
      else if (t === 2) {
        row.push({ double: view.getFloat64(at, true) });
        at += 8;
      } else if (t === 3) row.push(cstring());
      else if (t === 4) row.push(i64());
      else assert.fail(`unknown type byte ${t}`);
    }
    rows.push(row);
  }
  return { type, props, rows };
}

Deno.test("an edge blob reads back as its type, properties and rows", () => {
  const rows = [
    [0, 1, 7, 1, 1, null],
    [2 ** 40 + 3, 5, -1, 2, 0.9, "value"],
    [3, 4, -(2 ** 33) - 5, 3, 1.5, "naïve ∑ 😀"],
  ];
  const blob = edgeBlob("CALLS", ["line", "count", "confidence", "via"], rows);
  assert.deepEqual(decode(blob), {
    type: "CALLS",
    props: ["line", "count", "confidence", "via"],
    rows: [
      [0, 1, 7, 1, 1, null],
      [2 ** 40 + 3, 5, -1, 2, { double: 0.9 }, "value"],
      [3, 4, -(2 ** 33) - 5, 3, { double: 1.5 }, "naïve ∑ 😀"],
    ],
  });
});

Deno.test("booleans, no properties, a NUL inside text, and a blob past its first buffer", () => {
  assert.deepEqual(decode(edgeBlob("IMPORTS", ["line", "type_only"], [[9, 8, 3, true]])).rows, [
    [9, 8, 3, true],
  ]);
  assert.deepEqual(decode(edgeBlob("DEFINES", [], [[1, 2], [3, 4]])), {
    type: "DEFINES",
    props: [],
    rows: [[1, 2], [3, 4]],
  });
  assert.deepEqual(decode(edgeBlob("T", ["s"], [[1, 2, "a\0b"]])).rows, [[1, 2, "a\uFFFDb"]]);
  // 20,000 rows and a long text: the buffer grows many times over.
  const many = Array.from({ length: 20_000 }, (_, i) => [i, i + 1, i, "x".repeat(i % 50)]);
  many.push([1, 1, 0, "∑".repeat(10_000)]);
  const back = decode(edgeBlob("CALLS", ["line", "via"], many));
  assert.equal(back.rows.length, many.length);
  assert.deepEqual(back.rows[12_345], many[12_345]);
  assert.deepEqual(back.rows.at(-1), many.at(-1));
});

Deno.test("a node blob reads back as its labels, properties and rows, with no ids", () => {
  const rows = [["s1", "run", 3, null], ["s2", "naïve", 2 ** 40, "a\0b"]];
  assert.deepEqual(decode(nodeBlob("Symbol:Method", ["id", "name", "line", "doc"], rows), 0), {
    type: "Symbol:Method",
    props: ["id", "name", "line", "doc"],
    rows: [["s1", "run", 3, null], ["s2", "naïve", 2 ** 40, "a\uFFFDb"]],
  });
  assert.throws(() => nodeBlob("File", ["id", "path"], [["f"]]), /1 values for 2 properties/);
  const a = nodeBlob("File", [], [[], []]);
  assert.deepEqual(bulkNodesCommand("g", [a], 2), ["GRAPH.BULK", "g", "2", "0", "1", "0", a]);
});

Deno.test("what GRAPH.BULK cannot carry is refused before anything is sent", () => {
  assert.throws(() => edgeBlob("CALLS", ["line"], [[1, 2]]), /0 values for 1 properties/);
  assert.throws(() => edgeBlob("CALLS", [], [[-1, 2]]), /not a node id: -1/);
  assert.throws(() => edgeBlob("CALLS", [], [[1.5, 2]]), /not a node id: 1.5/);
  assert.throws(() => edgeBlob("CALLS", [], [["7", 2]]), /not a node id: 7/);
  assert.throws(() => edgeBlob("CALLS", ["p"], [[1, 2, { a: 1 }]]), /cannot carry object/);
  assert.throws(() => edgeBlob("CALLS", ["p"], [[1, 2, undefined]]), /cannot carry undefined/);
});

Deno.test("the command appends: no BEGIN, no nodes, the edges and one token per blob", () => {
  const a = edgeBlob("CALLS", [], [[1, 2]]);
  const b = edgeBlob("DEFINES", [], [[3, 4], [5, 6]]);
  assert.deepEqual(bulkEdgesCommand("g", [a, b], 3), ["GRAPH.BULK", "g", "0", "3", "0", "2", a, b]);
});
