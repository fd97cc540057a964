/**
 * Maven and Gradle multi-module builds: which modules a module's code can see (itself and the
 * modules it depends on, transitively). An import whose package several modules declare (the same
 * class in two modules, a legacy copy) reaches the copy in a module the importing one depends on;
 * a guess by name alone reaches only a module the calling one sees, and never another module's
 * tests (`moduleSees`).
 *
 * - Maven: every `pom.xml` is a module (its directory); its own `artifactId` (outside `<parent>`)
 *   names it, its `<dependencies>` (not `<dependencyManagement>`) name the modules it uses. A
 *   `<sourceDirectory>`/`<testSourceDirectory>` in its `<build>` (`../src/main/java`: sources a
 *   parent folder holds, compiled by the modules that name them) makes that folder its code.
 * - Gradle: every `build.gradle(.kts)` is a module named by its path from the nearest
 *   `settings.gradle(.kts)` above (`libs/core` -> `:libs:core`); `project(":libs:core")` in it is
 *   a dependency, and so is a type-safe accessor (`projects.libs.core`, `projects.kotlinMetadata`
 *   for `:kotlin-metadata`).
 *
 * A file belongs to the modules that name its source folder, else to the innermost module folder
 * holding it. Without build files, or for files outside every module, nothing is narrowed.
 */
import type { RepoFiles } from "../spec.ts";
import { dirOf, joinPath } from "../paths.ts";

interface Module {
  dir: string;
  ids: string[];
  deps: string[];
  /** Source folders its build names (repository-relative), besides its own folder. */
  sources: string[];
}

/** Test source sets: Maven's `src/test` and `src/it`, Gradle's `src/<name>Test` (jvmTest, ...). */
const TEST_SOURCES = /(^|\/)src\/(test|it|\w+Test)\//;

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
    const text = read(file);
    const deps = [
      ...[...text.matchAll(/project\s*\(\s*(?:path\s*[:=]\s*)?["']([^"']+)["']/g)].map((m) => m[1]),
      // Type-safe project accessors: `projects.interop.kotlinMetadata` is `:interop:kotlin-metadata`.
      ...[...text.matchAll(/\bprojects((?:\.[A-Za-z_]\w*)+)/g)].map((m) => `projects${m[1]}`),
    ];
    const id = `:${rel.replace(/\//g, ":")}`;
    modules.push({ dir, ids: [id, accessorOf(id)], deps, sources: [] });
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

/** A Gradle project path's type-safe accessor: `:interop:kotlin-metadata` -> `projects.interop.kotlinMetadata`. */
function accessorOf(id: string): string {
  const camel = (seg: string) =>
    seg.replace(/[-_]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
  return ["projects", ...id.split(":").filter(Boolean).map(camel)].join(".");
}

function mavenModule(path: string, xml: string): Module {
  const dir = dirOf(path);
  const uncommented = xml.replace(/<!--[\s\S]*?-->/g, "");
  // The build's own folders, not a plugin's (`<plugins>` may name others).
  const build = (/<build>([\s\S]*?)<\/build>/.exec(uncommented)?.[1] ?? "")
    .replace(/<pluginManagement>[\s\S]*?<\/pluginManagement>/g, "")
    .replace(/<plugins>[\s\S]*?<\/plugins>/g, "");
  const sources: string[] = [];
  for (const m of build.matchAll(/<(?:test)?[sS]ourceDirectory>\s*([^<]+?)\s*<\//g)) {
    const rel = m[1].replace(/^\$\{(?:project\.)?basedir\}\/?/, "");
    if (rel.includes("${")) continue;
    const src = joinPath(dir, rel);
    if (src !== undefined && src !== dir) sources.push(src);
  }
  const text = uncommented
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
  return { dir, ids: own ? [own] : [], deps, sources };
}

const inside = (path: string, dir: string) => dir === "" || path.startsWith(`${dir}/`);

/**
 * The modules a path's code belongs to (their directories): those whose build names the source
 * folder holding it (the innermost such folder; several modules may compile one folder), else the
 * innermost module directory holding it; none outside every module.
 */
function modulesOf(b: Build, path: string): string[] {
  let folder: string | undefined;
  let named: string[] = [];
  for (const m of b.modules) {
    for (const src of m.sources) {
      if (!inside(path, src) || (folder !== undefined && src.length < folder.length)) continue;
      if (src !== folder) named = [];
      folder = src;
      if (!named.includes(m.dir)) named.push(m.dir);
    }
  }
  if (named.length) return named;
  let best: string | undefined;
  for (const m of b.modules) {
    if (inside(path, m.dir) && (best === undefined || m.dir.length > best.length)) best = m.dir;
  }
  return best === undefined ? [] : [best];
}

/**
 * Whether code at `fromPath` may use a definition at `toPath` as the build has it: the same
 * module, or a module it sees that is not that module's tests. True when either lies outside every
 * module or the build has fewer than two.
 */
export function moduleSees(fromPath: string, toPath: string, repo: RepoFiles): boolean {
  const b = buildOf(repo);
  if (b.modules.length < 2) return true;
  const homes = modulesOf(b, fromPath);
  const owners = modulesOf(b, toPath);
  if (!homes.length || !owners.length || homes.some((h) => owners.includes(h))) return true;
  if (TEST_SOURCES.test(toPath)) return false;
  return homes.some((h) => owners.some((o) => b.visible.get(h)!.has(o)));
}

/**
 * Of the files an import reaches, those in modules the importing file's module sees, when the
 * files lie in more than one module and some of them are visible; else all of them.
 */
export function visibleFiles(files: string[], fromPath: string, repo: RepoFiles): string[] {
  if (files.length < 2) return files;
  const b = buildOf(repo);
  if (b.modules.length < 2) return files;
  const homes = modulesOf(b, fromPath);
  if (!homes.length) return files;
  const owners = files.map((f) => modulesOf(b, f));
  if (new Set(owners.map((o) => o.join("\0"))).size < 2) return files;
  const kept = files.filter((_, i) =>
    !owners[i].length || owners[i].some((o) => homes.some((h) => b.visible.get(h)!.has(o)))
  );
  return kept.length ? kept : files;
}
