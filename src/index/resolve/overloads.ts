/** Overload choice that needs no repository: arity, and how primitive types convert. */
import type { DefFact, FileFacts } from "../../graph/facts.ts";

/**
 * Overloads of one name: those whose parameters take `args` arguments. Several left: the one
 * with exactly as many declared parameters, else none (a guess between overloads is no edge).
 */
export function chooseOverload<T extends { def: DefFact; file: FileFacts }>(
  refs: T[],
  args: number | undefined,
): T[] {
  if (refs.length < 2) return refs;
  const fits = args === undefined ? refs : refs.filter((r) => {
    const p = r.def.params;
    return !p || (args >= p[0] && (p[1] < 0 || args <= p[1]));
  });
  if (fits.length === 1) return fits;
  if (args !== undefined) {
    const exact = fits.filter((r) => r.def.params?.[1] === args);
    if (exact.length === 1) return exact;
  }
  // A declaration and its definition (C/C++ header and source) are one function: same
  // parameters, in different files. Overloads of one file are told apart by argument types.
  const names = new Set(fits.map((r) => `${r.def.params?.join(",")}`));
  const files = new Set(fits.map((r) => r.file));
  return names.size === 1 && files.size === fits.length && fits.length ? fits : [];
}
