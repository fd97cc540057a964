/**
 * Everything around one symbol in one answer: its definition, callers, callees, parents and
 * children (container, members, base types, subtypes) and its file's imports, each section capped.
 */
import * as Q from "../db/queries.ts";
import type { GraphReader, Link, NodeRef } from "./graph.ts";
import { isFile } from "./graph.ts";
import { byDepthThenLocation, fileOf, mergeParallel } from "./neighbors.ts";
import type { Resolved } from "./resolve_symbol.ts";

export const SECTION_CAP = 10;

export interface Section {
  links: Link[];
  total: number;
}

export interface ContextGroup {
  target: NodeRef;
  doc?: string;
  language?: string;
  callers: Section;
  callees: Section;
  /** Container (DEFINES in) and base types (EXTENDS/IMPLEMENTS out). */
  parents: Section;
  /** Members (DEFINES out) and subtypes (EXTENDS/IMPLEMENTS in). */
  children: Section;
  imports: Section;
  imported_by: Section;
}

export interface ContextResult {
  type: "context";
  query: string;
  /** Entries shown per section. */
  limit: number;
  definitions: number;
  /** The definitions lookup was capped: `definitions` is a lower bound. */
  definitions_capped?: boolean;
  groups: ContextGroup[];
}

/** Links merged by (caller, callee), nearest first, the first `cap` of them and how many in all. */
export function section(links: Link[], cap: number): Section {
  const merged = mergeParallel(links).sort(byDepthThenLocation);
  return { links: merged.slice(0, cap), total: merged.length };
}

export async function context(
  g: GraphReader,
  resolved: Resolved,
  cap = SECTION_CAP,
): Promise<ContextResult> {
  const groups: ContextGroup[] = [];
  for (const target of resolved.matches) {
    const step = async (
      anchor: NodeRef,
      types: Parameters<GraphReader["step"]>[1],
      dir: "IN" | "OUT",
    ) => (await g.step([anchor], types, dir, 1)).links;
    const group: ContextGroup = {
      target,
      callers: section(
        isFile(target) ? [] : await step(target, ["CALLS", "INSTANTIATES"], "IN"),
        cap,
      ),
      callees: section(await step(target, ["CALLS", "INSTANTIATES"], "OUT"), cap),
      parents: section([
        ...(isFile(target) ? [] : await step(target, ["DEFINES"], "IN")),
        ...(isFile(target) ? [] : await step(target, ["EXTENDS", "IMPLEMENTS"], "OUT")),
      ], cap),
      children: section([
        ...await step(target, ["DEFINES"], "OUT"),
        ...(isFile(target) ? [] : await step(target, ["EXTENDS", "IMPLEMENTS"], "IN")),
      ], cap),
      imports: section(await step(fileOf(target), ["IMPORTS"], "OUT"), cap),
      imported_by: section(await step(fileOf(target), ["IMPORTS"], "IN"), cap),
    };
    if (!isFile(target)) {
      const [d] = await g.rows(Q.SYMBOL_DETAILS, { id: target.id });
      if (d && typeof d.doc === "string" && d.doc) group.doc = d.doc;
      if (d && typeof d.language === "string") group.language = d.language;
    }
    groups.push(group);
  }
  return {
    type: "context",
    query: resolved.query,
    limit: cap,
    definitions: resolved.total,
    ...(resolved.total_capped ? { definitions_capped: true } : {}),
    groups,
  };
}
