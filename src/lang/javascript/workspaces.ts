/**
 * Imports that name a package of the same repository, for JavaScript and TypeScript:
 *
 * - tsconfig/jsconfig `compilerOptions.paths` and `baseUrl` (following relative `extends`), from
 *   the nearest config above the importing file: `import { x } from "@app/util"` with
 *   `"@app/*": ["src/app/*"]`;
 * - workspace packages (npm, pnpm, yarn): any `package.json` with a `name` in the repository
 *   (node_modules is never indexed): `import { x } from "@org/pkg"` reaches the package's source,
 *   from its `source`, `exports`, `module`, `main` or `types` entry, a built entry (`dist/index.js`)
 *   mapped back to `src/`, else `src/index` or `index`; `@org/pkg/sub` reaches `sub` inside it;
 * - a guess by name alone never reaches a test file of another workspace package (workspaceSees).
 *
 * Everything is read from the project files the index hands over (RepoFiles.read); none read: no
 * change from plain relative resolution.
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf, relativeFiles } from "../paths.ts";
import { parseJsonc } from "./jsonc.ts";
import { entrySource } from "./references.ts";

export { parseJsonc };

interface Pkg {
  name: string;
  dir: string;
  entries: string[];
}

interface TsConfig {
  /** Directory `paths` are relative to (repository-relative, "" for the root). */
  base: string;
  /** `baseUrl` given: bare specifiers are tried under it. */
  baseUrl?: string;
  paths: [string, string[]][];
}

interface Workspace {
  packages: Pkg[];
  configs: Map<string, TsConfig | undefined>;
}

const cache = new WeakMap<RepoFiles, Workspace>();

/** Files a bare specifier reaches inside the repository (empty: a package from outside). */
export function workspaceImport(
  source: string,
  fromPath: string,
  repo: RepoFiles,
  exts: string[],
): string[] {
  if (!repo.read || !repo.manifests) return [];
  const ws = workspaceOf(repo);
  const config = nearestConfig(ws, repo, dirOf(fromPath));
  if (config) {
    const hit = viaConfig(config, source, repo, exts);
    if (hit.length) return hit;
  }
  return viaPackage(ws.packages, source, repo, exts);
}

function workspaceOf(repo: RepoFiles): Workspace {
  let ws = cache.get(repo);
  if (ws) return ws;
  const packages: Pkg[] = [];
  for (const path of repo.manifests!("package.json")) {
    const json = parseJsonc(repo.read!(path));
    if (!json || typeof json.name !== "string" || !json.name) continue;
    packages.push({ name: json.name, dir: dirOf(path), entries: entriesOf(json) });
  }
  // Longest name first: `@org/pkg-extra` before `@org/pkg`.
  packages.sort((a, b) => b.name.length - a.name.length || (a.dir < b.dir ? -1 : 1));
  ws = { packages, configs: new Map() };
  cache.set(repo, ws);
  return ws;
}

/** Entry files a package.json names for its root import, most source-like first. */
function entriesOf(json: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      // A conditional export: the "." entry, then the conditions most likely to hold source.
      for (const k of [".", "source", "types", "import", "module", "default", "require", "node"]) {
        if (k in o) add(o[k]);
      }
    }
  };
  for (const k of ["source", "exports", "module", "main", "types", "typings"]) add(json[k]);
  return out;
}

