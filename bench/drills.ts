/**
 * Drills, as figures (`deno task bench` runs them; `deno run -A bench/drills.ts [--soak N]` runs
 * them alone). Each prints numbers, never asserts; the behaviour they rest on is tested in tests/.
 *
 * 1. stdio soak: N mixed tool calls (default 10,000) on one `cgraph mcp` over stdio: the error
 *    count, p50/p99 of the first and the last 1,000 calls, the server's RSS at start and end.
 * 2. HTTP: 8 clients x 500 calls at once on one `cgraph mcp --http`: errors, p50/p99.
 * 3. kill -9 mid-index, 20 times: a full `cgraph index` killed while it writes, then the next index
 *    at once: how long it took, whether it waited for the dead holder's lock, and at the end
 *    whether the graph equals a clean full index.
 * 4. The database killed and restarted mid-session: how long errors take while it is down, and how
 *    long after the restart the same MCP server answers again (no restart of cgraph); then killed
 *    in the middle of a full index_repo: the error, and the next index_repo after the restart.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Db } from "../src/db/client.ts";
import { ensureDb } from "../src/db/ensure.ts";
import { freePort, poll } from "../src/db/proc.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { keysFor } from "../src/project/names.ts";
import { bundledBinaries, runCgraph } from "../tests/helpers/db.ts";
import { dumpGraph } from "../tests/helpers/graph.ts";
import {
  childEnv,
  connectMcp,
  dbUrl,
  MCP_ARGS,
  type McpSession,
  ROOT,
  textOf,
} from "../tests/helpers/mcp.ts";
import { generateRepo } from "./genrepo.ts";
import { fmtMs, percentile } from "./util.ts";

export interface DrillOptions {
  soakCalls: number;
  httpClients: number;
  httpCalls: number;
  kills: number;
  /** One drill only: soak, http, kill or restart. */
  only?: string;
}

const PY = join(ROOT, "fixtures/python");

/** The mixed calls of an agent's session on the Python fixture. */
const MIX: { name: string; arguments: Record<string, unknown> }[] = [
  { name: "get_callers", arguments: { symbol: "shop.db.store" } },
  { name: "get_callees", arguments: { symbol: "shop.models.User.save" } },
  { name: "search_code", arguments: { query: "user" } },
  { name: "find_symbol", arguments: { name: "register" } },
  { name: "get_context", arguments: { symbol: "shop.db.store" } },
  { name: "impact_analysis", arguments: { symbol: "shop.db.store" } },
  { name: "get_stats", arguments: {} },
  { name: "find_references", arguments: { symbol: "shop.db.store" } },
  { name: "get_dependencies", arguments: { file: "shop/models.py" } },
  { name: "get_callers", arguments: { symbol: "no.such.symbol" } }, // an error answer, on purpose
];

