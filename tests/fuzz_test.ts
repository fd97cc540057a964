/**
 * Every tool, called over MCP stdio with arguments generated from its own listed input schema:
 * each required argument left out, each argument given every wrong JSON type, and each string
 * argument given empty, huge, control-character, bidi, lone-surrogate and injection text. Invalid
 * input must get a clear `isError` answer (short, no raw database or stack text); valid but odd
 * text may get an answer or a clear error. Afterwards the server still answers, no protocol error
 * was seen, and the code graph is exactly what it was.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { projectKeys } from "../src/project/names.ts";
import { keysFor } from "../src/project/names.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, ROOT, textOf } from "./helpers/mcp.ts";

const PY = join(ROOT, "fixtures/python");
const opts = { sanitizeOps: false, sanitizeResources: false };

interface PropSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropSchema;
  anyOf?: PropSchema[];
}

/** A valid value for a required argument, so the other arguments can be fuzzed one at a time. */
const VALID: Record<string, unknown> = {
  symbol: "shop.db.store",
  name: "store",
  query: "store",
  from: "shop.models.User.save",
  to: "shop.db.store",
  cypher: "MATCH (n:Symbol) RETURN count(n) AS n",
  question: "which functions call store?",
  text: "a fuzz note",
  note_id: "n-0000000000",
  file: "shop/db.py",
};

/** Strings no argument accepts: control characters, or past every length cap. */
const INVALID_STRINGS = ["a\u0000b", "x\u0007y", "line\u001bz", "y".repeat(100_000)];

/** Odd but well-formed text: an answer or a clear error, never a crash. */
const ODD_STRINGS = [
  "",
  " ",
  "\u202Eevil\u202C",
  "\ud800",
  "🦀🐍".repeat(10),
  "' OR 1=1 //",
  "x}) MATCH (n) DETACH DELETE n //",
  "$(rm -rf /) `id`",
  "../../../../etc/passwd",
  "%00%0a",
  "a".repeat(900),
];

function types(p: PropSchema): string[] {
  if (p.anyOf) return p.anyOf.flatMap(types);
  if (p.enum) return ["enum"];
  return Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
}

/** Values of every JSON type the argument does not take. */
function wrongTypes(p: PropSchema): unknown[] {
  const t = types(p);
  const all: [string, unknown][] = [
    ["string", "not-a-number"],
    ["number", 12345],
    ["boolean", true],
    ["object", { a: 1 }],
    ["array", ["x", 1]],
    ["null", null],
  ];
  const out = all.filter(([k]) =>
    !t.includes(k) && !(k === "number" && t.includes("integer")) &&
    !(k === "string" && t.includes("enum"))
  ).map(([, v]) => v);
  if (t.includes("integer")) out.push(1.5, -1, 1e300);
  if (t.includes("enum")) out.push("not-one-of-them");
  if (t.includes("array")) out.push([{ nested: true }], [null]);
  return out;
}

function isClearError(text: string): boolean {
  return text.length > 0 && text.length < 3000 &&
    !/errMsg|errCtx|\bat .*\.(ts|js):\d+|TypeError|ReferenceError|undefined is not/.test(text);
}

Deno.test({
  name:
    "fuzz: every tool with arguments from its own schema: clear errors, server alive, graph unchanged",
  ...opts,
}, async () => {
  const db = await testDb();
  const project = uniqueName("t-fuzz");
  await indexAs(db, PY, project);
  const graph = keysFor(project, "test").graph;
  const before = await dumpGraph(db, graph);
  const mcp = await connectMcp(
    [PY, "--project", project, "--branch", "test"],
    childEnv({ FALKORDB_URL: dbUrl(db), CODE_GRAPH_AUTO_INDEX: "false" }),
  );
  let calls = 0;
  const failures: string[] = [];
  try {
    const { tools } = await mcp.client.listTools();
    assert(tools.length >= 20);
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, PropSchema>;
      const required = (tool.inputSchema.required ?? []) as string[];
      const base: Record<string, unknown> = {};
      for (const r of required) base[r] = VALID[r] ?? "x";
      const call = async (args: Record<string, unknown>, mustFail: boolean, what: string) => {
        calls++;
        let r;
        try {
          r = await mcp.client.callTool({ name: tool.name, arguments: args });
        } catch (err) {
          // The SDK refuses some arguments itself with a JSON-RPC error: still a clear refusal.
          const msg = err instanceof Error ? err.message : String(err);
          if (!mustFail || !isClearError(msg)) failures.push(`${tool.name} ${what}: threw ${msg}`);
          return;
        }
        const text = textOf(r);
        if (mustFail && !r.isError) {
          failures.push(`${tool.name} ${what}: answered ${text.slice(0, 200)}`);
        }
        if (r.isError && !isClearError(text)) {
          failures.push(`${tool.name} ${what}: unclear error ${text.slice(0, 300)}`);
        }
      };
      for (const r of required) {
        const args = { ...base };
        delete args[r];
        await call(args, true, `without ${r}`);
      }
      for (const [name, schema] of Object.entries(props)) {
        for (const v of wrongTypes(schema)) {
          await call({ ...base, [name]: v }, true, `${name}=${JSON.stringify(v).slice(0, 40)}`);
        }
        if (!types(schema).includes("string")) continue;
        for (const v of INVALID_STRINGS) {
          await call({ ...base, [name]: v }, true, `${name}=${JSON.stringify(v).slice(0, 40)}`);
        }
        if (name === "path") continue; // odd but valid paths would index whatever they name
        for (const v of ODD_STRINGS) {
          await call({ ...base, [name]: v }, false, `${name}=${JSON.stringify(v).slice(0, 40)}`);
        }
      }
    }
    assertEquals(failures, []);
    assert(calls > 500, `${calls} calls`);
    const alive = await mcp.client.callTool({ name: "get_stats", arguments: {} });
    assert(!alive.isError, textOf(alive));
    assertEquals(mcp.errors, []);
    assertEquals(await dumpGraph(db, graph), before);
  } finally {
    await mcp.close();
    await dropProject(db, project);
    await db.deleteGraph(projectKeys(project).memory);
    await db.command(["DEL", projectKeys(project).history]);
  }
});
