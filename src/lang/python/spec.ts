import { elementTable, type LanguageSpec, type RepoFiles } from "../spec.ts";
import { dottedModuleFiles, pathModuleName } from "../paths.ts";
import query from "./tags.scm" with { type: "text" };
import { providedPackages } from "./packages.ts";
import { STDLIB_MODULES } from "./stdlib.ts";

export const python: LanguageSpec = {
  name: "python",
  grammar: "python",
  extensions: [".py", ".pyi"],
  query,
  selfNames: ["self", "cls"],
  implicitThis: false,
  packageScope: "none",
  typeNames: /^[A-Z][\w$]*$/,
  typeOnlyGuard: /\bTYPE_CHECKING\b/,
  testFiles: /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.pyi?$/,
  docStyle: "docstring",
  constructorNames: ["__init__"],
  inheritsConstructors: true,
  superNames: ["super"],
  castFunctions: ["cast"],
  // A collection's element, by index or iteration (`[]`), and what `get`/`pop` give.
  elementReturns: elementTable({
    0: `list.[] List.[] Sequence.[] MutableSequence.[] Iterable.[] Iterator.[] Collection.[] set.[]
      Set.[] frozenset.[] FrozenSet.[] AbstractSet.[] deque.[] Deque.[] Generator.[] list.pop
      List.pop`,
    1: `dict.get Dict.get Mapping.get MutableMapping.get defaultdict.get DefaultDict.get
      OrderedDict.get dict.pop Dict.pop Mapping.pop MutableMapping.pop defaultdict.pop
      DefaultDict.pop OrderedDict.pop`,
  }),
  typeWrappers: ["Optional", "Awaitable", "Final", "ClassVar", "Annotated", "Type", "type"],
  moduleName: (path) => pathModuleName(path, { index: "__init__" }),
  resolveImport(imp, fromPath, full) {
    const source = relativeSource(imp.source, fromPath);
    // A standard-library name is found at a source root, never as a same-named file deeper down.
    const stdlib = !imp.source.startsWith(".") && STDLIB_MODULES.has(source.split(".")[0]);
    const repo = stdlib ? rootsOnly(full) : full;
    const files = dottedModuleFiles(source, repo, [".py", ".pyi"], "__init__");
    // `from pkg import mod` names a module as often as a symbol.
    const sub = imp.name
      ? dottedModuleFiles(
        source ? `${source}.${imp.name}` : imp.name,
        repo,
        [".py", ".pyi"],
        "__init__",
      )
      : [];
    // A stub (`m.pyi`) beside its module (`m.py`) describes it: the import runs the module.
    const all = [...files, ...sub];
    return all.filter((p) => !p.endsWith(".pyi") || !all.includes(p.slice(0, -1)));
  },
  moduleBinding: (source) => source.startsWith(".") ? undefined : source,
  manifests: ["pyproject.toml", "setup.cfg"],
  provides: providedPackages,
  commonMethods: [
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "clear",
    "index",
    "count",
    "sort",
    "reverse",
    "copy",
    "get",
    "keys",
    "values",
    "items",
    "update",
    "setdefault",
    "add",
    "discard",
    "join",
    "split",
    "strip",
    "replace",
    "format",
    "encode",
    "decode",
    "startswith",
    "endswith",
    "lower",
    "upper",
    "read",
    "write",
    "close",
    "open",
    "send",
    "run",
    "start",
    "stop",
    "put",
    "find",
  ],
};

/** `from ..a import b` inside `pkg/sub/m.py` -> `pkg.a`. */
function relativeSource(source: string, fromPath: string): string {
  const dots = source.match(/^\.+/)?.[0].length ?? 0;
  if (dots === 0) return source;
  const dir = fromPath.split("/").slice(0, -1);
  const base = dir.slice(0, Math.max(0, dir.length - (dots - 1)));
  const rest = source.slice(dots);
  return [...base, ...(rest ? [rest] : [])].join(".");
}

/** The repository's files without the same-suffix fallback (exact paths at source roots only). */
function rootsOnly(repo: RepoFiles): RepoFiles {
  let roots = rootsOf.get(repo);
  if (!roots) {
    roots = {
      has: (p) => repo.has(p),
      inDir: (d) => repo.inDir(d),
      inPackage: (l, p) => repo.inPackage(l, p),
      withSuffix: () => [],
    };
    rootsOf.set(repo, roots); // one per repository: what is looked up through it is kept
  }
  return roots;
}

const rootsOf = new WeakMap<RepoFiles, RepoFiles>();
