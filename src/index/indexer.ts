/**
 * Indexing a (project, branch): full or incremental, with the guarantees agents rely on.
 *
 * - Full: builds into a staging graph and renames it over the live one, so readers never see a
 *   half-built graph and a crash leaves the previous graph in place.
 * - Incremental (default once a graph exists): hashes every file, re-analyzes only what changed,
 *   re-resolves the whole repository in memory from cached facts, and rewrites exactly the edges
 *   whose resolution changed, so the result equals a full index of the same tree.
 * - The hash map and facts cache are written only after the graph; a run interrupted mid-way leaves
 *   a marker that makes the next run full.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import * as Q from "../db/cypher.ts";
import * as R from "../db/queries.ts";
import { languageByName } from "../lang/registry.ts";
import { log } from "../log.ts";
import { bindProject } from "../project/catalog.ts";
import { evictBeyondCap, maxGraphsFromEnv } from "../project/retention.ts";
import type { ProjectRef } from "../project/identity.ts";
import { VERSION } from "../version.ts";
import type { FileFacts } from "../graph/facts.ts";
import { affectedFiles } from "./affected.ts";
import { withLock } from "./lock.ts";
import { runPostIndexSteps } from "./post_index.ts";
import { type Seed, startSeed } from "./seed.ts";
import { type Edge, fileNode } from "../graph/model.ts";
import { analyzeParallel } from "./pool.ts";
import { type Resolution, resolveAll } from "./resolve/mod.ts";
import { type Manifests, readManifests } from "./manifests.ts";
import { readCandidates, type ReadFile } from "./scan.ts";
import { nextStatCache, statLookup } from "./stat_cache.ts";
import { type Skipped, walkRepository } from "./walk.ts";
import { GraphWriter } from "./writer.ts";
import { StagingStream } from "./staging.ts";

export type IndexMode = "full" | "incremental";

/** The copy of a base graph failed: the run falls back to a full index. */
class SeedFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Files per slice when the facts and edge caches are written. */
const CACHE_SLICE = 500;

export interface Progress {
  phase: "scan" | "parse" | "resolve" | "write" | "done";
  done: number;
  total: number;
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
}

/** How long a new branch waits for its base graph's indexer before indexing in full. */
const SEED_WAIT_MS = 30_000;

export interface IndexSummary {
  project: string;
  branch: string;
  graph: string;
  root: string;
  commit?: string;
  mode: IndexMode;
  /** A new branch's first run: the branch whose graph it started from (copied, then updated). */
  seededFrom?: string;
  /** Branches of the project whose graphs were dropped to keep it within its cap (LRU). */
  evicted?: string[];
  files: {
    scanned: number;
    added: string[];
    modified: string[];
    deleted: string[];
    unchanged: number;
    /** Files read and hashed (the rest the stat cache vouched for). */
    hashed: number;
    skipped: Skipped[];
    unsupported: number;
    parseErrors: number;
    /** Files with syntax errors and the lines the largest errors swallowed (`a.ts:12-80`). */
    syntaxErrors: string[];
    /** Files whose syntax errors cost definitions outside the erroneous lines (`a.ts (3)`). */
    lostDefinitions?: string[];
  };
  symbols: Record<string, number>;
  edges: Record<string, number>;
  durationMs: number;
  filesPerSecond: number;
  /** Milliseconds per phase (scan, load, parse, resolve, write, meta). */
  timings: Record<string, number>;
  warnings: string[];
}

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
  const walk = await walkRepository(ref.root);
  const skipped = walk.skipped;
  const manifests = await readManifests(ref.root, walk.manifests);
  const timings: Record<string, number> = {};
  let lap = started;
  const mark = (phase: string) => {
    const now = performance.now();
    timings[phase] = Math.round((timings[phase] ?? 0) + now - lap);
    lap = now;
  };
  mark("scan");

  const seed: Seed | undefined = await seeding;
  if (seeding) mark("copy");
  let prior = await priorState(db, ref, opts, warnings, seed !== undefined);
  mark("load");
  // The graph must be whole before anything is written to it.
  const graphReady = seed
    ? () => seed.graphReady.catch((err) => Promise.reject(new SeedFailed(err)))
    : () => Promise.resolve();
  const readAt = Date.now();
  const walkSkipped = skipped.length;
  let read = await readCandidates(
    walk.files,
    skipped,
    prior ? statLookup(prior.stat, prior.hashes) : undefined,
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
        graphReady,
        manifests,
      );
    } catch (err) {
      // The graph could not be copied (nothing was written yet): a full index instead.
      if (!(err instanceof SeedFailed)) throw err;
      warnings.push(
        `copying branch ${seed?.branch}'s graph failed (${err.message}); indexed in full`,
      );
      Object.assign(summary, { mode: "full", seededFrom: undefined });
      Object.assign(summary.files, { added: [], modified: [], deleted: [], unchanged: 0 });
      Object.assign(summary.files, { parseErrors: 0, syntaxErrors: [], lostDefinitions: [] });
      state = await full(db, ref, read, summary, progress, mark, manifests);
    }
  } else state = await full(db, ref, read, summary, progress, mark, manifests);

  // The stat cache: files read (or vouched for) and settled, for the paths the graph holds.
  const stat = nextStatCache(read, (p) => state.hashes.has(p), prior?.stat ?? new Map(), readAt);
  if (stat.del.length) await db.command(["HDEL", ref.keys.stat, ...stat.del]);
  if (Object.keys(stat.set).length) await db.hashSet(ref.keys.stat, stat.set);
  state.stat = stat.entries;

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
    residents.set(ref.keys.graph, { ...state, generation });
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

