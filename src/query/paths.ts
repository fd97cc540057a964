/**
 * Call chains from -> to. A bidirectional breadth-first search over CALLS (always growing the
 * smaller frontier, one bounded query per level) collects every edge any chain of at most
 * `maxDepth` calls can use; the chains are then enumerated in memory, shortest first, as simple
 * paths (no node twice), with a work budget. So it never loops and never runs away.
 */
import type { GraphReader, NodeRef } from "./graph.ts";
import { VISIT_CAP } from "./neighbors.ts";
import type { Resolved } from "./resolve_symbol.ts";

export interface PathHop {
  node: NodeRef;
  /** Line of the call to this node in the previous node's file (absent for the first hop). */
  at?: number;
}

export interface CallPath {
  /** Number of calls (edges). */
  length: number;
  hops: PathHop[];
}

export interface PathsResult {
  type: "paths";
  from: string;
  to: string;
  max_depth: number;
  limit: number;
  from_definitions: NodeRef[];
  to_definitions: NodeRef[];
  paths: CallPath[];
  /** More chains exist than shown (within max_depth). */
  more: boolean;
  /** A cap cut the search: chains may exist that were not looked at. */
  capped: boolean;
}

/** Steps of enumeration allowed, in all. */
const WORK_CAP = 200_000;

export async function findPaths(
  g: GraphReader,
  from: Resolved,
  to: Resolved,
  maxDepth: number,
  limit: number,
): Promise<PathsResult> {
  const sources = from.matches;
  const targets = to.matches;
  const nodes = new Map<string, NodeRef>();
  for (const n of [...sources, ...targets]) nodes.set(n.id, n);
  const out = new Map<string, Map<string, number | undefined>>();
  const addEdge = (a: string, b: string, at: number | undefined) => {
    let m = out.get(a);
    if (!m) out.set(a, m = new Map());
    const prev = m.get(b);
    if (!m.has(b) || (at !== undefined && (prev === undefined || at < prev))) m.set(b, at);
  };

  const seenF = new Set(sources.map((n) => n.id));
  const seenB = new Set(targets.map((n) => n.id));
  let frontF = sources;
  let frontB = targets;
  let depthF = 0;
  let depthB = 0;
  let capped = false;
  while (depthF + depthB < maxDepth && frontF.length && frontB.length) {
    if (frontF.length <= frontB.length) {
      const s = await g.step(frontF, ["CALLS"], "OUT", depthF + 1);
      capped ||= s.capped;
      const next: NodeRef[] = [];
      for (const l of s.links) {
        addEdge(l.via, l.node.id, l.at);
        if (!nodes.has(l.node.id)) nodes.set(l.node.id, l.node);
        if (!seenF.has(l.node.id)) (seenF.add(l.node.id), next.push(l.node));
      }
      frontF = next;
      depthF++;
    } else {
      const s = await g.step(frontB, ["CALLS"], "IN", depthB + 1);
      capped ||= s.capped;
      const next: NodeRef[] = [];
      for (const l of s.links) {
        addEdge(l.node.id, l.via, l.at);
        if (!nodes.has(l.node.id)) nodes.set(l.node.id, l.node);
        if (!seenB.has(l.node.id)) (seenB.add(l.node.id), next.push(l.node));
      }
      frontB = next;
      depthB++;
    }
    if (seenF.size + seenB.size > 2 * VISIT_CAP) {
      capped = true;
      break;
    }
  }

  // Exact distance to a target over the collected edges (reverse breadth-first, in memory).
  const into = new Map<string, string[]>();
  for (const [a, m] of out) for (const b of m.keys()) into.set(b, [...(into.get(b) ?? []), a]);
  const targetIds = new Set(targets.map((t) => t.id));
  const rem = new Map<string, number>([...targetIds].map((id) => [id, 0]));
  let queue = [...targetIds];
  while (queue.length) {
    const next: string[] = [];
    for (const b of queue) {
      for (const a of into.get(b) ?? []) {
        if (rem.has(a)) continue;
        rem.set(a, rem.get(b)! + 1);
        next.push(a);
      }
    }
    queue = next;
  }

  const found: string[][] = [];
  let work = 0;
  const shortest = Math.min(...sources.map((s) => rem.get(s.id) ?? Infinity));
  for (let len = Math.max(1, shortest); len <= maxDepth && found.length <= limit; len++) {
    const stack: string[] = [];
    const onStack = new Set<string>();
    const dfs = (id: string): void => {
      if (found.length > limit || work > WORK_CAP) return;
      work++;
      stack.push(id);
      onStack.add(id);
      const used = stack.length - 1;
      if (used === len) {
        if (targetIds.has(id)) found.push([...stack]);
      } else if (!(used > 0 && targetIds.has(id))) {
        for (const next of out.get(id)?.keys() ?? []) {
          const r = rem.get(next);
          if (r === undefined || onStack.has(next) || used + 1 + r > len) continue;
          dfs(next);
        }
      }
      stack.pop();
      onStack.delete(id);
    };
    for (const s of sources) if ((rem.get(s.id) ?? Infinity) <= len) dfs(s.id);
    if (work > WORK_CAP) {
      capped = true;
      break;
    }
  }

  const paths = found.slice(0, limit).map((ids): CallPath => ({
    length: ids.length - 1,
    hops: ids.map((id, i) => {
      const hop: PathHop = { node: nodes.get(id)! };
      const at = i > 0 ? out.get(ids[i - 1])?.get(id) : undefined;
      if (at !== undefined) hop.at = at;
      return hop;
    }),
  }));
  return {
    type: "paths",
    from: from.query,
    to: to.query,
    max_depth: maxDepth,
    limit,
    from_definitions: sources,
    to_definitions: targets,
    paths,
    more: found.length > limit,
    capped,
  };
}
