/**
 * `cgraph mcp` as a real subprocess, driven by the MCP SDK's own Client: tools/list (schemas,
 * annotations, description sizes), every tool against the Python fixture's contract, automatic
 * indexing with progress notifications, error answers, JSON / structuredContent, a stdout that
 * carries protocol only, and clean exits (stdin closed, SIGTERM, database down).
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { freePort } from "../src/db/proc.ts";
import { readContract } from "./helpers/contract.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, MCP_ARGS, ROOT, textOf } from "./helpers/mcp.ts";

const PY = join(ROOT, "fixtures/python");
const opts = { sanitizeOps: false, sanitizeResources: false };

const TOOL_NAMES = [
  "index_repo",
  "index_file",
  "get_callers",
  "get_callees",
  "get_dependencies",
  "impact_analysis",
  "find_path",
  "search_code",
  "find_symbol",
  "find_references",
  "get_context",
  "detect_circular",
  "diff_impact",
  "get_stats",
  "list_projects",
  "get_schema",
  "query_graph",
  "ask",
  "memory_linked_search",
  "recall",
  "remember",
  "forget",
];

/** Qualified names of the nodes a callers/callees JSON answer links to (text shows short names). */
function linkedNames(json: string): string[] {
  const data = JSON.parse(json) as { groups: { links: { node: { qualified_name: string } }[] }[] };
  return [...new Set(data.groups.flatMap((g) => g.links.map((l) => l.node.qualified_name)))].sort();
}

