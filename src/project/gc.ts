/**
 * Garbage among the graphs: graphs of branches their repository no longer has, and projects whose
 * folder is gone. Finding is separate from dropping: `cgraph gc` lists, and drops only the graphs
 * of gone branches and only when asked. A project whose folder has disappeared is always reported
 * and never dropped here (it may live on a disk that is not mounted): `cgraph delete` drops it.
 */
import { dirname } from "node:path";
import type { Db } from "../db/client.ts";
import { isSpecialBranch, liveBranchNames } from "./branches.ts";
import { deleteGraphs, type GraphInfo, listGraphs } from "./catalog.ts";
import { git } from "./identity.ts";
import { displayName, keysFor, projectKeys } from "./names.ts";

export interface StaleGraph {
  project: string;
  branch: string;
  graph: string;
  root?: string;
  /** The repository (git directory) that no longer has the branch. */
  repository: string;
}

export interface MissingProject {
  project: string;
  /** The folder (repository or directory) that is gone. */
  folder: string;
  graphs: string[];
}

export interface GcReport {
  /** Graphs looked at. */
  graphs: number;
  stale: StaleGraph[];
  missing: MissingProject[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Lists graphs of gone branches and projects whose folder is gone (of one project, or all). */
export async function findGarbage(db: Db, project?: string): Promise<GcReport> {
  const graphs = (await listGraphs(db)).filter((g) =>
    project === undefined || g.project === project
  );
  const byProject = new Map<string, GraphInfo[]>();
  for (const g of graphs) byProject.set(g.project, [...(byProject.get(g.project) ?? []), g]);
  const report: GcReport = { graphs: graphs.length, stale: [], missing: [] };
  for (const [name, list] of byProject) {
    const roots = list.map((g) => g.root).filter((r): r is string => typeof r === "string" && !!r);
    // The identity is git's common directory (shared by worktrees), `#subpath` for part of a
    // repository, or the root of a directory outside git.
    const bound = await db.command<string | null>(["GET", projectKeys(name).identity]);
    const identity = bound?.split("#")[0];
    const folder = identity ?? roots[0];
    if (!folder) continue; // nothing says where it lives: nothing to judge
    const liveRoots = (await Promise.all(roots.map(exists))).some(Boolean);
    if (!(await exists(folder)) && !liveRoots) {
      report.missing.push({ project: name, folder, graphs: list.map((g) => g.graph) });
      continue;
    }
    const gitDir = identity && (await isGitDir(identity)) ? identity : undefined;
    if (!gitDir) continue; // outside git every graph is kept
    const live = await liveBranchNames(gitDir);
    if (!live) continue;
    for (const g of list) {
      if (isSpecialBranch(g.branch) || live.has(g.branch)) continue;
      report.stale.push({
        project: name,
        branch: g.branch,
        graph: g.graph,
        root: g.root,
        repository: gitDir,
      });
    }
  }
  return report;
}

async function isGitDir(path: string): Promise<boolean> {
  return (await git(dirname(path), "--git-dir", path, "rev-parse", "--git-dir")) !== undefined;
}

/** Drops the graphs of gone branches; a graph being indexed right now is kept. */
export async function dropStale(db: Db, stale: StaleGraph[]): Promise<{
  dropped: string[];
  busy: string[];
}> {
  const dropped: string[] = [];
  const busy: string[] = [];
  for (const s of stale) {
    if (await db.command<number>(["EXISTS", keysFor(s.project, s.branch).lock])) {
      busy.push(s.graph);
      continue;
    }
    dropped.push(...await deleteGraphs(db, s.project, s.branch));
  }
  return { dropped, busy };
}

/** The report as text lines (the CLI's answer). */
export function formatGarbage(r: GcReport, done?: { dropped: string[]; busy: string[] }): string {
  const lines = [
    `gc: ${r.graphs} graph(s) checked; ${r.stale.length} of branches that no longer exist; ${r.missing.length} project(s) whose folder is gone${
      done ? "" : r.stale.length ? " (dry run: nothing dropped; --yes drops them)" : ""
    }`,
  ];
  for (const s of r.stale) {
    lines.push(
      `${done?.dropped.includes(s.graph) ? "dropped" : done ? "kept (being indexed)" : "gone"} | ${
        displayName(s.project)
      } | ${displayName(s.branch)} | no such branch in ${s.repository}`,
    );
  }
  for (const m of r.missing) {
    lines.push(
      `folder gone | ${
        displayName(m.project)
      } | ${m.graphs.length} graph(s) | ${m.folder} | kept: ` +
        `moved or unmounted? if it is gone for good: cgraph delete --project ${
          displayName(m.project)
        }`,
    );
  }
  return lines.join("\n");
}
