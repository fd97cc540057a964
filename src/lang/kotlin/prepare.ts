/**
 * Kotlin source as tree-sitter-kotlin can read it. The grammar gives up on a few valid constructs,
 * and its error recovery then drops the rest of the file (every definition after the construct is
 * lost, not just the construct). This rewrites those constructs into equivalent text of the same
 * length whose line breaks stay where they were, so every node keeps its offset and line:
 *
 * - a class whose primary constructor starts on the next line (`class Builder` / `internal
 *   constructor(`): Kotlin reads the constructor as the class's; the grammar, inside a class body,
 *   reads a body-less class followed by a secondary constructor of the outer class (and fails on
 *   its `val` parameters). The line break moves from before the constructor to just after its `(`
 *   (one indentation space pays for it);
 * - a modifier keyword used as a name at the start of a statement (`inline = true`,
 *   `override.apply()`, `where?.let {}`, ktor's `get("/") {}`, `suspend { }`): the name is written
 *   in backticks, which the analyzer strips, paid for by two indentation spaces;
 * - `get` as an infix function (Exposed's `table.insert { ... } get table.id`): backticks paid for
 *   by the spaces around it;
 * - a `when` guard (`is Foo if cond ->`, Kotlin 2.1): `if` becomes `, ` (two conditions of one
 *   branch), which keeps the condition's calls;
 * - an annotation on a property getter or setter (`@OptIn(X::class) get() = ...`): blanked;
 * - an empty collection literal as a default value (`val binds: Array<KClass<*>> = []`, in
 *   annotation classes): `{}`;
 * - a multi-dollar string (`$$"..."`, Kotlin 2.2): the dollars become spaces;
 * - a half-edited signature whose parameter list is not closed before the body (`fun f(x: Int {`):
 *   a genuine syntax error, after which the grammar drops every later definition of the file. It
 *   becomes `fun f(x: Int,@){` (`fun f(@){` without parameters): the list closes, and the stray
 *   `,@` keeps a syntax error on that line alone, so the index still reports the error where it is
 *   and loses nothing else (paid for by the blank before the `{` or by indentation).
 */

const MODIFIERS =
  "public|private|protected|internal|inline|open|override|abstract|final|sealed|lateinit|" +
  "external|suspend|infix|tailrec|vararg|noinline|crossinline|get|set|by|where";

/** `class Name<T>` NEWLINE indentation `[annotations] [visibility] constructor(`. */
const SPLIT_PRIMARY_CONSTRUCTOR = new RegExp(
  String.raw`(\bclass[ \t]+[A-Za-z_]\w*(?:[ \t]*<[^{}()\n]*>)?[ \t]*)(\r?\n)([ \t]+)` +
    String
      .raw`((?:(?:@[\w.]+(?![\w.])(?:\([^()\n]*\))?|public|private|protected|internal)[ \t]+)*` +
    String.raw`constructor[ \t]*\()`,
  "g",
);

/** A statement that starts with a modifier keyword used as a name: assigned, called, navigated. */
const KEYWORD_AS_NAME = new RegExp(
  String.raw`^([ \t]{2,})(?:(${MODIFIERS})(?=[ \t]*(?:=[^=]|\.|\?\.|\(|\[))|` +
    String.raw`(suspend)(?=[ \t]*\{))`,
  "gm",
);

