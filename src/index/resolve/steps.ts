/**
 * The order of a resolution: owners and bases attached and parameters' values bound for every
 * file first (method lookups through self/this depend on them), then each file's DEFINES, imports
 * and calls, one file per step. Two shapes: `resolutionSteps` keeps every file's edges and returns
 * the whole (an incremental run compares them); `fileSteps` yields each file's edges whole and
 * keeps none (a full run stores them as they come).
 */
import type { FileFacts } from "../../graph/facts.ts";
import { type Edge, type SymbolNode, symbolNodes } from "../../graph/model.ts";
import { isFinal, type Resolver } from "./calls.ts";
import type { FileScope, Resolution } from "./model.ts";

/**
 * The resolution file by file: yields each resolved file's CALLS and IMPORTS edges as soon as
 * they are known (they are final: no other file states them), and returns the whole. A writer
 * can store them while the next files are resolved.
 */
export function* resolutionSteps(r: Resolver, only?: Set<string>): Generator<Edge[], Resolution> {
  const edges = prepare(r, only);
  const resolved = only ? new Set(only) : new Set(r.scopes.keys());
  if (only) {
    // Only inheritance can be stated by two files: a DEFINES edge ends at a definition of the
    // file that states it (node ids include the path).
    const owners = new Map<string, string[]>();
    for (const [path, list] of edges) {
      for (const e of list) {
        const key = `${e.type}\0${e.from}\0${e.to}`;
        const list = owners.get(key);
        if (list) list.push(path);
        else owners.set(key, [path]);
      }
    }
    for (const paths of owners.values()) {
      if (paths.length > 1 && paths.some((p) => only.has(p))) {
        paths.forEach((p) => resolved.add(p));
      }
    }
  }
  // DEFINES edges (from owners and bases known above) only where the edges are wanted.
  for (const scope of r.scopes.values()) {
    if (!resolved.has(scope.facts.path)) continue;
    const own = ownEdges(r, scope);
    edges.get(scope.facts.path)!.push(...own);
    yield own.filter(isFinal);
  }
  const owner = firstOwner();
  for (const [path, list] of edges) edges.set(path, list.filter(owner()));
  const symbols = new Map<string, SymbolNode[]>();
  for (const scope of r.scopes.values()) {
    symbols.set(scope.facts.path, symbolNodes(scope.facts));
  }
  const pathOf = (id: string) => r.structure.pathOf(id);
  return { symbols, edges, resolved, pathOf, failures: r.failures };
}

/**
 * Every file's resolution, one file per step and in path order, each file's edges whole as it
 * is yielded (what `resolutionSteps` returns for it, in the same order): what a full run needs,
 * without keeping any file's edges, nor what was memoised for it (dropped once it is resolved:
 * `Scopes.forget`).
 */
export function* fileSteps(r: Resolver): Generator<{ path: string; edges: Edge[] }, void> {
  const edges = prepare(r);
  const owner = firstOwner();
  for (const scope of r.scopes.values()) {
    const path = scope.facts.path;
    const list = edges.get(path)!;
    edges.delete(path);
    list.push(...ownEdges(r, scope));
    yield { path, edges: list.filter(owner()) };
    r.forget(path);
  }
}

/**
 * What every file's calls depend on: owners and bases attached, parameters' values bound.
 * Returns each file's inheritance edges (by path, in path order), before DEFINES and calls.
 */
function prepare(r: Resolver, only?: Set<string>): Map<string, Edge[]> {
  // A file no edit affects attaches what it attached last run (its lookups read only names,
  // which did not change for it), unless some lookup read what was being attached (order
  // matters then).
  const kept = only && r.structure.owners?.replayable ? r.structure.owners.byPath : undefined;
  const owners = new Map<string, { facts: FileFacts; attached: [number, string][] }>();
  r.progressRead = false;
  for (const scope of r.scopes.values()) {
    const path = scope.facts.path;
    const last = kept?.get(path);
    if (
      last && last.facts === scope.facts && !only!.has(path) &&
      r.replayOwners(scope, last.attached)
    ) {
      owners.set(path, last);
    } else owners.set(path, { facts: scope.facts, attached: r.attachOwners(scope) });
  }
  r.structure.owners = { byPath: owners, replayable: !r.progressRead };
  const edges = new Map<string, Edge[]>();
  for (const scope of r.scopes.values()) edges.set(scope.facts.path, r.inheritEdges(scope));
  r.structureKnown = true;
  r.bindArguments();
  r.typeCache.clear(); // typed before parameters knew their values
  r.typeRefCache.clear(); // resolved while owners and bases were being attached
  return edges;
}

/** A resolved file's DEFINES, IMPORTS, CALLS and INSTANTIATES edges, in that order. */
function ownEdges(r: Resolver, scope: FileScope): Edge[] {
  return [...r.definesEdges(scope), ...r.imports(scope), ...r.callEdges(scope)];
}

/**
 * One edge per (type, from, to) across the repository: two files can state the same fact (two
 * `impl Trait for T` blocks); the first file in path order owns it. Returns, per file in path
 * order, a filter for its edges. Final edges always pass (no other file states them); DEFINES and
 * INSTANTIATES need only be unique within their file (one ends at a definition of the file that
 * states it, the other starts at one: node ids include the path), so only inheritance is
 * remembered across files.
 */
function firstOwner(): () => (e: Edge) => boolean {
  const shared = new EdgeSet();
  return () => {
    const own = new EdgeSet();
    return (e) => {
      if (isFinal(e)) return true;
      return (e.type === "DEFINES" || e.type === "INSTANTIATES" ? own : shared).add(e);
    };
  };
}

/** Edges by (type, from, to), each part looked up in its own map (no key string built per edge). */
class EdgeSet {
  private readonly byType = new Map<string, Map<string, Set<string>>>();

  /** Adds an edge; false when one of its type and ends was there. */
  add(e: Edge): boolean {
    let byFrom = this.byType.get(e.type);
    if (!byFrom) this.byType.set(e.type, byFrom = new Map());
    let to = byFrom.get(e.from);
    if (!to) byFrom.set(e.from, to = new Set());
    if (to.has(e.to)) return false;
    to.add(e.to);
    return true;
  }
}
