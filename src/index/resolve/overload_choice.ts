/**
 * Overload choice: which of a name's definitions a call's arguments select, by number, names and
 * spreads, then static types (literals, declared and constructed types, boxing, widening,
 * subtypes, a language's own conversions, generic and template parameters, const objects).
 */
import { type CallShape, type DefRef, type FileScope, MAX_DEPTH } from "./model.ts";
import { isType } from "./refs.ts";
import { ExtensionMethods } from "./extension_methods.ts";
import { chooseOverload } from "./overloads.ts";

export abstract class OverloadChoice extends ExtensionMethods {
  /**
   * The overload a call selects: those its arguments fit by number, then by their static types
   * (literals, constructed and declared types, boxing, widening, subtypes through
   * EXTENDS/IMPLEMENTS); among equals, the one with exactly as many parameters, then one that is
   * not the caller itself; a declaration and its definition in two files are one function. Still
   * open: none (a guess between overloads is no edge).
   */
  byArgumentTypes(
    scope: FileScope,
    from: number,
    refs: DefRef[],
    call: CallShape,
    guess = true,
  ): DefRef[] {
    const args = call.args;
    const fits = refs.filter((r) =>
      fitsArity(r, args) && fitsTypeArgs(r, call.typeArgs) && fitsNames(r, call.argNames) &&
      fitsSpread(r, call.argTypes) &&
      (call.typeArgs || !scope.spec.argumentInference || inferable(r))
    );
    if (fits.length < 2) return fits;
    const argTypes = (call.argTypes ?? []).map((a) =>
      a.startsWith("=") ? this.argumentType(scope, from, a) : a
    );
    let best: DefRef[] = [];
    let bestScore = -Infinity;
    // A temporary (a literal, a call's value, an object made in place) binds to `T&&` (C++).
    const temporary = (call.argTypes ?? []).map((a) => !a.startsWith("=") || a.includes("("));
    for (const r of fits) {
      let score = 0;
      // Arguments from the variadic parameter on are its elements (`T...`).
      const types = r.def.paramTypes ?? [];
      const vi = types.findIndex((t) => t.endsWith("..."));
      argTypes.forEach((at, i) => {
        let pt = paramTypeAt(types, vi, i, call.argNames);
        if (pt.endsWith("&&")) {
          pt = pt.slice(0, -2);
          if (call.argTypes?.[i]) score += temporary[i] ? 1 : -100;
        }
        if (!at || at === "*" || !pt) return;
        score += this.assignable(scope, from, at, pt, r);
      });
      if (score > bestScore) {
        best = [r];
        bestScore = score;
      } else if (score === bestScore) best.push(r);
    }
    if (bestScore < 0) return [];
    if (best.length === 1) return best;
    // `begin()` and `begin() const`: the object's constness chooses (C++).
    if (best.some((r) => r.def.constant) && best.some((r) => !r.def.constant)) {
      const constant = this.receiverIsConst(scope, from, call.receiver);
      const chosen = constant === undefined
        ? []
        : best.filter((r) => !!r.def.constant === constant);
      if (chosen.length) best = chosen;
      if (best.length === 1) return best;
    }
    // A fixed-arity overload before a variadic one (Java's first phase), when every argument's
    // type is known (else the fixed one may not even apply: `f(vararg x: K)` vs `f(x: Iterable<K>)`);
    // equal arities stay open.
    const fixed = best.filter((r) => (r.def.params?.[1] ?? 0) >= 0);
    // (A named argument is placed by its name: its type does not decide between these.)
    const allKnown = argTypes.length === args &&
      argTypes.every((t, i) => (t && t !== "*") || (call.argNames?.[i] ?? "^") !== "^");
    if (
      allKnown && fixed.length === 1 &&
      best.every((r) => r === fixed[0] || (r.def.params?.[1] ?? 0) < 0)
    ) {
      return fixed;
    }
    // Extensions of different receivers that only arity tells apart: no guess.
    if (!guess) return [];
    const byFile = chooseOverload(best, args);
    if (byFile.length > 1) return byFile; // a declaration and its definition
    const notSelf = best.filter((r) => !(r.file === scope.facts && r.index === from));
    return notSelf.length === 1 ? notSelf : [];
  }

  /**
   * Whether a call's object is const (C++): a `const` variable, or `this` (written or implied, a
   * field through it) inside a `const` member function; undefined when unknown.
   */
  receiverIsConst(
    scope: FileScope,
    from: number,
    receiver: string | undefined,
  ): boolean | undefined {
    const self = scope.spec.selfNames;
    const head = receiver?.split(".")[0];
    const enclosing = () => from >= 0 && scope.refs[from].def.constant === true;
    if (receiver === undefined || self.includes(receiver) || (head && self.includes(head))) {
      return enclosing();
    }
    if (!/^[\w$]+$/.test(receiver)) return undefined;
    const found = this.hintFor(scope, from, receiver);
    if (!found) return undefined;
    // A field (implicit `this`): const inside a const member function.
    if (found.owner !== scope || found.hint.scope < 0 || isType(scope.refs[found.hint.scope])) {
      return found.hint.constant === true || enclosing();
    }
    return found.hint.constant === true;
  }

