/**
 * The repository's structure as resolution reads it: every file's definitions by name (top-level
 * and type names, method names, module names, the parts of open types, the members a type
 * declares in its body), by id, and which files exist where (RepoFiles). It depends on each file's
 * facts alone, so a long-lived process keeps it and patches it per changed file instead of
 * rebuilding it from every file on each edit. A patched structure equals one built from the same
 * facts, lists in the same order (by path, then definition index), which is what keeps an
 * incremental run's edges equal to a full run's.
 *
 * What depends on lookups across files (owners of out-of-line members, bases, the values
 * parameters receive) is not here: the resolver derives it on every run (calls.ts, scopes.ts).
 */
import type { LanguageSpec, RepoFiles } from "../../lang/spec.ts";
import type { CallFact, DefFact, FileFacts } from "../../graph/facts.ts";
import { TYPE_KINDS } from "../../graph/facts.ts";
import { fileId, type RefNode, symbolKeys } from "../../graph/model.ts";
import type { DefRef } from "./model.ts";
import { push, qualifiedModule, repoFiles } from "./refs.ts";

/**
 * A definition as resolution reads it: its file, index and facts, and its node (itself: the id and
 * qualified name it is written with, its name, path and line read off its facts), one object per
 * definition. A full run's nodes are written before resolution: their signatures, docs and search
 * words are not held here.
 */
class Ref implements DefRef, RefNode {
  /** Itself (a field, not a getter: resolution reads `ref.node.id` at every step). */
  readonly node: RefNode = this;
  constructor(
    readonly file: FileFacts,
    readonly index: number,
    readonly def: DefFact,
    readonly id: string,
    readonly qualified_name: string,
  ) {}
  get name(): string {
    return this.def.name;
  }
  get path(): string {
    return this.file.path;
  }
  get line(): number {
    return this.def.line;
  }
}

/** What a file's scope holds that depends on its facts alone (kept per facts object). */
export interface FilePieces {
  refs: DefRef[];
  children: Map<number, Map<string, DefRef[]>>;
  exports: Map<string, DefRef[]>;
}

const piecesCache = new WeakMap<FileFacts, FilePieces>();

/**
 * A file's definitions as DefRefs, by parent and name, and what it exports: a pure function of
 * its facts, so a long-lived process reuses them while the file is unchanged (never mutated).
 */
export function piecesOf(f: FileFacts): FilePieces {
  const known = piecesCache.get(f);
  if (known) return known;
  const keys = f.keys?.length === f.defs.length ? f.keys : symbolKeys(f);
  // One `module.` for the file's names (each qualified name then a pair of strings, the first
  // shared).
  const prefix = f.module ? `${f.module}.` : "";
  const refs: DefRef[] = f.defs.map((def, index) =>
    new Ref(f, index, def, keys[index].id, prefix + def.local)
  );
  const children = new Map<number, Map<string, DefRef[]>>();
  // Without modules, a file exports exactly its top-level children: one map serves both.
  const modules = f.defs.some((d) => d.kind === "Module");
  const exports = new Map<string, DefRef[]>();
  for (const r of refs) {
    // Methods attached to a type from outside it (Go receivers, Rust impls, C++ out-of-line
    // members) are reached through their type, never as bare names.
    if (r.def.owner || r.def.expansion) continue;
    push(children, r.def.parent, r.def.name, r);
    if (!modules) continue;
    const parentKind = r.def.parent >= 0 ? f.defs[r.def.parent].kind : undefined;
    if (parentKind === undefined || parentKind === "Module") {
      const list = exports.get(r.def.name);
      if (list) list.push(r);
      else exports.set(r.def.name, [r]);
    }
  }
  const pieces = { refs, children, exports: modules ? exports : children.get(-1) ?? exports };
  piecesCache.set(f, pieces);
  return pieces;
}

type Index = Map<string, Map<string, DefRef[]>>;

/** Where one definition is listed: which index, its outer key and name (flat lists: key only). */
interface Entry {
  map: "global" | "method" | "member" | "module" | "open" | "extension";
  key: string;
  name: string;
  ref: DefRef;
}

