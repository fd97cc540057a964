/**
 * Indexing a (project, branch): full or incremental, with the guarantees agents rely on.
 *
 * - Full: builds into a staging graph and renames it over the live one, so readers never see a
 *   half-built graph and a crash leaves the previous graph in place.
 * - Incremental (default once a graph exists): hashes every file whose stat changed, re-analyzes
 *   only what changed, re-resolves the files an edit can affect (affected.ts) over the
 *   repository's structure (built from cached facts, or kept and patched by a long-lived process:
 *   resolve/structure.ts, state.ts), and rewrites exactly the edges whose resolution changed, so
 *   the result equals a full index of the same tree (runs.ts).
 * - The hash map and facts cache are written only after the graph; a run interrupted mid-way leaves
 *   a marker that makes the next run full.
 */
import type { Db } from "../db/client.ts";
import { log } from "../log.ts";
import { bindProject } from "../project/catalog.ts";
import { evictBeyondCap, maxGraphsFromEnv } from "../project/retention.ts";
import type { ProjectRef } from "../project/identity.ts";
import { graphCounts, storedCounts, writeInfo } from "./graph_info.ts";
import { keepWalk, updateWalk } from "./kept_walk.ts";
import { withLock } from "./lock.ts";
import { readManifests } from "./manifests.ts";
import { runPostIndexSteps } from "./post_index.ts";
import { full, incremental } from "./runs.ts";
import { readCandidates, type ReadFile } from "./scan.ts";
import { type Seed, startSeed } from "./seed.ts";
import { loadFacts, loadPrevious, type PreviousState, priorState, residents } from "./state.ts";
import { nextStatCache, statLookup } from "./stat_cache.ts";
import { statDigestOf, walkRepository } from "./walk.ts";
import { prepareWorkers, releaseWorkers, workersAhead } from "./pool.ts";
import { takeCensus } from "./prestart.ts";
import { toolsFor } from "../lang/parser.ts";

export { dropResident, isListed, warmResident } from "./state.ts";
export type { IndexMode, IndexSummary, Progress } from "./summary.ts";
import type { IndexSummary, Progress } from "./summary.ts";
import { decodeAll } from "./facts_store.ts";

/** The copy of a base graph failed: the run falls back to a full index. */
class SeedFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export interface IndexOptions {
  full?: boolean;
  onProgress?: (p: Progress) => void;
  /** How long to wait for another indexer of the same graph (default 0: fail at once). */
  waitMs?: number;
  /** Lines about the lock: who holds it while waiting, a takeover from a dead holder. */
  onLock?: (message: string) => void;
  /** Graphs a project keeps, least recently used dropped first (default: the environment's). */
  maxGraphs?: number;
  /**
   * Keep this graph's hashes, facts and edge digests in memory after the run, and start the next
   * run from them while the database still holds the generation they describe (a long-lived
   * server): an edit then reloads nothing from the database.
   */
  resident?: boolean;
  /**
   * With `resident`: the paths (relative) file events say changed since the last run. Only those
   * are stat-ed again when nothing else can have changed (see kept_walk.ts); else the tree is
   * walked in full.
   */
  changed?: string[];
}

/** How long a new branch waits for its base graph's indexer before indexing in full. */
const SEED_WAIT_MS = 30_000;

export async function indexProject(
  db: Db,
  ref: ProjectRef,
  opts: IndexOptions = {},
): Promise<IndexSummary> {
  await bindProject(db, ref);
  const what = `${ref.project}:${ref.branch}`;
  const cap = opts.maxGraphs ?? maxGraphsFromEnv();
  const summary = await withLock(db, ref.keys.lock, what, () => run(db, ref, opts), {
    waitMs: opts.waitMs,
    onWait: opts.onLock,
  });
  const evicted = await evictBeyondCap(db, ref.project, ref.branch, cap);
  if (evicted.length) summary.evicted = evicted;
  return summary;
}

async function run(db: Db, ref: ProjectRef, opts: IndexOptions): Promise<IndexSummary> {
  try {
    return await runLocked(db, ref, opts);
  } catch (err) {
    // What this process kept may no longer match the database: the next run reloads it.
    residents.delete(ref.keys.graph);
    throw err;
  } finally {
    releaseWorkers(); // parse workers started for a run that took another way
  }
}

