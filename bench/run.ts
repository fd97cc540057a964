/**
 * Benchmarks (`deno task bench [path] [--files N] [--large] [--mcp-only] [--fresh-only]
 * [--fresh-files 1000,10000] [--growth 1000,10000] [--growth-only]`): indexing (cold full index,
 * no-op incremental and one-file-edit incremental on a generated repository, and on `path` when
 * given, with peak RSS; then the cold index's growth curve, bench/growth.ts: a separate
 * `cgraph index --full` per size, `--growth 1000,10000,100000` to include 100,000), then freshness
 * (bench/fresh.ts: CLI no-op and one-file edit, edit-to-fresh through a watching MCP server, at
 * each `--fresh-files` size, beside the previous run's figures), then the MCP tools over stdio (bench/mcp.ts: latencies and token
 * counts), then memory_linked_search on a warm server (bench/memory.ts), then `cgraph view`'s
 * drawing times in headless Chromium (bench/view.ts; `--view-files N`, default 10,000), a new
 * git worktree of a generated repository (bench/branch.ts; `--branch-files N`, default 10,000),
 * then the drills (bench/drills.ts: stdio soak, HTTP clients, kill -9 mid-index, database
 * restart; `--skip-drills`, `--drills-only`). Numbers are printed, never asserted.
 */
import { extractFacts } from "../src/index/extract.ts";
import { languageOf } from "../src/lang/registry.ts";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { ensureDb } from "../src/db/ensure.ts";
import { indexProject } from "../src/index/indexer.ts";
import { RACY_DEFAULT_MS } from "../src/index/stat_cache.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { generateRepo } from "./genrepo.ts";
import { benchBranch } from "./branch.ts";
import { benchFresh } from "./fresh.ts";
import { benchGrowth } from "./growth.ts";
import { benchMcp } from "./mcp.ts";
import { benchMemory } from "./memory.ts";
import { benchView } from "./view.ts";
import { benchDrills } from "./drills.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    files: { type: "string", default: "1000" },
    large: { type: "boolean" },
    "mcp-only": { type: "boolean" },
    "view-files": { type: "string", default: "10000" },
    "skip-drills": { type: "boolean" },
    "drills-only": { type: "boolean" },
    "branch-files": { type: "string", default: "10000" },
    "fresh-files": { type: "string", default: "1000,10000" },
    "fresh-only": { type: "boolean" },
    growth: { type: "string", default: "1000,10000" },
    "growth-only": { type: "boolean" },
  },
  allowPositionals: true,
});

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 20);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

const db = await ensureDb({ quiet: true });

/** `targets`: print the ~1,000-file repository's targets next to the figures. */
async function benchRepo(
  label: string,
  root: string,
  editFile?: string,
  targets = false,
): Promise<void> {
  const target = (text: string) => (targets ? `   target ${text}` : "");
  const project = `bench-${crypto.randomUUID().slice(0, 6)}`;
  const ref = await resolveProject(root, { project, branch: "bench" });
  peak = 0;
  try {
    let t = performance.now();
    const cold = await indexProject(db, ref, { full: true });
    const coldMs = performance.now() - t;
    const coldPeak = peak;
    // Files younger than the stat cache's racy window are always read: a real tree is older.
    await new Promise((r) => setTimeout(r, RACY_DEFAULT_MS + 100));
    await indexProject(db, ref);
    t = performance.now();
    await indexProject(db, ref);
    const noopMs = performance.now() - t;
    let editMs = NaN;
    if (editFile) {
      await Deno.writeTextFile(join(root, editFile), "\n\ndef bench_extra():\n    return 1\n", {
        append: true,
      });
      t = performance.now();
      const edit = await indexProject(db, ref);
      editMs = performance.now() - t;
      console.log(`  (edit phases: ${JSON.stringify(edit.timings)})`);
      if (edit.files.modified.length !== 1) {
        console.log(`  (edit run saw ${edit.files.modified.length} modified files)`);
      }
    }
    const symbols = Object.values(cold.symbols).reduce((a, b) => a + b, 0);
    const edges = Object.values(cold.edges).reduce((a, b) => a + b, 0);
    console.log(`${label}: ${cold.files.scanned} files, ${symbols} symbols, ${edges} edges`);
    console.log(
      `  cold full index      ${coldMs.toFixed(0)} ms  (${
        (cold.files.scanned / (coldMs / 1000)).toFixed(0)
      } files/s)${target(">= 200 files/s")}`,
    );
    console.log(`  no-op incremental    ${noopMs.toFixed(0)} ms${target("< 300 ms")}`);
    if (editFile) {
      console.log(`  one-file edit        ${editMs.toFixed(0)} ms${target("< 500 ms")}`);
    }
    console.log(`  peak RSS             ${mb(coldPeak)}`);
  } finally {
    await deleteGraphs(db, project);
  }
}

