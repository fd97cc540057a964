/**
 * The single-file build (scripts/build.ts -> cgraph.js) runs offline from an empty cache: built
 * once into a temporary directory, then run with an empty DENO_DIR, every proxy variable pointing
 * at a closed local port (so any download fails), no config file, in a directory outside the
 * repository. It prints its version, indexes a repository large enough for the parse-worker pool
 * into exactly the graph the source build makes, and serves MCP over stdio and, configured as the
 * Docker image configures it (MCP_TRANSPORT=http, MCP_HOST, MCP_PORT, CGRAPH_TOKEN), over HTTP,
 * with the page of `cgraph view` and its embedded assets at /view/.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { build } from "../scripts/build.ts";
import { freePort } from "../src/db/proc.ts";
import { keysFor } from "../src/project/names.ts";
import { VERSION } from "../src/version.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, dbUrl, ROOT, textOf } from "./helpers/mcp.ts";
import { cypherReply, fakeLlm, wantsCypher } from "./helpers/fake_llm.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PY = join(ROOT, "fixtures/python");

let built: Promise<{ bundle: string; denoDir: string; cwd: string }> | undefined;

/** Builds the bundle once for this file; an empty DENO_DIR and a scratch cwd to run it in. */
function bundle() {
  built ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "cgraph-bundle-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    const out = await build(join(dir, "cgraph.js"));
    const denoDir = join(dir, "deno_dir");
    const cwd = join(dir, "cwd");
    await Deno.mkdir(denoDir);
    await Deno.mkdir(cwd);
    return { bundle: out, denoDir, cwd };
  })();
  return built;
}

/** The environment of an offline run: empty DENO_DIR, every download sent to a closed port. */
async function offlineEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const { denoDir } = await bundle();
  const closed = `http://127.0.0.1:${freePort()}`;
  const env = childEnv({
    DENO_DIR: denoDir,
    HTTPS_PROXY: closed,
    HTTP_PROXY: closed,
    https_proxy: closed,
    http_proxy: closed,
    NPM_CONFIG_REGISTRY: closed,
    ...extra,
  });
  delete env.NO_PROXY;
  delete env.no_proxy;
  return env;
}

