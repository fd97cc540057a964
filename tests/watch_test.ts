/**
 * Watch mode: a spawned `cgraph mcp` (stdio and HTTP, the SDK client) or `cgraph watch` keeps its
 * repository's graph current as files change, against a real FalkorDB: add, modify, delete,
 * rename, editor saves, a burst of 500 files, ignored folders, unreadable files, the folder
 * removed and re-created, a moved HEAD, a call waiting for an update under way, two servers on
 * one repository, watching turned off, a FalkorDB restart, and random edit sequences whose
 * watched graph equals a full index of the same tree. Debounce and checks are shortened by env.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Db } from "../src/db/client.ts";
import { freePort } from "../src/db/proc.ts";
import { resolveProject } from "../src/project/identity.ts";
import { keysFor } from "../src/project/names.ts";
import { Debouncer } from "../src/watch/debounce.ts";
import { bundledBinaries, testDb } from "./helpers/db.ts";
import { copyFixture, prng, randomEdit } from "./helpers/edits.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";
import {
  childEnv,
  connectMcp,
  dbUrl,
  MCP_ARGS,
  type McpSession,
  ROOT,
  textOf,
} from "./helpers/mcp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const FAST = { CGRAPH_WATCH_DEBOUNCE_MS: "20", CGRAPH_WATCH_CHECK_MS: "300" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@localhost", ...args],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** The Python fixture as a git repository on branch main, in `dir` (made when absent). */
async function pythonRepo(dir?: string): Promise<string> {
  const src = await copyFixture("python");
  const target = dir ?? await Deno.makeTempDir({ prefix: "cgraph-watch-" });
  await Deno.mkdir(target, { recursive: true });
  for await (const e of Deno.readDir(src)) {
    await Deno.rename(join(src, e.name), join(target, e.name));
  }
  await Deno.remove(src, { recursive: true });
  await Deno.writeTextFile(join(target, ".gitignore"), "generated/\n");
  await git(target, "init", "-q", "-b", "main");
  await git(target, "add", "-A");
  await git(target, "commit", "-qm", "init");
  return target;
}

async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await sleep(50);
  }
  throw new Error(`timed out waiting for: ${what}${last ? ` (last error: ${last})` : ""}`);
}

async function call(s: McpSession | Client, name: string, args: Record<string, unknown>) {
  const client = s instanceof Client ? s : s.client;
  return textOf(await client.callTool({ name, arguments: args }));
}

const callers = (s: McpSession | Client) => call(s, "get_callers", { symbol: "shop.db.connect" });

/** A caller of shop.db.connect, as a module. */
const caller = (fn: string) =>
  `from shop.db import connect\n\n\ndef ${fn}():\n    return connect()\n`;

async function fileCount(db: Db, graph: string): Promise<number> {
  const rows = await db.query(graph, "MATCH (f:File) RETURN count(f) AS n", {}, {
    readOnly: true,
  });
  return Number(rows[0].n);
}

Deno.test("debounce: a batch fires after a quiet spell, or at the latest after maxMs", async () => {
  const fired: string[][] = [];
  const d = new Debouncer({ quietMs: 40, maxMs: 150 }, (paths) => fired.push([...paths].sort()));
  d.push(["a"]);
  d.push(["b", "a"]);
  assert(d.pending);
  await sleep(80);
  assertEquals(fired, [["a", "b"]]);
  assert(!d.pending);
  // A stream with no quiet spell still fires once maxMs has passed since its first event.
  const t0 = performance.now();
  while (performance.now() - t0 < 260) {
    d.push([`x${Math.round(performance.now())}`]);
    await sleep(10);
  }
  assert(fired.length >= 2, `fired ${fired.length} batches during a 260 ms stream`);
  d.cancel();
});

