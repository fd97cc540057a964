/**
 * JSDoc types, which the TypeScript checker reads in JavaScript files (`allowJs`): a function's
 * `@param {Suite[]} suites` and `@returns {Runner}`, and `@typedef {import('../mocha.cjs')} Mocha`,
 * a type-only import of a module's value.
 */
import type { ImportFact } from "../../graph/facts.ts";

/** What a function's doc comment says of its parameters' and result's types. */
export interface DocTypes {
  params: Record<string, string>;
  returns?: string;
}

/** The `{...}` after a tag, its braces balanced (`{Object<string, Array<Suite>>}`). */
function braced(text: string, at: number): { type: string; end: number } | undefined {
  const open = text.indexOf("{", at);
  if (open < 0 || text.slice(at, open).trim()) return undefined;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) {
      return { type: text.slice(open + 1, i).trim(), end: i + 1 };
    }
  }
  return undefined;
}

/** A JSDoc type as a type name the resolver reads (`?Foo`, `Foo=`, `!Foo` -> `Foo`). */
function typeText(type: string): string {
  return type.replace(/^[?!]|[=]$/g, "").replace(/^\.\.\./, "").trim();
}

/** `@param {T} name` and `@returns {T}` of a doc comment (its text as written). */
export function jsdocTypes(comment: string): DocTypes | undefined {
  if (!comment.includes("@")) return undefined;
  const params: Record<string, string> = {};
  let returns: string | undefined;
  for (const m of comment.matchAll(/@(param|arg|argument|returns?)\b/g)) {
    const tag = m[1];
    const t = braced(comment, m.index! + m[0].length);
    if (!t) continue;
    if (tag.startsWith("return")) {
      returns ??= typeText(t.type);
      continue;
    }
    // `[name]` and `[name=default]` are optional parameters; `opts.key` documents a field.
    const name = comment.slice(t.end).match(/^\s*\[?\s*([A-Za-z_$][\w$]*)(?=[\s\]=]|$)/)?.[1];
    if (name && !(name in params)) params[name] = typeText(t.type);
  }
  return Object.keys(params).length || returns
    ? { params, ...(returns ? { returns } : {}) }
    : undefined;
}

/**
 * `@typedef {import('./x')} X` (the module's value, as `const X = require('./x')` binds it) and
 * `@typedef {import('./x').Y} Y` (its export `Y`): type-only imports, at the comment's line.
 */
export function jsdocImports(comment: string, line: number): ImportFact[] {
  const out: ImportFact[] = [];
  const typedef =
    /@typedef\s*\{\s*import\(\s*(['"])([^'"]+)\1\s*\)(?:\.([A-Za-z_$][\w$]*))?\s*\}\s*([A-Za-z_$][\w$]*)/g;
  for (const m of comment.matchAll(typedef)) {
    const [, , source, name, alias] = m;
    const at = line + (comment.slice(0, m.index).match(/\n/g)?.length ?? 0);
    out.push({ source, ...(name ? { name } : {}), alias, typeOnly: true, line: at });
  }
  return out;
}