/** What a long-lived process keeps per graph between runs (opts.resident). */
interface Resident extends PreviousState {
  generation: string;
}

const residents = new Map<string, Resident>();

/** Forgets what this process keeps of a graph (it was deleted or rebuilt elsewhere). */
export function dropResident(graph: string): void {
  residents.delete(graph);
}

/**
 * Loads a graph's stored state (hashes, facts, edge digests, stat cache) into memory for later
 * resident runs, so a long-lived server's first edit reloads nothing either. Under the index lock
 * (skipped when another indexer holds it: that run leaves its own state). True when kept.
 */
export async function warmResident(db: Db, ref: ProjectRef): Promise<boolean> {
  const kept = residents.get(ref.keys.graph);
  const stored = await db.command<string | null>(["HGET", ref.keys.info, "generation"]);
  if (!stored || kept?.generation === stored) return Boolean(stored);
  try {
    return await withLock(db, ref.keys.lock, `${ref.project}:${ref.branch}`, async () => {
      const generation = await db.command<string | null>(["HGET", ref.keys.info, "generation"]);
      if (!generation || await db.command<number>(["EXISTS", ref.keys.pending])) return false;
      const hashes = new Map(Object.entries(await db.hashGetAll(ref.keys.files)));
      const stat = new Map(Object.entries(await db.hashGetAll(ref.keys.stat)));
      const manifestDigest = await db.command<string | null>([
        "HGET",
        ref.keys.info,
        "manifest_digest",
      ]) ?? undefined;
      const previous = await loadPrevious(
        db,
        ref,
        { hashes, stat, generation, manifestDigest },
        [],
      );
      if (!previous) return false;
      residents.set(ref.keys.graph, { ...previous, generation });
      return true;
    });
  } catch {
    return false; // another indexer holds the lock
  }
}

/** The cheap part of the last run's state: hashes and stat cache (or all of it, when resident). */
interface PriorState {
  hashes: Map<string, string>;
  stat: Map<string, string>;
  generation?: string;
  /** Digest of the project files the last run resolved with (see manifests.ts). */
  manifestDigest?: string;
  /** The whole state, kept in memory by this process and still current in the database. */
  resident?: Resident;
}

