/**
 * What `cgraph view` draws, built from the very query functions the MCP tools call (search,
 * callers/callees, impact, cycles): nodes and edges in one plain shape the page hands to
 * Cytoscape. No Cypher here: traversals are src/query's, so the page never disagrees with
 * what an agent is told.
 */
import { languageOf } from "../lang/registry.ts";
import { detectCycles } from "../query/cycles.ts";
import type { GraphReader, Link, NodeRef } from "../query/graph.ts";
import { impact } from "../query/impact.ts";
import { calls } from "../query/neighbors.ts";
import type { Resolved } from "../query/resolve_symbol.ts";
import { roleOf } from "../query/role.ts";
import { search } from "../query/search.ts";

/** One node as the page draws it. */
export interface ViewNode {
  id: string;
  label: string;
  qualified_name: string;
  kind: string;
  path: string;
  line: number;
  language: string;
  /** `production`, `test`, `example`, ... (src/query/role.ts). */
  role: string;
  /** Distance from the centre (0 for the centre itself). */
  depth?: number;
  /** Reached against the edges (`in`: a caller, a dependent) or along them (`out`: a callee). */
  side?: "in" | "out";
  /** Strongly connected component (module map, cycles): nodes of one cycle share it. */
  scc?: number;
  /** Files a directory node stands for (module map by directory). */
  files?: number;
  signature?: string;
}

export interface ViewEdge {
  id: string;
  source: string;
  target: string;
  rel: string;
  count?: number;
  /** Both ends in one strongly connected component: the edge is part of a cycle. */
  cycle?: boolean;
}

export interface ViewGraph {
  mode: string;
  /** Id of the node the view is about. */
  center?: string;
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** Counts and caps worth a line in the page's status bar. */
  notes: string[];
  /** The equivalent tool call (see equivalent.ts), filled in by the handler. */
  tool?: { name: string; args: Record<string, unknown> };
}

/** The short label drawn on a node: the last two dotted parts, or a file's base name. */
export function labelOf(n: NodeRef): string {
  if (n.kind === "File") return n.path.slice(n.path.lastIndexOf("/") + 1);
  const parts = n.qualified_name.split(".");
  return parts.slice(-2).join(".");
}

export function viewNode(n: NodeRef, extra: Partial<ViewNode> = {}): ViewNode {
  return {
    id: n.id,
    label: labelOf(n),
    qualified_name: n.qualified_name,
    kind: n.kind,
    path: n.path,
    line: n.line,
    language: languageOf(n.path)?.name ?? "",
    role: roleOf(n.path),
    ...(n.signature ? { signature: n.signature } : {}),
    ...extra,
  };
}

/** Search, ranked as search_code ranks. */
export async function searchView(
  g: GraphReader,
  query: string,
  opts: { kind?: string; language?: string; limit: number },
) {
  const r = await search(g, query, opts);
  return {
    total: r.total,
    capped: r.capped,
    hits: r.hits.map((h) => ({ ...viewNode(h.node), match: h.match, language: h.language })),
  };
}

export type Direction = "callers" | "callees" | "both";

/**
 * Callers and/or callees of the resolved definitions to `depth`, as get_callers / get_callees
 * with `format: json` list them (tests and name-only guesses included, tests marked by role).
 */
export async function neighborhood(
  g: GraphReader,
  resolved: Resolved,
  dir: Direction,
  depth: number,
  limit: number,
): Promise<ViewGraph> {
  const nodes = new Map<string, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  const notes: string[] = [];
  for (const m of resolved.matches) nodes.set(m.id, viewNode(m, { depth: 0 }));
  const types = dir === "both" ? ["callers", "callees"] as const : [dir] as const;
  for (const type of types) {
    const r = await calls(g, resolved, type, depth, {
      limit,
      includeTests: true,
      includeGuesses: true,
    });
    for (const group of r.groups) {
      for (const l of group.links) addLink(nodes, edges, l, type === "callers");
      if (group.total > group.links.length) {
        notes.push(`${type}: showing ${group.links.length} of ${group.total}`);
      }
      if (group.capped) notes.push(`${type}: traversal capped`);
    }
  }
  return {
    mode: "neighbors",
    center: resolved.matches[0]?.id,
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    notes,
  };
}

function addLink(
  nodes: Map<string, ViewNode>,
  edges: Map<string, ViewEdge>,
  l: Link,
  incoming: boolean,
): void {
  const prev = nodes.get(l.node.id);
  if (!prev || (prev.depth ?? 0) > l.depth) {
    nodes.set(l.node.id, viewNode(l.node, { depth: l.depth, side: incoming ? "in" : "out" }));
  }
  const [source, target] = incoming ? [l.node.id, l.via] : [l.via, l.node.id];
  const id = `${source}>${target}:${l.rel}`;
  if (!edges.has(id)) {
    edges.set(id, { id, source, target, rel: l.rel, ...(l.count ? { count: l.count } : {}) });
  }
}

/** What a change reaches (impact_analysis, direction IN): every dependent, by distance. */
export async function impactView(
  g: GraphReader,
  resolved: Resolved,
  depth: number,
  limit: number,
): Promise<ViewGraph> {
  const r = await impact(g, resolved, "IN", depth, limit);
  const nodes = new Map<string, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  const notes: string[] = [];
  for (const group of r.groups) {
    nodes.set(group.target.id, viewNode(group.target, { depth: 0 }));
    for (const f of group.files) for (const l of f.links) addLink(nodes, edges, l, true);
    const dist = Object.entries(group.by_distance).map(([d, n]) => `${n} at ${d}`).join(", ");
    notes.push(`impact: ${group.total} affected (${dist || "none"}) in ${group.files_total} files`);
    const shown = group.files.reduce((n, f) => n + f.links.length, 0);
    if (shown < group.total) notes.push(`showing ${shown} of ${group.total}`);
    if (group.capped) notes.push("traversal capped");
  }
  const tests = [...nodes.values()].filter((n) => n.role !== "production").length;
  if (tests) notes.push(`${tests} in tests or examples (marked)`);
  return {
    mode: "impact",
    center: resolved.matches[0]?.id,
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    notes,
  };
}

/** CALLS cycles (detect_circular): each cycle's nodes, joined in order. */
export async function callCycles(g: GraphReader, limit: number): Promise<ViewGraph> {
  const r = await detectCycles(g, "CALLS", limit);
  const nodes = new Map<string, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  // Each strongly connected component is one colour; its shortest cycles are drawn.
  r.components.forEach((comp, i) => {
    for (const c of comp.cycles) {
      c.nodes.forEach((n, k) => {
        if (!nodes.has(n.id)) nodes.set(n.id, viewNode(n, { scc: i }));
        const next = c.nodes[(k + 1) % c.nodes.length];
        const id = `${n.id}>${next.id}:CALLS`;
        edges.set(id, { id, source: n.id, target: next.id, rel: "CALLS", cycle: true });
      });
    }
  });
  const shown = r.components.length;
  return {
    mode: "call-cycles",
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    notes: [
      `CALLS cycles: ${r.total} strongly connected component${r.total === 1 ? "" : "s"}${
        r.total > shown ? `, showing ${shown}` : ""
      }`,
      ...(r.self_loops ? [`${r.self_loops} self-recursive (not drawn)`] : []),
      ...(r.capped ? ["search capped: more cycles may exist"] : []),
    ],
  };
}
