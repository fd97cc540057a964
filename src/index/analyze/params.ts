/** A definition's parameters, type parameters and declared return type, from its node. */
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "../../lang/spec.ts";
import { paramType, typeName, valueType } from "./text.ts";

/** Parameters a call must pass, [required, maximum]; maximum -1 when variadic. */
export function paramsOf(
  node: Node,
  spec: LanguageSpec,
): { range: [number, number]; types: string[]; names: string[]; receiver?: string } | undefined {
  const list = parameterList(node, 0);
  if (!list) return undefined;
  const s: ParamState = {
    required: 0,
    max: 0,
    first: true,
    types: [],
    names: [],
    variadicNext: false,
    afterEquals: false,
    lastRequired: false,
    receiver: undefined,
  };
  // Every child in order: a value after an anonymous `=` is the previous parameter's default
  // (Kotlin), an anonymous `params` marks the next one variadic (C#).
  for (const p of list.children) {
    if (!p) continue;
    if (!p.isNamed) {
      if (p.type === "=") s.afterEquals = true;
      else if (p.type === "params") s.variadicNext = true;
      continue;
    }
    if (s.afterEquals) {
      s.afterEquals = false;
      if (s.lastRequired) s.required--;
      s.lastRequired = false;
      continue;
    }
    param(s, p, spec);
  }
  const range: [number, number] = [s.required, s.max];
  return { range, types: s.types, names: s.names, ...(s.receiver ? { receiver: s.receiver } : {}) };
}

/** What paramsOf has read of a parameter list so far. */
interface ParamState {
  required: number;
  max: number;
  first: boolean;
  types: string[];
  names: string[];
  variadicNext: boolean;
  afterEquals: boolean;
  /** The last parameter was counted required: a default value read after it makes it optional. */
  lastRequired: boolean;
  receiver: string | undefined;
}

/**
 * One named child of a parameter list. (A function of its own: compiled apart from the list's
 * loop, each smaller.)
 */
function param(s: ParamState, p: Node, spec: LanguageSpec): void {
  if (/comment|keyword_separator|positional_separator|attribute/.test(p.type)) return;
  // Kotlin `vararg x: T`: the modifiers are the parameter's preceding sibling.
  if (p.type === "parameter_modifiers") {
    if (/\bvararg\b/.test(p.text)) s.variadicNext = true;
    return;
  }
  const text = p.text;
  const nameNode = p.childForFieldName("name") ?? p.childForFieldName("pattern") ??
    declaratorName(p.childForFieldName("declarator"));
  if (s.first) {
    s.first = false;
    if (boundByReceiver(s, p, nameNode, text, spec)) return;
  }
  const name = nameNode?.text ?? text.match(/^[*&.\s]*([A-Za-z_$][\w$]*)/)?.[1];
  if (name && /^[A-Za-z_$][\w$]*$/.test(name)) s.names.push(name);
  const modifiers = p.namedChildren.find((c) => c?.type === "parameter_modifiers")?.text ?? "";
  if (
    s.variadicNext || /\bvararg\b/.test(modifiers) ||
    /splat|spread|variadic|rest_pattern|dictionary/.test(p.type) || /^\*|\.\.\./.test(text)
  ) {
    s.variadicNext = false;
    s.max = -1;
    // Its element type, marked `...` (`params object[] a`, `vararg a: T`, `T... a`).
    const elem = declaredType(p);
    s.types.push(elem ? `${paramType(elem.text, spec).replace(/\[\]$/, "")}...` : "");
    return;
  }
  const declared = declaredType(p);
  s.types.push(declared ? paramType(declared.text, spec) + declaratorMark(p, declared) : "");
  if (s.max >= 0) s.max++;
  const optional = /default|optional/.test(p.type) || p.childForFieldName("value") !== null ||
    p.childForFieldName("default_value") !== null || /\?\s*:/.test(text) || /=/.test(text);
  if (!optional) s.required++;
  s.lastRequired = !optional;
}

/**
 * The first parameter: a C# extension method's `this Foo x` names its receiver (and is a
 * parameter); a receiver named like `self` (Rust `&mut self`) is bound by the call's receiver, not
 * passed: true.
 */
