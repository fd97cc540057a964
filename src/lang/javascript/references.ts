/**
 * TypeScript project references: a project that references another (`"references": [{"path":
 * "../core"}]`) imports its built output (`../../core/out/math`, or a package whose entry is in
 * `outDir`), which tsc maps back to the referenced project's sources. So does this: a path inside
 * a tsconfig's `outDir` is the same path under its `rootDir` (default: the config's directory),
 * with a source extension.
 *
 * - Relative imports that reach no file: the referenced projects of the nearest tsconfig above
 *   the importing file (and that project itself) are asked.
 * - Package entries (workspaces.ts): the package's own tsconfig is asked.
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf, joinPath, relativeFiles } from "../paths.ts";
import { parseJsonc } from "./jsonc.ts";

interface Output {
  /** `outDir`, repository-relative. */
  out: string;
  /** `rootDir` (or the config's directory), repository-relative. */
  root: string;
}

interface Project {
  output?: Output;
  /** tsconfig paths of the projects it references. */
  references: string[];
}

const cache = new WeakMap<RepoFiles, Map<string, Project | undefined>>();

function projectAt(repo: RepoFiles, path: string, depth = 0): Project | undefined {
  let byPath = cache.get(repo);
  if (!byPath) cache.set(repo, byPath = new Map());
  if (byPath.has(path)) return byPath.get(path);
  byPath.set(path, undefined); // a cycle of `extends` ends here
  const json = parseJsonc(repo.read?.(path));
  if (!json || depth > 8) return undefined;
  const dir = dirOf(path);
  const ext = typeof json.extends === "string" && json.extends.startsWith(".")
    ? joinPath(dir, json.extends)
    : undefined;
  const base = ext === undefined
    ? undefined
    : projectAt(repo, ext.endsWith(".json") ? ext : `${ext}.json`, depth + 1);
  const opts = (json.compilerOptions ?? {}) as Record<string, unknown>;
  const at = (v: unknown) => (typeof v === "string" ? joinPath(dir, v) : undefined);
  const out = at(opts.outDir) ?? base?.output?.out;
  const root = at(opts.rootDir) ?? base?.output?.root ?? dir;
  const references = Array.isArray(json.references)
    ? json.references.flatMap((r) => {
      const p = r && typeof r === "object" ? at((r as Record<string, unknown>).path) : undefined;
      if (p === undefined) return [];
      return [p.endsWith(".json") ? p : `${p ? `${p}/` : ""}tsconfig.json`];
    })
    : [];
  const project = { output: out !== undefined ? { out, root } : undefined, references };
  byPath.set(path, project);
  return project;
}

/** The nearest tsconfig.json at or above `dir`. */
function nearestConfig(repo: RepoFiles, dir: string): string | undefined {
  for (let d: string | undefined = dir; d !== undefined; d = d ? dirOf(d) : undefined) {
    const path = d ? `${d}/tsconfig.json` : "tsconfig.json";
    if (repo.read?.(path) !== undefined) return path;
  }
  return undefined;
}

/** A repository path inside an output directory, as its source (extension left to try). */
function toSource(path: string, o: Output): string | undefined {
  if (o.out === o.root || (path !== o.out && !path.startsWith(`${o.out}/`))) return undefined;
  const rest = path.slice(o.out.length).replace(/^\//, "");
  const stem = rest.replace(/\.d\.[cm]?ts$|\.[cm]?jsx?$/, "");
  return o.root ? `${o.root}/${stem}` : stem;
}

function sourceFiles(path: string, repo: RepoFiles, exts: string[]): string[] {
  return relativeFiles(`./${path}`, "", repo, exts);
}

/** A relative import that reached no file, through the outputs of referenced projects. */
export function referencedImport(
  source: string,
  fromPath: string,
  repo: RepoFiles,
  exts: string[],
): string[] {
  if (!repo.read) return [];
  const target = joinPath(dirOf(fromPath), source);
  const config = target === undefined ? undefined : nearestConfig(repo, dirOf(fromPath));
  if (target === undefined || config === undefined) return [];
  const own = projectAt(repo, config);
  for (const path of [config, ...(own?.references ?? [])]) {
    const o = projectAt(repo, path)?.output;
    const mapped = o && toSource(target, o);
    if (mapped === undefined) continue;
    const hit = sourceFiles(mapped, repo, exts);
    if (hit.length) return hit;
  }
  return [];
}

/** A package entry in its package's `outDir` (`out/index.js`), as its source file. */
export function entrySource(
  pkgDir: string,
  entry: string,
  repo: RepoFiles,
  exts: string[],
): string[] {
  const config = pkgDir ? `${pkgDir}/tsconfig.json` : "tsconfig.json";
  if (repo.read?.(config) === undefined) return [];
  const o = projectAt(repo, config)?.output;
  const path = joinPath(pkgDir, entry);
  const mapped = o && path !== undefined ? toSource(path, o) : undefined;
  return mapped === undefined ? [] : sourceFiles(mapped, repo, exts);
}
