/**
 * The two kinds of index run once the tree is read: full (everything parsed and resolved, written
 * to a staging graph renamed over the live one) and incremental (changed files parsed, the files
 * an edit can affect re-resolved over the kept or rebuilt structure, exactly the edges whose
 * resolution changed rewritten). An incremental run updates a changed file's nodes in place
 * (definitions that keep their id keep their node, and the edges other files have to it), so an
 * edit to a file many others call rewrites that file's edges, not theirs.
 */

import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";
import { type FileNode, fileNode, type SymbolNode, symbolNodes } from "../graph/model.ts";
import { languageByName } from "../lang/registry.ts";
import { log } from "../log.ts";
import type { ProjectRef } from "../project/identity.ts";
import { affectedFiles } from "./affected.ts";
import { decodeEdgeList, edgeCache, edgeLists, pick } from "./graph_info.ts";
import type { IndexSummary, Progress } from "./summary.ts";
import type { Manifests } from "./manifests.ts";
import { analyzeParallel } from "./pool.ts";
import { runPostIndexSteps } from "./post_index.ts";
import { resolveFiles, resolveWith, Structure } from "./resolve/mod.ts";
import { providedPackages, writePackages } from "./packages.ts";
import type { ReadFile } from "./scan.ts";
import { EdgeCacheStream, EdgeStream, StagingStream } from "./staging.ts";
import type { PreviousState } from "./state.ts";
import { mayMention, releaseDecoded, writeChanged } from "./facts_store.ts";
import { GraphWriter } from "./writer.ts";
import { HeapGuard } from "./heap.ts";

/** Files resolved between two looks at the heap (heap.ts). */
const HEAP_CHECK_FILES = 250;

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
  // Each file's facts are kept as their stored segment reads them back (a third of the size, the
  // larger parts decoded when read), in the order the files were read, as the parser's would be.
  await analyze(read, summary, progress, (f) => stream.add(f), true, false);
  const facts = stream.facts(read.map((f) => f.candidate.path));
  noteParseErrors(summary, facts);
  summary.files.added = facts.map((f) => f.path);
  mark("parse");
  progress({ phase: "resolve", done: 0, total: 1 });
  // The last files' nodes are written while the structure is built, and before resolution
  // starts: a write goes on only while this thread yields, which resolution does rarely.
  const nodes = stream.nodesWritten();
  nodes.catch(() => {}); // awaited below
  // What parsing left behind goes before the structure is built beside it (heap.ts).
  const heap = new HeapGuard();
  heap.boundary();
  const structure = Structure.build(facts, languageByName, manifests.texts);
  heap.boundary();
  await nodes;
  // Edges are written while the next files are resolved (the database works on the
  // other core), after the nodes they join. Each file's edge caches are computed as it is
  // resolved and written a slice at a time: no file's edges are kept.
  const writer = new GraphWriter(db, ref.keys.staging);
  // This run created every node of the staging graph: edges join them by internal id.
  const nodeId = (id: string, file: boolean) => {
    if (file) {
      const path = structure.fileIds.get(id);
      return path === undefined ? undefined : stream.nodeId(path, -1);
    }
    const def = structure.byId.get(id);
    return def && stream.nodeId(def.file.path, def.index);
  };
  const early = new EdgeStream(nodes, (edges) => writer.edgesById(edges, nodeId));
  const edgeCaches = new EdgeCacheStream(
    db,
    nodes, // (the keys are cleared before any node is written)
    staged[2],
    staged[3],
    (id) => structure.pathOf(id),
  );
  await resolveStreamed(structure, early, edgeCaches, heap);
  mark("resolve");

  progress({ phase: "write", done: 0, total: 3 });
  await early.finish();
  await stream.finish(); // the hashes and facts
  progress({ phase: "write", done: 1, total: 3 });
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
  // Files no language resolves own no edges: their caches say so.
  for (const f of facts) if (!edgeCaches.has(f.path)) await edgeCaches.add(f.path, []);
  await edgeCaches.finish();
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
    edgeDigests: edgeCaches.digests,
    stat: new Map(),
    manifestDigest: manifests.digest,
    structure,
    layout: stream.layout,
  };
}

/**
 * Resolves every file over `structure`, handing each file's edges to `stream` (to the database)
 * and to `caches` as they come. A full run resolves files in path order, so each file's edges are
 * whole when it is done (which file owns a shared structural fact is known by then): neither the
 * resolver nor any file's edges are kept.
 */
