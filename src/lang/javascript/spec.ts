import type { ImportFact } from "../../graph/facts.ts";
import { elementTable, type LanguageSpec, type RepoFiles } from "../spec.ts";
import { pathModuleName, relativeFiles } from "../paths.ts";
import { jsdocImports, jsdocTypes } from "./jsdoc.ts";
import { referencedImport } from "./references.ts";
import { providedPackages, workspaceImport, workspaceSees } from "./workspaces.ts";
import query from "./tags.scm" with { type: "text" };

/**
 * What a collection's element methods give (LanguageSpec.elementReturns): `[]` is an element, by
 * index or `for...of` (`[].` an array's, `User[]`).
 */
export const JS_ELEMENT_RETURNS: Record<string, number> = elementTable({
  0: `[].[] [].find [].findLast [].at [].pop [].shift Array.[] Array.find Array.findLast Array.at
    Array.pop Array.shift ReadonlyArray.[] ReadonlyArray.find ReadonlyArray.at Set.[]
    ReadonlySet.[] Iterable.[] IterableIterator.[] AsyncIterable.[]`,
  1: "Map.get ReadonlyMap.get WeakMap.get Record.[]",
});

/** `src/app/index.ts` -> `src.app`, `types/api.d.ts` -> `types.api` (shared with TypeScript). */
export function jsModuleName(path: string): string {
  return pathModuleName(path.replace(/\.d\.([cm]?ts)$/, ".$1"), { index: "index" });
}

/**
 * A relative specifier (`./a`, `../b/c.js`, `.`) to the file it loads, trying `exts` and `index`
 * files; a bare one (`@org/pkg`, `@app/x`) reaches the repository's own packages and tsconfig
 * paths (workspaces.ts); other packages (`react`, `node:fs`) and URLs are outside the repository.
 */
export function resolveJsImport(
  imp: ImportFact,
  fromPath: string,
  repo: RepoFiles,
  exts: string[],
): string[] {
  const source = imp.source.replace(/[?#].*$/, "");
  if (!source.startsWith(".")) {
    return /^[a-z]+:/i.test(source) ? [] : workspaceImport(source, fromPath, repo, exts);
  }
  const hit = relativeFiles(source, fromPath, repo, exts);
  // A referenced project's built output stands for its sources (references.ts).
  return hit.length ? hit : referencedImport(source, fromPath, repo, exts);
}

/**
 * The default import `import x from './a'` is captured with one node as both name and alias (a
 * query cannot write the word `default`): it binds the module's default export.
 */
export function normalizeJsImport(imp: ImportFact): ImportFact {
  if (imp.name !== undefined && imp.name === imp.alias) return { ...imp, name: "default" };
  return imp;
}

/** Methods of the standard library (Array, Map, Promise, String, console, EventEmitter, DOM). */
export const JS_COMMON_METHODS: string[] = `
  push pop shift unshift slice splice concat join reverse sort indexOf includes find findIndex
  filter map forEach reduce some every flat flatMap fill keys values entries get set has
  delete add clear then catch finally toString valueOf toJSON split replace trim match test
  exec startsWith endsWith toLowerCase toUpperCase padStart padEnd substring charAt toFixed
  log error warn info debug call apply bind emit on off once send write read end close open
  parse stringify next resolve reject assign create from of json text append remove
  addEventListener removeEventListener querySelector dispatch subscribe render listen use
  update digest pipe
`.trim().split(/\s+/);

/** Project files bare imports are resolved with (workspaces.ts). */
export const JS_MANIFESTS = ["package.json", "tsconfig*.json", "jsconfig.json"];

const JS_EXTS = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".d.ts"];

/** Statements around a declarator or assignment that tags.scm captures as a definition. */
export const JS_DEFINITION_WRAPPERS = [
  "lexical_declaration",
  "variable_declaration",
  "expression_statement",
];

export const javascript: LanguageSpec = {
  name: "javascript",
  grammar: "javascript",
  extensions: [".js", ".mjs", ".cjs", ".jsx"],
  query,
  selfNames: ["this", "super"],
  implicitThis: false,
  packageScope: "none",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /\.(test|spec)\.[cm]?jsx?$/,
  docStyle: "comments",
  family: "js",
  constructorNames: ["constructor"],
  inheritsConstructors: true,
  superNames: ["super"],
  fallbackOperators: ["??", "||"],
  elementReturns: JS_ELEMENT_RETURNS,
  // JSDoc types, as the TypeScript checker reads them in JavaScript (jsdoc.ts).
  docTypes: jsdocTypes,
  docImports: jsdocImports,
  typeWrappers: ["Promise", "PromiseLike"],
  mergeSameNamedMembers: true,
  constructorFunctions: true,
  definitionWrappers: JS_DEFINITION_WRAPPERS,
  moduleName: (path) => jsModuleName(path),
  resolveImport: (imp, fromPath, repo) => resolveJsImport(imp, fromPath, repo, JS_EXTS),
  guessReaches: workspaceSees,
  manifests: JS_MANIFESTS,
  provides: providedPackages,
  normalizeImport: normalizeJsImport,
  commonMethods: JS_COMMON_METHODS,
};
