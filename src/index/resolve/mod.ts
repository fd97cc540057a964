/**
 * Call, import and inheritance resolution over the facts of the whole repository.
 *
 * A name is looked up by scope, never by bare name alone: the enclosing definitions of the same file
 * (and, where a bare call may mean `this.m()`, the enclosing type and its bases), then what the file
 * imports (following re-exports), then its package, then receiver hints (self/this, typed
 * variables, type and module qualifiers), and only then a repository-wide unique name. A call that
 * stays ambiguous is left out: a missing edge costs less than a wrong one.
 *
 * Pure and deterministic: the same facts always give the same edges, which is what makes an
 * incremental run provably equal to a full one.
 */
import type { LanguageSpec } from "../../lang/spec.ts";
import type { FileFacts } from "../../graph/facts.ts";
import { Resolver } from "./calls.ts";
import { fileSteps, resolutionSteps } from "./steps.ts";
import type { Resolution } from "./model.ts";
import type { Edge } from "../../graph/model.ts";
import { Structure } from "./structure.ts";

export type { Resolution } from "./model.ts";
export { isFinal } from "./calls.ts";
export { chooseOverload } from "./overloads.ts";
export { Structure } from "./structure.ts";

/**
 * Resolves every file, or with `only` just those files' calls and imports (the structure of every
 * file is always resolved: which type owns what and inherits from whom). Files that state the same
 * structural fact as one in `only` join it, since ownership of a shared fact can move between them.
 */
export function resolveAll(
  allFacts: FileFacts[],
  specOf: (language: string) => LanguageSpec | undefined,
  only?: Set<string>,
  manifests?: ReadonlyMap<string, string>,
): Resolution {
  return resolveWith(Structure.build(allFacts, specOf, manifests), only);
}

/**
 * Resolves over a structure already built (and maybe patched: structure.ts), every file or with
 * `only` just those (as resolveAll).
 */
export function resolveWith(structure: Structure, only?: Set<string>): Resolution {
  const steps = resolutionSteps(new Resolver(structure), only);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `resolveWith` of every file, step by step: each step yields one file's CALLS and IMPORTS edges,
 * final as soon as they come (see steps.ts); the generator returns the whole resolution.
 */
export function resolveSteps(structure: Structure): Generator<Edge[], Resolution> {
  return resolutionSteps(new Resolver(structure));
}

/**
 * Every file resolved one step at a time, in path order, each step one file's edges whole (as
 * `resolveWith(structure).edges` has them): a full run stores them as they come and keeps none.
 */
export function resolveFiles(
  structure: Structure,
  opts: { memoFiles?: number } = {},
): Generator<{ path: string; edges: Edge[] }, void> {
  const r = new Resolver(structure);
  // Files between two emptyings of the memos across files (Scopes.forget; a test asks for 1).
  if (opts.memoFiles) r.memoFiles = opts.memoFiles;
  return fileSteps(r);
}
