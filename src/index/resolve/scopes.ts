import type { LanguageSpec, RepoFiles } from "../../lang/spec.ts";
import { dirOf } from "../../lang/paths.ts";
import type { TypeHint } from "../../graph/facts.ts";
import { TYPE_KINDS } from "../../graph/facts.ts";
import { type Edge, fileId } from "../../graph/model.ts";
import {
  type Binding,
  type CallShape,
  CONF_SCOPE,
  CONF_TYPED,
  CONF_UNIQUE,
  type DefRef,
  type FileScope,
  type Found,
  MAX_DEPTH,
} from "./model.ts";
import { atLevel, distinct, isType, nearest, packageOf, push, sameSymbol } from "./refs.ts";
import { lastDot, splitArgs } from "./text.ts";
import { openKey, piecesOf, type Structure } from "./structure.ts";
import { Memo2, Memo3 } from "./memo.ts";

/** Files resolved between two emptyings of the memos across files (see `Scopes.forget`). */
const MEMO_FILES = 2000;

/**
 * Names seen from a place: the structure of every file (owners, bases, nesting), imports and
 * re-exports, packages, and lookup by scope; members of types through their bases.
 */
export abstract class Scopes {
  readonly scopes = new Map<string, FileScope>();
  /** The repository's structure (kept and patched by a long-lived process; see structure.ts). */
  readonly structure: Structure;
  readonly specOf: (language: string) => LanguageSpec | undefined;
  /** Top-level (or namespace-level) definitions and all types, by family, by name. */
  readonly globalNames: Map<string, Map<string, DefRef[]>>;
  readonly methodNames: Map<string, Map<string, DefRef[]>>;
  /**
   * Members of a type, including methods attached by owner (Go receivers, Rust impls): those a
   * type's body declares (the structure's) then those attached from outside (ownerMembers).
   */
  readonly members = { get: (id: string) => this.membersOf(id) };
  /** Members attached to a type from outside its body, this run (attachOwners). */
  readonly ownerMembers = new Map<string, Map<string, DefRef[]>>();
  readonly mergedMembers = new Map<string, Map<string, DefRef[]>>();
  readonly ownerType = new Map<string, DefRef>();
  readonly bases = new Map<string, DefRef[]>();
  readonly byId: Map<string, DefRef>;
  readonly modulesByName: Map<string, DefRef[]>;
  readonly failures: string[] = [];
  /** Files forgotten since the memos across files were last emptied (`forget`). */
  private forgotten = 0;
  /** How many files are resolved between two emptyings of the memos across files. */
  memoFiles = MEMO_FILES;
  /** exported() answers by file, name and alias. */
  readonly exportCache = new Memo3<string, string, string, DefRef[]>();
  /** The parts of open types by family and qualified name. */
  readonly openParts: Map<string, DefRef[]>;
  /** typeOfExpr answers by file, place, expression (and line in the call's own file). */
  readonly typeCache = new Memo3<
    string,
    number,
    string,
    { type?: DefRef; known?: boolean; name?: string }
  >();
  /** Set when a hint was chosen by the call's line (its answer must not be memoised). */
  lineSensitive = false;
  /**
   * Set once owners and bases are known: from then on a type's members and a written type's
   * definitions no longer change, and are memoised (type refs: unless line-sensitive).
   */
  structureKnown = false;
  /** A type's members by name, for a value of it (`instance`: index 1) or for the type itself. */
  readonly memberCache = [
    new Memo2<string, string, DefRef[]>(),
    new Memo2<string, string, DefRef[]>(),
  ] as const;
  readonly typeRefCache = new Memo3<string, number, string, DefRef[]>();
  readonly localCache = new Memo3<string, number, string, boolean>();
  readonly fieldCache = new Memo2<string, string, TypeHint | undefined>();
  /** What parameters may hold: function values passed by callers, by `def id \0 name`. */
  readonly paramValues = new Map<string, DefRef[]>();
  /** Functions that are classes: their prototype holds methods (`Foo.prototype.m = ...`). */
  readonly constructorFunctions = new Set<string>();
  /** File of the call being resolved (hint order by line applies in that file only). */
  lineFile = "";
  /** Line of the call being resolved: picks among same-named definitions of one scope. */
  line = 0;

