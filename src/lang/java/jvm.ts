/** Import handling shared by the JVM languages (Java, Kotlin): package-based imports. */
import type { ImportFact } from "../../graph/facts.ts";
import type { RepoFiles } from "../spec.ts";
import { visibleFiles } from "./modules.ts";

export { moduleSees } from "./modules.ts";

/**
 * `import a.b.C` arrives as source `a.b.C`: the last segment is the imported name (a class, or a
 * member for `import static a.b.C.m`). Wildcards keep the whole path as source.
 */
export function splitImport(imp: ImportFact): ImportFact {
  if (imp.wildcard || imp.name) return imp;
  const dot = imp.source.lastIndexOf(".");
  if (dot < 0) return { ...imp, name: imp.source, source: "" };
  return { ...imp, source: imp.source.slice(0, dot), name: imp.source.slice(dot + 1) };
}

/** Build files of multi-module builds (modules.ts): read with the sources. */
export const JVM_BUILD_FILES = [
  "pom.xml",
  "settings.gradle",
  "settings.gradle.kts",
  "build.gradle",
  "build.gradle.kts",
];

/**
 * Files an import names, for Java and Kotlin (package-based, file names free in Kotlin):
 * - `a.b.*`: every file of package `a.b`; if `a.b` is a class (`import static a.b.C.*`), its file.
 * - `a.b.C`: the file of package `a.b` named `C.<ext>`, else (Kotlin, or a non-public type) every
 *   file of the package; when `a.b` is no package it is a class (static import / nested type):
 *   that class's file.
 * In a multi-module build, of copies in several modules those the importing module sees
 * (modules.ts).
 */
export function resolveJvmImport(
  language: string,
  exts: string[],
  imp: ImportFact,
  repo: RepoFiles,
  fromPath = "",
): string[] {
  return visibleFiles(filesOfImport(language, exts, imp, repo), fromPath, repo);
}

function filesOfImport(
  language: string,
  exts: string[],
  imp: ImportFact,
  repo: RepoFiles,
): string[] {
  const inPkg = imp.source ? repo.inPackage(language, imp.source) : [];
  if (inPkg.length > 0) {
    if (imp.wildcard || !imp.name) return inPkg;
    const named = filesNamed(inPkg, imp.name, exts);
    return named.length > 0 ? named : inPkg;
  }
  return classFiles(language, exts, imp.source, repo);
}

/** The file declaring class `a.b.C` (or `a.b.C.D`: the file of the outermost class `C`). */
function classFiles(language: string, exts: string[], dotted: string, repo: RepoFiles): string[] {
  const parts = dotted.split(".").filter(Boolean);
  for (let i = parts.length - 1; i >= 1; i--) {
    const pkgFiles = repo.inPackage(language, parts.slice(0, i).join("."));
    if (pkgFiles.length === 0) continue;
    const named = filesNamed(pkgFiles, parts[i], exts);
    if (named.length > 0) return named;
    return language === "java" ? [] : pkgFiles;
  }
  // No declared package matches (sources without package statements): by path suffix.
  for (let i = parts.length; i >= 2; i--) {
    const hits = exts.flatMap((ext) => repo.withSuffix(parts.slice(0, i).join("/") + ext));
    if (hits.length > 0) return hits;
  }
  return [];
}

function filesNamed(files: string[], name: string, exts: string[]): string[] {
  return files.filter((f) => {
    const base = f.slice(f.lastIndexOf("/") + 1);
    return exts.some((ext) => base === name + ext);
  });
}
