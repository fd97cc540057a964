/**
 * What a diff touches, from git: the working tree against HEAD (untracked files included), or
 * REF..HEAD. Per file: the line ranges it changes on each side and the file's earlier text, so
 * diff_impact can map hunks to definitions (src/query/diff_impact.ts). Paths are relative to the
 * project root (`git diff --relative`), which may lie below the repository's top.
 */
import { CgraphError } from "../errors.ts";

export interface FileDiff {
  /** Path now (the old path for a deleted file). */
  path: string;
  /** Path before (differs on a rename; absent for an added file). */
  oldPath?: string;
  status: "added" | "modified" | "deleted";
  /** Lines written on the new side, as [from, to] (none for a pure deletion). */
  newRanges: [number, number][];
  /** Removed or replaced lines of the old side. */
  oldRanges: [number, number][];
}

export interface DiffSpec {
  /** `working tree vs HEAD` or `REF..HEAD`. */
  label: string;
  /** The revision the old side is read from (for base..HEAD: where HEAD left base). */
  base: string;
  files: FileDiff[];
}

async function git(root: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const r = await new Deno.Command("git", {
      args: ["-C", root, ...args],
      stdout: "piped",
      stderr: "piped",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).output();
    const text = new TextDecoder().decode(r.success ? r.stdout : r.stderr);
    return { ok: r.success, out: text };
  } catch (err) {
    return { ok: false, out: String(err) };
  }
}

/** The diff of the working tree (or of `base`..HEAD) in `root`. */
export async function readDiff(root: string, base?: string): Promise<DiffSpec> {
  const from = base ?? "HEAD";
  const check = await git(root, ["rev-parse", "--verify", "--quiet", `${from}^{commit}`]);
  if (!check.ok) {
    throw new CgraphError(
      base ? `No commit '${base}' in ${root}.` : `${root} has no commit to compare with.`,
      base ? "Give a branch, tag or commit as base." : "Commit once, or give base=<ref>.",
    );
  }
  // base..HEAD: what the commits on HEAD since it left `base` change (as `git log base..HEAD`
  // lists them), so a base that moved on since does not count its own changes as reverted here.
  const fork = base ? await git(root, ["merge-base", base, "HEAD"]) : undefined;
  const old = fork?.ok ? fork.out.trim() : from;
  const range = base ? [old, "HEAD"] : ["HEAD"];
  const diff = await git(root, [
    "diff",
    "-U0",
    "--no-color",
    "--no-ext-diff",
    "--find-renames",
    "--relative",
    ...range,
    "--",
  ]);
  if (!diff.ok) throw new CgraphError(`git diff failed: ${diff.out.trim().slice(0, 300)}`);
  const files = parseUnifiedDiff(diff.out);
  if (!base) {
    const untracked = await git(root, ["ls-files", "--others", "--exclude-standard", "-z"]);
    for (const path of untracked.ok ? untracked.out.split("\0").filter(Boolean) : []) {
      const text = await Deno.readTextFile(`${root}/${path}`).catch(() => undefined);
      if (text === undefined) continue;
      const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
      files.push({ path, status: "added", newRanges: [[1, Math.max(1, lines)]], oldRanges: [] });
    }
  }
  return { label: base ? `${base}..HEAD` : "working tree vs HEAD", base: old, files };
}

/** A file's text at a revision (path relative to the project root), or undefined. */
export async function textAt(root: string, rev: string, path: string): Promise<string | undefined> {
  const r = await git(root, ["show", `${rev}:./${path}`]);
  return r.ok ? r.out : undefined;
}

/** Unquotes a path as git writes it (`"a\tb"` in C-style quotes when it has odd characters). */
function gitPath(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw.slice(1, -1);
  }
}

/** Files and hunk ranges of a `git diff -U0` patch. */
export function parseUnifiedDiff(patch: string): FileDiff[] {
  const out: FileDiff[] = [];
  let cur: FileDiff | undefined;
  let oldName: string | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      cur = undefined;
      oldName = undefined;
      continue;
    }
    if (line.startsWith("--- ")) {
      const p = gitPath(line.slice(4));
      oldName = p === "/dev/null" ? undefined : p.replace(/^a\//, "");
      continue;
    }
    if (line.startsWith("+++ ")) {
      const p = gitPath(line.slice(4));
      const newName = p === "/dev/null" ? undefined : p.replace(/^b\//, "");
      const status = !oldName ? "added" : !newName ? "deleted" : "modified";
      cur = { path: newName ?? oldName ?? "", status, newRanges: [], oldRanges: [] };
      if (status === "modified" && oldName !== newName) cur.oldPath = oldName;
      out.push(cur);
      continue;
    }
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (h && cur) {
      const [a, b, c, d] = [h[1], h[2] ?? "1", h[3], h[4] ?? "1"].map(Number);
      if (b > 0) cur.oldRanges.push([a, a + b - 1]);
      if (d > 0) cur.newRanges.push([c, c + d - 1]);
    }
  }
  return out.filter((f) => f.path);
}
