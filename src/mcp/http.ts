/**
 * `cgraph mcp --http`: the MCP server over Streamable HTTP, for a server shared by a team or run
 * in a container. One endpoint, `/mcp`; stateful sessions (an `Mcp-Session-Id` per client), each
 * with its own MCP server instance, all sharing one Session (one database connection, one
 * indexing queue). `/health` answers `ok` without authentication, for container health checks.
 *
 * Guards, in order, on every `/mcp` request:
 *   - Origin (DNS rebinding): a request with an Origin header is refused (403) unless that origin
 *     is loopback (`http(s)://localhost|127.x.x.x|[::1]`, any port) or listed in
 *     `allowedOrigins` (`CGRAPH_ALLOWED_ORIGINS`, `--allow-origin`); requests without Origin
 *     (agents, CLIs) pass. On a loopback bind without a token, the Host header must name a
 *     loopback host too, or one of `allowedHosts` (`CGRAPH_ALLOWED_HOSTS`: a reverse proxy's name).
 *   - Bearer token: with a token (`CGRAPH_TOKEN`), `Authorization: Bearer <token>` is required
 *     (401 otherwise). A non-loopback bind without a token is refused before listening.
 * Sessions idle longer than `idleMs` are closed (a client that comes back gets 404 and starts a
 * new one, as the protocol says). SIGTERM / SIGINT: stop taking new sessions, close every
 * session, let in-flight requests finish (at most a few seconds), close the database connection.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import { Session, type SessionOptions } from "../query/session.ts";
import { VERSION } from "../version.ts";
import { createServer } from "./server.ts";
import { isViewPath, viewHandler } from "../view/handler.ts";
import { isLoopbackHost, originAllowed } from "../origin.ts";

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token clients must send; required for a non-loopback host. */
  token?: string;
  /** Origins allowed besides loopback ones (exact `scheme://host[:port]`, or `*` for any). */
  allowedOrigins?: string[];
  /** Host header names accepted on a loopback bind besides loopback ones (a reverse proxy's). */
  allowedHosts?: string[];
  /** Close sessions idle this long (ms). */
  idleMs?: number;
  /** At most this many open sessions; more are refused with 503. */
  maxSessions?: number;
  /** Called once listening, with the bound port (useful with port 0). */
  onListen?: (addr: { host: string; port: number }) => void;
  /** Stops the server like SIGTERM does (tests). */
  signal?: AbortSignal;
}

export const DEFAULT_HTTP_PORT = 3000;
export const DEFAULT_HTTP_HOST = "127.0.0.1";
const DEFAULT_IDLE_MS = 60 * 60 * 1000;
const DEFAULT_MAX_SESSIONS = 256;

/** The host part of a Host header (`name:port`, `[v6]:port`). */
function hostOfHeader(value: string): string {
  const v = value.trim();
  if (v.startsWith("[")) return v.slice(0, v.indexOf("]") + 1);
  const i = v.lastIndexOf(":");
  return i >= 0 ? v.slice(0, i) : v;
}

/** Constant-time comparison of the presented bearer token with the expected one. */
export function bearerMatches(header: string | null, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? "");
  const enc = new TextEncoder();
  const a = enc.encode(m ? m[1].trim() : "");
  const b = enc.encode(token);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

/** Refuses a configuration that would expose the server to the network without a token. */
export function checkBind(opts: Pick<HttpOptions, "host" | "token">): void {
  if (!isLoopbackHost(opts.host) && !opts.token) {
    throw new CgraphError(
      `refusing to serve MCP over HTTP on ${opts.host} without a token`,
      "Set CGRAPH_TOKEN (clients then send 'Authorization: Bearer <token>'), or bind a " +
        "loopback address (--host 127.0.0.1).",
    );
  }
  if (opts.token !== undefined && opts.token.trim().length < 16) {
    throw new CgraphError(
      "CGRAPH_TOKEN is too short (at least 16 characters)",
      "Generate one, e.g. `openssl rand -hex 32`.",
    );
  }
}

function jsonRpcError(status: number, code: number, message: string, headers = {}): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

