import { type Edge, fileId } from "../../graph/model.ts";
import {
  type CallShape,
  CONF_SCOPE,
  CONF_TYPED,
  CONF_UNIQUE_METHOD,
  type DefRef,
  type FileScope,
  type Found,
  MAX_DEPTH,
} from "./model.ts";
import {
  atLevel,
  callable,
  distinct,
  inClassMethod,
  isCallable,
  isType,
  sameSymbol,
} from "./refs.ts";
import { isSuperCall } from "./text.ts";
import { bareNameCalls } from "./structure.ts";
import { fitsArity, OverloadChoice } from "./overload_choice.ts";
import { chooseOverload } from "./overloads.ts";

/** Calls: receivers, constructors, overloads, function values; the edges of every file. */
export class Resolver extends OverloadChoice {
  // ---- calls ----------------------------------------------------------------------------------
  callEdges(scope: FileScope): Edge[] {
    // One edge per (type, from, to), in the order first found. Keyed by the ids themselves (a
    // string keeps its hash; a key joined from them would be hashed anew at every call).
    const edges: Edge[] = [];
    const byPair = {
      CALLS: new Map<string, Map<string, Edge>>(),
      INSTANTIATES: new Map<string, Map<string, Edge>>(),
    };
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
      let fromHere = byPair[type].get(fromId);
      if (!fromHere) byPair[type].set(fromId, fromHere = new Map());
      const prev = fromHere.get(to.node.id);
      if (prev) {
        prev.count = (prev.count ?? 1) + 1;
        prev.confidence = Math.max(prev.confidence ?? 0, confidence);
        if (!via) delete prev.via;
      } else {
        const edge: Edge = {
          type,
          from: fromId,
          fromFile: from < 0 || undefined,
          to: to.node.id,
          line,
          count: 1,
          confidence,
          ...(via ? { via } : {}),
        };
        fromHere.set(to.node.id, edge);
        edges.push(edge);
      }
    };
    for (const call of scope.facts.calls) {
      // A macro's body runs where the macro is used: its calls are its users'.
      if (call.from >= 0 && scope.facts.defs[call.from]?.macro) continue;
      this.line = call.line;
      this.lineFile = scope.facts.path;
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
        if (target.def.macro) {
          for (const t of this.macroTargets(target, 0)) {
            add("CALLS", call.from, t, call.line, Math.min(found.confidence, CONF_TYPED));
          }
          continue;
        }
        if (!isType(target)) {
          add("CALLS", call.from, target, call.line, found.confidence, found.via);
          continue;
        }
        // `Foo(x)` where Foo's companion declares `operator fun invoke(x)` (Kotlin): the
        // companion's factory runs, chosen by the arguments, and it makes the object.
        const invoke = call.delegate ? [] : this.companionInvoke(scope, call.from, target, call);
        if (invoke.length) {
          for (const f of invoke) add("CALLS", call.from, f, call.line, found.confidence);
          continue;
        }
        // A type called: the object is created (unless `super(...)`/`this(...)` delegates) and
        // the constructor that runs is called, when the repository defines one.
        if (!call.delegate) add("INSTANTIATES", call.from, target, call.line, found.confidence);
        const ctors = this.constructorsOf(scope, call.from, target, call);
        for (const ctor of ctors) add("CALLS", call.from, ctor, call.line, found.confidence);
        if (!ctors.length && this.scopes.get(target.file.path)?.spec.primaryConstructor) {
          add("CALLS", call.from, target, call.line, found.confidence);
        }
      }
    }
    return edges;
  }

  /**
   * `a op b` (CallShape.operator): the operator member of a's type that takes b, else a free
   * operator function taking a and b, chosen by both operands' types. A free operator needs an
   * operand of a repository type that its parameter names: an operator is never linked by its
   * name alone (`i == j` on integers calls nothing).
   */
  resolveOperator(
    scope: FileScope,
    from: number,
    call: CallShape,
    depth: number,
  ): Found | undefined {
    // Most operators (`i < n`, `a && b`) are no repository function: nothing to type.
    const fam = this.family(scope.facts.language);
    if (
      !this.methodNames.get(fam)?.has(call.name) && !this.globalNames.get(fam)?.has(call.name)
    ) {
      return undefined;
    }
    // An operator on a pointer is the pointer's own (`p == q`, `*p`, `p[i]`, `p = q`).
    if (this.isPointer(scope, from, call.receiver!)) return undefined;
    const left = this.typeOfExpr(scope, from, call.receiver!, depth + 1);
    if (left.type) {
      const own = this.member(left.type, call.name).filter((r) => r.def.kind === "Method");
      if (own.length) {
        const refs = this.byArgumentTypes(scope, from, own, call);
        return refs.length ? { refs, confidence: CONF_TYPED } : undefined;
      }
    }
    const free = (this.globalNames.get(fam)?.get(call.name) ?? []).filter((r) =>
      r.def.kind === "Function"
    );
    if (!free.length) return undefined;
    const leftType = left.type?.def.name ?? left.name ?? "";
    const shape: CallShape = {
      name: call.name,
      args: (call.args ?? 0) + 1,
      argTypes: [leftType, ...(call.argTypes ?? new Array(call.args ?? 0).fill(""))],
    };
    // Evidence first: without an operand of a repository type no free operator is chosen, and
    // scoring every overload (a test framework's hundreds of `operator<<`) is skipped.
    const operandTypes = shape.argTypes!.map((a) =>
      a.startsWith("=") ? this.typeOfExpr(scope, from, a.slice(1), depth + 1).type : undefined
    );
    operandTypes[0] = left.type;
    if (!operandTypes.some(Boolean)) return undefined;
    // Only overloads whose parameter names a typed operand's type (or a base, or a template
    // parameter) can have the evidence below: the others are not scored at all.
    const names = operandTypes.map((t) =>
      t ? new Set([t, ...this.ancestors(t)].map((a) => a.def.name)) : undefined
    );
    const plausible = free.filter((r) =>
      names.some((n, i) => {
        const pt = r.def.paramTypes?.[i]?.replace(/&&$/, "");
        return !!n && !!pt && (n.has(pt) || r.def.typeParams?.includes(pt) === true);
      })
    );
    if (!plausible.length) return undefined;
    const chosen = this.byArgumentTypes(scope, from, plausible, shape);
    if (!chosen.length || !sameSymbol(chosen)) return undefined;
    const evidence = chosen.every((r) =>
      operandTypes.some((t, i) => {
        const pt = r.def.paramTypes?.[i]?.replace(/&&$/, "");
        if (!t || !pt) return false;
        const ts = this.scopes.get(r.file.path)!;
        const p = this.resolveTypeRef(ts, r.def.parent, pt).filter(isType)[0];
        return p !== undefined && this.isSubtype(t, p);
      })
    );
    return evidence ? { refs: chosen, confidence: CONF_TYPED } : undefined;
  }

  /** What each function-like macro's body calls, resolved once. */
  readonly macroCache = new Map<string, DefRef[]>();

  /** What a function-like macro's body calls (through the macros it uses). */
  macroTargets(macro: DefRef, depth: number): DefRef[] {
    const cached = this.macroCache.get(macro.node.id);
    if (cached) return cached;
    this.macroCache.set(macro.node.id, []);
    const ms = this.scopes.get(macro.file.path);
    const out: DefRef[] = [];
    if (ms && depth < 6) {
      const [line, lineFile] = [this.line, this.lineFile];
      for (const c of ms.facts.calls) {
        if (c.from !== macro.index) continue;
        this.line = c.line;
        this.lineFile = ms.facts.path;
        let found: Found | undefined;
        try {
          found = this.resolveCall(ms, c.from, c, 0);
        } catch {
          found = undefined;
        }
        for (const t of found?.refs ?? []) {
          if (t.def.macro) out.push(...this.macroTargets(t, depth + 1));
          else if (!isType(t)) out.push(t);
          else if (!c.delegate) out.push(...this.constructorsOf(ms, c.from, t, c));
        }
      }
      [this.line, this.lineFile] = [line, lineFile];
    }
    const result = distinct(out);
    this.macroCache.set(macro.node.id, result);
    return result;
  }

  /**
   * Functions passed as arguments (`run(step)`): what each repository function's parameters may
   * hold, so `fn()` inside `run` reaches `step`. Every file's calls with a bare-name argument are
   * read, whatever `only` says: a parameter's values come from callers anywhere.
   */
  bindArguments(): void {
    if (![...this.scopes.values()].some((s) => s.spec.bareFunctionValues !== false)) return;
    // Only names some definition has can be functions passed by name.
    const names = [...this.globalNames.values(), ...this.methodNames.values()];
    const defined = { has: (name: string) => names.some((byName) => byName.has(name)) };
    // Only files passing such a name have calls to read (in path order, as every file would be).
    const passing = new Set<string>();
    for (const [name, files] of this.structure.bareArgs) {
      if (defined.has(name)) files.forEach((p) => passing.add(p));
    }
    for (const scope of this.scopes.values()) {
      // Where a function is passed by its bare name (not Java's this::m or Kotlin's ::m).
      if (scope.spec.bareFunctionValues === false || !passing.has(scope.facts.path)) continue;
      for (const call of bareNameCalls(scope.facts)) {
        const argTypes = call.argTypes!;
        if (!argTypes.some((a) => /^=[\w$]+$/.test(a) && defined.has(a.slice(1)))) continue;
        this.line = call.line;
        this.lineFile = scope.facts.path;
        // The arguments that are functions first: most bare names passed are plain values, and
        // resolving them is cheaper than resolving the call.
        let values: DefRef[][];
        let found: Found | undefined;
        try {
          values = argTypes.map((a) =>
            /^=[\w$]+$/.test(a) && defined.has(a.slice(1))
              ? this.functionsOf(scope, call.from, a.slice(1), 1)
              : []
          );
          if (!values.some((fns) => fns.length)) continue;
          found = this.resolveCall(scope, call.from, call, 0);
        } catch {
          continue;
        }
        const target = found?.refs.length === 1 ? found.refs[0] : undefined;
        const names = target?.def.paramNames;
        if (!target || !names || isType(target)) continue;
        values.forEach((fns, i) => {
          if (!fns.length || !names[i]) return;
          const key = `${target.node.id}\0${names[i]}`;
          const list = this.paramValues.get(key) ?? [];
          for (const f of fns) if (!list.includes(f)) list.push(f);
          this.paramValues.set(key, list);
        });
      }
    }
  }

  /**
   * The class-level `invoke` a call of a type name runs instead of a constructor
   * (LanguageSpec.invokeOperator: a Kotlin companion's `operator fun invoke`), when the arguments
   * choose one.
   */
  companionInvoke(scope: FileScope, from: number, type: DefRef, call: CallShape): DefRef[] {
    const name = this.scopes.get(type.file.path)?.spec.invokeOperator;
    if (!name || !scope.spec.invokeOperator) return [];
    // Inside the class (its companion too) its constructors are visible and come first: the
    // companion's invoke stands in for a constructor only outside it.
    for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
      if (scope.refs[at].node.id === type.node.id) return [];
    }
    const own = (this.members.get(type.node.id)?.get(name) ?? []).filter((r) =>
      r.def.static && /\boperator\b/.test(r.def.signature)
    );
    if (!own.length) return [];
    const chosen = this.byArgumentTypes(scope, from, own, { ...call, name, isNew: undefined });
    return chosen.length === 1 ? chosen : [];
  }

  /** The constructor a `new T()` runs: T's own (by its arguments), else an inherited one. */
  constructorsOf(
    scope: FileScope,
    from: number,
    type: DefRef,
    call: CallShape,
    depth = 0,
  ): DefRef[] {
    if (depth > MAX_DEPTH) return this.cutOff([]);
    if (type.def.kind === "Module") return [];
    const spec = this.scopes.get(type.file.path)?.spec;
    const own = (spec?.constructorNames ?? []).flatMap((n) =>
      this.members.get(type.node.id)?.get(n === "<type>" ? type.def.name : n) ?? []
    ).filter((r) => r.def.kind === "Method" || r.def.kind === "Function");
    if (own.length) {
      return own.length === 1 || !spec?.overloads
        ? chooseOverload(own, call.args)
        : this.byArgumentTypes(scope, from, own, { ...call, typeArgs: undefined });
    }
    // An alias (`using It = iterator_base<T>;`) is made by its target's constructors.
    if (!spec?.inheritsConstructors && !type.def.alias) return [];
    for (const base of this.basesOf(type)) {
      const found = this.constructorsOf(scope, from, base, call, depth + 1);
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
    // Only one name's definitions are an overload set (function values may be several names).
    if (found.via === "value" || found.refs.some((r) => r.def.name !== found.refs[0].def.name)) {
      return found;
    }
    const refs = this.byArgumentTypes(scope, from, found.refs, call);
    if (refs.length) return { ...found, refs };
    const decl = scope.spec.traitDispatch
      ? this.traitDeclaration(found.refs, call.name)
      : undefined;
    return decl ? { refs: [decl], confidence: Math.min(found.confidence, CONF_TYPED) } : undefined;
  }

  /**
   * The type a constructor's `super(...)` (LanguageSpec.superNames) or `this(...)` (selfNames)
   * constructs: the enclosing class's base class, or the class itself; undefined for a call
   * that names its type (Kotlin, C# write it).
   */
  delegateTarget(scope: FileScope, from: number, name: string): DefRef[] | undefined {
    const spec = scope.spec;
    const isSuper = (spec.superNames ?? []).includes(name);
    if (!isSuper && !spec.selfNames.includes(name)) return undefined;
    const type = this.enclosingType(scope, from);
    if (!type) return [];
    if (!isSuper) return [type];
    return this.basesOf(type).filter((b) => b.def.kind === "Class").slice(0, 1);
  }

  resolveCallRaw(
    scope: FileScope,
    from: number,
    call: CallShape,
    depth: number,
  ): Found | undefined {
    const spec = scope.spec;
    const { name, receiver } = call;
    if (call.operator) return this.resolveOperator(scope, from, call, depth);
    if (call.isNew) {
      // `super(...)` / `this(...)` in a constructor: the base's or the own type's constructor.
      if (call.delegate && !receiver) {
        const target = this.delegateTarget(scope, from, name);
        if (target) return target.length ? { refs: target, confidence: CONF_SCOPE } : undefined;
      }
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
      // `cls(...)` in a class method constructs the class.
      if (spec.selfNames.includes(name) && !spec.implicitThis) {
        const type = this.enclosingType(scope, from);
        return type ? { refs: [type], confidence: CONF_SCOPE } : undefined;
      }
      // A parameter or local variable of that name shadows every definition: only a function
      // value it holds is called.
      if (this.isLocal(scope, from, name)) {
        const held = distinct([
          ...this.valueOfVariable(scope, from, name, depth),
          ...this.parameterValues(scope, from, name),
        ]);
        return held.length ? { refs: held, confidence: CONF_TYPED, via: "value" } : undefined;
      }
      // Inside `x.apply { m() }`: x's members and extensions come before the enclosing class's.
      if (call.implicit) {
        const onValue = this.resolveCallRaw(scope, from, {
          ...call,
          receiver: call.implicit,
          method: true,
          implicit: undefined,
        }, depth + 1);
        if (onValue?.refs.length && onValue.confidence >= CONF_TYPED && !onValue.via) {
          return onValue;
        }
      }
      if (spec.implicitThis) {
        const type = this.enclosingType(scope, from);
        if (type) {
          const own = atLevel(this.member(type, name), inClassMethod(scope, from));
          if (own.length) return { refs: callable(own), confidence: CONF_SCOPE };
        }
      }
      // A bare call right in a class body is a DSL or macro call (`has_many`, `option`): a
      // repository-wide unique name proves nothing there.
      const inClassBody = from >= 0 && isType(scope.refs[from]);
      const found = this.lookup(
        scope,
        from,
        name,
        isCallable,
        spec.uniqueBareNames !== false && !inClassBody,
      );
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
      // Inside an extension (`fun RawOption.double() = convert { ... }`): the receiver's members
      // and extensions, where its type is no repository type the extension is a member of.
      const enclosing = spec.implicitThis ? this.enclosingType(scope, from) : undefined;
      const implicit = this.extensionReceiver(scope, from) ??
        (enclosing ? { type: enclosing } : undefined);
      if (implicit) {
        const own = implicit.type ? this.member(implicit.type, name) : [];
        if (own.length) return { refs: callable(own), confidence: CONF_TYPED };
        const ext = this.extensionCall(scope, from, call, implicit);
        if (ext.length) return { refs: ext, confidence: CONF_TYPED };
      }
      // `f = make_handler(); f()`, `g = other`: a local holding a function.
      const value = this.valueOfVariable(scope, from, name, depth);
      return value.length ? { refs: value, confidence: CONF_TYPED, via: "value" } : undefined;
    }

    // `owner().describe()` inside `repo.run { }`: the receiver may be the value's member.
    if (call.implicit) {
      const plain = this.resolveCallRaw(scope, from, { ...call, implicit: undefined }, depth);
      if (plain?.refs.length && plain.confidence >= CONF_TYPED) return plain;
      const onValue = this.resolveCallRaw(scope, from, {
        ...call,
        receiver: `${call.implicit}.${receiver}`,
        implicit: undefined,
      }, depth + 1);
      return onValue?.refs.length && onValue.confidence >= CONF_TYPED ? onValue : plain;
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
      // `super.m(x)`: the first base that has `m`, all its overloads (the arguments choose).
      const refs = superCall
        ? this.basesOf(type).map((b) => this.member(b, name)).find((m) => m.length) ?? []
        : atLevel(this.member(type, name), inClassMethod(scope, from));
      if (refs.length) return { refs: callable(refs), confidence: CONF_SCOPE };
      if (superCall) return undefined;
      // `self.cb = self.handle` ... `self.cb()`: a field holding a function.
      const value = this.fieldValue(type, name, depth);
      return value.length ? { refs: value, confidence: CONF_TYPED, via: "value" } : undefined;
    }

    // `super::f()` (Rust): the parent module's `f`, unless the call sits in an inline module
    // of this file (there `super` is this file's module, which only the path cannot tell).
    if (spec.parentModule && head === spec.parentModule && /^[\w.]+$/.test(receiver)) {
      let inline = false;
      for (let at = from; at >= 0; at = scope.refs[at].def.parent) {
        if (scope.refs[at].def.kind === "Module") inline = true;
      }
      if (!inline) {
        const source = receiver.split(".").join("::");
        const imp = { source, alias: source, line: 0 };
        const files = spec.resolveImport(
          spec.normalizeImport?.(imp) ?? imp,
          scope.facts.path,
          this.repo,
        );
        const refs = callable(this.exported(files, name, 0));
        if (refs.length) return { refs, confidence: CONF_SCOPE };
      }
    }

    // Module, namespace and type qualifiers, and imported symbols: `pkg.f()`, `Type.m()`.
    if (
      // A value receiver (`x.m()`) is no qualifier, unless it names a type (a unit struct).
      (!call.method || spec.typeNames?.test(head)) && !spec.selfNames.includes(head) &&
      !/[()[\]]/.test(receiver) &&
      !this.isLocal(scope, from, head)
    ) {
      const qualified = this.memberOfQualifier(scope, from, receiver, name);
      // A member reached through each part of an open type (`SqlMapper.Link<..>.TryGet`, the
      // C# partial class in ten files) is one member, not an overload set.
      if (qualified.length) return { refs: callable(distinct(qualified)), confidence: CONF_SCOPE };
    }

    // The receiver's type: declared, constructed, returned by a call, a field's, a cast's.
    const typed = this.typeOfExpr(scope, from, receiver, depth + 1);
    if (typed.type) {
      const refs = atLevel(this.member(typed.type, name, 0, new Set(), true), false);
      // A member the arguments fit wins; else an extension may (C#, Kotlin).
      const extensions = this.extensionsNamed(scope, name).length > 0;
      if (
        refs.some((r) =>
          extensions ? this.applicable(scope, from, r, call) : fitsArity(r, call.args)
        )
      ) {
        return { refs: callable(refs), confidence: CONF_TYPED };
      }
      const ext = this.extensionCall(scope, from, call, typed);
      if (ext.length) return { refs: ext, confidence: CONF_TYPED };
      if (refs.length) return { refs: callable(refs), confidence: CONF_TYPED };
      const value = this.fieldValue(typed.type, name, depth);
      if (value.length) return { refs: value, confidence: CONF_TYPED, via: "value" };
      // Known type, unknown member: a blanket trait's method, an external base, or a miss.
      return this.extensionMethod(scope, from, call, typed);
    }
    // A type from outside the repository (or a bound `impl Rng`): only the repository's
    // extensions of it (C#, Kotlin) and blanket traits' methods (Rust).
    if (typed.known) {
      const ext = this.extensionCall(scope, from, call, typed);
      if (ext.length) return { refs: ext, confidence: CONF_TYPED };
      return this.extensionMethod(scope, from, call, typed);
    }
    if (!spec.typeNames?.test(receiver)) {
      const ext = this.extensionMethod(scope, from, call, typed);
      if (ext) return ext;
    }

    // Last resort: a method name defined exactly once in the repository, and not a common one.
    // A receiver named like a type that we could not resolve is a type from outside
    // (`Math.Round`): how a type's name looks is the language's (LanguageSpec.typeNames).
    // (`RSpec::Matchers.define`: a path of type names is a type's too.)
    const segs = receiver.split(".").filter(Boolean);
    const typePath = segs.length > 0 && segs.every((seg) => spec.typeNames?.test(seg));
    if (spec.commonMethods?.includes(name) || typePath) return undefined;
    // `time.Now()`, `np.array()`: the receiver is an import that resolved outside the repository.
    if (this.fromOutside(scope, from, head, 0)) return undefined;
    const methods = this.methodNames.get(this.family(scope.facts.language))?.get(name) ?? [];
    if (methods.length === 1 && name.length > 2) {
      if (methods[0].file === scope.facts && methods[0].index === from) return undefined;
      // Code outside tests never calls a test's method: a guess into a test file needs a test.
      const tests = spec.testFiles;
      if (tests?.test(methods[0].file.path) && !tests.test(scope.facts.path)) return undefined;
      // Nor does it reach what the build keeps from the file (another module's tests).
      if (!this.guessReaches(scope, methods)) return undefined;
      return { refs: methods, confidence: CONF_UNIQUE_METHOD };
    }
    return undefined;
  }
}

/** CALLS and IMPORTS start at the owning file's own nodes: never stated by another file. */
export function isFinal(e: Edge): boolean {
  return e.type === "CALLS" || e.type === "IMPORTS";
}
