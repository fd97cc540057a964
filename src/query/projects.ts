/** Every indexed (project, branch) on the server, with what its metadata says. */
import type { Db } from "../db/client.ts";
import { listCatalog } from "../project/catalog.ts";
import { displayName } from "../project/names.ts";
import { dependenciesOf, type Dependency, pickGraphs } from "./across.ts";

export interface ProjectEntry {
  project: string;
  branch: string;
  graph: string;
  files?: number;
  symbols?: number;
  edges?: number;
  indexed_at?: string;
  commit?: string;
  root?: string;
  /** Other projects whose packages this graph's files import (src/query/across.ts). */
  depends_on?: Dependency[];
  /** Other projects whose files import packages of this one. */
  used_by?: string[];
}

export interface ProjectsResult {
  type: "projects";
  total: number;
  projects: ProjectEntry[];
  /** Cluster primaries that did not answer: their projects are not listed. */
  unreachable?: string[];
}

export async function listProjects(db: Db): Promise<ProjectsResult> {
  const catalog = await listCatalog(db);
  const dependencies = await dependenciesOf(db, catalog.graphs);
  const projects = catalog.graphs.map((g): ProjectEntry => {
    const e: ProjectEntry = {
      project: displayName(g.project),
      branch: displayName(g.branch),
      graph: g.graph,
    };
    if (g.files !== undefined && Number.isFinite(g.files)) e.files = g.files;
    if (g.symbols !== undefined && Number.isFinite(g.symbols)) e.symbols = g.symbols;
    if (g.edges !== undefined && Number.isFinite(g.edges)) e.edges = g.edges;
    if (g.indexed_at) e.indexed_at = g.indexed_at;
    if (g.commit) e.commit = g.commit;
    if (g.root) e.root = g.root;
    const deps = dependencies.get(g.graph);
    if (deps) e.depends_on = deps;
    // Used by: the projects whose graph taking part for this branch depends on this project.
    const users = pickGraphs(catalog.graphs, g.branch)
      .filter((o) => o.project !== g.project)
      .filter((o) => dependencies.get(o.graph)?.some((d) => d.project === displayName(g.project)))
      .map((o) => displayName(o.project));
    if (users.length) e.used_by = users.sort();
    return e;
  });
  const r: ProjectsResult = { type: "projects", total: projects.length, projects };
  if (catalog.unreachable.length) r.unreachable = catalog.unreachable;
  return r;
}

/** `a (main, dev), b (main)`: what is indexed, for error messages. */
export function indexedSummary(entries: { project: string; branch: string }[]): string {
  if (!entries.length) return "nothing is indexed yet";
  const byProject = new Map<string, string[]>();
  for (const e of entries) {
    byProject.set(e.project, [...(byProject.get(e.project) ?? []), e.branch]);
  }
  const parts = [...byProject].map(([p, b]) => `${p} (${b.join(", ")})`);
  return parts.length > 20
    ? `${parts.slice(0, 20).join(", ")}, +${parts.length - 20} more`
    : parts.join(", ");
}
