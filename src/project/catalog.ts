/**
 * What the server knows about indexed projects: the per-(project, branch) metadata hashes, the
 * project-name registry, listing, deleting and migrating graphs.
 */
import type { Db } from "../db/client.ts";
import { CgraphError } from "../errors.ts";
import { displayName, keysFor, parseGraphName, PROJECTS_KEY } from "./names.ts";
import type { ProjectRef } from "./identity.ts";

export interface GraphInfo {
  project: string;
  branch: string;
  graph: string;
  root?: string;
  commit?: string;
  indexed_at?: string;
  version?: string;
  files?: number;
  symbols?: number;
  edges?: number;
  stat_digest?: string;
  [key: string]: unknown;
}

/** Refuses a project name already bound to another repository (worktrees share an identity). */
export async function bindProject(db: Db, ref: ProjectRef): Promise<void> {
  const bound = await db.command<string | null>(["HGET", PROJECTS_KEY, ref.project]);
  if (bound && bound !== ref.identity) {
    throw new CgraphError(
      `Project name '${
        displayName(ref.project)
      }' is already used for another repository (${bound}).`,
      `Pass --project <another-name> (MCP: the 'project' argument) to index ${ref.root} under its own name.`,
    );
  }
  if (!bound) await db.command(["HSET", PROJECTS_KEY, ref.project, ref.identity]);
}

export async function readInfo(
  db: Db,
  project: string,
  branch: string,
): Promise<GraphInfo | undefined> {
  const keys = keysFor(project, branch);
  const raw = await db.hashGetAll(keys.info);
  if (!Object.keys(raw).length) return undefined;
  const num = (k: string) => (raw[k] === undefined ? undefined : Number(raw[k]));
  return {
    ...raw,
    project,
    branch,
    graph: keys.graph,
    files: num("files"),
    symbols: num("symbols"),
    edges: num("edges"),
  };
}

/** Every (project, branch) graph on the server, with its metadata when it has any. */
export async function listGraphs(db: Db): Promise<GraphInfo[]> {
  const out: GraphInfo[] = [];
  for (const name of (await db.listGraphs()).sort()) {
    const parsed = parseGraphName(name);
    if (!parsed) continue;
    const [project, branch] = parsed;
    out.push((await readInfo(db, project, branch)) ?? { project, branch, graph: name });
  }
  return out;
}

/** Deletes a branch graph and its metadata, or every branch of a project. Returns what was removed. */
export async function deleteGraphs(db: Db, project: string, branch?: string): Promise<string[]> {
  const targets = (await listGraphs(db)).filter((g) =>
    g.project === project && (branch === undefined || g.branch === branch)
  );
  for (const g of targets) {
    const keys = keysFor(g.project, g.branch);
    await db.deleteGraph(keys.graph);
    await db.deleteGraph(keys.staging);
    await db.command([
      "DEL",
      keys.info,
      keys.files,
      keys.facts,
      keys.edges,
      keys.edgeLists,
      keys.stat,
      keys.lock,
      keys.pending,
    ]);
  }
  if (branch === undefined || (await listGraphs(db)).every((g) => g.project !== project)) {
    await db.command(["HDEL", PROJECTS_KEY, project]);
  }
  return targets.map((g) => g.graph);
}

/**
 * Renames legacy `code:{project}` graphs and `{project}_info` / `{project}_files` keys to the
 * `_default` branch. Idempotent: a second run finds nothing left to move.
 */
export async function migrateLegacy(db: Db): Promise<string[]> {
  const moved: string[] = [];
  for (const name of await db.listGraphs()) {
    const m = /^code:([^:~]+)$/.exec(name);
    if (!m) continue;
    const keys = keysFor(m[1], "_default");
    if ((await db.listGraphs()).includes(keys.graph)) continue; // never overwrite a newer graph
    await db.command(["RENAME", name, keys.graph]);
    for (const [from, to] of [[`${m[1]}_info`, keys.info], [`${m[1]}_files`, keys.files]]) {
      if (await db.command<number>(["EXISTS", from])) await db.command(["RENAMENX", from, to]);
    }
    moved.push(`${name} -> ${keys.graph}`);
  }
  return moved;
}
