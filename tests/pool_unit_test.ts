import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  analyzeParallel,
  assignLanguages,
  LanguageQueues,
  languageWeights,
  liveWorkers,
  prestartWorkers,
  releaseWorkers,
  type ShareRule,
  workersStarted,
} from "../src/index/pool.ts";
import { sha256 } from "../src/index/extract.ts";
import type { ReadFile } from "../src/index/scan.ts";
import { languageOf } from "../src/lang/registry.ts";

/** Drains the queues with workers taking turns; returns each worker's files. */
function drain(
  languages: string[],
  workers: number,
  shareAbove: number | ShareRule = 24,
  preloaded: Set<string>[] = [],
  sizes?: number[],
): number[][] {
  const q = new LanguageQueues(languages, shareAbove, preloaded, sizes);
  const got: number[][] = Array.from({ length: workers }, () => []);
  const active = new Set(got.keys());
  while (active.size) {
    for (const w of [...active]) {
      const id = q.next(w);
      if (id === undefined) active.delete(w);
      else got[w].push(id);
    }
  }
  return got;
}

Deno.test("parse pool: every file goes out once, in order within a worker", () => {
  const langs = [...Array(100)].map((_, i) => (i % 3 ? "ruby" : "c"));
  const got = drain(langs, 2);
  assertEquals(got.flat().sort((a, b) => a - b), [...Array(100).keys()]);
  for (const files of got) {
    const ruby = files.filter((i) => langs[i] === "ruby");
    assertEquals(ruby, [...ruby].sort((a, b) => a - b));
  }
});

Deno.test("parse pool: with sizes known, the largest files go out first", () => {
  const langs = [...Array(60)].map(() => "c");
  const sizes = langs.map((_, i) => (i === 41 ? 90_000 : i === 7 ? 50_000 : 100 + (i % 5)));
  const got = drain(langs, 2, 24, [], sizes);
  assertEquals(got.flat().sort((a, b) => a - b), [...Array(60).keys()]);
  assertEquals([got[0][0], got[1][0]], [41, 7]);
  // Equal sizes keep their order.
  for (const files of got) {
    const same = files.filter((i) => sizes[i] === 100);
    assertEquals(same, [...same].sort((a, b) => a - b));
  }
});

Deno.test("parse pool: a language with few files is loaded by one worker only", () => {
  // 95 Ruby files and 3 C files (rake's doc/example): one worker takes all of C.
  const langs = [...Array(95).fill("ruby"), "c", "c", "c"];
  const got = drain(langs, 2);
  const withC = got.filter((files) => files.some((i) => langs[i] === "c"));
  assertEquals(withC.length, 1);
  // Both workers share the large language.
  assertEquals(got.every((files) => files.some((i) => langs[i] === "ruby")), true);
});

Deno.test("parse pool: a second language with many files left is shared", () => {
  const langs = [...Array(10).fill("typescript"), ...Array(200).fill("javascript")];
  const got = drain(langs, 2);
  assertEquals(got.every((files) => files.some((i) => langs[i] === "javascript")), true);
});

Deno.test("parse pool: a worker warmed with a small language takes all of it", () => {
  // The warm-up gave C (3 files) to worker 1: worker 0, which did not load it, never takes it.
  const langs = ["c", ...Array(95).fill("ruby"), "c", "c"];
  const got = drain(langs, 2, 24, [new Set(["ruby"]), new Set(["ruby", "c"])]);
  assertEquals(got[0].some((i) => langs[i] === "c"), false);
  assertEquals(got[1].filter((i) => langs[i] === "c"), [0, 96, 97]);
  assertEquals(got.flat().sort((a, b) => a - b), [...Array(98).keys()]);
});

Deno.test("parse pool: a language is shared only while its rule says its files left are worth it", () => {
  // Worker 0 loaded TypeScript (200 files), worker 1 Python (10): once worker 1 is done with
  // Python, it takes up TypeScript only if the rule says the files left outweigh the compile.
  const langs = [...Array(200).fill("typescript"), ...Array(10).fill("python")];
  const warmed = [new Set(["typescript"]), new Set(["python"])];
  const asked: [string, number][] = [];
  const costly: ShareRule = (language, left) => {
    asked.push([language, left]);
    return left > 1000; // a compile dearer than the 190 files left
  };
  const kept = drain(langs, 2, costly, warmed);
  assertEquals(kept[1].every((i) => langs[i] === "python"), true);
  assertEquals(kept[0].length, 200);
  // Asked once: when worker 1 ran out of its own files (10 turns each), with 189 files left.
  assertEquals(asked, [["typescript", 189]]);
  const shared = drain(langs, 2, (_, left) => left > 24, warmed);
  assertEquals(shared[1].some((i) => langs[i] === "typescript"), true);
  assertEquals(shared.flat().sort((a, b) => a - b), [...Array(210).keys()]);
});

