/**
 * Ruby. Namespaces are explicit `module`s (Module definitions), so a file adds no prefix:
 * `module Shop; class Cart; def add` is `Shop.Cart.add`. Constants and methods are global once
 * required, hence `packageScope: "global"`. `Foo.new(...)` is a call of `new` on the receiver
 * `Foo`: the resolver links it to class Foo (whose constructor body is `initialize`).
 */
import type { ImportFact, LanguageSpec, RepoFiles } from "../spec.ts";
import { relativeFiles } from "../paths.ts";
import query from "./tags.scm" with { type: "text" };

export const ruby: LanguageSpec = {
  name: "ruby",
  grammar: "ruby",
  extensions: [".rb", ".rake"],
  query,
  selfNames: ["self"],
  implicitThis: true,
  packageScope: "global",
  typeNames: /^[A-Z][\w$]*$/,
  docStyle: "comments",
  testFiles: /(^|\/)(spec|test)\/|_(spec|test)\.rb$/,
  constructorNames: ["initialize"],
  inheritsConstructors: true,
  moduleName: () => "",
  normalizeImport(imp) {
    // tags.scm marks `require_relative` by capturing the method name as the imported name.
    if (imp.name !== "require_relative") return imp;
    const source = imp.source.startsWith(".") ? imp.source : `./${imp.source}`;
    return { ...imp, source, name: undefined };
  },
  resolveImport: (imp, fromPath, repo) => resolveRequire(imp, fromPath, repo),
  commonMethods: [
    "each",
    "each_with_index",
    "each_with_object",
    "map",
    "flat_map",
    "select",
    "filter",
    "reject",
    "find",
    "detect",
    "inject",
    "reduce",
    "sum",
    "count",
    "size",
    "length",
    "empty?",
    "any?",
    "all?",
    "none?",
    "include?",
    "first",
    "last",
    "push",
    "pop",
    "shift",
    "unshift",
    "concat",
    "sort",
    "sort_by",
    "group_by",
    "min",
    "max",
    "uniq",
    "compact",
    "flatten",
    "zip",
    "join",
    "split",
    "strip",
    "to_s",
    "to_i",
    "to_f",
    "to_a",
    "to_h",
    "to_sym",
    "keys",
    "values",
    "fetch",
    "merge",
    "key?",
    "dig",
    "dup",
    "freeze",
    "tap",
    "then",
    "call",
    "send",
    "format",
    "round",
    "upcase",
    "downcase",
    "gsub",
    "sub",
    "match",
    "read",
    "write",
    "close",
    "open",
    "delete",
    "clear",
    "update",
    "add",
    "get",
    "set",
    "start",
    "stop",
    "run",
    "new",
    "info",
    "warn",
    "error",
    "debug",
  ],
};

/** Where `require "a/b"` looks: the load path of a gem or app, then the repository root. */
const LOAD_ROOTS = ["lib/", "", "app/", "src/"];

/**
 * `require_relative "x"` (normalized to `./x`) -> x.rb next to the file; `require "a/b"` ->
 * lib/a/b.rb (or under the root, app/, src/), else the one file ending in `/a/b.rb` when the
 * path has a directory part. Gems and the standard library resolve to nothing.
 */
function resolveRequire(imp: ImportFact, fromPath: string, repo: RepoFiles): string[] {
  if (imp.source.startsWith(".")) return relativeFiles(imp.source, fromPath, repo, [".rb"]);
  const rel = imp.source.endsWith(".rb") ? imp.source : `${imp.source}.rb`;
  for (const root of LOAD_ROOTS) if (repo.has(root + rel)) return [root + rel];
  if (!rel.includes("/")) return [];
  const hits = repo.withSuffix(rel);
  return hits.length === 1 ? hits : [];
}
