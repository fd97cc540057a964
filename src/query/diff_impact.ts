/**
 * The impact of a diff (src/query/diff.ts): the definitions it adds, changes or removes, each with
 * its direct callers, what it reaches transitively (callers, subclasses, implementations) and the
 * tests among those, riskiest first. Current definitions come from the graph; the earlier side is
 * the file at the base revision, analyzed in memory, so a removed definition is known by name and
 * its call sites left behind are found like any unresolved call (src/query/unresolved.ts).
 */
import * as Q from "../db/queries.ts";
import { qualifiedName } from "../graph/model.ts";
import type { EdgeType } from "../graph/model.ts";
import { languageOf } from "../lang/registry.ts";
import type { DiffSpec, FileDiff } from "./diff.ts";
import { textAt } from "./diff.ts";
import type { GraphReader, NodeRef } from "./graph.ts";
import { expand } from "./neighbors.ts";
import { roleOf } from "./role.ts";
import { type Unresolved, unresolvedSites } from "./unresolved.ts";

export type Change = "added" | "changed" | "removed";

export interface ChangedSymbol {
  change: Change;
  /** The definition now (for a removed one: as it was, at its old line). */
  node: NodeRef;
  /** Direct callers in production code (CALLS, INSTANTIATES): the first few, and how many. */
  callers: NodeRef[];
  callers_total: number;
  /** Direct callers in tests, examples and the like. */
  callers_elsewhere: number;
  /** Everything it reaches within IMPACT_DEPTH (callers, subclasses, implementations). */
  affected: number;
  affected_files: number;
  /** Tests among the affected (and their files). */
  tests: number;
  test_files: string[];
  /** For a removed definition: its call sites now resolving nowhere. */
  dangling?: Unresolved;
  risk: number;
}

export interface DiffImpactResult {
  type: "diff_impact";
  diff: string;
  files: number;
  counts: Record<Change, number>;
  /** Changed lines outside any definition, by file (top-level code). */
  top_level_files: string[];
  /** Changed files in tests, examples and the like, left out (include_tests lists them). */
  hidden_test_files?: number;
  /** Only the first this many definitions were assessed and ranked (a very large diff). */
  examined?: number;
  depth: number;
  limit: number;
  offset: number;
  total: number;
  symbols: ChangedSymbol[];
  /** Files whose language cgraph does not read (their changes are not mapped). */
  unsupported: string[];
}

const IMPACT_RELATIONS: EdgeType[] = ["CALLS", "INSTANTIATES", "EXTENDS", "IMPLEMENTS"];
/** Definitions examined per answer (a diff touching more is answered for the first ones). */
const SYMBOL_CAP = 300;

interface Span {
  node: NodeRef;
  end: number;
}

/**
 * The innermost definitions holding each changed line (`keep` skips lines such as blank ones);
 * `topLevel` when a kept line lies outside any. `inside(d)`: some changed line lies within `d`.
 */
function touched(
  spans: Span[],
  ranges: [number, number][],
  keep: (line: number) => boolean = () => true,
): { nodes: Span[]; topLevel: boolean; inside: (d: Span) => boolean } {
  const hit = new Set<Span>();
  let topLevel = false;
  for (const [from, to] of ranges) {
    for (let line = from; line <= to; line++) {
      if (!keep(line)) continue;
      let best: Span | undefined;
      for (const s of spans) {
        if (s.node.line <= line && line <= s.end && (!best || s.node.line >= best.node.line)) {
          best = s;
        }
      }
      if (best) hit.add(best);
      else topLevel = true;
    }
  }
  const inside = (d: Span) => ranges.some(([a, b]) => a <= d.end && d.node.line <= b);
  return { nodes: [...hit], topLevel, inside };
}

