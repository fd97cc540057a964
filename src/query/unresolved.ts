/**
 * Honest completeness: the call sites named like a symbol that resolved nowhere, or only to
 * name-only guesses (a receiver the resolver could not type: `ctx = current(); ctx.invoke()`). A
 * callers answer says how many there are and where, so an agent knows its list is a lower bound.
 *
 * Every File node lists its call sites by name (FileNode.calls); a site's caller is the innermost
 * definition around its line (the file itself at top level). A caller whose edges to something of
 * that name are all guesses, or that has none, leaves its sites unresolved. Guesses that reach the
 * asked symbol itself are not counted here: the answer counts them as hidden guesses already.
 */
import { fileId } from "../graph/model.ts";
import * as Q from "../db/queries.ts";
import { type GraphReader, GUESS, isFile, type NodeRef } from "./graph.ts";
import { isProduction } from "./role.ts";
import { enclosingDefinitions, sitesCalling } from "./call_sites.ts";

export interface Unresolved {
  /** The name the sites call. */
  name: string;
  /** Sites in all. */
  total: number;
  /** The first sites (`path:line`), production code first; at most SITES_KEPT. */
  sites: string[];
  /** More files call the name than were read: `total` is a lower bound. */
  capped?: boolean;
}

/** Files read per question (a name called in more files is answered as a lower bound). */
const FILE_CAP = 500;
const SITES_KEPT = 20;

export async function unresolvedSites(
  g: GraphReader,
  targets: NodeRef[],
): Promise<Unresolved | undefined> {
  const t = targets[0];
  if (!t || isFile(t)) return undefined;
  const name = t.name;
  const own = new Set(targets.map((x) => x.id));
  const rows = await g.rows(Q.FILES_CALLING, { needle: ` ${name}:`, cap: FILE_CAP });
  if (!rows.length) return undefined;
  const sites = rows.flatMap((r) => sitesCalling(String(r.path), String(r.calls ?? ""), name));
  // Each site's caller: the innermost definition around it, else its file.
  const callers = (await enclosingDefinitions(g, sites)).map((id, i) =>
    id ? { id, file: false } : { id: fileId(sites[i].path), file: true }
  );
  const resolved = new Set<string>();
  const guessedHere = new Set<string>();
  for (const file of [false, true]) {
    const ids = [...new Set(callers.filter((c) => c.file === file).map((c) => c.id))];
    if (!ids.length) continue;
    const edges = await g.rows(Q.callsNamedFrom(file ? "File" : "Symbol"), { ids, name });
    for (const e of edges) {
      const confidence = e.confidence === null || e.confidence === undefined
        ? 1
        : Number(e.confidence);
      if (confidence > GUESS) resolved.add(String(e.via));
      else if (own.has(String(e.to))) guessedHere.add(String(e.via));
    }
  }
  const left = sites.filter((_, i) =>
    !resolved.has(callers[i].id) && !guessedHere.has(callers[i].id)
  );
  if (!left.length) return undefined;
  left.sort((a, b) =>
    Number(!isProduction(a.path)) - Number(!isProduction(b.path)) ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)
  );
  return {
    name,
    total: left.length,
    sites: left.slice(0, SITES_KEPT).map((s) => `${s.path}:${s.line}`),
    ...(rows.length >= FILE_CAP ? { capped: true } : {}),
  };
}
