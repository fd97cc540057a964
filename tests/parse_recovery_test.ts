/**
 * Syntax errors cost only the erroneous construct: what an ERROR node swallowed after it is read
 * again (src/index/analyze/recover.ts), TypeScript's newer constructs parse (prepare.ts), and the
 * index summary names files that still lost definitions. No database.
 */
import assert from "node:assert/strict";
import { extractFacts } from "../src/index/extract.ts";
import type { IndexSummary } from "../src/index/indexer.ts";
import { formatSummary, summaryJson } from "../src/index/report.ts";
import { csharp } from "../src/lang/csharp/spec.ts";
import { typescript } from "../src/lang/typescript/spec.ts";

const enc = new TextEncoder();

// `abstract override` as the grammar reads it without source preparation: an ERROR node that
// swallows the class's later members.
const SWALLOWING = `export abstract class Ledger {
  abstract override id: Kind;
  kind = "lunar" as const;
  record(amount: number): number {
    const start = { amount, at: 1 };
    const next = { amount: amount + 1, at: 2 };
    return start.at + next.at;
  }
  reset(): void {
    this.record(0);
  }
}
`;
Deno.test("recovery: definitions an ERROR node swallowed are read past the error", async () => {
  const raw = { ...typescript, prepare: undefined };
  const facts = await extractFacts(raw, "ledger.ts", enc.encode(SWALLOWING));
  assert.ok(facts.parseErrors > 0, "the file still reports its syntax error");
  assert.deepEqual(
    facts.defs.map((d) => `${d.local}:${d.line}`),
    ["Ledger:1", "Ledger.record:4", "Ledger.reset:9"],
  );
  assert.equal(facts.recoveredDefs, 2);
  assert.equal(facts.lostDefs, undefined);
  assert.deepEqual(facts.errorLines, [[2, 2]], "only the erroneous line is not indexed");
  assert.ok(facts.calls.some((c) => c.name === "record" && c.line === 10));
});

Deno.test("prepare: TypeScript constructs the grammar predates parse cleanly", async () => {
  const path = "fixtures/annotated/typescript/syntax_ts5.ts";
  const bytes = await Deno.readFile(new URL(`../${path}`, import.meta.url));
  const facts = await extractFacts(typescript, path, bytes);
  assert.equal(facts.parseErrors, 0);
  const text = new TextDecoder().decode(bytes);
  assert.equal(typescript.prepare!(text).length, text.length);
  assert.deepEqual(
    typescript.prepare!(text).split("\n").length,
    text.split("\n").length,
  );
  const lines = Object.fromEntries(facts.defs.map((d) => [d.local, d.line]));
  assert.equal(lines["CalendarHelper.monthsInYear"], 19);
  assert.equal(lines["Channel"], 7);
  assert.equal(lines["pending"], 29);
  assert.equal(lines["route"], 47);
});

Deno.test("prepare: a C# conditional that cuts a member keeps its first branch", async () => {
  const path = "fixtures/annotated/csharp/Conditionals/Targets.cs";
  const bytes = await Deno.readFile(new URL(`../${path}`, import.meta.url));
  const facts = await extractFacts(csharp, path, bytes);
  assert.equal(facts.parseErrors, 0);
  assert.deepEqual(
    facts.defs.filter((d) => d.kind === "Method").map((d) => `${d.name}:${d.line}`),
    ["IsDateFamily:9", "TryConvert:16", "Run:26"],
  );
  // Conditionals between whole declarations and statements are left as they are.
  const whole = "class A {\n#if X\n  void F() {}\n#else\n  void G() {}\n#endif\n}\n";
  assert.equal(csharp.prepare!(whole), whole);
});

Deno.test("summary: files whose syntax errors lost definitions are named", () => {
  const summary: IndexSummary = {
    project: "p",
    branch: "main",
    graph: "code:{p}:main",
    root: "/r",
    mode: "full",
    files: {
      scanned: 2,
      added: ["a.ts", "b.ts"],
      modified: [],
      deleted: [],
      unchanged: 0,
      hashed: 2,
      skipped: [],
      unsupported: 0,
      parseErrors: 2,
      syntaxErrors: ["a.ts:3", "b.ts:10-12"],
      lostDefinitions: ["b.ts (4)"],
    },
    symbols: {},
    edges: {},
    durationMs: 1,
    filesPerSecond: 2,
    timings: {},
    warnings: [],
  };
  const text = formatSummary(summary);
  assert.match(text, /syntax errors \(lines not indexed\): a\.ts:3, b\.ts:10-12/);
  assert.match(text, /definitions lost to syntax errors: b\.ts \(4\)/);
  assert.deepEqual(
    (summaryJson(summary).files as { lost_definitions: string[] }).lost_definitions,
    [
      "b.ts (4)",
    ],
  );
  summary.files.lostDefinitions = [];
  assert.doesNotMatch(formatSummary(summary), /definitions lost/);
});
