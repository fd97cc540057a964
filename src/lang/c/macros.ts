/**
 * C and C++ source made parseable without a preprocessor, in the same bytes: every offset and line
 * stays where it was, only characters become spaces (or, for macro bodies, move within a line).
 * Tree-sitter sees no macro expansion, so a macro where the grammar expects a declaration turns the
 * whole class or function around it into an ERROR tree. Blanked:
 * - export and visibility macros in class heads (`class LEVELDB_EXPORT DB {`) and before
 *   declarations (`YAML_CPP_API Node Load(...)`, `LUA_API int lua_gettop (...)`);
 * - calling-convention and pointer macros between a type and its declarator
 *   (`int ZEXPORT deflate(...)`, `struct state FAR *s`);
 * - annotations after a declarator (`void Lock() EXCLUSIVE_LOCK_FUNCTION();`,
 *   `Mutex mu_ GUARDED_BY(x);`);
 * - macros on a line of their own between declarations (`FMT_BEGIN_NAMESPACE`, `Q_OBJECT`);
 * - a lower-case macro before a complete declaration (`local int f(`, `l_sinline void *g(`);
 * - conditional compilation inside function bodies, where one branch is kept (see
 *   blankConditionalsInCode).
 * An upper-case name (three or more characters) counts as a macro only where an identifier cannot
 * stand in valid code (`class A B {`, `int A f(`, `f() A(x);`), so ordinary code is left alone.
 * With `macroBodies`, function-like macros also become functions (see macroFunctions).
 */
import { blankConditionalsInCode } from "./conditionals.ts";
import { applyEdits, macroFunctions } from "./macro_functions.ts";
import { type Token, tokenize } from "./tokens.ts";

/** Upper-case names that are ordinary values or types, never annotations. */
const NOT_MACROS = new Set(["NULL", "TRUE", "FALSE", "EOF", "FILE", "DIR", "BOOL", "VOID"]);

const KEYWORDS = new Set(
  `alignas alignof and asm auto bool break case catch char char8_t char16_t char32_t class co_await
  co_return co_yield concept const consteval constexpr constinit const_cast continue decltype default
  delete do double dynamic_cast else enum explicit export extern false float for friend goto if
  inline int long mutable namespace new noexcept not nullptr operator or private protected public
  register reinterpret_cast requires return short signed sizeof static static_assert static_cast
  struct switch template this thread_local throw true try typedef typeid typename union unsigned
  using virtual void volatile wchar_t while _Bool _Complex _Atomic _Noreturn _Static_assert
  __attribute__ __declspec restrict __restrict __inline __forceinline`.split(/\s+/),
);
/** Tokens a declaration follows, and tokens that end a declarator. */
const LIST_END = new Set([";", "{", "}"]);
const DECLARATOR_END = new Set(["(", "[", "=", ";"]);
/** Keywords that can start or qualify a type (`unsigned long`, `const T`). */
const TYPE_WORDS = new Set(
  `auto bool char char8_t char16_t char32_t double float int long short signed unsigned void wchar_t
  _Bool _Complex`.split(/\s+/),
);
const QUALIFIERS = new Set(["const", "volatile", "struct", "union", "enum", "class", "typename"]);
/** Specifiers that may precede a declaration's type (and a leading macro). */
const SPECIFIERS = new Set(
  `static inline extern virtual explicit constexpr consteval constinit friend typedef thread_local
  __inline __forceinline mutable register`.split(/\s+/),
);
/** Keywords after which a `(` is no declarator's parameter list. */
const NOT_DECLARATORS = new Set(
  `if while for switch catch return sizeof decltype alignof alignas noexcept static_assert
  __attribute__ __declspec defined typeof __typeof__ _Alignof _Generic throw case new delete`
    .split(/\s+/),
);
/** Tokens after which an identifier is no type of a declaration (`return A b(`). */
const NOT_TYPES = new Set(
  `return new delete case throw else goto sizeof typedef struct union enum class const volatile
  typename static inline extern virtual explicit friend constexpr co_return co_yield co_await do
  using namespace public private protected operator template`.split(/\s+/),
);

