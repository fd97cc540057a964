/**
 * Annotated call fixtures (fixtures/annotated/<lang>/), in the style of tree-sitter's tag tests:
 * every call in a fixture carries a comment on the line below it that says which definition the
 * call must reach, or that it must reach nothing. Each directory is indexed in memory (walk, read,
 * analyze, resolve: the indexer's pipeline, no database) and every annotation is checked.
 *
 * Syntax (the comment token is the language's: `#` for Python and Ruby, `//` elsewhere):
 *
 *     repo.save(order)
 *     # ^ calls: shop.repo.Repo.save
 *
 * An annotation line is a comment whose text starts with `^`; it refers to the nearest line above
 * it that is not an annotation (annotations may stack). Its text is clauses separated by `;`:
 *
 *   calls: A, B          the calls on that line produce CALLS edges to exactly A and B (qualified
 *                        names), from the definition they are credited to, and no other
 *   calls: nothing       the calls on that line produce no CALLS edge at all
 *   instantiates: T      the same, for INSTANTIATES edges (`new T()`, `T()`); a line annotated
 *                        with `calls` but not `instantiates` must instantiate nothing, and the
 *                        reverse
 *   caller: X            the calls on that line are credited to X: a qualified name, a dotted
 *                        suffix of one (`Outer.inner`), or a file path for file level. Without it
 *                        they must be credited to the innermost definition whose lines contain
 *                        the call (a decorator's line is outside the definition it decorates)
 *
 * A target may select one overload by its declared parameter types, as the indexer reads them
 * (bare type names): `p.A.put(int)`, `p.A.put()`, `p.Log.f(String, Object...)` (`...` marks the
 * variadic parameter, `_` stands for an untyped one). A target without a selector that reaches two
 * definitions of that name in one file (overloads, Python `@overload` stubs) fails: one call
 * never reaches every overload.
 *
 * A clause ending in `(todo)` states what the language's compiler resolves but cgraph does not
 * yet: it is listed, never fails the test, and fails it once it holds (so that it gets promoted).
 * Free text after ` -- ` is a note. Edges are attributed to a line exactly: the line's calls are
 * removed and the repository resolved again; what it no longer produces is the line's.
 *
 * The rule a fixture file exercises (numbered as in fixtures/annotated/README.md) is the first
 * path segment, from the file name up, named `r<N>...`; files of rule 8 must hold a syntax error.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DefFact, FileFacts } from "../src/graph/facts.ts";
import { fileId } from "../src/graph/model.ts";
import { resolveAll } from "../src/index/resolve/mod.ts";
import { analyzeFiles, readCandidates } from "../src/index/scan.ts";
import { walkRepository } from "../src/index/walk.ts";
import { languageByName } from "../src/lang/registry.ts";

const ROOT = fileURLToPath(new URL("../fixtures/annotated/", import.meta.url));
const HASH_COMMENTS = new Set(["python", "ruby"]);

type ClauseKind = "calls" | "instantiates" | "caller";

interface Target {
  name: string;
  /** Declared parameter types of the overload meant; undefined without a selector. */
  params?: string[];
}

interface Clause {
  kind: ClauseKind;
  targets: Target[];
  todo: boolean;
  /** Implied by the other kind's clause (`calls` without `instantiates`): never todo. */
  implicit?: boolean;
  text: string;
}

interface CallSite {
  path: string;
  /** Line of the call the annotations refer to. */
  line: number;
  clauses: Clause[];
  rule: string;
}

interface Sym {
  id: string;
  qualified: string;
  path: string;
  line: number;
  endLine: number;
  def: DefFact;
}

interface Outcome {
  site: CallSite;
  clause: Clause;
  holds: boolean;
  detail: string;
}

const fixtureDirs = [...Deno.readDirSync(ROOT)].filter((e) => e.isDirectory).map((e) => e.name)
  .sort();

