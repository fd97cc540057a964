/** Reading whole test graphs back from FalkorDB: contract views and canonical dumps. */
import type { Db } from "../../src/db/client.ts";
import { indexProject, type IndexSummary } from "../../src/index/indexer.ts";
// Index runs here sync decisions as the server's do (the post-index steps features register).
import "../../src/tools/steps.ts";
import { resolveProject } from "../../src/project/identity.ts";
import { deleteGraphs } from "../../src/project/catalog.ts";
import type { GraphView } from "./contract.ts";

const RO = { readOnly: true };

/** The contract view of a graph in the database. */
export async function viewOfGraph(db: Db, graph: string): Promise<GraphView> {
  const files = Number((await db.query(graph, "MATCH (f:File) RETURN count(f) AS n", {}, RO))[0].n);
  const defs = (await db.query(
    graph,
    "MATCH (s:Symbol) RETURN s.qualified_name AS q, s.kind AS kind, s.path AS path, s.line AS line",
    {},
    RO,
  )).map((r) => ({
    qualified: String(r.q),
    kind: String(r.kind),
    path: String(r.path),
    line: Number(r.line),
  }));
  const kinds: Record<string, number> = {};
  for (const d of defs) kinds[d.kind] = (kinds[d.kind] ?? 0) + 1;
  const edges = (await db.query(
    graph,
    `MATCH (a)-[e]->(b) WHERE type(e) <> 'DEFINES'
     RETURN type(e) AS type, coalesce(a.qualified_name, a.path) AS src, coalesce(b.qualified_name, b.path) AS dst`,
    {},
    RO,
  )).map((r) => ({ type: String(r.type), from: String(r.src), to: String(r.dst) }));
  const edgeCounts: Record<string, number> = {};
  for (const e of edges) edgeCounts[e.type] = (edgeCounts[e.type] ?? 0) + 1;
  return { files, kinds, edgeCounts, defs, edges };
}

/** Every node and edge with all properties, sorted: two equal dumps are the same graph. */
export async function dumpGraph(db: Db, graph: string): Promise<string[]> {
  const nodes = await db.query(
    graph,
    "MATCH (n) RETURN labels(n) AS l, properties(n) AS p",
    {},
    RO,
  );
  const edges = await db.query(
    graph,
    "MATCH (a)-[e]->(b) RETURN type(e) AS t, a.id AS a, b.id AS b, properties(e) AS p",
    {},
    RO,
  );
  const canon = (v: unknown) =>
    JSON.stringify(
      v,
      (_k, x) =>
        x && typeof x === "object" && !Array.isArray(x)
          ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
          : x,
    );
  return [
    ...nodes.map((r) => `N ${canon([...(r.l as string[])].sort())} ${canon(r.p)}`),
    ...edges.map((r) => `E ${r.t} ${r.a} ${r.b} ${canon(r.p)}`),
  ].sort();
}

/** Indexes `path` under a throwaway project name; returns the summary and the graph name. */
export async function indexAs(
  db: Db,
  path: string,
  project: string,
  opts: { full?: boolean; branch?: string; resident?: boolean } = {},
): Promise<IndexSummary> {
  const ref = await resolveProject(path, { project, branch: opts.branch ?? "test" });
  return await indexProject(db, ref, { full: opts.full, resident: opts.resident });
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function dropProject(db: Db, project: string): Promise<void> {
  await deleteGraphs(db, project);
}
