/**
 * `cgraph mcp [path]`: the MCP server over stdio. Every tool of the table in src/tools/registry.ts,
 * with `path` (default: the current directory) as the default project. Stdout carries protocol
 * only: logs go to stderr, and console output is redirected there too. Ends cleanly when stdin
 * closes or on SIGTERM / SIGINT, closing the database connection.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import process from "node:process";
import { samplerFor } from "../ask/sampling.ts";
import { describeError } from "../errors.ts";
import type { Progress } from "../index/indexer.ts";
import { log } from "../log.ts";
import { Session, type SessionOptions } from "../query/session.ts";
import type { ToolAnnotations } from "../query/tool_kit.ts";
import { execute } from "../tools/execute.ts";
import { TOOLS } from "../tools/registry.ts";
import { VERSION } from "../version.ts";

export const INSTRUCTIONS =
  "cgraph answers structural questions about code (callers, callees, impact, paths, references) " +
  "from a graph of the repository. Every tool takes optional project and branch (default: the " +
  "repository this server was started in, on its current branch), path (a repository root; " +
  "project and branch derive from it) and format (text, or json for the same data). A symbol is " +
  "a name, a qualified name or its dotted tail (Class.method); when several definitions match, " +
  "each is answered in its own group: narrow with file or a qualified name. Text answers: one " +
  "header line, then one result per line, fields separated by ' | ', paths relative to the " +
  "project root; names are shown without the part their path already says. 'guess 0.7' marks a " +
  "call linked by a unique name only. A header saying 'stale' means files changed since " +
  "indexing: call index_repo; 'updating' means recent edits are being indexed: ask again.";

/** Overall progress (0-100) from the indexer's phases, for MCP progress notifications. */
export function overallProgress(p: Progress): number {
  const span: Record<Progress["phase"], [number, number]> = {
    scan: [0, 5],
    parse: [5, 80],
    resolve: [80, 85],
    write: [85, 99],
    done: [100, 100],
  };
  const [a, b] = span[p.phase];
  const frac = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  return Math.round(a + (b - a) * frac);
}

export function createServer(session: Session): McpServer {
  const server = new McpServer(
    { name: "cgraph", version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  for (const def of TOOLS) {
    server.registerTool(
      def.name,
      { description: def.description, inputSchema: def.shape, annotations: def.annotations },
      async (args, extra) => {
        const token = extra._meta?.progressToken;
        let last = -1;
        let lastAt = 0;
        // The last progress notification goes out before the answer, never after it.
        let sent: Promise<unknown> = Promise.resolve();
        const onProgress = token === undefined ? undefined : (p: Progress) => {
          const progress = overallProgress(p);
          const now = performance.now();
          // Strictly increasing, at most ~10 per second.
          if (progress <= last || (p.phase !== "done" && now - lastAt < 100)) return;
          last = progress;
          lastAt = now;
          sent = extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total: 100, message: `indexing: ${p.phase}` },
          }).catch(() => {});
        };
        const started = performance.now();
        try {
          const out = await execute(def, session, args as Record<string, unknown>, {
            onProgress,
            sample: samplerFor(server),
            client: server.server.getClientVersion(),
          });
          log.debug(`${def.name} ok in ${Math.round(performance.now() - started)} ms`);
          await sent;
          return {
            content: [{ type: "text" as const, text: out.text }],
            ...(out.json ? { structuredContent: out.json } : {}),
          };
        } catch (err) {
          log.debug(`${def.name} failed: ${describeError(err)}`);
          await sent;
          return { content: [{ type: "text" as const, text: describeError(err) }], isError: true };
        }
      },
    );
  }
  // tools/list is paid for on every turn: the SDK's listing adds a `$schema` URL and an
  // `execution` block to every tool, which tell a client nothing here. Same tools, leaner list.
  const listing = TOOLS.map((def) => {
    const { $schema: _, ...inputSchema } = z.toJSONSchema(z.object(def.shape), {
      io: "input",
      target: "draft-7",
    }) as Record<string, unknown>;
    return {
      name: def.name,
      description: def.description,
      inputSchema: listedSchema(inputSchema),
      annotations: listedAnnotations(def.annotations),
    };
  });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing } as never));
  return server;
}

/**
 * Annotations as listed: a read-only tool says so, and that it reaches outside when it does (ask);
 * the hints the MCP spec defines only for tools that write (destructive, idempotent) are left out
 * for it.
 */
export function listedAnnotations(a: ToolAnnotations): Partial<ToolAnnotations> {
  if (!a.readOnlyHint) return a;
  return a.openWorldHint ? { readOnlyHint: true, openWorldHint: true } : { readOnlyHint: true };
}

/**
 * The input schema as listed (tools/list is read on every turn): without defaults (answers say
 * their depth, and how to get more when a limit cut them) and without `format`, which every tool
 * takes and the server's instructions describe once. Calls are still checked against the whole
 * schema.
 */
export function listedSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!props) return schema;
  const lean = Object.fromEntries(
    Object.entries(props).filter(([name]) => name !== "format").map(([name, p]) => {
      const { default: _, ...rest } = p;
      return [name, rest];
    }),
  );
  return { ...schema, properties: lean };
}

/** Runs the server until the client goes away; resolves with the exit code. */
export async function serveStdio(opts: SessionOptions): Promise<number> {
  // Anything printing to stdout would corrupt the protocol stream: send it to stderr instead.
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;

  const session = new Session(opts);
  const server = createServer(session);
  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  let resolveDone: (code: number) => void = () => {};
  const done = new Promise<number>((r) => (resolveDone = r));

  let shuttingDown = false;
  const shutdown = (why: string) => {
    // Set before closing: server.close() closes the transport, whose onclose calls this again.
    if (shuttingDown) return;
    shuttingDown = true;
    log.debug(`mcp: shutting down (${why})`);
    closing = (async () => {
      await server.close().catch(() => {});
      await session.close();
    })();
    // Never hang on the way out: a stuck close is cut short.
    const timer = setTimeout(() => resolveDone(0), 3000);
    closing.finally(() => {
      clearTimeout(timer);
      resolveDone(0);
    });
  };

  process.stdin.on("end", () => shutdown("stdin closed"));
  process.stdin.on("close", () => shutdown("stdin closed"));
  transport.onclose = () => shutdown("transport closed");
  const signals: Deno.Signal[] = ["SIGTERM", "SIGINT"];
  const onSignal = () => shutdown("signal");
  for (const s of signals) Deno.addSignalListener(s, onSignal);

  await server.connect(transport);
  log.debug(`mcp: serving ${opts.defaultPath} (cgraph ${VERSION})`);
  const code = await done;
  for (const s of signals) Deno.removeSignalListener(s, onSignal);
  return code;
}