Deno.test(
  {
    name: "watch: add, modify, delete, rename, saves, bursts, ignored and vanished files",
    ...opts,
  },
  async () => {
    const db = await testDb();
    const dir = await pythonRepo();
    const ref = await resolveProject(dir);
    const graph = ref.keys.graph;
    const s = await connectMcp([dir], childEnv({ FALKORDB_URL: dbUrl(db), ...FAST }));
    const shows = (what: string, fn: string, present = true) =>
      until(`${what}: ${fn} ${present ? "shown" : "gone"}`, async () => {
        const text = await callers(s);
        return present ? text.includes(fn) : !text.includes(fn);
      });
    try {
      assert(!(await callers(s)).includes("opener"));
      // add
      await Deno.writeTextFile(join(dir, "extra.py"), caller("opener"));
      await shows("add", "opener");
      // modify
      await Deno.writeTextFile(join(dir, "extra.py"), caller("opener_two"));
      await shows("modify", "opener_two");
      assert(!/\bopener\b/.test(await callers(s)));
      // delete
      await Deno.remove(join(dir, "extra.py"));
      await shows("delete", "opener_two", false);
      // rename
      await Deno.writeTextFile(join(dir, "moved.py"), caller("mover"));
      await shows("rename (before)", "moved.py");
      await Deno.rename(join(dir, "moved.py"), join(dir, "renamed.py"));
      await shows("rename", "renamed.py");
      assert(!(await callers(s)).includes("moved.py"));
      // an editor's save: a temporary file written, then renamed over the original
      await Deno.writeTextFile(join(dir, ".renamed.py.swp"), caller("saver"));
      await Deno.rename(join(dir, ".renamed.py.swp"), join(dir, "renamed.py"));
      await shows("editor save", "saver");
      assert(!(await callers(s)).includes("mover"));
      // ignored folders (the default list, and .gitignore) never reach the graph
      for (const rel of ["node_modules/pkg/nm.py", "build/b.py", "generated/g.py"]) {
        await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
        await Deno.writeTextFile(join(dir, rel), caller(`ignored_${rel.split("/")[0]}`));
      }
      await sleep(200);
      await Deno.writeTextFile(join(dir, "after_ignored.py"), caller("after_ignored"));
      await shows("a change after ignored ones", "after_ignored");
      assert(!(await callers(s)).includes("ignored_"), await callers(s));
      // a burst of 500 files (a checkout's worth)
      const before = await fileCount(db, graph);
      await Deno.mkdir(join(dir, "burst"));
      for (let i = 0; i < 500; i++) {
        await Deno.writeTextFile(join(dir, "burst", `b${i}.py`), caller(`burst_${i}`));
      }
      // (An update may start mid-burst and read a file still empty: the next one completes it.)
      const lastOne = async () =>
        (await db.query(graph, "MATCH (s:Symbol {name: 'burst_499'}) RETURN s.path AS p"))
          .map((r) => r.p);
      await until("500 files indexed", async () =>
        (await fileCount(db, graph)) === before + 500 &&
        JSON.stringify(await lastOne()) === JSON.stringify(["burst/b499.py"]));
      // unreadable files (a symlink loop; a file without read permission) do not stop it
      await Deno.symlink("loop.py", join(dir, "loop.py"));
      await Deno.writeTextFile(join(dir, "locked.py"), caller("locked"));
      await Deno.chmod(join(dir, "locked.py"), 0o000);
      await Deno.writeTextFile(join(dir, "after_unreadable.py"), caller("after_unreadable"));
      await shows("a change after unreadable files", "after_unreadable");
      await Deno.chmod(join(dir, "locked.py"), 0o644);
      await Deno.remove(join(dir, "loop.py"));
      // the whole folder removed, then re-created (a fresh clone in its place)
      await Deno.remove(dir, { recursive: true });
      await sleep(700);
      await pythonRepo(dir);
      await Deno.writeTextFile(join(dir, "reborn.py"), caller("reborn"));
      await shows("folder re-created", "reborn");
      assert(!(await callers(s)).includes("burst_"), "the old folder's files are gone");
      // and the watched graph is the graph a full index of the same tree gives
      const full = uniqueName("watchfull");
      await indexAs(db, dir, full, { full: true, branch: ref.branch });
      await until("watched == full", async () =>
        JSON.stringify(await dumpGraph(db, graph)) ===
          JSON.stringify(await dumpGraph(db, keysFor(full, ref.branch).graph)));
      await dropProject(db, full);
      assertEquals(s.errors, []);
    } finally {
      await s.close();
      await dropProject(db, ref.project);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
);

Deno.test(
  { name: "watch: a call during an update waits for it; past the deadline it says so", ...opts },
  async () => {
    const db = await testDb();
    const dir = await pythonRepo();
    const ref = await resolveProject(dir);
    // A long quiet time: the call below arrives while the update waits for it.
    const slow = await connectMcp(
      [dir],
      childEnv({
        FALKORDB_URL: dbUrl(db),
        CGRAPH_WATCH_DEBOUNCE_MS: "600",
        CGRAPH_WATCH_WAIT_MS: "10000",
      }),
    );
    const impatient = await connectMcp(
      [dir],
      childEnv({
        FALKORDB_URL: dbUrl(db),
        // Quiet for long enough that the first save is still waiting when the call below comes,
        // however slow the machine: the call must not race the second save's file event.
        CGRAPH_WATCH_DEBOUNCE_MS: "8000",
        CGRAPH_WATCH_MAX_MS: "15000",
        CGRAPH_WATCH_WAIT_MS: "1",
      }),
    );
    try {
      await callers(slow);
      await callers(impatient);
      await Deno.writeTextFile(join(dir, "waited.py"), caller("waited_for"));
      await sleep(150);
      const first = await callers(slow);
      assert(first.includes("waited_for"), `the first answer after the save shows it:\n${first}`);
      assert(!first.includes("updating"), first);
      await Deno.writeTextFile(join(dir, "late.py"), caller("late_one"));
      await sleep(150);
      const header = (await callers(impatient)).split("\n")[0];
      assert(/updating: the graph is catching up with \d+ changed files?/.test(header), header);
      assert(!header.includes("stale"), header);
    } finally {
      await slow.close();
      await impatient.close();
      await dropProject(db, ref.project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({ name: "watch: a checkout switches to that branch's graph", ...opts }, async () => {
  const db = await testDb();
  const dir = await pythonRepo();
  const ref = await resolveProject(dir);
  const s = await connectMcp([dir], childEnv({ FALKORDB_URL: dbUrl(db), ...FAST }));
  try {
    await callers(s);
    await git(dir, "checkout", "-q", "-b", "feature");
    await Deno.writeTextFile(join(dir, "feat.py"), caller("feature_only"));
    await until("the feature graph", async () => (await callers(s)).includes("feature_only"));
    const graphs = await db.listGraphs();
    assert(graphs.includes(keysFor(ref.project, "feature").graph), graphs.join(", "));
    // Back on main: main's graph never saw the feature's file.
    await Deno.remove(join(dir, "feat.py"));
    await git(dir, "checkout", "-q", "main");
    await until("main again", async () => !(await callers(s)).includes("feature_only"));
    const mainText = JSON.stringify(await dumpGraph(db, ref.keys.graph));
    assert(!mainText.includes("feature_only"));
  } finally {
    await s.close();
    await dropProject(db, ref.project);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({ name: "watch: a worktree's own HEAD is followed", ...opts }, async () => {
  const db = await testDb();
  const main = await pythonRepo();
  const wt = `${main}-wt`;
  await git(main, "worktree", "add", "-q", "-b", "side", wt);
  const ref = await resolveProject(wt);
  const s = await connectMcp([wt], childEnv({ FALKORDB_URL: dbUrl(db), ...FAST }));
  try {
    assertEquals(ref.branch, "side");
    await callers(s);
    // The worktree's HEAD lives in the main repository's .git/worktrees/<name>, outside its folder.
    await git(wt, "checkout", "-q", "-b", "side2");
    await Deno.writeTextFile(join(wt, "side2.py"), caller("on_side_two"));
    await until("the side2 graph", async () => (await callers(s)).includes("on_side_two"));
    const graphs = await db.listGraphs();
    assert(graphs.includes(keysFor(ref.project, "side2").graph), graphs.join(", "));
    assert(!JSON.stringify(await dumpGraph(db, ref.keys.graph)).includes("on_side_two"));
  } finally {
    await s.close();
    await dropProject(db, ref.project);
    await Deno.remove(wt, { recursive: true });
    await Deno.remove(main, { recursive: true });
  }
});

Deno.test(
  { name: "watch: two servers on one repository both answer fresh, one index at a time", ...opts },
  async () => {
    const db = await testDb();
    const dir = await pythonRepo();
    const ref = await resolveProject(dir);
    const env = childEnv({ FALKORDB_URL: dbUrl(db), ...FAST, CGRAPH_LOG: "info" });
    const a = await connectMcp([dir], env);
    const b = await connectMcp([dir], env);
    try {
      await callers(a);
      await callers(b);
      for (let i = 0; i < 3; i++) {
        await Deno.writeTextFile(join(dir, `both${i}.py`), caller(`both_${i}`));
        await until(
          `server a sees both_${i}`,
          async () => (await callers(a)).includes(`both_${i}`),
        );
        await until(
          `server b sees both_${i}`,
          async () => (await callers(b)).includes(`both_${i}`),
        );
      }
      for (const s of [a, b]) {
        assert(!/failed|Another cgraph is indexing/.test(s.stderr()), s.stderr());
        assertEquals(s.errors, []);
      }
    } finally {
      await a.close();
      await b.close();
      await dropProject(db, ref.project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  { name: "watch: CODE_GRAPH_WATCH=false keeps the staleness header", ...opts },
  async () => {
    const db = await testDb();
    const dir = await pythonRepo();
    const ref = await resolveProject(dir);
    const s = await connectMcp(
      [dir],
      childEnv({ FALKORDB_URL: dbUrl(db), ...FAST, CODE_GRAPH_WATCH: "false" }),
    );
    try {
      await callers(s);
      await Deno.writeTextFile(join(dir, "unwatched.py"), caller("unwatched"));
      await sleep(500);
      const text = await callers(s);
      assert(!text.includes("unwatched"), text);
      assert(/stale: 1 file changed since indexing/.test(text.split("\n")[0]), text);
    } finally {
      await s.close();
      await dropProject(db, ref.project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({ name: "watch: over HTTP, an edit shows in the next answers", ...opts }, async () => {
  const db = await testDb();
  const dir = await pythonRepo();
  const ref = await resolveProject(dir);
  const child = new Deno.Command(Deno.execPath(), {
    args: [...MCP_ARGS, dir, "--http", "--port", "0"],
    cwd: ROOT,
    env: childEnv({ FALKORDB_URL: dbUrl(db), ...FAST, CGRAPH_TOKEN: "", CGRAPH_LOG: "info" }),
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
    if (done) throw new Error(`server ended:\n${text}`);
    text += value;
    port = Number(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(text)?.[1] ?? 0);
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  const client = new Client({ name: "watch-http", version: "1" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
    );
    assert(!(await callers(client)).includes("over_http"));
    await Deno.writeTextFile(join(dir, "http.py"), caller("over_http"));
    await until("the edit over HTTP", async () => (await callers(client)).includes("over_http"));
  } finally {
    await client.close().catch(() => {});
    child.kill("SIGTERM");
    await child.status;
    await dropProject(db, ref.project);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  { name: "watch: the cgraph watch command prints one line per update", ...opts },
  async () => {
    const db = await testDb();
    const dir = await pythonRepo();
    const ref = await resolveProject(dir);
    const child = new Deno.Command(Deno.execPath(), {
      args: [...MCP_ARGS.slice(0, -1), "watch", dir],
      cwd: ROOT,
      env: childEnv({ FALKORDB_URL: dbUrl(db), ...FAST }),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    const next = async (re: RegExp) => {
      while (!re.test(out)) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`watch ended:\n${out}`);
        out += value;
      }
    };
    try {
      await next(/full index of 7 files/);
      await Deno.writeTextFile(join(dir, "shop/db.py"), "\n\ndef more():\n    return 1\n", {
        append: true,
      });
      await next(/0 added, 1 modified, 0 deleted -> 22 symbols/);
      assertEquals(out.split("\n")[0], `watching ${ref.root} (${ref.project}, branch main)`);
    } finally {
      child.kill("SIGTERM");
      assertEquals((await child.status).code, 0);
      await lines.cancel().catch(() => {});
      await dropProject(db, ref.project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  { name: "watch: after a FalkorDB restart the server re-indexes what it lost", ...opts },
  async () => {
    const bins = await bundledBinaries();
    const port = freePort();
    const data = await Deno.makeTempDir({ prefix: "cgraph-watch-db-" });
    const start = () =>
      new Deno.Command(bins.server, {
        args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
          .concat(["--dir", data, "--loadmodule", bins.module]),
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
    const connectDb = async () => {
      for (let i = 0; i < 100; i++) {
        try {
          return await Db.connect({ host: "127.0.0.1", port, origin: "test" });
        } catch {
          await sleep(100);
        }
      }
      throw new Error("the test FalkorDB did not start");
    };
    let server = start();
    let db = await connectDb();
    const dir = await pythonRepo();
    const ref = await resolveProject(dir);
    const s = await connectMcp(
      [dir],
      childEnv({ FALKORDB_URL: `redis://127.0.0.1:${port}`, ...FAST }),
    );
    try {
      assert((await callers(s)).includes("store"));
      await db.close();
      server.kill("SIGKILL");
      await server.status;
      await sleep(500);
      server = start();
      db = await connectDb();
      // The new server started empty (no persistence): any graph there now was built again.
      // No call needed: the watcher notices the lost graph and builds it again.
      await until(
        "the graph rebuilt",
        async () => (await db.listGraphs()).includes(ref.keys.graph),
      );
      await until("answers again", async () => (await callers(s)).includes("store"));
    } finally {
      await s.close();
      await db.close();
      server.kill("SIGKILL");
      await server.status;
      await Deno.remove(data, { recursive: true }).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
);

// Seeds past 10 edit files in place only: the kept walk, structure and state are patched.
for (const seed of [3, 8, 13, 21]) {
  const editsOnly = seed > 10;
  Deno.test(
    {
      name: `watch: watched random ${
        editsOnly ? "in-file " : ""
      }edits == full index (seed ${seed})`,
      ...opts,
    },
    async () => {
      const db = await testDb();
      const dir = await copyFixture("python", "typescript");
      const ref = await resolveProject(dir);
      const s = await connectMcp([dir], childEnv({ FALKORDB_URL: dbUrl(db), ...FAST }));
      const full = uniqueName(`wfull${seed}`);
      const rnd = prng(seed);
      const log: string[] = [];
      try {
        await call(s, "get_stats", {});
        for (let round = 0; round < (editsOnly ? 6 : 4); round++) {
          for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
            log.push(await randomEdit(dir, rnd, editsOnly));
          }
          await indexAs(db, dir, full, { full: true, branch: ref.branch });
          const want = JSON.stringify(await dumpGraph(db, keysFor(full, ref.branch).graph));
          await until(
            `seed ${seed} round ${round} after: ${log.join("; ")}`,
            async () => JSON.stringify(await dumpGraph(db, ref.keys.graph)) === want,
          );
        }
      } finally {
        await s.close();
        await dropProject(db, ref.project);
        await dropProject(db, full);
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}
