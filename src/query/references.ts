/**
 * Where a symbol is used: calls to it, imports of its file, classes extending it, types
 * implementing it. Each reference is located at its site (file and line of the call, import or
 * class header).
 */
import type { GraphReader, Link, NodeRef } from "./graph.ts";
import { byLocation, isFile } from "./graph.ts";
import { byTotal, fileOf, mergeParallel } from "./neighbors.ts";
import type { Resolved } from "./resolve_symbol.ts";
import { isProduction } from "./role.ts";

export type ReferenceKind = "call" | "import" | "extends" | "implements";

export interface Reference {
  kind: ReferenceKind;
  /** Where the reference is written. */
  path: string;
  line?: number;
  /** The symbol (or file) that refers. */
  from: NodeRef;
  /** Call sites folded into this reference (calls only). */
  count?: number;
}

export interface ReferenceGroup {
  target: NodeRef;
  /** The page shown (production code first), and how many there are in all. */
  refs: Reference[];
  total: number;
  offset?: number;
  capped: boolean;
}

export interface ReferencesResult {
  type: "references";
  query: string;
  limit: number;
  definitions: number;
  /** The definitions lookup was capped: `definitions` is a lower bound. */
  definitions_capped?: boolean;
  groups: ReferenceGroup[];
}

/** Also the listing order: the most specific references first, imports of the file last. */
const KIND_OF: Record<string, ReferenceKind> = {
  CALLS: "call",
  INSTANTIATES: "call",
  EXTENDS: "extends",
  IMPLEMENTS: "implements",
  IMPORTS: "import",
};

export async function references(
  g: GraphReader,
  resolved: Resolved,
  limit: number,
  offset = 0,
): Promise<ReferencesResult> {
  const groups: ReferenceGroup[] = [];
  for (const target of resolved.matches) {
    const links: Link[] = [];
    let capped = false;
    if (!isFile(target)) {
      const s = await g.step([target], ["CALLS", "INSTANTIATES", "EXTENDS", "IMPLEMENTS"], "IN", 1);
      links.push(...s.links);
      capped ||= s.capped;
    }
    const imp = await g.step([fileOf(target)], ["IMPORTS"], "IN", 1);
    links.push(...imp.links);
    capped ||= imp.capped;
    const refs = mergeParallel(links).map((l): Reference => {
      const r: Reference = { kind: KIND_OF[l.rel], path: l.node.path, from: l.node };
      if (l.at !== undefined) r.line = l.at;
      if (l.rel === "CALLS" && l.count !== undefined) r.count = l.count;
      return r;
    });
    const order = Object.values(KIND_OF);
    refs.sort((a, b) =>
      Number(!isProduction(a.path)) - Number(!isProduction(b.path)) ||
      order.indexOf(a.kind) - order.indexOf(b.kind) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.line ?? 0) - (b.line ?? 0)) ||
      byLocation(a.from, b.from)
    );
    groups.push({
      target,
      refs: refs.slice(offset, offset + limit),
      total: refs.length,
      ...(offset ? { offset } : {}),
      capped,
    });
  }
  groups.sort(byTotal);
  return {
    type: "references",
    query: resolved.query,
    limit,
    definitions: resolved.total,
    ...(resolved.total_capped ? { definitions_capped: true } : {}),
    groups,
  };
}