  /** Whether a call's arguments may fit a definition (number, names, no known type mismatch). */
  applicable(scope: FileScope, from: number, r: DefRef, call: CallShape): boolean {
    if (!fitsArity(r, call.args) || !fitsTypeArgs(r, call.typeArgs)) return false;
    if (!fitsNames(r, call.argNames) || !fitsSpread(r, call.argTypes)) return false;
    const types = r.def.paramTypes ?? [];
    const vi = types.findIndex((t) => t.endsWith("..."));
    return (call.argTypes ?? []).every((a, i) => {
      const pt = paramTypeAt(types, vi, i, call.argNames);
      if (!a || a === "*" || !pt) return true;
      const at = a.startsWith("=") ? this.argumentType(scope, from, a) : a;
      return !at || this.assignable(scope, from, at, pt, r) >= 0;
    });
  }

  /** The static type of an argument written `=expr`: repository, outside or declared. */
  argumentType(scope: FileScope, from: number, a: string): string {
    const t = this.typeOfExpr(scope, from, a.slice(1), MAX_DEPTH - 2);
    if (t.type) return t.type.def.name;
    if (t.name) return t.name;
    const hint = this.hintFor(scope, from, a.slice(1))?.hint;
    // As a parameter's type is written for the choice: its own name (`Map.Entry` -> `Entry`).
    return hint && !hint.field ? hint.type.slice(hint.type.lastIndexOf(".") + 1) : "";
  }

  /** 2 same type, 1 assignable (boxing, widening, subtype, Object), -100 not assignable. */
  assignable(
    scope: FileScope,
    from: number,
    argWritten: string,
    paramWritten: string,
    target: DefRef,
  ): number {
    // Language spellings of the same types (C# `string`, Kotlin `Int`) meet on one name.
    const arg = scope.spec.typeAliases?.[argWritten] ?? argWritten;
    // A parameter type keeps its type arguments (`IRequest<T>`) for resolution only.
    const paramBare = paramWritten.replace(/<[\s\S]*>$/, "");
    const param = this.scopes.get(target.file.path)?.spec.typeAliases?.[paramBare] ?? paramBare;
    if (arg === param) return 2;
    // The language's implicit conversions between its own types (C++ `int` -> `size_t`).
    const targetSpec = this.scopes.get(target.file.path)?.spec;
    if (targetSpec?.sameTypes?.[arg]?.includes(param)) return 2;
    if (targetSpec?.conversions?.[arg]?.includes(param)) return 1;
    // A template's type parameter (C++ `template <typename T> class A`) takes any type. The
    // method's own one is inferred from the argument (an identity conversion, below a
    // non-generic exact match); a class-typed argument still has its bound checked below.
    const ts0 = this.scopes.get(target.file.path);
    if (ts0 && !target.def.typeParams?.includes(arg)) {
      if (target.def.typeParams?.includes(param)) {
        if (/^[a-z]/.test(arg)) return 1.5;
      } else {
        for (let at = target.def.parent; at >= 0; at = ts0.refs[at].def.parent) {
          if (ts0.refs[at].def.typeParams?.includes(param)) return 0;
        }
      }
    }
    // A lambda converts to a function (delegate) type, never to a class or a plain value.
    if (arg === "λ" || param === "λ") {
      const fns = this.scopes.get(target.file.path)?.spec.functionTypes;
      if (!fns) return 0;
      if (arg === "λ" && fns.includes(param)) return 2;
      const other = arg === "λ" ? paramWritten : argWritten;
      const ref = this.resolveTypeRef(
        arg === "λ" ? this.scopes.get(target.file.path)! : scope,
        arg === "λ" ? target.def.parent : from,
        other,
      ).filter(isType)[0];
      if (ref) return ref.def.kind === "Interface" ? 0 : -100;
      return /^(String|Object|boolean|int|long|double|float|char|short|byte)$/.test(
          this.scopes.get(target.file.path)?.spec.typeAliases?.[other] ?? other,
        ) && other !== "Object"
        ? -100
        : 0;
    }
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
    // Conversion to `object` is the least specific of all (below any interface or base).
    if (param === "Object") return primitive(arg) ? 0 : 0.5;
    if (arg === "null") return primitive(param) ? -100 : 1;
    if (primitive(arg) !== primitive(param)) {
      return primitive(arg) && /^(Number|Comparable|Serializable)$/.test(param) ? 1 : -100;
    }
    if (primitive(arg)) return -100;
    // Reference types: a repository subtype, a generic parameter, or unknown (no evidence).
    const ts = this.scopes.get(target.file.path)!;
    const p = this.resolveTypeRef(ts, target.def.parent, paramWritten).filter(isType)[0];
    const a = this.resolveTypeRef(scope, from, arg).filter(isType)[0];
    if (!p) {
      // The method's own type parameter is inferred from the argument: an identity conversion,
      // better than one to `object` but not as good as a non-generic exact match; its bound
      // (`where T : INotification`) must hold.
      if (target.def.typeParams?.includes(param)) {
        const bound = target.def.typeBounds?.[param];
        const b = bound
          ? this.resolveTypeRef(ts, target.def.parent, bound).filter(isType)[0]
          : undefined;
        if (b && a) return this.isSubtype(a, b) ? 1.5 : this.unresolvedBase(a) ? 0.5 : -100;
        return b ? -100 : 1.5; // an outside type never meets a repository bound
      }
      for (let at = target.def.parent; at >= 0; at = ts.refs[at].def.parent) {
        if (ts.refs[at].def.typeParams?.includes(param)) return 0;
      }
      // Both from outside: what the language says of its library's types.
      if (
        !a &&
        targetSpec?.librarySupertypes?.some(([t, bases]) => t.test(arg) && bases.includes(param))
      ) {
        return 1;
      }
      if (arg === "String" || !a) return -100;
      // A repository type converts to an outside type only through a base it names.
      if (this.writtenBases(a).has(param)) return 1;
      return this.writtenBases(a).size ? 0 : -100;
    }
    if (!a) return arg === "String" || /^[a-z]/.test(arg) ? -100 : 0;
    if (this.isSubtype(a, p)) return 1;
    // A base the repository could not resolve may be the parameter's type: no evidence, and
    // never less specific than `object` (0.5), so that the choice stays open.
    return this.unresolvedBase(a) ? 0.5 : -100;
  }
}

