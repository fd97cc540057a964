/**
 * What an index run starts from: the last run's hashes and stat cache (cheap), its facts and edge
 * digests (loaded when code changed), or all of it kept in memory by a long-lived process
 * (resident: also the walk and the resolver's structure, so a watched edit reloads and rebuilds
 * nothing).
 */
import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";
import { decodeAll, type FactsLayout, loadFacts as loadStored } from "./facts_store.ts";
import { languageByName } from "../lang/registry.ts";
import type { ProjectRef } from "../project/identity.ts";
import { keepWalk, type KeptWalk } from "./kept_walk.ts";
import { withLock } from "./lock.ts";
import { readManifests } from "./manifests.ts";
import { Structure } from "./resolve/mod.ts";
import { walkRepository } from "./walk.ts";

/**
 * What a graph holds beyond what earlier versions wrote (2: File.uses and Package nodes, for
 * cross-project answers; 3: facts stored in packed segments, edge digests that cover every edge
 * property; 4: edge digests taken of the stored edge list): a graph written before is indexed in
 * full once, since an incremental run rewrites only the files that changed.
 */
export const GRAPH_SCHEMA = "4";

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
      // Every file's facts whole, the tree's listing and the resolver's structure too: the first
      // watched edit then decodes, walks and builds nothing.
      decodeAll(previous.facts.values());
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
  // Corrupt: the next run that changes code finds it and re-indexes in full.
  const stored = await loadStored(db, ref.keys.facts, hashes).catch(() => undefined);
  return [...stored?.facts.values() ?? []];
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
  /** Which stored segment holds each file's facts (see facts_store.ts). */
  layout?: FactsLayout;
}

/** The last run's facts and edge digests, or undefined when this run must be full (and why). */
export async function loadPrevious(
  db: Db,
  ref: ProjectRef,
  prior: PriorState,
  warnings: string[],
): Promise<PreviousState | undefined> {
  const { hashes, stat } = prior;
  const corrupt = () => {
    warnings.push("the stored hash map or facts cache is missing or corrupt; re-indexing in full");
    return undefined;
  };
  const [stored, edgeDigests] = await Promise.all([
    loadStored(db, ref.keys.facts, hashes).catch(() => undefined),
    db.hashGetAll(ref.keys.edges),
  ]);
  if (!stored || stored.facts.size !== hashes.size) return corrupt();
  for (const [path, hash] of hashes) {
    const f = stored.facts.get(path);
    if (!f || f.hash !== hash || !Array.isArray(f.defs)) return corrupt();
  }
  if ([...hashes.keys()].some((p) => edgeDigests[p] === undefined)) {
    warnings.push("the stored edge cache is missing or incomplete; re-indexing in full");
    return undefined;
  }
  return {
    hashes,
    facts: stored.facts,
    edgeDigests,
    stat,
    manifestDigest: prior.manifestDigest,
    layout: stored.layout,
  };
}
