/**
 * The two kinds of index run once the tree is read: full (everything parsed and resolved, written
 * to a staging graph renamed over the live one) and incremental (changed files parsed, the files
 * an edit can affect re-resolved over the kept or rebuilt structure, exactly the edges whose
 * resolution changed rewritten).
 */

import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";
import { type Edge, fileNode } from "../graph/model.ts";
import { languageByName } from "../lang/registry.ts";
import { log } from "../log.ts";
import type { ProjectRef } from "../project/identity.ts";
import { affectedFiles } from "./affected.ts";
import { edgeCache, edgeLists, pick } from "./graph_info.ts";
import type { IndexSummary, Progress } from "./summary.ts";
import type { Manifests } from "./manifests.ts";
import { analyzeParallel } from "./pool.ts";
import { runPostIndexSteps } from "./post_index.ts";
import { isFinal, resolveSteps, resolveWith, Structure } from "./resolve/mod.ts";
import { providedPackages, writePackages } from "./packages.ts";
import type { ReadFile } from "./scan.ts";
import { EdgeStream, StagingStream } from "./staging.ts";
import { factsText, type PreviousState } from "./state.ts";
import { GraphWriter } from "./writer.ts";

/** Files per slice when the facts and edge caches are written. */
const CACHE_SLICE = 500;

export async function full(
  db: Db,
  ref: ProjectRef,
  read: ReadFile[],
  summary: IndexSummary,
  progress: (p: Progress) => void,
  mark: (phase: string) => void,
  manifests: Manifests,
  listed: readonly string[],
): Promise<PreviousState> {
  const caches = [ref.keys.files, ref.keys.facts, ref.keys.edges, ref.keys.edgeLists];
  const staged = caches.map((k) => `${k}~staging`);
  // Files, symbols, hashes and facts are written while parsing goes on (see staging.ts).
  const stream = new StagingStream(db, ref.keys.staging, staged[0], staged[1], staged);
  const facts = await analyze(read, summary, progress, (f, json) => stream.add(f, json), true);
  summary.files.added = facts.map((f) => f.path);
  mark("parse");
  progress({ phase: "resolve", done: 0, total: 1 });
  const structure = Structure.build(facts, languageByName, manifests.texts);
  // Calls and imports are written while the next files are resolved (the database works on the
  // other core), once every node is: the staging stream finishes first.
  const writer = new GraphWriter(db, ref.keys.staging);
  const early = new EdgeStream(stream.finish(), (edges) => writer.edges(edges));
  // Only the edges are kept: the resolver (its memo tables, scopes and symbol lists) goes once
  // this returns, and the structure says which file a node belongs to.
  const edges = await resolveStreamed(structure, early);
  const resolution = { edges, pathOf: (id: string) => structure.pathOf(id) };
  mark("resolve");

  progress({ phase: "write", done: 0, total: 3 });
  await early.finish();
  progress({ phase: "write", done: 1, total: 3 });
  const structural: Edge[] = [];
  for (const list of edges.values()) for (const e of list) if (!isFinal(e)) structural.push(e);
  await writer.edges(structural);
  structural.length = 0;
  await writePackages(db, ref.keys.staging, providedPackages(facts, structure.repo), true);
  progress({ phase: "write", done: 2, total: 3 });
  await runPostIndexSteps({
    db,
    graph: ref.keys.staging,
    root: ref.root,
    facts,
    codeUnchanged: false,
    paths: listed,
  });
  // Edge lists are large (tens of MB on 10,000 files): serialised and written a slice at a time,
  // each slice's edges dropped once written (a file's digest and list read its own edges only).
  const edgeDigests: Record<string, string> = {};
  for (let i = 0; i < facts.length; i += CACHE_SLICE) {
    const paths = facts.slice(i, i + CACHE_SLICE).map((f) => f.path);
    await db.hashSet(staged[3], edgeLists(resolution, paths));
    const digests = edgeCache(resolution, paths).digests;
    await db.hashSet(staged[2], digests);
    Object.assign(edgeDigests, digests);
    for (const p of paths) edges.delete(p);
  }
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
    structure,
  };
}

/**
 * Resolves every file over `structure`, handing each file's final edges (calls, imports) to
 * `stream` as they come; returns every file's edges (the resolver itself is not kept).
 */
async function resolveStreamed(structure: Structure, stream: EdgeStream) {
  const steps = resolveSteps(structure);
  let step = steps.next();
  for (; !step.done; step = steps.next()) await stream.add(step.value);
  return step.value.edges;
}

export async function incremental(
  db: Db,
  ref: ProjectRef,
  current: Map<string, ReadFile>,
  previous: PreviousState,
  summary: IndexSummary,
  progress: (p: Progress) => void,
  mark: (phase: string) => void,
  graphReady: () => Promise<void>,
  manifests: Manifests,
  listed: readonly string[],
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
      paths: listed,
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
  const edited = [...gone, ...freshPaths];
  const touchedOf = (path: string) => {
    const digest = previous.edgeDigests[path];
    // Most files touch no edited file: a substring test spares splitting every digest.
    if (!digest || !edited.some((p) => digest.includes(p))) return [];
    return (digest.split("\t")[1] ?? "").split("\n").filter(Boolean);
  };
  const names = previous.structure?.defNames;
  const only = manifestsChanged ? undefined : affectedFiles(
    previous.facts,
    nextFacts,
    new Set(edited),
    touchedOf,
    names && ((name) => names.has(name)),
    (f) => factsText.get(f),
  );
  // The structure kept from the last run is patched with the changed files (the set of files is
  // the same when `only` is known); else it is built from every file's facts.
  let structure = previous.structure;
  if (!only || !structure?.patch(fresh)) {
    structure = Structure.build([...nextFacts.values()], languageByName, manifests.texts);
  }
  const after = resolveWith(structure, only);

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
  const packages = providedPackages([...nextFacts.values()], structure.repo);
  await writePackages(db, ref.keys.graph, packages, false);
  progress({ phase: "write", done: 3, total: 4 });
  await runPostIndexSteps({
    db,
    graph: ref.keys.graph,
    root: ref.root,
    facts: nextFacts.values(),
    codeUnchanged: false,
    paths: listed,
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
    structure,
  };
}

async function analyze(
  files: ReadFile[],
  summary: IndexSummary,
  progress: (p: Progress) => void,
  onFacts?: (facts: FileFacts, json?: string) => void,
  release = false,
): Promise<FileFacts[]> {
  const facts = await analyzeParallel(
    files,
    summary.files.skipped,
    (done) => progress({ phase: "parse", done, total: files.length }),
    onFacts,
    release,
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