/** The last run's hashes and stat cache, or undefined when this run must be full (and why). */
async function priorState(
  db: Db,
  ref: ProjectRef,
  opts: IndexOptions,
  warnings: string[],
  seeded: boolean,
): Promise<PriorState | undefined> {
  if (opts.full) return undefined;
  // A seeded graph is still being copied: its state is already there.
  const exists = seeded || (await db.graphExists(ref.keys.graph));
  if (!exists) return undefined;
  if (await db.command<number>(["EXISTS", ref.keys.pending])) {
    warnings.push("the previous incremental run was interrupted; re-indexing in full");
    return undefined;
  }
  const [storedGeneration, storedManifests] = await db.command<(string | null)[]>([
    "HMGET",
    ref.keys.info,
    "generation",
    "manifest_digest",
  ]);
  const generation = storedGeneration ?? undefined;
  const manifestDigest = storedManifests ?? undefined;
  const kept = residents.get(ref.keys.graph);
  if (opts.resident && kept && generation && kept.generation === generation) {
    return { hashes: kept.hashes, stat: kept.stat, generation, manifestDigest, resident: kept };
  }
  const hashes = new Map(Object.entries(await db.hashGetAll(ref.keys.files)));
  if (hashes.size === 0) {
    warnings.push("no file hashes stored for this graph; re-indexing in full");
    return undefined;
  }
  const stat = new Map(Object.entries(await db.hashGetAll(ref.keys.stat)));
  return { hashes, stat, generation, manifestDigest };
}

/** The stored facts of every file of `hashes` (for the post-index steps of a no-op run). */
async function loadFacts(
  db: Db,
  ref: ProjectRef,
  hashes: Map<string, string>,
): Promise<FileFacts[]> {
  const raw = await db.hashGetAll(ref.keys.facts);
  const out: FileFacts[] = [];
  for (const path of hashes.keys()) {
    try {
      if (raw[path]) out.push(JSON.parse(raw[path]) as FileFacts);
    } catch {
      // a corrupt entry: the next run that changes code finds it and re-indexes in full
    }
  }
  return out;
}

interface PreviousState {
  hashes: Map<string, string>;
  facts: Map<string, FileFacts>;
  /** Per file: `digest\ttouched paths` of the edges it owns (see edgeCache). */
  edgeDigests: Record<string, string>;
  /** The stat cache (see stat_cache.ts). */
  stat: Map<string, string>;
  /** Digest of the project files the last run resolved with (see manifests.ts). */
  manifestDigest: string | undefined;
}

/** The last run's facts and edge digests, or undefined when this run must be full (and why). */
async function loadPrevious(
  db: Db,
  ref: ProjectRef,
  prior: PriorState,
  warnings: string[],
): Promise<PreviousState | undefined> {
  const { hashes, stat } = prior;
  const rawFacts = await db.hashGetAll(ref.keys.facts);
  const facts = new Map<string, FileFacts>();
  for (const [path, hash] of hashes) {
    const raw = rawFacts[path];
    let parsed: FileFacts | undefined;
    try {
      parsed = raw ? JSON.parse(raw) as FileFacts : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.hash !== hash || !Array.isArray(parsed.defs)) {
      warnings.push(
        "the stored hash map or facts cache is missing or corrupt; re-indexing in full",
      );
      return undefined;
    }
    facts.set(path, parsed);
  }
  const edgeDigests = await db.hashGetAll(ref.keys.edges);
  if ([...hashes.keys()].some((p) => edgeDigests[p] === undefined)) {
    warnings.push("the stored edge cache is missing or incomplete; re-indexing in full");
    return undefined;
  }
  return { hashes, facts, edgeDigests, stat, manifestDigest: prior.manifestDigest };
}

