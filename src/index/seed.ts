/**
 * A new branch's first index starts from a copy of the closest indexed graph of the same project:
 * the graph (`GRAPH.COPY`) and the per-file state an incremental run needs (hashes, facts, edge
 * digests and lists). The incremental run that follows re-parses only the files that differ, so a
 * new worktree is indexed in seconds instead of a cold index, and ends exactly where a full index
 * of its tree would (the incremental == full property).
 *
 * Closest: the indexed graph whose commit is fewest commits away from this HEAD (counted on both
 * sides of the merge-base); on a tie, or when git cannot say, the default branch's graph, then the
 * most recently indexed one. Outside git, any branch of the project is a correct start (every file
 * is compared by hash), so the most recent one is taken.
 */
import { Db, WRITE_TIMEOUT_MS } from "../db/client.ts";
import { log } from "../log.ts";
import { commitDistance, defaultBranch } from "../project/branches.ts";
import { type GraphInfo, listGraphs } from "../project/catalog.ts";
import type { ProjectRef } from "../project/identity.ts";
import { displayName, type GraphKeys, keysFor, sanitizeName } from "../project/names.ts";
import { withLock } from "./lock.ts";

/** The per-file state an incremental run reads, copied with the graph. */
function stateKeys(k: GraphKeys): string[] {
  return [k.files, k.facts, k.edges, k.edgeLists];
}

/** Candidate base graphs of the same project, closest first. */
export async function baseCandidates(db: Db, ref: ProjectRef): Promise<GraphInfo[]> {
  const graphs = (await listGraphs(db)).filter((g) =>
    g.project === ref.project && g.branch !== ref.branch && g.indexed_at && (g.files ?? 0) > 0
  );
  if (!graphs.length) return [];
  const head = ref.commit;
  const def = head ? await defaultBranch(ref.root) : undefined;
  const defName = def ? sanitizeName(def) : undefined;
  const scored = await Promise.all(graphs.map(async (g) => ({
    g,
    distance: head && typeof g.commit === "string" && g.commit
      ? (await commitDistance(ref.root, g.commit, head)) ?? Infinity
      : Infinity,
    isDefault: g.branch === defName ? 0 : 1,
    at: Date.parse(String(g.indexed_at)) || 0,
  })));
  scored.sort((a, b) => a.distance - b.distance || a.isDefault - b.isDefault || b.at - a.at);
  return scored.map((s) => s.g);
}

export interface Seed {
  /** The branch whose graph is copied (sanitised). */
  branch: string;
  /**
   * Settles once the graph itself is copied. The per-file state is copied before the seed is
   * returned; the graph is copied meanwhile on a connection of its own, so the caller scans,
   * parses and resolves while the server copies. Nothing may be written to the graph before.
   */
  graphReady: Promise<void>;
}

/**
 * Copies the closest base graph and its state to `ref`'s keys (which must not hold a graph yet).
 * The base's index lock is held until the copy is complete, so a base being re-indexed is never
 * copied half written. Returns once the state is copied (see Seed), or undefined when nothing
 * suitable exists (the caller indexes in full).
 */
export async function startSeed(
  db: Db,
  ref: ProjectRef,
  opts: { waitMs?: number; warnings: string[] },
): Promise<Seed | undefined> {
  const candidates = (await baseCandidates(db, ref)).slice(0, 3);
  for (const base of candidates) {
    const from = keysFor(base.project, base.branch);
    const what = `${base.project}:${base.branch}`;
    let stateDone!: (ok: boolean) => void;
    const stateCopied = new Promise<boolean>((r) => (stateDone = r));
    const whole = withLock(db, from.lock, what, async () => {
      if (!(await copyState(db, from, ref.keys))) return stateDone(false);
      stateDone(true);
      await copyGraph(db, from, ref.keys);
    }, { waitMs: opts.waitMs ?? 0 });
    whole.catch((err) => {
      log.debug(`seed: ${what} not copied: ${(err as Error).message}`);
      stateDone(false);
    });
    if (await stateCopied) return { branch: base.branch, graphReady: whole };
  }
  if (candidates.length) {
    opts.warnings.push(
      `no graph of project ${
        displayName(ref.project)
      } could be copied (each busy or incomplete); indexing in full`,
    );
  }
  return undefined;
}

/** Copies a base's per-file state; false when the base is gone or its state is incomplete. */
async function copyState(db: Db, from: GraphKeys, to: GraphKeys): Promise<boolean> {
  if (!(await db.graphExists(from.graph))) return false;
  if (await db.command<number>(["EXISTS", from.pending])) return false;
  for (const key of stateKeys(from)) {
    if (!(await db.command<number>(["EXISTS", key]))) return false;
  }
  // State first, the graph last: a crash in between leaves no graph, so the next run seeds again.
  const targets = stateKeys(to);
  for (const [i, key] of stateKeys(from).entries()) await copyKey(db, key, targets[i]);
  // The base's metadata too (which project files it was resolved with); rewritten by the run.
  await copyKey(db, from.info, to.info);
  await db.command(["DEL", to.pending]);
  await db.deleteGraph(to.graph);
  return true;
}

/** GRAPH.COPY on a connection of its own: the main one stays free while the server copies. */
async function copyGraph(db: Db, from: GraphKeys, to: GraphKeys): Promise<void> {
  const own = await Db.connect(db.endpoint);
  try {
    await own.command(["GRAPH.COPY", from.graph, to.graph], WRITE_TIMEOUT_MS);
  } finally {
    await own.close();
  }
}

/** `COPY` within a shard; a hash copied field by field where COPY cannot (keys on two shards). */
async function copyKey(db: Db, from: string, to: string): Promise<void> {
  try {
    await db.command(["COPY", from, to, "REPLACE"], WRITE_TIMEOUT_MS);
    return;
  } catch (err) {
    log.debug(`seed: COPY ${from} failed (${(err as Error).message}); copying field by field`);
  }
  await db.command(["DEL", to]);
  let cursor = "0";
  do {
    const [next, flat] = await db.command<[string, string[]]>([
      "HSCAN",
      from,
      cursor,
      "COUNT",
      "500",
    ]);
    const fields: Record<string, string> = {};
    for (let i = 0; i < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
    if (flat.length) await db.hashSet(to, fields);
    cursor = String(next);
  } while (cursor !== "0");
}
