/**
 * What an index run starts from: the last run's hashes and stat cache (cheap), its facts and edge
 * digests (loaded when code changed), or all of it kept in memory by a long-lived process
 * (resident: also the walk and the resolver's structure, so a watched edit reloads and rebuilds
 * nothing).
 */
import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";
import { languageByName } from "../lang/registry.ts";
import type { ProjectRef } from "../project/identity.ts";
import { keepWalk, type KeptWalk } from "./kept_walk.ts";
import { withLock } from "./lock.ts";
import { readManifests } from "./manifests.ts";
import { Structure } from "./resolve/mod.ts";
import { walkRepository } from "./walk.ts";

/**
 * What a graph holds beyond what earlier versions wrote (2: File.uses and Package nodes, for
 * cross-project answers): a graph written before is indexed in full once, since an incremental
 * run rewrites only the files that changed.
 */
export const GRAPH_SCHEMA = "2";

/** What a long-lived process keeps per graph between runs (opts.resident). */
export interface Resident extends PreviousState {
  generation: string;
  /** The last run's walk (or warmResident's), updated from file events (kept_walk.ts). */
  walk?: KeptWalk;
}

export const residents = new Map<string, Resident>();

/** Whether the walk this process keeps of a graph listed a path (git lists no ignored file). */
export function isListed(graph: string, path: string): boolean {
  return residents.get(graph)?.walk?.listed.has(path) === true;
}

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
      // The tree's listing and the resolver's structure too: the first watched edit then walks
      // and builds nothing.
      const walk = await walkRepository(ref.root);
      const manifests = await readManifests(ref.root, walk.manifests);
      const structure = Structure.build(
        [...previous.facts.values()],
        languageByName,
        manifests.texts,
      );
      residents.set(ref.keys.graph, {
        ...previous,
        structure,
        generation,
        walk: keepWalk(walk, manifests),
      });
      return true;
    });
  } catch {
    return false; // another indexer holds the lock
  }
}

/** The cheap part of the last run's state: hashes and stat cache (or all of it, when resident). */
export interface PriorState {
  hashes: Map<string, string>;
  stat: Map<string, string>;
  generation?: string;
  /** Digest of the project files the last run resolved with (see manifests.ts). */
  manifestDigest?: string;
  /** The whole state, kept in memory by this process and still current in the database. */
  resident?: Resident;
}

/** The last run's hashes and stat cache, or undefined when this run must be full (and why). */
export async function priorState(
  db: Db,
  ref: ProjectRef,
  opts: { full?: boolean; resident?: boolean },
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
  const [storedGeneration, storedManifests, storedSchema] = await db.command<(string | null)[]>([
    "HMGET",
    ref.keys.info,
    "generation",
    "manifest_digest",
    "schema",
  ]);
  if ((storedSchema ?? "1") !== GRAPH_SCHEMA) {
    warnings.push("the graph was written by an earlier cgraph; re-indexing in full once");
    return undefined;
  }
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
export async function loadFacts(
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

export interface PreviousState {
  hashes: Map<string, string>;
  facts: Map<string, FileFacts>;
  /** Per file: `digest\ttouched paths` of the edges it owns (see edgeCache). */
  edgeDigests: Record<string, string>;
  /** The stat cache (see stat_cache.ts). */
  stat: Map<string, string>;
  /** Digest of the project files the last run resolved with (see manifests.ts). */
  manifestDigest: string | undefined;
  /** The resolver's structure over `facts` (kept by a long-lived process; see structure.ts). */
  structure?: Structure;
}

/**
 * The stored JSON of facts a one-shot run loaded (loadPrevious with keepText): deciding which
 * files an edit affects looks for names in it before reading the facts (affected.ts).
 */
export const factsText = new WeakMap<FileFacts, string>();

/** The last run's facts and edge digests, or undefined when this run must be full (and why). */
export async function loadPrevious(
  db: Db,
  ref: ProjectRef,
  prior: PriorState,
  warnings: string[],
  keepText = false,
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
    if (keepText) factsText.set(parsed, raw!);
  }
  const edgeDigests = await db.hashGetAll(ref.keys.edges);
  if ([...hashes.keys()].some((p) => edgeDigests[p] === undefined)) {
    warnings.push("the stored edge cache is missing or incomplete; re-indexing in full");
    return undefined;
  }
  return { hashes, facts, edgeDigests, stat, manifestDigest: prior.manifestDigest };
}
