/**
 * Cycles in the CALLS graph (between symbols) or the IMPORTS graph (between files), reported as
 * strongly connected components (iterative Tarjan), largest first: their members, the shortest
 * cycle through each member (breadth-first back to itself, each cycle once, shortest first) and the
 * edge most of those cycles share, whose removal breaks the most. IMPORTS that serve types only or
 * run late (`import type`, `if TYPE_CHECKING:`, inside a function) are left out unless asked.
 * Bounded everywhere: edges read, components searched, work per search. Self-loops (a symbol
 * calling itself, where the graph has such edges; a file importing itself) are counted, not listed.
 */
import * as Q from "../db/queries.ts";
import type { GraphReader, NodeRef } from "./graph.ts";

export type CycleRelation = "CALLS" | "IMPORTS";

export interface Cycle {
  /** Number of edges (= number of distinct nodes). */
  length: number;
  nodes: NodeRef[];
}

/** One strongly connected component: every member reaches every other. */
export interface Component {
  size: number;
  /** Members, alphabetically (at most MEMBERS_SHOWN). */
  members: NodeRef[];
  /** The shortest cycle through each member, each cycle once, shortest first (the first few). */
  cycles: Cycle[];
  /** Such cycles found in all. */
  cycles_total: number;
  /** The edge in most of those cycles: removing it breaks the most. */
  break_edge?: { from: NodeRef; to: NodeRef; cycles: number };
}

export interface CyclesResult {
  type: "cycles";
  relation: CycleRelation;
  limit: number;
  /** Strongly connected components of two or more nodes, largest first. */
  total: number;
  components: Component[];
  /** Nodes with an edge to themselves (not listed). */
  self_loops: number;
  /** Nodes in some component. */
  nodes_in_cycles: number;
  /** IMPORTS: type-only or deferred imports were counted (else left out, and how many). */
  include_type_only?: boolean;
  type_only_left_out?: number;
  /** Edges or work were capped: more cycles may exist. */
  capped: boolean;
}

const EDGE_CAP = 200_000;
const WORK_CAP = 2_000_000;
const STARTS_PER_COMPONENT = 300;
const MEMBERS_SHOWN = 20;
/** Cycles listed per component (the break edge is chosen among all found). */
export const CYCLES_SHOWN = 5;

export async function detectCycles(
  g: GraphReader,
  relation: CycleRelation,
  limit: number,
  includeTypeOnly = false,
): Promise<CyclesResult> {
  const rows = await g.rows(relation === "CALLS" ? Q.CALL_EDGES : Q.IMPORT_EDGES, {
    cap: EDGE_CAP + 1,
  });
  let capped = rows.length > EDGE_CAP;
  if (capped) rows.length = EDGE_CAP;
  const adj = new Map<string, Set<string>>();
  const selfLoops = new Set<string>();
  let typeOnly = 0;
  for (const r of rows) {
    const a = String(r.a);
    const b = String(r.b);
    if (r.type_only === true && !includeTypeOnly) {
      typeOnly++;
      continue;
    }
    if (a === b) {
      selfLoops.add(a);
      continue;
    }
    if (!adj.has(a)) adj.set(a, new Set());
    if (!adj.has(b)) adj.set(b, new Set());
    adj.get(a)!.add(b);
  }
  const components = stronglyConnected(adj).filter((c) => c.length > 1)
    .sort((a, b) => b.length - a.length);
  const found: { ids: string[]; cycles: string[][] }[] = [];
  let work = 0;
  for (const comp of components.slice(0, limit)) {
    const inComp = new Set(comp);
    const cycles = new Map<string, string[]>();
    const starts = [...comp].sort().slice(0, STARTS_PER_COMPONENT);
    if (comp.length > STARTS_PER_COMPONENT) capped = true;
    for (const start of starts) {
      const c = shortestCycle(adj, inComp, start, () => ++work > WORK_CAP);
      if (c) cycles.set(canonical(c).join(" "), canonical(c));
      if (work > WORK_CAP) {
        capped = true;
        break;
      }
    }
    found.push({ ids: comp, cycles: [...cycles.values()] });
    if (work > WORK_CAP) break;
  }
  const ids = [...new Set(found.flatMap((f) => [...f.ids.slice(0, 5000), ...f.cycles.flat()]))];
  const nodes = await g.byIds(ids);
  const named = (c: string[]) =>
    rotateToFirst(c.map((id) => nodes.get(id)).filter((n): n is NodeRef => !!n));
  const label = (c: NodeRef[]) => c.map((n) => n.qualified_name).join(" ");
  const out: Component[] = found.map((f) => {
    const cycles = f.cycles.map(named)
      .sort((a, b) => a.length - b.length || (label(a) < label(b) ? -1 : 1));
    const members = f.ids.map((id) => nodes.get(id)).filter((n): n is NodeRef => !!n)
      .sort((a, b) => (a.qualified_name < b.qualified_name ? -1 : 1));
    return {
      size: f.ids.length,
      members: members.slice(0, MEMBERS_SHOWN),
      cycles: cycles.slice(0, CYCLES_SHOWN).map((c) => ({ length: c.length, nodes: c })),
      cycles_total: cycles.length,
      ...breakEdge(f.cycles, nodes),
    };
  });
  // Largest first; equal sizes by their first member, so answers are stable.
  out.sort((a, b) =>
    b.size - a.size ||
    ((a.members[0]?.qualified_name ?? "") < (b.members[0]?.qualified_name ?? "") ? -1 : 1)
  );
  return {
    type: "cycles",
    relation,
    limit,
    total: components.length,
    components: out,
    self_loops: selfLoops.size,
    nodes_in_cycles: components.reduce((n, c) => n + c.length, 0),
    ...(relation === "IMPORTS"
      ? includeTypeOnly ? { include_type_only: true } : { type_only_left_out: typeOnly }
      : {}),
    capped,
  };
}