for (const lang of fixtureDirs) {
  Deno.test(`annotated calls: ${lang}`, async () => {
    const { outcomes, errors } = await checkFixture(lang);
    const rel = (s: CallSite) => `fixtures/annotated/${lang}/${s.path}:${s.line}`;
    const failed = outcomes.filter((o) => o.holds === o.clause.todo);
    const todo = outcomes.filter((o) => o.clause.todo && !o.holds);
    const problems = [
      ...errors.map((e) => `fixtures/annotated/${lang}/${e}`),
      ...failed.map((o) =>
        o.clause.todo
          ? `${rel(o.site)}: holds now, drop its (todo): ${o.clause.text}`
          : `${rel(o.site)}: ${o.clause.text} => ${o.detail}`
      ),
    ];
    const byRule = new Map<string, { holds: number; todo: number }>();
    for (const o of outcomes.filter((o) => !o.clause.implicit)) {
      const c = byRule.get(o.site.rule) ?? byRule.set(o.site.rule, { holds: 0, todo: 0 })
        .get(o.site.rule)!;
      if (o.clause.todo) c.todo++;
      else c.holds++;
    }
    const rules = [...byRule].sort().map(([r, c]) => `${r} ${c.holds}/${c.todo}`).join(", ");
    console.log(`${lang}: annotations holding/todo by rule: ${rules}`);
    for (const o of todo) console.log(`  todo ${rel(o.site)}: ${o.clause.text} => ${o.detail}`);
    assert.ok(problems.length === 0, `${problems.length} problem(s):\n${problems.join("\n")}`);
  });
}

async function checkFixture(
  lang: string,
): Promise<{ outcomes: Outcome[]; errors: string[] }> {
  const dir = join(ROOT, lang);
  const walk = await walkRepository(dir);
  const read = await readCandidates(walk.files, walk.skipped);
  const facts = await analyzeFiles(read, walk.skipped);
  const errors = walk.skipped.map((s) => `${s.path}: skipped (${s.reason})`);
  const base = resolveAll(facts, languageByName);
  errors.push(...base.failures.map((f) => `${f}: resolution threw`));

  const symbols = new Map<string, Sym>();
  const byName = new Map<string, Sym[]>();
  for (const f of facts) {
    (base.symbols.get(f.path) ?? []).forEach((s, i) => {
      const sym = {
        id: s.id,
        qualified: s.qualified_name,
        path: f.path,
        line: s.line,
        endLine: s.end_line,
        def: f.defs[i],
      };
      symbols.set(s.id, sym);
      byName.set(sym.qualified, [...(byName.get(sym.qualified) ?? []), sym]);
    });
  }
  const nameOf = (id: string) =>
    symbols.get(id)?.qualified ?? facts.find((f) => fileId(f.path) === id)?.path ?? id;
  const baseCounts = edgeCounts(base.edges);

  const outcomes: Outcome[] = [];
  for (const f of facts) {
    const text = await Deno.readTextFile(join(dir, f.path));
    const { sites, errors: syntax } = parseAnnotations(f, text);
    errors.push(...syntax);
    if (sites.length && ruleOf(f.path) === "r8" && f.parseErrors === 0) {
      errors.push(`${f.path}: a rule 8 fixture must hold a syntax error`);
    }
    for (const site of sites) {
      const calls = f.calls.filter((c) => c.line === site.line);
      const ids = base.symbols.get(f.path) ?? [];
      const callers = new Set(calls.map((c) => c.from >= 0 ? ids[c.from].id : fileId(f.path)));
      // The line's edges: what the repository no longer produces without the line's calls.
      const produced: { type: string; from: string; to: Sym }[] = [];
      if (calls.length) {
        const without = facts.map((x) =>
          x === f ? { ...x, calls: x.calls.filter((c) => c.line !== site.line) } : x
        );
        const counts = edgeCounts(resolveAll(without, languageByName).edges);
        for (const [key, e] of baseCounts) {
          if (!callers.has(e.from) || (counts.get(key)?.count ?? 0) >= e.count) continue;
          const to = symbols.get(e.to);
          if (to) produced.push({ type: e.type, from: e.from, to });
        }
      }
      const context = () => {
        const names = calls.map((c) => `${c.receiver ? c.receiver + "." : ""}${c.name}`);
        const from = [...callers].map(nameOf);
        const all = [...baseCounts.values()].filter((e) => callers.has(e.from)).map((e) =>
          `${e.type === "CALLS" ? "" : e.type + " "}${nameOf(e.to)}`
        );
        return `calls on the line: [${names.join(", ")}] credited to [${from.join(", ")}]; ` +
          `its edges: [${all.join(", ")}]`;
      };
      for (const clause of site.clauses) {
        let detail: string;
        if (clause.kind === "caller") {
          const want = clause.targets[0].name;
          const got = [...callers].map(nameOf);
          detail = !calls.length
            ? "no call extracted on the line"
            : got.every((g) => g === want || g.endsWith(`.${want}`))
            ? ""
            : `credited to [${got.join(", ")}]`;
        } else {
          const type = clause.kind === "calls" ? "CALLS" : "INSTANTIATES";
          detail = compareTargets(
            clause.targets,
            produced.filter((p) => p.type === type).map((p) => p.to),
            byName,
          );
          if (detail && !calls.length) detail += "; no call extracted on the line";
        }
        if (detail && !clause.implicit) detail += `; ${context()}`;
        outcomes.push({ site, clause, holds: detail === "", detail });
      }
      const explicitCaller = site.clauses.some((c) => c.kind === "caller");
      if (!explicitCaller && calls.length) {
        const inner = innermostAt(f.path, site.line, symbols);
        const want = inner ? inner.id : fileId(f.path);
        const got = [...callers];
        if (got.some((g) => g !== want)) {
          errors.push(
            `${f.path}:${site.line}: credited to [${got.map(nameOf).join(", ")}], the innermost ` +
              `definition is ${nameOf(want)} (state it with a caller clause)`,
          );
        }
      }
    }
  }
  return { outcomes, errors };
}

