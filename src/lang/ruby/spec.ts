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
  // Rakefiles' `.rake`, Rack's `config.ru`, Thor's `.thor` task files are Ruby.
  extensions: [".rb", ".rake", ".ru", ".thor"],
  query,
  selfNames: ["self"],
  implicitThis: true,
  packageScope: "global",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)(spec|test)\/|_(spec|test)\.rb$/,
  docStyle: "comments",
  openTypes: true,
  implicitReturn: true,
  constructorNames: ["initialize"],
  inheritsConstructors: true,
  moduleName: () => "",
  normalizeImport(imp) {
    // `require_relative "x"` is marked by its method name as the imported name, and so is a path
    // built with `File`, which arrives as the call's text (tags.scm) and is read here: `File.expand_path("../x",
    // __FILE__)` (the file: one `..` is the file's own directory), `File.expand_path("x",
    // __dir__)` and `File.join(__dir__ | File.dirname(__FILE__), "x")` are relative to this file.
    const relative = (source: string) => ({
      ...imp,
      source: source.startsWith(".") ? source : `./${source}`,
      name: undefined,
    });
    if (imp.name === "require_relative") return relative(imp.source);
    if (imp.name !== "require" && imp.name !== "load") return imp;
    const built = fileRelativePath(imp.source);
    return built ? relative(built) : { ...imp, source: "", name: undefined };
  },
  mixinHooks: ["included", "extended", "prepended"],
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
    // Core methods every object, exception, hash or IO answers: a repository method of the same
    // name (an override in one class) is no evidence for an untyped receiver.
    "message",
    "backtrace",
    "is_a?",
    "kind_of?",
    "instance_of?",
    "respond_to?",
    "merge!",
    "replace",
    "default",
    "inspect",
    "hash",
    "eql?",
    "equal?",
    "exist?",
    "exists?",
    "values_at",
    "to_ary",
    "to_str",
    "to_hash",
    "to_proc",
    "has_key?",
    "value?",
    "key",
    "value",
    "puts",
    "print",
    "printf",
    "chomp",
    "lines",
    "each_line",
    "scan",
    "index",
    "slice",
    "reverse",
    "each_pair",
    "update!",
    "save",
    "save!",
    "destroy",
    "reload",
  ],
};

/** Where `require "a/b"` looks: the load path of a gem or app, then the repository root. */
const LOAD_ROOTS = ["lib/", "", "app/", "src/", "spec/", "test/"];

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

const STRING = String.raw`["']([^"'#\\]+)["']`;
const EXPAND = new RegExp(
  String.raw`^File\.expand_path[\s(]\s*${STRING}\s*,\s*(__FILE__|__dir__)\s*\)?$`,
);
const JOIN = new RegExp(
  String.raw`^File\.join[\s(]\s*(__dir__|File\.dirname\(\s*__FILE__\s*\))\s*,\s*${STRING}\s*\)?$`,
);

/**
 * The path a `File.expand_path(...)` / `File.join(...)` source names relative to the requiring
 * file's directory ("" for any other call, or a path that leaves what can be followed).
 */
export function fileRelativePath(source: string): string {
  const expand = EXPAND.exec(source);
  if (expand) {
    const [, path, base] = expand;
    if (base === "__dir__") return path;
    // Relative to the file itself: its first `..` is the file's own directory.
    return path.startsWith("../") ? `./${path.slice(3)}` : "";
  }
  const join = JOIN.exec(source);
  return join ? join[2] : "";
}
