/**
 * MCP benchmarks (`deno task bench` runs them after the indexing benchmarks; `--mcp-only` runs
 * only these): a generated repository of more than 10,000 symbols (a git work tree, as an agent's
 * would be), indexed, served by `cgraph mcp` in a subprocess and driven over stdio by the MCP SDK's
 * own Client. Prints p50 / p99 per tool against its target, and token counts (o200k_base) of the
 * tool list, of each description, of a 10-result find_symbol and of every tool's text answer
 * against its JSON answer for the same call. Numbers are printed, never asserted.
 */
import type { Db } from "../src/db/client.ts";
import { indexProject } from "../src/index/indexer.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { keysFor } from "../src/project/names.ts";
import { childEnv, connectMcp, dbUrl, type McpSession, textOf } from "../tests/helpers/mcp.ts";
import { STRUCTURAL_TOOL_NAMES } from "../src/tools/registry.ts";
import { INSTRUCTIONS } from "../src/mcp/server.ts";
import { savingPercent, TOKENIZER, tokens } from "../tests/helpers/tokens.ts";
import { cypherReply, type FakeLlm, fakeLlm, wantsCypher } from "../tests/helpers/fake_llm.ts";
import { generateRepo, generateSameName } from "./genrepo.ts";
import { fmtMs, git, percentile } from "./util.ts";

export interface McpBenchOptions {
  /** Files of the generated repository (Go files are not indexed: about 3/4 count). */
  files: number;
  /** Timed calls per tool. */
  calls: number;
  /** Untimed calls per tool first. */
  warmup: number;
  /** Calls spaced like an agent's (2.5 s apart), timed separately. */
  paced: number;
}

type Args = Record<string, unknown>;

interface Case {
  tool: string;
  /** p50 target in ms (undefined: measured, no target). */
  target?: number;
  /** Argument sets, used in turn. */
  args: Args[];
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);

function argsText(args: Args): string {
  return Object.entries(args).map(([k, v]) => `${k}=${v}`).join(" ");
}

/** Qualified names from a read on the bench graph (setup only, not timed). */
async function names(db: Db, graph: string, cypher: string, params: Args = {}): Promise<string[]> {
  const rows = await db.query(graph, cypher, params, { readOnly: true });
  return rows.map((r) => String(r.qn));
}

async function pickSymbols(db: Db, graph: string) {
  const hubsIn = await names(
    db,
    graph,
    `MATCH (s:Symbol)<-[:CALLS]-() WITH s, count(*) AS n ORDER BY n DESC, s.qualified_name
     RETURN s.qualified_name AS qn LIMIT 3`,
  );
  const hubsOut = await names(
    db,
    graph,
    `MATCH (s:Symbol)-[:CALLS]->() WITH s, count(*) AS n ORDER BY n DESC, s.qualified_name
     RETURN s.qualified_name AS qn LIMIT 2`,
  );
  // Ordinary symbols: a deterministic spread over the graph, functions and methods.
  const ordinary = await names(
    db,
    graph,
    `MATCH (s:Symbol) WHERE s.kind IN ['Function', 'Method']
     RETURN s.qualified_name AS qn ORDER BY s.id SKIP 100 LIMIT 4`,
  );
  // Leaves: nothing calls them (entry points), or they call nothing.
  const noCallers = await names(
    db,
    graph,
    `MATCH (s:Symbol:Function) OPTIONAL MATCH (c)-[:CALLS]->(s) WITH s, count(c) AS n WHERE n = 0
     RETURN s.qualified_name AS qn ORDER BY s.id LIMIT 2`,
  );
  const noCallees = await names(
    db,
    graph,
    `MATCH (s:Symbol:Function) OPTIONAL MATCH (s)-[:CALLS]->(c) WITH s, count(c) AS n WHERE n = 0
     RETURN s.qualified_name AS qn ORDER BY s.id LIMIT 1`,
  );
  // Chains that exist: from an entry point, 3 and 5 calls down.
  const pairs: [string, string][] = [];
  for (const from of noCallers) {
    for (const hops of [3, 5]) {
      const to = await names(
        db,
        graph,
        `MATCH (a:Symbol {qualified_name: $qn})-[:CALLS*${hops}]->(b:Symbol)
         RETURN b.qualified_name AS qn ORDER BY b.id LIMIT 1`,
        { qn: from },
      );
      if (to.length) pairs.push([from, to[0]]);
    }
  }
  // No chain: an entry point to the busiest callee (the search runs to max_depth and stops).
  if (noCallers.length && hubsIn.length) pairs.push([noCallers[0], hubsIn[0]]);
  if (noCallees.length && hubsIn.length) pairs.push([noCallees[0], hubsIn[0]]);
  return { hubsIn, hubsOut, ordinary, noCallers, noCallees, pairs };
}

