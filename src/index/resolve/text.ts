/** Reading expressions as written (receivers, calls, arguments): bracket-aware splitting. */

/** Brackets that nest: a call's arguments (angle brackets too: `Map<K, V>`), and expressions. */
const ARG_BRACKETS = { open: "([{<", close: ")]}>" };
const EXPR_BRACKETS = { open: "([{", close: ")]}" };

/**
 * Calls `visit` with each index of `text` outside strings and the given brackets, until it
 * returns true; that index, or -1.
 */
function scanTop(
  text: string,
  brackets: { open: string; close: string },
  visit: (i: number) => boolean,
): number {
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (brackets.open.includes(ch)) depth++;
    else if (brackets.close.includes(ch)) depth--;
    else if (depth === 0 && visit(i)) return i;
  }
  return -1;
}

/** The arguments written between a call's parentheses, split at top-level commas. */
export function splitArgs(text: string): string[] {
  if (!text.trim()) return [];
  const out: string[] = [];
  let start = 0;
  scanTop(text, ARG_BRACKETS, (i) => {
    if (text[i] === ",") {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
    return false;
  });
  out.push(text.slice(start).trim());
  return out;
}

/**
 * `a ?? b` split at the first of `operators` written outside brackets and strings, with spaces
 * around it: the operands, or undefined when there is none.
 */
export function splitAtOperator(text: string, operators: string[]): [string, string] | undefined {
  let op: string | undefined;
  const at = scanTop(text, EXPR_BRACKETS, (i) => {
    op = text[i] === " " ? operators.find((o) => text.startsWith(`${o} `, i + 1)) : undefined;
    return op !== undefined;
  });
  return at < 0 ? undefined : [text.slice(0, at).trim(), text.slice(at + op!.length + 2).trim()];
}

/** What an argument's text shows of its type (as CallFact.argTypes): literals and variables. */
export function literalType(arg: string): string {
  if (/^"/.test(arg)) return "String";
  if (/^'.'$|^'\\.'$/.test(arg)) return "char";
  if (/^-?\d+[lL]$/.test(arg)) return "long";
  if (/^-?\d+$/.test(arg)) return "int";
  if (/^-?\d*\.\d+[fF]?$/.test(arg)) return /[fF]$/.test(arg) ? "float" : "double";
  if (arg === "true" || arg === "false") return "boolean";
  if (arg === "null") return "null";
  const made = arg.match(/^new\s+([\w$.]+)/);
  if (made) return made[1].split(".").pop()!;
  if (/^[\w$.]+$/.test(arg)) return `=${arg}`;
  return "";
}

export function isSuperCall(receiver: string, superNames: string[]): boolean {
  // `super()`, and Python 2's `super(Cls, self)`.
  return superNames.some((n) => receiver.startsWith(`${n}(`) && receiver.endsWith(")"));
}

/** Index of the `)` that closes the `(` at `open`, or -1. */
export function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `(` that opens the call ending the expression, or -1. */
export function openingParen(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === ")") depth++;
    else if (text[i] === "(" && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `[` that opens the index ending the expression (`a.b[f(x)]`), or -1. */
export function openingBracket(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === "]" || text[i] === ")") depth++;
    else if ((text[i] === "[" || text[i] === "(") && --depth === 0) {
      return text[i] === "[" ? i : -1;
    }
  }
  return -1;
}

/** The last `.` outside brackets (`a.b(c.d).e` -> before `e`), or -1. */
export function lastDot(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const ch = text[i];
    if (ch === ")" || ch === "]" || ch === ">") depth++;
    else if (ch === "(" || ch === "[" || ch === "<") depth--;
    else if (ch === "." && depth === 0) return i;
  }
  return -1;
}
