/**
 * Path dependencies a crate declares in its `Cargo.toml`: the name its code uses for another crate
 * of the repository, renamed or not (`geom = { path = "../geometry", package = "geometry-core" }`:
 * `use geom::area` is that crate), also through the workspace (`geom.workspace = true` with
 * `[workspace.dependencies] geom = { path = "crates/geometry", package = "geometry-core" }`).
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf, joinPath } from "../paths.ts";

interface Dep {
  path?: string;
  workspace?: boolean;
}

interface Manifest {
  dir: string;
  /** Dependencies by the name code uses (`-` as `_`). */
  deps: Map<string, Dep>;
  /** `[workspace.dependencies]`, by the same names. */
  workspaceDeps: Map<string, Dep>;
}

const cache = new WeakMap<RepoFiles, Map<string, Manifest>>();

const DEP_TABLE = /^(?:target\..+\.)?(?:dev-|build-)?dependencies$/;

/** Every manifest of the repository, parsed for dependencies (by its directory). */
function manifestsOf(repo: RepoFiles): Map<string, Manifest> {
  let out = cache.get(repo);
  if (out) return out;
  out = new Map();
  for (const path of repo.manifests?.("Cargo.toml") ?? []) {
    const text = repo.read?.(path);
    if (text !== undefined) out.set(dirOf(path), parse(dirOf(path), text));
  }
  cache.set(repo, out);
  return out;
}

function parse(dir: string, text: string): Manifest {
  const m: Manifest = { dir, deps: new Map(), workspaceDeps: new Map() };
  let table = "";
  /** `[dependencies.foo]`: the dependency the following keys describe. */
  let inDep: Dep | undefined;
  const target = () => (table === "workspace.dependencies" ? m.workspaceDeps : m.deps);
  for (const raw of text.split("\n")) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      const name = header[1].replace(/["']/g, "");
      const dot = name.lastIndexOf(".");
      const parent = dot < 0 ? "" : name.slice(0, dot);
      inDep = undefined;
      if (DEP_TABLE.test(parent) || parent === "workspace.dependencies") {
        table = parent;
        inDep = {};
        target().set(crateName(name.slice(dot + 1)), inDep);
      } else table = name;
      continue;
    }
    if (inDep) {
      const kv = /^([\w-]+)\s*=\s*(.+)$/.exec(line);
      if (kv) assign(inDep, kv[1], kv[2]);
      continue;
    }
    if (!DEP_TABLE.test(table) && table !== "workspace.dependencies") continue;
    // `foo = { path = "..", package = ".." }`, `foo.path = ".."`, `foo.workspace = true`
    const kv = /^([\w-]+)(?:\.([\w-]+))?\s*=\s*(.+)$/.exec(line);
    if (!kv) continue;
    const name = crateName(kv[1]);
    const dep = target().get(name) ?? {};
    target().set(name, dep);
    if (kv[2]) assign(dep, kv[2], kv[3]);
    else if (kv[3].startsWith("{")) {
      for (const [, k, v] of kv[3].matchAll(/([\w-]+)\s*=\s*("[^"]*"|'[^']*'|true|false)/g)) {
        assign(dep, k, v);
      }
    }
  }
  return m;
}

function assign(dep: Dep, key: string, value: string): void {
  const v = value.trim().replace(/^["']|["']$/g, "");
  if (key === "path") dep.path = v;
  if (key === "workspace") dep.workspace = v === "true";
}

function crateName(key: string): string {
  return key.replace(/-/g, "_");
}

/**
 * The directory of the crate that `name` means in code under `dir` (the crate's source directory),
 * by the path dependencies of the nearest manifest around it; undefined when none declares it.
 */
export function pathDependencyDir(name: string, dir: string, repo: RepoFiles): string | undefined {
  const manifests = manifestsOf(repo);
  if (!manifests.size) return undefined;
  const parts = dir ? dir.split("/") : [];
  for (let n = parts.length; n >= 0; n--) {
    const own = manifests.get(parts.slice(0, n).join("/"));
    if (!own) continue;
    const dep = own.deps.get(name);
    if (!dep) return undefined;
    if (dep.path !== undefined) return joinPath(own.dir, dep.path);
    if (!dep.workspace) return undefined;
    // Inherited from the workspace: the nearest manifest above with that dependency.
    for (let k = n - 1; k >= 0; k--) {
      const ws = manifests.get(parts.slice(0, k).join("/"))?.workspaceDeps.get(name);
      if (ws?.path !== undefined) return joinPath(parts.slice(0, k).join("/"), ws.path);
    }
    return undefined;
  }
  return undefined;
}
