/**
 * ask, query_graph and get_schema through `cgraph mcp` (a real subprocess driven by the SDK's
 * Client) and through the CLI twins, with the model played by a local OpenAI-compatible server
 * (LLM_BASE_URL) or by the MCP client itself (sampling/createMessage, no key set), and with no
 * model at all. The graph is checked unchanged after hostile model output.
 */
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import type { Db } from "../src/db/client.ts";
import { keysFor } from "../src/project/names.ts";
import { runCgraph, testDb } from "./helpers/db.ts";
import { cypherReply, type FakeLlm, fakeLlm, wantsCypher } from "./helpers/fake_llm.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, MCP_ARGS, ROOT, textOf } from "./helpers/mcp.ts";

const PY = join(ROOT, "fixtures/python");
const opts = { sanitizeOps: false, sanitizeResources: false };
type Json = Record<string, unknown>;

/** No model from the machine's own environment leaks into a child. */
const NO_MODEL = { MODEL_NAME: "", LLM_API_KEY: "", LLM_BASE_URL: "" };

const STORE_CALLERS =
  "MATCH (caller:Symbol)-[c:CALLS]->(s:Symbol {qualified_name: 'shop.db.store'})\n" +
  "RETURN caller.qualified_name AS caller, caller.path AS path, c.line AS line ORDER BY caller";
const CANNED = "shop.db.store is called from shop/models.py:16 and shop/service.py:19.";

/** Question -> the Cypher the fake model writes for it. */
const SCRIPT: Record<string, string> = {
  "Who calls store?": STORE_CALLERS,
  "Delete everything": "MATCH (n) DETACH DELETE n",
  "Add a file": "CREATE (:File {path: 'evil.py'}) RETURN 1",
  "Rename things": "MATCH (s:Symbol) SET s.name = 'x' RETURN count(s)",
  "Drop the index": "CALL db.idx.fulltext.drop('Symbol')",
  "Two at once": "MATCH (n) RETURN count(n); MATCH (n) DETACH DELETE n",
};

function scriptedModel(): FakeLlm {
  return fakeLlm((req) => {
    if (!wantsCypher(req)) return CANNED;
    const q = req.messages.find((m) => m.role === "user")!.content.replace(/^Question: /, "");
    return cypherReply(SCRIPT[q] ?? "MATCH (f:File) RETURN f.path AS path");
  });
}

async function fingerprint(db: Db, graph: string): Promise<string> {
  const ro = { readOnly: true };
  const q = (c: string) => db.query(graph, c, {}, ro).then((r) => JSON.stringify(r));
  return [
    await q("MATCH (n) RETURN count(n) AS n"),
    await q("MATCH ()-[e]->() RETURN count(e) AS n"),
    await q("MATCH (s:Symbol) RETURN s.name AS n ORDER BY s.id"),
    await q("CALL db.indexes() YIELD label, properties RETURN label, properties ORDER BY label"),
  ].join("\n");
}

