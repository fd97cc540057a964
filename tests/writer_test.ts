/**
 * GraphWriter (src/index/writer.ts) against a real FalkorDB: created nodes' internal ids come back
 * in the order the nodes were given (definitions of several kinds interleaved, batches pipelined),
 * and edges joined by those ids (GRAPH.BULK) end at the nodes they name with the properties Cypher
 * would give them, with the edges whose ends it does not know joined by their indexed ids instead;
 * nodes created in order through GRAPH.BULK get the ids they were numbered and the labels and
 * properties Cypher gives them, and a graph another writer added a node to first is refused; a user
 * the server does not let run GRAPH.BULK gets the same nodes and edges through Cypher.
 */
import assert from "node:assert/strict";
import { Db } from "../src/db/client.ts";
import type { Edge, FileNode, SymbolNode } from "../src/graph/model.ts";
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

    assert.deepEqual(await edgesThrough(writer, files, ids), EXPECTED);
  } finally {
    await db.deleteGraph(graph);
  }
});

Deno.test("nodes created in order through GRAPH.BULK are numbered as created, as Cypher makes them", async () => {
  const db = await testDb();
  const bulk = `test-writer-${crypto.randomUUID().slice(0, 8)}`;
  const cypher = `test-writer-${crypto.randomUUID().slice(0, 8)}`;
  const writer = new GraphWriter(db, bulk);
  const symbols = Array.from({ length: 3000 }, (_, i) =>
    ({
      ...symbol(i),
      signature: i % 2 ? `def n${i}(a, b)` : undefined,
      doc: i === 7 ? 'naïve ∑ 😀 "quoted" line\nnext' : undefined,
    }) as SymbolNode);
  try {
    await writer.createIndexes();
    // Two batches, each files then definitions of several kinds interleaved.
    const first = await writer.nodesInOrder([file("a.py")], symbols.slice(0, 1000));
    const second = await writer.nodesInOrder([file("b.py"), file("c.py")], symbols.slice(1000));
    await writer.checkNodeIds();
    const files = [...first.files, ...second.files];
    const ids = [...first.symbols, ...second.symbols];
    assert.equal(new Set([...ids, ...files]).size, 3003, "ids are distinct");
    const byId = new Map(
      (await db.query(bulk, "MATCH (n) RETURN id(n) AS n, n.id AS id")).map((r) => [r.n, r.id]),
    );
    assert.deepEqual(files.map((n) => byId.get(n)), ["f:a.py", "f:b.py", "f:c.py"]);
    assert.deepEqual(ids.map((n) => byId.get(n)), symbols.map((s) => s.id));

    // The same nodes through Cypher: the same labels and properties.
    const other = new GraphWriter(db, cypher);
    await other.createIndexes();
    await other.files([file("a.py"), file("b.py"), file("c.py")]);
    await other.symbols(symbols);
    const dump = async (graph: string) =>
      (await db.query(graph, "MATCH (n) RETURN labels(n) AS l, properties(n) AS p"))
        .map((r) => JSON.stringify([r.l, Object.entries(r.p as object).sort()])).sort();
    assert.deepEqual(await dump(bulk), await dump(cypher));
    // The full-text index took them in.
    const [hit] = await db.query(
      bulk,
      "CALL db.idx.fulltext.queryNodes('Symbol', 'n2999') YIELD node RETURN node.id AS id",
    );
    assert.equal(hit?.id, "s2999");
    assert.deepEqual(await edgesThrough(writer, files, ids), EXPECTED);
  } finally {
    await db.deleteGraph(bulk);
    await db.deleteGraph(cypher);
  }
});

Deno.test("nodes numbered in order are refused when the graph had a node of another writer", async () => {
  const db = await testDb();
  const graph = `test-writer-${crypto.randomUUID().slice(0, 8)}`;
  const writer = new GraphWriter(db, graph);
  try {
    await db.query(graph, "CREATE (:File {id: 'f:other.py'})");
    const { symbols } = await writer.nodesInOrder([file("a.py")], [symbol(0), symbol(1)]);
    assert.deepEqual(symbols, [1, 2], "numbered as if the graph were empty");
    await assert.rejects(writer.checkNodeIds(), /not numbered as they were created/);
  } finally {
    await db.deleteGraph(graph);
  }
});