/** Whether a definition's parameters take `args` arguments. */
export function fitsArity(r: DefRef, args: number | undefined): boolean {
  const p = r.def.params;
  return args === undefined || !p || (args >= p[0] && (p[1] < 0 || args <= p[1]));
}

/** Whether a method declares as many type parameters as the call passes type arguments. */
export function fitsTypeArgs(r: DefRef, typeArgs: number | undefined): boolean {
  return !typeArgs || isType(r) || (r.def.typeParams?.length ?? 0) === typeArgs;
}

/** Whether every type parameter of a method appears in its parameters' types (can be inferred). */
function inferable(r: DefRef): boolean {
  if (isType(r) || !r.def.typeParams?.length || (r.def.params?.[1] ?? 0) < 0) return true;
  const written = (r.def.paramTypes ?? []).join(" ");
  return r.def.typeParams.every((t) => new RegExp(`(^|[^\\w$])${t}([^\\w$]|$)`).test(written));
}

/**
 * Whether named arguments fit a definition: each names one of its parameters, and every
 * required parameter after the positional ones is named.
 */
export function fitsNames(r: DefRef, names: string[] | undefined): boolean {
  const declared = r.def.paramNames;
  if (!names?.some(Boolean) || !declared?.length || isType(r)) return true;
  // `^`: a trailing lambda, passed to the last parameter.
  const named = names.map((n) => n === "^" ? declared[declared.length - 1] : n);
  if (named.some((n) => n && n !== "?" && !declared.includes(n))) return false;
  // Required parameters after the positional ones must be named (C#, where they come first;
  // a Kotlin trailing lambda may fill a required last parameter after defaulted ones).
  if (names.includes("^")) return true;
  const positional = named.findIndex(Boolean);
  const required = r.def.params?.[0] ?? 0;
  for (let i = positional; i < required && i < declared.length; i++) {
    if (!named.includes(declared[i])) return false;
  }
  return true;
}

/**
 * The declared type an argument is checked against: by position (the variadic parameter's
 * element type from its position on); a trailing lambda (`^`) against the last parameter; a
 * named argument against none ("").
 */
function paramTypeAt(types: string[], vi: number, i: number, names?: string[]): string {
  const name = names?.[i];
  if (name === "^") {
    const last = types[types.length - 1] ?? "";
    return last.endsWith("...") ? last.slice(0, -3) : last;
  }
  if (name) return "";
  return vi >= 0 && i >= vi ? types[vi].slice(0, -3) : types[i] ?? "";
}

/** A spread argument (`*args`, written `*`) fills the variadic parameter at its position. */
export function fitsSpread(r: DefRef, argTypes: string[] | undefined): boolean {
  const k = argTypes?.indexOf("*") ?? -1;
  if (k < 0 || isType(r)) return true;
  if ((r.def.params?.[1] ?? 0) >= 0) return false;
  const vi = (r.def.paramTypes ?? []).findIndex((t) => t.endsWith("..."));
  return vi < 0 || vi === k;
}