/** `expr get expr`: the soft keyword `get` called as an infix function. */
const INFIX_GET = /([\w)\]}])[ \t]get[ \t](?=[\w`]|\((?![ \t]*\)))/g;

/** `is T if cond ->` / `in r if cond ->`: a guard on a `when` branch. */
const WHEN_GUARD = /^([ \t]*!?(?:is|in)[ \t](?:(?!->)[^\n])*?[ \t])if(?=[ \t(])/gm;

/** An annotation on a getter or setter, on its line or the line before. */
const ACCESSOR_ANNOTATION = new RegExp(
  String.raw`@[\w.]+(?![\w.])(?:\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?` +
    String.raw`(?=[ \t]*(?:\r?\n[ \t]*)?(?:(?:private|protected|internal|public)[ \t]+)?` +
    String.raw`(?:get|set)[ \t]*\()`,
  "g",
);

/** `= []`: an empty array literal as a default value. */
const EMPTY_ARRAY_DEFAULT = /(=[ \t]*)\[\](?=[ \t]*[,)\n])/g;

/** `$$"`: a multi-dollar string's prefix. */
const MULTI_DOLLAR = /\$+(?=")/g;

/** A function declaration's line that ends with its body's `{`. */
const FUN_LINE =
  /^([ \t]*)((?:(?:@[\w.]+(?![\w.])(?:\([^()\n]*\))?|[a-z]+)[ \t]+)*fun\b[^\n]*)\{[ \t]*$/gm;

export function prepareKotlinSource(text: string): string {
  const code = codeMask(text);
  const inCode = (at: number) => code[at] === 1;
  let out = text.replace(
    SPLIT_PRIMARY_CONSTRUCTOR,
    (whole: string, head: string, newline: string, indent: string, ctor: string, at: number) => {
      if (!inCode(at)) return whole;
      // `head NL indent ctor` -> `head SP indent[1:] ctor NL`: same length, same line count.
      return `${head}${" ".repeat(newline.length)}${indent.slice(1)}${ctor}\n`;
    },
  );
  out = out.replace(
    ACCESSOR_ANNOTATION,
    (annotation: string, at: number) => inCode(at) ? " ".repeat(annotation.length) : annotation,
  );
  out = out.replace(
    KEYWORD_AS_NAME,
    (
      whole: string,
      indent: string,
      keyword: string | undefined,
      lambda: string | undefined,
      at,
    ) => {
      const name = keyword ?? lambda ?? "";
      const from = (at as number) + whole.length;
      if (!inCode(from - name.length)) return whole;
      // A property getter or setter (`get() = ...`, `set(value) { ... }`) is grammar, not a name.
      const rest = out.slice(from, from + 80);
      if (name === "get" && /^\s*\(\s*\)/.test(rest)) return whole;
      if (name === "set" && /^\s*\(\s*\w+\s*(:[^()=]*)?\)/.test(rest)) return whole;
      return `${indent.slice(2)}\`${name}\``;
    },
  );
  out = out.replace(
    INFIX_GET,
    (whole: string, before: string, at: number) =>
      inCode(at + before.length + 1) ? `${before}\`get\`` : whole,
  );
  out = out.replace(
    WHEN_GUARD,
    (whole: string, head: string, at: number) => inCode(at + head.length) ? `${head}, ` : whole,
  );
  out = out.replace(
    EMPTY_ARRAY_DEFAULT,
    (whole: string, head: string, at: number) => inCode(at + head.length) ? `${head}{}` : whole,
  );
  out = out.replace(FUN_LINE, (whole: string, indent: string, head: string, at: number) => {
    if (!inCode(at + indent.length)) return whole;
    // Parentheses of the signature, outside literals and comments: one left open, no lambda.
    let depth = 0;
    for (let i = 0; i < head.length; i++) {
      if (!inCode(at + indent.length + i)) continue;
      const c = head[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "{" || c === "}") return whole;
    }
    if (depth !== 1) return whole;
    const signature = head.trimEnd();
    // `(@)` when no parameter is written yet, else `,@)`: both errors stay on this line.
    const marker = /\(\s*$/.test(signature) ? "@)" : ",@)";
    const blanks = head.length - signature.length;
    if (blanks + indent.length < marker.length) return whole;
    const fromIndent = Math.max(0, marker.length - blanks);
    const left = blanks - (marker.length - fromIndent);
    const tail = whole.slice(indent.length + head.length); // "{" and what follows on the line
    return `${indent.slice(fromIndent)}${signature}${marker}${" ".repeat(left)}${tail}`;
  });
  out = out.replace(
    MULTI_DOLLAR,
    (dollars: string, at: number) => inCode(at) ? " ".repeat(dollars.length) : dollars,
  );
  return out;
}

/**
 * 1 where a character is code, 0 inside comments, string and character literals and backticked
 * names (string templates count as literal: nothing there needs rewriting).
 */
function codeMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length + 1).fill(1);
  let i = 0;
  const skipTo = (end: number) => {
    mask.fill(0, i, end);
    i = end;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      skipTo(nl < 0 ? text.length : nl);
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      skipTo(end < 0 ? text.length : end + 2);
    } else if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      skipTo(end < 0 ? text.length : end + 3);
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      skipTo(Math.min(j + 1, text.length));
    } else i++;
  }
  return mask;
}
