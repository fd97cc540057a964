/**
 * C#.
 *
 * Namespaces, one design for both styles, giving `Namespace.Type.Member` either way:
 * - a block namespace (`namespace A.B { ... }`) is a Module definition that contains its
 *   declarations, so its name is the prefix of their local names; it is NOT `@package` (the prefix
 *   would double), and the resolver takes such a file's package from its outermost Module;
 * - a file-scoped `namespace A.B;` contains nothing in the tree (the declarations after it are its
 *   siblings), so its name is captured as `@package` and `moduleName` returns it as the prefix.
 * Either way the file's package is its namespace: `packageScope: "declared"` shares names with the
 * other files of that namespace, and `using A.B;` finds its files through `inPackage`.
 */
import type { ImportFact, LanguageSpec, RepoFiles } from "../spec.ts";
import query from "./tags.scm" with { type: "text" };

export const csharp: LanguageSpec = {
  name: "csharp",
  grammar: "csharp",
  extensions: [".cs"],
  query,
  selfNames: ["this", "base"],
  implicitThis: true,
  packageScope: "declared",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)[^/]*\.Tests?\/|Tests?\.cs$/,
  docStyle: "comments",
  overloads: true,
  constructorNames: ["<type>"],
  superNames: ["base"],
  returnFields: ["returns", "type"],
  typeWrappers: ["Task", "ValueTask", "Nullable"],
  moduleName: (_path, pkg) => pkg ?? "",
  resolveImport: (imp, _fromPath, repo) => resolveUsing(imp, repo),
  normalizeImport(imp) {
    // `using X = A.B.C;` imports C (a type, or a namespace) from A.B under the name X.
    if (!imp.alias || imp.name) return imp;
    const dot = imp.source.lastIndexOf(".");
    if (dot < 0) return { ...imp, name: imp.source };
    return { ...imp, source: imp.source.slice(0, dot), name: imp.source.slice(dot + 1) };
  },
  commonMethods: [
    "ToString",
    "Equals",
    "GetHashCode",
    "GetType",
    "CompareTo",
    "Dispose",
    "DisposeAsync",
    "Add",
    "AddRange",
    "Remove",
    "RemoveAt",
    "Contains",
    "ContainsKey",
    "TryGetValue",
    "Clear",
    "Insert",
    "IndexOf",
    "Find",
    "Sort",
    "Reverse",
    "ForEach",
    "Push",
    "Pop",
    "Peek",
    "Enqueue",
    "Dequeue",
    "Where",
    "Select",
    "SelectMany",
    "Any",
    "All",
    "First",
    "FirstOrDefault",
    "Single",
    "SingleOrDefault",
    "Last",
    "LastOrDefault",
    "Count",
    "Sum",
    "Min",
    "Max",
    "Average",
    "OrderBy",
    "OrderByDescending",
    "ThenBy",
    "GroupBy",
    "Distinct",
    "Skip",
    "Take",
    "Concat",
    "Aggregate",
    "ToList",
    "ToArray",
    "ToDictionary",
    "Append",
    "Format",
    "Join",
    "Split",
    "Trim",
    "Replace",
    "Substring",
    "StartsWith",
    "EndsWith",
    "Write",
    "WriteLine",
    "Read",
    "ReadLine",
    "Flush",
    "Close",
    "Wait",
    "Invoke",
    "Parse",
    "TryParse",
    "ConfigureAwait",
    "Get",
    "Set",
  ],
};

/**
 * `using A.B;` -> the files of namespace A.B; `using static A.B.C;` (no namespace A.B.C) -> the
 * file(s) of class C in namespace A.B, by file name when one is `C.cs`, else the namespace's files.
 * `using X = A.B.C;` (normalized to source A.B, name C) -> the same, C being a type or a namespace.
 */
function resolveUsing(imp: ImportFact, repo: RepoFiles): string[] {
  const full = imp.name ? `${imp.source}.${imp.name}` : imp.source;
  const namespaceFiles = repo.inPackage("csharp", full);
  if (namespaceFiles.length > 0) return namespaceFiles;
  const dot = full.lastIndexOf(".");
  if (dot < 0) return [];
  const typeName = full.slice(dot + 1);
  const files = repo.inPackage("csharp", full.slice(0, dot));
  const named = files.filter((f) => f === `${typeName}.cs` || f.endsWith(`/${typeName}.cs`));
  return named.length > 0 ? named : files;
}
