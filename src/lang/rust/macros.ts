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

const IDENT = /[A-Za-z0-9_]/;

export function prepareMacros(text: string): string {
  if (!text.includes("!")) return text;
  const out = text.split("");
  let changed = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const ch = text[i];
    // Comments.
    if (ch === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (ch === "/" && text[i + 1] === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === "/" && text[i + 1] === "*") (depth++, i += 2);
        else if (text[i] === "*" && text[i + 1] === "/") (depth--, i += 2);
        else i++;
      }
      continue;
    }
    // Raw strings r"..", r#".."#, br#".."#.
    if ((ch === "r" || (ch === "b" && text[i + 1] === "r")) && !IDENT.test(text[i - 1] ?? "")) {
      let j = ch === "b" ? i + 2 : i + 1;
      let hashes = 0;
      while (text[j] === "#") (hashes++, j++);
      if (text[j] === '"') {
        const close = '"' + "#".repeat(hashes);
        const end = text.indexOf(close, j + 1);
        i = end < 0 ? n : end + close.length;
        continue;
      }
    }
    if (ch === '"') {
      i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    // A character literal ('a', '\n', '\u{1F600}'), else a lifetime ('a).
    if (ch === "'") {
      if (text[i + 1] === "\\") {
        const end = text.indexOf("'", i + 2);
        i = end < 0 ? n : end + 1;
        continue;
      }
      if (text[i + 2] === "'") {
        i += 3;
        continue;
      }
      i++;
      continue;
    }
    if (IDENT.test(ch) && !IDENT.test(text[i - 1] ?? "")) {
      let j = i;
      while (j < n && IDENT.test(text[j])) j++;
      const name = text.slice(i, j);
      let k = j;
      while (k < n && (text[k] === " " || text[k] === "\t")) k++;
      if (text[k] === "!" && EXPRESSION_MACROS.has(name) && text[i - 1] !== "$") {
        let open = k + 1;
        while (open < n && /\s/.test(text[open])) open++;
        if (text[open] === "(" || text[open] === "[") {
          blank(out, pathStart(text, i), k + 1);
          changed = true;
        }
      }
      i = j;
      continue;
    }
    i++;
  }
  return changed ? out.join("") : text;
}

/** Start of the path before a macro name (`log::info`, `::std::println`), or the name itself. */
function pathStart(text: string, name: number): number {
  let start = name;
  for (;;) {
    let k = start;
    while (k > 0 && /[ \t]/.test(text[k - 1])) k--;
    if (text[k - 1] !== ":" || text[k - 2] !== ":") return start;
    k -= 2;
    while (k > 0 && /[ \t]/.test(text[k - 1])) k--;
    let s = k;
    while (s > 0 && IDENT.test(text[s - 1])) s--;
    if (s === k) return k; // `::std` at the start of a path
    start = s;
  }
}

/** Spaces over [from, to), line breaks kept. */
function blank(out: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (out[i] !== "\n" && out[i] !== "\r") out[i] = " ";
}