Deno.test("parse pool: CGRAPH_WORKERS of 0 or 1 starts no worker ahead; 2 starts two", () => {
  const was = Deno.env.get("CGRAPH_WORKERS");
  try {
    for (const [env, want] of [["0", 0], ["1", 0], ["2", 2]] as const) {
      Deno.env.set("CGRAPH_WORKERS", env);
      prestartWorkers(4);
      assertEquals(workersStarted(), want, `CGRAPH_WORKERS=${env}`);
      releaseWorkers();
      assertEquals(workersStarted(), 0);
    }
  } finally {
    if (was === undefined) Deno.env.delete("CGRAPH_WORKERS");
    else Deno.env.set("CGRAPH_WORKERS", was);
    releaseWorkers();
  }
});

Deno.test("parse pool: a run with no file to parse ends the workers started for it", async () => {
  const was = Deno.env.get("CGRAPH_WORKERS");
  try {
    Deno.env.set("CGRAPH_WORKERS", "2");
    prestartWorkers(2);
    assertEquals(workersStarted(), 2);
    assertEquals(await analyzeParallel([], []), []);
    assertEquals(workersStarted(), 0);
    assertEquals(liveWorkers(), 0, "no worker keeps running");
  } finally {
    if (was === undefined) Deno.env.delete("CGRAPH_WORKERS");
    else Deno.env.set("CGRAPH_WORKERS", was);
    releaseWorkers();
  }
});

Deno.test("parse pool: with release, a file's bytes go once a worker has them; facts unchanged", async () => {
  const was = Deno.env.get("CGRAPH_WORKERS");
  const spec = languageOf("m.py")!;
  const files = (): ReadFile[] =>
    Array.from({ length: 60 }, (_, i) => {
      const bytes = new TextEncoder().encode(`def f${i}(x):\n    return g${i}(x)\n`);
      const stat = { size: bytes.length, mtime: 0, ctime: 0, ino: 0 };
      const path = `pkg/m${i}.py`;
      const candidate = { path, abs: `/nowhere/${path}`, language: spec, stat };
      return { candidate, bytes, hash: sha256(bytes), size: bytes.length, mtime: 0, stat };
    });
  try {
    Deno.env.set("CGRAPH_WORKERS", "2");
    const kept = files();
    const released = files();
    const want = await analyzeParallel(kept, []);
    const got = await analyzeParallel(released, [], () => {}, () => {}, true);
    assertEquals(got, want);
    assertEquals(got.length, 60);
    assertEquals(released.map((f) => f.bytes.length), released.map(() => 0));
    assertEquals(kept.every((f) => f.bytes.length > 0), true, "kept without release");
    assertEquals(liveWorkers(), 0);
  } finally {
    if (was === undefined) Deno.env.delete("CGRAPH_WORKERS");
    else Deno.env.set("CGRAPH_WORKERS", was);
    releaseWorkers();
  }
});

Deno.test("languages are loaded ahead once where one worker's share of files holds them", () => {
  // Four languages of 250 files, two workers: two languages each, every file's worker known.
  const four = new Map([["python", 250], ["typescript", 250], ["go", 250], ["java", 250]]);
  const split = assignLanguages(four, 2);
  assert.deepEqual(split.map((s) => s.size), [2, 2]);
  assert.equal(new Set(split.flatMap((s) => [...s])).size, 4, "each language in one worker");
  // A language with more than a worker's share is loaded by every worker; the rest go to the
  // worker with the fewest files so far.
  const mostlyJs = assignLanguages(
    new Map([["javascript", 400], ["typescript", 70], ["json", 2]]),
    2,
  );
  assert.ok(mostlyJs.every((s) => s.has("javascript")));
  assert.equal(mostlyJs.filter((s) => s.has("typescript")).length, 1);
  assert.equal(mostlyJs.filter((s) => s.has("json")).length, 1);
  assert.ok(!mostlyJs.some((s) => s.has("typescript") && s.has("json")), "spread by load");
  // One worker: everything in it.
  assert.deepEqual([...assignLanguages(four, 1)[0]].sort(), ["go", "java", "python", "typescript"]);
});

Deno.test("languages are weighed by their files' bytes, a file of unknown size at a nominal 4 KB", () => {
  const file = (name: string, size?: number) => ({
    language: { name },
    ...(size === undefined ? {} : { stat: { size } }),
  });
  const weights = languageWeights([
    file("go", 1000),
    file("go", 3000),
    file("java", 10_000),
    file("python"),
  ]);
  assert.deepEqual(Object.fromEntries(weights), { go: 4000, java: 10_000, python: 4096 });
  // The generated repository's 1,000 files: by bytes, TypeScript (the costliest query) and Go
  // go together, Java and Python together (by file count it was Python with TypeScript).
  const split = assignLanguages(
    new Map([["java", 402_933], ["python", 349_407], ["go", 238_304], ["typescript", 405_957]]),
    2,
  );
  const together = (a: string, b: string) => split.some((s) => s.has(a) && s.has(b));
  assert.ok(
    together("typescript", "go") && together("java", "python"),
    JSON.stringify(split.map((s) => [...s])),
  );
});