  constructor(structure: Structure) {
    this.structure = structure;
    this.specOf = structure.specOf;
    this.globalNames = structure.globalNames;
    this.methodNames = structure.methodNames;
    this.byId = structure.byId;
    this.modulesByName = structure.modulesByName;
    this.openParts = structure.openParts;
    for (const f of structure.files.values()) {
      const spec = this.specOf(f.language);
      if (!spec) continue;
      const { refs, children, exports } = piecesOf(f);
      // Every field from the start, in one order: scopes filled in later in different orders
      // (bindings first, or hints) would each have a shape of their own, and the code reading them
      // would be compiled and given up again at every new one.
      this.scopes.set(f.path, {
        facts: f,
        spec,
        refs,
        children,
        exports,
        bindings: undefined,
        hintsByVar: undefined,
        wildcards: undefined,
        wildcardTypes: undefined,
        importEdges: undefined,
      });
    }
  }

  /**
   * Drops what was memoised per place in a file once it is resolved (its expressions' types,
   * written types, locals) and what its scope derived from its imports and hints: mostly its own
   * calls ask those, and a later file that asks again (a re-export, a module-level alias) gets
   * the same answer anew (memo answers do not depend on order; bindings and hints are computed
   * from the file's facts and the structure), so a full run's memory no longer grows with every
   * file resolved.
   */
  forget(path: string): void {
    this.typeCache.delete(path);
    this.typeRefCache.delete(path);
    this.localCache.delete(path);
    // What is memoised across files (exports, members and fields by type) is emptied every few
    // thousand files, to be asked anew (the same answers): a full run's memos then hold what
    // that many files asked, not what the whole repository did.
    if (++this.forgotten >= this.memoFiles) {
      this.forgotten = 0;
      this.exportCache.clear();
      this.memberCache[0].clear();
      this.memberCache[1].clear();
      this.fieldCache.clear();
    }
    const scope = this.scopes.get(path);
    if (!scope) return;
    // Its wildcard imports stay (read without asking for the bindings first; a few paths).
    scope.bindings = scope.importEdges = scope.hintsByVar = undefined;
  }

  get repo(): RepoFiles {
    return this.structure.repo;
  }

  /** A type's members by name: declared in its body, then attached from outside. */
  membersOf(id: string): Map<string, DefRef[]> | undefined {
    this.progressRead = true;
    const own = this.structure.members.get(id);
    const attached = this.ownerMembers.get(id);
    if (!attached) return own;
    if (!own) return attached;
    let merged = this.mergedMembers.get(id);
    if (!merged) {
      merged = new Map(own);
      for (const [name, list] of attached) merged.set(name, [...(own.get(name) ?? []), ...list]);
      this.mergedMembers.set(id, merged);
    }
    return merged;
  }

  // ---- structure ------------------------------------------------------------------------------
  /**
   * Attaches a file's out-of-line members to their types (looked up by name); returns what it
   * attached, by definition index and type id, for replayOwners.
   */
  attachOwners(scope: FileScope): [number, string][] {
    const out: [number, string][] = [];
    for (const r of scope.refs) {
      if (!r.def.owner) continue;
      const parent = r.def.parent >= 0 ? scope.refs[r.def.parent] : undefined;
      if (parent && TYPE_KINDS.has(parent.def.kind) && parent.def.kind !== "Module") continue;
      // `Foo.prototype.m = function` makes the function Foo a class (JavaScript).
      const accept = scope.spec.constructorFunctions
        ? (x: DefRef) => isType(x) || x.def.kind === "Function"
        : isType;
      const types = this.lookup(scope, r.def.parent, r.def.owner, accept, false).refs;
      if (types.length === 1 && types[0].node.id !== r.node.id) {
        this.attachOwner(r, types[0]);
        out.push([r.index, types[0].node.id]);
      }
    }
    return out;
  }

  /**
   * What attachOwners found for this file last run, attached again without looking anything up;
   * false (nothing attached) when a type it named is gone.
   */
  replayOwners(scope: FileScope, attached: [number, string][]): boolean {
    const types = attached.map(([, id]) => this.byId.get(id));
    if (types.some((t) => !t)) return false;
    attached.forEach(([index], i) => this.attachOwner(scope.refs[index], types[i]!));
    return true;
  }

  private attachOwner(r: DefRef, type: DefRef): void {
    this.ownerType.set(r.node.id, type);
    // An extension (Kotlin `fun Foo.m()`) is no member: calls reach it where it is visible,
    // ranked against the other extensions of that name (resolve/extensions.ts).
    if (r.def.receiverType && !r.def.receiverParam) return;
    push(this.ownerMembers, type.node.id, r.def.name, r);
    this.mergedMembers.delete(type.node.id);
    if (!isType(type)) this.constructorFunctions.add(type.node.id);
  }

