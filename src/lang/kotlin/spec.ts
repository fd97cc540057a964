import type { LanguageSpec } from "../spec.ts";
import { resolveJvmImport, splitImport } from "../java/jvm.ts";
import query from "./tags.scm" with { type: "text" };

export const kotlin: LanguageSpec = {
  name: "kotlin",
  grammar: "kotlin",
  extensions: [".kt", ".kts"],
  query,
  selfNames: ["this", "super"],
  implicitThis: true,
  packageScope: "declared",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)src\/(test|androidTest|\w+Test)\/|Tests?\.kts?$/,
  docStyle: "comments",
  overloads: true,
  constructorNames: ["constructor"],
  primaryConstructor: true,
  superNames: ["super"],
  moduleName: (_path, pkg) => pkg ?? "",
  normalizeImport: splitImport,
  // Kotlin file names are free and functions are imported by name: a named import resolves to the
  // package's file named after it (`Order.kt`) when there is one, else to every file of the package.
  resolveImport: (imp, _fromPath, repo) => resolveJvmImport("kotlin", [".kt", ".kts"], imp, repo),
  // Scope functions, collections, strings, coroutines and standard infix functions.
  commonMethods:
    `let apply also run with takeIf takeUnless use invoke equals hashCode toString copy get
    set put getOrPut add addAll remove clear contains containsKey isEmpty isNotEmpty first last
    firstOrNull map mapNotNull filter forEach flatMap sumOf joinToString toList toMutableList toSet
    toMap format trim split lowercase uppercase close start stop print println emit collect launch
    async await to until downTo step and or xor shl shr ushr matches`.split(/\s+/),
};