/** Why produced targets differ from the expected ones; "" when they match. */
function compareTargets(expected: Target[], produced: Sym[], byName: Map<string, Sym[]>): string {
  const matches = (t: Target, s: Sym) =>
    s.qualified === t.name && (t.params === undefined || paramsMatch(s.def, t.params));
  const uniq = [...new Map(produced.map((s) => [s.id, s])).values()];
  const problems: string[] = [];
  for (const t of expected) {
    const hits = uniq.filter((s) => matches(t, s));
    if (!hits.length) {
      const known = (byName.get(t.name) ?? []).some((s) => matches(t, s));
      problems.push(`missing ${show(t)}${known ? "" : " (no such definition)"}`);
    }
    const files = new Set(hits.map((s) => s.path));
    if (t.params === undefined && files.size < hits.length) {
      problems.push(`${show(t)} reaches ${hits.length} definitions of one name in one file`);
    }
  }
  for (const s of uniq) {
    if (!expected.some((t) => matches(t, s))) {
      problems.push(`unexpected ${s.qualified}${selectorOf(s.def)} (${s.path}:${s.line})`);
    }
  }
  return problems.join("; ");
}

function paramsMatch(def: DefFact, want: string[]): boolean {
  const variadic = want.length > 0 && want[want.length - 1].endsWith("...");
  const fixed = variadic ? want.slice(0, -1) : want;
  const max = def.params?.[1];
  if (variadic ? max !== -1 : max !== fixed.length) return false;
  const types = def.paramTypes ?? [];
  return fixed.every((w, i) => (w === "_" ? "" : w) === (types[i] ?? ""));
}

function selectorOf(def: DefFact): string {
  if (!def.params || (def.kind !== "Method" && def.kind !== "Function")) return "";
  const types = (def.paramTypes ?? []).map((t) => t || "_");
  while (types.length < Math.max(def.params[1], 0)) types.push("_");
  if (def.params[1] < 0) types.push("...");
  return `(${types.join(", ")})`;
}

function show(t: Target): string {
  return t.params ? `${t.name}(${t.params.join(", ")})` : t.name;
}

function edgeCounts(
  edges: Map<string, { type: string; from: string; to: string; count?: number }[]>,
): Map<string, { type: string; from: string; to: string; count: number }> {
  const out = new Map<string, { type: string; from: string; to: string; count: number }>();
  for (const list of edges.values()) {
    for (const e of list) {
      if (e.type !== "CALLS" && e.type !== "INSTANTIATES") continue;
      const key = `${e.type}\0${e.from}\0${e.to}`;
      const prev = out.get(key);
      if (prev) prev.count += e.count ?? 1;
      else out.set(key, { type: e.type, from: e.from, to: e.to, count: e.count ?? 1 });
    }
  }
  return out;
}