/** Nothing was fetched into the empty DENO_DIR (no npm package, no remote module). */
async function assertNothingFetched(): Promise<void> {
  const { denoDir } = await bundle();
  const found: string[] = [];
  for (const sub of ["npm", "remote", "deps"]) {
    try {
      for await (const e of Deno.readDir(join(denoDir, sub))) found.push(`${sub}/${e.name}`);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  assertEquals(found, []);
}

async function runBundle(args: string[], env: Record<string, string>) {
  const { bundle: file, cwd } = await bundle();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", file, ...args],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A repository of `n` Python modules in a ring: mod{i}.f{i} imports and calls mod{i+1}. */
async function ringRepo(n: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-ring-" });
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    await Deno.writeTextFile(
      join(dir, `mod${i}.py`),
      `from mod${j} import f${j}\n\n\ndef f${i}(x):\n    """Step ${i}."""\n    return f${j}(x)\n`,
    );
  }
  return dir;
}

Deno.test(
  { name: "bundle: --version and --help offline from an empty DENO_DIR", ...opts },
  async () => {
    const env = await offlineEnv();
    const v = await runBundle(["--version"], env);
    assertEquals(v.code, 0, v.stderr);
    assertEquals(v.stdout.trim(), `cgraph ${VERSION}`);
    const h = await runBundle(["--help"], env);
    assertEquals(h.code, 0, h.stderr);
    assert.match(h.stdout, /^ {2}index /m);
    assert.match(h.stdout, /^ {2}mcp /m);
    await assertNothingFetched();
  },
);

Deno.test("bundle: every grammar is embedded, each as a module of its own", async () => {
  const code = await Deno.readTextFile((await bundle()).bundle);
  for await (const e of Deno.readDir(join(ROOT, "grammars/wasm"))) {
    const spec = (await Deno.readTextFile(join(ROOT, "grammars/wasm", e.name)))
      .match(/from "[^"]*\/([^/"]+\.wasm)"/)![1];
    assert.ok(code.includes(`/${spec}"`), `${spec} is embedded`);
  }
  // Loaded when first needed, as ES modules: bytes imported dynamically would be wrapped as
  // CommonJS, and esbuild's namespace for them copies every index of the array (seconds for the
  // C# grammar).
  assertEquals(code.match(/\.wasm"\(exports, module/g), null);
});

Deno.test({
  name: "bundle: indexes 60 files on parse workers into the source build's graph, offline",
  ...opts,
}, async () => {
  const db = await testDb();
  const repo = await ringRepo(60);
  const viaBundle = uniqueName("t-bundle");
  const viaSource = uniqueName("t-bundle-src");
  try {
    const env = await offlineEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_WORKERS: "2" });
    const r = await runBundle(
      ["index", repo, "--project", viaBundle, "--branch", "test", "--json"],
      env,
    );
    assertEquals(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assertEquals(summary.mode, "full");
    assertEquals(summary.files.added, 60);
    assertEquals(summary.files.skipped, []);

    await indexAs(db, repo, viaSource, { branch: "test" });
    const a = await dumpGraph(db, keysFor(viaBundle, "test").graph);
    const b = await dumpGraph(db, keysFor(viaSource, "test").graph);
    assertEquals(a.length, 60 /* files */ + 60 /* functions */ + 60 * 3 /* edges */);
    assertEquals(a, b);

    const callers = await runBundle(
      ["callers", "f7", "--project", viaBundle, "--branch", "test"],
      env,
    );
    assertEquals(callers.code, 0, callers.stderr);
    assert.match(callers.stdout, /^mod6\.py:4 \| f6 \| function \| at 6$/m);
    await assertNothingFetched();
  } finally {
    await dropProject(db, viaBundle);
    await dropProject(db, viaSource);
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test(
  { name: "bundle: MCP over stdio offline: tools/list and a tool call", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-bundle-mcp");
    const { bundle: file, cwd } = await bundle();
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--no-config", file, "mcp", PY, "--project", project],
      cwd,
      env: await offlineEnv({ FALKORDB_URL: dbUrl(db) }),
      stderr: "pipe",
    });
    const client = new Client({ name: "cgraph-bundle-test", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const n of ["index_repo", "get_callers", "search_code", "list_projects"]) {
        assert(names.includes(n), `tools/list has ${n}`);
      }
      const stats = await client.callTool({ name: "get_stats", arguments: {} });
      assert(!stats.isError, textOf(stats));
      assert.match(textOf(stats), /python/);
      await assertNothingFetched();
    } finally {
      await client.close();
      await dropProject(db, project);
    }
  },
);

Deno.test({
  name: "bundle: MCP over Streamable HTTP offline, configured by environment (as in Docker)",
  ...opts,
}, async () => {
  const db = await testDb();
  const { bundle: file, cwd } = await bundle();
  const token = "bundle-test-token-0123456789";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", file, "mcp", PY, "--project", uniqueName("t-bundle-http")],
    cwd,
    env: await offlineEnv({
      FALKORDB_URL: dbUrl(db),
      MCP_TRANSPORT: "http",
      MCP_HOST: "127.0.0.1",
      MCP_PORT: "0",
      CGRAPH_TOKEN: token,
      CGRAPH_LOG: "info",
    }),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let url: URL | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`ended before listening:\n${text}`);
    text += value;
    const m = /serving Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp) \(bearer/.exec(text);
    if (m) url = new URL(m[1]);
  }
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
    }
  })();
  const client = new Client({ name: "cgraph-bundle-test", version: "1.0.0" });
  try {
    const health = await fetch(new URL("/health", url));
    assertEquals(await health.text(), "ok\n");
    // cgraph view's page, its embedded Cytoscape.js and its API, from the bundle, offline.
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const page = await fetch(new URL("/view/", url), auth);
    assert((await page.text()).includes('<div id="graph"'));
    const cy = await fetch(new URL("/view/assets/cytoscape.mjs", url), auth);
    assert((await cy.text()).includes('version="3.34.4"'));
    const found = await (await fetch(new URL("/view/api/search?q=register", url), auth)).json();
    assert(found.hits.some((h: { label: string }) => h.label.endsWith("register")));
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const { tools } = await client.listTools();
    assert(tools.some((t) => t.name === "find_symbol"));
    const r = await client.callTool({ name: "find_symbol", arguments: { name: "register" } });
    assert(!r.isError, textOf(r));
    assert.match(textOf(r), /^register: 2 definitions/);
    await client.close();
  } finally {
    child.kill("SIGTERM");
    const status = await child.status;
    await drained;
    assertEquals(status.code, 0, text);
  }
  await assertNothingFetched();
});

Deno.test(
  {
    name: "bundle: ask reaches a model through its provider library, loaded on first use",
    ...opts,
  },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-bundle-ask");
    // A stand-in model speaking the OpenAI chat API on this machine (tests/helpers/fake_llm.ts).
    const model = fakeLlm((req) =>
      wantsCypher(req) ? cypherReply("MATCH (f:File) RETURN f.path AS path") : "Two files."
    );
    try {
      await indexAs(db, PY, project, { branch: "test" });
      const env = await offlineEnv({
        FALKORDB_URL: dbUrl(db),
        MODEL_NAME: "openai/fake-model",
        LLM_API_KEY: "unused",
        LLM_BASE_URL: model.url,
      });
      // The stand-in model is on this machine: only it bypasses the closed proxy.
      env.NO_PROXY = env.no_proxy = "127.0.0.1";
      const r = await runBundle(
        ["ask", "Which files are there?", "-C", PY, "--project", project, "--branch", "test"],
        env,
      );
      assertEquals(r.code, 0, r.stderr);
      assert.match(r.stdout, /MATCH \(f:File\) RETURN f\.path AS path/);
      assert.match(r.stdout, /shop\/db\.py/);
      assertEquals(model.requests.length >= 1, true);
      await assertNothingFetched();
    } finally {
      await model.close();
      await dropProject(db, project);
    }
  },
);
