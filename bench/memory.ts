/**
 * memory_linked_search on a warm server (`deno task bench` runs it last; alone:
 * `deno run -A --unstable-raw-imports bench/memory.ts [--files N] [--calls N]`): a generated
 * repository of ~1,000 files as a git work tree with a history (edits and fixes), ADRs in
 * docs/adr naming its functions, and notes on some symbols written through the tool. `cgraph mcp`
 * serves it in a subprocess, driven over stdio by the MCP SDK's Client. Prints p50 / p99 / max
 * of the first call per symbol (history computed by git) and of warm calls (budget: p50 < 200 ms,
 * issue 7 / ADR-202 P3), and recall's. Numbers are printed, never asserted.
 */
import type { Db } from "../src/db/client.ts";
import { indexProject } from "../src/index/indexer.ts";
import "../src/tools/registry.ts";
import { notesGraph } from "../src/memory/notes.ts";
import { historyKey } from "../src/memory/history.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { keysFor } from "../src/project/names.ts";
import { childEnv, connectMcp, dbUrl, type McpSession, textOf } from "../tests/helpers/mcp.ts";
import { generateRepo } from "./genrepo.ts";
import { join } from "node:path";
import { fmtMs as fmt, git, percentile } from "./util.ts";

export interface MemoryBenchOptions {
  files: number;
  /** Timed warm calls (symbols in turn). */
  calls: number;
}

const BUDGET_MS = 200;

/** Ten ADRs, each naming functions, a service method and a file of one module. */
async function writeAdrs(dir: string, pyModules: number[]): Promise<void> {
  for (let k = 0; k < 10; k++) {
    const i = pyModules[(k * 7) % pyModules.length];
    const j = pyModules[(k * 13 + 5) % pyModules.length];
    const text = `# ${k + 1}. Keep module ${i} pure\n\nDate: 2024-0${(k % 9) + 1}-1${k % 9}\n\n` +
      `## Status\n\nAccepted\n\n## Context\n\nRetries and caching crept into pkg/mod${i}.py.\n\n` +
      `## Decision\n\n\`pkg.mod${i}.func${i}_0\` and \`func${i}_1\` stay free of side effects; ` +
      `\`Service${j}.handle\` owns the retries. See pkg/mod${j}.py.\n`;
    await Deno.mkdir(join(dir, "docs/adr"), { recursive: true });
    await Deno.writeTextFile(
      join(dir, `docs/adr/${String(k + 1).padStart(4, "0")}-module-${i}.md`),
      text,
    );
  }
}

/** A history: commits that change function bodies, every third one a fix. */
async function writeHistory(dir: string, pyModules: number[], commits: number): Promise<void> {
  for (let c = 0; c < commits; c++) {
    const i = pyModules[(c * 11) % pyModules.length];
    const path = join(dir, `pkg/mod${i}.py`);
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(
      path,
      text.replace(`    return func${i}_0(x)\n`, `    return func${i}_0(x)  # ${c}\n`).replace(
        "    return x\n",
        `    return x  # r${c}\n`,
      ),
    );
    await git(
      dir,
      "commit",
      "-q",
      "-am",
      c % 3 === 0 ? `Fix off-by-one in module ${i}` : `Tweak module ${i}`,
    );
  }
}

async function timed(
  mcp: McpSession,
  tool: string,
  args: Record<string, unknown>,
): Promise<number> {
  const t = performance.now();
  const r = await mcp.client.callTool({ name: tool, arguments: args });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
  return ms;
}

function line(label: string, ms: number[], budget?: number): string {
  ms.sort((a, b) => a - b);
  const p50 = percentile(ms, 50);
  const verdict = budget === undefined
    ? ""
    : `   p50 < ${budget} ms  ${p50 < budget ? "ok" : "MISSED"}`;
  return `  ${label.padEnd(40)}${fmt(p50).padStart(10)}${fmt(percentile(ms, 99)).padStart(10)}${
    fmt(ms[ms.length - 1]).padStart(10)
  }${verdict}`;
}

