import type { ImportFact } from "../../graph/facts.ts";
import type { LanguageSpec, RepoFiles } from "../spec.ts";
import { pathModuleName } from "../paths.ts";
import { prepareMacros } from "./macros.ts";
import query from "./tags.scm" with { type: "text" };

/** Crates that are never in the repository. */
const EXTERN_ROOTS = new Set(["std", "core", "alloc", "proc_macro", "test"]);

/** Where a file sits in its crate: the crate's source dir and the file's module path in it. */
interface CratePlace {
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
interface ManifestFiles extends RepoFiles {
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

function dirOfPath(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function joinRel(dir: string, rel: string): string {
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
function cratePlace(path: string, repo?: ManifestFiles): CratePlace {
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
      : TARGET_DIRS.has(name) && dirs[n - 2] !== "src" && !hasRoot(dirs.slice(0, n - 1).join("/"));
    if (target) return placeIn(path, dir, undefined, true);
  }
  return pathPlace(path);
}

/** Files of a module path in a crate: `a/b.rs` or `a/b/mod.rs`; the crate root for []. */
function moduleFiles(
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
function externCrate(name: string, place: CratePlace, repo: ManifestFiles): CratePlace | undefined {
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

/** Module path a `use` path's module part starts from, or undefined when it leaves the crate. */
function anchorPath(
  segs: string[],
  place: CratePlace,
): { base: string[]; rest: string[]; bare?: boolean } | undefined {
  const first = segs[0];
  if (first === "crate" || first === "$crate") return { base: [], rest: segs.slice(1) };
  if (first === "self") return { base: place.module, rest: segs.slice(1) };
  if (first === "super") {
    let up = 0;
    while (segs[up] === "super") up++;
    if (up > place.module.length) return undefined;
    return { base: place.module.slice(0, place.module.length - up), rest: segs.slice(up) };
  }
  if (EXTERN_ROOTS.has(first)) return undefined;
  // Edition 2018 paths: a name in the current module (a child `mod`), else an extern crate.
  return { base: place.module, rest: segs, bare: true };
}

/** One leaf of a use tree: its full path, alias, and the leaf's own tokens (to find it again). */
interface UseLeaf {
  path: string[];
  alias?: string;
  wildcard: boolean;
  key: string;
}

/** Expands `crate::a::{b, c::{D as E, *}}` into its leaves. */
export function useLeaves(text: string): UseLeaf[] {
  const tokens = text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, " ")
    .match(/r#\w+|\$?[A-Za-z_][\w]*|::|[{},*]/g) ?? [];
  let i = 0;
  const leaves: UseLeaf[] = [];
  const tree = (prefix: string[]): void => {
    const start = i;
    const path: string[] = [];
    if (tokens[i] === "::") i++;
    while (i < tokens.length) {
      const t = tokens[i];
      if (t === "{") {
        i++;
        while (i < tokens.length && tokens[i] !== "}") {
          if (tokens[i] === ",") i++;
          else tree([...prefix, ...path]);
        }
        i++;
        return;
      }
      if (t === "*") {
        i++;
        leaves.push({
          path: [...prefix, ...path],
          wildcard: true,
          key: tokens.slice(start, i).join(""),
        });
        return;
      }
      if (t === "," || t === "}") break;
      if (t === "::") {
        i++;
        continue;
      }
      if (t === "as" && path.length > 0) {
        const alias = tokens[i + 1];
        i += 2;
        leaves.push({
          path: [...prefix, ...path],
          alias,
          wildcard: false,
          key: tokens.slice(start, i).join(""),
        });
        return;
      }
      path.push(t.replace(/^r#/, ""));
      i++;
    }
    if (path.length) {
      leaves.push({
        path: [...prefix, ...path],
        wildcard: false,
        key: tokens.slice(start, i).join(""),
      });
    }
  };
  while (i < tokens.length) {
    const before = i;
    tree([]);
    if (i === before) i++;
  }
  return leaves;
}

/** Files a `use` path names inside one crate (see resolveImport). */
function filesOf(
  place: CratePlace,
  anchor: { base: string[]; rest: string[]; bare?: boolean },
  imp: ImportFact,
  fromPath: string,
  repo: RepoFiles,
): string[] {
  const module = [...anchor.base, ...anchor.rest];
  // `use crate::a::b;` where b is itself a module file.
  if (imp.name && !imp.wildcard) {
    const sub = moduleFiles(place, [...module, imp.name], fromPath, repo);
    if (sub.length) return sub;
  }
  const files = moduleFiles(place, module, fromPath, repo);
  if (files.length) return files;
  // `crate::a::Role::X` (an enum, an inline mod): the item Role lives in a's file.
  if (anchor.rest.length > (anchor.bare ? 1 : 0)) {
    return moduleFiles(place, module.slice(0, -1), fromPath, repo);
  }
  return [];
}

/** The use-tree leaf an import capture names, as a flat import (`crate::a` + `B`). */
function normalizeUse(imp: ImportFact): ImportFact {
  if (imp.source === "mod" && imp.name) return { source: `self::${imp.name}`, line: imp.line };
  // `#[path = "x.rs"] mod y;` (tags.scm: the path as source, the module as alias).
  if (imp.alias && imp.source.endsWith(".rs")) {
    return { source: imp.source, alias: imp.alias, line: imp.line };
  }
  // A path qualifying a call, struct literal or type (`crate::a::f()`, `super::g()`, `a::B::new()`):
  // tags.scm captures it as both source and alias. It binds its own dotted spelling (the call's
  // receiver, `crate.a`), so the qualifier resolves like `use crate::a;` would.
  const compact = (t: string) => t.replace(/\s+/g, "");
  if (imp.alias !== undefined && compact(imp.alias) === compact(imp.source)) {
    const segs = compact(imp.source).split("::").filter(Boolean);
    const alias = segs.join(".");
    if (segs.length === 1) return { source: segs[0], alias, line: imp.line };
    return {
      source: segs.slice(0, -1).join("::"),
      name: segs[segs.length - 1],
      alias,
      line: imp.line,
    };
  }
  const leaves = useLeaves(imp.source);
  const key = (imp.name ?? imp.source).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").replace(
    /\s+/g,
    "",
  );
  const leaf = leaves.find((l) => l.key === key) ?? (leaves.length === 1 ? leaves[0] : undefined);
  if (!leaf) return imp;
  let path = leaf.path;
  if (leaf.wildcard) return { source: path.join("::"), wildcard: true, line: imp.line };
  if (path[path.length - 1] === "self") path = path.slice(0, -1);
  else if (path.length > 1) {
    return {
      source: path.slice(0, -1).join("::"),
      name: path[path.length - 1],
      alias: leaf.alias === "_" ? undefined : leaf.alias,
      line: imp.line,
    };
  }
  // A whole module: `use foo;`, `use crate::a::{self}`.
  return {
    source: path.join("::"),
    alias: leaf.alias === "_" ? undefined : leaf.alias,
    line: imp.line,
  };
}

/** `prepare` takes effect once extract.ts applies `LanguageSpec.prepare` (see macros.ts). */
export const rust: LanguageSpec & { prepare(text: string): string } = {
  name: "rust",
  grammar: "rust",
  extensions: [".rs"],
  query,
  selfNames: ["self", "Self"],
  implicitThis: false,
  uniqueBareNames: false,
  namespaceFunctions: true,
  packageScope: "none",
  typeNames: /^[A-Z][\w$]*$/,
  parentModule: "super",
  // Generic trait impls give one type several same-named methods (`impl From<A> for T`, `impl
  // From<B> for T`): chosen like overloads, never all linked.
  overloads: true,
  traitDispatch: true,
  identityMethods: [
    "unwrap",
    "expect",
    "unwrap_or_default",
    "clone",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "as_deref",
    "as_deref_mut",
  ],
  testFiles: /(^|\/)tests\/|_test\.rs$/,
  docStyle: "comments",
  // `-> Result<Store, E>` / `-> Option<Box<Store>>`: `f()?.m()` and `x.m()` reach Store's methods.
  typeWrappers: ["Option", "Result", "Box", "Rc", "Arc"],
  // Crate-relative module path: `src/store/memory.rs` -> `store.memory`, `src/lib.rs` -> ``;
  // outside a `src/` the path names it, a crate root by its directory (`crates/x/lib.rs` -> `crates.x`).
  moduleName(path) {
    const place = cratePlace(path);
    if (/(^|\/)src\//.test(path)) return [place.prefix, ...place.module].filter(Boolean).join(".");
    const dotted = pathModuleName(path, { index: "mod" });
    return /(^|\/)(lib|main)\.rs$/.test(path) ? dotted.replace(/\.?(lib|main)$/, "") : dotted;
  },
  normalizeImport: normalizeUse,
  prepare: prepareMacros,
  resolveImport(imp, fromPath, repo) {
    // `#[path = "x.rs"] mod y;`: relative to the declaring file's directory.
    if (imp.source.endsWith(".rs")) {
      const file = joinRel(dirOfPath(fromPath), imp.source);
      return repo.has(file) ? [file] : [];
    }
    const segs = imp.source.split("::").filter(Boolean);
    if (imp.source.startsWith("::") || segs.length === 0) return [];
    const place = cratePlace(fromPath, repo);
    const anchor = anchorPath(segs, place);
    if (!anchor) return [];
    const found = filesOf(place, anchor, imp, fromPath, repo);
    if (found.length || !anchor.bare) return found;
    // Not a child module: an extern crate, when the repository holds it.
    const crate = externCrate(segs[0], place, repo);
    return crate ? filesOf(crate, { base: [], rest: segs.slice(1) }, imp, fromPath, repo) : [];
  },
  moduleBinding(source) {
    const segs = source.split("::").filter(Boolean);
    const last = segs[segs.length - 1];
    return last && !["crate", "self", "super", "$crate"].includes(last) ? last : undefined;
  },
  commonMethods: (
    "new default clone to_string to_owned into from as_ref as_mut as_str iter iter_mut " +
    "into_iter map and_then unwrap expect unwrap_or unwrap_or_else unwrap_or_default ok err " +
    "ok_or is_some is_none is_ok is_err push pop insert remove get get_mut contains " +
    "contains_key len is_empty clear extend collect filter filter_map fold borrow borrow_mut " +
    "lock read write send recv fmt eq cmp partial_cmp hash next drop deref join split trim " +
    "parse entry or_insert or_insert_with keys values sort sort_by find any all count sum min " +
    "max first last chars bytes take replace with_capacity starts_with ends_with to_vec " +
    "append retain copied cloned flatten zip rev enumerate skip flush run build call apply " +
    "display finish path as_path to_str to_path_buf exists is_dir is_file file_name extension " +
    "parent canonicalize metadata lines write_all read_to_string read_line as_bytes as_slice " +
    "as_deref as_mut_slice to_lowercase to_uppercase map_err ok_or_else " +
    // std::process::Command's builder and std slices, strings and iterators
    "arg args env envs env_remove current_dir status output spawn stdin stdout stderr wait kill " +
    "split_last split_first split_at split_off split_once rsplit_once windows chunks " +
    "binary_search dedup truncate resize swap reverse concat repeat position nth step_by chain " +
    "peekable for_each inspect map_or map_or_else unwrap_err get_or_insert_with strip_prefix " +
    "strip_suffix trim_start trim_end char_indices is_ascii to_ascii_lowercase last_mut first_mut"
  ).split(" "),
};
