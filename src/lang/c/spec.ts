import type { LanguageSpec } from "../spec.ts";
import { dirOf, includeFiles } from "../paths.ts";
import query from "./tags.scm" with { type: "text" };
import { compileDbInclude } from "./compile_db.ts";
import { blankMacros } from "./macros.ts";

/**
 * A guess by name alone never reaches a test source in another directory: a test is built into a
 * test program of its own (with the files beside it), never linked into another component's code
 * (googlemock's tests calling `std::string(...)` reached googletest's `TEST(StreamableTest,
 * string)`).
 */
export function testsStayHome(tests: RegExp): (fromPath: string, toPath: string) => boolean {
  return (fromPath, toPath) => !tests.test(toPath) || dirOf(fromPath) === dirOf(toPath);
}

const C_TESTS = /(^|\/)(test_[^/]*|[^/]*_test)\.[ch]$/;

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
  testFiles: C_TESTS,
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
  guessReaches: testsStayHome(C_TESTS),
  manifests: ["compile_commands.json"],
  // Function-pointer fields called as `obj->read(...)`: a unique function of that name proves
  // nothing.
  commonMethods: `init free alloc destroy create open close read write flush run start stop reset
    release get set put send recv call handler`.split(/\s+/),
};
