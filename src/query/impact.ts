/**
 * What a change reaches: breadth-first over CALLS plus EXTENDS/IMPLEMENTS (direction IN: callers,
 * subclasses and implementations are affected; OUT: what the symbol relies on, parents included),
 * each symbol at its smallest distance, grouped by file.
 */
import { isProduction } from "./role.ts";
import type { EdgeType } from "../graph/model.ts";
import type { Direction, GraphReader, Link, NodeRef } from "./graph.ts";
import { byDepthThenLocation, byTotal, expand } from "./neighbors.ts";
import type { Resolved } from "./resolve_symbol.ts";
import type { Unresolved } from "./unresolved.ts";
import type { Across } from "./across.ts";

export const IMPACT_RELATIONS: EdgeType[] = ["CALLS", "INSTANTIATES", "EXTENDS", "IMPLEMENTS"];

export interface ImpactFile {
  path: string;
  /** Smallest distance of anything in this file. */
  distance: number;
  links: Link[];
}

export interface ImpactGroup {
  target: NodeRef;
  /** Affected nodes in all, and how many per distance. */
  total: number;
  by_distance: Record<string, number>;
  files_total: number;
  /** Affected nodes grouped by file, nearest files first; at most `limit` nodes in all. */
  files: ImpactFile[];
  capped: boolean;
  /** Affected nodes in tests, examples and the like, left out (include_tests lists them). */
  hidden_tests?: number;
  /** Call sites with the target's name that resolved nowhere (direction IN): a lower bound. */
  unresolved?: Unresolved;
  /** Dependents in other projects that import the symbol's package (across_projects). */
  across?: Across;
}

export interface ImpactResult {
  type: "impact";
  query: string;
  direction: Direction;
  depth: number;
  limit: number;
  offset?: number;
  definitions: number;
  /** The definitions lookup was capped: `definitions` is a lower bound. */
  definitions_capped?: boolean;
  groups: ImpactGroup[];
}

export async function impact(
  g: GraphReader,
  resolved: Resolved,
  direction: Direction,
  depth: number,
  limit: number,
  offset = 0,
  includeTests = true,
): Promise<ImpactResult> {
  const groups: ImpactGroup[] = [];
  for (const target of resolved.matches) {
    groups.push(await impactOf(g, target, direction, depth, limit, offset, includeTests));
  }
  groups.sort(byTotal);
  return {
    type: "impact",
    query: resolved.query,
    direction,
    depth,
    limit,
    ...(offset ? { offset } : {}),
    definitions: resolved.total,
    ...(resolved.total_capped ? { definitions_capped: true } : {}),
    groups,
  };
}

async function impactOf(
  g: GraphReader,
  target: NodeRef,
  direction: Direction,
  depth: number,
  limit: number,
  offset: number,
  includeTests: boolean,
): Promise<ImpactGroup> {
  const ex = await expand(g, [target], IMPACT_RELATIONS, direction, depth);
  const all = ex.links.sort(byDepthThenLocation);
  // Tests, examples and the like: counted, listed only when asked for.
  const links = includeTests ? all : all.filter((l) => isProduction(l.node.path));
  const hiddenTests = all.length - links.length;
  const by_distance: Record<string, number> = {};
  for (const l of links) by_distance[String(l.depth)] = (by_distance[String(l.depth)] ?? 0) + 1;
  const perFile = new Map<string, ImpactFile>();
  for (const l of links) {
    const f = perFile.get(l.node.path) ?? { path: l.node.path, distance: l.depth, links: [] };
    f.links.push(l);
    perFile.set(l.node.path, f);
  }
  // Production code first (nearest first), then tests, examples and the like.
  const rank = (f: ImpactFile) => (isProduction(f.path) ? 0 : 1);
  const files = [...perFile.values()].sort((a, b) =>
    rank(a) - rank(b) || a.distance - b.distance || (a.path < b.path ? -1 : 1)
  );
  // Keep `limit` nodes in all from `offset`, in file-group order.
  let skip = offset;
  let left = limit;
  const shown: ImpactFile[] = [];
  for (const f of files) {
    if (left <= 0) break;
    if (skip >= f.links.length) {
      skip -= f.links.length;
      continue;
    }
    const take = f.links.slice(skip, skip + left);
    skip = 0;
    left -= take.length;
    shown.push({ ...f, links: take });
  }
  return {
    target,
    total: links.length,
    by_distance,
    files_total: files.length,
    files: shown,
    capped: ex.capped,
    ...(hiddenTests ? { hidden_tests: hiddenTests } : {}),
  };
}
