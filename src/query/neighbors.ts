/**
 * Neighbourhoods: callers and callees to a depth (breadth-first, one bounded query per level, each
 * node once, so it never loops), and dependencies over chosen relations and directions.
 */
import { type EdgeType, fileId } from "../graph/model.ts";
import {
  byLocation,
  type Direction,
  type GraphReader,
  GUESS,
  isFile,
  type Link,
  type NodeRef,
  STEP_CAP,
} from "./graph.ts";
import type { Resolved } from "./resolve_symbol.ts";
import { isProduction } from "./role.ts";
import type { Unresolved } from "./unresolved.ts";

/** Total nodes one traversal may visit; past this the answer says it was cut. */
export const VISIT_CAP = 5000;

export interface Expansion {
  links: Link[];
  /** True when a cap stopped the traversal early (answers are then a lower bound). */
  capped: boolean;
}

/**
 * Breadth-first from `seeds` over `types` in direction `dir`, up to `depth` levels. Every node is
 * reported once, at its smallest distance, reached from the first neighbour found.
 */
export async function expand(
  g: GraphReader,
  seeds: NodeRef[],
  types: EdgeType[],
  dir: Direction,
  depth: number,
  maxNodes = VISIT_CAP,
): Promise<Expansion> {
  const visited = new Set(seeds.map((s) => s.id));
  const names = new Map(seeds.map((s) => [s.id, s.qualified_name]));
  const out: Link[] = [];
  let capped = false;
  let frontier = seeds;
  for (let d = 1; d <= depth && frontier.length; d++) {
    const step = await g.step(frontier, types, dir, d, STEP_CAP);
    capped ||= step.capped;
    const level = new Map<string, Link>();
    for (const l of step.links) {
      const same = level.get(`${l.via}|${l.node.id}|${l.rel}`);
      if (same) {
        // Parallel edges (one per call site): one link, the first line, the summed count.
        same.count = (same.count ?? 1) + (l.count ?? 1);
        if (l.at !== undefined && (same.at === undefined || l.at < same.at)) same.at = l.at;
        continue;
      }
      if (visited.has(l.node.id)) continue;
      visited.add(l.node.id);
      names.set(l.node.id, l.node.qualified_name);
      if (d > 1) l.via_name = names.get(l.via);
      level.set(`${l.via}|${l.node.id}|${l.rel}`, l);
    }
    const next = [...level.values()];
    out.push(...next);
    if (visited.size >= maxNodes) {
      capped = d < depth || capped;
      break;
    }
    frontier = next.map((l) => l.node);
  }
  return { links: out, capped };
}

/** Groups with answers first (the sort is stable: location order otherwise). */
export function byTotal(a: { total: number }, b: { total: number }): number {
  return b.total - a.total;
}

export function byDepthThenLocation(a: Link, b: Link): number {
  return a.depth - b.depth || byLocation(a.node, b.node) || (a.at ?? 0) - (b.at ?? 0);
}

// ---- callers / callees ------------------------------------------------------------------------

export interface NeighborGroup {
  target: NodeRef;
  /** Shown links (at most the limit, from the offset), production code first. */
  links: Link[];
  /** All links that may be shown (before offset and limit). */
  total: number;
  capped: boolean;
  /** Left out of `links` unless asked: in tests/examples/docs, and name-only guesses. */
  hidden?: { tests: number; guesses: number };
  offset?: number;
  /** Call sites with the target's name that resolved nowhere, or only to name-only guesses. */
  unresolved?: Unresolved;
}

/** What a list shows: its page, and whether tests and name-only guesses are included. */
export interface ListOptions {
  limit: number;
  offset?: number;
  includeTests?: boolean;
  includeGuesses?: boolean;
}

/**
 * Production code first; tests, examples and the like, and name-only guesses, left out unless
 * asked for (and counted); then the page at `offset`.
 */
export function page(
  links: Link[],
  o: ListOptions,
): Pick<NeighborGroup, "links" | "total" | "hidden"> {
  let tests = 0;
  let guesses = 0;
  const kept: Link[] = [];
  for (const l of links) {
    const guess = l.confidence !== undefined && l.confidence <= GUESS;
    const test = !isProduction(l.node.path);
    if (guess && !o.includeGuesses) guesses++;
    else if (test && !o.includeTests) tests++;
    else kept.push(l);
  }
  // Stable: production before the rest, each in its order.
  const ordered = [
    ...kept.filter((l) => isProduction(l.node.path)),
    ...kept.filter((l) => !isProduction(l.node.path)),
  ];
  const from = Math.max(0, o.offset ?? 0);
  return {
    links: ordered.slice(from, from + o.limit),
    total: ordered.length,
    ...(tests || guesses ? { hidden: { tests, guesses } } : {}),
  };
}

export interface CallsResult {
  type: "callers" | "callees";
  query: string;
  depth: number;
  limit: number;
  /** Definitions matching the query (groups holds at most DEFINITION_CAP of them). */
  definitions: number;
  /** The definitions lookup was capped: `definitions` is a lower bound. */
  definitions_capped?: boolean;
  /** One overload set answered as one symbol: how many overloads it has. */
  overloads?: number;
  groups: NeighborGroup[];
}