function viaPackage(packages: Pkg[], source: string, repo: RepoFiles, exts: string[]): string[] {
  for (const pkg of packages) {
    if (source !== pkg.name && !source.startsWith(`${pkg.name}/`)) continue;
    const sub = source.slice(pkg.name.length + 1);
    if (sub) {
      for (const dir of ["", "src/", "lib/"]) {
        const hit = inRepo(`${prefix(pkg.dir)}${dir}${sub}`, repo, exts);
        if (hit.length) return hit;
      }
      return [];
    }
    for (const entry of [...pkg.entries, "src/index", "index"]) {
      const rel = entry.replace(/^\.\//, "");
      const exact = rel ? inRepo(`${prefix(pkg.dir)}${rel}`, repo, exts) : [];
      if (exact.length) return exact;
      // The package's tsconfig maps its outDir to its rootDir (references.ts), else a guess.
      const built = entrySource(pkg.dir, rel, repo, exts);
      if (built.length) return built;
      const guess = toSource(rel);
      const hit = guess ? inRepo(`${prefix(pkg.dir)}${guess}`, repo, exts) : [];
      if (hit.length) return hit;
    }
    return [];
  }
  return [];
}

/** A built entry mapped back to its source: `dist/index.js` -> `src/index`. */
function toSource(entry: string): string | undefined {
  const m = /^(?:dist|lib|build|out|esm|cjs|es|types)(?:\/(?:esm|cjs|es|src))?\/(.+)$/.exec(entry);
  if (!m) return undefined;
  return `src/${m[1].replace(/\.d\.[cm]?ts$|\.[cm]?jsx?$/, "")}`;
}

function prefix(dir: string): string {
  return dir ? `${dir}/` : "";
}

/** A repository-relative module path to its file (extensions and `index` tried). */
function inRepo(path: string, repo: RepoFiles, exts: string[]): string[] {
  if (path.includes("..")) return [];
  return relativeFiles(`./${path}`, "", repo, exts);
}

function viaConfig(c: TsConfig, source: string, repo: RepoFiles, exts: string[]): string[] {
  let best: { targets: string[]; star: string; len: number } | undefined;
  for (const [pattern, targets] of c.paths) {
    const star = pattern.indexOf("*");
    if (star < 0) {
      if (pattern === source) {
        best = { targets, star: "", len: Infinity };
        break;
      }
      continue;
    }
    const [pre, post] = [pattern.slice(0, star), pattern.slice(star + 1)];
    if (
      source.length >= pre.length + post.length && source.startsWith(pre) &&
      source.endsWith(post) && (!best || pre.length > best.len)
    ) {
      best = {
        targets,
        star: source.slice(pre.length, source.length - post.length),
        len: pre.length,
      };
    }
  }
  for (const t of best?.targets ?? []) {
    const hit = inRepo(joinRel(c.base, t.replace("*", best!.star)), repo, exts);
    if (hit.length) return hit;
  }
  if (c.baseUrl !== undefined) return inRepo(joinRel(c.baseUrl, source), repo, exts);
  return [];
}

/** `base` + `rel`, normalised (`./`, `..`); undefined parts outside the repository give "..". */
function joinRel(base: string, rel: string): string {
  const parts = base ? base.split("/") : [];
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!parts.length) return "..";
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/** The tsconfig.json or jsconfig.json nearest above `dir`, resolved through `extends`. */
function nearestConfig(ws: Workspace, repo: RepoFiles, dir: string): TsConfig | undefined {
  if (ws.configs.has(dir)) return ws.configs.get(dir);
  let found: TsConfig | undefined;
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    const path = `${prefix(dir)}${name}`;
    if (repo.read!(path) !== undefined) {
      found = loadConfig(repo, path, 0);
      break;
    }
  }
  if (!found && dir) found = nearestConfig(ws, repo, dirOf(dir));
  ws.configs.set(dir, found);
  return found;
}

function loadConfig(repo: RepoFiles, path: string, depth: number): TsConfig | undefined {
  const json = parseJsonc(repo.read!(path));
  if (!json || depth > 8) return undefined;
  const dir = dirOf(path);
  // A relative `extends` is followed (its paths and baseUrl hold unless this file sets them).
  let inherited: TsConfig | undefined;
  const ext = typeof json.extends === "string" ? json.extends : undefined;
  if (ext?.startsWith(".")) {
    const target = joinRel(dir, ext);
    inherited = loadConfig(repo, target.endsWith(".json") ? target : `${target}.json`, depth + 1);
  }
  const opts = (json.compilerOptions ?? {}) as Record<string, unknown>;
  const baseUrl = typeof opts.baseUrl === "string" ? joinRel(dir, opts.baseUrl) : undefined;
  const paths = opts.paths && typeof opts.paths === "object"
    ? Object.entries(opts.paths as Record<string, unknown>).map(([k, v]) =>
      [k, Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []] as [
        string,
        string[],
      ]
    )
    : undefined;
  return {
    // Paths are relative to baseUrl when set, else to the config that states them.
    base: baseUrl ?? (paths ? dir : inherited?.base ?? dir),
    baseUrl: baseUrl ?? inherited?.baseUrl,
    paths: paths ?? inherited?.paths ?? [],
  };
}

/** Test files of JavaScript and TypeScript alike (`x.test.ts`, `x.spec.jsx`). */
const TEST_FILES = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** The innermost workspace package (its directory) holding a path, if any. */
function packageDirOf(ws: Workspace, path: string): string | undefined {
  let best: string | undefined;
  for (const p of ws.packages) {
    if (
      (p.dir === "" || path.startsWith(`${p.dir}/`)) &&
      (best === undefined || p.dir.length > best.length)
    ) best = p.dir;
  }
  return best;
}

/**
 * Whether code at `fromPath` may use a definition at `toPath` as the workspace has it: never a
 * test file of another workspace package (a package's tests are no part of what it offers).
 */
export function workspaceSees(fromPath: string, toPath: string, repo: RepoFiles): boolean {
  if (!TEST_FILES.test(toPath) || !repo.read || !repo.manifests) return true;
  const ws = workspaceOf(repo);
  const home = packageDirOf(ws, fromPath);
  const owner = packageDirOf(ws, toPath);
  return home === undefined || owner === undefined || home === owner;
}

/** The packages the repository offers other projects: every package.json with a `name`. */
export function providedPackages(repo: RepoFiles): { name: string; dir: string; sep: string }[] {
  if (!repo.read || !repo.manifests) return [];
  return workspaceOf(repo).packages.map((p) => ({ name: p.name, dir: p.dir, sep: "/" }));
}
