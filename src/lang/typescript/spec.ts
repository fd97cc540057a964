import type { LanguageSpec } from "../spec.ts";
import {
  JS_COMMON_METHODS,
  JS_DEFINITION_WRAPPERS,
  JS_ELEMENT_RETURNS,
  JS_MANIFESTS,
  jsModuleName,
  normalizeJsImport,
  resolveJsImport,
} from "../javascript/spec.ts";
import { providedPackages, workspaceSees } from "../javascript/workspaces.ts";
import { prepareTypeScriptSource } from "./prepare.ts";
import query from "./tags.scm" with { type: "text" };
import jsx from "./tsx.scm" with { type: "text" };

const TS_EXTS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".d.ts"];

export const typescript: LanguageSpec = {
  name: "typescript",
  grammar: "typescript",
  extensions: [".ts", ".mts", ".cts"],
  query,
  selfNames: ["this", "super"],
  implicitThis: false,
  packageScope: "none",
  typeNames: /^[A-Z][\w$]*$/,
  typeOnlyImport: /^(import|export)\s+type\b/,
  testFiles: /\.(test|spec)\.[cm]?tsx?$/,
  docStyle: "comments",
  family: "js",
  constructorNames: ["constructor"],
  inheritsConstructors: true,
  superNames: ["super"],
  fallbackOperators: ["??", "||"],
  elementReturns: JS_ELEMENT_RETURNS,
  mergeSameNamedMembers: true,
  constructorFunctions: true,
  definitionWrappers: JS_DEFINITION_WRAPPERS,
  typeWrappers: ["Promise", "PromiseLike", "Readonly"],
  moduleName: (path) => jsModuleName(path),
  resolveImport: (imp, fromPath, repo) => resolveJsImport(imp, fromPath, repo, TS_EXTS),
  guessReaches: workspaceSees,
  manifests: JS_MANIFESTS,
  provides: providedPackages,
  normalizeImport: normalizeJsImport,
  commonMethods: JS_COMMON_METHODS,
  // Constructs the grammar predates, rewritten to same-length text it reads (prepare.ts).
  prepare: prepareTypeScriptSource,
};

/** `.tsx`: the TypeScript query plus JSX elements (the `typescript` grammar has no JSX nodes). */
export const tsx: LanguageSpec = {
  ...typescript,
  name: "tsx",
  grammar: "tsx",
  extensions: [".tsx"],
  query: `${query}\n${jsx}`,
};
