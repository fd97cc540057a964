/**
 * What git says about the branches of a repository: which exist, which is the default, how far
 * apart two commits are. Used to pick the graph a new branch starts from and to find graphs of
 * branches that are gone. Every function answers undefined (or empty) when git cannot say.
 */
import { git } from "./identity.ts";
import { DEFAULT_BRANCH, sanitizeName } from "./names.ts";

/**
 * Commits between two revisions counted on both sides (`a...b`): 0 for the same commit, the
 * number of commits a branch added since its merge-base plus those its base added since.
 */
export async function commitDistance(
  root: string,
  a: string,
  b: string,
): Promise<number | undefined> {
  if (!a || !b || a.startsWith("-") || b.startsWith("-")) return undefined;
  const out = await git(root, "rev-list", "--count", "--left-right", `${a}...${b}`);
  if (!out) return undefined;
  const [left, right] = out.split(/\s+/).map(Number);
  return Number.isFinite(left) && Number.isFinite(right) ? left + right : undefined;
}

/** The repository's default branch: origin's HEAD, else `main` or `master` when one exists. */
export async function defaultBranch(root: string): Promise<string | undefined> {
  const remote = await git(root, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD");
  if (remote) return remote.replace(/^origin\//, "");
  for (const name of ["main", "master"]) {
    if (await git(root, "rev-parse", "--verify", "--quiet", `refs/heads/${name}`)) return name;
  }
  return undefined;
}

/**
 * The graph branch names (sanitised) that still exist in a repository given by its git common
 * directory: every local branch, and `detached-<commit>` of every worktree on a detached HEAD.
 * Undefined when git cannot read the repository.
 */
export async function liveBranchNames(gitDir: string): Promise<Set<string> | undefined> {
  const heads = await git(
    gitDir,
    "--git-dir",
    gitDir,
    "for-each-ref",
    "--format=%(refname:short)",
    "refs/heads",
  );
  if (heads === undefined) return undefined;
  const live = new Set(heads.split("\n").filter(Boolean).map(sanitizeName));
  const worktrees = await git(gitDir, "--git-dir", gitDir, "worktree", "list", "--porcelain");
  let head = "";
  for (const line of (worktrees ?? "").split("\n")) {
    if (line.startsWith("HEAD ")) head = line.slice(5);
    if (line === "detached" && head) live.add(sanitizeName(`detached-${head.slice(0, 12)}`));
  }
  return live;
}

/** Graph branch names that are never judged against git (outside git, no commit yet). */
export function isSpecialBranch(branch: string): boolean {
  return branch === DEFAULT_BRANCH || branch === "_unborn";
}
