/** Path helpers the language specs share: module names from paths, module paths to files. */
import type { RepoFiles } from "./spec.ts";

/** `pkg/mod.py` -> `pkg.mod`; `pkg/__init__.py` -> `pkg` (with `index: "__init__"`). */
export function pathModuleName(
  path: string,
  opts: { index?: string; strip?: string[] } = {},
): string {
  let p = path.replace(/\.[^./]+$/, "");
  for (const prefix of opts.strip ?? []) {
    if (p.startsWith(prefix)) {
      p = p.slice(prefix.length);
      break;
    }
  }
  const parts = p.split("/").filter(Boolean);
  if (opts.index && parts[parts.length - 1] === opts.index) parts.pop();
  return parts.join(".");
}

/** Directory of a relative path (`a/b/c.ts` -> `a/b`, `c.ts` -> ``). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Joins and normalises `.`/`..` segments; undefined when it climbs above the root. */
export function joinPath(dir: string, rel: string): string | undefined {
  const out: string[] = dir ? dir.split("/") : [];
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/** Common source roots tried before a suffix search. */
const SOURCE_ROOTS = ["", "src/", "lib/", "app/"];

/**
 * Files of a dotted (or `/`-separated) module path: `a.b` -> `a/b.py` or `a/b/__init__.py`, under
 * the repository root or a common source root, else any unique path ending with it.
 */
export function dottedModuleFiles(
  dotted: string,
  repo: RepoFiles,
  exts: string[],
  indexName?: string,
  separator: RegExp = /\./g,
): readonly string[] {
  if (!dotted) return NONE;
  // Each module is imported by many files (and each import tries a dozen paths): its files are
  // looked up once per repository's files (a RepoFiles never changes).
  let known = moduleFiles.get(repo);
  if (!known) moduleFiles.set(repo, known = new Map());
  const key = `${dotted}\0${exts.join("\0")}\0${indexName ?? ""}\0${separator.source}`;
  let files = known.get(key);
  if (!files) {
    files = lookUpModuleFiles(dotted, repo, exts, indexName, separator);
    known.set(key, files.length ? Object.freeze(files) : NONE);
  }
  return files;
}

const NONE: readonly string[] = Object.freeze([]);
const moduleFiles = new WeakMap<RepoFiles, Map<string, readonly string[]>>();

function lookUpModuleFiles(
  dotted: string,
  repo: RepoFiles,
  exts: string[],
  indexName: string | undefined,
  separator: RegExp,
): string[] {
  const rel = dotted.replace(separator, "/");
  const candidates = exts.flatMap((ext) => [
    rel + ext,
    ...(indexName ? [`${rel}/${indexName}${ext}`] : []),
  ]);
  for (const root of SOURCE_ROOTS) {
    const hits = candidates.map((c) => root + c).filter((c) => repo.has(c));
    if (hits.length) return hits;
  }
  for (const c of candidates) {
    const hits = repo.withSuffix(c);
    if (hits.length > 0 && hits.length <= 2) return hits;
  }
  return [];
}

/** A relative import (`./x`, `../y/z`) with the extensions and index files a resolver tries. */
export function relativeFiles(
  source: string,
  fromPath: string,
  repo: RepoFiles,
  exts: string[],
  indexName = "index",
): string[] {
  const base = joinPath(dirOf(fromPath), source);
  if (base === undefined) return [];
  if (repo.has(base)) return [base];
  for (const ext of exts) if (repo.has(base + ext)) return [base + ext];
  for (const ext of exts) {
    if (repo.has(`${base}/${indexName}${ext}`)) return [`${base}/${indexName}${ext}`];
  }
  // `./x.js` written for a TypeScript file `x.ts`.
  const stem = base.replace(/\.[cm]?[jt]sx?$/, "");
  if (stem !== base) { for (const ext of exts) if (repo.has(stem + ext)) return [stem + ext]; }
  return [];
}

/** Standard C / POSIX headers: never matched against repository files by suffix. */
const SYSTEM_HEADERS = new Set(
  `assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign
  stdarg stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath threads time uchar
  wchar wctype unistd fcntl pthread dirent strings poll dlfcn termios netdb`
    .split(/\s+/).map((h) => `${h}.h`),
);

/**
 * Files a C / C++ `#include` names: relative to the including file's directory, then the nearest
 * ancestor directory (or its `include/`) holding the path, then a unique file ending with it.
 */
export function includeFiles(source: string, fromPath: string, repo: RepoFiles): string[] {
  const rel = source.trim().replace(/\\/g, "/");
  if (!rel || rel.startsWith("/")) return [];
  const local = joinPath(dirOf(fromPath), rel);
  if (local !== undefined && repo.has(local)) return [local];
  const dirs = dirOf(fromPath).split("/").filter(Boolean);
  for (let n = dirs.length; n >= 0; n--) {
    const base = dirs.slice(0, n).join("/");
    for (const dir of [base, base ? `${base}/include` : "include"]) {
      const hit = joinPath(dir, rel);
      if (hit !== undefined && repo.has(hit)) return [hit];
    }
  }
  if (SYSTEM_HEADERS.has(rel)) return [];
  const suffix = rel.replace(/^(\.\.?\/)+/, "");
  const hits = suffix ? repo.withSuffix(suffix) : [];
  return hits.length === 1 ? hits : [];
}
