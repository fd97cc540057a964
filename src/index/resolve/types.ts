import { dirOf } from "../../lang/paths.ts";
import { TYPE_KINDS } from "../../graph/facts.ts";
import type { TypeHint } from "../../graph/facts.ts";
import { CONF_TYPED, type DefRef, type FileScope, MAX_DEPTH, type TypeOf } from "./model.ts";
import { depthOf, isType, packageOf } from "./refs.ts";
import {
  lastDot,
  literalType,
  matchingParen,
  openingBracket,
  openingParen,
  splitArgs,
  splitAtOperator,
} from "./text.ts";
import { Generics } from "./generics.ts";
import { Memo2 } from "./memo.ts";

/**
 * What a value is: the repository type of an expression (declared, constructed, returned,
 * a field's, a cast's) and the functions a variable or field holds.
 */
export abstract class Types extends Generics {
  /**
   * The repository type an expression's value has, or `known` when its type is known to be one
   * from outside the repository (a declared `String`, an external import).
   */
  typeOfExpr(scope: FileScope, from: number, text: string, depth: number): TypeOf {
    if (depth > MAX_DEPTH) return this.cutOff({});
    // Memoised per place: a receiver chain is typed once, not once per call through it; unless
    // the answer hung on the call's line (which of several assignments is the latest).
    const known = this.typeCache.get(scope.facts.path, from, text);
    if (known) return known;
    const outer = this.lineSensitive;
    this.lineSensitive = false;
    const found = this.typeOfExprUncached(scope, from, text, depth);
    // Only answers that hung neither on the call's line nor on how deep the search began are
    // kept: the same facts must give the same edges whatever order files are resolved in.
    if (!this.lineSensitive) this.typeCache.set(scope.facts.path, from, text, found);
    this.lineSensitive ||= outer;
    return found;
  }

  /** A search cut off by depth: its answer depends on where it began, so it is not memoised. */
  cutOff<T>(empty: T): T {
    this.lineSensitive = true;
    return empty;
  }

