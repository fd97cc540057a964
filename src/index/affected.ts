/**
 * Which files an edit can change the resolution of, so an incremental run re-resolves those and
 * not the whole repository. Resolution looks names up (scopes, imports, packages, unique names,
 * members): a file is affected when it mentions a name whose definitions changed, or when its edges
 * touched a changed file. Edits that change more than names (files added or removed, a package
 * moved, inheritance rewired) answer `undefined`: resolve everything.
 */
import type { FileFacts } from "../graph/facts.ts";

const mentionsCache = new WeakMap<FileFacts, Set<string>>();

/** Every name a file's resolution may look up. */
function mentions(f: FileFacts): Set<string> {
  let names = mentionsCache.get(f);
  if (names) return names;
  names = new Set<string>();
  const add = (text: string | undefined) => {
    if (!text) return;
    for (const part of text.split(/[^\p{L}\p{N}_$@!?]+/u)) if (part) names!.add(part);
  };
  for (const c of f.calls) {
    add(c.name);
    add(c.receiver);
  }
  for (const h of f.hints) {
    add(h.type);
    add(h.expr);
    add(h.field);
    for (const a of h.typeArgs ?? []) add(a);
    add(h.variable);
  }
  for (const c of f.calls) for (const a of c.argTypes ?? []) add(a);
  for (const i of f.inherits) {
    add(i.name);
    add(i.ownerName);
  }
  for (const i of f.imports) {
    add(i.name);
    add(i.alias);
    add(i.source);
  }
  for (const d of f.defs) add(d.owner);
  mentionsCache.set(f, names);
  return names;
}

/** Per name: what the file defines under it (kind, place, owner), to see which names changed. */
function definitions(f: FileFacts): Map<string, string[]> {
  const out = new Map<string, string[]>();
  f.defs.forEach((d, i) => {
    // A macro's users get what its body calls: the body is part of what the name means.
    const body = d.macro
      ? f.calls.filter((c) => c.from === i).map((c) => `${c.receiver ?? ""}.${c.name}`).join(",")
      : "";
    const parent = d.parent >= 0 ? f.defs[d.parent].local : "";
    const list = out.get(d.name) ?? [];
    // Return and parameter types decide receivers and overloads elsewhere: part of the name.
    list.push(
      `${d.kind}|${d.local}|${parent}|${d.owner ?? ""}|${d.returns ?? ""}|${d.params ?? ""}|` +
        `${d.paramTypes ?? ""}|${d.typeParams ?? ""}|${
          d.typeBounds ? JSON.stringify(d.typeBounds) : ""
        }|` +
        `${d.paramNames ?? ""}|${d.returnsValue ?? ""}|${body}`,
    );
    out.set(d.name, list);
  });
  return out;
}

function differing(a: string[], b: string[]): string[] {
  const sa = new Set(a);
  const sb = new Set(b);
  return [...a.filter((x) => !sb.has(x)), ...b.filter((x) => !sa.has(x))];
}

const flowCache = new WeakMap<
  FileFacts,
  { macros: number[]; hints: { parts: string[]; variables: string[] }[] }
>();

/** What names flow through in a file: its macros, and its hints' words and variables. */
function flowOf(f: FileFacts) {
  let flow = flowCache.get(f);
  if (!flow) {
    flow = {
      macros: f.defs.flatMap((d, i) => (d.macro ? [i] : [])),
      hints: f.hints.map((h) => ({
        parts: `${h.type} ${h.expr ?? ""} ${h.field ?? ""} ${h.typeArgs?.join(" ") ?? ""}`.split(
          /[^\p{L}\p{N}_$@!?]+/u,
        ),
        variables: h.variable.split("."),
      })),
    };
    flowCache.set(f, flow);
  }
  return flow;
}

const definedCache = new WeakMap<FileFacts, Set<string>>();

/** The names a file defines (anything of those names may be passed as a function value). */
function definedNames(f: FileFacts): Set<string> {
  let names = definedCache.get(f);
  if (!names) {
    names = new Set(f.defs.map((d) => d.name));
    definedCache.set(f, names);
  }
  return names;
}

