/**
 * The library generic types a repository type extends, with the type arguments its inheritance
 * gives them (`Elements extends Nodes<Element>`, `Nodes<T> extends ArrayList<T>`: an
 * `ArrayList<Element>`), so a library method that returns an element (LanguageSpec.elementReturns)
 * types its result.
 */
import type { DefRef, FileScope } from "./model.ts";
import { isType } from "./refs.ts";
import { splitArgs } from "./text.ts";
import { Scopes } from "./scopes.ts";

/** A type argument as written, and where (the scope its names are read in). */
export interface WrittenArg {
  text: string;
  scope: FileScope;
  from: number;
}

/** A generic type from outside the repository, with its arguments. */
export interface OutsideGeneric {
  name: string;
  args: WrittenArg[];
}

/** How many types of a hierarchy are followed up to its library bases. */
const MAX_TYPES = 12;

export abstract class Generics extends Scopes {
  /** The outside generic bases of a repository type, nearest first, arguments substituted. */
  outsideGenericBases(type: DefRef): OutsideGeneric[] {
    const out: OutsideGeneric[] = [];
    const seen = new Set<string>([type.node.id]);
    const todo: [DefRef, Map<string, WrittenArg>][] = [[type, new Map()]];
    while (todo.length && seen.size <= MAX_TYPES) {
      const [t, bound] = todo.shift()!;
      for (const part of this.partsOf(t)) {
        const ps = this.scopes.get(part.file.path);
        if (!ps) continue;
        for (const h of part.file.inherits) {
          if (h.from !== part.index) continue;
          const generic = h.name.match(/^([^<]*)<([\s\S]*)>$/);
          const args = generic
            ? splitArgs(generic[2]).map((a) =>
              bound.get(a.trim()) ?? { text: a.trim(), scope: ps, from: part.index }
            )
            : [];
          const base = this.resolveTypeRef(ps, part.def.parent, h.name).filter(isType)[0];
          if (!base) {
            if (args.length) out.push({ name: generic![1].trim(), args });
            continue;
          }
          if (seen.has(base.node.id)) continue;
          seen.add(base.node.id);
          const params = base.def.typeParams ?? [];
          todo.push([base, new Map(params.flatMap((p, i) => (args[i] ? [[p, args[i]]] : [])))]);
        }
      }
    }
    return out;
  }
}