interface Timings {
  /** Every timed call, sorted. */
  all: number[];
  /** The argument set with the highest median, and that median. */
  slowest: { args: Args; p50: number };
}

async function timeCalls(mcp: McpSession, c: Case, opts: McpBenchOptions): Promise<Timings> {
  const call = async (args: Args) => {
    const r = await mcp.client.callTool({ name: c.tool, arguments: args });
    if (r.isError) throw new Error(`${c.tool} ${JSON.stringify(args)}: ${textOf(r)}`);
  };
  for (let i = 0; i < opts.warmup; i++) await call(c.args[i % c.args.length]);
  const ms: number[] = [];
  const perArgs = c.args.map(() => [] as number[]);
  for (let i = 0; i < opts.calls; i++) {
    const args = c.args[i % c.args.length];
    const t = performance.now();
    await call(args);
    const took = performance.now() - t;
    ms.push(took);
    perArgs[i % c.args.length].push(took);
  }
  let slowest = { args: c.args[0], p50: -1 };
  perArgs.forEach((times, i) => {
    const p50 = percentile(times.sort((a, b) => a - b), 50);
    if (p50 > slowest.p50) slowest = { args: c.args[i], p50 };
  });
  return { all: ms.sort((a, b) => a - b), slowest };
}

/** One row of the text-vs-JSON table: tokens of each, and how much smaller the text is. */
function report(tool: string, args: Args, a: { text: string; json: string }): void {
  const saving = savingPercent(a.text, a.json);
  const indented = JSON.stringify(JSON.parse(a.json), null, 2);
  const shown = argsText(args);
  console.log(
    `  ${pad(tool, 22)}${pad(shown.length > 33 ? `${shown.slice(0, 30)}...` : shown, 34)}${
      lpad(tokens(a.text), 7)
    }${lpad(tokens(a.json), 7)}${lpad(`${saving.toFixed(0)}%`, 7)}${lpad(tokens(indented), 10)}${
      lpad(`${savingPercent(a.text, indented).toFixed(0)}%`, 7)
    }  ${saving >= 60 ? "ok" : "MISSED"}`,
  );
}

async function answerPair(mcp: McpSession, tool: string, args: Args) {
  const text = await mcp.client.callTool({ name: tool, arguments: args });
  const json = await mcp.client.callTool({ name: tool, arguments: { ...args, format: "json" } });
  if (text.isError || json.isError) throw new Error(`${tool}: ${textOf(text) || textOf(json)}`);
  return { text: textOf(text), json: textOf(json) };
}

