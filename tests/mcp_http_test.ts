/**
 * `cgraph mcp --http` as a real subprocess, driven by the MCP SDK's Streamable HTTP client:
 * concurrent sessions calling tools on one server (sharing one auto-index), bearer tokens (wrong
 * and missing ones refused with 401), Origin checks against DNS rebinding (403; loopback and
 * allow-listed origins pass), the Host check on a loopback bind, a non-loopback bind without a
 * token refused, session errors, idle sessions closed, and a clean exit on SIGTERM with clients
 * connected.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { bearerMatches } from "../src/mcp/http.ts";
import { isLoopbackHost, originAllowed } from "../src/origin.ts";
import { testDb } from "./helpers/db.ts";
import { indexProject } from "../src/index/indexer.ts";
import { resolveProject } from "../src/project/identity.ts";
import { dropProject, uniqueName } from "./helpers/graph.ts";
import { childEnv, dbUrl, MCP_ARGS, ROOT, textOf } from "./helpers/mcp.ts";

const PY = join(ROOT, "fixtures/python");
const opts = { sanitizeOps: false, sanitizeResources: false };
const TOKEN = "test-token-0123456789abcdef";

interface HttpServer {
  url: URL;
  port: number;
  child: Deno.ChildProcess;
  stderr(): string;
  /** SIGTERM, then the exit status. */
  stop(): Promise<Deno.CommandStatus>;
}

/** Starts `cgraph mcp --http --port 0 <args>` and waits for its listening line. */
async function startServer(args: string[], env: Record<string, string>): Promise<HttpServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...MCP_ARGS, "--http", "--port", "0", ...args],
    cwd: ROOT,
    env: { CGRAPH_TOKEN: "", ...env, CGRAPH_LOG: "info" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let port = 0;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`server ended before listening:\n${text}`);
    }
    text += value;
    const m = /serving Streamable HTTP on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(text);
    if (m) port = Number(m[1]);
  }
  // Keep draining stderr so the child never blocks on a full pipe.
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  })();
  child.stdout.cancel();
  let status: Promise<Deno.CommandStatus> | undefined;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    child,
    stderr: () => text,
    stop() {
      if (!status) {
        try {
          child.kill("SIGTERM");
        } catch {
          // already gone
        }
        status = child.status;
      }
      return status;
    },
  };
}

