/**
 * The stored edge list (src/index/graph_info.ts): every property an edge has, and every one it
 * lacks, comes back as it was (an incremental run deletes and compares edges by them), lists
 * stored before the compact encoding still read, and the encoding is much smaller than the JSON; a
 * file's edge digest is that of its list, and names the other files its edges touch.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Edge } from "../src/graph/model.ts";
import { decodeEdgeList, edgeDigest, encodeEdgeList } from "../src/index/graph_info.ts";

const EDGES: Edge[] = [
  { type: "DEFINES", from: "file1", to: "def1", fromFile: true },
  { type: "CALLS", from: "def1", to: "def2", line: 12, count: 2, confidence: 0.9 },
  {
    type: "CALLS",
    from: "file1",
    to: "def2",
    fromFile: true,
    line: 3,
    confidence: 1,
    via: "value",
  },
  { type: "CALLS", from: "def1", to: "def3", line: 0 },
  { type: "INSTANTIATES", from: "def1", to: "def4", line: 7, count: 1, confidence: 0.7 },
  { type: "IMPORTS", from: "file1", to: "file2", fromFile: true, toFile: true, line: 1 },
  { type: "IMPORTS", from: "file1", to: "file3", fromFile: true, toFile: true, typeOnly: true },
  { type: "EXTENDS", from: "def4", to: "def5", line: 40 },
  { type: "IMPLEMENTS", from: "def4", to: "def6" },
];

Deno.test("an edge list round-trips every property, present or missing", () => {
  const decoded = decodeEdgeList(encodeEdgeList(EDGES));
  assert.deepEqual(decoded, EDGES);
  // Missing stays missing (not null, not 0): `line: 0` and no line are different edges.
  assert.equal("line" in decoded[0], false);
  assert.equal(decoded[3].line, 0);
  assert.equal("count" in decoded[3], false);
  assert.deepEqual(decodeEdgeList(encodeEdgeList([])), []);
});

Deno.test("a list stored as plain JSON before the encoding still reads", () => {
  assert.deepEqual(decodeEdgeList(JSON.stringify(EDGES)), EDGES);
});

Deno.test("the encoding names each id once and is a fraction of the JSON", () => {
  const ids = Array.from({ length: 12 }, (_, i) => `${i}`.padStart(24, "a"));
  const many: Edge[] = [];
  for (let i = 0; i < 60; i++) {
    many.push({
      type: "CALLS",
      from: ids[i % 3],
      to: ids[3 + (i % 9)],
      line: i,
      count: 1,
      confidence: 1,
    });
  }
  const encoded = encodeEdgeList(many);
  assert.equal(JSON.parse(encoded).ids.length, 12);
  assert.ok(encoded.length * 3 < JSON.stringify(many).length, `${encoded.length}`);
  assert.deepEqual(decodeEdgeList(encoded), many);
});

Deno.test("a file's edge digest: its list's, then the other files its edges touch", () => {
  const files: Record<string, string> = {
    file1: "a.ts",
    def1: "a.ts",
    def2: "b.ts",
    def3: "a.ts",
    def4: "c.ts",
    def5: "b.ts",
    file2: "d.ts",
  };
  const pathOf = (id: string) => files[id];
  const digest = edgeDigest("a.ts", EDGES, pathOf);
  const sha = createHash("sha1").update(encodeEdgeList(EDGES)).digest("hex");
  // Sorted, each once, the file itself and ids of no known file left out.
  assert.equal(digest, `${sha}\tb.ts\nc.ts\nd.ts`);
  assert.equal(edgeDigest("a.ts", EDGES, pathOf, encodeEdgeList(EDGES)), digest, "list passed in");
  // Any property of any edge changes it.
  for (
    const [i, change] of [[1, { count: 3 }], [2, { via: undefined }], [6, { typeOnly: false }], [
      8,
      { to: "def7" },
    ]] as const
  ) {
    const changed = EDGES.map((e, k) => k === i ? { ...e, ...change } : e);
    assert.notEqual(edgeDigest("a.ts", changed, pathOf).split("\t")[0], sha, `edge ${i}`);
  }
  assert.equal(
    edgeDigest("e.ts", [], pathOf),
    `${createHash("sha1").update(encodeEdgeList([])).digest("hex")}\t`,
  );
});
