/**
 * How many graphs a project keeps: each graph records when it was last used (`last_used` in its
 * info hash: every index run and, at most once a minute per server, every tool call on it), and
 * past the cap (`CGRAPH_MAX_GRAPHS_PER_PROJECT`, default 10; 0: no cap) the least recently used
 * graphs of the project are dropped, never the one just indexed nor one being indexed.
 */
import type { Db } from "../db/client.ts";
import { CgraphError } from "../errors.ts";
import { deleteGraphs, listGraphs } from "./catalog.ts";
import { type GraphKeys, keysFor } from "./names.ts";

export const DEFAULT_MAX_GRAPHS = 10;
export const MAX_GRAPHS_ENV = "CGRAPH_MAX_GRAPHS_PER_PROJECT";

/** Parses a cap (a whole number >= 0; 0 means no cap), with a clear error naming its source. */
export function parseMaxGraphs(raw: string, source: string): number {
  const n = Number(raw.trim());
  if (!raw.trim() || !Number.isInteger(n) || n < 0) {
    throw new CgraphError(
      `${source} must be a whole number >= 0 (0: no cap), not '${raw.slice(0, 40)}'.`,
      `Graphs per project default to ${DEFAULT_MAX_GRAPHS}.`,
    );
  }
  return n;
}

/** The cap from the environment, else the default. */
export function maxGraphsFromEnv(): number {
  const raw = Deno.env.get(MAX_GRAPHS_ENV);
  return raw === undefined ? DEFAULT_MAX_GRAPHS : parseMaxGraphs(raw, MAX_GRAPHS_ENV);
}

/** Records a use of a graph (only when its info exists: never creates metadata for no graph). */
export async function touchGraph(db: Db, keys: GraphKeys, now = new Date()): Promise<void> {
  await db.command([
    "EVAL",
    "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], 'last_used', ARGV[1]) end return 0",
    "1",
    keys.info,
    now.toISOString(),
  ]);
}

/**
 * Drops the least recently used graphs of `project` beyond `cap`, sparing `keep` (the branch just
 * indexed) and graphs whose indexer holds their lock. Returns the branches dropped.
 */
export async function evictBeyondCap(
  db: Db,
  project: string,
  keep: string,
  cap: number,
): Promise<string[]> {
  if (cap <= 0) return [];
  const graphs = (await listGraphs(db)).filter((g) => g.project === project);
  if (graphs.length <= cap) return [];
  const used = (g: { last_used?: unknown; indexed_at?: unknown }) =>
    Date.parse(String(g.last_used ?? g.indexed_at ?? "")) || 0;
  const candidates = graphs.filter((g) => g.branch !== keep).sort((a, b) => used(a) - used(b));
  const dropped: string[] = [];
  for (const g of candidates) {
    if (graphs.length - dropped.length <= cap) break;
    if (await db.command<number>(["EXISTS", keysFor(g.project, g.branch).lock])) continue;
    await deleteGraphs(db, g.project, g.branch);
    dropped.push(g.branch);
  }
  return dropped;
}