async function connect(url: URL, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: "cgraph-http-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** The HTTP status an SDK client saw when connecting failed (undefined: it connected). */
async function connectStatus(
  url: URL,
  headers: Record<string, string>,
): Promise<number | undefined> {
  try {
    const { client } = await connect(url, headers);
    await client.close();
    return undefined;
  } catch (err) {
    assert(err instanceof StreamableHTTPError, `a StreamableHTTPError, got ${err}`);
    return err.code;
  }
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** One raw HTTP/1.1 request with a Host header of our choosing; the status code. */
async function statusWithHost(port: number, host: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const body = JSON.stringify(INIT);
  const req = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n` +
    `Connection: close\r\n\r\n${body}`;
  await conn.write(new TextEncoder().encode(req));
  const buf = new Uint8Array(64);
  const n = await conn.read(buf);
  conn.close();
  const line = new TextDecoder().decode(buf.subarray(0, n ?? 0));
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(line)?.[1]);
}

Deno.test("mcp http: loopback, origin and token checks (units)", () => {
  for (const h of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "app.localhost"]) {
    assert(isLoopbackHost(h), h);
  }
  for (const h of ["0.0.0.0", "::", "10.0.0.1", "example.com", "localhost.example.com"]) {
    assert(!isLoopbackHost(h), h);
  }
  assert(originAllowed("http://localhost:5173"));
  assert(originAllowed("https://127.0.0.1"));
  assert(originAllowed("http://[::1]:8080"));
  assert(!originAllowed("http://evil.example"));
  assert(!originAllowed("http://localhost.evil.example"));
  assert(!originAllowed("null"));
  assert(!originAllowed("file://"));
  assert(originAllowed("https://tools.example.com", ["https://tools.example.com/"]));
  assert(!originAllowed("https://tools.example.com:8443", ["https://tools.example.com"]));
  assert(originAllowed("https://anything.example", ["*"]));
  assert(bearerMatches(`Bearer ${TOKEN}`, TOKEN));
  assert(bearerMatches(`bearer   ${TOKEN} `, TOKEN));
  assert(!bearerMatches(`Bearer ${TOKEN}x`, TOKEN));
  assert(!bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN));
  assert(!bearerMatches(TOKEN, TOKEN));
  assert(!bearerMatches(null, TOKEN));
});

Deno.test({
  name: "mcp http: concurrent sessions call tools on one server, sharing one index",
  ...opts,
}, async () => {
  const db = await testDb();
  const project = uniqueName("t-http");
  const server = await startServer(
    [PY, "--project", project, "--branch", "test"],
    childEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_TOKEN: TOKEN }),
  );
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const clients: Awaited<ReturnType<typeof connect>>[] = [];
  try {
    for (let i = 0; i < 6; i++) clients.push(await connect(server.url, auth));
    const ids = new Set(clients.map((c) => c.transport.sessionId));
    assertEquals(ids.size, 6, "one session per client");

    // Not indexed yet: every client asks at once; the server indexes once and all get answers.
    const answers = await Promise.all(clients.map(async ({ client }, i) => {
      const tools = await client.listTools();
      assert(tools.tools.some((t) => t.name === "get_callers"));
      const r = await client.callTool({
        name: i % 2 ? "get_callers" : "find_symbol",
        arguments: i % 2 ? { symbol: "shop.db.store" } : { name: "register" },
      });
      assert(!r.isError, textOf(r));
      return textOf(r);
    }));
    for (const [i, text] of answers.entries()) {
      if (i % 2) {
        // Qualified names, or their tails where the path already says the module.
        const names = text.split("\n").slice(1).map((l) => l.split(" | ")[1]).sort();
        assertEquals(names.length, 2, text);
        assert(names[0].endsWith("User.save") && names[1].endsWith("UserService._audit"), text);
      } else {
        assertEquals(text.split("\n")[0].split(";")[0], "register: 2 definitions");
      }
    }
    const noted = answers.filter((t) => t.split("\n")[0].includes("indexed now")).length;
    assert(noted >= 1, "the first calls report the automatic index");

    const stats = await clients[0].client.callTool({ name: "get_stats", arguments: {} });
    assert(textOf(stats).includes("7 files, 21 symbols"), textOf(stats));
    const list = await clients[1].client.callTool({ name: "list_projects", arguments: {} });
    // Indexed exactly once for all six sessions: one graph, the fixture's seven files.
    assert(textOf(list).includes(`${project} | test | 7 files`), textOf(list));

    // A session the client ended is gone for good; the others keep working.
    const gone = clients.shift()!;
    const goneId = gone.transport.sessionId!;
    await gone.transport.terminateSession();
    await gone.client.close();
    const r = await post(server.url, { jsonrpc: "2.0", id: 9, method: "tools/list" }, {
      ...auth,
      "mcp-session-id": goneId,
      "mcp-protocol-version": "2025-06-18",
    });
    assertEquals(r.status, 404);
    await r.body?.cancel();
    const again = await clients[0].client.callTool({ name: "get_stats", arguments: {} });
    assert(!again.isError, textOf(again));
  } finally {
    for (const c of clients) await c.client.close().catch(() => {});
    const status = await server.stop();
    assertEquals(status.code, 0, server.stderr());
    await dropProject(db, project);
  }
});

Deno.test({
  name: "mcp http: a path argument is limited to the server's roots and its catalogue",
  ...opts,
}, async () => {
  const db = await testDb();
  const project = uniqueName("t-roots");
  const root = await Deno.makeTempDir({ prefix: "cgraph-root-" });
  const outside = await Deno.makeTempDir({ prefix: "cgraph-outside-" });
  const inRoot = join(root, "svc");
  await Deno.mkdir(inRoot);
  await Deno.writeTextFile(join(inRoot, "a.py"), "def a():\n    return 1\n");
  await Deno.writeTextFile(join(outside, "b.py"), "def b():\n    return 2\n");
  await Deno.symlink("/etc", join(root, "etc-link"));
  const known = uniqueName("t-known");
  // Indexed before (by the CLI, another server): in the catalogue, so named by path it is served.
  await indexProject(db, await resolveProject(outside, { project: known }));
  const server = await startServer(
    [PY, "--project", project, "--branch", "test", "--root", root],
    childEnv({ FALKORDB_URL: dbUrl(db) }),
  );
  const { client } = await connect(server.url);
  try {
    const graphs = (await db.listGraphs()).length;
    for (
      const path of ["/etc", "../../../../../../etc", join(root, "etc-link"), join(root, "..")]
    ) {
      const r = await client.callTool({ name: "get_stats", arguments: { path } });
      assert(r.isError, `${path}: ${textOf(r)}`);
      assert(/is outside the roots this server serves/.test(textOf(r)), textOf(r));
      assert(textOf(r).includes(root), textOf(r));
    }
    const listed = await client.callTool({ name: "index_repo", arguments: { path: "/tmp" } });
    assert(listed.isError, textOf(listed));
    assertEquals((await db.listGraphs()).length, graphs, "no graph was built for a refused path");
    // Inside a root, the default project, and a project in the catalogue: answered.
    const inside = await client.callTool({
      name: "get_stats",
      arguments: { path: inRoot, project: project + "-in" },
    });
    assert(!inside.isError, textOf(inside));
    assert(/1 files?/.test(textOf(inside)), textOf(inside));
    const def = await client.callTool({ name: "get_stats", arguments: { path: PY } });
    assert(!def.isError, textOf(def));
    const cat = await client.callTool({
      name: "get_stats",
      arguments: { path: outside, project: known },
    });
    assert(!cat.isError, textOf(cat));
  } finally {
    await client.close().catch(() => {});
    const status = await server.stop();
    assertEquals(status.code, 0, server.stderr());
    await dropProject(db, project);
    await dropProject(db, project + "-in");
    await dropProject(db, known);
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test({ name: "mcp http: wrong or missing token is refused with 401", ...opts }, async () => {
  const db = await testDb();
  const server = await startServer(
    [PY, "--project", uniqueName("t-http-auth")],
    childEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_TOKEN: TOKEN }),
  );
  try {
    assertEquals(await connectStatus(server.url, {}), 401);
    assertEquals(await connectStatus(server.url, { Authorization: "Bearer wrong-token" }), 401);
    assertEquals(await connectStatus(server.url, { Authorization: TOKEN }), 401);
    assertEquals(await connectStatus(server.url, { Authorization: `Bearer ${TOKEN}` }), undefined);
    const raw = await post(server.url, INIT, { Authorization: "Bearer nope" });
    assertEquals(raw.status, 401);
    assertEquals(raw.headers.get("www-authenticate"), 'Bearer realm="cgraph"');
    await raw.body?.cancel();
    // With a token, the Host check gives way (a reverse proxy's name): the token decides.
    assertEquals(await statusWithHost(server.port, "cgraph.example.com"), 401);
    // The health check needs no token and tells nothing.
    const health = await fetch(new URL("/health", server.url));
    assertEquals([health.status, await health.text()], [200, "ok\n"]);
  } finally {
    assertEquals((await server.stop()).code, 0);
  }
});

Deno.test({ name: "mcp http: a foreign Origin or Host is refused with 403", ...opts }, async () => {
  const db = await testDb();
  const server = await startServer(
    [PY, "--project", uniqueName("t-http-origin"), "--allow-origin", "https://ide.example.com"],
    childEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_ALLOWED_HOSTS: "proxy.example.com" }),
  );
  try {
    assertEquals(await connectStatus(server.url, { Origin: "http://evil.example" }), 403);
    assertEquals(await connectStatus(server.url, { Origin: "null" }), 403);
    assertEquals(await connectStatus(server.url, { Origin: "http://localhost.evil.example" }), 403);
    // No Origin (agents, CLIs), loopback origins and the allow-listed one pass.
    assertEquals(await connectStatus(server.url, {}), undefined);
    assertEquals(await connectStatus(server.url, { Origin: "http://localhost:5173" }), undefined);
    assertEquals(await connectStatus(server.url, { Origin: "https://ide.example.com" }), undefined);
    // DNS rebinding: a loopback server reached under a foreign name.
    assertEquals(await statusWithHost(server.port, "evil.example:80"), 403);
    assertEquals(await statusWithHost(server.port, `localhost:${server.port}`), 200);
    assertEquals(await statusWithHost(server.port, "proxy.example.com"), 200);
  } finally {
    assertEquals((await server.stop()).code, 0);
  }
});

Deno.test(
  { name: "mcp http: a non-loopback bind without a token is refused", ...opts },
  async () => {
    const cases: Record<string, string>[] = [{}, { MCP_TRANSPORT: "http", MCP_HOST: "::" }];
    for (const env of cases) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [...MCP_ARGS, ...("MCP_TRANSPORT" in env ? [] : ["--http", "--host", "0.0.0.0"])],
        cwd: ROOT,
        env: { ...childEnv(env), CGRAPH_TOKEN: "" },
        stdin: "null",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 1, stderr);
      assert.match(stderr, /refusing to serve MCP over HTTP on (0\.0\.0\.0|::) without a token/);
      assert.match(stderr, /CGRAPH_TOKEN/);
      assertEquals(new TextDecoder().decode(out.stdout), "");
    }
  },
);

Deno.test({ name: "mcp http: session errors, idle sessions closed", ...opts }, async () => {
  const db = await testDb();
  const server = await startServer(
    [PY, "--project", uniqueName("t-http-idle")],
    childEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_HTTP_IDLE_MS: "1000" }),
  );
  try {
    // A request that is no initialize and names no session; an unknown session.
    const noSession = await post(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assertEquals(noSession.status, 400);
    await noSession.body?.cancel();
    const unknown = await post(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, {
      "mcp-session-id": crypto.randomUUID(),
    });
    assertEquals(unknown.status, 404);
    await unknown.body?.cancel();
    const wrongPath = await fetch(new URL("/other", server.url));
    assertEquals(wrongPath.status, 404);
    await wrongPath.body?.cancel();

    const { client, transport } = await connect(server.url);
    await client.listTools();
    const id = transport.sessionId!;
    // Idle for several times CGRAPH_HTTP_IDLE_MS: the server has closed the session.
    await new Promise((r) => setTimeout(r, 4000));
    const r = await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" }, {
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-06-18",
    });
    const status = r.status;
    await r.body?.cancel();
    assertEquals(status, 404);
    await client.close().catch(() => {});
  } finally {
    assertEquals((await server.stop()).code, 0);
  }
});

Deno.test({ name: "mcp http: SIGTERM with clients connected exits cleanly", ...opts }, async () => {
  const db = await testDb();
  const server = await startServer(
    [PY, "--project", uniqueName("t-http-term")],
    childEnv({ FALKORDB_URL: dbUrl(db) }),
  );
  const a = await connect(server.url);
  const b = await connect(server.url);
  await a.client.listTools();
  // b holds the standalone SSE stream open (the SDK opens it after initialization).
  await b.client.listTools();
  const status = await server.stop();
  assertEquals(status.code, 0, server.stderr());
  assert.match(server.stderr(), /shutting down \(signal\); closing 2 session\(s\)/);
  await assert.rejects(() => a.client.listTools());
  await a.client.close().catch(() => {});
  await b.client.close().catch(() => {});
});