export class Structure {
  /** Every file's facts, by path, in path order. */
  readonly files = new Map<string, FileFacts>();
  /** Top-level (or namespace-level) definitions and all types, by family, by name. */
  readonly globalNames: Index = new Map();
  readonly methodNames: Index = new Map();
  /** Extensions (definitions with a receiver type), by family, by name. */
  readonly extensions: Index = new Map();
  /** Members a type declares in its body (owners attached from outside come per run). */
  readonly members: Index = new Map();
  readonly byId = new Map<string, DefRef>();
  readonly modulesByName = new Map<string, DefRef[]>();
  /** The parts of open types by family, qualified name and arity. */
  readonly openParts = new Map<string, DefRef[]>();
  /** Per bare name passed as an argument somewhere (`run(step)`): the files passing it. */
  readonly bareArgs = new Map<string, Set<string>>();
  /**
   * What the last run's attachOwners found per file (for the facts it had), and whether the next
   * run may replay it for files no edit affects: no lookup read what was being attached.
   */
  owners?: {
    byPath: Map<string, { facts: FileFacts; attached: [number, string][] }>;
    replayable: boolean;
  };
  /**
   * Names visible package-wide (Scopes.packageNames), built when first asked, with the files
   * they were gathered from: a patch drops those of a changed file's packages.
   */
  readonly packages = new Map<string, { names: Map<string, DefRef[]>; files: string[] }>();
  /** File node ids to paths (every file's). */
  readonly fileIds = new Map<string, string>();
  /** How many files define each name, once asked for (`defNames`), then kept current. */
  #defNames?: Map<string, number>;
  repo: RepoFiles;

  private constructor(
    readonly specOf: (language: string) => LanguageSpec | undefined,
    readonly manifests: ReadonlyMap<string, string> | undefined,
    facts: FileFacts[],
  ) {
    const sorted = [...facts].sort(byPath);
    const append = (map: Entry["map"], key: string, name: string, ref: DefRef) =>
      this.append(map, key, name, ref);
    for (const f of sorted) {
      this.files.set(f.path, f);
      this.fileIds.set(fileId(f.path), f.path);
      this.passing(f, true);
      for (const r of this.refsOf(f)) this.byId.set(r.node.id, r);
      this.entries(f, append);
    }
    this.repo = repoFiles(sorted, manifests);
  }

  static build(
    facts: FileFacts[],
    specOf: (language: string) => LanguageSpec | undefined,
    manifests?: ReadonlyMap<string, string>,
  ): Structure {
    return new Structure(specOf, manifests, facts);
  }

  /**
   * How many files define each name (any definition: what an incremental run asks of an edit's
   * names): counted when first asked (a full run never asks), then kept by `patch`.
   */
  get defNames(): ReadonlyMap<string, number> {
    if (!this.#defNames) {
      this.#defNames = new Map();
      for (const f of this.files.values()) this.countNames(f, 1);
    }
    return this.#defNames;
  }

  /** The file a node (a file's or a definition's) belongs to. */
  pathOf(id: string): string | undefined {
    return this.byId.get(id)?.file.path ?? this.fileIds.get(id);
  }

  /** Languages whose files may call each other share a family (LanguageSpec.family). */
  family(language: string): string {
    return this.specOf(language)?.family ?? language;
  }

  /**
   * Replaces files' facts by new ones of the same paths (the set of files stays as it is); false
   * when it cannot (a file added or removed, a language without a spec): build anew then.
   */
  patch(changed: FileFacts[]): boolean {
    for (const f of changed) {
      const old = this.files.get(f.path);
      if (!old || old.language !== f.language) return false;
    }
    let packagesMoved = false;
    for (const f of changed) {
      const old = this.files.get(f.path)!;
      if (old === f) continue;
      this.countNames(old, -1);
      this.countNames(f, 1);
      this.passing(old, false);
      this.passing(f, true);
      for (const e of this.entryList(old)) this.remove(e);
      for (const r of this.refsOf(old)) {
        if (this.byId.get(r.node.id) === r) this.byId.delete(r.node.id);
      }
      for (const r of this.refsOf(f)) this.byId.set(r.node.id, r);
      for (const e of this.entryList(f)) this.add(e, true);
      if (packagesKey(old) !== packagesKey(f)) packagesMoved = true;
      this.files.set(f.path, f);
    }
    if (packagesMoved) {
      this.repo = repoFiles([...this.files.values()], this.manifests);
      this.packages.clear();
    } else {
      const paths = new Set(changed.map((f) => f.path));
      for (const [key, pkg] of this.packages) {
        if (pkg.files.some((p) => paths.has(p))) this.packages.delete(key);
      }
    }
    return true;
  }