Deno.test({
  name: "mcp: tools/list has every tool, schemas, annotations, small descriptions",
  ...opts,
}, async () => {
  const db = await testDb();
  const mcp = await connectMcp(
    [PY, "--project", uniqueName("t-mcp-list")],
    childEnv({
      FALKORDB_URL: dbUrl(db),
    }),
  );
  try {
    const { tools } = await mcp.client.listTools();
    assertEquals(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    for (const t of tools) {
      assert(t.description, `${t.name} has a description`);
      const tokens = Math.ceil(t.description.length / 4);
      assert(tokens < 100, `${t.name}: description ~${tokens} tokens`);
      assertEquals(t.inputSchema.type, "object");
      for (const common of ["project", "branch", "path"]) {
        assert(t.inputSchema.properties?.[common], `${t.name} takes ${common}`);
      }
      // format (every tool's) is described once, in the server's instructions; no defaults listed.
      assert(!t.inputSchema.properties?.format, `${t.name}: format is not listed`);
      assert(!JSON.stringify(t.inputSchema).includes('"default"'), `${t.name}: no defaults`);
      const a = t.annotations;
      assert(a, `${t.name} has annotations`);
      const readOnly = !t.name.startsWith("index_") && !["remember", "forget"].includes(t.name);
      assertEquals(a.readOnlyHint ?? false, readOnly, `${t.name} readOnlyHint`);
      // The spec's destructive/idempotent hints mean something only for tools that write.
      if (!readOnly) {
        assertEquals(a.destructiveHint, t.name === "forget", `${t.name} destructiveHint`);
        assertEquals(a.idempotentHint, t.name !== "remember", `${t.name} idempotentHint`);
      }
      // Only ask reaches outside; closed read-only tools list readOnlyHint alone.
      assertEquals(a.openWorldHint === true, t.name === "ask", `${t.name} openWorldHint`);
    }
    // A rough ceiling; the 2,500-token budget (o200k) is token_budget_test's.
    const total = Math.ceil(JSON.stringify({ tools }).length / 4);
    assert(total < 3000, `tools/list is ~${total} tokens`);
    const callers = tools.find((t) => t.name === "get_callers")!;
    assertEquals(callers.inputSchema.required, ["symbol"]);
    assertEquals(mcp.errors, []);
  } finally {
    await mcp.close();
  }
});

Deno.test(
  { name: "mcp: every tool over stdio, checked against the contract", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-mcp");
    const contract = await readContract(PY);
    // Not indexed yet: the first call indexes it, with progress notifications.
    const mcp = await connectMcp(
      [PY, "--project", project, "--branch", "test"],
      childEnv({ FALKORDB_URL: dbUrl(db) }),
    );
    const call = (name: string, args: Record<string, unknown> = {}) =>
      mcp.client.callTool({ name, arguments: args });
    try {
      const progress: number[] = [];
      const first = await mcp.client.callTool(
        { name: "get_callers", arguments: { symbol: "shop.db.store" } },
        undefined,
        { onprogress: (p) => progress.push(p.progress) },
      );
      assert(!first.isError, textOf(first));
      assertEquals(
        textOf(first).split("\n")[0],
        "callers (depth 1) of shop.db.store (function, shop/db.py:13): 2 callers; indexed now (first use): 7 files",
      );
      assert(progress.length >= 1, "progress notifications while indexing");
      assertEquals(progress, [...progress].sort((a, b) => a - b));

      for (const [to, list] of Object.entries(contract.callers ?? {})) {
        const r = await call("get_callers", { symbol: to, limit: 500, format: "json" });
        assert(!r.isError, textOf(r));
        assertEquals(linkedNames(textOf(r)), [...list].sort(), `callers of ${to}`);
      }
      for (const [from, list] of Object.entries(contract.callees ?? {})) {
        const r = await call("get_callees", { symbol: from, limit: 500, format: "json" });
        assertEquals(linkedNames(textOf(r)), [...new Set(list)].sort(), `callees of ${from}`);
      }
      for (const p of contract.paths ?? []) {
        const r = await call("find_path", { from: p.from, to: p.to });
        const lines = textOf(r).split("\n");
        assertEquals(lines[1], `${p.path.length - 1} | ${p.path.join(" -> ")}`, textOf(r));
      }
      for (const [file, list] of Object.entries(contract.imports ?? {})) {
        const r = await call("get_dependencies", { file, relations: ["IMPORTS"], format: "json" });
        assertEquals(linkedNames(textOf(r)), [...list].sort(), `imports of ${file}`);
      }
      for (const [cls, list] of Object.entries(contract.extends ?? {})) {
        const r = await call("get_dependencies", {
          symbol: cls,
          relations: ["EXTENDS"],
          format: "json",
        });
        assertEquals(linkedNames(textOf(r)), [...list].sort(), `extends of ${cls}`);
      }

      // The rest of the tools, once each.
      const answers: Record<string, string> = {};
      const each: [string, Record<string, unknown>][] = [
        ["impact_analysis", { symbol: "shop.db.connect", depth: 2 }],
        ["search_code", { query: "user" }],
        ["find_symbol", { name: "register" }],
        ["find_references", { symbol: "shop.models.User" }],
        ["get_context", { symbol: "shop.models.User.save" }],
        ["detect_circular", { relation: "IMPORTS" }],
        ["get_stats", {}],
        ["list_projects", { project }],
        ["index_repo", {}],
        ["index_file", { file: "shop/db.py" }],
      ];
      for (const [name, args] of each) {
        const r = await call(name, args);
        assert(!r.isError, `${name}: ${textOf(r)}`);
        answers[name] = textOf(r);
      }
      assert(answers.impact_analysis.startsWith("impact (IN, depth 2) of shop.db.connect"));
      assert(answers.search_code.split("\n")[1].endsWith("| User | class | exact"));
      assertEquals(answers.find_symbol.split("\n")[0], "register: 2 definitions");
      assert(answers.find_references.includes("shop/models.py:19 | extends | Admin"));
      assert(answers.get_context.includes("--- callers (2) ---"));
      assertEquals(
        answers.detect_circular,
        "IMPORTS cycles: none; counted: imports that run when a file loads",
      );
      assert(answers.get_stats.includes("7 files, 21 symbols"), answers.get_stats);
      assert(answers.list_projects.includes(`${project} | test | 7 files`));
      assert(answers.index_repo.includes("| mode incremental |"), answers.index_repo);
      assert(answers.index_file.startsWith("index_file shop/db.py: unchanged"), answers.index_file);

      // JSON: the same data, also as structuredContent.
      const json = await call("get_callers", { symbol: "shop.db.store", format: "json" });
      assert(json.structuredContent, "structuredContent present");
      assertEquals(json.structuredContent, JSON.parse(textOf(json)));
      assertEquals((json.structuredContent as { type: string }).type, "callers");
      const text = await call("get_callers", { symbol: "shop.db.store" });
      assertEquals(text.structuredContent, undefined);

      // Errors: isError answers that say what to do.
      const typo = await call("find_symbol", { name: "regster" });
      assert(typo.isError);
      assert(textOf(typo).includes("did you mean: "), textOf(typo));
      const unknown = await call("get_stats", { project: `${project}-nope` });
      assert(unknown.isError);
      assert(textOf(unknown).includes(`Indexed: `), textOf(unknown));
      assert(textOf(unknown).includes(`${project} (test)`), textOf(unknown));
      const bad = await call("get_callers", { symbol: "main", depth: "deep" });
      assert(bad.isError);
      assert(textOf(bad).includes("depth"), textOf(bad));
      const clamped = await call("impact_analysis", { symbol: "main.main", depth: 99 });
      assert(!clamped.isError);
      assert(textOf(clamped).split("\n")[0].includes("depth 99 clamped to 10"), textOf(clamped));

      assertEquals(mcp.errors, [], "no transport errors (stdout carries protocol only)");
    } finally {
      await mcp.close();
      await dropProject(db, project);
    }
  },
);

/** Newline-delimited JSON-RPC over a raw child process, for stream-level checks. */
class RawServer {
  #buffer = "";
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  lines: string[] = [];

  constructor(readonly child: Deno.ChildProcess) {
    this.#reader = child.stdout.getReader();
    this.#writer = child.stdin.getWriter();
  }

  static spawn(args: string[], env: Record<string, string>): RawServer {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...MCP_ARGS, ...args],
      cwd: ROOT,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    return new RawServer(child);
  }

  async send(message: unknown): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Reads lines until the response with `id` (every line must be a JSON-RPC message). */
  async response(id: number): Promise<Record<string, unknown>> {
    while (true) {
      const nl = this.#buffer.indexOf("\n");
      if (nl >= 0) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        this.lines.push(line);
        const msg = JSON.parse(line);
        assertEquals(msg.jsonrpc, "2.0", `not JSON-RPC: ${line}`);
        if (msg.id === id) return msg;
        continue;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error(`stdout ended before response ${id}`);
      this.#buffer += new TextDecoder().decode(value);
    }
  }

  async initialize(): Promise<void> {
    await this.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    await this.response(1);
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  async closeStdin(): Promise<void> {
    await this.#writer.close();
  }

  /** The rest of stdout after the server ended. */
  async rest(): Promise<string> {
    let out = this.#buffer;
    while (true) {
      const { value, done } = await this.#reader.read();
      if (done) return out;
      out += new TextDecoder().decode(value);
    }
  }
}

async function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test(
  { name: "mcp: stdout is protocol only; the server exits when stdin closes", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-mcp-raw");
    await indexAs(db, PY, project);
    const server = RawServer.spawn(
      [PY, "--project", project, "--branch", "test"],
      childEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_LOG: "debug" }),
    );
    try {
      await server.initialize();
      await server.send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_stats", arguments: {} },
      });
      const r = await server.response(2);
      const result = r.result as { content: { text: string }[]; isError?: boolean };
      assert(!result.isError, result.content[0].text);
      assert(result.content[0].text.startsWith(`stats of ${project}:test: 7 files`));
      await server.closeStdin();
      const status = await within(10_000, server.child.status, "exit after stdin closed");
      assertEquals(status.code, 0);
      assertEquals(await server.rest(), "");
      for (const line of server.lines) assertEquals(JSON.parse(line).jsonrpc, "2.0");
    } finally {
      try {
        server.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await server.child.status;
      await dropProject(db, project);
    }
  },
);