function boundByReceiver(
  s: ParamState,
  p: Node,
  nameNode: Node | null,
  text: string,
  spec: LanguageSpec,
): boolean {
  const mods = p.namedChildren.filter((c) => c?.type === "modifier").map((c) => c!.text);
  const type = p.childForFieldName("type");
  if (mods.includes("this") && type) s.receiver = valueType(type.text, spec) || undefined;
  // Rust `&mut self`, `&'a self`, `mut self`: the receiver too.
  const selfName = nameNode
    ? nameNode.text
    : text.replace(/^&\s*('\w+\s+)?/, "").replace(/^mut\s+/, "").split(/[:\s]/)[0];
  return spec.selfNames.includes(selfName) && !/^this\s/.test(text);
}

/** A parameter's declared type node, if written. */
export function declaredType(p: Node): Node | null | undefined {
  return p.childForFieldName("type") ??
    p.namedChildren.find((c) =>
      c !== null && /type$/.test(c.type) && c.type !== "parameter_modifiers"
    );
}

/**
 * What a C/C++ parameter's declarator adds to its type for overload choice: a pointer to `char`
 * (`char*`) or an array of it (`char[]`, which binds a literal but no pointer) is a C string,
 * `T&&` binds only temporaries.
 */
export function declaratorMark(param: Node, declared: Node): string {
  const d = param.childForFieldName("declarator");
  if (!d) return "";
  if (d.type === "reference_declarator" && d.text.startsWith("&&")) return "&&";
  if (declared.text !== "char") return "";
  let inner: Node | null = d;
  while (inner && /^(reference_declarator|parenthesized_declarator)$/.test(inner.type)) {
    inner = inner.namedChild(0);
  }
  if (inner?.type === "array_declarator") return "[]";
  return inner && /pointer_declarator/.test(inner.type) ? "*" : "";
}

/** A C++ member function declared `const` (`int size() const`): callable on a const object. */
export function constQualified(node: Node): boolean {
  let d = node.childForFieldName("declarator");
  for (let i = 0; d && d.type !== "function_declarator" && i < 4; i++) {
    d = d.childForFieldName("declarator") ?? d.namedChild(0);
  }
  return !!d && d.namedChildren.some((n) => n?.type === "type_qualifier" && n.text === "const");
}

/** The name a C/C++ declarator declares: `*e`, `&e`, `e[3]`, `(*f)(int)` -> e, f. */
export function declaratorName(node: Node | null): Node | null {
  for (let n = node, i = 0; n && i < 8; i++) {
    if (n.type === "identifier" || n.type === "field_identifier") return n;
    n = n.childForFieldName("declarator") ?? n.namedChildren.find((c) =>
      c?.type === "identifier"
    ) ??
      null;
  }
  return null;
}

export function parameterList(node: Node, depth: number): Node | undefined {
  const direct = node.childForFieldName("parameters");
  if (direct) return direct;
  if (depth > 2) return undefined;
  for (const child of node.namedChildren) {
    if (!child || child.type === "block" || /body|statement_block/.test(child.type)) continue;
    if (
      /^(parameters|parameter_list|formal_parameters|function_value_parameters)$/.test(child.type)
    ) {
      return child;
    }
    if (/declarator|function_type|lambda/.test(child.type)) {
      const inner = parameterList(child, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Generic parameters of a definition: `<T, K extends X>` -> T, K. */
export function typeParamsOf(
  node: Node,
): { names: string[]; bounds: Record<string, string> } | undefined {
  // C++ `template <typename T, class U = int, int N>` wraps the definition: T and U are types.
  if (node.parent?.type === "template_declaration") {
    const names: string[] = [];
    for (const p of node.parent.childForFieldName("parameters")?.namedChildren ?? []) {
      if (!p || !/type_parameter_declaration$/.test(p.type)) continue;
      const name = p.childForFieldName("name") ??
        p.namedChildren.find((c) => c?.type === "type_identifier");
      if (name) names.push(name.text);
    }
    return names.length ? { names, bounds: {} } : undefined;
  }
  const list = node.childForFieldName("type_parameters") ??
    node.namedChildren.find((c) => c?.type === "type_parameters");
  if (!list) return undefined;
  const names: string[] = [];
  const bounds: Record<string, string> = {};
  for (const p of list.namedChildren) {
    // (Kotlin `out T : Builder<T>`, `reified T`: the variance or modifier is no name.)
    const m = p?.text.match(
      /^\s*(?:(?:in|out|reified)\s+)*([\w$]+)(?:\s*(?:extends|:)\s*([\w$.]+))?/,
    );
    if (!m) continue;
    names.push(m[1]);
    // `B extends Builder<T, B>`, `T: Trait`: members of a T are the bound's (erasure).
    if (m[2]) bounds[m[1]] = typeName(m[2]);
  }
  // Rust `where D: Distribution<T>, R: Rng + ?Sized`: bounds written after the signature.
  const where = node.namedChildren.find((c) => c?.type === "where_clause");
  for (const p of where?.namedChildren ?? []) {
    const m = p?.text.match(/^\s*([\w$]+)\s*:\s*(?:\?Sized\s*\+\s*)?([\w$.:]+)/);
    if (m && names.includes(m[1]) && !bounds[m[1]]) bounds[m[1]] = typeName(m[2]);
  }
  // C# `where T : IFoo, new()`: the first type constraint is the bound.
  for (const clause of node.namedChildren) {
    if (clause?.type !== "type_parameter_constraints_clause") continue;
    const param = clause.namedChildren[0]?.text;
    const bound = clause.namedChildren.find((c) =>
      c?.type === "type_parameter_constraint" &&
      /^(identifier|generic_name|qualified_name)$/.test(c.namedChildren[0]?.type ?? "")
    );
    if (param && bound && names.includes(param)) bounds[param] ??= typeName(bound.text);
  }
  return names.length ? { names, bounds } : undefined;
}

/** The declared return type of a function, unwrapped to the type a call's value has. */
export function returnTypeOf(node: Node, spec: LanguageSpec): string | undefined {
  for (const field of spec.returnFields ?? ["return_type"]) {
    // `+parameters`: the type written right after the parameter list (Kotlin `fun f(): T`).
    const t = field === "+parameters" ? afterParameters(node) : node.childForFieldName(field);
    if (t) return valueType(t.text, spec) || undefined;
  }
  return undefined;
}

export function afterParameters(node: Node): Node | undefined {
  const list = parameterList(node, 0);
  if (!list) return undefined;
  for (let n = list.nextNamedSibling; n; n = n.nextNamedSibling) {
    if (/type$/.test(n.type)) return n;
    if (/body|block/.test(n.type)) return undefined;
  }
  return undefined;
}