/** `[A-Z_][A-Z0-9_]{2,}` with at least one letter, and not one of NOT_MACROS. */
export function isMacroName(text: string): boolean {
  const n = text.length;
  if (n < 3) return false;
  let letter = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) letter = true;
    else if (c !== 95 && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return letter && !NOT_MACROS.has(text);
}

/** The text with annotation macros replaced by spaces (same length, same lines). */
export function blankMacros(text: string, opts: { macroBodies?: boolean } = {}): string {
  // One tokenization serves every pass: blanking whole tokens leaves the others as they were, so
  // a pass's tokens are the previous pass's without the blanked ones. Only rewriting a macro as a
  // function makes new tokens.
  let tokens = tokenize(text, true);
  let ranges = blankConditionalsInCode(tokens);
  let code = spaceOut(text, ranges);
  tokens = without(tokens, ranges);
  if (opts.macroBodies) {
    const edits = macroFunctions(tokens);
    if (edits.size) {
      code = applyEdits(code, edits);
      // A directive rewritten as a function is code now: its own tokens, in place.
      const rewritten: Token[] = [];
      for (const tk of tokens) {
        const edit = tk.kind === "pp" ? edits.get(tk.start) : undefined;
        if (edit === undefined) {
          rewritten.push(tk);
          continue;
        }
        for (const t of tokenize(edit, true)) {
          rewritten.push({
            ...t,
            start: t.start + tk.start,
            end: t.end + tk.start,
            line: t.line + tk.line,
          });
        }
      }
      tokens = rewritten;
    }
  }
  tokens = tokens.filter((tk) => tk.kind !== "pp");
  ranges = blankUpperCase(code, tokens);
  code = spaceOut(code, ranges);
  return spaceOut(code, blankLeadingWords(without(tokens, ranges)));
}

/** Tokens outside the blanked ranges (each range covers whole tokens). */
function without(tokens: Token[], ranges: [number, number][]): Token[] {
  if (!ranges.length) return tokens;
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: Token[] = [];
  let r = 0;
  for (const tk of tokens) {
    while (r < sorted.length && sorted[r][1] <= tk.start) r++;
    if (r < sorted.length && sorted[r][0] <= tk.start && tk.end <= sorted[r][1]) continue;
    out.push(tk);
  }
  return out;
}

/**
 * A lower-case macro before a complete declaration (`local int f(`, `l_sinline void *g(`,
 * `z_const unsigned char *next;`): two type-like words before a declarator name cannot both be
 * types. Runs after the upper-case pass,
 * so `uLong ZEXPORT adler32(` has lost its macro and keeps its type.
 */
function blankLeadingWords(tokens: Token[]): [number, number][] {
  const n = tokens.length;
  // An identifier that is neither a keyword nor a macro's name, for each token (no closures here:
  // a function made per file keeps the optimizer from settling).
  const plain = new Uint8Array(n + 1);
  for (let i = 0; i < n; i++) {
    const tk = tokens[i];
    plain[i] = tk.kind === "id" && !KEYWORDS.has(tk.text) && !isMacroName(tk.text) ? 1 : 0;
  }
  const ranges: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (plain[i] !== 1) continue;
    const next = i + 1 < n ? tokens[i + 1].text : "";
    if (!(plain[i + 1] === 1 || TYPE_WORDS.has(next) || QUALIFIERS.has(next))) continue;
    let j = i - 1;
    while (j >= 0 && SPECIFIERS.has(tokens[j].text)) j--;
    if (j >= 0 && !LIST_END.has(tokens[j].text)) continue;
    // i+1.. must be: type words, pointers, then the name and `(`
    let k = i + 1;
    let names = 0;
    while (k < n) {
      const tk = tokens[k];
      if (tk.kind === "id") {
        if (KEYWORDS.has(tk.text) && !TYPE_WORDS.has(tk.text) && !QUALIFIERS.has(tk.text)) break;
        if (!QUALIFIERS.has(tk.text)) names++;
      } else if (tk.text !== "*" && tk.text !== "&") break;
      k++;
    }
    // `local int f(`, `local const config table[2] = {`, `z_const unsigned char *next;`
    const after = k < n ? tokens[k].text : "";
    if (names >= 2 && DECLARATOR_END.has(after) && k - 1 >= 0 && plain[k - 1] === 1) {
      ranges.push([tokens[i].start, tokens[i].end]);
      i = k;
    }
  }
  return ranges;
}

