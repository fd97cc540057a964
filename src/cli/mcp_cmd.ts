/**
 * `cgraph mcp [path]`: the MCP server, over stdio (src/mcp/server.ts) or, with `--http` or
 * `MCP_TRANSPORT=http`, over Streamable HTTP (src/mcp/http.ts).
 */
import { resolve } from "node:path";
import { CgraphError } from "../errors.ts";
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, serveHttp } from "../mcp/http.ts";
import { serveStdio } from "../mcp/server.ts";
import { type Command, parseCommandArgs, pathArgument } from "./command.ts";
import { serverFreshness } from "../watch/watches.ts";

const USAGE = "cgraph mcp [path] [--project P] [--branch B] " +
  "[--http [--port 3000] [--host 127.0.0.1] [--allow-origin O]... [--root DIR]...]";

const HELP = `${USAGE}

Serves cgraph's tools over MCP. [path] (default: .) is the project tools answer for when a call
names none; it is indexed on first use unless CODE_GRAPH_AUTO_INDEX=false. --project / --branch
name its graph.

Transports:
  stdio (default)   the client starts 'cgraph mcp' and talks on stdin/stdout
  --http            Streamable HTTP on http://HOST:PORT/mcp, many clients at once (also
                    MCP_TRANSPORT=http); --port / MCP_PORT (default ${DEFAULT_HTTP_PORT}),
                    --host / MCP_HOST (default ${DEFAULT_HTTP_HOST})

HTTP security:
  CGRAPH_TOKEN      bearer token clients must send (Authorization: Bearer <token>); required
                    to bind a non-loopback host
  --allow-origin O  browser origins allowed besides loopback ones (also CGRAPH_ALLOWED_ORIGINS,
                    comma-separated); requests carrying any other Origin are refused (403)
  CGRAPH_ALLOWED_HOSTS  Host names accepted on a loopback bind without a token (a reverse
                    proxy's, comma-separated); other Host headers are refused (403)
  --root DIR        (repeatable) a tool's 'path' must lie inside one of these directories or be
                    a project already indexed here (default: the working directory; [path] is
                    always allowed)`;

function envList(name: string): string[] {
  return (Deno.env.get(name) ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

export function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port > 65535) {
    throw new CgraphError(`invalid port '${raw}'`, "A port is a number from 0 to 65535.");
  }
  return port;
}

export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve the code graph tools over MCP (stdio, or --http); [path] is the default project",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      project: { type: "string" },
      branch: { type: "string" },
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      "allow-origin": { type: "string", multiple: true },
      root: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    }, USAGE);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const path = pathArgument("mcp", positionals, USAGE);
    if (path === undefined) return 2;
    const sessionOpts = {
      defaultPath: path,
      project: values.project,
      branch: values.branch,
      // A long-lived server keeps its graphs current (CODE_GRAPH_WATCH=false: it does not); what
      // the watched ones need is kept in memory (IndexOptions.resident).
      freshness: serverFreshness(),
    };
    const transport = (Deno.env.get("MCP_TRANSPORT") ?? "").trim().toLowerCase();
    if (transport !== "" && !["stdio", "http", "streamable-http"].includes(transport)) {
      throw new CgraphError(
        `unknown MCP_TRANSPORT '${transport}'`,
        "Use 'stdio' (the default) or 'http'.",
      );
    }
    const http = values.http || transport === "http" || transport === "streamable-http";
    if (!http) {
      if (
        values.port !== undefined || values.host !== undefined || values["allow-origin"] ||
        values.root
      ) {
        console.error(
          `cgraph mcp: --port, --host, --allow-origin and --root need --http\nUsage: ${USAGE}`,
        );
        return 2;
      }
      return await serveStdio(sessionOpts);
    }
    const roots: string[] = [];
    for (const r of [...(values.root ?? [Deno.cwd()]), path]) {
      const abs = resolve(r);
      const st = await Deno.stat(abs).catch(() => undefined);
      if (!st?.isDirectory) {
        throw new CgraphError(`--root ${r}: not a directory`, "Give existing directories.");
      }
      roots.push(abs);
    }
    const token = Deno.env.get("CGRAPH_TOKEN") || undefined;
    return await serveHttp({ ...sessionOpts, roots }, {
      host: values.host ?? (Deno.env.get("MCP_HOST") || DEFAULT_HTTP_HOST),
      port: parsePort(values.port ?? (Deno.env.get("MCP_PORT") || String(DEFAULT_HTTP_PORT))),
      token,
      allowedOrigins: [...envList("CGRAPH_ALLOWED_ORIGINS"), ...(values["allow-origin"] ?? [])],
      allowedHosts: envList("CGRAPH_ALLOWED_HOSTS"),
      idleMs: Number(Deno.env.get("CGRAPH_HTTP_IDLE_MS")) || undefined,
    });
  },
};