async function full(
  db: Db,
  ref: ProjectRef,
  read: ReadFile[],
  summary: IndexSummary,
  progress: (p: Progress) => void,
  mark: (phase: string) => void,
  manifests: Manifests,
): Promise<PreviousState> {
  const caches = [ref.keys.files, ref.keys.facts, ref.keys.edges, ref.keys.edgeLists];
  const staged = caches.map((k) => `${k}~staging`);
  // Files, symbols, hashes and facts are written while parsing goes on (see staging.ts).
  const stream = new StagingStream(db, ref.keys.staging, staged[0], staged[1], staged);
  const facts = await analyze(read, summary, progress, (f) => stream.add(f));
  summary.files.added = facts.map((f) => f.path);
  mark("parse");
  progress({ phase: "resolve", done: 0, total: 1 });
  const resolution = resolveAll(facts, languageByName, undefined, manifests.texts);
  mark("resolve");

  progress({ phase: "write", done: 0, total: 3 });
  await stream.finish();
  const writer = new GraphWriter(db, ref.keys.staging);
  progress({ phase: "write", done: 1, total: 3 });
  await writer.edges([...resolution.edges.values()].flat());
  progress({ phase: "write", done: 2, total: 3 });
  await runPostIndexSteps({
    db,
    graph: ref.keys.staging,
    root: ref.root,
    facts,
    codeUnchanged: false,
  });
  // Edge lists are large (tens of MB on 10,000 files): serialised a slice at a time.
  for (let i = 0; i < facts.length; i += CACHE_SLICE) {
    const slice = facts.slice(i, i + CACHE_SLICE);
    await db.hashSet(staged[3], edgeLists(resolution, slice.map((f) => f.path)));
  }
  const edgeDigests = edgeCache(resolution, facts.map((f) => f.path)).digests;
  await db.hashSet(staged[2], edgeDigests);
  // The swap: the graph first (readers see old or new, never half), then its hashes and facts.
  await db.command(["RENAME", ref.keys.staging, ref.keys.graph]);
  await db.command(["DEL", ...caches, ref.keys.stat, ref.keys.pending]);
  if (facts.length) {
    for (let i = 0; i < caches.length; i++) await db.command(["RENAME", staged[i], caches[i]]);
  }
  mark("write");
  return {
    hashes: new Map(facts.map((f) => [f.path, f.hash])),
    facts: new Map(facts.map((f) => [f.path, f])),
    edgeDigests,
    stat: new Map(),
    manifestDigest: manifests.digest,
  };
}