/** The innermost definition of a file whose lines contain `line`. */
function innermostAt(path: string, line: number, symbols: Map<string, Sym>): Sym | undefined {
  let best: Sym | undefined;
  for (const s of symbols.values()) {
    if (s.path !== path || s.line > line || s.endLine < line) continue;
    if (!best || s.line > best.line || (s.line === best.line && s.endLine < best.endLine)) best = s;
  }
  return best;
}

function ruleOf(path: string): string {
  const segs = path.split("/").reverse();
  for (const s of segs) {
    const m = s.match(/^r(\d+)(?!\d)/i);
    if (m) return `r${m[1]}`;
  }
  return "other";
}

function parseAnnotations(
  f: FileFacts,
  text: string,
): { sites: CallSite[]; errors: string[] } {
  const token = HASH_COMMENTS.has(f.language) ? "#" : "//";
  const annotation = new RegExp(`^\\s*${token === "#" ? "#" : "\\/\\/"}\\s*\\^\\s*(.*)$`);
  const lines = text.split(/\r?\n/);
  const sites = new Map<number, CallSite>();
  const errors: string[] = [];
  const rule = ruleOf(f.path);
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(annotation);
    if (!m) continue;
    const at = `${f.path}:${i + 1}`;
    let j = i - 1;
    while (j >= 0 && annotation.test(lines[j])) j--;
    const code = j >= 0 ? lines[j].trim() : "";
    if (!code || code.startsWith(token)) {
      errors.push(`${at}: an annotation needs a line of code above it`);
      continue;
    }
    const site = sites.get(j + 1) ?? { path: f.path, line: j + 1, clauses: [], rule };
    sites.set(j + 1, site);
    const body = m[1].split(/\s+--\s/)[0].trim();
    for (const part of body.split(";").map((p) => p.trim()).filter(Boolean)) {
      const clause = parseClause(part);
      if (typeof clause === "string") errors.push(`${at}: ${clause}`);
      else if (site.clauses.some((c) => c.kind === clause.kind)) {
        errors.push(`${at}: a second ${clause.kind} clause for line ${j + 1}`);
      } else site.clauses.push(clause);
    }
  }
  for (const site of sites.values()) {
    const has = (k: ClauseKind) => site.clauses.some((c) => c.kind === k);
    for (const [k, other] of [["calls", "instantiates"], ["instantiates", "calls"]] as const) {
      if (has(k) && !has(other)) {
        site.clauses.push({
          kind: other,
          targets: [],
          todo: false,
          implicit: true,
          text: `${other}: nothing (implied)`,
        });
      }
    }
  }
  return { sites: [...sites.values()], errors };
}

function parseClause(text: string): Clause | string {
  const m = text.match(/^(calls|instantiates|caller)\s*:\s*(.*?)\s*(\(todo\))?$/);
  if (!m) return `cannot read clause "${text}"`;
  const kind = m[1] as ClauseKind;
  const list = splitTop(m[2]).map((s) => s.trim()).filter(Boolean);
  if (!list.length) return `clause "${text}" names no target`;
  const targets: Target[] = [];
  if (list.length === 1 && list[0] === "nothing" && kind !== "caller") {
    return { kind, targets, todo: !!m[3], text };
  }
  for (const item of list) {
    const t = item.match(/^([^\s(),]+)(?:\((.*)\))?$/);
    if (!t) return `cannot read target "${item}"`;
    const params = t[2] === undefined
      ? undefined
      : splitTop(t[2]).map((p) => p.trim().replace(/\s+/g, "")).filter(Boolean);
    targets.push({ name: t[1], params });
  }
  if (kind === "caller" && targets.length !== 1) return "a caller clause names one definition";
  return { kind, targets, todo: !!m[3], text };
}

/** Splits on commas outside parentheses and angle brackets. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "(" || ch === "<") depth++;
    else if (ch === ")" || ch === ">") depth--;
    else if (ch === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}
