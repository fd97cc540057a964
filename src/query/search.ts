/**
 * Ranked symbol search: exact name > name prefix > every query word in the name (snake_case and
 * camelCase split) > every word in the qualified name > every word in name or doc; hits matching
 * only some words are listed only when nothing matches them all.
 * Candidates come from the full-text index (prefix terms of [a-z0-9] words only, so user input
 * can never inject RediSearch syntax) plus an exact-name lookup.
 */
import type { Row } from "../db/client.ts";
import * as Q from "../db/queries.ts";
import { CgraphError } from "../errors.ts";
import { wordsOf } from "../graph/model.ts";
import { byLocation, type GraphReader, nodeOf, type NodeRef } from "./graph.ts";
import { normalizeKind, normalizeName, queryWords } from "./resolve_symbol.ts";

export const MATCH_TIERS = ["exact", "prefix", "name words", "qualified name", "doc", "partial"];

export interface SearchHit {
  node: NodeRef;
  /** Index into MATCH_TIERS. */
  tier: number;
  match: string;
  language: string;
}

export interface SearchResult {
  type: "search";
  query: string;
  kind?: string;
  language?: string;
  limit: number;
  offset?: number;
  total: number;
  hits: SearchHit[];
  /** The candidate pool was capped: `total` is a lower bound. */
  capped: boolean;
}

/**
 * Full-text candidates ranked per call: ten per requested hit (100 to 500). Exact names come from
 * the name index besides, so a smaller pool only trims the long tail, and every row saved is
 * transfer and parsing saved (the pool dominated search latency).
 */
function poolCap(limit: number): number {
  return Math.min(500, Math.max(100, limit * 10));
}

interface Candidate {
  row: Row;
  score: number;
}

export async function search(
  g: GraphReader,
  query: string,
  opts: { kind?: string; language?: string; limit: number; offset?: number },
): Promise<SearchResult> {
  const words = queryWords(query);
  const compact = query.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (!compact) {
    throw new CgraphError(
      `Nothing to search for in '${query}'.`,
      "Give a word of a name, e.g. 'user' or 'parseConfig'.",
    );
  }
  const kind = normalizeKind(opts.kind) ?? null;
  const language = opts.language?.trim().toLowerCase() || null;
  const pool = new Map<string, Candidate>();
  const want = opts.limit + (opts.offset ?? 0);
  let capped = false;
  if (words.length) {
    // Every word first (RediSearch: space = AND); any word only to fill up a short answer.
    const queries = [words.map((w) => `${w}*`).join(" ")];
    if (words.length > 1) queries.push(words.map((w) => `${w}*`).join("|"));
    for (const q of queries) {
      if (pool.size >= want) break;
      const cap = poolCap(want);
      const rows = await g.rows(Q.FULLTEXT_SYMBOLS, { q, kind, language, cap: cap + 1 });
      if (rows.length > cap) (capped = true, rows.length = cap);
      for (const r of rows) {
        if (!pool.has(String(r.id))) {
          pool.set(String(r.id), { row: r, score: Number(r.score ?? 0) });
        }
      }
    }
  }
  const name = normalizeName(query);
  const last = name.slice(name.lastIndexOf(".") + 1);
  // The query as a name and its last dotted part, in one round trip.
  const names = [...new Set([query.trim(), last])].filter(Boolean);
  for (const r of await g.rows(Q.SYMBOLS_BY_NAME_FILTERED, { names, kind, language, cap: 200 })) {
    if (!pool.has(String(r.id))) pool.set(String(r.id), { row: r, score: 0 });
  }

  const dotted = name.includes(".") ? name.toLowerCase() : undefined;
  const segments = dotted ? dotted.split(".").length : 1;
  const hits: (SearchHit & { score: number; inName: number })[] = [];
  for (const { row, score } of pool.values()) {
    const node = nodeOf(row);
    const nameCompact = node.name.toLowerCase().replace(/[^a-z0-9]/g, "");
    const nameWords = wordsOf(node.name).split(" ");
    const qnWords = String(row.words ?? wordsOf(node.qualified_name)).split(" ");
    const docWords = wordsOf(String(row.doc ?? "")).split(" ");
    const has = (pool: string[], w: string) => pool.some((x) => x.startsWith(w));
    // A word counts as in the name when it starts a name word or is part of the name
    // (`url` and `parse` are both in `urlparse`).
    const inName = words.filter((w) => has(nameWords, w) || nameCompact.includes(w)).length;
    const qn = node.qualified_name.toLowerCase();
    const tail = qn.split(".").slice(-segments).join(".");
    let tier: number;
    if (nameCompact === compact || (dotted !== undefined && tail === dotted)) tier = 0;
    else if (nameCompact.startsWith(compact) || (dotted !== undefined && tail.startsWith(dotted))) {
      tier = 1;
    } else if (words.length && inName === words.length) tier = 2;
    else if (words.length && words.every((w) => has(qnWords, w))) tier = 3;
    else if (words.length && words.every((w) => has(qnWords, w) || has(docWords, w))) tier = 4;
    else tier = 5;
    hits.push({
      node,
      tier,
      match: MATCH_TIERS[tier],
      language: String(row.language ?? ""),
      score,
      inName,
    });
  }
  // Partial matches (some words only) are an answer only when nothing matches every word.
  const full = hits.filter((h) => h.tier < 5);
  const kept = full.length ? full : hits;
  kept.sort((a, b) =>
    a.tier - b.tier || b.inName - a.inName || b.score - a.score ||
    a.node.name.length - b.node.name.length || byLocation(a.node, b.node)
  );
  return {
    type: "search",
    query,
    ...(kind ? { kind } : {}),
    ...(language ? { language } : {}),
    limit: opts.limit,
    ...(opts.offset ? { offset: opts.offset } : {}),
    total: kept.length,
    hits: kept.slice(opts.offset ?? 0, (opts.offset ?? 0) + opts.limit).map((
      { node, tier, match, language },
    ) => ({
      node,
      tier,
      match,
      language,
    })),
    capped,
  };
}
