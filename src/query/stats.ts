/** Size and provenance of one graph: counts by kind, edge type and language, and its metadata. */
import * as C from "../db/cypher.ts";
import * as Q from "../db/queries.ts";
import type { GraphInfo } from "../project/catalog.ts";
import { displayName } from "../project/names.ts";
import type { GraphReader } from "./graph.ts";

export interface StatsResult {
  type: "stats";
  project: string;
  branch: string;
  graph: string;
  root?: string;
  commit?: string;
  indexed_at?: string;
  version?: string;
  files: number;
  symbols: number;
  edges: number;
  symbols_by_kind: Record<string, number>;
  edges_by_type: Record<string, number>;
  files_by_language: Record<string, number>;
}

function sorted(rows: [string, number][]): Record<string, number> {
  return Object.fromEntries(rows.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

export async function stats(g: GraphReader, info: GraphInfo): Promise<StatsResult> {
  const files = Number((await g.rows(C.COUNT_FILES))[0]?.n ?? 0);
  const kinds = sorted(
    (await g.rows(C.COUNT_SYMBOLS_BY_KIND)).map((r) => [String(r.kind), Number(r.n)]),
  );
  const edgeCounts: [string, number][] = [];
  for (const r of await g.rows(Q.RELATIONSHIP_TYPES)) {
    const type = String(r.type);
    const n = Number((await g.rows(Q.countEdgesOfType(type)))[0]?.n ?? 0);
    if (n > 0) edgeCounts.push([type, n]);
  }
  const edges = sorted(edgeCounts);
  const langs = sorted(
    (await g.rows(Q.FILES_BY_LANGUAGE)).map((r) => [String(r.language), Number(r.n)]),
  );
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const out: StatsResult = {
    type: "stats",
    project: displayName(info.project),
    branch: displayName(info.branch),
    graph: info.graph,
    files,
    symbols: sum(kinds),
    edges: sum(edges),
    symbols_by_kind: kinds,
    edges_by_type: edges,
    files_by_language: langs,
  };
  if (info.root) out.root = info.root;
  if (info.commit) out.commit = info.commit;
  if (info.indexed_at) out.indexed_at = info.indexed_at;
  if (info.version) out.version = info.version;
  return out;
}
