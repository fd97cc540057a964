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
import type { LanguageSpec, RepoFiles } from "../lang/spec.ts";
import { dirOf } from "../lang/paths.ts";
import type { DefFact, FileFacts, TypeHint } from "./facts.ts";
import { TYPE_KINDS } from "./facts.ts";
import { type Edge, fileId, type SymbolNode, symbolNodes } from "./model.ts";

/** Languages whose files may call each other. */
const FAMILY: Record<string, string> = {
  typescript: "js",
  tsx: "js",
  javascript: "js",
  cpp: "c",
  c: "c",
};
const familyOf = (language: string) => FAMILY[language] ?? language;

const CONF_SCOPE = 1;
const CONF_TYPED = 0.9;
const CONF_UNIQUE = 0.7;
const CONF_UNIQUE_METHOD = 0.5;
const MAX_DEPTH = 6;

/** What a call looks like to resolution. */
interface CallShape {
  name: string;
  receiver?: string;
  isNew?: boolean;
  delegate?: boolean;
  args?: number;
  argTypes?: string[];
}

interface Found {
  refs: DefRef[];
  confidence: number;
  /** Reached through a function value (alias, field, returned function), not by name. */
  via?: "value";
}

interface TypeOf {
  type?: DefRef;
  /** The type is known and is not a repository type. */
  known?: boolean;
}

interface DefRef {
  file: FileFacts;
  index: number;
  def: DefFact;
  node: SymbolNode;
}

interface Binding {
  files: string[];
  /** Imported symbol name; undefined for a module binding. */
  name?: string;
  /** Module path as written: for `import static a.Util.f` its last segment names the owner type. */
  source?: string;
}

interface FileScope {
  facts: FileFacts;
  spec: LanguageSpec;
  refs: DefRef[];
  /** Children by parent def index (-1 = file top level), by name. */
  children: Map<number, Map<string, DefRef[]>>;
  /** What other files see by simple name: top-level and namespace-level definitions. */
  exports: Map<string, DefRef[]>;
  bindings?: Map<string, Binding[]>;
  hintsByVar?: Map<string, TypeHint[]>;
  wildcards?: string[];
  /** Wildcard imports whose last segment may name a type: its members become visible. */
  wildcardTypes?: { files: string[]; type: string }[];
  importEdges?: Edge[];
}

export interface Resolution {
  /** Symbol nodes per file path. */
  symbols: Map<string, SymbolNode[]>;
  /** Edges per owning file (the file whose facts produced them). */
  edges: Map<string, Edge[]>;
  /** Files whose edges are complete here (all of them unless `only` was given). */
  resolved: Set<string>;
  /** Calls whose resolution threw (a bug, reported rather than fatal): `path:line name: error`. */
  failures: string[];
}

/**
 * Resolves every file, or with `only` just those files' calls and imports (the structure of every
 * file is always resolved: which type owns what and inherits from whom). Files that state the same
 * structural fact as one in `only` join it, since ownership of a shared fact can move between them.
 */
export function resolveAll(
  allFacts: FileFacts[],
  specOf: (language: string) => LanguageSpec | undefined,
  only?: Set<string>,
): Resolution {
  return new Resolver(allFacts, specOf).run(only);
}

class Resolver {
  readonly scopes = new Map<string, FileScope>();
  readonly repo: RepoFiles;
  /** Top-level (or namespace-level) definitions and all types, by family, by name. */
  readonly globalNames = new Map<string, Map<string, DefRef[]>>();
  readonly methodNames = new Map<string, Map<string, DefRef[]>>();
  /** Members of a type, including methods attached by owner (Go receivers, Rust impls). */
  readonly members = new Map<string, Map<string, DefRef[]>>();
  readonly ownerType = new Map<string, DefRef>();
  readonly bases = new Map<string, DefRef[]>();
  readonly byId = new Map<string, DefRef>();
  readonly packages = new Map<string, Map<string, DefRef[]>>();
  readonly modulesByName = new Map<string, DefRef[]>();
  readonly failures: string[] = [];
  /** Functions that are classes: their prototype holds methods (`Foo.prototype.m = ...`). */
  readonly constructorFunctions = new Set<string>();
  /** Line of the call being resolved: picks among same-named definitions of one scope. */
  line = 0;

  constructor(facts: FileFacts[], specOf: (language: string) => LanguageSpec | undefined) {
    const sorted = [...facts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const f of sorted) {
      const spec = specOf(f.language);
      if (!spec) continue;
      const nodes = symbolNodes(f);
      const refs = f.defs.map((def, index) => ({ file: f, index, def, node: nodes[index] }));
      const children = new Map<number, Map<string, DefRef[]>>();
      const exports = new Map<string, DefRef[]>();
      for (const r of refs) {
        // Methods attached to a type from outside it (Go receivers, Rust impls, C++ out-of-line
        // members) are reached through their type, never as bare names.
        if (r.def.owner) continue;
        push(children, r.def.parent, r.def.name, r);
        const parentKind = r.def.parent >= 0 ? f.defs[r.def.parent].kind : undefined;
        if (parentKind === undefined || parentKind === "Module") {
          const list = exports.get(r.def.name);
          if (list) list.push(r);
          else exports.set(r.def.name, [r]);
        }
      }
      this.scopes.set(f.path, { facts: f, spec, refs, children, exports });
      for (const r of refs) {
        this.byId.set(r.node.id, r);
        const fam = familyOf(f.language);
        const parent = r.def.parent >= 0 ? f.defs[r.def.parent] : undefined;
        if (TYPE_KINDS.has(r.def.kind) || !parent || parent.kind === "Module") {
          if (!(r.def.owner && r.def.kind === "Method")) push(this.globalNames, fam, r.def.name, r);
        }
        if (r.def.kind === "Method") push(this.methodNames, fam, r.def.name, r);
        if (r.def.kind === "Module") {
          const same = this.modulesByName.get(r.node.qualified_name);
          if (same) same.push(r);
          else this.modulesByName.set(r.node.qualified_name, [r]);
        }
        if (parent && TYPE_KINDS.has(parent.kind)) {
          push(this.members, refs[r.def.parent].node.id, r.def.name, r);
        }
      }
    }
    this.repo = repoFiles(sorted);
  }

