/**
 * What an index run records beside the graph: per file, a digest of the edges it owns and the
 * files they touch, and the edges themselves (edge caches); the graph's counts and its info hash.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import * as Q from "../db/cypher.ts";
import * as R from "../db/queries.ts";
import { SYMBOL_KINDS } from "../graph/facts.ts";
import type { Edge, EdgeType } from "../graph/model.ts";
import type { ProjectRef } from "../project/identity.ts";
import { VERSION } from "../version.ts";
import type { IndexSummary } from "./summary.ts";
import type { Resolution } from "./resolve/mod.ts";
import { GRAPH_SCHEMA } from "./state.ts";

/**
 * Per file: a digest of the edges it owns plus the files they touch (`digest\tpath\npath`).
 * Comparing digests replaces resolving the old tree a second time.
 */
export function edgeCache(
  res: Pick<Resolution, "edges" | "pathOf">,
  paths: string[],
): { digests: Record<string, string> } {
  const digests: Record<string, string> = {};
  for (const path of paths) digests[path] = edgeDigest(path, res.edges.get(path) ?? [], res.pathOf);
  return { digests };
}

/**
 * One file's `digest\ttouched paths` (see edgeCache), from the edges it owns: the digest is the
 * SHA-1 of their stored list (`encodeEdgeList`, which a full run writes anyway: pass it). Every
 * property of every edge is in the list, in the order the resolver gives them, which is the same
 * for the same facts in a full run and an incremental one (resolve/steps.ts): equal edges, equal
 * digests.
 */
export function edgeDigest(
  path: string,
  edges: readonly Edge[],
  pathOf: (id: string) => string | undefined,
  list = encodeEdgeList(edges),
): string {
  const touched = new Set<string>();
  const touch = (id: string) => {
    const p = pathOf(id);
    if (p && p !== path) touched.add(p);
  };
  // (Both ends by name: no pair array per edge, on every file a full run resolves.)
  for (const e of edges) {
    touch(e.from);
    touch(e.to);
  }
  const digest = createHash("sha1").update(list).digest("hex");
  return `${digest}\t${[...touched].sort().join("\n")}`;
}

/** The edges each of these files owns, encoded (only for files whose edges were written). */
export function edgeLists(
  res: Pick<Resolution, "edges">,
  paths: string[],
): Record<string, string> {
  return Object.fromEntries(paths.map((p) => [p, encodeEdgeList(res.edges.get(p) ?? [])]));
}

const EDGE_TYPES: readonly EdgeType[] = [
  "DEFINES",
  "CALLS",
  "INSTANTIATES",
  "IMPORTS",
  "EXTENDS",
  "IMPLEMENTS",
];
const TYPE_CODE = new Map(EDGE_TYPES.map((t, i) => [t, i]));
const FROM_FILE = 1, TO_FILE = 2, VIA_VALUE = 4, TYPE_ONLY = 8;

/**
 * A file's edge list as stored: JSON `{"ids": [...], "e": [[type, from, to, flags, line, count,
 * confidence], ...]}`, each id once (an index into `ids`), the type a code, the flags bits
 * (fromFile, toFile, via value, typeOnly), a missing property null and trailing ones left out:
 * about a third of the edges' JSON, which a full run writes for every file.
 */
export function encodeEdgeList(edges: readonly Edge[]): string {
  const ids: string[] = [];
  const index = new Map<string, number>();
  const at = (id: string) => {
    let i = index.get(id);
    if (i === undefined) index.set(id, i = ids.push(id) - 1);
    return i;
  };
  const rows = edges.map((e) => {
    const flags = (e.fromFile ? FROM_FILE : 0) | (e.toFile ? TO_FILE : 0) |
      (e.via === "value" ? VIA_VALUE : 0) | (e.typeOnly ? TYPE_ONLY : 0);
    const row: (number | null)[] = [TYPE_CODE.get(e.type)!, at(e.from), at(e.to), flags];
    row.push(e.line ?? null, e.count ?? null, e.confidence ?? null);
    while (row.length > 4 && row[row.length - 1] === null) row.pop();
    return row;
  });
  return JSON.stringify({ ids, e: rows });
}

/** A stored edge list (encodeEdgeList's, or the plain JSON array of edges stored before it). */
export function decodeEdgeList(raw: string): Edge[] {
  const value = JSON.parse(raw) as Edge[] | { ids: string[]; e: (number | null)[][] };
  if (Array.isArray(value)) return value;
  return value.e.map(([type, from, to, flags, line, count, confidence]) => {
    const e: Edge = { type: EDGE_TYPES[type!], from: value.ids[from!], to: value.ids[to!] };
    if (flags! & FROM_FILE) e.fromFile = true;
    if (flags! & TO_FILE) e.toFile = true;
    if (line != null) e.line = line;
    if (count != null) e.count = count;
    if (confidence != null) e.confidence = confidence;
    if (flags! & VIA_VALUE) e.via = "value";
    if (flags! & TYPE_ONLY) e.typeOnly = true;
    return e;
  });
}

export function pick(record: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));
}

export async function graphCounts(db: Db, graph: string) {
  const ro = { readOnly: true };
  const count = async (cypher: string) =>
    Number((await db.query(graph, cypher, undefined, ro))[0]?.n ?? 0);
  // One count per kind label and per relationship type, all sent at once: grouping every symbol
  // by its kind, or every edge by type(e), reads them all.
  const types = (await db.query(graph, R.RELATIONSHIP_TYPES, undefined, ro)).map((r) =>
    String(r.type)
  );
  const [files, kinds, perType] = await Promise.all([
    count(Q.COUNT_FILES),
    Promise.all(SYMBOL_KINDS.map((k) => count(Q.countSymbolsOfKind(k)))),
    Promise.all(types.map((t) => count(R.countEdgesOfType(t)))),
  ]);
  const symbols: Record<string, number> = {};
  SYMBOL_KINDS.forEach((k, i) => {
    if (kinds[i] > 0) symbols[k] = kinds[i];
  });
  const edges: Record<string, number> = {};
  types.forEach((t, i) => {
    if (perType[i] > 0) edges[t] = perType[i];
  });
  return { files, symbols, edges };
}

/** The counts the last run stored, when nothing changed since (a no-op run need not count). */
export async function storedCounts(
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

export async function writeInfo(
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
    schema: GRAPH_SCHEMA,
  });
}
