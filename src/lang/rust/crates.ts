/**
 * Rust crates: where a file sits in its crate (Cargo manifests' targets, `src/` layouts, target
 * directories), the files of a module path, and the library an extern crate name means.
 */
import type { RepoFiles } from "../spec.ts";
import { pathDependencyDir } from "./deps.ts";

/** Where a file sits in its crate: the crate's source dir and the file's module path in it. */
export interface CratePlace {
  /** `src`, `crates/foo/src`, `crates/foo` (`[lib] path = "lib.rs"`), `tests`, `src/bin`. */
  root: string;
  /** Module path inside the crate: `src/store/memory.rs` -> [store, memory]; crate roots -> []. */
  module: string[];
  /** Prefix naming the crate in qualified names (`crates/foo/src/x.rs` -> `crates.foo`). */
  prefix: string;
  /** The crate root file (`src/lib.rs`, a `[lib] path`), when one file roots `root`'s modules. */
  rootFile?: string;
  /**
   * The root holds one crate per file (`tests/`, `examples/`, `benches/`, `src/bin/`): a file
   * directly in it is its own crate root.
   */
  perFile?: boolean;
}

/** Directories whose files are each a crate root (Cargo's auto-discovered targets). */
const TARGET_DIRS = new Set(["tests", "examples", "benches"]);

/**
 * What the index may offer beyond source paths: the text of a project file such as `Cargo.toml`
 * (whose path `has` and `withSuffix` then know). Used when present; without it, crate roots come
 * from the files' layout alone.
 */
export interface ManifestFiles extends RepoFiles {
  read?(path: string): string | undefined;
}

/** One crate target a manifest declares or Cargo discovers: its root file and extern name. */
interface Target {
  file: string;
  /** Extern crate name of a library target (`foo-bar` -> `foo_bar`). */
  lib?: string;
}

/** The crate targets of every `Cargo.toml` in the repository (empty when none can be read). */
const manifestTargets = new WeakMap<RepoFiles, Target[]>();

function targetsOf(repo: ManifestFiles): Target[] {
  let targets = manifestTargets.get(repo);
  if (targets) return targets;
  targets = [];
  if (repo.read) {
    for (const manifest of repo.withSuffix("Cargo.toml")) {
      const text = repo.read(manifest);
      if (text !== undefined) targets.push(...parseManifest(manifest, text, repo));
    }
  }
  manifestTargets.set(repo, targets);
  return targets;
}

/**
 * Targets of one `Cargo.toml`: `[lib]` (name, path), `[[bin]]`/`[[test]]`/`[[example]]`/`[[bench]]`
 * paths, and Cargo's auto-discovered ones (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`,
 * `tests/*.rs`, ...) unless `autotests = false` and the like turn them off.
 */
export function parseManifest(manifest: string, text: string, repo: RepoFiles): Target[] {
  const dir = dirOfPath(manifest);
  const at = (rel: string) => joinRel(dir, rel);
  const tables: { name: string; keys: Map<string, string> }[] = [];
  let current = { name: "", keys: new Map<string, string>() };
  tables.push(current);
  for (const raw of text.split("\n")) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    const header = line.match(/^\[\[?\s*([\w.-]+)\s*\]\]?$/);
    if (header) {
      current = { name: header[1], keys: new Map() };
      tables.push(current);
      continue;
    }
    const kv = line.match(/^([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(true|false))/);
    if (kv) current.keys.set(kv[1], kv[2] ?? kv[3] ?? kv[4]);
  }
  const pkg = tables.find((t) => t.name === "package")?.keys;
  if (!pkg) return []; // a virtual workspace manifest declares no crate
  const out: Target[] = [];
  const lib = tables.find((t) => t.name === "lib")?.keys;
  const libFile = at(lib?.get("path") ?? "src/lib.rs");
  const libName = (lib?.get("name") ?? pkg.get("name"))?.replace(/-/g, "_");
  if (repo.has(libFile)) out.push({ file: libFile, lib: libName });
  for (const t of tables) {
    if (["bin", "test", "example", "bench"].includes(t.name) && t.keys.get("path")) {
      out.push({ file: at(t.keys.get("path")!) });
    }
  }
  const auto = (key: string) => pkg.get(key) !== "false";
  if (auto("autobins")) {
    out.push({ file: at("src/main.rs") });
    for (const f of repo.inDir(at("src/bin"))) out.push({ file: f });
  }
  for (
    const [key, sub] of [["autotests", "tests"], ["autoexamples", "examples"], [
      "autobenches",
      "benches",
    ]]
  ) {
    if (auto(key)) { for (const f of repo.inDir(at(sub))) out.push({ file: f }); }
  }
  out.push({ file: at("build.rs") });
  return out.filter((t) => t.file.endsWith(".rs") && repo.has(t.file));
}

