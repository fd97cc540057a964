/** Tokens of C and C++ source for the macro passes (see macros.ts): offsets and lines kept. */

export interface Token {
  text: string;
  start: number;
  end: number;
  /** 0-based line of the token's first character. */
  line: number;
  kind: "id" | "num" | "punct" | "str" | "pp";
}

/**
 * One token at a position (sticky): spaces, a line break, comments, an identifier, a number, a
 * quoted literal, or punctuation (longest first). Regular expressions run as compiled code even
 * before the JIT warms up, which a character loop does not: this is most of a file's preparation.
 */
const TOKEN = new RegExp(
  [
    /([ \t\r\f\v]+)/, // 1 spaces
    /(\n)/, // 2 line break
    /(\/\/(?:[^\n\\]|\\\n?)*)/, // 3 line comment (a backslash-newline continues it)
    /(\/\*[\s\S]*?(?:\*\/|$))/, // 4 block comment
    /([A-Za-z_$][\w$]*)/, // 5 identifier (or a literal's prefix)
    /((?:\d|\.(?=\d))(?:[eEpP][+-]|[\w$.'])*)/, // 6 number
    /(["'])/, // 7 quote
    /(<<=|>>=|\.\.\.|->\*|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\.\*|##|[\s\S])/, // 8
  ].map((r) => r.source).join("|"),
  "y",
);
/** A preprocessor line from its `#`: continuations and block comments included. */
const DIRECTIVE = /#(?:[^\n\\/]|\\\r?\n|\\|\/\*[\s\S]*?(?:\*\/|$)|\/)*/y;

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = text.indexOf("\n", from); k >= 0 && k < to; k = text.indexOf("\n", k + 1)) n++;
  return n;
}

/** Tokens of C/C++ code; comments, literals' insides and preprocessor lines are skipped. */
export function tokenize(text: string, withDirectives = false): Token[] {
  const out: Token[] = [];
  const len = text.length;
  let i = 0;
  let line = 0;
  let lineStart = true; // only whitespace since the last line break
  while (i < len) {
    if (text.charCodeAt(i) === 35 && lineStart) { // `#`
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
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text)!;
    const start = i;
    i = TOKEN.lastIndex;
    if (m[1] !== undefined) continue;
    if (m[2] !== undefined) {
      line++;
      lineStart = true;
      continue;
    }
    if (m[3] !== undefined || m[4] !== undefined) {
      line += newlines(text, start, i);
      continue;
    }
    lineStart = false;
    if (m[5] !== undefined) {
      const word = m[5];
      // raw strings R"x(...)x", u8R"(...)", and prefixed literals u8"...", L'x'
      const q = text[i];
      if ((q === '"' || q === "'") && /^(u8|u|U|L)?R?$/.test(word)) {
        if (word.endsWith("R") && q === '"') {
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
    if (m[6] !== undefined) {
      out.push({ text: m[6], start, end: i, line, kind: "num" });
      continue;
    }
    if (m[7] !== undefined) {
      i = skipQuoted(text, start);
      out.push({ text: text.slice(start, i), start, end: i, line, kind: "str" });
      continue;
    }
    out.push({ text: m[8], start, end: i, line, kind: "punct" });
  }
  return out;
}

function skipQuoted(text: string, i: number): number {
  const q = text[i];
  let k = i + 1;
  while (k < text.length && text[k] !== q && text[k] !== "\n") k += text[k] === "\\" ? 2 : 1;
  return Math.min(text.length, k + 1);
}
