/**
 * A Cypher tokenizer for the read-only guard: strings, backtick-quoted names, comments, numbers,
 * parameters and operators are told apart, so `'DELETE'` in a string, `n.set` as a property or
 * `// CREATE` in a comment is never mistaken for a clause, and `/* ... *\/ DELETE` is.
 */
import { CgraphError } from "../errors.ts";

export type TokenType =
  | "ident" //   name or keyword (unquoted)
  | "quoted" //  `back ticked` name
  | "string"
  | "number"
  | "param" //   $name or $0
  | "op"; //     punctuation and operators

export interface Token {
  type: TokenType;
  /** The name without backticks, the string without quotes (escapes kept), or the operator. */
  value: string;
  /** Offset in the source. */
  start: number;
  end: number;
}

const OPS = [
  "<-",
  "->",
  "<>",
  "<=",
  ">=",
  "=~",
  "+=",
  "..",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ":",
  ",",
  ".",
  ";",
  "|",
  "-",
  "+",
  "*",
  "/",
  "%",
  "^",
  "=",
  "<",
  ">",
  "!",
  "&",
];

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

export class CypherSyntaxError extends CgraphError {}

/** Tokens of a Cypher text (comments and whitespace dropped). */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      while (i < n && src[i] !== "\n" && src[i] !== "\r") i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const close = src.indexOf("*/", i + 2);
      if (close < 0) throw new CypherSyntaxError(`Unterminated /* comment at offset ${i}.`);
      i = close + 2;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"') {
      i++;
      let closed = false;
      while (i < n) {
        if (src[i] === "\\") {
          i += 2;
          continue;
        }
        if (src[i] === c) {
          closed = true;
          break;
        }
        i++;
      }
      if (!closed) throw new CypherSyntaxError(`Unterminated string at offset ${start}.`);
      out.push({ type: "string", value: src.slice(start + 1, i), start, end: i + 1 });
      i++;
      continue;
    }
    if (c === "`") {
      // A doubled backtick stands for one inside the name.
      let value = "";
      i++;
      let closed = false;
      while (i < n) {
        if (src[i] === "`") {
          if (src[i + 1] === "`") {
            value += "`";
            i += 2;
            continue;
          }
          closed = true;
          break;
        }
        value += src[i++];
      }
      if (!closed) throw new CypherSyntaxError(`Unterminated \` name at offset ${start}.`);
      i++;
      out.push({ type: "quoted", value, start, end: i });
      continue;
    }
    if (c === "$") {
      i++;
      if (src[i] === "`") {
        const close = src.indexOf("`", i + 1);
        if (close < 0) throw new CypherSyntaxError(`Unterminated \` name at offset ${i}.`);
        i = close + 1;
      } else {
        while (i < n && IDENT_PART.test(src[i])) i++;
      }
      out.push({ type: "param", value: src.slice(start + 1, i), start, end: i });
      continue;
    }
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(src[i + 1] ?? "") && !prevIsValue(out))) {
      if (c === "0" && /[xX]/.test(src[i + 1] ?? "")) {
        i += 2;
        while (i < n && /[0-9a-fA-F]/.test(src[i])) i++;
      } else {
        while (i < n && /[0-9_]/.test(src[i])) i++;
        // `1..3` is a range, not a decimal point.
        if (src[i] === "." && src[i + 1] !== "." && /[0-9]/.test(src[i + 1] ?? "")) {
          i++;
          while (i < n && /[0-9_]/.test(src[i])) i++;
        }
        if (/[eE]/.test(src[i] ?? "") && /[-+0-9]/.test(src[i + 1] ?? "")) {
          i += 2;
          while (i < n && /[0-9]/.test(src[i])) i++;
        }
      }
      out.push({ type: "number", value: src.slice(start, i), start, end: i });
      continue;
    }
    if (IDENT_START.test(c)) {
      while (i < n && IDENT_PART.test(src[i])) i++;
      out.push({ type: "ident", value: src.slice(start, i), start, end: i });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new CypherSyntaxError(`Unexpected character '${c}' at offset ${i}.`);
    i += op.length;
    out.push({ type: "op", value: op, start, end: i });
  }
  return out;
}

function prevIsValue(out: Token[]): boolean {
  const p = out[out.length - 1];
  return !!p && (p.type !== "op" || p.value === ")" || p.value === "]");
}

/** Whether a token is the unquoted keyword `kw` (case-insensitive). */
export function isKw(t: Token | undefined, kw: string): boolean {
  return !!t && t.type === "ident" && t.value.toUpperCase() === kw;
}

export function isOp(t: Token | undefined, op: string): boolean {
  return !!t && t.type === "op" && t.value === op;
}

/** A name token: an identifier or a backtick-quoted name. */
export function isName(t: Token | undefined): t is Token {
  return !!t && (t.type === "ident" || t.type === "quoted");
}