  run(only?: Set<string>): Resolution {
    // Owners and bases first: method lookups through self/this depend on them.
    for (const scope of this.scopes.values()) this.attachOwners(scope);
    const edges = new Map<string, Edge[]>();
    for (const scope of this.scopes.values()) edges.set(scope.facts.path, this.inheritEdges(scope));
    for (const scope of this.scopes.values()) {
      edges.get(scope.facts.path)!.push(...this.definesEdges(scope));
    }
    const resolved = only ? new Set(only) : new Set(this.scopes.keys());
    if (only) {
      const owners = new Map<string, string[]>();
      for (const [path, list] of edges) {
        for (const e of list) {
          const key = `${e.type}\0${e.from}\0${e.to}`;
          owners.set(key, [...(owners.get(key) ?? []), path]);
        }
      }
      for (const paths of owners.values()) {
        if (paths.length > 1 && paths.some((p) => only.has(p))) {
          paths.forEach((p) => resolved.add(p));
        }
      }
    }
    for (const scope of this.scopes.values()) {
      if (!resolved.has(scope.facts.path)) continue;
      edges.get(scope.facts.path)!.push(...this.imports(scope), ...this.callEdges(scope));
    }
    // One edge per (type, from, to) across the repository: two files can state the same fact
    // (two `impl Trait for T` blocks); the first file in path order owns it.
    const seen = new Set<string>();
    for (const [path, list] of edges) {
      edges.set(
        path,
        list.filter((e) => {
          // CALLS and IMPORTS start at the owning file's own nodes: never stated twice.
          if (e.type === "CALLS" || e.type === "IMPORTS") return true;
          const key = `${e.type}\0${e.from}\0${e.to}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        }),
      );
    }
    const symbols = new Map<string, SymbolNode[]>();
    for (const scope of this.scopes.values()) {
      symbols.set(
        scope.facts.path,
        scope.refs.map((r) => r.node),
      );
    }
    return { symbols, edges, resolved, failures: this.failures };
  }

  // ---- structure ------------------------------------------------------------------------------

  attachOwners(scope: FileScope): void {
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
        this.ownerType.set(r.node.id, types[0]);
        push(this.members, types[0].node.id, r.def.name, r);
        if (!isType(types[0])) this.constructorFunctions.add(types[0].node.id);
      }
    }
  }

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
      let from: DefRef | undefined;
      if (h.from >= 0) from = scope.refs[h.from];
      else if (h.ownerName) {
        const owners = this.lookup(scope, -1, h.ownerName, isType, false).refs;
        from = owners.length === 1 ? owners[0] : undefined;
      }
      if (!from) continue;
      const targets = distinct(this.resolveTypeRef(scope, from.def.parent, h.name)).filter((t) =>
        t.node.id !== from!.node.id
      );
      if (targets.length !== 1) continue;
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
    const seen = new Set<string>();
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
        if (seen.has(p)) continue;
        seen.add(p);
        edges.push({
          type: "IMPORTS",
          from,
          fromFile: true,
          to: fileId(p),
          toFile: true,
          line: imp.line,
        });
      }
      if (imp.wildcard) {
        wildcards.push(...files);
        const last = imp.source.split(/\.|::|\//).pop();
        if (last && /^[A-Z]/.test(last)) wildcardTypes.push({ files, type: last });
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

  // ---- calls ----------------------------------------------------------------------------------

  callEdges(scope: FileScope): Edge[] {
    const byPair = new Map<string, Edge>();
    const file = fileId(scope.facts.path);
    const add = (
      type: "CALLS" | "INSTANTIATES",
      from: number,
      to: DefRef,
      line: number,
      confidence: number,
      via?: "value",
    ) => {
      const fromId = from >= 0 ? scope.refs[from].node.id : file;
      if (type === "CALLS" && fromId === to.node.id && confidence < CONF_SCOPE) return;
      const key = `${type}\0${fromId}\0${to.node.id}`;
      const prev = byPair.get(key);
      if (prev) {
        prev.count = (prev.count ?? 1) + 1;
        prev.confidence = Math.max(prev.confidence ?? 0, confidence);
        if (!via) delete prev.via;
      } else {
        byPair.set(key, {
          type,
          from: fromId,
          fromFile: from < 0 || undefined,
          to: to.node.id,
          line,
          count: 1,
          confidence,
          ...(via ? { via } : {}),
        });
      }
    };
    for (const call of scope.facts.calls) {
      this.line = call.line;
      let found: Found | undefined;
      try {
        found = this.resolveCall(scope, call.from, call, 0);
      } catch (e) {
        // One call the rules cannot handle never costs the file its other edges.
        this.failures.push(`${scope.facts.path}:${call.line} ${call.name}: ${e}`);
        continue;
      }
      if (!found) continue;
      for (const target of found.refs) {
        if (!isType(target)) {
          add("CALLS", call.from, target, call.line, found.confidence, found.via);
          continue;
        }
        // A type called: the object is created (unless `super(...)`/`this(...)` delegates) and
        // the constructor that runs is called, when the repository defines one.
        if (!call.delegate) add("INSTANTIATES", call.from, target, call.line, found.confidence);
        const ctors = this.constructorsOf(target, call.args);
        for (const ctor of ctors) add("CALLS", call.from, ctor, call.line, found.confidence);
        if (!ctors.length && this.scopes.get(target.file.path)?.spec.primaryConstructor) {
          add("CALLS", call.from, target, call.line, found.confidence);
        }
      }
    }
    return [...byPair.values()];
  }

  /** The constructor a `new T(...)` runs: T's own (by arity), else an inherited one where allowed. */
  constructorsOf(type: DefRef, args: number | undefined, depth = 0): DefRef[] {
    if (depth > MAX_DEPTH || type.def.kind === "Module") return [];
    const spec = this.scopes.get(type.file.path)?.spec;
    const own = (spec?.constructorNames ?? []).flatMap((n) =>
      this.members.get(type.node.id)?.get(n === "<type>" ? type.def.name : n) ?? []
    ).filter((r) => r.def.kind === "Method" || r.def.kind === "Function");
    if (own.length) return chooseOverload(own, args);
    if (!spec?.inheritsConstructors) return [];
    for (const base of this.basesOf(type)) {
      const found = this.constructorsOf(base, args, depth + 1);
      if (found.length) return found;
    }
    return [];
  }

  resolveCall(
    scope: FileScope,
    from: number,
    call: CallShape,
    depth: number,
  ): Found | undefined {
    const found = this.resolveCallRaw(scope, from, call, depth);
    if (!found || found.refs.length < 2) return found;
    // One overload set: choose by arity, then argument types; never fan out to every overload.
    // Without overloading, same-named definitions are alternatives (conditional definitions).
    if (!scope.spec.overloads) return found;
    let refs = chooseOverload(found.refs, call.args);
    if (!refs.length) refs = this.byArgumentTypes(scope, from, found.refs, call);
    return refs.length ? { ...found, refs } : undefined;
  }

  /**
   * Overloads of one arity told apart by the arguments' static types (literals, constructed and
   * declared types, subtypes through EXTENDS/IMPLEMENTS); failing that, an overload does not call
   * itself. Still open: none.
   */
  byArgumentTypes(scope: FileScope, from: number, refs: DefRef[], call: CallShape): DefRef[] {
    const args = call.args;
    const fits = args === undefined ? refs : refs.filter((r) => {
      const p = r.def.params;
      return !p || (args >= p[0] && (p[1] < 0 || args <= p[1]));
    });
    if (fits.length < 2) return fits;
    const argTypes = (call.argTypes ?? []).map((a) => {
      if (!a.startsWith("=")) return a;
      const t = this.typeOfExpr(scope, from, a.slice(1), MAX_DEPTH - 2);
      if (t.type) return t.type.def.name;
      return this.hintFor(scope, from, a.slice(1))?.hint.type ?? "";
    });
    let best: DefRef[] = [];
    let bestScore = -Infinity;
    for (const r of fits) {
      let score = 0;
      argTypes.forEach((at, i) => {
        const pt = r.def.paramTypes?.[i] ?? "";
        if (!at || !pt) return;
        score += this.assignable(scope, from, at, pt, r);
      });
      if (score > bestScore) {
        best = [r];
        bestScore = score;
      } else if (score === bestScore) best.push(r);
    }
    if (bestScore < 0) return [];
    if (best.length > 1) {
      best = best.filter((r) => !(r.file === scope.facts && r.index === from));
    }
    return best.length === 1 ? best : [];
  }

  /** 2 same type, 1 assignable (boxing, widening, subtype, Object), -100 not assignable. */
  assignable(scope: FileScope, from: number, arg: string, param: string, target: DefRef): number {
    if (arg === param) return 2;
    const box: Record<string, string> = {
      int: "Integer",
      long: "Long",
      char: "Character",
      boolean: "Boolean",
      double: "Double",
      float: "Float",
      short: "Short",
      byte: "Byte",
    };
    const widen: Record<string, string[]> = {
      char: ["int", "long", "float", "double"],
      int: ["long", "float", "double"],
      long: ["float", "double"],
      float: ["double"],
    };
    const primitive = (t: string) => t in box;
    if (box[arg] === param || box[param] === arg) return 1;
    if (widen[arg]?.includes(param)) return 1;
    if (param === "Object") return primitive(arg) ? 0 : 1;
    if (arg === "null") return primitive(param) ? -100 : 1;
    if (primitive(arg) !== primitive(param)) {
      return primitive(arg) && /^(Number|Comparable|Serializable)$/.test(param) ? 1 : -100;
    }
    if (primitive(arg)) return -100;
    // Reference types: a repository subtype, a generic parameter, or unknown (no evidence).
    const ts = this.scopes.get(target.file.path)!;
    const p = this.resolveTypeRef(ts, target.def.parent, param).filter(isType)[0];
    const a = this.resolveTypeRef(scope, from, arg).filter(isType)[0];
    if (!p) {
      if (target.def.typeParams?.includes(param)) return 0;
      for (let at = target.def.parent; at >= 0; at = ts.refs[at].def.parent) {
        if (ts.refs[at].def.typeParams?.includes(param)) return 0;
      }
      return arg === "String" || !a ? -100 : 0;
    }
    if (!a) return arg === "String" || /^[a-z]/.test(arg) ? -100 : 0;
    return this.isSubtype(a, p) ? 1 : -100;
  }

  resolveCallRaw(
    scope: FileScope,
    from: number,
    call: CallShape,
    depth: number,
  ): Found | undefined {
    const spec = scope.spec;
    const { name, receiver } = call;
    if (call.isNew) {
      const types = receiver
        ? this.memberOfQualifier(scope, from, receiver, name).filter(isType)
        : this.resolveTypeRef(scope, from, name);
      if (types.length) return { refs: callable(types), confidence: CONF_SCOPE };
      if (!spec.constructorFunctions || call.delegate) return undefined;
      // `new Foo()` of a constructor function: the call runs the function.
      const fns = receiver
        ? this.memberOfQualifier(scope, from, receiver, name)
        : this.lookup(scope, from, name, isCallable, false).refs;
      const refs = fns.filter((f) => f.def.kind === "Function");
      return refs.length ? { refs, confidence: CONF_SCOPE } : undefined;
    }
    if (receiver === undefined) {
      if (spec.implicitThis) {
        const type = this.enclosingType(scope, from);
        if (type) {
          const own = this.member(type, name);
          if (own.length) return { refs: callable(own), confidence: CONF_SCOPE };
        }
      }
      const found = this.lookup(scope, from, name, isCallable, spec.uniqueBareNames !== false);
      const refs = callable(found.refs);
      if (refs.length) {
        // A name-only guess never makes a function call itself.
        if (
          found.confidence < CONF_SCOPE &&
          refs.some((r) => r.index === from && r.file === scope.facts)
        ) {
          return undefined;
        }
        return { refs, confidence: found.confidence };
      }
      // `f = make_handler(); f()`, `g = other`: a local holding a function.
      const value = this.valueOfVariable(scope, from, name, depth);
      return value.length ? { refs: value, confidence: CONF_TYPED, via: "value" } : undefined;
    }

    const head = receiver.split(".")[0];
    const superNames = spec.superNames ?? [];
    if (
      spec.selfNames.includes(receiver) || superNames.includes(receiver) ||
      isSuperCall(receiver, superNames)
    ) {
      const type = this.enclosingType(scope, from);
      if (!type) return undefined;
      const superCall = superNames.includes(receiver) || isSuperCall(receiver, superNames);
      const refs = superCall
        ? this.basesOf(type).flatMap((b) => this.member(b, name)).slice(0, 1)
        : this.member(type, name);
      if (refs.length) return { refs: callable(refs), confidence: CONF_SCOPE };
      if (superCall) return undefined;
      // `self.cb = self.handle` ... `self.cb()`: a field holding a function.
      const value = this.fieldValue(type, name, depth);
      return value.length ? { refs: value, confidence: CONF_TYPED, via: "value" } : undefined;
    }

    // Module, namespace and type qualifiers, and imported symbols: `pkg.f()`, `Type.m()`.
    if (!spec.selfNames.includes(head) && !/[()[\]]/.test(receiver)) {
      const qualified = this.memberOfQualifier(scope, from, receiver, name);
      if (qualified.length) return { refs: callable(qualified), confidence: CONF_SCOPE };
    }

    // The receiver's type: declared, constructed, returned by a call, a field's, a cast's.
    const typed = this.typeOfExpr(scope, from, receiver, depth + 1);
    if (typed.type) {
      const refs = this.member(typed.type, name);
      if (refs.length) return { refs: callable(refs), confidence: CONF_TYPED };
      const value = this.fieldValue(typed.type, name, depth);
      if (value.length) return { refs: value, confidence: CONF_TYPED, via: "value" };
      return undefined; // known type, unknown member: an external base, or a miss
    }
    if (typed.known) return undefined; // a type from outside the repository

    // Last resort: a method name defined exactly once in the repository, and not a common one.
    // A capitalised receiver we could not resolve is a type from outside (`Math.Round`).
    if (spec.commonMethods?.includes(name) || /^[A-Z][\w$]*$/.test(receiver)) return undefined;
    // `time.Now()`, `np.array()`: the receiver is an import that resolved outside the repository.
    const headBindings = this.bindingsOf(scope).get(head);
    if (headBindings?.length && headBindings.every((b) => b.files.length === 0)) return undefined;
    const methods = this.methodNames.get(familyOf(scope.facts.language))?.get(name) ?? [];
    if (methods.length === 1 && name.length > 2) {
      if (methods[0].file === scope.facts && methods[0].index === from) return undefined;
      return { refs: methods, confidence: CONF_UNIQUE_METHOD };
    }
    return undefined;
  }

  /**
   * The repository type an expression's value has, or `known` when its type is known to be one
   * from outside the repository (a declared `String`, an external import).
   */
  typeOfExpr(scope: FileScope, from: number, text: string, depth: number): TypeOf {
    if (depth > MAX_DEPTH) return {};
    let expr = text.trim();
    for (;;) {
      const before = expr;
      expr = expr.replace(/^(await|yield|new)\s+(?=[\w$(])/, "").replace(/[!?]+$/, "").trim();
      if (expr.startsWith("(") && matchingParen(expr, 0) === expr.length - 1) {
        expr = expr.slice(1, -1).trim();
      }
      if (expr === before) break;
    }
    if (!expr) return {};
    const spec = scope.spec;
    // `x as T`, `<T>x`, `(T) x`: a cast names the type.
    const cast = expr.match(/\s(?:as|satisfies)\s+([\w$.]+)(?:<.*>)?$/) ??
      expr.match(/^\(([A-Z][\w$.]*)(?:<.*>)?\)\s*[\w$]/);
    if (cast) return this.typeNamed(scope, from, cast[1]);
    if (spec.selfNames.includes(expr)) {
      const type = this.enclosingType(scope, from);
      return type ? { type } : {};
    }
    if (expr.endsWith(")")) {
      const open = openingParen(expr);
      if (open <= 0) return {};
      const callee = expr.slice(0, open).replace(/<[^()]*>$/, "").trim();
      if (!callee) return {};
      const dot = lastDot(callee);
      const name = dot < 0 ? callee : callee.slice(dot + 1);
      const receiver = dot < 0 ? undefined : callee.slice(0, dot);
      if ((spec.superNames ?? []).includes(name) && receiver === undefined) {
        return {}; // `super()` alone is no value we type here
      }
      if (!/^[\w$#]+$/.test(name)) return {};
      const args = splitArgs(expr.slice(open + 1, -1));
      const found = this.resolveCall(scope, from, {
        name,
        receiver,
        args: args.length,
        argTypes: args.map(literalType),
      }, depth + 1);
      const target = found?.refs[0];
      if (!target) return {};
      if (isType(target)) return { type: target };
      if (target.def.returns) {
        const ts = this.scopes.get(target.file.path)!;
        return this.typeNamed(ts, target.def.parent, target.def.returns);
      }
      return {};
    }
    const found = this.hintFor(scope, from, expr);
    if (found) {
      const { hint, owner } = found;
      if (hint.type) return this.typeNamed(owner, hint.scope, hint.type);
      if (hint.expr && hint.expr !== expr) {
        return this.typeOfExpr(owner, hint.scope, hint.expr, depth + 1);
      }
    }
    // A bare name: maybe a module-level variable imported from another file, or one of the
    // package (Go, Java, C#: files of one package see each other's top-level variables).
    if (/^[\w$#]+$/.test(expr)) {
      const imported = this.importedVariableType(scope, expr, depth);
      if (imported.type || imported.known) return imported;
      const pkg = this.packageVariable(scope, expr);
      if (pkg?.hint.type) return this.typeNamed(pkg.owner, -1, pkg.hint.type);
      if (pkg?.hint.expr) return this.typeOfExpr(pkg.owner, -1, pkg.hint.expr, depth + 1);
      return {};
    }
    // `a.b`: a field (or property) of a's type.
    const dot = lastDot(expr);
    if (dot <= 0) return {};
    const owner = this.typeOfExpr(scope, from, expr.slice(0, dot), depth + 1);
    if (!owner.type) {
      // `a.b` where `a` names a module or type: a static field; its declared type.
      return {};
    }
    return this.fieldTypeOf(owner.type, expr.slice(dot + 1), depth + 1);
  }

  /** `import { container } from "./c"`: the type of a module-level variable of another file. */
  importedVariableType(scope: FileScope, name: string, depth: number): TypeOf {
    for (const b of this.bindingsOf(scope).get(name) ?? []) {
      if (!b.name) continue;
      for (const path of b.files) {
        const fs = this.scopes.get(path);
        const hint = fs?.facts.hints.find((h) => h.scope === -1 && h.variable === b.name);
        if (!fs || !hint) continue;
        if (hint.type) return this.typeNamed(fs, -1, hint.type);
        if (hint.expr) return this.typeOfExpr(fs, -1, hint.expr, depth + 1);
      }
    }
    return {};
  }

  /** A top-level variable of another file of the same package (`var CommandLine = ...`). */
  packageVariable(
    scope: FileScope,
    name: string,
  ): { hint: TypeHint; owner: FileScope } | undefined {
    if (scope.spec.packageScope !== "directory" && scope.spec.packageScope !== "declared") {
      return undefined;
    }
    const files = scope.spec.packageScope === "directory"
      ? this.repo.inDir(dirOf(scope.facts.path))
      : packageOf(scope) !== undefined
      ? this.repo.inPackage(scope.facts.language, packageOf(scope)!)
      : [];
    for (const path of files) {
      if (path === scope.facts.path) continue;
      const owner = this.scopes.get(path);
      if (!owner || owner.facts.language !== scope.facts.language) continue;
      const hint = owner.facts.hints.find((h) => h.scope === -1 && h.variable === name);
      if (hint) return { hint, owner };
    }
    return undefined;
  }

  /** A type name written in a scope, resolved; `known` when it names nothing in the repository. */
  typeNamed(scope: FileScope, from: number, written: string): TypeOf {
    const refs = this.resolveTypeRef(scope, from, written).filter(isType);
    if (refs.length) return { type: refs[0] };
    // A generic parameter (`T`) says nothing about the value's type.
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      if (scope.refs[at].def.typeParams?.includes(written)) return {};
    }
    return { known: true };
  }

  /** The type of field (or property, getter) `field` of a type, its bases included. */
  fieldTypeOf(type: DefRef, field: string, depth: number, seen = new Set<string>()): TypeOf {
    if (depth > MAX_DEPTH || seen.has(type.node.id)) return {};
    seen.add(type.node.id);
    const ts = this.scopes.get(type.file.path);
    if (!ts) return {};
    const hint = this.fieldHintOf(ts, type, field);
    if (hint?.type) return this.typeNamed(ts, hint.scope, hint.type);
    if (hint?.expr) return this.typeOfExpr(ts, hint.scope, hint.expr, depth + 1);
    const prop = this.members.get(type.node.id)?.get(field)?.find((r) => r.def.returns);
    if (prop) {
      return this.typeNamed(this.scopes.get(prop.file.path)!, prop.def.parent, prop.def.returns!);
    }
    for (const base of this.basesOf(type)) {
      const t = this.fieldTypeOf(base, field, depth + 1, seen);
      if (t.type || t.known) return t;
    }
    return {};
  }

  /** A field's hint: declared in the type's body, or assigned `self.x = ...` in its methods. */
  fieldHintOf(ts: FileScope, type: DefRef, field: string): TypeHint | undefined {
    const names = new Set([field, ...ts.spec.selfNames.map((n) => `${n}.${field}`)]);
    let best: TypeHint | undefined;
    for (const h of ts.facts.hints) {
      if (!names.has(h.variable)) continue;
      const inType = h.scope === type.index ||
        (h.variable !== field && h.scope >= 0 && this.within(ts, h.scope, type.index) &&
          this.enclosingType(ts, h.scope) === type);
      if (!inType) continue;
      if (h.type) return h;
      best ??= h;
    }
    return best;
  }

  /** Functions a field holds (`self.cb = self.handle`), through the type's bases. */
  fieldValue(type: DefRef, field: string, depth: number): DefRef[] {
    const ts = this.scopes.get(type.file.path);
    if (!ts || depth > MAX_DEPTH) return [];
    const hint = this.fieldHintOf(ts, type, field);
    if (!hint?.expr) return [];
    return this.functionsOf(ts, hint.scope, hint.expr, depth + 1);
  }

  /** Functions a local variable holds (`f = make()`, `g = other`). */
  valueOfVariable(scope: FileScope, from: number, name: string, depth: number): DefRef[] {
    const found = this.hintFor(scope, from, name);
    if (!found?.hint.expr || found.hint.expr === name) return [];
    return this.functionsOf(found.owner, found.hint.scope, found.hint.expr, depth + 1);
  }

  /** An expression that denotes a function (a name, `obj.method`), never a call's result. */
  functionsOf(scope: FileScope, from: number, expr: string, depth: number): DefRef[] {
    if (depth > MAX_DEPTH || /[()[\]{}\s]/.test(expr)) return [];
    const dot = lastDot(expr);
    const name = dot < 0 ? expr : expr.slice(dot + 1);
    const receiver = dot < 0 ? undefined : expr.slice(0, dot);
    if (!/^[\w$#]+$/.test(name)) return [];
    const found = this.resolveCall(scope, from, { name, receiver }, depth + 1);
    if (!found || found.confidence < CONF_TYPED) return [];
    return found.refs.filter((r) => !isType(r));
  }

  /** The hint that types a variable at a place: innermost scope, declared types first. */
  hintFor(
    scope: FileScope,
    from: number,
    variable: string,
  ): { hint: TypeHint; owner: FileScope } | undefined {
    if (!scope.hintsByVar) {
      scope.hintsByVar = new Map();
      for (const h of scope.facts.hints) {
        const list = scope.hintsByVar.get(h.variable);
        if (list) list.push(h);
        else scope.hintsByVar.set(h.variable, [h]);
      }
    }
    const hints = scope.hintsByVar.get(variable);
    const type = this.enclosingType(scope, from);
    if (!hints?.length) {
      return type ? this.fieldHint(scope, variable, type) : undefined;
    }
    const chain = new Set<number>();
    for (let at = from;; at = scope.refs[at].def.parent) {
      chain.add(at);
      if (at < 0) break;
    }
    const selfLike = scope.spec.selfNames.some((n) => variable.startsWith(`${n}.`)) ||
      variable.startsWith("@");
    let best: { depth: number; hint: TypeHint } | undefined;
    for (const h of hints) {
      let d: number;
      if (chain.has(h.scope)) d = depthOf(scope, h.scope);
      else if (
        selfLike && type && type.file === scope.facts && this.within(scope, h.scope, type.index)
      ) d = -1;
      else if (
        scope.spec.implicitThis && type && type.file === scope.facts && h.scope === type.index
      ) d = -1;
      else continue;
      const better = !best || d > best.depth || (d === best.depth && h.type && !best.hint.type);
      if (better) best = { depth: d, hint: h };
    }
    if (!best && type) return this.fieldHint(scope, variable, type);
    return best ? { hint: best.hint, owner: scope } : undefined;
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
    const last = qualifier.split(".").pop()!;
    const owners = this.lookup(scope, from, last, (r) => TYPE_KINDS.has(r.def.kind), true).refs;
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
    const found = this.member(type, name);
    if (found.length) return found;
    if (name === "new" && type.def.kind !== "Module") return [type];
    return [];
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
    const pick = (refs: DefRef[], confidence: number) => {
      const ok = distinct(refs.filter(accept));
      return ok.length && sameSymbol(ok) ? { refs: ok, confidence } : undefined;
    };
    // 1. enclosing scopes of this file, innermost first
    for (let at = from;; at = scope.refs[at].def.parent) {
      const isTypeScope = at >= 0 && TYPE_KINDS.has(scope.refs[at].def.kind) &&
        scope.refs[at].def.kind !== "Module";
      if (!isTypeScope || scope.spec.implicitThis || at === from) {
        const here = (scope.children.get(at)?.get(name) ?? []).filter(accept);
        const hit = pick(nearest(here, this.line), CONF_SCOPE);
        if (hit) return hit;
      }
      if (at < 0) break;
    }
    // 2. imported names
    const bound = this.bindingsOf(scope).get(name);
    if (bound) {
      const refs = bound.flatMap((b) => (b.name ? this.exported(b.files, b.name, 0, name) : []));
      const hit = pick(refs, CONF_SCOPE);
      if (hit) return hit;
      // A static member import (`import static a.Util.f`, Kotlin `import a.Obj.f`).
      const members = bound.flatMap((b) => {
        const owner = b.name ? b.source?.split(/\.|::/).pop() : undefined;
        if (!owner || !/^[A-Z]/.test(owner)) return [];
        return this.exported(b.files, owner, 0).filter(isType).flatMap((t) =>
          this.member(t, b.name!)
        );
      });
      const memberHit = pick(members, CONF_SCOPE);
      if (memberHit) return memberHit;
    }
    // 3. wildcard imports
    const wild = pick(this.exported(scope.wildcards ?? [], name, 0), CONF_SCOPE);
    if (wild) return wild;
    // `using static A.B.Log;` / `import static a.b.Util.*;`: members of the imported type.
    for (const w of scope.wildcardTypes ?? []) {
      const types = this.exported(w.files, w.type, 0).filter(isType);
      const hit = pick(types.flatMap((t) => this.member(t, name)), CONF_SCOPE);
      if (hit) return hit;
    }
    // 4. same package
    const pkg = this.packageNames(scope)?.get(name)?.filter((r) => r.file !== scope.facts);
    if (pkg?.length) {
      const hit = pick(pkg, CONF_SCOPE);
      if (hit) return hit;
    }
    // 5. unique in the repository
    if (unique) {
      const all = (this.globalNames.get(familyOf(scope.facts.language))?.get(name) ?? []).filter(
        accept,
      );
      if (all.length && sameSymbol(all)) return { refs: all, confidence: CONF_UNIQUE };
    }
    return { refs: [], confidence: 0 };
  }

  /** Top-level definitions named `name` in files, following re-exports and `export *`. */
  exported(files: string[], name: string, depth: number, alias?: string): DefRef[] {
    if (depth > MAX_DEPTH) return [];
    const out: DefRef[] = [];
    for (const path of files) {
      const scope = this.scopes.get(path);
      if (!scope) continue;
      // Top-level and namespace members (C#, C++) are reachable by their simple name.
      let hits = scope.exports.get(name) ?? [];
      if (!hits.length && name === "default" && scope.facts.defaultExport) {
        hits = this.exported([path], scope.facts.defaultExport, depth + 1);
      }
      if (!hits.length && name === "default") {
        const named = alias ? scope.children.get(-1)?.get(alias) ?? [] : [];
        const top = scope.refs.filter((r) => r.def.parent < 0);
        hits = named.length ? named : top.length === 1 ? top : [];
      }
      if (!hits.length) {
        for (const b of this.bindingsOf(scope).get(name) ?? []) {
          hits = hits.concat(this.exported(b.files, b.name ?? name, depth + 1));
        }
      }
      if (!hits.length) {
        // `ib = attrib`, `export const f = g`: a module-level alias of a definition.
        const alias = scope.facts.hints.find((h) =>
          h.scope === -1 && h.variable === name && h.expr && h.expr !== name
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
      out.push(...hits);
    }
    return out;
  }

  /** Names visible package-wide to this file (built once per package). */
  packageNames(scope: FileScope): Map<string, DefRef[]> | undefined {
    const f = scope.facts;
    let key: string;
    let files: () => string[];
    if (scope.spec.packageScope === "directory") {
      const dir = dirOf(f.path);
      key = `dir\0${familyOf(f.language)}\0${dir}`;
      files = () =>
        this.repo.inDir(dir).filter((p) =>
          familyOf(this.scopes.get(p)!.facts.language) === familyOf(f.language)
        );
    } else if (scope.spec.packageScope === "declared") {
      const pkg = packageOf(scope);
      if (pkg === undefined) return undefined;
      key = `pkg\0${f.language}\0${pkg}`;
      files = () => this.repo.inPackage(f.language, pkg);
    } else {
      return undefined; // "global" is the unique-name step, which refuses ambiguity
    }
    let names = this.packages.get(key);
    if (!names) {
      names = new Map();
      for (const p of files()) {
        for (const [name, refs] of this.scopes.get(p)?.exports ?? []) {
          const list = names.get(name);
          if (list) list.push(...refs);
          else names.set(name, [...refs]);
        }
      }
      this.packages.set(key, names);
    }
    return names;
  }

  resolveTypeRef(scope: FileScope, from: number, written: string): DefRef[] {
    const parts = written.replace(/::/g, ".").split(".").filter(Boolean);
    const name = parts.pop();
    if (!name) return [];
    if (parts.length) {
      const viaQualifier = this.memberOfQualifier(scope, from, parts.join("."), name).filter(
        isType,
      );
      if (viaQualifier.length) return viaQualifier;
    }
    return this.lookup(scope, from, name, isType, true).refs;
  }

  /** A field declared at class level, maybe in another file (C++ out-of-line methods). */
  fieldHint(
    scope: FileScope,
    variable: string,
    type: DefRef,
  ): { hint: TypeHint; owner: FileScope } | undefined {
    // `this._repo` or a bare `repo_` inside a method.
    const self = scope.spec.selfNames.find((n) => variable.startsWith(`${n}.`));
    if (!self && !scope.spec.implicitThis) return undefined; // a bare name is a local here
    const field = self ? variable.slice(self.length + 1) : variable;
    if (field.includes(".")) return undefined;
    const ts = this.scopes.get(type.file.path);
    const hint = ts ? this.fieldHintOf(ts, type, field) : undefined;
    return hint && ts ? { hint, owner: ts } : undefined;
  }

  within(scope: FileScope, index: number, ancestor: number): boolean {
    for (let at = index; at >= 0; at = scope.refs[at].def.parent) if (at === ancestor) return true;
    return false;
  }

  enclosingType(scope: FileScope, from: number): DefRef | undefined {
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      const r = scope.refs[at];
      const owner = this.ownerType.get(r.node.id);
      if (owner) return owner;
      if (TYPE_KINDS.has(r.def.kind) && r.def.kind !== "Module") return r;
      if (this.constructorFunctions.has(r.node.id)) return r;
    }
    return undefined;
  }

  member(type: DefRef, name: string, depth = 0, seen = new Set<string>()): DefRef[] {
    if (depth > MAX_DEPTH || seen.has(type.node.id)) return [];
    seen.add(type.node.id);
    let own = this.members.get(type.node.id)?.get(name);
    if (own && own.length > 1 && this.scopes.get(type.file.path)?.spec.mergeSameNamedMembers) {
      own = [own.reduce((a, b) => (b.def.line < a.def.line ? b : a))];
    }
    if (own?.length) {
      // Where methods overload, the bases' overloads that are not overridden are candidates too.
      if (!this.scopes.get(type.file.path)?.spec.overloads) return own;
      const shape = (r: DefRef) => `${r.def.params?.join(",")}|${r.def.paramTypes?.join(",")}`;
      const shapes = new Set(own.map(shape));
      const inherited = this.basesOf(type).flatMap((b) => this.member(b, name, depth + 1, seen))
        .filter((r) => !shapes.has(shape(r)));
      return inherited.length ? [...own, ...inherited] : own;
    }
    for (const base of this.basesOf(type)) {
      const found = this.member(base, name, depth + 1, seen);
      if (found.length) return found;
    }
    return [];
  }

  isSubtype(type: DefRef, base: DefRef, depth = 0): boolean {
    if (type.node.id === base.node.id) return true;
    if (depth > MAX_DEPTH) return false;
    return this.basesOf(type).some((b) => this.isSubtype(b, base, depth + 1));
  }

  basesOf(type: DefRef): DefRef[] {
    return this.bases.get(type.node.id) ?? [];
  }
}

function push<K, V>(map: Map<K, Map<string, V[]>>, key: K, name: string, value: V): void {
  let inner = map.get(key);
  if (!inner) map.set(key, inner = new Map());
  const list = inner.get(name);
  if (list) list.push(value);
  else inner.set(name, [value]);
}

/** The same definition reached twice (a file imported directly and through another) counts once. */
function distinct(refs: DefRef[]): DefRef[] {
  if (refs.length < 2) return refs;
  const seen = new Set<string>();
  return refs.filter((r) => !seen.has(r.node.id) && (seen.add(r.node.id), true));
}

function isType(r: DefRef): boolean {
  return TYPE_KINDS.has(r.def.kind);
}

function isCallable(r: DefRef): boolean {
  return r.def.kind === "Function" || r.def.kind === "Method" || r.def.kind === "Class" ||
    r.def.kind === "Struct";
}

/** Call targets: functions, methods, and types whose construction the call is. */
function callable(refs: DefRef[]): DefRef[] {
  return refs.filter(isCallable);
}

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

/** The arguments written between a call's parentheses, split at top-level commas. */
function splitArgs(text: string): string[] {
  if (!text.trim()) return [];
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if ("([{<".includes(ch)) depth++;
    else if (")]}>".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out;
}

/** What an argument's text shows of its type (as CallFact.argTypes): literals and variables. */
function literalType(arg: string): string {
  if (/^"/.test(arg)) return "String";
  if (/^'.'$|^'\\.'$/.test(arg)) return "char";
  if (/^-?\d+[lL]$/.test(arg)) return "long";
  if (/^-?\d+$/.test(arg)) return "int";
  if (/^-?\d*\.\d+[fF]?$/.test(arg)) return /[fF]$/.test(arg) ? "float" : "double";
  if (arg === "true" || arg === "false") return "boolean";
  if (arg === "null") return "null";
  const made = arg.match(/^new\s+([\w$.]+)/);
  if (made) return made[1].split(".").pop()!;
  if (/^[\w$.]+$/.test(arg)) return `=${arg}`;
  return "";
}

function isSuperCall(receiver: string, superNames: string[]): boolean {
  return superNames.some((n) => receiver === `${n}()`);
}

/** Index of the `)` that closes the `(` at `open`, or -1. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `(` that opens the call ending the expression, or -1. */
function openingParen(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === ")") depth++;
    else if (text[i] === "(" && --depth === 0) return i;
  }
  return -1;
}

/** The last `.` outside brackets (`a.b(c.d).e` -> before `e`), or -1. */
function lastDot(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const ch = text[i];
    if (ch === ")" || ch === "]" || ch === ">") depth++;
    else if (ch === "(" || ch === "[" || ch === "<") depth--;
    else if (ch === "." && depth === 0) return i;
  }
  return -1;
}

/**
 * Same-named definitions of one scope (a test file defining `class Foo` in several callbacks):
 * the last one before the line, else the first.
 */
function nearest(refs: DefRef[], line: number): DefRef[] {
  if (refs.length < 2 || !line) return refs;
  if (refs.some((r) => r.file !== refs[0].file)) return refs;
  // Overloads (callables with different parameters) and methods stay: arity chooses later.
  const callables = refs.filter((r) => r.def.kind === "Function" || r.def.kind === "Method");
  if (callables.some((r) => r.def.kind === "Method")) return refs;
  if (new Set(callables.map((r) => r.def.params?.join(","))).size > 1) return refs;
  const before = refs.filter((r) => r.def.line <= line);
  return [before.length ? before[before.length - 1] : refs[0]];
}

/** All candidates are one symbol (overloads, or a declaration and its definition). */
function sameSymbol(refs: DefRef[]): boolean {
  return refs.every((r) => r.node.qualified_name === refs[0].node.qualified_name);
}

function depthOf(scope: FileScope, index: number): number {
  let d = 0;
  for (let at = index; at >= 0; at = scope.refs[at].def.parent) d++;
  return d;
}

function packageOf(scope: FileScope): string | undefined {
  if (scope.facts.package) return scope.facts.package;
  const mod = scope.refs.find((r) => r.def.parent < 0 && r.def.kind === "Module");
  return mod?.node.qualified_name;
}

function repoFiles(facts: FileFacts[]): RepoFiles {
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
  return {
    has: (p) => paths.has(p),
    inDir: (dir) => byDir.get(dir) ?? [],
    inPackage: (language, pkg) => byPackage.get(`${language}\0${pkg}`) ?? [],
    withSuffix: (suffix) =>
      (byBase.get(suffix.slice(suffix.lastIndexOf("/") + 1)) ?? []).filter((p) =>
        p === suffix || p.endsWith("/" + suffix)
      ),
  };
}

function qualifiedModule(f: FileFacts, d: DefFact): string {
  return f.module ? `${f.module}.${d.local}` : d.local;
}
