import type { CallShape, DefRef, FileScope, TypeOf } from "./model.ts";
import { isType, packageOf } from "./refs.ts";
import { Extensions } from "./extensions.ts";

/**
 * Extension methods and functions (C# `static M(this Foo x)`, Kotlin `fun Foo.m()`): what the
 * compiler does when a call `x.m(...)` finds no member `m` on x's type. It looks at the
 * extensions named `m` that are in scope (the same file, the file's namespace or package and,
 * in C#, its enclosing namespaces, namespaces and names imported), keeps those whose receiver
 * type x converts to and whose parameters the arguments fit, and takes the most specific
 * receiver, then chooses among overloads by argument types as for any call.
 */
export abstract class ExtensionMethods extends Extensions {
  /** Whether a definition can take a call's arguments (the calls layer). */
  abstract applicable(scope: FileScope, from: number, r: DefRef, call: CallShape): boolean;

  /** Extensions by family, by name (built on first use). */

  /** Chooses among overloads by arguments (the calls layer). */
  abstract byArgumentTypes(
    scope: FileScope,
    from: number,
    refs: DefRef[],
    call: CallShape,
    guess?: boolean,
  ): DefRef[];

  /** Extensions named `name` in the repository (any visibility). */
  extensionsNamed(scope: FileScope, name: string): DefRef[] {
    return this.structure.extensions.get(this.family(scope.facts.language))?.get(name) ?? [];
  }

  /**
   * Whether an extension is in scope in a file (its namespace or package, or imported), and at
   * which level (LanguageSpec.importLevels): 3 imported by name, 2 the file's own or its
   * package's, 1 through a `*` import; 0 not visible. Without import levels every visible one is 1.
   */
  extensionLevel(scope: FileScope, from: number, ext: DefRef): number {
    const leveled = scope.spec.importLevels === true;
    if (ext.file === scope.facts) return leveled ? 2 : 1;
    const es = this.scopes.get(ext.file.path);
    if (!es) return 0;
    // The namespaces the extension and the call are in (a file may hold several).
    const there = namespaceAt(es, ext.def.parent);
    let owner: string | undefined;
    for (let at = ext.def.parent; at >= 0 && !owner; at = es.refs[at].def.parent) {
      if (isType(es.refs[at]) && es.refs[at].def.kind !== "Module") {
        owner = es.refs[at].node.qualified_name;
      }
    }
    if (there === undefined) return leveled ? 2 : 1; // the global namespace, the default package
    const here = namespaceAt(scope, from);
    if (here === there) return leveled ? 2 : 1;
    if (here !== undefined && scope.spec.enclosingNamespaces && here.startsWith(`${there}.`)) {
      return 1;
    }
    // `using A.B;`, `import a.b.*`, `import a.b.f`, `using static A.B.Extensions;`.
    let level = 0;
    for (const imp of scope.facts.imports) {
      if (imp.wildcard ? imp.source === there || imp.source === owner : false) level ||= 1;
      else if (!imp.wildcard && imp.source === there && imp.name === ext.def.name) {
        return leveled ? 3 : 1;
      }
    }
    return level;
  }

  /**
   * How a receiver fits an extension's receiver type: 3 the same type, 2 a subtype (or a type
   * whose written bases name it), 1 possible (an outside type to an outside type, a generic
   * receiver, `object`/`Any`), 0 not at all.
   */
  receiverFit(receiver: TypeOf, ext: DefRef): number {
    const key = `${ext.node.id}\0${receiver.type?.node.id ?? `=${receiver.name ?? ""}`}`;
    const known = this.fitCache.get(key);
    if (known !== undefined) return known;
    const fit = this.receiverFitUncached(receiver, ext);
    this.fitCache.set(key, fit);
    return fit;
  }

  readonly fitCache = new Map<string, number>();

  receiverFitUncached(receiver: TypeOf, ext: DefRef): number {
    const es = this.scopes.get(ext.file.path);
    if (!es || !ext.def.receiverType) return 0;
    let written = ext.def.receiverType;
    if ((es.spec.typeAliases?.[written] ?? written) === "Object") return 1;
    // `this T x`, `fun <T : A, C : T> C.f()`: the bound, through bounds that are parameters too.
    for (let i = 0; i < 4 && ext.def.typeParams?.includes(written); i++) {
      const bound = ext.def.typeBounds?.[written];
      if (!bound || bound === written) return 1; // any value
      written = bound;
    }
    const target = this.typeNamed(es, ext.def.parent, written).type; // through type aliases
    if (receiver.type) {
      if (target) {
        if (receiver.type.node.id === target.node.id) return 3;
        return this.isSubtype(receiver.type, target) ? 2 : 0;
      }
      // A receiver type written qualified (`fun A.B.f()`), or an outside base the type names.
      const last = written.split(".").pop()!;
      if (
        receiver.type.def.name === last &&
        (last === written || this.endsWith(receiver.type, written))
      ) {
        return 3;
      }
      return this.writtenBases(receiver.type).has(last) ? 2 : 0;
    }
    if (!receiver.known || target) return 0; // an outside type never extends a repository one
    const name = receiver.name?.split(".").pop();
    return name === written.split(".").pop() ? 3 : 1;
  }

