/**
 * Running cgraph as an MCP server in a subprocess, against the test database: the SDK's own Client
 * over StdioClientTransport, or a raw process for stream-level checks.
 */
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import type { Db } from "../../src/db/client.ts";
import { freePort } from "../../src/db/proc.ts";

export const ROOT = new URL("../../", import.meta.url).pathname;
const CLEARED =
  /^(FALKORDB_|CGRAPH_DB$|CGRAPH_LOCAL_PORT$|CGRAPH_DATA_DIR$|CGRAPH_LOG$|CODE_GRAPH_)/;

/** FALKORDB_URL for a subprocess to reach the same server as `db`. */
export function dbUrl(db: Db): string {
  const ep = db.endpoint;
  const user = ep.username ? encodeURIComponent(ep.username) : "";
  const auth = ep.password ? `${user}:${encodeURIComponent(ep.password)}@` : "";
  const host = ep.host.includes(":") ? `[${ep.host}]` : ep.host;
  return `${ep.tls ? "rediss" : "redis"}://${auth}${host}:${ep.port}`;
}

/**
 * This process's environment less every database / cgraph setting, plus `extra`. CGRAPH_LOCAL_PORT
 * points at a closed port, so only what `extra` configures is used.
 */
export function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) if (!CLEARED.test(k)) env[k] = v;
  env.CGRAPH_LOCAL_PORT = String(freePort());
  env.CGRAPH_LOG = "warn";
  return { ...env, ...extra };
}

export const MCP_ARGS = ["run", "-A", "--unstable-raw-imports", join(ROOT, "main.ts"), "mcp"];

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  /** Transport / protocol errors seen (a stray byte on stdout shows up here). */
  errors: Error[];
  stderr: () => string;
  close(): Promise<void>;
}

/** `cgraph mcp <args>` as a child process, connected with the SDK's Client. */
export async function connectMcp(args: string[], env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [...MCP_ARGS, ...args],
    cwd: ROOT,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    stderr += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  const errors: Error[] = [];
  const client = new Client({ name: "cgraph-test", version: "1.0.0" });
  client.onerror = (e: Error) => errors.push(e);
  await client.connect(transport);
  transport.onerror = (e: Error) => errors.push(e);
  return {
    client,
    transport,
    errors,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** The text of a tool result (its first content item). */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}