const growthSizes = values.growth.split(",").map(Number).filter((n) => n > 0);
const tmp = await Deno.makeTempDir({ prefix: "cgraph-bench-" });
try {
  const freshSizes = values["fresh-files"].split(",").map(Number).filter((n) => n > 0);
  if (values["growth-only"]) {
    await benchGrowth(db, growthSizes);
  } else if (values["fresh-only"]) {
    await benchFresh(db, freshSizes);
  } else if (!values["drills-only"]) {
    if (!values["mcp-only"]) {
      await benchIndexing();
      await benchFresh(db, freshSizes);
    }
    await benchRest();
  }
  if (!values["skip-drills"] && !values["fresh-only"] && !values["growth-only"]) {
    await benchDrills(db, { soakCalls: 10_000, httpClients: 8, httpCalls: 500, kills: 20 });
  }
} finally {
  clearInterval(sampler);
  await Deno.remove(tmp, { recursive: true });
  await db.close();
}

async function benchRest(): Promise<void> {
  await benchMcp(db, { files: 1500, calls: 200, warmup: 20, paced: 5 });
  await benchMemory(db, { files: 1000, calls: 200 });
  await benchView(db, { files: Number(values["view-files"]), runs: 3 });
}

async function benchIndexing(): Promise<void> {
  const n = Number(values.files);
  const paths = await generateRepo(tmp, n);
  await benchRepo(
    `generated repository (${n} files, 4 languages)`,
    tmp,
    paths.find((p) => p.endsWith(".py")),
    n <= 2000,
  );
  if (growthSizes.length) await benchGrowth(db, growthSizes);
  if (values.large) {
    const big = await Deno.makeTempDir({ prefix: "cgraph-bench-large-" });
    try {
      const bigPaths = await generateRepo(big, 10_000, 7);
      await benchRepo(
        "generated repository (10,000 files)",
        big,
        bigPaths.find((p) => p.endsWith(".py")),
      );
      console.log("  target: peak RSS < 1.5 GB for 10,000 files");
    } finally {
      await Deno.remove(big, { recursive: true });
    }
  }
  for (const p of positionals) await benchRepo(p, p);
  await benchDense();
  await benchBranch(db, Number(values["branch-files"]));
}

/**
 * A dense file (a generated bundle: 15,613 functions on one line, ~570 KB) against the same
 * functions one per line, parsed and analyzed: cost must be linear in the file's size.
 */
async function benchDense(): Promise<void> {
  const n = 15_613;
  const fn = (i: number) => `function f${i}(a){return f${i ? i - 1 : 0}(a)+1}`;
  const spec = languageOf("dense.js")!;
  for (
    const [label, text] of [
      ["one line", Array.from({ length: n }, (_, i) => fn(i)).join("")],
      ["one per line", Array.from({ length: n }, (_, i) => fn(i)).join("\n")],
    ] as const
  ) {
    const bytes = new TextEncoder().encode(text);
    const t = performance.now();
    const facts = await extractFacts(spec, "dense.js", bytes);
    console.log(
      `dense file, ${label}: ${bytes.length} bytes, ${facts.defs.length} functions, ` +
        `${(performance.now() - t).toFixed(0)} ms`,
    );
  }
}
