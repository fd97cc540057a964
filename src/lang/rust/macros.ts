/**
 * Rust source as tree-sitter-rust can read calls in: the grammar keeps a macro's arguments as a
 * flat token tree, so `assert_eq!(parse(x).len(), 2)` or `vec![Item::new(a)]` hold no call
 * expressions (tags.scm reads token trees only for the shapes a token sequence can show safely).
 * This blanks the name and `!` of macros whose arguments are a list of expressions (the standard
 * formatting, assertion and collection macros, and the logging and error macros built like them), so
 * the arguments parse as the tuple or array they are written as: `assert_eq!(a.f(), b)` ->
 * `          (a.f(), b)`. A path before the name goes too (`log::info!(..)`, `std::println!`).
 *
 * Blanking replaces characters with spaces: every byte offset and line of the file stays where it
 * was. Strings, characters, comments and lifetimes are skipped; `macro_rules!` and macros written
 * with braces (`m! { .. }`, often items or a DSL) are left alone.
 *
 * Wiring (src/index, not part of this folder): `LanguageSpec.prepare?(text: string): string`,
 * called by extract.ts on the decoded text before `parser.parse` (as for Kotlin); Rust's is
 * `prepareMacros` (already set on the spec object).
 */

/** Macros whose arguments are comma-separated expressions (format strings included). */
export const EXPRESSION_MACROS = new Set(
  `assert assert_eq assert_ne debug_assert debug_assert_eq debug_assert_ne vec format format_args
  print println eprint eprintln write writeln panic todo unimplemented unreachable dbg
  info debug warn error trace bail ensure anyhow format_err`.split(/\s+/),
);

/** `[A-Za-z0-9_]` */
function ident(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** White space as a regular expression's `\s` knows it. */
function space(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

/** The text with the names of expression macros blanked (see above); a scan by character codes. */
export function prepareMacros(text: string): string {
  if (!text.includes("!")) return text;
  const ranges: [number, number][] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    // Comments.
    if (c === 47 && next === 47) { // `//`
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === 47 && next === 42) { // `/*`, nested
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        const k = text.charCodeAt(i);
        const k2 = text.charCodeAt(i + 1);
        if (k === 47 && k2 === 42) (depth++, i += 2);
        else if (k === 42 && k2 === 47) (depth--, i += 2);
        else i++;
      }
      continue;
    }
    // Raw strings r"..", r#".."#, br#".."#.
    if ((c === 114 || (c === 98 && next === 114)) && !ident(text.charCodeAt(i - 1))) {
      let j = c === 98 ? i + 2 : i + 1;
      let hashes = 0;
      while (text.charCodeAt(j) === 35) (hashes++, j++);
      if (text.charCodeAt(j) === 34) {
        const close = '"' + "#".repeat(hashes);
        const end = text.indexOf(close, j + 1);
        i = end < 0 ? n : end + close.length;
        continue;
      }
    }
    if (c === 34) { // a string
      i++;
      while (i < n) {
        const k = text.charCodeAt(i);
        if (k === 34) break;
        i += k === 92 ? 2 : 1;
      }
      i++;
      continue;
    }
    // A character literal ('a', '\n', '\u{1F600}'), else a lifetime ('a).
    if (c === 39) {
      if (next === 92) {
        const end = text.indexOf("'", i + 2);
        i = end < 0 ? n : end + 1;
        continue;
      }
      if (text.charCodeAt(i + 2) === 39) {
        i += 3;
        continue;
      }
      i++;
      continue;
    }
    if (ident(c) && !ident(text.charCodeAt(i - 1))) {
      let j = i + 1;
      while (j < n && ident(text.charCodeAt(j))) j++;
      let k = j;
      while (k < n && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
      if (
        text.charCodeAt(k) === 33 && text.charCodeAt(i - 1) !== 36 &&
        EXPRESSION_MACROS.has(text.slice(i, j))
      ) {
        let open = k + 1;
        while (open < n && space(text[open])) open++;
        const o = text.charCodeAt(open);
        if (o === 40 || o === 91) ranges.push([pathStart(text, i), k + 1]);
      }
      i = j;
      continue;
    }
    i++;
  }
  return ranges.length ? blank(text, ranges) : text;
}

/** Start of the path before a macro name (`log::info`, `::std::println`), or the name itself. */
function pathStart(text: string, name: number): number {
  let start = name;
  for (;;) {
    let k = start;
    while (k > 0 && (text[k - 1] === " " || text[k - 1] === "\t")) k--;
    if (text[k - 1] !== ":" || text[k - 2] !== ":") return start;
    k -= 2;
    while (k > 0 && (text[k - 1] === " " || text[k - 1] === "\t")) k--;
    let s = k;
    while (s > 0 && ident(text.charCodeAt(s - 1))) s--;
    if (s === k) return k; // `::std` at the start of a path
    start = s;
  }
}

/** The text with spaces over each range (in order), line breaks kept. */
function blank(text: string, ranges: [number, number][]): string {
  const parts: string[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    const from = Math.max(a, at);
    if (b <= from) continue;
    parts.push(text.slice(at, from), text.slice(from, b).replace(/[^\r\n]/g, " "));
    at = b;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