async function resolveStreamed(
  structure: Structure,
  stream: EdgeStream,
  caches: EdgeCacheStream,
  heap: HeapGuard,
): Promise<void> {
  let resolved = 0;
  for (const { path, edges } of resolveFiles(structure)) {
    if (++resolved % HEAP_CHECK_FILES === 0) heap.check();
    await caches.add(path, edges);
    // Its calls, imports, inheritance and hints, decoded to resolve it, are dropped again (as
    // read back from a segment; see staging.ts): another file rarely reads them.
    releaseDecoded(structure.files.get(path)!);
    await stream.add(edges);
  }
}

export async function incremental(
  db: Db,
  ref: ProjectRef,
  current: Map<string, ReadFile>,
  previous: PreviousState,
  summary: IndexSummary,
  progress: (p: Progress) => void,
  mark: (phase: string) => void,
  ready: {
    /** The graph can be written (a new branch's copy is whole); writes the stat cache first. */
    graph: (holds?: (path: string) => boolean) => Promise<void>;
    /** The edge lists can be read and written (a new branch's are copied). */
    lists: () => Promise<void>;
  },
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
    await ready.graph();
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
  // The structure kept from the last run is patched with the changed files below, once the files
  // to re-resolve are known (the set of files is the same then); else it is built from every
  // file's facts now, and tells which names are defined.
  let structure = previous.structure;
  if (!structure) {
    structure = Structure.build([...nextFacts.values()], languageByName, manifests.texts);
  }
  // Only the files an edit can affect are re-resolved (see affected.ts); the rest keep their edges.
  const edited = [...gone, ...freshPaths];
  const touchedOf = (path: string) => {
    const digest = previous.edgeDigests[path];
    // Most files touch no edited file: a substring test spares splitting every digest.
    if (!digest || !edited.some((p) => digest.includes(p))) return [];
    return (digest.split("\t")[1] ?? "").split("\n").filter(Boolean);
  };
  // Names defined anywhere before or after the edit: those of the structure (before the edit
  // when kept, after it when just built) and of the edited files' facts before it.
  const names = structure.defNames;
  const editedBefore = edited.flatMap((p) => previous.facts.get(p) ?? []);
  const defined = (name: string) =>
    names.has(name) || editedBefore.some((f) => f.defs.some((d) => d.name === name));
  // A one-shot run searches the stored facts' strings for the changed names (facts_store.ts)
  // rather than read every file's facts; a long-lived process reads each file's mentions once and
  // keeps them (affected.ts), which then answers faster.
  const only = manifestsChanged ? undefined : affectedFiles(
    previous.facts,
    nextFacts,
    new Set(edited),
    touchedOf,
    defined,
    previous.structure ? undefined : mayMention,
  );
  if (structure === previous.structure && (!only || !structure.patch(fresh))) {
    structure = Structure.build([...nextFacts.values()], languageByName, manifests.texts);
  }
  const after = resolveWith(structure, only);

  mark("resolve");
  const changed = new Set([...gone, ...freshPaths]);
  // An unchanged file's edges are rewritten when their resolution changed, or when any of them
  // touched a removed file (those went with its nodes). A changed file keeps the nodes of its
  // definitions that keep their id, and the edges others have to them: an edge to a definition
  // that is gone changes the resolution of the file that has it.
  const candidates = [...after.resolved].filter((p) => nextFacts.has(p));
  const cache = edgeCache(after, candidates);
  log.debug(`incremental: re-resolved ${candidates.length} of ${nextFacts.size} file(s)`);
  const rewire: string[] = [];
  for (const path of candidates) {
    if (changed.has(path)) continue;
    const [oldDigest, touched = ""] = previous.edgeDigests[path].split("\t");
    const [newDigest] = cache.digests[path].split("\t");
    if (oldDigest !== newDigest || touched.split("\n").some((t) => gone.has(t))) {
      rewire.push(path);
    }
  }
  // The nodes of changed files: what is new, what changed, what is gone.
  const nodes = nodeChanges(fresh, previous.facts, after.symbols);
  // The edges to delete: those the changed files and the rewired ones had.
  const owners = [...fresh.filter((f) => previous.facts.has(f.path)).map((f) => f.path), ...rewire];
  await ready.lists();
  const oldLists = owners.length
    ? await db.command<(string | null)[]>(["HMGET", ref.keys.edgeLists, ...owners])
    : [];
  const oldEdges = oldLists.flatMap((raw) => (raw ? decodeEdgeList(raw) : []));

  // What is stored beside the graph first: for a new branch, while the graph is still being
  // copied. Until the graph is written too, the pending marker makes an interrupted run's next
  // run full.
  progress({ phase: "write", done: 0, total: 4 });
  await db.command(["SET", ref.keys.pending, new Date().toISOString()]);
  if (gone.size) {
    for (const key of [ref.keys.files, ref.keys.edges, ref.keys.edgeLists]) {
      await db.command(["HDEL", key, ...gone]);
    }
  }
  const touchedFiles = [...freshPaths, ...rewire];
  await db.hashSet(ref.keys.edges, pick(cache.digests, touchedFiles));
  await db.hashSet(ref.keys.edgeLists, edgeLists(after, touchedFiles));
  await db.hashSet(ref.keys.files, Object.fromEntries(fresh.map((f) => [f.path, f.hash])));
  const layout = await writeChanged(
    db,
    ref.keys.facts,
    previous.layout,
    nextFacts,
    freshPaths,
    gone,
  );
  const packages = providedPackages([...nextFacts.values()], structure.repo);
  mark("write");

  await ready.graph((p) => nextFacts.has(p));
  mark("copy");
  const writer = new GraphWriter(db, ref.keys.graph);
  await writer.deleteFiles([...gone, ...nodes.addedFiles.map((f) => f.path)]);
  await writer.deleteSymbols(nodes.removedSymbols);
  await writer.deleteEdges(oldEdges);
  progress({ phase: "write", done: 1, total: 4 });
  await writer.files(nodes.addedFiles);
  await writer.updateFiles(nodes.updatedFiles);
  await writer.symbols(nodes.addedSymbols);
  await writer.updateSymbols(nodes.updatedSymbols);
  progress({ phase: "write", done: 2, total: 4 });
  await writer.edges([...freshPaths, ...rewire].flatMap((p) => after.edges.get(p) ?? []));
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
    layout,
  };
}

