/**
 * The module dependency map: files (or their directories) joined by IMPORTS, with strongly
 * connected components (import cycles) numbered so the page can highlight them. The edges are
 * read with the same query detect_circular reads (IMPORT_EDGES), and the components come from its
 * Tarjan (stronglyConnected), so a cycle on the map is a cycle in `cgraph cycles --relation
 * IMPORTS`.
 */
import * as Q from "../db/queries.ts";
import { stronglyConnected } from "../query/cycles.ts";
import type { GraphReader, NodeRef } from "../query/graph.ts";
import { roleOf } from "../query/role.ts";
import type { ViewEdge, ViewGraph, ViewNode } from "./graph_data.ts";
import { viewNode } from "./graph_data.ts";

/** Import edges read at most (the same bound detect_circular uses). */
const EDGE_CAP = 200_000;
/** Above this many files the map is drawn by directory unless files are asked for. */
export const FILE_LEVEL_MAX = 2000;

export type ModuleLevel = "file" | "dir" | "auto";

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "." : path.slice(0, i);
}

/** File nodes by id (the ends of IMPORTS are files: no symbol lookup first, as byIds does). */
async function filesByIds(g: GraphReader, ids: string[]): Promise<Map<string, NodeRef>> {
  const out = new Map<string, NodeRef>();
  for (let i = 0; i < ids.length; i += 2000) {
    for (const n of await g.nodes(Q.FILES_BY_IDS, { ids: ids.slice(i, i + 2000) })) {
      out.set(n.id, n);
    }
  }
  return out;
}

/** Component number per node id, for components of two or more nodes. */
function components(adj: Map<string, Set<string>>): Map<string, number> {
  const out = new Map<string, number>();
  stronglyConnected(adj).filter((c) => c.length > 1).forEach((c, i) => {
    for (const id of c) out.set(id, i);
  });
  return out;
}

export async function moduleMap(
  g: GraphReader,
  opts: { level: ModuleLevel; cyclesOnly?: boolean },
): Promise<ViewGraph> {
  const rows = await g.rows(Q.IMPORT_EDGES, { cap: EDGE_CAP + 1 });
  const notes: string[] = [];
  if (rows.length > EDGE_CAP) {
    rows.length = EDGE_CAP;
    notes.push(`first ${EDGE_CAP} imports only`);
  }
  const ids = new Set<string>();
  const pairs: [string, string][] = [];
  for (const r of rows) {
    const a = String(r.a);
    const b = String(r.b);
    if (a === b) continue;
    ids.add(a);
    ids.add(b);
    pairs.push([a, b]);
  }
  const files = await filesByIds(g, [...ids]);
  const level = opts.level === "auto" ? (files.size > FILE_LEVEL_MAX ? "dir" : "file") : opts.level;

  // File-level components, whatever the level drawn: a directory is in a cycle when its files are.
  const fileAdj = new Map<string, Set<string>>();
  for (const [a, b] of pairs) {
    if (!fileAdj.has(a)) fileAdj.set(a, new Set());
    if (!fileAdj.has(b)) fileAdj.set(b, new Set());
    fileAdj.get(a)!.add(b);
  }
  const fileScc = components(fileAdj);
  const inCycles = fileScc.size;

  const nodes = new Map<string, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  if (level === "file") {
    for (const [id, n] of files) {
      const scc = fileScc.get(id);
      if (opts.cyclesOnly && scc === undefined) continue;
      nodes.set(id, viewNode(n, scc === undefined ? {} : { scc }));
    }
    for (const [a, b] of pairs) {
      if (!nodes.has(a) || !nodes.has(b)) continue;
      const id = `${a}>${b}`;
      const cycle = fileScc.get(a) !== undefined && fileScc.get(a) === fileScc.get(b);
      const e = edges.get(id);
      if (e) e.count = (e.count ?? 1) + 1;
      else edges.set(id, { id, source: a, target: b, rel: "IMPORTS", ...(cycle ? { cycle } : {}) });
    }
  } else {
    const dirId = (fileIdOf: string) => `dir:${dirOf(files.get(fileIdOf)?.path ?? "")}`;
    const counts = new Map<string, number>();
    const langs = new Map<string, Map<string, number>>();
    for (const [id, n] of files) {
      const d = dirId(id);
      counts.set(d, (counts.get(d) ?? 0) + 1);
      const lang = viewNode(n).language;
      const m = langs.get(d) ?? new Map<string, number>();
      m.set(lang, (m.get(lang) ?? 0) + 1);
      langs.set(d, m);
    }
    const dirAdj = new Map<string, Set<string>>();
    for (const [a, b] of pairs) {
      const [da, db] = [dirId(a), dirId(b)];
      if (da === db) continue;
      if (!dirAdj.has(da)) dirAdj.set(da, new Set());
      if (!dirAdj.has(db)) dirAdj.set(db, new Set());
      dirAdj.get(da)!.add(db);
    }
    const dirScc = components(dirAdj);
    for (const [d, n] of counts) {
      const scc = dirScc.get(d);
      if (opts.cyclesOnly && scc === undefined) continue;
      const path = d.slice(4);
      const language = [...langs.get(d)!].sort((x, y) => y[1] - x[1])[0][0];
      nodes.set(d, {
        id: d,
        label: `${path.slice(path.lastIndexOf("/") + 1) || path} (${n})`,
        qualified_name: path,
        kind: "Directory",
        path,
        line: 0,
        language,
        role: roleOf(`${path}/x`),
        files: n,
        ...(scc === undefined ? {} : { scc }),
      });
    }
    for (const [a, b] of pairs) {
      const [da, db] = [dirId(a), dirId(b)];
      if (da === db || !nodes.has(da) || !nodes.has(db)) continue;
      const id = `${da}>${db}`;
      const e = edges.get(id);
      if (e) e.count = (e.count ?? 1) + 1;
      else {
        const cycle = dirScc.get(da) !== undefined && dirScc.get(da) === dirScc.get(db);
        edges.set(id, { id, source: da, target: db, rel: "IMPORTS", count: 1, cycle });
      }
    }
  }
  const sccs = new Set([...nodes.values()].map((n) => n.scc).filter((s) => s !== undefined));
  notes.unshift(
    `${files.size} files with imports, ${pairs.length} imports; ${inCycles} files in import ` +
      `cycles; drawn by ${level === "file" ? "file" : "directory"}: ${nodes.size} nodes, ` +
      `${sccs.size} cycle groups`,
  );
  return { mode: "modules", nodes: [...nodes.values()], edges: [...edges.values()], notes };
}
