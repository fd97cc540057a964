/**
 * The one analyzer: runs a language's tags.scm over a parsed file and turns the captures into
 * FileFacts. It knows capture names, never node types; languages differ only in their data. Its
 * steps live in analyze/: gather.ts (the matches), defs.ts (definitions, where a node is, returned
 * values, bases), calls.ts, hints.ts.
 */
import type { Query, Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../lang/spec.ts";
import type { FileFacts } from "../graph/facts.ts";
import { countErrors, errorRegions } from "./analyze/nodes.ts";
import { gather } from "./analyze/gather.ts";
import { definitions, inheritsOf, locator, returnValues } from "./analyze/defs.ts";
import { callFactsOf, scopedLambdas } from "./analyze/calls.ts";
import { docHints, typeHints } from "./analyze/hints.ts";

export function analyze(
  spec: LanguageSpec,
  query: Query,
  tree: Tree,
  file: { path: string; hash: string; lines: number },
): FileFacts {
  const root = tree.rootNode;
  // Each step its own function: V8 optimises the ones that run hot, each on its own, instead of
  // compiling one long function whole in every parse worker.
  const g = gather(spec, query, root);
  const { containers, calls, imports, importNodes, pkg, defaultExport } = g;
  const { parentOf, starts, defs, docParams } = definitions(spec, g);
  const defIndexAt = locator(containers, parentOf, starts, g.decorators);
  returnValues(spec, g.returned, defs, defIndexAt);
  const scoped = scopedLambdas(spec, calls);
  const callFacts = callFactsOf(spec, calls, scoped, defIndexAt);
  const inherits = inheritsOf(spec, g.inheritNodes, containers, defs, defIndexAt);
  // An import inside a function runs when the function does, not when its file loads.
  imports.forEach((imp, i) => {
    const at = defIndexAt(importNodes[i]);
    if (at >= 0 && (defs[at].kind === "Function" || defs[at].kind === "Method")) {
      imp.typeOnly = true;
    }
  });

  // Imports a comment states (JSDoc `@typedef {import('./x')} X`): type-only, at file level.
  if (spec.docImports) {
    for (const c of g.docComments) {
      imports.push(...spec.docImports(c.text, c.startPosition.row + 1));
    }
  }
  const hints = [
    ...typeHints(spec, g.hintNodes, defIndexAt, defs),
    ...docHints(spec, docParams, defs),
  ];

  return {
    path: file.path,
    language: spec.name,
    hash: file.hash,
    lines: file.lines,
    module: spec.moduleName(file.path, pkg),
    package: pkg,
    ...(defaultExport ? { defaultExport } : {}),
    defs,
    calls: callFacts,
    imports,
    inherits,
    hints,
    parseErrors: root.hasError ? countErrors(root) : 0,
    ...(root.hasError ? { errorLines: errorRegions(root) } : {}),
  };
}