  /**
   * Set when a lookup read what attachOwners and inheritEdges fill as they go (owners, attached
   * members, bases, blankets): such answers depend on the files before, and are not replayed.
   */
  progressRead = false;

  definesEdges(scope: FileScope): Edge[] {
    const out: Edge[] = [];
    const file = fileId(scope.facts.path);
    for (const r of scope.refs) {
      if (r.def.parent < 0) {
        out.push({ type: "DEFINES", from: file, fromFile: true, to: r.node.id });
      } else out.push({ type: "DEFINES", from: scope.refs[r.def.parent].node.id, to: r.node.id });
      const owner = this.ownerType.get(r.node.id);
      if (owner) out.push({ type: "DEFINES", from: owner.node.id, to: r.node.id });
    }
    return out;
  }

  inheritEdges(scope: FileScope): Edge[] {
    const out: Edge[] = [];
    const seen = new Set<string>();
    for (const h of scope.facts.inherits) {
      if (h.ownerBound !== undefined) {
        this.addBlanket(scope, h.name, h.ownerBound);
        continue;
      }
      let from: DefRef | undefined;
      if (h.from >= 0) from = scope.refs[h.from];
      else if (h.ownerName) {
        const owners = this.lookup(scope, -1, h.ownerName, isType, false).refs;
        from = owners.length === 1 ? owners[0] : undefined;
      }
      if (!from) continue;
      // Same-named classes of one file (one per test callback): the nearest one above counts.
      this.line = h.line;
      this.lineFile = scope.facts.path;
      const targets = distinct(this.resolveTypeRef(scope, from.def.parent, h.name)).filter((t) =>
        t.node.id !== from!.node.id
      );
      // The parts of one open type (a reopened Ruby class, a C# partial class) are one base.
      const open = targets.length > 1 && sameSymbol(targets) && this.isOpen(targets[0]);
      if (targets.length !== 1 && !open) continue;
      const target = targets[0];
      const type = h.relation === "extends"
        ? "EXTENDS"
        : h.relation === "implements"
        ? "IMPLEMENTS"
        : target.def.kind === "Interface" || target.def.kind === "Trait"
        ? "IMPLEMENTS"
        : "EXTENDS";
      const key = `${type}\0${from.node.id}\0${target.node.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ type, from: from.node.id, to: target.node.id, line: h.line });
      const list = this.bases.get(from.node.id);
      if (list) list.push(target);
      else this.bases.set(from.node.id, [target]);
    }
    return out;
  }

  /** Blanket impls: traits every type meeting a bound has (`impl<R: Rng> RngExt for R`). */
  readonly blankets: { trait: DefRef; bound: string }[] = [];

  addBlanket(scope: FileScope, trait: string, bound: string): void {
    const traits = distinct(this.resolveTypeRef(scope, -1, trait)).filter((t) =>
      t.def.kind === "Trait"
    );
    if (traits.length !== 1) return;
    if (!this.blankets.some((b) => b.trait === traits[0] && b.bound === bound)) {
      this.blankets.push({ trait: traits[0], bound });
    }
  }

  imports(scope: FileScope): Edge[] {
    this.bindingsOf(scope);
    return scope.importEdges!;
  }

  /** Import bindings of a file (computed once): local name -> files (+ symbol name). */
  bindingsOf(scope: FileScope): Map<string, Binding[]> {
    if (scope.bindings) return scope.bindings;
    const bindings = new Map<string, Binding[]>();
    const wildcards: string[] = [];
    const wildcardTypes: { files: string[]; type: string }[] = [];
    const edges: Edge[] = [];
    const seen = new Map<string, Edge>();
    const from = fileId(scope.facts.path);
    for (const imp of scope.facts.imports) {
      let files = scope.spec.resolveImport(imp, scope.facts.path, this.repo)
        .filter((p) => p !== scope.facts.path && this.scopes.has(p));
      // `import a.b.formatPrice` resolves to the package's files: keep the ones defining it.
      if (imp.name && files.length > 1) {
        const defining = files.filter((p) =>
          this.scopes.get(p)!.refs.some((r) => r.def.parent < 0 && r.def.name === imp.name)
        );
        if (defining.length) files = defining;
      }
      for (const p of files) {
        const known = seen.get(p);
        // One edge per file imported: type-only while every import behind it is.
        if (known) {
          if (!imp.typeOnly) delete known.typeOnly;
          continue;
        }
        const edge: Edge = {
          type: "IMPORTS",
          from,
          fromFile: true,
          to: fileId(p),
          toFile: true,
          line: imp.line,
          ...(imp.typeOnly ? { typeOnly: true } : {}),
        };
        seen.set(p, edge);
        edges.push(edge);
      }
      if (imp.wildcard) {
        wildcards.push(...files);
        const last = imp.source.split(/\.|::|\//).pop();
        if (last && scope.spec.typeNames?.test(last)) wildcardTypes.push({ files, type: last });
      } else if (imp.name) {
        const local = imp.alias ?? imp.name;
        const list = bindings.get(local) ?? [];
        list.push({ files, name: imp.name, source: imp.source });
        bindings.set(local, list);
      } else {
        const local = imp.alias ?? scope.spec.moduleBinding?.(imp.source);
        if (!local) continue;
        const list = bindings.get(local) ?? [];
        list.push({ files });
        bindings.set(local, list);
      }
    }
    scope.bindings = bindings;
    scope.wildcards = [...new Set(wildcards)];
    scope.wildcardTypes = wildcardTypes;
    scope.importEdges = edges;
    return bindings;
  }

  /** `Q.name()` where Q is a module binding, an imported symbol, a type or a namespace. */
  memberOfQualifier(scope: FileScope, from: number, qualifier: string, name: string): DefRef[] {
    const bindings = this.bindingsOf(scope);
    for (const key of [qualifier, qualifier.split(".")[0]]) {
      const list = bindings.get(key);
      if (!list) continue;
      for (const b of list) {
        if (key !== qualifier) continue; // only a full match binds the qualifier itself
        if (b.name) {
          const symbols = this.exported(b.files, b.name, 0);
          const refs = symbols.flatMap((s) => this.memberOrConstructor(s, name));
          if (refs.length) return refs;
        }
        const inModule = this.exported(b.files, name, 0);
        if (inModule.length) return inModule;
      }
    }
    // `::Readline.m`: a top-level constant's member.
    if (qualifier.startsWith(".")) {
      return this.resolveTypeRef(scope, from, qualifier).flatMap((o) =>
        this.memberOrConstructor(o, name)
      );
    }
    const last = qualifier.split(".").pop()!;
    // `Thor::Util.m`: the path names the type, whatever else is called `Util`.
    const byPath = qualifier.includes(".")
      ? this.resolveTypeRef(scope, from, qualifier).filter((r) => TYPE_KINDS.has(r.def.kind))
      : [];
    const owners = byPath.length
      ? byPath
      : this.lookup(scope, from, last, (r) => TYPE_KINDS.has(r.def.kind), true).refs;
    const refs = owners.flatMap((o) => this.memberOrConstructor(o, name));
    if (refs.length) return refs;
    // A namespace is open: its blocks in other files (a header and its .cpp) are one scope.
    const modules = owners.filter((o) => o.def.kind === "Module");
    return distinct(
      modules.flatMap((m) =>
        (this.modulesByName.get(m.node.qualified_name) ?? []).flatMap((b) => this.member(b, name))
      ),
    );
  }

  memberOrConstructor(type: DefRef, name: string): DefRef[] {
    if (!TYPE_KINDS.has(type.def.kind)) return [];
    const found = atLevel(this.member(type, name), true);
    if (found.length) return found;
    if (name === "new" && type.def.kind !== "Module") return [type];
    return [];
  }

  /** Whether the build lets the file use every one of these guessed definitions (LanguageSpec). */
  guessReaches(scope: FileScope, refs: DefRef[]): boolean {
    const reaches = scope.spec.guessReaches;
    return !reaches || refs.every((r) => reaches(scope.facts.path, r.file.path, this.repo));
  }

  // ---- lookup ---------------------------------------------------------------------------------
  /**
   * A name seen from a definition: enclosing scopes, imports, wildcard imports, package, and (with
   * `unique`) a repository-wide unique name.
   */
  lookup(
    scope: FileScope,
    from: number,
    name: string,
    accept: (r: DefRef) => boolean,
    unique: boolean,
  ): { refs: DefRef[]; confidence: number } {
    // 1. enclosing scopes of this file, innermost first
    for (let at = from;; at = scope.refs[at].def.parent) {
      const isTypeScope = at >= 0 && TYPE_KINDS.has(scope.refs[at].def.kind) &&
        scope.refs[at].def.kind !== "Module";
      if (!isTypeScope || scope.spec.implicitThis || at === from) {
        // (Most scopes define no such name: nothing to filter then.)
        const named = scope.children.get(at)?.get(name);
        if (named) {
          const here = named.filter(accept);
          const near = nearest(here, this.line);
          if (near.length !== here.length) this.lineSensitive = true;
          const hit = pickRefs(near, accept, CONF_SCOPE);
          if (hit) return hit;
        }
        // An open type's or module's other parts (Ruby `module LineEditor` in another file): its
        // names there are as near as this part's, nearer than any base's.
        if (at >= 0 && this.isOpen(scope.refs[at]) && TYPE_KINDS.has(scope.refs[at].def.kind)) {
          const parts = this.partsOf(scope.refs[at]);
          if (parts.length > 1) {
            const other = parts.flatMap((p) => this.members.get(p.node.id)?.get(name) ?? []);
            const inPart = pickRefs(
              other.filter((r) => r.file !== scope.facts),
              accept,
              CONF_SCOPE,
            );
            if (inPart) return inPart;
          }
        }
        // Where members are in scope in a type's body, so are its bases' (nested types too).
        if (isTypeScope && scope.spec.implicitThis) {
          const inherited = this.basesOf(scope.refs[at]).flatMap((b) => this.member(b, name));
          const viaBase = pickRefs(inherited, accept, CONF_SCOPE);
          if (viaBase) return viaBase;
        }
      }
      if (at < 0) break;
    }
    // 2. imported names
    const bound = this.bindingsOf(scope).get(name);
    if (bound) {
      const refs = bound.flatMap((b) => (b.name ? this.importedFrom(b, name) : []));
      const hit = pickRefs(refs, accept, CONF_SCOPE);
      if (hit) return hit;
      // A static member import (`import static a.Util.f`, Kotlin `import a.Obj.f`).
      const members = bound.flatMap((b) => {
        const owner = b.name ? b.source?.split(/\.|::/).pop() : undefined;
        if (!owner || !scope.spec.typeNames?.test(owner)) return [];
        return this.exported(b.files, owner, 0).filter(isType).flatMap((t) =>
          this.member(t, b.name!)
        );
      });
      const memberHit = pickRefs(members, accept, CONF_SCOPE);
      if (memberHit) return memberHit;
      // Imported from outside the repository (`from os.path import join`): that name, not ours.
      if (bound.every((b) => b.files.length === 0)) return { refs: [], confidence: 0 };
    }
    // 3. wildcard imports
    const wild = pickRefs(this.exported(scope.wildcards ?? [], name, 0), accept, CONF_SCOPE);
    if (wild) return wild;
    // `using static A.B.Log;` / `import static a.b.Util.*;`: members of the imported type.
    for (const w of scope.wildcardTypes ?? []) {
      const types = this.exported(w.files, w.type, 0).filter(isType);
      const hit = pickRefs(types.flatMap((t) => this.member(t, name)), accept, CONF_SCOPE);
      if (hit) return hit;
    }
    // 4. same package
    const pkg = this.packageNames(scope)?.get(name)?.filter((r) => r.file !== scope.facts);
    if (pkg?.length) {
      const hit = pickRefs(pkg, accept, CONF_SCOPE);
      if (hit) return hit;
    }
    // 5. unique in the repository
    if (unique) {
      const all = (this.globalNames.get(this.family(scope.facts.language))?.get(name) ?? []).filter(
        accept,
      );
      if (all.length && sameSymbol(all) && this.guessReaches(scope, all)) {
        return { refs: all, confidence: CONF_UNIQUE };
      }
    }
    return { refs: [], confidence: 0 };
  }

  /**
   * What an import binds: the name in the files it resolved to, or in the inline module its path
   * ends with (Rust `use crate::test::rng;` where `mod test { .. }` sits in lib.rs).
   */
  importedFrom(b: Binding, alias: string): DefRef[] {
    const last = b.source?.split(/::|\./).pop();
    if (last && b.name) {
      const inline = b.files.flatMap((f) =>
        (this.scopes.get(f)?.children.get(-1)?.get(last) ?? []).filter((r) =>
          r.def.kind === "Module"
        )
      );
      const hits = inline.flatMap((m) => this.members.get(m.node.id)?.get(b.name!) ?? []);
      if (hits.length) return hits;
    }
    return b.name ? this.exported(b.files, b.name, 0, alias) : [];
  }

  /** Top-level definitions named `name` in files, following re-exports and `export *`. */
  exported(files: string[], name: string, depth: number, alias?: string): DefRef[] {
    if (depth > MAX_DEPTH) {
      this.lineSensitive = true; // cut off by depth: not an answer to keep
      return [];
    }
    // A list of many files (a wildcard import, a package) is asked again for every name looked
    // up through it: memoised per list as well as per file.
    if (files.length > 1) {
      const key = `${name}\0${alias ?? ""}`;
      const known = this.exportListCache.get(files)?.get(key);
      if (known) return known;
      const outer = this.lineSensitive;
      this.lineSensitive = false;
      const found = this.exportedEach(files, name, depth, alias);
      if (!this.lineSensitive) {
        let byName = this.exportListCache.get(files);
        if (!byName) this.exportListCache.set(files, byName = new Map());
        byName.set(key, found);
      }
      this.lineSensitive ||= outer;
      return found;
    }
    return this.exportedEach(files, name, depth, alias);
  }

  readonly exportListCache = new WeakMap<string[], Map<string, DefRef[]>>();

  exportedEach(files: string[], name: string, depth: number, alias?: string): DefRef[] {
    const out: DefRef[] = [];
    for (const path of files) {
      // Memoised per (file, name): re-exports and wildcard chains are followed once. Answers cut
      // off by depth or picked by a call's line are not kept (any order gives the same edges).
      const known = this.exportCache.get(path, name, alias ?? "");
      if (known) {
        out.push(...known);
        continue;
      }
      const outer = this.lineSensitive;
      this.lineSensitive = false;
      const hits = this.exportedFrom(path, name, depth, alias);
      if (!this.lineSensitive) this.exportCache.set(path, name, alias ?? "", hits);
      this.lineSensitive ||= outer;
      out.push(...hits);
    }
    return out;
  }

  exportedFrom(path: string, name: string, depth: number, alias?: string): DefRef[] {
    const scope = this.scopes.get(path);
    if (!scope) return [];
    // Top-level and namespace members (C#, C++) are reachable by their simple name.
    let hits = scope.exports.get(name) ?? [];
    // Only namespace members of that name (Rust: an inline `mod test { fn rng() }`): a name the
    // file itself imports (`pub use rngs::thread::rng;`) is the file's own.
    if (hits.length && hits.every((r) => r.def.parent >= 0)) {
      const bound = (this.bindingsOf(scope).get(name) ?? []).filter((b) => b.name);
      const viaImport = bound.flatMap((b) => this.exported(b.files, b.name!, depth + 1));
      if (viaImport.length) hits = viaImport;
    }
    if (!hits.length && name === "default" && scope.facts.defaultExport) {
      hits = this.exported([path], scope.facts.defaultExport, depth + 1);
    }
    if (!hits.length && name === "default") {
      const named = alias ? scope.children.get(-1)?.get(alias) ?? [] : [];
      const top = scope.refs.filter((r) => r.def.parent < 0);
      hits = named.length ? named : top.length === 1 ? top : [];
    }
    if (!hits.length && scope.spec.importsReexported !== false) {
      for (const b of this.bindingsOf(scope).get(name) ?? []) {
        hits = hits.concat(this.exported(b.files, b.name ?? name, depth + 1));
      }
    }
    if (!hits.length) {
      // `ib = attrib`, `export const f = g`: a module-level alias of a definition.
      const alias = this.hintsOf(scope).get(name)?.find((h) =>
        h.scope === -1 && h.expr && h.expr !== name
      );
      if (alias?.expr && /^[\w$.]+$/.test(alias.expr)) {
        const dot = lastDot(alias.expr);
        const found = this.resolveCall(scope, -1, {
          name: dot < 0 ? alias.expr : alias.expr.slice(dot + 1),
          receiver: dot < 0 ? undefined : alias.expr.slice(0, dot),
        }, depth + 1);
        if (found && found.confidence >= CONF_TYPED) hits = found.refs;
      }
    }
    if (!hits.length && scope.wildcards?.length) {
      hits = this.exported(scope.wildcards, name, depth + 1);
    }
    return hits;
  }

  /** Names visible package-wide to this file (built once per package). */
  packageNames(scope: FileScope): Map<string, DefRef[]> | undefined {
    const f = scope.facts;
    let key: string;
    let files: () => string[];
    if (scope.spec.packageScope === "directory") {
      const dir = dirOf(f.path);
      key = `dir\0${this.family(f.language)}\0${dir}`;
      files = () =>
        this.repo.inDir(dir).filter((p) =>
          this.family(this.scopes.get(p)!.facts.language) === this.family(f.language)
        );
    } else if (scope.spec.packageScope === "declared") {
      const pkg = packageOf(scope);
      if (pkg === undefined) return undefined;
      key = `pkg\0${f.language}\0${pkg}`;
      files = () => this.repo.inPackage(f.language, pkg);
    } else {
      return undefined; // "global" is the unique-name step, which refuses ambiguity
    }
    let names = this.structure.packages.get(key)?.names;
    if (!names) {
      names = new Map();
      const paths = files();
      for (const p of paths) {
        for (const [name, refs] of this.scopes.get(p)?.exports ?? []) {
          const list = names.get(name);
          if (list) list.push(...refs);
          else names.set(name, [...refs]);
        }
      }
      this.structure.packages.set(key, { names, files: paths });
    }
    return names;
  }

  /** A type, or a function made a class by its prototype methods (`Foo.prototype.m = ..`). */
  readonly typeLike = (r: DefRef): boolean => isType(r) || this.constructorFunctions.has(r.node.id);

  resolveTypeRef(scope: FileScope, from: number, written: string): DefRef[] {
    if (!this.structureKnown) return this.resolveTypeRefUncached(scope, from, written);
    const known = this.typeRefCache.get(scope.facts.path, from, written);
    if (known) return known;
    const outer = this.lineSensitive;
    this.lineSensitive = false;
    const found = this.resolveTypeRefUncached(scope, from, written);
    if (!this.lineSensitive) this.typeRefCache.set(scope.facts.path, from, written, found);
    this.lineSensitive ||= outer;
    return found;
  }

  resolveTypeRefUncached(scope: FileScope, from: number, written: string): DefRef[] {
    // `IRequest<Pong>`: where a name has several generic arities (C# `IRequest`, `IRequest<T>`),
    // the count of type arguments tells them apart.
    const generic = written.match(/^([^<]*)<([\s\S]*)>$/);
    const arity = generic ? splitArgs(generic[2]).length : 0;
    const parts = (generic ? generic[1] : written).replace(/::/g, ".").split(".").filter(Boolean);
    const name = parts.pop();
    if (!name) return [];
    const byArity = (refs: DefRef[]) => {
      if (refs.length < 2) return refs;
      const same = refs.filter((r) => (r.def.typeParams?.length ?? 0) === arity);
      return same.length ? same : refs;
    };
    if (parts.length) {
      // (A type of that name: `X.new` is no type path though `new` reaches X's constructor.)
      const viaQualifier = this.memberOfQualifier(scope, from, parts.join("."), name).filter((r) =>
        isType(r) && r.def.name === name
      );
      if (viaQualifier.length) return byArity(viaQualifier);
      // `DidYouMean::SpellChecker`: a path whose head is a type name nothing here defines or
      // imports is another library's, whatever the repository calls `SpellChecker`.
      const head = parts[0];
      if (
        scope.spec.typeNames?.test(head) && !this.bindingsOf(scope).has(head) &&
        !this.lookup(scope, from, head, () => true, true).refs.length
      ) {
        return [];
      }
    }
    // The scope that has the name decides; among its types of that name, the one of that arity.
    // A constructor function with prototype methods is a class too (`new Mocha()`).
    const found = this.lookup(scope, from, name, this.typeLike, true).refs;
    // `::Readline` (Ruby): the top-level constant only.
    if (/^\s*(::|\.)/.test(written) && !parts.length) {
      return found.filter((r) => r.node.qualified_name === name);
    }
    if (!found.length || found.every((r) => (r.def.typeParams?.length ?? 0) === arity)) {
      return found;
    }
    const siblings = (this.globalNames.get(this.family(scope.facts.language))?.get(name) ?? [])
      .filter((r) =>
        isType(r) && r.node.qualified_name === found[0].node.qualified_name &&
        (r.def.typeParams?.length ?? 0) === arity
      );
    return siblings.length ? siblings : found;
  }

  within(scope: FileScope, index: number, ancestor: number): boolean {
    for (let at = index; at >= 0; at = scope.refs[at].def.parent) if (at === ancestor) return true;
    return false;
  }

  enclosingType(scope: FileScope, from: number): DefRef | undefined {
    this.progressRead = true;
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      const r = scope.refs[at];
      const owner = this.ownerType.get(r.node.id);
      if (owner) return owner;
      if (TYPE_KINDS.has(r.def.kind) && r.def.kind !== "Module") return r;
      if (this.constructorFunctions.has(r.node.id)) return r;
    }
    return undefined;
  }

  /** A type's members named `name`, through its bases; `instance`: class-level ones skipped. */
  member(
    type: DefRef,
    name: string,
    depth = 0,
    seen?: Set<string>,
    instance = false,
  ): DefRef[] {
    if (depth > 0 || !this.structureKnown) {
      return this.memberUncached(type, name, depth, seen, instance);
    }
    // One table per flag: a map per (type, name) for two flags cost more than the answers.
    const cache = this.memberCache[instance ? 1 : 0];
    let found = cache.get(type.node.id, name);
    if (!found) {
      found = this.memberUncached(type, name, depth, seen, instance);
      cache.set(type.node.id, name, found);
    }
    return found;
  }

  memberUncached(
    type: DefRef,
    name: string,
    depth = 0,
    seen = new Set<string>(),
    instance = false,
  ): DefRef[] {
    if (depth > MAX_DEPTH || seen.has(type.node.id)) return [];
    seen.add(type.node.id);
    let own = this.partsOf(type).flatMap((part) => this.members.get(part.node.id)?.get(name) ?? []);
    if (instance) own = own.filter((r) => !r.def.static);
    if (own && own.length > 1 && this.scopes.get(type.file.path)?.spec.mergeSameNamedMembers) {
      own = [own.reduce((a, b) => (b.def.line < a.def.line ? b : a))];
    }
    if (own?.length) {
      // Where methods overload, the bases' overloads that are not overridden are candidates too.
      if (!this.scopes.get(type.file.path)?.spec.overloads) return own;
      const shape = (r: DefRef) => `${r.def.params?.join(",")}|${r.def.paramTypes?.join(",")}`;
      const shapes = new Set(own.map(shape));
      const inherited = this.basesOf(type).flatMap((b) =>
        this.member(b, name, depth + 1, seen, instance)
      ).filter((r) => !shapes.has(shape(r)));
      return inherited.length ? [...own, ...inherited] : own;
    }
    for (const base of this.basesOf(type)) {
      const found = this.member(base, name, depth + 1, seen, instance);
      if (found.length) return found;
    }
    return [];
  }

  /** Every base of a type, transitively (bounded). */
  ancestors(type: DefRef): DefRef[] {
    const out: DefRef[] = [];
    const walk = (t: DefRef, depth: number) => {
      if (depth > MAX_DEPTH) return;
      for (const b of this.basesOf(t)) {
        if (out.includes(b)) continue;
        out.push(b);
        walk(b, depth + 1);
      }
    };
    walk(type, 0);
    return out;
  }

  isSubtype(type: DefRef, base: DefRef, depth = 0): boolean {
    if (type.node.id === base.node.id) return true;
    if (depth > MAX_DEPTH) return false;
    return this.basesOf(type).some((b) => this.isSubtype(b, base, depth + 1));
  }

  basesOf(type: DefRef): DefRef[] {
    this.progressRead = true;
    const parts = this.partsOf(type);
    if (parts.length === 1) return this.bases.get(type.node.id) ?? [];
    return distinct(parts.flatMap((p) => this.bases.get(p.node.id) ?? []));
  }

  /** Whether a type's language lets it be reopened or split (LanguageSpec.openTypes). */
  isOpen(type: DefRef): boolean {
    return this.scopes.get(type.file.path)?.spec.openTypes === true;
  }

  /** The definitions that together make a type: itself, or every part of an open type. */
  partsOf(type: DefRef): DefRef[] {
    if (!this.isOpen(type) || !TYPE_KINDS.has(type.def.kind)) return [type];
    return this.openParts.get(openKey(this.family(type.file.language), type)) ?? [type];
  }

  /** A file's hints by variable (built once per file). */
  hintsOf(scope: FileScope): Map<string, TypeHint[]> {
    if (!scope.hintsByVar) {
      scope.hintsByVar = new Map();
      for (const h of scope.facts.hints) {
        const list = scope.hintsByVar.get(h.variable);
        if (list) list.push(h);
        else scope.hintsByVar.set(h.variable, [h]);
      }
    }
    return scope.hintsByVar;
  }
  /** Languages whose files may call each other share a family (LanguageSpec.family). */
  family(language: string): string {
    return this.specOf(language)?.family ?? language;
  }

  /** Resolves a call (the calls layer): aliases and re-exported values are calls' targets. */
  abstract resolveCall(
    scope: FileScope,
    from: number,
    call: CallShape,
    depth: number,
  ): Found | undefined;

  /** The candidates of a call before overload choice (the calls layer). */
  abstract resolveCallRaw(
    scope: FileScope,
    from: number,
    call: CallShape,
    depth: number,
  ): Found | undefined;
}

/** The accepted candidates, if any and all one symbol (overloads, a declaration and its body). */
function pickRefs(
  refs: DefRef[],
  accept: (r: DefRef) => boolean,
  confidence: number,
): { refs: DefRef[]; confidence: number } | undefined {
  if (!refs.length) return undefined;
  const ok = distinct(refs.filter(accept));
  return ok.length && sameSymbol(ok) ? { refs: ok, confidence } : undefined;
}