export function dirOfPath(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

export function joinRel(dir: string, rel: string): string {
  const out = dir ? dir.split("/") : [];
  for (const seg of rel.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out.join("/");
}

/** Place from the path alone: a `src` segment roots the crate, else the top directory does. */
function pathPlace(path: string): CratePlace {
  const parts = path.replace(/\.rs$/, "").split("/");
  const src = parts.indexOf("src");
  if (src >= 0 && src < parts.length - 1) {
    const rel = parts.slice(src + 1);
    if (rel[rel.length - 1] === "mod") rel.pop();
    const isRoot = rel.length === 1 && (rel[0] === "lib" || rel[0] === "main");
    return {
      root: parts.slice(0, src + 1).join("/"),
      module: isRoot ? [] : rel,
      prefix: parts.slice(0, src).join("."),
    };
  }
  // tests/it.rs, examples/demo.rs, build.rs: each file directly in the top dir is a crate root.
  const top = parts.length > 1 ? parts[0] : "";
  const rel = parts.slice(top ? 1 : 0);
  if (rel[rel.length - 1] === "mod") rel.pop();
  return { root: top, module: rel.length <= 1 ? [] : rel, prefix: "", perFile: true };
}

/** A file's place below a crate root directory. */
function placeIn(path: string, root: string, rootFile?: string, perFile = false): CratePlace {
  const rel = path.slice(root ? root.length + 1 : 0).replace(/\.rs$/, "").split("/");
  if (rel[rel.length - 1] === "mod") rel.pop();
  const isRoot = path === rootFile ||
    (rel.length === 1 && (perFile || (!rootFile && (rel[0] === "lib" || rel[0] === "main"))));
  return {
    root,
    module: isRoot ? [] : rel,
    prefix: root.replace(/(^|\/)src$/, "").split("/").filter(Boolean).join("."),
    rootFile,
    perFile,
  };
}

/**
 * Where a file sits. With readable manifests: the crate target whose root file's directory
 * most closely encloses the file (a `[lib] path` anywhere, `tests/lib.rs` of a single test crate,
 * `src/bin/x/main.rs`), several targets in one directory (`tests/*.rs`) each rooting only
 * themselves. Without: the nearest enclosing directory holding a `lib.rs` or `main.rs` (`src/`, a
 * workspace member's `src/`, a member whose `[lib] path` is `lib.rs` at its top), or a target
 * directory (`tests/`, `examples/`, `benches/` beside a crate, `src/bin/`) whose files are each a
 * crate root. Failing both, the path decides (`pathPlace`).
 */
export function cratePlace(path: string, repo?: ManifestFiles): CratePlace {
  if (!repo) return pathPlace(path);
  const dirs = path.split("/").slice(0, -1);
  const targets = targetsOf(repo);
  if (targets.length) {
    const own = targets.find((t) => t.file === path);
    if (own) return placeIn(path, dirOfPath(path), path);
    for (let n = dirs.length; n >= 0; n--) {
      const dir = dirs.slice(0, n).join("/");
      const here = targets.filter((t) => dirOfPath(t.file) === dir);
      if (!here.length) continue;
      const lib = here.find((t) => t.lib);
      if (lib || here.length === 1) return placeIn(path, dir, (lib ?? here[0]).file);
      const main = here.find((t) => t.file.endsWith("/main.rs") || t.file === "main.rs");
      return main ? placeIn(path, dir, main.file) : placeIn(path, dir, undefined, true);
    }
  }
  const hasRoot = (dir: string) => {
    const base = dir ? `${dir}/` : "";
    return repo.has(`${base}lib.rs`) || repo.has(`${base}main.rs`);
  };
  for (let n = dirs.length; n >= 0; n--) {
    const dir = dirs.slice(0, n).join("/");
    if (hasRoot(dir)) return placeIn(path, dir);
    if (n === 0) break;
    const name = dirs[n - 1];
    const target = name === "bin"
      ? dirs[n - 2] === "src"
      // `tests/` beside a crate, not a module folder inside its sources (`src/routing/tests/`).
      : TARGET_DIRS.has(name) && !dirs.slice(0, n - 1).includes("src") &&
        !hasRoot(dirs.slice(0, n - 1).join("/"));
    if (target) return placeIn(path, dir, undefined, true);
  }
  return pathPlace(path);
}

/** Files of a module path in a crate: `a/b.rs` or `a/b/mod.rs`; the crate root for []. */
export function moduleFiles(
  place: CratePlace,
  module: string[],
  fromPath: string,
  repo: RepoFiles,
): string[] {
  const base = place.root ? `${place.root}/` : "";
  if (module.length === 0) {
    if (place.rootFile) return [place.rootFile];
    const own = fromPath.startsWith(base) ? fromPath.slice(base.length) : "";
    if (own === "lib.rs" || own === "main.rs") return [fromPath];
    if (place.perFile) return own && !own.includes("/") ? [fromPath] : [];
    for (const f of ["lib.rs", "main.rs"]) if (repo.has(base + f)) return [base + f];
    return [];
  }
  const rel = base + module.join("/");
  return [`${rel}.rs`, `${rel}/mod.rs`].filter((f) => repo.has(f));
}

/**
 * The library crate an extern crate name means when the repository holds it: the manifest's
 * `[lib]`/`[package]` name, else a member directory of that name (`crates/foo-bar/src/lib.rs` for
 * `foo_bar`), else, from a test, example or bench without manifests, the package those belong to
 * (`tests/x.rs` using `mycrate::..` -> `src/lib.rs`).
 */
export function externCrate(
  name: string,
  place: CratePlace,
  repo: ManifestFiles,
): CratePlace | undefined {
  // A path dependency the crate's own Cargo.toml declares under this name (renamed or not).
  const dep = pathDependencyDir(name, place.root, repo);
  if (dep !== undefined) {
    const text = repo.read?.(dep ? `${dep}/Cargo.toml` : "Cargo.toml");
    const lib = text === undefined
      ? [`${dep ? `${dep}/` : ""}src/lib.rs`].find((f) => repo.has(f))
      : parseManifest(dep ? `${dep}/Cargo.toml` : "Cargo.toml", text, repo).find((t) => t.lib)
        ?.file;
    if (lib) return placeIn(lib, dirOfPath(lib), lib);
  }
  const targets = targetsOf(repo);
  if (targets.length) {
    const lib = targets.find((t) => t.lib === name);
    return lib ? placeIn(lib.file, dirOfPath(lib.file), lib.file) : undefined;
  }
  const hits = new Set<string>();
  for (const dir of new Set([name, name.replace(/_/g, "-")])) {
    for (const f of [`${dir}/src/lib.rs`, `${dir}/lib.rs`]) {
      for (const hit of repo.withSuffix(f)) hits.add(hit);
    }
  }
  if (hits.size === 1) {
    const lib = [...hits][0];
    return placeIn(lib, dirOfPath(lib), lib);
  }
  if (!place.perFile || hits.size > 1) return undefined;
  // A target directory's package: the nearest ancestor with a library.
  const dirs = place.root.split("/").filter(Boolean);
  for (let n = dirs.length - 1; n >= 0; n--) {
    const base = dirs.slice(0, n).map((d) => `${d}/`).join("");
    for (const lib of [`${base}src/lib.rs`, `${base}lib.rs`]) {
      if (repo.has(lib)) return placeIn(lib, dirOfPath(lib), lib);
    }
  }
  return undefined;
}

/** The library crates the repository offers other projects: each Cargo.toml's `[lib]`. */
export function providedCrates(repo: RepoFiles): { name: string; dir: string; sep: string }[] {
  const out: { name: string; dir: string; sep: string }[] = [];
  if (!repo.read || !repo.manifests) return out;
  for (const manifest of repo.manifests("Cargo.toml")) {
    const text = repo.read(manifest);
    if (text === undefined) continue;
    for (const t of parseManifest(manifest, text, repo)) {
      if (t.lib) out.push({ name: t.lib, dir: dirOfPath(manifest), sep: "::" });
    }
  }
  return out;
}
