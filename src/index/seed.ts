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
import { respCommands } from "../db/resp.ts";
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
  if (graphs.length < 2) return graphs;
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
  /**
   * Settles once the edge lists are copied (the largest part of the state, copied last: the run
   * reads and writes them only once it has resolved). Rejects as graphReady does.
   */
  listsReady: Promise<void>;
}

/**
 * Copies the closest base graph and its state to `ref`'s keys (which must not hold a graph yet).
 * The base's index lock is held until the copy is complete, so a base being re-indexed is never
 * copied half written. The graph copy is started first (it is the long part: the server forks,
 * dumps and loads the graph and builds its indexes), then the state is copied meanwhile. Returns
 * once the state is copied (see Seed), or undefined when nothing suitable exists (the caller
 * indexes in full).
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
    let listsDone!: () => void;
    const listsCopied = new Promise<void>((r) => (listsDone = r));
    const t0 = performance.now();
    const since = () => `${Math.round(performance.now() - t0)} ms`;
    const whole = withLock(db, from.lock, what, async () => {
      if (!(await copyable(db, from))) return stateDone(false);
      log.debug(`seed: copying ${what} (lock held after ${since()})`);
      // A crash before the state is whole leaves a graph without it: the next run indexes in
      // full, and a run that reads it half copied finds it incomplete and does so too.
      await db.command(["DEL", ...stateKeys(ref.keys), ref.keys.pending]);
      await db.deleteGraph(ref.keys.graph);
      // The state is copied once the graph copy is sent: the server's main thread then copies
      // the state while the copy's fork dumps the graph (not before the fork, which waits for it).
      let sent!: () => void;
      const commandSent = new Promise<void>((r) => (sent = r));
      const graph = copyGraph(db, from, ref.keys, sent);
      graph.catch(() => {}).finally(sent); // awaited below
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([commandSent, new Promise((r) => (timer = setTimeout(r, 250)))]);
      clearTimeout(timer);
      try {
        await copyState(db, from, ref.keys);
      } catch (err) {
        stateDone(false);
        await graph.catch(() => {});
        throw err;
      }
      log.debug(`seed: state copied after ${since()}`);
      stateDone(true);
      await copyKey(db, from.edgeLists, ref.keys.edgeLists);
      listsDone();
      await graph;
      log.debug(`seed: graph copied after ${since()}`);
    }, { waitMs: opts.waitMs ?? 0 });
    whole.catch((err) => {
      log.debug(`seed: ${what} not copied: ${(err as Error).message}`);
      stateDone(false);
    });
    if (await stateCopied) {
      return {
        branch: base.branch,
        graphReady: whole,
        listsReady: Promise.race([listsCopied, whole]),
      };
    }
    // The graph copy may still be running: the next candidate's copy would fail on its name.
    await whole.catch(() => {});
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

/** Whether a base can be copied: its graph exists, no run of it was interrupted, its state is whole. */
async function copyable(db: Db, from: GraphKeys): Promise<boolean> {
  if (!(await db.graphExists(from.graph))) return false;
  if (await db.command<number>(["EXISTS", from.pending])) return false;
  for (const key of stateKeys(from)) {
    if (!(await db.command<number>(["EXISTS", key]))) return false;
  }
  return true;
}

/**
 * Copies a base's per-file state but its edge lists (copied next, see Seed.listsReady), and its
 * metadata (which project files it was resolved with).
 */
async function copyState(db: Db, from: GraphKeys, to: GraphKeys): Promise<void> {
  for (const key of ["files", "facts", "edges", "info"] as const) {
    await copyKey(db, from[key], to[key]);
  }
}

/**
 * GRAPH.COPY on a connection of its own: the main one stays free while the server copies. The
 * server forks to dump the graph; while another child of it runs (a background save, an AOF
 * rewrite) its fork is refused and retried in a loop, which some FalkorDB versions do not survive
 * (the server stops answering): the copy is asked for once no such child runs. The connection is
 * a bare one (AUTH, then the copy): a client's set-up costs more than the copy's round trip.
 */
async function copyGraph(
  db: Db,
  from: GraphKeys,
  to: GraphKeys,
  sent: () => void,
): Promise<void> {
  if (db.isCluster) {
    sent();
    const own = await Db.connect(db.endpoint);
    try {
      await own.command(["GRAPH.COPY", from.graph, to.graph], WRITE_TIMEOUT_MS);
    } finally {
      await own.close();
    }
    return;
  }
  await noChildRunning(db);
  log.debug("seed: GRAPH.COPY sent");
  const ep = db.endpoint;
  const auth = ep.password
    ? [ep.username ? ["AUTH", ep.username, ep.password] : ["AUTH", ep.password]]
    : [];
  const replies = await respCommands(
    ep,
    [...auth, ["GRAPH.COPY", from.graph, to.graph]],
    WRITE_TIMEOUT_MS,
    sent,
  );
  for (const r of replies) if (r instanceof Error) throw r;
}

/** Waits (up to 30 s) until the server runs no background save, AOF rewrite or module fork. */
async function noChildRunning(db: Db): Promise<void> {
  const until = Date.now() + 30_000;
  for (let pause = 5; Date.now() < until; pause = Math.min(pause * 2, 100)) {
    let info: string;
    try {
      info = String(await db.command(["INFO", "persistence"]));
    } catch {
      return; // INFO refused (a restricted user): copy at once
    }
    if (!/^(rdb_bgsave|aof_rewrite|module_fork)_in_progress:1/m.test(info)) return;
    log.debug("seed: the server runs a background save; the copy waits for it");
    await new Promise((r) => setTimeout(r, pause));
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
