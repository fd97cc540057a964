/**
 * Go modules of the repository: every `go.mod` names its module path (`module example.com/lib`),
 * so an import under that path is a directory of that module, wherever it sits. This covers a
 * `go.work` workspace and `replace` directives with local paths alike: each module they bring in
 * has its own go.mod in the repository. A `replace` of another module path by a local directory
 * (`replace example.com/old => ./lib`) maps that path to the directory too.
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf } from "../paths.ts";

interface Module {
  path: string;
  dir: string;
}

const cache = new WeakMap<RepoFiles, Module[]>();

/** The repository's modules (and local replacements), longest module path first. */
export function localModules(repo: RepoFiles): Module[] {
  let mods = cache.get(repo);
  if (mods) return mods;
  mods = [];
  if (repo.read && repo.manifests) {
    for (const manifest of repo.manifests("go.mod")) {
      const text = repo.read(manifest) ?? "";
      const dir = dirOf(manifest);
      const name = /^\s*module\s+"?([^\s"]+)"?/m.exec(text)?.[1];
      if (name) mods.push({ path: name, dir });
      for (const [from, to] of replacements(text)) {
        const target = joinDir(dir, to);
        if (target !== undefined) mods.push({ path: from, dir: target });
      }
    }
  }
  mods.sort((a, b) => b.path.length - a.path.length || (a.dir < b.dir ? -1 : 1));
  cache.set(repo, mods);
  return mods;
}

/** `replace a => ./b` lines (single and in a block) whose target is a local directory. */
function replacements(text: string): [string, string][] {
  const out: [string, string][] = [];
  const body = text.replace(/\/\/[^\n]*/g, "");
  const lines = [
    ...[...body.matchAll(/^\s*replace\s+([^(\n][^\n]*)$/gm)].map((m) => m[1]),
    ...[...body.matchAll(/^\s*replace\s*\(([^)]*)\)/gm)].flatMap((m) => m[1].split("\n")),
  ];
  for (const line of lines) {
    const m = /^\s*(\S+)(?:\s+\S+)?\s*=>\s*(\.\.?\/\S*|\.\.?)\s*$/.exec(line);
    if (m) out.push([m[1], m[2]]);
  }
  return out;
}

/** `dir` + a relative `rel`; undefined when it leaves the repository. */
function joinDir(dir: string, rel: string): string | undefined {
  const parts = dir ? dir.split("/") : [];
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/** The repository directory an import path names through a local module, or undefined. */
export function moduleDir(importPath: string, repo: RepoFiles): string | undefined {
  for (const m of localModules(repo)) {
    if (importPath === m.path) return m.dir;
    if (importPath.startsWith(`${m.path}/`)) {
      const rest = importPath.slice(m.path.length + 1);
      return m.dir ? `${m.dir}/${rest}` : rest;
    }
  }
  return undefined;
}

/**
 * The packages the repository's modules offer other projects: one per directory holding
 * non-test Go files of a package other than `main`, named by its module's path (`example.com/geo` + `/shapes`). A directory
 * belongs to the innermost module around it; `replace` targets are not offered.
 */
export function providedPackages(
  repo: RepoFiles,
  files: readonly { path: string; package?: string }[],
): { name: string; dir: string; sep: string }[] {
  const declared: Module[] = [];
  if (repo.read && repo.manifests) {
    for (const manifest of repo.manifests("go.mod")) {
      const name = /^\s*module\s+"?([^\s"]+)"?/m.exec(repo.read(manifest) ?? "")?.[1];
      if (name) declared.push({ path: name, dir: dirOf(manifest) });
    }
  }
  // Innermost module first.
  declared.sort((a, b) => b.dir.length - a.dir.length);
  const out = new Map<string, { name: string; dir: string; sep: string }>();
  for (const f of files) {
    // Tests and commands (`package main`) are nothing another module can import.
    if (f.path.endsWith("_test.go") || f.package === "main") continue;
    const dir = dirOf(f.path);
    if (out.has(dir)) continue;
    const m = declared.find((x) => x.dir === "" || dir === x.dir || dir.startsWith(`${x.dir}/`));
    if (!m) continue;
    const rest = m.dir ? dir.slice(m.dir.length + 1) : dir;
    out.set(dir, { name: rest ? `${m.path}/${rest}` : m.path, dir, sep: "" });
  }
  return [...out.values()];
}
