/** Small helpers over definitions and the repository's files, shared by the resolver parts. */
import type { RepoFiles } from "../../lang/spec.ts";
import { dirOf } from "../../lang/paths.ts";
import type { DefFact, FileFacts } from "../../graph/facts.ts";
import { TYPE_KINDS } from "../../graph/facts.ts";
import type { DefRef, FileScope } from "./model.ts";

export function push<K, V>(map: Map<K, Map<string, V[]>>, key: K, name: string, value: V): void {
  let inner = map.get(key);
  if (!inner) map.set(key, inner = new Map());
  const list = inner.get(name);
  if (list) list.push(value);
  else inner.set(name, [value]);
}

/** The same definition reached twice (a file imported directly and through another) counts once. */
export function distinct(refs: DefRef[]): DefRef[] {
  if (refs.length < 2) return refs;
  const seen = new Set<string>();
  return refs.filter((r) => !seen.has(r.node.id) && (seen.add(r.node.id), true));
}

export function isType(r: DefRef): boolean {
  return TYPE_KINDS.has(r.def.kind);
}

export function isCallable(r: DefRef): boolean {
  return r.def.kind === "Function" || r.def.kind === "Method" || r.def.kind === "Class" ||
    r.def.kind === "Struct";
}

/** Call targets: functions, methods, and types whose construction the call is. */
export function callable(refs: DefRef[]): DefRef[] {
  return refs.filter(isCallable);
}

/**
 * Same-named definitions of one scope (a test file defining `class Foo` in several callbacks):
 * the last one before the line, else the first.
 */
export function nearest(refs: DefRef[], line: number): DefRef[] {
  if (refs.length < 2 || !line) return refs;
  if (refs.some((r) => r.file !== refs[0].file)) return refs;
  // Overloads (callables with different parameters) and methods stay: arity chooses later.
  const callables = refs.filter((r) => r.def.kind === "Function" || r.def.kind === "Method");
  if (callables.some((r) => r.def.kind === "Method")) return refs;
  const shape = (r: DefRef) => `${r.def.params?.join(",")}|${r.def.paramTypes?.join(",")}`;
  if (new Set(callables.map(shape)).size > 1) return refs;
  const before = refs.filter((r) => r.def.line <= line);
  return [before.length ? before[before.length - 1] : refs[0]];
}

/** All candidates are one symbol (overloads, or a declaration and its definition). */
export function sameSymbol(refs: DefRef[]): boolean {
  return refs.every((r) => r.node.qualified_name === refs[0].node.qualified_name);
}

export function depthOf(scope: FileScope, index: number): number {
  let d = 0;
  for (let at = index; at >= 0; at = scope.refs[at].def.parent) d++;
  return d;
}

export function packageOf(scope: FileScope): string | undefined {
  if (scope.facts.package) return scope.facts.package;
  const mod = scope.refs.find((r) => r.def.parent < 0 && r.def.kind === "Module");
  return mod?.node.qualified_name;
}

export function repoFiles(facts: FileFacts[], manifests?: ReadonlyMap<string, string>): RepoFiles {
  const paths = new Set(facts.map((f) => f.path));
  const byDir = new Map<string, string[]>();
  const byPackage = new Map<string, string[]>();
  for (const f of facts) {
    const dir = dirOf(f.path);
    const inDir = byDir.get(dir);
    if (inDir) inDir.push(f.path);
    else byDir.set(dir, [f.path]);
    const pkgs = new Set<string>();
    if (f.package) pkgs.add(f.package);
    for (const d of f.defs) {
      if (d.kind === "Module" && d.parent < 0) pkgs.add(qualifiedModule(f, d));
    }
    for (const pkg of pkgs) {
      const key = `${f.language}\0${pkg}`;
      const inPkg = byPackage.get(key);
      if (inPkg) inPkg.push(f.path);
      else byPackage.set(key, [f.path]);
    }
  }
  const byBase = new Map<string, string[]>();
  for (const p of paths) {
    const base = p.slice(p.lastIndexOf("/") + 1);
    const same = byBase.get(base);
    if (same) same.push(p);
    else byBase.set(base, [p]);
  }
  const byName = new Map<string, string[]>();
  for (const p of [...(manifests?.keys() ?? [])].sort()) {
    const name = p.slice(p.lastIndexOf("/") + 1);
    byName.set(name, [...(byName.get(name) ?? []), p]);
  }
  return {
    read: (p) => manifests?.get(p),
    manifests: (name) => byName.get(name) ?? [],
    has: (p) => paths.has(p),
    inDir: (dir) => byDir.get(dir) ?? [],
    inPackage: (language, pkg) => byPackage.get(`${language}\0${pkg}`) ?? [],
    withSuffix: (suffix) =>
      (byBase.get(suffix.slice(suffix.lastIndexOf("/") + 1)) ?? []).filter((p) =>
        p === suffix || p.endsWith("/" + suffix)
      ),
  };
}

export function qualifiedModule(f: FileFacts, d: DefFact): string {
  return f.module ? `${f.module}.${d.local}` : d.local;
}

/**
 * Of same-named members, the class-level ones (DefFact.static) for a call on the class, the
 * instance ones for a call on a value, when both kinds are there; else all of them.
 */
export function atLevel(refs: DefRef[], classLevel: boolean): DefRef[] {
  const pick = refs.filter((r) => !!r.def.static === classLevel);
  return pick.length && pick.length < refs.length ? pick : refs;
}

/** Whether a place is inside a class-level method (`def self.x`): there `self` is the class. */
export function inClassMethod(scope: FileScope, from: number): boolean {
  for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
    const def = scope.refs[at].def;
    if (def.kind === "Method" || def.kind === "Function") return !!def.static;
  }
  return false;
}