Deno.test(
  { name: "mcp: ask with a server-side model, query_graph, get_schema", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-askmcp");
    await indexAs(db, PY, project);
    const graph = keysFor(project, "test").graph;
    const fake = scriptedModel();
    const mcp = await connectMcp(
      [PY, "--project", project, "--branch", "test"],
      childEnv({
        FALKORDB_URL: dbUrl(db),
        MODEL_NAME: "openai/fake-model",
        LLM_API_KEY: "test-key",
        LLM_BASE_URL: fake.url,
        CGRAPH_QUERY_TIMEOUT_MS: "200",
      }),
    );
    const call = (name: string, args: Json) => mcp.client.callTool({ name, arguments: args });
    try {
      const before = await fingerprint(db, graph);
      const r = await call("ask", { question: "Who calls store?" });
      assert(!r.isError, textOf(r));
      const lines = textOf(r).split("\n");
      assertEquals(lines[0], CANNED);
      assertEquals(lines[1], "--- cypher (2 rows; 1 attempt; openai/fake-model) ---");
      assertEquals(lines.slice(2, 5), [...STORE_CALLERS.split("\n"), "LIMIT 100"]);
      assertEquals(lines.slice(5), [
        "--- context (2) ---",
        "shop/models.py:16 | shop.models.User.save | symbol",
        "shop/service.py:19 | shop.service.UserService._audit | symbol",
      ]);
      const json = await call("ask", { question: "Who calls store?", format: "json" });
      const data = json.structuredContent as Json;
      assertEquals(data, JSON.parse(textOf(json)));
      assertEquals(data.cypher_query, `${STORE_CALLERS}\nLIMIT 100`);
      assertEquals(data.attempts, 1);
      assertEquals(data.answer, CANNED);
      assertEquals((data.context_nodes as Json[]).map((c) => c.qualified_name), [
        "shop.models.User.save",
        "shop.service.UserService._audit",
      ]);
      // The returned Cypher runs as it is through query_graph.
      const rerun = await call("query_graph", { cypher: data.cypher_query });
      assertEquals(textOf(rerun).split("\n").slice(1), [
        "shop.models.User.save | shop/models.py | 16",
        "shop.service.UserService._audit | shop/service.py | 19",
      ]);

      for (const question of Object.keys(SCRIPT).slice(1)) {
        const bad = await call("ask", { question });
        assert(bad.isError, `${question}: ${textOf(bad)}`);
        assert(textOf(bad).includes("Refused: "), textOf(bad));
      }

      // query_graph: reads, writes refused, row cap, timeout.
      const read = await call("query_graph", {
        cypher: "MATCH (f:File)-[:IMPORTS]->(g:File {path: $p}) RETURN f.path AS importer " +
          "ORDER BY importer",
        params: { p: "shop/db.py" },
      });
      assertEquals(textOf(read).split("\n"), [
        "query_graph: 3 rows; columns: importer; LIMIT 200 added",
        "main.py",
        "shop/models.py",
        "shop/service.py",
      ]);
      for (
        const cypher of [
          "MATCH (n) DETACH DELETE n",
          "CREATE (:File {path: 'x'})",
          "MATCH (s:Symbol) SET s.doc = ''",
          "CALL db.idx.fulltext.drop('Symbol')",
          "RETURN 1; MATCH (n) DELETE n",
        ]
      ) {
        const w = await call("query_graph", { cypher });
        assert(w.isError, cypher);
        assert(textOf(w).startsWith("Refused: "), textOf(w));
      }
      const capped = await call("query_graph", { cypher: "MATCH (s:Symbol) RETURN s", limit: 4 });
      assert(!capped.isError, textOf(capped));
      assert(textOf(capped).split("\n")[0].includes("row cap 4 reached"), textOf(capped));
      assertEquals(textOf(capped).split("\n").length, 5);
      const slow = await call("query_graph", {
        cypher: "UNWIND range(1, 10000) AS x UNWIND range(1, 10000) AS y RETURN count(*) AS n",
      });
      assert(slow.isError);
      assert(textOf(slow).includes("Query exceeded 200 ms"), textOf(slow));

      const schema = await call("get_schema", {});
      assert(textOf(schema).startsWith(`schema of ${project}:test: 28 nodes, 54 edges`));

      assertEquals(await fingerprint(db, graph), before, "the graph is unchanged");
      assertEquals(mcp.errors, []);
    } finally {
      await mcp.close();
      await fake.close();
      await dropProject(db, project);
    }
  },
);

Deno.test({ name: "mcp: ask through the client's sampling, no key set", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("t-asksample");
  await indexAs(db, PY, project);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [...MCP_ARGS, PY, "--project", project, "--branch", "test"],
    cwd: ROOT,
    env: childEnv({ FALKORDB_URL: dbUrl(db), ...NO_MODEL }),
    stderr: "pipe",
  });
  const client = new Client(
    { name: "sampling-client", version: "1.0.0" },
    { capabilities: { sampling: {} } },
  );
  const asked: { system: string; messages: string[]; maxTokens: number }[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (req) => {
    const p = req.params;
    const messages = p.messages.map((m) => {
      const c = m.content as { type: string; text?: string };
      return c.text ?? "";
    });
    asked.push({ system: p.systemPrompt ?? "", messages, maxTokens: p.maxTokens });
    const cypher = (p.systemPrompt ?? "").includes("openCypher");
    return Promise.resolve({
      role: "assistant" as const,
      model: "client-model",
      stopReason: "endTurn",
      content: {
        type: "text" as const,
        text: cypher
          ? cypherReply("MATCH (a:Class)-[:EXTENDS]->(b:Class) RETURN a, b")
          : "shop.models.Admin extends shop.models.User (shop/models.py:19).",
      },
    });
  });
  await client.connect(transport);
  try {
    const r = await client.callTool({
      name: "ask",
      arguments: { question: "Which classes extend another?", format: "json" },
    });
    assert(!r.isError, textOf(r));
    const data = r.structuredContent as Json;
    assertEquals(data.answer, "shop.models.Admin extends shop.models.User (shop/models.py:19).");
    assertEquals(data.model, "the MCP client's model (sampling)");
    assertEquals(data.cypher_query, "MATCH (a:Class)-[:EXTENDS]->(b:Class) RETURN a, b\nLIMIT 100");
    assertEquals(data.context_nodes, [
      { path: "shop/models.py", line: 19, qualified_name: "shop.models.Admin", kind: "Class" },
      { path: "shop/models.py", line: 5, qualified_name: "shop.models.User", kind: "Class" },
    ]);
    assertEquals(asked.length, 2);
    assert(asked[0].system.includes("(:File)-[:IMPORTS]->(:File)"), "the ontology went along");
    assertEquals(asked[0].messages, ["Question: Which classes extend another?"]);
    assert(asked[1].messages[0].includes("shop.models.Admin (class, shop/models.py:19)"));
    assert(asked[0].maxTokens > 0);
  } finally {
    await client.close();
    await dropProject(db, project);
  }
});

