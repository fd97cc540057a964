import type { Token } from "./tokens.ts";

/**
 * Conditional compilation inside function bodies. Tree-sitter reads every branch as if the others
 * were not there, which breaks when a branch boundary cuts a statement (`else` right before
 * `#endif`, `if (` ... `#else` ... `if (`): the function's end is lost and the functions after it
 * nest inside it. Inside code, the directives are blanked and one configuration is kept, the first
 * branch of each conditional (the next branch after `#if 0`). Declarations outside bodies keep
 * every branch: tree-sitter handles alternatives between whole declarations.
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
  for (const tk of tokens) {
    if (tk.kind === "pp") {
      const m = /^#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)/s.exec(tk.text);
      if (!m) {
        if (skipping) ranges.push([tk.start, tk.end]);
        continue;
      }
      const d = m[1];
      if (d === "if" || d === "ifdef" || d === "ifndef") {
        if (code > 0 || skipping) {
          const zero = d === "if" && /^\s*0\s*($|\/[/*])/.test(m[2]);
          conds.push({ inCode: true, parentSkip: skipping, taken: !zero });
          skipping = skipping || zero;
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
      } else if (!c.taken) {
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