/** The text with each range's characters turned into spaces, its line breaks kept. */
function spaceOut(text: string, ranges: [number, number][]): string {
  if (!ranges.length) return text;
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [a, b] of sorted) {
    const from = Math.max(a, at);
    if (b <= from) continue;
    parts.push(text.slice(at, from), text.slice(from, b).replace(/[^\r\n]/g, " "));
    at = b;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** The tokens blankUpperCase reads, and its lookups: methods, not closures made per file. */
class Stream {
  readonly n: number;
  readonly ranges: [number, number][] = [];
  constructor(readonly text: string, readonly tokens: Token[]) {
    this.n = tokens.length;
  }
  blank(from: number, to: number): void {
    this.ranges.push([this.tokens[from].start, this.tokens[to].end]);
  }
  t(i: number): string {
    return i >= 0 && i < this.n ? this.tokens[i].text : "";
  }
  isId(i: number): boolean {
    return i >= 0 && i < this.n && this.tokens[i].kind === "id";
  }
  isMacro(i: number): boolean {
    return this.isId(i) && isMacroName(this.tokens[i].text);
  }
  /** Index of the `)` closing the `(` at i, or -1. */
  close(i: number, openCh = "(", closeCh = ")"): number {
    let depth = 0;
    for (let j = i; j < this.n; j++) {
      const s = this.t(j);
      if (s === openCh) depth++;
      else if (s === closeCh && --depth === 0) return j;
      else if (openCh === "<" && s === ">>" && (depth -= 2) <= 0) return j;
      else if (s === ";" || s === "{" || s === "}") return -1;
    }
    return -1;
  }
  /** A macro with optional arguments at i: index of its last token, or -1. */
  unit(i: number, args: boolean): number {
    if (!this.isMacro(i)) return -1;
    if (
      this.t(i + 1) === "(" &&
      this.tokens[i + 1].start === this.tokens[i].end + countSpaces(this.text, this.tokens[i].end)
    ) {
      if (!args) return -1;
      return this.close(i + 1);
    }
    return i;
  }
  /** Index of the `<` that opens the `>` at i, or -1. */
  openAngle(i: number): number {
    let depth = 0;
    for (let j = i; j >= 0; j--) {
      if (this.t(j) === ">") depth++;
      else if (this.t(j) === ">>") depth += 2;
      else if (this.t(j) === "<" && --depth === 0) return j;
      else if (this.t(j) === ";" || this.t(j) === "{" || this.t(j) === "}") return -1;
    }
    return -1;
  }
  /** Whether a declaration may start at i (after `;`, braces, an access label, `template <...>`). */
  declStart(i: number): boolean {
    let j = i - 1;
    while (j >= 0 && this.isId(j) && SPECIFIERS.has(this.t(j))) j--;
    if (j < 0) return true;
    const p = this.t(j);
    if (p === ";" || p === "{" || p === "}") return true;
    if (p === ":" && /^(public|private|protected)$/.test(this.t(j - 1))) return true;
    if (p === ">") {
      const open = this.openAngle(j);
      return open > 0 && this.t(open - 1) === "template";
    }
    return false;
  }
  /**
   * A declaration after the macros, from i: a type and a declarator name then `(`, `;`, `=`, `{`,
   * `[` or `,` (`Status DestroyDB(`, `const char *f(`, `int (f) (`, `auto size() ->`).
   */
  declarationAt(i: number): boolean {
    let names = 0;
    let typed = false;
    let lastWasName = false;
    for (let j = i; j < this.n && j < i + 40; j++) {
      const s = this.t(j);
      if (this.isId(j)) {
        if (s === "operator") return typed || names > 0;
        if (QUALIFIERS.has(s) || SPECIFIERS.has(s)) continue;
        if (KEYWORDS.has(s) && !TYPE_WORDS.has(s)) return false;
        if (lastWasName) {
          if (TYPE_WORDS.has(this.t(j - 1)) || names > 0) typed = true;
        }
        if (TYPE_WORDS.has(s)) typed = true;
        names++;
        lastWasName = true;
        continue;
      }
      if (s === "::") {
        lastWasName = false;
        names = Math.max(0, names - 1);
        continue;
      }
      if (s === "<") {
        const end = this.close(j, "<", ">");
        if (end < 0) return false;
        j = end;
        continue;
      }
      if (s === "*" || s === "&" || s === "&&") {
        if (names > 0) typed = true;
        lastWasName = false;
        continue;
      }
      if (s === "(" && this.isId(j + 1) && this.t(j + 2) === ")" && this.t(j + 3) === "(") {
        return names > 0;
      }
      if (/^[(;={[,]$/.test(s)) return typed && names >= 2 || (typed && names >= 1 && !lastWasName);
      return false;
    }
    return false;
  }
}

function blankUpperCase(text: string, tokens: Token[]): [number, number][] {
  const v = new Stream(text, tokens);
  const n = tokens.length;
  for (let i = 0; i < n; i++) {
    const s = v.t(i);
    // 1. `class EXPORT Name {` / `struct EXPORT Name : Base {` / `class A B Name final {`.
    if ((s === "class" || s === "struct" || s === "union") && v.isMacro(i + 1)) {
      const units: [number, number][] = [];
      let j = i + 1;
      for (let end = v.unit(j, true); end >= 0; end = v.unit(j, true)) {
        units.push([j, end]);
        j = end + 1;
      }
      // The last "macro" may be the class's own upper-case name.
      if (!v.isId(j) || v.t(j) === "final") {
        const last = units.pop();
        if (!last || last[0] !== last[1]) continue;
        j = last[0];
      }
      let k = j + 1;
      if (v.t(k) === "<") k = v.close(k, "<", ">") + 1;
      if (k <= 0) continue;
      if (v.t(k) === "final") k++;
      if ((v.t(k) === "{" || v.t(k) === ":") && units.length) {
        for (const [a, b] of units) v.blank(a, b);
      }
      continue;
    }
    if (!v.isMacro(i)) continue;
    const end = v.unit(i, true);
    if (end < 0) continue;
    // 2. Leading macros of a declaration: `LUA_API int f (`, `YAML_CPP_API Node Load(`,
    //    `FMT_CONSTEXPR auto size() ->`, `inline FMT_INLINE void g() {`.
    if (v.declStart(i)) {
      let last = end;
      while (v.isMacro(last + 1) && v.unit(last + 1, true) >= 0) last = v.unit(last + 1, true);
      const after = last + 1;
      if (
        v.declarationAt(after) ||
        (v.isId(after) &&
          /^(class|struct|union|template|namespace|enum|typedef|using|extern)$/.test(v.t(after)))
      ) {
        v.blank(i, last);
        i = last;
        continue;
      }
      // 5. A macro on a line of its own between declarations (`FMT_BEGIN_NAMESPACE`, `Q_OBJECT`),
      //    unless it is the return type of the function named on the next line.
      const lineEnd = tokens[last].line;
      const alone = (i === 0 || tokens[i - 1].line < tokens[i].line) &&
        (after >= n || tokens[after].line > lineEnd);
      if (
        alone && !(v.isId(after) && v.t(after + 1) === "(") &&
        !/^[{;:,.)([]$|^->$|^<<$|^[-+*/%&|^=<>!?]/.test(v.t(after))
      ) {
        v.blank(i, last);
        i = last;
        continue;
      }
    }
    const prev = v.t(i - 1);
    // 3. Between a declaration's type and its declarator: `int ZEXPORT deflate(`,
    //    `char * ZEXPORT f(`, `struct state FAR *s;`, `(unsigned char FAR *)p`.
    if (end === i && (v.isId(i - 1) || prev === "*" || prev === "&" || prev === ">")) {
      const typeBefore = v.isId(i - 1);
      if (!(typeBefore && ((KEYWORDS.has(prev) && !TYPE_WORDS.has(prev)) || v.isMacro(i - 1)))) {
        let j = i;
        while (v.isMacro(j + 1) && v.unit(j + 1, false) === j + 1) j++;
        let k = j + 1;
        let stars = 0;
        while (v.t(k) === "*" || v.t(k) === "&" || v.t(k) === "&&") k++, stars++;
        let ok = false;
        if (v.isId(k) && !KEYWORDS.has(v.t(k))) {
          while (v.t(k + 1) === "::" && v.isId(k + 2)) k += 2;
          ok = v.t(k + 1) === "(" || (typeBefore && /^[;=,[)]$/.test(v.t(k + 1)));
        } else ok = typeBefore && stars > 0 && v.t(k) === ")";
        if (ok) {
          v.blank(i, j);
          i = j;
          continue;
        }
      }
    }
    // 4. After a declarator: `void Lock() EXCLUSIVE_LOCK_FUNCTION();`,
    //    `int f() const LOCKS_EXCLUDED(mu_) {`, `Mutex mu_ GUARDED_BY(x);`.
    let q = i - 1;
    while (/^(const|volatile|override|final|noexcept|&|&&)$/.test(v.t(q))) q--;
    let trailing = false;
    if (v.t(q) === ")") {
      const open = openParen(tokens, q);
      const name = open - 1;
      trailing = open > 0 &&
        ((v.isId(name) && !NOT_DECLARATORS.has(v.t(name)) && !KEYWORDS.has(v.t(name)) &&
          !v.isMacro(name)) ||
          v.t(name) === ">" || /^[^\w\s]+$/.test(v.t(name)) && v.t(name - 1) === "operator");
    } else if (q === i - 1 && v.isId(q) && !KEYWORDS.has(v.t(q)) && !v.isMacro(q) && end > i) {
      // a field: a type, then the field's name, then the annotation
      const before = v.t(q - 1);
      trailing = (v.isId(q - 1) && !NOT_TYPES.has(before) && !KEYWORDS.has(before) ||
        TYPE_WORDS.has(before) || before === ">" || before === "*" || before === "&") &&
        /^[;=,{]$/.test(v.t(end + 1));
    }
    if (trailing) {
      let last = end;
      while (v.isMacro(last + 1) && v.unit(last + 1, true) >= 0) last = v.unit(last + 1, true);
      const next = v.t(last + 1);
      if (
        /^[;{=:,]$/.test(next) || /^(const|override|final|noexcept|try|->)$/.test(next)
      ) {
        v.blank(i, last);
        i = last;
      }
    }
  }
  return v.ranges;
}

function countSpaces(text: string, at: number): number {
  let k = 0;
  while (at + k < text.length && (text[at + k] === " " || text[at + k] === "\t")) k++;
  return k;
}

/** Index of the `(` that the `)` at i closes, or -1. */
function openParen(tokens: Token[], i: number): number {
  let depth = 0;
  for (let j = i; j >= 0; j--) {
    const s = tokens[j].text;
    if (s === ")") depth++;
    else if (s === "(" && --depth === 0) return j;
    else if (s === ";" || s === "{" || s === "}") return -1;
  }
  return -1;
}