  private passing(f: FileFacts, add: boolean): void {
    for (const name of bareArgNames(f)) {
      let files = this.bareArgs.get(name);
      if (add) {
        if (!files) this.bareArgs.set(name, files = new Set());
        files.add(f.path);
      } else if (files) {
        files.delete(f.path);
        if (!files.size) this.bareArgs.delete(name);
      }
    }
  }

  private countNames(f: FileFacts, by: 1 | -1): void {
    const counts = this.#defNames;
    if (!counts) return;
    const defs = f.defs;
    // A file's names each once: most files have few definitions, compared with those before it.
    const seen = defs.length > 32 ? new Set<string>() : undefined;
    for (let i = 0; i < defs.length; i++) {
      const name = defs[i].name;
      if (seen) {
        if (seen.has(name)) continue;
        seen.add(name);
      } else if (earlier(defs, i, name)) continue;
      const n = (counts.get(name) ?? 0) + by;
      if (n > 0) counts.set(name, n);
      else counts.delete(name);
    }
  }

  /** A file's definitions (none for a language without a spec: it is not resolved). */
  refsOf(f: FileFacts): DefRef[] {
    return this.specOf(f.language) ? piecesOf(f).refs : [];
  }

  /** Every list a file's definitions are in, in the order a build adds them. */
  private entries(
    f: FileFacts,
    visit: (map: Entry["map"], key: string, name: string, ref: DefRef) => void,
  ): void {
    const spec = this.specOf(f.language);
    if (!spec) return;
    const fam = this.family(f.language);
    const { refs } = piecesOf(f);
    for (const r of refs) {
      if (r.def.receiverType) visit("extension", fam, r.def.name, r);
      if (spec.openTypes && TYPE_KINDS.has(r.def.kind)) visit("open", openKey(fam, r), "", r);
      const parent = r.def.parent >= 0 ? f.defs[r.def.parent] : undefined;
      if (r.def.expansion) continue;
      if (TYPE_KINDS.has(r.def.kind) || !parent || parent.kind === "Module") {
        if (!(r.def.owner && r.def.kind === "Method")) visit("global", fam, r.def.name, r);
      }
      if (r.def.kind === "Method") visit("method", fam, r.def.name, r);
      if (r.def.kind === "Module") visit("module", r.node.qualified_name, "", r);
      if (parent && TYPE_KINDS.has(parent.kind)) {
        visit("member", refs[r.def.parent].node.id, r.def.name, r);
      }
    }
  }

  /** The entries of a file, as a list (a patch removes and adds them). */
  private entryList(f: FileFacts): Entry[] {
    const out: Entry[] = [];
    this.entries(f, (map, key, name, ref) => out.push({ map, key, name, ref }));
    return out;
  }

  /** Adds a reference at the end of its list (a build adds files in path order). */
  private append(map: Entry["map"], key: string, name: string, ref: DefRef): void {
    if (map === "module" || map === "open") {
      const flat = map === "module" ? this.modulesByName : this.openParts;
      const list = flat.get(key);
      if (list) list.push(ref);
      else flat.set(key, [ref]);
      return;
    }
    const index = map === "global"
      ? this.globalNames
      : map === "method"
      ? this.methodNames
      : map === "extension"
      ? this.extensions
      : this.members;
    let inner = index.get(key);
    if (!inner) index.set(key, inner = new Map());
    const list = inner.get(name);
    if (list) list.push(ref);
    else inner.set(name, [ref]);
  }

  private listOf(e: Entry, create: boolean): DefRef[] | undefined {
    if (e.map === "module" || e.map === "open") {
      const flat = e.map === "module" ? this.modulesByName : this.openParts;
      let list = flat.get(e.key);
      if (!list && create) flat.set(e.key, list = []);
      return list;
    }
    const index = this.indexOf(e);
    let inner = index.get(e.key);
    if (!inner) {
      if (!create) return undefined;
      index.set(e.key, inner = new Map());
    }
    let list = inner.get(e.name);
    if (!list && create) inner.set(e.name, list = []);
    return list;
  }