async function incremental(
  db: Db,
  ref: ProjectRef,
  current: Map<string, ReadFile>,
  previous: PreviousState,
  summary: IndexSummary,
  progress: (p: Progress) => void,
  mark: (phase: string) => void,
  graphReady: () => Promise<void>,
  manifests: Manifests,
): Promise<PreviousState> {
  // Project files changed (or the last run did not record them): every file is re-resolved.
  const manifestsChanged = previous.manifestDigest !== manifests.digest;
  const added: ReadFile[] = [];
  const modified: ReadFile[] = [];
  for (const [path, file] of current) {
    const old = previous.hashes.get(path);
    if (old === undefined) added.push(file);
    else if (old !== file.hash) modified.push(file);
  }
  const deleted = [...previous.hashes.keys()].filter((p) => !current.has(p));
  summary.files.unchanged = current.size - added.length - modified.length;
  if (!added.length && !modified.length && !deleted.length && !manifestsChanged) {
    await graphReady();
    mark("copy");
    await runPostIndexSteps({
      db,
      graph: ref.keys.graph,
      root: ref.root,
      facts: previous.facts.values(),
      codeUnchanged: true,
    });
    return previous;
  }

  const fresh = await analyze([...added, ...modified], summary, progress);
  mark("parse");
  const freshPaths = new Set(fresh.map((f) => f.path));
  summary.files.added = added.map((f) => f.candidate.path).filter((p) => freshPaths.has(p));
  summary.files.modified = modified.map((f) => f.candidate.path);
  summary.files.deleted = deleted;
  // A modified file that no longer parses at all counts as deleted from the graph.
  const gone = new Set([
    ...deleted,
    ...modified.map((f) => f.candidate.path).filter((p) => !freshPaths.has(p)),
  ]);

  const nextFacts = new Map(previous.facts);
  for (const p of gone) nextFacts.delete(p);
  for (const f of fresh) nextFacts.set(f.path, f);
  progress({ phase: "resolve", done: 0, total: 1 });
  // Only the files an edit can affect are re-resolved (see affected.ts); the rest keep their edges.
  const touchedOf = (path: string) =>
    (previous.edgeDigests[path]?.split("\t")[1] ?? "").split("\n").filter(Boolean);
  const only = manifestsChanged ? undefined : affectedFiles(
    previous.facts,
    nextFacts,
    new Set([...gone, ...freshPaths]),
    touchedOf,
  );
  const after = resolveAll([...nextFacts.values()], languageByName, only, manifests.texts);

  mark("resolve");
  const changed = new Set([...gone, ...freshPaths]);
  // An unchanged file's edges are rewritten when their resolution changed, or when any of them
  // touched a changed file (those were removed with the changed file's nodes).
  const candidates = [...after.resolved].filter((p) => nextFacts.has(p));
  const cache = edgeCache(after, candidates);
  log.debug(`incremental: re-resolved ${candidates.length} of ${nextFacts.size} file(s)`);
  const rewire: string[] = [];
  for (const path of candidates) {
    if (changed.has(path)) continue;
    const [oldDigest, touched = ""] = previous.edgeDigests[path].split("\t");
    const [newDigest] = cache.digests[path].split("\t");
    if (oldDigest !== newDigest || touched.split("\n").some((t) => changed.has(t))) {
      rewire.push(path);
    }
  }
  const oldLists = rewire.length
    ? await db.command<(string | null)[]>(["HMGET", ref.keys.edgeLists, ...rewire])
    : [];
  const oldEdges = oldLists.flatMap((raw) => (raw ? JSON.parse(raw) as Edge[] : []));

  await graphReady();
  mark("copy");
  progress({ phase: "write", done: 0, total: 4 });
  const writer = new GraphWriter(db, ref.keys.graph);
  await db.command(["SET", ref.keys.pending, new Date().toISOString()]);
  await writer.deleteFiles([...changed]);
  await writer.files(fresh.map(fileNode));
  await writer.symbols(fresh.flatMap((f) => after.symbols.get(f.path) ?? []));
  progress({ phase: "write", done: 1, total: 4 });
  await writer.deleteEdges(oldEdges);
  progress({ phase: "write", done: 2, total: 4 });
  await writer.edges([...freshPaths, ...rewire].flatMap((p) => after.edges.get(p) ?? []));
  progress({ phase: "write", done: 3, total: 4 });
  await runPostIndexSteps({
    db,
    graph: ref.keys.graph,
    root: ref.root,
    facts: nextFacts.values(),
    codeUnchanged: false,
  });

  if (gone.size) {
    for (const key of [ref.keys.files, ref.keys.facts, ref.keys.edges, ref.keys.edgeLists]) {
      await db.command(["HDEL", key, ...gone]);
    }
  }
  const touchedFiles = [...freshPaths, ...rewire];
  await db.hashSet(ref.keys.edges, pick(cache.digests, touchedFiles));
  await db.hashSet(ref.keys.edgeLists, edgeLists(after, touchedFiles));
  await db.hashSet(ref.keys.files, Object.fromEntries(fresh.map((f) => [f.path, f.hash])));
  await db.hashSet(
    ref.keys.facts,
    Object.fromEntries(fresh.map((f) => [f.path, JSON.stringify(f)])),
  );
  await db.command(["DEL", ref.keys.pending]);
  mark("write");
  if (rewire.length) log.debug(`incremental: rewired edges of ${rewire.length} unchanged file(s)`);
  const hashes = new Map(previous.hashes);
  const edgeDigests = { ...previous.edgeDigests };
  for (const p of gone) {
    hashes.delete(p);
    delete edgeDigests[p];
  }
  for (const f of fresh) hashes.set(f.path, f.hash);
  Object.assign(edgeDigests, pick(cache.digests, touchedFiles));
  return {
    hashes,
    facts: nextFacts,
    edgeDigests,
    stat: previous.stat,
    manifestDigest: manifests.digest,
  };
}

async function analyze(
  files: ReadFile[],
  summary: IndexSummary,
  progress: (p: Progress) => void,
  onFacts?: (facts: FileFacts) => void,
): Promise<FileFacts[]> {
  const facts = await analyzeParallel(
    files,
    summary.files.skipped,
    (done) => progress({ phase: "parse", done, total: files.length }),
    onFacts,
  );
  for (const f of facts) {
    if (f.parseErrors <= 0) continue;
    summary.files.parseErrors++;
    const where = (f.errorLines ?? []).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
    const recovered = f.recoveredDefs ? ` (${f.recoveredDefs} definitions read past it)` : "";
    summary.files.syntaxErrors.push(`${f.path}:${where.join(",")}${recovered}`);
    if (f.lostDefs) (summary.files.lostDefinitions ??= []).push(`${f.path} (${f.lostDefs})`);
  }
  return facts;
}

function edgeKey(e: Edge): string {
  return `${e.type}|${e.from}|${e.to}|${e.line ?? ""}|${e.count ?? ""}|${e.confidence ?? ""}`;
}

