/**
 * Call sites by name, from the `calls` property every File node carries (` name:1,2 other:7 `),
 * and the definition each one runs in: what the unresolved-site count and the answers across
 * projects both read.
 */
import * as Q from "../db/queries.ts";
import type { GraphReader } from "./graph.ts";

export interface CallSite {
  path: string;
  line: number;
}

/** The lines a file's `calls` lists for one name. */
export function sitesCalling(path: string, calls: string, name: string): CallSite[] {
  const at = calls.indexOf(` ${name}:`);
  if (at < 0) return [];
  const end = calls.indexOf(" ", at + 1);
  return calls.slice(at + name.length + 2, end < 0 ? undefined : end).split(",")
    .filter(Boolean).map((l) => ({ path, line: Number(l) }));
}

/**
 * For each site, the id of the innermost definition around its line, or undefined when it runs at
 * its file's top level.
 */
export async function enclosingDefinitions(
  reader: GraphReader,
  sites: CallSite[],
): Promise<(string | undefined)[]> {
  const paths = [...new Set(sites.map((s) => s.path))];
  const spans = await reader.rows(Q.SPANS_IN_FILES, { paths });
  const byPath = new Map<string, { id: string; line: number; end: number }[]>();
  for (const s of spans) {
    const list = byPath.get(String(s.path)) ?? [];
    list.push({ id: String(s.id), line: Number(s.line), end: Number(s.end_line ?? s.line) });
    byPath.set(String(s.path), list);
  }
  return sites.map((site) => {
    let best: { id: string; line: number } | undefined;
    for (const d of byPath.get(site.path) ?? []) {
      if (d.line <= site.line && site.line <= d.end && (!best || d.line >= best.line)) best = d;
    }
    return best?.id;
  });
}