Deno.test({ name: "mcp: SIGTERM ends the server cleanly", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("t-mcp-term");
  await indexAs(db, PY, project);
  const server = RawServer.spawn(
    [PY, "--project", project, "--branch", "test"],
    childEnv({ FALKORDB_URL: dbUrl(db) }),
  );
  try {
    await server.initialize();
    await server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "find_symbol", arguments: { name: "main" } },
    });
    await server.response(2);
    server.child.kill("SIGTERM");
    const status = await within(10_000, server.child.status, "exit after SIGTERM");
    assertEquals(status.code, 0);
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await server.child.status;
    await dropProject(db, project);
  }
});

Deno.test({ name: "mcp: database down gives an error answer, not a hang", ...opts }, async () => {
  const mcp = await connectMcp(
    [PY, "--project", uniqueName("t-mcp-down")],
    childEnv({
      FALKORDB_URL: `redis://127.0.0.1:${freePort()}`,
      CGRAPH_CONNECT_TIMEOUT_MS: "2000",
    }),
  );
  try {
    const started = performance.now();
    const r = await mcp.client.callTool({ name: "get_stats", arguments: {} });
    assert(r.isError);
    assert(textOf(r).includes("Cannot reach FalkorDB at 127.0.0.1:"), textOf(r));
    assert(performance.now() - started < 15_000);
    // Still serving: the next call answers (with the same error) too.
    const again = await mcp.client.callTool({ name: "list_projects", arguments: {} });
    assert(again.isError);
  } finally {
    await mcp.close();
  }
});

Deno.test({ name: "mcp: CODE_GRAPH_AUTO_INDEX=false asks for index_repo", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("t-mcp-noauto");
  const mcp = await connectMcp(
    [PY, "--project", project, "--branch", "test"],
    childEnv({ FALKORDB_URL: dbUrl(db), CODE_GRAPH_AUTO_INDEX: "false" }),
  );
  try {
    const r = await mcp.client.callTool({ name: "get_callers", arguments: { symbol: "main" } });
    assert(r.isError);
    assert(textOf(r).includes("Call index_repo"), textOf(r));
    const indexed = await mcp.client.callTool({ name: "index_repo", arguments: {} });
    assert(!indexed.isError, textOf(indexed));
    const after = await mcp.client.callTool({ name: "get_callers", arguments: { symbol: "main" } });
    assert(!after.isError, textOf(after));
  } finally {
    await mcp.close();
    await dropProject(db, project);
  }
});