export async function calls(
  g: GraphReader,
  resolved: Resolved,
  type: "callers" | "callees",
  depth: number,
  list: ListOptions,
): Promise<CallsResult> {
  const limit = list.limit;
  const groups: NeighborGroup[] = [];
  // Overloads of one method (one qualified name in one file) are one symbol to ask about: their
  // callers and callees are merged, and the answer says how many overloads it speaks of.
  const m = resolved.matches;
  const overloads = m.length > 1 &&
    m.every((x) =>
      x.qualified_name === m[0].qualified_name && x.path === m[0].path && x.kind !== "File"
    );
  if (overloads) {
    const dir = type === "callers" ? "IN" : "OUT";
    // Each overload on its own (one overload calling another is an edge worth showing), merged.
    const merged = new Map<string, Link>();
    let capped = false;
    for (const target of m) {
      const ex = await expand(g, [target], ["CALLS", "INSTANTIATES"], dir, depth);
      capped ||= ex.capped;
      for (const l of ex.links) {
        const key = `${l.node.id}|${l.rel}`;
        const prev = merged.get(key);
        if (!prev || l.depth < prev.depth) merged.set(key, l);
      }
    }
    const ex = { capped };
    const sorted = [...merged.values()].sort(byDepthThenLocation);
    return {
      type,
      query: resolved.query,
      depth,
      limit,
      definitions: 1,
      overloads: m.length,
      groups: [{
        target: m[0],
        ...page(sorted, list),
        capped: ex.capped,
        ...(list.offset ? { offset: list.offset } : {}),
      }],
    };
  }
  for (const target of resolved.matches) {
    const dir = type === "callers" ? "IN" : "OUT";
    // Creating an object is calling its type: `new T()` instantiates T (and calls its constructor).
    const ex = await expand(g, [target], ["CALLS", "INSTANTIATES"], dir, depth);
    const sorted = ex.links.sort(byDepthThenLocation);
    groups.push({
      target,
      ...page(sorted, list),
      capped: ex.capped,
      ...(list.offset ? { offset: list.offset } : {}),
    });
  }
  groups.sort(byTotal);
  return {
    type,
    query: resolved.query,
    depth,
    limit,
    definitions: resolved.total,
    ...(resolved.total_capped ? { definitions_capped: true } : {}),
    groups,
  };
}

// ---- dependencies -----------------------------------------------------------------------------

export const RELATIONS: EdgeType[] = [
  "CALLS",
  "INSTANTIATES",
  "IMPORTS",
  "EXTENDS",
  "IMPLEMENTS",
  "DEFINES",
];
export type DirectionArg = "OUT" | "IN" | "BOTH";
/** Listing order: the symbol's own edges first, its file's imports last. */
const LISTING_ORDER: EdgeType[] = [
  "CALLS",
  "INSTANTIATES",
  "EXTENDS",
  "IMPLEMENTS",
  "DEFINES",
  "IMPORTS",
];

export interface DependenciesResult {
  type: "dependencies";
  query: string;
  relations: EdgeType[];
  direction: DirectionArg;
  limit: number;
  definitions: number;
  /** The definitions lookup was capped: `definitions` is a lower bound. */
  definitions_capped?: boolean;
  groups: NeighborGroup[];
}

/** The file node a symbol lives in (IMPORTS are between files). */
export function fileOf(n: NodeRef): NodeRef {
  if (isFile(n)) return n;
  return {
    id: fileId(n.path),
    name: n.path,
    qualified_name: n.path,
    kind: "File",
    path: n.path,
    line: 0,
  };
}

export async function dependencies(
  g: GraphReader,
  resolved: Resolved,
  relations: EdgeType[],
  direction: DirectionArg,
  limit: number,
  offset = 0,
): Promise<DependenciesResult> {
  const dirs: Direction[] = direction === "BOTH" ? ["OUT", "IN"] : [direction];
  const groups: NeighborGroup[] = [];
  for (const target of resolved.matches) {
    const links: Link[] = [];
    let capped = false;
    for (const dir of dirs) {
      const own = relations.filter((r) => r !== "IMPORTS" || isFile(target));
      if (own.length) {
        const s = await g.step([target], own, dir, 1);
        links.push(...s.links);
        capped ||= s.capped;
      }
      if (relations.includes("IMPORTS") && !isFile(target)) {
        // A symbol's imports are its file's.
        const s = await g.step([fileOf(target)], ["IMPORTS"], dir, 1);
        links.push(...s.links);
        capped ||= s.capped;
      }
    }
    const merged = mergeParallel(links);
    merged.sort((a, b) =>
      (a.dir === b.dir ? 0 : a.dir === "OUT" ? -1 : 1) ||
      LISTING_ORDER.indexOf(a.rel) - LISTING_ORDER.indexOf(b.rel) ||
      byLocation(a.node, b.node) || (a.at ?? 0) - (b.at ?? 0)
    );
    groups.push({
      target,
      links: merged.slice(offset, offset + limit),
      total: merged.length,
      capped,
      ...(offset ? { offset } : {}),
    });
  }
  groups.sort(byTotal);
  return {
    type: "dependencies",
    query: resolved.query,
    relations,
    direction,
    limit,
    definitions: resolved.total,
    ...(resolved.total_capped ? { definitions_capped: true } : {}),
    groups,
  };
}

/** One link per (direction, relation, node): parallel edges summed, the first line kept. */
export function mergeParallel(links: Link[]): Link[] {
  const seen = new Map<string, Link>();
  for (const l of links) {
    const key = `${l.dir}|${l.rel}|${l.via}|${l.node.id}`;
    const same = seen.get(key);
    if (!same) {
      seen.set(key, { ...l });
      continue;
    }
    same.count = (same.count ?? 1) + (l.count ?? 1);
    if (l.at !== undefined && (same.at === undefined || l.at < same.at)) same.at = l.at;
  }
  return [...seen.values()];
}