function namesChanged(
  before: FileFacts,
  after: FileFacts,
  defined: (name: string) => boolean,
): Set<string> | undefined {
  if (
    before.module !== after.module || before.package !== after.package ||
    before.language !== after.language
  ) return undefined;
  // Functions passed as arguments bind parameters in other files (`run(step)`): any change to
  // such calls re-resolves everything. Only a bare name some definition has can be a function
  // passed (the resolver binds no other), so calls passing only other names do not count.
  const passing = (f: FileFacts) =>
    f.calls.filter((c) => c.argTypes?.some((a) => /^=[\w$]+$/.test(a) && defined(a.slice(1))))
      .map((c) =>
        `${c.from >= 0 ? f.defs[c.from]?.local : ""}|${c.name}|${c.receiver ?? ""}|${c.argTypes}`
      );
  if (differing(passing(before), passing(after)).length) return undefined;
  const inherits = (f: FileFacts) =>
    f.inherits.map((i) =>
      `${i.from >= 0 ? f.defs[i.from]?.local : i.ownerName}|${i.name}|${i.relation}`
    );
  if (differing(inherits(before), inherits(after)).length) return undefined;
  const changed = new Set<string>();
  const a = definitions(before);
  const b = definitions(after);
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    if (differing(a.get(name) ?? [], b.get(name) ?? []).length) changed.add(name);
  }
  // Type hints at class level are read by other files (`s.store.Save()`), imports are followed by
  // other files (re-exports): their names count as changed when they do.
  const hints = (f: FileFacts) =>
    f.hints.map((h) =>
      `${h.scope}|${h.variable}|${h.type}|${h.expr ?? ""}|${h.field ?? ""}|${h.typeArgs ?? ""}`
    );
  for (const h of differing(hints(before), hints(after))) {
    const variable = h.split("|")[1];
    for (const part of variable.split(".")) changed.add(part);
  }
  const imports = (f: FileFacts) =>
    f.imports.map((i) => `${i.source}|${i.name ?? ""}|${i.alias ?? ""}|${i.wildcard ?? ""}`);
  for (const i of differing(imports(before), imports(after))) {
    const [, name, alias] = i.split("|");
    if (name) changed.add(name);
    if (alias) changed.add(alias);
  }
  return changed;
}

/**
 * Files to re-resolve after `changed` (modified) files went from `before` to `after`; undefined
 * when everything must be. `touched(path)` lists the files a file's stored edges touched;
 * `definedBefore(name)`, when given, whether any file defined the name before the edit (or after:
 * it may say more, never less).
 */
export function affectedFiles(
  before: Map<string, FileFacts>,
  after: Map<string, FileFacts>,
  changed: Set<string>,
  touched: (path: string) => string[],
  definedBefore?: (name: string) => boolean,
  holdsName?: (f: FileFacts, names: ReadonlySet<string>) => boolean | undefined,
): Set<string> | undefined {
  const names = new Set<string>();
  // A file none of whose facts' strings holds one of the names can mention none of them: every
  // word a file mentions is part of one of those strings. `holdsName` answers that without reading
  // the facts, for the files it can (src/index/facts_store.ts: stored facts); the rest are read.
  const mayMention = (f: FileFacts) => holdsName?.(f, names) ?? true;
  // Defined anywhere, before or after the edit (the resolver's own test is narrower). With
  // `definedBefore` (the names of every definition before the edit), after = before with the
  // changed files' new definitions.
  const known = new Map<string, boolean>();
  const defined = (name: string) => {
    let found = known.get(name);
    if (found === undefined && definedBefore) {
      found = definedBefore(name) ||
        [...changed].some((p) => after.has(p) && definedNames(after.get(p)!).has(name));
      known.set(name, found);
    }
    if (found === undefined) {
      // Every name defined before or after, gathered once.
      if (!all) {
        all = new Set<string>();
        for (const facts of [before, after]) {
          for (const f of facts.values()) for (const n of definedNames(f)) all.add(n);
        }
      }
      found = all.has(name);
      known.set(name, found);
    }
    return found;
  };
  let all: Set<string> | undefined;
  for (const path of changed) {
    const a = before.get(path);
    const b = after.get(path);
    if (!a || !b) return undefined; // added or removed: the file set itself changed
    const n = namesChanged(a, b, defined);
    if (!n) return undefined;
    n.forEach((x) => names.add(x));
  }
  // A variable typed from a changed name (`x = make()`, `self.repo = Repo()`) changes type too,
  // wherever it is: its name counts as changed, until nothing more follows.
  for (let grew = names.size > 0, rounds = 0; grew && rounds < 8; rounds++) {
    grew = false;
    for (const facts of after.values()) {
      if (!mayMention(facts)) continue;
      const { macros, hints } = flowOf(facts);
      // A macro whose body calls a changed name changes for every user of the macro.
      for (const i of macros) {
        const d = facts.defs[i];
        if (names.has(d.name)) continue;
        if (
          facts.calls.some((c) =>
            c.from === i && (names.has(c.name) || names.has(c.receiver ?? ""))
          )
        ) {
          names.add(d.name);
          grew = true;
        }
      }
      for (const h of hints) {
        if (!h.parts.some((p) => names.has(p))) continue;
        for (const v of h.variables) {
          if (!names.has(v)) {
            names.add(v);
            grew = true;
          }
        }
      }
    }
  }
  const affected = new Set(changed);
  for (const [path, facts] of after) {
    if (affected.has(path)) continue;
    if (touched(path).some((t) => changed.has(t))) affected.add(path);
    else if (names.size && mayMention(facts)) {
      const m = mentions(facts);
      for (const n of names) {
        if (m.has(n)) {
          affected.add(path);
          break;
        }
      }
    }
  }
  return affected;
}
