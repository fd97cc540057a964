/**
 * Cycles in the CALLS graph (between symbols) or the IMPORTS graph (between files). Strongly
 * connected components first (iterative Tarjan); then, inside each component, the shortest cycle
 * through each node (breadth-first back to itself), de-duplicated by rotation, shortest first.
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

export interface CyclesResult {
  type: "cycles";
  relation: CycleRelation;
  limit: number;
  /** Distinct cycles found (the shortest through each node of each component). */
  total: number;
  cycles: Cycle[];
  /** Nodes with an edge to themselves (not listed). */
  self_loops: number;
  /** Nodes involved in some cycle of length >= 2. */
  nodes_in_cycles: number;
  /** Edges or work were capped: more cycles may exist. */
  capped: boolean;
}

const EDGE_CAP = 200_000;
const WORK_CAP = 2_000_000;
const STARTS_PER_COMPONENT = 300;

export async function detectCycles(
  g: GraphReader,
  relation: CycleRelation,
  limit: number,
): Promise<CyclesResult> {
  const rows = await g.rows(relation === "CALLS" ? Q.CALL_EDGES : Q.IMPORT_EDGES, {
    cap: EDGE_CAP + 1,
  });
  let capped = rows.length > EDGE_CAP;
  if (capped) rows.length = EDGE_CAP;
  const adj = new Map<string, Set<string>>();
  const selfLoops = new Set<string>();
  for (const r of rows) {
    const a = String(r.a);
    const b = String(r.b);
    if (a === b) {
      selfLoops.add(a);
      continue;
    }
    if (!adj.has(a)) adj.set(a, new Set());
    if (!adj.has(b)) adj.set(b, new Set());
    adj.get(a)!.add(b);
  }
  const components = stronglyConnected(adj).filter((c) => c.length > 1);
  const cycles = new Map<string, string[]>();
  let work = 0;
  for (const comp of components) {
    const inComp = new Set(comp);
    const starts = [...comp].sort().slice(0, STARTS_PER_COMPONENT);
    if (comp.length > STARTS_PER_COMPONENT) capped = true;
    for (const start of starts) {
      // Shortest cycle through `start`: breadth-first from it, back to it, inside the component.
      const prev = new Map<string, string>([[start, ""]]);
      let frontier = [start];
      let closing: string | undefined;
      while (frontier.length && !closing) {
        const next: string[] = [];
        for (const a of frontier) {
          for (const b of adj.get(a) ?? []) {
            work++;
            if (b === start) {
              closing = a;
              break;
            }
            if (!inComp.has(b) || prev.has(b)) continue;
            prev.set(b, a);
            next.push(b);
          }
          if (closing) break;
        }
        frontier = next;
        if (work > WORK_CAP) break;
      }
      if (closing) {
        const ids: string[] = [];
        for (let at = closing; at; at = prev.get(at)!) ids.unshift(at);
        cycles.set(canonical(ids).join(" "), canonical(ids));
      }
      if (work > WORK_CAP) {
        capped = true;
        break;
      }
    }
    if (work > WORK_CAP) break;
  }
  const all = [...cycles.values()];
  const ids = [...new Set(all.flat())];
  const nodes = await g.byIds(ids);
  const named = all.map((c) =>
    rotateToFirst(c.map((id) => nodes.get(id)).filter((n): n is NodeRef => !!n))
  );
  const label = (c: NodeRef[]) => c.map((n) => n.qualified_name).join(" ");
  named.sort((a, b) => a.length - b.length || (label(a) < label(b) ? -1 : 1));
  return {
    type: "cycles",
    relation,
    limit,
    total: named.length,
    cycles: named.slice(0, limit).map((c) => ({ length: c.length, nodes: c })),
    self_loops: selfLoops.size,
    nodes_in_cycles: components.reduce((n, c) => n + c.length, 0),
    capped,
  };
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
