/**
 * Freshness benchmarks (`deno task bench`, or alone: `deno run -A --unstable-raw-imports
 * bench/fresh.ts [files...]`), on generated git repositories (bench/genrepo.ts) of 1,000 and
 * 10,000 files by default:
 *   - the CLI's no-op re-index and one-file edit (indexProject as `cgraph index` runs it, without
 *     the process start), median of 3, after the stat cache has settled;
 *   - edit-to-fresh through a real MCP client: `cgraph mcp` watching the repository, a function
 *     added to a file, get_callers polled until it lists it; p50 / max over several edits.
 * Figures are printed with their targets, beside the previous run's (kept in
 * CGRAPH_BENCH_HISTORY, default ~/.cache/cgraph/bench-fresh.json). Numbers, never assertions.
 */
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import type { Db } from "../src/db/client.ts";
import { indexProject } from "../src/index/indexer.ts";
import { RACY_DEFAULT_MS } from "../src/index/stat_cache.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
// Index runs here sync decisions as the CLI's do: the steps come with the tool table.
import "../src/tools/registry.ts";
import { generateRepo } from "./genrepo.ts";
import { type Figures, git, percentile, readHistory, writeHistory } from "./util.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;

const TARGETS: Record<string, [number, string]> = {
  "noop@1000": [300, "< 300 ms"],
  "noop@10000": [300, "< 300 ms"],
  "edit@10000": [1000, "< 1 s"],
  "fresh_p50@1000": [150, "< 150 ms"],
  "fresh_p50@10000": [300, "< 300 ms"],
};

function line(label: string, key: string, value: number, previous: Figures): string {
  const prev = previous[key];
  const before = prev === undefined ? "" : `   (previous ${Math.round(prev)} ms)`;
  const target = TARGETS[key] ? `   target ${TARGETS[key][1]}` : "";
  return `  ${label.padEnd(28)} ${String(Math.round(value)).padStart(6)} ms${target}${before}`;
}

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

/** Runs the freshness benchmarks for each size; prints and records the figures. */
export async function benchFresh(db: Db, sizes: number[], edits = 10): Promise<void> {
  const previous = await readHistory();
  const now: Figures = {};
  for (const n of sizes) {
    const dir = await Deno.makeTempDir({ prefix: "cgraph-bench-fresh-" });
    try {
      const figures = await benchSize(db, dir, n, edits);
      console.log(`freshness, generated git repository of ${n} files:`);
      console.log(line("CLI no-op re-index", `noop@${n}`, figures.noop, previous));
      console.log(line("CLI one-file edit", `edit@${n}`, figures.edit, previous));
      console.log(
        line(
          `edit-to-fresh p50 (MCP, ${figures.samples})`,
          `fresh_p50@${n}`,
          figures.p50,
          previous,
        ),
      );
      console.log(line("edit-to-fresh max", `fresh_max@${n}`, figures.max, previous));
      now[`noop@${n}`] = figures.noop;
      now[`edit@${n}`] = figures.edit;
      now[`fresh_p50@${n}`] = figures.p50;
      now[`fresh_max@${n}`] = figures.max;
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
  await writeHistory(now);
}

async function benchSize(db: Db, dir: string, n: number, edits: number) {
  const paths = await generateRepo(dir, n, n > 2000 ? 7 : 42);
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "generated");
  const project = `bench-fresh-${crypto.randomUUID().slice(0, 6)}`;
  const ref = await resolveProject(dir, { project });
  const py = paths.filter((p) => p.endsWith(".py"));
  try {
    await indexProject(db, ref, { full: true });
    // Files younger than the stat cache's racy window are always read: a real tree is older.
    await new Promise((r) => setTimeout(r, RACY_DEFAULT_MS + 100));
    await indexProject(db, ref);
    const noops: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await indexProject(db, ref);
      noops.push(performance.now() - t);
    }
    const editTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      await Deno.writeTextFile(join(dir, py[i]), `\n\ndef cli_edit_${i}():\n    return 1\n`, {
        append: true,
      });
      const t = performance.now();
      await indexProject(db, ref);
      editTimes.push(performance.now() - t);
    }
    const fresh = await editToFresh(db, dir, project, py, edits);
    return {
      noop: median(noops),
      edit: median(editTimes),
      p50: median(fresh),
      max: Math.max(...fresh),
      samples: fresh.length,
    };
  } finally {
    await deleteGraphs(db, project);
  }
}

/** Milliseconds from a file written to get_callers listing the new caller, per edit. */
async function editToFresh(
  db: Db,
  dir: string,
  project: string,
  py: string[],
  edits: number,
): Promise<number[]> {
  const ep = db.endpoint;
  const auth = ep.password ? `:${encodeURIComponent(ep.password)}@` : "";
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    if (!/^(FALKORDB_|CGRAPH_DB$|CODE_GRAPH_)/.test(k)) env[k] = v;
  }
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--unstable-raw-imports", MAIN, "mcp", dir, "--project", project],
    cwd: ROOT,
    env: { ...env, FALKORDB_URL: `redis://${auth}${ep.host}:${ep.port}`, CGRAPH_LOG: "warn" },
    stderr: "inherit",
  });
  const client = new Client({ name: "cgraph-bench-fresh", version: "1" });
  await client.connect(transport);
  const callers = async (symbol: string) => {
    const r = await client.callTool({ name: "get_callers", arguments: { symbol } });
    return (r.content as { type: string; text?: string }[])[0]?.text ?? "";
  };
  try {
    await callers("func0_0"); // the server's catch-up with the tree
    // One edit first (the server loads what it keeps in memory in the background meanwhile).
    const out: number[] = [];
    for (let k = -1; k < edits; k++) {
      // A module near the end: few callers, so the new one is on get_callers' first page.
      const file = py[py.length - 2 - k];
      const module = file.replace(/^pkg\/mod(\d+)\.py$/, "$1");
      const target = `func${module}_0`;
      const fn = `fresh_edit_${k + 1}`;
      await new Promise((r) => setTimeout(r, 300));
      const t = performance.now();
      await Deno.writeTextFile(
        join(dir, file),
        `\n\ndef ${fn}(x):\n    return ${target}(x)\n`,
        { append: true },
      );
      for (;;) {
        if ((await callers(target)).includes(fn)) break;
        if (performance.now() - t > 60_000) throw new Error(`${fn} never showed`);
      }
      if (k >= 0) out.push(performance.now() - t);
    }
    return out;
  } finally {
    await client.close();
  }
}

if (import.meta.main) {
  const { ensureDb } = await import("../src/db/ensure.ts");
  const sizes = Deno.args.length ? Deno.args.map(Number) : [1000, 10_000];
  const db = await ensureDb({ quiet: true });
  try {
    await benchFresh(db, sizes);
  } finally {
    await db.close();
  }
}