  typeOfExprUncached(scope: FileScope, from: number, text: string, depth: number): TypeOf {
    let expr = text.trim();
    for (;;) {
      const before = expr;
      expr = expr.replace(/^(await|yield|new)\s+(?=[\w$(])/, "").replace(/[!?]+$/, "").trim();
      // `*p`, `&x` (C, C++, Go, Rust): pointers are erased, the value's type is the pointee's.
      expr = expr.replace(/^[*&]+(?=[\w$(])/, "");
      if (expr.startsWith("(") && matchingParen(expr, 0) === expr.length - 1) {
        expr = expr.slice(1, -1).trim();
      }
      if (expr === before) break;
    }
    if (!expr) return {};
    const spec = scope.spec;
    // `a ?? b`, `a || b`: the value is one operand's, left first.
    const operands = spec.fallbackOperators?.some((o) => expr.includes(o))
      ? splitAtOperator(expr, spec.fallbackOperators)
      : undefined;
    if (operands) {
      const left = this.typeOfExpr(scope, from, operands[0], depth + 1);
      return left.type || left.known ? left : this.typeOfExpr(scope, from, operands[1], depth + 1);
    }
    // A literal (`"x"`, `1`, `2.5`, `true`): a value of a built-in type.
    if (/^["'$@\d-]|^(true|false)$/.test(expr)) {
      const lit = literalType(expr.replace(/^[$@]+(?=")/, ""));
      if (lit && !lit.startsWith("=") && lit !== "null") {
        // A built-in class the repository reopens (Ruby `class String; def pathmap`).
        const reopened = spec.openTypes ? this.typeNamed(scope, from, lit).type : undefined;
        return reopened ? { type: reopened } : { known: true, name: lit };
      }
    }
    if (spec.implicitReturn) {
      // Ruby `scope.conj "a"`: a call whose arguments have no parentheses.
      const bare = expr.match(/^([@\w$:.]+\.[a-z_][\w$]*[?!]?) +([^\s=].*)$/);
      if (bare) return this.typeOfExpr(scope, from, `${bare[1]}(${bare[2]})`, depth + 1);
      // `Task[name]`: a class whose class-level `[]` looks its instances up (Ruby's
      // `Hash[..]`, `Set[..]` idiom) gives one of them.
      const index = expr.match(/^([A-Z][\w$]*(?:(?:::|\.)[A-Z][\w$]*)*)\[.*\]$/);
      if (index) {
        const type = this.resolveTypeRef(scope, from, index[1].replace(/::/g, ".")).filter(
          isType,
        )[0];
        const lookup = type && this.member(type, "[]").some((r) => r.def.static);
        return lookup ? { type } : {};
      }
    }
    // `x as T`, `<T>x`, `(T) x`: a cast names the type.
    const cast = expr.match(/\s(?:as|satisfies)\s+([\w$.]+(?:\[\])?)(?:<.*>)?$/) ??
      expr.match(/^\(([A-Z][\w$.]*)(?:<.*>)?\)\s*[\w$]/);
    if (cast) return this.typeNamed(scope, from, cast[1]);
    if (spec.selfNames.includes(expr)) {
      const type = this.enclosingType(scope, from);
      return type ? { type } : {};
    }
    if (expr.endsWith(")")) {
      const open = openingParen(expr);
      if (open <= 0) return {};
      const written = expr.slice(0, open).trim();
      // `a::b::f::<T>(..)` (a hint's expression as written): the dotted receiver calls have.
      const callee = written.replace(/<[^()]*>$/, "").replace(/::$/, "").trim()
        .replace(/^([\w$]+(?:(?:::|\.)[\w$]+)+)$/, (p) => p.replace(/::/g, "."));
      if (!callee) return {};
      // `Make<Foo>()`: the explicit type arguments.
      const explicit = written.match(/<([^()]*)>$/);
      const typeArgs = explicit ? splitArgs(explicit[1]) : [];
      const dot = lastDot(callee);
      const name = dot < 0 ? callee : callee.slice(dot + 1);
      const receiver = dot < 0 ? undefined : callee.slice(0, dot);
      if ((spec.superNames ?? []).includes(name) && receiver === undefined) {
        return {}; // `super()` alone is no value we type here
      }
      if (!/^[\w$#]+$/.test(name)) return {};
      // `x.unwrap()`, `x.clone()`: the receiver's value (LanguageSpec.identityMethods).
      if (receiver !== undefined && spec.identityMethods?.includes(name)) {
        return this.typeOfExpr(scope, from, receiver, depth + 1);
      }
      const args = splitArgs(expr.slice(open + 1, -1));
      // `cast(T, value)` (Python typing): the value has type T.
      if (spec.castFunctions?.includes(name) && args.length === 2) {
        return this.typeNamed(scope, from, args[0]);
      }
      const found = this.resolveCall(scope, from, {
        name,
        receiver,
        args: args.length,
        ...(typeArgs.length ? { typeArgs: typeArgs.length } : {}),
        // A call's value among the arguments is typed on demand, as the analyzer's are.
        argTypes: args.map((a) =>
          literalType(a) ||
          (a.length <= 80 && /^[\w$.]+(<[^()]*>)?\(.*\)$/.test(a) ? `=${a}` : "")
        ),
      }, depth + 1);
      const target = found?.refs[0];
      if (!target && spec.overloads) {
        // Overloads no argument tells apart (`begin()` and `begin() const`) whose results are one
        // type (aliases followed: `iterator`, `const_iterator` of one template): that type.
        const same = this.commonReturnType(
          scope,
          from,
          { name, receiver, args: args.length },
          depth,
        );
        if (same) return { type: same };
      }
      // `els.get(0)` of a `List<Element>`, or of an `Elements` that extends one: the element.
      if (!target && receiver !== undefined && spec.elementReturns) {
        const element = this.elementOf(scope, from, receiver, name, depth);
        if (element) return element;
      }
      if (!target && receiver !== undefined && spec.libraryReturns) {
        // `stream.str()` on a standard type: what the library's method returns.
        const of = this.typeOfExpr(scope, from, receiver, depth + 1);
        const returned = !of.type && of.name
          ? spec.libraryReturns[`${of.name}.${name}`]
          : undefined;
        if (returned) return { known: true, name: returned };
      }
      if (!target) {
        // An outside generic factory (`sp.GetRequiredService<IMediator>()`) makes its argument.
        return typeArgs.length === 1 && spec.genericFactories?.includes(name)
          ? this.typeNamed(scope, from, typeArgs[0])
          : {};
      }
      if (isType(target)) return { type: target };
      // `T Make<T>()` called as `Make<Foo>()`: the value is a Foo.
      const typeParam = target.def.returns
        ? target.def.typeParams?.indexOf(target.def.returns)
        : -1;
      if (typeParam !== undefined && typeParam >= 0) {
        if (typeArgs[typeParam]) return this.typeNamed(scope, from, typeArgs[typeParam]);
        // `fun <T : Cmd> T.withEnv(..): T` called as `C().withEnv(..)`: the receiver's own type;
        // `fun <T> keep(x: T): T` called as `keep(C())`: the argument's.
        const returned = target.def.returns!;
        if (receiver !== undefined && target.def.receiverType === returned) {
          return this.typeOfExpr(scope, from, receiver, depth + 1);
        }
        const at = target.def.paramTypes?.indexOf(returned) ?? -1;
        if (at >= 0 && args[at] && !/^[\w$]+\s*=[^=]/.test(args[at])) {
          return this.typeOfExpr(scope, from, args[at], depth + 1);
        }
        return {};
      }
      if (target.def.returns) {
        const ts = this.scopes.get(target.file.path)!;
        // `fun tag(): T` of `interface Builder<T>`, called on a `Card.Builder : Builder<Card.Builder>`:
        // the type argument the receiver's type gives T.
        const owner = target.def.parent >= 0 ? ts.refs[target.def.parent] : undefined;
        const slot = owner?.def.typeParams?.indexOf(target.def.returns) ?? -1;
        if (owner && slot >= 0) {
          const on = receiver !== undefined
            ? this.typeOfExpr(scope, from, receiver, depth + 1).type
            : this.enclosingType(scope, from);
          const bound = on ? this.typeArgumentOf(on, owner, slot, depth + 1) : undefined;
          if (bound?.type) return bound;
        }
        // `-> Self`, `: this`: a builder returns its own type.
        if (ts.spec.selfNames.includes(target.def.returns)) {
          const own = this.enclosingType(ts, target.index);
          return own ? { type: own } : {};
        }
        return this.typeNamed(ts, target.def.parent, target.def.returns);
      }
      // Ruby: the value of its last expression; Kotlin: of its expression body (`fun f() = ..`).
      const last = target.def.returnsValue;
      if (last && (spec.implicitReturn || spec.expressionBodies)) {
        const ts = this.scopes.get(target.file.path)!;
        // `@x ||= Foo.new`, `x = Foo.new`: the assigned value.
        const value = last.match(/^@{0,2}[\w$]+\s*(?:\|\||&&)?=\s*(?!=)(.+)$/)?.[1] ?? last;
        // Only a name, a path or a call chain is typed (not `if ... end`, a literal, an operator).
        if (!/^[@\w$:.]+(\(.*\))?$/.test(value.trim())) return {};
        return this.typeOfExpr(ts, target.index, value, depth + 1);
      }
      return {};
    }
    // `Foo::class` (read as `Foo.class`): a class literal, typed as the language says.
    if (spec.classLiteralType && /^[\w$.]+\.class$/.test(expr)) {
      return { known: true, name: spec.classLiteralType };
    }
    const found = this.hintFor(scope, from, expr);
    if (found) {
      const { hint, owner } = found;
      if (hint.type) {
        const written = hint.typeArgs ? `${hint.type}<${hint.typeArgs.join(", ")}>` : hint.type;
        const t = this.typeNamed(owner, hint.scope, written);
        // `({ gen }: Cxt)`: the field of a Cxt.
        if (!hint.field) return t;
        return t.type ? this.fieldTypeOf(t.type, hint.field, depth + 1) : {};
      }
      if (hint.expr && hint.expr !== expr) {
        const t = this.typeOfExpr(owner, hint.scope, hint.expr, depth + 1);
        if (t.type || t.known) return t;
        // `val xs = mutableListOf<String>()` (Kotlin): an outside function's value is of an
        // outside type, which the repository's extensions of outside types may take.
        const callee = hint.expr.match(/^([a-z_][\w$]*)(?:<.*>)?\(/)?.[1];
        return callee && owner.spec.extensionOwners ? { known: true, name: callee } : t;
      }
    }
    // A bare name: maybe a module-level variable imported from another file, or one of the
    // package (Go, Java, C#: files of one package see each other's top-level variables).
    if (/^[\w$#]+$/.test(expr)) {
      // A field or property inherited from a base (`connection` declared in `TestBase<T>`).
      const type = scope.spec.implicitThis ? this.enclosingType(scope, from) : undefined;
      if (type) {
        const inherited = this.fieldTypeOf(type, expr, depth + 1);
        if (inherited.type || inherited.known) return inherited;
      }
      const imported = this.importedVariableType(scope, expr, depth);
      if (imported.type || imported.known) return imported;
      const pkg = this.packageVariable(scope, expr);
      if (pkg?.hint.type) return this.typeNamed(pkg.owner, -1, pkg.hint.type);
      if (pkg?.hint.expr) return this.typeOfExpr(pkg.owner, -1, pkg.hint.expr, depth + 1);
      // Ruby `shell.ask`: a bare name that is no local calls the method `shell`.
      const fam = this.family(scope.facts.language);
      if (
        spec.implicitReturn && /^[a-z_]/.test(expr) &&
        (this.methodNames.get(fam)?.has(expr) || this.globalNames.get(fam)?.has(expr)) &&
        !this.isLocal(scope, from, expr)
      ) {
        return this.typeOfExpr(scope, from, `${expr}()`, depth + 1);
      }
      return {};
    }
    // Ruby `Foo::Bar.new`, `a.b`: a call without parentheses.
    if (spec.implicitReturn && /^[\w$:.]+\.[a-z_][\w$]*$/.test(expr)) {
      const called = this.typeOfExpr(scope, from, `${expr}()`, depth + 1);
      if (called.type || called.known) return called;
    }
    // `users[0]`: an element of users' type (LanguageSpec.elementReturns `[]`).
    if (expr.endsWith("]") && spec.elementReturns) {
      const open = openingBracket(expr);
      if (open > 0) return this.elementOf(scope, from, expr.slice(0, open), "[]", depth) ?? {};
    }
    // `a.b`: a field (or property) of a's type.
    const dot = lastDot(expr);
    if (dot <= 0) return {};
    const head = expr.slice(0, dot);
    const owner = this.typeOfExpr(scope, from, head, depth + 1);
    if (owner.type) return this.fieldTypeOf(owner.type, expr.slice(dot + 1), depth + 1);
    if (owner.known) return {};
    // `Config.DEFAULT`, `UserRepo.INSTANCE`: a static field of a type the head names.
    const asType = /^[\w$.]+$/.test(head)
      ? this.resolveTypeRef(scope, from, head).filter(this.typeLike)[0]
      : undefined;
    return asType ? this.fieldTypeOf(asType, expr.slice(dot + 1), depth + 1) : {};
  }

  /**
   * The type a type's inheritance gives a base's type parameter (`class Card.Builder :
   * Tagged.Builder<Card.Builder>`: slot 0 of Tagged.Builder is Card.Builder), as written in the
   * inheriting type's header, through bases up to a few levels; undefined when a written argument
   * is itself a type parameter or nothing says.
   */
  typeArgumentOf(type: DefRef, base: DefRef, slot: number, depth: number): TypeOf | undefined {
    if (depth > MAX_DEPTH) return this.cutOff(undefined);
    const todo = [type];
    const seen = new Set<string>();
    while (todo.length && seen.size < 8) {
      const t = todo.shift()!;
      if (seen.has(t.node.id)) continue;
      seen.add(t.node.id);
      for (const b of this.basesWritten(t)) {
        if (!b.args.length) continue;
        const named = this.resolveTypeRef(b.scope, b.part.def.parent, b.written).filter(isType);
        if (!named.some((n) => n.node.id === base.node.id)) continue;
        const arg = b.args[slot]?.trim();
        if (!arg || b.part.def.typeParams?.includes(arg.replace(/<[\s\S]*>$/, ""))) {
          return undefined;
        }
        return this.typeNamed(
          b.scope,
          b.part.index,
          arg.replace(/<[\s\S]*>$/, "").replace(/\?$/, ""),
        );
      }
      todo.push(...this.basesOf(t));
    }
    return undefined;
  }

  /**
   * Whether an expression is a pointer (TypeHint.pointer): a variable or field declared so, or a
   * self name where it is a pointer (C++ `this`, LanguageSpec.selfIsPointer).
   */
  isPointer(scope: FileScope, from: number, expr: string): boolean {
    if (scope.spec.selfIsPointer && scope.spec.selfNames.includes(expr)) return true;
    if (/^[\w$]+$/.test(expr)) return this.hintFor(scope, from, expr)?.hint.pointer === true;
    const dot = lastDot(expr);
    if (dot <= 0 || !/^[\w$.]+$/.test(expr)) return false;
    const owner = this.typeOfExpr(scope, from, expr.slice(0, dot), MAX_DEPTH - 2).type;
    const ts = owner ? this.scopes.get(owner.file.path) : undefined;
    return !!ts && this.fieldHintOf(ts, owner!, expr.slice(dot + 1))?.pointer === true;
  }

  /** The one type every overload of a call returns, aliases followed to their target. */
  commonReturnType(
    scope: FileScope,
    from: number,
    call: { name: string; receiver?: string; args: number },
    depth: number,
  ): DefRef | undefined {
    const raw = this.resolveCallRaw(scope, from, call, depth + 1)?.refs ?? [];
    const fits = raw.filter((r) => {
      const p = r.def.params;
      return !isType(r) && r.def.returns &&
        (!p || (call.args >= p[0] && (p[1] < 0 || call.args <= p[1])));
    });
    if (fits.length < 2) return undefined;
    let common: DefRef | undefined;
    for (const r of fits) {
      let t = this.typeNamed(this.scopes.get(r.file.path)!, r.def.parent, r.def.returns!).type;
      for (let i = 0; t?.def.alias && i < 4; i++) t = this.basesOf(t)[0];
      if (!t || (common && common.node.id !== t.node.id)) return undefined;
      common = t;
    }
    return common;
  }

  /** A file-level typed name visible here (own file, imported by name, or the package's). */
  typeAlias(scope: FileScope, name: string): { hint: TypeHint; owner: FileScope } | undefined {
    // Asked for every type name the repository does not define (`String`, `List`): once per file.
    if (this.aliasCache.has(scope.facts.path, name)) {
      return this.aliasCache.get(scope.facts.path, name);
    }
    const found = this.typeAliasUncached(scope, name);
    this.aliasCache.set(scope.facts.path, name, found);
    return found;
  }

  readonly aliasCache = new Memo2<
    string,
    string,
    { hint: TypeHint; owner: FileScope } | undefined
  >();

  typeAliasUncached(
    scope: FileScope,
    name: string,
  ): { hint: TypeHint; owner: FileScope } | undefined {
    const own = this.hintsOf(scope).get(name)?.find((h) => h.scope === -1 && h.type);
    if (own) return { hint: own, owner: scope };
    for (const b of this.bindingsOf(scope).get(name) ?? []) {
      for (const path of b.files) {
        const fs = this.scopes.get(path);
        const hint = fs &&
          this.hintsOf(fs).get(b.name ?? name)?.find((h) => h.scope === -1 && h.type);
        if (fs && hint) return { hint, owner: fs };
      }
    }
    const pkg = this.packageVariable(scope, name);
    return pkg?.hint.type ? pkg : undefined;
  }

  /** `import { container } from "./c"`: the type of a module-level variable of another file. */
  importedVariableType(scope: FileScope, name: string, depth: number): TypeOf {
    for (const b of this.bindingsOf(scope).get(name) ?? []) {
      if (!b.name) continue;
      // `import a.KModifier.PUBLIC`: an enum's constant imported by name is a value of the enum.
      const owner = b.source?.split(/\.|::/).pop();
      if (owner && scope.spec.typeNames?.test(owner)) {
        const e = this.exported(b.files, owner, 0).find((r) => r.def.kind === "Enum");
        if (e) return { type: e };
      }
      for (const path of b.files) {
        const fs = this.scopes.get(path);
        const hint = fs ? this.hintsOf(fs).get(b.name)?.find((h) => h.scope === -1) : undefined;
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
      const hint = this.hintsOf(owner).get(name)?.find((h) => h.scope === -1);
      if (hint) return { hint, owner };
    }
    return undefined;
  }

  /** A type name written in a scope, resolved; `known` when it names nothing in the repository. */
  typeNamed(scope: FileScope, from: number, written: string, depth = 0): TypeOf {
    // A constructor function with prototype methods is a class (`new Mocha()`: a Mocha).
    const refs = this.resolveTypeRef(scope, from, written).filter(this.typeLike);
    if (refs.length) return { type: refs[0] };
    // A type alias (Kotlin `typealias RawOption = NullableOption<String, String>`): a file-level
    // hint on a type-like name, in this file, imported or of the package.
    if (depth < 4 && scope.spec.typeNames?.test(written)) {
      const alias = this.typeAlias(scope, written);
      if (alias && alias.hint.type !== written) {
        const t = this.typeNamed(alias.owner, -1, alias.hint.type, depth + 1);
        if (t.type) return t;
      }
    }
    // A generic parameter (`T`) says nothing about the value's type, unless it has a bound.
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      const def = scope.refs[at].def;
      if (!def.typeParams?.includes(written)) continue;
      const bound = def.typeBounds?.[written];
      return bound && bound !== written ? this.typeNamed(scope, def.parent, bound) : {};
    }
    // `List<User>` from outside: its name, and its arguments read where it is written.
    const generic = written.match(/^([\w$.]+)\s*<([\s\S]*)>$/);
    if (generic) {
      return { known: true, name: generic[1], args: splitArgs(generic[2]), argsAt: [scope, from] };
    }
    // `User[]`: an array, whose element is read where it is written.
    return written.endsWith("[]")
      ? { known: true, name: written, argsAt: [scope, from] }
      : { known: true, name: written };
  }

  /**
   * The element a library generic's method gives (LanguageSpec.elementReturns: `List.get`): of
   * the receiver's declared outside type (`List<User>`), or of the library type a repository
   * type extends.
   */
  elementOf(
    scope: FileScope,
    from: number,
    receiver: string,
    method: string,
    depth: number,
  ): TypeOf | undefined {
    const table = scope.spec.elementReturns!;
    const of = this.typeOfExpr(scope, from, receiver, depth + 1);
    // `User[]`: an array's element.
    if (of.known && of.name?.endsWith("[]") && table[`[].${method}`] === 0) {
      return this.typeNamed(of.argsAt?.[0] ?? scope, of.argsAt?.[1] ?? from, of.name.slice(0, -2));
    }
    const generics = of.type
      ? this.outsideGenericBases(of.type)
      : of.known && of.name && of.args && of.argsAt
      ? [{
        name: of.name,
        args: of.args.map((text) => ({ text, scope: of.argsAt![0], from: of.argsAt![1] })),
      }]
      : [];
    for (const g of generics) {
      const slot = table[`${g.name.slice(g.name.lastIndexOf(".") + 1)}.${method}`];
      const arg = slot === undefined ? undefined : g.args[slot];
      if (arg) return this.typeNamed(arg.scope, arg.from, arg.text.replace(/\?$/, ""));
    }
    return undefined;
  }

  /** The type of field (or property, getter) `field` of a type, its bases included. */
  fieldTypeOf(type: DefRef, field: string, depth: number, seen = new Set<string>()): TypeOf {
    if (depth > MAX_DEPTH) return this.cutOff({});
    if (seen.has(type.node.id)) return {};
    seen.add(type.node.id);
    if (!this.scopes.get(type.file.path)) return {};
    // A field declared in any part of an open type (a C# partial class, a reopened Ruby class).
    for (const part of this.partsOf(type)) {
      const ps = this.scopes.get(part.file.path);
      const hint = ps ? this.fieldHintOf(ps, part, field) : undefined;
      if (hint?.type) return this.typeNamed(ps!, hint.scope, hint.type);
      if (hint?.expr) return this.typeOfExpr(ps!, hint.scope, hint.expr, depth + 1);
    }
    // An embedded field is named after its type (Go `struct { *Group }`: `c.Group`).
    const embedded = this.basesOf(type).find((b) => b.def.name === field);
    if (embedded) return { type: embedded };
    const own = this.members.get(type.node.id)?.get(field);
    // `Base.cursor = { hide() {} }`: a namespace object the type holds is the value.
    const namespace = own?.find((r) => r.def.kind === "Module");
    if (namespace) return { type: namespace };
    const prop = own?.find((r) => r.def.returns);
    if (prop) {
      return this.typeNamed(this.scopes.get(prop.file.path)!, prop.def.parent, prop.def.returns!);
    }
    for (const base of this.basesOf(type)) {
      const t = this.fieldTypeOf(base, field, depth + 1, seen);
      if (t.type || t.known) return t;
    }
    // `KModifier.PUBLIC`: an enum's constant is a value of the enum.
    if (type.def.kind === "Enum" && /^[A-Z]/.test(field)) return { type };
    return {};
  }

  /** A field's hint: declared in the type's body, or assigned `self.x = ...` in its methods. */
  fieldHintOf(ts: FileScope, type: DefRef, field: string): TypeHint | undefined {
    if (!this.structureKnown) return this.fieldHintOfUncached(ts, type, field);
    if (this.fieldCache.has(type.node.id, field)) return this.fieldCache.get(type.node.id, field);
    const hint = this.fieldHintOfUncached(ts, type, field);
    this.fieldCache.set(type.node.id, field, hint);
    return hint;
  }

  fieldHintOfUncached(ts: FileScope, type: DefRef, field: string): TypeHint | undefined {
    const byVar = this.hintsOf(ts);
    const candidates = [field, ...ts.spec.selfNames.map((n) => `${n}.${field}`)].flatMap((v) =>
      byVar.get(v) ?? []
    );
    let best: TypeHint | undefined;
    for (const h of candidates) {
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
  fieldValue(type: DefRef, field: string, depth: number, seen = new Set<string>()): DefRef[] {
    if (depth > MAX_DEPTH) return this.cutOff([]);
    if (seen.has(type.node.id)) return [];
    seen.add(type.node.id);
    const ts = this.scopes.get(type.file.path);
    if (!ts) return [];
    const hint = this.fieldHintOf(ts, type, field);
    if (hint) return hint.expr ? this.functionsOf(ts, hint.scope, hint.expr, depth + 1) : [];
    // Declared in a base (`Base.prototype.push = push`, `self.cb = ..` in a base's method).
    for (const base of this.basesOf(type)) {
      const value = this.fieldValue(base, field, depth + 1, seen);
      if (value.length) return value;
    }
    return [];
  }

  /** Functions passed for a parameter of an enclosing definition (`run(step)`: fn is step). */
  parameterValues(scope: FileScope, from: number, name: string): DefRef[] {
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      const def = scope.refs[at];
      if (def.def.paramNames?.includes(name)) {
        return this.paramValues.get(`${def.node.id}\0${name}`) ?? [];
      }
    }
    return [];
  }

  /** Functions a local variable holds (`f = make()`, `g = other`). */
  valueOfVariable(scope: FileScope, from: number, name: string, depth: number): DefRef[] {
    const found = this.hintFor(scope, from, name);
    if (!found?.hint.expr || found.hint.expr === name) return [];
    return this.functionsOf(found.owner, found.hint.scope, found.hint.expr, depth + 1);
  }

  /** An expression that denotes a function (a name, `obj.method`), never a call's result. */
  functionsOf(scope: FileScope, from: number, expr: string, depth: number): DefRef[] {
    if (depth > MAX_DEPTH) return this.cutOff([]);
    // `make()`: the function `make` returns (`return inner`).
    const made = expr.match(/^([\w$.]+)\(\)$/);
    if (made) {
      const dot = lastDot(made[1]);
      const maker = this.resolveCall(scope, from, {
        name: dot < 0 ? made[1] : made[1].slice(dot + 1),
        receiver: dot < 0 ? undefined : made[1].slice(0, dot),
        args: 0,
      }, depth + 1)?.refs[0];
      const returned = maker?.def.returnsValue;
      if (!maker || !returned || isType(maker)) return [];
      const ms = this.scopes.get(maker.file.path)!;
      return this.functionsOf(ms, maker.index, returned, depth + 1);
    }
    if (/[()[\]{}\s]/.test(expr)) return [];
    const dot = lastDot(expr);
    const name = dot < 0 ? expr : expr.slice(dot + 1);
    const receiver = dot < 0 ? undefined : expr.slice(0, dot);
    if (!/^[\w$#]+$/.test(name)) return [];
    const found = this.resolveCall(scope, from, { name, receiver }, depth + 1);
    if (!found || found.confidence < CONF_TYPED) return [];
    return found.refs.filter((r) => !isType(r));
  }

  /**
   * Whether a bare name at a place is a parameter or local variable of an enclosing definition,
   * nearer than any definition of that name.
   */
  isLocal(scope: FileScope, from: number, name: string): boolean {
    if (!this.structureKnown) return this.isLocalUncached(scope, from, name);
    let local = this.localCache.get(scope.facts.path, from, name);
    if (local === undefined) {
      local = this.isLocalUncached(scope, from, name);
      this.localCache.set(scope.facts.path, from, name, local);
    }
    return local;
  }

  isLocalUncached(scope: FileScope, from: number, name: string): boolean {
    // Whether the innermost hint is declared right there needs no ranking by line: any hint of
    // that scope is the innermost.
    const hints = this.hintsOf(scope).get(name);
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      if (scope.children.get(at)?.has(name)) return false;
      const def = scope.refs[at].def;
      if (def.paramNames?.includes(name)) return true;
      if (hints?.length) {
        if (hints.some((h) => h.scope === at)) return true;
      } else {
        const local = this.hintFor(scope, at, name);
        if (local?.owner === scope && local.hint.scope === at) return true;
      }
      if (TYPE_KINDS.has(def.kind)) return false;
    }
    return false;
  }

  /** The hint that types a variable at a place: innermost scope, declared types first. */
  hintFor(
    scope: FileScope,
    from: number,
    variable: string,
  ): { hint: TypeHint; owner: FileScope } | undefined {
    const hints = this.hintsOf(scope).get(variable);
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
      // Innermost scope first; in one scope the latest assignment before the call (a closure's
      // parameter of the same name further down does not retype it), then a declared type.
      const here = scope.facts.path === this.lineFile;
      const rank = (x: TypeHint) =>
        x.line === undefined || !this.line || !here
          ? 0
          : x.line < this.line
          ? 2 + x.line / 1e7
          : x.line === this.line
          ? 1
          : 0;
      if (best && d === best.depth && rank(h) !== rank(best.hint)) this.lineSensitive = true;
      const better = !best || d > best.depth ||
        (d === best.depth && rank(h) > rank(best.hint)) ||
        (d === best.depth && rank(h) === rank(best.hint) && h.type && !best.hint.type);
      if (better) best = { depth: d, hint: h };
    }
    if (!best && type) return this.fieldHint(scope, variable, type);
    return best ? { hint: best.hint, owner: scope } : undefined;
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
}
