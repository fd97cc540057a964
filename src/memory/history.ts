/**
 * The git history of a symbol: the commits that touched its current lines (`git log -L`, which
 * follows the lines through edits and renames), newest first, fix-like subjects marked. Lines of a
 * file with uncommitted changes are first mapped back to HEAD's version through `git diff -U0`.
 *
 * Computed on demand and cached in Redis (one hash per project, `mem:{project}~history`) under the
 * file's content hashes (working tree and HEAD blob) and the line range: a warm lookup costs one
 * `git rev-parse` and one HGET; any edit or commit touching the file misses the cache by itself.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Db } from "../db/client.ts";
import { projectKeys } from "../project/names.ts";

export interface Commit {
  hash: string;
  /** Author date, ISO 8601. */
  date: string;
  author: string;
  subject: string;
  /** The subject looks like a fix: fix, bug, regression, revert, hotfix, CVE. */
  fix: boolean;
}

export interface History {
  commits: Commit[];
  /** Why there is no (or only partial) history: not in git, not committed, lines mapped. */
  note?: string;
  /** Whether the answer came from the cache. */
  cached: boolean;
}

/** Commits kept per entry (answers show fewer). */
const KEEP = 50;
/** Entries per project before the cache starts over. */
const CACHE_CAP = 20_000;
const GIT_TIMEOUT_MS = 15_000;

const FIX =
  /\b(fix(e[sd]|ing)?|bug(s|fix(es)?)?|regressions?|revert(s|ed)?|hotfix(es)?|cve(-\d{4}-\d+)?)\b/i;

export function looksLikeFix(subject: string): boolean {
  return FIX.test(subject);
}

export function historyKey(project: string): string {
  return projectKeys(project).history;
}

async function git(
  root: string,
  args: string[],
): Promise<{ ok: boolean; out: string }> {
  try {
    const r = await new Deno.Command("git", {
      args: ["-C", root, ...args],
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0", GIT_PAGER: "cat", LC_ALL: "C" },
      signal: AbortSignal.timeout(GIT_TIMEOUT_MS),
    }).output();
    return { ok: r.success, out: new TextDecoder().decode(r.stdout) };
  } catch {
    return { ok: false, out: "" };
  }
}

/** Git's blob id of some bytes (what `git hash-object` prints). */
function blobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

function hunksOf(diff: string): Hunk[] {
  const out: Hunk[] = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    out.push({
      oldStart: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      newStart: Number(m[3]),
      newCount: m[4] === undefined ? 1 : Number(m[4]),
    });
  }
  return out;
}

/**
 * A working-tree line range -> HEAD's line range, through the diff's hunks. Lines inside a changed
 * hunk snap to the hunk's old lines; undefined when every line of the range is new.
 */
export function mapRange(hunks: Hunk[], start: number, end: number): [number, number] | undefined {
  const map = (line: number, side: "start" | "end"): number => {
    let shift = 0;
    for (const h of hunks) {
      if (h.newCount === 0) {
        // Pure deletion after new line newStart.
        if (h.newStart < line) shift += h.newCount - h.oldCount;
        continue;
      }
      const last = h.newStart + h.newCount - 1;
      if (last < line) {
        shift += h.newCount - h.oldCount;
        continue;
      }
      if (h.newStart <= line) {
        // Inside a changed hunk: its old lines (or the gap they left).
        if (h.oldCount === 0) return side === "start" ? h.oldStart + 1 : h.oldStart;
        return side === "start" ? h.oldStart : h.oldStart + h.oldCount - 1;
      }
      break;
    }
    return line - shift;
  };
  const s = Math.max(1, map(start, "start"));
  const e = map(end, "end");
  return s <= e ? [s, e] : undefined;
}

/**
 * Commits touching `path` lines `line`-`endLine` (the whole file when `line` is 0), newest first,
 * at most `limit`.
 */
export async function historyOf(
  db: Db,
  project: string,
  root: string | undefined,
  target: { path: string; line: number; end_line?: number },
  limit: number,
): Promise<History> {
  if (!root) return { commits: [], note: "no repository root on this machine", cached: false };
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(join(root, target.path));
  } catch {
    return { commits: [], note: `${target.path} is not in the working tree`, cached: false };
  }
  const head = await git(root, ["rev-parse", "--verify", "-q", `HEAD:./${target.path}`]);
  if (!head.ok) {
    const inside = await git(root, ["rev-parse", "--is-inside-work-tree"]);
    return {
      commits: [],
      note: inside.ok ? `${target.path} is not committed yet` : "not a git repository",
      cached: false,
    };
  }
  const headBlob = head.out.trim();
  const work = blobId(bytes);
  const whole = !target.line;
  const start = target.line;
  const end = Math.max(target.end_line ?? start, start);
  const field = createHash("sha256")
    .update(`${target.path}\0${whole ? "file" : `${start}-${end}`}\0${work}\0${headBlob}`)
    .digest("hex").slice(0, 32);
  const key = historyKey(project);
  const hit = await db.command<string | null>(["HGET", key, field]);
  if (hit) {
    try {
      const v = JSON.parse(hit) as { commits: Commit[]; note?: string };
      return { commits: v.commits.slice(0, limit), note: v.note, cached: true };
    } catch {
      // a corrupt entry is recomputed below
    }
  }
  let note: string | undefined;
  let args: string[];
  if (whole) {
    args = ["log", "--follow", `-n${KEEP}`, "--no-patch", FORMAT, "--", `./${target.path}`];
  } else {
    let range: [number, number] | undefined = [start, end];
    if (work !== headBlob) {
      const diff = await git(root, [
        "diff",
        "-U0",
        "--no-color",
        "--no-ext-diff",
        "HEAD",
        "--",
        `./${target.path}`,
      ]);
      range = mapRange(hunksOf(diff.out), start, end);
      note = range ? "uncommitted changes in the file; lines mapped to HEAD" : undefined;
    }
    if (!range) {
      const v = { commits: [], note: "these lines are not committed yet" };
      await remember(db, key, field, v);
      return { ...v, cached: false };
    }
    args = ["log", `-L${range[0]},${range[1]}:./${target.path}`, `-n${KEEP}`, "--no-patch", FORMAT];
  }
  const r = await git(root, args);
  if (!r.ok && !whole) {
    // The range may not exist in HEAD's version (a file shortened by uncommitted edits).
    return { commits: [], note: "git log -L failed for these lines", cached: false };
  }
  const commits = parseLog(r.out);
  const v = note ? { commits, note } : { commits };
  await remember(db, key, field, v);
  return { commits: commits.slice(0, limit), note, cached: false };
}

const FORMAT = "--format=%x1e%H%x1f%aI%x1f%an%x1f%s";

export function parseLog(out: string): Commit[] {
  const commits: Commit[] = [];
  for (const rec of out.split("\x1e")) {
    const line = rec.split("\n")[0];
    const [hash, date, author, subject] = line.split("\x1f");
    if (!hash || !/^[0-9a-f]{7,64}$/.test(hash.trim())) continue;
    const s = subject ?? "";
    commits.push({
      hash: hash.trim(),
      date: date ?? "",
      author: author ?? "",
      subject: s,
      fix: looksLikeFix(s),
    });
  }
  return commits;
}

async function remember(db: Db, key: string, field: string, v: object): Promise<void> {
  if (Number(await db.command<number>(["HLEN", key])) >= CACHE_CAP) await db.command(["DEL", key]);
  await db.command(["HSET", key, field, JSON.stringify(v)]);
}
