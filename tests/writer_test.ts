/**
 * GraphWriter (src/index/writer.ts) against a real FalkorDB: created nodes' internal ids come back
 * in the order the nodes were given (definitions of several kinds interleaved, batches pipelined),
 * and edges joined by those ids end at the nodes they name, with the edges whose ends it does not
 * know joined by their indexed ids instead.
 */
import assert from "node:assert/strict";
import type { FileNode, SymbolNode } from "../src/graph/model.ts";
import { GraphWriter } from "../src/index/writer.ts";
import { testDb } from "./helpers/db.ts";

const KINDS = ["Function", "Class", "Method"] as const;

function symbol(i: number): SymbolNode {
  const kind = KINDS[i % KINDS.length];
  return {
    id: `s${i}`,
    name: `n${i}`,
    qualified_name: `m.n${i}`,
    kind,
    path: "a.py",
    line: i + 1,
    end_line: i + 1,
    language: "python",
    words: `n${i}`,
  } as SymbolNode;
}

const file = (path: string): FileNode =>
  ({ id: `f:${path}`, path, name: path, ext: ".py", language: "python", hash: "h" }) as FileNode;

Deno.test("created nodes' ids come back in order, and edges joined by them reach those nodes", async () => {
  const db = await testDb();
  const graph = `test-writer-${crypto.randomUUID().slice(0, 8)}`;
  const writer = new GraphWriter(db, graph);
  try {
    await writer.createIndexes();
    const files = await writer.files([file("a.py"), file("b.py")]);
    // More than one batch per kind (2,000 rows), the kinds interleaved.
    const symbols = Array.from({ length: 6500 }, (_, i) => symbol(i));
    const ids = await writer.symbols(symbols);
    assert.equal(ids.length, symbols.length);
    assert.equal(new Set([...ids, ...files]).size, ids.length + files.length, "ids are distinct");
    for (const i of [0, 1, 2, 1999, 2000, 4001, 6499]) {
      const [row] = await db.query(graph, "MATCH (s) WHERE id(s) = $n RETURN s.id AS id", {
        n: ids[i],
      });
      assert.equal(row.id, symbols[i].id, `node ${i}'s id`);
    }
    const [f] = await db.query(graph, "MATCH (f) WHERE id(f) = $n RETURN f.path AS p", {
      n: files[1],
    });
    assert.equal(f.p, "b.py");

    // s0 -> s1 and a.py -> s2 by internal id; s3 -> s4 by indexed id (unknown to nodeId).
    const known = new Map<string, number>([["f:a.py", files[0]], ["s0", ids[0]], ["s1", ids[1]], [
      "s2",
      ids[2],
    ]]);
    await writer.edgesById(
      [
        { type: "CALLS", from: "s0", to: "s1", line: 7, confidence: 0.9 },
        { type: "DEFINES", from: "f:a.py", to: "s2", fromFile: true },
        { type: "CALLS", from: "s3", to: "s4", line: 8 },
      ],
      (id) => known.get(id),
    );
    const edges = await db.query(
      graph,
      "MATCH (a)-[e]->(b) RETURN type(e) AS t, a.id AS a, b.id AS b, e.line AS line, e.confidence AS c ORDER BY a",
    );
    assert.deepEqual(edges, [
      { t: "DEFINES", a: "f:a.py", b: "s2", line: null, c: null },
      { t: "CALLS", a: "s0", b: "s1", line: 7, c: 0.9 },
      { t: "CALLS", a: "s3", b: "s4", line: 8, c: 1 },
    ]);
  } finally {
    await db.deleteGraph(graph);
  }
});