export async function benchMemory(db: Db, opts: MemoryBenchOptions): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-bench-mem-" });
  const project = `bench-mem-${crypto.randomUUID().slice(0, 6)}`;
  const branch = "bench";
  let mcp: McpSession | undefined;
  try {
    const paths = await generateRepo(dir, opts.files);
    const py = paths.filter((p) => p.endsWith(".py")).map((p) => Number(/mod(\d+)/.exec(p)![1]));
    await writeAdrs(dir, py);
    await git(dir, "init", "-q");
    await git(dir, "add", ".");
    await git(dir, "commit", "-q", "-m", "Initial import");
    await writeHistory(dir, py, 60);
    const ref = await resolveProject(dir, { project, branch });
    const summary = await indexProject(db, ref, { full: true });
    const graph = keysFor(ref.project, ref.branch).graph;
    const ro = { readOnly: true };
    const q = async (cypher: string) =>
      (await db.query(graph, cypher, {}, ro)).map((r) => String(r.qn));
    // Symbols: named by ADRs, the busiest callees, and an ordinary spread.
    const symbols = [
      ...await q(
        "MATCH (:Decision)-[:MENTIONS]->(s:Symbol) RETURN DISTINCT s.qualified_name AS qn ORDER BY qn LIMIT 8",
      ),
      ...await q(
        `MATCH (s:Symbol)<-[:CALLS]-() WITH s, count(*) AS n ORDER BY n DESC, s.qualified_name
        RETURN s.qualified_name AS qn LIMIT 4`,
      ),
      ...await q(`MATCH (s:Symbol) WHERE s.kind IN ['Function', 'Method']
        RETURN s.qualified_name AS qn ORDER BY s.id SKIP 50 LIMIT 12`),
    ];
    const decisions =
      (await db.query(graph, "MATCH (d:Decision) RETURN count(d) AS n", {}, ro))[0].n;

    mcp = await connectMcp(
      [dir, "--project", project, "--branch", branch],
      childEnv({ FALKORDB_URL: dbUrl(db) }),
    );
    // Notes on every other symbol and on some of their neighbours (not timed).
    for (const [k, s] of symbols.entries()) {
      if (k % 2) continue;
      await mcp.client.callTool({
        name: "remember",
        arguments: {
          symbol: s,
          text: `Bench note ${k}: keep ${s} allocation-free.`,
          kind: k % 4 ? "note" : "bug",
        },
      });
    }
    const symbolCount = Object.values(summary.symbols).reduce((a, b) => a + b, 0);
    console.log(
      `\nmemory_linked_search over MCP: ${summary.files.scanned} files, ${symbolCount} symbols, ` +
        `${decisions} decisions (ADRs), 61 commits, ${Math.ceil(symbols.length / 2)} notes; ` +
        `${symbols.length} symbols in turn`,
    );
    console.log(
      `  ${"".padEnd(40)}${"p50".padStart(10)}${"p99".padStart(10)}${"max".padStart(10)}`,
    );
    const first: number[] = [];
    for (const s of symbols) first.push(await timed(mcp, "memory_linked_search", { symbol: s }));
    console.log(line(`first call per symbol (git log -L)`, first));
    const warm: number[] = [];
    for (let i = 0; i < opts.calls; i++) {
      warm.push(await timed(mcp, "memory_linked_search", { symbol: symbols[i % symbols.length] }));
    }
    console.log(line(`warm (${opts.calls} calls)`, warm, BUDGET_MS));
    const recall: number[] = [];
    const queries = ["allocation free", "retries", "side effects module", "bench note"];
    for (let i = 0; i < Math.min(100, opts.calls); i++) {
      recall.push(await timed(mcp, "recall", { query: queries[i % queries.length] }));
    }
    console.log(line(`recall (${recall.length} calls)`, recall));
    const sample = await mcp.client.callTool({
      name: "memory_linked_search",
      arguments: { symbol: symbols[0] },
    });
    console.log(`  sample answer (${symbols[0]}):`);
    for (const l of textOf(sample).split("\n").slice(0, 40)) console.log(`    ${l}`);
  } finally {
    await mcp?.close().catch(() => {});
    await deleteGraphs(db, project).catch(() => {});
    await db.deleteGraph(notesGraph(project)).catch(() => {});
    await db.command(["DEL", historyKey(project)]).catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { parseArgs } = await import("node:util");
  const { ensureDb } = await import("../src/db/ensure.ts");
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "1000" },
      calls: { type: "string", default: "200" },
    },
  });
  const db = await ensureDb({ quiet: true });
  try {
    await benchMemory(db, { files: Number(values.files), calls: Number(values.calls) });
  } finally {
    await db.close();
  }
}
