/** The analyzer's type hints: what variables hold, where written. */
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "../../lang/spec.ts";
import { type DefFact, TYPE_KINDS, type TypeHint } from "../../graph/facts.ts";
import {
  cleanName,
  compactExpr,
  normalizeReceiver,
  qualifiedType,
  splitTop,
  valueType,
} from "./text.ts";
import type { HintNode } from "./gather.ts";
import { type Locate, withoutBlock } from "./defs.ts";

/** The variables' types (or the expressions they hold), where written. */
export function typeHints(
  spec: LanguageSpec,
  hintNodes: HintNode[],
  defIndexAt: Locate,
  defs: DefFact[],
): TypeHint[] {
  const hints: TypeHint[] = [];
  // A statement a pattern already types (`x = Foo.new`) needs no hint on its value as well.
  const typedAt = new Set(hintNodes.filter((h) => h.type).map((h) => h.at.id));
  for (const h of hintNodes) {
    if (!h.type && typedAt.has(h.at.id)) continue;
    const variable = normalizeReceiver(h.variable.text);
    if (!variable) continue;
    const pointer = spec.pointers === true && h.type !== undefined &&
      holdsPointer(h.at, h.variable, h.type);
    // `var h = (Wrapper<T>)cache.GetOrAdd(...)`: a cast names the type, however long the value.
    const castType = h.value?.type === "cast_expression" ? h.value.childForFieldName("type") : null;
    let type = h.type
      ? declaredType(h.type.text, spec)
      : castType
      ? declaredType(castType.text, spec)
      : "";
    // A pointer to `char` is a C string, as a parameter's type reads (declaratorMark).
    if (pointer && type === "char") type = "char*";
    const value = !type && h.value ? compactExpr(withoutBlock(h.value)) : undefined;
    const field = h.field ? cleanName(h.field.text) : undefined;
    // `const { gen } = cxt`: the variable holds `cxt.gen` (the value parenthesised unless a name
    // or path, so that `(a || b).gen` stays one member read).
    // `for (const u of users)`: the variable holds `users[0]`, an element.
    const base = value && (field || h.element) && !/^[\w$.]+$/.test(value) ? `(${value})` : value;
    const expr = base && field ? `${base}.${field}` : base && h.element ? `${base}[0]` : value;
    if (!type && !expr) continue;
    const typeArgs = h.type && type ? typeArguments(h.type.text, type) : undefined;
    // A field of a type named elsewhere in the file: the hint is the type's, as a field
    // declared in its body is; none when the file defines no such type.
    const scope = h.owner ? ownerIndex(defs, h.owner.text) : defIndexAt(h.at);
    if (scope === undefined) continue;
    hints.push({
      scope,
      // Written as its methods read it (`this.push`): a bare `push` in them is another name.
      variable: h.owner && spec.selfNames.length ? `${spec.selfNames[0]}.${variable}` : variable,
      type,
      ...(expr ? { expr } : {}),
      ...(type && field ? { field } : {}),
      ...(typeArgs ? { typeArgs } : {}),
      line: h.at.startPosition.row + 1,
      ...(pointer ? { pointer: true } : {}),
      ...(spec.pointers &&
          h.at.namedChildren.some((n) => n?.type === "type_qualifier" && n.text === "const")
        ? { constant: true }
        : {}),
    });
  }
  return hints;
}

/** The parameters' types a doc comment states (JSDoc `@param {Suite[]} suites`), as hints. */
export function docHints(
  spec: LanguageSpec,
  docParams: Map<number, Record<string, string>>,
  defs: DefFact[],
): TypeHint[] {
  const hints: TypeHint[] = [];
  for (const [at, params] of docParams) {
    for (const [variable, written] of Object.entries(params)) {
      // Only a parameter the definition has (`@param {string} opts.name` documents a field).
      if (defs[at].paramNames && !defs[at].paramNames!.includes(variable)) continue;
      const type = declaredType(written, spec);
      if (!type) continue;
      const typeArgs = typeArguments(written, type);
      hints.push({
        scope: at,
        variable,
        type,
        ...(typeArgs ? { typeArgs } : {}),
        line: defs[at].line,
      });
    }
  }
  return hints;
}

/**
 * A variable's declared type for member lookup (valueType), keeping the outer types a nested one
 * is written with (`HttpConnection.Response res`: a Response of HttpConnection, not any type named
 * Response); a package prefix is no part of it.
 */
function declaredType(text: string, spec: LanguageSpec): string {
  const bare = valueType(text, spec);
  const written = qualifiedType(text);
  return bare && written.endsWith(`.${bare}`) ? written : bare;
}

/**
 * The type arguments a declared type is written with, when the type read is that generic type
 * itself (`List<User>` read as `List`, Python's `list[User]` as `list`: `User`), not an argument
 * a wrapper gave (`Optional<User>` read as `User`).
 */
function typeArguments(written: string, type: string): string[] | undefined {
  // A quoted annotation (Python's `"List[Admin]"`) is read as written inside its quotes.
  const m = written.trim().replace(/^(["'])([\s\S]*)\1$/, "$2").match(
    /^([\w$.]+)\s*(?:<([\s\S]*)>|\[([\s\S]+)\])\??$/,
  );
  if (!m || !(m[1] === type || m[1].endsWith(`.${type}`))) return undefined;
  const args = splitTop(m[2] ?? m[3], ",").map((a) => a.trim().replace(/^\?\s+extends\s+/, ""));
  return args.every((a) => a && a.length <= 80) ? args : undefined;
}

/** The file-level definition named `name` a field can belong to: a type, else a function. */
function ownerIndex(defs: DefFact[], name: string): number | undefined {
  let found: number | undefined;
  defs.forEach((d, i) => {
    if (d.parent !== -1 || d.name !== name) return;
    if (TYPE_KINDS.has(d.kind)) found ??= i;
    else if (d.kind === "Function" && found === undefined) found = i;
  });
  return found;
}

/**
 * A variable that holds a pointer to a value of its hinted type (C, C++): declared through a
 * pointer declarator (`Foo* p`), or its type is a smart pointer's argument or a `new`
 * expression's. Operators on it are the pointer's own, never the type's.
 */
function holdsPointer(at: Node, variable: Node, type: Node): boolean {
  for (let n = variable.parent; n && n.id !== at.id; n = n.parent) {
    if (n.type === "pointer_declarator") return true;
    if (n.type === "init_declarator") break;
  }
  for (let n = type.parent; n && n.id !== at.id; n = n.parent) {
    if (n.type === "template_argument_list" || n.type === "new_expression") return true;
  }
  return false;
}
