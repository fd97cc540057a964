/** Text of types, names and receivers as the analyzer writes them into facts (no syntax tree). */
import type { LanguageSpec } from "../../lang/spec.ts";

/**
 * The type a value of a written type has for member lookup: `Optional[X]`, `X | None`,
 * `Promise<X>`, `X?` -> `X`; anything else to its bare name.
 */
const NULL_TYPES = ["None", "null", "undefined", "nil"];

export function valueType(text: string, spec: LanguageSpec): string {
  let t = text.trim().replace(/^(:|->)\s*/, "").trim();
  // Several results (`(T, error)`, `(n int, err error)`): a call's value is the first.
  if (t.startsWith("(") && t.endsWith(")")) {
    const first = splitTop(t.slice(1, -1), ",")[0].trim();
    t = first.includes(" ") ? first.slice(first.lastIndexOf(" ") + 1) : first;
  }
  for (let i = 0; i < 4; i++) {
    const nulls = spec.nullTypes ?? NULL_TYPES;
    const parts = (t.includes("|") ? splitTop(t, "|").map((p) => p.trim()) : [t]).filter((p) =>
      p && !nulls.includes(p)
    );
    if (parts.length === 1) t = parts[0];
    else return "";
    const m = t.match(/^([\w.$]+)\s*[[<]([\s\S]*)[\]>]$/);
    const wrapper = m?.[1].split(".").pop();
    if (m && wrapper && (spec.typeWrappers ?? []).includes(wrapper)) {
      t = splitTop(m[2], ",")[0].trim();
      continue;
    }
    break;
  }
  if (/^["'(]/.test(t)) t = t.replace(/^["']|["']$/g, "");
  return typeName(t);
}

/** A parameter's type for overload choice: as valueType, keeping its type arguments (`IRequest<T>`). */
export function paramType(text: string, spec: LanguageSpec): string {
  // Kotlin `(T) -> Unit`, `T.() -> Unit`: a function type.
  if (/^[^<]*->/.test(text.replace(/^[\s(]*suspend\s+/, ""))) return "λ";
  const bare = valueType(text, spec);
  const generic = text.trim().match(/^([\w.$]+)\s*(<[\s\S]*>)\??$/);
  return generic && bare && generic[1].split(".").pop() === bare ? `${bare}${generic[2]}` : bare;
}

/** Splits on a separator outside brackets. */
export function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "[" || ch === "<" || ch === "(" || ch === "{") depth++;
    else if (ch === "]" || ch === ">" || ch === ")" || ch === "}") depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      out.push(text.slice(start, i));
      start = i + sep.length;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** An expression's text on one line, without arguments' whitespace noise. */
export function compactExpr(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 200 ? "" : t;
}

/** Identifier text without quoting or backticks (Kotlin `fun \`x y\`()`). */
export function cleanName(text: string): string {
  // `:name` (a Ruby symbol naming a method: attr_reader, alias_method).
  return text.trim().replace(/^:(?=[A-Za-z_])/, "").replace(/^[`'"]|[`'"]$/g, "");
}

/** Bare type name from a written type: `pkg.Foo<T>` / `*Foo` / `&mut a::Foo` / `Foo?` -> `Foo`. */
export function typeName(text: string): string {
  let t = text.trim();
  // `Foo[]` stays an array (no member of Foo); `List[int]`, `Foo<T>` and `f(x)` lose their tails.
  t = t.replace(/<[\s\S]*>$/, "").replace(/\[[^\]][\s\S]*\]$/, "").replace(/\([\s\S]*\)$/, "");
  t = t.replace(/^[*&\s]+|^mut\s+|^const\s+|[?!*&\s]+$/g, "").replace(/^'\w+\s+/, "") // `&'a T`
    .replace(/^(mut|dyn|impl)\s+/, "");
  const parts = t.split(/::|\.|\\/);
  return cleanName(parts[parts.length - 1] ?? t);
}

/** A call's text with its callee written as a dotted receiver (`p->f(x)` -> `p.f(x)`). */
export function normalizeCallee(text: string): string {
  const open = text.indexOf("(");
  return open < 0 ? text : normalizeReceiver(text.slice(0, open)) + text.slice(open);
}

/** A type as written with its qualifier (`A.B<T>?` -> `A.B`, `kotlin.String` stays). */
export function qualifiedType(text: string): string {
  const t = text.trim().replace(/<[\s\S]*>/g, "").replace(/[?!\s]+/g, "");
  // A package prefix is no part of the type's name (`kotlin.reflect.KClass` -> `KClass`).
  return /^[\w$.]+$/.test(t) ? t.replace(/^([a-z_][\w$]*\.)+(?=[A-Z])/, "") : typeName(text);
}

/** `self .foo` / `this?.x` / `a::b` written with spaces: a compact dotted receiver. */
export function normalizeReceiver(text: string): string {
  // Nothing to compact (most receivers: `self.x`, `a.b`).
  if (!/[\s:?>]/.test(text)) return text;
  return text.replace(/\s*(\?\.|\.|::|->)\s*/g, ".").replace(/\s+/g, " ").trim();
}

export function unquote(text: string): string {
  return text.trim().replace(/^[`'"<]+|[`'">]+$/g, "");
}
