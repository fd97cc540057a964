import { type Token, tokenize } from "./tokens.ts";
import { opensCode } from "./conditionals.ts";

/** Return type that marks a function-like macro rewritten as a function (see macroFunctions). */
export const MACRO_MARK = "__m";

/** A function-like macro's definition: its name and parameters. */
const DEFINE = /^#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([\w\s,.]*)\)/;

/**
 * Function-like macros as functions, so their bodies are parsed and their calls extracted:
 * `#define lua_pop(L,n) lua_settop(L, -(n)-1)` becomes `__m lua_pop(L,n){lua_settop(L, -(n)-1);}`
 * in the same bytes (the directive's `#define ` pays for the marker and the braces; the body keeps
 * its lines). Only at file or namespace level, and only bodies whose brackets balance and that
 * paste or stringize nothing. A call to the macro is a call of what its body calls; a body that
 * defines things (`struct convert<type> { static Node encode(..) {..} }`) is read as code too, its
 * definitions folded into the macro (the analyzer keeps no definition inside a macro), so an
 * invocation where declarations stand (`DEFINE_CONVERT(int);`) makes what they call.
 */
export function macroFunctions(tokens: Token[]): Map<number, string> {
  const edits = new Map<number, string>();
  if (!tokens.some((tk) => tk.kind === "pp" && DEFINE.test(tk.text))) return edits;
  const kept: Token[] = [];
  const braces: boolean[] = [];
  let code = 0;
  for (const tk of tokens) {
    if (tk.kind !== "pp") {
      if (tk.text === "{") {
        const isCode = opensCode(kept);
        braces.push(isCode);
        if (isCode) code++;
      } else if (tk.text === "}" && braces.pop()) code--;
      kept.push(tk);
      continue;
    }
    if (code > 0) continue;
    const m = DEFINE.exec(tk.text);
    if (!m) continue;
    const head = m[0];
    const body = tk.text.slice(head.length);
    if (!body.trim() || body.includes("#")) continue;
    const inner = tokenize(body.replace(/\\(\r?\n)/g, " $1"));
    if (!inner.length || !balanced(inner)) continue;
    // `#define FLUSH(s) { ... }`: the body is a block of its own, the function's body as it is.
    if (wrapped(inner)) {
      const rewritten = `${MACRO_MARK} ${m[1]}(${m[2]})`.padEnd(head.length) +
        body.replace(/\\(\r?\n)/g, " $1");
      if (rewritten.length === tk.text.length) edits.set(tk.start, rewritten);
      continue;
    }
    // the last line of the body gives two characters back for `;}`
    const lines = body.split("\n");
    const last = lines[lines.length - 1];
    const decl = `${MACRO_MARK} ${m[1]}(${m[2]}){`;
    let rewritten: string;
    if (lines.length === 1) {
      const trimmed = body.trim();
      const room = tk.text.length - decl.length - trimmed.length - 2;
      if (room < 0) continue;
      rewritten = decl + trimmed + ";}" + " ".repeat(room);
    } else {
      // an indented last line gives back two characters for `;}` (one: `}`, and tree-sitter
      // supplies the missing `;`)
      const indent = /^[ \t]*/.exec(last)![0].length;
      if (decl.length > head.length || indent < 1) continue;
      const close = indent >= 2 ? ";}" : "}";
      const middle = lines.slice(0, -1).map((l) => l.replace(/\\(\r?)$/, " $1")).join("\n");
      const end = last.slice(close.length).replace(/\s+$/, "");
      const pad = last.length - close.length - end.length;
      rewritten = decl.padEnd(head.length) + middle + "\n" + end + close + " ".repeat(pad);
    }
    if (rewritten.length !== tk.text.length) continue;
    edits.set(tk.start, rewritten);
  }
  return edits;
}

/** The text with same-length rewrites at their starts. */
export function applyEdits(text: string, edits: Map<number, string>): string {
  let out = "";
  let at = 0;
  for (const [start, rewritten] of [...edits].sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, start) + rewritten;
    at = start + rewritten.length;
  }
  return out + text.slice(at);
}

/** Whether the tokens are one `{ ... }` block: the first brace closes at the last token. */
function wrapped(tokens: Token[]): boolean {
  if (tokens[0]?.text !== "{" || tokens[tokens.length - 1].text !== "}") return false;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].text === "{") depth++;
    else if (tokens[i].text === "}" && --depth === 0) return i === tokens.length - 1;
  }
  return false;
}

function balanced(tokens: Token[]): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
  for (const t of tokens) {
    if (t.text === "(" || t.text === "[" || t.text === "{") stack.push(t.text);
    else if (t.text in pairs && stack.pop() !== pairs[t.text]) return false;
  }
  return stack.length === 0;
}
