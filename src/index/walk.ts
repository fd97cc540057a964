/**
 * Which files a repository has: `git ls-files` in a git work tree (so .gitignore is respected),
 * else a directory walk; both filtered by the default ignore list and CODE_GRAPH_IGNORE. Symlinks are
 * followed only inside the root, and never into a loop.
 */
import { createHash } from "node:crypto";
import { join, relative, resolve, sep } from "node:path";
import { isManifestName, languageOf } from "../lang/registry.ts";
import type { LanguageSpec } from "../lang/spec.ts";

export const DEFAULT_IGNORES = [
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  "vendor",
  "dist",
  "build",
  "target",
  "out",
  ".next",
  ".nuxt",
  ".gradle",
  ".idea",
  ".vscode",
  "bin",
  "obj",
  "coverage",
  ".cgraph",
];

export interface Candidate {
  path: string;
  abs: string;
  language: LanguageSpec;
  /** What the walk's stat saw (the stat cache compares it): size, mtime in ms, inode. */
  stat?: FileStat;
}

/** Size, modification and change times (ms; 0 when the platform has none) and inode (0: none). */
export interface FileStat {
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
}

export function fileStatOf(st: Deno.FileInfo): FileStat {
  return {
    size: st.size,
    mtime: st.mtime?.getTime() ?? 0,
    ctime: st.ctime?.getTime() ?? 0,
    ino: st.ino ?? 0,
  };
}

export interface Skipped {
  path: string;
  reason: string;
}

export interface WalkResult {
  files: Candidate[];
  skipped: Skipped[];
  /** Files without a supported language (counted, not listed). */
  unsupported: number;
  /** Project files languages read for import resolution (registry isManifestName). */
  manifests: string[];
  /** Every path listed (supported or not, ignored folders left out), in path order. */
  listed: string[];
}

export function ignoreList(): Set<string> {
  const extra = (Deno.env.get("CODE_GRAPH_IGNORE") ?? "").split(",").map((s) => s.trim()).filter(
    Boolean,
  );
  return new Set([...DEFAULT_IGNORES, ...extra]);
}

/** Whether a relative `/`-separated path lies in an ignored folder (or is an ignored name). */
export function isIgnoredPath(path: string, ignores: Set<string> = ignoreList()): boolean {
  return path.split("/").some((seg) => ignores.has(seg));
}

export async function walkRepository(root: string): Promise<WalkResult> {
  const ignores = ignoreList();
  const listed = await gitFiles(root) ?? await walkDir(root, ignores);
  const ignored = (p: string) => isIgnoredPath(p, ignores);
  const paths = listed.filter((p) => !ignored(p)).sort();
  // A `.h` file is C++ when the sources beside it are (`blast.h` next to `blast.c` is C), else when
  // the project has C++ sources; its text can still claim it (refineLanguage).
  const sources = new Map<string, { c: boolean; cpp: boolean }>();
  for (const p of paths) {
    const cpp = /\.(cc|cpp|cxx|c\+\+)$/i.test(p);
    if (!cpp && !/\.c$/.test(p)) continue;
    const dir = p.slice(0, p.lastIndexOf("/") + 1);
    const seen = sources.get(dir) ?? { c: false, cpp: false };
    if (cpp) seen.cpp = true;
    else seen.c = true;
    sources.set(dir, seen);
  }
  const cppProject = paths.some((p) => /\.(cc|cpp|cxx|hpp|hh|hxx)$/i.test(p));
  const cppHeader = (path: string) => {
    const beside = sources.get(path.slice(0, path.lastIndexOf("/") + 1));
    return beside ? beside.cpp : cppProject;
  };
  const result: WalkResult = {
    files: [],
    skipped: [],
    unsupported: 0,
    manifests: [],
    listed: paths,
  };
  const realRoot = await Deno.realPath(root);
  for (const path of paths) {
    const language = languageOf(path, cppHeader(path));
    // A project file may be a source too (Gradle's Kotlin DSL: `build.gradle.kts` is Kotlin).
    if (isManifestName(path.slice(path.lastIndexOf("/") + 1))) result.manifests.push(path);
    if (!language) {
      result.unsupported++;
      continue;
    }
    const abs = join(root, path);
    try {
      // Synchronous on purpose: one awaited lstat per file costs ~50 us, a sync one ~7 us, and
      // this runs before every staleness check and incremental index (1,500 files: 85 -> 10 ms).
      let st = Deno.lstatSync(abs);
      if (st.isSymlink) {
        const real = Deno.realPathSync(abs);
        if (!isInside(realRoot, real)) {
          result.skipped.push({ path, reason: "symlink outside the repository" });
          continue;
        }
        st = Deno.statSync(real);
        if (!st.isFile) continue;
      } else if (!st.isFile) continue;
      result.files.push({ path, abs, language, stat: fileStatOf(st) });
    } catch (err) {
      result.skipped.push({ path, reason: brokenReason(err) });
      continue;
    }
  }
  return result;
}