  private indexOf(e: Entry): Index {
    return e.map === "global"
      ? this.globalNames
      : e.map === "method"
      ? this.methodNames
      : e.map === "extension"
      ? this.extensions
      : this.members;
  }

  /** Adds an entry: at the end while building (files come in path order), else in its place. */
  private add(e: Entry, inPlace: boolean): void {
    const list = this.listOf(e, true)!;
    if (!inPlace || !list.length || !after(list[list.length - 1], e.ref)) list.push(e.ref);
    else list.splice(list.findIndex((r) => after(r, e.ref)), 0, e.ref);
  }

  private remove(e: Entry): void {
    const list = this.listOf(e, false);
    if (list) {
      const at = list.indexOf(e.ref);
      if (at >= 0) list.splice(at, 1);
      if (!list.length) this.dropEmpty(e);
    }
  }

  private dropEmpty(e: Entry): void {
    if (e.map === "module") this.modulesByName.delete(e.key);
    else if (e.map === "open") this.openParts.delete(e.key);
    else {
      const index = this.indexOf(e);
      const inner = index.get(e.key)!;
      inner.delete(e.name);
      if (!inner.size) index.delete(e.key);
    }
  }
}

/** Whether a definition before the i-th has this name. */
function earlier(defs: readonly { name: string }[], i: number, name: string): boolean {
  for (let j = 0; j < i; j++) if (defs[j].name === name) return true;
  return false;
}

/** An argument that is a bare name (`=step`): maybe a function passed by name. */
export const BARE = /^=[\w$]+$/;

/** BARE.test(a), without a regular expression for the common miss (most are types, not `=`). */
function isBare(a: string): boolean {
  return a.charCodeAt(0) === 61 && BARE.test(a);
}

const bareNameCallsCache = new WeakMap<FileFacts, CallFact[]>();

/** A file's calls with an argument that is a bare name (kept per facts object). */
export function bareNameCalls(f: FileFacts): CallFact[] {
  let calls = bareNameCallsCache.get(f);
  if (!calls) {
    calls = f.calls.filter((c) => c.argTypes?.some(isBare));
    bareNameCallsCache.set(f, calls);
  }
  return calls;
}

const bareArgNamesCache = new WeakMap<FileFacts, string[]>();

/** The bare names a file passes as arguments, each once (what Structure.bareArgs indexes). */
export function bareArgNames(f: FileFacts): string[] {
  let names = bareArgNamesCache.get(f);
  if (!names) {
    const seen = new Set<string>();
    for (const call of bareNameCalls(f)) {
      for (const a of call.argTypes!) if (isBare(a)) seen.add(a.slice(1));
    }
    bareArgNamesCache.set(f, names = [...seen]);
  }
  return names;
}

/** How bareArgNames computes, as text: names stored with facts are used by the same rule only. */
export const BARE_ARG_RULE = [BARE.source, isBare, bareNameCalls, bareArgNames].join("\n");

/**
 * Gives bareArgNames a file's names known without reading its calls (stored with its facts by
 * src/index/facts_store.ts, which reads a file's calls only when something asks for them).
 */
export function knowBareArgNames(f: FileFacts, names: string[]): void {
  bareArgNamesCache.set(f, names);
}

/** Whether `r` comes after `ref` in build order (path, then definition index). */
function after(r: DefRef, ref: DefRef): boolean {
  return r.file.path > ref.file.path || (r.file.path === ref.file.path && r.index > ref.index);
}

function byPath(a: FileFacts, b: FileFacts): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** What RepoFiles reads of a file: its package and top-level modules. */
function packagesKey(f: FileFacts): string {
  const top = f.defs.filter((d) => d.kind === "Module" && d.parent < 0).map((d) =>
    qualifiedModule(f, d)
  );
  return `${f.package ?? ""}\0${top.join("\0")}`;
}

/** One open type's parts share family, qualified name and generic arity (`IRequest<T>` is not `IRequest`). */
export function openKey(family: string, r: DefRef): string {
  return `${family}\0${r.node.qualified_name}\0${r.def.typeParams?.length ?? 0}`;
}