/**
 * s0 -> s1, a.py -> s2, s5 -> s0 (through a value), b.py -> a.py (types only) by internal id;
 * s3 -> s4 by indexed id (unknown to nodeId).
 */
const EDGES: Edge[] = [
  { type: "CALLS", from: "s0", to: "s1", line: 7, confidence: 0.9 },
  { type: "DEFINES", from: "f:a.py", to: "s2", fromFile: true },
  { type: "CALLS", from: "s5", to: "s0", line: 9, count: 2, via: "value" },
  { type: "IMPORTS", from: "f:b.py", to: "f:a.py", fromFile: true, toFile: true, typeOnly: true },
  { type: "CALLS", from: "s3", to: "s4", line: 8 },
];

const EXPECTED = [
  { t: "CALLS", a: "s0", b: "s1", line: 7, n: 1, c: 0.9, via: null, only: null },
  { t: "CALLS", a: "s3", b: "s4", line: 8, n: 1, c: 1, via: null, only: null },
  { t: "CALLS", a: "s5", b: "s0", line: 9, n: 2, c: 1, via: "value", only: null },
  { t: "DEFINES", a: "f:a.py", b: "s2", line: null, n: null, c: null, via: null, only: null },
  { t: "IMPORTS", a: "f:b.py", b: "f:a.py", line: 0, n: null, c: null, via: null, only: true },
];

/**
 * EDGES written through `writer` (the nodes' internal ids: files a.py and b.py, then definitions
 * s0...), read back with their properties and their types.
 */
async function edgesThrough(writer: GraphWriter, files: number[], ids: number[]) {
  const known = new Map<string, number>([
    ["f:a.py", files[0]],
    ["f:b.py", files[1]],
    ...[0, 1, 2, 5].map((i) => [`s${i}`, ids[i]] as [string, number]),
  ]);
  await writer.edgesById(EDGES, (id) => known.get(id));
  const db = await testDb();
  const rows = await db.query(
    writer.graph,
    `MATCH (a)-[e]->(b) RETURN type(e) AS t, a.id AS a, b.id AS b, e.line AS line,
     e.count AS n, e.confidence AS c, e.via AS via, e.type_only AS only,
     [x IN [e.line, e.count, e.confidence] | typeOf(x)] AS types ORDER BY t, a`,
  );
  // An integer stays an integer and 0.9 a float, as a Cypher literal would make them.
  for (const r of rows) {
    const types = r.types as string[];
    if (r.t === "CALLS") {
      assert.deepEqual(types, ["Integer", "Integer", r.c === 1 ? "Integer" : "Float"]);
    }
    delete r.types;
  }
  return rows;
}

Deno.test("a user the server does not let run GRAPH.BULK gets the same nodes and edges through Cypher", async () => {
  const admin = await testDb();
  const user = `nobulk${crypto.randomUUID().slice(0, 6)}`;
  await admin.command(["ACL", "SETUSER", user, "on", ">pw", "~*", "&*", "+@all", "-graph.bulk"]);
  const db = await Db.connect({ ...admin.endpoint, username: user, password: "pw" });
  const graph = `test-writer-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await assert.rejects(
      db.command(["GRAPH.BULK", graph, "0", "0", "0", "0"]),
      /NOPERM|permission/i,
    );
    const writer = new GraphWriter(db, graph);
    await writer.createIndexes();
    const { files, symbols: ids } = await writer.nodesInOrder(
      [file("a.py"), file("b.py")],
      Array.from({ length: 6 }, (_, i) => symbol(i)),
    );
    await writer.checkNodeIds();
    const [row] = await db.query(graph, "MATCH (s) WHERE id(s) = $n RETURN s.id AS id", {
      n: ids[5],
    });
    assert.equal(row.id, "s5");
    assert.deepEqual(await edgesThrough(writer, files, ids), EXPECTED);
  } finally {
    await db.deleteGraph(graph);
    await db.close();
    await admin.command(["ACL", "DELUSER", user]);
  }
});
