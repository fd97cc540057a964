import type { ImportFact } from "../../index/facts.ts";
import type { LanguageSpec, RepoFiles } from "../spec.ts";
import { pathModuleName } from "../paths.ts";
import query from "./tags.scm" with { type: "text" };

/** Crates that are never in the repository. */
const EXTERN_ROOTS = new Set(["std", "core", "alloc", "proc_macro", "test"]);

/** Where a file sits in its crate: the crate's source dir and the file's module path in it. */
interface CratePlace {
  /** `src`, `crates/foo/src`, or for files outside a `src/` (tests, examples) their top dir. */
  root: string;
  /** Module path inside the crate: `src/store/memory.rs` -> [store, memory]; crate roots -> []. */
  module: string[];
  /** Prefix naming the crate in qualified names (`crates/foo/src/x.rs` -> `crates.foo`). */
  prefix: string;
}

function cratePlace(path: string): CratePlace {
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
  return { root: top, module: rel.length <= 1 ? [] : rel, prefix: "" };
}

/** Files of a module path in a crate: `a/b.rs` or `a/b/mod.rs`; the crate root for []. */
function moduleFiles(root: string, module: string[], fromPath: string, repo: RepoFiles): string[] {
  const base = root ? `${root}/` : "";
  if (module.length === 0) {
    if (/(^|\/)(lib|main)\.rs$/.test(fromPath) && fromPath.startsWith(base)) {
      const own = fromPath.slice(base.length);
      if (own === "lib.rs" || own === "main.rs") return [fromPath];
    }
    for (const f of ["lib.rs", "main.rs"]) if (repo.has(base + f)) return [base + f];
    return [];
  }
  const rel = base + module.join("/");
  return [`${rel}.rs`, `${rel}/mod.rs`].filter((f) => repo.has(f));
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

/** The use-tree leaf an import capture names, as a flat import (`crate::a` + `B`). */
function normalizeUse(imp: ImportFact): ImportFact {
  if (imp.source === "mod" && imp.name) return { source: `self::${imp.name}`, line: imp.line };
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

export const rust: LanguageSpec = {
  name: "rust",
  grammar: "rust",
  extensions: [".rs"],
  query,
  selfNames: ["self", "Self"],
  implicitThis: false,
  uniqueBareNames: false,
  namespaceFunctions: true,
  packageScope: "none",
  docStyle: "comments",
  // Crate-relative module path: `src/store/memory.rs` -> `store.memory`, `src/lib.rs` -> ``.
  moduleName(path) {
    const place = cratePlace(path);
    if (!/(^|\/)src\//.test(path)) return pathModuleName(path, { index: "mod" });
    return [place.prefix, ...place.module].filter(Boolean).join(".");
  },
  normalizeImport: normalizeUse,
  resolveImport(imp, fromPath, repo) {
    const segs = imp.source.split("::").filter(Boolean);
    if (imp.source.startsWith("::") || segs.length === 0) return [];
    const place = cratePlace(fromPath);
    const anchor = anchorPath(segs, place);
    if (!anchor) return [];
    const module = [...anchor.base, ...anchor.rest];
    // `use crate::a::b;` where b is itself a module file.
    if (imp.name && !imp.wildcard) {
      const sub = moduleFiles(place.root, [...module, imp.name], fromPath, repo);
      if (sub.length) return sub;
    }
    const files = moduleFiles(place.root, module, fromPath, repo);
    if (files.length) return files;
    // `crate::a::Role::X` (an enum, an inline mod): the item Role lives in a's file.
    if (anchor.rest.length > (anchor.bare ? 1 : 0)) {
      return moduleFiles(place.root, module.slice(0, -1), fromPath, repo);
    }
    return [];
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
    "display finish"
  ).split(" "),
};
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)tests\/|_test\.rs$/,
