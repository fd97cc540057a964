import type { Token } from "./tokens.ts";

/**
 * Conditional compilation inside function bodies. Tree-sitter reads every branch as if the others
 * were not there, which breaks when a branch boundary cuts a statement (`else` right before
 * `#endif`, `if (` ... `#else` ... `if (`): the function's end is lost and the functions after it
 * nest inside it. Inside code, the directives are blanked and one configuration is kept: the one a
 * default build compiles, as far as the file tells. A name is defined when the file `#define`s it
 * before (and has not `#undef`ined it since) or the compiler predefines it (PREDEFINED): `#ifdef
 * MAXSEG_64K` takes its `#else`, `#ifndef FASTEST` its first branch, `#if 0` the next branch. A
 * condition it cannot read (`#if LUA_VERSION_NUM >= 503`, a reserved name such as `_WIN32` or
 * `__cpp_lib_bit_cast`) takes the first branch. Declarations
 * outside bodies keep every branch: tree-sitter handles alternatives between whole declarations.
 */
export function blankConditionalsInCode(tokens: Token[]): [number, number][] {
  const ranges: [number, number][] = [];
  // Most files have no conditional at all: nothing to follow braces for.
  if (!tokens.some((tk) => tk.kind === "pp" && /^#\s*if/.test(tk.text))) return ranges;
  const kept: Token[] = [];
  const braces: boolean[] = [];
  let code = 0;
  let skipping = false;
  const conds: { inCode: boolean; parentSkip: boolean; taken: boolean }[] = [];
  const defined = new Set<string>();
  for (const tk of tokens) {
    if (tk.kind === "pp") {
      const def = /^#\s*(define|undef)\s+([A-Za-z_]\w*)/.exec(tk.text);
      if (def && !skipping) {
        if (def[1] === "define") defined.add(def[2]);
        else defined.delete(def[2]);
      }
      const m = /^#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)/s.exec(tk.text);
      if (!m) {
        if (skipping) ranges.push([tk.start, tk.end]);
        continue;
      }
      const d = m[1];
      if (d === "if" || d === "ifdef" || d === "ifndef") {
        if (code > 0 || skipping) {
          const holds = conditionHolds(d, m[2], defined);
          conds.push({ inCode: true, parentSkip: skipping, taken: holds });
          skipping = skipping || !holds;
          ranges.push([tk.start, tk.end]);
        } else conds.push({ inCode: false, parentSkip: false, taken: true });
        continue;
      }
      const c = conds[conds.length - 1];
      if (!c?.inCode) {
        if (d === "endif") conds.pop();
        continue;
      }
      ranges.push([tk.start, tk.end]);
      if (d === "endif") {
        skipping = c.parentSkip;
        conds.pop();
      } else if (!c.taken && (d === "else" || conditionHolds(d.slice(2), m[2], defined))) {
        c.taken = true;
        skipping = c.parentSkip;
      } else skipping = true;
      continue;
    }
    if (skipping) {
      ranges.push([tk.start, tk.end]);
      continue;
    }
    if (tk.text === "{") {
      const isCode = opensCode(kept);
      braces.push(isCode);
      if (isCode) code++;
    } else if (tk.text === "}") {
      if (braces.pop()) code--;
    }
    kept.push(tk);
  }
  return ranges;
}

/**
 * Names every C and C++ compiler of a default build (GCC or Clang, Linux, x86-64 or arm64)
 * defines itself.
 */
const PREDEFINED = new Set([
  "__GNUC__",
  "__GNUC_MINOR__",
  "__clang__",
  "__STDC__",
  "__STDC_VERSION__",
  "__STDC_HOSTED__",
  "__linux__",
  "__linux",
  "__unix__",
  "__unix",
  "__ELF__",
  "__LP64__",
  "_LP64",
  "__CHAR_BIT__",
  "__SIZEOF_POINTER__",
  "__SIZEOF_LONG__",
  "__BYTE_ORDER__",
  "__ORDER_LITTLE_ENDIAN__",
  "__x86_64__",
  "__amd64__",
]);

/**
 * Whether the branch after `#if`/`#ifdef`/`#ifndef` (or `#elif`, `#elifdef`, `#elifndef`, given
 * without their `el`) `rest` is compiled: `defined` names and the predefined ones are defined;
 * `0`, `1`, `defined(X)`, `!defined(X)` and `X` alone are read; anything else counts as true.
 */
export function conditionHolds(directive: string, rest: string, defined: Set<string>): boolean {
  const text = rest.replace(/\/\*.*?\*\/|\/\/.*$/gs, "").trim();
  const isDefined = (name: string) => defined.has(name) || PREDEFINED.has(name);
  // A reserved name (`__cpp_lib_bit_cast`, `_MSC_VER`) is the compiler's or the library's to
  // define, as the file cannot tell: its first branch is kept, whatever the test.
  const unknown = (name: string) => /^_[_A-Z]/.test(name) && !isDefined(name);
  if (directive === "ifdef" || directive === "ifndef") {
    const name = text.split(/\s/)[0];
    return unknown(name) || isDefined(name) === (directive === "ifdef");
  }
  if (/^0+$/.test(text)) return false;
  if (/^\d+$/.test(text)) return true;
  const test = /^(!\s*)?defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|\s([A-Za-z_]\w*))$/.exec(text);
  if (test) {
    const name = test[2] ?? test[3];
    return unknown(name) || isDefined(name) !== !!test[1];
  }
  // `#if FASTEST`: a name no file defines is 0.
  if (/^[A-Za-z_]\w*$/.test(text)) return unknown(text) || isDefined(text);
  return true;
}

/** Whether the `{` after these tokens opens code (a body, a block, an initializer). */
export function opensCode(before: Token[]): boolean {
  const t = (k: number) => (k >= 0 ? before[k].text : "");
  const last = before.length - 1;
  if (t(last) === "namespace" || (before[last]?.kind === "str" && t(last - 1) === "extern")) {
    return false;
  }
  let angle = 0;
  for (let k = last; k >= 0 && k > last - 60; k--) {
    const s = t(k);
    if (s === ">") angle++;
    else if (s === ">>") angle += 2;
    else if (s === "<") angle--;
    else if (angle > 0) continue;
    else if (
      s === "namespace" || s === "class" || s === "struct" || s === "union" || s === "enum"
    ) {
      return false;
    } else if (/^[;{}()=]$/.test(s) || s === "return") return true;
  }
  return true;
}