  /**
   * The implicit receiver inside an extension that is no member of a repository type (its
   * receiver a typealias, a nested or outside type): the nearest such enclosing extension's.
   */
  extensionReceiver(scope: FileScope, from: number): TypeOf | undefined {
    this.progressRead = true;
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      const r = scope.refs[at];
      if (this.ownerType.has(r.node.id)) return undefined; // a member of its receiver type
      if (!r.def.receiverType || r.def.receiverParam) continue;
      const t = this.typeNamed(scope, at, r.def.receiverType);
      return t.type || t.known ? t : undefined;
    }
    return undefined;
  }

  /** Whether a type's qualified name ends with a written qualified name (`FunSpec.Builder`). */
  endsWith(type: DefRef, written: string): boolean {
    const q = type.node.qualified_name;
    return q === written || q.endsWith(`.${written}`);
  }

  /** Whether a type (or one of its bases) names a base that resolves to nothing here. */
  unresolvedBase(type: DefRef): boolean {
    const known = new Set<string>();
    const walk = (t: DefRef, depth: number) => {
      if (depth > 8 || known.has(t.def.name)) return;
      known.add(t.def.name);
      for (const b of this.basesOf(t)) walk(b, depth + 1);
    };
    walk(type, 0);
    return [...this.writtenBases(type)].some((n) => !known.has(n));
  }

  /** Every base name a repository type states, through its repository bases. */
  writtenBases(type: DefRef, seen = new Set<string>()): Set<string> {
    const out = new Set<string>();
    if (seen.has(type.node.id)) return out;
    seen.add(type.node.id);
    for (const part of this.partsOf(type)) {
      for (const h of part.file.inherits) {
        if (h.from !== part.index) continue;
        out.add(h.name.replace(/<[\s\S]*>$/, "").split(/\.|::/).pop()!.trim());
      }
    }
    for (const base of this.basesOf(type)) {
      for (const n of this.writtenBases(base, seen)) out.add(n);
    }
    return out;
  }

  /**
   * The extension a call `x.m(...)` reaches when x's type (a repository type without member m, or
   * an outside type) has none: visible, receiver and arguments fitting, most specific receiver
   * first, then by arguments. Empty when none applies or the choice stays open.
   */
  extensionCall(scope: FileScope, from: number, call: CallShape, receiver: TypeOf): DefRef[] {
    if (!receiver.type && !receiver.known) return [];
    const named = this.extensionsNamed(scope, call.name);
    if (!named.length) return [];
    // Kotlin: one level of scope at a time (an extension imported by name hides those a `*`
    // import brings); the first level where one applies decides.
    const byLevel = new Map<number, DefRef[]>();
    for (const ext of named) {
      const level = this.extensionLevel(scope, from, ext);
      if (level) byLevel.set(level, [...(byLevel.get(level) ?? []), ext]);
    }
    const levels = [...byLevel.keys()].sort((a, b) => b - a);
    for (const level of levels) {
      let found = this.extensionAtLevel(scope, from, call, receiver, byLevel.get(level)!);
      // A level the call may pass over needs an extension the arguments can be given to.
      if (level !== levels[levels.length - 1]) {
        found = found.filter((r) => this.applicable(scope, from, r, call));
      }
      if (found.length) return found;
    }
    return [];
  }

  /** The extension among visible ones of one scope level that a call reaches (extensionCall). */
  extensionAtLevel(
    scope: FileScope,
    from: number,
    call: CallShape,
    receiver: TypeOf,
    named: DefRef[],
  ): DefRef[] {
    let best = 0;
    let ranked: DefRef[] = [];
    for (const ext of named) {
      const fit = this.receiverFit(receiver, ext);
      if (!fit) continue;
      // An outside value's own method may be meant: a common name proves nothing then.
      if (fit === 1 && scope.spec.commonMethods?.includes(call.name)) continue;
      const args = call.args === undefined
        ? undefined
        : call.args + (ext.def.receiverParam ? 1 : 0);
      const p = ext.def.params;
      if (args !== undefined && p && !(args >= p[0] && (p[1] < 0 || args <= p[1]))) continue;
      if (call.typeArgs && (ext.def.typeParams?.length ?? 0) !== call.typeArgs) continue;
      if (fit > best) {
        best = fit;
        ranked = [ext];
      } else if (fit === best) ranked.push(ext);
    }
    if (ranked.length < 2) return ranked;
    // `x.M(a)` is `M(x, a)` where the receiver is the first parameter; its fit is ranked above.
    const shift = ranked[0].def.receiverParam ? 1 : 0;
    // Overloads of one receiver may be told apart by arity as any call's; extensions of
    // different receivers (their type arguments unread) may not.
    const receivers = new Set(ranked.map((r) => r.def.receiverType));
    return this.byArgumentTypes(scope, from, ranked, {
      ...call,
      args: call.args === undefined ? undefined : call.args + shift,
      argTypes: call.argTypes && shift ? ["", ...call.argTypes] : call.argTypes,
      argNames: call.argNames && shift ? ["", ...call.argNames] : call.argNames,
    }, receivers.size === 1);
  }
}

/** The namespace a place is in: its innermost enclosing block namespace, else the file's. */
function namespaceAt(scope: FileScope, from: number): string | undefined {
  for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
    if (scope.refs[at].def.kind === "Module") return scope.refs[at].node.qualified_name;
  }
  return packageOf(scope);
}
