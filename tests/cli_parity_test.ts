/**
 * CLI twins print exactly what the MCP tools answer: for the same arguments, `cgraph <twin> ...`
 * stdout is the tool's text (plus a final newline), in text and in JSON, and errors carry the same
 * message (on stderr, exit code 1).
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { runCgraph, testDb } from "./helpers/db.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, ROOT, textOf } from "./helpers/mcp.ts";

const PY = join(ROOT, "fixtures/python");
const opts = { sanitizeOps: false, sanitizeResources: false };

/** [cli argv, tool name, tool arguments]: the same question both ways. */
const CASES: [string[], string, Record<string, unknown>][] = [
  [["callers", "store"], "get_callers", { symbol: "store" }],
  [["callers", "shop.db.store", "--depth", "3"], "get_callers", {
    symbol: "shop.db.store",
    depth: 3,
  }],
  [["callees", "main.main", "--json"], "get_callees", { symbol: "main.main", format: "json" }],
  [
    ["deps", "--file", "shop/service.py", "--direction", "BOTH", "--relations", "IMPORTS,DEFINES"],
    "get_dependencies",
    {
      file: "shop/service.py",
      direction: "BOTH",
      relations: ["IMPORTS", "DEFINES"],
    },
  ],
  [["impact", "shop.db.connect", "--depth", "20"], "impact_analysis", {
    symbol: "shop.db.connect",
    depth: 20,
  }],
  [["path", "main.py", "shop.models.User.display_name", "--max-depth", "5"], "find_path", {
    from: "main.py",
    to: "shop.models.User.display_name",
    max_depth: 5,
  }],
  [["search", "user", "--kind", "Class", "--limit", "3"], "search_code", {
    query: "user",
    kind: "Class",
    limit: 3,
  }],
  [["symbol", "register"], "find_symbol", { name: "register" }],
  [["refs", "User"], "find_references", { symbol: "User" }],
  [["context", "shop.models.User.save"], "get_context", { symbol: "shop.models.User.save" }],
  [["cycles", "--relation", "IMPORTS"], "detect_circular", { relation: "IMPORTS" }],
  [["stats", "--json"], "get_stats", { format: "json" }],
];

Deno.test({ name: "cli twins print exactly the MCP tools' text", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("t-parity");
  await indexAs(db, PY, project);
  const env = { FALKORDB_URL: dbUrl(db) };
  const where = ["-C", PY, "--project", project, "--branch", "test"];
  const mcp = await connectMcp([PY, "--project", project, "--branch", "test"], childEnv(env));
  try {
    for (const [argv, tool, args] of CASES) {
      const viaMcp = await mcp.client.callTool({ name: tool, arguments: args });
      assert(!viaMcp.isError, `${tool}: ${textOf(viaMcp)}`);
      const viaCli = await runCgraph([...argv, ...where], env);
      assertEquals(viaCli.code, 0, `cgraph ${argv.join(" ")}: ${viaCli.stderr}`);
      assertEquals(viaCli.stdout, textOf(viaMcp) + "\n", `cgraph ${argv.join(" ")}`);
    }
    // Errors: the same message; on stderr, with exit code 1.
    const viaMcp = await mcp.client.callTool({
      name: "find_symbol",
      arguments: { name: "regster" },
    });
    assert(viaMcp.isError);
    const viaCli = await runCgraph(["symbol", "regster", ...where], env);
    assertEquals(viaCli.code, 1);
    assertEquals(viaCli.stdout, "");
    assertEquals(viaCli.stderr, `cgraph symbol: ${textOf(viaMcp)}\n`);
  } finally {
    await mcp.close();
    await dropProject(db, project);
  }
});

Deno.test({ name: "cli twins: help, missing and bad arguments", ...opts }, async () => {
  const db = await testDb();
  const env = { FALKORDB_URL: dbUrl(db) };
  const help = await runCgraph(["callers", "--help"], env);
  assertEquals(help.code, 0);
  assert(
    help.stdout.startsWith("Usage: cgraph callers <symbol> [--file X] [--depth X]"),
    help.stdout,
  );
  assert(help.stdout.includes("(MCP tool: get_callers)"));
  const missing = await runCgraph(["path", "main.main"], env);
  assertEquals(missing.code, 1);
  assert(missing.stderr.includes("Missing to."), missing.stderr);
  const extra = await runCgraph(["symbol", "a", "b"], env);
  assertEquals(extra.code, 1);
  assert(extra.stderr.includes("Unexpected argument 'b'"), extra.stderr);
  const bad = await runCgraph(["impact", "x", "--direction", "SIDEWAYS", "-C", PY], env);
  assertEquals(bad.code, 1);
  assert(bad.stderr.includes("Invalid arguments for impact_analysis: direction"), bad.stderr);
});
