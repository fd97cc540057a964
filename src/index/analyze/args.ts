/** A call's arguments: how many, their static types, names and spreads (CallFact.args/argTypes). */
import type { Node } from "web-tree-sitter";
import { normalizeCallee, normalizeReceiver, typeName } from "./text.ts";
import { contains } from "./nodes.ts";

/**
 * Arguments of a call when they can be counted (no spread, splat or block pass), each with the
 * static type the call site shows (see CallFact.argTypes).
 */
export function argsOf(node: Node, typed: boolean): (string[] & { names: string[] }) | undefined {
  let list = node.childForFieldName("arguments");
  let trailing = 0;
  if (!list) {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (/^(arguments|argument_list|value_arguments)$/.test(child.type)) list = child;
      // C++'s most vexing parse: `Slice key(data, n);` reads as a function declarator.
      else if (node.type === "function_declarator" && child.type === "parameter_list") {
        list = child;
      } else if (child.type === "call_suffix") {
        list = child.namedChildren.find((x) => x?.type === "value_arguments") ?? null;
        // Kotlin `f(a) { ... }`: the trailing lambda is one more argument.
        if (child.namedChildren.some((x) => x?.type === "annotated_lambda")) trailing = 1;
      }
      if (list) break;
    }
  }
  if (!list) return undefined;
  const out: string[] = [];
  const names: string[] = [];
  let named = false;
  // Each `.type` and `.text` of a node is a call into the parser: read each once.
  for (const raw of list.namedChildren) {
    if (!raw) continue;
    const rawType = raw.type;
    if (rawType.includes("comment")) continue;
    if (/splat|spread|block_argument|variadic/.test(rawType)) return undefined;
    // `argument` / `value_argument` wrap the expression (and a name: `f(x = 1)`, `F(x: 1)`, or a
    // spread: Kotlin `f(*xs)`).
    const wrapped = rawType === "argument" || rawType === "value_argument";
    let a = raw;
    let aType = rawType;
    if (wrapped) {
      const inner = raw.namedChildren;
      a = inner[inner.length - 1] ?? raw;
      aType = a.type;
      const head = raw.text.slice(0, a.startIndex - raw.startIndex);
      if (/^\s*\*/.test(head) || /spread/.test(aType)) {
        // Kotlin `f(format, *args)`: the array spread into a vararg parameter, written `*`.
        if (!typed) return undefined;
        out.push("*");
        names.push("");
        continue;
      }
      if (inner.length > 1 && /=|:/.test(head)) named = true;
      // A named argument's parameter name (`buffered: false`, `modifiers = x`).
      const name = named ? inner[0]?.text.trim() ?? "" : "";
      names.push(/^[A-Za-z_][\w]*$/.test(name) ? name : named ? "?" : "");
    } else names.push(named ? "?" : "");
    if (aType === "parameter_declaration") {
      // A vexing parse's "parameter" is an argument: a name (`data`, `NodeType::Map`) or a type.
      out.push(
        a.namedChildCount === 1 && a.text.length <= 80 ? `=${normalizeReceiver(a.text)}` : "",
      );
      continue;
    }
    // Only overload choice reads literal types; a bare name may be a function passed as a value.
    out.push(named ? "" : typed ? argType(a, aType) : bareName(a, aType));
  }
  // A trailing lambda (Kotlin `f(a) { ... }`) is passed to the last parameter, named `^` here.
  for (let i = 0; i < trailing; i++) out.push(typed ? "λ" : "");
  for (let i = 0; i < trailing; i++) names.push(typed ? "^" : "");
  return Object.assign(out, { names });
}

/** Explicit type arguments of a call (`M<int, string>(...)`, Kotlin `f<Int>()`), if written. */
export function typeArgCount(call: Node, name: Node, callText: string): number | undefined {
  // Type arguments follow the name (`M<int>(`, `f<Int>(`): a look at the text after it spares the
  // tree walks below (a node's parent is found from the root) for every other call.
  const after = name.endIndex - call.startIndex;
  if (after < 0 || after >= callText.length || !/^\s*</.test(callText.slice(after, after + 40))) {
    return undefined;
  }
  let list = name.parent?.type === "generic_name"
    ? name.parent.namedChildren.find((c) => c?.type === "type_argument_list")
    : undefined;
  if (!list && contains(call, name)) {
    const suffix = call.namedChildren.find((c) => c?.type === "call_suffix");
    list = suffix?.namedChildren.find((c) => c?.type === "type_arguments");
  }
  return list ? list.namedChildren.filter((c) => c && !/comment/.test(c.type)).length : undefined;
}