Deno.test({ name: "mcp: no model and no sampling is a clear error", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("t-asknone");
  await indexAs(db, PY, project);
  const mcp = await connectMcp(
    [PY, "--project", project, "--branch", "test"],
    childEnv({ FALKORDB_URL: dbUrl(db), ...NO_MODEL }),
  );
  try {
    const r = await mcp.client.callTool({ name: "ask", arguments: { question: "Who calls?" } });
    assert(r.isError);
    const text = textOf(r);
    assert(text.startsWith("ask needs a language model and has none."), text);
    for (const piece of ["MODEL_NAME", "LLM_API_KEY", "ollama/", "sampling", "get_schema"]) {
      assert(text.includes(piece), `${piece} in ${text}`);
    }
    // The key-less path works.
    const q = await mcp.client.callTool({
      name: "query_graph",
      arguments: { cypher: "MATCH (c:Class) RETURN count(c) AS classes" },
    });
    assertEquals(textOf(q).split("\n")[1], "4");
  } finally {
    await mcp.close();
    await dropProject(db, project);
  }
});

Deno.test(
  { name: "cli: cgraph ask, cypher and schema print the tools' text", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-askcli");
    await indexAs(db, PY, project);
    const graph = keysFor(project, "test").graph;
    const fake = scriptedModel();
    const env = {
      FALKORDB_URL: dbUrl(db),
      MODEL_NAME: "openai/fake-model",
      LLM_API_KEY: "k",
      LLM_BASE_URL: fake.url,
    };
    const where = ["-C", PY, "--project", project, "--branch", "test"];
    const mcp = await connectMcp([PY, "--project", project, "--branch", "test"], childEnv(env));
    try {
      const before = await fingerprint(db, graph);
      const cli = await runCgraph(["ask", "Who", "calls", "store?", ...where], env);
      assertEquals(cli.code, 0, cli.stderr);
      const tool = await mcp.client.callTool({
        name: "ask",
        arguments: { question: "Who calls store?" },
      });
      assertEquals(cli.stdout, `${textOf(tool)}\n`);
      assert(cli.stdout.startsWith(`${CANNED}\n--- cypher (2 rows; 1 attempt; openai/fake-model)`));
      assertEquals(
        fake.requests.filter(wantsCypher).map((r) => r.messages.at(-1)!.content),
        ["Question: Who calls store?", "Question: Who calls store?"],
      );

      const q = "MATCH (s:Symbol {name: $n}) RETURN s.path AS path, s.line AS line ORDER BY path";
      const cypher = await runCgraph(["cypher", q, "--params", '{"n": "store"}', ...where], env);
      assertEquals(cypher.code, 0, cypher.stderr);
      assertEquals(cypher.stdout.split("\n"), [
        "query_graph: 2 rows; columns: path | line; LIMIT 200 added",
        "shop/db.py | 13",
        "shop/decoy.py | 4",
        "",
      ]);
      const write = await runCgraph(["cypher", "MATCH (n) DETACH DELETE n", ...where], env);
      assertEquals(write.code, 1);
      assert(write.stderr.includes("Refused: DETACH DELETE writes to the graph."), write.stderr);

      const schema = await runCgraph(["schema", "--json", ...where], env);
      assertEquals(schema.code, 0, schema.stderr);
      const s = JSON.parse(schema.stdout) as Json;
      assertEquals(s.type, "schema");
      assertEquals(s.nodes, 28);

      const none = await runCgraph(["ask", "Who calls store?", ...where], {
        FALKORDB_URL: dbUrl(db),
        ...NO_MODEL,
      });
      assertEquals(none.code, 1);
      assert(none.stderr.includes("ask needs a language model and has none."), none.stderr);
      assertEquals(none.stdout, "");
      assertEquals(await fingerprint(db, graph), before);
    } finally {
      await mcp.close();
      await fake.close();
      await dropProject(db, project);
    }
  },
);
