/**
 * What the server knows about indexed projects: the per-(project, branch) metadata hashes, the
 * project-name registry, listing, deleting and migrating graphs.
 */
import type { Db } from "../db/client.ts";
import { CgraphError } from "../errors.ts";
import {
  displayName,
  keysFor,
  LEGACY_PROJECTS_KEY,
  legacyKeysFor,
  legacyProjectKeys,
  parseGraphName,
  parseLegacyName,
  projectKeys,
} from "./names.ts";
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
  const key = projectKeys(ref.project).identity;
  const bound = await db.command<string | null>(["GET", key]);
  if (bound && bound !== ref.identity) {
    throw new CgraphError(
      `Project name '${
        displayName(ref.project)
      }' is already used for another repository (${bound}).`,
      `Pass --project <another-name> (MCP: the 'project' argument) to index ${ref.root} under its own name.`,
    );
  }
  if (!bound) await db.command(["SET", key, ref.identity, "NX"]);
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
  return (await listCatalog(db)).graphs;
}

export interface Catalog {
  graphs: GraphInfo[];
  /** Cluster primaries that did not answer: their projects are missing from `graphs`. */
  unreachable: string[];
}

/** The catalogue lives in the database (GRAPH.LIST and the info hashes), shared by every server. */
export async function listCatalog(db: Db): Promise<Catalog> {
  const { names, unreachable } = await db.listGraphsReport();
  const graphs: GraphInfo[] = [];
  for (const name of names.sort()) {
    const parsed = parseGraphName(name);
    if (!parsed) continue;
    const [project, branch] = parsed;
    graphs.push((await readInfo(db, project, branch)) ?? { project, branch, graph: name });
  }
  return { graphs, unreachable };
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
    await db.command(["DEL", projectKeys(project).identity]);
  }
  return targets.map((g) => g.graph);
}

/**
 * Moves graphs and keys named by earlier schemes to today's names (see names.ts), without
 * re-indexing: `code:P:B` and its `P:B_*` / `P:B~*` keys to `code:{P}:B` and `{P}:B_*`, the older
 * `code:P` (no branch) to the `_default` branch, notes `mem:P` and their history cache to
 * `mem:{P}`, and the `cgraph:projects` registry to one identity key per project. RENAMENX only: a
 * name already taken by a newer graph is never overwritten, and a second run (or one racing this
 * one in another process) finds nothing left to move. A standalone server only: a cluster never
 * held the old names (cgraph refused clusters before), and RENAME cannot cross its slots.
 */
export async function migrateNames(db: Db): Promise<string[]> {
  if (db.isCluster) return [];
  const moved: string[] = [];
  const move = async (from: string, to: string): Promise<boolean> => {
    try {
      return Number(await db.command<number>(["RENAMENX", from, to])) === 1;
    } catch {
      return false; // gone already (another process moved it), or not there at all
    }
  };
  for (const name of await db.listGraphs()) {
    const old = parseLegacyName(name);
    if (!old) continue;
    if (old.kind === "memory") {
      const now = projectKeys(old.project);
      if (await move(name, now.memory)) moved.push(`${name} -> ${now.memory}`);
      await move(legacyProjectKeys(old.project).history, now.history);
      continue;
    }
    const branch = old.kind === "branch" ? old.branch : "_default";
    const keys = keysFor(old.project, branch);
    const was = old.kind === "branch" ? legacyKeysFor(old.project, old.branch) : {
      ...legacyKeysFor(old.project, "x"),
      info: `${old.project}_info`,
      files: `${old.project}_files`,
    };
    const fields = ["info", "files", "facts", "edges", "edgeLists", "pending"] as const;
    if (await move(name, keys.graph)) {
      for (const k of fields) await move(was[k], keys[k]);
      moved.push(`${name} -> ${keys.graph}`);
      continue;
    }
    if (!(await db.graphExists(keys.graph)) || !(await db.graphExists(name))) continue;
    // Both names exist (an older cgraph indexed again after a newer one renamed its graph): the
    // one indexed last wins, the other goes, so no graph is left behind under a name nothing reads.
    const at = async (info: string) =>
      String(await db.command<string | null>(["HGET", info, "indexed_at"]) ?? "");
    const [oldAt, newAt] = [await at(was.info), await at(keys.info)];
    if (oldAt && oldAt > newAt) {
      await db.command(["RENAME", name, keys.graph]);
      for (const k of fields) {
        if (Number(await db.command<number>(["EXISTS", was[k]]))) {
          await db.command(["RENAME", was[k], keys[k]]);
        } else await db.command(["DEL", keys[k]]);
      }
      moved.push(`${name} -> ${keys.graph} (indexed later than the graph it replaced)`);
    } else {
      await db.deleteGraph(name);
      await db.command(["DEL", ...fields.map((k) => was[k])]);
      moved.push(`${name} dropped (${keys.graph} was indexed later)`);
    }
  }
  const registry = await db.command<string[] | Record<string, string>>([
    "HGETALL",
    LEGACY_PROJECTS_KEY,
  ]).catch(() => [] as string[]);
  const pairs = Array.isArray(registry)
    ? registry.reduce<[string, string][]>(
      (acc, v, i) => (i % 2 ? acc : [...acc, [String(v), String(registry[i + 1])]]),
      [],
    )
    : Object.entries(registry);
  for (const [project, identity] of pairs) {
    await db.command(["SET", projectKeys(project).identity, identity, "NX"]);
  }
  if (pairs.length) {
    await db.command(["DEL", LEGACY_PROJECTS_KEY]);
    moved.push(`${LEGACY_PROJECTS_KEY} -> ${pairs.length} identity key(s)`);
  }
  return moved;
}

/** migrateNames once per connection: every entry point calls this right after connecting. */
const migrated = new WeakSet<Db>();
export async function migrateOnce(db: Db): Promise<void> {
  if (migrated.has(db)) return;
  migrated.add(db);
  await migrateNames(db);
}
