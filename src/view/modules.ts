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
import { languageOf } from "../lang/registry.ts";
import { roleOf } from "../query/role.ts";
import { type FileGroup, groupFiles } from "./groups.ts";
import type { ViewEdge, ViewGraph, ViewNode } from "./graph_data.ts";
import { viewNode } from "./graph_data.ts";

/** Import edges read at most (the same bound detect_circular uses). */
const EDGE_CAP = 200_000;
/** Files read at most (every file is drawn, those without imports too). */
const FILE_CAP = 200_000;
/**
 * `auto`: by file up to this many files; past it, the files in at most this many groups (by
 * directory, a large flat directory by name prefix: groups.ts), imports summed between groups.
 */
export const AUTO_GROUPS = 300;

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
  opts: { level: ModuleLevel; cyclesOnly?: boolean; groups?: number },
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
  const files = new Map<string, NodeRef>();
  const all = await g.nodes(Q.ALL_FILES, { cap: FILE_CAP + 1 });
  if (all.length > FILE_CAP) {
    all.length = FILE_CAP;
    notes.push(`first ${FILE_CAP} files only (and those with imports)`);
  }
  for (const n of all) files.set(n.id, n);
  const missing = [...ids].filter((id) => !files.has(id));
  if (missing.length) { for (const [id, n] of await filesByIds(g, missing)) files.set(id, n); }
  const withImports = [...files.keys()].filter((id) => ids.has(id)).length;
  const max = opts.groups ?? AUTO_GROUPS;
  const level = opts.level === "auto" ? (files.size > max ? "group" : "file") : opts.level;

  // File-level components, whatever the level drawn: a group is in a cycle when its files are.
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
    // The group of each file: its directory, or (auto) one of at most `max` groups.
    // A group of one file is drawn as that file (its id: a click opens the file's panel).
    const groupOf = new Map<string, string>();
    const byPath = new Map<string, string>();
    for (const [id, n] of files) byPath.set(n.path, id);
    const groups: FileGroup[] = level === "group"
      ? groupFiles([...byPath.keys()], max)
      : dirGroups([...byPath.keys()]);
    const idOf = (grp: FileGroup) => grp.kind === "file" ? byPath.get(grp.path)! : grp.key;
    for (const grp of groups) for (const p of grp.files) groupOf.set(byPath.get(p)!, idOf(grp));
    const groupAdj = new Map<string, Set<string>>();
    for (const [a, b] of pairs) {
      const [ga, gb] = [groupOf.get(a)!, groupOf.get(b)!];
      if (ga === gb) continue;
      if (!groupAdj.has(ga)) groupAdj.set(ga, new Set());
      if (!groupAdj.has(gb)) groupAdj.set(gb, new Set());
      groupAdj.get(ga)!.add(gb);
    }
    const groupScc = components(groupAdj);
    for (const grp of groups) {
      const id = idOf(grp);
      const scc = groupScc.get(id);
      if (opts.cyclesOnly && scc === undefined) continue;
      if (grp.kind === "file") {
        nodes.set(id, viewNode(files.get(id)!, scc === undefined ? {} : { scc }));
        continue;
      }
      const langs = new Map<string, number>();
      for (const p of grp.files) {
        const lang = languageOf(p)?.name ?? "";
        langs.set(lang, (langs.get(lang) ?? 0) + 1);
      }
      const language = [...langs].sort((x, y) => y[1] - x[1])[0][0];
      const path = grp.path;
      const base = path.slice(path.lastIndexOf("/") + 1) || path;
      nodes.set(id, {
        id,
        label: `${base} (${grp.files.length})`,
        qualified_name: path,
        kind: "Directory",
        path,
        line: 0,
        language,
        role: roleOf(`${path}/x`),
        files: grp.files.length,
        ...(scc === undefined ? {} : { scc }),
      });
    }
    for (const [a, b] of pairs) {
      const [ga, gb] = [groupOf.get(a)!, groupOf.get(b)!];
      if (ga === gb || !nodes.has(ga) || !nodes.has(gb)) continue;
      const id = `${ga}>${gb}`;
      const e = edges.get(id);
      if (e) e.count = (e.count ?? 1) + 1;
      else {
        const cycle = groupScc.get(ga) !== undefined && groupScc.get(ga) === groupScc.get(gb);
        edges.set(id, { id, source: ga, target: gb, rel: "IMPORTS", count: 1, cycle });
      }
    }
  }
  const sccs = new Set([...nodes.values()].map((n) => n.scc).filter((s) => s !== undefined));
  const by = level === "file"
    ? "by file"
    : level === "dir"
    ? "by directory"
    : `in ${nodes.size} groups (directories; a large one by name prefix)`;
  notes.unshift(
    `${files.size} files (${withImports} with imports), ${pairs.length} imports; ${inCycles} ` +
      `files in import cycles; drawn ${by}: ${nodes.size} nodes, ${sccs.size} cycle groups`,
  );
  return { mode: "modules", nodes: [...nodes.values()], edges: [...edges.values()], notes };
}

/** One group per directory (the `dir` level). */
function dirGroups(paths: string[]): FileGroup[] {
  const byDir = new Map<string, string[]>();
  for (const p of paths) {
    const d = dirOf(p);
    const list = byDir.get(d);
    if (list) list.push(p);
    else byDir.set(d, [p]);
  }
  return [...byDir].map(([d, files]) => ({ key: `dir:${d}`, path: d, kind: "dir", files }));
}
