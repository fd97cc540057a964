/** What the specs share to say which packages a repository offers other projects. */
import type { FileFacts } from "../graph/facts.ts";
import type { ProvidedPackage } from "./spec.ts";
import { dirOf } from "./paths.ts";

/**
 * Declared packages / namespaces (Java, Kotlin, C#) of files outside tests: one per directory
 * (a package split over directories is offered from each).
 */
export function declaredPackages(
  files: readonly FileFacts[],
  testFiles: RegExp | undefined,
  languages: string[],
): ProvidedPackage[] {
  const out = new Map<string, ProvidedPackage>();
  for (const f of files) {
    if (!f.package || testFiles?.test(f.path)) continue;
    const dir = dirOf(f.path);
    const key = `${f.package}\0${dir}`;
    if (!out.has(key)) out.set(key, { name: f.package, dir, sep: ".", languages });
  }
  return [...out.values()];
}