/**
 * What the nodes of the freshly parsed files need: files and definitions new to the graph,
 * those whose properties changed (updated in place: their edges stay), and the definitions that
 * are gone.
 */
function nodeChanges(
  fresh: FileFacts[],
  before: ReadonlyMap<string, FileFacts>,
  symbols: ReadonlyMap<string, SymbolNode[]>,
) {
  const out = {
    addedFiles: [] as FileNode[],
    updatedFiles: [] as FileNode[],
    addedSymbols: [] as SymbolNode[],
    updatedSymbols: [] as SymbolNode[],
    removedSymbols: [] as string[],
  };
  for (const f of fresh) {
    const nodes = symbols.get(f.path) ?? symbolNodes(f);
    const old = before.get(f.path);
    if (!old) {
      out.addedFiles.push(fileNode(f));
      out.addedSymbols.push(...nodes);
      continue;
    }
    const file = fileNode(f);
    if (!sameProps(fileNode(old), file)) out.updatedFiles.push(file);
    const gone = new Map(symbolNodes(old).map((n) => [n.id, n]));
    for (const n of nodes) {
      const was = gone.get(n.id);
      if (!was) out.addedSymbols.push(n);
      else {
        gone.delete(n.id);
        if (!sameProps(was, n)) out.updatedSymbols.push(n);
      }
    }
    out.removedSymbols.push(...gone.keys());
  }
  return out;
}

function sameProps<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(b) as (keyof T)[];
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

async function analyze(
  files: ReadFile[],
  summary: IndexSummary,
  progress: (p: Progress) => void,
  onFacts?: (facts: FileFacts) => void,
  release = false,
  collect = true,
): Promise<FileFacts[]> {
  const facts = await analyzeParallel(
    files,
    summary.files.skipped,
    (done) => progress({ phase: "parse", done, total: files.length }),
    onFacts,
    release,
    collect,
  );
  if (collect) noteParseErrors(summary, facts);
  return facts;
}

/** Files that parsed with errors, in the summary. */
function noteParseErrors(summary: IndexSummary, facts: readonly FileFacts[]): void {
  for (const f of facts) {
    if (f.parseErrors <= 0) continue;
    summary.files.parseErrors++;
    const where = (f.errorLines ?? []).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
    const recovered = f.recoveredDefs ? ` (${f.recoveredDefs} definitions read past it)` : "";
    summary.files.syntaxErrors.push(`${f.path}:${where.join(",")}${recovered}`);
    if (f.lostDefs) (summary.files.lostDefinitions ??= []).push(`${f.path} (${f.lostDefs})`);
  }
}