interface Entry {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

/** Serves until SIGTERM / SIGINT (or `opts.signal`); resolves with the exit code. */
export async function serveHttp(sessionOpts: SessionOptions, opts: HttpOptions): Promise<number> {
  checkBind(opts);
  const allowed = opts.allowedOrigins ?? [];
  const allowedHosts = (opts.allowedHosts ?? []).map((h) => h.toLowerCase());
  const loopbackBind = isLoopbackHost(opts.host);
  const idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  const maxSessions = opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const session = new Session(sessionOpts);
  const sessions = new Map<string, Entry>();
  let closing = false;
  // The page of `cgraph view` at /view/, behind the same guards (it checks the token itself, as a
  // browser sends it in the URL or a cookie rather than a header).
  const view = viewHandler(session, {
    base: "/view",
    token: opts.token,
    originAllowed: (o) => originAllowed(o, allowed),
  });

  const closeEntry = async (id: string, why: string) => {
    const e = sessions.get(id);
    if (!e) return;
    sessions.delete(id);
    log.debug(`mcp http: session ${id} closed (${why})`);
    await e.server.close().catch(() => {});
  };

  const openSession = async (req: Request): Promise<Response> => {
    if (closing) return jsonRpcError(503, -32000, "Server is shutting down");
    if (sessions.size >= maxSessions) {
      return jsonRpcError(503, -32000, `Too many sessions (${maxSessions}); try again later`);
    }
    const server = createServer(session);
    let entry: Entry | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        entry = { server, transport, lastSeen: Date.now() };
        sessions.set(id, entry);
        log.debug(`mcp http: session ${id} opened (${sessions.size} open)`);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        log.debug(`mcp http: session ${id} ended by the client`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    const res = await transport.handleRequest(req);
    // Not an initialize request: the transport answered with an error, nothing to keep.
    if (!entry) await server.close().catch(() => {});
    return res;
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      return new Response(req.method === "HEAD" ? null : "ok\n", {
        headers: { "content-type": "text/plain" },
      });
    }
    const forView = isViewPath(url.pathname);
    if (url.pathname !== "/mcp" && !forView) return new Response("Not Found\n", { status: 404 });

    const origin = req.headers.get("origin");
    if (origin !== null && !originAllowed(origin, allowed)) {
      log.warn(`mcp http: refused origin ${JSON.stringify(origin)}`);
      return jsonRpcError(403, -32000, "Forbidden: origin not allowed");
    }
    const hostHeader = req.headers.get("host");
    if (
      loopbackBind && !opts.token && hostHeader !== null &&
      !isLoopbackHost(hostOfHeader(hostHeader)) &&
      !allowedHosts.includes(hostOfHeader(hostHeader).toLowerCase())
    ) {
      log.warn(`mcp http: refused Host ${JSON.stringify(hostHeader)} on a loopback server`);
      return jsonRpcError(403, -32000, "Forbidden: host not allowed");
    }
    if (forView) return await view(req);
    if (opts.token && !bearerMatches(req.headers.get("authorization"), opts.token)) {
      return jsonRpcError(401, -32001, "Unauthorized: a valid bearer token is required", {
        "www-authenticate": 'Bearer realm="cgraph"',
      });
    }

    const id = req.headers.get("mcp-session-id");
    if (id === null) {
      if (req.method !== "POST") {
        return jsonRpcError(400, -32000, "Bad Request: no session; send initialize first");
      }
      return await openSession(req);
    }
    const entry = sessions.get(id);
    if (!entry) return jsonRpcError(404, -32001, "Session not found");
    entry.lastSeen = Date.now();
    return await entry.transport.handleRequest(req);
  };

  let resolveListening: (addr: { host: string; port: number }) => void = () => {};
  const listening = new Promise<{ host: string; port: number }>((r) => (resolveListening = r));
  let httpServer: Deno.HttpServer<Deno.NetAddr>;
  try {
    httpServer = Deno.serve({
      hostname: opts.host,
      port: opts.port,
      onListen: (addr) => resolveListening({ host: addr.hostname, port: addr.port }),
      onError: (err) => {
        log.error(`mcp http: ${err instanceof Error ? err.message : String(err)}`);
        return jsonRpcError(500, -32603, "Internal error");
      },
    }, handle);
  } catch (err) {
    await session.close();
    if (err instanceof Deno.errors.AddrInUse) {
      throw new CgraphError(
        `port ${opts.port} on ${opts.host} is in use`,
        "Pick another with --port or MCP_PORT.",
      );
    }
    throw err;
  }
  const addr = await listening;
  const shown = addr.host.includes(":") ? `[${addr.host}]` : addr.host;
  log.info(
    `mcp: cgraph ${VERSION} serving Streamable HTTP on http://${shown}:${addr.port}/mcp` +
      (opts.token ? " (bearer token required)" : ""),
  );
  opts.onListen?.(addr);

  const sweep = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, e] of sessions) if (e.lastSeen < cutoff) closeEntry(id, "idle");
  }, Math.max(1000, Math.min(60_000, Math.floor(idleMs / 2))));

  let resolveDone: (code: number) => void = () => {};
  const done = new Promise<number>((r) => (resolveDone = r));
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    log.info(`mcp: shutting down (${why}); closing ${sessions.size} session(s)`);
    clearInterval(sweep);
    const work = (async () => {
      // Closing a session ends its open SSE streams, so the HTTP server can drain.
      await Promise.all([...sessions.keys()].map((id) => closeEntry(id, "shutdown")));
      await httpServer.shutdown();
      await session.close();
    })();
    // Never hang on the way out.
    const timer = setTimeout(() => resolveDone(0), 5000);
    work.catch((err) => log.warn(`mcp: shutdown: ${String(err)}`)).finally(() => {
      clearTimeout(timer);
      resolveDone(0);
    });
  };

  const signals: Deno.Signal[] = ["SIGTERM", "SIGINT"];
  const onSignal = () => shutdown("signal");
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  const onAbort = () => shutdown("stopped");
  opts.signal?.addEventListener("abort", onAbort);
  if (opts.signal?.aborted) shutdown("stopped");

  const code = await done;
  for (const s of signals) Deno.removeSignalListener(s, onSignal);
  opts.signal?.removeEventListener("abort", onAbort);
  return code;
}