function rssMb(pid: number | null | undefined): number {
  if (!pid) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const p = (xs: number[], q: number) => fmtMs(percentile([...xs].sort((a, b) => a - b), q));

export async function benchDrills(db: Db, opts: DrillOptions): Promise<void> {
  console.log("\ndrills (bench/drills.ts)");
  const run = (name: string) => !opts.only || opts.only === name;
  if (run("soak")) await soak(db, opts.soakCalls);
  if (run("http")) await http(db, opts.httpClients, opts.httpCalls);
  if (run("kill")) await killDuringIndex(db, opts.kills);
  if (run("restart")) await databaseRestart();
}

async function soak(db: Db, calls: number): Promise<void> {
  const project = `drill-soak-${crypto.randomUUID().slice(0, 6)}`;
  const mcp = await connectMcp([PY, "--project", project], childEnv({ FALKORDB_URL: dbUrl(db) }));
  const pid = (mcp.transport as unknown as { pid: number | null }).pid;
  try {
    await mcp.client.callTool({ name: "index_repo", arguments: {} });
    const rssStart = rssMb(pid);
    const ms: number[] = [];
    let errors = 0;
    let unexpected = 0;
    for (let i = 0; i < calls; i++) {
      const c = MIX[i % MIX.length];
      const t = performance.now();
      try {
        const r = await mcp.client.callTool(c);
        if (Boolean(r.isError) !== (c.arguments.symbol === "no.such.symbol")) unexpected++;
      } catch {
        errors++;
      }
      ms.push(performance.now() - t);
    }
    const rssEnd = rssMb(pid);
    const window = Math.min(1000, Math.floor(calls / 2));
    const first = ms.slice(0, window);
    const last = ms.slice(-window);
    console.log(`  stdio soak: ${calls} calls (${MIX.length}-tool mix, one error answer in each)`);
    console.log(`    failed calls         ${errors} (wrong isError: ${unexpected})`);
    console.log(`    first ${window}: p50 ${p(first, 50)}, p99 ${p(first, 99)}`);
    console.log(`    last ${window}:  p50 ${p(last, 50)}, p99 ${p(last, 99)}`);
    console.log(`    server RSS           ${rssStart.toFixed(0)} MB -> ${rssEnd.toFixed(0)} MB`);
  } finally {
    await mcp.close();
    await deleteGraphs(db, project);
  }
}

async function http(db: Db, clients: number, calls: number): Promise<void> {
  const project = `drill-http-${crypto.randomUUID().slice(0, 6)}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [...MCP_ARGS, PY, "--project", project, "--http", "--port", "0"],
    cwd: ROOT,
    env: { ...childEnv({ FALKORDB_URL: dbUrl(db) }), CGRAPH_LOG: "info", CGRAPH_TOKEN: "" },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let port = 0;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`http server ended:\n${text}`);
    text += value;
    port = Number(/127\.0\.0\.1:(\d+)\/mcp/.exec(text)?.[1] ?? 0);
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const sessions: Client[] = [];
  try {
    for (let i = 0; i < clients; i++) {
      const client = new Client({ name: `drill-${i}`, version: "1" });
      await client.connect(new StreamableHTTPClientTransport(url));
      sessions.push(client);
    }
    await sessions[0].callTool({ name: "index_repo", arguments: {} });
    const ms: number[] = [];
    let errors = 0;
    const t0 = performance.now();
    await Promise.all(sessions.map(async (client, k) => {
      for (let i = 0; i < calls; i++) {
        const c = MIX[(i + k) % (MIX.length - 1)]; // no on-purpose error here
        const t = performance.now();
        try {
          const r = await client.callTool(c);
          if (r.isError) errors++;
        } catch {
          errors++;
        }
        ms.push(performance.now() - t);
      }
    }));
    const wall = performance.now() - t0;
    console.log(`  HTTP: ${clients} clients x ${calls} calls at once`);
    console.log(
      `    errors ${errors}; p50 ${p(ms, 50)}, p99 ${p(ms, 99)}; ${
        (ms.length / (wall / 1000)).toFixed(0)
      } calls/s`,
    );
  } finally {
    for (const s of sessions) await s.close().catch(() => {});
    child.kill("SIGTERM");
    await child.status;
    await deleteGraphs(db, project);
  }
}

async function killDuringIndex(db: Db, kills: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-drill-kill-" });
  const project = `drill-kill-${crypto.randomUUID().slice(0, 6)}`;
  const clean = `${project}-clean`;
  const env = { FALKORDB_URL: dbUrl(db), CGRAPH_LOG: "info" };
  try {
    await generateRepo(dir, 400);
    const first = await runCgraph(["index", dir, "--project", project], env);
    if (first.code !== 0) throw new Error(first.stderr);
    const nextMs: number[] = [];
    let waited = 0;
    let tookOver = 0;
    let failed = 0;
    for (let i = 0; i < kills; i++) {
      const child = new Deno.Command(Deno.execPath(), {
        args: [...MCP_ARGS.slice(0, -1), "index", dir, "--project", project, "--full"],
        cwd: ROOT,
        env: { ...childEnv(env) },
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      // Killed while it holds the lock, at a different moment each time (parsing or writing).
      const lock = keysFor(project, "_default").lock;
      await poll(async () => (await db.exists(lock)) || undefined, 20_000, 10);
      await new Promise((r) => setTimeout(r, (i * 137) % 900));
      try {
        child.kill("SIGKILL");
      } catch {
        // finished first
      }
      await child.status;
      const t = performance.now();
      const next = await runCgraph(["index", dir, "--project", project], env);
      nextMs.push(performance.now() - t);
      if (next.code !== 0) failed++;
      if (/waiting for the indexer/.test(next.stderr)) waited++;
      if (/took over the index lock/.test(next.stderr)) tookOver++;
    }
    const again = await runCgraph(["index", dir, "--project", clean, "--full"], env);
    if (again.code !== 0) throw new Error(again.stderr);
    const same = JSON.stringify(await dumpGraph(db, keysFor(project, "_default").graph)) ===
      JSON.stringify(await dumpGraph(db, keysFor(clean, "_default").graph));
    console.log(`  kill -9 mid-index x${kills} (400 files; the next index run at once after each)`);
    console.log(
      `    next index: failed ${failed}, waited for a lock ${waited}, took over a dead lock ${tookOver}`,
    );
    console.log(
      `    next index time p50 ${p(nextMs, 50)}, max ${p(nextMs, 100)} (CLI start included)`,
    );
    console.log(`    graph equals a clean full index: ${same ? "yes" : "NO"}`);
  } finally {
    await deleteGraphs(db, project);
    await deleteGraphs(db, clean);
    await Deno.remove(dir, { recursive: true });
  }
}

/** A FalkorDB of our own (append-only, so a restart keeps the graph), killable at will. */
async function ownServer(port: number, dir: string): Promise<Deno.ChildProcess> {
  const bins = await bundledBinaries();
  const child = new Deno.Command(bins.server, {
    args: [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--appendonly",
      "yes",
      "--appendfsync",
      "everysec",
      "--save",
      "",
      "--loadmodule",
      bins.module,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const up = await poll(
    async () => {
      try {
        const db = await Db.connect({ host: "127.0.0.1", port, origin: "drill" }, 500);
        await db.close();
        return true;
      } catch {
        return undefined;
      }
    },
    20_000,
    50,
  );
  if (!up) throw new Error("drill server did not start");
  return child;
}

async function databaseRestart(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-drill-db-" });
  const port = freePort();
  let server = await ownServer(port, dir);
  let mcp: McpSession | undefined;
  try {
    const env = childEnv({ FALKORDB_URL: `redis://127.0.0.1:${port}` });
    mcp = await connectMcp([PY, "--project", "drill-restart"], env);
    await mcp.client.callTool({ name: "index_repo", arguments: {} });
    const call = MIX[0];
    const ok = await mcp.client.callTool(call);
    if (ok.isError) throw new Error(textOf(ok));
    await new Promise((r) => setTimeout(r, 1200)); // past appendfsync everysec
    server.kill("SIGKILL");
    await server.status;
    const downMs: number[] = [];
    let clear = 0;
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const r = await mcp.client.callTool(call);
      downMs.push(performance.now() - t);
      if (r.isError && /FalkorDB|database/.test(textOf(r))) clear++;
    }
    server = await ownServer(port, dir);
    const t0 = performance.now();
    let attempts = 0;
    let recovered = false;
    let recoveredMs = NaN;
    while (performance.now() - t0 < 30_000) {
      attempts++;
      const r = await mcp.client.callTool(call);
      if (!r.isError) {
        recovered = true;
        recoveredMs = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const mid = await killMidIndex(mcp, port, dir, () => server, (s) => (server = s));
    console.log("  database killed and restarted mid-session (one MCP server throughout)");
    console.log(
      `    while down: ${clear}/20 clear errors, p50 ${p(downMs, 50)}, max ${p(downMs, 100)}`,
    );
    console.log(
      `    after restart: ${
        recovered
          ? `answering again in ${fmtMs(recoveredMs)} (${attempts} calls)`
          : "NOT answering after 30 s"
      }`,
    );
    console.log(
      `    killed mid-index (1,500 files): ${mid.error}; after the restart the next index_repo ${mid.next}`,
    );
  } finally {
    await mcp?.close();
    try {
      server.kill("SIGKILL");
    } catch {
      // gone
    }
    await server.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** A full index_repo through the MCP server, the database killed while it writes, then again. */
async function killMidIndex(
  mcp: McpSession,
  port: number,
  dir: string,
  current: () => Deno.ChildProcess,
  replace: (s: Deno.ChildProcess) => void,
): Promise<{ error: string; next: string }> {
  const repo = await Deno.makeTempDir({ prefix: "cgraph-drill-midindex-" });
  try {
    await generateRepo(repo, 1500);
    const args = { path: repo, project: "drill-midindex", full: true };
    const watcher = await Db.connect({ host: "127.0.0.1", port, origin: "drill" });
    const lock = keysFor("drill-midindex", "_default").lock;
    const running = mcp.client.callTool({ name: "index_repo", arguments: args });
    await poll(async () => (await watcher.exists(lock)) || undefined, 60_000, 20);
    await watcher.close();
    await new Promise((r) => setTimeout(r, 1500)); // past appendfsync: the lock is on disk
    current().kill("SIGKILL");
    await current().status;
    const t = performance.now();
    const r = await running;
    const error = `${r.isError ? "clear error" : "NO error"} ${
      fmtMs(performance.now() - t)
    } after the kill ("${textOf(r).split("\n")[0].slice(0, 70)}...")`;
    replace(await ownServer(port, dir));
    const t1 = performance.now();
    const again = await mcp.client.callTool({ name: "index_repo", arguments: args });
    const next = again.isError
      ? `FAILED: ${textOf(again).slice(0, 120)}`
      : `succeeded in ${(performance.now() - t1).toFixed(0)} ms${
        /took over|waiting/.test(textOf(again)) ? " (after a lock wait)" : ""
      }`;
    return { error, next };
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      soak: { type: "string", default: "10000" },
      kills: { type: "string", default: "20" },
      only: { type: "string" },
    },
  });
  const db = await ensureDb({ quiet: true });
  try {
    await benchDrills(db, {
      soakCalls: Number(values.soak),
      httpClients: 8,
      httpCalls: 500,
      kills: Number(values.kills),
      only: values.only,
    });
  } finally {
    await db.close();
  }
}