/** Shortest cycle through `start` inside its component: breadth-first from it, back to it. */
function shortestCycle(
  adj: Map<string, Set<string>>,
  inComp: Set<string>,
  start: string,
  tick: () => boolean,
): string[] | undefined {
  const prev = new Map<string, string>([[start, ""]]);
  let frontier = [start];
  while (frontier.length) {
    const next: string[] = [];
    for (const a of frontier) {
      for (const b of adj.get(a) ?? []) {
        if (tick()) return undefined;
        if (b === start) {
          const ids: string[] = [];
          for (let at = a; at; at = prev.get(at)!) ids.unshift(at);
          return ids;
        }
        if (!inComp.has(b) || prev.has(b)) continue;
        prev.set(b, a);
        next.push(b);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** The edge most of a component's cycles go through (ties: the first by name). */
function breakEdge(
  cycles: string[][],
  nodes: Map<string, NodeRef>,
): Pick<Component, "break_edge"> {
  const count = new Map<string, number>();
  for (const c of cycles) {
    for (let i = 0; i < c.length; i++) {
      const key = `${c[i]} ${c[(i + 1) % c.length]}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  let best: [string, number] | undefined;
  const name = (key: string) => key.split(" ").map((id) => nodes.get(id)?.qualified_name ?? id);
  for (const [key, n] of count) {
    if (!best || n > best[1] || (n === best[1] && name(key).join(" ") < name(best[0]).join(" "))) {
      best = [key, n];
    }
  }
  if (!best) return {};
  const [a, b] = best[0].split(" ").map((id) => nodes.get(id));
  return a && b ? { break_edge: { from: a, to: b, cycles: best[1] } } : {};
}

/** A cycle as read: starting at its alphabetically first name (a stable, readable rotation). */
function rotateToFirst(c: NodeRef[]): NodeRef[] {
  let min = 0;
  for (let i = 1; i < c.length; i++) {
    if (c[i].qualified_name < c[min].qualified_name) min = i;
  }
  return [...c.slice(min), ...c.slice(0, min)];
}

/** The rotation of a cycle starting at its smallest id (so one cycle has one key). */
function canonical(ids: string[]): string[] {
  let min = 0;
  for (let i = 1; i < ids.length; i++) if (ids[i] < ids[min]) min = i;
  return [...ids.slice(min), ...ids.slice(0, min)];
}

/** Tarjan's algorithm without recursion (deep call chains would overflow the stack). */
export function stronglyConnected(adj: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  for (const root of adj.keys()) {
    if (index.has(root)) continue;
    const work: [string, Iterator<string>][] = [];
    const visit = (v: string) => {
      index.set(v, counter);
      low.set(v, counter);
      counter++;
      stack.push(v);
      onStack.add(v);
      work.push([v, (adj.get(v) ?? new Set<string>()).values()]);
    };
    visit(root);
    while (work.length) {
      const [v, it] = work[work.length - 1];
      const step = it.next();
      if (!step.done) {
        const w = step.value;
        if (!index.has(w)) visit(w);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== v);
        out.push(comp);
      }
    }
  }
  return out;
}
