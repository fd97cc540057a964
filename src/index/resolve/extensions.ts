import {
  type CallShape,
  CONF_TYPED,
  CONF_UNIQUE_METHOD,
  type DefRef,
  type FileScope,
  type Found,
  type TypeOf,
} from "./model.ts";
import { callable, distinct, isType } from "./refs.ts";
import { Types } from "./types.ts";

/**
 * Methods a value has without its type declaring them: blanket extension traits (`impl<R: Rng +
 * ?Sized> RngExt for R`) and the trait a generic trait's impls dispatch through.
 */
export abstract class Extensions extends Types {
  /**
   * `x.m()` where x's type has no `m` of its own: the method of a blanket trait in scope at the
   * call (a trait's method is callable only where the trait is). Certain when the value's type is
   * the blanket's bound (`rng: impl Rng`, `R: Rng`); otherwise only when every repository method
   * of that name that fits the call is such a method, and there is one.
   */
  extensionMethod(
    scope: FileScope,
    from: number,
    call: CallShape,
    typed: TypeOf,
  ): Found | undefined {
    this.progressRead = true;
    if (!this.blankets.length) return undefined;
    const { name, args } = call;
    const fits = (r: DefRef) => {
      const p = r.def.params;
      return args === undefined || !p || (args >= p[0] && (p[1] < 0 || args <= p[1]));
    };
    const visible = new Map<string, boolean>();
    const inScope = (t: DefRef) => {
      let v = visible.get(t.node.id);
      if (v === undefined) {
        v = this.lookup(scope, from, t.def.name, isType, false).refs.some((r) =>
          r.node.id === t.node.id
        );
        visible.set(t.node.id, v);
      }
      return v;
    };
    const typeName = typed.type?.def.name ?? typed.name;
    const bases = typed.type ? this.basesOf(typed.type).map((b) => b.def.name) : [];
    const meets = (bound: string) =>
      bound === "" || (typeName !== undefined && (bound === typeName || bases.includes(bound)));
    const matched: DefRef[] = [];
    const plausible: DefRef[] = [];
    for (const b of this.blankets) {
      const methods = (this.members.get(b.trait.node.id)?.get(name) ?? []).filter(fits);
      if (!methods.length || !inScope(b.trait)) continue;
      (meets(b.bound) ? matched : plausible).push(...methods);
    }
    const sure = distinct(matched);
    if (sure.length === 1) return { refs: callable(sure), confidence: CONF_TYPED };
    if (sure.length > 1) return undefined;
    const maybe = distinct(plausible);
    // A common name (`map`, `iter`) on a value of unknown type is most likely the library's.
    if (maybe.length !== 1 || scope.spec.commonMethods?.includes(name)) return undefined;
    // Any other method of that name the call could mean (an impl of another trait, an inherent
    // method) leaves the receiver's type to decide, which is unknown here.
    const fam = this.family(scope.facts.language);
    // A type from outside the repository has no repository method but those of traits in scope.
    const external = !typed.type && typed.known === true;
    const inScopeTrait = (r: DefRef) => {
      const parent = r.def.parent >= 0
        ? this.scopes.get(r.file.path)?.refs[r.def.parent]
        : undefined;
      return parent?.def.kind === "Trait" && inScope(parent);
    };
    const others = (this.methodNames.get(fam)?.get(name) ?? []).filter((r) =>
      fits(r) && r.node.id !== maybe[0].node.id && (!external || inScopeTrait(r))
    );
    return others.length ? undefined : { refs: maybe, confidence: CONF_UNIQUE_METHOD };
  }

  /**
   * Same-named methods of one type that the call's arguments cannot tell apart, all from impls of
   * one generic trait (`impl Distribution<u8> for S`, `impl Distribution<u16> for S`): the call
   * dispatches through that trait's method, the one definition it certainly reaches.
   */
  traitDeclaration(refs: DefRef[], name: string): DefRef | undefined {
    this.progressRead = true;
    const owners = distinct(refs.map((r) => this.ownerType.get(r.node.id)).filter((o) => !!o));
    if (owners.length !== 1 || refs.some((r) => !this.ownerType.has(r.node.id))) return undefined;
    const decls = distinct(
      this.basesOf(owners[0]!).filter((b) => b.def.kind === "Trait").flatMap((b) =>
        this.members.get(b.node.id)?.get(name) ?? []
      ),
    );
    return decls.length === 1 ? decls[0] : undefined;
  }

  /**
   * Whether a receiver's head is an import that resolved outside the repository (`time.Now()`),
   * or a local whose value is made through a path from one (`let out =
   * Command::new(..).output()?; out.status.success()`): its methods are that library's, never a repository method by name.
   */
  fromOutside(scope: FileScope, from: number, head: string, depth: number): boolean {
    const bound = this.bindingsOf(scope).get(head);
    if (bound?.length) return bound.every((b) => b.files.length === 0);
    if (depth > 2) return false;
    const expr = this.hintFor(scope, from, head)?.hint.expr;
    const path = expr?.match(/^([a-z_$][\w$]*)\s*::/)?.[1];
    // `std::process::Command::new(..)`: a path whose root is no module of the repository.
    if (path && !this.bindingsOf(scope).has(path)) {
      const imp = { source: path, line: 0 };
      return !scope.spec.resolveImport(imp, scope.facts.path, this.repo).length;
    }
    // `Command::new(..)...`: made by a path into an external library (a module's function, as
    // Python's `copy.copy(self)`, may return anything, so `a.f()` is not followed).
    const root = expr?.match(/^([A-Za-z_$][\w$]*)\s*::/)?.[1];
    return root !== undefined && root !== head && this.fromOutside(scope, from, root, depth + 1);
  }
}
