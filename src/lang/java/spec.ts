import type { LanguageSpec } from "../spec.ts";
import { declaredPackages } from "../packages.ts";
import { JVM_BUILD_FILES, moduleSees, resolveJvmImport, splitImport } from "./jvm.ts";
import query from "./tags.scm" with { type: "text" };

export const java: LanguageSpec = {
  name: "java",
  grammar: "java",
  extensions: [".java"],
  query,
  selfNames: ["this", "super"],
  implicitThis: true,
  importsReexported: false,
  packageScope: "declared",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)src\/(test|it)\/|Tests?\.java$/,
  provides: (_repo, files) => declaredPackages(files, java.testFiles, ["java", "kotlin"]),
  docStyle: "comments",
  overloads: true,
  bareFunctionValues: false,
  constructorNames: ["<type>"],
  superNames: ["super"],
  returnFields: ["type"],
  typeWrappers: ["Optional"],
  moduleName: (_path, pkg) => pkg ?? "",
  normalizeImport: splitImport,
  resolveImport: (imp, fromPath, repo) => resolveJvmImport("java", [".java"], imp, repo, fromPath),
  guessReaches: moduleSees,
  manifests: JVM_BUILD_FILES,
  // Object, collections, streams, Optional, functional interfaces, builders, printing.
  commonMethods:
    `equals hashCode toString compareTo clone get set put add addAll remove clear size isEmpty
    contains containsKey iterator hasNext next stream map filter forEach collect reduce toList of
    valueOf orElse isPresent ifPresent length append format close run call apply accept test
    getName getValue getKey start stop print println`.split(/\s+/),
};
