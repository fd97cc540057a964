/**
 * What a command loads (issue #14: load modules when first needed). Each command is run with
 * `deno run --coverage`, whose output names every script the process evaluated; a quick command
 * must not load what only other commands need: `cgraph callers` against a single FalkorDB loads
 * neither the falkordb package's root nor `redis` nor `@redis/client` (our own connection, and
 * falkordb's Graph module alone), nor the indexer, tree-sitter, the MCP SDK, the view or the
 * watcher; `cgraph index` loads no tool table (zod), MCP SDK or Redis client; `--version` loads
 * main.ts and the version alone.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { COMMAND_MODULES } from "../src/cli/main.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, dbUrl, ROOT } from "./helpers/mcp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PY = join(ROOT, "fixtures/python");

/** The scripts `cgraph ...args` evaluates (main thread and workers), as URLs; and its exit code. */
async function loaded(args: string[], env: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-startup-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", `--coverage=${dir}`, "-A", "--unstable-raw-imports", "main.ts", ...args],
      cwd: ROOT,
      env: childEnv(env),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const urls: string[] = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.endsWith(".json")) {
        urls.push(JSON.parse(await Deno.readTextFile(join(dir, e.name))).url);
      }
    }
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr), urls };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Packages and modules by what they are, as script URLs show them. */
const NOT = {
  falkordbRoot: /\/falkordb\/[^/]+\/dist\/(index|src\/falkordb)\.js$/,
  redis: /\/registry\.npmjs\.org\/redis\//,
  redisClient: /\/@redis\//,
  treeSitter: /\/web-tree-sitter\/|\/grammars\/mod\.ts$/,
  indexer: /\/src\/index\/(indexer|scan|extract|runs|pool)\.ts$/,
  mcpSdk: /\/@modelcontextprotocol\//,
  view: /\/src\/view\//,
  watcher: /\/src\/watch\//,
  fflate: /\/fflate\//,
  zod: /\/zod\//,
};

function assertNone(urls: string[], which: (keyof typeof NOT)[], what: string) {
  for (const k of which) {
    const hits = urls.filter((u) => NOT[k].test(u));
    assertEquals(hits, [], `${what} loaded ${k}`);
  }
}

Deno.test("the command table names the commands its modules define", async () => {
  for (const m of COMMAND_MODULES) {
    const commands = await m.load();
    if (m.names) assertEquals(commands.map((c) => c.name), m.names);
    else assert.ok(commands.length > 10, "the tools' CLI twins");
  }
});

Deno.test({ name: "--version loads main.ts and the version only", ...opts }, async () => {
  const r = await loaded(["--version"], {});
  assertEquals(r.code, 0, r.stderr);
  const ours = r.urls.filter((u) => u.startsWith(`file://${ROOT}`)).map((u) =>
    u.slice(7 + ROOT.length)
  ).sort();
  assertEquals(ours, ["main.ts", "src/version.ts"]);
  assertEquals(r.urls.filter((u) => !u.startsWith("file://")), []);
});

Deno.test(
  { name: "callers on a single server: no Redis library, indexer or server code", ...opts },
  async () => {
    const db = await testDb();
    if (db.isCluster) return; // a cluster loads @redis/client, as it must
    const project = uniqueName("t-startup");
    await indexAs(db, PY, project);
    try {
      const r = await loaded(
        ["callers", "store", "-C", PY, "--project", project, "--branch", "test"],
        { FALKORDB_URL: dbUrl(db) },
      );
      assertEquals(r.code, 0, r.stderr);
      assert.ok(
        r.urls.some((u) => /\/falkordb\/[^/]+\/dist\/src\/graph\.js$/.test(u)),
        "Graph parses",
      );
      assertNone(
        r.urls,
        [
          "falkordbRoot",
          "redis",
          "redisClient",
          "treeSitter",
          "indexer",
          "mcpSdk",
          "view",
          "watcher",
          "fflate",
        ],
        "callers",
      );
    } finally {
      await dropProject(db, project);
    }
  },
);

Deno.test({ name: "index loads no tool table, MCP SDK or Redis library", ...opts }, async () => {
  const db = await testDb();
  if (db.isCluster) return;
  const project = uniqueName("t-startup");
  try {
    const r = await loaded(
      ["index", PY, "--project", project, "--branch", "test", "--json"],
      { FALKORDB_URL: dbUrl(db) },
    );
    assertEquals(r.code, 0, r.stderr);
    assertNone(
      r.urls,
      ["falkordbRoot", "redis", "redisClient", "mcpSdk", "view", "watcher", "fflate", "zod"],
      "index",
    );
  } finally {
    await dropProject(db, project);
  }
});