/**
 * Per file: a digest of the edges it owns plus the files they touch (`digest\tpath\npath`), and
 * the edges themselves as JSON. Comparing digests replaces resolving the old tree a second time.
 */
function edgeCache(res: Resolution, paths: string[]): { digests: Record<string, string> } {
  const fileOf = new Map<string, string>();
  for (const [path, symbols] of res.symbols) {
    fileOf.set(fileNode({ path } as FileFacts).id, path);
    for (const s of symbols) fileOf.set(s.id, path);
  }
  const digests: Record<string, string> = {};
  for (const path of paths) {
    const edges = res.edges.get(path) ?? [];
    const keys = edges.map(edgeKey).sort();
    const touched = new Set<string>();
    for (const e of edges) {
      for (const id of [e.from, e.to]) {
        const p = fileOf.get(id);
        if (p && p !== path) touched.add(p);
      }
    }
    const digest = createHash("sha1").update(keys.join("\n")).digest("hex");
    digests[path] = `${digest}\t${[...touched].sort().join("\n")}`;
  }
  return { digests };
}

/** The edges each of these files owns, as JSON (only for files whose edges were written). */
function edgeLists(res: Resolution, paths: string[]): Record<string, string> {
  return Object.fromEntries(paths.map((p) => [p, JSON.stringify(res.edges.get(p) ?? [])]));
}

function pick(record: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));
}

async function graphCounts(db: Db, graph: string) {
  const files = Number(
    (await db.query(graph, Q.COUNT_FILES, undefined, { readOnly: true }))[0]?.n ?? 0,
  );
  const symbols: Record<string, number> = {};
  for (const r of await db.query(graph, Q.COUNT_SYMBOLS_BY_KIND, undefined, { readOnly: true })) {
    symbols[String(r.kind)] = Number(r.n);
  }
  const edges: Record<string, number> = {};
  // One count per relationship type: grouping every edge by type(e) scans them all.
  for (const r of await db.query(graph, R.RELATIONSHIP_TYPES, undefined, { readOnly: true })) {
    const type = String(r.type);
    const rows = await db.query(graph, R.countEdgesOfType(type), undefined, { readOnly: true });
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) edges[type] = n;
  }
  return { files, symbols, edges };
}

/** Fingerprint of paths, sizes and mtimes: a cheap "has the tree changed since indexing?" check. */
export function statDigestOf(files: { path: string; size: number; mtime: number }[]): string {
  const h = createHash("sha256");
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    h.update(`${f.path}\0${f.size}\0${f.mtime}\n`);
  }
  return h.digest("hex").slice(0, 32);
}

/** The counts the last run stored, when nothing changed since (a no-op run need not count). */
async function storedCounts(
  db: Db,
  ref: ProjectRef,
): Promise<Awaited<ReturnType<typeof graphCounts>> | undefined> {
  const info = await db.hashGetAll(ref.keys.info);
  try {
    const files = Number(info.files);
    if (!info.symbols_by_kind || !info.edges_by_type || !Number.isFinite(files)) return undefined;
    return {
      files,
      symbols: JSON.parse(info.symbols_by_kind) as Record<string, number>,
      edges: JSON.parse(info.edges_by_type) as Record<string, number>,
    };
  } catch {
    return undefined;
  }
}

async function writeInfo(
  db: Db,
  ref: ProjectRef,
  s: IndexSummary,
  files: number,
  manifestDigest: string,
  digest: string,
  generation: string,
) {
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  await db.command(["DEL", ref.keys.info]);
  await db.hashSet(ref.keys.info, {
    root: ref.root,
    branch: ref.branch,
    project: ref.project,
    commit: ref.commit ?? "",
    indexed_at: new Date().toISOString(),
    last_used: new Date().toISOString(),
    version: VERSION,
    mode: s.mode,
    files: String(files),
    symbols: String(sum(s.symbols)),
    edges: String(sum(s.edges)),
    symbols_by_kind: JSON.stringify(s.symbols),
    edges_by_type: JSON.stringify(s.edges),
    stat_digest: digest,
    manifest_digest: manifestDigest,
    generation,
  });
}
