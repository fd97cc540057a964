import type { LanguageSpec } from "../spec.ts";
import { includeFiles } from "../paths.ts";
import query from "./tags.scm" with { type: "text" };
import { compileDbInclude } from "./compile_db.ts";
import { blankMacros } from "./macros.ts";

export const c: LanguageSpec = {
  name: "c",
  grammar: "c",
  extensions: [".c", ".h"],
  query,
  selfNames: [],
  pointers: true,
  implicitThis: false,
  // One global namespace: a function defined in any .c file is callable from any other through
  // its header (headers hold prototypes, which are not definitions).
  packageScope: "global",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)(test_[^/]*|[^/]*_test)\.[ch]$/,
  docStyle: "comments",
  // Export, calling-convention and annotation macros blanked, and conditional compilation inside
  // function bodies reduced to one branch, so tree-sitter reads the declarations around them
  // (macros.ts).
  prepare: (text) => blankMacros(text, { macroBodies: true }),
  family: "c",
  // A header written for C callers (a C++ guard around C declarations) is C even in a C++ project.
  claims: { extensions: [".h"], pattern: /^\s*extern\s+"C"\s*\{/m, priority: 1 },
  moduleName: () => "",
  resolveImport: (imp, fromPath, repo) =>
    compileDbInclude(imp.source, fromPath, repo) ?? includeFiles(imp.source, fromPath, repo),
  manifests: ["compile_commands.json"],
  // Function-pointer fields called as `obj->read(...)`: a unique function of that name proves
  // nothing.
  commonMethods: `init free alloc destroy create open close read write flush run start stop reset
    release get set put send recv call handler`.split(/\s+/),
};
