/**
 * Many repositories, one graph of graphs. Each project is its own graph, so an edge between two
 * projects is found at query time, never stored: a project's graph holds the packages it offers
 * (`(:Package {name, dir, sep, languages})`, src/index/packages.ts) and each File the module paths
 * it imports (`uses`). A file of project A that imports, by name, a package project B offers and
 * that A does not offer itself depends on B; its calls named like a symbol of that package are
 * cross-project call sites. Nothing crosses unless both projects are indexed and the import names
 * the package.
 *
 * Of each project one graph takes part: the branch of the same name as the asked graph's, else the
 * one indexed last.
 */
import type { Db } from "../db/client.ts";
import * as Q from "../db/queries.ts";
import type { EdgeType } from "../graph/model.ts";
import { listCatalog } from "../project/catalog.ts";
import { displayName } from "../project/names.ts";
import { type CallSite, enclosingDefinitions, sitesCalling } from "./call_sites.ts";
import { GraphReader, type NodeRef } from "./graph.ts";
import { expand } from "./neighbors.ts";
import { isProduction } from "./role.ts";

export interface PackageRef {
  name: string;
  dir: string;
  sep: string;
  languages: string[];
}

/** One graph taking part in the join. */
export interface ProjectGraph {
  project: string;
  branch: string;
  graph: string;
}

/** Whether an import's module path names the package (or something inside it). */
export function importsPackage(source: string, p: PackageRef): boolean {
  return source === p.name || (p.sep !== "" && source.startsWith(p.name + p.sep));
}

/** ` a b ` (FileNode.uses) as a list. */
export function usesOf(raw: unknown): string[] {
  return String(raw ?? "").split(" ").filter(Boolean);
}

export async function packagesOf(reader: GraphReader): Promise<PackageRef[]> {
  return (await reader.rows(Q.PACKAGES)).map((r) => ({
    name: String(r.name),
    dir: String(r.dir ?? ""),
    sep: String(r.sep ?? ""),
    languages: String(r.languages ?? "").split(" ").filter(Boolean),
  }));
}

/**
 * The packages a project offers others: those outside tests, fixtures, examples, vendored and
 * generated code (a fixture's package.json names no package anyone installs).
 */
export function offered(packages: PackageRef[]): PackageRef[] {
  return packages.filter((p) => isProduction(p.dir ? `${p.dir}/_` : "_"));
}

/** The package of a file: the one whose directory holds it most closely (its language's). */
export function packageOfFile(
  packages: PackageRef[],
  path: string,
  language: string,
): PackageRef | undefined {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  let best: PackageRef | undefined;
  for (const p of packages) {
    if (!p.languages.includes(language)) continue;
    const holds = p.sep === ""
      ? dir === p.dir
      : p.dir === "" || dir === p.dir || dir.startsWith(`${p.dir}/`);
    if (holds && (!best || p.dir.length > best.dir.length)) best = p;
  }
  return best;
}

/** Of every project but `except`, the graph that takes part: same branch, else indexed last. */
export async function otherProjects(
  db: Db,
  except: string,
  branch: string,
): Promise<ProjectGraph[]> {
  return pickGraphs((await listCatalog(db)).graphs, branch).filter((g) => g.project !== except);
}

export function pickGraphs(
  graphs: { project: string; branch: string; graph: string; indexed_at?: string }[],
  branch?: string,
): ProjectGraph[] {
  const byProject = new Map<string, typeof graphs[number]>();
  for (const g of graphs) {
    const kept = byProject.get(g.project);
    if (
      !kept ||
      (kept.branch !== branch &&
        (g.branch === branch || String(g.indexed_at ?? "") > String(kept.indexed_at ?? "")))
    ) {
      byProject.set(g.project, g);
    }
  }
  return [...byProject.values()].map((g) => ({
    project: g.project,
    branch: g.branch,
    graph: g.graph,
  }));
}

export interface AcrossLink {
  node: NodeRef;
  depth: number;
  /** Line of the call site (depth 1) or of the edge. */
  at?: number;
  rel: EdgeType;
}

/** What a symbol's change reaches in other projects (impact_analysis across_projects). */
export interface Across {
  /** The package other projects import the symbol's code by (absent: none offers it). */
  package?: string;
  projects: AcrossProject[];
}

/** Dependents of a symbol in one other project. */
export interface AcrossProject {
  project: string;
  branch: string;
  /** The package the project imports the symbol's code by. */
  package: string;
  total: number;
  by_distance: Record<string, number>;
  /** The nearest first, at most `limit`. */
  links: AcrossLink[];
  /** Dependents in tests, examples and the like, left out (include_tests lists them). */
  hidden_tests?: number;
}

/** Files read per project and question (a name called in more is answered as a lower bound). */
const FILE_CAP = 500;

/**
 * The symbols of other projects a change to `target` reaches: call sites named like it in files
 * that import its package, then their callers inside that project, up to `depth`.
 */
