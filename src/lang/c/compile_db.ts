/**
 * `compile_commands.json` (a JSON compilation database, as CMake, Bear or Meson write it): the
 * include directories each translation unit is compiled with (`-I`, `-iquote`, `-isystem`,
 * `-idirafter`), so `#include "config.h"` reaches the header the compiler reads. Paths are matched
 * by their tail against the repository's files, so a database written on another machine, or in
 * a build directory, applies. A header (no entry of its own) uses the directories of the
 * translation units in its directory, else those of every unit.
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf, joinPath } from "../paths.ts";

interface Db {
  /** Include directories per translation unit (repository-relative, in command-line order). */
  byFile: Map<string, string[]>;
  /** Per directory, the include directories of its units; and of all units. */
  byDir: Map<string, string[]>;
  all: string[];
}

const cache = new WeakMap<RepoFiles, Db | null>();

const FLAG = /^(-I|-iquote|-isystem|-idirafter)(.*)$/;

function dbOf(repo: RepoFiles): Db | null {
  if (cache.has(repo)) return cache.get(repo)!;
  let db: Db | null = null;
  const manifests = repo.manifests?.("compile_commands.json") ?? [];
  if (manifests.length) {
    db = { byFile: new Map(), byDir: new Map(), all: [] };
    for (const m of manifests) {
      try {
        const entries = JSON.parse(repo.read?.(m) ?? "[]");
        if (Array.isArray(entries)) addEntries(db, entries, repo);
      } catch {
        // unreadable: as if absent
      }
    }
    if (!db.byFile.size) db = null;
  }
  cache.set(repo, db);
  return db;
}

function addEntries(db: Db, entries: unknown[], repo: RepoFiles): void {
  let root: string | undefined;
  for (const e of entries) {
    if (!e || typeof e !== "object") continue;
    const { directory, file, command, arguments: args } = e as Record<string, unknown>;
    if (typeof directory !== "string" || typeof file !== "string") continue;
    const abs = absolute(directory, file);
    root ??= rootOf(abs, repo);
    if (root === undefined) continue;
    const path = relativeTo(root, abs);
    if (path === undefined || !repo.has(path)) continue;
    const argv = Array.isArray(args)
      ? args.map(String)
      : typeof command === "string"
      ? command.match(/"[^"]*"|'[^']*'|\S+/g)?.map((a) => a.replace(/^["']|["']$/g, "")) ?? []
      : [];
    const dirs: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const m = FLAG.exec(argv[i]);
      if (!m) continue;
      const value = m[2] || argv[++i];
      if (!value) continue;
      const dir = relativeTo(root, absolute(directory, value));
      if (dir !== undefined && !dirs.includes(dir)) dirs.push(dir);
    }
    db.byFile.set(path, dirs);
    const here = db.byDir.get(dirOf(path)) ?? [];
    for (const d of dirs) {
      if (!here.includes(d)) here.push(d);
      if (!db.all.includes(d)) db.all.push(d);
    }
    db.byDir.set(dirOf(path), here);
  }
}

/** `/` paths joined and normalised (`a/./b/../c` -> `a/c`). */
function absolute(dir: string, path: string): string {
  const p = path.replace(/\\/g, "/");
  const joined = p.startsWith("/") ? p : `${dir.replace(/\\/g, "/")}/${p}`;
  const out: string[] = [];
  for (const seg of joined.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}

/** The absolute repository root, found by the longest tail of `abs` that is a repository file. */
function rootOf(abs: string, repo: RepoFiles): string | undefined {
  const parts = abs.split("/").filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    if (repo.has(parts.slice(i).join("/"))) return `/${parts.slice(0, i).join("/")}`;
  }
  return undefined;
}

function relativeTo(root: string, abs: string): string | undefined {
  if (abs === root) return "";
  const base = root === "/" ? "/" : `${root}/`;
  return abs.startsWith(base) ? abs.slice(base.length) : undefined;
}

/**
 * The header an include names through the include directories of the including file (undefined:
 * no compilation database, or no directory of it holds the header).
 */
export function compileDbInclude(
  source: string,
  fromPath: string,
  repo: RepoFiles,
): string[] | undefined {
  const db = dbOf(repo);
  if (!db) return undefined;
  const rel = source.trim().replace(/\\/g, "/");
  if (!rel || rel.startsWith("/")) return undefined;
  // The including file's own directory comes first, as for the compiler.
  const local = joinPath(dirOf(fromPath), rel);
  if (local !== undefined && repo.has(local)) return [local];
  const dirs = db.byFile.get(fromPath) ?? db.byDir.get(dirOf(fromPath)) ?? db.all;
  for (const dir of dirs) {
    const hit = joinPath(dir, rel);
    if (hit !== undefined && repo.has(hit)) return [hit];
  }
  return undefined;
}