async function runLocked(db: Db, ref: ProjectRef, opts: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const progress = opts.onProgress ?? (() => {});
  const warnings: string[] = [];
  progress({ phase: "scan", done: 0, total: 0 });
  // A new branch starts from a copy of the closest graph of its project, then only the
  // difference is indexed (inside the indexer's entry, so every caller gets it). The copy runs
  // while the tree is scanned.
  const seeding = !opts.full && !(await db.graphExists(ref.keys.graph))
    ? startSeed(db, ref, { waitMs: SEED_WAIT_MS, warnings })
    : undefined;
  seeding?.catch(() => {}); // awaited below; a scan that throws first must not leave it unhandled
  // A watched edit: the walk kept from the last run, updated with the paths the events named.
  const kept = opts.resident && opts.changed?.length ? residents.get(ref.keys.graph) : undefined;
  const targeted = kept?.walk && updateWalk(ref.root, kept.walk, opts.changed!);
  // `index --full` walked the tree already while the CLI loaded (prestart.ts): that census is the walk.
  let walk = targeted
    ? targeted.walk
    : (opts.full && await takeCensus(ref.root)) || await walkRepository(ref.root);
  // Every file will be parsed: the workers start now and load the languages found while the
  // files are read (`index --full` started them already). A new branch copied from a base parses
  // what differs from it, usually a few files (parsed in this thread, see pool.ts): its workers
  // start only if nothing could be copied.
  if (opts.full) prepareWorkers(walk.files);
  else {seeding?.then((seed) =>
      seed || prepareWorkers(walk.files), () =>
      prepareWorkers(walk.files));}
  let manifests = targeted
    ? targeted.kept.manifests
    : await readManifests(ref.root, walk.manifests);
  let keptWalk = targeted ? targeted.kept : keepWalk(walk, manifests);
  if (targeted) log.debug(`index: walk kept, ${opts.changed!.length} path(s) stat-ed again`);
  const timings: Record<string, number> = {};
  let lap = started;
  const mark = (phase: string) => {
    const now = performance.now();
    timings[phase] = Math.round((timings[phase] ?? 0) + now - lap);
    lap = now;
    // Where the memory goes on a large run (`CGRAPH_LOG=debug`): the heap at each phase's end.
    log.debug(`${phase} done: ${memoryNow()}`);
  };
  mark("scan");

  const seed: Seed | undefined = await seeding;
  if (seeding) mark("seed");
  let prior = await priorState(db, ref, opts, warnings, seed !== undefined);
  if (targeted && prior?.resident !== kept) {
    // What was kept no longer describes the graph: the tree is walked after all.
    walk = await walkRepository(ref.root);
    manifests = await readManifests(ref.root, walk.manifests);
    keptWalk = keepWalk(walk, manifests);
  }
  const skipped = walk.skipped;
  mark("load");
  // The stat cache: files read (or vouched for) and settled, for the paths the graph holds. An
  // incremental run has it written before the graph (for a new branch: while the graph is still
  // being copied).
  let statWritten: Map<string, string> | undefined;
  const writeStat = async (holds: (path: string) => boolean) => {
    const stat = nextStatCache(read, holds, prior?.stat ?? new Map(), readAt);
    if (stat.del.length) await db.command(["HDEL", ref.keys.stat, ...stat.del]);
    if (Object.keys(stat.set).length) await db.hashSet(ref.keys.stat, stat.set);
    statWritten = stat.entries;
  };
  // The graph must be whole before anything is written to it (and a copied graph's edge lists
  // before they are read).
  const failed = (err: unknown) => Promise.reject(new SeedFailed(err));
  const graphReady = async (holds?: (path: string) => boolean) => {
    if (holds) await writeStat(holds);
    if (seed) await seed.graphReady.catch(failed);
  };
  const ready = {
    graph: graphReady,
    lists: async () => {
      if (seed) await seed.listsReady.catch(failed);
    },
  };
  const readAt = Date.now();
  const walkSkipped = skipped.length;
  let read = await readCandidates(
    walk.files,
    skipped,
    prior ? statLookup(prior.stat, prior.hashes) : undefined,
    prior && ((path) => prior!.hashes.get(path)),
  );
  let current = new Map(read.map((f) => [f.candidate.path, f]));
  mark("scan");

  let previous: PreviousState | undefined;
  let noop = false;
  if (prior) {
    // A copied graph goes the incremental way, which waits for the copy before writing.
    noop = !seed && prior.manifestDigest === manifests.digest &&
      !changesOf(current, prior.hashes).any;
    if (!noop) {
      // A few files to parse are parsed in this thread (pool.ts): their languages load now, while
      // the stored state is read.
      const toParse = read.filter((f) => prior!.hashes.get(f.candidate.path) !== f.hash);
      if (workersAhead(toParse.length) === 0) {
        for (const spec of new Set(toParse.map((f) => f.candidate.language))) {
          toolsFor(spec).catch(() => {}); // a failure shows when the file is parsed
        }
      }
      previous = prior.resident ?? await loadPrevious(db, ref, prior, warnings);
      mark("load");
      if (!previous) {
        // A full run reads every file: those the stat cache vouched for are read now.
        prior = undefined;
        skipped.length = walkSkipped;
        read = await readCandidates(walk.files, skipped);
        current = new Map(read.map((f) => [f.candidate.path, f]));
        mark("scan");
      }
    }
  }
  if (!prior) await graphReady().catch(() => {});
  const summary: IndexSummary = {
    project: ref.project,
    branch: ref.branch,
    graph: ref.keys.graph,
    root: ref.root,
    commit: ref.commit,
    mode: prior ? "incremental" : "full",
    seededFrom: previous && seed ? seed.branch : undefined,
    files: {
      scanned: read.length,
      added: [],
      modified: [],
      deleted: [],
      unchanged: 0,
      hashed: read.filter((f) => !f.cached).length,
      skipped,
      unsupported: walk.unsupported,
      parseErrors: 0,
      syntaxErrors: [],
    },
    symbols: {},
    edges: {},
    durationMs: 0,
    filesPerSecond: 0,
    timings,
    warnings,
  };

  let state: PreviousState;
  if (prior && noop) {
    summary.files.unchanged = current.size;
    const facts = prior.resident?.facts;
    await runPostIndexSteps({
      db,
      graph: ref.keys.graph,
      root: ref.root,
      facts: facts ? facts.values() : () => loadFacts(db, ref, prior!.hashes),
      codeUnchanged: true,
      paths: walk.listed,
    });
    state = prior.resident ??
      {
        hashes: prior.hashes,
        stat: prior.stat,
        manifestDigest: prior.manifestDigest,
      } as PreviousState;
  } else if (previous) {
    try {
      state = await incremental(
        db,
        ref,
        current,
        previous,
        summary,
        progress,
        mark,
        ready,
        manifests,
        walk.listed,
      );
    } catch (err) {
      // The graph could not be copied (nothing was written to it yet; what is stored beside it
      // is written anew): a full index instead.
      if (!(err instanceof SeedFailed)) throw err;
      warnings.push(
        `copying branch ${seed?.branch}'s graph failed (${err.message}); indexed in full`,
      );
      Object.assign(summary, { mode: "full", seededFrom: undefined });
      Object.assign(summary.files, { added: [], modified: [], deleted: [], unchanged: 0 });
      Object.assign(summary.files, { parseErrors: 0, syntaxErrors: [], lostDefinitions: [] });
      state = await full(db, ref, read, summary, progress, mark, manifests, walk.listed);
    }
  } else state = await full(db, ref, read, summary, progress, mark, manifests, walk.listed);

  // (A full run, a fallback from a failed copy included, drops the stat cache: written now.)
  if (!statWritten || summary.mode === "full") await writeStat((p) => state.hashes.has(p));
  state.stat = statWritten!;
  const counts = (noop ? await storedCounts(db, ref) : undefined) ??
    await graphCounts(db, ref.keys.graph);
  summary.symbols = counts.symbols;
  summary.edges = counts.edges;
  const generation = noop && prior?.generation ? prior.generation : crypto.randomUUID();
  await writeInfo(
    db,
    ref,
    summary,
    counts.files,
    manifests.digest,
    statDigestOf(read.map((f) => ({ path: f.candidate.path, size: f.size, mtime: f.mtime }))),
    generation,
  );
  if (opts.resident && state.facts) {
    // Every file's facts whole, as a resident loaded from the database has them (a full run keeps
    // them packed, their larger parts decoded only while needed): the next edit decodes nothing.
    decodeAll(state.facts.values());
    residents.set(ref.keys.graph, { ...state, generation, walk: keptWalk });
  } else residents.delete(ref.keys.graph);
  mark("meta");
  summary.durationMs = Math.round(performance.now() - started);
  summary.filesPerSecond = Math.round(read.length / Math.max(summary.durationMs / 1000, 0.001));
  progress({ phase: "done", done: read.length, total: read.length });
  return summary;
}

/** Whether any file was added, modified or deleted against the stored hashes. */
function changesOf(current: Map<string, ReadFile>, hashes: Map<string, string>): { any: boolean } {
  if (current.size !== hashes.size) return { any: true };
  for (const [path, file] of current) if (hashes.get(path) !== file.hash) return { any: true };
  return { any: false };
}

/** The heap in use and the resident set now, for debug output. */
function memoryNow(): string {
  const m = Deno.memoryUsage();
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  return `heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, rss ${mb(m.rss)}`;
}