export async function dependentsAcross(
  db: Db,
  home: ProjectGraph,
  homeReader: GraphReader,
  target: NodeRef,
  opts: { relations: EdgeType[]; depth: number; limit: number; includeTests: boolean },
): Promise<Across> {
  const { relations, depth } = opts;
  const language = String(
    (await homeReader.rows(Q.SYMBOL_DETAILS, { id: target.id }))[0]?.language ?? "",
  );
  const pkg = packageOfFile(offered(await packagesOf(homeReader)), target.path, language);
  if (!pkg) return { projects: [] };
  const out: AcrossProject[] = [];
  for (const other of await otherProjects(db, home.project, home.branch)) {
    const reader = new GraphReader(db, other.graph);
    // A project offering a package of that name itself imports its own.
    const own = await packagesOf(reader);
    if (own.some((p) => p.name === pkg.name)) continue;
    const rows = await reader.rows(Q.FILES_USING_CALLING, {
      uses: ` ${pkg.name}`,
      calls: ` ${target.name}:`,
      cap: FILE_CAP,
    });
    const sites: { path: string; line: number }[] = [];
    for (const r of rows) {
      if (!pkg.languages.includes(String(r.language))) continue;
      if (!usesOf(r.uses).some((s) => importsPackage(s, pkg))) continue;
      sites.push(...sitesCalling(String(r.path), String(r.calls ?? ""), target.name));
    }
    if (!sites.length) continue;
    const first = await callersOf(reader, sites);
    const links: AcrossLink[] = [...first.values()].map((c) => ({
      node: c.node,
      depth: 1,
      at: c.at,
      rel: "CALLS",
    }));
    if (depth > 1) {
      const symbols = links.map((l) => l.node).filter((n) => n.kind !== "File");
      const ex = await expand(reader, symbols, relations, "IN", depth - 1);
      const seen = new Set(links.map((l) => l.node.id));
      for (const l of ex.links) {
        if (seen.has(l.node.id)) continue;
        seen.add(l.node.id);
        links.push({ node: l.node, depth: l.depth + 1, at: l.at, rel: l.rel });
      }
    }
    const all = opts.includeTests ? links : links.filter((l) => isProduction(l.node.path));
    // Production code first (as impact lists it), nearest first.
    const rank = (l: AcrossLink) => (isProduction(l.node.path) ? 0 : 1);
    all.sort((a, b) =>
      rank(a) - rank(b) || a.depth - b.depth ||
      (a.node.path < b.node.path ? -1 : a.node.path > b.node.path ? 1 : 0) ||
      a.node.line - b.node.line
    );
    const by_distance: Record<string, number> = {};
    for (const l of all) by_distance[String(l.depth)] = (by_distance[String(l.depth)] ?? 0) + 1;
    out.push({
      project: displayName(other.project),
      branch: displayName(other.branch),
      package: pkg.name,
      total: all.length,
      by_distance,
      links: all.slice(0, opts.limit),
      ...(links.length > all.length ? { hidden_tests: links.length - all.length } : {}),
    });
  }
  return { package: pkg.name, projects: out };
}

/** Each site's caller: the innermost definition around it, else its file (first site kept). */
async function callersOf(
  reader: GraphReader,
  sites: CallSite[],
): Promise<Map<string, { node: NodeRef; at: number }>> {
  const enclosing = await enclosingDefinitions(reader, sites);
  const ids = new Map<string, number>();
  sites.forEach((site, i) => {
    const id = enclosing[i] ?? `file:${site.path}`;
    if (!ids.has(id) || site.line < ids.get(id)!) ids.set(id, site.line);
  });
  const symbolIds = [...ids.keys()].filter((id) => !id.startsWith("file:"));
  const nodes = await reader.byIds(symbolIds);
  const out = new Map<string, { node: NodeRef; at: number }>();
  for (const [id, at] of ids) {
    if (id.startsWith("file:")) {
      const path = id.slice(5);
      const file = (await reader.nodes(Q.FILE_BY_PATH, { path }))[0];
      if (file) out.set(file.id, { node: file, at });
    } else if (nodes.get(id)) out.set(id, { node: nodes.get(id)!, at });
  }
  return out;
}

/** Another project a project depends on, and the packages of it that its files import. */
export interface Dependency {
  project: string;
  packages: string[];
}

/**
 * For each listed graph, the projects whose packages its files import (each other project by the
 * graph of the same branch, else the one indexed last). Files are read only when another project
 * offers packages.
 */
export async function dependenciesOf(
  db: Db,
  graphs: { project: string; branch: string; graph: string; indexed_at?: string }[],
): Promise<Map<string, Dependency[]>> {
  const out = new Map<string, Dependency[]>();
  const packages = new Map<string, Promise<PackageRef[]>>();
  const packagesIn = (graph: string) => {
    let p = packages.get(graph);
    if (!p) packages.set(graph, p = packagesOf(new GraphReader(db, graph)).catch(() => []));
    return p;
  };
  for (const g of graphs) {
    const candidates = pickGraphs(graphs, g.branch).filter((o) => o.project !== g.project);
    const others: { project: string; p: PackageRef }[] = [];
    for (const o of candidates) {
      for (const p of offered(await packagesIn(o.graph))) others.push({ project: o.project, p });
    }
    if (!others.length) continue;
    const own = new Set((await packagesIn(g.graph)).map((p) => p.name));
    const rows = await new GraphReader(db, g.graph).rows(Q.FILES_USING).catch(() => []);
    const found = new Map<string, Set<string>>();
    for (const r of rows) {
      const language = String(r.language);
      for (const source of usesOf(r.uses)) {
        for (const { project, p } of others) {
          if (own.has(p.name) || !p.languages.includes(language)) continue;
          if (!importsPackage(source, p)) continue;
          const set = found.get(project) ?? new Set<string>();
          set.add(p.name);
          found.set(project, set);
        }
      }
    }
    if (found.size) {
      out.set(
        g.graph,
        [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([project, names]) => ({
          project: displayName(project),
          packages: [...names].sort(),
        })),
      );
    }
  }
  return out;
}