/** `=name` for an argument that is a bare name, else "". */
export function bareName(a: Node, t: string): string {
  if (t !== "identifier") return "";
  const text = a.text;
  return text.length <= 80 ? `=${text}` : "";
}

/** The static type an argument shows: a literal's, a constructed type, `=name` for a variable. */
export function argType(a: Node, t: string = a.type): string {
  if (
    /^(string|string_literal|template_string|interpreted_string_literal|raw_string_literal|text_block|line_string_literal|multi_line_string_literal|verbatim_string_literal|interpolated_string_expression|raw_string_literal)$/
      .test(t)
  ) {
    return "String";
  }
  // `Foo::class` (Kotlin): a class literal.
  if (/^[\w$.]+\s*::\s*class$/.test(a.text)) return "KClass";
  // A lambda: a value of a function type (LanguageSpec.functionTypes), written `λ`.
  if (/^(lambda_expression|anonymous_method_expression|lambda_literal|annotated_lambda)$/.test(t)) {
    return "λ";
  }
  if (t === "real_literal") return /[fF]$/.test(a.text) ? "float" : "double";
  if (t === "number_literal") return /[.eE]/.test(a.text) ? "double" : "int";
  if (t === "concatenated_string") return "String";
  if (t === "character_literal" || t === "char_literal") return "char";
  if (t === "nullptr") return "null";
  // `&x`, `*p` (C, C++): the object's own type, as parameter types are read (pointers erased).
  if (t === "pointer_expression") {
    const arg = a.childForFieldName("argument");
    return arg && /^(identifier|field_expression|this)$/.test(arg.type) && arg.text.length <= 80
      ? `=${normalizeReceiver(arg.text)}`
      : "";
  }
  // Rust `a..b` / `a..=b`: std's Range / RangeInclusive (picks `impl TryFrom<Range<X>>`).
  if (t === "range_expression") return a.text.includes("..=") ? "RangeInclusive" : "Range";
  if (/integer|int_literal/.test(t)) return /[lL]$/.test(a.text) ? "long" : "int";
  if (/floating|float|decimal_floating/.test(t)) return /[fF]$/.test(a.text) ? "float" : "double";
  if (t === "true" || t === "false" || t === "boolean_literal") return "boolean";
  if (t === "null_literal" || t === "null" || t === "none") return "null";
  if (/object_creation_expression|new_expression/.test(t)) {
    const type = a.childForFieldName("type") ?? a.childForFieldName("constructor");
    return type ? typeName(type.text) : "";
  }
  // `c ? "a" : "b"`: the type both branches show.
  if (t === "conditional_expression") {
    const yes = a.childForFieldName("consequence");
    const no = a.childForFieldName("alternative");
    const both = yes && no ? [argType(yes), argType(no)] : [];
    return both.length && both[0] === both[1] && !both[0].startsWith("=") ? both[0] : "";
  }
  if (t === "cast_expression") {
    const type = a.childForFieldName("type");
    return type ? typeName(type.text) : "";
  }
  if (
    /^(identifier|field_access|field_expression|member_expression|navigation_expression|member_access_expression|this|this_expression)$/
      .test(t)
  ) {
    return a.text.length <= 80 ? `=${normalizeReceiver(a.text)}` : "";
  }
  // `static_cast<T>(x)` (C++): the cast's type.
  const fn = t === "call_expression" ? a.childForFieldName("function") : null;
  if (fn?.type === "template_function" && /_cast$/.test(fn.childForFieldName("name")?.text ?? "")) {
    const type = fn.childForFieldName("arguments")?.namedChild(0);
    return type ? typeName(type.text) : "";
  }
  // A call's value: typed on demand from the callee's declared return type.
  if (/^(method_invocation|call_expression|call|invocation_expression)$/.test(t)) {
    return a.text.length <= 80 && !a.text.includes("\n") ? `=${normalizeCallee(a.text)}` : "";
  }
  return "";
}