function brokenReason(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "broken symlink or vanished file";
  if (err instanceof Deno.errors.PermissionDenied) return "unreadable (permission denied)";
  if (err instanceof Error && /loop|ELOOP/i.test(err.message)) return "symlink loop";
  return `unreadable (${err instanceof Error ? err.message : String(err)})`;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

/** Tracked and untracked-but-not-ignored files, or undefined outside a git work tree. */
async function gitFiles(root: string): Promise<string[] | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).output();
    if (!out.success) return undefined;
    const text = new TextDecoder().decode(out.stdout);
    // ls-files lists deleted-but-tracked files too; existence is checked by the caller.
    return [...new Set(text.split("\0").filter(Boolean))];
  } catch {
    return undefined; // git not installed
  }
}

async function walkDir(root: string, ignores: Set<string>): Promise<string[]> {
  const out: string[] = [];
  const visited = new Set<string>();
  const realRoot = await Deno.realPath(root);
  const stack = [realRoot];
  const rootAbs = resolve(root);
  while (stack.length) {
    const dir = stack.pop()!;
    const real = await Deno.realPath(dir).catch(() => undefined);
    if (!real || visited.has(real) || !isInside(realRoot, real)) continue;
    visited.add(real);
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue; // unreadable directory: skipped, the rest still indexes
    }
    for (const e of entries) {
      if (ignores.has(e.name)) continue;
      const abs = join(dir, e.name);
      if (e.isDirectory) stack.push(abs);
      else if (e.isSymlink) {
        const target = await Deno.stat(abs).catch(() => undefined);
        if (target?.isDirectory) stack.push(abs);
        else out.push(relative(realRoot, abs).split(sep).join("/"));
      } else if (e.isFile) out.push(relative(realRoot, abs).split(sep).join("/"));
    }
  }
  void rootAbs;
  return out;
}

/**
 * Which of these relative paths git ignores (`.gitignore`, `.git/info/exclude`, the global
 * excludes; a tracked file is never ignored), by git's own matcher: the watcher drops events
 * for them as `git ls-files` leaves them out of the walk. Empty outside a git work tree.
 */
export async function gitIgnored(root: string, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  try {
    const child = new Deno.Command("git", {
      args: ["-C", root, "check-ignore", "-z", "--stdin"],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(paths.join("\0") + "\0"));
    await writer.close();
    const out = await child.output();
    // 0: some ignored, 1: none, anything else: not a work tree (nothing is ignored by git then).
    if (out.code !== 0) return new Set();
    return new Set(new TextDecoder().decode(out.stdout).split("\0").filter(Boolean));
  } catch {
    return new Set(); // git not installed
  }
}

/** Files larger than this are skipped (and reported): generated code, bundles, data. */
export function maxFileBytes(): number {
  const n = Number(Deno.env.get("CGRAPH_MAX_FILE_BYTES"));
  return Number.isFinite(n) && n > 0 ? n : 1024 * 1024;
}

/** Fingerprint of paths, sizes and mtimes: a cheap "has the tree changed since indexing?" check. */
export function statDigestOf(files: { path: string; size: number; mtime: number }[]): string {
  const h = createHash("sha256");
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    h.update(`${f.path}\0${f.size}\0${f.mtime}\n`);
  }
  return h.digest("hex").slice(0, 32);
}
