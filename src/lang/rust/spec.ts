import type { ImportFact } from "../../graph/facts.ts";
import type { LanguageSpec, RepoFiles } from "../spec.ts";
import { pathModuleName } from "../paths.ts";
import {
  type CratePlace,
  cratePlace,
  dirOfPath,
  externCrate,
  joinRel,
  moduleFiles,
  providedCrates,
} from "./crates.ts";
import { prepareMacros } from "./macros.ts";
import query from "./tags.scm" with { type: "text" };

/** Crates that are never in the repository. */
const EXTERN_ROOTS = new Set(["std", "core", "alloc", "proc_macro", "test"]);

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

let lastUse: { text: string; leaves: UseLeaf[] } | undefined;

/**
 * Expands `crate::a::{b, c::{D as E, *}}` into its leaves. Each leaf of a use tree asks for the
 * same tree in a row: the last expansion is kept, so a long list costs once, not once per leaf.
 */
export function useLeaves(text: string): UseLeaf[] {
  if (lastUse?.text !== text) lastUse = { text, leaves: expandUse(text) };
  return lastUse.leaves;
}

function expandUse(text: string): UseLeaf[] {
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
  manifests: ["Cargo.toml"],
  provides: providedCrates,
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
