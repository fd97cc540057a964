/**
 * Which (project, branch) a path belongs to. Project: `--project`, else the name of the repository's
 * top-level directory (or of the subdirectory given, when indexing part of a repository). Branch: `--branch`, else `git rev-parse --abbrev-ref HEAD`; a detached HEAD is
 * `detached-<commit>`, a path outside git is `_default`.
 */
import { basename, dirname, relative, resolve, sep } from "node:path";
import { CgraphError } from "../errors.ts";
import { DEFAULT_BRANCH, type GraphKeys, keysFor, sanitizeName } from "./names.ts";

export interface ProjectRef {
  /** Sanitised project and branch names, as used in keys. */
  project: string;
  branch: string;
  /** Absolute root of the repository (or the directory, outside git). */
  root: string;
  /** What makes two paths the same repository: git's common dir (shared by worktrees) or root. */
  identity: string;
  commit?: string;
  keys: GraphKeys;
}

export interface ProjectOptions {
  project?: string;
  branch?: string;
}

/** Runs git in `cwd`; its trimmed output, or undefined when git fails or is missing. */
export async function git(cwd: string, ...args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", cwd, ...args],
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

export async function resolveProject(path: string, opts: ProjectOptions = {}): Promise<ProjectRef> {
  const abs = resolve(path);
  let stat: Deno.FileInfo;
  try {
    stat = await Deno.stat(abs);
  } catch {
    throw new CgraphError(`Path does not exist: ${abs}`, "Give the root of a repository to index.");
  }
  if (!stat.isDirectory) {
    throw new CgraphError(
      `Not a directory: ${abs}`,
      "Give the root directory of a repository, not a file.",
    );
  }
  // Three questions to git at once (each a process of its own, ~8 ms): the answers about HEAD and
  // the common directory are used only when `abs` is in a work tree. HEAD's commit and name come
  // in one run; in a repository without commits it fails, and both are unknown.
  const [top, head, common] = await Promise.all([
    git(abs, "rev-parse", "--show-toplevel"),
    git(abs, "rev-parse", "HEAD", "--abbrev-ref", "HEAD"),
    git(abs, "rev-parse", "--path-format=absolute", "--git-common-dir"),
  ]);
  // A subdirectory of a repository is indexed on its own (monorepo packages, fixtures): its root is
  // the path given, and its identity includes the subpath so two packages never share a graph.
  const realAbs = await Deno.realPath(abs);
  const root = top && (await Deno.realPath(top)) === realAbs ? resolve(top) : abs;
  const subpath = top ? relative(await Deno.realPath(top), realAbs) : "";
  let branch = DEFAULT_BRANCH;
  let commit: string | undefined;
  let identity = root;
  let repoName = basename(root);
  if (top) {
    const [sha, name] = head?.split("\n") ?? [];
    commit = sha || undefined;
    if (name === "HEAD") branch = `detached-${(commit ?? "unknown").slice(0, 12)}`;
    else if (name) branch = name;
    else branch = "_unborn"; // a repository without commits yet
    if (common) identity = subpath ? `${common}#${subpath.split(sep).join("/")}` : common;
    // Every worktree of a repository is that repository: named after its main checkout (the
    // folder holding the common `.git`), or a bare repository's own name, wherever it is.
    if (common && !subpath) {
      repoName = basename(common) === ".git"
        ? basename(dirname(common))
        : basename(common).replace(/\.git$/, "");
    }
  }
  if (opts.branch) branch = opts.branch;
  const project = sanitizeName(opts.project || repoName || "root");
  const b = sanitizeName(branch);
  return { project, branch: b, root, identity, commit, keys: keysFor(project, b) };
}

/** Whether a git repository has a branch, tag or commit of that name. */
export async function gitHasRevision(root: string, name: string): Promise<boolean> {
  if (name.startsWith("-")) return false;
  return (await git(root, "rev-parse", "--verify", "--quiet", `${name}^{commit}`)) !== undefined;
}

/** The HEAD commit of a root now (for staleness), or undefined outside git. */
export function headCommit(root: string): Promise<string | undefined> {
  return git(root, "rev-parse", "HEAD");
}
