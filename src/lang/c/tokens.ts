/** Tokens of C and C++ source for the macro passes (see macros.ts): offsets and lines kept. */

export interface Token {
  text: string;
  start: number;
  end: number;
  /** 0-based line of the token's first character. */
  line: number;
  kind: "id" | "num" | "punct" | "str" | "pp";
}

/** A preprocessor line from its `#`: continuations and block comments included. */
const DIRECTIVE = /#(?:[^\n\\/]|\\\r?\n|\\|\/\*[\s\S]*?(?:\*\/|$)|\/)*/y;
/** Literal prefixes that a quote may follow: `u8"..."`, `L'x'`, `R"(...)"`, `u8R"x(...)x"`. */
const LITERAL_PREFIX = /^(u8|u|U|L)?R?$/;
/** Punctuators of three and of two characters (a longer one wins). */
const PUNCT3 = new Set(["<<=", ">>=", "...", "->*", "<=>"]);
const PUNCT2 = new Set(
  `:: -> ++ -- << >> <= >= == != && || -= += *= /= %= &= |= ^= .* ##`.split(" "),
);
/** Characters that may start a punctuator longer than one character. */
const PUNCT_START = new Set([..."<>.-:+=!&|*/%^#"].map((c) => c.charCodeAt(0)));

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = text.indexOf("\n", from); k >= 0 && k < to; k = text.indexOf("\n", k + 1)) n++;
  return n;
}

/** `[A-Za-z_$]` */
function identStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** `[\w$]` */
function identPart(c: number): boolean {
  return identStart(c) || (c >= 48 && c <= 57);
}

function digit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Tokens of C/C++ code; comments, literals' insides and preprocessor lines are skipped. A scan by
 * character codes: no match objects, one string per token (this runs over every C and C++ file).
 */
export function tokenize(text: string, withDirectives = false): Token[] {
  const out: Token[] = [];
  const len = text.length;
  let i = 0;
  let line = 0;
  let lineStart = true; // only whitespace (and comments) since the last line break
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 10) { // a line break
      line++;
      lineStart = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) { // spaces
      i++;
      continue;
    }
    const start = i;
    if (c === 35 && lineStart) { // `#`
      DIRECTIVE.lastIndex = i;
      DIRECTIVE.exec(text);
      const end = DIRECTIVE.lastIndex;
      if (withDirectives) {
        out.push({ text: text.slice(i, end), start: i, end, line, kind: "pp" });
      }
      line += newlines(text, i, end);
      i = end;
      continue;
    }
    if (c === 47) { // `/`: a comment?
      const next = text.charCodeAt(i + 1);
      if (next === 47) { // line comment; a backslash-newline continues it
        i += 2;
        while (i < len) {
          const k = text.charCodeAt(i);
          if (k === 10) break;
          if (k === 92 && text.charCodeAt(i + 1) === 10) {
            line++;
            i += 2;
          } else i++;
        }
        continue;
      }
      if (next === 42) { // block comment
        const close = text.indexOf("*/", i + 2);
        i = close < 0 ? len : close + 2;
        line += newlines(text, start, i);
        continue;
      }
    }
    lineStart = false;
    if (identStart(c)) {
      i++;
      while (i < len && identPart(text.charCodeAt(i))) i++;
      const word = text.slice(start, i);
      // raw strings R"x(...)x", u8R"(...)", and prefixed literals u8"...", L'x'
      const q = text.charCodeAt(i);
      if ((q === 34 || q === 39) && LITERAL_PREFIX.test(word)) {
        if (word.endsWith("R") && q === 34) {
          const open = text.indexOf("(", i);
          const delim = open < 0 ? "" : text.slice(i + 1, open);
          const end = open < 0 ? -1 : text.indexOf(`)${delim}"`, open);
          const stop = end < 0 ? len : end + delim.length + 2;
          line += newlines(text, i, stop);
          i = stop;
        } else i = skipQuoted(text, i);
        out.push({ text: text.slice(start, i), start, end: i, line, kind: "str" });
        continue;
      }
      out.push({ text: word, start, end: i, line, kind: "id" });
      continue;
    }
    if (digit(c) || (c === 46 && digit(text.charCodeAt(i + 1)))) { // a number
      i++;
      while (i < len) {
        const k = text.charCodeAt(i);
        const sign = text.charCodeAt(i + 1);
        if ((k === 101 || k === 69 || k === 112 || k === 80) && (sign === 43 || sign === 45)) {
          i += 2;
        } else if (identPart(k) || k === 46 || k === 39) i++;
        else break;
      }
      out.push({ text: text.slice(start, i), start, end: i, line, kind: "num" });
      continue;
    }
    if (c === 34 || c === 39) { // a quoted literal
      i = skipQuoted(text, start);
      out.push({ text: text.slice(start, i), start, end: i, line, kind: "str" });
      continue;
    }
    let width = 1;
    if (PUNCT_START.has(c)) {
      if (PUNCT3.has(text.slice(i, i + 3))) width = 3;
      else if (PUNCT2.has(text.slice(i, i + 2))) width = 2;
    }
    i += width;
    out.push({ text: text.slice(start, i), start, end: i, line, kind: "punct" });
  }
  return out;
}

function skipQuoted(text: string, i: number): number {
  const q = text[i];
  let k = i + 1;
  while (k < text.length && text[k] !== q && text[k] !== "\n") k += text[k] === "\\" ? 2 : 1;
  return Math.min(text.length, k + 1);
}