export async function diffImpact(
  g: GraphReader,
  root: string,
  diff: DiffSpec,
  opts: { depth: number; limit: number; offset: number; includeTests: boolean; base?: string },
): Promise<DiffImpactResult> {
  const found: { change: Change; node: NodeRef }[] = [];
  const topLevel: string[] = [];
  const unsupported: string[] = [];
  let hiddenFiles = 0;
  const keyOf = (n: { qualified_name: string; kind: string }) => `${n.qualified_name}\0${n.kind}`;
  for (const f of diff.files) {
    const spec = languageOf(f.path);
    if (!spec) {
      unsupported.push(f.path);
      continue;
    }
    if (!opts.includeTests && roleOf(f.path) !== "production") {
      hiddenFiles++;
      continue;
    }
    const now = f.status === "deleted" ? [] : await spansIn(g, f.path);
    const before = (await definitionsBefore(root, diff.base, f)).map((n) => ({
      node: n,
      end: n.end_line ?? n.line,
    }));
    const current = new Map(now.map((s) => [keyOf(s.node), s]));
    const old = new Set(before.map((s) => keyOf(s.node)));
    // Lines written now, and lines taken away then: each in its innermost definition.
    const written = f.newRanges.filter(([a, b]) => b >= a && f.status !== "deleted");
    const nowTouched = touched(now, written, await nonBlank(root, opts.base, f));
    const thenTouched = touched(before, f.oldRanges);
    if (nowTouched.topLevel && f.status !== "added") topLevel.push(f.path);
    const changed = new Map<string, NodeRef>();
    const added: Span[] = [];
    for (const s of nowTouched.nodes) {
      if (old.has(keyOf(s.node))) changed.set(keyOf(s.node), s.node);
      else added.push(s);
    }
    for (const s of thenTouched.nodes) {
      const still = current.get(keyOf(s.node));
      if (still) changed.set(keyOf(s.node), still.node);
    }
    for (const node of changed.values()) found.push({ change: "changed", node });
    // An added definition inside an added one (a new class's methods) is said by its container.
    for (const s of added) {
      if (!added.some((o) => o !== s && contains(o, s))) {
        found.push({ change: "added", node: s.node });
      }
    }
    const gone = before.filter((d) => !current.has(keyOf(d.node)));
    const goneTouched = new Set(thenTouched.nodes);
    for (const d of gone) {
      if (f.status !== "deleted" && !goneTouched.has(d) && !thenTouched.inside(d)) continue;
      // A removed definition inside a removed one is said by its container.
      if (!gone.some((o) => o !== d && contains(o, d))) {
        found.push({ change: "removed", node: d.node });
      }
    }
  }
  const examined = found.slice(0, SYMBOL_CAP);
  const symbols: ChangedSymbol[] = [];
  for (const { change, node } of examined) symbols.push(await assess(g, change, node, opts.depth));
  const order: Record<Change, number> = { removed: 0, changed: 1, added: 2 };
  symbols.sort((a, b) =>
    b.risk - a.risk || order[a.change] - order[b.change] ||
    (a.node.path < b.node.path ? -1 : a.node.path > b.node.path ? 1 : a.node.line - b.node.line)
  );
  const counts: Record<Change, number> = { added: 0, changed: 0, removed: 0 };
  for (const f of found) counts[f.change]++;
  return {
    type: "diff_impact",
    diff: diff.label,
    files: diff.files.length,
    counts,
    top_level_files: topLevel,
    ...(hiddenFiles ? { hidden_test_files: hiddenFiles } : {}),
    ...(found.length > SYMBOL_CAP ? { examined: SYMBOL_CAP } : {}),
    depth: opts.depth,
    limit: opts.limit,
    offset: opts.offset,
    total: found.length,
    symbols: symbols.slice(opts.offset, opts.offset + opts.limit),
    unsupported,
  };
}

/** `outer` holds `inner` (and is not the same definition line). */
function contains(outer: Span, inner: Span): boolean {
  return outer.node.line <= inner.node.line && inner.end <= outer.end &&
    (outer.node.line !== inner.node.line || outer.end !== inner.end);
}

/** Which new-side lines hold something (blank lines changed are no change to speak of). */
async function nonBlank(
  root: string,
  base: string | undefined,
  f: FileDiff,
): Promise<(line: number) => boolean> {
  const text = base
    ? await textAt(root, "HEAD", f.path)
    : await Deno.readTextFile(`${root}/${f.path}`).catch(() => undefined);
  if (text === undefined) return () => true;
  const lines = text.split("\n");
  return (line) => (lines[line - 1] ?? "").trim() !== "";
}

async function spansIn(g: GraphReader, path: string): Promise<Span[]> {
  const nodes = await g.nodes(Q.SYMBOLS_IN_FILE, { path });
  return nodes.map((n) => ({ node: n, end: n.end_line ?? n.line }));
}

/** The file's definitions at the base revision (none for an added file or another language). */
async function definitionsBefore(root: string, base: string, f: FileDiff): Promise<NodeRef[]> {
  if (f.status === "added") return [];
  const path = f.oldPath ?? f.path;
  const spec = languageOf(path);
  const text = spec ? await textAt(root, base, path) : undefined;
  if (!spec || text === undefined) return [];
  // The parser (tree-sitter and the grammars) loads only when a diff needs it.
  const { extractFacts } = await import("../index/extract.ts");
  const facts = await extractFacts(spec, path, new TextEncoder().encode(text));
  return facts.defs.map((d, i) => ({
    id: `before:${path}:${i}`,
    name: d.name,
    qualified_name: qualifiedName(facts.module, d.local),
    kind: d.kind,
    path,
    line: d.line,
    end_line: d.endLine,
  }));
}

/**
 * Callers, transitive impact and the tests reached. Risk: what production code it reaches (direct
 * callers count twice), call sites a removal leaves dangling three times; untested code that others
 * reach ranks above tested code that reaches as much.
 */
async function assess(
  g: GraphReader,
  change: Change,
  node: NodeRef,
  depth: number,
): Promise<ChangedSymbol> {
  if (change === "removed") {
    const dangling = await unresolvedSites(g, [node]);
    const n = dangling?.total ?? 0;
    return {
      change,
      node,
      callers: [],
      callers_total: 0,
      callers_elsewhere: 0,
      affected: 0,
      affected_files: 0,
      tests: 0,
      test_files: [],
      ...(dangling ? { dangling } : {}),
      risk: 3 * n,
    };
  }
  const direct = await expand(g, [node], ["CALLS", "INSTANTIATES"], "IN", 1);
  const all = direct.links.map((l) => l.node);
  const callers = all.filter((c) => roleOf(c.path) === "production");
  const reach = await expand(g, [node], IMPACT_RELATIONS, "IN", depth);
  const prod = reach.links.filter((l) => roleOf(l.node.path) === "production");
  const tests = reach.links.filter((l) => roleOf(l.node.path) === "test");
  const untested = tests.length === 0 && prod.length > 0 ? 1 : 0;
  return {
    change,
    node,
    callers: callers.slice(0, 5),
    callers_total: callers.length,
    callers_elsewhere: all.length - callers.length,
    affected: reach.links.length,
    affected_files: new Set(reach.links.map((l) => l.node.path)).size,
    tests: tests.length,
    test_files: [...new Set(tests.map((l) => l.node.path))].sort(),
    risk: prod.length + 2 * callers.length + untested,
  };
}
