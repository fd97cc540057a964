/**
 * Maven and Gradle multi-module builds: which modules a module's code can see (itself and the
 * modules it depends on, transitively). An import whose package several modules declare (the same
 * class in two modules, a legacy copy) reaches the copy in a module the importing one depends on.
 *
 * - Maven: every `pom.xml` is a module (its directory); its own `artifactId` (outside `<parent>`)
 *   names it, its `<dependencies>` (not `<dependencyManagement>`) name the modules it uses.
 * - Gradle: every `build.gradle(.kts)` is a module named by its path from the nearest
 *   `settings.gradle(.kts)` above (`libs/core` -> `:libs:core`); `project(":libs:core")` in it is
 *   a dependency.
 *
 * Without build files, or for files outside every module, nothing is narrowed.
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf } from "../paths.ts";

interface Module {
  dir: string;
  ids: string[];
  deps: string[];
}

interface Build {
  modules: Module[];
  /** Module directories each module sees (itself and its dependencies, transitively). */
  visible: Map<string, Set<string>>;
}

const cache = new WeakMap<RepoFiles, Build>();

function buildOf(repo: RepoFiles): Build {
  let b = cache.get(repo);
  if (b) return b;
  const modules: Module[] = [];
  const read = (p: string) => repo.read?.(p) ?? "";
  for (const pom of repo.manifests?.("pom.xml") ?? []) modules.push(mavenModule(pom, read(pom)));
  const settings = [
    ...(repo.manifests?.("settings.gradle") ?? []),
    ...(repo.manifests?.("settings.gradle.kts") ?? []),
  ].map(dirOf);
  for (
    const file of [
      ...(repo.manifests?.("build.gradle") ?? []),
      ...(repo.manifests?.("build.gradle.kts") ?? []),
    ]
  ) {
    const dir = dirOf(file);
    const root = settings.filter((s) => s === "" || dir === s || dir.startsWith(`${s}/`))
      .sort((a, c) => c.length - a.length)[0];
    if (root === undefined) continue;
    const rel = root ? dir.slice(root.length).replace(/^\//, "") : dir;
    const deps = [...read(file).matchAll(/project\s*\(\s*(?:path\s*[:=]\s*)?["']([^"']+)["']/g)]
      .map((m) => m[1]);
    modules.push({ dir, ids: [`:${rel.replace(/\//g, ":")}`], deps });
  }
  const byId = new Map<string, string>();
  for (const m of modules) for (const id of m.ids) byId.set(id, m.dir);
  const depsOf = new Map<string, string[]>();
  for (const m of modules) {
    const dirs = m.deps.map((d) => byId.get(d)).filter((d): d is string => d !== undefined);
    depsOf.set(m.dir, [...(depsOf.get(m.dir) ?? []), ...dirs]);
  }
  const visible = new Map<string, Set<string>>();
  for (const m of modules) {
    const seen = new Set<string>([m.dir]);
    const todo = [m.dir];
    while (todo.length) {
      for (const d of depsOf.get(todo.pop()!) ?? []) {
        if (!seen.has(d)) {
          seen.add(d);
          todo.push(d);
        }
      }
    }
    visible.set(m.dir, seen);
  }
  b = { modules, visible };
  cache.set(repo, b);
  return b;
}

function mavenModule(path: string, xml: string): Module {
  const text = xml.replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<parent>[\s\S]*?<\/parent>/g, "")
    .replace(/<dependencyManagement>[\s\S]*?<\/dependencyManagement>/g, "")
    .replace(/<build>[\s\S]*?<\/build>/g, "")
    .replace(/<profiles>[\s\S]*?<\/profiles>/g, "");
  const deps: string[] = [];
  const depsBlock = /<dependencies>([\s\S]*?)<\/dependencies>/.exec(text)?.[1] ?? "";
  for (const m of depsBlock.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const id = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(m[1])?.[1];
    if (id) deps.push(id);
  }
  const own = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(
    text.replace(/<dependencies>[\s\S]*?<\/dependencies>/g, ""),
  )?.[1];
  return { dir: dirOf(path), ids: own ? [own] : [], deps };
}

/** The module directory holding a path (the innermost), if any. */
function moduleOf(b: Build, path: string): string | undefined {
  let best: string | undefined;
  for (const m of b.modules) {
    if (
      (m.dir === "" || path.startsWith(`${m.dir}/`)) &&
      (best === undefined || m.dir.length > best.length)
    ) {
      best = m.dir;
    }
  }
  return best;
}

/**
 * Of the files an import reaches, those in modules the importing file's module sees, when the
 * files lie in more than one module and some of them are visible; else all of them.
 */
export function visibleFiles(files: string[], fromPath: string, repo: RepoFiles): string[] {
  if (files.length < 2) return files;
  const b = buildOf(repo);
  if (b.modules.length < 2) return files;
  const home = moduleOf(b, fromPath);
  if (home === undefined) return files;
  const sees = b.visible.get(home)!;
  const owners = files.map((f) => moduleOf(b, f));
  if (new Set(owners).size < 2) return files;
  const kept = files.filter((_, i) => owners[i] === undefined || sees.has(owners[i]!));
  return kept.length ? kept : files;
}