export async function benchMcp(db: Db, opts: McpBenchOptions): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-bench-mcp-" });
  const project = `bench-mcp-${crypto.randomUUID().slice(0, 6)}`;
  const branch = "bench";
  let mcp: McpSession | undefined;
  let llm: FakeLlm | undefined;
  try {
    await generateRepo(dir, opts.files);
    await generateSameName(dir);
    await git(dir, "init", "-q");
    await git(dir, "add", ".");
    await git(dir, "commit", "-q", "-m", "bench");
    const ref = await resolveProject(dir, { project, branch });
    let t = performance.now();
    const summary = await indexProject(db, ref, { full: true });
    const indexMs = performance.now() - t;
    const symbols = Object.values(summary.symbols).reduce((a, b) => a + b, 0);
    const edges = Object.values(summary.edges).reduce((a, b) => a + b, 0);
    const graph = keysFor(ref.project, ref.branch).graph;
    const pick = await pickSymbols(db, graph);

    // ask needs a model: a local stand-in speaking the OpenAI chat API (tests/helpers/fake_llm.ts),
    // reached through the real provider library. It writes one query for the question (the
    // callers of the busiest function) and answers it in one sentence, as a model would.
    llm = fakeLlm((req) =>
      wantsCypher(req)
        ? cypherReply(
          `MATCH (c:Symbol)-[e:CALLS]->(s:Symbol {qualified_name: '${pick.hubsIn[0]}'})\n` +
            "RETURN c.qualified_name AS caller, c.path AS path, e.line AS line ORDER BY caller LIMIT 10",
        )
        : `${pick.hubsIn[0]} is called from 10 places, e.g. ${pick.ordinary[0]}.`
    );
    t = performance.now();
    mcp = await connectMcp(
      [dir, "--project", project, "--branch", branch],
      childEnv({
        FALKORDB_URL: dbUrl(db),
        MODEL_NAME: "openai/fake-model",
        LLM_API_KEY: "bench",
        LLM_BASE_URL: llm.url,
      }),
    );
    const listed = await mcp.client.listTools();
    const startMs = performance.now() - t;

    console.log(
      `\nMCP tools over stdio (SDK Client -> cgraph mcp): ${summary.files.scanned} files, ` +
        `${symbols} symbols, ${edges} edges (indexed in ${(indexMs / 1000).toFixed(1)} s; ` +
        `server up and tools listed in ${startMs.toFixed(0)} ms)`,
    );
    if (symbols < 10_000) console.log(`  NOTE: fewer than 10,000 symbols; raise --files`);

    const symbolSet = [...pick.hubsIn, ...pick.ordinary, ...pick.noCallers, ...pick.noCallees];
    const bare = (qn: string) => qn.slice(qn.lastIndexOf(".") + 1);
    const cases: Case[] = [
      { tool: "get_callers", target: 5, args: symbolSet.map((s) => ({ symbol: s })) },
      {
        tool: "get_callees",
        target: 5,
        args: [...pick.hubsOut, ...pick.ordinary, ...pick.noCallees].map((s) => ({ symbol: s })),
      },
      {
        tool: "find_symbol",
        target: 5,
        args: [
          ...[...pick.hubsIn, ...pick.ordinary].map((s) => ({ name: s })),
          ...pick.ordinary.map((s) => ({ name: bare(s) })),
          { name: "save" },
          { name: "handle" }, // hundreds of definitions: the capped case
          { name: "Mod3.func0" }, // a dotted tail of an ambiguous name
        ],
      },
      {
        tool: "search_code",
        target: 5,
        args: [
          "handle",
          "service helper",
          "repository save",
          "func12",
          "persist entity",
          "Service7",
        ].map((query) => ({ query })),
      },
      {
        tool: "impact_analysis",
        target: 25,
        args: [...pick.hubsIn, ...pick.ordinary, ...pick.noCallers].map((s) => ({
          symbol: s,
          depth: 3,
        })),
      },
      {
        tool: "find_path",
        target: 50,
        args: pick.pairs.map(([from, to]) => ({ from, to })),
      },
      { tool: "get_dependencies", args: symbolSet.map((s) => ({ symbol: s })) },
      { tool: "find_references", args: symbolSet.map((s) => ({ symbol: s })) },
      { tool: "get_context", args: symbolSet.map((s) => ({ symbol: s })) },
      { tool: "get_stats", args: [{}] },
    ];

    console.log(
      `  ${opts.calls} timed calls per tool after ${opts.warmup} warm-up, arguments in turn ` +
        `(hubs, ordinary symbols, leaves); round trip through the client`,
    );
    console.log(
      `  ${pad("tool", 18)}${lpad("p50", 10)}${lpad("p99", 10)}${lpad("max", 10)}   target`,
    );
    const slowest: string[] = [];
    for (const c of cases) {
      const { all: ms, slowest: worst } = await timeCalls(mcp, c, opts);
      const p50 = percentile(ms, 50);
      const verdict = c.target === undefined
        ? ""
        : `p50 < ${c.target} ms  ${p50 < c.target ? "ok" : "MISSED"}`;
      console.log(
        `  ${pad(c.tool, 18)}${lpad(fmtMs(p50), 10)}${lpad(fmtMs(percentile(ms, 99)), 10)}${
          lpad(fmtMs(ms[ms.length - 1]), 10)
        }   ${verdict}`,
      );
      if (c.args.length > 1) {
        slowest.push(`${pad(c.tool, 18)}${lpad(fmtMs(worst.p50), 10)}   ${argsText(worst.args)}`);
      }
    }
    console.log(`  slowest argument set per tool (its p50):`);
    for (const line of slowest) console.log(`  ${line}`);

    // An agent thinks between calls: past the server's 2 s cache, a call re-checks staleness
    // (git ls-files and one stat per file) before it answers.
    const paced: number[] = [];
    for (let i = 0; i < opts.paced; i++) {
      await new Promise((r) => setTimeout(r, 2500));
      const t = performance.now();
      await mcp.client.callTool({ name: "find_symbol", arguments: { name: pick.ordinary[0] } });
      paced.push(performance.now() - t);
    }
    if (paced.length) {
      paced.sort((a, b) => a - b);
      console.log(
        `  ${pad("find_symbol, 2.5 s apart", 26)}${lpad(fmtMs(percentile(paced, 50)), 10)}${
          lpad(fmtMs(paced[paced.length - 1]), 10)
        }   (p50, max of ${paced.length}: each call re-checks staleness first)`,
      );
    }

    // ---- tokens ---------------------------------------------------------------------------
    console.log(`\n  tokens (${TOKENIZER}):`);
    const listTokens = tokens(JSON.stringify(listed));
    const structural = listed.tools.filter((tl) => STRUCTURAL_TOOL_NAMES.includes(tl.name));
    const structuralTokens = tokens(JSON.stringify({ tools: structural }));
    console.log(`  tools/list, structural tools (${structural.length}) ${structuralTokens}`);
    console.log(
      `  tools/list, all ${listed.tools.length} tools (with ask and memory) ${listTokens}   ` +
        `budget <= 2500  ${listTokens <= 2500 ? "ok" : "MISSED"}`,
    );
    console.log(`  server instructions (sent once, at initialize) ${tokens(INSTRUCTIONS)}`);
    const desc = listed.tools.map((tl) => ({ name: tl.name, n: tokens(tl.description ?? "") }));
    const worst = desc.reduce((a, b) => (b.n > a.n ? b : a));
    console.log(
      `  descriptions: max ${worst.n} (${worst.name})   budget < 100 each  ${
        worst.n < 100 ? "ok" : "MISSED"
      }`,
    );
    console.log(`    ${desc.map((d) => `${d.name} ${d.n}`).join(", ")}`);

    const save = await answerPair(mcp, "find_symbol", { name: "save" });
    const saveLines = save.text.split("\n").length - 1;
    const saveTokens = tokens(save.text);
    console.log(
      `  find_symbol 'save' (${saveLines} results) ${saveTokens}   budget < 200  ${
        saveTokens < 200 ? "ok" : "MISSED"
      }`,
    );
    const generated = await answerPair(mcp, "find_symbol", { name: "handle" });
    const ten = generated.text.split("\n").slice(0, 11).join("\n");
    console.log(`  find_symbol 'handle', header + first 10 results ${tokens(ten)}`);

    console.log(
      `  text vs JSON answer (format json) for the same call; budget: text >= 60% smaller`,
    );
    const hub = pick.hubsIn[0];
    const ord = pick.ordinary[0];
    const [pf, pt] = pick.pairs[0] ?? [hub, hub];
    const comparisons: [string, Args][] = [
      ["get_callers", { symbol: hub }],
      ["get_callers", { symbol: ord }],
      ["get_callees", { symbol: pick.hubsOut[0] }],
      ["get_callers", { symbol: hub, depth: 3 }],
      ["get_dependencies", { symbol: ord, direction: "BOTH" }],
      ["impact_analysis", { symbol: hub, depth: 3 }],
      ["find_path", { from: pf, to: pt }],
      ["search_code", { query: "service helper" }],
      ["find_symbol", { name: "save" }],
      ["find_symbol", { name: ord }],
      ["find_references", { symbol: hub }],
      ["get_context", { symbol: ord }],
      ["detect_circular", { relation: "IMPORTS" }],
      ["get_stats", {}],
      ["list_projects", { project }],
      ["get_schema", {}],
      ["query_graph", { cypher: "MATCH (s:Symbol) RETURN s.kind AS kind, count(*) AS n" }],
    ];
    console.log(
      `  ${pad("tool", 22)}${pad("argument", 34)}${lpad("text", 7)}${lpad("json", 7)}${
        lpad("saved", 7)
      }${lpad("indented", 10)}${lpad("saved", 7)}`,
    );
    for (const [tool, args] of comparisons) report(tool, args, await answerPair(mcp, tool, args));
    // Answers that write, need an edit or a model: ask (the stand-in model above), memory,
    // index_file, diff_impact.
    const rows: [string, Args, { text: string; json: string }][] = [];
    const question = { question: `Who calls ${bare(hub)}?` };
    rows.push(["ask", question, await answerPair(mcp, "ask", question)]);
    const rem = await answerPair(mcp, "remember", { symbol: ord, text: "bench: retries capped" });
    rows.push(["remember", { symbol: ord }, rem]);
    rows.push([
      "recall",
      { query: "retries" },
      await answerPair(mcp, "recall", { query: "retries" }),
    ]);
    rows.push([
      "memory_linked_search",
      { symbol: ord },
      await answerPair(mcp, "memory_linked_search", { symbol: ord }),
    ]);
    const ids = [rem.text, rem.json].map((t) => /\b(n-[\w-]+)/.exec(t)?.[1] ?? "");
    const forgot = await mcp.client.callTool({ name: "forget", arguments: { note_id: ids[0] } });
    const forgotJson = await mcp.client.callTool({
      name: "forget",
      arguments: { note_id: ids[1], format: "json" },
    });
    rows.push(["forget", { note_id: "n-..." }, { text: textOf(forgot), json: textOf(forgotJson) }]);
    // The edit: a hub's body changed, a module added (untracked).
    const mod = [...Deno.readDirSync(`${dir}/pkg`)].map((e) => e.name).find((n) =>
      /^mod\d+\.py$/.test(n)
    );
    if (mod) {
      const path = `${dir}/pkg/${mod}`;
      await Deno.writeTextFile(
        path,
        (await Deno.readTextFile(path)).replace("    return x\n", "    return x + 0\n"),
      );
      await Deno.writeTextFile(`${dir}/pkg/bench_extra.py`, "def bench_added(x):\n    return x\n");
      rows.push([
        "index_file",
        { file: `pkg/${mod}` },
        await answerPair(mcp, "index_file", { file: `pkg/${mod}` }),
      ]);
      rows.push(["diff_impact", {}, await answerPair(mcp, "diff_impact", {})]);
    }
    for (const [tool, args, a] of rows) report(tool, args, a);
  } finally {
    await mcp?.close().catch(() => {});
    await llm?.close().catch(() => {});
    await deleteGraphs(db, project).catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { parseArgs } = await import("node:util");
  const { ensureDb } = await import("../src/db/ensure.ts");
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "1500" },
      calls: { type: "string", default: "200" },
      warmup: { type: "string", default: "20" },
      paced: { type: "string", default: "5" },
    },
  });
  const db = await ensureDb({ quiet: true });
  try {
    await benchMcp(db, {
      files: Number(values.files),
      calls: Number(values.calls),
      warmup: Number(values.warmup),
      paced: Number(values.paced),
    });
  } finally {
    await db.close();
  }
}
