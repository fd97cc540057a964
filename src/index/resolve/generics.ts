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

/** A base as a part of a type writes it (`extends Nodes<Element>`). */
export interface WrittenBase {
  /** The part of the type that names the base, and its file's scope. */
  part: DefRef;
  scope: FileScope;
  /** The base as written, its name without type arguments, and those arguments. */
  written: string;
  head: string;
  args: string[];
}

export abstract class Generics extends Scopes {
  /** The bases each part of a type names, as written, with their type arguments. */
  basesWritten(type: DefRef): WrittenBase[] {
    const out: WrittenBase[] = [];
    for (const part of this.partsOf(type)) {
      const scope = this.scopes.get(part.file.path);
      if (!scope) continue;
      for (const h of part.file.inherits) {
        if (h.from !== part.index) continue;
        const generic = h.name.match(/^([^<]*)<([\s\S]*)>$/);
        out.push({
          part,
          scope,
          written: h.name,
          head: generic ? generic[1].trim() : h.name,
          args: generic ? splitArgs(generic[2]) : [],
        });
      }
    }
    return out;
  }

  /** The outside generic bases of a repository type, nearest first, arguments substituted. */
  outsideGenericBases(type: DefRef): OutsideGeneric[] {
    const out: OutsideGeneric[] = [];
    const seen = new Set<string>([type.node.id]);
    const todo: [DefRef, Map<string, WrittenArg>][] = [[type, new Map()]];
    while (todo.length && seen.size <= MAX_TYPES) {
      const [t, bound] = todo.shift()!;
      for (const b of this.basesWritten(t)) {
        const args = b.args.map((a) =>
          bound.get(a.trim()) ?? { text: a.trim(), scope: b.scope, from: b.part.index }
        );
        const base = this.resolveTypeRef(b.scope, b.part.def.parent, b.written).filter(isType)[0];
        if (!base) {
          if (args.length) out.push({ name: b.head, args });
          continue;
        }
        if (seen.has(base.node.id)) continue;
        seen.add(base.node.id);
        const params = base.def.typeParams ?? [];
        todo.push([base, new Map(params.flatMap((p, i) => (args[i] ? [[p, args[i]]] : [])))]);
      }
    }
    return out;
  }
}
